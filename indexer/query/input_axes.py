"""The Input Manager's axes, for a task asking which key or button does something.

A project on Unity's legacy input reads its buttons by name (`Input.GetButton("Jump")`), and the
keys behind each name live in one settings file, `ProjectSettings/InputManager.asset`. That file
is long (every default axis), so its text match on "jump" is weak beside the scripts saying
`Jump` everywhere; yet "which key makes the player jump" is answered only there (`Jump [positive:
space]`). When the task asks about input and names an axis, and the project's code reads input
through the legacy `Input` class, the file ranks with the best matches and says which axis.
"""

from __future__ import annotations

from indexer.identifiers import name_stems, stem
from indexer.model import Ranked
from indexer.query.priors import INPUT_WORDS, asks_for

INPUT_MANAGER = "ProjectSettings/InputManager.asset"
AXIS_SHARE = 0.9  # of the best text match's score: among the first answers, not above the code


def raise_named_axes(project, ranked: dict[str, Ranked], terms: list[str], said: list[str]) -> None:
    """Raise the Input Manager when the task asks about input and names one of its axes."""
    manager = ranked.get(INPUT_MANAGER)
    if manager is None or not asks_for(said, INPUT_WORDS) or not _reads_legacy_input(project):
        return
    stems = {stem(t) for t in terms if t not in INPUT_WORDS}
    axes = [
        f"{s.name} [{s.detail}]" if s.detail else s.name
        for s in project.records.symbols(INPUT_MANAGER)
        if s.kind == "input_axis" and not stems.isdisjoint(name_stems(s.name))
    ]
    if not axes:
        return
    best = max(r.score for r in ranked.values())
    manager.score = max(manager.score, best * AXIS_SHARE)
    manager.reasons.append(f"input axis {'; '.join(dict.fromkeys(axes[:3]))}")


def _reads_legacy_input(project) -> bool:
    """Whether any script reads the legacy `Input` class (`Input.GetButton`, `Input.GetAxis`)."""
    sql = "SELECT 1 FROM refs WHERE kind = 'type' AND key = 'Input' AND context = 'static' LIMIT 1"
    return project.remember(
        ("legacy input",), lambda: project.records.conn.execute(sql).fetchone() is not None, role=True
    )

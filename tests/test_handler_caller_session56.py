"""The one script calling a handler the task names (docs/retrieval.md, "Session 56, a
thirty-fourth trial"): "where does a player get eliminated" finds `OnPlayerEliminated` on the
manager; where it happens is the one trigger calling it, whose words may be none of the task's.
Read from a real index of a small project: its symbols, its `uses_type` edges, its files' lines."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Ranked
from indexer.query import close_parts
from indexer.query.workspace import open_workspace

from .conftest import write_project

HIT = "Assets/Round/RoundManager.cs"
ZONE = "Assets/Round/KillVolume.cs"
ASKED = frozenset({"player", "eliminat", "fall", "arena"})


def _graph(tmp_path: Path, handler: str = "OnPlayerEliminated", users: int = 3, callers: int = 1):
    """The manager declaring `handler` and `EndRound`, used by `users` scripts (the kill volume
    first), the first `callers` of them calling the handler, the others `EndRound`."""
    files = {
        HIT: (
            "using UnityEngine;\npublic class RoundManager : MonoBehaviour\n{\n"
            "    public static RoundManager Instance;\n"
            f"    public void {handler}(int id) {{ }}\n"
            "    public void EndRound() { }\n}\n"
        )
    }
    names = ["KillVolume", *(f"User{i}" for i in range(1, users))]
    for i, name in enumerate(names):
        call = f"{handler}(id)" if i < callers else "EndRound()"
        files[f"Assets/Round/{name}.cs"] = (
            f"using UnityEngine;\npublic class {name} : MonoBehaviour\n{{\n"
            f"    void OnTriggerEnter(Collider other) {{ int id = 1; RoundManager.Instance.{call}; }}\n}}\n"
        )
    root = write_project(tmp_path, files)
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())]).projects[0].graph


def _order() -> list[Ranked]:
    return [Ranked(HIT, 20.0, [])] + [Ranked(f"Assets/F{i}.cs", 10.0 - i / 10, []) for i in range(11)]


def _lifted(graph, asked: frozenset[str] = ASKED) -> list[str]:
    return [r.path for r in close_parts.lift_handler_callers(graph, _order(), {}, asked)]


def test_the_one_caller_of_a_named_handler_rises_just_above_the_tenth(tmp_path: Path) -> None:
    """The manager first, its `OnPlayerEliminated` every word the task's: the one script of its
    users calling it is added tenth, at just above the old tenth's score, said why."""
    order = _order()
    out = close_parts.lift_handler_callers(_graph(tmp_path), order, {}, ASKED)
    assert [r.path for r in out].index(ZONE) == 9
    assert out[9].score == order[9].score * close_parts.LIFT
    assert out[9].reasons == [f"the one script calling {HIT}'s OnPlayerEliminated, which the task names"]


def test_a_handler_called_from_two_scripts_does_not(tmp_path: Path) -> None:
    """Two scripts calling it: which one the task means is not told, neither rises."""
    assert ZONE not in _lifted(_graph(tmp_path, callers=2))


def test_a_handler_with_a_word_the_task_does_not_say_does_not(tmp_path: Path) -> None:
    """`OnPlayerEliminatedTwice`: "twice" is not the task's, so the handler is not the one named."""
    assert ZONE not in _lifted(_graph(tmp_path, handler="OnPlayerEliminatedTwice"))


def test_a_hit_used_by_many_scripts_is_not_read(tmp_path: Path, monkeypatch) -> None:
    """More than FEW_USERS scripts using the hit: a hub's handler; none of them is read."""
    assert close_parts.FEW_USERS == 8
    graph = _graph(tmp_path / "nine", users=9)
    read: list[str] = []
    lines = graph.file_lines
    monkeypatch.setattr(graph, "file_lines", lambda path: read.append(path) or lines(path))
    assert ZONE not in _lifted(graph)
    assert read == []
    assert ZONE in _lifted(_graph(tmp_path / "eight", users=8))


def test_named() -> None:
    """A handler named by two words of the task or more, each of them; never a Unity message."""
    asked = frozenset({"player", "eliminat", "trigger", "enter", "death"})
    assert close_parts._named("OnPlayerEliminated", asked)
    assert not close_parts._named("OnPlayerEliminatedTwice", asked)
    assert not close_parts._named("OnDeath", asked)  # one word: too few
    assert not close_parts._named("OnTriggerEnter", asked)  # Unity calls it, no script does
    assert not close_parts._named("PlayerEliminated", asked)  # no handler

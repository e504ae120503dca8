"""A task asking what happens when the game starts is about the first scene of the build.

"What happens when the game starts", "the first time I launch the app", "where is the
bootstrap": a player's game opens in the first scene enabled in `EditorBuildSettings.asset`, and
the scripts its objects carry run first (their `Awake` and `Start`), after those Unity runs as the
game starts whatever the scene (`[RuntimeInitializeOnLoadMethod]`: a bootstrapper instantiating the
game's systems). The question shares no word with that scene (and "starts" matches every `Start()`
of the project), so the ranking finds it by the build: the scene and those initializers gain a
share of the best match's score, and the scripts on the scene (on its objects or the prefabs it
places) a smaller one.
"""

from __future__ import annotations

import re

from indexer.identifiers import STOP_WORDS
from indexer.model import Ranked
from indexer.project import is_script
from indexer.query.carriers import carried
from indexer.query.quotes import without_quotes

STARTUP_GAIN = 0.7  # times the best match's score
# A task asking only that ("what happens when the game starts", "what runs first on startup") is
# answered by the scene itself, above every `Start()` its words match.
ALONE_GAIN = 1.2
# Each script the scene carries (its objects or through its prefabs): SCRIPTS_SHARED times SCRIPT_GAIN
# shared by them all, at most SCRIPT_GAIN each, or STARTUP_GAIN when the task asks only what happens
# at start: then the one script of a bootstrap scene's one prefab (`BootstrapScope`, entering the
# game's first state) is the answer as much as an initializer (not when the start is the moment of
# something else the task asks about: "an error naming the empty field as soon as the game starts").
SCRIPT_GAIN = 0.35
SCRIPTS_SHARED = 6
_INITIALIZER = "RuntimeInitializeOnLoadMethod"
INITIALIZERS = 20  # scripts holding the word looked at
# The game or app as a whole starting, not a round, a wave or a timer: "when the game starts",
# "on startup", "first launch", "the bootstrap", "entry point", "the first scene".
_STARTING = re.compile(
    r"\b(?:(?:game|app|application|build)\s+(?:first\s+)?(?:starts?|starting|launch(?:es)?|launching|boots?|booting|opens)"
    r"|(?:start|launch|open|boot|run)(?:s|ing)?\s+(?:up\s+)?(?:the\s+)?(?:game|app|application|build)\b(?!\s+over)"
    r"|start[- ]?up|boot(?:strap\w*|ing)|entry[- ]point|first\s+(?:scene|launch)|on\s+launch)\b",
    re.I,
)


# Words of such a task that ask what happens at start rather than about some part of the game.
_ASKING = frozenset(
    """happen happens happening run runs running first load loads loaded loading called execute executes
    executed start starts started game app application launch launches launched order code""".split()  # noqa: SIM905
)


def asks_startup(text: str) -> bool:
    """Whether the task, in its own words (not a quoted option's: 'load bootstrap scene'), asks
    what happens as the game starts."""
    return _STARTING.search(without_quotes(text)) is not None


def asks_only_startup(text: str) -> bool:
    """Whether the task asks what happens as the game starts and about nothing else in it."""
    rest = _STARTING.sub(" ", without_quotes(text)).lower()
    return asks_startup(text) and all(w in _ASKING or w in STOP_WORDS for w in re.findall(r"[a-z]+", rest))


def first_build_scene(records) -> str | None:
    """The first scene enabled in the build, where the player's game opens; None without one."""
    build = records.symbols("ProjectSettings/EditorBuildSettings.asset")
    first = next((s.name for s in build if s.kind == "build_scene" and s.detail == "enabled"), None)
    return first if first is not None and records.stats_of([first]) else None  # not a scene's whole record


def raise_startup(
    project, ranked: dict[str, Ranked], text: str, kind: str | None = None, path_prefix: str | None = None
) -> None:
    """The first scene of the build gains a share of the best match's score when the task asks
    what happens as the game starts, and so do the scripts on it and those Unity runs as the game
    starts whatever its scenes (`[RuntimeInitializeOnLoadMethod]`; `project`: a
    workspace.ProjectIndex); a file of another kind or outside the folder a search is kept to
    gains nothing."""
    if not asks_startup(text):
        return
    scene = first_build_scene(project.records)
    top = max((r.score for r in ranked.values()), default=1.0)  # 1.0: no word of the task matched
    alone = asks_only_startup(text)
    gains = {scene: (ALONE_GAIN if alone else STARTUP_GAIN) * top} if scene else {}
    scripts = _scripts_on(project.graph, scene) if scene else []
    most = STARTUP_GAIN if alone else SCRIPT_GAIN
    for script in scripts:  # SCRIPTS_SHARED scripts' gains shared by all, at most `most` each
        gains[script] = min(most, SCRIPT_GAIN * SCRIPTS_SHARED / len(scripts)) * top
    initializers = project.remember(("initializers",), lambda: _initializers(project), role=True)
    for script in initializers:  # they run before the first scene's scripts: as much as the scene
        gains[script] = STARTUP_GAIN * top
    prefix = path_prefix.strip("/") + "/" if path_prefix else ""
    stats = project.stats_of(gains)
    for path, gain in gains.items():
        if path in stats and path.startswith(prefix) and kind in (None, stats[path].kind):
            ranked.setdefault(path, Ranked(path, 0.0, [])).score += gain  # a script's reason: the walk's
            if path in initializers:  # which method: the hit may be named by another (`Start…`)
                ranked[path].reasons.append(f"{initializers[path]} runs as the game starts ([{_INITIALIZER}])")
    if scene in ranked:
        ranked[scene].reasons.append("the first scene of the build: where the game starts")


def _initializers(project) -> dict[str, str]:
    """The scripts declaring a method Unity runs as the game starts, before or after its first
    scene loads, whatever scene holds them (`[RuntimeInitializeOnLoadMethod]`: a bootstrapper
    instantiating the game's systems was never said), each with that method, `Type.Method`."""
    found = project.searcher.holding([_INITIALIZER], INITIALIZERS, "csharp", None)
    out: dict[str, str] = {}
    for c in found:
        runs = (s for s in project.records.symbols(c.path) if s.kind == "method" and _runs_at_start(s.attributes))
        if (method := next(runs, None)) is not None:
            out[c.path] = f"{method.container.rpartition('.')[2]}.{method.name}"
    return out


def _runs_at_start(attributes: tuple[str, ...]) -> bool:
    return any(a.split("(", 1)[0].rpartition(".")[2].strip() == _INITIALIZER for a in attributes)


def _scripts_on(graph, scene: str) -> list[str]:
    """The scripts the scene's objects carry, themselves or through the prefabs it places (at any
    depth, less those an instance removes: `carriers.carried`)."""
    own = [p for p, edge in graph.uses(scene) if edge == "script"]
    return list(dict.fromkeys([*own, *(p for p, _ in carried(graph, scene) if is_script(p))]))

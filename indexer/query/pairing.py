"""A prefab and the one script that is its behaviour rank together.

A prefab's values and wiring live in the prefab, its behaviour in the script it carries: a task
about either needs both. The walk (walk.py) reaches one from the other at a fraction of the
seed's score, too little when the other holds none of the task's words; these rules raise the
partner to a share of the hit's score when the pairing is one to one.
"""

from __future__ import annotations

from collections.abc import Callable

from indexer.model import Ranked
from indexer.project import is_prefab, is_script

# A script among the PAIRED_SCRIPTS best that one prefab alone carries is that prefab's behaviour:
# the prefab ranks at least PAIRED_SHARE of the script's score (see prefabs_of_scripts), level
# with it (ASKED_SHARE) when the task asks where something is set.
PAIRED_SCRIPTS = 3
PAIRED_SHARE, ASKED_SHARE = 0.8, 1.0
# A prefab among the BEHAVIOUR_PREFABS best whose one project script at most BEHAVIOUR_CARRIERS
# files carry (prefabs, scenes): the script ranks at least BEHAVIOUR_SHARE of the prefab's score.
BEHAVIOUR_PREFABS = 3
BEHAVIOUR_SHARE = 0.8
BEHAVIOUR_CARRIERS = 3


def pair(
    project,
    ranked: dict[str, Ranked],
    boosts: dict,
    stats: dict,
    prior: Callable[[str], float],
    kind: str | None,
    path_prefix: str | None,
    asks_assets: bool,
) -> None:
    """Both pairings, within the search's filters: a prefab for its script when prefabs may be
    shown, a script for its prefab when any kind may. `asks_assets`: the task asks where
    something is set, configured or wired (priors.ASSET_WORDS)."""
    prefix = path_prefix.strip("/") + "/" if path_prefix else ""
    if kind in (None, "prefab"):
        share = ASKED_SHARE if asks_assets else PAIRED_SHARE
        prefabs_of_scripts(project, ranked, boosts, stats, prior, prefix, share)
    if kind is None:
        scripts_of_prefabs(project, ranked, boosts, stats, prior, prefix)


def _best(ranked: dict[str, Ranked], keep: Callable[[str], bool], n: int) -> list[Ranked]:
    return [r for r in sorted(ranked.values(), key=lambda r: (-r.score, r.path)) if keep(r.path)][:n]


def _raise(project, ranked: dict[str, Ranked], boosts: dict, stats: dict, path: str, score: float, why: tuple) -> None:
    if path not in ranked:
        ranked[path] = Ranked(path, 0.0, [])
        stats.update(project.stats_of([path]))
    if ranked[path].score < score:
        ranked[path].score = score
        boosts.setdefault(path, (score, *why))


def prefabs_of_scripts(
    project,
    ranked: dict[str, Ranked],
    boosts: dict,
    stats: dict,
    prior: Callable[[str], float],
    prefix: str,
    share: float = PAIRED_SHARE,
) -> None:
    """A script among the PAIRED_SCRIPTS best that exactly one prefab carries directly is that
    prefab's behaviour, and the prefab holds its values and wiring: `EnemySpawner.prefab` for
    `EnemySpawner.cs`, `PlayerShipBase.prefab` for the ship's `PlayerShipShootBullet.cs`. The
    prefab ranks at least `share` of the script's score times its own prior (a code task
    still ranks prefabs lower), reached from it (`boosts`, read for the reason; `stats`, for its
    kind, gains the prefab's). Only prefabs under `prefix`, the search's path prefix."""
    for script in _best(ranked, is_script, PAIRED_SCRIPTS):
        carried_by = project.graph.used_by(script.path)
        prefabs = [p for p, edge in carried_by if edge == "carries_script" and is_prefab(p)]
        if len(prefabs) != 1 or not prefabs[0].startswith(prefix):
            continue
        score = script.score * share * prior(prefabs[0])
        _raise(project, ranked, boosts, stats, prefabs[0], score, ("carries_script", script.path, ()))


def scripts_of_prefabs(
    project, ranked: dict[str, Ranked], boosts: dict, stats: dict, prior: Callable[[str], float], prefix: str
) -> None:
    """A prefab among the BEHAVIOUR_PREFABS best that carries one project script, a script few
    files carry directly (a generic `Rotator` on forty props says nothing), does what it says:
    `Breakable.cs` for the piggy bank that shatters, `TimedSelfDestruct.cs` for the laser shot
    that vanishes. The script ranks at least BEHAVIOUR_SHARE of the prefab's score times its own
    prior (third-party code keeps its lower weight)."""
    for prefab in _best(ranked, is_prefab, BEHAVIOUR_PREFABS):
        scripts = [p for p, edge in project.graph.uses(prefab.path) if edge == "script" and p.startswith(prefix)]
        if len(scripts) != 1:
            continue
        carriers = [p for p, edge in project.graph.used_by(scripts[0]) if edge == "carries_script"]
        if not carriers or len(carriers) > BEHAVIOUR_CARRIERS:
            continue
        score = prefab.score * BEHAVIOUR_SHARE * prior(scripts[0])
        _raise(project, ranked, boosts, stats, scripts[0], score, ("script", prefab.path, ()))

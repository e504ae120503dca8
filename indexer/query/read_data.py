"""The one data asset a script reads settings from, found by the class of a field.

A script holding a field of a ScriptableObject class (`CharacterLevelData _levelData`,
`EnemySpawnerSettingsData _spawnSettings`) reads its numbers from an instance of it, assigned
where the script's object is built: an installer, another data asset, a loader's key. When that
class has one data asset, which no prefab or scene holds, that asset is where the script's numbers
are set ("leveling up gets too slow": `NeroLevelData.asset`, the XP curve's multiplier and exponent,
beside `PlayerCharacterLevel.cs`), as a prefab holds the values of the one script it carries
(`pairing.prefabs_of_scripts`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from indexer.identifiers import name_stems
from indexer.project import file_title, is_script
from indexer.query.describe import unity_root

if TYPE_CHECKING:
    from indexer.query.pairing import _Pairs

READ_SCRIPTS = 3  # the best scripts whose used classes are looked into (pairing.PAIRED_SCRIPTS)


def raise_read_data(pairs: _Pairs, share: float) -> None:
    """For each of the READ_SCRIPTS best scripts, a ScriptableObject class it uses (a field's type,
    a load's type argument) whose one carrier is one data asset that no prefab or scene
    references, that the text matched and that is named alike (`named_alike`) ranks at least
    `share` of the script's score times its own prior. An asset a prefab or scene holds is reached
    through them (a score variable on the player is no answer to every question about it), one
    the task's words miss is another matter (an input reader the player's controller reads), one
    named otherwise is one thing of its kind (the one leg armour of its class among a game's items)."""
    graph = pairs.project.graph
    # the matched data assets' words: a used class sharing none of them is passed over before its
    # carriers are read (a script uses dozens of types: 7 ms a query)
    matched = {p for p, r in pairs.ranked.items() if r.candidate is not None and p.endswith(".asset")}
    words = {w for p in matched for w in _words(p)}
    for script in pairs.best(is_script, READ_SCRIPTS):
        for used, edge in graph.uses(script.path):
            if edge != "type" or not is_script(used) or words.isdisjoint(_firsts(used)):
                continue
            carried_by = pairs.carriers(used)
            if len(carried_by) != 1 or carried_by[0] not in matched or not carried_by[0].startswith(pairs.prefix):
                continue
            asset = carried_by[0]
            if named_alike(asset, used) and not placed(graph, asset) and unity_root(graph, used) == "ScriptableObject":
                pairs.raise_to(asset, script.score * share * pairs.prior(asset), ("carries_script", used, ()))


def named_alike(asset: str, script: str) -> bool:
    """Whether a data asset is named as its class: the same name (`LocalShopData.asset` of
    `LocalShopData`), or one saying half of the class's words, one of them before its last
    (`NeroLevelData` of `CharacterLevelData`, `EnemySpawnSettings` of `EnemySpawnerSettingsData`;
    not `SwordData` of `ItemData`, alike only in the kind's last word)."""
    own, theirs = _words(asset), _words(script)
    if not theirs:
        return False
    shared = own.intersection(theirs)
    return 2 * len(shared) >= len(theirs) and not shared.isdisjoint(_firsts(script))


def _words(path: str) -> set[str]:
    """The stemmed words of a file's name, of three letters or more."""
    return set(_parts(path))


def _firsts(path: str) -> set[str]:
    """The words of a file's name before its last (`CharacterLevelData`: character, level), or its
    one word."""
    parts = _parts(path)
    return set(parts[:-1] or parts)


@lru_cache(maxsize=65536)
def _parts(path: str) -> tuple[str, ...]:
    """A file's name's stemmed words of three letters or more, in order (pure: kept across queries)."""
    stems = name_stems(file_title(path))
    return tuple(w for w in stems[1:] or stems if len(w) > 2)


def placed(graph, asset: str) -> bool:
    """Whether a prefab or scene references the data asset `asset` (in a field of its objects)."""
    return any(p.endswith((".prefab", ".unity")) for p, _edge in graph.used_by(asset))

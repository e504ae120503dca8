"""A data asset listing most of a class's instances is where a new one is registered.

"Which asset lists all the songs", "I added a new song, where do I register it so it shows in the
list": the song data class ranks first and its instances after it, while the one data asset whose
field holds them all (a game's `MasterManager.asset` of `MusicMasterManagerData`, its
`selectDatas: MusicSelectData[]`) says none of the task's words. Its edges to them say what it is.

The same registry reached from its items instead of their class: "Where do I change how much each
tower costs to build?" ranks the towers' scripts (each a different class, each on its own prefab),
and the data asset whose list holds the tower prefabs with their prices says "Turret", never
"tower" (`raise_item_registries`).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from indexer.identifiers import name_stems, stem, word_stems
from indexer.project import file_title, is_script
from indexer.query.priors import ASSET_WORDS, KIND_WORDS
from indexer.unity import bare_type_name

if TYPE_CHECKING:
    from indexer.query.pairing import _Pairs

# A script among the REGISTRY_SCRIPTS best with REGISTRY_LEAST to REGISTRY_MOST data assets: the
# project-scripted data assets holding at least half of them (and REGISTRY_LEAST), when at most
# REGISTRY_HOLDERS do, rank at least REGISTRY_SHARE of the script's score times their prior.
REGISTRY_SCRIPTS, REGISTRY_LEAST, REGISTRY_MOST, REGISTRY_HOLDERS, REGISTRY_SHARE = 5, 3, 40, 2, 0.9
# The task asks for the list, not for one of its items: it says one of these words.
_LISTING = frozenset(stem(w) for w in ("list", "lists", "listed", "register", "registered", "registry", "catalog"))


def asks_listing(stems: frozenset[str]) -> bool:
    """Whether the task's word stems say a list or registering one ("lists all", "register it")."""
    return not _LISTING.isdisjoint(stems)


def raise_registries(pairs: _Pairs, stems: frozenset[str]) -> None:
    """For a task saying a list (`asks_listing`), each of the REGISTRY_SCRIPTS best scripts whose
    class has several data assets: the few data assets of a project script holding most of them in
    their fields (a registry, an index of every level or song) rank at least REGISTRY_SHARE of the
    script's score times their own prior. Not a scene or prefab (a menu holding its buttons' data)."""
    if not asks_listing(stems):
        return
    graph = pairs.project.graph
    for script in pairs.best(is_script, REGISTRY_SCRIPTS):
        data = {p for p in pairs.carriers(script.path) if p.endswith(".asset")}
        if not REGISTRY_LEAST <= len(data) <= REGISTRY_MOST:
            continue
        held = Counter(
            p
            for d in data
            for p, edge in graph.used_by(d)
            if edge == "refers_to" and p.endswith(".asset") and p not in data
        )
        least = max(REGISTRY_LEAST, (len(data) + 1) // 2)
        holders = [p for p, n in held.items() if n >= least and graph.carries_script(p)]
        if len(holders) > REGISTRY_HOLDERS:
            continue
        for path in (p for p in holders if p.startswith(pairs.prefix)):
            pairs.raise_to(
                path, script.score * REGISTRY_SHARE * pairs.prior(path), ("lists_instances_of", script.path, ())
            )


# A registry reached through its items: among the ITEMS_BEST best files, prefabs and data assets
# are items, and a script is one through the at most ITEMS_CARRIERS prefabs and data assets
# carrying it. A project-scripted data asset holding items of at least ITEMS_LEAST of those best
# files, when at most REGISTRY_HOLDERS do, ranks at least ITEMS_SHARE of the best one's score
# times its prior.
ITEMS_BEST, ITEMS_CARRIERS, ITEMS_LEAST, ITEMS_SHARE = 15, 8, 3, 0.9
# Such a registry whose rows' fields the task names ("more time on the third level" of a list of
# levels, each a `Time`, a `Loot` and its prefab) ranks with the best item it lists, asked or not.
ROWS_SHARE = 1.0
# Words naming a kind of file or setting one up: no column of a row ("the prefab" is every row's).
_NOT_COLUMNS = frozenset(stem(w) for w in ASSET_WORDS | set(KIND_WORDS))
_ELEMENT = re.compile(r"\w+")  # the type names a field's type says (`List<Level>`, `Level[]`)
# The task asks the list, a new item or a value of each: one of these words (or `_LISTING`'s).
_EACH = frozenset(stem(w) for w in ("each", "every", "add", "another"))


def asks_items(text: str) -> bool:
    """Whether the task asks a list, a new item or each item's value ("how much each tower costs",
    "add a fifth tower type"): words the search leaves out as too common, read from the text."""
    stems = frozenset(word_stems(text))
    return asks_listing(stems) or not _EACH.isdisjoint(stems)


def raise_item_registries(
    pairs: _Pairs, stems: frozenset[str] = frozenset(), items: bool = True, numbered: frozenset[str] = frozenset()
) -> None:
    """The few data assets of a project script whose fields hold the items (towers' prefabs, gems'
    effects, whatever their classes) that ITEMS_LEAST of the ITEMS_BEST best files are or whose
    scripts they carry: for a task asking a list, a new item or each one's value (`items`,
    `asks_items`) they rank at least ITEMS_SHARE of the best such file's score times their prior;
    for a task naming one of the items they hold by its number (`numbered`: "the third level",
    `named_files.files_numbered`) and a column of their rows (`names_column`), ROWS_SHARE. Not a
    scene or prefab holding them (a menu). Reads the best hits' edges only, no scan; nothing for a
    task asking neither."""
    if not items and not numbered:  # no share to give (`_row_named` needs an item numbered)
        return
    for path, (score, best) in _item_registries(pairs):
        share = ROWS_SHARE if _row_named(pairs.project, path, stems, numbered) else ITEMS_SHARE if items else 0.0
        if share and path.startswith(pairs.prefix):
            pairs.raise_to(path, score * share * pairs.prior(path), ("lists_items_of", best, ()))
            _raise_class(pairs, path, score * share * pairs.prior(path))


def _item_registries(pairs: _Pairs) -> list[tuple[str, tuple[float, str]]]:
    """The data assets holding items of ITEMS_LEAST of the best files, with the best of those
    files' (score, path); none when more than REGISTRY_HOLDERS do."""
    graph = pairs.project.graph
    reached: dict[str, list[tuple[float, str]]] = {}
    for hit in pairs.best(lambda _: True, ITEMS_BEST):
        items = _items(pairs, hit.path)
        holders = {
            p
            for item in items
            for p, edge in graph.used_by(item)
            if edge == "refers_to" and p.endswith(".asset") and p != hit.path and graph.carries_script(p)
        }
        for holder in holders:
            reached.setdefault(holder, []).append((hit.score, hit.path))
    registries = [(p, scores[0]) for p, scores in reached.items() if len(scores) >= ITEMS_LEAST]
    if len(registries) > REGISTRY_HOLDERS:
        return []
    return [(p, best) for p, best in registries if _of_one_kind(graph, p)]  # the best files come best first


def _raise_class(pairs: _Pairs, registry: str, score: float) -> None:
    """The registry's class (the project script it carries: where a new item's fields are
    declared) ranks at least ITEMS_SHARE of the registry's score times its prior."""
    for script in (p for p, edge in pairs.project.graph.uses(registry) if edge == "script"):
        if script.startswith(pairs.prefix):
            pairs.raise_to(script, score * ITEMS_SHARE * pairs.prior(script), ("script", registry, ()))


def _of_one_kind(graph, holder: str) -> bool:
    """Whether a holder's items are things of one kind: two of its prefabs or data assets carry
    the same project script (towers sharing their rotator, data assets of one class) or scripts
    whose classes derive from one class of the project (`AbstractTower`), or it holds fewer than
    ITEMS_LEAST that carry any (nothing to tell by). A bootstrap list of the game's managers, each
    prefab carrying its own `MonoBehaviour` (an interface they share is a role, not a kind), lists
    no kind of item. Stops at the first kind two items share."""
    seen: set[str] = set()
    scripted = 0
    for item, edge in graph.uses(holder):
        kinds = _kinds(graph, item) if edge == "asset" and item.endswith((".prefab", ".asset")) else set()
        if not kinds:
            continue
        if not seen.isdisjoint(kinds):
            return True
        seen |= kinds
        scripted += 1
    return scripted < ITEMS_LEAST


def _kinds(graph, item: str) -> set[str]:
    """The project scripts an item carries, and the project classes their classes derive from."""
    scripts = [p for p, edge in graph.uses(item) if edge == "script"]
    bases = {
        bare_type_name(t.bases[0])
        for script in scripts
        for t in graph.types_named(PurePosixPath(script).stem)
        if t.path == script and t.bases
    }
    return set(scripts) | {f"{b}." for b in bases if any(t.kind == "class" for t in graph.types_named(b))}


def _items(pairs: _Pairs, path: str) -> list[str]:
    """The items a best file is: itself when a prefab or data asset, a script's carriers (none when
    more than ITEMS_CARRIERS carry it: a common component), nothing else."""
    if path.endswith((".prefab", ".asset")):
        return [path]
    if not is_script(path):
        return []
    carriers = [p for p in pairs.carriers(path) if p.endswith((".prefab", ".asset"))]
    return carriers if len(carriers) <= ITEMS_CARRIERS else []


def _row_named(project, path: str, stems: frozenset[str], numbered: frozenset[str]) -> bool:
    """Whether the task names a row of the registry `path`: one of the items it holds by its number,
    and a column (`names_column`)."""
    held = {p for p, _ in project.graph.uses(path)}
    return bool(stems) and not numbered.isdisjoint(held) and names_column(project, path, stems)


def names_column(project, path: str, stems: frozenset[str]) -> bool:
    """Whether the word `stems` name a column of the data asset `path`'s rows: a field of a type its
    script declares as the element of another of its types' fields (`Level[] Levels` then `struct
    Level { int Time; ... }`), a word the asset's name does not say. Not a field of the asset's own
    class (a game master's `playerHealth` is one setting, not a column)."""
    said = stems - _NOT_COLUMNS - set(name_stems(file_title(path)))
    for script in (p for p, edge in project.graph.uses(path) if edge == "script"):
        symbols = project.records.symbols(script)
        fields = [s for s in symbols if s.kind == "field"]
        rows = {
            f"{t.container}.{t.name}".lstrip(".")
            for t in symbols
            if t.kind in ("class", "struct")
            and any(
                f.container != f"{t.container}.{t.name}".lstrip(".") and t.name in _ELEMENT.findall(f.type)
                for f in fields
            )
        }
        if any(f.container in rows and not said.isdisjoint(name_stems(f.name)) for f in fields):
            return True
    return False

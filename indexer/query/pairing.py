"""A prefab and the one script that is its behaviour rank together.

A prefab's values and wiring live in the prefab, its behaviour in the script it carries: a task
about either needs both. The walk (walk.py) reaches one from the other at a fraction of the
seed's score, too little when the other holds none of the task's words; these rules raise the
partner to a share of the hit's score when the pairing is one to one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.identifiers import name_stems, word_stems
from indexer.model import Ranked
from indexer.project import file_title, is_prefab, is_script
from indexer.query.added_components import adders
from indexer.query.channels import raise_channels
from indexer.query.describe import unity_root
from indexer.query.held_prefabs import raise_held_data, raise_held_prefabs
from indexer.query.kept_records import kept_record
from indexer.query.linked_records import raise_linked_records
from indexer.query.loads import prefix_loaded
from indexer.query.named_subclass import raise_named_subclasses
from indexer.query.read_data import raise_read_data
from indexer.query.registries import asks_items, raise_item_registries, raise_registries
from indexer.query.tables import keyed_tables, row_table

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# A script among the PAIRED_SCRIPTS best that one prefab alone carries is that prefab's behaviour:
# the prefab ranks at least PAIRED_SHARE of the script's score (see prefabs_of_scripts), level
# with it (ASKED_SHARE) when the task asks where something is set.
PAIRED_SCRIPTS = 3
PAIRED_SHARE, ASKED_SHARE = 0.8, 1.0
# ... one that no prefab and one scene alone carries (a manager on one object of the level) is that
# scene's, which holds its serialized values: the scene ranks at least SCENE_SHARE of the script's
# score (a scene holds much else; at 0.8 and 1.0 it took places from code in the held-out sets).
SCENE_SHARE = 0.6
# A prefab among the BEHAVIOUR_PREFABS best whose one project script at most BEHAVIOUR_CARRIERS
# files carry (prefabs, scenes): the script ranks at least BEHAVIOUR_SHARE of the prefab's score.
BEHAVIOUR_PREFABS = 3
BEHAVIOUR_SHARE = 0.8
BEHAVIOUR_CARRIERS = 3
# A script among the INSTANCE_SCRIPTS best with at most INSTANCE_MOST data assets: the one a word of
# the task names (see instances_named) ranks at least INSTANCE_SHARE of the script's score.
INSTANCE_SCRIPTS, INSTANCE_SHARE, INSTANCE_MOST = 5, 0.9, 40
# ... at least INSTANCE_CLASS_SHARE when the task says a word of the class's name too ("the
# archers card": `Archers.asset` of `CardData`): it names that instance as the class's.
INSTANCE_CLASS_SHARE = 1.0
# ... and just above the best of its class's other instances, which only share the task's other
# words ("the fire beam": `Fire Element.asset` above `Water Beam.asset`, session 52).
SIBLING_LEAD = 1.01
# A prefab among the DEFINITION_PREFABS best that at most DEFINITION_MOST data assets hold in a field
# (an enemy's definition naming its ship): for a task asking a value, the one of them whose name
# says a word of the task or of the prefab's name (or the only one) ranks at least DEFINITION_SHARE
# of the prefab's score, as a script's prefab ranks with it.
DEFINITION_PREFABS, DEFINITION_SHARE, DEFINITION_MOST = 3, 0.8, 6
# A prefab, scene or data asset among the HOLDER_BEST best that holds at most HELD_MOST data assets
# in its fields: for a task asking a value, the project-scripted ones of them whose name says the
# most words of the task or of the holder's name rank at least HELD_SHARE of the holder's score.
HOLDER_BEST, HELD_MOST, HELD_SHARE = 3, 20, 0.8
# For any task, the best hit's data assets of a class the task names, held in a field named for it
# ("which bait does the salmon love": `Cricket.asset`, a `Bait`, in the salmon's `lovedBaits`),
# rank at least HELD_SHARE of its score: at most CLASS_HELD_MOST of them (see instances_held).
CLASS_HELD_MOST = 3
# A script among the PAIRED_SCRIPTS best that no asset carries, built with `new` and a number in at
# most CONSTRUCTORS_MOST files: those pass its values (see constructors_of_values).
CONSTRUCTORS_MOST = 3
CONSTRUCTOR_USERS_MOST = 40  # ... read in the files using it, when at most these many do
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?f?\b")
_LIST = re.compile(r": \[\d+ items?\]$")  # how an asset's outline signs a field holding a list
_NOT_SPELLED = re.compile(r"[^0-9a-z]+")


def pair(
    project,
    ranked: dict[str, Ranked],
    boosts: dict,
    stats: dict,
    prior: Callable[[str], float],
    kind: str | None,
    path_prefix: str | None,
    asks_assets: bool,
    stems: frozenset[str] = frozenset(),
    values: bool = False,
    task: tuple[str, frozenset[str]] = ("", frozenset()),
) -> None:
    """The pairings, within the search's filters: a prefab (a scene) for its script when prefabs
    (scenes) may be shown, a script for its prefab when any kind may, a class's data asset the
    task's word `stems` name (`instances_named`) or the best hit holds of a class they name
    (`instances_held`) when data assets may be. `ranked` gains the raised files (a new one its
    kind in `stats`), `boosts` the reason (reached from the partner), `prior` gives a file's role
    prior; `asks_assets`: the task asks where a value is set (`asking.asks_value`); `values`: it
    asks a value or says one is too much or too little (`definitions_of_prefabs`,
    `data_of_holders`); `task`: its text and the files it names by a word and a number (`named_files.files_numbered`),
    for a registry's items (`raise_item_registries`)."""
    pairs = _Pairs(project, ranked, boosts, stats, prior, path_prefix.strip("/") + "/" if path_prefix else "")
    if kind in (None, "prefab", "scene"):
        pairs.prefabs_of_scripts(ASKED_SHARE if asks_assets else PAIRED_SHARE, kind)
    if kind is None:
        pairs.scripts_of_prefabs()
        pairs.adders_of_scripts()
    if kind in (None, "asset"):
        pairs.data_of_scripts(ASKED_SHARE if asks_assets else PAIRED_SHARE)
        raise_read_data(pairs, ASKED_SHARE if asks_assets else PAIRED_SHARE)
        if values:  # ... or its carrier holds, for a task asking a value (not "how is the screen shown")
            raise_held_data(pairs, ASKED_SHARE if asks_assets else PAIRED_SHARE, stems)
    if kind in (None, "csharp"):  # the one subclass of a class a best script uses that the task names
        raise_named_subclasses(pairs, task[0])
    if kind in (None, "csharp", "asset") and not values:  # a value lives where it is set, not who hears it
        raise_channels(pairs, kind)
    if kind in (None, "prefab") and stems:
        raise_held_prefabs(pairs, stems)  # the prefab a best script spawns, named by the task
    if kind in (None, "asset") and stems:
        pairs.instances_named(stems)
        pairs.instances_holding(stems)
        pairs.instances_held(stems)
        raise_registries(pairs, stems)
        text, numbered = task  # "the third level": one item, by its number
        raise_item_registries(pairs, stems, asks_items(text), numbered)  # the asset listing the best hits' items
    if kind in (None, "csharp") and values:
        pairs.constructors_of_values()
    if kind is None and values:
        pairs.tables_of_prefabs(ASKED_SHARE if asks_assets else PAIRED_SHARE)
    if kind in (None, "asset") and values:
        pairs.definitions_of_prefabs(stems)
        pairs.data_of_holders(stems)
    if kind is None:  # last: with the data assets' scores the rules above gave
        raise_linked_records(pairs)  # a recipe from one of the best data assets to another


class _Pairs:
    """One ranking's pairings, on the files under `prefix` (the search's path prefix)."""

    def __init__(self, project, ranked: dict[str, Ranked], boosts: dict, stats: dict, prior, prefix: str) -> None:
        self.project, self.ranked, self.boosts, self.stats = project, ranked, boosts, stats
        self.prior, self.prefix = prior, prefix
        self._order: list[Ranked] | None = None  # `ranked` by score, until a rule raises a file

    def prefabs_of_scripts(self, share: float, kind: str | None) -> None:
        """A script among the PAIRED_SCRIPTS best that exactly one prefab carries directly is that
        prefab's behaviour, and the prefab holds its values and wiring: `EnemySpawner.prefab` for
        `EnemySpawner.cs`, `PlayerShipBase.prefab` for the ship's `PlayerShipShootBullet.cs`. The
        prefab ranks at least `share` of the script's score times its own prior (a code task still
        ranks prefabs lower). A script no prefab carries and one scene alone does is the scene's
        (`AttackerBrain.cs`, whose spawn intervals per difficulty `Game.unity` sets): the scene
        ranks at least SCENE_SHARE of the script's score times its prior. `kind`: the search's
        filter (a prefab, a scene or any)."""
        for script in self.best(is_script, PAIRED_SCRIPTS):
            carried_by = self.carriers(script.path)
            prefabs = [p for p in carried_by if is_prefab(p)]
            scenes = [p for p in carried_by if p.endswith(".unity")]
            carriers = prefabs or scenes
            shown = kind is None or kind == ("prefab" if prefabs else "scene")
            if shown and len(carriers) == 1 and carriers[0].startswith(self.prefix):
                why = ("carries_script", script.path, ())
                own_share = share if prefabs else SCENE_SHARE
                self.raise_to(carriers[0], script.score * own_share * self.prior(carriers[0]), why)

    def data_of_scripts(self, share: float) -> None:
        """A ScriptableObject class among the PAIRED_SCRIPTS best with one data asset (and no
        other carrier): the asset holds its values (`BlockSettings.asset`, whose base block type
        ends the game on its death, for `BlockSettings.cs`), and ranks at least `share` of the
        class's score times its own prior, as a script's one prefab does. So does the one file a
        class no asset carries loads from a folder by a name (`MatchScheme/basicroom.json`, read
        as `"Schemes/MatchScheme/" + name`: `loads.prefix_loaded`), and the one table whose columns
        its fields are (`EnemyUnits.csv` for `EnemyUnitConfig`: `tables.row_table`)."""
        for script in self.best(is_script, PAIRED_SCRIPTS):
            carried_by = self.carriers(script.path)
            if not carried_by:
                loaded = self.project.remember(
                    ("prefix loaded", script.path), lambda s=script.path: prefix_loaded(self.project.graph, s)
                )
                if len(loaded) == 1 and loaded[0].startswith(self.prefix):
                    self.raise_to(loaded[0], script.score * share * self.prior(loaded[0]), ("loads", script.path, ()))
                if not loaded:
                    self._table_of(script, share)
                continue
            assets = [p for p in carried_by if p.endswith(".asset")]
            if len(assets) != 1 or len(carried_by) != 1 or not assets[0].startswith(self.prefix):
                continue
            if unity_root(self.project.graph, script.path) == "ScriptableObject":
                self.raise_to(
                    assets[0], script.score * share * self.prior(assets[0]), ("carries_script", script.path, ())
                )

    def _table_of(self, script: Ranked, share: float) -> None:
        """The table a class's rows are read from ranks with it, as a class's one data asset does."""
        table = self.project.remember(("row table", script.path), lambda: row_table(self.project, script.path))
        if table and table.startswith(self.prefix):
            self.raise_to(table, script.score * share * self.prior(table), ("rows_of", script.path, ()))

    def tables_of_prefabs(self, share: float) -> None:
        """The tables keying a row by the name of a prefab among the BEHAVIOUR_PREFABS best (at most
        two: `tables.keyed_tables`) hold its numbers, for a task asking a value: each ranks at least
        `share` of the prefab's score times its own prior, as a prefab's script does."""
        for prefab in self.best(is_prefab, BEHAVIOUR_PREFABS):
            for table in keyed_tables(self.project, prefab.path):
                if table.startswith(self.prefix):
                    self.raise_to(table, prefab.score * share * self.prior(table), ("row_keyed_by", prefab.path, ()))

    def scripts_of_prefabs(self) -> None:
        """A prefab among the BEHAVIOUR_PREFABS best that carries one project script, a script few
        files carry directly (a generic `Rotator` on forty props says nothing), does what it says:
        `Breakable.cs` for the piggy bank that shatters, `TimedSelfDestruct.cs` for the laser shot
        that vanishes. So does a script of the prefab's own name among several it carries
        (`HeroEmoteBar.cs` on `Hero Emote Bar.prefab` beside a generic button). The script ranks at
        least BEHAVIOUR_SHARE of the prefab's score times its own prior (third-party code keeps its
        lower weight)."""
        graph = self.project.graph
        for prefab in self.best(is_prefab, BEHAVIOUR_PREFABS):
            scripts = [p for p, edge in graph.uses(prefab.path) if edge == "script" and p.startswith(self.prefix)]
            title = _spelled(prefab.path)
            for script in (p for p in scripts if _spelled(p) == title):  # the prefab's namesake
                self.raise_to(script, prefab.score * BEHAVIOUR_SHARE * self.prior(script), ("script", prefab.path, ()))
            if len(scripts) != 1:
                continue
            carriers = self.carriers(scripts[0])
            if carriers and len(carriers) <= BEHAVIOUR_CARRIERS:
                self.raise_to(
                    scripts[0], prefab.score * BEHAVIOUR_SHARE * self.prior(scripts[0]), ("script", prefab.path, ())
                )

    def adders_of_scripts(self) -> None:
        """The best script, when no prefab or scene carries it and one project script adds it at
        run time, is wired by that script: `DeathEndsGame.cs`, which a block adds when its type
        ends the game on its death (`BlockManager.cs`). The adder ranks at least PAIRED_SHARE of
        the script's score times its own prior."""
        for script in self.best(is_script, 1):
            if self.carriers(script.path):
                continue
            added = self.project.remember(("adders", script.path), lambda s=script.path: adders(self.project, s))
            found = [p for p in added if p.startswith(self.prefix)]
            if len(found) == 1:
                self.raise_to(found[0], script.score * PAIRED_SHARE * self.prior(found[0]), ("adds", script.path, ()))

    def instances_named(self, stems: frozenset[str]) -> None:
        """A script among the INSTANCE_SCRIPTS best whose data assets (ScriptableObject instances)
        differ by name: the one named by a word of the task that neither the class's name nor any
        other instance's holds is the one asked about ("when do the waves start in a desert
        mission": `Desert Session Timing.asset` among the desert, ice and forest timings), and so
        is one whose every word but the class's the task says ("how fast the player moves while
        running": `Player_Running_MoveForward.asset`, not `Player_Jump_Running_MoveForward.asset`).
        It ranks at least INSTANCE_SHARE of the script's score times its prior, and just above the
        best of the other instances the task does not name (SIBLING_LEAD): "the fire beam's color"
        is `Fire Element.asset`, not `Water Beam.asset`, which only shares "beam" with the task."""
        for script in self.best(is_script, INSTANCE_SCRIPTS):
            data = [p for p in self.carriers(script.path) if p.endswith(".asset")]
            if not data or len(data) > INSTANCE_MOST:
                continue
            stems_of = {p: name_stems(file_title(p)) for p in data}
            names = {p: set(words) for p, words in stems_of.items()}
            own = set(name_stems(file_title(script.path)))
            named = []
            for path, words in names.items():
                others = set().union(*(w for q, w in names.items() if q != path))
                parts = set(stems_of[path][1:]) - own  # its name's words but the class's
                if ((words & stems) - own - others or (parts and parts <= stems)) and path.startswith(self.prefix):
                    share = INSTANCE_CLASS_SHARE if own & stems else INSTANCE_SHARE
                    score = script.score * share * self.prior(path)
                    self.raise_to(path, score, ("carries_script", script.path, ()))
                    named.append(path)
            self._above_siblings(named, [p for p in data if p not in named], script.path)

    def _above_siblings(self, named: list[str], others: list[str], script: str) -> None:
        """The instances the task names rank just above the best of their class's other instances
        (SIBLING_LEAD times its score), which the task's other words matched, not its name."""
        best = max((self.ranked[p].score for p in others if p in self.ranked), default=0.0)
        for path in named:
            self.raise_to(path, best * SIBLING_LEAD, ("carries_script", script, ()))

    def instances_holding(self, stems: frozenset[str]) -> None:
        """A class the task names (every word of its name said, its two-letter parts aside) among the
        INSTANCE_SCRIPTS best, whose data assets differ by what they hold: the ones holding a word
        of the task that at most half of them hold are the ones asked about ("which levels have the
        windmill in them": `10.asset` and `12.asset` of `LevelSO`, whose tiles list the windmill).
        They rank at least INSTANCE_SHARE of the class's score times their prior."""
        for script in self.best(is_script, INSTANCE_SCRIPTS):
            own = name_stems(file_title(script.path))
            words = {w for w in (own[1:] if len(own) > 1 else own) if len(w) > 2}
            if not words or not words <= stems:
                continue
            data = [p for p in self.carriers(script.path) if p.endswith(".asset")]
            if len(data) < 2 or len(data) > INSTANCE_MOST:
                continue
            asked = stems - set(own)
            held = {p: asked & word_stems(self.project.texts.get(p).text) for p in data}
            for word in asked:
                holders = [p for p in data if word in held[p]]
                if 2 * len(holders) > len(data):
                    continue
                for path in (p for p in holders if p.startswith(self.prefix)):
                    self.raise_to(
                        path, script.score * INSTANCE_SHARE * self.prior(path), ("carries_script", script.path, ())
                    )

    def constructors_of_values(self) -> None:
        """A plain class among the PAIRED_SCRIPTS best (no prefab, scene or asset carries it) takes
        its values where it is built: "make the frost bullets' area of effect bigger" ranked the
        area effect's base and `Frost.cs` first and `GunModifierApplier.cs`, whose `new Frost(1,
        ...)` passes the radius, nowhere. The few files (CONSTRUCTORS_MOST) building it with a number
        among its first arguments rank at least PAIRED_SHARE of its score times their prior."""
        for script in self.best(is_script, PAIRED_SCRIPTS):
            if self.carriers(script.path):
                continue
            found = self.project.remember(("builders", script.path), lambda s=script.path: _builders(self.project, s))
            builders = [p for p in found if p.startswith(self.prefix)]
            if 0 < len(builders) <= CONSTRUCTORS_MOST:
                for path in builders:
                    self.raise_to(path, script.score * PAIRED_SHARE * self.prior(path), ("uses_type", script.path, ()))

    def definitions_of_prefabs(self, stems: frozenset[str]) -> None:
        """A prefab among the DEFINITION_PREFABS best that few data assets hold in a field is what
        they define, and its numbers live there: "how many hits does the red enemy ship take"
        ranked the red ship's prefab 2nd and `Red_StrongSlow.asset` (`prefab: AlienShipRed`,
        `energy: 8`) 6th. Of those assets, the ones whose name says a word of the task or of the
        prefab's name (the only one, when one holds it) rank at least DEFINITION_SHARE of the
        prefab's score times their prior."""
        graph = self.project.graph
        for prefab in self.best(is_prefab, DEFINITION_PREFABS):
            holders = [p for p, edge in graph.used_by(prefab.path) if edge == "refers_to" and p.endswith(".asset")]
            if not holders:
                continue
            guid = graph.records.guid_of_path(prefab.path)
            defining = (p for p in holders if graph.carries_script(p) and _defines(graph, p, guid))
            data = list(itertools.islice(defining, DEFINITION_MOST + 1))  # no record read past the most
            if not data or len(data) > DEFINITION_MOST:
                continue
            words = stems | set(name_stems(file_title(prefab.path)))
            for path in data:
                if (len(data) == 1 or set(name_stems(file_title(path))) & words) and path.startswith(self.prefix):
                    score = prefab.score * DEFINITION_SHARE * self.prior(path)
                    self.raise_to(path, score, ("refers_to", prefab.path, ()))

    def data_of_holders(self, stems: frozenset[str]) -> None:
        """The other way round: a prefab, scene or data asset among the HOLDER_BEST best that holds
        few data assets in its fields keeps its numbers there. "How many seconds can the ghost stay
        out of the light" ranked `Darkness.prefab` first and `Darkness Death Time.asset` (its
        spawner's `timeToDeath`) nowhere; "which data decides what rifles the sniper carries"
        `SniperEnemy.asset` first and its `SniperWeapon.asset` nowhere. Of those data assets (of a
        project script: not a package's settings), the ones whose name says the most words of the
        task or of the holder's name (`LairTiles` over `Tiles` for "the lair's tiles") rank at
        least HELD_SHARE of the holder's score times their prior; of several, only when those say
        a word of the task (`PlayList_Sample.asset`'s `Sample 1`, `Sample 2` say only its name)."""
        graph = self.project.graph
        for holder in self.best(lambda p: p.endswith((".prefab", ".unity", ".asset")), HOLDER_BEST):
            held = [p for p, edge in graph.uses(holder.path) if edge == "asset" and p.endswith(".asset")]
            if not held or len(held) > HELD_MOST:
                continue
            words = stems | set(name_stems(file_title(holder.path)))
            names = {p: set(name_stems(file_title(p))) for p in held if p.startswith(self.prefix)}
            said = {p: len(n & words) for p, n in names.items() if n & words and graph.carries_script(p)}
            most = max(said.values(), default=0)
            best = [p for p, n in said.items() if n == most]
            if len(said) > 1 and not any(names[p] & stems for p in best):
                continue  # among several, the holder's own name says nothing of which
            for path in best:
                self.raise_to(path, holder.score * HELD_SHARE * self.prior(path), ("asset", holder.path, ()))

    def instances_held(self, stems: frozenset[str]) -> None:
        """The best hit, a prefab, scene or data asset, holds data assets in a field named for their
        class, a word the task says: those are what it asks about. "Which bait does the
        salmon love" ranked `Salmon.asset` first and `Cricket.asset` (a `Bait`, in its
        `lovedBaits`) 12th. At most CLASS_HELD_MOST of them rank at least HELD_SHARE of the
        holder's score times their prior."""
        graph = self.project.graph
        holder = min(self.ranked.values(), key=lambda r: (-r.score, r.path), default=None)
        if holder is None or not holder.path.endswith((".prefab", ".unity", ".asset")):
            return
        rec = kept_record(graph, holder.path)
        if rec is None:
            return
        # a field that says none of the task's words names no class it says (`_names_class`): told
        # first, so a scene's hundreds of GUIDs are not looked up (a query each, first seen)
        asked = [r for r in rec.refs if r.kind == "guid" and stems.intersection(name_stems(r.context))]
        named = [
            p
            for p, field in ((graph.path_of_guid(r.target), r.context) for r in asked)
            if p and p.endswith(".asset") and p.startswith(self.prefix) and _names_class(graph, p, field, stems)
        ]
        if len(named) > CLASS_HELD_MOST:
            return
        for path in named:
            self.raise_to(path, holder.score * HELD_SHARE * self.prior(path), ("asset", holder.path, ()))

    def carriers(self, script: str) -> list[str]:
        """The prefabs, scenes and data assets carrying the script directly (`carries_script`)."""
        return [p for p, edge in self.project.graph.used_by(script) if edge == "carries_script"]

    def best(self, keep: Callable[[str], bool], n: int) -> list[Ranked]:
        """The `n` best files `keep` accepts: the files sorted once until a rule raises one (ten
        rules asked, each sorting hundreds of files, were a fifth of a warm query)."""
        if self._order is None:
            self._order = sorted(self.ranked.values(), key=lambda r: (-r.score, r.path))
        return list(itertools.islice((r for r in self._order if keep(r.path)), n))

    def raise_to(self, path: str, score: float, why: tuple) -> None:
        if path not in self.ranked:
            self.ranked[path] = Ranked(path, 0.0, [])
            self.stats.update(self.project.stats_of([path]))
            self._order = None
        if self.ranked[path].score < score:
            self.ranked[path].score = score
            self.boosts.setdefault(path, (score, *why))
            self._order = None


def _defines(graph: Graph, asset: str, guid: str | None) -> bool:
    """Whether the data asset `asset` holds the prefab of GUID `guid` in a field of its own, as a
    definition names its thing (`prefab: AlienShipRed`), not in a list (a spawn table's
    `collection: - gameObject: Coin`, a registry of network prefabs)."""
    rec = kept_record(graph, asset)
    if rec is None or guid is None:
        return False
    fields = {s.name for s in rec.symbols if s.kind == "field" and not _LIST.search(s.signature)}
    return any(r.kind == "guid" and r.target == guid and r.context in fields for r in rec.refs)


def _builders(project, script: str) -> list[str]:
    """The files building `script`'s class with a number among its first arguments, by path (none
    when more than CONSTRUCTOR_USERS_MOST files use it: a type used everywhere, its texts not read).
    Only a user whose code calls a constructor of that name (`_constructing`) has its text read:
    a `new Frost(1` in a comment or a string builds nothing."""
    users = [p for p, edge in project.graph.used_by(script) if edge == "uses_type"]
    if len(users) > CONSTRUCTOR_USERS_MOST:
        return []
    # no leading `\b`: a pattern opening on a literal is searched for as a string, 50 times faster
    built, title = re.compile(rf"new\s+{re.escape(file_title(script))}\s*\("), file_title(script)
    calling = _constructing(project, title) if users else frozenset()
    return [p for p in users if p in calling and _builds_with_number(project.texts.get(p).text, built, title)]


def _constructing(project, name: str) -> frozenset[str]:
    """The files whose code calls a constructor of a type named `name` (`new Frost(`, `new
    Effects.Frost(`, through an alias `using Frost = Frost<int>`: a `new` reference keyed by the
    name, or by it with type arguments; one range of the refs table's key), by path: reading a
    class's users' texts for `new` was most of a first-met search's pairing on UnityCsReference
    (100 texts over the warm protocol's first pass, none building the class)."""
    rows = project.records.conn.execute(_CONSTRUCTING, (name, f"{name}="))  # ("=" follows "<")
    return frozenset(p for p, key in rows if key == name or key.startswith(f"{name}<"))


_CONSTRUCTING = (
    "SELECT f.path, r.key FROM refs r JOIN files f ON f.id = r.file_id"
    " WHERE r.kind = 'type' AND r.key >= ? AND r.key < ? AND r.context = 'new'"
)


def _builds_with_number(text: str, built: re.Pattern[str], title: str) -> bool:
    """Whether `text` builds the class (`built`: `new Frost(`, not `renew Frost(`, for its name
    `title`) with a number among its first arguments (the next 80 characters: `new Frost(1, curve,
    5, 10)`, `new Frost(0.75f,`); searched only where the name follows `new` (`_after_new`)."""
    return _after_new(text, title) and any(
        _NUMBER.search(text, m.end(), m.end() + 80)
        for m in built.finditer(text)
        if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_")
    )


def _after_new(text: str, name: str) -> bool:
    """Whether `name` follows `new` and white space in `text`, as in each match of the builders'
    pattern, which was tried at every `new` of a text (3.2 ms for 104 texts on UnityCsReference)."""
    at = text.find(name)
    while at >= 0:
        start = at
        while start > 0 and text[start - 1].isspace():
            start -= 1
        if start < at and text.endswith("new", 0, start):
            return True
        at = text.find(name, at + 1)
    return False


def _names_class(graph: Graph, asset: str, field: str, stems: frozenset[str]) -> bool:
    """Whether the task's `stems` say every word of the class of `asset` (the project script it
    carries; words of two letters, `UnitSO`'s "so", aside) and the name of the `field` holding it
    says one: `lovedBaits` holding a `Bait` for "which bait". Not `MainMenuGameLevel` holding a
    `GameLevel` for "when I pause the game" (the class's "level" unsaid)."""
    for script in (p for p, edge in graph.uses(asset) if edge == "script"):
        words = name_stems(file_title(script))
        words = {w for w in (words[1:] if len(words) > 1 else words) if len(w) > 2}
        if words and words <= stems and words & set(name_stems(field)):
            return True
    return False


def _spelled(path: str) -> str:
    """A file's name as its letters and digits, lowercased: `Hero Emote Bar.prefab` and
    `HeroEmoteBar.cs` spell one name."""
    return _NOT_SPELLED.sub("", file_title(path).lower())

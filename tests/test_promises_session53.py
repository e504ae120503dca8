"""Promises session 53's changes wrote in docstrings and docs without a test of their own (found
by the session's review), each tested here: seen failing with the behaviour broken."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from indexer.changes.placing import Planned, place_all


def _placed_state(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _plans(folder: Path) -> list[Planned]:
    """Two hooks to place: the first over a hook of ours someone added a line to (a backup copy
    kept), the second where there is none."""
    (folder / "pre-commit").write_bytes(b"#!/bin/sh\nours, old\necho added\n")
    return [
        Planned("pre-commit", folder / "pre-commit", b"#!/bin/sh\nours, new\n", 0o755),
        Planned("post-merge", folder / "post-merge", b"#!/bin/sh\nours, new\n", 0o755),
    ]


def test_placing_interrupted_by_ctrl_c_puts_back_what_was_placed(tmp_path: Path, monkeypatch) -> None:
    """placing.py: "a signal Python sees, Ctrl-C or SIGTERM, rolls back too" (the interrupt is
    raised again, not turned into PlacingFailed)."""
    planned = _plans(tmp_path)
    planned[0].backup = tmp_path / "pre-commit.unity-index-backup"
    before = _placed_state(tmp_path)
    real = os.replace

    def interrupted_at_post_merge(src, dst, **kw):
        if Path(dst).name == "post-merge":
            raise KeyboardInterrupt
        return real(src, dst, **kw)

    monkeypatch.setattr(os, "replace", interrupted_at_post_merge)
    with pytest.raises(KeyboardInterrupt):
        place_all(planned)
    assert _placed_state(tmp_path) == before  # the first hook put back, its backup and temporaries gone


def test_a_backup_copy_that_fails_midway_is_not_left_behind(tmp_path: Path, monkeypatch) -> None:
    """placing.py: a failure puts back what was placed: a backup copy of an edited hook of ours
    that a full disk cut short is removed with the rest, not left as a truncated
    `<name>.unity-index-backup` (before the review's fix its removal was noted only once the
    copy had succeeded)."""
    planned = _plans(tmp_path)
    planned[0].backup = tmp_path / "pre-commit.unity-index-backup"
    before = _placed_state(tmp_path)
    real = shutil.copy2

    def disk_full_while_copying(src, dst, **kw):
        if Path(dst).name.endswith(".unity-index-backup"):
            Path(dst).write_bytes(b"#!/bin/sh\nou")  # part of it written
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        return real(src, dst, **kw)

    monkeypatch.setattr(shutil, "copy2", disk_full_while_copying)
    from indexer.changes.placing import PlacingFailed

    with pytest.raises(PlacingFailed) as caught:
        place_all(planned)
    assert (caught.value.name, caught.value.unrestored) == ("pre-commit", [])
    assert _placed_state(tmp_path) == before


def test_a_minified_json_table_past_its_read_head_is_a_table(tmp_path: Path) -> None:
    """docs/retrieval.md: "a JSON table is told by its first two records", read from the file's
    first TABLE_HEAD bytes. A JSON written on one line (Unity's `JsonUtility.ToJson`, minified
    exports) longer than the head was cut at its last line break, before everything: no table.
    A record the head cuts short is no record (`_RECORD` needs its closing brace)."""
    import json

    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.tables import TABLE_HEAD, keyed_tables, row_table
    from indexer.query.workspace import open_workspace

    from .test_trial22_session53 import _ROWS, ENEMY_TABLE, _orcs

    root = _orcs(tmp_path)
    rows = [{"ID": i, "Name": n, "HP": hp, "Speed": s} for i, n, hp, s in _ROWS]
    rows += [{"ID": str(i), "Name": f"Extra_{i}", "HP": "1", "Speed": "1"} for i in range(10, 400)]
    text = json.dumps({"EnemyDatas": rows}, separators=(",", ":"))
    assert "\n" not in text and len(text) > TABLE_HEAD
    (root / ENEMY_TABLE).write_text(text)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert row_table(project, "Assets/Scripts/Enemies/EnemyData.cs") == ENEMY_TABLE
    assert keyed_tables(project, "Assets/Resources/Enemies/Orc_Archer.prefab") == [ENEMY_TABLE]


def test_a_json_head_cut_inside_a_record_keys_only_whole_records() -> None:
    """`json_records` of a head cut inside its third record: the two whole records only."""
    from indexer.table_text import json_records

    head = '[{"Name":"Slime","HP":"20"},{"Name":"Orc","HP":"30"},{"Name":"Or'
    assert json_records(head) == (["Name", "HP"], ["Slime", "Orc"])


def test_only_a_name_of_words_each_with_its_number_is_read_as_pairs() -> None:
    """named_files._name_pairs: (word, number) pairs for `Level_07` and `Stage01Room02`, none for
    another name (`World1-2`, `Wave3_Boss`)."""
    from indexer.query.named_files import _name_pairs

    assert _name_pairs("Level_07") == [("level", 7)]
    assert _name_pairs("Stage01Room02") == [("stag", 1), ("room", 2)]
    for title in ("World1-2", "Wave3_Boss", "Boss", "07"):
        assert _name_pairs(title) == [], title


def test_a_long_line_is_cut_around_the_name_standing_whole() -> None:
    """words.excerpt: cut around the first place `near` stands as a whole word, not inside a
    longer name said before it (`GunShop` before `Gun`)."""
    from indexer.words import LINE_CHARS, excerpt

    line = "a" * 300 + " GunShop " + "b" * 300 + " Gun " + "c" * 300
    shown = excerpt(line, "Gun")
    at = line.index(" Gun ") + 1
    assert shown == "…" + line[at - LINE_CHARS // 2 : at - LINE_CHARS // 2 + LINE_CHARS - 2] + "…"
    assert " Gun " in shown and "GunShop" not in shown


def test_a_json_record_is_keyed_by_its_name_whatever_its_case() -> None:
    """table_text.json_records: a record's key is its `name` value, case aside (`NAME`, `name`),
    before its first value."""
    from indexer.table_text import json_records

    text = '[{"id": "a1", "NAME": "Slime", "hp": 2}, {"id": "a2", "NAME": "Orc", "hp": 3}]'
    assert json_records(text) == (["id", "NAME", "hp"], ["Slime", "Orc"])
    text = '[{"id": "a1", "name": "Slime", "hp": 2}, {"id": "a2", "name": "Orc", "hp": 3}]'
    assert json_records(text) == (["id", "name", "hp"], ["Slime", "Orc"])


def test_a_stats_commit_of_a_batch_that_wrote_content_makes_a_generation(tmp_path: Path) -> None:
    """Writer.commit_stats keeps the generation for a batch of stats alone; handed a batch that
    deleted or wrote a file it commits it as `commit` does, with a new generation (it was an
    `assert`, which `python -O` drops: the records committed under the old generation, the full
    text not, and every cache kept per generation kept a file that was gone)."""
    from indexer.build.update import update
    from indexer.store.header import header_generation, pin
    from indexer.store.writer import Writer

    from .conftest import write_project
    from .test_indexing import CONFIG, FILES, paths_of, records

    root = write_project(tmp_path / "Game", FILES)
    base = update(root, CONFIG).generation
    ipaths = paths_of(root)
    writer = Writer(pin(ipaths), False, header_generation(ipaths))
    try:
        writer.delete("Assets/Scripts/Health.cs")
        assert writer.commit_stats() == base + 1
    finally:
        writer.close()
    assert header_generation(ipaths) == base + 1
    r = records(root)
    try:
        assert "Assets/Scripts/Health.cs" not in r.stats()
    finally:
        r.close()


def test_where_is_the_code_doing_something_to_amounts_asks_for_code() -> None:
    """asking._WHERE_AMOUNT: "a clause asking where an amount is, ending on the word for it" asks
    where it is set; one asking where code is whose clause ends on an amount ("Where is the method
    that formats prices?") asks for that code, as it did before session 53. "Where is that
    number?" still asks for the value."""
    from indexer.identifiers import said_words
    from indexer.query.asking import asks_value

    for text in (
        "Where is the method that formats prices?",
        "where is the code which sorts the numbers",
        "where is the helper to format numbers",
        "Where is the bug that adds the costs?",
    ):
        assert not asks_value(said_words(text), text), text
    for text in (
        "The orcs hit too hard. Where is that number?",
        "Where are those values?",
        "where is the damage value?",
    ):
        assert asks_value(said_words(text), text), text


def test_a_long_lived_workspace_answers_from_each_new_commit(tmp_path: Path) -> None:
    """query/pinned.py: the project's reader is pinned to its commit, and a workspace (the MCP
    server's) opens one per generation: each update's files are found by the next search, a
    deleted one no more, and a touch (the same generation) keeps the reader and its answers."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    root = write_project(tmp_path / "Game", {"Assets/A.cs": "public class Alpha { void Jump() { } }\n"})
    config = Config(workers=1)
    update(root, config)
    workspace = open_workspace(root, [(root, config)])
    assert workspace.search("zebra gallop", 5) == []
    for i in range(2):
        (root / f"Assets/Z{i}.cs").write_text(f"public class Zebra{i} {{ void Gallop() {{ }} }}\n")
        update(root, config)
        assert [h.path for h in workspace.search("zebra gallop", 5)] == [f"Assets/Z{j}.cs" for j in range(i + 1)]
    (root / "Assets/Z0.cs").unlink()
    update(root, config)
    assert [h.path for h in workspace.search("zebra gallop", 5)] == ["Assets/Z1.cs"]
    searcher = workspace.projects[0].searcher
    os.utime(root / "Assets/A.cs", ns=(1, 1))
    assert update(root, config).touched == 1
    assert [h.path for h in workspace.search("zebra gallop", 5)] == ["Assets/Z1.cs"]
    assert workspace.projects[0].searcher is searcher  # the same generation: the same reader


def test_a_message_call_on_a_long_line_is_shown_around_the_name(tmp_path: Path, capsys) -> None:
    """docs/cli.md: "a longer one ... is cut around the first place the name used stands whole on
    it": a `SendMessage("Die")` past a minified line's first 200 characters is shown around `Die`
    (it showed the line's first 200 characters, as every usage but a field's and a member's did)."""
    import json

    from indexer.cli.main import main

    from .conftest import write_project

    filler = "".join(f"public class F{i} {{ public int v{i}; }}" for i in range(40))
    files = {
        "Assets/Hero.cs": "public class Hero : UnityEngine.MonoBehaviour { void Die() { } }\n",
        "Assets/Min.cs": filler
        + 'public class Trap { void Hit(UnityEngine.GameObject o) { o.SendMessage("Die"); } }\n',
    }
    root = write_project(tmp_path / "Game", files)
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["refs", "Hero.Die", "--json", "--project", str(root)]) == 0
    usages = [u for u in json.loads(capsys.readouterr().out)["usages"] if u["path"] == "Assets/Min.cs"]
    assert usages and all('SendMessage("Die")' in u["detail"] for u in usages), usages


def test_a_tag_compared_on_a_long_line_is_shown_around_the_tag(tmp_path: Path, capsys) -> None:
    """The same for `refs Player` (a tag built into Unity): `CompareTag("Player")` past a minified
    line's first 200 characters is shown around it."""
    import json

    from indexer.cli.main import main

    from .conftest import write_project

    filler = "".join(f"public class F{i} {{ public int v{i}; }}" for i in range(40))
    line = 'public class Trap { void OnTriggerEnter(UnityEngine.Collider c) { if (c.CompareTag("Player")) { } } }'
    root = write_project(tmp_path / "Game", {"Assets/Min.cs": filler + line + "\n"})
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    assert main(["refs", "Player", "--json", "--project", str(root)]) == 0
    usages = [u for u in json.loads(capsys.readouterr().out)["usages"] if u["path"] == "Assets/Min.cs"]
    assert usages and all('CompareTag("Player")' in u["detail"] for u in usages), usages


def test_a_kept_value_survives_another_thread_emptying_the_dict() -> None:
    """pinned.kept: the MCP server answers tool calls on threads of their own (`results.py`, a
    limiter of one made per call), which share the project's pinned reader: a dict another call
    empties at KEPT_MOST between this call's look-up and its read is a value made again, not a
    KeyError (it looked with `in`, then read)."""
    from indexer.query.pinned import kept

    class EmptiedBetween(dict):
        def __contains__(self, key: object) -> bool:
            found = super().__contains__(key)
            self.clear()  # another thread, at the bound
            return found

    store = EmptiedBetween({("health", "body"): 7})
    assert kept(store, ("health", "body"), lambda: 8) in (7, 8)


def test_a_remembered_value_survives_another_thread_emptying_the_memo(tmp_path: Path) -> None:
    """Workspace.remember: the memo a generation's calls share is read in one look-up as the
    reader's kept dicts are (pinned.kept): one call emptying it at MEMO_LIMIT between another's
    look-up and its read is a value made again, not a KeyError."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    class EmptiedBetween(dict):
        def __contains__(self, key: object) -> bool:
            found = super().__contains__(key)
            self.clear()  # another thread, at the bound
            return found

    root = write_project(tmp_path / "Game", {"Assets/A.cs": "public class Alpha { }\n"})
    config = Config(workers=1)
    update(root, config)
    project = open_workspace(root, [(root, config)]).projects[0]
    project.snapshot.memo = EmptiedBetween({("outline", "Assets/A.cs"): 7})
    project.snapshot.roles = EmptiedBetween({("role", "Assets/A.cs"): 7})
    assert project.remember(("outline", "Assets/A.cs"), lambda: 8) in (7, 8)
    assert project.remember(("role", "Assets/A.cs"), lambda: 8, role=True) in (7, 8)


class _Uses:
    """A graph of `uses` edges alone (what `close_parts._kept_item` reads)."""

    def __init__(self, edges: dict[str, list[str]]) -> None:
        self.edges = edges
        self.asked: list[str] = []

    def uses(self, path: str) -> list[tuple[str, str]]:
        self.asked.append(path)
        return [(p, "type") for p in self.edges.get(path, [])]


_KEEPER_PATH, _ITEM_PATH = "Assets/EnemyIndicatorsManager.cs", "Assets/EnemyIndicator.cs"


def _order(n: int) -> list:
    from indexer.model import Ranked

    return [Ranked(_KEEPER_PATH, 10.0, [])] + [Ranked(f"Assets/Other{i}.cs", 9.0 - i / 2, []) for i in range(n - 1)]


def test_a_kept_item_rises_to_just_above_the_tenth_unless_its_role_puts_it_lower() -> None:
    """close_parts.lift_kept_items: the item rises to just above the tenth file's score, said why;
    not one its role puts lower (a prior under 1: a test, a vendored copy); with fewer than ten
    ranked, just below the last; one already in the ten best stays where it is."""
    from indexer.model import Ranked
    from indexer.query.close_parts import LIFT, lift_kept_items

    graph = _Uses({_KEEPER_PATH: [_ITEM_PATH]})
    order = lift_kept_items(graph, _order(12), {})
    item = next(r for r in order if r.path == _ITEM_PATH)
    assert order.index(item) == 9 and item.score == _order(12)[9].score * LIFT
    assert item.reasons == [f"one of the items {_KEEPER_PATH} keeps"]
    assert [r.path for r in lift_kept_items(graph, _order(12), {_ITEM_PATH: 0.5})] == [r.path for r in _order(12)]
    short = lift_kept_items(graph, _order(4), {})
    assert [r.path for r in short][-1] == _ITEM_PATH and short[-1].score == _order(4)[-1].score / LIFT
    placed = [*_order(5)[:2], Ranked(_ITEM_PATH, 8.8, []), *_order(12)[2:]]
    assert [(r.path, r.score) for r in lift_kept_items(graph, list(placed), {})] == [(r.path, r.score) for r in placed]


def test_named_alike_is_half_the_class_words_one_of_them_before_its_last() -> None:
    """read_data.named_alike's examples, each as its docstring says."""
    from indexer.query.read_data import named_alike

    assert named_alike("Assets/Data/LocalShopData.asset", "Assets/Scripts/LocalShopData.cs")
    assert named_alike("Assets/Data/NeroLevelData.asset", "Assets/Scripts/CharacterLevelData.cs")
    assert named_alike("Assets/Data/EnemySpawnSettings.asset", "Assets/Scripts/EnemySpawnerSettingsData.cs")
    assert not named_alike("Assets/Data/SwordData.asset", "Assets/Scripts/ItemData.cs")


def test_a_serialize_reference_objects_classes_are_read_only_for_an_asset_holding_one() -> None:
    """setting_fields.names_setting: an asset none of whose fields holds a [SerializeReference]
    object (`{rid: N}`) is answered from its outline alone; its classes are read only for one
    holding such an object, and then name the setting."""
    from types import SimpleNamespace as NS

    from indexer.query.setting_fields import names_setting

    graph = _Uses({"Assets/Data/Sickles.asset": ["Assets/Scripts/OrbitalAttackSettings.cs"]})
    symbols = {"Assets/Scripts/OrbitalAttackSettings.cs": (NS(kind="field", name="_baseOrbitSpeed"),)}
    read: list[str] = []
    project = NS(graph=graph, records=NS(symbols=lambda p: read.append(p) or symbols.get(p, ())))
    plain = NS(entries=[NS(kind="field", signature="_damage: 5")], names=["_damage"])
    held = NS(entries=[NS(kind="field", signature="_settings: {rid: 1710}")], names=["_settings"])
    assert not names_setting(project, "Assets/Data/Sickles.asset", plain, {"orbit", "speed"})
    assert graph.asked == [] and read == []
    assert names_setting(project, "Assets/Data/Sickles.asset", held, {"orbit", "speed"})
    assert read == ["Assets/Scripts/OrbitalAttackSettings.cs"]


def test_a_key_bound_to_more_axes_than_a_task_can_mean_raises_none(tmp_path: Path) -> None:
    """input_axes.raise_pressed_axes: a key bound to more than MOST_RECEIVERS axes ("press shift":
    the debug axes besides the game's) raises no axis and no reader; bound to one, its reader rises
    to the key share, and the Input Manager too when the task asks which key."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.model import Ranked
    from indexer.query.input_axes import raise_pressed_axes
    from indexer.query.keys_pressed import KEY_SHARE, MOST_RECEIVERS
    from indexer.query.workspace import open_workspace

    from .test_trial23_session53 import _axis, _talking_game

    def raised(root: Path) -> dict[str, float]:
        update(root, Config(workers=1))
        project = open_workspace(root, [(root, Config())]).projects[0]
        ranked = {"Assets/Scripts/Villager.cs": Ranked("Assets/Scripts/Villager.cs", 2.0, [])}
        with project.reading():
            raise_pressed_axes(project, ranked, "where is the key bound when I press C", True)
        return {p: r.score for p, r in ranked.items()}

    assert raised(_talking_game(tmp_path / "one")) == {
        "Assets/Scripts/Villager.cs": 2.0,
        "ProjectSettings/InputManager.asset": 2.0 * KEY_SHARE,
        "Assets/Scripts/Hero.cs": 2.0 * KEY_SHARE,
    }
    root = _talking_game(tmp_path / "many")
    manager = root / "ProjectSettings/InputManager.asset"
    manager.write_text(manager.read_text() + "".join(_axis(f"Debug{i}", "c") for i in range(MOST_RECEIVERS)))
    assert raised(root) == {"Assets/Scripts/Villager.cs": 2.0}

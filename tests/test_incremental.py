"""Incremental updates (walk, given paths, editor journal) equal a full rebuild after every kind of change."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.changes.diff import check
from indexer.changes.journal import Position, load_position, read_journal
from indexer.store.consistency import check_consistency

from .conftest import meta, run_cli, write_project
from .test_indexing import CONFIG, FILES, HEALTH, PLAYER, comparable, paths_of, records, search_paths

PREFAB = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Name: Hero
  m_Component:
  - component: {fileID: 200}
--- !u!114 &200
MonoBehaviour:
  m_GameObject: {fileID: 100}
  m_Script: {fileID: 11500000, guid: 22222222222222222222222222222222, type: 3}
  max: 5
"""
ARMOR = """using Game.Combat;
namespace Game.Player
{
    public class Armor { public Health worn; }
}
"""
# Code that loads assets by name: a Resources path and a shader name (see query/loads.py).
LOADER = """using UnityEngine;
namespace Game.UI
{
    public class Icons : MonoBehaviour
    {
        void Awake()
        {
            var shield = Resources.Load<TextAsset>("Icons/Shield");
            var sword = Resources.Load<TextAsset>("Icons/Sword");
            var glow = new Material(Shader.Find("Game/Glow"));
            Addressables.LoadAssetAsync<GameObject>("Goblin");
        }
    }
}
"""
GLOW = 'Shader "Game/Glow" { SubShader { Pass { } } }'
# A data asset listing the Hero prefab: found by the prefab's name (build/listed.py), which a
# rename or delete of the prefab alone must change.
PARTY = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_Script: {fileID: 11500000, guid: 88888888888888888888888888888888, type: 3}
  m_Name: Party
  members:
  - {fileID: 100, guid: 44444444444444444444444444444444, type: 3}
"""
# An Addressables group giving the Hero prefab the address Icons.cs loads (scanners/addressables.py).
GROUP = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_Script: {fileID: 11500000, guid: bbb281ee3bf0b054c82ac2347e9e782c, type: 3}
  m_Name: Enemies
  m_GroupName: Enemies
  m_GUID: c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5
  m_SerializeEntries:
  - m_GUID: 44444444444444444444444444444444
    m_Address: Goblin
    m_ReadOnly: 0
    m_SerializedLabels: []
"""
QUERIES = (
    "take damage", "heal", "player health", "shield absorb", "hero", "guardian", "icons shield glow", "champion",
)  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "Game",
        {
            **FILES,
            "Assets/Scripts/Armor.cs": ARMOR,
            "Assets/Scripts/Armor.cs.meta": meta("88888888888888888888888888888888"),
            "Assets/Prefabs/Hero.prefab": PREFAB,
            "Assets/Prefabs/Hero.prefab.meta": meta("44444444444444444444444444444444", "PrefabImporter"),
            "Assets/Prefabs.meta": meta("55555555555555555555555555555555", "DefaultImporter"),
            "Assets/Scripts/Icons.cs": LOADER,
            "Assets/Scripts/Icons.cs.meta": meta("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"),
            "Assets/Shaders/Glow.shader": GLOW,
            "Assets/Shaders/Glow.shader.meta": meta("a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2", "ShaderImporter"),
            "Assets/Resources/Icons/Sword.json": '{"name": "Sword"}',
            "Assets/Resources/Icons/Sword.json.meta": meta("a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3", "TextScriptImporter"),
            "Assets/Data/Party.asset": PARTY,
            "Assets/Data/Party.asset.meta": meta("b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1", "NativeFormatImporter"),
            "Assets/AddressableAssetsData/Enemies.asset": GROUP,
            "Assets/AddressableAssetsData/Enemies.asset.meta": meta("c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1"),
        },
    )


def _contents(root: Path) -> dict[str, bytes]:
    """Every file below Assets/ by content: what a watcher would report as changed."""
    return {f.relative_to(root).as_posix(): f.read_bytes() for f in (root / "Assets").rglob("*") if f.is_file()}


def snapshot(root: Path) -> tuple[dict, dict]:
    return comparable(root), {q: search_paths(root, q) for q in QUERIES}


def move(root: Path, src: str, dst: str) -> None:
    (root / dst).parent.mkdir(parents=True, exist_ok=True)
    shutil.move(root / src, root / dst)


def add(p: Path) -> None:
    (p / "Assets/Scripts/Shield.cs").write_text(
        "public class Shield : UnityEngine.MonoBehaviour { public int absorb; }"
    )
    (p / "Assets/Scripts/Shield.cs.meta").write_text(meta("66666666666666666666666666666666"))


def edit(p: Path) -> None:
    (p / "Assets/Scripts/Health.cs").write_text(HEALTH.replace("TakeDamage", "ApplyDamage"))


def delete(p: Path) -> None:
    (p / "Assets/Scripts/Health.cs").unlink()
    (p / "Assets/Scripts/Health.cs.meta").unlink()


def move_file(p: Path) -> None:
    move(p, "Assets/Scripts/PlayerHealth.cs", "Assets/Gameplay/PlayerHealth.cs")
    move(p, "Assets/Scripts/PlayerHealth.cs.meta", "Assets/Gameplay/PlayerHealth.cs.meta")


def move_folder(p: Path) -> None:
    move(p, "Assets/Scripts", "Assets/Code/Scripts")
    move(p, "Assets/Scripts.meta", "Assets/Code/Scripts.meta")


def rename_class(p: Path) -> None:
    (p / "Assets/Scripts/PlayerHealth.cs").unlink()
    (p / "Assets/Scripts/Guardian.cs").write_text(PLAYER.replace("PlayerHealth", "Guardian"))
    move(p, "Assets/Scripts/PlayerHealth.cs.meta", "Assets/Scripts/Guardian.cs.meta")


def change_guid(p: Path) -> None:
    (p / "Assets/Scripts/PlayerHealth.cs.meta").write_text(meta("77777777777777777777777777777777"))


def shadow_type(p: Path) -> None:
    """A second `Health`, in Armor's own namespace: Armor's unchanged reference now means it too."""
    (p / "Assets/Scripts/Local.cs").write_text("namespace Game.Player { public class Health { } }")
    (p / "Assets/Scripts/Local.cs.meta").write_text(meta("99999999999999999999999999999999"))


def add_resource(p: Path) -> None:
    """An asset the unchanged Icons.cs already names: its edge must appear without touching it."""
    (p / "Assets/Resources/Icons/Shield.json").write_text('{"name": "Shield"}')
    (p / "Assets/Resources/Icons/Shield.json.meta").write_text(meta("a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4"))


def delete_resource(p: Path) -> None:
    for name in ("Sword.json", "Sword.json.meta"):
        (p / "Assets/Resources/Icons" / name).unlink()


def rename_shader(p: Path) -> None:
    """The shader's declared name changes in place: Icons.cs no longer loads it."""
    (p / "Assets/Shaders/Glow.shader").write_text(GLOW.replace("Game/Glow", "Game/Dim"))


def rename_listed(p: Path) -> None:
    """The prefab Party.asset lists is renamed (GUID kept): the unchanged asset now lists Champion."""
    move(p, "Assets/Prefabs/Hero.prefab", "Assets/Prefabs/Champion.prefab")
    move(p, "Assets/Prefabs/Hero.prefab.meta", "Assets/Prefabs/Champion.prefab.meta")


def delete_listed(p: Path) -> None:
    for name in ("Hero.prefab", "Hero.prefab.meta"):
        (p / "Assets/Prefabs" / name).unlink()


def readdress(p: Path) -> None:
    """The group gives the address Icons.cs loads to another asset: the unchanged code follows."""
    group = p / "Assets/AddressableAssetsData/Enemies.asset"
    group.write_text(GROUP.replace("44444444444444444444444444444444", "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1"))


def unaddress(p: Path) -> None:
    (p / "Assets/AddressableAssetsData/Enemies.asset").unlink()


CHANGES: dict[str, Callable[[Path], None]] = {
    "add": add,
    "edit": edit,
    "delete": delete,
    "move_file": move_file,
    "move_folder": move_folder,
    "rename_class": rename_class,
    "change_guid": change_guid,
    "shadow_type": shadow_type,
    "add_resource": add_resource,
    "delete_resource": delete_resource,
    "rename_shader": rename_shader,
    "rename_listed": rename_listed,
    "delete_listed": delete_listed,
    "readdress": readdress,
    "unaddress": unaddress,
}


@pytest.mark.parametrize("name", list(CHANGES))
@pytest.mark.parametrize("how", ["walk", "paths"])
def test_incremental_equals_rebuild(project: Path, name: str, how: str) -> None:
    update(project, CONFIG)
    before = _contents(project)
    CHANGES[name](project)
    after = _contents(project)
    assert check(project, CONFIG).stale
    if how == "paths":
        changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
        listed = changed | {"Assets/Scripts/Health.cs"}
        stats = update(project, CONFIG, paths=sorted(listed))
        assert stats.walked is (name == "move_folder")  # a folder event falls back to the walk
        update(project, CONFIG, paths=["Assets/Scripts/PlayerHealth.cs.meta"])
    else:
        stats = update(project, CONFIG)
    assert not stats.full
    assert check_consistency(paths_of(project), project, CONFIG) == []
    assert not check(project, CONFIG).stale
    incremental = snapshot(project)
    update(project, CONFIG, full=True)
    assert snapshot(project) == incremental


def test_a_moved_file_keeps_its_record_and_references_follow_it(project: Path) -> None:
    update(project, CONFIG)
    move_file(project)
    stats = update(project, CONFIG)
    assert (stats.moved, stats.scanned, stats.added, stats.deleted) == (2, 0, 0, 0)
    r = records(project)
    assert r.path_of_guid("22222222222222222222222222222222") == "Assets/Gameplay/PlayerHealth.cs"
    assert r.categories()["Assets/Gameplay/PlayerHealth.cs::Game.Player.PlayerHealth"] == "monobehaviour"
    assert search_paths(project, "heal") == ["Assets/Gameplay/PlayerHealth.cs"]


def test_check_reports_and_never_writes(project: Path) -> None:
    assert check(project, CONFIG).indexed is False
    assert not paths_of(project).root.exists()
    update(project, CONFIG)
    assert not check(project, CONFIG).stale
    f = project / "Assets/Scripts/Health.cs"
    f.write_text(HEALTH)  # touched, same content: not stale
    assert not check(project, CONFIG).stale
    edit(project)
    add(project)
    (project / "Assets/Art/hero.png").unlink()
    header = paths_of(project).header.read_bytes()
    st = check(project, CONFIG)
    assert (st.added, st.changed, st.deleted) == (
        ["Assets/Scripts/Shield.cs", "Assets/Scripts/Shield.cs.meta"],
        ["Assets/Scripts/Health.cs"],
        ["Assets/Art/hero.png"],
    )
    assert paths_of(project).header.read_bytes() == header

    out = run_cli("index", "--check", "--project", str(project))
    assert out.returncode == 1, out.stderr
    assert "Assets/Scripts/Health.cs" in out.stdout + out.stderr
    assert run_cli("index", "--project", str(project)).returncode == 0
    out = run_cli("index", "--check", "--project", str(project))
    assert out.returncode == 0, out.stdout + out.stderr


# -- editor journal ------------------------------------------------------------------------------


def line(session: str, seq: int, op: str, **kw: object) -> str:
    return json.dumps({"v": 1, "session": session, "seq": seq, "t": 1.0, "op": op, **kw}) + "\n"


def start(session: str, prev: tuple[str, int] | None = None, reason: str = "domain_reload") -> str:
    ps, pq = prev if prev else (None, None)
    return line(session, 1, "start", pid=1, reason=reason, prev_session=ps, prev_seq=pq)


S1, S2 = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"


def test_read_journal_rules(tmp_path: Path) -> None:
    j = tmp_path / "journal.jsonl"
    assert read_journal(j, None).end is None  # no journal
    j.write_text(start(S1, reason="editor_start") + line(S1, 2, "imported", path="Assets/A.cs"))
    first = read_journal(j, None)
    assert not first.continuous and first.end == Position(S1, 2, j.stat().st_size)
    with open(j, "a") as f:
        f.write(line(S1, 3, "moved", path="Assets/B.cs", **{"from": "Assets/A.cs"}))
        f.write(start(S2, (S1, 3)) + line(S2, 2, "deleted", path="Assets/C.prefab"))
        f.write('{"v":1,"session":"bbbb')  # being written: ignored
    cont = read_journal(j, first.end)
    assert cont.continuous and cont.paths == {"Assets/A.cs", "Assets/B.cs", "Assets/C.prefab"}
    assert cont.end == Position(S2, 2, j.stat().st_size - len('{"v":1,"session":"bbbb'))
    # a gap
    j.write_text(j.read_text()[: cont.end.offset] + line(S2, 4, "imported", path="Assets/D.cs"))
    assert not read_journal(j, cont.end).continuous
    # a new editor session
    j.write_text(j.read_text()[: cont.end.offset] + start("cccccccccccccccc", reason="editor_start"))
    assert not read_journal(j, cont.end).continuous
    # truncated, then regrown past the old offset
    j.write_text(start(S1, reason="editor_start"))
    assert not read_journal(j, cont.end).continuous
    j.write_text(start(S1, reason="editor_start") + line(S1, 2, "imported", path="Assets/" + "x" * 400 + ".cs"))
    assert not read_journal(j, cont.end).continuous
    # not format version 1
    j.write_text(j.read_text()[: first.end.offset] + '{"v":2,"session":"x","seq":3}\n')
    assert not read_journal(j, first.end).continuous


# What the editor package writes (docs/editor-bridge.md): the journal's paths are added only while a
# valid heartbeat names a live process.
LIVE_HEARTBEAT = {"protocol": 1, "port": 1, "token": "t", "pid": os.getpid(), "state": "ready"}


def test_a_journal_that_is_a_named_pipe_is_unreadable_not_a_hang(project: Path) -> None:
    """While a heartbeat names a live editor, `index` reads the editor's journal: a named pipe in
    its place (a project unpacked from an archive) blocked `index` forever, `--time-limit` (the git
    hooks' bound) included. It is an unreadable journal: the update walks."""
    import subprocess
    import sys

    folder = project / "Library/UnityIndex"
    folder.mkdir(parents=True)
    (folder / "editor.json").write_text(json.dumps(LIVE_HEARTBEAT | {"updated_at": time.time() + 3600}))
    os.mkfifo(folder / "journal.jsonl")
    r = subprocess.run(
        [sys.executable, "-m", "indexer.cli", "index", "--json", "--time-limit", "5", "--project", str(project)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        timeout=60,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["walked"]


def test_index_reads_a_continuous_journal_beside_the_walk_never_instead(project: Path) -> None:
    """The journal names what the editor imported; a file changed beside an open editor (an
    agent's edit, before Unity's next refresh) is not in it yet, so it never stands in for the walk
    (session 39: `index --check` saw the edit, `index` did not)."""
    j = project / "Library/UnityIndex/journal.jsonl"
    j.parent.mkdir(parents=True)
    j.write_text(start(S1, reason="editor_start"))
    heartbeat = j.parent / "editor.json"
    heartbeat.write_text(json.dumps(LIVE_HEARTBEAT | {"updated_at": time.time()}))
    stats = update(project, CONFIG)
    assert stats.walked and load_position(paths_of(project)) == Position(S1, 1, j.stat().st_size)
    # one change journaled, one not: both seen, the position advanced past the journaled one
    edit(project)
    (project / "Assets/Art/hero.png").unlink()
    with open(j, "a") as f:
        f.write(line(S1, 2, "imported", path="Assets/Scripts/Health.cs"))
    stats = update(project, CONFIG)
    assert (stats.walked, stats.changed, stats.deleted) == (True, 1, 1)
    assert search_paths(project, "apply damage")[0] == "Assets/Scripts/Health.cs"
    assert load_position(paths_of(project)).seq == 2
    # a moved asset (with its .meta), journaled or not
    move_file(project)
    with open(j, "a") as f:
        f.write(
            line(S1, 3, "moved", path="Assets/Gameplay/PlayerHealth.cs", **{"from": "Assets/Scripts/PlayerHealth.cs"})
        )
    assert update(project, CONFIG).moved == 2
    (project / "Assets/Art/new.png").write_bytes(b"png")
    with open(j, "a") as f:  # a gap
        f.write(line(S1, 9, "imported", path="Assets/Scripts/Health.cs"))
    assert update(project, CONFIG).added == 1
    assert check_consistency(paths_of(project), project, CONFIG) == []
    incremental = snapshot(project)
    update(project, CONFIG, full=True)
    assert snapshot(project) == incremental
    # a truncated journal (the editor restarted and emptied it): read from its start again
    j.write_text(start(S2, reason="editor_start"))
    add(project)
    assert update(project, CONFIG).added == 2
    assert load_position(paths_of(project)) == Position(S2, 1, j.stat().st_size)


def test_in_a_git_tree_an_edit_the_journal_misses_is_found_by_git(project: Path) -> None:
    """With git, an update looks at git's changed paths plus the journal's, not the journal's alone."""
    from .test_gitview import git

    (project / ".gitignore").write_text("Library/\n")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "start")
    j = project / "Library/UnityIndex/journal.jsonl"
    j.parent.mkdir(parents=True)
    j.write_text(start(S1, reason="editor_start"))
    (j.parent / "editor.json").write_text(json.dumps(LIVE_HEARTBEAT | {"updated_at": time.time()}))
    update(project, CONFIG)
    update(project, CONFIG)  # git's view of a rebuild looks at every record once
    edit(project)  # journaled
    (project / "Assets/Scripts/PlayerHealth.cs").write_text(PLAYER.replace("Heal", "Restore"))  # not
    with open(j, "a") as f:
        f.write(line(S1, 2, "imported", path="Assets/Scripts/Health.cs"))
    stats = update(project, CONFIG)
    assert (stats.walked, stats.changed) == (False, 2)
    assert check(project, CONFIG).changed == []


def test_a_journal_longer_than_one_read_is_taken_in_turns(tmp_path: Path, monkeypatch) -> None:
    """A long editor session's journal was read to 64 MiB from its first byte, so once past it
    every later line was unseen and the read called continuous: each read now starts at the
    remembered line, and one that cannot reach the end is not continuous (the update walks) and
    leaves the position at the last line it read."""
    from indexer.changes import journal

    j = tmp_path / "journal.jsonl"
    head = start(S1, reason="editor_start")
    lines = [line(S1, n, "imported", path=f"Assets/F{n}.cs") for n in range(2, 12)]
    j.write_text(head + "".join(lines))
    at = Position(S1, 1, len(head))
    monkeypatch.setattr(journal, "MAX_READ_BYTES", len(lines[0]) * 4 + 10)
    first = read_journal(j, at)
    assert not first.continuous and first.end == Position(S1, 5, len(head) + 4 * len(lines[0]))
    second = read_journal(j, first.end)
    assert not second.continuous and second.end.seq == 9
    third = read_journal(j, second.end)
    assert third.continuous and third.paths == {"Assets/F10.cs", "Assets/F11.cs"}
    assert third.end == Position(S1, 11, j.stat().st_size)


def test_an_update_that_dies_before_its_commit_leaves_the_journal_position(project: Path, monkeypatch) -> None:
    """The position is saved only after the commit (docs/indexing.md): an update killed before
    it leaves the old position, so the next update reads the same lines again and applies them."""
    from indexer.store.writer import Writer

    j = project / "Library/UnityIndex/journal.jsonl"
    j.parent.mkdir(parents=True)
    j.write_text(start(S1, reason="editor_start"))
    (j.parent / "editor.json").write_text(json.dumps(LIVE_HEARTBEAT | {"updated_at": time.time()}))
    update(project, CONFIG)
    before = load_position(paths_of(project))
    edit(project)
    with open(j, "a") as f:
        f.write(line(S1, 2, "imported", path="Assets/Scripts/Health.cs"))

    def killed(self: Writer, *args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # as a kill lands: mid-update, before the commit

    with monkeypatch.context() as m:
        m.setattr(Writer, "commit", killed)
        with pytest.raises(KeyboardInterrupt):
            update(project, CONFIG)
    assert load_position(paths_of(project)) == before

    def members() -> set[str]:
        return {s.name for s in records(project).record("Assets/Scripts/Health.cs").symbols}

    assert "TakeDamage" in members() and "ApplyDamage" not in members()
    stats = update(project, CONFIG)
    assert stats.changed == 1  # the journal again, from the old position
    assert "ApplyDamage" in members() and "TakeDamage" not in members()
    assert load_position(paths_of(project)) == Position(S1, 2, j.stat().st_size)


@pytest.mark.parametrize("how", ["walk", "paths"])
def test_a_moved_file_whose_meaning_depends_on_its_path_is_scanned_again(tmp_path: Path, how: str) -> None:
    """docs/indexing.md: a file moved unchanged keeps its record, except the kinds whose scan
    depends on the path (`json` package manifests, `settings`, a Visual Effect Graph named by its
    file): those are rescanned, so the
    update equals a rebuild. Each move here keeps kind, size and content."""
    fixture = Path(__file__).resolve().parent.parent / "fixtures/DungeonCrawler"
    manifest = (fixture / "Packages/com.dungeoncrawler.tools/package.json").read_text()
    tags = (fixture / "ProjectSettings/TagManager.asset").read_text()
    root = write_project(
        tmp_path / "Game",
        {
            **FILES,
            "Packages/com.game.tools/package.json": manifest,
            "Assets/Data/items.json": '{"items": ["sword"]}',
            # a Visual Effect Graph whose graph object has no name is named by its file
            "Assets/VFX/Sparkle.vfx": (
                "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &1\nMonoBehaviour:\n  m_Name: \n"
                "--- !u!114 &2\nMonoBehaviour:\n  m_Name: \n  m_Parent: {fileID: 1}\n  eventName: OnSparkle\n"
            ),
            "ProjectSettings/TagManager.asset": tags,
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
        },
    )
    update(root, CONFIG)
    moves = [
        ("Packages/com.game.tools/package.json", "Packages/com.game.tools/Samples/sample.json"),
        ("Assets/Data/items.json", "Assets/Data/package.json"),
        ("ProjectSettings/TagManager.asset", "ProjectSettings/Backup/Old.asset"),
        ("Assets/VFX/Sparkle.vfx", "Assets/VFX/Glitter.vfx"),
    ]
    for src, dst in moves:
        move(root, src, dst)
    paths = None if how == "walk" else [p for m in moves for p in m]
    stats = update(root, CONFIG, paths=paths)
    assert not stats.full and stats.moved == 0, stats
    assert check_consistency(paths_of(root), root, CONFIG) == []
    incremental = comparable(root)
    update(root, CONFIG, full=True)
    assert comparable(root) == incremental

"""The third attacker's findings (session 42), each seen failing before its fix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import copy_fixture, run_cli

CONTROLLER = "Assets/Scripts/Player/PlayerController.cs"
CONTROLLER_GUID = "37ff862a6b9f757ca68eb080acb58bce"
PREFAB_COPY = "Assets/Art/Copy.prefab"  # sorts before the script


def ask(root: Path, *args: str) -> dict:
    r = run_cli(*args, "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def prefab_with_a_scripts_meta(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A prefab copied outside Unity and given a copy of PlayerController.cs's .meta."""
    root = copy_fixture(tmp_path_factory.mktemp("shared") / "DungeonCrawler")
    (root / "Assets/Art").mkdir()
    shutil.copy(root / "Assets/Prefabs/VFX/FX_Heal.prefab", root / PREFAB_COPY)
    shutil.copy(root / f"{CONTROLLER}.meta", root / f"{PREFAB_COPY}.meta")
    assert run_cli("index", "--project", str(root)).returncode == 0
    return root


def test_m_script_names_the_script_not_a_prefab_sharing_its_guid(prefab_with_a_scripts_meta: Path) -> None:
    """A component's `m_Script` names a script: the prefab given the script's .meta, first by
    path, was named as Player's component (`Copy.prefab (declares no class)`, every field unused)."""
    root = prefab_with_a_scripts_meta
    player = ask(root, "describe", "Assets/Prefabs/Player.prefab")
    assert player["text"].splitlines()[2] == (
        "  components: Transform, CharacterController, PlayerController, PlayerHealth, PlayerCombat, Inventory"
    )
    assert {"path": CONTROLLER, "edge": "script"} in player["uses"]
    assert PREFAB_COPY not in {e["path"] for e in player["uses"]}
    refs = ask(root, "refs", CONTROLLER_GUID)
    assert refs["target"]["path"] == CONTROLLER
    assert refs["target"]["note"] == (
        f"GUID {CONTROLLER_GUID} is also that of {PREFAB_COPY} (copied with its .meta outside Unity?): Unity"
        f" keeps it for one file and gives the others new GUIDs on import; usages by it are listed for {CONTROLLER}"
    )
    assert [u["path"] for u in refs["usages"]] == ["Assets/Prefabs/Player.prefab", "Assets/Scenes/Dungeon.unity"]
    copy = ask(root, "describe", PREFAB_COPY)
    assert copy["text"].splitlines()[1].startswith(f"note: GUID {CONTROLLER_GUID} is also that of {CONTROLLER} ")
    assert copy["used_by"] == []


# A merge stopped on a conflict: ours renamed the class, theirs added a member; diff3's ancestor
# section too, and CRLF line ends (a Windows checkout).
CONFLICTED = (
    "using UnityEngine;\r\n"  # 1
    "namespace Game\r\n"  # 2
    "{\r\n"  # 3
    "<<<<<<< HEAD\r\n"  # 4
    "    public class Knight : MonoBehaviour\r\n"  # 5
    "||||||| merged common ancestors\r\n"  # 6
    "    public class Soldier : MonoBehaviour\r\n"  # 7
    "=======\r\n"  # 8
    "    public class Soldier : Unit\r\n"  # 9
    ">>>>>>> feature/units\r\n"  # 10
    "    {\r\n"  # 11
    "        public int hp = 10;\r\n"  # 12
    "<<<<<<< HEAD\r\n"  # 13
    "        public void Charge() { }\r\n"  # 14
    "=======\r\n"  # 15
    "        public float armor = 2f;\r\n"  # 16
    ">>>>>>> feature/units\r\n"  # 17
    "    }\r\n"  # 18
    "}\r\n"  # 19
)


def test_a_script_holding_merge_conflict_markers_is_read_as_each_side() -> None:
    """Read as written, the markers were syntax errors that swallowed declarations (ours' class
    lost, `<<<<<<< HEAD` read as a field's type): each side is read, the note says why it is partial."""
    from indexer.scanners.csharp import scan

    rec = scan("Assets/Knight.cs", CONFLICTED.encode())
    assert (rec.status, rec.note, rec.error_lines) == (
        "partial",
        "unresolved merge conflict markers (both sides indexed)",
        (4, 6, 8, 10, 13, 15, 17),
    )
    assert [(s.kind, s.container, s.name, s.line) for s in rec.symbols] == [
        ("class", "Game", "Knight", 5),
        ("class", "Game", "Soldier", 9),
        ("field", "Game.Knight", "hp", 12),
        ("field", "Game.Soldier", "hp", 12),
        ("method", "Game.Knight", "Charge", 14),
        ("field", "Game.Soldier", "armor", 16),
    ]
    assert [s.bases for s in rec.symbols[:2]] == [("MonoBehaviour",), ("Unit",)]  # not the ancestor's


def test_markers_alone_in_their_place_make_a_conflict() -> None:
    """A line of a verbatim string starting `<<<<<<<`, with no `=======` after it, is text."""
    from indexer.scanners.csharp import scan

    text = 'class Banner\n{\n    const string Art = @"\n<<<<<<< arrows\n>>>>>>> arrows\n";\n}\n'
    assert (scan("Assets/Banner.cs", text.encode()).status, scan("Assets/Banner.cs", text.encode()).note) == ("ok", "")


def test_index_and_describe_name_the_markers(tmp_path: Path) -> None:
    from .conftest import meta, write_project

    root = write_project(
        tmp_path / "Merging",
        {"Assets/Knight.cs": CONFLICTED, "Assets/Knight.cs.meta": meta("ab" * 16), "Assets/Ok.cs": "class Ok {}\n"},
    )
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[-1] == (
        "unresolved merge conflict markers in 1 file: Assets/Knight.cs (`unity-index describe` one for the lines)"
    )
    assert ask(root, "index")["conflicted"] == ["Assets/Knight.cs"]
    text = ask(root, "describe", "Assets/Knight.cs")["text"].splitlines()
    lines = "4, 6, 8, 10, 13, 15, 17"
    assert text[2] == f"partial: unresolved merge conflict markers (both sides indexed), near lines {lines}"
    assert f"(merge conflict markers near lines {lines}: both sides shown)" not in text  # said once
    (root / "Assets/Knight.cs").write_text(CONFLICTED.replace("<<<<<<< HEAD\r\n", "").split("=======")[0])
    r = run_cli("index", "--project", str(root))
    assert "merge conflict" not in r.stderr and ask(root, "index")["conflicted"] == []


PREFAB_MID_MERGE = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Name: Knight
  m_Component:
  - component: {fileID: 200}
--- !u!114 &200
MonoBehaviour:
  m_GameObject: {fileID: 100}
  m_Script: {fileID: 11500000, guid: abababababababababababababababab, type: 3}
<<<<<<< HEAD
  hp: 100
=======
  hp: 120
>>>>>>> feature/balance
"""
META_MID_MERGE = """fileFormatVersion: 2
<<<<<<< HEAD
guid: cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd
=======
guid: efefefefefefefefefefefefefefefef
>>>>>>> feature/balance
PrefabImporter:
  userData:
"""


def test_a_prefab_and_a_meta_mid_merge_say_so(tmp_path: Path) -> None:
    """A prefab read both sides as one file (`hp: 100; hp: 120`) and a .meta its first GUID, both
    `ok` and silent: Unity loads neither, and assets naming theirs' GUID name nothing here."""
    from .conftest import meta, write_project

    root = write_project(
        tmp_path / "Merging",
        {
            "Assets/Knight.cs": "using UnityEngine;\npublic class Knight : MonoBehaviour { public int hp; }\n",
            "Assets/Knight.cs.meta": meta("ab" * 16),
            "Assets/Knight.prefab": PREFAB_MID_MERGE,
            "Assets/Knight.prefab.meta": META_MID_MERGE,
        },
    )
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[-1] == (
        "unresolved merge conflict markers in 2 files: Assets/Knight.prefab, Assets/Knight.prefab.meta"
        " (`unity-index describe` one for the lines)"
    )
    prefab = ask(root, "describe", "Assets/Knight.prefab")
    assert (prefab["status"], prefab["note"]) == (
        "partial",
        "2 documents; unresolved merge conflict markers (both sides read as one file)",
    )
    assert prefab["text"].splitlines()[:2] == [
        "Assets/Knight.prefab  (prefab, guid cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd)",
        "partial: 2 documents; unresolved merge conflict markers (both sides read as one file), near lines 12, 14, 16",
    ]
    theirs = "ef" * 16
    assert ask(root, "describe", "Assets/Knight.prefab.meta")["text"].splitlines()[1] == (
        f"partial: unresolved merge conflict markers (ours read; theirs gives the GUID {theirs}, which the index"
        " does not know), near lines 2, 4, 6"
    )


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_utf16_script_with_its_byte_order_mark_is_read(tmp_path: Path, encoding: str) -> None:
    """Visual Studio's "Unicode" save, which Unity compiles: its NUL bytes made it binary content,
    skipped, and the prefab carrying it named the file, `PlayerController.cs`, not its class."""
    root = copy_fixture(tmp_path / "DungeonCrawler")
    script = root / CONTROLLER
    text = script.read_text(encoding="utf-8-sig").replace("\n", "\r\n")
    script.write_bytes("\ufeff".encode(encoding) + text.encode(encoding))
    assert run_cli("index", "--project", str(root)).returncode == 0
    described = ask(root, "describe", CONTROLLER)
    assert (described["status"], described["note"]) == ("ok", "")
    assert '  L12 [Header("Movement")] [SerializeField] private float moveSpeed = 5f' in described["text"].splitlines()
    player = ask(root, "describe", "Assets/Prefabs/Player.prefab")["text"].splitlines()
    assert (
        player[2]
        == "  components: Transform, CharacterController, PlayerController, PlayerHealth, PlayerCombat, Inventory"
    )
    code = [u for u in ask(root, "refs", "PlayerController.moveSpeed")["usages"] if u["path"] == CONTROLLER]
    assert (code[0]["line"], code[0]["detail"]) == (30, "get => moveSpeed;")

"""Defects found by a new user's trial on two unseen games in session 43 (docs/retrieval.md, "A new
user's trial on two unseen games (session 43)"), each a test seen failing before its fix."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import query_terms, said_words
from indexer.query.file_roles import role_priors, role_words
from indexer.query.priors import FAULT_PRIOR

from .conftest import meta, write_project
from .test_trials_session32 import _workspace

_TABLE_GUID = "ac2abb9e3e001e4408eb54a0b508efcd"
_SCRIPT_GUID = "ef372cc54af7a7243b1b92d1370d00d8"


def _drop_table(name: str) -> str:
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        f"  m_Script: {{fileID: 11500000, guid: {_SCRIPT_GUID}, type: 3}}\n  m_Name: {name}\n"
        "  table:\n  - mainItem:\n      quantity:\n        min: 3\n        max: 25\n      dropChance: 0.5\n"
    )


def _bug_game(tmp_path: Path) -> Path:
    """A platformer whose enemies are bugs: a pill bug's scripts and the drop table of its loot."""
    files: dict[str, str] = {
        f"Assets/Scripts/PillBug/PillBug{part}.cs": (
            f"using UnityEngine;\npublic class PillBug{part} : MonoBehaviour\n{{\n"
            "    PillBugMover mover;\n    public bool DropOffAhead() { return mover.DropOffAhead(); }\n"
            "    void Update() { if (DropOffAhead()) mover.Turn(); }\n}\n"
        )
        for part in ("MovementController", "MovementStateMachine", "MovementStateManager", "Container")
    }
    files["Assets/Scripts/Looting/DropTable.cs"] = (
        'using UnityEngine;\n[CreateAssetMenu(menuName = "Drop Table")]\n'
        "public class DropTable : ScriptableObject\n{\n    [SerializeField] DropTableEntry[] table;\n}\n"
    )
    files["Assets/Scripts/Looting/DropTable.cs.meta"] = meta(_SCRIPT_GUID)
    files["Assets/Prefabs/Bugs/Pill Bug/Pill Bug Drop Table.asset"] = _drop_table("Pill Bug Drop Table")
    files["Assets/Prefabs/Bugs/Pill Bug/Pill Bug Drop Table.asset.meta"] = meta(_TABLE_GUID, "NativeFormatImporter")
    return write_project(tmp_path / "P", files)


def test_a_bug_the_game_names_reports_no_fault(tmp_path: Path) -> None:
    """A platformer's "what does the pill bug drop when it dies" read "bug" as a fault report and
    scaled every file but scripts by FAULT_PRIOR: the pill bug's drop table, the answer, ranked 13th
    under seven pill bug movement scripts. A fault word that ends a name the project gives its files
    ("pill bug": `Pill Bug Drop Table.asset`, `PillBugMover.cs`) names that thing; "a bug in the
    drop table" still reports a fault."""
    ws = _workspace(_bug_game(tmp_path))
    project = ws.projects[0]
    table = "Assets/Prefabs/Bugs/Pill Bug/Pill Bug Drop Table.asset"

    def prior(text: str) -> float:
        found = [h.path for h in ws.search(text, 20, named=False)]  # the names the words are read against
        roles = role_words(said_words(text), text, found)
        return role_priors(project, {table: "asset"}, query_terms(text), roles).get(table, 1.0)

    assert prior("what does the pill bug drop when it dies") == 1.0
    assert prior("what do pill bugs drop when they die") == 1.0
    assert prior("there is a bug in the drop table") == FAULT_PRIOR
    hits = [h.path for h in ws.search("what does the pill bug drop when it dies", 10)]
    assert hits.index(table) < 3


def _board_game(tmp_path: Path) -> Path:
    """A match-three game: scripts that walk the board's rows and columns, and the constants
    class setting how many there are."""
    walker = (
        "using UnityEngine;\npublic class {0} : MonoBehaviour\n{{\n"
        "    public int Row {{ get; set; }}\n    public int Column {{ get; set; }}\n"
        "    public bool {0}RowColumn(int row, int column) {{ return Row == row && Column == column; }}\n"
        "    public void Swap{0}ColumnRow({0} other) {{ int row = Row; Row = other.Row; other.Row = row;\n"
        "        int column = Column; Column = other.Column; other.Column = column; }}\n}}\n"
    )
    files = {f"Assets/Scripts/{name}.cs": walker.format(name) for name in ("Shape", "ShapeInfo", "ShapesArray")}
    files["Assets/Scripts/Constants.cs"] = (
        "public static class Constants\n{\n    public static readonly int Rows = 12;\n"
        "    public static readonly int Columns = 8;\n    public static readonly float AnimationDuration = 0.2f;\n"
        "    public static readonly int MinimumMatches = 3;\n    public static readonly int Match3Score = 60;\n}\n"
    )
    return write_project(tmp_path / "P", files)


def test_a_quantity_question_finds_the_constant_setting_it(tmp_path: Path) -> None:
    """A match-three game's "how many rows and columns does the board have" ranked six scripts
    saying "row" and "column" most often above `Constants.cs`, whose `Rows = 12` and
    `Columns = 8` answer it (7th): a quantity question raises the script declaring with a number a
    field named by what it asks the amount of, as a data asset's field is raised. Not a field named
    by the question's other words alone ("how much experience does the player need" and a
    `player = 1`)."""
    ws = _workspace(_board_game(tmp_path))
    hits = [h.path for h in ws.search("how many rows and columns does the board have", 10)]
    assert hits[0] == "Assets/Scripts/Constants.cs"
    assert hits[0] != next(h.path for h in ws.search("where are the rows and columns of the board", 10))


_MOVER_GUID = "9704eb5223fb39e4c94cddc7baec1101"
_AC_GUID = "5b0e1e0f6c3d4e0a9f1b2c3d4e5f6a7b"
_PREFAB_GUID = "6c1f0e2d3b4a59687a6b5c4d3e2f1a0b"


def _beetle_game(tmp_path: Path) -> Path:
    """A beetle prefab whose mover sets its speeds and whose animator plays its controller."""
    prefab = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &100\nGameObject:\n  m_Name: Rhino Beetle\n"
        "  m_Component:\n  - component: {fileID: 101}\n  - component: {fileID: 102}\n  - component: {fileID: 103}\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Father: {fileID: 0}\n"
        f"--- !u!95 &102\nAnimator:\n  m_GameObject: {{fileID: 100}}\n"
        f"  m_Controller: {{fileID: 9100000, guid: {_AC_GUID}, type: 2}}\n"
        f"--- !u!114 &103\nMonoBehaviour:\n  m_GameObject: {{fileID: 100}}\n"
        f"  m_Script: {{fileID: 11500000, guid: {_MOVER_GUID}, type: 3}}\n  runSpeed: 2.3\n  walkSpeed: 1\n"
    )
    controller = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!91 &9100000\nAnimatorController:\n"
        "  m_Name: Rhino Beetle AC\n  m_AnimatorParameters:\n  - m_Name: speedFraction\n    m_Type: 1\n"
    )
    files = {
        "Assets/Scripts/AIMover.cs": (
            "using UnityEngine;\npublic class AIMover : MonoBehaviour\n{\n    [SerializeField] float runSpeed = 3;\n"
            "    [SerializeField] float walkSpeed = 1;\n"
            "    public void Move(float x) { transform.position += Vector3.right * x; }\n}\n"
        ),
        "Assets/Scripts/AIMover.cs.meta": meta(_MOVER_GUID),
        "Assets/Prefabs/Rhino Beetle/Rhino Beetle.prefab": prefab,
        "Assets/Prefabs/Rhino Beetle/Rhino Beetle.prefab.meta": meta(
            "6c1f0e2d3b4a59687a6b5c4d3e2f1a0b", "PrefabImporter"
        ),
        "Assets/Art/Rhino Beetle/Rhino Beetle AC.controller": controller,
        "Assets/Art/Rhino Beetle/Rhino Beetle AC.controller.meta": meta(_AC_GUID, "NativeFormatImporter"),
    }
    return write_project(tmp_path / "P", files)


def test_how_fast_names_a_prefab_by_its_speed(tmp_path: Path) -> None:
    """A platformer's "how fast does the rhino beetle move" ranked the beetle's prefab first but
    pointed it at the edge the walk reached it by (its animator's `m_Controller` line), not the
    `runSpeed: 2.3` it asks for: a hit whose name holds what a quantity question asks the amount
    of (speed, for "how fast") keeps it."""
    ws = _workspace(_beetle_game(tmp_path))
    hit = next(h for h in ws.search("how fast does the rhino beetle move", 10) if h.path.endswith(".prefab"))
    assert hit.snippet == "runSpeed: 2.3"

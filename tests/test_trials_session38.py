"""What a new user's trials on unseen games found (docs/retrieval.md, "Session 38"), each a test
seen failing before its fix."""

from __future__ import annotations

from pathlib import Path

from indexer.build.documents import nested_keys

from .conftest import meta, run_cli, write_project
from .test_trials_session32 import _workspace
from .test_unity_event_targets import _behaviour, _header

TABLE_SCRIPT = "ab" * 16

# A data table as spreadsheet importers write it: one list, a row per item, the columns as keys.
ROWS = (
    "  items:\n"
    "  - Master_Id: 1001\n    Hp: 99\n    StartMana: 2\n    RechargeMana: 2\n"
    "    spawn:\n      serializedVersion: 2\n      m_Delay: 1\n      waveDelay: 3\n"
    "  - Master_Id: 1002\n    Hp: 20\n    StartMana: 2\n    RechargeMana: 1\n"
)


def _table_project(root: Path) -> Path:
    code = (
        "using System.Collections.Generic;\nusing UnityEngine;\n"
        "public class MasterDataTable : ScriptableObject { public List<MasterRow> items; }\n"
        "[System.Serializable] public class MasterRow { public int Master_Id; public int Hp; }\n"
        "public class Player : MonoBehaviour { public int mana; }\n"
    )
    return write_project(
        root,
        {
            "Assets/Scripts/MasterDataTable.cs": code,
            "Assets/Scripts/MasterDataTable.cs.meta": meta(TABLE_SCRIPT),
            "Assets/Resources/Tables/MasterTable.asset": _header() + _behaviour(11400000, 0, TABLE_SCRIPT, ROWS),
        },
    )


def test_a_data_table_is_found_by_its_columns(tmp_path: Path) -> None:
    """A table's rows hold the numbers a designer tunes, under keys the asset's outline never
    lists (its one field is `items`): a search for a column, `RechargeMana`, found no asset."""
    ws = _workspace(_table_project(tmp_path / "P"))
    hits = ws.search("RechargeMana", 5, kind="asset")
    assert [h.path for h in hits] == ["Assets/Resources/Tables/MasterTable.asset"]
    assert [h.path for h in ws.search("wave delay", 5, kind="asset")] == ["Assets/Resources/Tables/MasterTable.asset"]


def test_nested_keys_leave_unity_s_own_out() -> None:
    """The columns, first seen first, each once; `m_...` and `serializedVersion` are Unity's."""
    assert nested_keys(ROWS) == ["Master_Id", "Hp", "StartMana", "RechargeMana", "spawn", "waveDelay"]


def test_a_file_rewritten_with_its_size_and_time_kept_is_read_again_when_named(tmp_path: Path) -> None:
    """A package unpacked from an archive (or `rsync -a`) rewrites a file with its size and
    modification time kept: git and the watcher named it, and the update passed it over by its stat."""
    import os

    from indexer.build.update import update
    from indexer.config import Config

    root = write_project(tmp_path / "P", {"Assets/Tool.cs": "public class AcmeAlpha { public int a; }\n"})
    tool = root / "Assets/Tool.cs"
    old = 499_162_500 * 10**9  # a tarball's time: long settled when the index records it
    os.utime(tool, ns=(old, old))
    update(root, Config(workers=1))
    tool.write_text("public class AcmeOmega { public int b; }\n")
    os.utime(tool, ns=(old, old))
    update(root, Config(workers=1), paths=["Assets/Tool.cs"])
    records = _workspace_only(root).projects[0].records
    assert [s.name for s in records.symbols("Assets/Tool.cs")] == ["AcmeOmega", "b"]


def _workspace_only(root: Path):
    from indexer.query.workspace import open_workspace, projects_at

    return open_workspace(root, projects_at(root))


def test_an_index_dir_inside_a_content_folder_is_refused(tmp_path: Path) -> None:
    """`index_dir = "Assets/Levels"` was taken: the folder's files went unindexed, and the first
    update removed the `gen-1` folder a user kept there as a killed writer's."""
    root = write_project(
        tmp_path / "Game",
        {"Assets/Levels/gen-1/level.txt": "hand-made\n", "Assets/Levels/LevelLoader.cs": "class LevelLoader {}\n"},
    )
    (root / "unity-index.toml").write_text('index_dir = "Assets/Levels"\n')
    r = run_cli("index", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        f"error: {root / 'unity-index.toml'}: index_dir must be a folder of its own (got 'Assets/Levels', which"
        f" is {root / 'Assets/Levels'}): not the project folder, a folder above it, the home folder or one"
        " above it, or one of Assets, Packages, ProjectSettings or a folder in them; the default is"
        " Library/UnityIndex\n"
    )
    assert (root / "Assets/Levels/gen-1/level.txt").read_text() == "hand-made\n"


def test_a_printed_pack_stays_within_its_budget_when_a_file_holds_control_characters(tmp_path: Path) -> None:
    """The pack was fitted to the raw text and printed with each control character as `\\x01`
    (four characters): a budget of 60 printed 86 tokens."""
    from indexer.query.tokens import estimate

    beacon = "public class Beacon {\n  // beacon " + "\x01" * 20 + "\n  public void Ping() {}\n}\n"
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Beacon.cs": beacon})
    for budget in (60, 200):
        r = run_cli("context", "beacon", "--budget", str(budget), "--tokenizer", "estimate", "--project", str(root))
        assert r.returncode == 0, r.stderr
        assert "\x01" not in r.stdout and ("\\x01" in r.stdout) == (budget == 200)
        printed = estimate(r.stdout.rstrip("\n"))
        assert printed <= budget
        assert f"[{printed}/{budget} tokens, estimate-v2;" in r.stderr


def test_refs_of_a_folder_s_guid_names_the_folder(tmp_path: Path) -> None:
    """`describe` of a folder's GUID points at `refs GUID`, which said the folder's file "was
    deleted or moved without" its .meta."""
    guid = "19e0ecc3414215be92cf65c62729b309"
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts.meta": f"fileFormatVersion: 2\nguid: {guid}\nfolderAsset: yes\n",
            "Assets/Scripts/A.cs": "class A {}\n",
        },
    )
    r = run_cli("refs", guid, "--project", str(root))
    assert (r.returncode, r.stdout.splitlines()[0]) == (0, "GUID Assets/Scripts  (the folder Assets/Scripts)")


def test_a_size_cap_over_the_limit_is_shown_as_given(tmp_path: Path) -> None:
    """`max_file_mb = 1000001` was refused as `got 1e+06`, the limit itself."""
    root = write_project(tmp_path / "Game", {})
    (root / "unity-index.toml").write_text("max_file_mb = 1000001\n")
    r = run_cli("status", "--project", str(root))
    assert r.returncode == 2 and r.stderr.endswith("(megabytes; got 1000001)\n"), r.stderr


def test_a_scriptable_object_class_nothing_uses_says_so(tmp_path: Path) -> None:
    """A trial asked which crop asset to edit and met `Corn.cs`, a ScriptableObject class of which
    no asset exists: `describe` said nothing of its use, as it says of a component nothing carries."""
    from indexer.query.describe import describe

    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Plants/Corn.cs": "class Corn : UnityEngine.ScriptableObject { public float growTime = 10f; }\n",
            "Assets/Plants/Corn.cs.meta": meta("c0" * 16),
            "Assets/Plants/Seed.cs": "class Seed : UnityEngine.ScriptableObject { public float growTime; }\n",
            "Assets/Plants/Seed.cs.meta": meta("5e" * 16),
            "Assets/Crops/Wheat.asset": _header() + _behaviour(11400000, 0, "5e" * 16, "  growTime: 4\n"),
        },
    )
    graph = _workspace(root).projects[0].graph
    corn = describe(graph, "Assets/Plants/Corn.cs").text.splitlines()
    assert corn[-1] == "used by: nothing found (no asset is an instance of it, no other code names its types)"
    assert describe(graph, "Assets/Plants/Seed.cs").text.splitlines()[-1] == "used by: Assets/Crops/Wheat.asset"


def test_a_data_asset_cut_to_its_room_keeps_the_field_the_task_names(tmp_path: Path) -> None:
    """A level's config given a small room showed its first lines in order, up to a long colour
    scheme matching "level": `m_Cost`, what "how many stars does the Ritual level cost" asks,
    was left out while sibling configs further down the pack showed theirs."""
    from indexer.query.tokens import counter
    from indexer.query.views import cut_lines, file_view, weighted

    scheme = "{_ArrowColor: {r: 1, g: 1, b: 1, a: 1}, _ButtonColor: {r: 0.5, g: 0.2, b: 0.1, a: 1}}"
    fields = (
        f"  m_LevelName: Ritual\n  m_LevelColorScheme: {scheme}\n  m_PuzzleSides: 4\n  m_StarsEnabled: 1\n"
        "  m_ThirdStarThreshold: 3\n  m_Cost: 11\n"
    )
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/LevelConfig.cs": (
                "public class LevelConfig : UnityEngine.ScriptableObject { public string m_LevelName;"
                " public ColorScheme m_LevelColorScheme; public int m_PuzzleSides; public bool m_StarsEnabled;"
                " public int m_ThirdStarThreshold; public int m_Cost; }\n"
                "[System.Serializable] struct ColorScheme { public UnityEngine.Color _ArrowColor, _ButtonColor; }\n"
            ),
            "Assets/LevelConfig.cs.meta": meta(TABLE_SCRIPT),
            "Assets/Levels/RitualConfig.asset": _header()
            + _behaviour(11400000, 0, TABLE_SCRIPT, fields).replace("m_Name: \n", "m_Name: RitualConfig\n"),
        },
    )
    project = _workspace(root).projects[0]
    view = file_view(project, "Assets/Levels/RitualConfig.asset")
    tok = counter("estimate")
    lines, weights = weighted(view, project.graph, {"star", "level", "cost", "ritual"})
    cut = cut_lines(["### Assets/Levels/RitualConfig.asset  (asset)"], lines, weights, 60, tok, titled=True)
    assert cut is not None and cut[1:] == [
        "ScriptableObject RitualConfig: LevelConfig (Assets/LevelConfig.cs)",
        "  L11 m_LevelName: Ritual",
        "  L14 m_StarsEnabled: 1",
        "  L16 m_Cost: 11",  # "cost" alone names it; "level" and "star" two fields each
        "… 4 more outline lines",
    ]


def test_a_pack_shows_the_fields_a_how_question_asks_about(tmp_path: Path) -> None:
    """ "How fast does the player climb ladders?" showed the ladder action's class line alone: its
    `speed = 6` holds no word of the question. "How fast" asks for a speed as "faster" does."""
    from indexer.query.context import build_context
    from indexer.query.synonyms import qualities
    from indexer.query.tokens import counter

    assert qualities(["fast"]) == qualities(["faster"]) == {"speed", "duration"}  # (duration: session 43)
    others = "".join(f"    public float unrelatedSetting{i} = {i};\n" for i in range(20))
    ladder = (
        "using UnityEngine;\npublic class ClimbLadder : MonoBehaviour\n{\n    public float speed = 6;\n"
        f"{others}    void Update() {{ }}\n}}\n"
    )
    root = write_project(tmp_path / "Game", {"Assets/ClimbLadder.cs": ladder})
    pack = build_context(_workspace(root), "How fast does the player climb ladders?", 300, counter("estimate"))
    section = pack.tier2.text.partition("### Assets/ClimbLadder.cs ")[2]
    assert "  L4 public float speed = 6" in section.splitlines()
    assert "unrelatedSetting0" not in section


def test_a_named_file_untouched_since_its_record_is_not_read_again(tmp_path: Path, monkeypatch) -> None:
    """Every query asks whether the index is current, over the paths git lists as modified: a
    dirty tree's files, indexed since they changed, are not hashed again each time (their ctime
    is older than the update that recorded them)."""
    import os

    from indexer.build.update import update
    from indexer.changes import diff as diff_module
    from indexer.config import Config
    from indexer.store.reader import Records
    from indexer.store.schema import IndexPaths

    root = write_project(tmp_path / "P", {"Assets/Tool.cs": "public class AcmeAlpha { public int a; }\n"})
    old = 499_162_500 * 10**9
    os.utime(root / "Assets/Tool.cs", ns=(old, old))
    config = Config(workers=1)
    update(root, config)
    read: list[str] = []
    real = diff_module.content_differs
    monkeypatch.setattr(diff_module, "content_differs", lambda r, rel, *a: read.append(rel) or real(r, rel, *a))
    reader = Records(IndexPaths(config.index_path(root)))
    try:
        change = diff_module.diff(root, config, reader, ["Assets/Tool.cs"])
    finally:
        reader.close()
    assert (change.jobs, read) == ([], [])


def test_nested_keys_leave_out_curves_gradients_and_wrapped_text() -> None:
    """A review: a curve's keyframes (`time`, `value`), a gradient's `key0` and the lines a long
    text wraps onto (`    Note: it breaks`) read as a data asset's columns."""
    asset = (
        "  description: Some long text that\n    Note: it breaks here\n    Warning: again\n"
        "  curve:\n    serializedVersion: 2\n    m_Curve:\n    - serializedVersion: 3\n      time: 0\n"
        "      value: 1\n      inSlope: 0\n  grad:\n    key0: {r: 1, g: 1, b: 1, a: 1}\n    ctime0: 0\n"
        "  items:\n  - Hp: 99\n    spawn:\n      waveDelay: 3\n    other: 1\n"
    )
    assert nested_keys(asset) == ["Hp", "spawn", "waveDelay", "other"]


def test_a_field_value_holding_a_comment_is_left_out_and_its_spaces_collapsed() -> None:
    """A review: `= 2 /* two */ + 1` was shown whole, `= 2   +\\t1` with its spaces, and a value of
    15 characters outside ASCII was cut as over 40 (bytes counted)."""
    from indexer.scanners import csharp

    src = (
        "class A {\n public int k = 2 /* two */ + 1;\n public int m = 2   +\t1;\n"
        ' public string u = "日本語日本語日本語日本語日本語";\n string s = "a  b";\n}\n'
    )
    assert [s.signature for s in csharp.scan("Assets/A.cs", src.encode()).symbols] == [
        "class A",
        "public int k",
        "public int m = 2 + 1",
        'public string u = "日本語日本語日本語日本語日本語"',
        'string s = "a  b"',
    ]


def test_a_data_asset_s_field_ending_with_a_colon_is_no_title() -> None:
    """A review: a kept field `scoreLabel: Score:` was dropped from a cut as a title left bare."""
    from indexer.query.tokens import counter
    from indexer.query.views import _field_weights, cut_lines

    lines = [
        "ScriptableObject HUD: Game.HudText (Assets/Scripts/HudText.cs)",
        "  L15 livesLabel: Lives left",
        "  L16 scoreLabel: Score:",
        "references:",
        "  Assets/Scripts/HudText.cs (m_Script)",
    ]
    weights = _field_weights(lines, {"score", "label"})
    cut = cut_lines(["### Assets/Data/HUD.asset"], lines, weights, 60, counter("estimate"), titled=True)
    assert cut is not None and "  L16 scoreLabel: Score:" in cut


def test_an_index_dir_inside_a_linked_assets_folder_is_refused(tmp_path: Path) -> None:
    """A review: with `Assets` a link to a folder elsewhere, `Assets/Idx` resolved outside the
    project's `Assets` and was taken, and the first update removed a `gen-1` folder kept there."""
    shared = tmp_path / "shared"
    (shared / "Idx/gen-1").mkdir(parents=True)
    (shared / "Idx/gen-1/keep.txt").write_text("mine\n")
    (shared / "Hero.cs").write_text("public class Hero {}\n")
    root = tmp_path / "Game"
    (root / "ProjectSettings").mkdir(parents=True)
    (root / "Assets").symlink_to(shared, target_is_directory=True)
    (root / "unity-index.toml").write_text('index_dir = "Assets/Idx"\n')
    r = run_cli("index", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert "index_dir must be a folder of its own (got 'Assets/Idx'" in r.stderr
    assert (shared / "Idx/gen-1/keep.txt").read_text() == "mine\n"


def test_adjectives_of_other_senses_name_no_quality() -> None:
    """synonyms._ADJECTIVES: "high score", "low health", "a light", "close the menu" ask for no
    height, weight or distance fields; "how far" and "how heavy" do."""
    from indexer.query.synonyms import qualities

    assert qualities(["high", "low", "light", "dark", "close"]) == set()
    assert qualities(["far", "heavy"]) == {"distance", "range", "weight", "mass"}

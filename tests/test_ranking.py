"""The retriever's walk of the reference graph and its priors, on small made-up projects."""

import json
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.context import build_context
from indexer.query.rank import is_vendored, vendored_folders
from indexer.query.tokens import counter
from indexer.query.vendored import names_package, vendor_package
from indexer.query.workspace import open_workspace

from .conftest import meta, run_cli, write_project

TURRET = """using UnityEngine;
namespace Defense
{
    public class Turret : MonoBehaviour
    {
        public float range = 12f;
        public void AimAtTarget(Transform target) { transform.LookAt(target); }
    }
}
"""
TOWER = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Component:
  - component: {fileID: 400}
  - component: {fileID: 11400}
  m_Name: Tower
  m_IsActive: 1
--- !u!4 &400
Transform:
  m_GameObject: {fileID: 100}
  m_Children: []
  m_Father: {fileID: 0}
--- !u!114 &11400
MonoBehaviour:
  m_GameObject: {fileID: 100}
  m_Enabled: 1
  m_Script: {fileID: 11500000, guid: 7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a, type: 3}
  m_Name:
  m_EditorClassIdentifier:
  range: 20
"""


def workspace(root: Path):
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())])


def test_the_walk_pulls_in_the_prefab_carrying_a_matched_script(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/Turret.cs": TURRET,
            "Assets/Scripts/Turret.cs.meta": meta("7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a"),
            "Assets/Prefabs/Tower.prefab": TOWER,
            "Assets/Scripts/Unrelated.cs": "class Unrelated { void Jump() {} }",
        },
    )
    hits = workspace(root).search("aim at target", limit=10)
    assert [(h.path, h.reason) for h in hits] == [
        ("Assets/Scripts/Turret.cs", "text match"),
        ("Assets/Prefabs/Tower.prefab", "carries script Assets/Scripts/Turret.cs"),
    ]
    assert hits[1].score < hits[0].score
    assert (hits[1].kind, hits[1].name) == ("prefab", "Tower")


def test_same_index_same_query_same_order(tmp_path: Path) -> None:
    files = {f"Assets/S{i}.cs": f"class S{i} {{ void Fire() {{}} int ammo{i}; }}" for i in range(30)}
    ws = workspace(write_project(tmp_path / "P", files))
    first = ws.search("fire ammo", limit=30)
    assert len(first) == 30
    assert all(ws.search("fire ammo", limit=30) == first for _ in range(5))
    # equal scores are ordered by path
    assert [h.path for h in first] == sorted(h.path for h in first)


def test_vendored_code_ranks_below_the_projects_own(tmp_path: Path) -> None:
    body = "public class Inventory { public void AddItem() {} }"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Plugins/Store/InventoryKit.cs": body,
            "Assets/ThirdParty/Lib/Inventory2.cs": body,
            "Assets/Kit/LICENSE.md": "MIT",
            "Assets/Kit/Inventory3.cs": body,
            "Assets/Game/Inventory4.cs": body,
        },
    )
    hits = workspace(root).search("inventory add item", limit=10)
    assert hits[0].path == "Assets/Game/Inventory4.cs"
    folders = vendored_folders(["Assets/Kit/LICENSE.md", "Assets/LICENSE", "Assets/Kit/Sub/a.cs"])
    assert folders == frozenset({"Assets/Kit/"})
    # a license whose text is not indexed (excluded, or too large) still has its .meta
    assert vendored_folders(["Assets/Net/LICENSE.txt.meta", "Assets/Net/LICENSE.txt.bak"]) == {"Assets/Net/"}
    assert is_vendored("Assets/Kit/Sub/a.cs", folders)
    assert is_vendored("Assets/Plugins/x.cs", folders) and is_vendored("Assets/Packages/LiteDB/x.cs", folders)
    assert not is_vendored("Assets/Game/x.cs", folders)


def test_third_party_code_weighs_its_prior_of_the_projects_own_and_rank_reads_its_candidates(
    tmp_path: Path, monkeypatch
) -> None:
    """docs/retrieval.md: third-party code "at 0.4 of its weight": the same file in Plugins/
    scores VENDORED_PRIOR of the project's own; and a ranking considers "up to 150 candidates"
    (CANDIDATES) of the keyword search, whatever the few hits asked for."""
    from indexer.query.priors import VENDORED_PRIOR
    from indexer.query.rank import CANDIDATES

    body = "public class {0} {{ public void OpenChest() {{}} public float lidAngle; }}"
    root = write_project(
        tmp_path / "P",
        {"Assets/Plugins/Kit/ChestA.cs": body.format("ChestA"), "Assets/Game/ChestB.cs": body.format("ChestB")},
    )
    ws = workspace(root)
    hits = {h.path: h.score for h in ws.search("open the chest lid", limit=5)}
    assert VENDORED_PRIOR == 0.4
    assert hits["Assets/Plugins/Kit/ChestA.cs"] / hits["Assets/Game/ChestB.cs"] == pytest.approx(
        VENDORED_PRIOR, rel=0.02
    )
    project = ws.projects[0]
    asked = []
    real = project.searcher.candidates
    monkeypatch.setattr(project.searcher, "candidates", lambda text, n, **kw: asked.append(n) or real(text, n, **kw))
    ws.search("open the chest lid", limit=5)
    assert (CANDIDATES, asked) == (150, [150])


def test_an_asset_store_package_with_a_pdf_manual_ranks_below_the_projects_own_code(tmp_path: Path) -> None:
    """An Asset Store drop ships a PDF manual beside its code and no license text: a behaviour-tree
    kit's `Patrol` task shares every word of the game's own enemy patrol. The index keeps the PDF's
    `.meta` (the PDF itself is not text)."""
    patrol = "public class {0} {{ public void Patrol() {{}} public Transform[] waypoints; {1} }}"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Behavior Kit/Documentation.pdf.meta": meta("0a0b0c0d0e0f10111213141516171819"),
            "Assets/Behavior Kit/Runtime/Tasks/EnemyPatrolTask.cs": patrol.format(
                "EnemyPatrolTask", "// the enemy patrol skips waypoints; void SkipWaypoint() {}"
            ),
            "Assets/Scripts/EnemyPatroller.cs": patrol.format("EnemyPatroller", ""),
        },
    )
    hits = [h.path for h in workspace(root).search("the enemy patrol skips waypoints", limit=2)]
    assert hits == ["Assets/Scripts/EnemyPatroller.cs", "Assets/Behavior Kit/Runtime/Tasks/EnemyPatrolTask.cs"]
    assert vendored_folders(
        [
            "Assets/Kit/Readme.pdf",
            "Assets/Dungeons/MD Quick Start Guide 1.7.pdf",
            "Assets/DefaultPlayables/DefaultPlayablesDocumentation.pdf.meta",
            "Assets/Tools/User Manual.pdf.meta",
            "Assets/Art/Poster.pdf",  # a PDF, not a manual
            "Assets/Docs/Design.pdf",
            "Assets/Game/Guide.cs",  # a script, not a manual
        ]
    ) == {"Assets/Kit/", "Assets/Dungeons/", "Assets/DefaultPlayables/", "Assets/Tools/"}


def test_a_design_document_pdf_beside_the_projects_own_code_is_not_a_manual(tmp_path: Path) -> None:
    """A PDF manual names itself a manual, a readme, a guide or the documentation, as a word of its
    name: a game's own design document (or `Paddock.pdf`, a level's plan) beside its scripts does not
    make them third-party code."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/MyGame/Game Design Document.pdf.meta": meta("0a0b0c0d0e0f10111213141516171819"),
            "Assets/MyGame/Scripts/EnemyPatroller.cs": "public class EnemyPatroller { public void Patrol() {} }",
        },
    )
    assert workspace(root).projects[0].fresh().vendored == frozenset()
    assert vendored_folders(
        [
            "Assets/Levels/Paddock.pdf",
            "Assets/Tech/TechnicalDocument.pdf.meta",
            "Assets/Kit/Docs.pdf",
            "Assets/Kit2/KitDocs v2.PDF",
            "Assets/Kit3/README.pdf",
        ]
    ) == {"Assets/Kit/", "Assets/Kit2/", "Assets/Kit3/"}


def test_a_kits_plain_text_read_me_marks_its_folder_third_party(tmp_path: Path) -> None:
    """docs/retrieval.md: a read-me as plain text in a folder below the top (an Asset Store kit's
    `readme.txt`, `!ReadMe!.txt`) makes the folder third-party, found through the index's path
    search; a game's Markdown read-me, a script named Readme or a read-me at the top do not."""
    task = "public class {0} {{ public void Evaluate(float priority) {{}} }}"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/AI/NodeCanvas/!ReadMe!.txt": "Thank you for purchasing NodeCanvas",
            "Assets/Scripts/AI/NodeCanvas/Tasks/PriorityEvaluator.cs": task.format("PriorityEvaluator"),
            "Assets/Scripts/AI/GoalPriority.cs": task.format("GoalPriority"),
        },
    )
    ws = workspace(root)
    assert ws.projects[0].fresh().vendored == {"Assets/Scripts/AI/NodeCanvas/"}
    hits = [h.path for h in ws.search("evaluate the priority", limit=2)]
    assert hits == ["Assets/Scripts/AI/GoalPriority.cs", "Assets/Scripts/AI/NodeCanvas/Tasks/PriorityEvaluator.cs"]
    assert vendored_folders(
        [
            "Assets/Plugins2/DOTween/readme.txt",
            "Assets/Dungeons/Presets/ReadMe DunGen.txt.meta",
            "Assets/Joystick/README.RTF",
            "Assets/Game/README.md",  # a game's own notes
            "Assets/Game/Readme/Readme.cs",  # a script
            "Assets/Game/Readme_Fonts.txt",  # not the word read-me
            "Assets/readme.txt",  # the top folder is the project's
        ]
    ) == {"Assets/Plugins2/DOTween/", "Assets/Dungeons/Presets/", "Assets/Joystick/"}


def test_an_sdk_copied_into_assets_ranks_below_the_projects_own_code(tmp_path: Path) -> None:
    """An SDK dropped into Assets/ as a package (its `package.json` beside it, no license) or with
    release notes or a change log of its own is third-party code: "a solo game" or "play" do not
    name `com.google.play.games`, "google" does."""
    sdk = "public class PlayGamesPlatform { public void StartMatch(int rounds) {} public int MatchRounds; }"
    game = "public class MatchSetup { public void StartMatch(int rounds) {} public int rounds; }"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/GooglePlayGames/com.google.play.games/package.json": '{"name": "com.google.play.games"}',
            "Assets/GooglePlayGames/com.google.play.games/Runtime/PlayGamesPlatform.cs": sdk,
            "Assets/Reporting/Release Notes.txt": "1.2: fixes",
            "Assets/Reporting/Scripts/MatchReport.cs": sdk.replace("PlayGamesPlatform", "MatchReport"),
            "Assets/Game/MatchSetup.cs": game,
            "Packages/com.studio.match/package.json": '{"name": "com.studio.match"}',
        },
    )
    ws = workspace(root)
    hits = [h.path for h in ws.search("start a solo game match with more rounds when I play", limit=5)]
    assert hits[0] == "Assets/Game/MatchSetup.cs"
    named = [h.path for h in ws.search("google match rounds", limit=5)]
    assert named[0] == "Assets/GooglePlayGames/com.google.play.games/Runtime/PlayGamesPlatform.cs"
    assert vendored_folders(
        [
            "Assets/GooglePlayGames/com.google.play.games/package.json",
            "Assets/Reporting/Release Notes.txt.meta",
            "Assets/Kit/CHANGELOG.md",
            "Assets/Net/THIRD PARTY NOTICE.md",
            "Assets/Json/Third-Party-Notices.txt.meta",
            "Assets/package.json",  # the top folder is the project's
            "Packages/com.studio.match/package.json",  # an embedded package: the project's own
            "Assets/Game/Changelog.cs",  # scripts, not notes
            "Assets/Licensing/License.cs",
        ]
    ) == {
        "Assets/GooglePlayGames/com.google.play.games/",
        "Assets/Reporting/",
        "Assets/Kit/",
        "Assets/Net/",
        "Assets/Json/",
    }
    assert not names_package("com.google.play.games", frozenset({"game", "play", "solo"}))
    assert names_package("com.google.play.games", frozenset({"googl"}))


def _physics_material(name: str, fields: str) -> str:
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!62 &6200000\nPhysicsMaterial2D:\n"
        f"  m_ObjectHideFlags: 0\n  m_Name: {name}\n{fields}"
    )


def test_a_small_data_asset_with_the_field_a_task_names_holds_the_setting(tmp_path: Path) -> None:
    """ "Which asset sets up the bounciness": the physics material with a `bounciness` field is the
    answer, above the script that says "ball" and "paddle", and scores twice what it does when the
    task does not ask where something is set; an asset of 40 more fields is not raised."""
    ball = (
        "public class Ball : MonoBehaviour"
        " { void OnCollisionEnter2D(Collision2D c) { HitPaddle(); } void HitPaddle() {} }"
    )
    many = "".join(f"  value{i}: {i}\n" for i in range(40))
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/Ball.cs": ball,
            "Assets/Physics/BallMaterial.physicsMaterial2D": _physics_material(
                "BallMaterial", "  friction: 0\n  bounciness: 1\n"
            ),
            "Assets/Physics/BallTuning.physicsMaterial2D": _physics_material(
                "BallTuning", "  bounciness: 0.5\n" + many
            ),
        },
    )
    ws = workspace(root)

    def scores(query: str) -> dict[str, float]:
        return {h.path.rsplit("/", 1)[1]: h.score for h in ws.search(query, limit=3)}

    asked = scores("which asset sets up the bounciness of the ball off a paddle?")
    plain = scores("which thing makes up the bounciness of the ball off a paddle?")
    assert list(asked) == ["BallMaterial.physicsMaterial2D", "Ball.cs", "BallTuning.physicsMaterial2D"]
    assert list(plain) == ["Ball.cs", "BallMaterial.physicsMaterial2D", "BallTuning.physicsMaterial2D"]
    assert 1.8 < asked["BallMaterial.physicsMaterial2D"] / plain["BallMaterial.physicsMaterial2D"] < 2.2
    assert 0.8 < asked["BallTuning.physicsMaterial2D"] / plain["BallTuning.physicsMaterial2D"] < 1.2


SOUND_CLIP = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_Script: {fileID: 11500000, guid: 5fc1a2b3c4d5e6f708192a3b4c5d6e7f, type: 3}
  m_Name: Paddle Knock
  defaultVolume: 0.05
  defaultPitch: 1
"""


def test_a_scriptable_object_holding_a_field_a_synonym_names_holds_the_setting(tmp_path: Path) -> None:
    """ "Where is the loudness of the paddle knock set": the sound's ScriptableObject has no word
    "loudness" but a `defaultVolume` (its synonym): it scores twice what it does when the task does
    not ask where something is set; naming no field, the task raises nothing."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Audio/Paddle Knock.asset": SOUND_CLIP,
            "Assets/Scripts/SoundClip.cs": (
                "public class SoundClip : ScriptableObject { public float defaultVolume; public float defaultPitch; }"
            ),
            "Assets/Scripts/SoundClip.cs.meta": meta("5fc1a2b3c4d5e6f708192a3b4c5d6e7f"),
            "Assets/Scripts/Paddle.cs": (
                "public class Paddle : MonoBehaviour"
                " { public SoundClip knock; void OnHit() { PlayKnock(); } void PlayKnock() {} }"
            ),
        },
    )
    ws = workspace(root)

    def score(query: str) -> float:
        return next(h.score for h in ws.search(query, limit=3) if h.path == "Assets/Audio/Paddle Knock.asset")

    loud = score("where is the loudness of the paddle knock set") / score(
        "where is the loudness of the paddle knock made"
    )
    assert 1.8 < loud < 2.2
    # (not "the paddle knock": a data asset the task names word for word leads a value question,
    # rank.VALUE_TITLED, whatever its fields)
    assert score("where is the knock of the paddle set") == score("where is the knock of the paddle made")


def test_the_same_answer_in_every_process_with_nested_third_party_folders(tmp_path: Path) -> None:
    """A networking kit bundling a pooling library, each with its license: which of the two a file
    ships in was the first of a set to match, whose order changes from process to process, so
    "pool" named the library (ranked at full weight) in some runs and not in others."""
    pool = "public class ObjectPool { public void ReturnToPool(GameObject o) {} public int poolSize; }"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/NetKit/LICENSE.md": "MIT",
            "Assets/NetKit/Bundled/Pooling/LICENSE.md": "MIT",
            "Assets/NetKit/Bundled/Pooling/ObjectPool.cs": pool,
            "Assets/Game/Stamina.cs": "public class Stamina { public float maxPool; public void Recover() {} }",
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    outputs = set()
    for seed in range(6):
        r = run_cli(
            "query",
            "recover the stamina pool faster",
            "--project",
            str(root),
            "--json",
            env={"PYTHONHASHSEED": str(seed)},
        )
        assert r.returncode == 0, r.stderr
        outputs.add(r.stdout)
    assert len(outputs) == 1
    hits = [h["path"] for h in json.loads(outputs.pop())["results"]]
    assert hits[:2] == ["Assets/Game/Stamina.cs", "Assets/NetKit/Bundled/Pooling/ObjectPool.cs"]


def test_a_package_the_task_names_is_what_the_task_is_about(tmp_path: Path) -> None:
    """ "the developer console" names `Addons/UnityConsole/` (a drop-in with its own license): its
    code is the answer, not a library to rank below the game's own console-ish code."""
    console = "public class ConsoleCommands { public void RegisterCommand(string name) {} }"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Addons/UnityConsole/LICENSE.txt": "MIT",
            "Assets/Addons/UnityConsole/ConsoleCommands.cs": console,
            "Assets/Game/CommandRegistry.cs": (
                "public class CommandRegistry {"
                " public void RegisterCommand(string name) {} void RunConsoleCommand() {} }"
            ),
        },
    )
    named = workspace(root).search("where are the developer console commands registered", limit=5)
    assert named[0].path == "Assets/Addons/UnityConsole/ConsoleCommands.cs"
    unnamed = workspace(root).search("where are commands registered", limit=5)
    assert unnamed[0].path == "Assets/Game/CommandRegistry.cs"
    folders = frozenset({"Assets/Addons/UnityConsole/"})
    assert vendor_package("Assets/Addons/UnityConsole/ConsoleCommands.cs", folders) == "UnityConsole"
    assert vendor_package("Assets/Plugins/UniRx/Scripts/Scan.cs", folders) == "UniRx"
    assert vendor_package("Assets/Standard Assets/Environment/Water/Water.cs", folders) == "Environment"
    assert vendor_package("Assets/TextMesh Pro/Shaders/TMP_SDF.shader", folders) == "Shaders"
    assert vendor_package("Assets/Plugins/x.cs", folders) == ""
    # a package's sample the Package Manager imported, by the sample's name; not a folder of the
    # project's own named Samples
    sample = "Assets/Samples/XR Interaction Toolkit/3.1.2/XR Device Simulator/Scripts/SimulatorUI.cs"
    assert vendor_package(sample, folders) == "XR Device Simulator"
    assert vendor_package("Assets/Samples/Input System/1.7.0-pre.1/Rebinding UI/Rebind.cs", folders) == "Rebinding UI"
    assert vendor_package("Assets/Samples/Touch/TouchSample.cs", folders) is None
    # nested drops: the outermost, whatever order the folders come in (a set's is per process)
    nested = ("Assets/Kit/Bundled/Pooling/", "Assets/Kit/")
    for order in (nested, nested[::-1]):
        assert vendor_package("Assets/Kit/Bundled/Pooling/ObjectPool.cs", order) == "Kit"
    assert vendor_package("Assets/Game/x.cs", folders) is None
    assert names_package("UnityConsole", frozenset({"consol"})) and not names_package(
        "UnityConsole", frozenset({"unity"})
    )


def test_a_package_sample_imported_into_the_project_ranks_below_its_own_code(tmp_path: Path) -> None:
    """The Package Manager imports a package's samples into `Assets/Samples/<package>/<version>/`:
    a toolkit's demo code, which shares every word of the project's own interactions."""
    grab = "public class {0} : MonoBehaviour {{ public void OnGrab() {{}} void SnapToHand() {{}} {1} }}"
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Samples/XR Toolkit/3.1.2/Starter Assets/Scripts/GrabSnapDemo.cs": grab.format(
                "GrabSnapDemo", "// grabbed objects snap to the hand"
            ),
            "Assets/Examples/Props/GrabSnapper.cs": grab.format("GrabSnapper", ""),
        },
    )
    order = [h.path for h in workspace(root).search("grabbed objects snap to the hand", limit=2)]
    assert order == [
        "Assets/Examples/Props/GrabSnapper.cs",
        "Assets/Samples/XR Toolkit/3.1.2/Starter Assets/Scripts/GrabSnapDemo.cs",
    ]


def test_pathological_queries(tmp_path: Path) -> None:
    ws = workspace(write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha { void Run() {} }"}))
    assert ws.search("the and of to", limit=5) == []
    assert ws.search("Ω ☃ !!! ---", limit=5) == []
    assert [h.path for h in ws.search("run " * 3000, limit=5)] == ["Assets/A.cs"]
    assert [h.path for h in ws.search("m_run_speed Alpha", limit=5)] == ["Assets/A.cs"]


def test_a_verb_meets_the_name_of_what_does_it(tmp_path: Path) -> None:
    """ "make the moving scan line thicker": the `Scanner` draws it, though other code says "line"
    and "moving" more often."""
    scanner = """public class Scanner : MonoBehaviour
{
    public LineRenderer line;
    public float width = 0.05f;
    void Update() { Move(); line.SetWidth(width); }
    void Move() {}
}"""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Game/Scanner.cs": scanner,
            "Assets/World/MovingPlatform.cs": "public class MovingPlatform { public bool moving; void Move() {} }",
            "Assets/UI/LineDrawer.cs": "public class LineDrawer { public float lineWidth; public void DrawLine() {} }",
        },
    )
    assert workspace(root).search("make the moving scan line thicker", limit=3)[0].path == "Assets/Game/Scanner.cs"


def test_a_long_lived_workspace_names_hits_from_the_current_generation(tmp_path: Path) -> None:
    """Decoded outlines are kept per index generation: after an update the same workspace names
    the hit by its new declarations."""
    root = write_project(tmp_path / "p", {"Assets/Aim.cs": "class Aim { void AimAtTarget() {} }"})
    update(root, Config())
    ws = open_workspace(root, [(root, Config())])
    assert [(h.name, h.line) for h in ws.search("aim at target", limit=1)] == [("Aim.AimAtTarget", 1)]
    (root / "Assets/Aim.cs").write_text("class Aim\n{\n    void Idle() {}\n    void AimAtTarget() {}\n}\n")
    update(root, Config())
    assert [(h.name, h.line) for h in ws.search("aim at target", limit=1)] == [("Aim.AimAtTarget", 4)]


def test_tests_rank_down_only_where_they_are_a_minority_of_the_projects_scripts(tmp_path: Path) -> None:
    """docs/retrieval.md: tests at 0.7x unless the task is about tests or tests are a quarter or
    more of the project's own scripts under Assets/ (a package repository: its tests are the work)."""
    from indexer.query.file_roles import role_priors

    test = "using NUnit.Framework;\npublic class ShieldChecks\n{\n    [Test] public void ShieldAbsorbsDamage() { }\n}\n"
    shield = "public class Shield\n{\n    public int Absorb(int damage) { return damage / 2; }\n}\n"
    files = {"Assets/Scripts/Shield.cs": shield, "Assets/Tests/ShieldChecks.cs": test}
    doors = {f"Assets/Scripts/Door{i}.cs": f"public class Door{i} {{ public void Open() {{ }} }}\n" for i in range(8)}
    game = workspace(write_project(tmp_path / "Game", files | doors))  # 1 test in 10 scripts
    package = workspace(write_project(tmp_path / "Package", files))  # 1 in 2
    kinds = dict.fromkeys(files, "csharp")
    terms = ["shield", "absorbs", "damage"]
    assert role_priors(game.projects[0], kinds, terms, terms) == {"Assets/Tests/ShieldChecks.cs": 0.7}
    assert role_priors(game.projects[0], kinds, [*terms, "tests"], terms) == {}
    assert role_priors(package.projects[0], kinds, terms, terms) == {}
    assert [h.path for h in game.search("shield absorbs damage", limit=2)] == list(files)
    assert [h.path for h in package.search("shield absorbs damage", limit=2)] == list(files)[::-1]


def test_a_test_assemblys_scripts_count_as_tests_without_nunit_attributes(tmp_path: Path) -> None:
    """docs/retrieval.md: a test assembly's scripts are tests (helpers, fixtures without `[Test]`),
    for the test prior and for the share of tests that gates it."""
    from indexer.query.file_roles import role_priors

    asmdef = '{ "name": "Game.Tests", "references": ["UnityEngine.TestRunner"] }\n'
    helpers = {
        f"Assets/Tests/Helper{i}.cs": f"public class Helper{i} {{ public void Shield() {{ }} }}\n" for i in range(3)
    }
    tests = {"Assets/Tests/Game.Tests.asmdef": asmdef, **helpers}
    shield = {"Assets/Scripts/Shield.cs": "public class Shield { public void Absorb() { } }\n"}
    doors = {f"Assets/Scripts/Door{i}.cs": f"public class Door{i} {{ public void Open() {{ }} }}\n" for i in range(20)}
    kinds = dict.fromkeys([*helpers, *shield], "csharp")
    terms = ["shield"]
    mostly_tests = workspace(write_project(tmp_path / "Package", tests | shield))  # 3 tests in 4 scripts
    assert role_priors(mostly_tests.projects[0], kinds, terms, terms) == {}
    game = workspace(write_project(tmp_path / "Game", tests | shield | doors))  # 3 in 24
    assert role_priors(game.projects[0], kinds, terms, terms) == dict.fromkeys(helpers, 0.7)


def test_what_the_ranking_learned_of_a_project_is_dropped_with_its_index_generation(tmp_path: Path) -> None:
    """ProjectIndex.remember(role=True) keeps what a file is (and the project's share of tests) per generation:
    a long-lived workspace (the MCP server) ranks by the new facts after an update."""
    test = "using NUnit.Framework;\npublic class ShieldChecks\n{\n    [Test] public void ShieldAbsorbsDamage() { }\n}\n"
    shield = "public class Shield\n{\n    public int Absorb(int damage) { return damage / 2; }\n}\n"
    files = {"Assets/Scripts/Shield.cs": shield, "Assets/Tests/ShieldChecks.cs": test}
    root = write_project(tmp_path / "P", files)  # half of its scripts are tests
    ws = workspace(root)
    assert [h.path for h in ws.search("shield absorbs damage", limit=2)] == list(files)[::-1]
    for i in range(8):  # now a tenth
        (root / f"Assets/Scripts/Door{i}.cs").write_text(f"public class Door{i} {{ public void Open() {{ }} }}\n")
    update(root, Config(workers=1))
    assert [h.path for h in ws.search("shield absorbs damage", limit=2)] == list(files)


def test_files_the_walk_reaches_too_weakly_to_be_shown_are_left_out_with_the_same_answers(
    tmp_path: Path, monkeypatch
) -> None:
    """rank._out_of_reach: a seed using 40 files reaches them all with a small gain; their stats
    and roles are not read, and every answer is what keeping them all gives, also where some of
    them outrank weak text matches (`Ledger*.cs`) or tests once lowered (`Z*Tests.cs`). `Widget.cs`
    and `Z*.cs`, reached as weakly, are kept: they are what `WidgetTests.cs` and `Z*Tests.cs` test,
    which must stay below them."""
    from indexer.query import rank as ranking
    from indexer.query.priors import PRIOR_CEILING

    subjects = ["Widget", "Zap", "Zip", "Zoo"]
    models = {f"Assets/Scripts/Core/Model{i}.cs": f"public class Model{i} {{ }}\n" for i in range(40)}
    models |= {f"Assets/Scripts/Core/{name}.cs": f"public class {name} {{ }}\n" for name in subjects}
    fields = " ".join(f"{name} {name.lower()};" for name in [*(f"Model{i}" for i in range(40)), *subjects])
    shops = {f"Assets/Scripts/Shop{j}.cs": f"class Shop{j} {{ {fields} void ShopPrice() {{ }} }}" for j in range(12)}
    filler = " ".join(f"int a{i};" for i in range(300))
    ledgers = {f"Assets/Scripts/Ledger{k}.cs": f"public class Ledger{k} {{ // shop\n{filler} }}\n" for k in range(10)}
    tests = {  # WidgetTests among the seeds; the others below the shops, above the ledgers
        f"Assets/Tests/{name}Tests.cs": "using NUnit.Framework;\n"
        f"public class {name}Tests {{ [Test] public void ShopPriceDiscount() {{ var x = new {name}(); }}\n"
        + ("" if name == "Widget" else filler)
        + "}\n"
        for name in subjects
    }
    ws = workspace(write_project(tmp_path / "P", models | shops | ledgers | tests))
    left_out: list[set[str]] = []
    keep_out = ranking._out_of_reach
    monkeypatch.setattr(ranking, "_out_of_reach", lambda *a: left_out.append(keep_out(*a)) or left_out[-1])
    asks = [("shop price discount", 10, True), ("shop price discount", 10, False), ("shop price", 20, True)]
    asks += [("shop price", 16, True), ("shop price", 16, False)]  # models shown above ledgers
    asks += [("shop price discount", 15, True)]  # a model shown above the Z*Tests, once lowered
    answers = [ws.search(q, limit=n, named=named) for q, n, named in asks]
    assert {p for p in models if "/Model" in p} <= left_out[0]
    assert not {f"Assets/Scripts/Core/{name}.cs" for name in subjects} & left_out[0]
    monkeypatch.setattr(ranking, "_out_of_reach", lambda *a: set())
    fresh = workspace(tmp_path / "P")
    assert [fresh.search(q, limit=n, named=named) for q, n, named in asks] == answers
    project = fresh.projects[0]
    kinds = {p: "csharp" for p in (*models, *shops, *ledgers, *tests)} | {"Assets/Prefabs/X.prefab": "prefab"}
    for terms in (["shop"], ["prefab", "shop"], ["tests"], ["shader", "prefab", "scene", "editor"]):
        assert max(ranking.role_priors(project, kinds, terms, terms).values(), default=1.0) <= PRIOR_CEILING


def test_a_files_stored_kind_is_the_one_its_path_gives(tmp_path: Path, monkeypatch) -> None:
    """project.kind_test reads the kind of a file from its path (an unreadable folder aside): so the
    chain of a kind-naming task (the turret's prefab, its material, the material's shader) reads
    no stat of a file its path says is of another kind, with the answers of reading them all."""
    from indexer.project import kind_of
    from indexer.query import walk as walking

    mat, shader = "1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b", "2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c"
    renderer = (
        "--- !u!23 &2300\nMeshRenderer:\n  m_GameObject: {fileID: 100}\n"
        f"  m_Materials:\n  - {{fileID: 2100000, guid: {mat}, type: 2}}\n"
    )
    files = {
        "Assets/Scripts/Turret.cs": TURRET,
        "Assets/Scripts/Turret.cs.meta": meta("7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a"),
        "Assets/Prefabs/TurretTower.prefab": TOWER.replace("m_Name: Tower", "m_Name: TurretTower") + renderer,
        "Assets/Art/Tower.mat": "%YAML 1.1\n--- !u!21 &2100000\nMaterial:\n  m_Name: Tower\n"
        f"  m_Shader: {{fileID: 4800000, guid: {shader}, type: 3}}\n",
        "Assets/Art/Tower.mat.meta": meta(mat, "NativeFormatImporter"),
        "Assets/Art/Tower.shader": 'Shader "Game/Tower" { SubShader { Pass { } } }\n',
        "Assets/Art/Tower.shader.meta": meta(shader, "ShaderImporter"),
        "Assets/Notes.txt": "the tower",
        "ProjectSettings/TagManager.asset": "%YAML 1.1\n--- !u!78 &1\nTagManager:\n  tags: []\n",
    }
    ws = workspace(write_project(tmp_path / "P", files))
    stats = ws.projects[0].records.stats()
    assert set(files) <= set(stats) and all(s.kind == kind_of(p) for p, s in stats.items())
    asks = ["which prefab, material and shader aim the turret"]
    answers = [ws.search(q, limit=10) for q in asks]
    assert "Assets/Art/Tower.shader" in [h.path for h in answers[0]]  # through the chain alone
    monkeypatch.setattr(walking, "kind_test", lambda kinds: lambda path: True)
    assert [workspace(tmp_path / "P").search(q, limit=10) for q in asks] == answers


GOAL_SCRIPT_GUID = "6b0c1d2e3f405162738495a6b7c8d9e0"
TEXT_SCRIPT_GUID = "f0e1d2c3b4a5968778695a4b3c2d1e0f"  # a library's component: its script is not in the project
FANCY_SCRIPT_GUID = "1f2e3d4c5b6a79880716253443526170"  # a third-party script in the project (Plugins/)
BRUTE_SCRIPT_GUID = "2a3b4c5d6e7f80910a1b2c3d4e5f6071"  # a script whose base class declares the field
SPAWNER_SCRIPT_GUID = "3c4d5e6f708192a3b4c5d6e7f8091a2b"  # a script holding a [Serializable] class's values
BOSS_SPAWNER_SCRIPT_GUID = "4d5e6f708192a3b4c5d6e7f8091a2b3c"  # its base holds the [Serializable] class


LONG_GOAL_GUID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"


def _carrying(script_guid: str, name: str, fields: str) -> str:
    """A prefab named `name` whose one component is the script of this GUID, serializing `fields`."""
    return (
        TOWER.replace("7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a", script_guid)
        .replace("Tower", name)
        .replace("range: 20", fields)
    )


def _goal(name: str, target: int) -> str:
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n"
        f"  m_ObjectHideFlags: 0\n  m_Script: {{fileID: 11500000, guid: {GOAL_SCRIPT_GUID}, type: 3}}\n"
        f"  m_Name: {name}\n  targetScore: {target}\n  rounds: 3\n"
        f"  followedBy: {{fileID: 11400000, guid: {LONG_GOAL_GUID}, type: 2}}\n"
    )


def test_the_file_holding_a_value_the_task_says_in_a_field_it_names_is_where_it_is_set(tmp_path: Path) -> None:
    """ "A match ends when someone reaches 5 points": the goal asset whose `targetScore` (a field its
    project script declares, named by a synonym of "points") is 5 is where that is set, and says so;
    the one holding 7 is not raised, nor a library component's field of the same name holding 5
    (a package's script, or a plugin's in the project),
    nor anything when the task says only 0 or 1. A field of a `[Serializable]` class a prefab's
    script holds counts (`waves: - enemyCount: 6`). In a script, a field declared with the value. The
    hit points at the field; an asset's snippet names the file a GUID stands for."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/ScoreGoal.cs": (
                "public class ScoreGoal : ScriptableObject { public int targetScore; public int rounds; }"
            ),
            "Assets/Scripts/ScoreGoal.cs.meta": meta(GOAL_SCRIPT_GUID),
            "Assets/Scripts/Scoreboard.cs": (
                "public class Scoreboard : MonoBehaviour { const int maxScoreDigits = 5; ScoreGoal goal;"
                " enum Score { Low = 5 } void Show() { int shownScore = 0; shownScore = 5; } }"
            ),
            "Assets/Scripts/Character.cs": "public class Character : MonoBehaviour { public int maxHealth; }",
            "Assets/Scripts/Brute.cs": "public class Brute : Character { }",
            "Assets/Scripts/Brute.cs.meta": meta(BRUTE_SCRIPT_GUID),
            "Assets/Prefabs/Brute.prefab": _carrying(BRUTE_SCRIPT_GUID, "Brute", "maxHealth: 5"),
            "Assets/Scripts/Wave.cs": "[System.Serializable] public class Wave { public int enemyCount; }",
            "Assets/Scripts/WaveSpawner.cs": "public class WaveSpawner : MonoBehaviour { public Wave[] waves; }",
            "Assets/Scripts/WaveSpawner.cs.meta": meta(SPAWNER_SCRIPT_GUID),
            "Assets/Prefabs/Spawner.prefab": _carrying(
                SPAWNER_SCRIPT_GUID, "Spawner", "waves:\n  - enemyCount: 2\n  - enemyCount: 6"
            ),
            "Assets/Scripts/BossSpawner.cs": "public class BossSpawner : WaveSpawner { }",
            "Assets/Scripts/BossSpawner.cs.meta": meta(BOSS_SPAWNER_SCRIPT_GUID),
            "Assets/Prefabs/Boss Spawner.prefab": _carrying(
                BOSS_SPAWNER_SCRIPT_GUID, "Boss Spawner", "waves:\n  - enemyCount: 9"
            ),
            "Assets/Data/Quick Match Goal.asset": _goal("Quick Match Goal", 5),
            "Assets/Data/Long Match Goal.asset": _goal("Long Match Goal", 7),
            "Assets/Data/Long Match Goal.asset.meta": meta(LONG_GOAL_GUID),
            "Assets/Plugins/TextKit/FancyScore.cs": (
                "public class FancyScore : MonoBehaviour { public int targetScore; }"
            ),
            "Assets/Plugins/TextKit/FancyScore.cs.meta": meta(FANCY_SCRIPT_GUID),
            "Assets/UI/Fancy Score.prefab": _carrying(FANCY_SCRIPT_GUID, "Fancy Score", "targetScore: 5"),
            "Assets/UI/Score Label.prefab": _carrying(TEXT_SCRIPT_GUID, "Score Label", "targetScore: 5"),
        },
    )
    ws = workspace(root)

    def reasons(query: str) -> dict[str, list[str]]:
        return {
            h.path.rsplit("/", 1)[1]: [r for r in h.reason.split("; ") if r.startswith("holds ")]
            for h in ws.search(query, limit=10)
        }

    said = reasons("a match ends as soon as someone reaches 5 points, where do I make it 11?")
    assert said["Quick Match Goal.asset"] == ["holds targetScore: 5"]
    assert said["Long Match Goal.asset"] == []
    assert said["Score Label.prefab"] == []
    assert said["Fancy Score.prefab"] == []  # its field is the plugin's, not the project's
    assert said["Scoreboard.cs"] == ["holds int maxScoreDigits = 5"]  # (its `;` dropped since session 34: `5;;`)
    assert reasons("the brute has 5 max health, make it 8")["Brute.prefab"] == ["holds maxHealth: 5"]  # a base's field
    # a field of a [Serializable] class the prefab's script holds
    assert reasons("the spawner sends 6 enemies in a wave")["Spawner.prefab"] == ["holds enemyCount: 6"]
    # ... or its base class holds
    assert reasons("the boss spawner sends 9 enemies in a wave")["Boss Spawner.prefab"] == ["holds enemyCount: 9"]
    order = [h.path.rsplit("/", 1)[1] for h in ws.search("a match ends when someone reaches five points", limit=10)]
    assert order.index("Quick Match Goal.asset") < order.index("Long Match Goal.asset")
    assert all(not r for r in reasons("a match ends when someone reaches 1 point, or 0").values())
    assert reasons("a match ends when someone reaches 3 points")["Quick Match Goal.asset"] == []  # `rounds: 3`
    quick = {h.path.rsplit("/", 1)[1]: h for h in ws.search("someone reaches 5 points to win", limit=10)}
    goal = quick["Quick Match Goal.asset"]
    assert (goal.name, goal.line, goal.snippet) == ("Quick Match Goal.targetScore", 8, "targetScore: 5")
    assert quick["Scoreboard.cs"].snippet == "int maxScoreDigits = 5;"
    followed = next(h for h in ws.search("followedBy", limit=5) if h.path.endswith("Quick Match Goal.asset"))
    pack = build_context(ws, "a match ends as soon as someone reaches 5 points", 2000, counter())
    entry = next(f for f in pack.tier2.files if f.path.endswith("Quick Match Goal.asset"))
    assert entry.reason.endswith("; holds targetScore: 5 at L8")
    assert f"### {entry.path}  (asset; {entry.reason})" in pack.tier2.text
    assert (followed.name, followed.snippet) == (
        "Quick Match Goal.followedBy",
        "followedBy: Assets/Data/Long Match Goal.asset",
    )


def test_the_numbers_a_task_says_are_its_digits_and_number_words_but_zero_and_one() -> None:
    from indexer.query.values import said_numbers

    assert said_numbers("five boards, 3 laps of 0.5 s, 1 ball, 0 lives, a 12-lap race, case 1364017, v2.1") == {
        5.0,
        3.0,
        0.5,
        12.0,
        1364017.0,
    }
    assert said_numbers("one or none") == frozenset()
    assert said_numbers("until someone reaches 5. Then 2,000 coins, -3 gravity, levels 1-3") == {5.0, 2000.0, -3.0, 3.0}


def test_the_fields_holding_a_said_value_are_numbered_by_line_and_kept_to_a_bound() -> None:
    """Each field once, at its first line, counted once through the text: a scene of thousands of
    Unity's own `m_Speed: 3.5` still shows the project's `moveSpeed: 3.5` after them (kept one by
    one, they filled the bound); at most MAX_HELD distinct fields; a number cut by the end of what
    is read is not read."""
    from indexer.identifiers import stem
    from indexer.query.texts import FileText
    from indexer.query.values import MAX_HELD, READ_CHARS, Held, fields_holding

    speed = {stem("speed")}  # the stems of the task's words, as ranking gives them
    agents = "".join(f"--- !u!195 &{i}\nNavMeshAgent:\n  m_Speed: 3.5\n" for i in range(3000))
    yaml = agents + "--- !u!114 &9\nMonoBehaviour:\n  moveSpeed: 3.5\n"
    held = fields_holding(FileText(yaml.encode(), None), False, frozenset({3.5}), speed)
    assert held == (Held("m_Speed", 3, "m_Speed: 3.5"), Held("moveSpeed", 9003, "moveSpeed: 3.5"))
    many = "".join(f"  speed{i}: 2\n" for i in range(MAX_HELD + 10))
    assert len(fields_holding(FileText(many.encode(), None), False, frozenset({2.0}), speed)) == MAX_HELD
    cut = "#" * (READ_CHARS - 12) + "\n  speed: 512345\n"
    assert fields_holding(FileText(cut.encode(), None), False, frozenset({5123.0, 512345.0}), speed) == ()
    code = "class Mover {\n    const float walkSpeed = 2f;\n    enum Speed { Slow = 2 }\n    float runSpeed = 4;\n}\n"
    assert fields_holding(FileText(code.encode(), None), True, frozenset({2.0, 4.0}), speed) == (
        Held("walkSpeed", 2, "float walkSpeed = 2f;"),
        Held("runSpeed", 4, "float runSpeed = 4;"),
    )


def test_a_said_value_is_looked_for_in_the_best_files_only(tmp_path: Path) -> None:
    """Of the files ranked so far, the VALUE_FILES best are read for the value (each is a read of
    up to a megabyte): a goal asset past them is not raised, the same asset among them is."""
    from indexer.model import Ranked
    from indexer.query.values import VALUE_FILES, raise_held

    scripts = {f"Assets/Scripts/S{i}.cs": f"public class S{i} {{ }}" for i in range(VALUE_FILES)}
    root = write_project(
        tmp_path / "P",
        {
            **scripts,
            "Assets/Scripts/ScoreGoal.cs": "public class ScoreGoal : ScriptableObject { public int targetScore; }",
            "Assets/Scripts/ScoreGoal.cs.meta": meta(GOAL_SCRIPT_GUID),
            "Assets/Data/Goal.asset": _goal("Goal", 5),
        },
    )
    project = workspace(root).projects[0]
    kinds = {p: "csharp" for p in scripts} | {"Assets/Data/Goal.asset": "asset"}

    def raised(goal_score: float) -> dict:
        ranked = {p: Ranked(p, 10.0 + i, []) for i, p in enumerate(scripts)}
        ranked["Assets/Data/Goal.asset"] = Ranked("Assets/Data/Goal.asset", goal_score, [])
        return raise_held(project, ranked, frozenset({5.0}), kinds, ["score"], ())

    assert raised(1.0) == {}  # the 17th of 17
    assert list(raised(100.0)) == ["Assets/Data/Goal.asset"]


def _object(i: int, name: str, script_guid: str | None = None, field: str = "") -> str:
    """A GameObject of a scene, with a MonoBehaviour of `script_guid` holding `field` when given."""
    comps = f"  - component: {{fileID: {i}4}}\n" + (f"  - component: {{fileID: {i}5}}\n" if script_guid else "")
    out = (
        f"--- !u!1 &{i}1\nGameObject:\n  m_Component:\n{comps}  m_Name: {name}\n  m_IsActive: 1\n"
        f"--- !u!4 &{i}4\nTransform:\n  m_GameObject: {{fileID: {i}1}}\n  m_Children: []\n  m_Father: {{fileID: 0}}\n"
    )
    if script_guid:
        out += (
            f"--- !u!114 &{i}5\nMonoBehaviour:\n  m_GameObject: {{fileID: {i}1}}\n  m_Enabled: 1\n"
            f"  m_Script: {{fileID: 11500000, guid: {script_guid}, type: 3}}\n  m_Name:\n{field}"
        )
    return out


def test_a_packs_scene_outline_shows_the_object_holding_the_said_value(tmp_path: Path) -> None:
    """ "Loot drops at 22 per cent chance": the scene's `spawnOdds: 22` (named through the synonym
    "odds") is on an object that names none of the task's own words; the pack's compact outline
    of the scene, too long to show whole, still shows that object among those it keeps."""
    dropper = "6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c6c"
    objects = [_object(i, f"{i} Rock") for i in range(1, 80)]  # not copies: no fold
    objects.insert(40, _object(90, "Misc", dropper, "  spawnOdds: 22\n"))
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scripts/Dropper.cs": "public class Dropper : MonoBehaviour { public int spawnOdds; }",
            "Assets/Scripts/Dropper.cs.meta": meta(dropper),
            "Assets/Scenes/Level.unity": "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n" + "".join(objects),
        },
    )
    ws = workspace(root)
    pack = build_context(ws, "loot drops at 22 per cent chance in the level, where is that set", 1200, counter())
    scene = pack.tier2.text.split("### Assets/Scenes/Level.unity", 1)[1].split("\n### ", 1)[0]
    # no "set" of "Assets/", no bare number (since session 34)
    assert scene.startswith("  (scene; matched: level; holds spawnOdds: 22 at L461)\n")
    assert "\nMisc  L" in scene and "spawnOdds: 22" in scene.split("\nMisc  L", 1)[1]
    assert "more objects" in scene  # the compact form, not the whole outline


BREAKABLE = """using UnityEngine;
public class Breakable : MonoBehaviour
{
    public string colliderTag = "Destroyer";
    public GameObject brokenVersion;
    void OnCollisionEnter(Collision other) { if (other.gameObject.CompareTag(colliderTag)) Destroy(gameObject); }
}
"""


def test_the_one_script_a_best_prefab_carries_ranks_right_after_it(tmp_path: Path) -> None:
    """A prefab among the three best whose one project script few prefabs carry does what that
    script says: `Breakable.cs` (no word of the task) ranks at least 0.8 of the piggy bank's score
    times its own prior, reached from it. A prefab carrying two scripts, or a script on four
    prefabs, pairs with none."""
    breakable, lamp = "b" * 32, "c" * 32
    files = {
        "Assets/Scripts/Breakable.cs": BREAKABLE,
        "Assets/Scripts/Breakable.cs.meta": meta(breakable),
        "Assets/Prefabs/PiggyBank.prefab": _carrying(breakable, "PiggyBank", "colliderTag: Destroyer"),
        "Assets/Scripts/Flicker.cs": "using UnityEngine; public class Flicker : MonoBehaviour { public float rate; }",
        "Assets/Scripts/Flicker.cs.meta": meta(lamp),
        "Assets/Scripts/Noise.cs": "public class Noise { public void Shatter(int piggy) {} }",
    }
    files |= {f"Assets/Prefabs/Lamp{i}.prefab": _carrying(lamp, f"Lamp{i}", "rate: 2") for i in range(4)}
    second = _carrying(lamp, "ToyVase", "rate: 2").split("--- !u!114")[1].replace("&11400", "&11401")
    vase = _carrying(breakable, "ToyVase", "colliderTag: Destroyer").replace(
        "  - component: {fileID: 11400}\n", "  - component: {fileID: 11400}\n  - component: {fileID: 11401}\n"
    )
    files["Assets/Prefabs/ToyVase.prefab"] = vase + "--- !u!114" + second
    ws = workspace(write_project(tmp_path / "P", files))
    hits = ws.search("the piggy bank only shatters when hit", limit=10)
    assert [h.path for h in hits[:2]] == ["Assets/Prefabs/PiggyBank.prefab", "Assets/Scripts/Breakable.cs"]
    assert hits[1].score == pytest.approx(hits[0].score * 0.8, abs=1e-3)
    assert hits[1].reason.endswith("; script on Assets/Prefabs/PiggyBank.prefab")
    for task in ("the lamp at night", "the toy vase on the table"):  # four prefabs; two scripts on one
        hits = ws.search(task, limit=10)
        raised = [h for h in hits if h.path in ("Assets/Scripts/Flicker.cs", "Assets/Scripts/Breakable.cs")]
        assert hits[0].kind == "prefab" and all(h.score < hits[0].score * 0.5 for h in raised)
    # a search of prefabs pairs no script, and walks from it to the other prefab carrying it (session 39)
    prefabs = ws.search("the piggy bank only shatters when hit", limit=10, kind="prefab")
    assert [(h.path, h.reason) for h in prefabs] == [
        ("Assets/Prefabs/PiggyBank.prefab", "text match; carries script Assets/Scripts/Breakable.cs"),
        ("Assets/Prefabs/ToyVase.prefab", "carries script Assets/Scripts/Breakable.cs"),
    ]


def test_a_licensed_folder_holding_a_scene_of_the_build_is_the_projects_own(tmp_path: Path) -> None:
    """A sample licensed as a whole (`Assets/XRI_Examples/LICENSE.md` beside its scenes) is the
    game, not a drop beside it: a folder holding an enabled scene of the build is not third-party;
    a kit with a license deeper inside it still is."""
    build = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1045 &1\nEditorBuildSettings:\n  m_Scenes:\n"
        "  - enabled: 1\n    path: Assets/Examples/Scenes/Main.unity\n    guid: " + "d" * 32 + "\n"
        "  - enabled: 0\n    path: Assets/Other/Old.unity\n    guid: " + "e" * 32 + "\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "ProjectSettings/EditorBuildSettings.asset": build,
            "Assets/Examples/LICENSE.md": "MIT",
            "Assets/Examples/Kit/LICENSE.md": "MIT",
            "Assets/Other/LICENSE.md": "MIT",
            "Assets/Examples/Scripts/Breakable.cs": BREAKABLE,
        },
    )
    assert workspace(root).projects[0].vendored == {"Assets/Examples/Kit/", "Assets/Other/"}
    assert vendored_folders(["Assets/A/LICENSE"], ["Assets/A/S.unity"]) == frozenset()


def _volume(name: str) -> str:
    """A render pipeline's volume profile: one effect whose parameters are overridable values."""
    params = "".join(f"  {p}:\n    m_OverrideState: 1\n    m_Value: 0.5\n" for p in ("intensity", "scatter", "tint"))
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &-85024\nMonoBehaviour:\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {'9' * 32}, type: 3}}\n  m_Name: {name}\n  active: 1\n{params}"
    )


def test_a_volume_profile_is_how_things_look(tmp_path: Path) -> None:
    """A render volume profile (bloom, fog: most fields `{m_OverrideState, m_Value}`) shares the
    words of a room or a screen but holds no behaviour: at ART_PRIOR of its text match unless the
    task is about looks ("bloom", "blurry")."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Settings/VolumeRoomShake.asset": _volume("ScreenShakeRoom"),
            "Assets/Scripts/Notes.cs": "public class Notes { public void Room() {} }",
        },
    )
    ws = workspace(root)
    project = ws.projects[0]
    from indexer.query.file_roles import role_priors
    from indexer.query.priors import ART_PRIOR

    kinds = {"Assets/Settings/VolumeRoomShake.asset": "asset", "Assets/Scripts/Notes.cs": "csharp"}
    for task, prior in (("the screen shake in the room is too violent", ART_PRIOR), ("the room bloom is blurry", 1.0)):
        said = task.split()
        assert role_priors(project, kinds, said, said).get("Assets/Settings/VolumeRoomShake.asset", 1.0) == prior


def test_a_post_processing_stack_profile_and_a_plain_data_asset_are_told_apart() -> None:
    """priors.is_volume_profile: the post-processing stack (v2) writes `{overrideState, value}`;
    a ScriptableObject of plain fields, or one with too few fields to tell, is no profile."""
    from indexer import scanners
    from indexer.query.priors import is_volume_profile

    v2 = _volume("Bloom").replace("m_OverrideState", "overrideState").replace("m_Value", "value")
    plain = _volume("Stats").replace("    m_OverrideState: 1\n    m_Value: 0.5\n", "") + "  speed: 4\n"
    few = _volume("One").split("  scatter:")[0]
    got = [
        is_volume_profile(scanners.scan(f"Assets/{n}.asset", "asset", t.encode()))
        for n, t in (("Urp", _volume("Fog")), ("V2", v2), ("Plain", plain), ("Few", few))
    ]
    assert got == [True, True, False, False]


def test_a_best_prefabs_script_outside_the_searched_folder_is_not_raised(tmp_path: Path) -> None:
    """pairing: a script is raised for its prefab only under the search's path prefix."""
    breakable = "b" * 32
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Code/Breakable.cs": BREAKABLE,
            "Assets/Code/Breakable.cs.meta": meta(breakable),
            "Assets/Props/PiggyBank.prefab": _carrying(breakable, "PiggyBank", "colliderTag: Destroyer"),
            "Assets/Props/Shatter.cs": "public class PiggyShatter { public void Shatter() {} }",
        },
    )
    ws = workspace(root)
    assert "Assets/Code/Breakable.cs" in [h.path for h in ws.search("the piggy bank shatters", limit=5)]
    hits = ws.search("the piggy bank shatters", limit=5, path_prefix="Assets/Props")
    assert hits and all(h.path.startswith("Assets/Props/") for h in hits)


def test_a_profile_whose_settings_hold_blocks_is_still_a_profile() -> None:
    """priors._OVERRIDABLE reads both forms the scanners write: `intensity: 0.4 (overridden)` and,
    for a setting whose value is a block of its own (a curve), its keys `{m_OverrideState, m_Value}`."""
    from indexer.model import FileRecord, Symbol
    from indexer.query.priors import is_volume_profile

    def profile(signatures: list[str]) -> FileRecord:
        return FileRecord(
            path="Assets/V.asset",
            kind="asset",
            symbols=tuple(Symbol("field", f"f{i}", i, signature=s) for i, s in enumerate(signatures)),
        )

    curves = [f"curve{i}: {{m_OverrideState, m_Value}}" for i in range(4)]
    values = ["intensity: 0.4 (overridden)", "mask: None (not overridden)", "speed: 4", "name: Fog"]
    assert [is_volume_profile(profile(curves)), is_volume_profile(profile(values))] == [True, True]
    assert is_volume_profile(profile(["speed: 4", "name: Fog", "hp: 3", "intensity: 0.4 (overridden)"])) is False


def test_the_input_manager_ranks_for_a_key_only_where_code_reads_legacy_input(tmp_path: Path) -> None:
    """`input_axes`: the Input Manager's axes are the keys only of a project reading the legacy
    `Input` class; a project on another input system keeps Unity's default axes there unused."""
    manager = (Path(__file__).parent.parent / "fixtures/DungeonCrawler/ProjectSettings/InputManager.asset").read_text()
    mover = "public class Mover : UnityEngine.MonoBehaviour {{ void Update() {{ if ({}) Jump(); }} void Jump() {{}} }}"
    reasons = {}
    for name, test in (("legacy", 'Input.GetButtonDown("Jump")'), ("other", "Keyboard.current.spaceKey.isPressed")):
        root = write_project(
            tmp_path / name, {"Assets/Mover.cs": mover.format(test), "ProjectSettings/InputManager.asset": manager}
        )
        hits = workspace(root).search("which key makes the mover jump", limit=5)
        reasons[name] = {h.path: h.reason for h in hits}.get("ProjectSettings/InputManager.asset")
    assert reasons == {"legacy": "text match; input axis Jump [positive: space]", "other": "text match"}
    # not without a word asking which key ("press" tells how), nor for an axis named in part
    root = tmp_path / "legacy"
    (root / "ProjectSettings/InputManager.asset").write_text(manager.replace("Jump", "Jump Twice"))
    ws = workspace(root)
    for text in ("which key makes the mover jump", "the mover should jump twice when i press space"):
        assert not any("input axis" in h.reason for h in ws.search(text, limit=5)), text
    assert any("input axis" in h.reason for h in ws.search("which key makes the mover jump twice", limit=5))


def test_a_scene_the_build_leaves_out_ranks_below_one_a_player_gets(tmp_path: Path) -> None:
    """Two trials: a logic simulator's dev scenes, and a game's test scenes, ranked above the one
    scene of its build. A scene the build leaves out (when it lists any) has OFF_BUILD_PRIOR,
    unless the task is about tests."""
    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: {}\n"
        "--- !u!4 &2\nTransform:\n  m_GameObject: {{fileID: 1}}\n  m_Father: {{fileID: 0}}\n"
    )
    build = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1045 &1\nEditorBuildSettings:\n  m_Scenes:\n"
        "  - enabled: 1\n    path: Assets/Scenes/Zoo.unity\n    guid: 2cda990e2423bbf4892e6590ba056729\n"
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Scenes/Zoo.unity": scene.format("Portal Gate"),
            "Assets/Scenes/Arena.unity": scene.format("Portal Gate"),
            "ProjectSettings/EditorBuildSettings.asset": build,
        },
    )
    ws = workspace(root)
    assert [h.path for h in ws.search("the portal gate", limit=2)] == [
        "Assets/Scenes/Zoo.unity",
        "Assets/Scenes/Arena.unity",
    ]
    tests = [h.path for h in ws.search("the portal gate test", limit=2)]
    assert tests == ["Assets/Scenes/Arena.unity", "Assets/Scenes/Zoo.unity"]  # by path, as without the build


def test_a_word_asking_for_a_change_hardly_names_a_hits_member(tmp_path: Path) -> None:
    """A trial: "add a new weapon the player can pick up" named `Player.AddScore` (by "add"), where
    `PickupItem` is what the task is about: such a word counts TASK_WORD_WEIGHT of another in
    choosing the member a hit names; alone, it still names one."""
    player = (
        "public class Player : UnityEngine.MonoBehaviour {\n"
        "  public void AddScore(int n) { }\n"
        "  public void PickupItem(Item item) { }\n"
        "}\n"
    )
    ws = workspace(write_project(tmp_path / "P", {"Assets/Player.cs": player}))
    assert ws.search("add a new weapon the player can pick up", limit=1)[0].name == "Player.PickupItem"
    assert ws.search("add to the score", limit=1)[0].name == "Player.AddScore"


def test_a_kind_of_file_the_task_asks_for_hardly_names_a_file(tmp_path: Path) -> None:
    """A held-out miss: "which asset decides how slippery that strip is" ranked a test's
    `BagelTestAssetList` first by "asset"; said on its own, a kind word counts TASK_WORD_WEIGHT."""
    catalog = "public class SledAssetCatalog : UnityEngine.ScriptableObject {\n  public string[] entries;\n}\n"
    ice = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!134 &13400000\nPhysicMaterial:\n"
        "  m_Name: Ice\n  dynamicFriction: 0.02\n  staticFriction: 0.02\n  bounciness: 0\n"
    )
    files = {"Assets/SledAssetCatalog.cs": catalog, "Assets/Ice.physicMaterial": ice}
    ws = workspace(write_project(tmp_path / "P", files))
    assert [h.path for h in ws.search("which asset makes every sled slide on the ice", limit=2)] == [
        "Assets/Ice.physicMaterial",
        "Assets/SledAssetCatalog.cs",
    ]


def test_a_search_for_a_kind_no_document_holds_finds_its_files_by_name(tmp_path: Path) -> None:
    """A trial: `query footstep --kind audio` and `query door --kind texture` found nothing in a
    project of 127 sounds and 1,100 images; their names and folders are matched instead."""
    files: dict[str, str | bytes] = {
        "Assets/Audio/Ellen/Locomotion/EllenFootstep01.ogg": b"OggS\0",
        "Assets/Audio/Ellen/EllenJump.ogg": b"OggS\0",
        "Assets/Audio/Footsteps/Stone.ogg": b"OggS\0",
        "Assets/Sprites/Door.png": b"\x89PNG\r\n",
        "Assets/Scripts/Footstep.cs": "public class Footstep { }\n",
    }
    ws = workspace(write_project(tmp_path / "P", files))
    hits = ws.search("play a footstep sound", limit=5, kind="audio")
    assert [(h.path, h.score, h.reason) for h in hits] == [
        ("Assets/Audio/Ellen/Locomotion/EllenFootstep01.ogg", 2.0, "name match: footstep"),
        ("Assets/Audio/Footsteps/Stone.ogg", 1.0, "name match: footstep"),
    ]
    assert [h.path for h in ws.search("door", limit=5, kind="texture")] == ["Assets/Sprites/Door.png"]
    assert [h.path for h in ws.search("footstep", limit=5)] == ["Assets/Scripts/Footstep.cs"]  # not unasked


def test_a_scene_reached_as_carrying_a_script_is_named_by_the_object_carrying_it(tmp_path: Path) -> None:
    """A trial: "which game object in the scene has the EnemyManager" ranked the scene named by a
    camera rig's field; it is reached through the script, so it points at `Enemies`, which carries it."""
    guid = "66666666666666666666666666666666"
    manager = "using UnityEngine;\npublic class EnemyManager : MonoBehaviour {\n  public int alive;\n}\n"
    scene = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &10\nGameObject:\n  m_Component:\n  - component: {fileID: 11}\n  m_Name: CameraRig\n"
        "--- !u!114 &11\nMonoBehaviour:\n  m_GameObject: {fileID: 10}\n  m_Enabled: 1\n"
        "  m_Script: {fileID: 11500000, guid: 77777777777777777777777777777777, type: 3}\n"
        "  enemyManagerLevelTarget: 1\n"
        "--- !u!1 &20\nGameObject:\n  m_Component:\n  - component: {fileID: 21}\n  m_Name: Enemies\n"
        "--- !u!114 &21\nMonoBehaviour:\n  m_GameObject: {fileID: 20}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n  alive: 0\n"
    )
    files = {"Assets/EnemyManager.cs": manager, "Assets/EnemyManager.cs.meta": meta(guid), "Assets/Level.unity": scene}
    ws = workspace(write_project(tmp_path / "P", files))
    hit = next(
        h for h in ws.search("which game object in the level has the EnemyManager", limit=5) if h.kind == "scene"
    )
    assert (hit.name, hit.line, hit.snippet) == ("Enemies", 19, "m_Script: EnemyManager")  # its component
    assert "carries script Assets/EnemyManager.cs" in hit.reason


def test_a_search_for_a_method_an_animation_event_calls_finds_the_clip(tmp_path: Path) -> None:
    """A trial: `query PlayFootstep` ranked video playables and a JSON file; the run clip calling it
    by an event was not found at all (a clip's search document held no event)."""
    clip = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: Hero_Run\n"
        "  m_Events:\n  - time: 0.25\n    functionName: PlayFootstep\n    data: \n    intParameter: 0\n"
    )
    video = "public class VideoPlayback {\n  public void Play() { }\n  public float step;\n}\n"
    ws = workspace(write_project(tmp_path / "P", {"Assets/Hero_Run.anim": clip, "Assets/VideoPlayback.cs": video}))
    assert ws.search("PlayFootstep", limit=1)[0].path == "Assets/Hero_Run.anim"


def test_an_interface_is_said_to_be_implemented_not_a_base_class(tmp_path: Path) -> None:
    """A trial: a class implementing the interface `LevelCardEventHandler` was said to be its
    "subclass of", and the fixture's `IDamageable` the "base class of" `Health`."""
    from indexer.query.walk import edge_said

    files = {
        "Assets/IDamageable.cs": "public interface IDamageable {\n  void TakeDamage(int amount);\n}\n",
        "Assets/Health.cs": "public class Health : IDamageable {\n  public void TakeDamage(int amount) { }\n}\n",
        "Assets/Boss.cs": "public class Boss : Health {\n  public void Enrage() { }\n}\n",
    }
    ws = workspace(write_project(tmp_path / "P", files))
    records = ws.projects[0].records
    said = [
        edge_said(records, "base", "Assets/Health.cs", "Assets/IDamageable.cs"),
        edge_said(records, "subclass", "Assets/IDamageable.cs", "Assets/Health.cs"),
        edge_said(records, "base", "Assets/Boss.cs", "Assets/Health.cs"),
        edge_said(records, "subclass", "Assets/Health.cs", "Assets/Boss.cs"),
    ]
    assert said == ["interface", "implements", "base", "subclass"]
    reasons = {h.path: h.reason for h in ws.search("take damage", limit=3)}
    assert "interface of Assets/Health.cs" in reasons["Assets/IDamageable.cs"]

"""A repository holding several Unity projects: indexed per project, answered together."""

import json
from pathlib import Path

from .conftest import meta, run_cli, write_project

SHARED_GUID = "99999999999999999999999999999999"  # the same GUID in both projects, as happens in real repos


def make_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_project(
        repo / "client",
        {
            "Assets/Net/Lobby.cs": "namespace Client { class Lobby : MonoBehaviour { void Join() {} } }",
            "Assets/Net/Lobby.cs.meta": meta(SHARED_GUID),
        },
    )
    write_project(
        repo / "tools" / "server",
        {
            "Assets/Host/Matchmaker.cs": "namespace Server { class Matchmaker { Lobby lobby; } class Lobby {} }",
            "Assets/Host/Matchmaker.cs.meta": meta(SHARED_GUID),
        },
    )
    (repo / "README.md").write_text("two projects")
    return repo


def test_multi_project_repository(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    r = run_cli("index", "--project", str(repo), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [Path(p["project"]).name for p in data["projects"]] == ["client", "server"]
    assert (repo / "client/Library/UnityIndex/index.json").is_file()
    assert (repo / "tools/server/Library/UnityIndex/index.json").is_file()

    hits = json.loads(run_cli("query", "lobby", "--project", str(repo), "--json").stdout)["results"]
    assert sorted(h["path"] for h in hits) == ["client/Assets/Net/Lobby.cs", "tools/server/Assets/Host/Matchmaker.cs"]
    only = json.loads(run_cli("query", "lobby", "--project", str(repo), "--json", "--path", "tools").stdout)
    assert [h["path"] for h in only["results"]] == ["tools/server/Assets/Host/Matchmaker.cs"]

    # GUID maps are per project: the same GUID names a different file in each
    refs = json.loads(run_cli("refs", "Server.Lobby", "--project", str(repo), "--json").stdout)
    assert [(u["path"], u["line"]) for u in refs["usages"]] == [("tools/server/Assets/Host/Matchmaker.cs", 1)]
    desc = json.loads(
        run_cli("describe", "tools/server/Assets/Host/Matchmaker.cs", "--project", str(repo), "--json").stdout
    )
    assert (desc["path"], desc["guid"]) == ("tools/server/Assets/Host/Matchmaker.cs", SHARED_GUID)

    pack = json.loads(run_cli("context", "lobby join", "--project", str(repo), "--json").stdout)
    assert {f["path"] for f in pack["tier2"]["files"]} == {
        "client/Assets/Net/Lobby.cs",
        "tools/server/Assets/Host/Matchmaker.cs",
    }
    assert "client/ — " in pack["tier1"]["text"] and "tools/ — " in pack["tier1"]["text"]


def test_a_folder_filter_written_as_in_one_project_of_a_workspace(tmp_path: Path) -> None:
    """In a workspace a folder is named with its project's folder in front; one written as inside a
    project (`Assets/Net`) is that project's when only one has it, and when several do, the error
    lists them (it advised `Assets/Scripts`, the form it had just refused)."""
    repo = make_repo(tmp_path)
    write_project(repo / "tools" / "server", {"Assets/Net/Relay.cs": "class Relay { void Join() {} }"})
    assert run_cli("index", "--project", str(repo)).returncode == 0
    host = json.loads(run_cli("query", "matchmaker", "--project", str(repo), "--json", "--path", "Assets/Host").stdout)
    assert [h["path"] for h in host["results"]] == ["tools/server/Assets/Host/Matchmaker.cs"]
    r = run_cli("query", "join", "--project", str(repo), "--path", "Assets/Net")
    assert r.returncode == 2
    assert "Assets/Net is a folder of 2 projects: give one of client/Assets/Net, tools/server/Assets/Net" in r.stderr


def test_without_project_option_outside_any_project_lists_them(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    r = run_cli("status", cwd=repo)
    assert r.returncode == 2
    assert "client" in r.stderr and "server" in r.stderr and "--project" in r.stderr


def test_projects_beside_a_project_join_it_those_inside_its_folders_do_not(tmp_path: Path) -> None:
    """A sample project in the repository beside the project's own folders is answered with it;
    a folder inside Assets/, Packages/ or Library/ that looks like a project is part of it."""
    from indexer.query.workspace import projects_at

    root = tmp_path / "game"
    write_project(root, {"Assets/A.cs": "class A {}"})
    for inner in ("Assets/Vendor/Demo", "Packages/com.x/Sample", "Library/Cache/Copy"):
        write_project(root / inner, {"Assets/B.cs": "class B {}"})
    write_project(root / "Samples" / "Demo", {"Assets/C.cs": "class C {}"})
    assert [p for p, _config in projects_at(root)] == [root.resolve(), (root / "Samples/Demo").resolve()]


def test_a_projects_memo_is_emptied_at_its_limit_and_dropped_with_its_generation(tmp_path: Path) -> None:
    """ProjectIndex.remember: a value is made once per key, the memo never holds more than
    MEMO_LIMIT entries (full, it is emptied before the next one goes in), and a new index
    generation starts with none."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import MEMO_LIMIT, ProjectIndex

    root = write_project(tmp_path / "P", {"Assets/A.cs": "class A {}"})
    update(root, Config(workers=1))
    project = ProjectIndex(root, Config())
    made: list[int] = []
    for i in range(MEMO_LIMIT):
        assert project.remember(("k", i), lambda i=i: made.append(i) or i) == i
    assert project.remember(("k", 0), lambda: made.append(-1) or -1) == 0 and len(made) == MEMO_LIMIT
    assert len(project.memo) == MEMO_LIMIT
    assert project.remember(("k", MEMO_LIMIT), lambda: MEMO_LIMIT) == MEMO_LIMIT
    assert list(project.memo) == [("k", MEMO_LIMIT)]
    (root / "Assets/A.cs").write_text("class A { void B() {} }")
    update(root, Config(workers=1))
    assert project.fresh().memo == {}


def test_each_project_reads_its_own_configuration_and_the_json_names_the_workspace(tmp_path: Path) -> None:
    """docs/configuration.md: in a folder of several projects, each project reads the
    `unity-index.toml` beside its own `Assets/` (none is read from the folder above); docs/cli.md:
    `index --json` and `status --json` of such a folder are `{"schema_version", "workspace",
    "projects": [...]}`."""
    repo = make_repo(tmp_path)
    (repo / "client/unity-index.toml").write_text('exclude = ["Assets/Net"]\n')
    (repo / "unity-index.toml").write_text("max_file_mb = -1\n")  # not a project's: never read
    r = run_cli("index", "--project", str(repo), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert (data["schema_version"], data["workspace"]) == (1, str(repo.resolve()))
    assert [(Path(p["project"]).name, p["files"]) for p in data["projects"]] == [("client", 0), ("server", 2)]
    status = json.loads(run_cli("status", "--project", str(repo), "--json").stdout)
    assert (status["schema_version"], status["workspace"]) == (1, str(repo.resolve()))
    assert [(Path(p["project"]).name, p["files"]) for p in status["projects"]] == [("client", 0), ("server", 2)]


SETTINGS = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!129 &1
PlayerSettings:
  productName: {product}
"""


def test_a_task_naming_one_project_of_several_ranks_its_files_first(tmp_path: Path) -> None:
    """A repository of samples: every sample has a spawner, and the best text match of "the space
    shooter's asteroids stop spawning" is the kitchen's. Named by its folder's words or its product
    name's ("the social hub" for `Social Hub Sample`), a project's files rank first and tier 1
    describes it alone, naming the others; a word two names share ("network") or a name of one
    word ("touch") names none unless said as a project's name ("the touch samples")."""
    repo = tmp_path / "repo"
    kitchen = "public class Spawner { void SpawnWave() {} void StopSpawning() {} }"
    shooter = "public class Spawner { void SpawnWave() {} void Spawning() {} }"
    for folder, product, spawner in (
        ("Basic/ClientDrivenKitchen", "ClientDrivenKitchen", kitchen),
        ("Basic/2DSpaceShooter", "2DSpaceShooter", shooter),
        ("Basic/NetworkHub", "Social Hub Sample", shooter),
        ("Extra/TouchSamples", "TouchSamples", shooter),
    ):
        settings = SETTINGS.format(product=product)
        write_project(
            repo / folder,
            {"Assets/Scripts/Spawner.cs": spawner, "ProjectSettings/ProjectSettings.asset": settings},
        )
    assert run_cli("index", "--project", str(repo)).returncode == 0

    def first(query: str) -> str:
        data = json.loads(run_cli("query", query, "--project", str(repo), "--json").stdout)
        return data["results"][0]["path"]

    kitchen_path = "Basic/ClientDrivenKitchen/Assets/Scripts/Spawner.cs"
    assert first("asteroids stop spawning after a wave") == kitchen_path
    assert first("in the 2D space shooter the asteroids stop spawning after a wave") == (
        "Basic/2DSpaceShooter/Assets/Scripts/Spawner.cs"
    )
    assert first("in the social hub the asteroids stop spawning after a wave") == (
        "Basic/NetworkHub/Assets/Scripts/Spawner.cs"
    )
    assert first("with touch input the asteroids stop spawning after a wave") == kitchen_path

    def tier1(query: str) -> str:
        data = json.loads(run_cli("context", query, "--project", str(repo), "--json", "--budget", "4000").stdout)
        assert data["tokens"] <= 4000
        return data["tier1"]["text"]

    named = tier1("in the 2D space shooter the asteroids stop spawning after a wave")
    assert named.split("\n")[:2] == [
        "(the task names Basic/2DSpaceShooter, one of 4 projects here; the others: Basic/ClientDrivenKitchen,"
        " Basic/NetworkHub, Extra/TouchSamples)",
        "# Unity project 2DSpaceShooter — 2DSpaceShooter (Unity version unknown)",
    ]
    assert "ClientDrivenKitchen/ —" not in named and "  2DSpaceShooter/ —" in named  # its tree alone
    unnamed = tier1("asteroids stop spawning after a wave")
    assert [line for line in unnamed.split("\n") if line.startswith("# Unity project")] == [
        "# Unity project 2DSpaceShooter — 2DSpaceShooter (Unity version unknown)",
        "# Unity project ClientDrivenKitchen — ClientDrivenKitchen (Unity version unknown)",
        "# Unity project NetworkHub — Social Hub Sample (Unity version unknown)",
        "# Unity project TouchSamples — TouchSamples (Unity version unknown)",
    ]

    from indexer.query.asked_project import asked_project
    from indexer.query.workspace import open_workspace, projects_at

    projects = open_workspace(repo, projects_at(repo)).projects
    names = [p.prefix for p in projects]
    assert names == ["Basic/2DSpaceShooter/", "Basic/ClientDrivenKitchen/", "Basic/NetworkHub/", "Extra/TouchSamples/"]
    assert asked_project(projects, "the client driven kitchen") == 1
    assert asked_project(projects, "the kitchen") is None  # one word of three
    assert asked_project(projects, "the network hub") == 2  # its folder's words
    assert asked_project(projects, "the touch samples") == 3  # its one word, said as a project's name
    assert asked_project(projects, "in the 2D space shooter, like the touch samples") == 0  # named in full first
    assert asked_project(projects, "touch the screen twice") is None  # the word alone names nothing
    assert asked_project(projects, "the touch screen") is None
    assert asked_project(projects[:1], "the 2D space shooter") is None  # one project: nothing to tell apart
    assert asked_project(projects, "the space shooter and the network hub") is None  # two, as well
    assert asked_project(projects, "the client driven kitchen, like the space shooter") == 1  # more words

    from indexer.query.context import _others_line
    from indexer.query.tokens import counter

    full = _others_line(projects, 0, counter(), 1000)
    assert full == (
        "(the task names Basic/2DSpaceShooter, one of 4 projects here; the others: Basic/ClientDrivenKitchen,"
        " Basic/NetworkHub, Extra/TouchSamples)"
    )
    short = "(the task names Basic/2DSpaceShooter, one of 4 projects here)"
    room = counter().count(short)
    assert (_others_line(projects, 0, counter(), room), _others_line(projects, 0, counter(), room - 1)) == (short, "")


def test_a_project_of_one_word_is_named_when_the_task_says_it_as_a_name(tmp_path: Path) -> None:
    """Samples called `Platformer`, `Tutorial`, `StressTest`: "in the platformer, ...", "the
    tutorial project", "the stress test scene" name one; "a platformer jump", "tutorial text" or
    "skip the tutorial." name none (one word among others, or a thing in a sentence)."""
    from indexer.query.asked_project import asked_project
    from indexer.query.workspace import open_workspace, projects_at

    repo = tmp_path / "repo"
    for folder in ("Platformer", "Tutorial", "StressTest", "OnlineFPS"):
        write_project(repo / folder, {"Assets/Scripts/Mover.cs": "public class Mover { void Move() {} }"})
    assert run_cli("index", "--project", str(repo)).returncode == 0
    projects = open_workspace(repo, projects_at(repo)).projects
    assert [p.prefix for p in projects] == ["OnlineFPS/", "Platformer/", "StressTest/", "Tutorial/"]
    assert asked_project(projects, "In the platformer, how does the wall run work?") == 1
    assert asked_project(projects, "in the platformer's menu the camera stops following the player") == 1
    assert asked_project(projects, "where does the platformer's camera follow the player") is None  # a thing
    assert asked_project(projects, "skip the tutorial.") is None
    assert asked_project(projects, "the tutorial project leaks memory") == 3
    assert asked_project(projects, "in the stress test scene, characters turn slowly") == 2
    assert asked_project(projects, "a platformer jump feels floaty") is None
    assert asked_project(projects, "the tutorial text is cut off") is None
    assert asked_project(projects, "in the platformer, as in the tutorial project") is None  # two, as well


def test_a_workspace_tree_tells_each_projects_third_party_folders_by_its_own_marks(tmp_path: Path) -> None:
    """`overview.third_party_test`: a folder of a workspace (its path with the project's prefix) is
    third-party by that project's marks (a kit's PDF manual in one project does not make the same
    folder name in another third-party) and by the names third-party folders have."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.overview import third_party_test
    from indexer.query.workspace import open_workspace, projects_at

    base = tmp_path / "repo"
    for name, files in (
        (
            "Client",
            {
                "Assets/Kit/Documentation.pdf.meta": meta("1a2b3c4d5e6f70819203a4b5c6d7e8f9"),
                "Assets/Kit/A.cs": "class A {}",
            },
        ),
        ("Server", {"Assets/Kit/B.cs": "class B {}", "Assets/Plugins/C.cs": "class C {}"}),
    ):
        root = write_project(base / name, files)
        update(root, Config(workers=1))
    projects = open_workspace(base, projects_at(base)).projects
    test = third_party_test(projects)
    assert [p.prefix for p in projects] == ["Client/", "Server/"]
    assert [
        test(f) for f in ("Client/Assets/Kit/", "Server/Assets/Kit/", "Server/Assets/Plugins/", "Client/Assets/")
    ] == [
        True,
        False,
        True,
        False,
    ]


DOOR_GUID, HOUSE_GUID = "d00d" * 8, "4005e" + "0" * 27
HOUSE_PREFAB = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Name: House
  m_Component:
  - component: {{fileID: 200}}
--- !u!114 &200
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Enabled: 1
  m_Script: {{fileID: 11500000, guid: {DOOR_GUID}, type: 3}}
  openSpeed: 2
"""
LEVEL_SCENE = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1001 &300
PrefabInstance:
  m_Modification:
    m_TransformParent: {{fileID: 0}}
    m_Modifications:
    - target: {{fileID: 200, guid: {HOUSE_GUID}, type: 3}}
      propertyPath: openSpeed
      value: 5
      objectReference: {{fileID: 0}}
  m_SourcePrefab: {{fileID: 100100000, guid: {HOUSE_GUID}, type: 3}}
"""


def test_a_project_inside_another_projects_folder_answers_with_paths_that_resolve(tmp_path: Path) -> None:
    """A sample project beside the outer project's Assets/: its files are described (the outer
    project, whose prefix is empty, used to claim every path), and the paths its answers name (a
    reason, a usage's prefab chain, an outline, `uses`) carry its folder, as its own paths do."""
    from indexer.build.update import update
    from indexer.query.lookup import describe_target, find_references
    from indexer.query.workspace import open_workspace, projects_at

    outer = write_project(tmp_path / "repo", {"Assets/Menu.cs": "public class Menu { }"})
    write_project(
        outer / "Sample",
        {
            "Assets/Scripts/Door.cs": "public class Door : UnityEngine.MonoBehaviour { public float openSpeed; }",
            "Assets/Scripts/Door.cs.meta": meta(DOOR_GUID),
            "Assets/Prefabs/House.prefab": HOUSE_PREFAB,
            "Assets/Prefabs/House.prefab.meta": meta(HOUSE_GUID, "PrefabImporter"),
            "Assets/Scenes/Level.unity": LEVEL_SCENE,
            "Assets/Scenes/Level.unity.meta": meta("1e7e1" + "0" * 27, "DefaultImporter"),
        },
    )
    for root, config in projects_at(outer):
        update(root, config)
    ws = open_workspace(outer, projects_at(outer))

    name, desc = describe_target(ws, "Sample/Assets/Prefabs/House.prefab")
    assert name == "Sample" and desc.path == "Sample/Assets/Prefabs/House.prefab"
    assert {e.path for e in desc.uses} == {"Sample/Assets/Scripts/Door.cs"}
    assert {e.path for e in desc.used_by} == {"Sample/Assets/Scenes/Level.unity"}
    assert desc.text.startswith("Sample/Assets/Prefabs/House.prefab  (prefab")

    _, usages = find_references(ws, "Door")
    via = [u.detail for u in usages if u.path == "Sample/Assets/Scenes/Level.unity"]
    assert via and all("(via Sample/Assets/Prefabs/House.prefab)" in d for d in via), via
    code = [u.detail for u in usages if u.where == "code"]
    assert all("Sample/" not in d for d in code)  # a line of code is quoted as written

    hits = ws.search("door house level", 10)
    reasons = [h.reason for h in hits if "Assets/" in h.reason]
    assert reasons and all(" Assets/" not in r and not r.startswith("Assets/") for r in reasons), reasons


def test_tier_one_names_a_nested_projects_assemblies_and_scenes_by_workspace_paths(tmp_path: Path) -> None:
    """A project in a folder of the workspace: its overview's assembly folders and scenes in build
    carry that folder, as every path of an answer does; the outer project's stay as they are."""
    from indexer.build.update import update
    from indexer.query.context import build_context
    from indexer.query.tokens import counter
    from indexer.query.workspace import open_workspace, projects_at

    scenes = "m_Scenes:\n  - enabled: 1\n    path: Assets/Scenes/Level.unity\n    guid: " + "5" * 32 + "\n"
    outer = write_project(tmp_path / "repo", {"Assets/Menu.cs": "public class Menu { }"})
    write_project(
        outer / "Sample",
        {
            "Assets/Scripts/Door.cs": "public class Door { }",
            "Assets/Scenes/Level.unity": "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n",  # one not there is none
            "Assets/Scripts/Sample.Game.asmdef": '{ "name": "Sample.Game" }',
            "ProjectSettings/EditorBuildSettings.asset": "%YAML 1.1\n--- !u!1045 &1\nEditorBuildSettings:\n  " + scenes,
        },
    )
    for root, config in projects_at(outer):
        update(root, config)
    ws = open_workspace(outer, projects_at(outer))
    lines = build_context(ws, "open the door", 4000, counter("estimate")).tier1.text.split("\n")
    assert "Assemblies (1): Sample.Game (Sample/Assets/Scripts/)" in lines
    assert "Scenes in build: Sample/Assets/Scenes/Level.unity" in lines


def test_a_long_overview_line_is_cut_short_not_dropped_with_every_line_after_it() -> None:
    """Sixty scenes in build made a line longer than a project's share of tier 1: it was dropped,
    and the lines after it, leaving the title; now it keeps the scenes that fit and says how many
    more there are."""
    from indexer.model import Overview
    from indexer.query.render import fitted_overview
    from indexer.query.tokens import counter

    scenes = [f"Assets/Scenes/Level{i:02d}.unity" for i in range(60)]
    overview = Overview("Big", "", "2022.3.1f1", [], [], scenes, [], {"scene": 60})
    text = fitted_overview(overview, counter("estimate"), 120)
    lines = text.split("\n")
    assert lines[0] == "# Unity project Big (Unity 2022.3.1f1)"
    assert lines[1].startswith("Scenes in build: Assets/Scenes/Level00.unity, Assets/Scenes/Level01.unity, ")
    shown = lines[1].count(".unity")
    assert lines[1].endswith(f", … {60 - shown} more") and 0 < shown < 60
    assert counter("estimate").count(text) <= 120
    assert fitted_overview(overview, counter("estimate"), 2) == ""  # not even the title fits


def test_the_overview_names_the_scenes_in_build_and_the_project_s_assemblies_before_third_party_ones() -> None:
    """A trial: at 4,000 tokens tier 1 spent its share on nineteen assemblies, most of them
    third-party, and cut the scenes in build, where the game starts. The scenes come first, and the
    project's own assemblies before editor-only and third-party ones."""
    from indexer.model import Assembly, Overview
    from indexer.query.render import fitted_overview
    from indexer.query.tokens import counter

    assemblies = [Assembly(f"Vendor{i}", f"Assets/Plugins/Vendor{i}/", False, True) for i in range(12)]
    assemblies += [Assembly("Game.Editor", "Assets/Game/Editor/", True), Assembly("Game", "Assets/Game/", False)]
    overview = Overview("Rhythm", "", "6000.0.58f2", [], assemblies, ["Assets/Scenes/Boot.unity"], [], {})
    lines = fitted_overview(overview, counter("estimate"), 60).split("\n")
    assert lines[1] == "Scenes in build: Assets/Scenes/Boot.unity"
    assert lines[2] == "Assemblies (14): Game (Assets/Game/), Game.Editor (Assets/Game/Editor/, editor), … 12 more"

"""Failures a user trial on unseen games found (session 39), each fixed and pinned here."""

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.vendored import names_package, vendored_folders
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project


def workspace(root: Path):
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())])


INPUT = "public class {0} {{ public void ReadPlayerInput() {{}} public float horizontal; }}"


def test_a_kits_documentation_folder_marks_the_kit_around_it(tmp_path: Path) -> None:
    """An input kit shipping its read-me and licences in `Documentation/` is third-party as a
    whole: its example code ranked above the game's own for "where is the player's input read"."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Rewired/Documentation/ReadMe.txt": "Thank you for purchasing",
            "Assets/Rewired/Documentation/licences.txt": "licences of bundled code",
            "Assets/Rewired/Internal/Rewired_Core.dll": b"MZ\x90\x00 a managed library",
            "Assets/Rewired/Examples/PlayerInputExample.cs": INPUT.format("PlayerInputExample"),
            "Assets/Scripts/Ship.cs": INPUT.format("Ship"),
        },
    )
    ws = workspace(root)
    assert ws.projects[0].fresh().vendored == {"Assets/Rewired/"}
    hits = [h.path for h in ws.search("where is the player's input read", limit=2)]
    assert hits == ["Assets/Scripts/Ship.cs", "Assets/Rewired/Examples/PlayerInputExample.cs"]
    assert vendored_folders(
        [
            "Assets/Kit/Docs/LICENSES.md",  # plural
            "Assets/Tool/Manual/readme.txt",
            "Assets/Docs/readme.txt",  # a documentation folder at the top marks itself, not Assets/
            "Assets/Game/Help/Credits.txt",  # no mark
            "Assets/MyGame/Docs/CHANGELOG.md",  # a game's own notes: no library beside them
        ],
        libraries=["Assets/Kit/Bin/Kit.dll", "Assets/Tool/Tool.dll", "Assets/Plugins/Docs.dll"],
    ) == {"Assets/Kit/", "Assets/Tool/", "Assets/Docs/", "Assets/MyGame/Docs/"}


def test_a_folder_of_drops_and_a_kits_named_read_me_mark_third_party_code() -> None:
    """A shooter kept 19,656 of its 20,069 files in `_ExternalAssets/`, whose demo scripts led
    "change the fireball projectile speed" and took 24 of a pack's 29 sections: `external` was
    matched only as a whole folder name, and `Pixel Arsenal - Readme.txt` only at the name's start."""
    from indexer.query.vendored import vendor_package

    assert vendor_package("Assets/_ExternalAssets/Pixel Arsenal/Demo/Fire.cs", ()) == "Pixel Arsenal"
    assert vendor_package("Assets/ThirdPartyAssets/Kit/a.cs", ()) == "Kit"
    assert vendor_package("Assets/Imports/CanonTower/Tower.prefab", ()) == "CanonTower"
    assert vendor_package("Assets/AssetStore/Joystick/Pad.cs", ()) == "Joystick"
    for own in ("Assets/Scripts/Importer.cs", "Assets/Game/ImportSettings/a.cs", "Assets/Scripts/PartyManager.cs"):
        assert vendor_package(own, ()) is None
    assert vendored_folders(
        ["Assets/Art/Pixel Arsenal/Pixel Arsenal - Readme.txt", "Assets/Game/Readme_Fonts.txt"]
    ) == {"Assets/Art/Pixel Arsenal/"}


def test_one_common_word_of_a_kits_name_does_not_name_it() -> None:
    """ "how is the game saved" named `Easy Save 2/` by "save" and ranked its code first in a game
    that saves otherwise: a kit is named by every word of its name; a reverse-domain package by the
    words after its owner's."""
    assert not names_package("Easy Save 2", frozenset({"game", "save", "load"}))
    assert names_package("Easy Save 2", frozenset({"easy", "save"}))
    assert names_package("net.peeweek.console", frozenset({"develop", "consol"}))
    assert not names_package("Photon Unity Networking", frozenset({"network"}))
    assert names_package("com.google.play.games", frozenset({"googl"}))


ATLAS = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!687078895 &4343727234628468602
SpriteAtlas:
  m_Name: small enemies
  m_EditorData:
    packables:
    - {fileID: 2800000, guid: 1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a, type: 3}
"""


def test_a_sprite_atlas_ranks_as_a_look_below_code_unless_the_task_asks_for_looks(tmp_path: Path) -> None:
    """A sprite atlas named after the enemies ranked first for "make enemies do double damage"."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Atlases/small enemies.spriteatlas": ATLAS,
            "Assets/Scripts/Damage.cs": "public class Damage { public int amount; void Hit(Enemy e) {} }",
        },
    )
    ws = workspace(root)
    code = [h.path for h in ws.search("make the small enemies do double damage", limit=2)]
    assert code == ["Assets/Scripts/Damage.cs", "Assets/Atlases/small enemies.spriteatlas"]
    looks = [h.path for h in ws.search("which sprites do the small enemies use", limit=1)]
    assert looks == ["Assets/Atlases/small enemies.spriteatlas"]


def test_refs_of_a_game_type_leave_out_a_kits_code_writing_its_name(tmp_path: Path) -> None:
    """`refs Player` listed 85 lines of an input kit's code, whose `Player` is the kit DLL's class:
    a kit dropped into a game knows none of the game's types."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Kit/Documentation/ReadMe.txt": "Thank you for purchasing",
            "Assets/Kit/Kit_Core.dll": b"MZ\x90\x00 a managed library",
            "Assets/Kit/Data/Store.cs": "namespace Kit.Data { public class Store { Player player; } }",
            "Assets/Scripts/Player.cs": "public class Player : UnityEngine.MonoBehaviour { }",
            "Assets/Scripts/Haunt.cs": "public class Haunt : UnityEngine.MonoBehaviour { Player target; }",
        },
    )
    ws = workspace(root)
    project = ws.projects[0].fresh()
    graph = project.graph
    usages = graph.references(graph.target("Player"))
    assert [(u.path, u.line, u.detail) for u in usages if u.where == "code"] == [
        ("Assets/Scripts/Haunt.cs", 1, "public class Haunt : UnityEngine.MonoBehaviour { Player target; }"),
    ]


CHEST = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Component:
  - component: {fileID: 400}
  - component: {fileID: 11400}
  m_Name: Crystal Chest
--- !u!4 &400
Transform:
  m_GameObject: {fileID: 100}
  m_Father: {fileID: 0}
--- !u!114 &11400
MonoBehaviour:
  m_GameObject: {fileID: 100}
  m_Script: {fileID: 11500000, guid: 7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c, type: 3}
  loot: 3
"""
ARENA = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1001 &500
PrefabInstance:
  m_Modification:
    m_TransformParent: {fileID: 0}
    m_Modifications: []
  m_SourcePrefab: {fileID: 100100000, guid: 5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c, type: 3}
"""
EMPTY_SCENE = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &1
GameObject:
  m_Name: {0}
"""


def _chest() -> dict[str, str]:
    """The crystal chest's prefab and the script it carries."""
    return {
        "Assets/Prefabs/Crystal Chest.prefab": CHEST,
        "Assets/Prefabs/Crystal Chest.prefab.meta": meta("5c" * 16, "PrefabImporter"),
        "Assets/Scripts/Chest.cs": "public class Chest : UnityEngine.MonoBehaviour { public int loot; }",
        "Assets/Scripts/Chest.cs.meta": meta("7c" * 16),
    }


def test_a_search_for_one_kind_walks_from_the_best_matches_of_every_kind(tmp_path: Path) -> None:
    """`query "which scene has the crystal chest" --kind scene` ranked scenes named after scenes
    first: the walk started from scenes only, never from the chest's prefab, which the scene holding
    it places."""
    root = write_project(
        tmp_path / "P",
        {
            **_chest(),
            "Assets/Scenes/Arena.unity": ARENA,
            "Assets/Scenes/SceneSelect.unity": EMPTY_SCENE.format("Scene Picker"),
            "Assets/Scenes/Templates/Blank Scene.unity": EMPTY_SCENE.format("Scene Root"),
        },
    )
    ws = workspace(root)
    hits = [h.path for h in ws.search("which scene has the crystal chest", limit=3, kind="scene")]
    assert hits[0] == "Assets/Scenes/Arena.unity"


CONFIG_AUTHORING = """using Unity.Entities;
using UnityEngine;
public class ConfigAuthoring : MonoBehaviour
{
    public float BallKickForce;
}
public struct Config : IComponentData
{
    public float BallKickForce;
}
"""
SUBSCENE = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_Component:
  - component: {{fileID: 101}}
  m_Name: Config
--- !u!114 &101
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Script: {{fileID: 11500000, guid: 9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d, type: 3}}
  BallKickForce: {0}
"""


def test_a_pack_credits_values_to_the_class_unity_binds_and_shows_set_ones_first(tmp_path: Path) -> None:
    """A DOTS authoring file's values were shown twice, the second time as the runtime struct's
    (`refs Config.BallKickForce`, which lists none: Unity binds a script's GUID to the class named
    as its file), and the steps that set the force (8) were cut behind those leaving it at 0."""
    from indexer.identifiers import stem
    from indexer.query.serialized import PACK_HEADER, pack_values

    files = {
        "Assets/Scripts/ConfigAuthoring.cs": CONFIG_AUTHORING,
        "Assets/Scripts/ConfigAuthoring.cs.meta": meta("9d" * 16),
        **{f"Assets/Scenes/Step{n}Subscene.unity": SUBSCENE.format(8 if n > 2 else 0) for n in range(1, 5)},
    }
    ws = workspace(write_project(tmp_path / "P", files))
    assert pack_values(*ws.owner("Assets/Scripts/ConfigAuthoring.cs"), {stem("ball"), stem("kick")}) == [
        PACK_HEADER,
        "  Assets/Scenes/Step3Subscene.unity:12  Config > ConfigAuthoring.BallKickForce: 8",
        "  Assets/Scenes/Step4Subscene.unity:12  Config > ConfigAuthoring.BallKickForce: 8",
        "  … 2 more (unity-index refs ConfigAuthoring.BallKickForce)",
    ]


def test_refs_of_a_name_only_an_animation_event_calls_lists_the_calls_finding_no_receiver(tmp_path: Path) -> None:
    """`refs OnDeathAnimationEnded` said "no type, member …" (exit 2) for the event of two clips
    calling a method no script declares: the broken event a user debugs ("has no receiver")."""
    from .conftest import run_cli

    clip = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: Death\n"
        "  m_Events:\n  - time: 0.5\n    functionName: OnDeathAnimationEnded\n    data: \n    intParameter: 0\n"
    )
    root = write_project(
        tmp_path / "P",
        {"Assets/Anim/Death.anim": clip, "Assets/Scripts/Enemy.cs": "public class Enemy { void OnDeath() {} }"},
    )
    out = run_cli("refs", "OnDeathAnimationEnded", "--project", str(root))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "name called without a receiver OnDeathAnimationEnded  (no method of the project's code is named so:"
        " these calls by name find no receiver there)",
        "in assets (1):",
        "  Assets/Anim/Death.anim:8 [m_Events]  Death calls OnDeathAnimationEnded",
    ]
    assert run_cli("refs", "OnNothingAtAll", "--project", str(root)).returncode == 2


def test_a_name_a_method_has_is_not_said_to_be_called_without_a_receiver(tmp_path: Path) -> None:
    """`refs TakeDamage` (a method of `Health`, also sent by `SendMessage`) said "no method of the
    project's code is named so" (a review of session 39): a name a member has still exits 2 naming
    the members, as before."""
    from .conftest import run_cli

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Health.cs": (
                "public class Health : UnityEngine.MonoBehaviour {\n  public void TakeDamage(int n) { }\n"
                '  void Hit() { SendMessage("TakeDamage", 5); }\n}\n'
            )
        },
    )
    out = run_cli("refs", "TakeDamage", "--project", str(root))
    assert out.returncode == 2 and "Health.TakeDamage" in out.stderr, out.stderr
    assert "without a receiver" not in out.stdout + out.stderr


def test_a_search_for_one_kind_no_file_of_which_matches_walks_from_the_others(tmp_path: Path) -> None:
    """`query clicker --kind scene` said "no results" though the scene placing the clicker's
    prefab ranked third without `--kind`: no scene held the word, and the search returned before
    walking (a review of session 39)."""
    root = write_project(
        tmp_path / "P",
        {
            **_chest(),
            "Assets/Levels/Arena.unity": ARENA,
        },
    )
    ws = workspace(root)
    assert [h.path for h in ws.search("crystal chest", limit=3, kind="scene")] == ["Assets/Levels/Arena.unity"]


def test_a_var_set_by_a_generic_getter_has_its_type_argument_s_type(tmp_path: Path) -> None:
    """`var poolable = GetComponent<PoolableComponent>(); poolable.Release();` was listed under
    `refs EntityBase.Release` (a second trial): a `var` was typed by `new T()` and `foreach` only."""
    from .conftest import run_cli

    root = write_project(
        tmp_path / "P",
        {
            "Assets/EntityBase.cs": (
                "using UnityEngine;\npublic class EntityBase : MonoBehaviour {\n  public void Release() { }\n"
                "  void Die() {\n    var poolable = GetComponent<PoolableComponent>();\n"
                "    poolable.Release();\n  }\n}\n"
            ),
            "Assets/PoolableComponent.cs": (
                "using UnityEngine;\npublic class PoolableComponent : MonoBehaviour {\n  public void Release() { }\n}\n"
            ),
            "Assets/EnemyFactory.cs": (
                "public class EnemyFactory {\n  Container Container;\n  void Kill() {\n"
                "    var entity = Container.Resolve<EntityBase>();\n    entity.Release();\n  }\n}\n"
                "public class Container { public T Resolve<T>() { return default; } }\n"
            ),
        },
    )
    out = run_cli("refs", "EntityBase.Release", "--project", str(root))
    assert out.stdout.splitlines() == [
        "member Release of EntityBase",
        "in code (1):",
        "  Assets/EnemyFactory.cs:5 [member]  entity.Release();",
    ]


WAVES = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_Script: {fileID: 11500000, guid: 3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e, type: 3}
  m_Name: WaveConfig
  waves:
  - spawnId: 1
    timeDelay: 3
    members:
    - enemy: {fileID: 0}
      amount: 2
  - spawnId: 2
    timeDelay: 6
    members: []
"""


def test_describe_shows_each_record_of_a_list_no_name_tells_apart(tmp_path: Path) -> None:
    """`describe WaveConfig.asset` said `waves: [5 items]` where the whole wave design was, each
    wave's delay and members (a second trial); a list whose items have names still lists those."""
    from .conftest import run_cli

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Rounds/WaveConfig.asset": WAVES,
            "Assets/Scripts/WaveConfig.cs": (
                "public class WaveConfig : UnityEngine.ScriptableObject { public System.Collections.Generic.List<Wave>"
                " waves; }\n[System.Serializable] public class Wave { public int spawnId; public float timeDelay; }"
            ),
            "Assets/Scripts/WaveConfig.cs.meta": meta("3e" * 16),
        },
    )
    out = run_cli("describe", "Assets/Rounds/WaveConfig.asset", "--project", str(root))
    assert out.stdout.splitlines()[2:5] == [
        "  L8 waves: [2 items]",
        "      [0] {spawnId: 1, timeDelay: 3, members: [1 item]}",
        "      [1] {spawnId: 2, timeDelay: 6, members: []}",
    ]


def test_a_list_of_many_records_shows_the_first_eight_then_counts_the_rest(tmp_path: Path) -> None:
    """docs/cli.md, describe: "the first eight then `… N more items`"; and a pack cut to a task about
    the list keeps its records with the field (their lines go with it)."""
    from indexer.query.context import build_context
    from indexer.query.render import render_context
    from indexer.query.tokens import counter

    from .conftest import run_cli

    waves = WAVES.split("  waves:\n")[0] + "  waves:\n"
    waves += "".join(f"  - spawnId: {i}\n    timeDelay: {3 * i}\n" for i in range(1, 11))
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Rounds/WaveConfig.asset": waves,
            "Assets/Scripts/WaveConfig.cs": (
                "public class WaveConfig : UnityEngine.ScriptableObject { public System.Collections.Generic.List<Wave>"
                " waves; }\n[System.Serializable] public class Wave { public int spawnId; public float timeDelay; }"
            ),
            "Assets/Scripts/WaveConfig.cs.meta": meta("3e" * 16),
        },
    )
    lines = run_cli("describe", "Assets/Rounds/WaveConfig.asset", "--project", str(root)).stdout.splitlines()
    start = lines.index("  L8 waves: [10 items]")
    assert lines[start + 1 : start + 10] == [
        *(f"      [{i}] {{spawnId: {i + 1}, timeDelay: {3 * (i + 1)}}}" for i in range(8)),
        "      … 2 more items",
    ]
    pack = render_context(build_context(workspace(root), "how long is the delay of each wave", 2000, counter()))
    assert "[0] {spawnId: 1, timeDelay: 3}" in pack


def test_a_render_texture_is_no_look_a_sprite_atlas_is() -> None:
    """priors.LOOK_EXTENSIONS: a held-out question asked what a video player draws into (its render
    texture) with no word of looks; an atlas lists sprites, a look whatever the task."""
    from indexer.query.file_roles import _looks_by_name

    assert _looks_by_name("unity_yaml", "Assets/UI/Enemies.spriteatlas")
    assert _looks_by_name("unity_yaml", "Assets/Terrain/Grass.terrainlayer")
    assert not _looks_by_name("unity_yaml", "Assets/Resources/Textures/VideoPlayerRenderTexture.renderTexture")
    assert not _looks_by_name("asset", "Assets/Data/Enemies.spriteatlas")  # the kind decides, not the name alone


def test_the_class_trees_memo_of_records_is_bounded(tmp_path: Path) -> None:
    """type_tree._record: a long-lived server's graph keeps at most _MEMO_SIZE records, however many
    files its answers visit."""
    from indexer.query import type_tree

    files = {f"Assets/C{i}.cs": f"public class C{i} {{ }}" for i in range(type_tree._MEMO_SIZE + 20)}
    ws = workspace(write_project(tmp_path / "P", files))
    graph = ws.projects[0].fresh().graph
    for path in files:
        assert type_tree._record(graph, path) is not None
    assert len(graph.__dict__[type_tree._MEMO]) <= type_tree._MEMO_SIZE

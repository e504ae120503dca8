"""A new user's trial on two unseen games (docs/retrieval.md, session 47): what it found wrong,
each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.config import Config
from indexer.query.asking import asks_value
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked


def _so(name: str, body: str) -> str:
    return f"using UnityEngine;\npublic class {name} : ScriptableObject\n{{\n{body}\n}}\n"


def _parts(name: str, parts: list[str]) -> str:
    """Objects of a model named for its parts (`Rifle Barrel`), as a prefab's YAML lines."""
    return "".join(
        f"--- !u!1 &{300 + i}\nGameObject:\n  m_Name: {name} {p}\n  m_IsActive: 1\n" for i, p in enumerate(parts)
    )


def _guns(tmp_path: Path) -> Path:
    """A shooter: each gun's ammo in a config asset, its pickup and its ammo pickup as prefabs whose
    names say the gun, holding its model's parts, scripts for both pickups."""
    ammo, pickup, ammo_pickup = (f"a100000000000000000000000000000{i}" for i in (1, 2, 3))
    model = _parts("Rifle", ["Body", "Barrel", "Stock", "Sight", "Grip", "Trigger"]) + (
        "--- !u!198 &400\nParticleSystem:\n  startSize: 1\n  SizeModule:\n    enabled: 0\n  m_Size: 1\n"
        "  m_MaxParticleSize: 0.5\n  clipRect: 0\n"
    )
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/AmmoConfig.cs": _so(
                "AmmoConfig",
                "public int MaxAmmo = 120;\npublic int ClipSize = 30;\npublic int CurrentClipAmmo = 30;\n"
                "public void Reload() { int room = ClipSize - CurrentClipAmmo;\n"
                "  CurrentClipAmmo += Mathf.Min(room, ClipSize); }\n"
                "public bool CanReload() => CurrentClipAmmo < ClipSize; // a full clip of the clip size",
            ),
            "Assets/Scripts/AmmoConfig.cs.meta": meta(ammo),
            "Assets/Scripts/GunPickup.cs": mono_script(
                "GunPickup", "public AmmoConfig Ammo;\nvoid OnTriggerEnter(Collider other) { /* give the rifle */ }"
            ),
            "Assets/Scripts/GunPickup.cs.meta": meta(pickup),
            "Assets/Scripts/AmmoPickup.cs": mono_script("AmmoPickup", "public int AmmoAmount = 30;"),
            "Assets/Scripts/AmmoPickup.cs.meta": meta(ammo_pickup),
            "Assets/Guns/Rifle Ammo Config.asset": data_asset(
                ammo, "Rifle Ammo Config", "  MaxAmmo: 120\n  ClipSize: 30\n"
            ),
            "Assets/Guns/Rifle Ammo Config.asset.meta": meta(
                "a1000000000000000000000000000004", "NativeFormatImporter"
            ),
            "Assets/Guns/Pistol Ammo Config.asset": data_asset(
                ammo, "Pistol Ammo Config", "  MaxAmmo: 100\n  ClipSize: 20\n"
            ),
            "Assets/Guns/Pistol Ammo Config.asset.meta": meta(
                "a1000000000000000000000000000005", "NativeFormatImporter"
            ),
            "Assets/Prefabs/Rifle Pickup.prefab": script_prefab("Rifle Pickup", pickup) + model,
            "Assets/Prefabs/Rifle Pickup.prefab.meta": meta("a1000000000000000000000000000006", "PrefabImporter"),
            "Assets/Prefabs/Rifle Ammo Pickup.prefab": script_prefab(
                "Rifle Ammo Pickup", ammo_pickup, "  AmmoAmount: 30\n"
            )
            + model,
            "Assets/Prefabs/Rifle Ammo Pickup.prefab.meta": meta("a1000000000000000000000000000007", "PrefabImporter"),
        },
    )


def test_a_quality_said_with_its_owner_asks_its_value(tmp_path: Path) -> None:
    """ "What is the M4A1's clip size?" ranked `M4A1 Ammo Config.asset` (`ClipSize: 30`) 6th, under
    the M4A1's pickup prefabs and their scripts: "what is the X's Y" asks a value as "how big is"
    does (`asking._OWNED_VALUE`), so the small data asset with a field the task names leads
    (`rank._settings_named`): it led its class `AmmoConfig.cs`, which says "clip" more often. Not
    "what is the purpose of the player's script"."""
    root = _guns(tmp_path)
    assert _ranked(root, "What is the rifle's clip size?", 4) == [
        "Assets/Guns/Rifle Ammo Config.asset",
        "Assets/Scripts/AmmoConfig.cs",
        "Assets/Guns/Pistol Ammo Config.asset",
        "Assets/Prefabs/Rifle Pickup.prefab",
    ]
    assert asks_value([], "what's the boss's max health")
    assert not asks_value([], "what is the purpose of the player's script")
    assert not asks_value([], "where is the player's health lowered")


def _physic_material(name: str, friction: float) -> str:
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!134 &13400000\nPhysicMaterial:\n"
        f"  m_Name: {name}\n  serializedVersion: 2\n  m_DynamicFriction: {friction}\n"
        f"  m_StaticFriction: {friction}\n  m_Bounciness: 0.1\n"
    )


def _material(name: str) -> str:
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!21 &2100000\nMaterial:\n  serializedVersion: 6\n"
        f"  m_Name: {name}\n  m_Shader: {{fileID: 46, guid: 0000000000000000f000000000000000, type: 0}}\n"
        "  m_SavedProperties:\n    m_Floats:\n    - _Glossiness: 0.5\n"
    )


def _course(tmp_path: Path) -> Path:
    """A minigolf course: a sand tile whose collider holds the sand physics material, grass and
    wall physics materials, and three rendering materials of sand effects (a particle kit's)."""
    sand = "b1000000000000000000000000000001"
    tile = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &100\nGameObject:\n"
        "  m_Component:\n  - component: {fileID: 101}\n  m_Name: Sand Tile\n  m_IsActive: 1\n"
        "--- !u!65 &101\nBoxCollider:\n  m_GameObject: {fileID: 100}\n"
        f"  m_Material: {{fileID: 13400000, guid: {sand}, type: 2}}\n  m_Size: {{x: 1, y: 1, z: 1}}\n"
    )
    files = {
        "Assets/Physic Materials/Sand.physicMaterial": _physic_material("Sand", 1),
        "Assets/Physic Materials/Sand.physicMaterial.meta": meta(sand, "NativeFormatImporter"),
        "Assets/Physic Materials/Grass.physicMaterial": _physic_material("Grass", 0.4),
        "Assets/Physic Materials/Grass.physicMaterial.meta": meta(
            "b1000000000000000000000000000002", "NativeFormatImporter"
        ),
        "Assets/Tiles/Sand Tile.prefab": tile,
        "Assets/Tiles/Sand Tile.prefab.meta": meta("b1000000000000000000000000000003", "PrefabImporter"),
        "Assets/Scripts/Ball.cs": mono_script("Ball", "public float SettledVelocity = 0.01f; // the ball stops"),
        "Assets/Scripts/Ball.cs.meta": meta("b1000000000000000000000000000004"),
    }
    for i, name in enumerate(("SandSurface", "SandSwirls", "BulletDecalSand")):
        files[f"Assets/Effects/Materials/{name}.mat"] = _material(name)
        files[f"Assets/Effects/Materials/{name}.mat.meta"] = meta(
            f"b100000000000000000000000000001{i}", "NativeFormatImporter"
        )
    return write_project(tmp_path, files)


def test_a_physics_material_is_named_as_its_own_kind(tmp_path: Path) -> None:
    """ "Which physics material makes the sand slow the ball down?" ranked `Sand.physicMaterial`
    11th, under three rendering materials of a particle kit saying "sand": "material" named the
    rendering materials' kind. "Physics material" (joined by `said_words`: "physicsmaterial") names
    the physics materials (`.physicMaterial`, `.physicsMaterial2D`, told by their extension among
    Unity YAML files: `file_roles.YAML_KINDS_BY_EXTENSION`), and not the rendering ones
    (`priors.named_kinds`): 11th -> 1st. Here the ball's script led it."""
    root = _course(tmp_path)
    assert _ranked(root, "Which physics material makes the sand slow the ball down?", 4) == [
        "Assets/Physic Materials/Sand.physicMaterial",
        "Assets/Scripts/Ball.cs",
        "Assets/Physic Materials/Grass.physicMaterial",
        "Assets/Tiles/Sand Tile.prefab",
    ]


def _levels(tmp_path: Path) -> Path:
    """A minigolf game: eight levels as data assets named by their numbers (`7.asset`, of the class
    `LevelSO`), a level spawner sending the player back to the main menu when a level is
    misconfigured, the main menu's script and scene."""
    level, spawner = "c1000000000000000000000000000001", "c1000000000000000000000000000002"
    menu = "c100000000000000000000000000003"
    files = {
        "Assets/Scripts/LevelSO.cs": _so("LevelSO", "public List<string> Tiles;\npublic int[] Par;"),
        "Assets/Scripts/LevelSO.cs.meta": meta(level),
        "Assets/Scripts/LevelSpawner.cs": mono_script(
            "LevelSpawner",
            "public LevelSO Level;\nvoid Awake() {\n  if (Level.Par.Length != 4) {\n"
            '    Debug.LogError("Level could not be loaded: back to the main menu");\n'
            '    SceneManager.LoadScene("Main Menu");\n  }\n}',
        ),
        "Assets/Scripts/LevelSpawner.cs.meta": meta(spawner),
        "Assets/Scripts/MainMenu.cs": mono_script(
            "MainMenu",
            '// the main menu: loading a level from its list\nvoid Play() { SceneManager.LoadScene("Game"); }',
        ),
        "Assets/Scripts/MainMenu.cs.meta": meta(menu + "0"),
        "Assets/Scenes/Main Menu.unity": script_prefab("Main Menu", menu + "0"),
        "Assets/Scenes/Main Menu.unity.meta": meta("c1000000000000000000000000000004", "DefaultImporter"),
    }
    for n in range(1, 9):
        par = "" if n == 7 else "  Par: 01000000020000000300000005000000\n"
        files[f"Assets/Levels/{n}.asset"] = data_asset(level, str(n), f"  Tiles:\n  - Tiles/Grass\n{par}")
        files[f"Assets/Levels/{n}.asset.meta"] = meta(f"c10000000000000000000000000001{n:02d}", "NativeFormatImporter")
    return write_project(tmp_path, files)


def test_a_level_said_with_its_number_names_its_data(tmp_path: Path) -> None:
    """ "Loading level 7 sends me straight back to the main menu" had `7.asset` (the seventh level,
    its par list missing) outside the top 20, under every script saying "level" and "menu": a word
    said with a number names the file called by both (`Level 7.unity`, `Level_07.asset`) or by
    the number alone when its class says the word (`7.asset` of `LevelSO`:
    `named_files.files_numbered`), which ranks at NUMBERED_SHARE of the best: 4th -> 2nd here. Not
    the other levels, nor "M4A1" (a name's parts)."""
    root = _levels(tmp_path)
    assert _ranked(root, "Loading level 7 sends me straight back to the main menu", 5) == [
        "Assets/Scripts/MainMenu.cs",
        "Assets/Levels/7.asset",
        "Assets/Scripts/LevelSpawner.cs",
        "Assets/Scenes/Main Menu.unity",
        "Assets/Scripts/LevelSO.cs",
    ]
    ws = open_workspace(root, [(root, Config())])
    in_folder = ws.search("Loading level 7 sends me straight back", 3, path_prefix="/Assets/Levels", named=False)
    assert in_folder[0].path == "Assets/Levels/7.asset"  # a folder given with its slashes
    from indexer.query.named_files import _NUMBERED  # imported here: without it the ranking fails first

    assert _NUMBERED.findall("the M4A1's clip, level 07") == [("level", "07")]


def _windmills(tmp_path: Path) -> Path:
    """Levels as data assets listing their tiles by resource path, two of six with the windmill
    tile; the windmill's prefab, and scripts saying "level" often (a level select, a spawner)."""
    level = "d1000000000000000000000000000001"
    files = {
        "Assets/Scripts/LevelSO.cs": _so("LevelSO", "public List<string> TilePaths; // the level's tiles"),
        "Assets/Scripts/LevelSO.cs.meta": meta(level),
        "Assets/Scripts/LevelSelection.cs": mono_script(
            "LevelSelection",
            "public LevelSO[] Levels;\nvoid ShowLevels() { foreach (var level in Levels) AddLevel(level); }\n"
            "void AddLevel(LevelSO level) { /* a level's button: the levels unlocked */ }",
        ),
        "Assets/Scripts/LevelSelection.cs.meta": meta("d1000000000000000000000000000002"),
        "Assets/Scripts/LevelSpawner.cs": mono_script(
            "LevelSpawner", "public LevelSO Level;\nvoid SpawnLevel() { /* each level's tiles, loaded by path */ }"
        ),
        "Assets/Scripts/LevelSpawner.cs.meta": meta("d1000000000000000000000000000003"),
        "Assets/Scripts/UILevel.cs": mono_script("UILevel", "public Label LevelName; // a level in the level list"),
        "Assets/Scripts/UILevel.cs.meta": meta("d1000000000000000000000000000005"),
        "Assets/Tiles/Windmill Tile.prefab": _parts("Windmill", ["Blades", "Tower"]),
        "Assets/Tiles/Windmill Tile.prefab.meta": meta("d1000000000000000000000000000004", "PrefabImporter"),
    }
    for n in range(1, 7):
        tiles = ["All Grass", "Wall Left", "Wall Right", "Grass Ramp"] * 10 + (["Windmill Tile"] if n in (2, 5) else [])
        body = "  TilePaths:\n" + "".join(
            f"  - Tiles/{t}\n    Position: {{x: {i}, y: 0, z: 1}}\n" for i, t in enumerate(tiles)
        )
        files[f"Assets/Levels/{n}.asset"] = data_asset(level, str(n), body)
        files[f"Assets/Levels/{n}.asset.meta"] = meta(f"d10000000000000000000000000001{n:02d}", "NativeFormatImporter")
    return write_project(tmp_path, files)


def test_the_instances_of_a_class_named_that_hold_a_word_of_the_task(tmp_path: Path) -> None:
    """ "Which levels have the windmill in them?" had `10.asset` and `12.asset` (of `LevelSO`, whose
    tile lists hold `Tiles/Windmill Tile Variant`) outside the top 20 and 15th, under the scripts
    saying "level": a class the task names whose data assets differ by what they hold, of which
    the ones holding a word of the task at most half of them hold are the ones asked about
    (`pairing._Pairs.instances_holding`, at INSTANCE_SHARE of the class's score): 9th and 10th
    (here from under the windmill's prefab, at half the class's score). Not the levels without it."""
    root = _windmills(tmp_path)
    assert _ranked(root, "Which levels have the windmill in them?", 7) == [
        "Assets/Scripts/LevelSelection.cs",
        "Assets/Scripts/LevelSpawner.cs",
        "Assets/Scripts/UILevel.cs",
        "Assets/Scripts/LevelSO.cs",
        "Assets/Levels/2.asset",
        "Assets/Levels/5.asset",
        "Assets/Tiles/Windmill Tile.prefab",
    ]


def _frost(tmp_path: Path) -> Path:
    """Bullet impacts: an area effect's base and its frost subclass, a plain class whose radius its
    constructor takes; a modifier on the player building it with numbers; frost sounds and effects
    saying "frost" and "effect" more than the modifier does."""
    files = {
        "Assets/Scripts/AreaOfEffect.cs": (
            "public abstract class AreaOfEffect : ICollisionHandler\n{\n  public float Radius = 1;\n"
            "  public int BaseDamage = 10;\n  public AreaOfEffect(float radius, int damage) { Radius = radius; "
            "BaseDamage = damage; }\n  // every collider in the area of effect takes damage\n}\n"
        ),
        "Assets/Scripts/AreaOfEffect.cs.meta": meta("e1000000000000000000000000000001"),
        "Assets/Scripts/Frost.cs": (
            "public class Frost : AreaOfEffect\n{\n  public Frost(float radius, int damage) : base(radius, damage) {}\n"
            "  // frost bullets slow what the area of effect holds\n}\n"
        ),
        "Assets/Scripts/Frost.cs.meta": meta("e1000000000000000000000000000002"),
        "Assets/Scripts/GunModifier.cs": mono_script(
            "GunModifier", "public Gun Gun;\nvoid Start() {\n  Gun.Impacts = new[] { new Frost(\n    1, 5) };\n}"
        ),
        "Assets/Scripts/GunModifier.cs.meta": meta("e1000000000000000000000000000003"),
        "Assets/Scripts/FrostSound.cs": mono_script(
            "FrostSound", "public AudioClip FrostEffect; // the frost bullets' effect sound, bigger when it hits"
        ),
        "Assets/Scripts/FrostSound.cs.meta": meta("e1000000000000000000000000000004"),
        "Assets/Scripts/EffectSpawner.cs": mono_script(
            "EffectSpawner", "public GameObject Effect; // spawns an effect where bullets hit, its area bigger"
        ),
        "Assets/Scripts/EffectSpawner.cs.meta": meta("e1000000000000000000000000000005"),
    }
    return write_project(tmp_path, files)


def test_a_plain_class_takes_its_values_where_it_is_built(tmp_path: Path) -> None:
    """ "Make the frost bullets' area of effect bigger" ranked the area effect's base and `Frost.cs`
    first and `GunModifierApplier.cs`, whose `new Frost(1, ...)` passes the radius, nowhere: a
    plain class among the best (no asset carries it) takes its values where it is built with a
    number (`pairing._Pairs.constructors_of_values`), for a task asking a value or more or less of
    one; the few files building it rank at PAIRED_SHARE of its score: 5th (here 5th -> 3rd)."""
    root = _frost(tmp_path)
    assert _ranked(root, "Make the frost bullets' area of effect bigger", 5) == [
        "Assets/Scripts/AreaOfEffect.cs",
        "Assets/Scripts/Frost.cs",
        "Assets/Scripts/GunModifier.cs",
        "Assets/Scripts/FrostSound.cs",
        "Assets/Scripts/EffectSpawner.cs",
    ]

"""A twenty-third trial on unseen games (docs/retrieval.md, "Session 53, a twenty-third trial"):
what it found wrong, on small projects of its own."""

from __future__ import annotations

from pathlib import Path

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

THROWER_GUID = "3a1f0c7e5b2d48e9a6c4f1b3d5e7a901"
DAMAGER_GUID = "7c2e4a6b8d0f41a3b5c7e9f1a2b4c6d8"
STOPPER_GUID = "9e8d7c6b5a4f43e2d1c0b9a8f7e6d5c4"
SETTINGS_GUID = "5b7d9f1a3c5e47b9d1f3a5c7e9b1d3f5"
AXE = "Assets/Resources/Weapons/Axe.prefab"


def _sound_prefab(name: str) -> str:
    """A prefab of one object playing a sound: a transform, an audio source and the project's
    script that stops the object when its clip has played."""
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n"
        "  - component: {fileID: 102}\n  - component: {fileID: 103}\n"
        f"  m_Name: {name}\n  m_IsActive: 1\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children: []\n  m_Father: {fileID: 0}\n"
        "--- !u!82 &102\nAudioSource:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
        "  m_PlayOnAwake: 0\n  m_Volume: 1\n  Loop: 0\n"
        "--- !u!114 &103\nMonoBehaviour:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {STOPPER_GUID}, type: 3}}\n  m_Name: \n"
    )


def _pickup_prefab() -> str:
    """An axe lying in the world: drawn, touched (a collider) and playing a sound when taken."""
    return (
        _sound_prefab("AxePickup").replace(
            "  - component: {fileID: 103}\n", "  - component: {fileID: 103}\n  - component: {fileID: 104}\n"
        )
        + "--- !u!58 &104\nCircleCollider2D:\n  m_GameObject: {fileID: 100}\n  m_Enabled: 1\n  m_IsTrigger: 1\n"
    )


def _axe_game(tmp_path: Path) -> Path:
    """A platformer whose hero throws an axe: the thrower, the axe's damage dealer on its prefab,
    and a pool of sound prefabs named for the game's events (the throw, the axe's hit, a jump),
    each an audio source with the project's script that stops it."""
    files = {
        "Assets/Scripts/Thrower.cs": mono_script(
            "Thrower",
            "    public GameObject axePrefab;\n    public float cooldown = 0.5f;\n"
            "    // throw the axe forward from the hand\n    public void Throw() { }",
        ),
        "Assets/Scripts/Thrower.cs.meta": meta(THROWER_GUID),
        "Assets/Scripts/Damager.cs": mono_script(
            "Damager",
            "    public int damage = 1;\n    public float velocity = 5f;\n"
            "    // hurt what the weapon touches\n    void OnTriggerEnter2D(Collider2D other) { }",
        ),
        "Assets/Scripts/Damager.cs.meta": meta(DAMAGER_GUID),
        "Assets/Scripts/SoundStopper.cs": mono_script(
            "SoundStopper",
            "    // turn the object off once its clip has played\n    void Update() { }",
        ),
        "Assets/Scripts/SoundStopper.cs.meta": meta(STOPPER_GUID),
        AXE: script_prefab("Axe", DAMAGER_GUID, "  damage: 4\n  velocity: 17\n"),
        "Assets/Resources/Sounds/ThrowAxe.prefab": _sound_prefab("ThrowAxe"),
        "Assets/Resources/Sounds/AxeHit.prefab": _sound_prefab("AxeHit"),
        "Assets/Resources/Sounds/PlayerJump.prefab": _sound_prefab("PlayerJump"),
        "Assets/Resources/Items/AxePickup.prefab": _pickup_prefab(),
    }
    return write_project(tmp_path, files)


def test_sound_prefabs_are_no_answer_to_a_task_about_what_they_are_named_for(tmp_path: Path) -> None:
    """ "How hard does the thrown axe hit": the thrower ranks first, above the sound prefab named
    for the axe's hit (an audio source and the script stopping it), which ranks as a particle
    effect named for a hit does (it ranked first, its stopping script second, the thrower third)."""
    root = _axe_game(tmp_path)
    assert _ranked(root, "how hard does the thrown axe hit", 1) == ["Assets/Scripts/Thrower.cs"]


def test_a_sound_is_an_audio_source_on_nothing_drawn_touched_or_moved(tmp_path: Path) -> None:
    """`priors.is_sound`, `file_roles._is_sound`: a prefab whose objects hold an audio source and
    whose project scripts are helpers many files carry is a sound; one holding a collider besides
    (an axe lying in the world, playing a sound when taken) is a thing, and one carrying a script
    of its own (the game's settings object holding the music's audio source) is that script's."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.file_roles import _is_sound
    from indexer.query.workspace import open_workspace

    root = _axe_game(tmp_path)
    settings = _sound_prefab("GameSettings").replace(STOPPER_GUID, SETTINGS_GUID)
    write_project(
        root,
        {
            "Assets/Resources/GameSettings.prefab": settings,
            "Assets/Scripts/GameSettings.cs": mono_script("GameSettings", "    public bool metricUnits = true;"),
            "Assets/Scripts/GameSettings.cs.meta": meta(SETTINGS_GUID),
        },
    )
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    paths = ("Sounds/ThrowAxe", "Items/AxePickup", "Weapons/Axe", "GameSettings")
    sounds = {p: _is_sound(project, f"Assets/Resources/{p}.prefab") for p in paths}
    assert sounds == {"Sounds/ThrowAxe": True, "Items/AxePickup": False, "Weapons/Axe": False, "GameSettings": False}


def test_a_task_about_sounds_still_finds_the_sound_prefabs(tmp_path: Path) -> None:
    """ "Which sound plays when the axe is thrown": the sound prefabs are the answer."""
    root = _axe_game(tmp_path)
    assert _ranked(root, "which sound plays when the axe is thrown", 1) == ["Assets/Resources/Sounds/ThrowAxe.prefab"]


def _axis(name: str, positive: str, alt: str = "") -> str:
    """One axis of the Input Manager, as Unity writes it."""
    return (
        f"  - serializedVersion: 3\n    m_Name: {name}\n    descriptiveName: \n    descriptiveNegativeName: \n"
        f"    negativeButton: \n    positiveButton: {positive}\n    altNegativeButton: \n"
        f"    altPositiveButton: {alt}\n    gravity: 1000\n    dead: 0.001\n    sensitivity: 1000\n"
        "    snap: 0\n    invert: 0\n    type: 0\n    axis: 0\n    joyNum: 0\n"
    )


def _talking_game(tmp_path: Path) -> Path:
    """A platformer on Unity's legacy input: the hero reads its buttons by the Input Manager's axis
    names, kept in constants (`Fire2` is C or the right mouse button), and raises an interaction
    that villagers answer by talking; a key item opens doors, a tutorial sign tells the controls."""
    manager = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!13 &1\nInputManager:\n  m_ObjectHideFlags: 0\n"
        "  serializedVersion: 2\n  m_Axes:\n"
        + _axis("Jump", "z", "space")
        + _axis("Fire1", "x", "mouse 0")
        + _axis("Fire2", "c", "mouse 1")
        + _axis("Submit", "return")
    )
    files = {
        "ProjectSettings/InputManager.asset": manager,
        "Assets/Scripts/Hero.cs": mono_script(
            "Hero",
            '    const string JumpInput = "Jump";\n    const string UseInput = "Fire2";\n'
            "    public event System.Action Interaction = () => { };\n"
            "    void Update()\n    {\n        if (Input.GetButtonDown(JumpInput)) Jump();\n"
            "        if (Input.GetButtonDown(UseInput)) Interaction();\n    }\n    void Jump() { }",
        ),
        "Assets/Scripts/Villager.cs": mono_script(
            "Villager",
            "    public string[] lines;\n    // talk to the hero when they interact nearby: show the lines one by one\n"
            "    public void Talk() { }",
        ),
        "Assets/Scripts/DoorKey.cs": mono_script(
            "DoorKey",
            "    public int keyIndex;\n    // the key the hero picks up: a door of its colour opens for them\n"
            "    void OnTriggerEnter2D(Collider2D other) { }",
        ),
        "Assets/Scripts/TutorialSign.cs": mono_script(
            "TutorialSign",
            '    public string text = "Press C to talk to people";\n'
            "    // a sign telling the player the controls\n    void Start() { }",
        ),
    }
    return write_project(tmp_path, files)


def test_a_key_said_is_read_by_the_input_manager_axis_it_is_bound_to(tmp_path: Path) -> None:
    """ "Press C to talk to people: where is that key bound and where is it read": C is the
    Input Manager's `Fire2` (a positive button), which the hero reads by that name through a
    constant; both rank in the first three (neither was in the first five: the key item, the sign
    and the villager said the task's words)."""
    root = _talking_game(tmp_path)
    text = "The tutorial says to press C to talk to people. Where is that key bound and where is it read?"
    ranked = _ranked(root, text, 3)
    assert {"ProjectSettings/InputManager.asset", "Assets/Scripts/Hero.cs"} <= set(ranked)
    # a task saying the key without asking which key it is asks for the code reading it alone
    ranked = _ranked(root, "Nothing happens when I press C next to a villager", 10)
    assert "Assets/Scripts/Hero.cs" in ranked[:3] and "ProjectSettings/InputManager.asset" not in ranked


WEAPON_GUID = "2b4d6f8a0c1e43f5a7b9d1f3e5c7a9b1"
UPGRADE_GUID = "4d6f8a0c2e1b45a7c9e1f3a5b7d9c1e3"
SICKLES = "Assets/Data/Weapons/Sickles.asset"


def _weapon(name: str, rid: int, settings_class: str, data: str) -> str:
    """A weapon's data asset whose attack settings are a [SerializeReference] object, as Unity
    writes one: the field holds its id, `references:` its class and data."""
    return data_asset(
        WEAPON_GUID,
        name,
        f"  weaponName: {name}\n  settings:\n    rid: {rid}\n  references:\n    version: 2\n    RefIds:\n"
        f"    - rid: {rid}\n      type: {{class: {settings_class}, ns: Game, asm: Assembly-CSharp}}\n"
        f"      data:\n{data}",
    )


def _orbit_game(tmp_path: Path) -> Path:
    """A survivors-like game: each weapon is a `WeaponData` asset whose attack settings are a
    [SerializeReference] object of one of several classes (an orbit's damage, speed and reload; a
    lance's reach); tiers of an orbit speed upgrade are data assets with an `orbitSpeedPercent`;
    the orbiting weapon's script moves the blades around the player at the orbit speed."""
    settings = (
        "namespace Game\n{{\n    [System.Serializable]\n    public class {} : IAttackSettings\n    {{\n{}    }}\n}}\n"
    )
    files = {
        "Assets/Scripts/IAttackSettings.cs": "namespace Game\n{\n    public interface IAttackSettings { }\n}\n",
        "Assets/Scripts/OrbitSettings.cs": settings.format(
            "OrbitSettings",
            "        public int damage = 3;\n        public float orbitSpeed = 180f;\n"
            "        public float reloadTime = 6f;\n",
        ),
        "Assets/Scripts/LanceSettings.cs": settings.format("LanceSettings", "        public float reach = 4f;\n"),
        "Assets/Scripts/WeaponData.cs": (
            "using UnityEngine;\n\nnamespace Game\n{\n    [CreateAssetMenu]\n"
            "    public class WeaponData : ScriptableObject\n    {\n        public string weaponName;\n"
            "        [SerializeReference] public IAttackSettings settings;\n    }\n}\n"
        ),
        "Assets/Scripts/WeaponData.cs.meta": meta(WEAPON_GUID),
        "Assets/Scripts/OrbitUpgrade.cs": (
            "using UnityEngine;\n\n[CreateAssetMenu]\npublic class OrbitUpgrade : ScriptableObject\n{\n"
            "    public float orbitSpeedPercent;\n}\n"
        ),
        "Assets/Scripts/OrbitUpgrade.cs.meta": meta(UPGRADE_GUID),
        "Assets/Scripts/Orbiter.cs": mono_script(
            "Orbiter",
            "    public float orbitSpeed;\n    public int damage;\n"
            "    // move the blades around the player at the orbit speed; deal their damage to what they touch\n"
            "    void Update() { transform.Rotate(0, 0, orbitSpeed * Time.deltaTime); }\n"
            '    void OnTriggerEnter2D(Collider2D other) { other.SendMessage("TakeDamage", damage); }',
        ),
        "Assets/Scripts/SickleSwing.cs": mono_script(
            "SickleSwing",
            "    public int damage = 2;\n    public float arc = 90f;\n"
            "    // the farmer's sickle: swing it in an arc and deal its damage\n    public void Swing() { }",
        ),
        SICKLES: _weapon(
            "Sickles", 1001, "OrbitSettings", "        damage: 4\n        orbitSpeed: -100\n        reloadTime: 6\n"
        ),
        "Assets/Data/Weapons/Lance.asset": _weapon("Lance", 1002, "LanceSettings", "        reach: 5\n"),
        "Assets/Data/Upgrades/Vortex Tier.asset": data_asset(UPGRADE_GUID, "Vortex Tier", "  orbitSpeedPercent: 10\n"),
    }
    return write_project(tmp_path, files)


def test_a_data_asset_holding_a_serialize_reference_object_has_its_fields(tmp_path: Path) -> None:
    """ "Where are the sickles' damage and orbit speed set": `Sickles.asset`, whose attack settings
    are a [SerializeReference] `OrbitSettings` (`damage`, `orbitSpeed`), ranks first: its outline
    shows the field holding the object, not the object's fields, which its class declares (the
    orbit settings' class and the orbiter ranked above it)."""
    root = _orbit_game(tmp_path)
    assert _ranked(root, "where are the sickles' damage and orbit speed set", 1) == [SICKLES]


CURVE_GUID = "0c2e4a6b8d1f43a5c7e9b1d3f5a7c9e1"
HEROES_GUID = "1d3f5a7c9e2b44b6d8f0a2c4e6b8d0f2"
CURVE_ASSET = "Assets/Data/Heroes/KnightLevelCurve.asset"
CURVE_ASSET_GUID = "2e4a6c8e0b3f45c7e9a1b3d5f7c9e1a3"


def _level_game(tmp_path: Path) -> Path:
    """A survivors-like game: the hero's level is computed from the experience gained through a
    curve (`LevelCurve`: a multiplier and an exponent) whose one data asset the hero's data asset
    holds; a level bar shows the level, a level-up screen offers upgrades, an experience gem adds
    experience when picked up."""
    files = {
        "Assets/Scripts/LevelCurve.cs": (
            "using UnityEngine;\n\n[CreateAssetMenu]\npublic class LevelCurve : ScriptableObject\n{\n"
            "    public float multiplier = 20f;\n    public float exponent = 2.2f;\n}\n"
        ),
        "Assets/Scripts/LevelCurve.cs.meta": meta(CURVE_GUID),
        "Assets/Scripts/HeroData.cs": (
            "using UnityEngine;\n\n[CreateAssetMenu]\npublic class HeroData : ScriptableObject\n{\n"
            "    public int health = 100;\n    public LevelCurve levelCurve;\n}\n"
        ),
        "Assets/Scripts/HeroData.cs.meta": meta(HEROES_GUID),
        "Assets/Scripts/HeroLevel.cs": (
            "public class HeroLevel\n{\n    private readonly LevelCurve _curve;\n    private float _experience;\n"
            "    public HeroLevel(LevelCurve curve) { _curve = curve; }\n"
            "    // the experience needed to reach a level, from the curve\n"
            "    public float ExperienceFor(int level) =>\n"
            "        _curve.multiplier * UnityEngine.Mathf.Pow(level, _curve.exponent);\n"
            "    public void AddExperience(float amount) { _experience += amount; }\n}\n"
        ),
        "Assets/Scripts/LevelBar.cs": mono_script(
            "LevelBar",
            "    public UnityEngine.UI.Image fill;\n    // show the level and the experience toward the next one",
        ),
        "Assets/Scripts/LevelUpScreen.cs": mono_script(
            "LevelUpScreen", "    // when leveling up, pause and offer three upgrades\n    public void Show() { }"
        ),
        "Assets/Scripts/ExperienceGem.cs": mono_script(
            "ExperienceGem", "    public int experience = 5;\n    // adds its experience to the hero when picked up"
        ),
        CURVE_ASSET: data_asset(CURVE_GUID, "KnightLevelCurve", "  multiplier: 20\n  exponent: 2.2\n"),
        "Assets/Data/Heroes/Knight.asset": data_asset(
            HEROES_GUID,
            "Knight",
            f"  health: 100\n  levelCurve: {{fileID: 11400000, guid: {CURVE_ASSET_GUID}, type: 2}}\n",
        ),
        CURVE_ASSET + ".meta": meta(CURVE_ASSET_GUID, "NativeFormatImporter"),
    }
    return write_project(tmp_path, files)


def test_a_scripts_lone_settings_asset_ranks_with_it(tmp_path: Path) -> None:
    """ "Leveling up gets too slow; make the experience curve flatter": the hero's level class
    reads a `LevelCurve`, whose one data asset (`KnightLevelCurve.asset`, held by the hero's data
    asset, by no prefab or scene, named alike) holds the curve's numbers; it ranks right after the
    class (it ranked fifth: the task asks for a change, not where a value is set, and the asset is
    not named as its class)."""
    root = _level_game(tmp_path)
    text = "Leveling up gets too slow after the first few levels; make the experience curve flatter"
    ranked = _ranked(root, text, 3)
    assert CURVE_ASSET in ranked

"""A fourteenth trial on two unseen games (docs/retrieval.md, session 51): what it found wrong, on
small projects of its own."""

from __future__ import annotations

import json
from pathlib import Path

from indexer.query import input_axes, synonyms

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def _dungeon(tmp_path: Path) -> Path:
    """A dungeon crawler's combat scripts: the player's health characteristic with its maximum
    (`ValueMax`, `AddValueMax`), the enemy's attack state lowering it, the enemy's data (its
    `maxHealth`), and the enemy's statistics, damage and death states, which say "enemy" and
    "health" everywhere but never "max"."""
    files = {
        "Assets/Scripts/Player/CharacteristicHealth.cs": (
            "public class CharacteristicHealth\n{\n    public int Value { get; set; }\n"
            "    public int ValueMax { get; set; }\n"
            "    public CharacteristicHealth(int value) { Value = value; ValueMax = value; }\n"
            "    public void AddValue(int value) { Value += value; }\n"
            "    public void AddValueMax(int value) { ValueMax += value; }\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyAttackState.cs": (
            "public class EnemyAttackState : EnemyState\n{\n    public override void Enter()\n    {\n"
            "        base.Enter();\n        PlayerStatistic.Instance.Health.AddValueMax(-1);\n"
            "        IsAbilityDone = true;\n    }\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyData.cs": (
            'using UnityEngine;\n[CreateAssetMenu(menuName = "Data/Enemy Data")]\n'
            "public class EnemyData : ScriptableObject\n{\n    public string raceName;\n    public float maxHealth;\n"
            "    public float movementSpeed;\n    public float attackDistance;\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyStatistic.cs": (
            "public class EnemyStatistic\n{\n    private float _health;\n"
            "    public float Health { get => _health; set => _health = value; }\n"
            "    public bool IsDead => Health <= 0;\n"
            "    // the enemy's health goes down when a weapon hits it\n"
            "    public void TakeHit(float damage) { Health -= damage; }\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyDamageState.cs": (
            "public class EnemyDamageState : EnemyState\n{\n"
            "    // the enemy flinches when hit; its health is already down\n"
            "    public override void Enter() { base.Enter(); Debug.Log(EnemyStatistic.Health); }\n}\n"
        ),
        "Assets/Scripts/Enemy/EnemyDeathState.cs": (
            "public class EnemyDeathState : EnemyState\n{\n"
            "    // no health left: the enemy stops and turns red\n"
            "    public override void Enter() { base.Enter(); Agent.isStopped = true; }\n}\n"
        ),
    }
    return write_project(tmp_path, files)


def test_maximum_searches_the_max_code_names_it_by(tmp_path: Path) -> None:
    """ "Enemies hit me but my health never goes down, only my maximum health drops by one" had the
    enemy's attack state (`Health.AddValueMax(-1)` where it means the health itself) 9th under
    the enemy's health and state scripts: the task's "maximum" met nothing, as code says `max`
    (`maxHealth`, `AddValueMax`). "maximum" and "minimum" are searched as `max` and `min`, and
    those as the whole words, as a verb's irregular forms are (`synonyms._SHORT`): here the
    attack state 6th -> 5th for the trial's words, the enemy's data 3rd -> 2nd for its maximum
    health, above the enemy's statistics saying "health" more."""
    assert synonyms.forms("maximum") == ("max",)
    assert synonyms.forms("max") == ("maximum",)
    assert synonyms.forms("minimum") == ("min",)
    assert synonyms.forms("min") == ("minimum",)
    root = _dungeon(tmp_path)
    bug = _ranked(root, "Enemies hit me but my health never goes down, only my maximum health drops by one", 5)
    assert bug[4] == "Assets/Scripts/Enemy/EnemyAttackState.cs"
    assert _ranked(root, "Where is an enemy's maximum health set?", 3) == [
        "Assets/Scripts/Player/CharacteristicHealth.cs",
        "Assets/Scripts/Enemy/EnemyData.cs",
        "Assets/Scripts/Enemy/EnemyStatistic.cs",
    ]


def _actions(name: str, actions: dict[str, str]) -> str:
    """An Input System actions asset with one map of buttons (action -> keyboard control)."""
    return json.dumps(
        {
            "name": name,
            "maps": [
                {
                    "name": "Gameplay",
                    "id": "00000000-0000-0000-0000-000000000001",
                    "actions": [
                        {"name": a, "type": "Button", "id": f"00000000-0000-0000-0001-{i:012d}"}
                        for i, a in enumerate(actions)
                    ],
                    "bindings": [
                        {
                            "name": "",
                            "id": f"00000000-0000-0000-0002-{i:012d}",
                            "path": f"<Keyboard>/{key}",
                            "interactions": "",
                            "processors": "",
                            "groups": "",
                            "action": a,
                            "isComposite": False,
                            "isPartOfComposite": False,
                        }
                        for i, (a, key) in enumerate(actions.items())
                    ],
                }
            ],
            "controlSchemes": [],
        },
        indent=4,
    )


def _weapons(tmp_path: Path, own_assets: int = 1) -> Path:
    """A game on the Input System: its own actions asset binding `Take` to F and `Interact` to E
    (`own_assets` of them), an XR package sample's actions asset, an input reader forwarding the
    actions as events, and the weapon scripts a "pick up a weapon" task matches by its words."""
    files = {
        "Assets/Samples/XR Interaction Toolkit/2.2.0/Starter Assets/XRI Default Input Actions.inputactions": _actions(
            "XRI Default Input Actions", {"Select": "g", "Activate": "t"}
        ),
        "Assets/Scripts/Input/InputReader.cs": (
            "using System;\nusing UnityEngine;\nusing UnityEngine.InputSystem;\n"
            "public class InputReader : ScriptableObject, GameInput.IGameplayActions\n{\n"
            "    public event Action TakeEvent;\n    public event Action InteractEvent;\n"
            "    public void OnTake(InputAction.CallbackContext context)\n"
            "    {\n        if (context.performed) TakeEvent?.Invoke();\n    }\n"
            "    public void OnInteract(InputAction.CallbackContext context)\n"
            "    {\n        if (context.performed) InteractEvent?.Invoke();\n    }\n}\n"
        ),
        "Assets/Scripts/Weapons/WeaponPickup.cs": mono_script(
            "WeaponPickup",
            "    public WeaponType weaponType;\n    // the weapon lying on its stand; the player picks it up\n"
            "    public void OnGrab() { WeaponController.ChooseWeapon(weaponType); Destroy(gameObject); }",
        ),
        "Assets/Scripts/Weapons/WeaponController.cs": mono_script(
            "WeaponController",
            "    public static WeaponType current;\n    // the weapon the player holds\n"
            "    public static void ChooseWeapon(WeaponType weapon) { current = weapon; }",
        ),
        "Assets/Scripts/Weapons/WeaponType.cs": "public enum WeaponType { Sword, Spear, Hammer, Bow }\n",
    }
    for i in range(own_assets):
        name = "GameInput" if i == 0 else f"MenuInput{i}"
        files[f"Assets/Input/{name}.inputactions"] = _actions(name, {"Take": "f", "Interact": "e"})
        guid = f"e1400000000000000000000000000{i:03d}"
        files[f"Assets/Input/{name}.inputactions.meta"] = meta(guid, "ScriptedImporter")
    return write_project(tmp_path, files)


_WHICH_KEY = "Which key picks up a weapon, and where is that key set?"


def test_which_key_ranks_the_projects_own_actions(tmp_path: Path) -> None:
    """ "Which key picks up a weapon, and where is that key set?" had the game's actions asset,
    binding `Take` to F, out of the top 20: the task names no action (it says "picks up", the
    asset `Take`), so the rule raising an asset whose action the task names did not apply. A task
    asking which key (not "button": a menu's as often) raises the project's one actions asset of
    its own, not a package sample's, level with the best match (`input_axes._raise_own_actions`):
    second here under the pickup's script (out without the rule), the sample's asset nowhere."""
    assert "button" not in input_axes.KEYBOARD_WORDS and "key" in input_axes.KEYBOARD_WORDS
    assert _ranked(_weapons(tmp_path), _WHICH_KEY, 20) == [
        "Assets/Scripts/Weapons/WeaponPickup.cs",
        "Assets/Input/GameInput.inputactions",
        "Assets/Scripts/Weapons/WeaponController.cs",
        "Assets/Scripts/Weapons/WeaponType.cs",
    ]


def test_which_key_leaves_two_actions_assets_alone(tmp_path: Path) -> None:
    """With two actions assets of its own, which one binds the key the task does not say: neither
    is raised, and neither matches a word of the task."""
    assert _ranked(_weapons(tmp_path, own_assets=2), _WHICH_KEY, 20) == [
        "Assets/Scripts/Weapons/WeaponPickup.cs",
        "Assets/Scripts/Weapons/WeaponController.cs",
        "Assets/Scripts/Weapons/WeaponType.cs",
    ]

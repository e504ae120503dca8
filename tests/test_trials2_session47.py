"""A new user's trial on two unseen games, on code questions (docs/retrieval.md, session 47):
what it found wrong, each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.keys_pressed import keys_said
from indexer.query.synonyms import excess, spellings

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked


def _tanks(tmp_path: Path) -> Path:
    """A tank game: each bot tank a prefab holding its settings asset (speed, the interval between
    shots), a shooting script reading the interval, a pathfinding script saying "tank" and "enemy"
    many times, and a test copy of the fast tank holding the passive settings."""
    bot, settings, shoot = (
        "a4700000000000000000000000000001",
        "a4700000000000000000000000000002",
        "a470000000000000000000000000000a",
    )
    fast, passive, path = (
        "a4700000000000000000000000000003",
        "a4700000000000000000000000000004",
        "a4700000000000000000000000000005",
    )
    parts = "".join(
        f"--- !u!1 &{200 + i}\nGameObject:\n  m_Name: {n}\n  m_IsActive: 1\n"
        for i, n in enumerate(("Enemy Tank Body", "Enemy Tank Turret", "Enemy Tank Tracks"))
    )
    held = "  settings: {{fileID: 11400000, guid: {}, type: 2}}\n" + parts
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/BotManager.cs": mono_script(
                "BotManager", "public BotSettings settings; public float speed;"
            ),
            "Assets/Scripts/BotManager.cs.meta": meta(bot),
            "Assets/Scripts/BotSettings.cs": (
                "using UnityEngine;\npublic class BotSettings : ScriptableObject\n{\n"
                "    public float speed = 5f;\n    public Vector2 shootInterval = new Vector2(1f, 2f);\n}\n"
            ),
            "Assets/Scripts/BotSettings.cs.meta": meta(settings),
            "Assets/Scripts/BotShoot.cs": mono_script(
                "BotShoot", "    public BotManager bot;\n    void Update() { /* fire at the target */ }"
            ),
            "Assets/Scripts/BotShoot.cs.meta": meta(shoot),
            "Assets/Scripts/PathFindingBotInput.cs": mono_script(
                "PathFindingBotInput",
                "    // the enemy tank finds a path to the player's tank\n    public float enemyTankSpeed;",
            ),
            "Assets/Scripts/PathFindingBotInput.cs.meta": meta(path),
            "Assets/Prefabs/Fast Tank.prefab": script_prefab("Fast Tank", bot, held.format(fast)),
            "Assets/Prefabs/Fast Tank.prefab.meta": meta("a4700000000000000000000000000006", "PrefabImporter"),
            "Assets/Prefabs/Test/Test Fast Tank.prefab": script_prefab("Test Fast Tank", bot, held.format(passive)),
            "Assets/Prefabs/Test/Test Fast Tank.prefab.meta": meta(
                "a4700000000000000000000000000007", "PrefabImporter"
            ),
            "Assets/Prefabs/Sniper Tank.prefab": script_prefab("Sniper Tank", path),
            "Assets/Prefabs/Sniper Tank.prefab.meta": meta("a4700000000000000000000000000008", "PrefabImporter"),
            "Assets/Settings/GFastSettings.asset": data_asset(
                settings, "GFastSettings", "  speed: 9\n  shootInterval: {x: 0.65, y: 1}\n"
            ),
            "Assets/Settings/GFastSettings.asset.meta": meta(fast, "NativeFormatImporter"),
            "Assets/Settings/PassiveSettings.asset": data_asset(
                settings, "PassiveSettings", "  speed: 8\n  shootInterval: {x: 1, y: 2}\n"
            ),
            "Assets/Settings/PassiveSettings.asset.meta": meta(passive, "NativeFormatImporter"),
        },
    )


def test_more_or_less_before_a_quality_asks_for_more_or_less_of_it() -> None:
    """ "more often" and "less often" ask for more or less of a quality as "too often" does; "more
    health" names no quality's adjective."""
    assert excess("Make the fast enemy tanks shoot less often") == ("often",)
    assert excess("walk more slowly") == ("slowly",)
    assert excess("give the base more health") == ()


def test_less_often_asks_for_less_of_a_value_a_held_settings_asset_holds(tmp_path: Path) -> None:
    """ "Make the fast enemy tanks shoot less often" ranked `GFastSettings.asset` (the fast tank's
    settings, `shootInterval`) 12th in the trial: "less often" was not read as asking for less of a
    value, so the data asset the best prefab holds was not raised (`pairing._Pairs.data_of_holders`)
    and "often" searched no `interval`. Here 6th -> 5th."""
    root = _tanks(tmp_path)
    assert _ranked(root, "Make the fast enemy tanks shoot less often") == [
        "Assets/Prefabs/Fast Tank.prefab",
        "Assets/Prefabs/Test/Test Fast Tank.prefab",
        "Assets/Scripts/PathFindingBotInput.cs",
        "Assets/Scripts/BotManager.cs",
        "Assets/Settings/GFastSettings.asset",
        "Assets/Scripts/BotShoot.cs",
        "Assets/Prefabs/Sniper Tank.prefab",
        "Assets/Scripts/BotSettings.cs",
        "Assets/Settings/PassiveSettings.asset",
    ]


def _blocks(tmp_path: Path) -> Path:
    """A tank game's blocks: a block script adding the component that ends the game when its type
    says so, that component (carried by no prefab), a game manager, and a script winning the game
    on a death, which no code adds."""
    block, ends, manager = (
        "a4710000000000000000000000000001",
        "a4710000000000000000000000000002",
        "a4710000000000000000000000000003",
    )
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/BlockManager.cs": mono_script(
                "BlockManager",
                "    public bool fatal;\n    public int health;\n    public Transform gfxParent;\n"
                + "".join(
                    f"    public void UpdateWallGraphics{i}() {{ gfxParent.localScale = Vector3.one * {i}; }}\n"
                    for i in range(12)
                )
                + "    void Start()\n    {\n        if (fatal) gameObject.AddComponent<DeathEndsGame>();\n    }",
            ),
            "Assets/Scripts/BlockManager.cs.meta": meta(block),
            "Assets/Scripts/DeathEndsGame.cs": mono_script(
                "DeathEndsGame",
                "    // when this object's health runs out the game is over\n"
                "    void OnKilled() { GameManager.instance.GameOver(); }",
            ),
            "Assets/Scripts/DeathEndsGame.cs.meta": meta(ends),
            "Assets/Scripts/GameManager.cs": mono_script(
                "GameManager",
                "    public static GameManager instance;\n"
                "    public void GameOver() { }\n    public void GameWon() { }",
            ),
            "Assets/Scripts/GameManager.cs.meta": meta(manager),
            "Assets/Scripts/OnDeathWinsGame.cs": mono_script(
                "OnDeathWinsGame",
                "    // the boss's death wins the game\n    void OnKilled() { GameManager.instance.GameWon(); }",
            ),
            "Assets/Scripts/OnDeathWinsGame.cs.meta": meta("a4710000000000000000000000000004"),
            "Assets/Scripts/GameOverScreen.cs": mono_script(
                "GameOverScreen", "    // shown when the game ends: the base was destroyed\n    public void Show() { }"
            ),
            "Assets/Scripts/GameOverScreen.cs.meta": meta("a4710000000000000000000000000006"),
            "Assets/Prefabs/Block.prefab": script_prefab("Block", block, "  fatal: 0\n  health: 1\n"),
            "Assets/Prefabs/Block.prefab.meta": meta("a4710000000000000000000000000005", "PrefabImporter"),
        },
    )


def test_a_component_no_asset_carries_ranks_with_the_script_adding_it(tmp_path: Path) -> None:
    """ "Where is it decided that destroying the base ends the game?" ranked `DeathEndsGame.cs`
    first and `BlockManager.cs`, which adds it (`AddComponent<DeathEndsGame>()`) when the base's
    block type says the game ends on its death, outside the top 20: a component no prefab or scene
    carries is attached by the script adding it, which ranks at 0.8 of its score
    (`pairing._Pairs.adders_of_scripts`). 5th -> 3rd here; not `OnDeathWinsGame.cs`, which no code
    adds."""
    root = _blocks(tmp_path)
    assert _ranked(root, "Where is it decided that destroying the base ends the game?") == [
        "Assets/Scripts/DeathEndsGame.cs",
        "Assets/Scripts/GameOverScreen.cs",
        "Assets/Scripts/BlockManager.cs",
        "Assets/Scripts/GameManager.cs",
        "Assets/Scripts/OnDeathWinsGame.cs",
        "Assets/Prefabs/Block.prefab",
    ]


_ACTIONS = """{
    "name": "Controls",
    "maps": [
        {
            "name": "Player",
            "actions": [
                {"name": "BuyMenu", "type": "Button", "id": "1"},
                {"name": "Jump", "type": "Button", "id": "2"}
            ],
            "bindings": [
                {"name": "", "path": "<Keyboard>/b", "action": "BuyMenu", "groups": ""},
                {"name": "", "path": "<Keyboard>/space", "action": "Jump", "groups": ""}
            ]
        }
    ],
    "controlSchemes": []
}
"""


def _shop(tmp_path: Path) -> Path:
    """A tower game's shop: an input listener receiving the buy-menu action as `OnBuyMenu` and
    telling the HUD to open the tower shop, the HUD, the shop's menu script and its prefab."""
    hud, menu = "a4720000000000000000000000000001", "a4720000000000000000000000000002"
    return write_project(
        tmp_path,
        {
            "Assets/Input/Controls.inputactions": _ACTIONS,
            "Assets/Input/Controls.inputactions.meta": meta("a4720000000000000000000000000003", "ScriptedImporter"),
            "Assets/Scripts/PlayerEventListener.cs": (
                "using UnityEngine;\nusing UnityEngine.InputSystem;\n"
                "public class PlayerEventListener : MonoBehaviour\n{\n    public HudManager hud;\n"
                "    private void OnBuyMenu(InputValue value) { if (!hud.IsPaused()) hud.OpenBuyMenu(); }\n"
                "    private void OnJump(InputValue value) { }\n}\n"
            ),
            "Assets/Scripts/PlayerEventListener.cs.meta": meta("a4720000000000000000000000000004"),
            "Assets/Scripts/HudManager.cs": mono_script(
                "HudManager",
                "    public GameObject towerShopPrefab;\n    public bool IsPaused() { return false; }\n"
                "    // opens the tower shop over the game\n"
                "    public void OpenBuyMenu() { Instantiate(towerShopPrefab); }",
            ),
            "Assets/Scripts/HudManager.cs.meta": meta(hud),
            "Assets/Scripts/TowerShopMenu.cs": mono_script(
                "TowerShopMenu",
                "    // the tower shop: each button buys a tower\n    public void ClickBuy(string tower) { }\n"
                "    public void ClickExit() { }",
            ),
            "Assets/Scripts/TowerShopMenu.cs.meta": meta(menu),
            "Assets/Prefabs/TowerShop.prefab": script_prefab("TowerShop", menu),
            "Assets/Prefabs/TowerShop.prefab.meta": meta("a4720000000000000000000000000005", "PrefabImporter"),
            "Assets/Prefabs/Hud.prefab": script_prefab("Hud", hud),
            "Assets/Prefabs/Hud.prefab.meta": meta("a4720000000000000000000000000006", "PrefabImporter"),
        },
    )


def test_the_keys_a_task_says_are_pressed() -> None:
    """A letter pressed is a capital ("press B"; "press a button" names none), a named key any case."""
    assert keys_said("When I press B, what opens the tower shop?") == {"b"}
    assert keys_said("Pressing space or hitting Escape") == {"space", "escape"}
    assert keys_said("press a button to open the tower shop") == set()


def test_a_key_pressed_ranks_the_scripts_receiving_its_action(tmp_path: Path) -> None:
    """ "When I press B, what opens the tower shop ...?" had `PlayerEventListener.cs` outside the
    top 20: the B key is bound to the `BuyMenu` action, which a `PlayerInput` sending messages
    calls as `OnBuyMenu(InputValue)`, and the task says neither. A key the task says is pressed
    ranks the scripts receiving its actions at 0.8 of the best match (`keys_pressed`): 5th -> 4th
    here, over the HUD's prefab; the jump's action, another key's, raises nothing."""
    root = _shop(tmp_path)
    assert _ranked(root, "When I press B, what opens the tower shop?") == [
        "Assets/Scripts/TowerShopMenu.cs",
        "Assets/Prefabs/TowerShop.prefab",
        "Assets/Scripts/HudManager.cs",
        "Assets/Scripts/PlayerEventListener.cs",
        "Assets/Prefabs/Hud.prefab",
    ]


def _teams(tmp_path: Path) -> Path:
    """Sides whose colours the code spells `Color` (no file says "colour"): a side list holding
    each side's colour, and scripts saying "team" and "set"."""
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/Sides.cs": mono_script(
                "Sides", "    public Color[] sideColor;\n    public Color ColorOf(int side) { return sideColor[side]; }"
            ),
            "Assets/Scripts/Sides.cs.meta": meta("a4730000000000000000000000000001"),
            "Assets/Scripts/TeamIndexer.cs": mono_script(
                "TeamIndexer", "    public int team;\n    public void SetTeam(int team) { this.team = team; }"
            ),
            "Assets/Scripts/TeamIndexer.cs.meta": meta("a4730000000000000000000000000002"),
            "Assets/Scripts/TeamScore.cs": mono_script(
                "TeamScore", "    public int[] teamScores;\n    public void SetTeamScore(int team, int score) { }"
            ),
            "Assets/Scripts/TeamScore.cs.meta": meta("a4730000000000000000000000000003"),
        },
    )


def test_a_spelling_the_project_never_says_is_searched_in_the_one_it_does(tmp_path: Path) -> None:
    """ "Where are the team colours set?" in a project writing `Color` alone: "colours" searches
    `Color` as the same word (`synonyms.spellings`), so the list of the sides' colours ranks first
    (3rd without, under the scripts saying "team" and "set"). Not in a project saying "colour"
    anywhere: there the task's spelling is the project's word (a planet generator's
    `ApplyColours`, beside Unity's `Color` in every script)."""
    root = _teams(tmp_path)
    assert _ranked(root, "Where are the team colours set?") == [
        "Assets/Scripts/Sides.cs",
        "Assets/Scripts/TeamIndexer.cs",
        "Assets/Scripts/TeamScore.cs",
    ]


def test_the_other_spelling_of_a_word() -> None:
    """British and American spellings, either way; none for another word."""
    assert spellings("colours") == ("color",)
    assert spellings("gray") == ("grey",)
    assert spellings("team") == ()


def _walls(tmp_path: Path) -> Path:
    """Block types as one settings asset: a ScriptableObject class whose types say which ends the
    game on its death, its one asset, and scripts about the base, the game's end and destroying."""
    types = "a4740000000000000000000000000001"
    others = (
        ("EnemyBrain", "enemies drive toward the base, destroying walls: the game ends when they reach it"),
        ("GameManager", "the game ends with GameOver or GameWon"),
        ("BaseHealthBar", "the base's health bar"),
        ("Explosion", "destroying a tank or the base spawns an explosion"),
        ("GameOverScreen", "shown when the game ends"),
    )
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/BlockSettings.cs": _so(
                "BlockSettings",
                "    [System.Serializable] public class BlockType\n    {\n        public int health;\n"
                "        // destroying a block of this type ends the game (the base)\n"
                "        public bool endsGameOnDeath;\n    }\n    public BlockType[] blockTypes;",
            ),
            "Assets/Scripts/BlockSettings.cs.meta": meta(types),
            "Assets/Data/Blocks.asset": data_asset(
                types,
                "Blocks",
                "  blockTypes:\n  - health: 1\n    endsGameOnDeath: 0\n  - health: 4\n    endsGameOnDeath: 1\n",
            ),
            "Assets/Data/Blocks.asset.meta": meta("a4740000000000000000000000000002", "NativeFormatImporter"),
            **{f"Assets/Scripts/{n}.cs": mono_script(n, f"    // {c}\n    void Update() {{ }}") for n, c in others},
            **{
                f"Assets/Scripts/{n}.cs.meta": meta(f"a47400000000000000000000000001{i}")
                for i, (n, _) in enumerate(others)
            },
        },
    )


def test_a_data_class_among_the_best_ranks_its_one_asset(tmp_path: Path) -> None:
    """ "Where is it decided that destroying the base ends the game?" ranked `BlockSettings.cs`
    (its block types' `endsGameOnDeath`) 3rd and `BlockSettings.asset`, the one asset of that
    class, where the base's type says it, 19th: a ScriptableObject class among the three best
    scripts with one data asset, which no prefab or scene carries, has its values there, and the
    asset ranks at 0.8 of the class's score times its prior, as a script's one prefab does
    (`pairing._Pairs.data_of_scripts`). 6th -> 5th here, over a script saying fewer of the task's words."""
    root = _walls(tmp_path)
    assert _ranked(root, "Where is it decided that destroying the base ends the game?") == [
        "Assets/Scripts/BaseHealthBar.cs",
        "Assets/Scripts/GameManager.cs",
        "Assets/Scripts/BlockSettings.cs",
        "Assets/Scripts/GameOverScreen.cs",
        "Assets/Data/Blocks.asset",
        "Assets/Scripts/EnemyBrain.cs",
        "Assets/Scripts/Explosion.cs",
    ]


def _so(name: str, body: str) -> str:
    return f"using UnityEngine;\npublic class {name} : ScriptableObject\n{{\n{body}\n}}\n"

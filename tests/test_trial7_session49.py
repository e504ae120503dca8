"""A new user's trial on two unseen games (docs/retrieval.md, session 49): what it found wrong,
each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.keys_pressed import key_readers

from .conftest import meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked


def _race(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    """A kart game on the Input Manager: the kart HUD reads M (back to the menu) among its debug
    keys, the pause manager P; the main menu's scripts say "main menu" throughout."""
    files = {
        "Assets/Scripts/MainMenuScreen.cs": mono_script(
            "MainMenuScreen",
            "    // the main menu: play, options, quit back from the main menu\n"
            '    public void Play() { SceneManager.LoadScene("Race"); }\n'
            "    public void BackToMainMenu() { mainMenu.SetActive(true); }\n    public GameObject mainMenu;",
        ),
        "Assets/Scripts/MainMenuScreen.cs.meta": meta("a4900000000000000000000000000001"),
        "Assets/Scripts/MenuMusic.cs": mono_script(
            "MenuMusic", "    // plays the main menu's music\n    public AudioSource menuMusic;"
        ),
        "Assets/Scripts/MenuMusic.cs.meta": meta("a4900000000000000000000000000002"),
        "Assets/Scripts/MenuCamera.cs": mono_script(
            "MenuCamera", "    // turns the camera around the karts in the main menu\n    public float menuSpeed;"
        ),
        "Assets/Scripts/MenuCamera.cs.meta": meta("a4900000000000000000000000000003"),
        "Assets/Scripts/KartHud.cs": mono_script(
            "KartHud",
            "    public int lap;\n    void Update()\n    {\n"
            "        if (Input.GetKey(KeyCode.B)) { lap = 4; }\n"
            '        if (Input.GetKey(KeyCode.M)) { SceneManager.LoadScene("Start"); }\n    }',
        ),
        "Assets/Scripts/KartHud.cs.meta": meta("a4900000000000000000000000000004"),
        "Assets/Scripts/PauseManager.cs": mono_script(
            "PauseManager", "    void Update() { if (Input.GetKeyDown(KeyCode.P)) { Time.timeScale = 0; } }"
        ),
        "Assets/Scripts/PauseManager.cs.meta": meta("a4900000000000000000000000000005"),
    }
    return write_project(tmp_path, {**files, **(extra or {})})


def test_a_key_pressed_ranks_the_script_reading_it_from_the_input_manager(tmp_path: Path) -> None:
    """ "Pressing M during a race throws me back to the main menu" ranked the kart HUD, whose
    `Input.GetKey(KeyCode.M)` loads the menu, 6th under the menu's scripts: it says no word of the
    task but the key. A key the task says is pressed ranks the few scripts reading it
    (`keys_pressed.key_readers`) at 0.8 of the best match, as an input action's receivers:
    unranked (no word of the task) -> 2nd here; the pause manager, reading P, stays out."""
    root = _race(tmp_path)
    assert _ranked(root, "Pressing M during a race throws me back to the main menu", 5) == [
        "Assets/Scripts/MainMenuScreen.cs",
        "Assets/Scripts/KartHud.cs",
        "Assets/Scripts/MenuMusic.cs",
        "Assets/Scripts/MenuCamera.cs",
    ]


def test_the_scripts_reading_a_key_by_its_code_or_its_name(tmp_path: Path) -> None:
    """`KeyCode.M` and `GetKeyDown("m")` read M; `KeyCode.Return` is the Enter key, `"space"` the
    space bar; each reader is given with the key as its code writes it."""
    root = _race(
        tmp_path,
        {
            "Assets/Scripts/Chat.cs": mono_script(
                "Chat", '    void Update() { if (Input.GetKeyDown("m")) { } if (Input.GetKey(KeyCode.Return)) { } }'
            ),
            "Assets/Scripts/Chat.cs.meta": meta("a4900000000000000000000000000006"),
            "Assets/Scripts/Jump.cs": mono_script("Jump", '    void Update() { if (Input.GetKeyDown("space")) { } }'),
            "Assets/Scripts/Jump.cs.meta": meta("a4900000000000000000000000000007"),
        },
    )
    _ranked(root, "index it")
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    project = open_workspace(root, [(root, Config())]).projects[0]
    assert key_readers(project, {"m"}) == {"Assets/Scripts/Chat.cs": '"m"', "Assets/Scripts/KartHud.cs": "KeyCode.M"}
    assert key_readers(project, {"enter", "numpadenter"}) == {"Assets/Scripts/Chat.cs": "KeyCode.Return"}
    assert key_readers(project, {"space"}) == {"Assets/Scripts/Jump.cs": '"space"'}
    assert key_readers(project, {"q"}) == {}


def test_a_key_many_scripts_read_raises_none(tmp_path: Path) -> None:
    """More than three scripts reading the key say nothing of one task: none is raised, and the
    ranking is the text's alone (the HUD, reading M, is not among the best five)."""
    extra = {}
    for i in range(3):
        extra[f"Assets/Scripts/Debug{i}.cs"] = mono_script(
            f"Debug{i}", "    void Update() { Input.GetKey(KeyCode.M); }"
        )
        extra[f"Assets/Scripts/Debug{i}.cs.meta"] = meta(f"a49000000000000000000000000001{i}0")
    root = _race(tmp_path, extra)
    ranked = _ranked(root, "Pressing M during a race throws me back to the main menu", 5)
    assert "Assets/Scripts/KartHud.cs" not in ranked
    assert ranked[0] == "Assets/Scripts/MainMenuScreen.cs"


def _copies(tmp_path: Path) -> Path:
    """A platformer whose player and spikes prefabs were copied into each level's folder (five
    copies of each beside the ones in Prefabs/), its player scripts saying "player" throughout, and
    the spikes' script, on no prefab, killing the player."""
    move, talk, spikes = (
        "a4900000000000000000000000000021",
        "a4900000000000000000000000000022",
        "a4900000000000000000000000000023",
    )
    player = script_prefab("Player", move, "  playerSpeed: 7\n  playerTalk: {fileID: 0}\n")
    files = {
        "Assets/Scripts/PlayerMove.cs": mono_script(
            "PlayerMove",
            "    // moves the player; the player jumps when touching the ground\n    public float playerSpeed;\n"
            "    public Rigidbody2D player;\n    public PlayerTalk playerTalk;",
        ),
        "Assets/Scripts/PlayerMove.cs.meta": meta(move),
        "Assets/Scripts/PlayerTalk.cs": mono_script(
            "PlayerTalk", "    // the player talks to the NPC; freezes the player\n    public PlayerMove player;"
        ),
        "Assets/Scripts/PlayerTalk.cs.meta": meta(talk),
        "Assets/Scripts/SpikesBehavior.cs": mono_script(
            "SpikesBehavior",
            "    void OnCollisionEnter2D(Collision2D c)\n    {\n"
            '        if (c.gameObject.CompareTag("Player")) { Destroy(c.gameObject); }\n    }',
        ),
        "Assets/Scripts/SpikesBehavior.cs.meta": meta(spikes),
    }
    for i, folder in enumerate(("Assets/Prefabs", *(f"Assets/Scenes/Level {n}" for n in range(1, 6)))):
        files[f"{folder}/Player.prefab"] = player
        files[f"{folder}/Player.prefab.meta"] = meta(f"a49000000000000000000000000000{30 + i}", "PrefabImporter")
        files[f"{folder}/Spikes.prefab"] = player.replace("m_Name: Player", "m_Name: Spikes").split("--- !u!114")[0]
        files[f"{folder}/Spikes.prefab.meta"] = meta(f"a49000000000000000000000000000{40 + i}", "PrefabImporter")
    return write_project(tmp_path, files)


def test_copies_of_a_prefab_past_the_best_two_rank_lower(tmp_path: Path) -> None:
    """A trial's player prefab, copied into each level's folder, took places 3-23 of "Where is the
    code that kills the player when touching spikes?" and the spikes' script was 24th. Files of one
    name and kind (prefabs, scenes) past the best two score half of theirs, as a folder's data
    assets do (`siblings.siblings_below`), even though the task says "player": the name tells no copy
    from another. The spikes' script 9th -> 5th here, behind the scripts saying "player" and the
    two best copies; the third and later player copies after the first two spikes prefabs."""
    root = _copies(tmp_path)
    assert _ranked(root, "Where is the code that kills the player when touching spikes?", 10) == [
        "Assets/Scripts/PlayerMove.cs",
        "Assets/Scripts/PlayerTalk.cs",
        "Assets/Prefabs/Player.prefab",
        "Assets/Scenes/Level 1/Player.prefab",
        "Assets/Scripts/SpikesBehavior.cs",
        "Assets/Prefabs/Spikes.prefab",
        "Assets/Scenes/Level 1/Spikes.prefab",
        "Assets/Scenes/Level 2/Player.prefab",
        "Assets/Scenes/Level 3/Player.prefab",
        "Assets/Scenes/Level 4/Player.prefab",
    ]

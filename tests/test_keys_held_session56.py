"""A key the task says is held ("holding space"), read by the game's one keyboard script in a
project whose third-party kits read keys in dozens of files (session 56's thirty-third trial: an
on-rails space shooter's `PcInput.cs`, reading `KeyCode.Space` and `KeyCode.Escape`, was 15th for
"holding space to shoot and escape to pause", under a visual-scripting kit's and an effects kit's
scripts saying `KeyCode`)."""

from __future__ import annotations

from pathlib import Path

from indexer.config import Config
from indexer.query.keys_pressed import key_readers, keys_said
from indexer.query.workspace import open_workspace

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

KIT_READERS = 45  # more than keys_pressed.READERS_READ


def _shooter(tmp_path: Path) -> Path:
    """A ship whose cannon and hull scripts say the task's words; the controls script says none of
    them but reads the keys; a kit under Plugins/ reads keys in 45 demo scripts."""
    files = {
        "Assets/Scripts/ShipCannon.cs": mono_script(
            "ShipCannon", "    // the ship's cannon fires bolts\n    public float cannonFireRate = 0.5f;"
        ),
        "Assets/Scripts/ShipHull.cs": mono_script("ShipHull", "    // the ship hull takes hits\n    public int hull;"),
        "Assets/Scripts/ShipTrail.cs": mono_script("ShipTrail", "    // the ship's engine trail\n    public float v;"),
        "Assets/Scripts/Controls.cs": mono_script(
            "Controls",
            "    public event System.Action Shot;\n    void Update()\n    {\n"
            "        if (Input.GetKey(KeyCode.Space)) Shot?.Invoke();\n    }",
        ),
    }
    for i, name in enumerate(["ShipCannon", "ShipHull", "ShipTrail", "Controls"]):
        files[f"Assets/Scripts/{name}.cs.meta"] = meta(f"c56000000000000000000000000000{i:02d}")
    for i in range(KIT_READERS):
        path = f"Assets/Plugins/GraphKit/Nodes/KeyNode{i}.cs"
        files[path] = mono_script(f"KeyNode{i}", f"    public bool Read() => Input.GetKey(KeyCode.F{i % 12 + 1});")
        files[path + ".meta"] = meta(f"c5610000000000000000000000000{i:03d}")
    files["Assets/Plugins/GraphKit/LICENSE.txt"] = "MIT License\n"
    return write_project(tmp_path, files)


def test_a_key_held_is_a_key_said() -> None:
    assert keys_said("holding space to shoot and escape to pause") == {"space"}
    assert keys_said("hold Shift to sprint") == {"shift", "leftshift", "rightshift"}
    assert keys_said("while he held E the door stayed open") == {"e"}
    # not a key: a thing held, or a key named without a verb (often the one the task wants bound:
    # a kart racer's "drifting uses the space bar" raised a popup closed by Space over the bindings)
    assert keys_said("holding a sword lowers your speed") == set()
    assert keys_said("Change the default controls so drifting uses the space bar") == set()


def test_the_games_key_readers_are_counted_without_the_kits(tmp_path: Path) -> None:
    root = _shooter(tmp_path)
    _ranked(root, "index it")
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert key_readers(project, {"space"}) == {"Assets/Scripts/Controls.cs": "KeyCode.Space"}


def test_holding_space_ranks_the_script_reading_it(tmp_path: Path) -> None:
    """The controls say no word of the task but the key: unranked -> among the first three."""
    root = _shooter(tmp_path)
    assert "Assets/Scripts/Controls.cs" in _ranked(root, "holding space fires the ship's cannon", 3)


def test_past_readers_seen_files_saying_the_word_no_reader_is_read(tmp_path: Path, monkeypatch) -> None:
    """keys_pressed.scripts_saying: the game's own scripts only, but none at all when more than
    READERS_SEEN files of any kind say the word (here 46 say `KeyCode`, the bound set to 45)."""
    from indexer.query import keys_pressed

    root = _shooter(tmp_path)
    _ranked(root, "index it")
    project = open_workspace(root, [(root, Config())]).projects[0]
    monkeypatch.setattr(keys_pressed, "READERS_SEEN", 45)
    assert key_readers(project, {"space"}) == {}
    monkeypatch.setattr(keys_pressed, "READERS_SEEN", 46)
    assert key_readers(project, {"space"}) == {"Assets/Scripts/Controls.cs": "KeyCode.Space"}

"""Paths as people type them: the pure rules with POSIX and Windows inputs (these run on Linux, so
the Windows cases are checked here without a Windows machine), then the CLI from inside a folder
of the project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.paths import PathAmbiguous, PathNotFound, PathOutside, candidates, normalize, pick, relative_inside

from .conftest import run_cli, write_project

WIN_BASE = "C:\\Users\\me\\Game"
INDEXED = [
    "Assets/Scripts/Gameplay/GameplayObjects/DamageReceiver.cs",
    "Assets/Scripts/Gameplay/Player.cs",
    "Assets/A/Util.cs",
    "Assets/B/Util.cs",
    "Assets/Prefabs/Player.prefab",
]


def resolve(text: str, base: str = "/home/me/Game", cwd: str | None = None, windows: bool = False) -> str:
    return pick(text, candidates(text, base, cwd, windows), INDEXED.__contains__, lambda: INDEXED)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("\\\\?\\C:\\Users\\me\\Game\\Assets\\x.cs", "C:/Users/me/Game/Assets/x.cs"),
        ("\\\\?\\UNC\\server\\share\\Game\\x.cs", "//server/share/Game/x.cs"),
        ("\\\\.\\C:\\Game", "C:/Game"),
        ('"C:\\Program Files\\Game\\Assets"', "C:/Program Files/Game/Assets"),
        ("  Assets\\Scripts\\A.cs ", "Assets/Scripts/A.cs"),
        ("Assets/Scripts/A.cs", "Assets/Scripts/A.cs"),
    ],
)
def test_normalize(given: str, expected: str) -> None:
    assert normalize(given) == expected


@pytest.mark.parametrize(
    ("base", "path", "expected"),
    [
        (WIN_BASE, "C:\\Users\\me\\Game\\Assets\\A.cs", "Assets/A.cs"),
        (WIN_BASE, "c:\\USERS\\me\\game\\Assets\\A.cs", "Assets/A.cs"),  # NTFS ignores case
        (WIN_BASE, "C:/Users/me/Game/Assets/A.cs", "Assets/A.cs"),
        (WIN_BASE, "\\\\?\\C:\\Users\\me\\Game\\Assets\\A.cs", "Assets/A.cs"),
        (WIN_BASE, "\\Users\\me\\Game\\Assets\\A.cs", "Assets/A.cs"),  # no drive: the base's
        (WIN_BASE, "C:\\Users\\me\\Game", ""),
        (WIN_BASE, "C:\\Users\\me\\Game\\..\\Other\\A.cs", None),
        (WIN_BASE, "D:\\Users\\me\\Game\\Assets\\A.cs", None),
        (WIN_BASE, "C:\\Users\\me\\GameOld\\Assets\\A.cs", None),
        ("\\\\server\\share\\Game", "\\\\SERVER\\share\\game\\Assets\\A.cs", "Assets/A.cs"),
        ("\\\\server\\share\\Game", "\\\\?\\UNC\\server\\share\\Game\\Assets\\A.cs", "Assets/A.cs"),
        ("\\\\server\\share\\Game", "\\\\other\\share\\Game\\Assets\\A.cs", None),
    ],
)
def test_relative_inside_windows(base: str, path: str, expected: str | None) -> None:
    assert relative_inside(base, path, windows=True) == expected


def test_relative_inside_posix_is_case_sensitive_and_lexical() -> None:
    assert relative_inside("/home/me/Game", "/home/me/Game/Assets/A.cs", windows=False) == "Assets/A.cs"
    assert relative_inside("/home/me/Game", "/home/me/game/Assets/A.cs", windows=False) is None
    assert relative_inside("/home/me/Game", "/home/me/Game/Assets/../../x", windows=False) is None
    assert relative_inside("/home/me/Game/", "/home/me/Game", windows=False) == ""


def test_candidates_read_from_the_working_folder_then_the_project() -> None:
    cwd = "/home/me/Game/Assets/Scripts/Gameplay"
    assert candidates("GameplayObjects/X.cs", "/home/me/Game", cwd, windows=False) == [
        "Assets/Scripts/Gameplay/GameplayObjects/X.cs",
        "GameplayObjects/X.cs",
    ]
    assert candidates("../A.cs", "/home/me/Game", cwd, windows=False) == ["Assets/Scripts/A.cs"]
    # a working folder outside the project is not used
    assert candidates("Assets/A.cs", "/home/me/Game", "/tmp", windows=False) == ["Assets/A.cs"]
    # ... unless the path typed from it leads into the project (a repository holding the project)
    assert candidates("Game/Assets/A.cs", "/home/me/Game", "/home/me", windows=False) == [
        "Assets/A.cs",
        "Game/Assets/A.cs",
    ]
    assert candidates("../Game/Assets/A.cs", "/home/me/Game", "/home/me/Other", windows=False) == ["Assets/A.cs"]
    assert candidates("Game\\Assets\\A.cs", WIN_BASE, "C:\\Users\\me", windows=True) == [
        "Assets/A.cs",
        "Game/Assets/A.cs",
    ]
    win_cwd = "C:\\Users\\me\\Game\\Assets\\Scripts"
    assert candidates("..\\Prefabs\\P.prefab", WIN_BASE, win_cwd, windows=True) == ["Assets/Prefabs/P.prefab"]
    assert candidates("Gameplay\\Player.cs", WIN_BASE, win_cwd, windows=True) == [
        "Assets/Scripts/Gameplay/Player.cs",
        "Gameplay/Player.cs",
    ]


@pytest.mark.parametrize(
    ("text", "windows"),
    [
        ("../x.cs", False),
        ("Assets/../../x", False),
        ("/etc/passwd", False),
        ("C:\\Windows\\win.ini", False),
        ("..\\x.cs", True),
        ("D:\\Game\\Assets\\A.cs", True),
        ("\\\\srv\\share\\A.cs", True),
    ],
)
def test_outside_is_refused(text: str, windows: bool) -> None:
    base = WIN_BASE if windows else "/home/me/Game"
    with pytest.raises(PathOutside):
        candidates(text, base, None, windows)


@pytest.mark.parametrize(
    ("text", "cwd", "windows", "expected"),
    [
        ("GameplayObjects/DamageReceiver.cs", "/home/me/Game/Assets/Scripts/Gameplay", False, INDEXED[0]),
        ("Assets/Scripts/Gameplay/Player.cs", "/home/me/Game/Assets/Scripts/Gameplay", False, INDEXED[1]),
        ("/home/me/Game/Assets/Prefabs/Player.prefab", None, False, INDEXED[4]),
        ("DamageReceiver.cs", None, False, INDEXED[0]),  # a unique file name is used
        ("damagereceiver.CS", None, False, INDEXED[0]),
        ("GameplayObjects/DamageReceiver.cs", None, False, INDEXED[0]),  # the unique tail of a path
        ("assets/prefabs/player.prefab", None, False, INDEXED[4]),  # only the case differs
        ("c:\\users\\ME\\game\\assets\\prefabs\\Player.prefab", None, True, INDEXED[4]),
        ("\\\\?\\C:\\Users\\me\\Game\\Assets\\A\\Util.cs", None, True, INDEXED[2]),
        ("Player.cs", "C:\\Users\\me\\Game\\Assets\\Scripts\\Gameplay", True, INDEXED[1]),
    ],
)
def test_pick(text: str, cwd: str | None, windows: bool, expected: str) -> None:
    assert resolve(text, WIN_BASE if windows else "/home/me/Game", cwd, windows) == expected


def test_pick_refuses_ambiguous_names_listing_them_and_suggests_close_ones() -> None:
    with pytest.raises(PathAmbiguous) as amb:
        resolve("Util.cs")
    assert amb.value.candidates == ["Assets/A/Util.cs", "Assets/B/Util.cs"]
    assert str(amb.value) == "Util.cs names 2 files: Assets/A/Util.cs, Assets/B/Util.cs; give more of the path"
    with pytest.raises(PathNotFound) as nf:
        resolve("DamageReciever.cs")
    assert str(nf.value) == (
        "DamageReciever.cs is not an indexed file;"
        " did you mean Assets/Scripts/Gameplay/GameplayObjects/DamageReceiver.cs?"
    )
    with pytest.raises(PathNotFound, match="`unity-index query` finds files by name"):
        resolve("Nothing.cs")
    with pytest.raises(PathNotFound):  # `..` is never matched by name
        resolve("Assets/Scripts/../Player.cs")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_project(
        tmp_path_factory.mktemp("paths") / "Game",
        {
            "Assets/Scripts/Gameplay/GameplayObjects/DamageReceiver.cs": "public class DamageReceiver {}\n",
            "Assets/Scripts/Gameplay/Player.cs": "public class Player { DamageReceiver r; }\n",
            "Assets/A/Util.cs": "class UtilA {}\n",
            "Assets/B/Util.cs": "class UtilB {}\n",
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    return root


def describe(game: Path, target: str, cwd: Path) -> tuple[int, str, str]:
    r = run_cli("describe", target, "--json", cwd=cwd)
    return r.returncode, (json.loads(r.stdout)["path"] if r.returncode == 0 else ""), r.stderr


def test_cli_paths_as_typed(game: Path) -> None:
    here = game / "Assets" / "Scripts" / "Gameplay"
    receiver = "Assets/Scripts/Gameplay/GameplayObjects/DamageReceiver.cs"
    for target in (
        "GameplayObjects/DamageReceiver.cs",  # from the working folder
        "GameplayObjects\\DamageReceiver.cs",
        receiver,  # from the project
        str(game / receiver),  # absolute
        "DamageReceiver.cs",  # a file name that names one file
        "./GameplayObjects/../GameplayObjects/DamageReceiver.cs",
    ):
        code, path, err = describe(game, target, here)
        assert (code, path) == (0, receiver), (target, err)
    code, _, err = describe(game, "Util.cs", here)
    assert code == 2
    assert err == "error: Util.cs names 2 files: Assets/A/Util.cs, Assets/B/Util.cs; give more of the path\n"
    code, _, err = describe(game, "../../../../outside.cs", here)
    assert code == 2 and "is outside the project" in err
    code, _, err = describe(game, "GameplayObjects/", here)  # a folder: where its files are searched
    assert (code, err) == (
        2,
        "error: GameplayObjects/ is a folder: give a file in it; `unity-index query WORDS --path"
        " Assets/Scripts/Gameplay/GameplayObjects` searches its files\n",
    )
    r = run_cli("refs", "GameplayObjects/DamageReceiver.cs", "--json", cwd=here)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["target"]["path"] == receiver
    r = run_cli("query", "DamageReceiver", "--path", "GameplayObjects", "--json", cwd=here)
    assert [h["path"] for h in json.loads(r.stdout)["results"]] == [receiver]


def test_cli_paths_typed_from_a_folder_above_the_project(game: Path) -> None:
    """From the repository root holding the project (`--project Game`), the paths git, grep and
    the agent's own tools print start with the project's folder: they name the same files."""
    receiver = "Assets/Scripts/Gameplay/GameplayObjects/DamageReceiver.cs"
    above = game.parent
    r = run_cli("describe", f"Game/{receiver}", "--json", "--project", "Game", cwd=above)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["path"] == receiver
    r = run_cli("refs", f"Game/{receiver}", "--json", "--project", "Game", cwd=above)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["target"]["path"] == receiver
    r = run_cli("query", "DamageReceiver", "--path", "Game/Assets/Scripts/Gameplay/GameplayObjects", "--json",
                "--project", "Game", cwd=above)  # fmt: skip
    assert [h["path"] for h in json.loads(r.stdout)["results"]] == [receiver]
    r = run_cli("describe", "Game/../../outside.cs", "--project", "Game", cwd=above)
    assert r.returncode == 2 and "is outside the project" in r.stderr


def test_a_path_filter_in_another_case_keeps_the_folder_it_names(tmp_path: Path) -> None:
    """docs/cli.md, **Paths**: `query --path` (and MCP `search`'s `path`) takes another case, as
    `describe` and `refs` do; a folder in another case was refused as holding no indexed file."""
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Scripts/Gameplay/Player.cs": "public class Player {}\n",
            "Assets/Scripts/Other.cs": "public class PlayerOther {}\n",
            "Assets/Art/One.cs": "public class PlayerArt {}\n",
            "Assets/art/Two.cs": "public class PlayerArtToo {}\n",
        },
    )
    assert run_cli("index", "--project", str(root)).returncode == 0
    for typed in ("assets/scripts/GAMEPLAY", "ASSETS\\Scripts\\gameplay\\", str(root / "assets/scripts/gameplay")):
        r = run_cli("query", "Player", "--path", typed, "--json", "--project", str(root))
        assert r.returncode == 0, (typed, r.stderr)
        assert [h["path"] for h in json.loads(r.stdout)["results"]] == ["Assets/Scripts/Gameplay/Player.cs"]
    r = run_cli("query", "Player", "--path", "ASSETS/ART", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "error: ASSETS/ART names 2 folders: Assets/Art, Assets/art; give the folder in its case\n"

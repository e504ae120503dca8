"""docs/configuration.md, promise by promise: what tests/test_config.py did not already hold.

Each test quotes the sentence it checks; the CLI runs in a subprocess on a small project."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from indexer.config import Config, load_config
from indexer.project_walk import walk

from .conftest import run_cli, write_project

KEYS = (
    "the keys are index_dir (a folder), max_file_mb (a number), exclude (a list of globs),"
    " include_package_cache (true or false), workers (an integer)"
)


def _json(*args: str) -> dict:
    r = run_cli(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_documented_defaults(tmp_path: Path) -> None:
    """The example file's defaults: max_file_mb "Default 50", include_package_cache "Default
    false", index_dir "Default Library/UnityIndex", workers "Default 0", and no exclude."""
    root = write_project(tmp_path / "P", {})
    config = load_config(root)
    assert (config.exclude, config.max_file_mb, config.include_package_cache, config.index_dir, config.workers) == (
        (),
        50,
        False,
        "Library/UnityIndex",
        0,
    )
    assert config.max_file_bytes == 50 * 1024 * 1024
    # The example file, as written in the docs, is valid and says the same.
    (root / "unity-index.toml").write_text(
        'exclude = ["Assets/ThirdParty/**", "Assets/**/Generated/*.cs"]\nmax_file_mb = 50\n'
        'include_package_cache = false\nindex_dir = "Library/UnityIndex"\nworkers = 0\n'
    )
    assert load_config(root) == Config(exclude=("Assets/ThirdParty/**", "Assets/**/Generated/*.cs"))


def test_unity_s_own_rules_leave_out_generated_root_folders_and_ignored_names(tmp_path: Path) -> None:
    """ "on top of Unity's own rules (hidden names, names ending in ~, cvs folders, *.tmp; Library/,
    Temp/, Obj/, Logs/, UserSettings/, Build(s)/ are never walked)"."""
    files = {"Assets/Kept.cs": ""}
    for rel in ("Library", "Temp", "Obj", "Logs", "UserSettings", "Build", "Builds"):
        files[f"{rel}/Assets/X.cs"] = ""
    for rel in (".hidden.cs", "Backup.cs~", "Samples~/A.cs", "CVS/B.cs", "cvs/C.cs", "D.cs.tmp", ".git/E.cs"):
        files[f"Assets/{rel}"] = ""
        files[f"Packages/com.x.y/{rel}"] = ""
    root = write_project(tmp_path / "P", files)
    assert [rel for rel, _, _ in walk(root, Config())] == ["Assets/Kept.cs"]


def test_max_file_mb_bounds(tmp_path: Path) -> None:
    """ "a `max_file_mb` that is not a number from 0.001 to 1000000" is refused; 1000000, 0.001 and a
    fraction are numbers it takes."""
    root = write_project(tmp_path / "P", {})
    for value, cap in (("1000000", 1_000_000), ("0.5", 0.5), ("1", 1), ("0.001", 0.001)):
        (root / "unity-index.toml").write_text(f"max_file_mb = {value}\n")
        assert load_config(root).max_file_mb == cap
    for value in ("1000000.5", "-1", "-inf", "1e-300", "0.00099"):
        (root / "unity-index.toml").write_text(f"max_file_mb = {value}\n")
        r = run_cli("status", "--project", str(root))
        assert r.returncode == 2 and "max_file_mb must be at least 0.001 and at most 1000000" in r.stderr, value


def test_the_documented_messages_word_for_word(tmp_path: Path) -> None:
    """The four example messages of docs/configuration.md, each in full (the second's key list is
    elided there)."""
    root = write_project(tmp_path / "Game", {})
    path = root / "unity-index.toml"
    cases = {
        "excludes = []\n": f"error: {path}: Object contains unknown field `excludes`; {KEYS}\n",
        'workers = "4"\n': f"error: {path}: Expected `int`, got `str` - at `$.workers`; {KEYS}\n",
        "exclude = ": f"error: {path}: not valid TOML: Invalid value (at end of document)\n",
        'index_dir = "."\n': f"error: {path}: index_dir must be a folder of its own (got '.', which is {root}):"
        " not the project folder, a folder above it, the home folder or one above it, or one of Assets,"
        " Packages, ProjectSettings or a folder in them; the default is Library/UnityIndex\n",
    }
    for text, message in cases.items():
        path.write_text(text)
        r = run_cli("query", "player", "--project", str(root))
        assert (r.returncode, r.stdout, r.stderr) == (2, "", message), text


def test_a_file_in_place_of_the_default_index_folder_says_what_to_do(tmp_path: Path) -> None:
    """ "without a config file, a file in place of the default `Library/UnityIndex` does the same:
    "... is a file, not a folder: the index is kept in a folder of that name by default; move the
    file away, or set index_dir in unity-index.toml""."""
    root = write_project(tmp_path / "P", {"Library/UnityIndex": "a file"})
    r = run_cli("status", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        f"error: {root / 'Library/UnityIndex'} is a file, not a folder: the index is kept in a folder of that"
        " name by default; move the file away, or set index_dir in unity-index.toml\n"
    )


@pytest.mark.parametrize("index_dir", ["Packages", "./Assets", "{root}", "{root}/..", "{root}/Packages"])
def test_index_dirs_that_are_project_content_or_above_it_are_refused(tmp_path: Path, index_dir: str) -> None:
    """ "An `index_dir` that is the project folder, a folder above it, or `Assets`, `Packages` or
    `ProjectSettings` themselves is refused", given relative or absolute."""
    root = write_project(tmp_path / "P", {})
    (root / "unity-index.toml").write_text(f'index_dir = "{index_dir.format(root=root.as_posix())}"\n')
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 2 and "index_dir must be a folder of its own" in r.stderr, r.stderr
    assert not (root / "Library").exists()


def test_a_pattern_may_hold_8_double_star_folders_not_9(tmp_path: Path) -> None:
    """ "a pattern may hold at most 8 ...; more is an invalid file (exit 2...)"."""
    root = write_project(tmp_path / "P", {"Assets/a/a/b.cs": "class B {}", "Assets/c.cs": "class C {}"})
    (root / "unity-index.toml").write_text('exclude = ["Assets/' + "**/a/" * 8 + '*.cs"]\n')
    assert run_cli("index", "--project", str(root)).returncode == 0
    (root / "unity-index.toml").write_text('exclude = ["Assets/' + "**/a/" * 9 + '*.cs"]\n')
    r = run_cli("index", "--project", str(root))
    assert r.returncode == 2 and "has 9 `**/`, more than 8" in r.stderr, r.stderr


def test_an_invalid_file_stops_every_command_that_reads_the_project(tmp_path: Path) -> None:
    """ "... stops every command with exit code 2 and a message naming the file and the key", but
    `hook` (it writes git's hooks and reads no setting) and `doctor` ("reports the same message as
    its failed `config` check (exit 1) and goes on")."""
    root = write_project(tmp_path / "P", {"Assets/A.cs": "class Alpha {}", "unity-index.toml": "workers = -1\n"})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    message = f"error: {root}/unity-index.toml: workers must be 0 (one per core) or more"
    project = ("--project", str(root))
    for args in (
        ("index",),
        ("index", "--check"),
        ("status",),
        ("query", "alpha"),
        ("context", "alpha"),
        ("refs", "Alpha"),
        ("describe", "Assets/A.cs"),
        ("watch",),
        ("agents", "install", "--dry-run"),
        ("mcp", "install", "--client", "cursor", "--dry-run"),
        ("editor", "tools"),
    ):
        r = run_cli(*args, *project)
        assert (r.returncode, r.stdout) == (2, ""), args
        assert r.stderr.startswith(message), (args, r.stderr)
    assert not (root / "Library").exists()
    doctor = json.loads(run_cli("doctor", "--json", *project).stdout)
    config = next(c for c in doctor["checks"] if c["name"] == "config")
    assert (config["status"], f"error: {config['detail']}".startswith(message)) == ("fail", True), config
    assert run_cli("doctor", *project).returncode == 1
    assert "git-hooks" in [c["name"] for c in doctor["checks"]]  # the checks that need no config go on
    assert run_cli("hook", "install", *project).returncode == 0


def test_settings_changes_show_in_index_check_as_deleted_added_and_changed(tmp_path: Path) -> None:
    """ "Until then `index --check` and `status --check` report the index stale (files newly
    excluded as deleted, newly included as added, files a new size cap parses or skips as
    changed)"; the index records its settings in `settings.json` in the index folder."""
    big = "public class Big {}\n" + "// padding\n" * 120_000  # 1.3 MB
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Mine.cs": "public class Mine {}",
            "Assets/Big.cs": big,
            "Assets/ThirdParty/Theirs.cs": "public class Theirs {}",
            "Library/PackageCache/com.x.y@1.0.0/Pkg.cs": "public class Pkg {}",
        },
    )
    for path in root.rglob("*"):  # not "racily clean" (docs/indexing.md): only the settings say "look again"
        os.utime(path, (1_600_000_000, 1_600_000_000))
    project = ("--project", str(root))
    assert run_cli("index", *project).returncode == 0
    settings = json.loads((root / "Library/UnityIndex/settings.json").read_text())
    mine = str(root.resolve())  # the project it serves (tests/test_attack16_session51.py)
    assert settings == {"exclude": [], "include_package_cache": False, "max_file_mb": 50.0, "project": mine}
    (root / "unity-index.toml").write_text(
        'exclude = ["Assets/ThirdParty"]\ninclude_package_cache = true\nmax_file_mb = 1\n'
    )
    r = run_cli("index", "--check", "--json", *project)
    assert r.returncode == 1, r.stderr
    (entry,) = json.loads(r.stdout)["projects"]
    assert (entry["added"], entry["changed"], entry["deleted"]) == (
        ["Library/PackageCache/com.x.y@1.0.0/Pkg.cs"],
        ["Assets/Big.cs"],
        ["Assets/ThirdParty/Theirs.cs"],
    )
    status = run_cli("status", "--check", "--json", *project)
    assert (status.returncode, json.loads(status.stdout)["stale_files"]) == (1, 3)
    assert run_cli("index", *project).returncode == 0
    settings = json.loads((root / "Library/UnityIndex/settings.json").read_text())
    assert settings == {
        **{"exclude": ["Assets/ThirdParty"], "include_package_cache": True, "max_file_mb": 1.0},
        "project": mine,
    }
    assert run_cli("index", "--check", *project).returncode == 0


def test_the_package_cache_makes_package_scripts_guids_resolve_to_classes(tmp_path: Path) -> None:
    """`include_package_cache`: "Also index Library/PackageCache (the sources of registry packages),
    so that the GUIDs of package scripts ... resolve to classes. Default false." (A package none of
    `refs`' known package scripts names.)"""
    from .conftest import meta

    guid = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"
    package = "Library/PackageCache/com.acme.spin@1.2.0/Runtime"
    root = write_project(
        tmp_path / "P",
        {
            f"{package}/Spinner.cs": "namespace Acme { public class Spinner : UnityEngine.MonoBehaviour {} }",
            f"{package}/Spinner.cs.meta": meta(guid),
            "Assets/Wheel.prefab": (
                "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Wheel\n"
                "  m_Component:\n  - component: {fileID: 2}\n--- !u!114 &2\nMonoBehaviour:\n"
                f"  m_GameObject: {{fileID: 1}}\n  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n"
            ),
        },
    )
    project = ("--project", str(root))
    outline = run_cli("describe", "Assets/Wheel.prefab", *project)
    assert outline.returncode == 0 and "components: script 5a5a5a5a… (not in project)" in outline.stdout, outline
    assert run_cli("refs", "Acme.Spinner", *project).returncode == 2
    (root / "unity-index.toml").write_text("include_package_cache = true\n")
    assert run_cli("index", *project).returncode == 0
    outline = run_cli("describe", "Assets/Wheel.prefab", *project)
    assert "components: Spinner" in outline.stdout, outline.stdout
    usages = _json("refs", "Acme.Spinner", *project)["usages"]
    assert [(u["path"], u["kind"], u["context"]) for u in usages] == [("Assets/Wheel.prefab", "script", "m_Script")]


@pytest.mark.parametrize(
    ("text", "where", "expected", "got"),
    [
        ('exclude = "Assets/X"', "$.exclude", "array", "str"),
        ("exclude = [1]", "$.exclude[0]", "str", "int"),
        ("index_dir = 5", "$.index_dir", "str", "int"),
        ("max_file_mb = true", "$.max_file_mb", "float", "bool"),
        ("include_package_cache = 1", "$.include_package_cache", "bool", "int"),
        ("workers = true", "$.workers", "int", "bool"),
        ("workers = 1.5", "$.workers", "int", "float"),
    ],
)
def test_a_value_of_the_wrong_type_names_the_key(
    tmp_path: Path, text: str, where: str, expected: str, got: str
) -> None:
    """ "a value of the wrong type ... stops every command with exit code 2 and a message naming the
    file and the key", for each key (the types: exclude a list of globs, index_dir a folder,
    max_file_mb a number, include_package_cache true or false, workers an integer)."""
    from indexer.config import ConfigError

    root = write_project(tmp_path / "P", {"unity-index.toml": text + "\n"})
    with pytest.raises(ConfigError) as err:
        load_config(root)
    assert str(err.value) == f"{root}/unity-index.toml: Expected `{expected}`, got `{got}` - at `{where}`; {KEYS}"


def test_a_pattern_written_as_in_gitignore_with_slashes_around_a_folder_leaves_it_out(tmp_path: Path) -> None:
    """`exclude`: "`Assets/ThirdParty` leaves out the whole folder"; written as `.gitignore` writes a
    folder (`Assets/ThirdParty/`) or anchors it (`/Assets/Generated`), it matched no path, so the
    folder stayed in the index without a word."""
    files = {"Assets/ThirdParty/Lib/A.cs": "", "Assets/Generated/B.cs": "", "Assets/Code/C.cs": ""}
    root = write_project(tmp_path / "P", files)
    (root / "unity-index.toml").write_text('exclude = ["Assets/ThirdParty/", "/Assets/Generated"]\n')
    assert [rel for rel, _, _ in walk(root, load_config(root))] == ["Assets/Code/C.cs"]

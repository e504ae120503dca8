"""unity-index.toml: optional, validated, and every setting has an effect."""

from pathlib import Path

import pytest

from indexer.config import Config, ConfigError, load_config
from indexer.project_walk import walk

from .conftest import run_cli, write_project


def test_defaults_without_a_file(tmp_path: Path) -> None:
    assert load_config(write_project(tmp_path / "P", {})) == Config()


def test_a_file_in_place_of_the_default_index_folder_is_a_clear_error_everywhere(tmp_path: Path) -> None:
    """Without a config file, a file named like the default index folder made `index` fail with
    "File exists" while `doctor` said to run `index`: every command now says what is in the way."""
    root = write_project(tmp_path / "P", {"Library/UnityIndex": "not a folder"})
    message = f"{root / 'Library/UnityIndex'} is a file, not a folder"
    with pytest.raises(ConfigError, match=message):
        load_config(root)
    for command in (["index"], ["query", "player"], ["doctor"]):
        r = run_cli(*command, "--project", str(root))
        assert r.returncode != 0 and message in r.stdout + r.stderr, command


def test_settings_are_read(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "unity-index.toml": 'exclude = ["Assets/ThirdParty/**"]\nmax_file_mb = 2.5\ninclude_package_cache = true\n'
            'index_dir = "/tmp/elsewhere"\nworkers = 1\n',
        },
    )
    cfg = load_config(root)
    assert cfg == Config(
        exclude=("Assets/ThirdParty/**",),
        max_file_mb=2.5,
        include_package_cache=True,
        index_dir="/tmp/elsewhere",
        workers=1,
    )
    assert cfg.max_file_bytes == 2_621_440
    assert cfg.index_path(root) == Path("/tmp/elsewhere")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("exclude = [", "not valid TOML"),
        ("excludes = []", "Object contains unknown field `excludes`"),
        ('max_file_mb = "big"', "Expected `float`, got `str` - at `$.max_file_mb`"),
        ("max_file_mb = 0", "max_file_mb must be at least 0.001"),
        ("workers = -1", "workers must be 0"),
        # TOML's nan and inf, and a cap no file size reaches, used to end in an internal error
        ("max_file_mb = nan", "max_file_mb must be at least 0.001 and at most 1000000"),
        ("max_file_mb = inf", "max_file_mb must be at least 0.001 and at most 1000000"),
        ("max_file_mb = 1e300", "max_file_mb must be at least 0.001 and at most 1000000"),
        # a cap that rounds to 0 bytes was taken, and every file skipped "over the 0 MB cap"
        ("max_file_mb = 1e-300", "max_file_mb must be at least 0.001 and at most 1000000 (megabytes; got 1e-300)"),
        ("max_file_mb = 0.0009", "max_file_mb must be at least 0.001 and at most 1000000 (megabytes; got 0.0009)"),
        ('index_dir = "."', "index_dir must be a folder of its own"),
        ('index_dir = ""', "index_dir must be a folder of its own"),
        ('index_dir = "Assets/.."', "index_dir must be a folder of its own"),
        ('index_dir = ".."', "index_dir must be a folder of its own"),
        ('index_dir = "Assets"', "index_dir must be a folder of its own"),
        ('index_dir = "ProjectSettings"', "index_dir must be a folder of its own"),
        # TOML strings may hold a NUL, which no path can: this ended in an internal error (exit 3)
        ('index_dir = "Library/Index\\u0000x"', "index_dir holds a NUL character"),
        # a file where the folder goes: `index` failed with "File exists" while doctor said to run it
        ('index_dir = "unity-index.toml"', "index_dir is a file, not a folder"),
        ('index_dir = "/dev/null"', "index_dir is a file, not a folder"),
        # Each `**/` doubled the patterns tried on every path (it may match no folder): 26 of them
        # took `index` past 120 s and 6.9 GB of memory. A unity-index.toml comes with the project.
        ('exclude = ["' + "**/a/" * 26 + 'x"]', "has 26 `**/`, more than 8"),
    ],
)
def test_invalid_files_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    root = write_project(tmp_path / "P", {"unity-index.toml": text})
    with pytest.raises(ConfigError, match=r"unity-index\.toml") as err:
        load_config(root)
    assert message in str(err.value)
    r = run_cli("status", "--project", str(root))
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_package_cache_is_indexed_only_when_enabled(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/A.cs": "",
            "Library/PackageCache/com.unity.ugui@1.0.0/Runtime/Button.cs": "",
            "Library/PackageCache/com.unity.ugui@1.0.0/Runtime/Button.cs.meta": "",
            "Library/ScriptAssemblies/x.dll": "",
        },
    )
    assert [rel for rel, _, _ in walk(root, Config())] == ["Assets/A.cs"]
    assert [rel for rel, _, _ in walk(root, Config(include_package_cache=True))] == [
        "Assets/A.cs",
        "Library/PackageCache/com.unity.ugui@1.0.0/Runtime/Button.cs",
        "Library/PackageCache/com.unity.ugui@1.0.0/Runtime/Button.cs.meta",
    ]


def test_an_unknown_key_lists_every_key_without_pointing_at_docs(tmp_path: Path) -> None:
    """The docs are not installed with the package (pipx): the message itself says what is valid."""
    import msgspec

    root = write_project(tmp_path / "P", {"unity-index.toml": "excludes = []"})
    with pytest.raises(ConfigError) as err:
        load_config(root)
    message = str(err.value)
    assert "docs/" not in message
    for field in msgspec.structs.fields(Config):
        assert f"{field.name} (" in message, field.name


def _cli_json(*args: str) -> dict:
    import json

    r = run_cli(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_new_size_cap_takes_effect_at_the_next_index(tmp_path: Path) -> None:
    """docs/configuration.md: changing `max_file_mb` takes effect at the next `unity-index index`;
    the file's stat did not change, so only the settings can tell the update to look again."""
    big = "public class Big { public void Grow() {} }\n" + "// padding\n" * 150_000  # 1.6 MB
    root = write_project(tmp_path / "P", {"Assets/Big.cs": big, "Assets/Small.cs": "public class Small {}"})
    project = ("--project", str(root))
    assert _cli_json("index", *project)["skipped"] == 0
    (root / "unity-index.toml").write_text("max_file_mb = 1\n")
    assert run_cli("index", "--check", *project).returncode == 1  # stale until the next index
    assert run_cli("status", "--check", *project).returncode == 1
    _cli_json("index", *project)
    skipped = _cli_json("status", *project)["skipped"]
    assert [(s["path"], s["reason"][:9]) for s in skipped] == [("Assets/Big.cs", "too large")]
    assert _cli_json("query", "Grow", *project)["results"] == []  # recorded, not parsed
    assert run_cli("index", "--check", *project).returncode == 0
    (root / "unity-index.toml").write_text("max_file_mb = 2\n")
    _cli_json("index", *project)
    assert _cli_json("status", *project)["skipped"] == []
    assert _cli_json("query", "Grow", *project)["results"][0]["name"] == "Big.Grow"


def test_new_exclusions_and_the_package_cache_take_effect_in_a_git_work_tree(tmp_path: Path) -> None:
    """In a git work tree the update asks git what changed, and git lists no file that a new
    pattern covers: the settings themselves must make the next `index` look at every file."""
    import subprocess

    root = write_project(
        tmp_path / "P",
        {
            "Assets/Mine.cs": "public class Mine {}",
            "Assets/ThirdParty/Theirs.cs": "public class Theirs {}",
            "Library/PackageCache/com.x.y@1.0.0/Runtime/Pkg.cs": "public class Pkg {}",
        },
    )
    git = ("git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t")
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "Assets", "ProjectSettings"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    project = ("--project", str(root))
    _cli_json("index", *project)
    assert _cli_json("index", *project)["walked"] is False  # git finds the changes from here on
    assert [h["path"] for h in _cli_json("query", "Theirs", *project)["results"]] == ["Assets/ThirdParty/Theirs.cs"]
    (root / "unity-index.toml").write_text('exclude = ["Assets/ThirdParty"]\ninclude_package_cache = true\n')
    assert run_cli("index", "--check", *project).returncode == 1
    _cli_json("index", *project)
    assert _cli_json("query", "Theirs", *project)["results"] == []
    assert [h["path"] for h in _cli_json("query", "Pkg", *project)["results"]] == [
        "Library/PackageCache/com.x.y@1.0.0/Runtime/Pkg.cs"
    ]
    assert run_cli("index", "--check", *project).returncode == 0


def _indexed_paths(root: Path, config: Config) -> list[str]:
    from indexer.store.reader import Records
    from indexer.store.schema import IndexPaths

    records = Records(IndexPaths(config.index_path(root)))
    try:
        return sorted(records.stats())
    finally:
        records.close()


def test_excludes_are_case_sensitive_and_a_bare_folder_leaves_out_all_it_holds(tmp_path: Path) -> None:
    """docs/configuration.md: patterns match case sensitively, `*` crosses `/`, and a pattern
    without `*` naming a folder (`Assets/ThirdParty`) leaves out the whole folder, at any depth,
    in the walk and for single paths (watch) alike; a folder that only starts with the name stays."""
    from indexer.build.update import update

    files = {
        "Assets/ThirdParty/Lib/Deep/A.cs": "public class A {}",
        "Assets/ThirdParty/B.cs": "public class B {}",
        "Assets/ThirdPartyTools/C.cs": "public class C {}",
        "Assets/thirdparty/D.cs": "public class D {}",
        "Assets/Code/E.Generated.cs": "public class E {}",
        "Assets/Code/Sub/F.Generated.cs": "public class F {}",
        "Assets/Code/G.generated.cs": "public class G {}",
    }
    root = write_project(tmp_path / "P", files)
    (root / "unity-index.toml").write_text('exclude = ["Assets/ThirdParty", "Assets/*.Generated.cs"]\n')
    config = load_config(root)
    kept = ["Assets/Code/G.generated.cs", "Assets/ThirdPartyTools/C.cs", "Assets/thirdparty/D.cs"]
    assert [rel for rel, _, _ in walk(root, config)] == kept
    update(root, config)
    assert _indexed_paths(root, config) == kept
    # The same rules for paths a watcher reports, including a new file deep in the folder.
    (root / "Assets/ThirdParty/Lib/Deep/New.cs").write_text("public class New {}")
    (root / "Assets/Code/Sub/F.Generated.cs").write_text("public class F2 {}")
    update(root, config, paths=["Assets/ThirdParty/Lib/Deep/New.cs", "Assets/Code/Sub/F.Generated.cs"])
    assert _indexed_paths(root, config) == kept
    assert _cli_json("query", "New", "--project", str(root))["results"] == []


def test_a_double_star_folder_in_an_exclude_may_match_no_folder(tmp_path: Path) -> None:
    """docs/configuration.md's example `Assets/**/Generated/*.cs` leaves out generated code at any
    depth, `Assets/Generated/` itself included (`**/` matches no folder too, as in .gitignore)."""
    files = {
        "Assets/Generated/A.cs": "public class A {}",
        "Assets/Game/Generated/B.cs": "public class B {}",
        "Assets/Game/Deep/Generated/C.cs": "public class C {}",
        "Assets/Game/NotGenerated/D.cs": "public class D {}",
        "Assets/GeneratedX/E.cs": "public class E {}",
    }
    root = write_project(tmp_path / "P", files)
    (root / "unity-index.toml").write_text('exclude = ["Assets/**/Generated/*.cs"]\n')
    kept = ["Assets/Game/NotGenerated/D.cs", "Assets/GeneratedX/E.cs"]
    assert [rel for rel, _, _ in walk(root, load_config(root))] == kept


def test_consecutive_double_star_folders_count_as_one(tmp_path: Path) -> None:
    """`**/**/` may match no folder, like `**/`: a run of them is one (and counts once against
    the limit of 8)."""
    files = {"Assets/Generated/A.cs": "", "Assets/Game/Deep/Generated/C.cs": "", "Assets/Game/D.cs": ""}
    root = write_project(tmp_path / "P", files)
    (root / "unity-index.toml").write_text('exclude = ["Assets/' + "**/" * 30 + 'Generated/*.cs"]\n')
    assert [rel for rel, _, _ in walk(root, load_config(root))] == ["Assets/Game/D.cs"]


def test_a_new_index_dir_gets_the_index_built_again_there(tmp_path: Path) -> None:
    """docs/configuration.md: after changing `index_dir` the index is built again in the new place
    (a relative folder is below the project root; an absolute one anywhere)."""
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { void Jump() {} }"})
    project = ("--project", str(root))
    assert _cli_json("index", *project)["scanned"] == 1
    assert (root / "Library/UnityIndex/index.json").is_file()
    (root / "unity-index.toml").write_text('index_dir = "Library/Elsewhere"\n')
    assert run_cli("index", "--check", *project).returncode == 1  # no index in the new place yet
    stats = _cli_json("index", *project)
    assert (stats["full"], stats["scanned"]) == (True, 1)
    assert (root / "Library/Elsewhere/index.json").is_file()
    assert [h["path"] for h in _cli_json("query", "Jump", *project)["results"]] == ["Assets/Hero.cs"]
    assert run_cli("index", "--check", *project).returncode == 0
    outside = tmp_path / "cache" / "idx"
    (root / "unity-index.toml").write_text(f'index_dir = "{outside.as_posix()}"\n')
    # A query finds no index in the new place and builds it, as it builds a missing one.
    assert [h["path"] for h in _cli_json("query", "Jump", *project)["results"]] == ["Assets/Hero.cs"]
    assert (outside / "index.json").is_file()
    status = _cli_json("status", *project)
    assert (status["index_dir"], status["files"], status["stale_files"]) == (str(outside), 1, 0)


@pytest.mark.parametrize("index_dir", ["Library/../Assets/Idx", "lnk/Idx"])
def test_an_index_dir_inside_assets_written_with_dots_or_through_a_link_is_refused(
    tmp_path: Path, index_dir: str
) -> None:
    """docs/configuration.md: an index inside a content folder is refused, however `index_dir`
    spells it (it was taken and kept out of the walk: the index did index itself once; since
    session 38 it is refused, as it hid the folder's own files and a writer removed the `gen-N`
    folders a user kept there)."""
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { void Jump() {} }"})
    (root / "lnk").symlink_to(root / "Assets", target_is_directory=True)
    (root / "unity-index.toml").write_text(f'index_dir = "{index_dir}"\n')
    r = run_cli("index", "--project", str(root))
    assert (r.returncode, r.stdout) == (2, "")
    assert f"index_dir must be a folder of its own (got {index_dir!r}, which is {root / 'Assets/Idx'})" in r.stderr
    assert not (root / "Assets/Idx").exists()


def test_an_index_dir_shared_with_other_files_keeps_them(tmp_path: Path) -> None:
    """A writer removes what killed writers left in the index folder: only its own generation
    folders (`gen-<N>`) and the files of the layout before them beside a `records.db`. An
    index_dir that is also a user's folder (a shared cache) once lost every folder named `gen-*`
    and any `tantivy/` in it to the first `index`."""
    shared = tmp_path / "cache"
    for rel in ("gen-docs/notes.txt", "gen-2-old/a.txt", "tantivy/mine.txt", "notes.txt"):
        (shared / rel).parent.mkdir(parents=True, exist_ok=True)
        (shared / rel).write_text("keep me")
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Hero.cs": "public class Hero { void Jump() {} }",
            "unity-index.toml": f'index_dir = "{shared.as_posix()}"\n',
        },
    )
    for args in (("index",), ("index", "--full"), ("index", "--full")):
        assert run_cli(*args, "--project", str(root)).returncode == 0
    for rel in ("gen-docs/notes.txt", "gen-2-old/a.txt", "tantivy/mine.txt", "notes.txt"):
        assert (shared / rel).read_text() == "keep me", rel
    generations = sorted(p.name for p in shared.iterdir() if p.name.startswith("gen-") and p.name[4:].isdigit())
    assert generations == ["gen-3"]  # the superseded ones are removed
    assert [h["path"] for h in _cli_json("query", "Jump", "--project", str(root))["results"]] == ["Assets/Hero.cs"]


@pytest.mark.parametrize(("setting", "cores", "expected"), [(0, 3, 3), (0, 16, 4), (2, 16, 2), (8, 16, 4)])
def test_workers_sets_the_scanner_processes_one_per_core_by_default_and_at_most_four(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: int, cores: int, expected: int
) -> None:
    """docs/configuration.md: `workers = 0` (the default) means one scanner process per core, a
    number that many; at most 4 run at once (docs/indexing.md). The machine's core count is the one
    thing faked; the scanner processes are real, counted as the pool starts them."""
    import os

    from indexer.build import pool, workers
    from indexer.build.update import update

    started: list[int] = []

    class Counted(pool.Pool):
        def _spawn(self) -> None:
            super()._spawn()
            started.append(len(self.workers))

    files = {f"Assets/S{i}.cs": f"public class S{i} {{ void M{i}() {{}} }}" for i in range(400)}
    toml = {"unity-index.toml": f"workers = {setting}\n"} if setting else {}
    root = write_project(tmp_path / "P", {**files, **toml})
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    monkeypatch.setattr(workers, "Pool", Counted)
    assert load_config(root).workers == setting
    stats = update(root, load_config(root))
    assert stats.scanned == 400 and len(_indexed_paths(root, load_config(root))) == 400
    assert max(started) == expected


def test_an_index_dir_under_the_home_folder_is_there_not_a_folder_named_tilde(tmp_path: Path) -> None:
    """`index_dir = "~/..."` used to make a folder named `~` in the project root (which a later
    `rm -rf ~` there would take for the home folder); `~` and `~user` are the home folder."""
    home = tmp_path / "home"
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero {}", "unity-index.toml": ""})
    (root / "unity-index.toml").write_text('index_dir = "~/.cache/unity-index/p"\n')
    r = run_cli("index", "--project", str(root), env={"HOME": str(home)})
    assert r.returncode == 0, r.stderr
    assert (home / ".cache/unity-index/p/index.json").is_file()
    assert not (root / "~").exists()
    (root / "unity-index.toml").write_text('index_dir = "~no-such-user-here/idx"\n')
    r = run_cli("index", "--project", str(root), env={"HOME": str(home)})
    assert (r.returncode, r.stderr) == (
        2,
        f"error: {root / 'unity-index.toml'}: index_dir names the home folder of an unknown user"
        " (got '~no-such-user-here/idx'); give a folder, e.g. Library/UnityIndex\n",
    )

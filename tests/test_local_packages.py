"""Local packages (docs/indexing.md, "Which files"): the folders `Packages/manifest.json` installs
with `file:` inside the project folder are indexed like `Assets/`, and kept fresh by walks, git and
the manifest's own changes; those outside the project, tarballs, links and generated folders are not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import ConfigError
from indexer.project import load_project_config, local_packages

from .conftest import meta, run_cli, write_project
from .test_gitview import equals_rebuild, git
from .test_indexing import CONFIG, records, search_paths

TOOLBOX = "namespace Own.Tools { public class Toolbox { public void Sharpen() {} } }\n"
FAR = "public class Faraway { public void Wander() {} }\n"


def _manifest(dependencies: dict[str, str]) -> str:
    return json.dumps({"dependencies": {"com.unity.ugui": "1.0.0", **dependencies}}, indent=2)


def _project(top: Path, dependencies: dict[str, str]) -> Path:
    """A project at `top/Game` beside folders a manifest may point at."""
    root = write_project(
        top / "Game",
        {
            "Assets/Player.cs": "public class Player { }\n",
            "Assets/Player.cs.meta": meta("1" * 32),
            "Packages/manifest.json": _manifest(dependencies),
            "ExternalPackages/com.own.tools/package.json": '{"name": "com.own.tools", "version": "1.0.0"}',
            "ExternalPackages/com.own.tools/Runtime/Toolbox.cs": TOOLBOX,
            "ExternalPackages/com.own.tools/Runtime/Toolbox.cs.meta": meta("2" * 32),
            "ExternalPackages/com.linked.target/Runtime/Linked.cs": "public class Tethered { }\n",
            "Tarballs/com.packed.tgz": b"\x1f\x8b\x08\x00",
            "Library/Stuff/com.cached/Cached.cs": "public class Stowed { }\n",
        },
    )
    far = top / "Far" / "com.far.away"
    far.mkdir(parents=True)
    (far / "Faraway.cs").write_text(FAR)
    os.symlink(root / "ExternalPackages" / "com.linked.target", root / "Linked")
    return root


def test_a_local_package_in_the_project_is_indexed_and_one_outside_a_tarball_or_a_link_is_not(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {
            "com.own.tools": "file:../ExternalPackages/com.own.tools",
            "com.far.away": "file:../../Far/com.far.away",
            "com.packed": "file:../Tarballs/com.packed.tgz",
            "com.linked": "file:../Linked",
            "com.cached": "file:../Library/Stuff/com.cached",
            "com.missing": "file:../ExternalPackages/com.missing",
            "com.embedded": "file:com.embedded",
        },
    )
    assert local_packages(root) == ("ExternalPackages/com.own.tools",)
    update(root, CONFIG)
    assert search_paths(root, "Toolbox Sharpen") == ["ExternalPackages/com.own.tools/Runtime/Toolbox.cs"]
    assert search_paths(root, "Faraway Wander") == []
    assert search_paths(root, "Tethered") == []
    assert search_paths(root, "Stowed") == []


@pytest.mark.parametrize("manifest", [b"{not json", b'{"dependencies": ["file:../X"]}', b"[]", b"\xff\xfe"])
def test_a_manifest_that_cannot_be_read_installs_no_local_package(tmp_path: Path, manifest: bytes) -> None:
    root = _project(tmp_path, {})
    (root / "Packages/manifest.json").write_bytes(manifest)
    assert local_packages(root) == ()
    update(root, CONFIG)
    assert search_paths(root, "Toolbox") == []


def test_git_guided_updates_see_a_local_packages_edits_and_the_manifest_adding_or_dropping_it(tmp_path: Path) -> None:
    root = _project(tmp_path / "repo", {"com.own.tools": "file:../ExternalPackages/com.own.tools"})
    top = root.parent
    (top / ".gitignore").write_text("Game/Library/\n")
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "first")
    assert update(root, CONFIG).walked

    sharper = root / "ExternalPackages/com.own.tools/Runtime/Whetstone.cs"
    sharper.write_text("namespace Own.Tools { public class Whetstone { public void Hone() {} } }\n")
    stats = update(root, CONFIG)
    assert not stats.walked, "git, not a walk, found the new file in the local package"
    assert search_paths(root, "Whetstone Hone") == ["ExternalPackages/com.own.tools/Runtime/Whetstone.cs"]
    assert equals_rebuild(root)

    (root / "Packages/manifest.json").write_text(_manifest({}))  # the package is dropped
    assert update(root, CONFIG).walked
    assert search_paths(root, "Whetstone Toolbox") == []
    assert equals_rebuild(root)

    (root / "Packages/manifest.json").write_text(_manifest({"tools": "file:../ExternalPackages/com.own.tools"}))
    stats = update(root, CONFIG, paths=["Packages/manifest.json"])  # as watch and the editor journal say it
    assert stats.walked
    assert search_paths(root, "Whetstone Hone") == ["ExternalPackages/com.own.tools/Runtime/Whetstone.cs"]
    assert equals_rebuild(root)


@pytest.mark.parametrize(
    ("pattern", "left"),
    [
        ("ExternalPackages/com.own.tools", ["Assets/Player.cs"]),
        ("ExternalPackages", ["Assets/Player.cs"]),
        ("/ExternalPackages/", ["Assets/Player.cs"]),
        ("Assets", ["ExternalPackages/com.own.tools/Runtime/Toolbox.cs"]),
        ("Packages", ["Assets/Player.cs", "ExternalPackages/com.own.tools/Runtime/Toolbox.cs"]),
    ],
)
def test_an_exclude_pattern_naming_a_top_folder_or_a_folder_above_a_local_package_leaves_it_out(
    tmp_path: Path, pattern: str, left: list[str]
) -> None:
    """docs/configuration.md: "a pattern is tried on every folder along a file's path as well as
    on the file" -- the content folders and a local package's folder too, not only what is below."""
    root = _project(tmp_path, {"com.own.tools": "file:../ExternalPackages/com.own.tools"})
    (root / "unity-index.toml").write_text(f"exclude = [{json.dumps(pattern)}]\n")
    config = load_project_config(root)
    update(root, config)
    assert sorted(rec.path for rec in records(root).records("csharp")) == left


@pytest.mark.parametrize("index_dir", ["ExternalPackages/com.own.tools", "ExternalPackages"])
def test_an_index_dir_that_is_a_local_package_or_above_one_is_refused(tmp_path: Path, index_dir: str) -> None:
    """docs/configuration.md: index_dir may not be a folder whose content is indexed, "an index
    there would be walked as content" -- a local package's folder is one, as `Assets` is."""
    root = _project(tmp_path, {"com.own.tools": "file:../ExternalPackages/com.own.tools"})
    (root / "unity-index.toml").write_text(f'index_dir = "{index_dir}"\n')
    with pytest.raises(ConfigError) as err:
        load_project_config(root)
    assert str(err.value) == (
        f"{root / 'unity-index.toml'}: index_dir must be a folder of its own (got {index_dir!r}, which is"
        f" {(root / index_dir).resolve()}): not ExternalPackages/com.own.tools or a folder above it, which the"
        " index covers; the default is Library/UnityIndex"
    )
    r = run_cli("status", "--project", str(root))
    assert (r.returncode, r.stderr.strip()) == (2, f"error: {err.value}")


@pytest.mark.parametrize(
    ("index_dir", "why"),
    [
        ("Library/PackageCache", "Unity deletes and rebuilds Library/PackageCache"),
        ("Library", "Unity keeps its own files"),
    ],
)
def test_the_package_cache_or_library_as_index_dir_is_refused(tmp_path: Path, index_dir: str, why: str) -> None:
    """docs/configuration.md: `Library/PackageCache`, or `Library` above it, is refused as index_dir
    whether or not `include_package_cache` walks the cache: Unity writes both itself (since session
    45; without the setting both were taken)."""
    root = _project(tmp_path, {})
    for cache in ("true", "false"):
        (root / "unity-index.toml").write_text(f'index_dir = "{index_dir}"\ninclude_package_cache = {cache}\n')
        with pytest.raises(ConfigError, match=why):
            load_project_config(root)

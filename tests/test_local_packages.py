"""Local packages (docs/indexing.md, "Which files"): the folders `Packages/manifest.json` installs
with `file:` inside the project folder are indexed like `Assets/`, and kept fresh by walks, git and
the manifest's own changes; those outside the project, tarballs, links and generated folders are not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.project import local_packages

from .conftest import meta, write_project
from .test_gitview import equals_rebuild, git
from .test_indexing import CONFIG, search_paths

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

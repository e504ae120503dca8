from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.config import Config
from indexer.project import ProjectNotFound, find_root, kind_of
from indexer.project_walk import walk

from .conftest import write_project


def test_find_root_from_a_subfolder(tmp_path: Path) -> None:
    root = write_project(tmp_path / "Game", {"Assets/Scripts/A.cs": "class A {}"})
    assert find_root(root / "Assets" / "Scripts") == root.resolve()


def test_find_root_fails_listing_projects_below(tmp_path: Path) -> None:
    write_project(tmp_path / "repo" / "ClientA", {})
    write_project(tmp_path / "repo" / "tools" / "ClientB", {})
    with pytest.raises(ProjectNotFound) as err:
        find_root(tmp_path / "repo")
    assert err.value.below == [
        (tmp_path / "repo" / "ClientA").resolve(),
        (tmp_path / "repo" / "tools" / "ClientB").resolve(),
    ]
    assert "ClientA" in str(err.value) and "--project" in str(err.value)


def test_walk_follows_unity_ignore_rules(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/A.cs": "",
            "Assets/.hidden/B.cs": "",
            "Assets/Samples~/C.cs": "",
            "Assets/cvs/D.cs": "",
            "Assets/E.cs.tmp": "",
            "Assets/Sub/F.prefab": "",
            "Library/G.cs": "",
            "Temp/H.cs": "",
            "Packages/manifest.json": "{}",
            "Packages/com.x.y/Runtime/I.cs": "",
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.1f1\n",
            "README.md": "",
        },
    )
    assert [rel for rel, _, _ in walk(root, Config())] == [
        "Assets/A.cs",
        "Assets/Sub/F.prefab",
        "Packages/com.x.y/Runtime/I.cs",
        "Packages/manifest.json",
        "ProjectSettings/ProjectVersion.txt",
    ]


def test_walk_applies_configured_excludes(tmp_path: Path) -> None:
    root = write_project(tmp_path / "P", {"Assets/A.cs": "", "Assets/ThirdParty/B.cs": ""})
    assert [rel for rel, _, _ in walk(root, Config(exclude=("Assets/ThirdParty*",)))] == ["Assets/A.cs"]


def test_kind_of() -> None:
    assert kind_of("Assets/A.cs") == "csharp"
    assert kind_of("Assets/A.cs.meta") == "meta"
    assert kind_of("Assets/Scenes/Main.unity") == "scene"
    assert kind_of("Assets/Art/Hero.PNG") == "texture"
    assert kind_of("ProjectSettings/TagManager.asset") == "settings"
    assert kind_of("Assets/Thing.xyz") == "other"


def _documented_kinds() -> tuple[set[str], dict[str, str]]:
    """docs/indexing.md's table of kinds: every kind named, and each extension it gives a kind."""
    import re

    text = (Path(__file__).resolve().parent.parent / "docs" / "indexing.md").read_text()
    table = text.split("| kind | files |", 1)[1].split("\n\n", 1)[0]
    named: set[str] = set()
    extensions: dict[str, str] = {}
    for row in table.splitlines()[2:]:
        kinds_cell, files_cell = row.strip("|").split("|")
        kinds = re.findall(r"`([a-z_]+)`", kinds_cell)
        named.update(kinds)
        files_cell = files_cell[: files_cell.rfind("`") + 1]  # the words after the last name
        groups = files_cell.split(";") if ";" in files_cell else files_cell.split(",")
        if len(kinds) == 1:
            groups = [files_cell]
        for kind, group in zip(kinds, groups, strict=True):
            for ext in re.findall(r"`(\.[A-Za-z0-9]+)(?:\((\w+)\))?`", group):
                extensions[ext[0]] = kind
                if ext[1]:  # `.spriteatlas(v2)`
                    extensions[ext[0] + ext[1]] = kind
    return named, extensions


def test_the_documented_kinds_are_the_kinds_files_get() -> None:
    """docs/indexing.md, "Which files": what `--kind` and MCP `search` take, and which extension
    gets which kind (also upper case), as the index records them."""
    from indexer.kinds import searchable_kinds
    from indexer.project import KINDS

    named, extensions = _documented_kinds()
    assert len(extensions) > 40
    for ext, kind in extensions.items():
        assert (kind_of(f"Assets/x{ext}"), kind_of(f"Assets/x{ext.upper()}")) == (kind, kind), ext
    assert set(KINDS.values()) | {"settings", "folder"} == named
    assert searchable_kinds() == named - {"folder"} | {"other"}


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="/.csCSprefabPREFABxP", max_size=24))
def test_is_script_and_is_prefab_say_what_kind_of_says(path: str) -> None:
    """The walk's quick tests of a path agree with `kind_of` (extensions in any case, dot files,
    ProjectSettings) on any path."""
    from indexer.project import is_prefab, is_script

    assert (is_script(path), is_prefab(path)) == (kind_of(path) == "csharp", kind_of(path) == "prefab")
    settings_path = "ProjectSettings/" + path
    assert (is_script(settings_path), is_prefab(settings_path)) == (False, False)

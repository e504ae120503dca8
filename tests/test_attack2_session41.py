"""Failures found by the second hostile testing of session 41, each held by a test."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from .conftest import meta, run_cli, write_project
from .test_indexing import HEALTH


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=dev@example.com", "-c", "user.name=dev", *args],
        cwd=root,
        capture_output=True,
        check=True,
    )


def _index(root: Path) -> dict:
    r = run_cli("index", "--json", "--project", str(root))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_file_a_nested_repository_ignores_is_indexed_by_the_git_driven_update(tmp_path: Path) -> None:
    """A repository inside `Assets/` that the outer one records (a submodule, or a nested clone
    `git add`ed as a gitlink) with its own `.gitignore`: a file it ignores is in no `git status`
    of the outer repository, dirty or clean, so `index` took git's word that nothing changed and
    never indexed it, while `index --check` (a walk) kept calling the index stale."""
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    plugin = root / "Assets" / "Plugin"
    plugin.mkdir()
    (plugin / "Lib.cs").write_text("public class Lib { }\n")
    (plugin / ".gitignore").write_text("Generated/\n")
    _git(plugin, "init", "-q")
    _git(plugin, "add", "-A")
    _git(plugin, "commit", "-qm", "plugin")
    _git(root, "init", "-q")
    _git(root, "add", "-A")  # the nested clone becomes a gitlink
    _git(root, "commit", "-qm", "game")
    time.sleep(1.1)  # past the second of the commit: git's index is no longer racily clean
    _git(root, "status")  # and refreshed once, so no update sees it rewritten (a walk)
    assert _index(root)["added"] == 2
    assert _index(root)["added"] == 0  # git's view is remembered: this update asks git
    generated = plugin / "Generated"
    generated.mkdir()
    (generated / "Baked.cs").write_text("public class Baked { }\n")
    (generated / "Baked.cs.meta").write_text(meta("77777777777777777777777777777777"))
    assert _index(root)["added"] == 2
    r = run_cli("index", "--check", "--project", str(root))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_cli("describe", "Baked", "--project", str(root))
    assert r.returncode == 0 and "Assets/Plugin/Generated/Baked.cs" in r.stdout, r.stdout + r.stderr


def _instance(anchor: int, guid: str) -> str:
    """A scene's placement of the prefab of `guid`."""
    return (
        f"--- !u!1001 &{anchor}\nPrefabInstance:\n  m_Modification:\n    m_TransformParent: {{fileID: 0}}\n"
        f"    m_Modifications: []\n  m_SourcePrefab: {{fileID: 100100000, guid: {guid}, type: 3}}\n"
    )


def test_refs_of_a_script_lists_the_placements_of_every_variant_carrying_it(tmp_path: Path) -> None:
    """A base prefab holding a script, six variants of it, each placed 100 times in a level: the
    walk through the carriers stopped once 400 usages were listed, so the placements of the last
    variants were missing from `refs`, `--limit 0` ("shows all") and the JSON total alike, with
    nothing saying so."""
    header = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
    base = (
        f"{header}--- !u!1 &1\nGameObject:\n  m_Name: Base\n  m_Component:\n  - component: {{fileID: 2}}\n"
        "--- !u!114 &2\nMonoBehaviour:\n  m_GameObject: {fileID: 1}\n"
        "  m_Script: {fileID: 11500000, guid: 11111111111111111111111111111111, type: 3}\n"
    )
    files: dict[str, str | bytes] = {
        "Assets/Scripts/Health.cs": HEALTH,
        "Assets/Scripts/Health.cs.meta": meta("11111111111111111111111111111111"),
        "Assets/Prefabs/Base.prefab": base,
        "Assets/Prefabs/Base.prefab.meta": meta("b0000000000000000000000000000000", "PrefabImporter"),
    }
    level = header
    for v in range(6):
        guid = f"a{v}" + "0" * 30
        files[f"Assets/Prefabs/V{v}.prefab"] = header + _instance(100, "b0000000000000000000000000000000")
        files[f"Assets/Prefabs/V{v}.prefab.meta"] = meta(guid, "PrefabImporter")
        level += "".join(_instance(1000 * (v + 1) + i, guid) for i in range(100))
    files["Assets/Scenes/Level.unity"] = level
    files["Assets/Scenes/Level.unity.meta"] = meta("c0000000000000000000000000000000", "DefaultImporter")
    root = write_project(tmp_path / "Game", files)
    assert _index(root)["added"] == len(files)
    r = run_cli("refs", "Game.Combat.Health", "--json", "--limit", "0", "--project", str(root))
    assert r.returncode == 0, r.stderr
    usages = json.loads(r.stdout)["usages"]
    placed = [u for u in usages if u["path"] == "Assets/Scenes/Level.unity"]
    assert len(placed) == 600
    assert "Assets/Prefabs/V5.prefab > Assets/Prefabs/Base.prefab" in placed[-1]["detail"]
    assert json.loads(r.stdout)["total"] == len(usages)


def test_a_case_only_rename_in_a_repository_told_to_ignore_case_is_indexed(tmp_path: Path) -> None:
    """A repository made on Windows or macOS carries `core.ignorecase = true`; on a file system
    that tells case apart, git then lists a file renamed in case only as deleted and its new name
    not at all, so `index` dropped the script and never indexed it again, while `index --check`
    (a walk) kept calling the index stale."""
    root = write_project(tmp_path / "Game", {"Assets/Scripts/Health.cs": HEALTH})
    _git(root, "init", "-q")
    _git(root, "config", "core.ignorecase", "true")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "game")
    time.sleep(1.1)  # past the second of the commit: git's index is no longer racily clean
    _git(root, "status")
    _index(root)
    assert _index(root)["added"] == 0  # git's view is remembered: this update asks git
    scripts = root / "Assets" / "Scripts"
    (scripts / "Health.cs").rename(scripts / "health.cs")
    stats = _index(root)
    assert (stats["files"], stats["moved"]) == (1, 1), stats
    r = run_cli("index", "--check", "--project", str(root))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_cli("query", "Health", "--json", "--project", str(root))
    assert [x["path"] for x in json.loads(r.stdout)["results"]][:1] == ["Assets/Scripts/health.cs"], r.stdout

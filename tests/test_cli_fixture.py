"""The CLI end to end on the fixture, through a subprocess, as the README runs it."""

import json
import shutil
from pathlib import Path

import pytest

from .conftest import FIXTURE, run_cli


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("cli") / "DungeonCrawler"
    shutil.copytree(FIXTURE, dest)
    r = run_cli("index", "--project", str(dest), "--json")
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert (stats["full"], stats["files"], stats["added"], stats["skipped"]) == (True, 200, 200, 0)
    return dest


def test_query_json_contract(project: Path) -> None:
    r = run_cli("query", "player takes damage and dies", "--project", str(project), "--json", "--limit", "5")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert list(data) == ["schema_version", "query", "results"]
    assert (data["schema_version"], data["query"]) == (1, "player takes damage and dies")
    assert len(data["results"]) == 5
    first = data["results"][0]
    assert first == {
        "path": "Assets/Scripts/Player/PlayerHealth.cs",
        "kind": "csharp",
        "name": "DungeonCrawler.Player.PlayerHealth.TakeDamage",
        "line": 30,
        "score": first["score"],
        "snippet": "public override void TakeDamage(DamageInfo damage)",
    }
    scores = [h["score"] for h in data["results"]]
    assert scores == sorted(scores, reverse=True)


def test_query_from_inside_the_project_finds_the_root(project: Path) -> None:
    r = run_cli("query", "SaveSystem", "--json", "--limit", "1", cwd=project / "Assets" / "Scripts")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["results"][0]["path"] == "Assets/Scripts/Save/SaveSystem.cs"


def test_query_human_output(project: Path) -> None:
    r = run_cli("query", "Heal", "--project", str(project), "--limit", "3")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith(" 1. Assets/Scripts/")
    assert "[csharp]" in lines[0]


def test_second_index_is_a_noop(project: Path) -> None:
    r = run_cli("index", "--project", str(project), "--json")
    stats = json.loads(r.stdout)
    assert (stats["full"], stats["scanned"], stats["deleted"], stats["files"]) == (False, 0, 0, 200)


def test_status_json(project: Path) -> None:
    r = run_cli("status", "--project", str(project), "--json")
    assert r.returncode == 0
    st = json.loads(r.stdout)
    assert (st["indexed"], st["files"], st["partial"], st["skipped"], st["stale_files"]) == (True, 200, 0, [], 0)
    assert st["by_kind"]["csharp"] == 53


def test_context_json_contract(project: Path) -> None:
    r = run_cli("context", "add a shield that absorbs damage", "--project", str(project), "--json", "--budget", "2000")
    assert r.returncode == 0, r.stderr
    pack = json.loads(r.stdout)
    assert list(pack) == ["schema_version", "query", "budget", "tokens", "tokenizer", "tier1", "tier2"]
    assert pack["budget"] == 2000 and 0 < pack["tokens"] <= 2000
    assert list(pack["tier1"]) == ["text", "tokens"] and list(pack["tier2"]) == ["text", "tokens", "files"]
    assert pack["tier1"]["text"].startswith("# Unity project DungeonCrawler — Dungeon Crawler (Unity 2021.3.15f1)")
    assert "Scenes in build: Assets/Scenes/MainMenu.unity, Assets/Scenes/Dungeon.unity" in pack["tier1"]["text"]
    files = pack["tier2"]["files"]
    assert files and set(files[0]) == {"path", "tokens", "score", "reason"}
    assert files[0]["path"] in {"Assets/Scripts/Combat/DamageDealer.cs", "Assets/Scripts/Combat/IDamageable.cs"}
    assert sum(f["tokens"] for f in files) <= pack["tier2"]["tokens"] <= 2000 - pack["tier1"]["tokens"]
    assert all(f["reason"].startswith("matched: ") for f in files)

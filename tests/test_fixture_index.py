"""The bundled fixture project, indexed: exact symbols, roles, GUIDs and rankings."""

from pathlib import Path

from indexer.config import Config
from indexer.query.search import Searcher
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

from .conftest import FIXTURE
from .fixture_tools.check_fixture import check


def records(root: Path) -> Records:
    return Records(IndexPaths(Config().index_path(root)))


def test_fixture_is_internally_consistent() -> None:
    assert check(FIXTURE) == []


def test_every_fixture_file_is_indexed_and_nothing_skipped(indexed_fixture: Path) -> None:
    r = records(indexed_fixture)
    counts = r.count_by("kind")
    assert counts["csharp"] == 54
    assert counts["meta"] == 118
    assert (counts["scene"], counts["prefab"], counts["material"], counts["shader"]) == (2, 9, 4, 2)
    assert r.count_by("status") == {"ok": sum(counts.values())}
    assert r.skipped() == []


def test_health_outline_is_exact(indexed_fixture: Path) -> None:
    rec = records(indexed_fixture).record("Assets/Scripts/Combat/Health.cs")
    assert rec.namespaces == ("DungeonCrawler.Combat",)
    assert rec.usings == ("System", "UnityEngine", "UnityEngine.Events")
    assert rec.defines == ("UNITY_EDITOR",)
    assert [(s.kind, s.name, s.line) for s in rec.symbols] == [
        ("class", "Health", 11),
        ("field", "maxHealth", 14),
        ("field", "immunities", 17),
        ("field", "onDeath", 20),
        ("event", "HealthChanged", 23),
        ("event", "Damaged", 26),
        ("property", "CurrentHealth", 28),
        ("property", "MaxHealth", 30),
        ("property", "IsAlive", 32),
        ("property", "Normalized", 34),
        ("method", "Awake", 36),
        ("method", "ResetHealth", 42),
        ("method", "TakeDamage", 48),
        ("method", "Heal", 66),
        ("method", "SetMaxHealth", 77),
        ("method", "IsImmuneTo", 84),
        ("method", "Die", 89),
        ("method", "KillFromInspector", 95),
        ("method", "OnValidate", 101),
    ]
    cls = rec.symbols[0]
    assert cls.signature == "public class Health : MonoBehaviour, IDamageable"
    assert cls.bases == ("MonoBehaviour", "IDamageable")
    assert cls.attributes == ("DisallowMultipleComponent",)
    by_name = {s.name: s for s in rec.symbols}
    assert by_name["maxHealth"].attributes == ('Header("Health")', "SerializeField")
    assert by_name["Heal"].signature == "public void Heal(int amount)"
    assert by_name["HealthChanged"].signature == "public event Action<int, int> HealthChanged"
    assert by_name["KillFromInspector"].attributes == ('ContextMenu("Kill")',)
    assert {(x.target, x.context) for x in rec.refs} >= {
        ("MonoBehaviour", "base"),
        ("IDamageable", "base"),
        ("DamageInfo", "param"),
        ("UnityEvent", "field"),
        ("Mathf", "static"),
    }


def test_roles_follow_base_classes_across_files(indexed_fixture: Path) -> None:
    cats = records(indexed_fixture).categories()
    expected = {
        "Assets/Scripts/Player/PlayerHealth.cs::DungeonCrawler.Player.PlayerHealth": "monobehaviour",  # via Health
        "Assets/Scripts/Weapons/MeleeWeapon.cs::DungeonCrawler.Weapons.MeleeWeapon": "monobehaviour",  # via Weapon
        "Assets/Scripts/Core/GameManager.cs::DungeonCrawler.Core.GameManager": "monobehaviour",  # Singleton<T>
        "Assets/Scripts/Weapons/WeaponData.cs::DungeonCrawler.Weapons.WeaponData": "scriptableobject",
        "Assets/Scripts/Enemies/EnemyAttackState.cs::DungeonCrawler.Enemies.EnemyAttackState": "scriptableobject",
        "Assets/Scripts/Editor/HealthEditor.cs::DungeonCrawler.Editor.HealthEditor": "editor",
        "Assets/Scripts/Editor/LevelToolsWindow.cs::DungeonCrawler.Editor.LevelToolsWindow": "editor_window",
        "Assets/Scripts/Editor/MinMaxDrawer.cs::DungeonCrawler.Editor.MinMaxDrawer": "property_drawer",
        "Assets/Tests/EditMode/HealthTests.cs::DungeonCrawler.Tests.HealthTests": "test",
        "Assets/Scripts/Save/SaveSystem.cs::DungeonCrawler.Save.SaveSystem": "class",
        "Assets/Scripts/Combat/DamageInfo.cs::DungeonCrawler.Combat.DamageInfo": "struct",
        "Assets/Scripts/Combat/IDamageable.cs::DungeonCrawler.Combat.IDamageable": "interface",
        # the partial class declares its base in one part only
        "Assets/Scripts/Player/PlayerController.Input.cs::DungeonCrawler.Player.PlayerController": "monobehaviour",
    }
    assert {k: cats[k] for k in expected} == expected


def test_script_guids_resolve_to_scripts_and_classes(indexed_fixture: Path) -> None:
    r = records(indexed_fixture)
    guid = r.guid_of_path("Assets/Scripts/Player/PlayerHealth.cs")
    assert guid is not None and len(guid) == 32
    assert r.path_of_guid(guid) == "Assets/Scripts/Player/PlayerHealth.cs"
    assert r.path_of_guid(guid.upper()) == "Assets/Scripts/Player/PlayerHealth.cs"
    scripts = r.script_types()
    assert scripts["Assets/Scripts/Player/PlayerHealth.cs"] == "DungeonCrawler.Player.PlayerHealth"
    assert scripts["Packages/com.dungeoncrawler.tools/Runtime/Timer.cs"] == "DungeonCrawler.Tools.Timer"
    # 54 scripts; the second part of the partial PlayerController is not named like its class
    assert len(scripts) == 53
    assert "Assets/Scripts/Player/PlayerController.Input.cs" not in scripts
    assert r.guid_of_path("Assets/Scripts") is not None  # folders have GUIDs too


def test_health_and_damage_rank_first_for_the_death_query(indexed_fixture: Path) -> None:
    hits = Searcher(IndexPaths(Config().index_path(indexed_fixture))).search("player takes damage and dies", limit=5)
    top = [h.path for h in hits]
    assert top[0] == "Assets/Scripts/Player/PlayerHealth.cs"
    assert "Assets/Scripts/Combat/Health.cs" in top
    # BM25 alone (no test prior): the health tests, whose names say "dead", may come fourth
    assert all("Combat/" in p or "Health" in p for p in top[:4])


def test_identifier_queries_rank_the_declaring_file_first(indexed_fixture: Path) -> None:
    s = Searcher(IndexPaths(Config().index_path(indexed_fixture)))
    cases = {
        "UseSelected": ("Assets/Scripts/Inventory/Inventory.cs", "DungeonCrawler.Inventory.Inventory.UseSelected"),
        "SaveSystem": ("Assets/Scripts/Save/SaveSystem.cs", "DungeonCrawler.Save.SaveSystem"),
        "ObjectPool": ("Assets/Scripts/Core/ObjectPool.cs", "DungeonCrawler.Core.ObjectPool"),
        "LevelToolsWindow": ("Assets/Scripts/Editor/LevelToolsWindow.cs", "DungeonCrawler.Editor.LevelToolsWindow"),
    }
    for query, (path, name) in cases.items():
        hit = s.search(query, limit=1)[0]
        assert (hit.path, hit.name) == (path, name), query


def test_kind_and_path_filters(indexed_fixture: Path) -> None:
    s = Searcher(IndexPaths(Config().index_path(indexed_fixture)))
    assert {h.kind for h in s.search("health", limit=50, kind="csharp")} == {"csharp"}
    paths = [h.path for h in s.search("health", limit=50, path_prefix="Assets/Scripts/UI")]
    assert paths and all(p.startswith("Assets/Scripts/UI/") for p in paths)
    assert s.search("health", limit=50, kind="no-such-kind") == []

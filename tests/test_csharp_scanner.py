"""Exact-value tests for the C# scanner: one small Unity-style file per tricky construct.

The case files live in tests/csharp_cases/. Symbols are compared as full ordered lists of
(kind, container, name, line, end_line, signature) and refs as exact sets of (target, line, context),
so any change in extraction shows up here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.model import FileRecord, Symbol
from indexer.scanners import csharp

CASES = Path(__file__).parent / "csharp_cases"


def _scan(name: str) -> FileRecord:
    return csharp.scan(f"Assets/{name}", (CASES / name).read_bytes())


def _syms(rec: FileRecord) -> list[tuple[str, str, str, int, int, str]]:
    return [(s.kind, s.container, s.name, s.line, s.end_line, s.signature) for s in rec.symbols]


def _refs(rec: FileRecord) -> set[tuple[str, int, str]]:
    """The type references (string literals have tests of their own in test_loads)."""
    assert all(r.kind in ("type", "string") for r in rec.refs)
    return {(r.target, r.line, r.context) for r in rec.refs if r.kind == "type"}


def _sym(rec: FileRecord, name: str) -> Symbol:
    found = [s for s in rec.symbols if s.name == name]
    assert len(found) == 1, found
    return found[0]


def test_generics() -> None:
    rec = _scan("generics.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        (
            "class",
            "DungeonCrawler.Pooling",
            "ObjectPool",
            6,
            16,
            "public class ObjectPool<T> : Singleton<ObjectPool<T>> where T : Component",
        ),
        ("field", "DungeonCrawler.Pooling.ObjectPool", "_free", 8, 8, "private readonly Stack<T> _free"),
        ("field", "DungeonCrawler.Pooling.ObjectPool", "byName", 9, 9, "public Dictionary<string, List<Enemy>> byName"),
        (
            "method",
            "DungeonCrawler.Pooling.ObjectPool",
            "Spawn",
            11,
            15,
            "public TItem Spawn<TItem>(TItem prefab, Vector3 at) where TItem : MonoBehaviour, IPoolable",
        ),
    ]
    assert _refs(rec) == {
        ("Component", 6, "constraint"),
        ("ObjectPool", 6, "generic"),
        ("Singleton", 6, "base"),
        ("Stack", 8, "field"),
        ("Stack", 8, "new"),
        ("Dictionary", 9, "field"),
        ("Enemy", 9, "generic"),
        ("List", 9, "generic"),
        ("IPoolable", 11, "constraint"),
        ("MonoBehaviour", 11, "constraint"),
        ("Vector3", 11, "param"),
        ("Health", 13, "generic"),
        ("Object", 14, "static"),
        ("Quaternion", 14, "static"),
    }
    cls = _sym(rec, "ObjectPool")
    assert cls.bases == ("Singleton<ObjectPool<T>>",)
    spawn = _sym(rec, "Spawn")
    assert (spawn.type, spawn.modifiers) == ("TItem", ("public",))
    assert _sym(rec, "_free").modifiers == ("private", "readonly")
    assert _sym(rec, "byName").type == "Dictionary<string, List<Enemy>>"


def test_nested() -> None:
    rec = _scan("nested.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "Game.UI", "Inventory", 3, 15, "public class Inventory : MonoBehaviour"),
        ("class", "Game.UI.Inventory", "Slot", 6, 10, "public class Slot"),
        ("field", "Game.UI.Inventory.Slot", "item", 8, 8, "public Item item"),
        ("struct", "Game.UI.Inventory.Slot", "Stack", 9, 9, "public struct Stack"),
        ("field", "Game.UI.Inventory.Slot.Stack", "count", 9, 9, "public int count"),
        ("enum", "Game.UI.Inventory", "SortMode", 12, 12, "public enum SortMode"),
        ("enum_member", "Game.UI.Inventory.SortMode", "ByName", 12, 12, "ByName"),
        ("enum_member", "Game.UI.Inventory.SortMode", "ByWeight", 12, 12, "ByWeight"),
        ("field", "Game.UI.Inventory", "slots", 14, 14, "private Slot[] slots"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 3, "base"),
        ("System.Serializable", 5, "attribute"),
        ("Item", 8, "field"),
        ("Slot", 14, "field"),
    }
    assert _sym(rec, "Slot").attributes == ("System.Serializable",)
    assert _sym(rec, "Stack").qualified == "Game.UI.Inventory.Slot.Stack"


def test_partial_a() -> None:
    rec = _scan("partial_a.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "", "PlayerController", 3, 11, "public partial class PlayerController : MonoBehaviour"),
        ("field", "PlayerController", "speed", 5, 5, "private float speed = 5f"),
        ("method", "PlayerController", "Update", 7, 10, "private void Update()"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 3, "base"),
        ("SerializeField", 5, "attribute"),
        ("Input", 9, "static"),
    }
    assert _sym(rec, "PlayerController").modifiers == ("public", "partial")


def test_partial_b() -> None:
    rec = _scan("partial_b.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "", "PlayerController", 1, 9, "public partial class PlayerController : IDamageable"),
        ("method", "PlayerController", "OnMoved", 3, 3, "partial void OnMoved(Vector2 delta)"),
        ("method", "PlayerController", "Move", 5, 8, "public void Move(float x)"),
    ]
    assert _refs(rec) == {
        ("IDamageable", 1, "base"),
        ("Vector2", 3, "param"),
        ("Time", 7, "static"),
    }
    assert _sym(rec, "PlayerController").bases == ("IDamageable",)


def test_records() -> None:
    rec = _scan("records.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("record", "Game.Data", "WeaponStats", 3, 3, "public record WeaponStats(string Name, int Damage)"),
        ("property", "Game.Data.WeaponStats", "Name", 3, 3, "public string Name { get; init; }"),
        ("property", "Game.Data.WeaponStats", "Damage", 3, 3, "public int Damage { get; init; }"),
        ("record_struct", "Game.Data", "GridPos", 5, 8, "public readonly record struct GridPos(int X, int Y)"),
        ("property", "Game.Data.GridPos", "X", 5, 5, "public int X { get; init; }"),
        ("property", "Game.Data.GridPos", "Y", 5, 5, "public int Y { get; init; }"),
        ("method", "Game.Data.GridPos", "Offset", 7, 7, "public GridPos Offset(int dx)"),
        ("record_struct", "Game.Data", "Cell", 10, 10, "public record struct Cell(Tile Tile)"),
        ("property", "Game.Data.Cell", "Tile", 10, 10, "public Tile Tile { get; set; }"),
    ]
    assert _refs(rec) == {
        ("GridPos", 7, "new"),
        ("GridPos", 7, "return"),
        ("Tile", 10, "param"),
    }
    assert _sym(rec, "GridPos").modifiers == ("public", "readonly")
    assert _sym(rec, "Damage").type == "int"


def test_file_scoped() -> None:
    rec = _scan("file_scoped.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "Game.Audio", "MusicPlayer", 7, 12, "public sealed class MusicPlayer : MonoBehaviour"),
        ("field", "Game.Audio.MusicPlayer", "current", 9, 9, "public Clip current"),
        ("method", "Game.Audio.MusicPlayer", "Fade", 11, 11, "void Fade(float t)"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 7, "base"),
        ("UnityEngine.AudioClip", 9, "field"),  # `Clip` through `using Clip = UnityEngine.AudioClip;`
        ("UnityEngine.Mathf", 4, "using"),  # `using static`: the file names its members bare
    }
    assert rec.namespaces == ("Game.Audio",)
    assert rec.usings == ("UnityEngine", "static UnityEngine.Mathf", "Clip = UnityEngine.AudioClip")
    assert _sym(rec, "MusicPlayer").modifiers == ("public", "sealed")


def test_attributes() -> None:
    rec = _scan("attributes.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "", "WeaponData", 4, 14, "public class WeaponData : ScriptableObject"),
        ("property", "WeaponData", "Damage", 6, 6, "public int Damage { get; private set; }"),
        ("field", "WeaponData", "cooldown", 10, 10, "private float cooldown"),
        ("field", "WeaponData", "owner", 13, 13, "public GameObject owner"),
    ]
    assert _refs(rec) == {
        ("CreateAssetMenu", 3, "attribute"),
        ("ScriptableObject", 4, "base"),
        ("SerializeField", 6, "attribute"),
        ("Range", 8, "attribute"),
        ("SerializeField", 8, "attribute"),
        ("Tooltip", 9, "attribute"),
        ("PlayerController", 12, "typeof"),
        ("RequireComponent", 12, "attribute"),
        ("GameObject", 13, "field"),
        ("HideInInspector", 13, "attribute"),
    }
    assert _sym(rec, "WeaponData").attributes == (
        'CreateAssetMenu(fileName = "NewWeapon", menuName = "DungeonCrawler/Weapon")',
    )
    assert _sym(rec, "Damage").attributes == ("SerializeField",)  # `field:` target dropped
    assert _sym(rec, "cooldown").attributes == (
        "SerializeField",
        "Range(0, 10)",
        'Tooltip("Seconds between attacks")',
    )
    assert _sym(rec, "owner").attributes == ("RequireComponent(typeof(PlayerController))", "HideInInspector")


def test_if_members() -> None:
    rec = _scan("if_members.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "", "DebugDraw", 3, 17, "public class DebugDraw : MonoBehaviour"),
        ("method", "DebugDraw", "Draw", 6, 6, "public void Draw(Color c)"),
        ("field", "DebugDraw", "showLabels", 7, 7, "private bool showLabels"),
        ("method", "DebugDraw", "OnDrawGizmos", 13, 13, "void OnDrawGizmos()"),
        ("method", "DebugDraw", "OnGUI", 15, 15, "void OnGUI()"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 3, "base"),
        ("Color", 6, "param"),
        ("Gizmos", 6, "static"),
        ("Color", 9, "param"),
    }
    assert rec.defines == ("DEVELOPMENT_BUILD", "UNITY_EDITOR", "UNITY_WEBGL")


def test_if_header() -> None:
    """A header in each branch of an `#if`, one body after it: valid C#, read whole (it was partial,
    "3 syntax error regions", before session 50), the bases of both branches kept."""
    rec = _scan("if_header.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "Tools", "LevelTool", 6, 14, "public class LevelTool : Editor"),
        ("field", "Tools.LevelTool", "gridSize", 11, 11, "public int gridSize = 4"),
        ("method", "Tools.LevelTool", "OnEnable", 13, 13, "void OnEnable()"),
    ]
    assert _refs(rec) == {
        ("Editor", 6, "base"),
        ("MonoBehaviour", 8, "base"),
    }
    assert _sym(rec, "LevelTool").bases == ("Editor", "MonoBehaviour")


def test_if_header_braces() -> None:
    rec = _scan("if_header_braces.cs")  # each branch with its own `{`: read whole too
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "Tools", "Inspector", 4, 10, "public class Inspector : Editor"),
        ("field", "Tools.Inspector", "gridSize", 8, 8, "public int gridSize"),
        ("method", "Tools.Inspector", "OnEnable", 9, 9, "void OnEnable()"),
        ("class", "Tools", "Other", 12, 14, "public class Other : MonoBehaviour"),
        ("field", "Tools.Other", "speed", 13, 13, "public float speed"),
    ]
    assert _refs(rec) == {
        ("Editor", 4, "base"),
        ("MonoBehaviour", 6, "base"),
        ("MonoBehaviour", 12, "base"),
    }
    assert _sym(rec, "Inspector").bases == ("Editor", "MonoBehaviour")
    assert rec.defines == ("UNITY_EDITOR",)


def test_unsafe() -> None:
    rec = _scan("unsafe.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("struct", "", "PixelBuffer", 1, 12, "public unsafe struct PixelBuffer"),
        ("field", "PixelBuffer", "data", 3, 3, "public fixed byte data"),
        ("field", "PixelBuffer", "cursor", 4, 4, "private int* cursor"),
        ("method", "PixelBuffer", "Clear", 6, 11, "public void Clear(Color32* dst, int n)"),
    ]
    assert _refs(rec) == {
        ("Color32", 6, "param"),
        ("Span", 8, "local"),
        ("Vertex", 8, "generic"),
        ("Vertex", 8, "new"),
    }
    assert _sym(rec, "data").modifiers == ("public", "fixed")
    assert _sym(rec, "cursor").type == "int*"


def test_half_typed() -> None:
    rec = _scan("half_typed.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("partial", "3 syntax error regions", (3, 9, 16))
    assert _syms(rec) == [
        ("class", "", "Enemy", 3, 19, "public class Enemy : MonoBehaviour"),
        ("field", "Enemy", "hp", 5, 5, "public int hp"),
        ("method", "Enemy", "Update", 7, 9, "void Update()"),
        ("method", "Enemy", "Start", 11, 14, "void Start()"),
        ("property", "Enemy", "Speed", 16, 16, "public float Speed { get; set; }"),
        ("method", "Enemy", "Hit", 18, 18, "public void Hit(int dmg)"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 3, "base"),
        ("Player", 13, "generic"),
    }


def test_half_typed_last() -> None:
    rec = _scan("half_typed_last.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("partial", "2 syntax error regions", (1, 7))
    assert _syms(rec) == [
        ("class", "", "Spawner", 1, 8, "public class Spawner : MonoBehaviour"),
        ("field", "Spawner", "prefab", 3, 3, "public GameObject prefab"),
        ("method", "Spawner", "Spawn", 5, 7, "void Spawn()"),
        ("class", "", "After", 10, 13, "public class After : MonoBehaviour"),
        ("field", "After", "x", 12, 12, "public int x"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 1, "base"),
        ("GameObject", 3, "field"),
        ("MonoBehaviour", 10, "base"),
    }


def test_events() -> None:
    rec = _scan("events.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "", "Health", 4, 15, "public class Health : MonoBehaviour"),
        ("event", "Health", "Damaged", 6, 6, "public event Action<int> Damaged"),
        ("event", "Health", "Healed", 6, 6, "public event Action<int> Healed"),
        ("field", "Health", "onDeath", 7, 7, "public UnityEvent onDeath"),
        ("field", "Health", "_died", 9, 9, "private EventHandler<DeathArgs> _died"),
        ("event", "Health", "Died", 10, 14, "public event EventHandler<DeathArgs> Died { add; remove; }"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 4, "base"),
        ("Action", 6, "event"),
        ("UnityEvent", 7, "field"),
        ("DeathArgs", 9, "generic"),
        ("EventHandler", 9, "field"),
        ("DeathArgs", 10, "generic"),
        ("EventHandler", 10, "event"),
    }
    assert [(s.name, s.type) for s in rec.symbols if s.kind == "event"] == [
        ("Damaged", "Action<int>"),
        ("Healed", "Action<int>"),
        ("Died", "EventHandler<DeathArgs>"),
    ]


def test_properties() -> None:
    rec = _scan("properties.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "", "Stats", 1, 9, "public class Stats : MonoBehaviour"),
        ("field", "Stats", "_hp", 3, 3, "private int _hp"),
        ("property", "Stats", "Hp", 4, 4, "public int Hp { get; }"),
        ("property", "Stats", "IsDead", 5, 5, "public bool IsDead { get; }"),
        ("property", "Stats", "Ratio", 6, 6, "public float Ratio { get; protected set; }"),
        ("property", "Stats", "Current", 7, 7, "public Weapon Current { get; init; }"),
        ("indexer", "Stats", "this", 8, 8, "public int this[StatKind kind] { get; }"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 1, "base"),
        ("Weapon", 7, "new"),
        ("Weapon", 7, "property"),
        ("StatKind", 8, "param"),
    }
    assert _sym(rec, "Current").type == "Weapon"
    assert _sym(rec, "this").type == "int"


def test_operators() -> None:
    rec = _scan("operators.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("struct", "", "Money", 1, 14, "public readonly struct Money"),
        ("field", "Money", "cents", 3, 3, "public readonly long cents"),
        ("constructor", "Money", "Money", 5, 5, "public Money(long c)"),
        ("operator", "Money", "operator +", 7, 7, "public static Money operator +(Money a, Money b)"),
        ("operator", "Money", "operator ==", 8, 8, "public static bool operator ==(Money a, Money b)"),
        ("operator", "Money", "operator !=", 9, 9, "public static bool operator !=(Money a, Money b)"),
        (
            "conversion",
            "Money",
            "implicit operator decimal",
            10,
            10,
            "public static implicit operator decimal(Money m)",
        ),
        ("conversion", "Money", "explicit operator Money", 11, 11, "public static explicit operator Money(Price p)"),
        ("destructor", "Money", "~Money", 13, 13, "~Money()"),
    ]
    assert _refs(rec) == {
        ("Money", 7, "new"),
        ("Money", 7, "param"),
        ("Money", 7, "return"),
        ("Money", 8, "param"),
        ("Money", 9, "param"),
        ("Money", 10, "param"),
        ("Money", 11, "new"),
        ("Money", 11, "return"),
        ("Price", 11, "param"),
    }
    assert _sym(rec, "operator +").type == "Money"
    assert _sym(rec, "implicit operator decimal").modifiers == ("public", "static")


def test_enums() -> None:
    rec = _scan("enums.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("enum", "Game", "Layer", 4, 9, "public enum Layer : byte"),
        ("enum_member", "Game.Layer", "None", 6, 6, "None = 0"),
        ("enum_member", "Game.Layer", "Ground", 7, 7, "Ground = 1 << 0"),
        ("enum_member", "Game.Layer", "Water", 8, 8, "Water = 1 << 1"),
    ]
    assert _refs(rec) == {
        ("System.Flags", 3, "attribute"),
        ("InspectorName", 8, "attribute"),
    }
    assert _sym(rec, "Layer").bases == ("byte",)
    assert _sym(rec, "Water").attributes == ('InspectorName("Water Surface")',)


def test_delegates() -> None:
    rec = _scan("delegates.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("delegate", "", "HitHandler", 1, 1, "public delegate void HitHandler(Enemy target, int damage)"),
        ("delegate", "", "Factory", 2, 2, "public delegate TResult Factory<out TResult>() where TResult : Object"),
        ("class", "", "Combat", 4, 8, "public class Combat"),
        ("delegate", "Combat", "Filter", 6, 6, "public delegate bool Filter(in Hit hit)"),
        ("field", "Combat", "onHit", 7, 7, "public HitHandler onHit"),
    ]
    assert _refs(rec) == {
        ("Enemy", 1, "param"),
        ("Object", 2, "constraint"),
        ("Hit", 6, "param"),
        ("HitHandler", 7, "field"),
    }
    assert _sym(rec, "Factory").type == "TResult"
    assert _sym(rec, "HitHandler").type == "void"


def test_interface_default() -> None:
    rec = _scan("interface_default.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("interface", "Game.Combat", "IDamageable", 3, 10, "public interface IDamageable"),
        ("property", "Game.Combat.IDamageable", "Health", 5, 5, "int Health { get; }"),
        ("method", "Game.Combat.IDamageable", "TakeDamage", 6, 6, "void TakeDamage(int amount)"),
        ("property", "Game.Combat.IDamageable", "IsAlive", 7, 7, "bool IsAlive { get; }"),
        ("method", "Game.Combat.IDamageable", "Kill", 8, 8, "void Kill()"),
        ("property", "Game.Combat.IDamageable", "None", 9, 9, "static IDamageable None { get; }"),
    ]
    assert _refs(rec) == {
        ("IDamageable", 9, "property"),
    }
    assert _sym(rec, "None").modifiers == ("static",)


def test_refs() -> None:
    rec = _scan("refs.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert _syms(rec) == [
        ("class", "", "Shooter", 5, 24, "public class Shooter : MonoBehaviour"),
        ("field", "Shooter", "fireButton", 7, 7, "public UnityEngine.UI.Button fireButton"),
        ("field", "Shooter", "pool", 8, 8, "private Bullet[] pool"),
        ("field", "Shooter", "weapon", 9, 9, "private Weapon? weapon"),
        ("method", "Shooter", "Fire", 11, 23, "void Fire(Transform origin)"),
    ]
    assert _refs(rec) == {
        ("RequireComponent", 4, "attribute"),
        ("Rigidbody2D", 4, "typeof"),
        ("MonoBehaviour", 5, "base"),
        ("UnityEngine.UI.Button", 7, "field"),
        ("Bullet", 8, "field"),
        ("Weapon", 9, "field"),
        ("Transform", 11, "param"),
        ("Rigidbody2D", 13, "generic"),
        ("Bullet", 14, "as"),
        ("Bullet", 14, "local"),
        ("Turret", 15, "is"),
        ("Physics2D", 16, "static"),
        ("RaycastHit2D", 16, "cast"),
        ("Vector2", 16, "static"),
        ("GameManager", 17, "static"),
        ("Debug", 18, "static"),
        ("MissingReferenceException", 18, "catch"),
        ("Enemy", 19, "generic"),
        ("Enemy", 19, "local"),
        ("Enemy", 20, "generic"),
        ("System.Collections.Generic.List", 20, "new"),
        ("Weapon", 20, "generic"),
    }
    assert _sym(rec, "weapon").type == "Weapon?"


def test_partial_classes_across_two_files_keep_both_parts() -> None:
    a, b = _scan("partial_a.cs"), _scan("partial_b.cs")
    parts = [s for rec in (a, b) for s in rec.symbols if s.name == "PlayerController"]
    assert [(s.qualified, s.bases) for s in parts] == [
        ("PlayerController", ("MonoBehaviour",)),
        ("PlayerController", ("IDamageable",)),
    ]


def test_usings_representation() -> None:
    src = b"""using UnityEngine;
using static UnityEngine.Mathf;
using Foo = Bar.Baz;
global using global::System.Text;
using UI = UnityEngine.UI;
namespace A.B { namespace C { using Inner.Ns; class K { } } }
"""
    rec = csharp.scan("Assets/u.cs", src)
    assert rec.status == "ok"
    assert rec.usings == (
        "UnityEngine",
        "static UnityEngine.Mathf",
        "Foo = Bar.Baz",
        "System.Text",
        "UI = UnityEngine.UI",
        "Inner.Ns",
    )
    assert rec.namespaces == ("A.B", "A.B.C")
    assert _syms(rec) == [("class", "A.B.C", "K", 6, 6, "class K")]
    # a `using static` names a type whose members the file uses bare: a ref (not an alias's target)
    assert [(r.target, r.line, r.context) for r in rec.refs] == [("UnityEngine.Mathf", 2, "using")]


def test_a_name_starting_with_a_using_alias_is_recorded_as_what_the_alias_stands_for() -> None:
    src = b"""using Sp = Game.Spawner;
using H = Health;
using Dict = System.Collections.Generic.Dictionary<string, Game.Spawner>;
class A {
  Sp spawner; Sp.Kind kind; Dict d; Spx other;
  void F() { H.Reset(); Health.Reset(); var s = new Sp(); }
}
"""
    rec = csharp.scan("Assets/a.cs", src)
    assert [(r.target, r.line, r.context) for r in rec.refs] == [
        ("Game.Spawner", 3, "generic"),
        ("Game.Spawner", 5, "field"),
        ("Game.Spawner.Kind", 5, "field"),
        ("Spx", 5, "field"),
        ("System.Collections.Generic.Dictionary<string,Game.Spawner>", 5, "field"),
        ("Game.Spawner", 6, "new"),
        ("Health", 6, "static"),
    ]


def test_static_heuristic_skips_locals_members_and_namespaces() -> None:
    src = b"""using UnityEngine;
class P : MonoBehaviour {
    public Rigidbody Body;
    void Go(Vector3 Dir) {
        var Cache = 1;
        Body.AddForce(Dir.normalized);
        UnityEngine.Debug.Log(Cache.ToString());
        Mathf.Clamp(1, 2, 3);
        Singleton<GameManager>.Instance.Go();
        transform.position = Vector3.zero;
        int.Parse("1");
    }
}
"""
    rec = csharp.scan("Assets/p.cs", src)
    assert {r for r in _refs(rec) if r[2] == "static"} == {
        ("Mathf", 8, "static"),
        ("Singleton", 9, "static"),
        ("Vector3", 10, "static"),
    }
    assert ("GameManager", 9, "generic") in _refs(rec)


def test_more_ref_contexts() -> None:
    src = b"""class Q {
    void M(object o) {
        bool a = o is Foo;
        switch (o) { case Boss b: break; }
        if (o is Door { Open: true } d) { }
        var s = sizeof(Vec2);
        var z = default(Dmg);
        Try(out Loot loot);
        using (Stream st = Open()) { }
        for (Cursor c = null; c != null; ) { }
        (Enemy e, int n) t = default;
        System.Func<Enemy, Hit> f = (Enemy x) => null;
    }
}
"""
    rec = csharp.scan("Assets/q.cs", src)
    assert _refs(rec) == {
        ("Foo", 3, "is"),
        ("Boss", 4, "is"),
        ("Door", 5, "is"),
        ("Vec2", 6, "typeof"),
        ("Dmg", 7, "typeof"),
        ("Loot", 8, "local"),
        ("Stream", 9, "local"),
        ("Cursor", 10, "local"),
        ("Enemy", 11, "local"),
        ("System.Func", 12, "local"),
        ("Enemy", 12, "generic"),
        ("Hit", 12, "generic"),
        ("Enemy", 12, "param"),
    }


def test_duplicate_if_branches_merge_members_with_same_signature() -> None:
    src = b"""class W {
#if UNITY_EDITOR
    public int x;
    public void F(int a) { }
#else
    public int x;
    public void F(int a) { }
    public void F(string a) { }
#endif
}
"""
    rec = csharp.scan("Assets/w.cs", src)
    assert _syms(rec) == [
        ("class", "", "W", 1, 10, "class W"),
        ("field", "W", "x", 3, 3, "public int x"),
        ("method", "W", "F", 4, 4, "public void F(int a)"),
        ("method", "W", "F", 8, 8, "public void F(string a)"),
    ]


def test_partial_class_twice_in_one_file_is_not_merged() -> None:
    src = b"partial class A { int x; }\npartial class A { int y; }\n"
    rec = csharp.scan("Assets/a.cs", src)
    assert _syms(rec) == [
        ("class", "", "A", 1, 1, "partial class A"),
        ("field", "A", "x", 1, 1, "int x"),
        ("class", "", "A", 2, 2, "partial class A"),
        ("field", "A", "y", 2, 2, "int y"),
    ]


def test_member_line_is_the_name_line_not_the_attribute_line() -> None:
    src = b"class A {\n    [SerializeField]\n    [Range(0, 1)]\n    private float\n        volume;\n}\n"
    rec = csharp.scan("Assets/a.cs", src)
    assert _syms(rec)[1] == ("field", "A", "volume", 5, 5, "private float volume")


def test_multiline_signature_is_collapsed() -> None:
    src = b"class A {\n    public   static\n  T   Get<T>(\n  int   a,\n  int b)\n"
    src += b"   where T : Object\n  { return null; }\n}\n"
    rec = csharp.scan("Assets/a.cs", src)
    assert _syms(rec)[1] == ("method", "A", "Get", 3, 7, "public static T Get<T>( int a, int b) where T : Object")


def test_empty_and_whitespace_files() -> None:
    for data in (b"", b"   \n\t\n", b"\xef\xbb\xbf"):
        rec = csharp.scan("Assets/e.cs", data)
        assert (rec.kind, rec.status, rec.note, rec.symbols, rec.refs) == ("csharp", "ok", "", (), ())


def test_bom_keeps_lines_and_columns() -> None:
    rec = csharp.scan("Assets/b.cs", b"\xef\xbb\xbfusing UnityEngine;\nclass B : MonoBehaviour { }\n")
    assert rec.status == "ok"
    assert rec.usings == ("UnityEngine",)
    assert _syms(rec) == [("class", "", "B", 2, 2, "class B : MonoBehaviour")]


def test_invalid_utf8_does_not_crash() -> None:
    src = b'class C {\n    // caf\xe9 \xff\xfe\n    string s = "\xe9t\xe9";\n    public int \xe9x;\n    int ok;\n}\n'
    rec = csharp.scan("Assets/c.cs", src)
    assert rec.status in ("ok", "partial")
    assert ("field", "C", "ok", 5, 5, "int ok") in _syms(rec)
    assert ("field", "C", "s", 3, 3, 'string s = "\ufffdt\ufffd"') in _syms(rec)


def test_binary_content_is_skipped() -> None:
    rec = csharp.scan("Assets/bin.cs", b"MZ\x90\x00\x03\x00\x00\x00\x04\x00class A {}")
    assert (rec.status, rec.note, rec.symbols) == ("skipped", "binary content", ())


def test_internal_failure_becomes_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: object) -> None:
        raise RuntimeError("kaput")

    monkeypatch.setattr(csharp._Scan, "run", boom)
    rec = csharp.scan("Assets/x.cs", b"class A {}")
    assert (rec.status, rec.note) == ("skipped", "scanner error: RuntimeError: kaput")


def test_garbage_never_raises() -> None:
    samples = [
        b"}}}}{{{{",
        b"#if\n#else\n#endif\n#endif",
        b"class",
        b"class A : {",
        b"namespace ; using = ; [",
        b"public class A<T where : { void M( { int x = ; } }",
        bytes(range(1, 256)) * 3,
        b"\xef\xbb\xbf\xef\xbb\xbf class A {}",
    ]
    for data in samples:
        rec = csharp.scan("Assets/g.cs", data)
        assert rec.status in ("ok", "partial"), (data, rec.note)


# ----- errors inside code bodies: declarations come from a copy with the bodies blanked -------------


def test_unsafe_bodies() -> None:
    rec = _scan("unsafe_bodies.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("partial", "5 syntax error regions", (1, 12, 18, 21, 25))
    assert _syms(rec) == [
        ("class", "Game.Audio", "SampleMixer", 6, 27, "public unsafe class SampleMixer : MonoBehaviour"),
        ("field", "Game.Audio.SampleMixer", "channels", 8, 8, "private int channels = 2"),
        (
            "method",
            "Game.Audio.SampleMixer",
            "CompareSamples",
            10,
            13,
            "public static int CompareSamples(void* a, void* b)",
        ),
        ("method", "Game.Audio.SampleMixer", "Attenuate", 15, 19, "public void Attenuate(void* buffer, int count)"),
        ("property", "Game.Audio.SampleMixer", "Peak", 21, 21, "public float Peak { get; private set; }"),
        (
            "method",
            "Game.Audio.SampleMixer",
            "OnAudioFilterRead",
            23,
            26,
            "private void OnAudioFilterRead(float[] data, int channelCount)",
        ),
        ("struct", "Game.Audio", "MixerState", 29, 32, "public struct MixerState"),
        ("field", "Game.Audio.MixerState", "voices", 31, 31, "public int voices"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 6, "base"),
        ("SerializeField", 8, "attribute"),
        ("Mathf", 25, "static"),  # inside a body: from the original parse
    }
    assert rec.namespaces == ("Game.Audio",)


def test_error_in_property_accessor() -> None:
    rec = _scan("accessor_error.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("partial", "6 syntax error regions", (1, 10, 11, 14, 16, 18))
    assert _syms(rec) == [
        ("class", "", "NativeCounter", 4, 20, "public class NativeCounter : MonoBehaviour"),
        ("field", "NativeCounter", "m_Buffer", 6, 6, "private IntPtr m_Buffer"),
        ("property", "NativeCounter", "Value", 8, 12, "public unsafe int Value { get; set; }"),
        ("property", "NativeCounter", "Doubled", 14, 14, "public int Doubled { get; }"),
        ("method", "NativeCounter", "ResetCounter", 16, 19, "public void ResetCounter(Transform owner)"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 4, "base"),
        ("IntPtr", 6, "field"),
        ("Transform", 16, "param"),
    }


def test_error_in_lambda_of_field_initializer() -> None:
    rec = _scan("lambda_field.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("partial", "4 syntax error regions", (1, 8, 13, 15))
    assert _syms(rec) == [
        ("class", "", "Spawner", 4, 17, "public class Spawner : MonoBehaviour"),
        ("field", "Spawner", "ReadCount", 6, 9, "public static readonly Func<IntPtr, int> ReadCount"),
        ("field", "Spawner", "prefab", 11, 11, "public GameObject prefab"),
        ("method", "Spawner", "Spawn", 13, 16, "public void Spawn(Vector3 at)"),
    ]
    assert _refs(rec) == {
        ("MonoBehaviour", 4, "base"),
        ("Func", 6, "field"),
        ("IntPtr", 6, "generic"),
        ("GameObject", 11, "field"),
        ("Vector3", 13, "param"),
        ("Quaternion", 15, "static"),
    }


def test_braces_in_strings_chars_and_comments_do_not_confuse_the_lexer() -> None:
    rec = _scan("lexer_strings.cs")
    assert (rec.status, rec.note, rec.error_lines) == ("partial", "3 syntax error regions", (3, 21, 24))
    assert _syms(rec) == [
        ("class", "", "Labels", 3, 25, "public class Labels : MonoBehaviour"),
        ("field", "Labels", "Open", 5, 5, 'private const string Open = "{"'),
        ("field", "Labels", "Close", 6, 6, "private const char Close = '}'"),
        ("field", "Labels", "Path", 9, 9, 'private static readonly string Path = @"C:\\{folder}\\"'),
        ("method", "Labels", "Format", 11, 17, "public string Format(int a, int b)"),
        ("method", "Labels", "Peek", 19, 22, "public unsafe int Peek(void* p)"),
        ("property", "Labels", "Name", 24, 24, "public string Name { get; set; }"),
    ]
    assert _refs(rec) == {("MonoBehaviour", 3, "base")}
    src = (CASES / "lexer_strings.cs").read_bytes()
    clean, bodies = csharp._declarations_only(src)
    assert len(clean) == len(src)
    old, new = src.split(b"\n"), clean.split(b"\n")
    assert len(old) == len(new)
    # Only the insides of Format (lines 12-17) and Peek (20-22) are blanked, and completely.
    assert [i + 1 for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b] == [13, 14, 15, 16, 21]
    assert all(not new[i - 1].strip() for i in (13, 14, 15, 16, 21))
    assert [(src[:s].count(b"\n") + 1, src[:e].count(b"\n") + 1) for s, e in bodies] == [(12, 17), (20, 22)]


def test_interpolation_holes_raw_strings_and_format_specs() -> None:
    src = b'''class A {
    void F() { var s = $"{new[] { 1 }.Length:#,0}}" + $@"{x}"" }"; var r = """ } """; }
    int a;
    void G() { var t = $"{(b ? "}" : "{")}"; }
}
'''
    lines = src.split(b"\n")
    f_body = b' var s = $"{new[] { 1 }.Length:#,0}}" + $@"{x}"" }"; var r = """ } """; '
    g_body = b' var t = $"{(b ? "}" : "{")}"; '
    clean, _ = csharp._declarations_only(src)
    assert clean.split(b"\n") == [
        lines[0],
        lines[1].replace(f_body, b" " * len(f_body)),
        lines[2],
        lines[3].replace(g_body, b" " * len(g_body)),
        lines[4],
        b"",
    ]


def test_expression_bodies_and_initializer_braces_are_blanked() -> None:
    src = b"""class A {
    int X => *(int*)p;
    int[] arr = { 1, 2 };
    [Values(new[] { 1 })] int Y { get => 1; set { y = value; } }
}
"""
    clean, _ = csharp._declarations_only(src)
    assert clean.split(b"\n")[1:4] == [
        b"    int X =>0        ;",  # `=> expression;` keeps a placeholder expression
        b"    int[] arr = {      };",
        b"    [Values(new[] {   })] int Y { get =>0 ; set {            } }",
    ]


def test_header_written_twice_in_if_branches_opens_one_body() -> None:
    src = b"""class A {
#if UNITY_EDITOR
    public void F(int a) {
#else
    public void F(long a) {
#endif
        *(int*)p = *(int*)p - *(int*)q;
    }
    public int after;
}
"""
    rec = csharp.scan("Assets/a.cs", src)
    assert (rec.status, rec.error_lines) == ("partial", (1, 4, 6, 7))
    assert _syms(rec) == [
        ("class", "", "A", 1, 10, "class A"),
        ("method", "A", "F", 3, 8, "public void F(int a)"),
        ("field", "A", "after", 9, 9, "public int after"),
    ]
    assert rec.defines == ("UNITY_EDITOR",)


def test_blanked_copy_is_built_only_for_files_with_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bytes] = []
    real = csharp._declarations_only

    def spy(data: bytes) -> tuple[bytes, list[tuple[int, int]]] | None:
        calls.append(data)
        return real(data)

    monkeypatch.setattr(csharp, "_declarations_only", spy)
    assert _scan("generics.cs").status == "ok"
    assert _scan("unsafe_bodies.cs").status == "partial"
    assert calls == [(CASES / "unsafe_bodies.cs").read_bytes()]


def test_defines_come_from_directives_that_start_a_line() -> None:
    """`#if` counts only as the first thing on its line (spaces and tabs before it, CRLF or LF);
    one inside a string or after code on its line is no directive."""
    src = (
        b'class A {\r\n  \t#  if FOO && !BAR // not BAZ\r\n  string s = "#if QUX";\r\n#endif\r\n'
        b"  int x; #elif NOPE\n#elif UNITY_EDITOR || true\n#endif\n#ifdef NOT_CSHARP\n}\n"
    )
    assert csharp.scan("A.cs", src).defines == ("BAR", "FOO", "UNITY_EDITOR")


def test_verbatim_identifiers_are_named_as_csharp_means_them() -> None:
    """`@PlayerControls` (the Input System's generated wrapper) is the class `PlayerControls`
    that other code names, and `@event` the method `event`."""
    src = b"""namespace Game
{
    public partial class @PlayerControls : IInputActionCollection2
    {
        public @PlayerControls() { }
        public struct GameplayActions { public void @event(int @class) { } }
    }
    class Reader { @PlayerControls.GameplayActions actions; PlayerControls controls; }
}
"""
    rec = csharp.scan("Assets/Input/PlayerControls.cs", src)
    assert [(s.kind, s.container, s.name) for s in rec.symbols] == [
        ("class", "Game", "PlayerControls"),
        ("constructor", "Game.PlayerControls", "PlayerControls"),
        ("struct", "Game.PlayerControls", "GameplayActions"),
        ("method", "Game.PlayerControls.GameplayActions", "event"),
        ("class", "Game", "Reader"),
        ("field", "Game.Reader", "actions"),
        ("field", "Game.Reader", "controls"),
    ]
    assert rec.symbols[0].signature == "public partial class @PlayerControls : IInputActionCollection2"
    assert {(r.target, r.line, r.context) for r in rec.refs} == {
        ("IInputActionCollection2", 3, "base"),
        ("PlayerControls.GameplayActions", 8, "field"),
        ("PlayerControls", 8, "field"),
    }


def test_a_member_chain_100000_deep_is_scanned_in_a_second() -> None:
    """tree-sitter's query cursor costs the square of the syntax tree's depth: this 200 KB field
    initializer (small enough to be scanned in the indexer's own process, with no time budget)
    took 100 s. Matches start at most csharp_query.MAX_START_DEPTH deep; what lies above is read."""
    import time

    text = "class Chain { PlayerHealth health; object x = " + "a." * 100_000 + "a; }\n"
    t0 = time.monotonic()
    rec = csharp.scan("Assets/Chain.cs", text.encode())
    assert time.monotonic() - t0 < 10
    assert rec.status == "ok" and [s.name for s in rec.symbols] == ["Chain", "health", "x"]
    assert [(r.target, r.context) for r in rec.refs] == [("PlayerHealth", "field")]


def _nested_ifs(depth: int) -> bytes:
    ifs = "".join(f"#if A{i + 1}\n" for i in range(depth))
    return (
        "using UnityEngine;\n" + ifs + "public class Deep : MonoBehaviour { void Update() {} }\n" + "#endif\n" * depth
    ).encode()


def test_a_class_inside_deeply_nested_ifs_is_read_or_the_record_says_why_not() -> None:
    """docs/indexing.md: each `#if` nests the syntax tree one level deeper, and matches start at
    most MAX_START_DEPTH deep: a class inside 1,000 nested `#if` was dropped with status "ok" and
    no note. Up to MAX_IF_NESTING (800) everything is read; past it the record is "partial" and
    says why."""
    for depth in (50, 800):
        rec = csharp.scan("Assets/Deep.cs", _nested_ifs(depth))
        assert (rec.status, rec.note) == ("ok", ""), depth
        assert [(s.kind, s.name) for s in rec.symbols] == [("class", "Deep"), ("method", "Update")], depth
    for depth in (801, 1000):
        rec = csharp.scan("Assets/Deep.cs", _nested_ifs(depth))
        assert (rec.status, rec.note) == (
            "partial",
            f"#if nested {depth:,} deep, over 800: declarations past the parser's depth limit are not read",
        ), depth
    assert [s.name for s in csharp.scan("Assets/Deep.cs", _nested_ifs(801)).symbols] == ["Deep", "Update"]
    assert csharp.scan("Assets/Deep.cs", _nested_ifs(1000)).symbols == ()


def test_a_syntax_error_region_over_the_widest_allowed_is_skipped_with_the_reason() -> None:
    """docs/indexing.md: tree-sitter's query cursor costs the square of an ERROR node's width (a
    150 KB run of `{` took 27 s, in the indexer's own process). A region over MAX_ERROR_WIDTH, at
    the top or inside a declaration, is refused before any query; one under it is scanned."""
    flat = csharp.scan("Assets/Flat.cs", b"{" * 150_000)
    assert (flat.status, flat.note) == (
        "skipped",
        "a syntax error region of over 20,000 tokens (150,000): not indexed",
    )
    nested = csharp.scan("Assets/Nested.cs", b"namespace N { class A { void M() { " + b"{" * 30_000)
    assert nested.status == "skipped" and nested.note.startswith("a syntax error region of over 20,000 tokens")
    under = csharp.scan("Assets/Under.cs", b"class A { " + b"{" * 19_000 + b" }\nclass B { }\n")
    assert under.status == "partial" and [s.name for s in under.symbols] == ["A", "B"]


def test_primary_constructor_arguments_and_explicit_interface_names_in_headers() -> None:
    """A class with a primary constructor passes arguments to its base (`: Base(n)`): the base is
    `Base`, not `Base` and an interface named `(n)`; a record's is `Base`, not `Base(Id)` (which no
    type is named, so the roles and derived types lost the record's base). An explicit interface implementation's
    signature reads as written (`int IScore.Total()`, not `int IScore. Total()`)."""
    src = (
        "public class Svc(int n, ILogger log) : Base(n, log), IScore, IScore2<int>\n"
        "{\n"
        "    int IScore.Total() => n;\n"
        "    int IScore2<int>.Total { get => n; }\n"
        "    event System.Action IScore.Changed { add {} remove {} }\n"
        "}\n"
    )
    rec = csharp.scan("Assets/Svc.cs", src.encode())
    assert (rec.status, rec.error_lines) == ("ok", ())
    assert _sym(rec, "Svc").bases == ("Base", "IScore", "IScore2<int>")
    records = csharp.scan("Assets/R.cs", b"record Derived(string Id) : Base(Id), IX;\nrecord G(int N) : Box<int>(N);\n")
    assert [s.bases for s in records.symbols if s.kind == "record"] == [("Base", "IX"), ("Box<int>",)]
    assert _sym(rec, "Svc").signature == "public class Svc(int n, ILogger log) : Base(n, log), IScore, IScore2<int>"
    assert [s.signature for s in rec.symbols if s.name in ("Total", "Changed")] == [
        "int IScore.Total()",
        "int IScore2<int>.Total { get; }",
        "event System.Action IScore.Changed { add; remove; }",
    ]


def test_interpolated_strings_nested_2000_deep_are_lexed_without_recursion() -> None:
    """The lexer of broken files walked an interpolated string's holes by recursion: strings nested
    a few hundred deep (generated, or planted; tree-sitter gives up on them, so the lexer runs) ran
    Python out of stack and the file was skipped, "scanner error: RecursionError". What is open is
    kept on a list now: the file keeps its declarations."""
    nested = '$"{' * 2000 + "1" + '}"' * 2000
    src = f"class A {{\n  void F() {{ var s = {nested}; }}\n  Health h;\n}}\n"
    rec = csharp.scan("Assets/A.cs", src.encode())
    assert rec.status == "partial"
    assert [(s.name, s.line) for s in rec.symbols] == [("A", 1), ("F", 2), ("h", 3)]
    assert _refs(rec) == {("Health", 3, "field")}


def test_a_type_header_split_by_if_with_a_brace_in_each_branch_inside_a_namespace_or_type() -> None:
    """`#if`/`#else` around a class header whose `{` ends each branch's line: at the top of a file
    the ERROR's tokens were rebuilt into one type, but inside a block namespace or a class the
    second header parsed as a type nested in the first, which held everything after it (`N.Tool.
    Tool`, `After` inside `Tool`, the namespace lost). The copy parsed for declarations keeps one
    `{`, the last branch's; each header's bases count. Valid C#, read whole: status "ok" since
    session 50 (it was "partial")."""
    src = b"""namespace Game {
#if UNITY_EDITOR
public class Tool : Editor {
#elif NEW_INPUT
public class Tool : InputBase {
#else
public class Tool : MonoBehaviour {
#endif
    public int size;
}
public class Outer {
#if NEW_INPUT
    public class Reader : InputBase, IReader {
#else
    public class Reader : LegacyBase {
#endif
        void Read() {}
    }
    void After() {}
}
}
"""
    rec = csharp.scan("Assets/Tool.cs", src)
    assert rec.status == "ok" and rec.namespaces == ("Game",)
    assert _syms(rec) == [
        ("class", "Game", "Tool", 3, 10, "public class Tool : Editor"),
        ("field", "Game.Tool", "size", 9, 9, "public int size"),
        ("class", "Game", "Outer", 11, 20, "public class Outer"),
        ("class", "Game.Outer", "Reader", 13, 18, "public class Reader : InputBase, IReader"),
        ("method", "Game.Outer.Reader", "Read", 17, 17, "void Read()"),
        ("method", "Game.Outer", "After", 19, 19, "void After()"),
    ]
    assert _sym(rec, "Tool").bases == ("Editor", "InputBase", "MonoBehaviour")
    assert _sym(rec, "Reader").bases == ("InputBase", "IReader", "LegacyBase")
    # branches that hold members after their header: one body holds them all (the later headers'
    # bases are then left out of the type's, their refs kept)
    members = b"""namespace Game {
#if CSHARP_7_3_OR_NEWER
    public unsafe sealed class EnumSerializer<T> : Serializer<T> where T : unmanaged, Enum
    {
        private static readonly int SizeOf_T = sizeof(T);
#else
    public sealed class EnumSerializer<T> : Serializer<T>, ILegacy
    {
        static EnumSerializer() { }
#endif
        public void Write(T value) { }
    }
}
"""
    rec = csharp.scan("Assets/EnumSerializer.cs", members)
    assert _syms(rec) == [
        ("class", "Game", "EnumSerializer", 3, 12, "public unsafe sealed class EnumSerializer<T> : Serializer<T> "
         "where T : unmanaged, Enum"),
        ("field", "Game.EnumSerializer", "SizeOf_T", 5, 5, "private static readonly int SizeOf_T = sizeof(T)"),
        ("constructor", "Game.EnumSerializer", "EnumSerializer", 9, 9, "static EnumSerializer()"),
        ("method", "Game.EnumSerializer", "Write", 11, 11, "public void Write(T value)"),
    ]  # fmt: skip
    assert ("ILegacy", 7, "base") in _refs(rec)


def test_if_header_in_three_branches_is_read_whole_with_every_base() -> None:
    """csharp_recover.first_branches: every branch of an `#if`/`#elif`/`#else` a header alone
    (attributes, generics, constraints), one body after `#endif`: status "ok" (was "partial",
    before session 50), one type with the bases of all three and the first branch's attribute."""
    src = (
        b"using UnityEngine;\n"
        b"#if UNITY_EDITOR\n"
        b"[ExecuteInEditMode]\n"
        b"public class Pool<T> : Editor where T : Component\n"
        b"#elif UNITY_SERVER\n"
        b"public class Pool<T> : NetworkBehaviour where T : Component\n"
        b"#else\n"
        b"public class Pool<T> : MonoBehaviour where T : Component\n"
        b"#endif\n"
        b"{\n"
        b"    public T prefab;\n"
        b"}\n"
    )
    rec = csharp.scan("Assets/Pool.cs", src)
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert [(s.kind, s.name, s.line, s.end_line, s.container, s.bases, s.attributes) for s in rec.symbols] == [
        ("class", "Pool", 4, 12, "", ("Editor", "NetworkBehaviour", "MonoBehaviour"), ("ExecuteInEditMode",)),
        ("field", "prefab", 11, 11, "Pool", (), ()),
    ]
    assert rec.defines == ("UNITY_EDITOR", "UNITY_SERVER")


def test_if_header_beside_other_code_in_a_branch_stays_partial_with_both_bases() -> None:
    """Not every `#if` around a header is rewritten: a branch holding a header and a member too is
    no header alone, so the file keeps the ERROR recovery (partial, both bases)."""
    src = (
        b"#if UNITY_EDITOR\n"
        b"public class A : Editor\n"
        b"#else\n"
        b"public class A : MonoBehaviour\n"
        b"#endif\n"
        b"{\n"
        b"#if UNITY_EDITOR\n"
        b"    public int x;\n"
        b"#else\n"
        b"    public class B : MonoBehaviour { }\n"
        b"#endif\n"
        b"}\n"
    )
    rec = csharp.scan("Assets/A.cs", src)
    assert rec.status == "partial"
    assert [s.bases for s in rec.symbols if s.name == "A"] == [("Editor", "MonoBehaviour")]

"""The scanners stay linear on inputs shaped to hurt: deep nesting, long chains, one-line files.

Sizes are small but telling (a quadratic or recursive version takes minutes or crashes on them);
timings are never asserted. `python -m tests.scanner_stress` measures the full-size cases.
"""

from __future__ import annotations

from indexer.model import Symbol
from indexer.scanners import scan
from tests.scanner_stress import big_cs, deep_scene, nested_namespaces, with_syntax_error


def test_three_thousand_nested_namespaces() -> None:
    rec = scan("Assets/Deep.cs", "csharp", nested_namespaces(3000))
    outer = ".".join(f"N{i}" for i in range(3000))
    assert (rec.status, len(rec.namespaces)) == ("ok", 3000)
    assert rec.namespaces[-1] == outer
    assert [(s.kind, s.name, s.line, s.container) for s in rec.symbols] == [
        ("class", "Inner", 3001, outer),
        ("field", "x", 3001, f"{outer}.Inner"),
        ("method", "M", 3001, f"{outer}.Inner"),
    ]


def test_ten_thousand_deep_transform_chain() -> None:
    data = deep_scene(10_000, name="n")
    rec = scan("Assets/Deep.unity", "scene", data)
    assert (rec.status, rec.note) == ("ok", "20000 documents")
    objects = [s for s in rec.symbols if s.kind == "gameobject"]
    assert len(objects) == 10_000
    deepest = objects[-1]
    assert (deepest.name, deepest.line, deepest.container) == ("n", 3 + 9_999 * 20, "/".join(["n"] * 9_999))
    transform = rec.symbols[-1]
    assert transform == Symbol(
        "component", "Transform", deepest.line + 10, container="/".join(["n"] * 10_000), type=str(2 * 9_999 + 11)
    )


def test_one_line_file_with_a_broken_body() -> None:
    text = with_syntax_error(big_cs(0.2, one_line=True))  # one syntax error
    rec = scan("Assets/OneLine.cs", "csharp", text)
    assert rec.status == "partial"
    classes = [s for s in rec.symbols if s.kind == "class"]
    n = text.count(b"public class Widget")
    assert [c.name for c in classes] == [f"Widget{i}" for i in range(n)]
    assert all(c.line == 1 and c.container == "Game.Big" for c in classes)
    last = [s for s in rec.symbols if s.container == f"Game.Big.Widget{n - 1}"]
    assert [(s.kind, s.name) for s in last] == [
        ("field", f"speed{n - 1}"), ("field", "items"), ("property", "Count"), ("field", "label"),
        ("method", "Update"), ("method", "Make"),
    ]  # fmt: skip

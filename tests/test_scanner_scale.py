"""The scanners stay linear on inputs shaped to hurt: deep nesting, long chains, one-line files.

Sizes are small but telling (a quadratic or recursive version takes minutes or crashes on them);
timings are never asserted. `python -m tests.scanner_stress` measures the full-size cases.
"""

from __future__ import annotations

import pytest

from indexer.model import Symbol
from indexer.scanners import scan
from tests.scanner_stress import big_cs, deep_scene, nested_namespaces, with_syntax_error


def test_namespaces_and_types_nested_64_deep_are_named_in_full() -> None:
    rec = scan("Assets/Deep.cs", "csharp", nested_namespaces(63))
    outer = ".".join(f"N{i}" for i in range(63))
    assert (rec.status, len(rec.namespaces)) == ("ok", 63)
    assert rec.namespaces[-1] == outer
    assert [(s.kind, s.name, s.line, s.container) for s in rec.symbols] == [
        ("class", "Inner", 64, outer),
        ("field", "x", 64, f"{outer}.Inner"),
        ("method", "M", 64, f"{outer}.Inner"),
    ]


@pytest.mark.parametrize("broken", [False, True])
@pytest.mark.parametrize("depth", [65, 3000, 6000])
def test_deeper_nesting_is_skipped_with_the_reason(depth: int, broken: bool) -> None:
    """Every declaration records its container's full name, so nesting costs the square of its
    depth: 6,000 nested namespaces (119 KB) took `index` 12.6 s, 2.5 GB of memory and a 218 MB
    index. Real code nests a handful of namespaces and types: past 64 the file is skipped, at
    once, with or without syntax errors."""
    data = nested_namespaces(depth)
    if broken:
        data = data.replace(b"class Inner { int x;", b"class Inner { int x(;")
    rec = scan("Assets/Deep.cs", "csharp", data)
    assert (rec.status, rec.note) == ("skipped", "namespaces and types nested over 64 deep: not indexed")
    assert rec.symbols == () and rec.namespaces == ()


def test_nested_types_count_with_namespaces() -> None:
    data = b"namespace A { " * 30 + b"class C { " * 35 + b"}" * 65
    assert scan("Assets/Deep.cs", "csharp", data).status == "skipped"
    assert scan("Assets/Deep.cs", "csharp", data.replace(b"class C { ", b"", 1)[:-1]).status == "ok"


def test_ten_thousand_deep_transform_chain() -> None:
    """Recorded to 1,000 levels since session 52 (the paths are quadratic: 6,000 levels of longer
    names got a scanner process killed, the whole file skipped), the rest counted."""
    data = deep_scene(10_000, name="n")
    rec = scan("Assets/Deep.unity", "scene", data)
    assert (rec.status, rec.note) == (
        "partial",
        "20000 documents; 9000 objects nested over 1000 levels deep: not recorded",
    )
    objects = [s for s in rec.symbols if s.kind == "gameobject"]
    assert len(objects) == 1_000
    deepest = objects[-1]
    assert (deepest.name, deepest.line, deepest.container) == ("n", 3 + 999 * 20, "/".join(["n"] * 999))
    transform = rec.symbols[-1]
    assert transform == Symbol(
        "component", "Transform", deepest.line + 10, container="/".join(["n"] * 1_000), type=str(2 * 999 + 11)
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

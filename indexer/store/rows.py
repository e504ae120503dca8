"""The SQL rows derived from a record: its types, its references' simple names, its main type."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator

from indexer.model import TYPE_KINDS, FileRecord

TEST_ATTRIBUTES = frozenset({"TestFixture", "Test", "UnityTest", "TestCase", "TestCaseSource"})


def type_rows(rec: FileRecord) -> Iterator[tuple]:
    tested = {s.container for s in rec.symbols if s.kind == "method" and _has_test_attribute(s.attributes)}
    declared = {s.qualified for s in rec.symbols if s.kind in TYPE_KINDS}
    for s in rec.symbols:
        if s.kind in TYPE_KINDS:
            q = s.qualified
            test = _has_test_attribute(s.attributes) or q in tested
            bases = json.dumps(list(s.bases))
            namespace = s.container
            while namespace in declared:  # outer types are declared in the same file
                namespace = namespace.rpartition(".")[0]
            partial = "partial" in s.modifiers
            yield (rec.path, q, s.line, s.name, s.kind, s.container, bases, partial, test, namespace, s.kind)


def type_shape(row: tuple) -> tuple:
    """What a type row's role depends on: all but its line and its role."""
    return (row[0], row[1], *row[3:10])


def visible_name(row: tuple) -> tuple:
    """What name resolution in other files sees of a type row: name, qualified name, namespace."""
    return (row[3], row[1], row[9])


def _has_test_attribute(attributes: Iterable[str]) -> bool:
    for a in attributes:
        name = a.split("(", 1)[0].strip().rsplit(".", 1)[-1]
        if name.endswith("Attribute"):
            name = name[:-9]
        if name in TEST_ATTRIBUTES:
            return True
    return False


def simple_name(kind: str, target: str) -> str:
    """The last name of a reference target, for lookups by name: `A.B.Heal` -> `Heal`,
    `Shaders/Common.hlsl` -> `Common.hlsl`; GUIDs and assembly names stay whole."""
    if kind == "include":
        return target.rsplit("/", 1)[-1]
    if kind in ("type", "method"):
        return target.rsplit(".", 1)[-1]
    return target


def main_type(rec: FileRecord) -> str:
    """The class Unity binds a script asset to: the top-level type named like the file."""
    stem = os.path.splitext(os.path.basename(rec.path))[0]
    for s in rec.symbols:
        if s.kind in TYPE_KINDS and s.name == stem:
            return s.qualified
    return ""

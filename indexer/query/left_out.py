"""Fields the index left out of an object with many, counted where an outline shows the object.

A record keeps an object's first MAX_FIELDS_PER_OBJECT serialized fields and its last LAST_FIELDS_KEPT
(`scanners/yaml_facts.fields_left_out`: a base class's fields come first, a subclass's own last);
those between were left out without a word (`describe` of a data asset of 80 fields showed 60,
a component's `… 48 more` counted the 60 kept). They are counted here from the file's text, the
keys at the kept fields' indentation between the last of the first ones and the first of the last.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from indexer.model import Symbol
from indexer.query.graph import Graph
from indexer.shown import LAST_FIELDS_KEPT, MAX_FIELDS_PER_OBJECT


class Gap(msgspec.Struct, frozen=True):
    """The fields left out: how many, and the lines of the first and the last of them."""

    count: int
    first: int
    last: int

    def said(self) -> str:
        return (
            f"… {self.count} more field{'s' if self.count != 1 else ''} (L{self.first}-L{self.last}), not in the index"
        )


def gap_in(graph: Graph, path: str, fields: Sequence[Symbol]) -> Gap | None:
    """The fields of one object (in the file's order) the index left out; None when it kept all."""
    if len(fields) != MAX_FIELDS_PER_OBJECT + LAST_FIELDS_KEPT:
        return None
    before, after = fields[MAX_FIELDS_PER_OBJECT - 1].line, fields[MAX_FIELDS_PER_OBJECT].line
    lines = graph.file_lines(path)
    if not 0 < before < after - 1 or len(lines) < after:
        return None
    kept = lines[before - 1]
    key = re.compile(rf" {{{len(kept) - len(kept.lstrip(' '))}}}[^\s#-]")
    found = [before + 1 + i for i, text in enumerate(lines[before : after - 1]) if key.match(text)]
    return Gap(len(found), found[0], found[-1]) if found else None

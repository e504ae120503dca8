"""The parse floor: every C# file read and parsed by tree-sitter (the grammar the indexer uses),
on all cores, nothing else done with the trees. A cold index cannot be faster than this while it
parses every file; the suite states the cold index of the C#-only tree as a ratio of it."""

from __future__ import annotations

import os
import time
from pathlib import Path

CHUNK = 32  # files per task: small enough that both cores finish together


def _parse(paths: list[str]) -> int:
    import tree_sitter as ts
    import tree_sitter_c_sharp as tscs

    parser = ts.Parser(ts.Language(tscs.language()))
    for p in paths:
        with open(p, "rb") as f:
            parser.parse(f.read())
    return len(paths)


def _parse_and_query(paths: list[str]) -> int:
    """Each file parsed and its captures taken by the C# scanner's one query, as the scanner
    does before any Python touches a node: the floor of any scanner built on that query."""
    from indexer.scanners.csharp_query import engine

    parser, query, cursor = engine()
    captures = cursor(query).captures
    for p in paths:
        with open(p, "rb") as f:
            captures(parser.parse(f.read()).root_node)
    return len(paths)


def cs_files(tree: Path) -> list[str]:
    out = []
    for folder, dirs, names in os.walk(tree):
        dirs.sort()
        out += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".cs")]
    return out


def parse_all(files: list[str], workers: int | None = None, query: bool = False) -> float:
    """Wall seconds to parse `files` (and with `query`, take the C# scanner's captures of each) in
    a pool of `workers` processes (all cores), pool start included (the indexer starts its scanner
    processes too)."""
    import multiprocessing

    n = workers or os.cpu_count() or 1
    chunks = [files[i : i + CHUNK] for i in range(0, len(files), CHUNK)]
    t = time.perf_counter()
    with multiprocessing.get_context("forkserver").Pool(n) as pool:
        done = sum(pool.imap_unordered(_parse_and_query if query else _parse, chunks))
    wall = time.perf_counter() - t
    assert done == len(files)
    return wall

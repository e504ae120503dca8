"""How many components whose script is not in the project `indexer/query/package_scripts.json` names.

    python -m tests.bench.package_coverage PROJECT...

Counts every `m_Script` GUID of the projects' prefabs, scenes and `.asset` files that no `.meta` of
the same project holds (a package's script, or a missing one), and how many of them the table
names. Docs/cli.md quotes it for ten public projects.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from indexer.query.package_classes import PACKAGES

_GUID = re.compile(r"guid: ([0-9a-f]{32})")
_SCRIPT = re.compile(r"m_Script: \{fileID: 11500000, guid: ([0-9a-f]{32})")


def unresolved(root: Path) -> list[str]:
    """The script GUIDs of the project's assets, one per use, that no .meta of it holds."""
    own = {m.group(1) for p in root.rglob("*.meta") if (m := _GUID.search(p.read_text(errors="replace")))}
    uses = []
    for pattern in ("*.prefab", "*.unity", "*.asset"):
        for p in root.rglob(pattern):
            uses += [g for g in _SCRIPT.findall(p.read_text(errors="replace")) if g not in own]
    return uses


def main() -> None:
    known = {guid for scripts in PACKAGES.values() for guid in scripts}
    total = named = 0
    for root in map(Path, sys.argv[1:]):
        uses = unresolved(root)
        hit = sum(g in known for g in uses)
        print(f"{root.name:40s} {len(uses):6d} components whose script is not in it, {hit:6d} named")
        total, named = total + len(uses), named + hit
    print(f"{'all':40s} {total:6d} components, {named} named ({named / max(total, 1):.0%})")


if __name__ == "__main__":
    main()

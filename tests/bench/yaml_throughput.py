"""Unity YAML scanner throughput over the YAML assets of one or more project trees.

usage: python tests/bench/yaml_throughput.py TREE [TREE ...]
Reads every .unity .prefab .asset .mat .controller .anim ... file into memory first, then times
only the scanning (three runs). Not a test (never timed in the test suite).
"""

import collections
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from indexer.project import kind_of
from indexer.scanners import UNITY_SERIALIZED_KINDS, scan


def main() -> None:
    files = []
    for root in sys.argv[1:]:
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("Library", "Temp")]
            for name in names:
                path = os.path.join(folder, name)
                kind = kind_of(os.path.relpath(path, root).replace(os.sep, "/"))
                if kind in UNITY_SERIALIZED_KINDS:
                    with open(path, "rb") as f:
                        files.append((path, kind, f.read()))
    total = sum(len(d) for _, _, d in files)
    for run in range(1, 4):
        t = time.perf_counter()
        records = [scan(p, k, d) for p, k, d in files]
        secs = time.perf_counter() - t
        print(f"run {run}: {len(files)} files, {total / 1e6:.1f} MB in {secs:.2f} s = {total / 1e6 / secs:.1f} MB/s")
    docs = sum(
        int(r.note.split()[0])
        for r in records
        if r.status == "ok" and r.note.split()[:1] and r.note.split()[0].isdigit()
    )
    skips = collections.Counter(r.note for r in records if r.status == "skipped")
    print(f"documents {docs}; skipped {sum(skips.values())}: {dict(skips)}")


if __name__ == "__main__":
    main()

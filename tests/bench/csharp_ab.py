"""C# scanner speed, two source trees against each other in the same run, and whether they write
byte-identical records (issue 16).

    python -m tests.bench.csharp_ab TREE[@suite]... --a SRC_A --b SRC_B [--runs 5] [--dump DIR]

The same tool as `yaml_ab` over the "csharp" kind: each side is a worker process of its own
(PYTHONPATH=SRC, a `git archive` of each commit) holding every C# file of the trees in memory
(`TREE@suite`: the sample the suite's "scanner csharp" figure scans, `measures.scan_throughput`),
asked in turn A B then B A. Reported: median MB/s of wall time and per CPU second, and "IDENTICAL"
when both sides wrote the same msgspec bytes for every file (else the paths that differ).
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import yaml_ab  # the workers run yaml_ab.py as a file, with only SRC on their path

    yaml_ab.main("csharp", __doc__)

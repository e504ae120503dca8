"""The transcripts in docs/examples/ are what the commands print today (docs/examples/regenerate.py)."""

import subprocess
import sys

from .conftest import REPO


def test_transcripts_are_current() -> None:
    r = subprocess.run(
        [sys.executable, str(REPO / "docs" / "examples" / "regenerate.py"), "--check"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, f"{r.stdout}\n{r.stderr}"


def test_the_check_ignores_scores_but_not_ranks() -> None:
    sys.path.insert(0, str(REPO / "docs" / "examples"))
    try:
        from regenerate import comparable
    finally:
        sys.path.pop(0)
    one = ' 1. Assets/A.cs:3  [csharp] A  (77.70)\n 2. Assets/B.cs:9  [csharp] B  (58.68)\n{"score": 77.7}'
    rescored = ' 1. Assets/A.cs:3  [csharp] A  (77.71)\n 2. Assets/B.cs:9  [csharp] B  (58.60)\n{"score": 77.71}'
    reordered = ' 1. Assets/B.cs:9  [csharp] B  (77.70)\n 2. Assets/A.cs:3  [csharp] A  (58.68)\n{"score": 77.7}'
    assert comparable(one) == comparable(rescored)
    assert comparable(one) != comparable(reordered)

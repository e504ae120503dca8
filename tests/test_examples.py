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

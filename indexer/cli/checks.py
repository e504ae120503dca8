"""The finding of one `doctor` check, and what a project check looks at: shared by the checks
of `indexer` and those other packages add (`unity_index.doctor_checks`)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from indexer.config import Config

PASS, WARN, FAIL = "pass", "warn", "fail"


class Check(msgspec.Struct):
    """One finding: `fix` says what to do next (empty when there is nothing to do)."""

    name: str
    status: str  # pass | warn | fail
    detail: str
    fix: str = ""


class Target(msgspec.Struct):
    """The project a project check looks at; `config` is None when `unity-index.toml` is invalid."""

    root: Path
    config: Config | None

"""The indexer's messages in the server's words: they name CLI commands and flags, and tell the
user to run a command again; a model calls tools instead. Each rewrite takes a whole phrase, so
the sentence around it still reads (tests/test_mcp_wording.py checks each against its source)."""

from __future__ import annotations

import re

READING_TOOL_BUILDS = "the next call of a tool that reads it (`search`, `describe`, ...)"

_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        # describe: a GUID of a folder, a deleted asset, an unknown path
        (r"`unity-index refs ([^`]+)`", r"the `find_references` tool (target \1)"),
        (r"`unity-index query --path ([^`]+)`", r"the `search` tool (path \1)"),
        # describe: a folder given by path
        (r"`unity-index query WORDS --path ([^`]+)`", r"the `search` tool (path \1)"),
        (r"`unity-index query`", "the `search` tool"),
        # a damaged index (IndexBroken, explain_failure, status): any reading call rebuilds it
        (r"([:;]) run `unity-index index` to rebuild it", rf"\1 {READING_TOOL_BUILDS} rebuilds it first"),
        # status: no index yet, files changed since the last update
        (r"(no index yet at [^\n]*): run `unity-index index`", rf"\1: {READING_TOOL_BUILDS} builds it first"),
        (
            r"since the last update; run `unity-index index`",
            "since the last update; the next call of a tool that reads the index applies them first",
        ),
        # ProjectGone: the server is the command that has to run in the project's new place
        (r"run the command again in the project's new place", "start the server again in the project's new place"),
        # lists cut short: the structured content holds every item
        (r" \(use --json for everything\)", ""),
        (r" \(--json lists all\)", " (the structured content lists all)"),
    )
)


def mcp_wording(message: str) -> str:
    """`message` with each CLI phrase the server's clients cannot act on put in tool terms."""
    for pattern, replacement in _REWRITES:
        message = pattern.sub(replacement, message)
    return message

"""The installed version of unity-index: one source, the package metadata (pyproject.toml's
`version`, as pip recorded it). The CLI's `--version`, `doctor` and the MCP server's
`serverInfo.version` all read it here."""

from __future__ import annotations

DISTRIBUTION = "unity-index"
UNKNOWN = "0+unknown"  # running from a source tree that was never installed


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:
        return UNKNOWN

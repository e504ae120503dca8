"""Addressables profile variables, by the ids a group's schema names its paths with.

A group's `BundledAssetGroupSchema` writes its build and load paths as profile variables by id
(`m_LoadPath: {m_Id: 2dd1...}`); which is remote and which local is said only by the names the
settings asset gives those ids (`m_ProfileEntryNames`: `RemoteLoadPath`). Read at query time from
the settings' text: the scanner sees one file at a time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.store.reader import Records

_TOKEN = re.compile(r"\{m_Id: ([0-9a-f]{32})\}")
_ENTRY = re.compile(r"- m_Id: ([0-9a-f]{32})\n\s+m_Name: ([^\n]*)")
SETTINGS_NAME = "/AddressableAssetSettings.asset"


def profile_names(records: Records, file_lines: Callable[[str], list[str]]) -> dict[str, str]:
    """The profile variables' names by id, from every Addressables settings asset (the first by path
    for an id two name)."""
    out: dict[str, str] = {}
    for path in sorted(p for p in records.kinds() if p.endswith(SETTINGS_NAME)):
        block = "\n".join(file_lines(path)).partition("m_ProfileEntryNames:")[2]
        for m in _ENTRY.finditer(block):
            out.setdefault(m.group(1), m.group(2).strip())
    return out


def profile_named(text: str, names: Callable[[], dict[str, str]]) -> str:
    """`text` with each profile variable id followed by its name (`{m_Id: 2dd1...} (RemoteLoadPath)`);
    `names` is asked only when the text holds one."""
    if _TOKEN.search(text) is None:
        return text
    known = names()
    return _TOKEN.sub(lambda m: f"{m.group()} ({known[m.group(1)]})" if m.group(1) in known else m.group(), text)

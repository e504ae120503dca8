"""`.meta` files: the GUID of the asset or folder beside them, and which importer Unity uses.

A regex pass, not a YAML load: the GUID and importer are all the index needs, and metas are the
most numerous files of a project.
"""

from __future__ import annotations

import re

from indexer.model import LFS_NOTE, FileRecord

_GUID = re.compile(rb"^guid:[ \t]*([0-9A-Fa-f]{32})[ \t]*\r?$", re.M)
_IMPORTER = re.compile(rb"^([A-Za-z][A-Za-z0-9]*Importer):", re.M)
_FOLDER = re.compile(rb"^folderAsset:[ \t]*yes", re.M)


def scan(path: str, data: bytes) -> FileRecord:
    if data.startswith(b"version https://git-lfs"):
        return FileRecord(path=path, kind="meta", status="skipped", note=LFS_NOTE)
    m = _GUID.search(data)
    if not m:
        return FileRecord(path=path, kind="meta", status="skipped", note="no guid line")
    imp = _IMPORTER.search(data)
    return FileRecord(
        path=path,
        kind="meta",
        guid=m.group(1).decode("ascii").lower(),
        importer=imp.group(1).decode("ascii") if imp else "",
        folder=bool(_FOLDER.search(data)),
    )

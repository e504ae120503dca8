"""The names a data asset lists, added to its search document once every GUID resolves.

A scanner sees one file: `guid: 2d48...` says nothing until the index knows which file declares
that GUID, so a theme asset whose zones list `SuburbsHouse01.prefab` cannot be found by
"suburbs" from its own words. After the edges are resolved (adjacency.py), each data asset
re-resolved in the batch gets its document again with the names of the files it references
(`documents.listed_words`): the document the scanner made when the asset itself was written
(which the writer holds back until then, to add it once: `Writer.deferred`), otherwise the file
read again (an asset whose listed file was added, moved or deleted).
"""

from __future__ import annotations

import sys
from pathlib import Path

from indexer.build.documents import build, document_text, listed_words, with_listed
from indexer.files import digest_of
from indexer.project import read_project_file
from indexer.store.writer import Writer


def relist(writer: Writer, root: Path, listing: dict[str, list[tuple[str, str]]]) -> int:
    """Write again the documents of these data assets (path -> resolved edges) with the names
    they list; returns how many were written."""
    written = 0
    for path in sorted(listing):
        words = listed_words([p for p, _edge in listing[path]])
        doc = writer.listing_docs.get(path)
        if doc is None:
            doc = _document_again(writer, root, path, words)
            if doc is None:
                continue
        elif words:
            doc = {**doc, "body": with_listed(doc["body"], words)}
        elif path not in writer.deferred:
            continue  # written by this batch already, listing nothing
        writer.redocument(path, doc)
        written += 1
    return written


def _document_again(writer: Writer, root: Path, path: str, words: str) -> dict[str, str] | None:
    """The document of a stored asset not written by this batch, from its record and its file.
    None when the file cannot be read or changed since it was scanned: the next update scans it
    again and lists its names then."""
    rec = writer.record(path)
    if rec is None:
        return None
    text = ""
    if rec.status != "skipped":
        data = read_project_file(root, path, sys.maxsize)  # never through a link, never a pipe
        if data is None:
            return None
        if digest_of(data) != rec.digest:
            return None
        text = document_text(rec.kind, data)
    return build(rec, text, words)

"""Project files' text as queries read it, kept while the file is unchanged on disk.

A context pack reads every file it ranks (for the query words it holds and its matching lines) and
the ranking reads its best hits' sources; popular files come back query after query, and reading
one (a realpath check, an open and a read, a decode, a lower-casing) costs more than what is done
with it. A kept text is used again only while one lstat of the file gives the device, inode, size,
modification and change times it had when it was read: a file written since, replaced or swapped
for a link is read again, with every check of `project.read_project_file`. File times are as coarse
as the kernel's clock tick, so a file changed within RECENT_NS before it is read is not kept (as
git does with racily clean files): a second write in the same tick, of the same size, would leave
its stat unchanged.

What was found in a text (`FileText.found`: the query words it holds, where, its matched lines)
outlives the text dropped for room, kept by the same stat: a warm process meeting the file again
reads it, but scans it for no word it was scanned for already (the texts 30 queries read on
UnityCsReference are more than KEPT_CHARS, and the scans cost more than the read).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from indexer.files import FILE_TICK_NS, utf8_text
from indexer.project import fs_name, read_project_file

READ_LIMIT = 1_000_000  # bytes of a file read for its text
KEPT_CHARS = 32_000_000  # characters kept per project, texts and lower-case forms together
RECENT_NS = FILE_TICK_NS  # a file whose inode changed this recently is read again next time
FOUND_KEPT = 100_000  # answers kept of texts dropped (`found` entries: each small, a text's at most 512)


class FileText:
    """A file's first READ_LIMIT bytes decoded; '' for a binary file (a NUL in its first 8 KB, the
    scanners' rule: its record is skipped, and no query reads its text), so none of it is kept."""

    __slots__ = ("_low", "binary", "found", "signature", "text")

    def __init__(self, data: bytes, signature: tuple[int, ...] | None):
        data = utf8_text(data)
        self.binary = b"\0" in data[:8192]
        self.text = "" if self.binary else data.decode("utf-8", errors="replace")
        self.signature = signature
        self._low: str | None = None
        self.found: dict = {}  # what `query.textmatch` found in the text, kept with it

    @property
    def low(self) -> str:
        """The text lower-cased (made once)."""
        if self._low is None:
            self._low = self.text.lower()
        return self._low

    def low_prefix(self, n: int) -> str:
        """`text[:n].lower()`, cut from `low` when that lines up with the text (lower-casing
        never shortens a character: equal lengths mean each one became one)."""
        return self.low[:n] if len(self.low) == len(self.text) else self.text[:n].lower()

    @property
    def chars(self) -> int:
        return 2 * len(self.text)


EMPTY = FileText(b"", None)


class Texts:
    """The texts of one project's files, least recently used dropped first past KEPT_CHARS."""

    def __init__(self, root: Path):
        self.root = root
        # resolved once (an lstat per folder of the path): a project folder moved while a
        # reader runs has its files checked against where it was, so they are refused, not shown
        self._real_root = os.path.realpath(root)
        self._kept: dict[str, FileText] = {}
        self._chars = 0
        # what was found in texts dropped for room: path -> (the stat it was read with, `found`)
        self._found: dict[str, tuple[tuple[int, ...], dict]] = {}
        self._found_entries = 0

    def get(self, rel: str) -> FileText:
        """The text of project file `rel`; EMPTY when it is not a regular file in the project."""
        now = time.time_ns()
        try:
            st = os.lstat(os.path.join(self.root, fs_name(rel)))
            signature = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        except (OSError, ValueError):
            signature = None
        kept = self._kept.pop(rel, None)
        if kept is not None:
            if signature is not None and kept.signature == signature:
                self._kept[rel] = kept  # now the most recently used
                return kept
            self._chars -= kept.chars
        data = read_project_file(self.root, rel, READ_LIMIT, self._real_root)
        if data is None:
            return EMPTY
        # the stat is taken before the read: a write meanwhile leaves a newer stat, read again
        text = FileText(data, signature)
        was = self._found.pop(rel, None)
        if was is not None:
            self._found_entries -= len(was[1])
            if was[0] == signature:  # the same file as when it was dropped: what was found holds
                text.found = was[1]
        settled = st.st_ctime_ns < now - RECENT_NS if signature is not None else False
        if settled and text.chars <= KEPT_CHARS // 4:
            self._kept[rel] = text
            self._chars += text.chars
            while self._chars > KEPT_CHARS:
                self._drop(next(iter(self._kept)))
        return text

    def _drop(self, rel: str) -> None:
        """Drop a kept text for room, keeping what was found in it (the oldest such dropped past
        FOUND_KEPT entries)."""
        gone = self._kept.pop(rel)
        self._chars -= gone.chars
        if gone.found and gone.signature is not None:
            self._found[rel] = (gone.signature, gone.found)
            self._found_entries += len(gone.found)
            while self._found_entries > FOUND_KEPT:
                self._found_entries -= len(self._found.pop(next(iter(self._found)))[1])

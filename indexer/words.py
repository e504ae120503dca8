"""Words in messages: counted nouns ("1 file", "2 files"), the user's input repeated, and a
project's text made safe to print."""

from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`n` and the noun, singular for exactly one (`many` when the plural is not noun + "s")."""
    return f"{n} {noun if n == 1 else many or noun + 's'}"


SHOWN_CHARS = 200  # of the user's input an error message repeats


def echoed(text: str, limit: int = SHOWN_CHARS) -> str:
    """The user's input as a message repeats it: whole up to `limit` characters, else its start,
    an ellipsis and its length (a pasted file or log given as a name must not come back whole)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


LINE_CHARS = 200  # of a project's line a usage shows


def excerpt(line: str, near: str = "") -> str:
    """A project's line as a usage shows it: stripped, at most LINE_CHARS characters. A longer
    line is cut around the first whole-word `near` (the name used there) when it lies past the
    first LINE_CHARS, each cut side marked `…`: a usage on a minified script's one 5 MB line
    showed the line's first 200 characters, the same for every usage, none of them the name."""
    text = line.strip()
    if len(text) <= LINE_CHARS:
        return text
    at = _word_at(text, near) if near else -1
    if at < 0 or at + len(near) <= LINE_CHARS:
        return text[:LINE_CHARS]
    start = max(0, min(at - LINE_CHARS // 2, len(text) - LINE_CHARS + 2))
    end = start + LINE_CHARS - 2
    return f"…{text[start:end]}{'…' if end < len(text) else ''}"


def _word_at(text: str, word: str) -> int:
    """Where `word` first stands as a whole word in `text` (not inside a longer name); -1 if nowhere."""
    import re

    m = re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text)
    return m.start() if m else -1


# Control characters but the line break and the tab (C0, DEL, C1): a project's file may hold any,
# and an escape sequence printed raw retitles or clears the user's terminal.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c not in (0x09, 0x0A)}


def for_terminal(text: str) -> str:
    """Text read from a project as the CLI prints it: each control character as `\\xNN`, as file
    names are shown (a CRLF file's line ends are line ends, not `\\x0d`)."""
    return text.replace("\r\n", "\n").translate(_CONTROLS)

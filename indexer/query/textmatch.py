"""Where a context pack's query words occur in a file's text: which stems it holds and the lines
that mention them (by the rule of `stem_pattern`).

Both are kept with the text (`FileText.found`, dropped when the file changes): the same words
come back query after query, and a scene's text runs to a megabyte, so looking for them again
costs more than the rest of the file's share of a pack.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache, partial

from indexer.identifiers import INNER_STEM, stem_pattern, stem_regex
from indexer.query.texts import FileText

MAX_MATCHED_LINES = 8
# Lines looked at for them: code lines are chosen before comments (`// a hat has been unlocked`,
# commented-out calls), which a file's first matches often are, and the call doing it is not.
MATCHED_LINES_READ = 4 * MAX_MATCHED_LINES
_COMMENT = ("//", "/*", "*")
NEAR_CHARS = 400  # "near each other": within about ten lines of C#
# A text's words are looked for in its first 100 KB: they hold a script's members, and a 1 MB file
# would cost ten times as much.
BODY_CHARS = 100_000
EVERYWHERE = 48  # occurrences of one stem in one text past which it names no one member
FOUND_LIMIT = 512  # answers kept with one text; past this, emptied (a long-running server)
# lines that name everything and say nothing (after a byte order mark, on a file's first line)
NOT_MATCHED = re.compile(r"[\s\ufeff]*(using|namespace)\b")


def stems_in(low: str, stems: set[str], lacked: Iterable[str] = ()) -> set[str]:
    """The query stems a lower-cased text contains, by the rule of `stem_pattern`. Shortest first:
    a stem holding one the text lacks (or one of `lacked`, stems known not in it) is not in it
    either, without a scan (a task's compounds, `cooldownlimit`, hold its words: a pack asks a text
    megabytes long for each stem)."""
    found = {s for s in stems if len(s) < INNER_STEM and re.search(stem_regex(s), low)}
    absent = [s for s in lacked if len(s) >= INNER_STEM]
    for s in sorted((s for s in stems if len(s) >= INNER_STEM), key=len):
        if any(a in s for a in absent) or s not in low:
            absent.append(s)
        else:
            found.add(s)
    return found


def stems_in_text(read: FileText, stems: set[str]) -> set[str]:
    """`stems_in(read.low, stems)`, each stem looked for once while the text is kept, and not at
    all where what was found of it says (`_seen_in`)."""
    found = read.found
    out = {s for s in stems if found.get(s)}
    missing = [s for s in stems if s not in found]
    if missing:
        seen = _seen_in(read, missing)
        rest = {s for s in missing if s not in seen}
        lacked = [s for s in stems if found.get(s) is False or seen.get(s) is False]
        held = {s for s, holds in seen.items() if holds} | (stems_in(read.low, rest, lacked) if rest else set())
        out |= held
        if len(found) + len(missing) > FOUND_LIMIT:
            found.clear()
        found.update((s, s in held) for s in missing)
    return out


def _seen_in(read: FileText, stems: list[str]) -> dict[str, bool]:
    """Whether the text holds each of these stems, where `occurrences` found it out (the ranking
    looked for the task's words in the best files): a stem matching inside words found in the
    first BODY_CHARS is in the text, one not found there is not in a text no longer. Only where
    that lower-cased prefix is a prefix of `low`."""
    found = read.found
    if len(read.low) != len(read.text):
        return {}
    whole = len(read.low) <= BODY_CHARS
    out = {}
    for s in stems:
        if len(s) >= INNER_STEM and ("at", s) in found:
            at = found["at", s]
            if at is None or at:
                out[s] = True
            elif whole:
                out[s] = False
    return out


def said_in_code(read: FileText, stems: set[str]) -> set[str]:
    """Of the stems a script's text holds (`stems_in_text`), those it says where a word or a part
    of an identifier starts (`Damage` in `TakeDamage`; not `lose` in `Close`) outside `using` and
    `namespace` lines (`Unity.BossRoom` says no "boss" of the task), in its first BODY_CHARS: the
    words a pack's "matched:" may claim. Told from where each occurs (`occurrences`, kept with the
    text); a stem that is everywhere counts, and so does every stem of a text whose lower-cased
    form does not line up with it."""
    if len(read.low) != len(read.text):
        return set(stems)
    text = read.text
    return {
        s
        for s, where in occurrences(read, stems).items()
        if where is None or any(_said(text, p) and ends_word(text, p + len(s), s) for p in where)
    }


def said_in_name(name: str, stems: set[str]) -> set[str]:
    """The stems a path or a name says where a word or a part of an identifier starts: a
    `Settings/` folder says "set", every path's `Assets/` does not."""
    low = name.lower()
    return {
        s
        for s in stems_in(low, stems)
        if any(_said(name, m.start()) and ends_word(name, m.end(), s) for m in re.finditer(stem_regex(s), low))
    }


# What may follow a query word's stem in a name for it to be that word (`damag` + `e`, `spawn` +
# `er`, `stop` + `ped`): a longer tail of one part is another word (`mana` + `ger`, `heal` + `th`);
# one of four letters or more a compound's second word (`Fireball`).
_SUFFIXES = frozenset((
    "s", "es", "e", "ed", "d", "ing", "er", "ers", "r", "rs", "or", "ors", "y", "ies", "ied", "ier", "iest", "est",
    "ly", "al", "ally", "ion", "ions", "able", "ible", "ment", "ness", "ful", "less", "ive", "ity", "ize", "ise",
    "en", "ist", "ism", "ue",
))  # fmt: skip
COMPOUND_TAIL = 4
# Short second words of the compounds game code writes as one (`Tilemap`, `Hitbox`, `Gamepad`)
_COMPOUND_HEADS = frozenset(("map", "box", "set", "pad", "bar", "pot", "bot", "ray", "way", "pos"))
_LATIN_LETTER = re.compile(r"[A-Za-z]").fullmatch


def ends_word(text: str, end: int, stem: str) -> bool:
    """Whether a stem found in `text` ending at `end` ends a word there: the letters after it in
    the same part of an identifier (lower case after lower case, upper after upper; an acronym's
    last capital starts the next word, `HUDManager`) are none, an ending of the word (a consonant
    doubled before it: `stopped`), another word's four or more, or a compound's short one
    (`Tilemap`): "mana" is not in `DeckManager`, nor "heal" in `Health`."""
    if len(stem) < INNER_STEM or end >= len(text):
        return True  # matched as a whole word, or at the end
    upper = text[end - 1].isupper()
    if not _LATIN_LETTER(text[end]) or text[end].isupper() != upper:
        return True  # the commonest: the part ends with it (`Damage` + `(`, `Take` + `Damage`, `damage伤害`)
    tail_end = end
    while tail_end < len(text) and _LATIN_LETTER(text[tail_end]) and text[tail_end].isupper() == upper:
        tail_end += 1
    if upper and tail_end < len(text) and text[tail_end].islower():
        tail_end -= 1  # `HUDManager`: the run's last capital starts the next word
    tail = text[end:tail_end].lower()
    if not tail or len(tail) >= COMPOUND_TAIL or tail in _SUFFIXES or tail in _COMPOUND_HEADS:
        return True
    return tail[0] == stem[-1] and tail[1:] in _SUFFIXES


def line_says(line: str, stem: str) -> bool:
    """Whether a line says a stem as a word (`_said` where it starts, `ends_word` where it ends):
    a line naming `DeckManager` covers no "mana" that another line would show."""
    low = line.lower()
    if stem not in low or len(low) != len(line):
        return stem in low
    return any(_said(line, m.start()) and ends_word(line, m.end(), stem) for m in re.finditer(stem_regex(stem), low))


def _said(text: str, pos: int) -> bool:
    """Whether a word or a part of an identifier starts at `pos` (after no letter or digit, or as
    an upper-case letter after a lower-case one or a digit: `TakeDamage`, `player2Health`), on a
    line that is no `using` or `namespace` line."""
    before = text[pos - 1] if pos else " "
    if before.isalnum() and not (text[pos].isupper() and (before.islower() or before.isdigit())):
        return False
    return not NOT_MATCHED.match(text, text.rfind("\n", 0, pos) + 1)


def near_words_of(read: FileText, stems: frozenset[str]) -> int:
    """`near_words` of where these stems occur in the text, kept with the text for them."""
    key = ("near", stems)
    near = read.found.get(key)
    return near if near is not None else keep_found(read.found, key, near_words(occurrences(read, stems)))


def near_words(at: dict[str, tuple[int, ...] | None]) -> int:
    """The most stems found within NEAR_CHARS of each other (`at`: of `occurrences`). Why: the
    member that says "bank", "loan" and "interest" within a few lines is what "bank loans should
    charge 15% interest" is about, more than a file that names each somewhere. A stem that is
    everywhere counts in every window."""
    events = sorted((pos, s) for s, where in at.items() for pos in where or ())
    best, window, first = 0, {}, 0
    for pos, s in events:
        window[s] = window.get(s, 0) + 1
        while pos - events[first][0] > NEAR_CHARS:
            gone = events[first][1]
            window[gone] -= 1
            if not window[gone]:
                del window[gone]
            first += 1
        best = max(best, len(window))
    return best + sum(where is None for where in at.values())


def occurrences(read: FileText, stems: Iterable[str]) -> dict[str, tuple[int, ...] | None]:
    """stem -> where it occurs in the text's first BODY_CHARS characters lower-cased (by the rule
    of `stem_pattern`), or None when more than EVERYWHERE times: it is everywhere in the text, near
    every member. Kept with the text per stem: the ranking asks for a file's words twice (how near
    each other they are, which member holds them), and later queries ask for them again. Stems
    not kept are looked for shortest first, so a compound (`overlaymenu`) is found from where its
    parts are (`_within`) instead of by a scan of the text."""
    stems = list(stems)
    found = read.found
    out = {s: found[("at", s)] for s in stems if ("at", s) in found}
    missing = sorted(set(stems) - out.keys(), key=lambda s: (len(s), s))
    if missing:
        low = read.low_prefix(BODY_CHARS)
        for s in missing:
            out[s] = keep_found(found, ("at", s), _where(low, s, out))
    return {s: out[s] for s in stems}


def _where(low: str, stem: str, known: dict[str, tuple[int, ...] | None]) -> tuple[int, ...] | None:
    """`occurrences` of one stem in `low`: from the fewest occurrences of a stem it holds (`known`:
    stem -> its occurrences) when they are all there are, else by a scan."""
    parts = [(at, part) for part, at in known.items() if at is not None and _inside(part, stem)]
    if parts:
        at, part = min(parts, key=lambda held: len(held[0]))
        return _within(low, stem, at, stem.find(part))
    find, where, pos = _finder(low, stem), [], 0
    while len(where) <= EVERYWHERE and (pos := find(pos)) >= 0:
        where.append(pos)
        pos += len(stem)
    return None if len(where) > EVERYWHERE else tuple(where)


@lru_cache(maxsize=4096)
def _inside(part: str, stem: str) -> bool:
    """Whether every occurrence of `stem` holds one of `part` that `occurrences` lists: both match
    inside words (INNER_STEM), and no two occurrences of `part` overlap (it has no border: no
    proper prefix that is also a suffix), so the scan, which resumes after each match, listed
    them all."""
    return (
        INNER_STEM <= len(part) < len(stem)
        and part in stem
        and not any(part[:i] == part[-i:] for i in range(1, len(part)))
    )


def _within(low: str, stem: str, at: tuple[int, ...], offset: int) -> tuple[int, ...] | None:
    """Where `stem` occurs in `low` as the scan would list it (each match after the last one's
    end), found among the occurrences `at` of a part of it found `offset` characters into it."""
    where: list[int] = []
    end = 0
    for q in at:
        pos = q - offset
        if pos >= end and low.startswith(stem, pos):
            where.append(pos)
            end = pos + len(stem)
            if len(where) > EVERYWHERE:
                return None
    return tuple(where)


def holds_phrase(read: FileText, phrase: str) -> bool:
    """Whether the text holds a phrase (lower case, its words separated by any white space: a
    serialized string may wrap), kept with the text."""
    key = ("phrase", phrase)
    held = read.found.get(key)
    if held is not None:
        return held
    return keep_found(read.found, key, phrase_pattern(phrase).search(read.low) is not None)


@lru_cache(maxsize=256)
def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A phrase found in lower-cased text: its words separated by any white space, whole (a label
    "New Game" is not in every `new GameObject()`)."""
    body = r"\s+".join(re.escape(w) for w in phrase.split())
    return re.compile(
        ("(?<!\\w)" if phrase[:1].isalnum() else "") + body + ("(?!\\w)" if phrase[-1:].isalnum() else "")
    )


def matched_lines_of(read: FileText, stems: frozenset[str], skip: frozenset[int] = frozenset()) -> list[str]:
    """`matched_lines(read.text, read.low, stems, skip)`, kept with the text for these stems: a
    query asked again, or another naming the same words in it, finds them without a scan. (Kept
    per set, not per stem: a stem's own first lines cost a scan each, several times what one scan
    for all of them costs the first time.)"""
    key = (stems, skip)
    lines = read.found.get(key)
    if lines is None:
        lines = keep_found(read.found, key, matched_lines(read.text, read.low, stems, skip))
    return list(lines)


def keep_found(found: dict, key: object, value: object):
    """Keep an answer with a text (`FileText.found`), the kept ones dropped past FOUND_LIMIT."""
    if len(found) >= FOUND_LIMIT:
        found.clear()
    found[key] = value
    return value


def matched_lines(text: str, low: str, stems: frozenset[str], skip: frozenset[int] = frozenset()) -> list[str]:
    """Lines of the file that mention a query word (a stem, by the rule of `stem_pattern`) where a
    word or a part of an identifier starts (`_said`: "move" is not in `RemoveListener`), except
    declarations the outline already shows: of the first MATCHED_LINES_READ, code lines first,
    then comments, in line order, but first the earliest line of each word the others crowded out
    (a player script's `powerup` lines past thirty lines saying `player`). `low` is the text
    lower-cased; searched instead when it lines up with the text (a few characters lower-case
    into two), stem by stem."""
    if not stems:
        return []
    out = _matching(text, low, stems, skip, MATCHED_LINES_READ)
    said = {s for _, _, line in out for s in stems if line_says(line, s)}
    for s in sorted(stems - said):  # a word the others crowded out of the lines read (if the text has it)
        if s in low or len(low) != len(text):
            out += [m for m in _matching(text, low, frozenset({s}), skip, 1) if m not in out]
    ordered = sorted(out)
    picked: list[tuple[bool, int, str]] = []
    covered: set[str] = set()
    for item in ordered:  # each word's first line of code, then the others in order
        new = {s for s in stems - covered if line_says(item[2], s)}
        if new and not item[0] and len(picked) < MAX_MATCHED_LINES:
            picked.append(item)
            covered |= new
    picked += [item for item in ordered if item not in picked][: MAX_MATCHED_LINES - len(picked)]
    return [f"  L{line_no}: {stripped}" for _, line_no, stripped in sorted(picked, key=lambda line: line[1])]


def _matching(
    text: str, low: str, stems: frozenset[str], skip: frozenset[int], limit: int
) -> list[tuple[bool, int, str]]:
    """(a comment, line number, the line) of the first `limit` lines mentioning a stem, fewer once
    MAX_MATCHED_LINES of them are code (no comment is shown then)."""
    out: list[tuple[bool, int, str]] = []
    aligned = len(low) == len(text)
    if aligned:
        first = _first_match(low, stems)
    else:  # then the original text, searched case-insensitively
        search = re.compile(stem_pattern(stems).pattern, re.I).search
        first = lambda pos: m.start() if (m := search(text, pos)) else -1  # noqa: E731
    one = next(iter(stems))  # a word looked for alone (crowded out) is looked for as a word
    line_no, line_start, pos = 1, 0, 0
    code = passed = 0  # code lines among them; matches passed over
    while (at := first(pos)) >= 0:  # the search finds the lines: no Python loop over every line
        if aligned and not (_said(text, at) and (len(stems) > 1 or ends_word(text, at + len(one), one))):
            pos, passed = at + 1, passed + 1
            if passed > EVERYWHERE and len(stems) == 1:
                break  # inside other words everywhere (`mana` of 30,000 `deckManager` lines): none said
            continue
        start = text.rfind("\n", 0, at) + 1
        line_no += text.count("\n", line_start, start)
        line_start = start
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        pos = end + 1  # another match on this line is not looked at
        stripped = text[start:end].strip()
        if line_no not in skip and len(stripped) < 200 and not NOT_MATCHED.match(stripped):
            hidden = _in_block_comment(text, start)  # commented out: the line's own text does not say so
            note = "  (commented out)" if hidden and not stripped.startswith(_COMMENT) else ""
            comment = hidden or stripped.startswith(_COMMENT)
            out.append((comment, line_no, stripped + note))
            code += not comment
            if len(out) >= limit or code >= MAX_MATCHED_LINES:
                break
    return out


def _in_block_comment(text: str, pos: int) -> bool:
    """Whether the line starting at `pos` starts inside a `/* ... */` comment: the last `/*` before
    it, not in a `//` comment or a string of its line, closes after it (or never). A look back from
    the line, not a scan of the file: matched lines are found for every file a pack shows."""
    end = pos
    while (opened := text.rfind("/*", 0, end)) >= 0:
        before = text[text.rfind("\n", 0, opened) + 1 : opened]
        if "//" in before or before.count('"') % 2:  # `// a /* b`, `"a /* b"`: no comment opens
            end = opened
            continue
        closed = text.find("*/", opened + 2)
        return closed < 0 or closed + 2 > pos
    return False


def _first_match(low: str, stems: frozenset[str]) -> Callable[[int], int]:
    """Where the first match of `stem_pattern(stems)` in `low` at or after a position starts (-1:
    none), found stem by stem: a long stem by `str.find`, far faster than a regex alternation
    tried at every position, a short one by its whole-word regex. The leftmost match of an
    alternation is the first of its alternatives' leftmost matches. Each stem's next match is
    kept until the position passes it."""
    finders = [_finder(low, s) for s in sorted(stems)]
    ahead = [-2] * len(finders)  # each stem's next match; -2: not looked for yet, -1: none left

    def first(pos: int) -> int:
        best = -1
        for i, find in enumerate(finders):
            at = ahead[i]
            if at == -2 or -1 < at < pos:
                at = ahead[i] = find(pos)
            if at >= 0 and (best < 0 or at < best):
                best = at
        return best

    return first


def _finder(low: str, stem: str) -> Callable[[int], int]:
    """Where `stem` next matches in `low` from a position on (-1: nowhere), by `stem_regex`'s rule."""
    if len(stem) >= INNER_STEM:  # bound in C, no Python frame a call: a first query's scans call it 600 times
        return partial(low.find, stem)
    search = re.compile(stem_regex(stem)).search
    return lambda pos: m.start() if (m := search(low, pos)) else -1

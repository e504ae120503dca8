"""UI Toolkit style sheets (`.uss`): their rules, and the images and fonts they use.

A loadout screen's icons are often set in a style sheet, `background-image: url("project://
database/Assets/Textures/Glock.png?fileID=2800000&guid=ea83…&type=3#Glock")`: without these refs
`refs Glock.png` says no file uses the texture, and deleting it breaks the screen.

Conventions (the tests pin them):
- a symbol "uss_rule" per rule, on the line its selectors start: name = its selectors as written
  (white space collapsed, at most MAX_SELECTOR characters), signature = the same;
- a ref "guid" to each asset a `url(...)` names by GUID (context = the property, detail = the
  rule's selectors), as Unity writes a reference made in the UI Builder;
- comments hold nothing; a rule that never closes still yields what it holds;
- the note "first 2000 rules recorded" only when more were left out.
"""

from __future__ import annotations

import re

from indexer.model import FileRecord, Ref, Symbol

from .packages import decode_text

KIND = "uss"
MAX_RULES = 2000
MAX_SELECTOR = 120
_COMMENT = re.compile(r"/\*.*?(?:\*/|\Z)", re.S)
# selectors, then the block up to its `}` (or the end of a file cut short); `{` never nests in USS.
# Text followed by no `{` matches too, without a block, as no rule: a pattern that failed there was
# tried again from each of its characters (100 KB of text after the last `}` took 78 s).
_RULE = re.compile(r"([^{}]+)(?:\{([^}]*)(?:\}|\Z))?")
# a `url(...)` naming a GUID, then the property of the declaration holding it (from its `;`): found
# from the url, as the one pattern naming the property first was tried from each word of a body
# without `;` and read it to its end (40 KB of `a:` took 5.6 s)
_URL = re.compile(r"url\(\s*[\"']?[^\"')]{0,4096}?guid=([0-9a-fA-F]{32})")
_PROPERTY = re.compile(r"(?<![\w-])([\w-]++)\s*+:")


def scan(path: str, data: bytes) -> FileRecord:
    text, bad = decode_text(data)
    if "/*" in text:  # a commented-out rule is no rule (its lines kept, so line numbers hold)
        text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    symbols: list[Symbol] = []
    refs: list[Ref] = []
    line, pos, dropped = 1, 0, False
    for m in _RULE.finditer(text):
        head = m.group(1)
        if m.group(2) is None:
            continue
        start = m.start(1) + len(head) - len(head.lstrip())
        line += text.count("\n", pos, start)
        pos = start
        selectors = " ".join(head.split())[:MAX_SELECTOR]
        if not selectors:
            continue
        if len(symbols) >= MAX_RULES:
            dropped = True
            break
        symbols.append(Symbol("uss_rule", selectors, line, signature=selectors))
        body, at = m.group(2), m.start(2)
        for u in _URL.finditer(body) if "url(" in body else ():
            declaration = body[body.rfind(";", 0, u.start()) + 1 : u.start()]
            if (prop := _PROPERTY.search(declaration)) is None:
                continue
            n = line + text.count("\n", start, at + u.start(1))
            refs.append(Ref("guid", u.group(1).lower(), n, context=prop.group(1), detail=selectors))
    note = bad or (f"first {MAX_RULES} rules recorded" if dropped else "")
    return FileRecord(path=path, kind=KIND, note=note, symbols=tuple(symbols), refs=tuple(refs))

"""UI Toolkit layouts (`.uxml`): their elements, the custom elements' C# classes, their style sheets.

"Hold the Restart button for two seconds" is answered by the panel that declares the button as a
custom element (`<Bagel.LongPressButton name="restart-button" text="Restart"/>`) and by that
element's class: the layout names the class, so it is tied to it in the graph as a prefab is to
the scripts it carries.

Conventions (the tests pin them):
- a symbol "ui_element" per element, on the line its tag opens: name = its `name` attribute, else
  its type; signature = its type, then `#name` when named, then its `text` in quotes, on one line
  (at most MAX_TEXT characters);
- a ref "type" (context "uxml", detail = the element's name) to each custom element's class:
  a tag with dots (`Bagel.LongPressButton`), or with a prefix bound to a namespace other than
  Unity's own (`xmlns:b="Bagel"`, `<b:LongPressButton>`), or without a prefix under a default
  namespace other than Unity's own (`xmlns="Bagel"`, `<LongPressButton>`);
- a ref "guid" (context "Style" or "Template") to each style sheet and template the layout
  includes by GUID, as Unity writes them (`src="project://database/...?guid=...&amp;type=3"`);
- the layout's own structure (`UXML`, `Style`, `Template`, `Instance`, `AttributeOverrides`) is
  not an element, nor is a tag inside a comment or `<![CDATA[...]]>`; a quoted value may hold
  `>`. Read with a tag pattern, not an XML parser: a half-edited layout still yields what it
  holds, and no declared entity is ever expanded (XML's five and character references are read);
- the note "first 2000 elements recorded" only when more were left out.
"""

from __future__ import annotations

import re

from indexer.model import FileRecord, Ref, Symbol

from .packages import decode_text

KIND = "uxml"
MAX_ELEMENTS = 2000  # a generated layout of thousands of rows keeps its first ones
MAX_TEXT = 120  # characters of an element's text in its signature (a label may hold a paragraph)
UNITY_NAMESPACES = ("UnityEngine.UIElements", "UnityEditor.UIElements")
STRUCTURE = frozenset({"UXML", "Style", "Template", "Instance", "AttributeOverrides"})

# A tag's name, then its attributes up to the `>` that closes it: a quoted value may hold `>`
# (XML allows it), an unclosed quote is read as a character. Each piece is atomic and the name
# cannot give characters back, so a tag that never closes costs its length, not its square.
_TAG = re.compile(r"""<([A-Za-z_][\w.:-]*)(?![\w.:-])((?>"[^"<]*"|'[^'<]*'|[^<>])*)>""")
_ATTRIBUTE = re.compile(r"(?<![\w.:-])([\w.:-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_GUID = re.compile(r"guid=([0-9a-fA-F]{32})")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)", re.S)  # neither holds an element
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'"}
# XML's five entities and its character references (`&#10;`, `&#xA;`: one character each, so
# reading them expands nothing); a declared entity (`&big;`) is never read.
_ENTITY = re.compile("|".join(_ENTITIES) + r"|&#([0-9]{1,7});|&#x([0-9a-fA-F]{1,6});")


def scan(path: str, data: bytes) -> FileRecord:
    text, bad = decode_text(data)
    if "<!" in text:  # a commented-out element is not in the layout, nor is character data (lines kept)
        text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    namespaces: dict[str, str] = {}
    symbols: list[Symbol] = []
    refs: list[Ref] = []
    line, pos, dropped = 1, 0, False
    for m in _TAG.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        tag = m.group(1)
        attributes = {k: _unescape(a or b) for k, a, b in _ATTRIBUTE.findall(m.group(2))}
        for key, value in attributes.items():
            if key == "xmlns" or key.startswith("xmlns:"):  # "" is the default namespace
                namespaces[key[6:]] = value
        prefix, _, local = tag.rpartition(":")
        if local in STRUCTURE:
            src = attributes.get("src", "")
            if local in ("Style", "Template") and (guid := _GUID.search(src)):
                refs.append(Ref("guid", guid.group(1).lower(), line, context=local))
            continue
        if len(symbols) >= MAX_ELEMENTS:
            dropped = True
            continue
        name = attributes.get("name", "")
        shown = local.rpartition(".")[2] if "." in local else local
        label = attributes.get("text")
        if label is not None:  # one line: a label's line breaks are not the outline's
            label = " ".join(label.split())
        signature = shown + (f" #{name}" if name else "") + (f' "{label[:MAX_TEXT]}"' if label is not None else "")
        symbols.append(Symbol("ui_element", name or shown, line, signature=signature))
        custom = _custom_class(prefix, local, namespaces)
        if custom:
            refs.append(Ref("type", custom, line, context="uxml", detail=name or shown))
    note = bad or (f"first {MAX_ELEMENTS} elements recorded" if dropped else "")
    return FileRecord(path=path, kind=KIND, note=note, symbols=tuple(symbols), refs=tuple(refs))


def _custom_class(prefix: str, local: str, namespaces: dict[str, str]) -> str:
    """The C# class a custom element names; "" for Unity's own elements. A tag without a prefix is
    in the default namespace (`xmlns="Game.UI"`), unless its name is qualified itself."""
    if not prefix and "." in local:
        return "" if local.startswith(UNITY_NAMESPACES) else local
    namespace = namespaces.get(prefix, "")
    if not namespace or namespace.startswith(UNITY_NAMESPACES):
        return ""
    return f"{namespace}.{local}"


def _unescape(value: str) -> str:
    return _ENTITY.sub(_entity, value) if "&" in value else value


def _entity(m: re.Match[str]) -> str:
    if m.group(1) is None and m.group(2) is None:
        return _ENTITIES[m.group(0)]
    code = int(m.group(1)) if m.group(1) is not None else int(m.group(2), 16)
    # a character XML allows (no NUL, no lone surrogate): anything else stays as written
    allowed = code in (9, 10, 13) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF
    return chr(code) if allowed else m.group(0)

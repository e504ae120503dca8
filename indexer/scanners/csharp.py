"""C# scanner: one tree-sitter parse and one query per file, turned into `Symbol`s and `Ref`s.

Why this shape: the indexer runs on thousands of scripts, so the work per file is one parse plus one
`QueryCursor.captures` call; Python only touches the captured nodes (declarations and type
positions), never walks the whole tree. Broken files (about 1.4% of real Unity scripts) get two
targeted recoveries: a method body that swallowed the rest of its class is cut and re-parsed, and
a type header lost inside an ERROR node (``#if``/``#else`` around a class header) is rebuilt from
the ERROR's tokens.

Representation decisions (the tests pin them):
- Lines are 1-based. `Symbol.line` is the line of the declared name (for operators the ``operator``
  keyword, for indexers ``this``), so attributes above a member do not move it; `end_line` is the
  last line of the whole declaration.
- Names: types without type parameters ("ObjectPool"); constructors use the type name, destructors
  "~Name", indexers "this", operators "operator +", conversions "implicit operator int".
- Signatures: the declaration header without attributes, body, initializer or constructor
  initializer, whitespace collapsed. Properties/indexers get an accessor summary
  ("public int X { get; private set; }"; an expression body reads "{ get; }"). Fields and events
  give "modifiers type name" per declarator; enum members give "Name" or "Name = value".
- Record positional parameters also become `property` symbols ("public int A { get; init; }";
  "{ get; set; }" for a non-readonly record struct), since that is what the compiler generates.
- `usings`: "UnityEngine", "static UnityEngine.Mathf", "Foo = Bar.Baz" (alias = target), with
  whitespace removed and a leading "global::" dropped; `global using` is kept like a normal using.
- Refs: see `_REF_CONTEXTS`; `default(T)` and `sizeof(T)` count as "typeof". Type parameters
  declared in the file (``T``) are not refs. Alias names are kept as written. The "static"
  context is a heuristic: an identifier (or generic name) directly left of a member access,
  starting with an uppercase letter, that is not a local/parameter/member name declared in this
  file and not the first segment of a namespace named in a using or namespace declaration.
- `#if` branches: both are indexed; members that repeat with the same (kind, container, name,
  signature) are merged (first line kept). Types repeating with the same (kind, container, name)
  are merged (bases and attributes unioned) unless both are ``partial``.
- Syntax errors: status "partial", `error_lines` = sorted unique first lines of every ERROR and
  MISSING node of the original parse (nested ones included: an ERROR inside a method body inside
  a larger ERROR is its own problem); the note counts those lines ("3 syntax error regions").
  `defines` come from a regex over `#if`/`#elif` lines, so they survive ERROR nodes too.
  Lost: refs inside a method body that was cut for recovery (from its ``{`` to the next line
  indented like the method), members tree-sitter itself dropped inside an ERROR node, and a
  swallowed member whose line is not indented like the method (column-0 code in an indented class).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from indexer.model import FileRecord, Ref, Symbol

_QUERY_SOURCE = r"""
(class_declaration) @class
(struct_declaration) @struct
(interface_declaration) @interface
(enum_declaration) @enum
(record_declaration) @record
(delegate_declaration) @delegate
(method_declaration) @method
(constructor_declaration) @constructor
(destructor_declaration) @destructor
(property_declaration) @property
(indexer_declaration) @indexer
(field_declaration) @field
(event_field_declaration) @event_field
(event_declaration) @event
(enum_member_declaration) @enum_member
(operator_declaration) @operator
(conversion_operator_declaration) @conversion
(namespace_declaration) @ns
(file_scoped_namespace_declaration) @fns
(using_directive) @using
(type_parameter name: (identifier) @tparam)
(variable_declarator name: (identifier) @lname)
(parameter name: (identifier) @lname)
(declaration_expression name: (identifier) @lname)
(foreach_statement left: (identifier) @lname)
(ERROR) @error

(base_list (_) @r.base)
(field_declaration (variable_declaration type: (_) @r.field))
(event_field_declaration (variable_declaration type: (_) @r.event))
(event_declaration type: (_) @r.event)
(property_declaration type: (_) @r.property)
(indexer_declaration type: (_) @r.property)
(parameter type: (_) @r.param)
(parameter_list type: (_) @r.param)
(method_declaration returns: (_) @r.return)
(local_function_statement type: (_) @r.return)
(delegate_declaration type: (_) @r.return)
(operator_declaration type: (_) @r.return)
(conversion_operator_declaration type: (_) @r.return)
(local_declaration_statement (variable_declaration type: (_) @r.local))
(for_statement (variable_declaration type: (_) @r.local))
(using_statement (variable_declaration type: (_) @r.local))
(fixed_statement (variable_declaration type: (_) @r.local))
(foreach_statement type: (_) @r.local)
(declaration_expression type: (_) @r.local)
(type_argument_list (_) @r.generic)
(typeof_expression type: (_) @r.typeof)
(default_expression type: (_) @r.typeof)
(sizeof_expression type: (_) @r.typeof)
(object_creation_expression type: (_) @r.new)
(array_creation_expression type: (_) @r.new)
(stackalloc_expression type: (_) @r.new)
(attribute name: (_) @r.attribute)
(member_access_expression expression: (identifier) @r.static)
(member_access_expression expression: (generic_name) @r.static)
(cast_expression type: (_) @r.cast)
(declaration_pattern type: (_) @r.is)
(recursive_pattern type: (_) @r.is)
(type_pattern type: (_) @r.is)
(is_pattern_expression pattern: (constant_pattern (identifier) @r.is))
(is_expression right: (_) @r.is)
(as_expression right: (_) @r.as)
(catch_declaration type: (_) @r.catch)
(type_parameter_constraint type: (_) @r.constraint)
"""

# Capture name -> Ref.context. Kept as a table so the contexts are listed in one place.
_REF_CONTEXTS = {
    "r.base": "base", "r.field": "field", "r.event": "event", "r.property": "property",
    "r.param": "param", "r.return": "return", "r.local": "local", "r.generic": "generic",
    "r.typeof": "typeof", "r.new": "new", "r.attribute": "attribute", "r.static": "static",
    "r.cast": "cast", "r.is": "is", "r.as": "as", "r.catch": "catch", "r.constraint": "constraint",
}  # fmt: skip

_TYPE_NODES = {
    "class_declaration": "class",
    "struct_declaration": "struct",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "record",
    "delegate_declaration": "delegate",
}
_MEMBER_CAPTURES = (
    "method", "constructor", "destructor", "property", "indexer", "field", "event_field", "event",
    "enum_member", "operator", "conversion",
)  # fmt: skip
_METHOD_LIKE = frozenset({
    "method_declaration", "constructor_declaration", "destructor_declaration",
    "operator_declaration", "conversion_operator_declaration",
})  # fmt: skip
# Children that end a declaration header (body, initializer, accessors).
_HEADER_STOP = frozenset({
    "block", "arrow_expression_clause", "accessor_list", "declaration_list",
    "enum_member_declaration_list", ";", "=", "constructor_initializer",
})  # fmt: skip
_ENUM_MEMBER_STOP = frozenset({","})
_HEADER_SKIP = frozenset({"attribute_list", "comment", "ERROR"})
_NO_SPACE_BEFORE = frozenset({"type_parameter_list", "parameter_list", "bracketed_parameter_list"})
# Names that are keywords in type position but parse as identifiers.
_NOT_TYPES = frozenset({"var", "dynamic", "nint", "nuint", "unmanaged", "notnull", "managed"})
_KEYWORD_KINDS = {"class": "class", "struct": "struct", "interface": "interface", "enum": "enum",
                  "record": "record"}  # fmt: skip

_WS = re.compile(r"\s+")
_GENERIC_ARGS = re.compile(r"<[^<>]*>")
_PP_COND = re.compile(rb"^[ \t]*#[ \t]*(?:if|elif)\b([^\r\n]*)", re.M)
_PP_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@functools.cache
def _engine() -> tuple[Any, Any, Any]:
    """Create the parser, the query and the QueryCursor class once per process (import is lazy)."""
    import tree_sitter as ts
    import tree_sitter_c_sharp as tscs

    lang = ts.Language(tscs.language())
    return ts.Parser(lang), ts.Query(lang, _QUERY_SOURCE), ts.QueryCursor


@functools.cache
def _error_query() -> Any:
    """Query for error regions, run only on trees that report errors."""
    import tree_sitter as ts
    import tree_sitter_c_sharp as tscs

    return ts.Query(ts.Language(tscs.language()), "(ERROR) @e (MISSING) @e")


def scan(path: str, data: bytes) -> FileRecord:
    """Scan one C# file. Pure and total: any internal failure becomes status "skipped"."""
    try:
        if b"\x00" in data:
            return FileRecord(path=path, kind="csharp", status="skipped", note="binary content")
        if data.startswith(b"\xef\xbb\xbf"):
            # Blank the BOM instead of cutting it so byte offsets and columns stay as in the file.
            data = b"   " + data[3:]
        return _Scan(path, data).run()
    except Exception as exc:  # the contract is "never raises"
        return FileRecord(
            path=path, kind="csharp", status="skipped", note=f"scanner error: {type(exc).__name__}: {exc}"
        )


def _collapse(text: str) -> str:
    return _WS.sub(" ", text).strip()


class _Scan:
    """State for one file; methods are split only to keep each step readable."""

    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self.data = data
        self.fns: list[tuple[int, str]] = []  # file-scoped namespaces: (start byte, name)
        self.container_cache: dict[int, str] = {}
        self.error_headers: dict[int, list[tuple[int, str]]] = {}  # ERROR id -> (start, qualified)

    def text(self, node: Any) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def run(self) -> FileRecord:
        parser, query, cursor_cls = _engine()
        tree = parser.parse(self.data)
        root = tree.root_node
        status, note, error_lines = "ok", "", ()
        if root.has_error:
            regions = self.error_nodes(root)
            error_lines = tuple(sorted({r.start_point[0] + 1 for r in regions}))
            status = "partial"
            note = f"{len(error_lines)} syntax error region{'s' if len(error_lines) != 1 else ''}"
            repaired = self.repair_bodies(regions)
            if repaired is not None:
                self.data = repaired
                root = parser.parse(repaired).root_node
        caps = cursor_cls(query).captures(root)
        symbols: list[tuple[int, Symbol]] = []
        namespaces = self.collect_namespaces(caps)
        for err in caps.get("error", ()):
            self.recover_headers(err, symbols)
        for kind in ("class", "struct", "interface", "enum", "record", "delegate"):
            for node in caps.get(kind, ()):
                self.type_symbol(node, kind, symbols)
        for cap in _MEMBER_CAPTURES:
            for node in caps.get(cap, ()):
                self.member_symbols(node, cap, symbols)
        merged = _merge(symbols)
        refs = self.refs(caps, merged, namespaces)
        return FileRecord(
            path=self.path,
            kind="csharp",
            status=status,
            note=note,
            namespaces=tuple(dict.fromkeys(namespaces)),
            usings=tuple(
                dict.fromkeys(self.using_text(n) for n in sorted(caps.get("using", ()), key=lambda n: n.start_byte))
            ),
            defines=self.defines(),
            error_lines=error_lines,
            symbols=merged,
            refs=refs,
        )

    # ----- errors and recovery -------------------------------------------------------------

    def error_nodes(self, root: Any) -> list[Any]:
        """All ERROR and MISSING nodes (nested ones too: an ERROR inside a method body that sits
        inside a larger ERROR is a problem of its own), in file order."""
        _, _, cursor_cls = _engine()
        nodes = cursor_cls(_error_query()).captures(root).get("e", [])
        nodes.sort(key=lambda n: n.start_byte)
        return nodes

    def line_indent(self, byte: int) -> int:
        start = self.data.rfind(b"\n", 0, byte) + 1
        width = 0
        for ch in self.data[start:byte]:
            if ch == 0x20:
                width += 1
            elif ch == 0x09:
                width += 4
            else:
                break
        return width

    def repair_bodies(self, regions: list[Any]) -> bytes | None:
        """Cut method bodies that swallowed following members; return the patched bytes or None.

        A half-typed statement (`if (x > `) with a missing `}` makes tree-sitter read the rest of
        the class as statements of that method. When a line inside such a body is indented like
        the method itself (or less, for the class's `}`), the body is blanked from its `{` to that
        line (length and newlines preserved, so lines and columns stay right) and closed with `}`.
        """
        cuts: list[tuple[int, int]] = []
        for region in regions:
            member = None
            node = region.parent
            while node is not None:
                if node.type == "block" and node.parent is not None and node.parent.type in _METHOD_LIKE:
                    member = node.parent
                    body = node
                node = node.parent
            if member is None:
                continue
            indent = self.line_indent(member.start_byte)
            resume = self.resume_byte(region.start_byte, body.end_byte, indent)
            if resume is None:
                continue
            cuts.append((body.start_byte, resume))
        if not cuts:
            return None
        buf = bytearray(self.data)
        last = -1
        for start, stop in sorted(set(cuts)):
            if start < last:
                continue
            seg = bytes(buf[start + 1 : stop])
            blank = bytearray(b if b in (10, 13) else 32 for b in seg)
            first = next((i for i, b in enumerate(blank) if b == 32), None)
            if first is None:
                continue
            blank[first] = ord("}")
            buf[start + 1 : stop] = blank
            last = stop
        return bytes(buf)

    def resume_byte(self, err_byte: int, body_end: int, indent: int) -> int | None:
        """Start of the first line after `err_byte`, still inside the body, that is not the body.

        That is a line indented like the method that is not its closing `}` (the next member),
        or a less indented line (the class's `}` swallowed by the body). Blank and `#` lines are
        skipped.
        """
        pos = self.data.find(b"\n", err_byte)
        while pos >= 0 and pos + 1 < body_end:
            line_start = pos + 1
            pos = self.data.find(b"\n", line_start)
            line = self.data[line_start : pos if pos >= 0 else len(self.data)]
            stripped = line.strip()
            if not stripped or stripped.startswith(b"#"):
                continue
            width = self.line_indent(line_start + (len(line) - len(line.lstrip())))
            if width < indent or (width == indent and not stripped.startswith(b"}")):
                return line_start
        return None

    def recover_headers(self, err: Any, symbols: list[tuple[int, Symbol]]) -> None:
        """Rebuild type headers that tree-sitter left as loose tokens inside an ERROR node."""
        children = err.children
        headers: list[tuple[int, str]] = []
        pending: list[dict[str, Any]] = []
        current: dict[str, Any] | None = None
        outer = None
        for i, child in enumerate(children):
            ctype = child.type
            if not child.is_named and ctype in _KEYWORD_KINDS and i + 1 < len(children):
                j = i + 1
                kind = _KEYWORD_KINDS[ctype]
                if ctype == "record" and children[j].type in ("struct", "class"):
                    kind = "record_struct" if children[j].type == "struct" else "record"
                    j += 1
                if j >= len(children) or children[j].type != "identifier":
                    continue
                name_node = children[j]
                k = i - 1
                mods: list[str] = []
                attrs: list[str] = []
                while k >= 0 and children[k].type in ("modifier", "attribute_list"):
                    if children[k].type == "modifier":
                        mods.insert(0, self.text(children[k]))
                    else:
                        attrs[:0] = self.attributes_of_list(children[k])
                    k -= 1
                if outer is None:
                    outer = self.container(err)
                bases: list[str] = []
                for nxt in children[j + 1 :]:
                    if nxt.type == "base_list":
                        bases.extend(self.bases_of(nxt))
                    elif nxt.type not in ("type_parameter_list", "type_parameter_constraints_clause"):
                        break
                name = self.text(name_node)
                sig = " ".join([*mods, "record struct" if kind == "record_struct" else ctype, name])
                for nxt in children[j + 1 :]:
                    if nxt.type == "type_parameter_list":
                        sig += _collapse(self.text(nxt))
                    elif nxt.type == "base_list":
                        sig += " " + _collapse(self.text(nxt))
                        break
                    else:
                        break
                current = {
                    "kind": kind, "name": name, "line": name_node.start_point[0] + 1,
                    "end": child.end_point[0] + 1, "container": outer, "signature": sig,
                    "modifiers": tuple(mods), "attributes": tuple(attrs), "bases": tuple(bases),
                    "start": name_node.start_byte,
                }  # fmt: skip
                pending.append(current)
                headers.append((child.start_byte, f"{outer}.{name}" if outer else name))
            elif current is not None and child.is_named:
                if ctype in _TYPE_NODES:
                    current = None
                else:
                    current["end"] = child.end_point[0] + 1
        for item in pending:
            symbols.append((item["start"], Symbol(
                kind=item["kind"], name=item["name"], line=item["line"], end_line=item["end"],
                container=item["container"], signature=item["signature"],
                modifiers=item["modifiers"], attributes=item["attributes"], bases=item["bases"],
            )))  # fmt: skip
        if headers:
            self.error_headers[err.id] = headers

    # ----- containers and names ------------------------------------------------------------

    def container(self, node: Any) -> str:
        """Qualified name of what encloses `node`: namespaces and outer types (ERROR-aware)."""
        parent = node.parent
        if parent is None:
            return self.file_ns(node.start_byte)
        key = parent.id
        cached = self.container_cache.get(key)
        if cached is not None and parent.type != "ERROR":
            return cached
        parts: list[str] = []
        prev, cur = node, parent
        while cur is not None:
            t = cur.type
            if t in _TYPE_NODES or t == "namespace_declaration":
                name = cur.child_by_field_name("name")
                if name is not None:
                    parts.append(_WS.sub("", self.text(name)))
            elif t == "ERROR" and prev.type not in _TYPE_NODES:
                hdrs = self.error_headers.get(cur.id)
                if hdrs:
                    found = [q for s, q in hdrs if s < prev.start_byte]
                    if found:
                        parts.append(found[-1])
                        break  # the header's qualified name already holds the outer part
            prev, cur = cur, cur.parent
        if cur is None:
            fns = self.file_ns(node.start_byte)
            if fns:
                parts.append(fns)
        result = ".".join(reversed(parts))
        if parent.type != "ERROR":
            self.container_cache[key] = result
        return result

    def file_ns(self, byte: int) -> str:
        name = ""
        for start, ns in self.fns:
            if start <= byte:
                name = ns
        return name

    def collect_namespaces(self, caps: dict[str, list[Any]]) -> list[str]:
        out: list[str] = []
        for node in caps.get("fns", ()):
            name = node.child_by_field_name("name")
            if name is not None:
                ns = _WS.sub("", self.text(name))
                self.fns.append((node.start_byte, ns))
                out.append(ns)
        self.fns.sort()
        for node in sorted(caps.get("ns", ()), key=lambda n: n.start_byte):
            name = node.child_by_field_name("name")
            if name is not None:
                outer = self.container(node)
                ns = _WS.sub("", self.text(name))
                out.append(f"{outer}.{ns}" if outer else ns)
        return out

    def using_text(self, node: Any) -> str:
        """`using X;` -> "X"; `using static X;` -> "static X"; `using A = B;` -> "A = B"."""
        alias = node.child_by_field_name("name")
        is_static = any(c.type == "static" for c in node.children)
        target = ""
        for c in node.named_children:
            if c.type in ("identifier", "qualified_name", "alias_qualified_name", "generic_name") and (
                alias is None or c.id != alias.id
            ):
                target = _WS.sub("", self.text(c)).removeprefix("global::")
        if alias is not None:
            return f"{self.text(alias)} = {target}"
        return f"static {target}" if is_static else target

    def defines(self) -> tuple[str, ...]:
        """Symbols tested by #if/#elif: a regex over the bytes, so it also works inside ERRORs."""
        names: set[str] = set()
        for m in _PP_COND.finditer(self.data):
            cond = m.group(1).decode("utf-8", errors="replace").split("//", 1)[0]
            names.update(n for n in _PP_IDENT.findall(cond) if n not in ("true", "false"))
        return tuple(sorted(names))

    # ----- symbols -------------------------------------------------------------------------

    def attributes_of_list(self, node: Any) -> list[str]:
        return [_collapse(self.text(a)) for a in node.named_children if a.type == "attribute"]

    def attributes(self, node: Any) -> tuple[str, ...]:
        out: list[str] = []
        for c in node.children:
            if c.type == "attribute_list":
                out.extend(self.attributes_of_list(c))
        return tuple(out)

    def modifiers(self, node: Any) -> tuple[str, ...]:
        return tuple(self.text(c) for c in node.children if c.type == "modifier")

    def bases_of(self, base_list: Any) -> list[str]:
        return [_collapse(self.text(c)) for c in base_list.named_children if c.type != "comment"]

    def header(self, node: Any, stop: frozenset[str] = _HEADER_STOP) -> str:
        """Declaration header text: children up to the body, attributes and comments dropped.

        Only the first base list counts: a second one comes from an `#if`/`#else` header variant.
        """
        out = ""
        seen_bases = False
        for c in node.children:
            t = c.type
            if t in stop:
                break
            if t in _HEADER_SKIP or t.startswith("preproc") or (t == "base_list" and seen_bases):
                continue
            seen_bases = seen_bases or t == "base_list"
            piece = _collapse(self.text(c))
            if not out or t in _NO_SPACE_BEFORE or out.endswith("~"):
                out += piece
            else:
                out += " " + piece
        return out

    def type_symbol(self, node: Any, kind: str, symbols: list[tuple[int, Any]]) -> None:
        name = node.child_by_field_name("name")
        if name is None:
            return
        if kind == "record" and any(c.type == "struct" for c in node.children):
            kind = "record_struct"
        bases: list[str] = []
        for c in node.children:
            if c.type == "base_list":
                bases.extend(self.bases_of(c))
        rtype = node.child_by_field_name("type") if kind == "delegate" else None
        sym = Symbol(
            kind=kind,
            name=self.text(name),
            line=name.start_point[0] + 1,
            end_line=node.end_point[0] + 1,
            container=self.container(node),
            signature=self.header(node),
            type=_collapse(self.text(rtype)) if rtype is not None else "",
            modifiers=self.modifiers(node),
            attributes=self.attributes(node),
            bases=tuple(bases),
        )
        symbols.append((name.start_byte, sym))
        if node.type == "record_declaration":
            self.record_properties(node, sym, symbols)

    def record_properties(self, node: Any, rec: Symbol, symbols: list[tuple[int, Any]]) -> None:
        """Positional record parameters are public properties the compiler generates."""
        plist = next((c for c in node.children if c.type == "parameter_list"), None)
        if plist is None:
            return
        mutable = rec.kind == "record_struct" and "readonly" not in rec.modifiers
        accessors = "{ get; set; }" if mutable else "{ get; init; }"
        for p in plist.named_children:
            pname, ptype = p.child_by_field_name("name"), p.child_by_field_name("type")
            if p.type != "parameter" or pname is None or ptype is None:
                continue
            tname = _collapse(self.text(ptype))
            symbols.append((pname.start_byte, Symbol(
                kind="property", name=self.text(pname), line=pname.start_point[0] + 1,
                end_line=p.end_point[0] + 1, container=rec.qualified,
                signature=f"public {tname} {self.text(pname)} {accessors}", type=tname,
                modifiers=("public",), attributes=self.attributes(p),
            )))  # fmt: skip

    def member_symbols(self, node: Any, cap: str, symbols: list[tuple[int, Any]]) -> None:
        container = self.container(node)
        end_line = node.end_point[0] + 1
        if cap in ("field", "event_field"):
            decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
            if decl is None:
                return
            tnode = decl.child_by_field_name("type")
            tname = _collapse(self.text(tnode)) if tnode is not None else ""
            mods = self.modifiers(node)
            attrs = self.attributes(node)
            prefix = " ".join([*mods, "event"] if cap == "event_field" else mods)
            for d in decl.named_children:
                if d.type != "variable_declarator":
                    continue
                name = d.child_by_field_name("name")
                if name is None:
                    continue
                nm = self.text(name)
                symbols.append((name.start_byte, Symbol(
                    kind="field" if cap == "field" else "event", name=nm,
                    line=name.start_point[0] + 1, end_line=end_line, container=container,
                    signature=" ".join(x for x in (prefix, tname, nm) if x), type=tname,
                    modifiers=mods, attributes=attrs,
                )))  # fmt: skip
            return
        if cap == "enum_member":
            name = node.child_by_field_name("name")
            if name is None:
                return
            symbols.append((name.start_byte, Symbol(
                kind="enum_member", name=self.text(name), line=name.start_point[0] + 1,
                end_line=end_line, container=container,
                signature=self.header(node, _ENUM_MEMBER_STOP), attributes=self.attributes(node),
            )))  # fmt: skip
            return
        anchor = None
        tnode = node.child_by_field_name("returns") or node.child_by_field_name("type")
        if cap in ("operator", "conversion", "indexer"):
            word = "this" if cap == "indexer" else "operator"
            anchor = next((c for c in node.children if c.type == word), None)
            if anchor is None:
                return
            if cap == "indexer":
                name = "this"
            elif cap == "operator":
                op = node.child_by_field_name("operator")
                name = f"operator {self.text(op)}" if op is not None else "operator"
            else:
                way = next((c.type for c in node.children if c.type in ("implicit", "explicit")), "")
                tn = _collapse(self.text(tnode)) if tnode is not None else ""
                name = " ".join(x for x in (way, "operator", tn) if x)
        else:
            anchor = node.child_by_field_name("name")
            if anchor is None:
                return
            name = self.text(anchor)
            if cap == "destructor":
                name = "~" + name
            if cap == "constructor" or cap == "destructor":
                tnode = None
        signature = self.header(node)
        if cap in ("property", "indexer", "event"):
            signature += " " + self.accessor_summary(node)
        symbols.append((anchor.start_byte, Symbol(
            kind="event" if cap == "event" else cap, name=name, line=anchor.start_point[0] + 1,
            end_line=end_line, container=container, signature=signature,
            type=_collapse(self.text(tnode)) if tnode is not None else "",
            modifiers=self.modifiers(node), attributes=self.attributes(node),
        )))  # fmt: skip

    def accessor_summary(self, node: Any) -> str:
        """Accessor summary such as "{ get; private set; }"; an expression body reads "{ get; }"."""
        acc = node.child_by_field_name("accessors")
        if acc is None:
            return "{ get; }"
        parts = []
        for a in acc.named_children:
            if a.type == "accessor_declaration":
                words = [self.text(c) for c in a.children if c.type == "modifier"]
                name = a.child_by_field_name("name")
                if name is not None:
                    words.append(self.text(name))
                parts.append(" ".join(words) + ";")
        return "{ " + " ".join(parts) + " }" if parts else "{ }"

    # ----- refs ----------------------------------------------------------------------------

    def type_names(self, node: Any, out: list[str]) -> None:
        """Type names in a type node, generic arguments, arrays, nullable and pointers stripped."""
        t = node.type
        if t == "identifier":
            out.append(self.text(node))
        elif t == "generic_name":
            first = node.named_children[0] if node.named_child_count else None
            if first is not None and first.type == "identifier":
                out.append(self.text(first))
        elif t in ("qualified_name", "alias_qualified_name"):
            text = _WS.sub("", self.text(node))
            while "<" in text:
                stripped = _GENERIC_ARGS.sub("", text)
                if stripped == text:
                    break
                text = stripped
            text = text.split("::", 1)[-1]
            if text:
                out.append(text)
        elif t in ("array_type", "nullable_type", "pointer_type", "ref_type", "scoped_type"):
            inner = node.child_by_field_name("type")
            if inner is not None:
                self.type_names(inner, out)
        elif t == "tuple_type":
            for el in node.named_children:
                inner = el.child_by_field_name("type")
                if inner is not None:
                    self.type_names(inner, out)
        elif t == "primary_constructor_base_type":
            inner = node.child_by_field_name("type") or (node.named_children[0] if node.named_child_count else None)
            if inner is not None:
                self.type_names(inner, out)

    def refs(self, caps: dict[str, list[Any]], symbols: tuple[Symbol, ...], namespaces: list[str]) -> tuple[Ref, ...]:
        tparams = {self.text(n) for n in caps.get("tparam", ())}
        known = {self.text(n) for n in caps.get("lname", ())}
        known.update(s.name for s in symbols if not s.is_type)
        ns_heads = {ns.split(".", 1)[0] for ns in namespaces}
        for u in caps.get("using", ()):
            target = self.using_text(u).removeprefix("static ").split(" = ")[-1]
            ns_heads.add(target.split(".", 1)[0])
        found: set[tuple[int, str, str]] = set()
        for cap, context in _REF_CONTEXTS.items():
            for node in caps.get(cap, ()):
                names: list[str] = []
                if cap == "r.static":
                    name = self.text(node if node.type == "identifier" else node.named_children[0])
                    if not name[:1].isupper() or name in known or name in ns_heads:
                        continue
                    names.append(name)
                elif cap == "r.local" and node.type == "pointer_type" and node.parent.type == "declaration_expression":
                    continue  # `a.B(x * y)` misparses as a pointer declaration
                else:
                    self.type_names(node, names)
                line = node.start_point[0] + 1
                for n in names:
                    if n in tparams or n in _NOT_TYPES:
                        continue
                    found.add((line, n, context))
        return tuple(Ref(kind="type", target=n, line=line, context=c) for line, n, c in sorted(found))


def _merge(items: list[tuple[int, Any]]) -> tuple[Symbol, ...]:
    """Merge `#if` duplicates; order by position of the name in the file."""
    items.sort(key=lambda p: p[0])
    out: list[Symbol] = []
    index: dict[tuple[str, ...], int] = {}
    for _, sym in items:
        if sym.is_type:
            key = (sym.kind, sym.container, sym.name)
            at = index.get(key)
            if at is not None:
                old = out[at]
                if not ("partial" in old.modifiers and "partial" in sym.modifiers):
                    out[at] = Symbol(
                        kind=old.kind, name=old.name, line=old.line, end_line=max(old.end_line, sym.end_line),
                        container=old.container, signature=old.signature, type=old.type,
                        modifiers=tuple(dict.fromkeys(old.modifiers + sym.modifiers)),
                        attributes=tuple(dict.fromkeys(old.attributes + sym.attributes)),
                        bases=tuple(dict.fromkeys(old.bases + sym.bases)),
                    )  # fmt: skip
                    continue
            index[key] = len(out)
        else:
            key = (sym.kind, sym.container, sym.name, sym.signature)
            if key in index:
                continue
            index[key] = len(out)
        out.append(sym)
    return tuple(out)

"""C# scanner: one tree-sitter parse and one query per file, turned into `Symbol`s and `Ref`s.

Why this shape: the indexer runs on thousands of scripts, so the work per file is one parse plus one
`QueryCursor.captures` call; Python only touches the captured nodes (declarations and type
positions), never walks the whole tree. Files without syntax errors take only that path.

Broken files (about 1.4% of real Unity scripts) are mostly broken inside code: tree-sitter-c-sharp
misreads constructs such as unsafe pointer casts (`((int*)p)->X()`, `*(int*)p = ...`) or a
half-typed statement, and the ERROR swallows the enclosing declarations. For those files a small
lexer (`_code_bodies`: strings of every kind, chars, comments and preprocessor lines are skipped
as units) finds the code: bodies of methods, constructors, operators, accessors, the braces of
initializers and lambdas, and `=> expression;` bodies. A copy with those insides blanked (newlines
and byte offsets kept, so lines and columns are exact) is parsed again: symbols come from that
declarations-only parse, refs from it outside the blanked ranges and from the original parse inside
them. When the braces do not balance (a body lost its `}`), a body also ends at the first code line
indented like its declaration or less, and gets a `}` there. A type header lost inside an ERROR node
(``#if``/``#else`` around a class header) is still rebuilt from the ERROR's tokens.

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
  That stays so even when the declarations-only parse is clean. `defines` come from a regex over
  `#if`/`#elif` lines of the original bytes, so they survive ERROR nodes and blanked bodies too.
  Lost: declarations whose own header is what tree-sitter cannot parse, mostly a declaration split
  by ``#if``/``#else`` (two header or modifier variants, a `=>` body with two branches); refs that
  the original parse got wrong inside a broken body; with unbalanced braces, a body line written at
  or left of its declaration's indentation (column-0 code) ends that body early.
"""

from __future__ import annotations

import bisect
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
        body_caps: dict[str, list[Any]] = {}
        bodies: list[tuple[int, int]] = []
        if root.has_error:
            error_lines = tuple(sorted({r.start_point[0] + 1 for r in self.error_nodes(root)}))
            status = "partial"
            note = f"{len(error_lines)} syntax error region{'s' if len(error_lines) != 1 else ''}"
            outline = _declarations_only(self.data)
            if outline is not None:
                # Declarations come from the blanked copy; refs inside the bodies from this parse.
                body_caps = cursor_cls(query).captures(root)
                clean, bodies = outline
                root = parser.parse(clean).root_node
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
        refs = self.refs(caps, merged, namespaces, body_caps, bodies)
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

    def refs(
        self,
        caps: dict[str, list[Any]],
        symbols: tuple[Symbol, ...],
        namespaces: list[str],
        body_caps: dict[str, list[Any]],
        bodies: list[tuple[int, int]],
    ) -> tuple[Ref, ...]:
        """Refs of `caps`; plus, for a blanked copy, refs of the original parse inside its `bodies`."""
        both = (caps, body_caps)
        tparams = {self.text(n) for c in both for n in c.get("tparam", ())}
        known = {self.text(n) for c in both for n in c.get("lname", ())}
        known.update(s.name for s in symbols if not s.is_type)
        ns_heads = {ns.split(".", 1)[0] for ns in namespaces}
        for u in caps.get("using", ()):
            target = self.using_text(u).removeprefix("static ").split(" = ")[-1]
            ns_heads.add(target.split(".", 1)[0])
        found: set[tuple[int, str, str]] = set()
        starts = [b[0] for b in bodies]
        for cap, context in _REF_CONTEXTS.items():
            nodes = caps.get(cap, ())
            if bodies:
                inside = (n for n in body_caps.get(cap, ()) if _inside(n.start_byte, starts, bodies))
                nodes = [*nodes, *inside]
            for node in nodes:
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


def _inside(byte: int, starts: list[int], ranges: list[tuple[int, int]]) -> bool:
    """Whether `byte` lies in one of the sorted, disjoint `ranges` (`starts` are their starts)."""
    at = bisect.bisect_right(starts, byte) - 1
    return at >= 0 and byte < ranges[at][1]


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


# ----- declarations-only copy ----------------------------------------------------------------

# One token per match. Comments, regular/verbatim strings and char literals are single tokens, so
# their braces never count; `sx` only matches a string's opening quote, `_skip_string` finds its end.
_TOKEN = re.compile(
    rb"""
    (?P<ws>\s+)
  | (?P<cm>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<pp>\#[^\n]*)
  | (?P<sx>[$@]*")
  | (?P<ch>'(?:[^'\\\n]|\\.)*'?)
  | (?P<id>@?[A-Za-z0-9_\x80-\xff]+)
  | (?P<op>=>|==|<<=|>>=|\?\?=|[-+*/%&|^!<>]=)
  | (?P<p>.)
    """,
    re.S | re.X,
)
_REGULAR_STRING = re.compile(rb'(?:[^"\\\n]|\\.)*"?', re.S)
_VERBATIM_STRING = re.compile(rb'(?:[^"]|"")*"?')
_INTERPOLATED = re.compile(rb'(?:[^"\\\n{}]|\\.|\{\{|\}\})*', re.S)
_INTERPOLATED_VERBATIM = re.compile(rb'(?:[^"{}]|""|\{\{|\}\})*')
_PP_WORD = re.compile(rb"#[ \t]*(\w*)")
# Words that may precede a `(` that opens a tuple type rather than a parameter list.
_MODIFIER_WORDS = frozenset(
    b"public private protected internal static readonly const volatile unsafe extern override virtual abstract "
    b"sealed new async partial ref required file fixed scoped event".split()
)
_TYPE_WORDS = frozenset((b"class", b"struct", b"interface", b"enum", b"namespace"))
_BLANK = bytes(b if b in (10, 13) else 32 for b in range(256))
_DECL, _ACCESSORS, _CODE = 0, 1, 2  # frame kinds: type/namespace body, accessor list, code block


def _skip_string(data: bytes, start: int, pos: int) -> int:
    """End of the string literal whose prefix and opening quote are data[start:pos]."""
    prefix = data[start : pos - 1]
    verbatim = b"@" in prefix
    if not verbatim and data.startswith(b'"', pos):
        end = pos
        while end < len(data) and data[end] == 0x22:
            end += 1
        count = end - pos + 1
        if count < 3:
            return pos + 1  # ""
        close = data.find(b'"' * count, end)  # raw string: opaque up to the same run of quotes
        return len(data) if close < 0 else close + count
    if b"$" not in prefix:
        return (_VERBATIM_STRING if verbatim else _REGULAR_STRING).match(data, pos).end()
    text = _INTERPOLATED_VERBATIM if verbatim else _INTERPOLATED
    while True:
        pos = text.match(data, pos).end()
        if pos >= len(data):
            return pos
        c = data[pos]
        if c == 0x22:
            return pos + 1
        if c == 0x7B:
            pos = _skip_hole(data, pos + 1)
        elif c == 0x7D:
            pos += 1
        else:
            return pos  # a newline ends a broken regular string


def _skip_hole(data: bytes, pos: int) -> int:
    """End of an interpolation hole `{...}` (pos is after the `{`); a format spec after `:` is text."""
    depth = 0
    while pos < len(data):
        m = _TOKEN.match(data, pos)
        kind, start, pos = m.lastgroup, pos, m.end()
        if kind == "sx":
            pos = _skip_string(data, start, pos)
        elif kind == "p":
            c = data[start]
            if c in b"({[":
                depth += 1
            elif c in b")]" or (c == 0x7D and depth):
                depth -= 1
            elif c == 0x7D:
                return pos
            elif c == 0x3A and depth == 0 and data[pos : pos + 1] != b":" and data[start - 1 : start] != b":":
                close = data.find(b"}", pos)
                return len(data) if close < 0 else close + 1
    return pos


def _indent(data: bytes, byte: int) -> int:
    """Indentation width of the line holding `byte` (a tab counts 4)."""
    start = data.rfind(b"\n", 0, byte) + 1
    line = data[start:byte]
    lead = line[: len(line) - len(line.lstrip(b" \t"))]
    return lead.count(b" ") + 4 * lead.count(b"\t")


class _Header:
    """What the tokens since the last `;`, `{` or `}` outside code blocks say about the next `{`."""

    __slots__ = ("arrow", "eq", "operator", "param", "paren", "prev", "prev_word", "seen_paren", "start", "type")

    def __init__(self) -> None:
        self.start = -1  # first token
        self.arrow = -1  # end of a `=>` that starts an expression body
        self.paren = 0  # depth of ( and [
        self.eq = False  # `=` or `=>` seen: an initializer or expression body follows
        self.type = False  # class/struct/interface/enum/namespace/record before any `(`: a type body follows
        self.param = False  # a parameter list seen: a method-like body follows
        self.operator = False
        self.seen_paren = False
        self.prev = b""
        self.prev_word = False


def _code_bodies(data: bytes, cut: bool) -> tuple[list[tuple[int, int, bytes]], list[tuple[int, int, int]], bool]:
    """Find the code to blank: (start, stop, fill) per outermost code block or expression body.

    A `{` opens a code block when it follows a parameter list (method, constructor, operator,
    local function: `(` after a name, then maybe constraints or a constructor initializer), sits in
    an accessor list (`get {`), or belongs to an initializer or expression (after `=` or `=>`, or
    inside attribute brackets); the range is its inside, fill b"". A header with
    class/struct/interface/enum/namespace or `record Name` opens a type body, any other header an
    accessor list. A member's or accessor's `=> expression;` is a range too, fill b"0" (a
    placeholder expression). `#if` branches are lexed like the compiler would see one of them:
    `#else`/`#elif` restore the block stack of the `#if`, `#endif` keeps the first branch's, so a
    header written twice in two branches opens one block.

    With `cut`, a block also ends before its first code line (comments and directives do not
    count) indented less than its header, or as much but not a `}` (the next member after a body
    that lost its `}`); fill b"}". Also returns the `#if`/`#region` directives as (start, end,
    group) and whether the braces balanced.
    """
    ranges: list[tuple[int, int, bytes]] = []
    directives: list[tuple[int, int, int]] = []
    stack: list[tuple[int, int, int, bool]] = []  # (frame kind, `{` byte, header indent, reset header on close)
    code_at = -1  # index of the outermost code frame in `stack`
    conditionals: list[list[Any]] = []  # [group, stack at #if, stack after the first branch]
    regions: list[int] = []
    groups = 0
    balanced = True
    newline, line_start = True, 0
    h = _Header()
    pos, size, match = 0, len(data), _TOKEN.match
    while pos < size:
        m = match(data, pos)
        kind, start, pos = m.lastgroup, pos, m.end()
        if kind == "ws":
            nl = data.rfind(b"\n", start, pos)
            if nl >= 0:
                newline, line_start = True, nl + 1
            continue
        if kind == "cm":
            continue
        if kind == "pp":
            word = _PP_WORD.match(data, start).group(1)
            group = 0
            if word == b"if":
                groups += 1
                group = groups
                conditionals.append([group, list(stack), None])
            elif word in (b"elif", b"else", b"endif") and conditionals:
                top = conditionals[-1]
                group = top[0]
                if word == b"endif":
                    conditionals.pop()
                    if top[2] is not None:
                        stack = top[2]
                else:
                    if top[2] is None:
                        top[2] = list(stack)
                    stack = list(top[1])
                code_at = next((i for i, f in enumerate(stack) if f[0] == _CODE), -1)
            elif word == b"region":
                groups += 1
                group = groups
                regions.append(group)
            elif word == b"endregion" and regions:
                group = regions.pop()
            directives.append((start, pos, group))
            continue
        if kind == "sx":
            pos = _skip_string(data, start, pos)
            tok = b'"'
        else:
            tok = data[start:pos]
        first, newline = newline, False
        if code_at >= 0:
            if cut and first:
                frame = stack[code_at]
                indent = _indent(data, start)
                if indent < frame[2] or (indent == frame[2] and tok != b"}"):
                    ranges.append((frame[1] + 1, line_start, b"}"))
                    del stack[code_at:]
                    code_at = -1
                    h = _Header()
            if code_at >= 0:
                if tok == b"{":
                    stack.append((_CODE, start, 0, False))
                elif tok == b"}":
                    frame = stack.pop()
                    if len(stack) == code_at:
                        ranges.append((frame[1] + 1, start, b""))
                        code_at = -1
                        if frame[3]:
                            h = _Header()
                continue
        if tok == b"{":
            top = stack[-1][0] if stack else _DECL
            if top == _ACCESSORS or h.param or h.eq or h.paren:
                # An initializer's or attribute's braces do not end the declaration: keep the header.
                reset = top == _ACCESSORS or not (h.eq or h.paren)
                code_at = len(stack)
                stack.append((_CODE, start, _indent(data, h.start if h.start >= 0 else start), reset))
                if not reset:
                    continue
            else:
                stack.append((_DECL if h.type or h.start < 0 else _ACCESSORS, start, 0, True))
        elif tok == b"}":
            if stack:
                stack.pop()
            else:
                balanced = False
        elif tok != b";":
            if h.start < 0:
                h.start = start
            if tok == b"(" or tok == b"[":
                if h.paren == 0 and tok == b"(":
                    if h.operator or h.prev == b">" or (h.prev_word and h.prev not in _MODIFIER_WORDS):
                        h.param = not h.type
                    h.seen_paren = True
                h.paren += 1
            elif tok == b")" or tok == b"]":
                h.paren = max(h.paren - 1, 0)
            elif h.paren == 0:
                if tok == b"=>" and not h.eq:
                    h.arrow = pos
                if tok == b"=" or tok == b"=>":
                    h.eq = True
                elif kind == "id" and not h.seen_paren:
                    if tok in _TYPE_WORDS or h.prev == b"record":
                        h.type = True
                    elif tok == b"operator":
                        h.operator = True
            h.prev, h.prev_word = tok, kind == "id"
            continue
        elif h.arrow >= 0:
            ranges.append((h.arrow, start, b"0"))  # `=> expression;` of a member or accessor
        h = _Header()
    return ranges, directives, balanced and not stack


def _declarations_only(data: bytes) -> tuple[bytes, list[tuple[int, int]]] | None:
    """`data` with the code found by `_code_bodies` blanked (newlines kept, so lines and byte
    offsets stay exact), and the blanked (start, end) ranges; None when there is no code.

    Each range's fill byte goes to its first blanked column. When the braces do not balance, the
    ranges are computed again with the indentation cut. Directive lines inside a range are blank
    like the rest; an `#if`/`#region` group with lines both inside and outside a range (a body
    opened in one branch) loses its outside lines too, so the copy keeps one balanced branch.
    """
    ranges, directives, balanced = _code_bodies(data, cut=False)
    if not balanced:
        ranges, directives, _ = _code_bodies(data, cut=True)
    if not ranges:
        return None
    merged: list[list[Any]] = []
    for start, stop, fill in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], stop)
            merged[-1][2] = merged[-1][2] or fill
        elif start < stop or fill:
            merged.append([start, stop, fill])
    buf = bytearray(data)
    for start, stop, fill in merged:
        buf[start:stop] = data[start:stop].translate(_BLANK)
        at = buf.find(b" ", start, stop) if fill else -1
        if at >= 0:
            buf[at] = fill[0]
        elif fill == b"}":
            buf[start - 1] = 0x3B  # no room for the `}`: `{` becomes `;`
    starts = [r[0] for r in merged]
    places: dict[int, set[int]] = {}
    for start, _, group in directives:
        at = bisect.bisect_right(starts, start) - 1
        places.setdefault(group, set()).add(at if at >= 0 and start < merged[at][1] else -1)
    for start, stop, group in directives:
        if group and len(places[group]) > 1:
            buf[start:stop] = data[start:stop].translate(_BLANK)
    return bytes(buf), [(r[0], r[1]) for r in merged]

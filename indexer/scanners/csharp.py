"""C# scanner: one tree-sitter parse and one query per file, turned into `Symbol`s and `Ref`s.

Why this shape: the indexer runs on thousands of scripts, so the work per file is one parse plus one
`QueryCursor.captures` call; Python only touches the captured nodes (declarations and type
positions), never walks the whole tree. Files without syntax errors take only that path.

Broken files (about 1.4% of real Unity scripts) are mostly broken inside code: tree-sitter-c-sharp
misreads constructs such as unsafe pointer casts (`((int*)p)->X()`, `*(int*)p = ...`) or a half-typed
statement, and the ERROR swallows the enclosing declarations. For those files a small lexer
(`csharp_lexer`: strings, chars, comments and preprocessor lines are skipped as units)
finds the code: bodies of methods, constructors, operators, accessors, the braces of initializers and
lambdas, and `=> expression;` bodies. A copy with those insides blanked (newlines and byte offsets kept,
so lines and columns are exact) is parsed again: symbols come from that declarations-only parse, refs
from it outside the blanked ranges and from the original parse inside them. When the braces do not
balance (a body lost its `}`), a body also ends at the first code line indented like its declaration or
less, and gets a `}` there. A type header lost inside an ERROR node (`#if`/`#else` around a class header
with other code) is rebuilt from the ERROR's tokens (each branch a header alone: read whole, `first_branches`).

Representation decisions (the tests pin them):
- Lines are 1-based. `Symbol.line` is the line of the declared name (for operators the ``operator``
  keyword, for indexers ``this``), so attributes above a member do not move it; `end_line` is the
  last line of the whole declaration.
- Names: types without type parameters ("ObjectPool"); constructors use the type name, destructors
  "~Name", indexers "this", operators "operator +", conversions "implicit operator int".
- Signatures: the declaration header without attributes, body, initializer or constructor
  initializer, whitespace collapsed. Properties/indexers get an accessor summary
  ("public int X { get; private set; }"; an expression body reads "{ get; }"). Fields and events
  give "modifiers type name" per declarator, with a short one-line value kept ("int lives = 3");
  enum members give "Name" or "Name = value".
- Record positional parameters also become `property` symbols ("public int A { get; init; }";
  "{ get; set; }" for a non-readonly record struct), since that is what the compiler generates.
- `usings`: "UnityEngine", "static UnityEngine.Mathf", "Foo = Bar.Baz" (alias = target), with
  whitespace removed and a leading "global::" dropped; `global using` is kept like a normal using.
- Refs: see `REF_CONTEXTS`; `default(T)` and `sizeof(T)` count as "typeof"; a `using static`
  directive's type is a ref of context "using" (the file names its members bare). Type parameters
  declared in the file (``T``) are not refs. A name starting with a `using` alias is recorded
  as what the alias names (`UE.GameObject` of `using UE = UnityEngine;` is
  `UnityEngine.GameObject`). The "static" context is a heuristic: an identifier (or generic
  name) directly left of a member access, starting with an uppercase letter, that is not a
  local/parameter/member name declared in this file and not the first segment of a namespace
  named in a (non-alias) using or namespace declaration.
- `#if` branches: all are indexed; members that repeat with the same (kind, container, name,
  signature) are merged (first line kept). Types repeating with the same (kind, container, name)
  are merged (bases and attributes unioned) unless both are ``partial``.
- Syntax errors: status "partial", `error_lines` = sorted unique first lines of every ERROR and
  MISSING node of the original parse (nested ones included: an ERROR inside a method body inside
  a larger ERROR is its own problem; a MISSING token hidden in a name counts by that name's line);
  the note counts those lines ("3 syntax error regions"). A last line gets a line break if it has none.
  That stays so even when the declarations-only parse is clean. `defines` come from a regex over
  `#if`/`#elif` lines of the original bytes, so they survive ERROR nodes and blanked bodies too.
  Lost: declarations whose own header is what tree-sitter cannot parse, mostly a declaration split
  by ``#if``/``#else`` (two modifier variants of a member, a `=>` body with two branches); refs that
  the original parse got wrong inside a broken body; with unbalanced braces, a body line written at
  or left of its declaration's indentation (column-0 code) ends that body early.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from indexer.model import TYPE_KINDS, FileRecord, Ref, Symbol
from indexer.scanners import scanner_error

from .conflicts import both_sides, conflict_sides
from .csharp_lexer import declarations_only as _declarations_only
from .csharp_nodes import NodeText, collapse, field_value, plain_symbol, squeeze
from .csharp_query import REF_CONTEXTS, TooBroken, check_error_width, deep_ifs, engine, error_nodes, parsed
from .csharp_recover import recover_headers, reparsed
from .csharp_scopes import MAX_NESTING, Scope, TooDeep, qualified, scopes
from .csharp_strings import asset_literals

_MEMBER_CAPTURES = (
    "method", "constructor", "destructor", "property", "indexer", "field", "event_field", "event",
    "enum_member", "operator", "conversion",
)  # fmt: skip
# Names that are keywords in type position but parse as identifiers.
_NOT_TYPES = frozenset({"var", "dynamic", "nint", "nuint", "unmanaged", "notnull", "managed"})
# `#if`/`#elif` anywhere (a literal `#` is found fast); `defines` keeps those that start a line.
_PP_COND = re.compile(rb"#[ \t]*(?:if|elif)\b([^\r\n]*)")
_PP_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# First bytes of a name that is not capitalized for sure (`str.isupper` of its first character is
# False): ASCII other than A-Z. A non-ASCII first byte is decided on the text.
_NOT_UPPER_LEAD = frozenset(range(128)) - frozenset(range(ord("A"), ord("Z") + 1))


def scan(path: str, data: bytes) -> FileRecord:
    """Scan one C# file. Pure and total: any internal failure becomes status "skipped", except
    MemoryError, which the caller reports against the memory limit it set."""
    try:
        if b"\x00" in data:
            return FileRecord(path=path, kind="csharp", status="skipped", note="binary content")
        if data.startswith(b"\xef\xbb\xbf"):
            # Blank the BOM instead of cutting it so byte offsets and columns stay as in the file.
            data = b"   " + data[3:]
        if not data.endswith(b"\n"):  # a last `#endregion` without one is a syntax error to tree-sitter
            data += b"\n"  # (a byte past the end moves no offset, line or column)
        if (conflict := conflict_sides(data)) is not None:  # git's <<<<<<< ======= >>>>>>>: each side read
            return both_sides(conflict, lambda side: _Scan(path, side).run(), _merge)
        return _Scan(path, data).run()
    except TooDeep:
        note = f"namespaces and types nested over {MAX_NESTING} deep: not indexed"
        return FileRecord(path=path, kind="csharp", status="skipped", note=note)
    except TooBroken as exc:
        return FileRecord(path=path, kind="csharp", status="skipped", note=exc.note)
    except MemoryError:
        raise
    except Exception as exc:  # the contract is "never raises"
        return scanner_error(path, "csharp", exc)


class _Scan(NodeText):
    """State for one file; methods are split only to keep each step readable."""

    def __init__(self, path: str, data: bytes) -> None:
        super().__init__(data)
        self.path = path
        self.fns: list[tuple[int, str]] = []  # file-scoped namespaces: (start byte, name)
        self.scopes: dict[int, Scope] = {}  # node id -> what encloses it (see csharp_scopes)
        self.recovered: list[tuple[int, Symbol]] = []  # type headers rebuilt from ERROR nodes

    def run(self) -> FileRecord:
        parser, query, cursor = engine()
        root = reparsed(parser, self.data, parsed(parser, self.data).root_node)
        status, note, error_lines = "ok", "", ()
        parts: list[_RefNames] = []
        if root.has_error:
            check_error_width(root)
            error_lines = tuple(sorted({r.start_point[0] + 1 for r in error_nodes(root)}))
            status = "partial"
            note = f"{len(error_lines)} syntax error region{'s' if len(error_lines) != 1 else ''}"
            outline = _declarations_only(self.data)
            if outline is not None:
                # Declarations come from the blanked copy; refs inside the bodies from this parse,
                # read out before the copy is parsed so only one tree is alive at a time.
                clean, bodies = outline
                starts = [b[0] for b in bodies]
                body_caps = cursor(query).captures(root)
                parts.append(self.ref_names(body_caps, lambda n: _inside(n.start_byte, starts, bodies)))
                del body_caps, root
                root = parsed(parser, clean).root_node
        status, note = deep_ifs(self.data, status, note)
        caps = cursor(query).captures(root)
        file_namespaces = self.file_namespaces(caps)
        self.scopes = scopes(self, root, _scoped(caps), self.recover, bool(caps.get("error")))
        namespaces = file_namespaces + self.nested_namespaces(caps)
        merged = _merge(self.symbols(caps))
        if b"@" in self.data:  # names come from the file's text: no "@" there, none to drop
            merged = tuple(map(plain_symbol, merged))
        parts.insert(0, self.ref_names(caps))
        using_nodes = sorted(caps.get("using", ()), key=lambda n: n.start_byte)
        usings = [self.using_text(n) for n in using_nodes]
        refs = self.refs(merged, namespaces, usings, parts) + asset_literals(self.data)
        # `using static Game.DrawSettings;`: the file names the type's members bare
        refs += tuple(
            Ref("type", u[7:], n.start_point[0] + 1, "using") for n, u in zip(using_nodes, usings, strict=True)
            if u.startswith("static ") and " = " not in u
        )  # fmt: skip
        return FileRecord(
            path=self.path,
            kind="csharp",
            status=status,
            note=note,
            namespaces=tuple(dict.fromkeys(namespaces)),
            usings=tuple(dict.fromkeys(usings)),
            defines=self.defines(),
            error_lines=error_lines,
            symbols=merged,
            refs=refs,
        )

    def symbols(self, caps: dict[str, list[Any]]) -> list[tuple[int, Symbol]]:
        """(start byte of the name, symbol) of every declaration, recovered headers first."""
        symbols: list[tuple[int, Symbol]] = list(self.recovered)
        for kind in ("class", "struct", "interface", "enum", "record", "delegate"):
            for node in caps.get(kind, ()):
                self.type_symbol(node, kind, symbols)
        for cap in _MEMBER_CAPTURES:
            for node in caps.get(cap, ()):
                self.member_symbols(node, cap, symbols)
        return symbols

    # ----- containers and names ------------------------------------------------------------

    def recover(self, err: Any, scope: Scope) -> list[tuple[int, str]]:
        """Rebuild the type headers left loose in an ERROR node; their (start, qualified name)."""
        found, headers = recover_headers(self, err, lambda: qualified(scope, self.file_ns(err.start_byte)))
        self.recovered.extend(found)
        return headers

    def container(self, node: Any) -> str:
        """Qualified name of what encloses `node`: namespaces and outer types (ERROR-aware)."""
        scope = self.scopes[node.id]
        return qualified(scope, self.file_ns(node.start_byte)) if self.fns else scope.prefix

    def file_ns(self, byte: int) -> str:
        at = bisect.bisect_right(self.fns, (byte, "\U0010ffff")) - 1
        return self.fns[at][1] if at >= 0 else ""

    def file_namespaces(self, caps: dict[str, list[Any]]) -> list[str]:
        out: list[str] = []
        for node in caps.get("fns", ()):
            name = node.child_by_field_name("name")
            if name is not None:
                ns = squeeze(self.text(name))
                self.fns.append((node.start_byte, ns))
                out.append(ns)
        self.fns.sort()
        return out

    def nested_namespaces(self, caps: dict[str, list[Any]]) -> list[str]:
        out: list[str] = []
        for node in sorted(caps.get("ns", ()), key=lambda n: n.start_byte):
            name = node.child_by_field_name("name")
            if name is not None:
                outer = self.container(node)
                ns = squeeze(self.text(name))
                out.append(f"{outer}.{ns}" if outer else ns)
        return out

    def defines(self) -> tuple[str, ...]:
        """Symbols tested by #if/#elif: a regex over the bytes, so it also works inside ERRORs."""
        names: set[str] = set()
        data = self.data
        for m in _PP_COND.finditer(data):
            start = m.start()
            if data[data.rfind(b"\n", 0, start) + 1 : start].strip(b" \t"):
                continue  # not the first thing on its line
            cond = m.group(1).decode("utf-8", errors="replace").split("//", 1)[0]
            names.update(n for n in _PP_IDENT.findall(cond) if n not in ("true", "false"))
        return tuple(sorted(names))

    # ----- symbols -------------------------------------------------------------------------

    def type_symbol(self, node: Any, kind: str, symbols: list[tuple[int, Any]]) -> None:
        k = self.kinds
        name = node.child_by_field_id(k.name_field)
        if name is None:
            return
        if kind == "record" and any(c.type == "struct" for c in node.children):
            kind = "record_struct"
        bases: list[str] = []
        for c in node.children:
            if c.kind_id in k.base_list:
                bases.extend(self.bases_of(c))
        rtype = node.child_by_field_id(k.type_field) if kind == "delegate" else None
        signature, modifiers, attributes = self.declaration(node)
        sym = Symbol(
            kind=kind,
            name=self.text(name),
            line=name.start_point[0] + 1,
            end_line=node.end_point[0] + 1,
            container=self.container(node),
            signature=signature,
            type=collapse(self.text(rtype)) if rtype is not None else "",
            modifiers=modifiers,
            attributes=attributes,
            bases=tuple(bases),
        )
        symbols.append((name.start_byte, sym))
        if kind == "record" or kind == "record_struct":
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
            tname = collapse(self.text(ptype))
            symbols.append((pname.start_byte, Symbol(
                kind="property", name=self.text(pname), line=pname.start_point[0] + 1,
                end_line=p.end_point[0] + 1, container=rec.qualified,
                signature=f"public {tname} {self.text(pname)} {accessors}", type=tname,
                modifiers=("public",), attributes=self.attributes(p),
            )))  # fmt: skip

    def member_symbols(self, node: Any, cap: str, symbols: list[tuple[int, Any]]) -> None:
        container = self.container(node)
        if cap in ("field", "event_field"):
            self.field_symbols(node, cap, container, symbols)
            return
        end_line = node.end_point[0] + 1
        k = self.kinds
        if cap == "enum_member":
            name = node.child_by_field_id(k.name_field)
            if name is not None:
                signature, _, attributes = self.declaration(node, k.enum_member_roles)
                symbols.append((name.start_byte, Symbol(
                    kind="enum_member", name=self.text(name), line=name.start_point[0] + 1,
                    end_line=end_line, container=container, signature=signature, attributes=attributes,
                )))  # fmt: skip
            return
        # Only a method has a `returns` field, constructors and destructors have no type (grammar).
        if cap == "constructor" or cap == "destructor":
            tnode = None
        else:
            tnode = node.child_by_field_id(k.returns_field if cap == "method" else k.type_field)
        named = self.member_name(node, cap, tnode)
        if named is None:
            return
        anchor, name = named
        signature, modifiers, attributes = self.declaration(node)
        if cap in ("property", "indexer", "event"):
            signature += " " + self.accessor_summary(node)
        symbols.append((anchor.start_byte, Symbol(
            kind="event" if cap == "event" else cap, name=name, line=anchor.start_point[0] + 1,
            end_line=end_line, container=container, signature=signature, type=self.type_text(tnode),
            modifiers=modifiers, attributes=attributes,
        )))  # fmt: skip

    def member_name(self, node: Any, cap: str, tnode: Any) -> tuple[Any, str] | None:
        """(node the line comes from, name) of a method-like member; None when it has no name."""
        if cap not in ("operator", "conversion", "indexer"):
            anchor = node.child_by_field_id(self.kinds.name_field)
            if anchor is None:
                return None
            return anchor, ("~" if cap == "destructor" else "") + self.text(anchor)
        word = "this" if cap == "indexer" else "operator"
        anchor = next((c for c in node.children if c.type == word), None)
        if anchor is None:
            return None
        if cap == "indexer":
            return anchor, "this"
        if cap == "operator":
            op = node.child_by_field_name("operator")
            return anchor, f"operator {self.text(op)}" if op is not None else "operator"
        way = next((c.type for c in node.children if c.type in ("implicit", "explicit")), "")
        return anchor, " ".join(x for x in (way, "operator", self.type_text(tnode)) if x)

    def field_symbols(self, node: Any, cap: str, container: str, symbols: list[tuple[int, Any]]) -> None:
        """One symbol per declarator of a field or event field."""
        k = self.kinds
        text = self.text
        modifier, attribute_list, variable_declaration = k.modifier, k.attribute_list, k.variable_declaration
        decl = None
        mods: list[str] = []
        attrs: list[str] = []
        for c in node.children:
            kid = c.kind_id
            if kid in modifier:
                mods.append(text(c))
            elif kid in attribute_list:
                attrs.extend(self.attributes_of_list(c))
            elif decl is None and kid in variable_declaration:
                decl = c
        if decl is None:
            return
        tname = self.type_text(decl.child_by_field_id(k.type_field))
        prefix = " ".join([*mods, "event"] if cap == "event_field" else mods)
        end_line = node.end_point[0] + 1
        kind = "field" if cap == "field" else "event"
        modifiers, attributes = tuple(mods), tuple(attrs)
        for d in decl.named_children:
            name = d.child_by_field_id(k.name_field) if d.kind_id in k.variable_declarator else None
            if name is None:
                continue
            nm = text(name)
            value = field_value(d, name, text)
            symbols.append((name.start_byte, Symbol(
                kind=kind, name=nm, line=name.start_point[0] + 1, end_line=end_line, container=container,
                signature=" ".join([x for x in (prefix, tname, nm, value) if x]), type=tname,
                modifiers=modifiers, attributes=attributes,
            )))  # fmt: skip

    # ----- refs ----------------------------------------------------------------------------

    def ref_names(self, caps: dict[str, list[Any]], keep: Callable[[Any], bool] | None = None) -> _RefNames:
        """The type names the ref captures of one parse name (those `keep` accepts), before the
        filters that need the whole file."""
        text = self.text
        return _RefNames(
            self.ref_candidates(caps, keep),
            set(map(text, caps.get("tparam", ()))),
            # only a local that may start with an uppercase letter can hide a static access
            set(map(text, self.may_be_upper(caps.get("lname", ())))),
        )

    def may_be_upper(self, nodes: list[Any]) -> list[Any]:
        """The nodes whose text may start with an uppercase letter: one starting with an ASCII
        byte other than A-Z cannot (one byte looked at, no text made; the rest is tested as text)."""
        data, not_upper = self.data, _NOT_UPPER_LEAD
        try:
            return [n for n in nodes if data[n.start_byte] not in not_upper]
        except IndexError:  # an empty (missing) node at the end of the file
            return list(nodes)

    def ref_candidates(
        self, caps: dict[str, list[Any]], keep: Callable[[Any], bool] | None
    ) -> list[tuple[int, str, str]]:
        """(line, type name, context) of the ref captures; a static access only when its name
        starts with an uppercase letter (the rest of that test needs the whole file: `refs`)."""
        misparsed = {n.id for n in caps.get("misparse", ())}  # `a.B(x * y)` read as a pointer declaration
        text = self.text
        k = self.kinds
        identifier, type_name_kinds = k.identifier, k.type_name_kinds
        out: list[tuple[int, str, str]] = []
        append = out.append
        for cap, nodes in caps.items():
            context = REF_CONTEXTS.get(cap)
            if context is None:
                continue
            if keep is not None or misparsed:
                nodes = [n for n in nodes if (keep is None or keep(n)) and n.id not in misparsed]
            if context == "static":  # an identifier or a generic name: the name itself
                for node in self.may_be_upper(nodes):  # a generic name starts with its identifier
                    name = text(node if node.kind_id in identifier else node.named_children[0])
                    if name[:1].isupper():
                        append((node.start_point[0] + 1, name, context))
                continue
            for node in nodes:
                kid = node.kind_id
                if kid in identifier:  # most type positions: the name itself
                    append((node.start_point[0] + 1, text(node), context))
                elif kid in type_name_kinds:  # the others (`int`, `var`) name no type
                    names: list[str] = []
                    self.type_names(node, names)
                    line = node.start_point[0] + 1
                    out.extend((line, n, context) for n in names)
        return out

    def refs(
        self, symbols: tuple[Symbol, ...], namespaces: list[str], usings: list[str], parts: list[_RefNames]
    ) -> tuple[Ref, ...]:
        """Refs from the ref names of each parse; a static access only when it is not a name
        declared in the file or the head of a namespace. A name starting with a `using` alias is
        recorded as what the alias stands for (`Sp` of `using Sp = Game.Spawner;` is `Game.Spawner`)."""
        drop = {n for p in parts for n in p.tparams}
        drop.update(_NOT_TYPES)
        known = {n for p in parts for n in p.locals}
        known.update(s.name for s in symbols if s.kind not in TYPE_KINDS)  # not `is_type`: a call each
        known.update(ns.split(".", 1)[0] for ns in namespaces)
        aliases = dict(u.split(" = ", 1) for u in usings if " = " in u)
        known.update(u.removeprefix("static ").split(".", 1)[0] for u in usings if " = " not in u)
        found: set[tuple[int, str, str]] = set()
        add = found.add
        for part in parts:
            for line, written, context in part.names:
                name = written.replace("@", "") if "@" in written else written  # as `plain`
                if aliases and (head := re.match(r"[^.<]+", name)) and head.group() in aliases:
                    name = aliases[head.group()] + name[head.end() :]
                if name not in drop and (context != "static" or name not in known):
                    add((line, name, context))
        return tuple([Ref("type", n, line, c) for line, n, c in sorted(found)])


class _RefNames(NamedTuple):
    names: list[tuple[int, str, str]]  # (line, type name, context)
    tparams: set[str]  # type parameters declared
    locals: set[str]  # locals, parameters and pattern variables declared


def _scoped(caps: dict[str, list[Any]]) -> list[Any]:
    """The captured nodes whose container the scan needs: errors, namespaces, types, members."""
    names = ("error", "ns", "class", "struct", "interface", "enum", "record", "delegate", *_MEMBER_CAPTURES)
    return [n for name in names for n in caps.get(name, ())]


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
        if sym.kind in TYPE_KINDS:
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

"""The tree-sitter side of the C# scanner: the one query every file runs, and the parser.

Why one query: the work per file is one parse plus one `QueryCursor.captures` call; Python only
touches the captured nodes (declarations and type positions), never walks the whole tree.
"""

from __future__ import annotations

import functools
import itertools
import re
import time
from typing import Any

QUERY_SOURCE = r"""
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
(declaration_expression type: (pointer_type) @misparse)
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
REF_CONTEXTS = {
    "r.base": "base", "r.field": "field", "r.event": "event", "r.property": "property",
    "r.param": "param", "r.return": "return", "r.local": "local", "r.generic": "generic",
    "r.typeof": "typeof", "r.new": "new", "r.attribute": "attribute", "r.static": "static",
    "r.cast": "cast", "r.is": "is", "r.as": "as", "r.catch": "catch", "r.constraint": "constraint",
}  # fmt: skip


# Matches start at most this deep in the syntax tree. tree-sitter's cursor costs the square of
# the tree's depth: a 200 KB member chain (`a.a.a...`, 100,000 deep) took 100 s to query, in the
# indexer's own process where no time budget stops a scan. Declarations nest a few levels per
# namespace or type (at most MAX_NESTING of those) and one per enclosing `#if`: past MAX_IF_NESTING
# of those, declarations may lie deeper, and the record says so (`deep_ifs`).
MAX_START_DEPTH = 1000
MAX_IF_NESTING = 800  # leaves 200 levels for 64 nested types (two levels each) and a member
_PP_NEST = re.compile(rb"^[ \t]*#[ \t]*(if|endif)\b", re.MULTILINE)


def deep_ifs(data: bytes, status: str, note: str) -> tuple[str, str]:
    """(status, note) of a scan, "partial" with the reason when `#if` nests over MAX_IF_NESTING:
    the declarations below MAX_START_DEPTH were dropped without a word (a class in 1,000 `#if`)."""
    if data.count(b"#") <= MAX_IF_NESTING:  # too few directives: most files stop here
        return status, note
    depth = deepest = 0
    for m in _PP_NEST.finditer(data):
        depth = depth + 1 if m.group(1) == b"if" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    if deepest <= MAX_IF_NESTING:
        return status, note
    why = f"#if nested {deepest:,} deep, over {MAX_IF_NESTING}: declarations past the parser's depth limit are not read"
    return "partial", f"{note}; {why}" if note else why


@functools.cache
def engine() -> tuple[Any, Any, Any]:
    """Create the parser, the query and the cursor factory once per process (import is lazy).
    The factory makes a `QueryCursor` whose matches start at most MAX_START_DEPTH deep."""
    import tree_sitter as ts
    import tree_sitter_c_sharp as tscs

    def cursor(query: Any) -> Any:
        c = ts.QueryCursor(query)
        c.set_max_start_depth(MAX_START_DEPTH)
        return c

    lang = ts.Language(tscs.language())
    return ts.Parser(lang), ts.Query(lang, QUERY_SOURCE), cursor


def field_id(name: str) -> int:
    """The grammar's id of a field name, for `Node.child_by_field_id`."""
    import tree_sitter_c_sharp as tscs
    from tree_sitter import Language

    fid = Language(tscs.language()).field_id_for_name(name)
    assert fid is not None, name
    return fid


@functools.cache
def kind_ids() -> dict[str, frozenset[int]]:
    """Node type name -> every `Node.kind_id` with that name (named and anonymous alike, as
    `Node.type == name` compares): `kind_id` is an int the binding does not build a string for."""
    import tree_sitter_c_sharp as tscs
    from tree_sitter import Language

    lang = Language(tscs.language())
    out: dict[str, set[int]] = {"ERROR": {0xFFFF}}
    for i in range(lang.node_kind_count):
        name = lang.node_kind_for_id(i)
        if name is not None:
            out.setdefault(name, set()).add(i)
    return {name: frozenset(ids) for name, ids in out.items()}


@functools.cache
def error_query() -> Any:
    """Query for error regions, run only on trees that report errors."""
    import tree_sitter as ts
    import tree_sitter_c_sharp as tscs

    return ts.Query(ts.Language(tscs.language()), "(ERROR) @e (MISSING) @e")


def error_nodes(root: Any) -> list[Any]:
    """All ERROR and MISSING nodes (nested ones too: an ERROR inside a method body that sits
    inside a larger ERROR is a problem of its own), in file order."""
    _, _, cursor = engine()
    nodes = cursor(error_query()).captures(root).get("e", [])
    seen = {n.id for n in nodes}
    nodes += [n for n in _innermost_errors(root) if n.id not in seen]
    nodes.sort(key=lambda n: n.start_byte)
    return nodes


def _innermost_errors(root: Any) -> list[Any]:
    """The innermost nodes holding an error outside ERROR regions: a missing name (`private
    intnt;`) is an `identifier` holding a hidden MISSING token, which neither `(MISSING)` nor the
    node's children show, and the file was "0 syntax error regions", naming no line. An ERROR's
    own children are not walked (its region is counted; one may be 20,000 wide)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or not node.has_error:
            continue
        inner = [c for c in node.children if c.has_error]
        if inner:
            stack.extend(inner)
        else:
            found.append(node)
    return found


# The widest syntax error region a file may hold (the children of one ERROR node). tree-sitter's
# query cursor costs the square of a node's width: a 150 KB run of `{` (garbage saved as .cs) took
# 27 s, in the indexer's own process, which scans the files too small for a scanner process and
# gives them no time budget. Real broken files stay far below (the widest of 182 in seven
# projects' trees: 1,688 children).
MAX_ERROR_WIDTH = 20_000


class TooBroken(Exception):
    """A syntax error region wider than MAX_ERROR_WIDTH, or a parse past its CPU budget (`note`)."""

    def __init__(self, width: int, note: str = ""):
        super().__init__(width)
        self.width = width
        self.note = note or f"a syntax error region of over {MAX_ERROR_WIDTH:,} tokens ({width:,}): not indexed"


# tree-sitter's error recovery is quadratic on some garbage: `<!--` repeated (an HTML comment saved
# as .cs) took 40 s at 16 KB, in the indexer's own process, which gives small files no time budget.
# A legitimate file parses at about 1.5 MB/s (a 4.7 MB generated table in 3 s).
PARSE_CPU_SECONDS, PARSE_CPU_SECONDS_PER_MB = 2.0, 10.0


# `name <` is a generic's start or a comparison, and the parser keeps both readings open until a
# `;`, `{` or `}`: `<a ` repeated (HTML saved as .cs) took 1.3 GB at 12 KB, at the parse's end,
# where no progress is reported. Real code has a few between two of those.
MAX_OPEN_ANGLES = 500
# comments and literals (each matched to its end, or the line's or file's when unclosed: never
# tried again), then an end of a run, then a `name <`
_ANGLE_OR_END = re.compile(
    rb"//[^\n]*|/\*.*?(?:\*/|\Z)|@\"(?:[^\"]|\"\")*\"?|\"(?:[^\"\\\n]|\\.)*\"?|'(?:[^'\\\n]|\\.)*'?"
    rb"|([;{}])|(\w\s*<(?![<=/]))",
    re.S,
)


def _open_angles(data: bytes) -> int:
    """The most `name <` outside comments and literals between two of `;`, `{`, `}` (0 when the
    file holds few `<`): a doc comment's `<see cref=.../>` on each of 600 enum members is none."""
    most = run = 0
    for m in _ANGLE_OR_END.finditer(data) if data.count(b"<") > MAX_OPEN_ANGLES else ():
        if m.group(1) or m.group(2):
            run = 0 if m.group(1) else run + 1
            most = max(most, run)
    return most


def parsed(parser: Any, data: bytes) -> Any:
    """`parser.parse(data)` given at most its CPU budget (this thread's: a loaded machine does not
    spend it), else TooBroken; so is a file of more than MAX_OPEN_ANGLES `name <` in a run, which
    is not parsed. The parser is reset, as a cancelled parse would resume."""
    if (run := _open_angles(data)) > MAX_OPEN_ANGLES:
        why = "tree-sitter's memory grows with their square"
        raise TooBroken(0, f"{run:,} `<` after a name between two of `;`, `{{`, `}}` ({why}): not indexed")
    budget = max(PARSE_CPU_SECONDS, PARSE_CPU_SECONDS_PER_MB * len(data) / 1_000_000)
    stop, calls = time.thread_time() + budget, itertools.count()
    # The clock read at every 16th report: tree-sitter reports about every 150 bytes parsed, and a
    # read at each (a system call) cost 6% of the parse.
    over = lambda *_: next(calls) & 15 == 0 and time.thread_time() > stop  # noqa: E731
    try:
        return parser.parse(lambda at, _: data[at : at + 65536], progress_callback=over)
    except ValueError:  # "Parsing failed": the callback stopped it
        parser.reset()
        raise TooBroken(
            0, f"parsing took over {budget:.3g} s of CPU (tree-sitter's error recovery): not indexed"
        ) from None


def check_error_width(root: Any) -> None:
    """TooBroken when an ERROR node has more than MAX_ERROR_WIDTH children, checked before any
    query. Only the subtrees holding an error are entered, and a wide node's children are
    counted, never listed."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" and node.child_count > MAX_ERROR_WIDTH:
            raise TooBroken(node.child_count)
        stack.extend(c for c in node.children if c.has_error)

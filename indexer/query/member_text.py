"""Where code names a member, read as text: `refs Door.Open` lists the lines saying `Open` in the
files that can see the type. No C# semantic model here, so it is labelled a text match (kind
"text"), and a line that calls the member on another type written right there
(`GetComponent<Chest>().Open()`), on a variable the file declares of a class that is not the
type's (`Image m_Binding; ... m_Binding.color`, `receivers.py`), or on a member named as such a
class (`Context.TierState.Combo`), is left out.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import FileRecord, Usage
from indexer.query.assemblies import may_see_predefined
from indexer.query.call_shape import CallShape
from indexer.query.codeline import code_of, without_block_comments
from indexer.query.receivers import OtherReceivers
from indexer.query.type_tree import declarer_of, descendants_of
from indexer.unity import bare_type_name
from indexer.words import excerpt

if TYPE_CHECKING:
    from indexer.query.graph import Graph

# A call on the component or object a generic getter returns: the type is written on the line
_TYPED_GET = r"\b(?:GetComponent\w*|Find\w*Objects?\w*)\s*<\s*([\w.]+)\s*>\s*\(\s*\)"
_SELF = re.compile(r"(?<![\w.])(?:base|this)\s*\??\.$")  # `base.` or `this.` before a name
_BASE = re.compile(r"(?<![\w.])base\s*\.\s*$")
# `typeof(Projectile).Name`, `GetType().Name`: a member of System.Type, not of a project type
_OF_TYPE = re.compile(r"\b(?:typeof\s*\([^()]*\)|GetType\s*\(\s*\))\s*\??\.\s*$")
# `namespace Game.Enter`, `using Game.Enter;`, `using static X.Y;`, `using E = X.Y;`: names, no usages
# (a `using (var s = Open())` statement is code), a run of them leading a line that goes on with
# code (`namespace N { class C { void M() { d.Open(); } } }`); a preprocessor line (`#region Setup`)
_DIRECTIVE = re.compile(
    r"\s*(?:#.*|(?:(?:namespace\s+[\w.]+|using\s+(?:static\s+)?(?:\w+\s*=\s*)?[\w.]+(?:<[^;]*>)?\s*;)\s*)+)"
)


def member_text_usages(graph: Graph, family: set[str], member: str, below: set[str] | None = None) -> list[Usage]:
    """Code that names the member, in files that can see one of the types (`family`, qualified):
    their own files and files referencing them. `base.Member` calls the base class's member alone,
    never an override: in a type's own code it is a usage only for the types `below` the one
    asked for (its subclasses; all of `family` when not given)."""
    names = sorted({q.rsplit(".", 1)[-1] for q in family})
    files, declaring, own = _files_to_read(graph, family, names)
    holders = frozenset(names) | _implemented(graph, family, member)  # what a variable holding one is declared as
    pattern = re.compile(rf"\b{re.escape(member)}\b")
    typed = re.compile(_TYPED_GET + rf"\s*\??\.\s*{re.escape(member)}\b")
    out, initialized = [], {}  # initialized: a file -> its lines inside an object initializer of a type
    a_type = bool(graph.types_named(member))  # a class named as the member: where it is written, a type
    declared = [s for p in declaring for s in graph.records.symbols(p) if s.name == member and s.container in family]
    shape = CallShape(declared, lambda name: bool(graph.types_named(name)))
    for p in sorted(files):
        if (rec := graph.records.record(p)) is None or rec.kind != "csharp":
            continue
        # its own declarations; another class's same-named one (`int WavesCount => _waves.WavesCount;`)
        # is read as any other line, its own name there being no member access
        declared_lines = {s.line for s in rec.symbols if s.name == member and s.container in family}
        spans = sorted((s.line, s.end_line, s.qualified) for s in rec.symbols if s.is_type and s.end_line)
        shadowed = _shadowed_lines(rec, member, family, graph.file_lines(p)) if p in declaring else frozenset()
        lines = graph.file_lines(p)
        others = OtherReceivers(graph, holders, lines, rec)
        for line_no, (text, live) in enumerate(zip(lines, without_block_comments(lines), strict=True), 1):
            if member not in live:  # no usage: the line is not read as code (most of a file)
                continue
            code = _past_directives(code_of(live))
            if not (found := list(pattern.finditer(code))):
                continue
            found = found[1:] if line_no in declared_lines else found  # declared, then `{ base.Awake(); }`
            other = {m.end() for m in typed.finditer(code) if m.group(1).rpartition(".")[2] not in names}
            for single in list(found):  # a name at a time, to the first usage (a line is one), read
                lo = max(0, single.start() - NEAR)  # within NEAR characters of it: linear in the line
                near = code[lo : single.end() + NEAR]
                found = [m for m in [pattern.match(near, single.start() - lo)] if m is not None]
                if line_no in shadowed:  # a parameter of the member's name: only `this.Gun` is the member
                    found = [m for m in found if _SELF.search(near[: m.start()].rstrip())]
                inner = _innermost(spans, line_no) if p in declaring else None  # (a `using static` file: any)
                if p not in own or inner not in (None, *family):  # elsewhere a member is reached through an object
                    if p not in initialized:  # (read once a file, when a bare name is first met there)
                        initialized[p] = _initialized_lines(lines, names)
                    set_here = line_no in initialized[p]
                    found = [m for m in found if _accessed(near, m.start()) or (set_here and _assigned(near, m))]
                found = [
                    m
                    for m in found
                    if not others.holds(near[: m.start()], line_no) and not _OF_TYPE.search(near[: m.start()])
                ]
                if below is not None and inner is not None and inner not in below:  # its own `base.Open()`
                    found = [m for m in found if not _BASE.search(near[: m.start()])]
                # `new SaveGame()` is the class `SaveGame`, not the method; `Destroy(gameObject)` beside
                # `void Destroy()` is Object's; `player.Spell()` is no static `Spell`
                found = [
                    m for m in found if not (a_type and _type_use(near, m)) and not shape.rules_out(near, *m.span())
                ]
                if found and not other.issuperset(lo + m.end() for m in found):  # `GetComponent<Chest>().Open()`
                    out.append(Usage(p, line_no, "code", "text", "member", excerpt(text, member)))
                    break
    return out


def _files_to_read(graph: Graph, family: set[str], names: list[str]) -> tuple[set[str], set[str], set[str]]:
    """The files that may use the member, the types' own (declaring) files, and the files naming
    the member bare (`own`: the declaring files, `this` implied, and those `using static` them)."""
    files = {t.path for n in names for t in graph.types_named(n) if t.qualified in family}
    declaring = set(files)
    own = set(files)
    files |= _naming(graph, names)
    own |= _naming(graph, names, "AND r.context = 'using'")  # `using static`: named bare there too
    reaching = _reaching_files(graph, names) - files  # these reach it through an object only
    return _seeing(graph, files | reaching, declaring), declaring, own


def _past_directives(code: str) -> str:
    """A line of code with the directives it starts with blanked (same length: positions kept),
    the names there being no usages, the code after them read."""
    m = _DIRECTIVE.match(code)
    return code if m is None else " " * m.end() + code[m.end() :]


# Where a name is a type, not a member: a declaration's (`SaveGame save;`, `(SaveGame s)`), after
# `new`, `typeof(`, `is`/`as`, or a generic's argument (`List<SaveGame>`)
_DECLARES = re.compile(r"\??(?:\[[\s,]*\])?\s+[A-Za-z_]\w*\s*[;=,)]|\[\s*\]")
_TYPE_BEFORE = re.compile(r"(?:\bnew|\btypeof\s*\(|\bis|\bas|<|<[^<>;(){}]*,)\s*$")  # `<int, SaveGame`


def _type_use(code: str, m: re.Match[str]) -> bool:
    """The name at `m` written as a type (a class sharing the member's name), not the member."""
    before = code[: m.start()]
    if before.rstrip().endswith(".") and not before.rstrip().endswith("?."):
        return bool(_DECLARES.match(code, m.end()))  # `Data.SaveGame x;` a namespace's type
    return bool(_DECLARES.match(code, m.end()) or _TYPE_BEFORE.search(before))


def _shadowed_lines(rec: FileRecord, member: str, family: set[str], lines: list[str]) -> frozenset[int]:
    """The lines of the types' own methods taking a parameter named as the member (`void
    SetupGun(GunScriptableObject Gun)`), or below a local variable of its name (`float damage = 0;`
    in `getDamageByPlayer`, where `return damage;` read as a call of `IDamageable.damage`): there
    the bare name is the parameter or the local."""
    name = re.escape(member)
    param = re.compile(rf"[(,]\s*(?:(?:ref|out|in|params|this)\s+)?[\w.<>\[\], ?]+?\s+{name}\s*[,)=]")
    local = re.compile(
        rf"(?<![\w.])(?!{_NOT_TYPES}\b)(?:[A-Za-z_][\w.]*(?:<[\w.<>, ]*>)?(?:\[\])?\??)\s+{name}\s*(?:=(?!=)|;)"
    )
    out: set[int] = set()
    for s in rec.symbols:
        if s.kind not in ("method", "constructor") or s.container not in family or not s.end_line:
            continue
        if param.search(s.signature):
            out.update(range(s.line, s.end_line + 1))
            continue
        below = next(
            (n for n in range(s.line + 1, min(s.end_line, len(lines)) + 1) if local.search(code_of(lines[n - 1]))), 0
        )
        out.update(range(below, s.end_line + 1) if below else ())
    return frozenset(out)


_NOT_TYPES = "(?:return|new|throw|yield|await|case|else|in|out|ref|is|as|typeof|using|goto|const|static)"


NEAR = 2_000  # characters read either side of a name for what it is on: a line of 20,000 uses was
# read whole for each, `refs` 160 s for one 160 KB line
IMPLEMENTED_TYPES = 200  # types of the family's base chains read for the interfaces they implement


def _implemented(graph: Graph, family: set[str], member: str) -> frozenset[str]:
    """The simple names of the base classes and interfaces of the family's types, up their chains:
    a variable declared as one may hold the member's type (`IDamageable target; target.Health`),
    one declared as another interface cannot (`ITurretRepository _repository; _repository.Cost` is
    no usage of `TurretData.Cost`), nor one declared as a base class whose `member` the family does
    not override (`Unit unit; unit.Attack()` runs `Unit.Attack`, which `Enemy`'s `new` one hides)."""
    out: set[str] = set()
    todo, seen = sorted(family), set()
    while todo and len(seen) < IMPLEMENTED_TYPES:
        qualified = todo.pop()
        if qualified in seen:
            continue
        seen.add(qualified)
        for row in graph.types_named(qualified.rsplit(".", 1)[-1]):
            if row.qualified == qualified:
                for base in map(bare_type_name, row.bases):
                    out.add(base)
                    todo += [r.qualified for r in graph.types_named(base)]
    return frozenset(base for base in out if not _own_member(graph, base, family, member))


def _own_member(graph: Graph, name: str, family: set[str], member: str) -> bool:
    """Every project type named `name` declares or inherits `member` from a type outside `family`."""
    rows = graph.types_named(name)
    return bool(rows) and all(
        (declarer := declarer_of(graph, row.qualified, member)) is not None and declarer not in family for row in rows
    )


def _seeing(graph: Graph, files: set[str], declaring: set[str]) -> set[str]:
    """The files whose assembly may use the types declared in `declaring`: when those are all in
    Unity's predefined assemblies, a script of an asmdef's assembly cannot (nor firstpass the main
    one); an asmdef's references are not followed here."""
    homes = {graph.assembly_of(p) for p in declaring}
    if not homes or any(defined_by or not name for name, defined_by in homes):
        return files
    return {f for f in files if any(may_see_predefined(graph.assembly_of(f), name) for name, _ in homes)}


def _innermost(spans: list[tuple[int, int, str]], line: int) -> str | None:
    """The innermost type declared around a line (`spans`: start, end, qualified name, by start):
    a name said bare in a sibling nested class is that class's member, not the type's."""
    inside = [q for start, end, q in spans if start <= line <= end]
    return inside[-1] if inside else None


REACH_HOPS = 2  # fields followed from a file to the types: `MainMenuController.Instance.boxes.load.Show()`


def _reaching_files(graph: Graph, names: list[str]) -> set[str]:
    """Files that reach the types through other types' fields or properties without naming them:
    the subclasses of a class holding one (`character.Jump()` on the inherited `Character
    character`), and files naming the holder (`box.platform.Move()`), and so on once more up
    (REACH_HOPS: `MainMenuController.Instance.dialogBoxManager.dialogBoxLoadGame.ShowDialog()`
    names neither the dialog's type nor its holder's)."""
    out: set[str] = set()
    for _ in range(REACH_HOPS):
        holders = _holders(graph, names)
        if not holders:
            break
        family = descendants_of(graph, holders)
        out |= {t.path for t in graph.types if t.qualified in family}
        names = sorted({h.rsplit(".", 1)[-1] for h in family})
        out |= _naming(graph, names)
    return out


def _holders(graph: Graph, names: list[str]) -> set[str]:
    """The classes declaring a field or property of one of the types named `names`."""
    marks = ",".join("?" * len(names))
    sql = (
        "SELECT DISTINCT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.kind = 'type' AND r.key IN ({marks}) AND r.context IN ('field', 'property')"
    )
    holders: set[str] = set()
    for path, line in graph.records.conn.execute(sql, names):
        rec = graph.records.record(path)
        if rec is not None:
            holders.update(s.container for s in rec.symbols if s.line == line and s.kind in ("field", "property"))
    holders.discard("")
    return holders


def _naming(graph: Graph, names: list[str], where: str = "") -> set[str]:
    """The files whose type references name one of `names` (`where`: a further condition on them)."""
    marks = ",".join("?" * len(names))
    sql = "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = 'type'"
    return {p for (p,) in graph.records.conn.execute(f"{sql} AND r.key IN ({marks}) {where}", names)}


_NEW = re.compile(r"\bnew\s+([A-Za-z_][\w.]*)\s*(?:<[^;{}]*>)?\s*(?:\([^;{}]*\))?\s*\{")


def _initialized_lines(lines: list[str], names: list[str]) -> frozenset[int]:
    """The lines inside an object initializer of one of the types (`new PlayerCoreData { Hp = 1,
    Hungry = 2 }`, on one line or several), where a member is set by its bare name."""
    text = "\n".join(code_of(line) for line in lines)
    if "new" not in text:
        return frozenset()
    wanted = set(names)
    out: set[int] = set()
    for m in _NEW.finditer(text):
        if m.group(1).rpartition(".")[2] not in wanted:
            continue
        depth, end = 1, m.end()
        while depth and end < len(text):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        first = text.count("\n", 0, m.start()) + 1
        out.update(range(first, first + text.count("\n", m.start(), end) + 1))
    return frozenset(out)


def _assigned(code: str, m: re.Match[str]) -> bool:
    """The name at `m` is set as an initializer sets a member: `{ Hungry = 2`, `, Hungry = 2`."""
    before = code[: m.start()].rstrip()
    return (not before or before[-1] in "{,") and re.match(r"\s*=(?!=)", code[m.end() :]) is not None


def _accessed(code: str, start: int) -> bool:
    """The name at code[start:] is a member access (`x.Damage`, `x?.Damage`): not a type named
    alike (`Damage dt`, `<Damage>`, `new Damage()`), nor a call without an object (`Attack()`, in a
    class that is not one of the types, is its own method, or a local function), nor the file's
    own class's member (`base.Damage`, `this.Damage`: outside the types' files, that class is not
    one of them)."""
    before = code[:start].rstrip()
    return before.endswith(".") and _SELF.search(before) is None

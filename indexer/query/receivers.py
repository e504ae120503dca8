"""What the object before a member's name is, read from the file's text: `recv.member` on a variable
declared as another class is that class's member, not the type's (`member_text.py` leaves it out).

No C# semantic model here: a variable's type is read from its declarations in the file (the
nearest one in the member around the line, else a field's: a name `var` declares in one loop is
another method's parameter of a class in the next), an element of a list or dictionary
(`_spawners[type].TrySpawn()`) from the declared element type, and a class outside the project
from the names of .NET's collections and values and Unity's API (`SceneManager.LoadScene(...)`,
`Dictionary<Type, IState> _states; _states.Add(...)`: neither is a project class's `LoadScene`
or `Add`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

from indexer.model import FileRecord, TypeRow
from indexer.query.codeline import code_of
from indexer.query.type_tree import inherited_member_type, type_arguments
from indexer.unity import bare_type_name

if TYPE_CHECKING:
    from indexer.query.graph import Graph

_RECEIVER = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\??\.\s*$")  # `recv.` or `recv?.` before a name
_CHAINED = re.compile(r"\.\s*([A-Za-z_]\w*)\s*\??\.\s*$")  # `a.recv.` before a name: a member of `a`
_STATIC = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\s*\??\.\s*$")  # `UIManager.Instance.`
_INDEXED = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\[[^\[\]]*\]\s*\??\.\s*$")  # `recv[i].` before a name
# A lambda over a collection's items, its parameter `{}` (`team.ForEach(cb => …)`, `items.Where((i) =>`):
# group 1 the collection, a chain ending in a name or an empty call
_OVER_COLLECTION = (
    r"(?<![\w.])([A-Za-z_][\w.]*(?:\(\s*\))?)\s*\.\s*(?:ForEach|Find|FindAll|FindIndex|FindLast|Exists|TrueForAll"
    r"|RemoveAll|Where|Select|Any|All|First|FirstOrDefault|Last|LastOrDefault|Single|SingleOrDefault|Count"
    r"|OrderBy|OrderByDescending|Sum|Max|Min)\s*\(\s*\(?\s*{}\s*\)?\s*=>"
)
_DECLARING = frozenset({"class", "struct", "interface", "enum", "record", "namespace"})  # before a type's name
_NOT_A_TYPE = frozenset({"var", "return", "new", "in", "out", "ref", "using", "else", "case", "await", "yield"})
# A declaration of a name: its type (generic arguments, array ranks), then the name (a property's `{`)
_DECLARATION = r"\b([A-Za-z_][\w.]*)\s*(<[^;(){{}}=]*>)?\s*(\[[\s,]*\])?\??\s+{}\s*(?:[;=,){{]|\bin\b)"
# What a declaration never holds before its terminator: it starts after the last of them before the name
_SEPARATOR = re.compile(r"[;(){}=]")
# Collections whose element a `[i]` gives: the last generic argument (a dictionary's value)
_INDEXABLE = frozenset(
    """List IList IReadOnlyList Dictionary IDictionary IReadOnlyDictionary SortedDictionary SortedList
    ConcurrentDictionary ObservableCollection Collection ReadOnlyCollection NativeArray NativeList""".split()  # noqa: SIM905
)
# .NET types a project class is never held in (its members are theirs): collections, values, text
_DOTNET = frozenset(
    """List IList IReadOnlyList Dictionary IDictionary IReadOnlyDictionary SortedDictionary SortedList
    ConcurrentDictionary HashSet ISet Queue Stack LinkedList ObservableCollection StringBuilder string
    String int uint long ulong short ushort byte sbyte char bool float double decimal Int32 Int64 Single
    Double Boolean Math MathF Array Enum Convert Console File Path Directory DateTime TimeSpan Guid Task
    Thread Interlocked Environment GC Activator Regex Encoding BitConverter Buffer Random NativeArray
    NativeList UnityEvent UnityAction Action Func Predicate EventHandler Delegate IEnumerator Coroutine
    CancellationTokenSource""".split()  # noqa: SIM905
)


@cache
def foreign_types() -> frozenset[str]:
    """The classes outside the project a variable or a static call can name (`_DOTNET`, Unity's
    built-in classes and scripting API), less `object`, whose `ToString` a project class overrides."""
    from indexer.query.builtin_refs import SCRIPTING_CLASSES
    from indexer.unity_classes import CLASS_NAMES

    return (_DOTNET | SCRIPTING_CLASSES | frozenset(CLASS_NAMES.values())) - {"Object", "object"}


# A call returning what its one type argument names, a variable's type when `var` declares it:
# Unity's component getters, its finders and loaders, and a container's `Resolve<T>()`, `Get<T>()`.
_GENERIC_GETTER = (
    r"(?:[\w.\[\]()]*\.)?(?:GetComponent\w*|AddComponent|GetOrAddComponent|Find\w*Object\w*|Instantiate"
    r"|Load\w*|Resolve|Get)\s*<\s*([A-Za-z_][\w.]*)\s*>\s*\("
)


def _chain(before: str) -> list[tuple[str, str]] | None:
    """The receiver chain that ends `before` (`a.b[i].c(x).` before a member's name) as its steps,
    each a name and '' or '()' (a call) or '[]' (an index), first to last; None when the receiver
    is no such chain (a cast, a generic call, a literal)."""
    code = before.rstrip()
    steps: list[tuple[str, str]] = []
    while code.endswith("."):
        code = code[: -2 if code.endswith("?.") else -1].rstrip()
        suffix = ""
        if code.endswith((")", "]")):
            start = _opening(code)
            if start is None:
                return None
            suffix, code = ("()" if code[-1] == ")" else "[]"), code[:start].rstrip()
        m = _LAST_NAME.search(code)
        if m is None:
            return None
        steps.append((m[1], suffix))
        code = code[: m.start()].rstrip()
    return steps[::-1] or None


_LAST_NAME = re.compile(r"(?<!\w)([A-Za-z_]\w*)$")


def _opening(code: str) -> int | None:
    """Where the bracket closing `code` opens."""
    close = code[-1]
    opening, depth = "(" if close == ")" else "[", 0
    for i in range(len(code) - 1, -1, -1):
        depth += (code[i] == close) - (code[i] == opening)
        if depth == 0:
            return i
    return None


def _element(written: str, looped: bool = False) -> str:
    """What `[i]` gives of a value declared as `written`: an array's element, a list's, a dictionary's
    value; with `looped`, what `foreach` gives: an array's or a one-argument generic's element."""
    if written.endswith("]"):
        return written[: written.rfind("[")].strip()
    arguments = type_arguments(written)  # `Dictionary<string, List<Enemy>>`: `List<Enemy>` last
    if looped:
        return arguments[0] if len(arguments) == 1 and "<" not in arguments[0] else ""
    if arguments and bare_type_name(written.partition("<")[0]) in _INDEXABLE:
        return arguments[-1]
    return ""


def _declaration_matches(text: str, name: str, separators: list[int]) -> Iterator[re.Match[str]]:
    """`_DECLARATION`'s matches for `name`, as a scan of all of `text` finds them, from a scan of
    the statements holding the name alone (`separators`: the offsets of `_SEPARATOR` in `text`,
    which no declaration holds before its terminator). A scan of a 100 KB file took 13 ms a name:
    a `refs` of a member called there a hundred times took 2 s (Pal3's `Execute`, SS3D's `Add`)."""
    pattern = re.compile(_DECLARATION.format(re.escape(name)))
    scanned, at = -1, text.find(name)
    while at >= 0:
        i = bisect.bisect_left(separators, at)
        start = separators[i - 1] + 1 if i else 0
        if start > scanned:  # the statement's first name: each scanned once
            scanned = start
            yield from pattern.finditer(text, start, separators[i] + 1 if i < len(separators) else len(text))
        at = text.find(name, at + 1)


class OtherReceivers:
    """The receivers in a file that hold another class than the member's types: a variable (field,
    parameter, local) declared only as other classes (`Image m_TrackBinding;` then
    `m_TrackBinding.color`), an element of a collection of them, a class's name itself
    (`Other.Instance`, `SceneManager.LoadScene`: static members), or a member named as such a class.
    A variable declared as the type, with `var`, as a base or interface of the type (`names`), or a
    name the file does not declare and no known class has, may hold it."""

    def __init__(self, graph: Graph, names: frozenset[str], lines: list[str], rec: FileRecord) -> None:
        self.graph, self.names, self.lines, self.rec = graph, names, lines, rec
        self.text: str | None = None
        self.starts: list[int] = []  # offset of each line in `text`
        self.separators: list[int] = []  # offset of each `_SEPARATOR` in `text`
        self.known: dict[tuple[str, int], bool] = {}
        # the members' spans (start, end): a local is declared in the one around its use
        self.spans = sorted((s.line, s.end_line) for s in rec.symbols if not s.is_type and s.end_line > s.line)

    def holds(self, before: str, line: int) -> bool:
        """Whether the code before a member's name, on `line`, ends with a receiver of another
        class: a variable or an element of a collection, or a member named as a project class that
        is not one of the types, as C# names a property by its type (`Context.TierState.Combo` is
        `TierState`'s `Combo`)."""
        steps = _chain(before)
        if steps is not None and (len(steps) > 1 or steps[0][1]):  # more than a variable: read step by step
            found = self._chain_types(steps, line)
            if found is not None and (found & self.names or self._others(found, foreign=True)):
                return not found & self.names  # else a class the index does not know: read as before
        m = _RECEIVER.search(before)
        if m is None:
            if (indexed := _INDEXED.search(before)) is not None:  # `_spawners[type].TrySpawn()`
                return self._others(self._declared_as(indexed[1], line, element=True), foreign=True)
            chained = _CHAINED.search(before)
            if chained is None:
                return False
            name = chained.group(1)
            if (static := _STATIC.search(before)) is not None and self.graph.types_named(static[1]):
                return self._others(self._member_types(static[1], name))  # `UIManager.Instance.GameOver()`
            if static is not None and (held := self._held_as(static[1], name, line)):
                return self._others(held)  # `_game.StateMachine.Enter()`: `Game _game` holds a GameStateMachine
            return self._another_class_named(name) or self._held_by_named_types(name)
        key = (m.group(1), self._scope(line))
        if key not in self.known:
            self.known[key] = self._of_another_class(m.group(1), line)
        return self.known[key]

    def _chain_types(self, steps: list[tuple[str, str]], line: int, looped: bool = False) -> set[str] | None:
        """The types a receiver chain gives (`GameController.gameSettings.players[i]`, `Player.Get(d)`),
        by simple name: its first step a variable, a class or a method of this file, each next one a
        project class's field, property or method, as declared; None where a step is not known.
        `looped`: the last step's `[]` is what `foreach` gives (`_element`)."""
        name, suffix = steps[0]
        own = self.graph.records.types_in(self.rec.path)
        last = looped and len(steps) == 1
        if suffix.startswith("()"):
            types = {t for row in own for t in self._member_of(row, name, suffix, last)}
        elif name == "this":
            types = {row.name for row in own}
        else:
            types = self._declared_as(name, line, element=suffix == "[]", looped=last)
            if not types and suffix == "[]":  # `var team = GetTeam();` then `team[0]`, `foreach (var m in team)`
                types = self._var_elements(name, line, last) or set()
            if not types and not suffix and (self.graph.types_named(name) or name in foreign_types()):
                types = {name}  # a class's static member
        if not types or types & _NOT_A_TYPE:
            return None
        for name, suffix in steps[1:]:
            rows = [row for t in types for row in self.graph.types_named(t)]
            found = [self._member_of(row, name, suffix, looped) for row in rows]
            if not rows or not all(found):
                return None
            types = set().union(*found)
        return types

    def _member_of(self, row: TypeRow, name: str, suffix: str, looped: bool = False) -> set[str]:
        """The types of `row`'s member `name` as a step gives it: a method's return type after `()`,
        the element after `[]`, else a field's or property's type, its own or inherited."""
        rec = self.graph.records.record(row.path)
        kinds = ("method",) if suffix.startswith("()") else ("field", "property")
        written = {
            s.type
            for s in (rec.symbols if rec is not None else ())
            if s.name == name and s.container == row.qualified and s.kind in kinds and s.type
        }
        if not written and (inherited := inherited_member_type(self.graph, row.path, name, kinds)):
            written = {inherited}  # a generic base's, as the chain gives it (`Singleton<T>.Instance()`)
        if suffix.endswith("[]"):  # an element (`()[]`: of what a method returns)
            written = {e for w in written if (e := _element(w, looped))}
        return {bare_type_name(w) for w in written}

    def _scope(self, line: int) -> int:
        """The first line of the innermost member around `line` (0: none, the class body)."""
        around = [start for start, end in self.spans if start <= line <= end]
        return max(around, default=0)

    def _declarations(self, name: str, element: bool, looped: bool = False) -> list[tuple[int, str]]:
        """(line, type) of each declaration of `name` in the file: the simple name of its type, or
        with `element` of what `name[i]` gives (`_element`; with `looped`, what `foreach` gives)."""
        if self.text is None:
            self.text = "\n".join(code_of(line) for line in self.lines)
            self.starts = [0]
            for line in self.lines[:-1]:
                self.starts.append(self.starts[-1] + len(code_of(line)) + 1)
            self.separators = [m.start() for m in _SEPARATOR.finditer(self.text)]
        out = []
        for m in _declaration_matches(self.text, name, self.separators):
            if m.group(1) in _DECLARING or (m.group(1) in _NOT_A_TYPE and (element or m.group(1) != "var")):
                continue  # `class Spells {`, `return spells;`, `foreach (var a in items)`: no declaration of it
            written = "".join(part or "" for part in m.group(1, 2, 3))
            outer = bare_type_name(_element(written, looped) if element else m.group(1))
            out.append((bisect.bisect_right(self.starts, m.start()), outer))  # '': no element known
        return out

    def _declared_as(self, name: str, line: int, element: bool = False, looped: bool = False) -> set[str]:
        """The types the file declares a variable, field or parameter `name` as, by simple name:
        the nearest declaration above `line` in the member around it, else the fields' (outside
        every member), else every one."""
        found = self._declarations(name, element, looped)
        scope = self._scope(line)
        local = [(n, t) for n, t in found if scope and self._scope(n) == scope and n <= line]
        types = {max(local)[1]} if local else {t for n, t in found if not self._scope(n)} or {t for _, t in found}
        return set() if "" in types else types  # a declaration whose element is not known: nothing known

    def _held_as(self, variable: str, member: str, line: int) -> set[str]:
        """The types `variable.member` is declared as, when the file declares the variable as
        project types only (`Game _game;`) that declare the member (`GameStateMachine StateMachine`)."""
        owners = self._declared_as(variable, line) - _NOT_A_TYPE
        if not owners or not all(self.graph.types_named(t) for t in owners):
            return set()
        held = [self._member_types(t, member) for t in owners]
        return set().union(*held) if all(held) else set()

    def _of_another_class(self, name: str, line: int) -> bool:
        types = self._declared_as(name, line)
        if "var" in types and (given := self._var_types(name, line)):
            types = (types - {"var"}) | given
        if not types and (inherited := inherited_member_type(self.graph, self.rec.path, name)):
            types = {bare_type_name(inherited)}  # `Current` of a generic base, as this file's base gives it
        if not types:
            types = self._lambda_types(name, line)
        if not types:  # no variable: a class of that name is what it is (`Other.Instance`, `SceneManager`)
            return self._another_class_named(name) or (name in foreign_types() and not self.graph.types_named(name))
        return self._others(types, foreign=True)

    def _var_types(self, name: str, line: int) -> set[str]:
        """The types every `var name` of the file gives it: `var trigger = new Trigger();`, `var pool =
        GetComponent<Poolable>()` (a getter returning its type argument), `foreach (var station in
        coreStations)` over a `List<CoreStation>` (an array, a one-argument generic: a dictionary's
        items are pairs); none when one of them is not known."""
        text, word = self.text or "", re.escape(name)
        created = re.findall(rf"\bvar\s+{word}\s*=\s*new\s+([A-Za-z_][\w.]*)", text)
        created += re.findall(rf"\bvar\s+{word}\s*=\s*{_GENERIC_GETTER}", text)  # `GetComponent<T>()`
        looped = re.findall(rf"\bforeach\s*\(\s*var\s+{word}\s+in\s+([\w.]+)\s*\)", text)
        if len(created) + len(looped) != len(re.findall(rf"\bvar\s+{word}\b", text)):
            return set()
        found = self._elements(looped, line, looped=True) if looped else set()
        return set() if found is None else {t.rpartition(".")[2] for t in created} | found

    def _var_elements(self, name: str, line: int, looped: bool) -> set[str] | None:
        """What `name[i]` (with `looped`, `foreach`) gives of a `var name` every declaration of which
        in the file is set to a chain (`var team = TurnController.Instance.GetActiveTeam();`: its
        `List<CharacterBase>`'s element); None when one is not known."""
        text, word = self.text or "", re.escape(name)
        chains = re.findall(rf"\bvar\s+{word}\s*=\s*([\w.]+(?:\(\s*\))?)\s*;", text)
        if not chains or len(chains) != len(re.findall(rf"\bvar\s+{word}\b", text)):
            return None
        return self._elements(chains, line, looped)

    def _elements(self, sources: list[str], line: int, looped: bool) -> set[str] | None:
        """The types an element of each chain in `sources` has (`team`, `Game.Instance.Team()`)."""
        types: set[str] = set()
        for source in sources:
            steps = _chain(source + ".")
            if steps is None or steps[-1][1] not in ("", "()"):
                return None
            found = self._chain_types([*steps[:-1], (steps[-1][0], steps[-1][1] + "[]")], line, looped=looped)
            if not found:
                return None
            types |= found
        return types

    def _lambda_types(self, name: str, line: int) -> set[str]:
        """The types a lambda's parameter `name` has in every lambda of the file over a collection
        (`team.ForEach(cb => cb.EndTurn())`: the team's element); none when one is not known."""
        sources = re.findall(_OVER_COLLECTION.format(re.escape(name)), self.text or "")
        return (self._elements(sources, line, looped=True) or set()) if sources else set()

    def _held_by_named_types(self, name: str) -> bool:
        """`SaveController.instance.playerData.doubleJump`: `playerData` is a field or property of
        the project types this file names, of classes other than the member's types only (it read
        as `Unlocks.doubleJump` on a line also naming `Unlocks`)."""
        keys = {r.target for r in self.rec.refs if r.kind == "type"}
        return self._others(
            {t for key in keys for row in self.graph.types_named(key) for t in self._declared(row, name)}
        )

    def _member_types(self, owner: str, member: str) -> set[str]:
        """The types the project class `owner` declares or inherits its member `member` as (a
        singleton's `Instance` of a generic base is the class itself)."""
        out: set[str] = set()
        for row in self.graph.types_named(owner):
            own = self._declared(row, member)
            out |= own
            if not own and (inherited := inherited_member_type(self.graph, row.path, member)):
                out.add(bare_type_name(inherited))
        return out

    def _declared(self, row: TypeRow, member: str) -> set[str]:
        """The types the type `row` declares a field or property `member` as, itself (not inherited)."""
        rec = self.graph.records.record(row.path)
        symbols = rec.symbols if rec is not None else ()
        kinds = ("field", "property")
        return {
            bare_type_name(s.type)
            for s in symbols
            if s.name == member and s.container == row.qualified and s.kind in kinds and s.type
        }

    def _others(self, types: set[str], foreign: bool = False) -> bool:
        """Known classes, none of them the member's types: the project's, and with `foreign` those
        outside it (`foreign_types`)."""
        if not types or types & _NOT_A_TYPE or types & self.names:
            return False
        outside = foreign_types() if foreign else frozenset()
        return all(self.graph.types_named(t) or t in outside for t in types)

    def _another_class_named(self, name: str) -> bool:
        return name not in self.names and bool(self.graph.types_named(name))

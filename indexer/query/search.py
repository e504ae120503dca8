"""Ranking files for a query: BM25 over identifier-aware fields with per-field boosts.

The query path imports tantivy, msgspec and sqlite3 only (no tree-sitter), and reads the
full-text index plus, for the hits shown, their outlines from the record store, so a cold
`unity-index query` stays fast.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property

import tantivy

from indexer.identifiers import (
    SETTING_VERBS,
    TASK_WORD_WEIGHT,
    TASK_WORDS,
    NameText,
    compounds,
    name_stems,
    query_terms,
    said_words,
    stem,
    weighted_terms,
)
from indexer.kinds import searchable_kinds
from indexer.model import HIERARCHY_KINDS, TYPE_KINDS, Candidate, Declared, Hit
from indexer.query import pinned, synonyms
from indexer.query.doubled import project_spellings
from indexer.query.livestats import LiveStats, index_token
from indexer.query.pinned import Kept, hits, kept, pin
from indexer.query.priors import KIND_WORDS
from indexer.query.textmatch import BODY_CHARS, occurrences
from indexer.query.texts import FileText
from indexer.store.header import IndexBroken, data_name, open_current, open_search, tantivy_failure
from indexer.store.reader import Records
from indexer.store.schema import FIELD_BOOSTS, IndexPaths, outline_decoder

KINDS = searchable_kinds()  # every document has one of these: LiveStats counts them


class Outline:
    """A file's stored outline, decoded, with the names it declares lower-cased and joined
    (`NameText`): a query finds the names holding its words with a few scans instead of one test
    per declaration. Kept per index generation (`ProjectIndex.remember`): popular files come back
    query after query. Its parts are tuples (of gc-free entries, of strings, of ints), which the
    garbage collector stops tracking at their first collection: kept lists would be traversed, each
    of their thousands of items touched, by every later collection (1-1.5 ms each in the first pass
    over the benchmark's queries on UnityCsReference)."""

    __slots__ = ("entries", "index", "names")

    def __init__(self, outline_json: bytes):
        self.entries = outline_decoder.decode(outline_json)
        self.names = tuple([short_name(d) for d in self.entries])
        self.index = NameText(self.names)


def short_name(d: Declared) -> str:
    """A declaration's own name: the last part of its qualified name (a GameObject's of its path; a
    style sheet rule's selectors whole, `.gun-icon .small`)."""
    if d.kind == "uss_rule":
        return d.qualified
    return d.qualified.rpartition("/" if d.kind in HIERARCHY_KINDS else ".")[2]


def outlines_of(project, paths: list[str]) -> dict[str, Outline]:
    """The decoded outlines of these files (kept per generation), those not kept read in one
    statement: one per file cost more than decoding them."""
    memo = project.memo
    blobs = project.records.outlines([p for p in paths if ("outline", p) not in memo])
    return {
        p: project.remember(("outline", p), lambda p=p: Outline(blobs.get(p) or project.records.outline(p)))
        for p in paths
    }


def annotate(
    c: Candidate,
    terms: list[str],
    outline: Outline,
    score: float | None = None,
    reason: str = "",
    source: Callable[[], FileText] | None = None,
    also: tuple[str, ...] = (),
    amount: bool = False,
) -> Hit:
    """A candidate named by its best-matching declaration (`outline`: of Records.outline;
    `source`: gives the file's text (query.texts), read only when the bodies of its members must
    decide;
    `also`: the query's synonyms, `amount`: the task asks an amount, see best_symbol)."""
    name, line, snippet = best_symbol(outline, terms, c.path, source, also, amount)
    return Hit(
        path=c.path,
        kind=c.kind,
        name=name,
        line=line,
        score=c.score if score is None else score,
        snippet=snippet,
        reason=reason,
    )


class Searcher:
    """A reader over the index: open once, query many times (the MCP server keeps one)."""

    def __init__(self, paths: IndexPaths):
        self.source = paths
        self.paths, self.index = self._open()
        self._kept = Kept()  # what its searchers learn, true until `reload` (query.pinned)

    def _open(self) -> tuple[IndexPaths, tantivy.Index]:
        try:
            return open_current(self.source, lambda view: (view, pin(open_search(view))))
        except ValueError as exc:  # damaged files (open_search checks them first)
            raise IndexBroken(self.source.root, f"full-text index: {exc}") from None

    @cached_property
    def _records(self) -> Records:
        return Records(self.paths)  # the generation the full-text index was opened from

    def reload(self) -> None:
        """See the last commit; after a rebuild, open the generation that replaced this one."""
        self._kept.clear()
        if self.source.data is None and data_name(self.source) != self.paths.data:
            self.paths, self.index = self._open()
            records = self.__dict__.pop("_records", None)
            if records is not None:
                records.close()
            return
        self.index.reload()

    def search(self, text: str, limit: int = 10, kind: str | None = None, path_prefix: str | None = None) -> list[Hit]:
        terms, found = self.candidates(text, limit, kind, path_prefix)
        return [annotate(c, terms, Outline(self._records.outline(c.path))) for c in found]

    def candidates(
        self, text: str, limit: int, kind: str | None = None, path_prefix: str | None = None
    ) -> tuple[list[str], list[Candidate]]:
        """BM25 matches, not yet named: naming costs an outline decode, done only for what is shown."""
        terms = query_terms(text)
        if not terms or limit <= 0:
            return terms, []
        with self._reading():
            searcher = self.index.searcher()
            live = LiveStats(searcher, self.index.schema, KINDS, self._kept.freqs)
            said = (said_words(text), synonyms.excess(text))
            query = self._query(
                _of_kind(weighted_terms(text), kind), said, kind, path_prefix, live, set(compounds(text))
            )
            return terms, hits(searcher, query, limit, self._kept.docs)

    def holding(self, words: list[str], limit: int, kind: str | None, path_prefix: str | None) -> list[Candidate]:
        """Files holding every one of these words (stemmed as the index stems them) in any field,
        best BM25 first: where a quoted phrase can be (an animation clip's name is in its names,
        not its body)."""
        schema = self.index.schema
        tokens = sorted({t for w in words if (t := index_token(w)) is not None})
        if not tokens or limit <= 0:
            return []
        Q, should = tantivy.Query, tantivy.Occur.Should
        must = [
            (tantivy.Occur.Must, Q.boolean_query([(should, Q.term_query(schema, f, t)) for f in FIELD_BOOSTS]))
            for t in tokens
        ]
        must += self._filters(kind, path_prefix)
        with self._reading():
            return hits(self.index.searcher(), tantivy.Query.boolean_query(must), limit, self._kept.docs)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """tantivy reports a damaged file as ValueError or a panic: as IndexBroken."""
        try:
            yield
        except BaseException as exc:
            if not tantivy_failure(exc):
                raise
            raise IndexBroken(self.paths.root, f"full-text index: {exc}") from None

    def _query(
        self,
        weighted: list[tuple[str, float]],
        said: tuple[list[str], tuple[str, ...]],
        kind: str | None,
        path_prefix: str | None,
        live: LiveStats,
        joined: set[str] | None = None,
    ) -> tantivy.Query:
        """One clause per term (weighted), across all fields with their boosts (scaled so deleted
        documents do not count, see livestats), and one per synonym group of a word the task says
        (`said`: not the parts of a name it quotes, whose code words it already knows, and the
        adjectives it says with "too", `synonyms.excess`); filters as musts."""
        fields = list(FIELD_BOOSTS)
        clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
        verbs = {t: synonyms.forms(t) for t in said[0]}  # a verb said searched in any of its forms
        for t in said[0]:  # a spelling the project never says, in the one it does
            verbs[t] += synonyms.spellings(t) if not live.doc_freq(t) else ()
            if t not in (joined or ()):  # a word said, not two joined ("players spawn")
                verbs[t] += project_spellings(t, live.doc_freq)  # "balloons" for `Baloon` (doubled.py)
        for term, weight in weighted:
            try:
                q = self._in_any_form(term, verbs.get(term, ()), fields, live)
            except ValueError:  # a term the tokenizer splits (a phrase) on position-less fields
                continue
            clauses.append((tantivy.Occur.Should, q if weight == 1.0 else tantivy.Query.boost_query(q, weight)))
        asked = {index_token(t) for t, _ in weighted} | {index_token(f) for fs in verbs.values() for f in fs}
        clauses += self._synonym_clauses(*said, asked, fields, live)
        query = tantivy.Query.boolean_query(clauses) if clauses else tantivy.Query.empty_query()
        must = [(tantivy.Occur.Must, query), *self._filters(kind, path_prefix)]
        return must[0][1] if len(must) == 1 else tantivy.Query.boolean_query(must)

    def _in_any_form(self, term: str, others: tuple[str, ...], fields: list[str], live: LiveStats) -> tantivy.Query:
        """The term's clause; a verb's the best of its forms the project says (`synonyms.forms`):
        "hidden" is `Hide` as "hides" is, one word, not a synonym weighed apart."""
        q = self._parsed(term, fields, live.boosts(term))
        subs = [self._parsed(f, fields, live.boosts(f)) for f in others if live.doc_freq(f)]
        return tantivy.Query.disjunction_max_query([q, *subs], 0.0) if subs else q

    def _parsed(self, term: str, fields: list[str], boosts: dict[str, float]) -> tantivy.Query:
        """`parse_query` of a term with these boosts, kept (a ValueError is raised each time)."""
        make = lambda: self.index.parse_query(term, fields, field_boosts=boosts)  # noqa: E731
        return kept(self._kept.parsed, (term, tuple(fields), tuple(boosts.items())), make, most=pinned.PARSED_MOST)

    def _filters(self, kind: str | None, path_prefix: str | None) -> list[tuple[tantivy.Occur, tantivy.Query]]:
        """The musts of `--kind` and `--path`."""
        schema, out = self.index.schema, []
        if kind:
            out.append((tantivy.Occur.Must, tantivy.Query.term_query(schema, "kind", kind)))
        if path_prefix:
            pattern = _regex_escape(path_prefix.strip("/")) + "(/.*)?"
            out.append((tantivy.Occur.Must, tantivy.Query.regex_query(schema, "path", pattern)))
        return out

    def _synonym_clauses(
        self, terms: list[str], too: tuple[str, ...], asked: set[str | None], fields: list[str], live: LiveStats
    ) -> list[tuple[tantivy.Occur, tantivy.Query]]:
        """One clause per synonym group of a term: the best of the group's other words (but those
        the query searches already, `asked`: index tokens), weighted by how much more of the
        project uses them than the term (its own word for the thing)."""
        out = []
        for term, words in synonyms.expansions(terms, too):
            subs, most = [], 0
            for word in words:
                n = 0 if index_token(word) in asked else live.doc_freq(word)
                if n == 0:
                    continue
                try:
                    subs.append(self._parsed(word, fields, live.boosts(word)))
                except ValueError:
                    continue
                most = max(most, n)
            if subs:
                weight = synonyms.SYNONYM_WEIGHT * most / (most + live.doc_freq(term))
                best = tantivy.Query.disjunction_max_query(subs, 0.0)
                out.append((tantivy.Occur.Should, tantivy.Query.boost_query(best, weight)))
        return out


def _regex_escape(s: str) -> str:
    return "".join("\\" + c if c in r"\.+*?()|[]{}^$#&-~" else c for c in s)


NAME_MATCH = 2  # a query word in a declaration's name counts as much as two in a member's body
# Members that hold a value rather than do something: a name matching the task's words names the
# data (`obstacleType`, `laneChangeSpeed`), while the task asks where something happens. The
# method whose body holds more of its words wins over them, and a method named as well wins a tie.
_DATA_KINDS = frozenset({"field", "property", "enum_member", "event"})


def best_symbol(
    decoded: Outline,
    terms: list[str],
    path: str,
    source: Callable[[], FileText] | None = None,
    also: tuple[str, ...] = (),
    amount: bool = False,
) -> tuple[str, int, str]:
    """The declaration in a file that best matches the query terms: (qualified name, line, snippet).
    A declaration scores by the query words in its name. When that names a type (or nothing) and
    `source` gives the file's text, a member also scores by the query words in its body: "where
    does the player take damage" names the method that applies the damage, not the class whose
    name says Player. `also` (the query's synonyms) names a declaration only when the query's
    own words name none: a file found through "stamina" for "energy" points at `Stamina`. A task
    asking an amount (`amount`: "how high does the character jump") is answered by a value: a data
    member wins a tie (`jumpForce`, not `WallJump`; `MoveRate`, not the nested class `MoveAxis`)."""
    outline = decoded.entries
    wanted = {stem(t) for t in terms}
    weak = frozenset(stem(t) for t in terms if t in TASK_WORDS or t in SETTING_VERBS)
    named = _with_owner(outline, _name_matches(decoded, wanted), wanted)
    if source is not None and named:
        named = _distinct_names(outline, named, source())
    valued = os.path.splitext(os.path.basename(path))[0] if amount else None  # the file's own type still first
    best = _best(outline, named, {}, weak, valued)
    if best is None or _names_nothing(outline[best], named[best], weak):
        body = _body_matches(outline, wanted, source()) if source is not None else {}
        if body:
            best = _best(outline, named, body, weak, valued)
        elif best is not None and named[best] <= weak:  # "set" alone, no body to read: names no member
            best = None
    if best is not None:
        d = outline[best]
        return named_as(d), d.line, d.signature
    if also:
        return best_symbol(decoded, list(also), path, source, amount=amount)
    for d in outline:  # no name matched: the file's first type
        if d.kind in TYPE_KINDS:
            return d.qualified, d.line, d.signature
    if path.endswith(".prefab"):  # the prefab's root object (a variant's: the instance of its base)
        root = next((d for d in outline if d.kind in HIERARCHY_KINDS and "/" not in d.qualified), None)
        if root is not None:
            return root.qualified, root.line, root.signature
    return os.path.basename(path), 1 if outline else 0, ""


def _names_nothing(d: Declared, stems: set[str], weak: frozenset[str]) -> bool:
    """Whether the best name match leaves the bodies to decide: a type or a data member (see
    `_DATA_KINDS`), or a member whose name holds only words asking for a change or where a value is
    set (`weak`): "where are the animator parameters set for wall grab" named `SetHorizontalMovement`,
    not `Update`, whose body sets `wallGrab`."""
    return d.kind in TYPE_KINDS or d.kind in _DATA_KINDS or stems <= weak


def named_as(d: Declared) -> str:
    """A declaration's name in a hit; a component's field by its script (`Player > script:<guid>.speed`,
    which the ranking's graph names): `BasicPlayer_Actions.speed` said not which of five components'."""
    if not d.owner:
        return d.qualified
    container, _, field = d.qualified.rpartition(".")
    return f"{container} > {d.owner}.{field}" if container else f"{d.owner}.{field}"


DOER_WORDS = 2  # query words a member's body must hold to be shown as what a file does for the task


def doer(decoded: Outline, wanted: set[str], read: FileText) -> str | None:
    """The name of the member that does what the task says: the method (not a type, not a data
    member) whose body holds the most of the query stems `wanted`, at least DOER_WORDS; the first
    of a tie. A pack shows it beside the members named by the task's words: `ReceiveHP`, whose
    body takes the damage, for "where does the player take damage and die"."""
    body = _body_matches(decoded.entries, wanted, read)
    best = max(
        (
            (len(words), -i)
            for i, words in body.items()
            if len(words) >= DOER_WORDS and decoded.entries[i].kind not in _DATA_KINDS
        ),
        default=None,
    )
    return short_name(decoded.entries[-best[1]]) if best else None


def _name_matches(outline: Outline, wanted: set[str]) -> dict[int, set[str]]:
    """outline index -> the query stems its declared name holds (NameText.may_hold passes over the
    names that cannot hold one without splitting and stemming them)."""
    names = outline.names
    maybe = outline.index.may_hold(wanted)
    tested = range(len(names)) if maybe is None else sorted(maybe)
    return {i: hit for i in tested if (hit := wanted.intersection(name_stems(names[i])))}


def _with_owner(outline: Sequence[Declared], named: dict[int, set[str]], wanted: set[str]) -> dict[int, set[str]]:
    """`named` with, for a member its own name matched, the query stems its type's name holds:
    "Health.Heal" or "GameManager.LoadStore" names the method, which says the type's words and its
    own, not the type, which says only the type's; for an object, those its parents' names hold
    (`Canvas/Buttons/Start` is the start button, not one more object saying "start")."""
    out = dict(named)
    for i, stems in named.items():
        d = outline[i]
        if d.kind in HIERARCHY_KINDS:
            owners = d.qualified.split("/")[:-1]
        elif d.kind not in TYPE_KINDS:
            owners = [d.qualified.rpartition(".")[0].rpartition(".")[2]]
        else:
            continue
        more = {s for owner in owners if owner for s in wanted.intersection(name_stems(owner))} - stems
        if more:
            out[i] = stems | more
    return out


def _distinct_names(outline: Sequence[Declared], named: dict[int, set[str]], read: FileText) -> dict[int, set[str]]:
    """`named` without the stems that are everywhere in the file (`textmatch.occurrences`) in a
    member's name: in `ServerCharacter.cs` "character" names `ServerSendCharacterInputRpc` no more
    than any other member; a type keeps them (the class is what the word names)."""
    common = {s for s, at in occurrences(read, sorted(set().union(*named.values()))).items() if at is None}
    if not common:
        return named
    out = {}
    for i, stems in named.items():
        kept = stems if outline[i].kind in TYPE_KINDS else stems - common
        if kept:
            out[i] = kept
    # a word everywhere that is all the task says still names its members: "hunger" in `Player.cs`
    # is `CheckHunger`, where the first member was shown, `CheckAge`
    return out if out or len(set().union(*named.values())) > len(common) else named


def _best(
    outline: Sequence[Declared],
    named: dict[int, set[str]],
    body: dict[int, set[str]],
    weak: frozenset[str] = frozenset(),
    valued: str | None = None,
) -> int | None:
    """The index of the best declaration: words in its name count double, words in its body once
    (a word its name already holds is not counted again: a field's line holds its name), a word
    asking for a change in a name (`weak`: "add" of "add a weapon the player picks up", which named
    `Player.AddScore`) TASK_WORD_WEIGHT of that, in a body as any (`inventory.Add(item)` is what
    "inventory add item" is about); a type wins a tie, then a member that does something
    (`_DATA_KINDS`); when the task asks an amount (`valued`: the file's name), the file's own type,
    then a field or property, then the rest (a nested type, a method, an event)."""
    best: tuple[float, int, int] | None = None  # (-score, type / member / data member, index)

    def count(stems: Iterable[str]) -> float:
        return sum(TASK_WORD_WEIGHT if s in weak else 1.0 for s in stems)

    for i in named.keys() | body.keys():
        names = named.get(i, frozenset())
        words = body.get(i, set())
        if words and names:
            words = {w for w in words if not any(w.startswith(n) or n.startswith(w) for n in names)}
        key = (-(NAME_MATCH * count(names) + len(words)), _tie_order(outline[i], valued), i)
        if best is None or key < best:
            best = key
    return best[2] if best is not None else None


# A declaration set to a number: `int Rows = 12`, `float jumpForce = 50f`.
SET_TO_NUMBER = re.compile(r"=\s*-?\d[\d.]*[fFdDmM]?\s*;?$")


def _tie_order(d: Declared, valued: str | None) -> int:
    """Which of equal matches wins: a type, a member that does something, a data member; when the
    task asks an amount (`valued`, the file's name), after the file's own type a field or property
    set to a number (`jumpForce = 50` over `WallJump` for "how high does the character jump")."""
    base = 0 if d.kind in TYPE_KINDS else 2 if d.kind in _DATA_KINDS else 1
    if valued is None:
        return base
    if d.kind in TYPE_KINDS and short_name(d) == valued:
        return 0
    return 1 if d.kind in ("field", "property") and SET_TO_NUMBER.search(d.signature) else 1 + base


def _leading_lines(starts: list[int], text: list[str]) -> list[int]:
    """Each declaration's first line with the comments and attributes right above it, which say
    what it is (`/// 最大饥饿值`, `[Header("Max hunger")]` above `MaxHungry`): read as the previous
    member's body, they named it."""
    out = []
    for k, line in enumerate(starts):
        floor = starts[k - 1] + 1 if k else 1
        while line > floor and line - 2 < len(text) and _is_preamble(text[line - 2].strip()):
            line -= 1
        out.append(line)
    return out


def _is_preamble(line: str) -> bool:
    return line.startswith(("//", "/*", "*")) or (line.startswith("[") and line.endswith("]"))


def _body_matches(outline: Sequence[Declared], wanted: set[str], read: FileText) -> dict[int, set[str]]:
    """outline index -> the query stems in the lines from a member's declaration to the next
    declaration (its body, near enough without end lines), in the text's first BODY_CHARS
    characters. Types own no body here. The cost is the occurrences of the query's stems, not the
    file's length: a stem that is everywhere in the file (`textmatch.occurrences`) is passed over."""
    members = sorted((d.line, i) for i, d in enumerate(outline) if d.line > 0)
    found: dict[int, set[str]] = {}
    at = occurrences(read, sorted(wanted))
    low = read.low_prefix(BODY_CHARS) if any(at.values()) else ""
    starts = [line for line, _ in members]
    if low:  # the first lines of the members, with what is above each (kept with the text: a pack asks again)
        key = ("leading", len(low), tuple(starts))
        lines = read.found.get(key) or read.found.setdefault(key, _leading_lines(starts, low.split("\n")))
    else:
        lines = starts
    for w, where in at.items():
        line, counted = 1, 0
        for pos in where or ():
            line += low.count("\n", counted, pos)
            counted = pos
            k = bisect.bisect_right(lines, line) - 1
            if k >= 0 and outline[members[k][1]].kind not in TYPE_KINDS:
                found.setdefault(members[k][1], set()).add(w)
    return found


def _of_kind(weighted: list[tuple[str, float]], kind: str | None) -> list[tuple[str, float]]:
    """A search of one kind hardly counts the words naming that kind ("which scene has the chest"
    with `--kind scene`): every file searched is one, and `Templates/Blank Scene.unity` matched."""
    if kind is None:
        return weighted
    return [(t, TASK_WORD_WEIGHT if kind in KIND_WORDS.get(t, ()) else w) for t, w in weighted]

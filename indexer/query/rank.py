"""The retriever: BM25 hits, priors from what each file is, then a walk of the reference graph.

A task touches more than the files whose words match it: from the best text matches (seeds) the
walk (walk.py) reaches the files they use and that use them, each saying why it is there; the
priors scale files by their role (priors.py). Deterministic: same index and query, same order.
"""

from __future__ import annotations

from indexer.identifiers import TASK_WORDS, name_stems, said_words, stem
from indexer.model import Hit, Ranked
from indexer.project import file_title, is_script
from indexer.query.asking import asked_amounts, asks_change, asks_quantity, asks_value, said_asked
from indexer.query.bindings import reach_bound
from indexer.query.close_parts import lift_parts
from indexer.query.file_roles import named_kind, role_priors, role_terms, role_words, tests_of
from indexer.query.input_axes import raise_named_axes
from indexer.query.keys_pressed import raise_pressed_keys
from indexer.query.localizing import raise_string_tables
from indexer.query.named_files import (
    entries_said,
    fields_said,
    files_named,
    files_numbered,
    guid_files,
    named_files,
    says_every_word,
    scripts_quoted,
    title_words,
    titles_said,
    values_named,
)
from indexer.query.named_folders import raise_named_folders
from indexer.query.nested_keys import nested_key_hit
from indexer.query.ordinal_series import raise_counted_series
from indexer.query.pairing import pair
from indexer.query.pointing import POINTED_EDGES, field_words, pointed, pointed_by
from indexer.query.priors import (
    ART_WORDS,
    ASSET_WORDS,
    CODE_TASK_ASSET_KINDS,
    CODE_TASK_ASSET_PRIOR,
    KIND_WORDS,
    PRIOR_CEILING,
    TEST_WORDS,
    asks_code,
    asks_for,
    named_kinds,
)
from indexer.query.quotes import quoted_files
from indexer.query.search import SET_TO_NUMBER, Outline, annotate, named_as, outlines_of
from indexer.query.setting_fields import names_setting
from indexer.query.siblings import siblings_below
from indexer.query.startup import asks_startup, raise_startup
from indexer.query.synonyms import excess, synonym_words
from indexer.query.textmatch import near_words_of
from indexer.query.values import raise_held, said_numbers
from indexer.query.vendored import is_vendored, vendored_folders
from indexer.query.walk import edge_said, named_chain, reason, walk
from indexer.store.schema import LISTING_KINDS, is_searchable
from indexer.unity import as_guid

__all__ = ["is_vendored", "rank", "vendored_folders"]

CANDIDATES = 150  # BM25 hits considered
SEEDS = 8  # top hits the walk starts from
LENGTH_EXPONENT = 0.2
LENGTH_CLAMP = (0.7, 1.6)
# Text files gain nothing by their length: a long one is a table or a manual (a localization CSV
# holds every word of the game), not the central class real changes touch.
TEXT_LENGTH_CEILING, TEXT_KINDS = 1.0, frozenset({"text"})
TEST_CAP = True  # tests rank below the code they exercise (see _tests_below_tested_code)
BELOW_TESTED = 0.99
BODY_HITS = 3  # the best hits whose snippet may be a member found by its body (a file read each)
ASSET_INTENT_GAIN = 2.0  # carrier edges count this much more when the task asks for assets
# A code task's 8 best scripts score up to NEAR_GAIN more by how many of its words they hold near
# each other (textmatch.near_words): 1 + NEAR_GAIN * (near - 1) / (words - 1).
NEAR_FILES = 8
NEAR_GAIN = 0.5
QUOTE_GAIN = 1.0  # a file holding a text the task quotes gains this times the best match's score
NAMED_FILE_LEAD = 1.05  # a task that is a file's name alone ranks that file this far above the best match
QUOTED_SCRIPT_SHARE = 0.9  # a script named like an identifier the task quotes, of the best score (scripts_quoted)
TITLE_SAID_LEAD = 1.01  # a file of the kind the task names, whose name it says word for word (titles_said)
# ... and a data asset so when the task asks where a value is set ("the Eye Lasers button": `EyeLasers.asset`)
VALUE_TITLED = frozenset({"asset", "json"})  # ... or a JSON data file (`EnemyScheme/bat.json`)
NUMBERED_SHARE = 0.9  # a file the task names by a word and a number, of the best score (files_numbered)
LISTS_SHOWN = 3  # files named in a data asset's "lists ..." reason
# A task asking where something is set: a small data asset (a ScriptableObject, a physics material)
# with a field the task names (`bounciness`, `defaultVolume` for "loudness") holds the setting
# itself; it scores SETTING_GAIN times its text match. Not a timeline or settings file of hundreds
# of fields, where some field matches most tasks (docs/retrieval.md, session 17).
SETTING_GAIN, SETTING_KINDS, SETTING_ENTRIES = 2.0, frozenset({"asset", "unity_yaml"}), 30


def rank(
    project, text: str, limit: int, kind: str | None = None, path_prefix: str | None = None, named: bool = True
) -> list[Hit]:
    """Files for `text` in one project (a workspace.ProjectIndex), best first, with reasons.
    `named=False` leaves each hit's best declaration out (name, line, snippet): a caller that
    renders whole files does not need it, and finding it costs a decode per file. A file holding a
    value the task says is still named by that field, at its line (`values.py`)."""
    if kind is not None and not is_searchable(kind):  # an image, a sound: by its name alone
        return named_files(project.records, text, limit, kind, path_prefix)
    if (guid := as_guid(text)) is not None:  # a GUID asked alone: its file and those naming it
        return guid_files(project, guid, limit, kind, path_prefix)
    terms, found = project.searcher.candidates(text, max(CANDIDATES, limit), kind=kind, path_prefix=path_prefix)
    if not found and kind is None and not asks_startup(text):  # "on startup" matching no word has its scene
        return []  # (and a search of one kind walks from the matches of other kinds)
    stats = project.stats_of(c.path for c in found)
    said = said_asked(said_words(text), text)  # what the task asks for; not the parts of a name it quotes
    kinds = {c.path: c.kind for c in found}
    roles, rterms = role_words(said, text, kinds), role_terms(terms, text)  # a fault told, not a name's
    priors = role_priors(project, kinds, rterms, roles)
    ranked = _text_ranked(found, stats, priors)
    raise_named_folders(project, ranked, text)  # `NetworkSceneManager` quoted: the files of `NetworkSceneManager/`
    also = synonym_words(said, excess(text))  # what the words were searched with besides themselves
    asks_assets, values = asks_value(said, text), asks_change(said, text)  # a value asked; or more or less of it
    _raise_named(project, ranked, text, (terms, said, also), asks_assets, (kind, path_prefix))
    amounts = asked_amounts(text)  # what a quantity question asks the amount of
    _values_in_code(project, ranked, amounts, said)
    quoted = _quoted(project, text, ranked, priors, (kind, path_prefix, rterms, roles))
    seeds = sorted(ranked.values(), key=lambda r: (-r.score, r.path))[:SEEDS]
    seeds = seeds if kind is None else _seeds_of_any_kind(project, text, seeds, (rterms, roles), path_prefix)
    boosts = walk(project, seeds, kind, path_prefix, ASSET_INTENT_GAIN if asks_assets else 1.0)  # carriers gain
    wanted = named_kinds(roles) if kind is None else named_kinds(roles) & {kind}
    if wanted:
        named_chain(project, seeds, boosts, wanted, path_prefix)
    reach_bound(project, boosts)  # the class an empty wrapper on a prefab holds is what it runs
    for path, (gain, *_why) in boosts.items():
        if path in ranked:
            ranked[path].score += gain * priors.get(path, 1.0)
    stats, reached = _reached(project, ranked, boosts, _out_of_reach(project, ranked, boosts, limit))
    priors.update(role_priors(project, reached, rterms, roles))
    for path in reached:
        ranked[path] = Ranked(path, boosts[path][0] * priors.get(path, 1.0), [])
    held = raise_held(project, ranked, said_numbers(text), kinds | reached, said, also)
    if not wanted and not asks_for(said, ASSET_WORDS | ART_WORDS):
        _near_words(project, ranked, said)
    if TEST_CAP and not asks_for(terms, TEST_WORDS):
        _tests_below_tested_code(project, ranked)
    prior = lambda p: _prior(project, priors, p, rterms, roles)  # noqa: E731
    asked = (set(terms), frozenset(stem(t) for t in terms))  # the task's words, and their stems
    numbered = frozenset(files_numbered(project, text))  # "level 7": named by a word and a number
    pair(project, ranked, boosts, stats, prior, kind, path_prefix, asks_assets, asked[1], values, (text, numbered))
    if kind is None and not asks_for(said, ASSET_WORDS | ART_WORDS):  # "which asset ...": each of them
        siblings_below(project, ranked, kinds | reached, asked[1])
    titled = wanted | VALUE_TITLED if asks_assets and kind in (None, *VALUE_TITLED) else wanted
    _raise_files_named(project, ranked, (text, said), kinds | reached, titled)
    _raise_told(project, ranked, stats, (text, numbered), (kind, path_prefix))
    order = lift_parts(project, sorted(ranked.values(), key=lambda r: (-r.score, r.path)), priors, asked[1])[:limit]
    _explain(project, order, boosts, asked[1])
    outlines = outlines_of(project, [r.path for r in order]) if named else None
    words = (terms, also, amounts, asked, (asks_quantity(text), said if asks_assets or excess(text) else []))
    return _named_hits(project, order, words, (stats, outlines), (boosts, quoted, held))


def _raise_files_named(project, ranked: dict[str, Ranked], task: tuple, kinds: dict, wanted: frozenset) -> None:
    """The files the task (its text, the words it says) names lead: one named alone (`query Unit.prefab`),
    one of a kind it names (`wanted`) whose name's words it says in order (`titles_said`); data
    (VALUE_TITLED, added to `wanted` for a value asked) named by one word said (`values_named`), holding
    an entry it names (`entries_said`) or by its fields (`fields_said`); a script's identifier quoted."""
    text, said = task
    top = max((r.score for r in ranked.values()), default=0.0)
    for path in titles_said((p for p in ranked if named_kind(p, kinds.get(p, "")) in wanted), text):
        ranked[path].score = max(ranked[path].score, top * TITLE_SAID_LEAD)
    data = [p for p in ranked if named_kind(p, kinds.get(p, "")) in VALUE_TITLED]
    valued = values_named(project, data, text) if wanted & VALUE_TITLED else []
    for path in [*entries_said(project, data, text), *valued, *fields_said(project, ranked, said)]:
        ranked[path].score = max(ranked[path].score, top * TITLE_SAID_LEAD)
    for path in files_named(project.records, text):
        if path in ranked:
            ranked[path].score = max(ranked[path].score, top * NAMED_FILE_LEAD)
    for path in scripts_quoted(project, list(ranked), text):
        ranked[path].score = max(ranked[path].score, top * QUOTED_SCRIPT_SHARE)


def _raise_told(project, ranked: dict[str, Ranked], stats: dict, task: tuple, scope: tuple) -> None:
    """Files the task (text, files it numbers) tells of without naming them (`_raise_numbered`); the series member an
    ordinal counts to, the string tables a localizing task adds to (not in a search kept to a kind or a folder)."""
    _raise_numbered(project, ranked, stats, task[1], scope)
    if scope[0] is None and not scope[1]:
        raise_counted_series(project, ranked, stats, task[0], task[1])  # "the second stage": `Level2.asset`
        raise_string_tables(project, ranked, stats, task[0])


def _raise_numbered(project, ranked: dict[str, Ranked], stats: dict, numbered: frozenset[str], scope: tuple) -> None:
    """The files a task names by a word and a number ("level 7": `7.asset` of `LevelSO`,
    `Level_07.unity`, `named_files.files_numbered`) rank at NUMBERED_SHARE of the best, in the
    search's kind and folder (`scope`): just under it, as what the task names beside its fault."""
    kind, path_prefix = scope
    prefix = path_prefix.strip("/") + "/" if path_prefix else ""
    top = max((r.score for r in ranked.values()), default=0.0)
    for path in sorted(numbered):
        if path.startswith(prefix) and (path in ranked or kind is None):
            if path not in ranked:
                ranked[path] = Ranked(path, 0.0, [])
                stats.update(project.stats_of([path]))
            ranked[path].score = max(ranked[path].score, top * NUMBERED_SHARE)


def _named_hits(project, order: list[Ranked], words: tuple, read: tuple, walked_by: tuple) -> list[Hit]:
    """The hits shown, each named by its best declaration (`_hit`) and pointed (`pointed`) at what
    the walk reached it by, unless at the object the task names (`ThirdPersonCamera`) or at what a
    quantity question asks the amount of. `words`: the terms, their synonyms, the amounts asked
    (`asking.asked_amounts`), `asked` (`_named`), whether the task asks an amount (a data member
    names a file first, `search.best_symbol`) and its words when it asks a value (a carrier is
    pointed at its component's field they name, `pointing._at_carrier`); `read`: stats and outlines; `walked_by`: the
    walk's boosts and the files a quote or a value the task says raised."""
    terms, also, amounts, asked, (quantity, said) = words
    stats, outlines = read
    boosts, quoted, held = walked_by
    naming = [*terms, *(w for w in amounts if w not in terms)]  # "how fast": a prefab's `runSpeed`, not its root
    hits = [
        h
        for i, r in enumerate(order)
        if (h := _hit(project, r, (naming, also, quantity), stats, outlines, i < BODY_HITS))
    ]
    walked = {p: b[1:] for p, b in boosts.items() if b[1] in POINTED_EDGES and p not in quoted and p not in held}
    _fields_by_class(project, hits)
    amounted = {stem(w) for w in amounts}
    fields = field_words(naming, said) if said else (frozenset(), 1)
    stems = asked[1] | amounted
    by = {h.path: pointed_by(h, walked.get(h.path), _named(h, asked, amounted), stems) for h in hits}
    return [pointed(project, h, quoted, held, outlines, by[h.path], fields) for h in hits]


def _fields_by_class(project, hits: list[Hit]) -> None:
    """A component's field hit (`Player > script:<guid>.speed`, search.named_as) named by its
    script's class, as `refs` says it."""
    for h in hits:
        if "script:" in h.name:
            h.name = project.graph.readable(h.name)


def _text_ranked(found: list, stats: dict, priors: dict[str, float]) -> dict[str, Ranked]:
    """Each text match scored: its BM25 score by its length factor and its role's prior."""
    return {
        c.path: Ranked(c.path, c.score * _length(stats, c) * priors.get(c.path, 1.0), ["text match"], c) for c in found
    }


def _length(stats: dict, c) -> float:
    """A candidate's length factor: a longer file holds more of what a task may need."""
    size = stats[c.path].size if c.path in stats else 4000
    ceiling = TEXT_LENGTH_CEILING if c.kind in TEXT_KINDS else LENGTH_CLAMP[1]
    return min(max((size / 4000) ** LENGTH_EXPONENT, LENGTH_CLAMP[0]), ceiling)


def _seeds_of_any_kind(project, text: str, seeds: list[Ranked], words: tuple, path_prefix: str | None) -> list[Ranked]:
    """A search for one kind walks from the best matches of every kind: "which scene has the
    crystal chest" with `--kind scene` reaches the scene placing the chest's prefab, which a walk
    from scenes alone (those saying "scene" in their path) did not."""
    terms, said = words
    _, found = project.searcher.candidates(text, SEEDS, path_prefix=path_prefix)
    stats = project.stats_of(c.path for c in found)
    priors = role_priors(project, {c.path: c.kind for c in found}, terms, said)
    merged = {**_text_ranked(found, stats, priors), **{r.path: r for r in seeds}}
    return sorted(merged.values(), key=lambda r: (-r.score, r.path))[:SEEDS]


def _named(hit: Hit, asked: tuple[set[str], frozenset[str]], amounts: set[str] = frozenset()) -> bool:
    """The hit's name (its last step: an object, a member) is one the task says whole, or every
    word of a joined name is one it says (`scoreToWin` for "score to win": a scene's override of
    it was pointed at the instance carrying the script instead), or a word of it is what a
    quantity question asks the amount of (`amounts`: `runSpeed` for "how fast")."""
    terms, stems = asked  # the task's words, and their stems
    last = hit.name.rsplit("/", 1)[-1].rsplit(".", 1)[-1]
    if not amounts.isdisjoint(title_words(last)):
        return True
    joined = " " not in last and len(title_words(last)) >= 2  # an identifier, not an object's name of words
    return last.lower() in terms or (joined and says_every_word(last, stems))


def _reached(project, ranked: dict[str, Ranked], boosts: dict, far: set[str]) -> tuple[dict, dict[str, str]]:
    """The stats of every file that may be shown, and the kind of each the walk alone reached (not
    `far` from an answer, no `.meta`): a file raised without a word matched (the first scene of the
    build) has stats read too."""
    stats = project.stats_of(
        [*(p for p in boosts if p not in far), *(p for p, r in ranked.items() if r.candidate is None)]
    )
    reached = {
        p: stats[p].kind for p in boosts if p not in ranked and p not in far and p in stats and stats[p].kind != "meta"
    }
    return stats, reached


def _explain(project, order: list[Ranked], boosts: dict, stems: set[str]) -> None:
    """Why each file shown ranks (written for those only): what a data asset lists, and the edge
    the walk reached it by."""
    for r in order:
        if r.candidate is not None and r.candidate.kind in LISTING_KINDS:
            r.reasons.extend(_lists(project.graph, r.path, stems))
        if r.path in boosts:
            _gain, edge, source, chain = boosts[r.path]
            r.reasons.append(reason(edge_said(project.records, edge, source, r.path), source, chain))


def _raise_named(project, ranked: dict[str, Ranked], text: str, words: tuple, asks_assets: bool, scope: tuple) -> None:
    """What the task names that no text match ranks: a setting (when it asks for assets), an
    input axis, the first scene (when it asks what happens as the game starts; of the kind and
    in the folder the search is kept to, `scope`)."""
    terms, said, also = words
    if asks_assets:
        _settings_named(project, ranked, terms, also)
    raise_named_axes(project, ranked, terms, said, text)
    raise_pressed_keys(project, ranked, text)
    raise_startup(project, ranked, text, *scope)


def _settings_named(project, ranked: dict[str, Ranked], terms: list[str], also: tuple[str, ...]) -> None:
    """Raise the small data assets holding a field the task names, or one of its synonyms, their
    own or a [SerializeReference] object's (SETTING_GAIN, `setting_fields.names_setting`)."""
    paths = [path for path, r in ranked.items() if r.candidate is not None and r.candidate.kind in SETTING_KINDS]
    if not paths:
        return
    stems = {stem(t) for t in terms} | {stem(w) for w in also}
    for path, outline in outlines_of(project, paths).items():
        if len(outline.entries) <= SETTING_ENTRIES and names_setting(project, path, outline, stems):
            ranked[path].score *= SETTING_GAIN


VALUE_SCRIPTS = 30  # the best scripts looked into for a value the task asks for


def _values_in_code(project, ranked: dict[str, Ranked], asked: list[str], said: list[str]) -> None:
    """A question asking for a quantity ("how many rows and columns does the board have") is
    answered by the script setting it: one declaring with a number a field named by what the
    question asks the amount of, and otherwise by its words (`Rows = 12` of a constants class, a
    few lines; `moveSpeed = 3` for "how fast does the beetle move") scores SETTING_GAIN times its
    text match, as a data asset does (`_settings_named`), above the scripts saying "row" most often."""
    amounts = {stem(w) for w in asked}  # `asking.asked_amounts`
    if not amounts:
        return
    stems = amounts | {stem(w) for w in said}
    scripts = sorted(
        (r for r in ranked.values() if r.candidate is not None and is_script(r.path)), key=lambda r: (-r.score, r.path)
    )
    for path, outline in outlines_of(project, [r.path for r in scripts[:VALUE_SCRIPTS]]).items():
        if any(
            entry.kind == "field"
            and SET_TO_NUMBER.search(entry.signature)
            and says_every_word(name, stems)
            and not amounts.isdisjoint(title_words(name))
            for entry, name in zip(outline.entries, outline.names, strict=True)
        ):
            ranked[path].score *= SETTING_GAIN


def _out_of_reach(project, ranked: dict[str, Ranked], boosts: dict, limit: int) -> set[str]:
    """The files only the walk reached (`boosts`) that can change no answer, whose stats and roles
    are then not read (a seed using 260 files reaches them all, most with a small gain). Such a
    file scores at most its gain times PRIOR_CEILING. Below `_bar`, it is neither among the
    NEAR_FILES best (whose nearness is looked for) nor among the `limit` shown. A file a test may
    be tested against is kept (named as a test's subject, `tested_name`, of any script here):
    without it, the test's score would not be lowered below it."""
    floor = _bar(project, ranked, limit) / (PRIOR_CEILING * (1 + 1e-9))  # a margin for rounding
    weak = [path for path, why in boosts.items() if why[0] < floor and path not in ranked]
    if not weak:
        return set()
    # only a name holding "Test" names a subject (tested_name): the others are not split
    subjects = {tested_name(p) for p in (*ranked, *boosts) if "Test" in p and is_script(p)}
    if not subjects:
        return set(weak)
    return {p for p in weak if not (is_script(p) and p.rsplit("/", 1)[-1][:-3].lower() in subjects)}


def _bar(project, ranked: dict[str, Ranked], limit: int) -> float:
    """A score below both the NEAR_FILES-th best of the files `ranked` holds and the `limit`-th
    best of those that are no tests (0 when there are fewer): the ranking only raises a score from
    here (nearness), but a test's, which falls below the code it tests."""
    if limit < 1 or len(ranked) < max(NEAR_FILES, limit):
        return 0.0
    tests = set(tests_of(project, [p for p in ranked if is_script(p)]))
    every = sorted([r.score for r in ranked.values()], reverse=True)
    untested = sorted([r.score for p, r in ranked.items() if p not in tests], reverse=True)
    return min(every[NEAR_FILES - 1], untested[limit - 1]) if len(untested) >= limit else 0.0


def _quoted(project, text: str, ranked: dict[str, Ranked], priors: dict[str, float], asked: tuple) -> dict[str, str]:
    """A file holding a text the task quotes (quotes.py) gains the best match's score, times its
    prior (an inspector showing the quoted label is still editor code), and the walk starts from
    it. `asked`: the search's kind, path prefix, terms and role words. Gives path -> the phrase."""
    kind, path_prefix, terms, said = asked
    held = quoted_files(project, text, kind, path_prefix)
    new = {c.path: c.kind for c, *_ in held if c.path not in ranked}
    if new:
        priors.update(role_priors(project, new, terms, said))
    top = max((r.score for r in ranked.values()), default=0.0)
    code = asks_code(said)  # a label the game shows is in its scenes and prefabs, whatever else is asked
    for c, phrase, share in held:
        r = ranked.get(c.path)
        if r is None:
            r = ranked[c.path] = Ranked(c.path, 0.0, [], c)
        if not any(why.startswith("holds ") for why in r.reasons):
            lifted = code and c.kind in CODE_TASK_ASSET_KINDS
            r.score += QUOTE_GAIN * share * top * priors.get(c.path, 1.0) / (CODE_TASK_ASSET_PRIOR if lifted else 1.0)
            r.reasons.append(f'holds "{phrase}"')
    return {c.path: phrase for c, phrase, _ in reversed(held)}  # the first phrase a file holds


def _prior(project, priors: dict[str, float], path: str, terms: list[str], said: list[str]) -> float:
    """A file's role prior, worked out (role_priors) when the ranking has not met it yet."""
    if path not in priors:
        priors.update(role_priors(project, {path: project.stats_of([path])[path].kind}, terms, said))
    return priors.get(path, 1.0)


def _near_words(project, ranked: dict[str, Ranked], said: list[str]) -> None:
    """Raise the best scripts that hold the task's words near each other, where one member does
    what the task says. Assets are left out: a prefab's lines are serialized fields, not behaviour,
    and a task about assets or looks is answered by assets (measured: docs/retrieval.md)."""
    words = frozenset(stem(w) for w in said if w not in TASK_WORDS and not w.isdigit())
    if len(words) < 2:
        return
    for r in sorted(ranked.values(), key=lambda r: (-r.score, r.path))[:NEAR_FILES]:
        if is_script(r.path):
            near = near_words_of(project.texts.get(r.path), words)
            r.score *= 1 + NEAR_GAIN * max(0, near - 1) / (len(words) - 1)


def _tests_below_tested_code(project, ranked: dict[str, Ranked]) -> None:
    """A test never outranks the code it tests: `HealthTests.cs` (or `TestHealth.cs`) drops just
    below `Health.cs` when it uses it and both rank; otherwise it keeps its score. The pairing is
    the naming convention of test files, not the words of the task."""
    tests = set(tests_of(project, [p for p in ranked if is_script(p)]))
    for path in sorted(tests):
        subject = tested_name(path)
        tested = [
            ranked[p].score
            for p, _e in project.graph.uses(path)
            if p in ranked and p not in tests and p.rsplit("/", 1)[-1][:-3].lower() == subject
        ]
        if tested and ranked[path].score >= max(tested):
            ranked[path].score = max(tested) * BELOW_TESTED


def tested_name(path: str) -> str:
    """What a test file is named after: `HealthTests.cs`, `HealthTest.cs`, `TestHealth.cs` -> `health`."""
    name = file_title(path)
    for affix in ("Tests", "Test"):
        if name.endswith(affix) and len(name) > len(affix):
            return name[: -len(affix)].rstrip("_").lower()
        if name.startswith(affix) and len(name) > len(affix):
            return name[len(affix) :].lstrip("_").lower()
    return ""


def _lists(graph, path: str, wanted: set[str]) -> list[str]:
    """ "lists A.prefab, B.prefab and 3 more": the files a data asset references whose names hold
    a query word, which its text holds since build/listed.py (a GUID there, a name to the reader)."""
    named = [
        p.rsplit("/", 1)[-1]
        for p, _edge in graph.uses(path)
        if not is_script(p) and wanted.intersection(name_stems(file_title(p)))
    ]
    if not named:
        return []
    more = f" and {len(named) - LISTS_SHOWN} more" if len(named) > LISTS_SHOWN else ""
    return [f"lists {', '.join(named[:LISTS_SHOWN])}{more}"]


def _hit(project, r: Ranked, words: tuple, stats: dict, outlines: dict | None, bodies: bool) -> Hit | None:
    """`r` as a hit, named by its best declaration unless `outlines` (path -> Outline) is None
    (`named`: see rank). `words`: the terms naming it, their synonyms, whether the task asks an
    amount."""
    terms, also, quantity = words
    reason = "; ".join(r.reasons)
    score = round(r.score, 4)
    if outlines is None:
        file_kind = r.candidate.kind if r.candidate is not None else stats[r.path].kind
        return Hit(r.path, file_kind, "", 0, score, "", reason)
    if r.candidate is not None:
        # a C# file's text, to find the member whose body matches the task best
        source = (lambda: project.texts.get(r.path)) if bodies and is_script(r.path) else None
        # "which prefab has the enemy AI": every prefab is one, so "prefab" names none of its parts
        own = [t for t in terms if r.candidate.kind not in KIND_WORDS.get(t, ())]
        hit = annotate(r.candidate, own, outlines[r.path], score, reason, source=source, also=also, amount=quantity)
        return _nested(project, hit, outlines[r.path], own) if hit.kind == "asset" else hit
    kind = stats[r.path].kind
    return None if kind == "meta" else _walked_hit(r.path, kind, outlines[r.path], score, reason)


def _nested(project, hit: Hit, outline: Outline, terms: list[str]) -> Hit:
    """A data asset's hit no declared field names (its object's line, or `:1`, no snippet) at the
    key of a field's struct or list item holding the query's words (`nested_keys`)."""
    if hit.snippet:
        return hit
    found = nested_key_hit(outline.entries, named_as, {stem(t) for t in terms}, project.texts.get(hit.path))
    if found is None:
        return hit
    name, line, snippet = found
    return Hit(hit.path, hit.kind, name, line, hit.score, snippet, hit.reason)


def _walked_hit(path: str, kind: str, outline: Outline, score: float, reason: str) -> Hit:
    """A result for a file the walk reached (no words matched it): named by its first declaration."""
    if not outline.entries:
        return Hit(path, kind, path.rsplit("/", 1)[-1], 0, score, "", reason)
    first = outline.entries[0]
    return Hit(path, kind, first.qualified, first.line, score, first.signature, reason)

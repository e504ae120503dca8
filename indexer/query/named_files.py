"""Files no search document holds (images, sounds, models, fonts, native plugins), found by their
names when a search asks for that kind: `query footstep --kind audio` lists `EllenFootstep01.ogg`.

They are left out of the full-text index (store.schema.UNSEARCHED_KINDS): a project's thousands
of textures would crowd every answer by their names. Asked for by kind, they are what the user
wants, and their paths are all there is to match.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from indexer.identifiers import STOP_WORDS, TASK_WORDS, name_stems, query_terms, quoted_names, stem, word_stems
from indexer.kinds import KINDS
from indexer.model import Hit, Ranked
from indexer.project import file_title, is_script
from indexer.query.vendored import vendor_package
from indexer.shown import shows_reference

MAX_PATH = 1024  # a longer task names no file (and SQLite refuses so long a pattern)
NAME_WEIGHT, FOLDER_WEIGHT = 2.0, 1.0  # a word of the file's name, of a folder above it


def named_files(records, text: str, limit: int, kind: str, path_prefix: str | None) -> list[Hit]:
    """The files of `kind` whose names (then folders) hold the query's words, best first."""
    stems = {stem(t) for t in query_terms(text)}
    hits: list[Hit] = []
    for path in records.paths_of_kind(kind):
        if path_prefix and not path.startswith(path_prefix):
            continue
        folder, name = os.path.split(path)
        in_name = stems & word_stems(os.path.splitext(name)[0])
        in_folder = (stems & word_stems(folder)) - in_name
        if in_name or in_folder:
            score = NAME_WEIGHT * len(in_name) + FOLDER_WEIGHT * len(in_folder)
            words = ", ".join(sorted(in_name | in_folder))
            hits.append(Hit(path, kind, name, 0, score, "", f"name match: {words}"))
    hits.sort(key=lambda h: (-h.score, h.path))
    return hits[:limit]


def files_named(records, text: str) -> list[str]:
    """The files a task naming one file alone names (`Unit.prefab`, `Assets/Prefabs/Unit.prefab`),
    by path or by name in any case; none for a task of other words."""
    name = text.strip().strip("/")
    ext = os.path.splitext(name)[1].lower()
    if not ext or ext not in KINDS or "\n" in name or len(name) > MAX_PATH:
        return []
    written = like_escaped(name)
    sql = "SELECT path FROM files WHERE path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\' ORDER BY path"
    return [path for (path,) in records.conn.execute(sql, (written, "%/" + written))]


def scripts_quoted(project, paths: Iterable[str], text: str) -> list[str]:
    """The project's own scripts among `paths` named like an identifier the task quotes
    (`ProjectWideActionsExample`, `NetworkManagerTests`): a commit message names the class it
    changed, and a scene, a sample or a test file saying that name more often outranks its file.
    Not a package's (`Packages/<name>/`) nor third-party code: there the name is an API the game
    uses ("InputAction", "PlayerInput"), and the task is about the game's use of it."""
    names = quoted_names(text)
    if not names:
        return []
    return [
        p
        for p in paths
        if is_script(p)
        and file_title(p).lower() in names
        and not p.startswith("Packages/")
        and vendor_package(p, project.vendored) is None
    ]


def titles_said(paths: Iterable[str], text: str) -> list[str]:
    """The files whose name of two words or more the task says word for word, in its order ("the
    bacon health pickup": `BaconHealth.prefab`, not `Baconator Pickup.prefab`): it names that file
    as `Unit.prefab` would, in the words a developer speaks. So does a name the task says just
    before a word of the file's folder (`_before_folder`)."""
    spoken = re.findall(r"[a-z0-9]+", text.lower())
    said = " ".join(stem(w) for w in spoken)
    out = []
    for path in paths:
        words = name_stems(file_title(path))[1:]
        if (len(words) >= 2 and f" {' '.join(words)} " in f" {said} ") or _before_folder(path, spoken):
            out.append(path)
    return out


def words_named(paths: Iterable[str], text: str) -> list[str]:
    """The data file whose name is one word the task says ("how much does wasabi sell for":
    `Wasabi.asset`, not `WasabiCard.asset`): a thing's own data is named by the thing alone, its
    card, bonus and prefab by more words. None when the task says two such names ("the suicide
    enemy ... touches the player": `Enemy.asset`, `Player.asset`) or one file of `paths` has that
    name and another ("the test enemy's moves": `Test Enemy.asset`, `titles_said`), or names the
    thing and another word the task says ("how much damage does the shotgun deal": `Shotgun
    Damage Config.asset`, not `Shotgun.asset`); nor when two files have that name. A word of no
    meaning ("the", "update") names nothing. The caller asks it of a task asking a value."""
    paths = list(paths)
    spoken = {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP_WORDS and w not in TASK_WORDS}
    said = {stem(w) for w in spoken if len(w) > 2}
    named: dict[str, list[str]] = {}
    longer: set[str] = set()
    for path in paths:
        words = name_stems(file_title(path))
        if len(words) == 1 and _spoken(file_title(path).lower(), spoken):
            named.setdefault(words[0], []).append(path)
        elif len(set(words[1:]) & said) >= 2:
            longer.update(words[1:])
    if len(named) != 1 or titles_said(paths, text):
        return []
    ((word, found),) = named.items()
    return found if len(found) == 1 and word not in longer else []


def values_named(project, paths: Iterable[str], text: str) -> list[str]:
    """`words_named` of a data file holding a value of its own (a number, a text, a colour), not
    only references to other files: "where is the fire beam's color set" names `Fire.asset`, an
    element holding its icon alone, whose beam `Fire Element.asset` holds the colour (trials 20
    and 21, session 52)."""
    return [p for p in words_named(paths, text) if not p.endswith(".asset") or _holds_value(project, p)]


def _holds_value(project, path: str) -> bool:
    fields = (s.signature.partition(": ")[2] for s in project.records.symbols(path) if s.kind == "field")
    return any(value and not shows_reference(value) for value in fields)


def _spoken(name: str, spoken: set[str]) -> bool:
    """Whether the task says the name as it is spelled or in the plural ("how many chickens":
    `Chicken.asset`), not a word sharing its stem ("seed": `Seeded.asset`). A plural name is a
    list of things (`Levels.asset`, `Themes.asset`), no one thing's data ("boss" is no plural)."""
    if len(name) < 3 or (name.endswith("s") and not name.endswith("ss")):
        return False
    return any(w in spoken for w in (name, name + "s", name + "es"))


FOLDER_NAME_WORDS = 3  # a name said before its folder's word is at most this many of the task's words


def _before_folder(path: str, spoken: list[str]) -> bool:
    """Whether the task says the file's name, whole or as words joining into it, right before a
    word of its folder's name: "the bat enemy" names `EnemyScheme/bat.json`, "the thunder bolt card"
    `Cards/Thunderbolt.asset`. A folder of a class's instances is named by the class, and a
    developer names an instance by its own name and that class ("the Revitalize card"), where
    the name alone (one word, "bat") may be any word of the task."""
    folder, _, name = path.rpartition("/")
    spelled = re.sub(r"[^0-9a-z]+", "", os.path.splitext(name)[0].lower())
    kinds = set(name_stems(folder.rpartition("/")[2])[1:]) - {stem(spelled)}
    if len(spelled) < 3 or not kinds:
        return False
    for at, word in enumerate(spoken):
        if stem(word) in kinds and any(
            "".join(spoken[at - n : at]) == spelled for n in range(1, min(at, FOLDER_NAME_WORDS) + 1)
        ):
            return True
    return False


def entries_said(project, paths: Iterable[str], text: str) -> list[str]:
    """The data files holding an entry the task names by its name and the file's: "the Revitalize
    card" names `Cards.json`, whose list holds `"name": "Revitalize"`, and "the default blue
    character" `Main Character Blueprint.asset`, whose own `name: Blue` it is (a value of one to
    FOLDER_NAME_WORDS words, said right before a word of the file's name), as "the bat enemy"
    names `EnemyScheme/bat.json` (`_before_folder`)."""
    spoken = re.findall(r"[a-z0-9]+", text.lower())
    out = []
    for path in paths:
        own = set(name_stems(file_title(path))[1:] or name_stems(file_title(path)))
        names = {
            " ".join(spoken[at - n : at])
            for at, word in enumerate(spoken)
            if stem(word) in own
            for n in range(1, min(at, FOLDER_NAME_WORDS) + 1)
        }
        names = {n for n in names if _names_entry(n) and stem(n) not in own}
        if names and _holds_entry(project.texts.get(path).text, names, path.endswith(".json")):
            out.append(path)
    return out


def _names_entry(words: str) -> bool:
    """Whether words said before a file's name may be an entry's name: not a number, nor opening
    on a word of no meaning ("the card", "of the card")."""
    first = words.split(" ", 1)[0]
    return first not in STOP_WORDS and first not in TASK_WORDS and not first.isdigit() and len(words) > 2


def _holds_entry(text: str, names: set[str], is_json: bool) -> bool:
    """Whether `text` sets a name field to one of `names`: in JSON any object's (`"name":
    "Revitalize"`, `"cardName": "Aegis"`), in a Unity asset the object's own field (`  displayName:
    Poppy Seed`), not a list item's (Odin's serialized nodes read `    - Name: Gravity`, a field's
    name). Not an address (`"m_Address": "Archers"`) or another field naming what the entry uses."""
    said = "|".join("[ _-]?".join(map(re.escape, n.split())) for n in sorted(names))
    if is_json:
        return re.search(rf'"\w*(?:name|title)"\s*:\s*"(?:{said})"', text, re.IGNORECASE) is not None
    return re.search(rf"^  \w*(?:name|title): (?:{said})[ \t]*$", text, re.IGNORECASE | re.MULTILINE) is not None


# A word and the number it is said with: "level 7", "wave #3", "stage-02" (not "M4A1": a name's parts).
_NUMBERED = re.compile(r"\b([a-z]+)[ #_-]*(\d+)\b", re.IGNORECASE)
_NUMBERED_KINDS = (".asset", ".prefab", ".unity", ".json")
# An ordinal before a word numbers it as the word and the number do: "the second room of the first
# stage" is room 2 of stage 1.
_ORDINALS = (
    *("first", "second", "third", "fourth", "fifth", "sixth"),
    *("seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"),
)
_ORDINAL = re.compile(rf"\b({'|'.join(_ORDINALS)})\s+([a-z]+)\b", re.IGNORECASE)


def ordinal_words(text: str) -> list[tuple[str, int]]:
    """The (word, lower-cased, its position) each ordinal of the task counts: "the second room" ->
    ("room", 2) (`_said_numbered`, `ordinal_series.counted_words`)."""
    return [(w.lower(), _ORDINALS.index(o.lower()) + 1) for o, w in _ORDINAL.findall(text)]


def _said_numbered(text: str) -> set[tuple[str, int]]:
    """The (stem of a word, its number) the task says: "level 7", or "the second room"."""
    said = {(stem(w.lower()), int(n)) for w, n in _NUMBERED.findall(text)}
    return said | {(stem(w), n) for w, n in ordinal_words(text)}


def files_numbered(project, text: str) -> list[str]:
    """The data assets, prefabs and scenes a task names by a word and a number: "loading level 7
    sends me back to the menu" names `Level 7.unity` or `Level_07.asset`, whose names are that word
    and number, `7.asset`, a data asset named by the number alone whose class says the word
    (`LevelSO`), and `Levels/7.json`, a JSON file named by the number alone whose folder says it:
    the level's own file, as `Unit.prefab` names its file."""
    said = _said_numbered(text)
    if not said:
        return []
    by_number = numbered_files(project)
    return [
        p
        for number in sorted({n for _, n in said})
        for p in by_number.get(number, ())
        if _numbered(project.graph, p, number, said)
    ]


def numbered_files(project) -> dict[int, list[str]]:
    """`_numbered_files`, kept for the index's generation (`files_numbered`, `ordinal_series`)."""
    return project.remember(("numbered files",), lambda: _numbered_files(project.records), role=True)


def _numbered_files(records) -> dict[int, list[str]]:
    """The data assets, prefabs, scenes and JSON files whose name ends in a number, by that number,
    by path: one scan of every path for every number (5 ms at 58,000 files), kept for the generation
    (a scan a number had each new number said cost a first query that much)."""
    out: dict[int, list[str]] = {}
    for (path,) in records.conn.execute("SELECT path FROM files WHERE path GLOB '*[0-9].*' ORDER BY path"):
        if path.endswith(_NUMBERED_KINDS) and (m := _ENDING_NUMBER.search(file_title(path))):
            out.setdefault(int(m[1]), []).append(path)
    return out


_ENDING_NUMBER = re.compile(r"([0-9]+)$")
_NAME_PAIR = re.compile(r"([A-Za-z]+)[ #_-]*([0-9]+)[ _-]*")
# Two pairs or more, the whole name: tried first, in C (a number said meets hundreds of names).
_NAME_PAIRS = re.compile(r"(?:[A-Za-z]+[ #_-]*[0-9]+[ _-]*){2,}")


def _name_pairs(title: str) -> list[tuple[str, int]]:
    """A name made of words each followed by a number (`Level_07`, `Stage01Room02`) as (stem of the
    word, its number) pairs, in order; none for another name (`World1-2`, `Wave3_Boss`)."""
    pairs, at = [], 0
    for m in _NAME_PAIR.finditer(title):
        if m.start() != at:
            return []
        pairs.append((stem(m[1].lower()), int(m[2])))
        at = m.end()
    return pairs if at == len(title) else []


def _numbered(graph, path: str, number: int, said: set[tuple[str, int]]) -> bool:
    """Whether the file's name is a word and `number` said together (or words and numbers each said
    together, `Stage01Room02` for "room 2 of stage 1"), or the number alone of a data asset whose
    class's name holds a word said with it."""
    title = file_title(path)
    pairs = _name_pairs(title) if _NAME_PAIRS.fullmatch(title) else []
    if len(pairs) > 1:
        return pairs[-1][1] == number and all(pair in said for pair in pairs)
    words = name_stems(title)
    parts = words[1:] if len(words) > 1 else words
    if not parts[-1].isdigit() or int(parts[-1]) != number or len(parts) > 2:
        return False
    if len(parts) == 2:
        return (parts[0], number) in said
    if path.endswith(".json"):  # no class: its folder says what it numbers (`Levels/7.json`)
        return any((w, number) in said for w in name_stems(path.rpartition("/")[0].rpartition("/")[2]))
    classes = (name_stems(file_title(p)) for p, edge in graph.uses(path) if edge == "script")
    return path.endswith(".asset") and any((w, number) in said for names in classes for w in names)


def like_escaped(text: str) -> str:
    """`text` as a SQL LIKE pattern matching it alone (`ESCAPE '\\'`): `_` and `%` are names' too."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def guid_files(project, guid: str, limit: int, kind: str | None, path_prefix: str | None) -> list[Hit]:
    """A task that is a GUID alone (`2ec392eda0786f649a77c41913f25ea0`, `guid:2ec3…`): the file it
    names, then the files referencing it at their first line naming it (its text split into words
    matched files holding none of it)."""
    graph = project.graph
    own = graph.path_of_guid(guid)
    found = [(own, 0, f"the file of GUID {guid}")] if own else []
    usages = sorted(graph.guid_usages(guid), key=lambda u: (u.path, u.line))  # each file's first line first
    found += [(u.path, u.line, f"references GUID {guid} ({u.context})") for u in usages]
    kinds, hits, seen = project.records.kinds(), [], set()
    for path, line, why in found:
        if path in seen or (path_prefix and not path.startswith(path_prefix)) or kind not in (None, kinds.get(path)):
            continue
        seen.add(path)
        hits.append(
            Hit(path, kinds.get(path, ""), path.rsplit("/", 1)[-1], line, float(len(found) - len(hits)), "", why)
        )
    return hits[:limit]


def title_words(name: str) -> list[str]:
    """A name's stemmed words, those of a joined name without the short ones (`to`, `m` of
    `m_Max` say nothing), or the name itself."""
    stems = name_stems(name)
    return [w for w in stems[1:] if len(w) > 2] or list(stems[:1])


def says_every_word(name: str, stems: set[str]) -> bool:
    """Whether the task says each word of a name (`stems`: its words' stems): it names the file."""
    return all(w in stems for w in title_words(name))


# A task asking which data asset sets some values ("which asset sets how many fish appear per
# minute and how fast the waves roll") names the asset by its fields (`spawnRatePerMinute`,
# `waveSpeedA`), not by its name (`SO_TuningConfig`) nor by the code, which reads it through a
# loader the task never names: the one data asset among the FIELDS_SAID_FILES best whose own
# values sit in fields saying FIELDS_SAID_MIN words of the task its name does not (trial 31).
FIELDS_SAID_FILES = 20
FIELDS_SAID_MIN = 2
DATA_WORDS = frozenset({"asset", "assets", "scriptableobject", "scriptableobjects"})


def fields_said(project, ranked: dict[str, Ranked], said: list[str]) -> list[str]:
    """The data asset of one of the project's scripts whose fields the task names (see
    FIELDS_SAID_MIN), when it says "asset" and exactly one of the best files is such an asset
    (several, as for "which research asset costs the most", are a list the ranking already
    orders; a package's settings asset, as the input system's, is no game data the task sets)."""
    if DATA_WORDS.isdisjoint(said):
        return []
    stems = {stem(w) for w in said if w not in STOP_WORDS and w not in TASK_WORDS and w not in DATA_WORDS}
    best = sorted(ranked.values(), key=lambda r: (-r.score, r.path))[:FIELDS_SAID_FILES]
    graph = project.graph  # the game's own data: not a package's settings (an input settings asset)
    found = [
        r.path
        for r in best
        if r.path.endswith(".asset") and graph.carries_script(r.path) and _fields_say(project, r.path, stems)
    ]
    return found if len(found) == 1 else []


def _fields_say(project, path: str, stems: set[str]) -> bool:
    own = set(name_stems(file_title(path)))
    named: set[str] = set()
    for s in project.records.symbols(path):
        value = s.signature.partition(": ")[2] if s.kind == "field" else ""
        if value and not shows_reference(value):
            named |= stems.intersection(name_stems(s.name))
    return len(named - own) >= FIELDS_SAID_MIN

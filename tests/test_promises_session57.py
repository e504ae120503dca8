"""Promises of docs/retrieval.md ("How files are ranked", steps 2-4 and the rules added in sessions
54-56) that no test held (the audit of session 57, /tmp/s57/promise4/promises.md; the YAML
readers' in test_promises2_session57.py): each asserted through the real search or ranking code
on a project written in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import said_words
from indexer.model import Ranked
from indexer.query.asking import said_asked
from indexer.query.workspace import open_workspace

from .conftest import FIXTURE, data_asset, meta, write_project

# docs/retrieval.md step 2: "declared type names and the file name (4), member names (2.5), the
# path (2), declarations, attributes and base lists (1.2), the whole text (2)"
DOC_BOOSTS = {"types": 4.0, "members": 2.5, "path_text": 2.0, "decl": 1.2, "body": 2.0}


def _project(tmp_path: Path, files: dict[str, str]):
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())]).projects[0]


def test_a_words_bm25_score_is_each_fields_score_times_the_documented_boost(tmp_path: Path) -> None:
    """retrieval.md, step 2: a file's BM25 score for a word is the sum over the five fields holding
    it of the field's own score times its boost: `Zorblax.cs` holds it as its type and file name,
    path, declaration and text; `Holder.cs` as a member, its declaration and text; `Other.cs` in
    its text alone."""
    mono = "public class {} : UnityEngine.MonoBehaviour {{ {} }}\n"
    project = _project(
        tmp_path,
        {
            "Assets/Zorblax/Zorblax.cs": mono.format("Zorblax", "public int count;"),
            "Assets/Scripts/Holder.cs": mono.format("Holder", "public int zorblax; void Tick() { }"),
            "Assets/Scripts/Other.cs": mono.format("Other", 'void Tick() { var s = "a zorblax here"; }'),
            "Assets/Scripts/Plain.cs": mono.format("Plain", "void Tick() { }"),
        },
    )
    searcher = project.searcher
    reader = searcher.index.searcher()
    per_field: dict[str, dict[str, float]] = {}
    for field in DOC_BOOSTS:
        for score, address in reader.search(searcher.index.parse_query("zorblax", [field]), 10).hits:
            per_field.setdefault(reader.doc(address).get_first("path"), {})[field] = score
    assert {path: sorted(fields) for path, fields in per_field.items()} == {
        "Assets/Zorblax/Zorblax.cs": ["body", "decl", "path_text", "types"],
        "Assets/Scripts/Holder.cs": ["body", "decl", "members"],
        "Assets/Scripts/Other.cs": ["body"],
    }
    _, found = searcher.candidates("zorblax", 10)
    expected = {p: sum(DOC_BOOSTS[f] * s for f, s in fields.items()) for p, fields in per_field.items()}
    assert [c.path for c in found] == [
        "Assets/Zorblax/Zorblax.cs",
        "Assets/Scripts/Holder.cs",
        "Assets/Scripts/Other.cs",
    ]
    for c in found:
        assert c.score == pytest.approx(expected[c.path], abs=2e-4), c.path


MOVER = (
    "public class Mover : UnityEngine.MonoBehaviour"
    ' { void Update() { if (Input.GetButtonDown("Jump")) Jump(); } void Jump() {} }'
)


def test_the_input_manager_asked_for_by_its_axis_scores_0_8_of_the_best_text_match(tmp_path: Path) -> None:
    """retrieval.md, step 3: "which key makes the mover jump" in a project reading the legacy
    `Input` class: `ProjectSettings/InputManager.asset` "scores 0.8 of the best text match, with the
    reason `input axis Jump [positive: space]`" (where its own text match is lower); a file
    scoring more keeps its score; "`Fire1` by "fire"."""
    from indexer.query.input_axes import raise_named_axes

    settings = (FIXTURE / "ProjectSettings/InputManager.asset").read_text()
    project = _project(tmp_path, {"Assets/Mover.cs": MOVER, "ProjectSettings/InputManager.asset": settings})
    text = "which key makes the mover jump"
    said = said_asked(said_words(text), text)
    with project.reading():
        terms, found = project.searcher.candidates(text, 10)
        ranked = {c.path: Ranked(c.path, c.score, ["text match"], c) for c in found}
        manager = ranked["ProjectSettings/InputManager.asset"]
        ranked["Assets/Mover.cs"].score, manager.score = 10.0, 1.0
        raise_named_axes(project, ranked, terms, said, text)
        assert (manager.score, manager.reasons) == (
            pytest.approx(8.0),
            ["text match", "input axis Jump [positive: space]"],
        )
        manager.score, manager.reasons = 9.0, []
        raise_named_axes(project, ranked, terms, said, text)
        assert manager.score == 9.0
        fire = "which button makes the mover fire"  # `Fire1` by "fire", its digits aside
        raise_named_axes(project, ranked, project.searcher.candidates(fire, 10)[0], said_words(fire), fire)
        assert manager.reasons == [
            "input axis Jump [positive: space]",
            "input axis Fire1 [positive: left ctrl, mouse 0]",
        ]


def _fields(n: int) -> str:
    return "".join(f"  bounciness{i}: {i}\n" for i in range(n))


def test_a_data_asset_of_at_most_30_outline_entries_naming_the_asked_field_doubles(tmp_path: Path) -> None:
    """retrieval.md, step 3: when the task asks where something is set, "a small data asset (... at
    most 30 outline entries) with a field the task names ... at 2× its text match"; one of 31
    entries is not raised, nor is a script, nor an asset naming no field of the task's."""
    from indexer.query.rank import _settings_named
    from indexer.query.search import outlines_of

    script = "a" * 32
    files = {
        "Assets/Ball.cs": "public class Ball : UnityEngine.ScriptableObject { public float bounciness; }\n",
        "Assets/Ball.cs.meta": meta(script),
        "Assets/Data/Small.asset": data_asset(script, "Small", "  bounciness: 1\n" + _fields(28)),
        "Assets/Data/Large.asset": data_asset(script, "Large", "  bounciness: 1\n" + _fields(29)),
        "Assets/Data/Other.asset": data_asset(script, "Other", "  friction: 1\n  note: the bounciness\n"),
    }
    project = _project(tmp_path, files)
    with project.reading():
        _, found = project.searcher.candidates("where is the bounciness set", 10)
        ranked = {c.path: Ranked(c.path, 1.0, ["text match"], c) for c in found}
        entries = {p: len(o.entries) for p, o in outlines_of(project, list(ranked)).items()}
        assert (entries["Assets/Data/Small.asset"], entries["Assets/Data/Large.asset"]) == (30, 31)
        _settings_named(project, ranked, ["bounciness"], ())
    assert {p: r.score for p, r in ranked.items()} == {
        "Assets/Ball.cs": 1.0,
        "Assets/Data/Small.asset": 2.0,
        "Assets/Data/Large.asset": 1.0,
        "Assets/Data/Other.asset": 1.0,
    }


UPGRADE = "b" * 32


def test_three_hyphenated_words_are_looked_for_in_data_assets_for_half_a_quotes_gain(tmp_path: Path) -> None:
    """retrieval.md, step 4: a word joined by hyphens outside quotes, "at most three", is looked for
    as written "only in the 20 data assets holding its words", and a data asset holding it "gains
    half what a quote's holder does": the fourth word said, and the script holding one in a
    comment, gain nothing."""
    from indexer.query.rank import _quoted

    said = ("auto-bots", "auto-research", "auto-cook", "auto-sell")
    files = {"Assets/Upgrade.cs": "public class Upgrade : UnityEngine.ScriptableObject { public string text; }\n"}
    files["Assets/Upgrade.cs.meta"] = meta(UPGRADE)
    for i, word in enumerate(said):
        files[f"Assets/Data/U{i}.asset"] = data_asset(UPGRADE, f"U{i}", f"  text: Enables {word} for all\n")
    files["Assets/Bots.cs"] = "public class Bots { int n; // auto-bots, auto-research, auto-cook, auto-sell\n}\n"
    project = _project(tmp_path, files)
    text = "turn on " + ", ".join(said) + " for one point"
    asked = (None, None, ["turn", "point"], ["turn", "point"])
    ranked = {"Assets/Upgrade.cs": Ranked("Assets/Upgrade.cs", 10.0, ["text match"])}
    with project.reading():
        held = _quoted(project, text, ranked, {}, asked)
    assert held == {f"Assets/Data/U{i}.asset": said[i] for i in range(3)}
    assert {p: (r.score, r.reasons) for p, r in ranked.items()} == {
        "Assets/Upgrade.cs": (10.0, ["text match"]),
        **{f"Assets/Data/U{i}.asset": (5.0, [f'holds "{said[i]}"']) for i in range(3)},
    }


KEY_READERS = {  # a script reading a key, and how it reads it
    "MapToggle": "void Update() { if (Input.GetKeyDown(KeyCode.M)) Open(); }\nvoid Open() { }",
    "Chat": "void Update() { if (Keyboard.current.enterKey.wasPressedThisFrame) Send(); }\nvoid Send() { }",
    "Jumper": "void Update() { if (Keyboard.current[Key.Space].isPressed) Hop(); }\nvoid Hop() { }",
}


def test_a_script_reading_a_pressed_key_says_how_it_reads_it(tmp_path: Path) -> None:
    """retrieval.md, step 3: the scripts reading a key the task says is pressed "score at least 0.8
    of the best text match ..., with the reason `reads the key KeyCode.M` (`enterKey`,
    `Key.Space`)"; one scoring more keeps its score and says it too."""
    from indexer.query.keys_pressed import raise_pressed_keys

    from .conftest import mono_script

    files = {f"Assets/Scripts/{name}.cs": mono_script(name, body) for name, body in KEY_READERS.items()}
    project = _project(tmp_path, files)
    out = {}
    with project.reading():
        for task, reader in (
            ("press M to open the map", "MapToggle"),
            ("pressing enter sends nothing", "Chat"),
            ("holding space should hop", "Jumper"),
        ):
            ranked = {"Assets/Best.cs": Ranked("Assets/Best.cs", 10.0, ["text match"])}
            raise_pressed_keys(project, ranked, task)
            out[reader] = {p: (r.score, r.reasons) for p, r in ranked.items() if p != "Assets/Best.cs"}
        ranked = {
            p: Ranked(p, score, ["text match"])
            for p, score in (("Assets/Scripts/MapToggle.cs", 20.0), ("Assets/Best.cs", 10.0))
        }
        raise_pressed_keys(project, ranked, "press M to open the map")
    assert out == {
        "MapToggle": {"Assets/Scripts/MapToggle.cs": (pytest.approx(8.0), ["reads the key KeyCode.M"])},
        "Chat": {"Assets/Scripts/Chat.cs": (pytest.approx(8.0), ["reads the key enterKey"])},
        "Jumper": {"Assets/Scripts/Jumper.cs": (pytest.approx(8.0), ["reads the key Key.Space"])},
    }
    assert (ranked["Assets/Scripts/MapToggle.cs"].score, ranked["Assets/Scripts/MapToggle.cs"].reasons) == (
        20.0,
        ["text match", "reads the key KeyCode.M"],
    )


def test_a_key_bound_to_an_axis_says_which_axis_its_reader_and_the_input_manager_hold(tmp_path: Path) -> None:
    """retrieval.md, step 3: "press C" in a project reading the legacy `Input` class: the script
    reading the axis C is bound to by name says `reads the input axis "Fire2"`, and, when the task
    also asks which key, the Input Manager `input axis Fire2 [positive: c, mouse 1]`."""
    from indexer.query.input_axes import raise_pressed_axes

    from .test_trial23_session53 import _talking_game

    root = _talking_game(tmp_path / "P")
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    reasons = {}
    with project.reading():
        for asks_key in (True, False):
            ranked = {"Assets/Scripts/Villager.cs": Ranked("Assets/Scripts/Villager.cs", 2.0, [])}
            raise_pressed_axes(project, ranked, "where is the key bound when I press C", asks_key)
            reasons[asks_key] = {p: r.reasons for p, r in ranked.items()}
    assert reasons == {
        True: {
            "Assets/Scripts/Villager.cs": [],
            "ProjectSettings/InputManager.asset": ["input axis Fire2 [positive: c, mouse 1]"],
            "Assets/Scripts/Hero.cs": ['reads the input axis "Fire2"'],
        },
        False: {"Assets/Scripts/Villager.cs": [], "Assets/Scripts/Hero.cs": ['reads the input axis "Fire2"']},
    }


def test_only_the_three_best_hits_handlers_callers_are_lifted(tmp_path: Path) -> None:
    """retrieval.md, step 5 (`lift_handler_callers`, session 56): "a method of one of the three best
    scripts named `On` and two words or more": the round manager 3rd has its handler's one caller
    lifted to the tenth place; 4th, not."""
    from indexer.query import close_parts

    from .test_handler_caller_session56 import ASKED, HIT, ZONE, _graph

    graph = _graph(tmp_path)
    for place, lifted in ((2, True), (3, False)):
        order = [Ranked(f"Assets/F{i}.cs", 20.0 - i / 10, []) for i in range(12)]
        order.insert(place, Ranked(HIT, 20.0 - (place - 0.5) / 10, []))
        out = [r.path for r in close_parts.lift_handler_callers(graph, order, {}, ASKED)]
        assert (ZONE in out, out.index(ZONE) if ZONE in out else None) == (lifted, 9 if lifted else None), place


class _LinkPairs:
    """What `raise_linked_records` reads of a ranking: the best files scored 10, 9, ... in the
    order given, a prior of 1; every raise it asks for, in order."""

    def __init__(self, project, best: list[str]) -> None:
        self.project, self.prefix, self.calls, self.boosts = project, "", [], {}
        self._best = [Ranked(p, 10.0 - i, []) for i, p in enumerate(best)]
        self.ranked = {r.path: r for r in self._best}

    def best(self, keep, n: int) -> list:
        return [r for r in self._best if keep(r.path)][:n]

    def prior(self, path: str) -> float:
        return 1.0

    def raise_to(self, path: str, score: float, why: tuple) -> None:
        self.calls.append((path, score, why[:2]))
        self.ranked.setdefault(path, Ranked(path, 0.0, [])).score = score


def test_a_record_links_two_of_the_4_best_data_assets_among_the_10_best_files(tmp_path: Path) -> None:
    """retrieval.md, step 5 (`linked_records.py`, session 54): a file "whose one component holds two
    of the 4 best data assets among the 10 best files, in two different fields at most 3 lines
    apart ..., ranks at least the better one's score times its own prior"; "nor an asset more than
    8 files reference (a hub)"."""
    from indexer.query.linked_records import _linked, raise_linked_records

    from .test_trial26_session54 import BOARD, _kitchen

    def calls(crates: int, best: list[str]) -> list:
        root = _kitchen(tmp_path / f"k{crates}", crates=crates)
        write_project(root, {"Assets/Data/Salt.asset": data_asset("ab" * 16, "Salt", "  grain: 1\n")})
        update(root, Config(workers=1))
        pairs = _LinkPairs(open_workspace(root, [(root, Config())]).projects[0], best)
        with pairs.project.reading():
            raise_linked_records(pairs)
        return pairs.calls

    data = {n: f"Assets/Data/{n}.asset" for n in ("Salt", "Tomato", "TomatoSlices", "Cabbage", "CabbageSlices")}
    pair = [data["Cabbage"], data["CabbageSlices"]]
    assert calls(0, ["Assets/Scripts/Item.cs", *pair]) == [(BOARD, 9.0, ("links", data["Cabbage"]))]
    # the fifth data asset is not looked at; the tomato's pair, 2nd and 3rd, is
    assert calls(0, list(data.values())) == [(BOARD, 9.0, ("links", data["Tomato"]))]
    scripts = [f"Assets/Scripts/Effects/SlicesEffect{i}.cs" for i in range(8)] + ["Assets/Scripts/Item.cs"]
    assert calls(0, [*scripts, *pair]) == []  # the slices 11th
    # the cabbage referenced by the board, the registry, its prefab and 5 crates: 8 files; 6 crates, 9
    assert calls(5, pair) == [(BOARD, 10.0, ("links", data["Cabbage"]))]
    assert calls(6, pair) == []
    board = "Board > script:1"
    for lines, linked in ((3, {"a.prefab"}), (4, set())):
        assert _linked((("a.prefab", 10, "input", board),), (("a.prefab", 10 + lines, "output", board),)) == linked


def test_the_data_a_best_scripts_carrier_holds_rises_to_1_0_where_set_0_8_otherwise(
    tmp_path: Path, monkeypatch
) -> None:
    """retrieval.md, step 5 (`held_prefabs.raise_held_data`, session 54): for a task asking a value,
    "a script among the 3 best that at most 3 prefabs and scenes carry": the data asset its
    carrier holds in a field ranks "at least the script's score times their prior when the task
    asks where a value is set, 0.8 of it otherwise"; a script 4th gives nothing; a task asking
    no value reads none."""
    from indexer.query import pairing
    from indexer.query.held_prefabs import raise_held_data

    from .conftest import FakePairs
    from .test_cfg_session54 import LOOK_B, SYSTEM, TASK, _novel

    root = _novel(tmp_path / "P")
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    project = ws.projects[0]
    stems = frozenset({"speaker", "name", "dialogu", "box", "bigger", "default"})
    others = [f"Assets/Scripts/Story/SpeakerLine{i}.cs" for i in range(3)]
    raised = {}
    with project.reading():
        for place in (2, 3):
            pairs = FakePairs(project, [*others[:place], SYSTEM])
            raise_held_data(pairs, 0.8, stems)
            raised[place] = pairs.raised
    assert raised == {2: {LOOK_B: (pytest.approx(8.0 * 0.8), ("held_by_script", SYSTEM, ()))}, 3: {}}
    shares: list[float] = []
    real = pairing.raise_held_data
    monkeypatch.setattr(pairing, "raise_held_data", lambda p, share, s: shares.append(share) or real(p, share, s))
    for task in (TASK, "Where is the default size of the speaker's name in the dialogue box set?", "the name flickers"):
        ws.search(task, 5)
    assert shares == [0.8, 1.0]


def test_an_asset_is_named_by_two_words_of_its_valued_fields_one_field_enough(tmp_path: Path) -> None:
    """retrieval.md, step 5 (`named_files.fields_said`, session 55): a task saying "asset" names a
    data asset when its words name fields of it holding values of their own (not references), two
    words or more its file name does not say: one field (`spawnRatePerMinute`) said by "spawn" and
    "minute" is enough (the doc said "two or more fields" until session 57); one word is not; a
    reference field's words and the file name's do not count."""
    from indexer.query.named_files import fields_said

    tuning = "b" * 32
    code = "public class Tuning : UnityEngine.ScriptableObject {{ {} }}\n"
    members = "public float spawnRatePerMinute; public float waveSpeed; public UnityEngine.GameObject fishPrefab;"
    ref = "{fileID: 100, guid: " + "c" * 32 + ", type: 3}"
    files = {
        "Assets/Tuning.cs": code.format(members),
        "Assets/Tuning.cs.meta": meta(tuning),
        "Assets/One.asset": data_asset(tuning, "One", "  spawnRatePerMinute: 6\n"),
        "Assets/Ref.asset": data_asset(tuning, "Ref", f"  fishPrefab: {ref}\n  waveSpeed: 2\n"),
        "Assets/SpawnMinute.asset": data_asset(tuning, "SpawnMinute", "  spawnRatePerMinute: 6\n"),
    }
    project = _project(tmp_path, files)
    found = {}
    with project.reading():
        for task in (
            "which asset sets how many fish spawn per minute",
            "which asset sets how many fish spawn",
            "which asset sets the fish prefab",
            "which asset sets the wave speed",
        ):
            for name in ("One", "Ref", "SpawnMinute"):
                path = f"Assets/{name}.asset"
                found[task, name] = fields_said(project, {path: Ranked(path, 1.0, [])}, said_words(task)) == [path]
    assert [key for key, named in found.items() if named] == [
        ("which asset sets how many fish spawn per minute", "One"),
        ("which asset sets the wave speed", "Ref"),
    ]


def test_blur_bloom_vignette_exposure_and_tonemapping_ask_for_looks(tmp_path: Path) -> None:
    """retrieval.md, step 3: "`blur`, `bloom`, `vignette`, `exposure` and `tonemapping` ask for
    looks": a render volume profile keeps its full weight for a task saying any of them, and is at
    ART_PRIOR for one saying none."""
    from indexer.query.file_roles import role_priors
    from indexer.query.priors import ART_PRIOR

    from .test_ranking import _volume

    profile = "Assets/Settings/VolumeRoomShake.asset"
    project = _project(tmp_path, {profile: _volume("ScreenShakeRoom"), "Assets/Notes.cs": "public class Notes { }"})
    kinds = {profile: "asset", "Assets/Notes.cs": "csharp"}
    priors = {}
    for word in ("blur", "bloom", "vignette", "exposure", "tonemapping", "shake"):
        said = ["the", "room", word, "is", "too", "strong"]
        priors[word] = role_priors(project, kinds, said, said).get(profile, 1.0)
    assert priors == {
        "blur": 1.0,
        "bloom": 1.0,
        "vignette": 1.0,
        "exposure": 1.0,
        "tonemapping": 1.0,
        "shake": ART_PRIOR,
    }


def test_which_file_lists_holds_keeps_stores_registers_or_contains_every_all_or_each_asks_an_asset() -> None:
    """retrieval.md, step 3 (session 56): "a task asking which **file** lists, holds, keeps, stores,
    registers or contains every, all or each of something ... is read as saying "asset" ..., not
    one asking which file does something ("which file handles input") or sets a value"."""
    for verb in ("lists", "holds", "keeps", "stores", "registers", "contains"):
        for every in ("every", "all", "each"):
            for which in ("Which file", "what files"):
                text = f"{which} {verb} {every} fish?"
                assert said_asked(said_words(text), text)[-1:] == ["asset"], text
    for text in ("Which file holds the fish?", "Which file handles all input?", "Which file sets every price?"):
        assert "asset" not in said_asked(said_words(text), text), text

"""Session 57's review: the promises of its new rules' docstrings that no test held (ordinal_series'
series and guards, synonyms' "-men" plural of a word that is none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.model import Ranked
from indexer.query import ordinal_series
from indexer.query.ordinal_series import SERIES_SHARE, raise_counted_series

LEVEL_GUID = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e"


def _project(root: Path, paths: list[str]):
    """The project of a real index holding a data asset at each of `paths` (and their script)."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import data_asset, meta, mono_script, write_project

    files: dict[str, str] = {
        "Assets/Level.cs": mono_script("Level", "    public int rounds;"),
        "Assets/Level.cs.meta": meta(LEVEL_GUID),
    }
    for path in paths:
        files[path] = data_asset(LEVEL_GUID, path.rsplit("/", 1)[-1].split(".")[0], "  rounds: 3\n")
    write_project(root, files)
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())]).projects[0]


def _levels(*numbers: int, folder: str = "Assets/Levels", ext: str = "asset") -> list[str]:
    return [f"{folder}/Level{n}.{ext}" for n in numbers]


def test_a_series_is_three_files_or_more_of_one_folder_and_kind_numbered_without_a_gap_from_0_or_1(
    tmp_path: Path,
) -> None:
    """`_series`: `Level1-3` and `Level0-2` are series; a gap (`1, 2, 4`), a start past 1 (`2-4`),
    members in two folders or of two kinds, and a number two files say (`Level1`, `Level01`) are none;
    `Stage1Room1-3` and `Stage2Room1-3` are two series (the digits inside a name part of it)."""
    key = ("Assets/Levels", "level", "asset")
    cases = [
        (_levels(1, 2, 3), {key: _levels(1, 2, 3)}),
        (_levels(0, 1, 2), {key: _levels(0, 1, 2)}),
        (_levels(1, 2, 4), {}),
        (_levels(2, 3, 4), {}),
        (_levels(1, 2) + _levels(3, folder="Assets/More"), {}),
        (_levels(1, 2) + _levels(3, ext="prefab"), {}),
        ([*_levels(1, 2, 3), "Assets/Levels/Level01.asset"], {}),
    ]
    for i, (paths, series) in enumerate(cases):
        assert ordinal_series._series(_project(tmp_path / str(i), paths)) == series
    rooms = [f"Assets/R/Stage{s}Room{r}.asset" for s in (1, 2) for r in (1, 2, 3)]
    assert ordinal_series._series(_project(tmp_path / "rooms", rooms)) == {
        ("Assets/R", "stag 1 room", "asset"): rooms[:3],
        ("Assets/R", "stag 2 room", "asset"): rooms[3:],
    }


def test_a_series_key_is_the_folder_the_name_s_word_stems_and_the_extension() -> None:
    assert ordinal_series._series_key("Assets/SO/Levels/Level2.asset") == ("Assets/SO/Levels", "level", "asset")
    assert ordinal_series._series_key("A/Wave_03.prefab") == ("A", "wave", "prefab")
    assert ordinal_series._series_key("A/Stage2Room3.asset") == ("A", "stag 2 room", "asset")
    assert ordinal_series._series_key("A/Level.asset") is None  # no number
    assert ordinal_series._series_key("A/7.asset") is None  # no name


def _ranked(*paths: str) -> dict[str, Ranked]:
    return {p: Ranked(p, 10.0 - i, []) for i, p in enumerate(paths)}


def _raised(project, ranked: dict[str, Ranked], text: str, numbered: frozenset[str] = frozenset()) -> dict:
    raise_counted_series(project, ranked, {}, text, numbered)
    return {p: r.score for p, r in ranked.items()}


def test_the_counted_member_ranks_at_the_share_of_the_best_only_when_two_members_are_among_the_best(
    tmp_path: Path,
) -> None:
    """ "The second stage": `Level2` joins the ranking at SERIES_SHARE of the best when `Level1` and
    `Level3` are among it; not with one member there, nor past the series' end ("the fifth"), nor
    when the series' own name is the word counted ("the second level": `files_numbered`'s), nor
    when the task already numbers a file (`numbered`); with two series in one folder, only the one
    among the best counts (`Stage1Room*`, not `Stage2Room*`)."""
    project = _project(tmp_path / "levels", _levels(1, 2, 3))
    best = ("Assets/Level.cs", *_levels(1, 3))
    assert _raised(project, _ranked(*best), "the second stage")["Assets/Levels/Level2.asset"] == 10.0 * SERIES_SHARE
    unchanged = _raised(project, _ranked(*best), "the fifth stage")
    assert unchanged == {p: r.score for p, r in _ranked(*best).items()}
    assert _raised(project, _ranked(*best), "the second level") == unchanged
    assert _raised(project, _ranked(*best), "the second stage", frozenset({"x"})) == unchanged
    one = ("Assets/Level.cs", *_levels(1))
    assert _raised(project, _ranked(*one), "the second stage") == {p: r.score for p, r in _ranked(*one).items()}
    rooms = [f"Assets/R/Stage{s}Room{r}.asset" for s in (1, 2) for r in (1, 2, 3)]
    raised = _raised(_project(tmp_path / "rooms", rooms), _ranked(rooms[0], rooms[2]), "the second chamber")
    assert raised == {rooms[0]: 10.0, rooms[2]: 9.0, rooms[1]: 10.0 * SERIES_SHARE}


def test_a_score_above_the_share_is_kept(tmp_path: Path) -> None:
    """The counted member already ranked above SERIES_SHARE of the best keeps its score."""
    project = _project(tmp_path, _levels(1, 2, 3))
    ranked = _ranked(*_levels(2, 1, 3))
    assert _raised(project, ranked, "the second stage")["Assets/Levels/Level2.asset"] == 10.0


def test_no_ranking_raises_nothing(tmp_path: Path) -> None:
    assert _raised(_project(tmp_path, _levels(1, 2, 3)), {}, "the second stage") == {}


def test_a_men_word_that_is_no_plural_searches_a_form_no_file_says_so_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """synonyms: "specimen" is no "-men" plural; its "speciman" is searched only where a file says
    it (`search._in_any_form` keeps the forms the project says): the hits and scores are those of
    a search without the form."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query import synonyms
    from indexer.query.workspace import open_workspace

    from .conftest import mono_script, write_project

    assert synonyms.forms("specimen") == ("speciman",)
    files = {
        "Assets/Specimen.cs": mono_script("Specimen", "    // a specimen the lab keeps\n    int jar;"),
        "Assets/Lab.cs": mono_script("Lab", "    // the lab's specimen jars\n    int shelves;"),
    }
    root = write_project(tmp_path, files)
    update(root, Config(workers=1))

    def hits() -> list[tuple[str, float]]:
        found = open_workspace(root, [(root, Config())]).search("where is the specimen kept", 5, named=False)
        return [(h.path, h.score) for h in found]

    said = hits()
    monkeypatch.setattr(synonyms, "forms", lambda term: ())
    assert said == hits() and [p for p, _ in said][:1] == ["Assets/Specimen.cs"]


def test_is_hex_is_what_unpacked_reads() -> None:
    """hex_arrays.is_hex: the value after the last `: ` all lower-case hex digits; `unpacked` reads
    no other value (so `EnumFields.named` may skip a script's fields for any other)."""
    from indexer.query.hex_arrays import ENUM_FORMAT, is_hex, unpacked

    signatures = ["keys: 0100000002000000", "keys: 01000000", "a: b: 0a0b0c0d", "speed: 1.5", "name: Run", "k: ", "k"]
    assert [is_hex(s) for s in signatures] == [True, True, True, False, False, False, False]
    for s in signatures:
        if not is_hex(s):
            assert unpacked(s, (ENUM_FORMAT,), str) is None


def test_a_structs_enum_fields_are_a_copy(tmp_path: Path) -> None:
    """enum_values.EnumFields.struct_enums returns a copy: changing it changes no later answer."""
    from indexer.query.enum_values import EnumFields

    from .test_query_costs_session57 import MOVER, _graph

    mover = "using UnityEngine;\npublic class Mover : MonoBehaviour { public Gait gait; }\n"
    gait = "[System.Serializable] public struct Gait { public Mode mode; public float stride; }\n"
    graph = _graph(tmp_path, mover, {"Assets/Gait.cs": gait})
    enums = EnumFields(graph)
    row = next(t for t in graph.types_named("Gait") if t.kind == "struct")
    enums.struct_enums(row).clear()
    assert list(enums.struct_enums(row)) == ["mode"] and list(enums.members(MOVER, "gait")) == ["mode"]

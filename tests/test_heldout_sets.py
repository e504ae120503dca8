"""The held-out question sets (`tests/bench/questions/`, docs/retrieval.md) are read by the shared
harness unchanged: each line in its JSONL format, 20 questions a project, 4 of each type, gold
paths relative to the checkout and inside it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

SETS = sorted((Path(__file__).parent / "bench" / "questions").glob("*.jsonl"))
KEYS = ("commit", "parent", "message", "relevant_files", "type", "note")
TYPES = {"locate", "asset", "change", "bug", "cross"}


def test_there_are_forty_eight_sets_each_with_its_repository_named() -> None:
    """`tests.bench.heldout` finds each set's repository in sets.json (docs/retrieval.md)."""
    assert [s.stem for s in SETS] == [
        "A11ySample",
        "ARFoundationSamples",
        "ATerribleKingdom",
        "BagelGame",
        "BatmanCombat",
        "Bitesize",
        "BlockYourFriends",
        "BoatAttack",
        "BossRoom",
        "CardRoguelike",
        "CardTowerDefense",
        "CharacterControllers",
        "DarkSoulsDemo",
        "DungeonShooter",
        "ElementalRoguelike",
        "FPSSample",
        "FarmingGame2D",
        "FlurryPlatformer",
        "GalacticKittens",
        "GameLobby",
        "GamePatterns",
        "Gamekit3D",
        "GeoAdventures",
        "MagnetPlatformer",
        "MarioPartyBoard",
        "Matchplay",
        "MazeShooter",
        "MechaRoguelike",
        "MedievalRoguelike",
        "MultiplayerFpsTutorial",
        "PaddleGameSO",
        "Pal3",
        "PikminGameplay",
        "Platformer25D",
        "RoguelikeFramework",
        "RtsTutorial",
        "SS3D",
        "SlowmoPlatformer",
        "SolarSystem",
        "SpaceRoguelike",
        "SpaceshipDemo",
        "TcgRoguelike",
        "TowerDefense",
        "TrashDash",
        "UnityPlayground",
        "UseCases",
        "VampireSurvivors",
        "XRIExamples",
    ]
    repositories = json.loads((SETS[0].parent / "sets.json").read_text(encoding="utf-8"))
    assert sorted(repositories) == [s.stem for s in SETS]
    assert all(repo.count("/") == 1 for repo in repositories.values())


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.stem)
def test_a_set_is_twenty_questions_four_of_each_type_on_one_commit(path: Path) -> None:
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(questions) == 20
    assert all(tuple(q) == KEYS for q in questions)
    assert Counter(q["type"] for q in questions) == dict.fromkeys(TYPES, 4)
    assert len({(q["commit"], q["parent"]) for q in questions}) == 1
    assert all(len(q["commit"]) == 40 and q["commit"] == q["parent"] for q in questions)
    for q in questions:
        assert q["message"].strip() and q["note"].strip()
        gold = q["relevant_files"]
        assert gold and len(set(gold)) == len(gold)
        assert all(not g.startswith("/") and ".." not in g.split("/") for g in gold)


def test_the_heldout_report_pools_the_sets_by_their_counts() -> None:
    from tests.bench.heldout import render

    row = {"query": [20, 16, 12], "named": [20, 18, 18], "shown": [20, 17, 16], "outlined": [20, 16, 14]}
    other = {"query": [20, 14, 10], "named": [20, 20, 19], "shown": [20, 19, 17], "outlined": [20, 18, 15]}
    lines = render({"A": row, "B": other}, 4000).split("\n")
    assert lines[1].split() == ["A", "20", "0.800", "/", "0.600", "-", "0.900", "/", "0.800", "/", "0.700"]
    assert lines[3].split() == ["pooled", "40", "0.750", "/", "0.550", "-", "0.925", "/", "0.825", "/", "0.725"]


def test_a_set_without_a_checkout_is_left_out_and_said_so(tmp_path: Path, capsys) -> None:
    from tests.bench.heldout import run

    assert run(tmp_path / "eval", tmp_path, 4000, ["BossRoom"], bm25=False) == {}
    assert capsys.readouterr().out == f"BossRoom: no checkout at {tmp_path / 'BossRoom'}, left out\n"


TRIALS = sorted((Path(__file__).parent / "bench" / "questions" / "trials").glob("*.jsonl"))


def test_the_trials_sets_are_kept_apart_each_with_its_repository_named() -> None:
    """Session 53-57 trials (docs/retrieval.md): sets rules were tuned on, never pooled as held-out;
    `tests.bench.heldout --questions tests/bench/questions/trials` scores them."""
    assert [s.stem for s in TRIALS] == [
        "AirHoop",
        "BakeryTycoon",
        "CityBuilder",
        "ColonySim",
        "CountryHero",
        "Darkness",
        "Detective",
        "EndlessRunner",
        "FarmDebt",
        "FindAWayOut",
        "FishingSteam",
        "ForestRoyale",
        "FpsMarkTwo",
        "GemMatch3",
        "GunSoccer",
        "HeroTournament",
        "HiddenTactics",
        "HorrorJam",
        "IdleDyson",
        "IsoTD",
        "KartRacer",
        "KitchenChaos",
        "PartyBoard",
        "Pinball171",
        "Redhood",
        "RhythmLanes",
        "RoguelikeDungeon",
        "RtsDemo",
        "SoulsLike",
        "SpaceRails",
        "SpellRogue",
        "Stealth2D",
        "ToadTactics",
        "TopDownShooter",
        "TransportTycoon",
        "VisualNovel",
    ]
    assert not {s.stem for s in TRIALS} & {s.stem for s in SETS}
    repositories = json.loads((TRIALS[0].parent / "sets.json").read_text(encoding="utf-8"))
    assert sorted(repositories) == [s.stem for s in TRIALS]


@pytest.mark.parametrize("path", TRIALS, ids=lambda p: p.stem)
def test_a_trial_set_is_in_the_harness_format_on_one_commit(path: Path) -> None:
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(questions) >= 14  # 17 a trial until session 55; session 56's time-boxed ones 16
    assert all(tuple(q) == KEYS for q in questions)
    assert {q["type"] for q in questions} == TYPES
    assert len({q["parent"] for q in questions}) == 1
    assert all(q["relevant_files"] and all(not f.startswith("/") for f in q["relevant_files"]) for q in questions)

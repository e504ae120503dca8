"""The subclass a task names of a class one of the best scripts uses (`named_subclass.py`,
docs/retrieval.md: "The subclass a task names")."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import stem
from indexer.model import Ranked
from indexer.query.named_subclass import (
    NAMING_MOST,
    SUBCLASS_SHARE,
    SUBCLASSES_MOST,
    UNFOUND_PAST,
    raise_named_subclasses,
    task_stems,
)
from indexer.query.pairing import pair
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project

TASK = "Starting a new game from the main menu leaves me with only 100 coins instead of 8000."
MENU = "Assets/Scripts/MainMenu.cs"
DATA = "Assets/Scripts/Data.cs"


def _menu(tmp_path: Path, subclasses: tuple[str, ...] = ("Money", "Reputation", "Day")) -> Path:
    """A main menu resetting every `Data` (a ScriptableObject base) on a new game; `subclasses`
    extend `Data`, each resetting its own value."""
    files = {
        "Assets/Scripts/Data.cs": "using UnityEngine;\npublic abstract class Data : ScriptableObject\n"
        "{\n    public abstract void ResetValues();\n}\n",
        MENU: "using System.Collections.Generic;\nusing UnityEngine;\npublic class MainMenu : MonoBehaviour\n{\n"
        "    [SerializeField] private List<Data> datas;\n"
        "    public void NewGame() { foreach (Data data in datas) data.ResetValues(); }\n}\n",
    }
    for k, name in enumerate(subclasses):
        files[f"Assets/Scripts/{name}.cs"] = (
            f"public class {name} : Data\n{{\n    private int value;\n"
            "    public override void ResetValues() { value = 100; }\n}\n"
        )
        files[f"Assets/Scripts/{name}.cs.meta"] = meta(f"{k + 1:032x}")
    files["Assets/Scripts/Data.cs.meta"] = meta("d" * 32)
    files[f"{MENU}.meta"] = meta("e" * 32)
    return write_project(tmp_path, files)


def _paired(root: Path, text: str = TASK, low: float = 1.0) -> tuple[dict[str, float], dict]:
    """Scores after the pairings, from a ranking with the main menu first, UNFOUND_PAST other
    files and then its subclasses (at `low`)."""
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    start = {MENU: 100.0} | {f"Assets/Other/Other{k}.cs": 50.0 for k in range(UNFOUND_PAST)}
    start |= {p: low for p in project.records.paths_of_kind("csharp") if p not in (MENU, DATA)}
    ranked = {p: Ranked(p, s, []) for p, s in start.items()}
    boosts: dict = {}
    pair(
        project,
        ranked,
        boosts,
        project.stats_of(ranked),
        lambda p: 1.0,
        None,
        None,
        False,
        frozenset(),
        False,
        (text, frozenset()),
    )
    return {p.rpartition("/")[2]: r.score for p, r in ranked.items()}, boosts


def test_the_one_subclass_the_task_names_by_a_synonym_ranks_after_the_script_using_its_base(tmp_path: Path) -> None:
    """Bakery-Tycoon's "a new game leaves me with only 100 coins" ranked the main menu first and
    `Money.cs` (one of twelve `Data` subclasses the menu resets) outside the top 60: "coins" is
    money (a synonym), so `Money.cs` ranks SUBCLASS_SHARE of the menu's score, saying why."""
    scores, boosts = _paired(_menu(tmp_path))
    assert scores["Money.cs"] == 100.0 * SUBCLASS_SHARE
    assert boosts["Assets/Scripts/Money.cs"][1:] == ("subclass", "Assets/Scripts/Data.cs", ())
    assert scores["Reputation.cs"] == 1.0 and scores["Day.cs"] == 1.0


def test_a_subclass_the_search_found_is_left_where_it_is(tmp_path: Path) -> None:
    scores, _ = _paired(_menu(tmp_path), low=60.0)  # above the UNFOUND_PAST others
    assert scores["Money.cs"] == 60.0


def test_a_subclass_overriding_nothing_the_script_calls_is_not_raised(tmp_path: Path) -> None:
    root = _menu(tmp_path)
    menu = root / MENU
    menu.write_text(menu.read_text().replace("data.ResetValues();", "Debug.Log(data);"))
    scores, _ = _paired(root)
    assert scores["Money.cs"] == 1.0


def test_a_word_many_scripts_are_named_by_picks_no_subclass(tmp_path: Path) -> None:
    """ "Daggerfall" names hundreds of Daggerfall Unity's classes: a word more than NAMING_MOST
    scripts' names say (the game's own name) picks no subclass."""
    root = _menu(tmp_path)
    for k in range(NAMING_MOST):
        (root / f"Assets/Scripts/MoneyThing{k}.cs").write_text(f"public class MoneyThing{k} {{ }}\n")
    scores, _ = _paired(root)
    assert scores["Money.cs"] == 1.0


def test_two_named_subclasses_are_the_family_and_none_is_raised(tmp_path: Path) -> None:
    scores, _ = _paired(_menu(tmp_path), TASK + " Each day resets too.")
    assert scores["Money.cs"] == 1.0 and scores["Day.cs"] == 1.0


def test_a_base_with_too_many_subclasses_is_a_framework_root(tmp_path: Path) -> None:
    many = ("Money", *(f"Thing{k}" for k in range(SUBCLASSES_MOST)))
    scores, _ = _paired(_menu(tmp_path, many))
    assert scores["Money.cs"] == 1.0


def test_the_task_stems_hold_its_words_synonyms() -> None:
    assert {stem("coins"), stem("money")} <= task_stems("only 100 coins left")


def test_nothing_is_raised_without_a_best_script(tmp_path: Path) -> None:
    root = _menu(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    from indexer.query.pairing import _Pairs

    pairs = _Pairs(project, {}, {}, {}, lambda p: 1.0, "")
    raise_named_subclasses(pairs, TASK)
    assert pairs.ranked == {}

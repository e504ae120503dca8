"""The base class of a thin subclass among the best hits (docs/retrieval.md, "Session 54, a thin
subclass's base"): the subclass only fills in its base's hooks, the flow asked about is the base's."""

from __future__ import annotations

from pathlib import Path

from indexer.query import close_parts

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

BASE = "Assets/Scripts/Pickups/PickupGulper.cs"
TASK = "When the ghost touches a heart, where is it healed?"
_FLOW = """using UnityEngine;
public abstract class PickupGulper : MonoBehaviour
{
    public float radius = 2f;
    public Transform mouth;
    protected virtual void OnTriggerEnter(Collider other) { }
    protected void TryGulpPickup<T>(Collider other) where T : Component
    {
        T pickup = other.GetComponent<T>();
        if (pickup == null || IsFull()) return;
        OnGulp(pickup);
        Destroy(pickup.gameObject);
    }
    protected abstract void OnGulp<T>(T pickup) where T : Component;
    protected abstract bool IsFull();
}
"""


def _gulper(extra: str = "", subclasses: int = 0) -> str:
    """The heart's subclass: each method an override of its base's hooks, and `extra` members."""
    return (
        "using UnityEngine;\n// the ghost touches a heart and is healed\npublic class HeartGulper : PickupGulper\n{\n"
        "    public Health health;\n"
        "    protected override void OnGulp<T>(T pickup) { health.Heal(1); }\n"
        f"    protected override bool IsFull() {{ return health.full; }}\n{extra}}}\n"
    )


def _project(tmp_path: Path, extra: str = "", others: int = 0, base_extra: str = "") -> Path:
    """A ghost's pickups: the thin `HeartGulper` over `PickupGulper` (no word of the task), eleven
    scripts saying "heart" (four of them holding the gulper: it is tied to many files, so
    `lift_close_parts` leaves its base), and `others` more subclasses of the base."""
    files: dict[str, str] = {
        BASE: _FLOW.replace("{\n", "{\n" + base_extra, 1),
        f"{BASE}.meta": meta("a1" * 16),
        "Assets/Scripts/Pickups/HeartGulper.cs": _gulper(extra),
        "Assets/Scripts/Pickups/HeartGulper.cs.meta": meta("b2" * 16),
    }
    for i in range(11):
        name = f"HeartHealer{i}"
        body = f"    // the ghost's heart ({i})\n    public int heartCount{i} = {i};"
        body += "\n    public HeartGulper gulper;" if i < 4 else ""  # the gulper is tied to many files
        files[f"Assets/Scripts/Hearts/{name}.cs"] = mono_script(name, body)
        files[f"Assets/Scripts/Hearts/{name}.cs.meta"] = meta(f"{i:02x}" + "c3" * 15)
    for i in range(others):
        name = f"OtherGulper{i}"
        files[f"Assets/Scripts/Pickups/{name}.cs"] = f"public class {name} : PickupGulper {{ }}\n"
        files[f"Assets/Scripts/Pickups/{name}.cs.meta"] = meta(f"{i:02x}" + "d4" * 15)
    return write_project(tmp_path, files)


def test_a_thin_subclass_brings_its_base_into_the_ten(tmp_path: Path) -> None:
    """`HeartGulper.cs` among the best three, declaring only overrides: its larger base, which
    says no word of the task (13th without the rule), rises into the ten."""
    ranked = _ranked(_project(tmp_path), TASK, 12)
    assert "Assets/Scripts/Pickups/HeartGulper.cs" in ranked[:3]
    assert BASE in ranked[:10]


def test_a_subclass_with_a_method_of_its_own_does_not(tmp_path: Path) -> None:
    """A subclass declaring a method its base has not (`Refill`) does its own work: its base is
    left where the search put it."""
    extra = "    public void Refill() { health.Heal(5); }\n"
    assert BASE not in _ranked(_project(tmp_path, extra), TASK, 10)


def test_a_base_of_many_subclasses_does_not(tmp_path: Path) -> None:
    """A base with more than FEW_SUBCLASSES subclasses is a framework's root: not raised."""
    assert close_parts.FEW_SUBCLASSES == 4
    assert BASE not in _ranked(_project(tmp_path, others=4), TASK, 10)


def test_a_subclass_past_thin_bytes_does_not(tmp_path: Path) -> None:
    """A subclass of more than THIN bytes (a generated block of data) is no thin one, even with
    a base larger still: its base is left where the search put it."""
    assert close_parts.THIN == 2000
    filler = "    // " + "0" * 2000 + "\n"
    assert BASE not in _ranked(_project(tmp_path, filler, base_extra=filler * 2), TASK, 10)


def test_only_overrides() -> None:
    """Declaring no method is not thin (a data holder); every method an override is."""
    from indexer.model import Symbol

    over = Symbol("method", "OnGulp", 1, modifiers=("protected", "override"))
    own = Symbol("method", "Refill", 2, modifiers=("public",))
    field = Symbol("field", "health", 3, modifiers=("public",))
    assert close_parts._only_overrides([field, over])
    assert not close_parts._only_overrides([field, over, own])
    assert not close_parts._only_overrides([field])


class _Graph:
    """Edges and symbols alone (what `close_parts.lift_thin_bases` reads)."""

    def __init__(self, symbols) -> None:
        self.records = self
        self._symbols = symbols

    def uses(self, path: str) -> list[tuple[str, str]]:
        return [(BASE, "base")] if path == "Assets/Hit.cs" else []

    def used_by(self, path: str) -> list[tuple[str, str]]:
        return [("Assets/Hit.cs", "subclass")] if path == BASE else []

    def symbols(self, path: str):
        return self._symbols


def test_a_base_the_search_did_not_find_is_added_with_its_stats_read() -> None:
    """The base not ranked at all is added just above the tenth, said why, and its stats are read
    through `stats_of` (the project's, whose dict the ranking reads a shown file's kind from)."""
    from types import SimpleNamespace

    from indexer.model import Ranked, Symbol

    asked: list[list[str]] = []

    def stats_of(paths):
        asked.append(list(paths))
        return {"Assets/Hit.cs": SimpleNamespace(size=500), BASE: SimpleNamespace(size=900)}

    order = [Ranked("Assets/Hit.cs", 20.0, [])] + [Ranked(f"Assets/F{i}.cs", 10.0 - i / 10, []) for i in range(11)]
    over = Symbol("method", "OnGulp", 1, modifiers=("override",))
    out = close_parts.lift_thin_bases(_Graph([over]), stats_of, order, {})
    assert [r.path for r in out].index(BASE) == 9
    assert out[9].reasons == ["its subclass Assets/Hit.cs only overrides its methods"]
    assert out[9].score == order[9].score * close_parts.LIFT
    assert asked == [["Assets/Hit.cs", BASE]]
    own = Symbol("method", "Refill", 2)
    assert BASE not in [r.path for r in close_parts.lift_thin_bases(_Graph([over, own]), stats_of, order, {})]

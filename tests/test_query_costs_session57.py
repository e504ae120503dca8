"""What an outline's enum values cost the first time a pack meets a script, bounded
(docs/performance.md, session 57): a value no enum can name (`speed: 1.5`, `m_Name: Runner`) works
out none of the script's fields, and a number reads no record of the structs and classes its
fields hold (only a value written as a mapping, `{mode: 1}`, needs their enum fields)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.enum_values import EnumFields
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project

MOVER = "33333333333333333333333333333333"
TYPES = "public enum Mode { Walk, Run }\n"


def _graph(tmp_path: Path, mover: str, more: dict[str, str]):
    files = {"Assets/Mover.cs": mover, "Assets/Mover.cs.meta": meta(MOVER), "Assets/Mode.cs": TYPES, **more}
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())]).projects[0].graph


def test_a_value_no_enum_names_works_out_nothing_and_a_number_reads_no_struct(tmp_path: Path) -> None:
    mover = (
        "using UnityEngine;\npublic class Mover : MonoBehaviour {\n"
        "  public Mode mode; public Gait gait; public float speed;\n}\n"
    )
    gait = "[System.Serializable] public struct Gait { public Mode mode; public float stride; }\n"
    graph = _graph(tmp_path, mover, {"Assets/Gait.cs": gait})
    enums = EnumFields(graph)
    assert [enums.named(MOVER, s) for s in ("speed: 1.5", "m_Name: Runner")] == ["speed: 1.5", "m_Name: Runner"]
    assert graph.__dict__.get("_enum_fields", {}) == {}  # the script's fields not worked out
    assert enums.named(MOVER, "mode: 1") == "mode: 1 (Run)"
    assert "Assets/Gait.cs" not in graph.__dict__.get("_kept_records", {})  # the struct's record unread
    assert enums.named(MOVER, "gait: {mode: 1, stride: 2}") == "gait: {mode: 1 (Run), stride: 2}"
    assert "Assets/Gait.cs" in graph.__dict__["_kept_records"]


def test_a_name_declared_again_is_the_first_declaration_s_when_its_struct_holds_enums(tmp_path: Path) -> None:
    """A class hiding its base's field (`new`): its own declaration holds the name when it is an
    enum, or a struct with enum fields; else the base's enum does, as when the members were worked
    out with the fields."""
    base = "using UnityEngine;\npublic class Body : MonoBehaviour { public Mode pace; public Mode gait; }\n"
    mover = "public class Mover : Body { public new Plain pace; public new Gait gait; }\n"
    structs = (
        "[System.Serializable] public struct Plain { public float stride; }\n"
        "[System.Serializable] public struct Gait { public Mode mode; }\n"
    )
    graph = _graph(tmp_path, mover, {"Assets/Body.cs": base, "Assets/Structs.cs": structs})
    enums = EnumFields(graph)
    assert enums.named(MOVER, "pace: 1") == "pace: 1 (Run)"  # Plain holds no enum: the base's Mode
    assert enums.named(MOVER, "gait: 1") == "gait: 1"  # Gait holds one: the name is its
    assert enums.named(MOVER, "gait: {mode: 1}") == "gait: {mode: 1 (Run)}"
    assert enums.members(MOVER, "pace") == {} and list(enums.members(MOVER, "gait")) == ["mode"]

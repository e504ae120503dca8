"""Session 44's shortcuts of a query's first sight of a file give what the long way gave: a prefab's
record decoded for `is_effect` only when its bytes name a particle system, a source prefab's
document headers found by one search of its joined lines instead of a test of each line, and
whether a prefab carries a script told from the first script its sources carry, and how a prefab
holds another kept per index state."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.project import is_script
from indexer.query.carriers import carried, carried_each
from indexer.query.file_roles import _effect_record
from indexer.query.override_targets import DOCUMENT_HEADER, document_headers
from indexer.query.priors import EFFECT_MARK, has_logic, is_effect
from indexer.query.walk import _holds, _how_held
from indexer.query.workspace import Workspace, open_workspace

from .conftest import meta, write_project
from .test_questions import _prefab

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "DungeonCrawler"


def _headers_line_by_line(lines: list[str]) -> list[tuple[int, str]]:
    """What `document_headers` replaced: each line tested."""
    out = []
    for number, text in enumerate(lines, 1):
        if text.startswith("--- !u!") and (m := DOCUMENT_HEADER.match(text)):
            out.append((number, m.group(1)))
    return out


def test_document_headers_are_the_lines_a_test_of_each_line_finds() -> None:
    texts = [
        "",
        "--- !u!1 &100\nGameObject:\n  m_Name: A\n--- !u!4 &-200 stripped\nTransform:\n",
        "%YAML 1.1\r\n--- !u!1 &7\r\n  x: --- !u!1 &8\r\n--- !u!x &9\n--- !u!114 &10\n\n--- !u!1 &\n--- !u!1 &11",
        "  --- !u!1 &5\n--- !u!1&6\n--- !u!1 &١٢\n--- !u!1 &12x\n",
    ]
    texts += [p.read_text(encoding="utf-8") for p in sorted(FIXTURE.rglob("*")) if p.suffix in (".prefab", ".unity")]
    assert len(texts) > 6
    for text in texts:
        lines = text.split("\n")
        assert [(n, m.group(1)) for n, m in document_headers(lines)] == _headers_line_by_line(lines)


def test_a_prefabs_effect_is_decided_alike_with_its_record_decoded_only_when_it_names_a_particle_system(
    tmp_path: Path,
) -> None:
    guid = "c" * 31 + "3"
    fx, plain, glow = "Assets/FX.prefab", "Assets/Crate.prefab", "Assets/Lamp.prefab"
    root = write_project(
        tmp_path,
        {
            "Assets/Timer.cs": "public class Timer : MonoBehaviour { public float delay; }",
            "Assets/Timer.cs.meta": meta(guid),
            fx: _prefab([("FX", "", [f"script:{guid}", "ParticleSystem"]), ("Sparks", "FX", ["ParticleSystem"])]),
            plain: _prefab([("Crate", "", [f"script:{guid}", "BoxCollider"]), ("Model", "Crate", ["MeshRenderer"])]),
            glow: _prefab([("Lamp", "", ["MeshRenderer"]), ("Glow", "Lamp", ["ParticleSystem"]), ("Pole", "", [])]),
        },
    )
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    records = project.records
    for path in (fx, plain, glow, "Assets/Timer.cs", "Assets/Missing.prefab"):
        whole = records.outline_record(path)
        assert _effect_record(project, path) == is_effect(whole)
        held = records.outline_record(path, holding=EFFECT_MARK)
        assert held == (whole if whole is not None and path != plain and path != "Assets/Timer.cs" else None)
    assert _effect_record(project, fx) and not _effect_record(project, glow) and not _effect_record(project, plain)
    assert records.outline_record(fx, holding=b"") == records.outline_record(fx)


def test_a_prefab_carries_a_script_as_the_whole_list_of_what_it_carries_says(ws: Workspace) -> None:
    """The fixture's variant chain (`EnemyBruteBoss` of `EnemyBrute` of `Enemy`, which carries
    `EnemyAI`) and its other prefabs: `carried_each` gives `carried`'s list, in order, and
    `has_logic`, which stops at the first script, what the whole list says."""
    graph = ws.projects[0].graph
    prefabs = graph.records.paths_of_kind("prefab")
    assert len(prefabs) > 3
    carrying = 0
    for prefab in prefabs:
        whole = carried(graph, prefab)
        assert list(carried_each(graph, prefab)) == whole
        direct = any(e == "script" for _, e in graph.uses(prefab))
        assert has_logic(graph, prefab) == (direct or any(is_script(p) for p, _ in whole))
        carrying += not direct and any(is_script(p) for p, _ in whole)
    assert carrying >= 1  # a prefab with a script only through its sources


def test_how_a_prefab_holds_another_is_kept_as_it_was_worked_out(ws: Workspace) -> None:
    """Each prefab and each prefab it uses (the variant chain's bases, nested ones), both ways:
    what `_holds` keeps is what `_how_held` works out, asked again or not."""
    graph = ws.projects[0].graph
    records = graph.records
    pairs = [(a, b) for a in records.paths_of_kind("prefab") for b, e in graph.uses(a) if e == "prefab"]
    assert any(_how_held(records, a, b) == "variant" for a, b in pairs)
    for a, b in pairs + [(b, a) for a, b in pairs]:
        assert _holds(records, a, b) == _how_held(records, a, b) == _holds(records, a, b)

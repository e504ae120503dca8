"""`related.related_files`: the files one reference from a pack's lead files (docs/cli.md, context)."""

from __future__ import annotations

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Hit
from indexer.query.related import related_files
from indexer.query.workspace import open_workspace, projects_at

from .conftest import meta, write_project

BOSS, PNG = "b0550000000000000000000000000001", "a0000000000000000000000000000002"
PREFAB = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &1
GameObject:
  m_Name: Boss
  m_Component:
  - component: {{fileID: 2}}
  - component: {{fileID: 3}}
  - component: {{fileID: 4}}
--- !u!4 &2
Transform:
  m_GameObject: {{fileID: 1}}
  m_Children: []
  m_Father: {{fileID: 0}}
--- !u!212 &3
SpriteRenderer:
  m_GameObject: {{fileID: 1}}
  m_Sprite: {{fileID: 21300000, guid: {PNG}, type: 3}}
--- !u!114 &4
MonoBehaviour:
  m_GameObject: {{fileID: 1}}
  m_Script: {{fileID: 11500000, guid: {BOSS}, type: 3}}
  helper: {{fileID: 0}}
"""


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory):
    root = write_project(
        tmp_path_factory.mktemp("related") / "Game",
        {
            "Assets/Scripts/Boss.cs": "public class Boss : BaseBoss { public Helper helper; }\n",
            "Assets/Scripts/Boss.cs.meta": meta(BOSS),
            "Assets/Scripts/BaseBoss.cs": "public class BaseBoss : UnityEngine.MonoBehaviour { }\n",
            "Assets/Scripts/Helper.cs": "public class Helper { }\n",
            "Assets/Scripts/Minion.cs": "public class Minion : Boss { }\n",
            "Assets/Prefabs/Boss.prefab": PREFAB,
            "Assets/Art/boss.png": b"\x89PNG\r\n\x1a\n" + bytes(64),
            "Assets/Art/boss.png.meta": meta(PNG, "TextureImporter"),
        },
    )
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def test_unranked_neighbours_come_by_the_reference_that_ties_them(ws) -> None:
    """Base class, subclass, type used, then what carries the script."""
    assert related_files(ws, ["Assets/Scripts/Boss.cs"], {"Assets/Scripts/Boss.cs"}, []) == [
        ("Assets/Scripts/BaseBoss.cs", "base class of Boss.cs"),
        ("Assets/Scripts/Minion.cs", "subclass of Boss.cs"),
        ("Assets/Scripts/Helper.cs", "type used by Boss.cs"),
        ("Assets/Prefabs/Boss.prefab", "carries script Boss.cs"),
    ]


def test_neighbours_the_query_ranked_come_first_in_its_order(ws) -> None:
    hits = [
        Hit(p, "csharp", "", 0, s, "")
        for p, s in (("Assets/Scripts/Helper.cs", 9.0), ("Assets/Scripts/Minion.cs", 5.0))
    ]
    shown = {"Assets/Scripts/Boss.cs"}
    assert [p for p, _ in related_files(ws, ["Assets/Scripts/Boss.cs"], shown, hits)] == [
        "Assets/Scripts/Helper.cs",
        "Assets/Scripts/Minion.cs",
        "Assets/Scripts/BaseBoss.cs",
        "Assets/Prefabs/Boss.prefab",
    ]


def test_files_without_text_and_files_shown_are_left_out(ws) -> None:
    """The prefab's sprite (a texture) is a neighbour, but there is nothing in it to read."""
    graph = ws.projects[0].graph
    assert ("Assets/Art/boss.png", "asset") in graph.uses("Assets/Prefabs/Boss.prefab")
    shown = {"Assets/Prefabs/Boss.prefab", "Assets/Scripts/BaseBoss.cs"}
    assert related_files(ws, ["Assets/Prefabs/Boss.prefab"], shown, []) == [
        ("Assets/Scripts/Boss.cs", "script on Boss.prefab"),
    ]


def test_a_related_entry_has_the_query_s_score_or_0(ws) -> None:
    """docs/cli.md: in --json a related file's reason is `related: ...` and its score the query's,
    or 0 when the query did not rank it."""
    from indexer.query.context import build_context
    from indexer.query.tokens import counter

    pack = build_context(ws, "minion", 2000, counter("estimate"))
    related = [f for f in pack.tier2.files if f.reason.startswith("related: ")]
    ranked = {h.path: h.score for h in ws.search("minion", 40, named=False)}
    assert related and all(f.score == ranked.get(f.path, 0.0) for f in related)
    assert any(f.score == 0.0 for f in related)  # BaseBoss.cs: one reference from Boss.cs, not ranked

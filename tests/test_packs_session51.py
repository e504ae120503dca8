"""Session 51's pack rule (docs/retrieval.md, "Session 51, what the packs miss"): a pack that shows
every candidate and still has room lays its files out again with larger shares, so the room goes
to a file's outline cut for its share instead of staying blank; never showing a file by less."""

from __future__ import annotations

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.context import build_context
from indexer.query.tokens import TokenCounter, counter, estimate, printed
from indexer.query.workspace import open_workspace

from .conftest import meta, mono_script, script_prefab, write_project

TURRET_FIELDS = (
    "range = 15f", "fireRate = 1f", "cost = 100", "upgradeCost = 200", "sellValue = 50", "turnSpeed = 10f",
    "damage = 20", "explosionRadius = 0f", 'enemyTag = "Enemy"',
)  # fmt: skip
TURRETS = ("StandardTurret", "MissileLauncher", "LaserBeamer", "StandardTurret_Upgraded", "MissileLauncher_Upgraded")


def _field(spec: str) -> str:
    """`range = 15f` as the C# field declaring it, its type told from the value."""
    name, value = spec.split(" = ")
    kind = "string" if value.startswith('"') else "float" if value.endswith("f") else "int"
    return f"    public {kind} {name} = {value};\n"


def _level(node_guid: str, nodes: int) -> str:
    """A level scene: `nodes` build spots, each a GameObject with the BuildNode script and its cost."""
    out = ["%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"]
    for i in range(nodes):
        go, tr, mb = 1000 + 3 * i, 1001 + 3 * i, 1002 + 3 * i
        out.append(
            f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n  - component: {{fileID: {tr}}}\n"
            f"  - component: {{fileID: {mb}}}\n  m_Name: Node ({i})\n  m_IsActive: 1\n"
            f"--- !u!4 &{tr}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children: []\n"
            "  m_Father: {fileID: 0}\n"
            f"--- !u!114 &{mb}\nMonoBehaviour:\n  m_GameObject: {{fileID: {go}}}\n  m_Enabled: 1\n"
            f"  m_Script: {{fileID: 11500000, guid: {node_guid}, type: 3}}\n  m_Name: \n"
            f"  buildCost: {50 + 10 * i}\n  hoverColor: {{r: 1, g: 0.8, b: 0.2, a: 1}}\n"
            "  notEnoughMoneyColor: {r: 1, g: 0, b: 0, a: 1}\n  positionOffset: {x: 0, y: 0.5, z: 0}\n"
        )
    return "".join(out)


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory):
    """A small tower defence: the turret script and its five prefabs (each holding its cost), the
    build spots of two levels and the shop: ten files, every one a candidate of "turret cost"."""
    turret, node, shop = "a1" * 16, "b2" * 16, "c3" * 16
    body = "".join(_field(f) for f in TURRET_FIELDS)
    files = {
        "Assets/Scripts/Turret.cs": mono_script(
            "Turret",
            body + "    public Transform partToRotate;\n    public Transform firePoint;\n"
            "    public GameObject bulletPrefab;\n    void Shoot() { Instantiate(bulletPrefab); }",
        ),
        "Assets/Scripts/Turret.cs.meta": meta(turret),
        "Assets/Scripts/BuildNode.cs": mono_script(
            "BuildNode",
            "    public int buildCost = 50;\n    public Color hoverColor;\n    public Turret turret;\n"
            "    void OnMouseDown() { }",
        ),
        "Assets/Scripts/BuildNode.cs.meta": meta(node),
        "Assets/Scripts/Shop.cs": mono_script(
            "Shop",
            "    public Turret standardTurret;\n    public Turret missileLauncher;\n"
            "    public void BuyTurret(Turret t) { }",
        ),
        "Assets/Scripts/Shop.cs.meta": meta(shop),
    }
    for i, name in enumerate(TURRETS):
        values = (
            f"  range: {15 + i}\n  fireRate: 1\n  cost: {100 + 50 * i}\n  upgradeCost: {200 + 50 * i}\n"
            f"  sellValue: {50 + 25 * i}\n  turnSpeed: 10\n  damage: {20 + 5 * i}\n  explosionRadius: {i}\n"
            "  enemyTag: Enemy\n  partToRotate: {fileID: 101}\n  firePoint: {fileID: 101}\n"
        )
        files[f"Assets/Prefabs/{name}.prefab"] = script_prefab(name, turret, values)
        files[f"Assets/Prefabs/{name}.prefab.meta"] = meta(f"{i + 1:032d}", "PrefabImporter")
    for level, guid in (("Level01", "d4" * 16), ("Level02", "e5" * 16)):
        files[f"Assets/Scenes/{level}.unity"] = _level(node, 14)
        files[f"Assets/Scenes/{level}.unity.meta"] = meta(guid, "DefaultImporter")
    root = write_project(tmp_path_factory.mktemp("packs51") / "TowerDefence", files)
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())])


def _section(text: str, path: str) -> list[str]:
    """The lines of a ranked file's section, from its header to the next."""
    lines = text.split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith(f"### {path}  ("))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("##")), len(lines))
    return lines[start:end]


def test_a_pack_that_shows_every_file_fills_its_room(ws) -> None:
    """ "turret cost" at 1,200 tokens: the ten files fit with room to spare. Laid out in their
    shares, the turret script showed its class and the two fields the task names (seen failing so
    without the rule); laid out again in the room left, it shows beside them the costs the turret
    prefabs set, the answer to the task, and every file is still there, none by less."""
    pack = build_context(ws, "turret cost", 1200, counter("estimate"))
    assert [f.path.rsplit("/", 1)[-1] for f in pack.tier2.files] == [
        "Turret.cs", "BuildNode.cs", "StandardTurret.prefab", "StandardTurret_Upgraded.prefab", "Shop.cs",
        "LaserBeamer.prefab", "MissileLauncher.prefab", "MissileLauncher_Upgraded.prefab", "Level01.unity",
        "Level02.unity",
    ]  # fmt: skip
    assert _section(pack.tier2.text, "Assets/Scripts/Turret.cs") == [
        "### Assets/Scripts/Turret.cs  (csharp; matched: cost, turret)",
        "L2 public class Turret : MonoBehaviour  [monobehaviour]",
        "  L6 public int cost = 100",
        "  L7 public int upgradeCost = 200",
        "values set in assets (the game runs with these, not the defaults in code):",
        "  Assets/Prefabs/LaserBeamer.prefab:23  LaserBeamer > Turret.cost: 200 (nothing uses this prefab)",
        "  Assets/Prefabs/MissileLauncher.prefab:23  MissileLauncher > Turret.cost: 150 (nothing uses this prefab)",
        "  … 3 more (unity-index refs Turret.cost)",
        "  Assets/Prefabs/LaserBeamer.prefab:24  LaserBeamer > Turret.upgradeCost: 300 (nothing uses this prefab)",
        "  Assets/Prefabs/MissileLauncher.prefab:24  MissileLauncher > Turret.upgradeCost: 250 (nothing uses"
        " this prefab)",
        "  … 3 more (unity-index refs Turret.upgradeCost)",
    ]
    assert pack.tokens == 1092


def test_a_pack_cut_for_room_is_not_laid_out_again(ws) -> None:
    """At 700 tokens the pack cannot show every file: nothing is left to fill, the turret script
    keeps the cut of its share."""
    pack = build_context(ws, "turret cost", 700, counter("estimate"))
    assert "Assets/Scenes/Level02.unity" not in [f.path for f in pack.tier2.files]
    assert '  L12 public string enemyTag = "Enemy"' not in _section(pack.tier2.text, "Assets/Scripts/Turret.cs")
    assert pack.tokens <= 700


@pytest.mark.parametrize("budget", [300, 600, 900, 1200, 1500, 2000, 3000, 5000])
def test_filled_packs_stay_within_their_budget(ws, budget: int) -> None:
    """Every counter, the one that recounts the joined text too: never over the budget."""
    for c in (counter("estimate"), printed(counter("estimate")), TokenCounter("plain", estimate)):
        for task in ("turret cost", "how much does the missile launcher cost to upgrade", "build node hover color"):
            pack = build_context(ws, task, budget, c)
            assert pack.tokens <= budget
            assert c.count("\n\n".join(t for t in (pack.tier1.text, pack.tier2.text) if t)) <= budget

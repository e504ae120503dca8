"""Compact outlines in context packs: a scene or prefab cut to the objects a task names, and a file
whose outline is longer than its share cut to what the task needs most, not shown as a bare path."""

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import name_stems, query_terms, stem
from indexer.query import outline
from indexer.query.context import (
    CUT_SHARE,
    FILE_FLOOR,
    FILE_SHARE,
    HIERARCHY_FILE_KINDS,
    HIERARCHY_OUTLINES,
    LEAD_FILES,
    LEAD_SHARE,
    RELATED_HEADER,
    RELATED_REASON,
    build_context,
)
from indexer.query.outline import Hierarchy, Node, outline_parts, render_parts
from indexer.query.tokens import counter
from indexer.query.views import cut_lines, file_view, weighted
from indexer.query.workspace import open_workspace
from tests.bench.packs import pack_files
from tests.conftest import write_project

DUNGEON = "Assets/Scenes/Dungeon.unity"


def _compact(ws, path: str, task: str) -> list[str]:
    project = ws.projects[0]
    parts = outline_parts(project.records.record(path), project.graph)
    return render_parts(parts, project.graph, {stem(t) for t in query_terms(task)})


def _section(text: str, path: str) -> list[str]:
    """The lines a pack shows for `path`, its header first."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(f"### {path}  ("))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    return lines[start:end]


def test_a_scene_cut_to_a_task_keeps_the_objects_it_names_and_counts_the_rest(ws) -> None:
    """An object is named by its own name, its prefab's, a component's class or a field's name;
    the objects above it come by their line alone; a component whose class is named keeps every
    field; the references kept are those that match."""
    assert _compact(ws, DUNGEON, "spawn interval of enemies") == [
        "… 7 more objects",
        "Goblin  (prefab instance of Assets/Prefabs/Enemies/Enemy.prefab)  L609",
        "Brute  (prefab instance of Assets/Prefabs/Enemies/EnemyBrute.prefab)  L693",
        "EnemySpawner  L767",
        "  components: Transform, EnemySpawner",
        "    EnemySpawner: enemyPrefab: Assets/Prefabs/Enemies/Enemy.prefab; spawnPoints: [2 items]; maxAlive: 4;"
        " spawnInterval: {x: 3, y: 6}; spawnOnStart: 1",
        "  SpawnPoint_A  L821",
        "    components: Transform",
        "  SpawnPoint_B  L852",
        "    components: Transform",
        "… 14 more objects",
        "references:",
        "  Assets/Prefabs/Enemies/Enemy.prefab (enemyPrefab)",
    ]


def test_the_objects_naming_the_most_words_are_kept_first(ws, monkeypatch: pytest.MonkeyPatch) -> None:
    """`HealButton` comes first in the tree but names one word; `RestartButton` names two."""
    monkeypatch.setattr(outline, "MATCHED_OBJECTS", 1)
    assert _compact(ws, DUNGEON, "restart button") == [
        "… 14 more objects",
        "HUD  [layer 5]  L980",
        "  … 4 more objects",
        "  GameOverScreen  [layer 5]  L1394",
        "    Panel  [layer 5, inactive]  L1447",
        "      … 2 more objects",
        "      RestartButton  [layer 5]  L1686",
        "        components: RectTransform, CanvasRenderer, Image, Button",
        "          Button: m_Interactable: 1; m_OnClick: UnityEvent (1 call)",
        "… 2 more objects",
        "UnityEvent calls:",
        "  L1302 HUD/HealButton > Button.m_OnClick(int 25) on Player -> DungeonCrawler.Player.PlayerHealth.Heal",
        "  L1808 HUD/GameOverScreen/Panel/RestartButton > Button.m_OnClick(void) on HUD/GameOverScreen"
        " -> DungeonCrawler.UI.GameOverScreen.Restart",
    ]


def test_unity_event_calls_are_cut_to_those_the_task_names_and_their_title_goes_with_them(ws) -> None:
    heal = _compact(ws, DUNGEON, "heal")
    calls = heal[heal.index("UnityEvent calls:") :]
    assert calls == [
        "UnityEvent calls:",
        "  L1302 HUD/HealButton > Button.m_OnClick(int 25) on Player -> DungeonCrawler.Player.PlayerHealth.Heal",
    ]
    spawn = _compact(ws, DUNGEON, "spawn interval")
    assert "UnityEvent calls:" not in spawn


def test_a_prefab_cut_to_a_task_keeps_its_root_with_its_components(ws) -> None:
    """What the prefab is, even when the task names nothing in it but one field."""
    assert _compact(ws, "Assets/Prefabs/Enemies/Enemy.prefab", "loot") == [
        "Enemy  [tag Enemy, layer 9]  L3",
        "  components: Transform, NavMeshAgent, CapsuleCollider, EnemyAI, EnemyHealth, DamageDealer",
        "    EnemyHealth: lootPrefab: None; lootChance: 0.25",
        "  … 1 more object",
    ]
    assert _compact(ws, "Assets/Prefabs/Enemies/Enemy.prefab", "weather") == [
        "Enemy  [tag Enemy, layer 9]  L3",
        "  components: Transform, NavMeshAgent, CapsuleCollider, EnemyAI, EnemyHealth, DamageDealer",
        "  … 1 more object",
    ]


def test_a_scene_too_long_for_its_share_is_shown_cut_to_the_task_not_by_its_path(ws) -> None:
    pack = build_context(ws, "where is the restart button of the game over screen wired?", 2000, counter("estimate"))
    shown = _section(pack.tier2.text, DUNGEON)
    assert "      RestartButton  [layer 5]  L1686" in shown
    assert len(shown) < 30  # the whole scene is 60 lines


def test_past_three_scenes_and_prefabs_in_outline_each_takes_half_a_files_share(ws) -> None:
    tok = counter("estimate")
    budget = 4000
    pack = build_context(ws, "enemy prefab health bar", budget, tok)
    kinds = ws.projects[0].records.kinds()
    tier2 = budget - pack.tier1.tokens - 2
    outlined = 0
    for i, entry in enumerate(pack.tier2.files):
        if kinds.get(entry.path) not in HIERARCHY_FILE_KINDS or entry.reason.startswith("related: "):
            continue
        share = LEAD_SHARE if i < LEAD_FILES else FILE_SHARE
        cap = max(int(tier2 * share), FILE_FLOOR)
        if outlined >= HIERARCHY_OUTLINES:
            assert entry.tokens < cap * CUT_SHARE, entry.path
        outlined += len(_section(pack.tier2.text, entry.path)) > 1
    assert outlined > HIERARCHY_OUTLINES


def test_cut_keeps_the_heaviest_lines_that_fit_in_their_order_and_counts_the_rest() -> None:
    """By weight (of equal weights, the earlier), shown in their order; a line that does not fit
    is passed over for a lighter one that does."""
    tok = counter("estimate")
    lines = ["class Save", "  L3 void Load()", "  L5 void SaveSlot()", "  L9 void EncryptSaveSlot()"]
    weights = [9, 0, 2, 3]
    head = ["### Save.cs  (csharp)"]

    def room(*kept: int) -> int:  # the head, its newline, the count line and each kept line with its own
        return (
            tok.bound_lines(head) + 1 + tok.count("… 4 more outline lines") + sum(tok.count(lines[i]) + 1 for i in kept)
        )

    assert cut_lines(head, lines, weights, room(0, 3, 2), tok) == [
        *head,
        lines[0],
        lines[2],
        lines[3],
        "… 1 more outline line",
    ]
    # SaveSlot() no longer fits; the shorter Load() after it does
    assert tok.count(lines[1]) < tok.count(lines[2])
    assert cut_lines(head, lines, weights, room(0, 3, 2) - 1, tok) == [
        *head,
        lines[0],
        lines[1],
        lines[3],
        "… 1 more outline line",
    ]
    assert cut_lines(head, lines, weights, room(0, 3), tok) == [*head, lines[0], lines[3], "… 2 more outline lines"]
    assert cut_lines(head, lines, weights, room(0, 3, 2, 1), tok) == [*head, *lines]
    assert cut_lines(head, lines, weights, room(), tok) is None


def test_cut_shows_a_line_too_long_for_its_room_without_its_attributes() -> None:
    """A class line of three `[RequireComponent]`s would take the room of the field the task asks
    about: it is shown bare, and a member's `[SerializeField]` stays where it fits."""
    tok = counter("estimate")
    requires = " ".join(f"[RequireComponent(typeof({c}))]" for c in ("Entity", "Animator", "CharacterController"))
    lines = [
        f"L22 {requires} public abstract class HumanoidController : NetworkActor  [monobehaviour]",
        '  L31 [Header("Movement Settings")] [SerializeField] protected float _movementSpeed',
    ]
    head = ["### HumanoidController.cs  (csharp)"]
    bare = "L22 public abstract class HumanoidController : NetworkActor  [monobehaviour]"
    room = tok.bound_lines(head) + 1 + tok.count("… 2 more outline lines") + tok.count(bare) + tok.count(lines[1]) + 2
    assert tok.count(lines[0]) > tok.count(bare) + tok.count(lines[1])  # in full it would fit alone
    assert cut_lines(head, lines, [3, 1], room, tok) == [*head, bare, lines[1]]
    assert cut_lines(head, lines, [3, 1], room + tok.count(lines[0]), tok) == [*head, *lines]


def test_an_ordered_cut_ends_at_the_first_line_that_does_not_fit_and_drops_a_bare_title() -> None:
    """A prefab's lines are in order, a title heading the lines after it: a cut of them never skips
    ahead, and a title whose lines were all left out goes too (`references:` alone says nothing)."""
    tok = counter("estimate")
    head = ["### Enemy_Simple.prefab  (prefab)"]
    note = "partial: binary-serialized Unity asset: only the files it references are indexed"
    lines = [note, "references:", "  Assets/Scripts/EnemyMovement.cs (external)", "  Assets/A.mat (external)"]

    def room(*kept: int) -> int:
        kept_cost = sum(tok.count(lines[i]) + 1 for i in kept)
        return tok.bound_lines(head) + 1 + tok.count("… 4 more outline lines") + kept_cost

    weights = [0, 0, 0, 0]
    assert cut_lines(head, lines, weights, room(0, 1), tok, ordered=True) == [*head, note, "… 3 more outline lines"]
    assert cut_lines(head, lines, weights, room(0, 1, 2), tok, ordered=True) == [
        *head,
        *lines[:3],
        "… 1 more outline line",
    ]
    assert cut_lines(head, lines, weights, room(1) + 2, tok, ordered=True) is None  # not the title alone
    # unordered (a script's members), the same lines are passed over to the first that fits
    assert cut_lines(head, lines, weights, room(1) + 2, tok) == [*head, lines[1], "… 3 more outline lines"]


# A pack where the lead's compact outline is cut a line or two after its namespace (1,170-1,190
# tokens leave the namespace out; the header's `matched:` words move the edge by a few tokens).
BUDGET = 1180


@pytest.fixture(scope="module")
def saves(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A save system of many slot methods, one of them encrypting: its compact outline for "encrypt
    the save slot" is far longer than a file's share of a small pack; ten more slot scripts."""
    methods = "\n".join(f"    public void SaveSlot{n}() {{ Write({n}); }}" for n in range(120))
    body = f"""namespace Game.Saving
{{
    public class SaveSystem
    {{
{methods}
        public void EncryptSaveSlot(byte[] key) {{ Encrypt(key); }}
        void Write(int slot) {{ }}
        void Encrypt(byte[] key) {{ }}
    }}
}}
"""
    files = {"Assets/Scripts/SaveSystem.cs": body}
    # more of the same shape, ranked after it: more than the pack shows, so its files keep their
    # shares (a pack showing every file lays them out again in the room left, session 51)
    for kind in ("Backup", "Cloud", "Local", "Quick", "Auto", "Debug", "Remote", "Legacy", "Console", "Profile"):
        many = "\n".join(f"    public void {kind}SaveSlot{n}() {{ }}" for n in range(120))
        files[f"Assets/Scripts/SaveSlot{kind}.cs"] = f"public class SaveSlot{kind}\n{{\n{many}\n}}\n"
    root = write_project(tmp_path_factory.mktemp("saves"), files)
    update(root, Config(workers=1))
    return root


def test_a_lead_file_longer_than_its_share_shows_its_best_members_not_its_path(saves: Path) -> None:
    ws = open_workspace(saves, [(saves, Config())])
    tok = counter("estimate")
    pack = build_context(ws, "encrypt the save slot", BUDGET, tok)
    shown = _section(pack.tier2.text, "Assets/Scripts/SaveSystem.cs")
    # the type, the member naming all three words, then the first of those naming two; the
    # namespace, which the path says, is the first line left out
    assert shown[1:4] == ["L3 public class SaveSystem", "  L5 public void SaveSlot0()", "  L6 public void SaveSlot1()"]
    assert "  L125 public void EncryptSaveSlot(byte[] key)" in shown
    assert "namespace Game.Saving" not in shown
    assert shown[-1].startswith("… ") and shown[-1].endswith(" more outline lines")
    tier2 = BUDGET - pack.tier1.tokens - 2
    assert pack.tier2.files[0].tokens < max(int(tier2 * LEAD_SHARE), FILE_FLOOR)


def test_a_file_after_the_leads_is_cut_to_half_its_share(saves: Path) -> None:
    ws = open_workspace(saves, [(saves, Config())])
    tok = counter("estimate")
    pack = build_context(ws, "encrypt the save slot", BUDGET, tok)
    third = pack.tier2.files[LEAD_FILES]
    shown = _section(pack.tier2.text, third.path)
    assert third.path.startswith("Assets/Scripts/SaveSlot") and shown[-1].endswith(" more outline lines")
    tier2 = BUDGET - pack.tier1.tokens - 2
    assert third.tokens < max(int(tier2 * FILE_SHARE), FILE_FLOOR) * CUT_SHARE
    assert pack.tier2.files[0].tokens > max(int(tier2 * FILE_SHARE), FILE_FLOOR) * CUT_SHARE  # a lead's is not


def test_the_scorers_count_a_file_outlined_only_when_the_pack_shows_more_than_its_header(ws) -> None:
    """A ranked file shown by its header line alone is shown, not outlined; a related file is
    shown and outlined when lines of its outline follow its entry, else only named."""
    task = "where is the restart button of the game over screen wired?"
    # a budget where some file has room for its header line alone and some related file is
    # listed with its outline, another without (which ones move with the packing)
    for budget in range(500, 3000, 100):
        pack = build_context(ws, task, budget, counter("estimate"))
        every, shown, outlined = (pack_files(pack, mode) for mode in ("all", "shown", "outlined"))
        ranked = [f.path for f in pack.tier2.files if not f.reason.startswith(RELATED_REASON)]
        headers = [p for p in ranked if len(_section(pack.tier2.text, p)) == 1]
        related = pack.tier2.text.partition(f"\n{RELATED_HEADER}\n")[2].split("\n")
        with_outline = [line.split("  (")[0] for line, after in itertools.pairwise(related) if after.startswith("  ")]
        alone = [line.split("  (")[0] for line in related if line and not line.startswith("  ")]
        alone = [p for p in alone if p not in with_outline]
        if headers and with_outline and alone:
            break
    assert headers and with_outline and alone
    assert shown == [p for p in every if p in ranked or p in with_outline]
    assert outlined == [p for p in shown if p not in headers]
    assert not set(alone) & set(shown)
    with pytest.raises(ValueError, match="unknown mode"):
        pack_files(pack, "some")


WORDS = ["Enemy", "Spawner", "Door", "Light", "Player", "Health"]


@st.composite
def _trees(draw) -> tuple[tuple[Node, ...], set[str]]:
    """A hierarchy in tree order (each object at most one level below the one before) of objects
    named from a few words, and the stems of a task naming some of them."""
    depths = [0]
    for _ in range(draw(st.integers(0, 40))):
        depths.append(draw(st.integers(0, depths[-1] + 1)))
    nodes = tuple(
        Node(d, f"{'  ' * d}{name}#{i}  L{i + 1}", (name,), ())
        for i, d in enumerate(depths)
        for name in [draw(st.sampled_from(WORDS))]
    )
    said = draw(st.sets(st.sampled_from(WORDS), max_size=3))
    return nodes, {stem(w) for w in said}


@settings(max_examples=200, deadline=None)
@given(_trees())
def test_a_cut_hierarchy_shows_each_object_once_with_those_above_it_and_counts_the_rest(tree) -> None:
    nodes, stems = tree
    lines = render_parts([Hierarchy(nodes)], None, stems)
    shown = [line for line in lines if not line.lstrip().startswith("…")]
    counted = sum(int(line.split()[1]) for line in lines if line.lstrip().startswith("…"))
    assert len(shown) + counted == len(nodes)
    heads = {n.head: i for i, n in enumerate(nodes)}
    kept = [heads[line] for line in shown]
    assert kept == sorted(kept)  # in tree order

    def above(i: int) -> list[int]:
        out = []
        while (i := next((j for j in range(i - 1, -1, -1) if nodes[j].depth < nodes[i].depth), -1)) >= 0:
            out.append(i)
        return out

    counts = [len(stems.intersection(name_stems(n.names[0]))) for n in nodes]
    chosen = sorted((i for i, c in enumerate(counts) if c), key=lambda i: (-counts[i], i))[: outline.MATCHED_OBJECTS]
    root = [0] if sum(n.depth == 0 for n in nodes) == 1 else []
    assert set(kept) == {*chosen, *root, *(a for i in chosen for a in above(i))}


def test_a_scene_cut_to_fit_keeps_its_compact_lines_in_order(ws) -> None:
    """docs/retrieval.md: cut to fit, a scene keeps its lines in order (no line is worth more than
    another), and a last line counts the rest."""
    project = ws.projects[0]
    view = file_view(project, DUNGEON)
    lines, weights = weighted(view, project.graph, {stem(t) for t in query_terms("restart button game over")})
    assert len(set(weights)) == 1 and len(lines) > 8
    tok = counter("estimate")
    room = tok.bound_lines(["h"]) + 1 + tok.count(f"… {len(lines)} more outline lines")
    room += sum(tok.count(line) + 1 for line in lines[:5])
    assert cut_lines(["h"], lines, weights, room, tok) == ["h", *lines[:5], f"… {len(lines) - 5} more outline lines"]


def test_a_scene_or_prefab_past_the_third_is_cut_to_more_than_a_quarter_share(tmp_path: Path) -> None:
    """Past the third scene or prefab in outline a file's share is halved; its cut takes
    HALVED_CUT_SHARE of that, not half again: a quarter share held no more than the header line."""
    from indexer.query.context import HALVED_CUT_SHARE

    from .test_questions import _prefab

    files = {}
    for k in range(40):  # more than the pack shows: a pack showing all grows their shares (session 51)
        parts = [(f"Turret{k}", "", ["MeshRenderer"])]
        name = "Turret Barrel Mount Pivot Muzzle Flash Point"
        parts += [(f"{n} {name}", f"Turret{k}", ["MeshRenderer"]) for n in range(12)]  # apart: not `alike`
        files[f"Assets/Prefabs/Turret{k}.prefab"] = _prefab(parts)
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    tok = counter("estimate")
    budget = 3000
    pack = build_context(ws, "which prefab has the turret barrel mount pivot muzzle flash point", budget, tok)
    tier2 = budget - pack.tier1.tokens - 2
    halved = [e for i, e in enumerate(pack.tier2.files) if i >= HIERARCHY_OUTLINES]
    assert halved
    cap = int(max(int(tier2 * FILE_SHARE), FILE_FLOOR) * CUT_SHARE)
    for entry in halved:
        shown = _section(pack.tier2.text, entry.path)
        assert shown[-1].endswith(" more objects") or shown[-1].endswith(" more outline lines"), shown
        assert int(cap * CUT_SHARE) < entry.tokens <= int(cap * HALVED_CUT_SHARE), (entry.path, entry.tokens)

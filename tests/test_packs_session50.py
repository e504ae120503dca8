"""Session 50's pack rules (docs/retrieval.md, "Session 50, what the packs miss"): past the first
four related lines, a related file is named by its path alone, so the room names more of them;
when the related lines need less than their share, the ranked files laid out again with the rest
keep the shares they had, so the room reaches further down the ranking."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.config import Config
from indexer.query.context import RELATED_REASON, build_context
from indexer.query.tokens import TokenCounter, counter, estimate, printed
from indexer.query.workspace import open_workspace
from tests.bench.packs import pack_files

HEADER = "\n## Related files (one reference from the files above)\n"


@pytest.fixture(scope="module")
def ws(indexed_fixture: Path):
    return open_workspace(indexed_fixture, [(indexed_fixture, Config())])


def test_related_lines_past_the_fourth_name_the_file_alone(ws) -> None:
    """The spawner's pack at 1,500 tokens: the first four lines say the reference (two with their
    outline), the rest are paths, and the two last (two more scripts on the scene) are named only
    because the lines before them are shorter. (Since session 54 the enemy prefab the spawner
    holds ranks second, `held_prefabs.py`: its animator, stats asset and material are related.)"""
    pack = build_context(ws, "enemy spawner waves", 1500, counter("estimate"))
    _, _, tail = pack.tier2.text.partition(HEADER)
    assert tail.split("\n") == [
        "Assets/Scripts/Core/GameManager.cs  (script on Dungeon.unity)",
        "  L13 public class GameManager : Singleton<GameManager>, ISaveable  [monobehaviour]",
        "  … 1 more outline line",
        "Assets/Animations/Enemy.controller  (asset referenced by Enemy.prefab)",
        "  animator controller Enemy  L3",
        "    animator parameter Speed [Float]  L12",
        "  … 11 more outline lines",
        "Assets/Data/SoundLibrary.asset  (asset referenced by Dungeon.unity)",
        "Assets/Data/Enemies/Goblin.asset  (asset referenced by Enemy.prefab)",
        "Assets/Materials/Enemy.mat",
        "Assets/Scripts/Combat/DamageDealer.cs",
        "Assets/Scripts/Audio/AudioManager.cs",
        "Assets/Scripts/Player/CameraFollow.cs",
    ]
    related = [(f.path, f.reason) for f in pack.tier2.files if f.reason.startswith(RELATED_REASON)]
    # the entries keep the reference the text leaves out (`--json`, MCP)
    assert related[4:] == [
        ("Assets/Materials/Enemy.mat", "related: asset referenced by Enemy.prefab"),
        ("Assets/Scripts/Combat/DamageDealer.cs", "related: script on Enemy.prefab"),
        ("Assets/Scripts/Audio/AudioManager.cs", "related: script on Dungeon.unity"),
        ("Assets/Scripts/Player/CameraFollow.cs", "related: script on Dungeon.unity"),
    ]
    assert pack.tokens <= 1500


def test_ranked_files_laid_out_again_keep_their_shares(ws) -> None:
    """ "melee weapon hits" at 2,200 tokens: its related lines need less than their 15%, so the
    ranked files are laid out again in the rest, each in the share of tier 2 it had the first
    time; the three combat files after the weapons are shown with their outlines. A share of the
    larger room let the files before them take fuller renderings, and they were left out."""
    pack = build_context(ws, "melee weapon hits", 2200, counter("estimate"))
    outlined = pack_files(pack, "outlined")
    assert outlined[:5] == [
        "Assets/Scripts/Weapons/MeleeWeapon.cs",
        "Assets/Prefabs/Weapons/Sword.prefab",
        "Assets/Scripts/Weapons/Weapon.cs",
        "Assets/Scripts/Weapons/WeaponData.cs",
        "Assets/Scripts/Weapons/WeaponPickup.cs",
    ]
    combat = [
        "Assets/Scripts/Combat/Projectile.cs",
        "Assets/Data/Weapons/Bow.asset",
        "Assets/Scripts/Combat/DamageDealer.cs",
    ]
    assert all(path in outlined for path in combat)
    assert pack.tokens <= 2200


@pytest.mark.parametrize("budget", [600, 800, 1000, 1200, 1500, 2000, 3000])
def test_packs_with_bare_related_lines_stay_within_their_budget(ws, budget: int) -> None:
    """Every counter, the one that recounts the joined text too: never over the budget."""
    for c in (counter("estimate"), printed(counter("estimate")), TokenCounter("plain", estimate)):
        for task in ("enemy spawner waves", "player takes damage and dies", "save game"):
            pack = build_context(ws, task, budget, c)
            assert pack.tokens <= budget
            assert c.count("\n\n".join(t for t in (pack.tier1.text, pack.tier2.text) if t)) <= budget

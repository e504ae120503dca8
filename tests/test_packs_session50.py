"""Session 50's pack rule (docs/retrieval.md, "Session 50, what the packs miss"): past the first
four related lines, a related file is named by its path alone, so the room names more of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.config import Config
from indexer.query.context import RELATED_REASON, build_context
from indexer.query.tokens import TokenCounter, counter, estimate, printed
from indexer.query.workspace import open_workspace

HEADER = "\n## Related files (one reference from the files above)\n"


@pytest.fixture(scope="module")
def ws(indexed_fixture: Path):
    return open_workspace(indexed_fixture, [(indexed_fixture, Config())])


def test_related_lines_past_the_fourth_name_the_file_alone(ws) -> None:
    """The spawner's pack at 1,500 tokens: the first four lines say the reference (two with their
    outline), the rest are paths, and the two last (the health script a scene's UnityEvent calls,
    the menu that loads the scene) are named only because the lines before them are shorter."""
    pack = build_context(ws, "enemy spawner waves", 1500, counter("estimate"))
    _, _, tail = pack.tier2.text.partition(HEADER)
    assert tail.split("\n") == [
        "Assets/Scripts/Core/GameManager.cs  (script on Dungeon.unity)",
        "  L13 public class GameManager : Singleton<GameManager>, ISaveable  [monobehaviour]",
        "  … 1 more outline line",
        "Assets/Data/SoundLibrary.asset  (asset referenced by Dungeon.unity)",
        "  ScriptableObject SoundLibrary: SoundLibrary (Assets/Scripts/Audio/SoundLibrary.cs)",
        "Assets/Scripts/Audio/AudioManager.cs  (script on Dungeon.unity)",
        "Assets/Scripts/Player/CameraFollow.cs  (script on Dungeon.unity)",
        "Assets/Scripts/UI/GameOverScreen.cs",
        "Assets/Scripts/UI/HUD.cs",
        "Assets/Scripts/Player/PlayerHealth.cs",
        "Assets/Scripts/UI/MainMenu.cs",
    ]
    related = [(f.path, f.reason) for f in pack.tier2.files if f.reason.startswith(RELATED_REASON)]
    # the entries keep the reference the text leaves out (`--json`, MCP)
    assert related[4:] == [
        ("Assets/Scripts/UI/GameOverScreen.cs", "related: script on Dungeon.unity"),
        ("Assets/Scripts/UI/HUD.cs", "related: script on Dungeon.unity"),
        ("Assets/Scripts/Player/PlayerHealth.cs", "related: UnityEvent target in Dungeon.unity"),
        ("Assets/Scripts/UI/MainMenu.cs", "related: loads Dungeon.unity by name"),
    ]
    assert pack.tokens <= 1500


@pytest.mark.parametrize("budget", [600, 800, 1000, 1200, 1500, 2000, 3000])
def test_packs_with_bare_related_lines_stay_within_their_budget(ws, budget: int) -> None:
    """Every counter, the one that recounts the joined text too: never over the budget."""
    for c in (counter("estimate"), printed(counter("estimate")), TokenCounter("plain", estimate)):
        for task in ("enemy spawner waves", "player takes damage and dies", "save game"):
            pack = build_context(ws, task, budget, c)
            assert pack.tokens <= budget
            assert c.count("\n\n".join(t for t in (pack.tier1.text, pack.tier2.text) if t)) <= budget

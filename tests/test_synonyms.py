"""A question in the player's words finds code written in the developer's (indexer/query/synonyms.py):
the fixture says `Enemy` and `Health`, never "monster" or "hp"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from indexer.query import synonyms
from indexer.query.context import build_context
from indexer.query.tokens import counter
from indexer.query.workspace import Workspace

QUESTION = "where do monsters lose hp"


def test_a_query_word_brings_the_other_words_of_its_group_once() -> None:
    """By stem: "monsters" does not search "monster" again; a group two terms share comes once."""
    assert synonyms.expansions(["monsters", "floor", "hp"]) == [
        ("monsters", ("creature", "enemy", "foe", "hostile", "mob")),
        ("hp", ("health", "hitpoints", "lives", "vitality")),
    ]
    assert synonyms.expansions(["hp", "health"]) == [("hp", ("hitpoints", "lives", "vitality"))]
    assert synonyms.expansions(["door", "gate"]) == [("door", ("hatch",))]
    assert synonyms.expansions(["short", "wait"]) == [("wait", ("delay",))]
    assert synonyms.synonym_words(["monsters", "floor"]) == ("creature", "enemy", "foe", "hostile", "mob")
    # a shield is no barrier: "add a shield powerup" brought a runner's obstacle barriers (session 26)
    assert synonyms.expansions(["shield"]) == [("shield", ("forcefield",))]


def test_words_the_project_does_not_use_find_it_through_their_synonyms(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    top = ws.search(QUESTION, limit=5)
    assert [(h.path, h.name) for h in top[:2]] == [
        ("Assets/Scripts/Enemies/EnemyHealth.cs", "DungeonCrawler.Enemies.EnemyHealth"),
        ("Assets/Scripts/Combat/Health.cs", "DungeonCrawler.Combat.Health"),
    ]
    ws.cache.clear()
    monkeypatch.setattr(synonyms, "expansions", lambda terms, too=(): [])
    without = [h.path for h in ws.search(QUESTION, limit=5)]
    assert "Assets/Scripts/Enemies/EnemyHealth.cs" not in without


def test_the_pack_says_which_word_a_synonym_stood_for(ws: Workspace) -> None:
    files = build_context(ws, QUESTION, 2000, counter("estimate")).tier2.files
    assert [(f.path, f.reason) for f in files[:2]] == [
        ("Assets/Scripts/Enemies/EnemyHealth.cs", "matched: enemy (for monsters); health (for hp)"),
        ("Assets/Scripts/Combat/Health.cs", "matched: health, lives (for hp)"),  # `IsAlive`
    ]
    # synonyms are looked for in names (the prefab's `onDeath` event), query words in the whole text
    reasons = {f.path: f.reason for f in build_context(ws, "enemy dies", 3000, counter("estimate")).tier2.files}
    assert reasons["Assets/Prefabs/Enemies/Enemy.prefab"] == "matched: enemy; death (for dies)"
    assert reasons["Assets/Scripts/Enemies/EnemyHealth.cs"] == "matched: dies, enemy"  # "death" in a comment


def test_a_word_the_project_uses_itself_is_hardly_moved_by_its_synonyms(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A synonym weighs by how much more of the project uses it than the query's own word:
    "speed" is in 14 of the fixture's files and "velocity" in 4, so the order stays (searched
    at the full synonym weight, `velocity` would put EnemyAI above EnemyStats)."""
    query = "jump speed"
    with_synonyms = [h.path for h in ws.search(query, limit=10, named=False)]
    ws.cache.clear()
    monkeypatch.setattr(synonyms, "expansions", lambda terms, too=(): [])
    assert [h.path for h in ws.search(query, limit=10, named=False)] == with_synonyms


def test_the_parts_of_a_name_the_task_quotes_are_not_searched_through_synonyms(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Who writes `AudioManager` knows the code's words: its part "audio" does not also search
    `sound`, so the scores are those of a search without synonyms."""
    query = "AudioManager plays twice"
    with_synonyms = [(h.path, h.score) for h in ws.search(query, limit=10, named=False)]
    ws.cache.clear()
    monkeypatch.setattr(synonyms, "expansions", lambda terms, too=(): [])
    assert [(h.path, h.score) for h in ws.search(query, limit=10, named=False)] == with_synonyms


def test_query_terms_are_a_new_list_each_time() -> None:
    """They are kept for the last queries: a caller changing its list changes no later answer."""
    from indexer.identifiers import query_terms

    first = query_terms("player health")
    first.append("changed")
    assert query_terms("player health") == ["player", "health", "playerhealth"]


def test_a_synonym_names_the_member_when_the_query_words_name_none(tmp_path) -> None:
    """ "energy" names nothing in `Runner`; its synonym "stamina" names `RestoreStamina`."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    members = ["void Move() { }", "void Jump() { }", "public void RestoreStamina(int a) { }"]
    source = "public class Runner\n{\n" + "".join(f"    {m}\n" for m in members) + "}\n"
    root = write_project(tmp_path / "P", {"Assets/Runner.cs": source})
    update(root, Config(workers=1))
    hit = open_workspace(root, [(root, Config())]).search("where is the energy refilled", limit=1)[0]
    assert (hit.path, hit.name, hit.line) == ("Assets/Runner.cs", "Runner.RestoreStamina", 5)


def test_synonyms_name_the_file_in_its_header_but_never_add_matched_lines(ws: Workspace) -> None:
    """The fixture says `Health` and `Enemy` in many lines; asked in other words, a pack lists
    no line for those synonyms (they would crowd out the files), only the words themselves."""
    import re

    text = build_context(ws, "where do monsters lose hp", 20000, counter("estimate")).tier2.text
    lines = [line for line in text.split("\n") if re.match(r"  L\d+: ", line)]
    assert not [line for line in lines if re.search("health|enemy|hitpoint", line, re.I)]
    assert "(csharp; matched: enemy (for monsters); health (for hp))" in text


def test_the_players_words_for_an_emote_a_colour_a_chance_and_an_undo_find_the_code(tmp_path) -> None:
    """ "reaction" is `EmoteType`, "colour" is `Color`, "odds" is `dropChance`, "rewind" is
    `undoKey`, "grip" and "slippery" are `friction`, "icy" is `Ice`, "endless" is `Infinite`: words
    a player or a designer
    says for what the code names otherwise."""
    files = {
        "Assets/EmoteType.cs": "public enum EmoteType { None, Smile, Frown, Shock }\n",
        "Assets/ShotTint.cs": "public class ShotTint { public UnityEngine.Color laserColor; }\n",
        "Assets/Loot.cs": "public class Loot { public float dropChance = 0.1f; }\n",
        "Assets/Controls.cs": "public class Controls { public KeyCode jumpKey; }\n",
        "Assets/Moves.cs": "public class Moves { public KeyCode undoKey; }\n",
        "Assets/Lobby.cs": "public class Lobby { public void Leave() { } }\n",
        "Assets/Tyre.cs": "public class Tyre { public float friction = 0.6f; }\n",
        "Assets/Surfaces/IceSurface.cs": "public class IceSurface { }\n",
        "Assets/Trays/InfiniteTray.cs": "public class InfiniteTray { void SpawnPeg() { } }\n",
        "Assets/Trays/SlotTray.cs": "public class SlotTray { void SpawnPeg() { } // pegs\n }\n",
    }
    ws = _workspace(tmp_path, files)
    for question, path in (
        ("add a thumbs-up to the reactions players can send", "Assets/EmoteType.cs"),
        ("change the colour of the laser", "Assets/ShotTint.cs"),
        ("raise the odds of an item falling out", "Assets/Loot.cs"),
        ("which key rewinds", "Assets/Moves.cs"),  # (`Controls.cs` first by its path, without)
        ("the wheels have too much grip", "Assets/Tyre.cs"),
        ("the road is far too slippery", "Assets/Tyre.cs"),
        ("the icy patch", "Assets/Surfaces/IceSurface.cs"),
        ("where do pegs spawn in an endless stream", "Assets/Trays/InfiniteTray.cs"),
        ("where do pegs spawn endlessly", "Assets/Trays/InfiniteTray.cs"),  # an adverb of a group's word
    ):
        assert ws.search(question, limit=1)[0].path == path, question


def test_a_players_words_for_captions_brightness_signing_in_and_the_inbox_find_the_code(tmp_path) -> None:
    """Groups added in session 24: "captions" is `Subtitle`, "brightness" is `gamma`, "signed in"
    is `Login`, "inbox" is `Mailbox`, "silent" is `Mute`, "elixir" is a `Potion`; each file sits
    beside a decoy that shares the question's other words."""
    files = {
        "Assets/UI/SubtitleView.cs": "public class SubtitleView { public void ShowLine(string text) { } }\n",
        "Assets/UI/DialogueBox.cs": "public class DialogueBox { public void ShowLine(string text) { } }\n",
        "Assets/Options/Display.cs": "public class Display { public float gamma; public Slider slider; }\n",
        "Assets/Options/AudioOptions.cs": "public class AudioOptions { public Slider slider; }\n",
        "Assets/Online/LoginFlow.cs": "public class LoginFlow { public void SecondAccount() { } }\n",
        "Assets/Online/Profile.cs": "public class Profile { public void SecondAccount() { } }\n",
        "Assets/Mail/MailboxView.cs": "public class MailboxView { public void ClearAll() { } }\n",
        "Assets/Items/Stash.cs": "public class Stash { public void ClearAll() { } }\n",
        "Assets/Audio/MusicMute.cs": "public class MusicMute { public void AfterCutscene() { } }\n",
        "Assets/Audio/MusicPlayer.cs": "public class MusicPlayer { public void AfterCutscene() { } }\n",
        "Assets/Items/PotionEffect.cs": "public class PotionEffect { public int healAmount = 20; }\n",
        "Assets/Items/Bandage.cs": "public class Bandage { public int healAmount = 5; }\n",
    }
    ws = _workspace(tmp_path, files)
    for question, path in (
        ("turn on captions", "Assets/UI/SubtitleView.cs"),
        ("the brightness slider", "Assets/Options/Display.cs"),
        ("signin with a second account", "Assets/Online/LoginFlow.cs"),
        ("clear all of the inbox", "Assets/Mail/MailboxView.cs"),
        ("music stays silent after a cutscene", "Assets/Audio/MusicMute.cs"),
        ("the elixir heal amount", "Assets/Items/PotionEffect.cs"),
    ):
        assert ws.search(question, limit=1)[0].path == path, question


def test_words_common_in_code_or_in_bug_reports_bring_no_synonyms() -> None:
    """docs/retrieval.md: "run", "hook" and "translate" (every `Run()`, event hook and
    `transform.Translate`) and "notice" ("I noticed...") are in no group; "sprint" neither."""
    assert synonyms.expansions(["run", "hook", "translate", "notice", "noticed", "sprint"]) == []
    assert synonyms.expansions(["detect"]) == [("detect", ("detection", "perceive", "perception"))]


def test_a_short_synonym_is_a_word_of_a_name_in_the_pack_not_a_piece_of_one(tmp_path) -> None:
    """ "icy" is searched as "ice": the pack says the ice rink was found through it, not the
    `DeviceManager` (whose name holds the letters) nor the price tag."""
    files = {
        "Assets/Levels/IceRink.cs": "public class IceRink { public float floorFriction; }\n",
        "Assets/Input/DeviceManager.cs": "public class DeviceManager { public int floorLevel; }\n",
        "Assets/Shop/PriceTag.cs": "public class PriceTag { public int floorPrice; }\n",
    }
    ws = _workspace(tmp_path, files)
    reasons = {f.path: f.reason for f in build_context(ws, "the icy floor", 4000, counter()).tier2.files}
    assert reasons["Assets/Levels/IceRink.cs"] == "matched: floor; ice (for icy)"
    assert reasons["Assets/Input/DeviceManager.cs"] == "matched: floor"
    assert reasons["Assets/Shop/PriceTag.cs"] == "matched: floor"


def _workspace(tmp_path, files: dict[str, str]) -> Workspace:
    """A made-up project of these files, indexed."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())])


def test_jumping_higher_is_a_jump_height(tmp_path) -> None:
    """A trial on a platformer: "make the character jump higher" ranked the class holding
    `maxJumpHeight` eighth, below five actions whose comment said "Higher priority wins"."""
    files = {
        "Assets/Hop.cs": "public class Hop { public float maxJumpHeight = 4; }\n",
        "Assets/Pad.cs": "public class JumpPad { public bool jumpOff; }\n",  # (first, without)
        "Assets/Loot.cs": "public class Loot { public float dropChance = 0.1f; }\n",
    }
    ws = _workspace(tmp_path, files)
    assert [h.path for h in ws.search("make the character jump higher", limit=2)] == ["Assets/Hop.cs", "Assets/Pad.cs"]


def test_a_comparative_searches_the_quality_the_code_names(tmp_path) -> None:
    """A trial on a logic simulator: "make wires thicker" ranked `WireThickness` eighth; the
    stemmer keeps "-er", so "thicker" met no `Thickness`. A comparative also searches the nouns of
    its quality; its adjective is not searched ("zoom further out" is not about `far`)."""
    assert synonyms.expansions(["make", "wires", "thicker"]) == [("thicker", ("thickness", "width"))]
    assert synonyms.expansions(["zoom", "further", "out"]) == []
    files = {
        "Assets/DrawSettings.cs": "public static class DrawSettings { public const float WireThickness = 0.02f; }\n",
        "Assets/WireEditor.cs": "public class WireEditor { void DeleteWire() { } void SplitWire() { } }\n",
        "Assets/Loot.cs": "public class Loot { public float dropChance = 0.1f; }\n",
    }
    ws = _workspace(tmp_path, files)
    assert ws.search("make wires thicker", limit=1)[0].path == "Assets/DrawSettings.cs"


def test_docs_state_how_many_synonym_groups_there_are() -> None:
    """docs/retrieval.md's count of groups is the table's (it said 139 while 141 were listed)."""
    groups = [line for line in synonyms._GROUPS.split("\n") if line.split()]
    doc = (Path(__file__).parent.parent / "docs" / "retrieval.md").read_text(encoding="utf-8")
    assert re.findall(r"in one of (\d+) groups", doc) == [str(len(groups))]

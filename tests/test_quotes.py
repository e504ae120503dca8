"""A task that quotes a text is about the file holding it (indexer/query/quotes.py)."""

from __future__ import annotations

from indexer.query.quotes import quote_line, quoted_phrases
from indexer.query.textmatch import holds_phrase
from indexer.query.texts import FileText
from indexer.query.workspace import Workspace


def test_the_texts_a_task_quotes_are_found_and_its_contractions_are_not() -> None:
    assert quoted_phrases('clicking "Heal (+25)" does nothing') == ["heal (+25)"]
    assert quoted_phrases("it says 'You don't have permission.' and I don't know why") == ["you don't have permission"]
    assert quoted_phrases("the “YOU WON!” banner and the ‘Play again’ button") == ["you won", "play again"]
    # a single quoted word is a name (the words search it already); players' and don't hold no quote
    assert quoted_phrases("the \"Restart\" button; the players' scores don't reset") == []
    # but one joining words is a file name, a path or a data file's function: held as written
    assert quoted_phrases('where is "Furniture.lua" read, and \'UI/Button\', "OnUpdate_Oxygen"?') == [
        "furniture.lua",
        "ui/button",
        "onupdate_oxygen",
    ]
    # a pasted passage is not a text the project holds as written; repeats count once; three at most
    assert quoted_phrases('"' + " ".join(["word"] * 13) + '"') == []
    assert quoted_phrases('"a b" "a b" "c d" "e f" "g h"') == ["a b", "c d", "e f"]


def test_a_phrase_is_held_across_wrapped_lines_and_cases() -> None:
    read = FileText(b"  m_Text: You cannot train in\n    one than one\n", None)
    assert holds_phrase(read, "you cannot train in one than one")
    assert not holds_phrase(read, "you cannot train in more than one")
    assert read.found[("phrase", "you cannot train in one than one")] is True  # kept with the text
    assert quote_line(read, "you cannot train in one than one") == (1, "m_Text: You cannot train in")
    assert quote_line(read, "one than one") == (2, "one than one")
    assert quote_line(read, "more than one") is None


def test_the_file_holding_a_quoted_label_ranks_first_and_says_so(ws: Workspace) -> None:
    """The Heal button's label lives in the scene; unquoted, the same words rank the scene fifth."""
    hits = ws.search('clicking "Heal (+25)" does nothing', limit=5)
    assert hits[0].path == "Assets/Scenes/Dungeon.unity"
    assert 'holds "heal (+25)"' in hits[0].reason
    # it points at the quoted text: its line, and the declaration (here the serialized field) above it
    assert (hits[0].name, hits[0].line, hits[0].snippet) == ("HUD/HealButton/Text.m_Text", 1393, "m_Text: Heal (+25)")
    plain = [h.path for h in ws.search("clicking Heal (+25) does nothing", limit=5)]
    assert plain.index("Assets/Scenes/Dungeon.unity") == 4


def test_a_quoted_text_no_file_holds_changes_nothing(ws: Workspace) -> None:
    quoted = ws.search('clicking "Heal (+26)" does nothing', limit=10)
    plain = ws.search("clicking Heal (+26) does nothing", limit=10)
    assert [(h.path, h.score, h.reason) for h in quoted] == [(h.path, h.score, h.reason) for h in plain]


def test_a_quoted_text_keeps_to_the_kind_and_path_asked_for(ws: Workspace) -> None:
    hits = ws.search('clicking "Heal (+25)" does nothing', limit=5, kind="csharp")
    assert all(h.path.endswith(".cs") for h in hits) and not any("holds" in h.reason for h in hits)
    hits = ws.search('clicking "Heal (+25)" does nothing', limit=5, path_prefix="Assets/Scripts")
    assert not any("holds" in h.reason for h in hits)


def test_a_holder_gains_the_best_score_times_its_prior_once(ws: Workspace) -> None:
    """`rank._quoted`: the holder of the quote gains the best match's score times its own prior
    (an inspector showing the label: still what it is), once however many quotes it holds; a file
    no BM25 match named enters with that gain alone, its prior read as for any candidate. Since
    session 33 a scene's or prefab's prior for a code task (0.7) is lifted off its gain: the label
    a bug report quotes is the game's, in its scenes and prefabs (`"New Game"` ranked below forty
    scripts saying `new GameObject(`)."""
    from indexer.model import Ranked
    from indexer.query.rank import _quoted

    project = ws.projects[0]
    scene, script = "Assets/Scenes/Dungeon.unity", "Assets/Scripts/Inventory/HealEffect.cs"
    text = 'clicking "Heal (+25)" or "Heal (+25)!" does nothing'
    asked = (None, None, ["clicking", "heal", "nothing"], ["clicking", "heal", "nothing"])
    ranked = {script: Ranked(script, 40.0, ["text match"])}
    assert _quoted(project, text, ranked, {}, asked) == {scene: "heal (+25)"}
    assert (ranked[scene].score, ranked[scene].reasons) == (40.0, ['holds "heal (+25)"'])
    assert ranked[script].score == 40.0
    ranked = {script: Ranked(script, 40.0, ["text match"]), scene: Ranked(scene, 10.0, ["text match"])}
    _quoted(project, text, ranked, {scene: 0.35}, asked)  # (0.7 of it the code task's, lifted: 0.5)
    assert (ranked[scene].score, ranked[scene].reasons) == (30.0, ["text match", 'holds "heal (+25)"'])


def test_holding_finds_the_files_with_every_word_and_outlines_are_read_together(ws: Workspace) -> None:
    """`Searcher.holding`: each file it gives holds every word (in its indexed text), kind and
    path filters apply. `Records.outlines`: what `outline` gives path by path, `[]` for a file
    without one."""
    project = ws.projects[0]
    held = [c.path for c in project.searcher.holding(["heal", "25"], 50, None, None)]
    assert "Assets/Scenes/Dungeon.unity" in held
    assert all("25" in project.texts.get(p).low and "heal" in project.texts.get(p).low for p in held)
    assert [c.path for c in project.searcher.holding(["heal", "25"], 50, "scene", None)] == [
        "Assets/Scenes/Dungeon.unity"
    ]
    assert project.searcher.holding(["heal", "25"], 50, None, "Assets/Scripts/UI") == []
    assert project.searcher.holding([], 50, None, None) == []
    paths = ["Assets/Scripts/Combat/Health.cs", "Assets/Scenes/Dungeon.unity", "Assets/Nowhere.cs"]
    both = project.records.outlines(paths)
    assert both == {p: project.records.outline(p) for p in paths}
    assert both["Assets/Nowhere.cs"] == b"[]" and both["Assets/Scripts/Combat/Health.cs"] != b"[]"


def test_the_file_naming_a_quoted_file_name_ranks_first(tmp_path) -> None:
    """A trial: `query '"Furniture.lua"'` ranked `Furniture.cs` and two more before the one line
    loading the file (`LoadFunctions("Furniture.lua", ...)`), a quoted single word being taken
    for a name; the Lua functions the game's data names were not searched at all."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    furniture = "public class Furniture {\n  public string luaFunction;\n  public void RunLua(string lua) { }\n}\n"
    mods = (
        "public class ModsManager {\n"
        "  void LoadMainSceneFiles() {\n"
        '    LoadFunctions("Furniture.lua", "Furniture");\n'
        "  }\n"
        "  void LoadFunctions(string file, string name) { }\n"
        "}\n"
    )
    need = "-- needs\nfunction OnUpdate_Oxygen( need, deltaTime )\n  need.Amount = 0\nend\n"
    files = {"Assets/Furniture.cs": furniture, "Assets/ModsManager.cs": mods, "Assets/StreamingAssets/Need.lua": need}
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    hit = ws.search('where is "Furniture.lua" read', limit=2)[0]
    loading = 'LoadFunctions("Furniture.lua", "Furniture");'
    assert (hit.path, hit.line, hit.snippet) == ("Assets/ModsManager.cs", 3, loading)
    hit = ws.search('what does "OnUpdate_Oxygen" do', limit=1)[0]  # Lua is searched by its text
    assert (hit.path, hit.line) == ("Assets/StreamingAssets/Need.lua", 2)


def test_a_quote_past_a_big_scene_s_search_outline_is_named_by_its_own_object(tmp_path) -> None:
    """A trial: a quoted message in a big scene pointed at its line but named
    `OverlayScreen/PerformanceHolder.m_Padding`, the last of the outline's 400 entries, far above."""
    from indexer.build.documents import MAX_OUTLINE_ENTRIES
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    from .conftest import write_project

    docs = ["%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"]
    for i in range(1, MAX_OUTLINE_ENTRIES + 2):
        docs.append(f"--- !u!1 &{i}\nGameObject:\n  m_Component: []\n  m_Name: Rock{i}\n  m_IsActive: 1\n")
    docs.append("--- !u!1 &9000\nGameObject:\n  m_Component:\n  - component: {fileID: 9001}\n  m_Name: Message\n")
    docs.append(
        "--- !u!114 &9001\nMonoBehaviour:\n  m_GameObject: {fileID: 9000}\n  m_Enabled: 1\n"
        "  m_Script: {fileID: 11500000, guid: 5f7201a12d95ffc409449d95f23cf332, type: 3}\n"
        "  m_Text: You may have tapped too fast.\n"
    )
    root = write_project(tmp_path / "P", {"Assets/Game.unity": "".join(docs)})
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    hit = ws.search('it says "You may have tapped too fast"', limit=1)[0]
    assert (hit.name, hit.snippet) == ("Message.m_Text", "m_Text: You may have tapped too fast.")

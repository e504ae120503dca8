"""UI Toolkit layouts (`scanners/uxml.py`, docs/indexing.md): elements, the custom elements'
classes in the graph, the style sheets and templates they include."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.model import Ref
from indexer.query.workspace import open_workspace, projects_at
from indexer.scanners import scan
from indexer.scanners.uxml import MAX_ELEMENTS

from .conftest import meta, run_cli, write_project
from .test_indexing import CONFIG

STYLE = "c737b2b4b88a73b488932f7d380c919c"
PANEL = """<ui:UXML xmlns:ui="UnityEngine.UIElements" xmlns:uie="UnityEditor.UIElements" xmlns:g="Game.UI">
    <Style src="project://database/Assets/UI/Pause.uss?fileID=7433441132597879392&amp;guid=STYLE&amp;type=3#Pause"/>
    <Game.UI.PausePanel name="pause-panel">
        <ui:Label text="Paused &amp; waiting" name="title" class="title"/>
        <ui:Button text="Resume" name="resume-button"/>
        <!-- <ui:Button text="Quit" name="quit-button"/>
        -->
        <g:HoldButton
            name="restart-button" text="Restart"/>
        <ui:VisualElement/>
    </Game.UI.PausePanel>
</ui:UXML>
""".replace("STYLE", STYLE)


def test_a_layout_records_its_elements_their_classes_and_its_style_sheet() -> None:
    rec = scan("Assets/UI/Pause.uxml", "uxml", PANEL.encode())
    assert (rec.status, rec.note) == ("ok", "")
    assert [(s.kind, s.name, s.line, s.signature) for s in rec.symbols] == [
        ("ui_element", "pause-panel", 3, "PausePanel #pause-panel"),
        ("ui_element", "title", 4, 'Label #title "Paused & waiting"'),
        ("ui_element", "resume-button", 5, 'Button #resume-button "Resume"'),
        ("ui_element", "restart-button", 8, 'HoldButton #restart-button "Restart"'),
        ("ui_element", "VisualElement", 10, "VisualElement"),
    ]
    assert list(rec.refs) == [
        Ref("guid", STYLE, 2, context="Style"),
        Ref("type", "Game.UI.PausePanel", 3, context="uxml", detail="pause-panel"),
        Ref("type", "Game.UI.HoldButton", 8, context="uxml", detail="restart-button"),
    ]


def test_a_half_edited_or_undecodable_layout_keeps_what_it_holds() -> None:
    rec = scan(
        "Assets/UI/Broken.uxml", "uxml", b'<ui:UXML xmlns:ui="UnityEngine.UIElements">\n<ui:Button name="ok"/>\n<ui:Lab'
    )
    assert [(s.name, s.line) for s in rec.symbols] == [("ok", 2)]
    rec = scan("Assets/UI/Latin1.uxml", "uxml", b'<ui:Label text="caf\xe9" name="menu"/>')
    assert rec.note == "invalid UTF-8 at byte 19" and [s.name for s in rec.symbols] == ["menu"]
    quoted = "<ui:Label text='single' name='quoted'/>\n<ui:Label text=\"" + "long " * 40 + '" name="long"/>'
    rec = scan("Assets/UI/Quotes.uxml", "uxml", quoted.encode())
    assert [s.signature for s in rec.symbols] == ['Label #quoted "single"', f'Label #long "{("long " * 24)}"']
    declared = (
        '<!DOCTYPE ui [<!ENTITY big "boom">]>\n<ui:UXML xmlns:ui="UnityEngine.UIElements">\n'
        '<ui:Template name="Row" src="project://database/Assets/UI/Row.uxml?fileID=9197481963319205126'
        '&amp;guid=E5E5E5E5E5E5E5E5E5E5E5E5E5E5E5E5&amp;type=3#Row"/>\n<ui:Label text="&big;" name="entity"/>'
    )
    rec = scan("Assets/UI/Declared.uxml", "uxml", declared.encode())
    assert [s.signature for s in rec.symbols] == ['Label #entity "&big;"']  # an entity is never expanded
    assert list(rec.refs) == [Ref("guid", "e5" * 16, 3, context="Template")]
    many = "".join(f'<ui:Label name="row{i}"/>\n' for i in range(2100)).encode()
    rec = scan("Assets/UI/Rows.uxml", "uxml", many)
    assert len(rec.symbols) == 2000 and rec.note == "first 2000 elements recorded"


def test_refs_on_a_custom_element_s_class_list_the_layouts_that_place_it(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/UI/HoldButton.cs": "namespace Game.UI { public class HoldButton : Button { } }\n",
            "Assets/UI/HoldButton.cs.meta": meta("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"),
            "Assets/UI/PausePanel.cs": "namespace Game.UI { public class PausePanel : VisualElement { } }\n",
            "Assets/UI/PausePanel.cs.meta": meta("b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"),
            "Assets/UI/Pause.uxml": PANEL,
            "Assets/UI/Pause.uxml.meta": meta("c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3", "ScriptedImporter"),
            "Assets/UI/Pause.uss": ".title { font-size: 40px; }\n",
            "Assets/UI/Pause.uss.meta": meta(STYLE, "ScriptedImporter"),
        },
    )
    update(root, CONFIG)
    graph = open_workspace(root, projects_at(root)).projects[0].graph
    assert graph.uses("Assets/UI/Pause.uxml") == (
        ("Assets/UI/HoldButton.cs", "type"),
        ("Assets/UI/Pause.uss", "asset"),
        ("Assets/UI/PausePanel.cs", "type"),
    )
    # the walk goes from the class to the panel that places it
    hits = open_workspace(root, projects_at(root)).search("hold button", 5)
    said = [h.reason for h in hits if h.path == "Assets/UI/Pause.uxml"]
    assert said == ["text match; the layout uses Assets/UI/HoldButton.cs"]  # (session 33: said of the file)
    refs = run_cli("refs", "HoldButton", "--project", str(root))
    assert refs.returncode == 0, refs.stderr
    assert "in assets (1):\n  Assets/UI/Pause.uxml:8 [uxml]  Game.UI.HoldButton\n" in refs.stdout


def test_a_quoted_value_may_hold_a_closing_bracket() -> None:
    """XML allows `>` in an attribute's value: the tag goes on to the `>` outside the quotes."""
    text = b'<ui:Label text="HP > 0" name="hp"/>\n<ui:Label text=\'a>b\' name="ab"/>\n<ui:Button name="ok">'
    rec = scan("Assets/UI/Signs.uxml", "uxml", text)
    assert [(s.name, s.line, s.signature) for s in rec.symbols] == [
        ("hp", 1, 'Label #hp "HP > 0"'),
        ("ab", 2, 'Label #ab "a>b"'),
        ("ok", 3, "Button #ok"),
    ]
    # a quote left open reads as a character: the tag still ends at its own `>`
    rec = scan("Assets/UI/Open.uxml", "uxml", b'<ui:Label name="x" text="open/>\n<ui:Button name="y"/>')
    assert [(s.name, s.line) for s in rec.symbols] == [("x", 1), ("y", 2)]


def test_a_tag_that_never_closes_is_read_in_linear_time() -> None:
    """A tag with no `>` cost the square of its length: a 40 KB word in it took 11 s, a 40 KB run of
    spaces 17 s, this test's 100 KB word 105 s (the old pattern let the name and the attributes
    trade characters, and tried an attribute's name at every letter of a word)."""
    import time

    for tail in (b"x" * 100_000, b" " * 100_000, b'a="1" ' * 20_000 + b"b" * 50_000 + b">"):
        t0 = time.monotonic()
        rec = scan("Assets/UI/Endless.uxml", "uxml", b'<ui:Button name="first"/>\n<ui:Button ' + tail)
        assert time.monotonic() - t0 < 5
        assert [s.name for s in rec.symbols][:1] == ["first"]


def test_an_element_in_a_default_namespace_of_the_game_names_its_class() -> None:
    """`xmlns="Game.UI"` puts the layout's unprefixed elements in the game's namespace (XML's
    default namespace): `<HoldButton>` is then `Game.UI.HoldButton`; under Unity's own, it is not."""
    text = (
        b'<ui:UXML xmlns:ui="UnityEngine.UIElements" xmlns="Game.UI">\n<HoldButton name="hold"/>\n'
        b'<ui:Button name="ok"/>\n<Other.Panel name="panel"/>\n</ui:UXML>'
    )
    rec = scan("Assets/UI/Default.uxml", "uxml", text)
    assert list(rec.refs) == [
        Ref("type", "Game.UI.HoldButton", 2, context="uxml", detail="hold"),
        Ref("type", "Other.Panel", 4, context="uxml", detail="panel"),
    ]
    rec = scan("Assets/UI/Unity.uxml", "uxml", b'<UXML xmlns="UnityEngine.UIElements">\n<Button name="ok"/>\n</UXML>')
    assert [s.signature for s in rec.symbols] == ["Button #ok"] and list(rec.refs) == []


def test_character_data_holds_no_element() -> None:
    """`<![CDATA[...]]>` is text, as a comment is: a tag written in it is not an element."""
    text = b'<ui:UXML xmlns:ui="UnityEngine.UIElements">\n<![CDATA[\n<ui:Button name="quoted"/>\n]]>\n'
    text += b'<ui:Button name="real"/>'
    rec = scan("Assets/UI/Data.uxml", "uxml", text)
    assert [(s.name, s.line) for s in rec.symbols] == [("real", 5)]


def test_a_layout_of_exactly_the_cap_says_nothing_was_left_out() -> None:
    rows = "".join(f'<ui:Label name="row{i}"/>\n' for i in range(MAX_ELEMENTS))
    rec = scan("Assets/UI/Rows.uxml", "uxml", rows.encode())
    assert (len(rec.symbols), rec.note) == (MAX_ELEMENTS, "")
    rec = scan("Assets/UI/Rows.uxml", "uxml", (rows + '<ui:Label name="one-more"/>').encode())
    assert (len(rec.symbols), rec.note) == (MAX_ELEMENTS, f"first {MAX_ELEMENTS} elements recorded")


def test_an_element_s_text_is_one_line_with_its_character_references_read() -> None:
    """XML reads a line break or tab written in a quoted value as a space, and `&#10;` (how UI
    Builder writes a line break in a label) as a line break: the signature shows the text on one
    line, as `describe` and the outlines need it. A reference to no character is kept as written."""
    text = b'<ui:Label text="Line one\n\tLine two&#10;three &#x41;&#66;" name="x"/>\n'
    text += b'<ui:Label text="&#0;&#x110000;" name="y"/>'
    rec = scan("Assets/UI/Lines.uxml", "uxml", text)
    assert [(s.name, s.line, s.signature) for s in rec.symbols] == [
        ("x", 1, 'Label #x "Line one Line two three AB"'),
        ("y", 3, 'Label #y "&#0;&#x110000;"'),
    ]

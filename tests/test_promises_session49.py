"""Promises of docstrings in modules changed over sessions 48-49 that no test held: each test
was seen failing with the mechanism it pins broken (the commit that added it says how)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.model import Ranked
from indexer.query import channels, keys_pressed
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, run_cli, script_prefab, write_project
from .test_event_channels_session48 import DEFEAT_TASK, DIE, ENERGY, LOST, PLAYER, _channel_ref, _reasons, _survivor, g
from .test_trials2_session47 import _shop


def _project(root: Path):
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())]).projects[0]


def test_past_readers_read_files_saying_keycode_no_key_reader_is_found(tmp_path: Path) -> None:
    """keys_pressed.key_readers: "none when more than READERS_READ do" (40 files saying `KeyCode`
    or `GetKey`): their texts are not read; at 40 the one reading M is found."""
    assert keys_pressed.READERS_READ == 40
    files = {"Assets/Hud.cs": mono_script("Hud", "    void Update() { if (Input.GetKey(KeyCode.M)) { } }")}
    files |= {
        f"Assets/Debug{i:02}.cs": mono_script(f"Debug{i:02}", "    void Update() { Input.GetKey(KeyCode.F1); }")
        for i in range(39)
    }
    at = write_project(tmp_path / "At", files)
    assert keys_pressed.key_readers(_project(at), {"m"}) == {"Assets/Hud.cs": "KeyCode.M"}
    past = write_project(
        tmp_path / "Past", {**files, "Assets/Debug39.cs": files["Assets/Debug00.cs"].replace("00", "39")}
    )
    assert keys_pressed.key_readers(_project(past), {"m"}) == {}


def _receivers(tmp_path: Path, n: int) -> dict[str, list[str]]:
    """The shop's project with `n` scripts more receiving `OnBuyMenu`: the reasons of those
    `raise_pressed_keys` raised for "press B", from a ranking holding the shop's menu alone."""
    extra = {
        f"Assets/Scripts/Listener{i}.cs": (
            "using UnityEngine;\nusing UnityEngine.InputSystem;\n"
            f"public class Listener{i} : MonoBehaviour\n{{\n    void OnBuyMenu(InputValue value) {{ }}\n}}\n"
        )
        for i in range(n)
    }
    root = _shop(tmp_path)
    write_project(root, extra)
    ranked = {"Assets/Scripts/TowerShopMenu.cs": Ranked("Assets/Scripts/TowerShopMenu.cs", 10.0, ["text match"])}
    keys_pressed.raise_pressed_keys(_project(root), ranked, "When I press B, what opens the tower shop?")
    return {p: r.reasons for p, r in ranked.items() if p != "Assets/Scripts/TowerShopMenu.cs" and r.score == 8.0}


def test_a_keys_action_received_by_more_than_most_receivers_raises_none(tmp_path: Path) -> None:
    """keys_pressed.raise_pressed_keys: "at most MOST_RECEIVERS (3), each to KEY_SHARE (0.8) of the
    best match's score": three receivers of B's action are raised, four none."""
    assert (keys_pressed.MOST_RECEIVERS, keys_pressed.KEY_SHARE) == (3, 0.8)
    said = ["receives input action BuyMenu (<Keyboard>/b) as OnBuyMenu"]
    assert _receivers(tmp_path / "three", 2) == {
        "Assets/Scripts/Listener0.cs": said,
        "Assets/Scripts/Listener1.cs": said,
        "Assets/Scripts/PlayerEventListener.cs": said,
    }
    assert _receivers(tmp_path / "four", 3) == {}


def _carried(n: int) -> dict[str, str]:
    """`n` more prefabs carrying the player's `Energy`, holding no channel (its fields unset)."""
    extra = {}
    for i in range(n):
        extra[f"Assets/Prefabs/Copies/Player{i}.prefab"] = script_prefab(f"Player{i}", g(5))
        extra[f"Assets/Prefabs/Copies/Player{i}.prefab.meta"] = meta(g(80 + i), "PrefabImporter")
    return extra


def test_a_script_carried_by_more_than_channel_carriers_most_files_is_not_followed(tmp_path: Path) -> None:
    """channels.CHANNEL_CARRIERS_MOST (6): "a script carried by more files (a generic component) is
    not followed": `Energy` on six prefabs has its channel, on seven none."""
    assert channels.CHANNEL_CARRIERS_MOST == 6
    link = ((DIE, "raised", ((LOST, "heard"),)),)
    six = _project(_survivor(tmp_path / "six", _carried(5)))
    assert channels.channel_links(six, ENERGY) == link
    seven = _project(_survivor(tmp_path / "seven", _carried(6)))
    assert channels.channel_links(seven, ENERGY) == ()


def _raising(n: int) -> dict[str, str]:
    """`Energy` raising `n` channels (its death's and n - 1 more), each heard by a menu of its own."""
    fields = "".join(f"    public VoidEventChannelSO alarm{i};\n" for i in range(1, n))
    raises = "".join(f" alarm{i}.RaiseEvent();" for i in range(1, n))
    refs = _channel_ref("playerDieEventChannel", g(2)) + "".join(
        _channel_ref(f"alarm{i}", g(100 + i)) for i in range(1, n)
    )
    extra = {
        ENERGY: mono_script(
            "Energy",
            f"    public VoidEventChannelSO playerDieEventChannel;\n{fields}    float energy;\n"
            "    // the player's energy runs out over time\n"
            "    void Update() { energy -= Time.deltaTime; if (energy <= 0) { playerDieEventChannel.RaiseEvent();"
            f"{raises} }} }}",
        ),
        PLAYER: script_prefab("Player", g(5), refs),
    }
    for i in range(1, n):
        extra[f"Assets/Events/Alarm{i}.asset"] = data_asset(g(1), f"Alarm{i}", "")
        extra[f"Assets/Events/Alarm{i}.asset.meta"] = meta(g(100 + i), "NativeFormatImporter")
        extra[f"Assets/Scripts/UI/Siren{i}.cs"] = mono_script(
            f"Siren{i}",
            "    public VoidEventChannelSO on;\n    void Awake() { on.OnEventRaised += Ring; }\n    void Ring() {}",
        )
        extra[f"Assets/Scripts/UI/Siren{i}.cs.meta"] = meta(g(110 + i))
        extra[f"Assets/Prefabs/UI/Siren{i}.prefab"] = script_prefab(
            f"Siren{i}", g(110 + i), _channel_ref("on", g(100 + i))
        )
        extra[f"Assets/Prefabs/UI/Siren{i}.prefab.meta"] = meta(g(120 + i), "PrefabImporter")
    return extra


def test_a_script_raising_more_than_channels_most_channels_is_not_followed(tmp_path: Path) -> None:
    """channels.CHANNELS_MOST (3): "a script raising or hearing more channels (a UI manager) is not
    followed": `Energy` raising three channels brings the defeat menu hearing one, raising four none."""
    assert channels.CHANNELS_MOST == 3
    three = _survivor(tmp_path / "three", _raising(3))
    assert len(channels.channel_links(_project(three), ENERGY)) == 3
    said = "listens to Assets/Events/PlayerDie.asset, which Energy.cs raises"
    assert _reasons(three, DEFEAT_TASK, 20)[LOST] == said
    four = _survivor(tmp_path / "four", _raising(4))
    assert len(channels.channel_links(_project(four), ENERGY)) == 4
    assert not any("listens" in why or "event channel" in why for why in _reasons(four, DEFEAT_TASK, 20).values())


def test_files_so_named_past_files_named_are_counted_and_a_name_past_max_name_names_none(tmp_path: Path) -> None:
    """lookup.FILES_NAMED (3): `refs Golem` offers the first three files named Golem, by path, and
    counts the rest (the list was cut at three unsaid, where members so named say `… 2 more`);
    a name longer than MAX_NAME (255) names no file (SQLite refuses a LIKE pattern past 50,000
    bytes: `refs` of a pasted 60,000-letter word was its error)."""
    from indexer.query.lookup import MAX_NAME, unknown_target_hint

    assert MAX_NAME == 255
    head = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &1\nGameObject:\n  m_Name: Golem\n"
    files = {f"Assets/{folder}/Golem.prefab": head for folder in ("A", "B", "C", "D")}
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    r = run_cli("refs", "Golem", "--project", str(root))
    assert r.stderr == (
        "error: Golem: no type, member, file, GUID or assembly of that name; files so named: Assets/A/Golem.prefab,"
        " Assets/B/Golem.prefab, Assets/C/Golem.prefab, … 1 more (`unity-index refs Assets/A/Golem.prefab`);"
        " `unity-index query Golem` searches by words\n"
    )
    ws = open_workspace(root, [(root, Config())])
    assert unknown_target_hint(ws, "Golem")[1] == [
        "Assets/A/Golem.prefab",
        "Assets/B/Golem.prefab",
        "Assets/C/Golem.prefab",
    ]
    assert unknown_target_hint(ws, "g" * 60_000) == ("", [])


def test_a_style_sheet_keeps_max_rules_saying_so_past_them_and_a_selector_cut_at_max_selector() -> None:
    """scanners/uss.py's conventions: "the note 'first 2000 rules recorded' only when more were left
    out"; a rule's selectors "white space collapsed, at most MAX_SELECTOR (120) characters"."""
    from indexer.scanners import uss

    assert (uss.MAX_RULES, uss.MAX_SELECTOR) == (2000, 120)
    rules = "".join(f".r{i} {{ width: {i}px; }}\n" for i in range(2000))
    whole = uss.scan("Assets/UI/Many.uss", rules.encode())
    assert (len(whole.symbols), whole.note) == (2000, "")
    past = uss.scan("Assets/UI/Many.uss", (rules + ".last { width: 1px; }\n").encode())
    assert (len(past.symbols), past.symbols[-1].name, past.note) == (2000, ".r1999", "first 2000 rules recorded")
    long = ",\n".join(f".panel-{i:03}  .item" for i in range(20))  # 20 selectors of 16 characters, 2 spaces
    [rule] = uss.scan("Assets/UI/Long.uss", (long + " { width: 1px; }").encode()).symbols
    said = ", ".join(f".panel-{i:03} .item" for i in range(20))[:120]
    assert (rule.name, rule.signature, rule.line) == (said, said, 1)
    assert said.endswith(", .panel-006 .") and len(said) == 120


def test_a_nested_member_is_followed_nesting_fields_up_and_its_value_cut_at_value_chars(tmp_path: Path) -> None:
    """nested_values: a class held by another is followed up to a script's field "NESTING (3)
    classes deep", and a value's line shows VALUE_CHARS (100) characters of it: `Deep.n`, three
    fields below the script (`a.b.c.n`), has its value and its long note cut; `Deeper.x`, four
    below, has none."""
    from indexer.query import nested_values
    from indexer.query.lookup import find_references

    from .test_trials_session34 import _behaviour, _header, _object

    assert (nested_values.NESTING, nested_values.VALUE_CHARS) == (3, 100)
    script = "c3" * 16
    note = "a very long note " * 9  # 153 characters
    fields = f"  a:\n    b:\n      c:\n        n: 7\n        note: {note}\n        d:\n          x: 9\n"
    classes = "".join(
        f"[System.Serializable]\npublic class {name}\n{{\n{body}}}\n"
        for name, body in (
            ("Mid", "    public Inner b;\n"),
            ("Inner", "    public Deep c;\n"),
            ("Deep", "    public int n;\n    public string note;\n    public Deeper d;\n"),
            ("Deeper", "    public int x;\n"),
        )
    )
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Outer.cs": "using UnityEngine;\npublic class Outer : ScriptableObject\n{\n    public Mid a;\n}\n",
            "Assets/Outer.cs.meta": meta(script),
            "Assets/Classes.cs": classes,
            "Assets/Thing.asset": _header() + _object(100, "Thing", [110]) + _behaviour(110, 100, script, fields),
        },
    )
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    values = {m: [u.detail for u in find_references(ws, m)[1] if u.where == "asset"] for m in ("Deep.n", "Deep.note")}
    assert values == {
        "Deep.n": ["Thing > Outer.a.b.c.n: 7"],
        "Deep.note": [f"Thing > Outer.a.b.c.note: {note[:100]}"],
    }
    assert [u for u in find_references(ws, "Deeper.x")[1] if u.where == "asset"] == []

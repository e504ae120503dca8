"""Session 42, sweep: `describe`, `refs`, `query` and `context` over every file of four real projects."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.locate import references_of
from indexer.query.workspace import open_workspace
from indexer.store.reader import Records

from .conftest import meta, write_project

BINDINGS = "b1d" + "0" * 29


def _bindings(types: int) -> str:
    """One file declaring many types, each naming the next (an SDK's bindings: Discord's Core.cs)."""
    parts = [f"public struct T{i} {{ public T{(i + 1) % types} next; }}\n" for i in range(types)]
    return "namespace Sdk\n{\n" + "".join(parts) + "}\n"


def test_refs_of_a_file_declaring_many_types_decodes_each_using_file_once(tmp_path: Path, monkeypatch) -> None:
    """SS3D's Discord `Core.cs` (335 types, 147 KB) took 12.9 s to `describe` and 11.6 s to `refs`:
    the usages of each of its types decoded the record of every file naming that type again, one
    decode per reference row (`setdefault` evaluated its default each time), so the file itself
    was decoded 4,673 times. One answer decodes a using file once."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Sdk/Core.cs": _bindings(40),
            "Assets/Sdk/Core.cs.meta": meta(BINDINGS),
            "Assets/Game.cs": "public class Game { public Sdk.T0 first; public Sdk.T7 seventh; }\n",
            "Assets/Game.cs.meta": meta("9a3" + "0" * 29),
        },
    )
    update(root, Config(), full=True)
    ws = open_workspace(root, [(root, Config())])
    decoded: list[str] = []
    original = Records.record

    def counting(self: Records, path: str):
        decoded.append(path)
        return original(self, path)

    monkeypatch.setattr(Records, "record", counting)
    target, usages = references_of(ws, "Assets/Sdk/Core.cs", root)
    assert target is not None
    assert sorted({(u.path, u.line) for u in usages}) == [("Assets/Game.cs", 1)] + [
        ("Assets/Sdk/Core.cs", i) for i in range(3, 43)
    ]
    # the target's file, its types' usages and the objects carrying them: once each, not once per type
    assert (decoded.count("Assets/Sdk/Core.cs"), decoded.count("Assets/Game.cs")) == (3, 1)


def _callers(methods: int, padding: int) -> str:
    """A long class calling `Runner.Run` through a parameter in each of many methods."""
    fields = "".join(f"    public int field{i} = {i};\n" for i in range(padding))
    calls = "".join(f"    void Call{i}(Runner r{i}) {{ r{i}.Run(); }}\n" for i in range(methods))
    return f"public class Caller\n{{\n{fields}{calls}}}\n"


def test_refs_of_a_member_called_in_many_methods_of_a_long_file_reads_statements_not_the_file(
    tmp_path: Path,
) -> None:
    """Pal3's `ICommandExecutor.Execute` took 2.1 s and SS3D's `Mixin.Add` 2.2 s: each receiver
    (`r.Run()`: is `r` another class?) was looked up by a regex scan of the whole file, 13 ms in
    100 KB, once per method. The scan reads the statements holding the name alone, and finds the
    same declarations (measured: 2.1 s -> 0.3 s, by hand, not here)."""
    root = write_project(
        tmp_path / "P",
        {
            "Assets/Runner.cs": "public class Runner { public void Run() {} }\n",
            "Assets/Runner.cs.meta": meta("9a4" + "0" * 29),
            "Assets/Caller.cs": _callers(300, 6000),
            "Assets/Caller.cs.meta": meta("9a5" + "0" * 29),
        },
    )
    update(root, Config(), full=True)
    ws = open_workspace(root, [(root, Config())])
    target, usages = references_of(ws, "Runner.Run", root)
    assert target is not None
    assert [u.line for u in usages if u.path == "Assets/Caller.cs"] == list(range(6003, 6303))


def test_a_receivers_declarations_read_from_its_statements_are_those_a_scan_of_the_file_finds() -> None:
    """`_declaration_matches` finds what `re.finditer` over the whole text finds, for names
    declared as fields, parameters, locals, generics, arrays, loop variables and properties,
    several times in one statement or not at all."""
    import re

    from indexer.query.receivers import _DECLARATION, _SEPARATOR, _declaration_matches

    text = (
        "class A { Image m_Track; List<Foo> items = new(); Foo[] arr; Dictionary<int, Bar> map;\n"
        "  void F(Foo a, Bar b) { var c = a; Foo d; foreach (var e in items) { e.Run(); }\n"
        "    for (int i = 0; i < arr.Length; i++) arr[i].Run(); Foo? maybe = null; }\n"
        "  Foo Prop { get; set; } Foo a2, b2; // Foo a in a comment\n"
        "  (Foo x, Bar y) T() => (a, b); }\n"
    )
    separators = [m.start() for m in _SEPARATOR.finditer(text)]
    for name in ("m_Track", "items", "arr", "map", "a", "b", "c", "d", "e", "i", "maybe", "Prop", "a2", "x", "none"):
        whole = [(m.start(), m.group(0)) for m in re.finditer(_DECLARATION.format(re.escape(name)), text)]
        read = [(m.start(), m.group(0)) for m in _declaration_matches(text, name, separators)]
        assert read == whole, name


def _node(go: int, name: str, father: int, children: list[int]) -> str:
    """A GameObject with a Transform (`go + 1`, parent `father`'s) and a BoxCollider (`go + 2`)."""
    kids = "".join(f"  - {{fileID: {c + 1}}}\n" for c in children) or "  []\n"
    return (
        f"--- !u!1 &{go}\nGameObject:\n  m_Component:\n  - component: {{fileID: {go + 1}}}\n"
        f"  - component: {{fileID: {go + 2}}}\n  m_Layer: 0\n  m_Name: {name}\n  m_IsActive: 1\n"
        f"--- !u!4 &{go + 1}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n"
        f"  m_Children:\n{kids}  m_Father: {{fileID: {father + 1 if father else 0}}}\n"
        f"--- !u!65 &{go + 2}\nBoxCollider:\n  m_GameObject: {{fileID: {go}}}\n  m_IsTrigger: 0\n"
    )


def test_a_folded_prefab_with_no_object_doing_something_still_shows_its_top_objects(tmp_path: Path) -> None:
    """`describe` of SS3D's `StaticWorldObjects.prefab` (4 MB, 1,264 objects, none carrying a project
    script) showed one line of its hierarchy, `… 1260 more objects (Rigidbody 1232, ...)`: not its
    root, not one of the four objects under it, in 400 lines of room. Folded with nothing to keep, the
    root objects and those under them are shown by their line, the runs below them counted."""
    from indexer.query.describe import describe

    groups = {"Walls": 10_000, "Floors": 20_000}
    text = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n" + _node(100, "Lobby", 0, list(groups.values()))
    for name, go in groups.items():
        pieces = [go + 10 * (i + 1) for i in range(40)]
        text += _node(go, name, 100, pieces)
        text += "".join(
            _node(p, f"{name[:-1]} {chr(65 + i // 26)}{chr(65 + i % 26)}", go, []) for i, p in enumerate(pieces)
        )
    root = write_project(tmp_path / "P", {"Assets/Lobby.prefab": text, "Assets/Lobby.prefab.meta": meta("1b" * 16)})
    update(root, Config(), full=True)
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    lines = describe(graph, "Assets/Lobby.prefab", max_lines=20).text.splitlines()
    assert lines[1:6] == [
        "Lobby  L3",
        "  Walls  L22",
        "    … 40 more objects (BoxCollider 40)",
        "  Floors  L799",
        "    … 40 more objects (BoxCollider 40)",
    ]

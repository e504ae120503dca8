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

"""One record model: every field of every record a tool returns reaches the MCP structured output.

A session (the SDK's client against the server) calls every tool; each answer is walked against
the msgspec type the tool declares (results.OUTPUTS), recursively, and the keys seen for each
Struct are collected. Fields a record omits when at their default (Symbol, Ref) count once any
answer carries them. The client also validates every answer against its generated output schema.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import msgspec
import msgspec.inspect as mi
import pytest
from mcp import Client

from indexer import model
from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server.app import create_server
from mcp_adapter.server.results import OUTPUTS

from .conftest import copy_fixture
from .json_http import JsonHandler

TOKEN = "k" * 64

# Every result type of indexer/model.py that a tool returns: directly, nested, or extended by an envelope.
RESULT_TYPES = {
    model.Hit,
    model.ContextPack,
    model.Tier,
    model.Tier2,
    model.FileEntry,
    model.Target,
    model.Usage,
    model.Description,
    model.Edge,
    model.Symbol,
    model.Ref,
    model.Overview,
    model.Assembly,
    model.Status,
    model.SkippedFile,
    model.UpdateStats,
}


class _Editor(JsonHandler):
    def do_GET(self) -> None:
        tool = {"name": "echo", "description": "echoes", "input_schema": {"type": "object"}}
        self._answer(200, {"ok": True, "tools": [tool]})

    def do_POST(self) -> None:
        req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self._answer(200, {"ok": True, "result": {"echo": req["arguments"]}})


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    """The fixture with a file the index skips, and a (fake) editor running."""
    root = copy_fixture(tmp_path / "DungeonCrawler")
    (root / "Assets/Broken.prefab").write_text("not a Unity YAML file\n")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Editor)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    beat = {"protocol": 1, "port": httpd.server_address[1], "token": TOKEN, "pid": os.getpid(), "state": "ready"}
    heartbeat = root / "Library/UnityIndex/editor.json"
    heartbeat.parent.mkdir(parents=True, exist_ok=True)
    heartbeat.write_text(json.dumps({**beat, "updated_at": time.time()}))
    try:
        yield root
    finally:
        httpd.shutdown()
        httpd.server_close()


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("search", {"query": "apply damage"}),
    ("get_context", {"task": "add a shield that absorbs damage"}),
    ("find_references", {"target": "PlayerHealth.Heal"}),
    ("find_references", {"target": "PlayerHealth", "limit": 2}),
    ("describe", {"target": "Assets/Scripts/Audio/AudioManager.cs"}),
    ("describe", {"target": "Assets/Animations/Enemy.controller"}),
    ("project_overview", {}),
    ("index_status", {}),
    ("refresh", {}),
    ("editor_tools", {}),
    ("editor_call", {"name": "echo", "arguments": {"x": 1}}),
]


def walk(t: mi.Type, value: Any, seen: dict[type, set[str]], where: str) -> None:
    """Check `value` against type `t`, recording the keys of every Struct."""
    if isinstance(t, mi.StructType):
        assert isinstance(value, dict), where
        names = {f.encode_name for f in t.fields}
        assert set(value) <= names, f"{where}: keys the type does not declare: {set(value) - names}"
        missing = {f.encode_name for f in t.fields if f.required} - set(value)
        assert not missing, f"{where}: required fields missing: {missing}"
        seen.setdefault(t.cls, set()).update(value)
        for f in t.fields:
            if f.encode_name in value:
                walk(f.type, value[f.encode_name], seen, f"{where}.{f.encode_name}")
    elif isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType)):
        assert isinstance(value, list), where
        for i, item in enumerate(value):
            walk(t.item_type, item, seen, f"{where}[{i}]")
    elif isinstance(t, mi.DictType):
        for k, item in value.items():
            walk(t.value_type, item, seen, f"{where}[{k!r}]")
    elif isinstance(t, mi.UnionType) and value is not None:
        (arm,) = [a for a in t.types if not isinstance(a, mi.NoneType)]
        walk(arm, value, seen, where)


def structs(t: mi.Type, out: dict[type, mi.StructType]) -> None:
    """Every Struct type reachable from `t`."""
    if isinstance(t, mi.StructType):
        if t.cls in out:
            return
        out[t.cls] = t
        for f in t.fields:
            structs(f.type, out)
    for attr in ("item_type", "value_type"):
        if hasattr(t, attr):
            structs(getattr(t, attr), out)
    for arm in getattr(t, "types", ()):
        structs(arm, out)


def test_every_field_of_every_record_reaches_structured_output(project: Path) -> None:
    server = create_server(open_workspace(project, projects_at(project)), tokenizer="estimate", watch=False)

    async def go():
        async with Client(server) as c:
            listed = {t.name: t for t in (await c.list_tools()).tools}
            return listed, [(name, await c.call_tool(name, args)) for name, args in CALLS]

    listed, answers = anyio.run(go)
    assert set(OUTPUTS) == set(listed)
    seen: dict[type, set[str]] = {}
    for name, answer in answers:
        assert answer.is_error is False, (name, answer.content)
        walk(mi.type_info(OUTPUTS[name]), answer.structured_content, seen, name)

    declared: dict[type, mi.StructType] = {}
    for name in OUTPUTS:
        structs(mi.type_info(OUTPUTS[name]), declared)
    unreached = {r for r in RESULT_TYPES if not any(issubclass(c, r) for c in declared)}  # envelopes extend some
    assert not unreached, unreached
    for cls, info in declared.items():
        fields = {f.encode_name for f in info.fields}
        assert seen.get(cls, set()) == fields, f"{cls.__name__}: never in any answer: {fields - seen.get(cls, set())}"


def test_output_schemas_are_generated_from_the_records(project: Path) -> None:
    server = create_server(open_workspace(project, projects_at(project)), tokenizer="estimate", watch=False)

    async def go():
        async with Client(server) as c:
            return {t.name: t.output_schema for t in (await c.list_tools()).tools}

    schemas = anyio.run(go)
    _, defs = msgspec.json.schema_components([model.Hit], ref_template="#/$defs/{name}")
    assert schemas["search"]["properties"]["results"] == {"type": "array", "items": {"$ref": "#/$defs/Hit"}}
    assert schemas["search"]["$defs"]["Hit"] == defs["Hit"]
    status = schemas["index_status"]["$defs"]["Status"]["properties"]
    assert sorted(status) == sorted(f.name for f in msgspec.structs.fields(model.Status))
    assert schemas["get_context"]["required"] == list(model.ContextPack.__struct_fields__)

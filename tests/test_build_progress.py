"""While an index is being built, whoever asks sees how far it is: `index_status` over a real MCP
session answers at once with the writer's progress, and the first `query` on a project without
an index builds it and answers. Also: the record store keeps its blobs compressed, and the build
reports where its time went."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from indexer.build.phases import INDEXER_PHASES, WORKER_PHASES
from indexer.build.update import update
from indexer.config import Config
from indexer.store.lock import writer_lock
from indexer.store.progress import ProgressFile, read_progress
from indexer.store.reader import Records, record_encoder
from indexer.store.schema import IndexPaths
from tests.conftest import REPO, run_cli, write_project


def _project(tmp_path: Path) -> Path:
    body = "public class Mover{0} {{ public void Step{0}() {{}} }}"
    files = {f"Assets/Scripts/Mover{i}.cs": body.format(i) for i in range(30)}
    return write_project(tmp_path / "P", files)


def _status_while_building(root: Path) -> tuple[dict, str]:
    """`index_status` over a real session while another process holds the lock, 12 of 30 scanned."""
    ipaths = IndexPaths(Config().index_path(root))
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "indexer.cli", "serve", "--project", str(root)],
        env={**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"},
        cwd=str(REPO),
    )

    async def ask() -> tuple[dict, str]:
        async with Client(params) as c:
            with anyio.fail_after(20):  # the server's own build waits for the lock: this must not
                res = await c.call_tool("index_status", {})
            assert not res.is_error
            return res.structured_content, res.content[0].text

    with writer_lock(ipaths):  # a build in another process: the server cannot start its own
        pfile = ProgressFile(ipaths, rebuild=True)
        pfile.step("scanning", 12, 30, force=True)
        try:
            return anyio.run(ask)
        finally:
            pfile.close()


def test_index_status_answers_at_once_with_the_progress_of_a_build_holding_the_lock(tmp_path: Path) -> None:
    """docs/mcp.md: `index_status` answers while another process builds; the first build is what
    the tools wait for, and the agent is told so in MCP's words, not the CLI's."""
    root = _project(tmp_path)
    ipaths = IndexPaths(Config().index_path(root))
    data, text = _status_while_building(root)
    [building] = data["building"]
    assert (building["project"], building["pid"], building["rebuild"]) == (str(root), os.getpid(), True)
    assert (building["phase"], building["done"], building["total"]) == ("scanning", 12, 30)
    assert f"{root}: building the index: 12 of 30 files scanned" in text
    assert "search and the other tools answer once it is done" in text
    # (since session 48 the project's own line says the build above is that first build)
    assert f"no index yet at {ipaths.root}: the first build is running (above)" in text
    assert "builds it first" not in text and "unity-index index" not in text
    assert read_progress(ipaths) is None  # removed when the build ends


def test_a_rebuild_over_an_index_says_the_tools_answer_from_it_meanwhile(tmp_path: Path) -> None:
    """docs/cli.md `index`: until a rebuild's last step, readers answer from the previous index;
    `index_status` told the agent to wait for a `--full` rebuild all the same."""
    root = _project(tmp_path)
    update(root, Config(workers=1))
    _, text = _status_while_building(root)
    assert f"{root}: building the index: 12 of 30 files scanned" in text
    assert "until it is done, search and the other tools answer from the previous index" in text


def test_progress_of_a_dead_writer_is_ignored(tmp_path: Path) -> None:
    ipaths = IndexPaths(tmp_path / "index")
    ipaths.root.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pfile = ProgressFile(ipaths, rebuild=True)
    pfile.state.pid = int(dead.stdout)
    pfile.step("scanning", 1, 2, force=True)
    assert (ipaths.root / "progress.json").exists() and read_progress(ipaths) is None
    pfile.state.pid = os.getpid()
    pfile.step("scanning", 1, 2, force=True)
    assert read_progress(ipaths) is not None


def test_first_query_without_an_index_builds_it_and_answers(tmp_path: Path) -> None:
    root = _project(tmp_path)
    r = run_cli("query", "Mover17 Step17", "--project", str(root), "--json")
    assert r.returncode == 0, r.stderr
    assert "no index for" in r.stderr and "building it" in r.stderr
    hits = json.loads(r.stdout)["results"]
    assert hits[0]["path"] == "Assets/Scripts/Mover17.cs"
    assert not (Config().index_path(root) / "progress.json").exists()


def test_records_and_outlines_are_stored_deflated_and_read_back_whole(tmp_path: Path) -> None:
    root = _project(tmp_path)
    stats = update(root, Config(workers=1))
    records = Records(IndexPaths(Config().index_path(root)))
    try:
        raw = records.conn.execute(
            "SELECT b.record, o.outline FROM files f JOIN blobs b ON b.file_id = f.id"
            " JOIN outlines o ON o.file_id = f.id WHERE f.path = ?",
            ("Assets/Scripts/Mover3.cs",),
        ).fetchone()
        groups = dict(records.conn.execute("SELECT grp, id FROM zdicts"))
        rec = records.record("Assets/Scripts/Mover3.cs")
        outline = json.loads(records.outline("Assets/Scripts/Mover3.cs"))
    finally:
        records.close()
    # 30 scripts: past the sample, C# records and outlines are deflated with their own dictionary
    assert {"csharp", "outline:csharp"} <= set(groups)
    assert raw[0][0] == groups["csharp"] and raw[1][0] == groups["outline:csharp"]
    assert len(raw[0]) < len(record_encoder.encode(rec)) / 2
    assert [s.qualified for s in rec.symbols] == ["Mover3", "Mover3.Step3"]
    assert [e[2] for e in outline] == ["Mover3", "Mover3.Step3"]
    assert set(stats.phases) == {*INDEXER_PHASES, *WORKER_PHASES}
    assert all(v >= 0 for v in stats.phases.values())


def test_a_long_lived_reader_decodes_records_packed_with_a_dictionary_made_after_it_opened(tmp_path: Path) -> None:
    """indexer/store/codec.py: dictionaries are made once a kind has stored enough blobs, and never
    change once written, so a long-lived reader (the MCP server's) loads each once. One opened on
    a small index (no dictionary yet) must read, whole, the records an update then packs with a
    new dictionary, and still read its old ones."""
    from indexer.store.codec import SAMPLE_BLOBS

    def names(reader: Records, path: str) -> list[str]:
        record = reader.record(path)
        assert record is not None, path
        return [s.name for s in record.symbols]

    root = write_project(tmp_path / "P", {"Assets/First.cs": "public class First { void Alpha() {} }"})
    config = Config(workers=1)
    update(root, config)
    reader = Records(IndexPaths(config.index_path(root)))
    try:
        assert names(reader, "Assets/First.cs") == ["First", "Alpha"]
        for i in range(SAMPLE_BLOBS * 2):
            (root / f"Assets/Late{i}.cs").write_text(f"public class Late{i} {{ void Beta{i}() {{}} }}")
        update(root, config)
        for i in range(SAMPLE_BLOBS * 2):
            assert names(reader, f"Assets/Late{i}.cs") == [f"Late{i}", f"Beta{i}"]
        assert names(reader, "Assets/First.cs") == ["First", "Alpha"]
        dicts = reader.conn.execute("SELECT id, dict FROM zdicts").fetchall()
        assert dicts, "the update made a dictionary"
        # Another update (an edit, more files) leaves every dictionary as it was.
        (root / "Assets/First.cs").write_text("public class First { void Gamma() {} }")
        for i in range(SAMPLE_BLOBS * 2):
            (root / f"Assets/More{i}.cs").write_text(f"public class More{i} {{ }}")
        update(root, config)
        assert set(dicts) <= set(reader.conn.execute("SELECT id, dict FROM zdicts").fetchall())
        assert names(reader, "Assets/First.cs") == ["First", "Gamma"]
        assert names(reader, "Assets/More0.cs") == ["More0"]
    finally:
        reader.close()

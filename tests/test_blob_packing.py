"""Scanner processes deflate the blobs of groups that have a dictionary (indexer/store/codec.py):
they pack exactly what the indexer would, and a build's blobs are the same bytes as if the
indexer alone had packed them in file order."""

from __future__ import annotations

import contextlib
import sqlite3
import zlib
from pathlib import Path

import msgspec
import pytest

from indexer.build.pool import FileBudget
from indexer.build.update import update
from indexer.build.workers import Task, _encoder, _task_decoder, process, run_jobs
from indexer.changes.diff import Job
from indexer.config import Config
from indexer.store.codec import BlobCodec, Dictionary, Packer
from indexer.store.reader import Records
from indexer.store.schema import SQL_TABLES, IndexPaths

from .conftest import SLOW_CSHARP, meta, write_project


def _scripts(root: Path, n: int) -> list[Job]:
    """`n` scripts and their .meta files; the jobs of the scripts."""
    files = {}
    for i in range(n):
        path = f"Assets/Gen/F{i % 7}/C{i}.cs"
        files[path] = f"public class C{i} : UnityEngine.MonoBehaviour {{ int v; void M{i}() {{ }} }}\n"
        files[path + ".meta"] = meta(f"{i:032x}")
    write_project(root, files)
    scripts = sorted(p for p in files if p.endswith(".cs"))
    return [Job(str(root), p, "csharp", (root / p).stat().st_size, 0, "", 50 << 20) for p in scripts]


def _inflate(blob: bytes, d: Dictionary) -> bytes:
    """A blob read by hand: dictionary id, raw deflate stream, Adler-32 of the bytes."""
    assert blob[0] == d.id
    z = zlib.decompressobj(-15, zdict=d.data)
    data = z.decompress(blob[1:-4]) + z.flush()
    assert z.eof and blob[-4:] == zlib.adler32(data).to_bytes(4, "big")
    return data


def test_scanner_processes_deflate_the_records_whose_group_has_a_dictionary(tmp_path: Path) -> None:
    jobs = _scripts(tmp_path / "P", 240)  # over PARALLEL_MIN_FILES: scanner processes
    d = Dictionary("csharp", 7, b"public class MonoBehaviour void csharp symbols " * 40)
    results = list(run_jobs(jobs, 2, dictionaries=lambda: [d]))
    assert len(results) == len(jobs)
    for job, result in zip(jobs, results, strict=True):
        alone = process(job).prepared  # scanned in this process, nothing deflated
        p = result.prepared
        assert p is not None and alone is not None
        assert p.record_packed and p.record[0] == 7
        assert _inflate(p.record, d) == alone.record
        # No dictionary for C# outlines was sent: the indexer packs those (and samples them).
        assert not p.outline_packed and p.outline == alone.outline and p.outline.startswith(b"[")


def test_a_scanner_process_started_in_place_of_a_stopped_one_is_sent_the_dictionaries(tmp_path: Path) -> None:
    """A file over its time budget stops its scanner process; the one started in its place was
    sent nothing yet, so it gets every dictionary with its first chunk and packs as before."""
    jobs = _scripts(tmp_path / "P", 240)
    (tmp_path / "P/Assets/Hang.cs").write_bytes(SLOW_CSHARP)  # a scan far over the time budget
    jobs[3:3] = [Job(str(tmp_path / "P"), "Assets/Hang.cs", "csharp", len(SLOW_CSHARP), 0, "", 50 << 20)]
    d = Dictionary("csharp", 7, b"public class MonoBehaviour void csharp symbols " * 40)
    results = list(run_jobs(jobs, 1, FileBudget(seconds=1.0, memory_mb=300), dictionaries=lambda: [d]))
    assert len(results) == len(jobs)
    hang, rest = results[3], results[:3] + results[4:]
    assert hang.prepared is not None and not hang.prepared.record_packed  # skipped, packed by the indexer
    assert all(r.prepared is not None and r.prepared.record_packed and r.prepared.record[0] == 7 for r in rest)


def test_each_scanner_process_is_sent_a_dictionary_once() -> None:
    known = [Dictionary("csharp", 1, b"a" * 100)]
    encode = _encoder(lambda: known)
    first, second = set(), set()
    assert _task_decoder.decode(encode([], first)).dictionaries == known
    known.append(Dictionary("meta", 2, b"b" * 100))
    assert _task_decoder.decode(encode([], first)) == Task([known[1]], [])
    assert _task_decoder.decode(encode([], first)) == Task([], [])
    assert _task_decoder.decode(encode([], second)).dictionaries == known  # a new process


def test_a_built_index_holds_the_blobs_the_indexer_alone_would_pack(tmp_path: Path) -> None:
    """1,200 files in two scanner processes: past the first chunks, the scanners deflate the
    blobs. Every blob must be what one codec packing every file in order makes: same
    dictionaries, sampled from the same first blobs, the same bytes."""
    root = tmp_path / "P"
    _scripts(root, 600)
    update(root, Config(workers=2))
    reader = Records(IndexPaths(Config().index_path(root)))
    try:
        sql = (
            "SELECT f.kind, b.record, o.outline FROM files f JOIN blobs b ON b.file_id = f.id"
            " LEFT JOIN outlines o ON o.file_id = f.id ORDER BY f.id"
        )
        rows = reader.conn.execute(sql).fetchall()
        stored_dicts = sorted(reader.conn.execute("SELECT id, grp, dict FROM zdicts"))
        replay = sqlite3.connect(":memory:")
        replay.executescript(SQL_TABLES)
        alone = BlobCodec(replay)
        for kind, record, outline in rows:
            assert alone.pack(kind, reader.codec.unpack(record)) == record
            if outline is not None:
                assert alone.pack("outline:" + kind, reader.codec.unpack(outline)) == outline
        assert sorted(replay.execute("SELECT id, grp, dict FROM zdicts")) == stored_dicts
        assert {g for _, g, _ in stored_dicts} == {"csharp", "meta", "outline:csharp"}
        # stored deflated: each inflates to the dictionary readers and scanners use, 3x smaller at least
        used = {d.id: d.data for d in reader.codec.dictionaries()}
        assert {i: zlib.decompress(d) for i, _, d in stored_dicts} == used
        assert sum(len(d) for _, _, d in stored_dicts) * 3 < sum(len(d) for d in used.values())
        late = rows[len(rows) // 2 :]  # sent long after every dictionary was made
        assert all(record[0] != 0 and (outline is None or outline[0] != 0) for _, record, outline in late)
        assert reader.record("Assets/Gen/F3/C598.cs").symbols[0].name == "C598"
    finally:
        reader.close()


def test_an_incremental_update_in_scanner_processes_packs_with_the_stored_dictionaries(tmp_path: Path) -> None:
    """An update large enough for scanner processes (over PARALLEL_MIN_FILES) sends them the dictionaries the store has;
    the indexer reads a shader's deflated record back for the names code loads it by."""
    root = tmp_path / "P"
    _scripts(root, 200)
    for i in range(30):
        (root / f"Assets/Shaders/S{i}.shader").parent.mkdir(parents=True, exist_ok=True)
        (root / f"Assets/Shaders/S{i}.shader").write_text(f'Shader "Custom/S{i}" {{ SubShader {{ Pass {{ }} }} }}\n')
    config = Config(workers=2)
    update(root, config)
    for i in range(200):
        p = root / f"Assets/Gen/F{i % 7}/C{i}.cs"
        p.write_text(p.read_text().replace("{ }", "{ } void Added() { }"))
    for i in range(30):
        (root / f"Assets/Shaders/S{i}.shader").write_text(f'Shader "Custom/T{i}" {{ SubShader {{ Pass {{ }} }} }}\n')
    stats = update(root, config)
    assert not stats.full and stats.changed == 230
    reader = Records(IndexPaths(config.index_path(root)))
    try:
        ids = dict(reader.conn.execute("SELECT grp, id FROM zdicts"))
        sql = "SELECT b.record FROM files f JOIN blobs b ON b.file_id = f.id WHERE f.path = ?"
        (blob,) = reader.conn.execute(sql, ("Assets/Shaders/S29.shader",)).fetchone()
        assert blob[0] == ids["shader"]
        assert reader.record("Assets/Shaders/S29.shader").symbols[0].name == "Custom/T29"
        (blob,) = reader.conn.execute(sql, ("Assets/Gen/F3/C199.cs",)).fetchone()
        assert blob[0] == ids["csharp"]
        assert [s.name for s in reader.record("Assets/Gen/F3/C199.cs").symbols] == ["C199", "v", "M199", "Added"]
    finally:
        reader.close()


def test_a_blob_with_any_byte_changed_unpacks_to_an_error_never_to_other_bytes() -> None:
    """No zlib header or dictionary id is stored (6 bytes a blob), yet the Adler-32 check stays:
    a garbled blob is an error (the full check reports it, a writer deletes its references by
    file), never a record read wrong. (A changed padding bit after the stream's last block
    changes nothing: the same bytes come out.)"""
    d = Dictionary("csharp", 3, b"public class MonoBehaviour void Update Start " * 30)
    packer = Packer()
    packer.add(d)
    data = msgspec.msgpack.encode({"kind": "csharp", "symbols": ["Start", "Update", "Health", "TakeDamage"]})
    codec = BlobCodec(sqlite3.connect(":memory:"))
    for blob in (packer.pack("csharp", data), codec.pack("other", data)):
        assert blob is not None and packer.unpack(blob) == data
        for at in range(1, len(blob)):
            for flip in (0x01, 0x80):
                garbled = blob[:at] + bytes((blob[at] ^ flip,)) + blob[at + 1 :]
                with contextlib.suppress(zlib.error):
                    assert packer.unpack(garbled) == data  # a padding bit: the same bytes
        with pytest.raises(zlib.error):
            packer.unpack(blob[:-1])

"""One read transaction per query (`Records.reading`, `ProjectIndex.reading`): a query reads one
commit of the record store throughout, even when an update commits meanwhile; a reader inside its
transaction never holds a writer up, and nothing of the transaction outlives the query."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.model import ContextPack
from indexer.query import workspace as workspace_module
from indexer.query.context import build_context
from indexer.query.tokens import counter
from indexer.query.workspace import open_workspace
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

from .conftest import meta, write_project

SHIELD = "Assets/Shield.cs"


def _shield(name: str) -> str:
    return f"public class {name} : MonoBehaviour {{ public float shieldStrength; public void RaiseShield() {{ }} }}"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path / "P",
        {
            SHIELD: _shield("Shield"),
            SHIELD + ".meta": meta("0123456789abcdef0123456789abcdef"),
            "Assets/Player.cs": "public class Player : MonoBehaviour { public Shield shield; }",
            "Assets/Player.cs.meta": meta("fedcba9876543210fedcba9876543210"),
        },
    )
    update(root, Config(workers=1))
    return root


def _rename_shield(root: Path, name: str) -> None:
    """An update that commits in place: the class renamed, so its type rows and outline change."""
    (root / SHIELD).write_text(_shield(name) + "\n// edited\n", encoding="utf-8")
    update(root, Config(workers=1))


def _records(root: Path) -> Records:
    return Records(IndexPaths(Config().index_path(root)))


def _seen(records: Records) -> tuple:
    """What one reader sees of the shield: the generation, its stat, its type rows, its outline."""
    stat = records.stats_of([SHIELD])[SHIELD]
    return records.generation(), stat.size, [t.name for t in records.types_in(SHIELD)], records.outline(SHIELD)


def test_a_reader_sees_one_commit_while_an_update_commits_and_the_next_after(project: Path) -> None:
    records = _records(project)
    with records.reading():
        before = _seen(records)
        _rename_shield(project, "Barrier")  # the writer commits while the transaction is open
        assert _seen(records) == before  # every table as it was: no half of the new commit
    after = _seen(records)
    assert after[0] == before[0] + 1 and after[2] == ["Barrier"] and after[1] != before[1]
    assert not records.conn.in_transaction


def test_a_reader_in_its_transaction_does_not_hold_a_writer_up(project: Path) -> None:
    """The update commits (and its checkpoint runs) while the reader holds its snapshot: WAL lets
    it, where a rollback journal would have the writer wait on the reader's lock and fail."""
    records = _records(project)
    with records.reading():
        _seen(records)
        assert records.conn.in_transaction
        _rename_shield(project, "Barrier")
        _rename_shield(project, "Wall")  # and again: the writer never waits on this reader
        fresh = _records(project)
        assert [t.name for t in fresh.types_in(SHIELD)] == ["Wall"]
        fresh.close()
    # Once the query is over it pins nothing: a full checkpoint completes (busy flag 0).
    check = sqlite3.connect(records.paths.records)
    assert check.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
    check.close()


def test_reading_nests_is_shared_and_ends_what_it_began_only(project: Path) -> None:
    records = _records(project)
    first, second = records.reading(), records.reading()
    first.__enter__()
    second.__enter__()  # another thread's query on the same connection joins the transaction
    assert records.conn.in_transaction
    first.__exit__(None, None, None)  # the first one out does not end the other's
    assert records.conn.in_transaction
    second.__exit__(None, None, None)
    assert not records.conn.in_transaction
    with pytest.raises(KeyError), records.reading():
        raise KeyError("a query failing inside")
    assert not records.conn.in_transaction
    records.conn.execute("BEGIN")  # a transaction reading() did not begin (a writer's batch)
    with records.reading():
        pass
    assert records.conn.in_transaction  # joined, never ended here
    records.conn.execute("COMMIT")
    with records.reading():
        records.close()  # closed inside: nothing left to end, no error


def _answers(root: Path) -> tuple:
    """A search and a pack of a new workspace (nothing kept from earlier answers)."""
    ws = open_workspace(root, [(root, Config())])
    return ws.search(TASK, limit=10), build_context(ws, TASK, 2000, counter("estimate"))


TASK = "raise the shield"


def _named(hits: list) -> list:
    """What a search says of each hit that the record store gives (the full-text index, which
    committed first, gives the scores: its reader may see the commit the store's does not yet)."""
    return [(h.path, h.name, h.line, h.snippet, h.reason) for h in hits]


def _packed(pack: ContextPack) -> list:
    return [pack.tier2.text, *((f.path, f.reason) for f in pack.tier2.files)]


def test_a_search_and_a_pack_read_one_commit_though_an_update_commits_mid_query(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update lands once the query has read some of the store, before it reads the rest; the
    file on disk is put back as it was (bytes and mtime), so only the store changed under the query."""
    real, seen = workspace_module.rank, []

    def committing_meanwhile(p, *args):
        seen.append(_seen(p.records))
        if len(seen) == 1:
            file = project / SHIELD
            text, stat = file.read_bytes(), file.stat()
            _rename_shield(project, "Barrier")
            file.write_bytes(text)
            os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        hits = real(p, *args)
        seen.append(_seen(p.records))
        return hits

    for ask in ("search", "context"):
        expected = _answers(project)
        seen.clear()
        ws = open_workspace(project, [(project, Config())])
        monkeypatch.setattr(workspace_module, "rank", committing_meanwhile)
        if ask == "search":
            assert _named(ws.search(TASK, limit=10)) == _named(expected[0])
        else:
            assert _packed(build_context(ws, TASK, 2000, counter("estimate"))) == _packed(expected[1])
        monkeypatch.setattr(workspace_module, "rank", real)
        assert seen[0] == seen[1] and seen[0][2] == ["Shield"]
        assert not ws.projects[0].records.conn.in_transaction  # the query's transaction ended with it
        assert _seen(ws.projects[0].records)[2] == ["Barrier"]  # the commit is there for the next one
        update(project, Config(workers=1))  # the store back to the file on disk

"""A damaged index: every file of the index folder garbled, truncated and deleted in turn.

Every command answers in bounded time without a traceback (a damaged index is reported as such,
exit 2 with the fix, never as a bug), and the next `index` restores an index equal to a clean
rebuild of the same files."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from indexer.build.update import update
from indexer.cli.main import main
from indexer.config import Config
from indexer.query.workspace import open_workspace, projects_at
from indexer.store.consistency import check_consistency, search_doc_paths
from indexer.store.integrity import save_fingerprint
from indexer.store.reader import Records
from indexer.store.schema import IndexPaths

from .conftest import meta, write_project

CONFIG = Config(workers=1)
QUERIES = ("player health", "damage enemy", "spawn wave", "menu button click")
RANK_TOLERANCE = 0.01  # see same_ranking
COMMAND_SECONDS = 60  # a hang guard, not a timing: each command takes well under a second here


def small_project(root: Path) -> Path:
    files: dict[str, str] = {"ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n"}
    bodies = {
        "PlayerHealth": "public int health; public void TakeDamage(int damage) { health -= damage; }",
        "Enemy": "public PlayerHealth target; void Attack() { target.TakeDamage(3); }",
        "Spawner": "public Enemy prefab; public int wave; void SpawnWave() { }",
        "Menu": "public void OnButtonClick() { } public string title;",
    }
    for i, (name, body) in enumerate(bodies.items()):
        files[f"Assets/Scripts/{name}.cs"] = f"using UnityEngine;\npublic class {name} : MonoBehaviour {{ {body} }}\n"
        files[f"Assets/Scripts/{name}.cs.meta"] = meta(f"{i + 1:032x}")
    files["Assets/Prefabs/Enemy.prefab"] = (
        "%YAML 1.1\n--- !u!1 &1\nGameObject:\n  m_Name: Enemy\n--- !u!114 &2\nMonoBehaviour:\n"
        "  m_GameObject: {fileID: 1}\n  m_Script: {fileID: 11500000, guid: 00000000000000000000000000000002, type: 3}\n"
        "  target: {fileID: 0}\n"
    )
    files["Assets/Prefabs/Enemy.prefab.meta"] = meta("f" * 32, "PrefabImporter")
    files["Assets/Notes.txt"] = "player health regenerates between waves\n"
    return write_project(root, files)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project in a git work tree whose index has history: a full build, then two updates (so
    the folder holds deletes, several segments, git's view and the fingerprint)."""
    root = small_project(tmp_path_factory.mktemp("corrupt") / "Game")
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    update(root, CONFIG)
    enemy = root / "Assets/Scripts/Enemy.cs"
    enemy.write_text(enemy.read_text().replace("Attack()", "Attack() { } void Retreat()"))
    update(root, CONFIG)
    (root / "Assets/Scripts/Menu.cs").unlink()
    update(root, CONFIG)
    return root


def snapshot(root: Path) -> dict:
    """Everything an index holds, by path (row ids differ between builds), and what it ranks."""
    paths = IndexPaths(CONFIG.index_path(root))
    records = Records(paths)
    try:
        ids = {i: p for p, i in records.file_ids().items()}
        out = {
            "records": [msgspec.msgpack.encode(r) for r in records.records()],
            "types": records.types(),
            "guids": records.guid_paths(),
            "edges": sorted(
                (ids[s], ids[d], k) for s, d, k in records.conn.execute("SELECT src, dst, kind FROM edges")
            ),
            "outlines": {p: records.outline(p) for p in ids.values()},
        }
    finally:
        records.close()
    out["docs"] = sorted(search_doc_paths(paths))
    ws = open_workspace(root, projects_at(root))
    out["hits"] = {q: [(h.path, h.score) for h in ws.search(q, limit=20)] for q in QUERIES}
    return out


@pytest.fixture(scope="module")
def clean(indexed: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    copy = tmp_path_factory.mktemp("clean") / "Game"
    shutil.copytree(indexed, copy, ignore=shutil.ignore_patterns("Library"))
    update(copy, CONFIG, full=True)
    return snapshot(copy)


def same_ranking(got: dict, want: dict, tolerance: float = RANK_TOLERANCE) -> bool:
    """The same hits in the same order, but for results whose scores in `want` are within
    `tolerance` of each other (docs/indexing.md: an index that was updated rather than rebuilt
    holds deleted documents, and ranks as a rebuild does within this tolerance)."""
    for query, hits in want.items():
        scores = dict(hits)
        mine = got[query]
        if {p for p, _ in mine} != set(scores) or len(mine) != len(hits):
            return False
        for i, (path, _) in enumerate(mine):
            if any(scores[later] > scores[path] * (1 + tolerance) for later, _ in mine[i + 1 :]):
                return False
    return True


def index_files(root: Path) -> list[str]:
    folder = CONFIG.index_path(root)
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def damage(path: Path, how: str) -> None:
    if how == "delete":
        path.unlink()
    elif how == "truncate":
        os.truncate(path, path.stat().st_size // 2)
    else:  # garble 64 bytes in the middle (the whole file when it is shorter)
        data = bytearray(path.read_bytes()) or bytearray(b"\0")
        start = max(0, len(data) // 2 - 32)
        for i in range(start, min(len(data), start + 64)):
            data[i] ^= 0x5A
        path.write_bytes(bytes(data))


@contextlib.contextmanager
def deadline(seconds: int, error: type[BaseException] = TimeoutError) -> Iterator[None]:
    """A hang guard: `error` raised in the main thread past `seconds`."""

    def expire(signum, frame):
        raise error(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(capsys, *args: str) -> tuple[int, str, str]:
    with deadline(COMMAND_SECONDS):
        code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


READERS = (
    ("index", "--check"),
    ("query", "player health"),
    ("context", "make enemies retreat"),
    ("refs", "PlayerHealth"),
    ("describe", "Assets/Scripts/Enemy.cs"),
    ("status",),
    ("doctor",),
)


def test_the_fixture_index_has_the_files_the_test_damages(indexed: Path) -> None:
    names = index_files(indexed)
    for wanted in ("index.json", "integrity.json", "git-view.json"):
        assert wanted in names
    for wanted in ("records.db", "tantivy/meta.json"):  # in the generation folder
        assert any(n == wanted or n.endswith("/" + wanted) for n in names), (wanted, names)
    assert any(n.endswith(".del") for n in names), names  # deletes in an older segment
    assert sum(n.endswith(".idx") for n in names) >= 2, names  # several segments


@pytest.mark.parametrize("how", ["garble", "truncate", "delete"])
def test_every_index_file_damaged_in_turn(indexed: Path, clean: dict, tmp_path: Path, capsys, how: str) -> None:
    failures = []
    for name in index_files(indexed):
        root = tmp_path / name.replace("/", "_") / "Game"
        shutil.copytree(indexed, root, symlinks=True)
        save_fingerprint(IndexPaths(CONFIG.index_path(root)))  # as if damaged in place, where it was built
        damage(CONFIG.index_path(root) / name, how)
        for args in READERS:
            code, out, err = run(capsys, *args, "--project", str(root))
            if "Traceback" in err or "internal error" in err or code not in (0, 1, 2):
                failures.append(f"{how} {name}: {' '.join(args)} exit {code}: {err.strip()[-300:]}")
            elif code == 2 and "damaged" not in err:
                failures.append(f"{how} {name}: {' '.join(args)} exit 2 without saying the index is damaged: {err}")
        code, _, err = run(capsys, "index", "--project", str(root))
        if code != 0:
            failures.append(f"{how} {name}: index exit {code}: {err}")
            continue
        rebuilt = "rebuilt" in err  # else the damage was harmless, and the updated index stayed
        got = snapshot(root)
        tolerated = {"hits"} if not rebuilt and same_ranking(got["hits"], clean["hits"]) else set()
        keys = [k for k in clean if got[k] != clean[k] and k not in tolerated]
        if keys:
            failures.append(f"{how} {name}: the index after `index` differs from a clean rebuild in {keys}")
        if check_consistency(IndexPaths(CONFIG.index_path(root)), root, CONFIG):
            failures.append(f"{how} {name}: inconsistent after `index`")
        code, out, _ = run(capsys, "index", "--check", "--project", str(root))
        if code != 0:
            failures.append(f"{how} {name}: `index --check` after `index`: {out}")
    assert not failures, "\n".join(failures)


def test_an_index_without_documents_is_not_damaged(tmp_path: Path, capsys) -> None:
    """A project with no searchable file: tantivy never commits, so there is no meta.json."""
    root = write_project(tmp_path / "Empty", {"Assets/Art/Hero.png": b"\x89PNG"})
    assert update(root, CONFIG).full
    stats = update(root, CONFIG)
    assert (stats.full, stats.repaired) == (False, "")
    code, _, err = run(capsys, "query", "hero", "--project", str(root))
    assert code == 0, err
    assert run(capsys, "index", "--check", "--project", str(root))[0] == 0


def test_an_index_another_version_wrote_is_rebuilt_and_said_so_not_called_damaged(tmp_path: Path, capsys) -> None:
    """Upgrading unity-index changes the index format now and then: the next `index` rebuilds it
    and says why; the index was never damaged."""
    import json

    from indexer.model import SCHEMA_VERSION

    root = small_project(tmp_path / "P")
    update(root, CONFIG)
    header = IndexPaths(CONFIG.index_path(root)).header
    older = {**json.loads(header.read_text()), "schema_version": SCHEMA_VERSION - 1}
    header.write_text(json.dumps(older))
    code, _, err = run(capsys, "index", "--project", str(root))
    assert code == 0, err
    assert err.splitlines()[0] == (
        f"the index of {root} was written by another version of unity-index"
        f" (format {SCHEMA_VERSION - 1}, this one writes {SCHEMA_VERSION}): rebuilt it"
    )
    assert "damaged" not in err
    stats = update(root, CONFIG)
    assert (stats.full, stats.upgraded, stats.repaired) == (False, 0, "")
    header.write_text(json.dumps(older))
    code, out, err = run(capsys, "query", "player health", "--project", str(root))  # a reader builds it
    assert code == 0 and out, err
    assert err.splitlines()[0] == (
        f"the index of {root} was written by another version of unity-index"
        f" (format {SCHEMA_VERSION - 1}, this one reads {SCHEMA_VERSION}): building it"
    )
    header.write_text(json.dumps(older))
    stats = update(root, CONFIG)
    assert (stats.full, stats.upgraded, stats.repaired) == (True, SCHEMA_VERSION - 1, "")

"""The index on disk: a tantivy full-text index plus a msgspec manifest, under one folder.

Layout of the index folder (default `<project>/Library/UnityIndex/`):
  tantivy/         one document per searchable file (fields below)
  manifest.msgpack every FileRecord and what was derived from them (model.Manifest)
  index.json       {"schema_version", "generation"}: read first, so a reader never decodes a
                   manifest written by another version
  write.lock       flock()ed by the one writer; the kernel frees it when the writer dies

Every update deletes a file's document by path before adding it again, and the manifest is
replaced atomically after the tantivy commit, so an update interrupted anywhere is repaired by the
next one: files whose manifest entry is missing or stale are simply rescanned.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec
import tantivy

from .model import SCHEMA_VERSION, Manifest

TEXT_TOKENIZER = "en_stem"

# Searchable fields and their default boosts: names of declared types over member names over the
# path over declarations and attributes over the whole text.
FIELD_BOOSTS: dict[str, float] = {
    "types": 4.0,
    "members": 2.5,
    "path_text": 2.0,
    "decl": 1.2,
    "body": 1.0,
}


class IndexMissing(Exception):
    """No usable index: never built, or built by another schema version."""


class IndexBusy(Exception):
    """Another process holds the writer lock."""


def build_schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("path", stored=True, tokenizer_name="raw")
    sb.add_text_field("kind", stored=True, tokenizer_name="raw")
    for name in FIELD_BOOSTS:
        sb.add_text_field(name, stored=False, tokenizer_name=TEXT_TOKENIZER, index_option="freq")
    sb.add_text_field("outline", stored=True, index_option="basic", tokenizer_name="raw")
    return sb.build()


class IndexPaths:
    def __init__(self, index_dir: Path):
        self.root = index_dir
        self.tantivy = index_dir / "tantivy"
        self.manifest = index_dir / "manifest.msgpack"
        self.header = index_dir / "index.json"
        self.lock = index_dir / "write.lock"


def read_header(paths: IndexPaths) -> dict | None:
    try:
        return json.loads(paths.header.read_text())
    except (OSError, ValueError):
        return None


def header_ok(paths: IndexPaths) -> bool:
    h = read_header(paths)
    return bool(h) and h.get("schema_version") == SCHEMA_VERSION and paths.tantivy.is_dir()


def open_search_index(paths: IndexPaths) -> tantivy.Index:
    """A reader's view of the full-text index; fails with IndexMissing rather than misreading."""
    if not header_ok(paths):
        raise IndexMissing(f"no index of this version at {paths.root}")
    return tantivy.Index(build_schema(), path=str(paths.tantivy), reuse=True)


_manifest_decoder = msgspec.msgpack.Decoder(Manifest)
_manifest_encoder = msgspec.msgpack.Encoder()


def load_manifest(paths: IndexPaths) -> Manifest | None:
    """The last committed manifest, or None if absent, of another version, or damaged."""
    if not header_ok(paths):
        return None
    try:
        data = paths.manifest.read_bytes()
        manifest = _manifest_decoder.decode(data)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    return manifest if manifest.schema_version == SCHEMA_VERSION else None


def atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


@contextmanager
def writer_lock(paths: IndexPaths, wait: bool = False) -> Iterator[None]:
    """One writer per index. flock is released by the kernel when its holder dies, so a killed
    indexer never leaves the index locked."""
    paths.root.mkdir(parents=True, exist_ok=True)
    fd = os.open(paths.lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            if not wait:
                raise IndexBusy(
                    f"another unity-index process (pid {holder}) is updating the index at {paths.root}; "
                    "wait for it, or pass --wait"
                ) from None
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)


class Writer:
    """Applies one batch of changes: delete-then-add by path, commit, then the manifest."""

    def __init__(self, paths: IndexPaths, rebuild: bool):
        self.paths = paths
        if rebuild or not header_ok(paths):
            shutil.rmtree(paths.tantivy, ignore_errors=True)
            paths.header.unlink(missing_ok=True)
        paths.tantivy.mkdir(parents=True, exist_ok=True)
        self.schema = build_schema()
        self.index = tantivy.Index(self.schema, path=str(paths.tantivy), reuse=True)
        self._writer = self.index.writer(heap_size=64_000_000, num_threads=1)
        if rebuild:
            self._writer.delete_all_documents()

    def delete(self, path: str) -> None:
        self._writer.delete_documents_by_term("path", path)

    def add(self, doc: dict[str, str]) -> None:
        self._writer.delete_documents_by_term("path", doc["path"])
        self._writer.add_document(tantivy.Document.from_dict(doc, self.schema))

    def commit(self, manifest: Manifest) -> None:
        self._writer.commit()
        self._writer.wait_merging_threads()
        manifest.generation += 1
        atomic_write(self.paths.manifest, _manifest_encoder.encode(manifest))
        header = {"schema_version": SCHEMA_VERSION, "generation": manifest.generation, "written_at": time.time()}
        atomic_write(self.paths.header, json.dumps(header).encode())

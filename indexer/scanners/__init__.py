"""Scanners: pure functions from (path, bytes) to a FileRecord, one module a file kind.

`scan` picks the scanner for a kind and applies the checks every text kind shares (Git LFS
pointers, binary content) so no scanner sees input it cannot read. Scanner modules are imported
lazily: tree-sitter is only loaded when C# is actually scanned.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable

from indexer.model import LFS_NOTE, FileRecord

# kind -> module under indexer.scanners exposing scan(path, data) -> FileRecord (the Unity YAML
# scanner also takes the kind: a scene, a prefab and an asset are read alike but recorded apart)
SCANNER_MODULES: dict[str, str] = {
    "csharp": "csharp",
    "meta": "meta",
    "shader": "shader",
    "shader_include": "shader",
    "compute_shader": "shader",
    "shadergraph": "shadergraph",
    "asmdef": "asmdef",
    "asmref": "asmdef",
    "json": "packages",
    "input_actions": "inputactions",
    "uxml": "uxml",
    "uss": "uss",
    "settings": "settings",
    "scene": "unity_yaml",
    "prefab": "unity_yaml",
    "asset": "unity_yaml",
    "material": "unity_yaml",
    "animator": "unity_yaml",
    "animation": "unity_yaml",
    "unity_yaml": "unity_yaml",
    "vfx": "unity_yaml",
}
UNITY_SERIALIZED_KINDS = frozenset(
    {"scene", "prefab", "asset", "material", "animator", "animation", "unity_yaml", "vfx"}
)

# kinds whose content is never read: the record says what it is (describe, refs, status); they get
# no search document (store.schema.UNSEARCHED_KINDS), so no search finds them, by name either
OPAQUE_KINDS = frozenset({"texture", "model", "audio", "font", "plugin", "other"})

LFS_PREFIX = b"version https://git-lfs.github.com/spec/"


def has_scanner(kind: str) -> bool:
    return kind in SCANNER_MODULES


def reads_content(kind: str) -> bool:
    return kind not in OPAQUE_KINDS


@functools.cache
def _scanner(kind: str) -> Callable[[str, bytes], FileRecord]:
    """The scan function of a kind, imported once (not looked up again for every file)."""
    scan_kind = importlib.import_module(f"{__name__}.{SCANNER_MODULES[kind]}").scan
    if kind in UNITY_SERIALIZED_KINDS:
        return lambda path, data: scan_kind(path, data, kind)
    return scan_kind


def scan(path: str, kind: str, data: bytes) -> FileRecord:
    """Never raises but MemoryError: a file that cannot be scanned becomes a skipped record saying
    why. Running out of memory is left to the caller, which knows the limit it set
    (`build.workers`), so the record says that rather than "scanner error: MemoryError"."""
    if data.startswith(LFS_PREFIX):
        return FileRecord(path=path, kind=kind, status="skipped", note=LFS_NOTE)
    if b"\0" in data[:8192] and reads_content(kind):
        if kind in UNITY_SERIALIZED_KINDS:  # the files it references, read from its header
            return importlib.import_module(f"{__name__}.unity_binary").scan(path, data, kind)
        return FileRecord(path=path, kind=kind, status="skipped", note="binary content")
    if kind not in SCANNER_MODULES:
        return FileRecord(path=path, kind=kind)
    try:
        return _scanner(kind)(path, data)
    except MemoryError:  # not a scanner bug: the caller knows the memory limit and says so
        raise
    except Exception as exc:  # a scanner bug must cost one file, never the index
        return scanner_error(path, kind, exc)


def scanner_error(path: str, kind: str, exc: Exception) -> FileRecord:
    """The skipped record of a file whose scanner failed with `exc`, a bug; MemoryError when `exc`
    comes of one. An extension that failed to allocate while it called back into Python
    (tree-sitter's parse of a 5 MB script under a scanner's memory limit) raises "SystemError:
    <function ...> returned a result with an exception set", the MemoryError as its cause: it was
    recorded as a scanner error, where the file is to be scanned again alone (`build.pool`)."""
    cause: BaseException | None = exc
    for _ in range(8):
        if cause is None:
            break
        if isinstance(cause, MemoryError):
            raise MemoryError from exc
        cause = cause.__cause__ or cause.__context__
    return FileRecord(path=path, kind=kind, status="skipped", note=f"scanner error: {type(exc).__name__}: {exc}")

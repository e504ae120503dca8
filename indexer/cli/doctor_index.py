"""`doctor`'s checks of a project's index: present, whole, current, consistent, and holding the
content of the files git checked out (not Git LFS pointers)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from indexer.cli.checks import FAIL, PASS, WARN, Check, Target
from indexer.cli.common import quoted
from indexer.config import CONFIG_FILE, Config
from indexer.model import LFS_NOTE
from indexer.words import plural


def index_checks(t: Target) -> list[Check]:
    """Present, current (as `index --check` sees it) and consistent (records agree with tantivy)."""
    from indexer.model import SCHEMA_VERSION
    from indexer.store.header import header_generation, header_ok, read_header
    from indexer.store.schema import IndexPaths

    if t.config is None:
        return [Check("index", WARN, "not checked: the configuration is invalid", "fix the config check first")]
    paths = IndexPaths(t.config.index_path(t.root))
    build = f"unity-index index --project {quoted(t.root)}"
    if not header_ok(paths):
        header = read_header(paths)
        if header and header.get("schema_version") != SCHEMA_VERSION:
            detail = (
                f"the index at {paths.root} was written by another version (schema {header.get('schema_version')},"
                f" this one reads {SCHEMA_VERSION})"
            )
            return [Check("index", WARN, detail, f"{build} rebuilds it (any query would too)")]
        if header is None and paths.header.exists():
            return [Check("index", FAIL, f"the index at {paths.root} is damaged: index.json is unreadable", build)]
        if header is not None:
            missing = " and ".join(p.name for p in (paths.records, paths.tantivy) if not p.exists())
            detail = f"the index at {paths.root} is damaged: {missing or 'a part'} is missing"
            return [Check("index", FAIL, detail, f"{build} rebuilds it (any query would too)")]
        if (closed := _closed_above(paths.root)) is not None:
            detail = f"no index yet at {paths.root}, and none can be made there: {closed} cannot be written"
            config = quoted(t.root / CONFIG_FILE)
            fix = f"make {closed} writable, or set index_dir in {config} to a folder you can write"
            return [Check("index", FAIL, detail, fix)]
        return [Check("index", WARN, f"no index yet at {paths.root}", f"{build} (any query builds it too)")]
    checks = [Check("index", PASS, f"{paths.root} (generation {header_generation(paths)})")]
    intact = _intact(paths, build)
    if intact.status != PASS:
        return [*checks, intact]
    return [
        *checks,
        intact,
        _staleness(t.root, t.config, build),
        _consistency(t.root, t.config, paths, build),
        _lfs(paths),
        _metas(t.root, paths),
    ]


def _closed_above(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` that exists, when it cannot be written (a read-only
    checkout or volume, another user's project): building the index there fails, and `index`,
    the fix "no index yet" gives, said "Permission denied"."""
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    if os.path.isdir(folder) and not os.access(folder, os.W_OK | os.X_OK):
        return folder
    return None


def _intact(paths, build: str) -> Check:
    """The full check of the index files (`store.integrity`): garbled, truncated or deleted files,
    or files changed by something other than unity-index."""
    import sqlite3

    from indexer.store.integrity import cannot_write, verify

    try:
        problems = verify(paths, consistency=False)  # reported by index-consistent
    except sqlite3.Error as exc:  # a full disk: readers too write `records.db-shm`
        if not cannot_write(exc):
            raise
        detail = f"the index's record store cannot be written ({exc}): its files could not be checked"
        fix = "make room on the disk (or make the folder writable), then run doctor again"
        return Check("index-intact", FAIL, detail, fix)
    if not problems:
        return Check("index-intact", PASS, "every index file is whole (checksums, SQLite check, records)")
    shown = "; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
    return Check("index-intact", FAIL, f"the index is damaged: {shown}", f"{build} rebuilds it")


def _staleness(root: Path, config: Config, build: str) -> Check:
    from indexer.changes.diff import check

    st = check(root, config)
    if not st.indexed:
        return Check("index-current", FAIL, "the record store cannot be read", f"{build} --full")
    groups = (("added", st.added), ("changed", st.changed), ("deleted", st.deleted))
    n = sum(len(g) for _, g in groups)
    if not n:
        return Check("index-current", PASS, "the index matches the files on disk")
    counts = ", ".join(f"{len(g)} {what}" for what, g in groups if g)
    first = next(p for _, g in groups for p in g)
    return Check(
        "index-current",
        WARN,
        f"{n} file{'s' if n > 1 else ''} differ{'' if n > 1 else 's'} from the index ({counts}; e.g. {first})",
        f"{build}; `unity-index watch`, the git hooks or the MCP server keep it current",
    )


# check_consistency also compares the records with the files on disk; staleness is reported above.
_DISK_PROBLEMS = (
    ": on disk, not recorded",
    ": recorded, not on disk",
    ": recorded stat differs from the file",
    ": recorded content differs from the file",
)


def _consistency(root: Path, config: Config, paths, build: str) -> Check:
    from indexer.store.consistency import check_consistency

    problems = [p for p in check_consistency(paths, root, config) if not p.endswith(_DISK_PROBLEMS)]
    if not problems:
        return Check("index-consistent", PASS, "header, records, GUID table and full-text index agree")
    shown = "; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
    return Check("index-consistent", FAIL, f"{len(problems)} problems: {shown}", f"{build} --full rebuilds it")


def _lfs(paths) -> Check:
    """Files git checked out as Git LFS pointers: their scenes, prefabs and assets are not indexed
    (BossRoom's clone without `git lfs`: 8 scenes and 102 assets), which `status` lists but a user
    running `doctor` to see why a scene is never found would not look for."""
    pointers, counts = _files_by_kind(paths, lambda r: sorted(p for p, n in r.skipped() if n.startswith(LFS_NOTE)))
    if not pointers:
        return Check("lfs-content", PASS, "no file is a Git LFS pointer without its content")
    many = len(pointers) > 1
    detail = (
        f"{plural(len(pointers), 'file')} {'are' if many else 'is a'} Git LFS pointer{'s' if many else ''}, content not"
        f" checked out ({counts}; e.g. {pointers[0]}): not indexed"
    )
    return Check(
        "lfs-content",
        WARN,
        detail,
        "`git lfs install && git lfs pull` in the repository; the next command indexes them",
    )


def _metas(root: Path, paths) -> Check:
    """Files under Assets/ without their .meta (a repository ignoring `*.meta`): Unity gives each
    a new GUID on import, so every scene, prefab and asset naming it by its GUID loses it, and
    the index can resolve none of those references either."""
    bare, counts = _files_by_kind(paths, lambda r: r.without_meta(), most=5)
    if not bare:
        return Check("meta-files", PASS, "every file under Assets/ has its .meta")
    detail = (
        f"{plural(len(bare), 'file')} under Assets/ {'have' if len(bare) > 1 else 'has'} no .meta ({counts};"
        f" e.g. {bare[0]}): Unity gives each a new GUID on import, so the scenes and prefabs naming them by GUID"
        " lose them, and `refs` and `describe` cannot resolve those references"
    )
    ignore = root / ".gitignore"
    text = ignore.read_text(encoding="utf-8", errors="replace") if ignore.is_file() else ""
    ignored = any(line.strip() in ("*.meta", "**/*.meta", "/*.meta") for line in text.splitlines())
    fix = (
        "remove `*.meta` from .gitignore and commit" if ignored else "commit"
    ) + " the .meta files Unity wrote for them"
    if cased := _cased_metas(paths, bare):  # `VIbrationInstaller.cs.meta` beside `VibrationInstaller.cs`
        detail += (
            f"; {plural(len(cased), 'of them has', 'of them have')} a .meta named otherwise only in case (e.g."
            f" {cased[0]}), which a case-sensitive file system does not pair with it"
        )
        fix += "; rename a .meta named otherwise only in case as its file"
    return Check("meta-files", WARN, detail, fix)


def _cased_metas(paths, bare: list[str]) -> list[str]:
    """The `.meta` files of the project named as one of `bare` but for case."""
    from indexer.store.reader import Records

    reader = Records(paths)
    try:
        metas = {p.lower(): p for p in reader.kinds() if p.endswith(".meta")}
    finally:
        reader.close()
    return [metas[key] for p in bare if (key := f"{p}.meta".lower()) in metas]


def _files_by_kind(paths, pick, most: int | None = None) -> tuple[list[str], str]:
    """The files `pick` reads from the record store, and how many of each kind (most first)."""
    from indexer.store.reader import Records

    reader = Records(paths)
    try:
        found, kinds = pick(reader), reader.kinds()
    finally:
        reader.close()
    by_kind = Counter(kinds.get(p, "other") for p in found)
    ranked = sorted(by_kind.items(), key=lambda kv: (-kv[1], kv[0]))[:most]
    return found, ", ".join(f"{n} {kind}" for kind, n in ranked)

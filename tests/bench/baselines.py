"""What the indexer's costs are compared with, measured on the same tree in the same run:
universal-ctags and tree-sitter's parse on all cores for symbol extraction (in turn with the
cold index, run by run), `git status` and a bare interpreter start for a no-op
refresh, reading every file once for the I/O floor, and plain BM25 over whole files (tantivy, one
text field, its stock English stemmer) for query latency."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tantivy

from indexer.project import kind_of
from indexer.store.schema import is_searchable

from .measure import percentile, repeat, run, stat

CTAGS = "/usr/bin/ctags"
CONTENT = ("Assets", "Packages", "ProjectSettings")


class CsharpBaselines:
    """ctags and tree-sitter's parse of every C# file on all cores (`tsparse`), and that parse with
    the C# scanner's query (`tsquery`), over one tree, one run of each per `run_once`, so they can
    be measured in turn with the cold index."""

    def __init__(self, tree: Path) -> None:
        from .tsparse import cs_files, parse_all

        self.tree = tree
        self.files = cs_files(tree)
        self.ctags: list[float] = []
        self.parse: list[float] = []
        self.query: list[float] = []  # the parse and the C# scanner's query
        if self.files:
            parse_all(self.files[:64], query=True)  # warm: the grammar loaded, the pool's start method ready

    def run_once(self) -> None:
        from .tsparse import parse_all

        if os.path.exists(CTAGS):
            with tempfile.TemporaryDirectory() as tmp:
                self.ctags.append(run([CTAGS, "-R", "--languages=C#", "-f", os.path.join(tmp, "tags"), str(self.tree)]))
        if self.files:
            self.parse.append(parse_all(self.files))
            self.query.append(parse_all(self.files, query=True))

    def results(self) -> tuple[dict | None, dict | None, dict | None]:
        """ctags, the parse, and the parse with the scanner's query (the last two on all cores)."""
        parse = query = None
        if self.parse:
            parse = {**stat(self.parse), "files": len(self.files), "workers": os.cpu_count() or 1}
            query = {**stat(self.query), "files": len(self.files), "workers": os.cpu_count() or 1}
        return (stat(self.ctags) if self.ctags else None), parse, query


def python_pass(n: int) -> dict:
    return stat(repeat(lambda: run([sys.executable, "-c", "pass"]), n))


def ensure_git(root: Path) -> bool:
    """A git repository holding the tree (made for generated projects; real ones must have one)."""
    if subprocess.run(["git", "-C", str(root), "rev-parse", "--git-dir"], capture_output=True).returncode == 0:
        return True
    if not shutil.which("git"):
        return False
    (root / ".gitignore").write_text("Library/\nTemp/\nLogs/\nUserSettings/\n")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": True}
    subprocess.run(["git", "init", "-q", str(root)], **quiet)
    subprocess.run(["git", "-C", str(root), "add", "-A"], **quiet)
    ident = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
    subprocess.run(["git", "-C", str(root), *ident, "commit", "-q", "-m", "generated"], **quiet)
    return True


def git_status(root: Path, n: int) -> dict | None:
    if not ensure_git(root):
        return None
    run(["git", "-C", str(root), "status", "--porcelain"])  # the index file is refreshed once
    return stat(repeat(lambda: run(["git", "-C", str(root), "status", "--porcelain"]), n))


def cat_all(root: Path, n: int) -> dict:
    """Reading every content file once (page cache warm, like every other figure here)."""
    tops = " ".join(str(root / t) for t in CONTENT if (root / t).is_dir())
    cmd = ["sh", "-c", f"find {tops} -type f -print0 | xargs -0 cat > /dev/null"]
    return stat(repeat(lambda: run(cmd), n))


def content_files(root: Path) -> list[tuple[str, str]]:
    """(relative path, kind) of every content file, hidden names and `~` folders skipped."""
    out = []
    for top in CONTENT:
        for folder, dirs, names in os.walk(root / top):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.endswith("~"))
            for name in sorted(names):
                if name.startswith("."):
                    continue
                rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                out.append((rel, kind_of(rel)))
    return out


class PlainBM25:
    """One tantivy document per searchable file: path, and the whole content in one text field."""

    def __init__(self, root: Path, folder: Path):
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("path", stored=True, tokenizer_name="raw")
        builder.add_text_field("body", stored=False, tokenizer_name="en_stem")
        self.schema = builder.build()
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        t = time.perf_counter()
        self.index = tantivy.Index(self.schema, path=str(folder))
        writer = self.index.writer()
        for rel, kind in content_files(root):
            if not is_searchable(kind):
                continue
            text = (root / rel).read_bytes().decode("utf-8", errors="replace")
            writer.add_document(tantivy.Document(path=rel, body=text))
        writer.commit()
        writer.wait_merging_threads()
        self.build_seconds = time.perf_counter() - t
        self.index.reload()
        self.searcher = self.index.searcher()

    def search(self, text: str, limit: int = 10) -> list[str]:
        query = self.index.parse_query(_plain(text), ["body"])
        hits = self.searcher.search(query, limit).hits
        return [self.searcher.doc(addr)["path"][0] for _score, addr in hits]

    def latency(self, queries: list[str], samples: int) -> dict:
        for q in queries[:3]:
            self.search(q)
        times = []
        for i in range(samples):
            t = time.perf_counter()
            self.search(queries[i % len(queries)])
            times.append((time.perf_counter() - t) * 1000)
        out = stat(times, "ms")
        out.setdefault("p95", percentile(times, 95))
        return out


def _plain(text: str) -> str:
    """Query syntax characters removed: the baseline is asked the words, like the indexer."""
    return "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in text)

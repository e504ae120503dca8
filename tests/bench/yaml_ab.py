"""Unity YAML scanner speed, two source trees against each other in the same run, and whether they
write byte-identical records.

    python -m tests.bench.yaml_ab TREE[@suite]... --a SRC_A --b SRC_B [--runs 5] [--dump DIR]

SRC_A and SRC_B are folders holding an `indexer` package (a `git worktree` or `git archive` of
each commit). Each side runs in a worker process of its own (PYTHONPATH=SRC) that holds every
Unity YAML file of the trees in memory (`TREE@suite`: the sample the suite's "scanner unity_yaml"
figure scans, `measures.scan_throughput`), writes every record msgspec-encoded to DIR/<side>.rec
(which also warms it), then scans everything once per request; the driver asks the sides in turn,
A B then B A, so load on a shared machine falls on both alike. Reported: median MB/s of wall time
and per CPU second, and "IDENTICAL" when both sides wrote the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time

CONTENT = ("Assets", "Packages", "ProjectSettings")  # as `baselines.content_files`
SUITE_CAP = 8_000_000  # bytes per kind, as `measures.scan_throughput`


def _walk(root: str, tops: tuple[str, ...]) -> list[str]:
    """Relative paths under `root` (or under its `tops`), in the suite's order: sorted, files of a
    folder before its subfolders, hidden names, `~` folders and `Library` skipped."""
    out = []
    for top in tops or ("",):
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.endswith("~") and d != "Library")
            out += [
                os.path.relpath(os.path.join(folder, n), root).replace(os.sep, "/")
                for n in sorted(names)
                if not n.startswith(".")
            ]
    return out


def _kinds(name: str) -> frozenset[str]:
    """The file kinds a side scans: "unity_yaml" (every Unity YAML kind) or one kind ("csharp")."""
    from indexer import scanners

    return frozenset(scanners.UNITY_SERIALIZED_KINDS) if name == "unity_yaml" else frozenset({name})


def _files(trees: list[str], group: str) -> list[tuple[str, str, bytes]]:
    from indexer.project import kind_of

    kinds = _kinds(group)

    files = []
    for tree in trees:
        suite = tree.endswith("@suite")
        root = tree.removesuffix("@suite")
        sizes: dict[str, int] = {}
        for rel in _walk(root, CONTENT if suite else ()):
            kind = kind_of(rel)
            if kind not in kinds or (suite and sizes.get(kind, 0) >= SUITE_CAP):
                continue
            with open(os.path.join(root, rel), "rb") as f:
                data = f.read()
            files.append((rel, kind, data))
            sizes[kind] = sizes.get(kind, 0) + len(data)
    return files


def worker(group: str, trees: list[str]) -> None:
    """Answers `dump PATH` and `run` on stdin, one JSON line each on stdout."""
    import msgspec

    from indexer import scanners

    files = _files(trees, group)
    total = sum(len(d) for _, _, d in files)
    encode = msgspec.msgpack.Encoder().encode
    for request in sys.stdin:
        cmd, *arg = request.split()
        if cmd == "dump":
            digest = hashlib.sha256()
            with open(arg[0], "wb") as f:
                for rel, kind, data in files:
                    record = encode(scanners.scan(rel, kind, data))
                    f.write(len(record).to_bytes(4, "little") + record)
                    digest.update(record)
            print(json.dumps({"sha": digest.hexdigest()}), flush=True)
        elif cmd == "run":
            wall, cpu = time.perf_counter(), time.process_time()
            for rel, kind, data in files:
                scanners.scan(rel, kind, data)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(json.dumps({"wall": wall, "cpu": cpu, "mb": total / 1e6, "files": len(files)}), flush=True)


def _records(path: str) -> list[bytes]:
    out = []
    with open(path, "rb") as f:
        while head := f.read(4):
            out.append(f.read(int.from_bytes(head, "little")))
    return out


def _first_differences(a: str, b: str, show: int = 5) -> None:
    """The paths of the first records that differ (records start with their path)."""
    import msgspec

    ra, rb = _records(a), _records(b)
    diff = [i for i in range(max(len(ra), len(rb))) if ra[i : i + 1] != rb[i : i + 1]]
    print(f"{len(diff)} of {len(ra)} records differ")
    for i in diff[:show]:
        rec = msgspec.msgpack.decode(ra[i]) if i < len(ra) else msgspec.msgpack.decode(rb[i])
        print("  ", rec.get("path") if isinstance(rec, dict) else rec)


def main(group: str = "unity_yaml", doc: str | None = __doc__) -> None:
    """The driver; `group` is the kinds both sides scan (see `_kinds`)."""
    if sys.argv[1:2] == ["--worker"]:
        worker(sys.argv[2], sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dump", default="/tmp")
    args = parser.parse_args()
    sides = {"A": args.a, "B": args.b}
    os.makedirs(args.dump, exist_ok=True)
    procs = {
        side: subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", group, *args.trees],  # not -m: no cwd on the path
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=src),
        )
        for side, src in sides.items()
    }

    def ask(side: str, request: str) -> dict:
        proc = procs[side]
        assert proc.stdin and proc.stdout
        proc.stdin.write(request + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    shas = {side: ask(side, f"dump {os.path.join(args.dump, side)}.rec")["sha"] for side in sides}
    runs: dict[str, list[dict]] = {side: [] for side in sides}
    for i in range(args.runs):
        for side in ("A", "B") if i % 2 == 0 else ("B", "A"):
            runs[side].append(ask(side, "run"))
    for side, src in sides.items():
        mb, files = runs[side][0]["mb"], runs[side][0]["files"]
        walls = [mb / r["wall"] for r in runs[side]]
        cpus = [mb / r["cpu"] for r in runs[side]]
        print(
            f"{side} {src}: {files} files, {mb:.1f} MB: median {statistics.median(walls):.1f} MB/s"
            f" (runs {' '.join(f'{w:.1f}' for w in walls)}), per CPU second {statistics.median(cpus):.1f}"
        )
    print("IDENTICAL records" if shas["A"] == shas["B"] else "RECORDS DIFFER")
    if shas["A"] != shas["B"]:
        _first_differences(*(os.path.join(args.dump, f"{side}.rec") for side in sides))
    for proc in procs.values():
        assert proc.stdin
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    main()

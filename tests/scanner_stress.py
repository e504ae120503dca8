"""Pathological inputs for the scanners, and a runner that measures one scan in a fresh process.

    python -m tests.scanner_stress CASE SIZE [--limit-gb G] [--timeout S] [--code CHECKOUT]

CASE is one of `namespaces` (SIZE nested namespaces around one class), `big_cs` (SIZE MB of
ordinary classes), `one_line_cs` (SIZE MB of classes on a single line), `broken_cs` and
`one_line_broken_cs` (the same with one syntax error) and `deep_scene` (a scene whose transform
chain is SIZE deep, padded with flat objects to about 49 MB: `deep_scene_small` skips the
padding). It prints one line: the case, the input size, wall and CPU seconds and peak RSS of the
scanning process (getrusage of the child; CPU seconds are the honest figure on a shared
machine), or why it stopped (memory limit, timeout). `--code` measures another checkout's
`indexer` (a baseline). The unit tests import the generators with small sizes; timings are never
asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def nested_namespaces(depth: int) -> bytes:
    """`namespace N0 { namespace N1 { ... class Inner { int x; } ... } }`, one namespace a line."""
    lines = [f"namespace N{i} {{" for i in range(depth)]
    lines.append("class Inner { int x; void M() { x = 1; } }")
    lines.extend("}" for _ in range(depth))
    return "\n".join(lines).encode()


def _class_text(i: int) -> str:
    return (
        f"public class Widget{i} : MonoBehaviour, IWidget\n{{\n"
        f"    [SerializeField] private float speed{i} = 1.5f;\n"
        f"    public List<Item> items = new List<Item> {{ new Item(), new Item() }};\n"
        f"    public int Count {{ get; private set; }}\n"
        f'    private string label = "w{{}}\\"{i}";\n'
        f"    void Update()\n    {{\n"
        f"        if (speed{i} > 0) {{ transform.position += Vector3.up * speed{i} * Time.deltaTime; }}\n"
        f"        foreach (var it in items) {{ it.Use(this, x => x.Count + {i}); }}\n"
        f"    }}\n"
        f"    public static Widget{i} Make(GameObject go) => go.AddComponent<Widget{i}>();\n}}\n"
    )


def big_cs(megabytes: float, one_line: bool = False) -> bytes:
    """Ordinary MonoBehaviour classes in one namespace, up to `megabytes` MB."""
    limit = int(megabytes * 1_000_000)
    parts = ["using System.Collections.Generic;\nusing UnityEngine;\nnamespace Game.Big\n{\n"]
    size, i = len(parts[0]), 0
    while size < limit:
        part = _class_text(i)
        parts.append(part)
        size += len(part)
        i += 1
    parts.append("}\n")
    text = "".join(parts)
    if one_line:
        text = text.replace("\n", " ")
    return text.encode()


def with_syntax_error(data: bytes) -> bytes:
    """One syntax error (a parameter list left open), so the declarations-only copy is made."""
    return data.replace(b"Update()", b"Update(", 1)


_HEAD = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


def _object(go: int, tf: int, name: str, father: int, child: int) -> str:
    children = f"\n  - {{fileID: {child}}}" if child else " []"
    return (
        f"--- !u!1 &{go}\nGameObject:\n  m_ObjectHideFlags: 0\n  serializedVersion: 6\n"
        f"  m_Component:\n  - component: {{fileID: {tf}}}\n  m_Layer: 0\n  m_Name: {name}\n"
        f"  m_TagString: Untagged\n  m_IsActive: 1\n"
        f"--- !u!4 &{tf}\nTransform:\n  m_ObjectHideFlags: 0\n  m_GameObject: {{fileID: {go}}}\n"
        f"  m_LocalRotation: {{x: 0, y: 0, z: 0, w: 1}}\n  m_LocalPosition: {{x: 0, y: 1, z: 0}}\n"
        f"  m_LocalScale: {{x: 1, y: 1, z: 1}}\n  m_Children:{children}\n  m_Father: {{fileID: {father}}}\n"
    )


def deep_scene(depth: int, pad_megabytes: float = 0.0, name: str = "Node{k}") -> bytes:
    """A transform chain `depth` deep (object k is named `name` with {k} filled in, child of object
    k-1), then flat root objects until the file reaches `pad_megabytes` MB."""
    parts = [_HEAD]
    for k in range(depth):
        go, tf = 2 * k + 10, 2 * k + 11
        father = tf - 2 if k else 0
        child = tf + 2 if k + 1 < depth else 0
        parts.append(_object(go, tf, name.format(k=k), father, child))
    size = sum(len(p) for p in parts)
    k = 0
    base = 2 * depth + 100
    while size < pad_megabytes * 1_000_000:
        part = _object(base + 2 * k, base + 2 * k + 1, f"Flat{k}", 0, 0)
        parts.append(part)
        size += len(part)
        k += 1
    return "".join(parts).encode()


CASES = {
    "namespaces": (lambda n: nested_namespaces(int(n)), "Assets/Deep.cs", "csharp"),
    "big_cs": (lambda mb: big_cs(mb), "Assets/Big.cs", "csharp"),
    "one_line_cs": (lambda mb: big_cs(mb, one_line=True), "Assets/OneLine.cs", "csharp"),
    "broken_cs": (lambda mb: with_syntax_error(big_cs(mb)), "Assets/Broken.cs", "csharp"),
    "one_line_broken_cs": (
        lambda mb: with_syntax_error(big_cs(mb, one_line=True)),
        "Assets/OneLineBroken.cs",
        "csharp",
    ),
    "deep_scene": (lambda n: deep_scene(int(n), 49.0), "Assets/Deep.unity", "scene"),
    "deep_scene_small": (lambda n: deep_scene(int(n)), "Assets/Deep.unity", "scene"),
}

_CHILD = """
import sys, time
import indexer
from indexer.scanners import scan
data = open(sys.argv[1], "rb").read()
t = time.perf_counter()
rec = scan(sys.argv[2], sys.argv[3], data)
print(f"{time.perf_counter() - t:.2f} s in scan, {rec.status}, {len(rec.symbols)} symbols, {len(rec.refs)} refs,"
      f" {rec.note[:60]!r} ({indexer.__path__[0]})")
"""


def _limit(gigabytes: float):
    def apply() -> None:
        cap = int(gigabytes * 1024**3)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return apply


def measure(case: str, size: float, limit_gb: float, timeout: float, code: str = "") -> str:
    make, rel, kind = CASES[case]
    data = make(size)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / Path(rel).name
        path.write_bytes(data)
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                [sys.executable, "-c", _CHILD, str(path), rel, kind],
                capture_output=True,
                text=True,
                timeout=timeout,
                preexec_fn=_limit(limit_gb),
                env={**os.environ, "PYTHONPATH": code} if code else None,
                cwd=tmp,  # not the checkout: `python -c` puts the working folder first on sys.path
            )
            outcome = proc.stdout.strip() or f"failed: {proc.stderr.strip().splitlines()[-1:]}"
        except subprocess.TimeoutExpired:
            outcome = f"timeout after {timeout:.0f} s"
        wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss_mb, cpu = usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
    return (
        f"{case} {size:g}: {len(data) / 1e6:.1f} MB input, {wall:.1f} s wall, {cpu:.1f} s CPU, "
        f"peak RSS {rss_mb:.0f} MB; {outcome}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("size", type=float)
    ap.add_argument("--limit-gb", type=float, default=6.0, help="address-space cap of the scanning process")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--code", default="", help="a checkout whose `indexer` to measure (a baseline)")
    args = ap.parse_args()
    print(measure(args.case, args.size, args.limit_gb, args.timeout, args.code))


if __name__ == "__main__":
    main()

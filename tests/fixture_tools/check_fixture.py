"""Consistency checker for the hand-written Unity fixture projects under fixtures/.

Usage: python tests/fixture_tools/check_fixture.py [PROJECT_ROOT]
Exits non-zero and lists the problems found. ``check(root)`` returns the list.
Needs only the standard library plus tree_sitter / tree_sitter_c_sharp for the C# parse check.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

# GUIDs that legitimately do not resolve inside the project: built-in resources, and the
# script GUIDs of com.unity.ugui components (their sources live in Library/PackageCache).
ALLOWED_EXTERNAL_GUIDS = {
    "0000000000000000e000000000000000",  # built-in extra resources
    "0000000000000000f000000000000000",  # built-in default resources
    "4e29b1a8efbd4b44bb3f3716e73f07ff",  # UnityEngine.UI.Button
    "fe87c0e1cc204ed48ad3b37840f39efc",  # UnityEngine.UI.Image
    "5f7201a12d95ffc409449d95f23cf332",  # UnityEngine.UI.Text
    "0cd44c1031e13a943bb63640046fad76",  # UnityEngine.UI.CanvasScaler
    "dc42784cf147c0c48a680349fa168899",  # UnityEngine.UI.GraphicRaycaster
    "76c392e42b5098c458856cdf6ecaaaa1",  # UnityEngine.EventSystems.EventSystem
    "4f231c4fb786f3946a6b90b886c48677",  # UnityEngine.EventSystems.StandaloneInputModule
}

YAML_EXTS = {
    ".unity",
    ".prefab",
    ".asset",
    ".mat",
    ".controller",
    ".anim",
    ".overrideController",
    ".mask",
    ".physicMaterial",
    ".mixer",
    ".renderTexture",
    ".lighting",
    ".playable",
    ".signal",
    ".preset",
}
YAML_HEADER = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
DOC_HEADER = re.compile(r"^--- !u!(\d+) &(-?\d+)( stripped)?$")
GUID_RE = re.compile(r"^[0-9a-f]{32}$")
REF_RE = re.compile(r"\{fileID: (-?\d+)(?:,\s+guid: ([0-9A-Za-z]+),\s+type: (-?\d+))?\}")
GUID_REF_RE = re.compile(r"(?<![A-Za-z_])guid: ([0-9A-Za-z]*)")


def _ignored(p: Path) -> bool:
    n = p.name
    return n.startswith(".") or n.endswith("~") or n.lower() == "cvs" or n.endswith(".tmp")


def _asset_roots(root: Path) -> list[Path]:
    roots = [root / "Assets"]
    pk = root / "Packages"
    if pk.is_dir():
        roots += [d for d in sorted(pk.iterdir()) if d.is_dir() and (d / "package.json").is_file()]
    return [r for r in roots if r.is_dir()]


def _walk(d: Path):
    for p in sorted(d.iterdir()):
        if _ignored(p):
            continue
        yield p
        if p.is_dir():
            yield from _walk(p)


def _parse_docs(text: str):
    """Yield (header_line, class_id, file_id, stripped, body_text) for each YAML document."""
    docs = []
    cur = None
    for line in text.split("\n"):
        if line.startswith("--- "):
            if cur:
                docs.append(cur)
            m = DOC_HEADER.match(line)
            cur = [line, m, []]
        elif cur is not None:
            cur[2].append(line)
    if cur:
        docs.append(cur)
    return docs


def _yaml_error(body: str) -> str | None:
    """Unity's YAML is YAML: each document body must load (a plain scalar holding ': ' must be quoted)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        YAML(typ="base").load(body)
    except YAMLError as exc:
        return str(exc).splitlines()[0]
    return None


def _block_refs(body: list[str], key: str) -> list[int] | None:
    """fileIDs listed under `  key:` as `  - {fileID: N}` / `  - component: {fileID: N}`."""
    for i, line in enumerate(body):
        if line == f"  {key}: []":
            return []
        if line == f"  {key}:":
            out = []
            for nxt in body[i + 1 :]:
                if not nxt.startswith("  - "):
                    break
                m = re.search(r"\{fileID: (-?\d+)\}", nxt)
                if m:
                    out.append(int(m.group(1)))
            return out
    return None


def _scalar_ref(body: list[str], key: str) -> int | None:
    for line in body:
        if line.startswith(f"  {key}: "):
            m = re.match(r"\s+\S+: \{fileID: (-?\d+)", line)
            return int(m.group(1)) if m else None
    return None


def _check_yaml(path: Path, rel: str, guids: set[str], problems: list[str]) -> None:
    text = path.read_text(encoding="utf-8")
    if "\r" in text:
        problems.append(f"{rel}: CRLF line endings")
    if not text.startswith(YAML_HEADER):
        problems.append(f"{rel}: missing %YAML/%TAG header")
    if not text.endswith("\n"):
        problems.append(f"{rel}: no final newline")
    docs = _parse_docs(text)
    ids: dict[int, tuple[int, bool, list[str]]] = {}
    for header, m, body in docs:
        if not m:
            problems.append(f"{rel}: bad document header {header!r}")
            continue
        cls, fid, stripped = int(m.group(1)), int(m.group(2)), bool(m.group(3))
        if fid in ids:
            problems.append(f"{rel}: duplicate fileID {fid}")
        ids[fid] = (cls, stripped, body)
        yaml_error = _yaml_error("\n".join(body))
        if yaml_error:
            problems.append(f"{rel}: document &{fid} is not valid YAML: {yaml_error}")
        if not body or not re.match(r"^[A-Za-z]\w*:$", body[0]):
            problems.append(f"{rel}: document &{fid} does not start with its class name")
    # references
    for m in REF_RE.finditer(text):
        f, g = int(m.group(1)), m.group(2)
        if g is None and f != 0 and f not in ids:
            problems.append(f"{rel}: local reference {{fileID: {f}}} has no document")
    for m in GUID_REF_RE.finditer(text):
        g = m.group(1)
        if not GUID_RE.match(g):
            problems.append(f"{rel}: malformed guid {g!r}")
        elif g not in guids and g not in ALLOWED_EXTERNAL_GUIDS:
            problems.append(f"{rel}: guid {g} does not resolve to a .meta in the project")
    # hierarchy
    prefab_parents: dict[int, int] = {}
    for fid, (cls, _stripped, body) in ids.items():
        if cls == 1001:
            for line in body:
                if line.startswith("    m_TransformParent: "):
                    prefab_parents[fid] = int(re.search(r"-?\d+", line.split(":", 1)[1]).group(0))
    for fid, (cls, stripped, body) in ids.items():
        if stripped:
            continue
        if cls in (4, 224):
            father = _scalar_ref(body, "m_Father")
            children = _block_refs(body, "m_Children") or []
            for ch in children:
                if ch not in ids:
                    continue
                _ccls, cstripped, cbody = ids[ch]
                if cstripped:
                    pi = _scalar_ref(cbody, "m_PrefabInstance")
                    if prefab_parents.get(pi) != fid:
                        problems.append(
                            f"{rel}: stripped child {ch} of {fid} belongs to a prefab instance "
                            f"whose m_TransformParent is not {fid}"
                        )
                elif _scalar_ref(cbody, "m_Father") != fid:
                    problems.append(f"{rel}: transform {ch} is listed as child of {fid} but its m_Father differs")
            if father and father in ids and not ids[father][1]:
                siblings = _block_refs(ids[father][2], "m_Children") or []
                if fid not in siblings:
                    problems.append(f"{rel}: transform {fid} has m_Father {father} which does not list it")
        if cls == 1:
            for comp in _block_refs(body, "m_Component") or []:
                if comp in ids and not ids[comp][1] and _scalar_ref(ids[comp][2], "m_GameObject") != fid:
                    problems.append(f"{rel}: component {comp} listed on GameObject {fid} points elsewhere")
        else:
            go = _scalar_ref(body, "m_GameObject")
            if go and go in ids and not ids[go][1]:
                comps = _block_refs(ids[go][2], "m_Component") or []
                if fid not in comps:
                    problems.append(f"{rel}: component {fid} not listed in m_Component of GameObject {go}")
    for pi, parent in prefab_parents.items():
        if parent and parent not in ids:
            problems.append(f"{rel}: PrefabInstance {pi} has unknown m_TransformParent {parent}")


def _cs_parser():
    try:
        import tree_sitter_c_sharp
        from tree_sitter import Language, Parser
    except ImportError:  # pragma: no cover
        return None
    return Parser(Language(tree_sitter_c_sharp.language()))


def _first_bad_node(node):
    if node.type == "ERROR" or node.is_missing:
        return node
    for child in node.children:
        if child.has_error or child.is_missing or child.type == "ERROR":
            bad = _first_bad_node(child)
            if bad is not None:
                return bad
    return None


def check(root: Path) -> list[str]:
    root = Path(root)
    problems: list[str] = []
    meta_guids: dict[str, Path] = {}

    def rel(p: Path) -> str:
        return p.relative_to(root).as_posix()

    # .meta presence and GUIDs
    for base in _asset_roots(root):
        for p in _walk(base):
            if p.suffix == ".meta":
                asset = p.with_name(p.name[:-5])
                if not asset.exists():
                    problems.append(f"{rel(p)}: .meta without asset")
                text = p.read_text(encoding="utf-8")
                m = re.search(r"^guid: (\S+)$", text, re.M)
                if not text.startswith("fileFormatVersion: 2\n") or not m:
                    problems.append(f"{rel(p)}: malformed .meta")
                    continue
                g = m.group(1)
                if not GUID_RE.match(g):
                    problems.append(f"{rel(p)}: guid {g!r} is not 32 lowercase hex digits")
                if g in meta_guids:
                    problems.append(f"{rel(p)}: guid {g} also used by {rel(meta_guids[g])}")
                meta_guids[g] = p
                if asset.is_dir() and "folderAsset: yes" not in text:
                    problems.append(f"{rel(p)}: folder meta without folderAsset: yes")
            elif not p.with_name(p.name + ".meta").exists():
                problems.append(f"{rel(p)}: missing .meta")
    guids = set(meta_guids)

    # YAML assets (project assets, embedded packages, ProjectSettings)
    yaml_files = [p for base in _asset_roots(root) for p in _walk(base) if p.is_file() and p.suffix in YAML_EXTS]
    ps = root / "ProjectSettings"
    if ps.is_dir():
        yaml_files += sorted(ps.glob("*.asset"))
    for p in yaml_files:
        _check_yaml(p, rel(p), guids, problems)

    # JSON files
    json_files = [
        p
        for base in _asset_roots(root)
        for p in _walk(base)
        if p.is_file() and (p.suffix in (".asmdef", ".asmref") or p.name == "package.json")
    ]
    json_files += [p for p in (root / "Packages/manifest.json", root / "Packages/packages-lock.json") if p.exists()]
    for p in json_files:
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except ValueError as exc:
            problems.append(f"{rel(p)}: invalid JSON ({exc})")
            continue
        if p.suffix in (".asmdef", ".asmref"):
            refs = list(data.get("references", []))
            if "reference" in data:
                refs.append(data["reference"])
            for r in refs:
                if isinstance(r, str) and r.startswith("GUID:"):
                    g = r[5:]
                    if g not in guids:
                        problems.append(f"{rel(p)}: reference {r} does not resolve")

    # C# parse check
    parser = _cs_parser()
    cs_files = [p for base in _asset_roots(root) for p in _walk(base) if p.is_file() and p.suffix == ".cs"]
    if parser is None:
        problems.append("tree_sitter / tree_sitter_c_sharp not importable; C# files not checked")
    else:
        for p in cs_files:
            tree = parser.parse(p.read_bytes())
            if tree.root_node.has_error:
                bad = _first_bad_node(tree.root_node)
                where = f" at line {bad.start_point[0] + 1}" if bad is not None else ""
                problems.append(f"{rel(p)}: tree-sitter parse error{where}")
    return problems


def main(argv: list[str]) -> int:
    default = Path(__file__).resolve().parents[2] / "fixtures" / "DungeonCrawler"
    root = Path(argv[1]) if len(argv) > 1 else default
    problems = check(root)
    for pr in problems:
        print(pr)
    print(f"{root}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Differential check of the Unity YAML readers: the fast line reader against ruamel.yaml.

    python -m tests.yaml_differential PROJECT_DIR... [--show N]

For every Unity YAML file under the given folders (by extension, as the index sees them), every
document is read by both `yaml_reader.TextDoc` and `yaml_nodes.NodeDoc`, and every value the
scanner uses is compared: the single values (`m_Name`, `m_GameObject`, ...), prefab overrides,
serialized fields, GUID uses with their keys, UnityEvent calls, [SerializeReference] types,
material properties, animator entries and animation events, each with its file line. Documents the
scanner sends to ruamel.yaml anyway (outside the line reader's subset) are counted, not compared.
Exit status 1 when any compared document differs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from indexer.project import kind_of
from indexer.scanners import UNITY_SERIALIZED_KINDS
from indexer.scanners.yaml_facts import DocReader
from indexer.scanners.yaml_nodes import NodeDoc, parser_kind
from indexer.scanners.yaml_reader import join_wrapped_flows, outside_subset, split

TOP_KEYS = (
    "m_Name",
    "m_TagString",
    "m_Layer",
    "m_IsActive",
    "m_Enabled",
    "m_EditorClassIdentifier",
    "m_IsPrefabParent",
)
REF_KEYS = (
    "m_GameObject", "m_Father", "m_Script", "m_PrefabInstance", "m_PrefabInternal", "m_ParentPrefab",
    "m_SourcePrefab", "m_Shader", "m_Motion",
)  # fmt: skip


def facts(doc: DocReader) -> dict[str, object]:
    """Every value the scanner reads from a document, lines as file lines."""

    def lines(items: list) -> list[tuple]:
        return [tuple(item._replace(line=doc.at(item.line))) if "line" in item._fields else item for item in items]

    out: dict[str, object] = {"class_name": doc.class_name}
    out.update({f"top {k}": doc.top(k) for k in TOP_KEYS})
    out.update({f"ref {k}": doc.top_ref(k) for k in REF_KEYS})
    out.update({f"first_ref {k}": doc.first_ref(k) for k in ("m_TransformParent", "m_SourcePrefab")})
    out["state_machine_behaviours"] = doc.block_ref_ids("m_StateMachineBehaviours")
    out["instance_name"] = doc.instance_name()
    out["modifications"] = lines(doc.modifications())
    out["fields"] = [(f.key, f.shown, doc.at(f.line), f.local) for f in doc.fields()]
    out["guid_uses"] = lines(doc.guid_uses())
    out["calls"] = lines(doc.calls())
    out["type_uses"] = lines(doc.type_uses())
    # a material's alone, which the scanner reads (a ProBuilder mesh's `m_Colors` list of bare
    # colours is no material's: the readers differed on it, and nothing reads it)
    out["properties"] = lines(doc.properties()) if doc.class_name == "Material" else []
    out["entries"] = [lines(doc.entries(k)) for k in ("m_AnimatorParameters", "m_AnimatorLayers", "m_Conditions")]
    out["transitions"] = [
        doc.block_ref_ids(k) for k in ("m_Transitions", "m_AnyStateTransitions", "m_EntryTransitions")
    ]
    out["function_names"] = lines(doc.function_names())
    return out


@dataclass
class Result:
    files: int = 0
    documents: int = 0
    compared: int = 0
    routed: Counter[str] = field(default_factory=Counter)
    unparsable: int = 0
    differing: int = 0
    by_fact: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)


def yaml_files(root: Path) -> Iterator[tuple[Path, str]]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("Library", "Temp"))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if kind_of(rel) in UNITY_SERIALIZED_KINDS:
                yield path, rel


def compare_file(path: Path, rel: str, result: Result, show: int) -> None:
    data = path.read_bytes()
    if not data.lstrip(b"\xef\xbb\xbf").startswith(b"%YAML") or b"\0" in data[:8192]:
        return
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    joined, joins = join_wrapped_flows(text)
    result.files += 1
    for fast, orig in zip(split(joined, joins), split(text), strict=True):
        result.documents += 1
        reason = outside_subset(fast.body)
        if reason:
            result.routed[reason] += 1
            continue
        try:
            ref = NodeDoc(orig.class_id, orig.file_id, orig.stripped, orig.line, orig.body)
        except Exception:
            result.unparsable += 1
            continue
        result.compared += 1
        a, b = facts(fast), facts(ref)
        differ = [k for k in a if a[k] != b[k]]
        if differ:
            result.differing += 1
            result.by_fact.update(differ)
            if len(result.examples) < show:
                k = differ[0]
                result.examples.append(f"{rel} &{fast.file_id} line {fast.line} {k}:\n  fast {a[k]!r}\n  yaml {b[k]!r}")


def run(roots: list[Path], show: int = 5) -> Result:
    result = Result()
    for root in roots:
        for path, rel in yaml_files(root):
            compare_file(path, rel, result, show)
    return result


def report(result: Result) -> str:
    routed = ", ".join(f"{n} {why}" for why, n in result.routed.most_common()) or "none"
    lines = [
        f"{result.files} files, {result.documents} documents; compared {result.compared} "
        f"(ruamel.yaml {parser_kind()} parser), differing {result.differing}; "
        f"sent to ruamel.yaml by the scanner: {sum(result.routed.values())} ({routed}); "
        f"not valid YAML: {result.unparsable}",
    ]
    if result.by_fact:
        lines.append("differing values: " + ", ".join(f"{k} {n}" for k, n in result.by_fact.most_common()))
    lines.extend(result.examples)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("roots", nargs="+", type=Path)
    ap.add_argument("--show", type=int, default=5, help="examples of differences to print")
    args = ap.parse_args()
    result = run(args.roots, args.show)
    print(report(result))
    sys.exit(1 if result.differing else 0)


if __name__ == "__main__":
    main()

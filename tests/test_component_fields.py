"""Which serialized fields an outline shows, and how (indexer/query/component_fields.py)."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.describe import describe
from indexer.query.workspace import open_workspace

from .conftest import meta, write_project

SCANNER, NETWORKED = "33333333333333333333333333333333", "44444444444444444444444444444444"


def _component(anchor: int, go: int, guid: str, fields: str) -> str:
    return (
        f"--- !u!114 &{anchor}\nMonoBehaviour:\n  m_GameObject: {{fileID: {go}}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n{fields}"
    )


def test_a_value_no_field_of_the_script_reads_is_said_to_be_unused(tmp_path: Path) -> None:
    """A trial: `describe Scanner.prefab` showed `AnimationDuration: 0.8`, a key Unity keeps from
    before the field was renamed `animationDuration` and never reads. A former name the field
    declares (`FormerlySerializedAs`) and a property's backing field are read; a script deriving
    from a class outside the project may inherit any field: none of its values is said unused."""
    scanner = (
        "using UnityEngine;\nusing UnityEngine.Serialization;\n"
        "public class Scanner : MonoBehaviour, IScanner {\n"
        "  public LineRenderer lineRenderer;\n"
        "  public float animationDuration;\n"
        '  [FormerlySerializedAs("oldSpeed")] public float speed;\n'
        "  [field: SerializeField] public int Count { get; set; }\n"
        "}\n"
        "public interface IScanner { }\n"
    )
    networked = "public class Synced : Unity.Netcode.NetworkBehaviour {\n  public int hits;\n}\n"
    prefab = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 200}\n  - component: {fileID: 300}\n"
        "  m_Name: Scanner\n"
        + _component(
            200,
            100,
            SCANNER,
            "  animationDuration: 0.5\n  AnimationDuration: 0.8\n  oldSpeed: 2\n  <Count>k__BackingField: 3\n",
        )
        + _component(300, 100, NETWORKED, "  hits: 1\n  syncInterval: 0.1\n")
    )
    files = {
        "Assets/Scanner.cs": scanner,
        "Assets/Scanner.cs.meta": meta(SCANNER),
        "Assets/Synced.cs": networked,
        "Assets/Synced.cs.meta": meta(NETWORKED),
        "Assets/Scanner.prefab": prefab,
    }
    root = write_project(tmp_path / "P", files)
    update(root, Config(workers=1))
    graph = open_workspace(root, [(root, Config())]).projects[0].graph
    lines = describe(graph, "Assets/Scanner.prefab").text.splitlines()
    assert (
        "    Scanner: animationDuration: 0.5; AnimationDuration: 0.8 (unused: no such field in the script);"
        " oldSpeed: 2; <Count>k__BackingField: 3"
    ) in lines
    assert "    Synced: hits: 1; syncInterval: 0.1" in lines

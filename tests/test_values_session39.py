"""Values nested in `[Serializable]` classes (a user's trial, docs/cli.md "refs"): `refs Hazard.damage`
printed `{useConstant: 0, constantValue, valueObject: None}` and `describe` a GUID cut before it could be
named, so "how much damage, how many hearts" had no answer. Each test was seen failing before the change."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.scanners.yaml_mapping import Mapping, mapping_shown
from indexer.scanners.yaml_nodes import NodeDoc
from indexer.scanners.yaml_reader import split

from .conftest import meta, run_cli, write_project
from .test_unity_event_targets import _behaviour, _header

HEALTH, HAZARD, HEARTS_VALUE = "6" * 32, "5" * 32, "4" * 32
ASSET = "cce982abeb95e8141a65aa8a4e13a8bb"  # `Assets/Data/player/hearts max.asset`

# A value held either in the field (`useConstant: 0`) or in a shared asset (`valueObject`), the
# pattern of `FloatReference` and `ValueRef<T>`: the number sits two levels down.
CODE = {
    "ValueRef": "[System.Serializable]\npublic abstract class ValueRef<T>\n{\n    public int useConstant;\n"
    "    public T constantValue;\n    public ValueAsset<T> valueObject;\n}\n",
    "ValueAsset": "using UnityEngine;\npublic abstract class ValueAsset<T> : ScriptableObject\n"
    "{\n    public T value;\n}\n",
    "Hearts": "[System.Serializable]\npublic struct Hearts\n{\n    public int fractions;\n    public int hearts;\n}\n",
    "HeartsRef": "[System.Serializable]\npublic class HeartsRef : ValueRef<Hearts> { }\n",
    "HeartsValue": "public class HeartsValue : ValueAsset<Hearts> { }\n",
    "Hazard": "using UnityEngine;\npublic class Hazard : MonoBehaviour\n{\n    public HeartsRef damage;\n}\n",
    "Health": "using UnityEngine;\npublic class Health : MonoBehaviour\n{\n    public HeartsRef maxHearts;\n"
    "    public int setHpOnStart;\n}\n",
}
GUIDS = {"ValueRef": "1" * 32, "ValueAsset": "8" * 32, "Hearts": "2" * 32, "HeartsRef": "3" * 32}
GUIDS |= {"HeartsValue": HEARTS_VALUE, "Hazard": HAZARD, "Health": HEALTH}


def _hearts_ref(key: str, use: int, hearts: int, asset: str = "") -> str:
    held = f"{{fileID: 11400000, guid: {asset}, type: 2}}" if asset else "{fileID: 0}"
    return (
        f"  {key}:\n    useConstant: {use}\n    constantValue:\n      fractions: 0\n      hearts: {hearts}\n"
        f"    valueObject: {held}\n"
    )


def _squire() -> str:
    """A creature whose health says its hearts through the shared asset, its hazard's damage in place."""
    root = (
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n  - component: {fileID: 102}\n"
        "  m_Name: _squire\n  m_IsActive: 1\n--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n"
        "  m_Children:\n  - {fileID: 201}\n  m_Father: {fileID: 0}\n"
    )
    child = (
        "--- !u!1 &200\nGameObject:\n  m_Component:\n  - component: {fileID: 201}\n  - component: {fileID: 202}\n"
        "  m_Name: hazard\n  m_IsActive: 1\n--- !u!4 &201\nTransform:\n  m_GameObject: {fileID: 200}\n"
        "  m_Children: []\n  m_Father: {fileID: 101}\n"
    )
    health = _behaviour(102, 100, HEALTH, _hearts_ref("maxHearts", 1, 1, ASSET) + "  setHpOnStart: 1\n")
    return _header() + root + health + child + _behaviour(202, 200, HAZARD, _hearts_ref("damage", 0, 1))


def _hearts_asset() -> str:
    return _header() + (
        "--- !u!114 &11400000\nMonoBehaviour:\n  m_GameObject: {fileID: 0}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {HEARTS_VALUE}, type: 3}}\n  m_Name: hearts max\n"
        "  m_EditorClassIdentifier: \n  value:\n    fractions: 0\n    hearts: 3\n"
    )


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files: dict[str, str | bytes] = {f"Assets/Scripts/{n}.cs": c for n, c in CODE.items()}
    files |= {f"Assets/Scripts/{n}.cs.meta": meta(GUIDS[n]) for n in CODE}
    files["Assets/Prefabs/Creatures/_squire.prefab"] = _squire()
    files["Assets/Prefabs/Creatures/_squire.prefab.meta"] = meta("7" * 32, "PrefabImporter")
    files["Assets/Data/player/hearts max.asset"] = _hearts_asset()
    files["Assets/Data/player/hearts max.asset.meta"] = meta(ASSET, "NativeFormatImporter")
    root = write_project(tmp_path_factory.mktemp("values") / "Game", files)
    assert run_cli("index", "--project", str(root)).returncode == 0
    return root


def _out(root: Path, *args: str) -> list[str]:
    done = run_cli(*args, "--project", str(root))
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_describe_shows_a_struct_s_numbers_nested_in_a_field_and_names_the_asset(game: Path) -> None:
    """`Health: maxHearts: {useConstant: 0, constantValue, valueObject: None}` hid the hearts; a GUID
    past 80 characters was cut (`guid:cce982abeb95e8141a65aa8a4e13a…`) where the index names the asset."""
    lines = _out(game, "describe", "Assets/Prefabs/Creatures/_squire.prefab")
    assert lines[1:7] == [
        "_squire  L3",
        "  components: Transform, Health",
        "    Health: maxHearts: {useConstant: 1, valueObject: Assets/Data/player/hearts max.asset, …}; setHpOnStart: 1",
        "  hazard  L31",
        "    components: Transform, Hazard",
        "      Hazard: damage: {useConstant: 0, constantValue: {fractions: 0, hearts: 1}, valueObject: None}",
    ]
    asset = _out(game, "describe", "Assets/Data/player/hearts max.asset")
    assert "  L10 value: {fractions: 0, hearts: 3}" in asset


def test_refs_of_the_holding_field_gives_its_nested_values(game: Path) -> None:
    assert _out(game, "refs", "Hazard.damage") == [
        "member damage of Hazard",
        "in assets (1):",
        "  Assets/Prefabs/Creatures/_squire.prefab:51 [value]  _squire/hazard > Hazard.damage: {useConstant: 0,"
        " constantValue: {fractions: 0, hearts: 1}, valueObject: None}",
    ]
    assert _out(game, "refs", "Health.maxHearts")[2] == (
        "  Assets/Prefabs/Creatures/_squire.prefab:24 [value]  _squire > Health.maxHearts: {useConstant: 1,"
        " valueObject: Assets/Data/player/hearts max.asset, …}"
    )


def test_refs_of_a_struct_member_held_through_a_generic_class_s_parameter(game: Path) -> None:
    """`HeartsRef : ValueRef<Hearts>` holds a `Hearts` as `ValueRef<T>`'s `T constantValue`, the asset
    class `HeartsValue : ValueAsset<Hearts>` as `T value`: `refs Hearts.hearts` said no usages."""
    assert _out(game, "refs", "Hearts.hearts")[:5] == [
        "member hearts of Hearts",
        "in assets (3):",
        "  Assets/Data/player/hearts max.asset:12 [value]  hearts max > HeartsValue.value.hearts: 3",
        "  Assets/Prefabs/Creatures/_squire.prefab:28 [value]  _squire > Health.maxHearts.constantValue.hearts: 1",
        "  Assets/Prefabs/Creatures/_squire.prefab:55 [value]  _squire/hazard > Hazard.damage.constantValue.hearts: 1",
    ]


def test_a_pack_shows_the_nested_values(game: Path) -> None:
    lines = _out(game, "context", "how much damage does the squire's hazard deal", "--budget", "1500")
    assert (
        "      Hazard: damage: {useConstant: 0, constantValue: {fractions: 0, hearts: 1}, valueObject: None}" in lines
    )


def _both(fields: str) -> list[tuple[str, str]]:
    """(key, shown) of a MonoBehaviour's fields by the line reader, checked equal to the YAML parser's."""
    (doc,) = split(f"%YAML 1.1\n--- !u!114 &1\nMonoBehaviour:\n  m_Name: \n{fields}")
    node = NodeDoc(doc.class_id, doc.file_id, doc.stripped, doc.line, doc.body)
    assert node.fields() == doc.fields()
    return [(f.key, f.shown) for f in doc.fields()]


def test_both_readers_read_nested_mappings_alike() -> None:
    """Three levels below the field (a block deeper is its key), a list in one by its count, a
    scalar Unity wrapped by its key alone, past eight keys a `…`."""
    deep = "  stats:\n    a:\n      b:\n        c:\n          d: 1\n        e: 2\n    f: 3\n"
    listed = "  wave:\n    spawn:\n    - name: Grunt\n    - name: Brute\n    count: 3\n"
    wrapped = "  note:\n    text: a line Unity wrapped\n      onto the next one\n    size: 2\n"
    many = "  grid:\n" + "".join(f"    k{i}: {i + 1}\n" for i in range(9))
    assert _both(deep + listed + wrapped + many) == [
        ("stats", "{a: {b: {c, e: 2}}, f: 3}"),
        ("wave", "{spawn: [2 items], count: 3}"),
        ("note", "{text, size: 2}"),
        ("grid", "{k0: 1, k1: 2, k2: 3, k3: 4, k4: 5, k5: 6, k6: 7, k7: 8, …}"),
    ]


def test_a_mapping_too_wide_leaves_out_its_least_telling_values_first() -> None:
    """Zeros, None and empty values go first, then the others from the end, a GUID last and whole."""
    guid = f"guid:{ASSET}"
    value = Mapping(
        [
            ("useConstant", "1"),
            ("constantValue", Mapping([("fractions", "0"), ("hearts", "2")])),
            ("speed", "4.5"),
            ("valueObject", guid),
            ("offset", "{x: 0, y: 0}"),
        ]
    )
    assert mapping_shown(value, 110) == f"{{useConstant: 1, constantValue: {{hearts: 2, …}}, valueObject: {guid}, …}}"
    assert mapping_shown(value) == f"{{useConstant: 1, valueObject: {guid}, …}}"
    assert mapping_shown(value, 60) == f"{{valueObject: {guid}, …}}"
    assert mapping_shown(value, 40) == "{…}"


def test_a_class_binding_the_parameter_in_the_held_type_s_own_file_is_followed(tmp_path: Path) -> None:
    """`HeartsRef : ValueRef<Hearts>` declared in `Hearts.cs` itself: `refs Hearts.hearts` lost both
    values held through it (the binding classes were looked for in the files using the type only;
    a review of session 39)."""
    code = dict(CODE)
    code["Hearts"] = CODE["Hearts"] + CODE["HeartsRef"]
    del code["HeartsRef"]
    files: dict[str, str | bytes] = {f"Assets/Scripts/{n}.cs": c for n, c in code.items()}
    files |= {f"Assets/Scripts/{n}.cs.meta": meta(GUIDS[n]) for n in code}
    files["Assets/Prefabs/Creatures/_squire.prefab"] = _squire()
    files["Assets/Data/player/hearts max.asset"] = _hearts_asset()
    files["Assets/Data/player/hearts max.asset.meta"] = meta(ASSET, "NativeFormatImporter")
    root = write_project(tmp_path / "Game", files)
    assert run_cli("index", "--project", str(root)).returncode == 0
    assert _out(root, "refs", "Hearts.hearts")[1] == "in assets (3):"

"""Promises of docs/cli.md (from its `query` section on), README.md and docs/indexing.md that no test
held (session 56's audit, /tmp/s56/promise/promises.md): each asserted through the real CLI on a
project in tmp_path, and seen failing with the code that keeps it broken (the commit messages say
how)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from .conftest import REPO, copy_fixture, run_cli, write_project

YAML_HEAD = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


def _json(*args: str) -> dict:
    r = run_cli(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# -- docs/indexing.md, "Which files" -----------------------------------------------------------

# Every extension the table of kinds names, as it names it (a case Unity reads as it reads the
# lower one), with the kind it gives.
_KINDS = {
    "csharp": ".cs",
    "meta": ".meta",
    "scene": ".unity",
    "prefab": ".prefab .PREFAB",
    "asset": ".asset",
    "material": ".mat",
    "animator": ".controller .overrideController",
    "animation": ".anim",
    "shader": ".shader",
    "shader_include": ".hlsl .cginc .glslinc",
    "compute_shader": ".compute",
    "shadergraph": ".shadergraph .shadersubgraph",
    "asmdef": ".asmdef",
    "asmref": ".asmref",
    "input_actions": ".inputactions",
    "json": ".json",
    "text": ".txt .md .xml .csv .tsv .yaml .yml .htm .html .srt .vtt .rsp .lua",
    "uxml": ".uxml",
    "uss": ".uss",
    "unity_yaml": (
        ".physicMaterial .mixer .lighting .preset .mask .renderTexture .spriteatlas .spriteatlasv2"
        " .terrainlayer .signal .playable .flare .guiskin .fontsettings .brush .cubemap .physicsMaterial2D"
        " .shadervariants .giparams .scenetemplate .colors .curves .gradients"
    ),
    "vfx": ".vfx .vfxoperator .vfxblock",
    "texture": ".png .jpg .tga .psd .dds .bmp .gif",
    "model": ".fbx .obj .blend .dae .3ds .max .ma .mb",
    "audio": ".wav .mp3 .ogg .flac",
    "font": ".ttf .otf",
    "plugin": ".dll .so .bundle",
    "other": ".bytes .fnt .lsdata",
}


def test_every_extension_the_table_of_kinds_names_gets_its_kind(tmp_path: Path) -> None:
    """indexing.md, "Which files": the table of kinds, extension by extension (tests held a dozen
    of its 80), a file under `ProjectSettings/` is `settings` whatever its extension, and any other
    extension is `other`: `status --json` counts each kind as the table says."""
    files: dict[str, str | bytes] = {}
    for kind, extensions in _KINDS.items():
        for i, ext in enumerate(extensions.split()):
            text = ext.lower() in (".cs", ".meta", ".json", ".asmdef", ".asmref", ".inputactions")
            files[f"Assets/{kind}/F{i}{ext}"] = "{}\n" if text else b"\x89 binary-ish \x00\x01"
    files["Assets/csharp/F0.cs"] = "public class F0 { }\n"
    files["Assets/meta/F0.meta"] = "fileFormatVersion: 2\nguid: 0123456789abcdef0123456789abcdef\n"
    files["ProjectSettings/Extra.json"] = "{}\n"
    root = write_project(tmp_path / "P", files)
    assert run_cli("index", "--quiet", "--project", str(root)).returncode == 0
    counts = _json("status", "--project", str(root))["by_kind"]
    expected = Counter({kind: len(extensions.split()) for kind, extensions in _KINDS.items()})
    expected["settings"] = 1
    assert counts == dict(expected)


# -- docs/cli.md, `query` ----------------------------------------------------------------------


def _scene_objects(first_id: int, size: int) -> str:
    """GameObject documents from `first_id` on, at least `size` bytes of them."""
    out, fid = [], first_id
    while sum(map(len, out)) < size:
        out.append(f"--- !u!1 &{fid}\nGameObject:\n  m_ObjectHideFlags: 0\n  m_Name: Rock{fid}\n")
        fid += 2
    return "".join(out)


def _sign(fid: int) -> str:
    return (
        f"--- !u!1 &{fid}\nGameObject:\n  m_ObjectHideFlags: 0\n  m_Name: Sign\n"
        f"--- !u!114 &{fid + 1}\nMonoBehaviour:\n  m_GameObject: {{fileID: {fid}}}\n"
        "  m_text: Open the Zorbulon Gate\n"
    )


def test_a_quoted_text_is_looked_for_in_a_file_s_first_1_000_000_bytes(tmp_path: Path) -> None:
    """cli.md, `query`: a quoted text is looked for "in each file's first 1,000,000 bytes
    (`query/texts.py` `READ_LIMIT`: a label past them ... is not found there, and the scene ranks
    by its words alone, without the reason)"; the same label at a scene's top is found, named by
    its line, the reason `holds "..."`."""
    far = YAML_HEAD + _scene_objects(1000, 1_000_000) + _sign(500_000)
    assert len(far.encode()) - len(_sign(500_000)) > 1_000_000
    root = write_project(tmp_path / "P", {"Assets/Near.unity": YAML_HEAD + _sign(100), "Assets/Far.unity": far})
    results = _json("query", '"Zorbulon Gate"', "--project", str(root))["results"]
    got = [(r["path"], r["name"], r["line"], r["snippet"], r["reason"]) for r in results]
    assert got == [
        ("Assets/Near.unity", "Sign.m_text", 10, "m_text: Open the Zorbulon Gate", 'text match; holds "zorbulon gate"'),
        ("Assets/Far.unity", "Far.unity", 1, "", "text match"),
    ]


def test_a_guid_alone_in_any_form_gives_its_file_then_the_files_referencing_it(tmp_path: Path) -> None:
    """cli.md, `query`: "a GUID alone (`2ec3...`, `guid:2ec3…`) gives the file it names, then the
    files referencing it at their first line naming it, the reason `references GUID … (field)`";
    `refs` says the other forms (`guid: …` as Unity writes it, a whole `{fileID: …, guid: …}`
    reference) are read alike "in `refs`, `describe`, `query` and the MCP tools"."""
    root = copy_fixture(tmp_path / "DungeonCrawler")
    guid = "06da43a2b5a9504318c3177567ab555f"  # PlayerHealth.cs's
    assert f"guid: {guid}\n" in (root / "Assets/Scripts/Player/PlayerHealth.cs.meta").read_text()
    expected = [
        ("Assets/Scripts/Player/PlayerHealth.cs", 0, f"the file of GUID {guid}"),
        ("Assets/Prefabs/Player.prefab", 86, f"references GUID {guid} (m_Script)"),
    ]
    for form in (guid, f"guid:{guid}", f"guid: {guid}", f"{{fileID: 11500000, guid: {guid}, type: 3}}"):
        results = _json("query", form, "--project", str(root))["results"]
        assert [(r["path"], r["line"], r["reason"]) for r in results] == expected, form
    r = run_cli("query", guid, "--project", str(root))
    assert r.stdout == (
        f" 1. Assets/Scripts/Player/PlayerHealth.cs  [csharp] PlayerHealth.cs  (2.00)\n"
        f"      why: the file of GUID {guid}\n"
        f" 2. Assets/Prefabs/Player.prefab:86  [prefab] Player.prefab  (1.00)\n"
        f"      why: references GUID {guid} (m_Script)\n"
    )


# -- docs/cli.md, `describe` -------------------------------------------------------------------


def test_describe_says_a_scene_a_script_loads_by_name_is_used_as_a_load(tmp_path: Path) -> None:
    """cli.md, `describe`: "Ends with what the file uses, each by how (`(script)`, ..., `(type)`,
    `(event call)`, `(load)`; `--json` keeps the edge's kind)": the examples held every way but
    `(load)`, a scene `SceneManager.LoadScene` names."""
    root = copy_fixture(tmp_path / "DungeonCrawler")
    path = "Assets/Scripts/Core/GameManager.cs"
    r = run_cli("describe", path, "--project", str(root))
    assert r.returncode == 0, r.stderr
    uses = next(line for line in r.stdout.splitlines() if line.startswith("uses: "))
    assert uses == (
        "uses: Assets/Scenes/MainMenu.unity (load), Assets/Scripts/Core/GameEvents.cs (type),"
        " Assets/Scripts/Core/GameState.cs (type), Assets/Scripts/Core/Singleton.cs (base class),"
        " Assets/Scripts/Player/PlayerHealth.cs (type), Assets/Scripts/Save/ISaveable.cs (interface),"
        " Assets/Scripts/Save/SaveData.cs (type)"
    )
    used = _json("describe", path, "--project", str(root))["uses"]
    assert used[0] == {"path": "Assets/Scenes/MainMenu.unity", "edge": "loads"}


def test_describe_of_the_guid_of_unity_s_built_in_resources_is_exit_2_saying_so(tmp_path: Path) -> None:
    """cli.md, `describe`: "A GUID of Unity's built-in resources (`0000000000000000e000000000000000`,
    `...f000...`, `...d000...`) exits 2, `GUID ... is Unity's built-in extra resources: no file of
    the project, so there is nothing to describe`, and `refs` of it says so in its note" (tests held
    describe of f000 and refs of e000)."""
    root = write_project(tmp_path / "P", {"Assets/Hero.cs": "public class Hero { }\n"})
    for letter, which in (("e", "extra"), ("f", "default"), ("d", "editor")):
        guid = f"0000000000000000{letter}000000000000000"
        r = run_cli("describe", guid, "--project", str(root))
        assert (r.returncode, r.stdout, r.stderr.splitlines()[-1]) == (
            2,
            "",
            f"error: GUID {guid} is Unity's built-in {which} resources: no file of the project, so there is"
            " nothing to describe",
        ), guid
        target = _json("refs", guid, "--project", str(root))["target"]
        assert (target["kind"], target["note"]) == (
            "guid",
            f"Unity's built-in {which} resources: no file of the project (what names them is not recorded)",
        ), guid


# -- README.md -----------------------------------------------------------------------------------


def test_the_section_agents_install_writes_costs_what_the_readme_says(tmp_path: Path) -> None:
    """README.md: `agents install` "writes a short marked section (354 tokens) into `AGENTS.md`"
    (docs/cli.md's figure was held, the README's not): the section it writes, by the estimate."""
    from indexer.cli.agents import BEGIN, END
    from indexer.query.tokens import counter

    said = re.search(r"writes a short marked section \((\d+) tokens\)", (REPO / "README.md").read_text())
    assert said is not None
    root = write_project(tmp_path / "Game", {"Assets/Hero.cs": "public class Hero { }\n"})
    r = run_cli("agents", "install", "--client", "agents", "--project", str(root))
    assert r.returncode == 0, r.stderr
    text = (root / "AGENTS.md").read_text()
    written = text[text.index(BEGIN) : text.index(END) + len(END)] + "\n"
    assert counter("estimate").count(written) == int(said.group(1))


# -- docs/cli.md, `describe`'s users -------------------------------------------------------------


def test_describe_lists_twenty_users_scenes_first_then_prefabs_other_assets_and_code(tmp_path: Path) -> None:
    """cli.md, `describe`: what uses the file, "scenes first, then prefabs, other assets and code,
    twenty of them, ... by path" (tests held the order of three users, not the twenty, nor an
    asset's place): a kind's place comes before a path's, and past twenty a count."""
    from .conftest import data_asset, meta, mono_script, script_prefab

    guid = "ab" * 16
    files: dict[str, str | bytes] = {
        "Assets/Mover.cs": mono_script("Mover", "public float speed;"),
        "Assets/Mover.cs.meta": meta(guid),
        "Assets/AAA.cs": "public class AAA { Mover m; }\n",
        "Assets/A.asset": data_asset(guid, "A", ""),
        **{f"Assets/Z/L{i}.unity": script_prefab(f"Level{i}", guid) for i in range(2)},
        **{f"Assets/Props/P{i:02}.prefab": script_prefab(f"Prop{i}", guid) for i in range(16)},
    }
    root = write_project(tmp_path / "P", files)
    scenes = [f"Assets/Z/L{i}.unity" for i in range(2)]
    prefabs = [f"Assets/Props/P{i:02}.prefab" for i in range(18)]

    def users() -> str:
        r = run_cli("describe", "Assets/Mover.cs", "--project", str(root))
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()[-1]

    assert users() == "used by: " + ", ".join([*scenes, *prefabs[:16], "Assets/A.asset", "Assets/AAA.cs"])
    for i in (16, 17):
        (root / f"Assets/Props/P{i:02}.prefab").write_text(script_prefab(f"Prop{i}", guid))
    assert users() == "used by: " + ", ".join([*scenes, *prefabs]) + ", … 2 more"


def test_a_folded_hierarchy_with_nothing_to_keep_shows_at_most_40_top_objects(tmp_path: Path) -> None:
    """cli.md, `describe`: a scene or prefab folded where no object carries a project script or
    places a prefab shows "the root objects and those under them (at most 40) ... by their line
    instead, the runs below them counted" (tests held three such objects, not the 40)."""
    from .conftest import meta
    from .test_sweep_session42 import _node

    names = [f"{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(50)]  # AA, AB, ...: no two alike
    walls = [10_000 + 100 * i for i in range(50)]
    text = YAML_HEAD + _node(100, "Lobby", 0, walls)
    for name, wall in zip(names, walls, strict=True):
        bricks = [wall + 10 * (k + 1) for k in range(8)]
        text += _node(wall, f"Wall {name}", 100, bricks)
        text += "".join(_node(b, f"Brick {name}{chr(97 + k)}", wall, []) for k, b in enumerate(bricks))
    root = write_project(tmp_path / "P", {"Assets/Lobby.prefab": text, "Assets/Lobby.prefab.meta": meta("1b" * 16)})
    r = run_cli("describe", "Assets/Lobby.prefab", "--project", str(root))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    shown = [line.strip().rsplit("  L", 1)[0] for line in lines if re.search(r"  L\d+$", line)]
    assert shown == ["Lobby", *(f"Wall {name}" for name in names[:39])]
    assert lines[1:4] == ["Lobby  L3", "  Wall AA  L70", "    … 8 more objects (BoxCollider 8)"]
    assert lines[-2:] == [
        "  … 107 more objects (BoxCollider 107)",  # 11 walls and their 88 bricks, and the 39th wall's 8
        "used by: nothing found (no scene or prefab places it, no asset or code names it)",
    ]


def test_a_behaviour_s_list_of_references_names_twenty_files_then_how_many_more(tmp_path: Path) -> None:
    """cli.md, `describe` of an animator controller: a state's StateMachineBehaviours "a line each,
    ... (a list of references by its files' names, twenty shown, ...)" (tests held lists of one
    and two)."""
    from .conftest import meta
    from .test_animator_describe_session41 import CHARACTER_STATE, STATE_SCRIPT, _behaviour, _machine, _state

    guids = [f"{i:02x}" * 16 for i in range(23)]
    controller = (
        YAML_HEAD + "--- !u!91 &9100000\nAnimatorController:\n  m_Name: Hero\n  m_AnimatorParameters: []\n"
        "  m_AnimatorLayers:\n  - serializedVersion: 5\n    m_Name: Base Layer\n    m_StateMachine: {fileID: 1}\n"
        + _machine(1, "Base Layer", [11], [], 11)
        + _state(11, "Attack", [], [51])
        + _behaviour(51, guids)
    )
    files: dict[str, str | bytes] = {
        "Assets/Hero.controller": controller,
        "Assets/CharacterState.cs": CHARACTER_STATE,
        "Assets/CharacterState.cs.meta": meta(STATE_SCRIPT),
    }
    for i, guid in enumerate(guids):
        files[f"Assets/Abilities/Move{i:02}.asset"] = "%YAML 1.1\n"
        files[f"Assets/Abilities/Move{i:02}.asset.meta"] = meta(guid, "NativeFormatImporter")
    root = write_project(tmp_path / "P", files)
    r = run_cli("describe", "Assets/Hero.controller", "--project", str(root))
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if "CharacterState:" in x)
    names = ", ".join(f"Move{i:02}" for i in range(20))
    assert line == f"      CharacterState: speed: 3; ArrAbilities: {names}, … 3 more  L35"


# -- docs/indexing.md, "C#" ----------------------------------------------------------------------

_TUNING = """using System.Collections.Generic;
using UnityEngine;
public class Tuning : MonoBehaviour
{
    public float hitCooldown = 1f;
    public KeyCode jumpKey = KeyCode.Space;
    public string title = null;
    public Vector3 offset = default;
    public Vector3 origin = default(Vector3);
    public List<int> scores = new List<int>();
    public int[] lives = new int[] { };
    public string motto = "MOTTO";
    public string longer = "LONGER";
    public int sum = 2   +\t1;
    public Vector2 size = new Vector2(1,
        2);
    public int[] primes = { 2, 3, 5 };
}
""".replace("MOTTO", "a" * 38).replace("LONGER", "a" * 39)


def test_a_field_s_outline_shows_its_value_when_short_on_one_line_and_telling(tmp_path: Path) -> None:
    """indexing.md, C#: "a field's with its value when that is short and on one line (`private
    float hitCooldown = 1f`, `KeyCode jumpKey = KeyCode.Space`; up to 40 characters, whitespace
    collapsed outside a string, and not `null`, `default`, an empty `new T()` or a value holding a
    comment)": tests held the comment and the spaces, not the 40 characters nor the values that
    say nothing."""
    root = write_project(tmp_path / "P", {"Assets/Tuning.cs": _TUNING})
    r = run_cli("describe", "Assets/Tuning.cs", "--project", str(root))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[3:] == [
        "  L5 public float hitCooldown = 1f",
        "  L6 public KeyCode jumpKey = KeyCode.Space",
        "  L7 public string title",
        "  L8 public Vector3 offset",
        "  L9 public Vector3 origin",
        "  L10 public List<int> scores",
        "  L11 public int[] lives",
        f'  L12 public string motto = "{"a" * 38}"',  # 40 characters
        "  L13 public string longer",  # 41
        "  L14 public int sum = 2 + 1",
        "  L15 public Vector2 size",  # on two lines
        "  L17 public int[] primes = { 2, 3, 5 }",
    ]

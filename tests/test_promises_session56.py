"""Promises of docs/cli.md (from its `query` section on), README.md and docs/indexing.md that no test
held (session 56's audit, /tmp/s56/promise/promises.md): each asserted through the real CLI on a
project in tmp_path, and seen failing with the code that keeps it broken (the commit messages say
how)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from .conftest import run_cli, write_project

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

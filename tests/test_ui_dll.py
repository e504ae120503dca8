"""Components of Unity's old UI DLL (before com.unity.ugui), named as the package's classes."""

import json
from pathlib import Path

from tests.bench.dll_scripts import file_id, md4, module

from .conftest import REPO, meta, run_cli, write_project

DLL = "f5f67c52d1564df4a8936ccd202a3bd8"
MENU = "1d6c0b9f2a3e4c5d8e7f6a5b4c3d2e1f"
SCENE = f"""%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
GameObject:
  m_ObjectHideFlags: 0
  m_PrefabParentObject: {{fileID: 0}}
  m_PrefabInternal: {{fileID: 0}}
  serializedVersion: 5
  m_Component:
  - component: {{fileID: 110}}
  - component: {{fileID: 120}}
  - component: {{fileID: 130}}
  - component: {{fileID: 140}}
  m_Layer: 5
  m_Name: PlayButton
  m_IsActive: 1
--- !u!224 &110
RectTransform:
  m_GameObject: {{fileID: 100}}
  m_Children: []
  m_Father: {{fileID: 0}}
--- !u!114 &120
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Enabled: 1
  m_Script: {{fileID: 708705254, guid: {DLL}, type: 3}}
  m_Text: Play
--- !u!114 &130
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Enabled: 1
  m_Script: {{fileID: 1392445389, guid: {DLL}, type: 3}}
  m_Interactable: 1
  m_OnClick:
    m_PersistentCalls:
      m_Calls:
      - m_Target: {{fileID: 140}}
        m_MethodName: Play
        m_Mode: 1
        m_CallState: 2
    m_TypeName: UnityEngine.UI.Button+ButtonClickedEvent, UnityEngine.UI, Version=1.0.0.0
--- !u!114 &140
MonoBehaviour:
  m_GameObject: {{fileID: 100}}
  m_Enabled: 1
  m_Script: {{fileID: 11500000, guid: {MENU}, type: 3}}
"""


def test_md4_and_the_file_ids_real_scenes_hold() -> None:
    """RFC 1320's vectors; the file IDs are those old projects' scenes give Button, Text, Image and
    EventSystem (seen in Cytoid and ProjectPorcupine)."""
    assert [md4(t).hex() for t in (b"", b"abc", b"message digest")] == [
        "31d6cfe0d16ae931b73c59d7e0c089c0",
        "a448017aaf21d8525fc10ae87aa6729d",
        "d9130a8164549fe818874806e1c7014b",
    ]
    names = ("UI.Button", "UI.Text", "UI.Image", "EventSystems.EventSystem")
    names = tuple(f"UnityEngine.{n}" for n in names)
    assert [file_id(n) for n in names] == [1392445389, 708705254, -765806418, -619905303]


def test_the_table_is_what_the_generator_writes() -> None:
    assert (REPO / "indexer" / "scanners" / "dll_scripts.py").read_text() == module()


def test_a_dll_button_reads_as_the_package_s_button(tmp_path: Path) -> None:
    """A trial: a project from before the package read `script f5f67c52… (not in project)` for each
    of its 520 UI components, and `refs Button` found none of them."""
    menu = "using UnityEngine;\npublic class Menu : MonoBehaviour {\n  public void Play() { }\n}\n"
    files = {"Assets/Menu.cs": menu, "Assets/Menu.cs.meta": meta(MENU), "Assets/Main.unity": SCENE}
    root = write_project(tmp_path / "P", files)

    def ask(*args: str) -> dict:
        r = run_cli(*args, "--json", "--project", str(root))
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    text = ask("describe", "Assets/Main.unity")["text"]
    assert "  components: RectTransform, Text, Button, Menu" in text.splitlines()
    assert "PlayButton > Button.m_OnClick(void) on PlayButton -> Menu.Play" in text
    assert "not in project" not in text
    button = ask("refs", "UnityEngine.UI.Button")["usages"]
    assert [(u["path"], u["line"]) for u in button] == [("Assets/Main.unity", 32)]  # its `m_Script` line
    play = ask("refs", "Menu.Play")["usages"]
    assert [(u["path"], u["where"]) for u in play] == [("Assets/Main.unity", "asset")]

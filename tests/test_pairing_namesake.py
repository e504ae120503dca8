"""A prefab's namesake script among several it carries is its behaviour (pairing.py,
`scripts_of_prefabs`; docs/retrieval.md, session 47)."""

from __future__ import annotations

from pathlib import Path

from .conftest import meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

BAR, BUTTON, PARTY, EMOTES = (f"e7000000000000000000000000000{n:03d}" for n in range(1, 5))


def _component(n: int, guid: str) -> str:
    return (
        f"--- !u!114 &{n}\nMonoBehaviour:\n  m_GameObject: {{fileID: 100}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {guid}, type: 3}}\n  m_Name: \n"
    )


def _child(n: int, name: str) -> str:
    return (
        f"--- !u!1 &{n}\nGameObject:\n  m_Component:\n  - component: {{fileID: {n + 1}}}\n  m_Name: {name}\n"
        f"  m_IsActive: 1\n--- !u!4 &{n + 1}\nTransform:\n  m_GameObject: {{fileID: {n}}}\n  m_Children: []\n"
        "  m_Father: {fileID: 101}\n"
    )


def _two_scripts(name: str, first: str, second: str, children: tuple[str, ...] = ()) -> str:
    """A prefab of an object named `name` carrying the scripts `first` and `second`, with
    `children` (objects of those names)."""
    kids = "".join(f"  - {{fileID: {201 + 2 * i}}}\n" for i in range(len(children)))
    return (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"
        "--- !u!1 &100\nGameObject:\n  m_Component:\n  - component: {fileID: 101}\n"
        f"  - component: {{fileID: 102}}\n  - component: {{fileID: 103}}\n  m_Name: {name}\n  m_IsActive: 1\n"
        "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n"
        + (f"  m_Children:\n{kids}" if kids else "  m_Children: []\n")
        + "  m_Father: {fileID: 0}\n"
        + _component(102, first)
        + _component(103, second)
        + "".join(_child(200 + 2 * i, c) for i, c in enumerate(children))
    )


def _hud(tmp_path: Path) -> Path:
    """A HUD: `Hero Emote Bar.prefab` carrying `HeroEmoteBar.cs` (the emote list, which says
    "emote" once) and a generic `HudButton.cs`; scripts saying "emote" and "HUD" far more often
    (the party's HUD, the emote animations)."""
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/HeroEmoteBar.cs": mono_script(
                "HeroEmoteBar",
                "public GameObject[] buttons;\npublic Transform anchor;\npublic float fadeSeconds = 0.25f;\n"
                "void Awake() { foreach (var b in buttons) { b.SetActive(false); } }\n"
                "public void Toggle() { gameObject.SetActive(!gameObject.activeSelf); }\n"
                "public void Pick(int index) { buttons[index].SetActive(true); Invoke(nameof(Close), fadeSeconds); }\n"
                "void Close() { gameObject.SetActive(false); }\n"
                "void LateUpdate() { transform.position = anchor.position; }",
            ),
            "Assets/Scripts/HeroEmoteBar.cs.meta": meta(BAR),
            "Assets/Scripts/HudButton.cs": mono_script("HudButton", "public void OnClick() { }"),
            "Assets/Scripts/HudButton.cs.meta": meta(BUTTON),
            "Assets/Scripts/PartyHud.cs": mono_script(
                "PartyHud",
                "// the HUD of the party: emote icons, hud portraits\npublic void ShowEmote(int emote) { }\n"
                "public void HideEmote(int emote) { }\npublic void HudRefresh() { }",
            ),
            "Assets/Scripts/PartyHud.cs.meta": meta(PARTY),
            "Assets/Scripts/EmoteAnimations.cs": mono_script(
                "EmoteAnimations",
                "// plays an emote: each emote an animation\npublic void PlayEmote(string emote) { }\n"
                "public void StopEmote(string emote) { }",
            ),
            "Assets/Scripts/EmoteAnimations.cs.meta": meta(EMOTES),
            "Assets/Prefabs/Hero Emote Bar.prefab": _two_scripts(
                "Hero Emote Bar", BAR, BUTTON, ("Emote Wave", "Emote Cheer", "Emote Dance")
            ),
            "Assets/Prefabs/Hero Emote Bar.prefab.meta": meta("e7000000000000000000000000000101", "PrefabImporter"),
            "Assets/Prefabs/Party HUD.prefab": script_prefab("Party HUD", PARTY),
            "Assets/Prefabs/Party HUD.prefab.meta": meta("e7000000000000000000000000000102", "PrefabImporter"),
            "Assets/Prefabs/Menu.prefab": _two_scripts("Menu", BUTTON, PARTY),
            "Assets/Prefabs/Menu.prefab.meta": meta("e7000000000000000000000000000103", "PrefabImporter"),
        },
    )


def test_the_namesake_script_of_a_top_prefab_ranks_with_it(tmp_path: Path) -> None:
    """ "Add a fifth emote to the emote popup in the HUD": the emote bar's prefab is found by its
    name, and of the two scripts it carries, `HeroEmoteBar.cs`, of the prefab's own name, is the
    one to change; it ranked last, below every file saying "emote" or "HUD" more often. It now
    ranks with its prefab; the generic button the prefab carries too does not."""
    ranked = _ranked(_hud(tmp_path), "add a fifth emote to the emote popup in the HUD: a wave")
    assert ranked == [
        "Assets/Scripts/PartyHud.cs",
        "Assets/Prefabs/Hero Emote Bar.prefab",
        "Assets/Scripts/EmoteAnimations.cs",
        "Assets/Scripts/HeroEmoteBar.cs",  # 7th (last) without the pairing
        "Assets/Scripts/HudButton.cs",
        "Assets/Prefabs/Party HUD.prefab",
        "Assets/Prefabs/Menu.prefab",
    ]

"""A data asset the task names word for word leads when the task asks where a value is set
(rank.VALUE_TITLED; docs/retrieval.md, session 47)."""

from __future__ import annotations

from pathlib import Path

from .conftest import data_asset, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

REQ, MENU, BUTTON, LASER = (f"e8000000000000000000000000000{n:03d}" for n in range(1, 5))


def _samples(tmp_path: Path) -> Path:
    """A samples menu: each sample's requirements a data asset of `SampleRequirements` named as
    the sample (`EyeLasers.asset`, `FacePose.asset`), and the scripts that grey a sample's button
    out saying "button", "sample" and "menu" throughout, and the eye lasers' effect saying "eye" and
    "laser"."""
    menu_body = (
        "public SampleButton[] buttons;\n"
        "// greys out the button of a sample the device cannot run\n"
        "void Start() { foreach (var button in buttons) { button.Check(); } }\n"
        "public void OpenSample(string sample) { }\npublic void BackToMenu() { }"
    )
    button_body = (
        "public SampleRequirements requirements;\npublic UnityEngine.UI.Button button;\n"
        "// the sample's button is greyed out unless the device supports what the sample needs\n"
        "public void Check() { button.interactable = requirements.Supported(); }"
    )
    laser_body = (
        "public LineRenderer leftEye, rightEye;\npublic float laserLength = 2f;\n"
        "// draws a laser from each eye: the eye lasers sample's effect\n"
        "void Update() { DrawLaser(leftEye); DrawLaser(rightEye); }\n"
        "void DrawLaser(LineRenderer eye) { eye.SetPosition(1, Vector3.forward * laserLength); }"
    )
    return write_project(
        tmp_path,
        {
            "Assets/Scripts/SampleRequirements.cs": (
                "using UnityEngine;\npublic class SampleRequirements : ScriptableObject\n{\n"
                "public bool faceTracking;\npublic bool worldCamera;\n"
                "public bool Supported() { return true; }\n}\n"
            ),
            "Assets/Scripts/SampleRequirements.cs.meta": meta(REQ),
            "Assets/Scripts/SamplesMenu.cs": mono_script("SamplesMenu", menu_body),
            "Assets/Scripts/SamplesMenu.cs.meta": meta(MENU),
            "Assets/Scripts/SampleButton.cs": mono_script("SampleButton", button_body),
            "Assets/Scripts/SampleButton.cs.meta": meta(BUTTON),
            "Assets/Scripts/EyeLaserVisualizer.cs": mono_script("EyeLaserVisualizer", laser_body),
            "Assets/Scripts/EyeLaserVisualizer.cs.meta": meta(LASER),
            "Assets/Requirements/EyeLasers.asset": data_asset(
                REQ, "EyeLasers", "  faceTracking: 1\n  worldCamera: 0\n"
            ),
            "Assets/Requirements/EyeLasers.asset.meta": meta(
                "e8000000000000000000000000000101", "NativeFormatImporter"
            ),
            "Assets/Requirements/FacePose.asset": data_asset(REQ, "FacePose", "  faceTracking: 1\n  worldCamera: 1\n"),
            "Assets/Requirements/FacePose.asset.meta": meta("e8000000000000000000000000000102", "NativeFormatImporter"),
        },
    )


def test_a_data_asset_named_word_for_word_leads_a_value_question(tmp_path: Path) -> None:
    """ "The Eye Lasers button in the samples menu is greyed out: what is it checking, and where
    is that set?" names the sample's requirements asset by its two words; it ranked under the
    scripts saying "button", "sample" and "menu". Asked where a value is set, it leads; the face
    pose sample's, which the task does not name, does not move."""
    root = _samples(tmp_path)
    text = "The Eye Lasers button in the samples menu is greyed out. What is it checking, and where is that set?"
    assert _ranked(root, text) == [
        "Assets/Requirements/EyeLasers.asset",  # 4th without VALUE_TITLED
        "Assets/Scripts/SamplesMenu.cs",
        "Assets/Scripts/SampleButton.cs",
        "Assets/Scripts/EyeLaserVisualizer.cs",
        "Assets/Scripts/SampleRequirements.cs",
        "Assets/Requirements/FacePose.asset",
    ]


def test_a_data_asset_named_in_a_code_question_keeps_its_place(tmp_path: Path) -> None:
    """The same name in a task asking for code, not a value, leads nothing."""
    root = _samples(tmp_path)
    assert _ranked(root, "The Eye Lasers button in the samples menu is greyed out. Why?") == [
        "Assets/Scripts/SamplesMenu.cs",
        "Assets/Scripts/EyeLaserVisualizer.cs",
        "Assets/Scripts/SampleButton.cs",
        "Assets/Requirements/EyeLasers.asset",
        "Assets/Scripts/SampleRequirements.cs",
        "Assets/Requirements/FacePose.asset",
    ]

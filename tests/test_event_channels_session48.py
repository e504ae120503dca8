"""Scripts joined by a ScriptableObject event channel they share (docs/retrieval.md, "Session 48:
event channels between scripts"): Darkness Survivor's "when the player runs out of energy, how
does the defeat screen get shown?" ranked `Energy.cs`, which raises the player's death on an event
asset, first, and neither that asset nor `LostMenu.cs`, which listens to it, in the top 20. Each
test failed with `channels.raise_channels` doing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.config import Config
from indexer.query import channels
from indexer.query.workspace import open_workspace

from .conftest import data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

DEFEAT_TASK = "When the player runs out of energy, how does the defeat screen get shown?"
ENERGY, LOST = "Assets/Scripts/Player/Energy.cs", "Assets/Scripts/UI/LostMenu.cs"
DIE, PLAYER, HUD = "Assets/Events/PlayerDie.asset", "Assets/Prefabs/Player.prefab", "Assets/Prefabs/UI/Hud.prefab"
g = "b48e0000000000000000000000000{:03d}".format
CHANNEL = (
    "using UnityEngine;\nusing UnityEngine.Events;\n[CreateAssetMenu]\n"
    "public class VoidEventChannelSO : ScriptableObject\n{\n    public UnityAction OnEventRaised;\n"
    "    public void RaiseEvent() { OnEventRaised?.Invoke(); }\n}\n"
)


def _channel_ref(field: str, guid: str) -> str:
    return f"  {field}: {{fileID: 11400000, guid: {guid}, type: 2}}\n"


def _survivor(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    """A survival game: the player's `Energy` (on the player prefab) raises `PlayerDie.asset` when
    it runs out; `LostMenu` (on the HUD prefab) listens to the same asset and shows itself, saying
    none of the task's words; a data class `PlayerData`, whose one asset the player prefab's
    `Energy` and the HUD's `EnergyBar` both hold and read (no event); and scripts saying the
    task's words elsewhere."""
    files = {
        "Assets/Scripts/Events/VoidEventChannelSO.cs": CHANNEL,
        "Assets/Scripts/Events/VoidEventChannelSO.cs.meta": meta(g(1)),
        DIE: data_asset(g(1), "PlayerDie", ""),
        DIE + ".meta": meta(g(2), "NativeFormatImporter"),
        "Assets/Scripts/Player/PlayerData.cs": (
            "using UnityEngine;\npublic class PlayerData : ScriptableObject\n{\n    public float maxEnergy = 100f;\n}\n"
        ),
        "Assets/Scripts/Player/PlayerData.cs.meta": meta(g(3)),
        "Assets/Data/PlayerData.asset": data_asset(g(3), "PlayerData", "  maxEnergy: 100\n"),
        "Assets/Data/PlayerData.asset.meta": meta(g(4), "NativeFormatImporter"),
        ENERGY: mono_script(
            "Energy",
            "    public VoidEventChannelSO playerDieEventChannel;\n    public PlayerData data;\n"
            "    float energy;\n    void Start() { energy = data.maxEnergy; }\n"
            "    // the player's energy runs out over time\n"
            "    void Update() { energy -= Time.deltaTime; if (energy <= 0) playerDieEventChannel.RaiseEvent(); }",
        ),
        ENERGY + ".meta": meta(g(5)),
        LOST: mono_script(
            "LostMenu",
            "    [SerializeField] VoidEventChannelSO onDied;\n    public Canvas canvas;\n"
            "    void OnEnable() { onDied.OnEventRaised += Open; }\n"
            "    void OnDisable() { onDied.OnEventRaised -= Open; }\n"
            "    void Open() { canvas.enabled = true; Time.timeScale = 0f; }",
        ),
        LOST + ".meta": meta(g(6)),
        "Assets/Scripts/UI/EnergyBar.cs": mono_script(
            "EnergyBar",
            "    public PlayerData data;\n    public float Fill(float value) { return value / data.maxEnergy; }",
        ),
        "Assets/Scripts/UI/EnergyBar.cs.meta": meta(g(7)),
        PLAYER: script_prefab("Player", g(5), _channel_ref("playerDieEventChannel", g(2)) + _channel_ref("data", g(4))),
        PLAYER + ".meta": meta(g(8), "PrefabImporter"),
        HUD: script_prefab("LostMenu", g(6), _channel_ref("onDied", g(2)) + "  canvas: {fileID: 0}\n"),
        HUD + ".meta": meta(g(9), "PrefabImporter"),
        "Assets/Prefabs/UI/EnergyBar.prefab": script_prefab("EnergyBar", g(7), _channel_ref("data", g(4))),
        "Assets/Prefabs/UI/EnergyBar.prefab.meta": meta(g(10), "PrefabImporter"),
    }
    does = ("moves", "jumps", "shakes the screen", "plays the defeat sound", "picks up energy")
    for i, name in enumerate(("PlayerMovement", "PlayerJump", "ScreenShake", "DefeatSound", "Pickup")):
        body = f"    // the player {does[i]}\n"
        files[f"Assets/Scripts/Misc/{name}.cs"] = mono_script(name, body + "    public float amount;")
        files[f"Assets/Scripts/Misc/{name}.cs.meta"] = meta(g(20 + i))
    return write_project(tmp_path, {**files, **(extra or {})})


def _reasons(root: Path, task: str, n: int = 10) -> dict[str, str]:
    """path -> why, for the `n` best files (the project indexed first)."""
    _ranked(root, task, 1)
    return {h.path: h.reason for h in open_workspace(root, [(root, Config())]).search(task, n, named=False)}


def test_a_raisers_hit_brings_the_event_asset_and_the_script_listening_to_it(tmp_path: Path) -> None:
    """`Energy.cs` ranks first by its words; `LostMenu.cs`, which says none of them, is carried by
    another prefab than the player's and names no class of `Energy`'s: it was not among the 20
    best, and now ranks after the two scripts saying "screen" and "defeat", the event asset right
    after it (reached from the player prefab, 7th, before), each saying why."""
    root = _survivor(tmp_path)
    ranked = _ranked(root, DEFEAT_TASK, 20)
    misc = ["Assets/Scripts/Misc/ScreenShake.cs", "Assets/Scripts/Misc/DefeatSound.cs"]
    assert ranked[:6] == [ENERGY, *misc, LOST, DIE, "Assets/Scripts/UI/EnergyBar.cs"]
    reasons = _reasons(root, DEFEAT_TASK)
    assert reasons[LOST] == "listens to Assets/Events/PlayerDie.asset, which Energy.cs raises"
    assert reasons[DIE] == "text match; event channel Energy.cs raises"


def test_a_listeners_hit_brings_the_event_asset_and_the_script_raising_it(tmp_path: Path) -> None:
    """The other way: a task whose words match the listener (its method `Open`, its `canvas`) finds
    the script raising what it listens to, though that says none of them."""
    root = _survivor(tmp_path)
    task = "What opens the canvas and freezes the time scale?"
    ranked = _ranked(root, task, 10)
    assert ranked[:4] == [LOST, ENERGY, DIE, HUD]
    reasons = _reasons(root, task)
    assert reasons[ENERGY] == "text match; raises Assets/Events/PlayerDie.asset, which LostMenu.cs listens to"
    assert reasons[DIE] == "event channel LostMenu.cs listens to"


def test_a_data_asset_two_scripts_read_joins_nothing(tmp_path: Path) -> None:
    """`PlayerData.asset` is held by `Energy` and `EnergyBar` alike, neither subscribing to it (they
    read its `maxEnergy`): a shared data asset is no broadcast. From `EnergyBar.cs`, first, neither
    it nor `Energy.cs` is said to listen or raise, nor `PlayerData.asset` to be a channel (the
    player's death, which `Energy.cs` raises, still brings its listener)."""
    root = _survivor(tmp_path)
    task = "How does the energy bar fill?"
    assert _ranked(root, task, 20)[0] == "Assets/Scripts/UI/EnergyBar.cs"
    reasons = _reasons(root, task, 20)
    joined = {p: why for p, why in reasons.items() if any(w in why for w in ("listens", "raises", "event channel"))}
    assert joined == {
        LOST: "listens to Assets/Events/PlayerDie.asset, which Energy.cs raises",
        DIE: "event channel Energy.cs raises",
    }


def test_a_channel_heard_by_many_scripts_raises_none_of_them(tmp_path: Path) -> None:
    """Four more menus listening to `PlayerDie.asset` (each on a prefab of its own): a channel heard
    by more than CHANNEL_PARTNERS_MOST scripts says nothing of one task, and none is raised."""
    extra = {}
    for i in range(4):
        name = f"Panel{i}"
        extra[f"Assets/Scripts/UI/{name}.cs"] = mono_script(
            name,
            "    public VoidEventChannelSO died;\n    void Awake() { died.OnEventRaised += Hide; }\n    void Hide() {}",
        )
        extra[f"Assets/Scripts/UI/{name}.cs.meta"] = meta(g(40 + i))
        extra[f"Assets/Prefabs/UI/{name}.prefab"] = script_prefab(name, g(40 + i), _channel_ref("died", g(2)))
        extra[f"Assets/Prefabs/UI/{name}.prefab.meta"] = meta(g(50 + i), "PrefabImporter")
    root = _survivor(tmp_path, extra)
    reasons = _reasons(root, DEFEAT_TASK, 20)
    assert not any("listens" in why or "event channel" in why for why in reasons.values())
    assert LOST not in reasons


def test_a_task_asking_for_more_of_a_value_follows_no_channel(tmp_path: Path) -> None:
    """ "Make the energy run out faster" asks where a value lives, not who hears the player die."""
    root = _survivor(tmp_path)
    task = "Make the player's energy run out faster"
    assert _ranked(root, task, 20)[0] == ENERGY
    reasons = _reasons(root, task, 20)
    assert LOST not in reasons and reasons[DIE] == "text match; asset referenced by Assets/Prefabs/Player.prefab"


def _holders(n: int) -> dict[str, str]:
    """`n` more prefabs holding `PlayerDie.asset` in a field of a script that neither raises nor
    hears it (an inspector's reference, a list of assets)."""
    extra = {
        "Assets/Scripts/Misc/Holder.cs": mono_script("Holder", "    public VoidEventChannelSO kept;"),
        "Assets/Scripts/Misc/Holder.cs.meta": meta(g(60)),
    }
    for i in range(n):
        extra[f"Assets/Prefabs/Held/Held{i}.prefab"] = script_prefab(f"Held{i}", g(60), _channel_ref("kept", g(2)))
        extra[f"Assets/Prefabs/Held/Held{i}.prefab.meta"] = meta(g(70 + i), "PrefabImporter")
    return extra


def test_an_event_asset_referenced_by_many_files_is_a_hub_and_joins_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """channels.CHANNEL_USERS_MOST: `PlayerDie.asset` referenced by more files than that (the two
    prefabs of its raiser and listener and eight more) says nothing of one task: its listener is
    not raised (it is, the bound lifted)."""
    assert channels.CHANNEL_USERS_MOST == 8
    root = _survivor(tmp_path / "hub", _holders(8))
    reasons = _reasons(root, DEFEAT_TASK, 20)
    assert not any("listens" in why or "event channel" in why for why in reasons.values())
    monkeypatch.setattr(channels, "CHANNEL_USERS_MOST", 100)
    lifted = _survivor(tmp_path / "lifted", _holders(8))
    assert _reasons(lifted, DEFEAT_TASK, 20)[LOST] == "listens to Assets/Events/PlayerDie.asset, which Energy.cs raises"

"""Defects found by new users' trials (docs/retrieval.md, "session 36"), each a test seen failing
before its fix."""

from __future__ import annotations

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.lookup import find_references
from indexer.query.workspace import open_workspace, projects_at

from .conftest import write_project

RECEIVERS = {
    "Assets/GameSettings.cs": """public class GameSettings
{
    public ItemSettings itemSettings;
    public PigSettings[] players;
}
public class ItemSettings { public float relicTime; }
public class PigSettings { public int weapon; }
public class AlterableStats { public float relicTime; }
""",
    "Assets/GameController.cs": """using UnityEngine;
public class GameController : MonoBehaviour
{
    public static GameSettings gameSettings;
}
""",
    "Assets/Player.cs": """using System.Collections.Generic;
public class Player
{
    public int playerNum;
    public static Player GetPlayerFromDevice(int device) { return null; }
}
""",
    "Assets/PlayerController.cs": """using UnityEngine;
public class PlayerController : MonoBehaviour
{
    public float relicTime;
    public int weapon;
    public int playerNum;
    public void Destroy() { }
    public void Spell() { }
    #region Setup
    public void Setup() { }
    #endregion
    void Update()
    {
        Destroy(gameObject);
        Destroy();
    }
}
""",
    "Assets/Station.cs": """using System.Collections.Generic;
public class Station { public void UpgradeProfit(float value) { } }
public class StationManager
{
    List<Station> stations;
    Dictionary<int, Station> byId;
    void UpgradeProfit(int level) { }
    void Upgrade(float value)
    {
        UpgradeProfit(1);
        foreach (var station in stations)
        {
            station.UpgradeProfit(value);
        }
        foreach (var pair in byId)
        {
            pair.UpgradeProfit(value);
        }
    }
}
""",
    "Assets/Modes.cs": """using System;
public class WeaponType { public WeaponType(Action<PlayerController> use) { } }
public static class WeaponTypes
{
    public static WeaponType Spell = new WeaponType((player) =>
    {
        player.Spell();
    });
}
public class Modes
{
    GameController gameController;
    void End(PlayerController[] players, int device)
    {
        foreach (PlayerController player in players)
        {
            if (player.relicTime > GameController.gameSettings.itemSettings.relicTime) { }
        }
        GameController.gameSettings.players[device].weapon = 1;
        int n = Player.GetPlayerFromDevice(device).playerNum;
        PlayerController p = null;
        p.Setup();
        WeaponType w = WeaponTypes.Spell;
    }
}
""",
}


@pytest.fixture(scope="module")
def receivers(tmp_path_factory: pytest.TempPathFactory):
    root = write_project(tmp_path_factory.mktemp("receivers") / "P", RECEIVERS)
    update(root, Config(workers=1))
    return open_workspace(root, projects_at(root))


def _code_lines(ws, name: str) -> list[tuple[str, int]]:
    _target, usages = find_references(ws, name)
    return [(u.path, u.line) for u in usages if u.where == "code"]


def test_a_receiver_chain_is_read_step_by_step(receivers) -> None:
    """`GameController.gameSettings.itemSettings.relicTime` is ItemSettings', `...players[i].weapon`
    PigSettings', `Player.GetPlayerFromDevice(d).playerNum` Player's: each was listed under
    PlayerController's or AlterableStats' member of that name (a trial: six wrong usages)."""
    assert _code_lines(receivers, "ItemSettings.relicTime") == [("Assets/Modes.cs", 17)]
    assert _code_lines(receivers, "AlterableStats.relicTime") == []
    assert _code_lines(receivers, "PlayerController.relicTime") == [("Assets/Modes.cs", 17)]
    assert _code_lines(receivers, "PigSettings.weapon") == [("Assets/Modes.cs", 19)]
    assert _code_lines(receivers, "PlayerController.weapon") == []
    assert _code_lines(receivers, "Player.playerNum") == [("Assets/Modes.cs", 20)]
    assert _code_lines(receivers, "PlayerController.playerNum") == []


def test_a_loop_variable_is_an_element_of_what_it_loops_over(receivers) -> None:
    """`foreach (var station in stations)` over a `List<Station>` calls Station's `UpgradeProfit`,
    not the manager's own; a dictionary's items are pairs, of no project class."""
    assert _code_lines(receivers, "Station.UpgradeProfit") == [("Assets/Station.cs", 13), ("Assets/Station.cs", 17)]
    assert _code_lines(receivers, "StationManager.UpgradeProfit") == [
        ("Assets/Station.cs", 10),
        ("Assets/Station.cs", 17),
    ]


def test_a_call_with_arguments_no_declaration_takes_is_another_method(receivers) -> None:
    """`Destroy(gameObject)` in a class declaring `void Destroy()` is `Object.Destroy`."""
    assert _code_lines(receivers, "PlayerController.Destroy") == [("Assets/PlayerController.cs", 15)]


def test_a_static_member_is_not_reached_through_a_variable(receivers) -> None:
    """`player.Spell()` (a lambda's parameter) is no use of `static WeaponType Spell`."""
    assert _code_lines(receivers, "WeaponTypes.Spell") == [("Assets/Modes.cs", 23)]
    assert _code_lines(receivers, "PlayerController.Spell") == [("Assets/Modes.cs", 7)]


def test_a_region_label_is_no_usage(receivers) -> None:
    """`#region Setup` was listed under `PlayerController.Setup`."""
    assert _code_lines(receivers, "PlayerController.Setup") == [("Assets/Modes.cs", 22)]

"""A thirteenth trial on an unseen game (docs/retrieval.md, session 51): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import stem
from indexer.query.texts import FileText
from indexer.query.values import Held, fields_holding, said_numbers

from .conftest import mono_script, write_project
from .conftest import ranked_paths as _ranked


def test_a_parameter_default_holds_a_said_value() -> None:
    """A parameter's default is the value callers leaving it out run with (`new("Fitness")` for
    `Skill(string name, int maxLevel = 40)`): it is read as a field given its value, before a
    comma or a closing parenthesis as before a semicolon. An assignment in a method still is not."""
    code = (
        "public class Skill\n{\n    public Skill(string name, int maxLevel = 40) { }\n"
        "    public void Grant(int level = 40, float levelScale = 1.5f) { }\n"
        "    void Reset() { level = 40; }\n}\n"
    )
    held = fields_holding(FileText(code.encode(), None), True, frozenset({40.0, 1.5}), {stem("level")})
    assert held == (
        Held("maxLevel", 3, "int maxLevel = 40)"),
        Held("level", 4, "int level = 40,"),
        Held("levelScale", 4, "float levelScale = 1.5f)"),
    )


def test_twice_is_the_number_two() -> None:
    """ "Jump three times in a row instead of twice" says 3 and 2: the field holding 2 is the jump
    count to change (`maxNumJumps = 2`), as one holding a number said in words is."""
    assert said_numbers("Let the player jump three times in a row in the air instead of twice") == {3.0, 2.0}
    assert said_numbers("once or none") == frozenset()


def _skills(tmp_path: Path) -> Path:
    """An RPG's skills: a skill class whose constructor's default caps its level at 40 (each skill
    built as `new("Melee")` by a skill book), a level requirement, each character's progress per
    skill, a skills panel and a level-up alert, all saying "skill" and "level" more often."""
    files = {
        "Assets/Scripts/Skills/CharacterSkill.cs": (
            "public class CharacterSkill\n{\n    public string SkillName { get; }\n    public XPTable Table { get; }\n"
            "    public CharacterSkill(string skillName, int MaxLevel = 40)\n    {\n"
            "        SkillName = skillName;\n        Table = new XPTable(MaxLevel);\n    }\n}\n"
        ),
        "Assets/Scripts/Skills/SkillBook.cs": (
            'public static class SkillBook\n{\n    public static CharacterSkill Melee = new("Melee");\n'
            '    public static CharacterSkill Magic = new("Magic");\n'
            '    public static CharacterSkill Defense = new("Defense");\n}\n'
        ),
        "Assets/Scripts/Skills/LevelRequirement.cs": (
            "[System.Serializable]\npublic struct LevelRequirement\n{\n    public SkillType skill;\n"
            "    public int level;\n"
            "    public bool Met(SkillProgress progress) => progress.GetLevel(skill) >= level;\n}\n"
        ),
        "Assets/Scripts/Skills/SkillProgress.cs": (
            "public class SkillProgress\n{\n    public int GetLevel(SkillType skill) => levels[(int)skill];\n"
            "    public void RecomputeLevel(SkillType skill, XPTable table)\n"
            "    {\n        levels[(int)skill] = table.LevelAt(xp);\n    }\n"
            "    int[] levels = new int[5];\n    int xp;\n}\n"
        ),
        "Assets/Scripts/UI/SkillsPanel.cs": mono_script(
            "SkillsPanel",
            "    public SkillItem skillItemPrefab;\n"
            "    // one row per skill: its name, level and progress to the next level\n"
            "    public void ShowSkillLevel(SkillType skill, int level) { }",
        ),
        "Assets/Scripts/UI/LevelUpAlert.cs": mono_script(
            "LevelUpAlert",
            "    public float secondsShown = 3;\n    // the skill that reached a new level\n"
            "    public void DisplaySkillAndLevel(SkillType skill, int level) { }",
        ),
    }
    return write_project(tmp_path, files)


def test_the_skill_whose_constructor_caps_its_level_ranks_first(tmp_path: Path) -> None:
    """ "Raise the highest level a skill can reach from 40 to 50" had the trial's `CharacterSkill.cs`
    (`CharacterSkill(string skillName, int MaxLevel = 40)`) 10th under the scripts showing and
    checking skill levels: a value was looked for in fields only, not in a parameter's default.
    4th -> 1st here."""
    root = _skills(tmp_path)
    assert _ranked(root, "Raise the highest level a skill can reach from 40 to 50", 1) == [
        "Assets/Scripts/Skills/CharacterSkill.cs"
    ]


def _player(tmp_path: Path) -> Path:
    """A platformer's player: a mover holding its jump count (`maxNumJumps = 2`) and jump force,
    beside the player's combat, spawning and camera and a rolling log in the level, each saying "player"
    or "jump" as often."""
    files = {
        "Assets/Scripts/Movement/AdvancedMover.cs": mono_script(
            "AdvancedMover",
            "    public float runSpeed = 3;\n    public int maxNumJumps = 2;\n    public float jumpForce = 290;\n"
            "    int currentJumpNum;\n    public bool CanJump() => currentJumpNum < maxNumJumps;",
        ),
        "Assets/Scripts/Player/PlayerCombatController.cs": mono_script(
            "PlayerCombatController",
            "    // the player's attacks, none during a jump\n"
            "    public bool attacking;\n    public void Attack() { attacking = true; }",
        ),
        "Assets/Scripts/Player/PlayerSpawnManager.cs": mono_script(
            "PlayerSpawnManager",
            "    // puts the player back at the last checkpoint\n    public void RespawnPlayer() { }",
        ),
        "Assets/Scripts/Player/PlayerFollowCamera.cs": mono_script(
            "PlayerFollowCamera",
            "    // follows the player, higher during a jump\n    public float heightOffset = 1.5f;",
        ),
        "Assets/Scripts/Level/RollingLog.cs": mono_script(
            "RollingLog",
            "    // a log the player jumps up onto\n    public float rollTorque = 4;",
        ),
    }
    return write_project(tmp_path, files)


def test_the_jump_count_said_as_twice_is_raised(tmp_path: Path) -> None:
    """ "Let the player jump three times in a row in the air instead of twice" had the trial's
    `AdvancedMover.cs` (`maxNumJumps = 2`) 13th: "twice" was no number, and no file holds 3.
    2nd -> 1st here, above the player's scripts."""
    root = _player(tmp_path)
    assert _ranked(root, "Let the player jump three times in a row in the air instead of twice", 1) == [
        "Assets/Scripts/Movement/AdvancedMover.cs"
    ]

"""A twenty-seventh trial on unseen games (docs/retrieval.md, "Session 54, a twenty-seventh
trial"): what it found wrong, on small projects of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query.synonyms import forms, synonym_words

from .conftest import mono_script, write_project
from .conftest import ranked_paths as _ranked


def test_a_level_is_a_lv() -> None:
    """Code names a level `Lv` or `Lvl` (`SpawnerLv2`, `lvlIndex`) as it names a maximum `max`: the
    word and its short forms search each other."""
    assert forms("level") == forms("levels") == ("lvl", "lv")
    assert forms("lv") == ("level", "lvl")
    assert forms("lvl") == ("level", "lv")


def test_shells_are_ammunition() -> None:
    """ "Carry more spare shotgun shells": shells and cartridges are the ammo group's words."""
    assert {"ammo", "ammunition"} <= set(synonym_words(["shells"]))
    assert "shells" in synonym_words(["ammo"])


def _waves(tmp_path: Path) -> Path:
    """Each level's waves scripted by a class named for it (`WaveDirectorLv1`, `WaveDirectorLv2`);
    a wave counter on the HUD, which says "wave" more often."""
    files = {
        "Assets/Scripts/Systems/WaveDirectorLv1.cs": mono_script(
            "WaveDirectorLv1", "    public int enemiesToSpawn = 5;\n    void SpawnWave() { }"
        ),
        "Assets/Scripts/Systems/WaveDirectorLv2.cs": mono_script(
            "WaveDirectorLv2", "    public int enemiesToSpawn = 8;\n    void SpawnWave() { }"
        ),
        "Assets/Scripts/UI/WaveCounter.cs": mono_script(
            "WaveCounter",
            "    public UnityEngine.UI.Text waveText;\n    // show the wave number\n"
            "    public void ShowWave(int wave) { waveText.text = wave.ToString(); }",
        ),
    }
    return write_project(tmp_path / "Waves", files)


def test_a_level_named_lv_ranks_for_the_level(tmp_path: Path) -> None:
    """ "Which waves come in level 2?": the classes scripting each level's waves (`WaveDirectorLv2`,
    then `WaveDirectorLv1`) rank first and second, the level's own first (without the short form the
    wave counter, which says only "wave", ranked second, over the first level's director)."""
    ranked = _ranked(_waves(tmp_path), "Which waves come in level 2?", 3)
    assert ranked[:2] == ["Assets/Scripts/Systems/WaveDirectorLv2.cs", "Assets/Scripts/Systems/WaveDirectorLv1.cs"]


def _armoury(tmp_path: Path) -> Path:
    """The player's reserve of each ammunition type, a shotgun's model, the player's movement."""
    files = {
        "Assets/Scripts/Player/AmmunitionInventory.cs": mono_script(
            "AmmunitionInventory",
            "    public int[] maxPerType;\n    public int GetMax(int type) => maxPerType[type];\n"
            "    public void Collect(int type, int amount) { }",
        ),
        "Assets/Scripts/Weapons/ShotgunModel.cs": mono_script(
            "ShotgunModel", "    public Transform barrel;\n    public void PlayShotgunPump() { }"
        ),
        "Assets/Scripts/Player/PlayerMovement.cs": mono_script(
            "PlayerMovement", "    public float playerSpeed = 5;\n    public void MovePlayer(Vector3 direction) { }"
        ),
    }
    return write_project(tmp_path / "Armoury", files)


def test_shells_find_the_ammunition(tmp_path: Path) -> None:
    """ "How many spare shells can I hold?": the ammunition inventory is found (without the words no
    file was: none says "shells", "spare" or "hold")."""
    ranked = _ranked(_armoury(tmp_path), "How many spare shells can I hold?", 3)
    assert ranked == ["Assets/Scripts/Player/AmmunitionInventory.cs"]

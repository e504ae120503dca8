"""An eleventh trial on two unseen games (docs/retrieval.md, session 50): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query import synonyms

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def _dungeon(tmp_path: Path) -> Path:
    """A first-person dungeon game: a player casting spells (`SpellCaster`), a spell book, a
    missile the caster launches (`MagicMissile`, which says neither "projectile" nor "spell"),
    enemies that move, attack and sense the player, and the enemy's end."""
    files = {
        "Assets/Scripts/SpellCaster.cs": mono_script(
            "SpellCaster",
            "    // casts the ready spell when the player presses the cast button\n"
            "    public GameObject missilePrefab;\n    public SpellBook book;\n"
            '    void Update() { if (Input.GetButtonDown("Cast")) CastSpell(); }\n'
            "    void CastSpell() { Instantiate(missilePrefab, transform.position, transform.rotation); }",
        ),
        "Assets/Scripts/SpellCaster.cs.meta": meta("a5011000000000000000000000000001"),
        "Assets/Scripts/SpellBook.cs": mono_script(
            "SpellBook",
            "    // the spells the player knows and the one ready to cast\n"
            "    public string[] spells;\n    public Spell ReadySpell;",
        ),
        "Assets/Scripts/SpellBook.cs.meta": meta("a5011000000000000000000000000002"),
        "Assets/Scripts/MagicMissile.cs": mono_script(
            "MagicMissile",
            "    public float movementSpeed = 25f;\n    public float explosionRadius = 4f;\n"
            "    void Update() { transform.position += transform.forward * movementSpeed * Time.deltaTime; }\n"
            "    void OnCollisionEnter(Collision c) { Explode(); Destroy(gameObject); }\n"
            "    void Explode() { Physics.OverlapSphere(transform.position, explosionRadius); }",
        ),
        "Assets/Scripts/MagicMissile.cs.meta": meta("a5011000000000000000000000000003"),
        "Assets/Scripts/EnemyMotor.cs": mono_script(
            "EnemyMotor",
            "    // moves the enemy towards the player it senses\n    public float moveSpeed = 3f;\n"
            "    public EnemySenses senses;\n    void Update() { if (senses.SeesPlayer) Chase(); }\n"
            "    void Chase() { }",
        ),
        "Assets/Scripts/EnemyMotor.cs.meta": meta("a5011000000000000000000000000004"),
        "Assets/Scripts/EnemyAttack.cs": mono_script(
            "EnemyAttack",
            "    // the enemy hits the player when near enough\n    public int damage = 5;\n"
            "    public float reach = 2f;\n    void Update() { }",
        ),
        "Assets/Scripts/EnemyAttack.cs.meta": meta("a5011000000000000000000000000005"),
        "Assets/Scripts/EnemySenses.cs": mono_script(
            "EnemySenses",
            "    // whether the enemy sees or hears the player\n    public float sightRadius = 100f;\n"
            "    public float hearingRadius = 8f;\n    public bool SeesPlayer;",
        ),
        "Assets/Scripts/EnemySenses.cs.meta": meta("a5011000000000000000000000000006"),
        "Assets/Scripts/EnemyDeath.cs": mono_script(
            "EnemyDeath",
            "    // when the enemy's health is gone it falls and leaves a corpse to loot\n"
            "    public GameObject corpseMarker;\n"
            "    public void Die() { Instantiate(corpseMarker, transform.position, Quaternion.identity); "
            "Destroy(gameObject); }",
        ),
        "Assets/Scripts/EnemyDeath.cs.meta": meta("a5011000000000000000000000000007"),
    }
    return write_project(tmp_path, files)


def test_a_projectile_is_searched_as_a_missile(tmp_path: Path) -> None:
    """ "Which prefab is the projectile of fire spells ..." had Daggerfall Unity's
    `FireMissile.prefab` out of the top 20 of the trial (9th with the word): game code names a
    projectile a missile as often as a bullet, a word the projectile group lacked. Here the missile
    the caster launches as a prefab, saying no word of the task, is last of seven without the word
    and 3rd with it, under the two spell scripts."""
    assert synonyms.expansions(["projectile"]) == [("projectile", ("bullet", "missile", "shoot", "shot"))]
    root = _dungeon(tmp_path)
    assert _ranked(root, "Which script is the projectile a spell launches?", 3) == [
        "Assets/Scripts/SpellCaster.cs",
        "Assets/Scripts/SpellBook.cs",
        "Assets/Scripts/MagicMissile.cs",
    ]

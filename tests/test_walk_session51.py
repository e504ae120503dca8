"""Files one step from a hit (docs/retrieval.md, session 51): a file just past the tenth that one
of the five best hits is tied to, when that hit is tied to few files, ranks tenth."""

from __future__ import annotations

from pathlib import Path

from indexer.query import close_parts

from .conftest import mono_script, write_project
from .conftest import ranked_paths as _ranked

# What a soldier's health script may also refer to (each a file it is tied to).
_PARTS = ("Ragdoll", "Corpse", "RespawnPoint")
_SHOT = "When a bullet hits a soldier his health does not go down"


def _line(name: str, comment: str, body: str) -> str:
    return mono_script(name, f"    // {comment}\n{body}")


def _soldiers(root: Path, parts: int, inspector: str = "") -> Path:
    """A shooter's soldier: his health (which refers to `parts` of _PARTS), the hitbox passing a
    hit on to it (`owner.TakeDamage`), the bullet sending `Receive` to what it hits, and scripts
    about bullets, soldiers, health and damage that touch none of them; with `inspector`, the
    health's custom inspector (editor code) saying it."""
    health = (
        "    public float maxHealth = 100f;\n    float current;\n"
        "    void Awake() { current = maxHealth; }\n"
        "    public void TakeDamage(float damage) { current -= damage; if (current <= 0) Die(); }\n"
        "    void Die() { gameObject.SetActive(false); }"
    )
    files = {
        "Assets/Scripts/Combat/Health.cs": _line(
            "Health",
            "the soldier's health: damage lowers it, at zero he dies",
            health + "".join(f"\n    public {c} {c.lower()};" for c in _PARTS[:parts]),
        ),
        "Assets/Scripts/Combat/Hitbox.cs": mono_script(
            "Hitbox",
            "    public Health owner;\n    public float multiplier = 1f;\n"
            "    public void Receive(float amount) { owner.TakeDamage(amount * multiplier); }",
        ),
        "Assets/Scripts/Weapons/Bullet.cs": _line(
            "Bullet",
            "a bullet flies until it hits something",
            "    public float speed = 40f;\n    public float damage = 10f;\n"
            "    void Update() { transform.position += transform.forward * speed * Time.deltaTime; }\n"
            '    void OnTriggerEnter(Collider other) { other.SendMessage("Receive", damage); Destroy(gameObject); }',
        ),
        "Assets/Scripts/Weapons/BulletTrail.cs": _line(
            "BulletTrail", "the streak a bullet leaves behind", "    public TrailRenderer trail;"
        ),
        "Assets/Scripts/Weapons/BulletCasing.cs": _line(
            "BulletCasing", "the empty casing a bullet leaves when fired", "    public float ejectForce = 2f;"
        ),
        "Assets/Scripts/Weapons/BulletPool.cs": _line(
            "BulletPool", "bullets are reused, not destroyed", "    public GameObject bulletPrefab;"
        ),
        "Assets/Scripts/Weapons/Rifle.cs": _line(
            "Rifle", "the soldier's rifle fires a bullet per shot", "    public GameObject bulletPrefab;"
        ),
        "Assets/Scripts/Soldier/SoldierAnimator.cs": _line(
            "SoldierAnimator",
            "the soldier's run, aim and hit reactions",
            '    public Animator animator;\n    public void PlayHit() { animator.SetTrigger("Hit"); }',
        ),
        "Assets/Scripts/Soldier/SoldierVoice.cs": _line(
            "SoldierVoice", "the soldier shouts when he is hit", "    public AudioClip[] painClips;"
        ),
        "Assets/Scripts/Soldier/SoldierSpawner.cs": _line(
            "SoldierSpawner", "a new soldier every wave", "    public GameObject soldierPrefab;"
        ),
        "Assets/Scripts/Soldier/SoldierAI.cs": _line(
            "SoldierAI", "the soldier takes cover when his health is low", "    public float sightRange = 30f;"
        ),
        "Assets/Scripts/UI/HealthBar.cs": _line(
            "HealthBar", "the health bar over the soldier's head", "    public UnityEngine.UI.Image fill;"
        ),
        "Assets/Scripts/UI/DamageNumbers.cs": _line(
            "DamageNumbers", "the damage a hit does, floating up", "    public GameObject numberPrefab;"
        ),
        "Assets/Scripts/Pickups/HealthPack.cs": _line(
            "HealthPack", "gives health back when the soldier walks over it", "    public float amount = 25f;"
        ),
        "Assets/Scripts/Combat/Armor.cs": _line(
            "Armor", "armor takes a share of the damage before health", "    public float absorb = 0.3f;"
        ),
    }
    for c in _PARTS[:parts]:
        files[f"Assets/Scripts/Combat/{c}.cs"] = mono_script(c, "    public float delay = 1f;")
    if inspector:
        files["Assets/Scripts/Editor/HealthInspector.cs"] = (
            "using UnityEditor;\n[CustomEditor(typeof(Health))]\npublic class HealthInspector : Editor\n{\n"
            f"    // {inspector}\n    public override void OnInspectorGUI() {{ DrawDefaultInspector(); }}\n}}\n"
        )
    return write_project(root, files)


_TOP_NINE = [
    "Assets/Scripts/Soldier/SoldierAnimator.cs",
    "Assets/Scripts/Combat/Health.cs",
    "Assets/Scripts/Weapons/BulletPool.cs",
    "Assets/Scripts/Soldier/SoldierSpawner.cs",
    "Assets/Scripts/Weapons/Bullet.cs",
    "Assets/Scripts/Pickups/HealthPack.cs",
    "Assets/Scripts/UI/HealthBar.cs",
    "Assets/Scripts/Soldier/SoldierVoice.cs",
    "Assets/Scripts/Soldier/SoldierAI.cs",
]
_PAST_TENTH = [
    "Assets/Scripts/Weapons/BulletTrail.cs",
    "Assets/Scripts/Weapons/BulletCasing.cs",
    "Assets/Scripts/Weapons/Rifle.cs",
]


def test_a_hit_tied_to_few_files_brings_one_just_past_the_tenth_to_the_tenth(tmp_path: Path) -> None:
    """The hitbox (it holds the soldier's `Health` and passes a hit on to it) holds one word of the
    task and ranked 13th under scripts about bullets and soldiers; `Health.cs`, second, is tied to
    three files (the hitbox, its ragdoll and its corpse), so the hitbox ranks tenth, just above the
    files it passed, and no file of the nine above it moves."""
    assert (close_parts.HITS, close_parts.MOST, close_parts.PAST) == (5, 3, (10, 13))
    assert _ranked(_soldiers(tmp_path, parts=2), _SHOT, 14) == [
        *_TOP_NINE,
        "Assets/Scripts/Combat/Hitbox.cs",
        *_PAST_TENTH,
        "Assets/Scripts/UI/DamageNumbers.cs",
    ]


def test_a_close_part_says_which_hit_it_is_tied_to(tmp_path: Path) -> None:
    """The risen file says why it is there: the hit it is tied to, and that the hit has few ties."""
    from indexer.config import Config
    from indexer.query.workspace import open_workspace

    root = _soldiers(tmp_path, parts=2)
    _ranked(root, _SHOT, 14)
    hits = open_workspace(root, [(root, Config())]).search(_SHOT, 14, named=False)
    hitbox = next(h for h in hits if h.path == "Assets/Scripts/Combat/Hitbox.cs")
    assert "tied to Assets/Scripts/Combat/Health.cs, which is tied to few files" in hitbox.reason
    assert not any("tied to few files" in h.reason for h in hits if h.path != hitbox.path)


def test_a_hit_tied_to_many_files_brings_none(tmp_path: Path) -> None:
    """With a fourth file tied to the health script (its respawn point), the tie says less of each:
    the hitbox stays 13th."""
    assert _ranked(_soldiers(tmp_path, parts=3), _SHOT, 14) == [
        *_TOP_NINE,
        *_PAST_TENTH,
        "Assets/Scripts/Combat/Hitbox.cs",
        "Assets/Scripts/UI/DamageNumbers.cs",
    ]


def test_a_close_part_its_role_puts_lower_stays(tmp_path: Path) -> None:
    """The health's custom inspector (editor code, which the roles rank at EDITOR_PRIOR) is the
    file tied to it ranked 12th, with the ragdoll and the hitbox the health's three ties: it is not
    raised above the tenth (it was, before the roles were read, over the fixture's scene placing a
    brute enemy in test_trials_session34), and the hitbox, 14th, is past the places that rise."""
    root = _soldiers(tmp_path, parts=1, inspector="the soldier's health in the inspector")
    assert _ranked(root, _SHOT, 14) == [
        "Assets/Scripts/Soldier/SoldierAnimator.cs",
        "Assets/Scripts/Combat/Health.cs",
        "Assets/Scripts/Weapons/BulletPool.cs",
        "Assets/Scripts/Soldier/SoldierSpawner.cs",
        "Assets/Scripts/Weapons/Bullet.cs",
        "Assets/Scripts/Soldier/SoldierVoice.cs",
        "Assets/Scripts/Pickups/HealthPack.cs",
        "Assets/Scripts/Soldier/SoldierAI.cs",
        "Assets/Scripts/UI/HealthBar.cs",
        "Assets/Scripts/Weapons/BulletTrail.cs",
        "Assets/Scripts/Weapons/BulletCasing.cs",
        "Assets/Scripts/Editor/HealthInspector.cs",
        "Assets/Scripts/Weapons/Rifle.cs",
        "Assets/Scripts/Combat/Hitbox.cs",
    ]

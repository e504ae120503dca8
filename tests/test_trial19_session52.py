"""A nineteenth trial on unseen games (docs/retrieval.md, session 52): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.tables import keyed_tables, row_table
from indexer.query.workspace import open_workspace

from .conftest import meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

WEAPONS = "Assets/Resources/Configs/Weapons.csv"
ENEMIES = "Assets/Resources/Configs/Enemies.csv"
ROW_CLASS = "Assets/Scripts/Config/WeaponConfig.cs"
ENEMY_GUID = "7d3b9e21c4a84f0fb6e25a9c1d8e4f70"


def _row_class(name: str, fields: str) -> str:
    """A class a CSV loader reads a table's rows into, its fields named as the columns."""
    return f"using System.Runtime.Serialization;\n\n[DataContract]\npublic class {name}\n{{\n{fields}}}\n"


def _shooter(tmp_path: Path) -> Path:
    """A shooter whose numbers are tables a loader reads from `Resources/Configs` by a name it is
    handed (no literal names a table): the weapons' rows into `WeaponConfig`, the enemies' into
    `EnemyConfig`, a weapon model its values from the first. A weapon fires and reloads from its
    config, a reloader refills the magazine, a shotgun spreads its pellets, a counter shows the
    ammo; a localization table has the weapons' names. Three enemy prefabs carry one script
    naming their row, a brute slams the ground, a bar shows an enemy's health."""
    files = {
        WEAPONS: "Id,Damage,FireRate,ClipSize,ReloadTime\nPistol,35,4,12,1.5\nShotgun,125,1,6,2\nRifle,25,30,30,2\n",
        ENEMIES: "Id,Health,MoveSpeed,AttackDamage\nWalker,100,1,10\nRunner,50,3,10\nBrute,400,0.5,30\n",
        "Assets/Resources/Configs/Localization.csv": "Id,English\nshotgun_name,Shotgun\nclip_label,Magazine\n",
        ROW_CLASS: _row_class(
            "WeaponConfig",
            '    [DataMember(Name = "Id")] private string _id;\n    [DataMember] public float Damage;\n'
            "    [DataMember] public float FireRate;\n    [DataMember] public int ClipSize;\n"
            "    [DataMember] public float ReloadTime;\n    public string Id => _id;\n",
        ),
        "Assets/Scripts/Config/EnemyConfig.cs": _row_class(
            "EnemyConfig",
            '    [DataMember(Name = "Id")] public string Id;\n    [DataMember] public float Health;\n'
            "    [DataMember] public float MoveSpeed;\n    [DataMember] public float AttackDamage;\n",
        ),
        "Assets/Scripts/Config/TableLoader.cs": (
            "using System.IO;\nusing UnityEngine;\n\npublic class TableLoader\n{\n"
            '    private const string Folder = "Configs";\n'
            "    // read a table's rows from Resources by the name it is given\n"
            "    public string Read(string table) => Resources.Load<TextAsset>(Path.Combine(Folder, table)).text;\n}\n"
        ),
        "Assets/Scripts/Weapons/Weapon.cs": mono_script(
            "Weapon",
            "    public WeaponConfig config;\n    private int ammo;\n"
            "    // fire one shot, dealing the weapon's damage, then reload when the magazine is empty\n"
            "    public void Fire() { ammo--; if (ammo <= 0) Reload(); }\n"
            "    public void Reload() { ammo = config.ClipSize; }",
        ),
        "Assets/Scripts/Weapons/MagazineReloader.cs": mono_script(
            "MagazineReloader",
            "    public float reloadTime = 2f;\n    // refill the whole magazine once the reload time is over\n"
            "    public void StartReload(Weapon weapon) { Invoke(nameof(Done), reloadTime); }\n    void Done() { }",
        ),
        "Assets/Scripts/Weapons/WeaponModel.cs": (
            "public class WeaponModel\n{\n    private readonly WeaponConfig _config;\n"
            "    public WeaponModel(WeaponConfig config) { _config = config; }\n"
            "    public float Damage => _config.Damage;\n    public int ClipSize => _config.ClipSize;\n"
            "    public float ReloadTime => _config.ReloadTime;\n}\n"
        ),
        "Assets/Scripts/Weapons/ShotgunSpread.cs": mono_script(
            "ShotgunSpread",
            "    public int pellets = 8;\n    public float spreadAngle = 10f;\n"
            "    // the shotgun's pellets fan out; each deals a share of the shot's damage\n"
            "    public float PelletDamage(float damage) => damage / pellets;",
        ),
        "Assets/Scripts/UI/AmmoCounter.cs": mono_script(
            "AmmoCounter",
            "    public UnityEngine.UI.Text label;\n    // show the rounds left in the magazine and the reload time\n"
            "    public void Show(int ammo, int magazineSize, float reloadTime) { }",
        ),
        "Assets/Scripts/Enemies/Enemy.cs": mono_script(
            "Enemy",
            "    public string configId;\n    // walk to the player and bite\n    void Update() { }",
        ),
        "Assets/Scripts/Enemies/Enemy.cs.meta": meta(ENEMY_GUID),
        "Assets/Scripts/Enemies/GroundSlam.cs": mono_script(
            "GroundSlam",
            "    public float radius = 3f;\n"
            "    // the brute slams the ground, knocking the player back\n    public void Slam() { }",
        ),
        "Assets/Scripts/Enemies/EnemyHealthBar.cs": mono_script(
            "EnemyHealthBar",
            "    public UnityEngine.UI.Slider bar;\n    // show how hard the enemy is still to kill\n"
            "    public void Show(float health) { bar.value = health; }",
        ),
    }
    for enemy in ("Walker", "Runner", "Brute"):
        files[f"Assets/Prefabs/Enemies/{enemy}.prefab"] = script_prefab(enemy, ENEMY_GUID, f"  configId: {enemy}\n")
    return write_project(tmp_path, files)


def test_a_class_read_from_a_table_names_that_table(tmp_path: Path) -> None:
    """The table whose columns a class's fields are (an id aside, by the name its attribute
    gives) is that class's rows; a class whose fields name too few of any table's columns, or
    two tables as much, has none."""
    root = _shooter(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert row_table(project, ROW_CLASS) == WEAPONS
    assert row_table(project, "Assets/Scripts/Config/EnemyConfig.cs") == ENEMIES
    for script in ("Assets/Scripts/Weapons/Weapon.cs", "Assets/Scripts/Config/TableLoader.cs"):
        assert row_table(project, script) is None, script


def test_the_table_a_value_is_set_in_ranks_with_its_row_class(tmp_path: Path) -> None:
    """ "Where is the shotgun's damage, magazine size and reload time set": the weapons table, whose
    row holds the shotgun's numbers, ranks second, under the reloader and level with the weapon
    model read from its rows (no GUID or literal ties the table to code: it ranked sixth, under
    four scripts saying the words and the row class)."""
    root = _shooter(tmp_path)
    ranked = _ranked(root, "Where is the shotgun's damage, magazine size and reload time set?", 3)
    assert ranked == [
        "Assets/Scripts/Weapons/MagazineReloader.cs",
        WEAPONS,
        "Assets/Scripts/Weapons/WeaponModel.cs",
    ]


def test_a_prefab_named_by_a_rows_key_has_that_table(tmp_path: Path) -> None:
    """A table whose row opens on a prefab's name holds that prefab's numbers; a name keying rows
    of more than two tables (a list of names) or one of fewer than three letters names none."""
    root = _shooter(tmp_path)
    for n in (1, 2, 3):
        (root / f"Assets/Resources/Configs/Names{n}.csv").write_text(f"Id,Label\nShotgun,Shotgun {n}\nEm,Em\n")
    (root / "Assets/Resources/Configs/Short.csv").write_text("Id,Size\nEm,2\n")
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert keyed_tables(project, "Assets/Prefabs/Enemies/Brute.prefab") == [ENEMIES]
    assert keyed_tables(project, "Assets/Prefabs/Weapons/Shotgun.prefab") == []
    assert keyed_tables(project, "Assets/Prefabs/Em.prefab") == []


def test_the_table_keyed_by_a_prefab_ranks_with_it(tmp_path: Path) -> None:
    """ "Make the brute much harder to kill": the enemies table, whose `Brute` row holds its health,
    ranks second, under the brute's prefab (it ranked fourth, under the enemy script and a health
    bar, none of which holds the number)."""
    root = _shooter(tmp_path)
    ranked = _ranked(root, "Make the brute much harder to kill", 2)
    assert ranked == ["Assets/Prefabs/Enemies/Brute.prefab", ENEMIES]


def test_a_table_is_read_to_its_first_rows_only(tmp_path: Path) -> None:
    """A table is read to its first TABLE_HEAD bytes (session 52: read whole, 300 localization
    tables of 240 KB cost the first query of each generation a second): its columns still name
    it, a key in its first rows still does, one past them does not, and a row cut short at the
    end of what is read is not taken for a key."""
    from indexer.query.tables import TABLE_HEAD

    root = _shooter(tmp_path)
    head = "Id,Health,MoveSpeed,AttackDamage\nBrute,400,0.5,30\n"
    while len(head) < TABLE_HEAD - 100:
        head += f"Grunt{len(head)},100,1,10\n"
    head += "Imp," + "9" * (TABLE_HEAD - 3 - len(head) - 5) + "\n"  # the next row starts 3 bytes before the end
    assert len(head) == TABLE_HEAD - 3
    (root / ENEMIES).write_text(head + "Ogre,900,0.3,50\nGolem,999,0.2,60\n")  # read: `Ogr`, cut short
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert row_table(project, "Assets/Scripts/Config/EnemyConfig.cs") == ENEMIES
    assert keyed_tables(project, "Assets/Prefabs/Enemies/Brute.prefab") == [ENEMIES]
    assert keyed_tables(project, "Assets/Prefabs/Enemies/Golem.prefab") == []
    assert keyed_tables(project, "Assets/Prefabs/Enemies/Ogr.prefab") == []

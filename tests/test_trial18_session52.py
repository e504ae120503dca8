"""An eighteenth trial on unseen games (docs/retrieval.md, session 52): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import said_words
from indexer.query.synonyms import synonym_words

from .conftest import data_asset, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

MODULES = "Assets/Scripts/Entity/Modules"
# (module class, guid of its wrapper script, what the module does: its members)
_MODULES = (
    (
        "RangedAttackModule",
        "a1000000000000000000000000000001",
        "    [SerializeField] private float _range = 6f;\n    [SerializeField] private float _cooldown = 2f;\n"
        "    public IPool<AcidGlob> Globs { get; set; }\n"
        "    // lob an acid glob in an arc at the target once it is in range\n"
        "    public void Throw(Transform target) { var glob = Globs.Get(); glob.Launch(target.position); }",
    ),
    (
        "HealthModule",
        "a1000000000000000000000000000002",
        "    [SerializeField] private float _maxHealth = 100f;\n    public float Health { get; private set; }\n"
        "    public event Action Died;\n"
        "    public void Decrease(float value) { Health -= value; if (Health <= 0) Died?.Invoke(); }",
    ),
    (
        "ChaseMovementModule",
        "a1000000000000000000000000000003",
        "    [SerializeField] private float _speed = 2.2f;\n"
        "    // walk the nav mesh agent towards the target\n    public void Follow(Transform target) { }",
    ),
    (
        "LootDropModule",
        "a1000000000000000000000000000004",
        "    [SerializeField, Range(0f, 1f)] private float _dropChance = 0.1f;\n    public void Drop(Vector3 at) { }",
    ),
    (
        "AnimationModule",
        "a1000000000000000000000000000005",
        "    [SerializeField] private Animator _animator;\n"
        "    public void Play(string state) => _animator.Play(state);",
    ),
)


def _module(name: str, body: str) -> str:
    return (
        "using System;\nusing UnityEngine;\nnamespace Entities\n{\n    [Serializable]\n"
        f"    public class {name} : IModule\n    {{\n{body}\n    }}\n}}\n"
    )


def _wrapper(name: str) -> str:
    return f"namespace Entities\n{{\n    public sealed class {name}Wrapper : ModuleWrapper<{name}> {{ }}\n}}\n"


def _prefab(name: str, guids: list[str]) -> str:
    """A prefab of one object named `name` carrying a component of each script in `guids`."""
    ids = range(102, 102 + len(guids))
    head = (
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &100\nGameObject:\n  m_Component:\n"
        "  - component: {fileID: 101}\n" + "".join(f"  - component: {{fileID: {i}}}\n" for i in ids)
    )
    head += f"  m_Name: {name}\n  m_IsActive: 1\n"
    head += "--- !u!4 &101\nTransform:\n  m_GameObject: {fileID: 100}\n  m_Children: []\n  m_Father: {fileID: 0}\n"
    return head + "".join(
        f"--- !u!114 &{i}\nMonoBehaviour:\n  m_GameObject: {{fileID: 100}}\n  m_Enabled: 1\n"
        f"  m_Script: {{fileID: 11500000, guid: {g}, type: 3}}\n  m_Name: \n  _module:\n    _enabled: 1\n"
        for i, g in zip(ids, guids, strict=True)
    )


def _entities(tmp_path: Path) -> Path:
    """A zombie game built of entity modules: each module a plain serializable class, held on a
    prefab by an empty wrapper script binding the generic base to it; the spitter zombie's prefab
    carries five wrappers. A glob script, a pool and a spawner beside them."""
    files = {
        "Assets/Scripts/Entity/Core/IModule.cs": "namespace Entities\n{\n    public interface IModule { }\n}\n",
        "Assets/Scripts/Entity/Core/ModuleWrapper.cs": (
            "using UnityEngine;\nnamespace Entities\n{\n"
            "    public abstract class ModuleWrapper<T> : MonoBehaviour where T : IModule\n    {\n"
            "        [SerializeField] private T _module;\n        public T Module => _module;\n    }\n}\n"
        ),
        "Assets/Scripts/Entity/Core/IPool.cs": "namespace Entities\n{\n    public interface IPool<T> { T Get(); }\n}\n",
        "Assets/Scripts/Weapons/AcidGlob.cs": (
            "using UnityEngine;\npublic class AcidGlob : MonoBehaviour\n{\n"
            "    [SerializeField] private float _speed = 4f;\n"
            "    public void Launch(Vector3 target) { }\n}\n"
        ),
        "Assets/Scripts/Spawning/ZombieSpawner.cs": (
            "using UnityEngine;\npublic class ZombieSpawner : MonoBehaviour\n{\n"
            "    [SerializeField] private GameObject[] _zombies;\n"
            "    // spawn a random zombie at a spawn point each wave\n    public void SpawnNext() { }\n}\n"
        ),
    }
    for name, guid, body in _MODULES:
        files[f"{MODULES}/{name}.cs"] = _module(name, body)
        files[f"{MODULES}/{name}Wrapper.cs"] = _wrapper(name)
        files[f"{MODULES}/{name}Wrapper.cs.meta"] = meta(guid)
    files["Assets/Prefabs/Zombies/SpitterZombie.prefab"] = _prefab("SpitterZombie", [g for _n, g, _b in _MODULES])
    return write_project(tmp_path, files)


def test_a_class_an_empty_wrapper_binds_is_reached_through_it(tmp_path: Path) -> None:
    """ "What does the spitter zombie throw": the prefab carries five empty wrappers; the attack
    module one of them binds ranks third, under the prefab and the spawner saying "zombie" (it
    ranked ninth, under every wrapper, none of which says what the zombie does)."""
    root = _entities(tmp_path)
    ranked = _ranked(root, "what does the spitter zombie throw at the player?", 3)
    assert ranked == [
        "Assets/Prefabs/Zombies/SpitterZombie.prefab",
        "Assets/Scripts/Spawning/ZombieSpawner.cs",
        f"{MODULES}/RangedAttackModule.cs",
    ]


def test_only_an_empty_script_binds_a_class(tmp_path: Path) -> None:
    """A wrapper with no member binds the class its generic base names; a script with members
    deriving from a generic base, a module and the generic base itself bind nothing."""
    from indexer.build.update import update
    from indexer.config import Config
    from indexer.query.bindings import bound_files
    from indexer.query.workspace import open_workspace

    root = _entities(tmp_path)
    (root / "Assets/Scripts/Weapons/GlobPool.cs").write_text(
        "using UnityEngine;\nnamespace Entities\n{\n    public class GlobPool : ModuleWrapper<HealthModule>\n    {\n"
        "        public int size = 20;\n    }\n}\n"
    )
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    assert bound_files(project, f"{MODULES}/RangedAttackModuleWrapper.cs") == (f"{MODULES}/RangedAttackModule.cs",)
    for path in (
        "Assets/Scripts/Weapons/GlobPool.cs",
        f"{MODULES}/RangedAttackModule.cs",
        "Assets/Scripts/Entity/Core/ModuleWrapper.cs",
        "Assets/Prefabs/Zombies/SpitterZombie.prefab",
    ):
        assert bound_files(project, path) == (), path


CATALOG_GUID = "b2000000000000000000000000000001"


def _shop(tmp_path: Path) -> Path:
    """A shop between waves: its catalog class (a ScriptableObject pricing each gun by its type)
    has one asset, which the shop script loads by a key written in a field, not by a reference an
    asset holds. The guns, their type and a wallet beside them."""
    files = {
        "Assets/Scripts/Shop/GunCatalog.cs": (
            "using System.Collections.Generic;\nusing UnityEngine;\n[CreateAssetMenu]\n"
            "public class GunCatalog : ScriptableObject\n{\n    [SerializeField] private List<GunOffer> _offers;\n"
            "    public List<GunOffer> Offers => _offers;\n}\n"
        ),
        "Assets/Scripts/Shop/GunCatalog.cs.meta": meta(CATALOG_GUID),
        "Assets/Scripts/Shop/GunOffer.cs": (
            "[System.Serializable]\npublic class GunOffer\n{\n    public GunType _type;\n    public int _price;\n"
            "    public int _upgradePrice;\n}\n"
        ),
        "Assets/Data/GunCatalog.asset": data_asset(
            CATALOG_GUID,
            "GunCatalog",
            "  _offers:\n  - _type: 1\n    _price: 300\n    _upgradePrice: 200\n"
            "  - _type: 2\n    _price: 250\n    _upgradePrice: 180\n",
        ),
        "Assets/Scripts/Shop/WaveShop.cs": mono_script(
            "WaveShop",
            '    [SerializeField] private string _catalogKey = "GunCatalog";\n    private GunCatalog _catalog;\n'
            "    public Wallet wallet;\n"
            "    // load the shop's offers and show each price; buy a gun when the player has the coins\n"
            "    void Start() { _catalog = Resources.Load<GunCatalog>(_catalogKey); }\n"
            "    public void Buy(GunType type) { var price = _catalog.Offers.Find(o => o._type == type)._price;"
            " if (wallet.Spend(price)) { } }",
        ),
        "Assets/Scripts/Shop/Wallet.cs": mono_script(
            "Wallet",
            "    public int coins;\n    // spend coins on a gun when there are enough\n"
            "    public bool Spend(int price) { if (coins < price) return false; coins -= price; return true; }",
        ),
        "Assets/Scripts/Weapons/GunType.cs": "public enum GunType\n{\n    Pistol,\n    Shotgun,\n    Rifle\n}\n",
    }
    for gun, body in (
        ("Shotgun", "fire two pellets side by side"),
        ("Rifle", "fire one bullet through several zombies"),
        ("Pistol", "fire one bullet"),
    ):
        files[f"Assets/Scripts/Weapons/{gun}.cs"] = mono_script(
            gun, f"    public float damage = 20f;\n    // {body}\n    public void Shoot() {{ }}"
        )
    return write_project(tmp_path, files)


def test_the_one_data_asset_a_script_reads_holds_the_value_asked(tmp_path: Path) -> None:
    """ "How much does the shotgun cost in the shop": the shop's catalog, the one asset of the
    ScriptableObject class the shop script loads, ranks second, under the shotgun and above the shop
    (it ranked last, seventh: the asset says neither "shotgun" nor "cost", and no asset links it
    to the shop). A class of two assets says which holds the value no more: neither is raised."""
    root = _shop(tmp_path)
    ranked = _ranked(root, "How much does the shotgun cost in the shop?", 3)
    assert ranked == [
        "Assets/Scripts/Weapons/Shotgun.cs",
        "Assets/Data/GunCatalog.asset",
        "Assets/Scripts/Shop/WaveShop.cs",
    ]
    winter = data_asset(CATALOG_GUID, "GunCatalog Winter", "  _offers: []\n")
    (root / "Assets/Data/GunCatalog Winter.asset").write_text(winter)
    ranked = _ranked(root, "How much does the shotgun cost in the shop?", 7)
    assert ranked.index("Assets/Data/GunCatalog.asset") == 6


def test_a_bite_is_an_attack(tmp_path: Path) -> None:
    """ "Zombies keep biting the player even after the player has moved away": a zombie's (a
    dog's, a monster's) bite is its melee attack, and "bite" searches the words of attacks as
    "strike" does. The melee module ranks fifth, under the player's two scripts, the spawner and
    the prefab saying "player" and "zombie" (it was not in the eight best: nothing said "bite")."""
    assert "attack" in synonym_words(said_words("zombies keep biting the player"))
    root = _entities(tmp_path)
    (root / f"{MODULES}/MeleeAttackModule.cs").write_text(
        _module(
            "MeleeAttackModule",
            "    [SerializeField] private int _damage = 15;\n    [SerializeField] private float _cooldown = 0.85f;\n"
            "    // hit the target while it touches the zombie; stop once it leaves\n"
            "    public void OnCollisionEnter(Collision collision) { }\n"
            "    public void OnCollisionExit(Collision collision) { }\n"
            "    private IEnumerator AttackRoutine() { yield return null; }",
        )
    )
    for name, body in (
        ("PlayerMovement", "    // move the player by the joystick, away from danger\n    void Move() { }"),
        ("PlayerHealthBar", "    // show the player's health\n    void Update() { }"),
    ):
        (root / "Assets/Scripts/Player").mkdir(parents=True, exist_ok=True)
        (root / f"Assets/Scripts/Player/{name}.cs").write_text(mono_script(name, body))
    ranked = _ranked(root, "Zombies keep biting the player even after the player has moved away from them", 5)
    assert ranked[3:] == ["Assets/Prefabs/Zombies/SpitterZombie.prefab", f"{MODULES}/MeleeAttackModule.cs"]


def test_tougher_asks_for_health(tmp_path: Path) -> None:
    """ "Make the zombies get tougher with each wave": a tougher enemy has more health (or
    strength), as a stronger one has strength: the comparative searches those nouns too. The health
    module ranks second, under the spawner (fifth without: "tougher" met no word)."""
    assert {"health", "hp"} <= set(synonym_words(said_words("make the zombies get tougher with each wave")))
    root = _entities(tmp_path)
    ranked = _ranked(root, "Make the zombies get tougher with each wave", 2)
    assert ranked == ["Assets/Scripts/Spawning/ZombieSpawner.cs", f"{MODULES}/HealthModule.cs"]

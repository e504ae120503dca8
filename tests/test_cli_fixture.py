"""The CLI end to end on the fixture, through a subprocess, as the README runs it."""

import json
from pathlib import Path

import pytest

from .conftest import copy_fixture, run_cli


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("cli") / "DungeonCrawler"
    copy_fixture(dest)
    r = run_cli("index", "--project", str(dest), "--json")
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert (stats["full"], stats["files"], stats["added"], stats["skipped"]) == (True, 213, 213, 0)
    return dest


def test_query_json_contract(project: Path) -> None:
    r = run_cli("query", "player takes damage and dies", "--project", str(project), "--json", "--limit", "5")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert list(data) == ["schema_version", "query", "results"]
    assert (data["schema_version"], data["query"]) == (1, "player takes damage and dies")
    assert len(data["results"]) == 5
    first = data["results"][0]
    assert first == {
        "path": "Assets/Scripts/Player/PlayerHealth.cs",
        "kind": "csharp",
        "name": "DungeonCrawler.Player.PlayerHealth.TakeDamage",
        "line": 30,
        "score": first["score"],
        "snippet": "public override void TakeDamage(DamageInfo damage)",
        "reason": first["reason"],
    }
    assert first["reason"].startswith("text match")
    scores = [h["score"] for h in data["results"]]
    assert scores == sorted(scores, reverse=True)


def test_query_from_inside_the_project_finds_the_root(project: Path) -> None:
    r = run_cli("query", "SaveSystem", "--json", "--limit", "1", cwd=project / "Assets" / "Scripts")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["results"][0]["path"] == "Assets/Scripts/Save/SaveSystem.cs"


def test_query_human_output(project: Path) -> None:
    r = run_cli("query", "Heal", "--project", str(project), "--limit", "3")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith(" 1. Assets/Scripts/")
    assert "[csharp]" in lines[0]
    # each hit says why it ranks, as --json's `reason`
    hits = json.loads(run_cli("query", "Heal", "--project", str(project), "--limit", "3", "--json").stdout)["results"]
    assert [line for line in lines if line.startswith("      why: ")] == [f"      why: {h['reason']}" for h in hits]
    assert all(h["reason"] for h in hits)


def test_second_index_is_a_noop(project: Path) -> None:
    r = run_cli("index", "--project", str(project), "--json")
    stats = json.loads(r.stdout)
    assert (stats["full"], stats["scanned"], stats["deleted"], stats["files"]) == (False, 0, 0, 213)


def test_status_json(project: Path) -> None:
    r = run_cli("status", "--project", str(project), "--json")
    assert r.returncode == 0
    st = json.loads(r.stdout)
    assert (st["indexed"], st["files"], st["partial"], st["skipped"], st["stale_files"]) == (True, 213, 0, [], 0)
    assert st["by_kind"]["csharp"] == 54


def test_context_json_contract(project: Path) -> None:
    r = run_cli("context", "add a shield that absorbs damage", "--project", str(project), "--json", "--budget", "2000")
    assert r.returncode == 0, r.stderr
    pack = json.loads(r.stdout)
    assert list(pack) == ["schema_version", "query", "budget", "tokens", "tokenizer", "tier1", "tier2", "note"]
    assert pack["budget"] == 2000 and 0 < pack["tokens"] <= 2000
    assert list(pack["tier1"]) == ["text", "tokens"] and list(pack["tier2"]) == ["text", "tokens", "files"]
    assert pack["tier1"]["text"].startswith("# Unity project DungeonCrawler — Dungeon Crawler (Unity 2021.3.15f1)")
    assert "Scenes in build: Assets/Scenes/MainMenu.unity, Assets/Scenes/Dungeon.unity" in pack["tier1"]["text"]
    files = pack["tier2"]["files"]
    assert files and set(files[0]) == {"path", "tokens", "score", "reason"}
    assert files[0]["path"] in {"Assets/Scripts/Combat/DamageDealer.cs", "Assets/Scripts/Combat/IDamageable.cs"}
    assert sum(f["tokens"] for f in files) <= pack["tier2"]["tokens"] <= 2000 - pack["tier1"]["tokens"]
    # the files the task's words match, then the related ones: one reference from the best three
    kinds = [f["reason"].split(":")[0] for f in files]
    assert kinds == sorted(kinds) and set(kinds) == {"matched", "related"}
    assert ("Assets/Scripts/Weapons/MeleeWeapon.cs", "related: uses IDamageable.cs") in [
        (f["path"], f["reason"]) for f in files
    ]
    assert "\n## Related files (one reference from the files above)\n" in pack["tier2"]["text"]


def refs_json(project: Path, target: str) -> dict:
    r = run_cli("refs", target, "--project", str(project), "--json", "--limit", "0")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_question_about_a_key_ranks_the_input_manager_axis_it_names(project: Path) -> None:
    """A trial on a platformer: "which key makes the player jump" never reached
    `InputManager.asset` (only with `--kind settings`, at a tenth of the scripts' score), the one
    file saying Jump is the space bar. A task about input naming an axis ranks it among the first,
    saying the axis; one that does not ask about input leaves it where its text puts it."""

    def results(text: str) -> list[dict]:
        r = run_cli("query", text, "--project", str(project), "--json", "--limit", "5")
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)["results"]

    hits = results("which key makes the player jump")
    manager = [h for h in hits if h["path"] == "ProjectSettings/InputManager.asset"]
    assert [(h["line"], h["reason"]) for h in manager] == [(57, "text match; input axis Jump [positive: space]")]
    assert not any("input axis" in h["reason"] for h in results("make the player jump higher"))


def test_refs_of_a_script_lists_prefabs_scenes_and_unity_events(project: Path) -> None:
    data = refs_json(project, "PlayerHealth")
    assert data["target"]["kind"] == "type"
    assert data["target"]["types"] == ["DungeonCrawler.Player.PlayerHealth"]
    assets = [
        (u["path"], u["line"], u["kind"], u["context"], u["detail"], u["resolved"])
        for u in data["usages"]
        if u["where"] == "asset"
    ]
    assert assets == [
        ("Assets/Prefabs/Player.prefab", 86, "script", "m_Script", "Player", ""),
        # the scene places the prefab: the script is on the instance too
        ("Assets/Scenes/Dungeon.unity", 417, "prefab", "instance", "Player (via Assets/Prefabs/Player.prefab)", ""),
        (
            "Assets/Scenes/Dungeon.unity",
            1302,
            "method",
            "m_OnClick",
            "HUD/HealButton > Button.m_OnClick(int 25) on Player",
            "DungeonCrawler.Player.PlayerHealth.Heal",
        ),
    ]
    code = [(u["path"], u["line"], u["context"]) for u in data["usages"] if u["where"] == "code"]
    assert code == [
        ("Assets/Scripts/Core/GameManager.cs", 15, "field"),
        ("Assets/Scripts/Core/GameManager.cs", 23, "property"),
        ("Assets/Scripts/Core/GameManager.cs", 32, "generic"),
    ]


def test_refs_of_an_inherited_member_include_calls_and_events(project: Path) -> None:
    data = refs_json(project, "Health.Heal")
    assert data["target"]["kind"] == "member"
    got = {(u["path"], u["line"], u["kind"]) for u in data["usages"]}
    assert got == {
        ("Assets/Scenes/Dungeon.unity", 1302, "method"),  # the button calls PlayerHealth.Heal, declared in Health
        ("Assets/Scripts/Editor/HealthEditor.cs", 51, "text"),
        ("Assets/Scripts/Inventory/HealEffect.cs", 25, "text"),
        ("Assets/Tests/EditMode/HealthTests.cs", 72, "text"),
    }


def test_refs_of_a_member_written_as_a_call_or_without_a_name(project: Path) -> None:
    """`Health.Heal()` (as code calls it) used to be the member `Heal()`, which nothing names: "no
    usages found"; a member the type and its bases do not declare was "no usages found" too (it
    is unknown: exit 2). `PlayerHealth.` used to be a member with no name, whose text pattern `\\b\\b`
    matched every line of every file that sees the type (`using System;` among them)."""
    plain = refs_json(project, "Health.Heal")
    for written in ("Health.Heal()", "Health.Heal(25)", "Health.Heal (int amount)"):
        call = refs_json(project, written)
        assert (call["target"]["kind"], call["target"]["member"]) == ("member", "Heal")
        assert call["usages"] == plain["usages"]
    for nameless in ("PlayerHealth.", "PlayerHealth.()", "PlayerHealth.1x"):
        r = run_cli("refs", nameless, "--project", str(project))
        assert (r.returncode, r.stdout) == (2, ""), nameless
        assert f"error: {nameless}: no type, member, file, GUID or assembly of that name;" in r.stderr
    r = run_cli("refs", "PlayerHealth.NoSuchMember", "--project", str(project))  # since session 28: said so
    assert (r.returncode, r.stdout) == (2, "") and "PlayerHealth is a type, but neither it nor a base class" in r.stderr


def test_refs_of_a_script_on_a_base_prefab_list_every_variant_and_instance(project: Path) -> None:
    """EnemyAI is on Enemy.prefab only; Unity puts it on every variant (EnemyBrute, and EnemyBruteBoss,
    a variant of the variant) and every scene instance of any of them. Each says through what."""
    data = refs_json(project, "EnemyAI")
    assets = [
        (u["path"], u["line"], u["kind"], u["context"], u["detail"]) for u in data["usages"] if u["where"] == "asset"
    ]
    base, brute = "Assets/Prefabs/Enemies/Enemy.prefab", "Assets/Prefabs/Enemies/EnemyBrute.prefab"
    assert assets == [
        (base, 85, "script", "m_Script", "Enemy"),
        (brute, 3, "prefab", "variant_base", f"EnemyBrute (via {base})"),
        (
            "Assets/Prefabs/Enemies/EnemyBruteBoss.prefab",
            3,
            "prefab",
            "variant_base",
            f"EnemyBruteBoss (via {brute} > {base})",
        ),
        ("Assets/Scenes/Dungeon.unity", 609, "prefab", "instance", f"Goblin (via {base})"),
        ("Assets/Scenes/Dungeon.unity", 693, "prefab", "instance", f"Brute (via {brute} > {base})"),
    ]
    # nested: the Sword prefab (MeleeWeapon) sits inside Player.prefab, which the scene places
    melee = refs_json(project, "MeleeWeapon")
    assert [(u["path"], u["detail"]) for u in melee["usages"] if u["where"] == "asset"] == [
        ("Assets/Prefabs/Player.prefab", "Player/WeaponSocket/Sword (via Assets/Prefabs/Weapons/Sword.prefab)"),
        ("Assets/Prefabs/Weapons/Sword.prefab", "Sword"),
        (
            "Assets/Scenes/Dungeon.unity",
            "Player (via Assets/Prefabs/Player.prefab > Assets/Prefabs/Weapons/Sword.prefab)",
        ),
    ]


def test_refs_of_a_base_class_list_the_objects_carrying_its_subclasses(project: Path) -> None:
    """Weapon is on no object itself; `GetComponent<Weapon>()` finds the Sword's MeleeWeapon, in the
    prefab and wherever it is nested. Each says which subclass it is; the script file's own refs
    (its GUID) stay exact."""
    data = refs_json(project, "Weapon")
    melee = "DungeonCrawler.Weapons.MeleeWeapon"
    sword = "Assets/Prefabs/Weapons/Sword.prefab"
    assert [(u["path"], u["line"], u["context"], u["detail"], u["resolved"]) for u in data["usages"][:3]] == [
        ("Assets/Prefabs/Player.prefab", 256, "instance", f"Player/WeaponSocket/Sword (via {sword})", melee),
        (sword, 46, "m_Script", "Sword", melee),
        ("Assets/Scenes/Dungeon.unity", 417, "instance", f"Player (via Assets/Prefabs/Player.prefab > {sword})", melee),
    ]
    assert all(u["where"] == "code" for u in data["usages"][3:])
    by_file = refs_json(project, "Assets/Scripts/Weapons/Weapon.cs")
    assert [u for u in by_file["usages"] if u["where"] == "asset"] == []


def test_refs_of_a_serialized_field_list_the_values_assets_set(project: Path) -> None:
    """docs/cli.md (refs): a field's usages in assets are the values it holds there: on each
    component of the declaring type or a subclass (`value`), and each variant or instance, at any
    depth, that overrides it (`override`, with the chain), where a level's number really is."""
    data = refs_json(project, "Health.maxHealth")
    enemy, brute = "Assets/Prefabs/Enemies/Enemy.prefab", "Assets/Prefabs/Enemies/EnemyBrute.prefab"
    assets = [
        (u["path"], u["line"], u["kind"], u["context"], u["detail"]) for u in data["usages"] if u["where"] == "asset"
    ]
    assert assets == [
        (enemy, 104, "value", "value", "Enemy > EnemyHealth.maxHealth: 40"),
        (brute, 87, "value", "override", f"EnemyBrute sets maxHealth: 250 (via {enemy})"),
        ("Assets/Prefabs/Player.prefab", 89, "value", "value", "Player > PlayerHealth.maxHealth: 100"),
        (
            "Assets/Scenes/Dungeon.unity",
            486,
            "value",
            "override",
            "Player sets maxHealth: 150 (via Assets/Prefabs/Player.prefab)",
        ),
        ("Assets/Scenes/Dungeon.unity", 762, "value", "override", f"Brute sets maxHealth: 300 (via {brute} > {enemy})"),
    ]
    # a ScriptableObject's field: the value each data asset holds
    stats = refs_json(project, "EnemyStats.attackDamage")
    assert [(u["path"], u["line"], u["detail"]) for u in stats["usages"] if u["where"] == "asset"] == [
        ("Assets/Data/Enemies/Brute.asset", 20, "Brute > EnemyStats.attackDamage: 18"),
        ("Assets/Data/Enemies/Goblin.asset", 20, "Goblin > EnemyStats.attackDamage: 6"),
    ]
    # a method holds no value
    assert not [u for u in refs_json(project, "Health.Heal")["usages"] if u["kind"] == "value"]


def test_refs_list_a_line_once_when_it_is_two_usages(project: Path) -> None:
    data = refs_json(project, "Health")
    lines = [(u["path"], u["line"], u["context"]) for u in data["usages"] if u["path"].endswith("HealEffect.cs")]
    assert lines == [("Assets/Scripts/Inventory/HealEffect.cs", 19, "generic, local")]


def test_refs_of_files_guids_includes_and_assemblies(project: Path) -> None:
    prefab = refs_json(project, "Assets/Prefabs/Enemies/Enemy.prefab")
    assert [(u["path"], u["kind"], u["context"], u["detail"]) for u in prefab["usages"]] == [
        # a variant and an instance say which values they set over the prefab's own
        (
            "Assets/Prefabs/Enemies/EnemyBrute.prefab",
            "prefab",
            "variant_base",
            "EnemyBrute (sets maxHealth: 250, stats: Assets/Data/Enemies/Brute.asset, damage: 15, m_Speed: 2.2)",
        ),
        (
            "Assets/Prefabs/Enemies/EnemyBruteBoss.prefab",
            "prefab",
            "variant_base",
            "EnemyBruteBoss (via Assets/Prefabs/Enemies/EnemyBrute.prefab) (sets m_TagString: Boss)",
        ),
        (
            "Assets/Scenes/Dungeon.unity",
            "prefab",
            "instance",
            "Goblin (sets patrolPoints.Array.size: 2, patrolPoints.Array.data[0]: PatrolPoints/PatrolPoint_1"
            " (Transform), patrolPoints.Array.data[1]: PatrolPoints/PatrolPoint_2 (Transform))",
        ),
        (
            "Assets/Scenes/Dungeon.unity",
            "prefab",
            "instance",
            "Brute (via Assets/Prefabs/Enemies/EnemyBrute.prefab) (sets maxHealth: 300)",
        ),
        ("Assets/Scenes/Dungeon.unity", "guid", "enemyPrefab", "EnemySpawner > EnemySpawner"),
    ]
    by_guid = refs_json(project, prefab["target"]["guid"])
    assert by_guid["usages"] == prefab["usages"]
    shader = refs_json(project, "Assets/Shaders/Dissolve.shader")
    assert {(u["path"], u["context"]) for u in shader["usages"]} == {
        ("Assets/Materials/Enemy.mat", "m_Shader"),
        ("Assets/Materials/EnemyDissolve.mat", "m_Shader"),
        ("Assets/Scripts/Enemies/LootDropper.cs", "literal"),  # Shader.Find("DungeonCrawler/Dissolve")
    }
    include = refs_json(project, "Assets/Shaders/Common.hlsl")
    assert [(u["path"], u["kind"]) for u in include["usages"]] == [("Assets/Shaders/Dissolve.shader", "include")]
    asm = refs_json(project, "DungeonCrawler.Runtime")
    assert [u["path"] for u in asm["usages"]] == [
        "Assets/Scripts/Editor/DungeonCrawler.Editor.asmdef",  # by GUID
        "Assets/Tests/EditMode/DungeonCrawler.Tests.EditMode.asmdef",  # by name
    ]


def test_refs_of_a_package_component_by_name_or_guid(project: Path) -> None:
    """uGUI's Button has no script in the project: `refs Button` (or its qualified name, or its
    GUID) lists the assets carrying its script's GUID, and says where the script comes from."""
    guid = "4e29b1a8efbd4b44bb3f3716e73f07ff"
    by_name = refs_json(project, "Button")
    assert by_name["target"] == {
        "kind": "package_script",
        "name": "UnityEngine.UI.Button",
        "path": "",
        "guid": guid,
        "member": "",
        "types": ["UnityEngine.UI.Button"],
        "note": f"a script of the package com.unity.ugui, not in this project; its users are found by its GUID {guid}",
    }
    assert [(u["path"], u["line"], u["context"], u["detail"]) for u in by_name["usages"]] == [
        ("Assets/Scenes/Dungeon.unity", 1267, "m_Script", "HUD/HealButton"),
        ("Assets/Scenes/Dungeon.unity", 1773, "m_Script", "HUD/GameOverScreen/Panel/RestartButton"),
        ("Assets/Scenes/MainMenu.unity", 496, "m_Script", "MenuCanvas/PlayButton"),
        ("Assets/Scenes/MainMenu.unity", 710, "m_Script", "MenuCanvas/ContinueButton"),
        ("Assets/Scenes/MainMenu.unity", 924, "m_Script", "MenuCanvas/QuitButton"),
    ]
    assert refs_json(project, "UnityEngine.UI.Button") == by_name
    assert refs_json(project, guid) == by_name
    r = run_cli("refs", "Button", "--project", str(project))
    assert r.stdout.startswith("package script UnityEngine.UI.Button  (a script of the package com.unity.ugui, ")


def test_refs_and_describe_refuse_bad_targets(project: Path) -> None:
    for args in (
        ("refs", "NoSuchThing"),
        ("refs", "../outside.cs"),
        ("refs", "/etc/passwd"),
        ("describe", "Assets/Nope.prefab"),
        ("describe", "../../etc/passwd"),
        ("describe", "0123456789abcdef0123456789abcdef"),
    ):
        r = run_cli(*args, "--project", str(project))
        assert r.returncode == 2, args
        assert r.stdout == "" and "error:" in r.stderr and "Traceback" not in r.stderr
    assert "outside the project" in run_cli("refs", "../x.cs", "--project", str(project)).stderr
    assert (
        "did you mean Assets/Prefabs/Player.prefab"
        in run_cli("describe", "Assets/Prefabs/Playr.prefab", "--project", str(project)).stderr
    )
    # a file name that names one file is used, not only suggested, by describe and by refs
    r = run_cli("describe", "Player.prefab", "--project", str(project))
    assert r.returncode == 0 and r.stdout.startswith("Assets/Prefabs/Player.prefab  (prefab"), r.stderr
    assert refs_json(project, "Health.cs")["target"]["path"] == "Assets/Scripts/Combat/Health.cs"
    assert refs_json(project, "Dungeon.unity")["target"]["kind"] == "path"


def test_describe_variant_material_scene_and_script(project: Path) -> None:
    def describe(target: str) -> str:
        r = run_cli("describe", target, "--project", str(project))
        assert r.returncode == 0, r.stderr
        return r.stdout

    brute = describe("Assets/Prefabs/Enemies/EnemyBrute.prefab")
    assert "Prefab variant of Assets/Prefabs/Enemies/Enemy.prefab" in brute
    assert "  added components: BoxCollider" in brute
    assert "maxHealth: 250" in brute
    mat = describe("Assets/Materials/EnemyDissolve.mat")
    assert "Material EnemyDissolve: shader Assets/Shaders/Dissolve.shader" in mat
    scene = describe("Assets/Scenes/Dungeon.unity")
    assert "Player  (prefab instance of Assets/Prefabs/Player.prefab)  L417" in scene
    assert "  HealButton  [layer 5]  L1180\n    components: RectTransform, CanvasRenderer, Image, Button" in scene
    assert (
        "  L1302 HUD/HealButton > Button.m_OnClick(int 25) on Player -> DungeonCrawler.Player.PlayerHealth.Heal"
        in scene
    )
    script = describe("Assets/Scripts/Player/PlayerHealth.cs")
    assert "assembly DungeonCrawler.Runtime (Assets/Scripts/DungeonCrawler.Runtime.asmdef)" in script
    assert (
        "used by: Assets/Scenes/Dungeon.unity, Assets/Prefabs/Player.prefab, Assets/Scripts/Core/GameManager.cs"
        in script
    )
    r = run_cli("describe", "Assets/Data/Items/HealthPotion.asset", "--project", str(project), "--json")
    desc = json.loads(r.stdout)
    assert (desc["kind"], desc["uses"]) == (
        "asset",
        [  # its script, and the [SerializeReference] value's class
            {"path": "Assets/Scripts/Inventory/HealEffect.cs", "edge": "type"},
            {"path": "Assets/Scripts/Inventory/ItemData.cs", "edge": "script"},
        ],
    )
    assert desc["text"].splitlines()[1] == (
        "ScriptableObject HealthPotion: DungeonCrawler.Inventory.ItemData (Assets/Scripts/Inventory/ItemData.cs)"
    )


def test_a_prefab_and_a_script_named_with_upper_case_extensions_are_a_prefab_and_a_script(
    project: Path, tmp_path: Path
) -> None:
    """Unity reads extensions in any case, and so does the index (`Player.PREFAB` is of kind
    prefab); the query side tested `.endswith(".prefab")`, so the scene's instance of the prefab
    no longer carried its scripts: `refs PlayerHealth` lost `Dungeon.unity:417 (via ...)`."""
    upper = copy_fixture(tmp_path / "Upper")
    for old, new in (
        ("Prefabs/Player.prefab", "Prefabs/Player.PREFAB"),
        ("Scripts/Player/PlayerHealth.cs", "Scripts/Player/PlayerHealth.CS"),
    ):
        (upper / "Assets" / old).rename(upper / "Assets" / new)
        (upper / "Assets" / f"{old}.meta").rename(upper / "Assets" / f"{new}.meta")
    assert run_cli("index", "--project", str(upper)).returncode == 0

    def renamed(data: dict) -> list[tuple]:
        return [
            (
                u["path"].replace(".PREFAB", ".prefab"),
                u["line"],
                u["kind"],
                u["context"],
                u["detail"].replace(".PREFAB", ".prefab"),
            )
            for u in data["usages"]
        ]

    for target in ("PlayerHealth", "Assets/Prefabs/Player.prefab", "PlayerHealth.Heal"):
        got = refs_json(upper, target.replace("Player.prefab", "Player.PREFAB"))
        assert renamed(got) == renamed(refs_json(project, target)), target


def test_describing_a_folder_guid_says_it_is_a_folder(project: Path) -> None:
    """A folder's `.meta` gives it a GUID, which assets may name; `describe` of it said the folder
    "is not in the project (deleted or moved without its .meta?)"."""
    guid = "19e0ecc3414215be92cf65c62729b309"
    assert f"guid: {guid}\nfolderAsset: yes" in (project / "Assets/Scripts.meta").read_text()
    r = run_cli("describe", guid, "--project", str(project))
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (
        f"error: GUID {guid} is that of the folder Assets/Scripts, which is not described:"
        f" `unity-index query --path Assets/Scripts` searches its files, `unity-index refs {guid}`"
        " lists what uses it\n"
    )


def test_describe_an_asmdef_shows_the_asmdefs_it_references_as_paths_and_uses_them(project: Path) -> None:
    """docs/cli.md, describe: GUIDs shown as paths, and it "ends with what the file uses and what
    uses it": an asmdef's references by GUID and by name are the asmdefs they name (a package's
    assembly that is not in the project stays as written), both ways."""
    r = run_cli("describe", "Assets/Scripts/DungeonCrawler.Runtime.asmdef", "--project", str(project), "--json")
    desc = json.loads(r.stdout)
    tools = "Packages/com.dungeoncrawler.tools/Runtime/DungeonCrawler.Tools.asmdef"
    assert desc["text"].splitlines()[3:7] == [
        "references:",
        f"  {tools} (reference)",
        "  UnityEngine.UI (reference)",
        f"uses: {tools} (assembly)",
    ]
    assert desc["uses"] == [{"path": tools, "edge": "assembly"}]
    r = run_cli("describe", "Assets/Scripts/Editor/DungeonCrawler.Editor.asmdef", "--project", str(project), "--json")
    assert json.loads(r.stdout)["uses"] == [
        {"path": "Assets/Scripts/DungeonCrawler.Runtime.asmdef", "edge": "assembly"}
    ]
    r = run_cli("describe", tools, "--project", str(project), "--json")
    assert json.loads(r.stdout)["used_by"] == [
        {"path": "Assets/Scripts/DungeonCrawler.Runtime.asmdef", "edge": "assembly"}
    ]


def test_an_empty_pack_says_why(project: Path) -> None:
    """A trial: `context x --budget 50` printed an empty pack and exited 0 without a word."""
    for text, budget, why in (
        ("zzqqxx", "4000", "no file matches the task: try other words (identifiers, file names)"),
        ("player health", "10", "no file fits in 10 tokens: try a larger --budget"),
        ("player health", "1", "no file fits in 1 token: try a larger --budget"),
    ):
        r = run_cli("context", text, "--project", str(project), "--budget", budget)
        assert (r.returncode, r.stderr.splitlines()[-1]) == (0, why)

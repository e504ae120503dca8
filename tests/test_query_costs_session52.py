"""What two of session 51's rules read a query, bounded (docs/performance.md, session 52): the
suite's warm search p95 on UnityCsReference went 14.0 -> 20.4 ms, a first-met script costing a
scan of every string reference and a "which key" task a scan of every file's kind. A script's
strings now come from its record, and the project's own actions assets are found once a
generation."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query.loads import prefix_loaded
from indexer.query.workspace import open_workspace
from indexer.store.reader import Records

from .test_trial14_session51 import _WHICH_KEY, _weapons
from .test_trial16_session51 import _cards


def test_a_scripts_loaded_folder_is_read_from_its_record_not_the_refs_table(tmp_path: Path) -> None:
    """The refs table's key starts with the reference's kind and name, not its file: asked by file,
    SQLite read every string reference of the project (1.9 ms on UnityCsReference) for each script
    a query met; and each script's folder was looked for by a scan of every path. No statement of
    `prefix_loaded` reads the refs table by file (one scan of it a generation says which files
    hold a folder string, session 54), the paths are scanned once for two scripts, and the files
    are still found."""
    root = _cards(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    statements: list[str] = []
    with project.reading():
        conn = project.graph.records.conn
        conn.set_trace_callback(statements.append)
        try:
            found = prefix_loaded(project.graph, "Assets/Scripts/Schemes/MatchScheme.cs")
            found += prefix_loaded(project.graph, "Assets/Scripts/Schemes/EnemyScheme.cs")
        finally:
            conn.set_trace_callback(None)
    assert found == [
        "Assets/Resources/Schemes/MatchScheme/basicroom.json",
        "Assets/Resources/Schemes/EnemyScheme/bat.json",
        "Assets/Resources/Schemes/EnemyScheme/slime.json",
    ]
    # the refs table is read once a generation, for which files hold a folder string at all
    # (`Loadable.folder_strings`, session 54), never by file
    assert statements and [s for s in statements if "refs" in s] == [
        s for s in statements if "DISTINCT f.path FROM refs" in s
    ]
    assert len([s for s in statements if "refs" in s]) == 1
    # the files below Resources folders are read once for the graph, not once a script
    assert len([s for s in statements if "instr(path" in s]) == 1


def test_the_projects_own_actions_assets_are_found_once_a_generation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every "which key" task asked for the paths of the project's actions assets, a scan of every
    file's kind (2.4 ms on UnityCsReference): asked three times, the scan is made once, and the
    asset is raised each time."""
    root = _weapons(tmp_path)
    update(root, Config(workers=1))
    asked: list[str] = []
    paths_of_kind = Records.paths_of_kind
    monkeypatch.setattr(Records, "paths_of_kind", lambda self, kind: asked.append(kind) or paths_of_kind(self, kind))
    ws = open_workspace(root, [(root, Config())])
    for text in (_WHICH_KEY, "which key picks up the hammer", "which key do I press to pick up a weapon"):
        assert "Assets/Input/GameInput.inputactions" in [h.path for h in ws.search(text, 5, named=False)]
    assert asked.count("input_actions") == 1


def test_a_wrappers_class_is_looked_for_only_in_files_declaring_one_generic_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk reaches hundreds of files a query; trial 18's rule decoded each one's symbols to see
    whether it is an empty wrapper (warm search p95 on UnityCsReference 14.5 -> 27.1 ms). Only a
    file declaring one type with a generic base is read: of the spitter's files, its five wrappers,
    nothing else, and they still bind their modules."""
    from indexer.query.bindings import bound_files

    from .test_trial18_session52 import MODULES, _entities

    root = _entities(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    read: list[str] = []
    symbols = Records.symbols
    monkeypatch.setattr(Records, "symbols", lambda self, path: read.append(path) or symbols(self, path))
    with project.reading():
        paths = [*project.records.paths_of_kind("csharp"), "Assets/Prefabs/Zombies/SpitterZombie.prefab"]
        bound = {p: b for p in paths if (b := bound_files(project, p))}
    assert bound[f"{MODULES}/RangedAttackModuleWrapper.cs"] == (f"{MODULES}/RangedAttackModule.cs",)
    assert sorted(read) == sorted(bound) and len(read) == 5


def test_a_loaded_class_is_asked_its_carriers_only_when_a_matched_asset_is_named_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Trial 18's rule for a loaded class's one data asset read the carriers of every type a best
    script uses (dozens in a real script: 7 ms a value question on UnityCsReference). A used class
    is passed over unless a data asset the search matched is named alike (`read_data.named_alike`,
    session 53): of the shop's classes (the catalog, the wallet, the gun type) the catalog and the
    gun type (named alike to `GunCatalog.asset` by "gun") are asked, and the catalog's asset ranks."""
    from indexer.query import pairing

    from .conftest import ranked_paths
    from .test_trial18_session52 import _shop

    asked: list[str] = []
    inside: list[bool] = []
    carriers, read = pairing._Pairs.carriers, pairing.raise_read_data

    def counted(self, script: str) -> list[str]:
        if inside:
            asked.append(script)
        return carriers(self, script)

    def reading(pairs, share: float) -> None:
        inside.append(True)
        try:
            read(pairs, share)
        finally:
            inside.pop()

    monkeypatch.setattr(pairing._Pairs, "carriers", counted)
    monkeypatch.setattr(pairing, "raise_read_data", reading)
    ranked = ranked_paths(_shop(tmp_path), "How much does the shotgun cost in the shop?", 3)
    assert ranked[1] == "Assets/Data/GunCatalog.asset"
    assert set(asked) == {"Assets/Scripts/Shop/GunCatalog.cs", "Assets/Scripts/Weapons/GunType.cs"}

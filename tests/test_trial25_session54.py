"""A twenty-fifth trial on unseen games (docs/retrieval.md, "Session 54, a twenty-fifth trial"):
what it found wrong, on small projects of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.identifiers import word_stems
from indexer.query.registries import asks_listing, raise_registries
from indexer.query.synonyms import excess, expansions
from indexer.query.workspace import open_workspace

from .conftest import FakePairs, data_asset, meta, mono_script, script_prefab, write_project
from .conftest import ranked_paths as _ranked

TRACK_GUID = "5b2e0c5b7d2f4e6a8b9c0d1e2f3a4c61"
CATALOG_GUID = "5b2e0c5b7d2f4e6a8b9c0d1e2f3a4c62"
ASSET_GUIDS = [f"5b2e0c5b7d2f4e6a8b9c0d1e2f3a4d{i:02d}" for i in range(10)]
TRACKS = ("Bluesky", "Hope", "Dawn", "Ember", "Lantern")


def test_a_task_saying_a_list_or_registering_asks_for_the_listing() -> None:
    """ "lists all", "register it", "the registry" ask for a list; a task saying none does not."""
    for text in ("Which asset lists all the tracks?", "where do I register it", "the level registry"):
        assert asks_listing(frozenset(word_stems(text))), text
    for text in ("where is the track's tempo", "add a new track with its own artist"):
        assert not asks_listing(frozenset(word_stems(text))), text


def _tracks(tmp_path: Path) -> Path:
    """A rhythm game's track data: one data asset per track (title, artist, tempo), and a
    catalog asset whose array holds every one of them, saying nothing of tracks in its own words."""
    files = {
        "Assets/Scripts/TrackData.cs": (
            "using UnityEngine;\n[CreateAssetMenu]\npublic class TrackData : ScriptableObject\n{\n"
            "    public string title;\n    public string artist;\n    public float tempo;\n"
            "    public Sprite jacket;\n}\n"
        ),
        "Assets/Scripts/TrackData.cs.meta": meta(TRACK_GUID),
        "Assets/Scripts/MasterIndex.cs": (
            "using UnityEngine;\npublic class MasterIndex : ScriptableObject\n{\n"
            "    [SerializeField] TrackData[] entries;\n    public TrackData[] Entries => entries;\n}\n"
        ),
        "Assets/Scripts/MasterIndex.cs.meta": meta(CATALOG_GUID),
    }
    rows = ""
    for name, guid in zip(TRACKS, ASSET_GUIDS, strict=False):
        files[f"Assets/Data/T_{name}.asset"] = data_asset(
            TRACK_GUID, f"T_{name}", f"  title: {name}\n  artist: someone\n  tempo: 120\n"
        )
        files[f"Assets/Data/T_{name}.asset.meta"] = meta(guid, "NativeFormatImporter")
        rows += f"  - {{fileID: 11400000, guid: {guid}, type: 2}}\n"
    files["Assets/Data/Master.asset"] = data_asset(CATALOG_GUID, "Master", f"  entries:\n{rows}")
    return write_project(tmp_path, files)


def test_the_asset_listing_a_class_s_instances_ranks_for_a_task_saying_a_list(tmp_path: Path) -> None:
    """ "I added a new track; where do I register it so it shows in the list?": the track data class
    and its five instances say "track", the catalog holding all five says nothing of it; it ranks
    within the first three (eighth before, under every instance)."""
    root = _tracks(tmp_path)
    ranked = _ranked(
        root, "I added a new track with its title and tempo; where do I register it so it shows in the list?", 3
    )
    assert "Assets/Data/Master.asset" in ranked


def test_the_listing_asset_is_not_raised_for_a_task_saying_no_list(tmp_path: Path) -> None:
    """Asked for one track's tempo, the catalog stays below the class and its instances."""
    root = _tracks(tmp_path)
    ranked = _ranked(root, "where is the tempo of a track and its title set", 6)
    assert "Assets/Data/Master.asset" not in ranked


def test_a_song_is_music() -> None:
    """ "song" searches the words for music ("the song select screen": `MusicSelect`), and they it."""
    assert ("song", ("bgm", "music", "soundtrack")) in expansions(["song"])
    assert any("song" in words for term, words in expansions(["music"]))


def test_how_many_anywhere_asks_for_a_count() -> None:
    """ "How many notes of each kind get pooled", "where do I set how many rooms": "many" is said
    asking for a count, which the task's words search as `count` (a synonym); "many" said otherwise
    ("many enemies spawn at once", "too many enemies": fewer, session 42) asks none."""
    for text in ("How many notes of each kind get pooled?", "where do I set how many rooms a run has"):
        assert excess(text) == ("many",), text
        assert ("many", ("count",)) in expansions(["many"], excess(text)), text
    for text in ("many enemies spawn at once", "too many enemies"):
        assert excess(text) == (), text
        assert ("many", ("count",)) not in expansions(["many"], excess(text)), text
    # the qualities in the order said, then the count
    assert excess("how many bullets fire when the gun is too slow") == ("slow", "many")


def test_a_pool_s_count_ranks_for_how_many_are_pooled(tmp_path: Path) -> None:
    """ "How many bullets get pooled when a level starts?": the arena's settings declaring
    `BulletPoolCount` rank second, under the pool saying "pool" and "bullet" most and above the
    bullet (third before: "many" searched nothing)."""
    root = write_project(
        tmp_path,
        {
            "Assets/Scripts/BulletPool.cs": mono_script(
                "BulletPool",
                "    public Bullet bulletPrefab;\n    // take a pooled bullet, or make one when the pool is empty\n"
                "    public Bullet GetPooledBullet() { return null; }\n"
                "    public void ReturnBulletToPool(Bullet b) { }",
            ),
            "Assets/Scripts/Bullet.cs": mono_script(
                "Bullet",
                "    public float speed;\n    // a bullet flies until it hits\n    void OnHit() { }",
            ),
            "Assets/Scripts/ArenaSettings.cs": (
                "using UnityEngine;\npublic class ArenaSettings : ScriptableObject\n{\n"
                "    public int BulletPoolCount = 40;\n    public int EnemyCount = 8;\n"
                "    public float TimeLimit = 90f;\n}\n"
            ),
        },
    )
    assert "Assets/Scripts/ArenaSettings.cs" in _ranked(root, "How many bullets get pooled when a level starts?", 2)


MENU_GUID = "5b2e0c5b7d2f4e6a8b9c0d1e2f3a4c63"


def test_only_a_data_asset_holding_most_instances_is_a_registry(tmp_path: Path) -> None:
    """The catalog holding all five tracks is raised to 0.9 of the class's score; a menu prefab
    holding all five (a scene or prefab is no registry) and a playlist asset holding two (fewer
    than three) are not; a task saying no list raises nothing."""
    root = _tracks(tmp_path)
    rows = [f"  - {{fileID: 11400000, guid: {g}, type: 2}}\n" for g in ASSET_GUIDS[: len(TRACKS)]]
    files = {
        "Assets/Scripts/TrackMenu.cs": mono_script("TrackMenu", "    public TrackData[] shown;"),
        "Assets/Scripts/TrackMenu.cs.meta": meta(MENU_GUID),
        "Assets/Prefabs/TrackMenu.prefab": script_prefab("TrackMenu", MENU_GUID, "  shown:\n" + "".join(rows)),
        "Assets/Data/Playlist.asset": data_asset(CATALOG_GUID, "Playlist", "  entries:\n" + "".join(rows[:2])),
    }
    write_project(root, files)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    pairs = FakePairs(project, ["Assets/Scripts/TrackData.cs"])
    raise_registries(pairs, frozenset(word_stems("where do I register a new track so it shows in the list")))
    assert pairs.raised == {
        "Assets/Data/Master.asset": (9.0, ("lists_instances_of", "Assets/Scripts/TrackData.cs", ()))
    }
    quiet = FakePairs(project, ["Assets/Scripts/TrackData.cs"])
    raise_registries(quiet, frozenset(word_stems("where is a track's tempo set")))
    assert quiet.raised == {}


def test_a_class_of_too_many_data_assets_or_a_listing_held_by_many_raises_nothing(tmp_path: Path, monkeypatch) -> None:
    """The bounds the docstring gives: a class with more than REGISTRY_MOST data assets is not
    looked into (its holders' edges are not read), and when more than REGISTRY_HOLDERS assets hold
    most of them none is the registry. Shown with the bounds set below this project's five tracks
    and one catalog, the same ranking that raised the catalog above."""
    from indexer.query import registries

    root = _tracks(tmp_path)
    update(root, Config(workers=1))
    project = open_workspace(root, [(root, Config())]).projects[0]
    task = frozenset(word_stems("where do I register a new track so it shows in the list"))
    for bound, value in (("REGISTRY_MOST", len(TRACKS) - 1), ("REGISTRY_HOLDERS", 0)):
        with monkeypatch.context() as m:
            m.setattr(registries, bound, value)
            pairs = FakePairs(project, ["Assets/Scripts/TrackData.cs"])
            raise_registries(pairs, task)
            assert pairs.raised == {}, bound
    pairs = FakePairs(project, ["Assets/Scripts/TrackData.cs"])
    raise_registries(pairs, task)
    assert list(pairs.raised) == ["Assets/Data/Master.asset"]

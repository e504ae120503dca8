"""What a warm search reads of the prefabs it meets first, bounded (docs/performance.md, session
57): whether a prefab with logic is a visual effect or a sound is told from its stored outline
when that is whole and names no particle system or audio source, its record not inflated."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build.update import update
from indexer.config import Config
from indexer.query import file_roles
from indexer.query.workspace import open_workspace

from .conftest import meta, mono_script, write_project
from .test_trial23_session53 import STOPPER_GUID, _sound_prefab


def _game(tmp_path: Path):
    """A project with a plain prefab carrying a script (a transform and the script) and a sound
    prefab carrying the same script."""
    plain = _sound_prefab("Crate").replace("AudioSource:", "BoxCollider:")
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Stopper.cs": mono_script("Stopper", "    void Update() { }"),
            "Assets/Stopper.cs.meta": meta(STOPPER_GUID),
            "Assets/Crate.prefab": plain,
            "Assets/Jump.prefab": _sound_prefab("Jump"),
        },
    )
    update(root, Config(workers=1))
    return open_workspace(root, [(root, Config())]).projects[0]


def _reads(project, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    real = project.records.outline_record
    monkeypatch.setattr(project.records, "outline_record", lambda path, **kw: reads.append(path) or real(path, **kw))
    return reads


def test_a_prefab_whose_whole_outline_names_no_effect_or_sound_has_no_record_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`_looks` of a prefab carrying a script, with a box collider where the sound has its audio
    source: (False, False) from its outline, the record never read; the sound prefab's outline
    names `AudioSource`, so its record is read and decides (a sound)."""
    project = _game(tmp_path)
    reads = _reads(project, monkeypatch)
    with project.records.reading():
        assert file_roles._looks(project, "Assets/Crate.prefab") == (False, False)
        assert reads == []
        assert file_roles._looks(project, "Assets/Jump.prefab") == (False, True)
        assert reads == ["Assets/Jump.prefab"]


def test_a_cut_outline_says_nothing_of_what_its_record_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An outline of MAX_OUTLINE_ENTRIES entries may have been cut (its components left out), and
    a file with no stored outline has none to tell: both have their record read, as before."""
    project = _game(tmp_path)
    with project.records.reading():
        assert file_roles._outline_lacks(project.records, "Assets/Crate.prefab", (b"AudioSource",))
        assert not file_roles._outline_lacks(project.records, "Assets/Jump.prefab", (b"AudioSource",))
        assert not file_roles._outline_lacks(project.records, "Assets/Nowhere.prefab", (b"AudioSource",))
        monkeypatch.setattr(file_roles, "MAX_OUTLINE_ENTRIES", 4)  # the crate's 4 entries: as many as a cut one keeps
        assert not file_roles._outline_lacks(project.records, "Assets/Crate.prefab", (b"AudioSource",))
        reads = _reads(project, monkeypatch)
        assert file_roles._looks(project, "Assets/Crate.prefab") == (False, False)
        assert reads == ["Assets/Crate.prefab"]


def test_a_best_scripts_handler_names_are_decoded_once_a_generation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """close_parts.lift_parts: the handlers of the three best scripts (`handler_names`) were read
    from their symbols by every query (one decode each, ~0.1 ms for a long script; 11 ms of 27
    warm searches on UnityCsReference, asked again or not); they are kept per generation, and the
    caller still rises."""
    from indexer.model import Ranked
    from indexer.query import close_parts
    from indexer.store.reader import Records

    from .test_handler_caller_session56 import ASKED, HIT, ZONE, _graph, _order

    _graph(tmp_path)  # the manager, its handler, the kill volume calling it and two other users
    project = open_workspace(tmp_path, [(tmp_path, Config())]).projects[0]
    assert close_parts.handler_names(project.graph, HIT) == ("OnPlayerEliminated",)
    read: list[str] = []
    symbols = Records.symbols
    monkeypatch.setattr(Records, "symbols", lambda self, path: read.append(path) or symbols(self, path))
    with project.records.reading():
        for _ in range(3):
            order = close_parts.lift_parts(project, _order(), {}, ASKED)
            assert [r.path for r in order].index(ZONE) == 9 and isinstance(order[0], Ranked)
    assert read.count(HIT) == 1

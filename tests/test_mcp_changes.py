"""Which resources an index update changes (docs/mcp.md, "Change notifications"), on a real index:
the URIs a session is sent `resources/updated` for, and when `resources/list_changed` goes out."""

from __future__ import annotations

import os
from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server.changes import ChangeTracker, IndexChange

from .conftest import meta, write_project

OLD_GUID = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
NEW_GUID = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
CONFIG = Config(workers=1)


def test_each_kind_of_change_names_its_resources(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/A.cs": "public class Alpha {}\n",
            "Assets/A.cs.meta": meta(OLD_GUID),
            "Assets/Game.asmdef": '{"name": "Game"}\n',
            "ProjectSettings/ProjectVersion.txt": "m_EditorVersion: 2021.3.15f1\n",
        },
    )
    update(root, CONFIG)
    tracker = ChangeTracker(open_workspace(root, projects_at(root)).projects[0])
    tracker.prime()

    def after(edit) -> IndexChange | None:
        edit()
        update(root, CONFIG)
        return tracker.check()

    a = root / "Assets/A.cs"
    # A touch that keeps the content is not a change: nothing to notify.
    assert after(lambda: os.utime(a, ns=(a.stat().st_atime_ns, a.stat().st_mtime_ns + 5_000_000_000))) is None

    edited = after(lambda: a.write_text("public class Alpha { int hp; }\n"))
    assert edited.updated_uris() == ["unity://file/Assets/A.cs", f"unity://asset/{OLD_GUID}"]
    assert not edited.list_changed  # a change, no file added or removed; the overview stays

    # Only the .meta's GUID changed: the asset is named under both GUIDs.
    regid = after(lambda: (root / "Assets/A.cs.meta").write_text(meta(NEW_GUID)))
    assert regid.updated_uris() == [
        "unity://file/Assets/A.cs",
        "unity://file/Assets/A.cs.meta",
        f"unity://asset/{OLD_GUID}",
        f"unity://asset/{NEW_GUID}",
    ]

    # The overview's inputs: a settings file named by the docs, an asmdef.
    version = after(lambda: (root / "ProjectSettings/ProjectVersion.txt").write_text("m_EditorVersion: 6000.0.1f1\n"))
    assert version.updated_uris() == ["unity://file/ProjectSettings/ProjectVersion.txt", "unity://project/overview"]
    asmdef = after(lambda: (root / "Assets/Game.asmdef").write_text('{"name": "Game.Runtime"}\n'))
    assert asmdef.updated_uris() == ["unity://file/Assets/Game.asmdef", "unity://project/overview"]
    assert not (version.list_changed or asmdef.list_changed)

    added = after(lambda: (root / "Assets/B.cs").write_text("public class Beta {}\n"))
    assert added.updated_uris() == ["unity://file/Assets/B.cs", "unity://project/overview"]
    assert added.list_changed
    removed = after(lambda: (root / "Assets/B.cs").unlink())
    assert removed.updated_uris() == ["unity://file/Assets/B.cs", "unity://project/overview"]
    assert removed.list_changed

"""Package components' classes as the project's own version of each package names them.

The generated table (`package_scripts.json`: data, as a module it outgrew the line limit) names
each script GUID as the package's newest version does; a project pinning an older major version
(`package_scripts_legacy.py`) reads the names that version gives the same GUIDs: Cinemachine 2's
`Cinemachine.CinemachineBlendListCamera`, which 3 renamed `Unity.Cinemachine.CinemachineSequencerCamera`
(two trials' projects on 2.x read the 3.x names, which their code never writes).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.model import Target
from indexer.query.package_scripts_legacy import LEGACY

if TYPE_CHECKING:
    from indexer.store.reader import Records

MANIFEST = "Packages/manifest.json"
_TABLE = json.loads(Path(__file__).with_name("package_scripts.json").read_text(encoding="utf-8"))
SOURCES: list[str] = _TABLE["sources"]  # `package at commit`, each read by `tests/bench/package_scripts.py`
PACKAGES: dict[str, dict[str, str]] = _TABLE["packages"]  # package -> {script GUID -> qualified class name}
# GUID -> (qualified class name, package), by the newest versions' names
NEWEST: dict[str, tuple[str, str]] = {
    guid: (name, package) for package, scripts in PACKAGES.items() for guid, name in scripts.items()
}
_MAJOR = re.compile(r"\s*(\d+)\.")
# Classes a package took over from another (TextMesh Pro's, into com.unity.ugui 2.0 with Unity
# 2023.2): a project installing the older package has them from that one
MOVED = {("com.unity.ugui", "TMPro."): "com.unity.textmeshpro"}


def package_scripts(records: Records) -> dict[str, tuple[str, str]]:
    """GUID -> (class, package) for this project: an older major version's names where the
    manifest pins one (a version it does not write as `N.` keeps the newest names)."""
    versions = {s.name: s.detail for s in records.symbols(MANIFEST) if s.kind == "package"}
    out = NEWEST
    for package, (newest_from, names) in LEGACY.items():
        major = _MAJOR.match(versions.get(package, ""))
        if major and int(major[1]) < newest_from:
            out = {**out, **{guid: (name, package) for guid, name in names.items()}}
    for (package, prefix), older in MOVED.items():
        if older in versions:  # `TMPro.TMP_SpriteAsset` of com.unity.textmeshpro 2.1.6, not of ugui
            out = {**out, **{g: (n, older) for g, (n, p) in out.items() if p == package and n.startswith(prefix)}}
    return out


def package_target(scripts: dict[str, tuple[str, str]], guid: str) -> Target:
    """A package's component, whose script is not in the project: its users are found by GUID."""
    name, package = scripts[guid]
    note = f"a script of the package {package}, not in this project; its users are found by its GUID {guid}"
    return Target(kind="package_script", name=name, guid=guid, types=[name], note=note)


def package_named(records: Records, scripts: dict[str, tuple[str, str]], name: str) -> Target | None:
    """A package's component by its class name (`NetworkBehaviour`), when the project installs its
    package or an asset uses its script: a game's own networking library's `NetworkBehaviour`, in a
    submodule not checked out, was said to be Netcode's, which the project does not have."""
    guids = sorted((q, g) for g, (q, _) in scripts.items() if q == name or q.endswith("." + name))
    if not guids:
        return None
    installed = {s.name for s in records.symbols(MANIFEST) if s.kind == "package"}
    for _, guid in guids:
        used = records.conn.execute("SELECT 1 FROM refs WHERE key = ? LIMIT 1", (guid,)).fetchone()
        if not installed or scripts[guid][1] in installed or used:  # (no manifest read: it may be)
            return package_target(scripts, guid)
    return None

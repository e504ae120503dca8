"""The editor package on every platform (#18 item 5), checked under Mono on Linux.

`OwnerOnly` keeps the bridge's token readable by its owner: chmod through libc on macOS and
Linux, a protected owner-only DACL on Windows. Here the POSIX branch really runs (mode bits are
checked); the Windows branch is compiled, selected for `Win32NT`, builds its DACL with this
runtime's `FileSecurity` (the managed half, read back), and fails only where Mono needs Windows
(advapi32), reporting it instead of throwing. A source audit keeps every platform-specific call of
the package behind that selection.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from mcp_adapter.editor.bridge import heartbeat_path

from . import bridge_host
from .bridge_host import PACKAGE, Host

host_exe, make_host, host = bridge_host.host_exe, bridge_host.make_host, bridge_host.host

pytestmark = pytest.mark.skipif(os.name != "posix", reason="checks POSIX mode bits")


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def _owner_only(host: Host, platform: str, kind: str, path: Path) -> str:
    line = host.send(f"owner_only {platform} {kind} {path}", "OK owner_only ")
    assert line is not None
    return line.removeprefix("OK owner_only ")


def test_posix_branch_sets_modes(host: Host, tmp_path: Path) -> None:
    f, d = tmp_path / "token.json", tmp_path / "private"
    f.write_text("{}")
    d.mkdir()
    for platform in ("Unix", "MacOSX"):  # Mono reports macOS as Unix; both select chmod
        f.chmod(0o644)
        d.chmod(0o755)
        assert _owner_only(host, platform, "file", f) == "PosixChmod True "
        assert _owner_only(host, platform, "dir", d) == "PosixChmod True "
        assert (_mode(f), _mode(d)) == (0o600, 0o700)
    assert _owner_only(host, "Unix", "file", tmp_path / "missing") == "PosixChmod False chmod failed (errno 2)"


def test_windows_branch_is_selected_and_guarded(host: Host, tmp_path: Path) -> None:
    f = tmp_path / "token.json"
    f.write_text("{}")
    f.chmod(0o644)
    # Selected for Win32NT; reads the owner through File.GetAccessControl, which Mono implements
    # with advapi32 on Windows only: here it reports that, and never falls back to chmod.
    assert _owner_only(host, "Win32NT", "file", f) == (
        "WindowsAcl False PlatformNotSupportedException: Operation is not supported on this platform."
    )
    assert _mode(f) == 0o644
    for platform in ("Win32S", "Win32Windows", "WinCE", "Xbox"):
        assert _owner_only(host, platform, "file", f) == f"None False no owner-only permission on {platform}"
    assert _mode(f) == 0o644


@pytest.mark.parametrize(
    ("owner", "kind", "dacl"),
    [
        (
            "O:S-1-5-21-1004336348-1177238915-682003330-1001",
            "file",
            "D:P(A;;FA;;;S-1-5-21-1004336348-1177238915-682003330-1001)",
        ),
        ("O:BA", "dir", "D:P(A;OICI;FA;;;BA)"),  # elevated editors: files owned by Administrators
    ],
)
def test_windows_dacl_as_mono_builds_it(host: Host, owner: str, kind: str, dacl: str) -> None:
    """The DACL the Windows branch writes: protected (nothing inherited), the owner alone, full
    control; inherited by what a folder later holds. Read back from Mono's own FileSecurity /
    DirectorySecurity, so a lost flag (Mono drops SDDL's "P" unless asked again) shows here."""
    assert host.send(f"acl_dacl {owner} {kind}", "OK acl_dacl ") == f"OK acl_dacl {dacl} {dacl}"


def test_windows_dacl_refuses_a_non_owner(host: Host) -> None:
    line = host.send("acl_dacl S-1-5-18 file", "OK acl_dacl ")
    assert line == "OK acl_dacl error ArgumentException: expected an owner in SDDL (\"O:<sid>\"), got 'S-1-5-18'"


def test_heartbeat_temp_file_made_in_a_private_folder(host: Host) -> None:
    path = heartbeat_path(host.project)
    private = path.parent / ".editor-private"
    assert (_mode(path), _mode(private)) == (0o600, 0o700)
    assert list(private.iterdir()) == []  # temp files are renamed out of it
    assert not [w for w in host.warnings if "owner only" in w]


# -- audit: no platform-specific call outside OwnerOnly, and there only behind the selection ------


def _package_sources() -> dict[str, str]:
    return {str(p.relative_to(PACKAGE)): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.cs"))}


def test_platform_specific_calls_only_in_owner_only() -> None:
    owner_only = "Editor/Core/OwnerOnly.cs"
    patterns = {
        "P/Invoke": r"DllImport|extern\s",
        "libc": r'"libc"|libSystem',
        "platform check": r"OSVersion|RuntimeInformation|Application\.platform|PlatformID",
        "compile-time ACL API": r"using\s+System\.Security\.AccessControl|GetAccessControl\(|SetAccessControl\(",
        "Mono.Posix": r"Mono\.(Unix|Posix)",
    }
    for name, text in _package_sources().items():
        if name in (owner_only, "Tests/Editor/BridgeCoreTests.cs"):
            continue
        for what, pattern in patterns.items():
            assert not re.search(pattern, text), f"{name}: {what} outside {owner_only}"
    text = _package_sources()[owner_only]
    externs = re.findall(r"static extern \w+ (\w+)\(", text)
    assert externs == ["LibcChmod", "SystemChmod"]
    # Each extern is declared once and called once, inside Chmod; Chmod is called from the
    # PosixChmod branch alone.
    chmod = text[text.index("private static int Chmod(") :]
    chmod = chmod[: chmod.index("\n        }\n")]
    for name in externs:
        assert len(re.findall(rf"\b{name}\(", text)) == 2 and f"{name}(path, mode)" in chmod, name
    branch = re.search(r"case OwnerOnlyMethod\.PosixChmod:(.*?)case OwnerOnlyMethod\.WindowsAcl:", text, re.S)
    assert branch and "Chmod(" in branch.group(1)
    assert len(re.findall(r"\bChmod\(", text)) == 2  # the definition and that one call
    # The ACL types are reached only by reflection, from WindowsAcl, called from the Win32NT branch.
    assert re.findall(r"WindowsAcl\.Restrict\(", text) == ["WindowsAcl.Restrict("]
    acl = re.search(r"case OwnerOnlyMethod\.WindowsAcl:(.*?)default:", text, re.S)
    assert acl and "WindowsAcl.Restrict(" in acl.group(1)

"""`unity-index doctor` on copies of the fixture in the states a user meets: the exact status of
every check, the exit code, and the JSON shape."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from indexer.build.update import update
from indexer.cli import doctor
from indexer.config import Config

from .conftest import copy_fixture, run_cli

ENVIRONMENT = {name: "pass" for name in ("python", *doctor.DEPENDENCIES)}
NO_EDITOR = {"editor-heartbeat": "pass", "editor-reachable": "pass"}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh copy of the fixture, not in git, with an empty home (no agent configurations)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    dest = tmp_path / "DungeonCrawler"
    copy_fixture(dest)
    return dest


def statuses(root: Path | None, cwd: Path | None = None) -> dict[str, str]:
    report = doctor.run(str(root) if root else None, cwd or Path.cwd())
    return {c.name: c.status for c in report.checks}


def checks(root: Path) -> dict[str, doctor.Check]:
    return {c.name: c for c in doctor.run(str(root), Path.cwd()).checks}


def test_no_index(project: Path) -> None:
    assert statuses(project) == {
        **ENVIRONMENT,
        "project": "pass",
        "config": "pass",
        "index": "warn",
        "git-hooks": "pass",
        **NO_EDITOR,
        "mcp-clients": "warn",
    }
    c = checks(project)
    assert c["project"].detail == f"{project} (Unity 2021.3.15f1)"
    assert c["index"].detail == f"no index yet at {project}/Library/UnityIndex"
    assert c["index"].fix == f"unity-index index --project {project} (any query builds it too)"
    assert c["git-hooks"].detail == "not inside a git repository: git hooks do not apply"
    assert c["mcp-clients"].fix.startswith(f"unity-index mcp install --client claude-code --project {project}")


def test_fresh_index_then_stale_after_an_edit(project: Path) -> None:
    update(project, Config(workers=1))
    fresh = statuses(project)
    assert {k: fresh[k] for k in ("index", "index-current", "index-consistent")} == {
        "index": "pass",
        "index-current": "pass",
        "index-consistent": "pass",
    }
    script = project / "Assets/Scripts/Player/PlayerHealth.cs"
    script.write_text(script.read_text() + "\n// edited\n")
    (project / "Assets/Scripts/New.cs").write_text("class New {}")
    c = checks(project)
    assert (c["index-current"].status, c["index-consistent"].status) == ("warn", "pass")
    assert c["index-current"].detail == (
        "2 files differ from the index (1 added, 1 changed; e.g. Assets/Scripts/New.cs)"
    )
    assert c["index-current"].fix.startswith(f"unity-index index --project {project};")


def test_scenes_checked_out_as_git_lfs_pointers_are_said_to_be_missing(project: Path) -> None:
    """A clone without `git lfs` leaves text assets as pointers: `status` lists them, and doctor,
    where a user looks to learn why a scene is never found, says so with the fix."""
    update(project, Config(workers=1))
    assert checks(project)["lfs-content"].status == "pass"
    pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:{}\nsize 1024\n"
    for i, name in enumerate(
        ("Assets/Scenes/Dungeon.unity", "Assets/Prefabs/Player.prefab", "Assets/Data/SoundLibrary.asset")
    ):
        (project / name).write_text(pointer.format(str(i) * 64))
    update(project, Config(workers=1))
    c = checks(project)["lfs-content"]
    assert (c.status, c.detail) == (
        "warn",
        "3 files are Git LFS pointers, content not checked out (1 asset, 1 prefab, 1 scene; e.g."
        " Assets/Data/SoundLibrary.asset): not indexed",
    )
    assert c.fix == "`git lfs install && git lfs pull` in the repository; the next command indexes them"


def test_inconsistent_index_fails(project: Path) -> None:
    update(project, Config(workers=1))
    header = project / "Library/UnityIndex/index.json"
    data = json.loads(header.read_text())
    header.write_text(json.dumps({**data, "generation": data["generation"] + 5}))
    c = checks(project)
    assert c["index-intact"].status == "pass"  # index.json is checked by content, not fingerprint
    assert c["index-consistent"].status == "fail"
    assert c["index-consistent"].detail.startswith("1 problems: header generation")
    assert c["index-consistent"].fix == f"unity-index index --project {project} --full rebuilds it"


def test_bad_config_fails_and_skips_the_index_checks(project: Path) -> None:
    (project / "unity-index.toml").write_text("excludes = []\n")
    got = statuses(project)
    assert (got["config"], got["index"]) == ("fail", "warn")
    assert "index-current" not in got
    c = checks(project)
    assert "unknown field `excludes`" in c["config"].detail
    assert c["index"].detail == "not checked: the configuration is invalid"
    r = run_cli("doctor", "--project", str(project))
    assert r.returncode == 1
    assert "  fail  config" in r.stdout


def _heartbeat(root: Path, **fields: Any) -> None:
    beat = {"protocol": 1, "port": 1, "token": "t", "pid": os.getpid(), "state": "ready", "updated_at": time.time()}
    path = root / "Library/UnityIndex/editor.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"unity_version": "2021.3.15f1", **beat, **fields}))


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_heartbeat_states(project: Path) -> None:
    _heartbeat(project, updated_at=time.time() - 60)
    c = checks(project)
    assert (c["editor-heartbeat"].status, c["editor-reachable"].status) == ("warn", "warn")
    assert "of 2021.3.15f1 (pid " in c["editor-heartbeat"].detail
    assert ", state ready), has not been refreshed for 60 s: " in c["editor-heartbeat"].detail
    # dated ahead of the clock (another machine's, or planted): not fresh for ever either
    _heartbeat(project, updated_at=time.time() + 3600)
    c = checks(project)
    assert (c["editor-heartbeat"].status, c["editor-reachable"].status) == ("warn", "warn")
    assert ", state ready), is dated 3600 s ahead of this machine's clock: " in c["editor-heartbeat"].detail
    # a reload writes no beat, for a minute or two; one of ten minutes is stuck (it passed for ever)
    _heartbeat(project, state="reloading", updated_at=time.time() - 106)
    assert checks(project)["editor-heartbeat"].status == "pass"
    _heartbeat(project, state="reloading", updated_at=time.time() - 600)
    c = checks(project)
    assert c["editor-heartbeat"].status == "warn"
    assert ", state reloading), has been reloading for 600 s: " in c["editor-heartbeat"].detail

    pid = _dead_pid()
    _heartbeat(project, pid=pid)
    c = checks(project)
    assert (c["editor-heartbeat"].status, c["editor-reachable"].status) == ("warn", "pass")
    assert c["editor-heartbeat"].detail.endswith(f"was left by an editor that no longer runs (pid {pid})")

    _heartbeat(project, protocol=2)
    assert checks(project)["editor-heartbeat"].status == "fail"
    (project / "Library/UnityIndex/editor.json").write_text("{not json")
    assert checks(project)["editor-heartbeat"].status == "fail"


class _Bridge(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        ok = self.path == "/v1/ping" and self.headers.get("Authorization") == "Bearer t"
        body = json.dumps({"ok": True, "protocol": 1, "pending": 0, "tools": 16, "state": "ready"} if ok else {})
        self.send_response(200 if ok else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())


@pytest.fixture
def bridge_port() -> Iterator[int]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Bridge)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_live_editor_reachable_or_not(project: Path, bridge_port: int) -> None:
    _heartbeat(project, port=bridge_port)
    c = checks(project)
    assert (c["editor-heartbeat"].status, c["editor-reachable"].status) == ("pass", "pass")
    assert c["editor-reachable"].detail.startswith(f"the bridge on 127.0.0.1:{bridge_port} answered ping in ")
    assert c["editor-reachable"].detail.endswith(" ms (16 tools)")
    with socket_closed() as port:
        _heartbeat(project, port=port)
        c = checks(project)
    assert (c["editor-heartbeat"].status, c["editor-reachable"].status) == ("pass", "fail")
    assert c["editor-reachable"].detail.startswith(f"the heartbeat names 127.0.0.1:{port} (pid {os.getpid()})")


class socket_closed:
    """A local port nothing listens on, for the unreachable bridge."""

    def __enter__(self) -> int:
        import socket

        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        return self.port

    def __exit__(self, *exc: object) -> None:
        pass


def _git_init(root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)


def test_git_hooks(project: Path) -> None:
    _git_init(project)
    c = checks(project)["git-hooks"]
    assert (c.status, c.detail) == ("warn", "no git hook refreshes the index after commits, checkouts and merges")
    assert c.fix.startswith(f"unity-index hook install --project {project}, or add the unity-index-refresh hook")

    (project / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: x\n    hooks:\n      - id: unity-index-refresh\n"
    )
    c = checks(project)["git-hooks"]
    assert c.status == "warn"
    assert c.fix == (
        "pre-commit install --hook-type pre-commit --hook-type post-checkout --hook-type post-merge"
        " --hook-type post-rewrite"
    )

    assert run_cli("hook", "install", "--project", str(project)).returncode == 0
    c = checks(project)["git-hooks"]
    assert (c.status, c.detail) == (
        "pass",
        f"unity-index hooks installed in {project}/.git/hooks (pre-commit, post-checkout, post-merge, post-rewrite)",
    )
    (project / ".git/hooks/post-merge").unlink()
    assert checks(project)["git-hooks"].status == "warn"


def test_git_hooks_whose_recorded_unity_index_is_gone(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hook records the unity-index it was installed with and falls back to the one on PATH:
    the recorded one gone is a warning while PATH has one, a failure (the hook does nothing) when not."""
    _git_init(project)
    assert run_cli("hook", "install", "--project", str(project)).returncode == 0
    for name in ("pre-commit", "post-checkout", "post-merge", "post-rewrite"):
        hook = project / ".git/hooks" / name
        text = hook.read_text()
        recorded = next(line for line in text.splitlines() if line.startswith("unity_index="))
        hook.write_text(text.replace(recorded, "unity_index=/gone/bin/unity-index"))
    folder = f"{project}/.git/hooks"
    git_dir = str(Path(shutil.which("git") or "/usr/bin/git").parent)
    monkeypatch.setenv("PATH", os.pathsep.join([str(Path(sys.executable).parent), git_dir]))
    c = checks(project)["git-hooks"]
    on_path = Path(sys.executable).parent / "unity-index"
    assert (c.status, c.detail) == (
        "warn",
        f"the hooks in {folder} record /gone/bin/unity-index, which no longer exists: they run {on_path} (on PATH)",
    )
    monkeypatch.setenv("PATH", git_dir)
    assert shutil.which("unity-index") is None
    c = checks(project)["git-hooks"]
    assert (c.status, c.detail) == ("fail", f"the hooks in {folder} run /gone/bin/unity-index, which no longer exists")


def test_mcp_client_configurations(project: Path) -> None:
    r = run_cli("mcp", "install", "--client", "cursor", "--project", str(project), env={"HOME": os.environ["HOME"]})
    assert r.returncode == 0, r.stderr
    c = checks(project)["mcp-clients"]
    assert (c.status, c.detail) == ("pass", f"configured for this project: cursor ({project}/.cursor/mcp.json)")

    entry = {"mcpServers": {"unity-index": {"command": "/gone/unity-index", "args": ["serve", "--project", "."]}}}
    (project / ".mcp.json").write_text(json.dumps(entry))
    c = checks(project)["mcp-clients"]
    assert (c.status, c.detail) == (
        "fail",
        f"configured, but the command it runs does not exist: claude-code ({project}/.mcp.json)",
    )

    other = {"mcpServers": {"unity-index": {"command": "true", "args": ["serve", "--project", "/elsewhere"]}}}
    (project / ".mcp.json").write_text(json.dumps(other))
    assert checks(project)["mcp-clients"].status == "pass"  # cursor still serves this project

    # the portable project file (`serve` finds the project from the client's folder), and a
    # user file's per-project entry
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"unity-index": {"command": "true", "args": ["serve"]}}})
    )
    c = checks(project)["mcp-clients"]
    assert c.detail.startswith(f"configured for this project: claude-code ({project}/.mcp.json), cursor")


def test_claude_codes_per_project_entries_serve_the_project_they_are_kept_under(project: Path) -> None:
    """docs/cli.md, `doctor`'s `mcp-clients`: "Claude Code's per-project entries in `~/.claude.json`"
    count. Claude Code starts them in the project's folder, so the `--project .` that docs/mcp.md
    gives to `claude mcp add` (or no `--project`) is that project; both were read from the home
    folder, and the check said no agent was configured."""
    user_file = Path.home() / ".claude.json"
    for args in (["serve", "--project", "."], ["serve"], ["serve", "--project", str(project)]):
        servers = {"unity-index": {"command": "true", "args": args}}
        user_file.write_text(json.dumps({"projects": {str(project): {"mcpServers": servers}}}))
        c = checks(project)["mcp-clients"]
        assert (c.status, c.detail) == ("pass", f"configured for this project: claude-code ({user_file})"), args
    # another project's entry, and a top-level user entry without `--project` (home is no project)
    other = {"unity-index": {"command": "true", "args": ["serve", "--project", "."]}}
    user_file.write_text(json.dumps({"mcpServers": other, "projects": {"/elsewhere": {"mcpServers": other}}}))
    assert checks(project)["mcp-clients"].status == "warn"
    # a project at a subfolder of the folder Claude Code runs in (a repository's root): kept under
    # that folder, its `--project` relative to it
    for args, status in ((["serve", "--project", project.name], "pass"), (["serve", "--project", "."], "warn")):
        servers = {"unity-index": {"command": "true", "args": args}}
        user_file.write_text(json.dumps({"projects": {str(project.parent): {"mcpServers": servers}}}))
        assert checks(project)["mcp-clients"].status == status, args


def test_no_project_fails_with_the_projects_below(tmp_path: Path) -> None:
    copy_fixture(tmp_path / "games" / "Dungeon")
    got = statuses(None, cwd=tmp_path)
    assert got == {**ENVIRONMENT, "project": "fail"}
    c = {c.name: c for c in doctor.run(None, tmp_path).checks}["project"]
    assert c.fix == f"pass --project with one of: {tmp_path.resolve()}/games/Dungeon"


def test_cli_json_and_exit_codes(project: Path, tmp_path: Path) -> None:
    r = run_cli("doctor", "--project", str(project), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert list(data) == ["schema_version", "version", "project", "ok", "checks"]
    assert (data["schema_version"], data["project"], data["ok"]) == (1, str(project), True)
    assert data["version"] == importlib.metadata.version("unity-index")
    text = run_cli("doctor", "--project", str(project)).stdout
    assert text.startswith(f"unity-index {data['version']} doctor: {project}\n")
    assert all(list(c) == ["name", "status", "detail", "fix"] for c in data["checks"])
    r = run_cli("doctor", "--project", str(tmp_path / "missing"))
    assert r.returncode == 1
    assert f"  fail  project              --project {tmp_path / 'missing'}: no such folder" in r.stdout
    assert "fix: pass a Unity project's folder" in r.stdout


def test_dependency_checks() -> None:
    assert doctor.satisfies("0.26.1", ">=0.25,<0.27") and not doctor.satisfies("0.27", ">=0.25,<0.27")
    assert doctor.satisfies("2.3.0", ">=2,<3") and not doctor.satisfies("1.9", ">=2,<3")
    assert doctor.satisfies("0.23.5", "~=0.23.1") and not doctor.satisfies("0.24.0", "~=0.23.1")
    c = doctor.check_dependency("msgspec", "msgspec", ">=99")
    assert c.status == "fail" and c.detail.startswith("msgspec ") and c.detail.endswith(" is installed (needs >=99)")
    assert c.fix.endswith("-m pip install 'msgspec>=99'")
    missing = doctor.check_dependency("no-such-distribution", "no_such_module", "")
    assert (missing.status, missing.detail) == ("fail", "no-such-distribution is not installed")
    assert doctor.requirements()["tree-sitter"] == ">=0.25,<0.27"


def test_pipes_in_place_of_the_files_doctor_reads_do_not_hang_it(tmp_path: Path) -> None:
    """A named pipe blocks whoever reads it (a project unpacked from an archive may hold one):
    `doctor` hung forever on one at ProjectSettings/ProjectVersion.txt or at the editor's
    heartbeat or at the repository's .pre-commit-config.yaml or an MCP client's configuration,
    `editor tools` (and the MCP server's editor tools) on the heartbeat, `hook install --pre-commit`,
    `agents install` and `mcp install` on the files they edit. They are read only as regular
    files, never opened as pipes."""
    root = copy_fixture(tmp_path / "P")
    (root / "ProjectSettings" / "ProjectVersion.txt").unlink()
    os.mkfifo(root / "ProjectSettings" / "ProjectVersion.txt")
    (root / "Library" / "UnityIndex").mkdir(parents=True)
    os.mkfifo(root / "Library" / "UnityIndex" / "editor.json")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    os.mkfifo(root / ".pre-commit-config.yaml")
    os.mkfifo(root / "AGENTS.md")
    os.mkfifo(root / ".mcp.json")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1]), "NO_COLOR": "1"}
    for args in (
        ("doctor", "--json"),
        ("editor", "tools"),
        ("hook", "install", "--pre-commit"),
        ("agents", "install", "--dry-run"),
        ("mcp", "install", "--client", "claude-code", "--dry-run"),
    ):
        r = subprocess.run(
            [sys.executable, "-m", "indexer.cli", *args, "--project", str(root)],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
        assert r.returncode in (0, 1, 2) and "Traceback" not in r.stderr, (args, r.stderr)
        if args[0] == "doctor":
            checks = {c["name"]: c for c in json.loads(r.stdout)["checks"]}
            assert "Unity version unknown" in checks["project"]["detail"]
            assert "not a regular file" in checks["editor-heartbeat"]["detail"]
            assert ".mcp.json" in checks["mcp-clients"]["detail"]  # not parsed
        else:
            assert r.returncode == 2 and "not a regular file" in r.stderr, r.stderr

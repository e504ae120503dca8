"""The Mono host that plays the Unity editor in the bridge tests, and a raw HTTP helper.

`host_exe` compiles the package's Unity-independent core (`unity_package/Editor/Core/*.cs`) with
`tests/editor_bridge/TestHost.cs` once per session (shared by every module that imports it);
`make_host`/`host` run it as a real server process per test. Without `mcs`/`mono` the tests that
use it skip, unless CI is set: then they fail (CI installs Mono).
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "unity_package"
CORE = PACKAGE / "Editor" / "Core"
HOST_SRC = REPO / "tests" / "editor_bridge" / "TestHost.cs"
STUBS = REPO / "tests" / "unity_stubs"
WAIT = 60.0  # bound on any wait for the mono host (a loaded 2-core machine can be slow)


def require_mono() -> tuple[str, str]:
    mcs, mono = shutil.which("mcs"), shutil.which("mono")
    if mcs and mono:
        return mcs, mono
    missing = " and ".join(n for n, p in (("mcs", mcs), ("mono", mono)) if not p)
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"{missing} not found but CI is set: .ci/setup --dev must install mono-mcs")
    pytest.skip(f"{missing} not found: install Mono (Debian: apt-get install mono-mcs) to run the bridge tests")


def mcs(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    mcs, _ = require_mono()
    return subprocess.run([mcs, "-langversion:7.2", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def serving_probe(probe: str, tools: str) -> str:
    """C# of a probe host: the package's core serving the tools of class `tools` on loopback,
    `READY <port> <token>` on stdout, the queue pumped as the editor would until stdin closes."""
    return (
        f"public static class {probe}\n{{\n    public static int Main()\n    {{\n"
        "        var registry = new ToolRegistry();\n"
        f"        registry.RegisterAssembly(typeof({tools}).Assembly);\n"
        """        var options = new BridgeServerOptions();
        var queue = new MainThreadQueue(options.MaxPending);
        var server = new BridgeServer(registry, queue, options);
        server.Start();
        Console.WriteLine("READY " + server.Port + " " + server.Token);
        Console.Out.Flush();
        var stdin = new Thread(delegate () { Console.In.ReadLine(); Environment.Exit(0); }) { IsBackground = true };
        stdin.Start();
        while (true) { queue.Pump(50); Thread.Sleep(5); }
    }
}
"""
    )


@contextmanager
def probe_serving(tmp_path: Path, probe: str, source: str) -> Iterator[tuple[int, str]]:
    """The C# `source` (its class `probe` holding Main, as `serving_probe` writes it) built with the
    core and run: its (port, token) while inside; stdin closed and the process waited for after."""
    (tmp_path / f"{probe}.cs").write_text(source, encoding="utf-8")
    built = mcs([f"-out:{probe}.exe", *sources(CORE), f"{probe}.cs"], tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    _, mono = require_mono()
    proc = subprocess.Popen(
        [mono, str(tmp_path / f"{probe}.exe")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        _, port, token = proc.stdout.readline().split()
        yield int(port), token
    finally:
        proc.stdin.close()
        proc.wait(WAIT)


def sources(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*.cs"))


def build_package(folder: Path) -> Path:
    """The whole package (`UnityIndex.Editor.dll`) compiled against the Unity stubs in `folder`,
    with the stub assemblies next to it so that a probe referencing it runs there."""

    def build(out: str, srcs: list[str], refs: list[str]) -> None:
        r = mcs(["-target:library", f"-out:{out}", *(f"-r:{ref}" for ref in refs), *srcs], folder)
        assert r.returncode == 0, f"{out}:\n{r.stdout}{r.stderr}"

    build("UnityEngine.dll", sources(STUBS / "UnityEngine"), [])
    build("UnityEditor.dll", sources(STUBS / "UnityEditor"), ["UnityEngine.dll"])
    unity = ["UnityEngine.dll", "UnityEditor.dll"]
    build("UnityEditor.TestRunner.dll", sources(STUBS / "TestRunner"), unity)
    build("UnityIndex.Editor.dll", sources(PACKAGE / "Editor"), [*unity, "UnityEditor.TestRunner.dll"])
    return folder / "UnityIndex.Editor.dll"


@pytest.fixture(scope="session")
def host_exe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once per session, even when several modules import this fixture."""
    out = tmp_path_factory.getbasetemp() / "bridgehost" / "TestHost.exe"
    if out.is_file():
        return out
    out.parent.mkdir(exist_ok=True)
    tmp = out.with_name(f"TestHost.{os.getpid()}.exe")
    r = mcs(["-warnaserror+", f"-out:{tmp}", *sources(CORE), str(HOST_SRC)], REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    os.replace(tmp, out)
    return out


class Host:
    """The mono test host as a subprocess; stdin commands, stdout replies read by a thread."""

    def __init__(self, exe: Path, project: Path, *extra: str) -> None:
        _, mono = require_mono()
        self.project = project
        (project / "Library").mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [mono, str(exe), "--project", str(project), *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.warnings: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        ready = self.expect("READY ")
        self.port = int(ready.split()[1])

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            if line.startswith("WARN "):
                self.warnings.append(line[5:])
            else:
                self.lines.put(line)

    def expect(self, prefix: str, timeout: float = WAIT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                err = self.proc.stderr.read() if self.proc.poll() is not None and self.proc.stderr else ""
                raise AssertionError(f"host did not say {prefix!r} (exit {self.proc.poll()}): {err}")
            try:
                line = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if line.startswith(prefix):
                return line
            if line.startswith("ERR"):
                raise AssertionError(line)

    def send(self, command: str, reply: str | None = None) -> str | None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.expect(reply) if reply else None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=WAIT)
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if f:
                f.close()


@pytest.fixture
def make_host(host_exe: Path, tmp_path: Path):
    hosts: list[Host] = []

    def make(*extra: str) -> Host:
        h = Host(host_exe, tmp_path / f"Project{len(hosts)}", *extra)
        hosts.append(h)
        return h

    yield make
    for h in hosts:
        h.close()


@pytest.fixture
def host(make_host) -> Host:
    return make_host()


def raw(
    port: int,
    method: str,
    path: str,
    *,
    token: str | None,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """One HTTP request with no client logic in the way."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    h = dict(headers or {})
    if token is not None:
        h["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, body=body, headers=h)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read().decode("utf-8"))
    finally:
        conn.close()

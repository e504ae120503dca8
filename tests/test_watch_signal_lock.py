"""A stop signal landing while the watch's main thread holds its stop event's lock.

`watch` waits on its `stop` event between tries behind another writer's lock (`_apply`); inside
`stop.wait` the main thread holds the event's lock for a few steps, and a signal handler runs in
the main thread. A handler that set the event there waited for that lock for ever: a watch behind
another writer hung on SIGTERM (seen once, in a full test run on a loaded machine:
`test_waits.py::test_watch_stops_on_a_signal_while_it_waits_for_the_lock` timed out)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from .conftest import REPO, mono_script, write_project

# The signal sent while the main thread holds `stop`'s lock, as inside `stop.wait`.
_SCRIPT = """
import os, signal, threading
from indexer.changes.watch import install_stop_handlers
stop = threading.Event()
install_stop_handlers(stop)
try:
    with stop._cond:
        os.kill(os.getpid(), signal.{sig})
        for _ in range(10**6):
            pass
    print("not stopped")
except KeyboardInterrupt as exc:
    print("stopped", type(exc).__name__, stop.is_set())
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_stop_signal_while_the_stop_event_is_locked_ends_the_watch(sig: str) -> None:
    r = subprocess.run(
        [sys.executable, "-c", _SCRIPT.format(sig=sig)], cwd=REPO, capture_output=True, text=True, timeout=20
    )
    assert (r.returncode, r.stdout.strip()) == (0, "stopped WatchStopped False"), r.stderr


def test_the_watch_sets_its_stop_event_as_a_stop_unwinds_it(tmp_path: Path) -> None:
    """The handler no longer sets `stop` (above): `watch` sets it as WatchStopped unwinds it, so
    whatever else waits on the event learns the watch ended; the interrupt goes on to the caller,
    which ends with exit 0 (`cli.indexing.cmd_watch`)."""
    from indexer.changes.watch import WatchStopped, watch
    from indexer.config import Config

    root = write_project(tmp_path / "Game", {"Assets/Mover.cs": mono_script("Mover", "    public int speed;")})
    stop = threading.Event()

    def stopped() -> None:  # the signal, landing once the watch is ready
        raise WatchStopped

    with pytest.raises(WatchStopped):
        watch(root, Config(), lambda *batch: None, stop, ready=stopped)
    assert stop.is_set()

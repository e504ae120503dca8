"""The HTTP protocol `serve --transport http` runs: uvicorn's h11 protocol, where a connection that
has not sent a whole request is bounded in time (REQUEST_SECONDS from opening or from its last
answer) and in number (`connection_share`: past it, the longest waiting is closed), and the
connections accepted at once are as many (uvicorn's `backlog`).

Why: uvicorn starts no timer before a connection's first answer, and a byte received stops its
keep-alive timer, so a connection sending nothing, or the start of a request and no more
(slowloris, a client that crashed mid-request, a port scanner), was held for as long as the
server ran. Each held a file descriptor: past the limit of open files (`ulimit -n`, 256 on macOS)
the server accepted no one, and logged each refused accept with its traceback (hundreds of
thousands of lines: asyncio tries each of the `backlog` accepts of its turn again, 2,048 by
uvicorn's default). A deadline alone frees them only after it, a batch at a time, and a client
that keeps opening connections keeps the server full. The cap keeps the connections waiting, and
a burst accepted at once before any is counted, each under a quarter of the limit, so the server
stays under it and a new connection is always accepted. A request being answered is neither timed
nor counted: an answer, an event stream included, takes as long as it takes.
"""

from __future__ import annotations

import logging
import time
from typing import Any

REQUEST_SECONDS = 10.0  # for a request's head and body: 4 MB (the SDK's limit) at 400 KB/s
MIN_SHARE = 8
ACCEPT_FAILED = "socket.accept() out of system resource"  # asyncio's message, with a traceback
ACCEPT_FAILED_EVERY = 60.0  # seconds between two lines saying so


def connection_share() -> int:
    """Connections that may wait for their request at once, and that are accepted at once: a
    quarter of the limit of open files each (the rest for the index, the watchers and the requests
    being answered), at least MIN_SHARE and at most uvicorn's default backlog, 2,048."""
    try:
        import resource
    except ImportError:  # Windows: no such limit on sockets
        return 2048
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 2048 if soft == resource.RLIM_INFINITY else min(2048, max(MIN_SHARE, soft // 4))


class AcceptFailures(logging.Filter):
    """A log filter turning asyncio's failed accepts (the limit of open files reached, by the
    index's files and the requests being answered too) into one line a minute naming the limit:
    asyncio logs each with its traceback, as many times a second as the backlog accepts."""

    def __init__(self) -> None:
        super().__init__()
        self.said = -ACCEPT_FAILED_EVERY

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith(ACCEPT_FAILED):
            return True
        now = time.monotonic()
        if now - self.said < ACCEPT_FAILED_EVERY:
            return False
        self.said = now
        record.msg, record.args, record.exc_info, record.exc_text = _limit_reached(), (), None, None
        return True


def _limit_reached() -> str:
    try:
        import resource

        limit = f" ({resource.getrlimit(resource.RLIMIT_NOFILE)[0]}, `ulimit -n`)"
    except ImportError:
        limit = ""
    return (
        f"too many open files{limit}: new connections wait until some close; raise the limit"
        " if this repeats (said at most once a minute)"
    )


def protocol_class(cap: int) -> type:
    """uvicorn's `H11Protocol` with the deadline and at most `cap` connections waiting (imported
    here: only HTTP serving needs it). The waiting connections are this class's own, oldest first."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    waiting: dict[Any, None] = {}  # insertion ordered: the first waited longest

    class DeadlineProtocol(H11Protocol):
        """Waits (timer armed, counted) from opening and after each answer until a request has
        arrived whole; closed when the timer fires first, or when newer ones pass the cap."""

        _deadline: Any = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._wait()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                self._stop_waiting()

        def on_response_complete(self) -> None:
            super().on_response_complete()  # may have read a next request already sent whole
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
                self._wait()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def _wait(self) -> None:
            self._stop_waiting()
            self._deadline = self.loop.call_later(REQUEST_SECONDS, self._late)
            waiting[self] = None
            while len(waiting) > cap:
                next(iter(waiting))._close()

        def _stop_waiting(self) -> None:
            waiting.pop(self, None)
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _late(self) -> None:
            self._deadline = None
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
                self._close()

        def _close(self) -> None:
            self._stop_waiting()
            if not self.transport.is_closing():
                self.transport.close()

    return DeadlineProtocol

"""`serve` over stdio, answering every request read before stdin closed.

The SDK's dispatcher cancels the handlers still running when its read stream ends, so a client
that writes its requests and closes stdin (`printf '...' | unity-index serve`, a one-shot script)
got an answer only to `initialize`. Here the stream between the SDK's stdio transport and the
server is held open after EOF until every request read has been answered (or cancelled by the
client), bounded by DRAIN_TIMEOUT; then the server sees EOF and stops as before.

A line that is not a JSON-RPC message gets JSON-RPC's answer, a parse error with a null id, where
the SDK's transport passed the exception on to the server, which only logged it: a client that
wrote a broken request waited for an answer that never came. So does a request whose `id` is
no string or integer (null, an object...): the SDK read it as a notification, with no answer; it
gets an invalid-request error with a null id. A request whose strings hold an unpaired surrogate
escape (`\\ud800`), which the SDK's parser refuses, gets one with its own id. A request whose id
one still in flight holds (MCP requires ids unique in a session) gets an invalid-request error
naming the id, where the SDK ran both, each answered under the one id, and the second went
unanswered when stdin closed (docs/mcp.md).

stdin is read by a daemon thread of ours (`stdin_lines`), not by the SDK's reader on anyio's
worker threads: a read blocked on a terminal, or on a pipe the client keeps open, held Ctrl-C's
exit (130) until stdin closed, since Python waits for every other thread before exiting.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager, suppress
from typing import Any, NamedTuple

import anyio
import anyio.from_thread
import anyio.lowlevel
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp.server import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.dispatcher import coerce_request_id
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)

DRAIN_TIMEOUT = 300.0  # an answer may wait for a first full build of a large project
MAX_LINE = 4 * 1024 * 1024  # bytes of a message, as over HTTP (the SDK's limit of a body)


class Oversized(str):
    """In place of a line over MAX_LINE bytes, which was read to its end and dropped."""


class InFlight:
    """The requests read from the client and not answered yet, counted by id as the SDK correlates
    them ("7" and 7 are one id): a request and the refusal of its duplicate are each answered once."""

    def __init__(self) -> None:
        self.ids: Counter[Any] = Counter()
        self._changed = anyio.Event()

    def read(self, message: Any) -> bool:
        """Count a request read; True when its id is one already in flight (refuse it)."""
        if isinstance(message, JSONRPCRequest):
            key = coerce_request_id(message.id)
            self.ids[key] += 1
            return self.ids[key] > 1
        if isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            self._settle((message.params or {}).get("requestId"), every=True)  # never answered now
        return False

    def written(self, message: Any) -> None:
        if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            self._settle(message.id)

    def _settle(self, request_id: Any, every: bool = False) -> None:
        key = coerce_request_id(request_id) if isinstance(request_id, str | int) else request_id
        if key in self.ids:
            self.ids[key] -= 1
            if every or self.ids[key] <= 0:
                del self.ids[key]
        self._changed.set()
        self._changed = anyio.Event()

    async def drained(self) -> None:
        while self.ids:
            await self._changed.wait()


async def serve_stdio(server: MCPServer, drain_timeout: float = DRAIN_TIMEOUT) -> None:
    # The SDK's own run_stdio_async reaches the low-level server the same way.
    low = server._lowlevel_server
    try:
        with stdin_lines() as lines:
            await _serve(low, lines, drain_timeout)
    except* BrokenPipeError:  # the client closed its end (it died or stopped reading): nobody to answer
        # exit 0, as `unity-index query | head -1` does; this was "internal error: ExceptionGroup"
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # so that the interpreter's last flush finds no pipe


async def _serve(low: Any, lines: MemoryObjectReceiveStream[str], drain_timeout: float) -> None:
    in_flight = InFlight()
    to_server, from_client = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_client, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    answers = to_client.clone()  # errors of ours, written beside the server's answers
    screened = _screened(lines, answers, in_flight)
    async with stdio_server(stdin=screened) as (stdin, stdout):  # type: ignore[arg-type]  # only iterated

        async def inbound() -> None:
            async with to_server, answers:
                async for item in stdin:
                    if isinstance(item, Exception):  # a line that is no JSON-RPC message
                        error = ErrorData(code=PARSE_ERROR, message=f"Parse error: {_first_line(item)}")
                        await answers.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error)))
                        continue
                    if in_flight.read(item.message):  # the SDK would run both, its answers crossed
                        await answers.send(SessionMessage(_duplicate(item.message.id)))
                        continue
                    await to_server.send(item)
                with anyio.move_on_after(drain_timeout):
                    await in_flight.drained()

        async def outbound() -> None:
            async with stdout:
                async for item in from_server:
                    in_flight.written(item.message)
                    await stdout.send(item)

        async with anyio.create_task_group() as tg:
            tg.start_soon(inbound)
            tg.start_soon(outbound)
            await low.run(from_client, to_client, low.create_initialization_options())


async def _screened(lines: MemoryObjectReceiveStream[str], answers: Any, in_flight: InFlight) -> AsyncIterator[str]:
    """The client's lines but the requests whose id is no string or integer, or too long to
    read, answered here."""
    async for line in lines:
        refusal = _oversized() if isinstance(line, Oversized) else _refusal(line)
        if refusal is None:
            yield line
            continue
        if refusal.id is not None:  # counted, so that its answer settles no other request's
            in_flight.read(JSONRPCRequest(jsonrpc="2.0", id=refusal.id, method="refused"))
        await answers.send(SessionMessage(refusal))


def _duplicate(request_id: str | int) -> JSONRPCError:
    """JSON-RPC's invalid request for a request whose id one in flight holds: MCP requires ids
    unique in a session, and the SDK ran both, answering each under the id, where a client cannot
    tell the answers apart (and one was lost when stdin closed: docs/mcp.md)."""
    return _invalid(request_id, f"duplicate request id {json.dumps(request_id)} while one is in flight")


def _oversized() -> JSONRPCError:
    return _invalid(
        None, f"a message may be at most {MAX_LINE:,} bytes (4 MB); a longer line was read to its end and dropped"
    )


def _refusal(line: str) -> JSONRPCError | None:
    """JSON-RPC's invalid-request answer to a line of JSON that is no message the SDK can read,
    with the request's id when it has one JSON-RPC allows; None for what the SDK reads (or
    answers itself: a line that is no JSON is its parse error)."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None  # the SDK's parse error
    if isinstance(message, list):  # a batch: the SDK refused it as a parse error
        return _invalid(None, "batches are not supported (MCP since 2025-06-18): send one message per line")
    if not isinstance(message, dict):
        return _invalid(None, f"a message is a JSON object, not {type(message).__name__}")
    if "method" not in message or "id" not in message:
        return None
    bad = _bad_id(message["id"])
    if bad is not None:
        return _invalid(None, f"a request's id must be a string or an integer, not {bad}")
    lone = _unpaired_surrogate(message)
    if lone is not None:  # the SDK's parser refuses it: a parse error with a null id
        own = message["id"] if _unpaired_surrogate(message["id"]) is None else None  # else not writable back
        return _invalid(
            own, f"a string holds an unpaired UTF-16 surrogate escape ({lone} alone), which is no Unicode text"
        )
    try:
        jsonrpc_message_adapter.validate_python(message, by_name=False)
    except ValueError as exc:  # `params` an array, no `jsonrpc`...: it was a parse error, id null
        return _invalid(message["id"], _what_is_wrong(message) or _first_line(exc))
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unpaired_surrogate(value: Any) -> str | None:
    """An escape like `\\ud800` in a parsed message's strings (keys too) that is half of a pair,
    else None. JSON's grammar allows one and Python's `json` reads it, where the SDK's parser
    refuses the line: a request with a fine id got a parse error with a null id, never its answer."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return f"\\u{ord(found.group()):04x}"
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return None


def _what_is_wrong(request: dict[str, Any]) -> str | None:
    """The field of a request that JSON-RPC (or MCP) does not allow, in words."""
    if request.get("jsonrpc") != "2.0":
        return '`jsonrpc` must be "2.0"'
    if not isinstance(request["method"], str):
        return "`method` must be a string"
    if not isinstance(request.get("params", {}), dict):
        return "`params` must be an object (MCP names every parameter)"
    return None


def _invalid(request_id: str | int | None, why: str) -> JSONRPCError:
    error = ErrorData(code=INVALID_REQUEST, message=f"Invalid Request: {why}")
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=error)


def _bad_id(rid: Any) -> str | None:
    """What kind of JSON a request's id is when JSON-RPC allows no such id, else None (the SDK
    took `{"id": null, "method": ...}` for a notification and answered nothing)."""
    if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
        return None
    kinds = ((bool, "a boolean"), (float, "a number that is no integer"), (dict, "an object"), (list, "an array"))
    return next((kind for t, kind in kinds if isinstance(rid, t)), "null")


def _first_line(error: Exception) -> str:
    """The transport's error, on one line and short (a pydantic error lists every field)."""
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__)[:200]


@contextmanager
def stdin_lines() -> Iterator[MemoryObjectReceiveStream[str]]:
    """The client's lines, read by a daemon thread, as a stream of this event loop that ends at
    EOF (enter it in the loop). fd 0 points at the null device meanwhile, as the SDK's transport
    does: a handler or a child process reads EOF, never the wire."""
    private = os.dup(0)  # not inherited by child processes (PEP 446)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    reader = _start_reader(private)
    try:
        yield reader.lines
    finally:
        os.dup2(private, 0)
        if not reader.thread.is_alive():  # else blocked in a read: the process is ending (Ctrl-C)
            os.close(private)


class _Reader(NamedTuple):
    thread: threading.Thread
    lines: MemoryObjectReceiveStream[str]


def _start_reader(fd: int) -> _Reader:
    send, receive = anyio.create_memory_object_stream[str](0)
    token = anyio.lowlevel.current_token()

    def read() -> None:
        ended = (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError, RuntimeError)  # the loop too
        with suppress(*ended), open(fd, "rb", closefd=False) as stream:
            for line in bounded_lines(stream):
                anyio.from_thread.run(send.send, line, token=token)
        with suppress(RuntimeError):
            anyio.from_thread.run_sync(send.close, token=token)

    thread = threading.Thread(target=read, name="unity-index stdin", daemon=True)
    thread.start()
    return _Reader(thread, receive)


def bounded_lines(stream: Any) -> Iterator[str]:
    """The lines of a binary stream as UTF-8 text (what is not, replaced), each at most MAX_LINE
    bytes: a longer one is read to its end and dropped, an `Oversized` in its place. A line read
    whole before (a file piped in by mistake, a client's runaway message) took all the memory
    there was, and the reading thread, failing, stopped reading: the client waited for good."""
    while line := stream.readline(MAX_LINE + 1):
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while (rest := stream.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass
            yield Oversized()
            continue
        yield line.decode("utf-8", errors="replace")

"""A small Parlor protocol client for the integration tests.

One `Client` wraps one WebSocket (subprotocol `parlor.v1`). Requests carry a
client-chosen `id`; the server answers each with exactly one `result` or
`error` whose `re` is that id. Everything else (frames without `re`) is an
event: events go into a queue that tests consume with `wait_for`, and into
`log`, the full record of every event in arrival order (for "exactly once, in
order" checks).

Every wait is bounded: nothing here sleeps and hopes.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import uuid
from typing import Any, Callable, Iterable

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

SUBPROTOCOL = "parlor.v1"
DEFAULT_TIMEOUT = 10.0


class ProtocolError(AssertionError):
    """The server answered a request with an `error` frame."""

    def __init__(self, request: dict, frame: dict):
        self.request = request
        self.frame = frame
        self.code = frame.get("code")
        super().__init__(
            f"{request.get('type')} failed: {json.dumps(frame)[:600]} "
            f"(request: {_short(request)})"
        )


class Disconnected(AssertionError):
    """The connection closed while a request was waiting for its answer."""


def _short(obj: Any, limit: int = 300) -> str:
    s = json.dumps(obj) if not isinstance(obj, str) else obj
    return s if len(s) <= limit else s[:limit] + f"... ({len(s)} chars)"


def new_client_id() -> str:
    return uuid.uuid4().hex


class Client:
    _ids = itertools.count(1)

    def __init__(self, ws, label: str = ""):
        self.ws = ws
        self.label = label
        self.subprotocol = ws.subprotocol
        self._pending: dict[str, asyncio.Future] = {}
        self._requests: dict[str, dict] = {}
        self._answered: set[str] = set()
        self.events: list[dict] = []  # not yet consumed by wait_for
        self.log: list[dict] = []  # every event, in arrival order
        self.violations: list[str] = []  # protocol breaches seen by the reader
        self._wake = asyncio.Event()
        self.closed = False
        self.close_code: int | None = None
        self.close_reason: str | None = None
        self._closed_event = asyncio.Event()
        self.on_frame: Callable[[dict], None] | None = None
        # set by Env.register / Env.login
        self.user: dict | None = None
        self.token: str | None = None
        self.installed_apps: list | None = None
        self._reader = asyncio.get_running_loop().create_task(self._read_loop())

    # ------------------------------------------------------------ connection

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        origin: str | None = None,
        subprotocols: Iterable[str] | None = (SUBPROTOCOL,),
        label: str = "",
        open_timeout: float = 10.0,
    ) -> "Client":
        ws = await ws_connect(
            url,
            origin=origin,
            subprotocols=list(subprotocols) if subprotocols is not None else None,
            compression=None,  # frame-size limits must be tested on raw sizes
            proxy=None,
            max_size=64 * 2**20,
            open_timeout=open_timeout,
            ping_interval=None,
            close_timeout=3,
        )
        return cls(ws, label)

    async def _read_loop(self) -> None:
        try:
            async for raw in self.ws:
                self._on_raw(raw)
        except ConnectionClosed:
            pass
        except Exception as e:  # pragma: no cover - diagnostics
            self.violations.append(f"reader crashed: {e!r}")
        finally:
            self.closed = True
            self.close_code = self.ws.close_code
            self.close_reason = self.ws.close_reason
            for rid, fut in self._pending.items():
                if not fut.done():
                    fut.set_exception(
                        Disconnected(
                            f"[{self.label}] connection closed (code {self.close_code}, "
                            f"reason {self.close_reason!r}) before an answer to "
                            f"{_short(self._requests.get(rid, {}))}"
                        )
                    )
            self._pending.clear()
            self._closed_event.set()
            self._wake.set()

    def _on_raw(self, raw) -> None:
        if isinstance(raw, bytes):
            self.violations.append(f"server sent a binary frame ({len(raw)} bytes)")
            return
        try:
            frame = json.loads(raw)
        except ValueError:
            self.violations.append(f"server sent invalid JSON: {raw[:200]!r}")
            return
        if not isinstance(frame, dict):
            self.violations.append(f"server sent a non-object frame: {raw[:200]!r}")
            return
        re_ = frame.get("re")
        if re_ is not None and re_ in self._pending:
            fut = self._pending.pop(re_)
            self._answered.add(re_)
            if not fut.done():
                fut.set_result(frame)
        elif re_ is not None and re_ in self._answered:
            self.violations.append(f"second answer for request {re_!r}: {_short(frame)}")
        else:
            # events, and errors the server could not tie to a request (bad_json)
            self.events.append(frame)
            self.log.append(frame)
            self._wake.set()
        if self.on_frame is not None:
            self.on_frame(frame)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.ws.close(), 5)
        except Exception:
            pass
        try:
            await asyncio.wait_for(self._reader, 5)
        except Exception:
            pass

    async def wait_closed(self, timeout: float = 10.0) -> int | None:
        """Wait until the server closes the connection; return the close code."""
        try:
            await asyncio.wait_for(self._closed_event.wait(), timeout)
        except (asyncio.TimeoutError, TimeoutError):
            raise AssertionError(
                f"[{self.label}] connection still open after {timeout}s "
                f"(expected the server to close it); last events: {self.log[-5:]}"
            )
        return self.close_code

    # ------------------------------------------------------------ raw frames

    async def send_raw(self, data, *, text: bool | None = None) -> None:
        await self.ws.send(data, text=text)

    async def send_json(self, obj: Any) -> None:
        await self.ws.send(json.dumps(obj))

    # ------------------------------------------------------------ requests

    def _new_id(self) -> str:
        return f"{self.label or 'r'}-{next(self._ids)}"

    async def start(self, type_: str, *, _id: str | None = None, **fields) -> asyncio.Future:
        """Send a request; return a future resolved with its answer frame.

        Lets a test pipeline many requests without waiting for each answer.
        """
        return (await self._start(type_, _id=_id, **fields))[1]

    async def _start(self, type_: str, *, _id: str | None = None, **fields):
        rid = _id if _id is not None else self._new_id()
        frame = {"type": type_, "id": rid, **fields}
        fut = asyncio.get_running_loop().create_future()
        if self.closed:
            fut.set_exception(Disconnected(f"[{self.label}] connection already closed"))
            return rid, fut
        self._pending[rid] = fut
        self._requests[rid] = frame
        try:
            await self.ws.send(json.dumps(frame))
        except ConnectionClosed as e:
            self._pending.pop(rid, None)
            if not fut.done():
                fut.set_exception(Disconnected(f"[{self.label}] send failed: {e}"))
        return rid, fut

    async def start_burst(self, requests: list[tuple[str, dict]]) -> list[asyncio.Future]:
        """Sends the requests in one write, as a client catching up from its outbox
        does: they reach the server together, faster than it answers them, however
        fast it is. Returns a future per request, as `start`."""
        futures = []
        async with self.ws.send_context():
            for type_, fields in requests:
                rid = self._new_id()
                frame = {"type": type_, "id": rid, **fields}
                fut = asyncio.get_running_loop().create_future()
                self._pending[rid] = fut
                self._requests[rid] = frame
                self.ws.protocol.send_text(json.dumps(frame).encode())
                futures.append(fut)
            self.ws.transport.write(b"".join(self.ws.protocol.data_to_send()))
        return futures

    async def request(self, type_: str, *, timeout: float = DEFAULT_TIMEOUT, **fields) -> dict:
        """Send a request and return the answer frame (result or error)."""
        fut = await self.start(type_, **fields)
        try:
            return await asyncio.wait_for(fut, timeout)
        except (asyncio.TimeoutError, TimeoutError):
            raise AssertionError(
                f"[{self.label}] no answer to {type_} within {timeout}s "
                f"(fields: {_short(fields)})"
            )

    async def call(self, type_: str, *, timeout: float = DEFAULT_TIMEOUT, **fields) -> dict:
        """Send a request; return its `result`, or raise ProtocolError."""
        fut = await self.start(type_, **fields)
        try:
            frame = await asyncio.wait_for(fut, timeout)
        except (asyncio.TimeoutError, TimeoutError):
            raise AssertionError(
                f"[{self.label}] no answer to {type_} within {timeout}s "
                f"(fields: {_short(fields)})"
            )
        return self._result_of({"type": type_, **fields}, frame)

    @staticmethod
    def _result_of(request: dict, frame: dict) -> dict:
        if frame.get("type") == "error":
            raise ProtocolError(request, frame)
        assert frame.get("type") == "result", f"answer is neither result nor error: {frame}"
        assert isinstance(frame.get("result"), dict), f"result is not an object: {frame}"
        return frame["result"]

    async def expect_error(self, type_: str, codes, *, timeout: float = DEFAULT_TIMEOUT, **fields) -> dict:
        """Send a request that must fail with one of `codes`; return the error frame."""
        if isinstance(codes, str):
            codes = {codes}
        rid, fut = await self._start(type_, **fields)
        try:
            frame = await asyncio.wait_for(fut, timeout)
        except (asyncio.TimeoutError, TimeoutError):
            raise AssertionError(f"[{self.label}] no answer to {type_} within {timeout}s")
        assert frame.get("type") == "error", (
            f"{type_} {_short(fields)} should fail with {sorted(codes)}, got {_short(frame, 600)}"
        )
        assert frame.get("code") in codes, (
            f"{type_} {_short(fields)}: expected error code in {sorted(codes)}, got {_short(frame, 600)}"
        )
        assert frame.get("re") == rid
        assert isinstance(frame.get("message", ""), str)
        return frame

    # ------------------------------------------------------------ events

    async def wait_for(
        self,
        predicate: Callable[[dict], bool],
        timeout: float = 5.0,
        desc: str = "event",
    ) -> dict:
        """Remove and return the first queued event matching `predicate`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self._wake.clear()
            for i, ev in enumerate(self.events):
                if predicate(ev):
                    del self.events[i]
                    return ev
            if self.closed:
                raise AssertionError(
                    f"[{self.label}] connection closed (code {self.close_code}) while "
                    f"waiting for {desc}; unconsumed events: {_short(self.events[-8:], 1500)}"
                )
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"[{self.label}] timed out after {timeout}s waiting for {desc}; "
                    f"unconsumed events: {_short(self.events[-8:], 1500)}"
                )
            try:
                await asyncio.wait_for(self._wake.wait(), remaining)
            except (asyncio.TimeoutError, TimeoutError):
                pass

    async def wait_event(self, type_: str, timeout: float = 5.0, **match) -> dict:
        def pred(ev):
            return ev.get("type") == type_ and all(ev.get(k) == v for k, v in match.items())

        return await self.wait_for(pred, timeout, desc=f"{type_} event {match}")

    async def wait_message(self, conversation_id: str, seq: int | None = None, timeout: float = 5.0) -> dict:
        def pred(ev):
            return (
                ev.get("type") == "message"
                and ev.get("conversationId") == conversation_id
                and (seq is None or (ev.get("message") or {}).get("seq") == seq)
            )

        return await self.wait_for(pred, timeout, desc=f"message seq={seq} in {conversation_id}")

    async def wait_error_event(self, codes, timeout: float = 5.0) -> dict:
        """An error frame the server could not tie to a request (e.g. bad_json)."""
        if isinstance(codes, str):
            codes = {codes}

        def pred(ev):
            return ev.get("type") == "error"

        ev = await self.wait_for(pred, timeout, desc=f"error event {sorted(codes)}")
        assert ev.get("code") in codes, f"expected error code in {sorted(codes)}, got {ev}"
        return ev

    def message_seqs(self, conversation_id: str) -> list[int]:
        """Seqs of every message event received for a conversation, in order."""
        return [
            ev["message"]["seq"]
            for ev in self.log
            if ev.get("type") == "message" and ev.get("conversationId") == conversation_id
        ]

    def drop_events(self) -> None:
        self.events.clear()

    # ------------------------------------------------------------ conveniences

    @property
    def uid(self) -> str:
        assert self.user is not None, "not authenticated"
        return self.user["id"]

    @property
    def name(self) -> str:
        assert self.user is not None, "not authenticated"
        return self.user["name"]

    async def send_message(self, conversation_id: str, message: dict, client_id: str | None = None) -> dict:
        result = await self.call(
            "send",
            conversationId=conversation_id,
            clientId=client_id or new_client_id(),
            message=message,
        )
        assert isinstance(result.get("message"), dict), f"send result has no message: {result}"
        return result["message"]

    async def send_text(self, conversation_id: str, text: str, client_id: str | None = None) -> dict:
        return await self.send_message(conversation_id, {"kind": "text", "text": text}, client_id)

    async def subscribe(self, conversation_id: str, after_seq: int | None = None) -> dict:
        fields = {"conversationId": conversation_id}
        if after_seq is not None:
            fields["afterSeq"] = after_seq
        return await self.call("subscribe", **fields)

    async def history(self, conversation_id: str, before_seq: int | None = None, limit: int | None = None,
                      after_seq: int | None = None) -> dict:
        fields: dict[str, Any] = {"conversationId": conversation_id}
        if before_seq is not None:
            fields["beforeSeq"] = before_seq
        if after_seq is not None:
            fields["afterSeq"] = after_seq
        if limit is not None:
            fields["limit"] = limit
        return await self.call("history", **fields)

    async def history_all(self, conversation_id: str, page: int = 200) -> list[dict]:
        """Every message of a conversation, oldest first, paging backwards."""
        pages: list[list[dict]] = []
        before = None
        for _ in range(10_000):
            r = await self.history(conversation_id, before_seq=before, limit=page)
            msgs = r["messages"]
            pages.append(msgs)
            if not r["hasMore"] or not msgs:
                break
            before = msgs[0]["seq"]
        out: list[dict] = []
        for p in reversed(pages):
            out.extend(p)
        return out

    async def last_seq(self, conversation_id: str) -> int:
        convs = (await self.call("conversations.list"))["conversations"]
        for c in convs:
            if c["id"] == conversation_id:
                return c["lastSeq"]
        raise AssertionError(f"{conversation_id} not in conversations.list of {self.label}")


class Env:
    """Clients opened by one test; closed (and checked) at the end."""

    def __init__(self, server):
        self.server = server
        self.clients: list[Client] = []
        self._n = itertools.count(1)

    async def __aenter__(self) -> "Env":
        return self

    async def __aexit__(self, exc_type, exc, tb) -> None:
        await asyncio.gather(*(c.close() for c in self.clients), return_exceptions=True)
        if exc_type is None:
            bad = [(c.label, v) for c in self.clients for v in c.violations]
            assert not bad, f"protocol violations seen by clients: {bad}"

    async def connect(self, label: str | None = None, **kw) -> Client:
        label = label or f"c{next(self._n)}"
        c = await Client.connect(self.server.ws_url, label=label, **kw)
        self.clients.append(c)
        return c

    async def register(self, name: str, label: str | None = None) -> Client:
        c = await self.connect(label or name.lower().replace(" ", "_")[:16])
        r = await c.call("register", name=name)
        c.user, c.token, c.installed_apps = r["user"], r["token"], r.get("installedApps")
        return c

    async def login(self, token: str, label: str | None = None) -> Client:
        c = await self.connect(label)
        r = await c.call("auth", token=token)
        c.user, c.token, c.installed_apps = r["user"], token, r.get("installedApps")
        return c

    async def conversation(self, owner: Client, *others: Client, title: str = "Test room") -> tuple[str, str]:
        """owner creates a conversation, the others join by its invite. -> (id, invite)"""
        r = await owner.call("conversations.create", title=title)
        cid, invite = r["conversation"]["id"], r["invite"]
        for o in others:
            await o.call("conversations.join", invite=invite)
        return cid, invite

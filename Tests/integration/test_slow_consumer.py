"""A client that stops reading is disconnected (close 4008) instead of growing the
server's memory, everyone else keeps being served, and the slow client can resume."""

import asyncio
import json
import os
import socket
import time

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from client import Env


async def test_slow_consumer_is_dropped_and_resumes(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, invite = await env.conversation(ana, ben)
        await ana.subscribe(cid)
        await ben.subscribe(cid)

        # Sloth signs in on a socket whose client reads only when asked (max_queue=1),
        # subscribes, and then stops reading.
        slow = await ws_connect(server.ws_url, subprotocols=["parlor.v1"], max_queue=1, compression=None,
                                max_size=2**24, ping_interval=None)
        await slow.send(json.dumps({"type": "register", "id": "1", "name": "Sloth"}))
        token = json.loads(await slow.recv())["result"]["token"]
        await slow.send(json.dumps({"type": "conversations.join", "id": "2", "invite": invite}))
        await slow.recv()
        await slow.send(json.dumps({"type": "subscribe", "id": "3", "conversationId": cid}))
        await slow.recv()

        # Far more than the server's 4 MiB per-connection queue plus socket buffers.
        text = "x" * 9000
        count = 1500
        window = 64
        pending = set()
        for i in range(count):
            pending.add(asyncio.ensure_future(ana.send_text(cid, f"{i} {text}")))
            if len(pending) >= window:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for d in done:
                    d.result()
        await asyncio.gather(*pending)
        last = await ana.last_seq(cid)

        # Ben, who reads, got everything live.
        await ben.wait_message(cid, seq=last, timeout=30)

        # Reading now, Sloth finds what was already on the wire, then the close.
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(slow.recv(), timeout=30)
        assert slow.close_code == 4008

        # Sloth comes back with its token: 1,500 missed is past the replay limit, so the
        # server asks for a resync, and the newest page of history is all there.
        back = await env.login(token, "sloth2")
        sub = await back.subscribe(cid, after_seq=0)
        assert sub["resync"] is True and sub["lastSeq"] == last
        # (a page stops at 512 KiB: 9 KB messages fill it before 200 of them)
        page = await back.history(cid, limit=200)
        seqs = [m["seq"] for m in page["messages"]]
        assert 50 <= len(seqs) < 200 and seqs == list(range(last - len(seqs) + 1, last + 1))
        assert page["hasMore"] is True


async def test_a_client_that_never_reads_again_is_closed_within_seconds(server):
    """A slow consumer is closed with a close frame sent after what lws still holds of
    its socket: one that never reads again never took that, and its connection stayed
    open for good (seen in CI: the fd and lws's buffer held until the client left).
    Now it is closed within seconds of being marked, close frame or not."""
    from rawws import read_until, text_frame, ws_handshake

    async with Env(server) as env:
        ana = await env.register("Ana")
        sloth = await env.register("Sloth")
        cid, _ = await env.conversation(ana, sloth)
        status, _, s = ws_handshake(server.port)
        assert status == 101
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(text_frame({"type": "auth", "id": "a", "token": sloth.token})
                  + text_frame({"type": "subscribe", "id": "s", "conversationId": cid}))
        assert b'"s"' in read_until(s, lambda d: b'"s"' in d)
        # from here on the socket is never read: its buffers fill, then the server's queue
        text = "x" * 9000
        for i in range(0, 1500, 50):
            await asyncio.gather(*(ana.send_text(cid, f"{j} {text}") for j in range(i, i + 50)))
        marked = server.wait_for_log(lambda line: "ws slow consumer" in line, timeout=10)
        assert any("ws slow consumer" in line for line in marked), "the reader was never marked slow"
        user = sloth.user["id"]
        closed = server.wait_for_log(lambda line: "ws close " in line and f"user={user}" in line, timeout=10)
        s.close()
        assert any("ws close " in line and f"user={user}" in line for line in closed), \
            "the connection that never read was still open 10 s after it was marked slow"
        await ana.send_text(cid, "still here")


async def test_a_client_that_asks_now_and_then_and_never_reads_is_dropped(server_factory):
    """The slow-consumer bound counts what waits in Parlor's queue, and the keepalive
    what the client says: a client that filled the kernel's send buffer for it (a
    megabyte and more) and then sent a frame now and then without reading kept that
    memory held for good (an outside review). The kernel now gives up on a peer that
    takes nothing for twice the keepalive (TCP_USER_TIMEOUT): here 2 s, so 4 s."""
    from rawws import read_until, text_frame, ws_handshake

    server = server_factory(extra_args=["--keepalive-seconds", "2"])
    async with Env(server) as env:
        mal = await env.register("Mallory")
        await env.conversation(mal, title="T" * 100)
        status, _, s = ws_handshake(server.port)
        assert status == 101
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(text_frame({"type": "auth", "id": "a", "token": mal.token}))
        assert b'"a"' in read_until(s, lambda d: b'"a"' in d)
        # replies small enough that Parlor's queue stays empty: the kernel holds them;
        # then a frame a second, never silent for the keepalive, never a read
        ask = text_frame({"type": "conversations.list", "id": "x"})
        s.setblocking(False)
        started = time.monotonic()
        reset = False
        while time.monotonic() - started < 15 and not reset:
            try:
                s.send(ask * 10 if time.monotonic() - started < 2 else ask)
            except BlockingIOError:
                pass
            except OSError:
                reset = True
            await asyncio.sleep(0.02 if time.monotonic() - started < 2 else 1)
        s.close()
        assert reset, "a client that took nothing for 15 s was still connected"
        user = mal.user["id"]
        lines = server.wait_for_log(lambda line: "ws close " in line and f"user={user}" in line)
        assert any("ws close " in line and f"user={user}" in line for line in lines)
        assert not any(w in line for line in lines for w in ("slow consumer", "ws silent", "ws closing")), \
            "closed by another bound"
        await mal.send_text((await mal.call("conversations.list"))["conversations"][0]["id"], "still served")


def rss_mib(server) -> float:
    with open(f"/proc/{server.proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def test_one_accounts_connections_that_ask_and_never_read_hold_a_bounded_amount(server):
    """Connections of one member that pipeline history pages (512 KiB each) and never
    read were each allowed 8 MiB: 64 of them from one address held 800 MiB, kept after
    they were gone. Now history pages are answered within a budget of bytes per
    account (past it: rate_limited, and a connection that keeps asking is closed), all
    of one account's connections together hold at most 24 MiB before the one that
    grows is closed (4008), and the memory is given back."""
    from rawws import text_frame, ws_handshake

    async with Env(server) as env:
        mal = await env.register("Mallory")
        cid, _ = await env.conversation(mal)
        for i in range(30):
            await mal.send_text(cid, f"{i} " + "€" * 9000)
        before = rss_mib(server)
        fds = len(os.listdir(f"/proc/{server.proc.pid}/fd"))
        socks = []
        peak = before
        for _ in range(24):
            status, _, s = ws_handshake(server.port)
            assert status == 101
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(text_frame({"type": "auth", "id": "a", "token": mal.token})
                      + b"".join(text_frame({"type": "history", "id": f"h{j}", "conversationId": cid, "limit": 200})
                                 for j in range(20)))
            socks.append(s)
            peak = max(peak, rss_mib(server))
        deadline = asyncio.get_running_loop().time() + 20
        # each one closed: as a slow consumer, or refused (rate_limited) until it is closed
        while len(os.listdir(f"/proc/{server.proc.pid}/fd")) > fds + 2:
            assert asyncio.get_running_loop().time() < deadline, "the non-reading connections were not all closed"
            peak = max(peak, rss_mib(server))
            await asyncio.sleep(0.1)
        for s in socks:
            s.close()
        # before: each of the 24 held up to 8 MiB (about 190 MiB in all)
        assert peak - before < 64, f"RSS grew by {peak - before:.0f} MiB"
        # and the server goes on serving the member
        await mal.send_text(cid, "still here")

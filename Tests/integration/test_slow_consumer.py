"""A client that stops reading is disconnected (close 4008) instead of growing the
server's memory, everyone else keeps being served, and the slow client can resume."""

import asyncio
import json

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

"""A client that pipelines far more requests than the server takes at once is read
more slowly (flow control), never dropped: every request is answered exactly once, in
order, and everyone else keeps being served meanwhile."""

import asyncio

from client import Env, new_client_id


async def test_a_flood_is_throttled_not_lost(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await ben.subscribe(cid)

        # 3,000 sends written without waiting for a single answer.
        futures = [await ana.start("send", conversationId=cid, clientId=new_client_id(),
                                   message={"kind": "text", "text": f"flood {i}"}) for i in range(3000)]

        # Meanwhile Ben is served: his own send is acknowledged while the flood drains.
        mine = await ben.call("send", conversationId=cid, clientId=new_client_id(),
                              message={"kind": "text", "text": "still here"}, timeout=30)
        assert mine["message"]["seq"] >= 1

        answers = await asyncio.wait_for(asyncio.gather(*futures), timeout=60)
        seqs = [a["result"]["message"]["seq"] for a in answers]
        assert seqs == sorted(seqs) and len(set(seqs)) == 3000
        history = await ana.history_all(cid)
        assert [m["seq"] for m in history] == list(range(1, 3002))

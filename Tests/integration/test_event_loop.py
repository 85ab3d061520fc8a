"""The server works the same on poll() as on lws's libev loop (the default), and stops cleanly."""

import pytest

from client import Env

# About the transport, not the store: runs once, on SQLite.
pytestmark = pytest.mark.transport_only


async def test_poll_loop_converses_and_stops(server_factory):
    srv = server_factory(extra_args=["--event-loop", "poll"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await ben.subscribe(cid)
        sent = await ana.send_text(cid, "over poll")
        assert (await ben.wait_message(cid, seq=sent["seq"]))["message"]["text"] == "over poll"
    assert srv.stop(), "the server did not exit on SIGTERM"

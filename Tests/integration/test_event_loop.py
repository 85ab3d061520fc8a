"""The server works the same on lws's libev loop as on poll(), and stops cleanly."""

from client import Env


async def test_libev_loop_converses_and_stops(server_factory):
    srv = server_factory(extra_args=["--event-loop", "libev"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        await ben.subscribe(cid)
        sent = await ana.send_text(cid, "over epoll")
        assert (await ben.wait_message(cid, seq=sent["seq"]))["message"]["text"] == "over epoll"
    assert srv.stop(), "the server did not exit on SIGTERM"

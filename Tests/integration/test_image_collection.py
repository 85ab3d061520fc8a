"""Images no message shows are deleted after the grace period; shown ones stay."""

from __future__ import annotations

import asyncio
import time

from client import Env
from test_http import http_get, png_bytes, upload


async def status_of(srv, image):
    return (await asyncio.to_thread(http_get, srv, f"/blobs/{image}"))[0]


async def test_unused_images_are_collected_after_the_grace_period(server_factory):
    srv = server_factory(["--image-grace-seconds", "2"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        started = time.monotonic()
        unused = (await asyncio.to_thread(upload, srv, png_bytes(rgb=(5, 6, 7)), ana.token))[3]["hash"]
        shown = (await asyncio.to_thread(upload, srv, png_bytes(rgb=(7, 6, 5)), ana.token))[3]["hash"]
        await ana.send_message(cid, {"kind": "attachment", "image": shown})
        assert await status_of(srv, unused) == 200, "collected before its grace period"

        deadline = started + 10
        while await status_of(srv, unused) == 200:
            assert time.monotonic() < deadline, "an unused image was never collected"
            await asyncio.sleep(0.25)
        assert time.monotonic() - started >= 2, "collected within its grace period"
        assert await status_of(srv, shown) == 200
        assert any("unused images deleted" in line for line in srv.lines)

        # uploading it again brings it back, with a new grace period
        again = await asyncio.to_thread(upload, srv, png_bytes(rgb=(5, 6, 7)), ana.token)
        assert again[0] == 201 and again[3]["hash"] == unused
        assert await status_of(srv, unused) == 200

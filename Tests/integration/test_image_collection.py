"""Images no message shows are deleted after the grace period; shown ones stay."""

from __future__ import annotations

import asyncio
import os
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
        assert any("unused images deleted" in line for line in srv.wait_for_log(lambda line: "unused images deleted" in line))

        # uploading it again brings it back, with a new grace period
        again = await asyncio.to_thread(upload, srv, png_bytes(rgb=(5, 6, 7)), ana.token)
        assert again[0] == 201 and again[3]["hash"] == unused
        assert await status_of(srv, unused) == 200


async def test_an_image_file_no_row_names_is_deleted_at_start(server_factory):
    """An upload is moved into the store before it is recorded: a crash (or a full disk
    refusing the record) between the two left a file nothing would ever collect."""
    srv = server_factory()
    async with Env(srv) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        kept = (await asyncio.to_thread(upload, srv, png_bytes(rgb=(1, 2, 3)), ana.token))[3]["hash"]
        shown = (await asyncio.to_thread(upload, srv, png_bytes(rgb=(3, 2, 1)), ana.token))[3]["hash"]
        await ana.send_message(cid, {"kind": "attachment", "image": shown})
    srv.stop()
    blobs = srv.data_dir / "blobs"
    orphan = blobs / ("ab" * 32 + ".png")
    orphan.write_bytes(png_bytes(rgb=(9, 9, 9)))
    other = blobs / "notes.txt"  # not an image's name: not Parlor's to delete
    other.write_text("mine")
    # On PostgreSQL the nodes share the directory: only files an hour old are looked at.
    two_hours_ago = time.time() - 7200
    for f in blobs.iterdir():
        os.utime(f, (two_hours_ago, two_hours_ago))
    srv.start()
    assert not orphan.exists(), "a file no row names survived a restart"
    assert (blobs / f"{kept}.png").exists() and (blobs / f"{shown}.png").exists()
    assert other.exists()
    assert await status_of(srv, shown) == 200
    assert any("images without a record deleted" in line and "count=1" in line for line in srv.lines), srv.lines[-5:]


async def test_images_are_left_alone_when_the_database_knows_none_of_them(server_factory, tmp_path):
    """A database that is not this directory's (the old one went missing, a new one was
    made) must not cost the images: deleting every file would make the loss final."""
    srv = server_factory()
    async with Env(srv) as env:
        ana = await env.register("Ana")
        image = (await asyncio.to_thread(upload, srv, png_bytes(rgb=(4, 4, 4)), ana.token))[3]["hash"]
    srv.stop()
    files = srv.data_dir / "blobs"
    stray = tmp_path / "blobs"
    files.rename(stray)
    fresh = server_factory(data_dir=tmp_path / "fresh")
    fresh.stop()
    (fresh.data_dir / "blobs").rmdir()
    stray.rename(fresh.data_dir / "blobs")
    two_hours_ago = time.time() - 7200
    for f in (fresh.data_dir / "blobs").iterdir():
        os.utime(f, (two_hours_ago, two_hours_ago))
    fresh.start()
    assert (fresh.data_dir / "blobs" / f"{image}.png").exists()
    assert any("no image file has a record" in line for line in fresh.lines), fresh.lines[-5:]

"""Voice messages (`kind:"audio"`): a recording is uploaded to /blobs like a picture,
recognized by its first bytes (WebM with Opus, MP4 audio), served back with its type and
the pictures' headers, counted in the same quotas, and released when its last message
goes. The fixtures are Chromium's own recordings (MediaRecorder, ~0.6 s of the fake
microphone's tone): audio/webm;codecs=opus and audio/mp4; a file holding video is refused
(fixtures/README.md says how each was made)."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest

from client import Env
from test_admin import cli
from test_cluster import Nats, cluster, envs_on  # noqa: F401 (the fixture)
from test_http import http_get, png_bytes, upload
from test_limits import big_png
from test_typing import room

FIXTURES = Path(__file__).parent / "fixtures"
WEBM = (FIXTURES / "voice.webm").read_bytes()
M4A = (FIXTURES / "voice.m4a").read_bytes()
# a test picture with and without a tone: labelled WebM and MP4 audio, not sound only
VIDEOS = [(FIXTURES / name).read_bytes() for name in ("video.webm", "video-only.webm", "video.mp4", "video-only.mp4")]


async def put(srv, data: bytes, token: str, content_type="application/octet-stream"):
    return await asyncio.to_thread(upload, srv, data, token, content_type)


def padded(recording: bytes, size: int) -> bytes:
    """A recording grown to `size` bytes (the server reads only its header)."""
    return recording + b"\0" * (size - len(recording))


async def test_a_recording_is_stored_served_and_sent(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        for data, mime in ((WEBM, "audio/webm"), (M4A, "audio/mp4")):
            # the client's label is ignored: the bytes say what it is
            status, _, body, js = await put(server, data, ana.token, content_type="image/png")
            assert status == 201, body[:300]
            assert js == {"hash": hashlib.sha256(data).hexdigest(), "type": mime, "size": len(data)}
            status, headers, served = await asyncio.to_thread(http_get, server, f"/blobs/{js['hash']}")
            assert status == 200 and served == data
            assert headers["content-type"].split(";")[0] == mime
            assert headers["x-content-type-options"] == "nosniff"
            assert "sandbox" in headers["content-security-policy"]
            assert "private" in headers["cache-control"] and "immutable" in headers["cache-control"]

            sent = await ana.send_message(cid, {"kind": "audio", "audio": js["hash"], "durationMs": 640})
            assert (sent["kind"], sent["audio"], sent["durationMs"]) == ("audio", js["hash"], 640)
            heard = (await ben.wait_message(cid, sent["seq"]))["message"]
            assert (heard["kind"], heard["audio"], heard["durationMs"]) == ("audio", js["hash"], 640)

        # a picture labelled as a recording is a picture; a video's MP4 and noise are refused
        status, _, _, js = await put(server, png_bytes(rgb=(3, 2, 1)), ana.token, content_type="audio/webm")
        assert status == 201 and js["type"] == "image/png"
        video = M4A[:8] + b"M4V " + M4A[12:]
        for bad in (video, bytes(range(256)) * 4):
            status, _, _, js = await put(server, bad, ana.token, content_type="audio/webm")
            assert status == 415 and js["code"] == "not_an_image", js
        status, _, _, js = await put(server, padded(WEBM, 2 * 1024 * 1024 + 1), ana.token)
        assert status == 413 and js["code"] == "too_large"
        assert (await put(server, padded(WEBM, 2 * 1024 * 1024), ana.token))[0] == 201

        # what the message says is checked: its length, and that its hash is a recording
        picture = (await put(server, png_bytes(rgb=(4, 4, 4)), ana.token))[3]["hash"]
        voice = hashlib.sha256(WEBM).hexdigest()
        for i, ms in enumerate((0, 120_001, None, 1.5)):
            message = {"kind": "audio", "audio": voice} | ({} if ms is None else {"durationMs": ms})
            e = await ana.expect_error("send", "invalid_field", conversationId=cid, clientId=f"bad{i}", message=message)
            assert e["field"] == "message.durationMs"
        e = await ana.expect_error("send", "not_found", conversationId=cid, clientId="as-voice",
                                   message={"kind": "audio", "audio": picture, "durationMs": 500})
        assert e["field"] == "message.audio"
        e = await ana.expect_error("send", "not_found", conversationId=cid, clientId="as-picture",
                                   message={"kind": "attachment", "image": voice})
        assert e["field"] == "message.image"

        # not editable, not found by search
        last = (await ana.history(cid))["messages"][-1]
        e = await ana.expect_error("messages.edit", "invalid_field", conversationId=cid, seq=last["seq"], text="words")
        found = await ana.call("messages.search", conversationId=cid, query="audio")
        assert found["messages"] == []


async def test_a_recording_holding_video_is_refused_and_nothing_kept(server):
    async with Env(server) as env:
        ana = await env.register("Ana")
        blobs = server.data_dir / "blobs"
        before = sorted(p.name for p in blobs.iterdir())
        for video in VIDEOS:
            status, _, body, js = await put(server, video, ana.token, content_type="audio/webm")
            assert status == 415 and js["code"] == "not_an_image", body[:300]
            h = hashlib.sha256(video).hexdigest()
            assert (await asyncio.to_thread(http_get, server, f"/blobs/{h}"))[0] == 404
        assert sorted(p.name for p in blobs.iterdir()) == before, "a refused upload left a file"


async def test_recordings_share_the_pictures_quota_and_leave_with_their_messages(server_factory):
    srv = server_factory(["--limit-stored-image-mb", "1"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        cid, _ = await env.conversation(ana)
        # a refused video counts for nothing: were it counted, the recording below would not fit
        assert (await put(srv, padded(VIDEOS[0], 600_000), ana.token))[0] == 415
        picture = (await put(srv, big_png(1), ana.token))[3]["hash"]
        shown = await ana.send_message(cid, {"kind": "attachment", "image": picture})
        voice = padded(WEBM, 600_000)
        status, _, _, js = await put(srv, voice, ana.token)
        assert status == 413 and js["code"] == "quota_exceeded", "a recording counts with the pictures"
        # the picture's message goes: the recording fits
        await ana.call("messages.delete", conversationId=cid, seq=shown["seq"])
        status, _, _, js = await put(srv, voice, ana.token)
        assert status == 201
        m = await ana.send_message(cid, {"kind": "audio", "audio": js["hash"], "durationMs": 9000})
        # ...and now a picture does not
        assert (await put(srv, big_png(2), ana.token))[3]["code"] == "quota_exceeded"
        # deleting the voice message deletes its file
        await ana.call("messages.delete", conversationId=cid, seq=m["seq"])
        files = list((srv.data_dir / "blobs").glob(f"{js['hash']}.*"))
        assert files == [], f"the recording stayed on disk: {files}"
        assert (await asyncio.to_thread(http_get, srv, f"/blobs/{js['hash']}"))[0] == 404
        assert (await put(srv, big_png(2), ana.token))[0] == 201


async def test_recordings_count_in_the_days_upload_bytes(server_factory):
    srv = server_factory(["--limit-upload-bytes", f"{len(WEBM) + 10}/60"])
    async with Env(srv) as env:
        ana = await env.register("Ana")
        assert (await put(srv, WEBM, ana.token))[0] == 201
        status, _, _, js = await put(srv, png_bytes(rgb=(1, 1, 1)), ana.token)
        assert status == 429 and js["code"] == "rate_limited"


async def test_the_admin_deleting_a_recording_deletes_its_messages(server):
    async with Env(server) as env:
        (ana, ben), cid = await room(env, "Ana", "Ben")
        data = padded(M4A, len(M4A) + 17)
        h = (await put(server, data, ana.token))[3]["hash"]
        m = await ana.send_message(cid, {"kind": "audio", "audio": h, "durationMs": 700})
        code, out = await cli(server, "delete-image", h)
        assert code == 0 and out["result"]["deletedMessages"] == 1, out
        assert (await asyncio.to_thread(http_get, server, f"/blobs/{h}"))[0] == 404
        assert not list((server.data_dir / "blobs").glob(f"{h}.*"))
        gone = [x for x in (await ben.history(cid))["messages"] if x["seq"] == m["seq"]]
        assert gone and gone[0]["kind"] == "deleted"


async def test_a_voice_message_sent_on_one_node_plays_from_another(cluster):  # noqa: F811
    _, nodes = cluster
    async with envs_on(nodes) as envs:
        ana = await envs[0].register("Ana")
        ben = await envs[1].register("Ben")
        cid, _ = await envs[0].conversation(ana, ben)
        await ben.subscribe(cid)
        h = (await put(nodes[0], WEBM, ana.token))[3]["hash"]
        m = await ana.send_message(cid, {"kind": "audio", "audio": h, "durationMs": 640})
        ev = (await ben.wait_message(cid, m["seq"], timeout=15))["message"]
        assert (ev["kind"], ev["audio"], ev["durationMs"]) == ("audio", h, 640)
        status, headers, body = await asyncio.to_thread(http_get, nodes[2], f"/blobs/{h}")
        assert status == 200 and body == WEBM and headers["content-type"].startswith("audio/webm")


@pytest.mark.transport_only
def test_the_host_page_may_record_and_play_back_before_the_upload(server):
    """The microphone for the host page alone (not its app frames), and blob: media, so a
    voice message waiting to be uploaded (offline) plays from the sender's own copy."""
    _, headers, _ = http_get(server, "/")
    assert "microphone=(self)" in headers["permissions-policy"]
    assert "media-src 'self' blob:" in headers["content-security-policy"]
    _, headers, _ = http_get(server, "/apps/testapp/index.html")
    assert "microphone=()" in headers["permissions-policy"]

"""Nothing acknowledged is lost: kill -9 mid-flight, and clean restarts."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import pytest

from client import Disconnected, Env, new_client_id

WRITERS = 4
PER_WRITER = 300
KILL_AFTER_ACKS = 400
WINDOW = 64


def text_of(client_id: str) -> str:
    return f"payload of {client_id}"


async def test_acknowledged_messages_survive_kill_9(server_factory):
    srv = server_factory(name="kill9")
    async with Env(srv) as env:
        writers = [await env.register(f"Writer {i}", label=f"w{i}") for i in range(WRITERS)]
        cid, _ = await env.conversation(writers[0], *writers[1:], title="durability")
        tokens = {w.uid: w.token for w in writers}

        acked: dict[tuple[str, str], int] = {}
        ack_problems: list[str] = []
        state = {"killed": False}

        def on_frame(f):
            if f.get("type") != "result" or "message" not in (f.get("result") or {}):
                return
            m = f["result"]["message"]
            key = (m.get("sender"), m.get("clientId"))
            if key in acked and acked[key] != m.get("seq"):
                ack_problems.append(f"{key} acknowledged twice with seqs {acked[key]} and {m.get('seq')}")
            acked[key] = m.get("seq")
            if not state["killed"] and len(acked) >= KILL_AFTER_ACKS:
                state["killed"] = True
                srv.kill()  # kill -9, with up to ~800 sends still in flight

        for w in writers:
            w.on_frame = on_frame

        async def writer(w):
            # pipelined, with at most WINDOW sends outstanding, so that the
            # kill lands while the server is still receiving and committing
            window = asyncio.Semaphore(WINDOW)
            futs = []
            for i in range(PER_WRITER):
                if w.closed:
                    break
                await window.acquire()
                cl = f"{w.label}-{i}"
                fut = await w.start("send", conversationId=cid, clientId=cl,
                                    message={"kind": "text", "text": text_of(cl)})
                fut.add_done_callback(lambda _f: window.release())
                futs.append(fut)
            return futs

        all_futs = [f for fs in await asyncio.gather(*(writer(w) for w in writers)) for f in fs]
        done = await asyncio.wait_for(asyncio.gather(*all_futs, return_exceptions=True), 60)
        assert state["killed"], f"only {len(acked)} acknowledgements arrived; never reached {KILL_AFTER_ACKS}"
        others = [d for d in done if isinstance(d, BaseException) and not isinstance(d, Disconnected)]
        assert not others, f"unexpected failures: {others[:3]}"
        errors = [d for d in done if isinstance(d, dict) and d.get("type") == "error"]
        assert not errors, f"sends refused before the kill: {errors[:3]}"
        assert not ack_problems, ack_problems
        n_acked = len(acked)
        assert n_acked < WRITERS * PER_WRITER, "the kill did not land mid-flight"

    srv.start()  # same data directory
    async with Env(srv) as env:
        reader = await env.login(tokens[writers[0].uid], label="reader")
        hist = await reader.history_all(cid)
        seqs = [m["seq"] for m in hist]
        assert seqs == list(range(1, len(hist) + 1)), (
            f"seqs after restart are not 1..N gapless: len {len(hist)}, "
            f"missing {sorted(set(range(1, max(seqs or [0]) + 1)) - set(seqs))[:10]}, "
            f"dups {sorted({s for s in seqs if seqs.count(s) > 1})[:10]}"
        )
        stored = {}
        for m in hist:
            key = (m["sender"], m["clientId"])
            assert key not in stored, f"clientId stored twice: {key} at seqs {stored[key]} and {m['seq']}"
            stored[key] = m["seq"]
            assert m["text"] == text_of(m["clientId"]), f"content changed: {m}"
        lost = {k: v for k, v in acked.items() if k not in stored}
        assert not lost, f"{len(lost)} of {n_acked} acknowledged messages lost after kill -9, e.g. {list(lost.items())[:5]}"
        moved = {k: (v, stored[k]) for k, v in acked.items() if stored[k] != v}
        assert not moved, f"acknowledged messages changed seq (acked, stored): {list(moved.items())[:5]}"
        assert len(hist) >= n_acked
        print(f"kill -9 after {n_acked} acks of {WRITERS * PER_WRITER} sent; {len(hist)} stored after restart")

        # every writer retries everything it has not seen acknowledged, and a
        # few it has: the retries of stored ones return the original seq
        conns = {uid: await env.login(tok, label=f"retry-{uid[-4:]}") for uid, tok in tokens.items()}
        futs, keys = [], []
        for w in writers:
            c = conns[w.uid]
            for i in range(PER_WRITER):
                cl = f"{w.label}-{i}"
                key = (w.uid, cl)
                if key in acked and i % 10 != 0:
                    continue
                keys.append(key)
                futs.append(await c.start("send", conversationId=cid, clientId=cl,
                                          message={"kind": "text", "text": text_of(cl)}))
        frames = await asyncio.wait_for(asyncio.gather(*futs), 60)
        bad = [f for f in frames if f["type"] != "result"]
        assert not bad, f"retries after restart failed: {bad[:3]}"
        for key, f in zip(keys, frames):
            seq = f["result"]["message"]["seq"]
            if key in stored:
                assert seq == stored[key], f"retry of stored {key} got seq {seq}, stored at {stored[key]}"

        final = await reader.history_all(cid)
        assert [m["seq"] for m in final] == list(range(1, WRITERS * PER_WRITER + 1))
        assert len({(m["sender"], m["clientId"]) for m in final}) == WRITERS * PER_WRITER
        for k, v in acked.items():
            assert final[v - 1]["clientId"] == k[1] and final[v - 1]["sender"] == k[0]


test_acknowledged_messages_survive_kill_9.timeout = 120


def app_msg(url, session, summary=None):
    m = {"kind": "app", "appId": "testapp", "url": url, "layout": {"caption": "list"}, "session": session}
    if summary:
        m["summaryText"] = summary
    return m


async def test_restart_restores_users_conversations_sessions(server_factory):
    srv = server_factory(name="restart")
    async with Env(srv) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        for c in (ana, ben):
            await c.call("apps.install", appId="testapp")
        cid, invite = await env.conversation(ana, ben, title="Kept across restarts")
        await ana.send_text(cid, "one")
        await ben.send_text(cid, "two")
        s1 = await ana.send_message(cid, app_msg("?list=a", {"id": "s1"}, summary="Ana made a list"))
        assert s1["session"]["version"] == 1
        inv2 = (await ben.call("invites.create", conversationId=cid))["invite"]
        hist_before = await ana.history_all(cid)
        conv_before = [c for c in (await ana.call("conversations.list"))["conversations"] if c["id"] == cid][0]

    assert srv.stop(), "parlor did not exit within 10 s of SIGTERM"
    srv.start()

    async with Env(srv) as env:
        ana2 = await env.login(ana.token, label="ana-after")
        assert ana2.user == ana.user
        assert ana2.installed_apps == ["testapp"]
        ben2 = await env.login(ben.token, label="ben-after")
        assert ben2.user == ben.user
        conv_after = [c for c in (await ben2.call("conversations.list"))["conversations"] if c["id"] == cid]
        assert conv_after, "conversation lost on restart"
        conv_after = conv_after[0]
        for k in ("id", "title", "createdAt", "lastSeq"):
            assert conv_after[k] == conv_before[k], f"{k}: {conv_before[k]!r} -> {conv_after[k]!r}"
        assert sorted(conv_after["members"], key=lambda m: m["userId"]) == sorted(
            conv_before["members"], key=lambda m: m["userId"])
        assert await ana2.history_all(cid) == hist_before

        await ana2.subscribe(cid)
        s2 = await ben2.send_message(cid, app_msg("?list=a,b", {"id": "s1", "baseVersion": 1}))
        assert s2["session"] == {"id": "s1", "version": 2}
        assert s2["seq"] == conv_before["lastSeq"] + 1
        ev = await ana2.wait_message(cid, seq=s2["seq"])
        assert ev["supersedes"] == {"seq": s1["seq"], "summary": "Ana made a list"}
        await ana2.expect_error("send", "session_conflict", conversationId=cid, clientId=new_client_id(),
                                message=app_msg("?list=stale", {"id": "s1", "baseVersion": 1}))

        # invite codes survive too
        cara = await env.register("Cara")
        j = (await cara.call("conversations.join", invite=invite))["conversation"]
        assert cara.uid in [m["userId"] for m in j["members"]]
        dan = await env.register("Dan")
        await dan.call("conversations.join", invite=inv2)
        bad = await env.connect(label="bad")
        await bad.expect_error("auth", "invalid_token", token="A" * 43)

    # and after kill -9
    srv.kill()
    srv.start()
    async with Env(srv) as env:
        ana3 = await env.login(ana.token, label="ana-after-kill")
        s3 = await ana3.send_message(cid, app_msg("?list=a,b,c", {"id": "s1", "baseVersion": 2}))
        assert s3["session"] == {"id": "s1", "version": 3}
        hist = {m["seq"]: m for m in await ana3.history_all(cid)}
        assert hist[s1["seq"]]["supersededBy"] == s2["seq"]
        assert hist[s2["seq"]]["supersededBy"] == s3["seq"]
        members = {m["userId"] for c in (await ana3.call("conversations.list"))["conversations"]
                   if c["id"] == cid for m in c["members"]}
        assert members == {ana.uid, ben.uid, cara.uid, dan.uid}
        assert hist[s2["seq"]]["summary"] == "Ben played Test App"


@pytest.mark.sqlite_only
async def test_a_backup_while_the_server_runs_loses_nothing(server_factory):
    """parlor-backup (sqlite3 in a process of its own) reads the database while the
    server runs, after a checkpoint round (a deletion starts one): its close must leave
    the server's WAL alone. It once took itself for the last connection and deleted the
    WAL, and what the server acknowledged after that was gone at its next start."""
    srv = server_factory(name="backup-while-running")
    async with Env(srv) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben)
        gone = await ana.send_text(cid, "to be deleted")
        await ana.call("messages.delete", conversationId=cid, seq=gone["seq"])
        wal = srv.data_dir / "parlor.sqlite-wal"
        deadline = time.monotonic() + 10
        while wal.stat().st_size > 0:  # the deletion's round has run (the WAL emptied)
            assert time.monotonic() < deadline, "no checkpoint round after the deletion"
            await asyncio.sleep(0.05)
        copy = srv.data_dir.parent / "copy.sqlite"
        read = subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                               "b = sqlite3.connect(sys.argv[2]); c.backup(b); b.close(); c.close()",
                               str(srv.data_dir / "parlor.sqlite"), str(copy)], capture_output=True, text=True)
        assert read.returncode == 0, read.stderr
        assert wal.exists(), "the backup's close deleted the running server's WAL"
        kept = await ana.send_text(cid, "sent after the backup")
    srv.kill()
    srv.start()
    async with Env(srv) as env:
        again = await env.login(ana.token, label="after-kill")
        texts = [m.get("text") for m in await again.history_all(cid)]
        assert "sent after the backup" in texts, f"acknowledged seq {kept['seq']} lost: {texts}"

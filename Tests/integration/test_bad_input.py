"""Bad input gets a clear error and changes nothing; everyone else keeps going.

Every case checks: the documented error (or close code), that nothing was
stored (the conversation list is unchanged and the next valid message gets
exactly the next seq), that the offending connection still works (unless the
contract closes it), and that another connected member still receives live
messages.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time

import pytest

from client import Client, Env, new_client_id
from rawws import ws_handshake
from conftest import run


# --------------------------------------------------------------------------- shared world


@pytest.fixture(scope="module")
def world(server):
    async def setup():
        async with Env(server) as env:
            ana = await env.register("Ana")
            ben = await env.register("Ben")
            cara = await env.register("Cara")  # never a member
            await ana.call("apps.install", appId="testapp")
            cid, invite = await env.conversation(ana, ben, title="Bad input room")
            await ana.send_text(cid, "first")
            return {
                "ana": ana.token, "ben": ben.token, "cara": cara.token,
                "ana_uid": ana.uid, "ben_uid": ben.uid, "cara_uid": cara.uid,
                "cid": cid, "invite": invite,
            }

    return run(setup())


class Scene:
    """ana (the offender's account), ben (a bystander, subscribed) and a snapshot."""

    def __init__(self, env, world):
        self.env, self.w = env, world

    async def open(self):
        self.ana = await self.env.login(self.w["ana"], label="ana")
        self.ben = await self.env.login(self.w["ben"], label="ben")
        await self.ben.subscribe(self.w["cid"])
        self.before = await self.snapshot()
        return self

    async def snapshot(self):
        watcher = await self.env.login(self.w["ana"], label="snap")
        convs = (await watcher.call("conversations.list"))["conversations"]
        await watcher.close()
        return sorted(convs, key=lambda c: c["id"])

    async def assert_unaffected(self, conn: Client | None):
        """Nothing stored; `conn` (if still open) and the bystander keep working."""
        cid = self.w["cid"]
        after = await self.snapshot()
        assert after == self.before, f"bad input changed state:\nbefore {self.before}\nafter  {after}"
        last = [c for c in self.before if c["id"] == cid][0]["lastSeq"]
        sender = conn if conn is not None else await self.env.login(self.w["ana"], label="ana-again")
        m = await sender.send_text(cid, "valid after bad input")
        assert m["seq"] == last + 1, "the bad input stored something (seq skipped)"
        ev = await self.ben.wait_message(cid, seq=m["seq"])
        assert ev["message"]["text"] == "valid after bad input"
        assert not self.ben.closed


def long(n, ch="a"):
    return ch * n


def send(cid, message, **over):
    f = {"type": "send", "id": "bad-1", "conversationId": cid, "clientId": new_client_id(), "message": message}
    f.update(over)
    return f


def without(d, key):
    d = dict(d)
    d.pop(key)
    return d


def app(**fields):
    m = {"kind": "app", "appId": "testapp", "url": "?ok=1"}
    m.update(fields)
    return m


# (name, frame(world) -> str | dict, expected codes, expected field or None)
CASES = [
    ("malformed_json", lambda w: '{"type":"send",', {"bad_json"}, None),
    ("truncated_string", lambda w: '{"type":"conversations.list","id":"x', {"bad_json"}, None),
    ("trailing_garbage", lambda w: '{"type":"conversations.list","id":"x"} }', {"bad_json"}, None),
    ("empty_frame", lambda w: "", {"bad_json"}, None),
    ("json_array", lambda w: "[1,2,3]", {"bad_json"}, None),
    ("json_string", lambda w: '"hello"', {"bad_json"}, None),
    ("json_number", lambda w: "42", {"bad_json"}, None),
    ("json_null", lambda w: "null", {"bad_json"}, None),
    ("unknown_type", lambda w: {"type": "explode", "id": "bad-1"}, {"unknown_type"}, None),
    ("missing_type", lambda w: {"id": "bad-1", "conversationId": w["cid"]}, {"unknown_type"}, None),
    ("type_not_a_string", lambda w: {"type": 7, "id": "bad-1"}, {"unknown_type", "invalid_field"}, None),
    ("send_missing_conversation",
     lambda w: without(send(w["cid"], {"kind": "text", "text": "x"}), "conversationId"), {"invalid_field"}, "conversationId"),
    ("send_conversation_is_number",
     lambda w: send(w["cid"], {"kind": "text", "text": "x"}, conversationId=12), {"invalid_field"}, "conversationId"),
    ("send_missing_client_id",
     lambda w: without(send(w["cid"], {"kind": "text", "text": "x"}), "clientId"), {"invalid_field"}, "clientId"),
    ("send_empty_client_id",
     lambda w: send(w["cid"], {"kind": "text", "text": "x"}, clientId=""), {"invalid_field"}, "clientId"),
    ("send_client_id_65_chars",
     lambda w: send(w["cid"], {"kind": "text", "text": "x"}, clientId=long(65)), {"invalid_field", "too_long"}, "clientId"),
    ("send_client_id_is_number",
     lambda w: send(w["cid"], {"kind": "text", "text": "x"}, clientId=5), {"invalid_field"}, "clientId"),
    ("send_missing_message",
     lambda w: without(send(w["cid"], {}), "message"), {"invalid_field"}, "message"),
    ("send_message_is_string",
     lambda w: send(w["cid"], "hello"), {"invalid_field"}, "message"),
    ("send_unknown_kind",
     lambda w: send(w["cid"], {"kind": "video", "text": "x"}), {"invalid_field"}, "kind"),
    ("text_is_number", lambda w: send(w["cid"], {"kind": "text", "text": 5}), {"invalid_field"}, "text"),
    ("text_missing", lambda w: send(w["cid"], {"kind": "text"}), {"invalid_field"}, "text"),
    ("text_empty", lambda w: send(w["cid"], {"kind": "text", "text": ""}), {"invalid_field"}, "text"),
    # a bubble of nothing, or of boxes (a NUL, a terminal's escape), for everyone else
    ("text_blank", lambda w: send(w["cid"], {"kind": "text", "text": " \n\u200b\u2800 "}), {"invalid_field"}, "text"),
    ("text_nul", lambda w: send(w["cid"], {"kind": "text", "text": "a\u0000b"}), {"invalid_field"}, "text"),
    ("text_escape", lambda w: send(w["cid"], {"kind": "text", "text": "\u001b[31mred"}), {"invalid_field"}, "text"),
    ("text_c1", lambda w: send(w["cid"], {"kind": "text", "text": "a\u0085b\u007f"}), {"invalid_field"}, "text"),
    ("text_10001_chars",
     lambda w: send(w["cid"], {"kind": "text", "text": long(10001)}), {"too_long"}, "text"),
    ("app_missing_app_id", lambda w: send(w["cid"], without(app(), "appId")), {"invalid_field"}, "appId"),
    ("app_url_5001_chars",
     lambda w: send(w["cid"], app(url="?q=" + long(4998))), {"too_long"}, "url"),
    ("app_url_https_5001_chars",
     lambda w: send(w["cid"], app(url="https://example.com/?" + long(5001 - 21))), {"too_long"}, "url"),
    ("app_url_javascript",
     lambda w: send(w["cid"], app(url="javascript:alert(document.cookie)")), {"invalid_field"}, "url"),
    ("app_url_data",
     lambda w: send(w["cid"], app(url="data:text/html,<script>alert(1)</script>")), {"invalid_field"}, "url"),
    ("app_url_is_number", lambda w: send(w["cid"], app(url=7)), {"invalid_field"}, "url"),
    ("app_caption_301_chars",
     lambda w: send(w["cid"], app(layout={"caption": long(301)})), {"too_long"}, "caption"),
    ("app_trailing_subcaption_301_chars",
     lambda w: send(w["cid"], app(layout={"trailingSubcaption": long(301)})), {"too_long"}, "trailingSubcaption"),
    ("app_image_title_301_chars",
     lambda w: send(w["cid"], app(layout={"imageTitle": long(301)})), {"too_long"}, "imageTitle"),
    ("app_summary_301_chars",
     lambda w: send(w["cid"], app(summaryText=long(301))), {"too_long"}, "summaryText"),
    ("app_caption_escape",
     lambda w: send(w["cid"], app(layout={"caption": "\u001b[2Jwon"})), {"invalid_field"}, "caption"),
    ("app_image_subtitle_nul",
     lambda w: send(w["cid"], app(layout={"imageSubtitle": "a\u0000b"})), {"invalid_field"}, "imageSubtitle"),
    ("app_summary_delete_char",
     lambda w: send(w["cid"], app(summaryText="Ben won\u007f")), {"invalid_field"}, "summaryText"),
    ("app_layout_not_object",
     lambda w: send(w["cid"], app(layout="big")), {"invalid_field"}, "layout"),
    ("app_live_not_bool", lambda w: send(w["cid"], app(live="yes")), {"invalid_field"}, "live"),
    ("app_session_id_65_chars",
     lambda w: send(w["cid"], app(session={"id": long(65)})), {"invalid_field", "too_long"}, "id"),
    ("app_session_id_empty",
     lambda w: send(w["cid"], app(session={"id": ""})), {"invalid_field"}, "id"),
    ("app_session_base_version_string",
     lambda w: send(w["cid"], app(session={"id": "s", "baseVersion": "1"})), {"invalid_field"}, "baseVersion"),
    ("history_limit_0",
     lambda w: {"type": "history", "id": "bad-1", "conversationId": w["cid"], "limit": 0}, {"invalid_field"}, "limit"),
    ("history_limit_201",
     lambda w: {"type": "history", "id": "bad-1", "conversationId": w["cid"], "limit": 201}, {"invalid_field"}, "limit"),
    ("history_limit_string",
     lambda w: {"type": "history", "id": "bad-1", "conversationId": w["cid"], "limit": "10"}, {"invalid_field"}, "limit"),
    ("subscribe_after_seq_negative",
     lambda w: {"type": "subscribe", "id": "bad-1", "conversationId": w["cid"], "afterSeq": -1}, {"invalid_field"}, "afterSeq"),
    ("subscribe_after_seq_string",
     lambda w: {"type": "subscribe", "id": "bad-1", "conversationId": w["cid"], "afterSeq": "3"}, {"invalid_field"}, "afterSeq"),
    ("rename_empty", lambda w: {"type": "rename", "id": "bad-1", "name": ""}, {"invalid_field"}, "name"),
    ("rename_blank", lambda w: {"type": "rename", "id": "bad-1", "name": "   "}, {"invalid_field"}, "name"),
    ("rename_control_char", lambda w: {"type": "rename", "id": "bad-1", "name": "Ana\u0007"}, {"invalid_field"}, "name"),
    ("rename_newline", lambda w: {"type": "rename", "id": "bad-1", "name": "Ana\nB"}, {"invalid_field"}, "name"),
    ("rename_65_chars", lambda w: {"type": "rename", "id": "bad-1", "name": long(65)}, {"invalid_field", "too_long"}, "name"),
    ("rename_not_string", lambda w: {"type": "rename", "id": "bad-1", "name": ["Ana"]}, {"invalid_field"}, "name"),
    ("create_title_empty",
     lambda w: {"type": "conversations.create", "id": "bad-1", "title": ""}, {"invalid_field"}, "title"),
    ("create_title_101_chars",
     lambda w: {"type": "conversations.create", "id": "bad-1", "title": long(101)}, {"invalid_field", "too_long"}, "title"),
    ("create_title_missing",
     lambda w: {"type": "conversations.create", "id": "bad-1"}, {"invalid_field"}, "title"),
    ("join_invite_number", lambda w: {"type": "conversations.join", "id": "bad-1", "invite": 5}, {"invalid_field"}, "invite"),
    ("request_id_65_chars", lambda w: {"type": "conversations.list", "id": long(65)}, {"invalid_field"}, "id"),
    ("request_id_is_number", lambda w: {"type": "conversations.list", "id": 5}, {"invalid_field"}, "id"),
    ("request_id_missing", lambda w: {"type": "conversations.list"}, {"invalid_field"}, "id"),
    ("auth_again", lambda w: {"type": "auth", "id": "bad-1", "token": w["ana"]}, {"already_authenticated"}, None),
    ("register_again", lambda w: {"type": "register", "id": "bad-1", "name": "Eve"}, {"already_authenticated"}, None),
]


def field_matches(got, expected):
    if got is None:
        return False
    last = str(got).replace("/", ".").replace("[", ".").split(".")[-1]
    return last == expected


@pytest.mark.parametrize("name,make,codes,field", CASES, ids=[c[0] for c in CASES])
async def test_bad_frame(server, world, name, make, codes, field):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        frame = make(world)
        if isinstance(frame, dict):
            await s.ana.send_json(frame)
        else:
            await s.ana.send_raw(frame)
        rid = frame.get("id") if isinstance(frame, dict) else None
        if isinstance(rid, str) and 1 <= len(rid) <= 64:
            # the answer carries the request's id as `re`; the client routes
            # it to the event queue because the request was sent raw
            err = await s.ana.wait_for(lambda e: e.get("re") == rid, desc=f"answer to {name}")
        else:
            err = await s.ana.wait_for(lambda e: e.get("type") == "error", desc=f"error for {name}")
        assert err.get("type") == "error", f"{name}: expected an error, got {err}"
        assert err.get("code") in codes, f"{name}: expected {sorted(codes)}, got {err}"
        assert isinstance(err.get("message"), str) and err["message"], f"{name}: error without a message: {err}"
        if field is not None:
            assert field_matches(err.get("field"), field), f"{name}: `field` should name {field!r}: {err}"
        assert not s.ana.closed, f"{name}: the connection must stay open (closed with {s.ana.close_code})"
        await s.assert_unaffected(s.ana)


async def test_limits_are_inclusive(server, world):
    """Exactly at the limit is fine; limits count characters, not bytes."""
    async with Env(server) as env:
        s = await Scene(env, world).open()
        cid = world["cid"]
        m = await s.ana.send_text(cid, long(10000, "é"))
        assert m["text"] == long(10000, "é")
        # line breaks and tabs are a text's own
        m = await s.ana.send_text(cid, "  two\r\nlines\tand a tab\n")
        assert m["text"] == "  two\r\nlines\tand a tab\n"
        url = "?q=" + long(4997)
        assert len(url) == 5000
        m = await s.ana.send_message(cid, app(url=url, layout={"caption": long(300, "é"), "subcaption": long(300)},
                                              summaryText=long(300)))
        assert m["url"] == url and m["layout"]["caption"] == long(300, "é")
        hurl = "https://example.com/x?" + long(5000 - 22)
        assert len(hurl) == 5000
        m = await s.ana.send_message(cid, app(url=hurl))
        assert m["url"] == hurl
        m = await s.ana.send_message(cid, app(session={"id": long(64)}))
        assert m["session"]["id"] == long(64)
        m = await s.ana.send_text(cid, "x", client_id=long(64, "c"))
        assert m["clientId"] == long(64, "c")
        n = await env.register(long(64, "n"))
        assert n.name == long(64, "n")
        r = await s.ana.call("conversations.create", title=long(100, "t"))
        assert r["conversation"]["title"] == long(100, "t")
        r = await s.ana.call("history", conversationId=cid, limit=200)
        assert r["messages"]


# --------------------------------------------------------------------------- auth


async def test_requests_before_auth(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        anon = await env.connect(label="anon")
        cid = world["cid"]
        await anon.expect_error("conversations.list", "not_authenticated")
        await anon.expect_error("send", "not_authenticated", conversationId=cid, clientId=new_client_id(),
                                message={"kind": "text", "text": "sneaky"})
        await anon.expect_error("subscribe", "not_authenticated", conversationId=cid)
        await anon.expect_error("history", "not_authenticated", conversationId=cid)
        await anon.expect_error("conversations.join", "not_authenticated", invite=world["invite"])
        await anon.expect_error("apps.install", "not_authenticated", appId="testapp")
        # the connection still works: authenticate, then use it
        r = await anon.call("auth", token=world["ana"])
        assert r["user"]["id"] == world["ana_uid"]
        await s.assert_unaffected(anon)


async def test_requests_sent_right_behind_the_credential_are_answered_as_signed_in(server, world):
    """The web client sends conversations.list with its auth, before the answer (a reload
    shows the list a round trip sooner): the server takes a connection's frames in order,
    so they are answered as signed in, or refused with the credential."""
    async with Env(server) as env:
        s = await Scene(env, world).open()
        c = await env.connect(label="pipelined")
        answers = await c.start_burst([("auth", {"token": world["ana"]}), ("conversations.list", {}),
                                       ("history", {"conversationId": world["cid"]})])
        signed, listed, page = [await asyncio.wait_for(f, 10) for f in answers]
        assert signed["result"]["user"]["id"] == world["ana_uid"]
        assert world["cid"] in [x["id"] for x in listed["result"]["conversations"]], listed
        assert page["type"] == "result", page
        refused = await env.connect(label="pipelined-refused")
        answers = await refused.start_burst([("auth", {"token": "x" * 43}), ("conversations.list", {})])
        bad, behind = [await asyncio.wait_for(f, 10) for f in answers]
        assert (bad.get("code"), behind.get("code")) == ("invalid_token", "not_authenticated"), (bad, behind)
        await s.assert_unaffected(c)


async def test_invalid_token_then_valid(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        c = await env.connect(label="typo")
        await c.expect_error("auth", "invalid_token", token="x" * 43)
        await c.expect_error("auth", {"invalid_token", "invalid_field"}, token="")
        r = await c.call("auth", token=world["ana"])
        assert r["user"]["id"] == world["ana_uid"]
        await s.assert_unaffected(c)


async def test_three_failed_auths_close_4001(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        c = await env.connect(label="guesser")
        futs = [await c.start("auth", token=f"{i}" * 43) for i in range(3)]
        code = await c.wait_closed(10)
        assert code == 4001, f"expected close 4001 after three failed auths, got {code} ({c.close_reason!r})"
        answers = await asyncio.gather(*futs, return_exceptions=True)
        for a in answers[:2]:
            assert isinstance(a, dict) and a.get("code") == "invalid_token", f"each failed auth is answered: {answers}"
        await s.assert_unaffected(s.ana)


async def test_register_bad_names(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        c = await env.connect(label="newbie")
        await c.expect_error("register", "invalid_field", name="")
        await c.expect_error("register", "invalid_field", name="  \t ")
        await c.expect_error("register", "invalid_field", name="Eve\u0000")
        await c.expect_error("register", {"invalid_field", "too_long"}, name=long(65))
        await c.expect_error("register", "invalid_field")
        # one letter and 20,000 accents was one character of 40 KB: a few hundred such
        # members made every answer listing them pass the slow-consumer bound
        await c.expect_error("register", "too_long", name="A" + "\u0301" * 2_000)
        await s.ana.expect_error("conversations.rename", "too_long", conversationId=world["cid"], title="Z" + "\u0301" * 500)
        family = "\U0001F469\U0001F3FB\u200D\U0001F469\U0001F3FB\u200D\U0001F467\U0001F3FB\u200D\U0001F466\U0001F3FB"
        r = await c.call("register", name="Eve " + family * 12)  # emoji still fit
        assert r["user"]["name"] == "Eve " + family * 12
        await s.assert_unaffected(s.ana)


# --------------------------------------------------------------------------- membership


async def test_invalid_invite(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        cara = await env.login(world["cara"], label="cara")
        for bad in ("nope", world["invite"] + "x", world["invite"][:-1], "../" + world["invite"]):
            await cara.expect_error("conversations.join", "invalid_invite", invite=bad)
        convs = (await cara.call("conversations.list"))["conversations"]
        assert world["cid"] not in [c["id"] for c in convs]
        await cara.expect_error("history", "not_member", conversationId=world["cid"])
        await s.assert_unaffected(s.ana)


async def test_not_member_cannot_read_or_write(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        cara = await env.login(world["cara"], label="cara")
        cid = world["cid"]
        targets = [cid, "cdoesnotexist", "c" + cid[1:][::-1], ""]
        for target in targets:
            codes = {"not_member"} if target else {"not_member", "invalid_field"}
            await cara.expect_error("send", codes, conversationId=target, clientId=new_client_id(),
                                    message={"kind": "text", "text": "let me in"})
            await cara.expect_error("subscribe", codes, conversationId=target)
            await cara.expect_error("history", codes, conversationId=target)
            await cara.expect_error("invites.create", codes, conversationId=target)
            await cara.expect_error("participants", codes, conversationId=target, appId="testapp")
        await cara.expect_error("send", "not_member", conversationId=cid, clientId=new_client_id(),
                                message={"kind": "app", "appId": "testapp", "url": "?x=1", "session": {"id": "s"}})
        # nothing leaked: a message sent now reaches Ben but never Cara
        await s.assert_unaffected(s.ana)
        assert not [e for e in cara.log if e.get("type") in ("message", "presence", "member")], cara.log
        # and a not-member error looks the same whether or not the conversation exists
        e1 = await cara.expect_error("history", "not_member", conversationId=cid)
        e2 = await cara.expect_error("history", "not_member", conversationId="cdoesnotexist")
        assert e1["message"] == e2["message"]


# --------------------------------------------------------------------------- transport


async def test_frame_over_64k_closes_1009(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        big = await env.login(world["ana"], label="big")
        frame = json.dumps(send(world["cid"], {"kind": "text", "text": long(70 * 1024)}))
        assert len(frame) > 64 * 1024
        try:
            await big.send_raw(frame)
        except Exception:
            pass  # the server may close while we are still writing
        code = await big.wait_closed(10)
        assert code == 1009, f"expected close 1009, got {code} ({big.close_reason!r})"
        await s.assert_unaffected(s.ana)


async def test_frame_under_64k_is_answered(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        f = send(world["cid"], {"kind": "text", "text": long(60 * 1024)})
        assert len(json.dumps(f)) < 64 * 1024
        await s.ana.send_json(f)
        err = await s.ana.wait_for(lambda e: e.get("re") == "bad-1", desc="answer")
        assert err["type"] == "error" and err["code"] == "too_long"
        assert not s.ana.closed
        await s.assert_unaffected(s.ana)


async def test_fragmented_messages(server, world):
    """A request split over continuation frames works; a fragmented message over 64 KiB is refused."""
    async with Env(server) as env:
        s = await Scene(env, world).open()
        cid = world["cid"]
        text = json.dumps({"type": "history", "id": "frag-1", "conversationId": cid, "limit": 1})
        await s.ana.ws.send([text[:10], text[10:30], text[30:]])
        r = await s.ana.wait_for(lambda e: e.get("re") == "frag-1", desc="answer to fragmented request")
        assert r["type"] == "result", r
        big = await env.login(world["ana"], label="bigfrag")
        frame = json.dumps(send(cid, {"kind": "text", "text": long(90 * 1024)}))
        try:
            await big.ws.send([frame[i:i + 16 * 1024] for i in range(0, len(frame), 16 * 1024)])
        except Exception:
            pass
        code = await big.wait_closed(10)
        assert code == 1009, f"a 90 KiB message in 16 KiB fragments: expected 1009, got {code}"
        await s.assert_unaffected(s.ana)


async def test_invalid_utf8_closes_1007(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        bad = await env.login(world["ana"], label="utf8")
        payload = json.dumps(send(world["cid"], {"kind": "text", "text": "PLACEHOLDER"})).encode()
        payload = payload.replace(b"PLACEHOLDER", b"caf\xc3 \xff\xfe")
        await bad.send_raw(payload, text=True)
        code = await bad.wait_closed(10)
        assert code == 1007, f"expected close 1007, got {code} ({bad.close_reason!r})"
        await s.assert_unaffected(s.ana)


async def test_half_an_emoji_escaped_alone_is_stored_as_a_replacement_character(server, world):
    """What a browser's JSON.stringify writes of a string cut in the middle of an emoji
    (an app's line shortened with slice): refused whole as bad_json with no id, its
    message stayed "Sending…" for good. It is stored, the half read as U+FFFD."""
    async with Env(server) as env:
        s = await Scene(env, world).open()
        f = send(world["cid"], {"kind": "text", "text": "PLACEHOLDER"}, id="half-1")
        await s.ana.send_raw(json.dumps(f).replace("PLACEHOLDER", "pizza \\ud83c"), text=True)
        r = await s.ana.wait_for(lambda e: e.get("re") == "half-1", desc="the answer")
        assert r["type"] == "result", r
        stored = (await s.ana.call("history", conversationId=world["cid"], limit=1))["messages"][-1]
        assert stored["seq"] == r["result"]["message"]["seq"] and stored["text"] == "pizza \ufffd", stored


async def test_binary_frame_closes_1003(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        bad = await env.login(world["ana"], label="binary")
        await bad.send_raw(json.dumps(send(world["cid"], {"kind": "text", "text": "bin"})).encode(), text=False)
        code = await bad.wait_closed(10)
        assert code == 1003, f"expected close 1003, got {code} ({bad.close_reason!r})"
        await s.assert_unaffected(s.ana)


async def expect_refused(server, origin):
    """The upgrade is refused with HTTP 403 before any WebSocket exists."""
    status, head = raw_handshake(server.port, f"Origin: {origin}\r\nSec-WebSocket-Protocol: parlor.v1\r\n")
    assert " 403 " in status + " ", f"Origin {origin}: expected HTTP 403, got {head!r}"
    try:
        c = await Client.connect(server.ws_url, origin=origin, label="evil")
    except Exception:
        return  # the client cannot open it either
    await c.close()
    raise AssertionError(f"a WebSocket handshake with Origin {origin!r} was accepted")


async def test_origin_check(server, world):
    async with Env(server) as env:
        s = await Scene(env, world).open()
        for origin in ("http://evil.example", f"http://127.0.0.1:{server.port}.evil.example",
                       "http://evil.example:80", "null", f"https://evil.example:{server.port}"):
            await expect_refused(server, origin)
        own = await env.connect(label="own-origin", origin=server.origin)
        r = await own.call("auth", token=world["ana"])
        assert r["user"]["id"] == world["ana_uid"]
        await s.assert_unaffected(own)


async def test_allowed_origin_flag(server_factory):
    srv = server_factory(extra_args=["--allowed-origin", "http://good.example"])
    async with Env(srv) as env:
        good = await env.connect(label="good", origin="http://good.example")
        r = await good.call("register", name="Good")
        assert r["user"]["name"] == "Good"
        own = await env.connect(label="own", origin=srv.origin)
        await own.call("auth", token=r["token"])
        await expect_refused(srv, "http://evil.example")
        await expect_refused(srv, "http://good.example.evil.example")


def raw_handshake(port, extra_headers=""):
    """(status line, response head) of an upgrade with these extra header lines."""
    headers = [h for h in extra_headers.split("\r\n") if h]
    _, head, sock = ws_handshake(port, headers=headers, subprotocol=False, timeout=10)
    sock.close()
    return (head.split("\r\n")[0] if head else ""), head


def test_subprotocol_required(server):
    status, head = raw_handshake(server.port, "Sec-WebSocket-Protocol: parlor.v1\r\n")
    assert " 101 " in status + " ", f"a proper handshake must succeed: {head!r}"
    assert "sec-websocket-protocol: parlor.v1" in head.lower(), f"the server must select parlor.v1: {head!r}"
    status, head = raw_handshake(server.port)
    assert " 101 " not in status + " ", f"a handshake without parlor.v1 must be refused: {head!r}"
    status, head = raw_handshake(server.port, "Sec-WebSocket-Protocol: chat, superchat\r\n")
    assert " 101 " not in status + " ", f"a handshake with other subprotocols must be refused: {head!r}"


@pytest.mark.transport_only
async def test_no_auth_within_5s_closes_4001(server, world):
    async with Env(server) as env:
        idle_ok = await env.login(world["ana"], label="authed-idle")
        silent = await env.connect(label="silent")
        chatty = await env.connect(label="chatty")  # talks, but never authenticates
        t0 = time.monotonic()

        async def chatter():
            while not chatty.closed and time.monotonic() - t0 < 9:
                await chatty.expect_error("conversations.list", "not_authenticated")
                await asyncio.sleep(0.5)

        chat_task = asyncio.create_task(chatter())
        code = await silent.wait_closed(10)
        elapsed = time.monotonic() - t0
        assert code == 4001, f"expected 4001, got {code} ({silent.close_reason!r})"
        assert elapsed >= 4.0, f"closed after {elapsed:.1f}s, before the 5 s grace period"
        code = await chatty.wait_closed(10)
        assert code == 4001, f"a connection sending only unauthenticated requests: expected 4001, got {code}"
        try:
            await chat_task
        except Exception:
            pass
        # an authenticated connection is not affected by the timer
        assert not idle_ok.closed
        r = await idle_ok.call("conversations.list")
        assert world["cid"] in [c["id"] for c in r["conversations"]]


test_no_auth_within_5s_closes_4001.timeout = 30

#!/usr/bin/env python3
"""A tiny in-memory stand-in for Parlor's WebSocket protocol (docs/PROTOCOL.md),
only what the load generator uses: register, apps.install, conversations.create,
conversations.join, subscribe, send (text and app sessions) and message events.
It exists to test the benchmark harness when no Parlor binary is built
(`bench/run --parlor-bin mock`); its figures mean nothing.
Usage: mock_parlor.py PORT"""
import asyncio
import itertools
import json
import secrets
import sys
import time

from websockets.asyncio.server import broadcast, serve

port = int(sys.argv[1]) if len(sys.argv) > 1 else 9100
ids = itertools.count(1)
convs = {}    # id -> dict(members=[(uid,name)], subs=set(), seq=int, sessions={})
invites = {}  # code -> conv id


def conv_obj(c):
    return {"id": c["id"], "title": c["title"], "createdAt": c["createdAt"], "lastSeq": c["seq"],
            "members": [{"userId": u, "name": n} for u, n in c["members"]]}


async def handler(ws):
    user = None
    subs = set()
    try:
        async for raw in ws:
            f = json.loads(raw)
            t, rid = f.get("type"), f.get("id")

            def result(r):
                return json.dumps({"type": "result", "re": rid, "result": r})

            def error(code):
                return json.dumps({"type": "error", "re": rid, "code": code, "message": code})

            if t == "register":
                user = ("u%d" % next(ids), f["name"])
                await ws.send(result({"user": {"id": user[0], "name": user[1]},
                                      "token": secrets.token_urlsafe(32), "installedApps": []}))
            elif user is None:
                await ws.send(error("not_authenticated"))
            elif t == "apps.install":
                await ws.send(result({"installedApps": [f["appId"]]}))
            elif t == "conversations.create":
                cid = "c%d" % next(ids)
                c = convs[cid] = {"id": cid, "title": f["title"], "createdAt": int(time.time() * 1000),
                                  "members": [user], "subs": set(), "seq": 0, "sessions": {}}
                code = secrets.token_urlsafe(12)
                invites[code] = cid
                await ws.send(result({"conversation": conv_obj(c), "invite": code}))
            elif t == "conversations.join":
                cid = invites.get(f.get("invite"))
                if not cid:
                    await ws.send(error("invalid_invite"))
                    continue
                c = convs[cid]
                if user not in c["members"]:
                    c["members"].append(user)
                    broadcast(c["subs"], json.dumps({"type": "member", "conversationId": cid,
                                                     "member": {"userId": user[0], "name": user[1]}}))
                await ws.send(result({"conversation": conv_obj(c)}))
            elif t == "subscribe":
                c = convs.get(f.get("conversationId"))
                if not c or user not in c["members"]:
                    await ws.send(error("not_member"))
                    continue
                c["subs"].add(ws)
                subs.add(c["id"])
                await ws.send(result({"conversation": conv_obj(c), "lastSeq": c["seq"], "resync": False}))
                await ws.send(json.dumps({"type": "presence", "conversationId": c["id"], "online": [user[0]]}))
            elif t == "send":
                c = convs.get(f.get("conversationId"))
                if not c or user not in c["members"]:
                    await ws.send(error("not_member"))
                    continue
                m = dict(f["message"])
                sess = m.pop("session", None)
                if sess:
                    cur = c["sessions"].get(sess["id"], 0)
                    if sess.get("baseVersion", 0) != cur:
                        await ws.send(json.dumps({"type": "error", "re": rid, "code": "session_conflict",
                                                  "message": "stale", "current": {
                                                      "session": {"id": sess["id"], "version": cur}}}))
                        continue
                    c["sessions"][sess["id"]] = cur + 1
                    m["session"] = {"id": sess["id"], "version": cur + 1}
                c["seq"] += 1
                m.update(seq=c["seq"], clientId=f["clientId"], sender=user[0],
                         createdAt=int(time.time() * 1000))
                broadcast(c["subs"], json.dumps({"type": "message", "conversationId": c["id"], "message": m}))
                await ws.send(result({"message": m}))
            else:
                await ws.send(error("unknown_type"))
    except Exception:
        pass
    finally:
        for cid in subs:
            convs[cid]["subs"].discard(ws)


async def main():
    async with serve(handler, "127.0.0.1", port, subprotocols=["parlor.v1"], compression=None,
                     ping_interval=None, max_queue=None):
        print(f"listening on http://127.0.0.1:{port}", flush=True)
        await asyncio.get_running_loop().create_future()


asyncio.run(main())

#!/usr/bin/env python3
"""Chat-room relay on Python `websockets` (asyncio): every text frame received
is broadcast() to every client connected on the same request path (the room),
the sender included. Usage: python_websockets_peer.py PORT (or env PORT)."""
import asyncio
import os
import sys

from websockets.asyncio.server import broadcast, serve

port = int(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PORT", "9004"))
rooms: dict[str, set] = {}


async def handler(ws):
    path = ws.request.path.split("?")[0] if ws.request else "/"
    room = rooms.setdefault(path, set())
    room.add(ws)
    try:
        async for message in ws:
            if isinstance(message, str):
                broadcast(room, message)
    except Exception:
        pass
    finally:
        room.discard(ws)
        if not room:
            rooms.pop(path, None)


async def main():
    async with serve(handler, "127.0.0.1", port, compression=None, max_size=16 << 20,
                     ping_interval=None, max_queue=None):
        print(f"listening on http://127.0.0.1:{port}", flush=True)
        await asyncio.get_running_loop().create_future()


asyncio.run(main())

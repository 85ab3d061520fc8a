#!/usr/bin/env python3
"""Chat-room relay on socketify (uWebSockets): every text frame received is
published to every client connected on the same request path (the room),
the sender included. Usage: socketify_peer.py PORT (or env PORT)."""
import os
import sys

from socketify import App, CompressOptions, OpCode

port = int(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PORT", "9001"))
app = App()


def upgrade(res, req, socket_context):
    key = req.get_header("sec-websocket-key")
    protocol = req.get_header("sec-websocket-protocol")
    extensions = req.get_header("sec-websocket-extensions")
    url = req.get_url() or "/"
    # The default room "/" carries no per-connection user data, so the idle
    # scenario measures uWS's own per-connection cost.
    res.upgrade(key, protocol, extensions, socket_context, None if url == "/" else url)


def ws_open(ws):
    room = ws.get_user_data() or "/"
    ws.subscribe(room)


def ws_message(ws, message, opcode):
    if opcode == OpCode.TEXT:
        app.publish(ws.get_user_data() or "/", message, opcode)


app.ws(
    "/*",
    {
        "compression": CompressOptions.DISABLED,
        "max_payload_length": 16 * 1024 * 1024,
        "idle_timeout": 0,
        "max_backpressure": 64 * 1024 * 1024,
        "upgrade": upgrade,
        "open": ws_open,
        "message": ws_message,
    },
)
app.listen(port, lambda config: print(f"listening on http://127.0.0.1:{port}", flush=True))
app.run()

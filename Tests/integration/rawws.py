"""WebSocket upgrades written by hand, for what a library client will not send: a
chosen source address, Host or Origin, no subprotocol, then raw frames."""

from __future__ import annotations

import base64
import os
import socket


def ws_handshake(port, *, source="127.0.0.1", origin=None, host=None, headers=(), subprotocol=True, timeout=5.0):
    """Sends an upgrade; returns (status or None, response head, the open socket)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    lines = ["GET /ws HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", *headers]
    if subprotocol:
        lines.append("Sec-WebSocket-Protocol: parlor.v1")
    if origin:
        lines.append(f"Origin: {origin}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = read_until(sock, lambda d: b"\r\n\r\n" in d)
    head = data.split(b"\r\n\r\n")[0].decode("latin-1")
    status = int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.") else None
    return status, head, sock


def read_until(sock, done=lambda data: False):
    """What the socket gives until `done(data)`, the peer closes, resets or goes quiet."""
    data = b""
    try:
        while not done(data):
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    return data


def text_frame(obj) -> bytes:
    """One masked text frame holding `obj` as JSON, as a client sends it."""
    import json

    payload = json.dumps(obj).encode()
    mask = os.urandom(4)
    n = len(payload)
    length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
    return bytes([0x81]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

"""TLS: with --tls-cert/--tls-key the server speaks https and wss through OpenSSL,
offering only HTTP/1.1 over ALPN."""

import json
import ssl
import subprocess
import urllib.request

import pytest

from websockets.asyncio.client import connect as ws_connect

# About the transport, not the store: runs once, on SQLite.
pytestmark = pytest.mark.transport_only


def _self_signed(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "2", "-subj", "/CN=localhost"],
        check=True, capture_output=True, timeout=60)
    return cert, key


def _client_context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


async def test_https_and_wss_with_http11_only(server_factory, tmp_path):
    cert, key = _self_signed(tmp_path)
    srv = server_factory(extra_args=["--tls-cert", str(cert), "--tls-key", str(key)])
    ctx = _client_context()

    with urllib.request.urlopen(f"https://127.0.0.1:{srv.port}/health", context=ctx, timeout=10) as r:
        assert r.status == 200
        assert json.loads(r.read()) == {"status": "ok"}

    # ALPN: asked for h2 and http/1.1, the server picks http/1.1.
    ctx_alpn = _client_context()
    ctx_alpn.set_alpn_protocols(["h2", "http/1.1"])
    import socket
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as raw:
        with ctx_alpn.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.selected_alpn_protocol() in (None, "http/1.1")

    async with ws_connect(f"wss://127.0.0.1:{srv.port}/ws", subprotocols=["parlor.v1"], ssl=ctx,
                          open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "register", "id": "1", "name": "Tess"}))
        reply = json.loads(await ws.recv())
        assert reply["type"] == "result" and reply["result"]["user"]["name"] == "Tess"

    # Plain HTTP to the TLS port is not served.
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{srv.port}/health", timeout=5)
        served_plain = True
    except Exception:
        served_plain = False
    assert not served_plain

"""HTTP: health, static files from Public/, image blobs."""

from __future__ import annotations

import base64
import hashlib
import os
import time
import http.client
import json
import re
import socket
import sqlite3
import struct
import zlib

import pytest

from client import Env, new_client_id
from conftest import SECRET_MARKER, run
from server import ParlorServer

MiB = 1024 * 1024


def http_get(server, path, headers=None, method="GET", body=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        conn.close()


def raw_request(server, head: bytes, body: bytes = b""):
    """Send a request over a raw socket, tolerating an early answer and close."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=15)
    try:
        sock.sendall(head)
        try:
            for i in range(0, len(body), 64 * 1024):
                sock.sendall(body[i:i + 64 * 1024])
        except (BrokenPipeError, ConnectionResetError):
            pass
        resp = http.client.HTTPResponse(sock)
        resp.begin()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        sock.close()


def upload(server, data: bytes, token: str | None, content_type="application/octet-stream"):
    headers = [f"POST /blobs HTTP/1.1", f"Host: 127.0.0.1:{server.port}",
               f"Content-Type: {content_type}", f"Content-Length: {len(data)}", "Connection: close"]
    if token is not None:
        headers.append(f"Authorization: Bearer {token}")
    head = ("\r\n".join(headers) + "\r\n\r\n").encode()
    status, hdrs, body = raw_request(server, head, data)
    try:
        js = json.loads(body) if body else None
    except ValueError:
        js = None
    return status, hdrs, body, js


def png_bytes(w=3, h=2, rgb=(200, 30, 90), level=-1) -> bytes:
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, level)) + chunk(b"IEND", b""))


GIF_1x1 = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
           b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


@pytest.fixture(scope="module")
def token(server):
    async def setup():
        async with Env(server) as env:
            c = await env.register("Uploader")
            return c.token

    return run(setup())


# --------------------------------------------------------------------------- static files


def test_health(server):
    status, headers, body = http_get(server, "/health")
    assert status == 200
    assert headers.get("content-type", "").startswith("application/json")
    assert json.loads(body) == {"status": "ok"}


def test_a_browser_carrying_its_parent_domains_cookies_is_served(server):
    """Parlor on chat.example.org gets example.org's cookies with every request: past
    4 KiB of headers lws dropped the connection unanswered, and neither the page nor
    its WebSocket opened. 10 KiB of cookies now pass, for the page and the upgrade."""
    from rawws import ws_handshake

    cookies = "; ".join(f"_ga{i}={'x' * 500}" for i in range(20))
    status, _, body = http_get(server, "/", headers={"Cookie": cookies})
    assert status == 200 and b"<html" in body
    status, _, sock = ws_handshake(server.port, origin=server.origin, headers=[f"Cookie: {cookies}"])
    sock.close()
    assert status == 101


def test_index_is_served(server, public_dir):
    status, headers, body = http_get(server, "/")
    assert status == 200
    assert headers.get("content-type", "").startswith("text/html"), headers
    # the file as written, its scripts and stylesheet named by version (below)
    plain = re.sub(rb'\?v=[0-9a-f]+-[0-9a-f]+"', b'"', body)
    plain = re.sub(rb'<script type="importmap">.*?</script>\n(  <link rel="modulepreload" [^>]*>\n)*  ', b"", plain)
    assert plain == (public_dir / "index.html").read_bytes()
    status, headers, body2 = http_get(server, "/index.html")
    assert status == 200 and body2 == body


def import_map(body: bytes) -> tuple[str, dict]:
    m = re.search(rb'<script type="importmap">(.*?)</script>', body)
    assert m, body[:600]
    return m.group(1).decode(), json.loads(m.group(1))["imports"]


def test_a_page_opened_again_asks_for_its_scripts_by_version_and_keeps_them(server, public_dir):
    """A phone opening Parlor again waited 2 s on 100 ms round trips while each of ~90
    modules was revalidated, one import level after another. The host page now names
    each script by its version in an import map (a relative import resolves, then
    maps), preloads them, and a script asked for by its current version is kept for
    good; a file changed on disk gets a new version, named by the next load."""
    status, headers, body = http_get(server, "/")
    text, imports = import_map(body)
    modules = sorted("/" + p.relative_to(public_dir).as_posix() for p in (public_dir / "js").rglob("*.js"))
    assert modules and all(m in imports for m in modules), set(modules) - set(imports)
    for path, named in imports.items():
        assert re.fullmatch(re.escape(path) + r"\?v=[0-9a-f]+-[0-9a-f]+", named), (path, named)
    # the entry script and the stylesheet are named by version too; modules are preloaded
    assert f'<script type="module" src="{imports["/js/main.js"]}">'.encode() in body
    assert re.search(rb'<link rel="stylesheet" href="/css/app.css\?v=[0-9a-f]+-[0-9a-f]+">', body)
    assert f'<link rel="modulepreload" href="{imports["/js/state/transcript.js"]}">'.encode() in body
    assert b"notices-worker.js?v=" not in body.split(b"</script>", 1)[1], "the service worker is no module"
    # the one inline script runs by its hash, and nothing else inline may
    policy = headers["content-security-policy"]
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}';" in policy, policy
    assert "unsafe-inline" not in policy.split("style-src")[0]

    # a script by its version is kept for good; by another (an older page's), revalidated
    status, h, got = http_get(server, imports["/js/main.js"])
    assert status == 200 and got == (public_dir / "js/main.js").read_bytes()
    assert h["cache-control"] == "public, max-age=31536000, immutable", h
    for other in ("/js/main.js?v=0-0", "/js/main.js"):
        assert http_get(server, other)[1]["cache-control"] == "no-cache"
    # the page itself is revalidated: same page, 304
    assert headers["cache-control"] == "no-cache" and headers["etag"].startswith('"')
    assert http_get(server, "/", headers={"If-None-Match": headers["etag"]})[0] == 304

    # a module added or changed under Public/ (an upgrade) is named anew by a load
    # within a second (the server looks at the files at most once a second)
    def page_once(wanted):
        deadline = time.monotonic() + 5
        while True:
            _, h, body = http_get(server, "/")
            imports = import_map(body)[1]
            if wanted(imports) or time.monotonic() > deadline:
                return h, imports
            time.sleep(0.1)

    added = public_dir / "js" / "_itest_added.js"
    odd = public_dir / "js" / '_itest_a"><b>.js'  # a name the page could not carry as it is
    try:
        odd.write_text("export const y = 2;\n")
        added.write_text("export const x = 1;\n")
        h2, imports2 = page_once(lambda i: "/js/_itest_added.js" in i)
        first = imports2["/js/_itest_added.js"]
        assert h2["etag"] != headers["etag"]
        added.write_text("export const x = 22;\n")
        _, imports3 = page_once(lambda i: i["/js/_itest_added.js"] != first)
        assert imports3["/js/_itest_added.js"] != first
        assert http_get(server, "/", headers={"If-None-Match": h2["etag"]})[0] == 200
        assert http_get(server, first)[1]["cache-control"] == "no-cache", "an old version is not kept for good"
        assert not [p for p in imports3 if '_itest_a"' in p] and b"<b>" not in http_get(server, "/")[2]
    finally:
        added.unlink()
        odd.unlink()


def test_an_apps_page_names_the_sdk_and_its_own_scripts_by_version(server, public_dir):
    """An app's page gets the same: its map names the SDK and the files of its own
    folder (as the page spells them, relative ones included), under the app's own
    sandboxing policy; a page with no module script is served as written."""
    status, headers, body = http_get(server, "/apps/wenderpic/index.html")
    text, imports = import_map(body)
    assert "/sdk/index.js" in imports and "/apps/wenderpic/views/draw.js" in imports, imports
    assert not [p for p in imports if not p.startswith(("/sdk/", "/apps/wenderpic/"))], "only its own and the SDK's"
    version = imports["/apps/wenderpic/app.js"].split("?v=")[1]
    assert f'<script type="module" src="app.js?v={version}">'.encode() in body
    assert re.search(rb'<link rel="stylesheet" href="style.css\?v=[0-9a-f]+-[0-9a-f]+">', body)
    policy = headers["content-security-policy"]
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    assert policy.startswith("sandbox allow-scripts;") and f"script-src 'self' 'sha256-{digest}' " in policy, policy
    # the server named by address too: WebKit lets 'self' match nothing in a sandboxed page
    host = f"127.0.0.1:{server.port}"
    assert f"script-src 'self' 'sha256-{digest}' http://{host} https://{host};" in policy, policy
    assert f"img-src 'self' http://{host} https://{host} data:" in policy, policy
    assert "frame-ancestors" in policy and headers["access-control-allow-origin"] == "*"
    status, h, got = http_get(server, imports["/sdk/index.js"])
    assert status == 200 and got == (public_dir / "sdk/index.js").read_bytes()
    assert h["cache-control"] == "public, max-age=31536000, immutable" and h["access-control-allow-origin"] == "*"
    status, h, got = http_get(server, "/apps/testapp/index.html")
    assert got == (public_dir / "apps/testapp/index.html").read_bytes() and h["cache-control"] == "no-cache"


@pytest.mark.parametrize("path,ctype", [
    ("/_itest/app.js", "text/javascript"),
    ("/_itest/style.css", "text/css"),
    ("/_itest/icon.svg", "image/svg+xml"),
    ("/_itest/site.webmanifest", "application/manifest+json"),
    ("/apps/testapp/manifest.json", "application/json"),
])
def test_content_types(server, public_dir, path, ctype):
    status, headers, body = http_get(server, path)
    assert status == 200, f"{path}: {status}"
    got = headers.get("content-type", "").split(";")[0].strip().lower()
    assert got == ctype, f"{path}: expected {ctype}, got {headers.get('content-type')!r}"
    assert body == (public_dir / path.lstrip("/")).read_bytes()


def test_a_page_opened_again_revalidates_its_files_instead_of_fetching_them(server, public_dir):
    """Each file of Public/ carries a validator (ETag), so a browser opening the page again
    is answered 304 without the file, on the same connection; a file replaced (an
    upgrade) gets a new validator and is sent whole."""
    path = "/_itest/app.js"
    status, headers, body = http_get(server, path)
    tag = headers.get("etag")
    assert status == 200 and tag and tag.startswith('"'), headers
    assert headers.get("cache-control") == "no-cache", headers  # revalidated each time, never used stale

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        for asked in (tag, f'"other", W/{tag}', "*"):
            conn.request("GET", path, headers={"If-None-Match": asked})
            resp = conn.getresponse()
            assert resp.status == 304, (asked, resp.status)
            assert resp.read() == b""
            assert resp.getheader("etag") == tag and resp.getheader("cache-control") == "no-cache"
            # the length stated is the file's (RFC 9110 §8.6), and the connection stays open
            assert resp.getheader("content-length") == str(len(body))
        conn.request("GET", path, headers={"If-None-Match": '"not-this-one"'})
        resp = conn.getresponse()
        assert resp.status == 200 and resp.read() == body
    finally:
        conn.close()

    # the file replaced under Public/: its old validator no longer matches
    time.sleep(0.01)
    (public_dir / "_itest" / "app.js").write_bytes(body + b"\n// v2\n")
    status, headers, body2 = http_get(server, path, headers={"If-None-Match": tag})
    assert status == 200 and body2.endswith(b"// v2\n") and headers.get("etag") not in (None, tag)
    (public_dir / "_itest" / "app.js").write_bytes(body)


def test_missing_file_is_404(server):
    status, _, body = http_get(server, "/no/such/file.html")
    assert status == 404


TRAVERSALS = [
    "/../secret.txt",
    "/../../secret.txt",
    "/apps/../../secret.txt",
    "/%2e%2e/secret.txt",
    "/%2E%2E/secret.txt",
    "/..%2fsecret.txt",
    "/%2e%2e%2fsecret.txt",
    "/apps/%2e%2e/%2e%2e/secret.txt",
    "/_itest/..%2f..%2fsecret.txt",
    "/..%5csecret.txt",
    "/.%2e/secret.txt",
    "/%252e%252e/secret.txt",
    "//../secret.txt",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_path_traversal_never_leaves_public(server, path):
    head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n".encode()
    try:
        status, _, body = raw_request(server, head)
    except (http.client.HTTPException, ConnectionError, socket.timeout):
        return  # refusing to answer at all is fine
    assert SECRET_MARKER.encode() not in body, f"{path} served a file outside Public/ (status {status})"


@pytest.mark.parametrize("path", ["/../../../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                                  "//etc/passwd", "/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd"])
def test_path_traversal_to_system_files(server, path):
    head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n".encode()
    try:
        status, _, body = raw_request(server, head)
    except (http.client.HTTPException, ConnectionError, socket.timeout):
        return
    assert b"root:" not in body, f"{path} served /etc/passwd"


def test_server_keeps_serving_after_traversal_attempts(server):
    for path in TRAVERSALS[:4]:
        head = f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
        try:
            raw_request(server, head)
        except Exception:
            pass
    status, _, body = http_get(server, "/health")
    assert status == 200


# --------------------------------------------------------------------------- blobs


def test_blob_upload_and_download(server, token):
    png = png_bytes()
    status, headers, body, js = upload(server, png, token)
    assert status == 201, f"upload: {status} {body[:300]!r}"
    digest = hashlib.sha256(png).hexdigest()
    assert js == {"hash": digest, "type": "image/png", "size": len(png)}

    status, headers, body = http_get(server, f"/blobs/{digest}")
    assert status == 200
    assert body == png
    assert headers.get("content-type", "").split(";")[0].strip() == "image/png"
    assert headers.get("x-content-type-options", "").lower() == "nosniff"
    cc = headers.get("cache-control", "")
    m = re.search(r"max-age=(\d+)", cc)
    assert (m and int(m.group(1)) >= 86400) or "immutable" in cc, f"a long cache lifetime expected, got {cc!r}"
    # kept by the browser, never by a shared cache in front of the server (a CDN)
    assert "private" in cc and "public" not in cc, cc
    blob_tag = headers.get("etag")
    # a page signing out clears what its browser kept (a shared computer)
    status, headers, _ = http_get(server, "/signed-out")
    assert status == 200 and headers.get("clear-site-data") == '"cache"' and headers.get("cache-control") == "no-store"

    # a blob never changes: asked again with its validator, it is not sent again
    status, headers304, body304 = http_get(server, f"/blobs/{digest}", headers={"If-None-Match": blob_tag})
    assert status == 304 and body304 == b"" and blob_tag and headers304.get("etag") == blob_tag, headers304
    assert "immutable" in headers304.get("cache-control", "")

    # uploading the same bytes again gives the same hash
    status, _, _, js2 = upload(server, png, token, content_type="image/png")
    assert status in (200, 201) and js2["hash"] == digest


def test_blob_types_by_content(server, token):
    status, _, body, js = upload(server, GIF_1x1, token, content_type="image/png")  # header lies
    assert status == 201, body
    assert js["type"] == "image/gif" and js["hash"] == hashlib.sha256(GIF_1x1).hexdigest()
    status, headers, data = http_get(server, f"/blobs/{js['hash']}")
    assert status == 200 and data == GIF_1x1
    assert headers.get("content-type", "").split(";")[0].strip() == "image/gif"


# A 3x2 JPEG as Chromium's canvas makes it (JFIF, an sRGB ICC profile, tables, one scan).
JPEG_3x2 = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCWAKZ//9k=")
# A 1x1 lossless WebP.
WEBP_1x1 = base64.b64decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
SECRETS = [b"SERIAL-0320", b"Canon EOS", b"GPSLatitude", b"12 Rue de Rivoli", b"2024:06:01"]


def exif_tiff(orientation=6):
    """A camera's EXIF (big-endian TIFF): make, model, orientation, time, a GPS position, a serial number."""
    def ifd(entries, base):
        out, data = struct.pack(">H", len(entries)), b""
        for tag, typ, count, val in sorted(entries):
            if len(val) <= 4:
                out += struct.pack(">HHI", tag, typ, count) + val.ljust(4, b"\0")
            else:
                out += struct.pack(">HHII", tag, typ, count, base + 2 + 12 * len(entries) + 4 + len(data))
                data += val + (b"\0" if len(val) % 2 else b"")
        return out + struct.pack(">I", 0) + data

    def text(s):
        return (2, len(s) + 1, s.encode() + b"\0")
    gps = ifd([(1, *text("N")), (2, 5, 1, struct.pack(">II", 48, 1)), (0x1B, *text("GPSLatitude 48.8567"))], 200)
    ifd0 = ifd([(0x010F, *text("Canon")), (0x0110, *text("Canon EOS 5D")), (0x0112, 3, 1, struct.pack(">H", orientation)),
                (0x0132, *text("2024:06:01 18:42:07")), (0xA431, *text("SERIAL-032021001234")),
                (0x8825, 4, 1, struct.pack(">I", 200))], 8)
    return b"MM\0\x2a" + struct.pack(">I", 8) + ifd0.ljust(192, b"\0") + gps


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def test_what_a_photo_says_of_where_and_with_what_is_not_stored(server, token):
    """A phone photo's EXIF (its GPS position, the camera's serial number, the time),
    XMP, comments and PNG or WebP text are taken out before the image is stored:
    every member, and whoever has its link, gets the file. How it is drawn stays (the
    orientation, the colour profile); its hash is the stored file's, so the original's
    says nothing of whether the server has it (a privacy review)."""
    xmp = b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:Description exif:GPSLatitude='48,51.4N'/></x:xmpmeta>"
    jpeg = (JPEG_3x2[:20] + segment(0xE1, b"Exif\0\0" + exif_tiff()) + segment(0xE1, xmp)
            + segment(0xED, b"Photoshop 3.0\0 12 Rue de Rivoli") + segment(0xFE, b"Canon EOS comment") + JPEG_3x2[20:])
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    plain_png = png_bytes()
    png = (plain_png[:33] + chunk(b"tEXt", b"Author\0Ana, 12 Rue de Rivoli") + chunk(b"eXIf", exif_tiff())
           + chunk(b"tIME", b"\x07\xe8\x06\x01\x12\x2a\x07") + plain_png[33:])
    exif = exif_tiff()
    body = (b"WEBP" + b"VP8X" + struct.pack("<I", 10) + bytes([0x08 | 0x04, 0, 0, 0]) + bytes(6) + WEBP_1x1[12:]
            + b"EXIF" + struct.pack("<I", len(exif)) + exif + b"XMP " + struct.pack("<I", len(xmp)) + xmp)
    webp = b"RIFF" + struct.pack("<I", len(body)) + body
    for name, original, mime in (("jpeg", jpeg, "image/jpeg"), ("png", png, "image/png"), ("webp", webp, "image/webp")):
        status, _, answer, js = upload(server, original, token)
        assert status == 201, f"{name}: {status} {answer[:200]!r}"
        status, _, stored = http_get(server, f"/blobs/{js['hash']}")
        assert status == 200 and js == {"hash": hashlib.sha256(stored).hexdigest(), "type": mime, "size": len(stored)}
        assert [s for s in SECRETS if s in stored] == [], f"{name} kept {[s for s in SECRETS if s in stored]}"
        assert http_get(server, f"/blobs/{hashlib.sha256(original).hexdigest()}")[0] == 404, name
        if name == "jpeg":
            # drawn the same: the scan, the tables and the colour profile as they were, and
            # the orientation as the only EXIF entry (a phone's portrait photo stays upright)
            assert stored.endswith(JPEG_3x2[JPEG_3x2.index(b"\xff\xdb"):]) and b"ICC_PROFILE" in stored
            app1 = stored.index(b"\xff\xe1")
            tiff = stored[app1 + 10:app1 + 2 + struct.unpack(">H", stored[app1 + 2:app1 + 4])[0]]
            assert tiff[:8] == b"MM\0\x2a\0\0\0\x08" and struct.unpack(">HHHI", tiff[8:18]) == (1, 0x0112, 3, 1)
            assert struct.unpack(">H", tiff[18:20])[0] == 6
        if name == "png":
            assert stored == plain_png
        if name == "webp":
            assert stored[20] & 0x0C == 0 and b"EXIF" not in stored and stored.endswith(WEBP_1x1[12:])
    # a phone's JPEG starts with its EXIF (no JFIF): the orientation comes first, where it was
    phone = JPEG_3x2[:2] + segment(0xE1, b"Exif\0\0" + exif_tiff(8)) + JPEG_3x2[20:]
    status, _, _, js = upload(server, phone, token)
    stored = http_get(server, f"/blobs/{js['hash']}")[2]
    assert status == 201 and stored[:4] == b"\xff\xd8\xff\xe1" and stored.endswith(JPEG_3x2[20:]), stored[:40]
    assert b"\x01\x12\x00\x03\x00\x00\x00\x01\x00\x08" in stored and not [s for s in SECRETS if s in stored]
    # an upright photo keeps no EXIF at all; one that is already clean is stored as it is
    status, _, _, js = upload(server, JPEG_3x2[:20] + segment(0xE1, b"Exif\0\0" + exif_tiff(1)) + JPEG_3x2[20:], token)
    assert status == 201 and js["hash"] == hashlib.sha256(JPEG_3x2).hexdigest()


def test_blob_upload_errors(server, token):
    png = png_bytes(rgb=(1, 2, 3))
    digest = hashlib.sha256(png).hexdigest()

    status, _, body, js = upload(server, png, None)
    assert status == 401, f"no token: {status} {body[:200]!r}"
    assert js == {"code": "invalid_token"} or (js or {}).get("code") == "invalid_token"
    status, _, body, js = upload(server, png, "A" * 43)
    assert status == 401 and (js or {}).get("code") == "invalid_token"
    assert http_get(server, f"/blobs/{digest}")[0] == 404, "a refused upload must store nothing"

    text = b"just some text, definitely not an image\n" * 10
    status, _, body, js = upload(server, text, token, content_type="image/png")
    assert status == 415, f"text upload: {status} {body[:200]!r}"
    assert (js or {}).get("code") == "not_an_image"
    assert http_get(server, f"/blobs/{hashlib.sha256(text).hexdigest()}")[0] == 404

    html = b"<html><script>alert(1)</script></html>"
    status, _, _, js = upload(server, html, token, content_type="image/png")
    assert status == 415

    big = png_bytes() + b"\x00" * (5 * MiB + 1)
    status, _, body, js = upload(server, big, token, content_type="image/png")
    assert status == 413, f"over 5 MiB: {status} {body[:200]!r}"
    assert (js or {}).get("code") == "too_large"
    assert http_get(server, f"/blobs/{hashlib.sha256(big).hexdigest()}")[0] == 404
    # a self-hoster sees the refusals and where they came from (deploy/README, Logs)
    deadline = time.monotonic() + 5
    while not any("upload refused: too large" in line and "peer=127.0.0.1" in line for line in server.lines):
        assert time.monotonic() < deadline, server.log_tail()
        time.sleep(0.05)

    # the server still serves
    assert http_get(server, "/health")[0] == 200
    status, _, _, js = upload(server, png, token)
    assert status == 201 and js["hash"] == digest


def test_a_request_framed_two_ways_is_refused_and_nothing_behind_it_runs(server, token):
    """Transfer-Encoding and Content-Length together: a proxy reads one chunked request,
    lws read the body by its length and ran what followed as a second request, which
    the proxy never saw (request smuggling, from an outside review). Now any request
    with Transfer-Encoding is refused and its connection closed; a length is digits."""
    png = png_bytes(rgb=(9, 8, 7))
    hidden = b"GET /client-config.json HTTP/1.1\r\nHost: x\r\n\r\n"
    chunk = png + hidden
    body = b"%x\r\n" % len(chunk) + chunk + b"\r\n0\r\n\r\n"
    length = len(b"%x\r\n" % len(chunk)) + len(png)
    head = (f"POST /blobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Transfer-Encoding: chunked\r\nContent-Length: {length}\r\n\r\n").encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    out = b""
    try:
        sock.sendall(head + body)
        while chunk_in := sock.recv(65536):
            out += chunk_in
    except (ConnectionResetError, socket.timeout):
        pass
    finally:
        sock.close()
    assert out.count(b"HTTP/1.1 ") == 1, out[:400]
    assert out.startswith(b"HTTP/1.1 400 ") and b'"code":"bad_request"' in out, out[:400]
    assert http_get(server, f"/blobs/{hashlib.sha256(png).hexdigest()}")[0] == 404
    # a GET carrying it is refused the same way
    status, _, _ = raw_request(server, b"GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    assert status == 400
    # "+73" is not a length
    head = (f"POST /blobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Length: +{len(png)}\r\nConnection: close\r\n\r\n").encode()
    assert raw_request(server, head, png)[0] == 411
    assert http_get(server, "/health")[0] == 200


def read_to_close(sock, seconds: float) -> tuple[bytes, bool]:
    """What the server sends until it closes (True) or `seconds` pass (False)."""
    sock.settimeout(seconds)
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
        return out, True
    except ConnectionResetError:
        return out, True
    except socket.timeout:
        return out, False


@pytest.mark.parametrize("method", ["GET", "HEAD", "PUT"])
def test_a_request_other_than_an_upload_with_a_body_is_refused_at_once(server, method):
    """A GET announcing a terabyte of body and sending a byte every few seconds was
    never closed (lws restarts its timeout on each piece): 44 of them kept everyone
    else out of a server at its file limit (an outside review). Only an upload has a
    body now: anything else with one is answered 400 and closed at once."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        sock.sendall(f"{method} /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\na".encode())
        out, closed = read_to_close(sock, 5)
    finally:
        sock.close()
    assert closed, "the connection was still open 5 s later"
    assert out.startswith(b"HTTP/1.1 400 "), out[:200]
    # an empty body is no body
    assert raw_request(server, b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")[0] == 200


def test_connect_is_closed_at_once(server):
    """lws turns a CONNECT request into a raw socket that nothing served and nothing
    ever closed: one held its file descriptor and its address's slot for good."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        sock.sendall(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        out, closed = read_to_close(sock, 5)
    finally:
        sock.close()
    assert closed and out == b"", out[:200]
    assert any("http refused: CONNECT" in line for line in server.wait_for_log(lambda line: "http refused: CONNECT" in line))
    assert http_get(server, "/health")[0] == 200


def test_http2_is_not_served(server, token):
    """lws 4.1 upgrades to h2c whatever the ALPN says, and each HTTP/2 stream held a
    file open: one connection from one address held 20 blob files, past every limit
    counted per connection (an outside review). HTTP/2 is now dropped at its first
    request, before anything is served."""
    import base64
    png = png_bytes(rgb=(1, 2, 3))
    assert upload(server, png, token)[0] == 201
    settings = base64.urlsafe_b64encode(struct.pack("!HI", 4, 65535)).decode().rstrip("=")
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        sock.sendall((f"GET /blobs/{hashlib.sha256(png).hexdigest()} HTTP/1.1\r\nHost: x\r\n"
                      f"Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: {settings}\r\n\r\n").encode())
        # the client's preface and an empty SETTINGS frame
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00")
        out, closed = read_to_close(sock, 5)
    finally:
        sock.close()
    assert closed, "an HTTP/2 connection was still open 5 s later"
    assert png not in out, "the image was served over HTTP/2"
    assert any("http refused: HTTP/2" in line for line in server.wait_for_log(lambda line: "http refused: HTTP/2" in line))
    assert http_get(server, "/health")[0] == 200


def test_files_sent_at_once_to_one_address_are_bounded_and_given_back(server, public_dir):
    """Each file being sent holds an open file for as long as its client reads, and
    lws restarts its timeout on each piece: slow readers from five addresses ran the
    process out of file descriptors (an outside review). At most 32 at once go to one
    address; the next is told to retry (429), and the slots come back as they end."""
    big = public_dir / "big-download.bin"
    if not big.exists():
        big.write_bytes(os.urandom(1 << 20) * 24)
    readers = []
    try:
        for _ in range(32):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(b"GET /big-download.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(12) == b"HTTP/1.1 200"
            readers.append(sock)
        status, headers, body = http_get(server, "/big-download.bin")
        assert status == 429 and json.loads(body)["code"] == "too_many_downloads", body[:200]
        assert headers["retry-after"] == "1"
    finally:
        for sock in readers:
            sock.close()
    deadline = time.monotonic() + 10
    while (status := http_get(server, "/index.html")[0]) == 429 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert status == 200


def test_files_answered_without_a_body_hold_no_slot(server):
    """lws ends a HEAD's and a bad Range's transaction without saying the file is sent:
    each was counted as a file being sent until its deadline, and 33 of them on one
    connection had every later file to that address refused. A connection's next
    request ends what it sent before."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        f = sock.makefile("rb")
        for i in range(40):
            head = "HEAD /index.html" if i % 2 else "GET /index.html"
            sock.sendall(f"{head} HTTP/1.1\r\nHost: x\r\nRange: bytes=99999999-\r\n\r\n".encode())
            resp = http.client.HTTPResponse(sock, method=head.split()[0])
            resp.begin()
            resp.read()
            assert resp.status in (200, 416), resp.status
    finally:
        sock.close()
    assert http_get(server, "/index.html")[0] == 200


def test_unknown_blob_is_404(server):
    assert http_get(server, "/blobs/" + "0" * 64)[0] == 404
    assert http_get(server, "/blobs/" + hashlib.sha256(b"never uploaded").hexdigest())[0] == 404
    status, _, body = http_get(server, "/blobs/..%2f..%2fsecret.txt")
    assert status in (400, 404) and SECRET_MARKER.encode() not in body


async def blob_scene(env, server, token, rgb):
    png = png_bytes(rgb=rgb)
    status, _, _, js = upload(server, png, token)
    assert status == 201
    ana = await env.login(token, label="uploader")
    ben = await env.register("Ben")
    cid, _ = await env.conversation(ana, ben)
    await ana.call("apps.install", appId="testapp")
    await ben.subscribe(cid)
    t = await ana.send_text(cid, "look")
    return ana, ben, cid, js["hash"], t


async def test_messages_reference_blobs(server, token):
    async with Env(server) as env:
        ana, ben, cid, h, t = await blob_scene(env, server, token, (9, 9, 9))
        st = await ana.send_message(cid, {"kind": "sticker", "image": h, "description": "a dot"})
        assert st["image"] == h and st["kind"] == "sticker" and st["description"] == "a dot"
        stuck = await ana.send_message(cid, {"kind": "sticker", "image": h,
                                             "stuckTo": {"seq": t["seq"], "x": 0.25, "y": 1.0}})
        assert stuck["stuckTo"] == {"seq": t["seq"], "x": 0.25, "y": 1.0}
        # a picture's size (3 × 2) goes with it, as the server read it, whatever the sender says
        att = await ana.send_message(cid, {"kind": "attachment", "image": h, "name": "dot.png", "width": 900})
        assert att == {**att, "name": "dot.png", "image": h, "width": 3, "height": 2}
        appm = await ana.send_message(cid, {"kind": "app", "appId": "testapp", "url": "?i=1",
                                            "layout": {"image": h, "caption": "pic", "imageHeight": 1}})
        assert appm["layout"] == {"image": h, "imageWidth": 3, "imageHeight": 2, "caption": "pic"}
        assert "width" not in st and "width" not in stuck
        ev = await ben.wait_message(cid, seq=appm["seq"])
        assert ev["message"] == appm
        history = (await ben.history(cid))["messages"]
        assert [m["seq"] for m in history] == list(range(1, appm["seq"] + 1))
        assert history[-2] == att and history[-1] == appm
        # sent again with the same clientId (an answer lost on the way), it is the same message
        again = {"kind": "attachment", "image": h, "name": "again.png"}
        first = await ana.call("send", conversationId=cid, clientId="retry-1", message=again)
        retried = await ana.call("send", conversationId=cid, clientId="retry-1", message=again)
        assert retried["message"] == first["message"] and first["message"]["width"] == 3


async def test_a_pictures_size_goes_with_it_as_it_is_drawn(server, token):
    """A bubble has its picture's shape before the picture comes: the server puts the
    stored image's size in the message, a phone's photo turned a quarter by its EXIF
    orientation with its sides swapped, as a browser draws it."""
    async with Env(server) as env:
        ana, ben, cid, _, _ = await blob_scene(env, server, token, (5, 6, 7))
        turned = JPEG_3x2[:2] + segment(0xE1, b"Exif\0\0" + exif_tiff(6)) + JPEG_3x2[20:]
        for image, size in ((png_bytes(w=40, h=7), (40, 7)), (JPEG_3x2, (3, 2)), (turned, (2, 3))):
            status, _, _, js = upload(server, image, token)
            assert status == 201
            att = await ana.send_message(cid, {"kind": "attachment", "image": js["hash"]})
            assert (att["width"], att["height"]) == size
            assert (await ben.wait_message(cid, seq=att["seq"]))["message"] == att


def test_a_picture_sent_before_sizes_were_stored_is_the_same_message_when_sent_again(tmp_path, public_dir):
    """A send answered by an older server, whose answer was lost, is sent again after the
    upgrade with the same clientId: it is the message stored then, not a clientId refused
    as used for something else (the new server's body for it has the picture's size)."""
    data = tmp_path / "data"
    srv = ParlorServer(data, public_dir, name="before-sizes").start()
    try:
        async def first():
            async with Env(srv) as env:
                ana = await env.register("Ana")
                ben = await env.register("Ben")
                cid, _ = await env.conversation(ana, ben)
                status, _, _, js = upload(srv, png_bytes(), ana.token)
                assert status == 201
                message = {"kind": "attachment", "image": js["hash"], "name": "old.png"}
                stored = await ana.send_message(cid, message, client_id="sent-before")
                assert stored["width"] == 3
                return ana.token, cid, message, stored

        token_, cid, message, stored = run(first())
        srv.stop()
        with sqlite3.connect(data / "parlor.sqlite") as db:  # as the older server wrote it
            old = json.dumps({"kind": "attachment", "image": message["image"], "name": "old.png"}, separators=(",", ":"))
            assert db.execute("UPDATE messages SET body = ? WHERE client_id = 'sent-before'", (old.encode(),)).rowcount == 1
        srv.start()

        async def again():
            async with Env(srv) as env:
                ana = await env.login(token_)
                retried = await ana.send_message(cid, message, client_id="sent-before")
                unsized = {k: v for k, v in stored.items() if k not in ("width", "height")}
                assert retried == unsized, retried
                other = {**message, "name": "other.png"}
                await ana.expect_error("send", {"client_id_reused"}, conversationId=cid, clientId="sent-before", message=other)

        run(again())
    finally:
        srv.stop()


def _missing():
    return hashlib.sha256(b"no such blob").hexdigest()


@pytest.mark.parametrize("case,message_of,codes", [
    ("sticker_unknown_blob", lambda h, t: {"kind": "sticker", "image": _missing()}, {"not_found"}),
    ("attachment_unknown_blob", lambda h, t: {"kind": "attachment", "image": _missing(), "name": "x.png"}, {"not_found"}),
    ("layout_unknown_blob", lambda h, t: {"kind": "app", "appId": "testapp", "url": "?i=2",
                                          "layout": {"image": _missing()}}, {"not_found"}),
    ("stuck_to_unknown_seq", lambda h, t: {"kind": "sticker", "image": h,
                                           "stuckTo": {"seq": 9999, "x": 0.5, "y": 0.5}}, {"not_found"}),
    ("stuck_to_x_out_of_range", lambda h, t: {"kind": "sticker", "image": h,
                                              "stuckTo": {"seq": t, "x": 1.5, "y": 0.5}}, {"invalid_field"}),
    ("stuck_to_y_negative", lambda h, t: {"kind": "sticker", "image": h,
                                          "stuckTo": {"seq": t, "x": 0.5, "y": -0.1}}, {"invalid_field"}),
    ("image_not_a_hash", lambda h, t: {"kind": "sticker", "image": "../../secret"}, {"invalid_field", "not_found"}),
    ("sticker_description_301", lambda h, t: {"kind": "sticker", "image": h, "description": "d" * 301}, {"too_long"}),
    ("attachment_name_301", lambda h, t: {"kind": "attachment", "image": h, "name": "n" * 301}, {"too_long"}),
], ids=lambda v: v if isinstance(v, str) else "")
async def test_bad_blob_references(server, token, case, message_of, codes):
    async with Env(server) as env:
        ana, ben, cid, h, t = await blob_scene(env, server, token, (7, 7, 7))
        await ana.expect_error("send", codes, conversationId=cid, clientId=new_client_id(),
                               message=message_of(h, t["seq"]))
        nxt = await ana.send_text(cid, "after refusal")
        assert nxt["seq"] == t["seq"] + 1, "a refused message must store nothing"
        await ben.wait_message(cid, seq=nxt["seq"])


async def test_an_image_is_shown_only_by_whoever_uploaded_or_was_shown_it(server, token):
    """A hash alone let anyone put an image in a message: it told an outsider whether
    an image was on the server, and kept it served after its message was deleted."""
    async with Env(server) as env:
        ana, ben, cid, h, t = await blob_scene(env, server, token, (21, 22, 23))
        await ana.send_message(cid, {"kind": "attachment", "image": h, "name": "ours.png"})
        mal = await env.register("Mallory")
        mcid, _ = await env.conversation(mal)
        e = await mal.expect_error("send", "not_found", conversationId=mcid, clientId=new_client_id(),
                                   message={"kind": "sticker", "image": h})
        e2 = await mal.expect_error("send", "not_found", conversationId=mcid, clientId=new_client_id(),
                                    message={"kind": "sticker", "image": _missing()})
        assert e["message"] == e2["message"], "the same answer as for an image that is not there"
        # Ben was shown it in a conversation he is in: he may use it elsewhere (a sticker kept, a guess)
        bcid, _ = await env.conversation(ben)
        await ben.send_message(bcid, {"kind": "sticker", "image": h})
        # Mallory uploads the same bytes herself: stored once, and hers to show now
        status, _, _, js = upload(server, png_bytes(rgb=(21, 22, 23)), mal.token)
        assert status == 201 and js["hash"] == h
        await mal.send_message(mcid, {"kind": "sticker", "image": h})


@pytest.mark.transport_only
def test_a_missing_file_an_app_asks_for_is_a_404_it_can_read(server):
    """App frames have an opaque origin: a 404 without Access-Control-Allow-Origin
    reached the app as a bare CORS failure ("Failed to fetch"), naming no cause."""
    for path in ("/apps/example/no-such.png", "/sdk/nothing.js", "/blobs/" + "0" * 64):
        status, headers, _ = http_get(server, path, headers={"Origin": "null"})
        assert status == 404 and headers.get("access-control-allow-origin") == "*", (path, status, headers)
    # the host's own files are not the apps' to read
    status, headers, _ = http_get(server, "/js/nothing.js", headers={"Origin": "null"})
    assert status == 404 and "access-control-allow-origin" not in headers

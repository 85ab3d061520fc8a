"""What a phone waits for, on a network with round trips (docs/BENCHMARKS.md, session 37):
a `parlor serve` behind a TCP proxy that holds every byte `--rtt`/2 each way, the
WebSocket included (Chromium's own throttling, CDP's Network.emulateNetworkConditions,
leaves WebSockets alone, so a request's round trip went unmeasured), and Chromium's
headless shell at a phone's size. Prints, each `--runs` times:

- welcome: a first visit (nothing cached) until the name field shows;
- question: Continue pressed on an invite link until the Join question shows;
- joined: Join pressed until the conversation's messages show;
- reload: a signed-in page reloaded (its files cached) until they show again;
- app: an app opened from the drawer in a conversation where it never was (its files
  cached), until its pane is shown and its New Game button drawn.

    python3 bench/tools/phone_waits.py .build/debug/parlor [--rtt 100] [--runs 3] [--public DIR]
"""
import argparse, asyncio, os, re, subprocess, sys, tempfile, threading, time
from pathlib import Path
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "integration"))
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
from server import relaxed_args  # noqa: E402
from conftest import create_conversation as new_conversation  # noqa: E402


def delay_proxy(target_port, one_way):
    """A loopback proxy to `target_port` holding each chunk `one_way` seconds, in order."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    box = {}

    async def pump(reader, writer):
        queue = asyncio.Queue()

        async def out():
            while True:
                at, data = await queue.get()
                if data is None:
                    writer.close()
                    return
                await asyncio.sleep(max(0, at + one_way - time.monotonic()))
                writer.write(data)
                await writer.drain()
        sender = asyncio.ensure_future(out())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((time.monotonic(), data))
        finally:
            queue.put_nowait((time.monotonic(), None))
        await sender

    async def handle(r, w):
        try:
            r2, w2 = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            w.close()
            return
        await asyncio.gather(pump(r, w2), pump(r2, w), return_exceptions=True)

    async def main():
        srv = await asyncio.start_server(handle, "127.0.0.1", 0)
        box["port"] = srv.sockets[0].getsockname()[1]
        started.set()
        await asyncio.Event().wait()
    threading.Thread(target=lambda: loop.run_until_complete(main()), daemon=True).start()
    started.wait()
    return box["port"]


def timed(fn):
    t0 = time.monotonic()
    fn()
    return time.monotonic() - t0


def signed_up(page, name):
    page.fill("#welcome-name", name)
    page.get_by_role("button", name="Continue").click()
    page.locator("#recovery[open]").wait_for(timeout=30_000)
    page.locator("#recovery-saved").check()
    page.locator("#recovery").get_by_role("button", name="Done").click()


def one_run(browser, base, near):
    phone = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    # Ana, nearby (no delay), makes a conversation with a few messages and an invite
    ana = browser.new_context(base_url=near).new_page()
    ana.goto("/")
    signed_up(ana, "Ana")
    link = new_conversation(ana, "Dinner")
    for i in range(3):
        ana.fill("#composer-input", f"hello {i}")
        ana.keyboard.press("Enter")
    ana.locator(".row[data-seq]", has_text="hello 2").wait_for()
    path = re.sub(r"^https?://[^/]+", "", link)

    ben = browser.new_context(**phone).new_page()
    out = {"welcome": timed(lambda: (ben.goto(base + path), ben.locator("#welcome-name").wait_for(timeout=60_000)))}
    ben.fill("#welcome-name", "Ben")
    join = ben.get_by_role("button", name="Join")
    out["question"] = timed(lambda: (ben.get_by_role("button", name="Continue").click(), join.wait_for(timeout=30_000)))
    out["joined"] = timed(lambda: (join.click(), ben.locator(".row[data-seq]", has_text="hello 2").wait_for(timeout=30_000)))
    ben.locator("#recovery[open]").wait_for()
    ben.locator("#recovery-saved").check()
    ben.locator("#recovery").get_by_role("button", name="Done").click()
    out["reload"] = timed(lambda: (ben.reload(), ben.locator(".row[data-seq]", has_text="hello 2").wait_for(timeout=30_000)))
    # WenderPic installed and opened once in Dinner (its files cached), then opened in a new conversation
    ben.locator(".chat-header").get_by_role("button", name="App Store").click()
    ben.get_by_role("button", name="Install WenderPic").click()
    ben.locator("#app-store").get_by_role("button", name="Done").click()
    apps = ben.get_by_role("button", name="Apps", exact=True)
    opened = ben.locator("#app-pane[data-style=compact]:not([hidden]):not(.mounting)")

    def open_app():
        apps.click()
        ben.locator("#drawer").get_by_role("button", name="Open WenderPic").click()
        opened.wait_for(timeout=30_000)
        ben.frame_locator("#app-pane iframe").get_by_role("button", name="New Game").wait_for(timeout=30_000)
    open_app()
    ben.get_by_role("button", name="Close WenderPic").click()
    ben.get_by_role("button", name="Back").click() if ben.get_by_role("button", name="Back").is_visible() else None
    new_conversation(ben, "Game")
    out["app"] = timed(open_app)
    for ctx in (ana.context, ben.context):
        ctx.close()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("parlor")
    ap.add_argument("--rtt", type=float, default=100, help="round trip, ms")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--public", default=str(ROOT / "Public"), help="the client to serve (another checkout's, to compare)")
    a = ap.parse_args()
    data = tempfile.mkdtemp(prefix="phone-waits-")
    server = subprocess.Popen([a.parlor, "serve", "--host", "127.0.0.1", "--port", "0", "--data", data,
                               "--public", a.public, *relaxed_args(())],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in server.stdout:
            if m := re.search(r"listening on http://127\.0\.0\.1:(\d+)", line):
                port = int(m.group(1))
                break
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        base = f"http://127.0.0.1:{delay_proxy(port, a.rtt / 2000)}"
        shell = "/usr/bin/chromium-headless-shell"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shell if os.path.exists(shell) else "/usr/bin/chromium")
            for run in range(a.runs):
                out = one_run(browser, base, f"http://127.0.0.1:{port}")
                print(f"run {run + 1} at {a.rtt:.0f} ms: " + ", ".join(f"{k} {v:.2f} s" for k, v in out.items()), flush=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()

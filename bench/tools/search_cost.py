"""What one maximal `messages.search` costs the server (docs/BENCHMARKS.md, "Search"):
a `parlor serve` on SQLite (or PostgreSQL: a URL as the second argument) gets four
conversations (50,000 short, chat-like and accented texts; 2,000 texts of 10,000
characters), then 200 searches that match nothing (each reads its whole bound) and 200
pings; the server's CPU time (utime + stime from /proc) per search, net of a ping's.

    python3 bench/tools/search_cost.py .build/release/parlor [postgresql://…]
"""
import asyncio, sys, time, statistics, subprocess, re, tempfile, os, random
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "integration"))
from client import Client
BIN = sys.argv[1]; STORE = sys.argv[2] if len(sys.argv) > 2 else None
TICK = os.sysconf("SC_CLK_TCK")
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / TICK
async def fill(c, cid, make, n):
    for start in range(0, n, 2000):
        futs = await c.start_burst([("send", {"conversationId": cid, "clientId": f"{cid}-{i}", "message": {"kind": "text", "text": make(i)}}) for i in range(start, min(n, start + 2000))])
        for f in futs:
            r = await f; assert r["type"] == "result", r
async def main():
    data = tempfile.mkdtemp(prefix="srch-bench-")
    args = [BIN, "serve", "--host", "127.0.0.1", "--port", "0", "--data", data, "--public", str(ROOT / "Public"),
            "--limit-sends", "0", "--limit-searches", "0", "--limit-registrations", "0", "--limit-new-connections", "0"]
    if STORE: args += ["--store", STORE]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in p.stdout:
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if m: port = int(m.group(1)); break
    try:
        c = await Client.connect(f"ws://127.0.0.1:{port}/ws", label="bench")
        await c.call("register", name="Bench")
        words = ["lunch", "usual place", "tomorrow", "see you", "the address", "bring cake", "ok", "haha", "where", "when"]
        french = ["Le café était très bon", "À demain, à l’hôtel", "Très élégant, ça", "Où est la fenêtre ?", "Déjà vu, naïve façade"]
        rooms = {"short ASCII (~40 B bodies)": (lambda i: f"message {i}", 50_000),
                 "chat ASCII (~100 B)": (lambda i: f"{random.choice(words)} {random.choice(words)}, {random.choice(words)} and {random.choice(words)} #{i}", 50_000),
                 "accented French (~60 B)": (lambda i: f"{random.choice(french)} {i}", 50_000),
                 "long texts (10,000 chars)": (lambda i: ("x" * 9_990) + f"{i:010d}", 2_000)}
        for name, (make, n) in rooms.items():
            cid = (await c.call("conversations.create", title=name))["conversation"]["id"]
            await fill(c, cid, make, n)
            await asyncio.sleep(1.0)
            K = 200
            t = cpu(p.pid)
            for _ in range(K): await c.call("ping")
            ping_cpu = (cpu(p.pid) - t) / K
            t = cpu(p.pid); w = time.perf_counter()
            for _ in range(K): r = await c.call("messages.search", conversationId=cid, query="zzz nothing matches")
            search_cpu = (cpu(p.pid) - t) / K
            wall = (time.perf_counter() - w) / K
            print(f"{name}: {n} messages, one search reads {n - r['nextBeforeSeq'] + 1}; server CPU per search "
                  f"{search_cpu*1000:.2f} ms (per ping {ping_cpu*1000:.2f} ms) => {1000*(search_cpu-ping_cpu):.2f} ms; round trip {wall*1000:.2f} ms", flush=True)
        await c.close()
    finally:
        p.terminate(); p.wait(10)
asyncio.run(main())

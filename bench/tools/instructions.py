#!/usr/bin/env python3
"""Instructions the server spends per delivery, counted by callgrind: a figure that
stays put on a busy machine, unlike wall-clock throughput. For A/B comparisons of a
change to the hot path (docs/BENCHMARKS.md records them).

    bench/tools/instructions.py --parlor-bin A --parlor-bin B [--scenario fanout,games]

Each binary runs under `valgrind --tool=callgrind`; the set-up (registering, joining,
subscribing) is left out by zeroing the counters once it is done, and the workload's
instructions are dumped when the last delivery has arrived.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "integration"))
from client import Env, new_client_id  # noqa: E402
from server import relaxed_args  # noqa: E402


class Server:
    """Only what client.Env needs of a server."""

    def __init__(self, binary: str, extra: list[str]):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.dir = tempfile.mkdtemp(prefix="parlor-ir-")
        self.out = os.path.join(self.dir, "callgrind.out")
        self.proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.out}.%p",
             binary, "serve", "--port", str(self.port), "--data", os.path.join(self.dir, "data"),
             "--public", str(ROOT / "Public"), "--max-connections-per-ip", "0", "--log-level", "error", *relaxed_args(extra), *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit("the server did not start under valgrind")

    def control(self, flag: str) -> None:
        subprocess.run(["callgrind_control", flag, str(self.proc.pid)], check=True, stdout=subprocess.DEVNULL)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(120)

    def dumped_instructions(self) -> int:
        """Instructions in the dump taken right after the workload (the first dump file)."""
        dumps = sorted(f for f in glob.glob(self.out + ".*") if not f.endswith(str(self.proc.pid)))
        self.dump = dumps[0]
        for line in open(dumps[0]):
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
        raise SystemExit(f"no totals in {dumps[0]}")


async def fanout(env: Env, srv: Server, members: int = 40, messages: int = 300) -> int:
    """One sender, a room of `members`, text messages with 16 in flight."""
    sender = await env.register("Sender")
    others = [await env.register(f"M{i}") for i in range(members)]
    cid, _ = await env.conversation(sender, *others)
    for c in [sender, *others]:
        await c.subscribe(cid)
    srv.control("-z")
    window = asyncio.Semaphore(16)

    async def one(i: int):
        async with window:
            return await sender.send_text(cid, f"message {i} " + "x" * 100)

    sent = await asyncio.gather(*(one(i) for i in range(messages)))
    last = max(m["seq"] for m in sent)
    for c in others:
        await c.wait_message(cid, seq=last, timeout=600)
    srv.control("-d")
    return messages * (members + 1)


async def games(env: Env, srv: Server, rooms: int = 30, updates: int = 30) -> int:
    """Rooms of three taking turns at one session, as a game does."""
    setups = []
    for r in range(rooms):
        people = [await env.register(f"R{r}P{i}") for i in range(3)]
        for p in people:
            await p.call("apps.install", appId="wenderpic")
        cid, _ = await env.conversation(*people)
        for p in people:
            await p.subscribe(cid)
        setups.append((cid, people))

    async def play(cid, people, first=0, count=updates):
        seq = 0
        for v in range(first, first + count):
            m = {"kind": "app", "appId": "wenderpic", "url": f"?move={v}", "live": False,
                 "layout": {"caption": "WenderPic"}, "summaryText": f"move {v}",
                 "session": {"id": "game", "baseVersion": v}}
            seq = (await people[v % 3].send_message(cid, m, new_client_id()))["seq"]
        for p in people:
            await p.wait_message(cid, seq=seq, timeout=600)

    # Everyone moves once before counting: a player's first move makes their participant
    # id (a write and a random UUID), which the benchmark's warm-up covers too.
    await asyncio.gather(*(play(cid, people, 0, 3) for cid, people in setups))
    srv.control("-z")
    await asyncio.gather(*(play(cid, people, 3, updates) for cid, people in setups))
    srv.control("-d")
    return rooms * updates * 3


SCENARIOS = {"fanout": fanout, "games": games}


async def measure(binary: str, scenario: str, extra: list[str]) -> tuple[int, int]:
    srv = Server(binary, extra)
    try:
        async with Env(srv) as env:
            deliveries = await SCENARIOS[scenario](env, srv)
    finally:
        srv.stop()
    ir = srv.dumped_instructions()
    if os.environ.get("KEEP_DUMP"):
        print(f"callgrind dump: {srv.dump}", file=sys.stderr)
    return ir, deliveries


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parlor-bin", action="append", required=True, help="binary to measure (repeat for A/B)")
    ap.add_argument("--scenario", default="fanout,games")
    ap.add_argument("--parlor-arg", action="append", default=[], help="extra argument for `parlor serve`")
    args = ap.parse_args()
    print("| scenario | binary | instructions | deliveries | instructions per delivery |")
    print("|---|---|---|---|---|")
    for scenario in args.scenario.split(","):
        for binary in args.parlor_bin:
            ir, n = asyncio.run(measure(binary, scenario, args.parlor_arg))
            print(f"| {scenario} | {binary} | {ir:,} | {n:,} | {ir // n:,} |", flush=True)


if __name__ == "__main__":
    main()

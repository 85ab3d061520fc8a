"""A throwaway PostgreSQL 15 for the integration tests: its own data directory, a
Unix socket in a temp dir and a free loopback port, one fresh database per server.

Started lazily by the first test that runs on PostgreSQL and stopped at the end of the
session. PostgreSQL refuses to run as root: as root the cluster belongs to the
`postgres` user (Debian's package creates it) and its commands run through `setpriv`,
which execs (so the process we hold is postgres itself, and signals reach it).
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PG_BIN = Path(os.environ.get("PARLOR_PG_BIN", "/usr/lib/postgresql/15/bin"))
START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    def __init__(self, durable: bool = False):
        # Tests trade durability for speed; a benchmark compared with SQLite's
        # synchronous=FULL must not.
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="parlor-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self._names = itertools.count(1)
        self.as_user = os.geteuid() == 0
        if self.as_user:
            shutil.chown(self.root, "postgres", "postgres")
            os.chmod(self.root, 0o700)

    def _cmd(self, *args: str) -> list[str]:
        return (["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", *args]
                if self.as_user else list(args))

    def start(self) -> "Postgres":
        if not (PG_BIN / "initdb").exists():
            raise RuntimeError(f"{PG_BIN}/initdb not found: make deps installs postgresql (15)")
        subprocess.run(self._cmd(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "parlor", "--auth=trust",
                                 "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"),
                       check=True, capture_output=True, timeout=120)
        self.log = open(self.root / "postgres.log", "ab")
        fast = [] if self.durable else ["-c", "fsync=off", "-c", "synchronous_commit=off",
                                        "-c", "full_page_writes=off"]
        self.proc = subprocess.Popen(
            self._cmd(str(PG_BIN / "postgres"), "-D", str(self.data), "-k", str(self.root), "-p", str(self.port),
                      "-h", "127.0.0.1", *fast, "-c", "max_connections=200"),
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"postgres exited with {self.proc.returncode}:\n{self.log_tail()}")
            if subprocess.run([str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                              capture_output=True).returncode == 0:
                return self
            time.sleep(0.1)
        raise RuntimeError(f"postgres did not accept connections within {START_TIMEOUT}s:\n{self.log_tail()}")

    def log_tail(self) -> str:
        try:
            return (self.root / "postgres.log").read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def url(self, database: str) -> str:
        return f"postgres://parlor@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> str:
        p = subprocess.run(["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", self.url(database),
                            "-c", statement], capture_output=True, text=True, timeout=30)
        if p.returncode != 0:
            raise RuntimeError(f"psql failed: {p.stderr.strip()}")
        return p.stdout.strip()

    def new_database(self) -> str:
        """A fresh, empty database's URL (parlor migrates it when it starts)."""
        name = f"t{next(self._names)}"
        self.sql(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            # SIGINT: the fast shutdown (running sessions are ended).
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)

"""Start and stop a `parlor serve` process for the integration tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
PARLOR_BIN = Path(os.environ.get("PARLOR_BIN") or REPO_ROOT / ".build" / "debug" / "parlor")
if not PARLOR_BIN.is_absolute():
    PARLOR_BIN = (REPO_ROOT / PARLOR_BIN).resolve()

LISTENING_RE = re.compile(r"listening on https?://[^\s/]*?:(\d+)")
START_TIMEOUT = 20.0

# Tests that are not about sign-up control or abuse limits register freely and send
# fast, all from 127.0.0.1: these apply unless a test passes the flag itself.
RELAXED = {
    "--registration": "open",
    "--limit-new-connections": "0",
    "--limit-registrations": "0",
    "--limit-sign-in-failures": "0",
    "--limit-sends": "0",
    "--limit-conversations": "0",
    "--limit-invites": "0",
    "--limit-changes": "0",
    "--limit-app-data-writes": "0",
    "--limit-upload-bytes": "0",
    "--limit-stored-image-mb": "0",
}


def relaxed_args(extra_args) -> list[str]:
    return [x for flag, value in RELAXED.items() if flag not in extra_args for x in (flag, value)]
STOP_TIMEOUT = 10.0

# every server started in this pytest process (for logs on failure)
SERVERS: list["ParlorServer"] = []


class ServerError(AssertionError):
    pass


class ParlorServer:
    def __init__(self, data_dir: Path, public_dir: Path, extra_args=(), name: str = "parlor",
                 store_url: str | None = None):
        self.data_dir = Path(data_dir)
        # A PostgreSQL URL: the server runs on it (--store) instead of SQLite in data_dir.
        self.store_url = store_url
        self.public_dir = Path(public_dir)
        self.extra_args = list(extra_args)
        self.name = name
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None
        self.lines: list[str] = []
        self._lock = threading.Lock()
        self._port_event = threading.Event()
        self._runs = 0
        self.expected_running = False
        self.unexpected_exits: list[str] = []
        SERVERS.append(self)

    # ------------------------------------------------------------------ urls

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # ------------------------------------------------------------------ lifecycle

    def command(self) -> list[str]:
        return [
            str(PARLOR_BIN), "serve",
            "--host", "127.0.0.1",
            "--port", "0",
            "--data", str(self.data_dir),
            "--public", str(self.public_dir),
            *(["--store", self.store_url] if self.store_url else []),
            *relaxed_args(self.extra_args),
            *self.extra_args,
        ]

    def start(self, timeout: float = START_TIMEOUT) -> "ParlorServer":
        if not PARLOR_BIN.exists():
            raise ServerError(
                f"parlor binary not found at {PARLOR_BIN}; build it (swift build) or set PARLOR_BIN"
            )
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._runs += 1
        self.port = None
        self._port_event.clear()
        cmd = self.command()
        self._append(f"=== [{self.name}] run {self._runs}: {' '.join(cmd)}")
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._pump_thread = threading.Thread(target=self._pump, args=(self.proc,), daemon=True)
        self._pump_thread.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._port_event.wait(0.05):
                break
            if self.proc.poll() is not None:
                # give the pump a moment to drain the last lines
                self._port_event.wait(0.5)
                raise ServerError(
                    f"parlor exited with code {self.proc.returncode} before listening\n{self.log_tail()}"
                )
        else:
            self._hard_kill()
            raise ServerError(f"parlor did not log 'listening on ...:PORT' within {timeout}s\n{self.log_tail()}")
        self.expected_running = True
        return self

    def _pump(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        for raw in iter(proc.stdout.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self._append(line)
            if self.port is None and proc is self.proc:
                m = LISTENING_RE.search(line)
                if m:
                    self.port = int(m.group(1))
                    self._port_event.set()
        code = proc.wait()
        self._append(f"=== [{self.name}] process exited with code {code}")
        if self.expected_running and proc is self.proc:
            self.unexpected_exits.append(f"exited unexpectedly with code {code}")

    def _append(self, line: str) -> None:
        with self._lock:
            self.lines.append(line)

    def wait_exit(self, timeout: float) -> int:
        """Waits for the process to end and for its last log lines to be read (the pump
        reads them on its own thread: right after the exit `lines` may still miss them)."""
        assert self.proc is not None
        code = self.proc.wait(timeout)
        self._pump_thread.join(5)
        return code

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = STOP_TIMEOUT) -> bool:
        """SIGTERM, wait; SIGKILL if it hangs. Returns True if it exited on SIGTERM."""
        self.expected_running = False
        if self.proc is None or self.proc.poll() is not None:
            return True
        self._append(f"=== [{self.name}] sending SIGTERM")
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.wait_exit(timeout)
            return True
        except subprocess.TimeoutExpired:
            self._append(f"=== [{self.name}] did not exit {timeout}s after SIGTERM; SIGKILL")
            self._hard_kill()
            return False

    def kill(self) -> None:
        """SIGKILL, as `kill -9` would."""
        self.expected_running = False
        if self.proc is not None and self.proc.poll() is None:
            self._append(f"=== [{self.name}] sending SIGKILL")
            self._hard_kill()

    def _hard_kill(self) -> None:
        assert self.proc is not None
        try:
            os.kill(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass

    def restart(self, graceful: bool = True) -> "ParlorServer":
        if graceful:
            self.stop()
        else:
            self.kill()
        return self.start()

    # ------------------------------------------------------------------ logs

    def wait_for_log(self, predicate, timeout: float = 5.0) -> list[str]:
        """The log's lines once one satisfies `predicate`, or when `timeout` passed: the
        pump reads them on its own thread, so a line the server wrote before a client saw
        the effect (a close, an answer) may not be in `lines` yet."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                lines = list(self.lines)
            if any(predicate(line) for line in lines) or time.monotonic() > deadline:
                return lines
            time.sleep(0.02)

    def log_tail(self, start: int = 0, max_lines: int = 300) -> str:
        with self._lock:
            lines = self.lines[start:]
        if len(lines) > max_lines:
            lines = [f"... ({len(lines) - max_lines} earlier lines omitted)"] + lines[-max_lines:]
        return "\n".join(lines)

"""deploy/backup.sh and deploy/restore.sh as a self-hoster runs them: the backup
from cron (whose PATH is /usr/bin:/bin, without the sbin directories runuser is
in) on a data directory owned by the service's user, then a restore into a new
directory, where a server finds everyone and every message again. SQLite only
(the scripts back up the SQLite store)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from client import Env
from server import PARLOR_BIN

ROOT = Path(__file__).resolve().parents[2]
CRON_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/root", "TMPDIR": "/tmp"}


def chown_tree(path: Path, user: str):
    subprocess.run(["chown", "-R", f"{user}:", str(path)], check=True)
    # the service user must be able to reach its directory, as under /var/lib
    for parent in path.parents:
        if parent == Path("/"):
            break
        os.chmod(parent, os.stat(parent).st_mode | 0o011)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("sqlite3") or not Path("/usr/sbin/runuser").exists(),
                    reason="needs root, sqlite3 and runuser, as on a server")
async def test_a_cron_backup_of_a_service_owned_directory_restores(server_factory, store_kind, tmp_path):
    if store_kind != "sqlite":
        pytest.skip("the scripts back up the SQLite store")
    srv = server_factory(name="backup")
    async with Env(srv) as env:
        ana = await env.register("Ana")
        ben = await env.register("Ben")
        cid, _ = await env.conversation(ana, ben, title="Kept in the backup")
        await ana.send_text(cid, "before the backup")
        history = await ana.history_all(cid)
    assert srv.stop()
    data = srv.data_dir
    chown_tree(data, "nobody")

    out = tmp_path / "backups"
    # --data relative, as the server's own default (./data) is: tar was sent to look for
    # blobs/ under the staging directory
    r = subprocess.run(["bash", str(ROOT / "deploy" / "backup.sh"), "--data", data.name, "--output", str(out),
                        "--keep", "14", "--quiet"], env=CRON_ENV, capture_output=True, text=True, timeout=60,
                       cwd=data.parent)
    assert r.returncode == 0, r.stderr
    tarball = Path(r.stdout.strip().splitlines()[-1])
    assert tarball.exists() and tarball.parent == out
    assert all(p.owner() == "nobody" for p in data.iterdir()), \
        "sqlite3 ran as the owner: nothing of root's left in the data directory"

    # the name says the database's schema, as `parlor --version` does
    knows = re.search(r"SQLite v(\d+)", subprocess.run([str(PARLOR_BIN), "--version"], capture_output=True, text=True,
                                                        check=True).stdout).group(1)
    assert re.fullmatch(rf"parlor-\d{{8}}T\d{{6}}Z-v{knows}\.tar\.gz", tarball.name), tarball.name

    restored = tmp_path / "restored"
    restore = ["bash", str(ROOT / "deploy" / "restore.sh"), "--data", str(restored), "--no-service",
               "--health-url", "", "--yes"]
    # a rollback's older binary would not start on it: refused before anything changes
    older = tmp_path / "parlor-older"
    older.write_text(f"#!/bin/sh\necho '0.1.0 (SQLite v{int(knows) - 1}-older, PostgreSQL schema 1)'\n")
    older.chmod(0o755)
    r = subprocess.run(restore + ["--binary", str(older), str(tarball)], env=CRON_ENV, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode != 0 and f"has schema v{knows}, newer than" in r.stderr, (r.returncode, r.stderr)
    assert not restored.exists()

    r = subprocess.run(restore + ["--binary", str(PARLOR_BIN), str(tarball)], env=CRON_ENV, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert (restored / "parlor.sqlite").exists()
    assert "previous data" not in r.stderr, "there was none: it names no directory it did not make"

    again = server_factory(name="restored", data_dir=restored)
    async with Env(again) as env:
        ana2 = await env.login(ana.token)
        assert ana2.user == ana.user
        assert await ana2.history_all(cid) == history
        # restored again while this server still runs on it: refused, nothing moved (it
        # went on acknowledging into the directory moved aside, lost at its restart)
        r = subprocess.run(restore + ["--binary", str(PARLOR_BIN), str(tarball)], env=CRON_ENV, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode != 0 and "still running" in r.stderr, (r.returncode, r.stderr)
        assert not list(tmp_path.glob("restored.before-restore-*"))
        await ana2.send_text(cid, "still served")

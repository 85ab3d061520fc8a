"""Fixtures for the Parlor integration suite.

- `async def` tests run under `asyncio.run` (no pytest-asyncio needed), bounded
  by a per-test timeout.
- `public_dir`: a temporary copy of the repository's Public/ with fixture apps
  and files added; a secret file sits next to it (outside) for traversal tests.
- `server`: one `parlor serve` per test module; `server_factory` for tests that
  need a fresh server, extra flags, or to kill and restart one.
- Every test that uses either runs twice: on SQLite and on PostgreSQL (`store_kind`;
  a session-wide PostgreSQL, a fresh database per server). A test that is about
  SQLite itself (its file, a full disk) says so with `@pytest.mark.sqlite_only`; one
  about the transport only (HTTP, TLS, the event loop, memory while serving files) with
  `@pytest.mark.transport_only`: both run once, on SQLite.
  PARLOR_TEST_STORES=sqlite (or postgres) runs one of them.
- On failure, the log lines every server wrote during the test are attached to
  the report.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import secrets
import shutil
from pathlib import Path

import pytest

from postgres import Postgres
from server import REPO_ROOT, SERVERS, ParlorServer

TEST_TIMEOUT = 90.0

FIXTURE_FILES = {
    "_itest/app.js": "export const answer = 42;\n",
    "_itest/style.css": "body { color: #222; }\n",
    "_itest/icon.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>\n',
    "_itest/site.webmanifest": '{"name":"Parlor itest","start_url":"/"}\n',
    # an app's files: an SVG with a script must be inert if opened top-level
    "apps/testapp/evil.svg": '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n',
    "apps/testapp/app.js": "export const app = 1;\n",
}

SECRET_MARKER = "PARLOR-SECRET-OUTSIDE-PUBLIC-" + secrets.token_hex(8)


# --------------------------------------------------------------------------- async tests


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        args = {a: pyfuncitem.funcargs[a] for a in pyfuncitem._fixtureinfo.argnames}
        timeout = getattr(pyfuncitem.obj, "timeout", TEST_TIMEOUT)

        async def runner():
            try:
                await asyncio.wait_for(pyfuncitem.obj(**args), timeout)
            except (asyncio.TimeoutError, TimeoutError) as e:
                raise AssertionError(f"test did not finish within {timeout}s") from e

        asyncio.run(runner())
        return True
    return None


def run(coro):
    """Run a coroutine from sync code (fixtures)."""
    return asyncio.run(asyncio.wait_for(coro, 60))


# --------------------------------------------------------------------------- logs on failure


@pytest.fixture(autouse=True)
def _server_log_marks(request):
    # restart a module server that died in an earlier test, so one crash does
    # not fail every later test of the module for the wrong reason
    for srv in SERVERS:
        if srv.expected_running and not srv.alive():
            srv._append(f"=== [{srv.name}] found dead before {request.node.name}; restarting")
            srv.expected_running = False
            srv.start()
    request.node._parlor_log_marks = {id(s): len(s.lines) for s in SERVERS}
    yield
    crashes = []
    for srv in SERVERS:
        if srv.unexpected_exits:
            crashes.append(f"server {srv.name} {'; '.join(srv.unexpected_exits)}")
            srv.unexpected_exits.clear()
    if crashes:
        pytest.fail("parlor crashed during the test: " + "; ".join(crashes))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    marks = getattr(item, "_parlor_log_marks", None)
    if report.failed and marks is not None:
        for srv in SERVERS:
            start = marks.get(id(srv), 0)
            if len(srv.lines) > start:
                text = srv.log_tail(start, 400)
            elif srv.alive():
                text = "(no output during this test; last lines before it:)\n" + srv.log_tail(max(0, start - 20))
            else:
                continue
            report.sections.append((f"parlor log: {srv.name} (port {srv.port})", text))


# --------------------------------------------------------------------------- public dir


def _app_manifest(template: dict | None, app_id: str, name: str) -> dict:
    m = dict(template or {})
    m.update({"id": app_id, "name": name})
    m.setdefault("version", "1.0.0")
    m.setdefault("entry", "index.html")
    m.setdefault("description", f"{name}, a fixture app of the integration tests")
    return m


@pytest.fixture(scope="session")
def public_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("public-root")
    pub = root / "Public"
    src = REPO_ROOT / "Public"
    if src.is_dir():
        shutil.copytree(src, pub, symlinks=False)
    else:
        pub.mkdir()
    if not (pub / "index.html").exists():
        (pub / "index.html").write_text(
            "<!doctype html>\n<html><head><meta charset=utf-8><title>Parlor</title></head>"
            "<body>Parlor fixture index</body></html>\n"
        )
    for rel, text in FIXTURE_FILES.items():
        p = pub / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)

    template = None
    for mf in sorted((pub / "apps").glob("*/manifest.json")) if (pub / "apps").is_dir() else []:
        try:
            template = json.loads(mf.read_text())
            break
        except ValueError:
            continue
    for app_id, name in (("testapp", "Test App"), ("testapp2", "Test App Two")):
        d = pub / "apps" / app_id
        d.mkdir(parents=True, exist_ok=True)
        (d / "manifest.json").write_text(json.dumps(_app_manifest(template, app_id, name), indent=2))
        (d / "index.html").write_text(f"<!doctype html><title>{name}</title>\n")
    # a folder under apps/ without a manifest is not an app
    nm = pub / "apps" / "nomanifest"
    nm.mkdir(parents=True, exist_ok=True)
    (nm / "index.html").write_text("<!doctype html><title>not an app</title>\n")
    # nor one whose manifest the web client would leave out (no name; another id)
    for app_id, manifest in (("noname", {"id": "noname", "icon": "icon.svg", "entry": "index.html"}),
                             ("otherid", {"id": "something-else", "name": "Other", "icon": "icon.svg", "entry": "index.html"})):
        (pub / "apps" / app_id).mkdir(parents=True, exist_ok=True)
        (pub / "apps" / app_id / "manifest.json").write_text(json.dumps(manifest))

    # outside Public: must never be served
    (root / "secret.txt").write_text(SECRET_MARKER + "\n")
    # an app-looking folder outside Public: "../apps/outside" must not install
    (root / "apps" / "outside").mkdir(parents=True, exist_ok=True)
    (root / "apps" / "outside" / "manifest.json").write_text('{"id":"outside","name":"Outside"}')
    return pub


# --------------------------------------------------------------------------- stores

STORES = [s for s in os.environ.get("PARLOR_TEST_STORES", "sqlite,postgres").split(",") if s]


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only: the test is about SQLite itself; it runs on SQLite only")
    config.addinivalue_line("markers", "transport_only: the test is about the transport, not the store; "
                                       "it runs once, on SQLite")


def pytest_generate_tests(metafunc):
    if "store_kind" in metafunc.fixturenames:
        once = any(metafunc.definition.get_closest_marker(m) for m in ("sqlite_only", "transport_only"))
        kinds = ["sqlite"] if once else STORES
        metafunc.parametrize("store_kind", [k for k in kinds if k in STORES], indirect=True, scope="session")


@pytest.fixture(scope="session")
def store_kind(request):
    return request.param


_postgres: list[Postgres] = []


def postgres_server() -> Postgres:
    """The session's PostgreSQL, started the first time a test needs it."""
    if not _postgres:
        _postgres.append(Postgres().start())
    return _postgres[0]


@pytest.fixture
def postgres() -> Postgres:
    if "postgres" not in STORES:
        pytest.skip("PARLOR_TEST_STORES leaves PostgreSQL out")
    return postgres_server()


def pytest_sessionfinish(session, exitstatus):
    for pg in _postgres:
        pg.stop()


# Which database a data directory's server uses: a restart on the same directory
# finds the same database, as it would find the same SQLite file.
_databases: dict[Path, str] = {}


def store_url(kind: str, data_dir: Path) -> str | None:
    if kind != "postgres":
        return None
    if data_dir not in _databases:
        _databases[data_dir] = postgres_server().new_database()
    return _databases[data_dir]


# --------------------------------------------------------------------------- servers


@pytest.fixture(scope="module")
def server(tmp_path_factory, public_dir, request, store_kind):
    name = request.module.__name__.replace("test_", "") + f"-{store_kind}"
    data = tmp_path_factory.mktemp(f"data-{name}")
    srv = ParlorServer(data, public_dir, name=name, store_url=store_url(store_kind, data))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def server_factory(tmp_path_factory, public_dir, request, store_kind):
    started: list[ParlorServer] = []

    def make(extra_args=(), data_dir: Path | None = None, name: str | None = None) -> ParlorServer:
        label = name or f"{request.node.name}-{len(started) + 1}"
        data = data_dir or tmp_path_factory.mktemp("data-fresh")
        srv = ParlorServer(data, public_dir, extra_args=extra_args, name=label,
                           store_url=store_url(store_kind, Path(data)))
        started.append(srv)
        return srv.start()

    yield make
    for srv in started:
        srv.stop()

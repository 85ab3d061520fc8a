# Two commands on a fresh Debian machine with Swift: `make run` and `make test`.
# Both install what is missing first (apt and pip packages), then build.

SWIFT      ?= swift
PORT       ?= 8080
DATA       ?= ./data
PYTHON     ?= python3
APT_PKGS   := pkg-config libwebsockets-dev libssl-dev libsqlite3-dev chromium chromium-headless-shell fonts-noto-color-emoji \
              postgresql-15 libpq-dev nats-server libnats-dev
# The browser suite also runs in WebKit, Safari's engine (Tests/browser/test_webkit.py,
# through Selenium), on a virtual display. Without their recommends (media plugins,
# spell checkers, Ghostscript): 61 packages, not 218, installed here in 18 s, not 36.
APT_PKGS_BARE := webkit2gtk-driver xvfb
PIP_PKGS   := websockets pytest pytest-xdist pytest-timeout playwright prometheus-client axe-playwright-python selenium
BIN        := .build/release/parlor
DEBUG_BIN  := .build/debug/parlor

.PHONY: run test deps build build-debug unit integration browser js clean bench bench-smoke bench-cluster architecture

run: deps build
	$(BIN) serve --port $(PORT) --data $(DATA) --public ./Public

test: deps architecture build-debug unit js integration browser bench-smoke

deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	bare=""; for p in $(APT_PKGS_BARE); do dpkg -s $$p >/dev/null 2>&1 || bare="$$bare $$p"; done; \
	if [ -n "$$missing$$bare" ]; then \
	  echo "installing:$$missing$$bare"; \
	  apt-get update -qq || exit 1; \
	fi; \
	if [ -n "$$missing" ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi; \
	if [ -n "$$bare" ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$bare >/dev/null; fi
	@$(PYTHON) -c "import websockets, pytest, xdist, pytest_timeout, playwright, prometheus_client, axe_playwright_python, selenium" 2>/dev/null || \
	  $(PYTHON) -m pip install -q --root-user-action=ignore $(PIP_PKGS)

# The Swift runtime is linked in, so the binary runs on a machine without Swift
# (build here, copy .build/release/parlor there; see deploy/README.md).
build:
	$(SWIFT) build -c release --product parlor --static-swift-stdlib

build-debug:
	$(SWIFT) build --build-tests

# Which module may import which (docs/ARCHITECTURE.md).
architecture:
	scripts/check-architecture

unit:
	$(SWIFT) test --skip-build

# Each file runs in a process of its own, much of it waiting on timers (a retry's
# backoff, a debounce) rather than computing: node's default of one file at a time on
# two cores took 12.7-13.5 s here, four at a time 6.2-6.5 s.
js:
	@if ls Tests/js/*.test.mjs >/dev/null 2>&1; then node --test --test-concurrency=4 Tests/js/; fi

# pytest-xdist workers: a test waits on servers, browsers and round trips for part of
# its time, so more workers than cores keep both cores busy. Measured on 2 cores: the
# browser suite used 1.6 cores with 2 workers (689 s) and 1.9 with 3 (580 s); the
# integration suite 1.2 with 2 (188 s) and 1.7 with 4 (134 s). Every test starts its
# own servers on free ports (integration: one per test file, and a PostgreSQL per
# worker; a file's tests stay on one worker). TEST_WORKERS=0 runs them in this
# process, one after the other, for both.
TEST_WORKERS ?=
INTEGRATION_WORKERS := $(or $(TEST_WORKERS),4)
BROWSER_WORKERS     := $(or $(TEST_WORKERS),3)
# No test may wait forever (a Playwright evaluate awaiting a promise has no timeout of
# its own): past TEST_TIMEOUT, pytest-timeout fails the test with every thread's stack
# and its teardown runs. The slowest take about 40 s on a busy machine. A suite that
# still outlives SUITE_TIMEOUT (a teardown stuck after that) is interrupted, and pytest
# names what failed so far. CI=1: pytest's closing summary gives each failure's whole
# message, not one cut to 80 columns (only the end of the output may be kept).
TEST_TIMEOUT  ?= 240
SUITE_TIMEOUT ?= 1800
PYTEST        := timeout --kill-after 60 --signal INT $(SUITE_TIMEOUT) \
                 $(PYTHON) -m pytest -q --timeout $(TEST_TIMEOUT) --timeout-method signal

integration:
	PARLOR_BIN=$(DEBUG_BIN) CI=1 $(PYTEST) -n $(INTEGRATION_WORKERS) --dist loadfile Tests/integration

# worksteal: a worker that runs out takes tests queued for another, so the suite does not
# end with one worker still going through a queue of slow tests while the others idle.
browser:
	PARLOR_BIN=$(DEBUG_BIN) CI=1 $(PYTEST) -n $(BROWSER_WORKERS) --dist worksteal Tests/browser

bench: deps build
	bench/run

# Cluster mode against one node, on one room (bench/cluster; PostgreSQL and NATS local).
bench-cluster: deps build
	bench/cluster --parlor-bin $(BIN)

# The benchmark harness end to end at small sizes: it works, whatever the figures.
bench-smoke: build-debug
	bench/run --quick --parlor-bin $(DEBUG_BIN)

clean:
	rm -rf .build

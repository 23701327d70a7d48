# The two commands of the README: `make serve` and `make test`.
# Both set up what they need first (a virtualenv in .venv; for tests also
# the npm packages (the ones the vendored copies are checked against, and
# the browser code's checkers), the Redis server and Chromium from Debian).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed
NODE_BOT_STAMP := examples/node-bot/node_modules/.installed

.PHONY: setup serve test quick chaos check lint typecheck jscheck unit acceptance-variants bench dist docs vendor-msgpack vendor-cards screenshots clean

# Every extra: the terminal client (tui), the tests' tools (test) and
# OpenSpiel for `hearts bench engine` (openspiel).
$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[tui,test,openspiel]'
	touch $(STAMP)

# The npm packages, from the lock file. Serving needs none of them
# (client/web/vendor holds the copies the browser loads): the tests compare
# those copies with @msgpack/msgpack and the card deck (`make vendor-msgpack`
# and `make vendor-cards` refresh them), and `make jscheck` runs ESLint and
# TypeScript over the browser's code.
$(NPM_STAMP): package.json $(wildcard package-lock.json)
	if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
	touch $(NPM_STAMP)

# The Node example bot's own packages (ws, @msgpack/msgpack), from its lock
# file: a test plays a game with it.
$(NODE_BOT_STAMP): examples/node-bot/package.json examples/node-bot/package-lock.json
	cd examples/node-bot && npm ci --no-audit --no-fund
	touch $(NODE_BOT_STAMP)

setup: $(STAMP)

# Tables go to hearts serve's default data folder, $$XDG_DATA_HOME/hearts
# (~/.local/share/hearts): outside the checkout, so games survive a restart,
# a `make clean` and a fresh clone alike.
serve: setup
	$(BIN)/hearts serve --host 127.0.0.1 --port 8765

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

# The browser client's JavaScript (client/web/js): ESLint, TypeScript's
# check of its JSDoc types (tsconfig.json: checkJs, strict; no output), and
# the unit tests of its modules in Node (tests/web/js, node:test).
jscheck: $(NPM_STAMP)
	node_modules/.bin/eslint .
	node_modules/.bin/tsc -p tsconfig.json
	node --test --test-reporter=spec tests/web/js/*.test.js

# The test run starts Python many times (each pytest worker, every `hearts`
# command a test runs): with PYTHONDONTWRITEBYTECODE set (some machines set
# it for every shell) each of them compiles this checkout's modules anew,
# about 4 s of CPU per worker before the first test. The bytecode caches
# (__pycache__, ignored by git) are kept for the commands below.
unexport PYTHONDONTWRITEBYTECODE

# pytest on three workers (pytest-xdist) on this project's 2-core machine:
# the suite mostly waits (sockets, child processes, the browser), so a third
# worker fills the cores while the others wait (README: the measured
# times). PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= 3
# make quick on four: its terminal tests wait most of their time in
# Textual's key presses (each waits for the app to go idle, 40 ms at least)
# and on timers, so at three workers only ~1.5 of the two cores were busy;
# a fourth fills them (2026-12-05: 84 s → 72-75 s, the same CPU). The
# browser's Chromium processes keep make test at three.
QUICK_WORKERS ?= 4

unit: setup $(NPM_STAMP) $(NODE_BOT_STAMP)
	bash .ci/services
	CI=$${CI:-} $(BIN)/pytest -q -n $(PYTEST_WORKERS)

test: lint typecheck jscheck unit

# The edit-test loop: every test but the browser's and those that start
# programs (markers: tests/conftest.py), on QUICK_WORKERS. Needs Redis.
quick: setup $(NPM_STAMP)
	bash .ci/services
	CI=$${CI:-} $(BIN)/pytest -q -n $(QUICK_WORKERS) -m "not browser and not subprocess"

# The Redis Cluster chaos test (a master killed mid-game) alone, e.g. to
# run it many times in a row; make test runs it too.
chaos: setup
	bash .ci/services
	CI=$${CI:-} $(BIN)/pytest -q -m chaos

# Every variant at every seat count: hearts host --autoplay medium plays a
# one-hand game and hearts verify accepts its records (the suite runs a few).
acceptance-variants: setup
	HEARTS_VARIANT_ACCEPTANCE=all $(BIN)/pytest -q -p no:cacheprovider tests/client/test_variant_acceptance.py

bench: setup
	$(BIN)/hearts bench engine

# The sdist and the wheel in dist/ (what `pip install dist/hearts_online-*.whl` takes).
# A stale *.egg-info would add the files it lists to the sdist: start without one.
dist: setup
	rm -rf build dist *.egg-info
	$(BIN)/python -m build

# After changing a wire model, the refusal catalogue or a limit: docs/protocol.md's
# reference tables, docs/protocol-schema.json and docs/asyncapi.yaml, generated
# from the models, the browser's table of what answers each request
# (client/web/js/exchanges.js, from protocol/exchanges.py), the browser's wire
# types (client/web/js/protocol.d.ts, from the schema: needs Node), and docs/protocol-transcript.md, a hand played on a server
# started for it (tests fail while the committed ones differ).
docs: setup
	$(BIN)/python -m tools.maintenance.protocol_docs
	node tools/maintenance/protocol_types.mjs
	$(BIN)/python -m tools.maintenance.protocol_transcript

# After changing @msgpack/msgpack in package.json (and `npm install`): copy
# its ES modules into client/web/vendor/msgpack.
vendor-msgpack: setup $(NPM_STAMP)
	$(BIN)/python -m tools.maintenance.vendor_msgpack

# After changing @younestouati/playing-cards-standard-deck in package.json (and
# `npm install`): copy its 52 card faces into client/web/vendor/cards.
vendor-cards: setup $(NPM_STAMP)
	$(BIN)/python -m tools.maintenance.vendor_cards

# docs/browser.md's screenshots of the table (a real game, in Chromium).
screenshots: setup
	bash .ci/services
	$(BIN)/python -m tools.maintenance.browser_screenshots

clean:
	rm -rf $(VENV) node_modules examples/node-bot/node_modules .mypy_cache .ruff_cache .pytest_cache .hypothesis build dist *.egg-info

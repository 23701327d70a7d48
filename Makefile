# The two commands of the README: `make serve` and `make test`.
# Both set up what they need first (a virtualenv in .venv, npm packages,
# and for tests the Redis server and Chromium from Debian).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed

.PHONY: setup serve test check lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,bench]'
	touch $(STAMP)

# The browser client's only package (@msgpack/msgpack), from the lock file.
$(NPM_STAMP): package.json $(wildcard package-lock.json)
	if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
	touch $(NPM_STAMP)

setup: $(STAMP) $(NPM_STAMP)

serve: setup
	$(BIN)/hearts serve --host 127.0.0.1 --port 8765

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

unit: setup
	bash .ci/services
	CI=$${CI:-} $(BIN)/pytest -q

test: lint typecheck unit

bench: setup
	$(BIN)/hearts bench engine

clean:
	rm -rf $(VENV) node_modules .mypy_cache .ruff_cache .pytest_cache .hypothesis

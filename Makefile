# `make` sets everything up and builds every kit into output/; `make test` runs the tests.
VENV   ?= .venv
PYTHON ?= python3
PY     := $(VENV)/bin/python
PNPGEN := $(VENV)/bin/pnpgen
# editable install: hatchling writes one plain path entry (see pyproject.toml), 10 ms faster to start than an import hook
EDITABLE := -e

.PHONY: all setup build test test-fast test-extra lint bench fuzz clean accept-look docs

all: build

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q $(EDITABLE) '.[test]'
	@if ! scripts/install-system-deps.sh; then $(PY) -m pip install -q $(EDITABLE) '.[fonts]'; fi
	touch $@

setup: $(VENV)/.installed
	@scripts/install-system-deps.sh >/dev/null 2>&1 || true

build: setup
	$(PNPGEN) build
	$(PNPGEN) rules --sample --quiet   # output/typesetting-sample.pdf

# the tests in parallel, one process a core (pytest-xdist); a worker that runs out takes tests queued for another
TEST_JOBS ?= auto
PYTEST := $(PY) -m pytest -q -n $(TEST_JOBS) --dist worksteal
# the wheel's install into a fresh venv and the benchmark's own pieces: minutes of their own, run by `test-extra`
EXTRA := install or bench
test: setup
	$(PYTEST) -m "not ($(EXTRA))"

test-fast: setup
	$(PYTEST) -m "not slow and not ($(EXTRA))"

# CI runs it after `make test`
test-extra: setup
	$(PY) -m pip install -q $(EDITABLE) '.[bench]'   # the benchmark's floor, which its tests compare against
	$(PYTEST) -m "$(EXTRA)"

$(VENV)/.lint-installed: $(VENV)/.installed pyproject.toml
	$(PY) -m pip install -q $(EDITABLE) '.[lint]'
	touch $@

# the gate CI runs before the tests: ruff (rules, import order, formatting), mypy on generator/, the import layers
lint: setup $(VENV)/.lint-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# after a deliberate change of how pages look: record the kits' A4 and Letter pages again (tests/test_look.py compares them)
accept-look: setup
	$(PY) scripts/accept_look.py
# 300 seeded mutations of the three kits through validate and build: no traceback, hang or partial output
fuzz: setup
	$(PY) scripts/fuzz.py --mutations $(or $(MUTATIONS),300) --seed $(or $(SEED),16)

clean:
	rm -rf output/*/ output/.cache

# BENCH="--only small --runs 5": some parts only (see bench/run.py)
bench: setup
	$(PY) -m pip install -q $(EDITABLE) '.[bench]'
	$(PY) bench/run.py $(BENCH)

# the references written from the code: docs/schema.md, docs/cli.md, docs/templates.md (tests fail when they differ)
docs: setup
	$(PNPGEN) schema --write-docs docs

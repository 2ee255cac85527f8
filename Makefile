# Mythos Tables. `make run` starts everything on the embedded default; `make test` runs the whole suite.
# Both install into ./.venv first if needed, with the pinned versions of requirements.lock.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PYTEST_WORKERS ?= 2

.PHONY: install run test test-fast bench soak balance lint clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements.lock -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/mythos run

test: install
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile

test-fast: install
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile -m "not e2e"

bench: install
	$(BIN)/python -m bench

soak: install
	MYTHOS_SOAK=1 $(BIN)/python -m pytest tests/soak -q

balance: install
	$(BIN)/python -m tests.balance_rise_of_cthulhu
	$(BIN)/python -m tests.balance_great_old_one

lint: install
	$(BIN)/python -m compileall -q shared rules_service session_service tests

clean:
	rm -rf $(VENV) var .pytest_cache

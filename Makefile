# Mythos Tables. `make run` starts everything on the embedded default; `make test` runs the whole suite.
# Both install into ./.venv first if needed, with the pinned versions of requirements.lock.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# Three xdist workers on two cores: the suite is CPU-bound, but a third of its end-to-end time is spent waiting (idle
# streams, timers, AI pacing), which a third worker fills (same run: 2 workers 534 s at 74% busy, 3 workers 440 s
# at 89%).
PYTEST_WORKERS ?= 3

# Python writes its bytecode caches (./**/__pycache__, ignored by git) even where the environment says not to: a
# test run starts the services' processes by the dozen, and each would compile the project's modules again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install browser run cluster test test-fast bench ai-table soak partitions balance lint clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements.lock -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/mythos run

# The scaled stack on this machine: Redis Cluster (3 primaries + 3 replicas), the queue's Redis (a primary, a replica
# and 3 Sentinels), 2 rules, 2 session, 2 workers, and HAProxy (installed from Debian's packages if missing) serving
# the API on PORT (8000) as `make run` does.
cluster: install
	$(BIN)/mythos cluster

# The browser tests drive Debian's headless Chromium through its ChromeDriver: installed here when missing.
browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver) \
		|| echo "could not install Chromium here: the browser tests will fail and say how to install it"; \
	fi

test: install browser
	MYTHOS_REQUIRE_BROWSER=1 $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder

test-fast: install
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not e2e"

bench: install
	$(BIN)/python -m bench

# The AI strength table of docs/ai.md (levels against random and the level below, per game): long, not in test.
ai-table: install
	nice $(BIN)/python -m bench.ai_strength --jobs 2 --write-docs

# make soak runs the partition campaign too (two rounds of its three faults): as root, like make partitions.
soak: install
	MYTHOS_SOAK=1 MYTHOS_PARTITION_ROUNDS=$${MYTHOS_PARTITION_ROUNDS:-2} $(BIN)/python -m pytest tests/soak tests/partitions tests/property -q

# The partition campaign (tests/partitions, docs/reliability.md "Partitions"): the scaled deployment across three
# hosts made of network namespaces, HAProxy and clients on a fourth; a host cut off, a host killed, the host of the
# most primaries isolated; every acknowledgement checked against the logs after healing. A few minutes. It makes
# network namespaces, veth pairs and a bridge, so it needs root.
partitions: install
	@if [ "$$(id -u)" -ne 0 ]; then \
		echo "make partitions needs root: it makes network namespaces, veth pairs and a bridge (ip netns). Run it as root: sudo make partitions" >&2; \
		exit 2; \
	fi
	MYTHOS_PARTITIONS=1 $(BIN)/python -m pytest tests/partitions -q -s

balance: install
	$(BIN)/python -m tests.balance_rise_of_cthulhu
	$(BIN)/python -m tests.balance_great_old_one

# ruff on every Python file .gitignore leaves, mypy on shared/, both services, deploy/stacks/ and docs/bots/, and import-linter's contracts (no
# import circle, the session service's layers); settings in pyproject.toml.
lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache .import_linter_cache

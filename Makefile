# btsim: two commands do all set-up on a fresh machine with Python 3.11+ and make.
#   make report   create .venv, install btsim, run the default experiment suite into results/
#                 (report.html, report.md and the offline explorer.html);
#                 make report CATALOG=all also rates every unit you imported
#   make test     create .venv, install btsim with test extras, run ruff, mypy and pytest
#   make typecheck  mypy over sim/ (pandas stubs from the dev extra)
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	&& { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
JOBS ?= -1
TRIALS ?=
# pytest worker processes for make test (pytest-xdist); 0 runs the suite in this process
PYTEST_WORKERS ?= 2
RUN_FLAGS := --jobs $(JOBS) $(if $(TRIALS),--trials $(TRIALS),)
# CATALOG=all: make report also rates every unit of your catalog (built-in plus the units
# imported with `btsim units import DIR`) in both games: experiments/catalog_all/ (the Classic
# side's size is max_units there)
CATALOG ?= builtin
CATALOG_RUNS := $(if $(filter all,$(CATALOG)),experiments/catalog_all/*.toml,)

.PHONY: report test lint typecheck bench clean install

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "make: Python 3.11 or newer is required" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed

report: $(VENV)/.installed
	@case "$(CATALOG)" in builtin|all) ;; *) echo "make: CATALOG=$(CATALOG): expected builtin or all" >&2; exit 2;; esac
	$(BIN)/btsim run experiments/*.toml $(CATALOG_RUNS) $(RUN_FLAGS) --out results
	$(BIN)/btsim report results

# the Classic engine's numba code compiles (cold: ~1 min of one core) while ruff and mypy run,
# so the suite's warm-up (tests/conftest.py) only loads numba's cache
test: $(VENV)/.installed-test
	@$(BIN)/python -c 'from sim.classic.engine import sampler; sampler.warm_up()' & warm=$$!; \
	$(BIN)/ruff check sim tests tools && $(BIN)/python -m mypy sim; rc=$$?; \
	wait $$warm || echo "make: engine warm-up failed; pytest compiles it" >&2; exit $$rc
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check sim tests tools

# mypy (with pandas-stubs) over sim/, configured in pyproject.toml [tool.mypy]
typecheck: $(VENV)/.installed-test
	$(BIN)/python -m mypy sim

bench: $(VENV)/.installed
	$(BIN)/btsim bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache

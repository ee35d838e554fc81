# Two commands do everything: `make demo` and `make test`. Each creates .venv on first use.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
BASE := $(VENV)/.base-installed
DEV := $(VENV)/.test-installed

.PHONY: demo test lint typecheck unit bench fuzz clean browser

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# The compiled simulation kernels (setup.py, optional Cython extensions) are built by the
# editable install, again whenever their sources change; tests/nebulia/test_neb_kernel.py fails
# when one did not build (TACTICA_KERNELS_OPTIONAL=1: a machine without a C compiler).
KERNELS := setup.py $(wildcard src/tactica/rulesets/*/_kernel.pyx src/tactica/engine/*.pxi)

$(BASE): pyproject.toml $(KERNELS) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[designer,plot,web]'
	touch $@

# The tests run simulations on a Dask LocalCluster too: the 'sim' extra comes with them.
$(DEV): pyproject.toml $(KERNELS) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,sim]'
	touch $(BASE) $@

demo: $(BASE)
	$(BIN)/tactica demo

lint: $(DEV)
	$(BIN)/ruff check src tests bench

typecheck: $(DEV)
	$(BIN)/mypy

# The browser tests drive the system's Chromium (Debian's package); install it where apt-get
# can (as root), else they skip and say why. Playwright never downloads a browser here.
browser:
	@if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
	      || echo "chromium could not be installed: the browser tests will skip"; \
	  else echo "no chromium and no apt-get as root: the browser tests will skip"; fi; \
	fi

unit: $(DEV) browser
	$(BIN)/pytest -q README.md tests src/tactica

test: lint typecheck unit

bench: $(DEV)
	$(BIN)/python bench/dice.py
	$(BIN)/python bench/battle.py

# The long fuzzing run (not part of `make test`): 100,000 inputs over the scenario and map files
# of the five games, the dice language, every game's fight logs and play's input, 5 s and 3 GB
# at most each; it reports crashes, hangs and memory, in all and per game (see
# tests/fuzz/long_run.py; FUZZ_ARGS="--inputs 1000"). Then the differential run of the
# compiled kernels: 1,000 random valid scenarios a game played by kernel and reference and
# compared, mismatches shrunk, and 100 a game again on an AddressSanitizer build of the
# kernels where the compiler has one (DIFF_ARGS="--differential 50 --asan-scenarios 5").
fuzz: $(DEV)
	$(BIN)/python tests/fuzz/long_run.py --inputs 100000 --report fuzz-report.json $(FUZZ_ARGS)
	$(BIN)/python tests/fuzz/long_run.py --differential 1000 --asan-scenarios 100 \
	  --report fuzz-differential.json $(DIFF_ARGS)

clean:
	rm -rf $(VENV) build src/*.egg-info
	rm -f src/tactica/rulesets/*/_kernel.c src/tactica/rulesets/*/_kernel.*.so

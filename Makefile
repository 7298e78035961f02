# Two commands matter: `make run` (set up and launch the app) and `make test` (set up and run
# the whole suite headless).  Both create .venv with the Python on PATH if it is missing, and
# build the native engine (tafl_native/, Rust) into it when cargo is on PATH; without cargo the
# app runs on its Python engine and make says so in one line.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CARGO := $(shell command -v cargo 2>/dev/null)
NATIVE_STAMP := $(VENV)/.native-built
NATIVE_SOURCES := $(wildcard tafl_native/Cargo.toml tafl_native/Cargo.lock tafl_native/pyproject.toml tafl_native/.cargo/config.toml) \
	$(shell find tafl_native/src -name '*.rs' 2>/dev/null)

.PHONY: run test lint bench clean native

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --upgrade pip >/dev/null
	$(BIN)/python -m pip install -e ".[test,lab,maker]"
	touch $(STAMP)

# The native engine, release profile (maturin through pip), rebuilt when its sources change.
ifeq ($(CARGO),)
native: $(STAMP)
	@echo "cargo not found: the native engine is not built; Tafl Desktop runs on its Python engine (slower)."
else
native: $(NATIVE_STAMP)

$(NATIVE_STAMP): $(STAMP) $(NATIVE_SOURCES)
	$(BIN)/python -m pip install --no-deps ./tafl_native
	touch $@
endif

run: native
	$(BIN)/tafl-desktop

# With cargo: the Rust tests and clippy first, then the suite (which then must find the module).
test: native
ifneq ($(CARGO),)
	cd tafl_native && cargo test -q
	cd tafl_native && cargo clippy -q --all-targets -- -D warnings
	cd tafl_native && cargo clippy -q --features python -- -D warnings
	TAFL_NATIVE_EXPECTED=1 QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q
else
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q
endif
	$(BIN)/ruff check .
	$(BIN)/mypy

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
ifneq ($(CARGO),)
	cd tafl_native && cargo clippy -q --all-targets -- -D warnings
endif

bench: native
	$(BIN)/tafl-desktop bench

clean:
	rm -rf $(VENV) build dist *.egg-info tafl_native/target

# The native engine checked against the core at length: perft 4 of every preset re-derived with the
# core, 120,000 plies of differential play (about half an hour); and hnefatafl.org's engine, built from
# its crate with cargo into a cache, played over HTP both ways (tests/test_hnefatafl_org_crate.py).
.PHONY: test-slow
test-slow: native
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -m slow tests/test_native_perft.py tests/test_native_differential.py \
		tests/test_hnefatafl_org_crate.py

# Every shipped puzzle re-proved from scratch (a unique forced win under the rules it names, its
# stored solution tree answering every defence): some ten minutes, most of it the 11x11 sets.
.PHONY: test-puzzles
test-puzzles: native
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -m slow tests/test_study_puzzles.py

# Build the Linux bundle and tarball with PyInstaller (installer/build_linux.sh) and start them as a
# player would: --version, --self-test, install.sh/uninstall.sh in a temporary HOME.  Slow (~1 min).
.PHONY: test-installer
test-installer: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -s -m slow tests/test_installer_bundle.py

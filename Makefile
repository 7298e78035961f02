# Two commands matter: `make run` (set up and launch the app) and `make test` (set up and run
# the whole suite headless).  Both create .venv with the Python on PATH if it is missing, and
# build the native engine (tafl_native/, Rust) into it when cargo is on PATH; without cargo the
# app runs on its Python engine and make says so in one line.
#
# `make run` installs only what the window needs (pyproject's dependencies); `make test` adds the
# extras a developer needs (test: pytest, ruff, mypy, SciPy as the tests' reference...; lab: Dask
# for the rules lab's cluster back-end; maker: ezdxf for DXF).  Each set has its own stamp, so `make test` after `make run`
# installs only the difference.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
CARGO := $(shell command -v cargo 2>/dev/null)
NATIVE_STAMP := $(VENV)/.native-built
NATIVE_SOURCES := $(wildcard tafl_native/Cargo.toml tafl_native/Cargo.lock tafl_native/pyproject.toml tafl_native/.cargo/config.toml) \
	$(shell find tafl_native/src -name '*.rs' 2>/dev/null)
# setuptools reports every editable install in a boxed "Editable installation" notice that newer pips
# show; it is meant for developers, so the player's console does not get it.
PIP := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip

.PHONY: run test lint bench clean native

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): $(BIN)/python pyproject.toml
	@echo "Installing the window's Python packages into $(VENV) (PySide6, ReportLab, Matplotlib...)"
	$(PIP) install -q --upgrade pip
	$(PIP) install -e .
	touch $@

$(TEST_STAMP): $(RUN_STAMP)
	@echo "Installing the test, lab and maker extras into $(VENV) (pytest, mypy, ruff, SciPy, Dask, ezdxf...)"
	$(PIP) install -e ".[test,lab,maker]"
	touch $@

# The native engine, release profile (maturin through pip), rebuilt when its sources change.
ifeq ($(CARGO),)
native: $(RUN_STAMP)
	@echo "cargo not found: the native engine is not built; Tafl Desktop runs on its Python engine (slower)."
else
native: $(NATIVE_STAMP)

$(NATIVE_STAMP): $(RUN_STAMP) $(NATIVE_SOURCES)
	@echo "Building the native engine (Rust, compiled for this processor): a few minutes the first time..."
	$(PIP) install --no-deps ./tafl_native
	touch $@
endif

run: native
	$(BIN)/tafl-desktop

# The screen-reader tests (tests/test_atspi_board.py) read the window through AT-SPI: Debian packages,
# installed once by apt-get where it may run (root or password-less sudo); elsewhere one line says so
# and those tests skip.
ATSPI_PACKAGES := xvfb dbus at-spi2-core python3-pyatspi gir1.2-atspi-2.0 python3-gi libxcb-cursor0 \
	libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0
SUDO = $(shell [ "$$(id -u)" = 0 ] && echo "" || (sudo -n true 2>/dev/null && echo "sudo -n" || echo none))
.PHONY: atspi-packages
atspi-packages:
	@if dpkg -s $(ATSPI_PACKAGES) >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1 || [ "$(SUDO)" = none ]; then \
		echo "AT-SPI packages missing and apt-get cannot run here: the screen-reader tests will be skipped."; \
	else $(SUDO) apt-get install -y -q $(ATSPI_PACKAGES) >/dev/null 2>&1 || \
		($(SUDO) apt-get update -q >/dev/null 2>&1 && $(SUDO) apt-get install -y -q $(ATSPI_PACKAGES) >/dev/null 2>&1) || \
		echo "AT-SPI packages could not be installed: the screen-reader tests will be skipped."; fi

# The suite runs in worker processes (pytest-xdist), one more than the cores: many tests wait part of
# their time (a child process starting, a timeout running out, the window's event loop), and the
# extra worker keeps the cores busy meanwhile.  `make test PYTEST_FLAGS=` runs it in one process.
# --durations lists the slowest tests, so a test that grows shows in every run's log.
TEST_WORKERS := $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
PYTEST_FLAGS ?= -n $(TEST_WORKERS) --dist worksteal --durations=15

# With cargo: the Rust tests and clippy first, then the suite (which then must find the module).
test: native $(TEST_STAMP) atspi-packages
ifneq ($(CARGO),)
	cd tafl_native && cargo test -q
	cd tafl_native && cargo clippy -q --all-targets -- -D warnings
	cd tafl_native && cargo clippy -q --features python -- -D warnings
	TAFL_NATIVE_EXPECTED=1 QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q $(PYTEST_FLAGS)
else
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q $(PYTEST_FLAGS)
endif
	$(BIN)/ruff check .
	$(BIN)/mypy

lint: $(TEST_STAMP)
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
test-slow: native $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -m slow tests/test_native_perft.py tests/test_native_differential.py tests/test_atspi_board.py \
		tests/test_typed_real_games.py tests/test_gui_accessible_names.py \
		tests/test_hnefatafl_org_crate.py

# Every shipped puzzle re-proved from scratch (a unique forced win under the rules it names, its
# stored solution tree answering every defence): some ten minutes, most of it the 11x11 sets.
.PHONY: test-puzzles
test-puzzles: native $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -m slow tests/test_study_puzzles.py

# Build the Linux bundle and tarball with PyInstaller (installer/build_linux.sh) and start them as a
# player would: --version, --self-test, install.sh/uninstall.sh in a temporary HOME.  Slow (~1 min).
.PHONY: test-installer
test-installer: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -s -m slow tests/test_installer_bundle.py

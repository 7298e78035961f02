# Two commands matter: `make run` (set up and launch the app) and `make test` (set up and run
# the whole suite headless).  Both create .venv with the Python on PATH if it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --upgrade pip >/dev/null
	$(BIN)/python -m pip install -e ".[test,lab,maker]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tafl-desktop

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q
	$(BIN)/ruff check .

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/tafl-desktop bench

clean:
	rm -rf $(VENV) build dist *.egg-info

# Build the Linux bundle and tarball with PyInstaller (installer/build_linux.sh) and start them as a
# player would: --version, --self-test, install.sh/uninstall.sh in a temporary HOME.  Slow (~1 min).
.PHONY: test-installer
test-installer: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -s -m slow tests/test_installer_bundle.py

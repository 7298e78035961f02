"""`perft` and `bench` with --engine native|python, run as a user runs them (a real process).

Contract (issue 31): `--engine native|python` on `perft` and `bench`, native by default where it
is built, and a top-level "engine" key in `bench --json` naming the engine that ran.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tafl_desktop import native

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.unavailable_reason()}")


def cli(*argv: str, hide_native: bool = False) -> subprocess.CompletedProcess:
    """The command line in a fresh interpreter; ``hide_native`` makes ``tafl_native`` unimportable,
    as on a machine without a Rust toolchain."""
    code = "import sys\n"
    if hide_native:
        code += "sys.modules['tafl_native'] = None\n"
    code += "from tafl_desktop.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=300)


@needs_native
@pytest.mark.parametrize("args", [["brandubh", "3"], ["tablut_camps", "3", "--set", "king_capture=strong"],
                                  ["copenhagen", "2", "--position", "/11/11/11/11/8tTT/8TK1/9TT/11/11/11/11/",
                                   "--to-move", "defenders"]])
def test_perft_gives_the_same_count_on_both_engines(args):
    py = cli("perft", *args, "--engine", "python")
    nat = cli("perft", *args, "--engine", "native")
    default = cli("perft", *args)
    assert py.returncode == nat.returncode == default.returncode == 0, (py.stderr, nat.stderr)
    assert py.stdout == nat.stdout == default.stdout
    assert int(py.stdout) > 0


@needs_native
def test_bench_json_names_the_engine_that_ran():
    for engine in ("native", "python"):
        run = cli("bench", "--json", "--seconds", "0.05", "--engine", engine)
        assert run.returncode == 0, run.stderr
        data = json.loads(run.stdout)
        assert data["engine"] == engine
        assert [r["variant"] for r in data["variants"]] == ["brandubh", "tablut", "copenhagen", "alea_evangelii"]
        assert all(r["perft_nodes"] > 0 and r["playout_plies"] > 0 for r in data["variants"])
    default = json.loads(cli("bench", "--json", "--seconds", "0.05").stdout)
    assert default["engine"] == "native"


def test_without_the_native_engine_the_python_engine_runs_and_native_is_refused_in_one_line():
    run = cli("bench", "--json", "--seconds", "0.05", hide_native=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["engine"] == "python"
    assert cli("perft", "brandubh", "2", hide_native=True).stdout.strip() == "960"
    refused = cli("perft", "brandubh", "2", "--engine", "native", hide_native=True)
    assert refused.returncode == 1
    assert refused.stdout == ""
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "--engine native" in refused.stderr and "not built" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_an_unknown_engine_is_refused_by_the_command_line():
    run = cli("perft", "brandubh", "2", "--engine", "fortran")
    assert run.returncode == 2
    assert "--engine" in run.stderr and "Traceback" not in run.stderr


@needs_native
def test_perft_refuses_the_native_engine_for_another_family():
    run = cli("perft", "fox_geese_13", "2", "--engine", "native")
    assert run.returncode == 1
    assert "only the Tafl games" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert cli("perft", "fox_geese_13", "2").returncode == 0  # default: the Python engine there

"""The Rules Lab on the native engine: the same seed gives the same games on one local worker
and on a real local Dask cluster (loopback), and the engine is part of what a study is."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tafl_desktop.ai.engine import native_search_available

pytestmark = pytest.mark.skipif(not native_search_available(), reason="the native engine is not built")

STUDY = ["copenhagen", "--vary", "king_capture=strong,custodial", "--level", "medium", "--games", "1",
         "--max-plies", "60", "--seed", "4", "--engine", "native"]


def lab(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *argv], capture_output=True, text=True, timeout=600)


def games(folder) -> list[tuple]:
    rows = [json.loads(x) for x in (folder / "games.jsonl").read_text().splitlines()]
    return sorted((r["cell"], r["game"], r["winner"], tuple(r["moves"]), r["engine"]) for r in rows)


def test_native_medium_games_are_the_same_on_a_pool_and_on_dask(tmp_path):
    distributed = pytest.importorskip("distributed")
    r = lab("lab", *STUDY, "--workers", "1", "--out", str(tmp_path / "pool"), "--json")
    assert r.returncode == 0, r.stderr
    pool = json.loads(r.stdout)
    assert pool["engine"] == "native"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        d = lab("lab", *STUDY, "--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "dask"), "--json")
    assert d.returncode == 0, d.stderr
    assert json.loads(d.stdout)["cells"] == pool["cells"]
    assert games(tmp_path / "dask") == games(tmp_path / "pool")
    assert all(g[4] == "native" and len(g[3]) > 4 for g in games(tmp_path / "pool"))


def test_a_study_keeps_its_engine_and_refuses_another(tmp_path):
    folder = tmp_path / "s"
    argv = ["brandubh", "--vary", "king_capture=strong,custodial", "--level", "beginner", "--games", "1",
            "--max-plies", "30", "--out", str(folder), "--json"]
    first = lab("lab", *argv, "--engine", "python")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["engine"] == "python"
    again = lab("lab", *argv)  # no --engine: the folder's study goes on with its own engine
    assert again.returncode == 0 and json.loads(again.stdout)["engine"] == "python"
    other = lab("lab", *argv, "--engine", "native")
    assert other.returncode != 0 and "different study" in other.stderr
    assert len(other.stderr.strip().splitlines()) == 1


def test_an_old_study_file_without_an_engine_reads_as_python(tmp_path):
    from tafl_desktop.lab.study import Study, StudyError

    s = Study.create("brandubh", ["king_capture=strong,custodial"], "easy", "easy", 2, engine="python")
    data = s.to_data()
    data.pop("engine")
    old = Study.from_data(data)
    assert old.engine == "python" and old.fingerprint() == s.fingerprint()
    data["engine"] = "warp"
    with pytest.raises(StudyError):
        Study.from_data(data)

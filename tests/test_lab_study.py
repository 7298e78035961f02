"""The rules lab (issue 22), driven as a user does: ``tafl-desktop lab`` in a subprocess, real
folders on disk, a kill half-way, and a real local Dask cluster on loopback.

Games are played by the Beginner level on Brandubh with a ply cap, so the whole file runs in
well under a minute; the statistics are pinned against published figures."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tafl_desktop.lab.stats import games_to_tell, wilson

STUDY = ["brandubh", "--vary", "king_capture=strong,custodial", "--level", "beginner", "--games", "3",
         "--max-plies", "80", "--seed", "7"]


def lab(*argv: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *argv], capture_output=True, text=True,
                          timeout=timeout)


def cells_of(out: str) -> list[dict]:
    return json.loads(out)["cells"]


@pytest.fixture(scope="module")
def pool_run(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("pool") / "study"
    r = lab("lab", *STUDY, "--workers", "1", "--out", str(folder), "--json")
    assert r.returncode == 0, r.stderr
    return {"folder": folder, "report": json.loads(r.stdout), "stderr": r.stderr}


def test_json_report_keeps_the_contract(pool_run) -> None:
    report = pool_run["report"]
    assert report["variant"] == "brandubh" and report["seed"] == 7
    assert [c["options"] for c in report["cells"]] == [{"king_capture": "strong"}, {"king_capture": "custodial"}]
    for c in report["cells"]:
        assert c["games"] == 3
        assert c["attackers"] + c["defenders"] + c["draws"] + c["capped"] == 3
        lo, hi = c["attackers_ci"]
        assert 0 <= lo <= c["attackers"] / 3 <= hi <= 1
        assert c["mean_plies"] > 0
    # progress and the time left went to stderr while it ran
    assert "6/6 games" in pool_run["stderr"]


def test_outputs_are_written_and_the_chart_is_a_real_png_and_pdf(pool_run) -> None:
    from pypdf import PdfReader

    folder = pool_run["folder"]
    lines = (folder / "games.jsonl").read_text().splitlines()
    assert len(lines) == 6
    # each game's cost, measured by its worker, and their mean once for the study (outside the cells,
    # which the same seed reproduces exactly)
    cpu = [json.loads(x)["cpu_seconds"] for x in lines]
    assert all(c > 0 for c in cpu)
    assert pool_run["report"]["cpu_seconds_per_game"] == round(sum(cpu) / len(cpu), 2)
    assert all("cpu_seconds_per_game" not in c for c in pool_run["report"]["cells"])
    assert json.loads((folder / "summary.json").read_text())["cells"] == pool_run["report"]["cells"]
    png = (folder / "chart.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000
    assert len(PdfReader(str(folder / "chart.pdf")).pages) == 1


def test_same_seed_same_numbers_and_a_finished_study_replays_nothing(pool_run, tmp_path) -> None:
    again = lab("lab", *STUDY, "--workers", "1", "--out", str(tmp_path / "again"), "--json")
    assert cells_of(again.stdout) == pool_run["report"]["cells"]
    before = (pool_run["folder"] / "games.jsonl").read_bytes()
    rerun = lab("lab", *STUDY, "--out", str(pool_run["folder"]), "--json")
    assert rerun.returncode == 0 and "0/6" not in rerun.stderr
    assert (pool_run["folder"] / "games.jsonl").read_bytes() == before


def test_resume_after_a_kill_keeps_every_finished_game(pool_run, tmp_path) -> None:
    folder = tmp_path / "killed"
    argv = ["lab", "brandubh", "--vary", "king_capture=strong,custodial", "--level", "easy", "--games", "4",
            "--max-plies", "80", "--seed", "7", "--workers", "1", "--out", str(folder), "--json"]
    proc = subprocess.Popen([sys.executable, "-m", "tafl_desktop", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    games = folder / "games.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not games.exists() or len(games.read_bytes().splitlines()) < 2):
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = games.read_bytes()
    assert 2 <= len(kept.splitlines()) < 8, "the kill came too late to test a resume"
    with open(games, "ab") as f:  # a line torn by a kill mid-write
        f.write(b'{"cell": 1, "game": 3, "winn')
    done = lab(*argv)
    assert done.returncode == 0, done.stderr
    after = games.read_bytes()
    assert after.startswith(kept.rstrip(b"\n").split(b"\n")[0])
    rows = [json.loads(x) for x in after.splitlines()]
    assert sorted((r["cell"], r["game"]) for r in rows) == [(c, g) for c in range(2) for g in range(4)]
    # the resumed study equals one that was never interrupted
    whole = lab(*argv[:-3], "--out", str(tmp_path / "whole"), "--json")
    assert cells_of(done.stdout) == cells_of(whole.stdout)


def test_a_local_dask_cluster_gives_the_pool_s_numbers(pool_run, tmp_path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        r = lab("lab", *STUDY, "--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "dask"),
                "--json")
    assert r.returncode == 0, r.stderr
    assert cells_of(r.stdout) == pool_run["report"]["cells"]


def test_a_stored_game_opens_as_a_record(pool_run, tmp_path) -> None:
    from tafl_desktop.core.record import load_game

    out = tmp_path / "g.tafl.json"
    r = lab("lab-game", str(pool_run["folder"]), "1", "2", str(out))
    assert r.returncode == 0, r.stderr
    game = load_game(out)
    stored = [json.loads(x) for x in (pool_run["folder"] / "games.jsonl").read_text().splitlines()]
    row = next(x for x in stored if (x["cell"], x["game"]) == (1, 2))
    assert game.move_texts() == row["moves"]
    assert game.rules.variant.options["king_capture"] == "custodial"


def test_two_studies_compare_cell_by_cell(pool_run, tmp_path) -> None:
    r = lab("lab-compare", str(pool_run["folder"]), str(pool_run["folder"]), "--json")
    rows = json.loads(r.stdout)["rows"]
    assert len(rows) == 2 and all(x["difference"] == 0 and x["p_value"] == 1.0 for x in rows)


@pytest.mark.parametrize("argv, words", [
    (["--vary", "no_such=1,2"], "unknown option"),
    (["--vary", "king_capture=strong"], "at least two values"),
    (["--vary", "king_capture=strong,flying"], "not allowed"),
    (["--vary", "king_capture=strong,custodial", "--games", "0"], "games per cell"),
    (["--vary", "king_capture=strong,custodial", "--workers", "0"], "--workers"),
    (["--vary", "king_capture=strong,custodial", "--level", "grandmaster"], "unknown level"),
    (["--vary", "preset=brandubh,nowhere"], "unknown variant"),
])
def test_bad_studies_get_one_line(argv, words, tmp_path) -> None:
    r = lab("lab", "brandubh", *argv, "--out", str(tmp_path / "x"))
    assert r.returncode == 1
    assert words in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_a_folder_with_another_study_is_not_mixed(pool_run) -> None:
    before = (pool_run["folder"] / "games.jsonl").read_bytes()
    r = lab("lab", "brandubh", "--vary", "king_capture=strong,custodial", "--level", "beginner", "--games", "3",
            "--seed", "8", "--out", str(pool_run["folder"]))
    assert r.returncode == 1 and "different study" in r.stderr
    assert (pool_run["folder"] / "games.jsonl").read_bytes() == before


def test_wilson_interval_and_sample_size_match_published_figures() -> None:
    # Wilson (1927) score interval; Newcombe (1998), Statistics in Medicine 17:857, table I:
    # 0 of 10 -> 0 to 0.2775; 15 of 148 -> 0.0624 to 0.1605.
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(15, 148) == pytest.approx((0.0624, 0.1605), abs=1e-4)
    # turn2-research.md 5.3: about 780 decisive games tell 55 % from 50 % (alpha 0.05, power 0.8)
    assert 770 <= games_to_tell(0.5, 0.55) <= 800


def test_wilson_interval_is_scipys_without_scipy() -> None:
    # The lab computes Wilson's interval itself so that the window needs no SciPy (issue 36):
    # it must agree with SciPy's binomtest(...).proportion_ci(method="wilson") everywhere.
    from scipy.stats import binomtest

    for n in (1, 2, 3, 7, 20, 57, 148):
        for k in range(n + 1):
            for confidence in (0.8, 0.95, 0.99):
                ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
                assert wilson(k, n, confidence) == pytest.approx((ci.low, ci.high), abs=1e-12), (k, n)


def test_fisher_exact_is_scipys_without_scipy() -> None:
    # lab compare's p-value, computed without SciPy (issue 36), against SciPy's fisher_exact
    from scipy.stats import fisher_exact

    from tafl_desktop.lab.stats import fisher_exact_p

    for na, nb in ((1, 1), (3, 5), (10, 10), (20, 13), (57, 60), (200, 180)):
        for ka in range(0, na + 1, max(1, na // 7)):
            for kb in range(0, nb + 1, max(1, nb // 7)):
                expected = fisher_exact([[ka, na - ka], [kb, nb - kb]]).pvalue
                assert fisher_exact_p(ka, na, kb, nb) == pytest.approx(expected, abs=1e-9), (ka, na, kb, nb)
    # Fisher's tea-tasting table (3 of 4 cups right each way): two-sided p = 34/70
    assert fisher_exact_p(3, 4, 1, 4) == pytest.approx(34 / 70, abs=1e-12)


def test_presets_side_by_side(tmp_path) -> None:
    r = lab("lab", "fox_geese_13", "--vary", "preset=fox_geese_13,fox_geese_15", "--level", "beginner",
            "--games", "2", "--max-plies", "40", "--workers", "1", "--out", str(tmp_path / "fox"), "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["sides"] == ["geese", "fox"]
    assert [c["options"] for c in report["cells"]] == [{"preset": "fox_geese_13"}, {"preset": "fox_geese_15"}]
    assert all(c["geese"] + c["fox"] + c["draws"] + c["capped"] == 2 for c in report["cells"])
    assert Path(tmp_path / "fox" / "chart.png").exists()


def test_the_rule_sheet_can_carry_a_study_s_chart(pool_run, tmp_path) -> None:
    from pypdf import PdfReader

    out = tmp_path / "rules.pdf"
    r = lab("print", "brandubh", "--parts", "rules", "--balance", str(pool_run["folder"]), "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = " ".join(p.extract_text() for p in PdfReader(str(out)).pages)
    assert "Balance at level Beginner, 6 games" in " ".join(text.split())
    plain = tmp_path / "plain.pdf"
    lab("print", "brandubh", "--parts", "rules", "--out", str(plain))
    assert "Balance at level" not in " ".join(p.extract_text() for p in PdfReader(str(plain)).pages)
    bad = lab("print", "brandubh", "--parts", "rules", "--balance", str(tmp_path / "nothing"), "--out", str(out))
    assert bad.returncode == 1 and "--balance" in bad.stderr and "Traceback" not in bad.stderr

"""Issue 45, "a stronger engine, proven by the match tool": the Texel tuner and tuned weights in a match.

Texel's method (Peter Österlund; Chess Programming Wiki, "Texel's Tuning Method") fits
``sigmoid(K * score)`` of quiet positions to their games' results.  The tuner rests on one fact about
our evaluation, pinned here: its score is linear in its weights.  A candidate weight set then plays a
match against today's (``native:weights=FILE``), and the match, not the fit, decides whether it ships;
these tests check that the candidate's weights really reach both searches.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tafl_desktop.ai.evaluation_tafl import WEIGHTS_FILE, file_weights, load_weights
from tafl_desktop.ai.tuning import texel
from tafl_desktop.core.paths import resources_dir

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def brandubh_games():
    return texel.real_games("brandubh", limit=80)


def test_the_evaluation_is_linear_in_its_weights_on_quiet_positions_of_real_games(brandubh_games):
    rules, games = brandubh_games
    positions = []
    for moves, _ in games[:30]:
        positions += texel.game_samples(rules, moves)[1]
    assert len(positions) > 100
    assert texel.linear_check(rules, positions) <= 1
    odd = dict(file_weights(), king_hostile=77, hunt=13, king_path=5, guard1=-31, tempo=40)
    assert texel.linear_check(rules, positions, odd) <= 1


def test_quiet_positions_have_nothing_forcing_and_nothing_to_capture(brandubh_games):
    from tafl_desktop.ai.evaluation_tafl import QUIET

    rules, games = brandubh_games
    reader = texel.TermReader(rules)
    for moves, _ in games[:10]:
        for pos in texel.game_samples(rules, moves, reader)[1]:
            assert reader.ev.tactics(pos)[0] == QUIET
            assert reader.ev.capture_moves(pos) == []


def test_the_fit_lowers_the_loss_keeps_the_fixed_terms_and_writes_a_valid_weights_file(brandubh_games, tmp_path):
    rules, games = brandubh_games
    samples = texel.collect([("brandubh", rules, games)])
    result = texel.fit(samples)
    assert result.train_after < result.train_before
    for name in texel.FIXED:
        assert result.weights[name] == file_weights()[name]
    assert result.weights != file_weights()
    template = (resources_dir() / WEIGHTS_FILE).read_text(encoding="utf-8")
    out = tmp_path / "tuned.toml"
    out.write_text(texel.weights_text(template, result.weights, {}), encoding="utf-8")
    assert load_weights(out) == load_weights(out, "brandubh") == result.weights
    # the comments that explain each term stay
    assert out.read_text(encoding="utf-8").count("#") == template.partition("\n[variants.")[0].count("#")
    # the loss the fit reports is the loss of the weights it wrote
    vec = np.array([result.weights[n] for n in texel.term_names()], dtype=float)
    k = np.array([result.k["brandubh"]])
    assert texel.loss(samples, vec, k, samples.game % texel.HOLD_OUT != 0) == pytest.approx(result.train_after)


def _odd_weights(tmp_path: Path) -> Path:
    weights = dict(file_weights(), defender=400, king_hostile=150, king_mobility=40, tempo=200)
    template = (resources_dir() / WEIGHTS_FILE).read_text(encoding="utf-8")
    path = tmp_path / "odd.toml"
    path.write_text(texel.weights_text(template, weights, {}), encoding="utf-8")  # no game's own section
    return path


@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_player_with_weights_searches_with_them_in_either_engine(tmp_path, engine):
    from tafl_desktop.ai.engine import native_search_available
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.match.players import make_agent, parse_player

    if engine == "native" and not native_search_available():
        pytest.skip("the native search is not built here")
    rules = find_variant("brandubh").make_rules()
    path = _odd_weights(tmp_path)
    tuned = make_agent(parse_player(f"{engine}:nodes=500,weights={path}"), rules, seed=1)
    today = make_agent(parse_player(f"{engine}:nodes=500"), rules, seed=1)
    assert tuned.player.searcher.engine == engine
    assert tuned.player.searcher.ev.w.defender == 400
    assert today.player.searcher.ev.w.to_dict() == file_weights("brandubh")
    # the search itself scores with them: the same position, another score
    from tafl_desktop.ai.search import SearchLimits

    pos = rules.initial_position()
    pos, _ = rules.play(pos, rules.legal_moves(pos)[0])
    scores = [a.player.searcher.search(pos, SearchLimits(depth=1, nodes=0, time=10, threads=1)).score
              for a in (tuned, today)]
    assert scores[0] != scores[1]


def run_match(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "match", *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)


def test_the_match_cli_plays_a_weights_file_against_todays_weights(tmp_path):
    path = _odd_weights(tmp_path)
    proc = run_match("brandubh", "--player", f"native:weights={path}", "--player", "native", "--nodes", "300",
                     "--games", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["players"] == [f"native:weights={path}", "native"]
    assert report["wins"] + report["draws"] + report["losses"] == 2


@pytest.mark.parametrize("variant,spec,words", [
    ("brandubh", "native:weights={missing}", "cannot be read"),
    ("brandubh", "native:weights={bad}", "is not a term"),
    ("fox_geese_13", "python:weights={good}", "Tafl games only"),
])
def test_a_bad_weights_file_or_a_game_without_them_is_one_line(tmp_path, variant, spec, words):
    bad = tmp_path / "bad.toml"
    bad.write_text("[weights]\nkings_courage = 3\n", encoding="utf-8")
    text = spec.format(missing=tmp_path / "none.toml", bad=bad, good=_odd_weights(tmp_path))
    proc = run_match(variant, "--player", text, "--player", "python", "--nodes", "300", "--games", "2")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], proc.stderr


def test_a_variants_own_section_applies_to_that_variant_only(tmp_path):
    from tafl_desktop.ai.evaluation_tafl import TaflEvaluator, variant_sections
    from tafl_desktop.core.variants import find_variant

    template = (resources_dir() / WEIGHTS_FILE).read_text(encoding="utf-8")
    path = tmp_path / "w.toml"
    path.write_text(texel.weights_text(template, None, {"brandubh": {"defender": 77, "tempo": 3}}), encoding="utf-8")
    shared = load_weights(path)
    assert shared == load_weights(resources_dir() / WEIGHTS_FILE)
    assert load_weights(path, "brandubh") == dict(shared, defender=77, tempo=3)
    assert load_weights(path, "copenhagen") == shared
    assert variant_sections(path) == {"brandubh": {"defender": 77, "tempo": 3}}
    path.write_text(template.partition("\n[variants.")[0] + "\n[variants.tablut]\nqueen = 9\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a term"):
        load_weights(path, "copenhagen")  # a broken section is refused whichever game is played
    # the shipped file's sections reach the evaluator of their game (and the native tables with it)
    for vid in ("brandubh", "copenhagen", "tablut"):
        ev = TaflEvaluator(find_variant(vid).make_rules())
        assert ev.w.to_dict() == file_weights(vid)


def test_the_tuner_command_writes_a_candidate_file_with_the_variants_section(tmp_path):
    out = tmp_path / "candidate.toml"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "tafl_desktop.ai.tuning.texel", "--variants", "brandubh",
                           "--limit", "40", "--out", str(out), "--json"], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)["brandubh"]
    assert report["loss_train_after"] < report["loss_train_before"]
    assert load_weights(out) == file_weights()  # the shared weights stay as they are
    assert load_weights(out, "brandubh") == report["weights_after"] != file_weights("brandubh")

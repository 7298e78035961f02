"""Self-play: the report the CLI prints, level validation, the ply cap, the random mover."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tafl_desktop.ai.selfplay import play_game, run_selfplay
from tafl_desktop.core.variants import find_variant

KEYS = {"attackers_wins", "defenders_wins", "draws", "average_length", "moves_per_second", "nodes_per_second"}


def test_report_has_the_contract_keys_and_adds_up():
    rep = run_selfplay(find_variant("brandubh"), games=4, attackers="easy", defenders="random", seed=3)
    assert KEYS <= rep.keys()
    assert rep["attackers_wins"] + rep["defenders_wins"] + rep["draws"] == 4
    assert rep["attackers_wins"] == 4  # easy never loses to the random mover
    assert rep["average_length"] > 0 and rep["nodes_per_second"] > 0 and rep["moves_per_second"] > 0


def test_unknown_level_is_a_one_line_value_error():
    with pytest.raises(ValueError) as err:
        run_selfplay("brandubh", games=1, attackers="wizard", defenders="easy")
    msg = str(err.value)
    assert "wizard" in msg and "beginner" in msg and "expert" in msg and "random" in msg and "\n" not in msg


def test_ply_cap_makes_a_reported_draw():
    g = play_game("copenhagen", "random", "random", seed=1, max_plies=10)
    assert g["plies"] == 10 and g["winner"] is None and g["reason"] == "ply_limit"
    rep = run_selfplay("copenhagen", games=2, attackers="random", defenders="random", max_plies=6)
    assert rep["draws"] == 2 and rep["capped"] == 2 and rep["average_length"] == 6


def test_same_seed_same_games_for_search_free_levels():
    a = run_selfplay("tablut", games=2, attackers="random", defenders="random", seed=5, keep_moves=True)
    b = run_selfplay("tablut", games=2, attackers="random", defenders="random", seed=5, keep_moves=True)
    assert a["games_detail"] == b["games_detail"]


def test_toggles_pass_through_to_the_games():
    v = find_variant("brandubh").with_options({"movement": "single_step"})
    g = play_game(v, "random", "random", seed=2, max_plies=30)
    rules = v.make_rules()
    pos = rules.initial_position()
    for text in g["moves"]:
        move = rules.parse_move(pos, text)
        assert move in rules.legal_moves(pos)
        pos, _ = rules.play(pos, move)


def test_parallel_jobs():
    rep = run_selfplay("brandubh", games=2, attackers="beginner", defenders="beginner", jobs=2, seed=1)
    assert rep["attackers_wins"] + rep["defenders_wins"] + rep["draws"] == 2


def test_cli_selfplay_json():
    out = subprocess.run([sys.executable, "-m", "tafl_desktop", "selfplay", "brandubh", "--games", "2",
                          "--attackers", "random", "--defenders", "easy", "--set", "movement=single_step",
                          "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rep = json.loads(out.stdout)
    assert KEYS <= rep.keys() and rep["defenders"] == "easy"
    bad = subprocess.run([sys.executable, "-m", "tafl_desktop", "selfplay", "brandubh", "--attackers", "nobody"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "levels:" in bad.stderr


@pytest.mark.parametrize("vid, first, expected", [("brandubh", "medium", 40), ("fox_geese_17", "medium", 0),
                                                  ("fox_geese_17", "random", 10)])
def test_opening_variety_is_scaled_like_the_levels_margins(monkeypatch, vid, first, expected):
    """The opening margin is in evaluation units; where the evaluator says they are worth less
    to a side (in the one-way Fox games a quarter for the fox, nothing for the geese, whose every
    step is for good) the opening's variety shrinks with them, as the levels' own margins do."""
    from tafl_desktop.ai import selfplay
    from tafl_desktop.ai.player import ComputerPlayer

    seen: list[int | None] = []
    original = ComputerPlayer.choose

    def recording(self, pos, history_keys=(), should_stop=None, margin=None, **kw):
        if not self.level.random_mover:
            seen.append(margin)
        return original(self, pos, history_keys, should_stop, margin, **kw)

    monkeypatch.setattr(ComputerPlayer, "choose", recording)
    selfplay.play_game(vid, first, "medium" if first == "random" else "random", seed=1, max_plies=2)
    assert seen == [expected] and selfplay.OPENING_MARGIN == 40

"""Tafl toggles of turn and movement: first_move, movement, king_speed (and the CLI's illegal-move report).

Every position is hand-made; each test cites the rule source it pins (shared/reference/sources 000..004,
tafl-rules.md).
"""

from __future__ import annotations

import pytest
from tafl_helpers import game_from, is_legal, move, position, rules_for, targets

from tafl_desktop.cli import main
from tafl_desktop.core.game import Game, IllegalMove, Side

# ------------------------------------------------------------------------------------------ first_move


def test_first_move_attackers_by_default_in_brandubh():
    """source 002: 'Black makes the first move' (the besieging side) -- the preset's default."""
    rules = rules_for("brandubh")
    start = rules.initial_position()
    assert rules.side_to_move(start) is Side.ATTACKERS
    froms = {rules.geometry.name(f) for f, _ in rules.legal_moves(start)}
    assert froms == {"d7", "d6", "a4", "b4", "f4", "g4", "d2", "d1"}


def test_first_move_defenders_gives_the_kings_side_the_first_move():
    """source 004 rule 3: 'The king's side makes the first move.'"""
    rules = rules_for("brandubh", first_move="defenders")
    start = rules.initial_position()
    assert rules.side_to_move(start) is Side.DEFENDERS
    froms = {rules.geometry.name(f) for f, _ in rules.legal_moves(start)}
    assert froms == {"d5", "c4", "e4", "d3"}  # the king on d4 is boxed in by his own men
    game = Game(rules)
    with pytest.raises(IllegalMove, match="not yours"):
        game.play_text("d1-c1")
    game.play_text("d5-c5")
    assert rules.side_to_move(game.position) is Side.ATTACKERS


def test_single_step_preset_starts_with_the_kings_side():
    """source 004 rule 3 as shipped in the single_step preset."""
    rules = rules_for("single_step")
    assert rules.side_to_move(rules.initial_position()) is Side.DEFENDERS
    assert rules_for("single_step", first_move="attackers").initial_position().side == Side.ATTACKERS


# -------------------------------------------------------------------------------------------- movement

OPEN = """
9 .........
8 .........
7 .........
6 .........
5 ....K....
4 .........
3 ..T......
2 .........
1 .t.......
"""


def test_movement_rook_any_distance_along_rows_and_columns():
    """source 001: 'Any piece (including the King) may move any number of cells horizontally or
    vertically ... like the rook in Chess.'"""
    rules = rules_for("papillons_escape", movement="rook")  # 9x9, no throne, no corners
    pos = position(rules, OPEN, "defenders")
    assert targets(rules, pos, "c3") == {f"c{r}" for r in (1, 2, 4, 5, 6, 7, 8, 9)} | {
        f"{f}3" for f in "abdefghi"}
    assert len(targets(rules, pos, "e5")) == 16
    assert not is_legal(rules, pos, "c3-d4")  # never diagonally


def test_movement_rook_never_jumps():
    """source 001: 'No piece may ever jump over another piece in its path.'"""
    rules = rules_for("papillons_escape", movement="rook")
    pos = position(rules, "Ke5 Tc3 tc6 tf3 ta1", "defenders")
    assert targets(rules, pos, "c3") == {"c1", "c2", "c4", "c5", "a3", "b3", "d3", "e3"}


def test_movement_single_step_one_square_for_every_piece():
    """source 004 rule 4: 'one piece is moved to an adjacent square along a row or column ... All pieces
    move in this way.'"""
    rules = rules_for("papillons_escape")  # movement = single_step
    pos = position(rules, OPEN, "defenders")
    assert targets(rules, pos, "c3") == {"b3", "d3", "c2", "c4"}
    assert targets(rules, pos, "e5") == {"d5", "f5", "e4", "e6"}
    pos_a = position(rules, OPEN, "attackers")
    assert targets(rules, pos_a, "b1") == {"a1", "c1", "b2"}
    assert "this piece may move at most 1 square" in rules.explain_illegal(pos, rules.parse_move(pos, "c3-c5"))


# ------------------------------------------------------------------------------------------ king_speed


def test_king_speed_limits_only_the_king():
    """tafl-rules.md 2.1 (per-piece speed, OpenTafl spd / AbstractPlay rook-1): the king moves at most N."""
    base = rules_for("tawlbwrdd")  # 11x11, no throne, no corners
    board = "Kf6 Tc3 ta1"
    free = targets(base, position(base, board, "defenders"), "f6")
    assert len(free) == 20
    rules = rules_for("tawlbwrdd", king_speed=2)
    pos = position(rules, board, "defenders")
    assert targets(rules, pos, "f6") == {"d6", "e6", "g6", "h6", "f4", "f5", "f7", "f8"}
    assert len(targets(rules, pos, "c3")) == 20  # a defender soldier is not slowed
    why = rules.explain_illegal(pos, rules.parse_move(pos, "f6-f9"))
    assert "at most 2 squares" in why


def test_king_speed_one_in_a_rook_game_and_never_faster_than_single_step():
    """tafl-rules.md 2.1: OpenTafl's Magpie is a rook game with king speed 1."""
    rules = rules_for("tawlbwrdd", king_speed=1)
    pos = position(rules, "Kf6 Tc3 ta1", "defenders")
    assert targets(rules, pos, "f6") == {"e6", "g6", "f5", "f7"}
    step = rules_for("papillons_escape", king_speed=3)  # single-step game: the king still steps once
    assert targets(step, position(step, OPEN, "defenders"), "e5") == {"d5", "f5", "e4", "e6"}


def test_king_speed_larger_than_the_board_is_no_limit():
    rules = rules_for("tawlbwrdd", king_speed=18)
    assert len(targets(rules, position(rules, "Kf6 Tc3 ta1", "defenders"), "f6")) == 20


# ------------------------------------------------------------------------------ the CLI's illegal move


def test_cli_illegal_move_exits_2_naming_the_move_and_why(capsys):
    """source 001: 'In Tablut the soldiers may move over the Konakis but in Hnefatafl such moves are
    forbidden' -- with throne_passable=nobody the CLI refuses a soldier crossing the empty throne."""
    pos = "/9/9/9/9/9/9/4T4/1K7/t8/"  # defender e3, king b2, attacker a1; throne e5 empty
    code = main(["play", "tablut", "--position", pos, "--to-move", "defenders",
                 "--set", "throne_passable=nobody", "--moves", "e3-e7"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "e3-e7" in err and "throne" in err and "e5" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    code = main(["play", "tablut", "--position", pos, "--to-move", "defenders", "--moves", "e3-e7", "--json"])
    assert code == 0


def test_single_step_game_through_game_object():
    """source 004 rule 4 through Game: a two-square move is refused with the reason."""
    rules = rules_for("single_step")
    game = game_from(rules, OPEN, "defenders")
    with pytest.raises(IllegalMove, match="c3-c5 is illegal: this piece may move at most 1 square"):
        game.play_text("c3-c5")
    new, caps = move(rules, game.position, "c3-c4")
    assert caps == set() and rules.piece_at(new, rules.geometry.parse_square("c4")) == "T"

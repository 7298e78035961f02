"""Why a move of one's own piece is refused: ``Game.check`` (the status bar and the CLI) must say
what is really wrong, in every family.

The case that read badly: a "move" that stays on its square (what clicking a piece twice, or
typing ``f1-f1``, sends).  Tafl said "a piece must move" even for a piece that *cannot* move, and
the Fox games and Dablot said the piece's own point "is occupied".  Now a piece with somewhere to
go gets "a move must go to another square/point", and a piece with no legal move gets why not:
blocked on every side, or another piece must capture.

Sources are cited per test (shared/reference/sources 000..004; "HG x.y" is
shared/reference/hunt-games.md).
"""

from __future__ import annotations

from tafl_desktop.cli import main
from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant


def check(vid: str, move: str, position: str | None = None, to_move: Side | None = None, **options) -> str | None:
    """``Game.check`` of ``move`` (text) in the preset's start or in ``position``."""
    rules = find_variant(vid).with_options(options).make_rules()
    start = rules.parse_position(position, to_move) if position else None
    game = Game(rules, start)
    return game.check(rules.parse_move(game.position, move))


# ---------------------------------------------------------------------------------------------- Tafl
def test_tafl_a_boxed_in_piece_is_said_to_be_blocked():
    """source 001: 'Any piece (including the King) may move any number of cells horizontally or
    vertically ... like the rook': the Copenhagen attacker on f1 has e1, g1 and f2 taken and the rim
    below, so it has no move at all."""
    why = check("copenhagen", "f1-f1")
    assert why == "the attacker on f1 cannot move: it is blocked on every side"
    assert "must move" not in why
    # a real move of that piece still names the square in the way
    assert check("copenhagen", "f1-f3") == "the way is blocked at f2"


def test_tafl_the_boxed_in_king_in_single_step_hnefatafl():
    """source 004 rule 4: 'one piece is moved to an adjacent square along a row or column'; rule 3:
    the king's side moves first.  At the start the king on e5 is ringed by his eight defenders."""
    assert check("papillons_escape", "e5-e5") == "the king on e5 cannot move: it is blocked on every side"


def test_tafl_a_piece_that_can_move_must_go_somewhere_else():
    """source 002: 'All pieces move like a Rook in chess' -- a move goes to another square."""
    assert check("copenhagen", "d1-d1") == (
        "a move must go to another square (the attacker on d1 cannot stay where it is)")


def test_tafl_reason_reaches_the_cli(capsys):
    """The CLI's one-line report carries the same sentence (source 001, as above)."""
    code = main(["play", "copenhagen", "--moves", "f1-f1"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot move: it is blocked on every side" in err and err.count("\n") == 1


# ----------------------------------------------------------------------------------------- Fox games
def test_fox_games_a_goose_with_no_free_point_is_not_told_its_own_point_is_occupied():
    """HG 2.4 / 2.2: a goose steps along a line to an empty point; at the start of the 13-geese game
    the goose on c1 has geese on all three of its neighbours, c2, d1 and d2."""
    why = check("fox_geese_13", "c1-c1")
    assert why == "the piece on c1 cannot move: every point it may step to is taken"
    assert "occupied" not in why
    assert check("fox_geese_13", "c1-c2") == "c2 is occupied"
    assert check("fox_geese_13", "a3-a3") == "a move must go to another point (the piece on a3 cannot stay where it is)"


def test_halatafl_the_other_fox_must_capture():
    """HG 4.1 (Halatafl, Arsac's rules): capture is compulsory.  With the sheep on c3 gone, the fox on
    c5 can jump c4, so the fox on e5 -- free to step -- has no legal move this turn."""
    rules = find_variant("halatafl").make_rules()
    start = rules.position_text(rules.initial_position())
    position = start.replace("c3,", "")
    why = check("halatafl", "e5-e5", position, Side(1))
    assert why == "the piece on e5 cannot move now: another capture is possible and capturing is compulsory"
    assert check("halatafl", "c5-c5", position, Side(1)) == (
        "a move must go to another point (the piece on c5 cannot stay where it is)")


# -------------------------------------------------------------------------------------------- Dablot
def test_dablot_a_boxed_in_soldier():
    """HG 1.4: every piece steps one point along a line to an empty point; at the start the south
    soldier on a1 has its own army on all three of its neighbours, a2, a3 and b1."""
    why = check("dablot", "a1-a1")
    assert why == "the piece on a1 cannot move: every point it may go to is taken"
    assert "occupied" not in why


def test_dablot_compulsory_capture_for_soldiers_freezes_the_other_pieces():
    """source 000 variant 1: soldiers must capture (soldier captures take precedence).  The soldier on
    c3 can take c4, so the soldier on a1 may not move this turn; without the house rule it may."""
    position = "south=sc3,kc1,sa1 north=sc4,sb2,ka13,sf13"
    assert check("dablot", "a1-a1", position, Side(0), compulsory_capture="soldiers") == (
        "the piece on a1 cannot move now: a soldier can capture, and soldiers must capture")
    assert check("dablot", "a1-a1", position, Side(0)) == (
        "a move must go to another point (the piece on a1 cannot stay where it is)")

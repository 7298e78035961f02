"""Issue 42 item 4: the move-list reader reads every capture suffix the record formats use, and
checks it against the captures our rules make.

Sources of the notations:
- OpenTafl writes the captures of a move after one ``x``, ``/``-separated: ``e5-e2xe3/e4``
  (``../shared/reference/opentafl-semantics.md``; the reader's docstring).
- The real games shipped in ``resources/games`` (hnefatafl-rs, MIT) append ``x`` plus the square
  once per captured piece (``e2-d2xc2xd3``), may write a piece twice when two rules take it, and
  leave out the king's capture (``resources/games/README.md``: "one ``x…`` per captured piece (the
  king's capture is not written)").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.core.families import FAMILIES
from tafl_desktop.core.game import Game
from tafl_desktop.core.move_list_text import MoveListError, listed_moves, play_listed
from tafl_desktop.core.variants import find_variant
from tafl_desktop.interop.game_table import read_table

GAMES = Path(__file__).resolve().parents[1] / "resources" / "games"
#: Copenhagen, line 258 of the real games: its ninth move takes two attackers (e2 and g2).
LINE_258 = "h1-h3 g5-g2 h3-h2xg2 g6-g2 k4-i4 e5-e2xf2 d1-d2 f5-j5 f1-f2xe2xg2"


def _play(text: str, variant: str = "copenhagen") -> Game:
    v = find_variant(variant)
    game = Game(v.make_rules())
    play_listed(game, listed_moves(text, FAMILIES["tafl"]))
    return game


def test_one_x_per_captured_piece_is_read_and_checked():
    game = _play(LINE_258)
    g = game.rules.variant.geometry
    assert sorted(g.name(s) for s in game.plies[-1].captures) == ["e2", "g2"]
    # the same move in OpenTafl's writing, and the pieces written twice: one game
    assert _play(LINE_258.replace("xe2xg2", "xe2/g2")).position == game.position
    assert _play(LINE_258.replace("xe2xg2", "xe2xg2xe2")).position == game.position


@pytest.mark.parametrize("claim", ["xe2", "xe2xg2xf3", "xg2xh2"])
def test_a_wrong_capture_list_is_still_refused(claim):
    with pytest.raises(MoveListError, match="move 9"):
        _play(LINE_258.replace("xe2xg2", claim))


def test_the_kings_capture_may_be_left_out_but_no_other_piece():
    """Brandubh, line 8 of the real games (under the rules its README gives): the last move takes
    the soldier on b4 and the king on c5, and the record writes ``xb4`` only."""
    variant = find_variant("brandubh").with_options(
        {"repetition": "allowed", "king_capture": "weak_near_throne", "encirclement": True})
    line = "d2-c2 d5-e5 d6-c6 d3-c3 f4-f3 e4-f4 b4-b3 d4-d5 d1-d3xc3 d5-b5 c6-b6 b5-c5 d3-d5 c4-b4 "
    for last in ("b6-b5xb4", "b6-b5xb4xc5"):
        game = Game(variant.make_rules())
        play_listed(game, listed_moves(line + last, FAMILIES["tafl"]))
        assert game.outcome is not None and game.outcome.reason == "king_captured"
    game = Game(variant.make_rules())
    with pytest.raises(MoveListError, match="move 15"):
        play_listed(game, listed_moves(line + "b6-b5xc5", FAMILIES["tafl"]))  # the soldier left out


@pytest.mark.slow
def test_every_real_game_is_read():
    """(Slow: 15 s to a minute; ``pytest -m slow tests/test_move_list_captures.py``.)  All 2,275
    games with moves of the shipped files replay under the rules their README gives (the rest of the
    2,277 lines are bare ``timeout`` lines); before the fix 418 were refused."""
    tables = {
        "copenhagen.csv": find_variant("copenhagen").with_options({"repetition": "allowed"}),
        "brandubh.csv": find_variant("brandubh").with_options(
            {"repetition": "allowed", "king_capture": "weak_near_throne", "encirclement": True}),
    }
    counts = {}
    for name, variant in tables.items():
        rows = list(read_table((GAMES / name).read_text(encoding="utf-8"), variant, name))
        assert [r.problem for r in rows if r.transfer is None] == []
        counts[name] = len(rows)
    assert counts == {"copenhagen.csv": 1752, "brandubh.csv": 523}


def test_convert_reads_a_double_capture_in_a_subprocess(tmp_path):
    src = tmp_path / "line.txt"
    src.write_text(LINE_258 + "\n", encoding="utf-8")
    out = tmp_path / "line.otg"
    r = subprocess.run([sys.executable, "-m", "tafl_desktop", "convert", str(src), str(out), "--variant", "copenhagen"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "f1-f2x" in out.read_text(encoding="utf-8")

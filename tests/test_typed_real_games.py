"""Every move of the 2,277 real games of ``shared/reference/games`` (1,752 Copenhagen, 523
Brandubh; rules as ``test_real_games.py`` sets them from that folder's README) typed as a player
types it in the move field (issue 40): ``d1-d3``, ``d1d3``, and the destination alone, which must
name the recorded move when exactly one legal move ends there and otherwise say that several do.
In-process through :func:`tafl_desktop.core.move_entry.read_typed_move`, the field's reader."""

from __future__ import annotations

import pytest
from real_games import GAMES_DIR, read_games

from tafl_desktop.core.game import Game
from tafl_desktop.core.move_entry import MoveEntryError, read_typed_move
from tafl_desktop.core.variants import find_variant

pytestmark = pytest.mark.skipif(not GAMES_DIR.is_dir(), reason="shared/reference/games is not beside the repo")

FILES = {
    "copenhagen.csv": ("copenhagen", {"repetition": "allowed"}, 1752),
    "brandubh.csv": ("brandubh", {"repetition": "allowed", "king_capture": "weak_near_throne",
                                  "encirclement": True}, 523),
}


@pytest.mark.parametrize("name", [
    "brandubh.csv",  # some 7 s
    pytest.param("copenhagen.csv", marks=pytest.mark.slow),  # some 45 s: pytest -m slow tests/test_typed_real_games.py
])
def test_every_real_move_typed(name):
    variant_id, options, count = FILES[name]
    rules = find_variant(variant_id).with_options(options).make_rules()
    games = read_games(name)
    assert len(games) == count
    typed = alone = several = 0
    for game in games:
        g = Game(rules)
        for rm in game.moves:
            if g.over:
                break
            want = rules.parse_move(g.position, rm.text)
            a, b = rm.text.split("-")
            assert read_typed_move(g, rm.text) == want
            assert read_typed_move(g, a + b) == want, (game.line, rm.text)
            ending = [m for m in g.legal_moves() if m[-1] == want[-1]]
            if len(ending) == 1:
                assert read_typed_move(g, b) == want, (game.line, rm.text)
                alone += 1
            else:
                with pytest.raises(MoveEntryError, match=f"several moves end on {b} "):
                    read_typed_move(g, b)
                several += 1
            assert g.check(want) is None
            g.play(want)
            typed += 1
    assert typed > 10 * count and alone and several
    print(name, typed, "moves;", alone, "by destination alone;", several, "destinations ambiguous")

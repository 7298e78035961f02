"""Federation Brandubh, the shipped preset of the rules the reference Brandubh games were played
under (issue 42, item 5).

Sources: tafl-rules.md 2.2 (hnefatafl-rs ``rules::BRANDUBH``, "Federation Brandubh": the king
``StrongByThrone``, encirclement, the side that repeats a position loses; Ludii's Brandub.lud
takes the king the same way) and the games' README (resources/games, from hnefatafl-rs: "armed king
that is strong on and beside the throne and weak elsewhere ... encirclement win").  The preset
counts a fourth occurrence, not a third: five of the games go through a third and play on.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant, presets

GAMES = Path(__file__).resolve().parents[1] / "resources" / "games" / "brandubh.csv"
#: The first ten moves of brandubh.csv line 27 (tests/test_record_other_rules.py says why the
#: Brandubh preset ends this game at the ninth move).
RECORD = "d2-e2 d5-e5 d6-c6 d4-d6 f4-f6 e5-e6 e2-d2xd3 d6-d5 c6-d6xe6 d5-d3\n"


def test_the_preset_is_brandubh_with_the_federation_rules():
    fed, bb = find_variant("brandubh_federation"), find_variant("brandubh")
    assert "brandubh_federation" in presets()
    assert (fed.setup, fed.board_data) == (bb.setup, bb.board_data)
    changed = {k: v for k, v in fed.options.items() if bb.options[k] != v}
    assert changed == {"king_capture": "weak_near_throne", "encirclement": True, "repetition": "mover_loses",
                       "repetition_count": 4}
    assert any("rules::BRANDUBH" in s and "tafl-rules.md 2.2" in s for s in fed.sources)


def _position(pieces: dict[str, str]) -> str:
    """A 7x7 position in row notation (rank 7 first) from {square: piece letter}."""
    rows = []
    for rank in range(7, 0, -1):
        row = "".join(pieces.get(f"{'abcdefg'[f]}{rank}", ".") for f in range(7))
        rows.append(row)
    text = "/" + "/".join(rows) + "/"
    for n in range(7, 0, -1):
        text = text.replace("." * n, str(n))
    return text


@pytest.mark.parametrize(("king", "standing", "move", "taken"), [
    ("d4", ("c4", "e4"), "d1-d3", False),          # on the throne: three do not take him ...
    ("d4", ("c4", "e4", "d5"), "a3-d3", True),     # ... four do
    ("d5", ("c5",), "g5-e5", False),               # beside the throne: two do not take him ...
    ("d5", ("c5", "e5"), "a6-d6", True),           # ... three and the throne do
    ("b2", ("a2",), "c7-c2", True),                # away from the throne two take him
])
def test_the_king_is_taken_by_four_on_the_throne_three_beside_it_two_elsewhere(king, standing, move, taken):
    """tafl-rules.md 2.2, BB StrongByThrone / LU Brandub's "Nielsen" king: the last attacker
    arrives with ``move`` and the king is taken or not."""
    rules = find_variant("brandubh_federation").make_rules()
    pieces = {king: "K", "f7": "T", "f6": "T"} | {sq: "t" for sq in standing}
    pieces[move.split("-")[0]] = "t"
    pos = rules.parse_position(_position(pieces), Side.ATTACKERS)
    after, _caps = rules.play(pos, rules.parse_move(pos, move))
    out = rules.outcome(after)
    assert (out is not None and out.reason == "king_captured") == taken


def test_every_reference_brandubh_game_imports_under_it_and_fewer_under_brandubh(tmp_path):
    """The game database's import of the shipped table (the path a player's own import takes):
    every one of the 523 games under Federation Brandubh, no rule complaint; under Brandubh a
    game whose king the preset takes earlier (or a repetition ends) is refused."""
    from tafl_desktop.gamedb.library import import_paths
    from tafl_desktop.gamedb.store import GameDb

    counts = {}
    for vid in ("brandubh", "brandubh_federation"):
        db = GameDb(tmp_path / f"{vid}.sqlite3")
        try:
            report = import_paths(db, [GAMES], find_variant(vid))
        finally:
            db.close()
        counts[vid] = (report.added, len(report.problems))
        if vid == "brandubh_federation":
            assert report.problems == [] and report.added + report.duplicates == 523
    print(f"\nreference Brandubh games imported (added, refused): {counts}")
    assert counts["brandubh"][1] > 0 and counts["brandubh"][0] + counts["brandubh"][1] == 523


def test_a_third_occurrence_plays_on_a_fourth_loses_for_the_side_that_repeats():
    """Five games of the table (lines 167, 218, 289, 301 and 459) bring a position round a third
    time and go on, so the preset counts four (the import test replays them); the rule itself is
    hnefatafl-rs's: the side whose move repeats the position loses."""
    rules = find_variant("brandubh_federation").make_rules()
    game = Game(rules)
    for a, b in (("d1-c1", "e4-e3"), ("c1-d1", "e3-e4")) * 3:
        game.play_text(a)
        if game.over:
            break
        game.play_text(b)
        if game.over:
            break
    assert game.over and game.outcome.reason == "repetition"
    # the start came round for the fourth time after the defenders' move: they lose
    assert game.outcome.winner == Side.ATTACKERS and len(game.plies) == 12


def test_convert_offers_the_preset_and_reads_the_record_under_it(tmp_path):
    record = tmp_path / "brandubh-27.txt"
    record.write_text(RECORD)
    out = tmp_path / "out.tafl.json"
    cli = [sys.executable, "-m", "tafl_desktop", "convert", str(record), str(out), "--from-format", "moves"]
    res = subprocess.run([*cli, "--variant", "brandubh"], capture_output=True, text=True, timeout=120)
    assert res.returncode != 0 and "Federation Brandubh (king captured by: four on or beside the throne" in res.stderr
    assert res.stderr.strip().endswith("To read it under the first of them, use --variant brandubh_federation.")
    res = subprocess.run([*cli, "--variant", "brandubh_federation"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    from tafl_desktop.core.record import load_game

    game = load_game(out)
    assert game.rules.variant.id == "brandubh_federation" and len(game.plies) == 10

"""The match's random openings (issue 45): each opening is played with both colours, and none of
them hands one side a piece before the levels move.  In Asalto the second random ply of seed 1's
eighth opening declined a capture, so the huffing rule (HG 4.3, shared/reference/hunt-games.md)
took an officer off at once, and both games of that opening were lost by the officers' side
within 40 plies, whichever level played them (``benchmarks/results/README.md``)."""

from __future__ import annotations

import json
from collections import Counter

from test_match_cli import ROOT, run

from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.match.runner import random_openings


def _pieces_after(rules, moves: list[str]) -> Counter:
    game = Game(rules)
    for text in moves:
        game.play_text(text)
    return Counter(rules.pieces(game.position).values())


def test_an_asalto_match_opens_with_every_officer_and_rebel_on_the_board(tmp_path):
    out = tmp_path / "m"
    proc = run("asalto", "--player", "random", "--player", "random", "--games", "20", "--seed", "1",
               "--max-plies", "3", "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    openings = json.loads((out / "match.json").read_text())["openings"]
    assert len(openings) == 10
    rules = find_variant("asalto").make_rules()
    start = Counter(rules.pieces(rules.initial_position()).values())
    for moves in openings:
        assert len(moves) == 2 and _pieces_after(rules, moves) == start, moves
    assert openings[7] != ["c4-c5", "e6-e7"]  # the opening that huffed an officer before


def test_the_kept_matches_draw_the_same_openings_so_they_still_resume():
    # every match folder kept in the repository (the levels' ratings) is
    # refused on resume if today's draw differs from its match.json; none of them lost a piece
    folders = sorted((ROOT / "benchmarks" / "results" / "level_ratings").glob("*/*-*"))
    assert len(folders) >= 10
    for folder in folders:
        data = json.loads((folder / "match.json").read_text(encoding="utf-8"))
        rules = find_variant(data["variant"]["id"]).with_options(data["variant"]["options"]).make_rules()
        stored = data["openings"]
        drawn = random_openings(rules, len(stored), len(stored[0]), data["seed"])
        assert drawn == stored, folder.name
        assert all(_pieces_after(rules, o) == _pieces_after(rules, []) for o in stored), folder.name

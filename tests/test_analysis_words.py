"""Scores in words in each family's side names, and the review's class thresholds as the README
states them (issue 19)."""

from __future__ import annotations

import pytest

from tafl_desktop.ai.review import class_of
from tafl_desktop.analysis.words import line_words, result_words, value_words
from tafl_desktop.core.variants import find_variant


def test_proven_results_read_as_sentences_in_the_sides_names():
    """Moves are counted as the move list counts them (the winner's turns), not plies (issue 28):
    a win in 3 plies for the side to move is a win in 2 moves."""
    assert result_words(find_variant("brandubh"), 1, 3) == "The defenders win in 2 moves"
    assert result_words(find_variant("brandubh"), 0, 1) == "The attackers win in 1 move"
    fox = find_variant("fox_geese_13")
    assert result_words(fox, 1, 5) == "The fox wins in 3 moves"  # one fox: the singular verb
    assert result_words(fox, 0, 2, winner_moves_next=False) == "The geese win in 1 move"
    assert result_words(fox, 0, 4, winner_moves_next=False) == "The geese win in 2 moves"


def test_evaluations_read_as_a_signed_number_for_the_side_ahead():
    v = find_variant("brandubh")
    assert value_words(v, 140) == "+1.4 defenders"
    assert value_words(v, -250) == "+2.5 attackers"
    assert value_words(v, 5) == "Equal"
    # a line's score is from the side to move's view: attackers to move and +140 means attackers ahead
    assert line_words(v, 140, None, None, to_move=0) == "+1.4 attackers"
    assert line_words(v, 99_997, 3, "defenders", to_move=1) == "The defenders win in 2 moves"
    assert line_words(v, -99_996, 4, "attackers", to_move=1) == "The attackers win in 2 moves"
    dablot = find_variant("dablot")
    assert line_words(dablot, 99_999, 1, "saami", to_move=0) == "The Saami win in 1 move"


def test_scores_in_german_keep_the_noun_and_the_decimal_comma():
    from tafl_desktop import i18n

    try:
        i18n.set_language("de")
        v = find_variant("brandubh")
        assert value_words(v, 140) == "+1,4 Verteidiger"
        assert line_words(v, 99_997, 3, "defenders", to_move=1) == "Die Verteidiger gewinnen in 2 Zügen"
        i18n.set_language("ru")
        assert value_words(v, -250) == "+2,5 нападающие"
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("loss,engine_move,expected", [
    (0.0, True, "best"), (45.0, True, "best"), (1.9, False, "best"), (2.0, False, "good"),
    (4.9, False, "good"), (5.0, False, "inaccuracy"), (9.9, False, "inaccuracy"), (10.0, False, "mistake"),
    (14.9, False, "mistake"), (15.0, False, "blunder"), (100.0, False, "blunder"),
])
def test_review_classes_follow_the_readme_thresholds(loss, engine_move, expected):
    assert class_of(loss, engine_move) == expected


def test_what_a_missed_move_allowed_in_one_sentence() -> None:
    # issue 36: the review's mark says why ("Loses a piece: g4-h4 takes h5"), from the same facts
    # "Learn from your mistakes" explains
    from types import SimpleNamespace

    from tafl_desktop.ai.mistakes import LineFacts
    from tafl_desktop.analysis.words import allowed_words
    from tafl_desktop.core.variants import find_variant

    variant = find_variant("brandubh")
    ex = SimpleNamespace(side=1)  # the defenders moved
    chances = {"best": LineFacts(["d4-d6"], 1), "best_chance": 48, "played_chance": 21}
    lost = LineFacts(["g4-h4", "c4-c2"], 0, {0: ["h5"], 1: []}, None, {0: 1})
    assert allowed_words(variant, ex, {**chances, "reply": lost}) == "Loses a piece: g4-h4 takes h5."
    two = LineFacts(["a4-b4", "d2-e2", "e1-e2"], 0, {0: ["b5", "e3"], 1: []}, None, {0: 1})
    assert allowed_words(variant, ex, {**chances, "reply": two}) == "Loses 2 pieces: a4-b4 d2-e2 e1-e2 takes b5, e3."
    mate = LineFacts(["e1-e3", "d4-c4", "e3-e4"], 0, {0: [], 1: []}, (0, 3))
    assert allowed_words(variant, ex, {**chances, "reply": mate}) == \
        "Allows a forced loss: The attackers win in 2 moves (e1-e3 d4-c4 e3-e4)."
    quiet = LineFacts(["e1-e3"], 0)
    assert allowed_words(variant, ex, {**chances, "reply": quiet}) == \
        "Gives away winning chance: 21 % after it, 48 % with the better move."

"""Tafl rules of the same board and toggles share their compiled tables (``_COMPILED`` in
``core/tafl.py``): a record, a replay, an analysis and the window each build rules of the same
variant, and building the tables took most of the time of loading a game record.  What must
hold: sharing never mixes two different games' rules, and a stream of made-up variants cannot
grow the store without end."""

from __future__ import annotations

from dataclasses import replace

from tafl_desktop.core import tafl
from tafl_desktop.core.geometry import GridGeometry
from tafl_desktop.core.variants import find_variant


def test_the_same_board_and_toggles_build_their_tables_once():
    first = find_variant("copenhagen").make_rules()
    second = find_variant("copenhagen").make_rules()
    assert first is not second
    assert second.adj2 is first.adj2 and second.memo is first.memo and second.block is first.block


def test_a_different_toggle_gets_its_own_tables_and_plays_by_them():
    """Copenhagen's king armed or not (Copenhagen Hnefatafl, fetlar-copenhagen rules: the king
    may capture): the king stepping from f4 to e4 takes the attacker on e3 against the defender on
    e2 only where he is armed, rules built one after the other from the same board."""
    setup = "/" + "/".join(["11"] * 7 + ["5K5", "4t6", "4T6", "11"]) + "/"
    base = replace(find_variant("copenhagen"), setup=setup)
    results = {}
    for armed in ("yes", "no"):
        rules = base.with_options({"king_armed": armed, "first_move": "defenders"}).make_rules()
        _after, taken = rules.play(rules.initial_position(), (38, 37))  # f4-e4
        results[armed] = len(taken)
    assert results == {"yes": 1, "no": 0}


def test_walls_and_marks_are_part_of_what_is_shared():
    plain = find_variant("brandubh")
    walled = replace(plain, geometry=replace(plain.grid, walls=frozenset({(0, 1)})))
    a, b = plain.make_rules(), walled.make_rules()
    assert a.adj2 is not b.adj2 and a.adj2[0] != b.adj2[0]
    # the same board without its corner marks: a soldier may now stop on a1
    marks = {kind: squares for kind, squares in plain.grid.marks.items() if kind != "corner"}
    cornerless = replace(plain, geometry=replace(plain.grid, marks=marks)).make_rules()
    assert 0 in a.block[tafl.C_ATT][1] and 0 not in cornerless.block[tafl.C_ATT][1]


def test_made_up_variants_do_not_grow_the_store_without_end():
    base = find_variant("brandubh")
    sizes = [(w, h) for w in range(5, 20) for h in range(5, 20)][:tafl.COMPILED_KEPT + 10]
    for width, height in sizes:
        setup = "/" + "/".join([str(width)] * (height - 1) + [f"K{width - 1}"]) + "/"
        replace(base, geometry=GridGeometry(width=width, height=height), setup=setup).make_rules()
    assert len(tafl._COMPILED) == tafl.COMPILED_KEPT

"""Issue 37, items 4-5: the native search's limits hold, and misuse of its API is one clear line.

* A node limit is a limit with any number of threads: all threads together take their nodes from
  one budget, so the total never passes the limit (the slack is zero: ``nodes <= limit``).  It
  used to be counted on the main thread only: 20,000 became 48,672 nodes with 2 threads and
  1,361,440 with 64.
* Negative or huge nodes, depth, threads, margins and lines, a time of inf, NaN or 1e30 s, a
  search restricted to an illegal move, tables built for another board and a position without
  a king and without a result each raise one ``ValueError`` line (no OverflowError, TypeError
  or RuntimeError about a Duration, no silent empty answer).

Skipped where the native module is not built.
"""

from __future__ import annotations

import math

import pytest

from tafl_desktop.ai.engine import make_searcher, native_search_available
from tafl_desktop.ai.search import SearchLimits
from tafl_desktop.core.variants import find_variant

native = pytest.mark.skipif(not native_search_available(), reason="the native engine is not built")


def _searcher(variant: str = "copenhagen"):
    rules = find_variant(variant).make_rules()
    return rules, make_searcher(rules, "native")


@native
@pytest.mark.parametrize("threads", [1, 2, 8, 64])
def test_a_node_limit_is_never_passed_whatever_the_threads(threads):
    rules, s = _searcher()
    res = s.search(rules.initial_position(), SearchLimits(time=0, depth=64, nodes=20_000, threads=threads))
    assert res.stopped == "nodes"
    assert res.nodes <= 20_000, f"{threads} threads searched {res.nodes} nodes for a limit of 20,000"
    assert res.nodes >= 19_000 and res.move is not None  # the budget is spent, not left unused


def _raw(s):
    """The native core with the settings the Python side would send, for calls a caller could
    make with any values."""
    from tafl_desktop.native.bridge import position_tuple

    return s._core, position_tuple


SETTINGS = {"time": 0.0, "depth": 2, "nodes": 0, "quiescence": True, "margin": 0, "lines": 1,
            "selective": True, "captures": True, "threads": 1}


@native
@pytest.mark.parametrize("key, value, words", [
    ("nodes", -1, "nodes must be a whole number from 0"),
    ("nodes", 2**80, "nodes must be a whole number from 0"),
    ("depth", -3, "depth must be a whole number from 0 to 10000"),
    ("depth", 2**40, "depth must be a whole number from 0 to 10000"),
    ("depth", 2.5, "depth must be a whole number"),
    ("threads", -1, "threads must be a whole number from 0 to 10000"),
    ("threads", 2**64, "threads must be a whole number from 0 to 10000"),
    ("margin", -5, "margin must be a whole number from 0 to 1000000"),
    ("margin", 2**33, "margin must be a whole number from 0 to 1000000"),
    ("lines", -1, "lines must be a whole number from 0 to 10000"),
    ("time", math.inf, "time must be a number of seconds from 0 to 10000000, not inf"),
    ("time", math.nan, "time must be a number of seconds from 0 to 10000000, not nan"),
    ("time", 1e30, "time must be a number of seconds from 0 to 10000000, not 1e+30"),
    ("time", -1.0, "time must be a number of seconds"),
    ("time", "soon", "time must be a number of seconds"),
])
def test_bad_limits_are_one_value_error_line(key, value, words):
    rules, s = _searcher("brandubh")
    core, position_tuple = _raw(s)
    with pytest.raises(ValueError) as info:
        core.search(position_tuple(rules.initial_position()), {**SETTINGS, key: value}, [])
    assert type(info.value) is ValueError and words in str(info.value), str(info.value)
    assert "\n" not in str(info.value) and not getattr(info.value, "__notes__", None)


@native
def test_limits_at_the_edges_of_their_ranges_still_search():
    rules, s = _searcher("brandubh")
    core, position_tuple = _raw(s)
    for extra in ({"depth": 0}, {"depth": 10_000, "nodes": 3_000}, {"threads": 0}, {"threads": 10_000, "nodes": 3_000},
                  {"lines": 0}, {"time": 0.05, "depth": 64}, {"margin": 1_000_000}):
        report = core.search(position_tuple(rules.initial_position()), {**SETTINGS, **extra}, [])
        assert report["move"] is not None, extra


@native
def test_a_search_restricted_to_an_illegal_move_says_so():
    rules, s = _searcher("brandubh")
    core, position_tuple = _raw(s)
    pos = rules.initial_position()
    legal = [tuple(m) for m in rules.legal_moves(pos)]
    assert core.search(position_tuple(pos), SETTINGS, [], None, None, [legal[0]])["move"] == legal[0]
    for bad in [(0, 1), (48, 0), (10_000, 2)]:
        assert bad not in legal
        with pytest.raises(ValueError, match=r"only: the move .* is not legal in the position"):
            core.search(position_tuple(pos), SETTINGS, [], None, None, [legal[0], bad])


@native
def test_tables_of_another_board_are_refused():
    import tafl_native
    from tafl_desktop.native.bridge import config_for

    _rules, s = _searcher("copenhagen")
    brandubh = find_variant("brandubh")
    with pytest.raises(ValueError, match=r"evaluation tables: they are for a 11x11 board, the rules play on 7x7"):
        tafl_native.TaflSearch(config_for(brandubh), s._build[1], 12)


@native
def test_a_kingless_position_without_a_result_is_refused():
    rules, s = _searcher("brandubh")
    core, position_tuple = _raw(s)
    att, dfn, _king, side, quiet, _res = position_tuple(rules.initial_position())
    kingless = (att, dfn, -1, side, quiet, None)
    with pytest.raises(ValueError, match="a position without a king must have a result"):
        core.search(kingless, SETTINGS, [])
    with pytest.raises(ValueError, match="a position without a king must have a result"):
        core.wins(kingless, 0, 3)
    # with its result (the king was captured) it is a finished game, as before
    done = core.search((att, dfn, -1, side, quiet, (0, "king_captured")), SETTINGS, [])
    assert done["move"] is None

"""The search contract of issue 41 (item 1): both searchers implement the one ``Searcher``
Protocol of :mod:`tafl_desktop.search_contract`, answer with its result type, and the old import
paths of what moved still give the very same objects (deprecated aliases, kept for one release)."""

from __future__ import annotations

import pytest

from tafl_desktop.ai.engine import make_searcher, native_search_available
from tafl_desktop.core.variants import find_variant
from tafl_desktop.search_contract import MATE, Searcher, SearchLimits, SearchResult

ENGINES = ["python"] + (["native"] if native_search_available() else [])


@pytest.mark.parametrize("engine", ENGINES)
def test_both_searchers_keep_the_contract(engine):
    rules = find_variant("brandubh").make_rules()
    searcher = make_searcher(rules, engine)
    assert isinstance(searcher, Searcher)
    assert searcher.engine == engine
    result = searcher.search(rules.initial_position(), SearchLimits(time=0, depth=2))
    assert isinstance(result, SearchResult)
    assert result.move in rules.legal_moves(rules.initial_position())
    assert abs(result.score) < MATE
    assert searcher.pv(rules.initial_position(), result.move)[0] == result.move


def test_the_search_module_re_exports_the_contract_and_the_old_aliases_are_gone():
    import importlib

    import tafl_desktop.ai.search as python_search
    import tafl_desktop.search_contract as contract

    for name in ("MATE", "MATE_BOUND", "PROGRESS_EVERY", "SearchLimits", "SearchResult", "drift_pick"):
        assert getattr(python_search, name) is getattr(contract, name)
    # cli/common.py and study/prover.py were deprecated aliases for one release (command_line.py and
    # ai/prover.py): removed, so no capability can import the front door through the old path.
    for gone in ("tafl_desktop.cli.common", "tafl_desktop.study.prover"):
        try:
            importlib.import_module(gone)
        except ModuleNotFoundError:
            continue
        raise AssertionError(f"{gone} still imports")

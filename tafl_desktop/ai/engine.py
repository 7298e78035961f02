"""One search-engine interface, two implementations: the native (Rust) search and the Python one.

Everything in the app that thinks (the computer player, hints, the evaluation bar, the analysis
board, game review, puzzle mining and proving, the Rules Lab, the ``engine`` command) asks
:func:`make_searcher` for a searcher and never learns which one it got.  Both offer:

* ``search(pos, limits, history_keys=(), should_stop=None, rng=None, on_iteration=None)`` ->
  :class:`~tafl_desktop.ai.search.SearchResult` (``limits`` a
  :class:`~tafl_desktop.ai.search.SearchLimits`; ``should_stop()`` polled while searching;
  ``on_iteration(result)`` after every finished depth);
* ``pv(pos, move)``: the principal variation starting with ``move`` after a search;
* ``lines`` (how many best root moves get exact scores), ``finished`` and ``finished_depth``
  (the root moves of the last finished iteration, best first, and its depth);
* ``ev`` (the family's Python evaluator: its drift scales and hooks), ``rules`` and ``engine``
  (``"native"`` or ``"python"``, for reports such as ``bench --json``).

The native engine serves the Tafl family wherever its module is built (``tafl_native``, see
:mod:`tafl_desktop.native`); the Fox games and Dablot, a machine without a Rust toolchain, or a
rules set the native engine refuses get the Python search, slower but the same in kind.
"""

from __future__ import annotations

import os
from typing import Any

#: The engine names the command line accepts (``--engine``).
ENGINES = ("native", "python")
#: An environment variable that picks the engine for a whole process tree (tests, benchmarks).
ENGINE_ENV = "TAFL_ENGINE"


def native_search_available() -> bool:
    """Is the native search module built and importable here?"""
    try:
        from tafl_desktop.native import search as native_search
    except ImportError:
        return False
    return native_search.available()


def resolve(rules: Any, engine: str | None = None) -> str:
    """The engine that will search ``rules``: ``engine`` if given (else ``$TAFL_ENGINE``, else
    native where built).  Native applies to the Tafl family only; the other families always get
    the Python search.  ValueError (one line) for an unknown name, or for ``native`` asked for a
    Tafl game on a machine where it is not built."""
    name = engine or os.environ.get(ENGINE_ENV) or ""
    explicit = bool(name)
    name = name.strip().lower() or "native"
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name[:20]!r}; engines: {', '.join(ENGINES)}")
    if name == "python" or getattr(rules, "family", "") != "tafl":
        return "python"
    try:
        from tafl_desktop.native import search as native_search

        why = native_search.unsupported(rules)
    except ImportError:
        why = "the native module (tafl_native) is not built"
    if why is None:
        return "native"
    if explicit and engine:
        raise ValueError(f"the native engine cannot search this game: {why}")
    return "python"


def make_searcher(rules: Any, engine: str | None = None, evaluator: Any | None = None) -> Any:
    """A searcher for ``rules`` (see the module docstring for the interface).  A custom
    ``evaluator`` (tuning experiments) keeps the Python search, whose hooks it replaces."""
    from tafl_desktop.ai.search import Searcher

    if evaluator is not None:
        return Searcher(rules, evaluator)
    if resolve(rules, engine) == "native":
        from tafl_desktop.native.search import NativeSearcher

        return NativeSearcher(rules)
    return Searcher(rules)

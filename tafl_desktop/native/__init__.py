"""The native engine's bridge: is it built, how the core's validated objects reach it, and the
core's rules interface backed by it.

``tafl_native`` (the Rust crate in ``tafl_native/``, built by ``make``) holds the Tafl rules as
bitboards, perft and random playouts, and the search.  The core (``tafl_desktop.core``) stays the
one source of truth of the rules and never imports native code; this package is the only door:

* :func:`available` / :func:`unavailable_reason`, :func:`resolve_engine` for ``--engine``;
* :func:`config_for` (validated variant -> native configuration), :func:`position_tuple`;
* :func:`make_rules` -> the rules object of an engine (:class:`NativeTaflRules` or the core's).
"""

from __future__ import annotations

from typing import Any

from tafl_desktop.native.bridge import (
    ENGINES,
    available,
    config_for,
    interruptible,
    native_module,
    outcome_from,
    position_tuple,
    resolve_engine,
    supports,
    unavailable_reason,
)


def make_rules(variant: Any, engine: str = "native") -> Any:
    """The rules object of ``variant`` on ``engine`` ("native" falls back to the core's rules
    for a family or machine the native engine does not serve)."""
    if engine == "native" and supports(variant):
        from tafl_desktop.native.rules import NativeTaflRules

        return NativeTaflRules(variant)
    return variant.make_rules()


__all__ = ["ENGINES", "available", "config_for", "interruptible", "make_rules", "native_module", "outcome_from",
           "position_tuple", "resolve_engine", "supports", "unavailable_reason"]

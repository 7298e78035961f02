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

from typing import TYPE_CHECKING, cast

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

if TYPE_CHECKING:
    from tafl_desktop.core.game import Position, Rules
    from tafl_desktop.core.variants import Variant
    from tafl_desktop.native.rules import NativeTaflRules


def make_rules(variant: Variant, engine: str = "native") -> Rules[Position]:
    """The rules object of ``variant`` on ``engine`` ("native" falls back to the core's rules
    for a family or machine the native engine does not serve)."""
    if engine == "native" and supports(variant):
        # held as rules of *some* position type, as Variant.make_rules holds every family's
        return cast("Rules[Position]", native_rules(variant))
    return variant.make_rules()


def native_rules(variant: Variant) -> NativeTaflRules:
    """The native rules of ``variant``, for what only they offer (native perft and playouts);
    the caller has checked that the native engine serves it (:func:`supports`): otherwise a
    ValueError or RuntimeError says why not."""
    from tafl_desktop.native.rules import NativeTaflRules

    return NativeTaflRules(variant)


__all__ = ["ENGINES", "available", "config_for", "interruptible", "make_rules", "native_module", "native_rules",
           "outcome_from", "position_tuple", "resolve_engine", "supports", "unavailable_reason"]

"""The bridge to the native engine (the ``tafl_native`` Rust module in ``tafl_native/``).

The native engine is a client of the core, never a second source of the rules: everything it
receives comes from the core's validated objects.  :func:`config_for` turns a validated Tafl
:class:`~tafl_desktop.core.variants.Variant` into the native configuration (board, marked
squares, walls and the resolved option values), and :func:`position_tuple` a core
:class:`~tafl_desktop.core.tafl.TaflPosition` into the tuple the native functions take.

Whether the module is there at all is decided once (:func:`native_module`): a machine without a
Rust toolchain has no ``tafl_native`` and everything runs on the Python engine.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar, cast

from tafl_desktop.core.game import Outcome, Side
from tafl_desktop.core.quoting import quote
from tafl_desktop.i18n import _

if TYPE_CHECKING:
    from tafl_desktop.core.geometry import GridGeometry
    from tafl_desktop.core.options import OptionValue
    from tafl_desktop.core.tafl import TaflPosition, TaflRules
    from tafl_desktop.core.variants import Variant
    from tafl_native import NativeOutcome, NativePosition

T = TypeVar("T")

#: The engine names of ``--engine`` (a contract of the command line).
ENGINES = ("native", "python")

_import_error: str | None = None


#: What the bridge needs of the module: a module without one of these is older than the bridge.
REQUIRED = ("cpu_missing", "option_values", "TaflRules")


@functools.cache
def native_module() -> ModuleType | None:
    """The ``tafl_native`` module, or None when it is not built, or when it does not know every
    key and value of the core's option schema (then it is out of date, and the Python engine is
    the safe choice: the native rules never play a value they would misread)."""
    global _import_error
    try:
        import tafl_native
    except ImportError as exc:
        _import_error = _("the native engine is not built ({error})").format(error=str(exc)[:200])
        return None
    missing = [name for name in REQUIRED if not hasattr(tafl_native, name)]
    if missing:
        _import_error = _("the native engine is older than the rules (it lacks {options})").format(
            options=", ".join(missing))
        return None
    try:
        lacking = [str(f) for f in tafl_native.cpu_missing()]
        known = tafl_native.option_values()
    except Exception as exc:  # a broken build: the Python engine plays
        _import_error = _("the native engine cannot say what it supports ({error})").format(error=str(exc)[:200])
        return None
    if lacking:  # built for a newer processor (a module carried over from another machine)
        _import_error = _("this processor lacks {features}, which the native engine was built for").format(
            features=", ".join(lacking[:4]))
        return None
    gaps = schema_gaps(known)
    if gaps:
        _import_error = _("the native engine is older than the rules (it lacks {options})").format(
            options=", ".join(gaps[:3]))
        return None
    return tafl_native


def schema_gaps(known: object) -> list[str]:
    """Every key or value of the core's Tafl option schema that ``known`` (the module's
    ``option_values()``: ``{key: "bool" | (lo, hi) | [choices]}``) lacks, as ``key`` or
    ``key=value``; empty when the native rules can take every validated variant."""
    from tafl_desktop.core.tafl_options import TAFL_OPTIONS

    gaps: list[str] = []
    for spec in TAFL_OPTIONS:
        if spec.key in PYTHON_ONLY:
            continue
        domain = known.get(spec.key) if isinstance(known, dict) else None
        if domain is None:
            gaps.append(spec.key)
        elif spec.kind == "bool":
            if domain != "bool":
                gaps.append(spec.key)
        elif spec.kind == "int":
            lo, hi = domain if isinstance(domain, tuple) and len(domain) == 2 else (1, 0)
            if not (isinstance(lo, int) and isinstance(hi, int) and lo <= spec.minimum and spec.maximum <= hi):
                gaps.append(f"{spec.key}={spec.minimum}..{spec.maximum}")
        else:
            values = {v for v in domain if isinstance(v, str)} if isinstance(domain, list) else set()
            gaps.extend(f"{spec.key}={v}" for v in spec.values() if v not in values)
    return gaps


#: Options the native rules do not play (hnefatafl.org's move limit and "king can't escape"),
#: each with the value under which it changes nothing.  A variant that uses one is played by the
#: core's rules and the Python search (:func:`native_fits`); the native engine never sees it.
PYTHON_ONLY: dict[str, OptionValue] = {"turn_limit": 0, "cant_escape": False}


def python_only_in_force(variant: Variant) -> list[str]:
    """The keys of :data:`PYTHON_ONLY` that ``variant`` plays with a value that matters."""
    from tafl_desktop.core.tafl_options import TAFL_OPTIONS

    opts = TAFL_OPTIONS.for_board(variant.board_features).in_force(variant.options)
    return [k for k, off in PYTHON_ONLY.items() if opts.get(k, off) != off]


def native_fits(variant: Variant) -> bool:
    """Can the native rules play ``variant`` (a Tafl game without a Python-only option)?"""
    return bool(variant.traits.native_engine) and not python_only_in_force(variant)


def available() -> bool:
    """Is the native engine built and in step with the core's option schema?"""
    return native_module() is not None


def unavailable_reason() -> str | None:
    """Why the native engine cannot be used (None when it can)."""
    return None if native_module() is not None else _import_error


def supports(variant: Variant) -> bool:
    """Can the native engine play this variant?  (The Tafl family, when the module is built.)"""
    return native_fits(variant) and available()


def resolve_engine(requested: str | None, variant: Variant | None = None) -> str:
    """The engine to run for ``--engine`` (None: native where it is built and fits the variant).

    Raises ValueError with one line when ``native`` is asked for and cannot run."""
    if requested not in (None, *ENGINES):
        raise ValueError(_("--engine must be native or python, not {engine}").format(engine=quote(requested)))
    fits = available() and (variant is None or native_fits(variant))
    if requested is None:
        return "native" if fits else "python"
    if requested == "native" and not fits:
        if not available():
            raise ValueError(_("--engine native: {reason}").format(reason=unavailable_reason()))
        if variant is not None and variant.traits.native_engine:
            raise ValueError(_("--engine native: the native engine does not play {options}; the Python engine "
                               "does").format(options=", ".join(python_only_in_force(variant))))
        raise ValueError(_("--engine native: the native engine plays only the Tafl games so far"))
    return requested


def interruptible(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` in a helper thread, so that Ctrl+C still reaches the main thread while a
    long native call (which releases the GIL) runs; the interrupted call is abandoned."""
    box: dict[str, T] = {}
    failed: list[BaseException] = []

    def run() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # handed to the caller's thread below
            failed.append(exc)

    worker = threading.Thread(target=run, name="tafl-native", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
    if failed:
        raise failed[0]
    return box["value"]


def config_for(variant: Variant, rules: TaflRules | None = None) -> dict[str, object]:
    """The native configuration of a validated Tafl variant.

    The option values are those the core's rules object plays (``rules.opts``; one is built when
    none is given), so whatever the core makes of the variant's values is what the native engine
    plays too."""
    if not variant.traits.native_engine:
        raise ValueError(_("--engine native: the native engine plays only the Tafl games so far"))
    refused = python_only_in_force(variant)
    if refused:
        raise ValueError(_("--engine native: the native engine does not play {options}; the Python engine "
                           "does").format(options=", ".join(refused)))
    if rules is None:
        from tafl_desktop.core.tafl import TaflRules

        rules = TaflRules(variant)
    g = cast("GridGeometry", variant.geometry)  # a Tafl board (native_engine) is a grid
    thrones = g.marked("throne")
    return {
        "width": g.width,
        "height": g.height,
        "throne": min(thrones) if thrones else None,  # as TaflRules picks it
        "corners": sorted(g.marked("corner")),
        "camp_groups": [sorted(grp) for grp in g.mark_groups("camp")],
        "escape_squares": sorted(g.marked("escape")),
        "walls": sorted(getattr(g, "walls", ())),
        "options": {k: v for k, v in rules.opts.items() if k not in PYTHON_ONLY},
    }


def position_tuple(pos: TaflPosition) -> NativePosition:
    """A core TaflPosition as the native position tuple (att, dfn, king, side, quiet, result)."""
    result = pos.result
    res = None if result is None else (None if result.winner is None else int(result.winner), result.reason)
    return (pos.att, pos.dfn, pos.king, int(pos.side), pos.quiet, res)


def outcome_from(value: NativeOutcome) -> Outcome | None:
    """A core Outcome from the native ``(winner, reason)`` (or None)."""
    if value is None:
        return None
    winner, reason = value
    return Outcome(None if winner is None else Side(winner), reason)

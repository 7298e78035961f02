"""The window's move-making back-ends, handed to its game session (the engine contract,
:mod:`tafl_desktop.session.engine`): our search's client (:class:`~tafl_desktop.gui.computer.WorkerEngine`)
and the host of external engines (:class:`~tafl_desktop.gui.external_engine.ExternalEngines`).

Why a function and not a registry: the session is given what it may play with when it is made, so
a window, a test and a headless tool each say which back-ends they have, and no module-wide
setting outlives the window that made it.  Both are made on first use (their modules too), so a
window opens as fast without them.
"""

from __future__ import annotations

from tafl_desktop.session.engine import Engine, EngineHub


def _our_search() -> Engine:
    from tafl_desktop.gui.computer import WorkerEngine

    return WorkerEngine()


def _external_host() -> Engine:
    from tafl_desktop.gui.external_engine import ExternalEngines

    return ExternalEngines()


def window_engines(computer: bool = True) -> EngineHub:
    """The back-ends of a window: external engines always, our computer player when ``computer``
    (the application's windows; the tools that only show a window, and most tests, play without)."""
    return EngineHub(computer=_our_search if computer else None, external=_external_host)

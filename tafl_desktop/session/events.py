"""A minimal typed event: what the headless session announces and its views subscribe to.

Why not Qt signals: the session runs without Qt (tests, lessons, the lab).  The window connects
each event to a Qt signal of one adapter (``tafl_desktop.gui.session_signals``), so widgets keep
Qt's usual wiring.
Listeners run at once, in the order they connected, on the thread that emits (the GUI thread).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Event(Generic[T]):
    """Callbacks taking one value of type ``T``; :meth:`emit` calls each of them."""

    __slots__ = ("_listeners",)

    def __init__(self) -> None:
        self._listeners: list[Callable[[T], object]] = []

    def connect(self, listener: Callable[[T], object]) -> None:
        self._listeners.append(listener)

    def disconnect(self, listener: Callable[[T], object]) -> None:
        self._listeners = [f for f in self._listeners if f != listener]

    def emit(self, value: T) -> None:
        for listener in list(self._listeners):
            listener(value)


class Signal0:
    """An event without a value (``changed``)."""

    __slots__ = ("_listeners",)

    def __init__(self) -> None:
        self._listeners: list[Callable[[], object]] = []

    def connect(self, listener: Callable[[], object]) -> None:
        self._listeners.append(listener)

    def disconnect(self, listener: Callable[[], object]) -> None:
        self._listeners = [f for f in self._listeners if f != listener]

    def emit(self) -> None:
        for listener in list(self._listeners):
            listener()

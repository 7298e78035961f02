"""Marks drawn over the board by the study tools and by the player: arrows, circles and a heat map.

Three kinds of marks, as plain data, so that any tool can hand them to a
:class:`~tafl_desktop.gui.board_view.BoardView` without knowing how it paints:

* :class:`Arrow`: a move (its legs) drawn as an arrow, with a colour and a weight (0..1: how thick
  and how opaque; the analysis board's best line is the strongest);
* :class:`Circle`: a ring round a square;
* a heat map: square -> (colour, opacity), painted as a tint under the pieces.

Layers: each tool owns one named layer (``"analysis"``, ``"heat"``, ``"review"``) and replaces it
whole with ``BoardView.set_overlay(name, Overlay(...))``; the window's own redraws leave the layers
alone.

Every layer belongs to one game on one board: it carries the :class:`BoardToken` of the board state
it was made for (the window's controller makes a new token each time a game is loaded), and the
view keeps a layer only while its token is the one of the state shown.  Marks made for another
game (an analysis report redrawn after its dock closed and a Fox game started, a hint answered
after New Game) are refused by the view instead of being drawn at square numbers of another board;
loading a game drops every layer and the player's own marks at once.

The player's own marks (right-drag an arrow, right-click a circle, as on lichess; Shift, Alt or
both for red, blue, yellow; the same mark again removes it; a left click clears them all) are one
more layer the view keeps itself.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

#: The player's brushes (lichess's: green, with Shift red, with Alt blue, with both yellow).
BRUSHES = {"green": "#15781b", "red": "#882020", "blue": "#003088", "yellow": "#e68f00"}
#: The analysis board's lines, and the review's better move.
LINE_COLOUR = "#1f5fbf"
BETTER_COLOUR = "#15781b"


_SERIALS = itertools.count(1)


@dataclass(frozen=True)
class BoardToken:
    """Which game on which board a mark was made for.  Two tokens are the same only when made by
    the same :meth:`new` call: a reloaded game of the same preset gets a new one, so nothing made
    for the game before survives the load."""

    serial: int
    #: The board the marks' square numbers refer to (core geometry).
    geometry: Any = field(compare=False, repr=False)

    @classmethod
    def new(cls, geometry: Any) -> BoardToken:
        return cls(next(_SERIALS), geometry)


@dataclass(frozen=True)
class Arrow:
    """A move drawn as an arrow along its legs (squares; a Dablot separator is skipped)."""

    squares: tuple[int, ...]
    colour: str = LINE_COLOUR
    weight: float = 1.0


@dataclass(frozen=True)
class Circle:
    square: int
    colour: str = BRUSHES["green"]
    weight: float = 1.0


@dataclass(frozen=True)
class Overlay:
    """One layer of marks, made for the game and board of ``token`` (required: a layer that does
    not say which game it belongs to cannot be shown)."""

    token: BoardToken
    arrows: tuple[Arrow, ...] = ()
    circles: tuple[Circle, ...] = ()
    #: square -> (colour, opacity 0..1), painted under the pieces.
    heat: dict[int, tuple[str, float]] = field(default_factory=dict)


def squares_of(overlay: Overlay) -> set[int]:
    """Every square a layer names (a move's separator, -1, is not a square)."""
    out = {s for a in overlay.arrows for s in a.squares if s >= 0}
    out.update(c.square for c in overlay.circles)
    out.update(overlay.heat)
    return out


def brush_for(shift: bool, alt: bool) -> str:
    """The colour of a mark drawn with these modifiers."""
    if shift and alt:
        return BRUSHES["yellow"]
    if shift:
        return BRUSHES["red"]
    if alt:
        return BRUSHES["blue"]
    return BRUSHES["green"]


def toggle(marks: list[Arrow | Circle], mark: Arrow | Circle) -> None:
    """Add ``mark``, or remove it when the same mark (same squares) is already there: the same
    gesture again takes a mark away; another colour replaces it."""
    key = mark.squares if isinstance(mark, Arrow) else mark.square
    for i, old in enumerate(marks):
        if type(old) is type(mark) and (old.squares if isinstance(old, Arrow) else old.square) == key:
            del marks[i]
            if old.colour != mark.colour:
                marks.insert(i, mark)
            return
    marks.append(mark)


def paint_heat(view: Any, p: QPainter, heat: dict[int, tuple[str, float]]) -> None:
    """Tint each square (or the disc round each point) of ``heat``."""
    p.setPen(Qt.PenStyle.NoPen)
    for square, (colour, alpha) in heat.items():
        c = QColor(colour)
        c.setAlphaF(max(0.0, min(1.0, alpha)))
        if view._square_cells():
            r = view.square_rect(square)
            inset = r.width() * 0.06  # the board and the last move's tint show round the edge
            p.setBrush(c)
            p.drawRoundedRect(r.adjusted(inset, inset, -inset, -inset), inset, inset)
        else:
            r = view.piece_rect(square)
            p.setBrush(c)
            p.drawEllipse(r.center(), r.width() * 0.62, r.width() * 0.62)


def paint_arrow(view: Any, p: QPainter, cell: float, arrow: Arrow) -> None:
    """An arrow along the legs of ``arrow``, ending in a head on the last square."""
    squares = [s for s in arrow.squares if s >= 0]
    if len(squares) < 2:
        return
    colour = QColor(arrow.colour)
    colour.setAlphaF(0.35 + 0.5 * max(0.0, min(1.0, arrow.weight)))
    width = max(2.0, cell * (0.06 + 0.1 * arrow.weight))
    p.setPen(QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
    p.setBrush(Qt.BrushStyle.NoBrush)
    points = [view.square_center(s) for s in squares]
    a, b = points[-2], points[-1]
    length = math.hypot(b.x() - a.x(), b.y() - a.y()) or 1.0
    ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
    head = min(cell * (0.3 + 0.12 * arrow.weight), length * 0.6)
    tip = QPointF(b.x() - ux * cell * 0.1, b.y() - uy * cell * 0.1)
    base = QPointF(tip.x() - ux * head, tip.y() - uy * head)
    for k in range(len(points) - 2):
        p.drawLine(points[k], points[k + 1])
    p.drawLine(a, base)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour)
    spread = head * 0.62
    left = QPointF(base.x() - uy * spread, base.y() + ux * spread)
    right = QPointF(base.x() + uy * spread, base.y() - ux * spread)
    p.drawPolygon(QPolygonF([tip, left, right]))


def paint_circle(view: Any, p: QPainter, cell: float, circle: Circle) -> None:
    colour = QColor(circle.colour)
    colour.setAlphaF(0.8)
    p.setPen(QPen(colour, max(2.0, cell * 0.08 * max(0.5, circle.weight))))
    p.setBrush(Qt.BrushStyle.NoBrush)
    r = view.piece_rect(circle.square)
    radius = r.width() * 0.47
    p.drawEllipse(r.center(), radius, radius)


def paint_marks(view: Any, p: QPainter, cell: float, arrows: list[Arrow], circles: list[Circle]) -> None:
    """Circles first, then arrows, weakest first (the strongest ends on top)."""
    for c in circles:
        paint_circle(view, p, cell, c)
    for a in sorted(arrows, key=lambda a: a.weight):
        paint_arrow(view, p, cell, a)

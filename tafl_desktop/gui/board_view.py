"""The board widget: draws whatever :class:`BoardState` it is given and reports gestures.

It follows chessground's contract: the view holds no rules.  The controller hands it the
pieces, the selected square, the legal targets, the last move and the marks; the view emits
``square_pressed`` (a click or Enter on the keyboard cursor), ``drop_requested`` (a drag ended
on another square) and ``cancel_requested`` (Esc, right click, or a second click on the
selected piece).  Study tools lay arrows, circles and a heat map over the board in named layers
(:meth:`BoardView.set_overlay`, :mod:`tafl_desktop.gui.board_overlays`), and the player draws
their own arrows and circles with the right button, as on lichess (a left click clears them).
Every mark belongs to the game it was made for: a state with another :class:`BoardToken` (another
game loaded, another board) drops the layers and the player's marks, and a layer made for any other
token than the one shown, or naming a square the board does not have, is refused.
Every square is placed with the core geometry's ``cell_rect``, so the screen draws exactly the
board the rules walk, scaled to the widget in device-independent units.

Keyboard play: with the board focused, Enter (or Space) shows a cursor; while it is shown the
arrow keys move it, Enter picks up and drops, Esc cancels and then hides it.  While the cursor is
hidden the arrow keys stay free for stepping through the moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import QColor, QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from tafl_desktop.gui.board_overlays import Arrow, BoardToken, Circle, Overlay, brush_for, squares_of, toggle
from tafl_desktop.gui.board_painter import BoardPainting
from tafl_desktop.gui.texts import tr
from tafl_desktop.gui.themes import BoardTheme, piece_name, theme
from tafl_desktop.i18n import _

DRAG_START_PX = 4
MIN_RIM_PX = 16
ANIMATION_MS = 170
CURSOR_KEYS = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1)}
PICK_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)


@dataclass(frozen=True)
class BoardState:
    """Everything the board shows.  ``path`` is a multi-leg move picked so far (Fox-game jumps);
    ``captured`` maps the squares emptied by the last move to the piece that stood there."""

    geometry: Any
    pieces: Mapping[int, str]
    selected: int | None = None
    path: tuple[int, ...] = ()
    targets: frozenset[int] = frozenset()
    last_move: tuple[int, ...] = ()
    captured: Mapping[int, str] = field(default_factory=dict)
    threatened: frozenset[int] = frozenset()
    routes: frozenset[int] = frozenset()
    interactive: bool = True
    #: A move suggested to the player (Hint), drawn as an arrow along its legs.
    suggested: tuple[int, ...] = ()
    #: The marks of the rules in force (:func:`tafl_desktop.core.board_marks.marks_in_force`):
    #: exits, hostile rim, camps in use, breakthrough row, fox-only lines; None draws the board's
    #: own marks only.
    marks: Any = None
    #: The variant's own letters of the lettered piece style (``piece_labels.piece_letters``).
    letters: Mapping[str, str] = field(default_factory=dict)
    #: Piece kind -> rank number drawn on the piece (Dablot with ranks shown); empty: none.
    ranks: Mapping[str, int] = field(default_factory=dict)
    #: The game and board shown (a new one for every game loaded): marks made for another token
    #: are not drawn.  None: a board that takes no marks (previews, the position editor).
    token: BoardToken | None = None


def _qc(text: str) -> QColor:
    return QColor(text)


class BoardView(BoardPainting, QWidget):
    """Paints a board from core geometry and turns mouse and keyboard gestures into signals."""

    square_pressed = Signal(int)
    drop_requested = Signal(int, int)
    cancel_requested = Signal()
    hint = Signal(str)
    #: The player's own arrows and circles changed (drawn, removed or cleared).
    drawings_changed = Signal()
    #: The keyboard cursor moved to a square (shown, stepped or jumped): screen readers are told.
    cursor_moved = Signal(int)
    #: A new state was shown (the table mirror of the board rebuilds its cells).
    state_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state: BoardState | None = None
        self._theme: BoardTheme = theme("wood")
        self._piece_style = "stones"
        self._coordinates = True
        self._flipped = False
        self._animate = True
        self._show_targets = True
        self._anim: QVariantAnimation | None = None
        self._anim_move: tuple[int, ...] = ()
        self._anim_t = 1.0
        self._press_square: int | None = None
        self._press_pos = QPointF()
        self._was_selected = False
        self._drag_origin: int | None = None
        self._drag_pos: QPointF | None = None
        self._hover: int | None = None
        self._cursor: int | None = None
        #: Study tools' marks, one layer per tool (see board_overlays).
        self._overlays: dict[str, Overlay] = {}
        #: The player's own marks, and the right-button gesture drawing one.
        self._drawings: list[Arrow | Circle] = []
        self._draw_from: int | None = None
        self._draw_to: int | None = None
        self._draw_colour = ""
        self.painted = False
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(220, 220)
        tr(self, "setAccessibleName", "Board")
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)

    # ------------------------------------------------------------------------------- settings
    def set_state(self, state: BoardState, animate_move: tuple[int, ...] = ()) -> None:
        """Show ``state``; if ``animate_move`` is given (and animation is on) slide that piece."""
        old = self._state
        self._state = state
        if old is not None and (old.token != state.token or old.geometry is not state.geometry):
            self._overlays.clear()  # another game or board: no mark of the last one stays
            self._draw_from = self._draw_to = None
            self._hover = None
        elif self._overlays:
            self._overlays = {name: layer for name, layer in self._overlays.items() if self._fits(layer)}
        if self._drawings and (old is None or old.token != state.token or dict(old.pieces) != dict(state.pieces)):
            self.clear_drawings()  # another position: the player's marks were about the last one
        if self._cursor is not None and self._cursor >= state.geometry.size:
            self._cursor = None
        if old is None or old.geometry is not state.geometry:
            self._cursor = None if self._cursor is None else self._start_square()
        if self._drag_origin is not None and state.selected != self._drag_origin:
            self._drag_origin = None
            self._drag_pos = None
        if len(animate_move) >= 2 and -1 not in animate_move and self._animate and self.isVisible():
            self._start_animation(animate_move)
        else:
            self._stop_animation()
        self._update_accessible_text()
        self.update()
        self.state_changed.emit()

    def state(self) -> BoardState | None:
        return self._state

    # ------------------------------------------------------------------------------- marks
    def set_overlay(self, name: str, overlay: Overlay | None) -> bool:
        """Show ``overlay`` as the layer ``name`` (None removes the layer).  A layer made for
        another game or board than the one shown is refused (the layer is removed instead):
        returns whether it is shown."""
        if overlay is not None and self._fits(overlay):
            self._overlays[name] = overlay
            shown = True
        else:
            self._overlays.pop(name, None)
            shown = False
        self.update()
        return shown

    def _fits(self, overlay: Overlay) -> bool:
        """Was ``overlay`` made for the game and board shown (its token, its squares)?"""
        st = self._state
        if st is None or st.token is None or overlay.token != st.token:
            return False
        return all(0 <= s < st.geometry.size for s in squares_of(overlay))

    def overlay(self, name: str) -> Overlay | None:
        return self._overlays.get(name)

    def overlay_names(self) -> list[str]:
        """The layers shown now."""
        return list(self._overlays)

    def token(self) -> BoardToken | None:
        """The game and board shown (see :class:`BoardState`)."""
        return self._state.token if self._state is not None else None

    def drawings(self) -> list[Arrow | Circle]:
        """The player's own arrows and circles, in the order drawn."""
        return list(self._drawings)

    def clear_drawings(self) -> None:
        if self._drawings:
            self._drawings.clear()
            self.drawings_changed.emit()
            self.update()

    def _marks(self) -> tuple[list[Arrow], list[Circle], dict[int, tuple[str, float]]]:
        """Everything to paint: the layers' marks, then the player's (and the one being drawn)."""
        arrows: list[Arrow] = []
        circles: list[Circle] = []
        heat: dict[int, tuple[str, float]] = {}
        for layer in self._overlays.values():
            if not self._fits(layer):
                continue  # cannot happen (set_state drops them), but a stale mark is never painted
            arrows += layer.arrows
            circles += layer.circles
            heat.update(layer.heat)
        for mark in self._drawings:
            if isinstance(mark, Arrow):
                arrows.append(mark)
            else:
                circles.append(mark)
        if self._draw_from is not None and self._draw_to is not None and self._draw_to != self._draw_from:
            arrows.append(Arrow((self._draw_from, self._draw_to), self._draw_colour, 0.8))
        return arrows, circles, heat

    def set_theme(self, board_theme: BoardTheme) -> None:
        self._theme = board_theme
        self.update()

    def set_piece_style(self, style: str) -> None:
        self._piece_style = style
        self.update()

    def set_coordinates(self, on: bool) -> None:
        self._coordinates = on
        self.update()

    def set_show_targets(self, on: bool) -> None:
        self._show_targets = on
        self.update()

    def set_animation(self, on: bool) -> None:
        self._animate = on
        if not on:
            self._stop_animation()

    def set_flipped(self, flipped: bool) -> None:
        self._flipped = flipped
        self.update()

    def flipped(self) -> bool:
        return self._flipped

    def cursor_square(self) -> int | None:
        return self._cursor

    def set_cursor_square(self, square: int) -> None:
        """Show the keyboard cursor on ``square`` (the jump-to-piece keys and the table mirror)."""
        if self._state is None or not 0 <= square < self._state.geometry.size:
            return
        self._cursor = square
        self._update_accessible_text()
        self.update()
        self.cursor_moved.emit(square)

    # ------------------------------------------------------------------------------- geometry
    def _margin(self) -> float:
        """Width of the rim in cells: 0.62 of a cell, but never under 16 px when it carries coordinates
        (a 19x19 board in a small window keeps readable labels)."""
        if not self._coordinates:
            return 0.24
        g = self._state.geometry
        ew, eh = g.extent
        cell = min(self.width() / (ew + 1.24), self.height() / (eh + 1.24))
        if cell * 0.62 >= MIN_RIM_PX:
            return 0.62
        cell = max(1.0, min((self.width() - 2 * MIN_RIM_PX) / ew, (self.height() - 2 * MIN_RIM_PX) / eh))
        return MIN_RIM_PX / cell

    def _cell(self) -> tuple[float, float, float]:
        """(cell size in px, x and y of the board's top-left corner)."""
        g = self._state.geometry
        ew, eh = g.extent
        m = self._margin()
        cell = max(1.0, min(self.width() / (ew + 2 * m), self.height() / (eh + 2 * m)))
        return cell, (self.width() - ew * cell) / 2, (self.height() - eh * cell) / 2

    def _map_rect(self, x: float, y: float, w: float, h: float) -> QRectF:
        """A rectangle in cell units (core geometry, y down) to widget pixels, honouring flip."""
        ew, eh = self._state.geometry.extent
        if self._flipped:
            x, y = ew - x - w, eh - y - h
        cell, ox, oy = self._cell()
        return QRectF(ox + x * cell, oy + y * cell, w * cell, h * cell)

    def square_rect(self, square: int) -> QRectF:
        """Where a square is drawn, in widget pixels (public for tests and the screenshot tool)."""
        return self._map_rect(*self._state.geometry.cell_rect(square))

    def piece_rect(self, square: int) -> QRectF:
        """Where a piece on ``square`` is drawn: the square itself on a grid; on a point-and-line
        board a disc that leaves the lines between neighbours visible."""
        r = self.square_rect(square)
        g = self._state.geometry
        if self._square_cells():
            return r
        k = 0.8 * min(1.0, g.point_spacing)
        c = r.center()
        return QRectF(c.x() - r.width() * k / 2, c.y() - r.height() * k / 2, r.width() * k, r.height() * k)

    def _square_cells(self) -> bool:
        """True when points are drawn as squares (grids, the checkerboard), False for point-and-line."""
        g = self._state.geometry
        return g.kind == "grid" or getattr(g, "style", "") == "checker"

    def square_center(self, square: int) -> QPointF:
        return self.square_rect(square).center()

    def square_at(self, pos: QPointF) -> int | None:
        """The square under a widget position, or None off the board."""
        if self._state is None:
            return None
        g = self._state.geometry
        if g.kind == "grid":
            for s in range(g.size):
                if self.square_rect(s).contains(pos):
                    return s
            return None
        cell = self._cell()[0]
        best, best_d = None, (0.5 * cell * g.point_spacing) ** 2
        for s in range(g.size):
            c = self.square_center(s)
            d = (c.x() - pos.x()) ** 2 + (c.y() - pos.y()) ** 2
            if d <= best_d:
                best, best_d = s, d
        return best

    # ------------------------------------------------------------------------------- animation
    def _start_animation(self, move: tuple[int, ...]) -> None:
        self._stop_animation()
        self._anim_move = move
        self._anim_t = 0.0
        anim = QVariantAnimation(self)
        anim.setStartValue(0.0)
        anim.setEndValue(1.0)
        anim.setDuration(ANIMATION_MS)
        anim.valueChanged.connect(self._on_anim)
        anim.finished.connect(self._stop_animation)
        self._anim = anim
        anim.start()

    def _on_anim(self, value: float) -> None:
        self._anim_t = float(value)
        self.update()

    def _stop_animation(self) -> None:
        if self._anim is not None:
            self._anim.stop()
            self._anim.deleteLater()
            self._anim = None
        self._anim_move = ()
        self._anim_t = 1.0
        self.update()

    def animating(self) -> bool:
        return self._anim is not None

    # ------------------------------------------------------------------------------- painting
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        t = self._theme
        p.fillRect(self.rect(), _qc(t.window))
        try:
            if self._state is not None:
                self.paint_board(p)
        finally:
            p.end()  # a painter left open by an error would take the process down with it
        self.painted = True

    # ------------------------------------------------------------------------------- mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._state is None:
            return
        if event.button() == Qt.MouseButton.RightButton:
            self.cancel_requested.emit()
            mods = event.modifiers()
            self._draw_from = self._draw_to = self.square_at(event.position())
            self._draw_colour = brush_for(bool(mods & Qt.KeyboardModifier.ShiftModifier),
                                          bool(mods & (Qt.KeyboardModifier.AltModifier
                                                       | Qt.KeyboardModifier.ControlModifier)))
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        self.clear_drawings()
        pos = event.position()
        square = self.square_at(pos)
        if square is None:
            self.cancel_requested.emit()
            return
        self._stop_animation()
        self._was_selected = self._state.selected == square
        self._press_square = square
        self._press_pos = pos
        if self._cursor is not None:
            self._cursor = square
        self.square_pressed.emit(square)
        if self._state.selected == square and square in self._state.pieces:
            self._drag_origin = square

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._state is None:
            return
        pos = event.position()
        hover = self.square_at(pos)
        if hover != self._hover:
            self._hover = hover
            self.update()
        if self._draw_from is not None and event.buttons() & Qt.MouseButton.RightButton:
            if hover is not None and hover != self._draw_to:
                self._draw_to = hover
                self.update()
            return
        if self._drag_origin is None or not event.buttons() & Qt.MouseButton.LeftButton:
            return
        if self._drag_pos is None:
            d = pos - self._press_pos
            if abs(d.x()) + abs(d.y()) < DRAG_START_PX:
                return
        self._drag_pos = pos
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.RightButton and self._draw_from is not None:
            start, end = self._draw_from, self.square_at(event.position())
            self._draw_from = self._draw_to = None
            if end is None or end == start:
                toggle(self._drawings, Circle(start, self._draw_colour))
            else:
                toggle(self._drawings, Arrow((start, end), self._draw_colour, 0.8))
            self.drawings_changed.emit()
            self.update()
            return
        if event.button() != Qt.MouseButton.LeftButton or self._state is None:
            return
        origin, dragged = self._drag_origin, self._drag_pos is not None
        self._drag_origin = None
        self._drag_pos = None
        target = self.square_at(event.position())
        if dragged and origin is not None:
            if target is not None and target != origin:
                self.drop_requested.emit(origin, target)
            self.update()
            return
        if self._was_selected and target == self._press_square and self._state.selected == target:
            self.cancel_requested.emit()
        self._press_square = None
        self.update()

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802
        self._hover = None
        self.update()

    # ------------------------------------------------------------------------------- keyboard
    def _start_square(self) -> int:
        """Where the cursor appears: the selected piece, else the square nearest the centre."""
        st = self._state
        if st.selected is not None:
            return st.selected
        g = st.geometry
        ew, eh = g.extent
        return min(range(g.size), key=lambda s: (g.point_xy(s)[0] - ew / 2) ** 2 + (g.point_xy(s)[1] - eh / 2) ** 2)

    def _step_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor to the nearest square in the screen direction (dx, dy)."""
        if self._cursor is None or self._state is None:
            return
        c = self.square_center(self._cursor)
        cell = self._cell()[0]
        best, best_score = None, math.inf
        for s in range(self._state.geometry.size):
            q = self.square_center(s)
            vx, vy = (q.x() - c.x()) / cell, (q.y() - c.y()) / cell
            along = vx * dx + vy * dy
            if along < 0.3:
                continue
            side = abs(vx * dy - vy * dx)
            score = along + 2.5 * side
            if score < best_score:
                best, best_score = s, score
        if best is not None:
            self.set_cursor_square(best)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            key = event.key()
            if key in PICK_KEYS or key == Qt.Key.Key_Escape or (self._cursor is not None and key in CURSOR_KEYS):
                event.accept()
                return True
        if event.type() == QEvent.Type.ToolTip and self._state is not None and isinstance(event, QHelpEvent):
            square = self.square_at(QPointF(event.pos()))
            text = self.describe_square(square) if square is not None else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if self._state is None:
            return super().keyPressEvent(event)
        key = event.key()
        if key in PICK_KEYS:
            if self._cursor is None:
                self.hint.emit(_("Keyboard play: arrow keys move the cursor, Enter picks up and drops, Esc cancels "
                                 "(press Esc again to leave)."))
                self.set_cursor_square(self._start_square())
            else:
                self.square_pressed.emit(self._cursor)
            return
        if key == Qt.Key.Key_Escape and (self._state.selected is not None or self._cursor is not None):
            if self._state.selected is not None:
                self.cancel_requested.emit()
            else:
                self._cursor = None
                self.hint.emit(_("Keyboard cursor hidden: the arrow keys step through the moves again."))
                self.update()
            return
        # Esc with nothing to cancel goes on to the window: a lesson or puzzle window closes
        if self._cursor is not None and key in CURSOR_KEYS:
            self._step_cursor(*CURSOR_KEYS[Qt.Key(key)])
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:  # noqa: N802
        self.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event) -> None:  # noqa: N802
        self.update()
        super().focusOutEvent(event)

    # ------------------------------------------------------------------------------- text
    def describe_square(self, square: int) -> str:
        """'e5: king on the throne' — for tooltips and screen readers."""
        st = self._state
        g = st.geometry
        parts = []
        kind = st.pieces.get(square)
        if kind:
            parts.append(piece_name(kind))
        for mark, label, on_label in (("throne", _("throne"), _("on the throne")),
                                      ("corner", _("corner"), _("on a corner")),
                                      ("camp", _("camp"), _("in a camp")),
                                      ("escape", _("escape square"), _("on an escape square")),
                                      ("pen", _("pen"), _("in the pen"))):
            if square in g.marked(mark):
                parts.append(on_label if kind else label)
        if square in st.targets:
            parts.append(_("legal target"))
        return _("{name}: {value}").format(name=g.name(square), value=" ".join(parts) if parts else _("empty"))

    def _update_accessible_text(self) -> None:
        if self._state is None:
            return
        if self._cursor is not None:
            tr(self, "setAccessibleDescription", "Cursor on {square}", square=self.describe_square(self._cursor))
        else:
            tr(self, "setAccessibleDescription", "Press Enter to play with the keyboard")


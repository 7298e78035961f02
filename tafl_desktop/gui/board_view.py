"""The board widget: draws whatever :class:`BoardState` it is given and reports gestures.

It follows chessground's contract: the view holds no rules.  The controller hands it the
pieces, the selected square, the legal targets, the last move and the marks; the view emits
``square_pressed`` (a click or Enter on the keyboard cursor), ``drop_requested`` (a drag ended
on another square) and ``cancel_requested`` (Esc, right click, or a second click on the
selected piece).  Every square is placed with the core geometry's ``cell_rect``, so the screen
draws exactly the board the rules walk, scaled to the widget in device-independent units.

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
from PySide6.QtGui import QColor, QFont, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from tafl_desktop.gui.piece_painter import draw_piece
from tafl_desktop.gui.themes import BoardTheme, piece_name, theme

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


def _qc(text: str) -> QColor:
    return QColor(text)


class BoardView(QWidget):
    """Paints a board from core geometry and turns mouse and keyboard gestures into signals."""

    square_pressed = Signal(int)
    drop_requested = Signal(int, int)
    cancel_requested = Signal()
    hint = Signal(str)

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
        self.painted = False
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(220, 220)
        self.setAccessibleName("Board")
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)

    # ------------------------------------------------------------------------------- settings
    def set_state(self, state: BoardState, animate_move: tuple[int, ...] = ()) -> None:
        """Show ``state``; if ``animate_move`` is given (and animation is on) slide that piece."""
        old = self._state
        self._state = state
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

    def state(self) -> BoardState | None:
        return self._state

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
        if self._state is not None:
            self.paint_board(p)
        p.end()
        self.painted = True

    def paint_board(self, p: QPainter) -> None:
        st = self._state
        g = st.geometry
        t = self._theme
        cell, _ox, _oy = self._cell()
        ew, eh = g.extent
        m = self._margin()
        frame = self._map_rect(-m, -m, ew + 2 * m, eh + 2 * m)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(_qc(t.frame))
        p.drawRoundedRect(frame, cell * 0.18, cell * 0.18)
        if g.kind == "grid":
            self._paint_grid(p, cell)
        else:
            self._paint_graph(p, cell)
        if self._coordinates:
            self._paint_coordinates(p, cell)
        self._paint_pieces(p, cell)
        self._paint_overlays(p, cell)

    def _paint_grid(self, p: QPainter, cell: float) -> None:
        g, t = self._state.geometry, self._theme
        board = self._map_rect(0, 0, *g.extent)
        p.fillRect(board, _qc(t.square))
        throne, corner = g.marked("throne"), g.marked("corner")
        camp, escape = g.marked("camp"), g.marked("escape")
        for s in range(g.size):
            r = self.square_rect(s)
            if s in camp:
                self._paint_camp(p, r)
            if s in escape:
                p.fillRect(r, _qc(t.escape))
                p.setPen(QPen(_qc(t.special_mark), max(1.0, cell * 0.035), Qt.PenStyle.DashLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(r.center(), cell * 0.33, cell * 0.33)
            if s in throne:
                self._paint_throne(p, r)
            elif s in corner:
                self._paint_corner(p, r)
        self._paint_move_tints(p, cell)
        pen = QPen(_qc(t.line), max(1.0, cell * 0.025))
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        for i in range(g.width + 1):
            x = board.left() + i * board.width() / g.width
            p.drawLine(QPointF(x, board.top()), QPointF(x, board.bottom()))
        for j in range(g.height + 1):
            y = board.top() + j * board.height() / g.height
            p.drawLine(QPointF(board.left(), y), QPointF(board.right(), y))
        p.setPen(QPen(_qc(t.special_mark), max(1.5, cell * 0.05)))
        p.drawRect(board)

    def _paint_throne(self, p: QPainter, r: QRectF) -> None:
        t = self._theme
        p.fillRect(r, _qc(t.special))
        pen = QPen(_qc(t.special_mark), max(1.0, r.width() * 0.045))
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        for inset in (0.14, 0.3):
            p.drawRect(r.adjusted(r.width() * inset, r.height() * inset, -r.width() * inset, -r.height() * inset))

    def _paint_corner(self, p: QPainter, r: QRectF) -> None:
        t = self._theme
        p.fillRect(r, _qc(t.special))
        p.setPen(QPen(_qc(t.special_mark), max(1.0, r.width() * 0.05), Qt.PenStyle.SolidLine,
                      Qt.PenCapStyle.RoundCap))
        a = r.adjusted(r.width() * 0.2, r.height() * 0.2, -r.width() * 0.2, -r.height() * 0.2)
        p.drawLine(a.topLeft(), a.bottomRight())
        p.drawLine(a.topRight(), a.bottomLeft())

    def _paint_camp(self, p: QPainter, r: QRectF) -> None:
        t = self._theme
        p.fillRect(r, _qc(t.camp))
        p.save()
        p.setClipRect(r)
        p.setPen(QPen(_qc(t.special_mark), max(1.0, r.width() * 0.025)))
        step = r.width() / 5
        for k in range(-5, 6):
            x = r.left() + k * step
            p.drawLine(QPointF(x, r.bottom()), QPointF(x + r.width(), r.top()))
        p.restore()

    def _paint_move_tints(self, p: QPainter, cell: float) -> None:
        """Last move, selection and the path picked so far, as square tints (grid) or halos (graph)."""
        st, t = self._state, self._theme
        squares: list[tuple[int, str]] = [(s, t.last_move) for s in st.last_move]
        if st.selected is not None:
            squares.append((st.selected, t.selected))
        squares += [(s, t.selected) for s in st.path[1:]]
        for s, colour in squares:
            if self._square_cells():
                p.fillRect(self.square_rect(s), _qc(colour))
            else:
                half = self.piece_rect(s).width() * 0.62
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(_qc(colour))
                p.drawEllipse(self.square_center(s), half, half)
        for s in st.routes:
            p.setPen(QPen(_qc(t.route), max(2.0, cell * 0.07)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            r = self.square_rect(s)
            p.drawRect(r.adjusted(cell * 0.06, cell * 0.06, -cell * 0.06, -cell * 0.06))

    def _paint_graph(self, p: QPainter, cell: float) -> None:
        g, t = self._state.geometry, self._theme
        board = self._map_rect(0, 0, *g.extent)
        p.fillRect(board, _qc(t.square))
        if g.style == "checker":
            for s in range(g.size):
                p.fillRect(self.square_rect(s), _qc(t.square_alt))
        else:
            pen = QPen(_qc(t.line), max(1.0, cell * 0.04), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            p.setPen(pen)
            for a, b, _kind in g.lines:
                p.drawLine(self.square_center(a), self.square_center(b))
        self._paint_move_tints(p, cell)
        if g.style != "checker":
            pen_marks = g.marked("pen")
            for s in range(g.size):
                c = self.square_center(s)
                if s in pen_marks:
                    p.setPen(QPen(_qc(t.special_mark), max(1.0, cell * 0.03), Qt.PenStyle.DashLine))
                    p.setBrush(_qc(t.pen))
                    p.drawRect(QRectF(c.x() - cell * 0.3, c.y() - cell * 0.3, cell * 0.6, cell * 0.6))
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(_qc(t.line))
                p.drawEllipse(c, cell * 0.09, cell * 0.09)
        p.setPen(QPen(_qc(t.special_mark), max(1.5, cell * 0.05)))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(board)

    def _paint_coordinates(self, p: QPainter, cell: float) -> None:
        """File letters above and below, rank numbers left and right, read from the geometry."""
        g, t = self._state.geometry, self._theme
        font = QFont(self.font())
        font.setPixelSize(max(9, min(18, int(cell * 0.34))))
        font.setBold(True)
        p.setFont(font)
        p.setPen(_qc(t.frame_text))
        files: dict[float, str] = {}
        ranks: dict[float, str] = {}
        for s in sorted(range(g.size), key=g.point_xy):
            x, y = g.point_xy(s)
            name = g.name(s)
            letter = name.rstrip("0123456789")
            if letter not in files.values():  # a letter shared by a column and its centre points: once
                files.setdefault(x, letter)
            ranks.setdefault(y, name.lstrip("abcdefghijklmnopqrstuvwxyz"))
        ew, eh = g.extent
        m = self._margin()
        for x, label in files.items():
            for y0 in (-m, eh):
                r = self._map_rect(x - 0.5, y0, 1.0, m)
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, label)
        for y, label in ranks.items():
            for x0 in (-m, ew):
                r = self._map_rect(x0, y - 0.5, m, 1.0)
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, label)

    def _paint_pieces(self, p: QPainter, cell: float) -> None:
        st, t = self._state, self._theme
        moving = self._anim_move[-1] if self._anim_move else None
        for s, kind in st.captured.items():
            if s in st.pieces:
                continue
            r = self.piece_rect(s)
            draw_piece(p, kind, r, t, self._piece_style, opacity=0.33)
            p.setPen(QPen(_qc(t.capture), max(2.0, r.width() * 0.08), Qt.PenStyle.SolidLine,
                          Qt.PenCapStyle.RoundCap))
            a = r.adjusted(r.width() * 0.24, r.height() * 0.24, -r.width() * 0.24, -r.height() * 0.24)
            p.drawLine(a.topLeft(), a.bottomRight())
            p.drawLine(a.topRight(), a.bottomLeft())
        for s, kind in st.pieces.items():
            if s == moving:
                continue
            r = self.piece_rect(s)
            if s == self._drag_origin and self._drag_pos is not None:
                draw_piece(p, kind, r, t, self._piece_style, opacity=0.3)
                continue
            if s in st.threatened:
                p.setPen(Qt.PenStyle.NoPen)
                glow = _qc(t.threat)
                glow.setAlpha(110)
                p.setBrush(glow)
                p.drawEllipse(r.center(), r.width() * 0.5, r.width() * 0.5)
            draw_piece(p, kind, r, t, self._piece_style)
        if moving is not None and moving in st.pieces:
            draw_piece(p, st.pieces[moving], self._animated_rect(), t, self._piece_style)

    def _animated_rect(self) -> QRectF:
        """Where the moving piece is now: along the legs of the move, eased."""
        move = self._anim_move
        legs = len(move) - 1
        e = 1 - (1 - self._anim_t) ** 3
        k = min(legs - 1, int(e * legs))
        f = e * legs - k
        a, b = self.piece_rect(move[k]), self.piece_rect(move[k + 1])
        return QRectF(a.x() + (b.x() - a.x()) * f, a.y() + (b.y() - a.y()) * f, a.width(), a.height())

    def _paint_overlays(self, p: QPainter, cell: float) -> None:
        st, t = self._state, self._theme
        dot = _qc(t.target)
        for s in st.targets if self._show_targets else ():
            c = self.square_center(s)
            if s in st.pieces:
                p.setPen(QPen(dot, max(2.0, cell * 0.07)))
                p.setBrush(Qt.BrushStyle.NoBrush)
                half = self.piece_rect(s).width() * 0.56
                p.drawEllipse(c, half, half)
            else:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(dot)
                radius = cell * (0.24 if s == self._hover else 0.15)
                p.drawEllipse(c, radius, radius)
        if self._cursor is not None and self.hasFocus():
            r = self.piece_rect(self._cursor)
            grow = r.width() * (0.0 if self._state.geometry.kind == "grid" else 0.12) - 1.5
            r = r.adjusted(-grow, -grow, grow, grow)
            p.setPen(QPen(_qc(t.cursor), max(2.5, cell * 0.08)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(r, cell * 0.1, cell * 0.1)
        if self._drag_origin is not None and self._drag_pos is not None:
            kind = st.pieces.get(self._drag_origin)
            if kind:
                size = self.piece_rect(self._drag_origin).size()
                r = QRectF(self._drag_pos.x() - size.width() / 2, self._drag_pos.y() - size.height() / 2,
                           size.width(), size.height())
                draw_piece(p, kind, r.adjusted(-cell * 0.05, -cell * 0.05, cell * 0.05, cell * 0.05), t,
                           self._piece_style)

    # ------------------------------------------------------------------------------- mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._state is None:
            return
        if event.button() == Qt.MouseButton.RightButton:
            self.cancel_requested.emit()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
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
        if self._drag_origin is None or not event.buttons() & Qt.MouseButton.LeftButton:
            return
        if self._drag_pos is None:
            d = pos - self._press_pos
            if abs(d.x()) + abs(d.y()) < DRAG_START_PX:
                return
        self._drag_pos = pos
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
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
            self._cursor = best
            self._update_accessible_text()
            self.update()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride:
            key = event.key()
            if key in PICK_KEYS or key == Qt.Key.Key_Escape or (self._cursor is not None and key in CURSOR_KEYS):
                event.accept()
                return True
        if event.type() == QEvent.Type.ToolTip and self._state is not None:
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
                self._cursor = self._start_square()
                self.hint.emit("Keyboard play: arrow keys move the cursor, Enter picks up and drops, "
                               "Esc cancels (press Esc again to leave).")
                self._update_accessible_text()
                self.update()
            else:
                self.square_pressed.emit(self._cursor)
            return
        if key == Qt.Key.Key_Escape:
            if self._state.selected is not None:
                self.cancel_requested.emit()
            elif self._cursor is not None:
                self._cursor = None
                self.hint.emit("Keyboard cursor hidden: the arrow keys step through the moves again.")
                self.update()
            return
        if self._cursor is not None and key in CURSOR_KEYS:
            self._step_cursor(*CURSOR_KEYS[key])
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
        for mark, label in (("throne", "throne"), ("corner", "corner"), ("camp", "camp"), ("escape", "escape square"),
                            ("pen", "pen")):
            if square in g.marked(mark):
                parts.append(("on the " if kind else "") + label)
        if square in st.targets:
            parts.append("legal target")
        return f"{g.name(square)}: {' '.join(parts) if parts else 'empty'}"

    def _update_accessible_text(self) -> None:
        if self._state is None:
            return
        if self._cursor is not None:
            self.setAccessibleDescription("Cursor on " + self.describe_square(self._cursor))
        else:
            self.setAccessibleDescription("Press Enter to play with the keyboard")


"""How the board is drawn: frame, squares or points and lines, special squares, coordinates,
pieces, and the marks of play (last move, captures, selection, targets, cursor, dragged piece).

A mixin of :class:`~tafl_desktop.gui.board_view.BoardView`, kept apart so the widget module holds
the state and the gestures and this one only the pictures.  Everything is placed through the
view's geometry mapping (``square_rect``, ``piece_rect``), in vectors, so it is crisp at any DPI.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF

from tafl_desktop.gui.board_overlays import paint_heat, paint_marks
from tafl_desktop.gui.piece_painter import draw_piece

if TYPE_CHECKING:
    from tafl_desktop.gui.board_overlays import Arrow, Circle
    from tafl_desktop.gui.board_view import BoardState
    from tafl_desktop.gui.themes import BoardTheme


def _qc(text: str) -> QColor:
    return QColor(text)


class BoardPainting:
    """Painting methods; expects the attributes and mapping helpers BoardView defines (declared
    here, so both halves of the board agree on them)."""

    _state: BoardState | None
    _theme: BoardTheme
    _piece_style: str
    _coordinates: bool
    _show_targets: bool
    _anim_move: tuple[int, ...]
    _anim_t: float
    _drag_origin: int | None
    _drag_pos: QPointF | None
    _hover: int | None
    _cursor: int | None

    if TYPE_CHECKING:  # BoardView's mapping helpers and QWidget's font (not defined here)
        def _cell(self) -> tuple[float, float, float]: ...
        def _margin(self) -> float: ...
        def _map_rect(self, x: float, y: float, w: float, h: float) -> QRectF: ...
        def square_rect(self, square: int) -> QRectF: ...
        def piece_rect(self, square: int) -> QRectF: ...
        def square_center(self, square: int) -> QPointF: ...
        def _square_cells(self) -> bool: ...
        def _marks(self) -> tuple[list[Arrow], list[Circle], dict[int, tuple[str, float]]]: ...
        def font(self) -> QFont: ...
        def hasFocus(self) -> bool: ...  # noqa: N802 - Qt's name

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
        arrows, circles, heat = self._marks()
        if heat:
            paint_heat(self, p, heat)
        if self._coordinates:
            self._paint_coordinates(p, cell)
        self._paint_pieces(p, cell)
        self._paint_overlays(p, cell)
        paint_marks(self, p, cell, arrows, circles)

    def _paint_grid(self, p: QPainter, cell: float) -> None:
        g, t = self._state.geometry, self._theme
        marks = self._state.marks
        board = self._map_rect(0, 0, *g.extent)
        p.fillRect(board, _qc(t.square))
        throne, corner = g.marked("throne"), g.marked("corner")
        camp, escape = g.marked("camp"), g.marked("escape")
        if marks is not None:  # as the rules in force see them, like the printed board
            camp, escape = marks.camp, marks.escape - corner
            if marks.escape_edge:
                rim = QColor(_qc(t.escape))
                rim.setAlpha(120)
                for s in range(g.size):
                    if g.is_edge(s):
                        p.fillRect(self.square_rect(s), rim)
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
        if marks is not None and marks.edge_hostile:
            # a second line just outside the frame, as on paper: the rim takes part in captures
            gap = max(3.0, cell * 0.14)
            p.setPen(QPen(_qc(t.frame_text), max(1.5, cell * 0.05)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(board.adjusted(-gap, -gap, gap, gap))
        self._paint_walls(p, cell)

    def _paint_walls(self, p: QPainter, cell: float) -> None:
        """Walls (thick lines between squares), from the same segments the printer draws."""
        g, t = self._state.geometry, self._theme
        segments = g.wall_segments() if hasattr(g, "wall_segments") else []
        if not segments:
            return
        p.setPen(QPen(_qc(t.special_mark), max(3.0, cell * 0.11), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        for (x1, y1), (x2, y2) in segments:
            r = self._map_rect(x1, y1, x2 - x1, y2 - y1)
            p.drawLine(r.topLeft(), r.bottomRight())

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
            marks = self._state.marks
            hunter_lines = marks.hunter_lines if marks is not None else frozenset()
            pen = QPen(_qc(t.line), max(1.0, cell * 0.04), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            thin = QPen(_qc(t.capture), max(1.0, cell * 0.018), Qt.PenStyle.DashLine, Qt.PenCapStyle.RoundCap)
            for a, b, _kind in g.lines:
                p.setPen(thin if (a, b) in hunter_lines else pen)  # fox-only lines: thin, red, dashed
                p.drawLine(self.square_center(a), self.square_center(b))
        self._paint_move_tints(p, cell)
        home = self._state.marks.extra.get("home", frozenset()) if self._state.marks is not None else frozenset()
        for s in home:  # the breakthrough row: a ring round each point (or square), as on paper
            c = self.square_center(s)
            p.setPen(QPen(_qc(t.route), max(1.5, cell * 0.04)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            radius = self.piece_rect(s).width() * 0.58  # just outside a piece standing there
            p.drawEllipse(c, radius, radius)
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
            draw_piece(p, kind, r, t, self._piece_style, opacity=0.33, **self._labels(kind))
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
                draw_piece(p, kind, r, t, self._piece_style, opacity=0.3, **self._labels(kind))
                continue
            if s in st.threatened:
                p.setPen(Qt.PenStyle.NoPen)
                glow = _qc(t.threat)
                glow.setAlpha(110)
                p.setBrush(glow)
                p.drawEllipse(r.center(), r.width() * 0.5, r.width() * 0.5)
            draw_piece(p, kind, r, t, self._piece_style, **self._labels(kind))
        if moving is not None and moving in st.pieces:
            draw_piece(p, st.pieces[moving], self._animated_rect(), t, self._piece_style,
                       **self._labels(st.pieces[moving]))

    def _labels(self, kind: str) -> dict:
        """The letters and rank badge of a piece kind, from the state."""
        st = self._state
        return {"letters": st.letters, "rank": st.ranks.get(kind, 0)}

    def _animated_rect(self) -> QRectF:
        """Where the moving piece is now: along the legs of the move, eased."""
        move = self._anim_move
        legs = len(move) - 1
        e = 1 - (1 - self._anim_t) ** 3
        k = min(legs - 1, int(e * legs))
        f = e * legs - k
        a, b = self.piece_rect(move[k]), self.piece_rect(move[k + 1])
        return QRectF(a.x() + (b.x() - a.x()) * f, a.y() + (b.y() - a.y()) * f, a.width(), a.height())

    def _paint_suggestion(self, p: QPainter, cell: float) -> None:
        """The hinted move: a translucent arrow along its legs, ending in a head on the target."""
        move = self._state.suggested
        if len(move) < 2:
            return
        colour = _qc(self._theme.cursor)
        colour.setAlpha(190)
        width = max(3.0, cell * 0.12)
        p.setPen(QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        p.setBrush(Qt.BrushStyle.NoBrush)
        points = [self.square_center(s) for s in move]
        a, b = points[-2], points[-1]
        length = math.hypot(b.x() - a.x(), b.y() - a.y()) or 1.0
        ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
        head = min(cell * 0.38, length * 0.6)
        tip = QPointF(b.x() - ux * cell * 0.08, b.y() - uy * cell * 0.08)
        base = QPointF(tip.x() - ux * head, tip.y() - uy * head)
        for k in range(len(points) - 2):
            p.drawLine(points[k], points[k + 1])
        p.drawLine(a, base)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        left = QPointF(base.x() - uy * head * 0.6, base.y() + ux * head * 0.6)
        right = QPointF(base.x() + uy * head * 0.6, base.y() - ux * head * 0.6)
        p.drawPolygon(QPolygonF([tip, left, right]))

    def _paint_overlays(self, p: QPainter, cell: float) -> None:
        st, t = self._state, self._theme
        self._paint_suggestion(p, cell)
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
                base = 0.15 if self._square_cells() else 0.21  # larger than the point dots of a lattice
                radius = cell * (base + 0.08 if s == self._hover else base)
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
                           self._piece_style, **self._labels(kind))

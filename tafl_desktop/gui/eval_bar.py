"""The evaluation bar: who is better, by how much, as the computer's analysis sees it.

It shows the second side's winning chance (``defenders_win_chance`` of the AI's analysis, which
does not flip with the turn) as the share of the bar in that side's colour, with a caption that
says it in words ("Defenders 64%", "Attackers win in 3").  The bar is a view only: the window asks
the :class:`~tafl_desktop.gui.computer.Analyst` for an evaluation and hands the result here.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _


def caption(result: Any, sides: tuple[str, str], side_to_move: int) -> str:
    """The bar's words for an analysis result (``mate_in`` counts plies for the side to move)."""
    if result is None:
        return _("Evaluating...")
    mate = getattr(result, "mate_in", None)
    if mate is not None and mate > 0:
        moves = (mate + 1) // 2
        return f"{sides[side_to_move]} win in {moves} move{'s' if moves != 1 else ''}"
    chance = float(result.defenders_win_chance)
    if chance <= 0.0:
        return f"{sides[0]} win by force"
    if chance >= 1.0:
        return f"{sides[1]} win by force"
    if abs(chance - 0.5) < 0.03:
        return _("About even")
    better = 1 if chance > 0.5 else 0
    share = chance if better else 1.0 - chance
    return f"{sides[better]} better ({round(100 * share)}%)"


class EvalBar(QWidget):
    """A horizontal bar: the first side's colour on the left, the second side's on the right."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._chance: float | None = None
        self._text = _("Evaluating...")
        self._colours = (QColor("#2b2522"), QColor("#f4ecdc"))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        tr(self, "setAccessibleName", "Evaluation bar")

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(200, self.fontMetrics().height() + 10)

    def set_colours(self, first: QColor, second: QColor) -> None:
        """The two sides' piece colours (the first side fills from the left)."""
        if (first, second) != self._colours:
            self._colours = (QColor(first), QColor(second))
            self.update()

    def set_result(self, result: Any, sides: tuple[str, str], side_to_move: int) -> None:
        """Show an analysis (None: waiting for one)."""
        self._text = caption(result, sides, side_to_move)
        self._chance = None if result is None else float(result.defenders_win_chance)
        tr(self, "setToolTip", "The computer's view of the position: {text}", text=self._text)
        self.update()

    @property
    def text(self) -> str:
        return self._text

    def paintEvent(self, _event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        left, right = self._colours
        share = 0.5 if self._chance is None else self._chance
        split = r.left() + r.width() * (1.0 - share)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(left)
        p.drawRoundedRect(r, 4, 4)
        p.setBrush(right)
        p.save()
        p.setClipRect(QRectF(split, r.top(), r.right() - split, r.height()))
        p.drawRoundedRect(r, 4, 4)
        p.restore()
        p.setPen(QPen(QColor("#808080"), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(r, 4, 4)
        # the caption sits on whichever half is larger, in that half's contrasting colour
        on_left = split - r.left() >= r.right() - split
        box = QRectF(r.left() + 6, r.top(), split - r.left() - 12, r.height()) if on_left else \
            QRectF(split + 6, r.top(), r.right() - split - 12, r.height())
        back = left if on_left else right
        p.setPen(QColor("#ffffff") if back.lightnessF() < 0.5 else QColor("#1b1512"))
        align = Qt.AlignmentFlag.AlignVCenter | (Qt.AlignmentFlag.AlignLeft if on_left else Qt.AlignmentFlag.AlignRight)
        p.drawText(box, int(align), self._text)
        p.end()

"""Study capabilities of the window: the Analysis board and Review Game (``install(window)``).

Both talk to one :class:`~tafl_desktop.gui.analysis_client.AnalysisClient` (a worker process of their
own, started on first use), so the window opens as fast as before and the game's computer player
keeps its own process.  The heavy parts (matplotlib for the graph) are imported on first use.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

from tafl_desktop.i18n import _


class _CloseWatcher(QObject):
    """Stops the analysis process when the window closes."""

    def __init__(self, window: Any, client: Any) -> None:
        super().__init__(window)
        self.client = client

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.Close:
            self.client.shutdown()
        return False


def install(window: Any) -> None:
    """Add Game > Analysis Board (Ctrl+Shift+A) and Game > Review Game (Ctrl+Shift+R)."""
    from tafl_desktop.gui.analysis_board import AnalysisBoard
    from tafl_desktop.gui.analysis_client import AnalysisClient
    from tafl_desktop.gui.review_panel import ReviewPanel

    client = AnalysisClient(window)
    window.analysis_client = client
    window.analysis_board = board = AnalysisBoard(window, client)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, board)
    board.hide()
    window.review_panel = review = ReviewPanel(window, client)
    window.panel.layout().addWidget(review)

    act = QAction(_("&Analysis Board"), window)
    act.setCheckable(True)
    act.setShortcut(QKeySequence("Ctrl+Shift+A"))
    act.setStatusTip(_("The computer's best lines for the position shown, updated as it thinks (Ctrl+Shift+A)"))
    act.toggled.connect(board.set_active)
    board.visibilityChanged.connect(lambda shown: act.setChecked(shown) if not shown and board.active else None)
    window.act_analysis = act
    rev = QAction(_("Re&view Game"), window)
    rev.setShortcut(QKeySequence("Ctrl+Shift+R"))
    rev.setStatusTip(_("Class every move of this game and draw who was better (Ctrl+Shift+R)"))
    rev.triggered.connect(review.ask)
    window.act_review = rev
    window.addAction(act)
    window.addAction(rev)
    window.game_menu.addSeparator()
    window.game_menu.addActions([act, rev])
    window.installEventFilter(_CloseWatcher(window, client))

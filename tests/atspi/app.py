"""The window a screen reader reads, for ``test_atspi_board.py`` (run under the venv's Python on
Xvfb with Qt's accessibility forced on): a game of ``argv[1]`` in language ``argv[2]``, the board
as a table shown, the cursor on the square ``argv[3]``.  When the file ``argv[4]`` appears (the
reader listens by then), the moves of ``argv[5]`` (space-separated; ``-`` for none) are typed in the move field."""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.gui.main_window import MainWindow
from tafl_desktop.gui.preferences import Preferences
from tafl_desktop.i18n import install_qt_translator, set_language


def main() -> int:
    variant, lang, cursor, go_file, moves = sys.argv[1:6]
    set_language(lang, explicit=True)
    app = QApplication([sys.argv[0]])
    app.setApplicationName("tafl-atspi-probe")
    install_qt_translator(app)
    rules = find_variant(variant).make_rules()
    window = MainWindow(Game(rules), prefs=Preferences(animation=False, sound=False), persist=False)
    window.setWindowTitle("tafl-atspi-probe")
    window.resize(1000, 760)
    window.show()
    window.board_table_dock.show()
    window.board.set_cursor_square(rules.geometry.parse_square(cursor))
    window.board_table.setFocus()

    def type_moves() -> None:
        if not os.path.exists(go_file):
            return
        poll.stop()
        for text in moves.split() if moves != "-" else ():
            window.blind_play.field.setText(text)
            window.blind_play.enter()
        print("typed", flush=True)

    poll = QTimer()
    poll.timeout.connect(type_moves)
    poll.start(50)
    QTimer.singleShot(60_000, app.quit)  # never outlives a reader that died
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())

"""The panel beside the board: whose turn it is (always visible), announcements, captured pieces,
the players and the move list.  It only reads the session; all play goes through the board (the
controller's gestures; its "End turn" button is one)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from tafl_desktop.gui.controller import GameController
from tafl_desktop.gui.eval_bar import EvalBar
from tafl_desktop.gui.icons import piece_pixmap
from tafl_desktop.gui.move_list import MovePanel
from tafl_desktop.gui.piece_labels import piece_letters
from tafl_desktop.gui.piece_painter import face_colour
from tafl_desktop.gui.texts import tr
from tafl_desktop.gui.themes import BoardTheme
from tafl_desktop.gui.variant_info import rules_summary
from tafl_desktop.i18n import _
from tafl_desktop.session.readout import announcements, lost_counts, status_text
from tafl_desktop.session.session import GameSession


class SidePanel(QWidget):
    """Turn badge, announcement banner, captured counts, players and moves."""

    rules_requested = Signal()

    def __init__(self, session: GameSession, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._controller = controller
        self._theme: BoardTheme | None = None
        self._style = "stones"
        self.title = QLabel()
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.rules_button = tr(QPushButton(), "setText", "Rules in force...")
        tr(self.rules_button, "setToolTip", "Every rule of this game, from its toggles (Ctrl+R)")
        self.rules_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.rules_button.clicked.connect(self.rules_requested)
        self.subtitle = QLabel()
        self.subtitle.setWordWrap(True)
        title_col = QVBoxLayout()
        title_col.setSpacing(1)
        title_col.addWidget(self.title)
        title_col.addWidget(self.subtitle)
        # the button goes under the name, not beside it: a long name ("Fox and Geese (19th-century
        # diagonals)") then wraps at the panel's width instead of in a narrow column
        button_row = QHBoxLayout()
        button_row.addWidget(self.rules_button, 0)
        button_row.addStretch(1)
        title_row = QVBoxLayout()
        title_row.setSpacing(4)
        title_row.addLayout(title_col)
        title_row.addLayout(button_row)

        self.turn_icon = QLabel()
        self.turn_icon.setFixedSize(30, 30)
        self.turn_text = QLabel()
        self.turn_text.setWordWrap(True)
        tr(self.turn_text, "setAccessibleName", "Side to move")
        tf = self.turn_text.font()
        tf.setPointSizeF(tf.pointSizeF() * 1.15)
        tf.setBold(True)
        self.turn_text.setFont(tf)
        turn = QFrame()
        turn.setFrameShape(QFrame.Shape.StyledPanel)
        turn.setObjectName("turnBox")
        tl = QHBoxLayout(turn)
        tl.setContentsMargins(8, 6, 8, 6)
        tl.addWidget(self.turn_icon)
        tl.addWidget(self.turn_text, 1)

        self.announcement = QLabel()
        self.announcement.setWordWrap(True)
        self.announcement.setTextFormat(Qt.TextFormat.RichText)
        tr(self.announcement, "setAccessibleName", "Announcement")
        self.announcement.hide()

        self.lost_icons = (QLabel(), QLabel())
        self.lost_text = (QLabel(), QLabel())
        lost = QHBoxLayout()
        lost.addWidget(tr(QLabel(), "setText", "Captured:"))
        for i in (0, 1):
            lost.addSpacing(6)
            lost.addWidget(self.lost_icons[i])
            lost.addWidget(self.lost_text[i])
        lost.addStretch(1)

        self.players = QLabel()
        self.players.setWordWrap(True)

        self.thinking = QLabel()
        self.thinking.setWordWrap(True)
        # two lines kept while the computer thinks: its line changes many times a second between
        # one and two lines, and the move list below would jump up and down with it
        self.thinking.setMinimumHeight(2 * self.thinking.fontMetrics().lineSpacing())
        tr(self.thinking, "setAccessibleName", "Computer player")
        self.thinking.hide()
        self.eval_bar = EvalBar()
        self.eval_bar.hide()

        self.end_turn = tr(QPushButton(), "setText", "End turn")
        tr(self.end_turn, "setToolTip", "Finish this turn without using the remaining actions")
        self.end_turn.clicked.connect(controller.end_turn)
        self.end_turn.hide()

        self.moves = MovePanel(session, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(8)
        layout.addLayout(title_row)
        layout.addWidget(turn)
        layout.addWidget(self.announcement)
        layout.addWidget(self.thinking)
        layout.addWidget(self.eval_bar)
        layout.addWidget(self.end_turn)
        layout.addLayout(lost)
        layout.addWidget(self.players)
        layout.addWidget(self.moves, 1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.setMinimumWidth(220)

    def set_look(self, board_theme: BoardTheme, piece_style: str) -> None:
        self._theme = board_theme
        self._style = piece_style
        self.refresh()

    def show_thinking(self, text: str, problem: bool = False) -> None:
        """The computer's line: what it is doing (empty hides it); ``problem`` shows it in red."""
        self.thinking.setText(text)
        self.thinking.setStyleSheet("QLabel { color: #b3261e; font-weight: bold; }" if problem else "")
        self.thinking.setVisible(bool(text))

    def winner_pixmap(self, outcome, size: int = 48):
        """The winning side's piece (the end-of-game dialog's icon); None for a draw."""
        if outcome.winner is None or self._theme is None:
            return None
        kind = self._session.variant.traits.emblems[int(outcome.winner)]
        return piece_pixmap(kind, self._theme, self._style, size, piece_letters(self._session.variant))

    def refresh(self) -> None:
        c = self._session
        v = c.variant
        emblems, lost_emblems = v.traits.emblems, v.traits.lost_emblems
        self.title.setText(v.title)
        self.title.setToolTip(v.blurb)
        self.subtitle.setText(f"{v.board_text}, {rules_summary(v)}")
        side = int(c.side_to_move())
        over = c.is_live and c.game.outcome is not None
        self.turn_text.setText(status_text(c))
        if self._theme is not None:
            kind = emblems[side]
            if over and c.game.outcome.winner is not None:
                kind = emblems[int(c.game.outcome.winner)]
            self.turn_icon.setPixmap(piece_pixmap(kind, self._theme, self._style, 28, piece_letters(v)))
            self.eval_bar.set_colours(*(face_colour(k, self._theme) for k in emblems))
            for i in (0, 1):
                self.lost_icons[i].setPixmap(piece_pixmap(lost_emblems[i], self._theme, self._style, 16,
                                                                 piece_letters(v)))
        lost = lost_counts(c)
        for i in (0, 1):
            self.lost_text[i].setText(f"{lost[i]}")
            tip = _("{side} lost {n}").format(side=c.sides[i], n=lost[i])
            self.lost_icons[i].setToolTip(tip)
            self.lost_text[i].setToolTip(tip)
        self.players.setText(_("{first}: {first_player}   ·   {second}: {second_player}").format(
            first=c.sides[0], first_player=c.specs[0].label(), second=c.sides[1], second_player=c.specs[1].label()))
        notes = announcements(c, self._controller.announce)
        if notes:
            parts = []
            colour = "#b3261e" if any(a.kind == "threat" for a in notes) else "#1f7a3a"
            for a in notes:
                # the call and its "!" in the reader's typography (French puts a space before it)
                parts.append(_("<b>{call}!</b> {meaning}").format(call=escape(a.title), meaning=escape(a.detail)))
            self.announcement.setText("<br>".join(parts))
            self.announcement.setStyleSheet(
                f"QLabel {{ background: {colour}; color: white; border-radius: 6px; padding: 6px; }}")
            self.announcement.show()
        else:
            self.announcement.hide()
        self.end_turn.setVisible(self._controller.can_end_turn())
        self.moves.refresh()

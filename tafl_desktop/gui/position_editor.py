"""The position editor: set up any position of any preset and toggles, then play it (human or
computer), analyse it, or save it as a game record.

Every change goes through the rules (``core.position_setup``): a placement the rules refuse (a
second king, a second leader in one army, a piece on a square no piece of its kind may stand on)
is not made, and the rules' reason is shown.  A set-up that is only unfinished (no king yet, an
empty board after Clear) is kept while editing; it just cannot be played or saved until complete.
The position text field shows the row notation (``--position``) and takes one typed or pasted.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.marks import N_
from tafl_desktop.core.position_setup import (
    SetupError,
    board_text,
    piece_kinds,
    position_from_pieces,
    position_from_text,
    split_side,
)
from tafl_desktop.core.quoting import os_reason
from tafl_desktop.gui.board_view import BoardState, BoardView
from tafl_desktop.gui.form_labels import name_fields
from tafl_desktop.gui.icons import piece_pixmap
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.texts import tr
from tafl_desktop.gui.themes import piece_name, piece_side, theme
from tafl_desktop.i18n import _
from tafl_desktop.session.players import HUMANS, PlayerSpec
from tafl_desktop.session.source import GAME_SUFFIX, Origin

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

ERASER = ""

#: Called by "Analyse" with the window once it shows the edited position as a new game.  Without
#: one, "Analyse" switches on the window's analysis board if it has one (its checkable action
#: ``window.act_analysis``); without either the button stays greyed out and says so.
_analyser: Callable[[Any], None] | None = None


def analyser_for(window: Any) -> Callable[[Any], None] | None:
    """How "Analyse" starts the analysis of the window's game, or None when it cannot."""
    if _analyser is not None:
        return _analyser
    action = getattr(window, "act_analysis", None)
    if action is None:
        return None
    return lambda _window: action.setChecked(True) if action.isCheckable() else action.trigger()


def register_analyser(start: Callable[[Any], None] | None) -> None:
    """Let "Analyse" in the editor start the analysis board on the window's (new) game."""
    global _analyser
    _analyser = start


class PositionEditor(QDialog):
    """Set up a position.  ``pieces`` (point -> letter) and ``side`` are the editor's state; the
    rules decide whether it is a position (:attr:`problem` holds their reason when not)."""

    def __init__(self, window: MainWindow, variant: Any, pieces: dict[int, str], side: Side,
                 players: tuple[PlayerSpec, PlayerSpec] = HUMANS) -> None:
        super().__init__(window)
        tr(self, "setWindowTitle", "Set Up Position")
        self.window_ = window
        self.players = players
        self.tool = ERASER
        self.problem = ""
        self._variant = variant
        self.rules = variant.make_rules()
        self.pieces: dict[int, str] = dict(pieces)
        self.side = side

        self.board = BoardView(self)
        self.board.setMinimumSize(380, 380)
        prefs = window.prefs
        self.board.set_theme(theme(prefs.theme))
        self.board.set_piece_style(prefs.piece_style)
        self.board.set_coordinates(True)
        self.board.set_animation(False)
        self.board.square_pressed.connect(self.press)
        tr(self.board, "setAccessibleName", "Board to set up")

        self.rules_label = QLabel()
        self.rules_label.setWordWrap(True)
        change = tr(QPushButton(), "setText", "Game, Rules and Players...")
        change.clicked.connect(self.change_rules)
        tr(change, "setAccessibleDescription", "Choose another game, change its rules or who plays each side")

        self.palette_box = QWidget()
        self.palette_grid = QGridLayout(self.palette_box)
        self.palette_grid.setContentsMargins(0, 0, 0, 0)
        self.tools = QButtonGroup(self)
        self.tools.setExclusive(True)
        self.tool_buttons: dict[str, QToolButton] = {}

        self.side_box = QComboBox()
        self.side_box.currentIndexChanged.connect(self._side_chosen)
        tr(self.side_box, "setAccessibleDescription", "The side whose turn it is in this position")
        clear = tr(QPushButton(), "setText", "Clear Board")
        clear.clicked.connect(self.clear)
        tr(clear, "setAccessibleDescription", "Take every piece off the board")
        start = tr(QPushButton(), "setText", "Start Position")
        start.clicked.connect(self.start_position)
        tr(start, "setAccessibleDescription", "Set up the game's starting position")

        self.text = QLineEdit()
        tr(self.text, "setAccessibleName", "Position text")
        tr(self.text, "setToolTip", "The position in the notation --position reads; edit it and press Enter")
        self.text.returnPressed.connect(self.apply_text)
        apply_text = tr(QPushButton(), "setText", "Apply Text")
        apply_text.clicked.connect(self.apply_text)
        tr(apply_text, "setAccessibleDescription", "Set up the position typed in the position text")
        text_row = QHBoxLayout()
        text_row.addWidget(self.text, 1)
        text_row.addWidget(apply_text)

        self.status = QLabel()
        self.status.setWordWrap(True)
        tr(self.status, "setAccessibleName", "Set-up status")

        self.play_button = tr(QPushButton(), "setText", "Play from Here")
        self.play_button.setDefault(True)
        self.play_button.clicked.connect(self.play_from_here)
        tr(self.play_button, "setAccessibleDescription", "Start a game from this position")
        self.analyse_button = tr(QPushButton(), "setText", "Analyse")
        self.analyse_button.clicked.connect(self.analyse)
        self.save_button = tr(QPushButton(), "setText", "Save as Record...")
        self.save_button.clicked.connect(self.save_record)
        tr(self.save_button, "setAccessibleDescription", "Save this position as a game record to open later")
        close = tr(QPushButton(), "setText", "Close")
        close.clicked.connect(self.reject)
        tr(close, "setAccessibleDescription", "Close the editor; the game in the window stays as it was")

        from tafl_desktop.gui.new_game_dialog import PlayerChooser

        self.side_form = side_form = QFormLayout()
        side_form.addRow(tr(QLabel(), "setText", "To move:"), self.side_box)
        self.choosers = [PlayerChooser(p) for p in self.players]
        self.chooser_labels = [QLabel(), QLabel()]
        for label, chooser in zip(self.chooser_labels, self.choosers, strict=True):
            side_form.addRow(label, chooser)
        name_fields(side_form)
        right = QVBoxLayout()
        right.addWidget(self.rules_label)
        right.addWidget(change)
        right.addSpacing(6)
        right.addWidget(tr(QLabel(), "setText", "Click a square to place the chosen piece there (again to remove it):"))
        right.addWidget(self.palette_box)
        right.addLayout(side_form)
        buttons = QHBoxLayout()
        buttons.addWidget(clear)
        buttons.addWidget(start)
        right.addLayout(buttons)
        right.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.board, 1)
        top.addLayout(right)
        actions = QHBoxLayout()
        actions.addWidget(self.play_button)
        actions.addWidget(self.analyse_button)
        actions.addWidget(self.save_button)
        actions.addStretch(1)
        actions.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addWidget(tr(QLabel(), "setText", "Position text:"))
        layout.addLayout(text_row)
        layout.addWidget(self.status)
        layout.addLayout(actions)
        self._build_for_variant()
        fit_size(self, 820, 600)

    # ------------------------------------------------------------------------------- set-up
    @property
    def variant(self) -> Any:
        return self._variant

    def _build_for_variant(self) -> None:
        """Palette, side names and labels for the editor's variant."""
        v = self._variant
        tr(self.rules_label, "setText", "{game}: {board}", game=lambda v=v: v.title, board=lambda v=v: v.board_text)
        for b in self.tools.buttons():
            self.tools.removeButton(b)
            b.deleteLater()
        self.tool_buttons = {}
        t = theme(self.window_.prefs.theme)
        style = self.window_.prefs.piece_style
        kinds = list(piece_kinds(v)) + [ERASER]
        for i, kind in enumerate(kinds):
            b = QToolButton(self.palette_box)
            b.setCheckable(True)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            if kind == ERASER:
                tr(b, "setText", "Remove")
                tr(b, "setToolTip", "Click a piece to take it off the board")
            else:
                from PySide6.QtGui import QIcon

                b.setIcon(QIcon(piece_pixmap(kind, t, style, 28)))
                b.setText(self.kind_label(kind))
                b.setToolTip(self.kind_label(kind))
                tr(b, "setAccessibleDescription", "Put this piece on each square you click or press Enter on")
            b.setAccessibleName(b.text())
            b.clicked.connect(lambda _checked=False, k=kind: self.choose(k))
            self.tools.addButton(b)
            self.tool_buttons[kind] = b
            self.palette_grid.addWidget(b, i // 2, i % 2)
        self.choose(kinds[0])
        self.side_box.blockSignals(True)
        self.side_box.clear()
        for s in (Side(0), Side(1)):
            self.side_box.addItem(v.side_names[int(s)], int(s))
        self.side_box.setCurrentIndex(int(self.side))
        self.side_box.blockSignals(False)
        for i, label in enumerate(self.chooser_labels):
            tr(label, "setText", "{side}:", side=lambda v=v, i=i: v.side_names[i])
        self._update()

    def kind_label(self, kind: str) -> str:
        """What the palette calls a piece: its army and rank where pieces have ranks ("Swedes:
        leader's son"), its side where a side has one kind of piece ("Geese"), else its name
        ("King")."""
        traits = self._variant.traits
        side = self._variant.side_names[piece_side(kind)]
        if traits.ranked_pieces:
            return _("{side}: {piece}").format(side=side, piece=_(piece_name(kind.lower())))
        if len(traits.piece_kinds) == 2:  # one kind of piece a side: the side's name says it
            return side
        name = _(piece_name(kind))
        return name[:1].upper() + name[1:]

    def choose(self, kind: str) -> None:
        self.tool = kind
        self.tool_buttons[kind].setChecked(True)

    # ------------------------------------------------------------------------------- editing
    def _problem_of(self, pieces: dict[int, str], side: Side) -> str:
        try:
            position_from_pieces(self.rules, pieces, side)
        except SetupError as exc:
            return str(exc)
        return ""

    def press(self, square: int) -> None:
        """A click on the board: place the chosen piece (or remove it if it is already there)."""
        g = self._variant.geometry
        new = dict(self.pieces)
        if self.tool == ERASER or new.get(square) == self.tool:
            removed = new.pop(square, None)
            self._commit(new, _("Removed the {piece} on {square}.").format(
                piece=piece_name(removed), square=g.name(square)) if removed else "")
            return
        new[square] = self.tool
        why = self._problem_of(new, self.side)
        if why and why != self._problem_of(self.pieces, self.side):
            self._show(_("Not placed: {reason}.").format(reason=why), problem=True)
            return
        self._commit(new, _("Placed a {piece} on {square}.").format(piece=piece_name(self.tool), square=g.name(square)))

    def _commit(self, pieces: dict[int, str], note: str = "") -> None:
        self.pieces = pieces
        self._update(note)

    def clear(self) -> None:
        self._commit({}, _("The board is empty."))

    def start_position(self) -> None:
        pos = self.rules.initial_position()
        self.pieces = dict(self.rules.pieces(pos))
        self.side = self.rules.side_to_move(pos)
        self.side_box.setCurrentIndex(int(self.side))
        self._update(_("The start position of {game}.").format(game=self._variant.title))

    def _side_chosen(self, index: int) -> None:
        if index >= 0:
            self.side = Side(self.side_box.itemData(index))
            self._update()

    def set_side(self, side: Side) -> None:
        self.side_box.setCurrentIndex(int(side))

    def apply_text(self) -> bool:
        """Read the position text (and a side named after it); refuse it with the rules' reason."""
        body, side = split_side(self._variant, self.text.text())
        try:
            pos = position_from_text(self.rules, body, side if side is not None else self.side)
        except SetupError as exc:
            self._show(_("Not applied: {reason}.").format(reason=exc), problem=True)
            return False
        self.pieces = dict(self.rules.pieces(pos))
        if side is not None:
            self.side = side
            self.side_box.setCurrentIndex(int(side))
        self._update(_("Position read from the text."))
        return True

    def change_rules(self) -> None:
        from tafl_desktop.gui.new_game_dialog import NewGameDialog

        choice = NewGameDialog.ask(self, self._variant, self.chosen_players(),
                                  computer=self.window_.session.engines.has_computer)
        if choice is not None:
            self.set_variant(choice.variant, choice.players)

    def set_variant(self, variant: Any, players: tuple[PlayerSpec, PlayerSpec] | None = None) -> None:
        """Edit for ``variant``: the pieces stay where the board is the same and the new rules
        accept them; otherwise the new game's start position is set up."""
        old, old_family = self._variant.geometry, self._variant.family
        self._variant = variant
        self.rules = variant.make_rules()
        if players is not None:
            self.players = players
            for chooser, spec in zip(self.choosers, players, strict=True):
                chooser.kind.setCurrentIndex(0 if spec.is_human else 1)
                if not spec.is_human:
                    chooser.level.setCurrentIndex(max(0, chooser.level.findData(spec.level)))
        g = variant.geometry
        same_board = variant.family == old_family and g.size == old.size and \
            all(g.name(i) == old.name(i) for i in range(g.size))
        if not same_board or self._problem_of(self.pieces, self.side):
            pos = self.rules.initial_position()
            self.pieces = dict(self.rules.pieces(pos))
            self.side = self.rules.side_to_move(pos)
        self._build_for_variant()

    # ------------------------------------------------------------------------------- showing
    def _update(self, note: str = "") -> None:
        self.problem = self._problem_of(self.pieces, self.side)
        self.board.set_state(BoardState(geometry=self._variant.geometry, pieces=dict(self.pieces), interactive=True))
        self.text.setText(board_text(self._variant, self.pieces))
        ok = not self.problem
        for b in (self.play_button, self.save_button):
            b.setEnabled(ok)
        can = analyser_for(self.window_) is not None
        self.analyse_button.setEnabled(ok and can)
        tr(self.analyse_button, "setToolTip", N_("Analyse this position") if can else
           N_("The analysis board is not part of this version"))
        if self.problem:
            self._show(" ".join(filter(None, (note, _("Not playable yet: {reason}.").format(reason=self.problem)))),
                       problem=True)
            return
        pos = self.position()
        out = self.rules.outcome(pos)
        if out is not None:
            note = " ".join(filter(None, (note, _("This position is already decided: {what}").format(
                what=out.describe(self._variant)))))
        side = self._variant.side_names[int(self.side)]
        self._show(" ".join(filter(None, (note, _("{side} to move.").format(side=side)))))

    def _show(self, text: str, problem: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("QLabel { color: #b3261e; font-weight: bold; }" if problem else "")

    def position(self) -> Any:
        """The rules' position for the set-up (SetupError when they refuse it)."""
        return position_from_pieces(self.rules, self.pieces, self.side)

    # ------------------------------------------------------------------------------- leaving
    def play_from_here(self) -> bool:
        if self.problem or not self.window_.files.may_discard():
            return False
        self.players = self.chosen_players()
        self.window_.start_game(self._variant, self.players, start=self.position(), origin=Origin.EDITOR)
        self.accept()
        return True

    def chosen_players(self) -> tuple[PlayerSpec, PlayerSpec]:
        return self.choosers[0].spec(), self.choosers[1].spec()

    def analyse(self) -> bool:
        start = analyser_for(self.window_)
        if start is None or self.problem or not self.window_.files.may_discard():
            return False
        self.window_.start_game(self._variant, HUMANS, start=self.position(), origin=Origin.EDITOR)
        self.accept()
        start(self.window_)
        return True

    def save_record(self) -> bool:
        from tafl_desktop.core.record import save_game
        from tafl_desktop.gui import dialogs

        if self.problem:
            return False
        suggested = os.path.join(self.window_.files.last_dir(), f"{self._variant.id}-position{GAME_SUFFIX}")
        path = dialogs.ask_save_path(self, _("Save the position as a game record"), dialogs.GAME_FILTER, suggested)
        if not path:
            return False
        if not path.endswith(".json"):
            path += GAME_SUFFIX
        players = self.chosen_players()
        tags = {"player1": players[0].to_text(), "player2": players[1].to_text()}
        try:
            save_game(Game(self.rules, self.position()), path, tags)
        except OSError as exc:
            dialogs.show_error(self, _("Cannot save the position"), f"{path}: {os_reason(exc)}")
            return False
        self._show(_("Saved {name}.").format(name=os.path.basename(path)))
        return True


def open_editor(window: MainWindow, variant: Any = None, pieces: dict[int, str] | None = None,
                side: Side | None = None) -> PositionEditor:
    """Show the editor (not modal: the window stays usable) on the given set-up, by default the
    position shown in the window."""
    c = window.session
    old = window.position_editor
    if old is not None:
        try:
            old.close()  # one editor at a time: a paste replaces the set-up being edited
        except RuntimeError:
            pass  # already deleted on close
    if variant is None:
        variant = c.variant
        pos = c.viewed_position
        pieces = dict(c.rules.pieces(pos))
        side = c.rules.side_to_move(pos)
    editor = PositionEditor(window, variant, pieces or {}, side if side is not None else variant.first_side,
                            c.specs if variant is c.variant else HUMANS)
    editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    window.position_editor = editor
    editor.show()
    return editor


def install(window: MainWindow) -> None:
    """Game > Set Up Position... (Ctrl+E)."""
    window.position_editor = None
    act = window.add_action(N_("Se&t Up Position..."), lambda: open_editor(window), "Ctrl+E",
                            N_("Place pieces to make any position, then play, analyse or save it (Ctrl+E)"))
    window.act_setup = act
    window.game_menu.addSeparator()
    window.game_menu.addAction(act)

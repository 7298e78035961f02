"""The main window: board, side panel, menus, toolbar, status bar and preferences.

The window is a view of one :class:`~tafl_desktop.session.session.GameSession`: views read the
game from ``window.session`` and subscribe to its events through ``window.events`` (its Qt edge,
:class:`~tafl_desktop.gui.session_signals.SessionSignals`); ``window.controller`` holds only the
board's gestures (pick, path, hint).  Every way a game arrives ends in :meth:`MainWindow.load`,
which hands a :class:`~tafl_desktop.session.source.GameSource` to the session's one ``load``.
Capabilities (clocks, import/export, the analysis board...) are modules that ``install(window)``
themselves and then talk to the window only through its public API below (``session``, ``events``,
``controller``, ``files``, ``show_message``, ``add_action``, ``load``...) and the attributes it
declares for them; none of them reaches into the window's private members.  Files (open, save,
recent, restore) are :mod:`tafl_desktop.gui.files`; the autosave is the headless
:mod:`tafl_desktop.session.autosave`.  Dialogs that are not needed at start-up (new game, rules,
preferences) are imported when first opened, to start quickly.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QDialog, QDockWidget, QMainWindow, QMenu, QSplitter, QToolBar, QWidget

from tafl_desktop.core.game import Game, Outcome
from tafl_desktop.core.marks import N_
from tafl_desktop.core.move_numbers import moves_played, node_move_text
from tafl_desktop.core.variants import Variant
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.board_view import BoardView
from tafl_desktop.gui.capabilities import GUI_CAPABILITIES
from tafl_desktop.gui.controller import GameController
from tafl_desktop.gui.engines import window_engines
from tafl_desktop.gui.files import GameFiles
from tafl_desktop.gui.icons import app_icon, refresh_glyphs, set_glyph
from tafl_desktop.gui.palette import apply_palette
from tafl_desktop.gui.preferences import (
    Preferences,
    load_preferences,
    save_preferences,
)
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.session_signals import SessionSignals
from tafl_desktop.gui.side_panel import SidePanel
from tafl_desktop.gui.texts import tr
from tafl_desktop.gui.themes import theme
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.autosave import Autosave
from tafl_desktop.session.engine import EngineHub
from tafl_desktop.session.players import HUMANS, PlayerSpec
from tafl_desktop.session.readout import status_text
from tafl_desktop.session.session import GameSession
from tafl_desktop.session.source import GameSource, Origin

if TYPE_CHECKING:
    from tafl_desktop.gui.analysis_board import AnalysisBoard
    from tafl_desktop.gui.analysis_client import AnalysisClient
    from tafl_desktop.gui.blind_play import BlindPlay
    from tafl_desktop.gui.board_table import BoardTable
    from tafl_desktop.gui.clock_ui import ClockDriver
    from tafl_desktop.gui.computer import Analyst
    from tafl_desktop.gui.dablot_panel import DablotPanel
    from tafl_desktop.gui.game_end import GameEndActions
    from tafl_desktop.gui.learn import LessonDialog, PuzzleDialog
    from tafl_desktop.gui.position_editor import PositionEditor
    from tafl_desktop.gui.review_panel import ReviewPanel
    from tafl_desktop.gui.sound import GameSounds
    from tafl_desktop.interop.transfer import GameTransfer

APP_NAME = "Tafl Desktop"
DEFAULT_VARIANT = "copenhagen"



class _Decided:
    """An evaluation-bar value not from the analyst: a finished game (the winner's chance is
    certain) or the computer opponent's running search."""

    mate_in = None

    def __init__(self, winner) -> None:
        self.defenders_win_chance = 0.5 if winner is None else float(int(winner))

    @classmethod
    def from_score(cls, chance: float) -> _Decided:
        """A bar value from the computer opponent's own running search."""
        out = cls(None)
        out.defenders_win_chance = chance
        return out


class MainWindow(QMainWindow):
    """One window, one game session.  ``persist`` False keeps settings untouched (screenshots);
    ``autosave_path`` (None: off) is rewritten after every move so a crash loses nothing."""

    #: The preferences were applied (capabilities that follow them connect here).
    preferences_changed = Signal(object)
    #: The window switched to another language (its code); the texts of Qt widgets are already
    #: translated, a capability with texts of its own making connects here.
    language_changed = Signal(str)

    # -- what the capability modules add (declared here, set by their ``install``) ---------------
    act_import: QAction
    act_export: QAction
    act_analysis: QAction
    act_review: QAction
    act_rules_lab: QAction
    act_setup: QAction
    act_puzzles: QAction
    act_mine_games: QAction
    act_open_puzzle_file: QAction
    act_show_ranks: QAction
    act_full_screen: QAction
    act_shortcuts: QAction
    act_copy_position: QAction
    act_copy_moves: QAction
    act_paste: QAction
    act_comment: QAction
    act_promote: QAction
    act_make_main: QAction
    act_delete_variation: QAction
    edit_menu: QMenu
    learn_menu: QMenu
    #: The lesson and puzzle windows opened from the Learn menu.
    learn_dialogs: list[LessonDialog | PuzzleDialog]
    analysis_client: AnalysisClient
    analysis_board: AnalysisBoard
    review_panel: ReviewPanel
    clock_driver: ClockDriver
    dablot_panel: DablotPanel
    game_end: GameEndActions
    sounds: GameSounds
    blind_play: BlindPlay
    act_type_move: QAction
    board_table: BoardTable
    board_table_dock: QDockWidget
    act_board_table: QAction
    #: The open position editor, if any (one at a time).
    position_editor: PositionEditor | None = None
    #: The last game imported from a foreign format (its comments and warnings), if any.
    imported: GameTransfer | None = None

    def __init__(self, game: Game, players: tuple[PlayerSpec, PlayerSpec] = HUMANS,
                 prefs: Preferences | None = None, persist: bool = True, autosave_path: str | None = None,
                 parent: QWidget | None = None, engines: EngineHub | None = None) -> None:
        super().__init__(parent)
        self.persist = persist
        self.prefs = prefs if prefs is not None else (load_preferences() if persist else Preferences())
        self._pending_move: tuple[int, ...] = ()
        self._message = ""
        self.setWindowIcon(app_icon())

        #: The game: tree, players, clock, tags, file and saved state (headless).
        #: ``engines``: the players' back-ends (``gui.engines.window_engines``); without them,
        #: external engines only (no computer player: the tools that show a window, some tests).
        self.session = GameSession(GameSource.of_game(game, Origin.NEW, players),
                                   engines if engines is not None else window_engines(computer=False),
                                   defer=lambda fn: QTimer.singleShot(0, fn))
        #: The board's gestures (pick, path, hint), connected to the session before any view.
        self.controller = GameController(self.session, self)
        #: The session's events as Qt signals: every view of the game subscribes here.
        self.events = SessionSignals(self.session, self)
        #: The game kept in ``autosave_path`` after every change (headless; its slot is chosen at
        #: start-up, see ``gui.app``), and the window's files: open, save, recent, restore.
        self.autosave = Autosave(self.session, autosave_path)
        self.files = GameFiles(self)
        self.board = BoardView()
        self.panel = SidePanel(self.session, self.controller)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.board)
        self.splitter.addWidget(self.panel)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)
        self.splitter.setCollapsible(0, False)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self._make_actions()
        self._make_menus()
        self._make_toolbar()
        self.statusBar().setSizeGripEnabled(True)
        for module_name in GUI_CAPABILITIES:
            importlib.import_module(module_name).install(self)

        self.board.square_pressed.connect(self.controller.press)
        self.board.drop_requested.connect(self.controller.drop)
        self.board.cancel_requested.connect(self.controller.cancel)
        self.board.hint.connect(self.show_message)
        self.events.changed.connect(self.refresh)
        self.controller.board_changed.connect(self.refresh)
        self.events.message.connect(self.show_message)
        self.controller.board_message.connect(self.show_message)
        self.events.moved.connect(self._remember_move)
        self.events.finished.connect(self._game_finished)
        self.panel.rules_requested.connect(self.show_rules)
        self.events.thinking_changed.connect(self._thinking_changed)
        self.events.computer_progress.connect(self._computer_progress)
        self.events.computer_failed.connect(self._computer_failed)
        #: Hints and the evaluation bar's searches, made on the first hint or evaluation.
        self.analyst: Analyst | None = None
        self._evaluated: object = None  # the position the evaluation bar shows

        self._settings_failure_told = False  # the dialog about preferences that cannot be kept is shown once

        self.apply_preferences(self.prefs, save=False)
        fit_size(self, 1200, 800)
        if persist:
            self._restore_window()
        self.refresh()
        self.autosave.if_changed()  # a window made with a game and a slot keeps it at once
        self.board.setFocus()

    # ------------------------------------------------------------------------------- building
    def add_action(self, text: str, slot: Callable[..., Any],
                   shortcut: QKeySequence | QKeySequence.StandardKey | str | list[Any] | None = None,
                   tip: str = "", icon: str | None = None, checkable: bool = False) -> QAction:
        """An action of the window (its shortcut works anywhere in it), for a menu or toolbar;
        ``text`` and ``tip`` are English sources (marked ``N_``), shown in the language in use and
        rebuilt after a switch (:mod:`tafl_desktop.gui.texts`)."""
        a = tr(QAction(self), "setText", text)
        if shortcut is not None:
            keys = shortcut if isinstance(shortcut, list) else [shortcut]
            a.setShortcuts([k if isinstance(k, QKeySequence) else QKeySequence(k) for k in keys])
        if tip:
            tr(a, "setStatusTip", tip)
            tr(a, "setToolTip", tip)
        if icon:
            set_glyph(a, icon)
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _make_actions(self) -> None:
        c = self.session
        self.act_new = self.add_action(N_("&New Game..."), self.new_game, QKeySequence.StandardKey.New,
                                       N_("Choose a game, its players and its rules"), "new")
        self.act_open = self.add_action(N_("&Open Game..."), lambda: self.files.open_game(),
                                        QKeySequence.StandardKey.Open, N_("Open a saved game"))
        self.act_save = self.add_action(N_("&Save Game"), self.files.save_game, QKeySequence.StandardKey.Save,
                                        N_("Save this game"))
        self.act_save_as = self.add_action(N_("Save Game &As..."), self.files.save_game_as,
                                           QKeySequence.StandardKey.SaveAs, N_("Save this game under a new name"))
        self.act_open_variant = self.add_action(N_("Open &Variant..."), lambda: self.files.open_variant(), None,
                                                N_("Start a game with rules from a variant file (.toml)"))
        self.act_print = self.add_action(N_("&Print Set..."), self.print_set, QKeySequence.StandardKey.Print,
                                         N_("Board, pieces and rule sheet of this game's rules as a PDF (Ctrl+P)"))
        self.act_quit = self.add_action(N_("&Quit"), self.close, QKeySequence.StandardKey.Quit)
        self.act_undo = self.add_action(N_("&Undo Move"), c.undo, ["Ctrl+Z"], N_("Take back the last move (Ctrl+Z)"),
                                        "undo")
        self.act_redo = self.add_action(N_("&Redo Move"), c.redo, ["Ctrl+Y", "Ctrl+Shift+Z"],
                                        N_("Replay the move taken back (Ctrl+Y)"), "redo")
        self.act_first = self.add_action(N_("&First Position"), c.first, "Home", N_("Show the start position"), "first")
        self.act_back = self.add_action(N_("&Back"), c.back, "Left", N_("Show the position one move earlier"), "back")
        self.act_forward = self.add_action(N_("F&orward"), c.forward, "Right", N_("Show the position one move later"),
                                           "forward")
        self.act_last = self.add_action(N_("&Last Position"), c.last, "End", N_("Back to the game"), "last")
        self.act_flip = self.add_action(N_("&Flip Board"), self.flip_board, "F", N_("Turn the board round (F)"), "flip")
        self.act_coords = self.add_action(N_("Show &Coordinates"), self._toggle_coordinates, None,
                                          N_("Letters and numbers around the board"), checkable=True)
        self.act_announce = self.add_action(N_("&Announcements"), self._toggle_announcements, None,
                                            N_('Call out "Raichi", "Tuichi" and "Watch your king"'), checkable=True)
        self.act_prefs = self.add_action(N_("&Preferences..."), self.edit_preferences,
                                         QKeySequence.StandardKey.Preferences,
                                         N_("Theme, pieces, announcements, animation"))
        self.act_rules = self.add_action(N_("Rules &in Force..."), self.show_rules, "Ctrl+R",
                                         N_("Every rule of this game, from its toggles (Ctrl+R)"), "rules")
        self.act_keys = self.add_action(N_("&Keyboard and Mouse..."), self.show_keyboard_help, None,
                                        N_("How to play with the mouse or the keyboard"))
        self.act_announce_help = self.add_action(N_("A&nnouncements..."), self.show_announcement_help, None,
                                                 N_("What Raichi, Tuichi and Watch your king mean"))
        self.act_about = self.add_action(N_("&About Tafl Desktop"), self.show_about)
        self.act_hint = self.add_action(N_("&Hint"), self.ask_hint, ["H", "Ctrl+H"],
                                        N_("Show the move the computer would play for you (H)"), "hint")
        self.act_pause = self.add_action(N_("&Pause"), c.set_paused, "Ctrl+Space",
                                         N_("Stop or restart the computer players and the clocks (Ctrl+Space)"),
                                         "pause", checkable=True)
        self.act_move_now = self.add_action(N_("Computer: &Move Now"), c.computer_move_now, "Ctrl+M",
                                            N_("Make the computer play its best move so far (Ctrl+M)"))
        self.act_eval = self.add_action(N_("&Evaluation Bar"), self._toggle_eval_bar, None,
                                        N_("Show who is better, in the computer's judgement"), checkable=True)

    def _make_menus(self) -> None:
        mb = self.menuBar()
        self.file_menu = file_menu = tr(mb.addMenu(""), "setTitle", "&File")
        file_menu.addActions([self.act_new, self.act_open])
        self.recent_menu = tr(QMenu(self), "setTitle", "Open &Recent")
        self.recent_menu.aboutToShow.connect(self.files.fill_recent_menu)
        file_menu.addMenu(self.recent_menu)
        file_menu.addActions([self.act_save, self.act_save_as])
        file_menu.addSeparator()
        file_menu.addAction(self.act_open_variant)
        file_menu.addAction(self.act_print)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)
        self.game_menu = game_menu = tr(mb.addMenu(""), "setTitle", "&Game")
        game_menu.addActions([self.act_undo, self.act_redo])
        game_menu.addSeparator()
        game_menu.addActions([self.act_first, self.act_back, self.act_forward, self.act_last])
        game_menu.addSeparator()
        game_menu.addActions([self.act_hint, self.act_pause, self.act_move_now])
        game_menu.addSeparator()
        game_menu.addAction(self.act_rules)
        self.view_menu = view_menu = tr(mb.addMenu(""), "setTitle", "&View")
        view_menu.addActions([self.act_flip, self.act_coords, self.act_announce, self.act_eval])
        view_menu.addSeparator()
        view_menu.addAction(self.act_prefs)
        self.help_menu = help_menu = tr(mb.addMenu(""), "setTitle", "&Help")
        help_menu.addActions([self.act_keys, self.act_announce_help, self.act_rules])
        help_menu.addSeparator()
        help_menu.addAction(self.act_about)

    def _make_toolbar(self) -> None:
        tb = tr(QToolBar(self), "setWindowTitle", "Main toolbar")
        tb.setObjectName("mainToolbar")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        new = tr(QAction(self), "setText", "New Game")
        set_glyph(new, "new")
        tr(new, "setToolTip", "New game (Ctrl+N)")
        new.triggered.connect(self.new_game)
        tb.addAction(new)
        tb.addSeparator()
        for a, label, glyph in ((self.act_undo, N_("Undo"), "undo"), (self.act_redo, N_("Redo"), "redo")):
            b = tr(QAction(self), "setText", label)
            set_glyph(b, glyph)
            tr(b, "setToolTip", json.loads(a.property("tr:setToolTip"))[0])
            b.triggered.connect(a.trigger)
            a.changed.connect(lambda a=a, b=b: b.setEnabled(a.isEnabled()))
            tb.addAction(b)
        tb.addSeparator()
        flip = tr(QAction(self), "setText", "Flip")
        set_glyph(flip, "flip")
        tr(flip, "setToolTip", "Turn the board round (F)")
        flip.triggered.connect(self.flip_board)
        tb.addAction(flip)
        rules = tr(QAction(self), "setText", "Rules")
        set_glyph(rules, "rules")
        tr(rules, "setToolTip", "Rules in force (Ctrl+R)")
        rules.triggered.connect(self.show_rules)
        tb.addAction(rules)
        tb.addSeparator()
        for a, label, glyph in ((self.act_hint, N_("Hint"), "hint"), (self.act_pause, N_("Pause"), "pause")):
            b = tr(QAction(self), "setText", label)
            set_glyph(b, glyph)
            tr(b, "setToolTip", json.loads(a.property("tr:setToolTip"))[0])
            b.setCheckable(a.isCheckable())
            b.triggered.connect(a.trigger)
            a.changed.connect(lambda a=a, b=b: (b.setEnabled(a.isEnabled()), b.setChecked(a.isChecked())))
            tb.addAction(b)
        self.addToolBar(tb)
        self.toolbar = tb

    # ------------------------------------------------------------------------------- refresh
    def _remember_move(self, move: tuple[int, ...]) -> None:
        self._pending_move = tuple(move)

    def refresh(self) -> None:
        """Bring every widget in line with the session and the board's gestures (after a move,
        undo, navigation, a piece picked...)."""
        move, self._pending_move = self._pending_move, ()
        self.board.set_state(self.controller.board_state(), animate_move=move)
        self.panel.refresh()
        self._update_actions()
        self._update_title()
        self._update_status()
        self._update_eval_bar()

    def _update_actions(self, *_args) -> None:
        c = self.session
        self.act_undo.setEnabled(self.session.can_undo)
        self.act_redo.setEnabled(self.session.can_redo)
        n = len(c.game.plies)
        self.act_first.setEnabled(c.view_ply > 0)
        self.act_back.setEnabled(c.view_ply > 0)
        self.act_forward.setEnabled(c.view_ply < n)
        self.act_last.setEnabled(c.view_ply < n)
        playing = c.game.outcome is None
        self.act_hint.setEnabled(playing and c.human_to_move())
        has_computer = self.session.has_computer()
        self.act_pause.setEnabled(self.session.can_pause() and playing)
        self.act_move_now.setEnabled(has_computer and playing and c.computer_to_play())

    def _update_title(self, *_args) -> None:
        path = self.session.path
        name = Path(path).name if path else _("unsaved game")
        dirty = "*" if self.session.modified else ""
        self.setWindowTitle(f"{name}{dirty} - {self.session.variant.title} - {APP_NAME}")

    def show_message(self, text: str) -> None:
        """Say ``text`` in the status bar until the next message (empty: the default guidance)."""
        self._message = text
        self._update_status()

    def forget_message(self) -> None:
        """Drop the passing message (said in a language just left): the status bar shows the state."""
        self._message = ""

    def _update_status(self) -> None:
        """The status bar always says something useful: the last message, else what to do now."""
        c = self.session
        text = self._message
        if not text:
            if not c.is_live:
                text = (_("Viewing {move}. Press End to return to the game, or play a move here to start a "
                          "variation.").format(move=node_move_text(c.tree, c.viewed_node())) if c.view_ply else
                        _("Viewing the start position. Press End to return to the game, or play a move here to "
                          "start a variation."))
            elif c.game.outcome is not None:
                text = _("{outcome} Use the arrow keys or the move list to review.").format(
                    outcome=c.describe(c.game.outcome))
            elif self.controller.picked:
                name = c.variant.geometry.name(self.controller.picked[0])
                text = _("Piece on {square} picked: click a dot to move it there, or drag it. Click elsewhere (or "
                         "press Esc) to put it back.").format(square=name)
            else:
                text = _("{status}: click a piece to see where it can go (or press Enter to use the keyboard).").format(
                    status=status_text(c))
        self.statusBar().showMessage(text)

    def status_text(self) -> str:
        return self.statusBar().currentMessage()

    # ------------------------------------------------------------------------------- games
    def load(self, source: GameSource, message: str = "", remember: bool = False) -> None:
        """Make ``source`` the game on screen (the one way every game arrives): the session loads
        it (tree, players, clock, tags, file), the board faces the human, the status bar says
        ``message``.  ``remember`` puts its file in the recent list."""
        self._message = ""
        self.session.load(source)
        self._orient()
        if remember and source.path:
            self.files.remember_recent(source.path)
        if self.session.clock_problem:
            message = f"{message} {self.session.clock_problem}".strip()
        self.show_message(message)
        self.refresh()

    def start_game(self, variant: Variant, players: tuple[PlayerSpec, PlayerSpec] = HUMANS,
                   start: Any = None, time_control: Any = None, origin: Origin = Origin.NEW) -> None:
        """Replace the current game with a new one of ``variant`` (with a clock if ``time_control``)."""
        self._message = ""
        self.session.load(GameSource.new(variant, players, start, time_control, origin))
        self._orient()
        self.show_message(_("New game: {game}. {status}.").format(game=variant.title,
                                                                  status=status_text(self.session)))
        self.refresh()

    def _orient(self) -> None:
        """Face the human: in games with a bottom and a top side (Fox games, Dablot), a lone human
        player of the top side sees the board turned round.  Tafl boards have no top side."""
        players = self.session.specs
        if not self.session.variant.traits.has_top_side or players[0].is_human == players[1].is_human:
            return
        self.board.set_flipped(players[1].is_human)

    def new_game(self) -> None:
        if not self.files.may_discard():
            return
        from tafl_desktop.gui.new_game_dialog import NewGameDialog

        choice = NewGameDialog.ask(self, self.session.variant, self.session.specs,
                                  computer=self.session.engines.has_computer)
        if choice is not None:
            self.start_game(choice.variant, choice.players, time_control=getattr(choice, "time_control", None))

    def print_set(self) -> None:
        """File > Print Set: a DIY set of the current game's variant, toggles included."""
        from tafl_desktop.gui.print_dialog import open_print_dialog

        open_print_dialog(self)

    def _game_finished(self, outcome: Outcome) -> None:
        QTimer.singleShot(0, lambda: self._announce_end(outcome))

    def _announce_end(self, outcome: Outcome) -> None:
        """The end-of-game dialog: its answer starts a new game, starts the review, or just
        leaves the board as it is."""
        c = self.session
        if c.game.outcome != outcome:
            return  # taken back meanwhile
        variant = c.rules.variant
        headline = outcome.headline(variant)
        n = moves_played(c.game)
        # the dialog's default button starts the computer's review: the text says what it does
        # and what closing the dialog leaves (it once told the player to review by hand)
        detail = ngettext("{reason}. The game lasted {n} move.\n\n“Review the game” has the computer judge every "
                          "move. Close this window to step through the moves yourself: the board stays as it is.",
                          "{reason}. The game lasted {n} moves.\n\n“Review the game” has the computer judge every "
                          "move. Close this window to step through the moves yourself: the board stays as it is.",
                          n).format(reason=outcome.reason_text(variant), n=n)
        choice = dialogs.show_game_over(self, headline, detail, self.panel.winner_pixmap(outcome))
        if choice == dialogs.NEW_GAME:
            self.new_game()
        elif choice == dialogs.REVIEW:
            self.review_game()

    def review_game(self) -> None:
        """Start the review of the game (Game > Review Game), if this window has one."""
        review = getattr(self, "act_review", None)
        if review is not None:
            review.trigger()

    # ------------------------------------------------------------------------------- computer
    def _thinking_changed(self, on: bool) -> None:
        c = self.session
        if on:
            side = c.sides[int(c.rules.side_to_move(c.game.position))]
            self.panel.show_thinking(_("The computer ({side}) is thinking...").format(side=side))
        else:
            self.panel.show_thinking("")
        self._update_actions()

    def _computer_progress(self, info: dict) -> None:
        c = self.session
        if not c.thinking:
            return
        side = c.sides[int(c.rules.side_to_move(c.game.position))]
        pv = " ".join((info.get("pv") or [])[:3])
        depth = info.get("depth", 0)
        self.panel.show_thinking(
            _("The computer ({side}) is thinking: depth {depth}, considering {moves}.").format(
                side=side, depth=depth, moves=pv) if pv else
            _("The computer ({side}) is thinking: depth {depth}.").format(side=side, depth=depth))
        if self.prefs.eval_bar and "defenders_score" in info:  # its own search feeds the bar for free
            from tafl_desktop.ai.analysis import win_chance

            self._evaluated = (id(c.game), len(c.game.plies))
            self.panel.eval_bar.set_result(_Decided.from_score(win_chance(int(info["defenders_score"]))),
                                           c.sides, int(c.rules.side_to_move(c.game.position)))

    def _computer_failed(self, text: str) -> None:
        self.panel.show_thinking(text, problem=True)
        self._update_actions()

    def ensure_analyst(self) -> Analyst:
        """The analyst (hints, the evaluation bar, weighing a draw offer), started on first use."""
        if self.analyst is None:
            from tafl_desktop.gui.computer import Analyst

            self.analyst = Analyst(self)
        return self.analyst

    def ask_hint(self) -> None:
        """Ask the computer for the move it would play for the human to move, then draw it."""
        c = self.session
        if c.game.outcome is not None or not c.human_to_move():
            self.show_message(_("A hint is for your own turn."))
            return
        c.last()
        game, plies, token = c.game, len(c.game.plies), self.controller.token
        self.show_message(_("Looking for a good move..."))

        def got(result) -> None:
            if self.controller.token != token or c.game is not game or len(game.plies) != plies:
                return  # the game moved on meanwhile, or another game was loaded
            if result.error or result.move is None:
                from tafl_desktop.gui.computer import first_line

                self.show_message(_("No hint this time: {reason}.").format(
                    reason=first_line(result.error) or _("no move found")))
                return
            self.controller.show_hint(tuple(result.move), token)
            self.show_message(_("Hint: {move_text}.").format(move_text=result.move_text))
            if self.prefs.eval_bar:  # a hint is also a fresh, deeper evaluation
                self._evaluated = (id(game), plies)
                self.panel.eval_bar.set_result(result, c.sides, int(c.rules.side_to_move(game.position)))

        self.ensure_analyst().hint(game, got)

    def _toggle_eval_bar(self, on: bool) -> None:
        from dataclasses import replace

        self.apply_preferences(replace(self.prefs, eval_bar=bool(on)))

    def _update_eval_bar(self) -> None:
        """Ask for an evaluation of the live position when the bar is on and it shows another one.
        Skipped while the computer opponent thinks: two searches would halve each one's speed."""
        c = self.session
        bar = self.panel.eval_bar
        bar.setVisible(self.prefs.eval_bar)
        if not self.prefs.eval_bar:
            return
        key = (id(c.game), len(c.game.plies))
        if key == self._evaluated:
            return
        if c.thinking or (c.computer_to_play() and not c.paused):
            if self.analyst is not None and self.analyst.busy:
                self.analyst.cancel()  # an evaluation of an older position would only slow it down
            return  # the computer opponent is about to search: its progress feeds the bar instead
        analyst = self.ensure_analyst()
        if analyst.busy:
            analyst.cancel()
        side = int(c.rules.side_to_move(c.game.position))
        if c.game.outcome is not None:
            self._evaluated = key
            bar.set_result(_Decided(c.game.outcome.winner), c.sides, side)
            return
        bar.set_result(None, c.sides, side)
        game, plies = c.game, len(c.game.plies)

        def got(result) -> None:
            if c.game is not game or len(game.plies) != plies or result.error:
                return
            self._evaluated = (id(game), plies)
            bar.set_result(result, c.sides, side)

        self._evaluated = key
        analyst.evaluate(game, got)

    # ------------------------------------------------------------------------------- view
    def flip_board(self) -> None:
        self.board.set_flipped(not self.board.flipped())
        self.show_message(_("Board flipped.") if self.board.flipped() else _("Board the right way up."))

    def apply_preferences(self, prefs: Preferences, save: bool = True) -> None:
        language_changed = prefs.language != self.prefs.language
        self.prefs = prefs
        if language_changed:
            from tafl_desktop.gui.language import switch_language

            self.language_changed.emit(switch_language(self, prefs.language))
        t = theme(prefs.theme)
        apply_palette(t.key)
        refresh_glyphs(self)
        self.board.set_theme(t)
        self.board.set_piece_style(prefs.piece_style)
        self.board.set_coordinates(prefs.coordinates)
        self.board.set_animation(prefs.animation)
        self.board.set_show_targets(prefs.show_targets)
        self.controller.announce = prefs.announcements
        self.panel.set_look(t, prefs.piece_style)
        self.act_coords.setChecked(prefs.coordinates)
        self.act_announce.setChecked(prefs.announcements)
        self.act_eval.setChecked(prefs.eval_bar)
        self.preferences_changed.emit(prefs)
        if save and self.persist:
            problem = save_preferences(prefs)
            if problem and not self._settings_failure_told:
                self._settings_failure_told = True
                dialogs.show_error(self, _("Your preferences cannot be saved"), _(
                    "{problem}\n\nThe new preferences apply until you close Tafl Desktop; next time "
                    "it starts with the ones saved before.").format(problem=problem))
        self.refresh()

    def _toggle_coordinates(self, on: bool) -> None:
        from dataclasses import replace

        self.apply_preferences(replace(self.prefs, coordinates=bool(on)))

    def _toggle_announcements(self, on: bool) -> None:
        from dataclasses import replace

        self.apply_preferences(replace(self.prefs, announcements=bool(on)))

    def edit_preferences(self) -> None:
        from tafl_desktop.gui.preferences import PreferencesDialog

        dlg = PreferencesDialog(self.prefs, self)
        if dlg.exec():
            self.apply_preferences(dlg.result_preferences())

    def show_rules(self) -> None:
        from tafl_desktop.gui.rules_viewer import RulesViewer

        RulesViewer(self.session.variant, self).exec()

    def show_keyboard_help(self) -> None:
        from tafl_desktop.gui.help_text import KEYBOARD_HELP

        dialogs.show_html(self, _("Keyboard and mouse"), _(KEYBOARD_HELP))

    def show_announcement_help(self) -> None:
        from tafl_desktop.gui.help_text import ANNOUNCEMENTS_HELP

        dialogs.show_html(self, _("Announcements"), _(ANNOUNCEMENTS_HELP))

    def show_about(self) -> None:
        from tafl_desktop.gui.help_text import ABOUT

        dialogs.show_info(self, _("About Tafl Desktop"), _(ABOUT))

    # ------------------------------------------------------------------------------- window
    def _restore_window(self) -> None:
        s = QSettings()
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        state = s.value("window/splitter")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.splitter.restoreState(state)
        self.board.set_flipped(str(s.value("window/flipped", "false")).lower() == "true")

    def save_window(self) -> None:
        if not self.persist:
            return
        s = QSettings()
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/splitter", self.splitter.saveState())
        s.setValue("window/flipped", self.board.flipped())
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        # the window's own dialogs go first: a Rules Lab study stops and waits for its thread
        for dialog in self.findChildren(QDialog):
            if dialog.isVisible():
                dialog.close()
        self.save_window()
        self.autosave.now(closing=True)
        self.autosave.release()  # the slot's game (if any) is now for the next start to offer
        self.session.shutdown()
        self.review_panel.shutdown()
        if self.analyst is not None:
            self.analyst.shutdown()
        super().closeEvent(event)

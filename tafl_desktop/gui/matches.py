"""The Matches window: two players, N games, the figures engine testers use, without a terminal.

The window builds the same :class:`~tafl_desktop.match.runner.MatchSettings` as ``tafl-desktop
match`` (:func:`~tafl_desktop.match.runner.build_settings`) and runs it through the same
:func:`~tafl_desktop.match.runner.run_match`, on a thread that only waits: every game is played in
a worker process (even one game at a time), so the window never stalls and Cancel ends the game
being played at once.  The match's folder keeps every finished game and the journal, so a
cancelled match (or one whose program was killed) resumes from its folder: Start again with the
same folder and settings, or Resume a Match... and pick the folder.

The live table shows the first player's wins, draws and losses per colour, the Elo difference
with its 95 % interval and, with an SPRT, its log-likelihood ratio and verdict; each finished game
is listed and opens in the main window.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QStandardPaths, Qt, QThread, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.marks import N_
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.form_labels import describe_buttons, name_fields
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.texts import add_item, tr
from tafl_desktop.i18n import _, ngettext, pgettext

#: Player kinds besides the levels: the data of the player combo box and the spec it makes.
ENGINE_KINDS = (("native", N_("Our engine (native search)")), ("python", N_("Our engine (Python search)")),
                ("engine", N_("Hosted engine (command)")))
#: How a match's endings are named in the table (the journal's keys are English and stable).
ENDINGS = {"rules": N_("on the board"), "ply_cap": N_("move limit"), "proven": N_("proven by the search"),
           "resigned": N_("resigned"), "crash": N_("engine crashed"), "timeout": N_("out of time"),
           "illegal": N_("illegal move"), "protocol": N_("protocol error")}
VERDICTS = {"H1": N_("gain accepted (H1)"), "H0": N_("no gain (H0)"), "continue": N_("undecided, playing on")}


def install(window: Any) -> None:
    """Game > Matches... on the window's menu."""
    from PySide6.QtGui import QAction

    act = tr(QAction(window), "setText", "E&ngine Matches...")
    tr(act, "setStatusTip", "Play a match between two computer players: wins, draws, losses, Elo and SPRT")
    act.triggered.connect(lambda: MatchesDialog.open_for(window))
    window.game_menu.addAction(act)
    window.act_matches = act


def retranslate(window: Any) -> None:
    """After a language switch: the open Matches windows' table headings and figures."""
    for dlg in window.findChildren(MatchesDialog):
        dlg.retranslate()


def player_name(spec: str) -> str:
    """A player as the window names it: a level by its name in the player's language, any other
    player by its spec (as the match's files and the command line write it)."""
    from tafl_desktop.ai.levels import LEVELS, PLAYER_LEVELS

    return _(LEVELS[spec].label) if spec in PLAYER_LEVELS else spec


def matches_folder() -> Path:
    """Where the window keeps its matches (one folder per match, so they resume)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or tempfile.gettempdir()) / "matches"


def _may_use(folder: Path, settings: Any) -> bool:
    """May ``settings`` be played in ``folder``: a new or empty folder, or this very match's own
    (which it then resumes)?"""
    from tafl_desktop.match.runner import SETTINGS_FILE, MatchSettings

    try:
        old = MatchSettings.from_data(json.loads((folder / SETTINGS_FILE).read_text(encoding="utf-8")))
    except FileNotFoundError:
        return True
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return bool(old.same_match(settings))


class MatchThread(QThread):
    """Runs one match (its games in worker processes) and reports each finished game."""

    opened = Signal(object, object)  # the entries already in the folder, their summary
    progressed = Signal(object, object)  # a finished game's entry, the summary so far
    ended = Signal(object)  # the final summary
    failed = Signal(str)

    def __init__(self, settings: Any, folder: Path, workers: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.folder = folder
        self.workers = workers
        self.stop_flag = threading.Event()

    def run(self) -> None:  # noqa: D102 - QThread's entry point
        from tafl_desktop.match.players import PlayerError
        from tafl_desktop.match.runner import MatchError, read_journal, run_match, summary

        try:
            before = [e for i, e in sorted(read_journal(self.folder).items()) if i < self.settings.games]
            self.opened.emit(before, summary(self.settings, before))
            report = run_match(self.settings, str(self.folder), self.workers,
                               lambda entry, rep: self.progressed.emit(entry, rep), self.stop_flag.is_set)
            self.ended.emit(report)
        except (MatchError, PlayerError) as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # noqa: BLE001 - one line in the window, never a traceback
            self.failed.emit(dialogs.describe_problem(exc))


class MatchesDialog(QDialog):
    """Set up, run, watch, cancel and resume a match between two players."""

    def __init__(self, window: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.thread_: MatchThread | None = None
        self.settings: Any = None
        self.folder: Path | None = None
        self.entries: dict[int, dict[str, Any]] = {}
        tr(self, "setWindowTitle", "Matches")

        intro = tr(QLabel(), "setText", "Two players play a match; each opening is played once with each colour. "
                   "Every game is saved in the match's folder, so a cancelled match resumes from it.")
        intro.setWordWrap(True)

        from tafl_desktop.ai.levels import LEVELS, PLAYER_LEVELS
        from tafl_desktop.core.variants import presets

        self.players = (QComboBox(), QComboBox())
        self.commands = (QLineEdit(), QLineEdit())
        for k, (combo, command) in enumerate(zip(self.players, self.commands, strict=True)):
            for name in PLAYER_LEVELS:
                add_item(combo, LEVELS[name].label, name)
            for kind, label in ENGINE_KINDS:
                add_item(combo, label, kind)
            combo.setCurrentIndex(PLAYER_LEVELS.index("easy" if k == 0 else "medium"))
            tr(command, "setAccessibleName", "Engine command of player {n}", n=k + 1)
            tr(command, "setPlaceholderText", "the command that starts the engine")
            combo.currentIndexChanged.connect(self._show_commands)
        self.variant = QComboBox()
        for vid, v in presets().items():
            self.variant.addItem(v.title, vid)
        current = getattr(getattr(window, "session", None), "variant", None)
        at = self.variant.findData(getattr(current, "id", "brandubh"))
        self.variant.setCurrentIndex(at if at >= 0 else max(0, self.variant.findData("brandubh")))
        self.games = QSpinBox()
        self.games.setRange(1, 100_000)
        self.games.setValue(10)
        self.budget = QComboBox()
        add_item(self.budget, "Each level's own", "own")
        add_item(self.budget, "Seconds per move", "time")
        add_item(self.budget, "Nodes per move", "nodes")
        self.seconds = QDoubleSpinBox()
        self.seconds.setRange(0.05, 3600.0)
        self.seconds.setValue(1.0)
        tr(self.seconds, "setAccessibleName", "Seconds per move")
        self.nodes = QSpinBox()
        self.nodes.setRange(100, 1_000_000_000)
        self.nodes.setSingleStep(1000)
        self.nodes.setValue(20_000)
        tr(self.nodes, "setAccessibleName", "Nodes per move")
        self.budget.currentIndexChanged.connect(self._show_budget)
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, 64)
        from tafl_desktop.lab.executors import default_workers

        self.concurrency.setValue(default_workers())
        self.seed = QSpinBox()
        self.seed.setRange(0, 1_000_000_000)
        self.seed.setValue(1)
        self.sprt = tr(QCheckBox(), "setText", "Stop when an SPRT decides")
        tr(self.sprt, "setToolTip", "The sequential probability ratio test of fastchess (alpha and beta 0.05)")
        self.elo0, self.elo1 = QDoubleSpinBox(), QDoubleSpinBox()
        for spin, value, name in ((self.elo0, 0.0, N_("SPRT Elo 0 (no gain)")), (self.elo1, 10.0,
                                                                                 N_("SPRT Elo 1 (the gain)"))):
            spin.setRange(-1000.0, 1000.0)
            spin.setDecimals(1)
            spin.setValue(value)
            tr(spin, "setAccessibleName", name)
        self.sprt.toggled.connect(self._show_sprt)
        self.openings = QLineEdit()
        tr(self.openings, "setPlaceholderText", "random openings from the seed")
        self.openings_button = tr(QPushButton(), "setText", "Choose...")
        tr(self.openings_button, "setAccessibleName", "Choose an openings file")
        self.openings_button.clicked.connect(self._choose_openings)
        self.out = QLineEdit(str(matches_folder() / time.strftime("match-%Y%m%d-%H%M%S")))
        self.out_button = tr(QPushButton(), "setText", "Choose...")
        tr(self.out_button, "setAccessibleName", "Choose the match's folder")
        self.out_button.clicked.connect(self._choose_folder)

        setup = tr(QGroupBox(), "setTitle", "Match")
        left = QFormLayout()
        for k in range(2):
            row = QHBoxLayout()
            row.addWidget(self.players[k], 1)
            row.addWidget(self.commands[k], 2)
            left.addRow(tr(QLabel(), "setText", "Player {n}:", n=k + 1), row)
        left.addRow(tr(QLabel(), "setText", "Game:"), self.variant)
        left.addRow(tr(QLabel(), "setText", "Games:"), self.games)
        budget_row = QHBoxLayout()
        budget_row.addWidget(self.budget, 1)
        budget_row.addWidget(self.seconds)
        budget_row.addWidget(self.nodes)
        left.addRow(tr(QLabel(), "setText", "Budget:"), budget_row)
        right = QFormLayout()
        right.addRow(tr(QLabel(), "setText", "Games at once:"), self.concurrency)
        right.addRow(tr(QLabel(), "setText", "Seed:"), self.seed)
        sprt_row = QHBoxLayout()
        sprt_row.addWidget(self.sprt)
        sprt_row.addWidget(self.elo0)
        sprt_row.addWidget(self.elo1)
        right.addRow(sprt_row)
        open_row = QHBoxLayout()
        open_row.addWidget(self.openings, 1)
        open_row.addWidget(self.openings_button)
        right.addRow(tr(QLabel(), "setText", "Openings file:"), open_row)
        out_row = QHBoxLayout()
        out_row.addWidget(self.out, 1)
        out_row.addWidget(self.out_button)
        right.addRow(tr(QLabel(), "setText", "Folder:"), out_row)
        grid = QGridLayout(setup)
        grid.addLayout(name_fields(left), 0, 0)
        grid.addLayout(name_fields(right), 0, 1)

        self.start_button = tr(QPushButton(), "setText", "Start")
        self.start_button.setDefault(True)
        self.start_button.clicked.connect(self.start)
        self.resume_button = tr(QPushButton(), "setText", "Resume a Match...")
        tr(self.resume_button, "setToolTip", "Pick the folder of a cancelled or interrupted match and play on")
        self.resume_button.clicked.connect(self.resume)
        self.cancel_button = tr(QPushButton(), "setText", "Cancel Match")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        tr(self.progress, "setAccessibleName", "Games played")
        self.progress.setFormat(_("%v of %m games"))
        self.progress.setValue(0)
        run_row = QHBoxLayout()
        for b in (self.start_button, self.resume_button, self.cancel_button):
            run_row.addWidget(b)
        run_row.addWidget(self.progress, 1)
        self.status = tr(QLabel(), "setText", "Not started.")
        self.status.setWordWrap(True)

        self.table = QTableWidget(3, 4)
        tr(self.table, "setAccessibleName", "Wins, draws and losses of player 1 by colour")
        self.table.setTabKeyNavigation(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table_title = QLabel()
        self.elo = QLabel()
        self.llr = QLabel()
        for figure in (self.elo, self.llr):
            figure.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.games_table = QTableWidget(0, 6)
        tr(self.games_table, "setAccessibleName", "Finished games")
        tr(self.games_table, "setToolTip", "Double-click a game to open it in the main window")
        self.games_table.setTabKeyNavigation(False)
        self.games_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.games_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.games_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.games_table.verticalHeader().setVisible(False)
        self.games_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.games_table.horizontalHeader().setStretchLastSection(True)
        self.games_table.cellDoubleClicked.connect(lambda row, _col: self.open_game(row))
        self.open_button = tr(QPushButton(), "setText", "Open Game")
        tr(self.open_button, "setToolTip", "Show the selected game in the main window")
        self.open_button.clicked.connect(lambda: self.open_game(self.games_table.currentRow()))
        self.open_button.setEnabled(False)
        self.games_table.itemSelectionChanged.connect(
            lambda: self.open_button.setEnabled(self.games_table.currentRow() >= 0))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        describe_buttons(buttons)
        self._describe()
        bottom = QHBoxLayout()
        bottom.addWidget(self.open_button)
        bottom.addStretch(1)
        bottom.addWidget(buttons)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(setup)
        layout.addLayout(run_row)
        layout.addWidget(self.status)
        layout.addWidget(self.table_title)
        layout.addWidget(self.table)
        layout.addWidget(self.elo)
        layout.addWidget(self.llr)
        layout.addWidget(self.games_table, 1)
        layout.addLayout(bottom)
        self._show_commands()
        self._show_budget()
        self._show_sprt()
        self._headers()
        self._fit_table()
        fit_size(self, 1000, 700)

    @classmethod
    def open_for(cls, window: Any) -> MatchesDialog:
        """Show a (non-modal) Matches window over ``window``."""
        dlg = cls(window, window)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()
        return dlg

    # ------------------------------------------------------------------------------ the form
    def _describe(self) -> None:
        """What each control does, for a screen reader (its name says only what it is)."""
        for k, (combo, command) in enumerate(zip(self.players, self.commands, strict=True)):
            tr(combo, "setAccessibleDescription", "Who plays as player {n}: a computer level, our search with a "
               "budget, or an engine you host", n=k + 1)
            tr(command, "setAccessibleDescription", "The command line that starts the engine of player {n}",
               n=k + 1)
        tr(self.variant, "setAccessibleDescription", "The game and rules of the match")
        tr(self.games, "setAccessibleDescription", "How many games to play; each opening is played once with "
           "each colour")
        tr(self.budget, "setAccessibleDescription", "How long each player thinks: each level's own budget, a "
           "time or a number of positions a move")
        tr(self.seconds, "setAccessibleDescription", "Seconds each player may think per move")
        tr(self.nodes, "setAccessibleDescription", "Positions each player may search per move")
        tr(self.concurrency, "setAccessibleDescription", "How many games are played at the same time")
        tr(self.seed, "setAccessibleDescription", "The seed of the random openings: the same seed gives the "
           "same openings")
        tr(self.sprt, "setAccessibleDescription", "Stop the match as soon as the test decides between the two "
           "Elo differences")
        tr(self.elo0, "setAccessibleDescription", "The Elo difference that counts as no gain")
        tr(self.elo1, "setAccessibleDescription", "The Elo difference that counts as the gain sought")
        tr(self.openings, "setAccessibleDescription", "A file of openings to play instead of random ones")
        tr(self.openings_button, "setAccessibleDescription", "Pick the file of openings")
        tr(self.out, "setAccessibleDescription", "The folder where every game and the match's state are saved")
        tr(self.out_button, "setAccessibleDescription", "Pick the folder of the match")
        tr(self.start_button, "setAccessibleDescription", "Start the match with these settings")
        tr(self.resume_button, "setAccessibleDescription", "Pick the folder of a cancelled or interrupted match "
           "and play on")
        tr(self.cancel_button, "setAccessibleDescription", "Stop the match; every finished game is kept")
        tr(self.progress, "setAccessibleDescription", "How many of the match's games have been played")
        tr(self.table, "setAccessibleDescription", "Wins, draws and losses of player 1 as attackers, as "
           "defenders and in all")
        tr(self.games_table, "setAccessibleDescription", "Every finished game with its result; double-click one "
           "to open it")
        tr(self.open_button, "setAccessibleDescription", "Show the selected game in the main window")

    def _show_commands(self) -> None:
        for combo, command in zip(self.players, self.commands, strict=True):
            command.setVisible(combo.currentData() == "engine")

    def _show_budget(self) -> None:
        self.seconds.setVisible(self.budget.currentData() == "time")
        self.nodes.setVisible(self.budget.currentData() == "nodes")

    def _show_sprt(self) -> None:
        for spin in (self.elo0, self.elo1):
            spin.setEnabled(self.sprt.isChecked())

    def _choose_openings(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, _("Choose an openings file"), self.openings.text())
        if path:
            self.openings.setText(path)

    def _choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, _("Choose the match's folder"), self.out.text())
        if path:
            self.out.setText(path)

    def player_specs(self) -> list[str]:
        """The players as ``tafl-desktop match --player`` texts."""
        specs = []
        for combo, command in zip(self.players, self.commands, strict=True):
            kind = combo.currentData()
            specs.append(f"engine:{command.text().strip()}" if kind == "engine" else kind)
        return specs

    def make_settings(self) -> Any:
        """The match the form describes (PlayerError or MatchError, one line, when it cannot run)."""
        from tafl_desktop.core.variants import find_variant
        from tafl_desktop.match.loop import TimeControl
        from tafl_desktop.match.runner import Sprt, build_settings

        budget = self.budget.currentData()
        tc = TimeControl(move=self.seconds.value() if budget == "time" else 0.0)
        nodes = self.nodes.value() if budget == "nodes" else 0
        sprt = None
        if self.sprt.isChecked():
            if self.elo0.value() >= self.elo1.value():
                from tafl_desktop.match.runner import MatchError

                raise MatchError(_("SPRT Elo 0 must be below Elo 1"))
            sprt = Sprt(self.elo0.value(), self.elo1.value())
        return build_settings(find_variant(self.variant.currentData()), self.player_specs(), self.games.value(),
                              self.seed.value(), tc, nodes, sprt, self.openings.text().strip() or None)

    # ------------------------------------------------------------------------------ running
    def start(self) -> bool:
        """Start (or resume, when the folder holds this match) the match the form describes."""
        from tafl_desktop.match.players import PlayerError
        from tafl_desktop.match.runner import MatchError

        if self.thread_ is not None:
            return False
        if not self.out.text().strip():
            dialogs.show_error(self, _("Cannot start the match"), _("Choose a folder for the match's games."))
            return False
        folder = Path(self.out.text().strip())
        try:
            settings = self.make_settings()
            if not _may_use(folder, settings):
                from tafl_desktop.core.quoting import shown

                raise MatchError(_("{folder} holds another match: choose another folder, or Resume a Match... to "
                                   "play that one on.").format(folder=shown(folder)))
        except (MatchError, PlayerError) as exc:
            self.status.setText(str(exc))
            dialogs.show_error(self, _("Cannot start the match"), str(exc))
            return False
        return self._run(settings, folder)

    def resume(self, folder: str | None = None) -> bool:
        """Play on a match from its folder (its own settings, whatever the form says)."""
        from tafl_desktop.core.quoting import shown
        from tafl_desktop.match.runner import SETTINGS_FILE, MatchSettings

        if self.thread_ is not None:
            return False
        if folder is None:
            folder = QFileDialog.getExistingDirectory(self, _("Resume a Match"), str(matches_folder()))
            if not folder:
                return False
        path = Path(folder) / SETTINGS_FILE
        try:
            settings = MatchSettings.from_data(json.loads(path.read_text(encoding="utf-8")))
        except OSError as exc:
            dialogs.show_error(self, _("Cannot resume the match"), dialogs.describe_problem(exc))
            return False
        except (ValueError, KeyError, TypeError):
            dialogs.show_error(self, _("Cannot resume the match"),
                               _("{path} is not a match's file").format(path=shown(path)))
            return False
        self.out.setText(str(folder))
        return self._run(settings, Path(folder))

    def _run(self, settings: Any, folder: Path) -> bool:
        from tafl_desktop.core.variants import variant_from_data

        self.settings = settings
        self.folder = folder
        self.side_names = tuple(variant_from_data(settings.variant).side_names)
        self.entries = {}
        self.games_table.setRowCount(0)
        self._headers()
        self.progress.setRange(0, settings.games)
        self.progress.setValue(0)
        self.thread_ = MatchThread(settings, folder, self.concurrency.value(), self)
        self.thread_.opened.connect(self._opened)
        self.thread_.progressed.connect(self._progressed)
        self.thread_.ended.connect(self._ended)
        self.thread_.failed.connect(self._failed)
        self.thread_.finished.connect(self._finished)
        for w in (self.start_button, self.resume_button):
            w.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText(_("{a} against {b}: starting...").format(a=player_name(settings.players[0]),
                                                                      b=player_name(settings.players[1])))
        self.thread_.start()
        return True

    def cancel(self) -> None:
        if self.thread_ is not None:
            self.thread_.stop_flag.set()
            tr(self.status, "setText", "Cancelling; every finished game is kept.")

    def _opened(self, entries: list[dict[str, Any]], report: dict[str, Any]) -> None:
        for e in entries:
            self._add_game(e)
        self._show(report)

    def _progressed(self, entry: dict[str, Any], report: dict[str, Any]) -> None:
        self._add_game(entry)
        self._show(report)

    def _ended(self, report: dict[str, Any]) -> None:
        self._show(report)
        if report.get("cancelled"):
            text = _("Cancelled. Start again with the same folder, or use Resume a Match..., to play on.")
        elif report.get("verdict", "continue") != "continue":
            text = _("The SPRT has decided: {verdict}.").format(verdict=_(VERDICTS[report["verdict"]]))
        else:
            text = ngettext("The match is over: {games} of {total} game.",
                            "The match is over: {games} of {total} games.", report["games_planned"])
            text = text.format(games=report["games"], total=report["games_planned"])
        self.status.setText(text)

    def _failed(self, text: str) -> None:
        self.status.setText(text)
        dialogs.show_error(self, _("The match stopped"), text)

    def _finished(self) -> None:
        self.thread_ = None
        for w in (self.start_button, self.resume_button):
            w.setEnabled(True)
        self.cancel_button.setEnabled(False)

    # ------------------------------------------------------------------------------ the tables
    def retranslate(self) -> None:
        """Headings, figures and game rows in the language just chosen (the tr() texts follow
        by themselves)."""
        if self.settings is not None:
            from tafl_desktop.core.variants import variant_from_data

            self.side_names = tuple(variant_from_data(self.settings.variant).side_names)
        self._headers()
        if self.settings is not None and self.entries:
            from tafl_desktop.match.runner import summary

            entries = [self.entries[i] for i in sorted(self.entries)]
            self.entries = {}
            self.games_table.setRowCount(0)
            for e in entries:
                self._add_game(e)
            self._show(summary(self.settings, entries))

    def _headers(self) -> None:
        sides = getattr(self, "side_names", None) or (_("Attackers"), _("Defenders"))
        self.table.setHorizontalHeaderLabels([_("Wins"), _("Draws"), _("Losses"), _("Score")])
        self.table.setVerticalHeaderLabels([sides[0], sides[1], _("Total")])
        self.games_table.setHorizontalHeaderLabels([pgettext("a match's game number", "Game"), sides[0], sides[1],
                                                    _("Winner"), _("Ending"), _("Plies")])

    def _fit_table(self) -> None:
        """The W-D-L table as tall as its three rows, no more."""
        self.table.resizeRowsToContents()
        height = self.table.horizontalHeader().sizeHint().height() + 2 * self.table.frameWidth()
        self.table.setFixedHeight(height + sum(self.table.rowHeight(r) for r in range(self.table.rowCount())))

    def _show(self, report: dict[str, Any]) -> None:
        """Fill the live table and the figures from a match summary."""
        rows = [report["per_colour"]["attackers"], report["per_colour"]["defenders"],
                {"wins": report["wins"], "draws": report["draws"], "losses": report["losses"]}]
        for r, row in enumerate(rows):
            n = row["wins"] + row["draws"] + row["losses"]
            score = f"{(row['wins'] + row['draws'] / 2) / n:.3f}" if n else "-"
            for c, text in enumerate([str(row["wins"]), str(row["draws"]), str(row["losses"]), score]):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(r, c, item)
        self.progress.setValue(min(report["games"], self.progress.maximum()))

        def elo(x: float | None, end: str) -> str:
            return end if x is None else f"{x:+.1f}"

        known = report["elo"] is not None
        self.elo.setText(_("Elo difference: {elo} (95 %: {low} to {high})").format(
            elo=elo(report["elo"], "-"), low=elo(report["elo_low"], "-\u221e" if known else "-"),
            high=elo(report["elo_high"], "+\u221e" if known else "-")))
        self.llr.setVisible("llr" in report)
        if "llr" in report:
            self.llr.setText(_("SPRT [{elo0}, {elo1}]: LLR {llr:.2f} ({lower:.2f}, {upper:.2f}): {verdict}").format(
                elo0=report["elo0"], elo1=report["elo1"], llr=report["llr"], lower=report["lower"],
                upper=report["upper"], verdict=_(VERDICTS.get(report["verdict"], report["verdict"]))))
        if self.settings is not None:
            self.status.setText(ngettext("{a} against {b}: {done} of {total} game",
                                         "{a} against {b}: {done} of {total} games", self.settings.games).format(
                a=player_name(self.settings.players[0]), b=player_name(self.settings.players[1]),
                done=report["games"], total=self.settings.games))
            self.table_title.setText(_("Results of {player} (player 1):").format(
                player=player_name(self.settings.players[0])))

    def _add_game(self, entry: dict[str, Any]) -> None:
        index = int(entry["game"])
        if index in self.entries:
            return
        self.entries[index] = entry
        row = sorted(self.entries).index(index)
        self.games_table.insertRow(row)
        winner = entry["winner"]
        cells = [str(index + 1), player_name(entry["players"]["attackers"]),
                 player_name(entry["players"]["defenders"]),
                 _("draw") if winner is None else player_name(entry["players"][winner]),
                 _(ENDINGS.get(entry["ending"], entry["ending"])), str(entry["plies"])]
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, index)
            self.games_table.setItem(row, c, item)

    def game_path(self, row: int) -> Path | None:
        """The ``.tafl.json`` of the game in ``row`` of the games table."""
        from tafl_desktop.match.runner import GAMES_FOLDER, game_stem

        item = self.games_table.item(row, 0) if row >= 0 else None
        if item is None or self.folder is None:
            return None
        return self.folder / GAMES_FOLDER / f"{game_stem(int(item.data(Qt.ItemDataRole.UserRole)))}.tafl.json"

    def open_game(self, row: int) -> bool:
        """Show the game in ``row`` in the main window."""
        path = self.game_path(row)
        if path is None or self.window_ is None:
            return False
        return bool(self.window_.files.open_game(str(path), remember=False))

    # ------------------------------------------------------------------------------ closing
    def done(self, result: int) -> None:  # noqa: D102 - closing ends the match's processes
        if self.thread_ is not None:
            self.thread_.stop_flag.set()
            self.thread_.wait()
        super().done(result)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self.thread_ is not None:
            self.thread_.stop_flag.set()
            self.thread_.wait()
        super().closeEvent(event)

"""The Rules Lab dialog: "how does this toggle change who wins?", answered with games and a chart.

The dialog builds a :class:`~tafl_desktop.lab.study.Study` from the variant and toggles the
player has chosen, runs it on a thread that only waits on the lab's process pool (the games are
played in other processes, so the window never stalls), and redraws its table and chart as each
game is stored.  Studies live under the app's data folder, one folder per study, so running the
same study again continues it; Stop keeps every finished game.

Closing the dialog (or the main window, which closes its dialogs) stops the study; the games
already finished are kept.  Its thread may take a while to wind down (the pool's processes end,
the last chart is drawn), so the dialog does not wait for it: the thread is kept alive apart from
the dialog until it ends, and quitting the application waits for every such thread.  A QThread
destroyed while it runs aborts the program ("QThread: Destroyed while thread is still running",
exit 134), as quitting mid-study once did when winding down took longer than the dialog waited.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QStandardPaths, Qt, QThread, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.marks import N_, integer, percent
from tafl_desktop.core.quoting import os_reason
from tafl_desktop.core.variants import Variant
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.form_labels import describe_buttons, name_fields
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.texts import add_item, tr, trn
from tafl_desktop.i18n import _, pgettext
from tafl_desktop.session.source import GameSource, Origin

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

#: Values offered for an integer toggle (the whole range could be dozens).
MAX_INT_VALUES = 12


def install(window: MainWindow) -> None:
    """Game > Rules Lab... on the window's menu."""
    from PySide6.QtGui import QAction

    act = tr(QAction(window), "setText", "Rul&es Lab...")
    tr(act, "setStatusTip", "Play many computer games to see how a rule changes who wins")
    act.triggered.connect(lambda: RulesLabDialog.open_for(window, window.session.variant))
    window.game_menu.addAction(act)
    window.act_rules_lab = act


#: Study threads still winding down after their dialog closed (kept alive until they end).
_WINDING_DOWN: set[QThread] = set()
#: The application property saying it waits for them before quitting.
_WAITS = "taflWaitsForStudies"


def _wait_for_studies() -> None:
    """Before the application quits: let every study thread end (stopped already)."""
    for thread in list(_WINDING_DOWN):
        thread.wait()
    _WINDING_DOWN.clear()


def _let_wind_down(thread: StudyThread) -> None:
    """Stop ``thread`` and keep it alive (apart from its dialog) until it has ended."""
    thread.stop_flag.set()
    if thread.isFinished():
        return
    thread.setParent(None)
    _WINDING_DOWN.add(thread)
    thread.finished.connect(lambda: _WINDING_DOWN.discard(thread))
    app = QCoreApplication.instance()
    if app is not None and not app.property(_WAITS):
        app.aboutToQuit.connect(_wait_for_studies)
        app.setProperty(_WAITS, True)


def studies_folder() -> Path:
    """Where the window keeps its studies (one folder per study, so they resume)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or tempfile.gettempdir()) / "lab"


class StudyThread(QThread):
    """Opens a study's folder (every stored game is replayed to check it, which takes a while
    for a large study), runs the study to its end or until stopped, computes the report and draws
    the chart (SciPy and Matplotlib take a while to load and draw): the window only shows them."""

    opened = Signal(object)  # the ResultStore, before any progress
    progressed = Signal(object)  # lab.runner.Progress
    rendered = Signal(object, bytes)  # the report and its chart as PNG
    failed = Signal(str)
    #: Least time between two redraws of the chart while games come in (seconds).
    REDRAW = 0.7

    def __init__(self, folder: Path, study: Any, workers: int, parent: QWidget | None = None,
                 add_to_db: bool = False) -> None:
        super().__init__(parent)
        self.folder = folder
        #: Each finished game also goes into the game database (source lab; the preference).
        self.add_to_db = add_to_db
        self.study = study
        self.store: Any = None
        self.workers = workers
        self.stop_flag = threading.Event()
        self.complete = False
        self._drawn = 0.0
        self.report: dict[str, Any] | None = None

    def render(self, force: bool = False) -> None:
        import time

        from tafl_desktop.lab.charts import chart_bytes
        from tafl_desktop.lab.report import summary

        if not force and time.monotonic() - self._drawn < self.REDRAW:
            return
        self.report = report = summary(self.store)
        png = chart_bytes(report, "png") if any(c["games"] for c in report["cells"]) else b""
        self._drawn = time.monotonic()
        self.rendered.emit(report, png)

    def _progress(self, p: Any) -> None:
        self.progressed.emit(p)
        if p.last is not None:
            self.render(p.done == p.total)

    def run(self) -> None:  # noqa: D102 - QThread's entry point
        from tafl_desktop.lab.executors import ProcessPoolBackend
        from tafl_desktop.lab.files import write_outputs
        from tafl_desktop.lab.runner import run_study
        from tafl_desktop.lab.store import ResultStore

        try:
            self.store = ResultStore.open(self.folder, self.study)
            self.opened.emit(self.store)
            self.render(force=True)
            from tafl_desktop.gamedb.lab_games import GameSink, add_study_result

            sink = GameSink("lab") if self.add_to_db else None
            try:
                self.complete = run_study(self.store, ProcessPoolBackend(self.workers), self._progress,
                                          self.stop_flag.is_set,
                                          None if sink is None else lambda r: add_study_result(sink, self.study, r))
            finally:
                if sink is not None:
                    sink.close()
            self.render(force=True)
            if self.report is not None:
                try:
                    write_outputs(self.store, self.report)
                except OSError:
                    pass  # the store holds every game; the summary and chart are written again next time
        except OSError as exc:
            # a game could not be stored (disk full, folder gone): the games stored so far stay,
            # and the player is told why the study stopped rather than only that it did
            self.failed.emit(_("A game could not be stored in the study's folder: {why}.").format(
                why=os_reason(exc)))
        except Exception as exc:  # noqa: BLE001 - shown as one line in the dialog, never a traceback
            self.failed.emit(str(exc)[:300])


class ValuesList(QListWidget):
    """The values of one toggle as check boxes (the values to compare)."""

    def set_values(self, values: list[Any], labels: list[str], checked: set[Any]) -> None:
        self.clear()
        for value, label in zip(values, labels, strict=True):
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, value)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if value in checked else Qt.CheckState.Unchecked)
            self.addItem(item)

    def checked_values(self) -> list[Any]:
        return [self.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.count())
                if self.item(i).checkState() == Qt.CheckState.Checked]


class RulesLabDialog(QDialog):
    """Set up, run, watch and keep a rule-balance study of one variant."""

    def __init__(self, variant: Variant, window: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.variant = variant
        self.window_ = window
        self.study_thread: StudyThread | None = None
        self.store: Any = None
        self.report: dict[str, Any] | None = None
        tr(self, "setWindowTitle", "Rules Lab: {name}", name=lambda: variant.title)

        intro = tr(QLabel(), "setText", "Choose a rule and the values to compare. The computer plays both sides "
                   "against each other with each value, and the chart shows who won, with 95% intervals: the more "
                   "games, the narrower they get.")
        intro.setWordWrap(True)

        self.keys = [s.key for s in variant.schema if variant.schema.fits_board(s.key)
                     and len(s.values()) >= 2]
        self.first_key = QComboBox()
        self.second_key = QComboBox()
        add_item(self.second_key, "(none)", "")
        for key in self.keys:
            label = variant.schema[key].label
            self.first_key.addItem(label, key)
            self.second_key.addItem(label, key)
        self.first_values = ValuesList()
        self.second_values = ValuesList()
        tr(self.second_values, "setAccessibleDescription", "The values of the second rule to compare: check the ones "
                                                           "you want")
        tr(self.first_values, "setAccessibleDescription", "The values of the first rule to compare: check the ones you "
                                                          "want")
        tr(self.second_key, "setAccessibleDescription", "A second rule, to compare every pair of values of the two; or "
                                                        "none")
        tr(self.first_key, "setAccessibleDescription", "The rule whose values the computer's games compare")
        for lst in (self.first_values, self.second_values):
            lst.setMaximumHeight(92)
        self.first_key.currentIndexChanged.connect(lambda: self._fill_values(self.first_key, self.first_values))
        self.second_key.currentIndexChanged.connect(lambda: self._fill_values(self.second_key,
                                                                              self.second_values))

        from tafl_desktop.ai.levels import LEVELS, PLAYER_LEVELS
        from tafl_desktop.lab.executors import default_workers

        self.levels = (QComboBox(), QComboBox())
        for combo in self.levels:
            for name in PLAYER_LEVELS:
                add_item(combo, LEVELS[name].label, name)
            combo.setCurrentIndex(PLAYER_LEVELS.index("easy"))
        self.games = QSpinBox()
        self.games.setRange(1, 10_000)
        self.games.setValue(20)
        self.seed = QSpinBox()
        self.seed.setRange(0, 1_000_000)
        self.seed.setValue(1)
        self.workers = QSpinBox()
        self.workers.setRange(1, 64)
        self.workers.setValue(default_workers())
        tr(self.workers, "setAccessibleDescription", "How many games are played at once, one per processor core")
        tr(self.seed, "setAccessibleDescription", "The same seed plays the same games again")
        tr(self.games, "setAccessibleDescription", "How many games the computer plays with each value; more games, "
                                                   "narrower intervals")
        tr(self.levels[1], "setAccessibleDescription", "How strongly the computer plays this side in every game of the "
                                                       "study")
        tr(self.levels[0], "setAccessibleDescription", "How strongly the computer plays this side in every game of the "
                                                       "study")

        setup = tr(QGroupBox(), "setTitle", "Study")
        grid = QGridLayout(setup)
        grid.addWidget(tr(QLabel(), "setText", "Rule to vary:"), 0, 0)
        grid.itemAtPosition(0, 0).widget().setBuddy(self.first_key)
        grid.addWidget(self.first_key, 0, 1)
        grid.addWidget(self.first_values, 1, 1)
        grid.addWidget(tr(QLabel(), "setText", "Second rule:"), 0, 2)
        grid.itemAtPosition(0, 2).widget().setBuddy(self.second_key)
        grid.addWidget(self.second_key, 0, 3)
        grid.addWidget(self.second_values, 1, 3)
        form = QFormLayout()
        form.addRow(tr(QLabel(), "setText", "{side}, level:", side=lambda: variant.side_names[0]), self.levels[0])
        form.addRow(tr(QLabel(), "setText", "{side}, level:", side=lambda: variant.side_names[1]), self.levels[1])
        form2 = QFormLayout()
        form2.addRow(tr(QLabel(), "setText", "Games per value:"), self.games)
        form2.addRow(tr(QLabel(), "setText", "Seed:"), self.seed)
        form2.addRow(tr(QLabel(), "setText", "Processes:"), self.workers)
        grid.addLayout(name_fields(form), 2, 1)
        grid.addLayout(name_fields(form2), 2, 3)

        self.run_button = tr(QPushButton(), "setText", "Run")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.start)
        tr(self.run_button, "setAccessibleDescription", "Start the computer's games; the table and the chart fill as "
                                                        "they finish")
        self.stop_button = tr(QPushButton(), "setText", "Stop")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        tr(self.stop_button, "setAccessibleDescription", "Stop the games; those finished are kept")
        self.progress = QProgressBar()
        self.progress.setFormat(_("%v of %m games"))
        self.status = tr(QLabel(), "setText", "Not started.")
        #: What the study's folder held that was not counted (poisoned or torn lines), kept in view.
        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.warnings.setStyleSheet("color: #8a4b00;")
        self.warnings.hide()
        run_row = QHBoxLayout()
        run_row.addWidget(self.run_button)
        run_row.addWidget(self.stop_button)
        run_row.addWidget(self.progress, 1)

        self.table = QTableWidget(0, 7)
        tr(self.table, "setAccessibleName", "Results of the rules compared")
        tr(self.table, "setAccessibleDescription", "One row per value compared: games, wins of each side, draws and "
                                                   "the mean length")
        self.table.setHorizontalHeaderLabels([_("Rules"), pgettext("games played", "Games"), variant.side_names[0],
                                              variant.side_names[1], _("Draws"), _("Capped"), _("Mean length")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.chart = tr(QLabel(), "setText", "The chart appears as games finish.")
        self.chart.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.chart.setMinimumSize(420, 260)
        self.chart.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.table.setMaximumHeight(150)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.chart)
        split.setStretchFactor(1, 3)

        self.open_button = tr(QPushButton(), "setText", "Open a game...")
        tr(self.open_button, "setToolTip", "Show one game of the selected row in the main window")
        self.open_button.clicked.connect(self.open_game)
        self.export_button = tr(QPushButton(), "setText", "Export chart...")
        self.export_button.clicked.connect(self.export_chart)
        tr(self.export_button, "setAccessibleDescription", "Save the chart as a picture")
        for b in (self.open_button, self.export_button):
            b.setEnabled(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        describe_buttons(buttons)
        bottom = QHBoxLayout()
        bottom.addWidget(self.open_button)
        bottom.addWidget(self.export_button)
        bottom.addStretch(1)
        bottom.addWidget(buttons)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(setup)
        layout.addLayout(run_row)
        layout.addWidget(self.status)
        layout.addWidget(self.warnings)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)
        fit_size(self, 900, 900)
        self._fill_values(self.first_key, self.first_values)

    # ------------------------------------------------------------------------------ set-up
    @classmethod
    def open_for(cls, window: Any, variant: Variant, key: str | None = None) -> RulesLabDialog:
        """Show a (non-modal) lab for ``variant``, ``key`` preselected as the rule to vary."""
        dlg = cls(variant, window, window)
        if key:
            dlg.choose(key)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()
        return dlg

    def choose(self, key: str, values: list[Any] | None = None) -> None:
        """Preselect the rule to vary (and its values)."""
        i = self.first_key.findData(key)
        if i >= 0:
            self.first_key.setCurrentIndex(i)
        if values is not None:
            for r in range(self.first_values.count()):
                item = self.first_values.item(r)
                on = item.data(Qt.ItemDataRole.UserRole) in values
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def _fill_values(self, combo: QComboBox, target: ValuesList) -> None:
        key = combo.currentData()
        if not key:
            target.clear()
            return
        spec = self.variant.schema[key]
        values = spec.values()[:MAX_INT_VALUES]
        current = self.variant.options.get(key)
        others = [v for v in values if v != current]
        checked = {current, *others[:1]} if spec.kind == "int" else set(values)
        target.set_values(values, [spec.value_label(v) for v in values], checked)

    def study(self) -> Any:
        """The study the form describes (StudyError when it cannot be run)."""
        from tafl_desktop.lab.study import Axis, Study

        axes = [Axis(self.first_key.currentData(), tuple(self.first_values.checked_values()))]
        if self.second_key.currentData():
            axes.append(Axis(self.second_key.currentData(), tuple(self.second_values.checked_values())))
        return Study.for_variant(self.variant, axes, self.levels[0].currentData(), self.levels[1].currentData(),
                                 self.games.value(), self.seed.value())

    # ---------------------------------------------------------------------------- running
    def start(self) -> None:
        from tafl_desktop.lab.study import StudyError

        if self.study_thread is not None:
            return
        try:
            study = self.study()
        except StudyError as exc:
            self.status.setText(str(exc))
            dialogs.show_error(self, _("Cannot run this study"), str(exc))
            return
        prefs = getattr(self.window_, "prefs", None)
        self.study_thread = StudyThread(studies_folder() / study.fingerprint(), study, self.workers.value(), self,
                                        add_to_db=bool(getattr(prefs, "add_lab_games", False)))
        self.study_thread.opened.connect(self._opened)
        self.study_thread.progressed.connect(self._progressed)
        self.study_thread.rendered.connect(self._show_results)
        self.study_thread.failed.connect(self._failed)
        self.study_thread.finished.connect(self._finished)
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        total = len(study.cells()) * study.games
        self.progress.setRange(0, total)
        self.progress.setValue(0)
        trn(self.status, "setText", "Starting {n} computer player...", "Starting {n} computer players...", "n",
            n=self.workers.value())
        self.study_thread.start()

    def _opened(self, store: Any) -> None:
        """The study's folder is open (in the background): its games checked, any problem said."""
        self.store = store
        self.progress.setValue(store.finished)
        self.warnings.setText("\n".join(store.problems[:4]))
        self.warnings.setVisible(bool(store.problems))

    def stop(self) -> None:
        if self.study_thread is not None:
            self.study_thread.stop_flag.set()
            tr(self.status, "setText", "Stopping; every finished game is kept.")

    def _progressed(self, p: Any) -> None:
        self.progress.setRange(0, p.total)
        self.progress.setValue(p.done)
        if p.seconds_left is not None:
            minutes, seconds = divmod(int(p.seconds_left), 60)
            trn(self.status, "setText", "{done} of {total} game played; about {m} min {s} s left.",
                "{done} of {total} games played; about {m} min {s} s left.", "total",
                done=p.done, total=p.total, m=minutes, s=seconds)

    def _failed(self, text: str) -> None:
        self._failure = text
        self.status.setText(text)
        dialogs.show_error(self, _("The study stopped"), text)

    def _finished(self) -> None:
        thread, self.study_thread = self.study_thread, None
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        failure, self._failure = getattr(self, "_failure", ""), ""
        if thread is None or self.store is None or failure:
            return  # a failed study's status line keeps its reason
        total = len(self.store.study.cells()) * self.store.study.games
        if thread.complete:
            trn(self.status, "setText", "Finished: {n} game. Run again with more games to narrow the intervals.",
                "Finished: {n} games. Run again with more games to narrow the intervals.", "n", n=total)
        else:
            trn(self.status, "setText", "Stopped after {done} of {total} game; Run continues the study.",
                "Stopped after {done} of {total} games; Run continues the study.", "total",
                done=self.store.finished, total=total)

    def _show_results(self, report: dict[str, Any], png: bytes) -> None:
        from tafl_desktop.lab.report import key_label, value_label

        self.report = report
        first, second = self.report["sides"]
        keys = list(report["cells"][0]["options"]) if report["cells"] else []
        self.table.horizontalHeaderItem(0).setText(" / ".join(key_label(report, k) for k in keys))
        self.table.setRowCount(len(self.report["cells"]))
        for row, c in enumerate(self.report["cells"]):
            n = c["games"]
            words = " / ".join(value_label(report, k, v) for k, v in c["options"].items())

            def share(key: str, c=c, n=n) -> str:
                if not n:
                    return "-"
                lo, hi = c[f"{key}_ci"]
                return f"{integer(c[key])}  ({percent(c[key] / n)}, {percent(lo)}–{percent(hi)})"

            cells = [words, str(n), share(first), share(second), str(c["draws"]), str(c["capped"]),
                     f"{c['mean_plies']:.0f}"]
            for col, text in enumerate(cells):
                self.table.setItem(row, col, QTableWidgetItem(text))
        has_games = any(c["games"] for c in self.report["cells"])
        self.open_button.setEnabled(has_games)
        self.export_button.setEnabled(has_games)
        if png:
            pix = QPixmap()
            pix.loadFromData(png)
            self.chart_pixmap = pix
            self.chart.setPixmap(pix.scaled(self.chart.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                            Qt.TransformationMode.SmoothTransformation))

    # ---------------------------------------------------------------------------- results
    def export_chart(self) -> str:
        """Save the chart as PNG or PDF; returns the path written ('' if none)."""
        from tafl_desktop.lab.charts import save_chart

        if self.report is None:
            return ""
        path = dialogs.ask_save_path(self, _("Export the chart"), ";;".join([N_("Images (*.png)"), N_("PDF (*.pdf)")]),
                                     f"{self.variant.id}-balance.png")
        if not path:
            return ""
        if not path.lower().endswith((".png", ".pdf")):
            path += ".png"
        try:
            save_chart(self.report, path)
        except (OSError, ValueError) as exc:
            text = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            dialogs.show_error(self, _("Cannot export the chart"), f"{Path(path).name}: {text}")
            return ""
        return path

    def open_game(self, game_number: int | None = None) -> bool:
        """Show a game of the selected row in the main window."""
        from tafl_desktop.lab.files import game_of
        from tafl_desktop.lab.study import StudyError

        if self.store is None or self.window_ is None:
            return False
        row = max(0, self.table.currentRow())
        stored = [g for g in range(self.store.study.games) if self.store.done(row, g)]
        if not stored:
            return False
        if game_number is None:
            number, ok = QInputDialog.getInt(self, _("Open a game"), _("Game number (1 to {n}):").format(
                n=len(stored)), 1, 1, len(stored))
            if not ok:
                return False
            game_number = stored[number - 1]
        try:
            game = game_of(self.store, row, game_number)
        except StudyError as exc:
            dialogs.show_error(self, _("Cannot open the game"), str(exc))
            return False
        if not self.window_.files.may_discard():
            return False
        self.window_.load(GameSource.of_game(game, Origin.LAB), _("Game {n} of the Rules Lab study: {rules}.").format(
            n=game_number + 1, rules=self.table.item(row, 0).text() if self.table.item(row, 0) else ""))
        return True

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        pix = getattr(self, "chart_pixmap", None)
        if pix is not None:
            self.chart.setPixmap(pix.scaled(self.chart.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                            Qt.TransformationMode.SmoothTransformation))

    def done(self, result: int) -> None:  # noqa: D102 - closing stops the study (its games are kept)
        thread, self.study_thread = self.study_thread, None
        if thread is not None:
            _let_wind_down(thread)
        super().done(result)

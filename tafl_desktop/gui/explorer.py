"""The opening explorer: a dock beside the board that shows, for the position shown, every move
played from it in the game database with its number of games and how they ended (a bar:
attackers' wins, draws, defenders' wins), the opening's name, and the games that reached it.

It follows the move list as the analysis board does (every change of the position shown asks
again).  The counts by source are pre-totalled in the database, a lookup of a few rows (about a
millisecond), so they are read on the window's thread and drawn in the same frame as the board; a
lookup with a player, date, result or rating filter scans the games and runs on the explorer's own
thread (its own connection), as do all lookups once they take longer than 8 ms (the median of the
last five); only the latest
answer is shown, so the board never waits for them.  At first use the thread imports the real
games shipped with the app (a progress line with Cancel; a cancelled import leaves none of them
in, and Retry starts it again).

Clicking a move plays it from the position shown (a variation where the game went on otherwise);
while a game against the computer goes on, it opens on the analysis scratch board instead, so the
game is not changed.  Double-clicking a game opens it at the position.  The filters: source,
player (as attackers, defenders or either), dates, result, minimum rating.
"""

from __future__ import annotations

import queue
import statistics
import threading
import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.gui.texts import add_item, tr
from tafl_desktop.i18n import _, ngettext, pgettext

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

#: The bar's colours: attackers' wins, draws, defenders' wins, unfinished.
BAR_COLOURS = ("#3b3b3b", "#9e9e9e", "#e8e2d0", "#c9d7e8")
#: How many games the list shows.
SAMPLE = 8
#: How many of a position's moves (the most played first) the engine scores.
SCORED = 24
#: A lookup slower than this (s) on the window's thread sends the next ones to the explorer's thread.
QUICK_SECONDS = 0.008


class ResultBar(QWidget):
    """The shares of a move's games as one bar: attackers' wins, draws, defenders' wins, unfinished."""

    def __init__(self, counts: tuple[int, int, int, int]) -> None:
        super().__init__()
        self.counts = counts
        self.setMinimumWidth(90)
        a, dr, d, u = counts
        self.setToolTip(_("attackers won {a}, draws {dr}, defenders won {d}, unfinished {u}").format(
            a=a, dr=dr, d=d, u=u))

    def paintEvent(self, _event: Any) -> None:  # noqa: N802 (Qt API)
        total = sum(self.counts)
        if not total:
            return
        p = QPainter(self)
        r = QRectF(self.rect()).adjusted(2, 4, -2, -4)
        x = r.left()
        for n, colour in zip(self.counts, BAR_COLOURS, strict=True):
            w = r.width() * n / total
            p.fillRect(QRectF(x, r.top(), w, r.height()), QColor(colour))
            x += w
        p.setPen(QColor("#555555"))
        p.drawRect(r)
        p.end()


class _Signals(QObject):
    progressed = Signal(int, int)
    ready = Signal(object)       # the shipped import's report, or None when held already
    failed = Signal(str, bool)   # one line; True: the file is damaged (offer the rebuild)
    answered = Signal(int, object)
    imported = Signal(object)    # an import's report


class ExplorerWorker:
    """The explorer's thread: opens the database (importing the shipped games at first use) and
    answers lookups, the latest first (older requests still waiting are dropped)."""

    def __init__(self, path: Any = None) -> None:
        self.path = path
        self.signals = _Signals()
        self._jobs: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.db: Any = None

    def start(self) -> None:
        """Open the database (on the thread, started if need be)."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="tafl-explorer", daemon=True)
            self._thread.start()
        self._jobs.put(("open", None))

    def cancel(self) -> None:
        self._cancel.set()

    def ask(self, number: int, request: Any) -> None:
        self._jobs.put(("lookup", (number, request)))

    def import_files(self, paths: list[str], variant: Any) -> None:
        self._cancel.clear()
        self._jobs.put(("import", (paths, variant)))

    def add(self, game: Any, tags: dict[str, str], source: str) -> None:
        self._jobs.put(("add", (game, tags, source)))

    def rebuild(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="tafl-explorer", daemon=True)
            self._thread.start()
        self._jobs.put(("rebuild", None))

    def stop(self) -> None:
        self._cancel.set()
        if self._thread is not None and self._thread.is_alive():
            self._jobs.put(("stop", None))
            self._thread.join(5)

    def _run(self) -> None:
        while True:
            kind, data = self._jobs.get()
            if kind == "lookup":  # only the latest lookup matters
                try:
                    while True:
                        more = self._jobs.get_nowait()
                        if more[0] != "lookup":
                            self._jobs.put(more)
                            break
                        data = more[1]
                except queue.Empty:
                    pass
            if kind == "stop":
                if self.db is not None:
                    self.db.close()
                return
            try:
                self._do(kind, data)
            except Exception as exc:  # noqa: BLE001 - one line in the panel, never a traceback
                from tafl_desktop.core.progress import Cancelled
                from tafl_desktop.gamedb.store import GameDbError

                if isinstance(exc, Cancelled) and kind == "import":
                    self.signals.failed.emit(_("Import cancelled: the games of the files read before are in the "
                                               "database."), False)
                elif isinstance(exc, Cancelled):
                    self.signals.failed.emit(_("Import of the real games cancelled: they are not in the database."),
                                             False)
                elif isinstance(exc, GameDbError):
                    self.signals.failed.emit(str(exc), exc.damaged)
                else:
                    self.signals.failed.emit(_("The game database failed: {problem}").format(problem=exc), False)
                if kind in ("open", "rebuild") and self.db is not None:
                    self.db.close()
                    self.db = None

    def _do(self, kind: str, data: Any) -> None:
        from tafl_desktop.core import progress
        from tafl_desktop.gamedb import library
        from tafl_desktop.gamedb.store import GameDb

        if kind in ("open", "rebuild"):
            if kind == "open" and self.db is not None:
                self.signals.ready.emit(None)
                return
            if kind == "rebuild":
                if self.db is not None:
                    self.db.close()
                    self.db = None
                library.rebuild(self.path, shipped=False)
            self._cancel.clear()
            db = GameDb(self.path or library.default_path())
            reporter = progress.Reporter(lambda d, t: self.signals.progressed.emit(d, t), self._cancel.is_set)
            with progress.reporting(reporter):
                try:
                    report = library.ensure_shipped(db)
                except BaseException:
                    db.close()
                    raise
            self.db = db
            self.signals.ready.emit(report if report.added else None)
        elif self.db is None:
            return
        elif kind == "lookup":
            number, (rules, pos, filters, line) = data
            from tafl_desktop.gamedb.openings import opening_of

            started = time.perf_counter()
            look = self.db.lookup(rules, pos, filters, SAMPLE)
            opening = opening_of(self.db.folding(rules), line)
            self.signals.answered.emit(number, (look, opening, time.perf_counter() - started))
        elif kind == "add":
            game, tags, source = data
            library.add_finished(self.db, game, tags, source)
        elif kind == "import":
            paths, variant = data
            reporter = progress.Reporter(lambda d, t: self.signals.progressed.emit(d, t), self._cancel.is_set)
            with progress.reporting(reporter):
                report = library.import_paths(self.db, paths, variant)
            self.signals.imported.emit(report)


class ExplorerDock(QDockWidget):
    """The Explorer dock; ``set_active(True)`` shows it and starts following the board."""

    def __init__(self, window: MainWindow, path: Any = None) -> None:
        super().__init__(window)
        tr(self, "setWindowTitle", "Explorer")
        self.setObjectName("explorerDock")
        self.window_ = window
        self.session = window.session
        #: The board's gestures: a row's move is played as the player would play it.
        self.controller = window.controller
        self.worker = ExplorerWorker(path)
        self.active = False
        self.ready = False
        self._asked = 0
        #: The window thread's own connection, for the lookups that are always quick.
        self._local: Any = None
        self._quick = True
        self._recent: list[float] = []
        #: The thread adding the last finished game while the explorer was closed (tests wait on it).
        self.adding: threading.Thread | None = None
        self._shown_number = -1
        self._score_number = -1
        #: The last answer shown: (Lookup, opening name, seconds) — tests read it.
        self.answer: Any = None
        #: When the position last changed (perf_counter), and how long the panel took to follow.
        self.changed_at = 0.0
        self.follow_seconds: list[float] = []
        self.lookup_seconds: list[float] = []
        self.answered_at = 0.0
        w = self.worker.signals
        w.progressed.connect(self._progressed)
        w.ready.connect(self._ready)
        w.failed.connect(self._failed)
        w.answered.connect(self._answered)
        w.imported.connect(self._imported)
        from tafl_desktop.gui.explorer_scores import ScoreWorker

        self.scorer = ScoreWorker(path)
        self.scorer.signals.scored.connect(self._scored)
        #: The engine's score of each move shown (move text -> MoveScore; tests read it).
        self.move_scores: dict[str, Any] = {}
        self._importing = False
        #: The last import's report (tests read it).
        self.import_report: Any = None

        body = QWidget(self)
        lay = QVBoxLayout(body)
        filters = QHBoxLayout()
        self.source = QComboBox()
        add_item(self.source, "Real games", "real")
        add_item(self.source, "My games", "mine")
        add_item(self.source, "Imported games", "imported")
        add_item(self.source, "Rules Lab and self-play", "lab")
        add_item(self.source, "All sources", "all")
        tr(self.source, "setAccessibleName", "Source of the games")
        tr(self.source, "setAccessibleDescription", "Which games the explorer counts: real games, yours, imported ones "
                                                    "or the computer's")
        self.player = QLineEdit()
        tr(self.player, "setPlaceholderText", "Player")
        tr(self.player, "setAccessibleName", "Player")
        tr(self.player, "setAccessibleDescription", "Count only the games of the player of this name")
        self.side = QComboBox()
        add_item(self.side, "either side", "either")
        add_item(self.side, "as attackers", "attackers")
        add_item(self.side, "as defenders", "defenders")
        tr(self.side, "setAccessibleName", "The player's side")
        tr(self.side, "setAccessibleDescription", "Count only the games the named player played on this side")
        filters.addWidget(self.source)
        filters.addWidget(self.player, 1)
        filters.addWidget(self.side)
        lay.addLayout(filters)
        more = QHBoxLayout()
        self.date_from = QLineEdit()
        tr(self.date_from, "setPlaceholderText", "from YYYY.MM.DD")
        tr(self.date_from, "setAccessibleName", "Games from this date")
        self.date_to = QLineEdit()
        tr(self.date_to, "setPlaceholderText", "to YYYY.MM.DD")
        tr(self.date_to, "setAccessibleName", "Games up to this date")
        self.result = QComboBox()
        add_item(self.result, "any result", "")
        add_item(self.result, "attackers won", "attackers")
        add_item(self.result, "defenders won", "defenders")
        add_item(self.result, "draws", "draws")
        add_item(self.result, "unfinished", "unfinished")
        tr(self.result, "setAccessibleName", "Result")
        tr(self.result, "setAccessibleDescription", "Count only the games with this result")
        self.rating = QSpinBox()
        self.rating.setRange(0, 4000)
        self.rating.setSingleStep(100)
        tr(self.rating, "setSpecialValueText", "any rating")
        tr(self.rating, "setToolTip", "Minimum rating of both players (0: any game)")
        tr(self.rating, "setAccessibleName", "Minimum rating")
        for widget in (self.date_from, self.date_to):
            widget.setMaximumWidth(130)
        more.addWidget(self.date_from)
        more.addWidget(self.date_to)
        more.addWidget(self.result)
        more.addWidget(self.rating)
        lay.addLayout(more)
        for combo in (self.source, self.side, self.result):
            combo.currentIndexChanged.connect(lambda _i: self.refresh())
        for edit in (self.player, self.date_from, self.date_to):
            edit.editingFinished.connect(self.refresh)
        self.rating.valueChanged.connect(lambda _v: self.refresh())

        status = QHBoxLayout()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.retry = tr(QPushButton(), "setText", "Retry")
        self.retry.clicked.connect(self._retry)
        tr(self.retry, "setAccessibleDescription", "Look the position up again")
        self.cancel = tr(QPushButton(), "setText", "Cancel")
        self.cancel.clicked.connect(self.worker.cancel)
        tr(self.cancel, "setAccessibleDescription", "Stop looking the position up")
        self.import_button = tr(QPushButton(), "setText", "Import games...")
        tr(self.import_button, "setToolTip", "Add game records to the database (source Imported): every format the "
           "app reads; a move list is read as the game on the board's rules")
        self.import_button.clicked.connect(lambda: self.import_games())
        status.addWidget(self.status, 1)
        status.addWidget(self.import_button)
        status.addWidget(self.retry)
        status.addWidget(self.cancel)
        self.retry.hide()
        self.cancel.hide()
        lay.addLayout(status)
        self.opening = QLabel()
        font = self.opening.font()
        font.setBold(True)
        self.opening.setFont(font)
        lay.addWidget(self.opening)

        self.moves = QTableWidget(0, 5)
        self.moves.verticalHeader().hide()
        self.moves.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.moves.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.moves.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.moves.cellClicked.connect(lambda row, _col: self.play_row(row))
        tr(self.moves, "setAccessibleName", "Moves played from this position")
        tr(self.moves, "setAccessibleDescription", "One row per move: how often it was played and how those games "
                                                   "ended")
        lay.addWidget(self.moves, 3)
        self.games_title = QLabel()
        lay.addWidget(self.games_title)
        self.games = QTableWidget(0, 5)
        self.games.verticalHeader().hide()
        self.games.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.games.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.games.horizontalHeader().setStretchLastSection(True)
        self.games.cellDoubleClicked.connect(lambda row, _col: self.open_row(row))
        tr(self.games, "setAccessibleName", "Games that reached this position")
        tr(self.games, "setAccessibleDescription", "One row per game: players, result and date; a double click opens "
                                                   "it")
        lay.addWidget(self.games, 2)
        self.setWidget(body)
        self._headers()
        window.events.changed.connect(self._position_changed)

    # ------------------------------------------------------------------------------ running
    def set_active(self, on: bool) -> None:
        self.active = bool(on)
        self.setVisible(self.active)
        if self.active:
            if not self.ready:
                self._start()
            else:
                self.refresh()

    def _start(self) -> None:
        self.retry.hide()
        self.status.setText(_("Opening the game database..."))
        self.worker.start()

    def _retry(self) -> None:
        self.retry.hide()
        if getattr(self, "_damaged", False):
            self.status.setText(_("Rebuilding the game database from its sources..."))
            self.worker.rebuild()
        else:
            self._start()

    def shutdown(self) -> None:
        self.worker.stop()
        self.scorer.stop()
        if self._local is not None:
            self._local.close()
            self._local = None

    def _progressed(self, done: int, total: int) -> None:
        self.cancel.show()
        share = 100 * done // total if total else 0
        if self._importing:
            self.status.setText(_("Importing: {done} of {total} files").format(done=done, total=total))
        else:
            self.status.setText(_("Importing the real games shipped with the app: {share}%").format(share=share))

    def import_games(self, paths: list[str] | None = None) -> None:
        """Import record files chosen by the player, on the explorer's thread (progress, Cancel)."""
        from tafl_desktop.gui import dialogs
        from tafl_desktop.gui.interop_menu import IMPORT_FILTER

        if not self.ready or self._importing:
            return
        if paths is None:
            paths = dialogs.ask_open_paths(self, _("Import games into the database"), IMPORT_FILTER,
                                           self.window_.files.last_dir())
        if not paths:
            return
        self._importing = True
        self.import_button.setEnabled(False)
        self.status.setText(_("Importing..."))
        self.worker.import_files(list(paths), self.session.variant)

    def _imported(self, report: Any) -> None:
        self._importing = False
        self.import_button.setEnabled(True)
        self.cancel.hide()
        self.import_report = report
        self.status.setText(
            _("Games added: {added}; already in the database: {duplicates}; not read: {problems}").format(
                added=report.added, duplicates=report.duplicates, problems=len(report.problems)))
        self.status.setToolTip("\n".join(report.problems[:20]))
        self.refresh()

    def _ready(self, report: Any) -> None:
        from tafl_desktop.gamedb.library import default_path
        from tafl_desktop.gamedb.store import GameDb, GameDbError

        if self._local is None:
            try:
                self._local = GameDb(self.worker.path or default_path())
            except GameDbError:
                self._local = None  # the thread answers every lookup then
        self.ready = True
        self._damaged = False
        self.cancel.hide()
        self.retry.hide()
        self.status.setText("" if report is None else ngettext(
            "{n} real game imported.", "{n} real games imported.", report.added).format(n=report.added))
        self.refresh()

    def _failed(self, message: str, damaged: bool) -> None:
        self.cancel.hide()
        if self._importing:
            self._importing = False
            self.import_button.setEnabled(True)
        if damaged and self._local is not None:
            self._local.close()
            self._local = None
        self._damaged = damaged
        self.ready = self.ready and not damaged
        self.status.setText(message)
        if damaged:
            tr(self.retry, "setText", "Rebuild")
        else:
            tr(self.retry, "setText", "Retry")
        self.retry.show()

    def _position_changed(self) -> None:
        if self.active and self.ready:
            self.changed_at = time.perf_counter()
            self.refresh()

    def filters(self) -> Any:
        from tafl_desktop.gamedb.store import Filters, sources_arg

        result = self.result.currentData()
        return Filters(sources=sources_arg(self.source.currentData()), player=self.player.text().strip(),
                       player_side=self.side.currentData(), date_from=self.date_from.text().strip(),
                       date_to=self.date_to.text().strip(), results=(result,) if result else (),
                       min_rating=self.rating.value() or None)

    def refresh(self) -> None:
        """Ask for the position shown (the answer comes back on the worker's signal)."""
        if not (self.active and self.ready):
            return
        c = self.session
        self._asked += 1
        line = [c.game.position_at(i) for i in range(c.view_ply + 1)]
        filters = self.filters()
        if self._local is not None and filters.only_sources and self._quick:
            # counts by source come pre-totalled (a lookup of a few rows, about a millisecond):
            # answered here, so the panel is drawn in the same frame as the board
            from tafl_desktop.gamedb.openings import opening_of
            from tafl_desktop.gamedb.store import GameDbError

            started = time.perf_counter()
            try:
                look = self._local.lookup(c.rules, c.viewed_position, filters, SAMPLE)
                opening = opening_of(self._local.folding(c.rules), line)
            except GameDbError as exc:
                self._failed(str(exc), exc.damaged)
                return
            seconds = time.perf_counter() - started
            self._answered(self._asked, (look, opening, seconds))
            return
        self.worker.ask(self._asked, (c.rules, c.viewed_position, filters, line))

    def _answered(self, number: int, answer: Any) -> None:
        if number != self._asked:
            return  # an older position's answer: a newer one is on its way
        self.answer = answer
        look, opening, seconds = answer
        self.lookup_seconds.append(seconds)
        # lookups slower than QUICK_SECONDS (the median of the last five, wherever they ran: one
        # hiccup of a busy machine, or the openings' table built once, is not a slow disk) go to the
        # explorer's thread until they are quick again
        self._recent = [*self._recent[-4:], seconds]
        self._quick = statistics.median(self._recent) < QUICK_SECONDS
        self.opening.setText(opening or "")
        self.moves.setRowCount(len(look.moves))
        for row, m in enumerate(look.moves):
            self.moves.setItem(row, 0, QTableWidgetItem(m.move))
            count = QTableWidgetItem(str(m.games))
            count.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.moves.setItem(row, 1, count)
            rating = QTableWidgetItem("" if m.rating is None else str(round(m.rating)))
            rating.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.moves.setItem(row, 2, rating)
            self.moves.setCellWidget(row, 3, ResultBar((m.attackers, m.draws, m.defenders, m.unfinished)))
            waiting = QTableWidgetItem("…")
            waiting.setToolTip(_("The engine is scoring this move..."))
            self.moves.setItem(row, 4, waiting)
        self.moves.resizeColumnsToContents()
        # the engine's score of each move: from the database's cache or searched, on the scores'
        # thread, shown as each arrives (the most played moves first)
        self.move_scores = {}
        self._score_number = number
        self._headers()  # the budget is the engine's of the rules shown
        self.scorer.ask(number, self.session.rules, self.session.viewed_position,
                        [m.move for m in look.moves[:SCORED]])
        self.games_title.setText(_("Games that reached this position: {n}").format(n=look.games))
        self.games.setRowCount(len(look.sample))
        results = {"attackers": _("attackers won"), "defenders": _("defenders won"), "draws": _("draw"),
                   "unfinished": _("unfinished")}
        for row, g in enumerate(look.sample):
            for col, text in enumerate((g.attackers or "?", g.defenders or "?", results.get(g.result, g.result),
                                        g.date, str(g.plies))):
                self.games.setItem(row, col, QTableWidgetItem(text))
        self.answered_at = time.perf_counter()
        if self.changed_at:
            self.follow_seconds.append(self.answered_at - self.changed_at)
            self.changed_at = 0.0

    def _scored(self, number: int, text: str, answer: Any) -> None:
        """One move's score from the scores' thread: into its row, if the position is still shown."""
        if number != self._score_number or self.answer is None:
            return
        score, to_move = answer
        self.move_scores[text] = score
        for row in range(self.moves.rowCount()):
            item = self.moves.item(row, 0)
            if item is not None and item.text() == text:
                shown = QTableWidgetItem(score.words(self.session.variant, to_move))
                shown.setToolTip(_("The engine's score of the position after {move} (depth {depth})").format(
                    move=text, depth=score.depth))
                self.moves.setItem(row, 4, shown)
                self.moves.resizeColumnToContents(4)
                return

    def _headers(self) -> None:
        from tafl_desktop.gamedb.scores import budget_for

        self.moves.setHorizontalHeaderLabels([_("Move"), pgettext("games played", "Games"), _("Rating"),
                                              _("Attackers / draws / defenders"), _("Engine")])
        budget = budget_for(self.session.rules)
        self.moves.horizontalHeaderItem(4).setToolTip(ngettext(
            "The engine's score of each move, {n} position searched; computed once and kept in the game database",
            "The engine's score of each move, {n} positions searched; computed once and kept in the game database",
            budget).format(n=budget))
        self.moves.horizontalHeaderItem(2).setToolTip(_("The average rating of the players, where the records "
                                                         "give one"))
        self.games.setHorizontalHeaderLabels([_("Attackers"), _("Defenders"), _("Result"), _("Date"), _("Moves")])

    def redisplay(self) -> None:
        """After a language switch: the headers and the answer again."""
        self._headers()
        if self.answer is not None:
            self.refresh()

    # ------------------------------------------------------------------------------ own games
    def add_finished_game(self) -> None:
        """The game on screen just ended: into the database as one of the player's own (a game
        between two computer players is self-play), when the preference says so.  A copy of the
        game is written on a thread, so neither the window nor a later Undo waits for the disk."""
        c = self.session
        source = "selfplay" if all(not p.is_human for p in c.specs) else "mine"
        wanted = "add_lab_games" if source == "selfplay" else "add_finished_games"
        if not getattr(self.window_.prefs, wanted, False):
            return
        from tafl_desktop.core.game import OFF_BOARD_REASONS, Game

        g = c.game
        snapshot = Game.from_plies(g.rules, g.start, list(g.plies))
        if g.outcome is not None and g.outcome.reason in OFF_BOARD_REASONS:
            snapshot.finish(g.outcome)
        tags = dict(c.record_tags())
        tags.setdefault("date", time.strftime("%Y.%m.%d"))
        if source == "selfplay":  # the levels as the players, as the Rules Lab's games have them
            tags.setdefault("attackers", tags.get("player1", ""))
            tags.setdefault("defenders", tags.get("player2", ""))
        if self.worker.db is not None:
            self.worker.add(snapshot, tags, source)
            return
        self.adding = threading.Thread(target=_add_alone, args=(self.worker.path, snapshot, tags, source),
                                       name="tafl-add-game", daemon=True)
        self.adding.start()

    # ------------------------------------------------------------------------------ acting
    def play_row(self, row: int) -> bool:
        """Play the move of ``row`` from the position shown (or on the scratch board while a game
        against the computer goes on)."""
        if self.answer is None or row >= len(self.answer[0].moves):
            return False
        c = self.session
        text = self.answer[0].moves[row].move
        try:
            move = c.rules.parse_move(c.viewed_position, text)
        except ValueError:
            return False
        in_progress = c.game.outcome is None and any(not p.is_human for p in c.specs)
        if in_progress:
            from tafl_desktop.gui.line_board import LineBoard

            keys = [c.rules.position_key(c.game.position_at(n)) for n in range(c.view_ply + 1)]
            if getattr(self, "_line_board", None) is None:
                self._line_board = LineBoard(self.window_)
            self._line_board.open_line(c.rules, c.viewed_position, keys, [text], 0,
                                       _("Explorer: {move}").format(move=text))
            return True
        return self.controller.play_variation(tuple(move))

    def open_row(self, row: int) -> bool:
        """Open the game of ``row`` at the position (the current game is kept if it must be saved)."""
        if self.answer is None or row >= len(self.answer[0].sample):
            return False
        from tafl_desktop.gamedb.store import GameDb
        from tafl_desktop.gui import dialogs

        g = self.answer[0].sample[row]
        try:
            with GameDb(self.worker.path or _default_path()) as db:
                record = db.game_record(g.id)
            game = _replayed(record) if record is not None else None
        except Exception as exc:  # noqa: BLE001 - a stored game that no longer replays: one line
            dialogs.show_error(self, _("Cannot open the game"), str(exc))
            return False
        if game is None or not self.window_.files.may_discard():
            return False
        from tafl_desktop.session.source import GameSource, Origin

        tags = dict(record[3]) if record else {}
        self.window_.load(GameSource.of_game(game, Origin.IMPORT, tags=tags, saved=False),
                          _("A game of the database, shown at the position explored."))
        self.session.goto(g.ply)
        return True


def _add_alone(path: Any, game: Any, tags: dict[str, str], source: str) -> None:
    """Add one game without opening the explorer (no import of the shipped games then); a
    database that cannot be written leaves the game out silently: the player's record is theirs
    to save, the database is an index."""
    from tafl_desktop.gamedb import library
    from tafl_desktop.gamedb.store import GameDb, GameDbError

    try:
        with GameDb(path or library.default_path()) as db:
            library.add_finished(db, game, tags, source)
    except (GameDbError, OSError):
        pass


def _default_path() -> Any:
    from tafl_desktop.gamedb.library import default_path

    return default_path()


def _replayed(record: Any) -> Any:
    from tafl_desktop.core.game import Game, Side
    from tafl_desktop.core.move_list_text import listed_moves, play_listed
    from tafl_desktop.core.variants import variant_from_data

    variant_data, start, moves, _tags = record
    variant = variant_from_data(variant_data)
    rules = variant.make_rules()
    text, _sep, side = start.rpartition(" ")
    game = Game(rules, rules.parse_position(text, Side(int(side))))
    play_listed(game, listed_moves(moves, variant.traits))
    return game


class _CloseWatcher(QObject):
    """Ends the explorer's thread when the window closes."""

    def __init__(self, window: Any, dock: ExplorerDock) -> None:
        super().__init__(window)
        self.dock = dock

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.Close:
            self.dock.shutdown()
        return False


def install(window: Any) -> None:
    """Add View > Explorer (Ctrl+Shift+E): the dock on the right of the board."""
    from PySide6.QtGui import QAction, QKeySequence

    dock = ExplorerDock(window)
    window.explorer = dock
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    act = tr(QAction(window), "setText", "E&xplorer")
    act.setCheckable(True)
    act.setShortcut(QKeySequence("Ctrl+Shift+E"))
    tr(act, "setStatusTip", "The moves played from the position shown in the game database, and how those games "
       "ended (Ctrl+Shift+E)")
    act.toggled.connect(dock.set_active)
    window.events.finished.connect(lambda _outcome: dock.add_finished_game())
    dock.visibilityChanged.connect(lambda shown: act.setChecked(False) if not shown and dock.active
                                   and not dock.isVisible() else None)
    window.act_explorer = act
    window.addAction(act)
    window.view_menu.addAction(act)
    window.installEventFilter(_CloseWatcher(window, dock))


def retranslate(window: Any) -> None:
    window.explorer.redisplay()

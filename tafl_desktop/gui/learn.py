"""The Learn menu: lessons per family and the Puzzles window.

``install(window)`` adds the menu; the lessons and puzzle sets are read only when the menu opens,
so start-up pays nothing for them.  Lessons and puzzles are judged by the rules engine
(:mod:`tafl_desktop.study`); these dialogs only show positions, pass on the player's moves and
say what the engine found.  Each keeps its game in a session of its own
(:class:`~tafl_desktop.session.session.GameSession`), loaded like every game (a lesson step or a
puzzle is a ``GameSource``), never in the window's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.marks import N_
from tafl_desktop.core.side_words import sentence
from tafl_desktop.gui.puzzle_progress import PuzzleProgress
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.study_widgets import (  # noqa: F401 - puzzle_rules_text: learn's name for it too
    _redo_feedback,
    _set_feedback,
    _wrap_label,
    puzzle_rules_text,
)
from tafl_desktop.gui.texts import add_item, tr
from tafl_desktop.i18n import _, ngettext, npgettext
from tafl_desktop.session.session import GameSession
from tafl_desktop.session.source import GameSource, Origin

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

#: Positions the window's own proofs may visit (a wrong move's refutation, a second winning line).
GUI_NODE_BUDGET = 40_000
#: Delay before the computer's reply in a puzzle, so the player sees their own move land first.
REPLY_DELAY_MS = 350
#: Time between the moves of a solution played on the board.
SOLUTION_STEP_MS = 700


def study_session(session: GameSession | None, rules: Any, start: Any, origin: Origin) -> GameSession:
    """``session`` loaded with a game of ``rules`` from ``start`` (a new session if None)."""
    source = GameSource.of_tree(GameTree(rules, start), origin)
    if session is None:
        return GameSession(source)
    session.load(source)
    return session


def install(window: MainWindow) -> None:
    """Add the Learn menu (before Help) to ``window``."""
    menu = tr(QMenu(window), "setTitle", "&Learn")
    window.menuBar().insertMenu(window.help_menu.menuAction(), menu)
    window.learn_menu = menu
    window.learn_dialogs = []
    menu.aboutToShow.connect(lambda: _fill_menu(window, menu))
    act = tr(menu.addAction(""), "setText", "&Puzzles...")  # the lessons are read when the menu first opens
    act.triggered.connect(lambda: open_puzzles(window))
    window.act_puzzles = act


def _family_label(family: str) -> str:
    from tafl_desktop.core.families import FAMILIES

    fam = FAMILIES.get(family)
    return _(fam.label) if fam is not None else family


def _fill_menu(window: MainWindow, menu: QMenu) -> None:
    """(Re)build the menu: a sub-menu of lessons per family, then Puzzles...  A lesson file that
    cannot be read is left out and named in the status bar, never a traceback."""
    from tafl_desktop.gui.lesson_progress import LessonProgress, first_unfinished
    from tafl_desktop.study.lessons import LessonError, load_lessons

    menu.clear()
    try:
        lessons = load_lessons()
    except LessonError as exc:
        lessons = []
        window.statusBar().showMessage(_("Lessons unavailable: {error}").format(error=exc), 8000)
    progress = LessonProgress()
    upcoming = first_unfinished(lessons, progress)
    if upcoming is not None:
        act = menu.addAction(_("&Continue: {title}").format(title=upcoming.title_text()))
        act.setObjectName("learn-continue")
        act.triggered.connect(lambda _c=False, ls=upcoming: open_lesson(window, ls))
        menu.addSeparator()
    families: dict[str, list[Any]] = {}
    for lesson in lessons:
        families.setdefault(lesson.family, []).append(lesson)
    for family, items in families.items():
        sub = tr(menu.addMenu(""), "setTitle", "{family} lessons", family=lambda family=family: _family_label(family))
        sub.setObjectName(f"learn-{family}")
        for lesson in items:
            done = len(progress.done(lesson.id) & set(range(len(lesson.steps))))
            act = sub.addAction(lesson.title_text())
            act.setCheckable(True)  # ticked when every step is done
            act.setChecked(done == len(lesson.steps))
            if 0 < done < len(lesson.steps):
                act.setText(ngettext("{title} ({done} of {total} step)",
                                     "{title} ({done} of {total} steps)", len(lesson.steps)).format(
                    title=lesson.title_text(), done=done, total=len(lesson.steps)))
            act.setData(lesson.id)
            act.triggered.connect(lambda _c=False, ls=lesson: open_lesson(window, ls))
    menu.addSeparator()
    act = tr(menu.addAction(""), "setText", "&Puzzles...")
    act.setObjectName("learn-puzzles")
    act.triggered.connect(lambda: open_puzzles(window))
    window.act_puzzles = act
    act = menu.addAction(_("Puzzles from &My Games..."))
    act.setObjectName("learn-my-games")
    act.setToolTip(_("Find the forced wins in your own games and add them to your puzzles"))
    act.triggered.connect(lambda: mine_my_games(window))
    window.act_mine_games = act
    act = menu.addAction(_("Open an &OpenTafl Puzzle..."))
    act.setObjectName("learn-opentafl-puzzle")
    act.triggered.connect(lambda: open_puzzle_file(window))
    window.act_open_puzzle_file = act


def open_puzzle_file(window: Any, path: str | None = None) -> Any:
    """Learn > Open an OpenTafl Puzzle: an ``.otg`` puzzle file in its own window."""
    from tafl_desktop.gui import dialogs
    from tafl_desktop.gui.record_puzzle import open_record_puzzle

    if path is None:
        file_filter = ";;".join([N_("OpenTafl puzzles (*.otg)"), dialogs.ALL_FILES])
        path = dialogs.ask_open_path(window, _("Open an OpenTafl puzzle"), file_filter, window.files.last_dir())
        if not path:
            return None
    return open_record_puzzle(window, path)


def mine_my_games(window: Any, paths: list[str] | None = None) -> Any:
    """Learn > Puzzles from My Games: pick game files, mine them off the window's thread."""
    from tafl_desktop.gui.my_games_dialog import MyGamesDialog

    dlg = MyGamesDialog(window, paths, open_puzzles=open_puzzles)
    window.learn_dialogs.append(dlg)
    dlg.show()
    return dlg


def open_lesson(window: MainWindow, lesson: Any) -> LessonDialog:
    dlg = LessonDialog(lesson, window)
    window.learn_dialogs.append(dlg)
    dlg.show()
    return dlg


def open_puzzles(window: MainWindow) -> PuzzleDialog | None:
    from tafl_desktop.gui import dialogs
    from tafl_desktop.study.puzzles import PuzzleError, all_puzzles

    try:
        puzzles = all_puzzles()
    except PuzzleError as exc:
        dialogs.show_error(window, _("Puzzles"), str(exc))
        return None
    puzzles += _my_puzzles(window)
    dlg = PuzzleDialog(puzzles, window, playing=window.session.variant.id)
    window.learn_dialogs.append(dlg)
    dlg.show()
    return dlg


def _my_puzzles(window: Any) -> list[dict[str, Any]]:
    """The puzzles mined from the player's own games; a damaged file is named in the status bar
    and left out (it is not overwritten: mining again refuses it the same way)."""
    from tafl_desktop.study.my_games import default_path
    from tafl_desktop.study.puzzles import PuzzleError, PuzzleSet

    path = default_path()
    if not path.exists():
        return []
    try:
        return PuzzleSet.load(path).puzzles
    except PuzzleError as exc:
        window.statusBar().showMessage(_("Your puzzles are left out: {error}").format(error=exc), 8000)
        return []




# ----------------------------------------------------------------------------------- lessons
class LessonDialog(QDialog):
    """One lesson, step by step: the text, the board, what the engine says of each move."""

    def __init__(self, lesson: Any, parent: QWidget | None = None) -> None:
        from tafl_desktop.gui.lesson_progress import LessonProgress
        from tafl_desktop.gui.study_board import StudyBoard

        super().__init__(parent)
        self.progress = LessonProgress()
        self.lesson = lesson
        self.index = self.progress.resume_at(lesson)
        self.step_done = False
        #: The step's game: its start position and the move played on it.
        self.session: GameSession | None = None
        tr(self, "setWindowTitle", "Lesson: {title}", title=lesson.title_text)
        fit_size(self, 620, 720)
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.text = _wrap_label()
        self.board = StudyBoard(self)
        self.feedback = _wrap_label()
        self.btn_solution = tr(QPushButton(), "setText", "Show &solution")
        self.btn_retry = tr(QPushButton(), "setText", "&Try again")
        self.btn_next = tr(QPushButton(), "setText", "&Next step")
        tr(self.btn_next, "setAccessibleDescription", "Go on to the next step of the lesson")
        tr(self.btn_retry, "setAccessibleDescription", "Put the position back as it was and try again")
        tr(self.btn_solution, "setAccessibleDescription", "Play the moves of the solution on the board")
        row = QHBoxLayout()
        for b in (self.btn_solution, self.btn_retry, self.btn_next):
            row.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addWidget(self.heading)
        lay.addWidget(self.text)
        lay.addWidget(self.board, 1)
        lay.addWidget(self.feedback)
        lay.addLayout(row)
        self.board.move_picked.connect(self.on_move)
        self.board.illegal_picked.connect(self.on_illegal)
        self.btn_solution.clicked.connect(self.show_solution)
        self.btn_retry.clicked.connect(self.load_step)
        self.btn_next.clicked.connect(self.next_step)
        self.load_step()

    @property
    def step(self) -> Any:
        return self.lesson.steps[self.index]

    def load_step(self) -> None:
        self.step_done = False
        self.btn_next.setEnabled(False)
        try:
            variant, rules, pos = self.step.start()
        except ValueError as exc:  # a hand-made lesson file with a position the rules cannot read
            self.board.interactive = False
            _set_feedback(self.feedback, lambda exc=exc: _(  # type: ignore[misc]
                "This step cannot be shown: {error}").format(error=exc), False)
            self.btn_next.setEnabled(self.index + 1 < len(self.lesson.steps))
            return
        self.variant, self.rules, self._start = variant, rules, pos
        self.session = study_session(self.session, rules, pos, Origin.LESSON)
        self._show_texts()
        self.board.interactive = True
        self.board.show_position(rules, pos)
        _set_feedback(self.feedback, "", None)

    def _show_texts(self) -> None:
        """The step's heading, instructions and buttons in the language in use."""
        variant, rules = self.variant, self.rules
        self._show_heading()
        side = variant.side_names[int(rules.side_to_move(self._start))]
        self.text.setText(self.step.instructions(variant) + "\n" +
                          _("{side} to move · {variant}").format(side=side, variant=variant.title))
        if self.index + 1 < len(self.lesson.steps):
            tr(self.btn_next, "setText", "&Next step")
        elif self._next_lesson() is not None:
            tr(self.btn_next, "setText", "&Next lesson")
        else:
            tr(self.btn_next, "setText", "&Finish")

    def _show_heading(self) -> None:
        total = len(self.lesson.steps)
        done = len(self.progress.done(self.lesson.id) & set(range(total)))
        tr(self.heading, "setText", "{title}: step {n} of {total} ({done} done)",
           title=self.lesson.title_text, n=self.index + 1, total=total, done=done)

    def redisplay(self) -> None:
        """After a language switch: the texts again, the board as the player left it."""
        if getattr(self, "_start", None) is not None:
            self._show_texts()
        _redo_feedback(self.feedback)

    def on_move(self, move: tuple) -> None:
        from tafl_desktop.study.lessons import judge, translated

        verdict = judge(self.step, move)
        if verdict.ok:
            self.step_done = True
            if self.session is not None:
                self.session.play_at_end(tuple(move))
            self.progress.mark(self.lesson.id, self.index)
            self._show_heading()
            before = self.board.position
            self.board.interactive = False
            self.board.show_position(self.rules, verdict.position, move, verdict.captures, before)
            self.btn_next.setEnabled(True)
            _set_feedback(self.feedback, lambda: translated(verdict.message), True)
        else:
            _set_feedback(self.feedback, lambda: translated(verdict.message) + " " + _("Try another move."), False)
            self.board.refresh()

    def on_illegal(self, move: tuple, why: str) -> None:
        _set_feedback(self.feedback, lambda: _("{move} is not allowed: {why}.").format(
            move=self.rules.move_text(move), why=_(why)), False)

    def show_solution(self) -> None:
        try:
            _variant, rules, pos = self.step.start()
            move = rules.parse_move(pos, self.step.solution)
        except ValueError as exc:
            _set_feedback(self.feedback, lambda exc=exc: _(  # type: ignore[misc]
                "This step cannot be shown: {error}").format(error=exc), False)
            return
        self.board.show_hint(move[0], move)
        _set_feedback(self.feedback, lambda: _("Solution: {move}").format(move=self.step.solution), None)

    def _next_lesson(self) -> Any:
        from tafl_desktop.gui.lesson_progress import next_lesson
        from tafl_desktop.study.lessons import LessonError, load_lessons

        try:
            return next_lesson(load_lessons(), self.lesson)
        except LessonError:
            return None

    def next_step(self) -> None:
        """The next step; after the last, the next lesson (where it starts or was left)."""
        if self.index + 1 < len(self.lesson.steps):
            self.index += 1
            self.load_step()
            return
        following = self._next_lesson()
        if following is None:
            self.accept()
            return
        self.lesson = following
        self.index = self.progress.resume_at(following)
        self.setWindowTitle(_("Lesson: {title}").format(title=following.title_text()))
        self.load_step()


# ----------------------------------------------------------------------------------- puzzles
#: The family filter's entry for the player's own puzzles.
MY_GAMES = "my_games"
#: The family filter's entries for one game (``variant:<preset id>``), listed under their family.
VARIANT_FILTER = "variant:"
#: Where a newcomer starts when the game on screen has no puzzles: the small board, then the
#: tournament board (issue 36: a first puzzle on a 19x19 board, then Dablot, lost newcomers).
FIRST_GAMES = ("brandubh", "copenhagen")


class _GameUnderFamily(QStyledItemDelegate):
    """Draws a game's entry of the family filter set in under its family, in the list only (the
    closed box shows the game's name as it is)."""

    def paint(self, painter: Any, option: Any, index: Any) -> None:
        if str(index.data(Qt.ItemDataRole.UserRole) or "").startswith(VARIANT_FILTER):
            option.rect.adjust(option.fontMetrics.horizontalAdvance("MM"), 0, 0, 0)
        super().paint(painter, option, index)


def first_filter(puzzles: list[dict[str, Any]], playing: str | None) -> str:
    """The puzzle filter the dialog opens with: the game being played when it has puzzles, else
    the first of :data:`FIRST_GAMES` that has, else every puzzle ("")."""
    have = {p["variant"] for p in puzzles if not _is_mine(p)}
    for vid in (playing, *FIRST_GAMES):
        if vid is not None and vid in have:
            return VARIANT_FILTER + vid
    return ""


def _is_mine(puzzle: dict[str, Any]) -> bool:
    return str(puzzle.get("id", "")).startswith(MY_GAMES + "-")


class PuzzleDialog(QDialog):
    """Puzzle mode: find the one winning move; the computer answers with the defence that holds
    out longest, a wrong move is explained by a defence that refutes it, and may be retried."""

    def __init__(self, puzzles: list[dict[str, Any]], parent: QWidget | None = None,
                 playing: str | None = None) -> None:
        """``playing``: the preset of the game on screen; the filter starts at its puzzles
        (:func:`first_filter`), so Next stays in that game until the player changes the filter."""
        from tafl_desktop.core.variants import presets
        from tafl_desktop.gui.study_board import StudyBoard

        super().__init__(parent)
        self.all_puzzles = puzzles
        self._presets = presets()
        self.families = {vid: v.family for vid, v in self._presets.items()}
        self.progress = PuzzleProgress()
        tr(self, "setWindowTitle", "Puzzles")
        fit_size(self, 640, 780)
        self.family_box = QComboBox()
        tr(self.family_box, "setToolTip", "Which puzzles Next chooses from: a family of games, or one game")
        self.family_box.setItemDelegate(_GameUnderFamily(self.family_box))
        add_item(self.family_box, "All families", "")
        for fam in sorted({self.families.get(p["variant"], "") for p in puzzles} - {""}):
            self.family_box.addItem(_family_label(fam), fam)
            games = {p["variant"] for p in puzzles if self.families.get(p["variant"]) == fam and not _is_mine(p)}
            for vid in sorted(games, key=lambda v: self._presets[v].title.casefold()):
                self.family_box.addItem(self._filter_text(VARIANT_FILTER + vid), VARIANT_FILTER + vid)
        if any(_is_mine(p) for p in puzzles):
            self.family_box.addItem(_("My games"), MY_GAMES)
        self.level_box = QComboBox()
        add_item(self.level_box, "Any difficulty", 0)
        for n in range(1, 6):
            add_item(self.level_box, "Difficulty {n}", n, n=n)
        self.theme_box = QComboBox()
        self.theme_box.setObjectName("puzzle-themes")
        tr(self.family_box, "setAccessibleName", "Games")
        tr(self.level_box, "setAccessibleName", "Difficulty")
        tr(self.theme_box, "setAccessibleName", "Theme")
        tr(self.theme_box, "setAccessibleDescription", "Which puzzles Next chooses from: all, or those of one theme")
        tr(self.level_box, "setAccessibleDescription", "Which puzzles Next chooses from: all, or one difficulty from 1 "
                                                       "to 5")
        self._fill_themes()
        self.btn_prev = tr(QPushButton(), "setText", "&Previous")
        self.btn_next = tr(QPushButton(), "setText", "N&ext puzzle")
        tr(self.btn_next, "setToolTip", "The next puzzle near your rating")
        tr(self.btn_prev, "setAccessibleDescription", "Back to the puzzle before this one")
        top = QHBoxLayout()
        for w in (self.family_box, self.level_box, self.theme_box, self.btn_prev, self.btn_next):
            top.addWidget(w)
        self.rating_label = QLabel()
        self.rating_label.setObjectName("puzzle-rating")
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15px; font-weight: bold;")
        # the rules the puzzle is proved under, shown before the first move (as the side panel does)
        self.rules_label = _wrap_label()
        self.btn_rules = tr(QPushButton(), "setText", "&Rules...")
        tr(self.btn_rules, "setToolTip", "The full rules this puzzle is played under")
        rules_row = QHBoxLayout()
        rules_row.addWidget(self.rules_label, 1)
        rules_row.addWidget(self.btn_rules)
        self.task = _wrap_label()
        self.board = StudyBoard(self)
        self.feedback = _wrap_label()
        self.progress_label = _wrap_label()
        self.btn_hint = tr(QPushButton(), "setText", "&Hint")
        self.btn_retry = tr(QPushButton(), "setText", "&Try again")
        self.btn_solution = tr(QPushButton(), "setText", "Show &solution")
        tr(self.btn_solution, "setAccessibleDescription", "Play the moves of the solution on the board")
        tr(self.btn_retry, "setAccessibleDescription", "Put the position back as it was and try again")
        tr(self.btn_hint, "setAccessibleDescription", "First the piece to move; pressed again, the move itself")
        row = QHBoxLayout()
        for b in (self.btn_hint, self.btn_retry, self.btn_solution):
            row.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.rating_label)
        lay.addWidget(self.heading)
        lay.addLayout(rules_row)
        lay.addWidget(self.task)
        lay.addWidget(self.board, 1)
        lay.addWidget(self.feedback)
        lay.addLayout(row)
        lay.addWidget(self.progress_label)
        self.family_box.currentIndexChanged.connect(self.apply_filter)
        self.level_box.currentIndexChanged.connect(self.apply_filter)
        self.theme_box.currentIndexChanged.connect(self.apply_filter)
        self.btn_prev.clicked.connect(lambda: self.go(-1))
        self.btn_next.clicked.connect(lambda: self.go(1))
        self.btn_hint.clicked.connect(self.hint)
        self.btn_retry.clicked.connect(self.restart)
        self.btn_solution.clicked.connect(self.show_solution)
        self.btn_rules.clicked.connect(self.show_rules)
        self.board.move_picked.connect(self.on_move)
        self.board.illegal_picked.connect(self.on_illegal)
        self.reply_timer = QTimer(self)
        self.reply_timer.setSingleShot(True)
        self.reply_timer.timeout.connect(self.computer_reply)
        self.solution_timer = QTimer(self)
        self.solution_timer.setInterval(SOLUTION_STEP_MS)
        self.solution_timer.timeout.connect(self.solution_step)
        self.solution_line: list[str] = []
        self.shown: list[dict[str, Any]] = []
        self.history: list[str] = []
        self.index = 0
        #: The puzzle's game: its start and the moves played so far (the player's and the replies).
        self.session: GameSession | None = None
        self.rated_now: tuple[Any, Any] | None = None
        start = self.family_box.findData(first_filter(puzzles, playing))
        if start > 0:
            self.family_box.blockSignals(True)
            self.family_box.setCurrentIndex(start)
            self.family_box.blockSignals(False)
        self.apply_filter()

    def _filter_text(self, data: str) -> str:
        """The family filter's text of an entry: a family's name, or a game's, set in under it."""
        if data.startswith(VARIANT_FILTER):
            return self._presets[data[len(VARIANT_FILTER):]].title
        return _family_label(data)

    def _fill_themes(self) -> None:
        """Any theme, then each theme the puzzles have, in the themes' own order, with a count."""
        from tafl_desktop.study.puzzles import puzzle_themes
        from tafl_desktop.study.themes import THEMES

        counts: dict[str, int] = {}
        for p in self.all_puzzles:
            for t in puzzle_themes(p):
                counts[t] = counts.get(t, 0) + 1
        add_item(self.theme_box, "Any theme", "")
        for theme, label in THEMES.items():
            if counts.get(theme):
                add_item(self.theme_box, "{theme} ({n})", theme, theme=lambda label=label: _(label), n=counts[theme])

    # ---------------------------------------------------------------------------- choosing
    def apply_filter(self) -> None:
        from tafl_desktop.study.puzzles import puzzle_themes

        fam = self.family_box.currentData() or ""
        level = int(self.level_box.currentData() or 0)
        theme = self.theme_box.currentData() or ""
        game = fam[len(VARIANT_FILTER):] if fam.startswith(VARIANT_FILTER) else None
        self.shown = [p for p in self.all_puzzles if (not fam or self.families.get(p["variant"]) == fam
                                                      or (game is not None and p["variant"] == game
                                                          and not _is_mine(p))
                                                      or (fam == MY_GAMES and _is_mine(p)))
                      and (not level or p["difficulty"] == level) and (not theme or theme in puzzle_themes(p))]
        # unsolved puzzles first, so Previous and Next move the player on
        self.shown.sort(key=lambda p: p["id"] in self.progress.solved(p["variant"]))
        self.index = self._chosen_index()
        self.load()

    def _chosen_index(self, exclude: str | None = None) -> int:
        """The puzzle the player's rating asks for (a newcomer: the easiest), as an index into the
        shown puzzles."""
        from tafl_desktop.study.rating import choose_puzzle

        pick = choose_puzzle(self.shown, self.progress.player_rating(), self.progress.attempted(),
                             self.progress.puzzle_ratings(), exclude)
        return self.shown.index(pick) if pick is not None else 0

    def go(self, step: int) -> None:
        """Next: the unattempted puzzle nearest the player's rating; Previous: back through the
        puzzles shown before (then backwards through the list)."""
        if not self.shown:
            return
        current = self.puzzle["id"] if self.puzzle else None
        if step > 0:
            if current:
                self.history.append(current)
            self.index = self._chosen_index(exclude=current)
        elif self.history:
            wanted = self.history.pop()
            ids = [p["id"] for p in self.shown]
            self.index = ids.index(wanted) if wanted in ids else (self.index - 1) % len(self.shown)
        else:
            self.index = (self.index - 1) % len(self.shown)
        self.load()

    def select(self, puzzle_id: str) -> bool:
        """Show the puzzle with this id (clearing the filters if it is filtered out)."""
        for attempt in range(2):
            for i, p in enumerate(self.shown):
                if p["id"] == puzzle_id:
                    self.index = i
                    self.load()
                    return True
            if attempt == 0:
                for box in (self.family_box, self.level_box, self.theme_box):
                    box.blockSignals(True)
                    box.setCurrentIndex(0)
                    box.blockSignals(False)
                self.apply_filter()
        return False

    @property
    def puzzle(self) -> dict[str, Any] | None:
        return self.shown[self.index] if self.shown else None

    def load(self) -> None:
        from tafl_desktop.study.puzzles import PuzzleError, expand_tree, puzzle_start

        self.reply_timer.stop()
        self.solution_timer.stop()
        self.rated_now = None
        pz = self.puzzle
        for b in (self.btn_hint, self.btn_retry, self.btn_solution, self.btn_prev, self.btn_next, self.btn_rules):
            b.setEnabled(pz is not None)
        self.rules_label.setText("")
        if pz is None:
            tr(self.heading, "setText", "No puzzle matches these filters.")
            self.task.setText("")
            _set_feedback(self.feedback, "", None)
            self.board.interactive = False
            self.board.refresh()
            self.update_progress()
            return
        try:
            self.variant, self.rules, self.start = puzzle_start(pz)
            tree = expand_tree(pz["tree"]) if pz.get("tree") else None
        except PuzzleError as exc:
            tr(self.heading, "setText", "This puzzle cannot be shown.")
            _set_feedback(self.feedback, str(exc), False)
            return
        self.session = study_session(self.session, self.rules, self.start, Origin.PUZZLE)
        self.plies_left = int(pz["plies"])
        self.winner = self.rules.side_to_move(self.start)
        self.tree: dict[str, Any] | None = tree
        self.clean = True
        self.hint_level = 0
        self.solved = False
        self.line: list[str] = []
        tr(self.heading, "setText", "Puzzle {id} · {variant} · difficulty {d} · rating {rating}",
           id=pz["id"], variant=lambda v=self.variant: v.title, d=pz["difficulty"],
           rating=round(self.progress.puzzle_rating(pz).rating))
        self.heading.setToolTip(self._themes_text(pz))
        self.rules_label.setText(puzzle_rules_text(self.variant))
        self.show_task()
        self.board.interactive = True
        self.board.show_position(self.rules, self.start)
        _set_feedback(self.feedback, "", None)
        self.update_progress()

    def redisplay(self) -> None:
        """After a language switch: the rules line, the task, the progress and the last word
        on the move, in the language now in use (the board as the player left it)."""
        for i in range(self.family_box.count()):  # the families' and games' names (the rest are tr texts)
            data = str(self.family_box.itemData(i) or "")
            if data and data != MY_GAMES:
                self.family_box.setItemText(i, self._filter_text(data))
            elif data == MY_GAMES:
                self.family_box.setItemText(i, _("My games"))
        if self.puzzle is not None and getattr(self, "variant", None) is not None:
            self.rules_label.setText(puzzle_rules_text(self.variant))
            self.heading.setToolTip(self._themes_text(self.puzzle))
            self.show_task()
        self.update_progress()
        _redo_feedback(self.feedback)

    def show_rules(self) -> None:
        """The full rule sheet of the puzzle's rules (the preset, and any toggle the puzzle changes)."""
        from tafl_desktop.gui.rules_viewer import RulesViewer

        if self.puzzle is not None:
            RulesViewer(self.variant, self).exec()

    def show_task(self) -> None:
        """What is left to do: the winner to move and the moves to the forced end."""
        moves = (self.plies_left + 1) // 2
        one = self.variant.side_number(self.winner) == 1
        if one:  # the verb agrees with the side: "Ходит лиса и выигрывает", "Gæssene trækker og vinder"
            text = npgettext("puzzle, a side of one piece", "{side} to move and win in {n} move.",
                             "{side} to move and win in {n} moves.", moves)
        else:
            text = npgettext("puzzle, a side of several pieces", "{side} to move and win in {n} move.",
                             "{side} to move and win in {n} moves.", moves)
        self.task.setText(sentence(text.format(side=self.variant.side_subject(self.winner), n=moves)))

    @staticmethod
    def _themes_text(pz: dict[str, Any]) -> str:
        from tafl_desktop.study.puzzles import puzzle_themes
        from tafl_desktop.study.themes import THEMES

        return _("Themes: {themes}").format(themes=", ".join(_(THEMES[t]) for t in puzzle_themes(pz)))

    def update_rating(self) -> None:
        """The player's rating, and how the last rated attempt moved it."""
        player = self.progress.player_rating()
        text = _("Your puzzle rating: {rating}").format(rating=player.shown())
        if self.rated_now is not None:
            before, after = self.rated_now
            diff = round(after.rating) - round(before.rating)
            text += " " + (_("(+{n})").format(n=diff) if diff >= 0 else _("(−{n})").format(n=-diff))
        self.rating_label.setText(text)

    def _rate(self, solved: bool) -> None:
        """Rate the first attempt at the puzzle on the board (a later one changes nothing)."""
        pz = self.puzzle
        if pz is None:
            return
        change = self.progress.rate(pz, solved)
        if change is not None:
            self.rated_now = change
        self.update_rating()

    def update_progress(self) -> None:
        self.update_rating()
        pz = self.puzzle
        if pz is None:
            self.progress_label.setText("")
            return
        set_id = pz["variant"]
        in_set = [p for p in self.all_puzzles if p["variant"] == set_id]
        solved = len(self.progress.solved(set_id) & {p["id"] for p in in_set})
        streak, best = self.progress.streak(set_id)
        tr(self.progress_label, "setText", "{set}: solved {solved} of {total} · streak {streak} (best {best}) · "
           "puzzle {n} of {shown} shown", set=lambda v=self.variant: v.title, solved=solved, total=len(in_set),
           streak=streak, best=best, n=self.index + 1, shown=len(self.shown))

    # ---------------------------------------------------------------------------- playing
    @property
    def position(self) -> Any:
        """The puzzle's position now (after the moves played so far)."""
        assert self.session is not None
        return self.session.game.position

    @property
    def set_id(self) -> str:
        """The puzzle set (the preset's file) of the puzzle shown."""
        return str(self.puzzle["variant"]) if self.puzzle is not None else ""

    def _prover(self) -> Any:
        from tafl_desktop.ai.prover import make_prover

        # bounded: an answer the window cannot find quickly is left unsaid rather than freezing it
        return make_prover(self.rules, self.winner, max_nodes=GUI_NODE_BUDGET)

    def _subtree(self, move_text: str) -> dict[str, Any] | None:
        """The stored solution tree's node after the winner's ``move_text``, if the tree has it."""
        if self.tree is not None and self.tree.get("move") == move_text:
            return self.tree.get("then")
        return None

    def on_move(self, move: tuple) -> None:
        if self.solved or self.reply_timer.isActive():
            return
        rules = self.rules
        text = rules.move_text(move)
        after, caps = rules.play(self.position, move)
        before = self.position
        out = rules.outcome(after)
        prover = self._prover()
        if self._is_winning(prover, text, after, out):
            self.line.append(text)
            prover.max_nodes = 0  # the win is proven: walking its tree only revisits the proof
            self.tree = self._subtree(text) or (prover.tree(after, self.plies_left - 1) if out is None else None)
            assert self.session is not None
            self.session.play_at_end(tuple(move))
            self.plies_left -= 1
            self.board.show_position(rules, after, move, caps, before)
            if out is not None:
                self.finish(out)
            else:
                self.board.interactive = False
                _set_feedback(self.feedback, lambda: _("Good: {move}. The computer replies...").format(move=text), True)
                self.reply_timer.start(REPLY_DELAY_MS)
            return
        # wrong: find the defence that refutes it, as the engine sees it
        self.clean = False
        assert self.puzzle is not None  # a puzzle is shown while it is being solved
        self.progress.broke(self.puzzle["variant"])
        self._rate(False)
        why = _("{move} does not force the win.").format(move=text)
        if out is not None:
            why = _("{move} ends the game the wrong way: {result}").format(move=text, result=out.describe(self.variant))
        else:
            why = self._refutation(prover, text, after) or why
        _set_feedback(self.feedback, lambda: why + " " + _("Try again."), False)
        self.board.refresh()
        self.update_progress()

    def _is_winning(self, prover: Any, text: str, after: Any, out: Any) -> bool:
        """Does the player's move keep a forced win?  The stored tree answers for its own move;
        another move is proven by a bounded search (the first move of a puzzle is unique)."""
        from tafl_desktop.ai.prover import SearchBudgetExceeded

        if out is not None:
            return out.winner == self.winner
        if self.tree is not None and self.tree.get("move") == text:
            return True
        if not self.line:
            return False  # the puzzle's first move is proven unique
        try:
            return prover.wins(after, self.plies_left - 1)
        except SearchBudgetExceeded:
            return False

    def _refutation(self, prover: Any, text: str, after: Any) -> str | None:
        """A defence that refutes the player's move, as a sentence; None if none is found in budget."""
        from tafl_desktop.ai.prover import SearchBudgetExceeded

        rules = self.rules
        try:
            for reply in rules.legal_moves(after):
                nxt = rules.play(after, reply)[0]
                reply_out = rules.outcome(nxt)
                if reply_out is not None and reply_out.winner != self.winner:
                    return _("{move} fails against the answer {reply}. {result}").format(
                        move=text, reply=rules.move_text(reply), result=reply_out.describe(self.variant))
                if not prover.wins(nxt, self.plies_left - 2):
                    n = max(1, (self.plies_left - 1) // 2)
                    return ngettext("{move} fails: after {reply} there is no win within {n} more move.",
                                    "{move} fails: after {reply} there is no win within {n} more moves.", n).format(
                        move=text, reply=rules.move_text(reply), n=n)
        except SearchBudgetExceeded:
            return None
        return None

    def on_illegal(self, move: tuple, why: str) -> None:
        _set_feedback(self.feedback, lambda: _("{move} is not allowed: {why}.").format(
            move=self.rules.move_text(move), why=_(why)), False)

    def computer_reply(self) -> None:
        """The defence that holds out longest, from the solution tree."""
        from tafl_desktop.ai.prover import tree_depth

        node = self.tree or {}
        replies = node.get("replies") or {}
        if not replies:
            return
        reply_text, self.tree = max(replies.items(), key=lambda kv: tree_depth(kv[1]))
        rules = self.rules
        move = rules.parse_move(self.position, reply_text)
        before = self.position
        assert self.session is not None
        self.session.play_at_end(move)
        caps = self.session.game.plies[-1].captures
        self.plies_left -= 1
        self.line.append(reply_text)
        self.board.interactive = True
        self.board.show_position(rules, self.position, move, caps, before)
        self.show_task()
        moves = (self.plies_left + 1) // 2
        _set_feedback(self.feedback, lambda: ngettext("The answer: {reply}. Win in {n} more move.",
                                              "The answer: {reply}. Win in {n} more moves.", moves).format(
            reply=reply_text, n=moves), None)

    def finish(self, out: Any) -> None:
        self.solved = True
        self.board.interactive = False
        pz = self.puzzle
        assert pz is not None  # a puzzle is shown while it is being solved
        self.progress.record(pz["variant"], pz["id"], self.clean)
        self._rate(self.clean)
        _set_feedback(self.feedback, lambda: _("Solved! {result}").format(result=out.describe(self.variant)), True)
        self.update_progress()

    def restart(self) -> None:
        """Try the puzzle again from its start (a retry keeps the streak already lost)."""
        clean = self.clean
        self.load()
        self.clean = clean

    def _winning_move(self) -> tuple | None:
        if self.tree is not None and "move" in self.tree:
            return self.rules.parse_move(self.position, self.tree["move"])
        return None

    def hint(self) -> None:
        """First the piece to move, then the move itself."""
        if self.solved or not self.board.interactive:
            return
        move = self._winning_move()
        if move is None:
            return
        self.hint_level = min(2, self.hint_level + 1)
        self.clean = False  # a hinted solve is not a clean one: it neither rates as solved nor extends the streak
        g = self.rules.geometry
        if self.hint_level == 1:
            self.board.show_hint(move[0])
            _set_feedback(self.feedback, lambda: _("Hint: move the piece on {square}.").format(
                square=g.name(move[0])), None)
        else:
            self.board.show_hint(move[0], move)
            _set_feedback(self.feedback, lambda: _("Hint: play {move}.").format(move=self.rules.move_text(move)), None)

    def show_solution(self) -> None:
        """Play the rest of the solution on the board, one move at a time, from where the player
        is: the winner's moves and the defence that holds out longest."""
        pz = self.puzzle
        if pz is None or self.solved:
            return
        if self.clean:
            self.progress.broke(pz["variant"])
            self._rate(False)
        self.clean = False
        self.reply_timer.stop()
        self.board.interactive = False
        self.solution_line = []
        _set_feedback(self.feedback, _("The solution, played on the board:"), None)
        self.update_progress()
        self.solution_timer.start()

    def solution_step(self) -> None:
        """One move of the solution (see :meth:`show_solution`); at the end the line is named."""
        from tafl_desktop.ai.prover import tree_depth

        rules = self.rules
        node = self.tree or {}
        if rules.side_to_move(self.position) == self.winner:
            if "move" not in node:
                node = self._prover_tree() or {}
            text, nxt = node.get("move"), node.get("then")
        else:
            replies = node.get("replies") or {}
            text, nxt = max(replies.items(), key=lambda kv: tree_depth(kv[1])) if replies else (None, None)
        if text is None:
            self.solution_timer.stop()
            return
        move = rules.parse_move(self.position, text)
        before = self.position
        assert self.session is not None
        self.session.play_at_end(tuple(move))
        caps = self.session.game.plies[-1].captures
        self.tree = nxt
        self.plies_left -= 1
        self.line.append(text)
        self.solution_line.append(text)
        self.board.show_position(rules, self.position, move, caps, before)
        out = rules.outcome(self.position)
        line = " ".join(self.solution_line)
        if out is not None or self.plies_left <= 0:
            self.solution_timer.stop()
            self.solved = True
            result = out.describe(self.variant) if out is not None else ""
            _set_feedback(self.feedback, _("Solution: {line}. {result}").format(line=line, result=result), None)
            return
        _set_feedback(self.feedback, _("The solution, played on the board: {line}").format(line=line), None)

    def _prover_tree(self) -> dict[str, Any] | None:
        """The solution tree from the position on the board, when the player left the stored one."""
        from tafl_desktop.ai.prover import SearchBudgetExceeded, make_prover

        try:
            prover = make_prover(self.rules, self.winner, max_nodes=GUI_NODE_BUDGET)
            if not prover.wins(self.position, self.plies_left):
                return None
            prover.max_nodes = 0
            return prover.tree(self.position, self.plies_left)
        except SearchBudgetExceeded:
            return None


def retranslate(window: Any) -> None:
    """After a language switch: every open lesson and puzzle window says its texts again."""
    from PySide6.QtWidgets import QApplication

    for w in QApplication.topLevelWidgets():
        if isinstance(w, (LessonDialog, PuzzleDialog)):
            w.redisplay()

"""The Learn menu: lessons per family and the Puzzles window.

``install(window)`` adds the menu; the lessons and puzzle sets are read only when the menu opens,
so start-up pays nothing for them.  Lessons and puzzles are judged by the rules engine
(:mod:`tafl_desktop.study`); these dialogs only show positions, pass on the player's moves and
say what the engine found.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.i18n import _, ngettext

#: Positions the window's own proofs may visit (a wrong move's refutation, a second winning line).
GUI_NODE_BUDGET = 40_000
#: Delay before the computer's reply in a puzzle, so the player sees their own move land first.
REPLY_DELAY_MS = 350


def install(window: Any) -> None:
    """Add the Learn menu (before Help) to ``window``."""
    menu = QMenu(_("&Learn"), window)
    window.menuBar().insertMenu(window.help_menu.menuAction(), menu)
    window.learn_menu = menu
    window.learn_dialogs = []
    menu.aboutToShow.connect(lambda: _fill_menu(window, menu))
    act = menu.addAction(_("&Puzzles..."))  # the lessons are read when the menu first opens
    act.triggered.connect(lambda: open_puzzles(window))
    window.act_puzzles = act


def _family_label(family: str) -> str:
    from tafl_desktop.core.variants import FAMILIES

    fam = FAMILIES.get(family)
    return _(fam.label) if fam is not None else family


def _fill_menu(window: Any, menu: QMenu) -> None:
    """(Re)build the menu: a sub-menu of lessons per family, then Puzzles...  A lesson file that
    cannot be read is left out and named in the status bar, never a traceback."""
    from tafl_desktop.study.lessons import LessonError, load_lessons

    menu.clear()
    try:
        lessons = load_lessons()
    except LessonError as exc:
        lessons = []
        window.statusBar().showMessage(_("Lessons unavailable: {error}").format(error=exc), 8000)
    families: dict[str, list[Any]] = {}
    for lesson in lessons:
        families.setdefault(lesson.family, []).append(lesson)
    for family, items in families.items():
        sub = menu.addMenu(_("{family} lessons").format(family=_family_label(family)))
        sub.setObjectName(f"learn-{family}")
        for lesson in items:
            act = sub.addAction(lesson.title_text())
            act.setData(lesson.id)
            act.triggered.connect(lambda _c=False, ls=lesson: open_lesson(window, ls))
    menu.addSeparator()
    act = menu.addAction(_("&Puzzles..."))
    act.setObjectName("learn-puzzles")
    act.triggered.connect(lambda: open_puzzles(window))
    window.act_puzzles = act


def open_lesson(window: Any, lesson: Any) -> LessonDialog:
    dlg = LessonDialog(lesson, window)
    window.learn_dialogs.append(dlg)
    dlg.show()
    return dlg


def open_puzzles(window: Any) -> PuzzleDialog | None:
    from tafl_desktop.gui import dialogs
    from tafl_desktop.study.puzzles import PuzzleError, all_puzzles

    try:
        puzzles = all_puzzles()
    except PuzzleError as exc:
        dialogs.show_error(window, _("Puzzles"), str(exc))
        return None
    dlg = PuzzleDialog(puzzles, window)
    window.learn_dialogs.append(dlg)
    dlg.show()
    return dlg


def _wrap_label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    return label


def _set_feedback(label: QLabel, text: str, good: bool | None) -> None:
    color = {True: "#1b6e1b", False: "#a02020", None: "palette(text)"}[good]
    label.setStyleSheet(f"color: {color}; font-weight: bold;" if good is not None else "")
    label.setText(text)


# ----------------------------------------------------------------------------------- lessons
class LessonDialog(QDialog):
    """One lesson, step by step: the text, the board, what the engine says of each move."""

    def __init__(self, lesson: Any, parent: QWidget | None = None) -> None:
        from tafl_desktop.gui.study_board import StudyBoard

        super().__init__(parent)
        self.lesson = lesson
        self.index = 0
        self.step_done = False
        self.setWindowTitle(_("Lesson: {title}").format(title=lesson.title_text()))
        self.resize(620, 720)
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.text = _wrap_label()
        self.board = StudyBoard(self)
        self.feedback = _wrap_label()
        self.btn_solution = QPushButton(_("Show &solution"))
        self.btn_retry = QPushButton(_("&Try again"))
        self.btn_next = QPushButton(_("&Next step"))
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
            _set_feedback(self.feedback, _("This step cannot be shown: {error}").format(error=exc), False)
            self.btn_next.setEnabled(self.index + 1 < len(self.lesson.steps))
            return
        self.variant, self.rules = variant, rules
        self.heading.setText(_("{title}: step {n} of {total}").format(
            title=self.lesson.title_text(), n=self.index + 1, total=len(self.lesson.steps)))
        side = variant.side_names[int(rules.side_to_move(pos))]
        self.text.setText(self.step.instructions(variant) + "\n" +
                          _("{side} to move · {variant}").format(side=side, variant=variant.title))
        self.board.interactive = True
        self.board.show_position(rules, pos)
        _set_feedback(self.feedback, "", None)
        self.btn_next.setText(_("&Next step") if self.index + 1 < len(self.lesson.steps) else _("&Finish"))

    def on_move(self, move: tuple) -> None:
        from tafl_desktop.study.lessons import judge, translated

        verdict = judge(self.step, move)
        if verdict.ok:
            self.step_done = True
            before = self.board.position
            self.board.interactive = False
            self.board.show_position(self.rules, verdict.position, move, verdict.captures, before)
            self.btn_next.setEnabled(True)
            _set_feedback(self.feedback, translated(verdict.message), True)
        else:
            _set_feedback(self.feedback, translated(verdict.message) + " " + _("Try another move."), False)
            self.board.refresh()

    def on_illegal(self, move: tuple, why: str) -> None:
        _set_feedback(self.feedback, _("{move} is not allowed: {why}.").format(
            move=self.rules.move_text(move), why=_(why)), False)

    def show_solution(self) -> None:
        try:
            _variant, rules, pos = self.step.start()
            move = rules.parse_move(pos, self.step.solution)
        except ValueError as exc:
            _set_feedback(self.feedback, _("This step cannot be shown: {error}").format(error=exc), False)
            return
        self.board.show_hint(move[0], move)
        _set_feedback(self.feedback, _("Solution: {move}").format(move=self.step.solution), None)

    def next_step(self) -> None:
        if self.index + 1 < len(self.lesson.steps):
            self.index += 1
            self.load_step()
        else:
            self.accept()


# ----------------------------------------------------------------------------------- puzzles
class PuzzleProgress:
    """Solved puzzles and the streak per puzzle set (the preset's file), kept in QSettings."""

    def __init__(self) -> None:
        self.settings = QSettings()

    def _key(self, set_id: str, name: str) -> str:
        return f"puzzles/{set_id}/{name}"

    def solved(self, set_id: str) -> set[str]:
        value = self.settings.value(self._key(set_id, "solved"), "")
        return {s for s in str(value or "").split(",") if s}

    def streak(self, set_id: str) -> tuple[int, int]:
        def num(name: str) -> int:
            try:
                return int(self.settings.value(self._key(set_id, name), 0) or 0)
            except (TypeError, ValueError):
                return 0

        return num("streak"), num("best")

    def record(self, set_id: str, puzzle_id: str, clean: bool) -> None:
        """A solved puzzle: ``clean`` (no wrong move, no solution shown) extends the streak, else resets it."""
        solved = self.solved(set_id) | {puzzle_id}
        self.settings.setValue(self._key(set_id, "solved"), ",".join(sorted(solved)))
        streak, best = self.streak(set_id)
        streak = streak + 1 if clean else 0
        self.settings.setValue(self._key(set_id, "streak"), streak)
        self.settings.setValue(self._key(set_id, "best"), max(best, streak))
        self.settings.sync()

    def broke(self, set_id: str) -> None:
        self.settings.setValue(self._key(set_id, "streak"), 0)
        self.settings.sync()


def puzzle_rules_text(variant: Any) -> str:
    """'Rules: Brandubh, rules as in the preset' or 'Rules: Brandubh, 2 rules changed (king captured
    by, encirclement): King captured by: ...; Encirclement: yes', so a puzzle's rules are known
    before its first move."""
    from tafl_desktop.gui.variant_info import rules_summary

    text = _("Rules: {variant}, {summary}").format(variant=variant.title, summary=rules_summary(variant))
    changed = variant.changed_options()
    if changed:
        schema = variant.schema
        text += ": " + "; ".join(f"{schema[k].label}: {schema[k].value_label(v)}" for k, v in changed.items())
    return text


class PuzzleDialog(QDialog):
    """Puzzle mode: find the one winning move; the computer answers with the defence that holds
    out longest, a wrong move is explained by a defence that refutes it, and may be retried."""

    def __init__(self, puzzles: list[dict[str, Any]], parent: QWidget | None = None) -> None:
        from tafl_desktop.core.variants import presets
        from tafl_desktop.gui.study_board import StudyBoard

        super().__init__(parent)
        self.all_puzzles = puzzles
        self.families = {vid: v.family for vid, v in presets().items()}
        self.progress = PuzzleProgress()
        self.setWindowTitle(_("Puzzles"))
        self.resize(640, 780)
        self.family_box = QComboBox()
        self.family_box.addItem(_("All families"), "")
        for fam in sorted({self.families.get(p["variant"], "") for p in puzzles} - {""}):
            self.family_box.addItem(_family_label(fam), fam)
        self.level_box = QComboBox()
        self.level_box.addItem(_("Any difficulty"), 0)
        for n in range(1, 6):
            self.level_box.addItem(_("Difficulty {n}").format(n=n), n)
        self.btn_prev = QPushButton(_("&Previous"))
        self.btn_next = QPushButton(_("N&ext puzzle"))
        top = QHBoxLayout()
        for w in (self.family_box, self.level_box, self.btn_prev, self.btn_next):
            top.addWidget(w)
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15px; font-weight: bold;")
        # the rules the puzzle is proved under, shown before the first move (as the side panel does)
        self.rules_label = _wrap_label()
        self.btn_rules = QPushButton(_("&Rules..."))
        self.btn_rules.setToolTip(_("The full rules this puzzle is played under"))
        rules_row = QHBoxLayout()
        rules_row.addWidget(self.rules_label, 1)
        rules_row.addWidget(self.btn_rules)
        self.task = _wrap_label()
        self.board = StudyBoard(self)
        self.feedback = _wrap_label()
        self.progress_label = _wrap_label()
        self.btn_hint = QPushButton(_("&Hint"))
        self.btn_retry = QPushButton(_("&Try again"))
        self.btn_solution = QPushButton(_("Show &solution"))
        row = QHBoxLayout()
        for b in (self.btn_hint, self.btn_retry, self.btn_solution):
            row.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.heading)
        lay.addLayout(rules_row)
        lay.addWidget(self.task)
        lay.addWidget(self.board, 1)
        lay.addWidget(self.feedback)
        lay.addLayout(row)
        lay.addWidget(self.progress_label)
        self.family_box.currentIndexChanged.connect(self.apply_filter)
        self.level_box.currentIndexChanged.connect(self.apply_filter)
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
        self.shown: list[dict[str, Any]] = []
        self.index = 0
        self.apply_filter()

    # ---------------------------------------------------------------------------- choosing
    def apply_filter(self) -> None:
        fam = self.family_box.currentData() or ""
        level = int(self.level_box.currentData() or 0)
        self.shown = [p for p in self.all_puzzles if (not fam or self.families.get(p["variant"]) == fam)
                      and (not level or p["difficulty"] == level)]
        # unsolved puzzles first, so the Next button moves the player on
        self.shown.sort(key=lambda p: p["id"] in self.progress.solved(p["variant"]))
        self.index = 0
        self.load()

    def go(self, step: int) -> None:
        if self.shown:
            self.index = (self.index + step) % len(self.shown)
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
                self.family_box.setCurrentIndex(0)
                self.level_box.setCurrentIndex(0)
        return False

    @property
    def puzzle(self) -> dict[str, Any] | None:
        return self.shown[self.index] if self.shown else None

    def load(self) -> None:
        from tafl_desktop.study.puzzles import PuzzleError, expand_tree, puzzle_start

        self.reply_timer.stop()
        pz = self.puzzle
        for b in (self.btn_hint, self.btn_retry, self.btn_solution, self.btn_prev, self.btn_next, self.btn_rules):
            b.setEnabled(pz is not None)
        self.rules_label.setText("")
        if pz is None:
            self.heading.setText(_("No puzzle matches these filters."))
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
            self.heading.setText(_("This puzzle cannot be shown."))
            _set_feedback(self.feedback, str(exc), False)
            return
        self.position = self.start
        self.plies_left = int(pz["plies"])
        self.winner = self.rules.side_to_move(self.start)
        self.tree: dict[str, Any] | None = tree
        self.clean = True
        self.hint_level = 0
        self.solved = False
        self.line: list[str] = []
        self.heading.setText(_("Puzzle {id} · {variant} · difficulty {d}").format(
            id=pz["id"], variant=self.variant.title, d=pz["difficulty"]))
        self.rules_label.setText(puzzle_rules_text(self.variant))
        self.show_task()
        self.board.interactive = True
        self.board.show_position(self.rules, self.start)
        _set_feedback(self.feedback, "", None)
        self.update_progress()

    def show_rules(self) -> None:
        """The full rule sheet of the puzzle's rules (the preset, and any toggle the puzzle changes)."""
        from tafl_desktop.gui.rules_viewer import RulesViewer

        if self.puzzle is not None:
            RulesViewer(self.variant, self).exec()

    def show_task(self) -> None:
        """What is left to do: the winner to move and the moves to the forced end."""
        moves = (self.plies_left + 1) // 2
        side = self.variant.side_names[int(self.winner)]
        self.task.setText(ngettext("{side} to move and win in {n} move.", "{side} to move and win in {n} moves.",
                                   moves).format(side=side, n=moves))

    def update_progress(self) -> None:
        pz = self.puzzle
        if pz is None:
            self.progress_label.setText("")
            return
        set_id = pz["variant"]
        in_set = [p for p in self.all_puzzles if p["variant"] == set_id]
        solved = len(self.progress.solved(set_id) & {p["id"] for p in in_set})
        streak, best = self.progress.streak(set_id)
        self.progress_label.setText(_("{set}: solved {solved} of {total} · streak {streak} (best {best}) · "
                                      "puzzle {n} of {shown} shown").format(
            set=self.variant.title, solved=solved, total=len(in_set), streak=streak, best=best,
            n=self.index + 1, shown=len(self.shown)))

    # ---------------------------------------------------------------------------- playing
    def _prover(self) -> Any:
        from tafl_desktop.study.prover import make_prover

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
            self.position = after
            self.plies_left -= 1
            self.board.show_position(rules, after, move, caps, before)
            if out is not None:
                self.finish(out)
            else:
                self.board.interactive = False
                _set_feedback(self.feedback, _("Good: {move}. The computer replies...").format(move=text), True)
                self.reply_timer.start(REPLY_DELAY_MS)
            return
        # wrong: find the defence that refutes it, as the engine sees it
        self.clean = False
        self.progress.broke(self.puzzle["variant"])
        why = _("{move} does not force the win.").format(move=text)
        if out is not None:
            why = _("{move} ends the game the wrong way: {result}").format(move=text, result=out.describe(self.variant))
        else:
            why = self._refutation(prover, text, after) or why
        _set_feedback(self.feedback, why + " " + _("Try again."), False)
        self.board.refresh()
        self.update_progress()

    def _is_winning(self, prover: Any, text: str, after: Any, out: Any) -> bool:
        """Does the player's move keep a forced win?  The stored tree answers for its own move;
        another move is proven by a bounded search (the first move of a puzzle is unique)."""
        from tafl_desktop.study.prover import SearchBudgetExceeded

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
        from tafl_desktop.study.prover import SearchBudgetExceeded

        rules = self.rules
        try:
            for reply in rules.legal_moves(after):
                nxt = rules.play(after, reply)[0]
                reply_out = rules.outcome(nxt)
                if reply_out is not None and reply_out.winner != self.winner:
                    return _("{move} fails: {side} answer {reply}. {result}").format(
                        move=text, side=self.variant.side_names[int(self.winner.other)], reply=rules.move_text(reply),
                        result=reply_out.describe(self.variant))
                if not prover.wins(nxt, self.plies_left - 2):
                    n = max(1, (self.plies_left - 1) // 2)
                    return ngettext("{move} fails: after {reply} there is no win within {n} more move.",
                                    "{move} fails: after {reply} there is no win within {n} more moves.", n).format(
                        move=text, reply=rules.move_text(reply), n=n)
        except SearchBudgetExceeded:
            return None
        return None

    def on_illegal(self, move: tuple, why: str) -> None:
        _set_feedback(self.feedback, _("{move} is not allowed: {why}.").format(
            move=self.rules.move_text(move), why=_(why)), False)

    def computer_reply(self) -> None:
        """The defence that holds out longest, from the solution tree."""
        from tafl_desktop.study.prover import tree_depth

        node = self.tree or {}
        replies = node.get("replies") or {}
        if not replies:
            return
        reply_text, self.tree = max(replies.items(), key=lambda kv: tree_depth(kv[1]))
        rules = self.rules
        move = rules.parse_move(self.position, reply_text)
        before = self.position
        self.position, caps = rules.play(before, move)
        self.plies_left -= 1
        self.line.append(reply_text)
        self.board.interactive = True
        self.board.show_position(rules, self.position, move, caps, before)
        self.show_task()
        side = self.variant.side_names[int(self.winner.other)]
        moves = (self.plies_left + 1) // 2
        _set_feedback(self.feedback, ngettext("{side} answer {reply}. Win in {n} more move.",
                                              "{side} answer {reply}. Win in {n} more moves.", moves).format(
            side=side, reply=reply_text, n=moves), None)

    def finish(self, out: Any) -> None:
        self.solved = True
        self.board.interactive = False
        self.progress.record(self.puzzle["variant"], self.puzzle["id"], self.clean)
        _set_feedback(self.feedback, _("Solved! {result}").format(result=out.describe(self.variant)), True)
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
        g = self.rules.geometry
        if self.hint_level == 1:
            self.board.show_hint(move[0])
            _set_feedback(self.feedback, _("Hint: move the piece on {square}.").format(square=g.name(move[0])), None)
        else:
            self.board.show_hint(move[0], move)
            _set_feedback(self.feedback, _("Hint: play {move}.").format(move=self.rules.move_text(move)), None)

    def show_solution(self) -> None:
        pz = self.puzzle
        if pz is None:
            return
        self.clean = False
        self.progress.broke(pz["variant"])
        _set_feedback(self.feedback, _("Solution: {line}").format(line=" ".join(pz["solution"])), None)
        self.update_progress()

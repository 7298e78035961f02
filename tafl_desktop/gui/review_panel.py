"""Game review in the window: every position searched in the study worker, each move classed.

"Review Game" first asks how hard to search (:class:`~tafl_desktop.gui.review_dialog.ReviewDialog`:
the standard depth, a depth, or a number of positions per move: a fixed quality, so the same game
always gets the same review), then sends the game to the worker process
(:mod:`tafl_desktop.ai.analysis_service`), which evaluates its positions one by one; a progress bar
under the move list counts them and a Cancel button stops the review, keeping the evaluations made
so far, so "Resume Review" goes on from there.  At the end (and as it goes) the moves are classed
(:mod:`tafl_desktop.ai.review`), marked in the move list, summed up per side with each side's
accuracy, and drawn as an evaluation graph (the same chart function as ``tafl-desktop review
--plot``) in the sides' names and colours; clicking the graph shows that ply, and at an inaccuracy,
a mistake or a blunder the board draws the better move as an arrow.  **Learn from your mistakes**
then turns the player's own such moves into exercises (:mod:`tafl_desktop.gui.mistakes`).
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from tafl_desktop.gui.board_overlays import BETTER_COLOUR, Arrow, Overlay
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext, pgettext

#: The graph is redrawn at most this often while the review runs (s): drawing costs milliseconds.
REDRAW_EVERY = 1.0
#: The summary table's column heads: the classes' usual signs (the tooltip spells them out).
SUMMARY_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: Classes whose better move the board shows as an arrow.
ARROW_CLASSES = ("inaccuracy", "mistake", "blunder")


class ReviewPanel(QWidget):
    """Progress, summary and evaluation graph of a game review; lives under the move list."""

    def __init__(self, window: Any, client: Any) -> None:
        super().__init__(window.panel)
        self.window_ = window
        self.session = window.session
        #: The board (its token: the better-move arrow belongs to the game reviewed).
        self.controller = window.controller
        self.client = client
        #: The budget of the review shown (None until one is chosen); tests may set it to skip the
        #: dialog's question.
        self.budget: Any = None
        #: The budget of the evaluations in ``evals`` (a review resumes only with the same one).
        self._evals_budget: Any = None
        #: The question asked before a review (kept while it is open: tests answer it).
        self.dialog: Any = None
        self.trainer: Any = None
        #: What is reviewed: the session's tree, the nodes of the line reviewed, and that line's
        #: rules, start position and moves (a snapshot: the line on screen may change meanwhile).
        self._tree: Any = None
        #: The game (and board) reviewed: the better-move arrow carries it, so the board refuses
        #: it once another game is loaded.
        self._token: Any = None
        self._nodes: list[Any] = []
        self._rules: Any = None
        self._start: Any = None
        self._moves: list[tuple[int, ...]] = []
        self._marks_pending = False
        self.evals: dict[int, dict[str, Any]] = {}
        #: The latest classing: {"plies": [...], "summary": {...}} (tests read it).
        self.review: dict[str, Any] | None = None
        self.running = False
        self._drawn_at = 0.0
        self._canvas: Any = None
        self._figure: Any = None
        self._axes: Any = None
        self._cursor: Any = None

        self.progress = QProgressBar()
        tr(self.progress, "setAccessibleName", "Review progress")
        tr(self.progress, "setFormat", "%v of %m positions")
        self.cancel_button = tr(QPushButton(), "setText", "Cancel")
        tr(self.cancel_button, "setToolTip", "Stop the review; what it found so far is kept")
        self.cancel_button.clicked.connect(self.cancel)
        self.resume_button = tr(QPushButton(), "setText", "Resume Review")
        self.resume_button.clicked.connect(lambda: self.start(self.budget))
        tr(self.resume_button, "setAccessibleDescription", "Go on with the review from where it was stopped")
        self.resume_button.hide()
        self.learn_button = tr(QPushButton(), "setText", "Learn from your mistakes")
        tr(self.learn_button, "setToolTip", "Your inaccuracies, mistakes and blunders as exercises: find a better move")
        self.learn_button.clicked.connect(self.learn)
        self.learn_button.hide()
        self.puzzles_button = tr(QPushButton(), "setText", "Puzzles from this review")
        tr(self.puzzles_button, "setToolTip", "Where the engine's better move is the only start of a forced win, the "
           "position becomes a puzzle in your set (Puzzles, \"My games\")")
        self.puzzles_button.clicked.connect(self.make_puzzles)
        self.puzzles_button.hide()
        #: The proofs of "Puzzles from this review" while they run.
        self.puzzle_thread: Any = None
        row = QHBoxLayout()  # the bar has the panel's whole width for "12 von 34 Stellungen"
        row.setContentsMargins(0, 0, 0, 0)
        row.addStretch(1)
        row.addWidget(self.cancel_button)
        row.addWidget(self.resume_button)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        tr(self.summary, "setAccessibleName", "Review summary")
        self.graph_box = QVBoxLayout()
        self.graph_box.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.progress)
        layout.addLayout(row)
        layout.addLayout(self.graph_box)
        layout.addWidget(self.summary)
        layout.addWidget(self.learn_button)
        layout.addWidget(self.puzzles_button)  # one above the other: the panel is narrow
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.hide()
        window.events.changed.connect(self._session_changed)

    # ------------------------------------------------------------------------------ running
    def ask(self) -> None:
        """Game > Review Game: ask how hard to search, then review (the question is window-modal
        but does not block: its answer starts the review)."""
        from tafl_desktop.ai.engine import engine_name
        from tafl_desktop.gui.review_dialog import ReviewDialog

        c = self.session
        if not c.game.plies:
            self.window_.statusBar().showMessage(_("There is no move to review yet."), 5000)
            return
        if self.dialog is not None:
            self.dialog.raise_()
            return
        dialog = ReviewDialog(self.window_, c.rules, engine_name(c.rules), self.budget)
        self.dialog = dialog

        def answered(code: int) -> None:
            self.dialog = None
            if code == dialog.DialogCode.Accepted:
                self.start(dialog.budget())
            dialog.deleteLater()
        dialog.finished.connect(answered)
        dialog.open()

    def start(self, budget: Any = None) -> None:
        """Review the line on screen (the game, or a variation shown) with ``budget`` (the last
        one, else the standard one), resuming a stopped review of the same moves and budget."""
        from tafl_desktop.ai.engine import engine_name
        from tafl_desktop.ai.review import default_budget

        c = self.session
        game = c.game
        moves = [tuple(p.move) for p in game.plies]
        if not moves:
            self.window_.statusBar().showMessage(_("There is no move to review yet."), 5000)
            return
        budget = budget or self.budget or default_budget(game.rules, engine_name(game.rules))
        nodes = c.line_nodes()
        if not (self._intact() and _same(nodes[: len(self._nodes)], self._nodes)) or budget != self._evals_budget:
            self.evals = {}  # another game, line or budget, or moves taken back: start afresh
        self.budget = self._evals_budget = budget
        self._tree, self._nodes, self._rules, self._start, self._moves = c.tree, nodes, game.rules, game.start, moves
        self._token = self.controller.token
        total = len(moves) + 1
        self.progress.setRange(0, total)
        self.progress.setValue(len(self.evals))
        self.running = True
        self.cancel_button.show()
        self.resume_button.hide()
        self.learn_button.hide()
        self.puzzles_button.hide()
        self.show()
        self.client.start(self, "review", game, 0, 3600.0 + 60.0 * total,
                          {"moves": [list(m) for m in moves], "budget": budget.to_json(),
                           "known": {str(k): v for k, v in self.evals.items()}},
                          self._info, self._done)

    def cancel(self) -> None:
        """Stop the review, keep its evaluations (Resume Review goes on from them)."""
        if self.client.owner is self:
            self.client.cancel()
        self._stopped(ngettext("Review stopped: {done} of {total} position evaluated.",
                               "Review stopped: {done} of {total} positions evaluated.", len(self._moves) + 1).format(
            done=len(self.evals), total=len(self._moves) + 1))

    def preempted(self) -> None:
        """Another study request (the analysis board) took the worker: stop, keep the evaluations."""
        self._stopped(ngettext("Review paused for the analysis board: {done} of {total} position evaluated.",
                               "Review paused for the analysis board: {done} of {total} positions evaluated.",
                               len(self._moves) + 1).format(
            done=len(self.evals), total=len(self._moves) + 1))

    def _stopped(self, text: str) -> None:
        self.running = False
        self.cancel_button.hide()
        self.resume_button.setVisible(len(self.evals) < len(self._moves) + 1)
        missed = bool(self.exercises())
        self.learn_button.setVisible(missed)
        self.puzzles_button.setVisible(missed)
        self.window_.statusBar().showMessage(text, 8000)

    def _info(self, info: dict[str, Any]) -> None:
        if "evals" not in info:
            return
        self.evals = {int(k): v for k, v in info["evals"].items()}
        self.progress.setValue(len(self.evals))
        if time.monotonic() - self._drawn_at >= REDRAW_EVERY:
            self._classify()

    def _done(self, result: Any) -> None:
        if getattr(result, "error", ""):
            from tafl_desktop.gui.computer import first_line

            self._stopped(_("The review stopped: {why}").format(why=first_line(result.error)))
            return
        self.evals = {int(k): v for k, v in result.data.get("evals", {}).items()}
        self.progress.setValue(len(self.evals))
        self._classify()
        self._stopped(_("Review finished."))

    # ------------------------------------------------------------------------------ results
    def _classify(self) -> None:
        from tafl_desktop.ai.review import classify, game_positions

        if self._rules is None:
            return
        positions = game_positions(self._rules, self._start, self._moves)
        self.review = classify(self._rules, positions, self._moves, self.evals)
        self._marks_pending = True
        self._mark_moves()
        self._show_summary()
        self._draw()
        self._drawn_at = time.monotonic()

    def _mark_moves(self) -> None:
        """Mark the reviewed moves in the move list (once the reviewed line is the one on screen:
        the list numbers the moves of that line)."""
        if self._marks_pending and self.review is not None and self._on_screen():
            self.window_.panel.moves.model.set_annotations({p["ply"]: p["class"] for p in self.review["plies"]},
                                                           self.reasons())
            self._marks_pending = False

    def reasons(self) -> dict[int, str]:
        """What each inaccuracy, mistake and blunder allowed, by ply, in one sentence ("Loses a
        piece: g4-h4 takes h5"): the facts "Learn from your mistakes" explains, said where the
        move is marked (status line, move-list tip)."""
        from tafl_desktop.ai.mistakes import exercises_from_review, explain
        from tafl_desktop.analysis.words import allowed_words

        if self.review is None or self._rules is None:
            return {}
        out = {}
        for ex in exercises_from_review(self._rules, self._start, self._moves, self.evals, self.review, [0, 1]):
            try:
                out[ex.ply] = allowed_words(self._rules.variant, ex, explain(self._rules, ex))
            except (ValueError, KeyError):  # an engine line that does not replay: the mark alone
                continue
        return out

    def _show_summary(self) -> None:
        from tafl_desktop.ai.review import CLASSES
        from tafl_desktop.core.marks import integer

        assert self.review is not None
        variant = self._rules.variant
        heads = {"best": pgettext("review table heading, short", "Best"),
                 "good": pgettext("review table heading, short", "Good"), **SUMMARY_SIGNS}
        head = "".join(f"<th align='center'>{heads[c]}</th>" for c in CLASSES)  # over its numbers
        rows = ""
        accuracies = []
        for side in (0, 1):
            agg = self.review["summary"]["sides"][variant.side_key(side)]
            cells = "".join(f"<td align='center'>{integer(agg[c])}</td>" for c in CLASSES)
            rows += f"<tr><td>{variant.side_names[side]}</td>{cells}</tr>"
            if agg.get("accuracy") is not None:
                accuracies.append(_("{side} {value} %").format(side=variant.side_names[side],
                                                               value=integer(round(agg["accuracy"]))))
        tr(self.summary, "setToolTip", "Moves of each side by class: best, good, inaccuracies (?!), mistakes (?) "
                                  "and blunders (??); accuracy as lichess computes it from the winning chance "
                                  "each move gave away")
        depth = self._evals_budget.to_json() if self._evals_budget is not None else {}
        quality = (_("Depth {n}").format(n=integer(depth["depth"])) if "depth" in depth else
                   ngettext("{n} position per move",
                            "{n} positions per move",
                            int(depth["nodes"])).format(n=integer(depth["nodes"])) if "nodes" in depth else "")
        # one side a line: "Accuracy: Attackers 96 % · Defenders 14 %" wrapped mid-name in the narrow panel
        accuracy = _("Accuracy: {sides}").format(sides="<br>\u2003".join(accuracies)) if accuracies else ""
        # the side panel is narrow: the table fits it in every language (the ?/?? columns stay)
        self.summary.setText(f"<table cellspacing='0' cellpadding='2'><tr><th>{quality}</th>{head}</tr>{rows}"
                             f"</table><b>{accuracy}</b>")

    def redisplay(self) -> None:
        """Show the finished review's table and graph again, in the language now in use."""
        if self.review is not None and not self.running and self._intact():
            self._show_summary()
            self._draw()

    def _colours(self) -> tuple[str, str]:
        from tafl_desktop.analysis.charts.review_graph import DEFAULT_COLOURS

        theme = getattr(self.window_.panel, "_theme", None)
        if theme is None:
            return DEFAULT_COLOURS
        from tafl_desktop.gui.piece_painter import face_colour

        kinds = self._rules.variant.traits.emblems
        return tuple(face_colour(k, theme).name() for k in kinds)  # type: ignore[return-value]

    def _ensure_canvas(self) -> None:
        if self._canvas is not None:
            return
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure

        self._figure = Figure(figsize=(3, 1.9), dpi=100, layout="constrained")
        self._canvas = FigureCanvasQTAgg(self._figure)
        # tall enough to read a swing at a glance (issue 36: 80 pixels of curve were not)
        self._canvas.setMinimumHeight(150)
        self._canvas.setMaximumHeight(200)
        tr(self._canvas, "setToolTip", "Who was better after each move; click to see that position")
        tr(self._canvas, "setAccessibleName", "Evaluation graph")
        self._canvas.mpl_connect("button_press_event", self._graph_clicked)
        self.graph_box.addWidget(self._canvas)
        self._canvas.show()  # at once: a layout shows a new child only at the next turn of the event loop

    def _draw(self) -> None:
        from tafl_desktop.analysis.charts.review_graph import draw_review

        assert self.review is not None
        self._ensure_canvas()
        sides = self._rules.variant.side_names
        self._axes = draw_review(self._figure, self.review["plies"], sides, self._colours(), legend=False)
        self._axes.set_xlim(0, max(1, len(self._moves)))
        self._cursor = self._axes.axvline(self.session.view_ply, color="#1f5fbf", linewidth=1.2)
        self._canvas.draw_idle()

    def ply_at_x(self, x: float) -> int:
        """The ply a click at graph coordinate ``x`` shows."""
        return max(0, min(len(self._moves), round(x)))

    def _graph_clicked(self, event: Any) -> None:
        if event.inaxes is None or event.xdata is None or not self._intact():
            return
        ply = self.ply_at_x(event.xdata)
        c = self.session
        if self._on_screen():
            c.goto(ply)
        else:  # a variation is on screen: back to the reviewed line at that move
            c.show_node(self._nodes[ply - 1] if ply else c.tree.root)

    # ------------------------------------------------------------------------------ following the game
    def _intact(self) -> bool:
        """Is the reviewed line still in the session's tree (same game, no move deleted)?"""
        if self._tree is None or self.session.tree is not self._tree or self.controller.token != self._token:
            return False
        return all(n.parent is not None and any(ch is n for ch in n.parent.children) for n in self._nodes)

    def _on_screen(self) -> bool:
        """Is the reviewed line (the start of) the line on screen?"""
        return _same(self.session.line_nodes()[: len(self._nodes)], self._nodes)

    def reviewed_ply(self) -> int | None:
        """The reviewed line's ply of the position shown, None when it is off that line."""
        c = self.session
        if c.view_ply == 0:
            return 0
        node = c.viewed_node()
        return next((i + 1 for i, n in enumerate(self._nodes) if n is node), None)

    def _session_changed(self) -> None:
        if self._tree is None:
            return
        if not self._intact():
            self._forget()
            return
        self._mark_moves()
        ply = self.reviewed_ply()
        if self._cursor is not None:
            self._cursor.set_visible(ply is not None)
            if ply is not None:
                self._cursor.set_xdata([ply, ply])
            self._canvas.draw_idle()
        # after the window's own refresh of the board: then the arrow goes on top of it
        QTimer.singleShot(0, self._show_better_move)

    def better_move(self, ply: int) -> tuple[tuple[int, ...], str] | None:
        """The engine's move instead of ``ply`` (as move and text) if ``ply`` was an inaccuracy,
        a mistake or a blunder."""
        if self.review is None:
            return None
        entry = next((p for p in self.review["plies"] if p["ply"] == ply), None)
        if entry is None or entry["class"] not in ARROW_CLASSES:
            return None
        best = self.evals.get(ply - 1, {}).get("best_move")
        return (tuple(best), entry["best"]) if best else None

    def _show_better_move(self) -> None:
        board = self.window_.board
        ply = self.reviewed_ply()
        better = self.better_move(ply) if ply is not None and self._intact() else None
        arrow = tuple(s for s in better[0] if s >= 0) if better is not None else ()
        if better is None or self.review is None or len(arrow) < 2:
            board.set_overlay("review", None)
            return
        board.set_overlay("review", Overlay(self._token, arrows=(Arrow(arrow, BETTER_COLOUR, 1.0),)))
        entry = next(p for p in self.review["plies"] if p["ply"] == ply)
        sentence = {"inaccuracy": _("{move} was an inaccuracy: {better} was better (the green arrow)."),
                    "mistake": _("{move} was a mistake: {better} was better (the green arrow)."),
                    "blunder": _("{move} was a blunder: {better} was better (the green arrow).")}[entry["class"]]
        why = self.reasons().get(ply, "") if ply is not None else ""
        self.window_.statusBar().showMessage(" ".join(filter(None, (
            sentence.format(move=entry["move"], better=better[1]), why))), 8000)

    # ------------------------------------------------------------------------------ exercises
    def exercises(self) -> list[Any]:
        """The player's own inaccuracies, mistakes and blunders of the review shown, as exercises
        (the sides played by people; both when both or neither are)."""
        from tafl_desktop.ai.mistakes import exercises_from_review

        if self.review is None or self._rules is None:
            return []
        humans = [i for i, p in enumerate(self.session.specs) if getattr(p, "is_human", True)]
        sides = humans if len(humans) == 1 else [0, 1]
        return exercises_from_review(self._rules, self._start, self._moves, self.evals, self.review, sides)

    def learn(self) -> None:
        """Open "Learn from your mistakes" on this review's exercises."""
        from tafl_desktop.gui.mistakes import MistakesTrainer

        found = self.exercises()
        if not found:
            self.window_.statusBar().showMessage(_("No inaccuracy, mistake or blunder to learn from."), 5000)
            return
        if self.trainer is not None:
            self.trainer.close()
        self.trainer = MistakesTrainer(self.window_, self.client, self._rules, found, self._evals_budget)
        self.trainer.show()

    def make_puzzles(self) -> None:
        """Turn this review's missed wins into puzzles of the player's set (off the window's thread)."""
        from tafl_desktop.gui.review_puzzles import make_review_puzzles

        if self.puzzle_thread is None:
            make_review_puzzles(self)

    def shutdown(self) -> None:
        """The window closes: end the puzzle proofs under way."""
        from tafl_desktop.gui.review_puzzles import stop_review_puzzles

        stop_review_puzzles(self)

    def _forget(self) -> None:
        """The game changed under the review: drop its marks and graph."""
        if self.running and self.client.owner is self:
            self.client.cancel()
        self.running = False
        self._tree, self._nodes, self._rules, self._start, self._moves = None, [], None, None, []
        self._token = None
        self.evals, self.review, self._marks_pending = {}, None, False
        self.window_.panel.moves.model.set_annotations({})
        self.window_.board.set_overlay("review", None)
        self.learn_button.hide()
        self.puzzles_button.hide()
        self.hide()


def _same(a: list[Any], b: list[Any]) -> bool:
    """The same nodes (by identity) in the same order."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))

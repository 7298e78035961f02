"""The game session: the tree of moves and the node shown, the players, the clock, the tags, the
file and its saved state; one ``load()`` for every way a game arrives, undo and redo on the tree.

The one history is the :class:`~tafl_desktop.core.game_tree.GameTree` (python-chess keeps its
game tree the same way).  The session holds two cursors into it: the *end* of the line on screen
(where the game goes on: a move played there extends it) and the *node shown* on that line.
:attr:`game` is that line as a :class:`~tafl_desktop.core.game.Game` (for repetition counts and
the outcome), derived from the tree and kept in step by the few methods that move the end.
Undo moves the end back to its parent and remembers the node it left, so redo goes forward along
the same move; a new move forgets what was undone.

Views (the window, its side panel and move list, the clock, the sounds, the analysis and review
panels, lesson and puzzle boards) subscribe to the session's events and read its state; none of
them keeps a history of its own.  Sentences for the player (the status line) are made here, in
the variant's side names, through the translation layer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.clock import GameClock, ThinkPlan, TimeControl
from tafl_desktop.core.game import Game, Move, Outcome, Ply, Position, Rules, Side
from tafl_desktop.core.game_tree import Node
from tafl_desktop.core.record_limits import comment_refusal, move_refusal, promotion_refusal
from tafl_desktop.core.side_words import sentence
from tafl_desktop.game_loop import Reply, judge
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.engine import ClockReport, EngineHub, TurnFailure, TurnLimits, TurnRequest
from tafl_desktop.session.events import Event, Signal0
from tafl_desktop.session.player import Player, make_player
from tafl_desktop.session.players import PlayerSpec
from tafl_desktop.session.source import GameSource

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

#: The move that ends a turn early (Dablot's action points).
END_TURN: Move = ()
#: Separator between the parts of a move made by several pieces (Dablot's ambush).
SEP = -1
#: Record tags of the clock, in OpenTafl's names.
TAG_CONTROL = "time-control"
TAG_REMAINING = "time-remaining"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def split_captures(rules: Rules[Position], before: Position, ply: Ply[Position]) -> tuple[list[int], list[int]]:
    """(enemy pieces taken, the mover's own pieces lost) by ``ply`` played from ``before``: under
    strict custodian a piece that stops between two enemies dies by its own move, and an Asalto
    officer that fails to capture is huffed."""
    pieces = rules.pieces(before)
    mover = int(rules.side_to_move(before))
    side_of = rules.variant.traits.piece_side
    # a captured square that was empty before the move is where the moving piece stopped
    lost = [s for s in ply.captures if s not in pieces or side_of(pieces[s]) == mover]
    taken = [s for s in ply.captures if s not in lost]
    return taken, lost


def move_cell_text(rules: Rules[Position], before: Position, ply: Ply[Position]) -> str:
    """A move as the move list shows it: its notation, then (in families whose records list
    captures, as Tafl's do) the squares it took, ``e1-e5 x e6``; a piece the mover lost by its own
    move is named apart, never as a capture it made (strict custodian: ``c4-c2 (lost c2)``)."""
    text = rules.move_text(ply.move)
    if not ply.captures or not rules.variant.traits.captures_in_notation:
        return text
    g = rules.variant.geometry
    taken, lost = split_captures(rules, before, ply)
    if taken:
        text += " x" + ",".join(g.name(s) for s in taken)
    if lost:
        text = _("{move} (lost {squares})").format(move=text, squares=",".join(g.name(s) for s in lost))
    return text


class GameSession:
    """One game being played or studied, with everything that belongs to it.

    ``now`` is the clock's time source (tests hand in a fake one); ``defer`` runs a callable
    later on the owner's event loop (the window passes a zero-delay timer), so a computer's
    answer is applied outside the engine's own callback."""

    def __init__(self, source: GameSource, engines: EngineHub | None = None,
                 now: Callable[[], float] = time.monotonic,
                 defer: Callable[[Callable[[], None]], None] | None = None) -> None:
        # ------------------------------------------------------------------ events
        #: Anything a view shows may have changed.
        self.changed = Signal0()
        #: A sentence for the status line.
        self.message: Event[str] = Event()
        #: A move to animate (played, replayed, or stepped to).
        self.moved: Event[Move] = Event()
        #: The live end went one move forward (a move played, or replayed by redo; not a step
        #: through the moves): the clocks and the sounds react.
        self.played: Event[Ply[Position]] = Event()
        #: The game on the main line ended (once per ending).
        self.finished: Event[Outcome] = Event()
        #: A game was loaded (new, opened, imported, pasted...).
        self.loaded: Event[GameSource] = Event()
        self.thinking_changed: Event[bool] = Event()
        self.computer_failed: Event[str] = Event()
        self.computer_progress: Event[Any] = Event()
        #: The side the computer is about to play (before its search starts).
        self.computer_to_move: Event[int] = Event()

        self.now = now
        self._defer = defer or (lambda fn: fn())
        #: The back-ends of the computer and engine players (none unless the owner gives them).
        self.engines = engines if engines is not None else EngineHub()
        #: The computer waits while paused (and the clocks stand still).
        self.paused = False
        #: True while a computer side's search is out.
        self.thinking = False
        self._generation = 0
        self._pending_message = ""
        self._load(source)

    # ======================================================================== loading
    def load(self, source: GameSource) -> None:
        """Make ``source`` the game: its tree, players, clock, tags, file and saved state.  The
        one entry point for every way a game arrives."""
        self._cancel_turn()
        self.engines.end_game()
        self._load(source)
        self.loaded.emit(source)
        self.changed.emit()
        self._maybe_start_computer()

    def _load(self, source: GameSource) -> None:
        self.source = source
        self.origin = source.origin
        self.tree = source.tree
        #: A record may name a computer player this installation does not have: a human plays it.
        self.specs: tuple[PlayerSpec, PlayerSpec] = tuple(  # type: ignore[assignment]
            p if self.engines.can_play(p.kind) else PlayerSpec() for p in source.players)
        self.players: tuple[Player, Player] = (make_player(self.specs[0], self.engines),
                                               make_player(self.specs[1], self.engines))
        self.tags: dict[str, str] = source.record_tags()
        self.path = source.path
        self.clock_problem = ""
        self.clock = self._clock_for(source)
        self._end = self.tree.root
        for node in self.tree.main_line():
            self._end = node
        if source.end is not None:
            self._end = source.end
        self._shown = self._end
        self._redo: list[Node[Position]] = []
        self._game = self.tree.game_of(self.tree.path(self._end))
        self._line: list[Node[Position]] | None = None
        self._saved: tuple[int, Node[Position]] | None = (self.tree.revision, self._end) if source.saved else None
        self._sync_clock()

    def _clock_for(self, source: GameSource) -> GameClock | None:
        """The game's clock: a new one for a chosen time control, else the record's own clocks
        (its ``time-control`` and ``time-remaining`` tags), else none."""
        if source.time_control is not None:
            return GameClock(source.time_control, self.now)
        control_text = source.tags.get(TAG_CONTROL)
        if not control_text:
            return None
        try:
            control = TimeControl.parse(control_text)
            remaining = source.tags.get(TAG_REMAINING)
            return GameClock.restore(control, remaining, self.now) if remaining else GameClock(control, self.now)
        except ValueError as exc:
            self.clock_problem = _("The saved clocks could not be read ({problem}): this game goes on without "
                                   "clocks.").format(problem=exc)
            return None

    # ======================================================================== reading
    @property
    def game(self) -> Game[Position]:
        """The line on screen up to its live end, as a Game (repetition counts, outcome)."""
        return self._game

    @property
    def rules(self) -> Rules[Position]:
        return self.tree.rules

    @property
    def variant(self) -> Variant:
        return self.tree.rules.variant

    @property
    def sides(self) -> tuple[str, str]:
        return self.variant.side_names

    def line_nodes(self) -> list[Node[Position]]:
        """The tree's nodes of the line on screen, from the first move to the live end."""
        if self._line is None:
            self._line = self.tree.path(self._end)
        return self._line

    @property
    def end_node(self) -> Node[Position]:
        """The live end of the line on screen."""
        return self._end

    def viewed_node(self) -> Node[Position]:
        """The tree node of the position shown."""
        return self._shown

    @property
    def view_ply(self) -> int:
        """The position shown, counted in moves from the start (0 = the start position)."""
        return self._shown.depth

    @property
    def is_live(self) -> bool:
        return self._shown is self._end

    @property
    def viewed_position(self) -> Position:
        return self.tree.position(self._shown)

    def side_to_move(self) -> Side:
        """The side to move in the position shown."""
        return self.rules.side_to_move(self.viewed_position)

    def live_side(self) -> Side:
        """The side to move at the live end."""
        return self.rules.side_to_move(self._game.position)

    def human_to_move(self) -> bool:
        return self.players[int(self.live_side())].is_human

    def computer_to_play(self) -> bool:
        """Is it a computer side's turn in a game still going on?"""
        return self._game.outcome is None and not self.human_to_move()

    def has_computer(self) -> bool:
        return not all(p.is_human for p in self.players)

    def can_pause(self) -> bool:
        """Pause is offered when something runs by itself: a computer player or a clock."""
        return self.has_computer() or self.clock is not None

    @property
    def can_undo(self) -> bool:
        return self._end is not self.tree.root

    @property
    def can_redo(self) -> bool:
        return bool(self._redo) and self._redo[-1].parent is self._end and \
            any(c is self._redo[-1] for c in self._end.children)

    @property
    def modified(self) -> bool:
        """Does the game hold moves, variations, comments or an ending not saved, or does the
        line on screen end elsewhere than when it was saved (moves taken back)?"""
        return self._saved != (self.tree.revision, self._end)

    def play_game(self) -> Game[Position]:
        """The game a move made now continues: the live line, or the line up to the position
        shown (with its own history, for repetition)."""
        if self.is_live:
            return self._game
        return self.tree.game_at(self._shown)

    def check(self, move: Move) -> str | None:
        """None if ``move`` may be played at the position shown, else a sentence saying why not."""
        return self.play_game().check(move)

    # ======================================================================== playing
    def play(self, move: Move) -> bool:
        """Play ``move`` at the position shown: at the live end it continues the game; earlier it
        follows the line when it is the line's next move, shows the variation that has it, or
        starts a new variation.  False (and a sentence saying why) when it is not legal there."""
        reason = self.check(move)
        if reason is not None:
            self.message.emit(_("{move} is not allowed: {reason}.").format(move=self.rules.move_text(move),
                                                                          reason=reason))
            return False
        if self._refused(self._shown, move):
            return False
        if self.is_live:
            self._play_live(move)
        else:
            self._play_from_view(move)
        return True

    def _refused(self, parent: Node[Position], move: Move) -> bool:
        """True (and a sentence) when the game may not keep ``move`` after ``parent``: every game
        must stay one that can be saved and opened again, so the limits of
        ``core.record_limits`` are kept as the game grows, not found out when it is saved."""
        why = move_refusal(self.tree, parent, move)
        if why is None:
            return False
        self.message.emit(_("{move} is not played: {reason}.").format(move=self.rules.move_text(move), reason=why))
        self.changed.emit()
        return True

    def play_at_end(self, move: Move) -> bool:
        """Play ``move`` at the live end, whatever position is shown (typed moves, the computer)."""
        reason = self._game.check(move)
        if reason is not None:
            self.message.emit(_("{move} is not allowed: {reason}.").format(move=self.rules.move_text(move),
                                                                          reason=reason))
            return False
        if self._refused(self._end, move):
            return False
        self.goto(len(self._game.plies))
        self._play_live(move)
        return True

    def _play_live(self, move: Move) -> None:
        side = self.live_side()
        before = self._game.position
        ply = self._game.play(move)
        node = self.tree.add(self._end, ply)
        self._set_end(node, node)
        self._redo.clear()
        self._press_clock(side)
        self.message.emit(self._move_sentence(side, move, before, ply))
        self.played.emit(ply)
        self.moved.emit(move)
        self._after_change()
        outcome = self._game.outcome
        if outcome is not None:
            if self.tree.is_main(node):
                self._game_over(outcome)
            else:
                self.message.emit(_("This variation ends: {outcome}").format(outcome=self.describe(outcome)))
        else:
            self._maybe_start_computer()

    def _play_from_view(self, move: Move) -> None:
        line = self.line_nodes()
        ply = self.view_ply
        if ply < len(line) and line[ply].move == move:  # the line's own next move: step forward
            self._shown = line[ply]
            self.moved.emit(move)
            self._after_change()
            return
        base = self._shown
        known = base.child(move)
        side = self.rules.side_to_move(self.tree.position(base))
        text, one = self.rules.move_text(move), self.variant.side_number(side)
        if known is None:
            known = self.tree.add(base, self.tree.game_at(base).play(move))
            note = ngettext("{side} played {move}: a new variation.", "{side} played {move}: a new variation.", one)
        elif self.tree.is_main(known):
            note = ngettext("{side} played {move}, as in the main line.", "{side} played {move}, as in the main line.",
                            one)
        else:
            note = ngettext("{side} played {move}, as in a variation.", "{side} played {move}, as in a variation.",
                            one)
        self._pending_message = self._about(side, note, move=text)
        self.moved.emit(move)
        self.show_node(known)

    def _about(self, side: Side | int, text: str, **fields: Any) -> str:
        """``text`` (a sentence whose subject is ``{side}``) with the side written as a subject
        ("The geese", "Der Fuchs", "ræven"), its first letter a capital."""
        return sentence(text.format(side=self.variant.side_subject(side), **fields))

    def _move_sentence(self, side: Side, move: Move, before: Position, ply: Ply[Position]) -> str:
        """The status line after a move, in the variant's side names: who played what, and what
        it took (or what the mover lost, for a self-capture).  The side is the sentence's subject
        and its verb agrees with it (``Variant.side_number``: the fox, one piece, or the geese)."""
        one = self.variant.side_number(side)
        if move == END_TURN:
            return self._about(side, ngettext("{side} ended the turn.", "{side} ended the turn.", one))
        g = self.variant.geometry
        taken, lost = split_captures(self.rules, before, ply)
        text = self.rules.move_text(move)
        squares = ", ".join(g.name(s) for s in lost)
        if lost and not taken and not self.variant.traits.custodial:  # e.g. a huffed Asalto officer
            return self._about(side, ngettext("{side} played {move}, and lost their own piece on {squares}.",
                                              "{side} played {move}, and lost their own pieces on {squares}.",
                                              len(lost)), move=text, squares=squares)
        if lost and not taken:
            return self._about(side, ngettext("{side} played {move}, and lost their own piece on {squares}: it "
                                              "stopped between two enemies.",
                                              "{side} played {move}, and lost their own pieces on {squares}: they "
                                              "stopped between enemies.",
                                              len(lost)), move=text, squares=squares)
        if taken and lost:
            return self._about(side, ngettext("{side} played {move}, capturing on {taken}, and lost their own piece "
                                              "on {lost}.",
                                              "{side} played {move}, capturing on {taken}, and lost their own piece "
                                              "on {lost}.", one),
                               move=text, taken=", ".join(g.name(s) for s in taken), lost=squares)
        if taken:
            return self._about(side, ngettext("{side} played {move}, capturing on {squares}.",
                                              "{side} played {move}, capturing on {squares}.", one),
                               move=text, squares=", ".join(g.name(s) for s in taken))
        return self._about(side, ngettext("{side} played {move}.", "{side} played {move}.", one), move=text)

    def describe(self, outcome: Outcome) -> str:
        return outcome.describe(self.variant)

    def finish(self, outcome: Outcome) -> None:
        """End the game off the board (resignation, draw, flag fall): the computer stops, the
        ending is kept in the tree and announced like any other."""
        if self._game.outcome is not None:
            return
        self._cancel_turn()
        self._game.finish(outcome)
        self.tree.set_ending(self._end, outcome)
        self.message.emit(self.describe(outcome))
        self._after_change()
        self._game_over(outcome)

    def _game_over(self, outcome: Outcome) -> None:
        self.engines.game_over(self._game)
        self.finished.emit(outcome)

    # ======================================================================== history
    def undo(self) -> None:
        """Take back a move; against the computer, back to the human's last decision."""
        self._cancel_turn()
        if not self.can_undo:
            self.message.emit(_("There is no move to take back."))
            return
        if self._end.ending is not None:
            self.tree.set_ending(self._end, None)  # taking back reopens a resigned or agreed game
        self._step_back()
        while self.can_undo and not self.human_to_move():
            self._step_back()
        self.message.emit(_("Move taken back."))
        self._after_change()

    def redo(self) -> None:
        """Replay the move taken back (and the computer's answer after it)."""
        self._cancel_turn()
        if not self.can_redo:
            self.message.emit(_("There is no move to replay."))
            return
        self._step_forward()
        while self.can_redo and not self.human_to_move() and self._game.outcome is None:
            self._step_forward()
        plies = self._game.plies
        self.message.emit(_("Move replayed: {move}.").format(move=self.rules.move_text(plies[-1].move))
                          if plies and plies[-1].move != END_TURN else _("Move replayed."))
        self._after_change()
        if self._game.outcome is None:
            self._maybe_start_computer()

    def _step_back(self) -> None:
        node = self._end
        self._game.undo()
        self._redo.append(node)
        assert node.parent is not None
        self._set_end(node.parent, node.parent)

    def _step_forward(self) -> None:
        node = self._redo.pop()
        assert node.ply is not None
        side = self.live_side()
        self._game.append(node.ply)
        if node.ending is not None and self._game.outcome is None:
            self._game.finish(node.ending)
        self._set_end(node, node)
        self._press_clock(side)
        self.played.emit(node.ply)
        self.moved.emit(node.ply.move)

    def _press_clock(self, mover: Side) -> None:
        """The mover presses the clock: the increment, and the other side's time runs."""
        if self.clock is not None:
            self.clock.pressed(int(mover), int(self.live_side()))

    def _set_end(self, end: Node[Position], shown: Node[Position]) -> None:
        self._end, self._shown = end, shown
        self._line = None

    # ======================================================================== navigation
    def goto(self, ply: int) -> None:
        """Show the position after ``ply`` moves of the line on screen."""
        line = self.line_nodes()
        ply = max(0, min(len(line), ply))
        if ply != self.view_ply:
            self._shown = line[ply - 1] if ply else self.tree.root
            self._after_change()

    def first(self) -> None:
        self.goto(0)

    def back(self) -> None:
        self.goto(self.view_ply - 1)

    def forward(self) -> None:
        self.goto(self.view_ply + 1)

    def last(self) -> None:
        self.goto(len(self.line_nodes()))

    def show_node(self, node: Node[Position], rebuild: bool = False) -> None:
        """Show ``node``'s position: within the line on screen this is navigation; elsewhere in the
        tree the line through ``node`` (with its main continuation) becomes the line on screen."""
        line = self.line_nodes()
        if not rebuild and (node.depth == 0 or (node.depth <= len(line) and line[node.depth - 1] is node)):
            self._flush_message()
            self.goto(node.depth)
            return
        self._cancel_turn()
        was_saved = not self.modified
        through = self.tree.line_through(node)
        self._set_end(through[-1] if through else self.tree.root, node)
        self._game = self.tree.game_of(self.tree.path(self._end))
        self._redo = []
        if was_saved:
            self._saved = (self.tree.revision, self._end)
        self._flush_message()
        self._after_change()
        self._maybe_start_computer()

    def _flush_message(self) -> None:
        if self._pending_message:
            self.message.emit(self._pending_message)
            self._pending_message = ""

    # ======================================================================== the tree
    def set_comment(self, node: Node[Position], text: str) -> None:
        why = comment_refusal(self.tree, node, text)
        if why is not None:
            self.message.emit(_("The comment is not saved: {reason}.").format(reason=why))
            return
        if self.tree.set_comment(node, text):
            self.message.emit(_("Comment removed.") if not node.comment else _("Comment saved."))
            self._after_change()

    def promote(self, node: Node[Position], to_main: bool = False) -> bool:
        """Move the variation holding ``node`` up one level (or all the way to the main line)."""
        why = promotion_refusal(self.tree, node, to_main)
        if why is not None:
            self.message.emit(_("The variation stays where it is: {reason}.").format(reason=why))
            return False
        done = self.tree.make_main(node) if to_main else self.tree.promote(node)
        if done:
            self.message.emit(_("The variation is now the main line.") if self.tree.is_main(node)
                              else _("The variation moved up one level."))
            self._after_change()
        return done

    def delete_node(self, node: Node[Position]) -> int:
        """Delete ``node`` and every move after it (its variation, or the rest of its line)."""
        if node.parent is None:
            return 0
        viewed = self._shown
        on_screen = {id(n) for n in self.line_nodes()} | {id(n) for n in self.tree.line_through(viewed)}
        ancestor: Node[Position] | None = viewed
        while ancestor is not None and ancestor is not node:
            ancestor = ancestor.parent
        target = node.parent if ancestor is node else viewed
        count = self.tree.delete(node)
        self._redo = [n for n in self._redo if self._attached(n)]
        self.message.emit(ngettext("Deleted {n} move.", "Deleted {n} moves.", count).format(n=count))
        if id(node) in on_screen:
            self.show_node(target, rebuild=True)
        else:
            self._after_change()
        return count

    def _attached(self, node: Node[Position]) -> bool:
        while node.parent is not None:
            if not any(c is node for c in node.parent.children):
                return False
            node = node.parent
        return node is self.tree.root

    # ======================================================================== saving
    def mark_saved(self, path: str | None = None) -> None:
        """The game as it stands is what the file holds (``path``: the file, if it changed)."""
        if path is not None:
            self.path = path
        self._saved = (self.tree.revision, self._end)
        self.changed.emit()

    def mark_unsaved(self) -> None:
        """The game is kept nowhere yet (a restored autosave, a pasted list)."""
        self._saved = None
        self.changed.emit()

    def record_tags(self) -> dict[str, str]:
        """The record's tags as a save writes them: the game's own (event, players' names of an
        imported game...), who played, and the clocks."""
        tags = {k: v for k, v in self.tags.items() if k not in (TAG_CONTROL, TAG_REMAINING)}
        tags["player1"], tags["player2"] = self.specs[0].to_text(), self.specs[1].to_text()
        if self.clock is not None:
            tags[TAG_CONTROL] = self.clock.control.text()
            tags[TAG_REMAINING] = self.clock.state_text()
        return tags

    def save(self, path: str, extra_tags: dict[str, str] | None = None, mark: bool = True) -> None:
        """Write the game (its whole tree) to ``path`` as a record; OSError if it cannot be."""
        from tafl_desktop.core.record import save_game

        save_game(self._game, path, {**self.record_tags(), **(extra_tags or {})}, tree=self.tree)
        if mark:
            self.mark_saved(path)

    # ======================================================================== clock
    def tick(self) -> None:
        """Look at the clock (the window's timer calls this): a fallen flag ends the game."""
        clock = self.clock
        if clock is None or self._game.outcome is not None:
            return
        flag = clock.flagged()
        if flag is not None:
            self.finish(Outcome(Side(1 - flag), "time"))

    def _sync_clock(self) -> None:
        """Run the side to move's clock while the game goes on; stop it when paused or over."""
        clock = self.clock
        if clock is None:
            return
        if self._game.outcome is not None or self.paused:
            clock.pause()
        else:
            side = int(self.live_side())
            if clock.running != side:
                clock.start(side)

    def think_limit(self, side: int, level: str) -> float | None:
        """Our computer's think time under the clock (None: no clock, the level decides): its
        hard limit (see :meth:`think_plan`)."""
        plan = self.think_plan(side, level)
        return plan.hard if plan is not None else None

    def think_plan(self, side: int, level: str) -> ThinkPlan | None:
        """Our computer's share of its clock for this move and the limit it never passes (None: no
        clock, the level decides)."""
        if self.clock is None:
            return None
        from tafl_desktop.ai.levels import get_level

        return self.clock.think_plan(side, get_level(level).time)

    def engine_clock(self) -> ClockReport | None:
        """The clock as the OpenTafl protocol tells it to external engines, or None."""
        clock = self.clock
        if clock is None:
            return None
        shown = [clock.shown(side) for side in (0, 1)]  # (ms, periods left, in overtime)
        return ((shown[0][0], shown[1][0]), (clock.control.overtime_ms // 1000, shown[0][1], shown[1][1]),
                (shown[0][2], shown[1][2]))

    # ======================================================================== the computer
    def set_paused(self, paused: bool) -> None:
        """Pause or resume the computer and the clocks."""
        self.paused = bool(paused)
        if self.paused:
            if self.thinking:
                self._cancel_turn()
            self.message.emit(_("Computer paused."))
        else:
            self.message.emit(_("Computer resumed."))
            if not self.thinking:
                self._maybe_start_computer()
        self._after_change()

    def computer_move_now(self) -> None:
        """Make the computer play at once: its best move so far, or (after a failure or a pause
        for this turn) a fresh search."""
        if not self.computer_to_play():
            self.message.emit(_("It is not the computer's turn."))
            return
        if self.thinking:
            self.players[int(self.live_side())].move_now()
        else:
            paused, self.paused = self.paused, False
            self._maybe_start_computer()
            self.paused = paused

    def _maybe_start_computer(self) -> None:
        if not self.computer_to_play():
            return
        side = int(self.live_side())
        self.computer_to_move.emit(side)
        if self.paused:
            self.message.emit(_("The computer is paused: press Pause again (Ctrl+Space) to let it play."))
            return
        player = self.players[side]
        self._generation += 1
        generation = self._generation
        plan = self.think_plan(side, player.spec.level) if player.spec.kind == "computer" else None
        self._set_thinking(True)
        request = TurnRequest(self._game, player.spec.level, lambda move: self._computer_moved(generation, move),
                              lambda why: self._computer_failed(generation, why), self.computer_progress.emit,
                              TurnLimits(plan.hard, plan.soft) if plan is not None else TurnLimits(),
                              self.engine_clock())
        started = player.start_turn(request)
        if not started:
            self._set_thinking(False)

    def _set_thinking(self, on: bool) -> None:
        if on != self.thinking:
            self.thinking = on
            self.thinking_changed.emit(on)

    def _computer_moved(self, generation: int, move: Move) -> None:
        if generation != self._generation:
            return  # stale: an undo or a new game came in between
        self._defer(lambda: self._computer_replied(generation, Reply(tuple(move))))

    def _computer_failed(self, generation: int, why: TurnFailure) -> None:
        """The computer gave no move: its failure, as the game loop's reply, is judged like a move."""
        self._computer_replied(generation, why.reply())

    def _computer_replied(self, generation: int, reply: Reply) -> None:
        """The computer's reply, judged by the one game loop's step (:func:`~tafl_desktop.game_loop.judge`,
        as the match tool and the referees judge theirs): a move is played; a forfeit, a
        resignation or a reply after its side's flag fell ends the game, that side losing;
        anything else (no move, a move the rules refuse) is said and the game waits, as it is and
        playable (Move Now asks again).  Generations, pause, undo and Move Now stay here."""
        if generation != self._generation:
            return  # stale: an undo, a pause or a new game came in between
        self._set_thinking(False)
        side = self.live_side()
        late = self.clock is not None and self.clock.flagged() == int(side)
        verdict = judge(self._game, side, reply, self.players[int(side)].label(), over_time=late, refused_stops=True)
        if verdict.goes_on:
            assert verdict.move is not None
            if self._refused(self._end, verdict.move):
                return  # the game is as large as a record may be: the computer's move is not kept
            self.goto(len(self._game.plies))
            self._play_live(verdict.move)
            return
        outcome = verdict.outcome
        if outcome is not None:
            verdict.settle(self._game)
            self.tree.set_ending(self._end, outcome)
            # one sentence for translators: the engine's failure is a clause ("the engine 'x' did not
            # answer within its time") and the result a whole sentence of its own
            text = _("The game ends: {why}. {result}").format(why=verdict.why, result=self.describe(outcome))
            self.message.emit(text)
            self.computer_failed.emit(text)
            self._after_change()
            self._game_over(outcome)
            return
        text = _("The computer player could not move: {why}. Choose Game > Computer: Move Now to try again, or start "
                 "a new game with a human for that side.").format(why=verdict.why)
        self.message.emit(text)
        self.computer_failed.emit(text)

    def _cancel_turn(self) -> None:
        self._generation += 1
        self._set_thinking(False)
        self.engines.cancel()

    def shutdown(self) -> None:
        """Stop the players' processes (the window is closing)."""
        self._cancel_turn()
        self.engines.shutdown()

    # ======================================================================== changes
    def _after_change(self) -> None:
        self._sync_clock()
        self.changed.emit()

"""The game controller: owns the core Game, the undo stack and what the player has picked so far.

It turns the board's gestures into moves by asking the Game (``legal_moves``, ``check``) and
hands the board a :class:`BoardState` to draw, so neither the board nor the window holds a rule.
A move may have more than two points (chained jumps in the Fox games): the player picks it one
point at a time, and a move that could stop or go on is finished by clicking its last point again.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from tafl_desktop.core.game import Game, Outcome, Side
from tafl_desktop.gui.board_view import BoardState
from tafl_desktop.gui.commands import MoveCommand
from tafl_desktop.gui.players import HUMANS, ComputerEngine, PlayerSpec, computer_available, make_engine
from tafl_desktop.gui.themes import piece_name, piece_side
from tafl_desktop.i18n import _, ngettext

Move = tuple[int, ...]
#: Separator between the parts of a move made by several pieces (Dablot's ambush).
SEP = -1
#: The move that ends a turn early (Dablot's action points).
END_TURN: Move = ()


@dataclass(frozen=True)
class Announcement:
    """A call such as "Raichi": a short title and a sentence that says what it means."""

    title: str
    detail: str
    kind: str  # "route" (good for the king) or "threat" (bad for the king)


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


class GameController(QObject):
    """One game being played or reviewed.  ``view_ply`` is the position shown (0 = start); play is
    possible only at the live end of the game."""

    changed = Signal()
    message = Signal(str)
    moved = Signal(object)            # the move just played (for the board's animation)
    game_finished = Signal(object)    # Outcome, once, when a move ends the game
    computer_to_move = Signal(int)    # Side about to be played by the computer
    thinking_changed = Signal(bool)   # the computer started (True) or stopped (False) thinking
    computer_failed = Signal(str)     # the computer could not answer (one sentence)
    computer_progress = Signal(object)  # the search's latest iteration: {"depth", "score", "pv", ...}

    def __init__(self, game: Game, players: tuple[PlayerSpec, PlayerSpec] = HUMANS,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.announce = True
        self._engine: ComputerEngine | None = None
        self._generation = 0
        #: The computer waits while paused (computer-against-computer demos, or to look around).
        self.paused = False
        #: True while a computer side's search is out.
        self.thinking = False
        #: A suggested move to draw on the board (the player's "Hint"); cleared by any change.
        self._hint: tuple[int, object, Move] | None = None
        self.game = game
        self.players = players
        self.view_ply = 0
        self._path: Move = ()
        self._legal_cache: tuple[int, int, list[Move]] | None = None
        self.set_game(game, players)

    # ------------------------------------------------------------------------------- set-up
    def set_game(self, game: Game, players: tuple[PlayerSpec, PlayerSpec] = HUMANS) -> None:
        """Start showing ``game`` (new or opened); its moves become undoable steps."""
        self._cancel_engine()
        self.game = game
        # a record may name a computer player that this installation does not have: a human plays it
        self.players = tuple(p if p.is_human or computer_available() else PlayerSpec() for p in players)
        self._path = ()
        self._legal_cache = None
        self.undo_stack.clear()
        moves = [p.move for p in game.plies]
        for move in moves:
            self.undo_stack.push(MoveCommand(self, move, self.rules.move_text(move)))
        self.undo_stack.setClean()
        self.view_ply = len(game.plies)
        self.changed.emit()
        self._maybe_start_computer()

    @property
    def rules(self):
        return self.game.rules

    @property
    def variant(self):
        return self.game.rules.variant

    @property
    def sides(self) -> tuple[str, str]:
        return tuple(self.variant.side_names)

    @property
    def is_live(self) -> bool:
        return self.view_ply == len(self.game.plies)

    @property
    def viewed_position(self):
        return self.game.position_at(self.view_ply)

    def side_to_move(self) -> Side:
        return self.rules.side_to_move(self.viewed_position)

    def human_to_move(self) -> bool:
        return self.players[int(self.rules.side_to_move(self.game.position))].is_human

    def legal_moves(self) -> list[Move]:
        """Legal moves at the live position, cached per position."""
        key = (len(self.game.plies), id(self.game.position))
        if self._legal_cache is None or self._legal_cache[:2] != key:
            self._legal_cache = (*key, self.game.legal_moves())
        return self._legal_cache[2]

    # ------------------------------------------------------------------------------- gestures
    def press(self, square: int) -> None:
        """A click (or Enter on the keyboard cursor) on ``square``."""
        if not self._may_play():
            return
        path = self._path
        if not path:
            self._pick(square)
            return
        if len(path) > 1 and square == path[-1] and path in self.legal_moves():
            self._play(path)
            return
        more = self._continuations(path)
        if square in more:
            self._extend(more[square])
            return
        if square == path[0]:
            return  # pressing the picked piece again: the board cancels on release unless dragged
        if self._movable(square) and len(path) == 1:
            self._pick(square)
            return
        attempt = (path[0], square) if len(path) == 1 else path + (square,)
        reason = self.game.check(attempt) or _("that square cannot be reached from here")
        self._path = ()
        self.message.emit(f"{self.rules.move_text(attempt)} is not allowed: {reason}.")
        self.changed.emit()

    def drop(self, origin: int, target: int) -> None:
        """A drag from ``origin`` ended on ``target``."""
        if self._path[:1] != (origin,):
            self._path = ()
            self.press(origin)
        if self._path == (origin,):
            self.press(target)

    def cancel(self) -> None:
        if self._path:
            self._path = ()
            self.message.emit("")
            self.changed.emit()

    def _may_play(self) -> bool:
        if not self.is_live:
            self.message.emit(_("You are looking at move {ply} of {n}: press End (or click the last move) to return to "
                                "the game.").format(ply=self.view_ply, n=len(self.game.plies)))
            return False
        if self.game.outcome is not None:
            self.message.emit(f"{self.describe_outcome(self.game.outcome)} Step through the moves to review the "
                              "game, or start a new one with Ctrl+N.")
            return False
        if not self.human_to_move():
            self.message.emit(_("The computer is thinking..."))
            return False
        return True

    def _movable(self, square: int) -> bool:
        return any(m[0] == square for m in self.legal_moves())

    def _continuations(self, path: Move) -> dict[int, Move]:
        """Next clickable point -> the picked path after clicking it (a separator is skipped:
        after one piece's part of a shared move, the player clicks the next piece)."""
        n = len(path)
        out: dict[int, Move] = {}
        for m in self.legal_moves():
            if len(m) > n and m[:n] == path:
                if m[n] == SEP:
                    if len(m) > n + 1:
                        out.setdefault(m[n + 1], path + (SEP, m[n + 1]))
                else:
                    out.setdefault(m[n], path + (m[n],))
        return out

    @property
    def picked(self) -> Move:
        """The piece (and legs) the player has picked so far; empty when nothing is picked."""
        return self._path

    def can_end_turn(self) -> bool:
        """True when the rules offer ending the turn early (Dablot with action points)."""
        return self.is_live and self.game.outcome is None and self.human_to_move() and \
            END_TURN in self.legal_moves()

    def end_turn(self) -> None:
        if self.can_end_turn():
            self._play(END_TURN)

    def _pick(self, square: int) -> None:
        pos = self.game.position
        if self._movable(square):
            self._path = (square,)
            self.message.emit("")
            self.changed.emit()
            return
        kind = self.rules.pieces(pos).get(square)
        side = self.rules.side_to_move(pos)
        name = self.sides[int(side)]
        if kind is None:
            text = _("{square} is empty: pick a piece of the side to move ({side}).").format(
                square=self.variant.geometry.name(square), side=name)
        elif piece_side(kind) == int(side):
            text = _("The {piece} on {square} has no legal move.").format(
                piece=piece_name(kind), square=self.variant.geometry.name(square))
        else:
            text = capitalised(self.game.check((square, square))
                               or _("it is the turn of the side to move ({side})").format(side=name)) + "."
        self._path = ()
        self.message.emit(text)
        self.changed.emit()

    def _extend(self, path: Move) -> None:
        more = self._continuations(path)
        complete = path in self.legal_moves()
        if complete and not more:
            self._play(path)
            return
        self._path = path
        if complete:
            self.message.emit(_("Jump on, or click the piece where it stands to stop here."))
        else:
            self.message.emit(_("Go on with the jump: every leg of this move must be played."))
        self.changed.emit()

    # ------------------------------------------------------------------------------- playing
    def _play(self, move: Move) -> None:
        side = self.rules.side_to_move(self.game.position)
        ply = self.game.play(move)
        self._path = ()
        self.undo_stack.push(MoveCommand(self, move, self.rules.move_text(move)))
        self.view_ply = len(self.game.plies)
        caught = ""
        if ply.captures:
            names = ", ".join(self.variant.geometry.name(s) for s in ply.captures)
            caught = f", capturing on {names}"
        if move == END_TURN:
            self.message.emit(f"{self.sides[int(side)]} ended the turn.")
        else:
            self.message.emit(f"{self.sides[int(side)]} played {self.rules.move_text(move)}{caught}.")
        self.moved.emit(move)
        self.changed.emit()
        if self.game.outcome is not None:
            self.game_finished.emit(self.game.outcome)
        else:
            self._maybe_start_computer()

    def play_move(self, move: Move) -> bool:
        """Play ``move`` if legal (for typed moves and tests); else say why and return False."""
        reason = self.game.check(move)
        if reason is not None:
            self.message.emit(f"{self.rules.move_text(move)} is not allowed: {reason}.")
            return False
        self.goto(len(self.game.plies))
        self._play(move)
        return True

    def history_changed(self, move: Move) -> None:
        """Called by MoveCommand after the stack moved the game back or forward."""
        self._path = ()
        self.view_ply = len(self.game.plies)
        self._legal_cache = None
        if move:
            self.moved.emit(move)
        self.changed.emit()

    def undo(self) -> None:
        """Take back a move; against the computer, back to the human's last decision."""
        self._cancel_engine()
        if not self.undo_stack.canUndo():
            self.message.emit(_("There is no move to take back."))
            return
        self.undo_stack.undo()
        while self.undo_stack.canUndo() and not self.human_to_move():
            self.undo_stack.undo()
        self.message.emit(_("Move taken back."))

    def redo(self) -> None:
        self._cancel_engine()
        if not self.undo_stack.canRedo():
            self.message.emit(_("There is no move to replay."))
            return
        self.undo_stack.redo()
        while self.undo_stack.canRedo() and not self.human_to_move() and self.game.outcome is None:
            self.undo_stack.redo()
        if self.game.outcome is None:
            self._maybe_start_computer()

    # ------------------------------------------------------------------------------- computer
    def computer_to_play(self) -> bool:
        """Is it a computer side's turn in a game still going on?"""
        return self.game.outcome is None and not self.human_to_move()

    def _maybe_start_computer(self) -> None:
        if not self.computer_to_play():
            return
        side = self.rules.side_to_move(self.game.position)
        self.computer_to_move.emit(int(side))
        if self.paused:
            self.message.emit(_("The computer is paused: press Pause again (Ctrl+Space) to let it play."))
            return
        if self._engine is None:
            self._engine = make_engine()
            progress = getattr(self._engine, "progress", None)
            if progress is not None:
                progress.connect(self.computer_progress)
        if self._engine is None:
            return
        self._generation += 1
        generation = self._generation
        level = self.players[int(side)].level
        self._set_thinking(True)
        self._engine.start(self.game, level, lambda move: self._computer_moved(generation, move),
                           on_error=lambda why: self._computer_error(generation, why))

    def _set_thinking(self, on: bool) -> None:
        if on != self.thinking:
            self.thinking = on
            self.thinking_changed.emit(on)

    def _computer_moved(self, generation: int, move: Move) -> None:
        if generation != self._generation:
            return  # stale: an undo or a new game came in between
        QTimer.singleShot(0, lambda: self._apply_computer_move(generation, tuple(move)))

    def _apply_computer_move(self, generation: int, move: Move) -> None:
        if generation != self._generation:
            return
        self._set_thinking(False)
        reason = self.game.check(move)
        if reason is not None:  # never expected: the worker searched this very position
            self._computer_error(generation, _("it proposed {move}, which is not allowed ({reason})").format(
                move=self.rules.move_text(move), reason=reason))
            return
        self.goto(len(self.game.plies))
        self._play(move)

    def _computer_error(self, generation: int, why: str) -> None:
        """The computer could not move: say so and wait; the game stays as it is and playable."""
        if generation != self._generation:
            return
        self._set_thinking(False)
        text = _("The computer player could not move: {why}. Choose Game > Computer: Move Now to try again, or start "
                 "a new game with a human for that side.").format(why=why)
        self.message.emit(text)
        self.computer_failed.emit(text)

    def _cancel_engine(self) -> None:
        self._generation += 1
        self._set_thinking(False)
        if self._engine is not None:
            self._engine.cancel()

    def set_paused(self, paused: bool) -> None:
        """Pause or resume the computer (the pause button of computer-against-computer games)."""
        self.paused = bool(paused)
        if self.paused:
            if self.thinking:
                self._cancel_engine()
            self.message.emit(_("Computer paused."))
        else:
            self.message.emit(_("Computer resumed."))
            if not self.thinking:
                self._maybe_start_computer()
        self.changed.emit()

    def computer_move_now(self) -> None:
        """Make the computer play at once: its best move so far, or (after a failure or a pause
        for this turn) a fresh search."""
        if not self.computer_to_play():
            self.message.emit(_("It is not the computer's turn."))
            return
        if self.thinking and self._engine is not None and hasattr(self._engine, "move_now"):
            self._engine.move_now()
        elif not self.thinking:
            paused, self.paused = self.paused, False
            self._maybe_start_computer()
            self.paused = paused

    def show_hint(self, move: Move) -> None:
        """Draw ``move`` as a suggestion on the live position until the position changes."""
        self._hint = (len(self.game.plies), self.rules.position_key(self.game.position), tuple(move))
        self.changed.emit()

    def current_hint(self) -> Move:
        """The suggested move, if it was made for the position on screen."""
        if self._hint is None or not self.is_live:
            return ()
        plies, key, move = self._hint
        if plies != len(self.game.plies) or key != self.rules.position_key(self.game.position):
            return ()
        return tuple(s for s in move if s != SEP)

    def shutdown(self) -> None:
        """Stop the computer's process (the window is closing)."""
        self._cancel_engine()
        if self._engine is not None and hasattr(self._engine, "shutdown"):
            self._engine.shutdown()
        self._engine = None

    # ------------------------------------------------------------------------------- navigation
    def goto(self, ply: int) -> None:
        ply = max(0, min(len(self.game.plies), ply))
        if ply != self.view_ply:
            self.view_ply = ply
            self._path = ()
            self.changed.emit()

    def first(self) -> None:
        self.goto(0)

    def back(self) -> None:
        self.goto(self.view_ply - 1)

    def forward(self) -> None:
        self.goto(self.view_ply + 1)

    def last(self) -> None:
        self.goto(len(self.game.plies))

    # ------------------------------------------------------------------------------- views
    def announcements(self) -> list[Announcement]:
        """Raichi / Tuichi / Watch your king for the viewed position (empty when switched off)."""
        if not self.announce or self.variant.family != "tafl":
            return []
        pos = self.viewed_position
        if self.rules.outcome(pos) is not None:
            return []
        out = []
        routes = self.rules.escape_routes(pos)
        g = self.variant.geometry
        if len(routes) == 1:
            out.append(Announcement("Raichi", _("The king has an open path to escape ({square}).").format(
                square=g.name(routes[0])), "route"))
        elif len(routes) > 1:
            names = ", ".join(g.name(s) for s in sorted(routes))
            out.append(Announcement("Tuichi", ngettext(
                "The king has {n} open path to escape ({squares}): they cannot all be blocked in one move.",
                "The king has {n} open paths to escape ({squares}): they cannot all be blocked in one move.",
                len(routes)).format(n=len(routes), squares=names), "route"))
        if self.rules.king_threats(pos):
            out.append(Announcement("Watch your king", _("The king can be captured with the next move."), "threat"))
        return out

    def board_state(self) -> BoardState:
        game, rules = self.game, self.rules
        pos = self.viewed_position
        pieces = rules.pieces(pos)
        last_move: Move = ()
        captured: dict[int, str] = {}
        if self.view_ply:
            ply = game.plies[self.view_ply - 1]
            last_move = tuple(s for s in ply.move if s != SEP)
            before = rules.pieces(game.position_at(self.view_ply - 1))
            captured = {s: before[s] for s in ply.captures if s in before}
        threatened: frozenset[int] = frozenset()
        routes: frozenset[int] = frozenset()
        for a in self.announcements():
            if a.kind == "threat":
                threatened = frozenset(s for s, k in pieces.items() if k == "K")
            else:
                routes = frozenset(rules.escape_routes(pos))
        path = self._path if self.is_live else ()
        return BoardState(
            geometry=self.variant.geometry, pieces=pieces, selected=path[0] if path else None,
            path=tuple(s for s in path if s != SEP),
            targets=frozenset(self._continuations(path)) if path else frozenset(), last_move=last_move,
            captured=captured, threatened=threatened, routes=routes,
            interactive=self.is_live and game.outcome is None and self.human_to_move(),
            suggested=self.current_hint())

    def move_rows(self) -> list[str]:
        """Each ply's text, with the squares it captured on (``e1-e5 x e6``)."""
        g = self.variant.geometry
        out = []
        for ply in self.game.plies:
            text = self.rules.move_text(ply.move)
            if ply.captures and self.variant.family == "tafl":
                text += " x" + ",".join(g.name(s) for s in ply.captures)
            out.append(text)
        return out

    def ply_sides(self) -> list[int]:
        """Which side made each ply (a side may make several in a row with action points)."""
        game, rules = self.game, self.rules
        return [int(rules.side_to_move(game.position_at(i))) for i in range(len(game.plies))]

    def lost_counts(self) -> tuple[int, int]:
        """Pieces each side has lost by the viewed position (counted against the start)."""
        start = self.rules.pieces(self.game.start).values()
        now = self.rules.pieces(self.viewed_position).values()
        lost = [0, 0]
        for side in (0, 1):
            had = sum(1 for k in start if piece_side(k) == side)
            has = sum(1 for k in now if piece_side(k) == side)
            lost[side] = max(0, had - has)
        return lost[0], lost[1]

    def describe_outcome(self, outcome: Outcome) -> str:
        return outcome.describe(self.rules.variant)

    def status_text(self) -> str:
        """The headline of the side panel: whose turn, or how the game ended."""
        pos = self.viewed_position
        side = self.rules.side_to_move(pos)
        if self.is_live and self.game.outcome is not None:
            return self.describe_outcome(self.game.outcome)
        name = self.sides[int(side)]
        text = (_("{side} to move") if self.players[int(side)].is_human
                else _("{side} (computer) to move")).format(side=name)
        if not self.is_live:
            text = _("Move {ply} of {n}: {side} to move").format(ply=self.view_ply, n=len(self.game.plies), side=name)
        return text

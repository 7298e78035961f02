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
from tafl_desktop.core.game_tree import GameTree, Node
from tafl_desktop.core.record_limits import comment_refusal, move_refusal, promotion_refusal
from tafl_desktop.gui.board_view import BoardState
from tafl_desktop.gui.commands import MoveCommand
from tafl_desktop.gui.piece_labels import piece_letters, piece_ranks
from tafl_desktop.gui.players import (
    EXTERNAL,
    HUMANS,
    ComputerEngine,
    EngineForfeit,
    PlayerSpec,
    make_engine,
    make_external_engine,
    player_available,
)
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
    """One game being played or studied.  ``tree`` holds every line played (variations and
    comments); ``game`` is the line on screen, whose end is the live position where the game goes
    on; ``view_ply`` is the position shown (0 = start).  A move made at an earlier position starts
    a variation there (or follows the line or variation that already has that move)."""

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
        #: Draw each piece's rank on it (Dablot); the window sets it from the preferences.
        self.show_ranks = True
        #: ``(side, level) -> seconds or None``: the computer's think time for this move when a
        #: clock limits it (set by the clock; None: the level's own time).
        self.think_limit = None
        self._engine: ComputerEngine | None = None
        self._external: ComputerEngine | None = None  # external engines' host (OpenTafl protocol)
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
        self._legal_cache: tuple[int, int, int, list[Move]] | None = None
        self._view_cache: tuple[tuple, Game] | None = None
        self.tree = GameTree.from_game(game)
        self._saved_revision = 0
        self.set_game(game, players)

    # ------------------------------------------------------------------------------- set-up
    def set_game(self, game: Game, players: tuple[PlayerSpec, PlayerSpec] = HUMANS,
                 tree: GameTree | None = None) -> None:
        """Start showing ``game`` (new or opened; with ``tree``, one line of that tree, usually its
        main line); its moves become undoable steps."""
        self._cancel_engine()
        if self._external is not None:  # the last game's external engines leave (never waits)
            self._external.shutdown()
        self.game = game
        self.tree = tree if tree is not None else GameTree.from_game(game)
        self._saved_revision = self.tree.revision
        self._view_cache = None
        # a record may name a computer player that this installation does not have: a human plays it
        self.players = tuple(p if player_available(p) else PlayerSpec() for p in players)
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
        """Legal moves at the position shown, cached per position."""
        game = self.play_game()
        key = (id(game), len(game.plies), id(game.position))
        if self._legal_cache is None or self._legal_cache[:3] != key:
            self._legal_cache = (*key, game.legal_moves())
        return self._legal_cache[3]

    def play_game(self) -> Game:
        """The game a move made now continues: the live game, or (at an earlier position) the
        line up to the position shown, with its own history for repetition."""
        if self.is_live:
            return self.game
        key = (id(self.game), self.view_ply, id(self.game.plies[self.view_ply - 1]) if self.view_ply else 0)
        if self._view_cache is None or self._view_cache[0] != key:
            self._view_cache = (key, Game.from_plies(self.rules, self.game.start, self.game.plies[:self.view_ply]))
        return self._view_cache[1]

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
        reason = self.play_game().check(attempt) or _("that square cannot be reached from here")
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
            over = self.play_game().outcome
            if over is not None:
                self.message.emit(_("{outcome} Choose another position to play from.").format(
                    outcome=self.describe_outcome(over)))
            return over is None
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
        return self._playable_here() and END_TURN in self.legal_moves()

    def _playable_here(self) -> bool:
        """Can the player move on the position shown?  At an earlier position any unfinished one
        can start a variation; at the live end, only on a human's turn of a game still going on."""
        if not self.is_live:
            return self.play_game().outcome is None
        return self.game.outcome is None and self.human_to_move()

    def end_turn(self) -> None:
        if self.can_end_turn():
            self._play(END_TURN)

    def _pick(self, square: int) -> None:
        pos = self.play_game().position
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
            text = capitalised(self.play_game().check((square, square))
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
        if not self.is_live:
            self._play_from_view(move)
            return
        side = self.rules.side_to_move(self.game.position)
        node = self.line_nodes()[-1] if self.game.plies else self.tree.root
        if self._refused(node, move):
            return
        ply = self.game.play(move)
        node = self.tree.add(node, ply)
        self._path = ()
        self.undo_stack.push(MoveCommand(self, move, self.rules.move_text(move)))
        self.view_ply = len(self.game.plies)
        self.message.emit(self._move_sentence(side, move, ply))
        self.moved.emit(move)
        self.changed.emit()
        if self.game.outcome is not None:
            if self.tree.is_main(node):
                self.game_finished.emit(self.game.outcome)
            else:
                self.message.emit(_("This variation ends: {outcome}").format(
                    outcome=self.describe_outcome(self.game.outcome)))
        else:
            self._maybe_start_computer()

    def _split_captures(self, ply_index: int) -> tuple[list[int], list[int]]:
        """(enemy pieces taken, the mover's own pieces lost) by ply ``ply_index`` (0-based): under
        strict custodian a piece that stops between two enemies dies by its own move."""
        game = self.game
        ply = game.plies[ply_index]
        before = self.rules.pieces(game.position_at(ply_index))
        mover = int(self.rules.side_to_move(game.position_at(ply_index)))
        # a captured square that was empty before the move is where the moving piece stopped
        lost = [s for s in ply.captures if s not in before or piece_side(before[s]) == mover]
        taken = [s for s in ply.captures if s not in lost]
        return taken, lost

    def _move_sentence(self, side: Side, move: Move, ply) -> str:
        """The status line after a move, in the variant's side names: who played what, and what
        it took (or what the mover lost, for a self-capture)."""
        name = self.sides[int(side)]
        if move == END_TURN:
            return _("{side} ended the turn.").format(side=name)
        g = self.variant.geometry
        taken, lost = self._split_captures(len(self.game.plies) - 1)
        text = self.rules.move_text(move)
        if lost and not taken and self.variant.family != "tafl":  # e.g. a huffed Asalto officer
            return ngettext("{side} played {move}, and lost their own piece on {squares}.",
                            "{side} played {move}, and lost their own pieces on {squares}.",
                            len(lost)).format(side=name, move=text, squares=", ".join(g.name(s) for s in lost))
        if lost and not taken:
            return ngettext("{side} played {move}, and lost their own piece on {squares}: it stopped between "
                            "two enemies.",
                            "{side} played {move}, and lost their own pieces on {squares}: they stopped between "
                            "enemies.",
                            len(lost)).format(side=name, move=text, squares=", ".join(g.name(s) for s in lost))
        if taken and lost:
            return _("{side} played {move}, capturing on {taken}, and lost their own piece on {lost}.").format(
                side=name, move=text, taken=", ".join(g.name(s) for s in taken),
                lost=", ".join(g.name(s) for s in lost))
        if taken:
            return _("{side} played {move}, capturing on {squares}.").format(
                side=name, move=text, squares=", ".join(g.name(s) for s in taken))
        return _("{side} played {move}.").format(side=name, move=text)

    def play_move(self, move: Move) -> bool:
        """Play ``move`` if legal (for typed moves and tests); else say why and return False."""
        reason = self.game.check(move)
        if reason is not None:
            self.message.emit(f"{self.rules.move_text(move)} is not allowed: {reason}.")
            return False
        self.goto(len(self.game.plies))
        self._play(move)
        return True

    def play_variation(self, move: Move) -> bool:
        """Play ``move`` from the position shown (analysis lines, typed moves at an earlier
        position): the next move of the line just steps forward, a move tried there before shows
        that variation, any other legal move starts a new variation.  False (and a message saying
        why) when the move is not legal there."""
        game = self.play_game()
        reason = game.check(move)
        if reason is not None:
            self.message.emit(f"{self.rules.move_text(move)} is not allowed: {reason}.")
            return False
        self._path = ()
        if self.is_live and self.human_to_move():
            self._play(move)
        else:
            self._play_from_view(move)
        return True

    def _play_from_view(self, move: Move) -> None:
        """A move made at the position shown when that is not the live end (or not the human's
        turn there): follow the line, show the variation that has it, or start a new one."""
        if self.view_ply < len(self.game.plies) and self.game.plies[self.view_ply].move == move:
            self._path = ()
            self.view_ply += 1
            self.moved.emit(move)
            self.changed.emit()
            return
        base = self.viewed_node()
        known = base.child(move)
        side = self.rules.side_to_move(self.tree.position(base))
        name, text = self.sides[int(side)], self.rules.move_text(move)
        if known is None:
            if self._refused(base, move):
                return
            game = Game.from_plies(self.rules, self.game.start, [n.ply for n in self.tree.path(base)])
            known = self.tree.add(base, game.play(move))
            note = _("{side} played {move}: a new variation.")
        elif self.tree.is_main(known):
            note = _("{side} played {move}, as in the main line.")
        else:
            note = _("{side} played {move}, as in a variation.")
        self._pending_message = note.format(side=name, move=text)
        self.moved.emit(move)
        self.show_node(known)

    def _refused(self, parent: Node, move: Move) -> bool:
        """True (and a sentence in the status line) when the game may not keep ``move`` after
        ``parent``: every game must stay one that can be saved and opened again, so the limits of
        ``core.record_limits`` are kept as the game grows, not found out when it is saved."""
        why = move_refusal(self.tree, parent, move)
        if why is None:
            return False
        self._path = ()
        self.message.emit(_("{move} is not played: {reason}.").format(move=self.rules.move_text(move), reason=why))
        self.changed.emit()
        return True

    def line_nodes(self) -> list[Node]:
        """The tree's nodes for the moves of ``game`` (the line on screen, up to its live end)."""
        node, out = self.tree.root, []
        for ply in self.game.plies:
            node = node.child(ply.move)
            if node is None:  # never expected: every move played is added to the tree
                break
            out.append(node)
        return out

    def viewed_node(self) -> Node:
        """The tree node of the position shown."""
        nodes = self.line_nodes()
        return nodes[self.view_ply - 1] if 0 < self.view_ply <= len(nodes) else self.tree.root

    def show_node(self, node: Node, rebuild: bool = False) -> None:
        """Show ``node``'s position: within the line on screen this is navigation; elsewhere in the
        tree the line through ``node`` (with its main continuation) becomes the line on screen."""
        nodes = self.line_nodes()
        if not rebuild and (node.depth == 0 or (node.depth <= len(nodes) and nodes[node.depth - 1] is node)):
            self._flush_message()
            self.goto(node.depth)
            return
        self._cancel_engine()
        self.game = self.tree.game_of(self.tree.line_through(node))
        self._rebuild_undo_stack()
        self.view_ply = node.depth
        self._path = ()
        self._legal_cache = None
        self._view_cache = None
        self._flush_message()
        self.changed.emit()
        self._maybe_start_computer()

    _pending_message = ""

    def _flush_message(self) -> None:
        if self._pending_message:
            self.message.emit(self._pending_message)
            self._pending_message = ""

    def _rebuild_undo_stack(self) -> None:
        self.undo_stack.clear()
        for ply in self.game.plies:
            self.undo_stack.push(MoveCommand(self, ply.move, self.rules.move_text(ply.move)))
        if self.modified:
            self.undo_stack.resetClean()
        else:
            self.undo_stack.setClean()

    # ------------------------------------------------------------------------------- the tree
    @property
    def modified(self) -> bool:
        """Does the game hold moves, variations or comments that are not saved?"""
        return self.tree.revision != self._saved_revision or not self.undo_stack.isClean()

    def mark_saved(self) -> None:
        self._saved_revision = self.tree.revision
        self.undo_stack.setClean()

    def set_comment(self, node: Node, text: str) -> None:
        why = comment_refusal(self.tree, node, text)
        if why is not None:
            self.message.emit(_("The comment is not saved: {reason}.").format(reason=why))
            return
        if self.tree.set_comment(node, text):
            self.message.emit(_("Comment removed.") if not node.comment else _("Comment saved."))
            self.changed.emit()

    def promote(self, node: Node, to_main: bool = False) -> bool:
        """Move the variation holding ``node`` up one level (or all the way to the main line)."""
        why = promotion_refusal(self.tree, node, to_main)
        if why is not None:
            self.message.emit(_("The variation stays where it is: {reason}.").format(reason=why))
            return False
        done = self.tree.make_main(node) if to_main else self.tree.promote(node)
        if done:
            self.message.emit(_("The variation is now the main line.") if self.tree.is_main(node)
                              else _("The variation moved up one level."))
            self.changed.emit()
        return done

    def delete_node(self, node: Node) -> int:
        """Delete ``node`` and every move after it (its variation, or the rest of its line)."""
        if node.parent is None:
            return 0
        viewed = self.viewed_node()
        on_screen = set(map(id, self.line_nodes())) | {id(n) for n in self.tree.line_through(viewed)}
        ancestor = viewed
        while ancestor is not None and ancestor is not node:
            ancestor = ancestor.parent
        target = node.parent if ancestor is node else viewed
        count = self.tree.delete(node)
        self.message.emit(ngettext("Deleted {n} move.", "Deleted {n} moves.", count).format(n=count))
        if id(node) in on_screen or self.game.redo_stack:
            self.show_node(target, rebuild=True)
        else:
            self.changed.emit()
        return count

    def history_changed(self, move: Move) -> None:
        """Called by MoveCommand after the stack moved the game back or forward."""
        self._path = ()
        self.view_ply = len(self.game.plies)
        self._legal_cache = None
        self._view_cache = None
        if move:
            self.moved.emit(move)
        self.changed.emit()

    def undo(self) -> None:
        """Take back a move; against the computer, back to the human's last decision."""
        self._cancel_engine()
        if not self.undo_stack.canUndo():
            self.message.emit(_("There is no move to take back."))
            return
        nodes = self.line_nodes()
        if nodes and nodes[-1].ending is not None:
            self.tree.set_ending(nodes[-1], None)  # taking back reopens a resigned or agreed game
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
        self.message.emit(_("Move replayed: {move}.").format(move=self.rules.move_text(self.game.plies[-1].move))
                          if self.game.plies and self.game.plies[-1].move != END_TURN else _("Move replayed."))
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
        engine = self._engine
        if self.players[int(side)].kind == EXTERNAL:
            if self._external is None:
                self._external = make_external_engine()
                if self._external is not None and hasattr(self._external, "clock_source"):
                    self._external.clock_source = getattr(self, "external_clock", None)
            engine = self._external
        if engine is None:
            return
        self._generation += 1
        generation = self._generation
        level = self.players[int(side)].level
        self._set_thinking(True)
        limit = self.think_limit(int(side), level) if self.think_limit is not None and engine is self._engine \
            else None
        # the clock's budget goes to our own computer; an external engine is told the clock by its host
        extra = {"time_limit": limit} if limit is not None and engine is self._engine else {}
        engine.start(self.game, level, lambda move: self._computer_moved(generation, move),
                     on_error=lambda why: self._computer_error(generation, why), **extra)

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
        if isinstance(why, EngineForfeit):  # an external engine failed: its side loses the game
            side = self.rules.side_to_move(self.game.position)
            self.game.resign(side, "forfeit")
            text = f"{capitalised(str(why))}. {self.describe_outcome(self.game.outcome)}"
            self.message.emit(text)
            self.computer_failed.emit(text)
            self.changed.emit()
            self.game_finished.emit(self.game.outcome)
            return
        text = _("The computer player could not move: {why}. Choose Game > Computer: Move Now to try again, or start "
                 "a new game with a human for that side.").format(why=why)
        self.message.emit(text)
        self.computer_failed.emit(text)

    def _cancel_engine(self) -> None:
        self._generation += 1
        self._set_thinking(False)
        if self._engine is not None:
            self._engine.cancel()
        if self._external is not None:
            self._external.cancel()

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

    def finish_game(self, outcome: Outcome) -> None:
        """End the game off the board (resignation, draw, flag fall): the computer stops, the
        board freezes and the end is announced like any other."""
        if self.game.outcome is not None:
            return
        self._cancel_engine()
        self._path = ()
        self.game.finish(outcome)
        nodes = self.line_nodes()
        self.tree.set_ending(nodes[-1] if nodes else self.tree.root, outcome)
        self.message.emit(self.describe_outcome(outcome))
        self.changed.emit()
        self.game_finished.emit(outcome)

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
        if self._external is not None:
            self._external.shutdown()
            self._external = None

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
        path = self._path
        return BoardState(
            geometry=self.variant.geometry, pieces=pieces, selected=path[0] if path else None,
            path=tuple(s for s in path if s != SEP),
            targets=frozenset(self._continuations(path)) if path else frozenset(), last_move=last_move,
            captured=captured, threatened=threatened, routes=routes,
            interactive=self._playable_here(),
            suggested=self.current_hint(), letters=piece_letters(self.variant),
            ranks=piece_ranks(rules) if self.show_ranks else {}, marks=self._board_marks())

    def _board_marks(self):
        """The marks of the rules in force, worked out once per rules object."""
        from tafl_desktop.core.board_marks import marks_in_force

        cached = getattr(self, "_marks_cache", None)
        if cached is None or cached[0] is not self.rules:
            cached = self._marks_cache = (self.rules, marks_in_force(self.variant, self.rules))
        return cached[1]

    def move_rows(self) -> list[str]:
        """Each ply's text, with the squares it captured on (``e1-e5 x e6``)."""
        g = self.variant.geometry
        out = []
        for i, ply in enumerate(self.game.plies):
            text = self.rules.move_text(ply.move)
            if ply.captures and self.variant.family == "tafl":
                taken, lost = self._split_captures(i)
                if taken:
                    text += " x" + ",".join(g.name(s) for s in taken)
                if lost:  # the mover's own piece, lost by strict custodian: not a capture it made
                    text = _("{move} (lost {squares})").format(move=text, squares=",".join(g.name(s) for s in lost))
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
        nodes = self.line_nodes()
        if nodes and not self.tree.is_main(nodes[-1]):
            text = _("{status} (in a variation)").format(status=text)
        return text

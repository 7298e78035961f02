"""The window's controller: the Qt edge of the game session, and the board's gestures.

The game itself (tree, players, clock, tags, file, undo and redo) is the headless
:class:`~tafl_desktop.session.session.GameSession`; this object turns its events into Qt signals,
so widgets connect as usual, and it keeps what belongs to the board on screen: the piece picked
so far, the hint arrow, and the :class:`BoardState` the board draws.  It asks the session's Game
(``legal_moves``, ``check``), so neither the board nor the window holds a rule.

A move may have more than two points (chained jumps in the Fox games): the player picks it one
point at a time, and a move that could stop or go on is finished by clicking its last point again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from tafl_desktop.core.board_marks import marks_in_force
from tafl_desktop.core.game import Game, Outcome, Side
from tafl_desktop.core.game_tree import GameTree, Node
from tafl_desktop.core.move_numbers import moves_played, node_label, node_move_text
from tafl_desktop.gui.board_overlays import BoardToken
from tafl_desktop.gui.board_view import BoardState
from tafl_desktop.gui.piece_labels import piece_letters, piece_ranks
from tafl_desktop.gui.themes import piece_name
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.players import PlayerSpec
from tafl_desktop.session.session import END_TURN, SEP, GameSession, capitalised, move_cell_text

Move = tuple[int, ...]

__all__ = ["Announcement", "GameController", "END_TURN", "SEP", "capitalised", "possessive"]


@dataclass(frozen=True)
class Announcement:
    """A call such as "Raichi": a short title and a sentence that says what it means."""

    title: str
    detail: str
    kind: str  # "route" (good for the king) or "threat" (bad for the king)


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


class GameController(QObject):
    """The session as the window sees it.  ``game`` is the line on screen (its end is the live
    position where the game goes on) and ``view_ply`` the position shown (0 = start); every
    change of the game goes through :attr:`session`."""

    changed = Signal()
    message = Signal(str)
    moved = Signal(object)            # a move to animate (played, replayed or stepped to)
    played = Signal(object)           # a new move (Ply) at the live end: clocks and sounds react
    loaded = Signal(object)           # a GameSource was loaded (new, open, import, paste...)
    game_finished = Signal(object)    # Outcome, once, when the game ends
    computer_to_move = Signal(int)    # Side about to be played by the computer
    thinking_changed = Signal(bool)   # the computer started (True) or stopped (False) thinking
    computer_failed = Signal(str)     # the computer could not answer (one sentence)
    computer_progress = Signal(object)  # the search's latest iteration: {"depth", "score", "pv", ...}

    def __init__(self, session: GameSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.announce = True
        #: Draw each piece's rank on it (Dablot); the window sets it from the preferences.
        self.show_ranks = True
        #: The game on screen and its board: a new token for every game loaded, so the marks made
        #: for the last one (analysis arrows, heat map, review arrow, hint, the player's own) are
        #: dropped by the board (:class:`~tafl_desktop.gui.board_overlays.BoardToken`).
        self.token = BoardToken.new(session.variant.geometry)
        #: A suggested move to draw on the board (the player's "Hint"); cleared by any change.
        self._hint: tuple[BoardToken, int, object, Move] | None = None
        self._path: Move = ()
        self._picked_at: tuple[Node, Node] | None = None
        self._legal_cache: tuple[int, int, int, list[Move]] | None = None
        self._marks_cache: tuple[Any, Any] | None = None
        session.changed.connect(self._session_changed)
        session.message.connect(self.message.emit)
        session.moved.connect(self.moved.emit)
        session.played.connect(self.played.emit)
        session.loaded.connect(self._new_game)  # first: whoever hears ``loaded`` sees the new token
        session.loaded.connect(self.loaded.emit)
        session.finished.connect(self.game_finished.emit)
        session.computer_to_move.connect(self.computer_to_move.emit)
        session.thinking_changed.connect(self.thinking_changed.emit)
        session.computer_failed.connect(self.computer_failed.emit)
        session.computer_progress.connect(self.computer_progress.emit)

    def _new_game(self, _source: object) -> None:
        """Another game arrived: nothing made for the last one is shown on this one."""
        self.token = BoardToken.new(self.session.variant.geometry)
        self._hint = None
        self._path = ()

    def _session_changed(self) -> None:
        """A pick belongs to the position it was made in: another position drops it."""
        if self._path and self._picked_at != (self.session.end_node, self.session.viewed_node()):
            self._path = ()
        self.changed.emit()

    # ------------------------------------------------------------------------------- reading
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def tree(self) -> GameTree:
        return self.session.tree

    @property
    def rules(self) -> Any:
        return self.session.rules

    @property
    def variant(self) -> Any:
        return self.session.variant

    @property
    def players(self) -> tuple[PlayerSpec, PlayerSpec]:
        """Who plays each side, as the New Game dialog and the records name them."""
        return self.session.specs

    @property
    def sides(self) -> tuple[str, str]:
        return self.session.sides

    @property
    def view_ply(self) -> int:
        return self.session.view_ply

    @property
    def is_live(self) -> bool:
        return self.session.is_live

    @property
    def viewed_position(self) -> Any:
        return self.session.viewed_position

    @property
    def paused(self) -> bool:
        return self.session.paused

    @property
    def thinking(self) -> bool:
        return self.session.thinking

    @property
    def modified(self) -> bool:
        return self.session.modified

    def side_to_move(self) -> Side:
        return self.session.side_to_move()

    def human_to_move(self) -> bool:
        return self.session.human_to_move()

    def computer_to_play(self) -> bool:
        return self.session.computer_to_play()

    def play_game(self) -> Game:
        return self.session.play_game()

    def line_nodes(self) -> list[Node]:
        return self.session.line_nodes()

    def viewed_node(self) -> Node:
        return self.session.viewed_node()

    def legal_moves(self) -> list[Move]:
        """Legal moves at the position shown, cached per position."""
        game = self.play_game()
        key = (id(game), len(game.plies), id(game.position))
        if self._legal_cache is None or self._legal_cache[:3] != key:
            self._legal_cache = (*key, game.legal_moves())
        return self._legal_cache[3]

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
        self._set_path(())
        self.message.emit(_("{move} is not allowed: {reason}.").format(move=self.rules.move_text(attempt),
                                                                      reason=reason))
        self.changed.emit()

    def drop(self, origin: int, target: int) -> None:
        """A drag from ``origin`` ended on ``target``."""
        if self._path[:1] != (origin,):
            self._set_path(())
            self.press(origin)
        if self._path == (origin,):
            self.press(target)

    def cancel(self) -> None:
        if self._path:
            self._set_path(())
            self.message.emit("")
            self.changed.emit()

    def _set_path(self, path: Move) -> None:
        self._path = path
        self._picked_at = (self.session.end_node, self.session.viewed_node()) if path else None

    def _may_play(self) -> bool:
        if not self.is_live:
            over = self.play_game().outcome
            if over is not None:
                self.message.emit(_("{outcome} Choose another position to play from.").format(
                    outcome=self.describe_outcome(over)))
            return over is None
        if self.game.outcome is not None:
            self.message.emit(_("{outcome} Step through the moves to review the game, or start a new one with "
                                "Ctrl+N.").format(outcome=self.describe_outcome(self.game.outcome)))
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
            self._set_path((square,))
            self.message.emit("")
            self.changed.emit()
            return
        kind = self.rules.pieces(pos).get(square)
        side = self.rules.side_to_move(pos)
        name = self.sides[int(side)]
        if kind is None:
            text = _("{square} is empty: pick a piece of the side to move ({side}).").format(
                square=self.variant.geometry.name(square), side=name)
        elif self.variant.traits.piece_side(kind) == int(side):
            text = _("The {piece} on {square} has no legal move.").format(
                piece=piece_name(kind), square=self.variant.geometry.name(square))
        else:
            text = capitalised(self.play_game().check((square, square))
                               or _("it is the turn of the side to move ({side})").format(side=name)) + "."
        self._set_path(())
        self.message.emit(text)
        self.changed.emit()

    def _extend(self, path: Move) -> None:
        more = self._continuations(path)
        complete = path in self.legal_moves()
        if complete and not more:
            self._play(path)
            return
        self._set_path(path)
        if complete:
            self.message.emit(_("Jump on, or click the piece where it stands to stop here."))
        else:
            self.message.emit(_("Go on with the jump: every leg of this move must be played."))
        self.changed.emit()

    def _play(self, move: Move) -> None:
        self._set_path(())
        self.session.play(move)

    # ------------------------------------------------------------------------------- actions
    def play_move(self, move: Move) -> bool:
        """Play ``move`` at the live end if legal (typed moves and tests); else say why, False."""
        self._set_path(())
        return self.session.play_at_end(move)

    def play_variation(self, move: Move) -> bool:
        """Play ``move`` from the position shown: the next move of the line just steps forward, a
        move tried there before shows that variation, any other legal move starts a new variation
        (at the live end it continues the game).  False (and why) when it is not legal there."""
        self._set_path(())
        return self.session.play(move)

    def undo(self) -> None:
        self.session.undo()

    def redo(self) -> None:
        self.session.redo()

    def goto(self, ply: int) -> None:
        self.session.goto(ply)

    def first(self) -> None:
        self.session.first()

    def back(self) -> None:
        self.session.back()

    def forward(self) -> None:
        self.session.forward()

    def last(self) -> None:
        self.session.last()

    def show_node(self, node: Node, rebuild: bool = False) -> None:
        self.session.show_node(node, rebuild)

    def set_comment(self, node: Node, text: str) -> None:
        self.session.set_comment(node, text)

    def promote(self, node: Node, to_main: bool = False) -> bool:
        return self.session.promote(node, to_main)

    def delete_node(self, node: Node) -> int:
        return self.session.delete_node(node)

    def finish_game(self, outcome: Outcome) -> None:
        """End the game off the board (resignation, draw, flag fall)."""
        self._set_path(())
        self.session.finish(outcome)

    def set_paused(self, paused: bool) -> None:
        self.session.set_paused(paused)

    def computer_move_now(self) -> None:
        self.session.computer_move_now()

    def shutdown(self) -> None:
        self.session.shutdown()

    # ------------------------------------------------------------------------------- the hint
    def show_hint(self, move: Move, token: BoardToken | None = None) -> None:
        """Draw ``move`` as a suggestion on the live position until the position changes;
        ``token``: the game it was asked for (a hint for a game since replaced is dropped)."""
        if token is not None and token != self.token:
            return
        self._hint = (self.token, len(self.game.plies), self.rules.position_key(self.game.position), tuple(move))
        self.changed.emit()

    def current_hint(self) -> Move:
        """The suggested move, if it was made for the position on screen."""
        if self._hint is None or not self.is_live:
            return ()
        token, plies, key, move = self._hint
        if token != self.token or plies != len(self.game.plies) or key != self.rules.position_key(self.game.position):
            return ()
        return tuple(s for s in move if s != SEP)

    # ------------------------------------------------------------------------------- views
    def announcements(self) -> list[Announcement]:
        """Raichi / Tuichi / Watch your king for the viewed position (empty when switched off)."""
        if not self.announce or not self.variant.traits.king_announcements:
            return []
        pos = self.viewed_position
        if self.rules.outcome(pos) is not None:
            return []
        out = []
        routes = self.rules.escape_routes(pos)
        g = self.variant.geometry
        if len(routes) == 1:
            out.append(Announcement(_("Raichi"), _("The king has an open path to escape ({square}).").format(
                square=g.name(routes[0])), "route"))
        elif len(routes) > 1:
            names = ", ".join(g.name(s) for s in sorted(routes))
            out.append(Announcement(_("Tuichi"), ngettext(
                "The king has {n} open path to escape ({squares}): they cannot all be blocked in one move.",
                "The king has {n} open paths to escape ({squares}): they cannot all be blocked in one move.",
                len(routes)).format(n=len(routes), squares=names), "route"))
        if self.rules.king_threats(pos):
            # Raichi and Tuichi keep their names in every catalogue (the glossary); Watch your king is
            # an English phrase, so each language says it in its own words
            out.append(Announcement(_("Watch your king"), _("The king can be captured with the next move."),
                                    "threat"))
        return out

    def board_state(self) -> BoardState:
        rules = self.rules
        node = self.viewed_node()
        pos = self.viewed_position
        pieces = rules.pieces(pos)
        last_move: Move = ()
        captured: dict[int, str] = {}
        if node.ply is not None and node.parent is not None:
            last_move = tuple(s for s in node.ply.move if s != SEP)
            before = rules.pieces(self.tree.position(node.parent))
            captured = {s: before[s] for s in node.ply.captures if s in before}
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
            ranks=piece_ranks(rules) if self.show_ranks else {}, marks=self._board_marks(), token=self.token)

    def _board_marks(self) -> Any:
        """The marks of the rules in force, worked out once per rules object."""
        cached = self._marks_cache
        if cached is None or cached[0] is not self.rules:
            cached = self._marks_cache = (self.rules, marks_in_force(self.variant, self.rules))
        return cached[1]

    def move_rows(self) -> list[str]:
        """Each move of the line on screen as the move list shows it (``e1-e5 x e6``)."""
        return [move_cell_text(self.rules, self.tree.position(n.parent), n.ply)
                for n in self.line_nodes() if n.parent is not None and n.ply is not None]

    def ply_sides(self) -> list[int]:
        """Which side made each ply (a side may make several in a row with action points)."""
        game, rules = self.game, self.rules
        return [int(rules.side_to_move(game.position_at(i))) for i in range(len(game.plies))]

    def lost_counts(self) -> tuple[int, int]:
        """Pieces each side has lost by the viewed position (counted against the start)."""
        side_of = self.variant.traits.piece_side
        start = self.rules.pieces(self.game.start).values()
        now = self.rules.pieces(self.viewed_position).values()
        lost = [0, 0]
        for side in (0, 1):
            had = sum(1 for k in start if side_of(k) == side)
            has = sum(1 for k in now if side_of(k) == side)
            lost[side] = max(0, had - has)
        return lost[0], lost[1]

    def _viewed_move_number(self) -> int:
        """The move number (as the move list counts) of the ply viewed (0 at the start)."""
        label = node_label(self.tree, self.viewed_node())
        return int(label.rstrip(".")) if label else 0

    def describe_outcome(self, outcome: Outcome) -> str:
        return self.session.describe(outcome)

    def status_text(self) -> str:
        """The headline of the side panel: whose turn, or how the game ended."""
        pos = self.viewed_position
        side = self.rules.side_to_move(pos)
        if self.is_live and self.game.outcome is not None:
            return self.describe_outcome(self.game.outcome)
        name = self.sides[int(side)]
        text = (_("{side} to move") if self.session.players[int(side)].is_human
                else _("{side} (computer) to move")).format(side=name)
        if not self.is_live:
            text = _("After {move} (move {number} of {total}): {side} to move").format(
                move=node_move_text(self.tree, self.viewed_node()), number=self._viewed_move_number(),
                total=moves_played(self.game), side=name) if self.view_ply else \
                _("Start position: {side} to move").format(side=name)
        nodes = self.line_nodes()
        if nodes and not self.tree.is_main(nodes[-1]):
            text = _("{status} (in a variation)").format(status=text)
        return text

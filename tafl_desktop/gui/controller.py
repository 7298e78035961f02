"""The board's gestures: the piece picked so far, the path of a move clicked point by point, and
the hint arrow, and the :class:`BoardState` the board draws from them and the session.

The game itself (tree, players, clock, tags, file, undo and redo) is the headless
:class:`~tafl_desktop.session.session.GameSession`; views read it there and subscribe to its
events through :class:`~tafl_desktop.gui.session_signals.SessionSignals`.  This object holds only
what the board adds on top: it asks the session's Game (``legal_moves``, ``check``), so neither
the board nor the window holds a rule, and it plays a finished gesture through the session.

A move may have more than two points (chained jumps in the Fox games): the player picks it one
point at a time, and a move that could stop or go on is finished by clicking its last point again.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from tafl_desktop.core.board_marks import marks_in_force
from tafl_desktop.core.game_tree import Node
from tafl_desktop.gui.board_overlays import BoardToken
from tafl_desktop.gui.board_view import BoardState
from tafl_desktop.gui.piece_labels import piece_letters, piece_ranks
from tafl_desktop.gui.themes import piece_name
from tafl_desktop.i18n import _
from tafl_desktop.session.readout import announcements
from tafl_desktop.session.session import END_TURN, SEP, GameSession, capitalised

Move = tuple[int, ...]

__all__ = ["GameController"]


class GameController(QObject):
    """The board's gestures on the game of :attr:`session`: picking, the path of a move, the hint.

    ``board_changed`` fires when only what this object holds changed (a piece picked or put back,
    a hint drawn); ``board_message`` says why a gesture was refused or what to click next.  Everything
    else a view shows comes from the session and its events."""

    board_changed = Signal()
    board_message = Signal(str)

    def __init__(self, session: GameSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        #: Draw the calls (Raichi, Tuichi, Watch your king) on the board; the window sets it from the
        #: preferences.
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
        # the session's own callbacks, connected before any view's (the window makes its
        # SessionSignals after this): whoever hears ``loaded`` sees the new token, and a view
        # refreshed by ``changed`` no longer sees a pick made in another position
        session.changed.connect(self._session_changed)
        session.loaded.connect(self._new_game)

    def _new_game(self, _source: object) -> None:
        """Another game arrived: nothing made for the last one is shown on this one."""
        self.token = BoardToken.new(self.session.variant.geometry)
        self._hint = None
        self._path = ()

    def _session_changed(self) -> None:
        """A pick belongs to the position it was made in: another position, or the game ended
        there (a resignation, a draw, a flag fall), drops it."""
        s = self.session
        if self._path and (self._picked_at != (s.end_node, s.viewed_node())
                           or (s.is_live and s.game.outcome is not None)):
            self._path = ()

    def legal_moves(self) -> list[Move]:
        """Legal moves at the position shown, cached per position."""
        game = self.session.play_game()
        key = (id(game), len(game.plies), id(game.position))
        if self._legal_cache is None or self._legal_cache[:3] != key:
            self._legal_cache = (*key, game.legal_moves())
        return self._legal_cache[3]

    # ------------------------------------------------------------------------------- gestures
    def press(self, square: int) -> None:
        """A click (or Enter on the keyboard cursor) on ``square``."""
        if not self.may_play():
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
        reason = self.session.play_game().check(attempt) or _("that square cannot be reached from here")
        self._set_path(())
        self.board_message.emit(_("{move} is not allowed: {reason}.").format(
            move=self.session.rules.move_text(attempt), reason=reason))
        self.board_changed.emit()

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
            self.board_message.emit("")
            self.board_changed.emit()

    def _set_path(self, path: Move) -> None:
        self._path = path
        self._picked_at = (self.session.end_node, self.session.viewed_node()) if path else None

    def may_play(self) -> bool:
        """May the player move now?  If not, says why in a :attr:`board_message` (the game is over, the
        computer is thinking)."""
        if not self.session.is_live:
            over = self.session.play_game().outcome
            if over is not None:
                self.board_message.emit(_("{outcome} Choose another position to play from.").format(
                    outcome=self.session.describe(over)))
            return over is None
        if self.session.game.outcome is not None:
            self.board_message.emit(_("{outcome} Step through the moves to review the game, or start a new one with "
                                "Ctrl+N.").format(outcome=self.session.describe(self.session.game.outcome)))
            return False
        if not self.session.human_to_move():
            self.board_message.emit(_("The computer is thinking..."))
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
        if not self.session.is_live:
            return self.session.play_game().outcome is None
        return self.session.game.outcome is None and self.session.human_to_move()

    def end_turn(self) -> None:
        if self.can_end_turn():
            self._play(END_TURN)

    def _pick(self, square: int) -> None:
        pos = self.session.play_game().position
        if self._movable(square):
            self._set_path((square,))
            self.board_message.emit("")
            self.board_changed.emit()
            return
        kind = self.session.rules.pieces(pos).get(square)
        side = self.session.rules.side_to_move(pos)
        name = self.session.sides[int(side)]
        if kind is None:
            text = _("{square} is empty: pick a piece of the side to move ({side}).").format(
                square=self.session.variant.geometry.name(square), side=name)
        elif self.session.variant.traits.piece_side(kind) == int(side):
            text = _("The {piece} on {square} has no legal move.").format(
                piece=piece_name(kind), square=self.session.variant.geometry.name(square))
        else:
            text = capitalised(self.session.play_game().check((square, square))
                               or _("it is the turn of the side to move ({side})").format(side=name)) + "."
        self._set_path(())
        self.board_message.emit(text)
        self.board_changed.emit()

    def _extend(self, path: Move) -> None:
        more = self._continuations(path)
        complete = path in self.legal_moves()
        if complete and not more:
            self._play(path)
            return
        self._set_path(path)
        if complete:
            self.board_message.emit(_("Jump on, or click the piece where it stands to stop here."))
        else:
            self.board_message.emit(_("Go on with the jump: every leg of this move must be played."))
        self.board_changed.emit()

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

    # ------------------------------------------------------------------------------- the hint
    def show_hint(self, move: Move, token: BoardToken | None = None) -> None:
        """Draw ``move`` as a suggestion on the live position until the position changes;
        ``token``: the game it was asked for (a hint for a game since replaced is dropped)."""
        if token is not None and token != self.token:
            return
        game = self.session.game
        self._hint = (self.token, len(game.plies), self.session.rules.position_key(game.position), tuple(move))
        self.board_changed.emit()

    def current_hint(self) -> Move:
        """The suggested move, if it was made for the position on screen."""
        if self._hint is None or not self.session.is_live:
            return ()
        token, plies, key, move = self._hint
        game = self.session.game
        if token != self.token or plies != len(game.plies) or key != self.session.rules.position_key(game.position):
            return ()
        return tuple(s for s in move if s != SEP)

    # ------------------------------------------------------------------------------- the board
    def board_state(self) -> BoardState:
        rules = self.session.rules
        node = self.session.viewed_node()
        pos = self.session.viewed_position
        pieces = rules.pieces(pos)
        last_move: Move = ()
        captured: dict[int, str] = {}
        if node.ply is not None and node.parent is not None:
            last_move = tuple(s for s in node.ply.move if s != SEP)
            before = rules.pieces(self.session.tree.position(node.parent))
            captured = {s: before[s] for s in node.ply.captures if s in before}
        tafl: Any = rules  # a call comes only from rules with the king's calls (Tafl)
        threatened: frozenset[int] = frozenset()
        routes: frozenset[int] = frozenset()
        for a in announcements(self.session, self.announce):
            if a.kind == "threat":
                threatened = frozenset(s for s, k in pieces.items() if k == "K")
            else:
                routes = frozenset(tafl.escape_routes(pos))
        path = self._path
        return BoardState(
            geometry=self.session.variant.geometry, pieces=pieces, selected=path[0] if path else None,
            path=tuple(s for s in path if s != SEP),
            targets=frozenset(self._continuations(path)) if path else frozenset(), last_move=last_move,
            captured=captured, threatened=threatened, routes=routes,
            interactive=self._playable_here(),
            suggested=self.current_hint(), letters=piece_letters(self.session.variant),
            ranks=piece_ranks(rules) if self.show_ranks else {}, marks=self._board_marks(), token=self.token)

    def _board_marks(self) -> Any:
        """The marks of the rules in force, worked out once per rules object."""
        cached, rules = self._marks_cache, self.session.rules
        if cached is None or cached[0] is not rules:
            cached = self._marks_cache = (rules, marks_in_force(self.session.variant, rules))
        return cached[1]

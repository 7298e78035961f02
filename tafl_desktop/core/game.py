"""The family-independent protocol every game engine speaks, and the Game history on top of it.

A family's rules object (``TaflRules``, later the Fox games and Dablot) is built from a Variant
(geometry + option values) and offers:

* ``initial_position()``, ``legal_moves(pos)``, ``play(pos, move) -> (pos, captures)``,
* ``outcome(pos)`` for everything decided by the position alone,
* ``position_key(pos)`` (hashable, for repetition), ``side_to_move(pos)``,
* ``move_text(move)`` / ``parse_move(pos, text)`` and ``explain_illegal(pos, move)``,
* ``position_text(pos)`` / ``parse_position(text, to_move)``.

A move is a tuple of point indices: ``(from, to)`` for a Tafl move, longer for chained jumps.
Positions are immutable values, so history, undo and the AI need no unmake logic.

:class:`Game` adds what needs history: repetition, undo/redo, and the record of captures.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol

from tafl_desktop.core import marks
from tafl_desktop.core.marks import N_
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import quote
from tafl_desktop.core.side_words import agree, fill, side_words

Move = tuple[int, ...]


class Side(IntEnum):
    """The two sides.  In the Tafl family the attackers are side 0 and the king's side 1."""

    ATTACKERS = 0
    DEFENDERS = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def key(self) -> str:
        return "attackers" if self is Side.ATTACKERS else "defenders"

    @classmethod
    def parse(cls, text: str) -> Side:
        t = text.strip().lower()
        if t in ("attackers", "attacker", "a", "black", "b"):
            return cls.ATTACKERS
        if t in ("defenders", "defender", "d", "white", "w"):
            return cls.DEFENDERS
        raise ValueError(f"{quote(text)} is not a side: use attackers or defenders")


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is a Side, or None for a draw; ``reason`` is a stable key."""

    winner: Side | None
    reason: str

    @property
    def result_key(self) -> str:
        return "draw" if self.winner is None else self.winner.key

    def describe(self, variant: Any = None) -> str:
        """One sentence for the user, in the variant's own side names when a variant is given
        ("Fox wins: too few geese are left to trap the fox."); Tafl's names otherwise."""
        text = REASON_TEXT.get(self.reason, self.reason.replace("_", " "))
        if marks.language() != "en":
            return self._describe_translated(variant, marks.gettext(text))
        if self.reason in OFF_BOARD_REASONS:
            text = _off_board_text(self, variant)
        text = fill(text, variant.words if variant is not None else GENERIC_WORDS)
        if self.winner is None:
            return f"Draw: {text}."
        if variant is None:
            return f"{self.winner.key.capitalize()} win: {text}."
        name = variant.sides[int(self.winner)]
        return f"{name} {agree('win', variant.side_count(self.winner))}: {text}."

    def _describe_translated(self, variant: Any, reason: str) -> str:
        """:meth:`describe` in a language other than English: whole sentences from the catalogue."""
        words = variant.words if variant is not None else side_words(
            (marks.gettext("Flock"), marks.gettext("Hunters")), 2)
        if self.reason in OFF_BOARD_REASONS:
            reason = marks.gettext(OFF_BOARD_TEXT[self.reason])
            if self.winner is not None:
                loser = self.winner.other
                name = (variant.side_names[int(loser)] if variant is not None
                        else marks.gettext("Attackers") if loser.key == "attackers" else marks.gettext("Defenders"))
                reason = reason.replace("{loser}", name)
        reason = fill(reason, words)
        if self.winner is None:
            return marks.gettext("Draw: {reason}.").format(reason=reason)
        if variant is None:
            name = marks.gettext("Attackers") if self.winner.key == "attackers" else marks.gettext("Defenders")
            count = 2
        else:
            name = variant.side_names[int(self.winner)]
            count = variant.side_count(self.winner)
        return marks.ngettext("{side} wins: {reason}.", "{side} win: {reason}.", count).format(
            side=name, reason=reason)


#: Side words of an outcome described without its variant.
GENERIC_WORDS = side_words(("Flock", "Hunters"), 2)

REASON_TEXT = {
    "king_captured": N_("the king was captured"),
    "king_escaped": N_("the king escaped"),
    "edge_fort": N_("the king is safe in an unbreakable edge fort"),
    "encircled": N_("the attackers enclosed every defender"),
    "repetition": N_("a position was repeated"),
    "no_moves": N_("a side had no legal move"),
    "no_captures": N_("too many moves without a capture"),
    "hunters_captured": N_("no {hunter} is left"),
    "flock_depleted": N_("too few {many} are left to trap the {hunters}"),
    "broke_through": N_("{a_hunter} broke through to the far side"),
    "pen_filled": N_("the pen is filled"),
    "trapped": N_("the {hunters} cannot move"),
    "all_captured": N_("every enemy piece is captured"),
    "leader_captured": N_("the enemy leader is captured"),
    "bare_leader": N_("the enemy leader stands alone"),
}


#: Endings decided off the board (resignation, agreed or claimed draw, flag fall): the rules
#: cannot see them in the position, so :meth:`Game.finish` records them.
OFF_BOARD_REASONS = ("resigned", "time", "draw_agreed", "draw_claimed", "forfeit")

#: Their sentences; ``{loser}`` is the losing side as the variant names it ("the geese").
OFF_BOARD_TEXT = {
    "resigned": N_("{loser} resigned"),
    "time": N_("{loser} ran out of time"),
    "draw_agreed": N_("both sides agreed to a draw"),
    "draw_claimed": N_("a draw was claimed after the same position occurred three times"),
    "forfeit": N_("{loser} forfeited the game"),
}


def _off_board_text(outcome: Outcome, variant: Any) -> str:
    """The sentence of an off-board ending, naming the side that lost."""
    text = OFF_BOARD_TEXT[outcome.reason]
    if outcome.winner is None:
        return text
    loser = outcome.winner.other
    if variant is None:
        name = f"the {loser.key}"
    else:
        name = variant.sides[int(loser)]
        # a proper name (Saami, Swedes) keeps its capital; a common noun reads "the geese"
        name = name if variant.family == "dablot" else f"the {name.lower()}"
    return text.replace("{loser}", name)


def repeat_key(rules: Any, pos: Any) -> Any:
    """What a no-repeat rule compares: the board alone where the rules say so (``board_key``:
    hnefatafl.org's rule is about board positions), else the whole position key."""
    board = getattr(rules, "board_key", None)
    return board(pos) if board is not None else rules.position_key(pos)


def unrepeated(rules: Any, pos: Any, moves: list[Move], history_keys: Any) -> list[Move]:
    """``moves`` less those a no-repeat rule forbids in ``pos`` (``rules.forbids_repetition``),
    given the position keys of the game so far (``rules.position_key`` of every position); the
    computer players and perft use it where they hold the history as keys."""
    forbids = getattr(rules, "forbids_repetition", None)
    if forbids is None or not forbids(pos):
        return moves
    part = getattr(rules, "board_of_key", None)
    seen = {part(k) if part is not None and isinstance(k, (tuple, list)) else k for k in history_keys}
    return [m for m in moves if repeat_key(rules, rules.play(pos, m)[0]) not in seen]


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why."""


class Rules(Protocol):
    """What the window, the AI, the printer and the CLI may ask of any game family."""

    variant: Any

    def initial_position(self) -> Any: ...
    def legal_moves(self, pos: Any) -> list[Move]: ...
    def play(self, pos: Any, move: Move) -> tuple[Any, tuple[int, ...]]: ...
    def outcome(self, pos: Any) -> Outcome | None: ...
    def position_key(self, pos: Any) -> Any: ...
    def side_to_move(self, pos: Any) -> Side: ...
    def move_text(self, move: Move) -> str: ...
    def parse_move(self, pos: Any, text: str) -> Move: ...
    def explain_illegal(self, pos: Any, move: Move) -> str: ...
    def position_text(self, pos: Any) -> str: ...
    def repetition_outcome(self, pos: Any, count: int) -> Outcome | None: ...


@dataclass(frozen=True)
class Ply:
    """One move played in a game: the move, what it captured, and the position after it."""

    move: Move
    captures: tuple[int, ...]
    position: Any


class Game:
    """A game in progress: start position, the moves played, and a redo tail after undo.

    Repetition is counted here because it needs the history; everything else the rules object
    decides from the position alone.
    """

    def __init__(self, rules: Rules, start: Any | None = None) -> None:
        self.rules = rules
        self.start = rules.initial_position() if start is None else start
        self.plies: list[Ply] = []
        self.redo_stack: list[Ply] = []
        self._counts: dict[Any, int] = {rules.position_key(self.start): 1}
        self._boards: dict[Any, int] = {repeat_key(rules, self.start): 1}  # for a no-repeat rule
        self._outcome: Outcome | None = None
        self._ended: Outcome | None = None  # an ending decided off the board (see finish)
        self._recompute_outcome()

    @classmethod
    def from_plies(cls, rules: Rules, start: Any, plies: list[Ply]) -> Game:
        """A game whose history is ``plies``, played before (a line of a variation tree): the
        positions are taken as they are, only the repetition counts and the outcome are rebuilt."""
        game = cls(rules, start)
        for ply in plies:
            game.plies.append(ply)
            key = rules.position_key(ply.position)
            game._counts[key] = game._counts.get(key, 0) + 1
            board = repeat_key(rules, ply.position)
            game._boards[board] = game._boards.get(board, 0) + 1
        game._recompute_outcome()
        return game

    # -- state ---------------------------------------------------------------------------------
    @property
    def position(self) -> Any:
        return self.plies[-1].position if self.plies else self.start

    def position_at(self, ply_count: int) -> Any:
        """Position after ``ply_count`` moves (0 = start)."""
        return self.plies[ply_count - 1].position if ply_count else self.start

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def over(self) -> bool:
        return self._outcome is not None

    def legal_moves(self) -> list[Move]:
        if self._outcome:
            return []
        moves = self.rules.legal_moves(self.position)
        return [m for m in moves if not self._repeats(m)] if self._no_repeat() else moves

    def _no_repeat(self) -> bool:
        """Does a rule forbid the side to move to recreate an earlier position?"""
        forbids = getattr(self.rules, "forbids_repetition", None)
        return bool(forbids and forbids(self.position))

    def _repeats(self, move: Move) -> bool:
        pos, _ = self.rules.play(self.position, move)
        return repeat_key(self.rules, pos) in self._boards

    # -- playing -------------------------------------------------------------------------------
    def check(self, move: Move) -> str | None:
        """None if ``move`` is legal now, else a sentence saying why not."""
        if self._outcome is not None:
            return f"the game is over ({self._outcome.describe(self.rules.variant)})"
        if move in self.rules.legal_moves(self.position):
            if self._no_repeat() and self._repeats(move):
                return _("this move would recreate an earlier position, which the defenders may not do")
            return None
        return self.rules.explain_illegal(self.position, move)

    def play(self, move: Move) -> Ply:
        """Play a legal move (raises IllegalMove otherwise); clears the redo tail."""
        why = self.check(move)
        if why is not None:
            raise IllegalMove(f"{self.rules.move_text(move)} is illegal: {why}")
        ply = self._push(move)
        self.redo_stack.clear()
        return ply

    def play_text(self, text: str) -> Ply:
        try:
            move = self.rules.parse_move(self.position, text)
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None
        return self.play(move)

    def _push(self, move: Move) -> Ply:
        pos, captures = self.rules.play(self.position, move)
        ply = Ply(move, captures, pos)
        self.plies.append(ply)
        key = self.rules.position_key(pos)
        self._counts[key] = self._counts.get(key, 0) + 1
        board = repeat_key(self.rules, pos)
        self._boards[board] = self._boards.get(board, 0) + 1
        self._recompute_outcome()
        return ply

    def resign(self, side: Side, reason: str = "forfeit") -> None:
        """End the game now with ``side`` losing, for a reason the position does not show (an
        external engine's illegal move, crash or silence: ``forfeit``; a resignation)."""
        if self._outcome is None:
            self.finish(Outcome(Side(side).other, reason))

    def finish(self, outcome: Outcome) -> None:
        """End the game off the board (a reason in :data:`OFF_BOARD_REASONS`: resignation, draw,
        flag fall).  Taking back a move reopens the game."""
        if outcome.reason not in OFF_BOARD_REASONS:
            raise ValueError(f"{quote(outcome.reason)} is not an ending decided off the board")
        self._ended = outcome
        self._outcome = outcome

    def undo(self) -> Ply | None:
        if not self.plies:
            return None  # nothing to take back: an ending off the board at the start stays
        self._ended = None
        ply = self.plies.pop()
        key = self.rules.position_key(ply.position)
        self._counts[key] -= 1
        if not self._counts[key]:
            del self._counts[key]
        board = repeat_key(self.rules, ply.position)
        self._boards[board] -= 1
        if not self._boards[board]:
            del self._boards[board]
        self.redo_stack.append(ply)
        self._recompute_outcome()
        return ply

    def rewind(self, count: int) -> None:
        """Keep only the first ``count`` moves (and no redo tail): a long walk back in one step,
        costing the moves dropped, for readers that walk one game around a variation tree."""
        self._ended = None
        self.redo_stack.clear()
        while len(self.plies) > count:
            key = self.rules.position_key(self.plies.pop().position)
            self._counts[key] -= 1
            if not self._counts[key]:
                del self._counts[key]
        self._recompute_outcome()

    def extend_played(self, plies: list[Ply]) -> None:
        """Append moves played before from this position (a tree's nodes): their positions are
        taken as they are, as :meth:`from_plies` does."""
        self.redo_stack.clear()
        for ply in plies:
            self.plies.append(ply)
            key = self.rules.position_key(ply.position)
            self._counts[key] = self._counts.get(key, 0) + 1
        self._recompute_outcome()

    def redo(self) -> Ply | None:
        if not self.redo_stack:
            return None
        ply = self.redo_stack.pop()
        self._push(ply.move)
        return self.plies[-1]

    def _recompute_outcome(self) -> None:
        if self._ended is not None:
            self._outcome = self._ended
            return
        pos = self.position
        out = self.rules.outcome(pos)
        if out is None:
            count = self._counts.get(self.rules.position_key(pos), 0)
            out = self.rules.repetition_outcome(pos, count)
        if out is None and self._no_repeat():
            self._outcome = None
            if not self.legal_moves():  # every move would repeat: as if the side had none
                out = self.rules.no_moves_outcome(pos)
        self._outcome = out

    # -- text ------------------------------------------------------------------------------------
    def move_texts(self) -> list[str]:
        return [self.rules.move_text(p.move) for p in self.plies]

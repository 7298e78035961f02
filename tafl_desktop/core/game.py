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

:class:`Game` adds what needs history along one line of play: repetition, taking back the last
move, and the record of captures.  The tree of every line tried (variations, redo) is
:class:`~tafl_desktop.core.game_tree.GameTree`; a Game is one path through it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, cast

from tafl_desktop.core import marks
from tafl_desktop.core.marks import N_, N_pair, N_side
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import quote
from tafl_desktop.core.side_words import (
    agree,
    fill,
    sentence,
    side_context,
    side_name,
    side_subject,
    side_words,
    sides_context,
)

if TYPE_CHECKING:
    from tafl_desktop.core.geometry import GraphGeometry, GridGeometry
    from tafl_desktop.core.options import OptionValue
    from tafl_desktop.core.variants import Variant

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
        raise ValueError(_("{text} is not a side: use attackers or defenders").format(text=quote(text)))


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is a Side, or None for a draw; ``reason`` is a stable key."""

    winner: Side | None
    reason: str

    @property
    def result_key(self) -> str:
        return "draw" if self.winner is None else self.winner.key

    def describe(self, variant: Variant | None = None) -> str:
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

    def headline(self, variant: Variant | None = None) -> str:
        """Who won, as a dialog's title reads it: "Attackers win", "Der Fuchs gewinnt", "Draw"."""
        if self.winner is None:
            return marks.gettext("Draw")
        if marks.language() == "en":
            if variant is None:
                return f"{self.winner.key.capitalize()} win"
            return f"{variant.sides[int(self.winner)]} {agree('win', variant.side_count(self.winner))}"
        sides = (variant.sides[0], variant.sides[1]) if variant is not None else ("Attackers", "Defenders")
        number = 1 if variant is not None and variant.side_count(self.winner) == 1 else 2
        return sentence(marks.ngettext("{side} wins", "{side} win", number).format(
            side=side_subject(sides, int(self.winner))))

    def reason_text(self, variant: Variant | None = None) -> str:
        """Why the game ended, as a sentence without its full stop: "The king escaped"."""
        text = REASON_TEXT.get(self.reason, self.reason.replace("_", " "))
        if marks.language() != "en":
            return sentence(self._translated_reason(variant, marks.gettext(text)))
        if self.reason in OFF_BOARD_REASONS:
            text = _off_board_text(self, variant)
        return sentence(fill(text, variant.words if variant is not None else GENERIC_WORDS))

    def _translated_reason(self, variant: Variant | None, reason: str) -> str:
        sides = (variant.sides[0], variant.sides[1]) if variant is not None else ("Attackers", "Defenders")
        words = variant.words if variant is not None else side_words(
            (side_name(sides, 0), side_name(sides, 1)), 2, english=False)
        if self.reason in OFF_BOARD_REASONS:
            text = OFF_BOARD_TEXT[self.reason]
            if self.winner is None:
                reason = marks.gettext(text)
            else:
                loser = int(self.winner.other)
                found = marks.pgettext(side_context(sides, loser), text)
                reason = found.replace("{loser}", side_subject(sides, loser))
        elif "{" in REASON_TEXT.get(self.reason, ""):
            reason = marks.pgettext(sides_context(sides), REASON_TEXT[self.reason])
        return fill(reason, words)

    def _describe_translated(self, variant: Variant | None, reason: str) -> str:
        """:meth:`describe` in a language other than English: whole sentences from the catalogue,
        the reason written for the variant's sides where it names them (``N_pair``/``N_side``)
        and the winner as the subject of the sentence, its verb agreeing with it."""
        sides = (variant.sides[0], variant.sides[1]) if variant is not None else ("Attackers", "Defenders")
        reason = self._translated_reason(variant, reason)
        if self.winner is None:
            return marks.gettext("Draw: {reason}.").format(reason=reason)
        number = 1 if variant is not None and variant.side_count(self.winner) == 1 else 2
        return sentence(marks.ngettext("{side} wins: {reason}.", "{side} win: {reason}.", number).format(
            side=side_subject(sides, int(self.winner)), reason=reason))


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
    "turn_limit": N_("the move limit was reached"),
    "cant_escape": N_("the king can no longer escape"),
    "hunters_captured": N_pair("no {hunter} is left"),
    "flock_depleted": N_pair("too few {many} are left to trap the {hunters}"),
    "broke_through": N_pair("{a_hunter} broke through to the far side"),
    "pen_filled": N_("the pen is filled"),
    "trapped": N_pair("the {hunters} cannot move"),
    "all_captured": N_("every enemy piece is captured"),
    "leader_captured": N_("the enemy leader is captured"),
    "bare_leader": N_("the enemy leader stands alone"),
}


#: Endings decided off the board (resignation, agreed or claimed draw, flag fall): the rules
#: cannot see them in the position, so :meth:`Game.finish` records them.
OFF_BOARD_REASONS = ("resigned", "time", "draw_agreed", "draw_claimed", "forfeit")

#: Their sentences; ``{loser}`` is the losing side as the variant names it ("the geese").
OFF_BOARD_TEXT = {
    "resigned": N_side("{loser} resigned"),
    "time": N_side("{loser} ran out of time"),
    "draw_agreed": N_("both sides agreed to a draw"),
    "draw_claimed": N_("a draw was claimed after the same position occurred three times"),
    "forfeit": N_side("{loser} forfeited the game"),
}


def _off_board_text(outcome: Outcome, variant: Variant | None) -> str:
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
        name = name if variant.traits.proper_side_names else f"the {name.lower()}"
    return text.replace("{loser}", name)


def repeat_key(rules: Rules[P], pos: P) -> Hashable:
    """What a no-repeat rule compares: the board alone where the rules say so (``board_key``:
    hnefatafl.org's rule is about board positions), else the whole position key."""
    board: Callable[[P], Hashable] | None = getattr(rules, "board_key", None)
    return board(pos) if board is not None else rules.position_key(pos)


def unrepeated(rules: Rules[P], pos: P, moves: list[Move], history_keys: Iterable[Hashable]) -> list[Move]:
    """``moves`` less those a no-repeat rule forbids in ``pos`` (``rules.forbids_repetition``),
    given the position keys of the game so far (``rules.position_key`` of every position); the
    computer players and perft use it where they hold the history as keys."""
    forbids: Callable[[P], bool] | None = getattr(rules, "forbids_repetition", None)
    if forbids is None or not forbids(pos):
        return moves
    part: Callable[[Hashable], Hashable] | None = getattr(rules, "board_of_key", None)
    seen = {part(k) if part is not None and isinstance(k, (tuple, list)) else k for k in history_keys}
    return [m for m in moves if repeat_key(rules, rules.play(pos, m)[0]) not in seen]


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why."""


class Position(Protocol):
    """What every family's position is (``TaflPosition``, ``HuntPosition``, ``DablotPosition``):
    an immutable, hashable value that knows the side to move, the moves since the last capture
    and the outcome its last move decided.  Everything else about it is its family's business,
    reached only through the family's :class:`Rules`."""

    @property
    def side(self) -> int: ...
    @property
    def quiet(self) -> int: ...
    @property
    def result(self) -> Outcome | None: ...
    def __hash__(self) -> int: ...


#: A family's own position type; the Rules, Game and GameTree of a family all use the same one.
P = TypeVar("P", bound=Position)


class Rules(Protocol[P]):
    """What the window, the AI, the printer and the CLI may ask of any game family (generic in
    the family's position type, so a Tafl position is never handed to the Fox games' rules)."""

    @property
    def variant(self) -> Variant: ...
    @property
    def geometry(self) -> GridGeometry | GraphGeometry: ...
    @property
    def family(self) -> str: ...
    @property
    def opts(self) -> Mapping[str, OptionValue]: ...

    def initial_position(self) -> P: ...
    def legal_moves(self, pos: P) -> list[Move]: ...
    def play(self, pos: P, move: Move) -> tuple[P, tuple[int, ...]]: ...
    def outcome(self, pos: P) -> Outcome | None: ...
    def position_key(self, pos: P) -> Hashable: ...
    def side_to_move(self, pos: P) -> Side: ...
    def move_text(self, move: Move) -> str: ...
    def parse_move(self, pos: P, text: str) -> Move: ...
    def explain_illegal(self, pos: P, move: Move) -> str: ...
    def position_text(self, pos: P) -> str: ...
    def parse_position(self, text: str, to_move: Side) -> P: ...
    def repetition_outcome(self, pos: P, count: int) -> Outcome | None: ...
    def pieces(self, pos: P) -> dict[int, str]: ...


class RepetitionRules(Rules[P], Protocol[P]):
    """A family with rules about repeating positions beyond a repetition's outcome (Tafl's
    "the defenders may not repeat"): a Game asks these when the rules have them."""

    def forbids_repetition(self, pos: P) -> bool: ...
    def no_moves_outcome(self, pos: P) -> Outcome | None: ...


@dataclass(frozen=True)
class Ply(Generic[P]):
    """One move played in a game: the move, what it captured, and the position after it."""

    move: Move
    captures: tuple[int, ...]
    position: P


class Game(Generic[P]):
    """A game in progress: start position and the moves played (one line; redo lives in the tree).

    Repetition is counted here because it needs the history; everything else the rules object
    decides from the position alone.
    """

    def __init__(self, rules: Rules[P], start: P | None = None) -> None:
        self.rules = rules
        self.start: P = rules.initial_position() if start is None else start
        self.plies: list[Ply[P]] = []
        self._counts: dict[Hashable, int] = {rules.position_key(self.start): 1}
        self._boards: dict[Hashable, int] = {repeat_key(rules, self.start): 1}  # for a no-repeat rule
        #: The rules again when they forbid repeating positions (asked once: it is asked per move).
        self._repetition: RepetitionRules[P] | None = \
            cast("RepetitionRules[P]", rules) if hasattr(rules, "forbids_repetition") else None
        #: False when the rules say they have no no-repeat rule at all (``no_repeat``: Tafl's), so
        #: that a replay does not ask twice a move (asked of the position otherwise).
        self._may_forbid: bool = self._repetition is not None and getattr(rules, "no_repeat", True) is not False
        #: Rules whose ``play`` refuses an illegal move itself (ValueError): :meth:`play` asks them
        #: once a move instead of listing every legal move first (see :meth:`play`).
        self._plays_checked: bool = bool(getattr(rules, "plays_checked", False))
        #: What a no-repeat rule compares (:func:`repeat_key`), looked up once.
        self._board_key: Callable[[P], Hashable] | None = getattr(rules, "board_key", None)
        self._outcome: Outcome | None = None
        self._ended: Outcome | None = None  # an ending decided off the board (see finish)
        self._recompute_outcome()

    @classmethod
    def from_plies(cls, rules: Rules[P], start: P, plies: list[Ply[P]]) -> Game[P]:
        """A game whose history is ``plies``, played before (a line of a variation tree): the
        positions are taken as they are, only the repetition counts and the outcome are rebuilt."""
        game = cls(rules, start)
        for ply in plies:
            game._append(ply)
        game._recompute_outcome()
        return game

    def append(self, ply: Ply[P]) -> None:
        """Continue with ``ply``, a move played before from this very position (a node of the
        tree): its position is taken as it is, the rules are not asked again."""
        self._ended = None
        self._append(ply)
        self._recompute_outcome()

    def _append(self, ply: Ply[P]) -> None:
        self.plies.append(ply)
        rules = self.rules
        key = rules.position_key(ply.position)
        self._counts[key] = self._counts.get(key, 0) + 1
        board = key if self._board_key is None else self._board_key(ply.position)
        self._boards[board] = self._boards.get(board, 0) + 1

    # -- state ---------------------------------------------------------------------------------
    @property
    def position(self) -> P:
        return self.plies[-1].position if self.plies else self.start

    def position_at(self, ply_count: int) -> P:
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
        return self._may_forbid and self._repetition is not None and self._repetition.forbids_repetition(self.position)

    def _repeats(self, move: Move) -> bool:
        pos, _caps = self.rules.play(self.position, move)
        return repeat_key(self.rules, pos) in self._boards

    # -- playing -------------------------------------------------------------------------------
    def check(self, move: Move) -> str | None:
        """None if ``move`` is legal now, else a sentence saying why not."""
        if self._outcome is not None:
            return _("the game is over ({result})").format(result=self._outcome.describe(self.rules.variant))
        if move in self.rules.legal_moves(self.position):
            if self._no_repeat() and self._repeats(move):
                return _("this move would recreate an earlier position, which the defenders may not do")
            return None
        return self.rules.explain_illegal(self.position, move)

    def play(self, move: Move) -> Ply[P]:
        """Play a legal move (raises IllegalMove otherwise).

        Rules that check a move as they play it (``plays_checked``, the native engine's) are
        asked to play it at once: listing every legal move to find this one was most of the
        time of a replayed record (a game database imports thousands).  A move they refuse, or
        one a no-repeat rule may forbid, goes through :meth:`check`, whose sentence says why."""
        if self._plays_checked and self._outcome is None and not self._no_repeat():
            try:
                pos, captures = self.rules.play(self.position, move)
            except (ValueError, TypeError):
                pass  # refused: check says why below
            else:
                ply = Ply(move, captures, pos)
                self._append(ply)
                self._recompute_outcome()
                return ply
        why = self.check(move)
        if why is not None:
            raise IllegalMove(_("{move} is illegal: {why}").format(move=self.rules.move_text(move), why=why))
        return self._push(move)

    def play_text(self, text: str) -> Ply[P]:
        try:
            move = self.rules.parse_move(self.position, text)
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None
        return self.play(move)

    def _push(self, move: Move) -> Ply[P]:
        pos, captures = self.rules.play(self.position, move)
        ply = Ply(move, captures, pos)
        self._append(ply)
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

    def undo(self) -> Ply[P] | None:
        """Take back the last move (the tree keeps it, for redo and variations)."""
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
        self._recompute_outcome()
        return ply

    def rewind(self, count: int) -> None:
        """Keep only the first ``count`` moves: a long walk back in one step, costing the moves
        dropped, for readers that walk one game around a variation tree."""
        self._ended = None
        while len(self.plies) > count:
            ply = self.plies.pop()
            key = self.rules.position_key(ply.position)
            self._counts[key] -= 1
            if not self._counts[key]:
                del self._counts[key]
            board = repeat_key(self.rules, ply.position)
            self._boards[board] -= 1
            if not self._boards[board]:
                del self._boards[board]
        self._recompute_outcome()

    def extend_played(self, plies: list[Ply[P]]) -> None:
        """Append moves played before from this position (a tree's nodes): their positions are
        taken as they are, as :meth:`from_plies` does."""
        for ply in plies:
            self._append(ply)
        self._recompute_outcome()

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
            if not self.legal_moves() and self._repetition is not None:
                out = self._repetition.no_moves_outcome(pos)  # every move would repeat: as if the side had none
        self._outcome = out

    # -- text ------------------------------------------------------------------------------------
    def move_texts(self) -> list[str]:
        return [self.rules.move_text(p.move) for p in self.plies]

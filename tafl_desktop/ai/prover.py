"""A small exhaustive AND/OR search: does a side win within N plies, and by one first move only?

A puzzle must be *proven*, not guessed by an evaluation: the winner has a move that wins within
``plies`` plies against every defence, and no other first move does.  The search is plain
depth-first over the rules engine (``legal_moves``, ``play``, ``outcome``), so a puzzle follows
whichever rules are in force.  Positions are values, so no unmake is needed; a table keyed by
(position key, plies left) remembers what was already settled, as lines transpose often.

Repetition is not consulted: a puzzle starts from a fresh game, and within the five plies the
puzzles use no position can occur the three times the repetition rules need.

:func:`make_prover` gives the Tafl games, Dablot and the Fox games a :class:`NativeProver` where the native
engine is built: the same questions settled by the same rules in ``tafl_native`` (about a hundred
times faster), so the miner can afford deeper puzzles; the solution tree is still walked here.

It lives in ``ai/`` (it was ``study/prover.py``) because the
search's proven lines use it too (:mod:`tafl_desktop.ai.proven_line`), and ``ai/`` sits below
``study/`` (``docs/ARCHITECTURE.md`` §1).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, cast

from tafl_desktop.core.game import Move, P, Rules, Side

if TYPE_CHECKING:
    from tafl_desktop.core.dablot import DablotPosition, DablotRules
    from tafl_desktop.core.hunt import HuntPosition, HuntRules
    from tafl_desktop.core.tafl import TaflPosition, TaflRules


class SearchBudgetExceeded(RuntimeError):
    """The proof needed more positions than it was allowed: the question stays open."""


@dataclass
class Prover(Generic[P]):
    """Proves forced wins for ``winner`` with a node budget (``max_nodes``, 0 = none).

    Exhaustive, but ordered so that the answers come early: at the defender's turn the replies
    that refuted a sibling before (killer replies) are tried first, since one refutation settles
    the node; at the winner's turn the moves that won a sibling before are tried first.  The
    table keeps, per position, the longest depth known *not* to win and the shortest known to
    win, so a result found at one depth settles every shallower or deeper question it implies
    (iterative deepening 1, 3, 5 ... reuses all of it)."""

    rules: Rules[P]
    winner: Side
    max_nodes: int = 0
    nodes: int = 0
    _table: dict[Hashable, list[int]] = field(default_factory=dict)
    _killers: dict[tuple[bool, int], list[Move]] = field(default_factory=dict)

    def _count(self) -> None:
        self.nodes += 1
        if self.max_nodes and self.nodes > self.max_nodes:
            raise SearchBudgetExceeded(f"more than {self.max_nodes} positions")

    def _ordered(self, moves: list[Move], winner_turn: bool, plies: int) -> list[Move]:
        killers = self._killers.get((winner_turn, plies))
        if not killers:
            return moves
        first = [k for k in killers if k in moves]
        if not first:
            return moves
        return first + [m for m in moves if m not in first]

    def _remember(self, move: Move, winner_turn: bool, plies: int) -> None:
        killers = self._killers.setdefault((winner_turn, plies), [])
        if killers[:1] != [move]:
            if move in killers:
                killers.remove(move)
            killers.insert(0, move)
            del killers[3:]

    def wins(self, pos: P, plies: int) -> bool:
        """True when ``winner`` wins from ``pos`` within ``plies`` plies whatever the other side does."""
        rules = self.rules
        out = rules.outcome(pos)
        if out is not None:
            return out.winner == self.winner
        if plies <= 0:
            return False
        key = rules.position_key(pos)
        known = self._table.get(key)  # [deepest depth known lost, shallowest depth known won]
        if known is not None:
            if plies <= known[0]:
                return False
            if plies >= known[1]:
                return True
        self._count()
        moves = rules.legal_moves(pos)
        if rules.side_to_move(pos) == self.winner:
            result = self._or_node(pos, moves, plies)
        else:
            result = bool(moves) and self._and_node(pos, moves, plies)
        entry = self._table.setdefault(key, [0, 1 << 30])
        if result:
            entry[1] = min(entry[1], plies)
        else:
            entry[0] = max(entry[0], plies)
        return result

    def _or_node(self, pos: P, moves: list[Move], plies: int) -> bool:
        rules = self.rules
        play = rules.play
        ordered = self._ordered(moves, True, plies)
        children = []
        for m in ordered:  # the quick wins first: a move that ends the game at once settles the node
            child = play(pos, m)[0]
            if self._ends_won(child):
                self._remember(m, True, plies)
                return True
            children.append((m, child))
        if plies > 1:
            for m, child in children:
                if self.wins(child, plies - 1):
                    self._remember(m, True, plies)
                    return True
        return False

    def _and_node(self, pos: P, moves: list[Move], plies: int) -> bool:
        play = self.rules.play
        for m in self._ordered(moves, False, plies):
            if not self.wins(play(pos, m)[0], plies - 1):
                self._remember(m, False, plies)
                return False
        return True

    def _ends_won(self, pos: P) -> bool:
        out = self.rules.outcome(pos)
        return out is not None and out.winner == self.winner

    def winning_moves(self, pos: P, plies: int, stop_at: int = 0, first: Move | None = None) -> list[Move]:
        """Every first move of ``winner`` (to move in ``pos``) that wins within ``plies`` plies
        (or the first ``stop_at`` of them, when that is all the caller needs to know); ``first``
        is tried before the others."""
        found = []
        moves = self.rules.legal_moves(pos)
        if first is not None and first in moves:
            moves = [first] + [m for m in moves if m != first]
        for m in moves:
            if self.wins(self.rules.play(pos, m)[0], plies - 1):
                found.append(m)
                if stop_at and len(found) >= stop_at:
                    break
        return found

    def tree(self, pos: P, plies: int) -> dict[str, Any]:
        """The solution tree of a proven win: the winner's move at each of its turns and, for each
        defence, the subtree that answers it.  Only call on a position :meth:`wins` has proven.
        At each turn the winner's move is the fastest win (a move that ends the game first, then
        one winning in the fewest plies), so the main line is as short as the defence allows."""
        rules = self.rules
        out = rules.outcome(pos)
        if out is not None:
            return {"end": out.reason}
        if rules.side_to_move(pos) == self.winner:
            # the moves that ended or won a sibling's line first: the same final blow usually
            # serves every defence, so most nodes settle after a play or two
            children = []
            for m in self._ordered(rules.legal_moves(pos), True, plies):
                child = rules.play(pos, m)[0]
                if self._ends_won(child):
                    self._remember(m, True, plies)
                    return {"move": rules.move_text(m), "then": self.tree(child, 0)}
                children.append((m, child))
            for depth in range(2, plies, 2):  # the fastest win first
                for m, child in children:
                    if self.wins(child, depth):
                        self._remember(m, True, plies)
                        return {"move": rules.move_text(m), "then": self.tree(child, depth)}
            raise ValueError("tree() asked for a position that is not won")
        return {"replies": {rules.move_text(m): self.tree(rules.play(pos, m)[0], plies - 1)
                            for m in rules.legal_moves(pos)}}


class NativeProver(Prover[P]):
    """A :class:`Prover` whose :meth:`wins` runs natively (same rules, same budget meaning):
    the Tafl games through the native rules, Dablot through :mod:`tafl_desktop.native.dablot`, the
    Fox games through :mod:`tafl_desktop.native.hunt_search`."""

    def __init__(self, rules: Rules[P], winner: Side, max_nodes: int = 0) -> None:
        super().__init__(rules, winner, max_nodes)
        #: ``wins`` of the native prover: (position, winner, plies, node budget) -> (won, nodes).
        self._ask: Callable[[P, int, int, int], tuple[bool | None, int]]
        # the family's own rules and positions (a family name names one rules class)
        if rules.family == "dablot":
            from tafl_desktop.native.dablot import position_tuple as dablot_crossing
            from tafl_desktop.native.dablot import prover_core

            dablot = prover_core(cast("DablotRules", rules))
            dablot.forget_proofs()  # a fresh table per prover, as the Python one has
            self._ask = lambda pos, side, plies, left: dablot.wins(
                dablot_crossing(cast("DablotPosition", pos)), side, plies, left)
        elif rules.family == "hunt":
            from tafl_desktop.ai.engine import native_hunt_prover_core
            from tafl_desktop.native.hunt import position_tuple as hunt_crossing

            hunt = native_hunt_prover_core(cast("HuntRules", rules))
            hunt.forget_proofs()
            self._ask = lambda pos, side, plies, left: hunt.wins(
                hunt_crossing(cast("HuntPosition", pos)), side, plies, left)
        else:
            from tafl_desktop.ai.engine import native_prover_core
            from tafl_desktop.native.bridge import position_tuple

            tafl = native_prover_core(cast("TaflRules", rules))
            tafl.forget_proofs()
            self._ask = lambda pos, side, plies, left: tafl.wins(
                position_tuple(cast("TaflPosition", pos)), side, plies, left)

    def wins(self, pos: P, plies: int) -> bool:
        left = 0
        if self.max_nodes:
            left = self.max_nodes - self.nodes
            if left <= 0:
                raise SearchBudgetExceeded(f"more than {self.max_nodes} positions")
        result, used = self._ask(pos, int(self.winner), int(plies), left)
        self.nodes += used
        if result is None:
            raise SearchBudgetExceeded(f"more than {self.max_nodes} positions")
        return bool(result)


def make_prover(rules: Rules[P], winner: Side, max_nodes: int = 0, engine: str | None = None) -> Prover[P]:
    """The prover for ``rules``: native where :func:`prover_engine` says so, else Python."""
    if prover_engine(rules, engine) == "native":
        return NativeProver(rules, winner, max_nodes)
    return Prover(rules, winner, max_nodes)


def prover_engine(rules: Rules[P], engine: str | None = None) -> str:
    """Which prover settles ``rules``: ``native`` for the Tafl games (as the search resolves
    ``engine``, ``$TAFL_ENGINE`` or the build) and for Dablot where the native engine is built
    and plays its settings (all but Ambush, Action Points and the captureless draw), unless
    ``python`` is asked for, and for the Fox games likewise (all but the captureless draw);
    ``python`` otherwise."""
    import os

    from tafl_desktop.ai.engine import ENGINE_ENV, resolve

    family = getattr(rules, "family", "")
    if family not in ("dablot", "hunt"):
        return resolve(rules, engine)
    if family == "dablot":
        from tafl_desktop.native.dablot import unsupported

        refusal = unsupported(cast("DablotRules", rules))  # the Dablot family's rules
    else:
        from tafl_desktop.native.hunt_search import prover_refusal

        refusal = prover_refusal(cast("HuntRules", rules))
    name = engine if engine is not None else (os.environ.get(ENGINE_ENV) or None)
    return "native" if name != "python" and refusal is None else "python"


def main_line(rules: Rules[P], pos: P, tree: dict[str, Any]) -> list[str]:
    """The solution's main line: the winner's moves and, at each defence, the reply that holds out
    longest (the one with the deepest subtree), ending with the winning move."""
    line: list[str] = []
    node = tree
    while True:
        if "move" in node:
            line.append(node["move"])
            node = node["then"]
        elif "replies" in node:
            reply, node = max(node["replies"].items(), key=lambda kv: tree_depth(kv[1]))
            line.append(reply)
        else:
            return line


def tree_depth(node: dict[str, Any]) -> int:
    """Plies from this node to the end of its longest line."""
    if "move" in node:
        return 1 + tree_depth(node["then"])
    if "replies" in node:
        return 1 + max((tree_depth(n) for n in node["replies"].values()), default=0)
    return 0


@dataclass(frozen=True)
class Proof:
    """A unique forced win: the only first move, the plies to the end, the tree and the effort."""

    winner: Side
    plies: int
    first: Move
    tree: dict[str, Any]
    nodes: int


def prove_unique(rules: Rules[P], pos: P, max_plies: int, max_nodes: int = 0, engine: str | None = None, *,
                 hint: Move | None = None, hint_only: bool = False) -> Proof | None:
    """The shortest forced win for the side to move within ``max_plies`` (odd: 1, 3, 5 ...), if
    exactly one first move achieves it; None otherwise (no forced win, several first moves, or the
    budget ran out).  The shortest N is taken: a puzzle's N is what the solver must find.

    ``hint`` (a legal move, e.g. the move played in the game) is tried first at every depth;
    with ``hint_only`` a position whose hint does not win within ``max_plies`` is given up at
    once, without proving that no other move wins: a miner's shortcut on big boards, where that
    proof is the dearest part and the move the winner really played is the likeliest key.  A
    puzzle is still only ever returned with its uniqueness proved."""
    if rules.outcome(pos) is not None:
        return None
    side = rules.side_to_move(pos)
    prover = make_prover(rules, side, max_nodes, engine)
    if hint is not None and hint not in rules.legal_moves(pos):
        if hint_only:
            return None
        hint = None
    top = max_plies if max_plies % 2 else max_plies - 1
    try:
        if hint is not None and hint_only and not prover.wins(rules.play(pos, hint)[0], top - 1):
            return None
        # the deepest question first: when one first move alone wins within ``top``, no other wins
        # sooner either, so its own shortest win is the puzzle (no pass over every move per depth)
        winners = prover.winning_moves(pos, top, stop_at=2, first=hint) if top >= 1 else []
        if not winners:
            return None
        if len(winners) == 1:
            child = rules.play(pos, winners[0])[0]
            plies = next(p for p in range(1, top + 1, 2) if prover.wins(child, p - 1))
            return Proof(side, plies, winners[0], prover.tree(pos, plies), prover.nodes)
        for plies in range(1, top, 2):  # several win within top: is one alone faster?
            winners = prover.winning_moves(pos, plies, stop_at=2, first=hint)
            if len(winners) > 1:
                return None
            if winners:
                return Proof(side, plies, winners[0], prover.tree(pos, plies), prover.nodes)
    except SearchBudgetExceeded:
        return None
    return None

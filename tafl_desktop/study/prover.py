"""A small exhaustive AND/OR search: does a side win within N plies, and by one first move only?

A puzzle must be *proven*, not guessed by an evaluation: the winner has a move that wins within
``plies`` plies against every defence, and no other first move does.  The search is plain
depth-first over the rules engine (``legal_moves``, ``play``, ``outcome``), so a puzzle follows
whichever rules are in force.  Positions are values, so no unmake is needed; a table keyed by
(position key, plies left) remembers what was already settled, as lines transpose often.

Repetition is not consulted: a puzzle starts from a fresh game, and within the five plies the
puzzles use no position can occur the three times the repetition rules need.

:func:`make_prover` gives the Tafl games a :class:`NativeProver` where the native engine is built:
the same questions settled by the same rules in ``tafl_native`` (about a hundred times faster),
so the miner can afford deeper puzzles; the solution tree is still walked here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tafl_desktop.core.game import Move, Side


class SearchBudgetExceeded(RuntimeError):
    """The proof needed more positions than it was allowed: the question stays open."""


@dataclass
class Prover:
    """Proves forced wins for ``winner`` with a node budget (``max_nodes``, 0 = none)."""

    rules: Any
    winner: Side
    max_nodes: int = 0
    nodes: int = 0
    _table: dict[tuple[Any, int], bool] = field(default_factory=dict)

    def _count(self) -> None:
        self.nodes += 1
        if self.max_nodes and self.nodes > self.max_nodes:
            raise SearchBudgetExceeded(f"more than {self.max_nodes} positions")

    def wins(self, pos: Any, plies: int) -> bool:
        """True when ``winner`` wins from ``pos`` within ``plies`` plies whatever the other side does."""
        out = self.rules.outcome(pos)
        if out is not None:
            return out.winner == self.winner
        if plies <= 0:
            return False
        key = (self.rules.position_key(pos), plies)
        known = self._table.get(key)
        if known is not None:
            return known
        self._count()
        rules = self.rules
        moves = rules.legal_moves(pos)
        if rules.side_to_move(pos) == self.winner:
            children = [rules.play(pos, m)[0] for m in moves]
            # the quick wins first: a move that ends the game at once settles the node
            result = any(self._ends_won(c) for c in children) or (
                plies > 1 and any(self.wins(c, plies - 1) for c in children))
        else:
            result = bool(moves) and all(self.wins(rules.play(pos, m)[0], plies - 1) for m in moves)
        self._table[key] = result
        return result

    def _ends_won(self, pos: Any) -> bool:
        out = self.rules.outcome(pos)
        return out is not None and out.winner == self.winner

    def winning_moves(self, pos: Any, plies: int) -> list[Move]:
        """Every first move of ``winner`` (to move in ``pos``) that wins within ``plies`` plies."""
        return [m for m in self.rules.legal_moves(pos) if self.wins(self.rules.play(pos, m)[0], plies - 1)]

    def tree(self, pos: Any, plies: int) -> dict[str, Any]:
        """The solution tree of a proven win: the winner's move at each of its turns and, for each
        defence, the subtree that answers it.  Only call on a position :meth:`wins` has proven."""
        rules = self.rules
        out = rules.outcome(pos)
        if out is not None:
            return {"end": out.reason}
        if rules.side_to_move(pos) == self.winner:
            moves = rules.legal_moves(pos)
            children = [(m, rules.play(pos, m)[0]) for m in moves]
            for m, child in children:  # the shortest win first, so the line ends as soon as it can
                if self._ends_won(child):
                    return {"move": rules.move_text(m), "then": self.tree(child, 0)}
            for m, child in children:
                if self.wins(child, plies - 1):
                    return {"move": rules.move_text(m), "then": self.tree(child, plies - 1)}
            raise ValueError("tree() asked for a position that is not won")
        return {"replies": {rules.move_text(m): self.tree(rules.play(pos, m)[0], plies - 1)
                            for m in rules.legal_moves(pos)}}


class NativeProver(Prover):
    """A :class:`Prover` whose :meth:`wins` runs natively (same rules, same budget meaning)."""

    def __init__(self, rules: Any, winner: Side, max_nodes: int = 0) -> None:
        super().__init__(rules, winner, max_nodes)
        from tafl_desktop.native.search import prover_core

        self._core = prover_core(rules)
        self._core.forget_proofs()  # a fresh table per prover, as the Python one has

    def wins(self, pos: Any, plies: int) -> bool:
        from tafl_desktop.native.bridge import position_tuple

        left = 0
        if self.max_nodes:
            left = self.max_nodes - self.nodes
            if left <= 0:
                raise SearchBudgetExceeded(f"more than {self.max_nodes} positions")
        result, used = self._core.wins(position_tuple(pos), int(self.winner), int(plies), left)
        self.nodes += used
        if result is None:
            raise SearchBudgetExceeded(f"more than {self.max_nodes} positions")
        return bool(result)


def make_prover(rules: Any, winner: Side, max_nodes: int = 0, engine: str | None = None) -> Prover:
    """The prover for ``rules``: native for the Tafl games where it is built, else Python."""
    from tafl_desktop.ai.engine import resolve

    if resolve(rules, engine) == "native":
        return NativeProver(rules, winner, max_nodes)
    return Prover(rules, winner, max_nodes)


def main_line(rules: Any, pos: Any, tree: dict[str, Any]) -> list[str]:
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


def prove_unique(rules: Any, pos: Any, max_plies: int, max_nodes: int = 0, engine: str | None = None) -> Proof | None:
    """The shortest forced win for the side to move within ``max_plies`` (odd: 1, 3, 5 ...), if
    exactly one first move achieves it; None otherwise (no forced win, several first moves, or the
    budget ran out).  The shortest N is taken: a puzzle's N is what the solver must find."""
    if rules.outcome(pos) is not None:
        return None
    side = rules.side_to_move(pos)
    prover = make_prover(rules, side, max_nodes, engine)
    try:
        for plies in range(1, max_plies + 1, 2):
            winners = prover.winning_moves(pos, plies)
            if len(winners) > 1:
                return None
            if winners:
                return Proof(side, plies, winners[0], prover.tree(pos, plies), prover.nodes)
    except SearchBudgetExceeded:
        return None
    return None

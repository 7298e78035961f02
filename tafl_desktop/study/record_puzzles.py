"""OpenTafl puzzle files: an ``.otg`` game record whose ``puzzle-mode`` tag makes it a puzzle.

Facts from OpenTafl's notation spec (``opentafl-notation-spec.txt``, tags ``puzzle-mode``,
``puzzle-prestart``, ``puzzle-start``) and its replay code (``engine/replay/ReplayGame.java``,
``MoveAddress.java``), read, not copied:

* ``puzzle-mode`` is ``none``, ``loose`` or ``strict``.  In a *loose* puzzle any legal move may be
  tried and the player is told when it is not among the record's lines; a *strict* one accepts
  only the moves of the record.
* ``puzzle-start`` is the move address where the puzzle begins (default ``0a``, the start);
  ``puzzle-prestart`` an earlier one from which the record is shown as an introduction (only
  stepped through) up to the start.  The address ``Nx`` names the position after move ``Nx``
  (``1a`` the first move, ``1b`` the second), ``0a`` the start position.
* The record's lines from the start, variations included, are the author's solution and its
  refutations; the comment on a position is shown there, and a ``(Hint: ...)`` in it is the hint
  for that position.

A record puzzle is not proved here; :func:`check_record_puzzle` asks the prover whether the side
to move really has a forced win where the author's main line ends in one, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.game import Move, Position
from tafl_desktop.core.game_tree import GameTree, Node

if TYPE_CHECKING:
    from tafl_desktop.interop.transfer import GameTransfer
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.study.puzzles import PuzzleError

MODES = ("loose", "strict")
_ADDRESS = re.compile(r"([0-9]{1,6})([a-z])")
_HINT = re.compile(r"\(Hint:(.*?)\)", re.IGNORECASE | re.DOTALL)


def is_puzzle_tags(tags: dict[str, str]) -> bool:
    """Does a record's tags make it a puzzle (``puzzle-mode`` loose or strict)?"""
    return str(tags.get("puzzle-mode", "")).strip().lower() in MODES


def main_line_depth(address: str, length: int) -> int:
    """The main-line position an address names (``0a`` the start, ``1a`` after the first move,
    ``1b`` after the second); PuzzleError for anything else or past the record's end."""
    m = _ADDRESS.fullmatch(address.strip())
    not_an_address = _("'{address}' is not a move address of the main line such as 6a")
    if not m:
        raise PuzzleError(not_an_address.format(address=address[:20]))
    turn, half = int(m.group(1)), ord(m.group(2)) - ord("a")
    if turn == 0:
        if half:
            raise PuzzleError(not_an_address.format(address=address[:20]))
        return 0
    if half > 1:
        raise PuzzleError(_("'{address}': only two moves a turn are played here").format(address=address[:20]))
    depth = 2 * (turn - 1) + half + 1
    if depth > length:
        raise PuzzleError(_("'{address}' is past the record's last move ({last})").format(
            address=address[:20], last=length))
    return depth


def split_hints(text: str) -> tuple[str, list[str]]:
    """A comment without its ``(Hint: ...)`` parts, and those hints."""
    hints = [h.strip() for h in _HINT.findall(text or "") if h.strip()]
    return " ".join(_HINT.sub("", text or "").split()), hints


@dataclass
class RecordPuzzle:
    """A puzzle read from an OpenTafl record: its rules, its tree and where it starts."""

    name: str
    mode: str
    tree: GameTree[Position]
    start: Node[Position]
    intro: list[Node[Position]]
    tags: dict[str, str]

    @property
    def variant(self) -> Any:
        return self.tree.rules.variant

    @property
    def rules(self) -> Any:
        return self.tree.rules

    @property
    def solver(self) -> Any:
        """The side to move at the start: the side the player plays."""
        return self.rules.side_to_move(self.tree.position(self.start))

    def position(self, node: Node[Position]) -> Any:
        return self.tree.position(node)

    def child(self, node: Node[Position], move: Move) -> Node[Position] | None:
        """The record's continuation by ``move`` from ``node``, if the record has it."""
        return node.child(tuple(move))

    def reply(self, node: Node[Position]) -> Node[Position] | None:
        """The record's answer at ``node``: its main continuation."""
        return node.children[0] if node.children else None

    def main_line(self, node: Node[Position] | None = None) -> list[Node[Position]]:
        """The record's main continuation from ``node`` (the start) to its end."""
        out = []
        node = node or self.start
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    def introduction(self) -> str:
        """The start comment and the comments between ``puzzle-prestart`` and the start, in order."""
        parts = [self.tree.root.comment] if self.tree.root.comment else []
        parts += [n.comment for n in self.intro if n.comment]
        texts = [split_hints(p)[0] for p in parts]
        return "\n\n".join(t for t in texts if t)

    def comment(self, node: Node[Position]) -> str:
        return split_hints(node.comment)[0]

    def hints(self, node: Node[Position]) -> list[str]:
        return split_hints(node.comment)[1]


def record_puzzle_from_transfer(transfer: GameTransfer, name: str) -> RecordPuzzle:
    """A :class:`RecordPuzzle` from a read ``.otg`` record (``interop.otg.read_otg``);
    PuzzleError when its tags do not make it a puzzle or its addresses lead nowhere."""
    tags = dict(transfer.tags)
    mode = str(tags.get("puzzle-mode", "")).strip().lower()
    if mode not in MODES:
        raise PuzzleError(_("{name} is not an OpenTafl puzzle (its puzzle-mode tag is not loose or strict)").format(
            name=name))
    tree = transfer.to_tree()
    main = tree.main_line()
    start_depth = main_line_depth(tags.get("puzzle-start", "0a") or "0a", len(main))
    pre = tags.get("puzzle-prestart")
    pre_depth = main_line_depth(pre, len(main)) if pre else start_depth
    if pre_depth > start_depth:
        raise PuzzleError(_("{name}: puzzle-prestart comes after puzzle-start").format(name=name))
    nodes = [tree.root, *main]
    start = nodes[start_depth]
    if tree.rules.outcome(tree.position(start)) is not None:
        raise PuzzleError(_("{name}: the puzzle starts where the game is already over").format(name=name))
    return RecordPuzzle(name, mode, tree, start, nodes[pre_depth + 1:start_depth + 1], tags)


def read_record_puzzle(path: str | Path) -> RecordPuzzle:
    """Read an OpenTafl puzzle file; PuzzleError (one line) when it cannot be one."""
    from tafl_desktop.interop.formats import read_game
    from tafl_desktop.interop.transfer import InteropError

    name = Path(path).name
    try:
        transfer = read_game(path, "otg")
    except InteropError as exc:
        raise PuzzleError(str(exc)) from None
    return record_puzzle_from_transfer(transfer, name)


#: Longest forced win the check tries to prove, and the positions it may visit.
CHECK_MAX_PLIES = 7
CHECK_NODE_BUDGET = 200_000


def check_record_puzzle(path: str | Path) -> dict[str, Any]:
    """What a record puzzle is and whether the prover confirms it: ``mode``, ``start`` (plies
    from the record's start), ``to_move``, ``lines`` (the record's lines from the start),
    ``main_line`` (its moves), ``ends`` (the main line's result, or null), and ``proof``: for a main
    line that ends in a win for the side to move within :data:`CHECK_MAX_PLIES`, ``proved`` (a
    forced win in ``plies``, ``unique`` or not), ``refuted`` (no forced win that short) or
    ``open`` (past the budget); ``not tried`` otherwise."""
    from tafl_desktop.ai.prover import SearchBudgetExceeded, make_prover

    puzzle = read_record_puzzle(path)
    rules, variant = puzzle.rules, puzzle.variant
    start = puzzle.position(puzzle.start)
    line = puzzle.main_line()
    leaves = sum(1 for n in _below(puzzle.start) if not n.children)
    end = rules.outcome(puzzle.position(line[-1])) if line else None
    solver = rules.side_to_move(start)
    report: dict[str, Any] = {
        "mode": puzzle.mode, "start": puzzle.start.depth, "to_move": variant.side_key(solver),
        "lines": leaves, "main_line": [rules.move_text(n.move) for n in line],
        "ends": None if end is None else {"reason": end.reason,
                                          "winner": None if end.winner is None else variant.side_key(end.winner)},
        "proof": {"status": "not tried"},
    }
    if end is None or end.winner != solver or len(line) > CHECK_MAX_PLIES:
        return report
    prover = make_prover(rules, solver, CHECK_NODE_BUDGET)
    try:
        if not prover.wins(start, len(line)):
            report["proof"] = {"status": "refuted", "plies": len(line)}
            return report
        plies = next(p for p in range(1, len(line) + 1, 2) if prover.wins(start, p))
        winners = prover.winning_moves(start, plies, stop_at=2)
        report["proof"] = {"status": "proved", "plies": plies, "unique": len(winners) == 1,
                           "first": [rules.move_text(m) for m in winners]}
    except SearchBudgetExceeded:
        report["proof"] = {"status": "open", "plies": len(line)}
    return report


def _below(node: Node[Position]) -> Iterator[Node[Position]]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)

"""Variations and comments in a game record, next to the record's plain ``moves`` (the main line).

A record that has them carries two more keys (a record without them is written exactly as
before, so older copies of the app still open it)::

    "comments":   {"0": "on the start position", "3": "on the third move"},
    "variations": [{"ply": 3, "moves": ["d3-b3", "c1-c2"],
                    "comments": {"4": "..."}, "variations": [...]}]

Ply numbers count moves from the start of the game (1 = the first move) in every line, so a
comment or a variation is found at the same number as in the move list.  A variation at ``ply``
n is played instead of move n of the line it hangs from; its own variations hang from it the same
way.  Reading replays every move through the rules, like the main line.
"""

from __future__ import annotations

from typing import Any

from tafl_desktop.core import progress
from tafl_desktop.core.game import IllegalMove, Position
from tafl_desktop.core.game_tree import GameTree, Node, TreeCursor
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext
from tafl_desktop.core.quoting import shown
from tafl_desktop.core.record_limits import MAX_COMMENT, MAX_NESTING

TREE_KEYS = ("comments", "variations")


class TreeFormatError(ValueError):
    """The variations or comments of a record are malformed; the message is one clear line."""


# ------------------------------------------------------------------------------------ writing
def tree_extras(tree: GameTree[Position]) -> dict[str, Any]:
    """The ``comments`` and ``variations`` keys for ``tree`` (only those that are not empty)."""
    out: dict[str, Any] = {}
    line = tree.main_line()
    comments = _line_comments(line)
    if tree.root.comment:
        comments = {"0": tree.root.comment, **comments}
    if comments:
        out["comments"] = comments
    variations = _line_variations(tree, line)
    if variations:
        out["variations"] = variations
    return out


def _line_comments(line: list[Node[Position]]) -> dict[str, str]:
    return {str(n.depth): n.comment for n in line if n.comment}


def _line_variations(tree: GameTree[Position], line: list[Node[Position]]) -> list[dict[str, Any]]:
    """The variations hanging from ``line``, each with its own nested ones: a loop over a stack of
    lines still to write, never recursion (a tree may nest as deep as the limits allow)."""
    top: list[dict[str, Any]] = []
    stack: list[tuple[list[Node[Position]], list[dict[str, Any]]]] = [(line, top)]
    nested_of: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    while stack:
        nodes, out = stack.pop()
        for node in nodes:
            if not node.is_main_child or node.parent is None:
                continue  # the alternatives to a variation's first move belong to the line above
            for alt in node.parent.children[1:]:
                sub = [alt, *tree.continuation(alt)]
                moves = [tree.rules.move_text(n.ply.move) for n in sub if n.ply is not None]
                entry: dict[str, Any] = {"ply": alt.depth, "moves": moves}
                comments = _line_comments(sub)
                if comments:
                    entry["comments"] = comments
                out.append(entry)
                nested: list[dict[str, Any]] = []
                nested_of.append((entry, nested))
                stack.append((sub, nested))
    for entry, nested in nested_of:  # filled by now; only lines that have variations say so
        if nested:
            entry["variations"] = nested
    return top


# ------------------------------------------------------------------------------------ reading
def read_tree_extras(tree: GameTree[Position], data: dict[str, Any], limit: int) -> None:
    """Add the record's comments and variations to ``tree`` (which holds its main line).
    ``limit`` is the most moves the whole tree may hold.  TreeFormatError says what is wrong.

    One game walks the tree (:class:`TreeCursor`), variations of a line in the order of their
    move numbers and each one's own variations right after it, so reading costs about the number
    of moves in the record however its variations branch."""
    variations = data.get("variations", [])
    total = _check_nesting(variations)
    line = tree.main_line()
    _read_comments(tree.root, line, data.get("comments", {}), "comments", allow_start=True)
    budget = limit - len(line)
    done = len(line)
    cursor = TreeCursor(tree)
    stack: list[tuple[list[Node[Position]], Any, str, bool]] = [(line, variations, "variations", True)]
    while stack:
        nodes, items, where, top = stack.pop()
        if not isinstance(items, list):
            raise TreeFormatError(_("'{where}' must be a list of variations").format(where=where))
        by_ply = {n.depth: n for n in (nodes if top else nodes[1:])}
        checked = [_checked_variation(var, f"{where} {k}", by_ply) for k, var in enumerate(items, 1)]
        checked.sort(key=lambda c: c[1])  # by move number; variations at one move keep their order
        pending = []
        for here, ply, moves, var in checked:
            budget -= len(moves)
            if budget < 0:
                raise TreeFormatError(_("{here}: the record holds more moves than a record may have").format(here=here))
            parent = by_ply[ply].parent
            assert parent is not None  # by_ply holds the moves of a line, never the root
            cursor.goto(parent)
            sub: list[Node[Position]] = []
            for i, text in enumerate(moves):
                try:
                    sub.append(cursor.play_text(text))
                except IllegalMove as exc:
                    raise TreeFormatError(_("{here} (from ply {ply}): ply {n} ({text}) cannot be played: {exc}").format(
                        here=here, ply=ply, n=ply + i, text=shown(text, 40), exc=exc)) from None
                done += 1
                if not done % 256:
                    progress.moves(done, total + len(line))
            _read_comments(tree.root, sub, var.get("comments", {}), f"{here} comments", allow_start=False)
            pending.append((sub, var.get("variations", []), f"{here} variations", False))
        stack.extend(reversed(pending))  # the first variation (and its own) is read first


def _checked_variation(var: Any, here: str, by_ply: dict[int, Node[Position]]
                       ) -> tuple[str, int, list[str], dict[str, Any]]:
    if not isinstance(var, dict) or set(var) - {"ply", "moves", "comments", "variations"}:
        raise TreeFormatError(_("{here}: a variation has 'ply', 'moves' and optionally 'comments' and "
                                "'variations'").format(here=here))
    ply, moves = var.get("ply"), var.get("moves")
    if not isinstance(ply, int) or isinstance(ply, bool) or ply not in by_ply:
        raise TreeFormatError(_("{here}: 'ply' must be the number of a ply of the line it replaces").format(here=here))
    if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
        raise TreeFormatError(_('{here}: \'moves\' must be a list of move texts like "e1-e5"').format(here=here))
    return here, ply, moves, var


def _check_nesting(variations: Any) -> int:
    """Refuse variations nested deeper than MAX_NESTING before anything is replayed (a loop,
    not recursion: the check itself must not exhaust the stack); the number of moves they list."""
    stack = [(variations, 1)]
    total = 0
    while stack:
        items, depth = stack.pop()
        if not isinstance(items, list) or not items:
            continue
        if depth > MAX_NESTING:
            raise TreeFormatError(_("variations nest more than {n} deep").format(n=MAX_NESTING))
        for v in items:
            if isinstance(v, dict):
                total += len(v["moves"]) if isinstance(v.get("moves"), list) else 0
                stack.append((v.get("variations"), depth + 1))
    return total


def _read_comments(root: Node[Position], line: list[Node[Position]], comments: Any, where: str,
                   allow_start: bool) -> None:
    if not isinstance(comments, dict):
        raise TreeFormatError(_("'{where}' must be a table of ply numbers and texts").format(where=where))
    by_ply = {n.depth: n for n in line}
    if allow_start:
        by_ply[0] = root
    for key, text in comments.items():
        if not isinstance(text, str) or not isinstance(key, str) or not key.isascii() or not key.isdigit() \
                or len(key) > 9:
            raise TreeFormatError(_('\'{where}\' must map ply numbers (like "3") to texts').format(where=where))
        if len(text) > MAX_COMMENT:
            raise TreeFormatError(ngettext("{where}: the comment on ply {key} is longer than {n} character",
                                           "{where}: the comment on ply {key} is longer than {n} characters",
                                           MAX_COMMENT).format(
                where=where, key=key, n=MAX_COMMENT))
        node = by_ply.get(int(key))
        if node is None:
            raise TreeFormatError(_("{where}: ply {key} is not in this line").format(where=where, key=key))
        node.comment = text.strip()

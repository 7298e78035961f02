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

from tafl_desktop.core.game import IllegalMove, Position
from tafl_desktop.core.game_tree import GameTree, Node
from tafl_desktop.core.quoting import shown

#: How deep variations may nest in a record (a hostile file must not exhaust the stack).
MAX_NESTING = 64
#: The longest comment a record may hold, in characters.
MAX_COMMENT = 10_000
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
    out = []
    for node in line:
        if not node.is_main_child or node.parent is None:
            continue  # the alternatives to a variation's first move belong to the line above
        for alt in node.parent.children[1:]:
            sub = [alt, *tree.continuation(alt)]
            moves = [tree.rules.move_text(n.ply.move) for n in sub if n.ply is not None]
            entry: dict[str, Any] = {"ply": alt.depth, "moves": moves}
            comments = _line_comments(sub)
            if comments:
                entry["comments"] = comments
            nested = _line_variations(tree, sub)
            if nested:
                entry["variations"] = nested
            out.append(entry)
    return out


# ------------------------------------------------------------------------------------ reading
def read_tree_extras(tree: GameTree[Position], data: dict[str, Any], limit: int) -> None:
    """Add the record's comments and variations to ``tree`` (which holds its main line).
    ``limit`` is the most moves the whole tree may hold.  TreeFormatError says what is wrong."""
    _check_nesting(data.get("variations", []))
    line = tree.main_line()
    _read_comments(tree.root, line, data.get("comments", {}), "comments", allow_start=True)
    budget = [limit - len(line)]
    _read_variations(tree, line, data.get("variations", []), "variations", 1, budget, top=True)


def _check_nesting(variations: Any) -> None:
    """Refuse variations nested deeper than MAX_NESTING before anything is replayed (a loop,
    not recursion: the check itself must not exhaust the stack)."""
    stack = [(variations, 1)]
    while stack:
        items, depth = stack.pop()
        if not isinstance(items, list) or not items:
            continue
        if depth > MAX_NESTING:
            raise TreeFormatError(f"variations nest more than {MAX_NESTING} deep")
        stack.extend((v.get("variations"), depth + 1) for v in items if isinstance(v, dict))


def _read_comments(root: Node[Position], line: list[Node[Position]], comments: Any, where: str,
                   allow_start: bool) -> None:
    if not isinstance(comments, dict):
        raise TreeFormatError(f"'{where}' must be a table of move numbers and texts")
    by_ply = {n.depth: n for n in line}
    if allow_start:
        by_ply[0] = root
    for key, text in comments.items():
        if not isinstance(text, str) or not isinstance(key, str) or not key.isascii() or not key.isdigit():
            raise TreeFormatError(f"'{where}' must map move numbers (like \"3\") to texts")
        if len(text) > MAX_COMMENT:
            raise TreeFormatError(f"{where}: the comment on move {key} is longer than {MAX_COMMENT} characters")
        node = by_ply.get(int(key))
        if node is None:
            raise TreeFormatError(f"{where}: move {key} is not in this line")
        node.comment = text.strip()


def _read_variations(tree: GameTree[Position], line: list[Node[Position]], variations: Any, where: str, nesting: int,
                     budget: list[int], top: bool) -> None:
    if not isinstance(variations, list):
        raise TreeFormatError(f"'{where}' must be a list of variations")
    by_ply = {n.depth: n for n in (line if top else line[1:])}
    for k, var in enumerate(variations, 1):
        here = f"{where} {k}"
        if not isinstance(var, dict) or set(var) - {"ply", "moves", "comments", "variations"}:
            raise TreeFormatError(f"{here}: a variation has 'ply', 'moves' and optionally 'comments' and "
                                  "'variations'")
        ply, moves = var.get("ply"), var.get("moves")
        if not isinstance(ply, int) or isinstance(ply, bool) or ply not in by_ply:
            raise TreeFormatError(f"{here}: 'ply' must be the number of a move of the line it replaces")
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            raise TreeFormatError(f"{here}: 'moves' must be a list of move texts like \"e1-e5\"")
        node = by_ply[ply].parent
        assert node is not None  # by_ply holds the moves of a line, never the root
        game = tree.game_at(node)
        sub: list[Node[Position]] = []
        for i, text in enumerate(moves):
            budget[0] -= 1
            if budget[0] < 0:
                raise TreeFormatError(f"{here}: the record holds more moves than a record may have")
            try:
                node = tree.add(node, game.play_text(text))
            except IllegalMove as exc:
                raise TreeFormatError(f"{here} (from move {ply}): move {ply + i} ({shown(text, 40)}) cannot be played: "
                                      f"{exc}") from None
            sub.append(node)
        _read_comments(tree.root, sub, var.get("comments", {}), f"{here} comments", allow_start=False)
        _read_variations(tree, sub, var.get("variations", []), f"{here} variations", nesting + 1, budget,
                         top=False)

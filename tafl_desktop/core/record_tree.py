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

from tafl_desktop.core.game import IllegalMove
from tafl_desktop.core.game_tree import GameTree, Node
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import shown

#: How deep variations may nest in a record (a hostile file must not exhaust the stack).
MAX_NESTING = 64
#: The longest comment a record may hold, in characters.
MAX_COMMENT = 10_000
TREE_KEYS = ("comments", "variations")


class TreeFormatError(ValueError):
    """The variations or comments of a record are malformed; the message is one clear line."""


# ------------------------------------------------------------------------------------ writing
def tree_extras(tree: GameTree) -> dict[str, Any]:
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


def _line_comments(line: list[Node]) -> dict[str, str]:
    return {str(n.depth): n.comment for n in line if n.comment}


def _line_variations(tree: GameTree, line: list[Node]) -> list[dict[str, Any]]:
    out = []
    for node in line:
        if not node.is_main_child:
            continue  # the alternatives to a variation's first move belong to the line above
        for alt in node.parent.children[1:]:
            sub = [alt, *tree.continuation(alt)]
            entry: dict[str, Any] = {"ply": alt.depth, "moves": [tree.rules.move_text(n.move) for n in sub]}
            comments = _line_comments(sub)
            if comments:
                entry["comments"] = comments
            nested = _line_variations(tree, sub)
            if nested:
                entry["variations"] = nested
            out.append(entry)
    return out


# ------------------------------------------------------------------------------------ reading
def read_tree_extras(tree: GameTree, data: dict[str, Any], limit: int) -> None:
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
            raise TreeFormatError(_("variations nest more than {n} deep").format(n=MAX_NESTING))
        stack.extend((v.get("variations"), depth + 1) for v in items if isinstance(v, dict))


def _read_comments(root: Node, line: list[Node], comments: Any, where: str, allow_start: bool) -> None:
    if not isinstance(comments, dict):
        raise TreeFormatError(_("'{where}' must be a table of ply numbers and texts").format(where=where))
    by_ply = {n.depth: n for n in line}
    if allow_start:
        by_ply[0] = root
    for key, text in comments.items():
        if not isinstance(text, str) or not isinstance(key, str) or not key.isascii() or not key.isdigit():
            raise TreeFormatError(_('\'{where}\' must map ply numbers (like "3") to texts').format(where=where))
        if len(text) > MAX_COMMENT:
            raise TreeFormatError(_("{where}: the comment on ply {key} is longer than {n} characters").format(
                where=where, key=key, n=MAX_COMMENT))
        node = by_ply.get(int(key))
        if node is None:
            raise TreeFormatError(_("{where}: ply {key} is not in this line").format(where=where, key=key))
        node.comment = text.strip()


def _read_variations(tree: GameTree, line: list[Node], variations: Any, where: str, nesting: int,
                     budget: list[int], top: bool) -> None:
    if not isinstance(variations, list):
        raise TreeFormatError(_("'{where}' must be a list of variations").format(where=where))
    by_ply = {n.depth: n for n in (line if top else line[1:])}
    for k, var in enumerate(variations, 1):
        here = f"{where} {k}"
        if not isinstance(var, dict) or set(var) - {"ply", "moves", "comments", "variations"}:
            raise TreeFormatError(_("{here}: a variation has 'ply', 'moves' and optionally 'comments' and "
                                    "'variations'").format(here=here))
        ply, moves = var.get("ply"), var.get("moves")
        if not isinstance(ply, int) or isinstance(ply, bool) or ply not in by_ply:
            raise TreeFormatError(_("{here}: 'ply' must be the number of a ply of the line it replaces").format(
                here=here))
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            raise TreeFormatError(_('{here}: \'moves\' must be a list of move texts like "e1-e5"').format(here=here))
        node = by_ply[ply].parent
        game = tree.game_at(node)
        sub: list[Node] = []
        for i, text in enumerate(moves):
            budget[0] -= 1
            if budget[0] < 0:
                raise TreeFormatError(_("{here}: the record holds more moves than a record may have").format(here=here))
            try:
                node = tree.add(node, game.play_text(text))
            except IllegalMove as exc:
                raise TreeFormatError(_("{here} (from ply {ply}): ply {n} ({text}) cannot be played: {exc}").format(
                    here=here, ply=ply, n=ply + i, text=shown(text, 40), exc=exc)) from None
            sub.append(node)
        _read_comments(tree.root, sub, var.get("comments", {}), f"{here} comments", allow_start=False)
        _read_variations(tree, sub, var.get("variations", []), f"{here} variations", nesting + 1, budget,
                         top=False)

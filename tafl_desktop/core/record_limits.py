"""How large a game may grow: the one place that says so, for everything that builds, writes or
reads a game record.

The window refuses, at the moment a player would cross a limit (a move, a comment, a promotion),
with a sentence; every writer (Save, the autosave, ``convert``, Export) and every reader (Open,
crash recovery, Import, ``replay``) checks the same numbers through :func:`tree_problem` and
:func:`tags_problem`.  So whatever the window lets a player build is written and read back, and a
file one part accepts is never refused by another.

Why these numbers:

* :data:`MAX_MOVES` moves in the whole tree (main line and every variation).  Reading replays each
  move through the rules, about 0.1 to 0.4 ms a move, so the largest game opens in seconds (off
  the window's thread, with a progress bar).  The longest real game of the 2,277 in
  ``shared/reference/games`` has 308 moves.
* :data:`MAX_NESTING` levels of variations inside variations: a record nests them (JSON lists in
  lists), and the nesting must stay far from the JSON parser's own depth limit (about 1,000).
* :data:`MAX_COMMENT` characters in one comment, :data:`MAX_COMMENT_TOTAL` in all of them, and
  :data:`MAX_TAGS` tags of up to :data:`MAX_TAG_TEXT` characters: with the moves, a record then
  needs at most about 5 MB even with every character escaped, well inside
  :data:`MAX_RECORD_BYTES` (``tests/test_record_limits.py`` builds that worst case and reads it back).
* :data:`MAX_RECORD_BYTES` bytes in any game file read (our records, ``.otg``, ``.pgn``, move
  lists, PlayTaflOnline games): a hostile file of that size parses in well under a second and
  in well under 500 MB of memory.

Pure Python: the core, the interop readers and the window all import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext
from tafl_desktop.core.quoting import quote

if TYPE_CHECKING:
    from tafl_desktop.core.game import Move, Position
    from tafl_desktop.core.game_tree import GameTree, Node

#: Moves a game may hold, main line and variations together.
MAX_MOVES = 20_000
#: Levels of variations inside variations.
MAX_NESTING = 64
#: Characters in one comment.
MAX_COMMENT = 10_000
#: Characters in all the comments of one game.
MAX_COMMENT_TOTAL = 400_000
#: Tags (event, players, clock...) one game may carry.
MAX_TAGS = 64
#: Characters in a tag's name.
MAX_TAG_NAME = 64
#: Characters in a tag's value.
MAX_TAG_TEXT = 4_000
#: Bytes of any game file read or written.
MAX_RECORD_BYTES = 8 * 1024 * 1024


class LimitError(ValueError):
    """A game past one of the limits; the message is one sentence for the player."""


# ------------------------------------------------------------------------------------ sentences
def too_many_moves(count: int | None = None) -> str:
    if count is None:
        return ngettext("a game may hold at most {n} move, variations included",
                        "a game may hold at most {n} moves, variations included", MAX_MOVES).format(n=MAX_MOVES)
    return ngettext("the game holds {count} move; a game may hold at most {n}, variations included",
                    "the game holds {count} moves; a game may hold at most {n}, variations included", count).format(
        count=count, n=MAX_MOVES)


def too_deep() -> str:
    return _("variations may nest at most {n} deep").format(n=MAX_NESTING)


def comment_too_long(length: int) -> str:
    return ngettext("a comment may have at most {n} character; this one has {length}",
                    "a comment may have at most {n} characters; this one has {length}", MAX_COMMENT).format(
        n=MAX_COMMENT, length=length)


def comments_too_long(total: int) -> str:
    return ngettext("the comments of a game may have at most {n} character in all; these would have {total}",
                    "the comments of a game may have at most {n} characters in all; these would have {total}",
                    MAX_COMMENT_TOTAL).format(
        n=MAX_COMMENT_TOTAL, total=total)


def file_too_large(size: int) -> str:
    return _("{size} bytes is more than the {limit} a game file may have").format(size=size, limit=MAX_RECORD_BYTES)


# ------------------------------------------------------------------------------------ nesting
def nesting(node: Node[Position], first: Mapping[int, Node[Position]] | None = None) -> int:
    """How many variations deep ``node`` lies (0 on the main line): the number of moves on its
    path that are not their parent's first child.  ``first`` overrides a parent's first child
    (``id(parent) -> child``), to ask how deep a node would lie after a promotion."""
    first = first or {}
    depth = 0
    while node.parent is not None:
        parent = node.parent
        if first.get(id(parent), parent.children[0]) is not node:
            depth += 1
        node = parent
    return depth


def deepest(node: Node[Position], base: int) -> int:
    """The deepest nesting in ``node``'s subtree, ``node`` itself lying ``base`` deep (a loop,
    never recursion: a tree may be 20,000 moves deep)."""
    worst = base
    stack = [(node, base)]
    while stack:
        n, level = stack.pop()
        worst = max(worst, level)
        for i, child in enumerate(n.children):
            stack.append((child, level + (1 if i else 0)))
    return worst


# ------------------------------------------------------------------------------------ refusals
def move_refusal(tree: GameTree[Position], parent: Node[Position], move: Move) -> str | None:
    """Why ``move`` may not be added after ``parent`` (None: it may; a move already in the tree
    always may, as it adds nothing)."""
    if parent.child(move) is not None:
        return None
    if tree.count + 1 > MAX_MOVES:
        return too_many_moves()
    if parent.children and nesting(parent) + 1 > MAX_NESTING:
        return too_deep()
    return None


def comment_refusal(tree: GameTree[Position], node: Node[Position], text: str) -> str | None:
    """Why ``text`` may not become the comment on ``node`` (None: it may)."""
    text = text.strip()
    if len(text) > MAX_COMMENT:
        return comment_too_long(len(text))
    total = comment_total(tree) - len(node.comment) + len(text)
    if total > MAX_COMMENT_TOTAL:
        return comments_too_long(total)
    return None


def promotion_refusal(tree: GameTree[Position], node: Node[Position], to_main: bool = False) -> str | None:
    """Why the variation holding ``node`` may not be promoted (one level, or ``to_main``): a
    promotion pushes the line it replaces one level deeper."""
    starts = []
    n = node
    while n.parent is not None:
        if not n.is_main_child:
            starts.append(n)
            if not to_main:
                break
        n = n.parent
    if not starts:
        return None
    first = {id(s.parent): s for s in starts}
    for s in starts:
        assert s.parent is not None  # a variation's first move has a parent
        demoted = s.parent.children[0]
        if deepest(demoted, nesting(demoted, first)) > MAX_NESTING:
            return too_deep()
    return None


# ------------------------------------------------------------------------------------ checks
def comment_total(tree: GameTree[Position]) -> int:
    return len(tree.root.comment) + sum(len(n.comment) for n in tree.nodes())


def tree_problem(tree: GameTree[Position]) -> str | None:
    """What makes ``tree`` too large to keep (None: nothing).  Writers and readers ask the same."""
    count = 0
    total = len(tree.root.comment)
    if len(tree.root.comment) > MAX_COMMENT:
        return comment_too_long(len(tree.root.comment))
    stack = [(tree.root, 0)]
    while stack:
        node, level = stack.pop()
        for i, child in enumerate(node.children):
            count += 1
            inner = level + (1 if i else 0)
            if inner > MAX_NESTING:
                return too_deep()
            if len(child.comment) > MAX_COMMENT:
                return comment_too_long(len(child.comment))
            total += len(child.comment)
            stack.append((child, inner))
    if count > MAX_MOVES:
        return too_many_moves(count)
    if total > MAX_COMMENT_TOTAL:
        return comments_too_long(total)
    return None


def tags_problem(tags: Mapping[str, str] | Iterable[tuple[str, str]]) -> str | None:
    """What is wrong with a game's tags for a record (None: nothing)."""
    items = list(tags.items() if isinstance(tags, Mapping) else tags)
    if len(items) > MAX_TAGS:
        return ngettext("a game may carry at most {n} tag; this one has {count}",
                        "a game may carry at most {n} tags; this one has {count}", MAX_TAGS).format(
            n=MAX_TAGS, count=len(items))
    for key, value in items:
        if not isinstance(key, str) or not isinstance(value, str):
            return _("tags must be names with texts")
        if not key or len(key) > MAX_TAG_NAME:
            return ngettext("the tag name {name} is not 1 to {n} character long",
                            "the tag name {name} is not 1 to {n} characters long", MAX_TAG_NAME).format(
                name=quote(key), n=MAX_TAG_NAME)
        if len(value) > MAX_TAG_TEXT:
            return ngettext("the tag {name} has {length} character; a tag may have at most {n}",
                            "the tag {name} has {length} characters; a tag may have at most {n}", len(value)).format(
                name=quote(key), length=len(value), n=MAX_TAG_TEXT)
    return None

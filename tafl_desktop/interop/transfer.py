"""What every import produces and every export consumes: a game, its tags and its comments.

Comments live in the record's game tree (``core.game_tree``: a comment per move, one on the start
position, variations), so an imported game shows them in the window and our own ``.tafl.json``
keeps them.  Foreign formats without variations get the main line and its comments.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tafl_desktop.core.game import Game
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.move_list_text import ListedMove, MoveListError
from tafl_desktop.core.move_list_text import play_listed as core_play_listed

#: Longest text accepted in one tag or comment of an imported file.
MAX_TEXT = 4000


class InteropError(ValueError):
    """A file or string in a foreign format that cannot be used; one clear line for the user."""


@dataclass
class GameTransfer:
    """A game with what a record says about it besides the moves.

    ``comments`` maps a ply number of the main line (0 = the start position) to its comment;
    ``tree``, when the record had one, also holds the variations."""

    game: Game
    tags: dict[str, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    tree: GameTree | None = None

    @classmethod
    def from_tree(cls, tree: GameTree, tags: dict[str, str] | None = None) -> GameTransfer:
        comments = {0: tree.root.comment} if tree.root.comment else {}
        comments.update({n.depth: n.comment for n in tree.main_line() if n.comment})
        return cls(tree.main_game(), dict(tags or {}), comments, tree=tree)

    def has_variations(self) -> bool:
        return self.tree is not None and any(len(n.children) > 1 for n in [self.tree.root, *self.tree.nodes()])

    def to_tree(self) -> GameTree:
        """The record's tree: the one read, or the main line with the comments on it."""
        if self.tree is not None:
            return self.tree
        tree = GameTree.from_game(self.game)
        nodes = [tree.root, *tree.main_line()]
        for n, text in self.comments.items():
            if 0 <= n < len(nodes) and text:
                nodes[n].comment = text
        tree.revision = 0
        return tree


def play_listed(game: Game, moves: list[tuple[str, tuple[str, ...] | None]], where: str) -> None:
    """Play ``(move text, captures or None)`` pairs; the captures a record lists must be the ones
    our rules make (otherwise the record was played under other rules, and saying so beats
    showing a different game).  The checks are the move-list reader's own
    (:func:`tafl_desktop.core.move_list_text.play_listed`), shared with the window's Paste."""
    try:
        core_play_listed(game, [ListedMove(text, text, caps) for text, caps in moves])
    except MoveListError as exc:
        raise InteropError(f"{where}: {exc}") from None

"""The tree of moves behind a studied game: a main line, its variations, and comments on moves.

A :class:`~tafl_desktop.core.game.Game` is one line of play (with repetition and undo); the tree
keeps every line a player has tried from any position, so playing a different move from an
earlier position starts a variation instead of discarding the rest.  Each node keeps the
:class:`~tafl_desktop.core.game.Ply` that reached it, so a line becomes a ``Game`` again without
replaying the rules.  The first child of a node is its main continuation; the others are
variations, in the order they were made.

Pure Python: the window's move list and the game record are both clients of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic

from tafl_desktop.core.game import OFF_BOARD_REASONS, Game, Move, Outcome, P, Ply, Rules


class Node(Generic[P]):
    """A position in the tree: the ply that reached it (None at the root), its children, a
    comment on the move (at the root: on the start position), and an ending decided off the board
    at this position (a resignation, an agreed draw, a flag fall), if there was one."""

    __slots__ = ("ply", "parent", "children", "comment", "depth", "ending")

    def __init__(self, ply: Ply[P] | None, parent: Node[P] | None) -> None:
        self.ply = ply
        self.parent = parent
        self.children: list[Node[P]] = []
        self.comment = ""
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.ending: Outcome | None = None

    @property
    def move(self) -> Move | None:
        return None if self.ply is None else self.ply.move

    def child(self, move: Move) -> Node[P] | None:
        """The child reached by ``move``, if it was played here before."""
        for c in self.children:
            if c.ply is not None and c.ply.move == move:
                return c
        return None

    @property
    def is_main_child(self) -> bool:
        """True for the root and for a first child (the main continuation of its parent)."""
        return self.parent is None or self.parent.children[0] is self

    def __repr__(self) -> str:
        return f"Node(depth={self.depth}, move={self.move}, children={len(self.children)})"


class GameTree(Generic[P]):
    """The root (start position) and every line played from it.

    ``revision`` grows with every change to the tree (a new move, a deletion, a promotion, a
    comment), so a window can tell whether the tree holds anything not yet saved; ``count`` is
    the number of moves in it (kept as it changes, so a limit is checked without a walk).
    """

    def __init__(self, rules: Rules[P], start: P | None = None) -> None:
        self.rules = rules
        self.start: P = rules.initial_position() if start is None else start
        self.root: Node[P] = Node(None, None)
        self.revision = 0
        self.count = 0

    # -- building -----------------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game[P]) -> GameTree[P]:
        """A tree whose main line is ``game``'s moves."""
        tree = cls(game.rules, game.start)
        node = tree.root
        for ply in game.plies:
            node = tree.add(node, ply)
        if game.outcome is not None and game.outcome.reason in OFF_BOARD_REASONS:
            node.ending = game.outcome
        tree.revision = 0
        return tree

    def add(self, parent: Node[P], ply: Ply[P]) -> Node[P]:
        """The child of ``parent`` for ``ply``: the existing one for the same move, else a new
        last child (a new variation, or the main continuation of a leaf)."""
        found = parent.child(ply.move)
        if found is not None:
            return found
        node = Node(ply, parent)
        parent.children.append(node)
        self.revision += 1
        self.count += 1
        return node

    def play(self, parent: Node[P], move: Move) -> Node[P]:
        """Play ``move`` (legal, or IllegalMove says why) from ``parent``'s position."""
        game = self.game_at(parent)
        return self.add(parent, game.play(move))

    # -- reading ------------------------------------------------------------------------------
    def position(self, node: Node[P]) -> P:
        return self.start if node.ply is None else node.ply.position

    @staticmethod
    def path(node: Node[P]) -> list[Node[P]]:
        """The nodes from the root's first move down to ``node`` (empty for the root)."""
        out = []
        while node.parent is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out

    @staticmethod
    def continuation(node: Node[P]) -> list[Node[P]]:
        """The main continuation after ``node``: first child, its first child, and so on."""
        out = []
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    def main_line(self) -> list[Node[P]]:
        return self.continuation(self.root)

    def line_through(self, node: Node[P]) -> list[Node[P]]:
        """The whole line that passes through ``node``: its path and its main continuation."""
        return self.path(node) + self.continuation(node)

    def walk(self, moves: Iterable[Move]) -> Node[P]:
        """The node reached by ``moves`` from the root (KeyError if the tree has no such line)."""
        node = self.root
        for move in moves:
            nxt = node.child(tuple(move))
            if nxt is None:
                raise KeyError(move)
            node = nxt
        return node

    def game_of(self, line: list[Node[P]]) -> Game[P]:
        """A Game whose history is ``line`` (a path from the root), without replaying the rules."""
        game = Game.from_plies(self.rules, self.start, [n.ply for n in line if n.ply is not None])
        end = line[-1] if line else self.root
        if end.ending is not None and game.outcome is None:
            game.finish(end.ending)
        return game

    def game_at(self, node: Node[P]) -> Game[P]:
        """The game as it stands at ``node`` (its history is the path to it)."""
        return self.game_of(self.path(node))

    def main_game(self) -> Game[P]:
        return self.game_of(self.main_line())

    @staticmethod
    def is_main(node: Node[P]) -> bool:
        """True when ``node`` lies on the main line (every step from the root a first child)."""
        while node.parent is not None:
            if not node.is_main_child:
                return False
            node = node.parent
        return True

    @staticmethod
    def variation_start(node: Node[P]) -> Node[P] | None:
        """The first move of the innermost variation holding ``node`` (None on the main line)."""
        while node.parent is not None:
            if not node.is_main_child:
                return node
            node = node.parent
        return None

    def nodes(self) -> Iterator[Node[P]]:
        """Every node but the root, depth first, main continuation before variations."""
        stack = list(reversed(self.root.children))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def size(self) -> int:
        return sum(1 for _ in self.nodes())

    # -- editing ------------------------------------------------------------------------------
    def promote(self, node: Node[P]) -> bool:
        """Move the innermost variation holding ``node`` one place up among its siblings, to
        the front (so it becomes the main continuation there).  False when on the main line."""
        start = self.variation_start(node)
        if start is None or start.parent is None:
            return False
        siblings = start.parent.children
        siblings.remove(start)
        siblings.insert(0, start)
        self.revision += 1
        return True

    def make_main(self, node: Node[P]) -> bool:
        """Make the line through ``node`` the main line of the whole tree."""
        changed = False
        while self.promote(node):
            changed = True
        return changed

    def delete(self, node: Node[P]) -> int:
        """Remove ``node`` and everything after it; returns the number of moves removed."""
        if node.parent is None:
            return 0
        count = 1 + sum(1 for _ in _below(node))
        node.parent.children.remove(node)
        self.revision += 1
        self.count -= count
        return count

    def set_ending(self, node: Node[P], outcome: Outcome | None) -> None:
        """Record (or, with None, take back) an ending decided off the board at ``node``."""
        if node.ending != outcome:
            node.ending = outcome
            self.revision += 1

    def set_comment(self, node: Node[P], text: str) -> bool:
        text = text.strip()
        if text == node.comment:
            return False
        node.comment = text
        self.revision += 1
        return True


class TreeCursor(Generic[P]):
    """One game walked around a tree, for readers that add many lines: going from one node to
    another costs only the moves between them (back to where the two paths meet, then forward),
    so reading a tree costs about its number of moves, however its variations branch, instead of
    replaying the path to every variation from the start."""

    def __init__(self, tree: GameTree[P]) -> None:
        self.tree = tree
        self.game = Game(tree.rules, tree.start)
        self.path: list[Node[P]] = []  # the nodes of the game's moves
        self.walked = 0  # moves taken back and forth so far (a reader may cap it)

    @property
    def node(self) -> Node[P]:
        return self.path[-1] if self.path else self.tree.root

    def goto(self, node: Node[P]) -> Game[P]:
        """Make the game the one at ``node`` (a node of the tree) and return it."""
        climb: list[Node[P]] = []
        while node.parent is not None and not (node.depth <= len(self.path) and self.path[node.depth - 1] is node):
            climb.append(node)
            node = node.parent
        if node.depth < len(self.path):
            self.walked += len(self.path) - node.depth
            self.game.rewind(node.depth)
            del self.path[node.depth:]
        climb.reverse()
        self.walked += len(climb)
        if climb:
            self.game.extend_played([n.ply for n in climb if n.ply is not None])
            self.path.extend(climb)
        return self.game

    def play_text(self, text: str) -> Node[P]:
        """Play ``text`` at the cursor (IllegalMove says why not) and add it to the tree."""
        node = self.tree.add(self.node, self.game.play_text(text))
        self.path.append(node)
        return node


def _below(node: Node[P]) -> Iterator[Node[P]]:
    stack = list(node.children)
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)

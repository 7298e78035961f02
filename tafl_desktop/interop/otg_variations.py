"""Variations in OpenTafl game records (``.otg``): move addresses, read into the game tree and
written from it, so an ``.otg`` round trip keeps every line and its comments.

The syntax, as OpenTafl writes and reads it (read in jslater89/OpenTafl:
``src/com/manywords/softworks/tafl/notation/GameSerializer.java`` ``parseMoves``,
``engine/replay/MoveAddress.java``, ``engine/replay/ReplayGame.java`` (its constructor and
``getHistoryString``/``finishHistoryTurn``), and the replays OpenTafl saved with variations,
``unbuilt/saved-games/replays/Fetlar-Escape-Puzzle.otg`` and ``Ard-Ri-Escape-Puzzle-2.otg``):

* A move is named by its turn and half: ``3a`` is the first move of turn 3, ``3b`` the second.
* A variation line starts with an address instead of ``N.``; addresses match
  ``([0-9]+[a-z]\\.)([0-9]+\\.[0-9]+[a-z]\\.)+``.  ``3a.2.1a. Kc1-c3 e1-c1`` is turn 1 of the
  second variation replacing main-line move ``3a``; ``3a.2.2a. ...`` continues that variation.
* Inside a variation a variation hangs from a *position*: ``3a.2.1a.1.`` is the first variation
  after move ``3a.2.1a``, so it replaces the move that follows it (``3a.2.1b``).  Only at the top
  level does the first element name the replaced move itself.
* A line whose first move is the second half of a turn holds ``.....`` in place of the first half:
  ``3b.1.1a. ..... a4-a2``.
* Each line may be followed by a comment line ``[first|second]`` for its moves, as on the main
  line.  A turn's variations follow it (after its comment line), each written whole, with its own
  variations after each of its turns; the reader applies shorter addresses first, so the order of
  lines matters only within one variation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tafl_desktop.core.game_tree import GameTree, Node, TreeCursor
from tafl_desktop.core.quoting import shown
from tafl_desktop.core.record_limits import MAX_NESTING
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.interop.transfer import InteropError, play_listed

ADDRESS = re.compile(r"(\d{1,9}[a-z]\.)((?:\d{1,9}\.\d{1,9}[a-z]\.)+)", re.ASCII)
#: The start of a token that can only be meant as a variation address.
ADDRESS_START = re.compile(r"\d+[a-z]\.", re.ASCII)
_MAIN_ELEMENT = re.compile(r"([1-9]\d{0,8})([ab])", re.ASCII)
#: The most moves the reader walks back and forth between variations while reading one record
#: (about three seconds): a file of ours is read in its own order, which walks each move about
#: twice, but a hostile file could order its lines so that every one sends the walk across the game.
MAX_REPLAYED = 1_000_000


def split_address(token: str) -> tuple[str, ...] | None:
    """``'3a.2.1a.'`` -> ``('3a', '2', '1a')``; None when ``token`` is not a variation address."""
    if not ADDRESS.fullmatch(token):
        return None
    return tuple(token[:-1].split("."))


def main_element(depth: int) -> str:
    """The name of main-line move ``depth`` (1 = the first move): ``1a``, ``1b``, ``2a``..."""
    return f"{(depth + 1) // 2}{'a' if depth % 2 else 'b'}"


def line_element(depth: int, first: int) -> str:
    """The name, inside a variation whose first move is at ``first``, of its move at ``depth``:
    turns count from 1 and a first move in the second half of a turn is ``1b``."""
    pad = 0 if first % 2 else 1
    return f"{(depth - first + pad) // 2 + 1}{'a' if depth % 2 else 'b'}"


def line_depth(element: str, first: int) -> int | None:
    """The depth of the move named ``element`` in a variation whose first move is at ``first``
    (the inverse of :func:`line_element`); None if it names none."""
    m = _MAIN_ELEMENT.fullmatch(element)
    if m is None:
        return None
    pad = 0 if first % 2 else 1
    base = first - pad + 2 * (int(m.group(1)) - 1)
    depth = base if (base % 2 == 1) == (m.group(2) == "a") else base + 1
    return depth if depth >= first and line_element(depth, first) == element else None


def main_depth(element: str) -> int | None:
    """The depth of the main-line move named ``element`` (``3b`` -> 6); None if it names none."""
    m = _MAIN_ELEMENT.fullmatch(element)
    if m is None:
        return None
    return 2 * int(m.group(1)) - (1 if m.group(2) == "a" else 0)


@dataclass
class VariationLine:
    """One variation line as read: its address, its moves (text, listed captures), its comments."""

    address: tuple[str, ...]
    moves: list[tuple[str, tuple[str, ...] | None]]
    line: int
    comments: list[str] = field(default_factory=list)


@dataclass
class _Known:
    """A variation being rebuilt: where it starts, the depth of its first move, its nodes so far."""

    start: Node
    first: int
    nodes: list[Node] = field(default_factory=list)


def add_variations(tree: GameTree, lines: list[VariationLine], where: str, limit: int, done: int = 0,
                   total: int = 0) -> None:
    """Play ``lines`` into ``tree`` (which holds the main line), as OpenTafl's loader does: a line
    whose variation exists continues it, and a variation is read after the line it hangs from.
    ``limit`` caps the moves of the whole tree.  InteropError names the line when an address
    leads nowhere or a move fails.

    Lines are taken in the file's order (ours writes each variation right after the turn it
    hangs from, so one game walks the tree from line to line, :class:`TreeCursor`); a line whose
    variation is not known yet waits, and the waiting ones are retried, shorter addresses first."""
    main = tree.main_line()
    budget = limit - len(main)
    known: dict[tuple[str, ...], _Known] = {}
    cursor = TreeCursor(tree)
    waiting = list(lines)
    while waiting:
        later: list[VariationLine] = []
        for v in waiting:
            here = _("{where}, line {line} ({address})").format(
                where=where, line=v.line, address=shown(".".join(v.address) + ".", 60))
            if (len(v.address) - 1) // 2 > MAX_NESTING:
                raise InteropError(_("{here}: variations nest more than {n} deep").format(here=here, n=MAX_NESTING))
            if not v.moves:
                raise InteropError(_("{here}: a variation line without a move").format(here=here))
            key = v.address[:-1]
            var = known.get(key)
            if var is None:
                branch = _branch(main, known, key[:-1], here, final=False)
                if branch is None:
                    later.append(v)
                    continue
                var = known[key] = _Known(*branch)
            budget -= len(v.moves)
            if budget < 0:
                raise InteropError(ngettext("{here}: the record holds more than the {n} move a game record may have",
                                            "{here}: the record holds more than the {n} moves a game record may have",
                                            limit).format(
                    here=here, n=limit))
            start = var.nodes[-1] if var.nodes else var.start
            game = cursor.goto(start)
            if cursor.walked > MAX_REPLAYED:
                raise InteropError(ngettext(
                    "{here}: the variations branch so often and so deep that reading them would replay more than "
                    "{n} move",
                    "{here}: the variations branch so often and so deep that reading them would replay more than "
                    "{n} moves", MAX_REPLAYED).format(here=here, n=MAX_REPLAYED))
            before = len(game.plies)
            play_listed(game, v.moves, here, done, total)
            done += len(v.moves)
            added = []
            node = start
            for ply in game.plies[before:]:
                node = tree.add(node, ply)
                added.append(node)
            cursor.path.extend(added)
            var.nodes.extend(added)
            for node, note in zip(added, v.comments, strict=False):
                if note.strip():
                    node.comment = note.strip()
        if len(later) == len(waiting):  # no line could be placed: the first one says why
            later.sort(key=lambda v: len(v.address))
            v = later[0]
            here = _("{where}, line {line} ({address})").format(
                where=where, line=v.line, address=shown(".".join(v.address) + ".", 60))
            _branch(main, known, v.address[:-2], here, final=True)
        waiting = sorted(later, key=lambda v: len(v.address))


def _branch(main: list[Node], known: dict[tuple[str, ...], _Known], anchor: tuple[str, ...],
            here: str, final: bool) -> tuple[Node, int] | None:
    """The node a new variation is played from, and the depth of its first move; None when the
    variation it hangs from is not read yet (InteropError when ``final``, or when it never can be)."""
    if len(anchor) == 1:  # the top level: the address names the main-line move replaced
        depth = main_depth(anchor[0])
        if depth is None or depth > len(main):
            raise InteropError(_("{here}: the main line has no move {move} for this variation to replace").format(
                here=here, move=shown(anchor[0], 20)))
        start = main[depth - 1].parent
        assert start is not None  # a move of the main line has a parent
        return start, depth
    owner = known.get(anchor[:-1])
    node = None
    if owner is not None:
        depth = line_depth(anchor[-1], owner.first)
        if depth is not None and 0 <= depth - owner.first < len(owner.nodes):
            node = owner.nodes[depth - owner.first]
    if node is None:
        if not final:
            return None
        raise InteropError(_("{here}: the record has no move {move} for this variation to follow").format(
            here=here, move=shown(".".join(anchor) + ".", 60)))
    return node, node.depth + 1


def write_lines(tree: GameTree, main: list[Node], record: Callable[[Node], str],
                comment: Callable[[str], str]) -> list[str]:
    """The move lines of the main line ``main`` and of every variation, as OpenTafl writes them:
    each turn, its comment line (each comment through ``comment``) and a blank line, then the
    variations of that turn.  A loop over a stack of lines being written, never recursion."""
    out: list[str] = []
    if not main:
        return out
    # each entry: (the line's nodes, its address key, its turns, the next turn to write)
    stack: list[tuple[list[Node], tuple[str, ...], list[list[Node]], int]] = [(main, (), _turns(main, ()), 0)]
    while stack:
        nodes, key, turns, k = stack.pop()
        if k == len(turns):
            continue
        stack.append((nodes, key, turns, k + 1))
        turn = turns[k]
        first = nodes[0].depth

        def name(depth: int, first: int = first, key: tuple[str, ...] = key) -> str:
            return line_element(depth, first) if key else main_element(depth)

        number = name(turn[0].depth)[:-1]
        head = ".".join(key) + f".{number}a." if key else f"{number}."
        pad = " ....." if turn[0].depth % 2 == 0 else ""
        out.append(head + pad + " " + " ".join(record(n) for n in turn) + " ")
        out.append("[" + "|".join(comment(n.comment) for n in turn) + "]")
        out.append("")
        children = []
        for node in turn:
            parent = node.parent
            if parent is None or (key and node is nodes[0]) or parent.children[0] is not node:
                continue  # a variation's own first move: its siblings belong to the line above
            anchor = (*key, name(parent.depth)) if key else (name(node.depth),)
            for i, alt in enumerate(parent.children[1:], 1):
                line = [alt, *tree.continuation(alt)]
                sub = (*anchor, str(i))
                children.append((line, sub, _turns(line, sub), 0))
        stack.extend(reversed(children))  # written in order, each whole before the next
    return out


def _turns(nodes: list[Node], key: tuple[str, ...]) -> list[list[Node]]:
    """The nodes of a line grouped by turn (the moves of one side, then the other's)."""
    first = nodes[0].depth

    def name(depth: int) -> str:
        return line_element(depth, first) if key else main_element(depth)

    turns: list[list[Node]] = []
    for node in nodes:
        if turns and name(turns[-1][0].depth)[:-1] == name(node.depth)[:-1]:
            turns[-1].append(node)
        else:
            turns.append([node])
    return turns

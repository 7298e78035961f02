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

from tafl_desktop.core.game import Game
from tafl_desktop.core.game_tree import GameTree, Node
from tafl_desktop.core.record_tree import MAX_NESTING
from tafl_desktop.i18n import _
from tafl_desktop.interop.transfer import MAX_TEXT, InteropError, play_listed

ADDRESS = re.compile(r"(\d+[a-z]\.)((?:\d+\.\d+[a-z]\.)+)")
#: The start of a token that can only be meant as a variation address.
ADDRESS_START = re.compile(r"\d+[a-z]\.")
_MAIN_ELEMENT = re.compile(r"([1-9]\d{0,8})([ab])")
#: The most moves rebuilt (from the start to where variations branch) while reading one record:
#: about three seconds, so a hostile file of many deep one-move variations cannot hang the app.
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
    game: Game | None = None  # the game at its last node, so a continuation line replays nothing


def add_variations(tree: GameTree, lines: list[VariationLine], where: str, limit: int) -> None:
    """Play ``lines`` into ``tree`` (which holds the main line), as OpenTafl's loader does: shorter
    addresses first, a line whose variation exists continues it.  ``limit`` caps the moves of the
    whole tree.  InteropError names the line when an address leads nowhere or a move fails."""
    main = tree.main_line()
    budget = limit - len(main)
    replayed = 0
    known: dict[tuple[str, ...], _Known] = {}
    for v in sorted(lines, key=lambda v: len(v.address)):
        here = _("{where}, line {line} ({address})").format(where=where, line=v.line, address=".".join(v.address) + ".")
        if (len(v.address) - 1) // 2 > MAX_NESTING:
            raise InteropError(_("{here}: variations nest more than {n} deep").format(here=here, n=MAX_NESTING))
        if not v.moves:
            raise InteropError(_("{here}: a variation line without a move").format(here=here))
        key = v.address[:-1]
        var = known.get(key)
        if var is None:
            var = known[key] = _Known(*_branch(main, known, key[:-1], here))
        budget -= len(v.moves)
        if budget < 0:
            raise InteropError(_("{here}: the record holds more than the {n} moves a game record may have").format(
                here=here, n=limit))
        start = var.nodes[-1] if var.nodes else var.start
        if var.game is None:
            replayed += start.depth
            if replayed > MAX_REPLAYED:
                raise InteropError(_("{here}: the variations branch so often and so deep that reading them would "
                                     "replay more than {n} moves").format(here=here, n=MAX_REPLAYED))
            var.game = tree.game_at(start)
        game = var.game
        before = len(game.plies)
        play_listed(game, v.moves, here)
        node = start
        added = []
        for ply in game.plies[before:]:
            node = tree.add(node, ply)
            added.append(node)
        var.nodes.extend(added)
        for node, note in zip(added, v.comments, strict=False):
            if note.strip():
                node.comment = note.strip()[:MAX_TEXT]


def _branch(main: list[Node], known: dict[tuple[str, ...], _Known], anchor: tuple[str, ...],
            here: str) -> tuple[Node, int]:
    """The node a new variation is played from, and the depth of its first move."""
    if len(anchor) == 1:  # the top level: the address names the main-line move replaced
        depth = main_depth(anchor[0])
        if depth is None or depth > len(main):
            raise InteropError(_("{here}: the main line has no move {move} for this variation to replace").format(
                here=here, move=anchor[0]))
        start = main[depth - 1].parent
        assert start is not None  # a move of the main line has a parent
        return start, depth
    owner = known.get(anchor[:-1])
    node = None
    if owner is not None:
        node = next((n for n in owner.nodes if line_element(n.depth, owner.first) == anchor[-1]), None)
    if node is None:
        raise InteropError(_("{here}: the record has no move {move} for this variation to follow").format(
            here=here, move=".".join(anchor) + "."))
    return node, node.depth + 1


def clean_comment(text: str) -> str:
    """A comment OpenTafl reads back as it was: no ``|`` or ``]`` (line breaks are fine in one)."""
    lines = (" ".join(part.split()) for part in text.replace("]", ")").replace("|", "/").splitlines())
    return "\n".join(lines).strip()[:MAX_TEXT]


def write_lines(tree: GameTree, main: list[Node], record: Callable[[Node], str]) -> list[str]:
    """The move lines of the main line ``main`` and of every variation, as OpenTafl writes them:
    each turn, its comment line and a blank line, then the variations of that turn."""
    out: list[str] = []
    if main:
        _write_line(tree, main, (), out, record)
    return out


def _write_line(tree: GameTree, nodes: list[Node], key: tuple[str, ...], out: list[str],
                record: Callable[[Node], str]) -> None:
    first = nodes[0].depth

    def name(depth: int) -> str:
        return line_element(depth, first) if key else main_element(depth)

    turns: list[list[Node]] = []
    for node in nodes:
        if turns and name(turns[-1][0].depth)[:-1] == name(node.depth)[:-1]:
            turns[-1].append(node)
        else:
            turns.append([node])
    for turn in turns:
        number = name(turn[0].depth)[:-1]
        head = ".".join(key) + f".{number}a." if key else f"{number}."
        pad = " ....." if turn[0].depth % 2 == 0 else ""
        out.append(head + pad + " " + " ".join(record(n) for n in turn) + " ")
        out.append("[" + "|".join(clean_comment(n.comment) for n in turn) + "]")
        out.append("")
        for node in turn:
            parent = node.parent
            if parent is None or (key and node is nodes[0]) or parent.children[0] is not node:
                continue  # a variation's own first move: its siblings belong to the line above
            anchor = (*key, name(parent.depth)) if key else (name(node.depth),)
            for k, alt in enumerate(parent.children[1:], 1):
                _write_line(tree, [alt, *tree.continuation(alt)], (*anchor, str(k)), out, record)

"""Small helpers for the Tafl toggle tests: build positions by hand, play one move, name squares.

Two ways to write a position:

* :func:`diagram` turns an ASCII picture (top rank first; ``.``, ``+``, ``#``, ``*`` empty; ``t``
  attacker, ``T`` defender, ``K`` king; an optional leading rank number and spaces are ignored)
  into the row notation ``parse_position`` reads;
* :func:`pieces` places pieces by square name (``"Ke5 Td5 tc5"``) on an otherwise empty board,
  which is handier on the big boards (Alea Evangelii is 19x19).

Special squares (throne, corners, camps) are drawn as empty squares: the variant decides where they
are; ``+`` (throne), ``#`` (corner) and ``*`` (camp) are only there to make a picture readable.
"""

from __future__ import annotations

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant

EMPTY = ".+#*"


def rules_for(variant: str, **options):
    """The rules object of a preset with some toggles changed."""
    v = find_variant(variant)
    if options:
        v = v.with_options(options)
    return v.make_rules()


def diagram(text: str) -> str:
    """Row notation (top row first) from an ASCII diagram."""
    rows = []
    for line in text.strip("\n").splitlines():
        cells = "".join(ch for ch in line.strip().lstrip("0123456789") if not ch.isspace())
        if not cells:
            continue
        out, run = "", 0
        for ch in cells:
            if ch in EMPTY:
                run += 1
                continue
            if ch not in "tTK":
                raise ValueError(f"bad cell {ch!r} in diagram line {line!r}")
            if run:
                out += str(run)
                run = 0
            out += ch
        if run:
            out += str(run)
        rows.append(out)
    return "/" + "/".join(rows) + "/"


def pieces(rules, spec: str) -> str:
    """Row notation of a board holding only the pieces of ``spec`` (e.g. ``"Ke5 Td5 tc5"``)."""
    g = rules.geometry
    grid = [["."] * g.width for _ in range(g.height)]
    for token in spec.split():
        piece, square = token[0], token[1:]
        if piece not in "tTK":
            raise ValueError(f"bad piece {piece!r} in {token!r}")
        f, r = g.file_rank(g.parse_square(square))
        if grid[r][f] != ".":
            raise ValueError(f"two pieces on {square}")
        grid[r][f] = piece
    return diagram("\n".join("".join(row) for row in reversed(grid)))


def side(name: str | Side) -> Side:
    return name if isinstance(name, Side) else Side.parse(name)


def position(rules, board: str, to_move: str | Side = "attackers"):
    """A position from a diagram (multi-line text) or a piece list (one line of ``Xsq`` tokens)."""
    text = diagram(board) if "\n" in board.strip("\n") or "." in board else pieces(rules, board)
    return rules.parse_position(text, side(to_move))


def names(rules, squares) -> set[str]:
    return {rules.geometry.name(s) for s in squares}


def move(rules, pos, text: str):
    """Play ``text`` after checking it is legal; returns (new position, set of captured square names)."""
    m = rules.parse_move(pos, text)
    assert m in rules.legal_moves(pos), f"{text} should be legal: {rules.explain_illegal(pos, m)}"
    new, captured = rules.play(pos, m)
    assert len(captured) == len(set(captured)), f"{text} reports a capture twice: {captured}"
    return new, names(rules, captured)


def targets(rules, pos, square: str) -> set[str]:
    """Names of the squares the piece on ``square`` may move to."""
    s = rules.geometry.parse_square(square)
    return {rules.geometry.name(t) for f, t in rules.legal_moves(pos) if f == s}


def is_legal(rules, pos, text: str) -> bool:
    return rules.parse_move(pos, text) in rules.legal_moves(pos)


def piece_on(rules, pos, square: str) -> str | None:
    return rules.piece_at(pos, rules.geometry.parse_square(square))


def game_from(rules, board: str, to_move: str | Side = "attackers") -> Game:
    return Game(rules, position(rules, board, to_move))

"""The rules in force, as sentences: one text for the rules viewer, the rule sheet and the CLI.

Everything here is derived from the variant (board, setup) and the option schema (each active
toggle's sentence), so a changed toggle changes the sentence everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from tafl_desktop.core.marks import gettext, ngettext
from tafl_desktop.core.variants import Variant


@dataclass(frozen=True)
class RuleSection:
    title: str
    sentences: tuple[str, ...]


def hunt_board_sentences(variant: Variant) -> list[str]:
    """The board and armies of a Fox game."""
    g = variant.graph
    rules = variant.make_rules()
    pieces = rules.pieces(rules.initial_position())
    many, hunters = variant.side_names
    n_flock = sum(1 for p in pieces.values() if p == "f")
    where = ", ".join(g.name(p) for p, k in sorted(pieces.items()) if k == "h")
    if g.style == "checker":
        board = gettext("The game is played on the dark squares of a checkerboard; pieces stand on the points and "
                        "move one step along a line.")
    else:
        board = ngettext("The game is played on a board of {n} point; pieces stand on the points and move one step "
                         "along a line.", "The game is played on a board of {n} points; pieces stand on the points "
                         "and move one step along a line.", g.size).format(n=g.size)
    out = [board,
           variant.pair_ntext("{many}: {n} piece at the bottom. {hunters}: on {where}.",
                              "{many}: {n} pieces at the bottom. {hunters}: on {where}.", n_flock).format(
               many=many, n=n_flock, hunters=hunters, where=where)]
    if g.marked("pen"):
        out.append(gettext("The pen (fortress) is {points}.").format(
            points=", ".join(g.name(p) for p in sorted(g.marked("pen")))))
    return out


def dablot_board_sentences(variant: Variant) -> list[str]:
    """The lattice and the two ranked armies of Dablot."""
    g = variant.geometry
    rules = variant.make_rules()
    pieces = rules.pieces(rules.initial_position())
    south = sum(1 for k in pieces.values() if k.islower())
    soldiers = sum(1 for k in pieces.values() if k == "s")
    ranks = gettext("soldier 1, officer 2, the son 3, the leader 4") if variant.options.get("four_ranks") else \
        gettext("soldier 1, the son 2, the leader 3")
    bottom, top = variant.side_names
    return [
        ngettext("The board is a lattice of {n} point: grid points and the centres of the squares, joined by the "
                 "lines and both diagonals of every square. Pieces stand on the points.",
                 "The board is a lattice of {n} points: grid points and the centres of the squares, joined by the "
                 "lines and both diagonals of every square. Pieces stand on the points.", g.size).format(n=g.size),
        ngettext("Each army ({bottom} at the bottom, {top} at the top) has {n} piece: {soldiers} soldiers, the "
                 "leader's son and the leader.",
                 "Each army ({bottom} at the bottom, {top} at the top) has {n} pieces: {soldiers} soldiers, the "
                 "leader's son and the leader.", south).format(bottom=bottom, top=top, n=south, soldiers=soldiers),
        (gettext("Every piece moves one point along any line to an empty point, or captures by a short jump over an "
                 "adjacent enemy onto the empty point beyond. A piece captures only pieces of equal or lower rank "
                 "({ranks}), so alone only a leader can take a leader; together, lower-ranked pieces may take it "
                 "by an ambush (see Capture).") if variant.options.get("ambush") else
         gettext("Every piece moves one point along any line to an empty point, or captures by a short jump over an "
                 "adjacent enemy onto the empty point beyond. A piece captures only pieces of equal or lower rank "
                 "({ranks}), so only a leader can take a leader.")).format(ranks=ranks),
        gettext("A player who cannot move, or has lost every piece, loses."),
    ]


def wall_sentences(variant: Variant) -> list[str]:
    """The walls of a grid board (thick lines): where they stand and what they do."""
    g = variant.geometry
    walls: frozenset[tuple[int, int]] = getattr(g, "walls", frozenset())
    if not walls:
        return []
    rule = gettext("No piece moves across a wall, and no piece is captured across one: for the pieces beside it, a "
              "wall counts as the edge of the board.")
    room = variant.board_data.get("room")
    if isinstance(room, str) and ":" in room:
        a, b = room.split(":")
        doors = [d.replace("|", "/") for d in variant.board_data.get("doorways", [])]
        if doors:
            where = gettext("The room {a} to {b} is walled all round (thick lines), except for its doorways "
                       "{doorways}.").format(a=a, b=b, doorways=", ".join(doors))
        else:
            where = gettext("The room {a} to {b} is walled all round (thick lines).").format(a=a, b=b)
        return [where, rule]
    names = ", ".join(f"{g.name(x)}/{g.name(y)}" for x, y in sorted(walls))
    return [gettext("Thick lines are walls, between the squares {pairs}.").format(pairs=names), rule]


#: The board sentences of the families whose boards are not Tafl's squares.
_BOARD_SENTENCES = {"hunt": hunt_board_sentences, "dablot": dablot_board_sentences}


def board_sentences(variant: Variant) -> list[str]:
    """What is on the board: size, pieces, special squares."""
    other = _BOARD_SENTENCES.get(variant.family)
    if other is not None:
        return other(variant)
    g = variant.geometry
    rules = variant.make_rules()
    pieces = rules.pieces(rules.initial_position())
    att = sum(1 for p in pieces.values() if p == "t")
    dfn = sum(1 for p in pieces.values() if p == "T")
    king = g.name(next(s for s, p in pieces.items() if p == "K"))
    out = [" ".join((
        # the noun agrees with the number next to it ("9 x 9 клеток", "9 x 2 клетки")
        ngettext("The board has {width} x {height} square.", "The board has {width} x {height} squares.",
                 g.height).format(width=g.width, height=g.height),
        ngettext("The attackers have {n} piece.", "The attackers have {n} pieces.", att).format(n=att),
        ngettext("The defenders have a king and {n} soldier; the king starts on {square}.",
                 "The defenders have a king and {n} soldiers; the king starts on {square}.", dfn).format(
            n=dfn, square=king)))]
    if g.marked("throne"):
        out.append(gettext("The centre square {square} is the throne: only the king may stop on it.").format(
            square=g.name(min(g.marked("throne")))))
    if g.marked("corner"):
        names = ", ".join(g.name(s) for s in sorted(g.marked("corner")))
        if variant.options.get("corner_entry") == "defenders":
            out.append(gettext("The corner squares ({squares}) are closed to the attackers.").format(squares=names))
            if variant.options.get("corners_hostile") and variant.options.get("corners_hostile_occupied", True):
                out.append(gettext("A corner acts as a capturing partner even while a defender stands on it."))
        else:
            out.append(gettext("The corner squares ({squares}) are closed to every piece but the king.").format(
                squares=names))
    out += wall_sentences(variant)
    if variant.options.get("camps") and g.marked("camp"):
        n = len(g.marked("camp"))
        out.append(ngettext("The attackers' camps are the {n} marked square along the edges.",
                            "The attackers' camps are the {n} marked squares along the edges.", n).format(n=n))
    out.append(gettext("Pieces never jump. A soldier is captured when the opponent moves a piece so that it stands "
                       "between two enemies in a row or column (or between an enemy and a hostile square); several "
                       "pieces may be captured by one move, and only the side that moves captures."))
    if variant.options.get("escape") == "marked" and g.marked("escape"):
        names = ", ".join(g.name(s) for s in sorted(g.marked("escape")))
        out.append(gettext("The escape squares are {squares}.").format(squares=names))
    return out


def rule_sections(variant: Variant) -> list[RuleSection]:
    """The rules in force, grouped as the options panel groups them; inactive toggles left out."""
    sections = [RuleSection(gettext("Board"), tuple(board_sentences(variant)))]
    schema = variant.schema
    values = variant.options
    for group, specs in schema.groups():
        sentences = []
        for spec in specs:
            if not schema.is_active(spec.key, values):
                continue
            text = spec.sentence(values[spec.key])
            if text:
                sentences.append(text)
        if sentences:
            sections.append(RuleSection(group, tuple(sentences)))
    return sections


def rules_text(variant: Variant) -> str:
    """Plain-text rule sheet (the CLI's `rules` command)."""
    lines = [variant.title, "=" * len(variant.title)]
    if variant.description:
        lines += [variant.blurb]
    for sec in rule_sections(variant):
        lines += ["", sec.title, "-" * len(sec.title)]
        lines += [f"- {s}" for s in sec.sentences]
    if variant.sources:
        head = gettext("Sources")
        lines += ["", head, "-" * len(head)] + [f"- {s}" for s in variant.sources_text]
    if variant.notes.strip():
        head = gettext("Notes")
        lines += ["", head, "-" * len(head), variant.notes_text]
    return "\n".join(lines) + "\n"

"""The rules in force, as sentences: one text for the rules viewer, the rule sheet and the CLI.

Everything here is derived from the variant (board, setup) and the option schema (each active
toggle's sentence), so a changed toggle changes the sentence everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from tafl_desktop.core.marks import N_
from tafl_desktop.core.variants import Variant


@dataclass(frozen=True)
class RuleSection:
    title: str
    sentences: tuple[str, ...]


def hunt_board_sentences(variant: Variant) -> list[str]:
    """The board and armies of a Fox game."""
    g = variant.geometry
    rules = variant.make_rules()
    pieces = rules.pieces(rules.initial_position())
    many, hunters = variant.sides
    n_flock = sum(1 for p in pieces.values() if p == "f")
    where = ", ".join(g.name(p) for p, k in sorted(pieces.items()) if k == "h")
    shape = "the dark squares of a checkerboard" if g.style == "checker" else f"a board of {g.size} points"
    out = [f"The game is played on {shape}; pieces stand on the points and move one step along a line.",
           f"{many}: {n_flock} pieces at the bottom. {hunters}: on {where}."]
    if g.marked("pen"):
        out.append("The pen (fortress) is " + ", ".join(g.name(p) for p in sorted(g.marked("pen"))) + ".")
    return out


def dablot_board_sentences(variant: Variant) -> list[str]:
    """The lattice and the two ranked armies of Dablot."""
    g = variant.geometry
    rules = variant.make_rules()
    pieces = rules.pieces(rules.initial_position())
    south = sum(1 for k in pieces.values() if k.islower())
    soldiers = sum(1 for k in pieces.values() if k == "s")
    ranks = "soldier 1, officer 2, the son 3, the leader 4" if variant.options.get("four_ranks") else \
        "soldier 1, the son 2, the leader 3"
    return [
        f"The board is a lattice of {g.size} points: grid points and the centres of the squares, joined by the "
        "lines and both diagonals of every square. Pieces stand on the points.",
        f"Each army ({variant.sides[0]} at the bottom, {variant.sides[1]} at the top) has {south} pieces: "
        f"{soldiers} soldiers, the leader's son and the leader.",
        "Every piece moves one point along any line to an empty point, or captures by a short jump over an "
        f"adjacent enemy onto the empty point beyond. A piece captures only pieces of equal or lower rank ({ranks}), "
        + ("so alone only a leader can take a leader; together, lower-ranked pieces may take it by an ambush "
           "(see Capture)." if variant.options.get("ambush") else "so only a leader can take a leader."),
        "A player who cannot move, or has lost every piece, loses.",
    ]


def wall_sentences(variant: Variant) -> list[str]:
    """The walls of a grid board (thick lines): where they stand and what they do."""
    g = variant.geometry
    walls = getattr(g, "walls", frozenset())
    if not walls:
        return []
    rule = N_("No piece moves across a wall, and no piece is captured across one: for the pieces beside it, a "
              "wall counts as the edge of the board.")
    room = variant.board_data.get("room")
    if isinstance(room, str) and ":" in room:
        a, b = room.split(":")
        doors = [d.replace("|", "/") for d in variant.board_data.get("doorways", [])]
        if doors:
            where = N_("The room {a} to {b} is walled all round (thick lines), except for its doorways "
                       "{doorways}.").format(a=a, b=b, doorways=", ".join(doors))
        else:
            where = N_("The room {a} to {b} is walled all round (thick lines).").format(a=a, b=b)
        return [where, rule]
    names = ", ".join(f"{g.name(x)}/{g.name(y)}" for x, y in sorted(walls))
    return [N_("Thick lines are walls, between the squares {pairs}.").format(pairs=names), rule]


def board_sentences(variant: Variant) -> list[str]:
    """What is on the board: size, pieces, special squares."""
    if variant.family == "dablot":
        return dablot_board_sentences(variant)
    if variant.family != "tafl":
        return hunt_board_sentences(variant)
    g = variant.geometry
    rules = variant.make_rules()
    pieces = rules.pieces(rules.initial_position())
    att = sum(1 for p in pieces.values() if p == "t")
    dfn = sum(1 for p in pieces.values() if p == "T")
    out = [f"The board has {g.width} x {g.height} squares. The attackers have {att} pieces; the defenders have "
           f"a king and {dfn} soldiers, the king starting on {g.name(next(s for s, p in pieces.items() if p == 'K'))}."]
    if g.marked("throne"):
        out.append(f"The centre square {g.name(min(g.marked('throne')))} is the throne: only the king may stop on it.")
    if g.marked("corner"):
        names = ", ".join(g.name(s) for s in sorted(g.marked("corner")))
        if variant.options.get("corner_entry") == "defenders":
            out.append(N_("The corner squares ({names}) are closed to the attackers.").format(names=names))
        else:
            out.append(f"The corner squares ({names}) are closed to every piece but the king.")
    out += wall_sentences(variant)
    if variant.options.get("camps") and g.marked("camp"):
        out.append(f"The attackers' camps are the {len(g.marked('camp'))} marked squares along the edges.")
    out.append("Pieces never jump. A soldier is captured when the opponent moves a piece so that it stands "
               "between two enemies in a row or column (or between an enemy and a hostile square); several "
               "pieces may be captured by one move, and only the side that moves captures.")
    if variant.options.get("escape") == "marked" and g.marked("escape"):
        names = ", ".join(g.name(s) for s in sorted(g.marked("escape")))
        out.append(f"The escape squares are {names}.")
    return out


def rule_sections(variant: Variant) -> list[RuleSection]:
    """The rules in force, grouped as the options panel groups them; inactive toggles left out."""
    sections = [RuleSection("Board", tuple(board_sentences(variant)))]
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
    lines = [variant.name, "=" * len(variant.name)]
    if variant.description:
        lines += [variant.description]
    for sec in rule_sections(variant):
        lines += ["", sec.title, "-" * len(sec.title)]
        lines += [f"- {s}" for s in sec.sentences]
    if variant.sources:
        lines += ["", "Sources", "-------"] + [f"- {s}" for s in variant.sources]
    if variant.notes.strip():
        lines += ["", "Notes", "-----", variant.notes.strip()]
    return "\n".join(lines) + "\n"

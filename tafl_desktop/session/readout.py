"""What the views say about the game on screen, read from the session: the headline (whose turn,
or how it ended), the move list's rows, who made each ply, the pieces lost, and the calls
(Raichi, Tuichi, Watch your king).

Headless and in one place so every view (side panel, status bar, blind play, sounds, the board)
says the same thing from the same session; none of it keeps state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tafl_desktop.core.move_numbers import moves_played, node_label, node_move_text
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.session import GameSession, move_cell_text

__all__ = ["Announcement", "announcements", "lost_counts", "move_rows", "ply_sides", "possessive", "status_text"]


@dataclass(frozen=True)
class Announcement:
    """A call such as "Raichi": a short title and a sentence that says what it means."""

    title: str
    detail: str
    kind: str  # "route" (good for the king) or "threat" (bad for the king)


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def announcements(session: GameSession, on: bool = True) -> list[Announcement]:
    """Raichi / Tuichi / Watch your king for the viewed position (empty when ``on`` is False, the
    player's switch, or the game has no such calls)."""
    variant = session.variant
    rules: Any = session.rules  # the Tafl rules: a family without the calls is turned away below
    if not on or not variant.traits.king_announcements:
        return []
    pos = session.viewed_position
    if rules.outcome(pos) is not None:
        return []
    out = []
    routes = rules.escape_routes(pos)
    g = variant.geometry
    if len(routes) == 1:
        out.append(Announcement(_("Raichi"), _("The king has an open path to escape ({square}).").format(
            square=g.name(routes[0])), "route"))
    elif len(routes) > 1:
        names = ", ".join(g.name(s) for s in sorted(routes))
        out.append(Announcement(_("Tuichi"), ngettext(
            "The king has {n} open path to escape ({squares}): they cannot all be blocked in one move.",
            "The king has {n} open paths to escape ({squares}): they cannot all be blocked in one move.",
            len(routes)).format(n=len(routes), squares=names), "route"))
    if rules.king_threats(pos):
        # Raichi and Tuichi keep their names in every catalogue (the glossary); Watch your king is
        # an English phrase, so each language says it in its own words
        out.append(Announcement(_("Watch your king"), _("The king can be captured with the next move."),
                                "threat"))
    return out


def move_rows(session: GameSession) -> list[str]:
    """Each move of the line on screen as the move list shows it (``e1-e5 x e6``)."""
    tree, rules = session.tree, session.rules
    return [move_cell_text(rules, tree.position(n.parent), n.ply)
            for n in session.line_nodes() if n.parent is not None and n.ply is not None]


def ply_sides(session: GameSession) -> list[int]:
    """Which side made each ply (a side may make several in a row with action points)."""
    game, rules = session.game, session.rules
    return [int(rules.side_to_move(game.position_at(i))) for i in range(len(game.plies))]


def lost_counts(session: GameSession) -> tuple[int, int]:
    """Pieces each side has lost by the viewed position (counted against the start)."""
    rules = session.rules
    side_of = session.variant.traits.piece_side
    start = rules.pieces(session.game.start).values()
    now = rules.pieces(session.viewed_position).values()
    lost = [0, 0]
    for side in (0, 1):
        had = sum(1 for k in start if side_of(k) == side)
        has = sum(1 for k in now if side_of(k) == side)
        lost[side] = max(0, had - has)
    return lost[0], lost[1]


def _viewed_move_number(session: GameSession) -> int:
    """The move number (as the move list counts) of the ply viewed (0 at the start)."""
    label = node_label(session.tree, session.viewed_node())
    return int(label.rstrip(".")) if label else 0


def status_text(session: GameSession) -> str:
    """The headline of the side panel: whose turn, or how the game ended."""
    game, tree = session.game, session.tree
    side = session.rules.side_to_move(session.viewed_position)
    if session.is_live and game.outcome is not None:
        return session.describe(game.outcome)
    name = session.sides[int(side)]
    text = (_("{side} to move") if session.players[int(side)].is_human
            else _("{side} (computer) to move")).format(side=name)
    if not session.is_live:
        text = _("After {move} (move {number} of {total}): {side} to move").format(
            move=node_move_text(tree, session.viewed_node()), number=_viewed_move_number(session),
            total=moves_played(game), side=name) if session.view_ply else \
            _("Start position: {side} to move").format(side=name)
    nodes = session.line_nodes()
    if nodes and not tree.is_main(nodes[-1]):
        text = _("{status} (in a variation)").format(status=text)
    return text

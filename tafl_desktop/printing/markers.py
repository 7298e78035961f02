"""Dablot Prejjesne with stacked draughts: how many draughts each army needs, and rank markers.

Source 000 suggests playing Dablot with draughts stacked to show rank: a single for a soldier,
a double for the leader's son, a triple for the leader (a fourth level with its Four Ranks
variant), which is why its mini army of 13 pieces needs 16 draughts (11 singles, one double, one
triple).  This module computes those numbers from plain data - an army as counts per rank - so it
serves the mini and full armies today and any Dablot variant's setup, and prints:

* a chart per army: rank, points, stack height, pieces and draughts, with promotion's extra need;
* rank markers one draught across (default 30 mm) to lay on top of each stack, showing the
  army's symbol (the Swedish leader's crown, the Saami leader's four-pointed hat), the points and
  the rank;
* with Officer Material, "retreated" markers for the underside of the soldiers' draughts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Frame, KeepTogether, Paragraph, Spacer, Table, TableStyle

from tafl_desktop.core.marks import number
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.printing.cells import CutLayout, CutSheet, Group, flow_cells, intro_text
from tafl_desktop.printing.fonts import FONT, FONT_BOLD
from tafl_desktop.printing.paper import INK, Document, Rect, fill_frame
from tafl_desktop.printing.symbols import DARK_ARMY, LIGHT_ARMY, RankFace, draw_rank_face

MINI_SOLDIERS = 11  # source 000: "11 regular men plus a leader and his son"
FULL_SOLDIERS = 28  # the 72-point game (hunt-games.md 1.1)


@dataclass(frozen=True)
class Rank:
    """One rank of an army: its title, points (= stack height) and how many pieces hold it."""

    key: str  # "soldier", "officer", "son", "leader"
    title: str
    points: int
    count: int
    up_to: bool = False  # an upper bound (officers appear only by promotion)


@dataclass(frozen=True)
class Army:
    name: str
    symbol: str  # "crown" or "hat"
    dark: bool
    ranks: tuple[Rank, ...]
    officer_material: bool = False

    @property
    def pieces(self) -> int:
        return sum(r.count for r in self.ranks if not r.up_to)

    def draughts(self) -> int:
        """Draughts for the starting army: one per point of rank."""
        return sum(r.points * r.count for r in self.ranks if not r.up_to)

    def draughts_with_promotion(self) -> int:
        """Draughts if every soldier were promoted: promotion adds ``officer - soldier`` draughts
        per promoted soldier (source 000 advises not to limit promotion by the draughts at hand)."""
        extra = sum((r.points - 1) * r.count for r in self.ranks if r.up_to)
        return self.draughts() + extra

    def face(self, rank: Rank, retreated: bool = False) -> RankFace:
        return RankFace(self.symbol, self.dark, rank.title, rank.points, leader=rank.key == "leader",
                        retreated=retreated)

    def rank(self, key: str) -> Rank | None:
        return next((r for r in self.ranks if r.key == key), None)


def make_army(name: str, symbol: str, dark: bool, soldiers: int, sons: int = 1, leaders: int = 1,
              four_ranks: bool = False, promotion: bool = False, officer_material: bool = False) -> Army:
    """An army from counts: ranks and points per source 000 (three ranks, or four with Four Ranks;
    officers exist only by promotion, or as a rank of their own with Four Ranks)."""
    son_pts, leader_pts = (3, 4) if four_ranks else (2, 3)
    ranks = [Rank("soldier", _("Soldier"), 1, soldiers)]
    if promotion:
        ranks.append(Rank("officer", _("Officer"), 2, soldiers, up_to=True))
    ranks += [Rank("son", _("Leader's son"), son_pts, sons), Rank("leader", _("Leader"), leader_pts, leaders)]
    return Army(name, symbol, dark, tuple(ranks), officer_material and promotion)


#: The Dablot army printed dark: South (side 0, the Saami, who move first), as the window draws it
#: (in every family the side that moves first by default is the dark one on screen and on paper).
DARK_DABLOT_SIDE = 0


def army_symbol(name: str, index: int) -> str:
    """The Swedes' leader wears a crown, the Saami leader a four-pointed hat (source 000); by
    side for armies with other names (the south as the Saami, the north as the Swedes)."""
    low = name.lower()
    if "swed" in low or "settler" in low or "finn" in low:
        return "crown"
    if "saami" in low or "sami" in low or "sámi" in low:
        return "hat"
    return "hat" if index == 0 else "crown"


def reference_armies(size: str, four_ranks: bool = False, promotion: bool = False,
                     officer_material: bool = False) -> list[Army]:
    """The two armies of the mini game (11 soldiers) or the full game (28), Saami and Swedes."""
    soldiers = MINI_SOLDIERS if size == "mini" else FULL_SOLDIERS
    return [make_army(n, army_symbol(n, i), i == DARK_DABLOT_SIDE, soldiers, four_ranks=four_ranks, promotion=promotion,
                      officer_material=officer_material) for i, n in enumerate(("Saami", "Swedes"))]


def armies_for_variant(variant: Any) -> list[Army]:
    """The armies of a Dablot variant, counted from its starting position and toggles.

    Letters follow the Dablot engine: s soldier, o officer, p son, k leader; upper case North.
    """
    rules = variant.make_rules()
    pieces = rules.pieces(rules.initial_position())
    o = variant.options
    out = []
    for index, upper in ((0, False), (1, True)):
        letters = [p for p in pieces.values() if p.isupper() == upper]
        count = {k: sum(1 for p in letters if p.lower() == k) for k in "sropk"}
        name = variant.sides[index]
        out.append(make_army(name, army_symbol(name, index), index == DARK_DABLOT_SIDE,
                             count["s"] + count["r"] + count["o"],
                             sons=count["p"], leaders=count["k"], four_ranks=bool(o.get("four_ranks")),
                             promotion=bool(o.get("promotion")), officer_material=bool(o.get("officer_material"))))
    return out


def face_for_letter(armies: list[Army], letter: str) -> RankFace:
    """The face of a Dablot piece letter (for tokens and diagrams), given the variant's armies."""
    army = armies[1 if letter.isupper() else 0]
    key = {"s": "soldier", "r": "soldier", "o": "officer", "p": "son", "k": "leader"}[letter.lower()]
    rank = army.rank(key) or Rank(key, key.capitalize(), 2 if key == "officer" else 1, 0)
    return army.face(rank, retreated=letter.lower() == "r")


# ---------------------------------------------------------------------------------- the pages
TEXT = ParagraphStyle("mk", fontName=FONT, fontSize=8.6, leading=11, textColor=INK, bulletFontName=FONT)
SMALL = ParagraphStyle("mks", parent=TEXT, fontSize=7.6, leading=9.5)
HEAD = ParagraphStyle("mkh", parent=TEXT, fontName=FONT_BOLD, fontSize=10.5, leading=13.5, spaceBefore=5,
                      spaceAfter=2)
TITLE = ParagraphStyle("mkt", parent=TEXT, fontName=FONT_BOLD, fontSize=15, leading=19, spaceAfter=3)

SAAMI_TITLES = {"leader": "gånneka", "son": "gånnekan alke", "soldier": "dårake"}


class Stacks(Flowable):
    """Side view of an army's stacks (1 to 4 draughts high) with a marker on each."""

    def __init__(self, army: Army, draught: float = 9.0) -> None:
        super().__init__()
        self.army, self.d = army, draught

    def wrap(self, _aw: float, _ah: float) -> tuple[float, float]:
        n = len(self.army.ranks)
        h = max(r.points for r in self.army.ranks) * self.d * 0.28 + self.d * 0.75 + 5
        return n * (self.d + 8) * mm, h * mm

    def draw(self) -> None:
        c = self.canv
        face, ink = DARK_ARMY if self.army.dark else LIGHT_ARMY
        d = self.d
        for i, rank in enumerate(self.army.ranks):
            x = i * (d + 8)
            t = d * 0.28
            for k in range(rank.points):
                c.setFillColor(face)
                c.setStrokeColor(ink if self.army.dark else INK)
                c.setLineWidth(0.25 * mm)
                c.roundRect(x * mm, (4 + k * t) * mm, d * mm, t * mm, t * 0.3 * mm, stroke=1, fill=1)
            top = 4 + rank.points * t + d * 0.38
            draw_rank_face(c, self.army.face(rank), x + d / 2, top, d * 0.36, outline=True)
            c.setFillColor(INK)
            c.setFont(FONT, 6.5)
            c.drawCentredString((x + d / 2) * mm, 0.6 * mm, _("{n} high").format(n=rank.points))


def _pieces(n: int) -> str:
    """"12 pieces" with the noun in the form the number asks for (Russian "12 фигур", "2 фигуры")."""
    return ngettext("{n} piece", "{n} pieces", n).format(n=n)


def _draughts(n: int) -> str:
    """"24 draughts", counted as :func:`_pieces`."""
    return ngettext("{n} draught", "{n} draughts", n).format(n=n)


def _chart(army: Army) -> list[Flowable]:
    rows: list[list[Any]] = [[_("Rank"), _("Points"), _("Stack"), _("Pieces"), _("Draughts")]]
    for r in army.ranks:
        title = r.title
        if army.symbol == "hat" and r.key in SAAMI_TITLES:
            title += f" ({SAAMI_TITLES[r.key]})"
        if r.up_to:
            rows.append([_("{rank}, by promotion").format(rank=title), str(r.points),
                         _("{n} high").format(n=r.points), _("up to {n}").format(n=r.count),
                         _("+1 each (up to +{n})").format(n=(r.points - 1) * r.count)])
        else:
            rows.append([title, str(r.points), _("{n} high").format(n=r.points), str(r.count),
                         str(r.points * r.count)])
    rows.append([_("Total"), "", "", str(army.pieces), str(army.draughts())])
    t = Table(rows, colWidths=[52 * mm, 14 * mm, 16 * mm, 18 * mm, 34 * mm], hAlign="LEFT")
    t.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 8), ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
        ("FONT", (0, -1), (-1, -1), FONT_BOLD, 8), ("LINEBELOW", (0, 0), (-1, 0), 0.5, INK),
        ("LINEABOVE", (0, -1), (-1, -1), 0.5, INK), ("TOPPADDING", (0, 0), (-1, -1), 1.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2), ("LEFTPADDING", (0, 0), (-1, -1), 2)]))
    text = (_("{army}: {pieces}, {draughts} (leader's symbol: the crown)") if army.symbol == "crown"
            else _("{army}: {pieces}, {draughts} (leader's symbol: the four-pointed hat)"))
    lines = [Paragraph(text.format(army=_(army.name), pieces=_pieces(army.pieces),
                                   draughts=_draughts(army.draughts())), HEAD), t]
    if any(r.up_to for r in army.ranks):
        n = army.draughts_with_promotion()
        lines.append(Paragraph(ngettext(
            "With every soldier promoted this army would use {n} draught: have spares ready rather than limit "
            "promotion.",
            "With every soldier promoted this army would use {n} draughts: have spares ready rather than limit "
            "promotion.", n).format(n=n), SMALL))
    lines += [Spacer(1, 1.5 * mm), Stacks(army)]
    return [KeepTogether(lines)]


def chart_story(armies: list[Army], heading: str, notes: list[str]) -> list[Flowable]:
    story: list[Flowable] = [Paragraph(heading, TITLE)]
    story.append(Paragraph(
        _("Play Dablot with draughts stacked to show rank (source 000): one draught for a soldier, two for the "
          "leader's son (or a promoted officer), three for the leader; with Four Ranks the son is three high and "
          "the leader four. Lay a rank marker on top of each stack so both players see the rank and the army."),
        TEXT))
    for n in notes:
        story.append(Paragraph(n, SMALL))
    for army in armies:
        story += _chart(army)
    return story


def marker_pages(doc: Document, armies: list[Army], draught_mm: float, heading: str,
                 notes: list[str] | None = None, marker_armies: list[Army] | None = None) -> CutSheet:
    """The chart page(s), then every marker (one per piece, officers for promotion, retreated
    marks for Officer Material) as round cut-outs one draught across."""
    body = doc.page.body()
    story = chart_story(armies, heading, notes or [])
    pages = 0
    while story:
        pages += 1
        if pages > 10:
            raise ValueError("the draughts chart does not fit on the page")
        with doc.sheet(_("rank markers, chart"), _("draughts {d} mm").format(d=number(draught_mm))) as c:
            fill_frame(Frame(body.x * mm, body.y * mm, body.w * mm, body.h * mm, leftPadding=0, rightPadding=0,
                             topPadding=0, bottomPadding=0), story, c)
    groups: list[Group] = []
    for army in armies if marker_armies is None else marker_armies:
        for rank in army.ranks:
            if rank.count == 0:
                continue
            n = rank.count
            what = _("by promotion, up to one per soldier") if rank.up_to else f"{n}"
            title = _("{army}: {rank} markers ({what})").format(army=_(army.name), rank=rank.title, what=what)
            groups.append(Group(title, n, _marker(army.face(rank))))
        if army.officer_material:
            soldiers = army.rank("soldier")
            if soldiers is not None and soldiers.count:
                groups.append(Group(_("{army}: 'retreated' marks for the underside of each soldier "
                                      "({count})").format(army=_(army.name), count=soldiers.count), soldiers.count,
                                    _marker(army.face(soldiers, retreated=True))))
    bleed = 1.0
    layout = CutLayout(draught_mm, draught_mm, gutter=4.0, bleed=bleed)
    intro = intro_text([
        _("Rank markers, {d} mm across (one draught)").format(d=number(draught_mm)),
        _("Cut along the crop marks and round off the corners (or use a circle punch); lay a marker on top of each "
          "stack, or glue it to the top draught. Glue the sheet to thin card first for sturdier markers."),
    ])
    return flow_cells(doc, _("rank markers"), _("{d} mm").format(d=number(draught_mm)), groups, layout, intro)


def _marker(face: RankFace):
    def draw(c: Any, r: Rect, _k: int) -> None:
        draw_rank_face(c, face, r.x + r.w / 2, r.y + r.h / 2, r.w / 2, bleed=1.0)
    return draw


def generic_marker_pages(doc: Document, draught_mm: float) -> CutSheet:
    """Chart for the mini and full armies, and markers enough for the full game (which covers the
    mini game too): what ``--parts markers`` prints for a game that is not Dablot."""
    mini = reference_armies("mini")
    full = reference_armies("full")
    # one sentence per count, so that each noun takes the form its number asks for
    notes = [" ".join((
        ngettext("Mini game (source 000): {n} piece a side.", "Mini game (source 000): {n} pieces a side.",
                 mini[0].pieces).format(n=mini[0].pieces),
        ngettext("They need {n} draught each ({singles} singles, one double, one triple).",
                 "They need {n} draughts each ({singles} singles, one double, one triple).",
                 mini[0].draughts()).format(n=mini[0].draughts(), singles=MINI_SOLDIERS),
        ngettext("Full game (72 points): {n} piece a side.", "Full game (72 points): {n} pieces a side.",
                 full[0].pieces).format(n=full[0].pieces),
        ngettext("They need {n} draught a side.", "They need {n} draughts a side.",
                 full[0].draughts()).format(n=full[0].draughts()),
        _("The markers below are for the full armies; the mini game uses 11 of each army's soldier markers.")))]
    return marker_pages(doc, mini + full, draught_mm, _("Dablot Prejjesne with stacked draughts"), notes,
                        marker_armies=full)

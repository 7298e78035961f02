"""A club tournament on paper: a round's pairings, score sheets, the crosstable and the standings.

The same machinery as the printable sets (:class:`~tafl_desktop.printing.paper.Document`: page
header and "page N of M", the embedded DejaVu fonts that carry Cyrillic names, A4 or Letter,
the translation layer), so a club's papers look like its board sets and come out in the
player's language.  Tables flow over as many pages as they need; a score sheet is one page a
game, to fill in by hand at the board: both players' names and sides, the rules and the clock,
a numbered move list, the result and the signatures.

Here in ``match/``, on the printing package's paper machinery, and not in ``printing/``: the
printed sets (``printing/``) sit below the match capability, which prints its own papers
(``docs/ARCHITECTURE.md`` §1; this was ``printing/tournament_sheets.py``).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Frame, KeepTogether, Paragraph, Spacer, Table, TableStyle

from tafl_desktop.i18n import _, pgettext
from tafl_desktop.match.brackets import stage_text
from tafl_desktop.printing import PrintError
from tafl_desktop.printing.fonts import FONT, FONT_BOLD
from tafl_desktop.printing.paper import GREY, INK, LIGHT, Document, fill_frame, make_page

if TYPE_CHECKING:
    from tafl_desktop.match.tournament import Pairing, TGame, Tournament

WHAT = ("pairings", "sheets", "crosstable", "standings")
#: Move rows of a score sheet: two columns of at most this many numbered moves (a portrait
#: page's; a landscape page has room for fewer, :func:`sheet_rows`).
SHEET_ROWS = 30
ROW_H = 5.6  # mm a handwritten move needs
HEAD_MIN = 72.0  # mm for the heading, players, rules and clock above the moves

BODY = ParagraphStyle("tbody", fontName=FONT, fontSize=9, leading=11.5, textColor=INK)
SMALL = ParagraphStyle("tsmall", parent=BODY, fontSize=7, leading=8.6)
CELL = ParagraphStyle("tcell", parent=BODY, fontSize=8.5, leading=10)
HEAD = ParagraphStyle("thead", parent=CELL, fontName=FONT_BOLD, fontSize=7.5, leading=9)
H1 = ParagraphStyle("th1", parent=BODY, fontName=FONT_BOLD, fontSize=15, leading=19, spaceAfter=2)
H2 = ParagraphStyle("th2", parent=BODY, fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=6, spaceAfter=3)


def _p(text: str, style: ParagraphStyle = CELL) -> Paragraph:
    return Paragraph(escape(text), style)


def points_text(x: float) -> str:
    """1.5 as "1½", 0.5 as "½": the way scores are written on a club's wall."""
    whole, half = int(x), abs(x - int(x)) >= 0.25
    if half:
        return ("" if whole == 0 else str(whole)) + "½"
    return str(whole)


def result_text(g: TGame) -> str:
    """A game's result from the first-named side's view (1–0, 0–1, ½–½); blank while unplayed."""
    return {"attackers": "1–0", "defenders": "0–1", "draw": "½–½"}.get(g.result or "", "")


def side_names(variant: Any) -> tuple[str, str]:
    """The two sides as the variant names them (the tournament's attackers and defenders)."""
    if variant is None:
        return _("Attackers"), _("Defenders")
    first, second = variant.side_names
    return str(first), str(second)


def _table(rows: list[list[Any]], widths: list[float], head_rows: int = 1, align_right: int = -1,
           extra: list[tuple[Any, ...]] | None = None) -> Table:
    t = Table(rows, colWidths=[w * mm for w in widths], repeatRows=head_rows)
    style = [("FONT", (0, 0), (-1, -1), FONT, 8.5), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
             ("LINEBELOW", (0, 0), (-1, head_rows - 1), 0.8, INK),
             ("LINEBELOW", (0, head_rows), (-1, -1), 0.25, LIGHT),
             ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
             ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]
    if align_right >= 0:
        style.append(("ALIGN", (align_right, 0), (-1, -1), "CENTER"))
    t.setStyle(TableStyle(style + (extra or [])))
    return t


def _name(t: Tournament, i: int) -> str:
    p = t.players[i]
    return f"{p.name} ({p.rating})" if p.rating else p.name


# ------------------------------------------------------------------------------------ pairings
def pairings_story(t: Tournament, number: int, variant: Any, width: float) -> list[Any]:
    rnd = t.rounds[number - 1]
    first, second = side_names(variant)
    story: list[Any] = [_p(_("Round {n}: pairings").format(n=number), H1)]
    staged = any(p.stage for p in rnd.pairings)
    head = [_("Table"), pgettext("a game of a pairing", "Game"), first, second, _("Result")]
    head += [_("Stage")] if staged else []
    rows: list[list[Any]] = [[_p(h, HEAD) for h in head]]
    for table, p in enumerate(rnd.pairings, 1):
        for k, g in enumerate(p.games, 1):
            row = [str(table), str(k), _p(_name(t, g.attackers)), _p(_name(t, g.defenders)), result_text(g)]
            rows.append(row + ([_p(stage_text(p.stage))] if staged else []))
    widths = [16.0, 16.0, 0.0, 0.0, 20.0] + ([36.0] if staged else [])
    rest = (width - sum(widths)) / 2
    widths[2] = widths[3] = rest
    story.append(_table(rows, widths, align_right=4, extra=[("ALIGN", (0, 0), (1, -1), "CENTER")]))
    out = [t.players[rnd.bye].name] if rnd.bye is not None else []
    if out:
        story.append(Spacer(1, 2 * mm))
        story.append(_p(_("bye: {name}").format(name=", ".join(out)), BODY))
    if rnd.resting:
        story.append(Spacer(1, 2 * mm))
        story.append(_p(_("not playing this round: {names}").format(
            names=", ".join(t.players[i].name for i in rnd.resting)), BODY))
    story.append(Spacer(1, 3 * mm))
    story.append(_p(_("Results: 1–0: a win of {first}; 0–1: a win of {second}; ½–½: a draw.").format(
        first=first, second=second), SMALL))
    return story


# ------------------------------------------------------------------------------------ standings
def _standings_table(rows_in: list[dict[str, Any]], width: float) -> Table:
    head = [_("Place"), _("Player"), _("Rating"), _("Points"), _("Direct comparison"), _("Sonneborn-Berger"),
            _("Shortest win"), pgettext("games played", "Games")]
    rows: list[list[Any]] = [[_p(h, HEAD) for h in head]]
    for r in rows_in:
        rows.append([str(r["place"]), _p(r["name"]), str(r["rating"] or ""), points_text(r["points"]),
                     points_text(r["direct"]), f"{r['sonneborn_berger']:g}",
                     "" if r["shortest_win"] is None else str(r["shortest_win"]), str(r["games"])])
    widths = [13.0, 0.0, 16.0, 14.0, 24.0, 34.0, 24.0, 16.0]
    widths[1] = width - sum(widths)
    return _table(rows, widths, align_right=2)


def standings_story(t: Tournament, width: float) -> list[Any]:
    from tafl_desktop.match.brackets import group_letter

    story: list[Any] = [_p(_("Standings"), H1), _p(_tie_break_note(t), SMALL), Spacer(1, 2 * mm)]
    champion = t.champion() if t.system in ("wtf-groups", "double-elimination") else None
    if champion is not None:
        story.append(_p(_("Winner: {name}").format(name=t.players[champion].name), H2))
    story.append(_standings_table(t.standings(), width))
    for g, members in enumerate(t.groups):
        story.append(KeepTogether([_p(_("Group {letter}").format(letter=group_letter(g)), H2),
                                   _standings_table(t.standings(members, f"group:{g}"), width)]))
    return story


def _tie_break_note(t: Tournament) -> str:
    note = _("Ties are broken by the direct comparison, then Sonneborn-Berger, then the shortest win "
             "(fewest plies), then the rating.")
    if t.system in ("wtf-groups", "double-elimination"):
        note = _("Whoever got further in the knock-out is placed first.") + " " + note
    return note


# ------------------------------------------------------------------------------------ crosstable
def _cross(t: Tournament, members: list[int], stage: str | None, width: float) -> Table:
    table = t.standings(members, stage) if stage else t.standings()
    index = {p.name: i for i, p in enumerate(t.players)}
    order = [index[r["name"]] for r in table]
    score: dict[tuple[int, int], float] = {}
    for r in t.rounds:
        for p in r.pairings:
            if stage is not None and p.stage != stage:
                continue
            for g in p.games:
                if g.result is None:
                    continue
                pts = {"attackers": (1.0, 0.0), "defenders": (0.0, 1.0), "draw": (0.5, 0.5)}[g.result]
                for who, other, got in ((g.attackers, g.defenders, pts[0]), (g.defenders, g.attackers, pts[1])):
                    score[(who, other)] = score.get((who, other), 0.0) + got
    n = len(order)
    head: list[Any] = [_p("#", HEAD), _p(_("Player"), HEAD)] + [_p(str(k + 1), HEAD) for k in range(n)] + [
        _p(_("Points"), HEAD), _p(_("Place"), HEAD)]
    rows: list[list[Any]] = [head]
    for k, i in enumerate(order):
        cells = ["×" if i == j else points_text(score[(i, j)]) if (i, j) in score else "" for j in order]
        rows.append([str(k + 1), _p(t.players[i].name), *cells, points_text(table[k]["points"]),
                     str(table[k]["place"])])
    cell = max(6.0, min(11.0, (width - 60.0 - 30.0) / max(n, 1)))
    widths = [8.0, 0.0, *([cell] * n), 16.0, 14.0]
    widths[1] = width - sum(widths)
    extra: list[tuple[Any, ...]] = [("BACKGROUND", (2 + k, 1 + k), (2 + k, 1 + k), LIGHT) for k in range(n)]
    extra.append(("GRID", (2, 0), (1 + n, -1), 0.25, GREY))
    return _table(rows, widths, align_right=2, extra=extra)


def crosstable_story(t: Tournament, width: float) -> list[Any]:
    from tafl_desktop.match.brackets import group_letter

    story: list[Any] = [_p(_("Crosstable"), H1),
                        _p(_("Each row shows the points the player took against each opponent."), SMALL),
                        Spacer(1, 2 * mm)]
    if t.groups:
        for g, members in enumerate(t.groups):
            story.append(KeepTogether([_p(_("Group {letter}").format(letter=group_letter(g)), H2),
                                       _cross(t, members, f"group:{g}", width)]))
        knockouts = [(r.number, p) for r in t.rounds for p in r.pairings if p.stage == "knockout"]
        if knockouts:
            story.append(_p(_("Knock-out"), H2))
            story.append(_match_list(t, knockouts, width))
            story.append(_p(_("A tied match goes to the shorter win in it, then to the higher seed."), SMALL))
        return story
    story.append(_cross(t, list(range(len(t.players))), None, width))
    if t.system == "double-elimination" and t.rounds:
        story.append(_p(_("Matches"), H2))
        story.append(_match_list(t, [(r.number, p) for r in t.rounds for p in r.pairings], width))
        story.append(_p(_("A tied match goes to the shorter win in it, then to the higher seed."), SMALL))
    return story


def _match_list(t: Tournament, matches: list[tuple[int, Pairing]], width: float) -> Table:
    rows: list[list[Any]] = [[_p(h, HEAD) for h in (_("Round"), _("Match"), _("Score"), _("Winner"), _("Stage"))]]
    for number, p in matches:
        got = {p.a: 0.0, p.b: 0.0}
        for g in p.games:
            for who, pts in ((g.attackers, {"attackers": 1.0, "draw": 0.5}.get(g.result or "", 0.0)),
                             (g.defenders, {"defenders": 1.0, "draw": 0.5}.get(g.result or "", 0.0))):
                got[who] += pts
        w = t.pairing_winner(p)
        rows.append([str(number), _p(f"{t.players[p.a].name} – {t.players[p.b].name}"),
                     f"{points_text(got[p.a])}–{points_text(got[p.b])}", _p("" if w is None else t.players[w].name),
                     _p(stage_text(p.stage))])
    widths = [16.0, 0.0, 22.0, 50.0, 36.0]
    widths[1] = width - sum(widths)
    return _table(rows, widths, extra=[("ALIGN", (0, 0), (0, -1), "CENTER"), ("ALIGN", (2, 0), (2, -1), "CENTER")])


# ------------------------------------------------------------------------------------ score sheets
def _rules_lines(variant: Any) -> str:
    from tafl_desktop.core.rulebook import rule_sections

    sentences = [s for sec in rule_sections(variant) for s in sec.sentences]
    return " ".join(sentences)


def score_sheet(doc: Document, t: Tournament, number: int, table: int, k: int, p: Pairing, g: TGame,
                variant: Any) -> None:
    """One page: the game's heading, the players and sides, the rules and the clock, the moves."""
    first, second = side_names(variant)
    body = doc.page.body()
    title = _("Round {n}, table {table}, game {game}").format(n=number, table=table, game=k)
    stage = stage_text(p.stage)
    with doc.sheet(_("score sheet"), title) as c:
        x, top, w = body.x, body.top, body.w
        story: list[Any] = [_p(t.name, H1), _p(title + (f" · {stage}" if stage else ""), BODY), Spacer(1, 2 * mm)]
        players = Table([[_p(first, HEAD), _p(_name(t, g.attackers), BODY), _p(_("signature"), SMALL), ""],
                         [_p(second, HEAD), _p(_name(t, g.defenders), BODY), _p(_("signature"), SMALL), ""]],
                        colWidths=[30 * mm, (w - 100) * mm, 20 * mm, 50 * mm], rowHeights=[9 * mm, 9 * mm])
        players.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                                     ("LINEBELOW", (3, 0), (3, -1), 0.4, INK),
                                     ("LINEBELOW", (1, 0), (1, -1), 0.25, LIGHT)]))
        story.append(players)
        story.append(Spacer(1, 2 * mm))
        story.append(_p(_("Clock: {clock}").format(clock=t.clock or "_" * 30), BODY))
        story.append(Spacer(1, 1.5 * mm))
        if variant is not None:
            story.append(_p(_("Rules: {game}").format(game=variant.title), HEAD))
            story.append(_p(_rules_lines(variant), SMALL))
        else:
            story.append(_p(_("Rules:") + " " + "_" * 60, BODY))
        rows = sheet_rows(body.h)
        head_h = body.h - (rows + 1) * ROW_H - 22.0
        frame = Frame(x * mm, (top - head_h) * mm, w * mm, head_h * mm, leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0)
        fill_frame(frame, story, c)
        if story:  # the rules did not fit: say where they are rather than run into the moves
            c.setFont(FONT, 6.5)
            c.setFillColor(GREY)
            c.drawString(x * mm, (top - head_h - 1) * mm, _("(the rules continue on the variant's rule sheet)"))
        _move_grid(c, x, top - head_h - 4.0, w, first, second, variant, rows)
        _result_boxes(c, x, body.y + 3.0, w, first, second)


def sheet_rows(body_h: float) -> int:
    """The move rows that fit below the heading (30 on A4 or Letter portrait, 14 in landscape)."""
    return max(8, min(SHEET_ROWS, int((body_h - HEAD_MIN - 22.0) / ROW_H) - 1))


def _move_grid(c: Any, x: float, top: float, w: float, first: str, second: str, variant: Any, rows: int) -> None:
    """Two columns of numbered rows, the side that moves first on the left of each."""
    order = (first, second)
    if variant is not None and int(variant.first_side) == 1:
        order = (second, first)
    row_h = ROW_H
    col_w = (w - 6.0) / 2
    c.setStrokeColor(INK)
    for col in range(2):
        x0 = x + col * (col_w + 6.0)
        num_w = 9.0
        half = (col_w - num_w) / 2
        c.setFont(FONT_BOLD, 8)
        c.setFillColor(INK)
        c.drawCentredString((x0 + num_w / 2) * mm, (top - row_h + 1.6) * mm, "#")
        for k, name in enumerate(order):
            c.drawCentredString((x0 + num_w + half * (k + 0.5)) * mm, (top - row_h + 1.6) * mm, name[:24])
        c.setLineWidth(0.8)
        c.line(x0 * mm, (top - row_h) * mm, (x0 + col_w) * mm, (top - row_h) * mm)
        c.setLineWidth(0.25)
        c.setFont(FONT, 8)
        for r in range(rows):
            y = top - row_h * (r + 2)
            c.setFillColor(GREY)
            c.drawRightString((x0 + num_w - 1.5) * mm, (y + 1.6) * mm, str(col * rows + r + 1))
            c.setStrokeColor(LIGHT)
            c.line(x0 * mm, y * mm, (x0 + col_w) * mm, y * mm)
        c.setStrokeColor(GREY)
        bottom = top - row_h * (rows + 1)
        for xx in (x0 + num_w, x0 + num_w + half):
            c.line(xx * mm, top * mm, xx * mm, bottom * mm)


def _result_boxes(c: Any, x: float, y: float, w: float, first: str, second: str) -> None:
    c.setFillColor(INK)
    c.setStrokeColor(INK)
    c.setLineWidth(0.4)
    c.setFont(FONT_BOLD, 9)
    label = _("Result:")
    c.drawString(x * mm, (y + 1) * mm, label)
    from tafl_desktop.printing.fonts import text_width

    cx = x + text_width(label, 9, True) / mm + 4.0
    c.setFont(FONT, 9)
    for text, box in ((_("{side}: win").format(side=first), True), (_("{side}: win").format(side=second), True),
                      (_("draw"), True), (_("plies: ______"), False)):
        if box:
            c.rect(cx * mm, y * mm, 3.2 * mm, 3.2 * mm)
            cx += 4.5
        c.drawString(cx * mm, (y + 0.6) * mm, text)
        cx += text_width(text, 9) / mm + 6.0


# ------------------------------------------------------------------------------------ the document
def render_tournament(t: Tournament, what: str, variant: Any = None, round_number: int | None = None,
                      paper: str = "a4", orientation: str = "portrait") -> bytes:
    """The PDF of ``what`` (pairings, sheets, crosstable, standings) for the tournament;
    ``round_number`` (default: the last paired) for pairings and sheets.  PrintError (one line)
    for a request that cannot be printed."""
    from tafl_desktop.printing.paper import ORIENTATIONS, PAPERS

    if what not in WHAT:
        raise PrintError(_("unknown part {part}: choose from {parts}").format(part=what, parts=", ".join(WHAT)))
    if paper not in PAPERS or orientation not in ORIENTATIONS:
        raise PrintError(_("paper {paper} is not known: use a4 or letter").format(paper=paper))
    number = round_number or len(t.rounds)
    if what in ("pairings", "sheets") and not 1 <= number <= len(t.rounds):
        raise PrintError(_("there is no round {n}").format(n=number) if t.rounds
                         else _("no round has been paired yet"))
    page = make_page(paper, orientation)
    buf = io.BytesIO()
    part = {"pairings": _("pairings"), "sheets": _("score sheets"), "crosstable": _("crosstable"),
            "standings": _("standings")}[what]
    doc = Document(buf, page, t.name, _("{tournament}: {part}").format(tournament=t.name, part=part))
    width = page.body().w
    if what == "sheets":
        rnd = t.rounds[number - 1]
        for table, p in enumerate(rnd.pairings, 1):
            for k, g in enumerate(p.games, 1):
                score_sheet(doc, t, number, table, k, p, g, variant)
    else:
        story = (pairings_story(t, number, variant, width) if what == "pairings"
                 else crosstable_story(t, width) if what == "crosstable" else standings_story(t, width))
        detail = _("round {n}").format(n=number) if what == "pairings" else variant.title if variant else ""
        _flow(doc, part, str(detail), story)
    doc.save()
    return buf.getvalue()


def _flow(doc: Document, part: str, detail: str, story: list[Any]) -> None:
    body = doc.page.body()
    pages = 0
    while story:
        pages += 1
        if pages > 200:
            raise PrintError(_("cannot lay out the pages ({paper}, {orientation}): {problem}").format(
                paper=doc.page.paper, orientation=doc.page.orientation, problem="overflow"))
        with doc.sheet(part, detail) as c:
            frame = Frame(body.x * mm, body.y * mm, body.w * mm, body.h * mm, leftPadding=0, rightPadding=0,
                          topPadding=0, bottomPadding=0)
            try:
                fill_frame(frame, story, c)
            except ValueError as exc:
                raise PrintError(str(exc)) from None

"""The rule sheet: the rules in force as sentences, the starting position and capture diagrams.

Nothing here is written per game.  The sentences are the option schema's own (one per active
toggle, via :func:`tafl_desktop.core.rulebook.rule_sections`), the diagrams are positions the
engine has checked (:mod:`tafl_desktop.printing.diagrams`), and the sources are the variant's.
So a changed toggle changes the sheet, and a user-made variant prints as faithfully as a preset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Frame, KeepTogether, Paragraph, Spacer, Table, TableStyle

from tafl_desktop.core.rulebook import rule_sections
from tafl_desktop.i18n import _
from tafl_desktop.printing.board_draw import (
    BoardMarks,
    board_extent,
    draw_board,
    draw_legend_swatch,
    legend,
    piece_centre,
    piece_room,
    rim_for,
)
from tafl_desktop.printing.diagrams import RuleDiagram, rule_diagrams
from tafl_desktop.printing.fonts import FONT, FONT_BOLD
from tafl_desktop.printing.paper import INK, Document, fill_frame
from tafl_desktop.printing.pieces_sheet import piece_counts, piece_face, piece_kinds
from tafl_desktop.printing.symbols import draw_arrow, draw_capture_cross, draw_piece

DIAGRAM_CELL = 7.0  # mm per square in the capture diagrams
DIAGRAM_FORM = "rules_board"
START_FORM = "start_board"
ARROW = Color(0.10, 0.35, 0.75)

BODY = ParagraphStyle("body", fontName=FONT, fontSize=8.8, leading=11.4, textColor=INK, bulletFontName=FONT)
BULLET = ParagraphStyle("bullet", parent=BODY, leftIndent=9, bulletIndent=1, spaceAfter=1.2)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=7.4, leading=9.2)
CAPTION_TITLE = ParagraphStyle("captitle", parent=SMALL, fontName=FONT_BOLD)
H1 = ParagraphStyle("h1", parent=BODY, fontName=FONT_BOLD, fontSize=16, leading=20, spaceAfter=3)
H2 = ParagraphStyle("h2", parent=BODY, fontName=FONT_BOLD, fontSize=10.5, leading=14, spaceBefore=6, spaceAfter=2)


def _p(text: str, style: ParagraphStyle = BODY) -> Paragraph:
    return Paragraph(escape(text), style)


class BoardPicture(Flowable):
    """A board form (whole or a window of it) with pieces, move arrows and capture crosses."""

    def __init__(self, variant: Any, form: str, square: float, rim: float, pieces: dict[int, str],
                 window: tuple[int, int, int, int] | None = None, moves: tuple[tuple[int, ...], ...] = (),
                 captured: frozenset[int] = frozenset(), face: Callable[[str], Any] | None = None) -> None:
        super().__init__()
        self.face = face or (lambda letter: letter)
        self.variant, self.form, self.square, self.rim = variant, form, square, rim
        self.pieces, self.window, self.moves, self.captured = pieces, window, moves, captured
        g = variant.geometry
        full_w, full_h = board_extent(g, square, rim)
        if window is None:
            self.region = (0.0, 0.0, full_w, full_h)
        else:
            f0, r0, w, h = window
            x0, y0 = rim + f0 * square, rim + r0 * square
            x1, y1 = x0 + w * square, y0 + h * square
            # show the coordinates where the window reaches the board's edge
            if f0 == 0:
                x0 = 0.0
            if r0 == 0:
                y0 = 0.0
            if f0 + w == g.width:
                x1 = full_w
            if r0 + h == g.height:
                y1 = full_h
            self.region = (x0, y0, x1 - x0, y1 - y0)

    def wrap(self, _aw: float, _ah: float) -> tuple[float, float]:
        return self.region[2] * mm, self.region[3] * mm

    def draw(self) -> None:
        c = self.canv
        rx, ry, rw, rh = self.region
        g = self.variant.geometry
        s = self.square
        c.saveState()
        clip = c.beginPath()
        clip.rect(0, 0, rw * mm, rh * mm)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(-rx * mm, -ry * mm)
        c.doForm(self.form)
        r = s * piece_room(g) * 0.4
        for p, kind in sorted(self.pieces.items()):
            cx, cy = piece_centre(g, p, s, self.rim, self.rim)
            draw_piece(c, self.face(kind), cx, cy, r, outline=True)
        for path in self.moves:
            for a, b in zip(path, path[1:], strict=False):
                (ax, ay), (bx, by) = (piece_centre(g, a, s, self.rim, self.rim),
                                      piece_centre(g, b, s, self.rim, self.rim))
                # start at the piece's rim, stop short of the target's centre
                dx, dy = bx - ax, by - ay
                n = max((dx * dx + dy * dy) ** 0.5, 1e-6)
                draw_arrow(c, ax + dx / n * r * 0.9, ay + dy / n * r * 0.9, bx - dx / n * r * 0.2,
                           by - dy / n * r * 0.2, max(0.35, s * 0.06), ARROW)
        for p in sorted(self.captured):
            cx, cy = piece_centre(g, p, s, self.rim, self.rim)
            draw_capture_cross(c, cx, cy, r)
        c.restoreState()
        if self.window is not None:
            c.saveState()
            c.setStrokeColor(Color(0.6, 0.6, 0.6))
            c.setLineWidth(0.2 * mm)
            c.rect(0, 0, rw * mm, rh * mm, stroke=1, fill=0)
            c.restoreState()


class Swatch(Flowable):
    """A legend entry's picture: a piece or a board mark, ``size`` mm square."""

    def __init__(self, kind: Any, size: float = 5.0, piece: bool = True) -> None:
        super().__init__()
        self.kind, self.size, self.piece = kind, size, piece

    def wrap(self, _aw: float, _ah: float) -> tuple[float, float]:
        return self.size * mm, self.size * mm

    def draw(self) -> None:
        s = self.size
        if self.piece:
            draw_piece(self.canv, self.kind, s / 2, s / 2, s * 0.45, outline=True)
        else:
            draw_legend_swatch(self.canv, self.kind, s * 0.1, s * 0.1, s * 0.8)


def define_rule_forms(doc: Document, variant: Any, marks: BoardMarks) -> dict[str, float]:
    """Draw the two board forms the rule sheet uses (diagram size and starting-position size);
    returns their square sizes and rims.  Forms are drawn before any page so pages only refer
    to them."""
    c = doc.canvas
    g = variant.geometry
    body = doc.page.body()
    sizes: dict[str, float] = {}
    # the starting position gets up to 58% of the width (and a third of the height)
    room_w, room_h = min(body.w * 0.58, 120.0), min(body.h * 0.34, 120.0)
    gw, gh = g.extent
    start = 12.0
    while start > 2.0:
        w, h = board_extent(g, start, rim_for(start))
        if w <= room_w and h <= room_h:
            break
        start -= 0.25
    # Tafl diagrams show a few squares of the board; point-and-line games show the whole board,
    # about 56 mm across, so pieces and arrows stay readable
    cell = DIAGRAM_CELL if getattr(g, "kind", "grid") == "grid" else min(12.0, 56.0 / max(gw, gh))
    for name, s in ((START_FORM, start), (DIAGRAM_FORM, cell)):
        rim = rim_for(s)
        w, h = board_extent(g, s, rim)
        c.beginForm(name, 0, 0, w * mm, h * mm)
        draw_board(c, g, s, rim, marks)
        c.endForm()
        sizes[name] = s
        sizes[name + ":rim"] = rim
    return sizes


def rule_story(variant: Any, marks: BoardMarks, sizes: dict[str, float], width: float,
               balance: dict[str, Any] | None = None, tactile: bool = False) -> list[Flowable]:
    """Everything on the rule sheet, as flowables, in reading order (with a Rules Lab chart when
    ``balance`` holds a study's report)."""
    story: list[Flowable] = [_p(_("How to play {game}").format(game=variant.title), H1)]
    if variant.description:
        story.append(_p(variant.blurb))
    changed = variant.changed_options()
    schema = variant.schema
    if changed:
        parts = [_("{option}: {value} (preset: {preset})").format(
            option=schema[k].label, value=schema[k].value_label(v),
            preset=schema[k].value_label(variant.preset_options.get(k, v))) for k, v in changed.items()]
        story.append(_p(_("House rules in this set, changed from the preset: {changes}.").format(
            changes="; ".join(parts)), SMALL))
    story.append(Spacer(1, 2 * mm))
    story.append(_start_table(variant, marks, sizes, width))
    for sec in rule_sections(variant):
        block: list[Flowable] = [_p(sec.title, H2)]
        block += [Paragraph(escape(sentence), BULLET, bulletText="•") for sentence in sec.sentences]
        story.append(KeepTogether(block))
    diagrams = rule_diagrams(variant)
    if diagrams:
        # heading, note and the pictures move to the next page together rather than split
        story.append(KeepTogether([
            _p(_("The rules in pictures"), H2),
            _p(_("Each picture is part of the real board, checked against the rules above: the blue arrow is the "
                 "move, a red cross marks the piece it captures."), SMALL),
            Spacer(1, 1.5 * mm),
            _diagram_table(variant, diagrams, sizes, width)]))
    if tactile:
        from tafl_desktop.printing.tactile_notes import by_touch

        title, sentences = by_touch(variant, marks)
        story.append(KeepTogether([_p(title, H2)] + [Paragraph(escape(s), BULLET, bulletText="•")
                                                     for s in sentences]))
    if balance is not None:
        story.append(_balance_block(balance, width))
    if variant.sources:
        block = [_p(_("Sources"), H2)]
        block += [Paragraph(escape(s), ParagraphStyle("src", parent=SMALL, leftIndent=9, bulletIndent=1),
                            bulletText="•") for s in variant.sources_text]
        story.append(KeepTogether(block))
    if variant.notes.strip():
        story.append(KeepTogether([_p(_("Notes"), H2)]
                                  + [_p(" ".join(p.split()), SMALL) for p in variant.notes_text.split("\n\n")]))
    return story


def _start_table(variant: Any, marks: BoardMarks, sizes: dict[str, float], width: float) -> Table:
    rules = variant.make_rules()
    pieces = rules.pieces(rules.initial_position())
    face = piece_face(variant)
    pic = BoardPicture(variant, START_FORM, sizes[START_FORM], sizes[START_FORM + ":rim"], pieces, face=face)
    counts = piece_counts(variant)
    rows: list[list[Any]] = [[_p(_("Starting position"), CAPTION_TITLE), ""]]
    for kind, title, _label in piece_kinds(variant):
        if counts.get(kind):
            rows.append([Swatch(face(kind)), _p(_("{name}: {value}").format(name=title, value=counts[kind]), SMALL)])
    for kind, text in legend(marks):
        rows.append([Swatch(kind, piece=False), _p(text, SMALL)])
    key = Table(rows, colWidths=[7 * mm, None], hAlign="LEFT")
    key.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 8), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                             ("SPAN", (0, 0), (1, 0)),
                             ("LEFTPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                             ("TOPPADDING", (0, 0), (-1, -1), 1.5)]))
    pic_w = pic.wrap(0, 0)[0]
    t = Table([[pic, key]], colWidths=[pic_w + 4 * mm, width * mm - pic_w - 4 * mm], hAlign="LEFT")
    t.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 8), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                           ("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    return t


def _diagram_table(variant: Any, diagrams: list[RuleDiagram], sizes: dict[str, float], width: float) -> Table:
    s, rim = sizes[DIAGRAM_FORM], sizes[DIAGRAM_FORM + ":rim"]
    face = piece_face(variant)
    pics = [BoardPicture(variant, DIAGRAM_FORM, s, rim, d.pieces, d.window, d.moves, d.captured, face)
            for d in diagrams]
    widest = max(p.wrap(0, 0)[0] for p in pics) / mm
    ncols = max(1, min(4, int((width + 4) // (max(widest, 40.0) + 6))))
    colw = width / ncols
    # pictures sit on a common baseline and their captions start on one line
    rows: list[list[Any]] = []
    for i in range(0, len(pics), ncols):
        chunk = list(zip(pics[i:i + ncols], diagrams[i:i + ncols], strict=True))
        rows.append([pic for pic, _d in chunk] + [""] * (ncols - len(chunk)))
        rows.append([[_p(d.title, CAPTION_TITLE), _p(d.caption, SMALL)] for _pic, d in chunk]
                    + [""] * (ncols - len(chunk)))
    t = Table(rows, colWidths=[colw * mm] * ncols, hAlign="LEFT")
    style = [("FONT", (0, 0), (-1, -1), FONT, 8), ("LEFTPADDING", (0, 0), (-1, -1), 0),
             ("RIGHTPADDING", (0, 0), (-1, -1), 5), ("TOPPADDING", (0, 0), (-1, -1), 1)]
    for r in range(0, len(rows), 2):
        style += [("VALIGN", (0, r), (-1, r), "BOTTOM"), ("VALIGN", (0, r + 1), (-1, r + 1), "TOP"),
                  ("BOTTOMPADDING", (0, r), (-1, r), 1), ("BOTTOMPADDING", (0, r + 1), (-1, r + 1), 7)]
    t.setStyle(TableStyle(style))
    return t


def _balance_block(report: dict[str, Any], width: float) -> Flowable:
    """A Rules Lab study's chart with a caption saying what it measured."""
    import io

    from reportlab.platypus import Image

    from tafl_desktop.ai.levels import get_level
    from tafl_desktop.i18n import _, ngettext
    from tafl_desktop.lab.charts import chart_bytes

    data = chart_bytes(report, "png", title=" ")
    w = min(width, 130.0)
    picture = Image(io.BytesIO(data), width=w * mm, height=w * 0.64 * mm)
    levels = report["levels"]
    level = _(get_level(levels["attackers"]).label) if levels["attackers"] == levels["defenders"] else \
        _("{first} / {second}").format(first=_(get_level(levels["attackers"]).label),
                                       second=_(get_level(levels["defenders"]).label))
    games = sum(c["games"] for c in report["cells"])
    caption = ngettext("Balance at level {level}, {games} game: the computer played both sides with each rule shown, "
                       "from the start position with a few varied opening moves; the chart shows each side's share of "
                       "wins with its 95% interval.",
                       "Balance at level {level}, {games} games: the computer played both sides with each rule shown, "
                       "from the start position with a few varied opening moves; the chart shows each side's share of "
                       "wins with its 95% interval.", int(games)).format(level=level, games=games)
    return KeepTogether([_p(_("Balance"), H2), _p(caption, SMALL), Spacer(1, 1.5 * mm), picture])


def rule_pages(doc: Document, variant: Any, marks: BoardMarks, sizes: dict[str, float],
               balance: dict[str, Any] | None = None, tactile: bool = False) -> None:
    """Flow the rule story over as many pages as it needs."""
    body = doc.page.body()
    story = rule_story(variant, marks, sizes, body.w, balance, tactile)
    pages = 0
    while story:
        pages += 1
        if pages > 20:  # a block that never fits would otherwise loop for ever
            raise ValueError("a rule-sheet block does not fit on a page")
        with doc.sheet(_("rules"), variant.title) as c:
            frame = Frame(body.x * mm, body.y * mm, body.w * mm, body.h * mm, leftPadding=0, rightPadding=0,
                          topPadding=0, bottomPadding=0, showBoundary=0)
            fill_frame(frame, story, c)

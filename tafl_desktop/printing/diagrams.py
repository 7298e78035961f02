"""Capture and escape diagrams for the rule sheet, built on the real board and checked by the engine.

A diagram is not a picture someone drew once: it is a small position on the variant's own board
(throne, corners and camps where they really are) plus one move, and it is kept only if the rules
engine, with the toggles in force, makes exactly the capture (or escape) the caption describes.
So when a toggle changes, the diagrams change with it - a king that needs four attackers is shown
with four, and a throne that is not hostile gets no "captured against the throne" diagram.

Pure Python (no ReportLab), so the tests can check every diagram against the engine directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tafl_desktop.core.game import Side
from tafl_desktop.core.marks import N_pair
from tafl_desktop.core.side_words import in_sentence, sentence
from tafl_desktop.i18n import _, ngettext

Square = tuple[int, int]  # (file, rank), 0-based from the bottom-left


@dataclass(frozen=True)
class RuleDiagram:
    """A window of the real board, the pieces in it before ``move``, and what the move does."""

    title: str
    caption: str
    window: tuple[int, int, int, int] | None  # file0, rank0, columns, rows; None = the whole board
    pieces: dict[int, str]  # point index -> piece letter, before the move
    moves: tuple[tuple[int, ...], ...]  # each move as the points it visits
    mover: Side
    captured: frozenset[int]
    escape: bool = False


class DiagramBuilder:
    """Finds a clean spot on the board for each diagram and verifies it with the engine."""

    def __init__(self, variant: Any) -> None:
        self.variant = variant
        self.rules = variant.make_rules()
        self.g = variant.geometry
        self.opts = self.rules.opts
        g = self.g
        self.clean = True
        self.escape = {s for s in range(g.size) if self.rules.escape_mask >> s & 1}
        self.special = set(g.marked("throne")) | set(g.marked("corner")) | set(g.marked("escape"))
        if self.opts.get("camps"):
            self.special |= set(g.marked("camp"))
        self.throne = min(g.marked("throne")) if g.marked("throne") else None
        cx, cy = (g.width - 1) / 2, (g.height - 1) / 2
        # anchors ordered from the middle of the lower half outwards: clear of the throne area
        self.order = sorted(((f, r) for r in range(g.height) for f in range(g.width)),
                            key=lambda fr: (abs(fr[0] - cx) + abs(fr[1] - cy * 0.5), fr[1], fr[0]))

    # -- helpers -----------------------------------------------------------------------------
    def sq(self, f: int, r: int) -> int | None:
        return self.g.index(f, r) if self.g.on_board(f, r) else None

    def plain(self, f: int, r: int) -> bool:
        s = self.sq(f, r)
        return s is not None and s not in self.special

    def _window(self, squares: list[int]) -> tuple[int, int, int, int]:
        fr = [self.g.file_rank(s) for s in squares]
        f0 = max(0, min(f for f, _ in fr) - 1)
        r0 = max(0, min(r for _, r in fr) - 1)
        f1 = min(self.g.width - 1, max(f for f, _ in fr) + 1)
        r1 = min(self.g.height - 1, max(r for _, r in fr) + 1)
        return f0, r0, f1 - f0 + 1, r1 - r0 + 1

    def _king_home(self, window: tuple[int, int, int, int], pieces: dict[int, str]) -> int | None:
        """A square for a king who is not in the picture: outside the window, on an ordinary
        square that is no exit, and not next to any piece shown (so he takes no part)."""
        f0, r0, w, h = window
        near = {n for s in pieces for n in self.g.neighbours(s)} | set(pieces)
        best = None
        for f, r in reversed(self.order):
            s = self.sq(f, r)
            if s is None or s in self.special or s in self.escape or s in near:
                continue
            if f0 <= f < f0 + w and r0 <= r < r0 + h:
                continue
            score = (self.g.is_edge(s), -min(abs(f - f0 - w / 2), abs(r - r0 - h / 2)))
            if best is None or score < best[0]:
                best = (score, s)
        return best[1] if best else None

    def make(self, title: str, caption: str, pieces: dict[Square, str], move: tuple[Square, Square],
             mover: Side, captured: list[Square] | None = None, escape: bool = False,
             clean: bool | None = None) -> RuleDiagram | None:
        """Build a diagram if every square is on the board and the engine agrees with it."""
        sq: dict[int, str] = {}
        for (f, r), p in pieces.items():
            s = self.sq(f, r)
            if s is None:
                return None
            sq[s] = p
        a, b = self.sq(*move[0]), self.sq(*move[1])
        if a is None or b is None or a not in sq:
            return None
        caps = set()
        for fr in captured or []:
            s = self.sq(*fr)
            if s is None:
                return None
            caps.add(s)
        window = self._window(list(sq) + [b])
        f0, r0, w, h = window
        if self.clean if clean is None else clean:
            inside = {self.g.index(f, r) for f in range(f0, f0 + w) for r in range(r0, r0 + h)}
            if inside & self.special:
                return None
        shown = dict(sq)
        if "K" not in sq.values():
            home = self._king_home(window, sq)
            if home is None:
                return None
            sq[home] = "K"
        if not self._verify(sq, (a, b), mover, caps, escape):
            return None
        return RuleDiagram(title, caption, window, shown, ((a, b),), mover, frozenset(caps), escape)

    def _verify(self, pieces: dict[int, str], move: tuple[int, int], mover: Side, caps: set[int],
                escape: bool) -> bool:
        rules = self.rules
        g = self.g
        rows = []
        for r in range(g.height - 1, -1, -1):
            row, run = "", 0
            for f in range(g.width):
                p = pieces.get(g.index(f, r))
                if p is None:
                    run += 1
                    continue
                row += (str(run) if run else "") + p
                run = 0
            rows.append(row + (str(run) if run else ""))
        try:
            pos = rules.parse_position("/".join(rows), mover)
        except ValueError:
            return False
        if pos.result is not None or tuple(move) not in {tuple(m) for m in rules.legal_moves(pos)}:
            return False
        after, taken = rules.play(pos, tuple(move))
        if escape:
            return after.result is not None and after.result.reason == "king_escaped" and not taken
        return set(taken) == caps

    def first(self, candidates) -> RuleDiagram | None:
        for d in candidates:
            if d is not None:
                return d
        return None

    def find(self, factory) -> RuleDiagram | None:
        """The first diagram ``factory()`` yields, preferring a spot with no special squares in
        view (a cleaner picture) and settling for any spot the engine accepts."""
        for clean in (True, False):
            self.clean = clean
            d = self.first(factory())
            if d is not None:
                self.clean = True
                return d
        self.clean = True
        return None


# ------------------------------------------------------------------------------------- catalogue
def rule_diagrams(variant: Any) -> list[RuleDiagram]:
    """The diagrams for the rules in force of any family."""
    draw = _DIAGRAMS.get(variant.family)
    return draw(variant) if draw is not None else []


def tafl_diagrams(variant: Any) -> list[RuleDiagram]:
    """In reading order: soldier capture, king capture, hostile squares, shield wall, escape."""
    b = DiagramBuilder(variant)
    o = b.opts
    out: list[RuleDiagram | None] = []
    A = Side.ATTACKERS

    def lazy(fn):
        return lambda: (fn(f, r) for f, r in b.order)

    # custodial capture of a soldier: attacker moves down next to a defender held by another
    out.append(b.find(lazy(lambda f, r: b.make(
        _("Custodial capture"),
        _("A piece moved so that an enemy stands between it and a friend (in a row or column) captures that "
          "enemy."),
        {(f, r): "t", (f + 1, r): "T", (f + 2, r + 1): "t"}, ((f + 2, r + 1), (f + 2, r)), A, [(f + 1, r)]))))

    out += _king_diagrams(b)
    out += _hostile_diagrams(b)

    if o.get("shield_wall"):
        out.append(b.first(b.make(
            _("Shield wall"), _("A row of pieces on the edge, each faced by an enemy, is captured by bracketing "
                                "both ends."),
            {(f, 0): "t", (f + 1, 0): "T", (f + 2, 0): "T", (f + 1, 1): "t", (f + 2, 1): "t", (f + 3, 1): "t"},
            ((f + 3, 1), (f + 3, 0)), A, [(f + 1, 0), (f + 2, 0)], clean=False)
            for f in range(1, b.g.width - 4)))

    out.append(_escape_diagram(b))
    return [d for d in out if d is not None]


def _king_diagrams(b: DiagramBuilder) -> list[RuleDiagram | None]:
    o = b.opts
    A = Side.ATTACKERS
    mode = o["king_capture"]
    out: list[RuleDiagram | None] = []
    thr = b.throne

    def two_sides(title: str, caption: str) -> RuleDiagram | None:
        return b.find(lambda: (b.make(title, caption, {(f, r): "t", (f + 1, r): "K", (f + 2, r + 1): "t"},
                                      ((f + 2, r + 1), (f + 2, r)), A, [(f + 1, r)]) for f, r in b.order))

    def four_sides(title: str, caption: str) -> RuleDiagram | None:
        return b.find(lambda: (b.make(title, caption, {(f, r): "K", (f - 1, r): "t", (f + 1, r): "t",
                                                       (f, r + 1): "t", (f + 1, r - 1): "t"},
                                      ((f + 1, r - 1), (f, r - 1)), A, [(f, r)]) for f, r in b.order))

    def on_throne(caption: str) -> RuleDiagram | None:
        if thr is None:
            return None
        f, r = b.g.file_rank(thr)
        return b.make(_("King on the throne"), caption,
                      {(f, r): "K", (f - 1, r): "t", (f + 1, r): "t", (f, r + 1): "t", (f + 1, r - 1): "t"},
                      ((f + 1, r - 1), (f, r - 1)), A, [(f, r)], clean=False)

    def beside_throne(caption: str) -> RuleDiagram | None:
        if thr is None:
            return None
        tf, tr = b.g.file_rank(thr)
        f, r = tf, tr - 1  # king just below the throne; attackers on his other three sides
        return b.make(_("King beside the throne"), caption,
                      {(f, r): "K", (f - 1, r): "t", (f + 1, r): "t", (f + 1, r - 1): "t"},
                      ((f + 1, r - 1), (f, r - 1)), A, [(f, r)], clean=False)

    if mode == "custodial":
        out.append(two_sides(_("King captured"), _("The king is captured like a soldier: between two attackers.")))
    elif mode == "double_weak":
        out.append(two_sides(_("King off the throne"), _("Off the throne two attackers capture the king.")))
        out.append(on_throne(_("On the throne the king must be surrounded on all four sides.")))
    elif mode == "weak_near_throne":
        out.append(on_throne(_("On the throne the king must be surrounded on all four sides.")))
        out.append(beside_throne(_("Beside the throne: three attackers and the empty throne.")))
        tf, tr = b.g.file_rank(thr) if thr is not None else (-9, -9)
        out.append(b.find(lambda: (b.make(_("King elsewhere"), _("Away from the throne two attackers capture "
                                                                 "the king."),
                                          {(f, r): "t", (f + 1, r): "K", (f + 2, r + 1): "t"},
                                          ((f + 2, r + 1), (f + 2, r)), A, [(f + 1, r)])
                                   for f, r in b.order if abs(f + 1 - tf) + abs(r - tr) > 2)))
    else:
        out.append(four_sides(_("King captured"), _("The king is captured when attackers surround him on all "
                                                    "four sides.")))
        if thr is not None:
            out.append(beside_throne(_("Beside the throne, the empty throne counts as the fourth side.")))
    if o.get("king_edge_capture") and mode != "custodial":
        out.append(b.first(b.make(
            _("King on the edge"), _("On the edge three attackers capture the king (the edge counts as a side)."),
            {(f, 0): "K", (f - 1, 0): "t", (f + 1, 0): "t", (f + 1, 1): "t"}, ((f + 1, 1), (f, 1)), A, [(f, 0)],
            clean=False) for f in range(1, b.g.width - 1)))
    return out


def _hostile_diagrams(b: DiagramBuilder) -> list[RuleDiagram | None]:
    o = b.opts
    A, D = Side.ATTACKERS, Side.DEFENDERS
    out: list[RuleDiagram | None] = []
    g = b.g
    if b.throne is not None and o["throne_hostile"] != "never":
        tf, tr = g.file_rank(b.throne)
        out.append(b.make(
            _("Throne hostile to attackers"), _("The throne acts as a capturing partner against an attacker."),
            {(tf + 1, tr): "t", (tf + 2, tr + 1): "T"}, ((tf + 2, tr + 1), (tf + 2, tr)), D, [(tf + 1, tr)],
            clean=False))
        if o["throne_hostile"] in ("empty_all", "always"):
            empty = o["throne_hostile"] == "empty_all"
            out.append(b.make(
                _("Empty throne hostile to defenders") if empty else _("Throne hostile to defenders"),
                _("The empty throne also captures a defender.") if empty else
                _("The throne captures a defender even with the king on it."),
                {(tf + 1, tr): "T", (tf + 2, tr + 1): "t", **({} if empty else {(tf, tr): "K"})},
                ((tf + 2, tr + 1), (tf + 2, tr)), A, [(tf + 1, tr)], clean=False))
    corners = sorted(g.marked("corner"))
    if corners and o["corners_hostile"]:
        out.append(b.make(_("Corner hostile"), _("A corner square acts as a capturing partner."),
                          {(1, 0): "T", (2, 1): "t"}, ((2, 1), (2, 0)), A, [(1, 0)], clean=False))
    if o.get("camps") and o.get("camps_hostile", "none") != "none":
        out.append(_camp_diagram(b))
    if o.get("edge_hostile"):
        out.append(b.first(b.make(
            _("Hostile rim"), _("The rim captures: a piece on the edge is taken by one enemy on its inner side."),
            {(f, 0): "T", (f + 1, 1): "t"}, ((f + 1, 1), (f, 1)), A, [(f, 0)], clean=False)
            for f in range(1, g.width - 1) if b.plain(f, 0) and b.plain(f, 1)))
    return out


def _camp_diagram(b: DiagramBuilder) -> RuleDiagram | None:
    """A defender next to a camp square, captured by one attacker on the far side."""
    g = b.g
    camps = sorted(g.marked("camp"))
    for q in camps:
        qf, qr = g.file_rank(q)
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n, m = (qf + df, qr + dr), (qf + 2 * df, qr + 2 * dr)
            if not (b.plain(*n) and b.plain(*m)):
                continue
            for s in ((m[0] + dr, m[1] + df), (m[0] - dr, m[1] - df)):
                if not b.plain(*s):
                    continue
                d = b.make(_("Camp hostile"), _("An empty camp square acts as a capturing partner against a defender."),
                           {n: "T", s: "t"}, (s, m), Side.ATTACKERS, [n], clean=False)
                if d is not None:
                    return d
    return None


def _escape_diagram(b: DiagramBuilder) -> RuleDiagram | None:
    """The king reaching an exit; distance two where the king may move that far, else one."""
    g = b.g
    mode = b.opts["escape"]
    targets = sorted(b.escape, key=lambda s: (g.file_rank(s)[1], g.file_rank(s)[0]))
    if mode == "edge":
        targets = [s for s in targets if s not in g.marked("corner")] or targets
        mid = g.width // 2
        targets.sort(key=lambda s: (g.file_rank(s)[1] != 0, abs(g.file_rank(s)[0] - (mid - 1))))
    sentence = b.variant.schema["escape"].sentence(mode)
    for t in targets:
        tf, tr = g.file_rank(t)
        for dist in (2, 1):
            for df, dr in ((0, 1), (1, 0), (-1, 0), (0, -1)):
                src = (tf + df * dist, tr + dr * dist)
                d = b.make(_("Escape"), sentence, {src: "K"}, (src, (tf, tr)), Side.DEFENDERS, escape=True, clean=False)
                if d is not None:
                    return d
    return None


# ------------------------------------------------------------------------------------ Fox games
def hunt_diagrams(variant: Any) -> list[RuleDiagram]:
    """Whole-board diagrams for a Fox game: how each side moves (every legal move of one piece
    from the start) and, if the hunters capture, a jump taken from the starting formation."""
    rules = variant.make_rules()
    g = variant.geometry
    many, hunters = variant.side_names
    start = rules.initial_position()
    pieces = rules.pieces(start)
    out: list[RuleDiagram] = []
    for side, who in ((Side(0), many), (Side(1), hunters)):
        pos = rules.parse_position(rules.position_text(start), side)
        moves = [m for m in rules.legal_moves(pos) if len(m) == 2]
        if not moves:
            continue
        # the piece with the most moves shows the movement rule best
        by_piece: dict[int, list[tuple[int, ...]]] = {}
        for m in moves:
            by_piece.setdefault(m[0], []).append(tuple(m))
        origin = max(sorted(by_piece), key=lambda p: len(by_piece[p]))
        title = sentence(ngettext("How {side} moves", "How {side} move", variant.side_number(side)).format(
            side=variant.side_subject(side)))
        out.append(RuleDiagram(title,
                               _("Every move open to this piece at the start ({side} to move).").format(
                                   side=in_sentence(who)), None,
                               dict(pieces), tuple(by_piece[origin]), side, frozenset()))
    if rules.opts.get("captures", True):
        jump = _hunt_jump(rules, g, start, pieces)
        if jump is not None:
            out.append(jump)
    return out


def _hunt_jump(rules: Any, g: Any, start: Any, pieces: dict[int, str]) -> RuleDiagram | None:
    """A hunter jumping a piece of the flock at the front of its starting formation."""
    flock = {p for p, k in pieces.items() if k == "f"}
    hunters = sorted(p for p, k in pieces.items() if k == "h")
    candidates = []
    for p in range(g.size):
        if p in flock:
            continue
        for over, land in rules.jumps[p]:
            if over in flock:
                candidates.append((land in flock, p, over, land))
    for _needs_removal, p, over, land in sorted(candidates):
        placed = {q: "f" for q in flock if q != land}
        others = [h for h in hunters if h != p][: max(0, len(hunters) - 1)]
        for h in others:
            placed[h] = "h"
        placed[p] = "h"
        if len([q for q in placed if placed[q] == "h"]) != len(hunters):
            continue
        text = "hunters=" + ",".join(g.name(q) for q in sorted(placed) if placed[q] == "h") + \
            " flock=" + ",".join(g.name(q) for q in sorted(placed) if placed[q] == "f")
        try:
            pos = rules.parse_position(text, Side(1))
        except ValueError:
            continue
        if pos.result is not None or (p, land) not in {tuple(m) for m in rules.legal_moves(pos)}:
            continue
        _after, taken = rules.play(pos, (p, land))
        if set(taken) != {over}:
            continue
        text = rules.variant.pair_text(N_pair("{A_hunter} captures by a short jump along a line over an adjacent "
                                              "piece of the {many} onto the empty point beyond; the jumped piece is "
                                              "removed."))
        return RuleDiagram(_("Capture"), text, None, placed, ((p, land),),
                           Side(1), frozenset({over}))
    return None


# -------------------------------------------------------------------------------------- Dablot
def _dablot_text(g: Any, pieces: dict[int, str]) -> str:
    south = [f"{k}{g.name(p)}" for p, k in sorted(pieces.items()) if k.islower()]
    north = [f"{k.lower()}{g.name(p)}" for p, k in sorted(pieces.items()) if k.isupper()]
    return f"south={','.join(south)} north={','.join(north)}"


def dablot_diagrams(variant: Any) -> list[RuleDiagram]:
    """How a piece moves (every step open to one piece at the start), a capture by a soldier,
    and the rank rule (the leader's son taking a soldier, which a soldier could not do to him);
    each capture found by moving one enemy piece forward and checked by the engine."""
    rules = variant.make_rules()
    g = variant.geometry
    start = rules.initial_position()
    pieces = rules.pieces(start)
    south, north = variant.side_names
    out: list[RuleDiagram] = []
    pos = rules.parse_position(_dablot_text(g, pieces), Side(0))
    steps: dict[int, list[tuple[int, ...]]] = {}
    for m in rules.legal_moves(pos):
        if len(m) == 2 and m[1] in g.neighbours(m[0]):
            steps.setdefault(m[0], []).append(tuple(m))
    if steps:
        origin = max(sorted(steps), key=lambda p: len(steps[p]))
        caption = _("A piece steps to a neighbouring empty point along any line: every step open to this piece at "
                    "the start ({south} to move).").format(south=in_sentence(south))
        out.append(RuleDiagram(_("Moving"), caption, None, dict(pieces), tuple(steps[origin]), Side(0), frozenset()))
    soldier = _dablot_capture(rules, g, pieces, Side(0), "s", "S")
    if soldier is not None:
        caption = _("A piece captures by jumping over an adjacent enemy of equal or lower rank onto the empty point "
                    "straight beyond; the enemy is removed.")
        out.append(RuleDiagram(_("Capture"), caption, None, *soldier))
    son = _dablot_capture(rules, g, pieces, Side(1), "P", "s")
    if son is not None:
        if variant.options.get("ambush"):  # lower ranks may gang up: the plain rank rule is no longer the whole truth
            caption = _("The leader's son outranks a soldier and may take him; a single soldier cannot take the "
                        "son, but with Ambush lower-ranked pieces that jump one enemy in the same turn take it "
                        "when their ranks add up to its own ({north} to move).").format(north=in_sentence(north))
        else:
            caption = _("The leader's son outranks a soldier and may take him; a soldier can never take the son, "
                        "and only a leader takes a leader ({north} to move).").format(north=in_sentence(north))
        out.append(RuleDiagram(_("Rank"), caption, None, *son))
    return out


def _dablot_capture(rules: Any, g: Any, pieces: dict[int, str], mover: Side, hunter: str, victim: str):
    """Move one ``victim`` piece forward next to a ``hunter`` so that the hunter can jump it;
    return (pieces, moves, mover, captured) for the first spot the engine accepts."""
    empty = [p for p in range(g.size) if p not in pieces]
    victims = sorted(p for p, k in pieces.items() if k == victim)
    hunters = {p for p, k in pieces.items() if k == hunter}
    for spot in sorted(empty, key=lambda p: (abs(g.coords[p][1] - sum(c[1] for c in g.coords) / g.size), p)):
        if not any(h in g.neighbours(spot) for h in hunters):
            continue
        for v in victims:
            trial = dict(pieces)
            del trial[v]
            trial[spot] = victim
            try:
                pos = rules.parse_position(_dablot_text(g, trial), mover)
            except ValueError:
                continue
            if pos.result is not None:
                continue
            for m in rules.legal_moves(pos):
                if len(m) == 2 and m[0] in hunters and m[1] not in g.neighbours(m[0]):
                    _after, taken = rules.play(pos, tuple(m))
                    if set(taken) == {spot}:
                        return trial, (tuple(m),), mover, frozenset({spot})
    return None


#: The rule diagrams of each family (keyed by ``Family.name``).
_DIAGRAMS: dict[str, Callable[[Any], list[RuleDiagram]]] = {
    "tafl": tafl_diagrams, "hunt": hunt_diagrams, "dablot": dablot_diagrams}

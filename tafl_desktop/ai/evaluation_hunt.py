"""Fox-game knowledge for the generic search: Fox and Geese, Fox and Hounds, Asalto, Halatafl.

The search (``search.py``) only speaks the family protocol plus the four hooks of
:class:`HuntEvaluator` (``evaluate``, ``quick_outcome``, ``tactics``, ``order_key``), with the
contracts described in ``evaluation_tafl``.  Side 0 is the flock (geese, hounds, rebels, sheep),
side 1 the hunters (fox, foxes, officers), as in ``core/hunt.py``.

What the evaluation knows (flock's view, 100 ~ one goose):

* material: each goose, growing dearer as the flock nears the hunters' winning threshold
  (``hunter_win_below``); each hunter, for Asalto where officers are huffed;
* the trap: the hunters' free steps and the size of the region they can walk to through empty
  points (the geese win by shrinking it to nothing);
* formation: geese that a hunter could jump from somewhere in his region (holes in the wall),
  and geese he can jump right now (decisive for the side to move, because the quiescence search
  follows only forcing lines and would not see an ordinary capture at the horizon);
* progress: geese advancing as a front (forward is up) but, when they may not step back, not
  past the hunters (a goose above them can never again close the way below), the pen filled
  in Asalto and Halatafl,
  the hunter's walking distance to the flock's home row where breaking through wins;
* closing in: where the hunters have diagonals the flock lacks, a wall cannot simply advance
  (13 geese cannot back it against diagonal jumps), so the region weighs more and every goose
  should stand near it (the reserve term), to close whatever pocket the fox walks into, and a
  goose he could jump later (a hole) costs only a quarter, as almost every step towards him is one;
* refuges: where the flock may never step back, two neighbouring points of the hunters' region
  that no goose can ever reach again are a place he can shuttle in for ever.
* the centre (a game's own term, ``hunter_centre``): each step a hunter stands from the board's
  centre.  With 13 geese, who share the fox's lines and may step back, Medium's fox lost to
  Easy's geese only in an arm of the cross, whose door one goose shuts (issue 45); with 15 geese,
  who may not step back, the term gave the fox of Medium and of Hard more draws (65 % for each
  level against the one below, from 62.5 % and 57.5 %).
* the pen (a game's own term, ``hunter_pen``): each step a hunter stands from the pen the flock
  fills.  Asalto's rebels offer a man to draw an officer out of the fortress (huffing makes the
  capture compulsory in effect) and fill it behind him (issue 45).

The defaults are :class:`HuntWeights`'; a game's own values for some terms are data, the
``[variants.<id>]`` sections of ``resources/ai/hunt_evaluation.toml``.  Those are the stronger
levels' (``Level.game_terms``): Beginner and Easy play with the defaults (:meth:`HuntEvaluator.plain`).

Besides the four hooks it offers ``noisy_moves`` (the hunters' captures, which the quiescence
search plays out at the horizon) and says how the levels play here: ``uncapped_depth`` for the
one-way flocks and against a fox with diagonals of his own, ``side_drift_scales`` for both.

Speed: the board is re-laid on a small integer lattice (a bit per lattice point, row by row) once,
so that "every goose with an empty point behind it in direction d" or "the fox's region grows by
a step" are a few shifts and masks per direction, and the position's bitboards are moved onto the
lattice with one table lookup per byte.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from tafl_desktop.ai.evaluation_tafl import FORCED, QUIET, TERMINAL, WIN_NOW, read_weights_file, variant_id
from tafl_desktop.core.game import Move, Outcome
from tafl_desktop.core.quoting import quote

if TYPE_CHECKING:
    from tafl_desktop.core.hunt import HuntPosition, HuntRules

FLOCK, HUNTERS = 0, 1


@dataclass
class HuntWeights:
    """Evaluation weights, flock's view.  Hand-set, then adjusted on the ladder (see the module doc)."""

    goose: int = 100            # each of the many
    danger1: int = 200          # the hunters need one more capture to win
    danger2: int = 80           # ... two more
    danger3: int = 25           # ... three more
    hunter: int = 600           # each hunter (Asalto's huffing removes officers)
    hunter_step: int = 14       # each free step of a hunter
    hunter_jump: int = 10       # each jump a hunter has (besides the capture terms)
    stuck_hunter: int = 150     # a hunter without a move while another can still move
    region: int = 10            # each point of the hunters' region (reachable through empty points)
    pocket: int = 30            # each point the hunters' region is smaller than pocket_size
    pocket_size: int = 16
    hole: int = 12              # each goose a hunter could jump from a point of his region...
    hole2: int = 25             # ... two steps away
    hole1: int = 45             # ... one step away
    fork: int = 15              # each region point from which a hunter would threaten two geese
    near_fork: int = 35         # ... one step from a hunter
    cohesion: int = 0           # each pair of neighbouring geese (a flock that sticks together)
    reserve: int = 0            # each step a goose stands behind the wall around the hunters' region
    behind: int = 0             # each region point behind the flock's middle row
    advance: int = 4            # each row a goose has advanced (forward = up)
    hang_one: int = 30          # flock to move, one goose en prise
    hang_more: int = 75         # flock to move, two or more en prise: one of them falls
    capture_now: int = 85       # hunters to move: each goose of their best capture
    pen: int = 40               # each pen point held by the flock (fill-the-pen variants)
    pen_near: int = 60          # each pen point held beyond six (the last ones are the hard ones)
    pen_hunter: int = 30        # each hunter standing in the pen (he blocks it)
    open_road: int = 500        # breakthrough variants: a hunter can walk to the home row
    road_step: int = 25         # ... minus this for every step of that walk
    tempo: int = 10             # the side to move's bonus
    # A flock that may not step back (15/17 geese, Asalto, Halatafl, Fox and Hounds) can never
    # win back a point the hunters reach: each is weighed more, and advancing less, there.
    # (17 geese, Easy against a random fox: 2 of 10 trapped with region 10 / advance 4, 7 of 10
    # with 40 / 2.)
    one_way_region: int = 40
    one_way_advance: int = 2
    # ... and a goose that has gone past the hunters' lowest row has left the fight below them
    # for good: each row it stands above them costs this.  (17 geese against a random fox, 40
    # games: Easy's search without its errors trapped him in 27 without the term, 35 with it;
    # Easy itself in 24 and 30, with the narrower drift below.)
    ahead: int = 30
    # ... and so does each row a goose stands above the lowest row the hunters can *walk to*: a
    # gap the flock leaves behind lets him into a pocket it can never enter again (17 geese: the
    # fox walked c5-b4-b3 after b3-b4-b5, sat in a3/b3, and the geese ran out of steps).  17 geese
    # against a random fox, 120 games: Easy 72 -> 91 trapped, Medium 80 -> 92 (10: 93 and 90;
    # 20: 88 and 94); 15 geese, Fox and Hounds, Halatafl and Asalto
    # unchanged at 10 and 20 (116-120 of 120 each).
    ahead_reach: int = 15
    # Where the hunters move along diagonals the flock may not use (the diagonals board, where
    # the geese keep to the straight lines), a straight wall leaves him the diagonals through its
    # gaps, and 13 geese cannot back a moving wall: they win by closing in around his region
    # from all sides, every goose near it.  Region and reserve weights for that board (13 geese,
    # Easy's search without its errors against a random fox, 20 games: 0 trapped with 10 / 0,
    # 20 with 40 / 5; region 20 / 30 with reserve 5: 15 and 19).
    hunter_diagonals_region: int = 40
    hunter_diagonals_reserve: int = 5
    # ... and there nearly every step towards him leaves a goose he could jump from somewhere in
    # his region: the hole terms, in full, held the flock back from closing in, and the net
    # closed slowly or not at all.  Percent of hole, hole2 and hole1 that applies on that board.
    # (Easy against a random fox, 120 games a row, trapped within 300 plies, mean game length:
    # in full 116 and 111 (168 and 184 plies); a half 120 and 118 (122, 120); a quarter 118,
    # 119 (the one game lost on captures) and 120 (102, 102, 103); none 119 (104).  Medium at a
    # quarter: 119 (124).  Medium geese against a Medium fox, 20 games: in full 0 trapped, at a
    # quarter 1, the rest drawn at 300 plies, none lost.)
    hunter_diagonals_holes: int = 25
    # A one-way flock that must trap the hunters (no pen to fill) loses for good once they can
    # walk to two neighbouring points no goose can ever step onto again: a hunter there always
    # has a step, and the flock runs out of moves.  Each hunter region holding such a refuge
    # costs this (until the flock walls it off).
    refuge: int = 300
    # Each step a hunter stands from the board's centre (along his own lines): off the centre
    # the fox has fewer lines out, and an arm of the cross is a pocket whose door one goose
    # closes.  0 = off (a game whose section in the weights file sets it; see ``centre``).
    hunter_centre: int = 0
    # Each step a hunter stands from the pen where the flock wins by filling it (Asalto's
    # fortress, Halatafl's): a rebel offered to an officer draws him out (huffing makes the
    # capture compulsory in effect) and the rebels fill the fortress behind him.  0 = off (a
    # game whose section in the weights file sets it).
    hunter_pen: int = 0

    def to_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HuntWeights:
        names = {f.name for f in fields(cls)}
        return cls(**{k: int(v) for k, v in data.items() if k in names})


#: A game's own values for some terms, as data: ``[variants.<id>]`` sections over the defaults above.
WEIGHTS_FILE = "ai/hunt_evaluation.toml"


def load_variant_weights(path: str | os.PathLike[str], variant: str | None) -> dict[str, int]:
    """The ``[variants.<variant>]`` section of a hunt weights file (empty when it has none),
    checked: known terms only, whole numbers.  ValueError in one line otherwise."""
    from pathlib import Path

    path = Path(path)
    data = read_weights_file(path, "hunt evaluation weights")
    sections = data.get("variants", {})
    if set(data) - {"variants"} or not isinstance(sections, dict) or \
            not all(isinstance(t, dict) for t in sections.values()):
        raise ValueError(f"{path.name}: only [variants.<id>] tables of terms belong here")
    names = {f.name for f in fields(HuntWeights)}
    checked: dict[str, dict[str, int]] = {}
    for vid, table in sections.items():
        for key, value in table.items():
            if key not in names:
                raise ValueError(f"{path.name} [variants.{vid}]: {quote(key)} is not a term of the hunt evaluation")
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 1_000_000:
                raise ValueError(f"{path.name} [variants.{vid}]: the weight {key} must be a whole number "
                                 "of at most a million")
        checked[vid] = dict(table)
    return checked.get(variant or "", {})


@lru_cache(maxsize=32)
def _file_section(variant: str | None) -> dict[str, int]:
    from tafl_desktop.core.paths import resources_dir

    return load_variant_weights(resources_dir() / WEIGHTS_FILE, variant)


def variant_weights(variant: str | None) -> HuntWeights:
    """The weights a preset plays with (a fresh copy): the defaults, with its section of
    :data:`WEIGHTS_FILE` over them (the file is read once per variant)."""
    return HuntWeights(**_file_section(variant))


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class HuntEvaluator:
    """Evaluation and tactical hooks for one compiled :class:`~tafl_desktop.core.hunt.HuntRules`."""

    def __init__(self, rules: HuntRules, weights: HuntWeights | None = None) -> None:
        self.rules = rules
        self.w = weights or variant_weights(variant_id(rules))
        r = rules
        g = r.geometry
        o = r.opts
        N = r.N
        self.N = N
        self.full = (1 << N) - 1
        xs = [c[0] for c in g.coords]
        ys = [c[1] for c in g.coords]
        x0, y0 = min(xs), min(ys)
        gw = max(xs) - x0 + 1
        self.gw = gw
        lattice = [(c[1] - y0) * gw + (c[0] - x0) for c in g.coords]
        gbit = [1 << i for i in lattice]
        self.gbit = gbit
        self.gall = sum(gbit)
        # index bitboard -> lattice bitboard, a table per byte
        self.nbytes = (N + 7) // 8
        self.tables = []
        for k in range(self.nbytes):
            t = []
            for v in range(256):
                m = 0
                for j in range(8):
                    p = 8 * k + j
                    if v >> j & 1 and p < N:
                        m |= gbit[p]
                t.append(m)
            self.tables.append(t)
        # (shift, mask of points that may step/jump that way) per lattice direction
        def shifts(pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
            masks: dict[tuple[int, int], int] = {}
            for p, q in pairs:
                d = (g.coords[q][0] - g.coords[p][0], g.coords[q][1] - g.coords[p][1])
                masks[d] = masks.get(d, 0) | gbit[p]
            return [(d[1] * gw + d[0], m) for d, m in sorted(masks.items())]

        self.hsteps = shifts((p, q) for p in range(N) for q in r.steps[HUNTERS][p])
        self.hjumps = shifts((p, over) for p in range(N) for over, _land in r.jumps[p])
        self.fsteps = shifts((p, q) for p in range(N) for q in r.steps[FLOCK][p])
        # each line once (positive shifts), for counting neighbouring geese
        self.half_steps = [(sh, m) for sh, m in self.hsteps if sh > 0]
        # index-space tables for the few per-hunter loops
        self.hstep_mask = [sum(1 << q for q in r.steps[HUNTERS][p]) for p in range(N)]
        self.jumps = r.jumps
        one_way = not o["flock_backwards"]
        self.one_way = one_way
        # Diagonals the hunters step along and the flock may not (the 'hunters' diagonals), each
        # line counted once whichever way it is walked.
        diagonals = [{(abs(dx), dy if dx > 0 else -dy) for dx, dy in self._directions(g.coords, r.steps[side])
                      if dx and dy} for side in (FLOCK, HUNTERS)]
        hunter_diagonals = bool(diagonals[HUNTERS] - diagonals[FLOCK])
        self.hunter_diagonals = hunter_diagonals
        #: How much of a weak level's error margin (``Level.margin``, ``blunder_margin``) applies
        #: here: now to the hunters only (the flock's is below); the figures that set it are the
        #: flock's, from before it lost its drift.  A one-way flock's every step is for good, and
        #: a quiet step that loses the game many moves later scores within a goose of the best
        #: one; drifting a full goose's worth, Easy's geese trapped a random fox in 19 of 40
        #: games with 17 geese, a quarter of it 30.
        #: Against a fox with diagonals of his own, the quarter also holds the net together:
        #: Easy trapped a random fox in 71 of 80 games with half its margins, 75 with a quarter.
        self.drift_scale = 0.25 if one_way or hunter_diagonals else 1.0
        #: ... and per side: none of it applies to the flock.  Where the geese may not step
        #: back, even a margin of a sixteenth of a goose (Medium's) let them drift into lost
        #: games, as near-equal quiet steps there differ by the whole game many moves later;
        #: elsewhere a drifting flock is slow to close the net.  Against a random fox: 17 geese,
        #: Medium uncapped (below) trapped him in 213 of 240 games with its drift and 119 of 120
        #: without, Easy in 97 and 118 of 120; the diagonals board, Easy, 80 games: 75 and 79;
        #: 13 geese, Easy, 160 games: 155 and 160 within 300 plies.  The hunters' errors cost no
        #: more than in other games: they keep their drift (a quarter of it in the games above).
        self.side_drift_scales = (0.0, self.drift_scale)
        #: Whether a level's node budget alone bounds its search (``Level.depth`` does not apply).
        #: A one-way flock wins or loses on plans many moves long (whether it still has a spare
        #: step when the trap needs one), and a fox has a handful of moves, so the same budget
        #: reaches much deeper than the caps set for Tafl.  17 geese against a random fox, 120
        #: games without the flock's drift: Easy (3k nodes) trapped him in 97 capped at depth 3,
        #: 118 uncapped; Medium (20k) in 97 capped at depth 4, 119 uncapped.  (On the diagonals
        #: board, where the geese may step back, Easy trapped him sooner uncapped, in 138 plies
        #: on average against 168, but not more often: 206 and 204 of 210 games.)  On that board
        #: the levels search uncapped too: against a fox with diagonals of his own the net
        #: closes over many moves, and capped at depth 4 Medium drew 16 of 20 games at the
        #: 300-ply cap against Easy (4-16-0, 60 %); uncapped, 6-14-0 (65 %), its geese 5-5-0
        #: and its fox 1-9-0 (one run each, benchmarks/results/README.md).
        self.uncapped_depth = one_way or hunter_diagonals
        #: The sides whose moves the selective levels search full width (no late moves searched
        #: a ply shallower, see ``Level.selective``): the hunters', who have a handful of moves,
        #: so that reducing all but the first few hid the defences that hold the flock off.
        #: Fox and Geese 13, Expert's fox against Hard's geese, the same six games (issue 45,
        #: benchmarks/results/README.md): trapped in a median 99 plies with the reductions, 155
        #: without (Hard's fox 116).
        self.full_width_sides: tuple[int, ...] = (HUNTERS,)
        self.region_weight = (self.w.one_way_region if one_way
                              else self.w.hunter_diagonals_region if hunter_diagonals else self.w.region)
        self.advance_weight = self.w.one_way_advance if one_way else self.w.advance
        self.reserve_weight = self.w.hunter_diagonals_reserve if hunter_diagonals else self.w.reserve
        holes = self.w.hunter_diagonals_holes if hunter_diagonals else 100
        #: (hole1, hole2, hole): geese he could jump from one step, two steps, anywhere in his region
        self.hole_weights = tuple(round(x * holes / 100) for x in (self.w.hole1, self.w.hole2, self.w.hole))
        # rows (forward = up) on the lattice, for the advance term
        self.rows = []
        for y in sorted(set(ys)):
            self.rows.append((y - y0, sum(gbit[p] for p in range(N) if ys[p] == y)))
        # lattice points on rows below row k (k counted from the lowest row), for the 'behind' term
        self.below = [sum(m for y, m in self.rows if y < k) for k in range(len(self.rows) + 1)]
        self.captures = bool(o["captures"])
        self.threshold = int(o["hunter_win_below"]) if self.captures else 0
        self.fill_pen = bool(o["fill_pen"]) and bool(r.pen_mask)
        self.refuge_weight = self.w.refuge if one_way and not self.fill_pen else 0
        self.pen_mask = r.pen_mask
        self.pen_size = bin(r.pen_mask).count("1")
        self.breakthrough = bool(o["breakthrough"]) and bool(r.home_mask)
        self.home_mask = r.home_mask
        self.ghome = self._grid(r.home_mask)
        self.captureless = int(o.get("captureless_draw") or 0)
        #: Steps (along the hunters' lines, through any point) from each point to the board's centre
        self.centre = self._centre_distance(r.steps[HUNTERS], N)
        #: Steps (along the hunters' lines, through any point) from each point to the pen
        self.pen_distance = self._walk(r.steps[HUNTERS], N, [p for p in range(N) if r.pen_mask >> p & 1])
        self.multi = o["multi_jump"] != "single"
        self.nhunters0 = r.initial_position().hunters.bit_count()
        # a step from a to b is a step; anything else is a jump (for ordering)
        self.step_pairs = {(p, q) for p in range(N) for q in r.adjacent[p]}

    @classmethod
    def plain(cls, rules: HuntRules) -> HuntEvaluator:
        """The evaluator with the default weights, without the game's own section of the weights
        file (the weak levels': see ``Level.game_terms``)."""
        return cls(rules, HuntWeights())

    # ------------------------------------------------------------------------------ helpers
    @staticmethod
    def _directions(coords: Sequence[tuple[int, int]], steps: Sequence[Iterable[int]]) -> set[tuple[int, int]]:
        """The (dx, dy) of every step in a side's step table."""
        return {(coords[q][0] - coords[p][0], coords[q][1] - coords[p][1])
                for p, targets in enumerate(steps) for q in targets}

    @staticmethod
    def _walk(steps: Sequence[Iterable[int]], n: int, starts: Iterable[int]) -> list[int]:
        """Each point's steps to the nearest of ``starts`` along ``steps`` over an empty board (-1:
        out of reach, or no start)."""
        dist = [-1] * n
        layer = list(starts)
        for p in layer:
            dist[p] = 0
        d = 0
        while layer:
            d += 1
            nxt = []
            for p in layer:
                for q in steps[p]:
                    if dist[q] < 0:
                        dist[q] = d
                        nxt.append(q)
            layer = nxt
        return dist

    @classmethod
    def _centre_distance(cls, steps: Sequence[Iterable[int]], n: int) -> list[int]:
        """Each point's steps to the nearest centre point (the points whose farthest point is
        nearest: the cross's d4), walking the hunters' lines over an empty board."""
        ecc = [max(cls._walk(steps, n, [p])) for p in range(n)]
        best = min(ecc)
        return cls._walk(steps, n, (p for p in range(n) if ecc[p] == best))

    def _grid(self, x: int) -> int:
        """The lattice bitboard of an index bitboard."""
        t = self.tables
        m = 0
        k = 0
        while x:
            m |= t[k][x & 255]
            x >>= 8
            k += 1
        return m

    def region(self, H: int, E: int) -> tuple[int, int, int]:
        """Lattice points the hunters on ``H`` can walk to through the empty points ``E``: those
        within one step, within two steps, and all of them (``H`` included in each)."""
        R = H
        steps = self.hsteps
        layers: list[int] = []
        while True:
            grow = R
            for s, m in steps:
                x = R & m
                grow |= (x << s) if s > 0 else (x >> -s)
            grow = R | (grow & E)
            if grow == R:
                while len(layers) < 2:
                    layers.append(R)
                return layers[0], layers[1], R
            R = grow
            if len(layers) < 2:
                layers.append(R)

    def reserve_distance(self, R: int, F: int) -> int:
        """Sum over the geese of their steps (along any line) from the hunters' region, less one:
        the wall that borders the region counts 0, a goose one line behind it 1, and so on.  The
        reserves the flock needs to close a gap should be near the wall, not left behind."""
        seen = R
        layer = R
        total = 0
        k = 0
        left = F
        steps = self.hsteps
        while left:
            grow = 0
            for s, m in steps:
                x = layer & m
                grow |= (x << s) if s > 0 else (x >> -s)
            layer = grow & self.gall & ~seen
            if not layer:
                break
            seen |= layer
            hit = layer & left
            if hit:
                total += k * hit.bit_count()
                left &= ~hit
            k += 1
        return total

    def flock_reach(self, F: int) -> int:
        """Lattice points some goose of ``F`` could still step onto, one step after another, if
        nothing stood in its way: for a flock that may not step back, everything else is lost to it."""
        reach = F
        steps = self.fsteps
        gall = self.gall
        while True:
            grow = reach
            for s, m in steps:
                x = reach & m
                grow |= (x << s) if s > 0 else (x >> -s)
            grow &= gall
            if grow == reach:
                return reach
            reach = grow

    def has_refuge(self, R: int, F: int) -> bool:
        """Does the hunters' region ``R`` hold two neighbouring points no goose can reach again?"""
        dead = R & ~self.flock_reach(F)
        if not dead:
            return False
        for s, m in self.hsteps:
            if s > 0:
                x = dead & m
                if (x << s) & dead:
                    return True
        return False

    def rows_above(self, F: int, X: int) -> int:
        """Sum over the geese ``F`` of the rows each stands above the lowest row holding ``X``."""
        low = -1
        total = 0
        for y, m in self.rows:
            if low < 0:
                if X & m:
                    low = y
            elif F & m:
                total += (y - low) * (F & m).bit_count()
        return total

    def road(self, H: int, E: int) -> int:
        """Steps the hunters need to walk onto an empty home point (-1: no road)."""
        R = H
        home = self.ghome & E
        steps = self.hsteps
        d = 0
        while True:
            d += 1
            grow = R
            for s, m in steps:
                x = R & m
                grow |= (x << s) if s > 0 else (x >> -s)
            grow = R | (grow & E)
            if grow & home:
                return d
            if grow == R:
                return -1
            R = grow

    def threats(self, F: int, H: int, E: int, R: int) -> tuple[int, int, int, int]:
        """Jump threats on the lattice: (geese a hunter can jump now, geese he could jump from a
        point of his region, region points from which he would threaten two geese at once, such
        fork points one step from a hunter)."""
        now = latent = once = twice = 0
        for s, m in self.hjumps:
            if s > 0:
                front = m & ((F & (E >> s)) >> s)
                now |= (front & H) << s
                latent |= (front & R) << s
            else:
                front = m & ((F & (E << -s)) << -s)
                now |= (front & H) >> -s
                latent |= (front & R) >> -s
            twice |= once & front
            once |= front
        free = R & ~H
        forks = twice & free
        near = 0
        if forks:
            for s, m in self.hsteps:
                x = H & m
                near |= (x << s) if s > 0 else (x >> -s)
            near &= forks
        return now, latent, forks.bit_count(), near.bit_count()

    def hunter_moves(self, flock: int, hunters: int) -> tuple[int, int, int]:
        """(free steps, available jumps, hunters with no move at all) in index space."""
        empty = self.full & ~(flock | hunters)
        steps = jumps = stuck = 0
        for h in _bits(hunters):
            st = (self.hstep_mask[h] & empty).bit_count()
            jp = 0
            if self.captures:
                for over, land in self.jumps[h]:
                    if flock >> over & 1 and empty >> land & 1:
                        jp += 1
            steps += st
            jumps += jp
            if not st and not jp:
                stuck += 1
        return steps, jumps, stuck

    # ------------------------------------------------------------------------------ hooks
    def quick_outcome(self, pos: HuntPosition) -> Outcome | None:
        """What is decided without generating moves: the last move's result, the captureless draw."""
        if pos.result is not None:
            return pos.result
        n = self.captureless
        if n and pos.quiet >= n:
            return Outcome(None, "no_captures")
        return None

    def evaluate(self, pos: HuntPosition) -> int:
        """Static score from the side to move's view."""
        s = self.flock_score(pos)
        return s if pos.side == FLOCK else -s

    def defenders_score(self, pos: HuntPosition) -> int:
        """Static score from the hunters' (side 1's) view, as the evaluation bar wants it."""
        return -self.flock_score(pos)

    def flock_score(self, pos: HuntPosition) -> int:
        """Static score from the flock's view (positive: good for the geese)."""
        w = self.w
        flock, hunters = pos.flock, pos.hunters
        if not hunters:
            return 100_000
        n = flock.bit_count()
        nh = hunters.bit_count()
        F = self._grid(flock)
        H = self._grid(hunters)
        E = self.gall & ~(F | H)
        steps, jumps, stuck = self.hunter_moves(flock, hunters)
        R1, R2, R = self.region(H, E)
        room = (R & ~H).bit_count()
        score = (w.goose * n - w.hunter * nh
                 - w.hunter_step * steps - w.hunter_jump * jumps
                 - self.region_weight * room)
        if self.one_way:
            score -= w.ahead * self.rows_above(F, H) + w.ahead_reach * self.rows_above(F, R)
            if self.refuge_weight and self.has_refuge(R, F):
                score -= self.refuge_weight
        sealed = room < w.pocket_size
        if stuck and stuck < nh:
            score += w.stuck_hunter * stuck
        if w.hunter_centre:
            centre = self.centre
            score += w.hunter_centre * sum(centre[h] for h in _bits(hunters))
        if w.hunter_pen and self.fill_pen:
            pen_distance = self.pen_distance
            score += w.hunter_pen * sum(pen_distance[h] for h in _bits(hunters))
        if self.reserve_weight:
            score -= self.reserve_weight * self.reserve_distance(R, F)
        if w.cohesion:
            pairs = 0
            for sh, m in self.half_steps:
                pairs += (F & ((F & m) << sh)).bit_count()
            score += w.cohesion * pairs
        adv = 0
        for y, m in self.rows:
            adv += y * (F & m).bit_count()
        score += self.advance_weight * adv
        if w.behind and n:
            # region points behind the flock's middle row: the fox among the geese's rear
            score -= w.behind * (R & ~H & self.below[(adv + n - 1) // n]).bit_count()
        if self.captures:
            buffer = n - self.threshold + 1  # captures the hunters still need
            if buffer <= 1:
                score -= w.danger1
            elif buffer == 2:
                score -= w.danger2
            elif buffer == 3:
                score -= w.danger3
            now, latent, forks, near_forks = self.threats(F, H, E, R)
            sealed = sealed and not now
            latent &= ~now
            if latent:
                _, near1, _, _ = self.threats(F, R1, E, R1)
                _, near2, _, _ = self.threats(F, R2, E, R2)
                near1 &= latent
                near2 &= latent & ~near1
                sealed = sealed and not (near1 or near2)
                hole1, hole2, hole = self.hole_weights
                score -= (hole1 * near1.bit_count() + hole2 * near2.bit_count()
                          + hole * (latent & ~near1 & ~near2).bit_count())
            score -= w.fork * forks + w.near_fork * near_forks
            if now:
                chain = self._best_chain(pos)
                if pos.side == HUNTERS:
                    score -= w.capture_now * chain
                elif chain == 1 and now.bit_count() == 1:
                    score -= w.hang_one
                else:
                    score -= w.hang_more + w.capture_now * (chain - 1)
        if sealed:
            # a pocket the hunters cannot jump out of: every point less brings the trap within reach
            score += w.pocket * (w.pocket_size - room)
        if self.fill_pen:
            held = (flock & self.pen_mask).bit_count()
            score += w.pen * held + w.pen_near * max(0, held - 6)
            score -= w.pen_hunter * (hunters & self.pen_mask).bit_count()
        if self.breakthrough:
            d = self.road(H, E)
            if d > 0:
                score -= w.open_road - w.road_step * min(d, 12)
        score += w.tempo if pos.side == FLOCK else -w.tempo
        return score

    def _best_chain(self, pos: HuntPosition) -> int:
        """Geese the hunters' longest capture takes (hunters to move)."""
        caps = self.rules.capture_moves(pos)
        return max((len(m) - 1 for m in caps), default=0)

    # ------------------------------------------------------------------------------ tactics
    def _winning_capture(self, pos: HuntPosition, moves: list[Move]) -> Move | None:
        """A hunters' move in ``moves`` after which the flock is below the threshold or the home row reached."""
        play = self.rules.play
        for m in moves:
            if len(m) > 2 or (m[0], m[1]) not in self.step_pairs or \
                    (self.breakthrough and self.home_mask >> m[-1] & 1):
                nxt, _ = play(pos, m)
                res = nxt.result
                if res is not None and res.winner is not None and int(res.winner) == HUNTERS:
                    return m
        return None

    def _hunter_threat(self, pos: HuntPosition) -> bool:
        """Could the hunters win with their next move if it were their turn?"""
        flock, hunters = pos.flock, pos.hunters
        empty = self.full & ~(flock | hunters)
        if self.breakthrough:
            for h in _bits(hunters):
                if self.hstep_mask[h] & empty & self.home_mask:
                    return True
        if self.captures:
            need = flock.bit_count() - self.threshold + 1
            if need <= 0:
                return False
            single = False
            for h in _bits(hunters):
                for over, land in self.jumps[h]:
                    if flock >> over & 1 and empty >> land & 1:
                        single = True
                        break
            if not single:
                return False
            if need == 1:
                return True
            return self._best_chain(pos) >= need
        return False

    def tactics(self, pos: HuntPosition, moves: list[Move] | None = None) -> tuple[int, Any]:
        """Forcing facts (QUIET, WIN_NOW, FORCED, TERMINAL; see ``evaluation_tafl``).

        * hunters to move: no move at all is TERMINAL (trapped); a capture that leaves the flock
          below the threshold, or a step onto the home row, is WIN_NOW;
        * flock to move: a move that traps every hunter or fills the pen is WIN_NOW; when the
          hunters threaten to win next move, FORCED with the moves that stop it.
        """
        rules = self.rules
        flock, hunters = pos.flock, pos.hunters
        if pos.side == HUNTERS:
            steps, jumps, stuck = self.hunter_moves(flock, hunters)
            if not steps and not jumps:
                return TERMINAL, rules.outcome(pos)
            need = flock.bit_count() - self.threshold + 1
            chance = bool(jumps) and (need <= 1 or (self.multi and self._best_chain(pos) >= need))
            if not chance and self.breakthrough:
                empty = self.full & ~(flock | hunters)
                chance = any(self.hstep_mask[h] & empty & self.home_mask for h in _bits(hunters))
            if chance:
                if moves is None:
                    moves = rules.legal_moves(pos)
                m = self._winning_capture(pos, moves)
                if m is not None:
                    return WIN_NOW, m
            return QUIET, None
        # flock to move
        win = self._flock_win_in_one(pos, moves)
        if win is not None:
            if win == ():
                return TERMINAL, rules.outcome(pos)
            return WIN_NOW, win
        if self._hunter_threat(pos):
            if moves is None:
                moves = rules.legal_moves(pos)
                if not moves:
                    return TERMINAL, rules.outcome(pos)
            play = rules.play
            parry = []
            for m in moves:
                nxt, _ = play(pos, m)
                if nxt.result is not None or not self._hunter_threat(nxt):
                    parry.append(m)
            return FORCED, parry
        return QUIET, None

    def _flock_win_in_one(self, pos: HuntPosition, moves: list[Move] | None) -> Move | None:
        """A flock move that traps every hunter or fills the pen; ``()`` when the flock has no move."""
        rules = self.rules
        flock, hunters = pos.flock, pos.hunters
        empty = self.full & ~(flock | hunters)
        exits = 0
        for h in _bits(hunters):
            exits |= self.hstep_mask[h] & empty
            if self.captures:
                for over, land in self.jumps[h]:
                    if flock >> over & 1 and empty >> land & 1:
                        exits |= 1 << land
        targets = exits if exits.bit_count() <= 1 else 0
        if self.fill_pen:
            gap = self.pen_mask & ~flock
            if gap.bit_count() == 1 and gap & empty:
                targets |= gap
        if not targets and exits:
            return None
        if moves is None:
            moves = rules.legal_moves(pos)
            if not moves:
                return ()
        play = rules.play
        for m in moves:
            if exits and not targets >> m[-1] & 1:
                continue
            nxt, _ = play(pos, m)
            res = nxt.result
            if res is not None:
                if res.winner is not None and int(res.winner) == FLOCK:
                    return m
                continue
            if not rules.legal_moves(nxt):
                out = rules.outcome(nxt)
                if out is not None and out.winner is not None and int(out.winner) == FLOCK:
                    return m
        return None

    def noisy_moves(self, pos: HuntPosition) -> list[Move]:
        """Moves the quiescence search tries beyond the horizon: the hunters' captures (a goose
        left to be jumped at the horizon would otherwise count as safe)."""
        if pos.side != HUNTERS or not self.captures:
            return []
        return self.rules.capture_moves(pos)

    # ------------------------------------------------------------------------------ ordering
    def order_key(self, pos: HuntPosition) -> Callable[[Move], int]:
        """A function move -> static ordering score (higher first): captures by length; for the
        flock, steps that close a hunter's exit or move a goose out of a jump."""
        step_pairs = self.step_pairs
        if pos.side == HUNTERS:
            home = self.home_mask if self.breakthrough else 0

            def hunter_key(m: Move) -> int:
                if len(m) > 2 or (m[0], m[1]) not in step_pairs:
                    return 1000 * (len(m) - 1)
                return 500 if home >> m[1] & 1 else 0
            return hunter_key
        near = 0
        for h in _bits(pos.hunters):
            near |= self.hstep_mask[h]
        pen = self.pen_mask if self.fill_pen else 0

        def flock_key(m: Move) -> int:
            t = m[-1]
            return (150 if near >> t & 1 else 0) + (100 if pen >> t & 1 else 0) - (60 if near >> m[0] & 1 else 0)
        return flock_key

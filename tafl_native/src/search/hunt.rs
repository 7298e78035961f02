//! The Fox games for the search: their moves (`crate::hunt`, on the Python rules' own board) and
//! the evaluation's hooks of `tafl_desktop/ai/evaluation_hunt.py` (`evaluate`, `tactics`,
//! `order_key`), term for term, so that both engines score a position alike
//! (`tests/test_native_hunt_search.py`).
//!
//! The evaluation works, as the Python one does, on the board re-laid on a small lattice (a bit
//! per lattice point, row by row), where "every goose with an empty point behind it" or "the
//! fox's region grows by a step" are a shift and a mask per direction.  The lattice, the shifts
//! and every weight come from the Python evaluator (`tafl_desktop/native/hunt.py`): one source.

use std::cell::RefCell;

use super::{Family, Move, Outcome, Tactic};
use crate::hunt::{points, Hunt, HuntPos, FLOCK, HUNTERS};

/// The weights the evaluation reads, named as `HuntWeights` names them (with the board's own
/// choices among them made by the Python evaluator: `region`, `advance`, `reserve`, `refuge`,
/// `holes`).
#[derive(Clone, Debug, Default)]
pub struct Weights {
    pub goose: i32,
    pub danger: [i32; 3],
    pub hunter: i32,
    pub hunter_step: i32,
    pub hunter_jump: i32,
    pub stuck_hunter: i32,
    pub region: i32,
    pub pocket: i32,
    pub pocket_size: i32,
    pub holes: [i32; 3],
    pub fork: i32,
    pub near_fork: i32,
    pub cohesion: i32,
    pub reserve: i32,
    pub behind: i32,
    pub advance: i32,
    pub hang_one: i32,
    pub hang_more: i32,
    pub capture_now: i32,
    pub pen: i32,
    pub pen_near: i32,
    pub pen_hunter: i32,
    pub open_road: i32,
    pub road_step: i32,
    pub tempo: i32,
    pub ahead: i32,
    pub ahead_reach: i32,
    pub refuge: i32,
    pub hunter_centre: i32,
    pub hunter_pen: i32,
}

/// The Python evaluator's lattice and tables for one board and rule set.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// Per point: its bit on the lattice.
    pub lattice: Vec<u8>,
    pub gall: u128,
    /// (shift, the lattice points that may go that way) per direction: the hunters' steps, the
    /// hunters' jumps (towards the point jumped), the flock's steps, the hunters' steps with a
    /// positive shift.
    pub hsteps: Vec<(i32, u128)>,
    pub hjumps: Vec<(i32, u128)>,
    pub fsteps: Vec<(i32, u128)>,
    pub half_steps: Vec<(i32, u128)>,
    /// Per point (index space): the points a hunter steps to from it.
    pub hstep_mask: Vec<u128>,
    /// (row counted from the lowest, its lattice points), lowest first.
    pub rows: Vec<(i32, u128)>,
    /// Lattice points on rows below row k.
    pub below: Vec<u128>,
    pub one_way: bool,
    pub captures: bool,
    pub threshold: i32,
    pub fill_pen: bool,
    pub breakthrough: bool,
    pub multi: bool,
    pub pen_mask: u128,
    pub home_mask: u128,
    pub ghome: u128,
    pub centre: Vec<i32>,
    pub pen_distance: Vec<i32>,
    pub weights: Weights,
}

/// The rules and the evaluation of one Fox-game variant.
pub struct HuntFamily {
    pub game: Hunt,
    pub tables: Tables,
}

/// What the ordering needs of a position: the captures with the geese each takes, and the
/// points next to a hunter.
pub struct Orderer {
    captures: Vec<(Move, usize)>,
    near: u128,
    side: u8,
}

thread_local! {
    static OWN_MOVES: RefCell<Vec<Move>> = const { RefCell::new(Vec::new()) };
}

#[inline]
fn shift(x: u128, s: i32) -> u128 {
    if s > 0 {
        x.checked_shl(s as u32).unwrap_or(0)
    } else {
        x.checked_shr((-s) as u32).unwrap_or(0)
    }
}

#[inline]
fn count(x: u128) -> i32 {
    x.count_ones() as i32
}

impl HuntFamily {
    fn n(&self) -> usize {
        self.game.n
    }

    /// The lattice bitboard of an index bitboard.
    fn grid(&self, x: u128) -> u128 {
        points(x).fold(0u128, |m, p| m | 1u128 << self.tables.lattice[p])
    }

    /// The hunters' region through the empty points: within one step, within two, all of it.
    fn region(&self, h: u128, e: u128) -> (u128, u128, u128) {
        let mut r = h;
        let mut layers: Vec<u128> = Vec::with_capacity(2);
        loop {
            let mut grow = r;
            for &(s, m) in &self.tables.hsteps {
                grow |= shift(r & m, s);
            }
            let grow = r | (grow & e);
            if grow == r {
                while layers.len() < 2 {
                    layers.push(r);
                }
                return (layers[0], layers[1], r);
            }
            r = grow;
            if layers.len() < 2 {
                layers.push(r);
            }
        }
    }

    fn reserve_distance(&self, r: u128, f: u128) -> i32 {
        let t = &self.tables;
        let (mut seen, mut layer, mut left) = (r, r, f);
        let (mut total, mut k) = (0, 0);
        while left != 0 {
            let mut grow = 0;
            for &(s, m) in &t.hsteps {
                grow |= shift(layer & m, s);
            }
            layer = grow & t.gall & !seen;
            if layer == 0 {
                break;
            }
            seen |= layer;
            let hit = layer & left;
            if hit != 0 {
                total += k * count(hit);
                left &= !hit;
            }
            k += 1;
        }
        total
    }

    fn flock_reach(&self, f: u128) -> u128 {
        let mut reach = f;
        loop {
            let mut grow = reach;
            for &(s, m) in &self.tables.fsteps {
                grow |= shift(reach & m, s);
            }
            grow &= self.tables.gall;
            if grow == reach {
                return reach;
            }
            reach = grow;
        }
    }

    fn has_refuge(&self, r: u128, f: u128) -> bool {
        let dead = r & !self.flock_reach(f);
        dead != 0
            && self
                .tables
                .hsteps
                .iter()
                .any(|&(s, m)| s > 0 && shift(dead & m, s) & dead != 0)
    }

    fn rows_above(&self, f: u128, x: u128) -> i32 {
        let mut low = -1;
        let mut total = 0;
        for &(y, m) in &self.tables.rows {
            if low < 0 {
                if x & m != 0 {
                    low = y;
                }
            } else if f & m != 0 {
                total += (y - low) * count(f & m);
            }
        }
        total
    }

    fn road(&self, h: u128, e: u128) -> i32 {
        let mut r = h;
        let home = self.tables.ghome & e;
        let mut d = 0;
        loop {
            d += 1;
            let mut grow = r;
            for &(s, m) in &self.tables.hsteps {
                grow |= shift(r & m, s);
            }
            let grow = r | (grow & e);
            if grow & home != 0 {
                return d;
            }
            if grow == r {
                return -1;
            }
            r = grow;
        }
    }

    /// (geese a hunter can jump now, geese he could jump from his region, fork points, fork
    /// points one step from a hunter).
    fn threats(&self, f: u128, h: u128, e: u128, r: u128) -> (u128, u128, i32, i32) {
        let t = &self.tables;
        let (mut now, mut latent, mut once, mut twice) = (0u128, 0u128, 0u128, 0u128);
        for &(s, m) in &t.hjumps {
            let front = m & shift(f & shift(e, -s), -s);
            now |= shift(front & h, s);
            latent |= shift(front & r, s);
            twice |= once & front;
            once |= front;
        }
        let forks = twice & r & !h;
        let mut near = 0u128;
        if forks != 0 {
            for &(s, m) in &t.hsteps {
                near |= shift(h & m, s);
            }
            near &= forks;
        }
        (now, latent, count(forks), count(near))
    }

    /// (free steps, available jumps, hunters with no move at all), in index space.
    fn hunter_moves(&self, flock: u128, hunters: u128) -> (i32, i32, i32) {
        let full = self.full();
        let empty = full & !(flock | hunters);
        let (mut steps, mut jumps, mut stuck) = (0, 0, 0);
        for h in points(hunters) {
            let st = count(self.tables.hstep_mask[h] & empty);
            let mut jp = 0;
            if self.tables.captures {
                for &(o, l) in &self.game.jumps[h] {
                    if flock >> o & 1 != 0 && empty >> l & 1 != 0 {
                        jp += 1;
                    }
                }
            }
            steps += st;
            jumps += jp;
            if st == 0 && jp == 0 {
                stuck += 1;
            }
        }
        (steps, jumps, stuck)
    }

    fn full(&self) -> u128 {
        if self.n() == 128 {
            u128::MAX
        } else {
            (1u128 << self.n()) - 1
        }
    }

    /// Geese the hunters' longest capture takes (as if it were their turn).
    fn best_chain(&self, p: &HuntPos) -> i32 {
        let mut best = 0;
        for h in points(p.hunters) {
            self.game.each_chain(p, h, &mut |w| {
                best = best.max(w.taken.len() as i32);
                false
            });
        }
        best
    }

    /// The static score from the flock's view (`HuntEvaluator.flock_score`).
    pub fn flock_score(&self, p: &HuntPos) -> i32 {
        let t = &self.tables;
        let w = &t.weights;
        let (flock, hunters) = (p.flock, p.hunters);
        if hunters == 0 {
            return 100_000;
        }
        let n = count(flock);
        let nh = count(hunters);
        let f = self.grid(flock);
        let h = self.grid(hunters);
        let e = t.gall & !(f | h);
        let (steps, jumps, stuck) = self.hunter_moves(flock, hunters);
        let (r1, r2, r) = self.region(h, e);
        let room = count(r & !h);
        let mut score = w.goose * n - w.hunter * nh - w.hunter_step * steps - w.hunter_jump * jumps - w.region * room;
        if t.one_way {
            score -= w.ahead * self.rows_above(f, h) + w.ahead_reach * self.rows_above(f, r);
            if w.refuge != 0 && self.has_refuge(r, f) {
                score -= w.refuge;
            }
        }
        let mut sealed = room < w.pocket_size;
        if stuck > 0 && stuck < nh {
            score += w.stuck_hunter * stuck;
        }
        if w.hunter_centre != 0 {
            score += w.hunter_centre * points(hunters).map(|x| t.centre[x]).sum::<i32>();
        }
        if w.hunter_pen != 0 && t.fill_pen {
            score += w.hunter_pen * points(hunters).map(|x| t.pen_distance[x]).sum::<i32>();
        }
        if w.reserve != 0 {
            score -= w.reserve * self.reserve_distance(r, f);
        }
        if w.cohesion != 0 {
            let pairs: i32 = t.half_steps.iter().map(|&(s, m)| count(f & shift(f & m, s))).sum();
            score += w.cohesion * pairs;
        }
        let adv: i32 = t.rows.iter().map(|&(y, m)| y * count(f & m)).sum();
        score += w.advance * adv;
        if w.behind != 0 && n > 0 {
            let k = ((adv + n - 1) / n) as usize;
            let below = t.below.get(k).or(t.below.last()).copied().unwrap_or(0);
            score -= w.behind * count(r & !h & below);
        }
        if t.captures {
            let buffer = n - t.threshold + 1;
            if buffer <= 1 {
                score -= w.danger[0];
            } else if buffer == 2 {
                score -= w.danger[1];
            } else if buffer == 3 {
                score -= w.danger[2];
            }
            let (now, mut latent, forks, near_forks) = self.threats(f, h, e, r);
            sealed = sealed && now == 0;
            latent &= !now;
            if latent != 0 {
                let mut near1 = self.threats(f, r1, e, r1).1;
                let mut near2 = self.threats(f, r2, e, r2).1;
                near1 &= latent;
                near2 &= latent & !near1;
                sealed = sealed && near1 == 0 && near2 == 0;
                let [hole1, hole2, hole] = w.holes;
                score -= hole1 * count(near1) + hole2 * count(near2) + hole * count(latent & !near1 & !near2);
            }
            score -= w.fork * forks + w.near_fork * near_forks;
            if now != 0 {
                let chain = self.best_chain(p);
                if p.side == HUNTERS {
                    score -= w.capture_now * chain;
                } else if chain == 1 && count(now) == 1 {
                    score -= w.hang_one;
                } else {
                    score -= w.hang_more + w.capture_now * (chain - 1);
                }
            }
        }
        if sealed {
            score += w.pocket * (w.pocket_size - room);
        }
        if t.fill_pen {
            let held = count(flock & t.pen_mask);
            score += w.pen * held + w.pen_near * (held - 6).max(0);
            score -= w.pen_hunter * count(hunters & t.pen_mask);
        }
        if t.breakthrough {
            let d = self.road(h, e);
            if d > 0 {
                score -= w.open_road - w.road_step * d.min(12);
            }
        }
        score + if p.side == FLOCK { w.tempo } else { -w.tempo }
    }

    /// The point a step ends on (a capture's number is no point: see `crate::hunt`).
    fn land(&self, m: Move) -> usize {
        m.to.index()
    }

    /// Could the hunters win with their next move if it were their turn?
    fn hunter_threat(&self, p: &HuntPos) -> bool {
        let t = &self.tables;
        let empty = self.full() & !(p.flock | p.hunters);
        if t.breakthrough && points(p.hunters).any(|x| t.hstep_mask[x] & empty & t.home_mask != 0) {
            return true;
        }
        if t.captures {
            let need = count(p.flock) - t.threshold + 1;
            if need <= 0 {
                return false;
            }
            let single = points(p.hunters).any(|x| {
                self.game.jumps[x]
                    .iter()
                    .any(|&(o, l)| p.flock >> o & 1 != 0 && empty >> l & 1 != 0)
            });
            if !single {
                return false;
            }
            return need == 1 || self.best_chain(p) >= need;
        }
        false
    }

    /// A flock move that traps every hunter or fills the pen (`Err(())`: the flock has no move).
    fn flock_win_in_one(&self, p: &HuntPos, given: Option<&[Move]>, own: &mut Vec<Move>) -> Result<Option<Move>, ()> {
        let t = &self.tables;
        let empty = self.full() & !(p.flock | p.hunters);
        let mut exits = 0u128;
        for x in points(p.hunters) {
            exits |= t.hstep_mask[x] & empty;
            if t.captures {
                for &(o, l) in &self.game.jumps[x] {
                    if p.flock >> o & 1 != 0 && empty >> l & 1 != 0 {
                        exits |= 1u128 << l;
                    }
                }
            }
        }
        let mut targets = if exits.count_ones() <= 1 { exits } else { 0 };
        if t.fill_pen {
            let gap = t.pen_mask & !p.flock;
            if gap.count_ones() == 1 && gap & empty != 0 {
                targets |= gap;
            }
        }
        if targets == 0 && exits != 0 {
            return Ok(None);
        }
        let moves: &[Move] = match given {
            Some(m) => m,
            None => {
                self.game.moves(p, own);
                if own.is_empty() {
                    return Err(());
                }
                own
            }
        };
        for &m in moves {
            if exits != 0 && targets >> self.land(m) & 1 == 0 {
                continue;
            }
            let Some((next, _)) = self.game.play(p, m) else {
                continue;
            };
            if let Some(res) = next.result {
                if res == Outcome::Win(FLOCK) {
                    return Ok(Some(m));
                }
                continue;
            }
            if !self.game.has_moves(&next) && self.game.no_moves_outcome(&next) == Outcome::Win(FLOCK) {
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    fn tactics_into(&self, p: &HuntPos, given: Option<&[Move]>, forced: &mut Vec<Move>, own: &mut Vec<Move>) -> Tactic {
        let t = &self.tables;
        if p.side == HUNTERS {
            let (steps, jumps, _) = self.hunter_moves(p.flock, p.hunters);
            if steps == 0 && jumps == 0 {
                return Tactic::Terminal(self.game.no_moves_outcome(p));
            }
            let need = count(p.flock) - t.threshold + 1;
            let mut chance = jumps > 0 && (need <= 1 || (t.multi && self.best_chain(p) >= need));
            if !chance && t.breakthrough {
                let empty = self.full() & !(p.flock | p.hunters);
                chance = points(p.hunters).any(|x| t.hstep_mask[x] & empty & t.home_mask != 0);
            }
            if chance {
                let moves: &[Move] = match given {
                    Some(m) => m,
                    None => {
                        self.game.moves(p, own);
                        own
                    }
                };
                for &m in moves {
                    let jump = m.to.index() >= self.n();
                    if jump || (t.breakthrough && t.home_mask >> self.land(m) & 1 != 0) {
                        if let Some((next, _)) = self.game.play(p, m) {
                            if next.result == Some(Outcome::Win(HUNTERS)) {
                                return Tactic::WinNow(m);
                            }
                        }
                    }
                }
            }
            return Tactic::Quiet;
        }
        match self.flock_win_in_one(p, given, own) {
            Err(()) => return Tactic::Terminal(self.game.no_moves_outcome(p)),
            Ok(Some(m)) => return Tactic::WinNow(m),
            Ok(None) => {}
        }
        if self.hunter_threat(p) {
            let moves: &[Move] = match given {
                Some(m) => m,
                None => {
                    if own.is_empty() {
                        self.game.moves(p, own);
                    }
                    if own.is_empty() {
                        return Tactic::Terminal(self.game.no_moves_outcome(p));
                    }
                    own
                }
            };
            for &m in moves {
                if let Some((next, _)) = self.game.play(p, m) {
                    if next.result.is_some() || !self.hunter_threat(&next) {
                        forced.push(m);
                    }
                }
            }
            return Tactic::Forced;
        }
        Tactic::Quiet
    }
}

impl Family for HuntFamily {
    type Pos = HuntPos;
    type Order = Orderer;

    fn side(&self, p: &HuntPos) -> u8 {
        p.side
    }

    fn hash(&self, p: &HuntPos) -> u64 {
        p.hash
    }

    fn quick_outcome(&self, p: &HuntPos) -> Option<Outcome> {
        self.game.quick_outcome(p)
    }

    fn moves(&self, p: &HuntPos, out: &mut Vec<Move>) {
        self.game.moves(p, out);
    }

    fn play(&self, p: &HuntPos, m: Move) -> (HuntPos, bool) {
        match self.game.play(p, m) {
            Some((child, caps)) => (child, caps > 0),
            None => panic!(
                "the move ({}, {}) names no chain of the position",
                m.from.index(),
                m.to.index()
            ),
        }
    }

    fn no_moves_outcome(&self, p: &HuntPos) -> Outcome {
        self.game.no_moves_outcome(p)
    }

    fn has_moves(&self, p: &HuntPos) -> bool {
        self.game.has_moves(p)
    }

    fn repetition_outcome(&self, _p: &HuntPos, count: u32) -> Option<Outcome> {
        self.game.repetition_outcome(count)
    }

    fn evaluate(&self, p: &HuntPos) -> i32 {
        let s = self.flock_score(p);
        if p.side == FLOCK {
            s
        } else {
            -s
        }
    }

    fn tactics(&self, p: &HuntPos, moves: Option<&[Move]>, forced: &mut Vec<Move>) -> Tactic {
        OWN_MOVES.with(|own| {
            let mut own = own.borrow_mut();
            own.clear();
            self.tactics_into(p, moves, forced, &mut own)
        })
    }

    fn orderer(&self, p: &HuntPos) -> Orderer {
        let mut captures = Vec::new();
        if p.side == HUNTERS {
            self.game.captures(p, &mut captures);
        }
        let near = points(p.hunters).fold(0u128, |m, x| m | self.tables.hstep_mask[x]);
        Orderer {
            captures,
            near,
            side: p.side,
        }
    }

    /// Captures by their length; the flock's steps that close a hunter's exit or leave his reach
    /// (`HuntEvaluator.order_key`).
    fn order_key(&self, o: &Orderer, m: Move) -> i32 {
        let t = &self.tables;
        let (a, to) = (m.from.index(), m.to.index());
        if o.side == HUNTERS {
            if to >= self.n() {
                let len = o.captures.iter().find(|&&(c, _)| c == m).map_or(0, |&(_, l)| l);
                return 1000 * len as i32;
            }
            let home = if t.breakthrough { t.home_mask } else { 0 };
            return if home >> to & 1 != 0 { 500 } else { 0 };
        }
        let pen = if t.fill_pen { t.pen_mask } else { 0 };
        (if o.near >> to & 1 != 0 { 150 } else { 0 }) + (if pen >> to & 1 != 0 { 100 } else { 0 })
            - (if o.near >> a & 1 != 0 { 60 } else { 0 })
    }

    fn predicts_capture(&self, _o: &Orderer, m: Move) -> bool {
        m.to.index() >= self.n()
    }

    fn capture_moves(&self, p: &HuntPos, o: &Orderer, out: &mut Vec<Move>) {
        out.clear();
        if p.result.is_some() || p.side != HUNTERS {
            return;
        }
        // the captures the rules allow (the longest only, where that is the rule)
        let mut legal = Vec::new();
        self.game.moves(p, &mut legal);
        out.extend(legal.into_iter().filter(|m| self.predicts_capture(o, *m)));
    }

    /// No null move: a trapped side loses, so passing is never a fair test.
    fn null_move(&self, _p: &HuntPos) -> Option<HuntPos> {
        None
    }
}

//! The Tafl evaluation, term for term the one of `tafl_desktop/ai/evaluation_tafl.py`.
//!
//! Both read the same weights (`resources/ai/tafl_evaluation.toml`), and every table here (the
//! escape distances, guard posts, hostile squares, the king's walks with the throne, corners,
//! camps, walls and speed limit of the rules in force) is computed once by the Python evaluator
//! itself and handed over as data (`tafl_desktop/native/search_tables.py`), so the two cannot
//! drift apart: `tests/test_native_search.py` checks equal scores on thousands of positions.
//! Scores are in hundredths of a soldier, from the defenders' view unless said otherwise.

use crate::board::{Bits, Square};

pub const ATT: u8 = 0;
pub const DEF: u8 = 1;

/// The evaluation weights, in the order of `TaflWeights` (see the weights file for each term).
#[derive(Clone, Debug, Default)]
pub struct Weights {
    pub attacker: i32,
    pub defender: i32,
    pub king_mobility: i32,
    pub king_distance: i32,
    pub route_two: i32,
    pub fork_threat: i32,
    pub fork_to_move: i32,
    pub raichi: i32,
    pub tuichi: i32,
    pub king_hostile: i32,
    pub king_hostile3: i32,
    pub king_near: i32,
    pub king_ring: i32,
    pub king_path: i32,
    pub king_enclosed: i32,
    pub hunt: i32,
    pub king_space: i32,
    pub king_guard: i32,
    pub guard1: i32,
    pub guard2: i32,
    pub guard3: i32,
    pub tempo: i32,
    pub defender_mobility: i32,
    pub no_progress: i32,
}

/// The names of the weights, in field order (what the Python side must hand over).
pub const WEIGHT_NAMES: [&str; WEIGHT_COUNT] = [
    "attacker",
    "defender",
    "king_mobility",
    "king_distance",
    "route_two",
    "fork_threat",
    "fork_to_move",
    "raichi",
    "tuichi",
    "king_hostile",
    "king_hostile3",
    "king_near",
    "king_ring",
    "king_path",
    "king_enclosed",
    "hunt",
    "king_space",
    "king_guard",
    "guard1",
    "guard2",
    "guard3",
    "tempo",
    "defender_mobility",
    "no_progress",
];

/// How many weights there are.
pub const WEIGHT_COUNT: usize = 24;

/// Plies without a capture beyond which the no-progress term grows no further.
pub const NO_PROGRESS_CAP: u32 = 100;
/// The lead (the defenders' score against the start's, negated) where the mop-up term starts,
/// and where it reaches its full weight (`MOP_UP_FROM`, `MOP_UP_FULL` in Python).
pub const MOP_UP_FROM: i32 = 800;
pub const MOP_UP_FULL: i32 = 1600;

impl Weights {
    /// From values in [`WEIGHT_NAMES`] order.
    pub fn from_values(v: &[i32; WEIGHT_COUNT]) -> Self {
        Weights {
            attacker: v[0],
            defender: v[1],
            king_mobility: v[2],
            king_distance: v[3],
            route_two: v[4],
            fork_threat: v[5],
            fork_to_move: v[6],
            raichi: v[7],
            tuichi: v[8],
            king_hostile: v[9],
            king_hostile3: v[10],
            king_near: v[11],
            king_ring: v[12],
            king_path: v[13],
            king_enclosed: v[14],
            hunt: v[15],
            king_space: v[16],
            king_guard: v[17],
            guard1: v[18],
            guard2: v[19],
            guard3: v[20],
            tempo: v[21],
            defender_mobility: v[22],
            no_progress: v[23],
        }
    }
}

/// One step of the king's walk from a square in one direction.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub square: Square,
    /// The king may stop here (not a throne or camp he may only cross).
    pub stop: bool,
    /// The walk ends after this square (a throne he may enter but not pass).
    pub last: bool,
}

/// Everything the evaluation knows about one variant and its options.
#[derive(Clone, Debug)]
pub struct Tables<B: Bits> {
    pub w: usize,
    pub h: usize,
    pub n: usize,
    pub full: B,
    pub escape: B,
    pub king_walls: B,
    pub not_file_a: B,
    pub not_file_last: B,
    pub reach: B,
    pub edge: B,
    pub guard: [B; 3],
    pub adj: Vec<B>,
    pub near: Vec<B>,
    pub ring: Vec<B>,
    pub kdist: Vec<i32>,
    pub king_host_sq: Vec<i32>,
    pub king_offboard: Vec<i32>,
    /// The king's walks: `walks[square][direction]` (east, west, north, south).
    pub walks: Vec<[Vec<Step>; 4]>,
    pub walk_limit: i32,
    pub start_defenders: i32,
    pub offset: i32,
    pub strong_king: bool,
    pub king_wall_risk: bool,
    pub edge_hostile: bool,
    pub king_anvil: bool,
    pub captureless: u32,
    pub host_always: [B; 2],
    pub host_empty: [B; 2],
    pub m_east: B,
    pub m_west: B,
    pub m_east_edge: B,
    pub m_west_edge: B,
    pub m_north_edge: B,
    pub m_south_edge: B,
    pub weights: Weights,
}

/// What the king sees from a square: moves, escape squares in sight, the squares whose
/// blocking closes those routes, and his targets.
#[derive(Clone, Copy, Debug)]
pub struct KingSight<B: Bits> {
    pub mobility: i32,
    pub routes: i32,
    pub ray: B,
    pub targets: B,
}

impl<B: Bits> Tables<B> {
    /// The king's moves from `from` with `occ` occupied (the king's own square is ignored).
    #[inline]
    pub fn king_sight(&self, from: usize, occ: B) -> KingSight<B> {
        let mut sight = KingSight {
            mobility: 0,
            routes: 0,
            ray: B::ZERO,
            targets: B::ZERO,
        };
        for dir in &self.walks[from] {
            let mut passed = B::ZERO;
            for st in dir {
                let s = st.square.index();
                if occ.has(s) {
                    break;
                }
                passed |= B::bit(s);
                if st.stop {
                    sight.mobility += 1;
                    sight.targets |= B::bit(s);
                    if self.escape.has(s) {
                        sight.routes += 1;
                        sight.ray |= passed;
                    }
                }
                if st.last {
                    break;
                }
            }
        }
        sight
    }

    /// Escape squares the king would see from `from` (a count only).
    #[inline]
    fn escapes_from(&self, from: usize, occ: B) -> i32 {
        let mut n = 0;
        for dir in &self.walks[from] {
            for st in dir {
                let s = st.square.index();
                if occ.has(s) {
                    break;
                }
                if st.stop && self.escape.has(s) {
                    n += 1;
                }
                if st.last {
                    break;
                }
            }
        }
        n
    }

    /// The first escaping move of the king (east, west, north, south; nearest first), if any.
    pub fn escape_move(&self, king: usize, occ: B) -> Option<usize> {
        for dir in &self.walks[king] {
            for st in dir {
                let s = st.square.index();
                if occ.has(s) {
                    break;
                }
                if st.stop && self.escape.has(s) {
                    return Some(s);
                }
                if st.last {
                    break;
                }
            }
        }
        None
    }

    /// One-square steps from the king to the nearest escape square through empty squares, or
    /// minus the size of his pen when none can be reached (`king_walk` in Python).
    pub fn king_walk(&self, att: B, dfn: B, king: usize) -> i32 {
        let kb = B::bit(king);
        let free = self.full & !(att | dfn | self.king_walls);
        let esc = self.escape & free;
        let w = self.w as u32;
        let mut region = kb;
        for step in 1..self.walk_limit {
            let mut grown = (region
                | (region.shl(1) & self.not_file_a)
                | (region.shr(1) & self.not_file_last)
                | region.shl(w)
                | region.shr(w))
                & free;
            if (grown & esc).any() {
                return step;
            }
            grown |= kb;
            if grown == region {
                return -(region.count() as i32);
            }
            region = grown;
        }
        -(region.count() as i32)
    }

    /// Sides of the king held against him: attackers, hostile squares, the rim if it counts.
    #[inline]
    pub fn king_hostility(&self, att: B, king: usize) -> i32 {
        (att & self.adj[king]).count() as i32 + self.king_host_sq[king] + self.king_offboard[king]
    }

    /// The static score from the defenders' view (`defenders_score` in Python).
    pub fn defenders_score(&self, att: B, dfn: B, king: Option<Square>, side: u8) -> i32 {
        let w = &self.weights;
        let Some(king) = king else {
            return -100_000;
        };
        let k = king.index();
        let kb = B::bit(k);
        let occ = att | dfn | kb;
        let sight = self.king_sight(k, occ);
        let routes = sight.routes;
        let mut two = 0;
        let mut forks = 0;
        let bare = occ ^ kb;
        for t in (sight.targets & self.reach).squares() {
            let e = self.escapes_from(t, bare);
            if e > 0 {
                two += 1;
                if e > 1 {
                    forks += 1;
                }
            }
        }
        let adj = self.adj[k];
        let hostile = self.king_hostility(att, k);
        let walk = self.king_walk(att, dfn, k);
        let near = (att & self.near[k]).count() as i32;
        let ndef = dfn.count() as i32;
        let mut score = w.defender * ndef - w.attacker * att.count() as i32 + w.king_mobility * sight.mobility
            - w.king_distance * self.kdist[k]
            + w.route_two * two
            - w.king_hostile * hostile
            - w.king_near * near
            + w.king_guard * (dfn & adj).count() as i32
            - w.king_ring * (att & self.ring[k]).count() as i32;
        let lost = self.start_defenders - ndef;
        if lost > 0 && w.hunt != 0 {
            score -= (w.hunt * lost * near).div_euclid(self.start_defenders);
        }
        // the score before the king's walk is scored (`unwalked` in Python)
        let unwalked = score;
        if walk < 0 {
            score -= w.king_enclosed + (w.king_path * self.walk_limit).div_euclid(2) + w.king_space * walk;
        } else {
            score -= w.king_path * walk
                + w.guard1 * (att & self.guard[0]).count() as i32
                + w.guard2 * (att & self.guard[1]).count() as i32
                + w.guard3 * (att & self.guard[2]).count() as i32;
        }
        if hostile >= 3 && self.strong_king {
            score -= w.king_hostile3;
        }
        if walk < 0 && w.defender_mobility != 0 {
            // the king walled in: hunting the last soldiers cannot let him out; the lead is the
            // larger of those before and after his walk is scored
            score -= self.mop_up(att, dfn, kb, unwalked.min(score) - self.offset);
        }
        score -= self.offset;
        if side == DEF {
            score += w.tempo;
            if routes > 0 {
                score += w.tuichi * 4;
            } else if forks > 0 {
                score += w.fork_to_move;
            }
        } else {
            score -= w.tempo;
            if routes > 0 {
                score += if routes == 1 { w.raichi } else { w.tuichi };
            }
            if forks > 0 {
                score += w.fork_threat;
            }
        }
        score
    }

    /// What the defenders lose where the king is walled in (the caller checks) and the attackers
    /// lead by more than [`MOP_UP_FROM`] (`base`: the defenders' score against the start's, the
    /// lower of those before and after the king's walk is scored): the room their soldiers lack,
    /// growing to the full weight at [`MOP_UP_FULL`] (`mop_up` in Python: closing in on the last
    /// soldiers pays before a capture is in sight, issue 44).
    pub fn mop_up(&self, att: B, dfn: B, kb: B, base: i32) -> i32 {
        let lead = -base - MOP_UP_FROM;
        if lead <= 0 {
            return 0;
        }
        let ramp = lead.min(MOP_UP_FULL - MOP_UP_FROM);
        let lack = self.n as i32 - self.defender_moves(att, dfn, kb);
        (self.weights.defender_mobility * lack * ramp).div_euclid(MOP_UP_FULL - MOP_UP_FROM)
    }

    /// Squares the defenders' soldiers could slide to through empty squares (`defender_moves`
    /// in Python: restricted squares count like any empty one).
    pub fn defender_moves(&self, att: B, dfn: B, kb: B) -> i32 {
        let empty = self.full & !(att | dfn | kb);
        let w = self.w as u32;
        let mut total = 0;
        let mut m = dfn;
        while m.any() {
            m = m.shl(1) & self.not_file_a & empty;
            total += m.count() as i32;
        }
        m = dfn;
        while m.any() {
            m = m.shr(1) & self.not_file_last & empty;
            total += m.count() as i32;
        }
        m = dfn;
        while m.any() {
            m = m.shl(w) & empty;
            total += m.count() as i32;
        }
        m = dfn;
        while m.any() {
            m = m.shr(w) & empty;
            total += m.count() as i32;
        }
        total
    }

    /// The static score from the side to move's view, shrunk by `quiet` plies without a capture
    /// (`evaluate` in Python: a lead that is not converted is worth less, issue 44).
    #[inline]
    pub fn evaluate(&self, att: B, dfn: B, king: Option<Square>, side: u8, quiet: u32) -> i32 {
        let s = self.defenders_score(att, dfn, king, side);
        let s = if side == DEF { s } else { -s };
        let q = quiet.min(NO_PROGRESS_CAP) as i64;
        if q > 0 && self.weights.no_progress != 0 {
            let s64 = s as i64;
            return (s64 - (s64 * q * self.weights.no_progress as i64).div_euclid(1000)) as i32;
        }
        s
    }

    /// Target squares where a move of the side to move would (by the plain custodial rule)
    /// capture: next to an enemy with an anvil straight beyond it (`order_key` in Python).
    pub fn capture_targets(&self, att: B, dfn: B, king: Option<Square>, side: u8) -> B {
        let kb = king.map_or(B::ZERO, |k| B::bit(k.index()));
        let occ = att | dfn | kb;
        let empty = self.full & !occ;
        let w = self.w as u32;
        let (enemies, anvils) = if side == ATT {
            (
                dfn,
                att | self.host_always[DEF as usize] | (self.host_empty[DEF as usize] & empty),
            )
        } else {
            let mut a = dfn | self.host_always[ATT as usize] | (self.host_empty[ATT as usize] & empty);
            if self.king_anvil {
                a |= kb;
            }
            (att, a)
        };
        let mut cap = (enemies.shr(1) & anvils.shr(2) & self.m_east)
            | (enemies.shl(1) & anvils.shl(2) & self.m_west)
            | (enemies.shr(w) & anvils.shr(2 * w))
            | (enemies.shl(w) & anvils.shl(2 * w));
        if self.edge_hostile {
            cap |= (enemies.shr(1) & self.m_east_edge)
                | (enemies.shl(1) & self.m_west_edge)
                | (enemies.shr(w) & self.m_north_edge)
                | (enemies.shl(w) & self.m_south_edge);
        }
        cap & empty
    }
}

/// The static move-ordering scores of one position (`order_key` in Python), higher first.
pub struct Orderer<B: Bits> {
    side: u8,
    king: Option<Square>,
    cap: B,
    kadj: B,
    reach: B,
}

impl<B: Bits> Orderer<B> {
    pub fn new(t: &Tables<B>, att: B, dfn: B, king: Option<Square>, side: u8) -> Self {
        let cap = t.capture_targets(att, dfn, king, side);
        let Some(k) = king else {
            return Orderer {
                side,
                king,
                cap,
                kadj: B::ZERO,
                reach: B::ZERO,
            };
        };
        let k = k.index();
        let kadj = t.adj[k];
        let mut reach = B::ZERO;
        if side == ATT {
            let s = t.king_sight(k, att | dfn | B::bit(k));
            reach = s.ray | s.targets;
        }
        Orderer {
            side,
            king,
            cap,
            kadj,
            reach,
        }
    }

    /// The squares where a move is predicted to capture.
    #[inline]
    pub fn targets(&self) -> B {
        self.cap
    }

    /// Is `to` a square where the move is predicted to capture?
    #[inline]
    pub fn captures(&self, to: usize) -> bool {
        self.cap.has(to)
    }

    #[inline]
    pub fn key(&self, t: &Tables<B>, from: usize, to: usize) -> i32 {
        let cap = if self.cap.has(to) { 1000 } else { 0 };
        let Some(king) = self.king else {
            return cap;
        };
        if self.side == ATT {
            cap + if self.kadj.has(to) { 500 } else { 0 } + if self.reach.has(to) { 200 } else { 0 }
        } else if from == king.index() {
            300 + 60 * (t.kdist[from] - t.kdist[to]) + cap
        } else {
            cap + if self.kadj.has(from) { 100 } else { 0 }
        }
    }
}

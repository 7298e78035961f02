//! Dablot Prejjesne for the prover: the successors of a position, as
//! `tafl_desktop/core/dablot.py` defines them, for the rule settings whose moves are single
//! steps and single-piece jump chains (no Ambush, no Action Points, no draw by a count of
//! moves: the Python side keeps those games on the Python prover).
//!
//! The lattice (which points are joined, which jumps land where, each point's row) comes from
//! the Python rules, so there is one geometry; this module only walks it.  A piece is the same
//! small integer as in Python (`1 + side + 2 * kind + 8 * marked`), so positions cross the
//! boundary unchanged.  Checked against the Python rules by the successors of random positions
//! (`tests/test_native_dablot.py`).

use crate::search::prove::ProofGame;
use crate::search::Outcome;

/// The most points a board may have here (Dablot's is 72, Mini-Dablot's fewer).
pub const MAX_POINTS: usize = 128;
pub(crate) const SOLDIER: u8 = 0;
const OFFICER: u8 = 1;
pub(crate) const LEADER: u8 = 3;
/// Piece codes run from 1 to 16.
const CODES: usize = 17;

#[inline]
pub(crate) fn side_of(c: u8) -> u8 {
    (c - 1) & 1
}

#[inline]
pub(crate) fn kind_of(c: u8) -> u8 {
    ((c - 1) >> 1) & 3
}

#[inline]
pub(crate) fn marked(c: u8) -> bool {
    (c - 1) & 8 != 0
}

#[inline]
pub(crate) fn code(side: u8, kind: u8, marked: bool) -> u8 {
    1 + side + 2 * kind + if marked { 8 } else { 0 }
}

/// The rule settings this module plays (the rest are refused by the Python side).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub chain_jumps: bool,
    /// "Soldiers must capture": where a soldier can capture, only soldier captures are moves.
    pub soldiers_must_capture: bool,
    pub ever_onward: bool,
    pub promotion: bool,
    pub officer_material: bool,
    pub leader_captured_loses: bool,
    pub bare_leader_loses: bool,
    /// A position's third occurrence is a draw (the search's repetition rule; the prover keys
    /// on positions alone and never asks).
    pub repetition_draw: bool,
}

/// The most jumps one chain can make: every jump takes an enemy piece, and no army is bigger.
pub const MAX_CHAIN: usize = 64;

/// One jump chain as the search walks it: the points landed on in turn and the points jumped.
pub struct ChainWalk<'a> {
    pub lands: &'a [u8],
    pub taken: &'a [u8],
    pub went_back: bool,
}

/// One Dablot board and its rules.
#[derive(Clone)]
pub struct Dablot {
    pub(crate) n: usize,
    pub(crate) steps: Vec<Vec<u8>>,
    /// Per point: (the point jumped over, the point landed on).
    pub(crate) jumps: Vec<Vec<(u8, u8)>>,
    row: Vec<i32>,
    /// The rank of each kind: soldier, officer, son, leader.
    rank: [u8; 4],
    /// Per side: the points where its soldiers are promoted.
    far_row: [Vec<bool>; 2],
    pub(crate) s: Settings,
    zobrist: Vec<u64>,
    zobrist_side: u64,
}

/// A position: a piece code (0 empty) per point, the side to move, the last move's result.
#[derive(Clone)]
pub struct DablotPos {
    pub cells: [u8; MAX_POINTS],
    pub side: u8,
    pub result: Option<Outcome>,
    pub(crate) hash: u64,
}

/// Why a board or a position was refused.
#[derive(Debug)]
pub struct Refused(pub String);

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Dablot {
    /// The board from its lattice: `steps[p]` the points joined to `p`, `jumps[p]` its jumps as
    /// (over, land), `row[p]` its row (north is up), `rank` per kind, `far_row[side][p]`.
    pub fn new(
        steps: Vec<Vec<u8>>,
        jumps: Vec<Vec<(u8, u8)>>,
        row: Vec<i32>,
        rank: [u8; 4],
        far_row: [Vec<bool>; 2],
        s: Settings,
    ) -> Result<Self, Refused> {
        let n = steps.len();
        if n == 0 || n > MAX_POINTS {
            return Err(Refused(format!("a Dablot board has 1 to {MAX_POINTS} points, not {n}")));
        }
        if jumps.len() != n || row.len() != n || far_row.iter().any(|f| f.len() != n) {
            return Err(Refused("every point needs its steps, jumps, row and far rows".into()));
        }
        let inside = |q: u8| (q as usize) < n;
        if !steps.iter().flatten().all(|&q| inside(q)) || !jumps.iter().flatten().all(|&(o, l)| inside(o) && inside(l))
        {
            return Err(Refused("a step or jump leaves the board".into()));
        }
        let mut state = 0x05da_b107_u64;
        let zobrist = (0..n * CODES).map(|_| splitmix(&mut state)).collect();
        let zobrist_side = splitmix(&mut state);
        Ok(Dablot {
            n,
            steps,
            jumps,
            row,
            rank,
            far_row,
            s,
            zobrist,
            zobrist_side,
        })
    }

    pub fn points(&self) -> usize {
        self.n
    }

    /// A position from its cells (piece codes 0..=16), side to move and decided result.
    pub fn position(&self, cells: &[u8], side: u8, result: Option<Outcome>) -> Result<DablotPos, Refused> {
        if cells.len() != self.n {
            return Err(Refused(format!(
                "a position needs {} cells, not {}",
                self.n,
                cells.len()
            )));
        }
        if side > 1 || cells.iter().any(|&c| c as usize >= CODES) {
            return Err(Refused("a cell holds 0 to 16 and the side to move is 0 or 1".into()));
        }
        let mut p = DablotPos {
            cells: [0; MAX_POINTS],
            side,
            result,
            hash: 0,
        };
        p.cells[..self.n].copy_from_slice(cells);
        p.hash = self.full_hash(&p);
        Ok(p)
    }

    fn full_hash(&self, p: &DablotPos) -> u64 {
        let mut h = if p.side == 1 { self.zobrist_side } else { 0 };
        for (i, &c) in p.cells[..self.n].iter().enumerate() {
            if c != 0 {
                h ^= self.zobrist[i * CODES + c as usize];
            }
        }
        h
    }

    #[inline]
    pub(crate) fn set(&self, p: &mut DablotPos, at: usize, c: u8) {
        let old = p.cells[at];
        if old != 0 {
            p.hash ^= self.zobrist[at * CODES + old as usize];
        }
        if c != 0 {
            p.hash ^= self.zobrist[at * CODES + c as usize];
        }
        p.cells[at] = c;
    }

    #[inline]
    pub(crate) fn rank_of(&self, c: u8) -> u8 {
        self.rank[kind_of(c) as usize]
    }

    #[inline]
    pub(crate) fn backward(&self, side: u8, a: usize, b: usize) -> bool {
        let dy = self.row[b] - self.row[a];
        if side == 0 {
            dy < 0
        } else {
            dy > 0
        }
    }

    /// The piece after going from its start to `land`, `went_back` if any part of the way went
    /// backwards: marked by a retreat (Officer Material), promoted on the far row.
    pub(crate) fn after_move(&self, c: u8, land: usize, went_back: bool) -> u8 {
        let side = side_of(c);
        let kind = kind_of(c);
        let mut back = marked(c);
        if kind == SOLDIER {
            if went_back && self.s.officer_material {
                back = true;
            }
            if self.s.promotion && self.far_row[side as usize][land] && !(self.s.officer_material && back) {
                return code(side, OFFICER, false);
            }
        }
        code(side, kind, back)
    }

    /// The result after `mover` moved, `captured` holding the pieces it took (as they were).
    fn decided(&self, p: &DablotPos, mover: u8, captured: &[u8]) -> Option<Outcome> {
        let foe = 1 - mover;
        let mut foes = 0;
        let mut lone_leader = false;
        for &c in &p.cells[..self.n] {
            if c != 0 && side_of(c) == foe {
                foes += 1;
                lone_leader = kind_of(c) == LEADER;
            }
        }
        if foes == 0
            || (self.s.leader_captured_loses && captured.iter().any(|&c| kind_of(c) == LEADER))
            || (self.s.bare_leader_loses && foes == 1 && lone_leader)
        {
            return Some(Outcome::Win(mover));
        }
        None
    }

    /// Every jump chain of the piece `c` (lifted from `start`) now on `at`, each prefix a move,
    /// into `out`; `taken` lists the points jumped so far and `cells` has them emptied.
    #[allow(clippy::too_many_arguments)]
    fn chains(
        &self,
        base: &DablotPos,
        cells: &mut [u8; MAX_POINTS],
        start: usize,
        at: usize,
        c: u8,
        taken: &mut Vec<usize>,
        went_back: bool,
        out: &mut Vec<DablotPos>,
    ) {
        let side = side_of(c);
        let r = self.rank_of(c);
        let onward = self.s.ever_onward && kind_of(c) == SOLDIER;
        for &(over, land) in &self.jumps[at] {
            let (over, land) = (over as usize, land as usize);
            let v = cells[over];
            if v == 0 || side_of(v) == side || self.rank_of(v) > r || cells[land] != 0 {
                continue;
            }
            let back = self.backward(side, at, land);
            if onward && back {
                continue;
            }
            taken.push(over);
            out.push(self.after_chain(base, start, land, c, taken, went_back || back));
            if self.s.chain_jumps {
                cells[over] = 0;
                self.chains(base, cells, start, land, c, taken, went_back || back, out);
                cells[over] = v;
            }
            taken.pop();
        }
    }

    fn after_chain(
        &self,
        base: &DablotPos,
        start: usize,
        land: usize,
        c: u8,
        taken: &[usize],
        went_back: bool,
    ) -> DablotPos {
        let mut p = base.clone();
        let mut captured = [0u8; MAX_POINTS];
        self.set(&mut p, start, 0);
        for (i, &x) in taken.iter().enumerate() {
            captured[i] = base.cells[x];
            self.set(&mut p, x, 0);
        }
        self.set(&mut p, land, self.after_move(c, land, went_back));
        self.finish(&mut p, base.side, &captured[..taken.len()]);
        p
    }

    pub(crate) fn finish(&self, p: &mut DablotPos, mover: u8, captured: &[u8]) {
        p.result = self.decided(p, mover, captured);
        p.side = 1 - mover;
        p.hash ^= self.zobrist_side;
    }

    /// The captures of the pieces of the side to move, soldiers' or the others'.
    fn captures(&self, p: &DablotPos, soldiers: bool, out: &mut Vec<DablotPos>) {
        let mut cells = p.cells;
        let mut taken = Vec::new();
        for a in 0..self.n {
            let c = p.cells[a];
            if c == 0 || side_of(c) != p.side || (kind_of(c) == SOLDIER) != soldiers {
                continue;
            }
            cells[a] = 0;
            self.chains(p, &mut cells, a, a, c, &mut taken, false, out);
            cells[a] = c;
        }
    }

    pub(crate) fn step_allowed(&self, p: &DablotPos, c: u8, a: usize, q: usize) -> bool {
        p.cells[q] == 0 && !(self.s.ever_onward && kind_of(c) == SOLDIER && self.backward(p.side, a, q))
    }
}

impl Dablot {
    /// Visit every jump chain of the piece on `start` (each prefix a chain of its own), in the
    /// order `core/dablot.py`'s `_chains` lists them; `visit` returns true to stop the walk.
    pub fn each_chain(&self, p: &DablotPos, start: usize, visit: &mut dyn FnMut(&ChainWalk<'_>) -> bool) {
        let c = p.cells[start];
        if c == 0 {
            return;
        }
        let mut cells = p.cells;
        cells[start] = 0;
        let mut lands = [0u8; MAX_CHAIN];
        let mut taken = [0u8; MAX_CHAIN];
        self.walk_chains(&mut cells, start, c, 0, false, &mut lands, &mut taken, visit);
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_chains(
        &self,
        cells: &mut [u8; MAX_POINTS],
        at: usize,
        c: u8,
        len: usize,
        went_back: bool,
        lands: &mut [u8; MAX_CHAIN],
        taken: &mut [u8; MAX_CHAIN],
        visit: &mut dyn FnMut(&ChainWalk<'_>) -> bool,
    ) -> bool {
        if len >= MAX_CHAIN {
            return false;
        }
        let side = side_of(c);
        let r = self.rank_of(c);
        let onward = self.s.ever_onward && kind_of(c) == SOLDIER;
        for &(over, land) in &self.jumps[at] {
            let (o, l) = (over as usize, land as usize);
            let v = cells[o];
            if v == 0 || side_of(v) == side || self.rank_of(v) > r || cells[l] != 0 {
                continue;
            }
            let back = self.backward(side, at, l);
            if onward && back {
                continue;
            }
            lands[len] = land;
            taken[len] = over;
            let walk = ChainWalk {
                lands: &lands[..=len],
                taken: &taken[..=len],
                went_back: went_back || back,
            };
            if visit(&walk) {
                return true;
            }
            if self.s.chain_jumps {
                cells[o] = 0;
                let stop = self.walk_chains(cells, l, c, len + 1, went_back || back, lands, taken, visit);
                cells[o] = v;
                if stop {
                    return true;
                }
            }
        }
        false
    }

    /// The position after the piece on `start` made the chain `walk`.
    pub fn after_walk(&self, p: &DablotPos, start: usize, walk: &ChainWalk<'_>) -> DablotPos {
        let c = p.cells[start];
        let mut child = p.clone();
        let mut captured = [0u8; MAX_CHAIN];
        self.set(&mut child, start, 0);
        for (i, &x) in walk.taken.iter().enumerate() {
            captured[i] = p.cells[x as usize];
            self.set(&mut child, x as usize, 0);
        }
        let land = *walk.lands.last().expect("a chain lands somewhere") as usize;
        self.set(&mut child, land, self.after_move(c, land, walk.went_back));
        self.finish(&mut child, p.side, &captured[..walk.taken.len()]);
        child
    }

    /// The position after the piece on `a` stepped to `q` (a legal step).
    pub fn after_step(&self, p: &DablotPos, a: usize, q: usize) -> DablotPos {
        let c = p.cells[a];
        let mut child = p.clone();
        self.set(&mut child, a, 0);
        self.set(&mut child, q, self.after_move(c, q, self.backward(p.side, a, q)));
        self.finish(&mut child, p.side, &[]);
        child
    }

    /// The position with the other side to move and nothing else changed.
    pub fn flipped(&self, p: &DablotPos) -> DablotPos {
        let mut c = p.clone();
        c.side = 1 - c.side;
        c.hash ^= self.zobrist_side;
        c
    }
}

impl ProofGame for Dablot {
    type Pos = DablotPos;
    /// A jump chain is no `Move`: the step is the position it leads to.
    type Step = DablotPos;

    fn side(&self, p: &DablotPos) -> u8 {
        p.side
    }

    fn hash(&self, p: &DablotPos) -> u64 {
        p.hash
    }

    fn quick_outcome(&self, p: &DablotPos) -> Option<Outcome> {
        p.result
    }

    fn steps(&self, p: &DablotPos, out: &mut Vec<DablotPos>) {
        out.clear();
        if p.result.is_some() {
            return;
        }
        self.captures(p, true, out);
        if self.s.soldiers_must_capture && !out.is_empty() {
            return;
        }
        for a in 0..self.n {
            let c = p.cells[a];
            if c == 0 || side_of(c) != p.side {
                continue;
            }
            for &q in &self.steps[a] {
                let q = q as usize;
                if self.step_allowed(p, c, a, q) {
                    let mut child = p.clone();
                    self.set(&mut child, a, 0);
                    self.set(&mut child, q, self.after_move(c, q, self.backward(p.side, a, q)));
                    self.finish(&mut child, p.side, &[]);
                    out.push(child);
                }
            }
        }
        self.captures(p, false, out);
    }

    fn child(&self, _p: &DablotPos, s: &DablotPos) -> DablotPos {
        s.clone()
    }

    fn no_moves_outcome(&self, p: &DablotPos) -> Outcome {
        Outcome::Win(1 - p.side)
    }

    fn has_moves(&self, p: &DablotPos) -> bool {
        if p.result.is_some() {
            return false;
        }
        for a in 0..self.n {
            let c = p.cells[a];
            if c == 0 || side_of(c) != p.side {
                continue;
            }
            if self.steps[a].iter().any(|&q| self.step_allowed(p, c, a, q as usize)) {
                return true;
            }
            let onward = self.s.ever_onward && kind_of(c) == SOLDIER;
            for &(over, land) in &self.jumps[a] {
                let v = p.cells[over as usize];
                if v != 0
                    && side_of(v) != p.side
                    && self.rank_of(v) <= self.rank_of(c)
                    && p.cells[land as usize] == 0
                    && !(onward && self.backward(p.side, a, land as usize))
                {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::prove::Prover;
    use std::collections::HashMap;

    /// A line of five points 0-1-2-3-4 (row = index: south moves up the line).
    fn line(s: Settings) -> Dablot {
        let n = 5;
        let steps = (0..n)
            .map(|p: usize| {
                [p.wrapping_sub(1), p + 1]
                    .into_iter()
                    .filter(|&q| q < n)
                    .map(|q| q as u8)
                    .collect()
            })
            .collect();
        let jumps = (0..n)
            .map(|p: usize| {
                let mut v = Vec::new();
                if p >= 2 {
                    v.push(((p - 1) as u8, (p - 2) as u8));
                }
                if p + 2 < n {
                    v.push(((p + 1) as u8, (p + 2) as u8));
                }
                v
            })
            .collect();
        let far = [(0..n).map(|p| p == n - 1).collect(), (0..n).map(|p| p == 0).collect()];
        Dablot::new(steps, jumps, (0..n as i32).collect(), [1, 2, 2, 3], far, s).unwrap()
    }

    fn all_rules() -> Settings {
        Settings {
            chain_jumps: true,
            leader_captured_loses: true,
            bare_leader_loses: true,
            ..Default::default()
        }
    }

    /// South to move on the line with `pieces` as (point, side, kind).
    fn on_line(d: &Dablot, pieces: &[(usize, u8, u8)]) -> DablotPos {
        let mut cells = [0u8; 5];
        for &(at, side, kind) in pieces {
            cells[at] = code(side, kind, false);
        }
        d.position(&cells, 0, None).unwrap()
    }

    #[test]
    fn a_chain_takes_every_piece_it_jumps_and_each_prefix_is_a_move() {
        let d = line(all_rules());
        // a south soldier on 0, north soldiers on 1 and 3
        let p = on_line(&d, &[(0, 0, SOLDIER), (1, 1, SOLDIER), (3, 1, SOLDIER)]);
        let mut out = Vec::new();
        d.steps(&p, &mut out);
        // no step (1 is taken), jump to 2, then on to 4 taking both: two moves
        assert_eq!(out.len(), 2);
        let long = out.iter().find(|c| c.cells[4] != 0).unwrap();
        assert_eq!(long.result, Some(Outcome::Win(0)), "every enemy taken");
        assert_eq!(long.hash, d.full_hash(long), "the hash follows the moves");
    }

    #[test]
    fn a_soldier_cannot_take_a_higher_rank_and_the_prover_sees_it() {
        let d = line(all_rules());
        let p = on_line(&d, &[(0, 0, SOLDIER), (1, 1, LEADER), (4, 1, SOLDIER)]);
        let mut table = HashMap::new();
        let mut prover = Prover::new(&d, 0, 0, &mut table);
        // south cannot move at all (blocked, and the leader outranks the soldier): south loses
        assert!(!d.has_moves(&p));
        assert!(!prover.wins(&p, 5).unwrap());
        let mut table = HashMap::new();
        let mut prover = Prover::new(&d, 1, 0, &mut table);
        assert!(prover.wins(&p, 1).unwrap());
    }
}

//! Dablot Prejjesne for the search: its moves on the Python rules' lattice (`crate::dablot`) and
//! the evaluation's hooks of `tafl_desktop/ai/evaluation_dablot.py` (`evaluate`, `tactics`,
//! `order_key`), term for term, so that both engines score a position alike
//! (`tests/test_native_dablot_search.py` compares them on positions from real play).
//!
//! A move is the search's one move type, two squares: a step is (from, to); a jump chain is
//! (start, points + i) for the i-th chain of that piece in the order the Python rules list them,
//! so every chain has its own move although two chains may end on the same point; the numbers
//! stop at `crate::hunt::CHAIN_LIMIT` (the chains past it are not generated).  `path` turns a
//! move back into the points it visits (the Python move).
//!
//! The tables (which jumps a soldier may make, the distances, the weights) come from the Python
//! evaluator (`tafl_desktop/native/dablot.py`), so there is one source for each of them.

use std::cell::RefCell;

use super::{Family, Move, Outcome, Tactic};
use crate::dablot::{kind_of, marked, side_of, ChainWalk, Dablot, DablotPos, LEADER, SOLDIER};
use crate::hunt::CHAIN_LIMIT;

/// The evaluation's weights, named as `DablotWeights` names them.
#[derive(Clone, Debug, Default)]
pub struct Weights {
    pub backed: i32,
    pub advance: i32,
    pub space: i32,
    pub mobility: i32,
    pub trade: i32,
    pub hunt: i32,
    pub mop_up: i32,
    pub bare: i32,
    pub cash: i32,
    pub tempo: i32,
    pub squeeze: i32,
}

/// The Python evaluator's tables for one board and rule set.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// Per piece code (0 empty, 1 to 16): its value and its rank.
    pub value: [i32; 17],
    pub rank: [u8; 17],
    /// Per side and point: the jumps a soldier may make (all of them, or forward only).
    pub soldier_jumps: [Vec<Vec<(u8, u8)>>; 2],
    /// Per point: (front, land) pairs, an enemy on front jumping the piece onto land.
    pub jumped_from: Vec<Vec<(u8, u8)>>,
    /// Per side and point: rows to go to the far edge.
    pub to_go: [Vec<i32>; 2],
    pub depth_rows: i32,
    /// Per pair of points: the king's-move distance, and the steps along the lines.
    pub dist: Vec<Vec<i32>>,
    pub far: i32,
    pub walk: Vec<Vec<i32>>,
    pub far_walk: i32,
    pub start_total: i32,
    pub mop_up_cap: i32,
    pub mop_up_from: i32,
    pub mop_up_full: i32,
    pub onward: bool,
    pub promotion: bool,
    pub officer_material: bool,
    pub leader_loses: bool,
    pub bare_loses: bool,
    pub weights: Weights,
    /// The side behind's free steps below which the squeeze counts (`SQUEEZE_FROM` in Python).
    pub squeeze_from: i32,
}

/// The rules and the evaluation of one Dablot variant.
pub struct DablotFamily {
    pub game: Dablot,
    pub tables: Tables,
}

/// What the ordering needs of a position: the captures' values, by move.
pub struct Orderer {
    captures: Vec<(Move, i32)>,
}

thread_local! {
    static OWN_MOVES: RefCell<Vec<Move>> = const { RefCell::new(Vec::new()) };
}

/// Python's floor division (the evaluation's `//`) for a positive divisor.
#[inline]
fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

impl DablotFamily {
    fn n(&self) -> usize {
        self.game.n
    }

    /// The chains of the piece on `a` as moves, with what each takes (the pieces' values), in
    /// the Python rules' order.
    fn chains_of(&self, p: &DablotPos, a: usize, out: &mut Vec<Move>, mut taken_value: Option<&mut Vec<(Move, i32)>>) {
        let mut to = self.n();
        let value = &self.tables.value;
        self.game.each_chain(p, a, &mut |w: &ChainWalk<'_>| {
            let m = Move::new(a, to);
            out.push(m);
            if let Some(tv) = taken_value.as_deref_mut() {
                let v: i32 = w.taken.iter().map(|&x| value[p.cells[x as usize] as usize]).sum();
                tv.push((m, v));
            }
            to += 1;
            to >= CHAIN_LIMIT
        });
    }

    /// Every capture of the side to move, soldiers' or the other pieces'.
    fn captures(&self, p: &DablotPos, soldiers: bool, out: &mut Vec<Move>) {
        for a in 0..self.n() {
            let c = p.cells[a];
            if c != 0 && side_of(c) == p.side && (kind_of(c) == SOLDIER) == soldiers {
                self.chains_of(p, a, out, None);
            }
        }
    }

    /// The chain a move names, handed to `f` (None for a step or a move no chain has).
    fn with_chain<R>(&self, p: &DablotPos, m: Move, f: impl FnOnce(&ChainWalk<'_>) -> R) -> Option<R> {
        let n = self.n();
        let (a, to) = (m.from.index(), m.to.index());
        if to < n || a >= n {
            return None;
        }
        let wanted = to - n;
        let mut i = 0;
        let mut f = Some(f);
        let mut out = None;
        self.game.each_chain(p, a, &mut |w: &ChainWalk<'_>| {
            if i == wanted {
                if let Some(f) = f.take() {
                    out = Some(f(w));
                }
                return true;
            }
            i += 1;
            false
        });
        out
    }

    /// The points a move visits: the Python rules' move.
    pub fn path(&self, p: &DablotPos, m: Move) -> Vec<usize> {
        let a = m.from.index();
        if m.to.index() < self.n() {
            return vec![a, m.to.index()];
        }
        self.with_chain(p, m, |w| {
            let mut v = vec![a];
            v.extend(w.lands.iter().map(|&x| x as usize));
            v
        })
        .unwrap_or_default()
    }

    /// The move that visits `path` in `p`, if it is legal there.
    pub fn move_of(&self, p: &DablotPos, path: &[usize]) -> Option<Move> {
        let mut legal = Vec::new();
        self.moves(p, &mut legal);
        legal.into_iter().find(|&m| self.path(p, m) == path)
    }

    /// The points a move captures.
    fn captured(&self, p: &DablotPos, m: Move, out: &mut Vec<usize>) {
        out.clear();
        self.with_chain(p, m, |w| out.extend(w.taken.iter().map(|&x| x as usize)));
    }

    fn leader_at(&self, p: &DablotPos, side: u8) -> Option<usize> {
        (0..self.n()).find(|&q| {
            let c = p.cells[q];
            c != 0 && kind_of(c) == LEADER && side_of(c) == side
        })
    }

    /// Could the enemy of the leader on `victim` take him next move?  (`_leader_threat_near`.)
    fn leader_threat_near(&self, p: &DablotPos, victim: usize) -> bool {
        let t = &self.tables;
        let cells = &p.cells;
        let vside = side_of(cells[victim]);
        let need = t.rank[cells[victim] as usize];
        for &(fr, la) in &t.jumped_from[victim] {
            let c = cells[fr as usize];
            if c != 0 && side_of(c) != vside && cells[la as usize] == 0 && t.rank[c as usize] >= need {
                return true;
            }
        }
        if !self.game.s.chain_jumps {
            return false;
        }
        // the first enemy piece of his rank or more answers (as the Python evaluator does)
        for (q, &c) in cells[..self.n()].iter().enumerate() {
            if c != 0 && side_of(c) != vside && t.rank[c as usize] >= need {
                let mut scratch = p.cells;
                return self.chain_reaches(&mut scratch, q, t.rank[c as usize], vside, victim, 6);
            }
        }
        false
    }

    fn chain_reaches(
        &self,
        cells: &mut [u8; crate::dablot::MAX_POINTS],
        a: usize,
        rank: u8,
        vside: u8,
        victim: usize,
        budget: i32,
    ) -> bool {
        if budget <= 0 {
            return false;
        }
        for &(ov, la) in &self.game.jumps[a] {
            let (ov, la) = (ov as usize, la as usize);
            let v = cells[ov];
            if v != 0 && side_of(v) == vside && self.tables.rank[v as usize] <= rank && cells[la] == 0 {
                if ov == victim {
                    return true;
                }
                cells[ov] = 0;
                let found = self.chain_reaches(cells, la, rank, vside, victim, budget - 1);
                cells[ov] = v;
                if found {
                    return true;
                }
            }
        }
        false
    }

    /// The first of `moves` that captures the piece on `target`.
    fn takes_leader(&self, p: &DablotPos, moves: &[Move], target: usize) -> Option<Move> {
        let mut caps = Vec::new();
        moves.iter().copied().find(|&m| {
            self.captured(p, m, &mut caps);
            caps.contains(&target)
        })
    }

    /// With the other side to move in `p`'s place, could it take the leader of the side to move?
    fn threatened(&self, p: &DablotPos) -> bool {
        let Some(lp) = self.leader_at(p, p.side) else {
            return false;
        };
        if !self.leader_threat_near(p, lp) {
            return false;
        }
        if !self.game.s.soldiers_must_capture {
            return true;
        }
        let flipped = self.game.flipped(p);
        let mut moves = Vec::new();
        self.moves(&flipped, &mut moves);
        self.takes_leader(&flipped, &moves, lp).is_some()
    }

    fn tactics_into(
        &self,
        p: &DablotPos,
        given: Option<&[Move]>,
        forced: &mut Vec<Move>,
        own: &mut Vec<Move>,
    ) -> Tactic {
        let t = &self.tables;
        let me = p.side;
        let mut foe_count = 0;
        let mut foe_leader = None;
        for q in 0..self.n() {
            let c = p.cells[q];
            if c != 0 && side_of(c) != me {
                foe_count += 1;
                if kind_of(c) == LEADER {
                    foe_leader = Some(q);
                }
            }
        }
        let mut generated = false;
        let mut moves_of = |own: &mut Vec<Move>| {
            if given.is_none() && !generated {
                self.moves(p, own);
                generated = true;
            }
        };
        if t.leader_loses {
            if let Some(fl) = foe_leader.filter(|&fl| self.leader_threat_near(p, fl)) {
                moves_of(own);
                let moves: &[Move] = given.unwrap_or(&own[..]);
                if let Some(m) = self.takes_leader(p, moves, fl) {
                    return Tactic::WinNow(m);
                }
            }
        }
        if foe_count <= 4 {
            moves_of(own);
            let moves: &[Move] = given.unwrap_or(&own[..]);
            for &m in moves {
                if m.to.index() >= self.n() {
                    let (next, _) = self.play(p, m);
                    if next.result == Some(Outcome::Win(me)) {
                        return Tactic::WinNow(m);
                    }
                }
            }
        }
        if t.leader_loses && self.threatened(p) {
            moves_of(own);
            let moves: &[Move] = given.unwrap_or(&own[..]);
            if moves.is_empty() {
                return Tactic::Terminal(self.no_moves_outcome(p));
            }
            let mut replies = Vec::new();
            for &m in moves {
                let (next, _) = self.play(p, m);
                if next.result.is_some() {
                    forced.push(m);
                    continue;
                }
                let Some(lp) = self.leader_at(&next, me) else {
                    continue;
                };
                if !self.leader_threat_near(&next, lp) {
                    forced.push(m);
                    continue;
                }
                if self.game.s.soldiers_must_capture {
                    replies.clear();
                    self.moves(&next, &mut replies);
                    if self.takes_leader(&next, &replies, lp).is_none() {
                        forced.push(m);
                    }
                }
            }
            return Tactic::Forced;
        }
        Tactic::Quiet
    }

    /// The static score from South's view (`DablotEvaluator.south_score`).
    pub fn south_score(&self, p: &DablotPos) -> i32 {
        let t = &self.tables;
        let w = &t.weights;
        let n = self.n();
        let cells = &p.cells;
        let mut mat = [0i32; 2];
        let mut count = [0i32; 2];
        let mut backed = [0i32; 2];
        let mut adv = [0i32; 2];
        let mut best_gain = [0i32; 2];
        let mut hanging: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
        let mut hit = [false; crate::dablot::MAX_POINTS];
        let mut shut = [false; crate::dablot::MAX_POINTS];
        let mut mob = [0i32; 2];
        let count_steps = w.mobility != 0 || w.mop_up != 0 || w.squeeze != 0;
        for q in 0..n {
            let c = cells[q];
            if c == 0 {
                continue;
            }
            let s = side_of(c) as usize;
            let cu = c as usize;
            mat[s] += t.value[cu];
            count[s] += 1;
            let soldier = kind_of(c) == SOLDIER;
            let rk = t.rank[cu];
            let js = if t.onward && soldier {
                &t.soldier_jumps[s][q]
            } else {
                &self.game.jumps[q]
            };
            for &(ov, la) in js {
                let v = cells[ov as usize];
                if v != 0 && side_of(v) as usize != s && t.rank[v as usize] <= rk && cells[la as usize] == 0 {
                    best_gain[s] = best_gain[s].max(t.value[v as usize]);
                    if !hit[ov as usize] {
                        hit[ov as usize] = true;
                        hanging[1 - s].push(t.value[v as usize]);
                    }
                }
            }
            let safe = t.jumped_from[q].iter().all(|&(fr, la)| {
                let f = cells[fr as usize];
                cells[la as usize] != 0 || (f != 0 && side_of(f) as usize == s)
            });
            if safe {
                backed[s] += 1;
                shut[q] = true;
            }
            if soldier && !(t.promotion && t.officer_material && marked(c)) {
                adv[s] += t.depth_rows - t.to_go[s][q];
            }
            if count_steps {
                mob[s] += self.game.steps[q].iter().filter(|&&x| cells[x as usize] == 0).count() as i32;
            }
        }
        let advance = if t.promotion { w.advance } else { w.space };
        let mut score = mat[0] - mat[1]
            + w.backed * (backed[0] - backed[1])
            + advance * (adv[0] - adv[1])
            + w.mobility * (mob[0] - mob[1]);
        let total = count[0] + count[1];
        let lead = mat[0] - mat[1];
        if lead != 0 && total < t.start_total {
            score += floor_div(
                lead as i64 * w.trade as i64 * (t.start_total - total) as i64,
                100 * t.start_total as i64,
            ) as i32;
        }
        if w.hunt != 0 && (total * 2 <= t.start_total || lead.abs() > t.mop_up_from) {
            score += w.hunt * self.hunt(p, lead, &shut);
        }
        if w.mop_up != 0 && lead.abs() > t.mop_up_from {
            score += self.mop_up(p, lead, &mob);
        }
        if w.squeeze != 0 && lead.abs() > t.mop_up_from {
            // the side behind's last free steps (`squeeze` in Python)
            let short = (t.squeeze_from - mob[usize::from(lead > 0)]).max(0);
            let term = w.squeeze * short * short;
            score += if lead > 0 { term } else { -term };
        }
        if t.bare_loses {
            for (s, sign) in [(0usize, 1i32), (1, -1)] {
                let others = count[s] - 1;
                if others < 3 {
                    score -= sign * w.bare * (3 - others);
                }
            }
        }
        let me = p.side as usize;
        let mine = &mut hanging[me];
        mine.sort_unstable_by(|a, b| b.cmp(a));
        let t1 = mine.first().copied().unwrap_or(0);
        let t2 = mine.get(1).copied().unwrap_or(0);
        let est = floor_div((best_gain[me] - t1).max(-t2) as i64 * w.cash as i64, 100) as i32;
        score += if me == 0 { est } else { -est };
        score += if me == 0 { w.tempo } else { -w.tempo };
        score
    }

    /// The ending: the side ahead's high-ranked pieces near the enemy pieces they may take where
    /// they stand (not those no line lets anyone jump, `shut`; the leader where taking him wins).
    fn hunt(&self, p: &DablotPos, lead: i32, shut: &[bool]) -> i32 {
        if lead == 0 {
            return 0;
        }
        let t = &self.tables;
        let hunter = if lead > 0 { 0 } else { 1 };
        let cells = &p.cells[..self.n()];
        let mut total = 0;
        for (q, &c) in cells.iter().enumerate() {
            if c == 0 || side_of(c) != hunter || kind_of(c) == SOLDIER {
                continue;
            }
            let rk = t.rank[c as usize];
            let best = cells
                .iter()
                .enumerate()
                .filter(|&(x, &v)| {
                    v != 0
                        && side_of(v) != hunter
                        && !shut[x]
                        && (t.leader_loses || kind_of(v) != LEADER)
                        && t.rank[v as usize] <= rk
                })
                .map(|(x, _)| t.dist[q][x])
                .min()
                .unwrap_or(0);
            total += t.far - best;
        }
        if hunter == 0 {
            total
        } else {
            -total
        }
    }

    /// The mop-up: the enemy pieces' distance from the nearest piece that may take them, and
    /// their free steps, against the most there could be.
    fn mop_up(&self, p: &DablotPos, lead: i32, room: &[i32; 2]) -> i32 {
        let t = &self.tables;
        let hunter = if lead > 0 { 0u8 } else { 1 };
        let cells = &p.cells[..self.n()];
        let mut apart = 0;
        for (q, &c) in cells.iter().enumerate() {
            if c == 0 || side_of(c) == hunter || (t.bare_loses && kind_of(c) == LEADER) {
                continue;
            }
            let rk = t.rank[c as usize];
            apart += cells
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0 && side_of(v) == hunter && t.rank[v as usize] >= rk)
                .map(|(x, _)| t.walk[q][x])
                .min()
                .unwrap_or(t.far_walk);
        }
        let credit = t.mop_up_cap - apart - room[1 - hunter as usize];
        let span = t.mop_up_full - t.mop_up_from;
        let ramp = (lead.abs() - t.mop_up_from).min(span);
        let term = floor_div(t.weights.mop_up as i64 * credit as i64 * ramp as i64, span as i64) as i32;
        if hunter == 0 {
            term
        } else {
            -term
        }
    }
}

impl Family for DablotFamily {
    type Pos = DablotPos;
    type Order = Orderer;

    fn side(&self, p: &DablotPos) -> u8 {
        p.side
    }

    fn hash(&self, p: &DablotPos) -> u64 {
        p.hash
    }

    fn quick_outcome(&self, p: &DablotPos) -> Option<Outcome> {
        p.result
    }

    /// The Python rules' order: steps point by point, then every capture (only soldiers'
    /// captures where soldiers must capture and one can).
    fn moves(&self, p: &DablotPos, out: &mut Vec<Move>) {
        if p.result.is_some() {
            return;
        }
        let start = out.len();
        if self.game.s.soldiers_must_capture {
            self.captures(p, true, out);
            if out.len() > start {
                return;
            }
        }
        for a in 0..self.n() {
            let c = p.cells[a];
            if c == 0 || side_of(c) != p.side {
                continue;
            }
            for &q in &self.game.steps[a] {
                if self.game.step_allowed(p, c, a, q as usize) {
                    out.push(Move::new(a, q as usize));
                }
            }
        }
        for a in 0..self.n() {
            let c = p.cells[a];
            if c != 0 && side_of(c) == p.side {
                self.chains_of(p, a, out, None);
            }
        }
    }

    fn play(&self, p: &DablotPos, m: Move) -> (DablotPos, bool) {
        let (a, to) = (m.from.index(), m.to.index());
        if to < self.n() {
            return (self.game.after_step(p, a, to), false);
        }
        match self.with_chain(p, m, |w| self.game.after_walk(p, a, w)) {
            Some(child) => (child, true),
            None => panic!("the move ({a}, {to}) names no chain of the position"),
        }
    }

    fn no_moves_outcome(&self, p: &DablotPos) -> Outcome {
        Outcome::Win(1 - p.side)
    }

    fn has_moves(&self, p: &DablotPos) -> bool {
        crate::search::prove::ProofGame::has_moves(&self.game, p)
    }

    fn repetition_outcome(&self, _p: &DablotPos, count: u32) -> Option<Outcome> {
        (self.game.s.repetition_draw && count >= 3).then_some(Outcome::Draw)
    }

    fn evaluate(&self, p: &DablotPos) -> i32 {
        let s = self.south_score(p);
        if p.side == 0 {
            s
        } else {
            -s
        }
    }

    fn tactics(&self, p: &DablotPos, moves: Option<&[Move]>, forced: &mut Vec<Move>) -> Tactic {
        OWN_MOVES.with(|own| {
            let mut own = own.borrow_mut();
            own.clear();
            self.tactics_into(p, moves, forced, &mut own)
        })
    }

    fn orderer(&self, p: &DablotPos) -> Orderer {
        let mut captures = Vec::new();
        let mut scratch = Vec::new();
        for a in 0..self.n() {
            let c = p.cells[a];
            if c != 0 && side_of(c) == p.side {
                self.chains_of(p, a, &mut scratch, Some(&mut captures));
            }
        }
        Orderer { captures }
    }

    /// Captures first, by the value they take (`DablotEvaluator.order_key`).
    fn order_key(&self, o: &Orderer, m: Move) -> i32 {
        if m.to.index() < self.n() {
            return 0;
        }
        1000 + o.captures.iter().find(|&&(c, _)| c == m).map_or(0, |&(_, v)| v)
    }

    fn predicts_capture(&self, _o: &Orderer, m: Move) -> bool {
        m.to.index() >= self.n()
    }

    fn capture_moves(&self, p: &DablotPos, o: &Orderer, out: &mut Vec<Move>) {
        out.clear();
        if p.result.is_some() {
            return;
        }
        // where soldiers must capture, the others' captures are no moves while one can
        let soldiers_only = self.game.s.soldiers_must_capture
            && o.captures
                .iter()
                .any(|&(m, _)| kind_of(p.cells[m.from.index()]) == SOLDIER);
        out.extend(
            o.captures
                .iter()
                .filter(|&&(m, _)| !soldiers_only || kind_of(p.cells[m.from.index()]) == SOLDIER)
                .map(|&(m, _)| m),
        );
    }

    /// No null move: a side that runs out of moves loses, so passing is never a fair test.
    fn null_move(&self, _p: &DablotPos) -> Option<DablotPos> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dablot::{code, Settings};

    /// A 3x3 square of points joined along rows and columns (row = index / 3): a piece on a
    /// corner can reach the opposite corner by two chains, over different pieces.
    fn square() -> DablotFamily {
        let n = 9;
        let (x, y) = (|p: usize| p % 3, |p: usize| p / 3);
        let at = |cx: i32, cy: i32| (0..3).contains(&cx) && (0..3).contains(&cy);
        let mut steps = vec![Vec::new(); n];
        let mut jumps = vec![Vec::new(); n];
        for p in 0..n {
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (px, py) = (x(p) as i32, y(p) as i32);
                if at(px + dx, py + dy) {
                    steps[p].push(((py + dy) * 3 + px + dx) as u8);
                }
                if at(px + 2 * dx, py + 2 * dy) {
                    jumps[p].push((((py + dy) * 3 + px + dx) as u8, ((py + 2 * dy) * 3 + px + 2 * dx) as u8));
                }
            }
        }
        let far = [(0..n).map(|p| y(p) == 2).collect(), (0..n).map(|p| y(p) == 0).collect()];
        let settings = Settings {
            chain_jumps: true,
            ..Default::default()
        };
        let rows = (0..n).map(|p| y(p) as i32).collect();
        let game = Dablot::new(steps, jumps, rows, [1, 2, 2, 3], far, settings).unwrap();
        DablotFamily {
            game,
            tables: Tables::default(),
        }
    }

    #[test]
    fn two_chains_to_the_same_point_are_two_moves_that_play_back_as_themselves() {
        let fam = square();
        // South's son on 0; North's soldiers on 1, 3, 5, 7 (and one more on 4, out of reach)
        let mut cells = [0u8; 9];
        cells[0] = code(0, 2, false);
        for p in [1, 3, 4, 5, 7] {
            cells[p] = code(1, 0, false);
        }
        let p = fam.game.position(&cells, 0, None).unwrap();
        let mut moves = Vec::new();
        fam.moves(&p, &mut moves);
        let paths: Vec<Vec<usize>> = moves.iter().map(|&m| fam.path(&p, m)).collect();
        // the start is empty while the piece jumps, so a chain may come round to it again
        let expected: Vec<Vec<usize>> = vec![
            vec![0, 2],
            vec![0, 2, 8],
            vec![0, 2, 8, 6],
            vec![0, 2, 8, 6, 0],
            vec![0, 6],
            vec![0, 6, 8],
            vec![0, 6, 8, 2],
            vec![0, 6, 8, 2, 0],
        ];
        assert_eq!(paths, expected);
        let to_eight: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| fam.path(&p, m).last() == Some(&8))
            .collect();
        assert_eq!(to_eight.len(), 2);
        assert_ne!(to_eight[0], to_eight[1], "each chain has its own move");
        let left = |m: Move| {
            let (c, captured) = fam.play(&p, m);
            assert!(captured);
            assert_eq!(crate::search::prove::ProofGame::hash(&fam.game, &c), c.hash);
            (0..9)
                .filter(|&q| c.cells[q] != 0 && side_of(c.cells[q]) == 1)
                .collect::<Vec<_>>()
        };
        assert_eq!(left(to_eight[0]), vec![3, 4, 7], "over 1 and 5");
        assert_eq!(left(to_eight[1]), vec![1, 4, 5], "over 3 and 7");
        for (m, path) in moves.iter().zip(&paths) {
            assert_eq!(fam.move_of(&p, path), Some(*m), "a path names its move again");
        }
        assert_eq!(fam.move_of(&p, &[0, 4, 8]), None);
    }
}

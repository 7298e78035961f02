//! The native search: iterative deepening principal-variation search over any game family.
//!
//! It is the algorithm of `tafl_desktop/ai/search.py` (and `multipv.py`), compiled: negamax with
//! PVS, a transposition table, move ordering (table move, killers, history, the family's static
//! hints, captures and king moves first), late-move reductions for the selective levels (at the
//! root too, which the Python search does not do: it never reaches the depths where that pays), a
//! quiescence search along forcing lines (a king route to block, a king capture) and along
//! captures, multi-PV roots, proven results as mate scores, and limits by time, depth or nodes.
//!
//! A family (Tafl now; the Fox games and Dablot could follow) implements [`Family`]: its moves,
//! positions, hashing, outcomes and evaluation hooks.  The search knows nothing else of a game.
//!
//! Determinism: with one thread and a node limit, the nodes counted, the order moves are tried in
//! and the table are all independent of the clock and the machine, so the same call gives the
//! same move everywhere (the Rules Lab and puzzle mining rely on it).  With more threads
//! (Lazy SMP) helpers search the same root at staggered depths, sharing the table; faster, but
//! not reproducible.

pub mod dablot;
pub mod hunt;
pub mod prove;
pub mod tafl;
#[cfg(test)]
mod tafl_tests;
#[cfg(test)]
mod tests;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use tt::{Entry, Table, EXACT, LOWER, UPPER};

/// A move: the rules' one move type (two squares), for every family; "no move" (an empty table
/// slot, a killer not yet found) is `Option<Move>::None`, four bytes like the move itself.
pub use crate::rules::Move;

pub const MATE: i32 = 100_000;
/// Scores beyond this are wins or losses in a known number of plies.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub const INF: i32 = 10 * MATE;
pub const MAX_PLY: usize = 128;
/// Forcing plies the quiescence search may add past the horizon.
pub const QUIESCENCE_PLIES: i32 = 6;
/// Of those, how many may be plain captures (escape blocks and king captures are not counted).
pub const QUIESCENCE_CAPTURES: i32 = 2;
/// Moves picked one by one (best of the rest) before the rest of a node's moves are sorted.
const STAGED_PICKS: usize = 4;
/// A capture past the horizon is not tried where the score would still be this far below alpha.
pub const CAPTURE_DELTA: i32 = 350;
/// Iterations up to this depth are always full width, selective search or not (the Python
/// search keeps 4: its shallow iterations are all it reaches; here they are over in a blink).
pub const FULL_WIDTH_DEPTH: i32 = 2;
/// Moves searched at full depth before late-move reductions start.
pub const LMR_AFTER: usize = 3;
/// Moves the family's ordering rates this high or higher (captures, king moves, threats) are
/// never reduced.
pub const LMR_QUIET_KEY: i32 = 200;
/// A repeat's score for the side the repetition rule does not oblige to break the cycle: the
/// position just repeated would be the first to reach the rule's count, made by the same side
/// each time, so under a rule that decides repetition for one side its opponent must leave the
/// cycle; more than any quiet positional difference, and no better for the obliged side than the
/// position's own score; less than a proven result (`Searcher._repetition` in Python, issue 44).
pub const CYCLE_BREAK: i32 = 1000;
/// How often (in nodes) the clock and the caller's stop request are looked at.
const CHECK_EVERY: u64 = 2048;
/// With several threads and a node limit, each thread takes nodes from the shared budget in
/// chunks of at most this many (smaller for small limits): a limit is never passed.
const BUDGET_CHUNK: u64 = 256;

/// How a game ended: a side won, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(u8),
    Draw,
}

/// Forcing facts about a position (see `evaluation_tafl.tactics` in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactic {
    Quiet,
    /// The side to move wins with this move.
    WinNow(Move),
    /// Only the moves the family wrote into the buffer parry a threat (none: lost).
    Forced,
    Terminal(Outcome),
}

/// What the search needs of a game family.
pub trait Family: Sync {
    type Pos: Clone + Send + Sync;
    type Order;
    fn side(&self, p: &Self::Pos) -> u8;
    fn hash(&self, p: &Self::Pos) -> u64;
    /// What is decided without generating moves (the last move's result, a draw rule).
    fn quick_outcome(&self, p: &Self::Pos) -> Option<Outcome>;
    fn moves(&self, p: &Self::Pos, out: &mut Vec<Move>);
    /// The position after a legal move, and whether it captured.
    fn play(&self, p: &Self::Pos, m: Move) -> (Self::Pos, bool);
    fn no_moves_outcome(&self, p: &Self::Pos) -> Outcome;
    /// Whether the side to move has a legal move (the prover asks it of every child).
    fn has_moves(&self, p: &Self::Pos) -> bool {
        let mut moves = Vec::new();
        self.moves(p, &mut moves);
        !moves.is_empty()
    }
    /// The repetition rule's verdict when `p` occurs for the `count`-th time.
    fn repetition_outcome(&self, p: &Self::Pos, count: u32) -> Option<Outcome>;
    fn evaluate(&self, p: &Self::Pos) -> i32;
    /// `moves` are the legal moves if the caller has them; forced replies go into `forced`.
    fn tactics(&self, p: &Self::Pos, moves: Option<&[Move]>, forced: &mut Vec<Move>) -> Tactic;
    fn orderer(&self, p: &Self::Pos) -> Self::Order;
    fn order_key(&self, o: &Self::Order, m: Move) -> i32;
    /// Is the move predicted to capture (the quiescence search's candidates)?
    fn predicts_capture(&self, o: &Self::Order, m: Move) -> bool;
    /// The moves predicted to capture (the quiescence search's candidates), into `out`.
    fn capture_moves(&self, p: &Self::Pos, o: &Self::Order, out: &mut Vec<Move>) {
        out.clear();
        self.moves(p, out);
        out.retain(|&m| self.predicts_capture(o, m));
    }
    /// The position with the other side to move and nothing else changed (null-move pruning),
    /// or None where passing makes no sense for the family or position.
    fn null_move(&self, p: &Self::Pos) -> Option<Self::Pos>;
}

/// When to stop (the first limit reached ends the search) and how to choose.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Seconds (0: none).
    pub time: f64,
    pub depth: i32,
    /// Nodes (0: none).
    pub nodes: u64,
    pub quiescence: bool,
    /// Root moves within this many units of the best get exact scores (a weak level's choice).
    pub margin: i32,
    /// How many best lines get exact scores (multi-PV).
    pub lines: usize,
    /// Beyond FULL_WIDTH_DEPTH, reduce late quiet moves by a ply.
    pub selective: bool,
    /// Follow captures in the quiescence search (besides the forcing lines).
    pub captures: bool,
    /// Search threads (Lazy SMP); 1 is reproducible at a node limit.
    pub threads: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: 5.0,
            depth: 64,
            nodes: 0,
            quiescence: true,
            margin: 0,
            lines: 1,
            selective: false,
            captures: true,
            threads: 1,
        }
    }
}

/// The answer of a search (or of one finished iteration, for progress reports).
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub seconds: f64,
    pub pv: Vec<Move>,
    /// Root moves within the margin of the best, best first.
    pub candidates: Vec<(Move, i32)>,
    /// Every root move of the last finished iteration with its score, best first (the best
    /// `lines` exact, the others bounds).
    pub scored: Vec<(Move, i32)>,
    pub finished_depth: i32,
    /// The principal variations of the best `lines` moves of `scored`.
    pub pvs: Vec<Vec<Move>>,
    pub full_width_depth: i32,
    /// "", "time", "nodes", "cancelled", "depth" (the depth asked), "proven" (`settled`), "forced"
    pub stopped: &'static str,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Time,
    Nodes,
    Cancelled,
    Helper,
}

/// Shared between the threads of one search.
struct Shared<'a> {
    table: &'a Table,
    stop: AtomicBool,
    nodes: AtomicU64,
    /// Nodes not yet handed to a thread, when several threads search under a node limit.
    budget: AtomicU64,
}

/// One thread's search state.
struct Worker<'a, 'p, F: Family> {
    fam: &'a F,
    shared: &'a Shared<'a>,
    main: bool,
    limits: Limits,
    qmax: i32,
    t0: Instant,
    deadline: Option<Instant>,
    nodes: u64,
    /// A helper's nodes already added to the shared count.
    reported: u64,
    reduce: bool,
    /// Nodes this thread took from the shared budget and has not searched yet (threaded node
    /// limit only: `budget_chunk` > 0).
    allowance: u64,
    budget_chunk: u64,
    stop_reason: Option<Stop>,
    poll: Option<&'p mut (dyn FnMut() -> bool + Send + 'p)>,
    killers: Vec<[Option<Move>; 2]>,
    history: &'a mut History,
    game_counts: &'a [(u64, u32)],
    path: Vec<u64>,
    buffers: Vec<Vec<Move>>,
    forced: Vec<Vec<Move>>,
    /// Per ply: was the move that led here a null move (no two in a row)?
    nulls: Vec<bool>,
    /// Per ply: the ordering keys of the node's moves, and its moves in generation order (the
    /// keys point into it).
    sort_keys: Vec<Vec<i64>>,
    unsorted: Vec<Vec<Move>>,
    /// Bit `hash % 64` set for every position of the game so far: most nodes skip the lookup.
    game_bloom: u64,
    partial: Vec<(Move, i32)>,
    /// Per ply: the principal variation below the node (a triangle: a node's line is its best
    /// move and its child's line), written only where a move raises alpha on a full window.
    lines: Vec<Vec<Move>>,
    /// The line under each root move of the iteration under way, and of the last finished one:
    /// the lines shown come from these, not from the table alone, whose entries another
    /// thread's stores may have replaced by the time they are read.
    partial_lines: Vec<(Move, Vec<Move>)>,
    root_lines: Vec<(Move, Vec<Move>)>,
}

/// History counters per side and (from, to), kept (halved) between searches.
pub struct History {
    squares: usize,
    v: Vec<i32>,
}

impl History {
    pub fn new(squares: usize) -> Self {
        History {
            squares,
            v: vec![0; 2 * squares * squares],
        }
    }
    /// A move's counter; a family whose moves name more than squares (Dablot's and the Fox
    /// games' jump chains, `points + i`) shares a counter between moves equal modulo the points
    /// (an ordering hint only: a shared counter costs no correctness).
    #[inline]
    fn idx(&self, side: u8, m: Move) -> usize {
        (side as usize * self.squares + m.from.index() % self.squares) * self.squares + m.to.index() % self.squares
    }
    #[inline]
    fn get(&self, side: u8, m: Move) -> i32 {
        self.v[self.idx(side, m)]
    }
    #[inline]
    fn add(&mut self, side: u8, m: Move, d: i32) {
        let i = self.idx(side, m);
        self.v[i] = (self.v[i] + d).min(1 << 24);
    }
    pub fn age(&mut self) {
        for x in self.v.iter_mut() {
            *x >>= 1;
        }
    }
}

type Abort = Stop;

impl<F: Family> Worker<'_, '_, F> {
    #[inline]
    fn terminal(&self, p: &F::Pos, out: Outcome, ply: i32) -> i32 {
        match out {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == self.fam.side(p) => MATE - ply,
            Outcome::Win(_) => -(MATE - ply),
        }
    }

    #[inline]
    fn count_node(&mut self) -> Result<(), Abort> {
        if self.budget_chunk > 0 {
            self.take_budget()?;
        }
        self.nodes += 1;
        if self.main && self.budget_chunk == 0 && self.limits.nodes > 0 && self.nodes >= self.limits.nodes {
            self.stop_reason = Some(Stop::Nodes);
            return Err(Stop::Nodes);
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check()?;
        }
        Ok(())
    }

    /// One node from this thread's allowance, taking another chunk of the shared budget when
    /// it is spent; when the budget is empty the search stops (the main thread says why, a
    /// helper tells the others), so all threads together search at most the limit.
    fn take_budget(&mut self) -> Result<(), Abort> {
        if self.allowance == 0 {
            let chunk = self.budget_chunk;
            let taken = self
                .shared
                .budget
                .fetch_update(Relaxed, Relaxed, |left| {
                    if left == 0 {
                        None
                    } else {
                        Some(left - left.min(chunk))
                    }
                })
                .map_or(0, |left| left.min(chunk));
            if taken == 0 {
                self.shared.stop.store(true, Relaxed);
                if self.main {
                    self.stop_reason = Some(Stop::Nodes);
                    return Err(Stop::Nodes);
                }
                return Err(Stop::Helper);
            }
            self.allowance = taken;
        }
        self.allowance -= 1;
        Ok(())
    }

    fn check(&mut self) -> Result<(), Abort> {
        if !self.main {
            // a helper's nodes count in the progress reports as it goes
            self.shared.nodes.fetch_add(self.nodes - self.reported, Relaxed);
            self.reported = self.nodes;
            if self.shared.stop.load(Relaxed) {
                return Err(Stop::Helper);
            }
            return Ok(());
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                self.stop_reason = Some(Stop::Time);
                return Err(Stop::Time);
            }
        }
        if let Some(poll) = self.poll.as_mut() {
            if poll() {
                self.stop_reason = Some(Stop::Cancelled);
                return Err(Stop::Cancelled);
            }
        }
        Ok(())
    }

    fn repetition(&self, p: &F::Pos, key: u64, ply: i32) -> Option<i32> {
        let in_path = self.path.iter().filter(|&&k| k == key).count() as u32;
        let in_game = if self.game_bloom >> (key % 64) & 1 == 1 {
            self.game_counts.iter().find(|(k, _)| *k == key).map_or(0, |(_, c)| *c)
        } else {
            0
        };
        if in_path == 0 && in_game == 0 {
            return None;
        }
        let count = in_game + in_path + 1;
        if let Some(out) = self.fam.repetition_outcome(p, count) {
            return Some(self.terminal(p, out, ply));
        }
        match self.fam.repetition_outcome(p, 99) {
            None | Some(Outcome::Draw) => Some(0),
            // never a refuge for the obliged side, never a loss of lead for the other
            Some(Outcome::Win(s)) if s == self.fam.side(p) => Some(CYCLE_BREAK.max(self.fam.evaluate(p))),
            Some(_) => Some((-CYCLE_BREAK).min(self.fam.evaluate(p))),
        }
    }

    fn store(&self, key: u64, depth: i32, flag: u8, mut score: i32, mv: Move, ply: i32) {
        if score >= MATE_BOUND {
            score += ply;
        } else if score <= -MATE_BOUND {
            score -= ply;
        }
        self.shared.table.store(
            key,
            Entry {
                depth,
                flag,
                score,
                mv: Some(mv),
            },
        );
    }

    /// The ordering keys of `moves` into `self.sort_keys`: one integer per move, smaller first
    /// (table move, then killers, then the family's hints plus history, ties in generation
    /// order), so picking the smallest left is the same on every machine.
    fn order_keys(
        &self,
        p: &F::Pos,
        o: &F::Order,
        moves: &[Move],
        tt_move: Option<Move>,
        ply: usize,
        keys: &mut Vec<i64>,
    ) {
        let side = self.fam.side(p);
        let killers = self.killers[ply];
        keys.clear();
        for (i, &m) in moves.iter().enumerate() {
            let k: i64 = if Some(m) == tt_move {
                1 << 40
            } else if Some(m) == killers[0] {
                (1 << 40) - 1
            } else if Some(m) == killers[1] {
                (1 << 40) - 2
            } else {
                (self.fam.order_key(o, m) + self.history.get(side, m)) as i64
            };
            keys.push(((-k) << 16) | i as i64);
        }
    }

    fn negamax(&mut self, p: &F::Pos, key: u64, depth: i32, alpha: i32, beta: i32, ply: i32) -> Result<i32, Abort> {
        self.lines[ply as usize].clear();
        self.count_node()?;
        let fam = self.fam;
        if let Some(out) = fam.quick_outcome(p) {
            return Ok(self.terminal(p, out, ply));
        }
        if let Some(r) = self.repetition(p, key, ply) {
            return Ok(r);
        }
        if depth <= 0 || ply as usize >= MAX_PLY {
            return self.qsearch(p, alpha, beta, ply, 0, 0);
        }
        if alpha >= MATE - ply - 1 {
            return Ok(alpha);
        }
        let mut tt_move = None;
        if let Some(e) = self.shared.table.probe(key) {
            tt_move = e.mv;
            if e.depth >= depth {
                let mut score = e.score;
                if score >= MATE_BOUND {
                    score -= ply;
                } else if score <= -MATE_BOUND {
                    score += ply;
                }
                // not on a full window: the line below would be lost with the cut (the table
                // may have replaced its entries by the time the line is read)
                let full_window = beta - alpha > 1;
                if !full_window
                    && (e.flag == EXACT || (e.flag == LOWER && score >= beta) || (e.flag == UPPER && score <= alpha))
                {
                    return Ok(score);
                }
            }
        }
        let pl = ply as usize;
        let mut moves = std::mem::take(&mut self.buffers[pl]);
        moves.clear();
        fam.moves(p, &mut moves);
        let result = self.negamax_moves(p, key, depth, alpha, beta, ply, &mut moves, tt_move);
        self.buffers[pl] = moves;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax_moves(
        &mut self,
        p: &F::Pos,
        key: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        moves: &mut Vec<Move>,
        tt_move: Option<Move>,
    ) -> Result<i32, Abort> {
        let fam = self.fam;
        let pl = ply as usize;
        if moves.is_empty() {
            return Ok(self.terminal(p, fam.no_moves_outcome(p), ply));
        }
        let mut forced = std::mem::take(&mut self.forced[pl]);
        forced.clear();
        let kind = fam.tactics(p, Some(moves), &mut forced);
        match kind {
            Tactic::WinNow(m) => {
                self.forced[pl] = forced;
                self.lines[pl].push(m);
                return Ok(MATE - ply - 1);
            }
            Tactic::Terminal(out) => {
                self.forced[pl] = forced;
                return Ok(self.terminal(p, out, ply));
            }
            Tactic::Forced => {
                if forced.is_empty() {
                    self.forced[pl] = forced;
                    return Ok(-(MATE - ply - 2));
                }
                moves.clear();
                moves.extend_from_slice(&forced);
            }
            Tactic::Quiet => {}
        }
        self.forced[pl] = forced;
        // null move: where even passing keeps the score above beta, a real move will too (Tafl
        // knows no zugzwang worth the name); only in the selective search, never twice in a row,
        // never on a principal variation or a forcing position
        if self.reduce
            && depth >= 3
            && kind == Tactic::Quiet
            && beta - alpha == 1
            && beta.abs() < MATE_BOUND
            && !self.nulls[pl]
        {
            if let Some(null) = fam.null_move(p) {
                if fam.evaluate(p) >= beta {
                    let r = 2 + depth / 4;
                    self.nulls[pl + 1] = true;
                    self.path.push(key);
                    let res = self.negamax(&null, fam.hash(&null), depth - 1 - r, -beta, -beta + 1, ply + 1);
                    self.path.pop();
                    self.nulls[pl + 1] = false;
                    let score = -res?;
                    if score >= beta {
                        return Ok(if score >= MATE_BOUND { beta } else { score });
                    }
                }
            }
        }
        let order = fam.orderer(p);
        let mut keys = std::mem::take(&mut self.sort_keys[pl]);
        self.order_keys(p, &order, moves, tt_move, pl, &mut keys);
        let mut unsorted = std::mem::take(&mut self.unsorted[pl]);
        unsorted.clear();
        unsorted.extend_from_slice(moves);
        let side = fam.side(p);
        let reduce = self.reduce && depth >= 3 && kind != Tactic::Forced;
        let killers = self.killers[pl];
        self.path.push(key);
        let orig_alpha = alpha;
        let full_window = beta - alpha > 1;
        let mut best = -INF;
        let mut best_move = moves[0];
        let mut outcome: Result<(), Abort> = Ok(());
        let mut sorted = false;
        for idx in 0..moves.len() {
            // staged ordering: bring the best of the moves left forward (cut-offs come early,
            // so most nodes never order the tail); past the first few, sort the rest at once
            if !sorted && idx >= STAGED_PICKS {
                keys[idx..].sort_unstable();
                for j in idx..keys.len() {
                    moves[j] = unsorted[(keys[j] & 0xffff) as usize];
                }
                sorted = true;
            }
            if !sorted {
                let mut bi = idx;
                for j in idx + 1..keys.len() {
                    if keys[j] < keys[bi] {
                        bi = j;
                    }
                }
                keys.swap(idx, bi);
                moves.swap(idx, bi);
            }
            let m = moves[idx];
            let (child, caps) = fam.play(p, m);
            let ck = fam.hash(&child);
            let r = (|| -> Result<i32, Abort> {
                if idx == 0 {
                    return Ok(-self.negamax(&child, ck, depth - 1, -beta, -alpha, ply + 1)?);
                }
                let mut score;
                let late = reduce
                    && idx >= LMR_AFTER
                    && !caps
                    && Some(m) != tt_move
                    && !killers.contains(&Some(m))
                    && fam.order_key(&order, m) < LMR_QUIET_KEY;
                if late {
                    let r = lmr(depth, idx);
                    score = -self.negamax(&child, ck, depth - 1 - r, -alpha - 1, -alpha, ply + 1)?;
                    if score > alpha {
                        score = -self.negamax(&child, ck, depth - 1, -alpha - 1, -alpha, ply + 1)?;
                    }
                } else {
                    score = -self.negamax(&child, ck, depth - 1, -alpha - 1, -alpha, ply + 1)?;
                }
                if alpha < score && score < beta {
                    score = -self.negamax(&child, ck, depth - 1, -beta, -alpha, ply + 1)?;
                }
                Ok(score)
            })();
            let score = match r {
                Ok(s) => s,
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            };
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if full_window {
                        let (here, below) = self.lines.split_at_mut(pl + 1);
                        here[pl].clear();
                        here[pl].push(m);
                        here[pl].extend_from_slice(&below[0]);
                    }
                    if alpha >= beta {
                        if !caps {
                            let kl = &mut self.killers[pl];
                            if kl[0] != Some(m) {
                                kl[1] = kl[0];
                                kl[0] = Some(m);
                            }
                            self.history.add(side, m, depth * depth);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.sort_keys[pl] = keys;
        self.unsorted[pl] = unsorted;
        outcome?;
        let flag = if best >= beta {
            LOWER
        } else if best > orig_alpha {
            EXACT
        } else {
            UPPER
        };
        self.store(key, depth, flag, best, best_move, ply);
        Ok(best)
    }

    /// Past the horizon: forcing lines (a route to block, a king to take) in full, and captures
    /// (up to QUIESCENCE_CAPTURES of them), which the side may make or decline (standing pat).
    fn qsearch(&mut self, p: &F::Pos, mut alpha: i32, beta: i32, ply: i32, qd: i32, caps: i32) -> Result<i32, Abort> {
        let fam = self.fam;
        if qd > 0 {
            self.count_node()?;
            if let Some(out) = fam.quick_outcome(p) {
                return Ok(self.terminal(p, out, ply));
            }
        }
        if qd >= self.qmax || ply as usize >= MAX_PLY + 16 {
            return Ok(fam.evaluate(p));
        }
        let pl = ply as usize;
        let mut forced = std::mem::take(&mut self.forced[pl]);
        forced.clear();
        let kind = fam.tactics(p, None, &mut forced);
        let res = match kind {
            Tactic::WinNow(_) => Ok(MATE - ply - 1),
            Tactic::Terminal(out) => Ok(self.terminal(p, out, ply)),
            Tactic::Forced if forced.is_empty() => Ok(-(MATE - ply - 2)),
            Tactic::Forced => {
                let mut best = -INF;
                let mut r = Ok(());
                for &m in forced.iter() {
                    let (child, _) = fam.play(p, m);
                    match self.qsearch(&child, -beta, -alpha, ply + 1, qd + 1, caps) {
                        Ok(s) => {
                            let s = -s;
                            if s > best {
                                best = s;
                                if s > alpha {
                                    alpha = s;
                                    if alpha >= beta {
                                        break;
                                    }
                                }
                            }
                        }
                        Err(e) => {
                            r = Err(e);
                            break;
                        }
                    }
                }
                r.map(|_| best)
            }
            Tactic::Quiet => {
                let stand = fam.evaluate(p);
                // delta pruning: where even winning a piece or two leaves the score below alpha,
                // captures cannot matter
                if stand >= beta
                    || caps >= QUIESCENCE_CAPTURES
                    || !self.limits.captures
                    || stand + CAPTURE_DELTA < alpha
                {
                    Ok(stand)
                } else {
                    self.qcaptures(p, stand, alpha.max(stand), beta, ply, qd, caps)
                }
            }
        };
        self.forced[pl] = forced;
        res
    }

    #[allow(clippy::too_many_arguments)]
    fn qcaptures(
        &mut self,
        p: &F::Pos,
        stand: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        qd: i32,
        caps: i32,
    ) -> Result<i32, Abort> {
        let fam = self.fam;
        let pl = ply as usize;
        let mut moves = std::mem::take(&mut self.buffers[pl]);
        let o = fam.orderer(p);
        fam.capture_moves(p, &o, &mut moves);
        let mut best = stand;
        let mut r = Ok(());
        for &m in moves.iter() {
            let (child, took) = fam.play(p, m);
            if !took {
                continue;
            }
            match self.qsearch(&child, -beta, -alpha, ply + 1, qd + 1, caps + 1) {
                Ok(s) => {
                    let s = -s;
                    if s > best {
                        best = s;
                        if s > alpha {
                            alpha = s;
                            if alpha >= beta {
                                break;
                            }
                        }
                    }
                }
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        self.buffers[pl] = moves;
        r.map(|_| best)
    }

    /// One iteration at the root: every root move scored, the best `lines` (and those within the
    /// margin of the best) exactly.
    fn root(&mut self, p: &F::Pos, moves: &[Move], depth: i32) -> Result<Vec<(Move, i32)>, Abort> {
        let fam = self.fam;
        let n = self.limits.lines.max(1);
        let margin = self.limits.margin;
        self.partial.clear();
        self.partial_lines.clear();
        let mut top: Vec<i32> = Vec::new(); // the best n scores, ascending
        let root_key = fam.hash(p);
        self.path.push(root_key);
        let mut result = Ok(());
        let order = fam.orderer(p);
        for (idx, &m) in moves.iter().enumerate() {
            let (child, caps) = fam.play(p, m);
            let ck = fam.hash(&child);
            let r = (|| -> Result<i32, Abort> {
                if top.len() < n {
                    return Ok(-self.negamax(&child, ck, depth - 1, -INF, INF, 1)?);
                }
                let a = top[0] - margin;
                // late quiet root moves first get a reduced look, as inside the tree: most of
                // them fail low there and are done (a third of the nodes to a depth, more with
                // several lines, whose bar is the last line's lower score)
                if self.reduce && depth >= 3 && idx > n && !caps && fam.order_key(&order, m) < LMR_QUIET_KEY {
                    let r = lmr(depth, idx - n);
                    let reduced = -self.negamax(&child, ck, depth - 1 - r, -a - 1, -a, 1)?;
                    if reduced <= a {
                        return Ok(reduced);
                    }
                }
                let mut score = -self.negamax(&child, ck, depth - 1, -a - 1, -a, 1)?;
                if score > a {
                    score = -self.negamax(&child, ck, depth - 1, -INF, -a, 1)?;
                }
                Ok(score)
            })();
            match r {
                Ok(score) => {
                    self.partial.push((m, score));
                    let mut line = vec![m];
                    line.extend_from_slice(&self.lines[1]);
                    self.partial_lines.push((m, line));
                    top.push(score);
                    top.sort_unstable();
                    if top.len() > n {
                        top.remove(0);
                    }
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.path.pop();
        result?;
        std::mem::swap(&mut self.root_lines, &mut self.partial_lines);
        let scored = self.partial.clone();
        if let Some(&(bm, bs)) = scored.iter().max_by_key(|&&(_, s)| s) {
            // the first of equal bests, as Python's max() takes it
            let first = scored.iter().find(|&&(_, s)| s == bs).map_or(bm, |&(m, _)| m);
            self.store(root_key, depth, EXACT, bs, first, 0);
        }
        Ok(scored)
    }
}

/// Plies a late quiet move is searched shallower: more the later the move and the deeper the
/// search (about ln(depth) * ln(index) / 2), at least one, leaving at least a ply.
#[inline]
fn lmr(depth: i32, idx: usize) -> i32 {
    let r = 0.5 + (depth as f64).ln() * (idx as f64).ln() / 2.0;
    (r as i32).clamp(1, (depth - 2).max(1))
}

/// The principal variation from the table, checked move by move against the legal moves.
pub fn table_pv<F: Family>(fam: &F, table: &Table, p: &F::Pos, first: Move, max: usize) -> Vec<Move> {
    extend_pv(fam, table, p, &[first], max)
}

/// A line that starts with `known` (as far as its moves are legal) and goes on with the
/// table's moves, up to `max` moves, stopping at a decided or repeated position.
pub fn extend_pv<F: Family>(fam: &F, table: &Table, p: &F::Pos, known: &[Move], max: usize) -> Vec<Move> {
    let mut pv = Vec::new();
    let mut pos = p.clone();
    let mut seen = vec![fam.hash(p)];
    let mut moves = Vec::new();
    let mut known = known.iter();
    while pv.len() < max {
        if fam.quick_outcome(&pos).is_some() {
            break;
        }
        let next = match known.next() {
            Some(&m) => m,
            None => match table.probe(fam.hash(&pos)) {
                Some(Entry { mv: Some(m), .. }) => m,
                _ => break,
            },
        };
        moves.clear();
        fam.moves(&pos, &mut moves);
        if !moves.contains(&next) {
            break;
        }
        pv.push(next);
        pos = fam.play(&pos, next).0;
        let k = fam.hash(&pos);
        if seen.contains(&k) {
            break;
        }
        seen.push(k);
    }
    pv
}

/// A searcher for one family: its table and history live between searches (as a player's do
/// between moves), so a game's searches stay reproducible when replayed in the same order.
pub struct Searcher<F: Family> {
    pub fam: F,
    pub table: Table,
    pub history: History,
}

fn sort_scored(v: &mut [(Move, i32)]) {
    v.sort_by_key(|&(_, s)| -s); // stable: equal scores keep the order they were searched in
}

impl<F: Family> Searcher<F> {
    pub fn new(fam: F, squares: usize, table_bits: u32) -> Self {
        Searcher {
            fam,
            table: Table::new(table_bits),
            history: History::new(squares),
        }
    }

    /// Search `p`; `game` holds (hash, count) of the game's earlier positions (the repetition
    /// rule); `poll` says stop when it returns true; `on_iteration` gets each finished depth.
    pub fn search(
        &mut self,
        p: &F::Pos,
        limits: &Limits,
        game: &[(u64, u32)],
        only: Option<&[Move]>,
        poll: Option<&mut (dyn FnMut() -> bool + Send)>,
        mut on_iteration: Option<&mut dyn FnMut(&Report)>,
    ) -> Report {
        let t0 = Instant::now();
        let fam = &self.fam;
        self.history.age();
        let root_key = fam.hash(p);
        let mut counts: Vec<(u64, u32)> = game.to_vec();
        match counts.iter_mut().find(|(k, _)| *k == root_key) {
            Some(e) => e.1 = e.1.max(1),
            None => counts.push((root_key, 1)),
        }
        let mut moves = Vec::new();
        if fam.quick_outcome(p).is_none() {
            fam.moves(p, &mut moves);
            if let Some(only) = only {
                // a no-repeat rule forbids some moves here (the caller knows the game)
                moves.retain(|m| only.contains(m));
            }
        }
        let elapsed = |t0: Instant| t0.elapsed().as_secs_f64();
        if moves.is_empty() {
            let score = match fam.quick_outcome(p) {
                Some(o) => terminal_score(fam, p, o, 0),
                None => terminal_score(fam, p, fam.no_moves_outcome(p), 0),
            };
            return Report {
                score,
                stopped: "depth",
                ..Default::default()
            };
        }
        if moves.len() == 1 && limits.margin == 0 && on_iteration.is_none() && limits.lines <= 1 {
            let s = fam.evaluate(p);
            return Report {
                mv: Some(moves[0]),
                score: s,
                seconds: elapsed(t0),
                pv: vec![moves[0]],
                candidates: vec![(moves[0], s)],
                scored: vec![(moves[0], s)],
                stopped: "forced",
                ..Default::default()
            };
        }
        let mut forced = Vec::new();
        let win_now = if limits.lines <= 1 {
            fam.tactics(p, Some(&moves), &mut forced)
        } else {
            Tactic::Quiet
        };
        if let Tactic::WinNow(m) = win_now {
            return Report {
                mv: Some(m),
                score: MATE - 1,
                depth: 1,
                nodes: 1,
                seconds: elapsed(t0),
                pv: vec![m],
                candidates: vec![(m, MATE - 1)],
                scored: vec![(m, MATE - 1)],
                finished_depth: 1,
                stopped: "forced",
                ..Default::default()
            };
        }
        // root order: the family's hints and history, then the table move
        let side = fam.side(p);
        let o = fam.orderer(p);
        moves.sort_by_cached_key(|&m| -(fam.order_key(&o, m) + self.history.get(side, m)));
        if let Some(e) = self.table.probe(root_key) {
            if let Some(i) = moves.iter().position(|&m| Some(m) == e.mv) {
                moves[..=i].rotate_right(1);
            }
        }
        let threads = limits.threads.max(1);
        let shared = Shared {
            table: &self.table,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            budget: AtomicU64::new(limits.nodes),
        };
        // one thread stops at its own count (as it always did); several share one budget
        let budget_chunk = if threads > 1 && limits.nodes > 0 {
            (limits.nodes / (threads as u64 * 8)).clamp(1, BUDGET_CHUNK)
        } else {
            0
        };
        let deadline = if limits.time > 0.0 {
            Some(t0 + std::time::Duration::from_secs_f64(limits.time))
        } else {
            None
        };
        let history = &mut self.history;
        let mut helper_histories: Vec<History> = (1..threads).map(|_| History::new(history.squares)).collect();
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (i, h) in helper_histories.iter_mut().enumerate() {
                let mut w = new_worker(fam, &shared, h, &counts, limits, t0, deadline, false);
                w.budget_chunk = budget_chunk;
                let root = moves.clone();
                let start = 1 + (i as i32 % 2);
                handles.push(scope.spawn(move || {
                    let mut root = root;
                    for depth in start..=limits.depth.max(1) {
                        w.reduce = limits.selective && depth > FULL_WIDTH_DEPTH;
                        match w.root(p, &root, depth) {
                            Ok(mut scored) => {
                                sort_scored(&mut scored);
                                root = scored.iter().map(|&(m, _)| m).collect();
                            }
                            Err(_) => break,
                        }
                        if w.shared.stop.load(Relaxed) {
                            break;
                        }
                    }
                    w.shared.nodes.fetch_add(w.nodes - w.reported, Relaxed);
                }));
            }
            let mut w = new_worker(fam, &shared, history, &counts, limits, t0, deadline, true);
            w.budget_chunk = budget_chunk;
            w.poll = poll;
            let mut report = run_main(&mut w, p, moves, limits, &mut on_iteration);
            shared.stop.store(true, Relaxed);
            for h in handles {
                let _ = h.join();
            }
            report.nodes = w.nodes + shared.nodes.load(Relaxed);
            report.seconds = elapsed(t0);
            report.pv = match report.mv {
                Some(m) => match report.pvs.iter().find(|l| l.first() == Some(&m)) {
                    Some(line) => line.clone(),
                    None => table_pv(fam, &self.table, p, m, 24),
                },
                None => Vec::new(),
            };
            report
        })
    }
}

#[allow(clippy::too_many_arguments)]
fn new_worker<'a, 'p, F: Family>(
    fam: &'a F,
    shared: &'a Shared<'a>,
    history: &'a mut History,
    counts: &'a [(u64, u32)],
    limits: &Limits,
    t0: Instant,
    deadline: Option<Instant>,
    main: bool,
) -> Worker<'a, 'p, F> {
    Worker {
        fam,
        shared,
        main,
        limits: limits.clone(),
        qmax: if limits.quiescence { QUIESCENCE_PLIES } else { 0 },
        t0,
        deadline,
        nodes: 0,
        reported: 0,
        reduce: false,
        allowance: 0,
        budget_chunk: 0,
        stop_reason: None,
        poll: None,
        killers: vec![[None; 2]; MAX_PLY + 24],
        history,
        game_counts: counts,
        path: Vec::with_capacity(MAX_PLY + 24),
        buffers: vec![Vec::new(); MAX_PLY + 24],
        forced: vec![Vec::new(); MAX_PLY + 24],
        nulls: vec![false; MAX_PLY + 48],
        sort_keys: vec![Vec::new(); MAX_PLY + 24],
        unsorted: vec![Vec::new(); MAX_PLY + 24],
        game_bloom: counts.iter().fold(0u64, |b, (k, _)| b | 1u64 << (k % 64)),
        partial: Vec::new(),
        lines: vec![Vec::new(); MAX_PLY + 25],
        partial_lines: Vec::new(),
        root_lines: Vec::new(),
    }
}

fn terminal_score<F: Family>(fam: &F, p: &F::Pos, out: Outcome, ply: i32) -> i32 {
    match out {
        Outcome::Draw => 0,
        Outcome::Win(s) if s == fam.side(p) => MATE - ply,
        Outcome::Win(_) => -(MATE - ply),
    }
}

fn make_report(scored: &[(Move, i32)], depth: i32, margin: i32) -> Report {
    let (bm, bs) = scored[0];
    let candidates = if margin > 0 {
        scored.iter().copied().filter(|&(_, s)| s >= bs - margin).collect()
    } else {
        vec![(bm, bs)]
    };
    Report {
        mv: Some(bm),
        score: bs,
        depth,
        candidates,
        scored: scored.to_vec(),
        finished_depth: depth,
        ..Default::default()
    }
}

/// May deepening stop?  Only when each of the best `lines` root scores (sorted, best first) is a
/// proven result no deeper search can change.  A proven score in `k` plies is a final result, but a
/// deeper search may still find it faster (never slower); a faster one takes at most `k - 1`
/// plies, and a search full width to `full_width` plies finds every result within them, so
/// `k <= full_width + 1` leaves nothing to find.  A line that is only an evaluation may change at
/// any depth: with several lines asked for, the search goes on while any of them is one.
fn settled(scored: &[(Move, i32)], lines: usize, full_width: i32) -> bool {
    let top = &scored[..scored.len().min(lines.max(1))];
    !top.is_empty() && top.iter().all(|&(_, s)| s.abs() >= MATE_BOUND && MATE - s.abs() <= full_width + 1)
}

fn run_main<F: Family>(
    w: &mut Worker<'_, '_, F>,
    p: &F::Pos,
    mut root: Vec<Move>,
    limits: &Limits,
    on_iteration: &mut Option<&mut dyn FnMut(&Report)>,
) -> Report {
    let mut best = Report {
        mv: Some(root[0]),
        pv: vec![root[0]],
        candidates: vec![(root[0], 0)],
        ..Default::default()
    };
    let mut full_width = 0;
    let mut stopped: &'static str = "";
    for depth in 1..=limits.depth.max(1) {
        w.reduce = limits.selective && depth > FULL_WIDTH_DEPTH;
        match w.root(p, &root, depth) {
            Err(_) => {
                let mut scored = std::mem::take(&mut w.partial);
                if !scored.is_empty() && (depth == 1 || scored.iter().any(|&(m, _)| Some(m) == best.mv)) {
                    sort_scored(&mut scored);
                    let d = if depth > 1 { depth - 1 } else { 1 };
                    let finished = (best.scored.clone(), best.finished_depth);
                    best = make_report(&scored, d, limits.margin);
                    if !finished.0.is_empty() {
                        // the lines shown stay those of the last finished depth
                        best.scored = finished.0;
                        best.finished_depth = finished.1;
                    }
                }
                stopped = match w.stop_reason {
                    Some(Stop::Time) => "time",
                    Some(Stop::Nodes) => "nodes",
                    Some(Stop::Cancelled) => "cancelled",
                    _ => "time",
                };
                break;
            }
            Ok(mut scored) => {
                sort_scored(&mut scored);
                best = make_report(&scored, depth, limits.margin);
                if !w.reduce {
                    full_width = depth;
                }
                if let Some(cb) = on_iteration.as_mut() {
                    best.pvs = line_pvs(w, p, &best.scored, limits.lines);
                    best.nodes = w.nodes + w.shared.nodes.load(Relaxed);
                    best.seconds = w.t0.elapsed().as_secs_f64();
                    cb(&best);
                }
                root = scored.iter().map(|&(m, _)| m).collect();
                if depth >= 2 && settled(&best.scored, limits.lines, full_width) {
                    stopped = "proven";
                    break;
                }
                // no early stop before an iteration predicted not to finish: the time given is
                // used to its deadline, where the unfinished iteration's best move counts once it
                // has re-searched the previous best (an early stop left 38-71 % of it unused)
            }
        }
    }
    if stopped.is_empty() {
        stopped = "depth";
    }
    best.stopped = stopped;
    best.full_width_depth = full_width.min(best.depth);
    best.pvs = line_pvs(w, p, &best.scored, limits.lines);
    best
}

/// The lines of the best `lines` root moves: each as the last finished iteration searched it,
/// carried on from the table where the search cut it short (a table hit on the way).
fn line_pvs<F: Family>(w: &Worker<'_, '_, F>, p: &F::Pos, scored: &[(Move, i32)], lines: usize) -> Vec<Vec<Move>> {
    scored
        .iter()
        .take(lines.max(1))
        .map(|&(m, _)| {
            let first = [m];
            let known = w
                .root_lines
                .iter()
                .find(|(r, _)| *r == m)
                .map_or(&first[..], |(_, l)| &l[..]);
            extend_pv(w.fam, w.shared.table, p, known, 24)
        })
        .collect()
}

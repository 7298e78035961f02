//! The Fox games (Fox and Geese, Fox and Hounds, Asalto, Halatafl) as `tafl_desktop/core/hunt.py`
//! defines them, on the Python rules' own point-and-line board: which points each side may step
//! to, the hunters' jumps, and the toggles, all handed over from Python, so there is one geometry
//! and one rule book; this module only walks them.
//!
//! Positions are bitboards over the points (up to 128), as in Python.  A move is the search's
//! two-square `Move`: a step is (from, to); a capture is (start, points + i) for the i-th jump
//! chain of that hunter in the order the Python rules list them, so two chains over different
//! pieces to the same point are two moves.  `path` gives the points a move visits, the Python
//! move.  A hunter amid a crowd can have tens of thousands of chains (every prefix is a move,
//! and a chain may turn at every piece); the numbers stop at [`CHAIN_LIMIT`], and the chains past
//! it are not generated (none of the suite's or the games' positions comes near it).  Checked
//! against the Python rules move for move (`tests/test_native_hunt.py`).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::rules::Move;
use crate::search::Outcome;

/// The most points a board may have here.
pub const MAX_POINTS: usize = 128;
/// The most jumps one chain can make (each takes a piece of the flock, at most 127 of them).
const MAX_CHAIN: usize = 128;
pub const FLOCK: u8 = 0;
pub const HUNTERS: u8 = 1;

/// How the hunters' jumps chain: one jump a turn, may go on, must go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiJump {
    Single,
    Optional,
    Compulsory,
}

/// What a hunter who could capture but does not must face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compulsion {
    Off,
    Enforce,
    Huff,
}

/// The toggles this module plays (every one of `core/hunt_options.py`'s that changes the moves
/// or the result; the rest are the board's).
#[derive(Clone, Debug)]
pub struct Settings {
    pub captures: bool,
    pub multi_jump: MultiJump,
    pub compulsion: Compulsion,
    pub max_capture: bool,
    pub hunter_win_below: u32,
    pub breakthrough: bool,
    pub fill_pen: bool,
    pub no_moves_draw: bool,
    pub repetition_draw: bool,
    /// Moves without a capture that draw the game (0: never).
    pub captureless: u32,
}

/// One Fox-game board and its rules.
#[derive(Clone)]
pub struct Hunt {
    pub(crate) n: usize,
    /// Per side and point: the points that side may step to.
    pub(crate) steps: [Vec<Vec<u8>>; 2],
    /// Per point: the hunters' jumps as (the point jumped, the point landed on).
    pub(crate) jumps: Vec<Vec<(u8, u8)>>,
    pub(crate) home: u128,
    pub(crate) pen: u128,
    pub(crate) s: Settings,
    zobrist: [Vec<u64>; 2],
    zobrist_side: u64,
    /// This board's own number, naming it in [`WALKED`] (a clone plays the same chains).
    id: u64,
}

/// Boards numbered as they are made, so a thread's [`WALKED`] never mistakes one for another.
static BOARDS: AtomicU64 = AtomicU64::new(1);

/// One chain as [`Hunt::play`] needs it: the point it lands on and the pieces it takes.
type Landing = (u8, u128);

/// Whose chains [`WALKED`] holds: the board's number, the flock, the hunters, the hunter.
type Walker = (u64, u128, u128, usize);

/// A hunter's chains are kept once there are this many (fewer are walked again each time).
const WALK_WORTH_KEEPING: usize = 32;
/// How many such walks a thread keeps, the least recently used given up first.
const WALKS_KEPT: usize = 8;

thread_local! {
    /// The crowds [`Hunt::play`] played chains of lately, per thread: whose chains (the board's
    /// number, the pieces, the hunter) and each chain's landing, most recently used last.  A
    /// search that plays every chain of a crowd (tens of thousands), searching below each, walks
    /// them once this way, not once per move: at 24,474 chains, 150,000 positions took 18 s.
    static WALKED: RefCell<Vec<(Walker, Vec<Landing>)>> = const { RefCell::new(Vec::new()) };
}

/// A position: the flock's and the hunters' points, the side to move, the moves since a capture,
/// and what the last move decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HuntPos {
    pub flock: u128,
    pub hunters: u128,
    pub side: u8,
    pub quiet: u32,
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

#[inline]
fn bit(p: usize) -> u128 {
    1u128 << p
}

/// The points of a set, lowest first.
pub fn points(mut x: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if x == 0 {
            return None;
        }
        let p = x.trailing_zeros() as usize;
        x &= x - 1;
        Some(p)
    })
}

/// A chain move's number stays below this (`points + i` is a square index of the search's
/// `Move`, which holds up to `Square::LIMIT`).
pub const CHAIN_LIMIT: usize = crate::board::Square::LIMIT - 1;

/// One jump chain as it is walked: the points landed on in turn and the points jumped.
pub struct ChainWalk<'a> {
    pub lands: &'a [u8],
    pub taken: &'a [u8],
}

impl Hunt {
    /// The board from the Python rules: `steps[side][p]`, `jumps[p]` as (over, land), the home
    /// row's and the pen's points, and the settings.
    pub fn new(
        steps: [Vec<Vec<u8>>; 2],
        jumps: Vec<Vec<(u8, u8)>>,
        home: u128,
        pen: u128,
        s: Settings,
    ) -> Result<Self, Refused> {
        let n = jumps.len();
        if n == 0 || n > MAX_POINTS {
            return Err(Refused(format!(
                "a Fox-game board has 1 to {MAX_POINTS} points, not {n}"
            )));
        }
        if steps.iter().any(|side| side.len() != n) {
            return Err(Refused(
                "every point needs its steps for both sides and its jumps".into(),
            ));
        }
        let inside = |q: u8| (q as usize) < n;
        if !steps.iter().flatten().flatten().all(|&q| inside(q))
            || !jumps.iter().flatten().all(|&(o, l)| inside(o) && inside(l))
        {
            return Err(Refused("a step or jump leaves the board".into()));
        }
        let board = if n == 128 { u128::MAX } else { bit(n) - 1 };
        if home & !board != 0 || pen & !board != 0 {
            return Err(Refused("the home row or the pen leaves the board".into()));
        }
        let mut state = 0x0f0c_5ea5_u64;
        let zobrist = [
            (0..n).map(|_| splitmix(&mut state)).collect(),
            (0..n).map(|_| splitmix(&mut state)).collect(),
        ];
        let zobrist_side = splitmix(&mut state);
        Ok(Hunt {
            n,
            steps,
            jumps,
            home,
            pen,
            s,
            zobrist,
            zobrist_side,
            id: BOARDS.fetch_add(1, Ordering::Relaxed),
        })
    }

    pub fn points(&self) -> usize {
        self.n
    }

    fn full_hash(&self, flock: u128, hunters: u128, side: u8) -> u64 {
        let mut h = if side == HUNTERS { self.zobrist_side } else { 0 };
        for p in points(flock) {
            h ^= self.zobrist[0][p];
        }
        for p in points(hunters) {
            h ^= self.zobrist[1][p];
        }
        h
    }

    /// A position from its parts (the result as the Python side decided it).
    pub fn position(
        &self,
        flock: u128,
        hunters: u128,
        side: u8,
        quiet: u32,
        result: Option<Outcome>,
    ) -> Result<HuntPos, Refused> {
        let board = if self.n == 128 { u128::MAX } else { bit(self.n) - 1 };
        if (flock | hunters) & !board != 0 || flock & hunters != 0 || side > 1 {
            return Err(Refused(
                "a position's pieces must stand on the board's points, one a point, and the side to move is 0 or 1"
                    .into(),
            ));
        }
        Ok(HuntPos {
            flock,
            hunters,
            side,
            quiet,
            result,
            hash: self.full_hash(flock, hunters, side),
        })
    }

    /// Visit the jump chains of the hunter on `start` in the Python rules' order (`_chains`, per
    /// the multi-jump toggle); `visit` returns true to stop.
    pub fn each_chain(&self, p: &HuntPos, start: usize, visit: &mut dyn FnMut(&ChainWalk<'_>) -> bool) {
        let occ = (p.flock | p.hunters) & !bit(start);
        let mut lands = [0u8; MAX_CHAIN];
        let mut taken = [0u8; MAX_CHAIN];
        self.walk(start, p.flock, occ, 0, &mut lands, &mut taken, visit);
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        at: usize,
        flock: u128,
        occ: u128,
        len: usize,
        lands: &mut [u8; MAX_CHAIN],
        taken: &mut [u8; MAX_CHAIN],
        visit: &mut dyn FnMut(&ChainWalk<'_>) -> bool,
    ) -> bool {
        let mode = self.s.multi_jump;
        let mut extended = false;
        if len < MAX_CHAIN {
            for &(over, land) in &self.jumps[at] {
                let (o, l) = (over as usize, land as usize);
                if flock & bit(o) == 0 || occ & bit(l) != 0 {
                    continue;
                }
                extended = true;
                lands[len] = land;
                taken[len] = over;
                if mode != MultiJump::Compulsory {
                    let w = ChainWalk {
                        lands: &lands[..=len],
                        taken: &taken[..=len],
                    };
                    if visit(&w) {
                        return true;
                    }
                }
                if mode != MultiJump::Single
                    && self.walk(l, flock & !bit(o), occ & !bit(o), len + 1, lands, taken, visit)
                {
                    return true;
                }
            }
        }
        if mode == MultiJump::Compulsory && !extended && len > 0 {
            let w = ChainWalk {
                lands: &lands[..len],
                taken: &taken[..len],
            };
            return visit(&w);
        }
        false
    }

    /// Visit the chains of the hunter on `start` as moves (numbered as the module says), in
    /// the Python rules' order, up to [`CHAIN_LIMIT`].
    pub fn each_chain_move(&self, p: &HuntPos, start: usize, visit: &mut dyn FnMut(Move, &ChainWalk<'_>)) {
        let mut to = self.n;
        self.each_chain(p, start, &mut |w| {
            visit(Move::new(start, to), w);
            to += 1;
            to >= CHAIN_LIMIT
        });
    }

    /// The hunters' captures (as if it were their turn), each with its chain's length, in the
    /// Python rules' order.
    pub fn captures(&self, p: &HuntPos, out: &mut Vec<(Move, usize)>) {
        if !self.s.captures {
            return;
        }
        for h in points(p.hunters) {
            self.each_chain_move(p, h, &mut |m, w| out.push((m, w.taken.len())));
        }
    }

    /// The legal moves, in the Python rules' order.
    pub fn moves(&self, p: &HuntPos, out: &mut Vec<Move>) {
        if p.result.is_some() {
            return;
        }
        let occ = p.flock | p.hunters;
        if p.side == HUNTERS {
            let mut caps = Vec::new();
            self.captures(p, &mut caps);
            if !caps.is_empty() && self.s.max_capture {
                let longest = caps.iter().map(|&(_, l)| l).max().unwrap_or(0);
                caps.retain(|&(_, l)| l == longest);
            }
            out.extend(caps.iter().map(|&(m, _)| m));
            if !caps.is_empty() && (self.s.compulsion == Compulsion::Enforce || self.s.max_capture) {
                return;
            }
        }
        let own = if p.side == HUNTERS { p.hunters } else { p.flock };
        for a in points(own) {
            for &q in &self.steps[p.side as usize][a] {
                if occ & bit(q as usize) == 0 {
                    out.push(Move::new(a, q as usize));
                }
            }
        }
    }

    /// Whether the side to move has a legal move.
    pub fn has_moves(&self, p: &HuntPos) -> bool {
        if p.result.is_some() {
            return false;
        }
        let occ = p.flock | p.hunters;
        let own = if p.side == HUNTERS { p.hunters } else { p.flock };
        for a in points(own) {
            if self.steps[p.side as usize][a]
                .iter()
                .any(|&q| occ & bit(q as usize) == 0)
            {
                return true;
            }
            if p.side == HUNTERS && self.s.captures && self.can_jump(p, a) {
                return true;
            }
        }
        false
    }

    /// The chain a capture names, handed to `f` (None for a step or a move no chain has).
    fn with_chain<R>(&self, p: &HuntPos, m: Move, f: impl FnOnce(&ChainWalk<'_>) -> R) -> Option<R> {
        let (a, to) = (m.from.index(), m.to.index());
        if to < self.n || a >= self.n || p.hunters & bit(a) == 0 {
            return None;
        }
        let wanted = to - self.n;
        let mut i = 0;
        let mut f = Some(f);
        let mut out = None;
        self.each_chain(p, a, &mut |w| {
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

    /// The points a move visits (the Python rules' move).
    pub fn path(&self, p: &HuntPos, m: Move) -> Vec<usize> {
        let a = m.from.index();
        if m.to.index() < self.n {
            return vec![a, m.to.index()];
        }
        self.with_chain(p, m, |w| {
            let mut v = vec![a];
            v.extend(w.lands.iter().map(|&x| x as usize));
            v
        })
        .unwrap_or_default()
    }

    /// The points each of `moves` visits, walking each hunter's chains once: a crowd's tens of
    /// thousands of chains, found one by one with [`Hunt::path`], took seconds.
    pub fn paths(&self, p: &HuntPos, moves: &[Move]) -> Vec<Vec<usize>> {
        let mut chains: Vec<Option<Vec<Vec<usize>>>> = vec![None; self.n];
        moves
            .iter()
            .map(|&m| {
                let (a, to) = (m.from.index(), m.to.index());
                if to < self.n || a >= self.n {
                    return vec![a, to];
                }
                let walked = chains[a].get_or_insert_with(|| {
                    let mut all = Vec::new();
                    self.each_chain_move(p, a, &mut |_, w| {
                        let mut path = vec![a];
                        path.extend(w.lands.iter().map(|&x| x as usize));
                        all.push(path);
                    });
                    all
                });
                walked.get(to - self.n).cloned().unwrap_or_default()
            })
            .collect()
    }

    /// The legal moves of `p` with the points each visits, in the Python rules' order.
    pub fn moves_with_paths(&self, p: &HuntPos) -> Vec<(Move, Vec<usize>)> {
        let mut legal = Vec::new();
        self.moves(p, &mut legal);
        let paths = self.paths(p, &legal);
        legal.into_iter().zip(paths).collect()
    }

    /// The move that visits `path` in `p`, if it is legal there.
    pub fn move_of(&self, p: &HuntPos, path: &[usize]) -> Option<Move> {
        self.moves_with_paths(p)
            .into_iter()
            .find(|(_, visited)| visited == path)
            .map(|(m, _)| m)
    }

    /// What the position decides after `mover` moved (`_decided`).
    fn decided(&self, flock: u128, hunters: u128) -> Option<Outcome> {
        let s = &self.s;
        if hunters == 0 {
            return Some(Outcome::Win(FLOCK));
        }
        if s.captures && flock.count_ones() < s.hunter_win_below {
            return Some(Outcome::Win(HUNTERS));
        }
        if s.breakthrough && hunters & self.home != 0 {
            return Some(Outcome::Win(HUNTERS));
        }
        if s.fill_pen && self.pen != 0 && flock & self.pen == self.pen {
            return Some(Outcome::Win(FLOCK));
        }
        None
    }

    /// Whether the hunter on `h` has a jump to start a chain with.
    fn can_jump(&self, p: &HuntPos, h: usize) -> bool {
        let occ = p.flock | p.hunters;
        self.jumps[h]
            .iter()
            .any(|&(o, l)| p.flock & bit(o as usize) != 0 && occ & bit(l as usize) == 0)
    }

    /// The `i`-th chain of the hunter on `a`: where it lands and what it takes (None past the
    /// last); a crowd's chains are walked once and kept in the thread's [`WALKED`].
    fn chain_landing(&self, p: &HuntPos, a: usize, i: usize) -> Option<Landing> {
        let landing = |w: &ChainWalk<'_>| {
            let taken = w.taken.iter().fold(0u128, |t, &x| t | bit(x as usize));
            (*w.lands.last().expect("a chain lands"), taken)
        };
        let key = (self.id, p.flock, p.hunters, a);
        WALKED.with(|cell| {
            let mut kept = cell.borrow_mut();
            if let Some(k) = kept.iter().position(|(w, _)| *w == key) {
                let used = kept.remove(k);
                let found = used.1.get(i).copied();
                kept.push(used);
                return found;
            }
            let (mut found, mut count) = (None, 0);
            self.each_chain_move(p, a, &mut |_, w| {
                if count == i {
                    found = Some(landing(w));
                }
                count += 1;
            });
            if count >= WALK_WORTH_KEEPING {
                let mut chains = Vec::with_capacity(count);
                self.each_chain_move(p, a, &mut |_, w| chains.push(landing(w)));
                if kept.len() == WALKS_KEPT {
                    kept.remove(0);
                }
                kept.push((key, chains));
            }
            found
        })
    }

    /// The position after a legal move, and the number of pieces it took (huffed hunters too).
    pub fn play(&self, p: &HuntPos, m: Move) -> Option<(HuntPos, u32)> {
        let (a, to) = (m.from.index(), m.to.index());
        let (mut flock, mut hunters) = (p.flock, p.hunters);
        let mut caps = 0u32;
        if p.side == HUNTERS {
            if to >= self.n {
                let (land, taken) = self.chain_landing(p, a, to - self.n)?;
                let land = land as usize;
                hunters = (hunters & !bit(a)) | bit(land);
                flock &= !taken;
                caps = taken.count_ones();
            } else {
                let mut huffed = 0u128;
                if self.s.captures && self.s.compulsion == Compulsion::Huff {
                    // a hunter with a chain is one with a first jump: no chain need be walked
                    huffed = points(hunters)
                        .filter(|&h| self.can_jump(p, h))
                        .fold(0, |b, h| b | bit(h));
                }
                hunters = (hunters & !bit(a)) | bit(to);
                for h in points(huffed) {
                    // a huffed hunter that moved is taken where he went
                    hunters &= !bit(if h == a { to } else { h });
                    caps += 1;
                }
            }
        } else {
            flock = (flock & !bit(a)) | bit(to);
        }
        let side = 1 - p.side;
        let child = HuntPos {
            flock,
            hunters,
            side,
            quiet: if caps > 0 { 0 } else { p.quiet + 1 },
            result: self.decided(flock, hunters),
            hash: self.full_hash(flock, hunters, side),
        };
        Some((child, caps))
    }

    /// The result when the side to move has no move (`outcome`).
    pub fn no_moves_outcome(&self, p: &HuntPos) -> Outcome {
        if p.side == HUNTERS {
            Outcome::Win(FLOCK)
        } else if self.s.no_moves_draw {
            Outcome::Draw
        } else {
            Outcome::Win(HUNTERS)
        }
    }

    /// What is decided without generating moves: the last move's result, the captureless draw.
    pub fn quick_outcome(&self, p: &HuntPos) -> Option<Outcome> {
        if p.result.is_some() {
            return p.result;
        }
        (self.s.captureless > 0 && p.quiet >= self.s.captureless).then_some(Outcome::Draw)
    }

    /// The repetition rule's verdict when a position occurs for the `count`-th time.
    pub fn repetition_outcome(&self, count: u32) -> Option<Outcome> {
        (self.s.repetition_draw && count >= 3).then_some(Outcome::Draw)
    }
}

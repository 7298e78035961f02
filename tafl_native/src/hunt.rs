//! The Fox games (Fox and Geese, Fox and Hounds, Asalto, Halatafl) as `tafl_desktop/core/hunt.py`
//! defines them, on the Python rules' own point-and-line board: which points each side may step
//! to, the hunters' jumps, and the toggles, all handed over from Python, so there is one geometry
//! and one rule book; this module only walks them.
//!
//! Positions are bitboards over the points (up to 128), as in Python.  A move is the search's
//! two-square `Move`: a step is (from, to); a capture is (start, land + points * k) for the k-th
//! (from 1) jump chain of that hunter ending on `land`, in the order the Python rules list them,
//! so two chains over different pieces to the same point are two moves.  `path` gives the points
//! a move visits, the Python move.  Checked against the Python rules move for move
//! (`tests/test_native_hunt.py`).

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

    /// The hunters' captures (as if it were their turn), each with its chain's length, in the
    /// Python rules' order.
    fn captures(&self, p: &HuntPos, out: &mut Vec<(Move, usize)>) {
        if !self.s.captures {
            return;
        }
        let n = self.n;
        for h in points(p.hunters) {
            let mut seen = [0u16; MAX_POINTS];
            self.each_chain(p, h, &mut |w| {
                let land = *w.lands.last().expect("a chain lands") as usize;
                seen[land] += 1;
                out.push((Move::new(h, land + n * seen[land] as usize), w.taken.len()));
                false
            });
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
            if p.side == HUNTERS
                && self.s.captures
                && self.jumps[a]
                    .iter()
                    .any(|&(o, l)| p.flock & bit(o as usize) != 0 && occ & bit(l as usize) == 0)
            {
                return true;
            }
        }
        false
    }

    /// The chain a capture names, handed to `f` (None for a step or a move no chain has).
    fn with_chain<R>(&self, p: &HuntPos, m: Move, f: impl FnOnce(&ChainWalk<'_>) -> R) -> Option<R> {
        let n = self.n;
        let (a, to) = (m.from.index(), m.to.index());
        let (land, k) = (to % n, to / n);
        if k == 0 || a >= n || p.hunters & bit(a) == 0 {
            return None;
        }
        let mut count = 0;
        let mut f = Some(f);
        let mut out = None;
        self.each_chain(p, a, &mut |w| {
            if *w.lands.last().expect("a chain lands") as usize == land {
                count += 1;
                if count == k {
                    if let Some(f) = f.take() {
                        out = Some(f(w));
                    }
                    return true;
                }
            }
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

    /// The move that visits `path` in `p`, if it is legal there.
    pub fn move_of(&self, p: &HuntPos, path: &[usize]) -> Option<Move> {
        let mut legal = Vec::new();
        self.moves(p, &mut legal);
        legal.into_iter().find(|&m| self.path(p, m) == path)
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

    /// The position after a legal move, and the number of pieces it took (huffed hunters too).
    pub fn play(&self, p: &HuntPos, m: Move) -> Option<(HuntPos, u32)> {
        let (a, to) = (m.from.index(), m.to.index());
        let (mut flock, mut hunters) = (p.flock, p.hunters);
        let mut caps = 0u32;
        if p.side == HUNTERS {
            if to >= self.n {
                let (land, taken) = self.with_chain(p, m, |w| {
                    let mut t = 0u128;
                    for &x in w.taken {
                        t |= bit(x as usize);
                    }
                    (*w.lands.last().expect("a chain lands") as usize, t)
                })?;
                hunters = (hunters & !bit(a)) | bit(land);
                flock &= !taken;
                caps = taken.count_ones();
            } else {
                let mut huffed = 0u128;
                if self.s.captures && self.s.compulsion == Compulsion::Huff {
                    let mut could = Vec::new();
                    self.captures(p, &mut could);
                    for (c, _) in could {
                        huffed |= bit(c.from.index());
                    }
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

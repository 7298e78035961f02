//! Making and unmaking moves: every capture rule of the schema, in the core's order
//! (`TaflRules.play`): custodial captures (and Linnaean), shield walls, immobilisation, the king,
//! strict custodian; then the result the move decides.

use crate::board::{Bits, Square};
use crate::rules::config::{KingCapture, StrictCustodian};
use crate::rules::position::{Move, Outcome, Position, Reason, Side, Undo};
use crate::rules::zobrist::{Z_ATT, Z_DEF, Z_KING};
use crate::rules::Rules;

/// The pieces of a position, as the capture rules see them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Board<B: Bits> {
    pub att: B,
    pub dfn: B,
    pub king: Option<Square>,
}

impl<B: Bits> Board<B> {
    #[inline(always)]
    pub fn king_bits(&self) -> B {
        match self.king {
            None => B::ZERO,
            Some(k) => B::bit(k.index()),
        }
    }
    /// Does the king stand on `sq`?
    #[inline(always)]
    pub fn king_on(&self, sq: usize) -> bool {
        self.king.is_some_and(|k| k.index() == sq)
    }
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.att | self.dfn | self.king_bits()
    }
}

/// What the capture rules took after one move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Captures<B: Bits> {
    /// Enemy soldiers taken.
    pub enemies: B,
    /// The moving soldier taken where it stopped (strict custodian).
    pub mover_died: bool,
    /// The king taken (he is already off `Board` when this is returned).
    pub king_taken: bool,
}

impl<B: Bits> Rules<B> {
    /// Play `mv` (which must be legal) and return what `unmake` needs to take it back.
    pub fn make(&self, pos: &mut Position<B>, mv: Move) -> Undo<B> {
        let (frm, to) = (mv.from.index(), mv.to.index());
        let side = pos.side;
        let z = &self.zobrist.piece;
        let mut undo = Undo {
            mv,
            mover: side,
            captured: B::ZERO,
            mover_died: false,
            king_before: pos.king,
            king_captured: false,
            quiet_before: pos.quiet,
            result_before: pos.result,
            hash_before: pos.hash,
        };
        let mut hash = pos.hash;
        let mut b = Board {
            att: pos.att,
            dfn: pos.dfn,
            king: pos.king,
        };
        let moved = B::bit(frm) | B::bit(to);
        let king_moved = side == Side::Defenders && pos.king == Some(mv.from);
        if side == Side::Attackers {
            b.att ^= moved;
            hash ^= z[frm][Z_ATT] ^ z[to][Z_ATT];
        } else if king_moved {
            b.king = Some(mv.to);
            hash ^= z[frm][Z_KING] ^ z[to][Z_KING];
        } else {
            b.dfn ^= moved;
            hash ^= z[frm][Z_DEF] ^ z[to][Z_DEF];
        }
        let king_sq = b.king;
        let caps = self.resolve_captures(&mut b, side, to, king_moved);
        if caps.enemies.any() {
            let kind = if side == Side::Attackers { Z_DEF } else { Z_ATT };
            for s in caps.enemies.squares() {
                hash ^= z[s][kind];
            }
        }
        if caps.mover_died {
            hash ^= z[to][if side == Side::Attackers { Z_ATT } else { Z_DEF }];
        }
        if caps.king_taken {
            if let Some(k) = king_sq {
                hash ^= z[k.index()][Z_KING];
            }
        }
        undo.captured = caps.enemies;
        undo.mover_died = caps.mover_died;
        undo.king_captured = caps.king_taken;
        // the other orientations follow the soldiers (the king's square is mapped when needed)
        if !king_moved {
            let views = if side == Side::Attackers {
                &mut pos.att_v
            } else {
                &mut pos.dfn_v
            };
            self.flip_views(views, frm);
            if !caps.mover_died {
                self.flip_views(views, to);
            }
        }
        if caps.enemies.any() {
            let views = if side == Side::Attackers {
                &mut pos.dfn_v
            } else {
                &mut pos.att_v
            };
            for s in caps.enemies.squares() {
                self.flip_views(views, s);
            }
        }
        pos.result = self.decide(&b, side, &pos.att_v, &pos.dfn_v);
        pos.quiet = if undo.is_capture() {
            0
        } else {
            pos.quiet.saturating_add(1)
        };
        pos.att = b.att;
        pos.dfn = b.dfn;
        pos.king = b.king;
        pos.side = side.other();
        pos.hash = hash ^ self.zobrist.side;
        undo
    }

    /// Take back the move `undo` records (the position must be the one `make` left).
    pub fn unmake(&self, pos: &mut Position<B>, undo: &Undo<B>) {
        let (frm, to) = (undo.mv.from.index(), undo.mv.to.index());
        if undo.king_before != Some(undo.mv.from) || undo.mover == Side::Attackers {
            let views = if undo.mover == Side::Attackers {
                &mut pos.att_v
            } else {
                &mut pos.dfn_v
            };
            if !undo.mover_died {
                self.flip_views(views, to);
            }
            self.flip_views(views, frm);
        }
        if undo.captured.any() {
            let views = if undo.mover == Side::Attackers {
                &mut pos.dfn_v
            } else {
                &mut pos.att_v
            };
            for s in undo.captured.squares() {
                self.flip_views(views, s);
            }
        }
        match undo.mover {
            Side::Attackers => {
                if !undo.mover_died {
                    pos.att.clear(to);
                }
                pos.att.set(frm);
                pos.dfn |= undo.captured;
            }
            Side::Defenders => {
                if undo.king_before != Some(undo.mv.from) {
                    if !undo.mover_died {
                        pos.dfn.clear(to);
                    }
                    pos.dfn.set(frm);
                }
                pos.att |= undo.captured;
            }
        }
        pos.king = undo.king_before;
        pos.side = undo.mover;
        pos.quiet = undo.quiet_before;
        pos.result = undo.result_before;
        pos.hash = undo.hash_before;
    }

    /// Apply every capture rule after the piece of `side` arrived on `to` (already moved on
    /// `b`); removes what is taken from `b`.
    pub(crate) fn resolve_captures(&self, b: &mut Board<B>, side: Side, to: usize, king_moved: bool) -> Captures<B> {
        let o = &self.opts;
        let g = &self.grid;
        let may_hit = !king_moved || self.king_hammer;
        let mut enemies_taken = B::ZERO;
        let mut king_taken = false;
        let mut mover_died = false;
        let kb = b.king_bits();

        // -- custodial captures (the mover is the hammer) -------------------------------------
        if may_hit {
            let (friends, enemies, victim) = match side {
                Side::Attackers => (b.att, b.dfn, Side::Defenders),
                Side::Defenders => (b.dfn, b.att, Side::Attackers),
            };
            if (enemies & g.adj[to]).any() {
                let v = victim.index();
                let anvil_extra = if side == Side::Defenders && self.king_anvil {
                    kb
                } else {
                    B::ZERO
                };
                let anvils = friends | anvil_extra | self.host_always[v] | (self.host_empty[v] & !b.occupied());
                for d in 0..4 {
                    let Some(n) = g.nbr[to][d] else {
                        continue;
                    };
                    if !enemies.has(n.index()) {
                        continue;
                    }
                    let taken = match g.far[to][d] {
                        None => o.edge_hostile,
                        Some(far) => {
                            anvils.has(far.index())
                                || (side == Side::Attackers
                                    && b.king == Some(far)
                                    && b.king == self.throne
                                    && o.linnaean_capture
                                    && self.king_otherwise_surrounded(b.att, far.index(), n.index()))
                        }
                    };
                    if taken {
                        enemies_taken.set(n.index());
                    }
                }
                if enemies_taken.any() {
                    match side {
                        Side::Attackers => b.dfn &= !enemies_taken,
                        Side::Defenders => b.att &= !enemies_taken,
                    }
                }
            }
        }

        // -- shield walls ----------------------------------------------------------------------
        if o.shield_wall && may_hit && self.wall_trigger.has(to) {
            let (wall, wall_king) = self.shield_walls(b, side, to);
            if wall.any() {
                enemies_taken |= wall;
                match side {
                    Side::Attackers => b.dfn &= !wall,
                    Side::Defenders => b.att &= !wall,
                }
            }
            king_taken |= wall_king;
        }

        // -- immobilisation ----------------------------------------------------------------------
        if o.immobilisation && may_hit {
            for d in 0..4 {
                let Some(n) = g.nbr[to][d] else {
                    continue;
                };
                let n = n.index();
                let foes = if side == Side::Attackers { b.dfn | kb } else { b.att };
                if foes.has(n) && self.immobilised(b, n, to) {
                    if b.king_on(n) {
                        king_taken = true;
                    } else {
                        enemies_taken.set(n);
                        match side {
                            Side::Attackers => b.dfn.clear(n),
                            Side::Defenders => b.att.clear(n),
                        }
                    }
                }
            }
        }

        // -- the king ------------------------------------------------------------------------------
        if side == Side::Attackers && !king_taken && b.king.is_some_and(|k| g.adj[k.index()].has(to)) {
            king_taken = self.king_captured(b, Some(Square::new(to)));
        }

        // -- strict custodian: the mover itself may die where it stopped -------------------------
        if o.strict_custodian != StrictCustodian::Off && !king_taken {
            if king_moved {
                if o.strict_custodian == StrictCustodian::Everyone && self.king_captured(b, None) {
                    king_taken = true;
                }
            } else if self.sandwiched(b, to, side) {
                mover_died = true;
                match side {
                    Side::Attackers => b.att.clear(to),
                    Side::Defenders => b.dfn.clear(to),
                }
            }
        }
        if king_taken {
            b.king = None;
        }
        Captures {
            enemies: enemies_taken,
            mover_died,
            king_taken,
        }
    }

    /// What the move just made by `side` decided, if anything.
    #[inline]
    pub(crate) fn decide(&self, b: &Board<B>, side: Side, att_v: &[B; 3], dfn_v: &[B; 3]) -> Option<Outcome> {
        let Some(k) = b.king else {
            return Some(Outcome::win(Side::Attackers, Reason::KingCaptured));
        };
        let o = &self.opts;
        let k = k.index();
        if self.escape.has(k) && (!o.escape_safe || (side == Side::Defenders && !self.king_threatened(b))) {
            return Some(Outcome::win(Side::Defenders, Reason::KingEscaped));
        }
        if side == Side::Defenders && o.edge_forts && self.grid.edge.has(k) && self.edge_fort(b) {
            return Some(Outcome::win(Side::Defenders, Reason::EdgeFort));
        }
        if side == Side::Attackers && o.encirclement && self.encircled(b, att_v, dfn_v) {
            return Some(Outcome::win(Side::Attackers, Reason::Encircled));
        }
        None
    }

    // ------------------------------------------------------------------------------ capture tests

    /// Does `sq` act against a piece of side `victim` (as an enemy piece or a hostile square)?
    #[inline]
    pub(crate) fn hostile_to(&self, victim: Side, sq: usize, b: &Board<B>) -> bool {
        let v = victim.index();
        let enemy = match victim {
            Side::Defenders => b.att.has(sq),
            Side::Attackers => b.dfn.has(sq) || (b.king_on(sq) && self.king_anvil),
        };
        enemy || self.host_always[v].has(sq) || (self.host_empty[v].has(sq) && !b.occupied().has(sq))
    }

    /// Linnaean capture: attackers on every side of the throned king except `spared`.
    fn king_otherwise_surrounded(&self, att: B, king: usize, spared: usize) -> bool {
        let adj = self.grid.adj[king];
        adj.count() == 4 && adj.squares().all(|n| n == spared || att.has(n))
    }

    /// Is the king (on the board) captured?  `mover` is the attacker that just moved next to
    /// him (None: any, for strict custodian).
    pub(crate) fn king_captured(&self, b: &Board<B>, mover: Option<Square>) -> bool {
        let o = &self.opts;
        let Some(king_sq) = b.king else {
            return false;
        };
        let king = king_sq.index();
        let thr = self.throne;
        let four = match o.king_capture {
            KingCapture::Strong => true,
            KingCapture::DoubleWeak => b.king == thr,
            KingCapture::WeakNearThrone => thr.is_some_and(|t| king_sq == t || self.grid.adj[king].has(t.index())),
            KingCapture::Custodial => false,
        };
        let dirs = self.grid.nbr[king];
        if four {
            return dirs.iter().all(|&n| match n {
                None => o.king_edge_capture || self.rim_against_king(),
                Some(n) => self.hostile_to(Side::Defenders, n.index(), b),
            });
        }
        let side_hostile = |n: Option<Square>| match n {
            None => self.rim_against_king(),
            Some(n) => self.hostile_to(Side::Defenders, n.index(), b),
        };
        for (a, c) in [(dirs[0], dirs[1]), (dirs[2], dirs[3])] {
            if mover.is_some() && mover != a && mover != c {
                continue;
            }
            if side_hostile(a) && side_hostile(c) {
                return true;
            }
        }
        false
    }

    /// Does the hostile rim act against the king (`edge_hostile` with `edge_hostile_king`)?
    #[inline]
    pub(crate) fn rim_against_king(&self) -> bool {
        self.opts.edge_hostile && self.opts.edge_hostile_king
    }

    /// Strict custodian: is the soldier of `side` on `s` between two enemies (or, with
    /// `strict_custodian_squares`, hostile squares and the hostile rim)?
    fn sandwiched(&self, b: &Board<B>, s: usize, side: Side) -> bool {
        let dirs = self.grid.nbr[s];
        let squares = self.opts.strict_custodian_squares;
        let hostile = |n: Option<Square>| match n {
            None => squares && self.opts.edge_hostile,
            Some(n) if squares => self.hostile_to(side, n.index(), b),
            Some(n) => {
                let n = n.index();
                match side {
                    Side::Defenders => b.att.has(n),
                    Side::Attackers => b.dfn.has(n) || (b.king_on(n) && self.king_anvil),
                }
            }
        };
        (hostile(dirs[0]) && hostile(dirs[1])) || (hostile(dirs[2]) && hostile(dirs[3]))
    }

    /// Immobilisation: every neighbour of `s` is the rim, the piece that just moved (the
    /// hammer), a standing enemy able to capture, or a hostile square.
    fn immobilised(&self, b: &Board<B>, s: usize, mover: usize) -> bool {
        let victim = if b.att.has(s) { Side::Attackers } else { Side::Defenders };
        self.grid.nbr[s]
            .iter()
            .all(|&n| n.is_none_or(|n| n.index() == mover || self.hostile_to(victim, n.index(), b)))
    }

    /// Edge rows captured by the move to `to`: (captured soldiers, king captured).
    fn shield_walls(&self, b: &Board<B>, side: Side, to: usize) -> (B, bool) {
        let g = &self.grid;
        let o = &self.opts;
        let (w, h, n) = (g.width as isize, g.height as isize, g.size as isize);
        let kb = b.king_bits();
        let (enemy, friends) = match side {
            Side::Attackers => (b.dfn | kb, b.att),
            // standing kings are anvils; the moving piece on `to` is the hammer
            Side::Defenders => (b.att, b.dfn | (if self.king_anvil { kb } else { B::ZERO }) | B::bit(to)),
        };
        let mut starts: [(usize, isize); 8] = [(0, 0); 8];
        let mut count = 0;
        let (f, r) = (to as isize % w, to as isize / w);
        let t = to as isize;
        if g.is_edge(to) {
            // along the edge (both edges from a board's corner square: on a board without marked
            // corners any piece may stop there, and a piece there brackets like any other)
            let on_row_edge = r == 0 || r == h - 1;
            let on_col_edge = f == 0 || f == w - 1;
            for (st, on) in [(1, on_row_edge), (-1, on_row_edge), (w, on_col_edge), (-w, on_col_edge)] {
                let q = t + st;
                if on
                    && (0..n).contains(&q)
                    && (st != 1 || q % w != 0)
                    && (st != -1 || t % w != 0)
                    && enemy.has(q as usize)
                {
                    starts[count] = (q as usize, st);
                    count += 1;
                }
            }
        }
        if !o.shield_wall_flank && !g.is_edge(to) {
            for d in 0..4 {
                let Some(e) = g.nbr[to][d] else {
                    continue;
                };
                let e = e.index();
                if g.is_edge(e) && enemy.has(e) {
                    let er = e as isize / w;
                    starts[count] = (e, if er == 0 || er == h - 1 { 1 } else { w });
                    count += 1;
                }
            }
        }
        let mut captured = B::ZERO;
        let mut king_hit = false;
        let mut seen = [usize::MAX; 8];
        for (i, &(start, st)) in starts[..count].iter().enumerate() {
            let step = st.abs();
            let (lo, hi) = self.edge_run(enemy, start, step);
            if seen[..i].contains(&lo) || hi == lo {
                continue;
            }
            seen[i] = lo;
            let ends = [lo as isize - step, hi as isize + step];
            let ok = [(ends[0], lo), (ends[1], hi)].iter().all(|&(e, inner)| {
                if !self.along_neighbour(inner, e, step) {
                    return false;
                }
                let e = e as usize;
                friends.has(e) || (self.corners.has(e) && o.shield_wall_corners)
            });
            if !ok {
                continue;
            }
            if o.shield_wall_flank && t != ends[0] && t != ends[1] {
                continue;
            }
            let run = (lo..=hi).step_by(step as usize);
            if !run.clone().all(|m| self.faced(m, friends)) {
                continue;
            }
            for m in run {
                if b.king_on(m) {
                    if !o.shield_wall_king_spared {
                        king_hit = true;
                    }
                } else {
                    captured.set(m);
                }
            }
        }
        (captured, king_hit)
    }

    /// Is `e` on the board and really next to `s` along the edge (no wrap-around, no wall)?
    #[inline]
    fn along_neighbour(&self, s: usize, e: isize, step: isize) -> bool {
        let g = &self.grid;
        if e < 0 || e >= g.size as isize {
            return false;
        }
        let e = e as usize;
        (step != 1 || e / g.width == s / g.width) && !(g.has_walls && g.wall_between(s, e))
    }

    /// The maximal run of enemy pieces along the edge containing `start`: (lowest, highest).
    fn edge_run(&self, enemy: B, start: usize, step: isize) -> (usize, usize) {
        let mut lo = start;
        while self.along_neighbour(lo, lo as isize - step, step) && enemy.has(lo - step as usize) {
            lo -= step as usize;
        }
        let mut hi = start;
        while self.along_neighbour(hi, hi as isize + step, step) && enemy.has(hi + step as usize) {
            hi += step as usize;
        }
        (lo, hi)
    }

    /// Is edge square `m` faced by a friendly piece on its inner side?
    fn faced(&self, m: usize, friends: B) -> bool {
        let g = &self.grid;
        let (f, r) = g.file_rank(m);
        let inner = if r == 0 {
            m + g.width
        } else if r == g.height - 1 {
            m - g.width
        } else if f == 0 {
            m + 1
        } else {
            m - 1
        };
        friends.has(inner) && !(g.has_walls && g.wall_between(m, inner))
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Bits;
    use crate::rules::testing::*;
    use crate::rules::*;

    fn sq(name: &str, w: usize) -> Square {
        let b = name.as_bytes();
        let f = (b[0] - b'a') as usize;
        let r: usize = name[1..].parse().unwrap();
        Square::new((r - 1) * w + f)
    }

    #[test]
    fn make_unmake_restores_everything() {
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let start = r.parse_position(COPENHAGEN, Side::Attackers).unwrap();
        let mut p = start;
        let mut moves = Vec::new();
        r.generate_moves(&p, &mut moves);
        for &mv in &moves {
            let u = r.make(&mut p, mv);
            assert_eq!(p.hash, r.zobrist.hash(p.att, p.dfn, p.king, p.side));
            r.unmake(&mut p, &u);
            assert_eq!(p, start);
        }
    }

    #[test]
    fn custodial_capture_against_a_corner() {
        // Copenhagen: an attacker on b1 next to the corner a1 is taken by a defender moving to c1
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let p = r
            .parse_position("/11/11/11/11/11/5K5/11/11/11/2T8/1t9/", Side::Defenders)
            .unwrap();
        let mut q = p;
        let u = r.make(
            &mut q,
            Move {
                from: sq("c2", 11),
                to: sq("c1", 11),
            },
        );
        assert_eq!(u.captured_squares(), vec![sq("b1", 11)]);
        assert!(q.att.is_zero());
        assert_eq!(q.quiet, 0);
    }
}

#[cfg(test)]
mod invariants {
    //! Random games on boards of every bitboard width: after every make the orientation views
    //! and the hash equal fresh ones, every generated move is counted, and unmake restores the
    //! position exactly.
    use crate::board::{Bits, Wide};
    use crate::playout::PlayoutRng;
    use crate::rules::testing::*;
    use crate::rules::*;

    fn walk<B: Bits>(config: &TaflConfig, text: &str, seed: u64) {
        let r: Rules<B> = Rules::new(config).unwrap();
        let mut rng = PlayoutRng::new(seed);
        let mut pos = r.parse_position(text, Side::Attackers).unwrap();
        let mut moves = Vec::new();
        for _ in 0..300 {
            r.generate_moves(&pos, &mut moves);
            assert_eq!(moves.len() as u32, r.count_moves(&pos));
            if moves.is_empty() {
                break;
            }
            let before = pos;
            let mv = moves[rng.below(moves.len())];
            let undo = r.make(&mut pos, mv);
            assert_eq!(pos.att_v, r.views(pos.att));
            assert_eq!(pos.dfn_v, r.views(pos.dfn));
            assert_eq!(pos.hash, r.zobrist.hash(pos.att, pos.dfn, pos.king, pos.side));
            let mut back = pos;
            r.unmake(&mut back, &undo);
            assert_eq!(back, before);
            if pos.result.is_some() {
                break;
            }
        }
    }

    #[test]
    fn views_hash_and_counts_stay_true_on_every_board_width() {
        let mut shield = copenhagen();
        set(&mut shield, "shield_wall_flank", OptionValue::Bool(false));
        set(&mut shield, "immobilisation", OptionValue::Bool(true));
        set(&mut shield, "strict_custodian", OptionValue::Str("everyone".into()));
        for seed in 0..40 {
            walk::<u128>(&copenhagen(), COPENHAGEN, seed);
            walk::<u128>(&shield, COPENHAGEN, seed);
            walk::<u128>(&brandubh(), BRANDUBH, seed);
        }
        let wide = |w: usize, h: usize| {
            let mut c = TaflConfig::plain(w, h);
            set(&mut c, "escape", OptionValue::Str("edge".into()));
            set(&mut c, "encirclement", OptionValue::Bool(true));
            c
        };
        // 13x13 (192 bits), 15x15 (256) and 19x17 (384): a ring of attackers round the king's men
        let ring13 = "/13/4ttttt4/3t5t3/2t2TTT2t2/2t1T3T1t2/2t1T1K1T1t2/2t1T3T1t2/2t2TTT2t2/3t5t3/4ttttt4/13/13/13/";
        let ring15 =
            "/15/15/5ttttt5/4t5t4/3t2TTT2t3/3t1T3T1t3/3t1T1K1T1t3/3t1T3T1t3/3t2TTT2t3/4t5t4/5ttttt5/15/15/15/15/";
        let ring19 =
            "/19/19/19/7ttttt7/6t5t6/5t2TTT2t5/5t1T3T1t5/5t1T1K1T1t5/5t1T3T1t5/5t2TTT2t5/6t5t6/7ttttt7/19/19/19/19/19/";
        for seed in 0..10 {
            walk::<Wide<3>>(&wide(13, 13), ring13, seed);
            walk::<Wide<4>>(&wide(15, 15), ring15, seed);
            walk::<Wide<6>>(&wide(19, 17), ring19, seed);
        }
    }
}

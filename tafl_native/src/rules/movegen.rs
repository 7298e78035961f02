//! Legal moves: generated into a caller's buffer, or only counted (perft's last ply).
//!
//! Counting needs no per-piece work: in each of the four directions, the squares some soldier
//! can reach form one set, found for all soldiers of a [`MoverGroup`] at once, and each square in
//! it is reached by exactly one soldier (the nearest piece behind it).  The position keeps its
//! pieces in four orientations of the board (as it is, transposed, reversed, both), so that each
//! direction runs towards higher bits in one of them, where the set is one subtraction
//! (`o ^ (o - 2s)`).  A side's move count is the sum of four population counts per group, plus
//! the king's, found the same way.  Generating moves walks each soldier's precomputed rays to the
//! first blocker by bit scans.

use crate::board::{Bits, EAST};
use crate::rules::position::{Move, Position, Side};
use crate::rules::{MoverGroup, Rules};

impl<B: Bits> Rules<B> {
    /// Squares reached by sliding any of `movers` any distance in direction `d` through `free`
    /// squares (the movers' own squares not included; `free` must not hold any mover): one
    /// subtraction eastwards, an occluded Kogge-Stone fill the other ways.
    /// (Bulk counting uses the orientation views instead; this works on any set, e.g. for
    /// mobility or escape-route terms of an evaluation.)
    #[inline(always)]
    pub fn slide(&self, movers: B, free: B, d: usize) -> B {
        let g = &self.grid;
        let mut pro = free & g.enter[d];
        if d == EAST {
            // towards higher bits along a row: every square that cannot be entered eastwards
            // (off-board bits included) blocks, and the movers are among the blockers
            let o = !pro;
            return (o ^ o.wrapping_sub(movers.shl(1))) & pro;
        }
        let mut gen = movers;
        let mut k = 1u32;
        for _ in 0..self.fill_rounds {
            gen |= pro & g.shift(gen, d, k);
            pro &= g.shift(pro, d, k);
            k <<= 1;
        }
        gen & !movers
    }

    /// Where the king on `king` may move, given the occupied squares.
    #[inline]
    pub fn king_targets(&self, king: usize, occ: B) -> B {
        let mut out = B::ZERO;
        let free = self.king_pass & !occ;
        for d in 0..4 {
            let mut s = king;
            let mut dist = 0;
            while dist < self.king_maxdist {
                let Some(t) = self.grid.nbr[s][d] else {
                    break;
                };
                let t = t.index();
                if !free.has(t) {
                    break;
                }
                if self.king_stop.has(t) {
                    out.set(t);
                }
                if self.king_end.has(t) {
                    break;
                }
                s = t;
                dist += 1;
            }
        }
        out
    }

    /// The soldier groups and soldiers of the side to move.
    #[inline(always)]
    fn movers(&self, pos: &Position<B>) -> (&[MoverGroup<B>], B) {
        match pos.side {
            Side::Attackers => (&self.groups[0], pos.att),
            Side::Defenders => (&self.groups[1], pos.dfn),
        }
    }

    /// Number of legal moves of the side to move (0 when the position is decided).
    ///
    /// In each of the board's four orientations one direction runs towards higher bits, so
    /// the squares all soldiers of a group reach that way are one subtraction away
    /// (`o ^ (o - 2s)`, `o` every square that cannot be entered); each such square is reached by
    /// exactly one soldier, so their number is the number of moves.
    #[inline]
    pub fn count_moves(&self, pos: &Position<B>) -> u32 {
        if pos.result.is_some() {
            return 0;
        }
        let defenders = pos.side == Side::Defenders;
        let groups = &self.groups[defenders as usize];
        let none = [B::ZERO; 4];
        let kv = match pos.king {
            None => &none,
            Some(k) => &self.sq_v[k.index()],
        };
        let (mv, ov) = if defenders {
            (&pos.dfn_v, &pos.att_v)
        } else {
            (&pos.att_v, &pos.dfn_v)
        };
        let own = if defenders { pos.dfn } else { pos.att };
        let other = if defenders { pos.att } else { pos.dfn };
        let mut total = self.count_view(own, own | other | kv[0], 0, groups)
            + self.count_view(mv[0], mv[0] | ov[0] | kv[1], 1, groups)
            + self.count_view(mv[1], mv[1] | ov[1] | kv[2], 2, groups)
            + self.count_view(mv[2], mv[2] | ov[2] | kv[3], 3, groups);
        if let (true, Some(king)) = (defenders, pos.king) {
            total += if self.king_maxdist < self.maxdist {
                self.king_targets(king.index(), pos.occupied()).count()
            } else {
                self.count_king_view(kv[0], own | other, 0)
                    + self.count_king_view(kv[1], mv[0] | ov[0], 1)
                    + self.count_king_view(kv[2], mv[1] | ov[1], 2)
                    + self.count_king_view(kv[3], mv[2] | ov[2], 3)
            };
        }
        total
    }

    /// The king's moves towards higher bits in orientation `o` (`king` his one-square set there,
    /// `occ` the soldiers there): a square he may stop on but not pass ends the slide, included.
    #[inline(always)]
    fn count_king_view(&self, king: B, occ: B, o: usize) -> u32 {
        let free = !occ & self.enter_v[o] & self.king_pass_v[o];
        let reach = if self.maxdist == 1 {
            king.shl(1)
        } else {
            let blockers = !free | self.king_end_v[o];
            blockers ^ blockers.wrapping_sub(king.shl(1))
        };
        (reach & free & self.king_stop_v[o]).count()
    }

    /// Moves of `movers` towards higher bits in orientation `o`, given the occupied squares there.
    #[inline(always)]
    fn count_view(&self, movers: B, occ: B, o: usize, groups: &[MoverGroup<B>]) -> u32 {
        let open = !occ & self.enter_v[o];
        let step = |m: B, g: &MoverGroup<B>| -> u32 {
            let free = open & g.pass_v[o];
            let reach = if self.maxdist == 1 {
                m.shl(1)
            } else {
                let blockers = !free;
                blockers ^ blockers.wrapping_sub(m.shl(1))
            };
            (reach & free & g.stop_v[o]).count()
        };
        if let [g] = groups {
            return if movers.is_zero() { 0 } else { step(movers, g) };
        }
        groups
            .iter()
            .map(|g| {
                let m = movers & g.origins_v[o];
                if m.is_zero() {
                    0
                } else {
                    step(m, g)
                }
            })
            .sum()
    }

    /// Does the side to move have a legal move?
    #[inline]
    pub fn has_moves(&self, pos: &Position<B>) -> bool {
        self.count_moves(pos) > 0
    }

    /// The legal moves of the side to move, into `out` (cleared first; empty when the position
    /// is decided).  Order: soldiers from the lowest square up, each one's targets from the
    /// lowest square up; then the king's, the same way.
    pub fn generate_moves(&self, pos: &Position<B>, out: &mut Vec<Move>) {
        out.clear();
        self.append_moves(pos, out);
    }

    /// [`Rules::generate_moves`] appended to what `out` holds (the search's move lists).
    pub fn append_moves(&self, pos: &Position<B>, out: &mut Vec<Move>) {
        if pos.result.is_some() {
            return;
        }
        let occ = pos.occupied();
        let empty = self.grid.full & !occ;
        let (groups, movers) = self.movers(pos);
        for grp in groups {
            let m = movers & grp.origins;
            if m.is_zero() {
                continue;
            }
            let free = empty & grp.pass;
            for s in m.squares() {
                self.push_soldier_moves(s, free, grp.stop, out);
            }
        }
        if let (Side::Defenders, Some(king)) = (pos.side, pos.king) {
            let k = king.index();
            for t in self.king_targets(k, occ).squares() {
                out.push(Move::new(k, t));
            }
        }
    }

    /// Moves of the piece on `from` (soldier or king) for the side to move, into `out` (appended).
    pub fn generate_moves_from(&self, pos: &Position<B>, from: usize, out: &mut Vec<Move>) {
        if pos.result.is_some() {
            return;
        }
        let occ = pos.occupied();
        if pos.king.is_some_and(|k| k.index() == from) {
            if pos.side == Side::Defenders {
                for t in self.king_targets(from, occ).squares() {
                    out.push(Move::new(from, t));
                }
            }
            return;
        }
        let (groups, movers) = self.movers(pos);
        if !movers.has(from) {
            return;
        }
        let empty = self.grid.full & !occ;
        if let Some(grp) = groups.iter().find(|g| g.origins.has(from)) {
            self.push_soldier_moves(from, empty & grp.pass, grp.stop, out);
        }
    }

    /// The moves of the soldier on `s`: along each of its rays up to the first square it may not
    /// pass (`free` holds those it may), keeping the squares it may stop on.
    #[inline(always)]
    fn push_soldier_moves(&self, s: usize, free: B, stop: B, out: &mut Vec<Move>) {
        let rays = &self.move_rays[s];
        let blocked = !free;
        let mut targets = B::ZERO;
        for (d, &ray) in rays.iter().enumerate() {
            let hit = ray & blocked;
            targets |= if hit.is_zero() {
                ray
            } else if crate::board::Grid::<B>::ascending(d) {
                ray & B::below(hit.lowest())
            } else {
                ray & !B::below(hit.highest() + 1)
            };
        }
        for t in (targets & stop).squares() {
            out.push(Move::new(s, t));
        }
    }

    /// Is `mv` a legal move here?
    pub fn is_legal(&self, pos: &Position<B>, mv: Move) -> bool {
        let mut buf = Vec::new();
        self.generate_moves_from(pos, mv.from.index(), &mut buf);
        buf.contains(&mv)
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::rules::*;

    #[test]
    fn counting_agrees_with_generating() {
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let mut p = r.parse_position(COPENHAGEN, Side::Attackers).unwrap();
        let mut moves = Vec::new();
        r.generate_moves(&p, &mut moves);
        assert_eq!(moves.len() as u32, r.count_moves(&p));
        assert_eq!(
            moves.len(),
            116,
            "Copenhagen's attackers have 116 first moves (perft 1)"
        );
        p.side = Side::Defenders;
        r.generate_moves(&p, &mut moves);
        assert_eq!(moves.len() as u32, r.count_moves(&p));
    }

    #[test]
    fn brandubh_first_moves() {
        let r: Rules<u128> = Rules::new(&brandubh()).unwrap();
        let p = r.parse_position(BRANDUBH, Side::Attackers).unwrap();
        assert_eq!(r.count_moves(&p), 40);
    }
}

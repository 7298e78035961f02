//! Endings: safe escape, exit (edge) forts, encirclement, no legal move, no captures, repetition.

use crate::board::{Bits, Square};
use crate::rules::config::{KingCapture, NoMoves, Repetition};
use crate::rules::make::Board;
use crate::rules::position::{Move, Outcome, Position, Reason, Side};
use crate::rules::Rules;

/// A fort side nothing can ever attack from (the core's `NEVER`): more than any army.
const NEVER: u32 = 1 << 20;

impl<B: Bits> Rules<B> {
    /// The outcome of a position on its own: what the last move decided, else no legal move,
    /// else too many moves without a capture (None: play on).  Repetition needs the history:
    /// see [`Rules::repetition_outcome`].
    pub fn outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        if let Some(r) = pos.result {
            return Some(r);
        }
        if !self.has_moves(pos) {
            return Some(self.no_moves_outcome(pos.side));
        }
        let n = self.opts.captureless_draw;
        if n > 0 && pos.quiet >= n {
            return Some(Outcome::draw(Reason::NoCaptures));
        }
        None
    }

    /// The result when `to_move` has no legal move.
    pub fn no_moves_outcome(&self, to_move: Side) -> Outcome {
        match self.opts.no_moves {
            NoMoves::Draw => Outcome::draw(Reason::NoMoves),
            NoMoves::Loses => Outcome::win(to_move.other(), Reason::NoMoves),
        }
    }

    /// The repetition rule's verdict on a position with `to_move` to move that has now occurred
    /// `count` times (the core's `repetition_outcome`).
    pub fn repetition_outcome(&self, to_move: Side, count: u32) -> Option<Outcome> {
        let o = &self.opts;
        match o.repetition {
            // the game refuses such a move (see forbids_repetition); a search that reaches one
            // anyway scores it as lost for the defenders
            Repetition::DefendersNoRepeat => {
                (count >= 2 && to_move == Side::Attackers).then(|| Outcome::win(Side::Attackers, Reason::Repetition))
            }
            _ if o.repetition == Repetition::Allowed || count < o.repetition_count => None,
            Repetition::MoverWins => Some(Outcome::win(to_move.other(), Reason::Repetition)),
            Repetition::Draw => Some(Outcome::draw(Reason::Repetition)),
            Repetition::DefendersLose => Some(Outcome::win(Side::Attackers, Reason::Repetition)),
            _ => Some(Outcome::win(to_move, Reason::Repetition)),
        }
    }

    /// Must the side to move avoid recreating an earlier position (the defenders, under
    /// "defenders may not repeat")?  The game applies it: it needs the history.
    pub fn forbids_repetition(&self, pos: &Position<B>) -> bool {
        self.opts.repetition == Repetition::DefendersNoRepeat && pos.side == Side::Defenders
    }

    /// Attacker moves that would capture the king next ("watch your king"), into `out`
    /// (cleared first); the side to move is ignored.
    pub fn king_threats(&self, pos: &Position<B>, out: &mut Vec<Move>) {
        out.clear();
        if pos.king.is_none() || pos.result.is_some() {
            return;
        }
        let b = Board {
            att: pos.att,
            dfn: pos.dfn,
            king: pos.king,
        };
        self.capturing_moves(&b, Some(out));
    }

    /// Could the attackers capture the king with their next move (safe escape's test)?
    pub(crate) fn king_threatened(&self, b: &Board<B>) -> bool {
        self.capturing_moves(b, None)
    }

    /// Attacker moves that capture the king: collected into `out`, or (`None`) only whether
    /// there is one.
    fn capturing_moves(&self, b: &Board<B>, mut out: Option<&mut Vec<Move>>) -> bool {
        let (att_v, dfn_v) = (self.views(b.att), self.views(b.dfn));
        let probe = Position {
            att: b.att,
            dfn: b.dfn,
            king: b.king,
            side: Side::Attackers,
            quiet: 0,
            result: None,
            hash: 0,
            att_v,
            dfn_v,
        };
        let mut moves = Vec::with_capacity(128);
        self.generate_moves(&probe, &mut moves);
        let Some(king) = b.king else {
            return false; // no king, nothing to capture
        };
        let near = self.grid.adj[king.index()];
        let everywhere = self.opts.shield_wall || self.opts.immobilisation;
        let mut found = false;
        for mv in moves {
            if !everywhere && !near.has(mv.to.index()) {
                continue;
            }
            let mut after = *b;
            after.att ^= B::bit(mv.from.index()) | B::bit(mv.to.index());
            if self
                .resolve_captures(&mut after, Side::Attackers, mv.to.index(), false)
                .king_taken
            {
                found = true;
                match out.as_deref_mut() {
                    Some(list) => list.push(mv),
                    None => return true,
                }
            }
        }
        found
    }

    // ------------------------------------------------------------------------- encirclement

    /// No defender (king included) can reach the edge through squares free of attackers.
    /// `att_v`/`dfn_v` are the pieces in the other orientations (see `Position::att_v`).
    pub(crate) fn encircled(&self, b: &Board<B>, att_v: &[B; 3], dfn_v: &[B; 3]) -> bool {
        let g = &self.grid;
        let mut region = b.dfn | b.king_bits();
        if (region & g.edge).any() {
            return false;
        }
        // cheap and by far the usual answer: some defender sees the edge along a row or column
        // (one subtraction per orientation; walls end the lines as they end moves)
        let none = [B::ZERO; 4];
        let kv = match b.king {
            None => &none,
            Some(k) => &self.sq_v[k.index()],
        };
        for o in 0..4 {
            let (att, dfn) = if o == 0 {
                (b.att, b.dfn)
            } else {
                (att_v[o - 1], dfn_v[o - 1])
            };
            let own = dfn | kv[o];
            let free = !(att | own) & self.enter_v[o];
            let blockers = !free;
            if (blockers ^ blockers.wrapping_sub(own.shl(1))) & free & self.edge_v[o] != B::ZERO {
                return false;
            }
        }
        let allowed = g.full & !b.att;
        loop {
            let grown = g.dilate(region) & allowed;
            if (grown & g.edge).any() {
                return false;
            }
            if grown == region {
                return true;
            }
            region = grown;
        }
    }

    // ---------------------------------------------------------------------------- exit forts

    /// Is the king (on the edge) in an exit fort the attackers can never break?  The core's
    /// `_find_edge_fort` documents the reading of the Copenhagen rule; this is the same test.
    pub(crate) fn edge_fort(&self, b: &Board<B>) -> bool {
        let g = &self.grid;
        let Some(king) = b.king else {
            return false; // decide() asks only with the king on the edge
        };
        let king = king.index();
        let kb = B::bit(king);
        let occ = b.att | b.dfn | kb;
        let empty = g.full & !occ;
        let closed = self.att_closed;
        let (mut region, mut frontier) = (kb, kb);
        while frontier.any() {
            let around = g.dilate(frontier & !closed);
            if (around & b.att).any() {
                return false; // an attacker touches the king's space
            }
            frontier = around & empty & !region;
            region |= frontier;
        }
        if region == kb {
            return false;
        }
        if self.king_targets(king, occ).is_zero() {
            return false; // the king cannot move
        }
        let ring = g.dilate(region & !closed) & !region;
        let pieces = b.dfn | kb;
        let attackers = b.att.count();
        let mut safe = b.dfn;
        let mut sealed;
        loop {
            // squares no attacker can ever reach count like the king's space: nothing acts from there
            sealed = region | self.never_reached(b.att, safe | kb | region);
            let mut lost = B::ZERO;
            for d in safe.squares() {
                if self.fort_piece_capturable(d, sealed, safe, pieces, false, attackers) {
                    lost.set(d);
                }
            }
            if lost.is_zero() {
                break;
            }
            if (lost & ring).any() {
                return false;
            }
            safe &= !lost;
        }
        !self.fort_piece_capturable(king, sealed, safe | kb, pieces, true, attackers)
    }

    /// Squares no attacker can ever stand on or pass: the board less everything the attackers
    /// reach from where they stand through squares that are not `walls` nor closed to them (the
    /// core's `_never_reached`: a pocket sealed by pieces that can never be taken is one the
    /// attackers can never use).
    fn never_reached(&self, att: B, walls: B) -> B {
        let g = &self.grid;
        let allowed = g.full & !(walls | self.att_closed);
        let mut reach = att;
        loop {
            let grown = reach | (g.dilate(reach) & allowed);
            if grown == reach {
                return g.full & !reach;
            }
            reach = grown;
        }
    }

    /// How many attackers it takes to make `n` (None: the rim or a wall) act against a
    /// defender of the fort: 0 for a square (or rim) hostile by itself, 1 for a square an attacker
    /// could stand on, [`NEVER`] when nothing there can ever act (the core's `_fort_cost`).
    #[inline]
    fn fort_cost(&self, n: Option<Square>, region: B, safe: B, king: bool) -> u32 {
        let Some(n) = n else {
            let rim = if king {
                self.rim_against_king() || self.opts.king_edge_capture
            } else {
                self.opts.edge_hostile
            };
            return if rim { 0 } else { NEVER };
        };
        let n = n.index();
        if self.def_hostile.has(n) {
            return 0;
        }
        if (region | safe | self.att_nostand).has(n) {
            return NEVER;
        }
        1
    }

    /// Could the attackers capture the piece on `d` if every square outside `region` and `safe`
    /// were theirs, using no more than the `attackers` they have?  `pieces` are all the defenders
    /// and the king standing now.  A capture between two attackers needs two of them, a four-sided
    /// king capture four less the hostile squares and rim around him (Copenhagen: a fort is won
    /// when "it is impossible for the attackers to break" it; a lone attacker breaks nothing).
    fn fort_piece_capturable(&self, d: usize, region: B, safe: B, pieces: B, is_king: bool, attackers: u32) -> bool {
        let o = &self.opts;
        let dirs = self.grid.nbr[d];
        let cost = |n: Option<Square>| self.fort_cost(n, region, safe, is_king);
        // a capture needs at least the attacker that moves
        let enough = |total: u32| total.max(1) <= attackers;
        let pair = |a: Option<Square>, b: Option<Square>| enough(cost(a) + cost(b));
        if is_king {
            let thr = self.throne;
            let four = match o.king_capture {
                KingCapture::Strong => true,
                KingCapture::DoubleWeak => thr.is_some_and(|t| d == t.index()),
                KingCapture::WeakNearThrone => thr.is_some_and(|t| d == t.index() || self.grid.adj[d].has(t.index())),
                KingCapture::Custodial => false,
            };
            if four {
                if enough(dirs.iter().map(|&n| cost(n)).sum()) {
                    return true;
                }
            } else if pair(dirs[0], dirs[1]) || pair(dirs[2], dirs[3]) {
                return true;
            }
            if !o.shield_wall || o.shield_wall_king_spared {
                return false;
            }
        } else {
            if pair(dirs[0], dirs[1]) || pair(dirs[2], dirs[3]) {
                return true;
            }
            if o.immobilisation && enough(dirs.iter().map(|&n| if n.is_none() { 0 } else { cost(n) }).sum()) {
                return true;
            }
        }
        o.shield_wall && self.fort_wall_breakable(d, region, safe, pieces, attackers)
    }

    /// Shield wall: could a row along the edge through `d` be bracketed at both ends with every
    /// member faced from inside, if the attackers held every square they might, with no more
    /// attackers than they have (one facing each member, one on each end but a corner)?
    fn fort_wall_breakable(&self, d: usize, region: B, safe: B, pieces: B, attackers: u32) -> bool {
        let g = &self.grid;
        let dirs = g.nbr[d];
        let corners_close = self.opts.shield_wall_corners;
        let blocked = region | safe | self.att_nostand;
        for (along, across) in [([0usize, 1usize], [2usize, 3usize]), ([2, 3], [0, 1])] {
            let off: Vec<usize> = across
                .iter()
                .copied()
                .filter(|&k| dirs[k].is_none() && !g.wall_side[d][k])
                .collect();
            if off.len() != 1 {
                continue;
            }
            let inner_k = if off[0] == across[0] { across[1] } else { across[0] };
            // an attacker could stand on q's inner side
            let faced = |q: usize| g.nbr[q][inner_k].is_some_and(|inner| !blocked.has(inner.index()));
            if !faced(d) {
                continue;
            }
            let (mut members, mut ends, mut manned) = (1u32, 0, 0u32);
            for k in along {
                let mut q = dirs[k];
                while let Some(sq) = q {
                    let qs = sq.index();
                    if self.corners.has(qs) {
                        if corners_close && !pieces.has(qs) {
                            ends += 1;
                        }
                        break;
                    }
                    if pieces.has(qs) && (safe | region).has(qs) {
                        if !faced(qs) {
                            break;
                        }
                        members += 1;
                        q = g.nbr[qs][k];
                        continue;
                    }
                    if !region.has(qs) && !self.att_nostand.has(qs) {
                        ends += 1; // an attacker could stand here (a defender now that could be taken first)
                        manned += 1;
                    }
                    break;
                }
            }
            if ends == 2 && members >= 2 && members + manned <= attackers {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::rules::*;

    #[test]
    fn repetition_rules_follow_the_core() {
        let mut c = copenhagen();
        let r: Rules<u128> = Rules::new(&c).unwrap();
        assert_eq!(r.repetition_outcome(Side::Defenders, 2), None);
        assert_eq!(
            r.repetition_outcome(Side::Defenders, 3),
            Some(Outcome::win(Side::Attackers, Reason::Repetition))
        );
        set(&mut c, "repetition", OptionValue::Str("mover_loses".into()));
        let r: Rules<u128> = Rules::new(&c).unwrap();
        // the defenders are to move, so the attackers made the repetition and lose
        assert_eq!(
            r.repetition_outcome(Side::Defenders, 3),
            Some(Outcome::win(Side::Defenders, Reason::Repetition))
        );
    }

    /// Issue 32 item 1 (Copenhagen rules, 'Exit forts': a fort wins when "it is impossible for the
    /// attackers to break" it): i7 is the only attacker, so i6 cannot be taken between i7 and i5 and
    /// j6-k6 wins; one more attacker on b2 makes the same fort breakable.
    #[test]
    fn a_fort_against_a_lone_attacker_wins_and_two_attackers_break_it() {
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let j6_k6 = Move::new(5 * 11 + 9, 5 * 11 + 10);
        let mut lone = r
            .parse_position("/11/11/11/11/8tTT/8TK1/9TT/11/11/11/11/", Side::Defenders)
            .unwrap();
        r.make(&mut lone, j6_k6);
        assert_eq!(lone.result, Some(Outcome::win(Side::Defenders, Reason::EdgeFort)));
        let mut two = r
            .parse_position("/11/11/11/11/8tTT/8TK1/9TT/11/11/1t9/11/", Side::Defenders)
            .unwrap();
        r.make(&mut two, j6_k6);
        assert_eq!(two.result, None);
    }

    #[test]
    fn an_enclosed_army_is_encircled() {
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let p = r
            .parse_position("/11/11/11/4ttt4/3tTKTt3/4ttt4/11/11/11/11/11/", Side::Defenders)
            .unwrap();
        let b = crate::rules::make::Board {
            att: p.att,
            dfn: p.dfn,
            king: p.king,
        };
        assert!(r.encircled(&b, &p.att_v, &p.dfn_v));
        let open = r
            .parse_position("/11/11/11/4tt5/3tTKTt3/4ttt4/11/11/11/11/11/", Side::Defenders)
            .unwrap();
        let b = crate::rules::make::Board {
            att: open.att,
            dfn: open.dfn,
            king: open.king,
        };
        assert!(!r.encircled(&b, &open.att_v, &open.dfn_v));
    }
}

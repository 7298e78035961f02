//! The Tafl family for the search: the native rules' moves and make, and the evaluation's hooks
//! (`evaluate`, `quick_outcome`, `tactics`, `order_key` of `tafl_desktop/ai/evaluation_tafl.py`).

use std::cell::RefCell;

use super::{Family, Move, Outcome, Tactic};
use crate::board::{Bits, Square};
use crate::eval::tafl::{Orderer, Tables, DEF};
use crate::rules::{self, Position, Rules};

/// The rules and the evaluation tables of one Tafl variant.
pub struct TaflFamily<B: Bits> {
    pub rules: Rules<B>,
    pub tables: Tables<B>,
}

thread_local! {
    /// Scratch space for the moves `tactics` generates itself (no allocation per node).
    static OWN_MOVES: RefCell<Vec<Move>> = const { RefCell::new(Vec::new()) };
}

fn outcome(o: rules::Outcome) -> Outcome {
    match o.winner {
        Some(s) => Outcome::Win(s.index() as u8),
        None => Outcome::Draw,
    }
}

impl<B: Bits> TaflFamily<B> {
    /// The legal moves of `movers` (pieces of the side to move) onto `targets`, found by walking
    /// back from each target to the first piece in each direction: only that one can get there.
    fn moves_to(&self, p: &Position<B>, targets: B, movers: B, out: &mut Vec<Move>) {
        let occ = p.occupied();
        let nbr = &self.rules.grid.nbr;
        for t in targets.squares() {
            if occ.has(t) {
                continue;
            }
            for (dir, &first) in nbr[t].iter().enumerate() {
                let mut q = first;
                while let Some(sq) = q.filter(|sq| !occ.has(sq.index())) {
                    q = nbr[sq.index()][dir];
                }
                if let Some(q) = q {
                    let q = q.index();
                    let m = Move::new(q, t);
                    if movers.has(q) && self.rules.is_legal(p, m) {
                        out.push(m);
                    }
                }
            }
        }
    }

    /// The body of [`Family::tactics`]; `own` is scratch space for the moves it generates itself.
    fn tactics_into(
        &self,
        p: &Position<B>,
        moves: Option<&[Move]>,
        forced: &mut Vec<Move>,
        own: &mut Vec<Move>,
    ) -> Tactic {
        let t = &self.tables;
        let Some(king) = p.king else {
            return Tactic::Quiet;
        };
        let king = king.index();
        let occ = Self::occupancy(p);
        if self.side(p) == DEF {
            return match t.escape_move(king, occ) {
                Some(to) => Tactic::WinNow(Move::new(king, to)),
                None => Tactic::Quiet,
            };
        }
        let hostile = t.king_hostility(p.att, king);
        let sight = t.king_sight(king, occ);
        if hostile == 0 && sight.routes == 0 && !t.king_wall_risk {
            return Tactic::Quiet;
        }
        let moves: &[Move] = match moves {
            Some(m) => m,
            None => {
                // only moves that land next to the king (or on the rim, for a shield wall) can
                // take him, and only moves onto his routes can block them: no full generation
                if !self.rules.has_moves(p) {
                    return Tactic::Terminal(self.no_moves_outcome(p));
                }
                let mut targets = B::ZERO;
                if hostile > 0 || t.king_wall_risk {
                    targets = t.adj[king];
                    if t.king_wall_risk && t.edge.has(king) {
                        targets |= t.edge;
                    }
                }
                if sight.routes > 0 {
                    targets |= sight.ray;
                }
                self.moves_to(p, targets, p.att, own);
                own
            }
        };
        if hostile > 0 || t.king_wall_risk {
            let mut targets = t.adj[king];
            if t.king_wall_risk && t.edge.has(king) {
                targets |= t.edge;
            }
            for &m in moves {
                if targets.has(m.to.index()) {
                    let (next, _) = self.play(p, m);
                    if !next.has_king() {
                        return Tactic::WinNow(m);
                    }
                }
            }
        }
        if sight.routes > 0 {
            forced.extend(moves.iter().copied().filter(|&m| sight.ray.has(m.to.index())));
            return Tactic::Forced;
        }
        Tactic::Quiet
    }

    #[inline]
    fn king(p: &Position<B>) -> Option<Square> {
        p.king
    }

    #[inline]
    fn occupancy(p: &Position<B>) -> B {
        p.occupied()
    }
}

impl<B: Bits> Family for TaflFamily<B> {
    type Pos = Position<B>;
    type Order = Orderer<B>;

    #[inline]
    fn side(&self, p: &Position<B>) -> u8 {
        p.side.index() as u8
    }

    #[inline]
    fn hash(&self, p: &Position<B>) -> u64 {
        p.hash
    }

    #[inline]
    fn quick_outcome(&self, p: &Position<B>) -> Option<Outcome> {
        if let Some(r) = p.result {
            return Some(outcome(r));
        }
        let n = self.tables.captureless;
        if n > 0 && p.quiet >= n {
            return Some(Outcome::Draw);
        }
        None
    }

    #[inline]
    fn moves(&self, p: &Position<B>, out: &mut Vec<Move>) {
        self.rules.append_moves(p, out);
    }

    #[inline]
    fn play(&self, p: &Position<B>, m: Move) -> (Position<B>, bool) {
        let mut c = *p;
        let undo = self.rules.make(&mut c, m);
        (c, undo.is_capture())
    }

    fn no_moves_outcome(&self, p: &Position<B>) -> Outcome {
        outcome(self.rules.no_moves_outcome(p.side))
    }

    fn has_moves(&self, p: &Position<B>) -> bool {
        self.rules.has_moves(p)
    }

    fn repetition_outcome(&self, p: &Position<B>, count: u32) -> Option<Outcome> {
        self.rules.repetition_outcome(p.side, count).map(outcome)
    }

    #[inline]
    fn evaluate(&self, p: &Position<B>) -> i32 {
        self.tables.evaluate(p.att, p.dfn, Self::king(p), self.side(p), p.quiet)
    }

    fn tactics(&self, p: &Position<B>, moves: Option<&[Move]>, forced: &mut Vec<Move>) -> Tactic {
        OWN_MOVES.with(|own| {
            let mut own = own.borrow_mut();
            own.clear();
            self.tactics_into(p, moves, forced, &mut own)
        })
    }

    #[inline]
    fn orderer(&self, p: &Position<B>) -> Orderer<B> {
        Orderer::new(&self.tables, p.att, p.dfn, Self::king(p), self.side(p))
    }

    #[inline]
    fn order_key(&self, o: &Orderer<B>, m: Move) -> i32 {
        o.key(&self.tables, m.from.index(), m.to.index())
    }

    fn capture_moves(&self, p: &Position<B>, o: &Orderer<B>, out: &mut Vec<Move>) {
        out.clear();
        let side = p.side.index() as u8;
        let mut movers = if side == DEF { p.dfn } else { p.att };
        if side == DEF && self.rules.king_hammer {
            if let Some(king) = p.king {
                movers |= B::bit(king.index());
            }
        }
        self.moves_to(p, o.targets(), movers, out);
    }

    fn null_move(&self, p: &Position<B>) -> Option<Position<B>> {
        // not once the side to move is down to a few pieces: there passing may really help
        let own = if p.side.index() == DEF as usize {
            p.dfn.count() + 1
        } else {
            p.att.count()
        };
        if p.result.is_some() || own < 4 {
            return None;
        }
        let mut c = *p;
        c.side = c.side.other();
        c.hash ^= self.rules.zobrist.side;
        Some(c)
    }

    #[inline]
    fn predicts_capture(&self, o: &Orderer<B>, m: Move) -> bool {
        o.captures(m.to.index())
    }
}

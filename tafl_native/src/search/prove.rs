//! Exhaustive proof of a forced win within N plies (AND/OR search), as
//! `tafl_desktop/study/prover.py` does it, natively: the puzzle miner and checker ask whether
//! the winner wins against every defence, so nothing here is estimated or pruned.
//!
//! Same rules as the Python prover, so both settle the same questions the same way: a position
//! decided by its last move (or by having no move, or by a draw rule) is won or not; with plies
//! left, the winner needs one move that wins (a move that ends the game won first), the other
//! side loses only if every move loses (having no move at all is judged by the rules); settled
//! (position, plies) pairs are remembered; each position expanded counts against the budget.

use std::collections::HashMap;

use super::{Family, Move, Outcome};

/// What the prover needs of a game: less than the search's [`Family`] (no evaluation), so a
/// family whose moves do not fit a `Move` (Dablot's jump chains) is proved with its successor
/// positions as its "moves".
pub trait ProofGame {
    type Pos;
    /// What leads from a position to a child: a move played when the child is needed (most
    /// defences are refuted by their first reply, so on a big board most moves are never
    /// played), or the child itself.
    type Step;
    fn side(&self, p: &Self::Pos) -> u8;
    fn hash(&self, p: &Self::Pos) -> u64;
    /// The result decided by the last move, without generating moves.
    fn quick_outcome(&self, p: &Self::Pos) -> Option<Outcome>;
    /// One step per legal move (cleared first); empty when there is no move.
    fn steps(&self, p: &Self::Pos, out: &mut Vec<Self::Step>);
    /// The position a step leads to.
    fn child(&self, p: &Self::Pos, s: &Self::Step) -> Self::Pos;
    fn no_moves_outcome(&self, p: &Self::Pos) -> Outcome;
    /// Whether the side to move has a legal move (cheaper than `steps` where it can be).
    fn has_moves(&self, p: &Self::Pos) -> bool;
}

/// A search family proves through its moves.
pub struct ByMoves<'a, F: Family>(pub &'a F);

impl<F: Family> ProofGame for ByMoves<'_, F> {
    type Pos = F::Pos;
    type Step = Move;
    fn side(&self, p: &F::Pos) -> u8 {
        self.0.side(p)
    }
    fn hash(&self, p: &F::Pos) -> u64 {
        self.0.hash(p)
    }
    fn quick_outcome(&self, p: &F::Pos) -> Option<Outcome> {
        self.0.quick_outcome(p)
    }
    fn steps(&self, p: &F::Pos, out: &mut Vec<Move>) {
        out.clear();
        self.0.moves(p, out);
    }
    fn child(&self, p: &F::Pos, m: &Move) -> F::Pos {
        self.0.play(p, *m).0
    }
    fn no_moves_outcome(&self, p: &F::Pos) -> Outcome {
        self.0.no_moves_outcome(p)
    }
    fn has_moves(&self, p: &F::Pos) -> bool {
        self.0.has_moves(p)
    }
}

/// The node budget ran out: the question stays open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded;

pub struct Prover<'a, F: ProofGame> {
    fam: &'a F,
    pub winner: u8,
    pub max_nodes: u64,
    pub nodes: u64,
    table: &'a mut HashMap<(u64, i32), bool>,
}

impl<'a, F: ProofGame> Prover<'a, F> {
    pub fn new(fam: &'a F, winner: u8, max_nodes: u64, table: &'a mut HashMap<(u64, i32), bool>) -> Self {
        Prover {
            fam,
            winner,
            max_nodes,
            nodes: 0,
            table,
        }
    }

    /// The game's result in `p` without looking ahead: decided by the last move, or no move.
    fn outcome(&self, p: &F::Pos) -> Option<Outcome> {
        if let Some(o) = self.fam.quick_outcome(p) {
            return Some(o);
        }
        if !self.fam.has_moves(p) {
            return Some(self.fam.no_moves_outcome(p));
        }
        None
    }

    fn won(&self, o: Outcome) -> bool {
        o == Outcome::Win(self.winner)
    }

    /// Does the winner win from `p` within `plies` plies whatever the other side does?
    pub fn wins(&mut self, p: &F::Pos, plies: i32) -> Result<bool, BudgetExceeded> {
        if let Some(o) = self.outcome(p) {
            return Ok(self.won(o));
        }
        if plies <= 0 {
            return Ok(false);
        }
        let key = (self.fam.hash(p), plies);
        if let Some(&known) = self.table.get(&key) {
            return Ok(known);
        }
        self.nodes += 1;
        if self.max_nodes > 0 && self.nodes > self.max_nodes {
            return Err(BudgetExceeded);
        }
        let mut steps = Vec::new();
        self.fam.steps(p, &mut steps);
        let result = if self.fam.side(p) == self.winner {
            // the quick wins first: a move that ends the game won settles the node; with plies
            // left the search below sees a reply-less loser at once, so only the last ply asks
            // every child whether the loser can move (the dear question on a big board)
            let mut found = steps.iter().any(|s| {
                let c = self.fam.child(p, s);
                let ended = if plies > 1 {
                    self.fam.quick_outcome(&c)
                } else {
                    self.outcome(&c)
                };
                ended.is_some_and(|o| self.won(o))
            });
            if !found && plies > 1 {
                for s in &steps {
                    if self.wins(&self.fam.child(p, s), plies - 1)? {
                        found = true;
                        break;
                    }
                }
            }
            found
        } else {
            let mut all = true;
            for s in &steps {
                if !self.wins(&self.fam.child(p, s), plies - 1)? {
                    all = false;
                    break;
                }
            }
            all
        };
        self.table.insert(key, result);
        Ok(result)
    }
}

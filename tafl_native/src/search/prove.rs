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

/// The node budget ran out: the question stays open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded;

pub struct Prover<'a, F: Family> {
    fam: &'a F,
    pub winner: u8,
    pub max_nodes: u64,
    pub nodes: u64,
    table: &'a mut HashMap<(u64, i32), bool>,
}

impl<'a, F: Family> Prover<'a, F> {
    pub fn new(fam: &'a F, winner: u8, max_nodes: u64, table: &'a mut HashMap<(u64, i32), bool>) -> Self {
        Prover { fam, winner, max_nodes, nodes: 0, table }
    }

    /// The game's result in `p` without looking ahead: decided, no move, or a draw rule.
    fn outcome(&self, p: &F::Pos, moves: &mut Vec<Move>) -> Option<Outcome> {
        if let Some(o) = self.fam.quick_outcome(p) {
            return Some(o);
        }
        moves.clear();
        self.fam.moves(p, moves);
        if moves.is_empty() {
            return Some(self.fam.no_moves_outcome(p));
        }
        None
    }

    fn won(&self, o: Outcome) -> bool {
        o == Outcome::Win(self.winner)
    }

    /// Does the winner win from `p` within `plies` plies whatever the other side does?
    pub fn wins(&mut self, p: &F::Pos, plies: i32) -> Result<bool, BudgetExceeded> {
        let mut moves = Vec::new();
        if let Some(o) = self.outcome(p, &mut moves) {
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
        let children: Vec<F::Pos> = moves.iter().map(|&m| self.fam.play(p, m).0).collect();
        let result = if self.fam.side(p) == self.winner {
            let mut scratch = Vec::new();
            let mut found = children.iter().any(|c| self.outcome(c, &mut scratch).is_some_and(|o| self.won(o)));
            if !found && plies > 1 {
                for c in &children {
                    if self.wins(c, plies - 1)? {
                        found = true;
                        break;
                    }
                }
            }
            found
        } else {
            let mut all = true;
            for c in &children {
                if !self.wins(c, plies - 1)? {
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

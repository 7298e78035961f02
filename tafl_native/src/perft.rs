//! Perft: the number of leaves of the legal-move tree to a depth, counted in bulk at the last
//! ply (as the core's `playout.perft` does).  A decided position has no moves.

use crate::board::Bits;
use crate::rules::{Move, Position, Rules};

/// Leaf count of the legal-move tree of `pos` to `depth` plies.
pub fn perft<B: Bits>(rules: &Rules<B>, pos: &Position<B>, depth: u32) -> u64 {
    let mut p = *pos;
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    walk(rules, &mut p, depth, &mut buffers)
}

/// Leaf counts below each legal move of `pos` ("divide"), in move-generation order.
pub fn perft_divide<B: Bits>(rules: &Rules<B>, pos: &Position<B>, depth: u32) -> Vec<(Move, u64)> {
    let mut p = *pos;
    let mut moves = Vec::new();
    rules.generate_moves(&p, &mut moves);
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    moves
        .into_iter()
        .map(|mv| {
            let undo = rules.make(&mut p, mv);
            let n = walk(rules, &mut p, depth.saturating_sub(1), &mut buffers);
            rules.unmake(&mut p, &undo);
            (mv, n)
        })
        .collect()
}

fn walk<B: Bits>(rules: &Rules<B>, pos: &mut Position<B>, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return rules.count_moves(pos) as u64;
    }
    let (mine, deeper) = buffers.split_first_mut().expect("one move buffer per ply");
    rules.generate_moves(pos, mine);
    let mut total = 0;
    for &mv in mine.iter() {
        let undo = rules.make(pos, mv);
        total += walk(rules, pos, depth - 1, deeper);
        rules.unmake(pos, &undo);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::*;
    use crate::rules::Side;

    #[test]
    fn copenhagen_perft_3_is_the_cores() {
        // `tafl-desktop perft copenhagen 3` with the Python engine (README)
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let p = r.parse_position(COPENHAGEN, Side::Attackers).unwrap();
        assert_eq!(perft(&r, &p, 3), 806_344);
        let divide = perft_divide(&r, &p, 3);
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 806_344);
    }
}

//! Perft: the number of leaves of the legal-move tree to a depth, counted in bulk at the last
//! ply (as the core's `playout.perft` does).  A decided position has no moves.  Under the
//! defenders' no-repeat rule (a legality rule that needs the history), a defenders' move that
//! recreates a board of the line from `pos` is not counted, as a game refuses it; results that need
//! the history (repetition, moves without a capture) are left out, as chess perft leaves out draws.

use crate::board::Bits;
use crate::rules::config::Repetition;
use crate::rules::{Move, Position, Rules};

/// Leaf count of the legal-move tree of `pos` to `depth` plies.
pub fn perft<B: Bits>(rules: &Rules<B>, pos: &Position<B>, depth: u32) -> u64 {
    let mut p = *pos;
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    if rules.opts.repetition == Repetition::DefendersNoRepeat {
        let mut line = vec![board_key(rules, &p)];
        return walk_no_repeat(rules, &mut p, depth, &mut buffers, &mut line);
    }
    walk(rules, &mut p, depth, &mut buffers)
}

/// What the no-repeat rule compares: the board without the side to move.
fn board_key<B: Bits>(rules: &Rules<B>, pos: &Position<B>) -> u64 {
    rules.zobrist.strip_side(pos.hash, pos.side)
}

/// [`walk`] keeping the boards of the line in `line` (the core's `_perft_no_repeat`).
fn walk_no_repeat<B: Bits>(
    rules: &Rules<B>,
    pos: &mut Position<B>,
    depth: u32,
    buffers: &mut [Vec<Move>],
    line: &mut Vec<u64>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let forbids = rules.forbids_repetition(pos);
    let (mine, deeper) = buffers.split_first_mut().expect("one move buffer per ply");
    rules.generate_moves(pos, mine);
    let mut total = 0;
    for &mv in mine.iter() {
        let undo = rules.make(pos, mv);
        let board = board_key(rules, pos);
        if !(forbids && line.contains(&board)) {
            if depth == 1 {
                total += 1;
            } else {
                line.push(board);
                total += walk_no_repeat(rules, pos, depth - 1, deeper, line);
                line.pop();
            }
        }
        rules.unmake(pos, &undo);
    }
    total
}

/// Leaf counts below each legal move of `pos` ("divide"), in move-generation order (a move the
/// no-repeat rule forbids here is left out).
pub fn perft_divide<B: Bits>(rules: &Rules<B>, pos: &Position<B>, depth: u32) -> Vec<(Move, u64)> {
    let mut p = *pos;
    let mut moves = Vec::new();
    rules.generate_moves(&p, &mut moves);
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    let no_repeat = rules.opts.repetition == Repetition::DefendersNoRepeat;
    let start = board_key(rules, &p);
    let forbids = rules.forbids_repetition(&p);
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let undo = rules.make(&mut p, mv);
        let board = board_key(rules, &p);
        if !(forbids && board == start) {
            let n = if no_repeat {
                let mut line = vec![start, board];
                walk_no_repeat(rules, &mut p, depth.saturating_sub(1), &mut buffers, &mut line)
            } else {
                walk(rules, &mut p, depth.saturating_sub(1), &mut buffers)
            };
            out.push((mv, n));
        }
        rules.unmake(&mut p, &undo);
    }
    out
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

#[cfg(test)]
mod timing {
    //! `cargo test --release timing -- --ignored --nocapture`: rough speeds of the rules' hot
    //! operations on positions from random Copenhagen games (not a pass/fail test).
    use crate::playout::{random_playout, PlayoutRng};
    use crate::rules::testing::*;
    use crate::rules::*;
    use std::time::Instant;

    #[test]
    #[ignore]
    fn timing_of_the_hot_operations() {
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let start = r.parse_position(COPENHAGEN, Side::Attackers).unwrap();
        let mut buf = Vec::new();
        let mut positions = Vec::new();
        for seed in 0..200u64 {
            let mut rng = PlayoutRng::new(seed);
            for plies in [4u32, 10, 20, 40] {
                let g = random_playout(&r, &start, &mut rng, plies, &mut buf);
                if g.end.result.is_none() {
                    positions.push(g.end);
                }
            }
        }
        let reps = 200;
        let t = Instant::now();
        let mut total = 0usize;
        for _ in 0..reps {
            for p in &positions {
                r.generate_moves(p, &mut buf);
                total += buf.len();
            }
        }
        let gen_ns = t.elapsed().as_nanos() as f64 / (reps * positions.len()) as f64;
        let t = Instant::now();
        let mut counted = 0u64;
        for _ in 0..reps {
            for p in &positions {
                counted += r.count_moves(p) as u64;
            }
        }
        let count_ns = t.elapsed().as_nanos() as f64 / (reps * positions.len()) as f64;
        assert_eq!(counted as usize, total);
        let t = Instant::now();
        let mut makes = 0u64;
        for p in &positions {
            let mut q = *p;
            r.generate_moves(&q, &mut buf);
            for _ in 0..20 {
                for &mv in &buf {
                    let u = r.make(&mut q, mv);
                    r.unmake(&mut q, &u);
                    makes += 1;
                }
            }
        }
        let make_ns = t.elapsed().as_nanos() as f64 / makes as f64;
        println!(
            "{} positions, {:.1} moves each: generate {:.0} ns, count {:.0} ns, make+unmake {:.1} ns",
            positions.len(),
            total as f64 / (reps * positions.len()) as f64,
            gen_ns,
            count_ns,
            make_ns
        );
    }
}

#[cfg(test)]
mod timing_perft {
    use super::*;
    use crate::rules::testing::*;
    use crate::rules::Side;

    /// `cargo test --release timing_perft -- --ignored`: Copenhagen perft 4, for `perf stat`.
    #[test]
    #[ignore]
    fn timing_perft_copenhagen_4() {
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let p = r.parse_position(COPENHAGEN, Side::Attackers).unwrap();
        assert_eq!(perft(&r, &p, 4), 50_456_804);
    }
}

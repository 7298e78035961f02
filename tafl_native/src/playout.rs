//! Seeded random playouts: uniformly random legal moves until the game ends or a ply limit,
//! exactly as the core's `playout.random_playout` plays them (the last move's result or no legal
//! move ends a game; repetition is not tracked, as it needs the history).

use crate::board::Bits;
use crate::rules::zobrist::SplitMix64;
use crate::rules::{Move, Outcome, Position, Rules};

/// One finished (or cut-off) playout.
#[derive(Clone, Copy, Debug)]
pub struct Playout<B: Bits> {
    pub end: Position<B>,
    pub plies: u32,
    /// None when `max_plies` cut the game off.
    pub outcome: Option<Outcome>,
}

/// A small seeded generator for playouts (SplitMix64): the same seed gives the same games on
/// every machine.
#[derive(Clone, Debug)]
pub struct PlayoutRng(SplitMix64);

impl PlayoutRng {
    pub fn new(seed: u64) -> PlayoutRng {
        PlayoutRng(SplitMix64(seed))
    }
    /// A uniform index below `n` (n > 0), by Lemire's multiply-shift.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.0.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Play one random game from `pos`.
pub fn random_playout<B: Bits>(
    rules: &Rules<B>,
    pos: &Position<B>,
    rng: &mut PlayoutRng,
    max_plies: u32,
    moves: &mut Vec<Move>,
) -> Playout<B> {
    let mut p = *pos;
    let mut plies = 0;
    let mut outcome = None;
    while plies < max_plies {
        rules.generate_moves(&p, moves);
        if moves.is_empty() {
            outcome = rules.outcome(&p);
            break;
        }
        let mv = moves[rng.below(moves.len())];
        rules.make(&mut p, mv);
        plies += 1;
        if p.result.is_some() {
            outcome = p.result;
            break;
        }
    }
    Playout { end: p, plies, outcome }
}

/// Totals of many playouts.
#[derive(Clone, Debug, Default)]
pub struct PlayoutStats {
    pub games: u64,
    pub plies: u64,
    /// Games won by the attackers, by the defenders, drawn, and cut off.
    pub attackers: u64,
    pub defenders: u64,
    pub draws: u64,
    pub unfinished: u64,
}

/// `games` random playouts from `pos`, game `i` seeded with `seed + i`.
pub fn random_playouts<B: Bits>(
    rules: &Rules<B>,
    pos: &Position<B>,
    games: u64,
    seed: u64,
    max_plies: u32,
) -> PlayoutStats {
    let mut stats = PlayoutStats::default();
    let mut moves = Vec::with_capacity(256);
    for i in 0..games {
        let mut rng = PlayoutRng::new(seed.wrapping_add(i));
        let game = random_playout(rules, pos, &mut rng, max_plies, &mut moves);
        stats.games += 1;
        stats.plies += game.plies as u64;
        match game.outcome {
            None => stats.unfinished += 1,
            Some(o) => match o.winner {
                None => stats.draws += 1,
                Some(crate::rules::Side::Attackers) => stats.attackers += 1,
                Some(crate::rules::Side::Defenders) => stats.defenders += 1,
            },
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::*;
    use crate::rules::Side;

    #[test]
    fn playouts_are_reproducible_and_end() {
        let r: Rules<u128> = Rules::new(&brandubh()).unwrap();
        let p = r.parse_position(BRANDUBH, Side::Attackers).unwrap();
        let a = random_playouts(&r, &p, 200, 7, 2000);
        let b = random_playouts(&r, &p, 200, 7, 2000);
        assert_eq!((a.plies, a.attackers, a.defenders), (b.plies, b.attackers, b.defenders));
        assert_eq!(a.games, 200);
        assert!(
            a.attackers + a.defenders + a.draws > 150,
            "most random Brandubh games end: {a:?}"
        );
    }
}

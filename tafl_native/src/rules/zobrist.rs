//! Zobrist hashing: one random 64-bit key per (piece kind, square) and one for the side to move.
//!
//! The keys come from a fixed SplitMix64 stream, so a position has the same hash on every
//! machine and every run (transposition tables, opening books and the Rules Lab's reproducible
//! games may rely on it).

use crate::board::{Bits, Square};
use crate::rules::position::Side;

/// Piece kinds in the key table.
pub const Z_ATT: usize = 0;
pub const Z_DEF: usize = 1;
pub const Z_KING: usize = 2;

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-mixed, seedable generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The key table of one board size.
#[derive(Clone, Debug)]
pub struct Zobrist {
    /// `piece[square][kind]`, kinds [`Z_ATT`], [`Z_DEF`], [`Z_KING`].
    pub piece: Vec<[u64; 3]>,
    /// XORed in when the defenders are to move.
    pub side: u64,
}

impl Zobrist {
    pub fn new(squares: usize) -> Zobrist {
        let mut rng = SplitMix64(0x7AF1_DE5C_0DE5_2026);
        let side = rng.next_u64();
        let piece = (0..squares)
            .map(|_| [rng.next_u64(), rng.next_u64(), rng.next_u64()])
            .collect();
        Zobrist { piece, side }
    }

    /// The hash of a position from scratch (`make`/`unmake` keep it up to date incrementally).
    pub fn hash<B: Bits>(&self, att: B, dfn: B, king: Option<Square>, side: Side) -> u64 {
        let mut h = self.board_hash(att, dfn, king);
        if side == Side::Defenders {
            h ^= self.side;
        }
        h
    }

    /// The hash of the pieces alone, whoever is to move.
    pub fn board_hash<B: Bits>(&self, att: B, dfn: B, king: Option<Square>) -> u64 {
        let mut h = 0;
        for s in att.squares() {
            h ^= self.piece[s][Z_ATT];
        }
        for s in dfn.squares() {
            h ^= self.piece[s][Z_DEF];
        }
        if let Some(k) = king {
            h ^= self.piece[k.index()][Z_KING];
        }
        h
    }

    /// `hash` without the side-to-move key: equal for the same board whoever is to move (what
    /// "the defenders may not repeat a board position" compares).
    #[inline(always)]
    pub fn strip_side(&self, hash: u64, side: Side) -> u64 {
        if side == Side::Defenders {
            hash ^ self.side
        } else {
            hash
        }
    }
}

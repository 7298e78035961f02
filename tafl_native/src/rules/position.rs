//! Positions, moves, outcomes and undo records.

use crate::board::{Bits, Square};

/// The two sides; in Tafl the attackers are side 0 and the king's side 1 (as in the core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Side {
    Attackers = 0,
    Defenders = 1,
}

impl Side {
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn from_index(i: usize) -> Side {
        if i == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }
    /// The core's key (`Side.key`).
    pub fn key(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }
}

/// Why a game ended; the names are the core's `Outcome.reason` keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    KingCaptured,
    KingEscaped,
    EdgeFort,
    Encircled,
    Repetition,
    NoMoves,
    NoCaptures,
}

impl Reason {
    pub const ALL: [Reason; 7] = [
        Reason::KingCaptured,
        Reason::KingEscaped,
        Reason::EdgeFort,
        Reason::Encircled,
        Reason::Repetition,
        Reason::NoMoves,
        Reason::NoCaptures,
    ];

    /// The core's reason key.
    pub fn key(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king_captured",
            Reason::KingEscaped => "king_escaped",
            Reason::EdgeFort => "edge_fort",
            Reason::Encircled => "encircled",
            Reason::Repetition => "repetition",
            Reason::NoMoves => "no_moves",
            Reason::NoCaptures => "no_captures",
        }
    }

    pub fn parse(key: &str) -> Option<Reason> {
        Reason::ALL.iter().copied().find(|r| r.key() == key)
    }
}

/// How a game ended: the winner (None: a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: Reason,
}

impl Outcome {
    pub fn win(side: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }
    pub fn draw(reason: Reason) -> Outcome {
        Outcome { winner: None, reason }
    }
}

/// A move from one square to another (every Tafl move is one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    /// The move between two squares given by their indices.
    #[inline(always)]
    pub fn new(from: usize, to: usize) -> Move {
        Move {
            from: Square::new(from),
            to: Square::new(to),
        }
    }
}

/// A Tafl position.
///
/// `att` are the attackers, `dfn` the defender soldiers (the king is not in it), `king` his
/// square (None once captured), `side` the side to move, `quiet` the moves since the last
/// capture, `result` what the last move decided (king captured or escaped, fort,
/// encirclement), and `hash` the Zobrist key of (pieces, side to move), kept up to date by
/// `make`/`unmake`.  Outcomes that need the move list (no legal move) or the history
/// (repetition) are not stored: `Rules::outcome` and `Rules::repetition_outcome` give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position<B: Bits> {
    pub att: B,
    pub dfn: B,
    pub king: Option<Square>,
    pub side: Side,
    pub quiet: u32,
    pub result: Option<Outcome>,
    pub hash: u64,
    /// The attackers and the defender soldiers in the board's three other orientations
    /// (see `Rules::orient`), kept by `make`/`unmake` so that moves in every direction can be
    /// counted by one subtraction.  Read `att`/`dfn`; these follow them.
    pub att_v: [B; 3],
    pub dfn_v: [B; 3],
}

impl<B: Bits> Position<B> {
    /// The king's square as a set (empty once he is captured).
    #[inline(always)]
    pub fn king_bits(&self) -> B {
        match self.king {
            None => B::ZERO,
            Some(k) => B::bit(k.index()),
        }
    }
    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.att | self.dfn | self.king_bits()
    }
    /// The king and his defenders.
    #[inline(always)]
    pub fn defenders(&self) -> B {
        self.dfn | self.king_bits()
    }
    /// Does the king stand on the board?
    #[inline(always)]
    pub fn has_king(&self) -> bool {
        self.king.is_some()
    }
    /// Has the last move decided the game?
    #[inline(always)]
    pub fn is_decided(&self) -> bool {
        self.result.is_some()
    }
}

/// What `make` changed, so that `unmake` can restore the position exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo<B: Bits> {
    pub mv: Move,
    /// The side that moved.
    pub mover: Side,
    /// Enemy soldiers the move captured.
    pub captured: B,
    /// The moving soldier itself was captured where it stopped (strict custodian; a king
    /// captured that way counts as `king_captured`, not here).
    pub mover_died: bool,
    /// The king's square before the move (he may have moved or been captured).
    pub king_before: Option<Square>,
    /// The king was captured by this move.
    pub king_captured: bool,
    pub quiet_before: u32,
    pub result_before: Option<Outcome>,
    pub hash_before: u64,
}

impl<B: Bits> Undo<B> {
    /// Every captured square: enemy soldiers, the mover's own square (strict custodian) and the
    /// king's square, lowest first (the core lists them in the order it found them; compare as sets).
    pub fn captured_squares(&self) -> Vec<Square> {
        let mut all = self.captured;
        if self.mover_died {
            all.set(self.mv.to.index());
        }
        if self.king_captured {
            // he was on the board to be captured: where he stood, or where he just moved to
            let at = match self.king_before {
                Some(k) if k != self.mv.from => k,
                _ => self.mv.to,
            };
            all.set(at.index());
        }
        all.squares().map(Square::new).collect()
    }

    /// Number of pieces the move captured (the king counts as one).
    pub fn capture_count(&self) -> u32 {
        self.captured.count() + self.mover_died as u32 + self.king_captured as u32
    }

    /// Did the move capture anything (the quiet counter restarts)?
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any() || self.mover_died || self.king_captured
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_and_no_move_take_four_bytes() {
        // the search keeps "no move yet" (table slots, killers) as Option<Move>: no sentinel
        assert_eq!(std::mem::size_of::<Move>(), 4);
        assert_eq!(std::mem::size_of::<Option<Move>>(), 4);
        let m = Move::new(60, 383);
        assert_eq!((m.from.index(), m.to.index()), (60, 383));
        assert_ne!(Some(m), None);
        assert_eq!(Some(m), Some(Move::new(60, 383)));
    }
}

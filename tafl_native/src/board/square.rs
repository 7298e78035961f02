//! A square of the board as a type of its own.
//!
//! A square is its index `rank * width + file` (the core's numbering, a bitboard's bit).  Where a
//! square may be missing (a captured king, a step off the board or across a wall, a board without
//! a throne) the type says so, `Option<Square>`, instead of a number that must never be used as
//! an index.  That costs no space: the index is kept plus one in a `NonZeroU16`, whose zero is
//! free for `None`, so an `Option<Square>` is two bytes like the `u16` it replaces, and a table
//! of neighbours stays as small (and as fast to read) as before.

use std::fmt;
use std::num::NonZeroU16;

/// One square: its index on the board, `rank * width + file`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(NonZeroU16);

impl Square {
    /// Squares are numbered below this (a 19x19 board has 361): every index below it has a
    /// distinct `Square`.
    pub const LIMIT: usize = u16::MAX as usize;

    /// The square with index `index` (below [`Square::LIMIT`]; the boards' squares are, and the
    /// bindings check what comes from outside before it gets here).
    #[inline(always)]
    pub fn new(index: usize) -> Square {
        debug_assert!(index < Self::LIMIT, "square {index} beyond any board");
        // index + 1, never zero: no check, no panic, no unsafe in the hot path
        Square(NonZeroU16::MIN.saturating_add(index as u16))
    }

    /// The square with index `index`, or None when no board has it (input from outside).
    pub fn checked(index: usize) -> Option<Square> {
        (index < Self::LIMIT).then(|| Square::new(index))
    }

    /// The square's index, `rank * width + file` (a bitboard's bit, a table's row).
    #[inline(always)]
    pub fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.index())
    }
}

impl From<Square> for usize {
    #[inline(always)]
    fn from(s: Square) -> usize {
        s.index()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_optional_square_is_as_small_as_the_number_it_replaces() {
        assert_eq!(std::mem::size_of::<Square>(), 2);
        assert_eq!(std::mem::size_of::<Option<Square>>(), 2);
        assert_eq!(std::mem::size_of::<[Option<Square>; 4]>(), 8);
    }

    #[test]
    fn indices_round_trip_and_keep_their_order() {
        for i in [0usize, 1, 127, 128, 360, 383, Square::LIMIT - 1] {
            assert_eq!(Square::new(i).index(), i);
            assert_eq!(usize::from(Square::new(i)), i);
        }
        assert!(Square::new(3) < Square::new(4));
        assert_ne!(Some(Square::new(0)), None);
        assert_eq!(Square::checked(Square::LIMIT), None);
        assert_eq!(Square::checked(42), Some(Square::new(42)));
        assert_eq!(format!("{:?}", Square::new(60)), "Square(60)");
    }
}

//! Bitboards: one bit per square, `index = rank * width + file` (the core's numbering).
//!
//! Boards run from 3x3 to 19x19 (361 squares), so one integer type cannot serve them all at
//! full speed: boards of up to 128 squares (11x11 and smaller, the common games) use a native
//! `u128`, larger ones a fixed array of 64-bit words ([`Wide`]).  Everything above this module is
//! generic over [`Bits`] and monomorphised per width, so the 11x11 hot path never pays for
//! 19x19 (see `AnyRules` in `rules/mod.rs` for the one dispatch at the boundary).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.  All shifts are logical; bits shifted past [`Bits::CAPACITY`] are lost.
pub trait Bits:
    Copy
    + Clone
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares the type holds.
    const CAPACITY: usize;
    /// The empty set.
    const ZERO: Self;
    /// Number of 64-bit words (for conversion to and from Python integers).
    const WORDS: usize;

    /// The set holding only `sq`.
    fn bit(sq: usize) -> Self;
    /// Is `sq` in the set?
    fn has(self, sq: usize) -> bool;
    /// Is the set empty?
    fn is_zero(self) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// The lowest square of a non-empty set.
    fn lowest(self) -> usize;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// The highest square of a non-empty set.
    fn highest(self) -> usize;
    /// The squares below `k` (all of them when `k >= CAPACITY`).
    fn below(k: usize) -> Self;
    /// Shift towards higher indices.
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower indices.
    fn shr(self, n: u32) -> Self;
    /// The sets as numbers: `self - other`, modulo 2^CAPACITY (for the subtraction trick of
    /// sliding moves: `o ^ (o - 2s)` marks the squares above each slider up to the next blocker).
    fn wrapping_sub(self, other: Self) -> Self;
    /// Word `i` (little-endian order) of the set.
    fn word(self, i: usize) -> u64;
    /// The set from little-endian words (missing words are zero, extra words ignored).
    fn from_words(words: &[u64]) -> Self;

    /// Is the set non-empty?
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_zero()
    }
    /// Add `sq`.
    #[inline(always)]
    fn set(&mut self, sq: usize) {
        *self |= Self::bit(sq);
    }
    /// Remove `sq`.
    #[inline(always)]
    fn clear(&mut self, sq: usize) {
        *self &= !Self::bit(sq);
    }
    /// The squares of the set, lowest first.
    #[inline(always)]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
    /// The set from a list of squares.
    fn from_squares<I: IntoIterator<Item = usize>>(squares: I) -> Self {
        let mut b = Self::ZERO;
        for s in squares {
            b.set(s);
        }
        b
    }
}

/// Iterator over the squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B: Bits>(pub B);

impl<B: Bits> Iterator for Squares<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_zero() {
            None
        } else {
            let s = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(s)
        }
    }
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    const ZERO: Self = 0;
    const WORDS: usize = 2;

    #[inline(always)]
    fn bit(sq: usize) -> Self {
        1u128 << sq
    }
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        (self >> sq) & 1 != 0
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn highest(self) -> usize {
        127 - self.leading_zeros() as usize
    }
    #[inline(always)]
    fn below(k: usize) -> Self {
        if k >= 128 {
            u128::MAX
        } else {
            (1u128 << k) - 1
        }
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self.checked_shl(n).unwrap_or(0)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self.checked_shr(n).unwrap_or(0)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: Self) -> Self {
        u128::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn word(self, i: usize) -> u64 {
        match i {
            0 => self as u64,
            1 => (self >> 64) as u64,
            _ => 0,
        }
    }
    fn from_words(words: &[u64]) -> Self {
        let lo = words.first().copied().unwrap_or(0) as u128;
        let hi = words.get(1).copied().unwrap_or(0) as u128;
        lo | (hi << 64)
    }
}

/// A bitboard of `N` 64-bit words, for boards of more than 128 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

macro_rules! wide_binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const N: usize> $tr for Wide<N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                let mut r = [0u64; N];
                for i in 0..N {
                    r[i] = self.0[i] $op o.0[i];
                }
                Wide(r)
            }
        }
        impl<const N: usize> $tra for Wide<N> {
            #[inline(always)]
            fn $fa(&mut self, o: Self) {
                for i in 0..N {
                    self.0[i] = self.0[i] $op o.0[i];
                }
            }
        }
    };
}
wide_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

// Word loops index several arrays at once; indices say it more plainly than zipped iterators.
#[allow(clippy::needless_range_loop)]
impl<const N: usize> Bits for Wide<N> {
    const CAPACITY: usize = 64 * N;
    const ZERO: Self = Wide([0; N]);
    const WORDS: usize = N;

    #[inline(always)]
    fn bit(sq: usize) -> Self {
        let mut r = [0u64; N];
        r[sq >> 6] = 1u64 << (sq & 63);
        Wide(r)
    }
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        (self.0[sq >> 6] >> (sq & 63)) & 1 != 0
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        for i in 0..N {
            if self.0[i] != 0 {
                return i * 64 + self.0[i].trailing_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        let mut r = self.0;
        for w in r.iter_mut() {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        Wide(r)
    }
    #[inline(always)]
    fn highest(self) -> usize {
        for i in (0..N).rev() {
            if self.0[i] != 0 {
                return i * 64 + 63 - self.0[i].leading_zeros() as usize;
            }
        }
        0
    }
    #[inline(always)]
    fn below(k: usize) -> Self {
        let mut r = [0u64; N];
        for i in 0..N {
            let lo = i * 64;
            r[i] = if k >= lo + 64 {
                u64::MAX
            } else if k > lo {
                (1u64 << (k - lo)) - 1
            } else {
                0
            };
        }
        Wide(r)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        let n = n as usize;
        let (ws, bs) = (n >> 6, (n & 63) as u32);
        let mut r = [0u64; N];
        for i in (ws..N).rev() {
            let src = i - ws;
            let mut v = self.0[src] << bs;
            if bs != 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bs);
            }
            r[i] = v;
        }
        Wide(r)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        let n = n as usize;
        let (ws, bs) = (n >> 6, (n & 63) as u32);
        let mut r = [0u64; N];
        for i in 0..N.saturating_sub(ws) {
            let src = i + ws;
            let mut v = self.0[src] >> bs;
            if bs != 0 && src + 1 < N {
                v |= self.0[src + 1] << (64 - bs);
            }
            r[i] = v;
        }
        Wide(r)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: Self) -> Self {
        let mut r = [0u64; N];
        let mut borrow = false;
        for i in 0..N {
            let (d1, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            r[i] = d2;
            borrow = b1 || b2;
        }
        Wide(r)
    }
    #[inline(always)]
    fn word(self, i: usize) -> u64 {
        if i < N {
            self.0[i]
        } else {
            0
        }
    }
    fn from_words(words: &[u64]) -> Self {
        let mut r = [0u64; N];
        for (i, w) in words.iter().take(N).enumerate() {
            r[i] = *w;
        }
        Wide(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_shifts<B: Bits>() {
        for a in [0usize, 1, 63, 64, 65, 100, 127] {
            if a >= B::CAPACITY {
                continue;
            }
            for n in [0u32, 1, 7, 11, 19, 63, 64, 70, 127] {
                let b = B::bit(a);
                let up = b.shl(n);
                if a + (n as usize) < B::CAPACITY {
                    assert_eq!(up, B::bit(a + n as usize), "shl {a} by {n}");
                } else {
                    assert!(up.is_zero(), "shl {a} by {n} falls off");
                }
                let down = b.shr(n);
                if a >= n as usize {
                    assert_eq!(down, B::bit(a - n as usize), "shr {a} by {n}");
                } else {
                    assert!(down.is_zero(), "shr {a} by {n} falls off");
                }
            }
        }
    }

    #[test]
    fn shifts_move_single_bits_exactly() {
        check_shifts::<u128>();
        check_shifts::<Wide<3>>();
        check_shifts::<Wide<6>>();
    }

    fn check_below_and_highest<B: Bits>() {
        for k in [0usize, 1, 5, 63, 64, 65, 127, 128, 200] {
            let m = B::below(k);
            assert_eq!(m.count() as usize, k.min(B::CAPACITY), "below({k})");
            if k > 0 && k <= B::CAPACITY {
                assert_eq!(m.highest(), k - 1);
            }
        }
    }

    #[test]
    fn below_and_highest_agree() {
        check_below_and_highest::<u128>();
        check_below_and_highest::<Wide<3>>();
        check_below_and_highest::<Wide<6>>();
    }

    #[test]
    fn subtraction_borrows_across_words() {
        let a = Wide::<3>::from_squares([130]);
        let b = Wide::<3>::from_squares([0]);
        let d = a.wrapping_sub(b);
        assert_eq!(d.squares().collect::<Vec<_>>(), (0..130).collect::<Vec<_>>());
        assert_eq!(Wide::<3>::ZERO.wrapping_sub(b), !Wide::<3>::ZERO);
    }

    #[test]
    fn squares_come_out_lowest_first() {
        let b = Wide::<6>::from_squares([360, 0, 64, 200]);
        assert_eq!(b.squares().collect::<Vec<_>>(), vec![0, 64, 200, 360]);
        assert_eq!(b.count(), 4);
        let c = u128::from_squares([5, 120]);
        assert_eq!(c.squares().collect::<Vec<_>>(), vec![5, 120]);
        assert_eq!(u128::from_words(&[c.word(0), c.word(1)]), c);
    }
}

//! The bit-set operations the evaluation and the search need, for any board width.
//!
//! Boards up to 11x11 (121 squares) fit a `u128`; the 19x19 of Alea Evangelii needs 361 bits.
//! The evaluation is written once, generic over [`Bits`], and compiled for each width, so the
//! common boards pay nothing for the rare big one.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

/// A fixed-width set of squares; square `s` is bit `s` (`rank * width + file`).
pub trait Bits:
    Copy
    + Eq
    + Send
    + Sync
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    /// How many squares the type can hold.
    const CAPACITY: usize;
    fn bit(s: usize) -> Self;
    fn count(self) -> u32;
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    fn has(self, s: usize) -> bool {
        !(self & Self::bit(s)).is_empty()
    }
    /// The lowest square, or None for the empty set.
    fn lowest(self) -> Option<usize>;
    /// From little-endian bytes (bit 0 of byte 0 is square 0); extra bytes must be zero.
    fn from_le_bytes(bytes: &[u8]) -> Option<Self>;
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const CAPACITY: usize = 128;
    #[inline]
    fn bit(s: usize) -> Self {
        1u128 << s
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn lowest(self) -> Option<usize> {
        if self == 0 {
            None
        } else {
            Some(self.trailing_zeros() as usize)
        }
    }
    fn from_le_bytes(bytes: &[u8]) -> Option<Self> {
        let mut out = [0u8; 16];
        for (i, b) in bytes.iter().enumerate() {
            if i < 16 {
                out[i] = *b;
            } else if *b != 0 {
                return None;
            }
        }
        Some(u128::from_le_bytes(out))
    }
}

/// Six 64-bit words: 384 squares, enough for 19x19.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Wide(pub [u64; 6]);

impl BitAnd for Wide {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        let mut r = self.0;
        for (a, b) in r.iter_mut().zip(o.0) {
            *a &= b;
        }
        Wide(r)
    }
}
impl BitOr for Wide {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        let mut r = self.0;
        for (a, b) in r.iter_mut().zip(o.0) {
            *a |= b;
        }
        Wide(r)
    }
}
impl BitXor for Wide {
    type Output = Self;
    #[inline]
    fn bitxor(self, o: Self) -> Self {
        let mut r = self.0;
        for (a, b) in r.iter_mut().zip(o.0) {
            *a ^= b;
        }
        Wide(r)
    }
}
impl Not for Wide {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        let mut r = self.0;
        for a in r.iter_mut() {
            *a = !*a;
        }
        Wide(r)
    }
}
impl Shl<u32> for Wide {
    type Output = Self;
    #[inline]
    fn shl(self, n: u32) -> Self {
        let (w, b) = ((n / 64) as usize, n % 64);
        let mut r = [0u64; 6];
        for i in (w..6).rev() {
            let lo = self.0[i - w];
            r[i] = lo << b;
            if b > 0 && i > w {
                r[i] |= self.0[i - w - 1] >> (64 - b);
            }
        }
        Wide(r)
    }
}
impl Shr<u32> for Wide {
    type Output = Self;
    #[inline]
    fn shr(self, n: u32) -> Self {
        let (w, b) = ((n / 64) as usize, n % 64);
        let mut r = [0u64; 6];
        for i in 0..6usize.saturating_sub(w) {
            let hi = self.0[i + w];
            r[i] = hi >> b;
            if b > 0 && i + w + 1 < 6 {
                r[i] |= self.0[i + w + 1] << (64 - b);
            }
        }
        Wide(r)
    }
}

impl Bits for Wide {
    const ZERO: Self = Wide([0; 6]);
    const CAPACITY: usize = 384;
    #[inline]
    fn bit(s: usize) -> Self {
        let mut r = [0u64; 6];
        r[s / 64] = 1u64 << (s % 64);
        Wide(r)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn has(self, s: usize) -> bool {
        self.0[s / 64] >> (s % 64) & 1 == 1
    }
    fn lowest(self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }
    fn from_le_bytes(bytes: &[u8]) -> Option<Self> {
        let mut r = [0u64; 6];
        for (i, b) in bytes.iter().enumerate() {
            if i < 48 {
                r[i / 8] |= (*b as u64) << (8 * (i % 8));
            } else if *b != 0 {
                return None;
            }
        }
        Some(Wide(r))
    }
}

/// The squares of a set, lowest first.
pub fn squares<B: Bits>(mut b: B) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let s = b.lowest()?;
        b = b ^ B::bit(s);
        Some(s)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_shifts_agree_with_u128_below_128_bits() {
        let x: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        let w = Wide::from_le_bytes(&x.to_le_bytes()).unwrap();
        for n in [0u32, 1, 11, 19, 63, 64, 65, 100] {
            let l = w << n;
            let expect = x << n;
            assert_eq!(l.0[0], expect as u64, "shl {n}");
            assert_eq!(l.0[1], (expect >> 64) as u64, "shl {n}");
            let r = w >> n;
            let expect = x >> n;
            assert_eq!(r.0[0], expect as u64, "shr {n}");
            assert_eq!(r.0[1], (expect >> 64) as u64, "shr {n}");
        }
        let top = Wide::bit(360);
        assert_eq!((top >> 300).lowest(), Some(60));
        assert_eq!((Wide::bit(3) << 357).lowest(), Some(360));
        assert_eq!(squares(Wide::bit(5) | Wide::bit(200)).collect::<Vec<_>>(), vec![5, 200]);
    }
}

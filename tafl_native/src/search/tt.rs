//! The transposition table, shared by every thread of a search (Lazy SMP).
//!
//! Each entry is two atomic words: the position's key XORed with the data, and the data.  A
//! thread that reads an entry another thread is halfway through writing sees a key that does not
//! match and ignores it, so no lock is needed and no `unsafe`.  The size is fixed (not taken
//! from the machine), so a one-thread search at a node limit fills it the same way everywhere.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::Move;

pub const EXACT: u8 = 0;
pub const LOWER: u8 = 1;
pub const UPPER: u8 = 2;

/// A move is kept whole: 9 bits for where it starts (a square or point, below 512) and 16 for
/// where it goes (Dablot's and the Fox games' jump chains are numbered past the points, up to
/// `u16::MAX`).
const FROM_BITS: u32 = 9;
const TO_BITS: u32 = 16;
const MOVE_BITS: u32 = FROM_BITS + TO_BITS;
const MOVE_NONE: u64 = (1 << MOVE_BITS) - 1;
const SCORE_BIAS: i64 = 1 << 21;

/// What one entry says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub depth: i32,
    pub flag: u8,
    pub score: i32,
    /// The best move found (None: none yet, e.g. every move failed low).
    pub mv: Option<Move>,
}

pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

fn pack(e: Entry) -> u64 {
    let mv = match e.mv {
        None => MOVE_NONE,
        Some(m) => (((m.from.index() & 0x1ff) << TO_BITS) | (m.to.index() & 0xffff)) as u64,
    };
    let score = (e.score as i64 + SCORE_BIAS).clamp(0, (1 << 22) - 1) as u64;
    let depth = e.depth.clamp(0, 255) as u64;
    mv | score << MOVE_BITS
        | depth << (MOVE_BITS + 22)
        | (e.flag as u64 & 3) << (MOVE_BITS + 30)
        | 1 << (MOVE_BITS + 32)
}

fn unpack(d: u64) -> Entry {
    let m = d & MOVE_NONE;
    let mv = if m == MOVE_NONE {
        None
    } else {
        Some(Move::new((m >> TO_BITS) as usize, (m & 0xffff) as usize))
    };
    Entry {
        mv,
        score: (((d >> MOVE_BITS) & ((1 << 22) - 1)) as i64 - SCORE_BIAS) as i32,
        depth: ((d >> (MOVE_BITS + 22)) & 0xff) as i32,
        flag: ((d >> (MOVE_BITS + 30)) & 3) as u8,
    }
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Self {
        let n = 1usize << bits;
        Table {
            slots: (0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect(),
            mask: n - 1,
        }
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Relaxed);
            s[1].store(0, Relaxed);
        }
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = &self.slots[key as usize & self.mask];
        let data = s[1].load(Relaxed);
        if data == 0 || s[0].load(Relaxed) ^ data != key {
            return None;
        }
        Some(unpack(data))
    }

    /// Store, unless the slot holds the same position searched deeper with a move, or holds
    /// this very entry already (threads share the table: a write, even of the same words, takes
    /// the memory line away from the other cores' caches).
    #[inline]
    pub fn store(&self, key: u64, e: Entry) {
        let s = &self.slots[key as usize & self.mask];
        let old = s[1].load(Relaxed);
        let data = pack(e);
        if old != 0 && s[0].load(Relaxed) ^ old == key {
            if old == data {
                return;
            }
            let o = unpack(old);
            if o.depth > e.depth && o.mv.is_some() {
                return;
            }
        }
        s[0].store(key ^ data, Relaxed);
        s[1].store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let t = Table::new(4);
        for (score, mv) in [
            (0, None),
            (-99_990, Some(Move::new(360, 359))),
            (1_000_000, Some(Move::new(5, 7))),
            (-1_000_000, Some(Move::new(0, 1))),
            (12, Some(Move::new(383, 0))),
            (-7, Some(Move::new(22, 65_000))),
        ] {
            let e = Entry {
                depth: 7,
                flag: LOWER,
                score,
                mv,
            };
            t.store(12345, e);
            assert_eq!(t.probe(12345), Some(e));
            assert_eq!(t.probe(12345 + 16), None);
        }
    }
}

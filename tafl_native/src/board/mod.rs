//! The board: bitboards ([`bits`]) and the grid they index (neighbours, walls, edges, shifts).
//!
//! Nothing here knows a game's rules; a later family on a grid (the Fox games' checkerboard)
//! reuses it as it is.

pub mod bits;
pub mod square;

pub use bits::{Bits, Squares, Wide};
pub use square::Square;

/// Directions, in the core's order (`geometry.ORTHOGONAL`): east, west, north, south.
pub const EAST: usize = 0;
pub const WEST: usize = 1;
pub const NORTH: usize = 2;
pub const SOUTH: usize = 3;

/// A rectangular grid of `width` x `height` squares (3..=19 each) with optional walls between
/// orthogonally adjacent squares.  A wall counts as the board's edge for movement and captures.
#[derive(Clone, Debug)]
pub struct Grid<B: Bits> {
    pub width: usize,
    pub height: usize,
    pub size: usize,
    /// Every square of the board.
    pub full: B,
    /// The squares on the board's rim (geometric edge; walls do not make edges).
    pub edge: B,
    /// Neighbour of each square per direction, None off the board or across a wall.
    pub nbr: Vec<[Option<Square>; 4]>,
    /// The square beyond that neighbour in the same direction, None when it is off the
    /// board or a wall stands between the neighbour and it (what a capture looks at).
    pub far: Vec<[Option<Square>; 4]>,
    /// The neighbours of each square as a set.
    pub adj: Vec<B>,
    /// Squares from which one step in a direction stays on the board and crosses no wall.
    pub open: [B; 4],
    /// Squares that one step in a direction can enter (from a square of `open`).
    pub enter: [B; 4],
    /// Is there a wall on side `d` of a square (between it and its on-board neighbour)?
    pub wall_side: Vec<[bool; 4]>,
    pub has_walls: bool,
    /// Per square and direction: every square a straight line from it crosses before the rim or
    /// a wall (the square itself excluded), whatever stands there.
    pub rays: Vec<[B; 4]>,
}

impl<B: Bits> Grid<B> {
    /// A grid; `walls` lists pairs of orthogonally adjacent squares (checked by the caller).
    pub fn new(width: usize, height: usize, walls: &[(u16, u16)]) -> Grid<B> {
        let size = width * height;
        assert!(
            size <= B::CAPACITY,
            "board of {size} squares in a {}-square bitboard",
            B::CAPACITY
        );
        let is_wall = |a: usize, b: usize| {
            let (lo, hi) = (a.min(b) as u16, a.max(b) as u16);
            walls.iter().any(|&(x, y)| (x.min(y), x.max(y)) == (lo, hi))
        };
        let mut nbr = vec![[None; 4]; size];
        let mut wall_side = vec![[false; 4]; size];
        let steps: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        for s in 0..size {
            let (f, r) = ((s % width) as i32, (s / width) as i32);
            for (d, (df, dr)) in steps.iter().enumerate() {
                let (nf, nr) = (f + df, r + dr);
                if nf >= 0 && nr >= 0 && (nf as usize) < width && (nr as usize) < height {
                    let n = nr as usize * width + nf as usize;
                    if is_wall(s, n) {
                        wall_side[s][d] = true;
                    } else {
                        nbr[s][d] = Some(Square::new(n));
                    }
                }
            }
        }
        let mut far = vec![[None; 4]; size];
        let mut adj = vec![B::ZERO; size];
        let mut open = [B::ZERO; 4];
        let mut enter = [B::ZERO; 4];
        for s in 0..size {
            for d in 0..4 {
                if let Some(n) = nbr[s][d] {
                    far[s][d] = nbr[n.index()][d];
                    adj[s].set(n.index());
                    open[d].set(s);
                    enter[d].set(n.index());
                }
            }
        }
        let mut edge = B::ZERO;
        let mut full = B::ZERO;
        for s in 0..size {
            full.set(s);
            let (f, r) = (s % width, s / width);
            if f == 0 || r == 0 || f == width - 1 || r == height - 1 {
                edge.set(s);
            }
        }
        let mut rays = vec![[B::ZERO; 4]; size];
        for (s, ray) in rays.iter_mut().enumerate() {
            for (d, r) in ray.iter_mut().enumerate() {
                let mut q = nbr[s][d];
                while let Some(sq) = q {
                    r.set(sq.index());
                    q = nbr[sq.index()][d];
                }
            }
        }
        Grid {
            width,
            height,
            size,
            full,
            edge,
            nbr,
            far,
            adj,
            open,
            enter,
            wall_side,
            has_walls: !walls.is_empty(),
            rays,
        }
    }

    /// Does direction `d` run towards higher square numbers (east, north)?
    #[inline(always)]
    pub fn ascending(d: usize) -> bool {
        d == EAST || d == NORTH
    }

    /// One step of every square of `x` in direction `d` (squares stepping off the board or
    /// across a wall vanish).
    #[inline(always)]
    pub fn step(&self, x: B, d: usize) -> B {
        self.shift(x & self.open[d], d, 1)
    }

    /// `x` shifted `k` squares in direction `d`, without any masking (the caller masks).
    #[inline(always)]
    pub fn shift(&self, x: B, d: usize, k: u32) -> B {
        match d {
            EAST => x.shl(k),
            WEST => x.shr(k),
            NORTH => x.shl(k * self.width as u32),
            _ => x.shr(k * self.width as u32),
        }
    }

    /// `x` grown by one orthogonal step (through no wall).
    #[inline(always)]
    pub fn dilate(&self, x: B) -> B {
        x | self.step(x, EAST) | self.step(x, WEST) | self.step(x, NORTH) | self.step(x, SOUTH)
    }

    /// (file, rank) of a square, both from 0.
    #[inline(always)]
    pub fn file_rank(&self, s: usize) -> (usize, usize) {
        (s % self.width, s / self.width)
    }

    /// Is `s` on the board's rim?
    #[inline(always)]
    pub fn is_edge(&self, s: usize) -> bool {
        self.edge.has(s)
    }

    /// Is there a wall between `a` and the adjacent square `b`?
    pub fn wall_between(&self, a: usize, b: usize) -> bool {
        (0..4).any(|d| self.wall_side[a][d] && self.raw_neighbour(a, d) == Some(b))
    }

    /// The on-board neighbour of `s` in direction `d`, walls ignored.
    pub fn raw_neighbour(&self, s: usize, d: usize) -> Option<usize> {
        let (f, r) = self.file_rank(s);
        match d {
            EAST if f + 1 < self.width => Some(s + 1),
            WEST if f > 0 => Some(s - 1),
            NORTH if r + 1 < self.height => Some(s + self.width),
            SOUTH if r > 0 => Some(s - self.width),
            _ => None,
        }
    }

    /// The square's name: file letter from the left, rank number from the bottom (`e5`).
    pub fn name(&self, s: usize) -> String {
        let (f, r) = self.file_rank(s);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_do_not_wrap_or_cross_walls() {
        // 7x7 with a wall between d4 (24) and e4 (25)
        let g: Grid<u128> = Grid::new(7, 7, &[(24, 25)]);
        assert_eq!(g.step(u128::bit(6), EAST), 0, "g1 east falls off the board");
        assert_eq!(g.step(u128::bit(7), WEST), 0, "a2 west falls off the board");
        assert_eq!(g.step(u128::bit(24), EAST), 0, "the wall stops d4 -> e4");
        assert_eq!(g.step(u128::bit(24), NORTH), u128::bit(31));
        assert_eq!(g.nbr[25][WEST], None);
        assert_eq!(g.nbr[25][EAST], Some(Square::new(26)));
        assert_eq!(g.far[23][EAST], None, "the wall is between d4 and e4");
        assert!(g.wall_between(25, 24));
        assert_eq!(g.edge.count(), 24);
        assert_eq!(g.name(24), "d4");
    }
}

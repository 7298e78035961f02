//! The search on a game small enough to know by heart: take 1, 2 or 3 stones, taking the last
//! one wins.  A heap that is a multiple of four is lost for the side to move; otherwise taking
//! the remainder modulo four wins, in as many plies as it takes to empty the heap.

use super::*;

struct Stones;

#[derive(Clone)]
struct Heap {
    n: u32,
    side: u8,
}

impl Family for Stones {
    type Pos = Heap;
    type Order = ();
    fn side(&self, p: &Heap) -> u8 {
        p.side
    }
    fn hash(&self, p: &Heap) -> u64 {
        (p.n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ p.side as u64
    }
    fn quick_outcome(&self, p: &Heap) -> Option<Outcome> {
        (p.n == 0).then_some(Outcome::Win(1 - p.side))
    }
    fn moves(&self, p: &Heap, out: &mut Vec<Move>) {
        for k in 1..=3.min(p.n) {
            out.push(Move::new(p.n as usize, (p.n - k) as usize));
        }
    }
    fn play(&self, p: &Heap, m: Move) -> (Heap, bool) {
        (
            Heap {
                n: m.to.index() as u32,
                side: 1 - p.side,
            },
            false,
        )
    }
    fn no_moves_outcome(&self, p: &Heap) -> Outcome {
        Outcome::Win(1 - p.side)
    }
    fn repetition_outcome(&self, _p: &Heap, _count: u32) -> Option<Outcome> {
        None
    }
    fn evaluate(&self, _p: &Heap) -> i32 {
        0
    }
    fn tactics(&self, _p: &Heap, _m: Option<&[Move]>, _f: &mut Vec<Move>) -> Tactic {
        Tactic::Quiet
    }
    fn orderer(&self, _p: &Heap) {}
    fn order_key(&self, _o: &(), m: Move) -> i32 {
        m.to.index() as i32 // take few stones first: the winning move must be found anyway
    }
    fn predicts_capture(&self, _o: &(), _m: Move) -> bool {
        false
    }
    fn null_move(&self, _p: &Heap) -> Option<Heap> {
        None
    }
}

fn search(n: u32, limits: Limits) -> Report {
    let mut s = Searcher::new(Stones, 512, 12);
    s.search(&Heap { n, side: 0 }, &limits, &[], None, None, None)
}

#[test]
fn proves_wins_and_losses_with_their_distance() {
    for n in 2..=13u32 {
        let r = search(
            n,
            Limits {
                time: 0.0,
                depth: 16,
                ..Default::default()
            },
        );
        if n % 4 == 0 {
            assert!(r.score <= -MATE_BOUND, "heap {n} is lost, got {}", r.score);
        } else {
            assert!(r.score >= MATE_BOUND, "heap {n} is won, got {}", r.score);
            assert_eq!(r.mv.unwrap().to.index() % 4, 0, "heap {n}: leave a multiple of four");
            // the winner empties the heap in the fewest plies the loser allows
            let plies = MATE - r.score;
            assert_eq!(plies as u32 % 2, 1);
        }
    }
}

#[test]
fn multipv_scores_every_line_exactly() {
    let r = search(
        9,
        Limits {
            time: 0.0,
            depth: 12,
            lines: 3,
            ..Default::default()
        },
    );
    assert_eq!(r.scored.len(), 3);
    assert!(r.scored[0].1 >= MATE_BOUND);
    assert!(r.scored[1].1 <= -MATE_BOUND && r.scored[2].1 <= -MATE_BOUND);
}

#[test]
fn node_limit_is_reproducible_and_stops() {
    let lim = Limits {
        time: 0.0,
        depth: 60,
        nodes: 500,
        ..Default::default()
    };
    let a = search(401, lim.clone());
    let b = search(401, lim);
    assert_eq!(a.stopped, "nodes");
    assert_eq!((a.mv, a.score, a.nodes), (b.mv, b.score, b.nodes));
    assert!(a.nodes <= 500);
}

#[test]
fn a_poll_that_says_stop_cancels() {
    let mut s = Searcher::new(Stones, 512, 12);
    let mut calls = 0;
    let mut poll = || {
        calls += 1;
        true
    };
    let r = s.search(
        &Heap { n: 401, side: 0 },
        &Limits {
            time: 0.0,
            depth: 60,
            ..Default::default()
        },
        &[],
        None,
        Some(&mut poll),
        None,
    );
    assert_eq!(r.stopped, "cancelled");
    assert!(r.mv.is_some());
}

#[test]
fn lines_reach_the_end_even_when_the_table_forgets() {
    // one slot: every store replaces the last, so a line read back from the table alone breaks
    // off after a move or two; the lines shown must still be whole
    for lines in [1, 3] {
        let mut s = Searcher::new(Stones, 512, 0);
        let r = s.search(
            &Heap { n: 9, side: 0 },
            &Limits {
                time: 0.0,
                depth: 12,
                lines,
                ..Default::default()
            },
            &[],
            None,
            None,
            None,
        );
        let plies = (MATE - r.score) as usize;
        assert_eq!(r.pvs[0].len(), plies, "lines {lines}: {:?}", r.pvs[0]);
        assert_eq!(r.pv, r.pvs[0]);
        let mut n = 9;
        for &m in &r.pv {
            assert_eq!(m.from.index(), n);
            n = m.to.index();
        }
        assert_eq!(n, 0, "the line ends on the empty heap");
    }
}

#[test]
fn deepening_stops_only_when_every_line_is_a_final_proven_result() {
    let (m1, m2, m3) = (Move::new(0, 1), Move::new(0, 2), Move::new(0, 3));
    // a win in 3 plies after a full-width depth 2: no win in 1 was found, so nothing faster exists
    assert!(settled(&[(m1, MATE - 3)], 1, 2));
    // a win in 7 plies found at depth 2 (past the horizon): a win in 3 or 5 may still be found
    assert!(!settled(&[(m1, MATE - 7)], 1, 2));
    // three lines asked for: a proven best line does not stop the search while another is a guess
    assert!(!settled(&[(m1, MATE - 3), (m2, 120), (m3, 2)], 3, 2));
    assert!(settled(&[(m1, MATE - 3), (m2, -(MATE - 2)), (m3, -(MATE - 2))], 3, 2));
    // a loss in 4 plies after depth 2: a quicker one (in 2 or 3) may still be found
    assert!(!settled(&[(m1, MATE - 3), (m2, -(MATE - 4))], 2, 2));
    // fewer root moves than lines asked for: the ones there are decide
    assert!(settled(&[(m1, MATE - 1)], 3, 2));
    assert!(!settled(&[], 1, 2));
}

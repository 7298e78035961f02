//! The native search on real Tafl rules, with the evaluation tables and scores the Python
//! evaluator wrote into `tests/data` (`python -m tafl_desktop.ai.native_fixtures`; a Python
//! test keeps those files current).

use serde_json::Value;

use super::tafl::TaflFamily;
use super::{Family, Limits, Move, Searcher, MATE_BOUND};
use crate::board::{Bits, Square};
use crate::eval::tafl::{Step, Tables, Weights, WEIGHT_COUNT, WEIGHT_NAMES};
use crate::rules::testing::{brandubh, copenhagen};
use crate::rules::{Rules, Side, TaflConfig};

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/data/eval_{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json")
}

fn bits<B: Bits>(v: &Value) -> B {
    let words: Vec<u64> = v.as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).collect();
    B::from_words(&words)
}

fn tables<B: Bits>(t: &Value) -> Tables<B> {
    let list = |k: &str| -> Vec<B> { t[k].as_array().unwrap().iter().map(bits::<B>).collect() };
    let ints = |k: &str| -> Vec<i32> {
        t[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap() as i32)
            .collect()
    };
    let (w, h) = (
        t["width"].as_u64().unwrap() as usize,
        t["height"].as_u64().unwrap() as usize,
    );
    let walks = t["walks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|dirs| {
            let mut four: [Vec<Step>; 4] = Default::default();
            for (k, dir) in dirs.as_array().unwrap().iter().enumerate() {
                for st in dir.as_array().unwrap() {
                    let st = st.as_array().unwrap();
                    four[k].push(Step {
                        square: Square::new(st[0].as_u64().unwrap() as usize),
                        stop: st[1].as_bool().unwrap(),
                        last: st[2].as_bool().unwrap(),
                    });
                }
            }
            four
        })
        .collect();
    let mut values = [0i32; WEIGHT_COUNT];
    for (i, name) in WEIGHT_NAMES.iter().enumerate() {
        values[i] = t["weights"][name].as_i64().unwrap() as i32;
    }
    let guard = list("guard");
    let pair = |k: &str| -> [B; 2] {
        let v = list(k);
        [v[0], v[1]]
    };
    Tables {
        w,
        h,
        n: w * h,
        full: bits(&t["full"]),
        escape: bits(&t["escape"]),
        king_walls: bits(&t["king_walls"]),
        not_file_a: bits(&t["not_file_a"]),
        not_file_last: bits(&t["not_file_last"]),
        reach: bits(&t["reach"]),
        edge: bits(&t["edge"]),
        guard: [guard[0], guard[1], guard[2]],
        adj: list("adj"),
        near: list("near"),
        ring: list("ring"),
        kdist: ints("kdist"),
        king_host_sq: ints("king_host_sq"),
        king_offboard: ints("king_offboard"),
        walks,
        walk_limit: t["walk_limit"].as_i64().unwrap() as i32,
        start_defenders: t["start_defenders"].as_i64().unwrap() as i32,
        offset: t["offset"].as_i64().unwrap() as i32,
        strong_king: t["strong_king"].as_bool().unwrap(),
        king_wall_risk: t["king_wall_risk"].as_bool().unwrap(),
        edge_hostile: t["edge_hostile"].as_bool().unwrap(),
        king_anvil: t["king_anvil"].as_bool().unwrap(),
        captureless: t["captureless"].as_u64().unwrap() as u32,
        host_always: pair("host_always"),
        host_empty: pair("host_empty"),
        m_east: bits(&t["m_east"]),
        m_west: bits(&t["m_west"]),
        m_east_edge: bits(&t["m_east_edge"]),
        m_west_edge: bits(&t["m_west_edge"]),
        m_north_edge: bits(&t["m_north_edge"]),
        m_south_edge: bits(&t["m_south_edge"]),
        weights: Weights::from_values(&values),
    }
}

fn family(name: &str, config: TaflConfig) -> (TaflFamily<u128>, Value) {
    let f = fixture(name);
    let rules: Rules<u128> = Rules::new(&config).unwrap();
    (
        TaflFamily {
            tables: tables(&f["tables"]),
            rules,
        },
        f,
    )
}

fn side(i: u64) -> Side {
    if i == 0 {
        Side::Attackers
    } else {
        Side::Defenders
    }
}

#[test]
fn evaluation_equals_the_python_evaluators_scores() {
    for (name, config) in [("brandubh", brandubh()), ("copenhagen", copenhagen())] {
        let (fam, f) = family(name, config);
        let samples = f["samples"].as_array().unwrap();
        assert!(samples.len() >= 50);
        for s in samples {
            let mut p = fam
                .rules
                .parse_position(s["position"].as_str().unwrap(), side(s["side"].as_u64().unwrap()))
                .unwrap();
            // plies since the last capture: the no-progress term shrinks the score with them
            p.quiet = s["quiet"].as_u64().unwrap() as u32;
            assert_eq!(
                fam.evaluate(&p) as i64,
                s["score"].as_i64().unwrap(),
                "{name} {}",
                s["position"]
            );
        }
    }
}

#[test]
fn the_mop_up_term_counts_only_far_ahead_as_in_python() {
    // issue 44's Copenhagen endgame, the same less two soldiers (one left, on e3), and that with
    // an attacker next to it (f1-f3): the attackers' scores the Python evaluator gives with
    // defender_mobility 0 and 12 (tests/test_endgame_progress.py reads the same positions)
    let issue = "/5t5/3t1t5/T6t3/10T/t2t7/tt1t3tt2/K1t6t1/tt9/1tt1T6/8t2/3t1tt2t1/";
    let far = "/5t5/3t1t5/7t3/11/t2t7/tt1t3tt2/K1t6t1/tt9/1tt1T6/8t2/3t1tt2t1/";
    let closer = "/5t5/3t1t5/7t3/11/t2t7/tt1t3tt2/K1t6t1/tt9/1tt1Tt5/8t2/3t2t2t1/";
    // far ahead too, but the king on f6 may walk to a corner: nothing to add until he is walled in
    let open = "/5t5/3t1t5/7t3/11/t2t7/tt1t1K1tt2/2t6t1/tt9/1tt1T6/8t2/3t1tt2t1/";
    let start = crate::rules::testing::COPENHAGEN;
    for (weight, want) in [(0, [1446, 1799, 1799, 1388, 0]), (12, [2155, 3047, 3119, 1388, 0])] {
        let (mut fam, _) = family("copenhagen", copenhagen());
        fam.tables.weights.defender_mobility = weight;
        for (text, score) in [issue, far, closer, open, start].into_iter().zip(want) {
            let p = fam.rules.parse_position(text, Side::Attackers).unwrap();
            assert_eq!(fam.evaluate(&p), score, "weight {weight}: {text}");
        }
    }
}

fn search(fam: TaflFamily<u128>, text: &str, to_move: Side, limits: Limits) -> (super::Report, TaflFamily<u128>) {
    let p = fam.rules.parse_position(text, to_move).unwrap();
    let n = fam.rules.size();
    let mut s = Searcher::new(fam, n, 16);
    let r = s.search(&p, &limits, &[], None, None, None);
    (r, s.fam)
}

#[test]
fn escapes_blocks_and_tuichi() {
    let quick = Limits {
        time: 0.0,
        depth: 5,
        ..Default::default()
    };
    // brandubh: the king on b7 steps into a corner, a7 or g7
    let (fam, _) = family("brandubh", brandubh());
    let (r, _) = search(fam, "/1K5/7/2t4/4t2/7/7/1t5/", Side::Defenders, quick.clone());
    assert_eq!(r.score, super::MATE - 1);
    assert!([42, 48].contains(&r.mv.unwrap().to.index()));
    // copenhagen: only b6-b11 closes the king's path to a11
    let (fam, _) = family("copenhagen", copenhagen());
    let (r, fam) = search(
        fam,
        "/2K1t6/2T8/11/11/11/1t9/11/11/6T4/tt9/11/",
        Side::Attackers,
        quick.clone(),
    );
    assert_eq!(r.mv, Some(Move::new(5 * 11 + 1, 10 * 11 + 1)));
    // two paths at once cannot both be closed: lost for the attackers, won in 3 for the king
    let (r, fam) = search(
        fam,
        "/4K6/11/11/5t5/11/11/11/11/t10/t10/11/",
        Side::Attackers,
        quick.clone(),
    );
    assert!(r.score <= -MATE_BOUND);
    let (r, _) = search(fam, "/11/11/11/11/11/1t9/4K6/11/11/t10/1T9/", Side::Defenders, quick);
    assert_eq!(super::MATE - r.score, 3);
}

#[test]
fn node_limited_searches_repeat_exactly_and_threads_agree_on_legality() {
    let lim = Limits {
        time: 0.0,
        depth: 64,
        nodes: 50_000,
        selective: true,
        ..Default::default()
    };
    let start = crate::rules::testing::COPENHAGEN;
    let (fam, _) = family("copenhagen", copenhagen());
    let (a, fam) = search(fam, start, Side::Attackers, lim.clone());
    let (b, fam) = search(fam, start, Side::Attackers, lim.clone());
    assert_eq!(
        (a.mv, a.score, a.nodes, a.pv.clone()),
        (b.mv, b.score, b.nodes, b.pv.clone())
    );
    assert_eq!(a.stopped, "nodes");
    let two = Limits {
        threads: 2,
        time: 0.3,
        nodes: 0,
        lines: 3,
        ..lim
    };
    let (c, fam) = search(fam, start, Side::Attackers, two);
    let p = fam.rules.parse_position(start, Side::Attackers).unwrap();
    let mut legal = Vec::new();
    fam.moves(&p, &mut legal);
    assert!(legal.contains(&c.mv.unwrap()));
    assert!(c.scored.len() == legal.len() && c.pvs.len() == 3);
}

#[test]
fn a_node_limit_holds_with_any_number_of_threads() {
    // issue 37 item 4: 20,000 nodes used to become 48,672 with 2 threads and 1,361,440 with 64
    let start = crate::rules::testing::COPENHAGEN;
    let (mut fam, _) = family("copenhagen", copenhagen());
    for threads in [1, 2, 8, 64] {
        let lim = Limits {
            time: 0.0,
            depth: 64,
            nodes: 20_000,
            threads,
            ..Default::default()
        };
        let (r, back) = search(fam, start, Side::Attackers, lim);
        fam = back;
        assert_eq!(r.stopped, "nodes", "{threads} threads");
        assert!(r.nodes <= 20_000, "{threads} threads searched {} nodes", r.nodes);
        assert!(
            r.nodes >= 19_000,
            "{threads} threads stopped early at {} nodes",
            r.nodes
        );
        assert!(r.mv.is_some());
    }
}

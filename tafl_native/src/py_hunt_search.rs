//! The Fox games' search as Python sees it: `tafl_native.HuntSearch`.
//!
//! Built by `tafl_desktop/native/hunt_search.py` from the Python rules (as `HuntRules` is) and the
//! Python evaluator's lattice, tables and weights.  Positions and moves cross as `HuntRules`'
//! do; the search itself is `run_search`'s, as for Tafl and Dablot.

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::hunt::{Hunt, HuntPos};
use crate::py_dablot::outcome_from;
use crate::py_dablot_search::{report_dict, table_line, tactics_of, WritesPaths};
use crate::py_hunt::{settings_from, HuntCrossing};
use crate::py_rules::guarded;
use crate::py_search::{bad, limits, run_search, ReportDict};
use crate::search::hunt::{HuntFamily, Tables, Weights};
use crate::search::prove::{ByMoves, Prover};
use crate::search::{Family, Move, Searcher};

impl WritesPaths for HuntFamily {
    fn path_of(&self, p: &HuntPos, m: Move) -> Vec<usize> {
        self.game.path(p, m)
    }

    fn paths_of(&self, p: &HuntPos, moves: &[Move]) -> Vec<Vec<usize>> {
        self.game.paths(p, moves)
    }
}

fn get<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v
            .extract::<T>()
            .map_err(|_| bad(format!("Fox-game evaluation tables: {key} has the wrong type"))),
        None => Err(bad(format!("Fox-game evaluation tables: {key} is missing"))),
    }
}

fn tables(d: &Bound<'_, PyDict>, n: usize) -> PyResult<Tables> {
    let lattice: Vec<u8> = get(d, "lattice")?;
    if lattice.len() != n || lattice.iter().any(|&b| b >= 128) {
        return Err(bad(
            "Fox-game evaluation tables: lattice needs one bit below 128 per point",
        ));
    }
    let per_point = |key: &str| -> PyResult<Vec<i32>> {
        let v: Vec<i32> = get(d, key)?;
        if v.len() != n {
            return Err(bad(format!(
                "Fox-game evaluation tables: {key} needs one entry per point"
            )));
        }
        Ok(v)
    };
    let shifts = |key: &str| -> PyResult<Vec<(i32, u128)>> {
        let v: Vec<(i32, u128)> = get(d, key)?;
        if v.iter().any(|&(s, _)| s == 0 || s.abs() >= 128) {
            return Err(bad(format!(
                "Fox-game evaluation tables: {key} holds a shift off the lattice"
            )));
        }
        Ok(v)
    };
    let hstep_mask: Vec<u128> = get(d, "hstep_mask")?;
    if hstep_mask.len() != n {
        return Err(bad("Fox-game evaluation tables: hstep_mask needs one entry per point"));
    }
    let wd: Bound<'_, PyDict> = get(d, "weights")?;
    let w = |k: &str| -> PyResult<i32> { get(&wd, k) };
    let three = |k: &str| -> PyResult<[i32; 3]> { get(&wd, k) };
    Ok(Tables {
        lattice,
        gall: get(d, "gall")?,
        hsteps: shifts("hsteps")?,
        hjumps: shifts("hjumps")?,
        fsteps: shifts("fsteps")?,
        half_steps: shifts("half_steps")?,
        hstep_mask,
        rows: get(d, "rows")?,
        below: get(d, "below")?,
        one_way: get(d, "one_way")?,
        captures: get(d, "captures")?,
        threshold: get(d, "threshold")?,
        fill_pen: get(d, "fill_pen")?,
        breakthrough: get(d, "breakthrough")?,
        multi: get(d, "multi")?,
        pen_mask: get(d, "pen_mask")?,
        home_mask: get(d, "home_mask")?,
        ghome: get(d, "ghome")?,
        centre: per_point("centre")?,
        pen_distance: per_point("pen_distance")?,
        weights: Weights {
            goose: w("goose")?,
            danger: three("danger")?,
            hunter: w("hunter")?,
            hunter_step: w("hunter_step")?,
            hunter_jump: w("hunter_jump")?,
            stuck_hunter: w("stuck_hunter")?,
            region: w("region")?,
            pocket: w("pocket")?,
            pocket_size: w("pocket_size")?,
            holes: three("holes")?,
            fork: w("fork")?,
            near_fork: w("near_fork")?,
            cohesion: w("cohesion")?,
            reserve: w("reserve")?,
            behind: w("behind")?,
            advance: w("advance")?,
            hang_one: w("hang_one")?,
            hang_more: w("hang_more")?,
            capture_now: w("capture_now")?,
            pen: w("pen")?,
            pen_near: w("pen_near")?,
            pen_hunter: w("pen_hunter")?,
            open_road: w("open_road")?,
            road_step: w("road_step")?,
            tempo: w("tempo")?,
            ahead: w("ahead")?,
            ahead_reach: w("ahead_reach")?,
            refuge: w("refuge")?,
            hunter_centre: w("hunter_centre")?,
            hunter_pen: w("hunter_pen")?,
        },
    })
}

/// A native searcher for one Fox-game variant (see `tafl_desktop/native/hunt_search.py`).
#[pyclass(module = "tafl_native")]
pub struct HuntSearch {
    searcher: Searcher<HuntFamily>,
    /// The same rules without the evaluation, to write moves while the searcher is busy.
    writer: Hunt,
    /// The prover's settled questions, per winner.
    proofs: [HashMap<(u64, i32), bool>; 2],
}

impl HuntSearch {
    fn pos(&self, c: HuntCrossing) -> PyResult<HuntPos> {
        let (flock, hunters, side, quiet, result) = c;
        self.writer
            .position(flock, hunters, side, quiet, outcome_from(result)?)
            .map_err(|e| bad(e.0))
    }

    fn move_of(&self, p: &HuntPos, path: &[usize], what: &str) -> PyResult<Move> {
        self.writer
            .move_of(p, path)
            .ok_or_else(|| bad(format!("{what}: the move {path:?} is not legal in the position")))
    }
}

#[pymethods]
impl HuntSearch {
    /// The rules as for `HuntRules`, the evaluation's `tables` and weights, and the
    /// transposition table's size (2^table_bits entries).
    #[new]
    #[pyo3(signature = (steps, jumps, home, pen, settings, tables, table_bits = 20))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        steps: [Vec<Vec<u8>>; 2],
        jumps: Vec<Vec<(u8, u8)>>,
        home: u128,
        pen: u128,
        settings: &Bound<'_, PyDict>,
        tables: &Bound<'_, PyDict>,
        table_bits: u32,
    ) -> PyResult<Self> {
        guarded(|| {
            let s = settings_from(settings)?;
            let game = Hunt::new(steps, jumps, home, pen, s).map_err(|e| bad(e.0))?;
            let n = game.points();
            let t = self::tables(tables, n)?;
            let writer = game.clone();
            Ok(HuntSearch {
                searcher: Searcher::new(HuntFamily { game, tables: t }, n, table_bits.clamp(10, 26)),
                writer,
                proofs: Default::default(),
            })
        })
    }

    /// Search `position`; `limits` and the report as `TaflSearch.search`, moves as point lists;
    /// `history`: the game's earlier positions; `only`: the root moves allowed (None: all).
    #[pyo3(signature = (position, limits, history, should_stop = None, on_iteration = None, only = None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        position: HuntCrossing,
        limits: &Bound<'py, PyDict>,
        history: Vec<HuntCrossing>,
        should_stop: Option<Py<PyAny>>,
        on_iteration: Option<Py<PyAny>>,
        only: Option<Vec<Vec<usize>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = self.pos(position)?;
        let lim = self::limits(limits)?;
        let only = match only {
            None => None,
            Some(paths) => Some(
                paths
                    .iter()
                    .map(|path| self.move_of(&p, path, "only"))
                    .collect::<PyResult<Vec<Move>>>()?,
            ),
        };
        let mut game: Vec<(u64, u32)> = Vec::new();
        for item in history {
            let key = self.pos(item)?.hash;
            match game.iter_mut().find(|(k, _)| *k == key) {
                Some(e) => e.1 += 1,
                None => game.push((key, 1)),
            }
        }
        let writer = HuntFamily {
            game: self.writer.clone(),
            tables: Tables::default(),
        };
        let root = p;
        let dict: &ReportDict<'_> = &|py, r| report_dict(py, &writer, &root, r);
        run_search(
            py,
            &mut self.searcher,
            &p,
            &lim,
            &game,
            only.as_deref(),
            should_stop,
            on_iteration,
            dict,
        )
    }

    /// The principal variation from the table, starting with `first` (a point list).
    fn pv(&self, position: HuntCrossing, first: Vec<usize>) -> PyResult<Vec<Vec<usize>>> {
        let p = self.pos(position)?;
        let m = self.move_of(&p, &first, "pv")?;
        guarded(|| Ok(table_line(&self.searcher, &p, m)))
    }

    /// The static evaluation from the side to move's view.
    fn evaluate(&self, position: HuntCrossing) -> PyResult<i32> {
        let p = self.pos(position)?;
        guarded(|| Ok(self.searcher.fam.evaluate(&p)))
    }

    /// Many static evaluations at once (the equality test against the Python evaluator).
    fn evaluate_many(&self, positions: Vec<HuntCrossing>) -> PyResult<Vec<i32>> {
        positions.into_iter().map(|p| self.evaluate(p)).collect()
    }

    /// The forcing facts of `position`: (kind, the moves they name as point lists).
    fn tactics(&self, position: HuntCrossing) -> PyResult<(String, Vec<Vec<usize>>)> {
        let p = self.pos(position)?;
        guarded(|| Ok(tactics_of(&self.searcher.fam, &p)))
    }

    /// Empty the transposition table (a new game).
    fn clear(&mut self) {
        self.searcher.table.clear();
    }

    /// Exhaustive proof: does `winner` (0 the flock, 1 the hunters) win from `position` within
    /// `plies` plies against every defence?  (True/False, or None when more than `max_nodes`
    /// positions (0: no limit) were needed; positions expanded.)  Settled questions are kept
    /// until `forget_proofs`.
    #[pyo3(signature = (position, winner, plies, max_nodes = 0))]
    fn wins(
        &mut self,
        py: Python<'_>,
        position: HuntCrossing,
        winner: u8,
        plies: i32,
        max_nodes: u64,
    ) -> PyResult<(Option<bool>, u64)> {
        if winner > 1 {
            return Err(bad("winner must be 0 (the flock) or 1 (the hunters)"));
        }
        let p = self.pos(position)?;
        let fam = &self.searcher.fam;
        let table = &mut self.proofs[winner as usize];
        if table.len() > 4_000_000 {
            table.clear();
        }
        guarded(|| {
            Ok(py.detach(|| {
                let game = ByMoves(fam);
                let mut prover = Prover::new(&game, winner, max_nodes, table);
                let r = prover.wins(&p, plies.clamp(0, 64));
                (r.ok(), prover.nodes)
            }))
        })
    }

    /// Forget the settled proof questions.
    fn forget_proofs(&mut self) {
        self.proofs = Default::default();
    }
}

/// Register the class in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<HuntSearch>()?;
    Ok(())
}

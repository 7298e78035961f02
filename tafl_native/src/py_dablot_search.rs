//! The Dablot search's Python binding: `tafl_native.DablotSearch`.
//!
//! Built by `tafl_desktop/native/dablot.py` from the Python rules' lattice and settings (as the
//! prover is) and the Python evaluator's tables and weights.  Positions cross as the prover's do
//! (cells, side to move, winner); moves cross as the Python rules write them, the points a piece
//! visits, in both directions.  The search itself is `run_search`'s, as for Tafl.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::dablot::{Dablot, DablotPos};
use crate::py_dablot::{outcome_from, settings_from, Crossing};
use crate::py_rules::guarded;
use crate::py_search::{bad, limits, run_search, ReportDict};
use crate::search::dablot::{DablotFamily, Tables, Weights};
use crate::search::{Family, Move, Report, Searcher};

fn get<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v
            .extract::<T>()
            .map_err(|_| bad(format!("Dablot evaluation tables: {key} has the wrong type"))),
        None => Err(bad(format!("Dablot evaluation tables: {key} is missing"))),
    }
}

fn tables(d: &Bound<'_, PyDict>, n: usize) -> PyResult<Tables> {
    let per_point = |key: &str, v: &[Vec<(u8, u8)>]| -> PyResult<()> {
        if v.len() != n || v.iter().flatten().any(|&(a, b)| a as usize >= n || b as usize >= n) {
            return Err(bad(format!(
                "Dablot evaluation tables: {key} needs one list of points per point"
            )));
        }
        Ok(())
    };
    let square = |key: &str| -> PyResult<Vec<Vec<i32>>> {
        let v: Vec<Vec<i32>> = get(d, key)?;
        if v.len() != n || v.iter().any(|r| r.len() != n) {
            return Err(bad(format!("Dablot evaluation tables: {key} needs {n} rows of {n}")));
        }
        Ok(v)
    };
    let soldier_jumps: [Vec<Vec<(u8, u8)>>; 2] = get(d, "soldier_jumps")?;
    for s in &soldier_jumps {
        per_point("soldier_jumps", s)?;
    }
    let jumped_from: Vec<Vec<(u8, u8)>> = get(d, "jumped_from")?;
    per_point("jumped_from", &jumped_from)?;
    let to_go: [Vec<i32>; 2] = get(d, "to_go")?;
    if to_go.iter().any(|v| v.len() != n) {
        return Err(bad("Dablot evaluation tables: to_go needs one row count per point"));
    }
    let wd: Bound<'_, PyDict> = get(d, "weights")?;
    let w = |k: &str| -> PyResult<i32> { get(&wd, k) };
    let start_total: i32 = get(d, "start_total")?;
    let (from, full): (i32, i32) = (get(d, "mop_up_from")?, get(d, "mop_up_full")?);
    if full <= from {
        return Err(bad("Dablot evaluation tables: mop_up_full must be above mop_up_from"));
    }
    Ok(Tables {
        value: get(d, "value")?,
        rank: get(d, "rank")?,
        soldier_jumps,
        jumped_from,
        to_go,
        depth_rows: get(d, "depth_rows")?,
        dist: square("dist")?,
        far: get(d, "far")?,
        walk: square("walk")?,
        far_walk: get(d, "far_walk")?,
        start_total: start_total.max(1),
        mop_up_cap: get(d, "mop_up_cap")?,
        mop_up_from: from,
        mop_up_full: full,
        onward: get(d, "onward")?,
        promotion: get(d, "promotion")?,
        officer_material: get(d, "officer_material")?,
        leader_loses: get(d, "leader_loses")?,
        bare_loses: get(d, "bare_loses")?,
        weights: Weights {
            backed: w("backed")?,
            advance: w("advance")?,
            space: w("space")?,
            mobility: w("mobility")?,
            trade: w("trade")?,
            hunt: w("hunt")?,
            mop_up: w("mop_up")?,
            bare: w("bare")?,
            cash: w("cash")?,
            tempo: w("tempo")?,
            squeeze: w("squeeze")?,
        },
        squeeze_from: get(d, "squeeze_from")?,
    })
}

/// A family whose moves Python writes as the points a piece visits (Dablot's, the Fox games').
pub(crate) trait WritesPaths: Family {
    fn path_of(&self, p: &Self::Pos, m: Move) -> Vec<usize>;

    /// The points each of `moves` visits in `p` (a family with many chains a position walks
    /// them once here).
    fn paths_of(&self, p: &Self::Pos, moves: &[Move]) -> Vec<Vec<usize>> {
        moves.iter().map(|&m| self.path_of(p, m)).collect()
    }
}

impl WritesPaths for DablotFamily {
    fn path_of(&self, p: &DablotPos, m: Move) -> Vec<usize> {
        self.path(p, m)
    }
}

/// A report's moves as Python writes them: each line walked from the root.
pub(crate) fn report_dict<'py, F: WritesPaths>(
    py: Python<'py>,
    fam: &F,
    root: &F::Pos,
    r: &Report,
) -> PyResult<Bound<'py, PyDict>> {
    let one = |m: Move| fam.path_of(root, m);
    let line = |ms: &[Move]| -> Vec<Vec<usize>> {
        let mut p = root.clone();
        let mut out = Vec::with_capacity(ms.len());
        for &m in ms {
            let path = fam.path_of(&p, m);
            if path.is_empty() {
                break; // a line the table no longer holds in full
            }
            out.push(path);
            p = fam.play(&p, m).0;
        }
        out
    };
    let d = PyDict::new(py);
    d.set_item("move", r.mv.map(one))?;
    d.set_item("score", r.score)?;
    d.set_item("depth", r.depth)?;
    d.set_item("nodes", r.nodes)?;
    d.set_item("seconds", r.seconds)?;
    d.set_item("pv", line(&r.pv))?;
    let scored = |v: &[(Move, i32)]| {
        let moves: Vec<Move> = v.iter().map(|&(m, _)| m).collect();
        let paths = fam.paths_of(root, &moves);
        paths.into_iter().zip(v.iter().map(|&(_, s)| s)).collect::<Vec<_>>()
    };
    d.set_item("candidates", scored(&r.candidates))?;
    d.set_item("scored", scored(&r.scored))?;
    d.set_item("finished_depth", r.finished_depth)?;
    d.set_item("pvs", r.pvs.iter().map(|pv| line(pv)).collect::<Vec<_>>())?;
    d.set_item("full_width_depth", r.full_width_depth)?;
    d.set_item("stopped", r.stopped)?;
    Ok(d)
}

/// The principal variation from the table as point lists, starting with `first`.
pub(crate) fn table_line<F: WritesPaths>(searcher: &Searcher<F>, p: &F::Pos, first: Move) -> Vec<Vec<usize>> {
    let fam = &searcher.fam;
    let line = crate::search::table_pv(fam, &searcher.table, p, first, 24);
    let mut out = Vec::with_capacity(line.len());
    let mut at = p.clone();
    for mv in line {
        out.push(fam.path_of(&at, mv));
        at = fam.play(&at, mv).0;
    }
    out
}

/// The forcing facts of a position as Python's tests compare them: (kind, moves as point lists).
pub(crate) fn tactics_of<F: WritesPaths>(fam: &F, p: &F::Pos) -> (String, Vec<Vec<usize>>) {
    let mut forced = Vec::new();
    let t = fam.tactics(p, None, &mut forced);
    let path = |m: Move| fam.path_of(p, m);
    match t {
        crate::search::Tactic::Quiet => ("quiet".into(), vec![]),
        crate::search::Tactic::WinNow(m) => ("win_now".into(), vec![path(m)]),
        crate::search::Tactic::Forced => ("forced".into(), forced.into_iter().map(path).collect()),
        crate::search::Tactic::Terminal(_) => ("terminal".into(), vec![]),
    }
}

/// A native searcher for one Dablot variant (see `tafl_desktop/native/dablot.py`).
#[pyclass(module = "tafl_native")]
pub struct DablotSearch {
    searcher: Searcher<DablotFamily>,
    /// The same rules without the evaluation, to write moves while the searcher is busy.
    writer: DablotFamily,
}

impl DablotSearch {
    fn pos(&self, position: Crossing) -> PyResult<DablotPos> {
        let (cells, side, winner) = position;
        self.writer
            .game
            .position(&cells, side, outcome_from(winner)?)
            .map_err(|e| bad(e.0))
    }

    fn move_of(&self, p: &DablotPos, path: &[usize], what: &str) -> PyResult<Move> {
        self.writer
            .move_of(p, path)
            .ok_or_else(|| bad(format!("{what}: the move {path:?} is not legal in the position")))
    }
}

#[pymethods]
impl DablotSearch {
    /// The lattice and settings as for `DablotProver` (with `repetition_draw`), the evaluation's
    /// `tables` and weights, and the transposition table's size (2^table_bits entries).
    #[new]
    #[pyo3(signature = (steps, jumps, rows, ranks, far_rows, settings, tables, table_bits = 20))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        steps: Vec<Vec<u8>>,
        jumps: Vec<Vec<(u8, u8)>>,
        rows: Vec<i32>,
        ranks: [u8; 4],
        far_rows: [Vec<bool>; 2],
        settings: &Bound<'_, PyDict>,
        tables: &Bound<'_, PyDict>,
        table_bits: u32,
    ) -> PyResult<Self> {
        guarded(|| {
            let s = settings_from(settings)?;
            let game = Dablot::new(steps, jumps, rows, ranks, far_rows, s).map_err(|e| bad(e.0))?;
            let n = game.points();
            let t = self::tables(tables, n)?;
            let writer = DablotFamily {
                game: game.clone(),
                tables: Tables::default(),
            };
            let fam = DablotFamily { game, tables: t };
            Ok(DablotSearch {
                searcher: Searcher::new(fam, n, table_bits.clamp(10, 26)),
                writer,
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
        position: Crossing,
        limits: &Bound<'py, PyDict>,
        history: Vec<Crossing>,
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
            let hp = self.pos(item)?;
            let key = self.writer.hash(&hp);
            match game.iter_mut().find(|(k, _)| *k == key) {
                Some(e) => e.1 += 1,
                None => game.push((key, 1)),
            }
        }
        let writer = &self.writer;
        let root = p.clone();
        let dict: &ReportDict<'_> = &|py, r| report_dict(py, writer, &root, r);
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
    fn pv(&self, position: Crossing, first: Vec<usize>) -> PyResult<Vec<Vec<usize>>> {
        let p = self.pos(position)?;
        let m = self.move_of(&p, &first, "pv")?;
        guarded(|| Ok(table_line(&self.searcher, &p, m)))
    }

    /// The static evaluation from the side to move's view.
    fn evaluate(&self, position: Crossing) -> PyResult<i32> {
        let p = self.pos(position)?;
        guarded(|| Ok(self.searcher.fam.evaluate(&p)))
    }

    /// Many static evaluations at once (the equality test against the Python evaluator).
    fn evaluate_many(&self, positions: Vec<Crossing>) -> PyResult<Vec<i32>> {
        positions.into_iter().map(|p| self.evaluate(p)).collect()
    }

    /// The legal moves of `position` as point lists, in the order the search generates them.
    fn moves(&self, position: Crossing) -> PyResult<Vec<Vec<usize>>> {
        let p = self.pos(position)?;
        guarded(|| {
            let mut out = Vec::new();
            self.writer.moves(&p, &mut out);
            Ok(out.into_iter().map(|m| self.writer.path(&p, m)).collect())
        })
    }

    /// The forcing facts of `position`: ("quiet" | "win_now" | "forced" | "terminal", the moves
    /// they name as point lists) - the equality test against the Python evaluator's `tactics`.
    fn tactics(&self, position: Crossing) -> PyResult<(String, Vec<Vec<usize>>)> {
        let p = self.pos(position)?;
        guarded(|| Ok(tactics_of(&self.searcher.fam, &p)))
    }

    /// Empty the transposition table (a new game).
    fn clear(&mut self) {
        self.searcher.table.clear();
    }
}

/// Register the class in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DablotSearch>()?;
    Ok(())
}

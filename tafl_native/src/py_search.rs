//! The search's Python bindings: `tafl_native.TaflSearch`.
//!
//! What crosses the boundary is plain data built by `tafl_desktop/native/search.py` from the
//! core's validated objects: the native rules (the bridge's rules object), the evaluation tables
//! and weights, positions as lists of 64-bit words, the limits as a dict.  The search runs with
//! the interpreter lock released (`Python::detach`); the caller's `should_stop` is polled every
//! few thousand nodes with the lock taken just for that call.  A panic inside the search is
//! caught here and raised as a `RuntimeError` with one line, so a worker process never dies of it.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::{Bits, Square, Wide};
use crate::eval::tafl::{Step, Tables, Weights, WEIGHT_COUNT, WEIGHT_NAMES};
use crate::py_rules::{config_from, guarded, position_from};
use crate::rules::{AnyRules, Rules};
use crate::search::prove::{ByMoves, Prover};
use crate::search::tafl::TaflFamily;
use crate::search::{Family, Limits, Move, Report, Searcher};

pub(crate) fn bad(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

fn get<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v
            .extract::<T>()
            .map_err(|_| bad(format!("evaluation tables: {key} has the wrong type"))),
        None => Err(bad(format!("evaluation tables: {key} is missing"))),
    }
}

fn bits<B: Bits>(words: &[u64]) -> B {
    B::from_words(words)
}

fn tables<B: Bits>(d: &Bound<'_, PyDict>, board: (usize, usize)) -> PyResult<Tables<B>> {
    let w: usize = get(d, "width")?;
    let h: usize = get(d, "height")?;
    if (w, h) != board {
        return Err(bad(format!(
            "evaluation tables: they are for a {w}x{h} board, the rules play on {}x{}",
            board.0, board.1
        )));
    }
    let n = w * h;
    let b = |key: &str| -> PyResult<B> { Ok(bits::<B>(&get::<Vec<u64>>(d, key)?)) };
    let per_square = |key: &str| -> PyResult<Vec<B>> {
        let v: Vec<Vec<u64>> = get(d, key)?;
        if v.len() != n {
            return Err(bad(format!("evaluation tables: {key} needs one entry per square")));
        }
        Ok(v.iter().map(|x| bits::<B>(x)).collect())
    };
    let ints = |key: &str| -> PyResult<Vec<i32>> {
        let v: Vec<i32> = get(d, key)?;
        if v.len() != n {
            return Err(bad(format!("evaluation tables: {key} needs one entry per square")));
        }
        Ok(v)
    };
    let pair = |key: &str| -> PyResult<[B; 2]> {
        let v: Vec<Vec<u64>> = get(d, key)?;
        if v.len() != 2 {
            return Err(bad(format!("evaluation tables: {key} needs two entries")));
        }
        Ok([bits::<B>(&v[0]), bits::<B>(&v[1])])
    };
    let guard: Vec<Vec<u64>> = get(d, "guard")?;
    if guard.len() != 3 {
        return Err(bad("evaluation tables: guard needs three masks"));
    }
    let raw_walks: Vec<Vec<Vec<(u16, bool, bool)>>> = get(d, "walks")?;
    if raw_walks.len() != n || raw_walks.iter().any(|d| d.len() != 4) {
        return Err(bad("evaluation tables: walks needs four directions per square"));
    }
    let mut walks = Vec::with_capacity(n);
    for dirs in raw_walks {
        let mut four: [Vec<Step>; 4] = Default::default();
        for (k, dir) in dirs.into_iter().enumerate() {
            for (square, stop, last) in dir {
                if square as usize >= n {
                    return Err(bad("evaluation tables: a walk leaves the board"));
                }
                four[k].push(Step {
                    square: Square::new(square as usize),
                    stop,
                    last,
                });
            }
        }
        walks.push(four);
    }
    let wd: Bound<'_, PyDict> = get(d, "weights")?;
    let mut values = [0i32; WEIGHT_COUNT];
    for (i, name) in WEIGHT_NAMES.iter().enumerate() {
        values[i] = get(&wd, name)?;
    }
    let start_defenders: i32 = get(d, "start_defenders")?;
    Ok(Tables {
        w,
        h,
        n,
        full: b("full")?,
        escape: b("escape")?,
        king_walls: b("king_walls")?,
        not_file_a: b("not_file_a")?,
        not_file_last: b("not_file_last")?,
        reach: b("reach")?,
        edge: b("edge")?,
        guard: [bits(&guard[0]), bits(&guard[1]), bits(&guard[2])],
        adj: per_square("adj")?,
        near: per_square("near")?,
        ring: per_square("ring")?,
        kdist: ints("kdist")?,
        king_host_sq: ints("king_host_sq")?,
        king_offboard: ints("king_offboard")?,
        walks,
        walk_limit: get(d, "walk_limit")?,
        start_defenders: start_defenders.max(1),
        offset: get(d, "offset")?,
        strong_king: get(d, "strong_king")?,
        king_wall_risk: get(d, "king_wall_risk")?,
        edge_hostile: get(d, "edge_hostile")?,
        king_anvil: get(d, "king_anvil")?,
        captureless: get(d, "captureless")?,
        host_always: pair("host_always")?,
        host_empty: pair("host_empty")?,
        m_east: b("m_east")?,
        m_west: b("m_west")?,
        m_east_edge: b("m_east_edge")?,
        m_west_edge: b("m_west_edge")?,
        m_north_edge: b("m_north_edge")?,
        m_south_edge: b("m_south_edge")?,
        weights: Weights::from_values(&values),
    })
}

/// A position the search can take: as `position_from`, and a position without a king has a
/// result (the king was captured); a king-less game still under way has no meaning here.
fn searchable<B: Bits>(rules: &Rules<B>, pos: &Bound<'_, PyAny>) -> PyResult<crate::rules::Position<B>> {
    let p = position_from(rules, pos)?;
    if p.king.is_none() && p.result.is_none() {
        return Err(bad(
            "a position without a king must have a result (the king was captured)",
        ));
    }
    Ok(p)
}

fn move_tuple(m: Move) -> (usize, usize) {
    (m.from.index(), m.to.index())
}

fn report_dict<'py>(py: Python<'py>, r: &Report) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("move", r.mv.map(move_tuple))?;
    d.set_item("score", r.score)?;
    d.set_item("depth", r.depth)?;
    d.set_item("nodes", r.nodes)?;
    d.set_item("seconds", r.seconds)?;
    d.set_item("pv", r.pv.iter().map(|&m| move_tuple(m)).collect::<Vec<_>>())?;
    d.set_item(
        "candidates",
        r.candidates
            .iter()
            .map(|&(m, s)| (move_tuple(m), s))
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "scored",
        r.scored.iter().map(|&(m, s)| (move_tuple(m), s)).collect::<Vec<_>>(),
    )?;
    d.set_item("finished_depth", r.finished_depth)?;
    d.set_item(
        "pvs",
        r.pvs
            .iter()
            .map(|pv| pv.iter().map(|&m| move_tuple(m)).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
    )?;
    d.set_item("full_width_depth", r.full_width_depth)?;
    d.set_item("stopped", r.stopped)?;
    Ok(d)
}

/// The longest time a search may be given (about 115 days): longer is surely a mistake, and
/// `inf`, NaN or 1e30 seconds cannot be a deadline at all.
const MAX_SECONDS: f64 = 1e7;

/// `key` of the limits as a whole number from `lo` to `hi`, or one `ValueError` line saying so
/// (not PyO3's OverflowError or TypeError).
fn whole(d: &Bound<'_, PyDict>, key: &str, lo: i64, hi: i64) -> PyResult<Option<i64>> {
    let Some(v) = d.get_item(key)? else {
        return Ok(None);
    };
    match v.extract::<i64>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(Some(x)),
        _ => Err(bad(format!(
            "limits: {key} must be a whole number from {lo} to {hi}, not {}",
            shown(&v)
        ))),
    }
}

/// A Python value in a message: its repr, cut short.
fn shown(v: &Bound<'_, PyAny>) -> String {
    let text = v.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

pub(crate) fn limits(d: &Bound<'_, PyDict>) -> PyResult<Limits> {
    let mut l = Limits::default();
    let f = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> { d.get_item(k) };
    if let Some(v) = f("time")? {
        match v.extract::<f64>() {
            Ok(t) if (0.0..=MAX_SECONDS).contains(&t) => l.time = t,
            _ => {
                return Err(bad(format!(
                    "limits: time must be a number of seconds from 0 to {MAX_SECONDS:.0}, not {}",
                    shown(&v)
                )))
            }
        }
    }
    // depth, lines and threads above the engine's own caps are searched at the cap
    if let Some(x) = whole(d, "depth", 0, 10_000)? {
        l.depth = (x as i32).clamp(1, 64);
    }
    if let Some(x) = whole(d, "nodes", 0, i64::MAX)? {
        l.nodes = x as u64;
    }
    if let Some(v) = f("quiescence")? {
        l.quiescence = v.extract()?;
    }
    if let Some(x) = whole(d, "margin", 0, 1_000_000)? {
        l.margin = x as i32;
    }
    if let Some(x) = whole(d, "lines", 0, 10_000)? {
        l.lines = (x as usize).clamp(1, 64);
    }
    if let Some(v) = f("selective")? {
        l.selective = v.extract()?;
    }
    if let Some(v) = f("captures")? {
        l.captures = v.extract()?;
    }
    if let Some(x) = whole(d, "threads", 0, 10_000)? {
        l.threads = (x as usize).clamp(1, 64);
    }
    Ok(l)
}

/// Is the calling thread the interpreter's main thread (the one Python's signal handlers run on)?
fn is_main_thread(py: Python<'_>) -> bool {
    let check = || -> PyResult<bool> {
        let threading = py.import("threading")?;
        let current = threading.call_method0("current_thread")?;
        let main = threading.call_method0("main_thread")?;
        Ok(current.is(&main))
    };
    check().unwrap_or(false)
}

/// The panic's message as one line.
fn panic_line(e: Box<dyn std::any::Any + Send>) -> PyErr {
    let msg = e
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown error".into());
    PyRuntimeError::new_err(format!(
        "the native search failed: {}",
        msg.lines().next().unwrap_or("")
    ))
}

/// A report as Python sees it (the family's moves written as Python writes them).
pub(crate) type ReportDict<'f> = dyn for<'a> Fn(Python<'a>, &Report) -> PyResult<Bound<'a, PyDict>> + Sync + 'f;

/// Run a search with the interpreter lock released, polling `should_stop` (and Ctrl+C on the
/// main thread) and reporting each finished depth to `on_iteration`; `dict` turns a report into
/// what Python sees (the family's moves as Python writes them).
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_search<'py, F: Family + Send>(
    py: Python<'py>,
    searcher: &mut Searcher<F>,
    p: &F::Pos,
    lim: &Limits,
    game: &[(u64, u32)],
    only: Option<&[Move]>,
    should_stop: Option<Py<PyAny>>,
    on_iteration: Option<Py<PyAny>>,
    dict: &ReportDict<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut failure: Option<PyErr> = None;
    // Called from the interpreter's main thread (a command line), the search also looks for
    // Ctrl+C at every poll: the signal's handler runs there, and KeyboardInterrupt stops the
    // search within a poll (a few thousand nodes) instead of never.
    let on_main_thread = is_main_thread(py);
    let polls = should_stop.is_some() || on_main_thread;
    let outcome = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let mut poll = || -> bool {
                Python::attach(|py| {
                    if on_main_thread {
                        if let Err(e) = py.check_signals() {
                            failure = Some(e);
                            return true;
                        }
                    }
                    match &should_stop {
                        None => false,
                        Some(f) => match f.call0(py).and_then(|v| v.is_truthy(py)) {
                            Ok(b) => b,
                            Err(e) => {
                                failure = Some(e);
                                true
                            }
                        },
                    }
                })
            };
            let mut iter_failure: Option<PyErr> = None;
            let mut cb = |r: &Report| {
                if let Some(f) = &on_iteration {
                    Python::attach(|py| {
                        let res = dict(py, r).and_then(|d| f.call1(py, (d,)).map(|_| ()));
                        if let Err(e) = res {
                            iter_failure.get_or_insert(e);
                        }
                    });
                }
            };
            let report = searcher.search(
                p,
                lim,
                game,
                only,
                if polls { Some(&mut poll) } else { None },
                if on_iteration.is_some() { Some(&mut cb) } else { None },
            );
            (report, iter_failure)
        }))
    });
    let (report, iter_failure) = outcome.map_err(panic_line)?;
    if let Some(e) = failure.or(iter_failure) {
        return Err(e);
    }
    dict(py, &report)
}

/// The searcher for one board width, and the proof tables (per winner) of its prover.
struct Typed<B: Bits> {
    searcher: Searcher<TaflFamily<B>>,
    proofs: [HashMap<(u64, i32), bool>; 2],
}

impl<B: Bits> Typed<B> {
    fn new(rules: Rules<B>, tables: Tables<B>, table_bits: u32) -> Self {
        let n = rules.size();
        Typed {
            searcher: Searcher::new(TaflFamily { rules, tables }, n, table_bits),
            proofs: Default::default(),
        }
    }

    fn wins(
        &mut self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        winner: u8,
        plies: i32,
        max_nodes: u64,
    ) -> PyResult<(Option<bool>, u64)> {
        let p = searchable(&self.searcher.fam.rules, pos)?;
        let fam = &self.searcher.fam;
        let table = &mut self.proofs[winner.min(1) as usize];
        if table.len() > 4_000_000 {
            table.clear();
        }
        py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let game = ByMoves(fam);
                let mut prover = Prover::new(&game, winner, max_nodes, table);
                let r = prover.wins(&p, plies);
                (r.ok(), prover.nodes)
            }))
        })
        .map_err(panic_line)
    }

    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        pos: &Bound<'py, PyAny>,
        settings: &Bound<'py, PyDict>,
        history: &Bound<'py, PyAny>,
        should_stop: Option<Py<PyAny>>,
        on_iteration: Option<Py<PyAny>>,
        only: Option<Vec<(usize, usize)>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = searchable(&self.searcher.fam.rules, pos)?;
        let lim = limits(settings)?;
        let only: Option<Vec<Move>> = match only {
            None => None,
            Some(v) => {
                let fam = &self.searcher.fam;
                let mut legal = Vec::new();
                if fam.quick_outcome(&p).is_none() {
                    fam.moves(&p, &mut legal);
                }
                let mut out = Vec::with_capacity(v.len());
                for (f, t) in v {
                    let n = fam.rules.size();
                    let m = if f < n && t < n { Some(Move::new(f, t)) } else { None };
                    match m {
                        Some(m) if legal.contains(&m) => out.push(m),
                        _ => return Err(bad(format!("only: the move ({f}, {t}) is not legal in the position"))),
                    }
                }
                Some(out)
            }
        };
        let rules = &self.searcher.fam.rules;
        let mut game: Vec<(u64, u32)> = Vec::new();
        for item in history.try_iter()? {
            let hp = position_from(rules, &item?)?;
            match game.iter_mut().find(|(k, _)| *k == hp.hash) {
                Some(e) => e.1 += 1,
                None => game.push((hp.hash, 1)),
            }
        }
        run_search(
            py,
            &mut self.searcher,
            &p,
            &lim,
            &game,
            only.as_deref(),
            should_stop,
            on_iteration,
            &report_dict,
        )
    }

    fn pv(&self, pos: &Bound<'_, PyAny>, first: (usize, usize)) -> PyResult<Vec<(usize, usize)>> {
        let fam = &self.searcher.fam;
        let p = position_from(&fam.rules, pos)?;
        let mut legal = Vec::new();
        fam.moves(&p, &mut legal);
        let n = fam.rules.size();
        if first.0 >= n || first.1 >= n {
            return Err(bad("pv: the first move is not legal in the position"));
        }
        let m = Move::new(first.0, first.1);
        if !legal.contains(&m) {
            return Err(bad("pv: the first move is not legal in the position"));
        }
        let pv = crate::search::table_pv(fam, &self.searcher.table, &p, m, 24);
        Ok(pv.into_iter().map(move_tuple).collect())
    }

    fn evaluate(&self, pos: &Bound<'_, PyAny>) -> PyResult<i32> {
        let fam = &self.searcher.fam;
        let p = position_from(&fam.rules, pos)?;
        Ok(fam.evaluate(&p))
    }
}

enum AnyTyped {
    B128(Box<Typed<u128>>),
    B192(Box<Typed<Wide<3>>>),
    B256(Box<Typed<Wide<4>>>),
    B384(Box<Typed<Wide<6>>>),
}

/// Run `$body` on the typed searcher whatever its board width.
macro_rules! with_typed {
    ($inner:expr, $t:ident => $body:expr) => {
        match $inner {
            AnyTyped::B128($t) => $body,
            AnyTyped::B192($t) => $body,
            AnyTyped::B256($t) => $body,
            AnyTyped::B384($t) => $body,
        }
    };
}

/// A native searcher for one Tafl variant (see `tafl_desktop/native/search.py`).
#[pyclass(module = "tafl_native")]
pub struct TaflSearch {
    inner: AnyTyped,
}

#[pymethods]
impl TaflSearch {
    /// `config`: the bridge's rules configuration (as for `tafl_native.TaflRules`); `tables`: the
    /// evaluation's tables and weights; `table_bits`: the table holds 2^table_bits entries.
    #[new]
    #[pyo3(signature = (config, tables, table_bits = 20))]
    fn new(config: &Bound<'_, PyDict>, tables: &Bound<'_, PyDict>, table_bits: u32) -> PyResult<Self> {
        guarded(|| {
            let cfg = config_from(config)?;
            let any = AnyRules::new(&cfg).map_err(|e| bad(e.0))?;
            let board = (cfg.width, cfg.height);
            let table_bits = table_bits.clamp(10, 26);
            let inner = match any {
                AnyRules::B128(r) => AnyTyped::B128(Box::new(Typed::new(*r, self::tables(tables, board)?, table_bits))),
                AnyRules::B192(r) => AnyTyped::B192(Box::new(Typed::new(*r, self::tables(tables, board)?, table_bits))),
                AnyRules::B256(r) => AnyTyped::B256(Box::new(Typed::new(*r, self::tables(tables, board)?, table_bits))),
                AnyRules::B384(r) => AnyTyped::B384(Box::new(Typed::new(*r, self::tables(tables, board)?, table_bits))),
            };
            Ok(TaflSearch { inner })
        })
    }

    /// Search `position` (the bridge's position tuple); `limits`: time, depth, nodes, quiescence,
    /// margin, lines, selective, threads; `history`: the game's earlier positions (tuples).
    /// Returns a dict: move, score, depth, nodes, seconds, pv, candidates, scored,
    /// finished_depth, full_width_depth, stopped.
    /// `only`: the root moves allowed (a no-repeat rule), None for every legal move.
    #[pyo3(signature = (position, limits, history, should_stop = None, on_iteration = None, only = None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        limits: &Bound<'py, PyDict>,
        history: &Bound<'py, PyAny>,
        should_stop: Option<Py<PyAny>>,
        on_iteration: Option<Py<PyAny>>,
        only: Option<Vec<(usize, usize)>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        with_typed!(&mut self.inner, t => t.search(py, position, limits, history, should_stop, on_iteration, only))
    }

    /// The principal variation from the table, starting with `first`.
    fn pv(&self, position: &Bound<'_, PyAny>, first: (usize, usize)) -> PyResult<Vec<(usize, usize)>> {
        guarded(|| with_typed!(&self.inner, t => t.pv(position, first)))
    }

    /// The static evaluation from the side to move's view.
    fn evaluate(&self, position: &Bound<'_, PyAny>) -> PyResult<i32> {
        guarded(|| with_typed!(&self.inner, t => t.evaluate(position)))
    }

    /// Many static evaluations at once (the equality test against the Python evaluator).
    fn evaluate_many(&self, positions: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
        let mut out = Vec::new();
        for p in positions.try_iter()? {
            out.push(self.evaluate(&p?)?);
        }
        Ok(out)
    }

    /// Exhaustive proof: does `winner` (0 attackers, 1 defenders) win from `position` within
    /// `plies` plies against every defence?  Returns (True/False, or None when more than
    /// `max_nodes` positions (0: no limit) were needed; positions expanded).  Settled questions
    /// are remembered until `forget_proofs`.
    #[pyo3(signature = (position, winner, plies, max_nodes = 0))]
    fn wins(
        &mut self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        winner: u8,
        plies: i32,
        max_nodes: u64,
    ) -> PyResult<(Option<bool>, u64)> {
        if winner > 1 {
            return Err(bad("winner must be 0 (attackers) or 1 (defenders)"));
        }
        with_typed!(&mut self.inner, t => t.wins(py, position, winner, plies.clamp(0, 64), max_nodes))
    }

    /// Forget the settled proof questions.
    fn forget_proofs(&mut self) {
        with_typed!(&mut self.inner, t => t.proofs = Default::default())
    }

    /// Panic inside the native code, for the test that a panic arrives as one line.
    fn _panic_for_test(&self) -> PyResult<()> {
        guarded(|| -> PyResult<()> { panic!("a deliberate failure\nover two lines") })
    }

    /// Empty the transposition table (a new game).
    fn clear(&mut self) {
        with_typed!(&mut self.inner, t => t.searcher.table.clear())
    }
}

/// Register the search's classes in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TaflSearch>()?;
    Ok(())
}

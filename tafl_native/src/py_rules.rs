//! Python bindings of the rules, perft and playouts (`tafl_native.TaflRules`).
//!
//! The Python side (`tafl_desktop/native/`) builds the configuration from the core's validated
//! variant and passes positions as plain tuples taken from the core's validated positions:
//!
//! * position: `(att, dfn, king, side, quiet, result)`: `att`/`dfn` bitboards as Python ints
//!   (bit `rank * width + file`), `king` a square or -1, `side` 0 attackers / 1 defenders,
//!   `quiet` moves since the last capture, `result` None or `(winner, reason)` with `winner`
//!   0, 1 or None and `reason` the core's reason key;
//! * move: `(from, to)`.
//!
//! Every entry point runs under [`guarded`]: a Rust panic comes back as one `NativeError` line,
//! never as a crash of the process.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyTuple};

use crate::board::{Bits, Square};
use crate::perft::{perft, perft_divide};
use crate::playout::random_playouts;
use crate::rules::config::{option_domain, Domain, OptionValue, TaflConfig, TaflOptions, OPTION_KEYS};
use crate::rules::{AnyRules, Move, Outcome, Position, Reason, Rules, Side};
use crate::with_rules;

pyo3::create_exception!(
    tafl_native,
    NativeError,
    PyRuntimeError,
    "The native engine failed (a bug): one line saying where."
);

thread_local! {
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Keep a panic's message and place for [`guarded`] instead of printing it to stderr.
pub(crate) fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "panic".to_string()
        };
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let line = format!("{msg}{place}").replace('\n', " ");
        LAST_PANIC.with(|p| *p.borrow_mut() = line);
    }));
}

/// Run `f`, turning a panic into a `NativeError` with one line.
pub(crate) fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => {
            let what = LAST_PANIC.with(|p| std::mem::take(&mut *p.borrow_mut()));
            Err(NativeError::new_err(format!("native engine failed: {what}")))
        }
    }
}

fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

// ------------------------------------------------------------------------------ conversions

/// A bitboard from a non-negative Python int that fits the board.
pub(crate) fn int_to_bits<B: Bits>(obj: &Bound<'_, PyAny>) -> PyResult<B> {
    if B::WORDS <= 2 {
        let v: u128 = obj
            .extract()
            .map_err(|_| value_error("a bitboard must be a non-negative int that fits the board"))?;
        return Ok(B::from_words(&[v as u64, (v >> 64) as u64]));
    }
    let bytes = obj
        .call_method1("to_bytes", (B::WORDS * 8, "little"))
        .map_err(|_| value_error("a bitboard must be a non-negative int that fits the board"))?;
    let bytes = bytes
        .cast::<PyBytes>()
        .map_err(|_| value_error("bitboard bytes expected"))?;
    let words: Vec<u64> = bytes
        .as_bytes()
        .chunks(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect();
    Ok(B::from_words(&words))
}

/// A Python int from a bitboard.
pub(crate) fn bits_to_int<'py, B: Bits>(py: Python<'py>, b: B) -> PyResult<Bound<'py, PyAny>> {
    if B::WORDS <= 2 {
        let v = b.word(0) as u128 | ((b.word(1) as u128) << 64);
        return Ok(v.into_pyobject(py)?.into_any());
    }
    let mut bytes = Vec::with_capacity(B::WORDS * 8);
    for i in 0..B::WORDS {
        bytes.extend_from_slice(&b.word(i).to_le_bytes());
    }
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (PyBytes::new(py, &bytes), "little"))
}

fn side_from(i: i64) -> PyResult<Side> {
    match i {
        0 => Ok(Side::Attackers),
        1 => Ok(Side::Defenders),
        _ => Err(value_error("side must be 0 (attackers) or 1 (defenders)")),
    }
}

fn outcome_from(obj: &Bound<'_, PyAny>) -> PyResult<Option<Outcome>> {
    if obj.is_none() {
        return Ok(None);
    }
    let (winner, reason): (Option<i64>, String) = obj
        .extract()
        .map_err(|_| value_error("result must be None or (winner, reason)"))?;
    let reason = Reason::parse(&reason).ok_or_else(|| value_error("unknown result reason"))?;
    let winner = winner.map(side_from).transpose()?;
    Ok(Some(Outcome { winner, reason }))
}

fn outcome_to<'py>(py: Python<'py>, o: Option<Outcome>) -> PyResult<Bound<'py, PyAny>> {
    match o {
        None => Ok(py.None().into_bound(py)),
        Some(o) => Ok(PyTuple::new(
            py,
            [
                o.winner.map(|s| s.index()).into_pyobject(py)?.into_any(),
                o.reason.key().into_pyobject(py)?.into_any(),
            ],
        )?
        .into_any()),
    }
}

/// A native position from the bridge's tuple (checked: pieces on the board, no overlaps).
pub(crate) fn position_from<B: Bits>(rules: &Rules<B>, obj: &Bound<'_, PyAny>) -> PyResult<Position<B>> {
    let t = obj
        .cast::<PyTuple>()
        .map_err(|_| value_error("a position is a tuple (att, dfn, king, side, quiet, result)"))?;
    if t.len() != 6 {
        return Err(value_error(
            "a position is a tuple (att, dfn, king, side, quiet, result)",
        ));
    }
    let att: B = int_to_bits(&t.get_item(0)?)?;
    let dfn: B = int_to_bits(&t.get_item(1)?)?;
    let king: i64 = t.get_item(2)?.extract()?;
    let side = side_from(t.get_item(3)?.extract()?)?;
    let quiet: i64 = t.get_item(4)?.extract()?;
    let result = outcome_from(&t.get_item(5)?)?;
    let king = if king < 0 { None } else { Some(king as usize) };
    let quiet = u32::try_from(quiet).map_err(|_| value_error("quiet must be a non-negative count"))?;
    rules
        .position(att, dfn, king, side, quiet, result)
        .map_err(|e| value_error(e.0))
}

pub(crate) fn position_to<'py, B: Bits>(py: Python<'py>, p: &Position<B>) -> PyResult<Bound<'py, PyTuple>> {
    let king: i64 = p.king.map_or(-1, |k| k.index() as i64);
    PyTuple::new(
        py,
        [
            bits_to_int(py, p.att)?,
            bits_to_int(py, p.dfn)?,
            king.into_pyobject(py)?.into_any(),
            (p.side.index()).into_pyobject(py)?.into_any(),
            p.quiet.into_pyobject(py)?.into_any(),
            outcome_to(py, p.result)?,
        ],
    )
}

fn move_from(size: usize, obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    let (f, t): (i64, i64) = obj
        .extract()
        .map_err(|_| value_error("a move is a pair of squares (from, to)"))?;
    if f < 0 || t < 0 || f as usize >= size || t as usize >= size {
        return Err(value_error("a square of the move is off the board"));
    }
    Ok(Move::new(f as usize, t as usize))
}

/// A move as the bridge's pair of square indices.
fn pair(m: Move) -> (u16, u16) {
    (m.from.index() as u16, m.to.index() as u16)
}

fn squares(list: Option<Bound<'_, PyAny>>) -> PyResult<Vec<u16>> {
    match list {
        None => Ok(vec![]),
        Some(l) if l.is_none() => Ok(vec![]),
        Some(l) => {
            let v: Vec<i64> = l.extract().map_err(|_| value_error("a list of squares expected"))?;
            v.into_iter()
                .map(|s| u16::try_from(s).map_err(|_| value_error("a square is off the board")))
                .collect()
        }
    }
}

/// The configuration from the bridge's dict (see `tafl_desktop/native/bridge.py`).
pub(crate) fn config_from(d: &Bound<'_, PyDict>) -> PyResult<TaflConfig> {
    let get = |k: &str| d.get_item(k);
    let width: usize = get("width")?
        .ok_or_else(|| value_error("config: width missing"))?
        .extract()?;
    let height: usize = get("height")?
        .ok_or_else(|| value_error("config: height missing"))?
        .extract()?;
    if !(3..=19).contains(&width) || !(3..=19).contains(&height) {
        return Err(value_error("config: the board must be 3..19 squares each way"));
    }
    let throne: Option<i64> = match get("throne")? {
        Some(t) if !t.is_none() => Some(t.extract()?),
        _ => None,
    };
    let throne = throne
        .map(|t| u16::try_from(t).map_err(|_| value_error("config: throne off the board")))
        .transpose()?;
    let mut camp_groups = Vec::new();
    if let Some(groups) = get("camp_groups")? {
        for g in groups.try_iter()? {
            camp_groups.push(squares(Some(g?))?);
        }
    }
    let mut walls = Vec::new();
    if let Some(ws) = get("walls")? {
        for w in ws.try_iter()? {
            let (a, b): (i64, i64) = w?
                .extract()
                .map_err(|_| value_error("config: a wall is a pair of squares"))?;
            let a = u16::try_from(a).map_err(|_| value_error("config: wall off the board"))?;
            let b = u16::try_from(b).map_err(|_| value_error("config: wall off the board"))?;
            walls.push((a, b));
        }
    }
    let mut config = TaflConfig {
        width,
        height,
        throne,
        corners: squares(get("corners")?)?,
        camp_groups,
        escape_squares: squares(get("escape_squares")?)?,
        walls,
        options: Default::default(),
    };
    if let Some(opts) = get("options")? {
        let opts = opts
            .cast::<PyDict>()
            .map_err(|_| value_error("config: options must be a dict"))?;
        for (k, v) in opts.iter() {
            let key: String = k.extract()?;
            let value = if v.is_instance_of::<pyo3::types::PyBool>() {
                OptionValue::Bool(v.extract()?)
            } else if let Ok(i) = v.extract::<i64>() {
                OptionValue::Int(i)
            } else if let Ok(s) = v.extract::<String>() {
                OptionValue::Str(s)
            } else {
                return Err(value_error("config: an option value must be a bool, an int or a text"));
            };
            config.options.set(&key, &value).map_err(|e| value_error(e.0))?;
        }
    }
    config.check().map_err(|e| value_error(e.0))?;
    Ok(config)
}

// ------------------------------------------------------------------------------ the class

/// The Tafl rules of one variant, compiled natively.
#[pyclass(name = "TaflRules", module = "tafl_native", frozen)]
pub struct PyTaflRules {
    inner: AnyRules,
}

#[pymethods]
impl PyTaflRules {
    /// Build from the bridge's configuration dict: width, height, throne, corners, camp_groups,
    /// escape_squares, walls, options.
    #[new]
    fn new(config: &Bound<'_, PyDict>) -> PyResult<Self> {
        guarded(|| {
            let cfg = config_from(config)?;
            let inner = AnyRules::new(&cfg).map_err(|e| value_error(e.0))?;
            Ok(PyTaflRules { inner })
        })
    }

    /// Bits of the bitboard type in use (128, 192, 256 or 384).
    #[getter]
    fn bitboard_bits(&self) -> usize {
        self.inner.bitboard_bits()
    }

    /// The legal moves of the side to move, as (from, to) pairs.
    fn legal_moves(&self, pos: &Bound<'_, PyAny>) -> PyResult<Vec<(u16, u16)>> {
        guarded(|| {
            with_rules!(&self.inner, r => {
                let p = position_from(r, pos)?;
                let mut out = Vec::new();
                r.generate_moves(&p, &mut out);
                Ok(out.into_iter().map(pair).collect())
            })
        })
    }

    /// The number of legal moves (0 in a decided position).
    fn count_moves(&self, pos: &Bound<'_, PyAny>) -> PyResult<u32> {
        guarded(|| with_rules!(&self.inner, r => Ok(r.count_moves(&position_from(r, pos)?))))
    }

    /// Play a legal move: (position after it, captured squares lowest first).  An illegal move
    /// is a ValueError (the native rules never play one).
    fn play<'py>(
        &self,
        py: Python<'py>,
        pos: &Bound<'py, PyAny>,
        mv: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        guarded(|| {
            with_rules!(&self.inner, r => {
                let mut p = position_from(r, pos)?;
                let m = move_from(r.size(), mv)?;
                if !r.is_legal(&p, m) {
                    return Err(value_error("the move is not legal in this position"));
                }
                let undo = r.make(&mut p, m);
                let caps = PyList::new(py, undo.captured_squares().into_iter().map(Square::index))?;
                PyTuple::new(py, [position_to(py, &p)?.into_any(), caps.into_any()])
            })
        })
    }

    /// Like `play`, with the position after the move also as the core keeps it column by column:
    /// (position, captured squares, attackers transposed, defender soldiers transposed), the last
    /// two as the core's `TaflPosition.attT`/`dfnT` (bit `file * height + rank`).
    fn play_full<'py>(
        &self,
        py: Python<'py>,
        pos: &Bound<'py, PyAny>,
        mv: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        guarded(|| {
            with_rules!(&self.inner, r => {
                let mut p = position_from(r, pos)?;
                let m = move_from(r.size(), mv)?;
                if !r.is_legal(&p, m) {
                    return Err(value_error("the move is not legal in this position"));
                }
                let undo = r.make(&mut p, m);
                let caps = PyList::new(py, undo.captured_squares().into_iter().map(Square::index))?;
                PyTuple::new(py, [position_to(py, &p)?.into_any(), caps.into_any(),
                                  bits_to_int(py, p.att_v[0])?, bits_to_int(py, p.dfn_v[0])?])
            })
        })
    }

    /// The position's outcome on its own (last move's result, no legal move, no captures):
    /// None or (winner, reason).
    fn outcome<'py>(&self, py: Python<'py>, pos: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| with_rules!(&self.inner, r => outcome_to(py, r.outcome(&position_from(r, pos)?))))
    }

    /// The repetition rule's verdict when the position with `to_move` to move has occurred
    /// `count` times: None or (winner, reason).
    fn repetition_outcome<'py>(&self, py: Python<'py>, to_move: i64, count: u32) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let side = side_from(to_move)?;
            with_rules!(&self.inner, r => outcome_to(py, r.repetition_outcome(side, count)))
        })
    }

    /// Attacker moves that would capture the king next.
    fn king_threats(&self, pos: &Bound<'_, PyAny>) -> PyResult<Vec<(u16, u16)>> {
        guarded(|| {
            with_rules!(&self.inner, r => {
                let p = position_from(r, pos)?;
                let mut out = Vec::new();
                r.king_threats(&p, &mut out);
                Ok(out.into_iter().map(pair).collect())
            })
        })
    }

    /// The Zobrist hash of (pieces, side to move), and of the pieces alone.
    fn hashes(&self, pos: &Bound<'_, PyAny>) -> PyResult<(u64, u64)> {
        guarded(|| {
            with_rules!(&self.inner, r => {
                let p = position_from(r, pos)?;
                Ok((p.hash, r.zobrist.strip_side(p.hash, p.side)))
            })
        })
    }

    /// The position in row notation, top row first.
    fn position_text(&self, pos: &Bound<'_, PyAny>) -> PyResult<String> {
        guarded(|| with_rules!(&self.inner, r => Ok(r.position_text(&position_from(r, pos)?))))
    }

    /// Leaf count of the legal-move tree to `depth` (the GIL is released meanwhile).
    fn perft(&self, py: Python<'_>, pos: &Bound<'_, PyAny>, depth: u32) -> PyResult<u64> {
        guarded(|| {
            with_rules!(&self.inner, r => {
                let p = position_from(r, pos)?;
                py.detach(|| guarded(|| Ok(perft(r, &p, depth))))
            })
        })
    }

    /// Leaf counts below each legal move: [((from, to), count)].
    fn perft_divide(&self, py: Python<'_>, pos: &Bound<'_, PyAny>, depth: u32) -> PyResult<Vec<((u16, u16), u64)>> {
        guarded(|| {
            with_rules!(&self.inner, r => {
                let p = position_from(r, pos)?;
                py.detach(|| guarded(|| Ok(perft_divide(r, &p, depth)
                    .into_iter().map(|(m, n)| (pair(m), n)).collect())))
            })
        })
    }

    /// `games` seeded random playouts from `pos` (the GIL is released meanwhile): a dict of
    /// games, plies, attackers, defenders, draws, unfinished.
    #[pyo3(signature = (pos, games, seed=1, max_plies=10_000))]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        pos: &Bound<'py, PyAny>,
        games: u64,
        seed: u64,
        max_plies: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| {
            let s = with_rules!(&self.inner, r => {
                let p = position_from(r, pos)?;
                py.detach(|| guarded(|| Ok(random_playouts(r, &p, games, seed, max_plies))))?
            });
            let d = PyDict::new(py);
            d.set_item("games", s.games)?;
            d.set_item("plies", s.plies)?;
            d.set_item("attackers", s.attackers)?;
            d.set_item("defenders", s.defenders)?;
            d.set_item("draws", s.draws)?;
            d.set_item("unfinished", s.unfinished)?;
            Ok(d)
        })
    }

    /// The compiled tables, as ints, for the bridge to compare with the core's: escape,
    /// host_always, host_empty, att_closed, never_stop, wall_trigger, and per square the
    /// soldiers' pass/stop sets and the king's.
    fn tables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| with_rules!(&self.inner, r => tables(py, r)))
    }
}

fn tables<'py, B: Bits>(py: Python<'py>, r: &Rules<B>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let int = |b: B| bits_to_int(py, b);
    d.set_item("escape", int(r.escape)?)?;
    d.set_item("host_always", (int(r.host_always[0])?, int(r.host_always[1])?))?;
    d.set_item("host_empty", (int(r.host_empty[0])?, int(r.host_empty[1])?))?;
    d.set_item("att_closed", int(r.att_closed)?)?;
    d.set_item(
        "never_stop",
        (int(r.never_stop[0])?, int(r.never_stop[1])?, int(r.never_stop[2])?),
    )?;
    d.set_item("wall_trigger", int(r.wall_trigger)?)?;
    d.set_item("edge", int(r.grid.edge)?)?;
    for (c, name) in [(0, "attacker"), (1, "defender")] {
        let per_square = PyList::empty(py);
        for s in 0..r.size() {
            let g = r.groups[c]
                .iter()
                .find(|g| g.origins.has(s))
                .expect("every square is in a group");
            per_square.append((int(g.pass)?, int(g.stop)?))?;
        }
        d.set_item(format!("{name}_moves"), per_square)?;
    }
    d.set_item("king_moves", (int(r.king_pass)?, int(r.king_stop)?, int(r.king_end)?))?;
    d.set_item("maxdist", (r.maxdist, r.king_maxdist))?;
    Ok(d)
}

/// The option keys the native rules know (the bridge checks the core's schema against them).
#[pyfunction]
fn option_keys() -> Vec<&'static str> {
    OPTION_KEYS.to_vec()
}

/// The values every option takes as the native rules know them: `{key: "bool" | (lo, hi) |
/// [choices]}`.  The bridge compares the core's schema with it, value by value, so that a module
/// built before a value was added is out of date (the app then plays on the Python rules).
#[pyfunction]
fn option_values<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for key in OPTION_KEYS {
        match option_domain(key) {
            Some(Domain::Bool) => d.set_item(key, "bool")?,
            Some(Domain::Int(lo, hi)) => d.set_item(key, (lo, hi))?,
            Some(Domain::Choice(values)) => d.set_item(key, values)?,
            None => {}
        }
    }
    Ok(d)
}

/// Every option's default as the native rules have it: `{key: bool | int | str}`.  The tests
/// compare it with the core's schema (`tests/test_native_engine.py`), so the two cannot drift.
#[pyfunction]
fn option_defaults<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let defaults = TaflOptions::default();
    for key in OPTION_KEYS {
        match defaults.get(key) {
            Some(OptionValue::Bool(b)) => d.set_item(key, b)?,
            Some(OptionValue::Int(i)) => d.set_item(key, i)?,
            Some(OptionValue::Str(s)) => d.set_item(key, s)?,
            None => {}
        }
    }
    Ok(d)
}

/// Processor features this build was compiled to use that the processor running it lacks
/// (empty: the engine may run here).  Built with `target-cpu=native` on the machine that runs it,
/// this is empty; a module carried to an older processor would otherwise die of an illegal
/// instruction, so the bridge asks first.
#[pyfunction]
fn cpu_missing() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing: Vec<&'static str> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! need {
            ($($f:tt),*) => {$(
                if cfg!(target_feature = $f) && !std::arch::is_x86_feature_detected!($f) {
                    missing.push($f);
                }
            )*};
        }
        need!("popcnt", "sse3", "ssse3", "sse4.1", "sse4.2", "lzcnt", "bmi1", "bmi2", "avx", "avx2", "fma");
    }
    missing
}

/// Panic on purpose (for the test that a panic becomes one `NativeError` line).
#[pyfunction]
fn _panic_for_test() -> PyResult<()> {
    guarded(|| -> PyResult<()> { panic!("deliberate panic for the test") })
}

/// Register the rules classes and functions in the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTaflRules>()?;
    m.add_function(wrap_pyfunction!(option_keys, m)?)?;
    m.add_function(wrap_pyfunction!(option_values, m)?)?;
    m.add_function(wrap_pyfunction!(option_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(cpu_missing, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    Ok(())
}

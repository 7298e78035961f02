//! The Fox games' native rules as Python sees them: `tafl_native.HuntRules`.
//!
//! Built by `tafl_desktop/native/hunt.py` from the Python rules' own steps, jumps, marked points
//! and toggles.  Positions cross as (flock, hunters, side to move, moves since a capture, result):
//! the bitboards as Python ints, the result None, -1 (a draw) or the winner (0 the flock, 1 the
//! hunters).  Moves cross as the Python rules write them, the points a piece visits.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::hunt::{Compulsion, Hunt, HuntPos, MultiJump, Settings};
use crate::py_dablot::{outcome_from, outcome_to};
use crate::py_rules::guarded;
use crate::py_search::bad;

/// A position as it crosses.
pub(crate) type HuntCrossing = (u128, u128, u8, u32, Option<i8>);

fn crossing(p: &HuntPos) -> HuntCrossing {
    (p.flock, p.hunters, p.side, p.quiet, outcome_to(p.result))
}

/// The settings from their dict (every key required, each of its own type).
pub(crate) fn settings_from(d: &Bound<'_, PyDict>) -> PyResult<Settings> {
    fn get<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
        match d.get_item(key)? {
            Some(v) => v
                .extract::<T>()
                .map_err(|_| bad(format!("setting {key} has the wrong type"))),
            None => Err(bad(format!("setting {key} is missing"))),
        }
    }
    let multi: String = get(d, "multi_jump")?;
    let compulsory: String = get(d, "compulsory_capture")?;
    Ok(Settings {
        captures: get(d, "captures")?,
        multi_jump: match multi.as_str() {
            "single" => MultiJump::Single,
            "optional" => MultiJump::Optional,
            "compulsory" => MultiJump::Compulsory,
            _ => return Err(bad("setting multi_jump is single, optional or compulsory")),
        },
        compulsion: match compulsory.as_str() {
            "off" => Compulsion::Off,
            "enforce" => Compulsion::Enforce,
            "huff" => Compulsion::Huff,
            _ => return Err(bad("setting compulsory_capture is off, enforce or huff")),
        },
        max_capture: get(d, "max_capture")?,
        hunter_win_below: get(d, "hunter_win_below")?,
        breakthrough: get(d, "breakthrough")?,
        fill_pen: get(d, "fill_pen")?,
        no_moves_draw: get(d, "no_moves_draw")?,
        repetition_draw: get(d, "repetition_draw")?,
        captureless: get(d, "captureless")?,
    })
}

/// One Fox-game variant's rules, natively (see `tafl_desktop/native/hunt.py`).
#[pyclass(module = "tafl_native")]
pub struct HuntRules {
    pub(crate) game: Hunt,
}

impl HuntRules {
    pub(crate) fn pos(&self, c: HuntCrossing) -> PyResult<HuntPos> {
        let (flock, hunters, side, quiet, result) = c;
        self.game
            .position(flock, hunters, side, quiet, outcome_from(result)?)
            .map_err(|e| bad(e.0))
    }
}

#[pymethods]
impl HuntRules {
    /// `steps[side][p]`: the points side may step to from `p`; `jumps[p]`: (over, land) pairs;
    /// `home` and `pen`: the marked points as bitboards; `settings`: captures, multi_jump,
    /// compulsory_capture, max_capture, hunter_win_below, breakthrough, fill_pen, no_moves_draw,
    /// repetition_draw, captureless.
    #[new]
    fn new(
        steps: [Vec<Vec<u8>>; 2],
        jumps: Vec<Vec<(u8, u8)>>,
        home: u128,
        pen: u128,
        settings: &Bound<'_, PyDict>,
    ) -> PyResult<Self> {
        guarded(|| {
            let s = settings_from(settings)?;
            let game = Hunt::new(steps, jumps, home, pen, s).map_err(|e| bad(e.0))?;
            Ok(HuntRules { game })
        })
    }

    /// The legal moves of `position`, as point lists, in the Python rules' order.
    fn moves(&self, position: HuntCrossing) -> PyResult<Vec<Vec<usize>>> {
        let p = self.pos(position)?;
        guarded(|| {
            Ok(self
                .game
                .moves_with_paths(&p)
                .into_iter()
                .map(|(_, path)| path)
                .collect())
        })
    }

    /// The position after the move that visits `path` (a ValueError if it is not legal).
    fn play(&self, position: HuntCrossing, path: Vec<usize>) -> PyResult<HuntCrossing> {
        let p = self.pos(position)?;
        let m = self
            .game
            .move_of(&p, &path)
            .ok_or_else(|| bad(format!("the move {path:?} is not legal in the position")))?;
        guarded(|| {
            let (c, _) = self
                .game
                .play(&p, m)
                .ok_or_else(|| bad("the move names no chain of the position"))?;
            Ok(crossing(&c))
        })
    }

    /// Whether the side to move has a legal move.
    fn has_moves(&self, position: HuntCrossing) -> PyResult<bool> {
        let p = self.pos(position)?;
        Ok(self.game.has_moves(&p))
    }
}

/// Register the class in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<HuntRules>()?;
    Ok(())
}

//! The Dablot prover's Python binding: `tafl_native.DablotProver`.
//!
//! Built by `tafl_desktop/native/dablot.py` from the Python rules' own lattice and settings;
//! positions cross as (cells, side to move, winner) with the Python piece codes.  Proofs run with
//! the interpreter lock released; a panic comes back as one line.

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::dablot::{Dablot, DablotPos, Settings};
use crate::py_rules::guarded;
use crate::search::prove::{ProofGame, Prover};
use crate::search::Outcome;

fn bad(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// The result as it crosses: None undecided, -1 a draw, else the winner (0 south, 1 north).
pub(crate) fn outcome_from(winner: Option<i8>) -> PyResult<Option<Outcome>> {
    match winner {
        None => Ok(None),
        Some(-1) => Ok(Some(Outcome::Draw)),
        Some(s @ 0..=1) => Ok(Some(Outcome::Win(s as u8))),
        Some(_) => Err(bad("a result is -1 (a draw), 0 (south won) or 1 (north won)")),
    }
}

pub(crate) fn outcome_to(o: Option<Outcome>) -> Option<i8> {
    o.map(|o| match o {
        Outcome::Win(s) => s as i8,
        Outcome::Draw => -1,
    })
}

pub(crate) type Crossing = (Vec<u8>, u8, Option<i8>);

/// The rule settings as they cross: a dict of booleans (`repetition_draw` may be left out).
pub(crate) fn settings_from(settings: &Bound<'_, PyDict>) -> PyResult<Settings> {
    let flag = |key: &str| -> PyResult<bool> {
        match settings.get_item(key)? {
            Some(v) => v
                .extract::<bool>()
                .map_err(|_| bad(format!("setting {key} must be true or false"))),
            None => Err(bad(format!("setting {key} is missing"))),
        }
    };
    Ok(Settings {
        chain_jumps: flag("chain_jumps")?,
        soldiers_must_capture: flag("soldiers_must_capture")?,
        ever_onward: flag("ever_onward")?,
        promotion: flag("promotion")?,
        officer_material: flag("officer_material")?,
        leader_captured_loses: flag("leader_captured_loses")?,
        bare_leader_loses: flag("bare_leader_loses")?,
        repetition_draw: settings.get_item("repetition_draw")?.is_some() && flag("repetition_draw")?,
    })
}

/// Proves forced wins in one Dablot variant (its lattice and rule settings).
#[pyclass(module = "tafl_native")]
pub struct DablotProver {
    game: Dablot,
    proofs: [HashMap<(u64, i32), bool>; 2],
}

impl DablotProver {
    fn pos(&self, position: Crossing) -> PyResult<DablotPos> {
        let (cells, side, winner) = position;
        self.game
            .position(&cells, side, outcome_from(winner)?)
            .map_err(|e| bad(e.0))
    }
}

#[pymethods]
impl DablotProver {
    /// `steps[p]`: the points joined to `p`; `jumps[p]`: (over, land) pairs; `rows[p]`: its row
    /// (larger is north); `ranks`: the rank of soldier, officer, son, leader; `far_rows`: per
    /// side, the points where its soldiers are promoted; `settings`: chain_jumps,
    /// soldiers_must_capture, ever_onward, promotion, officer_material, leader_captured_loses,
    /// bare_leader_loses (booleans).
    #[new]
    fn new(
        steps: Vec<Vec<u8>>,
        jumps: Vec<Vec<(u8, u8)>>,
        rows: Vec<i32>,
        ranks: [u8; 4],
        far_rows: [Vec<bool>; 2],
        settings: &Bound<'_, PyDict>,
    ) -> PyResult<Self> {
        guarded(|| {
            let s = settings_from(settings)?;
            let game = Dablot::new(steps, jumps, rows, ranks, far_rows, s).map_err(|e| bad(e.0))?;
            Ok(DablotProver {
                game,
                proofs: Default::default(),
            })
        })
    }

    /// Does `winner` (0 south, 1 north) win from `position` within `plies` plies against every
    /// defence?  (True/False, or None when more than `max_nodes` positions (0: no limit) were
    /// needed; positions expanded.)  Settled questions are kept until `forget_proofs`.
    #[pyo3(signature = (position, winner, plies, max_nodes = 0))]
    fn wins(
        &mut self,
        py: Python<'_>,
        position: Crossing,
        winner: u8,
        plies: i32,
        max_nodes: u64,
    ) -> PyResult<(Option<bool>, u64)> {
        if winner > 1 {
            return Err(bad("winner must be 0 (south) or 1 (north)"));
        }
        let p = self.pos(position)?;
        let game = &self.game;
        let table = &mut self.proofs[winner as usize];
        if table.len() > 4_000_000 {
            table.clear();
        }
        guarded(|| {
            Ok(py.detach(|| {
                let mut prover = Prover::new(game, winner, max_nodes, table);
                let r = prover.wins(&p, plies.clamp(0, 64));
                (r.ok(), prover.nodes)
            }))
        })
    }

    /// Forget the settled proof questions.
    fn forget_proofs(&mut self) {
        self.proofs = Default::default();
    }

    /// The positions after each legal move of `position`, as they cross (the test against the
    /// Python rules).
    fn successors(&self, position: Crossing) -> PyResult<Vec<Crossing>> {
        let p = self.pos(position)?;
        guarded(|| {
            let mut out = Vec::new();
            self.game.steps(&p, &mut out);
            let n = self.game.points();
            Ok(out
                .iter()
                .map(|c| (c.cells[..n].to_vec(), c.side, outcome_to(c.result)))
                .collect())
        })
    }

    /// Whether the side to move has a legal move.
    fn has_moves(&self, position: Crossing) -> PyResult<bool> {
        let p = self.pos(position)?;
        Ok(self.game.has_moves(&p))
    }
}

/// Register the class in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DablotProver>()?;
    Ok(())
}

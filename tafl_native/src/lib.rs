//! Tafl Desktop's native engine: the Tafl rules as bitboards, perft and random playouts (this
//! file's owner: the rules layer), and the search and evaluation built on them.
//!
//! The Python core (`tafl_desktop/core`) defines the rules; this crate is proved equal to it by
//! perft and differential play (`tests/test_native_*.py`).  See `API.md` for the interface.
//!
//! Layout: `board/` bitboards and the grid; `rules/` the Tafl rules; `perft.rs`, `playout.rs`;
//! `py_rules.rs` their Python bindings (feature `python`, which maturin turns on).  Dablot's
//! moves for the puzzle prover are in `dablot.rs` (on the Python rules' own lattice, so no
//! bitboards), bound by `py_dablot.rs`, and its search (`search/dablot.rs`, bound by
//! `py_dablot_search.rs`); the Fox games' rules are in `hunt.rs` (bound by `py_hunt.rs`), their
//! search in `search/hunt.rs` (bound by `py_hunt_search.rs`).

pub mod board;
pub mod dablot;
pub mod eval;
pub mod hunt;
pub mod perft;
pub mod playout;
pub mod rules;
pub mod search;

#[cfg(feature = "python")]
pub mod py_dablot;
#[cfg(feature = "python")]
pub mod py_dablot_search;
#[cfg(feature = "python")]
pub mod py_hunt;
#[cfg(feature = "python")]
pub mod py_hunt_search;
#[cfg(feature = "python")]
pub mod py_rules;
#[cfg(feature = "python")]
pub mod py_search;

#[cfg(feature = "python")]
use pyo3::prelude::*;

/// The Python module `tafl_native`.
#[cfg(feature = "python")]
#[pymodule]
fn tafl_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    py_rules::install_panic_hook();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    py_rules::register(m)?;
    py_search::register(m)?;
    py_dablot::register(m)?;
    py_dablot_search::register(m)?;
    py_hunt::register(m)?;
    py_hunt_search::register(m)?;
    Ok(())
}

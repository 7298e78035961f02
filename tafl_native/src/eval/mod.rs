//! Evaluations for the native search, one module per game family (Tafl for now; the Fox games
//! and Dablot would each add theirs beside it, with the search unchanged).

pub mod tafl;

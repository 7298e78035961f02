//! One rules type for every board: the monomorphised [`Rules`] of the smallest bitboard that
//! holds the board.  Code that runs per node (search, perft, playouts) is written generic over
//! [`Bits`] and entered once through [`AnyRules::visit`] (or the [`with_rules!`] macro).
//!
//! [`with_rules!`]: crate::with_rules

use crate::board::{Bits, Wide};
use crate::rules::{ConfigError, Rules, TaflConfig};

/// Rules on a board of up to 128 squares (`u128`: 11x11 and below), 192 (13x13), 256 (15x15,
/// 16x16) or 384 squares (up to 19x19).
#[derive(Clone, Debug)]
pub enum AnyRules {
    B128(Box<Rules<u128>>),
    B192(Box<Rules<Wide<3>>>),
    B256(Box<Rules<Wide<4>>>),
    B384(Box<Rules<Wide<6>>>),
}

/// Something to run on the rules whatever their bitboard type.
pub trait RulesVisitor {
    type Output;
    fn visit<B: Bits>(self, rules: &Rules<B>) -> Self::Output;
}

impl AnyRules {
    /// Compile a configuration into the rules of the smallest fitting bitboard.
    pub fn new(config: &TaflConfig) -> Result<AnyRules, ConfigError> {
        config.check()?;
        Ok(match config.width * config.height {
            0..=128 => AnyRules::B128(Box::new(Rules::new(config)?)),
            129..=192 => AnyRules::B192(Box::new(Rules::new(config)?)),
            193..=256 => AnyRules::B256(Box::new(Rules::new(config)?)),
            _ => AnyRules::B384(Box::new(Rules::new(config)?)),
        })
    }

    /// Run `v` on the monomorphised rules.
    pub fn visit<V: RulesVisitor>(&self, v: V) -> V::Output {
        match self {
            AnyRules::B128(r) => v.visit(r),
            AnyRules::B192(r) => v.visit(r),
            AnyRules::B256(r) => v.visit(r),
            AnyRules::B384(r) => v.visit(r),
        }
    }

    /// The configuration the rules were built from.
    pub fn config(&self) -> &TaflConfig {
        crate::with_rules!(self, r => &r.config)
    }

    /// Bits of the bitboard in use (128, 192, 256 or 384).
    pub fn bitboard_bits(&self) -> usize {
        crate::with_rules!(self, r => bits_of(r))
    }
}

fn bits_of<B: Bits>(_r: &Rules<B>) -> usize {
    B::CAPACITY
}

/// `with_rules!(any, r => expr)`: evaluate `expr` with `r` bound to the monomorphised rules
/// (`expr` is compiled once per bitboard type, so it may call generic functions of `r`).
#[macro_export]
macro_rules! with_rules {
    ($any:expr, $r:ident => $body:expr) => {
        match $any {
            $crate::rules::AnyRules::B128($r) => $body,
            $crate::rules::AnyRules::B192($r) => $body,
            $crate::rules::AnyRules::B256($r) => $body,
            $crate::rules::AnyRules::B384($r) => $body,
        }
    };
}

//! The rules configuration: a board and the value of every Tafl option.
//!
//! The Python core is the one source of truth of the option schema
//! (`tafl_desktop/core/tafl_options.py`); the bridge (`tafl_desktop/native/`) hands over the
//! options of an already validated variant as `(key, value)` pairs.  This module still refuses
//! anything it does not know — an unknown key or value is an error, never a silent default — so a
//! schema change the native rules have not followed is caught at once (the bridge then falls
//! back to the Python rules).

use std::fmt;

/// A rules configuration the native engine cannot honour; the message is one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ConfigError> {
    Err(ConfigError(msg.into()))
}

/// An option value as the schema has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

macro_rules! choice_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($variant),+ }

        impl $name {
            /// Every value, as the schema spells it.
            pub const ALL: &'static [(&'static str, $name)] = &[$(($text, $name::$variant)),+];

            /// The value the schema spells `text`.
            pub fn parse(text: &str) -> Option<$name> {
                Self::ALL.iter().find(|(t, _)| *t == text).map(|(_, v)| *v)
            }

            /// The schema's spelling.
            pub fn text(self) -> &'static str {
                Self::ALL.iter().find(|(_, v)| *v == self).map(|(t, _)| *t).unwrap_or("")
            }
        }
    };
}

choice_enum!(
    /// `first_move`
    FirstMove { Attackers = "attackers", Defenders = "defenders" });
choice_enum!(
    /// `movement`
    Movement { Rook = "rook", SingleStep = "single_step" });
choice_enum!(
    /// `escape`
    Escape { Corner = "corner", Edge = "edge", Marked = "marked" });
choice_enum!(
    /// `no_moves`
    NoMoves { Loses = "loses", Draw = "draw" });
choice_enum!(
/// `repetition`
Repetition {
    Allowed = "allowed", Draw = "draw", DefendersLose = "defenders_lose", MoverLoses = "mover_loses",
    MoverWins = "mover_wins", DefendersNoRepeat = "defenders_no_repeat",
});
choice_enum!(
    /// `strict_custodian`
    StrictCustodian { Off = "off", Soldiers = "soldiers", Everyone = "everyone" });
choice_enum!(
    /// `king_armed`
    KingArmed { Yes = "yes", No = "no", Hammer = "hammer", Anvil = "anvil" });
choice_enum!(
    /// `king_capture`
    KingCapture { Custodial = "custodial", DoubleWeak = "double_weak", WeakNearThrone = "weak_near_throne",
                  Strong = "strong" });
choice_enum!(
    /// `throne_hostile`
    ThroneHostile { Never = "never", Attackers = "attackers", EmptyAll = "empty_all", Always = "always" });
choice_enum!(
    /// `throne_passable`
    ThronePassable { Nobody = "nobody", King = "king", Everyone = "everyone" });
choice_enum!(
    /// `corner_entry`
    CornerEntry { King = "king", Defenders = "defenders" });
choice_enum!(
    /// `camps_hostile`
    CampsHostile { None = "none", Defenders = "defenders", All = "all", Always = "always",
        AlwaysButMiddle = "always_but_middle" });
choice_enum!(
    /// `camp_crossing`
    CampCrossing { Nobody = "nobody", Attackers = "attackers", Everyone = "everyone" });

/// The whole numbers an int option takes (the schema's ranges).
pub const KING_SPEED: (i64, i64) = (0, 18);
pub const REPETITION_COUNT: (i64, i64) = (2, 5);
pub const CAPTURELESS_DRAW: (i64, i64) = (0, 999);

/// The values one option takes, as the native rules know them: what the bridge compares with the
/// core's schema, so that a module built before a new value was added counts as out of date and
/// the app plays on the Python rules instead of misreading the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Domain {
    Bool,
    Int(i64, i64),
    Choice(Vec<&'static str>),
}

fn choices<T>(all: &[(&'static str, T)]) -> Domain {
    Domain::Choice(all.iter().map(|(t, _)| *t).collect())
}

fn want_bool(key: &str, v: &OptionValue) -> Result<bool, ConfigError> {
    match v {
        OptionValue::Bool(b) => Ok(*b),
        _ => err(format!("native rules: option '{key}' must be true or false")),
    }
}

fn want_int(key: &str, v: &OptionValue, (lo, hi): (i64, i64)) -> Result<u32, ConfigError> {
    match v {
        OptionValue::Int(i) if (lo..=hi).contains(i) => Ok(*i as u32),
        _ => err(format!(
            "native rules: option '{key}' must be a whole number from {lo} to {hi}"
        )),
    }
}

fn want_choice<T: Copy>(key: &str, v: &OptionValue, parse: fn(&str) -> Option<T>) -> Result<T, ConfigError> {
    match v {
        OptionValue::Str(s) => match parse(s) {
            Some(x) => Ok(x),
            None => err(format!(
                "native rules: option '{key}' has a value the native engine does not know"
            )),
        },
        _ => err(format!("native rules: option '{key}' must be a choice")),
    }
}

/// One option's kind, as a line of [`tafl_options!`] names it: its domain, how a value is read
/// from the schema's and how the field's value is written back.
macro_rules! option_kind {
    (domain Bool, $ty:ty) => { Domain::Bool };
    (domain Int($range:ident), $ty:ty) => { Domain::Int($range.0, $range.1) };
    (domain Choice, $ty:ty) => { choices(<$ty>::ALL) };
    (read Bool, $ty:ty, $key:expr, $v:expr) => { want_bool($key, $v)? };
    (read Int($range:ident), $ty:ty, $key:expr, $v:expr) => { want_int($key, $v, $range)? };
    (read Choice, $ty:ty, $key:expr, $v:expr) => { want_choice($key, $v, <$ty>::parse)? };
    (write Bool, $x:expr) => { OptionValue::Bool($x) };
    (write Int($range:ident), $x:expr) => { OptionValue::Int(i64::from($x)) };
    (write Choice, $x:expr) => { OptionValue::Str($x.text().to_string()) };
}

/// The Tafl options from one line a key: `key: type = default => kind;` (the kind `Bool`,
/// `Int(RANGE)` or `Choice`).  Generates the [`TaflOptions`] struct, its [`Default`],
/// [`OPTION_KEYS`], [`option_domain`], [`TaflOptions::set`] and [`TaflOptions::get`], so that a
/// new toggle is written once here (and once in the Python schema, which the tests compare it
/// with: `tests/test_native_engine.py`).
macro_rules! tafl_options {
    ($($key:ident: $ty:ty = $default:expr => $kind:ident $(($range:ident))?;)+) => {
        /// The value of every Tafl option (defaults as in the schema).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct TaflOptions {
            $(pub $key: $ty,)+
        }

        impl Default for TaflOptions {
            fn default() -> Self {
                TaflOptions { $($key: $default,)+ }
            }
        }

        /// Every option key the native rules know, in the schema's order.
        pub const OPTION_KEYS: &[&str] = &[$(stringify!($key)),+];

        /// The values option `key` takes ([`None`] for a key the native rules do not know).
        pub fn option_domain(key: &str) -> Option<Domain> {
            match key {
                $(stringify!($key) => Some(option_kind!(domain $kind $(($range))?, $ty)),)+
                _ => None,
            }
        }

        impl TaflOptions {
            /// Set one option from its schema key and value; an unknown key or value is an error.
            pub fn set(&mut self, key: &str, v: &OptionValue) -> Result<(), ConfigError> {
                match key {
                    $(stringify!($key) => self.$key = option_kind!(read $kind $(($range))?, $ty, key, v),)+
                    _ => return err(format!("native rules: unknown option '{}'", clip(key))),
                }
                Ok(())
            }

            /// One option's value as the schema spells it ([`None`] for an unknown key).
            pub fn get(&self, key: &str) -> Option<OptionValue> {
                match key {
                    $(stringify!($key) => Some(option_kind!(write $kind $(($range))?, self.$key)),)+
                    _ => None,
                }
            }
        }
    };
}

tafl_options! {
    first_move: FirstMove = FirstMove::Attackers => Choice;
    movement: Movement = Movement::Rook => Choice;
    king_speed: u32 = 0 => Int(KING_SPEED);
    escape: Escape = Escape::Corner => Choice;
    escape_safe: bool = false => Bool;
    edge_forts: bool = false => Bool;
    encirclement: bool = false => Bool;
    no_moves: NoMoves = NoMoves::Loses => Choice;
    repetition: Repetition = Repetition::Allowed => Choice;
    repetition_count: u32 = 3 => Int(REPETITION_COUNT);
    captureless_draw: u32 = 0 => Int(CAPTURELESS_DRAW);
    strict_custodian: StrictCustodian = StrictCustodian::Off => Choice;
    strict_custodian_squares: bool = true => Bool;
    immobilisation: bool = false => Bool;
    edge_hostile: bool = false => Bool;
    edge_hostile_king: bool = true => Bool;
    shield_wall: bool = false => Bool;
    shield_wall_flank: bool = true => Bool;
    shield_wall_corners: bool = true => Bool;
    shield_wall_king_spared: bool = true => Bool;
    linnaean_capture: bool = false => Bool;
    king_armed: KingArmed = KingArmed::Yes => Choice;
    king_capture: KingCapture = KingCapture::Strong => Choice;
    king_edge_capture: bool = false => Bool;
    throne_hostile: ThroneHostile = ThroneHostile::EmptyAll => Choice;
    throne_passable: ThronePassable = ThronePassable::Everyone => Choice;
    throne_reentry: bool = true => Bool;
    corners_hostile: bool = true => Bool;
    corner_entry: CornerEntry = CornerEntry::King => Choice;
    corners_hostile_occupied: bool = true => Bool;
    camps: bool = false => Bool;
    camps_hostile: CampsHostile = CampsHostile::Defenders => Choice;
    camp_reentry: bool = false => Bool;
    camp_to_camp: bool = false => Bool;
    camp_crossing: CampCrossing = CampCrossing::Nobody => Choice;
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// A Tafl board and its rules: what the native engine is built from.
///
/// Squares are indices `rank * width + file` (rank 0 at the bottom), as in the core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaflConfig {
    pub width: usize,
    pub height: usize,
    /// The throne square, if the board has one.
    pub throne: Option<u16>,
    /// The marked corner squares (usually the four board corners).
    pub corners: Vec<u16>,
    /// The camp squares in orthogonally connected groups (the core's `mark_groups("camp")`).
    pub camp_groups: Vec<Vec<u16>>,
    /// The marked escape squares (for `escape = "marked"`).
    pub escape_squares: Vec<u16>,
    /// Walls between orthogonally adjacent squares.
    pub walls: Vec<(u16, u16)>,
    pub options: TaflOptions,
}

impl TaflConfig {
    /// A plain board with default options: throne in the centre (odd sizes) and four corners.
    pub fn plain(width: usize, height: usize) -> TaflConfig {
        let throne = (width % 2 == 1 && height % 2 == 1).then(|| ((height / 2) * width + width / 2) as u16);
        let corners = vec![
            0,
            (width - 1) as u16,
            ((height - 1) * width) as u16,
            (height * width - 1) as u16,
        ];
        TaflConfig {
            width,
            height,
            throne,
            corners,
            camp_groups: vec![],
            escape_squares: vec![],
            walls: vec![],
            options: TaflOptions::default(),
        }
    }

    /// Check what the native engine relies on (sizes, squares on the board, walls between
    /// neighbours, options that need marked squares).  The core has validated all of it already;
    /// this keeps a bad hand-made configuration from ever reaching the bitboard code.
    pub fn check(&self) -> Result<(), ConfigError> {
        let (w, h) = (self.width, self.height);
        if !(3..=19).contains(&w) || !(3..=19).contains(&h) {
            return err(format!("native rules: board size {w}x{h} is outside 3..19"));
        }
        let n = (w * h) as u16;
        let on = |s: u16| s < n;
        if self.throne.is_some_and(|t| !on(t)) {
            return err("native rules: the throne is off the board");
        }
        if !self.corners.iter().all(|&s| on(s)) || !self.escape_squares.iter().all(|&s| on(s)) {
            return err("native rules: a marked square is off the board");
        }
        if !self.camp_groups.iter().flatten().all(|&s| on(s)) {
            return err("native rules: a camp square is off the board");
        }
        for &(a, b) in &self.walls {
            let (a, b) = (a.min(b) as usize, a.max(b) as usize);
            let adjacent = b < (n as usize) && ((b == a + 1 && b % w != 0) || b == a + w);
            if !adjacent {
                return err("native rules: a wall does not stand between two side-by-side squares");
            }
        }
        let o = &self.options;
        if o.escape == Escape::Corner && self.corners.is_empty() {
            return err("native rules: corner escape on a board without corners");
        }
        if o.escape == Escape::Marked && self.escape_squares.is_empty() {
            return err("native rules: marked escape on a board without escape squares");
        }
        let within = |v: u32, (lo, hi): (i64, i64)| (lo..=hi).contains(&(v as i64));
        if !within(o.king_speed, KING_SPEED)
            || !within(o.captureless_draw, CAPTURELESS_DRAW)
            || !within(o.repetition_count, REPETITION_COUNT)
        {
            return err("native rules: a number option is out of range");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_parses_and_unknown_ones_are_refused() {
        let mut o = TaflOptions::default();
        assert!(o.set("king_capture", &OptionValue::Str("double_weak".into())).is_ok());
        assert_eq!(o.king_capture, KingCapture::DoubleWeak);
        assert!(o.set("king_capture", &OptionValue::Str("sideways".into())).is_err());
        assert!(o.set("no_such_key", &OptionValue::Bool(true)).is_err());
        assert!(o.set("edge_forts", &OptionValue::Int(1)).is_err());
        assert!(o.set("captureless_draw", &OptionValue::Int(1000)).is_err());
        for key in OPTION_KEYS {
            let known = [
                OptionValue::Bool(true),
                OptionValue::Int(3),
                OptionValue::Str("everyone".into()),
            ]
            .iter()
            .any(|v| TaflOptions::default().set(key, v).is_ok())
                || [
                    "corner",
                    "rook",
                    "attackers",
                    "loses",
                    "allowed",
                    "yes",
                    "strong",
                    "king",
                    "none",
                ]
                .iter()
                .any(|t| TaflOptions::default().set(key, &OptionValue::Str((*t).into())).is_ok());
            assert!(known, "{key} accepts no value");
        }
    }

    #[test]
    fn every_key_has_a_domain_and_set_takes_exactly_its_values() {
        for key in OPTION_KEYS {
            let domain = option_domain(key).unwrap_or_else(|| panic!("{key} has no domain"));
            let mut o = TaflOptions::default();
            match domain {
                Domain::Bool => {
                    assert!(o.set(key, &OptionValue::Bool(true)).is_ok(), "{key}");
                    assert!(o.set(key, &OptionValue::Int(1)).is_err(), "{key}");
                }
                Domain::Int(lo, hi) => {
                    assert!(o.set(key, &OptionValue::Int(lo)).is_ok() && o.set(key, &OptionValue::Int(hi)).is_ok());
                    assert!(
                        o.set(key, &OptionValue::Int(lo - 1)).is_err()
                            && o.set(key, &OptionValue::Int(hi + 1)).is_err()
                    );
                }
                Domain::Choice(values) => {
                    assert!(values.len() >= 2, "{key}");
                    for v in values {
                        assert!(o.set(key, &OptionValue::Str(v.into())).is_ok(), "{key}={v}");
                    }
                    assert!(o.set(key, &OptionValue::Str("no_such_value".into())).is_err(), "{key}");
                }
            }
        }
        assert_eq!(option_domain("no_such_key"), None);
        assert_eq!(
            option_domain("camps_hostile"),
            Some(Domain::Choice(vec![
                "none",
                "defenders",
                "all",
                "always",
                "always_but_middle"
            ]))
        );
    }

    #[test]
    fn every_key_reads_back_what_was_set_and_its_default_is_in_its_domain() {
        let defaults = TaflOptions::default();
        for key in OPTION_KEYS {
            let default = defaults.get(key).unwrap_or_else(|| panic!("{key} has no value"));
            let ok = match (option_domain(key).expect("a domain"), &default) {
                (Domain::Bool, OptionValue::Bool(_)) => true,
                (Domain::Int(lo, hi), OptionValue::Int(i)) => (lo..=hi).contains(i),
                (Domain::Choice(values), OptionValue::Str(s)) => values.contains(&s.as_str()),
                _ => false,
            };
            assert!(ok, "{key}: default {default:?} outside its domain");
            let mut o = TaflOptions::default();
            o.set(key, &default).unwrap();
            assert_eq!(o, defaults, "{key}");
        }
        let mut o = TaflOptions::default();
        o.set("throne_passable", &OptionValue::Str("king".into())).unwrap();
        assert_eq!(o.get("throne_passable"), Some(OptionValue::Str("king".into())));
        o.set("king_speed", &OptionValue::Int(2)).unwrap();
        assert_eq!(o.get("king_speed"), Some(OptionValue::Int(2)));
        assert_eq!(o.get("no_such_key"), None);
    }

    #[test]
    fn bad_boards_are_refused() {
        let mut c = TaflConfig::plain(7, 7);
        assert!(c.check().is_ok());
        c.walls.push((6, 7)); // g1 | a2: not side by side
        assert!(c.check().is_err());
        let big = TaflConfig::plain(20, 19);
        assert!(big.check().is_err());
    }
}

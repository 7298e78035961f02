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

/// The value of every Tafl option (defaults as in the schema).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaflOptions {
    pub first_move: FirstMove,
    pub movement: Movement,
    pub king_speed: u32,
    pub escape: Escape,
    pub escape_safe: bool,
    pub edge_forts: bool,
    pub encirclement: bool,
    pub no_moves: NoMoves,
    pub repetition: Repetition,
    pub repetition_count: u32,
    pub captureless_draw: u32,
    pub strict_custodian: StrictCustodian,
    pub strict_custodian_squares: bool,
    pub immobilisation: bool,
    pub edge_hostile: bool,
    pub edge_hostile_king: bool,
    pub shield_wall: bool,
    pub shield_wall_flank: bool,
    pub shield_wall_corners: bool,
    pub shield_wall_king_spared: bool,
    pub linnaean_capture: bool,
    pub king_armed: KingArmed,
    pub king_capture: KingCapture,
    pub king_edge_capture: bool,
    pub throne_hostile: ThroneHostile,
    pub throne_passable: ThronePassable,
    pub throne_reentry: bool,
    pub corners_hostile: bool,
    pub corner_entry: CornerEntry,
    pub corners_hostile_occupied: bool,
    pub camps: bool,
    pub camps_hostile: CampsHostile,
    pub camp_reentry: bool,
    pub camp_to_camp: bool,
    pub camp_crossing: CampCrossing,
}

impl Default for TaflOptions {
    fn default() -> Self {
        TaflOptions {
            first_move: FirstMove::Attackers,
            movement: Movement::Rook,
            king_speed: 0,
            escape: Escape::Corner,
            escape_safe: false,
            edge_forts: false,
            encirclement: false,
            no_moves: NoMoves::Loses,
            repetition: Repetition::Allowed,
            repetition_count: 3,
            captureless_draw: 0,
            strict_custodian: StrictCustodian::Off,
            strict_custodian_squares: true,
            immobilisation: false,
            edge_hostile: false,
            edge_hostile_king: true,
            shield_wall: false,
            shield_wall_flank: true,
            shield_wall_corners: true,
            shield_wall_king_spared: true,
            linnaean_capture: false,
            king_armed: KingArmed::Yes,
            king_capture: KingCapture::Strong,
            king_edge_capture: false,
            throne_hostile: ThroneHostile::EmptyAll,
            throne_passable: ThronePassable::Everyone,
            throne_reentry: true,
            corners_hostile: true,
            corner_entry: CornerEntry::King,
            corners_hostile_occupied: true,
            camps: false,
            camps_hostile: CampsHostile::Defenders,
            camp_reentry: false,
            camp_to_camp: false,
            camp_crossing: CampCrossing::Nobody,
        }
    }
}

/// Every option key the native rules know, in the schema's order.
pub const OPTION_KEYS: &[&str] = &[
    "first_move",
    "movement",
    "king_speed",
    "escape",
    "escape_safe",
    "edge_forts",
    "encirclement",
    "no_moves",
    "repetition",
    "repetition_count",
    "captureless_draw",
    "strict_custodian",
    "strict_custodian_squares",
    "immobilisation",
    "edge_hostile",
    "edge_hostile_king",
    "shield_wall",
    "shield_wall_flank",
    "shield_wall_corners",
    "shield_wall_king_spared",
    "linnaean_capture",
    "king_armed",
    "king_capture",
    "king_edge_capture",
    "throne_hostile",
    "throne_passable",
    "throne_reentry",
    "corners_hostile",
    "corner_entry",
    "corners_hostile_occupied",
    "camps",
    "camps_hostile",
    "camp_reentry",
    "camp_to_camp",
    "camp_crossing",
];

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

/// The values option `key` takes ([`None`] for a key the native rules do not know).
pub fn option_domain(key: &str) -> Option<Domain> {
    Some(match key {
        "first_move" => choices(FirstMove::ALL),
        "movement" => choices(Movement::ALL),
        "king_speed" => Domain::Int(KING_SPEED.0, KING_SPEED.1),
        "escape" => choices(Escape::ALL),
        "no_moves" => choices(NoMoves::ALL),
        "repetition" => choices(Repetition::ALL),
        "repetition_count" => Domain::Int(REPETITION_COUNT.0, REPETITION_COUNT.1),
        "captureless_draw" => Domain::Int(CAPTURELESS_DRAW.0, CAPTURELESS_DRAW.1),
        "strict_custodian" => choices(StrictCustodian::ALL),
        "king_armed" => choices(KingArmed::ALL),
        "king_capture" => choices(KingCapture::ALL),
        "throne_hostile" => choices(ThroneHostile::ALL),
        "throne_passable" => choices(ThronePassable::ALL),
        "corner_entry" => choices(CornerEntry::ALL),
        "camps_hostile" => choices(CampsHostile::ALL),
        "camp_crossing" => choices(CampCrossing::ALL),
        "escape_safe"
        | "edge_forts"
        | "encirclement"
        | "immobilisation"
        | "edge_hostile"
        | "edge_hostile_king"
        | "strict_custodian_squares"
        | "shield_wall"
        | "shield_wall_flank"
        | "shield_wall_corners"
        | "shield_wall_king_spared"
        | "linnaean_capture"
        | "king_edge_capture"
        | "throne_reentry"
        | "corners_hostile"
        | "corners_hostile_occupied"
        | "camps"
        | "camp_reentry"
        | "camp_to_camp" => Domain::Bool,
        _ => return None,
    })
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

impl TaflOptions {
    /// Set one option from its schema key and value; an unknown key or value is an error.
    pub fn set(&mut self, key: &str, v: &OptionValue) -> Result<(), ConfigError> {
        match key {
            "first_move" => self.first_move = want_choice(key, v, FirstMove::parse)?,
            "movement" => self.movement = want_choice(key, v, Movement::parse)?,
            "king_speed" => self.king_speed = want_int(key, v, KING_SPEED)?,
            "escape" => self.escape = want_choice(key, v, Escape::parse)?,
            "escape_safe" => self.escape_safe = want_bool(key, v)?,
            "edge_forts" => self.edge_forts = want_bool(key, v)?,
            "encirclement" => self.encirclement = want_bool(key, v)?,
            "no_moves" => self.no_moves = want_choice(key, v, NoMoves::parse)?,
            "repetition" => self.repetition = want_choice(key, v, Repetition::parse)?,
            "repetition_count" => self.repetition_count = want_int(key, v, REPETITION_COUNT)?,
            "captureless_draw" => self.captureless_draw = want_int(key, v, CAPTURELESS_DRAW)?,
            "strict_custodian" => self.strict_custodian = want_choice(key, v, StrictCustodian::parse)?,
            "strict_custodian_squares" => self.strict_custodian_squares = want_bool(key, v)?,
            "immobilisation" => self.immobilisation = want_bool(key, v)?,
            "edge_hostile" => self.edge_hostile = want_bool(key, v)?,
            "edge_hostile_king" => self.edge_hostile_king = want_bool(key, v)?,
            "shield_wall" => self.shield_wall = want_bool(key, v)?,
            "shield_wall_flank" => self.shield_wall_flank = want_bool(key, v)?,
            "shield_wall_corners" => self.shield_wall_corners = want_bool(key, v)?,
            "shield_wall_king_spared" => self.shield_wall_king_spared = want_bool(key, v)?,
            "linnaean_capture" => self.linnaean_capture = want_bool(key, v)?,
            "king_armed" => self.king_armed = want_choice(key, v, KingArmed::parse)?,
            "king_capture" => self.king_capture = want_choice(key, v, KingCapture::parse)?,
            "king_edge_capture" => self.king_edge_capture = want_bool(key, v)?,
            "throne_hostile" => self.throne_hostile = want_choice(key, v, ThroneHostile::parse)?,
            "throne_passable" => self.throne_passable = want_choice(key, v, ThronePassable::parse)?,
            "throne_reentry" => self.throne_reentry = want_bool(key, v)?,
            "corners_hostile" => self.corners_hostile = want_bool(key, v)?,
            "corner_entry" => self.corner_entry = want_choice(key, v, CornerEntry::parse)?,
            "corners_hostile_occupied" => self.corners_hostile_occupied = want_bool(key, v)?,
            "camps" => self.camps = want_bool(key, v)?,
            "camps_hostile" => self.camps_hostile = want_choice(key, v, CampsHostile::parse)?,
            "camp_reentry" => self.camp_reentry = want_bool(key, v)?,
            "camp_to_camp" => self.camp_to_camp = want_bool(key, v)?,
            "camp_crossing" => self.camp_crossing = want_choice(key, v, CampCrossing::parse)?,
            _ => return err(format!("native rules: unknown option '{}'", clip(key))),
        }
        Ok(())
    }
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
    fn bad_boards_are_refused() {
        let mut c = TaflConfig::plain(7, 7);
        assert!(c.check().is_ok());
        c.walls.push((6, 7)); // g1 | a2: not side by side
        assert!(c.check().is_err());
        let big = TaflConfig::plain(20, 19);
        assert!(big.check().is_err());
    }
}

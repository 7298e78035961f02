//! The Tafl rules, compiled from a [`TaflConfig`] into bitboard tables.
//!
//! Each table mirrors one in the Python core's `TaflRules.__init__` (same names where possible),
//! because the core is the one source of truth: the native rules are proved equal to it by perft
//! and differential play (`tests/test_native_*.py`), and the bridge compares these tables with
//! the core's when it builds a native rules object.
//!
//! * [`config`]: the board and option values;
//! * [`position`]: positions, moves, outcomes, undo records;
//! * [`movegen`]: legal moves into a buffer, and bulk counting (perft's last ply);
//! * [`make`]: make/unmake with every capture rule;
//! * [`outcome`]: escapes, exit forts, encirclement, no-move, captureless and repetition endings;
//! * [`zobrist`]: the incremental hash;
//! * [`any`]: one type for every board width, dispatching to the monomorphised rules.

pub mod any;
pub mod config;
pub mod make;
pub mod movegen;
pub mod outcome;
pub mod position;
pub mod zobrist;

pub use any::{AnyRules, RulesVisitor};
pub use config::{ConfigError, OptionValue, TaflConfig, TaflOptions};
pub use position::{Move, Outcome, Position, Reason, Side, Undo};

use crate::board::{Bits, Grid, Square};
use config::*;
use zobrist::Zobrist;

/// Piece classes for movement (the core's `C_ATT`, `C_DEF`, `C_KING`).
pub const C_ATT: usize = 0;
pub const C_DEF: usize = 1;
pub const C_KING: usize = 2;

/// Soldiers of one class that share their movement restrictions: `origins` are the squares they
/// stand on, `pass` the squares they may move through (or onto), `stop` those they may end on.
/// (Only camps make restrictions depend on where a piece stands: an attacker in its own camp.)
#[derive(Clone, Debug)]
pub struct MoverGroup<B: Bits> {
    pub origins: B,
    pub pass: B,
    pub stop: B,
    /// The same three sets in each orientation (index 0: the board as it is; see `Rules::orient`).
    pub origins_v: [B; 4],
    pub pass_v: [B; 4],
    pub stop_v: [B; 4],
}

/// The rules of one Tafl variant on one board.
#[derive(Clone, Debug)]
pub struct Rules<B: Bits> {
    pub config: TaflConfig,
    pub opts: TaflOptions,
    pub grid: Grid<B>,
    /// The throne square (None if the board has none) and as a set.
    pub throne: Option<Square>,
    pub throne_bit: B,
    /// Marked corner squares.
    pub corners: B,
    /// Camp squares (empty unless the `camps` option is on) and each square's camp (None: the
    /// square is in no camp).
    pub camps: B,
    pub camp_group: Vec<Option<u16>>,
    /// Squares where the king wins.
    pub escape: B,
    /// Squares hostile to a side (index: the victim's side) always, or only while empty.
    pub host_always: [B; 2],
    pub host_empty: [B; 2],
    /// Movement of attackers (`groups[0]`) and defender soldiers (`groups[1]`).
    pub groups: [Vec<MoverGroup<B>>; 2],
    /// The king's movement: squares he may pass, stop on, and stop on but not pass.
    pub king_pass: B,
    pub king_stop: B,
    pub king_end: B,
    /// Per square and direction, the squares a soldier's move may cross there (the grid's ray,
    /// cut to the move length), whatever stands on them.
    pub move_rays: Vec<[B; 4]>,
    /// Longest move of a soldier and of the king.
    pub maxdist: u32,
    pub king_maxdist: u32,
    pub king_hammer: bool,
    pub king_anvil: bool,
    /// Squares from which a move can close a shield wall.
    pub wall_trigger: B,
    /// Special squares no attacker can ever enter or cross.
    pub att_closed: B,
    /// Per class: special squares a piece of that class can never stop on.
    pub never_stop: [B; 3],
    pub att_nostand: B,
    /// Squares hostile to defenders in any state.
    pub def_hostile: B,
    pub zobrist: Zobrist,
    /// Kogge-Stone rounds that cover the longest line of the board.
    pub(crate) fill_rounds: u32,
    /// The board's orientations, each a renumbering of the squares in which one direction runs
    /// towards higher bits: `orient[o][sq]` for o = 0 transposed (north), 1 reversed (west),
    /// 2 transposed and reversed (south); the board itself is east.
    pub orient: [Vec<Square>; 3],
    /// Per orientation (0: the board itself), the squares one ascending step can enter.
    pub(crate) enter_v: [B; 4],
    /// Each square as a one-square set in every orientation (index 0: the board itself).
    pub(crate) sq_v: Vec<[B; 4]>,
    /// The king's pass, stop and stop-but-not-pass squares in every orientation.
    pub(crate) king_pass_v: [B; 4],
    pub(crate) king_stop_v: [B; 4],
    pub(crate) king_end_v: [B; 4],
    /// The board's rim in every orientation.
    pub(crate) edge_v: [B; 4],
}

impl<B: Bits> Rules<B> {
    /// Compile a configuration; an error if it is malformed or does not fit `B`.
    pub fn new(config: &TaflConfig) -> Result<Rules<B>, ConfigError> {
        config.check()?;
        let (w, h) = (config.width, config.height);
        let n = w * h;
        if n > B::CAPACITY {
            return Err(ConfigError(format!(
                "native rules: {w}x{h} does not fit a {}-square bitboard",
                B::CAPACITY
            )));
        }
        let o = config.options.clone();
        let grid: Grid<B> = Grid::new(w, h, &config.walls);
        let throne = config.throne.map(|t| Square::new(t as usize));
        let throne_bit = match throne {
            None => B::ZERO,
            Some(t) => B::bit(t.index()),
        };
        let corners = B::from_squares(config.corners.iter().map(|&s| s as usize));
        let mut camps = B::ZERO;
        let mut camp_group = vec![None; n];
        if o.camps {
            for (i, grp) in config.camp_groups.iter().enumerate() {
                for &s in grp {
                    camps.set(s as usize);
                    camp_group[s as usize] = Some(i as u16);
                }
            }
        }
        let escape = match o.escape {
            Escape::Corner => corners,
            Escape::Edge => grid.edge,
            Escape::Marked => B::from_squares(config.escape_squares.iter().map(|&s| s as usize)),
        };

        // -- hostility (core: _build_hostility) -----------------------------------------------
        let (att, def) = (Side::Attackers.index(), Side::Defenders.index());
        let mut always = [B::ZERO; 2];
        let mut empty = [B::ZERO; 2];
        if throne.is_some() {
            match o.throne_hostile {
                ThroneHostile::Never => {}
                ThroneHostile::Attackers => always[att] |= throne_bit,
                ThroneHostile::EmptyAll => {
                    always[att] |= throne_bit;
                    empty[def] |= throne_bit;
                }
                ThroneHostile::Always => {
                    always[att] |= throne_bit;
                    always[def] |= throne_bit;
                }
            }
        }
        if o.corners_hostile {
            always[att] |= corners; // a defender standing there is a partner against attackers anyway
            if o.corners_hostile_occupied {
                always[def] |= corners;
            } else {
                empty[def] |= corners; // hostile to defenders only while empty
            }
        }
        if camps.any() {
            if matches!(
                o.camps_hostile,
                CampsHostile::Defenders | CampsHostile::All | CampsHostile::Always | CampsHostile::AlwaysButMiddle
            ) {
                always[def] |= camps;
            }
            if o.camps_hostile == CampsHostile::All {
                empty[att] |= camps;
            }
            if o.camps_hostile == CampsHostile::Always {
                always[att] |= camps; // an attacker standing there does not make it friendly
            }
            if o.camps_hostile == CampsHostile::AlwaysButMiddle {
                // the competition's referee: a camp's middle (every neighbour a camp square) spares attackers
                let middles = B::from_squares(camps.squares().filter(|&s| (grid.adj[s] & !camps).is_zero()));
                always[att] |= camps & !middles;
            }
        }

        // -- movement restrictions per class and origin (core: _build_restrictions) ------------
        // blk: may not enter; nst: may pass but not stop; end: may stop but not pass
        let restrict = |c: usize, s: usize| -> (B, B, B) {
            let (mut blk, mut nst, mut end) = (B::ZERO, B::ZERO, B::ZERO);
            if let Some(throne) = throne {
                let can_pass = o.throne_passable == ThronePassable::Everyone
                    || (o.throne_passable == ThronePassable::King && c == C_KING);
                if can_pass {
                    nst |= throne_bit;
                } else {
                    blk |= throne_bit;
                }
                if c == C_KING && o.throne_reentry {
                    nst &= !throne_bit;
                    if blk.has(throne.index()) {
                        blk &= !throne_bit;
                        end |= throne_bit;
                    }
                }
            }
            if c == C_ATT || (c == C_DEF && o.corner_entry == CornerEntry::King) {
                blk |= corners;
            }
            if camps.any() {
                if c == C_ATT {
                    if !o.camp_reentry {
                        let own = camp_group[s];
                        let mut closed = B::ZERO;
                        // from a camp square into any camp (OpenTafl's aforre), else only its own
                        if !(own.is_some() && o.camp_to_camp) {
                            for q in camps.squares() {
                                if camp_group[q] != own {
                                    closed.set(q);
                                }
                            }
                        }
                        if matches!(o.camp_crossing, CampCrossing::Attackers | CampCrossing::Everyone) {
                            nst |= closed;
                        } else {
                            blk |= closed;
                        }
                    }
                } else if o.camp_crossing == CampCrossing::Everyone {
                    nst |= camps;
                } else {
                    blk |= camps;
                }
            }
            (blk, nst, end)
        };
        let full = grid.full;
        // -- orientations: transposed (north ascends), reversed (west), both (south) --------------
        let orient: [Vec<Square>; 3] = [
            (0..n).map(|s| Square::new((s % w) * h + s / w)).collect(),
            (0..n).map(|s| Square::new(n - 1 - s)).collect(),
            (0..n).map(|s| Square::new(n - 1 - ((s % w) * h + s / w))).collect(),
        ];
        let view = |o: usize, b: B| -> B {
            if o == 0 {
                b
            } else {
                B::from_squares(b.squares().map(|s| orient[o - 1][s].index()))
            }
        };
        let mut enter_v = [B::ZERO; 4];
        for (o, d) in [
            (0usize, crate::board::EAST),
            (1, crate::board::NORTH),
            (2, crate::board::WEST),
            (3, crate::board::SOUTH),
        ] {
            enter_v[o] = view(o, grid.enter[d]);
        }
        let mut groups: [Vec<MoverGroup<B>>; 2] = [vec![], vec![]];
        for c in [C_ATT, C_DEF] {
            for s in 0..n {
                let (blk, nst, end) = restrict(c, s);
                debug_assert!(end.is_zero(), "only the king has squares he may stop on but not pass");
                let pass = full & !blk;
                let stop = pass & !nst;
                match groups[c].iter_mut().find(|g| g.pass == pass && g.stop == stop) {
                    Some(g) => g.origins.set(s),
                    None => groups[c].push(MoverGroup {
                        origins: B::bit(s),
                        pass,
                        stop,
                        origins_v: [B::ZERO; 4],
                        pass_v: [B::ZERO; 4],
                        stop_v: [B::ZERO; 4],
                    }),
                }
            }
            for g in groups[c].iter_mut() {
                for o in 0..4 {
                    g.origins_v[o] = view(o, g.origins);
                    g.pass_v[o] = view(o, g.pass);
                    g.stop_v[o] = view(o, g.stop);
                }
            }
        }
        let (kblk, knst, kend) = restrict(C_KING, 0);
        let king_pass = full & !kblk;
        let king_stop = king_pass & !knst;

        // -- what an exit fort may rely on (core: _build_attacker_reach) ------------------------
        let special = corners | camps | throne_bit;
        let mut att_closed = B::ZERO;
        let mut never_stop = [B::ZERO; 3];
        for q in special.squares() {
            if (0..n).filter(|&s| s != q).all(|s| restrict(C_ATT, s).0.has(q)) {
                att_closed.set(q);
            }
            for (c, never) in never_stop.iter_mut().enumerate() {
                if (0..n).filter(|&s| s != q).all(|s| {
                    let (blk, nst, _) = restrict(c, s);
                    blk.has(q) || nst.has(q)
                }) {
                    never.set(q);
                }
            }
        }

        // -- shield-wall trigger squares --------------------------------------------------------
        let wall_trigger = if o.shield_wall_flank {
            grid.edge
        } else {
            let mut inner = B::ZERO;
            for s in 0..n {
                if (0..4).any(|d| grid.raw_neighbour(s, d).is_some_and(|q| grid.is_edge(q))) {
                    inner.set(s);
                }
            }
            grid.edge | inner
        };

        let maxdist = if o.movement == Movement::SingleStep {
            1
        } else {
            w.max(h) as u32
        };
        let king_maxdist = if o.king_speed > 0 {
            maxdist.min(o.king_speed)
        } else {
            maxdist
        };
        let move_rays: Vec<[B; 4]> = (0..n)
            .map(|s| {
                let mut out = [B::ZERO; 4];
                for (d, ray) in out.iter_mut().enumerate() {
                    let (mut q, mut k) = (grid.nbr[s][d], 0);
                    while let Some(sq) = q {
                        if k >= maxdist {
                            break;
                        }
                        ray.set(sq.index());
                        q = grid.nbr[sq.index()][d];
                        k += 1;
                    }
                }
                out
            })
            .collect();
        let king_pass_v = [0, 1, 2, 3].map(|o| view(o, king_pass));
        let king_stop_v = [0, 1, 2, 3].map(|o| view(o, king_stop));
        let king_end_v = [0, 1, 2, 3].map(|o| view(o, kend));
        let edge_v = [0, 1, 2, 3].map(|o| view(o, grid.edge));
        let sq_v: Vec<[B; 4]> = (0..n).map(|s| [0, 1, 2, 3].map(|o| view(o, B::bit(s)))).collect();
        let longest = w.max(h) as u32 - 1;
        let mut fill_rounds = 0;
        while (1u32 << fill_rounds) - 1 < longest {
            fill_rounds += 1;
        }
        Ok(Rules {
            config: config.clone(),
            king_hammer: matches!(o.king_armed, KingArmed::Yes | KingArmed::Hammer),
            king_anvil: matches!(o.king_armed, KingArmed::Yes | KingArmed::Anvil),
            opts: o,
            throne,
            throne_bit,
            corners,
            camps,
            camp_group,
            escape,
            def_hostile: always[def] | empty[def],
            host_always: always,
            host_empty: empty,
            groups,
            king_pass,
            king_stop,
            king_end: kend,
            move_rays,
            maxdist,
            king_maxdist,
            wall_trigger,
            att_closed,
            att_nostand: never_stop[C_ATT],
            never_stop,
            zobrist: Zobrist::new(n),
            fill_rounds,
            orient,
            enter_v,
            sq_v,
            king_pass_v,
            king_stop_v,
            king_end_v,
            edge_v,
            grid,
        })
    }

    /// Number of squares.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.grid.size
    }

    /// A position from its pieces (the hash is computed here).  An error if pieces overlap or
    /// stand off the board.
    pub fn position(
        &self,
        att: B,
        dfn: B,
        king: Option<usize>,
        side: Side,
        quiet: u32,
        result: Option<Outcome>,
    ) -> Result<Position<B>, ConfigError> {
        let full = self.grid.full;
        if (att & !full).any() || (dfn & !full).any() || (att & dfn).any() {
            return Err(ConfigError(
                "native rules: pieces off the board or on top of each other".into(),
            ));
        }
        let king = match king {
            Some(k) if k >= self.size() || att.has(k) || dfn.has(k) => {
                return Err(ConfigError(
                    "native rules: the king is off the board or on another piece".into(),
                ))
            }
            Some(k) => Some(Square::new(k)),
            None => None,
        };
        let hash = self.zobrist.hash(att, dfn, king, side);
        let (att_v, dfn_v) = (self.views(att), self.views(dfn));
        Ok(Position {
            att,
            dfn,
            king,
            side,
            quiet,
            result,
            hash,
            att_v,
            dfn_v,
        })
    }

    /// A set of squares in the three other orientations (see [`Rules::orient`]).
    pub fn views(&self, b: B) -> [B; 3] {
        let mut out = [B::ZERO; 3];
        for s in b.squares() {
            let v = &self.sq_v[s];
            out[0] |= v[1];
            out[1] |= v[2];
            out[2] |= v[3];
        }
        out
    }

    /// Toggle square `s` in three view sets (a piece arriving or leaving).
    #[inline(always)]
    pub(crate) fn flip_views(&self, views: &mut [B; 3], s: usize) {
        let v = &self.sq_v[s];
        views[0] ^= v[1];
        views[1] ^= v[2];
        views[2] ^= v[3];
    }

    /// Parse row notation (top row first, `t` attacker, `T` defender, `K` king, digits for empty
    /// runs), as the core writes it.  Only for Rust tests and tools: the app always hands over the
    /// core's parsed position.  The result of the position (a king already on an escape square)
    /// is not derived here.
    pub fn parse_position(&self, text: &str, side: Side) -> Result<Position<B>, ConfigError> {
        let bad = |m: &str| ConfigError(format!("native rules: position: {m}"));
        let rows: Vec<&str> = text.trim().trim_matches('/').split('/').collect();
        let (w, h) = (self.grid.width, self.grid.height);
        if rows.len() != h {
            return Err(bad("wrong number of rows"));
        }
        let (mut att, mut dfn, mut king) = (B::ZERO, B::ZERO, None);
        for (i, row) in rows.iter().enumerate() {
            let r = h - 1 - i;
            let mut f = 0usize;
            let mut digits = 0usize;
            let mut chars = row.chars().peekable();
            while let Some(ch) = chars.next() {
                if let Some(d) = ch.to_digit(10) {
                    digits = digits * 10 + d as usize;
                    if !chars.peek().is_some_and(|c| c.is_ascii_digit()) {
                        f += digits;
                        digits = 0;
                    }
                    continue;
                }
                if f >= w {
                    return Err(bad("a row is too long"));
                }
                let s = r * w + f;
                match ch {
                    't' => att.set(s),
                    'T' => dfn.set(s),
                    'K' if king.is_none() => king = Some(s),
                    _ => return Err(bad("unknown piece or a second king")),
                }
                f += 1;
            }
            if f != w {
                return Err(bad("a row does not cover the board"));
            }
        }
        self.position(att, dfn, king, side, 0, None)
    }

    /// The position in row notation (top row first, with outer slashes), as the core writes it.
    pub fn position_text(&self, pos: &Position<B>) -> String {
        let (w, h) = (self.grid.width, self.grid.height);
        let mut rows = Vec::with_capacity(h);
        for r in (0..h).rev() {
            let (mut row, mut run) = (String::new(), 0);
            for f in 0..w {
                let s = r * w + f;
                let ch = if pos.king.is_some_and(|k| k.index() == s) {
                    'K'
                } else if pos.att.has(s) {
                    't'
                } else if pos.dfn.has(s) {
                    'T'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    row += &run.to_string();
                    run = 0;
                }
                row.push(ch);
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        format!("/{}/", rows.join("/"))
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Presets for the Rust tests, written from the variant files in `resources/variants/`.
    use super::*;

    pub const COPENHAGEN: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    pub const BRANDUBH: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

    pub fn set(c: &mut TaflConfig, key: &str, v: OptionValue) {
        c.options.set(key, &v).unwrap();
    }

    /// Copenhagen Hnefatafl as `resources/variants/copenhagen.toml` has it.
    pub fn copenhagen() -> TaflConfig {
        let mut c = TaflConfig::plain(11, 11);
        set(&mut c, "edge_forts", OptionValue::Bool(true));
        set(&mut c, "encirclement", OptionValue::Bool(true));
        set(&mut c, "repetition", OptionValue::Str("defenders_lose".into()));
        set(&mut c, "shield_wall", OptionValue::Bool(true));
        c
    }

    /// Brandubh as `resources/variants/brandubh.toml` has it.
    pub fn brandubh() -> TaflConfig {
        let mut c = TaflConfig::plain(7, 7);
        set(&mut c, "king_capture", OptionValue::Str("double_weak".into()));
        set(&mut c, "repetition", OptionValue::Str("defenders_lose".into()));
        c
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    #[test]
    fn copenhagen_tables_match_the_rules() {
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        assert_eq!(r.throne, Some(Square::new(60)));
        assert_eq!(r.escape, r.corners);
        assert_eq!(r.corners.count(), 4);
        // soldiers may cross the empty throne but not stop there; corners are closed to them
        assert_eq!(r.groups[0].len(), 1);
        let g = &r.groups[0][0];
        assert!(g.pass.has(60) && !g.stop.has(60) && !g.pass.has(0));
        assert!(r.king_stop.has(60) && r.king_stop.has(0));
        assert_eq!(
            r.att_closed, r.corners,
            "attackers can cross the throne, never a corner"
        );
        assert!(r.host_always[0].has(60) && r.host_empty[1].has(60));
    }

    /// Tablut's 9x9 board with its four camps (source 000; `resources/variants/tablut_camps.toml`).
    fn camp_board(hostile: &str, to_camp: bool) -> Rules<u128> {
        let mut c = TaflConfig::plain(9, 9);
        let sq = |name: &str| {
            let b = name.as_bytes();
            (b[1] - b'1') as u16 * 9 + (b[0] - b'a') as u16
        };
        c.camp_groups = [
            ["a4", "a5", "a6", "b5"],
            ["d1", "e1", "f1", "e2"],
            ["i4", "i5", "i6", "h5"],
            ["d9", "e9", "f9", "e8"],
        ]
        .iter()
        .map(|g| g.iter().map(|s| sq(s)).collect())
        .collect();
        set(&mut c, "escape", OptionValue::Str("edge".into()));
        set(&mut c, "camps", OptionValue::Bool(true));
        set(&mut c, "camps_hostile", OptionValue::Str(hostile.into()));
        set(&mut c, "camp_to_camp", OptionValue::Bool(to_camp));
        Rules::new(&c).unwrap()
    }

    /// Issue 32 item 4: camps_hostile = "always" (Ashton Tablut, tafl-rules.md 2.2: camps take "occupied or
    /// not"; OpenTafl's aforh with t) takes the attacker on c5 against the camp b5 an attacker holds; "all"
    /// (source 000: empty camps only) does not.
    #[test]
    fn an_occupied_camp_captures_only_under_always() {
        let d7_d5 = Move::new(6 * 9 + 3, 4 * 9 + 3);
        for (hostile, taken) in [("all", false), ("always", true)] {
            let r = camp_board(hostile, false);
            let mut p = r.parse_position("/9/9/3T5/9/1tt1K4/9/9/9/9/", Side::Defenders).unwrap();
            let undo = r.make(&mut p, d7_d5);
            assert_eq!(undo.captured.count() == 1, taken, "{hostile}");
        }
    }

    /// Issue 32 item 4: with camp_to_camp (OpenTafl's aforre: a piece on a camp square may reach any camp
    /// square) the attacker on d1 may go up the empty d-file into the camp d9; without it only into its own.
    #[test]
    fn camp_to_camp_lets_a_camp_piece_reach_another_camp() {
        for to_camp in [false, true] {
            let r = camp_board("defenders", to_camp);
            let p = r.parse_position("/9/9/9/9/9/9/4K4/9/3t5/", Side::Attackers).unwrap();
            let mut moves = Vec::new();
            r.generate_moves(&p, &mut moves);
            assert_eq!(moves.contains(&Move::new(3, 8 * 9 + 3)), to_camp);
            assert!(moves.contains(&Move::new(3, 7 * 9 + 3)));
        }
    }

    #[test]
    fn position_text_round_trips() {
        let r: Rules<u128> = Rules::new(&copenhagen()).unwrap();
        let p = r.parse_position(COPENHAGEN, Side::Attackers).unwrap();
        assert_eq!(r.position_text(&p), COPENHAGEN);
        assert_eq!(p.att.count(), 24);
        assert_eq!(p.dfn.count(), 12);
        assert_eq!(p.king, Some(Square::new(60)));
    }
}

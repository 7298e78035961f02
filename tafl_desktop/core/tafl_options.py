"""The Tafl rule toggles (docs/ARCHITECTURE.md §4), declared once for engine, panel, files and print.

Sources are cited by the file names of ``shared/reference/sources`` (000..004) and the research
notes ``tafl-rules.md``; every toggle's behaviour is pinned by tests in ``tests/test_tafl_*.py``.
"""

from __future__ import annotations

from tafl_desktop.core.marks import N_
from tafl_desktop.core.options import Choice, OptionSchema, OptionSpec

S000 = "source 000 (Military Strategy Games)"
S001 = "source 001 (Hnefatafl overview)"
S002 = "source 002 (Winther's Tablut)"
S003 = "source 003 (rules table)"
S004 = "source 004 (single-step Hnefatafl)"
COPEN = "Copenhagen rules (tafl-rules.md 2.2)"

TAFL_OPTIONS = OptionSchema((
    # -- turn and movement -------------------------------------------------------------------
    OptionSpec(
        "first_move", "First move", "Which side makes the first move of the game.", "choice", "attackers",
        choices=(
            Choice("attackers", "Attackers", "The attackers make the first move."),
            Choice("defenders", "Defenders (king's side)", "The king's side makes the first move."),
        ),
        group="Movement", source=N_("source 002 (Winther's Tablut); source 004 (single-step Hnefatafl)")),
    OptionSpec(
        "movement", "Movement", "How far a piece may move in a straight line.", "choice", "rook",
        choices=(
            Choice("rook", "Any distance (like a rook)",
                   "Every piece moves any number of empty squares along a row or column, like a rook in chess."),
            Choice("single_step", "One square",
                   "Every piece moves exactly one square along a row or column."),
        ),
        group="Movement", source=N_("source 001 (Hnefatafl overview); source 004 (single-step Hnefatafl)")),
    OptionSpec(
        "king_speed", "King's range", "The most squares the king may move in one turn (0 = no limit).", "int", 0,
        minimum=0, maximum=18, sentence_on="The king moves at most {n} square(s) per turn.",
        sentence_off="", group="Movement", source=N_("tafl-rules.md 2.1 (per-piece speed)")),
    # -- winning ------------------------------------------------------------------------------
    OptionSpec(
        "escape", "King escapes to", "Where the king must get to for his side to win.", "choice", "corner",
        choices=(
            Choice("corner", "A corner square", "The king's side wins when the king reaches a corner square.",
                   needs_mark="corner"),
            Choice("edge", "Any edge square", "The king's side wins when the king reaches any square on the edge."),
            Choice("marked", "Marked escape squares",
                   "The king's side wins when the king reaches one of the marked escape squares.", needs_mark="escape"),
        ),
        group="Winning", source=N_("source 003 (rules table); source 001 (Hnefatafl overview); tafl-rules.md 1.3 "
                                   "(Tablut competition: 16 marked squares)")),
    OptionSpec(
        "escape_safe", N_("Escape must be safe"), N_("Reaching an escape square wins only if the attackers cannot "
        "capture the king with their next move; otherwise play goes on."), "bool", False,
        sentence_on=N_("The king wins only when he stands on an escape square at the end of his side's move and the "
                       "attackers cannot capture him with their next move; otherwise play goes on."),
        group="Winning", depends_on=("escape", ("edge", "marked")), omit_default=True,
        source=N_("source 000 (Military Strategy Games) ('full tablut': escape 'in such a way that does not allow his "
                  "piece to be captured in his next turn')")),
    OptionSpec(
        "edge_forts", "Edge forts", N_("The defenders win if the king sits on the edge, can move, and is walled "
        "in by defenders the attackers can never break. Defenders further out count when they too can never be "
        "captured."), "bool", False,
        sentence_on=N_("The defenders also win with an edge fort: the king on the edge, able to move, in a space no "
        "attacker can enter, walled by defenders that no sequence of attacker moves could capture. Defenders "
        "further out help only if they, too, could never be captured."), group="Winning", source=N_("source 003 "
                                                                                                    "(rules table); "
                                                                                                    "Copenhagen "
                                                                                                    "rules "
                                                                                                    "(tafl-rules.md "
                                                                                                    "2.2)")),
    OptionSpec(
        "encirclement", "Encirclement", "The attackers win if they enclose every defender so that none can "
        "reach the edge.", "bool", False,
        sentence_on="The attackers also win by enclosing the king and all his defenders so that none of them can "
        "reach the edge.", group="Winning", source=N_("Copenhagen rules (tafl-rules.md 2.2)")),
    OptionSpec(
        "no_moves", "No legal move", "What happens to a side that cannot move on its turn.", "choice", "loses",
        choices=(
            Choice("loses", "That side loses", "A side that cannot move on its turn loses."),
            Choice("draw", "The game is drawn", "If a side cannot move on its turn, the game is drawn."),
        ),
        group="Winning", source=N_("tafl-rules.md 2.1 (Copenhagen: loses; Fetlar 2013: draw)")),
    OptionSpec(
        "repetition", "Repetition", "What happens when the same position comes round again and again.",
        "choice", "allowed",
        choices=(
            Choice("allowed", "Allowed", "Repeating positions has no consequence."),
            Choice("draw", "Draw", "When a position repeats, the game is drawn."),
            Choice("defenders_lose", "Defenders lose",
                   "When a position repeats, the defenders lose (they must break a perpetual repetition)."),
            Choice("mover_loses", "Repeating side loses", "The side whose move repeats a position loses."),
            Choice("mover_wins", N_("Repeating side wins"),
                   N_("The side whose move completes the repetition wins.")),
            Choice("defenders_no_repeat", N_("Defenders may not repeat"),
                   N_("The defenders may not make a move that recreates an earlier position of the game.")),
        ),
        group="Winning", source=N_("source 002 (Winther's Tablut) (repetition loses); Copenhagen rules (tafl-rules.md "
                                   "2.2); tafl-rules.md 2.1 (OpenTafl tfr:l, the side completing the repetition "
                                   "wins); tafl-rules.md 2.2 (hnefatafl.org: a defender may not repeat a position)")),
    OptionSpec(
        "repetition_count", "Repetitions", "How many times a position must occur for the repetition rule.",
        "int", 3, minimum=2, maximum=5, sentence_on="(A position counts as repeated when it has occurred {n} times.)",
        sentence_one="(A position counts as repeated when it has occurred {n} time.)",
        group="Winning", depends_on=("repetition", ("draw", "defenders_lose", "mover_loses", "mover_wins"))),
    OptionSpec(
        "captureless_draw", "Draw without captures", "Draw after this many moves in a row without a capture "
        "(0 = never).", "int", 0, minimum=0, maximum=999,
        sentence_on="The game is drawn after {n} moves in a row without a capture.",
        sentence_one="The game is drawn after {n} move in a row without a capture.", group="Winning",
        source=N_("tafl-rules.md 2.1 (game length)")),
    OptionSpec(
        "turn_limit", N_("Move limit"), N_("Draw once this many moves (both sides' counted) have been played "
        "without a win (0 = never)."), "int", 0, minimum=0, maximum=999,
        sentence_on=N_("The game is drawn after move {n} (both sides' moves counted) unless that move wins."),
        group="Winning", omit_default=True,
        source=N_("hnefatafl.org (crate hnefatafl-copenhagen 6.4.1, src/board.rs: MAX_TURNS = 140, and a move "
                  "played after more than 140 moves draws unless it wins: the 142nd)")),
    OptionSpec(
        "cant_escape", N_("King cannot escape"), N_("The attackers win when hnefatafl.org's test says the king "
        "can no longer escape: trapped on an edge, or every corner closed off with few defenders or few open "
        "edge squares left."), "bool", False,
        sentence_on=N_("The attackers also win, after any move, when the king can no longer escape as "
                       "hnefatafl.org judges it: the king on an edge, held on both sides by two attackers (a corner "
                       "counts as one) and pinned from inside or almost alone; or every corner closed off from the "
                       "defenders, with fewer than 4 defenders against 13 or more attackers, or at most 2 open edge "
                       "squares in one run on each edge (3 with fewer than 6 defenders)."),
        group="Winning", needs_mark="corner", depends_on=("escape", ("corner",)), omit_default=True,
        source=N_("hnefatafl.org (crate hnefatafl-copenhagen 6.4.1, src/board.rs Board::can_not_escape, "
                  "src/game.rs Game::play)")),
    # -- captures ----------------------------------------------------------------------------
    OptionSpec(
        "strict_custodian", "Strict custodian", "A piece that stops between two enemies is captured at once, "
        "even on its own move.", "choice", "off",
        choices=(
            Choice("off", "Off", "A piece may safely move in between two enemies."),
            Choice("soldiers", "Soldiers (king exempt)",
                   "A soldier that stops between two enemies is captured at once; the king may (bare-faced cheek)."),
            Choice("everyone", "Everyone", N_("Any piece that stops where it would be captured is captured at once: "
                   "a soldier between two enemies, the king where the king-capture rule in force takes him (so a "
                   "king captured only on four sides survives between two attackers).")),
        ),
        group="Capture", source=N_("source 000 (Military Strategy Games) (strict custodian for soldiers; the "
                                   "king's 'bare-faced cheek'); with 'Everyone' the king falls only where the "
                                   "king-capture rule in force would take him, a reading: the source speaks of a "
                                   "king captured like a soldier")),
    OptionSpec(
        "strict_custodian_squares", N_("Strict custodian counts hostile squares"), N_("Whether hostile squares "
        "(and the hostile rim) count as enemies when a soldier stops between them."), "bool", True,
        # on: the strict custodian's own sentence covers it (hostile squares act as enemies throughout)
        sentence_off=N_("For the strict custodian capture only enemy pieces count, not hostile squares or the rim."),
        group="Capture", depends_on=("strict_custodian", ("soldiers", "everyone")), omit_default=True,
        source=N_("source 000 (Military Strategy Games): a soldier 'may NOT rest between two opposing soldiers'; "
                  "hostile squares 'count as hostile pieces for the purposes of capture'; no source says whether "
                  "they count for the strict form (on: they do)")),
    OptionSpec(
        "immobilisation", "Immobilisation capture", "A piece left with no liberty (enemies, hostile squares "
        "or the rim on every side) is captured.", "bool", False,
        sentence_on="A piece is also captured when a move leaves it with no liberty: every neighbouring square is "
        "an enemy, a hostile square or off the board (friends do not take liberties).", group="Capture",
        source=N_("source 000 (Military Strategy Games)")),
    OptionSpec(
        "edge_hostile", "Hostile rim", "The board's edge acts as a capturing partner, so a piece on the edge "
        "falls to one enemy.", "bool", False,
        sentence_on="The rim of the board acts as a capturing partner: a piece on the edge is captured by one "
        "enemy on its inner side.", group="Capture", source=N_("source 002 (Winther's Tablut)")),
    OptionSpec(
        "edge_hostile_king", N_("Hostile rim against the king"), N_("Whether the hostile rim also acts as a "
        "capturing partner against the king."), "bool", True,
        # on: the hostile rim's own sentence covers it (a piece on the edge, the king too)
        sentence_off=N_("The hostile rim does not act against the king; he is captured on the edge only as the "
                        "king-capture rules say."),
        group="Capture", depends_on=("edge_hostile", (True,)), omit_default=True,
        source=N_("source 002 (Winther's Tablut) ('the whole periphery functions as capture square' in Alea "
                  "Evangelii, where the king on the rim has already won): no source says whether the rim takes "
                  "the king (on: it does)")),
    OptionSpec(
        "shield_wall", "Shield walls", "A row of pieces on the edge is captured at once by bracketing it, "
        "each one faced by an enemy.", "bool", False,
        sentence_on="A row of two or more pieces along the edge, each faced by an enemy on its inner side, is "
        "captured at once by bracketing both ends.", group="Capture", source=N_("source 003 (rules table); Copenhagen "
                                                                                "rules (tafl-rules.md 2.2)")),
    OptionSpec(
        "shield_wall_flank", "Shield wall needs a flank move", "Only a move onto a bracketing square captures "
        "a shield wall.", "bool", True,
        sentence_on="Only a move onto an end of the row (a flanking move) captures a shield wall.",
        sentence_off="Any move that completes the shield-wall pattern captures it.", group="Capture",
        depends_on=("shield_wall", (True,)), source=N_("tafl-rules.md 5.9")),
    OptionSpec(
        "shield_wall_corners", "Corner may close a shield wall", "A corner square may stand in for one "
        "bracketing piece.", "bool", True,
        sentence_on="A corner square may stand in for one of the bracketing pieces.", sentence_off="Both ends of a "
        "shield wall must be bracketed by pieces.", group="Capture", depends_on=("shield_wall", (True,)),
        needs_mark="corner", source=N_("Copenhagen rules (tafl-rules.md 2.2)")),
    OptionSpec(
        "shield_wall_king_spared", "King spared in a shield wall", "The king may stand in a shield wall "
        "without being captured with it.", "bool", True,
        sentence_on="The king may be part of a shield wall but is not captured with it.",
        sentence_off="A king in a captured shield wall is captured with it.", group="Capture",
        depends_on=("shield_wall", (True,)), source=N_("Copenhagen rules (tafl-rules.md 2.2)")),
    OptionSpec(
        "linnaean_capture", "Linnaean capture", "A defender beside the throned king, who is surrounded by "
        "attackers on his other three sides, can be captured against the throne.", "bool", False,
        sentence_on="A defender next to the king on the throne, when the king's other three sides are attackers, "
        "can be captured against the throne.", group="Capture", needs_mark="throne",
        source=N_("tafl-rules.md 2.1 (OpenTafl linc)")),
    # -- the king ------------------------------------------------------------------------------
    OptionSpec(
        "king_armed", "King armed", "Whether the king helps to capture.", "choice", "yes",
        choices=(
            Choice("yes", "Yes", "The king takes part in captures, both moving and standing."),
            Choice("no", "No", "The king never takes part in captures."),
            Choice("hammer", "Hammer only", "The king can capture by moving, but is no partner for a capture."),
            Choice("anvil", "Anvil only", "The king can be the standing partner of a capture, but cannot capture by "
                   "moving."),
        ),
        group="King", source=N_("tafl-rules.md 2.1 (OpenTafl ka)")),
    OptionSpec(
        "king_capture", "King captured by", "How many attackers it takes to capture the king.", "choice", "strong",
        choices=(
            Choice("custodial", "Two sides (like a soldier)",
                   "The king is captured like a soldier, between two attackers in a row or column."),
            Choice("double_weak", "Two sides, four on the throne",
                   "The king is captured between two attackers, except on the throne, where it takes four."),
            Choice("weak_near_throne", "Four on or beside the throne, else two",
                   "On the throne the king must be surrounded on four sides; beside it on three sides and the "
                   "throne; anywhere else two attackers capture him."),
            Choice("strong", "Four sides", "The king is captured only when surrounded on all four sides by "
                   "attackers or hostile squares."),
        ),
        group="King", source=N_("source 001 (Hnefatafl overview); source 002 (Winther's Tablut); source 003 (rules "
                                "table)")),
    OptionSpec(
        "king_edge_capture", "Edge counts against the king", "With four-sided capture, the board edge counts as "
        "a side: three attackers capture the king on the edge, two beside a corner.", "bool", False,
        sentence_on="The board edge counts as an attacker against the king: three attackers capture him on the "
        "edge, and two beside a hostile corner.", group="King", source=N_("source 001 (Hnefatafl overview)"),
        sentence_on_without=("corner", "The board edge counts as an attacker against the king: three attackers "
                             "capture him on the edge."),
        depends_on=("king_capture", ("strong", "weak_near_throne", "double_weak"))),
    # -- special squares (throne, corners) -----------------------------------------------------
    OptionSpec(
        "throne_hostile", "Throne hostile", "When the throne acts as a capturing partner, and to whom.", "choice",
        "empty_all",
        choices=(
            Choice("never", "Never", "The throne never takes part in captures."),
            Choice("attackers", "To attackers", "The throne acts as a capturing partner against attackers only."),
            Choice("empty_all", "To all when empty",
                   "The throne acts as a capturing partner against attackers, and against defenders too when it "
                   "is empty."),
            Choice("always", "Always, to all",
                   "The throne acts as a capturing partner against everyone, even with the king on it."),
        ),
        group="Special squares", needs_mark="throne", source=N_("source 002 (Winther's Tablut); Copenhagen rules "
                                                                "(tafl-rules.md 2.2)")),
    OptionSpec(
        "throne_passable", "Pass the empty throne", "Who may move across the empty throne.", "choice", "everyone",
        choices=(
            Choice("nobody", "Nobody", "No piece may pass over the empty throne."),
            Choice("king", "King only", "Only the king may pass over the empty throne."),
            Choice("everyone", "Everyone", "Any piece may pass over the empty throne (only the king may stop there)."),
        ),
        group="Special squares", needs_mark="throne", source=N_("source 001 (Hnefatafl overview)")),
    OptionSpec(
        "throne_reentry", "King may return to the throne", "Whether the king may stop on the throne again "
        "after leaving it.", "bool", True,
        sentence_on="The king may return to the throne.", sentence_off="Once the king has left the throne, no piece "
        "may stop on it again.", group="Special squares", needs_mark="throne", source=N_("source 000 (Military "
                                                                                         "Strategy Games)")),
    OptionSpec(
        "corners_hostile", "Corners hostile", "The corner squares act as capturing partners.", "bool", True,
        sentence_on="The corner squares act as capturing partners against any piece.",
        sentence_off="The corner squares do not take part in captures.", group="Special squares",
        needs_mark="corner", source=N_("source 001 (Hnefatafl overview); source 002 (Winther's Tablut)")),
    OptionSpec(
        "corner_entry", N_("Who may enter corners"), N_("Which pieces may stop on the corner squares."), "choice",
        "king",
        # no rule-sheet sentences: the Board section says who may enter the corners (rulebook.board_sentences)
        choices=(
            Choice("king", N_("The king only"), ""),
            Choice("defenders", N_("Defenders and king"), ""),
        ),
        group="Special squares", needs_mark="corner", omit_default=True,
        source=N_("Copenhagen rules (tafl-rules.md 2.2) (king only); source 004 (single-step Hnefatafl) rule 5 "
                  "('Attacking pieces may not sit on a corner square'); a hostile corner stays hostile while a "
                  "defender stands on it, as OpenTafl's corh plays it (tafl-rules.md 2.3): no source ties a corner's "
                  "hostility to its being empty, as Copenhagen does for the throne")),
    OptionSpec(
        "corners_hostile_occupied", N_("Occupied corners stay hostile"), N_("Whether a corner square a defender "
        "stands on still acts as a capturing partner against defenders."), "bool", True,
        # on: the corners' own sentence covers it (hostile to any piece)
        sentence_off=N_("A corner square acts against defenders only while it is empty."),
        group="Special squares", needs_mark="corner", depends_on=("corner_entry", ("defenders",)), omit_default=True,
        source=N_("tafl-rules.md 2.3 (OpenTafl's corh: a hostile corner is hostile whoever stands on it); no source "
                  "ties a corner's hostility to its being empty, as Copenhagen does for the throne (on: it stays "
                  "hostile)")),
    # -- camps ---------------------------------------------------------------------------------
    OptionSpec(
        "camps", "Camps", "The attackers' base camps (marked squares) are special squares.", "bool", False,
        sentence_on="The marked camp squares belong to the attackers: defenders and the king may not stop on them.",
        group="Camps", needs_mark="camp", source=N_("source 000 (Military Strategy Games); tafl-rules.md 1.3")),
    OptionSpec(
        "camps_hostile", "Camps hostile", N_("Whether camp squares act as capturing partners, and against whom."),
        "choice", "defenders",
        choices=(
            Choice("none", "No", "Camp squares take no part in captures."),
            Choice("defenders", "To defenders", "Empty camp squares act as capturing partners against defenders and "
                   "the king."),
            Choice("all", "To all", "Empty camp squares act as capturing partners against every piece."),
            Choice("always", N_("To all, even occupied"),
                   N_("Camp squares act as capturing partners against every piece, even while an attacker stands on "
                      "one.")),
            Choice("always_but_middle", N_("To all, but the middle spares attackers"),
                   N_("Camp squares act as capturing partners against every piece, even while an attacker stands on "
                      "one, except that a camp's middle square (every neighbour of it a camp square) never helps to "
                      "capture an attacker.")),
        ),
        group="Camps", depends_on=("camps", (True,)),
        source=N_("source 000 (Military Strategy Games) (empty camps hostile: 'once vacated' ... 'count as hostile "
                  "pieces'); tafl-rules.md 2.2 (Ashton Tablut, AGalassi/TablutCompetition issue #4: camps are "
                  "capturing partners whoever stands on them; OpenTafl's aforh makes a camp hostile occupied or not); "
                  "the competition's referee (AGalassi/TablutCompetition, GameAshtonTablut.checkCaptureWhite) takes "
                  "an attacker against any camp square but the middle ones a5, e1, i5, e9")),
    OptionSpec(
        "camp_reentry", "Attackers may return to a camp", "Whether an attacker that left its camp may enter a "
        "camp again.", "bool", False,
        sentence_on="Attackers may move into any camp.",
        sentence_off="Attackers may move within their own camp and leave it, but never enter a camp from outside.",
        group="Camps", depends_on=("camps", (True,)), source=N_("source 000 (Military Strategy Games)")),
    OptionSpec(
        "camp_to_camp", N_("From camp to camp"), N_("Whether an attacker standing in a camp may move straight into "
        "another camp (never from outside one)."), "bool", False,
        sentence_on=N_("An attacker standing in a camp may also move straight into another camp."),
        group="Camps", depends_on=("camp_reentry", (False,)), omit_default=True,
        source=N_("off: source 000 (camps 'once vacated' cannot be re-entered) and tafl-rules.md 2.2 (Ashton: black "
                  "moves within its camp and never re-enters one); on: OpenTafl (tafl-rules.md 2.3, aforre: a piece "
                  "on a camp square may reach any camp square, GenericRules.canTaflmanStopOn)")),
    OptionSpec(
        "camp_crossing", "Cross camps", "Who may move across camp squares without stopping.", "choice", "nobody",
        choices=(
            Choice("nobody", "Nobody", "No piece may pass over a camp square it may not stop on."),
            Choice("attackers", "Attackers", "Attackers may pass over camps they may not stop in."),
            Choice("everyone", "Everyone", "Any piece may pass over camp squares without stopping."),
        ),
        group="Camps", depends_on=("camps", (True,)), source=N_("source 000 (Military Strategy Games)")),
))

"""Rule toggles of Dablot Prejjesne.  Sources: source 000 (its mini game and five variants) and
``shared/reference/hunt-games.md`` section 1 (cited as HG 1.x)."""

from __future__ import annotations

from tafl_desktop.core.marks import N_
from tafl_desktop.core.options import Choice, OptionSchema, OptionSpec

S000 = "source 000 (Mini-Dablot and its rule variants)"

DABLOT_OPTIONS = OptionSchema((
    OptionSpec(
        "first_move", "First move", "Which army moves first (the sources leave it to the players).", "choice",
        "south",
        choices=(
            # the armies by name as the board and the side panel call them (both Dablot presets
            # set Saami in the south, Swedes in the north), and where they stand
            Choice("south", "Saami (south, at the bottom)", "The army at the bottom moves first."),
            Choice("north", "Swedes (north, at the top)", "The army at the top moves first."),
        ),
        group="Movement", source=N_("source 000 (Mini-Dablot and its rule variants) ('either player can start'); HG "
                                    "1.3")),
    OptionSpec(
        "ever_onward", "Ever Onward", "Soldiers may never move backwards, straight or diagonally.", "bool", False,
        sentence_on="Soldiers never move backwards, straight or diagonally; officers, sons and leaders may.",
        group="Movement", source=N_("source 000 (Mini-Dablot and its rule variants), variant 2a")),
    OptionSpec(
        "chain_jumps", "Multiple captures", "Whether a piece may go on jumping in the same turn.", "bool", True,
        sentence_on="After a capture the same piece may go on capturing, changing direction as it likes, and may "
        "stop whenever it likes.",
        sentence_off="A piece makes at most one capture per turn.", group="Capture", source=N_("source 000 "
                                                                                               "(Mini-Dablot and its "
                                                                                               "rule variants); HG "
                                                                                               "1.5")),
    OptionSpec(
        "compulsory_capture", "Compulsory capture", "Soldiers must capture when they can.", "choice", "off",
        choices=(
            Choice("off", "Optional", "Capturing is always optional."),
            Choice("soldiers", "Soldiers must capture",
                   "If a soldier can capture, the player must make a soldier capture (it takes precedence over "
                   "captures by the son or leader); only the first jump is compulsory, and any soldier capture may "
                   "be chosen."),
        ),
        group="Capture", source=N_("source 000 (Mini-Dablot and its rule variants), variant 1; HG 1.7")),
    OptionSpec(
        "ambush", "Ambush", "Lower-ranked pieces may gang up on a higher-ranked enemy: jumped over in one turn by "
        "pieces whose ranks add up to its own, it is taken.", "bool", False,
        sentence_on="In one turn, two or more of your pieces, each of lower rank than one enemy piece, may jump that "
        "same enemy one after another, each of them once; the enemy is taken when the ranks of the pieces that "
        "jumped it add up to its own rank or more (two soldiers of rank 1 take a piece of rank 2). The whole ambush "
        "must be possible before it starts: it cannot be left halfway.",
        group="Capture", source=N_("source 000 (Mini-Dablot and its rule variants), variant 5")),
    OptionSpec(
        "promotion", "Promotion", "A soldier reaching the far edge becomes an officer of rank 2.", "bool", False,
        sentence_on="A soldier that reaches the far edge is promoted to officer, with rank 2.", group="Ranks",
        source=N_("source 000 (Mini-Dablot and its rule variants), variant 2b (a house rule: no historical source "
                  "promotes, HG 1.7)")),
    OptionSpec(
        "officer_material", "Officer Material", "Only a soldier that never moved backwards may be promoted; a "
        "retreat marks it for good.", "bool", False,
        sentence_on="Only 'officer material' is promoted: a soldier that ever moves backwards is marked (turn the "
        "piece over) and can no longer be promoted.", group="Ranks",
        depends_on=("promotion", (True,)), source=N_("source 000 (Mini-Dablot and its rule variants), variant 3")),
    OptionSpec(
        "four_ranks", "Four ranks", "Soldier 1, officer 2, the leader's son 3, the leader 4.", "bool", False,
        sentence_on="There are four ranks: soldier 1, officer 2, the leader's son 3 and the leader 4.",
        sentence_off="There are three ranks: soldier 1, the leader's son 2 and the leader 3 (a promoted officer "
        "has rank 2).", group="Ranks",
        source=N_("source 000 (Mini-Dablot and its rule variants), variant 2b")),
    OptionSpec(
        "action_points", "Action Points", "Three actions a turn: steps and single jumps in any combination, with "
        "one piece or several.", "bool", False,
        sentence_on="Each turn has three actions: a step or a single jump costs one; use them with one piece or "
        "several, and end the turn early if you like (after at least one action).", group="Movement",
        source=N_("source 000 (Mini-Dablot and its rule variants), variant 4")),
    OptionSpec(
        "leader_captured_loses", "Losing the leader loses", "The game ends when a leader is captured.", "bool", True,
        sentence_on="A player whose leader is captured loses.", group="Winning",
        source=N_("source 000 (Mini-Dablot and its rule variants); HG 1.6 (Winther, Dagaz, Wiklund 'by agreement')")),
    OptionSpec(
        "bare_leader_loses", "A lone leader loses", "A player left with nothing but the leader loses.", "bool",
        True, sentence_on="A player left with the leader alone loses.", group="Winning",
        source=N_("source 000 (Mini-Dablot and its rule variants); HG 1.6")),
    OptionSpec(
        "repetition", "Repetition", "What happens when a position repeats three times.", "choice", "allowed",
        choices=(
            Choice("allowed", "Allowed", "Repeating positions has no consequence."),
            Choice("draw", "Draw", "A position that occurs for the third time draws the game."),
        ),
        group="Winning", source=N_("HG 1.6 (draws by agreement)")),
    OptionSpec(
        "captureless_draw", "Draw without captures", "Draw after this many moves in a row without a capture "
        "(0 = never).", "int", 0, minimum=0, maximum=999,
        sentence_on="The game is drawn after {n} moves in a row without a capture.",
        sentence_one="The game is drawn after {n} move in a row without a capture.", group="Winning",
        source=N_("HG 1.6 (Wikipedia: a number of turns without a capture)")),
))

"""Rule toggles of the Fox games (Fox and Geese, Fox and Hounds, Asalto, Halatafl).

Sources: ``shared/reference/hunt-games.md`` sections 2-4 (cited as HG 2.x ...) and source 000.
Side 0 is the flock (geese, hounds, rebels, sheep), side 1 the hunters (fox, foxes, officers).
Texts name the sides by placeholders (``{many}``, ``{hunters}``...) that each variant fills with
its own side names: see :mod:`tafl_desktop.core.side_words`.
"""

from __future__ import annotations

from tafl_desktop.core.marks import N_
from tafl_desktop.core.options import Choice, OptionSchema, OptionSpec

HUNT_OPTIONS = OptionSchema((
    OptionSpec(
        "first_move", "First move", "Which side moves first.", "choice", "flock",
        choices=(
            Choice("flock", "The {many}", "The {many} move first."),
            Choice("hunters", "The {hunters}", "The {hunters} move{hs} first."),
        ),
        group="Movement", source=N_("HG 2.3, 3, 4.1, 4.3 (sources disagree)")),
    OptionSpec(
        "diagonals", "Diagonal lines", "Who may move along the drawn diagonal lines.", "choice", "everyone",
        choices=(
            Choice("everyone", "Everyone", "Both sides move along the diagonal lines as well as the straight ones."),
            Choice("hunters", "{Hunters} only", "Only the {hunters} may use the diagonal lines; the {many} move "
                   "orthogonally."),
            Choice("nobody", "Nobody", "Nobody uses the diagonal lines: all moves and jumps are orthogonal."),
        ),
        group="Movement", needs_mark="diagonal_lines",
        source=N_("HG 2.4; source 000 (board with extra diagonals: geese orthogonal, fox both)")),
    OptionSpec(
        "flock_backwards", "{Many} may move backwards", "Whether the {many} may step back towards their own "
        "side.", "bool", True,
        sentence_on="The {many} may move in any direction, backwards too.",
        sentence_off="The {many} may never move backwards.", group="Movement", source=N_("HG 2.4; source 000")),
    OptionSpec(
        "flock_sideways", "{Many} may move sideways", "Whether the {many} may step straight sideways.", "bool", True,
        sentence_on="", sentence_off="The {many} may not move sideways.", group="Movement",
        source=N_("HG 2.4 (17 geese: no backwards and no sideways moves); source 000")),
    OptionSpec(
        "captures", "{Hunters} capture{hs}", "Whether the {hunters} capture{hs} by jumping.", "bool", True,
        sentence_on="{A_hunter} captures by a short jump over an adjacent piece along a line onto the empty point "
        "just beyond; the {many} never capture.",
        sentence_off="There are no captures: the {hunters} win{hs} only by breaking through.", group="Capture",
        source=N_("HG 2.5; HG 3 (Fox and Hounds has no captures)")),
    OptionSpec(
        "multi_jump", "Multiple jumps", "Whether {a_hunter} may go on jumping in the same turn.", "choice", "optional",
        choices=(
            Choice("single", "One jump", "{A_hunter} makes at most one jump per turn."),
            Choice("optional", "May continue", "{A_hunter} may go on jumping in the same turn, changing direction, and "
                   "may stop when he likes."),
            Choice("compulsory", "Must continue", "{A_hunter} who has jumped must go on jumping while he can."),
        ),
        group="Capture", depends_on=("captures", (True,)), source=N_("HG 2.5, 4.1, 4.3")),
    OptionSpec(
        "compulsory_capture", "Compulsory capture", "What happens when {a_hunter} could capture but does not.",
        "choice", "off",
        choices=(
            Choice("off", "Optional", "Capturing is optional."),
            Choice("enforce", "Must capture", "{A_hunter} must capture when he can."),
            Choice("huff", "Huffing", "A capture may be declined, but then every {hunter} that could have captured "
                   "is removed (huffed)."),
        ),
        group="Capture", depends_on=("captures", (True,)), source=N_("HG 2.5, 4.1 (Halatafl), 4.3 (Asalto huffing)")),
    OptionSpec(
        "max_capture", "Longest capture", "If several captures are possible, the one taking most pieces must be "
        "chosen.", "bool", False,
        sentence_on="Of several captures, one that takes the most pieces must be chosen.", group="Capture",
        depends_on=("captures", (True,)), source=N_("HG 4.1 (Arsac's Halatafl)")),
    OptionSpec(
        "hunter_win_below", "{Hunters} win{hs} below", "The {hunters} win{hs} when fewer {many} than this remain "
        "(1 = all must be captured).", "int", 6, minimum=1, maximum=30,
        sentence_on="The {hunters} win{hs} when fewer than {n} {many} remain.", group="Winning",
        depends_on=("captures", (True,)), source=N_("HG 2.6 (thresholds from all to fewer than 4 remaining)")),
    OptionSpec(
        "breakthrough", "{Hunters} win{hs} by breaking through", "{A_hunter} who reaches the far side (the row where "
        "the {many} started) wins.", "bool", False,
        sentence_on="{A_hunter} who reaches the marked home row of the {many} wins.", group="Winning",
        source=N_("HG 3 (Fox and Hounds); source 000 (fox getting behind the geese)")),
    OptionSpec(
        "fill_pen", "{Many} win by filling the pen", "The {many} win by occupying every point of the pen "
        "(fortress).", "bool", False,
        sentence_on="The {many} also win by occupying every point of the pen.", group="Winning", needs_mark="pen",
        source=N_("HG 4.1 (Halatafl), 4.3 (Asalto)")),
    OptionSpec(
        "no_moves", "{Many} cannot move", "What happens when the {many} cannot move (the {hunters} always lose{hs} "
        "when trapped with no move).", "choice", "loses",
        choices=(
            Choice("loses", "They lose", "The {many} win by trapping the {hunters} so that no move is left; the {many} "
                   "lose if they cannot move."),
            Choice("draw", "Draw", "The {many} win by trapping the {hunters} so that no move is left; if the {many} "
                   "cannot move, the game is drawn."),
        ),
        group="Winning", source=N_("HG 2.6 (onlinewizz, dosboxgames)")),
    OptionSpec(
        "repetition", "Repetition", "What happens when a position repeats three times.", "choice", "allowed",
        choices=(
            Choice("allowed", "Allowed", "Repeating positions has no consequence."),
            Choice("draw", "Draw", "A position that occurs for the third time draws the game."),
        ),
        group="Winning", source=N_("HG 4.1 (onlinesologames: threefold repetition draws)")),
    OptionSpec(
        "captureless_draw", "Draw without captures", "Draw after this many moves in a row without a capture "
        "(0 = never).", "int", 0, minimum=0, maximum=999,
        sentence_on="The game is drawn after {n} moves in a row without a capture.",
        sentence_one="The game is drawn after {n} move in a row without a capture.", group="Winning"),
))

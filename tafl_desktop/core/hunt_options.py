"""Rule toggles of the Fox games (Fox and Geese, Fox and Hounds, Asalto, Halatafl).

Sources: ``shared/reference/hunt-games.md`` sections 2-4 (cited as HG 2.x ...) and source 000.
Side 0 is the flock (geese, hounds, rebels, sheep), side 1 the hunters (fox, foxes, officers).
"""

from __future__ import annotations

from tafl_desktop.core.options import Choice, OptionSchema, OptionSpec

HUNT_OPTIONS = OptionSchema((
    OptionSpec(
        "first_move", "First move", "Which side moves first.", "choice", "flock",
        choices=(
            Choice("flock", "The many (geese, hounds, rebels, sheep)", "The side with many pieces moves first."),
            Choice("hunters", "The hunters (fox, officers)", "The hunters move first."),
        ),
        group="Movement", source="HG 2.3, 3, 4.1, 4.3 (sources disagree)"),
    OptionSpec(
        "diagonals", "Diagonal lines", "Who may move along the drawn diagonal lines.", "choice", "everyone",
        choices=(
            Choice("everyone", "Everyone", "Both sides move along the diagonal lines as well as the straight ones."),
            Choice("hunters", "Hunters only", "Only the hunters may use the diagonal lines; the others move "
                   "orthogonally."),
            Choice("nobody", "Nobody", "Nobody uses the diagonal lines: all moves and jumps are orthogonal."),
        ),
        group="Movement", source="HG 2.4; source 000 (board with extra diagonals: geese orthogonal, fox both)"),
    OptionSpec(
        "flock_backwards", "Flock may move backwards", "Whether the many may step back towards their own "
        "side.", "bool", True,
        sentence_on="The many may move in any direction, backwards too.",
        sentence_off="The many may never move backwards.", group="Movement", source="HG 2.4; source 000"),
    OptionSpec(
        "flock_sideways", "Flock may move sideways", "Whether the many may step straight sideways.", "bool", True,
        sentence_on="", sentence_off="The many may not move sideways.", group="Movement",
        source="HG 2.4 (17 geese: no backwards and no sideways moves); source 000"),
    OptionSpec(
        "captures", "Hunters capture", "Whether the hunters capture by jumping.", "bool", True,
        sentence_on="A hunter captures by a short jump over an adjacent piece along a line onto the empty point "
        "just beyond; the flock never captures.",
        sentence_off="There are no captures: the hunters win only by breaking through.", group="Capture",
        source="HG 2.5; HG 3 (Fox and Hounds has no captures)"),
    OptionSpec(
        "multi_jump", "Multiple jumps", "Whether a hunter may go on jumping in the same turn.", "choice", "optional",
        choices=(
            Choice("single", "One jump", "A hunter makes at most one jump per turn."),
            Choice("optional", "May continue", "A hunter may go on jumping in the same turn, changing direction, and "
                   "may stop when he likes."),
            Choice("compulsory", "Must continue", "A hunter who has jumped must go on jumping while he can."),
        ),
        group="Capture", depends_on=("captures", (True,)), source="HG 2.5, 4.1, 4.3"),
    OptionSpec(
        "compulsory_capture", "Compulsory capture", "What happens when a hunter could capture but does not.",
        "choice", "off",
        choices=(
            Choice("off", "Optional", "Capturing is optional."),
            Choice("enforce", "Must capture", "A hunter must capture when he can."),
            Choice("huff", "Huffing", "A hunter may decline a capture, but then every hunter that could have "
                   "captured is removed (huffed)."),
        ),
        group="Capture", depends_on=("captures", (True,)), source="HG 2.5, 4.1 (Halatafl), 4.3 (Asalto huffing)"),
    OptionSpec(
        "max_capture", "Longest capture", "If several captures are possible, the one taking most pieces must be "
        "chosen.", "bool", False,
        sentence_on="Of several captures, one that takes the most pieces must be chosen.", group="Capture",
        depends_on=("captures", (True,)), source="HG 4.1 (Arsac's Halatafl)"),
    OptionSpec(
        "hunter_win_below", "Hunters win below", "The hunters win when fewer of the many than this remain "
        "(1 = all must be captured).", "int", 6, minimum=1, maximum=30,
        sentence_on="The hunters win when fewer than {n} of the many remain.", group="Winning",
        depends_on=("captures", (True,)), source="HG 2.6 (thresholds from all to fewer than 4 remaining)"),
    OptionSpec(
        "breakthrough", "Hunters win by breaking through", "A hunter who reaches the far side (the row where the "
        "many started) wins.", "bool", False,
        sentence_on="A hunter who reaches the marked home row of the many wins.", group="Winning",
        source="HG 3 (Fox and Hounds); source 000 (fox getting behind the geese)"),
    OptionSpec(
        "fill_pen", "Flock wins by filling the pen", "The many win by occupying every point of the pen "
        "(fortress).", "bool", False,
        sentence_on="The many also win by occupying every point of the pen.", group="Winning",
        source="HG 4.1 (Halatafl), 4.3 (Asalto)"),
    OptionSpec(
        "no_moves", "Flock cannot move", "What happens when the many cannot move (hunters who cannot move always "
        "lose: they are trapped).", "choice", "loses",
        choices=(
            Choice("loses", "They lose", "Hunters who cannot move are trapped and lose; so do the many if they "
                   "cannot move."),
            Choice("draw", "Draw", "Hunters who cannot move are trapped and lose; if the many cannot move, the game "
                   "is drawn."),
        ),
        group="Winning", source="HG 2.6 (onlinewizz, dosboxgames)"),
    OptionSpec(
        "repetition", "Repetition", "What happens when a position repeats three times.", "choice", "allowed",
        choices=(
            Choice("allowed", "Allowed", "Repeating positions has no consequence."),
            Choice("draw", "Draw", "A position that occurs for the third time draws the game."),
        ),
        group="Winning", source="HG 4.1 (onlinesologames: threefold repetition draws)"),
    OptionSpec(
        "captureless_draw", "Draw without captures", "Draw after this many moves in a row without a capture "
        "(0 = never).", "int", 0, minimum=0, maximum=999,
        sentence_on="The game is drawn after {n} moves in a row without a capture.", group="Winning"),
))

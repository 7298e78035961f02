"""The computer's playing levels as data: a think-time budget plus search limits per level.

A level is deliberately *more* than a time budget.  A pure time budget makes a level's strength
depend on the machine and on what else it is doing: in self-play on a busy two-core box a
5-second "expert" searched fewer nodes than a depth-capped "hard" and lost to it.  So each level
is defined by a node budget and a depth cap, which give the same play on any machine.  Where the
player has asked for no clock the node budget is the binding limit: the search may run
``UNTIMED_CEILING`` times the level's ``time`` before a guard stops it (a level stopped by the
clock on a busy machine played a different, weaker game: Expert stopped at 15 s and 4.49 M of its
5 M nodes at the Copenhagen start, Hard in Fox and Hounds at 3.9 s and 39,725 of its 150,000).
How long that takes on this machine is measured, not guessed (:mod:`tafl_desktop.ai.think_time`,
shown in New Game).  Under a clock ``time`` is the level's share of it.  Each level searches several
times the nodes of the one below (3k, 20k, 150k, 450k; on 7x7 boards the depth caps bind
first: easy 3, medium 4, hard 5 plies), and Expert searches selectively past depth 4.  The caps
are set for Tafl: where the geese may never step back, a family's evaluator lifts them
(``uncapped_depth``) and the node budget alone bounds the search, as a fox has a handful of
moves and the game turns on plans many moves long; so does Dablot's, where capped Hard was
Medium plus one ply (a few thousand of its 150k nodes used) and drew won endings at the ply
cap.  Hard needs its 150k: with 60k it reached only depth 4 on Tablut, as Medium does, and
beat Medium 5-4 (one draw) in ten games; with 150k, 10-0.  The weak levels add the two kinds
of human error players expect from a weak opponent:

* ``margin``: the move is picked among the moves within ``margin`` evaluation units (100 =
  about one soldier) of the best, so the player drifts instead of always playing the top move;
  ranked (the best half the time, the next a quarter...) from Easy up, uniformly for Beginner.
  Uniform drift made Easy geese wander: every quiet goose step scores within a goose of the
  best, and Easy geese trapped a random fox in 0 of 10 games (ranked: 5-6 of 6);
* ``blunder``: the chance of a much worse move: a uniformly random one (Beginner) or, with
  ``blunder_margin``, any move within that margin of the best (Easy).

Both margins are in the evaluation's units, and a family's evaluator may say they are worth
less in its game, or to one side (``drift_scale``, ``side_drift_scales``): where the geese may
never step back, a quiet step that scores within a goose of the best can lose the game later,
and likewise where the fox has diagonals the geese lack, as one drifting goose undoes the net
around him; there the fox drifts a quarter.  In every Fox game the flock plays its level's
best move: a drifting flock loses such games or takes too long to close the net, while its
levels still differ in how far they see.

A game's own evaluation terms (``game_terms``: a family's weights file sets them per game, as
``resources/ai/hunt_evaluation.toml`` does for 13 and 15 geese) are the stronger levels': Beginner and
Easy keep the plain evaluation, so a newcomer meets the same opponents as before.

With the native search (``tafl_native``, see :mod:`tafl_desktop.ai.engine`) Beginner, Easy and
Medium search exactly the positions they did (Beginner and Easy score even against their Python
selves: they must stay beatable by a newcomer), while Hard and Expert get native budgets
(``native_nodes``, ``native_depth``): about fifty times the positions in the same think time.

``random`` is not a playing level for people: it is the uniform random mover that the
benchmarks use as a floor.
"""

from __future__ import annotations

from dataclasses import dataclass

from tafl_desktop.core.marks import N_
from tafl_desktop.core.quoting import quote


@dataclass(frozen=True)
class Level:
    """Search limits and deliberate weaknesses of one computer level."""

    name: str
    label: str
    #: Seconds per move under a clock (the search returns its best move so far when it runs out);
    #: without a clock only a guard, ``UNTIMED_CEILING`` times this, while the node budget binds.
    time: float
    #: Deepest full-width iteration (plies); the quiescence search may look further on forcing lines.
    depth: int
    #: Node budget per move (0 = none): keeps the weak levels weak on fast machines.
    nodes: int = 0
    #: Pick uniformly among root moves scoring within this margin of the best.
    margin: int = 0
    #: Pick within the margin ranked (best 1/2, next 1/4, ...: a drift that keeps a direction)
    #: rather than uniformly (a random walk among near-equal moves: Beginner's aimlessness).
    ranked_drift: bool = True
    #: Probability of a blunder instead of the searched move.
    blunder: float = 0.0
    #: What a blunder is: 0 = a uniformly random move; N = any move within N units of the best
    #: (a slip, not a gift: with huffing rules a random move can throw a piece away outright).
    blunder_margin: int = 0
    #: Resolve escape threats and king captures beyond the horizon (see search.Searcher.qsearch).
    quiescence: bool = True
    #: Search-free uniform random mover (benchmarks only).
    random_mover: bool = False
    #: Past depth 4, search late quiet moves a ply shallower first (deeper iterations, same time);
    #: not for a side the game's evaluator names in ``full_width_sides`` (the Fox games' hunters).
    selective: bool = False
    #: Follow captures past the horizon too (the native search; the Python one follows only the
    #: forcing lines).  Off for the weak levels, whose short sight is part of their character.
    captures: bool = True
    #: Weigh a game's own terms (a family's weights file sets them per game, e.g. the fox's
    #: distance from the centre with 13 geese).  Off for the weak levels: the plain evaluation
    #: keeps Beginner and Easy as beatable as they were, and the plans are the stronger levels'.
    game_terms: bool = True
    #: The node budget and depth cap with the native engine (0: the same as ``nodes``/``depth``).
    #: Only the strong levels get more: a native Hard or Expert thinks as long as the Python one
    #: did but sees much further, while Beginner, Easy and Medium search exactly as before.
    native_nodes: int = 0
    native_depth: int = 0


#: Without a clock, a level's search may think this many times its ``time`` before the guard stops
#: it: the node budget binds on any machine but one this much slower than a busy two-core box (or a
#: frozen one), and the player can always ask for the move now.
UNTIMED_CEILING = 10.0


#: Ordered weakest first; the GUI shows them in this order.
LEVELS: dict[str, Level] = {lv.name: lv for lv in (
    Level("random", N_("Random mover"), time=0.0, depth=0, random_mover=True),
    Level("beginner", N_("Beginner"), time=0.3, depth=1, nodes=400, margin=150, blunder=0.25, quiescence=False,
          ranked_drift=False, game_terms=False),
    Level("easy", N_("Easy"), time=1.0, depth=3, nodes=3_000, margin=100, blunder=0.1, blunder_margin=300,
          captures=False, game_terms=False),
    Level("medium", N_("Medium"), time=4.0, depth=4, nodes=20_000, margin=25),
    Level("hard", N_("Hard"), time=8.0, depth=5, nodes=150_000, native_nodes=1_500_000, native_depth=9),
    Level("expert", N_("Expert"), time=15.0, depth=64, nodes=450_000, selective=True, native_nodes=5_000_000),
)}

#: Levels offered to players (the random mover is for benchmarks).
PLAYER_LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "expert")

#: The settings hints and the evaluation bar use: the strongest level.
HINT_LEVEL = "expert"


def untimed_ceiling(level: Level) -> float:
    """The guard of ``level``'s search without a clock, in seconds (0: none, the random mover)."""
    return level.time * UNTIMED_CEILING


def get_level(name: str) -> Level:
    """The level called ``name``; ValueError with a one-line message listing the levels otherwise."""
    try:
        return LEVELS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown level {quote(name)}; levels: {', '.join(LEVELS)}") from None

"""Where puzzle positions come from: real games on record, and the app's own self-play.

Each source yields ``(position, source_text)`` pairs for the last few positions of a decided game,
where a forced win is most likely to be found; the endgame source (:func:`endgame_candidates`)
yields composed positions instead: self-play positions thinned to a few pieces a side.  A source
text names the game exactly (the file and line, or the self-play levels and seed) so a puzzle can
be traced back, and the generator
remembers which games it has scanned, so a run can be stopped and resumed.

The real games (``resources/games``, shipped from ``shared/reference/games``; see its README) are
Copenhagen and Brandubh games,
replayed under the rules their README states; that is why Brandubh's puzzles carry two toggles.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.game import Game, IllegalMove, Position, Rules

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

# where the real games are and how a line reads (the tuner reads them too): re-exported here
from tafl_desktop.core.real_games import REAL_GAME_FILES as REAL_GAME_FILES
from tafl_desktop.core.real_games import default_games_dir as default_games_dir
from tafl_desktop.core.real_games import read_record_lines

#: Self-play pairings (first side's level, second side's level): weak players blunder into the
#: tactics a puzzle needs, and each side gets the stronger level in turn.
SELFPLAY_PAIRS: tuple[tuple[str, str], ...] = (("beginner", "beginner"), ("easy", "beginner"),
                                               ("beginner", "easy"))


@dataclass(frozen=True)
class Candidate:
    """A position to try, the game it comes from (``game``: a stable id) and its ply in it."""

    position: Any
    game: str
    ply: int
    played: Any = None  # the move the game went on with (the likeliest key of a puzzle), if any
    length: int = 0  # plies in the whole game

    @property
    def winner_to_move(self) -> bool:
        """Is the side to move the side that made the game's last (deciding) move?"""
        return (self.length - self.ply) % 2 == 1


def _tail(game: Game[Position], name: str, back: int) -> list[Candidate]:
    """The last ``back`` positions of a game, the furthest from its end first (where the longest
    forced wins are), each with the move played there."""
    n = len(game.plies)
    return [Candidate(game.position_at(k), name, k, game.plies[k].move, n) for k in range(max(0, n - back), n)]


def real_game_candidates(rules: Rules[Position], path: Path, back: int) -> Iterator[Candidate]:
    """The last ``back`` positions before the end of each decided game in a record file (replayed
    with repetition off, as the README advises)."""
    for number, moves, result in read_record_lines(path):
        if result not in ("Black", "White"):
            continue
        game = Game(rules)
        try:
            for text in moves:
                game.play_text(text)
        except IllegalMove:
            continue
        yield from _tail(game, f"{path.name}:{number}", back)


def selfplay_candidates(variant: Variant, first_seed: int, back: int, time_scale: float = 0.3) -> Iterator[Candidate]:
    """Endless self-play games from ``first_seed`` on, at the pairings of :data:`SELFPLAY_PAIRS`;
    the last ``back`` positions of each decided game."""
    from tafl_desktop.ai.selfplay import play_game

    rules = variant.make_rules()
    seed = first_seed
    while True:
        a, d = SELFPLAY_PAIRS[seed % len(SELFPLAY_PAIRS)]
        record = play_game(variant, a, d, seed=seed, time_scale=time_scale)
        if record["winner"] is not None:
            game = Game(rules)
            for text in record["moves"]:
                game.play_text(text)
            yield from _tail(game, f"selfplay:{a}-{d}:seed{seed}", back)
        seed += 1


#: The most common pieces (the family's rank and file: Tafl's soldiers, Dablot's soldiers) a
#: thinned position keeps: the side to move, then the other side (see :func:`thinned`).
DEFAULT_KEEP = (6, 2)
#: Thinned copies drawn from each position of a game, and every how many plies one is taken;
#: with the native prover more copies (a proof costs about a millisecond there, so the self-play
#: that gives the positions is the dear part).
ENDGAME_DRAWS = 8
ENDGAME_DRAWS_NATIVE = 32
ENDGAME_STEP = 2
#: Self-play time scale of the endgame source: the levels' node budgets bind before their time
#: ceilings on a slow machine, so a seed replays the same game (the same positions to thin).
ENDGAME_TIME_SCALE = 10.0


def thinned(rules: Rules[Position], pos: Position, keep: tuple[int, int], rng: random.Random) -> Position | None:
    """A composed position: ``pos`` with every piece but the family's common ones (the pieces a
    side loses in numbers: soldiers) and its emblems (kings, leaders), of which the side to move
    keeps 1 to ``keep[0]`` and the other side 1 to ``keep[1]``, picked by ``rng``; the other
    ranked pieces (Dablot's sons and officers) stay on the side to move's side and each stays
    with even chance on the other.  None when the rules refuse the result or it is already
    decided.  Why: a forced win of three moves needs a board where a few pieces meet, which a
    game of many pieces between careful players rarely reaches (full Dablot's self-play: about
    one in 90 games); and in Dablot a defender whose son still guards the leader is seldom
    beaten by force within three moves (with the son always kept, no three-move win in 12,000
    composed positions; with even chance, about one in 600)."""
    from tafl_desktop.core.position_setup import SetupError, position_from_pieces

    traits = rules.variant.traits
    common = set(traits.lost_emblems)
    emblems = set(traits.emblems)
    pieces = rules.pieces(pos)
    me = int(rules.side_to_move(pos))
    kept = {p: k for p, k in pieces.items()
            if k not in common and (k in emblems or traits.piece_side(k) == me or rng.random() < 0.5)}
    for side, most in ((me, keep[0]), (1 - me, keep[1])):
        own = sorted(p for p, k in pieces.items() if k in common and traits.piece_side(k) == side)
        for p in rng.sample(own, min(len(own), rng.randint(1, max(1, most)))):
            kept[p] = pieces[p]
    try:
        out = position_from_pieces(rules, kept, rules.side_to_move(pos))
    except SetupError:
        return None
    return None if rules.outcome(out) is not None else out


def endgame_candidates(variant: Variant, first_seed: int, keep: tuple[int, int] = DEFAULT_KEEP,
                       draws: int = ENDGAME_DRAWS, step: int = ENDGAME_STEP) -> Iterator[Candidate]:
    """Composed endgames: for self-play games from ``first_seed`` on (the pairings of
    :data:`SELFPLAY_PAIRS`), every ``step``-th position of the game thinned ``draws`` times by
    :func:`thinned`.  The game is named ``endgame:LEVELS:seedN`` and the position's ply kept, so a
    puzzle says it was composed and from which game; the draws are seeded by that name and ply,
    so a run replays the same candidates."""
    from tafl_desktop.ai.selfplay import play_game

    rules = variant.make_rules()
    seed = first_seed
    while True:
        a, d = SELFPLAY_PAIRS[seed % len(SELFPLAY_PAIRS)]
        record = play_game(variant, a, d, seed=seed, time_scale=ENDGAME_TIME_SCALE)
        game = Game(rules)
        for text in record["moves"]:
            game.play_text(text)
        name = f"endgame:{a}-{d}:seed{seed}"
        n = len(game.plies)
        for k in range(step, n + 1, step):
            rng = random.Random(f"{name} ply {k}")
            base = game.position_at(k)
            if rules.outcome(base) is not None:
                continue  # the game's end: a king or leader may be gone, which no puzzle starts from
            for _draw in range(draws):
                pos = thinned(rules, base, keep, rng)
                if pos is not None:
                    yield Candidate(pos, name, k, None, n)
        seed += 1

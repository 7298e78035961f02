"""Computer-against-computer games: the strength ladder, the random-mover floor, speed figures.

``tafl-desktop selfplay VARIANT --games N --attackers L --defenders L [--jobs J] [--seed S]``
calls :func:`run_selfplay`.  Games run in-process, or in ``jobs`` spawned worker processes (one
game per task, so a slow game does not hold the others back).  Each game is a
:class:`~tafl_desktop.core.game.Game`, so repetition is judged by the rules in force, and is cut
off as a draw after ``max_plies`` plies (reported as ``capped``).

Each game is played by the one headless game loop (:mod:`tafl_desktop.game_loop`, the match
tool's and the engine host's referee's too), its agents our own search, trusted to play legal moves.

Deterministic levels would replay the same game every time; so during the first
``OPENING_PLIES`` plies each player picks among moves within ``OPENING_MARGIN`` of its best
(scaled, like the levels' own margins, by the evaluator's scale for the side to move: in the
one-way Fox games a goose's first steps are for good, and only the fox varies), seeded per game
from ``seed`` (the same seed replays the same games, barring time-limited searches that ended
at different depths).
"""

from __future__ import annotations

import multiprocessing as mp
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from tafl_desktop.ai.levels import get_level
from tafl_desktop.ai.player import ComputerPlayer
from tafl_desktop.core.game import Game, Side
from tafl_desktop.game_loop import Adjudication, Budget, Reply
from tafl_desktop.game_loop import play_game as play_game_loop

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

    #: A variant, a preset's name or a variant's data (what a worker process is handed).
    VariantLike: TypeAlias = str | dict[str, Any] | Variant

MAX_PLIES = 300
OPENING_PLIES = 4
OPENING_MARGIN = 40


def _variant(variant: VariantLike) -> Variant:
    from tafl_desktop.core.variants import find_variant, variant_from_data

    if isinstance(variant, str):
        return find_variant(variant)
    if isinstance(variant, dict):
        return variant_from_data(variant)
    return variant


class _Tally:
    """What self-play reports of the searches behind a game: nodes, search time, depths per side."""

    def __init__(self) -> None:
        self.nodes = 0
        self.search_seconds = 0.0
        self.depths: dict[str, list[int]] = {"attackers": [], "defenders": []}


class _SelfplayAgent:
    """One side's :class:`~tafl_desktop.ai.player.ComputerPlayer` as an agent of the game loop:
    the opening margin of the first plies, the position keys kept as the game grows (the
    repetition rule), and the searches' figures added to ``tally``."""

    def __init__(self, player: ComputerPlayer[Any], keys: list[Any], tally: _Tally, move_time: float | None) -> None:
        self.player = player
        self.label = player.level.name
        self.keys = keys
        self.tally = tally
        self.move_time = move_time

    def think(self, game: Game[Any], budget: Budget) -> Reply:
        rules = game.rules
        keys = self.keys
        while len(keys) <= len(game.plies):  # the other side's move since this side's last
            keys.append(rules.position_key(game.plies[len(keys) - 1].position))
        pos = game.position
        side = rules.side_to_move(pos)
        player = self.player
        opening = len(game.plies) < OPENING_PLIES and not player.level.random_mover
        margin = (max(player.limits(side=int(side)).margin, round(OPENING_MARGIN * player.scale(int(side))))
                  if opening else None)
        res = player.choose(pos, keys, margin=margin, time_limit=self.move_time)
        if res.move is None:
            return Reply()  # nothing to play: the game stops where it is
        self.tally.nodes += res.nodes
        self.tally.search_seconds += res.seconds
        if res.depth:
            self.tally.depths[side.key].append(res.depth)
        return Reply(res.move)

    def finish(self, game: Game[Any]) -> None:
        """Our search keeps nothing of a finished game."""

    def close(self) -> None:
        """Nothing to release."""


def play_game(variant: VariantLike, attackers: str, defenders: str, seed: int, max_plies: int = MAX_PLIES,
              time_scale: float = 1.0, engines: tuple[str | None, str | None] = (None, None),
              move_time: float | None = None) -> dict[str, Any]:
    """Play one game; returns winner ("attackers"/"defenders"/None), reason, plies and search figures.

    ``engines``: the search engine of each side (attackers, defenders; None: native where built);
    ``move_time``: seconds per move for both sides instead of the levels' node budgets (a match
    at equal time).  The game is played by the one headless game loop (:mod:`tafl_desktop.game_loop`),
    cut off unfinished at ``max_plies`` (reported as ``ply_limit``)."""
    v = _variant(variant)
    rules = v.make_rules()
    game = Game(rules)
    players = {
        Side.ATTACKERS: ComputerPlayer(rules, attackers, seed=seed * 2 + 1, time_scale=time_scale, engine=engines[0]),
        Side.DEFENDERS: ComputerPlayer(rules, defenders, seed=seed * 2 + 2, time_scale=time_scale, engine=engines[1]),
    }
    keys = [rules.position_key(game.position)]
    tally = _Tally()
    agents = {side: _SelfplayAgent(player, keys, tally, move_time) for side, player in players.items()}
    t0 = time.perf_counter()
    result = play_game_loop(game, dict(agents), adjudication=Adjudication(max_plies=max_plies, proven=False,
                                                                          cap_is_draw=False), trusted=True)
    seconds = time.perf_counter() - t0
    out = game.outcome
    depths = tally.depths
    return {
        "winner": out.winner.key if out and out.winner is not None else None,
        "reason": out.reason if out else "ply_limit",
        "plies": len(game.plies),
        "nodes": tally.nodes,
        "search_seconds": tally.search_seconds,
        "seconds": seconds,
        "depth_attackers": sum(depths["attackers"]) / len(depths["attackers"]) if depths["attackers"] else 0.0,
        "depth_defenders": sum(depths["defenders"]) / len(depths["defenders"]) if depths["defenders"] else 0.0,
        "moves": result.moves,
        "engines": [players[Side.ATTACKERS].engine, players[Side.DEFENDERS].engine],
    }


def _play_task(args: tuple[Any, ...]) -> dict[str, Any]:
    return play_game(*args)


def run_selfplay(variant: VariantLike, games: int = 10, attackers: str = "medium", defenders: str = "medium",
                 jobs: int = 1, seed: int = 1, max_plies: int = MAX_PLIES, time_scale: float = 1.0,
                 keep_moves: bool = False, engines: tuple[str | None, str | None] = (None, None),
                 move_time: float | None = None, swap: bool = False,
                 on_game: Callable[[dict[str, Any], tuple[str, str]], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games between two levels and summarise them.

    Returns ``attackers_wins``, ``defenders_wins``, ``draws``, ``capped`` (draws by the ply cap),
    ``average_length`` (plies), ``nodes_per_second`` (search nodes per second of search time),
    ``engines`` (the engine of each side), ``engine_wins`` (games won by each engine, when the
    two differ and ``swap`` plays every other game with the engines' sides swapped),
    ``moves_per_second`` (plies played per second of wall time), ``reasons`` (result reason ->
    games), average search depth per side, and the settings.  ValueError for an unknown level.
    ``on_game(result, engines)`` gets each game as it finishes (its moves, winner and reason; the
    engines of its two sides).
    """
    att_level, def_level = get_level(attackers), get_level(defenders)
    if games < 1:
        raise ValueError("games must be at least 1")
    v = _variant(variant)
    data = v.to_data()
    rules = v.make_rules()
    from tafl_desktop.ai.engine import resolve

    named = (resolve(rules, engines[0]), resolve(rules, engines[1]))  # errors here, not in a worker
    pairs = [named[::-1] if swap and i % 2 else named for i in range(games)]
    tasks = [(data, att_level.name, def_level.name, seed * 1000 + i, max_plies, time_scale, pairs[i], move_time)
             for i in range(games)]
    t0 = time.perf_counter()
    results: list[dict[str, Any]] = []

    def finished(result: dict[str, Any]) -> None:
        results.append(result)
        if on_game is not None:
            on_game(result, pairs[len(results) - 1])

    if jobs > 1 and games > 1:
        ctx = mp.get_context("spawn")
        with ctx.Pool(min(jobs, games)) as pool:
            for result in pool.imap(_play_task, tasks):
                finished(result)
    else:
        for task in tasks:
            finished(_play_task(task))
    wall = time.perf_counter() - t0
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    plies = sum(r["plies"] for r in results)
    nodes = sum(r["nodes"] for r in results)
    search_s = sum(r["search_seconds"] for r in results)
    game_s = sum(r["seconds"] for r in results)
    report: dict[str, Any] = {
        "variant": v.id,
        "games": games,
        "attackers": att_level.name,
        "defenders": def_level.name,
        "attackers_wins": sum(r["winner"] == "attackers" for r in results),
        "defenders_wins": sum(r["winner"] == "defenders" for r in results),
        "draws": sum(r["winner"] is None for r in results),
        "capped": reasons.get("ply_limit", 0),
        "max_plies": max_plies,
        "average_length": plies / games,
        "nodes_per_second": round(nodes / search_s, 1) if search_s > 0 else 0.0,
        "moves_per_second": round(plies / game_s, 3) if game_s > 0 else 0.0,
        "plies_per_second": round(plies / game_s, 3) if game_s > 0 else 0.0,  # the same, named plainly
        "average_depth_attackers": round(sum(r["depth_attackers"] for r in results) / games, 2),
        "average_depth_defenders": round(sum(r["depth_defenders"] for r in results) / games, 2),
        "reasons": reasons,
        "seconds": round(wall, 2),
        "jobs": jobs,
        "seed": seed,
        "time_scale": time_scale,
    }
    report["engines"] = list(named)
    report["move_time"] = move_time
    if swap:
        report["swap"] = True
        wins: dict[str, int] = {name: 0 for name in named}
        for r, pair in zip(results, pairs, strict=True):
            if r["winner"] is not None:
                winner_engine = pair[0] if r["winner"] == "attackers" else pair[1]
                wins[winner_engine] = wins.get(winner_engine, 0) + 1
        report["engine_wins"] = wins
    if keep_moves:
        report["games_detail"] = [{k: r[k] for k in ("winner", "reason", "plies", "moves")} for r in results]
    return report

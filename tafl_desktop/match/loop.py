"""One headless game loop: two agents, a clock, adjudication, and a record of how it ended.

Built to be the game loop every headless caller stands on (the match tool now; self-play and the
engine host's referee are the same loop with other agents): it asks the side to move's
:class:`~tafl_desktop.match.players.Agent` for a move with the time it has, checks the move with
our rules, and ends the game when

* the rules end it (a capture of the king, an escape, no moves, a repetition...);
* an agent resigns (an HTP engine's ``play ROLE resigns``): a loss, ``resigned``;
* an agent fails: a crash, a timeout (past its clock, or past its per-move time plus
  :data:`~tafl_desktop.match.players.SEARCH_GRACE`) or an illegal move is a loss for that side,
  recorded as such (the game's reason ``time`` for a timeout, else ``forfeit``);
* it is adjudicated: the ply cap (a draw, ``ply_cap``), a result the search proves (``proven``:
  the proving side wins, as a tablebase adjudication would), or a side whose own score stays at
  or below ``-resign_score`` for ``resign_moves`` of its moves in a row resigns (``resigned``,
  Cute Chess's resign adjudication).

The result is a :class:`GameResult`: plain data (it crosses process boundaries and goes into a
match's journal as JSON).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from tafl_desktop.core.clock import GameClock, ThinkPlan
from tafl_desktop.core.clock import TimeControl as ClockControl
from tafl_desktop.core.game import Game, Outcome, Side
from tafl_desktop.match.players import SEARCH_GRACE, Agent, Budget, Reply

#: The default ply cap: a game this long is adjudicated a draw.
MAX_PLIES = 200


@dataclass(frozen=True)
class TimeControl:
    """``move`` seconds per move; or a clock of ``base`` seconds plus ``increment`` per move
    (sudden death when the increment is 0).  All zero: each player's own budget."""

    move: float = 0.0
    base: float = 0.0
    increment: float = 0.0

    @property
    def clocked(self) -> bool:
        return self.base > 0


@dataclass(frozen=True)
class Adjudication:
    """When the arbiter ends a game early (see the module docstring); 0 turns a rule off."""

    max_plies: int = MAX_PLIES
    proven: bool = True
    resign_score: int = 0
    resign_moves: int = 0


@dataclass
class GameResult:
    """How one game went: ``winner`` "attackers"/"defenders"/None, ``ending`` a stable key
    (``rules`` for an ending on the board, else ``ply_cap``, ``proven``, ``resigned``,
    ``crash``, ``timeout``, ``illegal``), ``failed`` the side whose player failed, ``text`` one
    line for people, and the moves."""

    winner: str | None
    ending: str
    reason: str
    plies: int
    moves: list[str] = field(default_factory=list)
    failed: str | None = None
    text: str = ""
    seconds: float = 0.0

    def to_data(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> GameResult:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def _budget(tc: TimeControl, clocks: list[float], side: int) -> Budget:
    """The time a move may take under ``tc``, with ``clocks`` (seconds left per side)."""
    if not tc.clocked:
        return Budget(seconds=tc.move)
    left = max(0.0, clocks[side])
    # a share of the time left, plus most of the increment: the usual allocation of a clock
    seconds = max(0.01, min(left * 0.5, left / 30.0 + tc.increment * 0.8))
    return Budget(seconds=seconds, clock_ms=(max(0, int(clocks[0] * 1000)), max(0, int(clocks[1] * 1000))),
                  plan=_plan(tc, left))


def _plan(tc: TimeControl, left: float) -> ThinkPlan:
    """The window's computer's plan for a move with ``left`` seconds on its clock under ``tc``
    (:meth:`GameClock.think_plan`, no level's cap): what a search player spends by default."""
    clock = GameClock(ClockControl(max(1, round(tc.base * 1000)), round(tc.increment * 1000)), now=lambda: 0.0)
    clock.sides[0].main_ms = max(0, round(left * 1000))
    return clock.think_plan(0, float("inf"))


def play_game(game: Game, agents: dict[Side, Agent], tc: TimeControl | None = None,
              adjudication: Adjudication | None = None) -> GameResult:
    """Play ``game`` (already holding its opening moves) to its end between ``agents``."""
    from tafl_desktop.i18n import _, ngettext

    tc = tc or TimeControl()
    adj = adjudication or Adjudication()
    rules = game.rules
    clocks = [tc.base, tc.base]
    low_scores = [0, 0]
    t0 = time.monotonic()
    ending, failed, text = "rules", None, ""
    while not game.over:
        if adj.max_plies and len(game.plies) >= adj.max_plies:
            ending = "ply_cap"
            game.finish(Outcome(None, "draw_agreed"))
            text = _("adjudicated a draw at the {n}-ply cap").format(n=adj.max_plies)
            break
        side = rules.side_to_move(game.position)
        s = int(side)
        budget = _budget(tc, clocks, s)
        started = time.monotonic()
        reply: Reply = agents[side].think(game, budget)
        spent = time.monotonic() - started
        if tc.clocked:
            clocks[s] -= spent
        over_time = (clocks[s] < 0) if tc.clocked else bool(budget.seconds and spent > budget.seconds + SEARCH_GRACE)
        if reply.resigned and not over_time:
            ending, text = "resigned", reply.text
            game.resign(side, "resigned")
            break
        if reply.failure or over_time:
            ending = reply.failure or "timeout"
            failed = side.key
            text = reply.text or _("{player} ran out of time").format(player=agents[side].label)
            game.resign(side, "time" if ending == "timeout" else "forfeit")
            break
        assert reply.move is not None
        why = game.check(reply.move)
        if why is not None:
            ending, failed = "illegal", side.key
            text = _("{player} played an illegal move: {why}").format(player=agents[side].label, why=why)
            game.resign(side, "forfeit")
            break
        game.play(reply.move)
        if tc.clocked:
            clocks[s] += tc.increment
        if game.over:
            break
        if adj.proven and reply.mate_in is not None:
            ending = "proven"
            loser = side.other if reply.mate_in > 0 else side
            game.resign(loser, "resigned")
            n = abs(reply.mate_in)
            text = ngettext("adjudicated: the search proves the result in {n} ply",
                            "adjudicated: the search proves the result in {n} plies", n).format(n=n)
            break
        if adj.resign_moves and reply.score is not None:
            low_scores[s] = low_scores[s] + 1 if reply.score <= -adj.resign_score else 0
            if low_scores[s] >= adj.resign_moves:
                ending = "resigned"
                game.resign(side, "resigned")
                text = ngettext("{player} resigned: its score stayed lost for {n} move",
                                "{player} resigned: its score stayed lost for {n} moves", adj.resign_moves).format(
                    player=agents[side].label, n=adj.resign_moves)
                break
    for agent in {id(a): a for a in agents.values()}.values():
        try:
            agent.finish(game)
        except Exception:  # noqa: BLE001 - telling a finished engine the result is a courtesy
            pass
    out = game.outcome
    if not text and out is not None:
        text = out.describe(rules.variant)
    return GameResult(
        winner=out.winner.key if out and out.winner is not None else None,
        ending=ending,
        reason=out.reason if out else "",
        plies=len(game.plies),
        moves=game.move_texts(),
        failed=failed,
        text=text,
        seconds=round(time.monotonic() - t0, 3),
    )

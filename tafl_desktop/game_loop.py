"""One headless game loop: two agents, a clock, adjudication, and a record of how it ended.

The game loop every headless caller stands on: the match tool (:mod:`tafl_desktop.match`),
self-play (:mod:`tafl_desktop.ai.selfplay`) and the engine host's referee
(:func:`tafl_desktop.interop.host.referee`) differ only in their agents and their adjudication.
It asks the side to move's :class:`Agent` for a move with the time it has, checks the move with
our rules, and ends the game when

* the rules end it (a capture of the king, an escape, no moves, a repetition...);
* an agent resigns (an HTP engine's ``play ROLE resigns``): a loss, ``resigned``;
* an agent fails: a crash, a timeout (past its clock, or past its per-move time plus
  :data:`SEARCH_GRACE`) or an illegal move is a loss for that side, recorded as such (the game's
  reason ``time`` for a timeout, else ``forfeit``);
* an agent has no move to give (and no failure): the game stops unfinished (``stopped``);
* it is adjudicated: the ply cap (a draw, ``ply_cap``; or, for a caller that reports a game cut
  off as such, the game left unfinished), a wall-clock limit (``stopped``, unfinished), a result
  the search proves (``proven``: the proving side wins, as a tablebase adjudication would), or a
  side whose own score stays at or below ``-resign_score`` for ``resign_moves`` of its moves in a
  row resigns (``resigned``, Cute Chess's resign adjudication).

The result is a :class:`GameResult`: plain data (it crosses process boundaries and goes into a
match's journal as JSON).

Why here, in the contracts' layer below ``ai/`` and ``interop/``: self-play and the referee live
in those packages and must not import the match tool's package above them
(``tests/test_import_layers.py``).  Pure Python: the core and the translations only.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from tafl_desktop.core.clock import GameClock, ThinkPlan
from tafl_desktop.core.clock import TimeControl as ClockControl
from tafl_desktop.core.game import Game, Outcome, Side

#: Seconds an in-process search may overrun its budget before it counts as out of time.
SEARCH_GRACE = 2.0


@dataclass
class Budget:
    """What one move may take: ``seconds`` (0: the player's own budget), and the clocks in
    milliseconds as a hosted engine is told them (None: per-move time only); under a clock,
    ``plan`` is the window's computer's budget for the move (its share and hard limit)."""

    seconds: float = 0.0
    clock_ms: tuple[int, int] | None = None
    plan: ThinkPlan | None = None


@dataclass
class Reply:
    """An agent's answer: ``move``, or ``failure`` (a kind the caller records: the match tool's
    ``crash``, ``timeout``, ``illegal``, ``protocol``) with ``text``; neither: it has no move to
    give and the game stops unfinished.

    ``score`` is the search's score from the mover's view (None if it has none); ``mate_in``
    the plies to a result the search proved (positive: the mover wins); ``resigned`` the player
    gave up (``text`` says so): a loss, not a failure."""

    move: tuple[int, ...] | None = None
    score: int | None = None
    mate_in: int | None = None
    failure: str = ""
    text: str = ""
    resigned: bool = False


class Agent(Protocol):
    """One player in one game."""

    label: str

    def think(self, game: Game, budget: Budget) -> Reply: ...

    def finish(self, game: Game) -> None: ...

    def close(self) -> None: ...


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
    #: At the ply cap the game is a draw; False: it is left unfinished (self-play counts such a
    #: game as capped, the referee says where it stopped).
    cap_is_draw: bool = True
    #: Seconds of wall time after which the game stops unfinished (0: none; the referee's guard).
    max_seconds: float = 0.0


@dataclass
class GameResult:
    """How one game went: ``winner`` "attackers"/"defenders"/None, ``ending`` a stable key
    (``rules`` for an ending on the board, else ``ply_cap``, ``proven``, ``resigned``,
    ``stopped``, or the failure's kind: ``crash``, ``timeout``, ``illegal``...), ``failed`` the
    side whose player failed, ``text`` one line for people, and the moves."""

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
              adjudication: Adjudication | None = None, trusted: bool = False) -> GameResult:
    """Play ``game`` (already holding its opening moves) to its end between ``agents``.

    ``trusted``: the agents are our own search, whose moves are legal by construction; they are
    played without the referee's check (self-play's speed figures count the search, not a second
    move generation), and a move the rules refuse raises ``IllegalMove``."""
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
            if adj.cap_is_draw:
                game.finish(Outcome(None, "draw_agreed"))
                text = _("adjudicated a draw at the {n}-ply cap").format(n=adj.max_plies)
            break
        if adj.max_seconds and time.monotonic() - t0 >= adj.max_seconds:
            ending = "stopped"
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
        if reply.move is None:
            ending = "stopped"
            break
        why = None if trusted else game.check(reply.move)
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

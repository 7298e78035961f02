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

The loop has a step form, so that a caller driven by events judges a reply as the loop does:
:func:`judge` says what one reply of one side comes to (a :class:`Verdict`: a move to play, a
resignation, a failure, a refused move, no move), and the :class:`Arbiter` what the game comes to
before a side is asked and after its move is on the board (the ply cap, the wall clock, the rules'
ending, a proven result, a resignation by score).  :func:`play_game` is those steps in a loop; the
window's session (:mod:`tafl_desktop.session.session`) calls :func:`judge` when its computer's
reply arrives and keeps what is its own (generations, pause, undo, Move Now).

The result is a :class:`GameResult`: plain data (it crosses process boundaries and goes into a
match's journal as JSON).

Why here, in the contracts' layer below ``ai/`` and ``interop/``: self-play and the referee live
in those packages and must not import the match tool's package above them
(``tests/test_import_layers.py``).  Pure Python: the core and the translations only.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

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
    #: Under a clock: the time control and the seconds left to the side to move (:meth:`plan_within`).
    control: TimeControl | None = None
    left: float = 0.0

    def plan_within(self, seconds: float) -> ThinkPlan | None:
        """The window's plan for a player whose own think time is ``seconds`` (a level's time,
        which caps its share as it caps the window's computer at that level); None without a
        clock.  ``plan`` is the same with no cap (a search player at full strength)."""
        if self.control is None or not self.control.clocked:
            return None
        return _plan(self.control, self.left, seconds)


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

    def think(self, game: Game[Any], budget: Budget) -> Reply: ...

    def finish(self, game: Game[Any]) -> None: ...

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
                  plan=_plan(tc, left), control=tc, left=left)


def _plan(tc: TimeControl, left: float, cap: float = float("inf")) -> ThinkPlan:
    """The window's computer's plan for a move with ``left`` seconds on its clock under ``tc``
    (:meth:`GameClock.think_plan`, the one code path): with no cap, what a search player spends
    by default; with a level's time as ``cap``, what the window's computer at that level spends."""
    clock = GameClock(ClockControl(max(1, round(tc.base * 1000)), round(tc.increment * 1000)), now=lambda: 0.0)
    clock.sides[0].main_ms = max(0, round(left * 1000))
    return clock.think_plan(0, cap)


#: What a reply comes to: see :class:`Verdict`.
VerdictKind = Literal["move", "ending", "resigned", "failed", "illegal", "stopped"]


@dataclass(frozen=True)
class Verdict:
    """What one reply of one side comes to: the loop's step (:func:`judge`, then
    :meth:`Arbiter.after_move`), the same for every caller.

    ``kind``: ``move`` (``move`` is played and the game goes on); ``ending`` (the rules ended the
    game, or the arbiter did: ply cap, proven result, resignation by score); ``resigned`` (the
    player gave up); ``failed`` (a crash, a timeout, a forfeit: the side loses); ``illegal`` (a
    move the rules refuse); ``stopped`` (no move: the game stops where it is, unfinished).
    ``ending`` is :attr:`GameResult.ending`'s key, ``outcome`` the result the game gets (None: it
    goes on, or stops unfinished), ``failed`` the side whose player failed, ``why`` the clause
    that says why (the player's own words, the rules' reason) for a caller's sentence, and
    ``text`` one line for people (:attr:`GameResult.text`; empty: the outcome describes itself)."""

    kind: VerdictKind
    ending: str = ""
    outcome: Outcome | None = None
    failed: Side | None = None
    why: str = ""
    text: str = ""
    move: tuple[int, ...] | None = None

    @property
    def goes_on(self) -> bool:
        """Whether the reply's move is played and the game continues."""
        return self.kind == "move"

    def settle(self, game: Game[Any]) -> None:
        """Give ``game`` the verdict's result (an ending off the board; one the board made is
        there already, and a verdict without an outcome leaves the game open)."""
        if self.outcome is not None and game.outcome is None:
            game.finish(self.outcome)


def judge(game: Game[Any], side: Side, reply: Reply, label: str = "", *, over_time: bool = False,
          trusted: bool = False, refused_stops: bool = False) -> Verdict:
    """What ``reply``, ``side``'s answer in ``game``'s live position, comes to, before anything
    is played: the step every caller takes with each reply (:func:`play_game` with its agents',
    the window's session with its computer's).  ``game`` is not changed.

    ``label`` names the player in the texts; ``over_time``: the reply came past the player's
    time (the caller keeps the clock), a loss by ``time`` even for a resignation or a move.
    ``trusted``: the move is our own search's, legal by construction, and is not checked.
    ``refused_stops``: a move the rules refuse is the caller's own program erring (the window's
    session, whose worker searched this very position, and whose hosted engines' moves are
    checked by their host, which forfeits them): the game stops and waits, nobody loses."""
    # the translations are imported where a text is made: a legal move, every ply of a
    # self-play game, makes none
    if reply.resigned and not over_time:
        return Verdict("resigned", "resigned", Outcome(side.other, "resigned"), why=reply.text, text=reply.text)
    if reply.failure or over_time:
        from tafl_desktop.i18n import _

        ending = reply.failure or "timeout"
        text = reply.text or _("{player} ran out of time").format(player=label)
        return Verdict("failed", ending, Outcome(side.other, "time" if ending == "timeout" else "forfeit"),
                       failed=side, why=text, text=text)
    if reply.move is None:
        return Verdict("stopped", "stopped", why=reply.text, text=reply.text)
    why = None if trusted else game.check(reply.move)
    if why is None:
        return Verdict("move", move=reply.move)
    from tafl_desktop.i18n import _

    if refused_stops:
        clause = _("it proposed {move}, which is not allowed ({reason})").format(
            move=game.rules.move_text(reply.move), reason=why)
        return Verdict("illegal", "illegal", why=clause, text=clause, move=reply.move)
    return Verdict("illegal", "illegal", Outcome(side.other, "forfeit"), failed=side, why=why,
                   text=_("{player} played an illegal move: {why}").format(player=label, why=why), move=reply.move)


@dataclass
class Arbiter:
    """The adjudication of one game, and what it remembers between moves: when the game began
    (the wall-clock limit) and each side's run of moves with a lost score."""

    rules: Adjudication = field(default_factory=Adjudication)
    low_scores: list[int] = field(default_factory=lambda: [0, 0])
    started: float = field(default_factory=time.monotonic)

    def before_asking(self, game: Game[Any]) -> Verdict | None:
        """None if the side to move is asked for a move; else why not: the game is over, at the
        ply cap, or past the wall-clock limit."""
        adj = self.rules
        if game.over:
            return Verdict("ending", "rules", game.outcome)
        if adj.max_plies and len(game.plies) >= adj.max_plies:
            if not adj.cap_is_draw:
                return Verdict("ending", "ply_cap")
            from tafl_desktop.i18n import _

            return Verdict("ending", "ply_cap", Outcome(None, "draw_agreed"),
                           text=_("adjudicated a draw at the {n}-ply cap").format(n=adj.max_plies))
        if adj.max_seconds and time.monotonic() - self.started >= adj.max_seconds:
            return Verdict("stopped", "stopped")
        return None

    def after_move(self, game: Game[Any], side: Side, reply: Reply, label: str = "") -> Verdict:
        """What the game comes to once ``reply``'s move is on the board: the rules' ending, a
        result the search proves, a resignation by score, or it goes on."""
        adj = self.rules
        if game.over:
            return Verdict("ending", "rules", game.outcome, move=reply.move)
        if adj.proven and reply.mate_in is not None:
            from tafl_desktop.i18n import ngettext

            loser = side.other if reply.mate_in > 0 else side
            n = abs(reply.mate_in)
            return Verdict("ending", "proven", Outcome(loser.other, "resigned"), move=reply.move,
                           text=ngettext("adjudicated: the search proves the result in {n} ply",
                                         "adjudicated: the search proves the result in {n} plies", n).format(n=n))
        s = int(side)
        if adj.resign_moves and reply.score is not None:
            self.low_scores[s] = self.low_scores[s] + 1 if reply.score <= -adj.resign_score else 0
            if self.low_scores[s] >= adj.resign_moves:
                from tafl_desktop.i18n import ngettext

                return Verdict("ending", "resigned", Outcome(side.other, "resigned"), move=reply.move,
                               text=ngettext("{player} resigned: its score stayed lost for {n} move",
                                             "{player} resigned: its score stayed lost for {n} moves",
                                             adj.resign_moves).format(player=label, n=adj.resign_moves))
        return Verdict("move", move=reply.move)


def _over_time(tc: TimeControl, clocks: list[float], side: int, budget: Budget, spent: float) -> bool:
    """Whether a reply that took ``spent`` seconds came too late: past the side's clock (already
    charged with ``spent``), or without a clock past the move's time plus :data:`SEARCH_GRACE`."""
    if tc.clocked:
        return clocks[side] < 0
    return bool(budget.seconds and spent > budget.seconds + SEARCH_GRACE)


def play_game(game: Game[Any], agents: dict[Side, Agent], tc: TimeControl | None = None,
              adjudication: Adjudication | None = None, trusted: bool = False) -> GameResult:
    """Play ``game`` (already holding its opening moves) to its end between ``agents``: ask the
    side to move, judge its reply (:func:`judge`), play the move, let the arbiter look
    (:class:`Arbiter`), until a verdict ends or stops the game.

    ``trusted``: the agents are our own search, whose moves are legal by construction; they are
    played without the referee's check (self-play's speed figures count the search, not a second
    move generation), and a move the rules refuse raises ``IllegalMove``."""
    tc = tc or TimeControl()
    arbiter = Arbiter(adjudication or Adjudication())
    rules = game.rules
    clocks = [tc.base, tc.base]
    while True:
        stop = arbiter.before_asking(game)
        if stop is not None:
            verdict = stop
            break
        side = rules.side_to_move(game.position)
        s = int(side)
        budget = _budget(tc, clocks, s)
        started = time.monotonic()
        reply: Reply = agents[side].think(game, budget)
        spent = time.monotonic() - started
        if tc.clocked:
            clocks[s] -= spent
        label = agents[side].label
        verdict = judge(game, side, reply, label, over_time=_over_time(tc, clocks, s, budget, spent),
                        trusted=trusted)
        if not verdict.goes_on:
            break
        assert verdict.move is not None
        game.play(verdict.move)
        if tc.clocked:
            clocks[s] += tc.increment
        verdict = arbiter.after_move(game, side, reply, label)
        if not verdict.goes_on:
            break
    verdict.settle(game)
    for agent in {id(a): a for a in agents.values()}.values():
        try:
            agent.finish(game)
        except Exception:  # noqa: BLE001 - telling a finished engine the result is a courtesy
            pass
    out = game.outcome
    text = verdict.text
    if not text and out is not None:
        text = out.describe(rules.variant)
    return GameResult(
        winner=out.winner.key if out and out.winner is not None else None,
        ending=verdict.ending,
        reason=out.reason if out else "",
        plies=len(game.plies),
        moves=game.move_texts(),
        failed=verdict.failed.key if verdict.failed is not None else None,
        text=text,
        seconds=round(time.monotonic() - arbiter.started, 3),
    )

"""The players of a match: what a ``--player`` text names, and the agents that play its moves.

A player spec is text, so it travels to worker processes and into a match's file unchanged:

* a level name (``beginner`` ... ``expert``, or ``random``): the computer at that level, as in a
  game in the window (its node budget and deliberate errors; under a clock, ``--tc``, the
  window's budget for that level: :meth:`~tafl_desktop.core.clock.GameClock.think_plan`'s share
  capped by the level's time, stretched at critical moments);
* ``native`` or ``python``, optionally ``:time=S``, ``:nodes=N``, ``:depth=D`` (comma-separated,
  e.g. ``native:nodes=5000,depth=6``): that search engine at full strength (Expert's search
  settings, without its budget) with that budget (the match's ``--time``/``--nodes`` when the
  spec gives none), one thread, so a node budget replays the same game; ``weights=FILE`` (Tafl
  only) plays it with the evaluation weights of FILE (a copy of ``resources/ai/tafl_evaluation.toml``,
  e.g. from the tuner, :mod:`tafl_desktop.ai.tuning.texel`) instead of today's: a tuned set's match;
  under a clock (``--tc``) it budgets the clock as the window's computer does (``clock=plan``, the
  default: :meth:`~tafl_desktop.core.clock.GameClock.think_plan`'s share, stretched at critical
  moments, :mod:`tafl_desktop.ai.clock_budget`), or with ``clock=flat`` the way it did before that
  budgeting (every move the same share, a thirtieth of the time left plus most of the increment,
  used to its end): the two measured against each other by an SPRT;
* ``engine:COMMAND``: an external engine hosted over the OpenTafl Engine Protocol
  (:mod:`tafl_desktop.interop.host`), refereed by our rules;
* ``htp:COMMAND``: an engine speaking hnefatafl.org's Hnefatafl Text Protocol on its stdin, and
  ``htp-host:COMMAND`` (or ``htp-host@PORT:COMMAND``) one started in its ``--host`` mode, which
  connects to us on 127.0.0.1 at port 49152 (or PORT) (:mod:`tafl_desktop.interop.htp_host`);
  hnefatafl.org's Copenhagen only, as the protocol plays no other rules.

Every agent answers :meth:`Agent.think` with a :class:`Reply`: a move (and the search's score
and proof, when it has them), a resignation (an HTP engine's ``play ROLE resigns``), or a failure
of a kind the match records (``crash``, ``timeout``, ``illegal``, ``protocol``).  The game loop
(:mod:`tafl_desktop.game_loop`, the match's :mod:`tafl_desktop.match.loop`) knows nothing else of
them, so a new kind of player is a new agent here.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from tafl_desktop.core.clock import ThinkPlan
from tafl_desktop.core.game import Game
from tafl_desktop.core.quoting import quote
from tafl_desktop.game_loop import SEARCH_GRACE, Agent, Budget, Reply
from tafl_desktop.i18n import _

#: Failure kinds a match records (an agent's own words go with them); "protocol" is an engine
#: that breaks the protocol otherwise (floods us, stops reading, reports an error).
FAILURES = ("crash", "timeout", "illegal", "protocol")
#: The ways a search player may spend a clock (``clock=...``): see the module docstring.
CLOCK_MODES = ("plan", "flat")
#: Seconds an HTP engine's move may take in a match without --time or --tc: its budget is in its own
#: command line (the crate's ``--depth``, ``--seconds``), which the protocol cannot change, so this
#: only finds a hang (AiBasic at depth 3 took more than a minute for a move on a busy two-core box).
HTP_UNTIMED_WAIT = 300.0


class PlayerError(ValueError):
    """A player spec that names no player; the message is one line."""


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed ``--player`` text: ``kind`` is "level", "search", "engine" or "htp" (``port`` 0: on
    its stdin; else the port it connects to in its ``--host`` mode)."""

    text: str
    kind: str
    level: str = ""
    engine: str = ""
    time: float = 0.0
    nodes: int = 0
    depth: int = 0
    command: str = ""
    port: int = 0
    #: A weights file for the Tafl evaluation ("" = today's weights).
    weights: str = ""
    #: How a search spends a clock: "plan" (the clock budgeting) or "flat" (one share a move).
    clock: str = "plan"

    @property
    def label(self) -> str:
        """The player's name in reports and game files."""
        return self.text


_ENGINE_KEYS = {"time": float, "nodes": int, "depth": int}


def parse_player(text: str) -> PlayerSpec:
    """The player ``text`` names; PlayerError (one line) otherwise."""
    from tafl_desktop.ai.levels import LEVELS

    raw = (text or "").strip()
    head, sep, rest = raw.partition(":")
    name = head.strip().lower()
    if not sep and name in LEVELS:
        return PlayerSpec(raw, "level", level=name)
    if name == "engine":
        if not rest.strip():
            raise PlayerError(_("player {spec}: give the engine's command after 'engine:'").format(spec=quote(raw)))
        return PlayerSpec(raw, "engine", command=rest.strip())
    if name == "htp" or name == "htp-host" or name.startswith("htp-host@"):
        return _htp_spec(raw, name, rest.strip())
    if name in ("native", "python"):
        values: dict[str, Any] = {}
        for item in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, value = item.partition("=")
            key = key.strip().lower()
            if eq and key == "weights":
                values["weights"] = _weights_path(raw, value.strip())
                continue
            if eq and key == "clock":
                values["clock"] = value.strip().lower()
                if values["clock"] not in CLOCK_MODES:
                    raise PlayerError(_("player {spec}: clock is plan or flat").format(spec=quote(raw)))
                continue
            if not eq or key not in _ENGINE_KEYS:
                raise PlayerError(_("player {spec}: use time=S, nodes=N, depth=D, weights=FILE or clock=flat").format(
                    spec=quote(raw)))
            try:
                number = _ENGINE_KEYS[key](value.strip())
            except ValueError:
                number = -1
            if not 0 < number <= (3600 if key == "time" else 64 if key == "depth" else 10**9):
                raise PlayerError(_("player {spec}: {key} is out of range").format(spec=quote(raw), key=key))
            values[key] = number
        return PlayerSpec(raw, "search", engine=name, **values)
    raise PlayerError(_("player {spec} is not a level ({levels}), native:..., python:..., engine:COMMAND, "
                        "htp:COMMAND or htp-host:COMMAND").format(spec=quote(raw[:60]), levels=", ".join(LEVELS)))


def _htp_spec(raw: str, name: str, command: str) -> PlayerSpec:
    """``htp:COMMAND``, ``htp-host:COMMAND`` or ``htp-host@PORT:COMMAND`` as a spec."""
    from tafl_desktop.interop.htp_host import HTP_PORT

    if not command:
        raise PlayerError(_("player {spec}: give the engine's command after '{head}:'").format(
            spec=quote(raw[:60]), head=name))
    port = 0
    if name.startswith("htp-host"):
        _head, at, number = name.partition("@")
        port = HTP_PORT
        if at:
            port = int(number) if number.isdigit() else 0
            if not 1024 <= port <= 65535:
                raise PlayerError(_("player {spec}: the port must be from 1024 to 65535").format(spec=quote(raw[:60])))
    return PlayerSpec(raw, "htp", command=command, port=port)


def _weights_path(raw: str, path: str) -> str:
    """``path`` if it is a readable weights file of the Tafl evaluation; PlayerError (one line) otherwise."""
    from tafl_desktop.ai.evaluation_tafl import load_weights

    try:
        load_weights(path)
    except ValueError as exc:
        raise PlayerError(_("player {spec}: {error}").format(spec=quote(raw[:60]), error=exc)) from None
    return path


def spec_weights(spec: PlayerSpec, rules: Any) -> dict[str, int] | None:
    """The evaluation weights ``spec`` plays with in ``rules``' game (None: today's); the file's
    ``[variants.<id>]`` section for the game, if it has one, over its ``[weights]``."""
    if not spec.weights:
        return None
    from tafl_desktop.ai.evaluation_tafl import load_weights, variant_id

    return load_weights(spec.weights, variant_id(rules))


def history_keys(game: Game) -> list[Any]:
    """The position keys of the game so far (repetition rules need them)."""
    rules = game.rules
    return [rules.position_key(game.start)] + [rules.position_key(p.position) for p in game.plies]


class SearchAgent:
    """Our own search: a level (its errors included) or an engine at a fixed budget."""

    def __init__(self, spec: PlayerSpec, rules: Any, seed: int, move_time: float = 0.0, nodes: int = 0) -> None:
        from tafl_desktop.ai.player import ComputerPlayer

        self.label = spec.label
        self.spec = spec
        if spec.kind == "level":
            self.player = ComputerPlayer(rules, spec.level, seed=seed)
            self.move_time = move_time
        else:
            level = "expert"
            self.player = ComputerPlayer(rules, level, seed=seed, engine=spec.engine, weights=spec_weights(spec, rules))
            self.move_time = spec.time or (0.0 if spec.nodes else move_time)
        self.nodes = spec.nodes or (0 if spec.time else nodes)

    def think(self, game: Game, budget: Budget) -> Reply:
        seconds = budget.seconds or self.move_time
        keys = history_keys(game)
        if self.spec.kind == "level":  # the level as it plays, its errors included
            plan = budget.plan_within(self.player.level.time)
            if plan is not None:  # under a clock: the window's budget for the level (its time the cap)
                res = self.player.choose(game.position, keys, time_limit=plan.hard, soft_limit=plan.soft)
            else:
                res = self.player.choose(game.position, keys, time_limit=seconds or None)
        else:
            assert self.player.searcher is not None
            # Expert's search (selective, quiescence with captures, no errors) at this budget
            limits = self.player.limits(side=int(game.rules.side_to_move(game.position)))
            limits.time, limits.nodes, limits.depth = seconds, self.nodes, self.spec.depth or 64
            if budget.plan is not None and self.spec.clock == "plan":
                res = self._planned(game, limits, keys, budget.plan)
            else:  # a fixed time a move, or a clock's flat share: used to its end
                res = self.player.searcher.search(game.position, limits, keys, None, self.player.rng)
        if res.move is None:
            return Reply(failure="illegal", text=_("{player} found no move").format(player=self.label))
        return Reply(res.move, score=res.score if res.depth else None, mate_in=res.mate_in if res.depth else None)

    def _planned(self, game: Game, limits: Any, keys: list[Any], plan: ThinkPlan) -> Any:
        """The search under the clock's plan, as the window's computer thinks: it may run to the
        hard limit, and stops once its share is used (stretched when the best move changes or
        the score falls, shortened when the best move has settled)."""
        from tafl_desktop.ai.clock_budget import SoftDeadline

        assert self.player.searcher is not None
        limits.time = plan.hard
        soft = SoftDeadline(plan.soft)
        return self.player.searcher.search(game.position, limits, keys, soft.should_stop, self.player.rng,
                                           soft.on_iteration)

    def finish(self, game: Game) -> None:
        """Nothing to tell: our searchers keep no state between games that matters."""

    def close(self) -> None:
        """Nothing to release."""


class HostedAgent:
    """An external engine over the OpenTafl Engine Protocol, its moves checked by our rules."""

    def __init__(self, spec: PlayerSpec, label: str) -> None:
        from tafl_desktop.interop.host import EngineFailure, HostedEngine

        self.label = label
        self.spec = spec
        try:
            self.engine: Any = HostedEngine(spec.command, label=label)
            self.start_error = ""
        except EngineFailure as exc:
            self.engine = None
            self.start_error = str(exc)

    def think(self, game: Game, budget: Budget) -> Reply:
        from tafl_desktop.interop.host import EngineFailure, next_event

        if self.engine is None:
            return Reply(failure="crash", text=self.start_error)
        per_move = max(1, int((budget.seconds or 60.0) * 1000))
        try:
            if budget.clock_ms is not None:
                self.engine.request_move(game, budget.clock_ms)
            else:  # per-move time, told as one overtime period a move (the host's convention)
                self.engine.request_move(game, (per_move, per_move), (per_move // 1000 or 1, 1, 1), (True, True))
        except EngineFailure as exc:
            return Reply(failure=self.engine.failure_kind or "crash", text=str(exc))
        event = next_event(self.engine)
        if event.kind == "move":
            return Reply(tuple(event.move))
        kind = self.engine.failure_kind if self.engine.failure_kind in FAILURES else "protocol"
        return Reply(failure=kind, text=event.text)

    def finish(self, game: Game) -> None:
        if self.engine is not None and not self.engine.dead:
            self.engine.finish(game)

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


class HtpAgent:
    """An engine over hnefatafl.org's Hnefatafl Text Protocol (on its stdin, or connected to us in its
    ``--host`` mode), its moves checked by our rules; one process per game, as the protocol has no
    new-game command."""

    def __init__(self, spec: PlayerSpec, label: str) -> None:
        from tafl_desktop.interop.host import EngineFailure
        from tafl_desktop.interop.htp_host import HTP_PORT, HtpHostedEngine

        self.label = label
        self.spec = spec
        self.start_error, self.start_kind = "", "crash"
        try:
            self.engine: Any = HtpHostedEngine(spec.command, label=label, host_mode=spec.port > 0,
                                               port=spec.port or HTP_PORT)
        except EngineFailure as exc:
            self.engine, self.start_error = None, str(exc)
            return
        # in --host mode the engine connects before the game: its start-up is not its first move's time
        while not self.engine.connected and not self.engine.dead:
            if self.engine.poll() is None:
                time.sleep(0.005)
        if self.engine.dead:
            self.start_error, self.start_kind = self.engine.dead, self.engine.failure_kind or "crash"

    def think(self, game: Game, budget: Budget) -> Reply:
        from tafl_desktop.interop.host import EngineFailure, next_event

        if self.engine is None or self.start_error:
            return Reply(failure=self.start_kind, text=self.start_error)
        side = int(game.rules.side_to_move(game.position))
        if budget.clock_ms is not None:  # its clock, and the grace the match allows
            self.engine.move_seconds = budget.clock_ms[side] / 1000 + SEARCH_GRACE
        else:
            self.engine.move_seconds = budget.seconds + SEARCH_GRACE if budget.seconds else HTP_UNTIMED_WAIT
        try:
            self.engine.request_move(game)
        except EngineFailure as exc:
            return Reply(failure=self.engine.failure_kind or "protocol", text=str(exc))
        event = next_event(self.engine)
        if event.kind == "move":
            return Reply(tuple(event.move))
        if event.kind == "resigned":
            return Reply(resigned=True, text=event.text)
        kind = self.engine.failure_kind if self.engine.failure_kind in FAILURES else "protocol"
        return Reply(failure=kind, text=event.text)

    def finish(self, game: Game) -> None:
        """Nothing to tell: the protocol has no command for a game's end."""

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


def make_agent(spec: PlayerSpec, rules: Any, seed: int, move_time: float = 0.0, nodes: int = 0) -> Agent:
    """The agent that plays ``spec`` in one game of ``rules``."""
    if spec.kind == "engine":
        return HostedAgent(spec, spec.label[:60])
    if spec.kind == "htp":
        return HtpAgent(spec, spec.label[:60])
    return SearchAgent(spec, rules, seed, move_time, nodes)


def seed_for(base: int, game_index: int, side: int) -> int:
    """A game's seed for one side's player: the same match seed replays the same choices."""
    return random.Random(f"{base}:{game_index}:{side}").randrange(2**31)

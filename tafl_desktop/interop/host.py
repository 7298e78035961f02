"""Hosting external engines over the OpenTafl Engine Protocol, with our rules as referee.

Headless (threads and queues, no Qt), so the window polls it from a timer and the tests drive
it directly.  As OpenTafl does (turn2-research.md 4.1): ``rules`` goes out at once, the engine's
``hello`` is awaited for 5 s, and before each ``play`` come ``opponent-move`` (the moves since
the engine last moved, and the position) and ``clock`` (milliseconds).  Every move an engine
sends is checked by our rules: an illegal one, garbage, a crash or silence past its clock ends
the game with a sentence saying which engine failed and how.

The process itself is run by :class:`~tafl_desktop.interop.engine_process.EngineProcess`: its own
process group, a writer thread behind a bounded queue, a reader thread, and a watcher that
notices its exit (not the end of its output) at once.  So no call here writes to a pipe or waits:
:meth:`HostedEngine.poll` handles at most :data:`LINES_PER_POLL` lines in at most
:data:`POLL_BUDGET` seconds, and an engine that stops reading, floods us with requests, crashes
or falls silent is failed with one sentence and its whole process group ended.

Without a game clock, each move has :data:`NO_CLOCK_MOVE_SECONDS` seconds, told to the engine in
OpenTafl's own terms as one overtime period per move (``clock 60000* 60000* 60 1 1``: main time
used up, 60 s left in the current period, one period each, which a move made in time keeps), so a
silent engine is found within a minute and a well-behaved one knows its budget.
"""

from __future__ import annotations

import os
import queue
import shlex
import time
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.marks import Num
from tafl_desktop.core.rules_string import to_rules_string
from tafl_desktop.game_loop import Adjudication, Budget, Reply, play_game
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.interop.engine import position_record
from tafl_desktop.interop.engine_process import TOO_LONG, EngineProcess

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

#: Seconds an engine has to say ``hello`` (OpenTafl's 20 tries of 250 ms).
HELLO_TIMEOUT = 5.0
#: Seconds past its clock before a silent engine counts as hung (pipes and start-up).
GRACE = 2.0
#: Seconds each move may take when the game has no clock (told as one overtime period).
NO_CLOCK_MOVE_SECONDS = 60
#: Seconds after its process exits within which an engine's last lines are still read.
LATE_LINES = 0.2
#: Most lines one poll handles, and the longest it spends on them (s): the window's frame.
LINES_PER_POLL = 64
POLL_BUDGET = 0.008
#: Requests (``rules``, ``position``, ``side``) an engine may make per move before it counts as
#: flooding: OpenTafl's own engine asks at most once or twice.
MAX_REQUESTS_PER_MOVE = 200


class EngineFailure(Exception):
    """An engine that cannot go on; the message is one sentence for the player."""


@dataclass
class EngineEvent:
    """What polling an engine produced: ``kind`` is "move" (``move`` set) or "failed" (``text``)."""

    kind: str
    move: tuple[int, ...] = ()
    text: str = ""


def split_command(command: str) -> list[str]:
    """An engine's command line as arguments (shell-like quoting, no shell)."""
    try:
        args = shlex.split(command, posix=os.name != "nt")
    except ValueError as exc:
        raise EngineFailure(_("the engine command cannot be read: {problem}").format(problem=exc)) from None
    if not args:
        raise EngineFailure(_("the engine command is empty"))
    return args


def stopped_text(process: EngineProcess, label: str) -> str:
    """One line saying why an engine's process is gone: it could not start, or it stopped (with its
    exit code when it gave one). Shared by the OpenTafl and the HTP hosts."""
    if process.start_error:
        return _("the engine '{engine}' cannot be started: {problem}").format(
            engine=label, problem=process.start_error)
    text = _("the engine '{engine}' stopped running").format(engine=label)
    if process.exit_code not in (None, 0):
        text += " " + _("(exit code {code})").format(code=process.exit_code)
    return text


class HostedEngine:
    """One external engine playing one game through our referee."""

    def __init__(self, command: str, label: str = "") -> None:
        self.command = command
        args = split_command(command)
        name = os.path.basename(args[0])
        try:
            self.process = EngineProcess(args)
        except OSError as exc:
            raise EngineFailure(_("the engine '{engine}' cannot be started: {problem}").format(
                engine=name, problem=exc.strerror or exc)) from None
        self.label = label or name
        self.started = time.monotonic()
        self.hello = False
        self.dead = ""
        #: What kind of failure ``dead`` is (see :meth:`_fail`).
        self.failure_kind = ""
        self.status = ""
        self._known: list[tuple[int, ...]] = []
        self._variant: Variant | None = None
        self._rules_text = ""
        self._deadline: float | None = None
        self._game: Game | None = None
        self._side: Side | None = None
        self._requests = 0
        self._output_ended_at: float | None = None

    # ---------------------------------------------------------------------------- sending
    def _send(self, line: str) -> None:
        """Queue a line (never blocks); an engine that leaves too much unread is failed."""
        if not self.process.send(line) and self.process.not_reading and not self.dead:
            self._fail(_("the engine '{engine}' does not read what it is sent").format(engine=self.label))

    def _send_rules(self, game: Game) -> None:
        rules = game.rules
        if self._variant is not rules.variant:
            self._rules_text = to_rules_string(rules.variant).text
        self._send(f"rules {self._rules_text}")
        self._variant = rules.variant
        self._known = []
        if game.start != rules.initial_position():
            self._send(f"position {position_record(rules, game.start)}")
            self._send(f"side {rules.side_to_move(game.start).key}")

    def request_move(self, game: Game, clock_ms: tuple[int, int] | None = None,
                     overtime: tuple[int, int, int] = (0, 0, 0),
                     in_overtime: tuple[bool, bool] = (False, False)) -> None:
        """Ask for a move in ``game``'s live position (the engine's side is the side to move).
        ``clock_ms`` is each side's main time left (or, ``in_overtime``, the current period's);
        ``overtime`` is (period seconds, attackers' periods left, defenders' periods left).
        Without ``clock_ms`` (a game without a clock) each move has NO_CLOCK_MOVE_SECONDS.
        Never blocks; EngineFailure when the engine has already failed or exited."""
        if not self.dead and self.process.exited:
            self._exit_failure()
        if self.dead:
            raise EngineFailure(self.dead)
        rules = game.rules
        moves = [p.move for p in game.plies]
        if self._variant is not rules.variant or moves[:len(self._known)] != self._known:
            self._send_rules(game)
        new = moves[len(self._known):]
        if new:
            self._send("opponent-move " + "|".join(rules.move_text(m) for m in new) + " "
                       + position_record(rules, game.position))
        if clock_ms is None:
            per_move = NO_CLOCK_MOVE_SECONDS * 1000
            clock_ms, overtime, in_overtime = (per_move, per_move), (NO_CLOCK_MOVE_SECONDS, 1, 1), (True, True)
        star = ["*" if o else "" for o in in_overtime]
        period_s, att_periods, def_periods = overtime
        self._send(f"clock {clock_ms[0]}{star[0]} {clock_ms[1]}{star[1]} {period_s} {att_periods} {def_periods} ")
        side = rules.side_to_move(game.position)
        self._send(f"play {side.key}")
        if self.dead:
            raise EngineFailure(self.dead)
        self._known = moves
        self._game, self._side = game, side
        self._requests = 0
        i = int(side)
        if in_overtime[i]:  # the current period's time left, and the periods after it
            allowed_s = clock_ms[i] / 1000.0 + max(0, (att_periods, def_periods)[i] - 1) * period_s
        else:
            allowed_s = clock_ms[i] / 1000.0 + max(0, (att_periods, def_periods)[i]) * period_s
        self._deadline = time.monotonic() + allowed_s + GRACE

    def cancel(self) -> None:
        """Forget the request (an undo or a new game); a late answer is dropped."""
        self._deadline = None
        self._game = None

    # ---------------------------------------------------------------------------- receiving
    def _fail(self, text: str, kind: str = "protocol") -> EngineEvent:
        """The engine cannot go on: remember why (and the kind of failure: "crash", "timeout",
        "illegal" or "protocol", for a match's records) and end its process group (without waiting)."""
        if not self.dead:
            self.dead = text
            self.failure_kind = kind
        self._deadline = None
        self.process.close(grace=0.0)
        return EngineEvent("failed", text=self.dead)

    def _exit_failure(self) -> EngineEvent:
        return self._fail(stopped_text(self.process, self.label), "crash")

    def poll(self) -> EngineEvent | None:
        """The engine's answer if it has one.  Never blocks, and returns within about
        POLL_BUDGET seconds however much the engine has written."""
        if self.dead:
            return None
        t0 = time.monotonic()
        for _i in range(LINES_PER_POLL):
            try:
                line = self.process.lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._output_ended_at = self._output_ended_at or time.monotonic()
                break
            event = self._line(line.strip()) if line != TOO_LONG else None
            if event is not None or self.dead:
                return event or EngineEvent("failed", text=self.dead)
            if time.monotonic() - t0 > POLL_BUDGET:
                break
        now = time.monotonic()
        if self.process.exited:  # noticed by the exit, even if a helper holds the output open
            since = now - (self.process.exit_time or now)
            if (since > LATE_LINES and self.process.lines.empty()) or since > 4 * LATE_LINES:
                return self._exit_failure()
        elif self._output_ended_at is not None and now - self._output_ended_at > 1.0:
            return self._fail(_("the engine '{engine}' closed its output").format(engine=self.label), "crash")
        if not self.hello and now - self.started > HELLO_TIMEOUT and self._deadline is not None:
            return self._fail(ngettext("the engine '{engine}' did not say hello within {seconds:g} second",
                                       "the engine '{engine}' did not say hello within {seconds:g} seconds",
                                       Decimal(f"{HELLO_TIMEOUT:g}")).format(
                engine=self.label, seconds=Num(HELLO_TIMEOUT)), "timeout")
        if self._deadline is not None and now > self._deadline:
            return self._fail(_("the engine '{engine}' did not answer within its time").format(engine=self.label),
                              "timeout")
        return None

    def _request(self) -> bool:
        """Count an engine's request; False (and the engine failed) when it floods us."""
        self._requests += 1
        if self._requests > MAX_REQUESTS_PER_MOVE:
            self._fail(ngettext("the engine '{engine}' sent more than {n} request for one move",
                                "the engine '{engine}' sent more than {n} requests for one move",
                                MAX_REQUESTS_PER_MOVE).format(
                engine=self.label, n=MAX_REQUESTS_PER_MOVE))
            return False
        return True

    def _line(self, line: str) -> EngineEvent | None:
        word, _sep, rest = line.partition(" ")
        if word == "hello":
            self.hello = True
        elif word == "status":
            self.status = rest[:200]
        elif word in ("rules", "position", "side") and self._game is not None and self._request():
            if word == "rules":
                self._send(f"rules {self._rules_text}")
            elif word == "position":
                self._send(f"position {position_record(self._game.rules, self._game.position)}")
            elif self._side is not None:
                self._send(f"side {self._side.key}")
        elif word == "error" and rest.split(" ", 1)[0] == "-1":
            return self._fail(_("the engine '{engine}' reported an error: {text}").format(
                engine=self.label, text=_quoted(rest.partition(" ")[2], 200)))
        elif word == "move" and self._game is not None:
            return self._move(rest.strip())
        return None

    def _move(self, text: str) -> EngineEvent:
        game = self._game
        assert game is not None
        from tafl_desktop.interop.engine import _plain

        shown = _quoted(text, 40)
        try:
            move = game.rules.parse_move(game.position, _plain(text))
        except ValueError:
            self._send("error 2")
            return self._fail(_("the engine '{engine}' sent '{shown}', which is not a move").format(
                engine=self.label, shown=shown), "illegal")
        why = game.check(move)
        if why is not None:
            self._send("error 2")
            return self._fail(_("the engine '{engine}' played {shown}, which is illegal: {why}").format(
                engine=self.label, shown=shown, why=why), "illegal")
        self._deadline = None
        self._known = self._known + [move]
        after, _captures = game.rules.play(game.position, move)
        self._send(f"move {position_record(game.rules, after)}")
        self._game = None
        return EngineEvent("move", move=move)

    def finish(self, game: Game) -> None:
        """Tell the engine how the game ended (0 aborted, 1 draw, 2 attackers, 3 defenders)."""
        out = game.outcome
        code = 0 if out is None else 1 if out.winner is None else 2 if out.winner == Side.ATTACKERS else 3
        self.process.send(f"finish {code}")

    def close(self) -> None:
        """``goodbye``; the engine's process group is ended if it does not leave.  Never blocks."""
        self.process.close()


def _quoted(text: str, limit: int) -> str:
    """An engine's words in a message: shortened, control and bidirectional characters escaped."""
    from tafl_desktop.core.quoting import clip

    return clip(text, limit)


def next_event(engine: HostedEngine) -> EngineEvent:
    """A hosted engine's next event (a move, a resignation or a failure): :meth:`HostedEngine.poll`
    never blocks and bounds the wait itself (the engine's clock, its grace), so this only waits
    between polls."""
    while True:
        event = engine.poll()
        if event is not None:
            return event
        time.sleep(0.002)


class _RefereeClocks:
    """The referee's clocks (ms per side, told to the engines, never adjudicated here: each
    engine's host enforces its own time), and whether asking an engine failed outright."""

    def __init__(self, clock_ms: int | None) -> None:
        self.clock_ms = clock_ms
        self.left = [clock_ms or 0, clock_ms or 0]
        self.unasked = False


class _RefereeAgent:
    """A hosted engine as an agent of the game loop: asked with the clocks, its event the reply."""

    def __init__(self, engine: HostedEngine, clocks: _RefereeClocks) -> None:
        self.engine = engine
        self.label = engine.label
        self.clocks = clocks

    def think(self, game: Game, budget: Budget) -> Reply:
        side = int(game.rules.side_to_move(game.position))
        clocks = self.clocks
        t0 = time.monotonic()
        try:
            self.engine.request_move(game, (clocks.left[0], clocks.left[1]) if clocks.clock_ms is not None else None)
        except EngineFailure as exc:
            clocks.unasked = True  # no engine is told the end of a game it could not be asked about
            return Reply(failure="forfeit", text=str(exc))
        event = next_event(self.engine)
        clocks.left[side] -= int((time.monotonic() - t0) * 1000)
        if event.kind == "failed":
            return Reply(failure="forfeit", text=event.text)
        return Reply(event.move)

    def finish(self, game: Game) -> None:
        if not self.clocks.unasked:
            self.engine.finish(game)

    def close(self) -> None:
        """The caller closes its engines."""


def referee(game: Game, engines: dict[Side, HostedEngine], clock_ms: int | None = None,
            max_plies: int = 2000, timeout: float = 600.0) -> str:
    """Let engines play ``game`` to its end under our rules; the sentence saying how it ended.

    Each side's clock starts at ``clock_ms`` and loses the time its engine takes (None: no
    clock, each move has NO_CLOCK_MOVE_SECONDS); a side whose engine fails loses (the game is
    ended with :meth:`Game.resign`).  The game is played by the one headless game loop
    (:mod:`tafl_desktop.game_loop`); past ``max_plies`` plies or ``timeout`` seconds it stops
    unfinished."""
    clocks = _RefereeClocks(clock_ms)
    agents: dict[int, _RefereeAgent] = {}
    for engine in engines.values():  # one agent an engine, told the end once
        agents.setdefault(id(engine), _RefereeAgent(engine, clocks))
    result = play_game(game, {side: agents[id(engine)] for side, engine in engines.items()},
                       adjudication=Adjudication(max_plies=max_plies, proven=False, cap_is_draw=False,
                                                 max_seconds=timeout))
    if result.failed is not None:
        return result.text
    out = game.outcome
    return out.describe(game.rules.variant) if out else ngettext("stopped after {n} move",
                                                                 "stopped after {n} moves",
                                                                 len(game.plies)).format(n=len(game.plies))

"""Hosting external engines over the OpenTafl Engine Protocol, with our rules as referee.

Headless (threads and queues, no Qt), so the window polls it from a timer and the tests drive
it directly.  As OpenTafl does (turn2-research.md 4.1): ``rules`` goes out at once, the engine's
``hello`` is awaited for 5 s, and before each ``play`` come ``opponent-move`` (the moves since
the engine last moved, and the position) and ``clock`` (milliseconds).  Every move an engine
sends is checked by our rules: an illegal one, garbage, a crash or silence past its clock ends
the game with a sentence saying which engine failed and how.
"""

from __future__ import annotations

import os
import queue
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.marks import Num
from tafl_desktop.core.rules_string import to_rules_string
from tafl_desktop.i18n import _
from tafl_desktop.interop.engine import position_record

#: Seconds an engine has to say ``hello`` (OpenTafl's 20 tries of 250 ms).
HELLO_TIMEOUT = 5.0
#: Seconds past its clock before a silent engine counts as hung (pipes and start-up).
GRACE = 2.0
#: Main time per side when the game has no clock of its own (ms).
DEFAULT_CLOCK_MS = 5 * 60 * 1000
#: Longest protocol line we keep (a hostile engine may print megabytes without a newline).
MAX_LINE = 64 * 1024


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


class EngineProcess:
    """An engine's process with a reader thread: lines arrive in a queue, nothing ever blocks."""

    def __init__(self, command: str | list[str], cwd: str | None = None) -> None:
        args = split_command(command) if isinstance(command, str) else list(command)
        self.name = os.path.basename(args[0])
        try:
            self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=cwd, text=True, encoding="utf-8",
                                         errors="replace", bufsize=1)
        except OSError as exc:
            raise EngineFailure(_("the engine '{engine}' cannot be started: {problem}").format(
                engine=self.name, problem=exc.strerror or exc)) from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, name=f"engine-{self.name}", daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            while True:
                line = self.proc.stdout.readline(MAX_LINE)
                if not line:
                    break
                self.lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            pass  # a dead engine is noticed by its reader reaching the end of its output

    def close(self, wait: float = 1.0) -> None:
        """``goodbye``, then the process is ended if it does not leave by itself."""
        if self.proc.poll() is None:
            self.send("goodbye")
            try:
                self.proc.wait(wait)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                try:
                    self.proc.wait(wait)
                except subprocess.TimeoutExpired:
                    pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


class HostedEngine:
    """One external engine playing one game through our referee."""

    def __init__(self, command: str, label: str = "") -> None:
        self.command = command
        self.process = EngineProcess(command)
        self.label = label or self.process.name
        self.started = time.monotonic()
        self.hello = False
        self.dead = ""
        self.status = ""
        self._known: list[tuple[int, ...]] = []
        self._variant = None
        self._deadline: float | None = None
        self._game: Game | None = None
        self._side: Side | None = None

    # ---------------------------------------------------------------------------- sending
    def _send_rules(self, game: Game) -> None:
        rules = game.rules
        self.process.send(f"rules {to_rules_string(rules.variant).text}")
        self._variant = rules.variant
        self._known = []
        if game.start != rules.initial_position():
            self.process.send(f"position {position_record(rules, game.start)}")
            self.process.send(f"side {rules.side_to_move(game.start).key}")

    def request_move(self, game: Game, clock_ms: tuple[int, int] | None = None,
                     overtime: tuple[int, int, int] = (0, 0, 0),
                     in_overtime: tuple[bool, bool] = (False, False)) -> None:
        """Ask for a move in ``game``'s live position (the engine's side is the side to move).
        ``clock_ms`` is each side's main time left (or, ``in_overtime``, the current period's);
        ``overtime`` is (period seconds, attackers' periods left, defenders' periods left)."""
        if self.dead:
            raise EngineFailure(self.dead)
        rules = game.rules
        moves = [p.move for p in game.plies]
        if self._variant is not rules.variant or moves[:len(self._known)] != self._known:
            self._send_rules(game)
        new = moves[len(self._known):]
        if new:
            self.process.send("opponent-move " + "|".join(rules.move_text(m) for m in new) + " "
                              + position_record(rules, game.position))
        clocks = clock_ms or (DEFAULT_CLOCK_MS, DEFAULT_CLOCK_MS)
        star = ["*" if o else "" for o in in_overtime]
        period_s, att_periods, def_periods = overtime
        self.process.send(f"clock {clocks[0]}{star[0]} {clocks[1]}{star[1]} {period_s} {att_periods} {def_periods} ")
        side = rules.side_to_move(game.position)
        self.process.send(f"play {side.key}")
        self._known = moves
        self._game, self._side = game, side
        periods_left = (att_periods, def_periods)[int(side)] - (1 if in_overtime[int(side)] else 0)
        allowed_s = clocks[int(side)] / 1000.0 + max(0, periods_left) * period_s
        self._deadline = time.monotonic() + allowed_s + GRACE

    def cancel(self) -> None:
        """Forget the request (an undo or a new game); a late answer is dropped."""
        self._deadline = None
        self._game = None

    # ---------------------------------------------------------------------------- receiving
    def _fail(self, text: str) -> EngineEvent:
        self.dead = text
        self._deadline = None
        return EngineEvent("failed", text=text)

    def poll(self) -> EngineEvent | None:
        """The engine's answer if it has one (never blocks)."""
        if self.dead:
            return None
        while True:
            try:
                line = self.process.lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                code = self.process.proc.poll()
                return self._fail(f"the engine '{self.label}' stopped running"
                                  + (f" (exit code {code})" if code not in (None, 0) else ""))
            event = self._line(line.strip())
            if event is not None:
                return event
        now = time.monotonic()
        if not self.hello and now - self.started > HELLO_TIMEOUT and self._deadline is not None:
            return self._fail(_("the engine '{engine}' did not say hello within {seconds:g} seconds").format(
                engine=self.label, seconds=Num(HELLO_TIMEOUT)))
        if self._deadline is not None and now > self._deadline:
            return self._fail(_("the engine '{engine}' did not answer within its time").format(engine=self.label))
        return None

    def _line(self, line: str) -> EngineEvent | None:
        word, _sep, rest = line.partition(" ")
        if word == "hello":
            self.hello = True
        elif word == "status":
            self.status = rest[:200]
        elif word == "rules" and self._game is not None:
            self.process.send(f"rules {to_rules_string(self._game.rules.variant).text}")
        elif word == "position" and self._game is not None:
            self.process.send(f"position {position_record(self._game.rules, self._game.position)}")
        elif word == "side" and self._side is not None:
            self.process.send(f"side {self._side.key}")
        elif word == "error" and rest.split(" ", 1)[0] == "-1":
            return self._fail(_("the engine '{engine}' reported an error: {text}").format(
                engine=self.label, text=rest.partition(' ')[2][:200]))
        elif word == "move" and self._game is not None:
            return self._move(rest.strip())
        return None

    def _move(self, text: str) -> EngineEvent:
        game = self._game
        assert game is not None
        from tafl_desktop.interop.engine import _plain

        shown = text[:40]
        try:
            move = game.rules.parse_move(game.position, _plain(text))
        except ValueError:
            self.process.send("error 2")
            return self._fail(_("the engine '{engine}' sent '{shown}', which is not a move").format(
                engine=self.label, shown=shown))
        why = game.check(move)
        if why is not None:
            self.process.send("error 2")
            return self._fail(_("the engine '{engine}' played {shown}, which is illegal: {why}").format(
                engine=self.label, shown=shown, why=why))
        self._deadline = None
        self._known = self._known + [move]
        after, _captures = game.rules.play(game.position, move)
        self.process.send(f"move {position_record(game.rules, after)}")
        self._game = None
        return EngineEvent("move", move=move)

    def finish(self, game: Game) -> None:
        """Tell the engine how the game ended (0 aborted, 1 draw, 2 attackers, 3 defenders)."""
        out = game.outcome
        code = 0 if out is None else 1 if out.winner is None else 2 if out.winner == Side.ATTACKERS else 3
        self.process.send(f"finish {code}")

    def close(self) -> None:
        self.process.close()


def referee(game: Game, engines: dict[Side, HostedEngine], clock_ms: int = DEFAULT_CLOCK_MS,
            max_plies: int = 2000, timeout: float = 600.0) -> str:
    """Let engines play ``game`` to its end under our rules; the sentence saying how it ended.

    Each side's clock starts at ``clock_ms`` and loses the time its engine takes; a side whose
    engine fails loses (the game is ended with :meth:`Game.resign`)."""
    clocks = [clock_ms, clock_ms]
    stop_at = time.monotonic() + timeout
    while not game.over and len(game.plies) < max_plies and time.monotonic() < stop_at:
        side = game.rules.side_to_move(game.position)
        engine = engines[side]
        t0 = time.monotonic()
        try:
            engine.request_move(game, (clocks[0], clocks[1]))
        except EngineFailure as exc:
            game.resign(side, "forfeit")
            return str(exc)
        while True:
            event = engine.poll()
            if event is not None:
                break
            time.sleep(0.002)
        clocks[int(side)] -= int((time.monotonic() - t0) * 1000)
        if event.kind == "failed":
            game.resign(side, "forfeit")
            for e in engines.values():
                e.finish(game)
            return event.text
        game.play(event.move)
    for e in set(engines.values()):
        e.finish(game)
    out = game.outcome
    return out.describe(game.rules.variant) if out else _("stopped after {n} moves").format(n=len(game.plies))

"""Hosting engines that speak hnefatafl.org's Hnefatafl Text Protocol (HTP), our rules as referee.

Two ways, as the crate ``hnefatafl-copenhagen`` 6.4.1 lets its binary ``hnefatafl-text-protocol``
be driven (``src/bin/hnefatafl-text-protocol.rs``):

* **stdin**: we write ``play ROLE FROM TO`` for every move the engine has not seen and then
  ``generate_move``; each command is answered on its standard output with ``= ...`` or ``? ...``
  (the answer to ``generate_move`` is ``= play ROLE FROM TO``, which the crate's binary follows
  with ``, score: ..., delay milliseconds: ...``).  In this mode the crate's binary
  plays its AiBasic at depth 4 whatever it is told.
* **host** (its ``--host`` mode, where it takes ``--ai``, ``--seconds`` and ``--depth``): we listen
  on 127.0.0.1 only, at :data:`HTP_PORT` unless told another port (the crate's binary always
  connects to port 49152: ``SERVER_PORT`` in ``src/lib.rs``), start the engine, take its one
  connection, and over it send ``play ROLE FROM TO`` (no answer) and ``generate_move``, answered
  with a bare ``play ROLE FROM TO`` line.  Its standard output is read and dropped.

The process runs as the OpenTafl host runs one
(:class:`~tafl_desktop.interop.engine_process.EngineProcess`: its own process group, bounded lines
and queues, its exit noticed at once).  Every move it sends is checked by our rules; a resignation
(``play ROLE resigns``) ends the game as a resignation; garbage, an illegal move, a refusal of our
move, a crash, a closed connection or silence past :data:`MOVE_SECONDS` end it with one sentence,
and the process group is ended.  Nothing here blocks: :meth:`HtpHostedEngine.poll` handles what
has arrived, so the window can poll it from a timer like the OpenTafl host.
"""

from __future__ import annotations

import contextlib
import os
import queue
import socket
import threading
import time
from collections.abc import Callable

from tafl_desktop.core.game import Game, Move, Side
from tafl_desktop.game_loop import Adjudication, Budget, Reply, play_game
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.interop.engine import TOO_LONG as READ_TOO_LONG
from tafl_desktop.interop.engine import read_protocol_lines
from tafl_desktop.interop.engine_process import TOO_LONG, EngineProcess
from tafl_desktop.interop.host import EngineEvent, EngineFailure, _quoted, split_command, stopped_text

#: The port the crate's binary connects to in its ``--host`` mode.
HTP_PORT = 49152
#: Seconds a move may take, and the engine has to connect in host mode.
MOVE_SECONDS = 60.0
CONNECT_SECONDS = 20.0
#: Longest line read from the connection (bytes), most lines read from it ahead, most stray
#: lines (neither ``=`` nor ``?``) taken on the standard output per move.
MAX_LINE = 4096
MAX_QUEUED = 256
MAX_STRAY = 10_000
#: The rules the site plays (HTP has no way to tell an engine other rules).
SITE_PRESETS = ("copenhagen_org", "copenhagen")
ROLE = {Side.ATTACKERS: "attacker", Side.DEFENDERS: "defender"}


def htp_plays(variant) -> bool:
    """Whether an HTP engine can play ``variant``: the protocol tells an engine no rules, so only
    the site's own (a preset of SITE_PRESETS with its rules unchanged)."""
    from tafl_desktop.core.variants import presets

    preset = presets().get(variant.id) if variant.id in SITE_PRESETS else None
    return preset is not None and variant.options == preset.options and variant.setup == preset.setup


def htp_player(text: str) -> tuple[str, int] | None:
    """An HTP engine as a window's player names it (the text after ``engine:``): ``htp:COMMAND``
    on its stdin gives (COMMAND, 0); ``htp-host:COMMAND`` or ``htp-host@PORT:COMMAND`` in its
    ``--host`` mode gives (COMMAND, HTP_PORT or PORT).  None for an OpenTafl engine's command line."""
    head, sep, command = text.partition(":")
    head = head.strip().lower()
    if not sep or not command.strip():
        return None
    if head == "htp":
        return command.strip(), 0
    name, at, number = head.partition("@")
    if name != "htp-host":
        return None
    if not at:
        return command.strip(), HTP_PORT
    return (command.strip(), int(number)) if number.isdigit() and 1024 <= int(number) <= 65535 else None


class HtpHostedEngine:
    """One HTP engine playing one game through our referee (stdin or host mode)."""

    def __init__(self, command: str, label: str = "", host_mode: bool = False, port: int = HTP_PORT,
                 move_seconds: float = MOVE_SECONDS) -> None:
        args = split_command(command)
        self.move_seconds = move_seconds
        name = os.path.basename(args[0])
        self.label = label or name
        self.host_mode = host_mode
        self.dead = ""
        #: What kind of failure ``dead`` is ("crash", "timeout", "illegal" or "protocol"), for a
        #: match's records as the OpenTafl host keeps it.
        self.failure_kind = ""
        self._known: list[Move] = []
        self._game: Game | None = None
        self._side: Side | None = None
        self._deadline: float | None = None
        self._answers_due = 0  # stdin mode: answers still owed to our play commands
        self._stray = 0
        self._conn: socket.socket | None = None
        self._conn_lines: queue.Queue[str | None] = queue.Queue(MAX_QUEUED)
        self._listener: socket.socket | None = None
        if host_mode:
            if not 1024 <= port <= 65535:
                raise EngineFailure(_("the port must be from 1024 to 65535, not {port}").format(port=port))
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                listener.bind(("127.0.0.1", port))  # loopback only: never reachable from the network
            except OSError as exc:
                listener.close()
                raise EngineFailure(_("cannot listen on 127.0.0.1 port {port}: {problem}").format(
                    port=port, problem=exc.strerror or exc)) from None
            listener.listen(1)
            listener.settimeout(CONNECT_SECONDS)
            self._listener = listener
        try:
            self.process = EngineProcess(args)
        except OSError as exc:
            self._close_sockets()
            raise EngineFailure(_("the engine '{engine}' cannot be started: {problem}").format(
                engine=name, problem=exc.strerror or exc)) from None
        self.started = time.monotonic()
        if host_mode:
            threading.Thread(target=self._accept, name="htp-accept", daemon=True).start()

    # ---------------------------------------------------------------------------- connection
    def _accept(self) -> None:
        assert self._listener is not None
        try:
            conn, _addr = self._listener.accept()
        except OSError:
            self._conn_lines.put(None)
            return
        finally:
            with contextlib.suppress(OSError):
                self._listener.close()
        conn.settimeout(None)  # silence is judged by the move deadline in poll()
        self._conn = conn
        try:
            for line in read_protocol_lines(conn.makefile("rb"), MAX_LINE):
                self._conn_lines.put(line)  # blocks when we lag: the engine then waits on TCP
        except OSError:
            pass
        self._conn_lines.put(None)

    def _close_sockets(self) -> None:
        for s in (self._conn, self._listener):
            if s is not None:
                with contextlib.suppress(OSError):
                    s.close()

    def _send(self, line: str) -> None:
        if self.host_mode:
            if self._conn is None:
                raise EngineFailure(_("the engine '{engine}' has not connected").format(engine=self.label))
            try:
                self._conn.sendall((line + "\n").encode("ascii"))
            except OSError:
                self._fail(_("the engine '{engine}' closed the connection").format(engine=self.label), "crash")
        elif not self.process.send(line) and not self.dead:
            self._fail(_("the engine '{engine}' does not read what it is sent").format(engine=self.label))

    # ---------------------------------------------------------------------------- requests
    @property
    def connected(self) -> bool:
        return not self.host_mode or self._conn is not None

    def request_move(self, game: Game) -> None:
        """Ask for a move in ``game``'s live position.  Never blocks; EngineFailure when the engine
        has failed, cannot follow the game (another variant, a set-up start) or, in host mode, has
        not connected yet (:attr:`connected`)."""
        if not self.dead and self.process.exited:
            self._exit_failure()
        if self.dead:
            raise EngineFailure(self.dead)
        rules = game.rules
        if rules.variant.id not in SITE_PRESETS or game.start != rules.initial_position():
            raise EngineFailure(_("the engine '{engine}' speaks the Hnefatafl Text Protocol, which plays "
                                  "hnefatafl.org's Copenhagen from its start only").format(engine=self.label))
        moves = [p.move for p in game.plies]
        if moves[:len(self._known)] != self._known:
            raise EngineFailure(_("the engine '{engine}' cannot take back moves").format(engine=self.label))
        for i in range(len(self._known), len(moves)):
            side = Side.ATTACKERS if i % 2 == 0 else Side.DEFENDERS
            frm, to = moves[i]
            self._send(f"play {ROLE[side]} {rules.geometry.name(frm)} {rules.geometry.name(to)}")
            if not self.host_mode:
                self._answers_due += 1
        self._send("generate_move")
        if self.dead:
            raise EngineFailure(self.dead)
        self._known = moves
        self._game, self._side = game, rules.side_to_move(game.position)
        self._stray = 0
        self._deadline = time.monotonic() + self.move_seconds

    # ---------------------------------------------------------------------------- receiving
    def _fail(self, text: str, kind: str = "protocol") -> EngineEvent:
        if not self.dead:
            self.dead = text
            self.failure_kind = kind
        self._deadline = None
        self._close_sockets()
        self.process.close(grace=0.0)
        return EngineEvent("failed", text=self.dead)

    def _exit_failure(self) -> EngineEvent:
        return self._fail(stopped_text(self.process, self.label), "crash")

    def poll(self) -> EngineEvent | None:
        """The engine's answer if it has one ("move", "resigned" or "failed"); never blocks."""
        if self.dead:
            return None
        for _i in range(64):  # the standard output: answers in stdin mode, dropped in host mode
            try:
                line = self.process.lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                break
            if self.host_mode:
                continue
            event = self._answer(line.strip()) if line != TOO_LONG else self._fail(
                _("the engine '{engine}' sent a line that is too long").format(engine=self.label))
            if event is not None:
                return event
        if self.host_mode:
            for _i in range(64):
                try:
                    conn_line = self._conn_lines.get_nowait()
                except queue.Empty:
                    break
                if conn_line is None:
                    return self._fail(_("the engine '{engine}' closed the connection").format(engine=self.label),
                                      "crash")
                if conn_line == READ_TOO_LONG:
                    return self._fail(_("the engine '{engine}' sent a line that is too long").format(
                        engine=self.label))
                if conn_line.strip():
                    return self._move(conn_line.strip())
        if self.process.exited and self.process.lines.empty() and self._conn_lines.empty():
            return self._exit_failure()
        now = time.monotonic()
        if self.host_mode and self._conn is None and now - self.started > CONNECT_SECONDS + 1:
            return self._fail(ngettext("the engine '{engine}' did not connect within {seconds:g} second",
                                       "the engine '{engine}' did not connect within {seconds:g} seconds",
                                       int(CONNECT_SECONDS)).format(engine=self.label, seconds=CONNECT_SECONDS),
                              "timeout")
        if self._deadline is not None and now > self._deadline:
            return self._fail(_("the engine '{engine}' did not answer within its time").format(engine=self.label),
                              "timeout")
        return None

    def _answer(self, line: str) -> EngineEvent | None:
        """One line of the engine's standard output in stdin mode."""
        if not line:
            return None
        mark, _sep, rest = line.partition(" ")
        if mark == "?":
            return self._fail(_("the engine '{engine}' refused a move: {text}").format(
                engine=self.label, text=_quoted(rest, 200)))
        if mark != "=":
            self._stray += 1
            if self._stray > MAX_STRAY:
                return self._fail(_("the engine '{engine}' sent more than {n} lines for one move").format(
                    engine=self.label, n=MAX_STRAY))
            return None
        if self._answers_due:
            self._answers_due -= 1
            return None
        return self._move(rest.strip())

    def _move(self, text: str) -> EngineEvent:
        game, side = self._game, self._side
        if game is None or side is None:
            return self._fail(_("the engine '{engine}' sent '{shown}' unasked").format(
                engine=self.label, shown=_quoted(text, 40)))
        # the crate's binary follows the move with ", score: ..., delay milliseconds: ..." on stdin
        words = text.split(",", 1)[0].split()
        shown = _quoted(text, 60)
        if len(words) >= 3 and words[0] == "play" and words[2] == "resigns":
            self._deadline, self._game = None, None
            return EngineEvent("resigned", text=_("the engine '{engine}' resigned").format(engine=self.label))
        if len(words) != 4 or words[0] != "play" or words[1] != ROLE[side]:
            return self._fail(_("the engine '{engine}' sent '{shown}', which is not a move").format(
                engine=self.label, shown=shown), "illegal")
        try:
            move = game.rules.parse_move(game.position, f"{words[2]}-{words[3]}")
        except ValueError:
            return self._fail(_("the engine '{engine}' sent '{shown}', which is not a move").format(
                engine=self.label, shown=shown), "illegal")
        why = game.check(move)
        if why is not None:
            return self._fail(_("the engine '{engine}' played {shown}, which is illegal: {why}").format(
                engine=self.label, shown=shown, why=why), "illegal")
        self._deadline, self._game = None, None
        self._known = self._known + [move]
        return EngineEvent("move", move=move)

    def follows(self, game: Game) -> bool:
        """Whether ``game`` extends the moves the engine has played (it cannot take any back)."""
        return [p.move for p in game.plies][:len(self._known)] == self._known

    def cancel(self) -> None:
        """Forget the request (an undo, a new game).  The protocol cannot take back a move the
        engine may already have made for itself, so an engine asked for a move is ended: the next
        request starts a fresh one, told every move again."""
        if self._game is not None and not self.dead:
            self._fail(_("the engine '{engine}' was stopped before it moved").format(engine=self.label))
        self._deadline, self._game = None, None

    def finish(self, game: Game) -> None:
        """Nothing to tell: the protocol has no command for a game's end."""

    def close(self) -> None:
        """``quit`` (stdin mode) or the connection closed (host mode); the process group is ended
        if the engine does not leave.  Never blocks."""
        if not self.host_mode and not self.process.exited:
            self.process.send("quit")
        self._close_sockets()
        self.process.close()


class _OurMove:
    """The side ``our_move(game)`` plays, as an agent of the game loop."""

    def __init__(self, our_move: Callable[[Game], Move]) -> None:
        self.label = "ours"
        self.our_move = our_move

    def think(self, game: Game, budget: Budget) -> Reply:
        return Reply(tuple(self.our_move(game)))

    def finish(self, game: Game) -> None:
        """Nothing to tell."""

    def close(self) -> None:
        """Nothing to release."""


class _HtpAgent:
    """An HTP engine as an agent of the game loop: waited for until it has connected (``--host``
    mode), then asked; a resignation or a failure is its reply.  ``stopped`` is set when
    ``should_stop()`` broke off the wait."""

    def __init__(self, engine: HtpHostedEngine, should_stop: Callable[[], bool] | None) -> None:
        self.engine = engine
        self.label = engine.label
        self.should_stop = should_stop
        self.stopped = False

    def think(self, game: Game, budget: Budget) -> Reply:
        engine = self.engine
        while not engine.connected and not engine.dead:
            if engine.poll() is not None:
                break
            time.sleep(0.01)
        try:
            engine.request_move(game)
        except EngineFailure as exc:
            return Reply(failure="forfeit", text=str(exc))
        while True:
            if self.should_stop is not None and self.should_stop():
                self.stopped = True
                return Reply()  # no move: the loop stops the game where it is
            event = engine.poll()
            if event is None:
                time.sleep(0.005)
                continue
            if event.kind == "move":
                return Reply(tuple(event.move))
            if event.kind == "resigned":
                return Reply(resigned=True, text=event.text)
            return Reply(failure="forfeit", text=event.text)

    def finish(self, game: Game) -> None:
        """The protocol has no word for a game's end; the caller closes the engine."""

    def close(self) -> None:
        """The caller closes the engine."""


def play_hosted_game(game: Game, engines: dict[Side, HtpHostedEngine | None], our_move: Callable[[Game], Move],
                     max_plies: int = 1000, should_stop: Callable[[], bool] | None = None) -> str:
    """Play ``game`` to its end (blocking: matches and tests, never the window): each side's
    engine, or ``our_move(game)`` where it is None.  Returns "" or the sentence that ended it
    ("stopped" when ``should_stop()`` broke it off).  The game is played by the one headless game
    loop (:mod:`tafl_desktop.game_loop`), our rules playing every move (one the rules refuse
    raises ``IllegalMove``; the engine's host has refereed the engine's already)."""
    ours = _OurMove(our_move)
    agents: dict[Side, _OurMove | _HtpAgent] = {}
    for side in (Side.ATTACKERS, Side.DEFENDERS):
        engine = engines.get(side)
        agents[side] = ours if engine is None else _HtpAgent(engine, should_stop)
    result = play_game(game, dict(agents), adjudication=Adjudication(max_plies=max_plies, proven=False,
                                                                     cap_is_draw=False), trusted=True)
    if result.ending == "stopped":
        return "stopped"
    return result.text if result.ending in ("resigned", "forfeit") else ""

"""``tafl-desktop engine``: our computer player behind the OpenTafl Engine Protocol (OTEP).

The protocol (OpenTafl's ``opentafl-engine-protocol.txt``; tafl-rules.md 2.5, and what OpenTafl
really does in turn2-research.md 4.1): plain lines on stdin/stdout.  We print ``hello`` at once
(OpenTafl sends ``rules`` before it has seen it), take ``rules``, ``position``, ``side``,
``clock`` (milliseconds, sent before ``play``), ``play``, ``opponent-move``, ``move``,
``analyze``, ``error``, ``finish`` and ``goodbye``, and ignore any other line.  Our own state
follows the moves and is re-synchronised from every position record the host sends.

A reader thread drains stdin while the search runs, so ``finish`` or ``goodbye`` stop a search
at once and the host never blocks writing to us.  The think time is the level's, cut to what
the clock leaves: a twentieth of the main time left, half an overtime period.

A host is distrusted like any file: stdin is read as bytes and decoded with replacement (one
invalid byte under a strict UTF-8 locale must not end the reader), a line is at most
:data:`MAX_LINE` bytes, a rules string that cannot be read (nested JSON 3,000 deep included) is
one ``error -1`` line, and what we send is one line of plain ASCII, as the protocol asks.  Parsed
rules are kept (the last :data:`RULES_CACHE` strings), so a host repeating ``rules`` costs a
lookup, not a parse.  After the host refuses our move with ``error`` (it then sends
``opponent-move`` and ``play`` again, tafl-rules.md 2.5), the refused move is never offered again
in that position: the next best is, and when the host has refused every legal move we send
``error -1`` (critical: the game ends) instead of playing on.
"""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict
from typing import IO, TYPE_CHECKING, Any

from tafl_desktop.ai.levels import get_level
from tafl_desktop.core.game import Game, IllegalMove, Side
from tafl_desktop.core.quoting import shown
from tafl_desktop.core.rules_string import RulesStringError, variant_from_rules_string

if TYPE_CHECKING:
    from tafl_desktop.ai.player import ComputerPlayer

#: Share of the main time left that one move may use.
MAIN_TIME_SHARE = 1 / 20
#: Share of an overtime period that one move may use.
OVERTIME_SHARE = 0.5
#: Shortest think time (s): the reply itself takes a few milliseconds more.
MIN_THINK = 0.02
#: Longest think time a host may ask of ``analyze`` (s).
MAX_ANALYSE = 3600.0
#: Longest protocol line read (bytes): a rules string of the largest board is a few kilobytes.
MAX_LINE = 64 * 1024
#: Lines read ahead of the one being handled (the host blocks beyond it, as on any full pipe).
MAX_QUEUED = 4096
#: Rules strings whose parsed variant and rules are kept.
RULES_CACHE = 8
#: Longest line we send (characters), an error quoting a host's text included.
MAX_SENT = 400


def position_from_record(rules, record: str, side: Side):
    """An OTEP position record (rank 1 first) as our position with ``side`` to move."""
    rows = [r for r in record.strip().strip("/").split("/")]
    return rules.parse_position("/" + "/".join(reversed(rows)) + "/", side)


def position_record(rules, pos) -> str:
    """Our position as an OTEP position record (rank 1 first, as OpenTafl sends it)."""
    rows = rules.position_text(pos).strip("/").split("/")
    return "/" + "/".join(reversed(rows)) + "/"


def think_time(level_time: float, clock: tuple[str, ...] | None, side: Side) -> float:
    """Seconds to think: the level's time, cut to what the host's ``clock`` line leaves us."""
    if not clock or len(clock) < 3:
        return level_time
    mine = clock[int(side)]
    overtime = mine.endswith("*")
    try:
        ms = int(mine.rstrip("*"))
        overtime_s = float(clock[2])
    except ValueError:
        return level_time
    left = ms / 1000.0
    budget = left * OVERTIME_SHARE if overtime else left * MAIN_TIME_SHARE
    if not overtime and overtime_s > 0:
        budget = max(budget, min(overtime_s * OVERTIME_SHARE, left * 0.5))
    return max(MIN_THINK, min(level_time, budget))


class EngineSession:
    """One engine's state between protocol lines: the rules, the game and the clock."""

    def __init__(self, out: IO[str], level: str) -> None:
        self.out = out
        self.level = get_level(level)
        self.level_name = level
        self.game: Game | None = None
        self.player: ComputerPlayer | None = None
        self.clock: tuple[str, ...] | None = None
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self._rules_cache: OrderedDict[str, Any] = OrderedDict()
        #: Moves the host refused, by (position key, side): never offered there again.
        self._refused: dict[Any, set[Any]] = {}
        #: (position key, side, move) of the move we sent last, until the host accepts or refuses it.
        self._last_sent: tuple[Any, Any, Any] | None = None

    def send(self, line: str) -> None:
        """One protocol line: plain ASCII (anything else escaped), no line break, shortened."""
        text = line.encode("ascii", "backslashreplace").decode("ascii")
        text = "".join(ch if " " <= ch < "\x7f" else f"\\x{ord(ch):02x}" for ch in text)[:MAX_SENT]
        with self._lock:
            self.out.write(text + "\n")
            self.out.flush()

    # ------------------------------------------------------------------------------ commands
    def handle(self, line: str) -> bool:
        """Act on one line; False when the engine should exit."""
        cmd, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        handler = getattr(self, "on_" + cmd.replace("-", "_"), None) if cmd.isascii() else None
        if handler is None:
            return True  # unknown lines are ignored, as the protocol asks
        return handler(rest) is not False

    def on_hello(self, _rest: str) -> None:
        pass

    def on_goodbye(self, _rest: str) -> bool:
        return False

    def on_finish(self, _rest: str) -> None:
        self.stop.set()

    def on_rules(self, rest: str) -> None:
        cached = self._rules_cache.get(rest)
        if cached is None:
            try:
                variant = variant_from_rules_string(rest)
                cached = (variant, variant.make_rules())
            except RulesStringError as exc:
                self.game = None
                self.send(f"error -1 {exc}")
                return
            except (ValueError, TypeError, KeyError, RecursionError, OverflowError, MemoryError) as exc:
                # a string our parser should have refused in words: still one line, never a traceback
                self.game = None
                self.send(f"error -1 rules string not understood: {shown(str(exc) or type(exc).__name__, 120)}")
                return
            self._rules_cache[rest] = cached
            while len(self._rules_cache) > RULES_CACHE:
                self._rules_cache.popitem(last=False)
        else:
            self._rules_cache.move_to_end(rest)
        _variant, rules = cached
        from tafl_desktop.ai.player import ComputerPlayer

        if self.player is None or self.player.rules is not rules:
            self.player = ComputerPlayer(rules, self.level, timed=True)
        self.game = Game(rules)
        self._refused.clear()
        self._last_sent = None

    def _need_game(self) -> Game | None:
        if self.game is None:
            self.send("error -1 no rules yet: send rules first")
        return self.game

    def _resync(self, record: str, side: Side | None = None) -> None:
        """Take the host's position if ours differs (history kept when it agrees)."""
        game = self.game
        if game is None or not record:
            return
        side = game.rules.side_to_move(game.position) if side is None else side
        try:
            pos = position_from_record(game.rules, record, side)
        except ValueError as exc:
            self.send(f"error 0 position not understood: {exc}")
            return
        if game.rules.position_key(pos) != game.rules.position_key(game.position):
            self.game = Game(game.rules, pos)

    def on_position(self, rest: str) -> None:
        game = self._need_game()
        if game is not None and rest:
            self.game = Game(game.rules, position_from_record(game.rules, rest, game.rules.side_to_move(game.position)))

    def _side(self, rest: str) -> Side | None:
        """The side a host names; None (after an error line quoting it, shortened) for any other word."""
        try:
            return Side.parse(rest)
        except ValueError:
            self.send(f"error 0 unknown side {shown(rest, 40)}")
            return None

    def on_side(self, rest: str) -> None:
        game = self._need_game()
        if game is None:
            return
        side = self._side(rest)
        if side is None:
            return
        if game.rules.side_to_move(game.position) != side:
            self.game = Game(game.rules, game.rules.parse_position(game.rules.position_text(game.position), side))

    def on_clock(self, rest: str) -> None:
        self.clock = tuple(rest.split())

    def _play_listed(self, moves: str) -> None:
        game = self.game
        assert game is not None
        for text in (m for m in moves.split("|") if m and m != "---"):
            try:
                game.play_text(_plain(text))
            except IllegalMove:
                return  # the position record that follows puts us right

    def on_opponent_move(self, rest: str) -> None:
        game = self._need_game()
        if game is None:
            return
        moves, _, record = rest.partition(" ")
        self._play_listed(moves)
        self._resync(record.strip())

    def on_move(self, rest: str) -> None:
        """The host accepted our move and tells the position after it."""
        self._last_sent = None
        if self.game is not None:
            self._resync(rest.strip())

    def on_error(self, rest: str) -> None:
        """The host refused our move: take it back and never offer it in that position again;
        its opponent-move and play follow."""
        if self._last_sent is not None:
            key, side, move = self._last_sent
            self._refused.setdefault((key, side), set()).add(move)
            self._last_sent = None
            if self.game is not None and self.game.plies and self.game.plies[-1].move == move:
                self.game.undo()

    def _search(self, side: Side, seconds: float | None):
        game = self.game
        assert game is not None and self.player is not None
        pos = game.position
        if game.rules.side_to_move(pos) != side:
            pos = game.rules.parse_position(game.rules.position_text(pos), side)
        keys = [game.rules.position_key(game.position_at(i)) for i in range(len(game.plies) + 1)]
        budget = think_time(self.level.time, self.clock, side) if seconds is None else seconds
        player: ComputerPlayer = self.player
        player.time_scale = budget / self.level.time if self.level.time > 0 else 1.0
        self.stop.clear()
        result = player.choose(pos, keys, should_stop=self.stop.is_set)
        return pos, result

    def on_play(self, rest: str) -> None:
        game = self._need_game()
        if game is None:
            return
        side = self._side(rest)
        if side is None:
            return
        pos, result = self._search(side, None)
        if result.move is None:
            self.send("error -1 no legal move")
            return
        key = (game.rules.position_key(pos), side)
        move = self._unrefused(pos, key, result)
        if move is None:
            self.send("error -1 the host refused every legal move in this position")
            return
        self._last_sent = (key[0], side, move)
        self.send(f"move {game.rules.move_text(move)}")
        if pos is not game.position:
            game = self.game = Game(game.rules, pos)
        try:
            game.play(move)
        except IllegalMove:  # the game is over by our rules but not the host's: follow the host
            self.game = Game(game.rules, game.rules.play(pos, move)[0])

    def _unrefused(self, pos: Any, key: Any, result: Any) -> Any:
        """The search's move, or when the host refused it here, the best move it has not refused
        (the search's other candidates first, then the legal moves in order); None if none is left."""
        refused = self._refused.get(key, set())
        move = tuple(result.move)
        if move not in refused:
            return move
        rules = self.game.rules if self.game is not None else None
        ranked = [tuple(m) for m, _score in (result.candidates or []) if m is not None]
        legal = [tuple(m) for m in rules.legal_moves(pos)] if rules is not None else []
        allowed = set(legal)
        return next((m for m in (*ranked, *legal) if m not in refused and m in allowed), None)

    def on_analyze(self, rest: str) -> None:
        game = self._need_game()
        if game is None:
            return
        parts = rest.split()
        try:
            count, seconds = int(parts[0]), float(parts[1])
        except (IndexError, ValueError):
            self.send("error 0 analyze needs a count and seconds")
            return
        if not seconds == seconds:  # NaN
            seconds = 0.0
        side = game.rules.side_to_move(game.position)
        _pos, result = self._search(side, min(MAX_ANALYSE, max(MIN_THINK, seconds * 0.9)))
        lines = []
        for move, score in (result.candidates or [(result.move, result.score)])[:max(1, count)]:
            if move is None:
                continue
            pv = [move] + (result.pv[1:] if move == result.move else [])
            text = "|".join(game.rules.move_text(tuple(m)) for m in pv)
            # OpenTafl shows evaluations with two decimals; ours are in hundredths of a soldier
            lines.append(f"{text} {score / 100:.2f}")
        self.send(f"analysis {len(lines)} " + " ".join(lines))


def _plain(text: str) -> str:
    """``Ke1-a1--`` or ``e5-e8xe9+`` as our ``e1-a1`` / ``e5-e8``."""
    text = text.strip().rstrip("+-")
    if len(text) > 1 and text[0] in "tcnkmgTCNKMG" and text[1].isalpha():
        text = text[1:]  # a special piece's letter before the square
    return text.split("x")[0]


#: What the reader queues for a line longer than MAX_LINE (its bytes are read past, never kept).
TOO_LONG = "\x00too-long"


def read_protocol_lines(stream: Any, limit: int = MAX_LINE):
    """The lines of ``stream`` as text without their line ends: bytes are read (from
    ``stream.buffer`` when it is a text stream) and decoded as UTF-8 with replacement, so no byte
    can end the reader; a line over ``limit`` bytes comes out as :data:`TOO_LONG`."""
    binary = getattr(stream, "buffer", stream)

    def read(size: int) -> bytes:
        chunk = binary.readline(size)
        return chunk.encode("utf-8", "surrogatepass") if isinstance(chunk, str) else chunk

    while True:
        line = read(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # read past the rest of it, keeping nothing
                line = read(limit)
            yield TOO_LONG
            continue
        yield line.decode("utf-8", "replace").rstrip("\r\n")


def run_engine(stdin: IO[str], stdout: IO[str], level: str = "medium") -> int:
    """Speak OTEP until ``goodbye`` or the end of input; the exit code."""
    session = EngineSession(stdout, level)
    lines: queue.Queue[str | None] = queue.Queue(MAX_QUEUED)

    def reader() -> None:
        try:
            for line in read_protocol_lines(stdin):
                word = line.split(" ", 1)[0].strip()
                if word in ("finish", "goodbye"):
                    session.stop.set()  # a search running now ends at its next check
                lines.put(line)
        except (OSError, ValueError):
            pass  # stdin closed or unreadable: the same as its end
        session.stop.set()
        lines.put(None)

    threading.Thread(target=reader, name="otep-reader", daemon=True).start()
    try:
        session.send("hello")
        while True:
            line = lines.get()
            if line is None:
                return 0
            if line == TOO_LONG:
                session.send(f"error 0 line longer than {MAX_LINE} bytes ignored")
                continue
            try:
                if not session.handle(line):
                    return 0
            except (ValueError, IllegalMove) as exc:
                session.send(f"error 0 {str(exc).splitlines()[0] if str(exc) else 'bad command'}")
            except (BrokenPipeError, ConnectionResetError):
                raise
            except Exception as exc:  # noqa: BLE001 - a host's line must never end the engine
                session.send(f"error 0 cannot follow that line: {type(exc).__name__}")
    except (BrokenPipeError, ConnectionResetError):
        _quiet_stdout(stdout)
        return 0


def _quiet_stdout(stdout: Any) -> None:
    """The host closed our output: point it at the null device so the exit's flush is silent."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass

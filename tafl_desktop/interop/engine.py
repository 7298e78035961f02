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
"""

from __future__ import annotations

import queue
import threading
from typing import IO, TYPE_CHECKING

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

    def send(self, line: str) -> None:
        with self._lock:
            self.out.write(line + "\n")
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
        try:
            variant = variant_from_rules_string(rest)
        except RulesStringError as exc:
            self.game = None
            self.send(f"error -1 {exc}")
            return
        from tafl_desktop.ai.player import ComputerPlayer

        rules = variant.make_rules()
        self.game = Game(rules)
        self.player = ComputerPlayer(rules, self.level)

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
        if self.game is not None:
            self._resync(rest.strip())

    def on_error(self, rest: str) -> None:
        """The host refused our move: take it back; its opponent-move and play follow."""
        if self.game is not None and self.game.plies:
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
        move = tuple(result.move)
        self.send(f"move {game.rules.move_text(move)}")
        if pos is not game.position:
            game = self.game = Game(game.rules, pos)
        try:
            game.play(move)
        except IllegalMove:  # the game is over by our rules but not the host's: follow the host
            self.game = Game(game.rules, game.rules.play(pos, move)[0])

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
        side = game.rules.side_to_move(game.position)
        _pos, result = self._search(side, max(MIN_THINK, seconds * 0.9))
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


def run_engine(stdin: IO[str], stdout: IO[str], level: str = "medium") -> int:
    """Speak OTEP until ``goodbye`` or the end of input; the exit code."""
    session = EngineSession(stdout, level)
    lines: queue.Queue[str | None] = queue.Queue()

    def reader() -> None:
        for line in stdin:
            word = line.split(" ", 1)[0].strip()
            if word in ("finish", "goodbye"):
                session.stop.set()  # a search running now ends at its next check
            lines.put(line)
        session.stop.set()
        lines.put(None)

    threading.Thread(target=reader, name="otep-reader", daemon=True).start()
    session.send("hello")
    while True:
        line = lines.get()
        if line is None:
            return 0
        try:
            if not session.handle(line):
                return 0
        except (ValueError, IllegalMove) as exc:
            session.send(f"error 0 {str(exc).splitlines()[0] if str(exc) else 'bad command'}")
        except BrokenPipeError:
            return 0

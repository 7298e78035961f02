"""``tafl-desktop htp``: our computer player behind the Hnefatafl Text Protocol (HTP).

HTP is hnefatafl.org's engine protocol (crate ``hnefatafl-copenhagen`` 6.4.1: ``src/message.rs``
lists the commands, ``Game::update`` in ``src/game.rs`` answers them, and the binary
``src/bin/hnefatafl-text-protocol.rs`` frames the answers).  One command a line; ``#`` starts a
comment; an empty line gets no answer.  A command that succeeds is answered ``= TEXT`` on one line
(``list_commands`` and ``show_board`` span several); one that fails ``? WHY`` and an empty line.
The commands: ``protocol_version`` (``1-beta``), ``name``, ``version``, ``list_commands``,
``known_command CMD``, ``board_size N`` (11 here), ``first_move ROLE``, ``time_settings un-timed |
fischer MINUTES ADD_SECONDS`` (each resets the game), ``play ROLE FROM TO`` (answered with the
captured squares, each followed by a space), ``play ROLE resigns``, ``play_from`` (the side to
move and every square it can move from), ``play_to ROLE FROM``, ``play_undo``, ``generate_move``
(chooses, plays and answers ``play ROLE FROM TO``), ``final_status`` (``attacker_wins``,
``defender_wins``, ``draw`` or ``ongoing``), ``show_board``, ``show_board_open_tafl`` (rows top
first, ``A`` attacker, ``D`` defender, ``K`` king, digits for empty runs) and ``quit`` (ends
without an answer).  Squares are written ``a1`` .. ``k11``, ``a1`` at the attackers' bottom left,
as on the site; ROLE is ``attacker``/``a`` or ``defender``/``d``.

The rules are the site's (the ``copenhagen_org`` preset).  A driver is distrusted like any file:
input is read as bytes (invalid UTF-8 replaced), a line is at most :data:`MAX_LINE` bytes, and
every answer is plain ASCII of at most :data:`MAX_SENT` characters a line.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from tafl_desktop.core.game import Game, IllegalMove, Outcome, Side
from tafl_desktop.core.quoting import shown

#: The site's command list, in its order (``src/message.rs`` ``COMMANDS``).
COMMANDS = ("board_size", "final_status", "first_move", "generate_move", "known_command", "list_commands",
            "name", "play", "play_from", "play_to", "play_undo", "protocol_version", "quit", "show_board",
            "show_board_open_tafl", "time_settings", "version")
PROTOCOL_VERSION = "1-beta"
PRESET = "copenhagen_org"
#: Longest line read (bytes): the longest real command is about 30 bytes.
MAX_LINE = 4096
#: Longest answer line sent (characters).
MAX_SENT = 400
#: Think time of ``generate_move`` without time settings (s), and the share of a Fischer clock.
DEFAULT_SECONDS = 1.0
CLOCK_SHARE = 1 / 30

ROLES = {"a": Side.ATTACKERS, "attacker": Side.ATTACKERS, "d": Side.DEFENDERS, "defender": Side.DEFENDERS}
ROLE_WORD = {Side.ATTACKERS: "attacker", Side.DEFENDERS: "defender"}


class HtpError(ValueError):
    """A command that cannot be carried out; its text is the one line after ``?``."""


class HtpSession:
    """One engine's state between lines: the game under the site's rules and the think time."""

    def __init__(self, level: str = "medium", seconds: float | None = None) -> None:
        from tafl_desktop.ai.levels import get_level

        self.level = get_level(level)
        self.seconds = seconds
        self.first = Side.ATTACKERS
        self.clock: tuple[float, float] | None = None  # Fischer (minutes, added seconds)
        self.player: Any = None
        self._new_game()

    # -- state ---------------------------------------------------------------------------------
    def _new_game(self) -> None:
        from tafl_desktop.core.variants import find_variant

        variant = find_variant(PRESET)
        if self.first == Side.DEFENDERS:
            variant = variant.with_options({"first_move": "defenders"})
        rules = variant.make_rules()
        self.game: Game[Any] = Game(rules)
        self.player = None

    def _side(self, word: str) -> Side:
        side = ROLES.get(word.lower())
        if side is None:
            raise HtpError(f"a role is attacker or defender, not {shown(word, 20)}")
        return side

    def _square(self, word: str) -> int:
        geometry = self.game.rules.geometry
        try:
            return geometry.parse_square(word)
        except ValueError:
            raise HtpError(f"not a square of the board: {shown(word, 20)}") from None

    def _to_move(self) -> Side:
        return Side(self.game.rules.side_to_move(self.game.position))

    # -- the protocol ------------------------------------------------------------------------
    def handle(self, line: str) -> str | None:
        """The answer to one line (``= ...`` or ``? ...`` with its blank line), None for none;
        raises SystemExit(0) on ``quit``."""
        text = line.split("#", 1)[0]
        words = text.split()
        if not words:
            return None
        try:
            return "= " + self._answer(words[0], words[1:])
        except (HtpError, IllegalMove) as exc:
            return "? " + _one_line(str(exc) or "cannot do that") + "\n"

    def _answer(self, command: str, args: list[str]) -> str:
        if command not in COMMANDS:
            raise HtpError(f"unrecognized command: {shown(command, 40)}")
        if command == "quit":
            raise SystemExit(0)
        return str(getattr(self, "cmd_" + command)(args))

    def cmd_protocol_version(self, _args: list[str]) -> str:
        return PROTOCOL_VERSION

    def cmd_name(self, _args: list[str]) -> str:
        return "tafl-desktop"

    def cmd_version(self, _args: list[str]) -> str:
        from tafl_desktop import __version__

        return __version__

    def cmd_list_commands(self, _args: list[str]) -> str:
        return "\n" + "\n".join(COMMANDS)

    def cmd_known_command(self, args: list[str]) -> str:
        if not args:
            raise HtpError("expected: known_command COMMAND")
        return "true" if args[0] in COMMANDS else "false"

    def cmd_board_size(self, args: list[str]) -> str:
        if not args:
            raise HtpError("expected: board_size 11")
        if args[0] != "11":
            raise HtpError(f"this engine plays the 11x11 board only, not {shown(args[0], 10)}")
        self._new_game()
        return ""

    def cmd_first_move(self, args: list[str]) -> str:
        if not args:
            raise HtpError("expected: first_move ROLE")
        self.first = self._side(args[0])
        self._new_game()
        return ""

    def cmd_time_settings(self, args: list[str]) -> str:
        if args[:1] == ["un-timed"] and len(args) == 1:
            self.clock = None
        elif args[:1] == ["fischer"] and len(args) == 3:
            try:
                minutes, add = int(args[1]), int(args[2])
            except ValueError:
                raise HtpError("expected: time_settings fischer MINUTES ADD_SECONDS (whole numbers)") from None
            if not (0 < minutes <= 10_000 and 0 <= add <= 86_400):
                raise HtpError("time_settings fischer: MINUTES from 1 to 10000, ADD_SECONDS from 0 to 86400")
            self.clock = (float(minutes), float(add))
        else:
            raise HtpError("expected: time_settings un-timed or time_settings fischer MINUTES ADD_SECONDS")
        self._new_game()
        return ""

    def cmd_final_status(self, _args: list[str]) -> str:
        return _status(self.game.outcome)

    def cmd_play(self, args: list[str]) -> str:
        if len(args) < 2 or (args[1] != "resigns" and len(args) < 3):
            raise HtpError("expected: 'play ROLE FROM TO' or 'play ROLE resigns'")
        side = self._side(args[0])
        if self.game.outcome is not None:
            raise HtpError("the game is over")
        if side != self._to_move():
            raise HtpError(f"it is the {ROLE_WORD[self._to_move()]}'s turn")
        if args[1] == "resigns":
            self.game.resign(side, "resigned")
            return ""
        frm, to = self._square(args[1]), self._square(args[2])
        why = self.game.check((frm, to))
        if why is not None:
            raise HtpError(why)
        ply = self.game.play((frm, to))
        return "".join(f"{self._name(s)} " for s in ply.captures)

    def cmd_play_from(self, _args: list[str]) -> str:
        froms = sorted({m[0] for m in self.game.legal_moves()})
        return " ".join([ROLE_WORD[self._to_move()], *(self._name(s) for s in froms)])

    def cmd_play_to(self, args: list[str]) -> str:
        if len(args) < 2:
            raise HtpError("expected: play_to ROLE FROM")
        side, frm = self._side(args[0]), self._square(args[1])
        if side != self._to_move():
            raise HtpError(f"it is the {ROLE_WORD[self._to_move()]}'s turn")
        tos = [m[1] for m in self.game.legal_moves() if m[0] == frm]
        if not tos:
            raise HtpError(f"no move from {self._name(frm)}")
        return " ".join(self._name(s) for s in tos)

    def cmd_play_undo(self, _args: list[str]) -> str:
        if self.game.undo() is None:
            raise HtpError("there is no move to take back")
        return ""

    def cmd_generate_move(self, _args: list[str]) -> str:
        if self.game.outcome is not None:
            raise HtpError("the game is over")
        from tafl_desktop.ai.player import ComputerPlayer

        rules = self.game.rules
        if self.player is None:
            self.player = ComputerPlayer(rules, self.level)
        side = self._to_move()
        keys = [rules.position_key(self.game.position_at(i)) for i in range(len(self.game.plies) + 1)]
        result = self.player.choose(self.game.position, keys, time_limit=self._think_time())
        move = result.move
        if move is None or self.game.check(move) is not None:
            legal = self.game.legal_moves()
            if not legal:
                raise HtpError("no legal move")
            move = legal[0]
        self.game.play(move)
        return f"play {ROLE_WORD[side]} {self._name(move[0])} {self._name(move[1])}"

    def cmd_show_board(self, _args: list[str]) -> str:
        rules: Any = self.game.rules
        pos = self.game.position
        rows = []
        for r in range(rules.H - 1, -1, -1):
            cells = []
            for f in range(rules.W):
                piece = rules.piece_at(pos, r * rules.W + f)
                cells.append({"t": "X", "T": "O", "K": "K"}.get(piece or "", "."))
            rows.append(f"{r + 1:2} {''.join(cells)}")
        files = "".join(chr(ord("a") + f) for f in range(rules.W))
        return "\n" + "\n".join(rows) + f"\n   {files}"

    def cmd_show_board_open_tafl(self, _args: list[str]) -> str:
        text = self.game.rules.position_text(self.game.position)
        return text.replace("t", "A").replace("T", "D")

    # -- helpers ---------------------------------------------------------------------------------
    def _name(self, square: int) -> str:
        return str(self.game.rules.geometry.name(square))

    def _think_time(self) -> float:
        if self.seconds is not None:
            return self.seconds
        if self.clock is None:
            return DEFAULT_SECONDS
        minutes, add = self.clock
        return max(0.05, min(minutes * 60 * CLOCK_SHARE + add / 2, 60.0))


def _status(outcome: Outcome | None) -> str:
    if outcome is None:
        return "ongoing"
    if outcome.winner is None:
        return "draw"
    return "attacker_wins" if outcome.winner == Side.ATTACKERS else "defender_wins"


def _one_line(text: str) -> str:
    """Plain ASCII, one line, bounded: a driver's text quoted back never breaks the framing."""
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    text = "".join(ch if " " <= ch < "\x7f" else f"\\x{ord(ch):02x}" for ch in text)
    return text[:MAX_SENT]


def run_htp(stdin: IO[str], stdout: IO[str], level: str = "medium", seconds: float | None = None) -> int:
    """Answer HTP lines from ``stdin`` until ``quit`` or its end; the exit code."""
    from tafl_desktop.interop.engine import TOO_LONG, read_protocol_lines

    session = HtpSession(level, seconds)
    try:
        for line in read_protocol_lines(stdin, MAX_LINE):
            if line == TOO_LONG:
                answer: str | None = f"? line longer than {MAX_LINE} bytes ignored\n"
            else:
                try:
                    answer = session.handle(line)
                except SystemExit:
                    return 0
                except Exception as exc:  # noqa: BLE001 - a driver's line must never end the engine
                    answer = f"? cannot follow that line: {type(exc).__name__}\n"
            if answer is not None:
                stdout.write(answer + "\n")
                stdout.flush()
    except (BrokenPipeError, ConnectionResetError):
        return 0
    return 0


def run_htp_client(host: str, port: int, stdout: IO[str], level: str = "medium",
                   seconds: float | None = None) -> int:
    """The crate's ``--host`` mode from the engine's side: connect to a driver at ``host:port``;
    ``play ROLE FROM TO`` is played without an answer, ``generate_move`` is answered with a bare
    ``play ROLE FROM TO`` line, any other command is answered on ``stdout``; the connection is left
    when the game is over or the driver closes it."""
    import socket

    from tafl_desktop.interop.engine import TOO_LONG, read_protocol_lines

    session = HtpSession(level, seconds)
    with socket.create_connection((host, port), timeout=30) as conn:
        conn.settimeout(None)
        for line in read_protocol_lines(conn.makefile("rb"), MAX_LINE):
            words = line.split("#", 1)[0].split() if line != TOO_LONG else []
            try:
                if words[:1] == ["play"]:
                    session.cmd_play(words[1:])
                elif words[:1] == ["generate_move"]:
                    conn.sendall((session.cmd_generate_move([]) + "\n").encode("ascii"))
                else:
                    answer = session.handle(line) if line != TOO_LONG else "? line too long\n"
                    if answer is not None:
                        stdout.write(answer + "\n")
                        stdout.flush()
            except (HtpError, IllegalMove) as exc:
                stdout.write("? " + _one_line(str(exc)) + "\n\n")
                stdout.flush()
            except SystemExit:
                return 0
            if session.game.outcome is not None:
                return 0
    return 0


def main_htp(args: Any) -> int:
    """The ``htp`` command."""
    if args.host:
        return run_htp_client(args.host, args.port, sys.stdout, level=args.level, seconds=args.seconds)
    return run_htp(sys.stdin, sys.stdout, level=args.level, seconds=args.seconds)

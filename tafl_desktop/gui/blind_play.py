"""Play without sight: the move field, the spoken line, announcements and the query keys.

A player who cannot see the board types moves (``d1-d3``, ``d1d3``, ``d3``, ``c3xc5xe5``) in the
move field (Ctrl+L), and hears every move of either side, its captures, the king's threats and the
result through Qt's accessibility announcement event (Qt 6.8 and later), which a screen reader
(Orca, NVDA) reads without focus moving: polite for moves and answers, assertive for the end of the
game.  Each announcement is also written in the spoken line under the move field, so a sighted
helper and the tests see the same words.

Exactly one announcement per move: the session says its move sentence (with the captures) just
before it signals the move; the announcer takes that sentence and speaks it at once, adding the
king's calls (Raichi, Tuichi, Watch your king) and, when the move ended the game, the result,
said assertively.  A game that ends without a move (a clock's flag)
has the result alone.  A running clock is announced when it falls under a minute, 30 s and 10 s.

Query keys on the board (and the same letters typed alone in the move field), as in lichess's
blind mode: L last move, T whose turn, C clocks, P / Shift+P pieces of the side to move / of the
other side, R / Shift+R what stands on the cursor's rank / file (F is Flip Board; F typed in the
field), K threats to the king, M legal moves of
the piece under the cursor, N / Shift+N jump to the next / previous piece of the side to move,
O / Shift+O the same for the other side.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from tafl_desktop.core.clock import format_ms
from tafl_desktop.core.marks import N_
from tafl_desktop.core.move_entry import MoveEntryError, read_typed_move
from tafl_desktop.gui.texts import tr
from tafl_desktop.gui.themes import piece_name
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.readout import announcements, status_text

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

try:  # Qt 6.8 and later
    from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
except ImportError:  # pragma: no cover - an older Qt: the spoken line still shows every text
    QAccessibleAnnouncementEvent = None  # type: ignore[assignment,misc]

#: Query letters (board keys, or typed alone in the move field) -> the query's name.
QUERIES: dict[str, str] = {"l": "last", "t": "turn", "c": "clocks", "p": "pieces", "r": "rank", "f": "file",
                           "k": "king", "m": "moves"}
#: Time left (ms) at which a running clock is announced, once each until the time is above it again.
CLOCK_WARNINGS_MS = (60_000, 30_000, 10_000)

#: Jump keys: letter -> which side's pieces (0: the side to move, 1: the other side).
JUMPS: dict[str, int] = {"n": 0, "o": 1}

#: The heading of the query keys in Help > Keyboard Shortcuts.
PLAYING_WITHOUT_SIGHT = N_("Playing without sight")

#: The keys as the shortcuts list shows them (Help > Keyboard Shortcuts), in the catalogue.
QUERY_KEYS: tuple[tuple[str, str], ...] = (
    (N_("Ctrl+L"), N_("type a move (d1-d3, d1d3, or the destination alone), or a query letter")),
    (N_("L"), N_("say the last move")),
    (N_("T"), N_("say whose turn it is")),
    (N_("C"), N_("say the clocks")),
    (N_("P / Shift+P"), N_("say the pieces of the side to move / of the other side")),
    (N_("R / Shift+R"), N_("say what stands on the cursor's rank / file")),
    (N_("K"), N_("say the threats against the king")),
    (N_("M"), N_("say the legal moves of the piece under the cursor")),
    (N_("N / Shift+N"), N_("cursor to the next / previous piece of the side to move")),
    (N_("O / Shift+O"), N_("cursor to the next / previous piece of the other side")),
)


@dataclass(frozen=True)
class Spoken:
    """One announcement: its text, whether it was assertive, what it was about and when (s)."""

    text: str
    assertive: bool
    kind: str  # "move", "end", "query", "cursor", "refused", "clock"
    at: float


class Announcer(QObject):
    """Speaks texts through the accessibility announcement event and the spoken line."""

    spoken = Signal(object)  # Spoken

    def __init__(self, line: QLabel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.line = line
        #: Everything said, in order (the window's own record; tests read it).
        self.log: list[Spoken] = []

    def say(self, text: str, kind: str, assertive: bool = False) -> None:
        if not text:
            return
        self.line.setText(text)
        if QAccessibleAnnouncementEvent is not None:
            event = QAccessibleAnnouncementEvent(self.line, text)
            event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive if assertive
                                else QAccessible.AnnouncementPoliteness.Polite)
            QAccessible.updateAccessibility(event)
        said = Spoken(text, assertive, kind, time.monotonic())
        self.log.append(said)
        self.spoken.emit(said)


class BlindPlay(QObject):
    """The move field, the spoken line and the announcements of one window."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.session = window.session
        #: The board's gestures: a typed move is played (and refused) as a click would be.
        self.controller = window.controller
        self.box = QWidget()
        self.field = QLineEdit()
        tr(self.field, "setAccessibleName", "Move field")
        tr(self.field, "setAccessibleDescription",
           "Type a move such as d1-d3, d1d3 or the destination alone, then Enter; or a query letter: "
           "L last move, T turn, C clocks, P pieces, K king, M moves")
        tr(self.field, "setPlaceholderText", "Type a move (Ctrl+L), e.g. d1-d3")
        label = tr(QLabel(), "setText", "&Move:")
        label.setBuddy(self.field)
        self.line = QLabel()
        self.line.setWordWrap(True)
        self.line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        tr(self.line, "setAccessibleName", "Spoken line")
        tr(self.line, "setAccessibleDescription", "The last thing announced to the screen reader")
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(label)
        row.addWidget(self.field, 1)
        col = QVBoxLayout(self.box)
        col.setContentsMargins(0, 0, 0, 0)
        col.addLayout(row)
        col.addWidget(self.line)
        self.announcer = Announcer(self.line, self)
        self._last_message = ""
        self._ended_by_move: Any = None
        self._last_move_text = ""
        events = window.events
        events.message.connect(self._message)
        self.controller.board_message.connect(self._message)
        events.played.connect(self._played)
        events.finished.connect(self._finished)
        events.loaded.connect(self._loaded)
        self.field.returnPressed.connect(self.enter)
        self.field.installEventFilter(self)
        window.board.installEventFilter(self)
        window.board.cursor_moved.connect(self._cursor_moved)
        #: Per side, the warnings said while its time stays below them.
        self._warned: tuple[set[int], set[int]] = (set(), set())
        window.clock_driver.timer.timeout.connect(self.check_clocks)

    # ------------------------------------------------------------------------------ announcing
    def _message(self, text: str) -> None:
        self._last_message = text

    def _loaded(self, _source: object) -> None:
        self._warned = (set(), set())
        self._ended_by_move = None
        self._last_move_text = ""

    def _played(self, ply: Any) -> None:
        """A new move at the live end, said at once: the session's sentence about it (with the
        captures) came just before; the king's calls follow, or the result, said assertively."""
        c = self.session
        move = c.rules.move_text(ply.move)
        text = self._last_message if move in self._last_message else _("{move} played.").format(move=move)
        self._last_message = ""
        self._last_move_text = text
        parts = [text]
        outcome = c.game.outcome
        if outcome is None and c.is_live:
            parts += [f"{a.title}: {a.detail}" for a in announcements(c, self.controller.announce)]
        if outcome is not None:
            parts.append(c.describe(outcome))
        self._ended_by_move = outcome
        self.announcer.say(" ".join(parts), "end" if outcome is not None else "move", assertive=outcome is not None)

    def _finished(self, outcome: Any) -> None:
        """The game ended: with its last move (already said with it) or without one (a flag)."""
        if outcome is not None and outcome == self._ended_by_move:
            return
        self.announcer.say(self.session.describe(outcome), "end", assertive=True)

    def check_clocks(self) -> None:
        """A running clock that falls under a minute, 30 s or 10 s is announced once (politely);
        an increment that lifts it above a mark again re-arms that mark."""
        c = self.session
        clock = c.clock
        if clock is None or clock.running is None or c.game.outcome is not None:
            return
        side = clock.running
        ms, _periods, overtime = clock.shown(side)
        warned = self._warned[side]
        warned.difference_update({mark for mark in warned if ms > mark})
        due = [mark for mark in CLOCK_WARNINGS_MS if 0 < ms <= mark and mark not in warned]
        if not due or overtime:
            return
        warned.update(due)
        seconds = max(1, round(ms / 1000))
        self.announcer.say(ngettext("{side}: {n} second left on the clock.", "{side}: {n} seconds left on the clock.",
                                    seconds).format(side=c.sides[side], n=seconds), "clock")

    def _cursor_moved(self, square: int) -> None:
        self.announcer.say(self.window.board.describe_square(square), "cursor")

    # ------------------------------------------------------------------------------ typed moves
    def focus_field(self) -> None:
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()

    def enter(self) -> None:
        """Play (or answer) what the move field holds; a refused move is said with the reason."""
        text = self.field.text().strip()
        if not text:
            return
        if text.lower() in QUERIES or text.lower() in ("p2", "shift+p"):
            self.field.clear()
            self.query(QUERIES.get(text.lower(), "pieces"), other=text.lower() != "p")
            return
        c = self.session
        self._last_message = ""
        if not self.controller.may_play():  # says why (computer thinking, game over) in a message
            self.announcer.say(self._last_message or status_text(c), "refused")
            return
        game = c.play_game()
        try:
            move = read_typed_move(game, text)
        except MoveEntryError as exc:
            self.announcer.say(_("{text}: {reason}.").format(text=text, reason=str(exc).rstrip(".")), "refused")
            return
        why = game.check(move)
        if why is not None:
            self.announcer.say(_("{move} is not allowed: {reason}.").format(move=c.rules.move_text(move), reason=why),
                               "refused")
            return
        self.field.clear()
        if c.is_live:
            self.controller.play_move(move)
        else:
            self.controller.play_variation(move)

    # ------------------------------------------------------------------------------ queries
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        if obj is self.field:
            if event.key() == Qt.Key.Key_Escape:
                self.window.board.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return True
            return False
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods not in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
            return False
        letter = QKeySequence(event.key()).toString().lower()
        shift = mods == Qt.KeyboardModifier.ShiftModifier
        if letter == "r" and shift:  # F flips the board: the file is Shift+R
            self.query("file")
            return True
        if letter in QUERIES and letter != "f":
            self.query(QUERIES[letter], other=shift)
            return True
        if letter in JUMPS:
            self.jump(JUMPS[letter], back=shift)
            return True
        return False

    def query(self, name: str, other: bool = False) -> str:
        """Answer a query (see the module's docstring), as an announcement; returns the text."""
        text = getattr(self, "_q_" + name)(other)
        self.announcer.say(text, "query")
        return text

    def _pieces(self) -> dict[int, str]:
        c = self.session
        return c.rules.pieces(c.viewed_position)

    def _side_now(self, other: bool) -> int:
        c = self.session
        return int(c.rules.side_to_move(c.viewed_position)) ^ int(other)

    def _q_last(self, _other: bool) -> str:
        c = self.session
        node = c.viewed_node()
        if node.ply is None or node.parent is None:
            return _("No move has been played yet.")
        if c.is_live and self._last_move_text:
            return self._last_move_text
        side = c.sides[int(c.rules.side_to_move(c.tree.position(node.parent)))]
        return _("Last move: {side} {move}.").format(side=side, move=c.rules.move_text(node.ply.move))

    def _q_turn(self, _other: bool) -> str:
        return status_text(self.session)

    def _q_clocks(self, _other: bool) -> str:
        c = self.session
        clock = c.clock
        if clock is None:
            return _("This game has no clock.")
        return "; ".join(_("{side}: {time}").format(side=c.sides[i], time=format_ms(clock.shown(i)[0]))
                         for i in (0, 1))

    def _q_pieces(self, other: bool) -> str:
        c = self.session
        side = self._side_now(other)
        g = c.variant.geometry
        kinds: dict[str, list[str]] = {}
        for s, kind in sorted(self._pieces().items()):
            if c.variant.traits.piece_side(kind) == side:
                kinds.setdefault(kind, []).append(g.name(s))
        n = sum(len(v) for v in kinds.values())
        groups = "; ".join(f"{piece_name(k)} {', '.join(v)}" for k, v in kinds.items())
        return ngettext("{side}: {n} piece: {groups}.", "{side}: {n} pieces: {groups}.", n).format(
            side=c.sides[side], n=n, groups=groups or "-")

    def _line(self, axis: int) -> str:
        board = self.window.board
        g = self.session.variant.geometry
        cursor = board.cursor_square()
        if cursor is None:
            return _("Press Enter on the board to show the cursor first.")
        here = g.point_xy(cursor)[axis]
        squares = sorted((s for s in range(g.size) if abs(g.point_xy(s)[axis] - here) < 1e-6),
                         key=lambda s: g.point_xy(s)[1 - axis] * (-1 if axis == 0 else 1))
        pieces = self._pieces()
        taken = [f"{g.name(s)} {piece_name(pieces[s])}" for s in squares if s in pieces]
        return _("{line}: {pieces}.").format(
            line=(_("Rank of {square}") if axis == 1 else _("File of {square}")).format(square=g.name(cursor)),
            pieces=", ".join(taken) if taken else _("empty"))

    def _q_rank(self, _other: bool) -> str:
        return self._line(1)

    def _q_file(self, _other: bool) -> str:
        return self._line(0)

    def _q_king(self, _other: bool) -> str:
        c = self.session
        if not c.variant.traits.king_announcements:
            return _("This game has no king.")
        calls = [f"{a.title}: {a.detail}" for a in announcements(c, self.controller.announce)]
        return " ".join(calls) if calls else _("No threat: the king can neither escape nor be captured next move.")

    def _q_moves(self, _other: bool) -> str:
        c = self.session
        cursor = self.window.board.cursor_square()
        if cursor is None:
            return _("Press Enter on the board to show the cursor first.")
        moves = [m for m in self.controller.legal_moves() if m and m[0] == cursor]
        name = c.variant.geometry.name(cursor)
        if not moves:
            return _("{square}: no legal move.").format(square=name)
        return ngettext("{square}: {n} legal move: {moves}.", "{square}: {n} legal moves: {moves}.",
                        len(moves)).format(square=name, n=len(moves),
                                           moves=", ".join(c.rules.move_text(m) for m in moves))

    def jump(self, which: int, back: bool = False) -> None:
        """Cursor to the next (or previous) piece of the side to move (0) or the other side (1),
        in reading order (rank by rank from the top, as the board is drawn)."""
        c = self.session
        side = self._side_now(bool(which))
        g = c.variant.geometry
        mine = [s for s, k in self._pieces().items() if c.variant.traits.piece_side(k) == side]
        if not mine:
            self.announcer.say(_("No piece of {side} is left.").format(side=c.sides[side]), "query")
            return
        mine.sort(key=lambda s: (g.point_xy(s)[1], g.point_xy(s)[0]))
        board = self.window.board
        here = board.cursor_square()
        if here is None or here not in mine:
            order = mine if not back else mine[::-1]
            key = (g.point_xy(here)[1], g.point_xy(here)[0]) if here is not None else None
            after = [s for s in order if key is None or
                     ((g.point_xy(s)[1], g.point_xy(s)[0]) > key if not back else
                      (g.point_xy(s)[1], g.point_xy(s)[0]) < key)]
            target = (after or order)[0]
        else:
            i = mine.index(here)
            target = mine[(i - 1 if back else i + 1) % len(mine)]
        board.set_cursor_square(target)


def install(window: MainWindow) -> None:
    """The move field and spoken line at the top of the side panel; Game > Type a Move (Ctrl+L)."""
    blind = BlindPlay(window)
    window.panel.layout().insertWidget(1, blind.box)
    window.blind_play = blind
    act = window.add_action(N_("T&ype a Move"), blind.focus_field, QKeySequence("Ctrl+L"),
                            N_("Type a move or a query letter in the move field (Ctrl+L)"))
    window.game_menu.addAction(act)
    window.act_type_move = act

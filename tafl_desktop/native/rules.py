"""The core's Tafl rules interface, backed by the native engine (:class:`NativeTaflRules`).

It *is* a :class:`~tafl_desktop.core.tafl.TaflRules` (so parsing, notation, explanations,
announcements and square checks stay the core's own code), with the hot operations — legal
moves, counting, playing a move and the outcome — answered by the native rules.  Its positions
are the core's :class:`~tafl_desktop.core.tafl.TaflPosition` objects, so a :class:`Game`, the
window or a test cannot tell which engine made them; that is what lets every Tafl rule test of
the suite run against both (``tests/conftest.py``'s ``tafl_engine`` parameter).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from tafl_desktop.core.game import Move, Outcome
from tafl_desktop.core.tafl import TaflPosition, TaflRules
from tafl_desktop.native.bridge import config_for, native_module, outcome_from, position_tuple

if TYPE_CHECKING:
    import tafl_native
    from tafl_desktop.core.variants import Variant


class NativeTaflRules(TaflRules):
    """Tafl rules whose move generation, captures and outcomes run natively."""

    engine = "native"
    #: ``play`` refuses an illegal move (ValueError: the native engine checks it), so a
    #: :class:`~tafl_desktop.core.game.Game` plays a move without listing every legal move first.
    plays_checked = True

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        module = native_module()
        if module is None:
            raise RuntimeError("the native engine is not available")
        self.native: tafl_native.TaflRules = module.TaflRules(config_for(variant, self))
        #: move text -> move: a replayed collection parses the same few hundred texts again and again
        self._parsed: dict[str, Move] = {}
        self._texts: dict[Move, str] = {}
        self._boards: dict[TaflPosition, str] = {}

    # -- the hot path, natively ------------------------------------------------------------------
    def legal_moves(self, pos: TaflPosition) -> list[Move]:
        # the native list holds (from, to) tuples already
        return self.native.legal_moves(position_tuple(pos))

    def move_text(self, move: Move) -> str:
        """The core's text of a move, remembered (a game database writes each move's twice)."""
        if type(move) is not tuple:
            return super().move_text(move)
        text = self._texts.get(move)
        if text is None:
            text = super().move_text(move)
            if len(self._texts) < 65536:
                self._texts[move] = text
        return text

    def position_text(self, pos: TaflPosition) -> str:
        """The core's text of a board, remembered for a few boards (the start of every game)."""
        text = self._boards.get(pos)
        if text is None:
            text = super().position_text(pos)
            if len(self._boards) < 64:
                self._boards[pos] = text
        return text

    def parse_move(self, pos: TaflPosition, text: str) -> Move:
        """The core's parse (it does not depend on the position), remembered by text."""
        move = self._parsed.get(text)
        if move is None:
            move = super().parse_move(pos, text)
            if len(self._parsed) < 65536:
                self._parsed[text] = move
        return move

    def count_moves(self, pos: TaflPosition) -> int:
        return self.native.count_moves(position_tuple(pos))

    def play(self, pos: TaflPosition, move: Move) -> tuple[TaflPosition, tuple[int, ...]]:
        res = pos.result
        here = (pos.att, pos.dfn, pos.king, pos.side,
                pos.quiet, None if res is None else (None if res.winner is None else int(res.winner), res.reason))
        (att, dfn, king, side, quiet, result), captures, att_t, dfn_t = self.native.play_full(
            here, move if type(move) is tuple else tuple(move))
        after = TaflPosition(att, dfn, att_t, dfn_t, king, side, quiet,
                             None if result is None else outcome_from(result), pos.ply + 1)
        return after, tuple(captures)

    def outcome(self, pos: TaflPosition) -> Outcome | None:
        return outcome_from(self.native.outcome(position_tuple(pos)))

    def repetition_outcome(self, pos: TaflPosition, count: int) -> Outcome | None:
        if count < 2:
            return None  # a position seen once is no repetition under any mode (a replay asks once a move)
        return outcome_from(self.native.repetition_outcome(int(pos.side), count))

    # -- conversion --------------------------------------------------------------------------
    def from_native(self, value: tafl_native.NativePosition) -> TaflPosition:
        """A core position from the native position tuple."""
        att, dfn, king, side, quiet, result = value
        return TaflPosition(att, dfn, self._transpose(att), self._transpose(dfn), king, side, quiet,
                            outcome_from(result))

    def perft(self, pos: TaflPosition, depth: int) -> int:
        """Leaf count of the move tree, natively."""
        return self.native.perft(position_tuple(pos), depth)

    def playouts_for(self, pos: TaflPosition, seconds: float, seed: int = 1,
                     max_plies: int = 2000) -> tuple[int, int, float]:
        """Seeded random playouts from ``pos`` for about ``seconds`` of CPU time, in batches
        (game *i* seeded ``seed + i``): (games, plies, CPU seconds used)."""
        start = position_tuple(pos)
        games = plies = 0
        batch = 16
        t0 = time.process_time()
        while True:
            stats = self.native.random_playouts(start, batch, seed + games, max_plies)
            games += stats["games"]
            plies += stats["plies"]
            used = time.process_time() - t0
            if used >= seconds:
                return games, plies, used
            batch = min(batch * 2, 1 << 16)

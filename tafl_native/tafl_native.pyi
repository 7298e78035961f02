"""Types of the compiled ``tafl_native`` module (the Rust crate beside this file, ``src/py_*.rs``).

Written by hand from the ``#[pyfunction]``/``#[pyclass]`` bindings; maturin packages this file
with the wheel (as ``tafl_native/__init__.pyi``, with a ``py.typed`` marker), and the project's
mypy finds it here through ``mypy_path``.  ``tests/test_native_stub.py`` checks that it and the
built module name the same things.

The aliases and ``TypedDict`` classes below exist for the type checker only (the module has no
such names); everything else is in the module.

What crosses the boundary (see ``API.md``):

* a Tafl position is ``(att, dfn, king, side, quiet, result)``: the bitboards as Python ints, the
  king's square or -1, the side to move (0 attackers, 1 defenders), the moves since the last
  capture, and None or ``(winner, reason)`` (winner 0, 1 or None for a draw);
* a move is ``(from, to)`` (Dablot's: the points a piece visits, as the Python rules write it);
* a Dablot position is ``(cells, side to move, result)``, the result None, -1 (a draw) or the
  winner (0 south, 1 north).
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias, TypedDict

__version__: str

#: ``(winner, reason)`` of a decided position (winner None: a draw), or None.
NativeOutcome: TypeAlias = tuple[int | None, str] | None
#: A Tafl position as it crosses: ``(att, dfn, king, side, quiet, result)``.
NativePosition: TypeAlias = tuple[int, int, int, int, int, NativeOutcome]
#: A move as the core holds it (``Move``); the engine takes and gives ``(from, to)`` pairs.
NativeMove: TypeAlias = tuple[int, ...]
#: A Dablot position handed in: (cells, side to move, result).
DablotCrossing: TypeAlias = tuple[Sequence[int], int, int | None]
#: A proof's answer: won (True/False, None when the node budget ran out), and positions expanded.
Proof: TypeAlias = tuple[bool | None, int]

class NativeError(RuntimeError):
    """The native engine failed (a bug): one line saying where."""

class Playouts(TypedDict):
    """What :meth:`TaflRules.random_playouts` counts."""

    games: int
    plies: int
    attackers: int
    defenders: int
    draws: int
    unfinished: int

class SearchReport(TypedDict):
    """What :meth:`TaflSearch.search` answers (and hands to ``on_iteration`` after each depth)."""

    move: tuple[int, int] | None
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[tuple[int, int]]
    candidates: list[tuple[tuple[int, int], int]]
    scored: list[tuple[tuple[int, int], int]]
    finished_depth: int
    pvs: list[list[tuple[int, int]]]
    full_width_depth: int
    stopped: str

class TaflRules:
    """The Tafl rules of one variant, compiled natively."""

    def __new__(cls, config: dict[str, object]) -> TaflRules: ...
    @property
    def bitboard_bits(self) -> int: ...
    def legal_moves(self, pos: NativePosition) -> list[NativeMove]: ...
    def count_moves(self, pos: NativePosition) -> int: ...
    def play(self, pos: NativePosition, mv: NativeMove) -> tuple[NativePosition, list[int]]: ...
    def play_full(self, pos: NativePosition, mv: NativeMove) -> tuple[NativePosition, list[int], int, int]: ...
    def outcome(self, pos: NativePosition) -> NativeOutcome: ...
    def repetition_outcome(self, to_move: int, count: int) -> NativeOutcome: ...
    def king_threats(self, pos: NativePosition) -> list[NativeMove]: ...
    def hashes(self, pos: NativePosition) -> tuple[int, int]: ...
    def position_text(self, pos: NativePosition) -> str: ...
    def perft(self, pos: NativePosition, depth: int) -> int: ...
    def perft_divide(self, pos: NativePosition, depth: int) -> list[tuple[tuple[int, int], int]]: ...
    def random_playouts(self, pos: NativePosition, games: int, seed: int = 1, max_plies: int = 10_000) -> Playouts: ...
    def tables(self) -> dict[str, object]: ...

class TaflSearch:
    """A native searcher for one Tafl variant (its transposition table lives between searches)."""

    def __new__(cls, config: dict[str, object], tables: dict[str, object], table_bits: int = 20) -> TaflSearch: ...
    def search(
        self,
        position: NativePosition,
        limits: dict[str, float | int | bool],
        history: Iterable[NativePosition],
        should_stop: Callable[[], bool] | None = None,
        on_iteration: Callable[[SearchReport], None] | None = None,
        only: Sequence[NativeMove] | None = None,
    ) -> SearchReport: ...
    def pv(self, position: NativePosition, first: NativeMove) -> list[tuple[int, int]]: ...
    def evaluate(self, position: NativePosition) -> int: ...
    def evaluate_many(self, positions: Iterable[NativePosition]) -> list[int]: ...
    def wins(self, position: NativePosition, winner: int, plies: int, max_nodes: int = 0) -> Proof: ...
    def forget_proofs(self) -> None: ...
    def clear(self) -> None: ...
    def _panic_for_test(self) -> None: ...

class DablotProver:
    """Proves forced wins in one Dablot variant (its lattice and rule settings)."""

    def __new__(
        cls,
        steps: Sequence[Sequence[int]],
        jumps: Sequence[Sequence[tuple[int, int]]],
        rows: Sequence[int],
        ranks: Sequence[int],
        far_rows: Sequence[Sequence[bool]],
        settings: dict[str, bool],
    ) -> DablotProver: ...
    def wins(self, position: DablotCrossing, winner: int, plies: int, max_nodes: int = 0) -> Proof: ...
    def forget_proofs(self) -> None: ...
    def successors(self, position: DablotCrossing) -> list[tuple[list[int], int, int | None]]: ...
    def has_moves(self, position: DablotCrossing) -> bool: ...

class DablotSearch:
    """A native searcher for one Dablot variant: moves cross as the points a piece visits."""

    def __new__(
        cls,
        steps: Sequence[Sequence[int]],
        jumps: Sequence[Sequence[tuple[int, int]]],
        rows: Sequence[int],
        ranks: Sequence[int],
        far_rows: Sequence[Sequence[bool]],
        settings: dict[str, bool],
        tables: dict[str, Any],
        table_bits: int = 20,
    ) -> DablotSearch: ...
    def search(
        self,
        position: DablotCrossing,
        limits: dict[str, float | int | bool],
        history: Sequence[DablotCrossing],
        should_stop: Callable[[], bool] | None = None,
        on_iteration: Callable[[SearchReport], None] | None = None,
        only: Sequence[Sequence[int]] | None = None,
    ) -> SearchReport: ...
    def pv(self, position: DablotCrossing, first: Sequence[int]) -> list[list[int]]: ...
    def evaluate(self, position: DablotCrossing) -> int: ...
    def evaluate_many(self, positions: Sequence[DablotCrossing]) -> list[int]: ...
    def moves(self, position: DablotCrossing) -> list[list[int]]: ...
    def tactics(self, position: DablotCrossing) -> tuple[str, list[list[int]]]: ...
    def clear(self) -> None: ...

HuntCrossing: TypeAlias = tuple[int, int, int, int, int | None]

class HuntRules:
    """One Fox-game variant's rules: moves cross as the points a piece visits."""

    def __new__(
        cls,
        steps: Sequence[Sequence[Sequence[int]]],
        jumps: Sequence[Sequence[tuple[int, int]]],
        home: int,
        pen: int,
        settings: dict[str, Any],
    ) -> HuntRules: ...
    def moves(self, position: HuntCrossing) -> list[list[int]]: ...
    def play(self, position: HuntCrossing, path: Sequence[int]) -> HuntCrossing: ...
    def has_moves(self, position: HuntCrossing) -> bool: ...

class HuntSearch:
    """A native searcher for one Fox-game variant: moves cross as the points a piece visits."""

    def __new__(
        cls,
        steps: Sequence[Sequence[Sequence[int]]],
        jumps: Sequence[Sequence[tuple[int, int]]],
        home: int,
        pen: int,
        settings: dict[str, Any],
        tables: dict[str, Any],
        table_bits: int = 20,
    ) -> HuntSearch: ...
    def search(
        self,
        position: HuntCrossing,
        limits: dict[str, float | int | bool],
        history: Sequence[HuntCrossing],
        should_stop: Callable[[], bool] | None = None,
        on_iteration: Callable[[SearchReport], None] | None = None,
        only: Sequence[Sequence[int]] | None = None,
    ) -> SearchReport: ...
    def pv(self, position: HuntCrossing, first: Sequence[int]) -> list[list[int]]: ...
    def evaluate(self, position: HuntCrossing) -> int: ...
    def evaluate_many(self, positions: Sequence[HuntCrossing]) -> list[int]: ...
    def tactics(self, position: HuntCrossing) -> tuple[str, list[list[int]]]: ...
    def clear(self) -> None: ...
    def wins(self, position: HuntCrossing, winner: int, plies: int, max_nodes: int = 0) -> Proof: ...
    def forget_proofs(self) -> None: ...

def option_keys() -> list[str]: ...
def option_values() -> dict[str, str | tuple[int, int] | list[str]]: ...
def option_defaults() -> dict[str, bool | int | str]: ...
def cpu_missing() -> list[str]: ...
def _panic_for_test() -> None: ...

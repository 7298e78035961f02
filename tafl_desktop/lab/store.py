"""A study's folder: ``study.json`` (what it plays) and ``games.jsonl`` (one line per finished game).

Each finished game is appended and flushed to disk at once, so a crash, a kill or a closed laptop
lid loses at most the games being played.  Reopening the folder with the same study continues it;
a folder that holds a different study is refused rather than mixed.

Two ways in, and only one of them writes:

* :meth:`ResultStore.open` with a study (``lab`` and the window's Run) may write: it creates the
  folder and ``study.json``, and repairs a torn last line of ``games.jsonl`` (the writer was
  killed mid-line) by *moving* those bytes to ``games.torn`` (appended, never overwritten), never
  by deleting them; a complete last game that merely lacks its newline gets one.
* :meth:`ResultStore.open` without a study (``lab-compare``, ``lab-game``, ``print --balance``, the
  print dialog) only reads: it changes no byte in the folder.

Everything read is distrusted: a FIFO, device or oversized file is refused before it is read, a
study file must keep the limits of one made on the command line (a claim of 10^12 games is
refused), and every stored game is replayed under its cell's rules.  A line that is not a game,
a game whose moves are illegal or do not reach its stored result, a cell that does not exist, and
two different games stored under one number are not counted, and each kind is reported in one
sentence (:attr:`ResultStore.problems`).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from tafl_desktop.core.quoting import json_problem
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.lab.study import Study, StudyError

STUDY_FILE = "study.json"
GAMES_FILE = "games.jsonl"
#: Where ``lab`` moves the bytes of a torn last line (appended; nothing there is ever removed).
TORN_FILE = "games.torn"
#: Largest ``study.json`` read (a study's variant data is a few kilobytes).
MAX_STUDY_BYTES = 4 * 1024 * 1024
#: A games file larger than this is not a study's (about a million games of 300 plies).
MAX_GAMES_BYTES = 1024**3
#: Longest line of ``games.jsonl`` read as a game (5,000 plies of 12 bytes is 60 kB).
MAX_LINE_BYTES = 1024 * 1024
#: Line numbers quoted in a problem's sentence.
QUOTED_LINES = 5


class ResultStore:
    """The results of one study in one folder; ``open`` creates or checks it."""

    def __init__(self, folder: Path, study: Study, results: dict[tuple[int, int], dict[str, Any]],
                 problems: list[str] | None = None, writable: bool = False) -> None:
        self.folder = folder
        self.study = study
        self.results = results
        #: One sentence per kind of stored line that was not counted (empty when all were good).
        self.problems: list[str] = problems or []
        self.writable = writable
        self._cells = len(study.cells())
        self._per_cell: dict[int, dict[int, dict[str, Any]]] = {}
        for (c, g), r in results.items():
            self._per_cell.setdefault(c, {})[g] = r

    @classmethod
    def open(cls, folder: str | Path, study: Study | None = None) -> ResultStore:
        """Open ``folder`` for ``study``, or with None read the study the folder already holds
        without writing anything.

        A study with the same games but more per cell extends the stored one (the folder's
        study file is updated); anything else different is a StudyError."""
        folder = Path(folder)
        spec = folder / STUDY_FILE
        stored = _read_study(folder, spec)
        writable = study is not None
        if study is None:
            if stored is None:
                raise StudyError(_("{folder} holds no study").format(folder=_shown(folder)))
            study = stored
        elif stored is not None and stored.fingerprint() != study.fingerprint():
            raise StudyError(_("{folder} already holds a different study; choose another folder").format(
                folder=_shown(folder)))
        problems: list[str] = []
        try:
            if writable:
                folder.mkdir(parents=True, exist_ok=True)
                if stored is None or stored.games != study.games:
                    _write_in(folder, STUDY_FILE, json.dumps(study.to_data(), indent=1, sort_keys=True))
                repaired = _repair_torn_line(folder, study)
                if repaired:
                    problems.append(repaired)
            results = _read_games(folder / GAMES_FILE, study, problems)
        except OSError as exc:
            raise StudyError(_("cannot use {folder}: {problem}").format(
                folder=_shown(folder), problem=exc.strerror or exc)) from None
        return cls(folder, study, results, problems, writable)

    def done(self, cell: int, game: int) -> bool:
        return (cell, game) in self.results

    def add(self, result: dict[str, Any]) -> None:
        """Append one finished game and flush it to disk before returning."""
        if not self.writable:
            raise StudyError(_("this study was opened for reading only"))
        key = (int(result["cell"]), int(result["game"]))
        if key in self.results:
            return
        data = (json.dumps(result, separators=(",", ":")) + "\n").encode("utf-8")
        fd = _open_in(self.folder, GAMES_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        finally:
            os.close(fd)
        self.results[key] = result
        self._per_cell.setdefault(key[0], {})[key[1]] = result

    def cell_results(self, cell: int) -> list[dict[str, Any]]:
        """The stored games of one cell within the study's games per cell, in game order."""
        games = self.study.games
        stored = self._per_cell.get(cell, {})
        return [stored[g] for g in sorted(stored) if g < games]

    @property
    def finished(self) -> int:
        games, cells = self.study.games, self._cells
        return sum(1 for (c, g) in self.results if g < games and c < cells)


# ---------------------------------------------------------------------------------- reading
def _shown(path: Path | str) -> str:
    from tafl_desktop.core.quoting import shown

    return shown(str(path))


def _regular_fd(path: Path, flags: int, limit: int | None = None) -> int:
    """An open descriptor of the regular file ``path``: a FIFO, device, socket or folder is
    refused before it could block or never end, and so is a file over ``limit`` bytes."""
    from tafl_desktop.core.safe_files import FileRefused, _refuse

    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(st.st_mode, path)
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)  # the path may have been swapped for a FIFO between stat and open
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(st.st_mode, path)
        if limit is not None and st.st_size > limit:
            raise FileRefused(errno.EFBIG, _("{name} is too large to be a study's results").format(
                name=path.name), str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_study(folder: Path, spec: Path) -> Study | None:
    """The study ``study.json`` describes (None when there is none); StudyError when it is not one."""
    from tafl_desktop.core.safe_files import read_limited

    if not os.path.lexists(spec):
        return None
    try:
        raw = read_limited(spec, MAX_STUDY_BYTES)
        data = json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise StudyError(_("{folder} holds no readable study: {problem}").format(
            folder=_shown(folder), problem=exc.strerror or exc)) from None
    except RecursionError:
        raise StudyError(_("{folder} holds no readable study: {problem}").format(
            folder=_shown(folder), problem=_("it is nested too deeply"))) from None
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise StudyError(_("{folder} holds no readable study: {problem}").format(
            folder=_shown(folder), problem=json_problem(exc))) from None
    return Study.from_data(data)


def _lines(fh: BinaryIO) -> Iterator[tuple[int, bytes | None, bool]]:
    """(line number, bytes without the newline, ended by a newline) of each line; a line longer
    than MAX_LINE_BYTES is read past and yielded as None, so it is never held whole."""
    number = 0
    while True:
        line = fh.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES:
            while line and not line.endswith(b"\n"):
                line = fh.readline(MAX_LINE_BYTES)
            yield number, None, line.endswith(b"\n")
            continue
        yield number, line.rstrip(b"\r\n"), line.endswith(b"\n")


class _Replayer:
    """Replays stored games under their cell's rules (each cell's rules built once)."""

    def __init__(self, study: Study) -> None:
        self.study = study
        self.keys = study.side_keys
        self._rules: dict[int, Any] = {}
        self._variants: dict[int, Any] = {}
        self._cells = len(study.cells())

    def problem(self, r: Any) -> str | None:
        """None when ``r`` is a game of this study whose moves reach its stored result; else
        the kind of problem: "format", "cell" or "replay"."""
        from tafl_desktop.core.game import Game, IllegalMove

        if not isinstance(r, dict) or "winner" not in r:
            return "format"
        for cost in ("seconds", "cpu_seconds"):  # figures the report averages: numbers or absent
            value = r.get(cost, 0.0)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e9:
                return "format"
        cell, game, plies, moves = r.get("cell"), r.get("game"), r.get("plies"), r.get("moves")
        if not (isinstance(cell, int) and isinstance(game, int) and isinstance(plies, int)) \
                or any(isinstance(x, bool) for x in (cell, game, plies)) or not isinstance(moves, list) \
                or not isinstance(r.get("capped"), bool) \
                or r.get("winner") not in (*self.keys, None) or not all(isinstance(m, str) for m in moves):
            return "format"
        if not 0 <= cell < self._cells or game < 0:
            return "cell"
        if not 0 <= plies <= self.study.max_plies or len(moves) != plies:
            return "replay"
        rules = self._rules.get(cell)
        if rules is None:
            from tafl_desktop.lab.study import rules_of, variant_of

            data = self.study.cell_variant_data(self.study.cells()[cell])
            rules = self._rules[cell] = rules_of(data)
            self._variants[cell] = variant_of(data)
        g = Game(rules)
        try:
            for text in moves:
                if g.over:
                    return "replay"
                g.play_text(text)
        except (IllegalMove, ValueError):
            return "replay"
        out = g.outcome
        variant = self._variants[cell]
        winner = variant.side_key(out.winner) if out is not None and out.winner is not None else None
        capped = out is None
        if r["winner"] != winner or r["capped"] != capped or (capped and plies != self.study.max_plies
                                                               and g.legal_moves()):
            return "replay"
        return None


def _read_games(path: Path, study: Study, problems: list[str]) -> dict[tuple[int, int], dict[str, Any]]:
    """The stored games that replay to their result; what was not counted goes into ``problems``.
    A torn last line (no newline, not a game) is left where it is and reported."""
    if not os.path.lexists(path):
        return {}
    fd = _regular_fd(path, os.O_RDONLY, MAX_GAMES_BYTES)
    replayer = _Replayer(study)
    results: dict[tuple[int, int], dict[str, Any]] = {}
    bad: dict[str, list[int]] = {"format": [], "cell": [], "replay": [], "twice": [], "torn": []}
    with os.fdopen(fd, "rb") as fh:
        for number, raw, ended in _lines(fh):
            if raw is None:
                bad["format"].append(number)
                continue
            if not raw.strip():
                continue  # a blank line holds nothing to count
            try:
                r = json.loads(raw)
            except (ValueError, RecursionError):
                bad["format" if ended else "torn"].append(number)
                continue
            cell, game = (r.get("cell"), r.get("game")) if isinstance(r, dict) else (None, None)
            key: tuple[int, int] | None = None
            if isinstance(cell, int) and isinstance(game, int) and not isinstance(cell, bool) \
                    and not isinstance(game, bool):
                key = (cell, game)
            if key is not None and key in results:
                if r != results[key]:  # the same game twice is harmless; two different ones are not
                    bad["twice"].append(number)
                continue
            why = replayer.problem(r)
            if why is not None or key is None:
                bad[why or "format"].append(number)
                continue
            results[key] = r
    problems.extend(_sentences(path.name, bad))
    return results


def _sentences(name: str, bad: dict[str, list[int]]) -> list[str]:
    out = []
    for kind, numbers in bad.items():
        if not numbers:
            continue
        n = len(numbers)
        lines = ", ".join(str(x) for x in numbers[:QUOTED_LINES]) + (", ..." if n > QUOTED_LINES else "")
        if kind == "format":
            text = ngettext("{file}: {n} line is not a game result and is not counted (line {lines})",
                            "{file}: {n} lines are not game results and are not counted (lines {lines})", n)
        elif kind == "cell":
            text = ngettext("{file}: {n} game belongs to no cell of the study and is not counted (line {lines})",
                            "{file}: {n} games belong to no cell of the study and are not counted (lines {lines})",
                            n)
        elif kind == "replay":
            text = ngettext("{file}: {n} game does not replay to its stored result (an illegal move, another "
                            "ending or a wrong count) and is not counted (line {lines})",
                            "{file}: {n} games do not replay to their stored results (an illegal move, another "
                            "ending or a wrong count) and are not counted (lines {lines})", n)
        elif kind == "twice":
            text = ngettext("{file}: {n} game is stored again with a different result; only its first line is "
                            "counted (line {lines})",
                            "{file}: {n} games are stored again with different results; only the first line of "
                            "each is counted (lines {lines})", n)
        else:
            text = _("{file}: the last line is cut off (the study stopped while writing it) and is not counted "
                     "(line {lines})")
        out.append(text.format(file=name, n=n, lines=lines))
    return out


# ---------------------------------------------------------------------------------- writing
def _inside(folder: Path, name: str) -> Path:
    """``folder/name`` for writing: a link there may name a file in the folder, never one
    outside it (a ``chart.png`` link to ``~/.bashrc`` is refused, not written through)."""
    from tafl_desktop.core.safe_files import FileRefused

    path = folder / name
    if os.path.islink(path):
        target = Path(os.path.realpath(path))
        if Path(os.path.realpath(folder)) not in target.parents:
            raise FileRefused(errno.EPERM, _("{name} is a link to a file outside the study's folder").format(
                name=name), str(path))
    return path


def _write_in(folder: Path, name: str, data: bytes | str) -> Path:
    """Write one of the study's own files atomically (``core.safe_files.write_safely``)."""
    from tafl_desktop.core.safe_files import write_safely

    return write_safely(_inside(folder, name), data)


def _open_in(folder: Path, name: str, flags: int) -> int:
    """A descriptor of one of the study's files for appending (created as a regular file)."""
    path = _inside(folder, name)
    if not os.path.lexists(path) and flags & os.O_CREAT:
        fd = os.open(path, flags | getattr(os, "O_NOFOLLOW", 0) | os.O_EXCL, 0o666)
        return fd
    return _regular_fd(path, flags & ~os.O_CREAT)


def _repair_torn_line(folder: Path, study: Study) -> str | None:
    """Give ``games.jsonl`` a clean end before games are appended; a sentence saying what was
    done, or None when nothing was needed.  A complete game without its newline gets one; any
    other unfinished last line is appended to ``games.torn`` (synced) before it is cut off."""
    path = _inside(folder, GAMES_FILE)
    if not os.path.lexists(path):
        return None
    fd = _regular_fd(path, os.O_RDWR, MAX_GAMES_BYTES)
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            return None
        start = size
        while start > 0:  # back to the last newline, a block at a time
            step = min(start, 65536)
            block = os.pread(fd, step, start - step)
            nl = block.rfind(b"\n")
            if nl >= 0:
                start = start - step + nl + 1
                break
            start -= step
        if start == size:
            return None
        tail = os.pread(fd, size - start, start) if size - start <= MAX_LINE_BYTES else None
        if tail is not None:
            try:
                r = json.loads(tail)
            except (ValueError, RecursionError):
                r = None
            if r is not None and _Replayer(study).problem(r) is None:
                os.lseek(fd, 0, os.SEEK_END)
                os.write(fd, b"\n")
                os.fsync(fd)
                return None
        side = _open_in(folder, TORN_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            at = start
            while at < size:
                chunk = os.pread(fd, min(1 << 20, size - at), at)
                if not chunk:
                    break
                os.write(side, chunk)
                at += len(chunk)
            os.write(side, b"\n")
            os.fsync(side)
        finally:
            os.close(side)
        os.ftruncate(fd, start)
        os.fsync(fd)
        return ngettext("{file}: its cut-off last line ({n} byte) was moved to {torn}",
                        "{file}: its cut-off last line ({n} bytes) was moved to {torn}", size - start).format(
            file=GAMES_FILE, n=size - start, torn=TORN_FILE)
    finally:
        os.close(fd)


def finished_studies(folder: str | Path, variant_id: str) -> list[ResultStore]:
    """The complete studies of ``variant_id`` under ``folder``, newest first (for the print dialog);
    read only, and a folder that is not a readable study is passed over."""
    found = []
    root = Path(folder)
    if not root.is_dir():
        return []
    for spec in root.glob(f"*/{STUDY_FILE}"):
        try:
            stored = _read_study(spec.parent, spec)  # cheap: the games are read only for this variant
            if stored is None or stored.base.get("id") != variant_id:
                continue
            store = ResultStore.open(spec.parent)
        except (OSError, ValueError):
            continue
        if store.finished == len(store.study.cells()) * store.study.games and not store.problems:
            found.append((spec.stat().st_mtime, store))
    return [store for _t, store in sorted(found, key=lambda x: -x[0])]

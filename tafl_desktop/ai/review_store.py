"""A review's evaluations kept in a file as they are made, so that a stopped review resumes.

``tafl-desktop review GAME --resume FILE`` writes FILE as JSON lines: first a header naming what
is reviewed, then one line per evaluated position, appended and flushed as soon as that position
is done.  Run again with the same FILE, the review reads the positions already there and searches
only the rest.  Because every position is searched on its own (see :mod:`tafl_desktop.ai.review`),
a resumed review is the same as one run without a stop.

Header: ``{"format": "tafl-desktop-review", "version": 1, "game": FINGERPRINT, "budget": {...},
"engine": "python"}``; the fingerprint is a SHA-256 of the variant (its data), the start position
and the moves.  Position lines: ``{"index": I, "eval": {...}}``.

Hostile or unexpected files never lose data and never produce a wrong review:

* a file that is not a review file (another format, another game, another budget or engine) is
  refused in one line, and left as it is;
* a last line cut short (the run was killed while writing it) is dropped and rewritten;
* any other broken line, an index outside the game, or an evaluation of the wrong shape is refused;
* a folder, a device or an unwritable path is refused before anything is searched.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import IO, Any

from tafl_desktop.core.game import P, Rules
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import quote

FORMAT = "tafl-desktop-review"
VERSION = 1
#: The keys and types of one position's evaluation.
EVAL_KEYS = {"score": int, "best": str, "best_move": list, "line": list, "depth": int, "side": int,
             "scores": list}
#: Refuse files beyond this size (a review of the longest game is a few hundred kilobytes).
MAX_BYTES = 64 * 1024 * 1024


class StoreError(ValueError):
    """A review file that cannot be used; the message is one line."""


def fingerprint(rules: Rules[P], start: P, moves: list[tuple[int, ...]]) -> str:
    """What identifies the reviewed game: the variant, the start position and the moves."""
    data = {"variant": rules.variant.to_data(), "start": repr(rules.position_key(start)),
            "moves": [list(m) for m in moves]}
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check_eval(e: object) -> dict[str, Any]:
    if not isinstance(e, dict) or set(e) != set(EVAL_KEYS):
        raise ValueError("an evaluation of the wrong shape")
    for key, kind in EVAL_KEYS.items():
        if type(e[key]) is not kind:
            raise ValueError(f"an evaluation whose {key} is not a {kind.__name__}")
    if e["side"] not in (0, 1) or not all(type(s) is int for s in e["best_move"] + e["scores"]) \
            or not all(isinstance(t, str) for t in e["line"]):
        raise ValueError("an evaluation of the wrong shape")
    return e


class ReviewStore:
    """The evaluations of one review in ``path`` (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any], positions: int) -> None:
        self.path = Path(path)
        self.header = {"format": FORMAT, "version": VERSION, **header}
        self.positions = positions
        self._fh: IO[str] | None = None

    # ------------------------------------------------------------------------------ reading
    def load(self) -> dict[int, dict[str, Any]]:
        """The evaluations already in the file (none when it does not exist yet), after checking
        that it is this review's file; then the file is ready for :meth:`add`.  StoreError
        otherwise (nothing is written)."""
        name = quote(str(self.path))
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self._create()
            return {}
        except OSError as exc:
            raise StoreError(_("--resume: {name} cannot be read: {why}").format(
                name=name, why=exc.strerror or exc)) from None
        if stat.S_ISDIR(st.st_mode):
            raise StoreError(_("--resume: {name} is a folder, not a review file").format(name=name))
        if not stat.S_ISREG(st.st_mode):
            raise StoreError(_("--resume: {name} is not a regular file").format(name=name))
        if st.st_size > MAX_BYTES:
            raise StoreError(_("--resume: {name} is too large to be a review file").format(name=name))
        try:
            raw = self.path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            raise StoreError(_("--resume: {name} is not a review file").format(name=name)) from None
        evals, keep = self._parse(raw, name)
        self._open_for_append(raw, keep, name)
        return evals

    def _parse(self, raw: str, name: str) -> tuple[dict[int, dict[str, Any]], int]:
        """The evaluations, and how many characters of ``raw`` to keep (a cut-off last line
        goes)."""
        if not raw.strip():
            raise StoreError(_("--resume: {name} is empty, not a review file (delete it to start afresh)").format(
                name=name))
        lines = raw.split("\n")
        complete = raw.endswith("\n")
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError:
            raise StoreError(_("--resume: {name} is not a review file").format(name=name)) from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise StoreError(_("--resume: {name} is not a review file").format(name=name))
        if header.get("version") != VERSION:
            raise StoreError(_("--resume: {name} was written by another version of the review").format(name=name))
        other = {"game": _("--resume: {name} holds the review of another game; give another file or delete it"),
                 "budget": _("--resume: {name} holds a review at another depth or budget; give another file or "
                             "delete it"),
                 "engine": _("--resume: {name} holds a review by another engine; give another file or delete it")}
        for key, text in other.items():
            if header.get(key) != self.header[key]:
                raise StoreError(text.format(name=name))
        evals: dict[int, dict[str, Any]] = {}
        keep = len(lines[0]) + 1
        body = lines[1:]
        for n, text in enumerate(body):
            last = n == len(body) - 1
            if not text.strip():
                if last:
                    break
                raise StoreError(_("--resume: {name} line {line} is empty").format(name=name, line=n + 2))
            try:
                item = json.loads(text)
                index = item["index"]
                if type(index) is not int or not 0 <= index < self.positions:
                    raise ValueError("a position outside the game")
                evals[index] = _check_eval(item["eval"])
            except (KeyError, TypeError, ValueError) as exc:
                if last and not complete:
                    break  # cut short while being written: drop it, it is searched again
                raise StoreError(_("--resume: {name} line {line} is not an evaluation of a position of this game")
                                 .format(name=name, line=n + 2)) from exc
            keep += len(text) + 1
        return evals, min(keep, len(raw))

    # ------------------------------------------------------------------------------ writing
    def _create(self) -> None:
        name = quote(str(self.path))
        try:
            self._fh = open(self.path, "x", encoding="utf-8")  # noqa: SIM115 - kept open while the review runs
            self._write(self.header)
        except OSError as exc:
            raise StoreError(_("--resume: {name} cannot be written: {why}").format(
                name=name, why=exc.strerror or exc)) from None

    def _open_for_append(self, raw: str, keep: int, name: str) -> None:
        try:
            fh = open(self.path, "r+", encoding="utf-8")  # noqa: SIM115 - kept open while the review runs
        except OSError as exc:
            raise StoreError(_("--resume: {name} cannot be written: {why}").format(
                name=name, why=exc.strerror or exc)) from None
        if keep < len(raw):  # a cut-off last line: drop it
            fh.truncate(len(raw[:keep].encode("utf-8")))
        fh.seek(0, os.SEEK_END)
        if keep and not raw[:keep].endswith("\n"):
            fh.write("\n")
        self._fh = fh

    def _write(self, item: dict[str, Any]) -> None:
        assert self._fh is not None
        self._fh.write(json.dumps(item, separators=(",", ":")) + "\n")
        self._fh.flush()

    def add(self, index: int, evaluation: dict[str, Any]) -> None:
        """Append one position's evaluation (flushed at once: a kill loses at most this line)."""
        self._write({"index": index, "eval": evaluation})

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

"""A study's folder: ``study.json`` (what it plays) and ``games.jsonl`` (one line per finished game).

Each finished game is appended and flushed to disk at once, so a crash, a kill or a closed laptop
lid loses at most the games being played; a half-written last line (the kill came mid-write) is
cut off on the next open.  Reopening the folder with the same study continues it; a folder that
holds a different study is refused rather than mixed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tafl_desktop.i18n import _
from tafl_desktop.lab.study import Study, StudyError

STUDY_FILE = "study.json"
GAMES_FILE = "games.jsonl"
#: A games file larger than this is not a study's (40 bytes a ply, 300 plies, a million games).
MAX_GAMES_BYTES = 2 * 1024**3


class ResultStore:
    """The results of one study in one folder; ``open`` creates or checks it."""

    def __init__(self, folder: Path, study: Study, results: dict[tuple[int, int], dict[str, Any]]) -> None:
        self.folder = folder
        self.study = study
        self.results = results

    @classmethod
    def open(cls, folder: str | Path, study: Study | None = None) -> ResultStore:
        """Open ``folder`` for ``study`` (None: the study the folder already holds).

        A study with the same games but more per cell extends the stored one (the folder's
        study file is updated); anything else different is a StudyError."""
        folder = Path(folder)
        spec = folder / STUDY_FILE
        stored: Study | None = None
        if spec.exists():
            try:
                stored = Study.from_data(json.loads(spec.read_text(encoding="utf-8")))
            except (OSError, ValueError) as exc:
                raise StudyError(_("{folder} holds no readable study: {problem}").format(
                    folder=folder, problem=str(exc)[:200])) from None
        if study is None:
            if stored is None:
                raise StudyError(_("{folder} holds no study").format(folder=folder))
            study = stored
        elif stored is not None and stored.fingerprint() != study.fingerprint():
            raise StudyError(_("{folder} already holds a different study; choose another folder").format(
                folder=folder))
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if stored is None or stored.games != study.games:
                _write_json(spec, study.to_data())
            results = dict(_read_games(folder / GAMES_FILE))
        except OSError as exc:
            raise StudyError(_("cannot use {folder}: {problem}").format(
                folder=folder, problem=exc.strerror or exc)) from None
        return cls(folder, study, results)

    def done(self, cell: int, game: int) -> bool:
        return (cell, game) in self.results

    def add(self, result: dict[str, Any]) -> None:
        """Append one finished game and flush it to disk before returning."""
        key = (int(result["cell"]), int(result["game"]))
        if key in self.results:
            return
        line = json.dumps(result, separators=(",", ":")) + "\n"
        with open(self.folder / GAMES_FILE, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        self.results[key] = result

    def cell_results(self, cell: int) -> list[dict[str, Any]]:
        """The stored games of one cell within the study's games per cell, in game order."""
        return [self.results[(cell, g)] for g in range(self.study.games) if (cell, g) in self.results]

    @property
    def finished(self) -> int:
        return sum(1 for (c, g) in self.results if g < self.study.games and c < len(self.study.cells()))


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


def _read_games(path: Path) -> Iterator[tuple[tuple[int, int], dict[str, Any]]]:
    """The stored games; a torn last line (the writer was killed mid-line) is cut off the file."""
    if not path.exists():
        return
    if path.stat().st_size > MAX_GAMES_BYTES:
        raise OSError(0, _("{name} is too large to be a study's results").format(name=path.name))
    data = path.read_bytes()
    good = data.rfind(b"\n") + 1
    if good < len(data):
        with open(path, "r+b") as f:
            f.truncate(good)
    for raw in data[:good].splitlines():
        try:
            r = json.loads(raw)
            key = (int(r["cell"]), int(r["game"]))
        except (ValueError, KeyError, TypeError):
            continue  # a line that is not a game result is skipped, not fatal
        yield key, r


def finished_studies(folder: str | Path, variant_id: str) -> list[ResultStore]:
    """The complete studies of ``variant_id`` under ``folder``, newest first (for the print dialog)."""
    found = []
    root = Path(folder)
    if not root.is_dir():
        return []
    for spec in root.glob(f"*/{STUDY_FILE}"):
        try:
            data = json.loads(spec.read_text(encoding="utf-8"))
            if data.get("base", {}).get("id") != variant_id:
                continue
            store = ResultStore.open(spec.parent)
        except (OSError, ValueError):
            continue
        if store.finished == len(store.study.cells()) * store.study.games:
            found.append((spec.stat().st_mtime, store))
    return [store for _t, store in sorted(found, key=lambda x: -x[0])]

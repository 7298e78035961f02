"""Files a study writes besides its store: the summary, the charts and exported game records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tafl_desktop.i18n import _
from tafl_desktop.lab.study import StudyError


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (the old file or the new one, never half of one),
    through a link to its file and never over a device, folder or pipe (``core.safe_files``)."""
    from tafl_desktop.core.safe_files import write_safely

    write_safely(path, data)


#: The files a study writes besides its store.
OUTPUTS = ("summary.json", "chart.png", "chart.pdf")


def output_paths(folder: Path) -> list[Path]:
    """Where :func:`write_outputs` writes; OSError (one sentence) for a link there to a file
    outside the folder, so ``lab`` can refuse it before the games are played."""
    from tafl_desktop.lab.store import _inside

    return [_inside(folder, name) for name in OUTPUTS]


def write_outputs(store: Any, report: dict[str, Any], charts: bool = True) -> list[Path]:
    """``summary.json``, ``chart.png`` and ``chart.pdf`` in the study's folder (a link there may
    name a file in the folder, never one outside it: ``lab.store``).  ``charts=False`` writes the
    summary alone: after Ctrl+C the command ends at once, and the charts (seconds of plotting)
    come with the run that goes on."""
    from tafl_desktop.lab.charts import save_chart

    out = output_paths(store.folder)
    write_bytes(out[0], json.dumps(report, indent=1).encode())
    if charts and any(c["games"] for c in report["cells"]):
        save_chart(report, out[1])
        save_chart(report, out[2])
    return out


def game_of(store: Any, cell: int, game: int):
    """A stored study game as a :class:`~tafl_desktop.core.game.Game` (to save or show)."""
    from tafl_desktop.core.game import Game, IllegalMove
    from tafl_desktop.lab.study import rules_of

    study = store.study
    cells = study.cells()
    if not 0 <= cell < len(cells) or not store.done(cell, game):
        raise StudyError(_("the study holds no game {game} in cell {cell}").format(game=game, cell=cell))
    g = Game(rules_of(study.cell_variant_data(cells[cell])))
    try:
        for text in store.results[(cell, game)]["moves"]:
            g.play_text(text)
    except (IllegalMove, KeyError, TypeError) as exc:
        raise StudyError(_("game {game} of cell {cell} does not replay: {problem}").format(
            game=game, cell=cell, problem=str(exc)[:200])) from None
    return g

"""The evaluation graph of a reviewed game: who was better after each move.

One drawing function, :func:`draw_review`, fills a matplotlib ``Figure``; the window shows that
figure on a Qt canvas and the command line writes it with ``Figure.savefig`` as PNG or PDF, so
screen and paper show the same chart.  matplotlib's object API (``Figure``, no ``pyplot``) is used
so that no global state or GUI backend is involved when writing files.

The curve is side 1's winning chance (the review's ``score_for`` side) from 0 to 100 %, filled
from the 50 % line in the colour of the side that is ahead, on a neutral background so that a
light and a dark side both show.  Mistakes and blunders are marked on the curve.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tafl_desktop.ai.analysis import win_chance
from tafl_desktop.core.marks import percent
from tafl_desktop.core.quoting import quote
from tafl_desktop.i18n import _

#: The sides' colours when no board theme says otherwise (the default theme's pieces).
DEFAULT_COLOURS = ("#2b2522", "#f4ecdc")
BACKGROUND = "#a59c8c"
MARKS = {"inaccuracy": "#e0c341", "mistake": "#f08a24", "blunder": "#d3262e"}
FORMATS = ("png", "pdf")


def draw_review(fig: Any, plies: Sequence[dict[str, Any]], sides: Sequence[str],
                colours: Sequence[str] = DEFAULT_COLOURS, current: int | None = None, legend: bool = True) -> Any:
    """Draw the review's ``plies`` (``{"ply", "score", "class"}``, score from side 1's view) on
    ``fig``; ``sides`` are the variant's side names, ``colours`` their piece colours; ``current``
    marks the ply shown on the board; ``legend`` names the marks' colours (the window leaves it out:
    its move list marks the same moves).  Returns the axes (ply on x, so a click maps to a ply)."""
    fig.clear()
    ax = fig.add_subplot(1, 1, 1)
    ax.set_facecolor(BACKGROUND)
    xs = [0] + [int(p["ply"]) for p in plies]
    ys = [50.0] + [100.0 * win_chance(int(p["score"])) for p in plies]
    ax.fill_between(xs, 50, ys, where=[y >= 50 for y in ys], interpolate=True, color=colours[1], linewidth=0)
    ax.fill_between(xs, 50, ys, where=[y <= 50 for y in ys], interpolate=True, color=colours[0], linewidth=0)
    ax.plot(xs, ys, color="#3b352e", linewidth=1.0)
    ax.axhline(50, color="#5a5247", linewidth=0.6)
    for cls, colour in MARKS.items():
        pts = [(x, y) for x, y, p in zip(xs[1:], ys[1:], plies, strict=True) if p.get("class") == cls]
        if pts:
            ax.scatter([x for x, _y in pts], [y for _x, y in pts], s=22, color=colour, edgecolors="#222222",
                       linewidths=0.6, zorder=3, clip_on=False, label=_(cls.capitalize()))
    if current is not None and current > 0:
        ax.axvline(current, color="#1f5fbf", linewidth=1.2)
    ax.set_xlim(0, max(1, xs[-1]))
    ax.set_ylim(0, 100)
    # the winning chance of the side named at each end (issue 36: an axis without figures said nothing)
    ax.set_yticks([0, 50, 100])
    ax.set_yticklabels([percent(1.0), percent(0.5), percent(1.0)], fontsize=7)
    ax.text(0.01, 0.96, _("{side} better").format(side=sides[1]), transform=ax.transAxes, va="top", fontsize=8,
            color="#111111")
    ax.text(0.01, 0.04, _("{side} better").format(side=sides[0]), transform=ax.transAxes, va="bottom",
            fontsize=8, color="#f6f2ea")
    _move_ticks(ax, plies)
    ax.set_xlabel(_("Move"), fontsize=7, labelpad=1)
    ax.tick_params(labelsize=7)
    if legend and any(p.get("class") in MARKS for p in plies):
        ax.legend(loc="upper right", fontsize=7, framealpha=0.8)
    return ax


def _move_ticks(ax: Any, plies: Sequence[dict[str, Any]]) -> None:
    """Ticks where a move begins, labelled with its number as the move list numbers it (the
    x axis counts plies, so that a click maps to one; its labels count moves)."""
    from tafl_desktop.core.move_numbers import move_numbers

    sides = [p.get("side") for p in plies]
    if not sides or None in sides:
        return
    numbers = move_numbers(sides, sides[0])
    starts = [(int(p["ply"]), n) for p, n, side in zip(plies, numbers, sides, strict=True) if side == sides[0]]
    step = max(1, -(-len(starts) // 8))  # at most about eight labels
    shown = starts[::step]
    ax.set_xticks([ply - 1 for ply, _n in shown], [str(n) for _ply, n in shown])


def save_review_graph(path: str, plies: Sequence[dict[str, Any]], sides: Sequence[str],
                      colours: Sequence[str] = DEFAULT_COLOURS) -> None:
    """Write the graph to ``path``; its suffix (.png or .pdf) picks the format.  ValueError for
    another suffix; OSError when the file cannot be written."""
    from matplotlib.figure import Figure

    fmt = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if fmt not in FORMATS:
        raise ValueError(_("--plot: {path} must end in .png or .pdf").format(path=quote(str(path))))
    import io

    from tafl_desktop.core.safe_files import write_safely

    fig = Figure(figsize=(8, 2.6), dpi=100, layout="constrained")
    draw_review(fig, plies, sides, colours)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt)
    # the writer of every other output: a link is followed to its file (and stays a link), a
    # device, FIFO or folder is refused, a regular file is replaced atomically keeping its mode
    write_safely(path, buf.getvalue())

"""The one chart of a study, drawn by Matplotlib for the window, PNG and PDF alike.

One varied toggle: for each cell, bars of each side's win share and of the draws, with their 95%
Wilson intervals.  Two varied toggles: a heat map of the first side's win share, one square per
cell, labelled with the share and its interval.  Matplotlib's Agg and PDF back-ends need no
screen, so the command line and the tests draw exactly what the window shows.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from tafl_desktop.core.marks import integer, percent
from tafl_desktop.core.safe_files import write_safely
from tafl_desktop.i18n import _, ngettext

#: Colours of the two sides and the draws (Paul Tol's bright scheme: readable for colour-blind eyes).
SIDE_COLOURS = ("#4477AA", "#EE6677")
DRAW_COLOUR = "#BBBBBB"


def study_figure(report: dict[str, Any], title: str | None = None):
    """A Matplotlib figure of the report (see the module docstring)."""
    from matplotlib.figure import Figure

    cells = report["cells"]
    keys = list(cells[0]["options"]) if cells else []
    from tafl_desktop.ai.levels import get_level

    fig = Figure(figsize=(7.5, 4.8), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    first, second = report.get("side_names", report["sides"])
    from tafl_desktop.lab.study import PRESET_AXIS

    name = _("Presets compared") if PRESET_AXIS in keys else report.get("variant_name", report["variant"])
    heading = title or ngettext("{variant}: {first} at {first_level}, {second} at {second_level}; "
                                "{n} game per cell",
                                "{variant}: {first} at {first_level}, {second} at {second_level}; "
                                "{n} games per cell", report["games_per_cell"]).format(
        variant=name, first=first, second=second,
        first_level=_(get_level(report["levels"]["attackers"]).label),
        second_level=_(get_level(report["levels"]["defenders"]).label), n=report["games_per_cell"])
    fig.suptitle(heading, fontsize=10)
    if len(keys) == 2:
        _heat_map(fig, ax, report, keys)
    else:
        _bars(ax, report, keys)
    return fig


def _bars(ax, report: dict[str, Any], keys: list[str]) -> None:
    from tafl_desktop.lab.report import key_label, value_label
    from tafl_desktop.lab.stats import wilson

    first, second = report["sides"]
    names = dict(zip(report["sides"], report.get("side_names", report["sides"]), strict=True))
    cells = report["cells"]
    xs = range(len(cells))
    width = 0.26
    series = ((first, SIDE_COLOURS[0], -width), (second, SIDE_COLOURS[1], 0.0), ("draws", DRAW_COLOUR, width))
    for key, colour, dx in series:
        shares, low, high = [], [], []
        for c in cells:
            n = c["games"]
            k = c[key] if key != "draws" else c["draws"] + c["capped"]
            s = k / n if n else 0.0
            lo, hi = c.get(f"{key}_ci") or wilson(k, n)
            shares.append(s)
            low.append(max(0.0, s - lo))
            high.append(max(0.0, hi - s))
        label = _("draws and capped") if key == "draws" else _("{side}: wins").format(side=names[key])
        ax.bar([x + dx for x in xs], shares, width, yerr=[low, high], capsize=3, color=colour, label=label,
               ecolor="#333333")
    import textwrap

    wrap = max(10, 90 // max(1, len(cells)))
    ticks = ["\n".join([*(textwrap.fill(value_label(report, k, v), wrap) for k, v in c["options"].items()),
                        ngettext("{n} game", "{n} games", c["games"]).format(n=c["games"])]) for c in cells]
    ax.set_xticks(list(xs), ticks, fontsize=8)
    ax.set_xlabel(", ".join(key_label(report, k) for k in keys))
    ax.set_ylabel(_("share of games"))
    ax.set_ylim(0, 1)
    _percent_ticks(ax.yaxis)
    ax.axhline(0.5, color="#555555", linewidth=0.6, linestyle=":")
    ax.figure.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)


def _heat_map(fig, ax, report: dict[str, Any], keys: list[str]) -> None:
    from tafl_desktop.lab.report import key_label, value_label

    first = report["sides"][0]
    cells = report["cells"]
    rows = list(dict.fromkeys(c["options"][keys[0]] for c in cells))
    cols = list(dict.fromkeys(c["options"][keys[1]] for c in cells))
    grid = [[float("nan")] * len(cols) for _r in rows]
    labels = [[""] * len(cols) for _r in rows]
    for c in cells:
        i, j = rows.index(c["options"][keys[0]]), cols.index(c["options"][keys[1]])
        n = c["games"]
        if n:
            lo, hi = c[f"{first}_ci"]
            grid[i][j] = c[first] / n
            labels[i][j] = f"{percent(c[first] / n)}\n[{percent(lo)}–{percent(hi)}]\nn = {integer(n)}"
    im = ax.imshow(grid, cmap="RdBu_r", vmin=0, vmax=1, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(cols)):
            dark = abs(grid[i][j] - 0.5) > 0.3 if labels[i][j] else False
            ax.text(j, i, labels[i][j], ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_yticks(range(len(rows)), [value_label(report, keys[0], v) for v in rows], fontsize=8)
    ax.set_xticks(range(len(cols)), [value_label(report, keys[1], v) for v in cols], fontsize=8)
    ax.set_ylabel(key_label(report, keys[0]))
    ax.set_xlabel(key_label(report, keys[1]))
    bar = fig.colorbar(im, ax=ax)
    _percent_ticks(bar.ax.yaxis)
    bar.set_label(_("share of wins: {side}").format(side=report.get("side_names", report["sides"])[0]))


def _percent_ticks(axis) -> None:
    """Shares on ``axis`` written as percentages in the reader's language ("50 %", not "0.5")."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _pos: percent(value)))


def save_chart(report: dict[str, Any], path: str | Path, title: str | None = None) -> None:
    """Write the chart as PNG or PDF, by the file name's suffix."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("png", "pdf"):
        raise ValueError(_("a chart is written as .png or .pdf, not '{suffix}'").format(suffix=path.suffix[:20]))
    data = chart_bytes(report, fmt, title)
    write_safely(path, data)  # atomic, never over a device, folder or pipe (as lab.files writes)


def chart_bytes(report: dict[str, Any], fmt: str = "png", title: str | None = None) -> bytes:
    """The chart as PNG or PDF bytes (the window shows the PNG)."""
    fig = study_figure(report, title)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110 if fmt == "png" else None)
    return buf.getvalue()

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

from tafl_desktop.i18n import _

#: Colours of the two sides and the draws (Paul Tol's bright scheme: readable for colour-blind eyes).
SIDE_COLOURS = ("#4477AA", "#EE6677")
DRAW_COLOUR = "#BBBBBB"


def _value_text(v: Any) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


def study_figure(report: dict[str, Any], title: str | None = None):
    """A Matplotlib figure of the report (see the module docstring)."""
    from matplotlib.figure import Figure

    cells = report["cells"]
    keys = list(cells[0]["options"]) if cells else []
    fig = Figure(figsize=(7.5, 4.6), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    heading = title or _("{variant}: {att} attackers against {defe} defenders, {n} games per cell").format(
        variant=report["variant"], att=report["levels"]["attackers"], defe=report["levels"]["defenders"],
        n=report["games_per_cell"])
    fig.suptitle(heading, fontsize=10)
    if len(keys) == 2:
        _heat_map(fig, ax, report, keys)
    else:
        _bars(ax, report, keys)
    return fig


def _bars(ax, report: dict[str, Any], keys: list[str]) -> None:
    from tafl_desktop.lab.stats import wilson

    first, second = report["sides"]
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
        label = _("draws and capped") if key == "draws" else key
        ax.bar([x + dx for x in xs], shares, width, yerr=[low, high], capsize=3, color=colour, label=label)
    ax.set_xticks(list(xs), [", ".join(_value_text(v) for v in c["options"].values()) for c in cells])
    ax.set_xlabel(", ".join(keys))
    ax.set_ylabel(_("share of games won"))
    ax.set_ylim(0, 1)
    ax.axhline(0.5, color="#555555", linewidth=0.6, linestyle=":")
    ax.legend(loc="upper right", fontsize=8)
    for x, c in zip(xs, cells, strict=True):
        ax.annotate(_("n={n}").format(n=c["games"]), (x, 1.0), ha="center", va="top", fontsize=7)


def _heat_map(fig, ax, report: dict[str, Any], keys: list[str]) -> None:
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
            labels[i][j] = f"{c[first] / n:.0%}\n[{lo:.0%}-{hi:.0%}]\nn={n}"
    im = ax.imshow(grid, cmap="RdBu_r", vmin=0, vmax=1, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(cols)):
            ax.text(j, i, labels[i][j], ha="center", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), [_value_text(v) for v in rows])
    ax.set_xticks(range(len(cols)), [_value_text(v) for v in cols])
    ax.set_ylabel(keys[0])
    ax.set_xlabel(keys[1])
    bar = fig.colorbar(im, ax=ax)
    bar.set_label(_("share won by the {side}").format(side=first))


def save_chart(report: dict[str, Any], path: str | Path, title: str | None = None) -> None:
    """Write the chart as PNG or PDF, by the file name's suffix."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("png", "pdf"):
        raise ValueError(_("a chart is written as .png or .pdf, not '{suffix}'").format(suffix=path.suffix[:20]))
    data = chart_bytes(report, fmt, title)
    from tafl_desktop.lab.files import write_bytes

    write_bytes(path, data)


def chart_bytes(report: dict[str, Any], fmt: str = "png", title: str | None = None) -> bytes:
    """The chart as PNG or PDF bytes (the window shows the PNG)."""
    fig = study_figure(report, title)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110 if fmt == "png" else None)
    return buf.getvalue()

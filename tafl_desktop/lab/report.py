"""A study's report: the JSON summary (a contract of ``tafl-desktop lab --json``) and its table."""

from __future__ import annotations

from typing import Any

from tafl_desktop.core.marks import decimal, percent
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.lab.stats import CONFIDENCE, games_to_tell, summarise_cell
from tafl_desktop.lab.store import ResultStore
from tafl_desktop.lab.study import variant_of

#: The question the report answers about sample size: how many games tell 55 % from 50 %.
TELL_FROM, TELL_TO = 0.50, 0.55


def cell_label(options: dict[str, Any]) -> str:
    """A cell's values in a few words ("king_capture=strong, escape=corner")."""
    return ", ".join(f"{k}={_value_text(v)}" for k, v in options.items())


def _value_text(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def summary(store: ResultStore) -> dict[str, Any]:
    """Every cell's figures from the games stored so far."""
    study = store.study
    keys = study.side_keys
    cells = [summarise_cell(opts, store.cell_results(i), keys) for i, opts in enumerate(study.cells())]
    games = [r for i in range(len(cells)) for r in store.cell_results(i)]
    return {
        "variant": study.variant,
        "variant_name": variant_of(study.base).title,
        "side_names": list(variant_of(study.base).side_names),
        "labels": axis_labels(study),
        "cells": cells,
        "seed": study.seed,
        "levels": {"attackers": study.attackers, "defenders": study.defenders},
        "engine": study.engine,
        "games_per_cell": study.games,
        "max_plies": study.max_plies,
        "sides": list(keys),
        "confidence": CONFIDENCE,
        "games_to_tell_55_from_50": games_to_tell(TELL_FROM, TELL_TO),
        # what a game costs (processor seconds in its worker): kept out of the cells, which the
        # same seed must reproduce exactly
        "cpu_seconds_per_game": round(sum(r.get("cpu_seconds", 0.0) for r in games) / len(games), 2)
        if games else None,
    }


def axis_labels(study: Any) -> dict[str, dict[str, Any]]:
    """Human labels of the varied toggles and their values, for the chart and the window."""
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.lab.study import PRESET_AXIS

    schema = variant_of(study.base).schema
    out: dict[str, dict[str, Any]] = {}
    for axis in study.axes:
        if axis.key == PRESET_AXIS:
            out[axis.key] = {"label": _("Game"), "values": {str(v): find_variant(str(v)).name for v in axis.values}}
        else:
            spec = schema[axis.key]
            out[axis.key] = {"label": _(spec.label),
                             "values": {_value_text(v): _(spec.value_label(v)) for v in axis.values}}
    return out


def value_label(report: dict[str, Any], key: str, value: Any) -> str:
    """The label of one varied value in a report (its text when the report has no labels)."""
    return report.get("labels", {}).get(key, {}).get("values", {}).get(_value_text(value), _value_text(value))


def key_label(report: dict[str, Any], key: str) -> str:
    return report.get("labels", {}).get(key, {}).get("label", key)


def table_text(report: dict[str, Any]) -> str:
    """The report as a plain-text table for a terminal."""
    first, second = report["sides"]
    head = [_("cell"), _("games"), first, second, _("draws"), _("capped"), _("mean plies"), _("balance")]
    rows = []
    for c in report["cells"]:
        n = c["games"]
        lo, hi = c[f"{first}_ci"]
        share = f"{percent(c[first] / n)} [{percent(lo)}–{percent(hi)}]" if n else "-"
        lo2, hi2 = c[f"{second}_ci"]
        share2 = f"{percent(c[second] / n)} [{percent(lo2)}–{percent(hi2)}]" if n else "-"
        rows.append([cell_label(c["options"]), str(n), f"{c[first]} {share}", f"{c[second]} {share2}",
                     str(c["draws"]), str(c["capped"]), f"{c['mean_plies']:.0f}",
                     "-" if c["balance"] is None else decimal(c["balance"], 2)])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in [head, *rows]]
    n = report["games_to_tell_55_from_50"]
    note = ngettext("Brackets are 95% Wilson intervals. Telling a {a}% win share from {b}% needs about {n} decisive "
                    "game per cell.",
                    "Brackets are 95% Wilson intervals. Telling a {a}% win share from {b}% needs about {n} decisive "
                    "games per cell.", n).format(a=round(TELL_TO * 100), b=round(TELL_FROM * 100), n=n)
    return "\n".join([*lines, "", note]) + "\n"

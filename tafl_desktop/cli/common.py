"""Deprecated alias of :mod:`tafl_desktop.command_line`, where the command line's shared helpers
now live (below the capabilities that use them: ``docs/ARCHITECTURE.md`` §1).  Kept for one
release so that code written against the old path still imports; a capability package must import
``tafl_desktop.command_line`` (importing this module runs the front door, ``cli/__init__.py``,
and the layer test refuses that)."""

from __future__ import annotations

from tafl_desktop.command_line import (
    EXIT_ERROR,
    EXIT_ILLEGAL,
    CliError,
    float_in,
    int_in,
    number_text,
    quote_value,
    sets_text,
    shown,
    start_position,
    variant_arg,
)

__all__ = ["EXIT_ERROR", "EXIT_ILLEGAL", "CliError", "float_in", "int_in", "number_text", "quote_value", "sets_text",
           "shown", "start_position", "variant_arg"]

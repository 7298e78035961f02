"""Marking user-facing texts in the pure core without translating them there.

The core stays free of any translation machinery: ``N_`` returns its argument unchanged, and
``tafl_desktop.i18n`` (at the edge) translates the marked text when a window, printer or command
line shows it.  The catalogue extractor looks for ``N_("...")`` calls.
"""

from __future__ import annotations


def N_(text: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark ``text`` for translation; return it unchanged."""
    return text

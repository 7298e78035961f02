"""The rules core: pure Python, no Qt and no ReportLab.

Everything else in Tafl Desktop (window, AI, printer, CLI) is a client of this package.
Data flows one way: variant file -> RuleSet (geometry + options) -> engine -> clients.

The package imports :mod:`~tafl_desktop.core.rules_string` first, so that a variant may be named
by an OpenTafl rules string wherever a preset id is (``find_variant("dim:11 ...")``): that module
registers its reader with :mod:`~tafl_desktop.core.variants`, which cannot import it back.
"""

from tafl_desktop.core import rules_string as _rules_string  # noqa: F401 - registers the "dim:" reader

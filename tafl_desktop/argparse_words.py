"""argparse's own texts, so that the catalogue holds them (the command line's ``--help`` headings
and its error messages speak the reader's language).

argparse looks these up through ``gettext`` (see :func:`tafl_desktop.cli.localise_argparse`);
they are listed here, exactly as the standard library writes them (Python 3.11 to 3.13), only so
that ``python -m tafl_desktop.i18n_catalogue update`` extracts them.  A text a Python version does
not use is simply never asked for.
"""

from __future__ import annotations

from tafl_desktop.core.marks import N_

ARGPARSE_TEXTS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
)


def _plural_forms() -> None:
    """The one text argparse counts (the catalogue extractor reads this call; it never runs)."""
    from tafl_desktop.core.marks import ngettext

    ngettext("expected %s argument", "expected %s arguments", 2)

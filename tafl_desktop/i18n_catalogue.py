"""``python -m tafl_desktop.i18n_catalogue update|check``: the command the team's notes name, kept
working; the tool itself is :mod:`tafl_desktop.tools.i18n_catalogue`."""

from __future__ import annotations

import sys

from tafl_desktop.tools.i18n_catalogue import main

if __name__ == "__main__":
    sys.exit(main())

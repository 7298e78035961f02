"""``python -m tafl_desktop.i18n_catalogue update|check``: a short name for the catalogue tool, so
the command stays the same wherever the tool lives; the tool itself is
:mod:`tafl_desktop.tools.i18n_catalogue`."""

from __future__ import annotations

import sys

from tafl_desktop.tools.i18n_catalogue import main

if __name__ == "__main__":
    sys.exit(main())

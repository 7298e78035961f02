"""`python -m tafl_desktop` runs the same front door as the `tafl-desktop` script."""

import sys

from tafl_desktop.cli import main

if __name__ == "__main__":
    sys.exit(main())

"""Entry point of the frozen (PyInstaller) app: ``tafl-desktop`` inside the bundle.

Why a separate script and not ``tafl_desktop/__main__.py``:

* ``multiprocessing.freeze_support()`` must run before anything else.  The AI searches in a
  ``spawn``-ed process; in a frozen app the child is this same executable started with
  ``--multiprocessing-fork ...`` (or ``-c`` for multiprocessing's resource tracker).  Without the
  call the child would parse those arguments as a command line and open a second window, or exit
  with a usage error.  PyInstaller's multiprocessing runtime hook makes the call work on Linux and
  macOS too (the standard library's version only acts on Windows).  It does nothing when the
  process is not such a child, so the normal start costs nothing.
* A windowed Windows or macOS executable has no console: ``sys.stdout``/``sys.stderr`` are None
  and the first ``print`` would raise.  They are pointed at the null device instead, so
  ``--version`` and error messages are harmless there (the console executable
  ``tafl-desktop-cli.exe`` on Windows shows them).
"""

import multiprocessing
import os
import sys


def main() -> int:
    multiprocessing.freeze_support()
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - lives as long as the app
    from tafl_desktop.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())

"""Which processes are still running, read from /proc (Linux): the tests' own view, independent of
the app's code, of whether an engine and the helpers it started are gone."""

from __future__ import annotations

import os


def _stat(pid: int | str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie has ended)."""
    return [p for p in pids if (_stat(p) or ["Z"])[0] != "Z"]


def family(pid: int) -> list[int]:
    """``pid`` and every live process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(entry)
            if fields and fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found

"""Wall-clock bounds that hold on a busy machine (issue 37, item 8).

A test that promises "this does not wait" measures wall time, and on a loaded 2-core machine
(another test run beside it, seven builds) everything takes several times as long without
anything being broken: one call to the external-engine host took 244 ms against a 100 ms bound.
The bounds here are the idle machine's bound times how much slower the machine runs *now*: a
short busy loop is timed, and its wall time over its CPU time is the slowdown (1 on an idle core,
about N when N runnable tasks share it).  A real wait (a blocked pipe, a search that does not
stop) does not grow with the load, so it is still caught; the slowdown is measured only when a
bound is passed, so a test on an idle machine pays nothing.

Use :func:`within` (``within(took, 0.5, "closing the engine")``) instead of ``assert took < 0.5``.
"""

from __future__ import annotations

import time

#: CPU seconds of one probe, and probes taken (the largest slowdown counts: the load comes in bursts).
PROBE_CPU = 0.03
PROBES = 3
#: The slowdown is taken as at most this: a bound is never stretched more than 20 times.
MAX_SLOWDOWN = 20.0


def slowdown() -> float:
    """How many times slower than an idle core this thread runs now (1.0 at least)."""
    worst = 1.0
    for _ in range(PROBES):
        w0, c0 = time.perf_counter(), time.thread_time()
        n = 0
        while time.thread_time() - c0 < PROBE_CPU:
            n += 1
        cpu = time.thread_time() - c0
        worst = max(worst, (time.perf_counter() - w0) / cpu if cpu > 0 else 1.0)
    return min(worst, MAX_SLOWDOWN)


def allowed(bound: float) -> float:
    """``bound`` seconds stretched by the machine's slowdown now."""
    return bound * slowdown()


def within(took: float, bound: float, what: str = "it") -> None:
    """Fail unless ``took`` seconds is within ``bound`` (the idle machine's bound) times the
    machine's slowdown, measured only when ``took`` passes ``bound``."""
    if took < bound:
        return
    factor = slowdown()
    assert took < bound * factor, (
        f"{what} took {took:.3f} s: more than {bound} s times the machine's slowdown now ({factor:.1f})")


class FakeTime:
    """A clock the test moves by hand (``advance``), for code that takes a ``now`` function."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds

"""Game clocks: sudden death, Fischer increment and OpenTafl-style overtime periods, without Qt.

A :class:`TimeControl` is what the players agreed (OpenTafl writes it ``"3600 30/3 3i"``: one hour
of main time, three overtime periods of 30 s, a 3 s increment; tafl-rules.md 2.4).  A
:class:`GameClock` runs it for two sides against a time source (``time.monotonic`` by default; a
fake one in the tests), so every rule here is tested without waiting or a window.

How the time is spent, per side:

* the main time runs first; after each of the side's moves the increment is added to it
  (Fischer), while the side is still in its main time;
* when the main time is gone, the overtime periods begin (OpenTafl's byo-yomi): a move made
  within a period starts the next move with a full period again; a period that runs out is
  used up and the next one starts;
* a side whose main time and periods are all gone has lost on time ("flag fall").

The state is plain numbers (milliseconds), saved in a game record's tags and restored exactly.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from tafl_desktop.core.marks import N_, ngettext
from tafl_desktop.core.marks import gettext as _

#: The fewest seconds the computer is given for a move, however short its clock.
MIN_THINK = 0.05
#: How far a critical move may stretch the computer's share of its clock (the hard limit, at most
#: this many times the share).
STRETCH = 3.0
#: Of the main time left, the most one move may ever take (with most of the increment): a long
#: think at a critical moment still leaves time for the moves after it.
HARD_SHARE = 0.25
#: Of an overtime period, the most one move may take: the rest is the margin against a lost period.
PERIOD_HARD_SHARE = 0.75


@dataclass(frozen=True)
class ThinkPlan:
    """Seconds the computer may think for one move under a clock: ``soft`` is its share (it stops
    after a search depth that ends past it, later at a critical moment), ``hard`` the limit it
    never passes (well inside its clock: it never loses on time by thinking)."""

    soft: float
    hard: float


@dataclass(frozen=True)
class TimeControl:
    """The agreed time: ``main_ms`` per side, ``increment_ms`` added after each move while in main
    time, and ``overtimes`` periods of ``overtime_ms`` once the main time is gone."""

    main_ms: int
    increment_ms: int = 0
    overtime_ms: int = 0
    overtimes: int = 0

    def __post_init__(self) -> None:
        if self.main_ms < 0 or self.increment_ms < 0 or self.overtime_ms < 0 or self.overtimes < 0:
            raise ValueError(_("clock times cannot be negative"))
        if self.main_ms == 0 and not (self.overtime_ms and self.overtimes):
            raise ValueError(_("a clock needs main time or overtime periods"))
        if bool(self.overtime_ms) != bool(self.overtimes):
            raise ValueError(_("overtime needs both a number of periods and their length"))

    @property
    def kind(self) -> str:
        """'overtime', 'fischer' or 'sudden_death' (overtime wins when both are set)."""
        if self.overtimes:
            return "overtime"
        return "fischer" if self.increment_ms else "sudden_death"

    def text(self) -> str:
        """OpenTafl's time-control string: ``"<main s> [<period s>/<n>] [<inc>i]"``."""
        parts = [_seconds(self.main_ms)]
        if self.overtimes:
            parts.append(f"{_seconds(self.overtime_ms)}/{self.overtimes}")
        if self.increment_ms:
            parts.append(f"{_seconds(self.increment_ms)}i")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read OpenTafl's string (``"300"``, ``"300 5i"``, ``"600 30/3"``, ``"3600 30/3 3i"``);
        ValueError names what is wrong.  Numbers are ASCII digits (no '٣'), times at most
        :data:`MAX_SECONDS` and periods at most :data:`MAX_PERIODS`, so a tag of 400 nines is
        refused instead of overflowing."""
        from tafl_desktop.core.quoting import quote

        tokens = str(text).split()
        if not tokens or not _SECONDS.fullmatch(tokens[0]):
            raise ValueError(_('{text} is not a time control (expected e.g. "300 30/3 5i")').format(text=quote(text)))
        main = _ms(tokens[0], text)
        inc = period = periods = 0
        for tok in tokens[1:]:
            if m := re.fullmatch(rf"({_SECONDS.pattern})i", tok, re.ASCII):
                inc = _ms(m.group(1), text)
            elif m := re.fullmatch(rf"({_SECONDS.pattern})/([0-9]{{1,9}})", tok, re.ASCII):
                period, periods = _ms(m.group(1), text), int(m.group(2))
                if periods > MAX_PERIODS:
                    raise ValueError(ngettext("{text}: more than {most} overtime period",
                                              "{text}: more than {most} overtime periods", MAX_PERIODS).format(
                        text=quote(text), most=MAX_PERIODS))
            else:
                raise ValueError(_("{text}: {tok} is neither an increment (5i) nor overtime periods (30/3)").format(
                    text=quote(text), tok=quote(tok)))
        return cls(main, inc, period, periods)


#: The longest time a clock setting may give, in seconds (a week: no game is longer).
MAX_SECONDS = 7 * 24 * 3600
#: The most overtime periods a clock may give.
MAX_PERIODS = 1000
_SECONDS = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?", re.ASCII)


def _seconds(ms: int) -> str:
    return f"{ms // 1000}" if ms % 1000 == 0 else f"{ms / 1000:g}"


def _ms(seconds_text: str, whole: str = "") -> int:
    from tafl_desktop.core.quoting import quote

    seconds = float(seconds_text)
    if seconds > MAX_SECONDS:
        raise ValueError(ngettext("{value}: {seconds_text} second is more than the {most} a clock may give",
                              "{value}: {seconds_text} seconds is more than the {most} a clock may give",
                              Decimal(seconds_text)).format(
            value=quote(whole or seconds_text), seconds_text=quote(seconds_text), most=MAX_SECONDS))
    return int(round(seconds * 1000))


#: Ready-made controls offered in New Game (label marked for translation, OpenTafl string).
PRESETS: tuple[tuple[str, str], ...] = (
    (N_("5 minutes, sudden death"), "300"),
    (N_("10 minutes + 5 seconds a move"), "600 5i"),
    (N_("15 minutes + 10 seconds a move"), "900 10i"),
    (N_("10 minutes, then 3 x 30 seconds overtime"), "600 30/3"),
    (N_("30 minutes + 10 s a move, then 3 x 60 s overtime"), "1800 60/3 10i"),
)


@dataclass
class SideTime:
    """One side's clock: main time left, overtime periods left, and time left in the current
    period (meaningful once the main time is gone)."""

    main_ms: int
    periods: int
    period_ms: int

    @property
    def in_overtime(self) -> bool:
        return self.main_ms <= 0 and self.periods > 0



class GameClock:
    """Two sides' clocks under one :class:`TimeControl`.  Only the side to move runs; ``now`` is
    the time source in seconds (monotonic).  Call :meth:`pressed` after every move, :meth:`pause`
    and :meth:`resume` around pauses, and :meth:`flagged` (or :meth:`ms_to_flag`) to see a flag fall."""

    def __init__(self, control: TimeControl, now: Callable[[], float] = time.monotonic) -> None:
        self.control = control
        self._now = now
        self.sides = [SideTime(control.main_ms, control.overtimes, control.overtime_ms) for _side in (0, 1)]
        self.running: int | None = None   # the side whose time runs, None while stopped
        self._since = 0.0                 # when the running side's time was last charged
        self._flag: int | None = None

    # ----------------------------------------------------------------------------- running
    def start(self, side: int) -> None:
        """Start (or restart after a pause) ``side``'s time."""
        if self._flag is not None:
            return
        self._charge()
        self.running = int(side)
        self._since = self._now()

    def pause(self) -> None:
        """Stop both clocks (the game is paused, reviewed or over); time spent so far is kept."""
        self._charge()
        self.running = None

    def pressed(self, side: int, next_side: int) -> None:
        """``side`` finished a move; ``next_side`` (the same side again within an Action-Points turn)
        runs next.  The increment or a fresh period is granted only when the turn passes."""
        if self._flag is not None:
            return
        self._charge()
        if self._flag is not None:
            return
        if next_side != side:
            st = self.sides[side]
            if st.main_ms > 0:
                st.main_ms += self.control.increment_ms
            elif st.periods > 0:
                st.period_ms = self.control.overtime_ms  # a move within the period keeps it
        self.running = int(next_side)
        self._since = self._now()

    def _charge(self) -> None:
        """Take the time elapsed since the last charge from the running side."""
        if self.running is None:
            return
        now = self._now()
        elapsed = max(0, int(round((now - self._since) * 1000)))
        self._since = now
        st = self.sides[self.running]
        if st.main_ms >= elapsed:
            st.main_ms -= elapsed
            return
        elapsed -= max(0, st.main_ms)
        st.main_ms = 0
        while elapsed > 0 and st.periods > 0:
            if st.period_ms > elapsed:
                st.period_ms -= elapsed
                return
            elapsed -= st.period_ms
            st.periods -= 1
            st.period_ms = self.control.overtime_ms if st.periods else 0
        if st.main_ms <= 0 and st.periods <= 0:
            self._flag = self.running
            self.running = None

    # ----------------------------------------------------------------------------- reading
    def flagged(self) -> int | None:
        """The side whose time ran out, or None."""
        self._charge()
        return self._flag

    def ms_to_flag(self) -> int | None:
        """Milliseconds until the running side's flag falls if it does not move; None if stopped."""
        self._charge()
        if self.running is None:
            return None
        st = self.sides[self.running]
        return max(0, st.main_ms) + (st.period_ms + max(0, st.periods - 1) * self.control.overtime_ms
                                     if st.periods else 0)

    def shown(self, side: int) -> tuple[int, int, bool]:
        """(milliseconds shown, periods left, in overtime?) for one side, charged up to now."""
        self._charge()
        st = self.sides[side]
        if st.in_overtime:
            return st.period_ms, st.periods, True
        return max(0, st.main_ms), st.periods, False

    def think_budget(self, side: int, level_seconds: float) -> float:
        """Seconds the computer may think for ``side`` now: its level's time, but never more than
        a share of its clock (a thirtieth of the main time plus most of the increment; in
        overtime, half a period), so it plays within its clock."""
        self._charge()
        st = self.sides[side]
        c = self.control
        if st.main_ms > 0:
            share = st.main_ms / 30 + 0.8 * c.increment_ms
            if st.periods:  # periods still wait behind the main time: some of one may be used too
                share = max(share, 0.5 * c.overtime_ms)
            share = min(share, 0.5 * st.main_ms + (0.5 * c.overtime_ms if st.periods else 0))
        else:
            share = 0.5 * st.period_ms
        return max(MIN_THINK, min(float(level_seconds), share / 1000))

    def think_plan(self, side: int, level_seconds: float) -> ThinkPlan:
        """The computer's budget for ``side``'s move, as chess engines budget a clock: the share
        of :meth:`think_budget` (a thirtieth of the main time plus most of the increment, at most
        the level's time) as the usual think, and a hard limit up to :data:`STRETCH` times that
        for critical moments (the best move changing, the score falling), never more than
        :data:`HARD_SHARE` of the main time left (plus most of the increment) or
        :data:`PERIOD_HARD_SHARE` of an overtime period."""
        soft = self.think_budget(side, level_seconds)
        st = self.sides[side]
        c = self.control
        if st.main_ms > 0:
            cap = HARD_SHARE * st.main_ms + 0.8 * c.increment_ms
            if st.periods:
                cap = max(cap, PERIOD_HARD_SHARE * c.overtime_ms)
        else:
            cap = PERIOD_HARD_SHARE * st.period_ms
        hard = max(soft, min(STRETCH * soft, cap / 1000))
        return ThinkPlan(soft, hard)

    # ----------------------------------------------------------------------------- saving
    def state_text(self) -> str:
        """The clocks as one line for a record tag: ``"<main0> <periods0> <period0> <main1> ... <flag>"``
        (milliseconds; flag -1 when no flag fell)."""
        self._charge()
        nums = [n for st in self.sides for n in (max(0, st.main_ms), st.periods, st.period_ms)]
        return " ".join(str(n) for n in nums + [-1 if self._flag is None else self._flag])

    @classmethod
    def restore(cls, control: TimeControl, text: str, now: Callable[[], float] = time.monotonic) -> GameClock:
        """A stopped clock in the state :meth:`state_text` wrote; ValueError if it is not one."""
        from tafl_desktop.core.quoting import quote

        parts = str(text).split()
        if len(parts) != 7 or not all(re.fullmatch(r"-?[0-9]{1,12}", p, re.ASCII) for p in parts):
            raise ValueError(_("{text} is not a saved clock state").format(text=quote(text)))
        nums = [int(p) for p in parts]
        if any(n < 0 for n in nums[:6]) or nums[6] not in (-1, 0, 1):
            raise ValueError(_("{text} is not a saved clock state").format(text=quote(text)))
        clock = cls(control, now)
        for i in (0, 1):
            main, periods, period = nums[3 * i: 3 * i + 3]
            if periods > control.overtimes or period > control.overtime_ms:
                raise ValueError(_("{text} does not fit the time control {control}").format(
                    text=quote(text), control=control.text()))
            clock.sides[i] = SideTime(main, periods, period)
        clock._flag = None if nums[6] < 0 else nums[6]
        return clock


def format_ms(ms: int) -> str:
    """A clock reading: ``1:05:09``, ``4:59``, and tenths under ten seconds (``0:07.3``)."""
    ms = max(0, int(ms))
    if ms < 10_000:
        return f"0:{ms // 1000:02d}.{(ms % 1000) // 100}"
    s = ms // 1000
    h, m, sec = s // 3600, (s // 60) % 60, s % 60
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"

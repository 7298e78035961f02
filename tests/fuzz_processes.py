"""Structure-aware fuzzing of the surfaces that talk to other processes or read folders (issue 26):
the OpenTafl Engine Protocol both ways, Rules Lab study folders and puzzle files.

A plugin of ``tests/fuzz_hostile.py`` (its report, hang alarm and clean-message rule)::

    .venv/bin/python tests/fuzz_hostile.py --plugin fuzz_processes --count 50000 --seed 26

* **engine lines in**: hostile host lines (rules strings damaged or nested 3,000 deep, positions,
  clocks of 5,000 digits, ``NaN`` analyse times, invalid UTF-8, 70 kB lines, refusals of every
  move...) fed to real ``tafl-desktop engine`` processes, many lines per process, a sync probe
  every few lines (the engine must still answer ``analyze``); each process must leave after
  ``goodbye`` with no traceback and nothing but plain ASCII lines written.
* **engine lines out**: a scripted hostile engine (``tests/hostile_engine.py``) sends hostile
  lines before each of its moves (floods, requests, invalid UTF-8, missing newlines, garbage,
  illegal and legal moves, ``error -1``, crashes, silence); the host must take a legal move or
  fail the engine with one clean sentence, never spend 50 ms in one call, and leave no process of
  the engine's group behind.
* **study folders**: a small study (from ``benchmarks/results/lab``) damaged file by file (JSON
  trees, torn and joined lines, poisoned results, FIFOs, ``/dev/zero``, huge sparse files, links
  out of the folder); readers must change no byte, ``lab``'s open may only move a torn line aside.
* **puzzle files**: shipped puzzles damaged (types, trees, nesting, special files); loading and
  checking give a result or one clean line, and never change the file.

One input is one host line, one engine turn (the hostile lines an engine sends as it answers one
``play``), one study folder or one puzzle file.  Processes live across inputs (an engine takes 400
host lines, with a sync probe every 25; a scripted engine plays its turns) and :func:`finish` ends
the last ones.  :data:`WEIGHTS` shares the inputs by cost: host lines are cheap, turns dear.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOSTILE_ENGINE = ROOT / "tests" / "hostile_engine.py"
SHIPPED_STUDY = ROOT / "benchmarks" / "results" / "lab" / "brandubh_king_capture"
#: Inputs of each category per round of the plan (host lines cost a few ms, an engine turn ~0.1 s).
WEIGHTS = {"engine lines in": 14, "engine lines out": 1, "study folders": 2, "puzzle files": 2}
#: Hostile lines per engine process before it is told goodbye, and lines between two sync probes.
LINES_PER_ENGINE = 400
LINES_PER_PROBE = 25
#: No call of the host may take longer than this (s) on an idle machine (times the slowdown on a busy
#: one: tests/timing.py), the window's promise: it never writes to a
#: pipe or waits (starting the engine's process, fork and exec, is the slowest: ~50-70 ms measured
#: with ten jobs running on two cores).
HOST_CALL_LIMIT = 0.1

CATEGORIES = tuple(WEIGHTS)


def _hostile():
    """The helpers of ``fuzz_hostile`` (imported late: it imports this module in turn)."""
    import fuzz_hostile

    return fuzz_hostile


# ------------------------------------------------------------------------------ process checks
def live_group(pgid: int) -> list[int]:
    from tafl_desktop.interop.engine_process import live_group_members

    return live_group_members(pgid)


def our_children() -> list[int]:
    """Live processes whose parent is this one (Linux /proc), to find anything left behind."""
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                text = fh.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if len(fields) > 1 and fields[0] != "Z" and int(fields[1]) == me:
            found.append(int(entry))
    return found


# ------------------------------------------------------------------------------ host -> engine
class HostLines:
    """Hostile lines a host could send to ``tafl-desktop engine``."""

    def __init__(self, rng: random.Random) -> None:
        from tafl_desktop.core.rules_string import to_rules_string
        from tafl_desktop.core.variants import presets
        from tafl_desktop.interop.engine import position_record

        self.rng = rng
        self.rules_strings = []
        self.records = []
        for v in presets().values():
            if v.family != "tafl":
                continue
            try:
                self.rules_strings.append(to_rules_string(v).text)
            except ValueError:
                continue
            rules = v.make_rules()
            self.records.append(position_record(rules, rules.initial_position()))
        self.moves = ["d1-d3", "a4-c4", "e5-e8", "k6-k9", "d2-b2", "Kd4-d1", "d7-d6xd5", "---", "a1-a1", "z9-z99"]

    def rules_line(self) -> str:
        rng, fh = self.rng, _hostile()
        text = rng.choice(self.rules_strings)
        kind = rng.randrange(8)
        if kind == 0 or rng.random() < 0.4:  # often a good one, so later lines meet a game
            return f"rules {text}"
        entries = text.split(" ")
        if kind == 1:
            i = rng.randrange(len(entries))
            key = entries[i].split(":", 1)[0]
            entries[i] = f"{key}:{fh.hostile_text(rng)[:rng.choice([5, 60, 5000])]}"
        elif kind == 2:
            entries.insert(rng.randrange(len(entries) + 1), f"td-board-walls:{'[' * 3000}{']' * 3000}")
        elif kind == 3:
            entries[0] = rng.choice(["dim:0", "dim:-1", "dim:4", "dim:20", "dim:99999", "dim:" + "9" * 5000,
                                     "dim:\u0663", "dim:"])
        elif kind == 4:
            entries = [e for e in entries if not e.startswith(rng.choice(["dim", "start", "name", "ks"]))]
        elif kind == 5:
            entries.append(rng.choice(["td-repetition:" + fh.hostile_text(rng)[:30], "zz:1", "ber:c", "esc:x",
                                       "td-board-walls:" + json.dumps([["a1", "a2"]] * 2000)]))
        elif kind == 6:
            start = [e for e in entries if e.startswith("start:")]
            if start:
                i = entries.index(start[0])
                entries[i] = "start:" + fh.mutate_tafl_position(rng, start[0][6:])
        else:
            return "rules " + fh.hostile_text(rng)[:rng.choice([10, 2000])]
        return "rules " + " ".join(entries)

    def line(self) -> str | bytes:
        rng, fh = self.rng, _hostile()
        kind = rng.randrange(16)
        side = rng.choice(["attackers", "defenders", "ATTACKERS", "fox", "", "\u202eattackers", "x" * 300])
        if kind == 0:
            return self.rules_line()
        if kind == 1:
            record = rng.choice(self.records)
            return "position " + (record if rng.random() < 0.3 else fh.mutate_tafl_position(rng, record))
        if kind == 2:
            return f"side {side}"
        if kind == 3:
            nums = [rng.choice(["0", "1000", "-5", "9" * rng.choice([3, 30, 5000]), "nan", "inf", "1e308",
                                "60000*", "*", "\u0663\u0663", ""]) for _ in range(rng.randrange(7))]
            return "clock " + " ".join(nums) + rng.choice(["", " "])
        if kind in (4, 5):
            return f"play {side if rng.random() < 0.3 else rng.choice(['attackers', 'defenders'])}"
        if kind == 6:
            moves = "|".join(rng.choice(self.moves) for _ in range(rng.randrange(0, 4)))
            record = rng.choice(self.records)
            return f"opponent-move {moves} {record if rng.random() < 0.5 else fh.hostile_text(rng)[:50]}"
        if kind == 7:
            return "move " + rng.choice([rng.choice(self.records), fh.hostile_text(rng)[:80], ""])
        if kind == 8:
            return "error " + rng.choice(["2", "1", "-1 bad", "3", "4", "", "99999999999999999999", "2 " * 50])
        if kind == 9:
            count = rng.choice(["1", "3", "0", "-1", "9" * 30, "x", ""])
            seconds = rng.choice(["0.01", "0.02", "nan", "-1", "1e-300", "", "inf", "1e9"])
            return f"analyze {count} {seconds}"
        if kind == 10:
            return rng.choice(["hello", "finish 1", "finish", "finish " + "9" * 50, "simple-moves off", "dump 3"])
        if kind == 11:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        if kind == 12:
            return rng.choice([b"x" * 70_000, b"rules " + b"[" * 80_000, b"\xff" * 100])
        if kind == 13:
            return fh.hostile_text(rng)[:rng.choice([5, 200, 5000])].replace("\n", " ")
        if kind == 14:
            return rng.choice(["", " ", "\t", "\r", "\x00", "play\x00attackers", "PLAY attackers"])
        return rng.choice(["analyze 1 1e9", "play attackers", "analyze 2 0.05"])


def _encode(line: str | bytes) -> bytes:
    if isinstance(line, bytes):
        return line.replace(b"\n", b" ") + b"\n"
    return line.replace("\n", " ").replace("\r", " ").encode("utf-8", "surrogatepass") + b"\n"


class EngineSession:
    """One ``tafl-desktop engine`` process fed hostile lines with sync probes in between."""

    PROBE_RULES: str = ""

    def __init__(self, level: str) -> None:
        import selectors

        self.p = subprocess.Popen([sys.executable, "-m", "tafl_desktop", "engine", "--level", level],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  cwd=ROOT, start_new_session=True,
                                  env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"})
        os.set_blocking(self.p.stdout.fileno(), False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.p.stdout, selectors.EVENT_READ)
        self.buffer = b""
        self.seen: list[bytes] = []

    def send(self, data: bytes) -> None:
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def drain(self, until: bytes | None, timeout: float) -> bool:
        """Read what the engine wrote; True once a line starting with ``until`` arrived."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return until is None
            if self.sel.select(min(left, 0.05)):
                chunk = self.p.stdout.read(1 << 20) or b""
                if not chunk:
                    return until is None
                self.buffer += chunk
                *lines, self.buffer = self.buffer.split(b"\n")
                self.seen.extend(lines)
                if until is not None and any(x.startswith(until) for x in lines):
                    return True
            elif until is None:
                return True

    def finish(self, timeout: float = 10) -> tuple[int | None, str]:
        """``goodbye`` and the end of input; the exit code (None if it did not leave) and stderr."""
        try:
            self.send(b"finish 0\ngoodbye\n")
            self.p.stdin.close()
        except OSError:
            pass
        deadline = time.monotonic() + timeout
        while self.p.poll() is None and time.monotonic() < deadline:
            self.drain(None, 0.05)
        try:
            code = self.p.wait(max(0.0, deadline - time.monotonic()) + 0.1)
        except subprocess.TimeoutExpired:
            return None, ""
        self.drain(None, 0.0)
        return code, self.p.stderr.read().decode("utf-8", "replace")

    def kill(self) -> None:
        import signal

        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except OSError:
            pass
        self.p.wait()


class EngineLinesIn:
    """One host line per input through a ``tafl-desktop engine`` kept for LINES_PER_ENGINE lines."""

    category = "engine lines in"

    def __init__(self, fuzzer: Any) -> None:
        from tafl_desktop.core.rules_string import to_rules_string
        from tafl_desktop.core.variants import find_variant

        self.fz = fuzzer
        self.gen = HostLines(fuzzer.rng)
        self.probe_rules = to_rules_string(find_variant("brandubh")).text
        self.session: EngineSession | None = None
        self.sent: list[str | bytes] = []

    def __call__(self) -> None:
        line = self.gen.line()
        self.fz.timed(self.category, lambda: self._one(line), repr(line)[:300])

    def _one(self, line: str | bytes) -> None:
        if self.session is None:
            self.session = EngineSession(self.fz.rng.choice(["random", "random", "beginner"]))
            self.sent = []
            if not self.session.drain(b"hello", 9):
                self._abandon()
                raise AssertionError("the engine did not say hello")
        self.sent.append(line)
        try:
            self.session.send(_encode(line))
            if len(self.sent) % LINES_PER_PROBE == 0:
                # the sync probe: whatever came before, the engine must still answer
                self.session.send(f"finish 0\nrules {self.probe_rules}\nanalyze 1 0.01\n".encode())
                if not self.session.drain(b"analysis", 8):
                    raise AssertionError(f"no answer after {self.sent[-LINES_PER_PROBE:]!r}"[:600])
        except (AssertionError, OSError):
            self._abandon()
            raise
        if len(self.sent) >= LINES_PER_ENGINE:
            self.end()

    def _abandon(self) -> None:
        if self.session is not None:
            self.session.kill()
            self.session = None

    def end(self) -> None:
        """``goodbye``: the engine must leave at once, with exit code 0, no traceback, only plain
        ASCII lines of its own, and nothing of its process group behind."""
        session, self.session = self.session, None
        if session is None:
            return
        try:
            code, err = session.finish(timeout=60)  # a wait, not a bound: a busy machine is slower
            if code is None:
                raise AssertionError("the engine did not leave after goodbye")
            if "Traceback" in err or code != 0:
                raise AssertionError(f"exit {code}: {err.strip().splitlines()[-1:]}")
            for raw in session.seen:
                if not raw.isascii() or any(b < 32 for b in raw):
                    raise AssertionError(f"a line that is not plain ASCII: {raw[:80]!r}")
                if raw.startswith(b"error 0 cannot follow that line"):
                    raise AssertionError(f"an unexpected exception in the engine: {raw[:120]!r}")
                if len(raw) > 450:
                    raise AssertionError(f"a line of {len(raw)} bytes")
        finally:
            if session.p.poll() is None:
                session.kill()
            if live_group(session.p.pid):
                raise AssertionError("processes of the engine's group were left running")
        self.fz.outcomes["engine sessions ended cleanly"] += 1


# ------------------------------------------------------------------------------ engine -> host
class EngineLines:
    """Hostile lines a scripted engine sends its host before (and as) each move."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def noise(self) -> list:
        rng, fh = self.rng, _hostile()
        kind = rng.randrange(14)
        if kind == 0:
            return ["say", "status " + fh.hostile_text(rng)[:rng.choice([10, 3000])].replace("\n", " ")]
        if kind == 1:
            return ["say", rng.choice(["rules", "position", "side", "clock", "hello", "dump 3"])]
        if kind == 2:
            return ["raw", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30))).hex() + "0a"]
        if kind == 3:
            return ["say", "x" * rng.choice([70_000, 140_000])]
        if kind == 4:
            return ["say", "error 0 " + fh.hostile_text(rng)[:200].replace("\n", " ")]
        if kind == 5:
            return ["say", "analysis " + rng.choice(["1 d2-b2 0.5", "x", "9" * 400, ""])]
        if kind == 6:
            return ["flood", rng.choice(["status busy", "rules", "position", ""]), rng.randrange(2, 12)]
        if kind == 7:
            return ["say", fh.hostile_text(rng)[:100].replace("\n", " ")]
        if kind == 8:
            return ["say", "simple-moves " + rng.choice(["on", "off", "maybe"])]
        if kind == 9:
            return ["say", ""]
        if kind == 10:
            return ["say", "\r"]
        if kind == 11:
            return ["say", "hello " * rng.randrange(1, 5)]
        if kind == 12:
            return ["say", "side"]
        return ["say", "status \u202edepth 4\x1b[31m"]

    def terminal(self, legal: list[str]) -> list:
        rng, fh = self.rng, _hostile()
        kind = rng.randrange(20)
        if kind < 12 and legal:
            move = rng.choice(legal)
            return ["say", "move " + rng.choice([move, move, move + "+", move + "--", " " + move + " "])]
        if kind == 12:
            return ["say", "move " + rng.choice(["a1-a9", "d2-d2", "z9-z10", fh.hostile_text(rng)[:60]])]
        if kind == 13:
            return ["say", "error -1 " + fh.hostile_text(rng)[:300].replace("\n", " ")]
        if kind == 14:
            return ["exit", rng.choice([0, 1, 3, 139])]
        if kind == 15:
            return ["raw", ("move " + (rng.choice(legal) if legal else "a1-a2")).encode().hex()]  # then exit: no \n
        if kind == 16:
            return ["hang"]
        if kind == 17:
            return ["raw", "6d6f766520ff fe0a".replace(" ", "")]
        if kind == 18:
            return ["say", rng.choice(["move " + "d2-b2" * 20_000, "move", "move  "])]
        return ["flood", "rules", 400]  # then silence: a flood of requests is failed


class EngineTurnsOut:
    """One engine turn per input: a scripted hostile engine's lines as it answers one ``play``,
    through :class:`~tafl_desktop.interop.host.HostedEngine`.  The script of a few turns is
    written when its engine starts; the host's replies are always the first legal move, so the
    script knows which of its moves are legal."""

    category = "engine lines out"

    def __init__(self, fuzzer: Any, workdir: Path) -> None:
        from tafl_desktop.core.variants import find_variant
        from tafl_desktop.interop import engine_process, host

        self.fz = fuzzer
        self.gen = EngineLines(fuzzer.rng)
        self.variant = find_variant("brandubh")
        self.dir = workdir
        self.engine: Any = None
        self.game: Any = None
        self.plays: list = []
        self.turn = 0
        self.index = 0
        # shorter waits than the app's, so a silent or stubborn script costs a fraction of a second:
        # silence past a 0.2 s clock is found at once, a closed engine gets 0.2 s before SIGTERM
        host.GRACE = 0.3
        engine_process.CLOSE_GRACE = 0.2
        engine_process.KILL_GRACE = 0.2

    def _script(self) -> list:
        from tafl_desktop.core.game import Game

        rng, gen = self.fz.rng, self.gen
        rules = self.variant.make_rules()
        game = Game(rules)
        plays = []
        for _ in range(rng.randrange(1, 9)):
            noise = [gen.noise() for _ in range(rng.randrange(0, 40))]
            legal = [rules.move_text(m) for m in game.legal_moves()] if game.outcome is None else []
            last = gen.terminal(legal)
            plays.append(noise + [last] + ([["exit", 0]] if last[0] == "raw" and rng.random() < 0.5 else []))
            if last[0] != "say" or not last[1].startswith("move ") or game.outcome is not None:
                break
            try:
                game.play_text(last[1][5:].strip().rstrip("+-"))
                if game.outcome is None:
                    game.play(game.legal_moves()[0])  # the host's reply below is the same
            except Exception:  # noqa: BLE001 - the script went off the game: the host finds out
                break
        return plays

    def __call__(self) -> None:
        if self.engine is None:
            self.plays = self._script()
        plays = self.plays
        self.fz.timed(self.category, self._one, json.dumps(plays[min(self.turn, len(plays) - 1)])[:300])

    def _start(self) -> bool:
        from tafl_desktop.core.game import Game
        from tafl_desktop.interop import host

        rng = self.fz.rng
        script = {"start": [["say", "hello"]] if rng.random() < 0.95 else [], "per_play": self.plays,
                  "helpers": 1 if rng.random() < 0.1 else 0, "helper_seconds": 30,
                  "ignore_term": rng.random() < 0.05, "ignore_goodbye": rng.random() < 0.1}
        self.index += 1
        path = self.dir / f"engine-{self.index % 8}.json"
        path.write_text(json.dumps(script))
        self.game, self.turn, self.slowest, self.slowest_call = Game(self.variant.make_rules()), 0, 0.0, ""
        try:
            self.engine = self._call(host.HostedEngine, f"{sys.executable} {HOSTILE_ENGINE} {path}", "fuzzed")
        except host.EngineFailure as exc:
            self.fz.rejected(self.category, exc, str(path))
            return False
        return True

    def _call(self, fn, *args):
        t = time.monotonic()
        try:
            return fn(*args)
        finally:
            took = time.monotonic() - t
            if took > self.slowest:
                self.slowest, self.slowest_call = took, getattr(fn, "__name__", "call")

    def _one(self) -> None:
        from tafl_desktop.interop import host

        if self.engine is None and not self._start():
            return
        g, engine = self.game, self.engine
        self.turn += 1
        over = self.turn >= len(self.plays)
        try:
            self._call(engine.request_move, g, (200, 200))
        except host.EngineFailure as exc:
            self.fz.rejected(self.category, exc, json.dumps(self.plays)[:300])
            return self.end()
        event = None
        t0 = time.monotonic()
        while event is None and time.monotonic() - t0 < 60:  # "never": a wait, not a bound (issue 37)
            event = self._call(engine.poll)
            if event is None:
                time.sleep(0.003)
        if event is None:
            self.end()
            raise AssertionError("the host never decided about a silent engine")
        if event.kind == "failed":
            self.fz.rejected(self.category, host.EngineFailure(event.text), json.dumps(self.plays)[:300])
            return self.end()
        if g.check(event.move) is not None:
            self.end()
            raise AssertionError(f"the host accepted an illegal move {event.move}")
        g.play(event.move)
        self.fz.outcomes["engine moves accepted"] += 1
        if g.outcome is None:
            g.play(g.legal_moves()[0])
        if over or g.outcome is not None:
            self.end()

    def end(self) -> None:
        """Close the engine: no call may have taken HOST_CALL_LIMIT, and its group must be gone."""
        engine, self.engine = self.engine, None
        if engine is None:
            return
        self._call(engine.close)
        if self.slowest > HOST_CALL_LIMIT:
            from timing import slowdown  # (tests/ is on the path: the fuzzer runs from there)

            # a busy machine makes every call slower, a call that waits on the engine does not get
            # faster on an idle one: the limit is the idle machine's, times the slowdown now
            factor = slowdown()
            if self.slowest > HOST_CALL_LIMIT * factor:
                raise AssertionError(f"a host call ({self.slowest_call}) took {self.slowest * 1000:.0f} ms "
                                     f"(the limit: {HOST_CALL_LIMIT * 1000:.0f} ms times the machine's "
                                     f"slowdown now, {factor:.1f})")
        if not engine.process.wait(60):
            raise AssertionError("the engine's group was not ended within 60 s of close()")
        if engine.process.pid is not None and live_group(engine.process.pid):
            raise AssertionError("processes of the engine's group were left running")


# ------------------------------------------------------------------------------ study folders
def _snapshot(folder: Path) -> dict[str, tuple[int, Any]]:
    out: dict[str, tuple[int, Any]] = {}
    for p in sorted(folder.iterdir()):
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            out[p.name] = (st.st_mode, os.readlink(p))
        elif stat.S_ISREG(st.st_mode):
            if st.st_size > 50 << 20:
                out[p.name] = (st.st_mode, ("sparse", st.st_size))
            else:
                out[p.name] = (st.st_mode, p.read_bytes())
        else:
            out[p.name] = (st.st_mode, None)
    return out


class StudyFolders:
    """Damaged copies of a small study: 2 cells of 2 Brandubh games from the shipped study."""

    def __init__(self, rng: random.Random, workdir: Path) -> None:
        self.rng = rng
        self.dir = workdir / "studies"
        self.dir.mkdir(exist_ok=True)
        data = json.loads((SHIPPED_STUDY / "study.json").read_text())
        data["axes"][0]["values"] = data["axes"][0]["values"][:2]
        data["games"] = 2
        self.study = data
        rows = [json.loads(x) for x in (SHIPPED_STUDY / "games.jsonl").read_text().splitlines()]
        self.rows = [r for r in rows if r["cell"] < 2 and r["game"] < 2]
        self.outside = workdir / "outside.txt"
        self.outside.write_text("not the lab's")
        self.n = 0

    def make(self) -> tuple[Path, str]:
        rng, fh = self.rng, _hostile()
        self.n += 1
        folder = self.dir / f"s{self.n % 4}"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        study = json.loads(json.dumps(self.study))
        rows = json.loads(json.dumps(self.rows))
        study_text = None
        games_bytes = None
        what = []
        for _ in range(rng.randrange(1, 4)):
            op = rng.randrange(16)
            what.append(op)
            if op == 0:
                fh.mutate_tree(rng, study)
            elif op == 1:
                study[rng.choice(["games", "seed", "max_plies"])] = rng.choice(
                    [10**12, -1, 0, True, 1.5, "3", None, fh.Digits(5000), 2**63])
            elif op == 2:
                study_text = rng.choice(["[" * 100_000, "{", "", "\xff", "null", "[]", '"study"', "1e999"])
            elif op == 3 and rows:
                fh.mutate_tree(rng, rng.choice(rows))
            elif op == 4 and rows:
                r = rng.choice(rows)
                r[rng.choice(["plies", "cell", "game"])] = rng.choice([-5, 10**12, 2, "1", None, 1.5, True])
            elif op == 5 and rows:
                r = rng.choice(rows)
                if r["moves"]:
                    r["moves"][rng.randrange(len(r["moves"]))] = rng.choice(["a1-a7", "d4-d4", "", "x", "\u0663"])
            elif op == 6 and rows:
                r = dict(rng.choice(rows))
                r["winner"] = rng.choice(["attackers", "defenders", None, "fox"])
                rows.append(r)
            elif op == 7 and rows:
                rows.append(dict(rng.choice(rows), cell=rng.choice([2, 7, -1])))
            else:
                games_bytes = self._games_bytes(rows, op)
        (folder / "study.json").write_text(study_text if study_text is not None else fh.json_text(study))
        if games_bytes is None:
            games_bytes = "".join(fh.json_text(r) + "\n" for r in rows).encode("utf-8", "surrogatepass")
        (folder / "games.jsonl").write_bytes(games_bytes)
        if rng.random() < 0.25:
            self._special(folder)
        return folder, repr(what)

    def _games_bytes(self, rows: list, op: int) -> bytes:
        rng = self.rng
        fh = _hostile()
        lines = [fh.json_text(r).encode("utf-8", "surrogatepass") for r in rows]
        if op == 8:
            return b"\n".join(lines)  # a complete last game without its newline
        if op == 9 and lines:
            last = lines[-1]
            return b"\n".join(lines[:-1] + [last[:rng.randrange(1, len(last))]])  # torn
        if op == 10:
            return b" ".join(lines) + b"\n"
        if op == 11:
            return b"\n".join(lines) + b"\n" + rng.choice([b"[" * 100_000, b"{" * 3, b"\x00\xff", b"9" * 5000,
                                                         b"x" * (1 << 20) + b"y" * 100]) + b"\n"
        if op == 12:
            return b"\n".join(lines + lines) + b"\n"  # every game twice (harmless)
        if op == 13:
            return b"\r\n".join(lines) + b"\r\n"
        if op == 14:
            return b"\n\n".join(lines) + b"\n\n\n"
        return b"\n".join(lines[::-1]) + b"\n"

    def _special(self, folder: Path) -> None:
        rng = self.rng
        name = rng.choice(["study.json", "games.jsonl", "chart.png", "summary.json", "games.torn", "chart.pdf"])
        target = folder / name
        if target.exists():
            target.unlink()
        kind = rng.randrange(6)
        if kind == 0:
            os.mkfifo(target)
        elif kind == 1:
            target.symlink_to("/dev/zero")
        elif kind == 2:
            target.symlink_to(self.outside)
        elif kind == 3:
            with open(target, "wb") as fh:
                fh.truncate(3 << 30)
        elif kind == 4:
            target.mkdir()
        else:
            target.symlink_to(target.name)  # a link to itself


def study_folder(fuzzer: Any, maker: StudyFolders, base: Any) -> None:
    """One damaged study folder through the readers (or, one time in three, ``lab``'s open)."""
    from tafl_desktop.lab.files import game_of, output_paths
    from tafl_desktop.lab.report import summary
    from tafl_desktop.lab.store import GAMES_FILE, TORN_FILE, ResultStore
    from tafl_desktop.lab.study import StudyError

    category = "study folders"
    folder, what = maker.make()
    outside_before = maker.outside.read_bytes()
    writer = fuzzer.rng.random() < 0.3

    def run() -> None:
        before = _snapshot(folder)
        torn = folder / TORN_FILE
        torn_size = os.stat(torn).st_size if os.path.isfile(torn) else 0
        try:
            store = ResultStore.open(folder, base if writer else None)
            report = summary(store)
            for (c, g) in list(store.results)[:2]:
                game_of(store, c, g)
            for text in store.problems:
                problem = fuzzer_clean(text)
                if problem:
                    raise AssertionError(f"a problem sentence: {problem}: {text[:200]!r}")
            if writer:
                output_paths(folder)
            if sum(c["games"] for c in report["cells"]) > len(maker.rows):
                raise AssertionError("more games counted than the study ever played")
            fuzzer.outcomes["loaded"] += 1
        except (StudyError, OSError) as exc:
            fuzzer.rejected(category, exc, what)
        after = _snapshot(folder)
        if not writer:
            if after != before:
                changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
                raise AssertionError(f"a reader changed {changed}")
        else:
            for name in set(before) | set(after):
                if name in (GAMES_FILE, TORN_FILE, "study.json") or before.get(name) == after.get(name):
                    continue
                raise AssertionError(f"opening for lab changed {name}")
            old, new = before.get(GAMES_FILE), after.get(GAMES_FILE)
            if old and isinstance(old[1], bytes) and old != new:
                def data(entry: Any) -> bytes:
                    return entry[1] if entry and isinstance(entry[1], bytes) else b""

                torn_added = b""
                if os.path.isfile(torn):  # what lab appended to games.torn (which may be a huge file)
                    with open(torn, "rb") as fh:
                        fh.seek(torn_size)
                        torn_added = fh.read(1 << 24)
                kept = data(new)
                if not (kept == old[1] + b"\n" or kept + torn_added.rstrip(b"\n") == old[1]):
                    raise AssertionError("lab's open lost bytes of games.jsonl")
        if maker.outside.read_bytes() != outside_before:
            raise AssertionError("a file outside the study's folder was written")

    fuzzer.timed(category, run, what)


def fuzzer_clean(text: str) -> str | None:
    return _hostile().clean_message(text)


# ------------------------------------------------------------------------------ puzzle files
class PuzzleFiles:
    def __init__(self, rng: random.Random, workdir: Path) -> None:
        from tafl_desktop.study.puzzles import PuzzleSet, puzzles_dir

        self.rng = rng
        self.dir = workdir / "puzzles"
        self.dir.mkdir(exist_ok=True)
        self.puzzles = []
        for path in sorted(puzzles_dir().glob("*.json")):
            pset = PuzzleSet.load(path)
            self.puzzles += sorted(pset.puzzles, key=lambda p: p["plies"])[:4]
        self.n = 0

    def make(self) -> tuple[Path, str]:
        rng, fh = self.rng, _hostile()
        self.n += 1
        path = self.dir / f"p{self.n % 4}.json"
        if path.is_symlink() or path.exists():
            if path.is_dir() and not path.is_symlink():
                path.rmdir()
            else:
                path.unlink()
        puzzles = json.loads(json.dumps(rng.sample(self.puzzles, rng.randrange(1, 4))))
        data = {"format": 1, "variant": puzzles[0]["variant"], "puzzles": puzzles}
        kind = rng.randrange(10)
        if kind < 5:
            for _ in range(rng.randrange(1, 3)):
                fh.mutate_tree(rng, rng.choice([data, rng.choice(puzzles)]))
            text = fh.json_text(data)
        elif kind == 5:
            rng.choice(puzzles)["tree"] = "@TREE@"  # replaced below by a tree of moves nested deep
            depth = rng.choice([60, 200, 300])
            text = fh.json_text(data).replace('"@TREE@"', '["d1-d2",[[["a1-a2"],' * depth + '"d2-d3"' + "]]]" * depth)
        elif kind == 6:
            rng.choice(puzzles)["plies"] = rng.choice([99, 1, 0, -1, 3])
            text = fh.json_text(data)
        elif kind == 7:
            rng.choice(puzzles)["options"] = {rng.choice(["king_capture", "escape", "x"]): fh.hostile_value(rng)}
            text = fh.json_text(data)
        elif kind == 8:
            text = fh.json_text(data)
            k = rng.randrange(len(text))
            text = text[:k] + rng.choice(["[" * 100_000, "\x00", "9" * 5000, "}", "\\ud800"]) + text[k:]
        else:
            special = rng.randrange(4)
            if special == 0:
                os.mkfifo(path)
            elif special == 1:
                path.symlink_to("/dev/zero")
            elif special == 2:
                with open(path, "wb") as f:
                    f.truncate(3 << 30)
            else:
                path.mkdir()
            return path, f"special {special}"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        return path, text[:300]


def puzzle_file(fuzzer: Any, maker: PuzzleFiles) -> None:
    """One damaged puzzle file loaded (and, one time in four, its puzzles checked)."""
    from tafl_desktop.study.puzzles import PuzzleError, PuzzleSet, check_puzzle

    category = "puzzle files"
    path, sample = maker.make()
    check = fuzzer.rng.random() < 0.25

    def run() -> None:
        st = os.lstat(path)
        before = path.read_bytes() if stat.S_ISREG(st.st_mode) and st.st_size < (50 << 20) else None
        try:
            pset = PuzzleSet.load(path)
        except PuzzleError as exc:
            fuzzer.rejected(category, exc, sample)
        else:
            if check:
                for pz in pset.puzzles[:2]:
                    why = check_puzzle(pz, max_nodes=3_000)
                    if why is not None and fuzzer_clean(str(why)):
                        raise AssertionError(f"a check's reason is not one clean line: {str(why)[:200]!r}")
            fuzzer.outcomes["loaded"] += 1
        after = os.lstat(path)
        if stat.S_IFMT(after.st_mode) != stat.S_IFMT(st.st_mode) or (
                before is not None and path.read_bytes() != before):
            raise AssertionError("the puzzle file changed")

    fuzzer.timed(category, run, sample)


# ------------------------------------------------------------------------------ the plugin
_OPEN: list[Any] = []


def generators(fuzzer: Any) -> list[tuple[str, Any]]:
    """The makers of one input each, repeated by WEIGHTS (``fuzz_hostile`` cycles through them)."""
    from tafl_desktop.lab.study import Study

    workdir = Path(fuzzer.dir) / "processes"
    workdir.mkdir(exist_ok=True)
    lines_in, turns_out = EngineLinesIn(fuzzer), EngineTurnsOut(fuzzer, workdir)
    _OPEN[:] = [lines_in, turns_out]
    studies, puzzles = StudyFolders(fuzzer.rng, workdir), PuzzleFiles(fuzzer.rng, workdir)
    base = Study.from_data(studies.study)
    makers = {"engine lines in": lines_in, "engine lines out": turns_out,
              "study folders": lambda: study_folder(fuzzer, studies, base),
              "puzzle files": lambda: puzzle_file(fuzzer, puzzles)}
    return [(name, makers[name]) for name, weight in WEIGHTS.items() for _ in range(weight)]


def finish(fuzzer: Any) -> None:
    """End the engines still open (with the same checks), then look for any process left."""
    for holder in _OPEN:
        try:
            holder.end()
        except AssertionError as exc:
            fuzzer.fail(holder.category, str(exc), "the last engine")
    deadline = time.monotonic() + 10
    while our_children() and time.monotonic() < deadline:
        time.sleep(0.1)
    left = our_children()
    if left:
        fuzzer.fail("processes", f"{len(left)} child processes were left running", left[:10])

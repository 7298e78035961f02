"""A structure-aware fuzzer for everything a stranger can hand the app: positions, variant files,
game records and special files.

Run by ``tests/test_fuzz_hostile_inputs.py`` (in a child process, so its memory is its own), or by
hand::

    .venv/bin/python tests/fuzz_hostile.py --count 100000 --seed 7

Inputs are built from real presets and records and then damaged the way an attacker would: rows
too long or short, unknown letters, second kings, Unicode digits, control and bidirectional
characters, strings of a megabyte, numbers of 5,000 digits, nesting 100,000 deep, wrong types,
boards of size -1, 0, 4, 20 or 2**63, and FIFOs, devices, links and huge sparse files in place of
files.  Every input must end, within 10 s, in either

* a clean rejection: the loader's own error (``ValueError`` for a position, ``VariantError``,
  ``RecordError``, ``OSError`` for a refused write target) with one short line, no raw control or
  bidirectional characters, or
* a game that is exactly what the input describes (every piece of a position where the text put
  it; a record's moves replayed to the same game; a variant that builds and plays),

and no input may change a game held meanwhile or the cached presets.  Anything else is counted
as a failure and reported with the input that caused it.

More surfaces plug in as modules beside this one (``tests/fuzz_records.py``...): each defines
``generators(fuzzer) -> list[(category, make_one_input)]``, where ``make_one_input()`` builds one
input and runs it through ``fuzzer.timed`` (and ``fuzzer.rejected`` / ``fuzzer.fail``), and may
define ``finish(fuzzer)``, called after the last input (``tests/fuzz_processes.py`` ends the
processes it keeps between inputs there).  Run
them with ``--plugin NAME`` (repeatable): the ``--count`` inputs are then theirs, shared equally::

    .venv/bin/python tests/fuzz_hostile.py --plugin fuzz_records --count 50000 --seed 26
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import socket
import stat
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tafl_desktop.core.game import Game, Side  # noqa: E402
from tafl_desktop.core.record import RecordError, game_to_data, load_game, save_game  # noqa: E402
from tafl_desktop.core.safe_files import write_safely  # noqa: E402
from tafl_desktop.core.variants import VariantError, load_variant, presets, save_variant  # noqa: E402

#: An input that takes longer than this is a hang.
HANG_SECONDS = 10
#: Inputs between two measurements of the machine's slowdown, which stretches HANG_SECONDS on a busy
#: machine (tests/timing.py): a hang does not end on an idle one either.
STRETCH_EVERY = 200
#: A message longer than this is not "one short line" (the longest honest one lists every option).
MAX_MESSAGE = 800

HOSTILE_CHARS = ["\n", "\r", "\t", "\x00", "\x07", "\x1b[31m", "\u202e", "\u202d", "\u2066", "\u2067", "\u2069",
                 "\u200f", "\u061c", "\u2028", "\ufeff", "\ud800", "\U0010ffff", "\u0663", "\u00b3", "\uff15",
                 "\u212a", "K", "t", "T", "/", "=", ",", " ", "9", "0", "x", "-", "+", "\\", "'", '"']
ARABIC_DIGITS = "٠١٢٣٤٥٦٧٨٩"


class Hang(Exception):
    """Raised by the alarm when one input runs past HANG_SECONDS."""


def _alarm(_signum, _frame) -> None:
    raise Hang()


def clean_message(text: str) -> str | None:
    """None if ``text`` is one short clean line, else what is wrong with it."""
    body = text.strip()
    if not body:
        return "empty message"
    if "\n" in body or "\r" in body:
        return "message has a line break"
    if len(body) > MAX_MESSAGE:
        return f"message of {len(body)} characters"
    if any(ord(c) < 32 or ord(c) == 0x7F or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069
           or c in "\u200e\u200f\u061c\u2028\u2029" for c in body):
        return "message has a raw control or bidirectional character"
    return None


# ------------------------------------------------------------------------------------ hostile values
def hostile_text(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return "".join(rng.choice(HOSTILE_CHARS) for _ in range(rng.randrange(1, 12)))
    if kind == 1:
        return rng.choice(HOSTILE_CHARS) * rng.choice([1000, 100_000, 300_000])
    if kind == 2:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(1, 40)))
    if kind == 3:
        return rng.choice(["e5", "a1", "k11", "corner", "edge", "yes", "attackers", "fox"]) + rng.choice(HOSTILE_CHARS)
    if kind == 4:
        return "".join(rng.choice(ARABIC_DIGITS) for _ in range(rng.randrange(1, 5)))
    return ""


def hostile_value(rng: random.Random) -> Any:
    kind = rng.randrange(10)
    if kind == 0:
        return hostile_text(rng)
    if kind == 1:
        return rng.choice([-1, 0, 1, 4, 5, 19, 20, 2**31, 2**63, -2**63, 10**100])
    if kind == 2:
        return rng.choice([0.5, -0.0, 1e308, float("inf"), float("nan")])
    if kind == 3:
        return rng.choice([True, False])
    if kind == 4:
        return [hostile_value(rng) for _ in range(rng.randrange(4))]
    if kind == 5:
        return {hostile_text(rng)[:8] or "k": hostile_value(rng) for _ in range(rng.randrange(3))}
    if kind == 6:
        return Deep(rng.choice([10, 500, 5000, 100_000]), rng.choice("[{"))
    if kind == 7:
        return Digits(rng.choice([50, 4301, 5000, 20_000]))
    if kind == 8:
        return None
    return rng.choice(["corner", "edge", "none", "centre", "a1", "hunters=d4", "/7/7/7/3K3/7/7/7/"])


class Deep:
    """A value nested ``depth`` deep, written as text (no Python object that deep exists)."""

    def __init__(self, depth: int, bracket: str) -> None:
        self.depth, self.bracket = depth, bracket


class Digits:
    """An integer of ``n`` digits, written as text."""

    def __init__(self, n: int) -> None:
        self.n = n


# ------------------------------------------------------------------------------------ writers
def json_text(v: Any) -> str:
    if isinstance(v, Deep):
        if v.bracket == "[":
            return "[" * v.depth + "1" + "]" * v.depth
        return '{"a":' * v.depth + "1" + "}" * v.depth
    if isinstance(v, Digits):
        return "9" * v.n
    if isinstance(v, float):
        return "NaN" if v != v else ("Infinity" if v == float("inf") else repr(v))
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(str(k)) + ":" + json_text(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(json_text(x) for x in v) + "]"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return json.dumps(v)


def toml_value(v: Any) -> str:
    if isinstance(v, Deep):
        if v.bracket == "[":
            return "[" * v.depth + "1" + "]" * v.depth
        return "{a = " * v.depth + "1" + "}" * v.depth
    if isinstance(v, Digits):
        return "9" * v.n
    if v is None:
        return "1979-05-27T07:32:00Z"  # TOML has no null: a date is another wrong type
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if v != v else ("inf" if v == float("inf") else repr(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        out = []
        for ch in v:
            if ch in '"\\':
                out.append("\\" + ch)
            elif ord(ch) < 32 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF:
                out.append(f"\\u{ord(ch) if ord(ch) < 0xD800 else 0xFFFD:04x}")
            else:
                out.append(ch)
        return '"' + "".join(out) + '"'
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f'"{toml_key(k)}" = {toml_value(x)}' for k, x in v.items()) + "}"
    raise TypeError(type(v))


def toml_key(k: Any) -> str:
    return toml_value(str(k))[1:-1]


def variant_toml(data: dict) -> str:
    lines = [f'"{toml_key(k)}" = {toml_value(v)}' for k, v in data.items() if not isinstance(v, dict)]
    for k, v in data.items():
        if isinstance(v, dict):
            lines.append(f'["{toml_key(k)}"]')
            lines += [f'"{toml_key(kk)}" = {toml_value(vv)}' for kk, vv in v.items()]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ mutators
def mutate_tree(rng: random.Random, data: Any) -> None:
    """Replace, delete or add one value somewhere in nested dicts and lists."""
    node = data
    for _ in range(rng.randrange(3)):
        children = list(node.values()) if isinstance(node, dict) else node if isinstance(node, list) else []
        children = [c for c in children if isinstance(c, (dict, list))]
        if not children:
            break
        node = rng.choice(children)
    if isinstance(node, dict):
        keys = list(node)
        op = rng.randrange(3)
        if keys and op == 0:
            del node[rng.choice(keys)]
        elif keys and op == 1:
            node[rng.choice(keys)] = hostile_value(rng)
        else:
            node[hostile_text(rng)[:12] or "extra"] = hostile_value(rng)
    elif isinstance(node, list) and node:
        node[rng.randrange(len(node))] = hostile_value(rng)


def mutate_tafl_position(rng: random.Random, text: str) -> str:
    rows = text.strip("/").split("/")
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(9)
        i = rng.randrange(len(rows)) if rows else 0
        if not rows:
            rows = [""]
        if op == 0:
            rows[i] += rng.choice(["t", "T", "K", "1", "tttt", "3", "t" * 50])
        elif op == 1:
            rows[i] = rows[i][: max(0, len(rows[i]) - rng.randrange(1, 3))]
        elif op == 2 and rows[i]:
            k = rng.randrange(len(rows[i]))
            rows[i] = rows[i][:k] + rng.choice(HOSTILE_CHARS) + rows[i][k + 1:]
        elif op == 3:
            rows.insert(i, rng.choice(rows))
        elif op == 4 and len(rows) > 1:
            rows.pop(i)
        elif op == 5:
            rows[i] = rng.choice(["9" * rng.choice([4, 50, 5000]), "0" + rows[i], rows[i] + "0", "00", "01" * 3])
        elif op == 6:
            rows[i] = rows[i].replace(rng.choice("tT"), "K", 1)
        elif op == 7:
            rows[i] = "".join(ARABIC_DIGITS[int(c)] if c in "0123456789" else c for c in rows[i])
        else:
            rows[i] = hostile_text(rng)[:rng.choice([5, 50, 100_000])]
    return "/" + "/".join(rows) + "/"


def mutate_list_position(rng: random.Random, text: str, keys: tuple[str, str]) -> str:
    tokens = text.split()
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(7)
        i = rng.randrange(len(tokens)) if tokens else 0
        if not tokens:
            tokens = [f"{keys[0]}="]
        if op == 0:
            tokens[i] += "," + rng.choice(["a1", "z9", "c3", "d4", "sa1", "ka1", "q", "", "c" + ARABIC_DIGITS[3]])
        elif op == 1:
            items = tokens[i].split(",")
            tokens[i] = ",".join(items[: max(1, len(items) - 1)])
        elif op == 2:
            tokens.append(rng.choice(tokens))
        elif op == 3:
            tokens.append(rng.choice(["junk", "geese=a1", "=", f"{keys[1]}=", "south=", "x=y=z"]))
        elif op == 4:
            k = rng.randrange(len(tokens[i]) or 1)
            tokens[i] = tokens[i][:k] + rng.choice(HOSTILE_CHARS) + tokens[i][k + 1:]
        elif op == 5:
            tokens[i] = tokens[i] + ("," + tokens[i].split("=")[-1].split(",")[0]) * rng.choice([1, 1000])
        else:
            tokens[i] = hostile_text(rng)[:rng.choice([5, 10_000])]
    return " ".join(tokens)


# ------------------------------------------------------------------------------------ checks
def tafl_squares(text: str, width: int) -> dict[tuple[int, int], str] | None:
    """Where the text puts each piece (row, file), read independently of the engine."""
    out = {}
    for r, row in enumerate(text.strip().strip("/").split("/")):
        f, k = 0, 0
        row = row.strip()
        while k < len(row):
            if row[k] in "0123456789":
                j = k
                while j < len(row) and row[j] in "0123456789":
                    j += 1
                f += int(row[k:j]) if j - k < 5 else 10**6
                k = j
                continue
            out[(r, f)] = row[k]
            f += 1
            k += 1
        if f != width:
            return None
    return out


class Fuzzer:
    def __init__(self, seed: int, workdir: Path) -> None:
        self.rng = random.Random(seed)
        self.dir = workdir
        self.counts: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.failures: list[dict[str, Any]] = []
        self.slowest = 0.0
        self.table = presets()
        self.rules: dict[str, Any] = {}  # one rules object per preset serves every position
        self.fingerprint = json.dumps([v.to_data() for v in self.table.values()], sort_keys=True, default=str)
        self.held = self._held_game()
        self.held_before = (self.held.move_texts(), self.held.rules.position_key(self.held.position))
        self.records = {vid: game_to_data(self._sample(vid)) for vid in
                        ("brandubh", "copenhagen", "tablut_camps", "fox_geese_13", "asalto", "dablot_mini",
                         "alea_evangelii", "fox_hounds")}

    def _sample(self, vid: str) -> Game:
        g = Game(self.table[vid].make_rules())
        for _ in range(6):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(moves[len(moves) // 3])
        return g

    def _held_game(self) -> Game:
        """The game "on screen" meanwhile: no input may touch it."""
        g = Game(self.table["brandubh"].make_rules())
        for text in ("d6-a6", "d5-d6", "g4-g3"):
            g.play_text(text)
        return g

    def fail(self, category: str, why: str, sample: Any) -> None:
        self.outcomes["failure"] += 1
        if len(self.failures) < 30:
            self.failures.append({"category": category, "why": why, "input": repr(sample)[:300]})

    def timed(self, category: str, fn, sample: Any) -> None:
        """Run one input with the hang alarm; classify tracebacks and hangs as failures."""
        self.counts[category] += 1
        if sum(self.counts.values()) % STRETCH_EVERY == 1:  # the machine's load now (issue 37)
            from timing import slowdown

            self.stretch = slowdown()
        t = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS * getattr(self, "stretch", 1.0))
        try:
            fn()
        except Hang:
            self.fail(category, f"hang over {HANG_SECONDS} s (times the slowdown {self.stretch:.1f})", sample)
        except BaseException as exc:  # noqa: BLE001 - the whole point: nothing unexpected escapes
            if isinstance(exc, KeyboardInterrupt):
                raise
            self.fail(category, f"traceback: {type(exc).__name__}: {str(exc)[:200]}", sample)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        self.slowest = max(self.slowest, time.monotonic() - t)

    def rejected(self, category: str, exc: BaseException, sample: Any) -> None:
        problem = clean_message(str(exc) if not isinstance(exc, OSError) else (exc.strerror or str(exc)))
        if problem:
            self.fail(category, problem, sample)
        else:
            self.outcomes["rejected cleanly"] += 1

    # -- positions -----------------------------------------------------------------------------
    def position(self) -> None:
        vid = self.rng.choice(list(self.table))
        variant = self.table[vid]
        rules = self.rules.get(vid) or self.rules.setdefault(vid, variant.make_rules())
        if variant.family == "tafl":
            text = mutate_tafl_position(self.rng, variant.setup)
        else:
            keys = ("flock", "hunters") if variant.family == "hunt" else ("south", "north")
            text = mutate_list_position(self.rng, variant.setup, keys)
        side = Side(self.rng.randrange(2))

        def run() -> None:
            try:
                pos = rules.parse_position(text, side)
            except ValueError as exc:
                self.rejected("positions", exc, text)
                return
            self._check_position(rules, variant, text, pos)
            self.outcomes["loaded"] += 1

        self.timed("positions", run, text)

    def _check_position(self, rules, variant, text: str, pos) -> None:
        again = rules.parse_position(rules.position_text(pos), Side(rules.side_to_move(pos)))
        if rules.position_key(again) != rules.position_key(pos):
            raise AssertionError("position text does not read back as the same position")
        if variant.family == "tafl":
            g = variant.geometry
            wanted = tafl_squares(text, g.width)
            if wanted is None:
                raise AssertionError("a row of the wrong length was accepted")
            got = {}
            for s, ch in rules.pieces(pos).items():
                f, r = g.file_rank(s)
                got[(g.height - 1 - r, f)] = ch
            if wanted != got:
                raise AssertionError("the position read is not the position written")
        else:
            listed = sum(len([x for x in part.partition("=")[2].split(",") if x]) for part in text.split())
            on_board = len(rules.pieces(pos))
            if listed != on_board:
                raise AssertionError(f"{listed} pieces listed, {on_board} on the board")

    # -- variants ------------------------------------------------------------------------------
    def variant_text(self) -> str:
        """A damaged variant file's text."""
        base = self.table[self.rng.choice(list(self.table))]
        data = base.to_data()
        mode = self.rng.randrange(10)
        if mode < 6:
            for _ in range(self.rng.randrange(1, 3)):
                mutate_tree(self.rng, data)
            text = variant_toml(data)
        elif mode < 8:
            board = data["board"]
            board[self.rng.choice(["width", "height", "size", "cols", "rows"])] = self.rng.choice(
                [-1, 0, 1, 2, 3, 4, 5, 11, 13, 19, 20, 21, 99, 2**31, 2**63 - 1, Digits(5000)])
            if base.family == "tafl" and self.rng.random() < 0.5:
                board["setup"] = mutate_tafl_position(self.rng, board["setup"])
            text = variant_toml(data)
        else:
            text = variant_toml(data)
            k = self.rng.randrange(len(text))
            text = text[:k] + self.rng.choice(["[" * 100_000, "{a = " * 50_000, "9" * 5000, "\x00", '"""',
                                               "\ud800", "= =", "\n[board]\n"]) + text[k:]
        return text

    def variant(self) -> None:
        text = self.variant_text()
        path = self.dir / self.rng.choice(["v.toml", "house\nrules.toml", "\u202ecod.toml"])
        path.write_bytes(text.encode("utf-8", "surrogatepass"))

        def run() -> None:
            try:
                v = load_variant(path)
            except VariantError as exc:
                self.rejected("variants", exc, text[:300])
                return
            rules = v.make_rules()
            pos = rules.initial_position()
            for m in rules.legal_moves(pos)[:3]:
                rules.play(pos, m)
            self.outcomes["loaded"] += 1

        self.timed("variants", run, text[:300])

    # -- records -------------------------------------------------------------------------------
    def record_bytes(self) -> bytes:
        """A damaged game record's bytes."""
        data = json.loads(json.dumps(self.records[self.rng.choice(list(self.records))]))
        mode = self.rng.randrange(10)
        if mode < 4:
            for _ in range(self.rng.randrange(1, 3)):
                mutate_tree(self.rng, data)
        elif mode == 4 and data["moves"]:
            i = self.rng.randrange(len(data["moves"]))
            data["moves"][i] = self.rng.choice([
                data["moves"][i] + self.rng.choice(HOSTILE_CHARS),
                "".join(ARABIC_DIGITS[int(c)] if c in "0123456789" else c for c in data["moves"][i]),
                data["moves"][i].replace("k", "\u212a"), hostile_text(self.rng)])
        elif mode == 5:
            family = data["variant"].get("family")
            if family == "tafl":
                data["start"] = mutate_tafl_position(self.rng, data["start"])
            else:
                keys = ("flock", "hunters") if family == "hunt" else ("south", "north")
                data["start"] = mutate_list_position(self.rng, data["start"], keys)
        elif mode == 6:
            data["moves"] = data["moves"] * self.rng.choice([2, 100, 4000])
        elif mode == 7:
            mutate_tree(self.rng, data["variant"])
        text = json_text(data)
        if mode >= 8:
            k = self.rng.randrange(len(text))
            text = text[:k] + self.rng.choice(["[" * 100_000, '{"a":' * 100_000, "9" * 5000, "\x00", "\ufeff",
                                               "NaN", "}", "\\ud800"]) + text[k:]
        raw = text.encode("utf-8", "surrogatepass")
        if self.rng.random() < 0.05:
            raw = raw[: self.rng.randrange(len(raw))] + bytes([self.rng.randrange(256)]) + raw[len(raw) // 2:]
        return raw

    def record(self) -> None:
        raw = self.record_bytes()
        text = raw.decode("utf-8", "replace")
        path = self.dir / self.rng.choice(["g.tafl.json", "evil\n\u202egame.json"])
        path.write_bytes(raw)

        def run() -> None:
            try:
                game = load_game(path)
            except RecordError as exc:
                self.rejected("records", exc, text[:300])
                return
            recorded = json.loads(raw.decode("utf-8"))
            if len(game.plies) != len(recorded.get("moves", [])):
                raise AssertionError("the game has not the record's moves")
            replay = Game(game.rules, game.start)
            for t in recorded.get("moves", []):
                replay.play_text(t)
            if game.rules.position_key(replay.position) != game.rules.position_key(game.position):
                raise AssertionError("the record replays to another position")
            self.outcomes["loaded"] += 1

        self.timed("records", run, text[:300])

    # -- special files -------------------------------------------------------------------------
    def special_files(self) -> None:
        """Everything that is not a regular file, read as a record and a variant and used as a
        write target; the target must still be what it was."""
        d = self.dir / "special"
        d.mkdir(exist_ok=True)
        paths: list[Path] = []
        fifo = d / "fifo"
        if not fifo.exists():
            os.mkfifo(fifo)
        paths.append(fifo)
        for name, target in (("link-zero", "/dev/zero"), ("link-urandom", "/dev/urandom"), ("loop", "loop"),
                             ("dangling", "nowhere/at/all"), ("link-fifo", "fifo")):
            p = d / name
            if not p.is_symlink():
                p.symlink_to(target)
            paths.append(p)
        huge = d / "huge"
        with open(huge, "wb") as fh:
            fh.truncate(3 << 30)
        paths.append(huge)
        folder = d / "folder"
        folder.mkdir(exist_ok=True)
        paths.append(folder)
        sock_path = d / "sock"
        if not sock_path.exists():
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(str(sock_path))
            self._sock = sock
        paths.append(sock_path)
        paths += [Path(p) for p in ("/dev/zero", "/dev/urandom", "/dev/null", "/dev/full", "/proc/self/mem",
                                    "/proc/self/status", "/", "") if p == "" or os.path.exists(p)]
        if os.geteuid() == 0:
            dev = d / "null-twin"
            if not dev.exists():
                os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            paths.append(dev)
        game = self.held
        for p in paths:
            self.timed("special files", lambda p=p: self._read_special(p, load_game, RecordError), str(p))
            self.timed("special files", lambda p=p: self._read_special(p, load_variant, VariantError), str(p))
            if str(p).startswith(str(d)) and p != huge:  # a regular file may be replaced: not a test here
                for write in (lambda q: save_game(game, q), lambda q: save_variant(self.table["brandubh"], q),
                              lambda q: write_safely(q, b"%PDF-1.4")):
                    self.timed("special files", lambda p=p, write=write: self._write_special(p, write), str(p))

    def _read_special(self, p: Path, load, error) -> None:
        try:
            load(p)
        except error as exc:
            self.rejected("special files", exc, str(p))
            return
        raise AssertionError(f"{p} loaded as a game or variant")

    def _write_special(self, p: Path, write) -> None:
        before = os.lstat(p).st_mode if os.path.lexists(p) else None
        link_to = os.readlink(p) if p.is_symlink() else None
        try:
            write(p)
        except OSError as exc:
            self.rejected("special files", exc, str(p))
        else:
            if before is not None and not (stat.S_ISLNK(before) and link_to == "nowhere/at/all"):
                raise AssertionError(f"{p} was written over")
            self.outcomes["written through a dangling link"] += 1
        after = os.lstat(p).st_mode if os.path.lexists(p) else None
        if after != before or (link_to is not None and os.readlink(p) != link_to):
            raise AssertionError(f"{p} changed kind")

    # -- the run -------------------------------------------------------------------------------
    def run(self, count: int, position_share: float = 0.5) -> dict[str, Any]:
        """``count`` generated inputs (``position_share`` of them positions, the rest half variant
        files, half game records) after the special files."""
        t0 = time.monotonic()
        self.special_files()
        rest = (1 - position_share) / 2
        shares = (("positions", position_share, self.position), ("variants", rest, self.variant),
                  ("records", rest, self.record))
        plan = [fn for _name, share, fn in shares for _ in range(round(count * share))]
        self.rng.shuffle(plan)
        for i, fn in enumerate(plan, 1):
            fn()
            if i % 1000 == 0:
                self._check_untouched()
        self._check_untouched()
        return {
            "inputs": sum(self.counts.values()), "by_category": dict(self.counts), "outcomes": dict(self.outcomes),
            "failures": self.failures, "slowest_input_seconds": round(self.slowest, 3),
            "seconds": round(time.monotonic() - t0, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }

    def run_plugins(self, names: list[str], count: int) -> dict[str, Any]:
        """``count`` inputs from the generators of the plugin modules ``names`` (see the module's
        docstring), shared equally and shuffled, with the same checks and report as :meth:`run`."""
        import importlib

        t0 = time.monotonic()
        modules = [importlib.import_module(name) for name in names]
        makers = [maker for module in modules for maker in module.generators(self)]
        plan = [makers[i % len(makers)][1] for i in range(count)]
        self.rng.shuffle(plan)
        for i, fn in enumerate(plan, 1):
            fn()
            if i % 1000 == 0:
                self._check_untouched()
        for module in modules:  # a plugin may keep processes open between inputs: it ends them here
            getattr(module, "finish", lambda _fuzzer: None)(self)
        self._check_untouched()
        return {
            "children_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
            "inputs": sum(self.counts.values()), "by_category": dict(self.counts), "outcomes": dict(self.outcomes),
            "failures": self.failures, "slowest_input_seconds": round(self.slowest, 3),
            "seconds": round(time.monotonic() - t0, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }

    def _check_untouched(self) -> None:
        now = json.dumps([v.to_data() for v in presets().values()], sort_keys=True, default=str)
        if now != self.fingerprint or presets() is not self.table:
            self.fail("held state", "the cached presets changed", "")
        held = (self.held.move_texts(), self.held.rules.position_key(self.held.position))
        if held != self.held_before:
            self.fail("held state", "the game held meanwhile changed", "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10_000, help="generated positions, variants and records")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--position-share", type=float, default=0.5, help="share of positions (the cheapest inputs)")
    ap.add_argument("--plugin", action="append", default=[], help="a module of more generators (tests/NAME.py)")
    args = ap.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # a runaway read fails here, not the machine
    signal.signal(signal.SIGALRM, _alarm)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    with tempfile.TemporaryDirectory(prefix="tafl-fuzz-") as d:
        fuzzer = Fuzzer(args.seed, Path(d))
        report = fuzzer.run_plugins(args.plugin, args.count) if args.plugin else \
            fuzzer.run(args.count, args.position_share)
    print(json.dumps(report))
    return 0 if not report["failures"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""Issue 26's share of the hostile-input fuzzer: game records in every import format, and rules
strings wherever a preset id is accepted.  A plugin of ``tests/fuzz_hostile.py``::

    .venv/bin/python tests/fuzz_hostile.py --plugin fuzz_records --count 50000 --seed 26

Inputs are real exports of small games (tags, comments with awkward characters, variations, a
resignation) damaged the way an attacker would: tokens and lines replaced, repeated, dropped or
swapped, hostile characters, escapes cut in half, tags holding ``1. ``, brackets that never close,
numbers of 5,000 digits, nesting 3,000 deep, ``Infinity`` where a coordinate belongs, clock tags of
400 nines, rules strings that contradict themselves.  Categories:

* ``otg``, ``pgn``, ``move lists``, ``PlayTaflOnline``: read through ``interop.formats.parse``
  (what File > Import and ``convert`` read with).  A game accepted must survive its own format: it
  is written back and read again, and the main line, the start, the rules, the ending, and (where
  the format holds them) the tags, comments and variations come back the same.
* ``convert/replay``: damaged ``.tafl.json`` records on disk through the command line's ``convert``
  (to every format) and ``replay``; a written file must read back.
* ``rules strings``: damaged rules strings through ``perft``, ``play``, ``rules``, ``variants
  --rules-string``, ``analyse`` and ``convert --variant``.

Every command must end with exit code 0, 1 or 2 and at most one clean error line; no file but
the one asked for may change.  The command line is the program's own parser and command
functions, built once and called in this process (the program's ``main`` minus building the
parser, which would cost 16 ms an input); ``tests/test_hostile_imports.py`` runs the real
program in subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
from pathlib import Path
from typing import Any

from fuzz_hostile import (
    ARABIC_DIGITS,
    HOSTILE_CHARS,
    Deep,
    Digits,
    clean_message,
    hostile_value,
    json_text,
    mutate_tree,
)

from tafl_desktop.core.game import Game, Outcome, Side
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.rules_string import to_rules_string
from tafl_desktop.interop.formats import parse, render
from tafl_desktop.interop.transfer import GameTransfer, InteropError

#: Tokens an attacker puts where a move, a turn number or an address belongs.
HOSTILE_TOKENS = ["1.", "\u0663.", "9" * 5000 + ".", "0.", "a1-a99", "Kd4-c4xd3/e3", "d1d3", "1-0", "*", "---",
                  ".....", "1a.1.1a.", "3a." + "1.1a." * 200, "99999999999a.1.1a.", "2b.1.1b.", "[", "]", "|",
                  "x" * 100_000, "\x00", "\u202e", "\x1b[31m", "d1-d3x", "d1-d3xzz9", "k11-k1", "s19-a1",
                  "\\x5", "\\u12", "\\U0011ffff", "e5-e5", "K", "t", "-", "+", "++", "--"]
#: Lines an attacker adds to an OpenTafl record.
HOSTILE_OTG_LINES = ["[rules:dim:7 start:/7/7/7/3K3/7/7/7/]", "[td-text:escaped]", "[" + "a" * 50_000,
                     "[start-comment:1. d1-d3]", "[event:Round 1. Final]", "[td-start:/bad/ zz]", "[result:-1]",
                     "[result:1][termination:Black resigns]", "[termination:Attacker times out]",
                     "[td-ending:resigned]", "[td-ending:time]", "[time-control:" + "9" * 400 + "]",
                     "[k:\\x]", "[k:\\u00]", "[:]", "[a|b|c|d|e]", "[" + "|" * 5000 + "]", "\ufeff", "[\n\n]",
                     "1a.1.1a. d1-c1", "3a.1.1a. ..... a4-a2", "[rules:dim:7 td-board-walls:" + "[" * 3000 + "]"
                     * 3000 + " start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]", "1. " + "d1-c1 c1-d1 " * 10]
#: Lines an attacker adds to a PGN-like file.
HOSTILE_PGN_LINES = ['[Event "say \\"hi\\""]', '[Site "C:\\\\games\\\\"]', '[Broken "no end', '[Rules "dim:99"]',
                     '[Result "-1"]', '[Termination "Attacker resigns"]', '[Ending "forfeit"]', '[Ending "zz"]',
                     '[Rules "dim:7 dim:7 start:/7/7/7/3K3/7/7/7/"]', '[X "' + "\\" * 5001 + '"]', "1-0",
                     '[Rules "dim:٧ start:/7/7/7/3K3/7/7/7/"]', '[Event "' + "a" * 10_000 + '"]', "\r", "\x85"]
#: Damage done to one entry of a rules string.
RULE_VALUES = ["", "y", "n", "a1", "a1,a1", "z9,", "0", "-1", "99", "\u0663", "٧", "7.0", "tcnk", "x", "[[[",
               '{"a":1}', "[" * 3000 + "]" * 3000, "9" * 5000, "a1,b1,c1,d1", "\x1b[31m", "\u202e", "k11,",
               "/7/7/7/7/7/7/7/", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", "1,1", "-1,-1,-1", "2", "true", "null",
               "[]", '["a1|a2"]', '"a1:b3"', "e", "c", "d4,", "a1,a7,g1,g7"]
RULE_KEYS = ["dim", "name", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "spd", "cor", "cen", "afor", "dfor",
             "corh", "cenh", "cenhe", "aforh", "corp", "cenp", "aforp", "cors", "cens", "afors", "cenre", "aforre",
             "sw", "swf", "efe", "linc", "ber", "start", "starti", "td-id", "td-escapes", "td-board-walls",
             "td-board-room", "td-board-doorways", "td-board-width", "td-board-setup", "td-king_capture",
             "td-movement", "td-edge_hostile", "td-repetition"]
#: PlayTaflOnline layouts, and what their keys may hold.
PTO_LAYOUTS = ("brandubh", "tablut", "copenhagen", "ardri", "papillon", "tawlbwrdd")


def generators(fuzzer: Any) -> list[tuple[str, Any]]:
    records = RecordFuzz(fuzzer)
    return [("otg", records.otg), ("pgn", records.pgn), ("move lists", records.move_list),
            ("PlayTaflOnline", records.pto), ("convert/replay", records.convert), ("rules strings", records.rules)]


class RecordFuzz:
    def __init__(self, fuzzer: Any) -> None:
        from tafl_desktop.cli import build_parser

        self.fz = fuzzer
        self.rng: random.Random = fuzzer.rng
        self.dir = Path(fuzzer.dir) / "records"
        self.dir.mkdir(exist_ok=True)
        self.parser = build_parser()
        self.games = [self._sample(vid, plies, seed) for seed, (vid, plies) in enumerate(
            [("brandubh", 24), ("brandubh", 9), ("tablut", 16), ("copenhagen", 12), ("ard_ri", 14),
             ("tablut_camps", 10), ("brandubh", 0)])]
        self.texts = {fmt: [render(t, fmt)[0] for t in self.games] for fmt in ("otg", "pgn", "moves")}
        self.rules_strings = [to_rules_string(v).text for v in fuzzer.table.values()
                              if v.family == "tafl" and v.geometry.width == v.geometry.height]

    # -- material ------------------------------------------------------------------------------
    def _sample(self, vid: str, plies: int, seed: int) -> GameTransfer:
        """A small game with what records carry: tags, comments with awkward characters, a
        variation or two, and (every other game) a resignation."""
        rng = random.Random(seed)
        game = Game(self.fz.table[vid].make_rules())
        while len(game.plies) < plies and not game.over:
            game.play(rng.choice(game.legal_moves()))
        if seed % 2 and not game.over:
            game.finish(Outcome(Side(seed % 2), "resigned"))
        tree = GameTree.from_game(game)
        nodes = [tree.root, *tree.main_line()]
        for i, node in enumerate(nodes[::3]):
            node.comment = ["1. e4 | not [this] \\ one", "12 seconds left", " spaced ", "line\nbreak", "ok"][i % 5]
        if len(nodes) > 4:
            base = nodes[2]
            alt = [m for m in tree.game_at(base).legal_moves() if base.child(m) is None]
            if alt:
                tree.play(base, alt[0])
        tags = {"event": 'Round 1. "Final" C:\\games\\', "attackers": "Ann\r", "site": "]|["}
        return GameTransfer(tree.main_game(), tags, tree=tree)

    def _damage_lines(self, text: str, extra: list[str]) -> str:
        lines = text.split("\n")
        for _ in range(self.rng.randrange(1, 4)):
            op = self.rng.randrange(9)
            i = self.rng.randrange(len(lines))
            if op == 0:
                tokens = lines[i].split(" ")
                tokens[self.rng.randrange(len(tokens))] = self.rng.choice(HOSTILE_TOKENS)
                lines[i] = " ".join(tokens)
            elif op == 1:
                lines.insert(i, self.rng.choice(extra))
            elif op == 2 and len(lines) > 1:
                lines.pop(i)
            elif op == 3:
                lines.insert(i, lines[self.rng.randrange(len(lines))])
            elif op == 4:
                j = self.rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            elif op == 5 and lines[i]:
                k = self.rng.randrange(len(lines[i]))
                lines[i] = lines[i][:k] + self.rng.choice(HOSTILE_CHARS) + lines[i][k + 1:]
            elif op == 6:
                lines[i] = "".join(ARABIC_DIGITS[int(c)] if c.isdigit() and c.isascii() else c for c in lines[i])
            elif op == 7:
                lines = lines * self.rng.choice([2, 50])
            else:
                cut = self.rng.randrange(len(text) + 1)
                return "\n".join(lines)[:cut]
        text = "\n".join(lines)
        if self.rng.random() < 0.1:
            text = text.replace("\n", self.rng.choice(["\r\n", "\r", "\n\n", "\u2028"]))
        return text

    # -- the import formats --------------------------------------------------------------------
    def otg(self) -> None:
        self._text_format("otg", self._damage_lines(self.rng.choice(self.texts["otg"]), HOSTILE_OTG_LINES))

    def pgn(self) -> None:
        self._text_format("pgn", self._damage_lines(self.rng.choice(self.texts["pgn"]), HOSTILE_PGN_LINES))

    def move_list(self) -> None:
        k = self.rng.randrange(len(self.games))
        text = self._damage_lines(self.texts["moves"][k], ["1. " + "x" * 30, "d1-d3 " * 21_000, "\x00"])
        self._text_format("moves", text, self.games[k].game.rules.variant)

    def _text_format(self, fmt: str, text: str, variant=None) -> None:
        category = {"moves": "move lists"}.get(fmt, fmt)

        def run() -> None:
            try:
                t = parse(text, fmt, "fuzz." + fmt, variant)
            except InteropError as exc:
                self.fz.rejected(category, exc, text[:300])
                return
            self._round_trip(t, fmt, variant)
            self.fz.outcomes["loaded"] += 1

        self.fz.timed(category, run, text[:300])

    def _round_trip(self, t: GameTransfer, fmt: str, variant=None) -> None:
        """An accepted game written back in its format must read back as the same game."""
        again, warnings = render(t, fmt)
        back = parse(again, fmt, "again." + fmt, variant)
        if back.game.move_texts() != t.game.move_texts() or back.game.start != t.game.start:
            raise AssertionError(f"{fmt}: the main line did not survive a round trip")
        if back.game.rules.variant.options != t.game.rules.variant.options:
            raise AssertionError(f"{fmt}: the rules did not survive a round trip")
        if back.game.outcome != t.game.outcome and not (fmt == "moves" and warnings):
            raise AssertionError(f"{fmt}: the ending did not survive: {t.game.outcome} -> {back.game.outcome}")
        if fmt == "otg":
            kept = {k: v for k, v in t.tags.items() if k != "termination" or t.game.outcome is None}
            if back.tags != kept and not any("tag" in w for w in warnings):
                raise AssertionError(f"otg: tags changed without a word: {t.tags!r:.200} -> {back.tags!r:.200}")
            if _shape(back.to_tree()) != _shape(t.to_tree()):
                raise AssertionError("otg: comments or variations changed in a round trip")
        if fmt == "pgn" and back.tags != t.tags and not any("tag" in w for w in warnings):
            raise AssertionError(f"pgn: tags changed without a word: {t.tags!r:.200} -> {back.tags!r:.200}")

    def pto(self) -> None:
        text = self._pto_text()

        def run() -> None:
            try:
                t = parse(text, "json", "fuzz.json")
            except InteropError as exc:
                self.fz.rejected("PlayTaflOnline", exc, text[:300])
                return
            self._round_trip(t, "otg")
            self.fz.outcomes["loaded"] += 1

        self.fz.timed("PlayTaflOnline", run, text[:300])

    def _pto_text(self) -> str:
        layout = self.rng.choice(PTO_LAYOUTS)
        size = {"brandubh": 7, "ardri": 7, "tablut": 9, "papillon": 9}.get(layout, 11)
        moves = [{"MoveX": -1, "MoveY": -1, "MoveXTo": -1, "MoveYTo": -1}]
        data: dict[str, Any] = {"Layout": layout, "Objective": 1, "KingCapture": 2, "KingStrength": 0, "Throne": 0,
                                "Hostile": 1, "Speed": 0, "Surround": 0, "ExitFort": 0, "ShieldWall": 0,
                                "Attacker": "ann", "Defender": "bob", "StartDate": 1420070400}
        # a legal opening: an attacker one step along the edge it stands on, as PlayTaflOnline lists it
        edge = {7: (3, 0, 2, 0), 9: (3, 0, 2, 0), 11: (3, 0, 2, 0)}[size]
        moves.insert(0, {"MoveX": edge[0], "MoveY": edge[1], "MoveXTo": edge[2], "MoveYTo": edge[3],
                         "EndState": self.rng.choice([0, 4, 5, 6, 7, 8, 1])})
        data["Move"] = moves
        op = self.rng.randrange(6)
        if op < 3:
            for _ in range(self.rng.randrange(1, 3)):
                mutate_tree(self.rng, data)
        elif op == 3:
            key = self.rng.choice(["MoveX", "MoveY", "MoveXTo", "MoveYTo", "EndState"])
            moves[0][key] = self.rng.choice([[1], float("inf"), float("nan"), True, "\u0663", "3", 2.5, 3.0,
                                             Digits(5000), Deep(3000, "["), -2, 2**63, None])
        elif op == 4:
            data[self.rng.choice(list(data))] = hostile_value(self.rng)
        else:
            data["Move"] = moves * (11_000 if self.rng.random() < 0.05 else 2)
        text = json_text(data)
        if self.rng.random() < 0.1:
            k = self.rng.randrange(len(text))
            text = text[:k] + self.rng.choice(["[" * 3000, "Infinity", "9" * 5000, "\x00", "}"]) + text[k:]
        return text

    # -- the command line ----------------------------------------------------------------------
    def _cli(self, argv: list[str], category: str, sample: str, allowed: Path | None = None) -> int:
        """Run a command as the program's ``main`` does; check its exit, its error line and that no
        file changed but ``allowed``.  Returns the exit code."""
        from tafl_desktop.cli import CliError

        before = _snapshot(self.dir)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                args = self.parser.parse_args(argv)
                code = args.func(args)
            except CliError as exc:
                print(f"tafl-desktop: {exc}", file=err)
                code = exc.code
            except SystemExit as exc:
                code = exc.code
        after = _snapshot(self.dir)
        changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
        if allowed is not None:
            changed.discard(str(allowed))
        if changed:
            raise AssertionError(f"files changed that no one asked to write: {sorted(changed)[:3]}")
        if code not in (0, 1, 2):
            raise AssertionError(f"exit code {code!r}")
        lines = [line for line in err.getvalue().splitlines() if line and ": warning: " not in line]
        if code and len(lines) != 1:
            raise AssertionError(f"{len(lines)} error lines: {err.getvalue()[:300]!r}")
        for line in err.getvalue().splitlines():
            problem = clean_message(line)
            if problem:
                raise AssertionError(f"{problem}: {line[:200]!r}")
        if code:
            self.fz.outcomes["rejected cleanly"] += 1
        else:
            self.fz.outcomes["loaded"] += 1
        return code

    def convert(self) -> None:
        raw = self.fz.record_bytes()
        src = self.dir / self.rng.choice(["in.tafl.json", "evil\u202e.tafl.json", "in\x1b[31m.json"])
        src.write_bytes(raw)
        fmt = self.rng.choice(["otg", "pgn", "moves", "json", "replay"])
        out = self.dir / ("out." + {"moves": "txt", "json": "tafl.json"}.get(fmt, fmt))
        if out.exists():
            out.unlink()

        def run() -> None:
            if fmt == "replay":
                self._cli(["replay", str(src), "--json"], "convert/replay", raw[:300].decode("utf-8", "replace"))
                return
            code = self._cli(["convert", str(src), str(out)], "convert/replay", "", allowed=out)
            if code == 0:  # what convert wrote must read back (a plain list names no variant)
                variant = None
                if fmt == "moves":
                    from tafl_desktop.core.record import load_game

                    variant = load_game(src).rules.variant
                from tafl_desktop.interop.formats import read_game

                read_game(out, variant=variant)

        self.fz.timed("convert/replay", run, raw[:300].decode("utf-8", "replace"))

    def rules(self) -> None:
        text = self._rules_string()
        command = self.rng.randrange(6)
        listed = self.dir / "moves.txt"
        if command == 5 and not listed.exists():
            listed.write_text("1. d1-c1 c4-c6\n")
        out = self.dir / "listed.otg"
        if out.exists():
            out.unlink()
        argv = [["perft", text, "1"], ["play", text, "--moves", "d1-c1", "--json"], ["rules", text],
                ["variants", "--rules-string", text], ["analyse", text, "--depth", "1", "--json"],
                ["convert", str(listed), str(out), "--variant", text]][command]

        def run() -> None:
            self._cli(argv, "rules strings", text[:300], allowed=out if command == 5 else None)

        self.fz.timed("rules strings", run, text[:300])

    def _rules_string(self) -> str:
        entries = self.rng.choice(self.rules_strings).split(" ")
        for _ in range(self.rng.randrange(1, 4)):
            op = self.rng.randrange(5)
            k = self.rng.randrange(len(entries))
            key, _colon, value = entries[k].partition(":")
            if op == 0:
                entries[k] = key + ":" + self.rng.choice(RULE_VALUES)
            elif op == 1:
                entries.insert(k, self.rng.choice(RULE_KEYS) + ":" + self.rng.choice(RULE_VALUES))
            elif op == 2 and len(entries) > 1:
                entries.pop(k)
            elif op == 3 and value:
                j = self.rng.randrange(len(value))
                entries[k] = key + ":" + value[:j] + self.rng.choice("tTK19/,٣x|") + value[j + 1:]
            else:
                entries.append(entries[k])
        return " ".join(entries)


def _shape(tree: GameTree) -> list:
    """The tree as nested lists of (move, comment), a loop over a stack."""
    out: list = [tree.root.comment]
    stack = [(tree.root, out)]
    while stack:
        node, into = stack.pop()
        for child in node.children:
            entry: list = [child.move, child.comment]
            into.append(entry)
            stack.append((child, entry))
    return out


def _snapshot(folder: Path) -> dict[str, tuple[int, int, int]]:
    out = {}
    for entry in os.scandir(folder):
        st = entry.stat(follow_symlinks=False)
        out[entry.path] = (st.st_size, st.st_mtime_ns, st.st_ino)
    return out


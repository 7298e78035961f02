"""The OpenTafl Engine Protocol both ways (issue 20), over real pipes to real processes.

Protocol facts from ``shared/reference/tafl-rules.md`` 2.5 and what OpenTafl really does from
``turn2-research.md`` 4.1: the host sends ``rules`` before it has seen ``hello``, ``clock`` (in
milliseconds) before ``play``, ``opponent-move <moves> <position>`` (rank 1 first) before each
``play`` except the first, ``move <position>`` after accepting a move, ``finish`` and ``goodbye``.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from timing import within

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.rules_string import to_rules_string
from tafl_desktop.core.variants import find_variant
from tafl_desktop.interop.engine import position_from_record, position_record, think_time
from tafl_desktop.interop.host import HostedEngine, referee

ENGINE = f"{sys.executable} -m tafl_desktop engine"


class Pipe:
    """A minimal host written for the test: lines in, lines out, with a timeout."""

    def __init__(self, level: str) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "tafl_desktop", "engine", "--level", level],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self, timeout: float = 20.0) -> str:
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(self.p.stdout, selectors.EVENT_READ)
        assert sel.select(timeout), "the engine said nothing"
        return self.p.stdout.readline().strip()


def test_engine_session_over_pipes_as_opentafl_drives_it():
    v = find_variant("copenhagen")
    rules = v.make_rules()
    game = Game(rules)
    e = Pipe("expert")
    try:
        e.send(f"rules {to_rules_string(v).text}")  # before hello, as OpenTafl does
        assert e.read() == "hello"
        e.send("some-future-command 1 2 3")  # unknown lines are ignored
        e.send("clock 2000 2000 0 0 0 ")  # 2 s left: think a fraction of it, not Expert's 15 s
        e.send("play attackers")
        t0 = time.monotonic()
        reply = e.read()
        within(time.monotonic() - t0, 3.0, "the engine's reply")
        assert reply.startswith("move ")
        ply = game.play_text(reply.split()[1])
        e.send(f"move {position_record(rules, ply.position)}")
        reply_move = game.legal_moves()[0]
        game.play(reply_move)
        e.send(f"opponent-move {rules.move_text(reply_move)} {position_record(rules, game.position)}")
        e.send("clock 1500 1900 0 0 0 ")
        e.send("play attackers")
        second = e.read().split()
        assert second[0] == "move" and game.check(rules.parse_move(game.position, second[1])) is None
        e.send("analyze 2 0.3")
        analysis = e.read().split()
        assert analysis[0] == "analysis" and len(analysis) % 2 == 0 and int(analysis[1]) >= 1
        e.send("rules dim:11 ber:c start:/11/11/11/11/11/5K5/11/11/11/11/11/")
        assert e.read().startswith("error -1 rules string: ber:c")
        e.send("finish 1")
        e.send("goodbye")
        assert e.p.wait(10) == 0
    finally:
        e.p.kill()


def test_position_records_are_rank_one_first():
    # OpenTafl's engine protocol sends positions rank 1 first (tafl-rules.md conventions)
    rules = find_variant("brandubh").make_rules()
    pos = rules.parse_position("/3t3/7/7/ttTKTtt/3T3/3t3/3t3/", Side.ATTACKERS)
    record = position_record(rules, pos)
    assert record == "/3t3/3t3/3T3/ttTKTtt/7/7/3t3/"
    assert position_from_record(rules, record, Side.ATTACKERS) == pos


def test_think_time_follows_the_clock():
    assert think_time(8.0, None, Side.ATTACKERS) == 8.0
    assert think_time(8.0, ("2000", "60000", "0", "0", "0"), Side.ATTACKERS) == pytest.approx(0.1)
    assert think_time(8.0, ("600000", "60000", "0", "0", "0"), Side.ATTACKERS) == 8.0
    assert think_time(8.0, ("9000*", "60000", "10", "3", "3"), Side.ATTACKERS) == pytest.approx(4.5)


@pytest.mark.parametrize("variant_id, attackers, defenders", [("brandubh", "easy", "beginner"),
                                                               ("copenhagen", "beginner", "random")])
def test_whole_games_between_two_engine_processes(variant_id, attackers, defenders):
    game = Game(find_variant(variant_id).make_rules())
    a = HostedEngine(f"{ENGINE} --level {attackers}", "A")
    d = HostedEngine(f"{ENGINE} --level {defenders}", "D")
    try:
        said = referee(game, {Side.ATTACKERS: a, Side.DEFENDERS: d}, clock_ms=30_000, max_plies=800, timeout=60)
    finally:
        a.close()
        d.close()
    assert game.outcome is not None and game.outcome.reason != "forfeit", said
    assert said == game.outcome.describe(game.rules.variant)
    # every move went through our rules: replaying them gives the same end
    replay = Game(find_variant(variant_id).make_rules())
    for text in game.move_texts():
        replay.play_text(text)
    assert replay.outcome == game.outcome
    assert a.process.wait(10) and d.process.wait(10)  # each left after goodbye (closing never blocks)


BAD_ENGINES = {
    "garbage": "print('hello', flush=True)\nimport sys\nfor line in sys.stdin:\n"
               "    if line.startswith('play'):\n        print('move \\x00\\xff%%garbage', flush=True)\n",
    "illegal": "print('hello', flush=True)\nimport sys\nfor line in sys.stdin:\n"
               "    if line.startswith('play'):\n        print('move a1-a2', flush=True)\n",
    "hangs": "print('hello', flush=True)\nimport sys, time\nfor line in sys.stdin:\n    pass\ntime.sleep(60)\n",
    "dies": "import sys\nprint('hello', flush=True)\nsys.stdin.readline()\nsys.exit(3)\n",
}


@pytest.mark.parametrize("kind, words", [("garbage", "not a move"), ("illegal", "illegal"),
                                         ("hangs", "did not answer within its time"), ("dies", "exit code 3")])
def test_a_failing_engine_loses_with_a_clear_sentence(tmp_path, kind, words):
    script = tmp_path / f"{kind}.py"
    script.write_text(BAD_ENGINES[kind])
    game = Game(find_variant("brandubh").make_rules())
    bad = HostedEngine(f"{sys.executable} {script}", kind)
    good = HostedEngine(f"{ENGINE} --level beginner", "ours")
    t0 = time.monotonic()
    try:
        said = referee(game, {Side.ATTACKERS: good, Side.DEFENDERS: bad}, clock_ms=800, timeout=30)
    finally:
        good.close()
        bad.close()
    assert words in said and kind in said and "\n" not in said
    within(time.monotonic() - t0, 15, "finding the hung engine")  # within its clock (0.8 s) and the grace
    assert game.outcome is not None and game.outcome.winner == Side.ATTACKERS and game.outcome.reason == "forfeit"


def test_an_engine_that_cannot_start():
    from tafl_desktop.interop.host import EngineFailure

    with pytest.raises(EngineFailure, match="cannot be started"):
        HostedEngine("/no/such/engine --engine")
    with pytest.raises(EngineFailure, match="cannot be read"):
        HostedEngine('engine "unclosed')


# -- registering our engine in OpenTafl (issue "Rules and exchange fidelity III", item 7) --------------
def _readme_blocks() -> tuple[str, str]:
    """The README's recipe: the shell lines that make the engine folder, and the .ini text."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    part = text[text.index("register it as an engine"):]
    shell = re.search(r"```\n(mkdir[^`]*)```", part).group(1)
    ini = re.search(r"```ini\n([^`]*)```", part).group(1)
    return shell, ini


def _opentafl_engine_spec(root, ini_path) -> dict[str, str] | None:
    """What OpenTafl's EngineSpec.validateEngineFile and its constructor do with an engine .ini, run in
    OpenTafl's folder ``root``: read [engine]; directory, filename and command must be non-empty; the file
    engines/<directory>/<filename> must exist; ``arguments`` is split at single spaces (an absent one
    makes the constructor fail).  None where OpenTafl refuses ("Missing engine file")."""
    import configparser

    ini = configparser.ConfigParser(interpolation=None)
    ini.read(ini_path, encoding="utf-8")
    if not ini.has_section("engine"):
        return None
    spec = {key: ini.get("engine", key, fallback="") for key in ("directory", "filename", "command", "arguments")}
    if not (spec["directory"] and spec["filename"] and spec["command"]):
        return None
    if not (root / "engines" / spec["directory"] / spec["filename"]).exists():
        return None
    if not ini.has_option("engine", "arguments"):
        return None
    return spec


@pytest.mark.skipif(sys.platform == "win32", reason="the README's recipe is for Linux and macOS")
def test_the_readme_engine_recipe_is_accepted_and_runs_as_opentafl_runs_it(tmp_path):
    """The README's OpenTafl engine registration, followed step by step in a fresh OpenTafl folder, passes
    OpenTafl's own check (EngineSpec: engines/<directory>/<filename> must exist) and, started as its
    ExternalEngineHost starts it (ProcessBuilder: command + arguments split at spaces, working directory
    engines/<directory>), answers rules with hello and plays a legal move.  The README's old .ini
    (directory=.) fails the same check, as OpenTafl reported ("Missing engine file")."""
    import os
    import shutil
    from pathlib import Path

    bindir = Path(sys.executable).parent
    if not (bindir / "tafl-desktop").exists() and shutil.which("tafl-desktop") is None:
        pytest.skip("the tafl-desktop command is not installed")
    shell, ini_text = _readme_blocks()
    root = tmp_path / "OpenTafl"
    (root / "engines").mkdir(parents=True)
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    subprocess.run(["sh", "-e", "-c", shell], cwd=root, env=env, check=True, timeout=30)
    ini_path = root / "engines" / "tafl-desktop.ini"
    ini_path.write_text(ini_text, encoding="utf-8")
    spec = _opentafl_engine_spec(root, ini_path)
    assert spec is not None, "OpenTafl would answer: Missing engine file"

    fresh = tmp_path / "FreshOpenTafl"  # the README's old .ini, in an OpenTafl folder as it comes
    (fresh / "engines").mkdir(parents=True)
    old = fresh / "engines" / "old.ini"
    old.write_text("[engine]\nname=Tafl Desktop\ndirectory=.\nfilename=tafl-desktop\ncommand=tafl-desktop\n"
                   "arguments=engine --level hard\n", encoding="utf-8")
    assert _opentafl_engine_spec(fresh, old) is None

    argv = [spec["command"], *spec["arguments"].split(" ")]
    argv[argv.index("hard")] = "beginner"  # the same command line, a quicker player for the test
    proc = subprocess.Popen(argv, cwd=(root / "engines" / spec["directory"]).resolve(), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1, env={k: v for k, v in env.items()
                                                                                if k != "PATH"})
    e = Pipe.__new__(Pipe)
    e.p = proc
    try:
        v = find_variant("brandubh")
        e.send(f"rules {to_rules_string(v).text}")
        assert e.read(60) == "hello"
        e.send("play attackers")
        reply = e.read(60)
        assert reply.startswith("move ")
        rules = v.make_rules()
        assert rules.parse_move(rules.initial_position(), reply.split()[1]) in rules.legal_moves(
            rules.initial_position())
    finally:
        proc.kill()
        proc.wait()

"""Issue 17, the core and the command line: hostile files, special paths and bad arguments get one
clear line (never a traceback, a hang or an exhausted memory) and overwrite nothing.

Each test names the item of the issue it pins.  Special files are opened in a child process with
a memory cap and a timeout, so a regression shows up as a failed test, not as a frozen test run.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from timing import within

from tafl_desktop.cli import main
from tafl_desktop.core.game import Game, IllegalMove, Side
from tafl_desktop.core.quoting import quote, shown
from tafl_desktop.core.record import RecordError, game_to_data, load_game, save_game
from tafl_desktop.core.safe_files import FileRefused, read_limited, write_safely
from tafl_desktop.core.variants import VariantError, dump_variant, find_variant, load_variant, save_variant

ROOT = Path(__file__).resolve().parents[1]
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, device nodes and /dev/zero are POSIX")


def one_clean_line(text: str, limit: int = 400) -> None:
    """What every error must be: one line, short, no raw control or bidirectional characters."""
    body = text.strip()
    assert body and "\n" not in body and "Traceback" not in body, text[:2000]
    assert len(body) <= limit, f"{len(body)} characters: {body[:200]}..."
    assert not any(ord(c) < 32 or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069 for c in body), body


def cli(capsys, *argv: str) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse's own exit (a bad argument)
        code = stop.code
    return code, capsys.readouterr().err


def brandubh_record(**changes) -> dict:
    g = Game(find_variant("brandubh").make_rules())
    g.play_text("d6-a6")
    data = game_to_data(g)
    data.update(changes)
    return data


# ---------------------------------------------------------------------- 1. parser limits
@pytest.mark.parametrize("name, content", [
    ("deep.tafl.json", "[" * 100_000),
    ("deep-object.tafl.json", '{"a":' * 100_000),
    ("digits.tafl.json", '{"format": "tafl-desktop-game", "version": ' + "9" * 5000 + "}"),
])
def test_json_past_the_parser_limits_is_one_line(tmp_path, capsys, name, content):
    f = tmp_path / name
    f.write_text(content)
    with pytest.raises(RecordError) as err:
        load_game(f)
    one_clean_line(str(err.value))
    assert name in str(err.value)
    code, out = cli(capsys, "replay", str(f))
    assert code == 1
    one_clean_line(out)


@pytest.mark.parametrize("content", [
    "id = " + "[" * 100_000,
    "id = " + "{a = " * 50_000,
    'id = "x"\nname = "X"\n[board]\nwidth = ' + "7" * 5000 + "\n",
])
def test_toml_past_the_parser_limits_is_one_line(tmp_path, capsys, content):
    f = tmp_path / "deep.toml"
    f.write_text(content)
    with pytest.raises(VariantError) as err:
        load_variant(f)
    one_clean_line(str(err.value))
    assert "deep.toml" in str(err.value)
    code, out = cli(capsys, "rules", str(f))
    assert code == 1
    one_clean_line(out)


# ---------------------------------------------------------------------- 2. strict position rows
ISSUE_POSITION = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/7tttt/"  # the issue's example: row 7 has four extra attackers


@pytest.mark.parametrize("position, words", [
    (ISSUE_POSITION, ("row 7", "covers 11 squares")),
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2/", ("row 7", "covers 6 squares")),
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3t/", ("row 7", "covers 8 squares")),
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3x3/", ("row 7", "'x'")),
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3K3/", ("row 7", "two kings")),
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t\u0663/", ("row 7", "'\u0663'")),  # an Arabic-Indic three is no digit here
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t\u00b3/", ("row 7",)),  # nor is a superscript three
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/" + "9" * 5000 + "/", ("row 7", "empty run")),
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t\u202e3/", ("row 7", "\\u202e")),
])
def test_every_bad_tafl_row_is_named(capsys, position, words):
    """OpenTafl's row notation: each row, top first, covers exactly the board's width
    (docs/ARCHITECTURE.md §4; shared/reference/tafl-rules.md §1)."""
    rules = find_variant("brandubh").make_rules()
    with pytest.raises(ValueError) as err:
        rules.parse_position(position, Side.ATTACKERS)
    one_clean_line(str(err.value))
    for w in words:
        assert w in str(err.value), str(err.value)
    code, out = cli(capsys, "play", "brandubh", "--position", position)
    assert code == 1 and "row 7" in out
    one_clean_line(out)


def test_a_record_or_variant_with_an_overlong_row_is_refused_not_cut(tmp_path):
    data = brandubh_record(start=ISSUE_POSITION, to_move="attackers", moves=[])
    f = tmp_path / "cut.tafl.json"
    f.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="row 7"):
        load_game(f)
    text = dump_variant(find_variant("brandubh")).replace(find_variant("brandubh").setup, ISSUE_POSITION)
    v = tmp_path / "cut.toml"
    v.write_text(text)
    with pytest.raises(VariantError, match="row 7"):
        load_variant(v)


def test_unicode_digits_and_look_alike_letters_are_no_squares(capsys):
    """'d٦' (Arabic-Indic six) and 'K11' (Kelvin sign, which lower-cases to 'k') are not squares."""
    g = Game(find_variant("brandubh").make_rules())
    with pytest.raises(IllegalMove):
        g.play_text("d\u0666-a\u0666")
    g = Game(find_variant("copenhagen").make_rules())
    with pytest.raises(IllegalMove):
        g.play_text("\u212a8-i8")
    code, out = cli(capsys, "play", "brandubh", "--moves", "d\u0666-a\u0666")
    assert code == 2 and "is not a move" in out
    code, out = cli(capsys, "perft", "brandubh", "--set", "move_limit=\u0663", "1")
    assert code == 1 and "move_limit" in out


def test_fox_and_dablot_positions_refuse_what_they_cannot_place():
    """The same class of fault in the point-list notations: nothing is silently dropped."""
    fox = find_variant("fox_geese_13").make_rules()
    dablot = find_variant("dablot").make_rules()
    for rules, text in ((fox, "hunters=d4 flock=a3,b3 geese=c3"), (fox, "hunters=d4 flock=a3,a3"),
                        (fox, "hunters=d4 flock=a3,b\u0663"), (fox, "hunters=d4 junk"),
                        (dablot, "south=sa1,sa1 north=ka13"), (dablot, "south=xa1 north=ka13"),
                        (dablot, "south=ka1 north=ka13 south=sb1"), (dablot, "south=sa\u0661 north=ka13")):
        with pytest.raises(ValueError) as err:
            rules.parse_position(text, Side.ATTACKERS)
        one_clean_line(str(err.value))


# ---------------------------------------------------------------------- 3. special files
SPECIAL_DRIVER = textwrap.dedent('''
    import json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))   # 1 GiB: a whole /dev/zero would not fit
    from tafl_desktop.core.record import RecordError, load_game
    from tafl_desktop.core.variants import VariantError, load_variant
    out = []
    for path in sys.argv[1:]:
        t = time.monotonic()
        for load, error in ((load_game, RecordError), (load_variant, VariantError)):
            try:
                load(path)
                out.append([path, "loaded", time.monotonic() - t])
            except error as exc:
                out.append([path, str(exc), time.monotonic() - t])
    print(json.dumps(out))
''')


@posix_only
def test_fifos_devices_huge_and_odd_files_are_refused_at_once(tmp_path):
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.tafl.json"
    with open(huge, "wb") as fh:  # 3 GiB, sparse: nothing is written but its size
        fh.truncate(3 << 30)
    link = tmp_path / "zero.tafl.json"
    link.symlink_to("/dev/zero")
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    folder = tmp_path / "folder.tafl.json"
    folder.mkdir()
    paths = [str(fifo), "/dev/zero", str(link), str(huge), str(loop), str(folder), ""]
    t = time.monotonic()
    done = subprocess.run([sys.executable, "-c", SPECIAL_DRIVER, *paths], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout)
    assert len(results) == 2 * len(paths)
    for path, message, seconds in results:
        assert message != "loaded", (path, message, seconds)
        within(seconds, 2.0, f"refusing {path}")
        one_clean_line(message)
    said = {p: m for p, m, _s in results}
    assert "pipe" in said[str(fifo)] and "device" in said["/dev/zero"] and "device" in said[str(link)]
    assert "more than the" in said[str(huge)] and "folder" in said[str(folder)]
    within(time.monotonic() - t, 30, "refusing every file")


def test_read_limited_reads_at_most_the_limit(tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"x" * 100)
    assert read_limited(f, 100) == b"x" * 100
    with pytest.raises(FileRefused, match="more than"):
        read_limited(f, 99)


# ---------------------------------------------------------------------- 4. long and control-character values
def test_errors_quote_bad_values_short_and_escaped(tmp_path):
    huge = "x" * 2_800_000
    f = tmp_path / "long.tafl.json"
    f.write_text(json.dumps(brandubh_record(format=huge[:1_800_000])))
    with pytest.raises(RecordError) as err:
        load_game(f)
    one_clean_line(str(err.value))
    f.write_text(json.dumps(brandubh_record(moves=["d6-a6\nFAKE: all is well\u202e"])))
    with pytest.raises(RecordError) as err:
        load_game(f)
    one_clean_line(str(err.value))
    assert "\\n" in str(err.value) and "\\u202e" in str(err.value)
    named = tmp_path / "evil\nname\u202e.toml"
    named.write_text("not = [valid")
    with pytest.raises(VariantError) as err:
        load_variant(named)
    one_clean_line(str(err.value))
    assert "evil\\nname\\u202e.toml" in str(err.value)
    v = find_variant("brandubh").to_data()
    v["options"]["escape"] = "corner\r\n" * 100_000
    with pytest.raises(VariantError) as err:
        from tafl_desktop.core.variants import variant_from_data

        variant_from_data(v, "v.toml")
    one_clean_line(str(err.value))


def test_quote_shortens_and_escapes_every_kind_of_value():
    assert quote("e5") == "'e5'"
    assert quote("a\tb\x07\u2066") == "'a\\tb\\x07\\u2066'"
    assert len(quote("y" * 10_000)) < 50 and quote("y" * 10_000).endswith("…'")
    assert len(quote(10 ** 5000)) < 50 and "5000 digits" in quote(10 ** 5000) or "digits" in quote(10 ** 5000)
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    assert len(quote(deep)) < 130
    assert len(quote({"k" * 1000: list(range(1000))})) < 130
    assert shown("a\nb") == "a\\nb" and shown("z" * 1000, 10) == "z" * 10 + "…"



#: The fuzzer's own bound for "one short line" (tests/fuzz_hostile.py MAX_MESSAGE).
FUZZ_MAX_MESSAGE = 800


def test_a_doorway_of_a_thousand_tabs_gives_one_short_line(tmp_path):
    """The fuzzer's 2,098-character variant error: a Mini Tablut doorway replaced by 1,000 tabs,
    in a file named with a right-to-left override, was echoed whole through ``repr``."""
    text = dump_variant(find_variant("mini_tablut"))
    assert '"d5|d6"' in text
    cases = ['"' + "\\t" * 1000 + '"',             # not a wall at all: the fuzzer's input
             '" d5' + " " * 5000 + '|d4"',           # a wall, padded, that is not in the room's wall
             '"a1' + " " * 5000 + '|c3"']            # two squares that are not side by side
    for doorway in cases:
        f = tmp_path / "\u202ecod.toml"
        f.write_text(text.replace('"d5|d6"', doorway, 1))
        with pytest.raises(VariantError) as err:
            load_variant(f)
        message = str(err.value)
        one_clean_line(message, FUZZ_MAX_MESSAGE)
        assert len(message) < 200 and "doorways" in message and "\\u202ecod.toml" in message


def test_lists_in_messages_name_a_few_and_count_the_rest():
    from tafl_desktop.core.quoting import listing
    from tafl_desktop.core.rules_string import variant_from_rules_string

    squares = [f"a{i}" for i in range(1, 101)]
    assert listing(squares) == "a1, a2, a3, a4, a5, a6 and 94 more"
    assert listing(["x" * 10_000, "\n"]) == "x" * 40 + "…, \\n"
    long_rules = "dim:9 " + "k" * 100_000 + ":1 start:/9/9/9/9/4K4/9/9/9/9/"
    with pytest.raises(VariantError) as err:
        variant_from_rules_string(long_rules)
    one_clean_line(str(err.value))


# ---------------------------------------------------------------------- 5. writing through links, not over devices
def test_saving_through_a_link_keeps_the_link_and_writes_its_file(tmp_path):
    game = Game(find_variant("brandubh").make_rules())
    game.play_text("d6-a6")
    real = tmp_path / "real.tafl.json"
    real.write_text("old")
    link = tmp_path / "link.tafl.json"
    link.symlink_to(real)
    save_game(game, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert load_game(real).move_texts() == ["d6-a6"]
    dangling = tmp_path / "dangling.toml"
    dangling.symlink_to(tmp_path / "made-by-save.toml")
    save_variant(find_variant("brandubh"), dangling)
    assert dangling.is_symlink() and load_variant(tmp_path / "made-by-save.toml").id == "brandubh"


@posix_only
def test_devices_folders_and_pipes_are_never_replaced(tmp_path, capsys):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.pdf"
    folder.mkdir()
    targets = [fifo, folder]
    if os.geteuid() == 0:  # as root (the issue's case), a real character device: a twin of /dev/null
        dev = tmp_path / "null-twin"
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        targets.append(dev)
    link_to_dev = tmp_path / "link-to-null"
    link_to_dev.symlink_to("/dev/null")
    targets.append(link_to_dev)
    game = Game(find_variant("brandubh").make_rules())
    for target in targets:
        kind = os.lstat(target).st_mode
        for write in (lambda p: save_game(game, p), lambda p: save_variant(find_variant("brandubh"), p),
                      lambda p: write_safely(p, b"%PDF")):
            with pytest.raises(OSError) as err:
                write(target)
            one_clean_line(err.value.strerror)
        assert os.lstat(target).st_mode == kind, f"{target} was replaced"
        code, out = cli(capsys, "print", "brandubh", "--out", str(target))
        assert code == 1 and "cannot write" in out
        one_clean_line(out)
        assert os.lstat(target).st_mode == kind
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temp files left


def test_cli_print_writes_through_a_link(tmp_path, capsys):
    real = tmp_path / "set.pdf"
    real.write_bytes(b"old")
    link = tmp_path / "latest.pdf"
    link.symlink_to(real)
    code, _out = cli(capsys, "print", "brandubh", "--out", str(link), "--parts", "board")
    assert code == 0 and link.is_symlink() and real.read_bytes().startswith(b"%PDF")


# ---------------------------------------------------------------------- 7. arguments
@pytest.mark.parametrize("argv, words", [
    (["bench", "--seconds", "nan"], "--seconds"),
    (["bench", "--seconds", "-1"], "--seconds"),
    (["selfplay", "brandubh", "--jobs", "0"], "--jobs"),
    (["selfplay", "brandubh", "--games", "\u0663"], "--games"),
    (["screenshot", "--variant", "brandubh", "--size", "0x0", "--out", "x.png"], "--size"),
    (["screenshot", "--variant", "brandubh", "--size", "99999x99999", "--out", "x.png"], "--size"),
    (["screenshot", "--variant", "brandubh", "--size", "\u0661\u0662\u0660\u0660x800", "--out", "x.png"], "--size"),
    (["perft", "brandubh", "\u0663"], "DEPTH"),
    (["perft", "brandubh", "99"], "DEPTH"),
    (["print", "brandubh", "--out", ""], "no file name"),
    (["print", "brandubh", "--out", "/"], "folder"),
    (["print", "brandubh", "--out", "x.pdf", "--square-mm", "inf"], "--square-mm"),
    (["print", "brandubh", "--out", "x.pdf", "--draught-mm", "\u0663\u0660"], "--draught-mm"),
    (["print", "brandubh", "--out", "x.pdf", "--parts", "board\nFAKE"], "unknown part"),
    (["screenshot", "--variant", "brandubh", "--out", "/"], "folder"),
])
def test_every_argument_has_a_range_and_a_one_line_error(capsys, tmp_path, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    t = time.monotonic()
    code, out = cli(capsys, *argv)
    assert code in (1, 2) and words in out, out
    one_clean_line(out)
    within(time.monotonic() - t, 5, "the refusal")
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("argv, words", [
    (["bench", "--seconds", "inf"], "--seconds"),
    (["bench", "--seconds", "1e9"], "--seconds"),
    (["selfplay", "brandubh", "--jobs", "100000"], "--jobs"),
    (["selfplay", "brandubh", "--games", "10000000000"], "--games"),
])
def test_arguments_that_ran_for_ever_are_refused(argv, words):
    """The real launcher in a child process (before the fix these ran for ever, or until the
    process table or the memory was full), so a regression fails here instead of hanging."""
    def capped() -> None:  # 1 GiB and 20 CPU seconds: a regression fails here without hurting the machine
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        resource.setrlimit(resource.RLIMIT_CPU, (20, 20))

    done = subprocess.run([sys.executable, "-m", "tafl_desktop", *argv], capture_output=True, text=True, timeout=30,
                          cwd=ROOT, preexec_fn=capped if os.name == "posix" else None)
    assert done.returncode == 2 and words in done.stderr
    one_clean_line(done.stderr)

"""Hostile paths and values for the makers' files: every refusal is one line on stderr, a non-zero
exit, no traceback, and nothing written or overwritten that the player did not ask for.

The paths are the ones every writer of the app must survive (core/safe_files.py write_safely):
a FIFO (opening it would block for ever), a device, a folder, a link (written through, the link
kept), a loop of links, a missing folder; the values are out-of-range or nonsensical settings.
"""

from __future__ import annotations

import os
import textwrap

import pytest
from maker_helpers import run_cli, run_main

OLD = b"the player's own file, not to be touched\n"


def one_line_refusal(done, *words: str) -> None:
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    for w in words:
        assert w in lines[0], lines[0]


@pytest.mark.parametrize("fmt", ["svg", "dxf", "stl", "3mf"])
def test_special_paths_are_refused_and_nothing_is_left_behind(tmp_path, fmt):
    fifo = tmp_path / f"pipe.{fmt}"
    os.mkfifo(fifo)
    folder = tmp_path / f"folder.{fmt}"
    folder.mkdir()
    loop = tmp_path / f"loop.{fmt}"
    os.symlink(loop, loop)
    cases = [(fifo, "pipe"), ("/dev/null", "device"), (folder, "folder"), (loop, "circle"),
             (tmp_path / "missing" / f"x.{fmt}", "cannot write")]
    for target, word in cases:
        done = run_cli("print", "fox_geese_13", "--format", fmt, "--out", str(target), timeout=60)
        one_line_refusal(done, word)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([fifo.name, folder.name, loop.name])
    assert list(folder.iterdir()) == []


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    real = tmp_path / "real.svg"
    real.write_bytes(OLD)
    link = tmp_path / "link.svg"
    os.symlink(real, link)
    done = run_cli("print", "brandubh", "--format", "svg", "--out", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and real.read_bytes().startswith(b"<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "real.svg"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_read_only_folder_keeps_the_old_file(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    old = locked / "board.dxf"
    old.write_bytes(OLD)
    locked.chmod(0o500)
    try:
        done = run_cli("print", "brandubh", "--format", "dxf", "--out", str(old))
        one_line_refusal(done, "cannot write")
        assert old.read_bytes() == OLD
    finally:
        locked.chmod(0o700)


BAD = [
    (("--format", "svg", "--kerf-mm", "-0.1"), "kerf"),
    (("--format", "dxf", "--kerf-mm", "5"), "kerf"),
    (("--format", "svg", "--kerf-mm", "nan"), "not a number"),
    (("--format", "svg", "--kerf-mm", "inf"), "not a number"),
    (("--format", "svg", "--kerf-mm", "1e400"), "out of range: use"),  # a number, too large (issue 37)
    (("--format", "svg", "--corner-mm", "-1"), "corner radius"),
    (("--format", "svg", "--corner-mm", "35"), "would cut into the playing area"),
    (("--format", "svg", "--hole-mm", "0.2"), "hole diameter"),
    (("--format", "svg", "--hole-mm", "24"), "do not fit points"),
    (("--format", "stl", "--hole-mm", "20"), "pegs of 20 mm"),
    (("--format", "stl", "--clearance-mm", "0"), "clearance"),
    (("--format", "stl", "--clearance-mm", "21"), "clearance"),
    (("--format", "stl", "--square-mm", "8", "--clearance-mm", "5"), "under 5 mm"),
    (("--format", "svg", "--square-mm", "200"), "square size"),
    (("--format", "svg", "--holes", "drill"), "invalid choice"),
    (("--format", "obj"), "invalid choice"),
    (("--format", "svg", "--parts", "pieces"), "board only"),
    (("--format", "stl", "--parts", "rules"), "rule sheet is on paper"),
    (("--format", "3mf", "--parts", ",,"), "no part"),
    (("--format", "svg", "--balance", "study"), "--balance"),
    (("--format", "stl", "--draught-mm", "90", "--parts", "markers"), "rank markers"),
    (("--clearance-mm", "2"), "--clearance-mm is for makers' files"),
]


@pytest.mark.parametrize(("args", "word"), BAD, ids=[" ".join(a) for a, _w in BAD])
def test_bad_settings_are_one_line_and_leave_the_old_file(tmp_path, args, word):
    fmt = args[1] if args[0] == "--format" and args[1] in ("svg", "dxf", "stl", "3mf") else "pdf"
    old = tmp_path / f"set.{fmt}"
    old.write_bytes(OLD)
    done = run_main("print", "fox_geese_13", *args, "--out", str(old))
    one_line_refusal(done, word)
    assert old.read_bytes() == OLD
    assert [p.name for p in tmp_path.iterdir()] == [old.name]


@pytest.mark.parametrize(("variant", "args", "word"), [
    ("fox_geese_13", ("--format", "stl", "--kerf-mm", "0.1"), "--kerf-mm is for laser boards"),
    ("fox_geese_13", ("--format", "svg", "--clearance-mm", "2"), "--clearance-mm is for 3D-printed pieces"),
    ("brandubh", ("--format", "svg", "--holes", "cut"), "Brandubh has squares"),
    ("brandubh", ("--format", "3mf", "--hole-mm", "5"), "for Brandubh's peg board: add --parts pieces,board"),
])
def test_a_setting_the_file_would_not_read_is_refused(tmp_path, variant, args, word):
    done = run_main("print", variant, *args, "--out", str(tmp_path / f"x.{args[1]}"))
    one_line_refusal(done, word)
    assert list(tmp_path.iterdir()) == []


def test_tafl_games_have_no_rank_markers(tmp_path):
    # (their peg board: tests/test_maker_grid_peg_board.py)
    done = run_cli("print", "brandubh", "--format", "stl", "--parts", "markers", "--out", str(tmp_path / "x.stl"))
    one_line_refusal(done, "rank markers are for Dablot")
    assert list(tmp_path.iterdir()) == []


def test_a_file_name_of_another_format_is_questioned(tmp_path):
    done = run_cli("print", "brandubh", "--out", str(tmp_path / "board.svg"))
    one_line_refusal(done, "ends in .svg", "--format svg")
    assert list(tmp_path.iterdir()) == []


def test_a_bad_toggle_is_refused_for_makers_files_too(tmp_path):
    done = run_cli("print", "brandubh", "--format", "svg", "--set", "camps=maybe", "--out", str(tmp_path / "x.svg"))
    one_line_refusal(done)
    assert list(tmp_path.iterdir()) == []


def test_missing_maker_extra_is_one_clear_line(tmp_path):
    """Without ezdxf (the 'maker' extra) DXF is refused naming the extra; SVG still works."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(textwrap.dedent("""
        import sys

        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "ezdxf" or name.startswith("ezdxf."):
                    raise ImportError("No module named 'ezdxf'")
                return None

        sys.meta_path.insert(0, Block())
    """))
    env = {"PYTHONPATH": os.pathsep.join([str(blocker), os.environ.get("PYTHONPATH", "")])}
    out = tmp_path / "board.dxf"
    done = run_cli("print", "brandubh", "--format", "dxf", "--out", str(out), env=env)
    one_line_refusal(done, "ezdxf", "tafl-desktop[maker]")
    assert not out.exists()
    ok = run_cli("print", "brandubh", "--format", "svg", "--out", str(tmp_path / "board.svg"), env=env)
    assert ok.returncode == 0, ok.stderr

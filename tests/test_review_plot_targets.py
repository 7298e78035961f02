"""Issue 26, item 5: ``review --plot`` writes through the same safe writer as every other output.

A link is followed to the file it names and stays a link; a FIFO, a device node or a folder is
refused with one line before the review's time is spent (and is still what it was); a replaced
file keeps its own mode and a new one gets the usual ``0666`` less the umask, as Save Game does
(``core.safe_files.write_safely``).  Driven as a user does: the real CLI in a subprocess.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

import pytest

from tafl_desktop.core.game import Game
from tafl_desktop.core.record import save_game
from tafl_desktop.core.variants import find_variant

pytestmark = pytest.mark.skipif(os.name != "posix", reason="links, FIFOs and device nodes are POSIX")

#: A real Brandubh game (shared/reference/games/brandubh.csv), short so the review is quick.
MOVES = "d2-c2 e4-e2 d6-e6 d3-g3"


@pytest.fixture
def game_file(tmp_path):
    game = Game(find_variant("brandubh").make_rules())
    for text in MOVES.split():
        game.play_text(text)
    path = tmp_path / "short.tafl.json"
    save_game(game, path)
    return path


def review(game_file, plot, timeout: float = 60, seconds: float = 0.05) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "review", str(game_file), "--time", str(seconds),
                           "--plot", str(plot)], capture_output=True, text=True, timeout=timeout)


def test_a_link_is_written_through_and_stays_a_link(game_file, tmp_path):
    real = tmp_path / "charts" / "real.png"
    real.parent.mkdir()
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    link = tmp_path / "graph.png"
    link.symlink_to(real)
    res = review(game_file, link)
    assert res.returncode == 0, res.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640  # a replaced file keeps its own mode


def test_a_new_graph_gets_the_usual_mode_not_a_private_one(game_file, tmp_path):
    out = tmp_path / "graph.pdf"
    res = subprocess.run(["sh", "-c", f"umask 022 && exec {sys.executable} -m tafl_desktop review "
                          f"'{game_file}' --time 0.05 --plot '{out}'"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert out.read_bytes()[:5] == b"%PDF-"
    assert stat.S_IMODE(out.stat().st_mode) == 0o644  # 0666 less the umask, as Save Game writes
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_fifo_is_refused_at_once_and_stays_a_fifo(game_file, tmp_path):
    fifo = tmp_path / "graph.png"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    # at 5 s a position the review itself would take a minute or more: refused before it starts
    res = review(game_file, fifo, timeout=60, seconds=5.0)
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "pipe" in res.stderr and "Traceback" not in res.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert time.monotonic() - t0 < 15


def test_a_link_to_a_fifo_is_refused_and_both_stay(game_file, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "graph.png"
    link.symlink_to(fifo)
    res = review(game_file, link, timeout=30)
    assert res.returncode == 1 and "pipe" in res.stderr
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="creating a device node needs root")
def test_a_device_node_is_never_replaced(game_file, tmp_path):
    # a twin of /dev/full (char 1,7): as root the old writer replaced it with a private file
    dev = tmp_path / "full.png"
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    res = review(game_file, dev, timeout=30)
    assert res.returncode == 1 and "device" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    st = os.lstat(dev)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 7)

"""The board as a screen reader reads it, through AT-SPI (issue 40), headless: Xvfb, a private
D-Bus session (``dbus-run-session``), ``at-spi-bus-launcher`` and ``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1``.

``tests/atspi/reader.py`` runs under Debian's /usr/bin/python3 (``python3-pyatspi``,
``gir1.2-atspi-2.0``, ``python3-gi``: the venv's Python cannot import them), starts the app
(``tests/atspi/app.py``, the venv's Python, this checkout) and prints what AT-SPI shows as JSON:
the board table's size, every cell's name, its headers, the focused cell, and the announcements
heard after a move is typed.  ``make test`` installs the packages; where they are missing the test
is skipped with one line saying which.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = "/usr/bin/python3"
BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"


def _missing() -> str:
    for tool in ("Xvfb", "dbus-run-session"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian: xvfb, dbus)"
    if not os.path.exists(BUS_LAUNCHER):
        return "at-spi-bus-launcher is not installed (Debian: at-spi2-core)"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Atspi', '2.0'); "
                            "from gi.repository import Atspi"], capture_output=True)
    if probe.returncode:
        return "the system Python has no Atspi (Debian: python3-gi, gir1.2-atspi-2.0, python3-pyatspi)"
    return ""


MISSING = _missing() if sys.platform.startswith("linux") else "AT-SPI is Linux only"
pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING)


def read_board(variant: str, lang: str, cursor: str, moves: str, table_name: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    app = f"{sys.executable} {ROOT / 'tests' / 'atspi' / 'app.py'} {variant} {lang} {cursor} {{go}} {moves or '-'}"
    done = subprocess.run(["dbus-run-session", "--", SYSTEM_PYTHON, str(ROOT / "tests" / "atspi" / "reader.py"),
                           "--table", table_name, "--app", app], capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert "error" not in out, (out["error"], out.get("app_stderr"))
    return out


def expected_cells(make_window, variant: str, lang: str):
    """What the window itself says of every cell, in ``lang`` (the table mirrors this)."""
    from tafl_desktop.gui.board_table import grid_of
    from tafl_desktop.i18n import _, set_language

    set_language(lang, explicit=True)
    try:
        w = make_window(variant)
        g = w.session.variant.geometry
        ys, xs, cells = grid_of(g)
        grid = [[_("no point")] * len(xs) for _y in ys]
        for s, (r, c) in cells.items():
            grid[r][c] = w.board.describe_square(s)
        return grid, _("Board as a table"), w.session
    finally:
        set_language("en", explicit=True)


def test_brandubh_table_in_english_with_headers_focus_and_announcement():
    out = read_board("brandubh", "en", "d4", "d6b6", "Board as a table")
    t = out["table"]
    assert (t["rows"], t["columns"]) == (7, 7)
    # the throne holds the king at the start and the corners are marked (source 003 in tafl-rules.md)
    assert t["cells"][3][3] == "d4: king on the throne"
    assert t["cells"][0][0] == "a7: corner" and t["cells"][6][6] == "g1: corner"
    assert t["cells"][1][3] == "d6: attacker" and t["cells"][2][4] == "e5: empty"
    assert t["row_headers"] == ["7", "6", "5", "4", "3", "2", "1"]
    assert t["column_headers"] == list("abcdefg")
    assert t["focused"] == [3, 3, "d4: king on the throne"]  # the table's focus is the board's cursor
    # the typed move is announced once, politely (1), and the table follows the board
    heard = out["announcements"]
    assert [h["text"] for h in heard] == ["The attackers played d6-b6."]
    assert heard[0]["politeness"] == 1
    after = out["table_after"]["cells"]
    assert after[1][1] == "b6: attacker" and after[1][3] == "d6: empty"


@pytest.mark.slow  # some 40 s: pytest -m slow tests/test_atspi_board.py (make test-slow)
@pytest.mark.parametrize(("variant", "lang", "cursor", "move", "size"), [
    ("fox_geese_13", "de", "d4", "c3c4", (7, 7)),
    ("dablot", "fr", "a1", "b5b7", (13, 11)),
    ("copenhagen", "ru", "f6", "d1c1", (11, 11)),
    ("fox_hounds", "da", "a1", "", (8, 8)),
])
def test_every_family_as_a_table_in_another_language(make_window, variant, lang, cursor, move, size):
    want, table_name, session = expected_cells(make_window, variant, lang)
    out = read_board(variant, lang, cursor, move, table_name)
    t = out["table"]
    assert (t["rows"], t["columns"]) == size
    assert t["cells"] == want
    g = session.variant.geometry
    r, c = next((r, c) for r, row in enumerate(want) for c, name in enumerate(row)
                if name.split(":")[0].strip() == cursor)
    assert t["focused"] == [r, c, want[r][c]]
    names = {g.name(s) for s in range(g.size)}
    assert set(t["row_headers"]) == {n.lstrip("abcdefghijklmnopqrstuvwxyz") for n in names}
    if move:
        assert len(out["announcements"]) == 1 and out["announcements"][0]["politeness"] == 1
        assert f"{move[:2]}-{move[2:]}" in out["announcements"][0]["text"]  # every move here is one step


def test_descriptions_reach_the_screen_reader_in_german(make_window):
    """A control's description (what it does, said after its name) is what AT-SPI hands the
    screen reader, in the window's language: the move field, the board as a table and the move
    list, each as the window itself holds it in German."""
    from tafl_desktop.i18n import _, set_language

    set_language("de", explicit=True)
    try:
        w = make_window("brandubh")
        controls = (w.blind_play.field, w.board_table, w.panel.moves.table)
        want = {(c.accessibleName(), c.accessibleDescription()) for c in controls}
        table_name = _("Board as a table")
        english = "The moves played, one row per turn; pick one to see the board after it"
        german_moves = _(english)
    finally:
        set_language("en", explicit=True)
    assert german_moves != english and all(name and about for name, about in want)
    out = read_board("brandubh", "de", "d4", "", table_name)
    heard = {(name, about) for _role, name, about in out["descriptions"]}
    assert want <= heard, sorted(want - heard)
    assert any(about == german_moves for _n, about in heard)

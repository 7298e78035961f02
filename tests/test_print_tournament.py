"""Issue 45: a club tournament's papers as PDF (pairings, score sheets, crosstable, standings).

Made through the real CLI (``tafl-desktop tournament print``) in a subprocess, read back with
pypdf: the players' names, the scores worked out by hand below, the rules and the clock on the
score sheets, one page a game; and in Russian, the catalogue's words with Cyrillic names.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.match import tournament as tm

pypdf = pytest.importorskip("pypdf")
ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Ann", "Bo", "Cleo", "Дмитрий"]


def cli(*args: str, lang: str = "en") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), TAFL_LANG=lang)
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "tournament", *args], capture_output=True,
                          text=True, timeout=120, env=env, cwd=ROOT)


def text_of(path: Path) -> list[str]:
    """Each page's text, its lines joined by spaces (a table row reads as one run)."""
    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(str(path)).pages]


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A finished round robin, two games a pairing: the higher rated wins both games, except
    Cleo-Дмитрий, a win each as the attackers (Cleo's in 30 plies, Дмитрий's in 50).
    Points: Ann 6, Bo 4, Cleo 1, Дмитрий 1; Cleo and Дмитрий have direct comparison 1 and
    Sonneborn-Berger 1*1 = 1 each, so the shortest win puts Cleo third.  SB(Ann) = 2*4 + 2*1 +
    2*1 = 12; SB(Bo) = 2*1 + 2*1 = 4."""
    t = tm.Tournament("Club night", "round-robin", [tm.Player(n, 2000 - 100 * k) for k, n in enumerate(NAMES)], 3,
                      variant="brandubh", clock="25 min + 10 s")
    while not t.finished:
        rnd = t.pair_next()
        for table, p in enumerate(rnd.pairings, 1):
            for k, g in enumerate(p.games, 1):
                if {p.a, p.b} == {2, 3}:
                    t.enter(rnd.number, table, k, "attackers", 30 if g.attackers == 2 else 50)
                else:
                    winner = min(p.a, p.b)
                    t.enter(rnd.number, table, k, "attackers" if g.attackers == winner else "defenders", 40)
    path = tmp_path / "club.json"
    tm.save(t, path)
    return path


def test_crosstable_and_standings_carry_the_names_and_scores(played, tmp_path):
    out = tmp_path / "cross.pdf"
    proc = cli("print", str(played), "--what", "crosstable", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    text = " ".join(text_of(out))
    # rows in the standings' order: #, name, the scores against 1..4 (× against oneself), points, place
    assert "1 Ann × 2 2 2 6 1 2 Bo 0 × 2 2 4 2 3 Cleo 0 0 × 1 1 3 4 Дмитрий 0 0 1 × 1 4" in text, text
    out = tmp_path / "standings.pdf"
    proc = cli("print", str(played), "--what", "standings", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    text = " ".join(text_of(out))
    # place, name, rating, points, direct comparison, Sonneborn-Berger, shortest win, games
    for row in ("1 Ann 2000 6 0 12 40 6", "2 Bo 1900 4 0 4 40 6", "3 Cleo 1800 1 1 1 30 6",
                "4 Дмитрий 1700 1 1 1 50 6"):
        assert row in text, (row, text)


def test_pairings_and_score_sheets_one_page_a_game(tmp_path):
    path = tmp_path / "club.json"
    made = cli("new", str(path), "--name", "Club night", "--variant", "brandubh", "--clock", "25 min + 10 s",
               "--player", "Ann=1900", "--player", "Дмитрий=1800", "--player", "Cleo=1700")
    assert made.returncode == 0, made.stderr
    assert cli("pair", str(path)).returncode == 0
    t = tm.load(path)
    rnd = t.rounds[0]
    games = [g for p in rnd.pairings for g in p.games]
    out = tmp_path / "pairings.pdf"
    proc = cli("print", str(path), "--what", "pairings", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    text = " ".join(text_of(out))
    for g in games:
        assert f"{t.players[g.attackers].name} ({t.players[g.attackers].rating}) " \
               f"{t.players[g.defenders].name} ({t.players[g.defenders].rating})" in text
    assert f"{t.players[rnd.bye].name}" in text and "bye" in text
    out = tmp_path / "sheets.pdf"
    proc = cli("print", str(path), "--what", "sheets", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    pages = text_of(out)
    assert len(pages) == len(games) == 2
    for k, (page, g) in enumerate(zip(pages, games, strict=True), 1):
        assert f"Round 1, table 1, game {k}" in page
        assert re.search(rf"Attackers {t.players[g.attackers].name} \(\d+\) signature Defenders "
                         rf"{t.players[g.defenders].name} \(\d+\) signature", page), page
        assert "Rules: Brandubh" in page and "The board has 7 x 7 squares" in page
        assert "Clock: 25 min + 10 s" in page
        assert " 1 31 " in page or (" 30 " in page and " 60 " in page)  # 60 numbered moves to fill in
        assert "Attackers: win" in page and "Defenders: win" in page and "draw" in page


def test_russian_papers(played, tmp_path):
    from tafl_desktop.i18n import load_catalogue

    ru = load_catalogue("ru")
    out = tmp_path / "standings.pdf"
    proc = cli("print", str(played), "--what", "standings", "--out", str(out), lang="ru")
    assert proc.returncode == 0, proc.stderr
    text = " ".join(text_of(out))
    for word in ("Standings", "Sonneborn-Berger", "Player"):
        assert ru.gettext(word) != word and ru.gettext(word) in text
    assert "4 Дмитрий 1700 1 1 1 50 6" in text
    out = tmp_path / "cross.pdf"
    assert cli("print", str(played), "--what", "crosstable", "--out", str(out), lang="ru").returncode == 0
    assert ru.gettext("Crosstable") in " ".join(text_of(out))


def test_bad_requests_get_one_line_and_leave_files_alone(tmp_path, played):
    fresh = tmp_path / "fresh.json"
    assert cli("new", str(fresh), "--player", "A=1", "--player", "B=2").returncode == 0
    keep = tmp_path / "keep.pdf"
    keep.write_bytes(b"mine")
    for args, words in ((("print", str(fresh), "--what", "sheets", "--out", str(keep)), "no round"),
                        (("print", str(played), "--what", "pairings", "--round", "9", "--out", str(keep)),
                         "no round 9"),
                        (("print", str(played), "--what", "standings"), "--out"),
                        (("print", str(played), "--out", str(tmp_path / "no" / "such" / "x.pdf")), "cannot write"),
                        (("new", str(tmp_path / "g.json"), "--system", "wtf-groups", "--groups", "3",
                          "--player", "A=1", "--player", "B=2", "--player", "C=3"), "groups")):
        proc = cli(*args)
        assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and words in proc.stderr, proc.stderr
    assert keep.read_bytes() == b"mine"
    assert not (tmp_path / "g.json").exists()


def test_the_knockout_and_bracket_matches_are_listed(tmp_path):
    # a double elimination of four where the higher rated always wins: R1 P1-P4, P2-P3; R2
    # winners P1-P2, losers P3-P4; R3 losers P2-P3; R4 the grand final P1-P2, P1 wins (2-0)
    from tafl_desktop.match.sheets import render_tournament

    t = tm.Tournament("Bracket", "double-elimination", [tm.Player(f"P{k}", 2000 - k) for k in range(1, 5)], 0)
    while not t.finished:
        rnd = t.pair_next()
        for table, p in enumerate(rnd.pairings, 1):
            for k, g in enumerate(p.games, 1):
                t.enter(rnd.number, table, k, "attackers" if g.attackers == min(p.a, p.b) else "defenders", 33)
    out = tmp_path / "de.pdf"
    out.write_bytes(render_tournament(t, "crosstable"))
    text = " ".join(text_of(out))
    for row in ("1 P1 – P4 2–0 P1 winners' bracket", "1 P2 – P3 2–0 P2 winners' bracket",
                "2 P1 – P2 2–0 P1 winners' bracket", "2 P3 – P4 2–0 P3 losers' bracket",
                "3 P2 – P3 2–0 P2 losers' bracket", "4 P1 – P2 2–0 P1 grand final"):
        assert row in text, (row, text)
    out.write_bytes(render_tournament(t, "standings"))
    assert "Winner: P1" in " ".join(text_of(out))


def test_score_sheets_fit_a_landscape_letter_page(tmp_path):
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.match.sheets import render_tournament

    t = tm.Tournament("Club", "round-robin", [tm.Player("Ann"), tm.Player("Bo")], 1, variant="brandubh")
    t.pair_next()
    out = tmp_path / "sheets.pdf"
    out.write_bytes(render_tournament(t, "sheets", find_variant("brandubh"), None, "letter", "landscape"))
    reader = pypdf.PdfReader(str(out))
    box = reader.pages[0].mediabox
    assert len(reader.pages) == 2 and float(box.width) > float(box.height)  # landscape, a page a game
    page = " ".join(reader.pages[0].extract_text().split())
    rows = [int(x) for x in re.findall(r"\b\d+\b", page.split("Defenders", 3)[-1].split("Result")[0])]
    assert max(rows) == 30 and "Attackers: win" in page  # 15 rows in each of two columns, then the result


def test_a_long_rule_set_never_pushes_the_clock_or_the_moves_off_the_sheet(tmp_path):
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.match.sheets import render_tournament

    t = tm.Tournament("Club", "round-robin", [tm.Player("Ann"), tm.Player("Bo")], 1, variant="copenhagen",
                      clock="90 min")
    t.pair_next()
    out = tmp_path / "sheets.pdf"
    out.write_bytes(render_tournament(t, "sheets", find_variant("copenhagen")))
    pages = text_of(out)
    assert len(pages) == 2
    for page in pages:
        assert "Clock: 90 min" in page and "Rules: Copenhagen" in page and " 60 " in page
        assert "the rules continue on the variant's rule sheet" in page  # the rest is on the rule sheet

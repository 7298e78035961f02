"""A printed PDF says when it was made (issue 36): the real date for a player, the moment
``SOURCE_DATE_EPOCH`` names when it is set (reproducible builds, the tests, printables/).

ReportLab's ``invariant`` mode would stamp every PDF "1 January 2000"; the CLI is run in a
subprocess as a player runs it, and the PDF's information dictionary is read back with pypdf.
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys

from pypdf import PdfReader


def _print(tmp_path, name: str, epoch: str | None):
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    if epoch is not None:
        env["SOURCE_DATE_EPOCH"] = epoch
    out = tmp_path / name
    r = subprocess.run([sys.executable, "-m", "tafl_desktop", "print", "brandubh", "--out", str(out)],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return out


def test_a_players_pdf_is_dated_today_and_a_reproducible_one_when_asked(tmp_path) -> None:
    before = datetime.datetime.now(datetime.UTC)
    made = PdfReader(_print(tmp_path, "today.pdf", None)).metadata.creation_date
    assert made is not None
    if made.tzinfo is None:
        made = made.replace(tzinfo=datetime.UTC)
    assert abs((made - before).total_seconds()) < 600, made  # now, not 1 January 2000

    # 2021-06-01 00:00 UTC: the date asked for, and the same bytes twice
    first = _print(tmp_path, "a.pdf", "1622505600")
    second = _print(tmp_path, "b.pdf", "1622505600")
    assert PdfReader(first).metadata.creation_date.date() == datetime.date(2021, 6, 1)
    assert first.read_bytes() == second.read_bytes()

"""printables/ holds a ready PDF set for every preset (A4 and Letter) and must match a fresh build.

Output is deterministic, so a fresh build in a temporary folder must equal the shipped files
byte for byte.  If this fails, run ``python -m tafl_desktop.printing.regenerate`` and commit.
Bytes can only be compared under the ReportLab version that made the files (the manifest names
it); under another version the test still compares page counts and text.
"""

from __future__ import annotations

import io
import json

import reportlab
from pypdf import PdfReader

from tafl_desktop.core.variants import presets
from tafl_desktop.printing.regenerate import MANIFEST, PAPER_SIZES, file_name, printables_dir, regenerate

FIX = "printables/ is out of date: run `python -m tafl_desktop.printing.regenerate` and commit the result"


def _text(data: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages]


def test_every_preset_has_a4_and_letter_printables() -> None:
    shipped = {p.name for p in printables_dir().glob("*.pdf")}
    expected = {file_name(vid, paper) for vid in presets() for paper in PAPER_SIZES}
    assert shipped == expected, FIX
    assert (printables_dir() / "README.md").exists()


def test_printables_are_up_to_date(tmp_path) -> None:
    fresh = tmp_path / "printables"
    names = regenerate(fresh)
    manifest = json.loads((printables_dir() / MANIFEST).read_text())
    same_library = manifest["reportlab"] == reportlab.Version
    stale = []
    for name in names:
        shipped = printables_dir() / name
        if not shipped.exists():
            stale.append(f"{name}: missing")
            continue
        new, old = (fresh / name).read_bytes(), shipped.read_bytes()
        if same_library:
            if new != old:
                stale.append(name)
        elif _text(new) != _text(old):
            stale.append(f"{name} (text differs; built with ReportLab {manifest['reportlab']})")
    assert not stale, f"{FIX}: {', '.join(stale)}"


def test_printables_are_small() -> None:
    for pdf in printables_dir().glob("*.pdf"):
        assert pdf.stat().st_size < 400_000, pdf.name

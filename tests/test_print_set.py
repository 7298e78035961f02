"""Printable sets as files: paper sizes, viewer preferences, fonts, determinism, errors, atomic writes.

Every PDF is read back with pypdf, so these tests check what a printer would get, not what the
code meant to draw.
"""

from __future__ import annotations

import io
import os
import time

import pytest
from pypdf import PdfReader
from timing import within

from tafl_desktop.core.variants import find_variant, presets
from tafl_desktop.printing import PARTS, PrintError, build_set, render_set

MM = 72 / 25.4
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def _reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_every_page_is_exactly_the_paper_size(paper: str, orientation: str) -> None:
    data, report = render_set(find_variant("copenhagen"), paper=paper, orientation=orientation,
                              parts=list(PARTS))
    reader = _reader(data)
    w, h = PAPER_MM[paper]
    if orientation == "landscape":
        w, h = h, w
    assert len(reader.pages) == report.pages > 5
    for page in reader.pages:
        box = page.mediabox
        assert float(box.left) == 0 and float(box.bottom) == 0
        assert abs(float(box.width) / MM - w) < 0.01
        assert abs(float(box.height) / MM - h) < 0.01
        assert page.cropbox == page.mediabox  # no enlarged page for crop marks (cropMarks=True)


def test_viewer_is_asked_not_to_scale_and_metadata_is_set() -> None:
    data, _ = render_set(find_variant("brandubh"))
    reader = _reader(data)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    meta = reader.metadata
    assert "Brandubh" in meta.title
    assert "100%" in meta.subject


def test_fonts_are_embedded_and_no_standard_font_is_used() -> None:
    data, _ = render_set(find_variant("dablot_mini"))  # Sámi names with å
    reader = _reader(data)
    seen = set()
    for page in reader.pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            seen.add(str(font["/BaseFont"]))
            descendant = font.get("/DescendantFonts")
            desc = (descendant[0].get_object() if descendant else font)["/FontDescriptor"].get_object()
            assert "/FontFile2" in desc, f"{font['/BaseFont']} is not embedded"
    assert seen and all("DejaVu" in name for name in seen), seen
    text = "".join(p.extract_text() for p in reader.pages)
    assert "gånneka" in text


def test_output_is_deterministic() -> None:
    v = find_variant("tablut")
    assert render_set(v)[0] == render_set(v)[0]


def test_default_parts_follow_the_family() -> None:
    _, tafl = render_set(find_variant("copenhagen"))
    assert tafl.parts == ["rules", "board", "pieces"]
    dablot = [v for v in presets().values() if v.family == "dablot"]
    if dablot:
        _, rep = render_set(dablot[0])
        assert rep.parts == ["rules", "board", "pieces", "markers"]


def test_unknown_part_is_rejected() -> None:
    with pytest.raises(PrintError, match="unknown part 'dice'"):
        render_set(find_variant("brandubh"), parts=["board", "dice"])
    with pytest.raises(PrintError, match="no part"):
        render_set(find_variant("brandubh"), parts=[])


@pytest.mark.parametrize("square, word", [(3.0, "too small"), (500.0, "too large")])
def test_square_size_out_of_range_is_rejected(square: float, word: str) -> None:
    with pytest.raises(PrintError, match=word):
        render_set(find_variant("brandubh"), square_mm=square)


def test_bad_paper_orientation_and_draught_are_rejected() -> None:
    v = find_variant("brandubh")
    with pytest.raises(PrintError, match="paper"):
        render_set(v, paper="a3")
    with pytest.raises(PrintError, match="orientation"):
        render_set(v, orientation="sideways")
    with pytest.raises(PrintError, match="draught"):
        render_set(v, parts=["markers"], draught_mm=2)


def test_build_set_writes_the_file(tmp_path) -> None:
    out = tmp_path / "set.pdf"
    build_set(find_variant("brandubh"), out, paper="letter")
    assert len(PdfReader(out).pages) >= 3
    assert sorted(os.listdir(tmp_path)) == ["set.pdf"]  # no temporary file left


def test_unwritable_path_raises_oserror_and_leaves_nothing(tmp_path) -> None:
    v = find_variant("brandubh")
    with pytest.raises(OSError):
        build_set(v, tmp_path / "no-such-folder" / "set.pdf")
    # a folder where the file should go: the rename fails, the temporary file is removed
    (tmp_path / "taken.pdf").mkdir()
    with pytest.raises(OSError):
        build_set(v, tmp_path / "taken.pdf")
    assert sorted(os.listdir(tmp_path)) == ["taken.pdf"]
    assert os.listdir(tmp_path / "taken.pdf") == []
    if os.geteuid() != 0:  # root may write anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        try:
            with pytest.raises(PermissionError):
                build_set(v, locked / "set.pdf")
            assert os.listdir(locked) == []
        finally:
            locked.chmod(0o700)


def test_failed_build_keeps_the_old_file(tmp_path) -> None:
    out = tmp_path / "set.pdf"
    out.write_bytes(b"old")
    with pytest.raises(PrintError):
        build_set(find_variant("brandubh"), out, parts=["nonsense"])
    assert out.read_bytes() == b"old"


def test_cli_print_reports_errors_in_one_line(tmp_path, capsys) -> None:
    from tafl_desktop.cli import main

    good = tmp_path / "ok.pdf"
    assert main(["print", "brandubh", "--out", str(good), "--paper", "letter", "--parts", "board,rules"]) == 0
    assert good.exists()
    rc = main(["print", "brandubh", "--out", str(tmp_path / "x.pdf"), "--parts", "board,dice"])
    err = capsys.readouterr().err
    assert rc != 0 and "unknown part 'dice'" in err
    rc = main(["print", "brandubh", "--out", str(tmp_path / "missing" / "x.pdf")])
    err = capsys.readouterr().err
    assert rc != 0 and "cannot write" in err
    assert sorted(os.listdir(tmp_path)) == ["ok.pdf"]


def test_full_alea_evangelii_set_is_fast() -> None:
    """The largest board's whole set (every part) renders in under 3 s on an idle core; the
    bound grows with the machine's load (a busy machine is slow, not broken)."""
    v = find_variant("alea_evangelii")
    render_set(v)  # fonts registered, presets parsed
    times = []
    for _ in range(2):
        t = time.perf_counter()
        render_set(v, parts=list(PARTS))
        times.append(time.perf_counter() - t)
    within(min(times), 3.0, "rendering Alea Evangelii's whole set")


def test_non_latin_names_print_as_text() -> None:
    from dataclasses import replace

    v = replace(find_variant("brandubh"), name="Хнефатафл Brandubh")
    data, _ = render_set(v, parts=["rules"])
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Хнефатафл" in text and "■" not in text

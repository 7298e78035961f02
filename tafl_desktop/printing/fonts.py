"""The one TrueType font every printed page uses, registered once with ReportLab.

Why a shipped TTF: ReportLab's built-in Helvetica is WinAnsi-only and never embedded, so a
Cyrillic or Sámi name comes out as black boxes and the page looks different on every viewer.
DejaVu Sans (resources/fonts, with its licence) is subset-embedded automatically.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from tafl_desktop.core.paths import resources_dir

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"

_FILES = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf"}


def fonts_dir() -> Path:
    return resources_dir() / "fonts"


def register_fonts() -> None:
    """Register the regular and bold faces (idempotent; ReportLab keeps a global registry)."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, file in _FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(fonts_dir() / file)))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in points of ``text`` set in our font at ``size`` points."""
    return pdfmetrics.stringWidth(text, FONT_BOLD if bold else FONT, size)

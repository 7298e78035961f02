"""File > Print set...: choose paper, size and parts of the printable set, see it, save it as a PDF;
or make the board for a laser cutter (SVG, DXF) or pieces for a 3D printer (STL, 3MF).

The dialog prints the variant of the game being played, toggles included, so the rule sheet
matches the game on screen.  It calls the same :func:`tafl_desktop.printing.render_set` as the
CLI's ``print`` command, so what the preview shows is byte for byte what "Save as PDF..." writes.

Why the preview goes through pypdfium2: PySide6-Essentials has no QtPdf, and drawing the set a
second time with QPainter would preview something other than the PDF.  pdfium renders the real
bytes.  It is optional at run time: if it cannot be imported or fails on a page, the dialog still
builds and saves the set and says that the preview is unavailable.

The makers' formats are built off the window's thread (:mod:`tafl_desktop.gui.maker_panel`) by the
command line's own function, and previewed as one picture of what is saved.

Why the rebuild waits ~300 ms after the last change: typing "25" in the size box would otherwise
build the set for "2" (too small, an error) and then again for "25".

Why the set is built on a thread: a large board tiled over many pages takes seconds to draw and
to render as thumbnails, and the window must not stop answering meanwhile.  The thread builds the
PDF and renders the thumbnails as QImages (which any thread may make); a progress bar says how far
it is; the GUI thread only turns the images into pixmaps.  A build that a newer one overtook is
thrown away when it ends.  pdfium is not thread-safe, so every call into it holds one lock.
"""

from __future__ import annotations

import html
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.marks import N_, Num, number
from tafl_desktop.core.quoting import os_reason, shown
from tafl_desktop.core.variants import Variant
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.form_labels import name_fields
from tafl_desktop.gui.maker_panel import FILTERS, FORMAT_LABELS, MakerBuilder, MakerResult, MakerSettings
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.texts import add_item, tr, trn
from tafl_desktop.i18n import _, ngettext, pgettext
from tafl_desktop.printing import MAX_DRAUGHT, MIN_DRAUGHT, PrintError, SetReport, render_set, write_atomic
from tafl_desktop.printing.board_sheet import (
    MAX_SQUARE,
    MIN_SQUARE,
    PLAYABLE_SQUARE,
    TILED_SQUARE,
    default_is_tiled,
    default_square,
)
from tafl_desktop.printing.maker.options import DEFAULT_SQUARE, LASER_FORMATS, MESH_FORMATS
from tafl_desktop.printing.paper import make_page

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

__all__ = ["PrintSetDialog", "PrintOptions", "open_print_dialog"]

PREVIEW_DELAY_MS = 300
THUMB_BOX = 112  # logical pixels: a thumbnail fits in a square of this side
LAST_FOLDER_KEY = "print/last_folder"
#: The choices a maker makes once for every file of a set (issue 36): remembered between dialogs.
FORMAT_KEY, PAPER_KEY, ORIENTATION_KEY = "print/format", "print/paper", "print/orientation"
PDF_FILTER = ";;".join([FILTERS["pdf"], dialogs.ALL_FILES])
PT_MM = 25.4 / 72

PAPER_LABELS = {"a4": N_("A4 (210 x 297 mm)"), "letter": N_("Letter (8.5 x 11 in)")}
ORIENTATION_LABELS = {"portrait": N_("Portrait"), "landscape": N_("Landscape")}
#: Checkbox text and tooltip of every part the dialog offers; "markers" only for Dablot.
PART_TEXT = {
    "rules": (N_("Rule sheet"), N_("The rules with the toggles of this game, and diagrams of the start and of "
                                   "captures")),
    "board": (N_("Board"), N_("The board at the chosen size; a board larger than the page is tiled with an assembly "
                              "map")),
    "pieces": (N_("Pieces (flat tokens)"), N_("Cut-out tokens sized to the board, with spares")),
    "standees": (N_("Standing pieces (fold-over)"), N_("Pieces that fold into small stands; more paper than tokens")),
    "markers": (N_("Rank markers"), N_("Discs to put under draughts, for playing Dablot with a draughts set")),
}


def uses_point_spacing(variant: Variant) -> bool:
    """True for point-and-line boards (Fox crosses, the Dablot lattice): their printed size is the
    distance between neighbouring points, and the printer's size line says so too."""
    g = variant.geometry
    return getattr(g, "kind", "grid") != "grid" and getattr(g, "style", "points") != "checker"


@dataclass(frozen=True)
class PrintOptions:
    """What the dialog asks :func:`render_set` for (``square_mm`` None: the printer's default)."""

    paper: str = "a4"
    orientation: str = "portrait"
    square_mm: float | None = None
    parts: tuple[str, ...] = ("rules", "board", "pieces")
    draught_mm: float = 30.0
    #: A Rules Lab study's report whose chart goes on the rule sheet (None: no chart).
    balance: dict[str, Any] | None = None
    #: The rule sheet says how to feel the set to play by touch (issue 40).
    tactile: bool = False

    def render(self, variant: Variant) -> tuple[bytes, SetReport]:
        return render_set(variant, self.paper, self.orientation, self.square_mm, list(self.parts), self.draught_mm,
                          self.balance, self.tactile)


# ------------------------------------------------------------------------------------ preview
class PreviewUnavailable(RuntimeError):
    """pdfium could not be loaded or could not render; the message says why, in one line."""


#: pdfium may be used by one thread at a time (a build's thread renders thumbnails while the GUI
#: thread may still render a page of the previous set).
_PDFIUM = threading.RLock()


def _load_pdfium() -> Any:
    """Import pypdfium2 on first use (its native library loads then, not when the app starts)."""
    try:
        import pypdfium2
    except Exception as exc:  # ImportError, or OSError from a missing/broken libpdfium
        raise PreviewUnavailable(f"the PDF renderer (pypdfium2) is not available: {exc}") from None
    return pypdfium2


class PdfPages:
    """The pages of one PDF held in memory by pdfium, rendered on request as QImages."""

    def __init__(self, data: bytes) -> None:
        pdfium = _load_pdfium()
        try:
            with _PDFIUM:
                self._pdf = pdfium.PdfDocument(data)
                self._sizes = []
                for i in range(len(self._pdf)):
                    page = self._pdf[i]
                    try:
                        self._sizes.append(tuple(page.get_size()))
                    finally:
                        page.close()
        except Exception as exc:
            raise PreviewUnavailable(f"the PDF renderer could not open the set: {exc}") from None

    def __len__(self) -> int:
        return len(self._sizes)

    def size_mm(self, index: int) -> tuple[float, float]:
        w, h = self._sizes[index]
        return (round(w * PT_MM, 1), round(h * PT_MM, 1))

    def render(self, index: int, box: QSize) -> QImage:
        """The page scaled to fit inside ``box`` device pixels, on white."""
        w, h = self._sizes[index]
        scale = min(box.width() / w, box.height() / h)
        try:
            with _PDFIUM:
                page = self._pdf[index]
                try:
                    # the bitmap closed here, under the lock: left to pdfium's finaliser it could be
                    # freed on another thread while a render runs (a segfault seen once in the suite)
                    bitmap = page.render(scale=max(scale, 0.01))
                    try:
                        image = bitmap.to_pil().convert("RGB")
                    finally:
                        bitmap.close()
                finally:
                    page.close()
        except Exception as exc:
            raise PreviewUnavailable(f"the PDF renderer failed on page {index + 1}: {exc}") from None
        data = image.tobytes("raw", "RGB")
        # copy(): the QImage must own its pixels, not borrow the bytes object that goes away here
        return QImage(data, image.width, image.height, 3 * image.width, QImage.Format.Format_RGB888).copy()

    def close(self) -> None:
        pdf, self._pdf = getattr(self, "_pdf", None), None
        if pdf is None:
            return
        try:
            with _PDFIUM:
                pdf.close()
        except Exception:
            pass

    def __del__(self) -> None:
        # a set thrown away (a build overtaken, a dialog gone) is closed here, under the lock, so
        # pdfium's own finaliser never runs beside a render on another thread
        self.close()


@dataclass
class BuiltSet:
    """What one build made: the PDF and its report, or why not; the pages for the preview and
    their thumbnails (or why the preview is unavailable)."""

    pdf_bytes: bytes | None = None
    report: SetReport | None = None
    error: str = ""
    preview_error: str = ""
    pages: PdfPages | None = None
    thumbs: list[QImage] = field(default_factory=list)


def build_set(variant: Variant, opts: PrintOptions, thumb_px: int,
              progress: Callable[[int, int], None] = lambda _done, _total: None) -> BuiltSet:
    """Build the set for ``opts`` and its thumbnails (``thumb_px`` device pixels square); any
    thread may call this.  ``progress(done, total)`` counts the thumbnails drawn."""
    out = BuiltSet()
    if not opts.parts:
        out.error = _("Tick at least one part to print.")
        return out
    try:
        out.pdf_bytes, out.report = opts.render(variant)
    except PrintError as exc:
        out.error = _("Cannot print this: {error}.").format(error=exc)
    except Exception as exc:  # a printer bug must not take the dialog down with it
        out.error = _("The set could not be built: {error}").format(error=exc)
    if out.pdf_bytes is None:
        return out
    try:
        out.pages = PdfPages(out.pdf_bytes)
        box = QSize(thumb_px, thumb_px)
        total = len(out.pages)
        for i in range(total):
            progress(i, total)
            out.thumbs.append(_framed(out.pages.render(i, box)))
        progress(total, total)
    except PreviewUnavailable as exc:
        if out.pages is not None:
            out.pages.close()
        out.pages, out.thumbs, out.preview_error = None, [], str(exc)
    return out


class _BuildSignals(QObject):
    """Carries a build's news from its thread to the dialog (queued across threads).  It is the
    dialog's child: a build still running when the dialog is gone finds it deleted and stops
    reporting (the thread never holds the dialog itself, whose last reference must not be
    dropped, and so the widget deleted, outside the GUI thread)."""

    progressed = Signal(int, int, int)  # build number, thumbnails drawn, pages
    built = Signal(int, object)  # build number, BuiltSet


def _framed(image: QImage) -> QImage:
    """A thin grey edge around a thumbnail, so a white page shows on the white list."""
    painter = QPainter(image)
    painter.setPen(QColor(140, 140, 140))
    painter.drawRect(0, 0, image.width() - 1, image.height() - 1)
    painter.end()
    return image


# ------------------------------------------------------------------------------------- dialog
class PrintSetDialog(QDialog):
    """Options of the printable set for ``variant`` (with its toggles), a live preview and saving.

    ``start_folder`` is where "Save as PDF..." opens when no PDF has been saved before;
    ``persist`` False keeps QSettings untouched (the window's screenshot mode).
    """

    #: Emitted after every rebuild, whether it gave pages, an error or an unavailable preview.
    preview_updated = Signal()

    def __init__(self, variant: Variant, parent: QWidget | None = None, start_folder: str = "",
                 persist: bool = True) -> None:
        super().__init__(parent)
        self.variant = variant
        self._start_folder = start_folder
        self._persist = persist
        self.pdf_bytes: bytes | None = None
        self.report: SetReport | None = None
        self.error: str = ""
        self.preview_error: str = ""
        self._pages: PdfPages | None = None
        self._square_auto = True
        #: The newest PDF build asked for, and the newest one shown (they differ while building).
        self._asked = 0
        self._shown_build = 0
        self._signals = _BuildSignals(self)
        self._signals.progressed.connect(self._build_progressed)
        self._signals.built.connect(self._build_done)
        #: the chosen file format ("pdf", or a maker's file: "svg", "dxf", "stl", "3mf")
        self.format = "pdf"
        self.maker: MakerResult | None = None
        self._builder = MakerBuilder(self)
        self._builder.finished.connect(self._maker_built)
        tr(self, "setWindowTitle", "Print set: {game}", game=lambda: self.variant.title)
        #: The games the chooser offers: every preset, the window's own game (its toggles kept) in
        #: its preset's place.
        from tafl_desktop.core.variants import presets

        self._games = sorted([variant] + [p for p in presets().values() if p.id != variant.id],
                             key=lambda g: g.title.casefold())

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.rebuild)
        self._view_timer = QTimer(self)  # re-fit the big page after a resize, once the resizing stops
        self._view_timer.setSingleShot(True)
        self._view_timer.setInterval(60)
        self._view_timer.timeout.connect(self._show_current_page)

        self._options_column = self._build_options()
        preview = self._build_preview()
        body = QHBoxLayout()
        body.addWidget(self._options_column, 0)
        body.addWidget(preview, 1)
        self._body = body

        self.save_button = tr(QPushButton(), "setText", "Save as PDF...")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save_pdf)
        tr(self.save_button, "setAccessibleDescription", "Choose a file and save the set in the chosen format")
        close = tr(QPushButton(), "setText", "Close")
        close.clicked.connect(self.reject)
        tr(close, "setAccessibleDescription", "Close this window; the settings are kept for next time")
        #: Shown while a build runs: first busy (drawing the set), then counting the thumbnails.
        self.build_progress = QProgressBar()
        self.build_progress.setMaximumWidth(220)
        self.build_progress.setAccessibleName(_("Building the set"))
        self.build_progress.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.status_label, 1)
        buttons.addWidget(self.build_progress)
        buttons.addWidget(self.save_button)
        buttons.addWidget(close)

        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addLayout(buttons)
        fit_size(self, 980, 700)
        if persist:
            settings = QSettings()
            self._restore_choices(*(str(settings.value(k, "") or "") for k in (FORMAT_KEY, PAPER_KEY,
                                                                                ORIENTATION_KEY)))
        self._update_square_default()
        self._sync_enabled()
        self.rebuild()

    def _restore_choices(self, fmt: str, paper: str, orientation: str) -> None:
        """Set format, paper and orientation (each only if it is one the dialog offers)."""
        for combo, value in ((self.paper_combo, paper), (self.orientation_combo, orientation),
                             (self.format_combo, fmt)):
            i = combo.findData(value) if value else -1
            if i >= 0:
                combo.setCurrentIndex(i)

    def _remember_choices(self) -> None:
        if self._persist:
            settings = QSettings()
            settings.setValue(FORMAT_KEY, self.format)
            settings.setValue(PAPER_KEY, str(self.paper_combo.currentData()))
            settings.setValue(ORIENTATION_KEY, str(self.orientation_combo.currentData()))

    def choose_game(self, variant: Variant) -> None:
        """Print another game (the chooser at the top): the settings column is rebuilt for it (the
        pieces, board and rule sheet differ by family), keeping format, paper and orientation."""
        if variant is self.variant:
            return
        kept = (self.format, str(self.paper_combo.currentData()), str(self.orientation_combo.currentData()))
        self.variant = variant
        self._square_auto = True
        old = self._options_column
        self._options_column = self._build_options()
        self._body.replaceWidget(old, self._options_column)
        old.hide()
        old.deleteLater()
        self.format = "pdf"
        self._restore_choices(*kept)
        self._format_changed()  # shows the rows the format reads and rebuilds the preview
        self.setWindowTitle(_("Print set: {game}").format(game=variant.title))

    # ---------------------------------------------------------------------------- widgets
    def _build_options(self) -> QWidget:
        v = self.variant
        self.heading = heading = QLabel()
        heading.setWordWrap(True)
        heading.setTextFormat(Qt.TextFormat.RichText)
        self._set_heading()

        self.paper_combo = QComboBox()
        for key, label in PAPER_LABELS.items():
            add_item(self.paper_combo, label, key)
        self.orientation_combo = QComboBox()
        for key, label in ORIENTATION_LABELS.items():
            add_item(self.orientation_combo, label, key)
            tr(self.orientation_combo, "setAccessibleDescription", "Pages upright or on their side")
            tr(self.paper_combo, "setAccessibleDescription", "The size of the sheets you print on")

        self.square_spin = QDoubleSpinBox()
        self.square_spin.setRange(MIN_SQUARE, MAX_SQUARE)
        self.square_spin.setDecimals(1)
        self.square_spin.setSingleStep(0.5)
        tr(self.square_spin, "setSuffix", " mm")
        self.square_spin.setKeyboardTracking(True)
        self.square_default = tr(QCheckBox(), "setText", "Default size")
        tr(self.square_default, "setToolTip", "The largest size, up to 30 mm, at which the board fits on one page, "
                                         "but never below {mm:g} mm: a larger board is tiled over several "
                                         "pages at {tiled:g} mm.\nUntick it, or type a size, to print larger or "
                                         "smaller", mm=Num(PLAYABLE_SQUARE), tiled=Num(TILED_SQUARE))
        #: Says when the default size tiles the board (it does not fit one page at a playable size).
        self.square_note = QLabel()
        self.square_note.setWordWrap(True)
        self.square_note.hide()
        self.square_default.setChecked(True)
        square_row = QHBoxLayout()
        square_row.setContentsMargins(0, 0, 0, 0)
        square_row.addWidget(self.square_spin, 1)
        square_row.addWidget(self.square_default)
        self.square_label = tr(QLabel(), "setText",
                               N_("Point spacing:") if uses_point_spacing(v) else N_("Square size:"))
        tr(self.square_spin, "setToolTip", N_("Distance between neighbouring points of the board, as printed")
           if uses_point_spacing(v) else N_("Side of one board square, as printed"))

        self.game_combo = QComboBox()
        for game in self._games:
            self.game_combo.addItem(game.title, game.id)
        self.game_combo.setCurrentIndex(next(i for i, g in enumerate(self._games) if g is v))
        tr(self.game_combo, "setToolTip", "Print any game's set without starting it")
        self.game_combo.currentIndexChanged.connect(lambda i: self.choose_game(self._games[i]))

        self.format_combo = QComboBox()
        for key, label in FORMAT_LABELS.items():
            add_item(self.format_combo, label, key)
        tr(self.format_combo, "setToolTip", "Paper, the board as a laser cutter's file (true scale in mm; layers cut, "
                                       "score, engrave), or pieces as a 3D printer's file")
        self.format_combo.currentIndexChanged.connect(self._format_changed)
        page_box = tr(QGroupBox(), "setTitle", "Paper")
        form = QFormLayout(page_box)
        self.page_form = form
        self.page_box = page_box
        form.addRow(tr(QLabel(), "setText", "Format:"), self.format_combo)
        form.addRow(tr(QLabel(), "setText", "Paper:"), self.paper_combo)
        form.addRow(tr(QLabel(), "setText", "Orientation:"), self.orientation_combo)
        form.addRow(self.square_label, square_row)
        self.tactile_box = tr(QCheckBox(), "setText", "Tactile set (to play by touch)")
        tr(self.tactile_box, "setAccessibleDescription", "Pieces that differ by shape, height and texture, and a "
           "peg board with raised lines, for a 3D printer; on paper, the rule sheet says how to feel them")
        self.tactile_box.toggled.connect(self._options_changed)
        form.addRow("", self.tactile_box)
        name_fields(form)
        form.addRow(self.square_note)
        self.maker_settings = MakerSettings(v)
        self.maker_settings.changed.connect(self._options_changed)
        self.maker_settings.hide()

        parts_box = tr(QGroupBox(), "setTitle", "Print")
        parts_layout = QVBoxLayout(parts_box)
        self.part_boxes: dict[str, QCheckBox] = {}
        offered = ["rules", "board", "pieces", "standees"] + (["markers"] if v.traits.ranked_pieces else [])
        for key in offered:
            text, tip = PART_TEXT[key]
            box = tr(QCheckBox(), "setText", text)
            tr(box, "setToolTip", tip)
            box.setChecked(key != "standees")
            box.toggled.connect(self._options_changed)
            parts_layout.addWidget(box)
            self.part_boxes[key] = box
        self.balance_box, self.balance_report = self._balance_choice()
        if self.balance_box is not None:
            parts_layout.addWidget(self.balance_box)
        self.draught_spin = QDoubleSpinBox()
        self.draught_spin.setRange(MIN_DRAUGHT, MAX_DRAUGHT)
        self.draught_spin.setDecimals(1)
        self.draught_spin.setSingleStep(1.0)
        tr(self.draught_spin, "setSuffix", " mm")
        self.draught_spin.setValue(30.0)
        tr(self.draught_spin, "setToolTip", "Diameter of your draughts: the markers are cut to sit under them")
        self.draught_label = tr(QLabel(), "setText", "Draught diameter:")
        if v.traits.ranked_pieces:
            row = QFormLayout()
            row.setContentsMargins(20, 0, 0, 0)
            row.addRow(self.draught_label, self.draught_spin)
            parts_layout.addLayout(row)
        else:
            self.draught_label.hide()
            self.draught_spin.hide()

        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        hint = tr(QLabel(), "setText", "Print at 100% (“actual size”): every board page has a 100 mm ruler to check.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: palette(placeholder-text);")
        self.hint = hint

        self.paper_combo.currentIndexChanged.connect(self._paper_changed)
        self.orientation_combo.currentIndexChanged.connect(self._paper_changed)
        self.square_spin.valueChanged.connect(self._square_edited)
        self.square_default.toggled.connect(self._square_default_toggled)
        self.draught_spin.valueChanged.connect(self._options_changed)
        # one draught size for the paper markers and the printed discs
        self.draught_spin.valueChanged.connect(self.maker_settings.draught_spin.setValue)
        self.maker_settings.draught_spin.valueChanged.connect(self.draught_spin.setValue)

        column = QWidget()
        col = QVBoxLayout(column)
        col.setContentsMargins(0, 0, 0, 0)
        game_row = QFormLayout()
        game_row.addRow(tr(QLabel(), "setText", "Game:"), self.game_combo)
        name_fields(game_row)  # a screen reader says "Game", not only the game's name
        col.addLayout(game_row)
        col.addWidget(heading)
        col.addWidget(page_box)
        col.addWidget(parts_box)
        col.addWidget(self.maker_settings)
        self.parts_box = parts_box
        col.addWidget(self.summary_label)
        col.addStretch(1)
        col.addWidget(hint)
        # wide enough for the longest label or check box in the language in use (Russian and French
        # run a third longer than English), and scrolled rather than squeezed when the maker's
        # summary is long: no text is ever cut off
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        width = min(460, max(320, column.sizeHint().width()))
        column.setFixedWidth(width)
        self._column_width = width
        scroll = QScrollArea()
        tr(scroll, "setAccessibleName", "Print options")
        tr(scroll, "setAccessibleDescription", "What to print and how: format, paper, size and the parts of the set")
        scroll.setWidget(column)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFixedWidth(width + scroll.verticalScrollBar().sizeHint().width())
        return scroll

    def _set_summary(self, text: str) -> None:
        """The parts' (or the maker's) summary, given the height its wrapped lines need: the
        settings column scrolls rather than squeezing it (no line is ever cut off)."""
        self.summary_label.setText(text)
        width = self.summary_label.width() if self.summary_label.width() > 50 else self._column_width
        self.summary_label.setMinimumHeight(self.summary_label.heightForWidth(width) if text else 0)

    def _build_preview(self) -> QWidget:
        self.thumbs = QListWidget()
        self.thumbs.setViewMode(QListView.ViewMode.IconMode)
        self.thumbs.setFlow(QListView.Flow.TopToBottom)
        self.thumbs.setWrapping(False)
        self.thumbs.setMovement(QListView.Movement.Static)
        self.thumbs.setResizeMode(QListView.ResizeMode.Adjust)
        self.thumbs.setIconSize(QSize(THUMB_BOX, THUMB_BOX))
        self.thumbs.setSpacing(4)
        self.thumbs.setWordWrap(True)  # "4 · Pièces (jetons plats)" wraps rather than being cut
        self.thumbs.setFixedWidth(THUMB_BOX + 40)
        self.thumbs.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.thumbs.currentRowChanged.connect(self._page_selected)
        tr(self.thumbs, "setAccessibleDescription", "One picture per page of the set; pick one to see it large")

        self.page_label = QLabel()
        self.count_label = QLabel()
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.page_view = QLabel()
        self.page_view.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.page_view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.page_view.setWordWrap(True)
        self.scroll_area = QScrollArea()
        tr(self.scroll_area, "setAccessibleName", "Page preview")
        tr(self.scroll_area, "setAccessibleDescription", "The chosen page as it will be printed")
        self.scroll_area.setWidget(self.page_view)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll_area.setMinimumSize(360, 360)
        self.scroll_area.viewport().setStyleSheet("background: #8a8a8a;")  # paper shows as paper

        self.status_label = QLabel()
        self.status_label.setWordWrap(True)

        top = QHBoxLayout()
        top.addWidget(self.page_label, 1)
        top.addWidget(self.count_label)
        right = QVBoxLayout()
        right.setContentsMargins(0, 0, 0, 0)
        right.addLayout(top)
        right.addWidget(self.scroll_area, 1)
        box = tr(QGroupBox(), "setTitle", "Preview")
        row = QHBoxLayout(box)
        row.addWidget(self.thumbs)
        row.addLayout(right, 1)
        return box

    def _set_heading(self) -> None:
        """The game's name over what the file will hold: the rule sheet's rules on paper; a maker's
        file has no rule sheet, but the game's changes still shape its board (camps, walls...)."""
        title, text = (html.escape(t, quote=False) for t in (self.variant.title, self._contents_text()))
        self.heading.setText(f"<b>{title}</b><br>{text}")

    def _contents_text(self) -> str:
        """Which rules the file follows: the preset's, or which toggles differ from it."""
        changed = self.variant.changed_options()
        schema = self.variant.schema
        changes = pgettext("list separator", "; ").join(
            _("{name}: {value}").format(name=schema[k].label, value=schema[k].value_label(val))
            for k, val in changed.items())
        if getattr(self, "format", "pdf") != "pdf":
            if not changed:
                return _("A maker's file: the board and its pieces at true scale (no rule sheet).")
            return _("A maker's file: the board and its pieces at true scale, with this game's changes: "
                     "{changes} (no rule sheet).").format(changes=changes)
        if not changed:
            return _("Rule sheet: the preset rules of this game.")
        return _("Rule sheet with this game's changes: {changes}.").format(changes=changes)

    # -------------------------------------------------------------------------- options
    def _balance_choice(self) -> tuple[QCheckBox | None, dict[str, Any] | None]:
        """A box offering the newest finished Rules Lab study of this game for the rule sheet."""

        try:
            from tafl_desktop.gui.rules_lab import studies_folder
            from tafl_desktop.lab.report import summary
            from tafl_desktop.lab.store import finished_studies

            stores = finished_studies(studies_folder(), self.variant.id)
            report = summary(stores[0]) if stores else None
        except ImportError:  # the lab extra is not installed
            report = None
        if report is None:
            return None, None
        games = sum(c["games"] for c in report["cells"])
        box = trn(QCheckBox(), "setText", "Balance chart ({games} game, Rules Lab)",
                  "Balance chart ({games} games, Rules Lab)", "games", games=games)
        tr(box, "setToolTip", "Add the chart of your latest finished Rules Lab study of this game to the rule sheet")
        box.toggled.connect(self._options_changed)
        return box, report

    def options(self) -> PrintOptions:
        """The options as the widgets show them now."""
        parts = tuple(k for k, box in self.part_boxes.items() if box.isChecked())
        with_balance = self.balance_box is not None and self.balance_box.isChecked() and "rules" in parts
        return PrintOptions(
            paper=str(self.paper_combo.currentData()),
            orientation=str(self.orientation_combo.currentData()),
            square_mm=None if self._square_auto else round(self.square_spin.value(), 1),
            parts=parts,
            draught_mm=round(self.draught_spin.value(), 1),
            balance=self.balance_report if with_balance else None,
            tactile=self.tactile_box.isChecked(),
        )

    def _options_changed(self) -> None:
        self._sync_enabled()
        self._timer.start()  # restarts: one rebuild after the last change

    def maker_options(self):
        """The makers' file settings as the widgets show them now (the format must not be pdf)."""
        square = DEFAULT_SQUARE if self._square_auto else round(self.square_spin.value(), 1)
        return self.maker_settings.options(self.format, square).with_changes(
            tactile=self.tactile_box.isChecked() and self.format in MESH_FORMATS)

    def _format_changed(self) -> None:
        """Show the settings the chosen format reads; the save button names the format."""
        self.format = str(self.format_combo.currentData())
        paper = self.format == "pdf"
        for widget in (self.paper_combo, self.orientation_combo):
            self.page_form.setRowVisible(widget, paper)
        self.page_form.setRowVisible(self.tactile_box, self.format not in LASER_FORMATS)
        self.page_box_title()
        self.parts_box.setVisible(paper)
        self.maker_settings.setVisible(not paper)
        self.maker_settings.set_format(self.format)
        self.thumbs.setVisible(paper)
        self.hint.setVisible(paper)
        tr(self.save_button, "setText", "Save as {format}...", format=self.format.upper())
        self._remember_choices()
        self._set_heading()
        self._update_square_default()
        self._options_changed()

    def page_box_title(self) -> None:
        tr(self.page_box, "setTitle", N_("Paper") if self.format == "pdf" else N_("Board and pieces"))

    def _paper_changed(self) -> None:
        self._remember_choices()
        self._update_square_default()
        self._options_changed()

    def _square_edited(self) -> None:
        if self._square_auto:
            self._square_auto = False
            self.square_default.blockSignals(True)
            self.square_default.setChecked(False)
            self.square_default.blockSignals(False)
            self.square_note.hide()
        self._options_changed()

    def _square_default_toggled(self, on: bool) -> None:
        self._square_auto = on
        self._update_square_default()
        self._options_changed()

    def _update_square_default(self) -> None:
        """While "Default size" is on, show the size the printer will choose for this paper, and
        say so when that size tiles the board rather than shrink it below a playable square."""
        page = make_page(str(self.paper_combo.currentData()), str(self.orientation_combo.currentData()))
        tiled = self._square_auto and default_is_tiled(self.variant.geometry, page)
        self.square_note.setVisible(tiled)
        if tiled:
            tr(self.square_note, "setText", "{game} does not fit one page at a playable size: the board is printed "
                                       "with {mm:g} mm squares and tiled over several pages (see the page "
                                       "list below).", game=self.variant.title, mm=Num(TILED_SQUARE))
        if self.format != "pdf":
            self.square_note.hide()
        if not self._square_auto:
            return
        self.square_spin.blockSignals(True)
        self.square_spin.setValue(default_square(self.variant.geometry, page) if self.format == "pdf"
                                  else DEFAULT_SQUARE)
        self.square_spin.blockSignals(False)

    def _sync_enabled(self) -> None:
        if self.format != "pdf":
            self.maker_settings.sync_enabled()
            self.square_spin.setEnabled(True)
            self.square_default.setEnabled(True)
            self.square_label.setEnabled(True)
            return
        parts = {k for k, box in self.part_boxes.items() if box.isChecked()}
        sized = bool(parts & {"board", "pieces", "standees"})
        self.square_spin.setEnabled(sized)
        self.square_default.setEnabled(sized)
        self.square_label.setEnabled(sized)
        self.draught_spin.setEnabled("markers" in parts)
        self.draught_label.setEnabled("markers" in parts)

    # -------------------------------------------------------------------------- rebuild
    @property
    def building(self) -> bool:
        """True while the newest build asked for has not been shown yet."""
        return self._asked != self._shown_build

    def rebuild(self) -> None:
        """Build the set for the current options on a thread; the preview follows when it is done."""
        self._timer.stop()
        if self.format != "pdf":
            self._start_maker()
            return
        self._asked += 1
        number, opts, thumb_px, variant = self._asked, self.options(), self._thumb_px(), self.variant
        signals = self._signals
        self.build_progress.setRange(0, 0)  # busy until the thumbnails are counted
        self.build_progress.show()
        self.save_button.setEnabled(False)
        self.status_label.setText(_("Building the set..."))
        if self._pages is None:  # nothing shown yet: the preview says what is coming
            self.page_view.setPixmap(QPixmap())
            self.page_view.setText(_("Building the set..."))

        def tell(emit: Callable[[], None]) -> None:
            try:
                emit()
            except RuntimeError:
                pass  # the dialog (and its signals) went away meanwhile

        def work() -> None:  # holds no reference to the dialog (see _BuildSignals)
            result = build_set(variant, opts, thumb_px,
                               lambda done, total: tell(lambda: signals.progressed.emit(number, done, total)))
            tell(lambda: signals.built.emit(number, result))

        threading.Thread(target=work, name=f"print-set-{number}", daemon=True).start()

    def rebuild_now(self) -> None:
        """Build the set for the current options at once, on the calling thread (scripts and
        tests that need the result; the dialog itself builds with :meth:`rebuild`)."""
        self._timer.stop()
        if self.format != "pdf":
            self._start_maker()
            return
        self._asked += 1
        self._show_built(self._asked, build_set(self.variant, self.options(), self._thumb_px()))

    def wait_for_build(self) -> None:
        """Let the build running finish (the window keeps answering meanwhile)."""
        from PySide6.QtCore import QEventLoop

        loop = QEventLoop()
        while self.building:
            loop.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)

    def _thumb_px(self) -> int:
        return round(THUMB_BOX * self.devicePixelRatioF())

    def _build_progressed(self, number: int, done: int, total: int) -> None:
        if number == self._asked and total:
            self.build_progress.setRange(0, total)
            self.build_progress.setValue(done)
            self.status_label.setText(_("Drawing the preview: page {done} of {total}...").format(
                done=min(done + 1, total), total=total))

    def _build_done(self, number: int, result: BuiltSet) -> None:
        if number != self._asked or self.format != "pdf":  # a newer build, or another format: out of date
            if result.pages is not None:
                result.pages.close()
            return
        self._show_built(number, result)

    def _show_built(self, number: int, result: BuiltSet) -> None:
        self._close_pages()
        self.thumbs.clear()
        self.pdf_bytes, self.report, self.error = result.pdf_bytes, result.report, result.error
        self.preview_error, self._pages = result.preview_error, result.pages
        self._shown_build = number
        self.build_progress.hide()
        if self._pages is not None:
            self._fill_thumbnails(result.thumbs)
        self._show_state()
        self.preview_updated.emit()

    # -------------------------------------------------------------------- makers' files
    def _start_maker(self) -> None:
        """Build the maker's file in the background; the preview says so until it is done."""
        self._asked += 1  # a PDF build still running is out of date now
        self._shown_build = self._asked
        self.build_progress.hide()
        self._close_pages()
        self.pdf_bytes, self.report, self.error, self.preview_error = None, None, "", ""
        self.maker = None
        self.thumbs.clear()
        self.save_button.setEnabled(False)
        tr(self.status_label, "setText", "Building the {format} file...", format=self.format.upper())
        self._builder.start(self.variant, self.maker_options())

    def _maker_built(self, result: MakerResult) -> None:
        self.maker = result
        self.error = result.error
        self.save_button.setEnabled(result.data is not None)
        self.count_label.setText("")
        if result.data is None:
            self._set_summary("")
            self.page_label.setText("")
            self.page_view.setPixmap(QPixmap())
            self.page_view.setText(self.error)
            self.status_label.setText(f"<span style='color:#b00020'>{self.error}</span>")
        else:
            self._set_summary("\n".join(result.report.lines))
            tr(self.page_label, "setText", FORMAT_LABELS[result.options.format])
            self.status_label.setText("")
            self._show_maker_image()
        self.preview_updated.emit()

    def _show_maker_image(self) -> None:
        if self.maker is None or self.maker.image is None:
            if self.maker is not None and self.maker.data is not None:
                self.page_view.setPixmap(QPixmap())
                tr(self.page_view, "setText", "No preview; the file can still be saved.")
            return
        ratio = self.devicePixelRatioF()
        area = self.scroll_area.viewport().size() - QSize(16, 16)
        pix = QPixmap.fromImage(self.maker.image).scaled(
            QSize(max(120, round(area.width() * ratio)), max(120, round(area.height() * ratio))),
            Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        pix.setDevicePixelRatio(ratio)
        self.page_view.setText("")
        self.page_view.setPixmap(pix)

    def current_bytes(self) -> bytes | None:
        """What "Save" writes: the PDF, or the maker's file (waiting for a build still running)."""
        if self.format == "pdf":
            return self.pdf_bytes
        if self._timer.isActive() or self.maker is None or self.maker.options != self.maker_options():
            from PySide6.QtCore import QEventLoop

            self._timer.stop()
            self._start_maker()  # says "Building..." and greys Save until the file is there
            loop = QEventLoop()
            while self._builder.busy():  # the window keeps answering while a 3D set is built
                loop.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            result = self._builder.wait()  # finished: no wait left
            if result is not None and (self.maker is None or self.maker.options != result.options):
                self._maker_built(result)
        return self.maker.data if self.maker is not None else None

    def _fill_thumbnails(self, images: list[QImage]) -> None:
        assert self._pages is not None and self.report is not None
        ratio = self.devicePixelRatioF()
        self.thumbs.blockSignals(True)
        for i, image in enumerate(images):
            pix = QPixmap.fromImage(image)
            pix.setDevicePixelRatio(ratio)
            item = QListWidgetItem(QIcon(pix), _("{page} · {part}").format(page=i + 1, part=self.part_of_page(i + 1)))
            item.setTextAlignment(Qt.AlignmentFlag.AlignHCenter)
            self.thumbs.addItem(item)
        self.thumbs.blockSignals(False)
        self.thumbs.setCurrentRow(0)

    def part_of_page(self, number: int) -> str:
        """Which part a page (1-based) belongs to, as the thumbnails caption it ("Rule sheet")."""
        if self.report is not None:
            for part, (first, last) in self.report.part_pages.items():
                if first <= number <= last:
                    return _(PART_TEXT[part][0])
        return ""

    def _show_state(self) -> None:
        """Labels, summary and Save button after a rebuild."""
        self.save_button.setEnabled(self.pdf_bytes is not None)
        if self.report is None:
            self.count_label.setText("")
            self.page_label.setText("")
            self._set_summary("")
            self.page_view.setPixmap(QPixmap())
            self.page_view.setText(self.error)
            self.status_label.setText(f"<span style='color:#b00020'>{self.error}</span>")
            return
        n = self.report.pages
        self.count_label.setText(ngettext("{n} page", "{n} pages", n).format(n=n))
        # the page line beside it may be long (a build's progress in German): the count keeps its room
        self.count_label.setMinimumWidth(self.count_label.sizeHint().width())
        self._set_summary(self._summary())
        if self.preview_error:
            self.page_label.setText("")
            self.page_view.setPixmap(QPixmap())
            tr(self.page_view, "setText", "Preview unavailable: {error}.\n\nSaving the PDF still works.",
               error=self.preview_error)
            tr(self.status_label, "setText", "Preview unavailable; the PDF can still be saved.")
        else:
            self.status_label.setText("")
            self._show_current_page()

    def _summary(self) -> str:
        """One line per part: its pages, and for the board its printed size and how it is tiled."""
        assert self.report is not None
        r = self.report
        lines = []
        for part, (first, last) in r.part_pages.items():
            pages = (_("page {first}").format(first=first) if first == last
                     else _("pages {first}–{last}").format(first=first, last=last))
            line = f"{_(PART_TEXT[part][0])}: {pages}"
            if part == "board" and r.board is not None:
                # the playing area, as the board page's own size line gives it (the rim is extra)
                size = _("{w} x {h} mm").format(w=number(r.board.frame.w, 1), h=number(r.board.frame.h, 1))
                if uses_point_spacing(self.variant):
                    text = _("points {mm} mm apart, board {size}")
                else:
                    text = _("squares of {mm} mm, playing area {size}")
                line += "; " + text.format(mm=number(r.square_mm, 1), size=size)
                if r.board.tiled:
                    grid = _("{rows} x {cols}").format(
                        rows=ngettext("{n} row", "{n} rows", r.board.rows).format(n=r.board.rows),
                        cols=ngettext("{n} column", "{n} columns", r.board.cols).format(n=r.board.cols))
                    line += ", " + ngettext("tiled over {n} page ({grid}) after an assembly map",
                                            "tiled over {n} pages ({grid}) after an assembly map",
                                            r.board.rows * r.board.cols).format(
                        n=r.board.rows * r.board.cols, grid=grid)
            lines.append(line + ".")
        return "\n".join(lines)

    def _page_selected(self, row: int) -> None:
        self._show_current_page()

    def _show_current_page(self) -> None:
        if self.format != "pdf":
            self._show_maker_image()
            return
        if self._pages is None or self.report is None:
            return
        row = max(0, self.thumbs.currentRow())
        if row >= len(self._pages):
            return
        tr(self.page_label, "setText", "Page {page} of {n} · {part}",
           page=row + 1, n=len(self._pages), part=self.part_of_page(row + 1))
        ratio = self.devicePixelRatioF()
        area = self.scroll_area.viewport().size() - QSize(16, 16)
        box = QSize(max(120, round(area.width() * ratio)), max(120, round(area.height() * ratio)))
        try:
            image = self._pages.render(row, box)
        except PreviewUnavailable as exc:
            self.preview_error = str(exc)
            self._show_state()
            return
        pix = QPixmap.fromImage(image)
        pix.setDevicePixelRatio(ratio)
        self.page_view.setText("")
        self.page_view.setPixmap(pix)

    def preview_page_size_mm(self, index: int = 0) -> tuple[float, float] | None:
        """Size of a previewed page in mm, as pdfium reads it (None without a preview)."""
        return self._pages.size_mm(index) if self._pages is not None and index < len(self._pages) else None

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._view_timer.start()

    def _close_pages(self) -> None:
        if self._pages is not None:
            self._pages.close()
            self._pages = None

    def done(self, result: int) -> None:
        self._builder.shutdown()
        self._timer.stop()
        self._view_timer.stop()
        self._asked += 1  # a build still running is thrown away when it ends
        self._shown_build = self._asked
        self._close_pages()
        super().done(result)

    # ----------------------------------------------------------------------------- save
    def _folder(self) -> str:
        if self._persist:
            remembered = str(QSettings().value(LAST_FOLDER_KEY, "") or "")
            if remembered and os.path.isdir(remembered):
                return remembered
        if self._start_folder and os.path.isdir(self._start_folder):
            return self._start_folder
        return str(Path.home())

    def suggested_name(self) -> str:
        if self.format != "pdf":
            what = "board" if self.format in ("svg", "dxf") else "pieces"
            return f"{self.variant.id}-{what}.{self.format}"
        opts = self.options()
        return f"{self.variant.id}-{opts.paper}{'-landscape' if opts.orientation == 'landscape' else ''}.pdf"

    def _ready(self) -> None:
        """The set for the current options, built (the preview may still wait for its debounce
        or be building)."""
        if self._timer.isActive():
            self.rebuild()
        self.wait_for_build()
        if self.pdf_bytes is None and not self.error:
            self.rebuild_now()

    def save_pdf(self) -> bool:
        """Ask for a file and write the set (or the maker's file) there; True if it was written."""
        if self.format == "pdf":
            self._ready()  # the preview may still be waiting for its debounce, or building
        if self.current_bytes() is None:
            dialogs.show_error(self, _("Cannot save the set"), self.error or _("The set could not be built."))
            return False
        file_filter = PDF_FILTER if self.format == "pdf" else ";;".join([FILTERS[self.format], dialogs.ALL_FILES])
        path = dialogs.ask_save_path(self, _("Save the printable set"), file_filter,
                                     os.path.join(self._folder(), self.suggested_name()))
        if not path:
            return False
        if not Path(path).suffix:
            path += "." + self.format
        # the dialog stays open: a maker saves PDF, SVG, DXF and STL of one set in a row
        return self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Write the current set to ``path`` atomically; on failure say so and keep the old file."""
        if self.format == "pdf":
            self._ready()
        data = self.current_bytes()
        if data is None:
            dialogs.show_error(self, _("Cannot save the set"), self.error or _("The set could not be built."))
            return False
        try:
            write_atomic(path, data)
        except OSError as exc:
            reason = os_reason(exc)
            dialogs.show_error(self, _("Cannot save the set"), _(
                "The PDF could not be written to\n{path}\n\n{reason}.\n\nNothing was changed there; choose "
                "another folder.").format(path=shown(path), reason=reason) if self.format == "pdf" else _(
                "The file could not be written to\n{path}\n\n{reason}.\n\nNothing was changed there; choose "
                "another folder.").format(path=shown(path), reason=reason))
            return False
        if self._persist:
            QSettings().setValue(LAST_FOLDER_KEY, str(Path(path).resolve().parent))
        tr(self.status_label, "setText", "Saved {path}", path=path)
        return True


def open_print_dialog(window: MainWindow) -> int:
    """File > Print set...: the dialog for the variant (with its toggles) of ``window``'s game.

    ``window`` is the main window: ``window.session.variant`` is printed, the save folder
    starts from the window's own last folder, and a window with ``persist`` False leaves
    QSettings alone.  Returns the dialog's result code.
    """
    dlg = PrintSetDialog(window.session.variant, window, start_folder=window.files.last_dir(), persist=window.persist)
    try:
        return dlg.exec()
    finally:
        dlg.deleteLater()

"""The print dialog's makers' files: the settings of a laser board or 3D-printed pieces, and a
builder that makes the file and its preview off the window's thread.

Why a thread: a set of 3D pieces with a peg board takes up to a second or two to build and to
draw on a loaded machine, and the dialog must stay responsive while the player types a size.
The builder runs :func:`tafl_desktop.printing.maker.render_maker` (the command line's function,
so the preview shows exactly the bytes "Save" writes) in a worker thread and hands the result
back to the window's thread through a queued signal; a result for settings that have changed
since is dropped.  The preview is drawn from the same result: the SVG through Qt's own SVG
renderer (the DXF holds the same plan, drawn the same way), the meshes with the small renderer
of :mod:`tafl_desktop.printing.maker.mesh_view`.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QByteArray, QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.marks import N_
from tafl_desktop.gui.texts import add_item, tr
from tafl_desktop.i18n import _
from tafl_desktop.printing.maker.options import (
    CLEARANCE_RANGE,
    CORNER_RANGE,
    DRAUGHT_RANGE,
    HOLE_RANGE,
    KERF_RANGE,
    LASER_FORMATS,
    MESH_FORMATS,
    MakerOptions,
    has_points,
)

#: What the dialog's format list offers, in order.
FORMAT_LABELS = {
    "pdf": N_("PDF: set on paper"),
    "svg": N_("SVG: laser-cut board"),
    "dxf": N_("DXF: laser-cut board"),
    "stl": N_("STL: 3D-printed pieces"),
    "3mf": N_("3MF: 3D-printed pieces"),
}
FILTERS = {
    "pdf": N_("PDF files (*.pdf)"), "svg": N_("SVG files (*.svg)"), "dxf": N_("DXF files (*.dxf)"),
    "stl": N_("STL files (*.stl)"), "3mf": N_("3MF files (*.3mf)"),
}
HOLE_LABELS = {"cut": N_("Cut holes for pegs"), "engrave": N_("Engrave dimples"), "none": N_("No holes")}
PREVIEW_PIXELS = 1100  # the longer side of the preview picture
WOOD = QColor(232, 216, 184)


def _spin(low: float, high: float, value: float, step: float, decimals: int = 1) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(low, high)
    spin.setDecimals(decimals)
    spin.setSingleStep(step)
    spin.setValue(value)
    tr(spin, "setSuffix", " mm")
    return spin


class MakerSettings(QGroupBox):
    """The settings of the makers' formats, showing only those the chosen format reads."""

    changed = Signal()

    def __init__(self, variant: Any, parent: QWidget | None = None) -> None:
        super().__init__(_("Maker's file"), parent)
        self.variant = variant
        d = MakerOptions()
        self.points = has_points(variant)
        layout = QVBoxLayout(self)
        self.part_boxes: dict[str, QCheckBox] = {}
        #: Each setting's own tip, kept while a greyed one shows why it is greyed.
        self._usual_tips: dict[int, str] = {}
        # every board has a peg board (a board of squares gets a hole at each square's centre);
        # it comes ticked where the command line makes it by default (point-and-line boards)
        parts = [("pieces", _("Pieces")), ("board", _("Peg board"))]
        if variant.traits.ranked_pieces:
            parts.append(("markers", _("Rank markers (discs for stacked draughts)")))
        about = {"pieces": N_("Every piece of the game, with spares, sized to the board"),
                 "board": N_("The board as a printed plate, with a hole or a dimple where each piece stands"),
                 "markers": N_("Discs to lay on stacked draughts, showing each piece's rank")}
        for key, text in parts:
            box = QCheckBox(text)
            tr(box, "setAccessibleDescription", about[key])
            box.setChecked(key == "pieces" or (key == "board" and self.points))
            box.toggled.connect(self.changed)
            layout.addWidget(box)
            self.part_boxes[key] = box
        self.form = QFormLayout()
        layout.addLayout(self.form)
        self.kerf_spin = _spin(*KERF_RANGE, d.kerf_mm, 0.05, 2)
        tr(self.kerf_spin, "setToolTip", "Width your laser burns away: outlines grow and holes shrink by half of it, "
           "so the parts come out at the drawn size")
        self.corner_spin = _spin(*CORNER_RANGE, d.corner_mm, 0.5)
        tr(self.corner_spin, "setToolTip", "Radius of the board's corners; 0 for square corners")
        self.coordinates_box = tr(QCheckBox(), "setText", "Coordinates in the rim")
        self.coordinates_box.setChecked(d.coordinates)
        tr(self.coordinates_box, "setAccessibleDescription", "Letters and numbers of the files and ranks engraved in "
                                                             "the board's rim")
        self.holes_combo = QComboBox()
        for key, label in HOLE_LABELS.items():
            add_item(self.holes_combo, label, key)
        tr(self.holes_combo, "setToolTip", "At each point: a hole for a peg (the pieces get pegs), a shallow dimple "
           "for a round-bottomed piece or a marble, or nothing")
        self.hole_spin = _spin(*HOLE_RANGE, d.hole_mm, 0.5)
        tr(self.hole_spin, "setAccessibleDescription", "Diameter of the holes or dimples; the pieces' pegs are made to "
                                                       "fit")
        self.clearance_spin = _spin(*CLEARANCE_RANGE, d.clearance_mm, 0.5)
        tr(self.clearance_spin, "setToolTip", "Gap between two pieces on neighbouring squares or points: a piece is "
           "the square size less this")
        self.form.addRow(tr(QLabel(), "setText", "Kerf:"), self.kerf_spin)
        self.form.addRow(tr(QLabel(), "setText", "Corner radius:"), self.corner_spin)
        self.form.addRow(self.coordinates_box)
        self.form.addRow(tr(QLabel(), "setText", "Points:"), self.holes_combo)
        self.form.addRow(tr(QLabel(), "setText", "Hole diameter:"), self.hole_spin)
        self.form.addRow(tr(QLabel(), "setText", "Clearance:"), self.clearance_spin)
        self.draught_spin = _spin(*DRAUGHT_RANGE, d.draught_mm, 1.0)
        tr(self.draught_spin, "setToolTip", "Diameter of your draughts: the rank discs are printed to lie on them")
        self.form.addRow(tr(QLabel(), "setText", "Draught diameter:"), self.draught_spin)
        for spin in (self.kerf_spin, self.corner_spin, self.hole_spin, self.clearance_spin, self.draught_spin):
            spin.valueChanged.connect(self.changed)
        self.coordinates_box.toggled.connect(self.changed)
        self.holes_combo.currentIndexChanged.connect(self.changed)
        self.fmt = "svg"

    def set_format(self, fmt: str) -> None:
        """Show what ``fmt`` reads: the laser's kerf, the pieces' clearance, the holes of a
        point-and-line board; the parts only for 3D files."""
        self.fmt = fmt
        laser, mesh = fmt in LASER_FORMATS, fmt in MESH_FORMATS
        for box in self.part_boxes.values():
            box.setVisible(mesh)
        self.form.setRowVisible(self.kerf_spin, laser)
        self.form.setRowVisible(self.holes_combo, self.points or mesh)
        self.form.setRowVisible(self.hole_spin, self.points or mesh)
        self.form.setRowVisible(self.clearance_spin, mesh)
        self.form.setRowVisible(self.draught_spin, mesh and "markers" in self.part_boxes)
        self.sync_enabled()

    def sync_enabled(self) -> None:
        """Grey the settings the file would not read, each saying why in its tip (issue 36: a
        greyed setting with no reason looks broken)."""
        board = self.fmt in LASER_FORMATS or self.part_boxes["board"].isChecked()
        # a board of squares has holes only in its printed peg board
        holed = self.points or (self.fmt in MESH_FORMATS and self.part_boxes["board"].isChecked())
        self._offer(self.holes_combo, holed, _("For the peg board only: tick Peg board above."))
        if holed:
            self._offer(self.hole_spin, self.holes_combo.currentData() != "none",
                        _("No holes: choose holes or dimples under Points to set their diameter."))
        else:
            self._offer(self.hole_spin, False, _("For the peg board only: tick Peg board above."))
        for widget in (self.corner_spin, self.coordinates_box):
            self._offer(widget, board, _("For the peg board only: tick Peg board above."))
        self._offer(self.clearance_spin, self.part_boxes["pieces"].isChecked(),
                    _("For the pieces only: tick Pieces above."))
        markers = self.part_boxes.get("markers")
        self._offer(self.draught_spin, markers is not None and markers.isChecked(),
                    _("For the rank markers only: tick Rank markers above."))

    def _offer(self, widget: QWidget, enabled: bool, why: str) -> None:
        """Enable ``widget``, or grey it with ``why`` before its usual tip."""
        usual = self._usual_tips.setdefault(id(widget), widget.toolTip())
        widget.setEnabled(enabled)
        widget.setToolTip(usual if enabled else f"{why}\n\n{usual}" if usual else why)

    def options(self, fmt: str, square_mm: float) -> MakerOptions:
        parts = None
        if fmt in MESH_FORMATS:
            parts = tuple(k for k, box in self.part_boxes.items() if box.isChecked())
        return MakerOptions(format=fmt, parts=parts, square_mm=square_mm, kerf_mm=round(self.kerf_spin.value(), 2),
                            corner_mm=round(self.corner_spin.value(), 1), coordinates=self.coordinates_box.isChecked(),
                            holes=str(self.holes_combo.currentData()), hole_mm=round(self.hole_spin.value(), 1),
                            clearance_mm=round(self.clearance_spin.value(), 1),
                            draught_mm=round(self.draught_spin.value(), 1))


# ------------------------------------------------------------------------------------ builder
@dataclass
class MakerResult:
    """One build: the file's bytes, what it holds, its preview, or the one-line reason it failed."""

    options: MakerOptions
    data: bytes | None = None
    report: Any = None
    image: QImage | None = None
    error: str = ""


def build(variant: Any, opts: MakerOptions) -> MakerResult:
    """Make the file and its preview (any thread)."""
    from tafl_desktop.printing.maker import MakerError, render_maker

    try:
        data, report = render_maker(variant, opts)
    except MakerError as exc:
        return MakerResult(opts, error=_("Cannot make this: {error}.").format(error=exc))
    except Exception as exc:  # a builder bug must not take the dialog down with it
        return MakerResult(opts, error=_("The file could not be built: {error}").format(error=exc))
    try:
        image = preview_image(data, report)
    except Exception:  # the file is good even if its picture is not
        image = None
    return MakerResult(opts, data, report, image)


def preview_image(data: bytes, report: Any) -> QImage:
    """The picture of a maker's file, PREVIEW_PIXELS on its longer side."""
    if report.format in LASER_FORMATS:
        from PySide6.QtSvg import QSvgRenderer

        from tafl_desktop.printing.maker.svg import plan_to_svg

        svg = data if report.format == "svg" else plan_to_svg(report.plan)
        renderer = QSvgRenderer(QByteArray(svg))
        size = renderer.defaultSize()
        k = PREVIEW_PIXELS / max(size.width(), size.height(), 1)
        image = QImage(max(1, round(size.width() * k)), max(1, round(size.height() * k)), QImage.Format.Format_RGB32)
        image.fill(QColor(138, 138, 138))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(WOOD)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawRect(image.rect())  # the sheet of wood the board is cut from
        renderer.render(painter, QRectF(0, 0, image.width(), image.height()))
        painter.end()
        return image
    from tafl_desktop.printing.maker.mesh_view import render

    parts = []
    for o in report.objects:
        for x, y in o.places:
            parts.append((o.vertices + (x, y, 0.0), o.triangles, o.colour))
    picture = render(parts, (PREVIEW_PIXELS, round(PREVIEW_PIXELS * 0.7)))
    raw = picture.tobytes("raw", "RGB")
    return QImage(raw, picture.width, picture.height, 3 * picture.width, QImage.Format.Format_RGB888).copy()


class MakerBuilder(QObject):
    """Builds in one worker thread; ``finished`` comes back in the window's thread with the newest
    build's result only."""

    finished = Signal(object)
    _done = Signal(int, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="maker")
        self._generation = 0
        self._future: Future | None = None
        self._done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    def start(self, variant: Any, opts: MakerOptions) -> None:
        self._generation += 1
        generation = self._generation
        self._future = self._pool.submit(self._run, generation, variant, opts)

    def _run(self, generation: int, variant: Any, opts: MakerOptions) -> MakerResult:
        result = build(variant, opts)
        self._done.emit(generation, result)
        return result

    def _deliver(self, generation: int, result: MakerResult) -> None:
        if generation == self._generation:
            self.finished.emit(result)

    def busy(self) -> bool:
        return self._future is not None and not self._future.done()

    def wait(self) -> MakerResult | None:
        """The newest build's result, waiting for it if it is still running."""
        return self._future.result() if self._future is not None else None

    def shutdown(self) -> None:
        self._generation += 1  # whatever is running now is no longer wanted
        self._pool.shutdown(wait=False, cancel_futures=True)

"""The rules in force: the variant's description, every active toggle's sentence (grouped as in
the options panel, changed ones marked), its sources and notes.  Generated from the schema, so
the viewer can never disagree with the engine's toggles."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from tafl_desktop.core.variants import Variant
from tafl_desktop.gui.form_labels import describe_buttons
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext


def _board_sentences(variant: Variant) -> list[str]:
    try:
        from tafl_desktop.core.rulebook import board_sentences

        return list(board_sentences(variant))
    except Exception:  # noqa: BLE001 - a family the rulebook does not describe yet
        g = variant.geometry
        return [ngettext("The board has {n} point ({size}).", "The board has {n} points ({size}).", g.size).format(
            n=g.size, size=variant.size_words)]


def rules_html(variant: Variant) -> str:
    """The whole rule sheet as HTML for a QTextBrowser."""
    schema, values = variant.schema, variant.options
    changed = variant.changed_options()
    out = [f"<h2>{escape(variant.title)}</h2>"]
    if variant.description:
        out.append(f"<p><i>{escape(variant.blurb)}</i></p>")
    if changed:
        n = len(changed)
        out.append("<p><b>" + escape(ngettext("{n} rule changed from the preset", "{n} rules changed from the preset",
                                              n).format(n=n)) + "</b> (<span style='color:#b35c00'>&#9679; "
                   + escape(_("changed")) + "</span>).</p>")
    out.append("<h3>" + escape(_("Board")) + "</h3><ul>")
    out += [f"<li>{escape(s)}</li>" for s in _board_sentences(variant)]
    out.append("</ul>")
    for group, specs in schema.groups():
        items = []
        for spec in specs:
            if not schema.is_active(spec.key, values):
                continue
            sentence = spec.sentence(values[spec.key])
            if not sentence:
                continue
            mark = ""
            if spec.key in changed:
                preset = spec.value_label(variant.preset_options.get(spec.key, spec.default))
                mark = (" <span style='color:#b35c00'>&#9679; "
                        + escape(_("changed (preset: {value})").format(value=preset)) + "</span>")
            items.append(f"<li><b>{escape(spec.label)}:</b> {escape(sentence)}{mark}</li>")
        if items:
            out.append(f"<h3>{escape(group)}</h3><ul>" + "".join(items) + "</ul>")
    if variant.sources:
        out.append("<h3>" + escape(_("Sources")) + "</h3><ul>"
                   + "".join(f"<li>{escape(s)}</li>" for s in variant.sources_text) + "</ul>")
    if variant.notes.strip():
        paragraphs = [p for p in variant.notes_text.split("\n\n") if p.strip()]
        out.append("<h3>" + escape(_("Notes")) + "</h3>"
                   + "".join(f"<p>{escape(' '.join(p.split()))}</p>" for p in paragraphs))
    return "\n".join(out)


class RulesViewer(QDialog):
    """A readable, scrollable rule sheet for the game being played."""

    def __init__(self, variant: Variant, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        tr(self, "setWindowTitle", "Rules in force - {game}", game=lambda: variant.title)
        self.browser = QTextBrowser()
        tr(self.browser, "setAccessibleName", "Rules in force")
        tr(self.browser, "setAccessibleDescription", "The rules this game is played under, to read with the arrow keys")
        self.browser.setOpenExternalLinks(False)
        self.browser.setHtml(rules_html(variant))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        describe_buttons(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        fit_size(self, 640, 720)

"""Small facts about a variant that several widgets show: is it a shipped preset, and how do its
rules differ from that preset."""

from __future__ import annotations

from tafl_desktop.core.side_words import in_sentence
from tafl_desktop.core.variants import Variant, presets
from tafl_desktop.i18n import _, ngettext


def is_preset(variant: Variant) -> bool:
    """True for a shipped preset (possibly with changed toggles), False for a variant file."""
    shipped = presets().get(variant.id)
    return shipped is not None and shipped.path == variant.path


def rules_summary(variant: Variant) -> str:
    """'rules as in the preset', '2 rules changed (escape, king armed)' or 'your own rules'."""
    changed = variant.changed_options()
    if changed:
        # a name inside the sentence as the language writes it there (German nouns keep their capital)
        names = ", ".join(in_sentence(variant.schema[k].label) for k in changed)
        return ngettext("{n} rule changed ({names})", "{n} rules changed ({names})", len(changed)).format(
            n=len(changed), names=names)
    return _("rules as in the preset") if is_preset(variant) else _("your own rules")

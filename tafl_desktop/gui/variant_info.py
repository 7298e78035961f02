"""Small facts about a variant that several widgets show: is it a shipped preset, and how do its
rules differ from that preset."""

from __future__ import annotations

from tafl_desktop.core.side_words import in_sentence
from tafl_desktop.core.variants import Variant, presets
from tafl_desktop.i18n import _, ngettext


def shipped_preset(variant: Variant) -> Variant | None:
    """The shipped preset ``variant`` is (possibly with changed toggles), None for a variant file.

    A variant read from the preset's file has the preset's path.  A game record carries its whole
    variant and no path (so a game of the player's own rules opens anywhere): a restored or opened
    game of a preset is known by its rules instead, the preset's family, board, set-up and sides
    under the same name and toggles (issue 36: an unchanged Brandubh restored by Continue your
    last game was called "your own rules")."""
    shipped = presets().get(variant.id)
    if shipped is None:
        return None
    if shipped.path == variant.path:
        return shipped
    same_rules = (variant.family, variant.geometry, variant.setup, tuple(variant.sides), set(variant.options)) == \
        (shipped.family, shipped.geometry, shipped.setup, tuple(shipped.sides), set(shipped.options))
    return shipped if same_rules else None


def is_preset(variant: Variant) -> bool:
    """True for a shipped preset (possibly with changed toggles), False for a variant file."""
    return shipped_preset(variant) is not None


def rules_summary(variant: Variant) -> str:
    """'rules as in the preset', '2 rules changed (escape, king armed)' or 'your own rules'."""
    shipped = shipped_preset(variant)
    base = shipped.options if shipped is not None else variant.preset_options
    changed = {k: v for k, v in variant.options.items() if base.get(k, v) != v}
    if changed:
        # a name inside the sentence as the language writes it there (German nouns keep their capital)
        names = ", ".join(in_sentence(variant.schema[k].label) for k in changed)
        return ngettext("{n} rule changed ({names})", "{n} rules changed ({names})", len(changed)).format(
            n=len(changed), names=names)
    return _("rules as in the preset") if is_preset(variant) else _("your own rules")

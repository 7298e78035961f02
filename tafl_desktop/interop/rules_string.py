"""OpenTafl rules strings, for the interop package's callers.

The parser and writer live in :mod:`tafl_desktop.core.rules_string` because the core itself
accepts a rules string wherever a preset id is (``find_variant("dim:11 ...")``) and the core may
import nothing outside it; this module is where the interop package (and a reader of
docs/ARCHITECTURE.md §1) finds them.
"""

from tafl_desktop.core.rules_string import (
    Export,
    RulesStringError,
    looks_like_rules_string,
    to_rules_string,
    variant_from_rules_string,
)

__all__ = ["Export", "RulesStringError", "looks_like_rules_string", "to_rules_string", "variant_from_rules_string"]

"""The window's capabilities: the modules that each add a menu, a panel or a dialog to the window
through its public API (``install(window)``), and may define ``retranslate(window)`` for texts of
their own making after a language switch.  A module of its own so that the language switch can
walk them without importing the window (which imports it)."""

from __future__ import annotations

#: Modules that add a capability's menus, panels and dialogs to the window: each has
#: ``install(window)``, called once the window's own menus exist (``window.file_menu``,
#: ``game_menu``, ``view_menu``, ``help_menu``).  Each keeps its heavy imports inside its slots.
GUI_CAPABILITIES: tuple[str, ...] = (
    "tafl_desktop.gui.clock_ui",
    "tafl_desktop.gui.game_end",
    "tafl_desktop.gui.rules_lab",
    "tafl_desktop.gui.matches",
    "tafl_desktop.gui.level_record",
    "tafl_desktop.gui.edit_menu",
    "tafl_desktop.gui.position_editor",
    "tafl_desktop.gui.analysis_menu",
    "tafl_desktop.gui.explorer",
    "tafl_desktop.gui.interop_menu",
    "tafl_desktop.gui.learn",
    "tafl_desktop.gui.dablot_panel",
    "tafl_desktop.gui.accessibility",
    "tafl_desktop.gui.sound",
    "tafl_desktop.gui.blind_play",
    "tafl_desktop.gui.board_table",
)

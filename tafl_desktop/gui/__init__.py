"""The desktop window (PySide6).  Nothing here decides a rule: the controller asks the core Game
for legal targets and the board view only reports the player's gestures.

Modules are imported lazily by :mod:`tafl_desktop.gui.app` so the window opens quickly.
"""

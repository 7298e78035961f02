"""Fitting the evaluation's weights to games (Texel's method); see :mod:`tafl_desktop.ai.tuning.texel`.

Kept apart from the search (nothing here runs while a game is played): the tuner reads games,
writes a weights file, and the match tool (``tafl-desktop match``) decides whether the file is kept.
"""

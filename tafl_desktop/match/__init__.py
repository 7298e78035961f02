"""Engine matches without a window: players, one game loop, a match's games and its figures.

:mod:`~tafl_desktop.match.players` turns a ``--player`` text into an agent,
:mod:`~tafl_desktop.match.loop` plays one game between two agents with a clock and adjudication,
:mod:`~tafl_desktop.match.runner` schedules, journals and resumes a match's games, and
:mod:`~tafl_desktop.match.stats` computes W-D-L, Elo with its interval and the SPRT.  No Qt here.
"""

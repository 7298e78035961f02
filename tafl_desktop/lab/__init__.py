"""The rules lab: how much does a rule change who wins?

A *study* plays many computer-against-computer games for each combination of chosen rule values
(a *cell*) and reports who won, with the uncertainty of each figure.  Everything here runs
headless; the window's Rules Lab dialog and ``tafl-desktop lab`` are its two front doors.

- :mod:`.study`: what a study is (variant, toggles to vary, levels, games, seed) and its jobs;
- :mod:`.play`: the pure play-one-game function every back-end runs;
- :mod:`.store`: one JSON line per finished game, so a study resumes where it stopped;
- :mod:`.stats`: Wilson intervals, balance measures, the games a cell needs;
- :mod:`.executors`: a local process pool, or an existing Dask cluster;
- :mod:`.runner`: runs the jobs not yet stored, with progress and cancel;
- :mod:`.charts`: the one chart function (screen, PNG and PDF).
"""

"""The computer opponent: a generic alpha-beta search, per-family evaluation, a worker process.

GUI entry points: :class:`tafl_desktop.ai.worker.AIWorker` (moves, hints and evaluations computed
in a separate process) and :mod:`tafl_desktop.ai.levels` (the level table).  Nothing here imports Qt.
"""

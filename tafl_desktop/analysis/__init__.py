"""Analysis as the command line and the window report it: the ``analyse`` and ``review``
commands (``analysis.cli``), the words for a score ("Defenders win in 3 moves", ``analysis.words``)
and the review's evaluation graph, drawn once for the window, PNG and PDF (``analysis.charts``).

The searching itself is the AI's (``tafl_desktop.ai.analysis``, ``ai.review``); this package only
says what it found.
"""

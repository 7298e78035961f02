"""The game database and the opening explorer's data (issue 39): every game a player has or
imports, searchable by the position on the board.  Headless (no Qt): the window and the command
line use it alike.  ``keys`` folds positions by the board's symmetries, ``store`` is the SQLite
file, ``library`` the shipped games, imports and the journal, ``openings`` the openings' names.
"""

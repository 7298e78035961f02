"""Learning material made from the rules engine: lessons, and puzzles proven by exhaustive search.

Everything here runs headless (no Qt): the window, the command line and the tests share it.
"""

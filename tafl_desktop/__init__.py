"""Tafl Desktop: play and print the old Nordic hunt games (Tafl, Fox games, Dablot)."""

__version__ = "0.1.0"

"""Records and engines in and out: OpenTafl game records and rules strings, hnefatafl.org's
PGN-like files, plain move lists, PlayTaflOnline JSON, and the OpenTafl Engine Protocol as engine
and as host.  Headless: nothing here imports Qt (the window's part is ``gui/interop_menu.py``).
"""

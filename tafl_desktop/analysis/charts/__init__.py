"""Charts drawn with matplotlib: one function per kind of chart, the same drawing for the window
(a Qt canvas), PNG and PDF."""

"""The rules core: pure Python, no Qt and no ReportLab.

Everything else in Tafl Desktop (window, AI, printer, CLI) is a client of this package.
Data flows one way: variant file -> RuleSet (geometry + options) -> engine -> clients.
"""

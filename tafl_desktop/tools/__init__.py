"""Developers' tools, run with ``python -m``: ``tools.i18n_catalogue`` keeps the translation
catalogues in step with the sources.  Nothing here is imported by the app itself."""

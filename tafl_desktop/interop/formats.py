"""One door for every record format: pick the format from the name (or the caller), read, write.

``otg`` OpenTafl record, ``pgn`` hnefatafl.org/playtafl, ``json`` our own record (a PlayTaflOnline
game is recognised by its content when read), ``moves`` a plain move list (its variant named by
the caller).  Writing is atomic, so a failed export never leaves half a file behind.
"""

from __future__ import annotations

from pathlib import Path

from tafl_desktop.core.game import OFF_BOARD_REASONS
from tafl_desktop.core.quoting import listing, shown
from tafl_desktop.core.record_limits import MAX_RECORD_BYTES
from tafl_desktop.i18n import _
from tafl_desktop.interop.transfer import GameTransfer, InteropError, fit_to_limits, json_data

FORMATS = ("otg", "pgn", "json", "moves")
#: File-name endings -> format, longest first.
SUFFIXES = ((".tafl.json", "json"), (".json", "json"), (".otg", "otg"), (".pgn", "pgn"), (".txt", "moves"))
#: The largest file read, of any format (``core.record_limits`` says why).
MAX_BYTES = MAX_RECORD_BYTES


def format_of(path: str | Path, given: str | None = None) -> str:
    """The format named, else the one the file name ends with; InteropError otherwise."""
    if given:
        if given not in FORMATS:
            raise InteropError(_("unknown format '{given}'; formats: {formats}").format(
                given=given, formats=', '.join(FORMATS)))
        return given
    name = Path(path).name.lower()
    for suffix, fmt in SUFFIXES:
        if name.endswith(suffix):
            return fmt
    raise InteropError(_("{name}: cannot tell the format from the name; give --format ({formats}) or use .otg, .pgn, "
                         ".tafl.json or .txt").format(name=shown(Path(path).name), formats=', '.join(FORMATS)))


def read_text(path: str | Path) -> str:
    from tafl_desktop.core.safe_files import read_limited

    p = Path(path)
    try:  # kind and size checked before reading: a FIFO, /dev/zero or a 3 GiB file is refused at once
        raw = read_limited(p, MAX_BYTES)
    except OSError as exc:
        raise InteropError(_("{name}: cannot read the file ({problem})").format(
            name=shown(p.name), problem=shown(exc.strerror or exc, 200))) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InteropError(_("{name}: not a UTF-8 text file").format(name=shown(p.name))) from None


def parse(text: str, fmt: str, where: str, variant=None) -> GameTransfer:
    """A game from text in ``fmt``; ``variant`` is needed by plain move lists (and used by PGN).
    The game is fitted to the limits every record keeps (``transfer.fit_to_limits``), so an
    imported game can be saved and opened again."""
    t = _parse(text, fmt, shown(where), variant)
    fit_to_limits(t, shown(where))
    return t


def _parse(text: str, fmt: str, where: str, variant=None) -> GameTransfer:
    if fmt == "otg":
        from tafl_desktop.interop.otg import read_otg

        return read_otg(text, where)
    if fmt == "pgn":
        from tafl_desktop.interop.pgn import read_pgn

        return read_pgn(text, where, variant)
    if fmt == "moves":
        from tafl_desktop.interop.move_list import read_move_list

        if variant is None:
            raise InteropError(_("{where}: a plain move list does not say its variant; give --variant ID").format(
                where=where))
        return read_move_list(text, variant, where)
    from tafl_desktop.core.record import RecordError, tree_from_data
    from tafl_desktop.interop.pto import looks_like_pto, pto_game

    data = json_data(text, where)
    if looks_like_pto(data):
        return pto_game(data, where)
    try:
        tree = tree_from_data(data, where)
    except RecordError as exc:
        raise InteropError(str(exc)) from None
    return GameTransfer.from_tree(tree, dict(data.get("tags") or {}))


def read_game(path: str | Path, fmt: str | None = None, variant=None) -> GameTransfer:
    fmt = format_of(path, fmt)
    return parse(read_text(path), fmt, Path(path).name, variant)


def render(t: GameTransfer, fmt: str) -> tuple[str, list[str]]:
    """The text of ``t`` in ``fmt`` and the warnings about what that format cannot hold."""
    if not t.game.rules.variant.traits.opentafl and fmt != "json":
        raise InteropError(_("{variant} is not a Tafl game: only Tafl Desktop's own format (.tafl.json) can "
                             "hold it").format(variant=t.game.rules.variant.name))
    warnings: list[str] = []
    if fmt not in ("json", "otg") and t.has_variations():
        warnings.append(_("the variations were left out: only the main line is written"))
    if fmt == "pgn":
        from tafl_desktop.interop.pgn import write_pgn

        text, more = write_pgn(t)
        return text, warnings + more
    if fmt == "otg":
        from tafl_desktop.interop.otg import write_otg

        text, more = write_otg(t)
        return text, warnings + more
    if fmt == "moves":
        from tafl_desktop.interop.move_list import write_move_list

        if t.comments or (t.tree is not None and any(n.comment for n in t.tree.main_line())):
            warnings.append(_("a plain move list has no place for comments; they were left out"))
        if t.tags:
            warnings.append(_("a plain move list has no place for tags; they were left out: {names}").format(
                names=listing(t.tags)))
        if t.game.start != t.game.rules.initial_position():
            warnings.append(_("the game starts from a set-up position, which a plain move list cannot hold"))
        out = t.game.outcome
        if out is not None and out.reason in OFF_BOARD_REASONS:
            warnings.append(_("a plain move list cannot say how the game ended ({outcome})").format(
                outcome=out.describe(t.game.rules.variant)))
        return write_move_list(t), warnings
    from tafl_desktop.core.record import RecordError, record_text

    try:
        return record_text(t.game, t.tags, t.to_tree()), warnings
    except RecordError as exc:
        raise InteropError(str(exc)) from None


def write_game(t: GameTransfer, path: str | Path, fmt: str | None = None) -> list[str]:
    """Write ``t`` to ``path`` atomically; return the warnings (InteropError if it cannot be written)."""
    from tafl_desktop.core.record import atomic_write_text
    from tafl_desktop.core.rules_string import RulesStringError

    p = Path(path)
    try:
        text, warnings = render(t, format_of(p, fmt))
    except RulesStringError as exc:
        raise InteropError(str(exc)) from None
    try:
        atomic_write_text(p, text)
    except OSError as exc:
        raise InteropError(_("cannot write {name}: {problem}").format(
            name=shown(p.name), problem=shown(exc.strerror or exc, 200))) from None
    return warnings

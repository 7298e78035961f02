"""Hostile files imported into the game database (issue 39): real exports of small games in every
format the app reads (.otg, .pgn, .txt move lists, .tafl.json, game tables), damaged the way the
record fuzzer damages them (bytes flipped, lines cut, repeated or swapped, hostile characters,
huge numbers), then imported as one folder.  Every file ends as added, a duplicate, or one line
in the report; nothing raises, nothing hangs; every game taken in replays from the database alone.
"""

from __future__ import annotations

import random
from pathlib import Path

from tafl_desktop.core.game import Game
from tafl_desktop.core.move_list_text import listed_moves, play_listed
from tafl_desktop.core.variants import find_variant, variant_from_data
from tafl_desktop.gamedb.library import import_paths
from tafl_desktop.gamedb.store import GameDb
from tafl_desktop.interop.formats import render
from tafl_desktop.interop.transfer import GameTransfer

GAMES = Path(__file__).resolve().parents[1] / "resources" / "games"
HOSTILE = ["\x00", "\u202e", "\ufeff", "\udc80".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
           "9" * 5000, "x" * 300, "[", "]", "\"", "{", "}", "1.", "...", "\r", "\t", "е1-е3"]


def _games(count: int) -> list[Game]:
    v = find_variant("copenhagen").with_options({"repetition": "allowed"})
    out = []
    for line in (GAMES / "copenhagen.csv").read_text(encoding="utf-8").splitlines():
        moves = " ".join(t for t in line.rsplit(",", 3)[0].split() if t != "timeout")
        if not moves or len(moves.split()) > 30:
            continue
        g = Game(v.make_rules())
        play_listed(g, listed_moves(moves, v.traits))
        out.append(g)
        if len(out) == count:
            return out
    return out


def _damage(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True) or [text]
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        i = rng.randrange(len(lines))
        if kind == 0:
            lines[i] = lines[i][: rng.randint(0, len(lines[i]))]
        elif kind == 1:
            lines.insert(i, lines[i] * rng.randint(2, 50))
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3:
            at = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:at] + rng.choice(HOSTILE) + lines[i][at:]
        elif kind == 4:
            lines[i] = "".join(c if rng.random() > 0.05 else chr(rng.randint(32, 0x2FF)) for c in lines[i])
        else:
            del lines[i]
            if not lines:
                lines = [""]
    return "".join(lines)


def test_damaged_records_in_every_format_end_cleanly(tmp_path):
    rng = random.Random(39)
    folder = tmp_path / "hostile"
    folder.mkdir()
    games = _games(8)
    files = 0
    for n in range(160):
        g = games[n % len(games)]
        fmt, suffix = [("otg", ".otg"), ("pgn", ".pgn"), ("moves", ".txt"), ("json", ".tafl.json")][n % 4]
        text, _warnings = render(GameTransfer(g, {"attackers": "Ann", "defenders": "Bo"}), fmt)
        damaged = text if n < 8 else _damage(text, rng)
        (folder / f"f{n:03}{suffix}").write_bytes(damaged.encode("utf-8", "surrogatepass"))
        files += 1
    table = "\n".join(_damage(line, rng) if i % 2 else line for i, line in enumerate(
        (GAMES / "copenhagen.csv").read_text(encoding="utf-8").splitlines()[:40]))
    (folder / "table.csv").write_text(table, encoding="utf-8", errors="surrogatepass")
    (folder / "empty.otg").write_bytes(b"")
    (folder / "binary.pgn").write_bytes(bytes(range(256)) * 40)

    path = tmp_path / "games.sqlite3"
    variant = find_variant("copenhagen").with_options({"repetition": "allowed"})
    with GameDb(path) as db:
        report = import_paths(db, [folder], variant)
        assert report.added >= 8 + 20  # the undamaged exports and the table's undamaged lines
        assert report.added + report.duplicates + len(report.problems) >= files + 2 + 20
        assert all("\n" not in p and len(p) < 600 for p in report.problems)
        # every game taken in replays from what the database holds, to the same number of moves
        for gid, plies in db.con.execute("SELECT id, plies FROM games").fetchall():
            record = db.game_record(gid)
            assert record is not None
            variant_data, _start, moves, _tags = record
            replayed = Game(variant_from_data(variant_data).make_rules())
            play_listed(replayed, listed_moves(moves, replayed.rules.variant.traits))
            assert len(replayed.plies) == plies

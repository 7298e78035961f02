"""Record the peer engine's answers on sampled Copenhagen positions: tests/data/peer_copenhagen.json.

Usage::

    python benchmarks/make_peer_fixture.py [--games N] [--positions N] [--seed S] [--out PATH]

The peer is pyhnefatafl 0.3.2 (import name ``hnefatafl``).  If this interpreter cannot import it,
the script creates a throwaway venv in a temporary folder, pip-installs the peer there and re-runs
itself in it (standard library only otherwise; it never imports tafl_desktop).

It plays random games from the Copenhagen start with a fixed seed and, for a random sample of the
positions that occur plus the last position of every game won by a king capture or escape (never
one where the game is already over), records in our notation:

* ``p``: the position in row notation, top row (rank 11) first: ``t`` attacker, ``T`` defender,
  ``K`` king, digits for runs of empty squares;
* ``s``: the side to move, ``a`` (attackers, the peer's black) or ``d`` (defenders, white);
* ``m``: every legal move (``e1-e5``: files a.. from the left, ranks from the bottom), grouped by
  origin square: ``"e1-e2,e3 f4-b4"`` stands for e1-e2, e1-e3 and f4-b4 (origins and targets
  sorted);
* ``c``: for each legal move that captures, the captured squares (the peer removes men only);
* ``o``: for each legal move after which the peer's game is over, ``x`` king captured, ``e`` king
  escaped (on a corner) or ``s`` the next side has no legal move; the peer's 100-move limit is
  not applied.

Square numbering: the peer numbers squares ``rank * 11 + file`` from a1 (rank names 1..9, ``+``,
``#``); its board code lists rank 1 first (checked below with an asymmetric position), so the
rows are reversed for our top-row-first notation.  Games mix three move policies so that
captures, king captures and escapes occur often enough: uniformly random; captures preferred;
captures preferred and attackers drawn to the king.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

PEER_PACKAGE = "pyhnefatafl"
PEER_VERSION = "0.3.2"
REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "tests" / "data" / "peer_copenhagen.json"
FILES = "abcdefghijk"
OUR_START = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"


def name(sq: int) -> str:
    return f"{FILES[sq % 11]}{sq // 11 + 1}"


def our_position(board) -> str:
    """Row notation of a peer board, built square by square (top row = rank 11 first)."""
    rows = []
    for rank in range(10, -1, -1):
        row, run = "", 0
        for f in range(11):
            piece = board.piece_at(rank * 11 + f)
            if piece is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            sym = piece.symbol()  # m black attacker, M white defender, K king
            row += "K" if sym.lower() == "k" else ("t" if sym == "m" else "T")
        rows.append(row + (str(run) if run else ""))
    return "/" + "/".join(rows) + "/"


def check_orientation(hn) -> None:
    """The peer's square indices are ours (a1 = 0); its code string lists rank 1 first."""
    board = hn.Board()
    assert our_position(board) == OUR_START, our_position(board)
    assert hn.SQUARE_NAMES[hn.F2] == "F2" and hn.F2 == 5 + 11
    board.push(hn.Move(hn.F2, hn.A2))  # attacker f2 -> a2: asymmetric
    rows = board.board_code().split("/")
    assert rows[1] == "m10" and rows[9] == "5m5", rows  # second row of the code is rank 2
    assert our_position(board).split("/")[10] == "t10"  # our rank 2 is the tenth row from the top
    assert board.turn == hn.WHITE and hn.Board().turn == hn.BLACK  # black (attackers) move first


def analyse(hn, board) -> dict:
    """Legal moves of the side to move, with the captures and game ends each one causes."""
    moves = list(board.legal_moves)
    caps, ends = {}, {}
    for mv in moves:
        before = board.occupied
        board.push(mv)
        after = board.occupied
        text = f"{name(mv.from_square)}-{name(mv.to_square)}"
        gone = before & ~after & ~(1 << mv.from_square)
        if gone:
            caps[text] = " ".join(sorted(name(s) for s in range(121) if gone >> s & 1))
        if board.king_captured():
            ends[text] = "x"
        elif board.king_escaped():
            ends[text] = "e"
        elif not board.legal_moves:
            ends[text] = "s"
        board.pop()
    groups: dict[str, list[str]] = {}
    for mv in moves:
        groups.setdefault(name(mv.from_square), []).append(name(mv.to_square))
    packed = " ".join(f"{frm}-{','.join(sorted(tos))}" for frm, tos in sorted(groups.items()))
    entry = {"p": our_position(board), "s": "a" if board.turn == hn.BLACK else "d", "m": packed}
    if caps:
        entry["c"] = dict(sorted(caps.items()))
    if ends:
        entry["o"] = dict(sorted(ends.items()))
    return entry


def choose(hn, board, moves, policy: str, rng: random.Random):
    if policy != "uniform" and rng.random() < 0.8:
        caps = board._all_capture_moves(board.turn)
        if caps:
            return rng.choice(caps)
    if policy == "hunt" and board.turn == hn.BLACK and rng.random() < 0.5:
        king = (board.kings & -board.kings).bit_length() - 1
        near = [m for m in moves if abs(m.to_square - king) in (1, 11)
                and (abs(m.to_square - king) == 11 or m.to_square // 11 == king // 11)]
        if near:
            return rng.choice(near)
    return moves[int(rng.random() * len(moves))]


def generate(hn, games: int, positions: int, seed: int) -> dict:
    check_orientation(hn)
    rng = random.Random(seed)
    policies = ("uniform", "captures", "hunt")
    # first pass: play the games, keep every position that is not over (code + turn)
    pool: list[tuple[int, int, str]] = []
    decisive: list[int] = []  # pool index of the position before a king capture or escape
    ends = {"king_captured": 0, "king_escaped": 0, "stalemate_or_move_limit": 0}
    for g in range(games):
        board = hn.Board()
        policy = policies[g % 3]
        ply = 0
        while True:
            moves = list(board.legal_moves)
            if not moves:
                ends["stalemate_or_move_limit"] += 1
                break
            pool.append((g, ply, board.get_code()))
            board.push(choose(hn, board, moves, policy, rng))
            ply += 1
            out = board.outcome()
            if out is not None:
                key = {"KING_CAPTURED": "king_captured", "KING_ESCAPED": "king_escaped"}.get(
                    out.termination.name, "stalemate_or_move_limit")
                ends[key] += 1
                if key != "stalemate_or_move_limit":
                    decisive.append(len(pool) - 1)
                break
    randomly = set(rng.sample(range(len(pool)), min(positions, len(pool))))
    sample = sorted(randomly | set(decisive))
    entries = []
    for i in sample:
        board = hn.Board(pool[i][2])
        board.move_limit = 10**9
        entries.append(analyse(hn, board))
    from importlib.metadata import version

    return {
        "peer": f"{PEER_PACKAGE} {version(PEER_PACKAGE)}",
        "made_by": "benchmarks/make_peer_fixture.py",
        "seed": seed,
        "games": games,
        "game_ends": ends,
        "positions_seen": len(pool),
        "positions_sampled_at_random": len(randomly),
        "positions_added_before_decisive_moves": len(sample) - len(randomly),
        "notation": "p: rows top (rank 11) first, t attacker, T defender, K king; s: a|d to move; "
                    "m: all legal moves grouped by origin ('e1-e2,e3' = e1-e2 e1-e3); "
                    "c: move -> captured squares; o: move -> x king captured, e escaped, s next side cannot move",
        "positions": entries,
    }


def dump(data: dict, out: Path) -> None:
    """Compact JSON, one position per line (diff-friendly)."""
    head = {k: v for k, v in data.items() if k != "positions"}
    lines = [json.dumps(e, separators=(",", ":")) for e in data["positions"]]
    text = json.dumps(head, indent=1)[:-2] + ',\n "positions": [\n' + ",\n".join(lines) + "\n ]\n}\n"
    json.loads(text)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    try:
        import hnefatafl as hn
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from peer_compare import make_peer_venv

        with tempfile.TemporaryDirectory(prefix="peer_venv_") as tmp:
            py = make_peer_venv(Path(tmp) / "venv", f"{PEER_PACKAGE}=={PEER_VERSION}")
            argv = sys.argv[1:] if argv is None else argv
            return subprocess.run([str(py), str(Path(__file__).resolve()), *argv]).returncode
    data = generate(hn, args.games, args.positions, args.seed)
    dump(data, args.out)
    n_caps = sum(len(e.get("c", {})) for e in data["positions"])
    n_moves = sum(len(g.split(",")) for e in data["positions"] for g in e["m"].split())
    print(f"{args.out}: {len(data['positions'])} positions from {args.games} games, {n_moves} moves, "
          f"{n_caps} capturing moves, game ends {data['game_ends']}, {args.out.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

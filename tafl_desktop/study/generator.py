"""The puzzle generator: mine candidate positions, keep those with a unique forced win, resume.

``tafl-desktop puzzles generate VARIANT --seconds S`` runs one bounded, resumable pass: it reads
the variant's puzzle set (if any), re-proves the puzzles it holds under the preset's rules (see
:func:`refresh`), skips the games it already scanned, tries the last positions of each further
game with :func:`~tafl_desktop.ai.prover.prove_unique`, and saves the set after every game, so
stopping it loses at most one game's work.  Sources: the real games on record for Copenhagen and
Brandubh (Fetlar's puzzles come from the Copenhagen games: the same board and start), the app's
self-play for every preset, and composed endgames (``--source endgames``: self-play positions
thinned to a few pieces a side, see :func:`~tafl_desktop.study.sources.endgame_candidates`), for
a game whose self-play rarely reaches a forced win of three moves (full Dablot); their puzzles'
``source`` begins ``endgame:``, so a set says which of its puzzles were composed.

Depth first: a game's positions are tried from the furthest back (``back`` plies before its end)
towards the end, and once a puzzle is kept no other position of that game within
:data:`MIN_GAP` plies of it is tried, so one winning line gives one puzzle, its longest (a composed
endgame near a puzzle is another position: it is tried, and kept only when it is longer).  At the
end of a pass :func:`balance` keeps at least half of the set three moves of the winner or longer
(the easiest short puzzles stay, for newcomers) when asked (``--balance``).

Every puzzle is proved under the rules of the preset the puzzle window names.  Real games are
replayed under the rules they were played under (their README: Brandubh's games used a weaker
king and encirclement), only to reach their positions; the proof is the preset's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

from tafl_desktop.ai.prover import prove_unique, prover_engine
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.study.puzzles import PuzzleSet, puzzle_from_proof
from tafl_desktop.study.sources import (
    DEFAULT_KEEP,
    ENDGAME_DRAWS,
    ENDGAME_DRAWS_NATIVE,
    REAL_GAME_FILES,
    Candidate,
    default_games_dir,
    endgame_candidates,
    real_game_candidates,
    selfplay_candidates,
)

#: Default longest forced win searched (plies): three moves of the winner.
DEFAULT_MAX_PLIES = 5
#: Positions a single proof may visit before the candidate is given up as too costly; on the
#: boards where only the move played is tried (:data:`HINT_ONLY_FROM`) that filter keeps the proofs
#: few, and a three-move puzzle of 11x11 needs some 50,000 to prove unique.
DEFAULT_NODE_BUDGET = 30_000
HINTED_NODE_BUDGET = 150_000
#: ... and for composed endgames (few pieces, so a proof that needs more is seldom a puzzle).
ENDGAME_NODE_BUDGET = 10_000
#: ... and with the native prover (the Tafl games and Dablot where it is built; the same meaning:
#: positions expanded by the proof), which settles about a hundred times as many positions per second.
NATIVE_NODE_BUDGET = 500_000
#: Boards of at least this many squares or points try only the move played in the game as the
#: key (see ``hint_only`` in :func:`~tafl_desktop.ai.prover.prove_unique`): 9x9 and up, full Dablot.
HINT_ONLY_FROM = 64
#: Two puzzles of one game are at least this many plies apart.
MIN_GAP = 8
#: Positions before a game's end that are tried.
DEFAULT_BACK = 14
#: Where a preset without record files of its own finds real games: the file of a preset with the
#: same board and start position (its positions are then proved under this preset's rules).
BORROWED_GAMES = {"fetlar": "copenhagen", "copenhagen_org": "copenhagen", "brandubh_federation": "brandubh"}


@dataclass
class Yield:
    """What a run did: positions tried, puzzles kept, seconds spent (this run); and of the puzzles
    the set held, how many were re-proved under the preset's rules and how many no longer hold."""

    variant: str
    scanned: int = 0
    kept: int = 0
    seconds: float = 0.0
    games: int = 0
    reproved: int = 0
    dropped: int = 0

    trimmed: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "games": self.games, "positions_scanned": self.scanned,
                "puzzles_kept": self.kept, "seconds": round(self.seconds, 1), "puzzles_reproved": self.reproved,
                "puzzles_dropped": self.dropped, "puzzles_trimmed": self.trimmed}


#: Positions a re-proof of a puzzle already in the set may visit (as ``puzzles check`` allows).
REFRESH_NODE_BUDGET = 2_000_000


def refresh(pset: PuzzleSet, variant: Variant, result: Yield) -> None:
    """Re-prove every puzzle of the set under ``variant`` (the preset): a puzzle that still has a
    unique forced win is written again from its new proof (main line, tree and rating follow the
    rules in force; id and source kept); one that has not is dropped.  So a set made under other
    rules, or before a rule was corrected, comes to name the rules it is played under."""
    rules = variant.make_rules()
    kept = []
    for pz in pset.puzzles:
        try:
            pos = rules.parse_position(str(pz["position"]), variant.parse_side(str(pz["to_move"])))
            first = rules.parse_move(pos, str(pz["solution"][0]))
        except (ValueError, IndexError):
            result.dropped += 1
            continue
        proof = prove_unique(rules, pos, int(pz["plies"]), max_nodes=REFRESH_NODE_BUDGET, hint=first)
        if proof is None:
            result.dropped += 1
            continue
        fresh = puzzle_from_proof(variant, pos, proof, str(pz.get("source", "")), 0)
        fresh["id"] = pz["id"]
        if "rating" in pz:  # a rating a set already had stays (it may have been tuned)
            fresh["rating"] = pz["rating"]
        kept.append(fresh)
        result.reproved += 1
    pset.puzzles = kept


#: Raised when what a proof decides changes (the prover, the tree's choice of moves, themes).
PROOF_VERSION = 2


def proof_stamp(variant: Variant) -> str:
    """What the set's proofs depend on: the preset's rules in force and :data:`PROOF_VERSION`; a set
    stamped with it is not re-proved on the next pass."""
    import hashlib
    import json

    rules = json.dumps(variant.options, sort_keys=True, default=str)
    return f"{PROOF_VERSION}:{hashlib.sha256(rules.encode()).hexdigest()[:16]}"


def _by_game(cands: Iterator[Candidate]) -> Iterator[list[Candidate]]:
    batch: list[Candidate] = []
    for c in cands:
        if batch and c.game != batch[0].game:
            yield batch
            batch = []
        batch.append(c)
    if batch:
        yield batch


def game_and_ply(source: str) -> tuple[str, int | None]:
    """The game a puzzle's ``source`` names and the ply in it (``brandubh.csv:6 ply 15``)."""
    game, sep, ply = str(source).rpartition(" ply ")
    if not sep or not ply.strip().isdigit():
        return str(source), None
    return game, int(ply)


def _preference(pz: dict[str, Any]) -> tuple[int, int, str]:
    """Which of two close puzzles of one game to keep: the longer, then the harder."""
    return (-int(pz["plies"]), -int(pz["difficulty"]), str(pz["id"]))


def space_out(puzzles: list[dict[str, Any]], gap: int = MIN_GAP) -> list[dict[str, Any]]:
    """The puzzles with no two of one game within ``gap`` plies: of close ones the longest stays."""
    kept: list[dict[str, Any]] = []
    taken: dict[str, list[int]] = {}
    for pz in sorted(puzzles, key=_preference):
        game, ply = game_and_ply(pz.get("source", ""))
        if ply is not None and any(abs(ply - other) < gap for other in taken.get(game, [])):
            continue
        if ply is not None:
            taken.setdefault(game, []).append(ply)
        kept.append(pz)
    order = {id(pz): i for i, pz in enumerate(puzzles)}
    return sorted(kept, key=lambda pz: order[id(pz)])


def is_long(pz: dict[str, Any]) -> bool:
    """Three moves of the winner or more (five plies and up)."""
    return int(pz["plies"]) >= 5


def balance(puzzles: list[dict[str, Any]], newcomer: int = 3) -> list[dict[str, Any]]:
    """At least half of the set long (:func:`is_long`): as many short puzzles stay as there are
    long ones, the ``newcomer`` easiest one-move puzzles first (a new player's start), then the
    two-move ones from the easiest up, then the other one-move ones."""
    long_count = sum(1 for pz in puzzles if is_long(pz))
    short = [pz for pz in puzzles if not is_long(pz)]
    if len(short) <= long_count:
        return list(puzzles)

    def ease(pz: dict[str, Any]) -> tuple[float, str]:
        return (float(pz.get("rating", 0)) or int(pz["difficulty"]) * 300, str(pz["id"]))

    ones = sorted((pz for pz in short if int(pz["plies"]) == 1), key=ease)
    twos = sorted((pz for pz in short if int(pz["plies"]) == 3), key=ease)
    order = ones[:newcomer] + twos + ones[newcomer:]
    keep = {id(pz) for pz in order[:long_count]}
    return [pz for pz in puzzles if is_long(pz) or id(pz) in keep]


def generate(variant_id: str, out: Path, seconds: float, source: str = "auto", back: int = DEFAULT_BACK,
             max_plies: int | None = None, node_budget: int | None = None, limit: int | None = None,
             games_dir: Path | None = None, progress: Callable[[Yield], None] | None = None,
             should_stop: Callable[[], bool] | None = None, balance_set: bool = False,
             keep: tuple[int, int] = DEFAULT_KEEP) -> Yield:
    """Run one bounded pass for ``variant_id`` into the set at ``out``; returns this run's yield.

    ``source``: ``games`` (the record files), ``selfplay``, ``endgames`` (self-play positions
    thinned to at most ``keep`` common pieces for the side to move and the other side), or ``auto``
    (games where the preset has them, self-play otherwise).  Stops after ``seconds``, after
    ``limit`` puzzles in the set, or when ``should_stop()`` says so; with no ``seconds`` it mines
    nothing (the set is only re-proved, spaced out and balanced).  The set is spaced out
    (:func:`space_out`) at the end, and with ``balance_set`` also balanced by :func:`balance`
    (that drops short puzzles: best once mining is done)."""
    from tafl_desktop.core.variants import find_variant

    preset = find_variant(variant_id)
    toggles: dict[str, Any] = {}  # the rules the source games were played under
    games_of = BORROWED_GAMES.get(variant_id, variant_id)
    if source == "auto":
        source = "games" if games_of in REAL_GAME_FILES else "selfplay"
    if source == "games":
        if games_of not in REAL_GAME_FILES:
            raise ValueError(_("no real games on record for {variant_id}: use --source selfplay").format(
                variant_id=variant_id))
        folder = games_dir or default_games_dir()
        if folder is None or not (folder / REAL_GAME_FILES[games_of][0]).is_file():
            raise ValueError(_("the real-game files are not found: pass --games-dir or set TAFL_GAMES_DIR"))
        toggles = REAL_GAME_FILES[games_of][1]
    variant = preset  # every puzzle is proved under the preset's rules, the rules the window names
    rules = variant.make_rules()
    pset = PuzzleSet.load(out) if out.exists() else PuzzleSet.empty(variant_id, out)
    result = Yield(variant_id)
    t0 = time.monotonic()
    stamp = proof_stamp(variant)
    if pset.puzzles and pset.scanned.get("proved_under") != stamp:
        refresh(pset, variant, result)
    pset.scanned["proved_under"] = stamp
    pset.save(out)
    done = set(pset.scanned.get("games", []))
    seen = {pz["position"] + "|" + pz["to_move"] for pz in pset.puzzles}
    taken: dict[str, list[tuple[int, int]]] = {}  # game -> (ply, plies of the puzzle kept there)
    for pz in pset.puzzles:
        game, ply = game_and_ply(pz.get("source", ""))
        if ply is not None:
            taken.setdefault(game, []).append((ply, int(pz["plies"])))
    numbers = [int(pz["id"].rsplit("-", 1)[-1]) for pz in pset.puzzles if pz["id"].rsplit("-", 1)[-1].isdigit()]
    next_number = max(numbers, default=0) + 1
    plies = max_plies or DEFAULT_MAX_PLIES
    # composed endgames: no move was played in them (no hint), a game gives hundreds of unrelated
    # positions (the limits are checked after each, and a longer puzzle may stand near a shorter)
    composed = source == "endgames"
    hint_only = rules.geometry.size >= HINT_ONLY_FROM and not composed
    native = prover_engine(rules) == "native"
    if node_budget is None:
        node_budget = (NATIVE_NODE_BUDGET if native else ENDGAME_NODE_BUDGET if composed
                       else HINTED_NODE_BUDGET if hint_only else DEFAULT_NODE_BUDGET)
    if source == "games":
        played = find_variant(games_of).with_options(toggles)  # replayed as played, only to reach positions
        replay = played.with_options({"repetition": "allowed"}) if "repetition" in played.options else played
        assert folder is not None  # checked above, with the other real-game conditions
        cands = real_game_candidates(replay.make_rules(), folder / REAL_GAME_FILES[games_of][0], back)
    elif source == "endgames":
        cands = endgame_candidates(variant, int(pset.scanned.get("endgame_seed", 0)) + 1, keep,
                                   draws=ENDGAME_DRAWS_NATIVE if native else ENDGAME_DRAWS)
    else:
        cands = selfplay_candidates(variant, int(pset.scanned.get("selfplay_seed", 0)) + 1, back)
    def out_of_time() -> bool:
        return (time.monotonic() - t0 >= seconds or (limit is not None and len(pset.puzzles) >= limit)
                or (should_stop is not None and should_stop()))

    def account() -> None:  # this run's seconds so far into the set's total
        elapsed = time.monotonic() - t0
        pset.scanned["seconds"] = round(float(pset.scanned.get("seconds", 0.0)) + elapsed - result.seconds, 1)
        result.seconds = elapsed

    # a game left halfway is not marked scanned (the next run takes it again, skipping what it kept)
    stopped = False
    for batch in _by_game(cands) if seconds > 0 else ():  # no time: only re-prove, space out, balance
        if batch[0].game in done:
            continue
        for cand in batch:
            if composed and result.scanned and out_of_time():
                stopped = True
                break
            near = [n for ply, n in taken.get(cand.game, []) if abs(cand.ply - ply) < MIN_GAP]
            # a puzzle of this game is already close by; a composed position is another position,
            # so it is still tried where it could be longer (space_out keeps the longer at the end)
            if near and not (composed and max(near) < plies):
                continue
            if hint_only and not cand.winner_to_move:
                continue  # only the move played is tried, and the loser's move rarely wins
            # the replay's rules may differ from the preset's: rebuild the position under the puzzle's rules
            try:
                pos = rules.parse_position(rules.position_text(cand.position), rules.side_to_move(cand.position))
            except ValueError:  # a position the preset's rules cannot hold
                continue
            result.scanned += 1
            key = rules.position_text(pos) + "|" + variant.side_key(rules.side_to_move(pos))
            if key in seen:
                continue
            proof = prove_unique(rules, pos, plies, max_nodes=node_budget, hint=cand.played,
                                 hint_only=hint_only)
            if proof is None or (near and proof.plies <= max(near)):
                continue
            seen.add(key)
            taken.setdefault(cand.game, []).append((cand.ply, proof.plies))
            pset.puzzles.append(puzzle_from_proof(variant, pos, proof, f"{cand.game} ply {cand.ply}", next_number))
            next_number += 1
            result.kept += 1
        if stopped:
            account()
            pset.save(out)
            break
        done.add(batch[0].game)
        result.games += 1
        pset.scanned["games"] = sorted(done)
        pset.scanned["positions"] = int(pset.scanned.get("positions", 0)) + len(batch)
        for kind in ("selfplay", "endgame"):
            if batch[0].game.startswith(kind + ":"):
                pset.scanned[kind + "_seed"] = int(batch[0].game.rsplit("seed", 1)[1])
        account()
        pset.save(out)
        if progress:
            progress(result)
        if out_of_time():
            break
    result.seconds = time.monotonic() - t0
    before = len(pset.puzzles)
    pset.puzzles = space_out(pset.puzzles)
    if balance_set:
        pset.puzzles = balance(pset.puzzles)
    result.trimmed = before - len(pset.puzzles)
    pset.save(out)
    return result

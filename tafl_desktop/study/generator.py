"""The puzzle generator: mine candidate positions, keep those with a unique forced win, resume.

``tafl-desktop puzzles generate VARIANT --seconds S`` runs one bounded, resumable pass: it reads
the variant's puzzle set (if any), re-proves the puzzles it holds under the preset's rules (see
:func:`refresh`), skips the games it already scanned, tries the last positions of each further
game with :func:`~tafl_desktop.study.prover.prove_unique`, and saves the set after every game, so
stopping it loses at most one game's work.  Sources: the real games on record for Copenhagen and
Brandubh, the app's self-play for every preset.

Every puzzle is proved under the rules of the preset the puzzle window names.  Real games are
replayed under the rules they were played under (their README: Brandubh's games used a weaker
king and encirclement), only to reach their positions; the proof is the preset's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tafl_desktop.study.prover import prove_unique
from tafl_desktop.study.puzzles import PuzzleSet, puzzle_from_proof
from tafl_desktop.study.sources import (
    REAL_GAME_FILES,
    Candidate,
    default_games_dir,
    real_game_candidates,
    selfplay_candidates,
)

#: Default longest forced win searched (plies) by board: the exhaustive proof grows with the
#: number of moves per turn, so the big boards stop at 3.
DEFAULT_MAX_PLIES = {"copenhagen": 3, "tablut": 3, "dablot": 3}
#: With the native prover (the Tafl games where it is built) every Tafl board goes to 5 plies: it
#: settles about a hundred times as many positions per second, so forced wins in 5 are found too
#: (with the Python prover 64 % of the puzzles were wins in one).
NATIVE_MAX_PLIES = 5
#: Positions a single proof may visit before the candidate is given up as too costly.
DEFAULT_NODE_BUDGET = 30_000
#: ... and with the native prover (the same meaning: positions expanded by the proof).
NATIVE_NODE_BUDGET = 500_000


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

    def as_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "games": self.games, "positions_scanned": self.scanned,
                "puzzles_kept": self.kept, "seconds": round(self.seconds, 1), "puzzles_reproved": self.reproved,
                "puzzles_dropped": self.dropped}


#: Positions a re-proof of a puzzle already in the set may visit (as ``puzzles check`` allows).
REFRESH_NODE_BUDGET = 2_000_000


def refresh(pset: PuzzleSet, variant: Any, result: Yield) -> None:
    """Re-prove every puzzle of the set under ``variant`` (the preset): a puzzle that still has a
    unique forced win is written again from its new proof (main line, tree and rating follow the
    rules in force; id and source kept); one that has not is dropped.  So a set made under other
    rules, or before a rule was corrected, comes to name the rules it is played under."""
    rules = variant.make_rules()
    kept = []
    for pz in pset.puzzles:
        try:
            pos = rules.parse_position(str(pz["position"]), variant.parse_side(str(pz["to_move"])))
        except ValueError:
            result.dropped += 1
            continue
        proof = prove_unique(rules, pos, int(pz["plies"]), max_nodes=REFRESH_NODE_BUDGET)
        if proof is None:
            result.dropped += 1
            continue
        fresh = puzzle_from_proof(variant, pos, proof, str(pz.get("source", "")), 0)
        fresh["id"] = pz["id"]
        kept.append(fresh)
        result.reproved += 1
    pset.puzzles = kept


def _by_game(cands: Iterator[Candidate]) -> Iterator[list[Candidate]]:
    batch: list[Candidate] = []
    for c in cands:
        if batch and c.game != batch[0].game:
            yield batch
            batch = []
        batch.append(c)
    if batch:
        yield batch


def generate(variant_id: str, out: Path, seconds: float, source: str = "auto", back: int = 6,
             max_plies: int | None = None, node_budget: int | None = None, limit: int | None = None,
             games_dir: Path | None = None, progress: Callable[[Yield], None] | None = None,
             should_stop: Callable[[], bool] | None = None) -> Yield:
    """Run one bounded pass for ``variant_id`` into the set at ``out``; returns this run's yield.

    ``source``: ``games`` (the record files), ``selfplay``, or ``auto`` (games where the preset has
    them, self-play otherwise).  Stops after ``seconds``, after ``limit`` puzzles in the set, or
    when ``should_stop()`` says so."""
    from tafl_desktop.core.variants import find_variant

    preset = find_variant(variant_id)
    toggles: dict[str, Any] = {}  # the rules the source games were played under
    if source == "auto":
        source = "games" if variant_id in REAL_GAME_FILES else "selfplay"
    if source == "games":
        if variant_id not in REAL_GAME_FILES:
            raise ValueError(f"no real games on record for {variant_id}: use --source selfplay")
        folder = games_dir or default_games_dir()
        if folder is None or not (folder / REAL_GAME_FILES[variant_id][0]).is_file():
            raise ValueError("the real-game files are not found: pass --games-dir or set TAFL_GAMES_DIR")
        toggles = REAL_GAME_FILES[variant_id][1]
    variant = preset  # every puzzle is proved under the preset's rules, the rules the window names
    rules = variant.make_rules()
    pset = PuzzleSet.load(out) if out.exists() else PuzzleSet.empty(variant_id, out)
    result = Yield(variant_id)
    t0 = time.monotonic()
    if pset.puzzles:
        refresh(pset, variant, result)
        pset.save(out)
    done = set(pset.scanned.get("games", []))
    seen = {pz["position"] + "|" + pz["to_move"] for pz in pset.puzzles}
    numbers = [int(pz["id"].rsplit("-", 1)[-1]) for pz in pset.puzzles if pz["id"].rsplit("-", 1)[-1].isdigit()]
    next_number = max(numbers, default=0) + 1
    from tafl_desktop.ai.engine import engine_name

    native = engine_name(rules) == "native"
    plies = max_plies or (NATIVE_MAX_PLIES if native else DEFAULT_MAX_PLIES.get(variant_id, 5))
    if node_budget is None:
        node_budget = NATIVE_NODE_BUDGET if native else DEFAULT_NODE_BUDGET
    if source == "games":
        played = preset.with_options(toggles)  # replayed as they were played, only to reach their positions
        replay = played.with_options({"repetition": "allowed"}) if "repetition" in played.options else played
        cands = real_game_candidates(replay.make_rules(), folder / REAL_GAME_FILES[variant_id][0], back)
    else:
        cands = selfplay_candidates(variant, int(pset.scanned.get("selfplay_seed", 0)) + 1, back)
    for batch in _by_game(cands):
        if batch[0].game in done:
            continue
        for cand in batch:
            # the replay's rules may differ from the preset's: rebuild the position under the puzzle's rules
            try:
                pos = rules.parse_position(rules.position_text(cand.position), rules.side_to_move(cand.position))
            except ValueError:  # a position the preset's rules cannot hold
                continue
            result.scanned += 1
            key = rules.position_text(pos) + "|" + variant.side_key(rules.side_to_move(pos))
            if key in seen:
                continue
            proof = prove_unique(rules, pos, plies, max_nodes=node_budget)
            if proof is None:
                continue
            seen.add(key)
            pset.puzzles.append(puzzle_from_proof(variant, pos, proof, f"{cand.game} ply {cand.ply}", next_number))
            next_number += 1
            result.kept += 1
        done.add(batch[0].game)
        result.games += 1
        pset.scanned["games"] = sorted(done)
        pset.scanned["positions"] = int(pset.scanned.get("positions", 0)) + len(batch)
        if batch[0].game.startswith("selfplay:"):
            pset.scanned["selfplay_seed"] = int(batch[0].game.rsplit("seed", 1)[1])
        elapsed = time.monotonic() - t0
        pset.scanned["seconds"] = round(float(pset.scanned.get("seconds", 0.0)) + elapsed - result.seconds, 1)
        result.seconds = elapsed
        pset.save(out)
        if progress:
            progress(result)
        if (elapsed >= seconds or (limit is not None and len(pset.puzzles) >= limit)
                or (should_stop is not None and should_stop())):
            break
    result.seconds = time.monotonic() - t0
    pset.save(out)
    return result

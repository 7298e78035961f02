"""The pure play-one-game function that every back-end (process pool, Dask worker) runs.

Games must be the same wherever they are played, so the computer players search to their
level's node budget and depth cap with the wall-clock ceiling lifted (``TIME_SCALE``): on a busy
or slow worker a time limit would cut a search short and change the game.
"""

from __future__ import annotations

from typing import Any

from tafl_desktop.lab.study import Job

#: Multiplies each level's time ceiling: large enough that only the node budget ever binds.
TIME_SCALE = 1000.0


def play_job(job: Job) -> dict[str, Any]:
    """Play one study game; the result is one line of the results store."""
    import time

    from tafl_desktop.ai.selfplay import play_game
    from tafl_desktop.core.game import Side
    from tafl_desktop.core.variants import variant_from_data

    variant = variant_from_data(job.variant)
    cpu = time.process_time()
    engine = getattr(job, "engine", "python")
    r = play_game(variant, job.attackers, job.defenders, job.seed, max_plies=job.max_plies,
                  time_scale=TIME_SCALE, engines=(engine, engine))
    winner = None if r["winner"] is None else variant.side_key(Side.parse(r["winner"]))
    return {
        "cell": job.cell,
        "game": job.game,
        "seed": job.seed,
        "winner": winner,
        "reason": r["reason"],
        "plies": r["plies"],
        "capped": r["reason"] == "ply_limit",
        "moves": r["moves"],
        "seconds": round(r["seconds"], 3),
        # the worker's own processor time: a machine-independent cost figure on a busy machine
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "engine": r["engines"][0],
    }

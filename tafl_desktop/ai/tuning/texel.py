"""Texel tuning of the Tafl evaluation: fit the winning chance of quiet positions to the games' results.

    python -m tafl_desktop.ai.tuning.texel [--variants copenhagen,brandubh] [--selfplay N] [--cache FOLDER] \
        [--out candidate.toml] [--json]

Texel's method (Peter Österlund's, for his chess engine Texel; described on the Chess Programming
Wiki, "Texel's Tuning Method") treats the static evaluation as a predictor: a position's score ``s``
(defenders' view) gives the defenders a winning chance ``sigmoid(K * s)``, and the weights are set
so that these chances match the results of the games the positions came from (1 a defenders' win,
0 an attackers' win, 1/2 a draw) with the least mean squared error.  Only *quiet* positions count
(nothing the search would resolve at once: no escape in sight, no king capture, no capture of any
soldier for the side to move), so the static score is what the search would see at a leaf.

Why this fits in a few seconds: the Tafl evaluation is linear in its weights (every term is a
weight times a count), so each position is turned once into a vector of term values ``f`` (the
evaluator run with one weight set to :data:`UNIT` and the rest 0), and any weight set then scores it
as ``w . f``.  :func:`linear_check` confirms the linearity on the samples it uses.  The fit itself
is SciPy's L-BFGS-B (a smooth loss with an exact gradient and box bounds on ~20 weights: a
quasi-Newton method converges in a few dozen steps, where the coordinate search of
:mod:`tafl_desktop.ai.tune` would need a match per step).

What stays fixed (:data:`FIXED`): ``attacker`` (the unit of the scale: the levels' error margins are
in hundredths of an attacker, so the scale must not drift), and the tactical flags ``raichi``,
``tuichi`` and ``fork_to_move``, which never fire in a quiet position (the quiet filter removes
exactly the positions where they would), so the games say nothing about them.

Each game is fitted on its own positions, starting from the weights it plays with today, into
its own ``[variants.<id>]`` section: one set fitted to Copenhagen and Brandubh at once lowered the
held-out loss of neither, as the two boards want different things (``benchmarks/README.md``).
``K`` is fitted per source first, with today's weights, and then held (as Texel does), so that a
score keeps the winning chance it had.  Sources (a game's real games that ship in
``resources/games``, and optional self-play games) count equally, whatever their size.  One game in five is
held out: the report gives the loss on the fitted games and on the held-out ones, before and after.
A small pull towards today's weights (``--pull``) keeps terms the games barely inform near their
values.  A fitted set is only a candidate: ``tafl-desktop match`` with ``weights=FILE`` and
``--sprt`` decides whether it plays better (see ``benchmarks/README.md``).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from tafl_desktop.ai.evaluation_tafl import QUIET, TaflEvaluator, TaflWeights, file_weights

if TYPE_CHECKING:
    from tafl_desktop.core.tafl import TaflPosition, TaflRules

#: The weight each term gets when its values are read off (large, so that the evaluator's whole-number
#: divisions lose nothing that matters; the term values are then divided by it).
UNIT = 1000
#: Terms the fit leaves alone (see the module docstring).
FIXED = ("attacker", "raichi", "tuichi", "fork_to_move")
#: One game in this many is held out of the fit.
HOLD_OUT = 5
#: Plies skipped at the start of every game (the opening's positions are alike in every game).
MIN_PLY = 4
#: Results of the real games' records (White = defenders, Black = attackers).
RECORD_RESULTS = {"White": 1.0, "Black": 0.0, "Draw": 0.5}


def term_names() -> list[str]:
    """The evaluation's terms, in :class:`TaflWeights` order (the columns of the feature matrix)."""
    return [f.name for f in fields(TaflWeights)]


@dataclass
class Samples:
    """Quiet positions as term values ``x`` (rows), their games' results ``y`` (defenders' share),
    the game each came from (``game``, numbered across sources) and its source's index (``source``)."""

    x: np.ndarray
    y: np.ndarray
    game: np.ndarray
    source: np.ndarray
    sources: list[str]

    @property
    def size(self) -> int:
        return int(self.y.shape[0])


class TermReader:
    """Turns positions of one rules set into term vectors (one evaluator per term)."""

    def __init__(self, rules: TaflRules) -> None:
        names = term_names()
        zero = dict.fromkeys(names, 0)
        self.rules = rules
        self.evaluators = [TaflEvaluator(rules, TaflWeights(**{**zero, name: UNIT})) for name in names]
        #: Today's evaluator: which positions are quiet.
        self.ev = TaflEvaluator(rules)

    def quiet(self, pos: TaflPosition) -> bool:
        """No decided result, nothing forcing (escape in sight, king capture) and no capture for
        the side to move: the static score is what a search would settle on."""
        if pos.result is not None or pos.king < 0:
            return False
        if self.ev.quick_outcome(pos) is not None:
            return False
        if self.ev.tactics(pos)[0] != QUIET:
            return False
        return not self.ev.capture_moves(pos)

    def terms(self, pos: TaflPosition) -> list[float]:
        """The value of every term in ``pos`` (defenders' view): the score is ``sum(w * f)``."""
        return [ev.defenders_score(pos) / UNIT for ev in self.evaluators]


def linear_check(rules: TaflRules, positions: list[TaflPosition], weights: dict[str, int] | None = None) -> int:
    """The largest difference, over ``positions``, between the evaluator's score with ``weights``
    (today's if None) and the score the term vectors give: 0 or 1 (whole-number division) when
    the evaluation is linear in its weights, as the fit assumes."""
    w = weights or file_weights()
    reader = TermReader(rules)
    ev = TaflEvaluator(rules, TaflWeights.from_dict(w))
    vec = np.array([w[n] for n in term_names()], dtype=float)
    worst = 0
    for pos in positions:
        worst = max(worst, abs(ev.defenders_score(pos) - round(float(np.dot(vec, reader.terms(pos))))))
    return worst


def game_samples(rules: TaflRules, moves: list[str], reader: TermReader | None = None,
                 every: int = 1) -> tuple[list[list[float]], list[TaflPosition]]:
    """Term vectors of the quiet positions of one game (every ``every``-th ply from
    :data:`MIN_PLY` on; a move our rules refuse ends the replay), and the positions themselves."""
    from tafl_desktop.core.game import Game, IllegalMove

    reader = reader or TermReader(rules)
    game = Game(rules)
    rows: list[list[float]] = []
    kept: list[Any] = []
    for i, text in enumerate(moves):
        try:
            game.play_text(text)
        except IllegalMove:
            break
        pos = game.position
        if game.over or rules.outcome(pos) is not None:
            break
        if i + 1 >= MIN_PLY and (i + 1) % every == 0 and reader.quiet(pos):
            rows.append(reader.terms(pos))
            kept.append(pos)
    return rows, kept


def real_games(name: str, limit: int = 0) -> tuple[TaflRules, list[tuple[list[str], float]]]:
    """The rules and the decided games (moves, defenders' result) of the shipped real games of
    ``name`` (see :data:`tafl_desktop.core.real_games.REAL_GAME_FILES`); games lost on time are
    left out (the board did not decide them)."""
    from tafl_desktop.core.real_games import REAL_GAME_FILES, default_games_dir, read_record_lines
    from tafl_desktop.core.variants import find_variant

    file_name, options = REAL_GAME_FILES[name]
    folder = default_games_dir()
    if folder is None:
        raise SystemExit(f"the real games ({file_name}) are not found")
    variant = find_variant(name)
    # the records go on through repeated positions (see resources/games/README.md)
    variant = variant.with_options({**options, "repetition": "allowed"})
    path = folder / file_name
    raw_lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for number, moves, result in read_record_lines(path):
        if result not in RECORD_RESULTS or "timeout" in raw_lines[number - 1]:
            continue
        out.append((moves, RECORD_RESULTS[result]))
        if limit and len(out) >= limit:
            break
    return cast("TaflRules", variant.make_rules()), out  # a Tafl preset


def selfplay_games(name: str, games: int, seed: int = 1,
                   level: str = "medium") -> tuple[TaflRules, list[tuple[list[str], float]]]:
    """``games`` games of ``level`` against itself on the preset ``name`` (native search where
    built; the level's drift varies them), decided ones only (a game cut at the ply cap says
    nothing of who was winning)."""
    from tafl_desktop.ai.selfplay import play_game
    from tafl_desktop.core.variants import find_variant

    variant = find_variant(name)
    out = []
    for k in range(games):
        g = play_game(variant, level, level, seed=seed * 100_003 + k)
        if g["reason"] == "ply_limit":
            continue
        out.append((g["moves"], {"defenders": 1.0, "attackers": 0.0, None: 0.5}[g["winner"]]))
    return cast("TaflRules", variant.make_rules()), out  # a Tafl preset


def collect(sources: list[tuple[str, TaflRules, list[tuple[list[str], float]]]], every: int = 2,
            progress: Callable[[str], None] | None = None) -> Samples:
    """The samples of every source ``(label, rules, games)``."""
    xs: list[list[float]] = []
    ys: list[float] = []
    gid: list[int] = []
    src: list[int] = []
    game_no = 0
    for s, (label, rules, games) in enumerate(sources):
        reader = TermReader(rules)
        for moves, result in games:
            rows, _ = game_samples(rules, moves, reader, every)
            xs.extend(rows)
            ys.extend([result] * len(rows))
            gid.extend([game_no] * len(rows))
            src.extend([s] * len(rows))
            game_no += 1
        if progress:
            progress(f"{label}: {len(games)} games, {sum(1 for v in src if v == s)} quiet positions")
    k = len(term_names())
    return Samples(np.array(xs, dtype=float).reshape(-1, k), np.array(ys, dtype=float), np.array(gid),
                   np.array(src), [label for label, _, _ in sources])


def save_samples(samples: Samples, path: str | Path) -> None:
    np.savez_compressed(path, x=samples.x, y=samples.y, game=samples.game, source=samples.source,
                        sources=np.array(samples.sources), terms=np.array(term_names()))


def load_samples(path: str | Path) -> Samples:
    """Samples saved by :func:`save_samples`; ValueError if their terms are not today's."""
    data = np.load(path)
    if list(data["terms"]) != term_names():
        raise ValueError(f"{path}: saved with other evaluation terms; collect again")
    return Samples(data["x"], data["y"], data["game"], data["source"], [str(s) for s in data["sources"]])


# ------------------------------------------------------------------------------------ the fit
def _sigmoid(z: np.ndarray) -> np.ndarray:
    chance: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))
    return chance


def source_weights(samples: Samples, mask: np.ndarray) -> np.ndarray:
    """Per-sample weights over ``mask`` (summing to 1) under which every source counts equally."""
    a = np.zeros(samples.size)
    present = [s for s in range(len(samples.sources)) if np.any(mask & (samples.source == s))]
    for s in present:
        m = mask & (samples.source == s)
        a[m] = 1.0 / (m.sum() * len(present))
    return a


def loss(samples: Samples, weights: np.ndarray, k: np.ndarray, mask: np.ndarray) -> float:
    """The mean squared error of the predicted chances over ``mask`` (sources counted equally)."""
    a = source_weights(samples, mask)
    p = _sigmoid(k[samples.source] * (samples.x @ weights))
    return float(np.sum(a * (samples.y - p) ** 2))


def fit_k(samples: Samples, weights: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each source's ``K`` (per score unit) that minimises its loss under ``weights``."""
    from scipy.optimize import minimize_scalar

    ks = np.full(len(samples.sources), 1 / 400)
    for s in range(len(samples.sources)):
        m = mask & (samples.source == s)
        if not m.any():
            continue
        scores = samples.x[m] @ weights
        y = samples.y[m]

        def f(log_k: float, scores: np.ndarray = scores, y: np.ndarray = y) -> float:
            return float(np.mean((y - _sigmoid(math.exp(log_k) * scores)) ** 2))
        ks[s] = math.exp(minimize_scalar(f, bounds=(math.log(1e-5), math.log(0.1)), method="bounded").x)
    return ks


def bounds_for(value: int) -> tuple[float, float]:
    """How far a weight may move: within four times its size, and its sign kept unless it is small."""
    span = max(4 * abs(value), 40)
    if value > 0:
        return 0.0, float(span)
    if value < 0:
        return float(-span), 40.0
    return -40.0, 40.0


@dataclass
class FitResult:
    """A fitted weight set and the losses before and after, on the fitted and held-out games."""

    weights: dict[str, int]
    k: dict[str, float]
    train_before: float
    train_after: float
    test_before: float
    test_after: float
    samples: int
    per_source: dict[str, dict[str, float]]
    converged: bool


def fit(samples: Samples, start: dict[str, int] | None = None, pull: float = 1e-4,
        fixed: tuple[str, ...] = FIXED) -> FitResult:
    """Fit the weights (see the module docstring); the result's weights are whole numbers."""
    from scipy.optimize import minimize

    names = term_names()
    w0 = dict(start or file_weights())
    vec0 = np.array([w0[n] for n in names], dtype=float)
    test = samples.game % HOLD_OUT == 0
    train = ~test
    k = fit_k(samples, vec0, train)
    free = [i for i, n in enumerate(names) if n not in fixed and np.any(samples.x[train, i] != 0)]
    scale = np.array([max(abs(vec0[i]), 10.0) for i in free])
    a = source_weights(samples, train)
    kx = k[samples.source][train, None] * samples.x[train]
    y = samples.y[train]
    a = a[train]

    def objective(u: np.ndarray) -> tuple[float, np.ndarray]:
        vec = vec0.copy()
        vec[free] = u * scale
        p = _sigmoid(kx @ vec)
        err = p - y
        value = float(np.sum(a * err ** 2)) + pull * float(np.sum((vec[free] - vec0[free]) ** 2 / scale ** 2))
        grad_w = (2 * a * err * p * (1 - p)) @ kx[:, free]
        grad = grad_w * scale + pull * 2 * (vec[free] - vec0[free]) / scale
        return value, grad

    bounds = [tuple(b / s for b in bounds_for(int(vec0[i]))) for i, s in zip(free, scale, strict=True)]
    res = minimize(objective, vec0[free] / scale, jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 500})
    vec = vec0.copy()
    vec[free] = np.round(res.x * scale)
    fitted = {n: int(vec[i]) for i, n in enumerate(names)}
    per_source = {}
    for s, label in enumerate(samples.sources):
        m = samples.source == s
        per_source[label] = {
            "positions": int(m.sum()), "k": float(k[s]),
            "test_before": loss(samples, vec0, k, m & test), "test_after": loss(samples, vec, k, m & test),
        }
    return FitResult(fitted, {label: float(k[s]) for s, label in enumerate(samples.sources)},
                     loss(samples, vec0, k, train), loss(samples, vec, k, train),
                     loss(samples, vec0, k, test), loss(samples, vec, k, test), samples.size, per_source,
                     bool(res.success))


def weights_text(template: str, weights: dict[str, int] | None = None,
                 variants: dict[str, dict[str, int]] | None = None) -> str:
    """``template`` (a weights file's text) with its ``[weights]`` values replaced by ``weights``
    (None: kept) and its ``[variants.<id>]`` sections by ``variants`` (each variant's values that
    differ from ``[weights]``; None: the template's kept).  The comments, which say what each
    term means, stay."""
    head, sep, tail = template.partition("\n[variants.")
    if weights is not None:
        def repl(m: re.Match[str]) -> str:
            name = m.group(1)
            if name not in weights:
                return m.group(0)
            pad = max(1, len(m.group(2)) + len(m.group(3)) - len(str(weights[name])))
            return f"{name} = {weights[name]}{' ' * pad}"
        head = re.sub(r"^(\w+) = (-?\d+)( *)(?=#|$)", repl, head, flags=re.M)
    if variants is None:
        return head + sep + tail
    text = head.rstrip("\n") + "\n"
    for vid, values in sorted(variants.items()):
        if not values:
            continue
        text += f"\n[variants.{vid}]\n" + "".join(f"{k} = {v}\n" for k, v in values.items())
    return text


VARIANTS_NOTE = """
# A variant's own values, where a fit to that game's positions plays better there (each section
# was kept only after a match against the shared values accepted it: see benchmarks/README.md).
"""


def main(argv: list[str] | None = None) -> int:
    from tafl_desktop.ai.evaluation_tafl import WEIGHTS_FILE, variant_sections
    from tafl_desktop.core.paths import resources_dir

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default="copenhagen,brandubh",
                    help="the games to fit, each on its own games (copenhagen,brandubh)")
    ap.add_argument("--every", type=int, default=1, help="take every N-th ply of a game (1)")
    ap.add_argument("--limit", type=int, default=0, help="at most this many real games per variant (0: all)")
    ap.add_argument("--selfplay", type=int, default=0, help="add this many self-play games per variant (0)")
    ap.add_argument("--selfplay-level", default="medium", help="the level that plays itself (medium)")
    ap.add_argument("--cache", help="a folder: save each variant's samples there, or read them if saved")
    ap.add_argument("--pull", default="copenhagen=1e-3,brandubh=1e-4",
                    help="the pull towards today's weights, per variant (id=value, comma-separated) or one value")
    ap.add_argument("--out", help="write a copy of the weights file with each fitted variant's own section")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        import scipy  # noqa: F401  (the fit's optimiser; a test extra, not needed to play)
    except ImportError:
        raise SystemExit("the tuner needs SciPy: pip install scipy (or the project's test extra)") from None

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    pulls: dict[str, float] = {}
    for item in args.pull.split(","):
        vid, eq, value = item.rpartition("=")
        pulls[vid if eq else ""] = float(value)
    report: dict[str, Any] = {}
    fitted: dict[str, dict[str, int]] = {}
    for name in filter(None, (v.strip() for v in args.variants.split(","))):
        cache = Path(args.cache) / f"{name}.npz" if args.cache else None
        if cache is not None and cache.is_file():
            samples = load_samples(cache)
        else:
            rules, games = real_games(name, args.limit)
            sources = [(f"{name} (real games)", rules, games)]
            if args.selfplay:
                rules, games = selfplay_games(name, args.selfplay, level=args.selfplay_level)
                sources.append((f"{name} (self-play)", rules, games))
            samples = collect(sources, args.every, say)
            if cache is not None:
                cache.parent.mkdir(parents=True, exist_ok=True)
                save_samples(samples, cache)
        before = file_weights(name)
        result = fit(samples, start=before, pull=pulls.get(name, pulls.get("", 1e-4)))
        fitted[name] = result.weights
        report[name] = {
            "samples": result.samples, "sources": result.per_source, "k": result.k,
            "loss_train_before": result.train_before, "loss_train_after": result.train_after,
            "loss_test_before": result.test_before, "loss_test_after": result.test_after,
            "converged": result.converged, "weights_before": before, "weights_after": result.weights,
        }
    if args.out:
        path = resources_dir() / WEIGHTS_FILE
        template = path.read_text(encoding="utf-8")
        shared = file_weights()
        sections = variant_sections(path)
        for name, weights in fitted.items():
            sections[name] = {k: v for k, v in weights.items() if v != shared[k]}
        text = weights_text(template, None, sections)
        if "[variants." in text and "[variants." not in template:
            head, sep, tail = text.partition("\n[variants.")
            text = head + VARIANTS_NOTE + sep + tail
        Path(args.out).write_text(text, encoding="utf-8")
    if args.json:
        print(json.dumps(report))
        return 0
    for name, r in report.items():
        print(f"{name}: {r['samples']} quiet positions; loss (mean squared error) fitted games "
              f"{r['loss_train_before']:.5f} -> {r['loss_train_after']:.5f}, held-out games "
              f"{r['loss_test_before']:.5f} -> {r['loss_test_after']:.5f}")
        for label, src in r["sources"].items():
            print(f"  {label}: {src['positions']} positions, K {src['k']:.5f}, held-out "
                  f"{src['test_before']:.5f} -> {src['test_after']:.5f}")
        for term in term_names():
            if r["weights_before"][term] != r["weights_after"][term]:
                print(f"  {term}: {r['weights_before'][term]} -> {r['weights_after'][term]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Puzzle sets: the data format, loading, difficulty, and re-verification.

A puzzle set is one JSON file per preset in ``resources/puzzles/`` holding the puzzles and the
generator's bookkeeping (games scanned, so a run resumes).  A puzzle is a plain dict with the keys
the command line promises (``puzzles list --json``): ``id``, ``variant``, ``options`` (toggles
that differ from the preset), ``position`` and ``to_move`` (as ``play --position`` reads them),
``goal`` (the outcome reason, as in ``play``'s ``reason``), ``winner``, ``plies``, ``solution``
(the main line, ending in the goal) and ``difficulty`` (1 to 5, see
:mod:`tafl_desktop.study.difficulty`), and ``themes`` (theme ids, :mod:`tafl_desktop.study.themes`,
detected from the solution; computed on loading where a file lacks them); plus ``rating`` (the
puzzle's starting Glicko-2 rating, :mod:`tafl_desktop.study.rating`), ``tree`` (the winner's answer
to every defence, in the compact form of :func:`compact_tree`), ``source`` (the game it came from),
``weak_search`` (depth and nodes the weak search needed) and ``search_nodes`` (positions the
exhaustive proof visited).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tafl_desktop.ai.prover import Proof, main_line, prove_unique
from tafl_desktop.core.game import Game, IllegalMove, P, Position, Rules, Side
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext
from tafl_desktop.core.quoting import json_problem, os_reason, shown

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

FORMAT = 1
#: Largest puzzle file read (the biggest shipped sets, 11x11 and 13x13 with whole solution trees, are
#: 4-6 MB); a FIFO, device or a 20 MB file is refused before it is read (``core.safe_files.read_limited``).
MAX_FILE_BYTES = 16 * 1024 * 1024
#: The set of the player's own games holds puzzles of every variant; a preset's set, that preset's.
MIXED_SET = "my_games"


def is_preset_set(variant: str) -> bool:
    """Is a set named ``variant`` a preset's own (all its puzzles of that preset)?  Sets named
    otherwise (the player's own games, a sample drawn from several sets) may mix variants."""
    from tafl_desktop.core.variants import presets

    return variant in presets()
#: Deepest solution tree followed: a puzzle is at most 99 plies, so a tree has at most 50 levels.
MAX_TREE_DEPTH = 64

#: Keys every listed puzzle has (the ``puzzles list --json`` contract).
LIST_KEYS = ("id", "variant", "options", "position", "to_move", "goal", "winner", "plies", "solution",
             "difficulty")

def puzzles_dir() -> Path:
    from tafl_desktop.core.paths import resources_dir

    return resources_dir() / "puzzles"


class PuzzleError(ValueError):
    """A puzzle file or entry that cannot be used; the message says which and why."""


#: Keys ``puzzles list --json`` adds to :data:`LIST_KEYS`.
LISTED_EXTRAS = ("themes", "rating", "source", "weak_search", "search_nodes")


def puzzle_from_proof(variant: Variant, pos: Position, proof: Proof, source: str, number: int) -> dict[str, Any]:
    from tafl_desktop.study.difficulty import rating, weak_search_effort
    from tafl_desktop.study.rating import initial_puzzle_rating
    from tafl_desktop.study.themes import detect_themes

    rules = variant.make_rules()
    line = main_line(rules, pos, proof.tree)
    effort = weak_search_effort(rules, pos, proof.first, proof.plies)
    end = Game(rules, pos)
    for text in line:
        end.play_text(text)
    assert end.outcome is not None and end.outcome.winner == proof.winner
    difficulty = rating(proof.plies, effort)
    return {
        "id": f"{variant.id}-{number:04d}",
        "variant": variant.id,
        "options": dict(variant.changed_options()),
        "position": rules.position_text(pos),
        "to_move": variant.side_key(proof.winner),
        "goal": end.outcome.reason,
        "winner": variant.side_key(proof.winner),
        "plies": proof.plies,
        "solution": line,
        "difficulty": difficulty,
        "themes": detect_themes(rules, pos, line, proof.tree, end.outcome.reason),
        "rating": initial_puzzle_rating(difficulty, effort.nodes, proof.plies),
        "weak_search": effort.as_dict(),
        "search_nodes": proof.nodes,
        "source": source,
        "tree": proof.tree,
    }


def compact_tree(node: dict[str, Any]) -> Any:
    """The solution tree in the form the files keep: a winning move that ends the game is its
    text; a move that leads on is ``[move, [[replies, answer], ...]]``, the defences that share one
    answer grouped (near the end most defences meet the same final blow, so this is many times
    smaller than one entry per defence)."""
    if node is None or isinstance(node, (str, list)):
        return node  # already compact
    if "move" not in node:
        return None  # a defence that ends the game itself: nothing to answer
    then = node["then"]
    if "replies" not in then:
        return node["move"]
    groups: dict[str, tuple[list[str], Any]] = {}
    for reply, sub in then["replies"].items():
        answer = compact_tree(sub)
        key = json.dumps(answer, separators=(",", ":"))
        groups.setdefault(key, ([], answer))[0].append(reply)
    return [node["move"], [[replies, answer] for replies, answer in groups.values()]]


def expand_tree(node: Any, depth: int = 0) -> dict[str, Any]:  # a file's JSON, checked here
    """The compact tree of a file back as ``{"move", "then": {"replies": {...}} | {"end"}}``
    (PuzzleError for a malformed tree or one deeper than any puzzle's plies allow)."""
    if depth > MAX_TREE_DEPTH:
        raise PuzzleError("the solution tree is malformed")
    if isinstance(node, dict):
        return node
    if node is None:
        return {"end": True}
    if isinstance(node, str):
        return {"move": node, "then": {"end": True}}
    try:
        move, groups = node
        replies = {}
        for names, answer in groups:
            sub = expand_tree(answer, depth + 1)
            for name in names:
                replies[str(name)] = sub
    except (TypeError, ValueError):
        raise PuzzleError(_("the solution tree is malformed")) from None
    return {"move": str(move), "then": {"replies": replies}}


@dataclass
class PuzzleSet:
    """One file of puzzles for one preset, with what the generator has scanned so far."""

    variant: str
    puzzles: list[dict[str, Any]]
    scanned: dict[str, Any]
    path: Path | None = None

    @classmethod
    def empty(cls, variant: str, path: Path | None = None) -> PuzzleSet:
        return cls(variant, [], {"games": [], "positions": 0, "seconds": 0.0, "selfplay_seed": 0}, path)

    @classmethod
    def load(cls, path: str | Path) -> PuzzleSet:
        from tafl_desktop.core.safe_files import read_limited
        from tafl_desktop.i18n import _

        p = Path(path)
        try:
            raw = read_limited(p, MAX_FILE_BYTES)
        except OSError as exc:
            raise PuzzleError(_("cannot read {p}: {why}").format(p=shown(str(p)), why=os_reason(exc))) from None
        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError as exc:  # bad UTF-8, bad JSON, a number of more than 4,300 digits
            raise PuzzleError(_("{p} is not a puzzle file: {exc}").format(p=shown(str(p)), exc=json_problem(exc))) \
                from None
        except RecursionError:
            raise PuzzleError(_("{path} is not a puzzle file: it is nested too deeply").format(
                path=shown(str(p)))) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("puzzles"), list):
            raise PuzzleError(_("{p} is not a puzzle file (format {format} with a puzzles list)").format(
                p=shown(str(p)), format=FORMAT))
        for i, pz in enumerate(data["puzzles"]):
            if not isinstance(pz, dict) or any(k not in pz for k in LIST_KEYS):
                raise PuzzleError(_("{p}: puzzle {n} lacks one of {keys}").format(
                    p=shown(str(p)), n=i + 1, keys=", ".join(LIST_KEYS)))
            if not (_is_int(pz["plies"]) and _is_int(pz["difficulty"]) and isinstance(pz["options"], dict)
                    and all(isinstance(pz[k], str) for k in ("id", "variant", "position", "to_move", "goal", "winner"))
                    and isinstance(pz["solution"], list) and all(isinstance(m, str) for m in pz["solution"])):
                raise PuzzleError(_("{p}: puzzle {n} has a field of the wrong type").format(p=shown(str(p)), n=i + 1))
            themes = pz.get("themes", [])
            if not (isinstance(themes, list) and all(isinstance(t, str) for t in themes)):
                raise PuzzleError(_("{p}: puzzle {n} has a field of the wrong type").format(p=shown(str(p)), n=i + 1))
            if "rating" in pz and not (isinstance(pz["rating"], (int, float)) and not isinstance(pz["rating"], bool)
                                       and 400 <= pz["rating"] <= 4000):
                raise PuzzleError(_("{p}: puzzle {n} has a field of the wrong type").format(p=shown(str(p)), n=i + 1))
        set_variant = str(data.get("variant", p.stem))
        _check_ids_and_variants(p, data["puzzles"], set_variant)
        found = data.get("scanned")
        scanned: dict[str, Any] = found if isinstance(found, dict) else {}
        base = cls.empty(set_variant)
        base.scanned.update(scanned)
        return cls(base.variant, data["puzzles"], base.scanned, p)

    def copy(self) -> PuzzleSet:
        """A set the caller may change without changing this one: its own list, its own puzzle
        dictionaries (what callers set is a puzzle's own key: themes, rating, tree, id) and its
        own scan record."""
        return PuzzleSet(self.variant, [dict(pz) for pz in self.puzzles], copy.deepcopy(self.scanned), self.path)

    def save(self, path: str | Path | None = None) -> None:
        """Write atomically through the app's one safe writer (a temporary file renamed over the old
        one; a link followed, a device or FIFO refused), so a stopped run loses nothing."""
        from tafl_desktop.core.safe_files import write_safely

        target = Path(path or self.path or f"{self.variant}.json")
        target.parent.mkdir(parents=True, exist_ok=True)
        for pz in self.puzzles:
            if "tree" in pz:
                pz["tree"] = compact_tree(pz["tree"])
        data = {"format": FORMAT, "variant": self.variant, "scanned": self.scanned, "puzzles": self.puzzles}
        write_safely(target, json.dumps(data, separators=(",", ":")))
        self.path = target


def _check_ids_and_variants(p: Path, puzzles: list[dict[str, Any]], set_variant: str) -> None:
    """Refuse a set whose puzzles repeat an id (one puzzle checked a thousand times), carry an id
    with control characters (echoed to a terminal), or belong to another variant than the set's
    (a preset's set only): PuzzleError, one line."""
    from tafl_desktop.i18n import _

    seen: set[str] = set()
    preset = is_preset_set(set_variant)
    for i, pz in enumerate(puzzles):
        pid = pz["id"]
        if not pid or any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in pid):
            raise PuzzleError(_("{p}: puzzle {n} has an id with control characters: {id}").format(
                p=shown(str(p)), n=i + 1, id=shown(pid, 60)))
        if pid in seen:
            raise PuzzleError(_("{p}: puzzle {n} repeats the id {id} of an earlier puzzle").format(
                p=shown(str(p)), n=i + 1, id=shown(pid, 60)))
        seen.add(pid)
        if preset and pz["variant"] != set_variant:
            raise PuzzleError(_("{p}: puzzle {n} is a puzzle of {puzzle}, but the set is of {variant}").format(
                p=shown(str(p)), n=i + 1, puzzle=shown(pz["variant"], 40), variant=shown(set_variant, 40)))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 100


#: The shipped sets as last read, by file: some 25 MB of JSON that takes a second or more to
#: parse, which the Learn window, the CLI's list and the puzzle picker each asked for anew.  Each
#: entry carries the file's size and modification time, so a set rewritten (``puzzles generate``)
#: is read again; a caller gets its own lists and puzzle dictionaries (see :meth:`PuzzleSet.copy`).
_SHIPPED: dict[Path, tuple[tuple[int, int], PuzzleSet]] = {}


def shipped_sets(folder: Path | None = None) -> list[PuzzleSet]:
    """Every puzzle set in the resources (or ``folder``), sorted by variant id.  The resources'
    sets are parsed once per process while their files stay as they were (:data:`_SHIPPED`)."""
    d = folder or puzzles_dir()
    if not d.is_dir():
        return []
    if folder is not None:
        return [PuzzleSet.load(p) for p in sorted(d.glob("*.json"))]
    out: list[PuzzleSet] = []
    for p in sorted(d.glob("*.json")):
        try:
            st = p.stat()
        except OSError:
            out.append(PuzzleSet.load(p))  # gone or unreadable: the loader's own one-line error
            continue
        stamp = (st.st_size, st.st_mtime_ns)
        kept = _SHIPPED.get(p)
        if kept is None or kept[0] != stamp:
            kept = (stamp, PuzzleSet.load(p))
            _SHIPPED[p] = kept
        out.append(kept[1].copy())
    return out


def all_puzzles(folder: Path | None = None) -> list[dict[str, Any]]:
    return [pz for s in shipped_sets(folder) for pz in s.puzzles]


def puzzle_themes(puzzle: dict[str, Any]) -> list[str]:
    """The puzzle's theme ids: as stored, or detected from its solution (a file made before
    themes, or by hand); an unreadable solution has only its length theme."""
    from tafl_desktop.study.themes import THEMES, detect_themes, length_theme

    stored = puzzle.get("themes")
    if isinstance(stored, list):
        return [t for t in stored if t in THEMES]
    try:
        _variant, rules, pos = puzzle_start(puzzle)
        tree = expand_tree(puzzle["tree"]) if puzzle.get("tree") is not None else {}
        found = detect_themes(rules, pos, list(puzzle["solution"]), tree, str(puzzle["goal"]))
    except (PuzzleError, ValueError, KeyError, IllegalMove):
        found = [length_theme(int(puzzle.get("plies", 1)))]
    puzzle["themes"] = found
    return found


def puzzle_rating(puzzle: dict[str, Any]) -> float:
    """The puzzle's starting rating: as stored, or from its difficulty."""
    from tafl_desktop.study.rating import initial_puzzle_rating

    value = puzzle.get("rating")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    nodes = (puzzle.get("weak_search") or {}).get("nodes", 0) if isinstance(puzzle.get("weak_search"), dict) else 0
    return initial_puzzle_rating(int(puzzle["difficulty"]), int(nodes or 0), int(puzzle["plies"]))


def puzzle_variant(puzzle: dict[str, Any]) -> Any:
    """The preset with the puzzle's toggles (PuzzleError if either is unknown)."""
    from tafl_desktop.core.variants import VariantError, find_variant

    try:
        return find_variant(str(puzzle["variant"])).with_options(puzzle.get("options") or {})
    except VariantError as exc:
        raise PuzzleError(_("puzzle {id}: {exc}").format(id=_id(puzzle), exc=exc)) from None


def _move(text: object) -> str:
    """A move from a puzzle file for a message, escaped and shortened."""
    from tafl_desktop.core.quoting import clip

    return clip(str(text), 40)


def _id(puzzle: dict[str, Any]) -> str:
    """A puzzle's id for a message (escaped and shortened: a file may hold any text there)."""
    from tafl_desktop.core.quoting import clip

    return clip(str(puzzle.get("id")), 60)


def puzzle_start(puzzle: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(variant, rules, position) of a puzzle; PuzzleError when its position cannot be read."""
    variant = puzzle_variant(puzzle)
    rules = variant.make_rules()
    try:
        pos = rules.parse_position(str(puzzle["position"]), variant.parse_side(str(puzzle["to_move"])))
    except ValueError as exc:
        raise PuzzleError(_("puzzle {id}: {exc}").format(id=_id(puzzle), exc=exc)) from None
    return variant, rules, pos


def check_puzzle(puzzle: dict[str, Any], max_nodes: int = 2_000_000) -> str | None:
    """Re-prove a puzzle from scratch: None when it holds, else the reason it does not.

    It holds when the side to move wins within ``plies`` and not sooner, exactly one first move
    does, that move is the solution's first, the solution plays out legally to ``goal`` with the
    named ``winner``."""
    try:
        variant, rules, pos = puzzle_start(puzzle)
    except PuzzleError as exc:
        return str(exc)
    try:
        hint = rules.parse_move(pos, str(puzzle["solution"][0])) if puzzle["solution"] else None
    except ValueError:
        hint = None  # an unreadable key move: proved without a hint, and reported below
    proof = prove_unique(rules, pos, int(puzzle["plies"]), max_nodes=max_nodes, hint=hint)
    if proof is None:
        return _("no unique forced win within its plies")
    if proof.plies != puzzle["plies"]:
        return ngettext("wins in {plies} ply, not {stated}",
                        "wins in {plies} plies, not {stated}",
                        proof.plies).format(plies=proof.plies, stated=puzzle["plies"])
    solution = list(puzzle["solution"])
    if not solution or rules.move_text(proof.first) != solution[0]:
        return _("the only winning first move is {move}").format(move=rules.move_text(proof.first))
    game = Game(rules, pos)
    try:
        for text in solution:
            game.play_text(text)
    except IllegalMove as exc:
        return _("the solution is not playable: {why}").format(why=exc)
    out = game.outcome
    if out is None or out.reason != puzzle["goal"] or variant.side_key(out.winner) != puzzle["winner"]:
        return _("the solution does not end in its goal")
    if variant.side_key(proof.winner) != puzzle["winner"]:
        return _("the winner is not the side to move")
    if "tree" in puzzle:
        try:
            tree = expand_tree(puzzle["tree"])
        except PuzzleError as exc:
            return str(exc)
        return _check_tree(rules, pos, tree, proof.winner, int(puzzle["plies"]))
    return None


def _check_tree(rules: Rules[P], pos: P, node: dict[str, Any], winner: Side, plies: int) -> str | None:
    """The stored tree answers every defence with legal moves that win within the plies left."""
    if plies < 1:
        return _("the solution tree runs past its plies")
    try:
        move = rules.parse_move(pos, str(node.get("move")))
    except ValueError:
        return _("the solution tree plays {move}, which cannot be read here").format(move=_move(node.get("move")))
    if move not in rules.legal_moves(pos):
        return _("the solution tree plays {move}, which is illegal here").format(move=_move(node.get("move")))
    after = rules.play(pos, move)[0]
    out = rules.outcome(after)
    if out is not None:
        return None if out.winner == winner else _("the solution tree's {move} does not win").format(
            move=_move(node["move"]))
    replies = node["then"].get("replies") or {}
    legal = {rules.move_text(m): m for m in rules.legal_moves(after)}
    if set(replies) != set(legal):
        return _("the solution tree does not answer every defence after {move}").format(move=_move(node["move"]))
    for text, sub in replies.items():
        nxt = rules.play(after, legal[text])[0]
        reply_out = rules.outcome(nxt)
        if reply_out is not None:
            if reply_out.winner != winner:
                return _("the defence {move} ends the game for the defender").format(move=text)
            continue
        why = _check_tree(rules, nxt, sub, winner, plies - 2)
        if why:
            return why
    return None


def filter_puzzles(puzzles: Iterable[dict[str, Any]], variant: str | None = None, family: str | None = None,
                   difficulty_max: int | None = None, difficulty_min: int | None = None) -> list[dict[str, Any]]:
    """Puzzles of one preset or family and within a difficulty range."""
    from tafl_desktop.core.variants import presets

    fam = {vid: v.family for vid, v in presets().items()} if family else {}
    out = []
    for pz in puzzles:
        if variant and pz["variant"] != variant:
            continue
        if family and fam.get(pz["variant"]) != family:
            continue
        if difficulty_max is not None and pz["difficulty"] > difficulty_max:
            continue
        if difficulty_min is not None and pz["difficulty"] < difficulty_min:
            continue
        out.append(pz)
    return out

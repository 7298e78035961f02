"""What every import produces and every export consumes: a game, its tags and its comments.

Comments live in the record's game tree (``core.game_tree``: a comment per move, one on the start
position, variations), so an imported game shows them in the window and our own ``.tafl.json``
keeps them.  Foreign formats without variations get the main line and its comments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tafl_desktop.core.game import OFF_BOARD_REASONS, Game, Outcome, Position, Side
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.move_list_text import ListedMove, MoveListError
from tafl_desktop.core.move_list_text import play_listed as core_play_listed
from tafl_desktop.core.quoting import quote
from tafl_desktop.core.record_limits import (
    MAX_COMMENT,
    MAX_RECORD_BYTES,
    MAX_TAG_NAME,
    MAX_TAG_TEXT,
    MAX_TAGS,
    tree_problem,
)
from tafl_desktop.i18n import _, ngettext

#: Longest text kept in one tag of an imported file (``core.record_limits`` says why).
MAX_TEXT = MAX_TAG_TEXT


class InteropError(ValueError):
    """A file or string in a foreign format that cannot be used; one clear line for the user."""


class OtherRulesError(InteropError):
    """A record that cannot be played under the rules chosen but can under ``fits`` (changes of
    ``variant``'s toggles, :class:`tafl_desktop.core.rule_fit.Fit`): the window offers them."""

    def __init__(self, message: str, variant: Any, fits: list[Any]) -> None:
        super().__init__(message)
        self.variant = variant
        self.fits = fits


@dataclass
class GameTransfer:
    """A game with what a record says about it besides the moves.

    ``comments`` maps a ply number of the main line (0 = the start position) to its comment;
    ``tree``, when the record had one, also holds the variations."""

    game: Game
    tags: dict[str, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    tree: GameTree | None = None

    @classmethod
    def from_tree(cls, tree: GameTree, tags: dict[str, str] | None = None) -> GameTransfer:
        comments = {0: tree.root.comment} if tree.root.comment else {}
        comments.update({n.depth: n.comment for n in tree.main_line() if n.comment})
        return cls(tree.main_game(), dict(tags or {}), comments, tree=tree)

    def has_variations(self) -> bool:
        return self.tree is not None and any(len(n.children) > 1 for n in [self.tree.root, *self.tree.nodes()])

    def to_tree(self) -> GameTree:
        """The record's tree: the one read, or the main line with the comments on it."""
        if self.tree is not None:
            return self.tree
        tree = GameTree.from_game(self.game)
        nodes = [tree.root, *tree.main_line()]
        for n, text in self.comments.items():
            if 0 <= n < len(nodes) and text:
                nodes[n].comment = text
        tree.revision = 0
        return tree


def play_listed(game: Game[Position], moves: list[tuple[str, tuple[str, ...] | None]], where: str, done: int = 0,
                total: int = 0) -> None:
    """Play ``(move text, captures or None)`` pairs; the captures a record lists must be the ones
    our rules make (otherwise the record was played under other rules, and saying so beats
    showing a different game).  ``done`` of ``total`` moves were read before (for the progress
    a background read reports); no game holds more than ``MAX_MOVES``.  The checks are the
    move-list reader's own (:func:`tafl_desktop.core.move_list_text.play_listed`), shared with
    the window's Paste."""
    listed = [ListedMove(text, text, caps) for text, caps in moves]
    before = [tuple(p.move) for p in game.plies]
    try:
        core_play_listed(game, listed, done, total)
    except MoveListError as exc:
        problem = _("{where}: {problem}").format(where=where, problem=exc)
        fits = other_rules(game, before, listed)
        if fits:
            from tafl_desktop.core.rule_fit import other_rules_note

            variant = game.rules.variant
            raise OtherRulesError(f"{problem}. {other_rules_note(variant, fits)}", variant, fits) from None
        raise InteropError(problem) from None


#: Records longer than this are not replayed under other rules to say which rule differs (each
#: toggle value is one replay; a hostile file must not make a refusal slow).  The longest
#: reference game has 341 moves; its refusal took 4.7 s here, about 40 replays, in the background.
MAX_FIT_MOVES = 500


def other_rules(game: Game[Position], before: list[tuple[int, ...]], listed: list[ListedMove]) -> list[Any]:
    """When a record cannot be played under ``game``'s rules, the toggles it can be played
    under (:mod:`tafl_desktop.core.rule_fit`); none when no single change or named reading
    replays it, or the record is too long to try."""
    from tafl_desktop.core.rule_fit import fitting_rules

    if len(before) + len(listed) > MAX_FIT_MOVES:
        return []
    rules = game.rules
    start_text = rules.position_text(game.start)
    to_move = rules.side_to_move(game.start)

    def play(g: Game[Position]) -> None:
        for move in before:
            g.play(move)
        core_play_listed(g, listed)

    return fitting_rules(rules.variant, start_text, to_move, play)


# ------------------------------------------------------------------------------------ endings
#: OpenTafl's ``[result:...]`` values: 1 the attackers won, -1 the defenders, 0 a draw.
RESULT_WINNER = {"1": Side.ATTACKERS, "-1": Side.DEFENDERS, "0": None}
#: Our own tag naming an ending decided off the board exactly (OpenTafl ignores it).
ENDING_TAG = "td-ending"


def result_code(outcome: Outcome | None) -> str:
    """OpenTafl's result value of an outcome (``?`` while the game goes on)."""
    if outcome is None:
        return "?"
    return "0" if outcome.winner is None else "1" if outcome.winner == Side.ATTACKERS else "-1"


def termination_text(outcome: Outcome) -> str:
    """How OpenTafl words an ending decided off the board (PlayTaflOnline games it imports say
    "Attacker resigns", "Defender times out"): English, as OpenTafl itself writes it."""
    loser = "" if outcome.winner is None else "Defender" if outcome.winner == Side.ATTACKERS else "Attacker"
    return {"resigned": f"{loser} resigns", "time": f"{loser} times out", "forfeit": f"{loser} forfeits",
            "draw_agreed": "Draw agreed", "draw_claimed": "Draw claimed after a threefold repetition"}.get(
        outcome.reason, outcome.reason)


def off_board_ending(result: str | None, termination: str | None, exact: str | None = None) -> Outcome | None:
    """The ending a record's tags state when its moves do not end the game: OpenTafl writes a
    resignation as ``[result:-1]`` (and, for games it imported, ``[termination:Attacker resigns]``);
    ``exact`` is our own ``td-ending`` tag.  None when the tags state no ending."""
    result = (result or "").strip()
    if result not in RESULT_WINNER:
        return None
    winner = RESULT_WINNER[result]
    if exact in OFF_BOARD_REASONS and (winner is None) == exact.startswith("draw"):
        return Outcome(winner, exact)
    words = (termination or "").lower()
    if winner is None:
        return Outcome(None, "draw_claimed" if "claim" in words or "repetition" in words else "draw_agreed")
    if "time" in words or "flag" in words:
        return Outcome(winner, "time")
    if "forfeit" in words:
        return Outcome(winner, "forfeit")
    return Outcome(winner, "resigned")


def finish_from_tags(game: Game, tags: dict[str, str], where: str = "",
                     moves: list[tuple[str, tuple[str, ...] | None]] | None = None) -> None:
    """End ``game`` as its ``result``/``termination`` (and ``td-ending``) tags say when its moves
    leave it going on, and drop those tags: the ending now lives in the game.  When the moves end
    the game with another result than the tag states, the record was played under other rules:
    :func:`check_result` refuses it (``moves``, the record's, replay it under other rules)."""
    result = (tags.get("result") or "").strip()
    if result in RESULT_WINNER and moves is not None:
        check_result(game, RESULT_WINNER[result], where,
                     [ListedMove(text, text, caps) for text, caps in moves])
    if game.outcome is None:
        outcome = off_board_ending(tags.get("result"), tags.get("termination"), tags.get(ENDING_TAG))
        if outcome is not None:
            game.finish(outcome)
    if game.outcome is not None:
        for key in ("result", "termination", ENDING_TAG):
            tags.pop(key, None)


def check_result(game: Game[Position], stated: Side | None, where: str, listed: list[ListedMove]) -> None:
    """Refuse a record whose moves end the game, under ``game``'s rules, with another result
    than the one it states (``stated``: the winner, None for a draw): it was played under other
    rules, and showing our ending would misreport the game.  The refusal names both results
    and, like a refused capture, the rules under which the moves, the captures and the stated
    result all hold (:mod:`tafl_desktop.core.rule_fit`).  A stated win where our rules end
    nothing is kept: a record ends by resignation or time as often as on the board."""
    outcome = game.outcome
    if outcome is None or outcome.reason in OFF_BOARD_REASONS or outcome.winner == stated:
        return
    variant = game.rules.variant
    from tafl_desktop.core.rule_fit import stated_words

    problem = _("{where}: the record gives {stated}, but under these rules the game ends at move {move} "
                "({outcome})").format(where=where, stated=stated_words(variant, stated), move=len(game.plies),
                                      outcome=outcome.describe(variant).rstrip("."))
    fits = result_rules(game, stated, listed)
    if fits:
        from tafl_desktop.core.rule_fit import other_rules_note

        raise OtherRulesError(f"{problem}. {other_rules_note(variant, fits)}", variant, fits)
    raise InteropError(problem)


def result_rules(game: Game[Position], stated: Side | None, listed: list[ListedMove]) -> list[Any]:
    """The toggles under which ``listed`` (the record's moves from ``game``'s start) replays and
    its last move ends the game with the stated result; failing those, the toggles under which
    the game goes on at the end (the stated result then a resignation or a loss on time)."""
    from tafl_desktop.core.rule_fit import fitting_rules

    if len(listed) > MAX_FIT_MOVES:
        return []
    rules = game.rules

    def ends_so(g: Game[Position]) -> None:
        core_play_listed(g, listed)
        if g.outcome is None or g.outcome.winner != stated:
            raise ValueError("another result")

    def goes_on(g: Game[Position]) -> None:
        core_play_listed(g, listed)
        if g.outcome is not None:
            raise ValueError("another result")

    start_text, to_move = rules.position_text(game.start), rules.side_to_move(game.start)
    return (fitting_rules(rules.variant, start_text, to_move, ends_so)
            or fitting_rules(rules.variant, start_text, to_move, goes_on))


# ------------------------------------------------------------------------------------ limits
def fit_to_limits(t: GameTransfer, where: str) -> None:
    """Make an imported game one the app can keep (``core.record_limits``): over-long comments
    and tags are shortened and extra tags left out, each said in a warning; a game still too
    large (too many moves, comments too long in all) is refused with InteropError."""
    tree = t.to_tree()
    t.tree = tree
    shortened = 0
    for node in [tree.root, *tree.nodes()]:
        if len(node.comment) > MAX_COMMENT:
            node.comment = node.comment[:MAX_COMMENT]
            shortened += 1
    if shortened:
        t.warnings.append(ngettext("{n} comment was longer than {limit} characters and was shortened",
                                   "{n} comments were longer than {limit} characters and were shortened",
                                   shortened).format(
            n=shortened, limit=MAX_COMMENT))
        t.comments = {k: (v[:MAX_COMMENT]) for k, v in t.comments.items()}
    tags: dict[str, str] = {}
    for key, value in t.tags.items():
        if not key or len(key) > MAX_TAG_NAME:
            t.warnings.append(ngettext("the tag {name} was left out: its name is longer than {n} character",
                                         "the tag {name} was left out: its name is longer than {n} characters",
                                         MAX_TAG_NAME).format(
                name=quote(key), n=MAX_TAG_NAME))
            continue
        if len(tags) == MAX_TAGS:
            t.warnings.append(ngettext("only the first {n} tag was kept", "only the first {n} tags were kept",
                                         MAX_TAGS).format(n=MAX_TAGS))
            break
        if len(value) > MAX_TAG_TEXT:
            t.warnings.append(ngettext("the tag {name} was shortened to {n} character",
                                         "the tag {name} was shortened to {n} characters", MAX_TAG_TEXT).format(
                name=quote(key), n=MAX_TAG_TEXT))
            value = value[:MAX_TAG_TEXT]
        tags[key] = value
    t.tags = tags
    problem = tree_problem(tree)
    if problem:
        raise InteropError(_("{where}: {problem}").format(where=where, problem=problem))


# ------------------------------------------------------------------------------------ JSON
def json_data(text: str, where: str) -> Any:
    """The JSON document in ``text``; InteropError (one line) for text that is none, or one past the
    parser's limits (nested 100,000 deep, a number of 5,000 digits)."""
    from tafl_desktop.core.record import RecordError, parse_record_text

    if len(text) > MAX_RECORD_BYTES:
        raise InteropError(ngettext("{where}: larger than the {limit} byte a game record may have",
                                    "{where}: larger than the {limit} bytes a game record may have",
                                    MAX_RECORD_BYTES).format(where=where, limit=MAX_RECORD_BYTES))
    try:
        return parse_record_text(text.encode("utf-8", "surrogatepass"), where)
    except RecordError as exc:
        raise InteropError(str(exc)) from None

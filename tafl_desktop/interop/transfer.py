"""What every import produces and every export consumes: a game, its tags and its comments.

Our own record (``.tafl.json``) has tags but no comment field yet, so comments travel in tags
named ``comment.N`` (N = the ply the comment follows, 0 = before the first move); the formats
that have comments (OpenTafl's ``.otg``) read and write them from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tafl_desktop.core.game import Game, IllegalMove
from tafl_desktop.i18n import _

COMMENT_TAG = "comment."
#: Longest text accepted in one tag or comment of an imported file.
MAX_TEXT = 4000


class InteropError(ValueError):
    """A file or string in a foreign format that cannot be used; one clear line for the user."""


@dataclass
class GameTransfer:
    """A game with what a record says about it besides the moves."""

    game: Game
    tags: dict[str, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def record_tags(self) -> dict[str, str]:
        """Tags for our own record: the tags plus the comments as ``comment.N``."""
        out = {k: v for k, v in self.tags.items() if not k.startswith(COMMENT_TAG)}
        out.update({f"{COMMENT_TAG}{n}": text for n, text in sorted(self.comments.items()) if text})
        return out

    @classmethod
    def from_record(cls, game: Game, tags: dict[str, str]) -> GameTransfer:
        plain = {k: v for k, v in tags.items() if not k.startswith(COMMENT_TAG)}
        comments = {}
        for k, v in tags.items():
            if k.startswith(COMMENT_TAG) and k[len(COMMENT_TAG):].isdigit():
                comments[int(k[len(COMMENT_TAG):])] = v
        return cls(game, plain, comments)


def play_listed(game: Game, moves: list[tuple[str, tuple[str, ...] | None]], where: str) -> None:
    """Play ``(move text, captures or None)`` pairs; the captures a record lists must be the ones
    our rules make (otherwise the record was played under other rules, and saying so beats
    showing a different game)."""
    g = game.rules.variant.geometry
    for i, (text, listed) in enumerate(moves, 1):
        if game.over:
            raise InteropError(_("{where}: move {i} ({text}) comes after the end of the game ({outcome})").format(
                where=where, i=i, text=text, outcome=game.outcome.describe(game.rules.variant)))
        try:
            ply = game.play_text(text)
        except IllegalMove as exc:
            raise InteropError(_("{where}: move {i} ({text}) cannot be played: {problem}").format(
                where=where, i=i, text=text, problem=exc)) from None
        if listed is not None:
            ours = sorted(g.name(s) for s in ply.captures)
            if sorted(listed) != ours:
                nothing = _("nothing")
                raise InteropError(_("{where}: move {i} ({text}) captures {listed} in the record but {ours} under "
                                     "these rules").format(where=where, i=i, text=text,
                                                           listed=", ".join(listed) or nothing,
                                                           ours=", ".join(ours) or nothing))

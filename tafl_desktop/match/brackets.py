"""The World Tafl Federation's group stage and knock-out, and double elimination: who meets whom.

Pure functions over player indices (no Qt); :mod:`tafl_desktop.match.tournament` keeps the
rounds and results and calls these to pair the next round.

* **Groups seeded by rating** ("snake" seeding, as the WTF seeds its championship groups: the
  top seeds go one to a group, the next seeds back the other way, so the groups are even): seed
  ``k`` (0 the highest rated) goes to group ``k mod G`` on an even pass and ``G-1-(k mod G)`` on an
  odd one.  Each group plays a round robin; two qualify per group by the tournament's
  tie-breaks.
* **Knock-out of the qualifiers**: each group's winner meets the runner-up of the next group
  (A1-B2, B1-A2 for two groups; A1-B2, B1-C2, C1-A2 for three), so no one meets their own
  group again in the first knock-out round; then the winners of tables 1 and 2, 3 and 4, ...;
  an odd one out waits a round.
* **Double elimination**: nobody is out until they have lost two matches.  Each round the players
  without a loss (the winners' bracket) are paired among themselves, and those with one loss
  (the losers' bracket) among themselves, by seed, avoiding a rematch where one is possible;
  when one player is left in each bracket they meet in the grand final, and if the winners'
  bracket's player loses it, both have one loss and they play again (the "bracket reset").
* A match (pairing) is won on points; a tied one (1-1, or a draw in a one-game pairing) goes
  to the player with the shorter win in it, then to the higher seed.  Clubs that play a
  deciding game instead enter it as the next round's result by hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from tafl_desktop.i18n import _


def snake_groups(ratings: Sequence[int], groups: int) -> list[list[int]]:
    """The players (indices) of each group, seeded by rating (ties: the earlier entry first)."""
    seeds = sorted(range(len(ratings)), key=lambda i: (-ratings[i], i))
    out: list[list[int]] = [[] for _g in range(groups)]
    for k, player in enumerate(seeds):
        row, col = divmod(k, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(player)
    return out


def group_letter(g: int) -> str:
    """A, B, C ... (the WTF's group names)."""
    return chr(ord("A") + g) if g < 26 else f"G{g + 1}"


def stage_text(stage: str) -> str:
    """A pairing's stage for a reader: "group A", "knock-out", "winners' bracket" ..."""
    if stage.startswith("group:"):
        return _("group {letter}").format(letter=group_letter(int(stage[6:])))
    return {"knockout": _("knock-out"), "winners": _("winners' bracket"), "losers": _("losers' bracket"),
            "final": _("grand final")}.get(stage, "")


def first_knockout(qualified: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Group winners against the next group's runners-up: ``qualified[g] = (winner, runner-up)``."""
    n = len(qualified)
    if n == 1:
        return [qualified[0]]
    return [(qualified[g][0], qualified[(g + 1) % n][1]) for g in range(n)]


def next_knockout(winners: Sequence[int]) -> tuple[list[tuple[int, int]], list[int]]:
    """The next knock-out round from the last round's winners in table order: the pairs and who
    waits (an odd one out, the last)."""
    pairs = [(winners[k], winners[k + 1]) for k in range(0, len(winners) - 1, 2)]
    waiting = [winners[-1]] if len(winners) % 2 else []
    return pairs, waiting


def pair_bracket(players: Sequence[int], met: set[frozenset[int]]) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair ``players`` (in seed order) top half against bottom half (1-n, 2-(n-1), ...) where that
    is no rematch, else the next one up they have not met; an odd one out (the lowest seed)
    waits.  Returns the pairs and who waits."""
    left = list(players)
    waiting: list[int] = []
    if len(left) % 2:
        waiting.append(left.pop())
    pairs: list[tuple[int, int]] = []
    while left:
        top = left.pop(0)
        partner = next((j for j in reversed(left) if frozenset((top, j)) not in met), left[-1])
        left.remove(partner)
        pairs.append((top, partner))
    return pairs, waiting

"""hnefatafl.org's "the king can't escape" win for the attackers (option ``cant_escape``).

hnefatafl.org ends a game for the attackers, after any move that leaves it going on, when its
test ``Board::can_not_escape`` says the king can no longer get out.  The test is a set of
judgements rather than a proof, so it is reproduced here as the site plays it (read from the
crate ``hnefatafl-copenhagen`` 6.4.1, ``src/board.rs``: ``can_not_escape``, ``king_trapped``
and its four edge cases, ``closed_off_exit(s)``, ``n_or_less_side_spaces``, ``connected``;
``src/game.rs`` ``Game::play`` calls it after every move by either side).  The site's board is
square and its exits are the four corners; the test is the same up to a turn or a mirror of the
board, so our square numbering (``rank * width + file``) may stand in for the site's.

* **King trapped on an edge**: the king on an edge square, not next to a corner, with attackers
  on the two edge squares on each side of him (a corner counts as one and adds one to the
  attackers' count); then, with more than 5 attackers the two squares straight in from him must
  be attackers; and he is trapped if fewer than 2 defenders are left, or more than 7 attackers
  and the two squares in from one of his edge neighbours are attackers.
* **Every exit closed off**: each corner is closed off when the two edge squares on each side
  of it hold attackers, or when a flood from the corner's two neighbours (a neighbour that is
  empty or an attacker starts it, further on only empty squares carry it) meets no defender or
  king.  With every corner closed off, the edge squares the floods reached, the corners and the
  four closing attackers are "defended"; the king cannot escape if fewer than 4 defenders and at
  least 13 attackers are left, or if on every edge the squares neither attackers nor defended
  form at most one run of at most 3 squares (with fewer than 6 defenders) or 2 squares.
"""

from __future__ import annotations

from collections.abc import Callable


class CantEscape:
    """The test on one board geometry (``W`` by ``H`` squares, exits at the ``corners``)."""

    def __init__(self, width: int, height: int, corners: frozenset[int] | set[int]) -> None:
        self.W, self.H = width, height
        self.corners = tuple(sorted(corners))
        n = width * height
        self.full = (1 << n) - 1
        self.not_file_a = sum(1 << s for s in range(n) if s % width != 0)
        self.not_file_last = sum(1 << s for s in range(n) if s % width != width - 1)
        self.wall_mask = sum(1 << s for s in range(n) if self._wall(s))
        #: per corner: its bit, its two neighbours' bits, and the four squares that fortify it
        self.corner_data = []
        for c in self.corners:
            first = self._neighbours(c)
            fort = [sq for nb in first for sq in (nb, 2 * nb - c)] if len(first) == 2 else []
            self.corner_data.append((c, first, fort))

    def _dilate(self, x: int) -> int:
        """``x`` and its orthogonal neighbours (the site's boards have no walls)."""
        W = self.W
        return (x | ((x << 1) & self.not_file_a) | ((x >> 1) & self.not_file_last) | (x << W) | (x >> W)) & self.full

    # -- helpers ------------------------------------------------------------------------------
    def _sq(self, x: int, y: int) -> int:
        return y * self.W + x

    def _on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.W and 0 <= y < self.H

    def _wall(self, s: int) -> bool:
        x, y = s % self.W, s // self.W
        return x == 0 or y == 0 or x == self.W - 1 or y == self.H - 1

    def _neighbours(self, s: int) -> list[int]:
        """Up, left, down, right (the site's order), those on the board."""
        x, y = s % self.W, s // self.W
        return [self._sq(a, b) for a, b in ((x, y - 1), (x - 1, y), (x, y + 1), (x + 1, y)) if self._on_board(a, b)]

    # -- the test -------------------------------------------------------------------------------
    def king_cannot_escape(self, att: int, dfn: int, king: int) -> bool:
        """The site's ``can_not_escape`` on this board (``att``/``dfn`` row-major bitboards of the
        attackers and the defender soldiers, ``king`` his square or -1)."""
        if king < 0:
            return True
        defenders_left = dfn.bit_count()
        attackers_left = att.bit_count()
        if self._king_trapped(att, king, defenders_left, attackers_left):
            return True
        defended = self._closed_off_exits(att, dfn, king)
        if defended is None:
            return False
        return ((defenders_left < 4 and attackers_left >= 13)
                or (defenders_left < 6 and self._side_spaces_at_most(att, defended, 3))
                or self._side_spaces_at_most(att, defended, 2))

    def _king_trapped(self, att: int, king: int, defenders_left: int, attackers_left: int) -> bool:
        x, y = king % self.W, king // self.W
        # the site tries the edges in this order; only a corner (already a win) lies on two
        if x == 0:
            return self._trapped_on_edge(att, y, self.H, lambda d, t: self._sq(d, t), defenders_left, attackers_left)
        if x == self.W - 1:
            return self._trapped_on_edge(att, y, self.H, lambda d, t: self._sq(self.W - 1 - d, t),
                                         defenders_left, attackers_left)
        if y == 0:
            return self._trapped_on_edge(att, x, self.W, lambda d, t: self._sq(t, d), defenders_left, attackers_left)
        if y == self.H - 1:
            return self._trapped_on_edge(att, x, self.W, lambda d, t: self._sq(t, self.H - 1 - d),
                                         defenders_left, attackers_left)
        return False

    @staticmethod
    def _trapped_on_edge(att: int, k: int, length: int, at: Callable[[int, int], int],
                         defenders_left: int, attackers_left: int) -> bool:
        """The king at ``k`` along an edge of ``length`` squares; ``at(depth, along)`` is the square
        ``depth`` squares in from the edge (0 = on it)."""
        if k <= 1 or k >= length - 2:
            return False

        def is_att(depth: int, along: int) -> bool:
            return bool(att >> at(depth, along) & 1)

        for t in (k - 2, k - 1, k + 1, k + 2):
            if t in (0, length - 1):  # a corner stands in for an attacker, and is counted as one
                attackers_left += 1
            elif not is_att(0, t):
                return False
        if attackers_left > 5 and not (is_att(1, k) and is_att(2, k)):
            return False
        return defenders_left < 2 or (attackers_left > 7 and (
            (is_att(1, k + 1) and is_att(2, k + 1)) or (is_att(1, k - 1) and is_att(2, k - 1))))

    def _closed_off_exits(self, att: int, dfn: int, king: int) -> set[int] | None:
        defended = 0
        king_bit = 1 << king if king >= 0 else 0
        stoppers = dfn | king_bit
        empty = self.full & ~(att | stoppers)
        for exit_square, first, fort in self.corner_data:
            if fort and all(att >> s & 1 for s in fort):  # both edges held two deep by attackers
                defended |= 1 << exit_square
                for s in fort:
                    defended |= 1 << s
                continue
            # the site's flood (closed_off_exit): the corner's neighbours start it unless they hold a
            # defender or the king; from there only empty squares carry it, and any defender or the
            # king it touches opens the exit.  The corner and its neighbours are never entered again.
            seen = 1 << exit_square
            start = 0
            for s in first:
                seen |= 1 << s
                if not stoppers >> s & 1:
                    start |= 1 << s
            visited = self._dilate(start) & ~seen
            if visited & stoppers:
                return None
            reached = visited & empty
            while True:
                visited |= self._dilate(reached) & ~seen
                if visited & stoppers:
                    return None
                grown = visited & empty
                if grown == reached:
                    break
                reached = grown
            defended |= ((start | reached) & self.wall_mask) | (1 << exit_square)
        return {s for s in range(self.W * self.H) if defended >> s & 1}

    def _side_spaces_at_most(self, att: int, defended: set[int], n: int) -> bool:
        """On every edge, the squares that are neither attackers nor defended make at most one
        run, of at most ``n`` squares."""
        W, H = self.W, self.H
        edges = ([self._sq(0, y) for y in range(H)], [self._sq(W - 1, y) for y in range(H)],
                 [self._sq(x, 0) for x in range(W)], [self._sq(x, H - 1) for x in range(W)])
        for edge in edges:
            count = 0
            run_ended = False
            for s in edge:
                if not att >> s & 1 and s not in defended:
                    if run_ended:
                        return False
                    count += 1
                    if count > n:
                        return False
                elif count:
                    run_ended = True
        return True

"""The Gridblock solitaire's exact search: depth-first branch and bound over (turn, tile).

A plan is a start tile and, per turn, a card of the round and the tile the mover ends on
(only the end tile matters to the rules, and with one colour only how many cubes a tile
holds, never which corners). :class:`SoloSearch` walks plans turn by turn, keeping each
tile's cube count, and cuts a branch when the points it holds plus an upper bound on what
the remaining turns can add fall below a target. :func:`search_solo` lowers the target one
point at a time from the root bound: the first target a plan reaches is the optimum, since
every higher one was refuted by a search that only skipped branches whose bound was lower.

The bound
---------
From a node (round ``r``, the round's cards already played ``mask``, mover on ``p``, the
cube counts ``n``) the rest of the plan puts ``k_q`` more cubes on each tile ``q`` and adds
``sum_q f(n_q + k_q) - f(n_q)`` points, ``f = 0, 1, 3, 5, 6`` for 0..4 cubes. Every real
continuation's ``k`` obeys, so the best ``k`` under these limits bounds the rest:

* ``k_q <= 4 - n_q`` (a full tile takes no cube);
* ``k_q <=`` the most times any continuation can end on ``q`` with a card of its symbol
  (a per-tile table: this is where "two cubes on one tile need a walk back" lives);
* the tiles of symbol ``s`` share at most ``min(cards of s left, the most hits of symbol s
  any continuation makes)`` cubes, and all tiles at most the most hits of any continuation.

The three "most hits" tables are exact maxima over continuations computed backwards over
(round, cards played, tile) for 43 weightings at once (all hits, hits of each symbol, hits on
each tile); each ignores the other limits, so each is an upper bound of its part of any one
continuation. The best ``k`` is a small knapsack per symbol, then across symbols.

Why the other cuts are exact
----------------------------
* Symmetry: cubes on one tile are interchangeable (a lone colour's points and legal moves
  see only how many corners are taken, so corners are named only when the plan is written
  out), and equal cards of a hand are played lowest index first (swapping two equal cards
  gives the same plan).
* Memo: what the rest of a plan can add depends only on the round, the cards played, the
  mover's tile and the cube counts; a node searched through at target ``T`` with ``a``
  points proves its rest adds at most ``T - 1 - a``, and a later node with the same state
  and too few points is cut. The key holds that state exactly (3 bits per tile), so no
  hash collision can cut wrongly; nodes on the path of a plan being excluded (the
  runner-up search) are not remembered, as their rest was searched without that plan.
* Order: each move carries its points plus the bound after it, best first; once one falls
  short of the target, every later sibling does too.

Notes
-----
The tables take 12 masked maxima over 43 x 36 x 36 per round (tens of milliseconds); a node
costs one bound per child, about 6 x 6 x 4 knapsack steps plus 6 x 19 x 19 across symbols.
The 6-round seeded solitaires need 10^2 to 10^4.5 nodes (0 to 99: medians about 500, the
worst 25,000 in either order).

Examples
--------
>>> from polytile.puzzles.gridblock.solo import SoloPuzzle
>>> found = search_solo(SoloPuzzle.from_seed(1).shortened(2))
>>> found.status, found.score == found.bound, len(found.plan.tiles)
('optimal', True, 6)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile._jit import njit
from polytile.puzzles.gridblock.grid import end_tiles
from polytile.puzzles.gridblock.model import SoloPlanValues

__all__ = ["POINTS", "SearchOutcome", "SoloSearch", "search_solo"]

#: A tile's points for 0..4 cubes of a lone colour: each cube, +1 for 2 cubes, +2 for 3 or 4.
POINTS = (0, 1, 3, 5, 6)
_FOUND, _EXHAUSTED, _BUDGET = 1, 0, 2
_TYPES = 43  # bound tables: 0 every hit, 1..6 hits of one symbol, 7..42 hits on one tile
_MOVES = 48  # moves of a node: 3 cards x at most 14 end tiles
_MEMO_BITS = 18  # 2^18 remembered nodes (6 MB)
_CHUNK = 5_000  # nodes between looks at the clock and the stop flag (milliseconds)

#: progress(best score, proven bound, nodes), called as either changes.
ProgressFn = Callable[[int, int, int], None]
Array = npt.NDArray[np.int64]


def _allowed(hand: Sequence[tuple[int, int]], mask: int, fixed: bool) -> list[int]:
    """The card indices a turn may play: the next dealt one (fixed order), or any unplayed
    one except a copy of an unplayed card with a lower index (free order)."""
    out = []
    for i in range(3):
        if mask >> i & 1 or any(hand[j] == hand[i] and not mask >> j & 1 for j in range(i)):
            continue
        out.append(i)
        if fixed:
            break
    return out


def _tables(layout: Sequence[int], hands: Sequence[Sequence[tuple[int, int]]], fixed: bool
            ) -> Array:  # fmt: skip
    """``most[r, mask, type, p]``: the most hits of a type (all; of symbol ``s`` at
    ``1 + s``; on tile ``q`` at ``7 + q``) any continuation makes from round ``r`` with the
    cards ``mask`` played and the mover on ``p``. Row ``len(hands)`` is the end (zeros).

    Notes
    -----
    Backward induction over 8 masks per round: 12 (mask, card) steps per round, each a
    43 x 36 x 36 masked maximum.
    """
    lay = np.asarray(layout, dtype=np.int64)
    reach = np.zeros((4, 36, 36), dtype=bool)
    for v in (1, 2, 3):
        for a in range(36):
            reach[v, a, list(end_tiles(a, v))] = True
    rounds = len(hands)
    most = np.zeros((rounds + 1, 8, _TYPES, 36), dtype=np.int64)
    low = np.int64(-(1 << 20))
    for r in range(rounds - 1, -1, -1):
        most[r, 7] = most[r + 1, 0]
        for mask in (6, 5, 3, 4, 2, 1, 0):  # every mask after its supersets
            best = np.full((_TYPES, 36), low, dtype=np.int64)
            for i in _allowed(hands[r], mask, fixed):
                s, v = hands[r][i]
                gain = np.zeros((_TYPES, 36), dtype=np.int64)
                hits = lay == s
                gain[0], gain[1 + s] = hits, hits
                gain[7 + np.flatnonzero(hits), np.flatnonzero(hits)] = 1
                after = most[r, mask | 1 << i] + gain  # per type, per end tile
                step = np.where(reach[v][None, :, :], after[:, None, :], low).max(axis=2)
                best = np.maximum(best, step)
            most[r, mask] = best
    return most


@njit(cache=True)
def _bound(r: int, mask: int, pos: int, most: Array, left: Array, tiles: Array, ntiles: Array,
           counts: Array, points: Array) -> int:  # fmt: skip
    # The best sum over tiles of f(n + k) - f(n) under the limits of the module notes.
    total_cap = most[r, mask, 0, pos]
    total = np.full(total_cap + 1, -1, dtype=np.int64)
    total[0] = 0
    for s in range(6):
        cap_s = min(left[r, mask, s], most[r, mask, 1 + s, pos])
        if cap_s <= 0:
            continue
        best = np.full(cap_s + 1, -1, dtype=np.int64)
        best[0] = 0
        for j in range(ntiles[s]):
            q = tiles[s, j]
            n = counts[q]
            cap_q = min(4 - n, most[r, mask, 7 + q, pos], cap_s)
            if cap_q <= 0:
                continue
            for k in range(cap_s, -1, -1):  # a 0/1 choice per tile: from the top down
                for c in range(1, min(cap_q, k) + 1):
                    if best[k - c] >= 0:
                        val = best[k - c] + points[n + c] - points[n]
                        if val > best[k]:
                            best[k] = val
        for k in range(1, cap_s + 1):  # fewer cubes may be placed than allowed
            if best[k] < best[k - 1]:
                best[k] = best[k - 1]
        for k in range(total_cap, 0, -1):
            for c in range(1, min(cap_s, k) + 1):
                if total[k - c] >= 0 and total[k - c] + best[c] > total[k]:
                    total[k] = total[k - c] + best[c]
    return int(total.max())


@njit(cache=True)
def _allowed_card(i: int, mask: int, hsym: Array, hval: Array, r: int, fixed: bool) -> bool:
    if mask >> i & 1:
        return False
    for j in range(i):
        same = hsym[r, j] == hsym[r, i] and hval[r, j] == hval[r, i]
        if not mask >> j & 1 and (fixed or same):
            return False
    return True


@njit(cache=True)
def _expand(d: int, r: int, mask: int, pos: int, lay: Array, hsym: Array, hval: Array,
            fixed: bool, ends: Array, nends: Array, counts: Array, points: Array,
            mv_i: Array, mv_e: Array, mv_g: Array, nmv: Array, most: Array, left: Array,
            tiles: Array, ntiles: Array) -> None:  # fmt: skip
    # The moves of a node, each with the most it can lead to (its points plus the bound
    # after it, which the counts will be again when the move is tried), best first:
    # the first plan found is the greedy one by that measure, and once a move falls short
    # of the target so do all after it (insertion sort, stable).
    n = 0
    for i in range(3):
        if not _allowed_card(i, mask, hsym, hval, r, fixed):
            continue
        v = hval[r, i]
        m2 = mask | (1 << i)
        r2 = r
        if m2 == 7:
            r2, m2 = r + 1, 0
        for k in range(nends[pos, v]):
            e = ends[pos, v, k]
            g = 0
            h = 1 if lay[e] == hsym[r, i] and counts[e] < 4 else 0
            if h:
                g = points[counts[e] + 1] - points[counts[e]]
            counts[e] += h
            if r2 < hsym.shape[0]:
                g += _bound(r2, m2, e, most, left, tiles, ntiles, counts, points)
            counts[e] -= h
            j = n
            while j > 0 and mv_g[d, j - 1] < g:
                mv_i[d, j], mv_e[d, j], mv_g[d, j] = mv_i[d, j - 1], mv_e[d, j - 1], mv_g[d, j - 1]
                j -= 1
            mv_i[d, j], mv_e[d, j], mv_g[d, j] = i, e, g
            n += 1
    nmv[d] = n


@njit(cache=True, inline="always")
def _slot(k0: int, k1: int, size: int) -> int:
    a = np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15)
    h = a ^ (np.uint64(k1) * np.uint64(0xC2B2AE3D27D4EB4F))
    return int((h >> np.uint64(20)) % np.uint64(size))


@njit(cache=True, inline="always")
def _shift(e: int) -> int:
    # Where tile e's cube count (0..4, 3 bits) sits in the key words: tiles 0..20 in word 0,
    # 21..35 in word 1 (bits 0..44); bits 45..56 of word 1 hold the tile, round and mask.
    return 3 * (e % 21)


@njit(cache=True)
def _run(lay: Array, hsym: Array, hval: Array, fixed: bool, ends: Array, nends: Array,
         most: Array, left: Array, tiles: Array, ntiles: Array, starts: Array, points: Array,
         counts: Array, st: Array, mv_i: Array, mv_e: Array, mv_g: Array, nmv: Array,
         cur: Array, plan_i: Array, plan_e: Array, hit: Array, ctl: Array, best_i: Array,
         best_e: Array, forbid_e: Array, forbid_i: Array, memo: Array, target: int,
         budget: int) -> int:  # fmt: skip
    # Depth-first search, resumable: every bit of state lives in the arrays. Depth 0 picks
    # the start tile, depth d >= 1 plays turn d - 1; st[d] = (round, mask, tile, points).
    # ctl = (depth, nodes, best points seen, use forbid, a plan was found at this target,
    # key word 0, key word 1, no memo). Returns _FOUND (a plan reaching ``target``, other than the
    # forbidden one, is in best_*), _EXHAUSTED or _BUDGET.
    #
    # memo[slot] = (key word 0, key word 1, most points the rest can add): the rest of a
    # plan depends on nothing but the round, the cards played, the tile and the cube
    # counts, which the two words hold exactly (no hash collision can mislead it). A node
    # whose subtree was searched through without reaching the target proves that bound.
    turns = hsym.shape[0] * 3
    size = memo.shape[0]
    stop_at = ctl[1] + budget
    while True:
        d = ctl[0]
        if cur[d] >= nmv[d]:
            if d == 0:
                return _EXHAUSTED
            # Node d is searched through: the rest adds less than target - its points,
            # unless a plan was found (the search went on past it) or, looking for another
            # plan than a forbidden one, the node lies on that plan (its rest is not all).
            store = ctl[4] == 0 and ctl[7] == 0
            if store and ctl[3]:
                store = False
                for j in range(d):
                    if plan_e[j] != forbid_e[j] or plan_i[j] != forbid_i[j]:
                        store = True
                        break
            if store:
                k0 = ctl[5]
                k1 = ctl[6] | (st[d, 2] << 45) | (st[d, 0] << 51) | (st[d, 1] << 54)
                sl = _slot(k0, k1, size)
                ub = target - 1 - st[d, 3]
                if memo[sl, 0] != k0 or memo[sl, 1] != k1 or ub < memo[sl, 2]:
                    memo[sl, 0], memo[sl, 1], memo[sl, 2] = k0, k1, ub
            d -= 1
            ctl[0] = d
            if hit[d]:
                e = plan_e[d]
                counts[e] -= 1
                ctl[5 + e // 21] -= 1 << _shift(e)
            continue
        if ctl[1] >= stop_at:
            return _BUDGET
        k = cur[d]
        if d > 0 and st[d, 3] + mv_g[d, k] < target:  # this move and all after it fall short
            cur[d] = nmv[d]
            continue
        cur[d] += 1
        ctl[1] += 1
        if d == 0:
            e = starts[k]
            r2, m2, acc = 0, 0, 1
            h = 1
            plan_i[0] = -1
        else:
            r, mask, acc = st[d, 0], st[d, 1], st[d, 3]
            i, e = mv_i[d, k], mv_e[d, k]
            h = 1 if lay[e] == hsym[r, i] and counts[e] < 4 else 0
            if h:
                acc += points[counts[e] + 1] - points[counts[e]]
            m2 = mask | (1 << i)
            r2 = r
            if m2 == 7:
                r2, m2 = r + 1, 0
            plan_i[d] = i
        plan_e[d] = e
        hit[d] = h
        counts[e] += h
        ctl[5 + e // 21] += h << _shift(e)
        if d == turns:  # a whole plan
            other = True
            if ctl[3]:
                other = False
                for j in range(turns + 1):
                    if plan_e[j] != forbid_e[j] or plan_i[j] != forbid_i[j]:
                        other = True
                        break
            if other and acc > ctl[2]:
                ctl[2] = acc
                best_i[:] = plan_i
                best_e[:] = plan_e
            counts[e] -= h
            ctl[5 + e // 21] -= h << _shift(e)
            if other and acc >= target:
                ctl[4] = 1
                return _FOUND
            continue
        k0 = ctl[5]
        k1 = ctl[6] | (e << 45) | (r2 << 51) | (m2 << 54)
        sl = _slot(k0, k1, size)
        known = ctl[7] == 0 and memo[sl, 0] == k0 and memo[sl, 1] == k1
        cut = known and acc + memo[sl, 2] < target
        if not cut and d == 0:  # the start tiles' bounds (the moves' come with them)
            cut = acc + _bound(r2, m2, e, most, left, tiles, ntiles, counts, points) < target
        if cut:
            counts[e] -= h
            ctl[5 + e // 21] -= h << _shift(e)
            continue
        d += 1
        ctl[0] = d
        st[d, 0], st[d, 1], st[d, 2], st[d, 3] = r2, m2, e, acc
        _expand(d, r2, m2, e, lay, hsym, hval, fixed, ends, nends, counts, points, mv_i, mv_e,
                mv_g, nmv, most, left, tiles, ntiles)  # fmt: skip
        cur[d] = 0


@dataclass(frozen=True)
class SearchOutcome:
    """What :func:`search_solo` found.

    Attributes
    ----------
    status
        ``"optimal"`` (proven), ``"feasible"`` (stopped first: the best plan seen) or
        ``"unknown"`` (stopped before any plan).
    plan
        The best plan (None for ``"unknown"``).
    score
        Its points, as the search counted them (the rules engine recounts them).
    bound
        A proven upper bound on any plan's points (``score`` when optimal).
    nodes
        Search nodes visited, all targets together (a machine-independent effort).
    stopped_by
        ``"time limit"``, ``"interrupt"`` or ``"node limit"`` when stopped, else None.
    """

    status: str
    plan: SoloPlanValues | None
    score: int
    bound: int
    nodes: int
    stopped_by: str | None = None


class SoloSearch:
    """The search state of one solitaire: tables, the stack, the best plan seen.

    Parameters
    ----------
    layout, setup_symbol, hands, order
        As :class:`~polytile.puzzles.gridblock.model.SoloVars`.
    memo
        Remember the nodes searched through (their rest is bounded by what they could not
        reach; exact, see ``_run``). Off only to check that it changes no answer.

    Examples
    --------
    >>> from polytile.puzzles.gridblock.solo import SoloPuzzle
    >>> p = SoloPuzzle.from_seed(1).shortened(1)
    >>> s = SoloSearch(p.layout, p.setup_symbol, p.hands, p.order)
    >>> s.root_bound(), s.run(4, None), s.run(3, None), s.best_score()
    (3, 'exhausted', 'found', 3)
    """

    def __init__(self, layout: Sequence[int], setup_symbol: int,
                 hands: Sequence[Sequence[tuple[int, int]]], order: str,
                 memo: bool = True) -> None:  # fmt: skip
        self.layout = tuple(int(s) for s in layout)
        self.hands = tuple(tuple((int(s), int(v)) for s, v in h) for h in hands)
        self.fixed = order == "fixed"
        self.turns = 3 * len(self.hands)
        lay = np.array(self.layout, dtype=np.int64)
        self._lay = lay
        self._hsym = np.array([[c[0] for c in h] for h in self.hands], dtype=np.int64)
        self._hval = np.array([[c[1] for c in h] for h in self.hands], dtype=np.int64)
        self._ends = np.zeros((36, 4, 16), dtype=np.int64)
        self._nends = np.zeros((36, 4), dtype=np.int64)
        for a in range(36):
            for v in (1, 2, 3):
                e = end_tiles(a, v)
                self._ends[a, v, : len(e)] = e
                self._nends[a, v] = len(e)
        self._most = _tables(self.layout, self.hands, self.fixed)
        rounds = len(self.hands)
        self._left = np.zeros((rounds + 1, 8, 6), dtype=np.int64)
        for r in range(rounds):
            later = [c[0] for h in self.hands[r + 1 :] for c in h]
            for mask in range(8):
                for s in later + [c[0] for i, c in enumerate(self.hands[r]) if not mask >> i & 1]:
                    self._left[r, mask, s] += 1
        self._tiles = np.zeros((6, 36), dtype=np.int64)
        self._ntiles = np.zeros(6, dtype=np.int64)
        for q, s in enumerate(self.layout):
            self._tiles[s, self._ntiles[s]] = q
            self._ntiles[s] += 1
        self._starts = np.flatnonzero(lay == int(setup_symbol)).astype(np.int64)
        if not len(self._starts):
            raise ValueError(f"no tile shows the set-up symbol {setup_symbol}")
        self._points = np.array(POINTS, dtype=np.int64)
        depth = self.turns + 1
        self._counts = np.zeros(36, dtype=np.int64)
        self._st = np.zeros((depth + 1, 4), dtype=np.int64)
        self._mv_i = np.zeros((depth, _MOVES), dtype=np.int64)
        self._mv_e = np.zeros((depth, _MOVES), dtype=np.int64)
        self._mv_g = np.zeros((depth, _MOVES), dtype=np.int64)
        self._nmv = np.zeros(depth, dtype=np.int64)
        self._cur = np.zeros(depth, dtype=np.int64)
        self._plan_i = np.zeros(depth, dtype=np.int64)
        self._plan_e = np.zeros(depth, dtype=np.int64)
        self._hit = np.zeros(depth, dtype=np.int64)
        self._best_i = np.full(depth, -1, dtype=np.int64)
        self._best_e = np.full(depth, -1, dtype=np.int64)
        self._forbid_i = np.full(depth, -1, dtype=np.int64)
        self._forbid_e = np.full(depth, -1, dtype=np.int64)
        self._ctl = np.zeros(8, dtype=np.int64)  # see _run
        self._ctl[2] = -1
        self._ctl[7] = 0 if memo else 1
        self._memo = np.full((1 << _MEMO_BITS, 3), -1, dtype=np.int64)
        self._target: int | None = None

    @property
    def nodes(self) -> int:
        """Search nodes visited so far, all runs together."""
        return int(self._ctl[1])

    def root_bound(self) -> int:
        """The most points any plan can score, by the bound of the module notes."""
        out = 0
        for q in self._starts:
            self._counts[:] = 0
            self._counts[q] = 1
            b = _bound(0, 0, int(q), self._most, self._left, self._tiles, self._ntiles,
                       self._counts, self._points)  # fmt: skip
            out = max(out, 1 + b)
        self._counts[:] = 0
        self._target = None  # the counts were borrowed: a run starts afresh
        return out

    def _indices(self, cards: Sequence[tuple[int, int]]) -> list[int]:
        """The hand index the search gives each card of a plan: the lowest unplayed copy.

        Raises
        ------
        ValueError
            If a card is not (or no longer) in its round's hand.
        """
        out, played = [], [0] * len(self.hands)
        for t, card in enumerate(cards):
            r = t // 3
            hand = self.hands[r]
            i = next((i for i in range(3) if hand[i] == card and not played[r] >> i & 1), None)
            if i is None:
                raise ValueError(f"turn {t + 1}'s card is not in round {r + 1}'s hand")
            played[r] |= 1 << i
            out.append(i)
        return out

    def bound_after(self, start: int, cards: Sequence[tuple[int, int]],
                    tiles: Sequence[int]) -> tuple[int, int]:  # fmt: skip
        """``(points so far, bound on what the rest can add)`` after a plan's first turns
        (the same cards and end tiles, fewer of them; the moves are not checked).

        Raises
        ------
        ValueError
            As :meth:`forbid`, or for more turns than the puzzle has.
        """
        if len(cards) != len(tiles) or len(cards) > self.turns:
            raise ValueError("a plan's first turns: as many cards as tiles, at most all turns")
        held = [0] * 36
        held[start] = 1
        for card, tile in zip(cards, tiles, strict=True):
            if self.layout[tile] == card[0] and held[tile] < 4:
                held[tile] += 1
        points = sum(POINTS[n] for n in held)
        if len(cards) == self.turns:
            return points, 0
        index = self._indices(cards)
        r = len(cards) // 3
        mask = sum(1 << i for i in index[3 * r :])
        self._counts[:] = held
        rest = _bound(r, mask, tiles[-1] if tiles else start, self._most, self._left,
                      self._tiles, self._ntiles, self._counts, self._points)  # fmt: skip
        self._counts[:] = 0
        self._target = None  # the counts were borrowed: a run starts afresh
        return points, int(rest)

    def forbid(self, plan: SoloPlanValues) -> None:
        """From now on, runs skip this one plan (its start, cards and end tiles); the best
        plan seen is forgotten.

        Raises
        ------
        ValueError
            If the plan does not fit the puzzle (length, or a card not in its round).
        """
        if len(plan.tiles) != self.turns or len(plan.cards) != self.turns:
            raise ValueError(f"a plan of this puzzle has {self.turns} turns")
        self._forbid_e[0], self._forbid_i[0] = plan.start, -1
        self._forbid_i[1:] = self._indices(plan.cards)
        self._forbid_e[1:] = plan.tiles
        self._ctl[3] = 1
        self._ctl[2] = -1
        self._target = None
        self._best_i[:] = -1
        self._best_e[:] = -1

    def run(self, target: int, budget: int | None) -> str:
        """Search (or go on searching) for a plan scoring at least ``target``.

        A new target starts the search afresh; the same target resumes where the last run
        stopped (after a plan it found, or when the budget ran out).

        Returns
        -------
        str
            ``"found"`` (the plan is :meth:`best_plan`), ``"exhausted"`` (no plan scores
            ``target``: a proof) or ``"budget"`` (``budget`` nodes spent; run again).
        """
        if target != self._target:
            self._target = int(target)
            self._counts[:] = 0
            self._ctl[0] = 0
            self._ctl[4:7] = 0
            self._cur[0] = 0
            self._nmv[0] = len(self._starts)
        code = _run(self._lay, self._hsym, self._hval, self.fixed, self._ends, self._nends,
                    self._most, self._left, self._tiles, self._ntiles, self._starts,
                    self._points, self._counts, self._st, self._mv_i, self._mv_e, self._mv_g,
                    self._nmv, self._cur, self._plan_i, self._plan_e, self._hit, self._ctl,
                    self._best_i, self._best_e, self._forbid_e, self._forbid_i, self._memo,
                    int(target),
                    (1 << 62) if budget is None else int(budget))  # fmt: skip
        return {_FOUND: "found", _EXHAUSTED: "exhausted", _BUDGET: "budget"}[int(code)]

    def best_score(self) -> int:
        """The points of the best plan seen (-1 before any)."""
        return int(self._ctl[2])

    def best_plan(self) -> SoloPlanValues | None:
        """The best plan seen, or None."""
        if self._ctl[2] < 0:
            return None
        cards = tuple(self.hands[t // 3][int(self._best_i[t + 1])] for t in range(self.turns))
        return SoloPlanValues(int(self._best_e[0]), cards,
                              tuple(int(x) for x in self._best_e[1:]))  # fmt: skip


def search_solo(puzzle: Any, deadline: float | None = None,
                should_stop: Callable[[], bool] | None = None, node_limit: int | None = None,
                progress: ProgressFn | None = None, exclude: SoloPlanValues | None = None,
                ceiling: int | None = None, memo: bool = True) -> SearchOutcome:  # fmt: skip
    """The best plan of a solitaire by :class:`SoloSearch`, proven optimal unless stopped.

    A greedy plan (the highest-scoring move first, no backtracking) comes first; then the
    target goes down from the root bound, each refuted target proving the bound one lower,
    until a plan reaches the target (it is optimal) or the bound meets the best plan seen.

    Parameters
    ----------
    puzzle
        A :class:`~polytile.puzzles.gridblock.solo.SoloPuzzle`.
    deadline
        A ``time.perf_counter()`` instant to stop at (checked every 5,000 nodes).
    should_stop
        Polled as often; True stops the search.
    node_limit
        Nodes to visit at most (a budget that makes runs reproducible).
    progress
        Called as ``progress(best, bound, nodes)`` when either changes.
    exclude
        Find the best plan other than this one (a puzzle's runner-up).
    ceiling
        A score no plan exceeds, proven before (the optimum, when looking for the
        runner-up): the targets start there instead of at the root bound.
    memo
        As :class:`SoloSearch`.

    Returns
    -------
    SearchOutcome
        Stopped by Ctrl-C too (``stopped_by="interrupt"``): the best plan seen and the
        proven bound.
    """
    s = SoloSearch(puzzle.layout, puzzle.setup_symbol, puzzle.hands, puzzle.order, memo)
    if exclude is not None:
        s.forbid(exclude)
    bound = s.root_bound()
    if ceiling is not None:
        bound = min(bound, int(ceiling))
    stopped: str | None = None
    shown = (-2, -2)

    def tell() -> None:
        nonlocal shown
        if progress is not None and (s.best_score(), bound) != shown:
            shown = (s.best_score(), bound)
            progress(max(s.best_score(), 0), bound, s.nodes)

    def out_of_budget() -> str | None:
        if should_stop is not None and should_stop():
            return "interrupt"
        if deadline is not None and time.perf_counter() >= deadline:
            return "time limit"
        if node_limit is not None and s.nodes >= node_limit:
            return "node limit"
        return None

    try:
        while s.run(0, _CHUNK) == "budget":  # the greedy plan: the first leaf
            if (stopped := out_of_budget()) is not None:
                break
        tell()
        target = bound
        while target > s.best_score():
            if (stopped := out_of_budget()) is not None:
                break
            chunk = _CHUNK if node_limit is None else max(1, min(_CHUNK, node_limit - s.nodes))
            code = s.run(target, chunk)
            if code == "found":
                bound = s.best_score()
                break
            if code == "exhausted":
                target -= 1
                bound = target
            tell()
    except KeyboardInterrupt:
        stopped = "interrupt"
    bound = max(bound, s.best_score())
    tell()
    plan = s.best_plan()
    if plan is None:
        return SearchOutcome("unknown", None, 0, bound, s.nodes, stopped)
    status = "optimal" if s.best_score() >= bound else "feasible"
    return SearchOutcome(status, plan, s.best_score(), bound, s.nodes,
                         None if status == "optimal" else stopped)  # fmt: skip

"""Bounds of a Gridblock round's value from the tiles each colour can still reach (private;
read by the search hooks of :mod:`polytile.puzzles.gridblock._round_search`).

For each colour with cards left, the tiles it can still put a cube on this round (a tile
showing a card's symbol at the end of a walk of that card, its cards played in some order,
with a free corner now) are a superset of where it will: other colours only fill corners. A
tile only one colour can reach is that colour's alone, and its final value depends on that
colour's plan only; a tile two or more can reach is contested.

:func:`value_bounds` then bounds the value. The raising colours commit to their plans that
do best on their own tiles, the lowering colours to theirs; whatever is then played, the
value is those tiles' totals plus what the contested tiles end at, and each contested tile's
change splits into what the lowering (raising) colours alone can do and each raising
(lowering) colour's most (least) marginal share of the tiles its plan reaches
(:meth:`Share.split`): those shares go into the colour's plan, so a colour with one card
left is credited with one contested tile, not all of them. When no tile is contested the
bounds meet and the value is exact.

A plan's effect depends on its outcome only: per card, the tile it ends on when that tile
shows its symbol (:meth:`Layout.outcomes`, cached per start tile and cards).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import product
from typing import TYPE_CHECKING

from polytile.puzzles.gridblock.grid import Card, end_tiles

if TYPE_CHECKING:
    from polytile.puzzles.gridblock._round_search import RoundState

__all__ = ["P5", "Layout", "PerSlot", "Share", "layout_of", "targets", "tile_table", "value_bounds"]

P5 = (1, 5, 25, 125)  # a tile's code: sum of count[slot] * 5**slot
_OPT_CACHE = 500_000  # plan optima kept per layout (a few hundred bytes each)


@cache
def tile_table(k: int) -> tuple[tuple[int, ...], ...]:
    """Per tile code (``sum count[slot] * 5**slot`` over ``k`` slots), each slot's points on
    that tile (section 5): cubes, plus 2 for 3 or more, plus 1 for a lone pair."""
    out = []
    for code in range(5**k):
        n = [(code // P5[s]) % 5 for s in range(k)]
        if sum(n) > 4:
            out.append((0,) * k)
            continue
        pairs = sum(1 for x in n if x == 2)
        out.append(tuple(x + (2 if x >= 3 else 1 if x == 2 and pairs == 1 else 0) for x in n))
    return tuple(out)


class Share:
    """One number per tile code (a tile's share of an objective, or one colour's points on
    it), with what the bounds read of it, tabled once: the steps each slot's next cubes add,
    and (cached) the range a contested tile can end in."""

    def __init__(self, values: Sequence[int], k: int) -> None:
        self.v = tuple(values)
        n = 5**k
        self.free = tuple(4 - sum((c // P5[s]) % 5 for s in range(k)) for c in range(n))
        self.steps = tuple(
            tuple(
                tuple(
                    self.v[c + (j + 1) * P5[s]] - self.v[c + j * P5[s]]
                    for j in range(max(self.free[c], 0))
                )
                for c in range(n)
            )
            for s in range(k)
        )
        self._ranges: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[int, int]] = {}
        self._splits: dict[Hashable, tuple[int, int, dict[int, int]]] = {}

    def range(self, code: int, actors: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        """The least and most a tile of ``code`` can end at when each ``(slot, most)`` of
        ``actors`` adds up to ``most`` cubes (corners permitting)."""
        key = (code, actors)
        hit = self._ranges.get(key)
        if hit is None:
            lo = hi = self.v[code]
            for adds in product(*(range(a + 1) for _, a in actors)):
                if sum(adds) <= self.free[code]:
                    c = code + sum(n * P5[s] for (s, _), n in zip(actors, adds, strict=True))
                    lo, hi = min(lo, self.v[c]), max(hi, self.v[c])
            hit = self._ranges[key] = (lo, hi)
        return hit

    def split(self, code: int, actors: tuple[tuple[int, int], ...],
              up: Sequence[bool | None]) -> tuple[int, int, dict[int, int]]:  # fmt: skip
        """A contested tile's change, split over who makes it.

        With ``actors`` as in :meth:`range` and ``up[slot]`` whether that colour raises the
        share: the most the lowering colours alone can raise it (``c_hi``), the least the
        raising ones alone can lower it (``c_lo``), and per actor the most its cubes can add
        to the tile's change whatever the others add (a raising colour) or the least (a
        lowering one). Adding the actors one by one after the others, any final change is
        at most ``c_hi`` plus the raising actors' shares of those that put a cube there, and
        at least ``c_lo`` plus the lowering actors' shares."""
        key = (code, actors, tuple(bool(up[s]) for s, _ in actors))
        hit = self._splits.get(key)
        if hit is not None:
            return hit
        base = self.v[code]
        valid = [a for a in product(*(range(n + 1) for _, n in actors))
                 if sum(a) <= self.free[code]]  # fmt: skip

        def val(a: Sequence[int]) -> int:
            return self.v[code + sum(n * P5[s] for (s, _), n in zip(actors, a, strict=True))]

        c_hi = c_lo = 0
        share: dict[int, int] = {}
        for a in valid:
            d = val(a) - base
            if not any(n and up[s] for (s, _), n in zip(actors, a, strict=True)):
                c_hi = max(c_hi, d)
            if not any(n and not up[s] for (s, _), n in zip(actors, a, strict=True)):
                c_lo = min(c_lo, d)
            for i, (s, _) in enumerate(actors):
                if a[i]:
                    m = val(a) - val((*a[:i], 0, *a[i + 1 :]))
                    old = share.get(s, 0)
                    share[s] = max(old, m) if up[s] else min(old, m)
        hit = self._splits[key] = (c_hi, c_lo, share)
        return hit


@cache
def _reach(start: int, values: tuple[int, ...]) -> tuple[int, ...]:
    """For cards of ``values`` (ascending) played from ``start`` in every order: per card, the
    bitmask of tiles it can end on."""
    out = [0] * len(values)

    def go(here: int, left: tuple[int, ...]) -> None:
        for i in left:
            rest = tuple(j for j in left if j != i)
            for e in end_tiles(here, values[i]):
                out[i] |= 1 << e
                if rest:
                    go(e, rest)

    go(start, tuple(range(len(values))))
    return tuple(out)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Layout:
    """Per layout: the tiles of each symbol, and per (start tile, cards) the outcomes of
    every plan (cached: the search meets the same few hundred again and again)."""

    def __init__(self, layout: Sequence[int]) -> None:
        self.layout = tuple(layout)
        self.symbol = tuple(sum(1 << t for t in range(36) if layout[t] == s) for s in range(6))
        self._outcomes: dict[tuple[int, tuple[Card, ...]], tuple[tuple[int, ...], ...]] = {}
        self.opt_cache: dict[Hashable, int] = {}

    def outcomes(self, start: int, rem: tuple[Card, ...]) -> tuple[tuple[int, ...], ...]:
        """Every distinct outcome of a plan of the cards ``rem`` from ``start`` (each order,
        each end tile): per card, the tile it ends on when that tile shows its symbol (where
        it may put a cube), else -1. Nothing else of a plan changes any tile."""
        key = (start, rem)
        hit = self._outcomes.get(key)
        if hit is not None:
            return hit
        found: set[tuple[int, ...]] = set()
        vec = [-1] * len(rem)
        lay = self.layout

        def go(here: int, left: int) -> None:
            if not left:
                found.add(tuple(vec))
                return
            for i, card in enumerate(rem):
                if not left >> i & 1 or any(rem[j] == card and left >> j & 1 for j in range(i)):
                    continue
                for e in end_tiles(here, card[1]):
                    vec[i] = e if lay[e] == card[0] else -1
                    go(e, left & ~(1 << i))
                vec[i] = -1

        go(start, (1 << len(rem)) - 1)
        out = self._outcomes[key] = tuple(sorted(found))
        return out


@lru_cache(maxsize=8)
def layout_of(layout: tuple[int, ...]) -> Layout:
    """The :class:`Layout` of a grid, shared by every search on it in this process (the
    hand combinations of a view analysis are many searches on one grid)."""
    return Layout(layout)


def targets(st: RoundState, lay: Layout, slot: int) -> tuple[int, tuple[int, ...]]:
    """The tiles ``slot`` can still put a cube on (free now), and per card of its hand the
    tiles that card can put one on."""
    rem = st.rem[slot]
    masks = _reach(st.board.mover[slot], tuple(c[1] for c in rem))
    per = tuple(m & lay.symbol[c[0]] & ~st.full for m, c in zip(masks, rem, strict=True))
    union = 0
    for m in per:
        union |= m
    return union, per


def _gains(st: RoundState, slot: int, own: int, share: Share) -> dict[int, tuple[int, ...]]:
    """Per tile of ``own`` where it matters: the change of ``share`` when ``slot`` puts its
    1st, 2nd, ... cube there this round (as many as corners are free)."""
    out = {}
    steps = share.steps[slot]
    codes = st.codes
    while own:
        low = own & -own
        t = low.bit_length() - 1
        own ^= low
        row = steps[codes[t]]
        if any(row):
            out[t] = row
    return out


def _plan_opt(st: RoundState, lay: Layout, slot: int, gain: dict[int, tuple[int, ...]],
              maximize: bool) -> int:  # fmt: skip
    """The most (for a minimizer, the least) total of ``gain`` over ``slot``'s plans for the
    rest of the round: a plan whose cards end on tiles of ``gain`` (showing their symbols)
    earns those tiles' steps, one per cube (the tile's corners permitting).

    The total depends on a plan's outcome only (:meth:`Layout.outcomes`)."""
    if not gain:
        return 0
    rem = st.rem[slot]
    start = st.board.mover[slot]
    key = (start, rem, maximize, tuple(sorted(gain.items())))
    hit = lay.opt_cache.get(key)
    if hit is not None:
        return hit
    best: int | None = None
    if len({c[0] for c in rem}) == len(rem):  # one cube a tile at most
        first = {t: s[0] for t, s in gain.items()}
        for vec in lay.outcomes(start, rem):
            v = 0
            for e in vec:
                v += first.get(e, 0)
            if best is None or (v > best if maximize else v < best):
                best = v
    else:
        for vec in lay.outcomes(start, rem):
            v = 0
            for t, steps in gain.items():
                v += sum(steps[: vec.count(t)])
            if best is None or (v > best if maximize else v < best):
                best = v
    if best is None:
        raise AssertionError("a hand always has a plan")
    if len(lay.opt_cache) >= _OPT_CACHE:
        lay.opt_cache.clear()
    lay.opt_cache[key] = best
    return best


def _may_win(st: RoundState, slot: int, per: Sequence[int]) -> bool:
    """Whether ``slot`` might still win at once this round (option 7.4): a tile it can reach
    holding no other colour's cube, where its cubes and its cards that can reach it with the
    tile's symbol make three."""
    rem = st.rem[slot]
    k = len(st.rem)
    for i, card in enumerate(rem):
        for t in _bits(per[i]):
            code = st.codes[t]
            if any((code // P5[s]) % 5 for s in range(k) if s != slot):
                continue
            more = sum(1 for j, c in enumerate(rem) if c[0] == card[0] and per[j] >> t & 1)
            if (code // P5[slot]) % 5 + more >= 3:
                return True
    return False


PerSlot = dict[int, tuple[int, tuple[int, ...]]]  # slot -> (tiles it can reach, per card)


def _actors(per_slot: PerSlot, tile: int) -> tuple[tuple[int, int], ...]:
    """Who can still put cubes on ``tile``, and at most how many (its cards that can)."""
    out = []
    for s, (_, per) in per_slot.items():
        most = sum(m >> tile & 1 for m in per)
        if most:
            out.append((s, most))
    return tuple(out)


def _share_bounds(
    st: RoundState,
    lay: Layout,
    per_slot: PerSlot,
    twice: int,
    share: Share,
    opt: Sequence[bool | None],
) -> tuple[int, int]:
    """Bounds of the final sum of ``share`` over the tiles (see :func:`value_bounds`).

    ``opt[slot]`` True: the colour raises the sum; False: it lowers it; None: either (each
    colour's plans bounded both ways, for the per-colour bounds under ``"weaker"``)."""
    v = share.v
    lo = hi = sum(map(v.__getitem__, st.codes))
    split: dict[int, tuple[int, int, dict[int, int]]] = {}
    if all(o is not None for o in opt):
        for t in _bits(twice):
            split[t] = share.split(st.codes[t], _actors(per_slot, t), opt)
    for s, (union, _) in per_slot.items():
        gain = _gains(st, s, union & ~twice, share)
        if opt[s] is None:
            lo += _plan_opt(st, lay, s, gain, False)
            hi += _plan_opt(st, lay, s, gain, True)
            continue
        up = bool(opt[s])
        own = _plan_opt(st, lay, s, gain, up)
        extra = {t: (e[2][s],) for t, e in split.items() if e[2].get(s)}
        both = _plan_opt(st, lay, s, {**gain, **extra}, up) if extra else own
        lo += own if up else both
        hi += both if up else own
    for t in _bits(twice):
        code = st.codes[t]
        if split:
            hi += split[t][0]
            lo += split[t][1]
        else:
            a, b = share.range(code, _actors(per_slot, t))
            lo += a - v[code]
            hi += b - v[code]
    return lo, hi


def value_bounds(st: RoundState, lay: Layout, per_slot: PerSlot | None = None
                 ) -> tuple[int, int] | None:  # fmt: skip
    """Sound bounds ``(lo, hi)`` of the round's value from ``st`` (see the module notes), or
    None under ``instant_win`` while a colour may still win at once.

    Additive objectives: the maximizing colours commit to their best plans for the tiles
    only they reach, the minimizing ones to theirs; whatever the others then do, the value
    is their totals plus what the contested tiles end at. Under ``"weaker"`` each colour's
    points are bounded on their own (every plan of every colour) and combined by the min.
    ``per_slot``: each colour's :func:`targets`, when the caller has them."""
    k = len(st.rem)
    if per_slot is None:
        per_slot = {s: targets(st, lay, s) for s in range(k) if st.rem[s]}
    if st.board.options.instant_win and any(
        _may_win(st, s, per) for s, (_, per) in per_slot.items()
    ):
        return None
    once = twice = 0
    for union, _ in per_slot.values():
        twice |= once & union
        once |= union
    obj = st.objective  # no instant winner: the state would be over
    if obj.additive:
        return _share_bounds(st, lay, per_slot, twice, obj.shares[0], obj.maximizers)
    pts = [_share_bounds(st, lay, per_slot, twice, sh, [None] * k) for sh in obj.shares]
    lo = min(pts[0][0], pts[2][0]) - min(pts[1][1], pts[3][1])
    hi = min(pts[0][1], pts[2][1]) - min(pts[1][0], pts[3][0])
    return lo, hi

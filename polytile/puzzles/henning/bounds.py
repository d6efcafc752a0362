"""City Blocks (Henning): facts that keep an exact search small.

* :func:`margin_bounds`: the final money margin (blue minus red) can only lie within these
  bounds, whatever is played: money changes only by awards of the open streets (their
  tokens' total does not change when a courthouse swaps them) and by redevelopments, each
  costing its player its lowest token, at most one per tile the player still holds.
* :func:`value_bounds`: under best play the value is also at least what the player to
  move gets by ending the game at once, when one empty block is left.
* :func:`search_key`: a transposition key that forgets what no longer matters. A block whose
  two streets are both awarded is *dead*: its tile never counts again, and redeveloping it
  only costs the mover a token and a hand tile, wherever it lies. So the key keeps, of the
  dead blocks, only where they are and whether each player owns one; tokens of awarded
  streets never move again either.
* :func:`search_moves`: the moves worth searching, most promising first: completing a street
  the mover then wins, raising its lead on open streets, redevelopments last; of the
  redevelopments of dead blocks only one block per tile (and swap) is kept, since they all
  lead to positions with the same key.

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> g = Henning.new(seed=1)
>>> margin_bounds(g) == (-sum(g.tokens), sum(g.tokens))
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from functools import cache
from itertools import combinations

from polytile.puzzles.henning.moves import PASS, Move
from polytile.puzzles.henning.rules import OPEN, Henning
from polytile.puzzles.henning.tiles import CH, STREETS, STREETS_OF, VALUES

__all__ = [
    "finish_value",
    "iter_search_moves",
    "margin_bounds",
    "ordered_moves",
    "search_key",
    "search_moves",
    "value_bounds",
]

# A tile's part in a street's sums: 0 house, 1 store, 2 factory (value counted in that
# category), 3 school, 4 power plant, 5 mall (they switch categories off), 6 courthouse.
_CATEGORY = (0,) * 5 + (1,) * 5 + (2,) * 5 + (3, 4, 5, 6)
_ROW = tuple(s[0] for s in STREETS_OF)
_COL = tuple(s[1] for s in STREETS_OF)
_MOVES: dict[tuple[int, int, bool, int | None, tuple[int, int] | None], Move] = {}


def _least_money(g: Henning, player: int) -> int:
    """The least money ``player`` can end with if it wins nothing more: it pays at most one
    token per tile it still holds, always its lowest."""
    tiles = len(g.hands[player]) + len(g.reserves[player]) - g.drawn[player]
    held = g.money[player]
    return sum(held[min(tiles, len(held)) :])


def margin_bounds(g: Henning) -> tuple[int, int]:
    """(least, greatest) final margin blue minus red, from here, whatever is played."""
    award, tokens = g.award_of, g.tokens
    open_total = sum(tokens[s] for s in range(11) if award[s] == OPEN)
    blue, red = sum(g.money[0]), sum(g.money[1])
    return _least_money(g, 0) - red - open_total, blue + open_total - _least_money(g, 1)


def value_bounds(g: Henning) -> tuple[int, int]:
    """(least, greatest) value of ``g`` under best play by both: :func:`margin_bounds`, and
    with one empty block left, the player to move can end the game at once by building on
    it, so the value is at least (blue to move) or at most (red to move) the best such
    finish (:func:`finish_value`)."""
    lo, hi = margin_bounds(g)
    if g.empty == 1:
        best = finish_value(g)
        if best is not None:
            if g.turn == 0:
                lo = max(lo, best)
            else:
                hi = min(hi, best)
    return lo, hi


def finish_value(g: Henning) -> int | None:
    """With exactly one empty block left: the best final margin (for the player to move)
    of building on it, which ends the game; None when the mover holds no tile or more
    blocks are empty. O(tiles in hand)."""
    me = g.turn
    if g.empty != 1 or not g.hands[me]:
        return None
    b = g.owner.index(-1)
    margin = sum(g.money[0]) - sum(g.money[1])
    streets = [s for s in STREETS_OF[b] if g.award_of[s] == OPEN]
    stats = [_street_stats(g, s) for s in streets]
    swapped = [g.tokens[s] for s in reversed(streets)] if len(streets) == 2 else None
    best = None
    for k in set(g.hands[me]):
        signs = []
        for st in stats:
            st = list(st)
            _add(st, me, k, 1)
            blue, red = _sums(st)
            signs.append((blue > red) - (blue < red))
        values = [margin + sum(sg * g.tokens[s] for sg, s in zip(signs, streets, strict=True))]
        if k == CH and swapped is not None:
            values.append(margin + sum(sg * t for sg, t in zip(signs, swapped, strict=True)))
        v = max(values) if me == 0 else min(values)
        if best is None or (v > best if me == 0 else v < best):
            best = v
    return best


def search_key(g: Henning) -> Hashable:
    """A transposition key for positions with every tile known (see the module notes)."""
    award, owner = g.award_of, g.owner
    board = [o * 32 + k for o, k in zip(owner, g.kind, strict=True)]
    dead = [False, False]
    for b in _dead_blocks(tuple(a == OPEN for a in award)):
        dead[owner[b]] = True
        board[b] = -2
    tokens = tuple(t if award[s] == OPEN else 0 for s, t in enumerate(g.tokens))
    return (tuple(board), dead[0], dead[1], tokens, tuple(g.money[0]), tuple(g.money[1]),
            tuple(g.hands[0]), tuple(g.hands[1]), g.reserve(0), g.reserve(1), g.turn)  # fmt: skip


@cache
def _dead_blocks(open_streets: tuple[bool, ...]) -> tuple[int, ...]:
    """The blocks whose row and column are both awarded."""
    return tuple(b for b in range(30) if not open_streets[_ROW[b]] and not open_streets[_COL[b]])


def _move(kind: int, b: int, redevelop: bool, pay: int | None,
          swap: tuple[int, int] | None) -> Move:  # fmt: skip
    """One shared :class:`Move` per distinct move (a search makes the same ones again and
    again)."""
    key = (kind, b, redevelop, pay, swap)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(kind, (b // 6, b % 6), redevelop, pay, swap)
    return move


def _street_stats(g: Henning, s: int) -> list[int]:
    """[houses, stores, factories] of blue, then of red, then schools, power plants, malls
    on street ``s``."""
    st = [0] * 9
    for b in STREETS[s]:
        if g.owner[b] >= 0:
            _add(st, g.owner[b], g.kind[b], 1)
    return st


def _add(st: list[int], owner: int, kind: int, sign: int) -> None:
    c = _CATEGORY[kind]
    if c < 3:
        st[3 * owner + c] += sign * VALUES[kind]
    elif c < 6:
        st[3 + c] += sign


def _sums(st: list[int]) -> tuple[int, int]:
    no_factories = st[6] or st[8]
    no_houses = st[7] or st[8]
    blue = st[1] + (0 if no_factories else st[2]) + (0 if no_houses else st[0])
    red = st[4] + (0 if no_factories else st[5]) + (0 if no_houses else st[3])
    return blue, red


def _scored(g: Henning, kinds: Iterable[int], blocks: list[int], redevelop: bool,
            swaps: list[tuple[int, int] | None],
            stats: dict[int, list[int]]) -> list[tuple[int, int, Move]]:  # fmt: skip
    """(-gain, -lead, move) for every move putting one of ``kinds`` on one of ``blocks``."""
    me = g.turn
    sign = 1 if me == 0 else -1
    lowest = g.money[me][0] if redevelop else 0
    pay = lowest if redevelop else None
    out = []
    award, tokens, empty_in = g.award_of, g.tokens, g.empty_in
    for b in blocks:
        old = g.kind[b]
        for k in kinds:
            gain = -lowest
            lead = 0
            completes = []
            for s in STREETS_OF[b]:
                if award[s] != OPEN:
                    continue
                st = stats.get(s)
                if st is None:
                    st = stats[s] = _street_stats(g, s)
                st = list(st)
                if redevelop:
                    _add(st, me, old, -1)
                _add(st, me, k, 1)
                blue, red = _sums(st)
                if not redevelop and empty_in[s] == 1:  # this placement completes it
                    if blue != red:
                        completes.append((s, 1 if (blue > red) == (me == 0) else -1))
                else:
                    lead += sign * (blue - red)
            for swap in swaps if k == CH else (None,):
                won = gain
                for s, side in completes:
                    t = s
                    if swap is not None and s in swap:
                        t = swap[1] if s == swap[0] else swap[0]
                    won += side * tokens[t]
                out.append((-won, -lead, _move(k, b, redevelop, pay, swap)))
    return out


def search_moves(g: Henning) -> list[Move]:
    """The moves an exact search needs at ``g``, most promising first (see the module
    notes): every legal move, except that of the redevelopments of dead blocks only the
    first such block's are kept. ``[]`` once the game is over."""
    return list(iter_search_moves(g))


def iter_search_moves(g: Henning) -> Iterator[Move]:
    """:func:`search_moves` one at a time, scoring redevelopments and the developments that
    lose tokens only when the moves before them are used up (``g`` must not change while
    this runs, except by moves pushed and popped again)."""
    if g.is_over():
        return
    me = g.turn
    kinds = sorted(set(g.hands[me]))
    if not kinds:
        yield PASS
        return
    owner, award = g.owner, g.award_of
    swaps: list[tuple[int, int] | None] = [None]
    if CH in kinds:
        swaps += combinations([s for s in range(11) if award[s] == OPEN], 2)
    stats: dict[int, list[int]] = {}
    empty = [b for b in range(30) if owner[b] < 0]
    scored = _scored(g, kinds, empty, False, swaps, stats)
    scored.sort(key=_rank)
    # A redevelopment never wins a token at once and always pays one, so the developments
    # that lose nothing come first whatever the redevelopments score.
    i = 0
    while i < len(scored) and scored[i][0] <= 0:
        yield scored[i][2]
        i += 1
    rest = scored[i:]
    if g.money[me]:
        dead_blocks = _dead_blocks(tuple(a == OPEN for a in award))
        live, dead = [], None
        for b in range(30):
            if owner[b] == me:
                if b in dead_blocks:
                    dead = b if dead is None else dead
                else:
                    live.append(b)
        if dead is not None:
            live.append(dead)
        rest += _scored(g, kinds, live, True, swaps, stats)
        rest.sort(key=_rank)
    for e in rest:
        yield e[2]


def _rank(entry: tuple[int, int, Move]) -> tuple[int, int, bool]:
    return entry[0], entry[1], entry[2].redevelop


def ordered_moves(g: Henning, moves: list[Move]) -> list[Move]:
    """``moves`` sorted most promising first for the player to move (see the module notes).

    Notes
    -----
    Each move is scored without playing it: the tokens it wins or loses at once (streets it
    completes, with a courthouse's swap applied, less the token a redevelopment pays), then
    the mover's lead on the open streets its block lies on. O(moves).
    """
    rank: dict[Move, tuple[int, int, bool]] = {}
    stats: dict[int, list[int]] = {}
    for m in moves:
        if m.block is None or m in rank:
            continue
        b = m.block[0] * 6 + m.block[1]
        for won, lead, _ in _scored(g, (m.kind,), [b], m.redevelop, [m.swap], stats):
            rank[m] = (won, lead, m.redevelop)
    order = sorted(range(len(moves)), key=lambda i: (*rank.get(moves[i], (0, 0, True)), i))
    return [moves[i] for i in order]

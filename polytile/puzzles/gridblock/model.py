"""CP-SAT builders for the one-colour Gridblock puzzle: a mover, a card sequence, cubes.

A :class:`SoloVars` holds the variables of a plan for one colour alone on a layout: the
mover's tile before each turn and after the last (``pos``), which of the round's cards each
turn plays (``use``) and its value. The builders add one constraint family each:

* :func:`add_card_order` (fixed: the dealt order; free: each round's cards in any order),
* :func:`add_moves` (one table constraint per turn on ``(tile, value, next tile)``, from the
  precomputed end tiles of :func:`polytile.puzzles.gridblock.grid.end_tiles`),
* :func:`add_cubes` (the cube count of every tile: the set-up cube plus one per turn that
  ends on a tile showing the card's symbol, at most 4: a full tile takes no more),
* :func:`add_returns` (a cut: two hits on one tile need a walk back between them),
* :func:`add_bonuses` (+1 for 2 cubes on a tile, +2 for 3 or 4, linear and exact),
* :func:`add_score` (cubes plus bonuses, maximised).

With one colour on the grid the tile bonuses depend only on how many cubes a tile holds, so
the model counts cubes per tile and never names corners; a tile is full after 4 cubes
whichever corners they took. Forced placement (a matching end tile with a free corner always
takes a cube) is exact here: a tile's count is ``min(4, set-up cube + matching visits)``.

Examples
--------
One round, A1 B2 C3, on a layout whose columns show A..F: the set-up cube on an ``A``
tile, then every card can end on a tile of its symbol (A1 down column a, B2 one right and
one down, C3 one right and two down), 4 cubes on 4 tiles and no bonus:

>>> from polytile.solvers.cpsat import solve
>>> layout = [i % 6 for i in range(36)]
>>> v = build_solo_model(layout, setup_symbol=0, hands=[((0, 1), (1, 2), (2, 3))],
...                      order="fixed")
>>> r = solve(v.model, workers=1)
>>> r.status, r.objective
('optimal', 4.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations
from typing import TYPE_CHECKING, Any

from polytile.puzzles.gridblock.grid import Card, end_tiles

if TYPE_CHECKING:  # OR-tools is imported when a model is built: the search needs none of it
    from ortools.sat.python import cp_model

__all__ = [
    "ORDERS",
    "SoloPlanValues",
    "SoloVars",
    "add_bonuses",
    "add_card_order",
    "add_cubes",
    "add_moves",
    "add_returns",
    "add_score",
    "build_solo_model",
]

#: The card orders a round may be played in.
ORDERS = ("fixed", "free")
_FULL = 4  # corners on a tile


@dataclass(frozen=True)
class SoloPlanValues:
    """A solution read back from the solver: where the mover starts, each turn's card and
    end tile (the corners are the rules' business, not the model's)."""

    start: int
    cards: tuple[Card, ...]
    tiles: tuple[int, ...]


class SoloVars:
    """The variables of a one-colour plan, and what they mean.

    Parameters
    ----------
    layout
        The 36 tiles' symbols (0..5), row-major.
    setup_symbol
        The symbol drawn at set-up: the mover starts on a tile showing it.
    hands
        Each round's 3 cards ``(symbol, value)``, in the dealt order.
    order
        ``"fixed"`` (turns play each hand in the given order) or ``"free"``.
    model
        Add to this model instead of a new one.

    Attributes
    ----------
    model : CpModel
    turns : int
        ``3 * len(hands)``.
    reach : list[frozenset[int]]
        The tiles the mover can be on before turn ``t`` (``t = turns``: at the end); the
        domains of ``pos``.
    pos : list[IntVar]
        The mover's tile before each turn, and after the last.
    cards : list[tuple[Card, ...]]
        Per turn, the distinct cards it may play.
    use : list[dict[Card, IntVar]]
        Per turn, a boolean per card it may play.
    value : list[IntVar]
        Per turn, the value of the card played.
    hit : dict[tuple[int, int], IntVar]
        ``(t, p)``: turn ``t`` ends on tile ``p`` with a card of its symbol; filled by
        :func:`add_cubes`.
    count, pair, triple : dict[int, IntVar]
        Per tile that can hold a cube: its cube count (0..4), and whether it earns the
        2-cube (``n >= 2``) and 3-cube (``n >= 3``) bonus parts; filled by the builders.

    Raises
    ------
    ValueError
        If the layout, a hand or the order is malformed, or no tile shows the set-up symbol.
    """

    def __init__(self, layout: Sequence[int], setup_symbol: int,
                 hands: Sequence[Sequence[Card]], order: str,
                 model: cp_model.CpModel | None = None) -> None:  # fmt: skip
        from ortools.sat.python import cp_model

        if order not in ORDERS:
            raise ValueError(f"order is 'fixed' or 'free', not {order!r}")
        self.layout = tuple(int(s) for s in layout)
        if len(self.layout) != 36 or not all(0 <= s < 6 for s in self.layout):
            raise ValueError("a layout is 36 symbols 0..5")
        self.hands = tuple(tuple((int(s), int(k)) for s, k in h) for h in hands)
        if any(len(h) != 3 or any(not 1 <= k <= 3 for _, k in h) for h in self.hands):
            raise ValueError("every hand is 3 cards of value 1..3")
        self.setup_symbol = int(setup_symbol)
        self.order = order
        self.model = model if model is not None else cp_model.CpModel()
        self.turns = 3 * len(self.hands)
        self.cards: list[tuple[Card, ...]]
        if self.order == "fixed":
            self.cards = [(h[i],) for h in self.hands for i in range(3)]
        else:
            self.cards = [tuple(sorted(set(h))) for h in self.hands for _ in range(3)]
        start = frozenset(t for t in range(36) if self.layout[t] == self.setup_symbol)
        if not start:
            raise ValueError(f"no tile shows the set-up symbol {self.setup_symbol}")
        self.reach = [start]
        for t in range(self.turns):
            values = {k for _, k in self.cards[t]}
            self.reach.append(frozenset(e for a in self.reach[-1] for k in values
                                        for e in end_tiles(a, k)))  # fmt: skip
        m = self.model
        self.pos = [m.new_int_var_from_domain(cp_model.Domain.FromValues(sorted(r)), f"pos{t}")
                    for t, r in enumerate(self.reach)]  # fmt: skip
        self.use = [{c: m.new_bool_var(f"use{t}_{c[0]}{c[1]}") for c in self.cards[t]}
                    for t in range(self.turns)]  # fmt: skip
        self.value = [m.new_int_var_from_domain(
            cp_model.Domain.FromValues(sorted({k for _, k in self.cards[t]})), f"value{t}")
            for t in range(self.turns)]  # fmt: skip
        self.hit: dict[tuple[int, int], Any] = {}
        self.count: dict[int, Any] = {}
        self.pair: dict[int, Any] = {}
        self.triple: dict[int, Any] = {}

    def round_of(self, turn: int) -> int:
        """The round (0-based) a turn belongs to."""
        return turn // 3

    def extract(self, solver: cp_model.CpSolver | cp_model.CpSolverSolutionCallback
                ) -> SoloPlanValues:  # fmt: skip
        """Read the plan from a solver (or a solution callback) that found a solution."""
        cards = []
        for t in range(self.turns):
            chosen = [c for c, b in self.use[t].items() if solver.boolean_value(b)]
            cards.append(chosen[0] if chosen else self.cards[t][0])
        return SoloPlanValues(
            start=int(solver.value(self.pos[0])),
            cards=tuple(cards),
            tiles=tuple(int(solver.value(p)) for p in self.pos[1:]),
        )


def add_card_order(v: SoloVars) -> None:
    """Which card each turn plays, and its value.

    Fixed order: turn ``3r + i`` plays the ``i``-th card of round ``r``. Free order: each
    turn plays one card of its round and, over the round's 3 turns, each card is played as
    often as the hand holds it (a permutation of the hand; equal cards are not told apart,
    so permutations of equal cards are one solution).
    """
    m = v.model
    for t in range(v.turns):
        m.add_exactly_one(v.use[t].values())
        m.add(v.value[t] == sum(c[1] * b for c, b in v.use[t].items()))
    if v.order == "fixed":
        for t in range(v.turns):
            for b in v.use[t].values():
                m.add(b == 1)
        return
    for r, hand in enumerate(v.hands):
        for card, times in Counter(hand).items():
            m.add(sum(v.use[t][card] for t in range(3 * r, 3 * r + 3)) == times)


def add_moves(v: SoloVars) -> None:
    """Every turn's move: the mover goes exactly ``value`` steps without re-entering a tile.

    One table constraint per turn on ``(pos[t], value[t], pos[t + 1])``, its rows the
    precomputed end tiles of the walks (the issue's formulation: stronger than a layered
    flow over walk steps).

    Notes
    -----
    At most 36 x 3 rows per allowed-value set; the rows are limited to reachable tiles.
    """
    m = v.model
    for t in range(v.turns):
        values = sorted({k for _, k in v.cards[t]})
        rows = [(a, k, e) for a in sorted(v.reach[t]) for k in values for e in end_tiles(a, k)]
        m.add_allowed_assignments([v.pos[t], v.value[t], v.pos[t + 1]], rows)


def _hits(v: SoloVars) -> dict[int, list[Any]]:
    """Per tile, the booleans "this turn ends here on a card of the tile's symbol"
    (the set-up cube counts as one)."""
    m = v.model
    hits: dict[int, list[Any]] = {}
    for p in v.reach[0]:
        here = m.new_bool_var(f"start{p}")
        m.add(v.pos[0] == p).only_enforce_if(here)
        m.add(v.pos[0] != p).only_enforce_if(~here)
        hits.setdefault(p, []).append(here)
    for t in range(v.turns):
        symbols = {c[0] for c in v.cards[t]}
        ats = []
        for p in sorted(v.reach[t + 1]):
            if v.layout[p] not in symbols:
                continue
            at = m.new_bool_var(f"at{t}_{p}")
            m.add(v.pos[t + 1] == p).only_enforce_if(at)
            m.add(v.pos[t + 1] != p).only_enforce_if(~at)
            ats.append(at)
            match = [b for c, b in v.use[t].items() if c[0] == v.layout[p]]
            if len(match) == len(v.use[t]):  # every card this turn may play shows p's symbol
                hits.setdefault(p, []).append(at)
                v.hit[t, p] = at
                continue
            hit = m.new_bool_var(f"hit{t}_{p}")
            m.add(hit <= at)
            m.add(hit <= sum(match))
            m.add(hit >= at + sum(match) - 1)
            hits.setdefault(p, []).append(hit)
            v.hit[t, p] = hit
        if ats:
            m.add_at_most_one(ats)
    return hits


def add_cubes(v: SoloVars) -> dict[int, Any]:
    """The cube count of every tile that can get one: ``min(4, set-up + matching visits)``.

    Returns ``v.count`` (tile -> IntVar 0..4). The set-up cube goes on the start tile.
    """
    m = v.model
    for p, hs in sorted(_hits(v).items()):
        n = m.new_int_var(0, _FULL, f"n{p}")
        if len(hs) <= _FULL:
            m.add(n == sum(hs))
        else:
            m.add_min_equality(n, [sum(hs), _FULL])
        v.count[p] = n
    m.add(sum(v.count.values()) <= 1 + v.turns)  # one supply cube per turn and the set-up
    return v.count


@cache
def _step(tiles: frozenset[int], value: int) -> frozenset[int]:
    return frozenset(e for a in tiles for e in end_tiles(a, value))


def _walk_hand(tiles: frozenset[int], hands: Sequence[tuple[Card, ...]]) -> frozenset[int]:
    """Where a mover on ``tiles`` can be after playing each card sequence in ``hands``."""
    out: set[int] = set()
    for seq in hands:
        here = tiles
        for c in seq:
            here = _step(here, c[1])
        out |= here
    return frozenset(out)


def _can_return(v: SoloVars, t1: int, t2: int, p: int) -> bool:
    """Whether the mover can end turn ``t1`` and turn ``t2 > t1`` on ``p``, both with a card
    of ``p``'s symbol: the turns between (and ``t2``) must walk from ``p`` back to ``p``."""
    s = v.layout[p]
    r1, i1, r2, i2 = t1 // 3, t1 % 3, t2 // 3, t2 % 3

    def orders(r: int) -> list[tuple[Card, ...]]:
        if v.order == "fixed":
            return [v.hands[r]]
        return sorted(set(permutations(v.hands[r])))

    def ok(seq: tuple[Card, ...], r: int) -> bool:
        return (r != r1 or seq[i1][0] == s) and (r != r2 or seq[i2][0] == s)

    here = frozenset([p])
    if r1 == r2:
        return p in _walk_hand(here, [q[i1 + 1 : i2 + 1] for q in orders(r1) if ok(q, r1)])
    here = _walk_hand(here, [q[i1 + 1 :] for q in orders(r1) if ok(q, r1)])
    for r in range(r1 + 1, r2):
        here = _walk_hand(here, orders(r))
    return p in _walk_hand(here, [q[: i2 + 1] for q in orders(r2) if ok(q, r2)])


def add_returns(v: SoloVars) -> int:
    """Cut: two turns cannot both put a cube on a tile the moves between cannot return to.

    For each tile and pair of turns that may both end on it with its symbol, the cards
    played in between (any order the puzzle allows) must walk from the tile back to it;
    when no such walk exists, at most one of the two hits happens. Needs :func:`add_cubes`
    first. Returns the number of clauses added.

    Notes
    -----
    O(hits^2) reachability checks over sets of at most 36 tiles.
    """
    by_tile: dict[int, list[int]] = {}
    for t, p in sorted(v.hit):
        by_tile.setdefault(p, []).append(t)
    added = 0
    for p, ts in by_tile.items():
        for a, t1 in enumerate(ts):
            for t2 in ts[a + 1 :]:
                if not _can_return(v, t1, t2, p):
                    v.model.add_bool_or([~v.hit[t1, p], ~v.hit[t2, p]])
                    added += 1
    return added


def add_bonuses(v: SoloVars) -> Any:
    """The tile bonuses of a lone colour, exact and linear: per tile with ``n`` cubes,
    ``pair = (n >= 2)`` and ``triple = (n >= 3)``, the bonus ``pair + triple``; with two
    valid cuts (per tile, per symbol) that tighten the LP bound.

    Needs :func:`add_cubes` first. Returns the bonus sum (a linear expression).
    """
    m = v.model
    for p, n in v.count.items():
        pair, triple = m.new_bool_var(f"pair{p}"), m.new_bool_var(f"triple{p}")
        m.add(n >= 2 * pair)
        m.add(n <= 1 + 3 * pair)
        m.add(n >= 3 * triple)
        m.add(n <= 2 + 2 * triple)
        m.add(3 * (pair + triple) <= 2 * n)  # the concave hull of 0, 0, 1, 2, 2: a cut
        v.pair[p], v.triple[p] = pair, triple
    # Cut: the tiles of one symbol share that symbol's cards (and the set-up cube), m in all,
    # and m cubes earn at most floor(2m / 3) bonus points (tiles of 3, a remainder 2 one +1).
    cards = Counter(c[0] for h in v.hands for c in h) + Counter([v.setup_symbol])
    for s, times in cards.items():
        tiles = [p for p in v.count if v.layout[p] == s]
        m.add(sum(v.pair[p] + v.triple[p] for p in tiles) <= 2 * times // 3)
    return sum(v.pair.values()) + sum(v.triple.values())


def add_score(v: SoloVars) -> Any:
    """Maximise cubes placed plus tile bonuses; returns the score expression.

    Needs :func:`add_cubes` and :func:`add_bonuses` first.
    """
    score = sum(v.count.values()) + sum(v.pair.values()) + sum(v.triple.values())
    v.model.maximize(score)
    return score


def build_solo_model(layout: Sequence[int], setup_symbol: int, hands: Sequence[Sequence[Card]],
                     order: str) -> SoloVars:  # fmt: skip
    """The whole model: every builder above on a new :class:`SoloVars`.

    Raises
    ------
    ValueError
        As :class:`SoloVars`.
    """
    v = SoloVars(layout, setup_symbol, hands, order)
    add_card_order(v)
    add_moves(v)
    add_cubes(v)
    add_returns(v)
    add_bonuses(v)
    add_score(v)
    return v

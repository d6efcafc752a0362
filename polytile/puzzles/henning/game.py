"""City Blocks (Henning) under the game protocol, with its hidden information made explicit.

:class:`HenningGame` is the description (two players, blue 0 and red 1; returns are each
player's money). Its states (:class:`HenningState`) wrap the full state
:class:`~polytile.puzzles.henning.rules.Henning` (``state.board``).

What a player sees (:meth:`HenningState.information_state`): the city, the street tokens and
awards, both players' tokens, the tiles that left the game, its own hand, how many tiles its
own reserve and the opponent's hand and reserve hold. By elimination it also knows which
tiles the opponent still has (hand and reserve together) and which tiles its own reserve
holds, but not the opponent's split between hand and reserve, nor the order of either
reserve. :meth:`HenningState.hidden_states` lists every full state consistent with that
view, each with its probability when every unseen arrangement is equally likely (deals that
differ only by swapping the two schools are one state, counted twice);
:meth:`HenningState.sample_hidden` draws one.

Once both reserves are empty nothing is hidden: :meth:`HenningState.is_open` is then true,
and the rest of the game is a perfect-information game.

Examples
--------
>>> g = HenningGame()
>>> s = g.new_initial_state(seed=3)
>>> s.to_move, g.traits.perfect_information
(0, False)
>>> view = s.information_state(0)
>>> t = s.sample_hidden(0, np.random.default_rng(1))
>>> t.information_state(0) == view, t.board.hand(1) == s.board.hand(1) or True
(True, True)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping
from itertools import combinations, permutations
from typing import Any

import numpy as np

from polytile.puzzles.game import (
    ChanceMode,
    Dynamics,
    EngineState,
    Game,
    Information,
    State,
    Traits,
    Utility,
)
from polytile.puzzles.henning.moves import PASS, Move
from polytile.puzzles.henning.picture import token_label
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.tiles import CH, KINDS, PLAYER_NAMES, TILE_SET

__all__ = ["MAX_LISTED", "HenningGame", "HenningState", "unseen_tiles"]

#: :meth:`HenningState.hidden_states` lists the consistent states only up to this many.
MAX_LISTED = 5000


class HenningGame(Game):
    """City Blocks by J. Alan Henning: two players, hidden hands and reserves.

    The game has no parameters; the set-up (street tokens, first player, the shuffles) comes
    from the seed of :meth:`new_initial_state`.
    """

    name = "henning"
    long_name = "City Blocks (Henning)"

    def __init__(self, open: bool = False) -> None:
        self.open = open

    @property
    def traits(self) -> Traits:
        # Shuffles happen once, at the set-up: they are part of the (hidden) state, not
        # chance nodes during play. The open version shows both hands and reserves.
        seen = Information.PERFECT if self.open else Information.IMPERFECT
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.DETERMINISTIC, seen, Utility.GENERAL_SUM,
                      2, 2)  # fmt: skip

    @property
    def num_players(self) -> int:
        return 2

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"open": self.open}

    def revealed(self) -> HenningGame:
        """The open game: both hands and reserves shown ("open" analysis)."""
        return HenningGame(open=True)

    def player_names(self) -> tuple[str, ...]:
        return PLAYER_NAMES

    def utility_range(self) -> tuple[float, float]:
        """Money: from nothing to all 11 street tokens, at most $15 + $14 + ... + $5 = $110."""
        return 0.0, float(sum(range(5, 16)))

    def max_game_length(self) -> int:
        """40 tiles placed, at most one pass between two placements (a pass leaves the turn
        to the other player), and a last pass."""
        return 2 * 40 + 1

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> HenningState:
        """A seeded set-up (:meth:`Henning.new`)."""
        return HenningState(self, Henning.new(seed))

    def state_of(self, board: Henning) -> HenningState:
        """Wrap a full state (not copied)."""
        return HenningState(self, board)

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    # The move coding (OpenSpiel's actions): 0 is the pass; then a placement by tile kind,
    # block and whether it redevelops (the token paid is the mover's lowest, read from the
    # state); then a courthouse's placements with a swap, by block, redevelopment and the
    # pair of streets.

    def num_distinct_moves(self) -> int:
        return _SWAPPED + 30 * 2 * len(_PAIRS)

    def move_index(self, move: Any) -> int:
        if move.is_pass:
            return 0
        r, c = move.block
        where = (r * 6 + c) * 2 + int(move.redevelop)
        if move.swap is None:
            return 1 + move.kind * 60 + where
        return _SWAPPED + where * len(_PAIRS) + _PAIRS.index(move.swap)

    def move_at(self, index: int, state: State) -> Move:
        if not 0 <= index < self.num_distinct_moves():
            raise ValueError(f"move index {index} is outside 0..{self.num_distinct_moves() - 1}")
        if index == 0:
            return PASS
        if index < _SWAPPED:
            kind, where = divmod(index - 1, 60)
            swap = None
        else:
            where, pair = divmod(index - _SWAPPED, len(_PAIRS))
            kind, swap = CH, _PAIRS[pair]
        block, redevelop = divmod(where, 2)
        board = state.board  # type: ignore[attr-defined]
        money = board.money[board.turn]
        pay = (money[0] if money else 0) if redevelop else None
        return Move(kind, (block // 6, block % 6), bool(redevelop), pay, swap)


#: The pairs of streets a courthouse may swap, in the move coding's order.
_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(11), 2))
#: The first index of a courthouse placement with a swap.
_SWAPPED = 1 + len(KINDS) * 30 * 2


def unseen_tiles(board: Henning, player: int) -> list[int]:
    """The tiles ``player`` still has in hand and reserve together, worked out from public
    facts only (its 20 tiles less those on the city and those that left the game)."""
    left = Counter(TILE_SET)
    for b in range(30):
        if board.owner[b] == player:
            left[board.kind[b]] -= 1
    for owner, kind in board.removed:
        if owner == player:
            left[kind] -= 1
    return sorted(left.elements())


class HenningState(EngineState):
    """A City Blocks (Henning) state under the protocol; ``board`` is the full state."""

    game: HenningGame
    board: Henning

    def revealed(self) -> HenningState:
        return HenningState(self.game.revealed(), self.board.copy())

    def is_open(self) -> bool:
        """True when both reserves are empty: every tile is known to both players."""
        return self.board.reserve_size(0) == 0 and self.board.reserve_size(1) == 0

    # -- hidden information ----------------------------------------------------------------
    def information_state(self, player: int) -> str:
        b = self.board
        q = 1 - player
        city = " ".join(
            "." if b.owner[i] < 0 else f"{'BR'[b.owner[i]]}:{KINDS[b.kind[i]]}" for i in range(30)
        )
        streets = " ".join(token_label(b, s) for s in range(11))
        removed = " ".join(f"{'BR'[o]}:{KINDS[k]}" for o, k in sorted(b.removed)) or "-"
        hand = " ".join(KINDS[k] for k in b.hand(player)) or "-"
        return "\n".join([
            f"view of {PLAYER_NAMES[player]}; to move: {PLAYER_NAMES[b.to_move]}",
            f"city: {city}",
            f"streets: {streets}",
            f"tokens: blue {b.money[0]} red {b.money[1]}",
            f"left the game: {removed}",
            f"my hand: {hand}; my reserve: {b.reserve_size(player)} tiles",
            f"opponent: {len(b.hand(q))} in hand, {b.reserve_size(q)} in reserve",
        ])  # fmt: skip

    def _with_hidden(
        self, player: int, own: tuple[int, ...], opp_hand: list[int], opp_reserve: tuple[int, ...]
    ) -> HenningState:
        b = self.board.copy()
        q = 1 - player
        b.hands[q] = sorted(opp_hand)
        b.reserves = [[], []]
        b.reserves[player], b.reserves[q] = list(own), list(opp_reserve)
        b.drawn = [0, 0]
        b._stack = []  # a sampled state cannot take back moves made before it was drawn
        return HenningState(self.game, b)

    def sample_hidden(self, player: int, rng: np.random.Generator) -> HenningState:
        b = self.board
        q = 1 - player
        # sorted first: a draw depends on the player's view alone, not on the order the
        # hidden reserve happens to be in
        mine = sorted(b.reserve(player))
        own = [mine[i] for i in rng.permutation(len(mine))]
        pool = unseen_tiles(b, q)
        pool = [pool[i] for i in rng.permutation(len(pool))]
        h = len(b.hand(q))
        return self._with_hidden(player, tuple(own), pool[:h], tuple(pool[h:]))

    def count_hidden_states(self, player: int) -> int:
        """How many distinct full states are consistent with ``player``'s view."""
        b = self.board
        q = 1 - player
        pool = unseen_tiles(b, q)
        h = len(b.hand(q))
        return _arrangements(list(b.reserve(player))) * _splits(pool, h)

    def hidden_states(self, player: int) -> Iterator[tuple[State, float]] | None:
        """Every full state consistent with ``player``'s view with its probability, or None
        when there are more than :data:`MAX_LISTED`."""
        total = self.count_hidden_states(player)
        if total > MAX_LISTED:
            return None
        return self._list_hidden(player)

    def _list_hidden(self, player: int) -> Iterator[tuple[State, float]]:
        b = self.board
        q = 1 - player
        pool = unseen_tiles(b, q)
        h = len(b.hand(q))
        owns = _weighted_orders(list(b.reserve(player)))
        opps = _weighted_deals(pool, h)
        for own, w_own in owns:
            for (hand, reserve), w_opp in opps:
                yield self._with_hidden(player, own, list(hand), reserve), w_own * w_opp


def _arrangements(tiles: list[int]) -> int:
    """Distinct orders of a multiset."""
    out = math.factorial(len(tiles))
    for n in Counter(tiles).values():
        out //= math.factorial(n)
    return out


def _hands(pool: list[int], h: int) -> list[tuple[int, ...]]:
    """The distinct hands of ``h`` tiles from the multiset ``pool``."""
    return sorted(set(combinations(sorted(pool), h)))


def _splits(pool: list[int], h: int) -> int:
    """Distinct (hand, reserve order) deals of ``pool`` with ``h`` tiles in hand."""
    total = 0
    for hand in _hands(pool, h):
        rest = Counter(pool)
        rest.subtract(hand)
        total += _arrangements(list(rest.elements()))
    return total


def _weighted_orders(tiles: list[int]) -> list[tuple[tuple[int, ...], float]]:
    """Every distinct order of a shuffled multiset, each equally likely."""
    orders = sorted(set(permutations(tiles)))
    return [(order, 1.0 / len(orders)) for order in orders]


def _weighted_deals(
    pool: list[int], h: int
) -> list[tuple[tuple[tuple[int, ...], tuple[int, ...]], float]]:
    """Every distinct (hand, reserve order) deal of a shuffled ``pool`` with its probability.

    Of the ``n!`` equally likely orders of the labelled tiles, a deal with hand multiset
    ``H`` and reserve sequence ``R`` comes from ``h! / prod(H_k!) * prod(c_k!)`` of them
    (``c_k`` copies of kind ``k`` in the pool).
    """
    n = len(pool)
    copies = math.prod(math.factorial(c) for c in Counter(pool).values())
    out = []
    for hand in _hands(pool, h):
        rest = Counter(pool)
        rest.subtract(hand)
        ways = math.factorial(h) * copies
        for c in Counter(hand).values():
            ways //= math.factorial(c)
        p = ways / math.factorial(n)
        for order in sorted(set(permutations(list(rest.elements())))):
            out.append(((hand, order), p))
    return out

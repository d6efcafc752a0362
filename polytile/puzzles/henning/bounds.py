"""City Blocks (Henning): facts that keep an exact search small.

* :func:`margin_bounds`: the final money margin (blue minus red) can only lie within these
  bounds, whatever is played: money changes only by awards of the open streets (their
  tokens' total does not change when a courthouse swaps them) and by redevelopments, each
  costing its player its lowest token, at most one per tile the player still holds.
* :func:`search_key`: a transposition key that forgets what no longer matters. Once both
  streets of a block are awarded, the kind of the tile on it never counts again (only its
  owner, who may still redevelop it); tokens of awarded streets never move again either.
* :func:`ordered_moves`: moves most likely best first: completing a street the mover then
  wins, raising its lead on open streets, and redevelopments last.

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> g = Henning.new(seed=1)
>>> margin_bounds(g) == (-sum(g.tokens), sum(g.tokens))
True
"""

from __future__ import annotations

from collections.abc import Hashable

from polytile.puzzles.henning.moves import Move
from polytile.puzzles.henning.rules import OPEN, Henning, street_sums
from polytile.puzzles.henning.tiles import STREETS, STREETS_OF

__all__ = ["margin_bounds", "ordered_moves", "search_key"]


def _least_money(g: Henning, player: int) -> int:
    """The least money ``player`` can end with if it wins nothing more: it pays at most one
    token per tile it still holds, always its lowest."""
    tiles = len(g.hands[player]) + g.reserve_size(player)
    held = g.money[player]
    return sum(held[min(tiles, len(held)) :])


def margin_bounds(g: Henning) -> tuple[int, int]:
    """(least, greatest) final margin blue minus red, from here, whatever is played."""
    open_total = sum(t for s, t in enumerate(g.tokens) if g.award(s) == OPEN)
    blue, red = g.money_of(0), g.money_of(1)
    return _least_money(g, 0) - red - open_total, blue + open_total - _least_money(g, 1)


def search_key(g: Henning) -> Hashable:
    """A transposition key for positions with every tile known (see the module notes)."""
    live = [g.award(s) == OPEN for s in range(11)]
    board = tuple(
        (g.owner[b], g.kind[b] if live[STREETS_OF[b][0]] or live[STREETS_OF[b][1]] else -1)
        for b in range(30)
    )
    tokens = tuple(t if live[s] else 0 for s, t in enumerate(g.tokens))
    return (board, tokens, tuple(g.money[0]), tuple(g.money[1]), tuple(g.hands[0]),
            tuple(g.hands[1]), g.reserve(0), g.reserve(1), g.turn)  # fmt: skip


def ordered_moves(g: Henning, moves: list[Move]) -> list[Move]:
    """``moves`` sorted most promising first for the player to move (see the module notes).

    Notes
    -----
    Each move is scored without playing it: the tokens it wins or loses at once (streets it
    completes, with a courthouse's swap applied, less the token a redevelopment pays), then
    the mover's lead on the open streets its block lies on. O(moves x street length).
    """
    me = g.to_move
    sign = 1 if me == 0 else -1
    lowest = g.money[me][0] if g.money[me] else 0
    scored = []
    for i, move in enumerate(moves):
        if move.block is None:
            scored.append((0, 0, 1, i, move))
            continue
        b = move.block[0] * 6 + move.block[1]
        gain = -lowest if move.redevelop else 0
        lead = 0
        for s in STREETS_OF[b]:
            if g.award_of[s] != OPEN:
                continue
            owners, kinds = [], []
            for x in STREETS[s]:
                if x == b:
                    owners.append(me)
                    kinds.append(move.kind)
                elif g.owner[x] >= 0:
                    owners.append(g.owner[x])
                    kinds.append(g.kind[x])
            blue, red = street_sums(owners, kinds)
            if not move.redevelop and g.empty_in[s] == 1:  # this placement completes it
                token = g.tokens[s]
                if move.swap is not None and s in move.swap:
                    token = g.tokens[move.swap[1] if s == move.swap[0] else move.swap[0]]
                if blue != red:
                    gain += token if (blue > red) == (me == 0) else -token
            else:
                lead += sign * (blue - red)
        scored.append((-gain, -lead, int(move.redevelop), i, move))
    scored.sort(key=lambda e: e[:4])
    return [e[4] for e in scored]

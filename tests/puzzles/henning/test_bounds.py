"""City Blocks (Henning) search facts: the margin bounds hold on every playout."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.henning.bounds import (
    finish_value,
    iter_search_moves,
    margin_bounds,
    ordered_moves,
    search_key,
    search_moves,
    value_bounds,
)
from polytile.puzzles.henning.players import greedy_player
from polytile.puzzles.henning.rules import Henning


@pytest.mark.parametrize("seed", range(10))
def test_margin_bounds_hold_on_playouts(seed: int) -> None:
    rng = np.random.default_rng(seed)
    g = Henning.new(seed)
    bounds = []
    while not g.is_over():
        bounds.append(margin_bounds(g))
        player = greedy_player if rng.random() < 0.5 else (lambda h, r: h.random_move(r))
        g.push(player(g, rng))
    final = g.margin()
    assert all(lo <= final <= hi for lo, hi in bounds)
    assert margin_bounds(g)[0] <= final <= margin_bounds(g)[1]


def test_ordering_is_a_permutation_and_key_ignores_dead_kinds() -> None:
    g = Henning.new(2)
    g.play_random(2)
    while g.move_stack and g.empty < 3:
        g.pop()
    moves = g.legal_moves()
    assert sorted(map(str, ordered_moves(g, moves))) == sorted(map(str, moves))
    key = search_key(g)
    assert key == search_key(g.copy())


def _late(seed: int, empty: int) -> Henning:
    """A random game with both reserves empty and exactly ``empty`` blocks left."""
    for s in range(seed, seed + 5000):
        g = Henning.new(s)
        rng = np.random.default_rng(s)
        while not g.is_over():
            if g.reserve_size(0) == 0 == g.reserve_size(1) and g.empty == empty:
                return g
            g.push_legal(g.random_move(rng))
    raise AssertionError("no such position")


@pytest.mark.parametrize("seed", range(8))
def test_finish_value_is_the_best_immediate_end(seed: int) -> None:
    g = _late(100 * seed, 1)
    ends = []
    for m in g.legal_moves():
        if not m.redevelop and not m.is_pass:
            g.push(m)
            assert g.is_over()
            ends.append(g.margin())
            g.pop()
    want = max(ends) if g.to_move == 0 else min(ends)
    assert finish_value(g) == want


@pytest.mark.parametrize("seed", [0, 1, 3, 4, 5, 6])  # seed 2's brute force takes a minute
def test_value_bounds_hold_the_exact_value(seed: int) -> None:
    from tests.puzzles.henning.test_endgame import minimax

    g = _late(37 * seed + 5, 1)
    memo: dict[object, int] = {}
    value = minimax(g, memo)
    lo, hi = value_bounds(g)
    assert lo <= value <= hi
    for m in g.legal_moves():  # the children too: each lies within its own bounds
        g.push(m)
        lo, hi = value_bounds(g)
        assert lo <= minimax(g, memo) <= hi
        g.pop()


@pytest.mark.parametrize("seed", range(6))
def test_search_moves_drop_only_redevelopments_of_equivalent_dead_blocks(seed: int) -> None:
    g = _late(53 * seed + 1, 2)
    legal = g.legal_moves()
    kept = search_moves(g)
    assert len(set(kept)) == len(kept) and set(kept) <= set(legal)
    by_key = {}
    for m in legal:
        g.push(m)
        by_key.setdefault(search_key(g), []).append(m)
        g.pop()
    # Every legal move left out leads to a key that a kept move leads to as well.
    for m in set(legal) - set(kept):
        assert m.redevelop
        g.push(m)
        assert any(k in kept for k in by_key[search_key(g)])
        g.pop()
    assert list(iter_search_moves(g)) == kept

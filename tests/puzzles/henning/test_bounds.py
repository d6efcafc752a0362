"""City Blocks (Henning) search facts: the margin bounds hold on every playout."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.henning.bounds import margin_bounds, ordered_moves, search_key
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

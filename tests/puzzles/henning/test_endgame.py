"""City Blocks (Henning) exact endgames against plain minimax over the rules engine."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.henning.endgame import HiddenTilesError, solve_endgame
from polytile.puzzles.henning.rules import Henning


def minimax(g: Henning, memo: dict[object, int] | None = None) -> int:
    """Blue's final margin by brute force: every legal move, no bounds, no ordering; only a
    memo of full state keys (the engine's own, not the search's)."""
    memo = {} if memo is None else memo
    key = (g.state_key(), g.margin())
    if key in memo:
        return memo[key]
    if g.is_over():
        return g.margin()
    values = []
    for m in g.legal_moves():
        g.push(m)
        values.append(minimax(g, memo))
        g.pop()
    memo[key] = max(values) if g.to_move == 0 else min(values)
    return memo[key]


def late(seed: int, empty: int) -> Henning:
    """A random game with both reserves empty and ``empty`` blocks left (or the nearest)."""
    for s in range(seed, seed + 5000):
        g = Henning.new(s)
        rng = np.random.default_rng(s)
        while not g.is_over():
            if g.reserve_size(0) == 0 == g.reserve_size(1) and g.empty <= empty:
                return g
            g.push_legal(g.random_move(rng))
    raise AssertionError("no such position")


@pytest.mark.parametrize("seed", range(6))
def test_exact_value_and_best_moves_match_minimax(seed: int) -> None:
    g = late(100 * seed, 1)
    r = solve_endgame(g)
    memo: dict[object, int] = {}
    assert r.value == minimax(g, memo) and not r.open
    want = set()
    for m in g.legal_moves():
        g.push(m)
        if minimax(g, memo) == r.value:
            want.add(str(m))
        g.pop()
    assert {str(m) for m in r.best_moves} == want
    end = g.copy()
    for m in r.pv:
        end.push(m)
    assert end.is_over() and end.margin() == r.value == r.pv_margin


def test_hidden_tiles_need_open_analysis() -> None:
    g = Henning.new(1)
    with pytest.raises(HiddenTilesError, match="still hidden"):
        solve_endgame(g)


def test_a_stopped_search_says_what_it_proved() -> None:
    """Stopped by its node limit, the exact search still says what it proved of the margin
    (issue 48, item 5), in words the report prints."""
    from polytile.faces.face import proven_line
    from polytile.puzzles.henning.endgame import EndgameStopped

    g = late(7, 3)
    whole = solve_endgame(g)
    for limit in (200, 2_000, 20_000):
        try:
            solve_endgame(g, node_limit=limit)
        except EndgameStopped as stop:
            if stop.proven is None:
                continue
            assert stop.proven.low <= whole.value <= stop.proven.high
            line = proven_line(stop.proven, "blue's final margin", "blue")
            assert line.startswith("proven before the stop: blue's final margin is ")
            assert f"of {len(g.legal_moves())} moves searched to the end" in line
            return
    pytest.fail("no node limit stopped the search after a root move")

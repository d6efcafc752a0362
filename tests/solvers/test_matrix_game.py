"""Zero-sum matrix games: LP equilibria checked by the minimax theorem, double oracle against
the full LP."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.errors import SolverError
from polytile.solvers.matrix_game import double_oracle, explicit_oracles, solve_matrix


def test_matching_pennies() -> None:
    eq = solve_matrix([[1, -1], [-1, 1]])
    assert eq.value == pytest.approx(0.0, abs=1e-9)
    assert eq.row == pytest.approx([0.5, 0.5]) and eq.col == pytest.approx([0.5, 0.5])


def test_saddle_point() -> None:
    eq = solve_matrix([[3, 1, 4], [2, 0, 1], [5, 1, 6]])  # row 0 or 2 with column 1: value 1
    assert eq.value == pytest.approx(1.0)
    assert eq.col == pytest.approx([0, 1, 0], abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 2**32 - 1))
def test_random_games_meet_the_minimax_theorem(m: int, n: int, seed: int) -> None:
    a = np.random.default_rng(seed).integers(-9, 10, size=(m, n)).astype(float)
    eq = solve_matrix(a)
    # Neither player gains by a pure deviation, and both guarantees meet at the value.
    assert (eq.row @ a).min() == pytest.approx(eq.value, abs=1e-7)
    assert (a @ eq.col).max() == pytest.approx(eq.value, abs=1e-7)
    assert eq.row.sum() == pytest.approx(1) and (eq.row >= 0).all()
    assert eq.exploitability <= 1e-6


def test_bad_matrices_are_refused() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        solve_matrix(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="finite"):
        solve_matrix([[1.0, float("nan")]])


@pytest.mark.parametrize("seed", range(3))
def test_double_oracle_matches_the_full_lp_on_a_large_game(seed: int) -> None:
    n = 150  # the oracles read under half of it; 300 took 40 s a seed
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(n, n))
    rows, cols = list(range(n)), list(range(n))

    def pay(r: int, c: int) -> float:
        return float(a[r, c])

    row_br, col_br = explicit_oracles(rows, cols, pay)
    do = double_oracle([0], [0], pay, row_br, col_br, tol=1e-9)
    full = solve_matrix(a)
    assert do.value == pytest.approx(full.value, abs=1e-6)
    assert do.gap <= 1e-6
    assert len(do.row_strategies) < n and len(do.col_strategies) < n
    assert do.payoff_calls < n * n / 2


def test_double_oracle_detects_an_inconsistent_oracle() -> None:
    rows, cols = ["a", "b"], ["x", "y"]
    table = {("a", "x"): 1, ("a", "y"): -1, ("b", "x"): -1, ("b", "y"): 1}

    def pay(r: str, c: str) -> float:
        return table[(r, c)]

    def lazy_row(col_mix):  # type: ignore[no-untyped-def]
        return "a", 5.0  # claims a gain it does not have, and never names anything new

    _, col_br = explicit_oracles(rows, cols, pay)
    with pytest.raises(SolverError):
        double_oracle(["a"], ["x"], pay, lazy_row, col_br)


def test_floating_point_noise_in_payoffs_does_not_fail_the_lp():
    """A drop phase's payoffs from a self-played Walkable Cities game (after 19 rounds):
    subgame values of 0 came out as 2.8e-17 and 8.3e-17, and GLOP's presolve called the
    maximin LP infeasible (status 2), which no maximin LP is."""
    from polytile.solvers.matrix_game import solve_matrix

    noise, other = 2.77555756e-17, 8.32667268e-17
    a = [[1.0, 1.0, 1.0, -0.5],
         [-2.0, noise, other, -0.5],
         [-2.0, other, noise, -0.5],
         [-2.0, 1.0, 1.0, 1.0]]  # fmt: skip
    eq = solve_matrix(a)
    assert abs(eq.value) < 1e-9 and eq.exploitability < 1e-6
    assert abs(sum(eq.row) - 1) < 1e-9 and abs(sum(eq.col) - 1) < 1e-9

"""Zero-sum matrix games: exact mixed equilibria by linear programming, and double oracle for
strategy sets too large to write down.

The row player maximises and the column player minimises the payoff. :func:`solve_matrix`
solves both players' linear programs with OR-tools' GLOP (a well-kept simplex solver, the
one OR-tools ships for LPs, so no hand-written simplex) and checks the result: the two
values agree, and no pure strategy of either player gains against the other's mix by more
than the tolerance.

:func:`double_oracle` never builds the full matrix: it solves a small restricted game, asks
each player's *best-response oracle* for its best pure strategy against the other's mix,
adds it, and stops when neither best response gains more than the tolerance. The oracles
search the whole strategy sets, so the final gap certifies the equilibrium of the full game
(McMahan, Gordon and Blum's double oracle).

Examples
--------
>>> rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
>>> eq = solve_matrix(rps)
>>> round(eq.value, 9), [round(float(p), 6) for p in eq.row]
(0.0, [0.333333, 0.333333, 0.333333])
>>> rows = cols = ("rock", "paper", "scissors")
>>> pay = lambda r, c: rps[rows.index(r)][cols.index(c)]
>>> row_br, col_br = explicit_oracles(rows, cols, pay)
>>> do = double_oracle(["rock"], ["rock"], pay, row_br, col_br)
>>> round(do.value, 9), do.gap <= 1e-7, sorted(do.row)
(0.0, True, ['paper', 'rock', 'scissors'])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.errors import SolverError

__all__ = [
    "DoubleOracleResult",
    "MatrixSolution",
    "double_oracle",
    "explicit_oracles",
    "solve_matrix",
]


@dataclass(frozen=True)
class MatrixSolution:
    """An equilibrium of a zero-sum matrix game.

    Attributes
    ----------
    value
        The game's value (the row player's guaranteed payoff).
    row, col
        The players' mixed strategies (probabilities over rows and columns).
    exploitability
        The most a pure deviation gains: ``max(A y) - min(x A)`` (0 at an exact equilibrium,
        up to the LP's precision).
    """

    value: float
    row: npt.NDArray[np.float64]
    col: npt.NDArray[np.float64]
    exploitability: float


def _lp(payoffs: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
    """The row player's maximin mix: maximise v with x A >= v in every column.

    A maximin LP always has a solution, yet GLOP's presolve can call one infeasible when a
    payoff is floating-point noise (2.8e-17 where a subgame's value is 0): such entries are
    taken as 0 (they are far below the equilibrium check's tolerance), and should GLOP
    still fail, it is asked again without presolve, with v bounded by the payoffs (where it
    always lies). The caller checks the equilibrium against the payoffs as given.
    """
    scale = max(1.0, float(np.abs(payoffs).max()))
    clean = np.where(np.abs(payoffs) < 1e-9 * scale, 0.0, payoffs)
    status = -1
    for presolve in (True, False):
        status, value, mix = _glop(clean, presolve)
        if mix is not None:
            return value, mix
    raise SolverError(f"GLOP did not solve the matrix game (status {status})")


def _glop(payoffs: npt.NDArray[np.float64], presolve: bool,
          ) -> tuple[int, float, npt.NDArray[np.float64] | None]:  # fmt: skip
    """One GLOP solve of the maximin LP: its status, v and the mix (normalised; None when
    GLOP found no optimum)."""
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:  # pragma: no cover - GLOP ships with every OR-tools wheel
        raise SolverError("OR-tools' GLOP solver is not available")
    if not presolve:
        solver.SetSolverSpecificParametersAsString("use_preprocessing: false")
    m, n = payoffs.shape
    x = [solver.NumVar(0.0, 1.0, f"x{i}") for i in range(m)]
    low, high = (-solver.infinity(), solver.infinity()) if presolve else (
        float(payoffs.min()), float(payoffs.max()))  # fmt: skip
    v = solver.NumVar(low, high, "v")
    solver.Add(sum(x) == 1)
    for j in range(n):
        solver.Add(sum(float(payoffs[i, j]) * x[i] for i in range(m)) >= v)
    solver.Maximize(v)
    status = solver.Solve()
    if status != pywraplp.Solver.OPTIMAL:
        return status, 0.0, None
    mix = np.array([max(0.0, xi.solution_value()) for xi in x])
    return status, v.solution_value(), mix / mix.sum()


def solve_matrix(payoffs: Any, tol: float = 1e-7) -> MatrixSolution:
    """An exact mixed equilibrium of the zero-sum game with these row-player payoffs.

    Parameters
    ----------
    payoffs
        An m x n array: what the column player pays the row player.
    tol
        How far the checks may be off (relative to the payoffs' scale).

    Returns
    -------
    MatrixSolution

    Raises
    ------
    ValueError
        If the matrix is empty or not finite.
    SolverError
        If the LP fails or its answer does not pass the equilibrium check.

    Notes
    -----
    Two LPs of m + 1 and n + 1 variables; GLOP's simplex is fast for a few thousand rows
    and columns.
    """
    a = np.asarray(payoffs, dtype=float)
    if a.ndim != 2 or a.size == 0:
        raise ValueError(f"a matrix game needs a non-empty 2-D payoff matrix, got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError("payoffs must be finite numbers")
    value, row = _lp(a)
    neg_value, col = _lp(-a.T)
    scale = max(1.0, float(np.abs(a).max()))
    exploit = float((a @ col).max() - (row @ a).min())
    if abs(value + neg_value) > tol * scale * 10 or exploit > tol * scale * 10:
        raise SolverError(f"the LP equilibrium fails its check: values {value} and "
                          f"{-neg_value}, exploitability {exploit}")  # fmt: skip
    return MatrixSolution((value - neg_value) / 2, row, col, max(0.0, exploit))


@dataclass(frozen=True)
class DoubleOracleResult:
    """An equilibrium found by :func:`double_oracle`.

    Attributes
    ----------
    value
        The restricted game's value, within ``gap`` of the full game's.
    row, col
        Mixed strategies: strategy -> probability (zero-probability strategies left out).
    gap
        Best row response's payoff minus best column response's payoff against the final
        mixes: an upper bound of how far ``value`` is from the full game's value, and of
        what either player could gain by deviating. At most the tolerance when converged.
    iterations
        Restricted games solved.
    row_strategies, col_strategies
        The restricted strategy sets at the end.
    payoff_calls
        Entries of the matrix evaluated.
    seconds
        Time spent.
    """

    value: float
    row: dict[Hashable, float]
    col: dict[Hashable, float]
    gap: float
    iterations: int
    row_strategies: tuple[Hashable, ...]
    col_strategies: tuple[Hashable, ...]
    payoff_calls: int
    seconds: float


#: A best-response oracle: the other player's mix -> (a best pure strategy, its payoff).
Oracle = Callable[[Mapping[Hashable, float]], tuple[Hashable, float]]


def double_oracle(
    rows: Sequence[Hashable],
    cols: Sequence[Hashable],
    payoff: Callable[[Any, Any], float],
    row_oracle: Oracle,
    col_oracle: Oracle,
    *,
    tol: float = 1e-7,
    max_iterations: int = 10_000,
    time_limit: float | None = None,
) -> DoubleOracleResult:
    """The equilibrium of a zero-sum game given by oracles, growing restricted games.

    Parameters
    ----------
    rows, cols
        Strategies to start from (at least one each).
    payoff
        ``payoff(row, col)``: what the column player pays the row player.
    row_oracle
        Given the column player's mix, the row player's best pure strategy over the whole
        set, and its expected payoff (the highest).
    col_oracle
        Given the row player's mix, the column player's best pure strategy and its expected
        payoff (the lowest).
    tol
        Stop when neither best response beats the restricted value by more than this.
    max_iterations, time_limit
        Give up (:class:`~polytile.errors.SolverError`) after this many restricted games or
        seconds.

    Returns
    -------
    DoubleOracleResult

    Raises
    ------
    SolverError
        If it does not converge within the limits, or an oracle is inconsistent (its
        response pays worse than the restricted game says its mix guarantees).
    """
    started = time.perf_counter()
    r_set: list[Hashable] = list(dict.fromkeys(rows))
    c_set: list[Hashable] = list(dict.fromkeys(cols))
    if not r_set or not c_set:
        raise ValueError("double oracle needs at least one strategy per player to start")
    cache: dict[tuple[Hashable, Hashable], float] = {}

    def entry(r: Hashable, c: Hashable) -> float:
        if (r, c) not in cache:
            cache[(r, c)] = float(payoff(r, c))
        return cache[(r, c)]

    for it in range(1, max_iterations + 1):
        a = np.array([[entry(r, c) for c in c_set] for r in r_set])
        eq = solve_matrix(a, tol=tol)
        row_mix = {r: float(p) for r, p in zip(r_set, eq.row, strict=True) if p > 1e-12}
        col_mix = {c: float(p) for c, p in zip(c_set, eq.col, strict=True) if p > 1e-12}
        best_r, up = row_oracle(col_mix)
        best_c, down = col_oracle(row_mix)
        scale = max(1.0, float(np.abs(a).max()))
        if up < eq.value - tol * scale * 10 or down > eq.value + tol * scale * 10:
            raise SolverError("a best-response oracle answered worse than a strategy already "
                              "in the restricted game")  # fmt: skip
        gap = up - down
        if up <= eq.value + tol * scale and down >= eq.value - tol * scale:
            return DoubleOracleResult(eq.value, row_mix, col_mix, max(0.0, gap), it,
                                      tuple(r_set), tuple(c_set), len(cache),
                                      time.perf_counter() - started)  # fmt: skip
        grew = False
        if up > eq.value + tol * scale and best_r not in r_set:
            r_set.append(best_r)
            grew = True
        if down < eq.value - tol * scale and best_c not in c_set:
            c_set.append(best_c)
            grew = True
        if not grew:
            raise SolverError("double oracle stalled: a best response that gains is already in "
                              "the restricted game (an inconsistent payoff or oracle)")  # fmt: skip
        if time_limit is not None and time.perf_counter() - started > time_limit:
            break
    raise SolverError(f"double oracle did not converge within {it} restricted games "
                      f"({time.perf_counter() - started:.1f} s)")  # fmt: skip


def explicit_oracles(
    rows: Sequence[Hashable], cols: Sequence[Hashable], payoff: Callable[[Any, Any], float]
) -> tuple[Oracle, Oracle]:
    """Exact best-response oracles over explicit strategy lists, by enumeration (for small
    games and tests). Ties go to the earliest strategy listed."""

    def row_oracle(col_mix: Mapping[Hashable, float]) -> tuple[Hashable, float]:
        values = [sum(p * payoff(r, c) for c, p in col_mix.items()) for r in rows]
        i = int(np.argmax(values))
        return rows[i], values[i]

    def col_oracle(row_mix: Mapping[Hashable, float]) -> tuple[Hashable, float]:
        values = [sum(p * payoff(r, c) for r, p in row_mix.items()) for c in cols]
        j = int(np.argmin(values))
        return cols[j], values[j]

    return row_oracle, col_oracle

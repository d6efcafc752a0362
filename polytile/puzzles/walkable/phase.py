"""Walkable Cities drop phases and rounds solved as zero-sum matrix games.

A drop phase (``seeds/walkable-cities.md`` 3.2-3.3) is simultaneous: with both selected pieces
known, red and blue each pass or drop, and the drops resolve together (a cell both drop on the
same board becomes dead). Its payoff here is red's *boards-won margin* (boards red wins minus
boards blue wins, -3..3) as if the game ended after this round: exact in the last round, a
one-round horizon otherwise. Red maximises it, blue minimises it.

An action is a drop, written as its four sorted global cells (a row of
:func:`~polytile.puzzles.walkable.board.drop_table`, as a tuple), or ``None`` for a pass.
Passing is always an action; a player with no legal drop can only pass.

- :func:`payoff` and :func:`resolve`: one pair of actions.
- :func:`best_response`: a best action against an opponent's drop or mix, exact over every
  legal drop (a compiled kernel that updates regions incrementally, see
  :mod:`._phase_kernel`).
- :func:`equilibrium_gap`: what the better pure deviation from a pair of mixes gains.
- :func:`solve_drop_phase`: the phase's exact mixed equilibrium and value by double oracle
  (:func:`polytile.solvers.matrix_game.double_oracle`): restricted games by GLOP, best
  responses over all drops, so the full matrix (up to 14,000 x 14,000) is never built and the
  final gap certifies the equilibrium.
- :func:`solve_round`: the selection (3.1) as a matrix game of at most 5x5 over the drop
  phases' values.

Examples
--------
>>> from polytile.puzzles.walkable.board import seeded_boards
>>> cells = seeded_boards(0, dead=95)  # five open cells per board: few drops
>>> sol = solve_drop_phase(cells, "I4", "O4")
>>> sol.gap <= 1e-6, -3 <= sol.value <= 3
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import numpy.typing as npt

from polytile.errors import BoardError, SolverError, UnknownNameError
from polytile.puzzles.walkable._phase_kernel import pair_margins, response_values
from polytile.puzzles.walkable.board import (
    BLUE,
    CELLS,
    PIECES,
    RED,
    legal_drops,
    resolve_drops,
)
from polytile.solvers.matrix_game import double_oracle, solve_matrix

__all__ = [
    "Action",
    "PhaseSolution",
    "RoundSolution",
    "best_response",
    "equilibrium_gap",
    "payoff",
    "resolve",
    "solve_drop_phase",
    "solve_round",
]

#: A drop as its four global cells (sorted in answers), or ``None`` for a pass.
Action = tuple[int, ...] | None
#: A mixed strategy: (action, probability) pairs, or a mapping action -> probability.
Mix = Iterable[tuple[Action, float]] | Mapping[Action, float]

_PASS_ROW = np.full((1, 4), -1, dtype=np.int16)


def _check_cells(cells: npt.ArrayLike) -> npt.NDArray[np.int8]:
    a = np.ascontiguousarray(cells, dtype=np.int8)
    if a.shape != (CELLS,):
        raise BoardError(f"Walkable Cities cells must be a flat array of {CELLS}, got {a.shape}")
    if a.min() < 0 or a.max() > BLUE:
        raise BoardError("Walkable Cities cells hold 0 (unclaimed), 1 (dead), 2 (red), 3 (blue)")
    return a


def _check_piece(name: str) -> None:
    if name not in PIECES:
        raise UnknownNameError("Walkable Cities piece", name, PIECES)


def _player(player: int | str) -> int:
    if player in (RED, "R", "red"):
        return RED
    if player in (BLUE, "B", "blue"):
        return BLUE
    raise ValueError(f"player must be RED ({RED}), BLUE ({BLUE}), 'R' or 'B', got {player!r}")


def _row(action: Action) -> npt.NDArray[np.int16]:
    if action is None:
        return _PASS_ROW
    cells = sorted(int(g) for g in action)
    if len(cells) != 4 or cells[0] < 0 or cells[-1] >= CELLS:
        raise BoardError(f"a drop is four global cells 0..{CELLS - 1}, got {action!r}")
    return np.array(cells, dtype=np.int16).reshape(1, 4)


def _action(row: npt.NDArray[np.int16]) -> Action:
    return None if row[0] < 0 else (int(row[0]), int(row[1]), int(row[2]), int(row[3]))


def _legal_set(cells: npt.NDArray[np.int8], name: str) -> npt.NDArray[np.int16]:
    """The legal drops of ``name`` followed by one pass row (so index ``len - 1`` passes)."""
    return np.ascontiguousarray(np.vstack([legal_drops(cells, name), _PASS_ROW]))


def _require_legal(action: Action, table: npt.NDArray[np.int16], who: str) -> None:
    if action is None:
        return
    row = _row(action)[0]
    if not (table == row).all(axis=1).any():
        raise BoardError(f"{who}'s drop {action} is not a legal drop of its piece here")


def resolve(cells: npt.ArrayLike, red: Action, blue: Action) -> npt.NDArray[np.int8]:
    """The cells after red's and blue's actions resolve together (rules 3.3): a cell both
    drop on the same board becomes dead, every other dropped cell its dropper's. The drops
    are not checked for legality here (see :func:`best_response` for checked input)."""
    work = _check_cells(cells).copy()
    r, b = _row(red)[0], _row(blue)[0]
    resolve_drops(work, r if r[0] >= 0 else (), b if b[0] >= 0 else ())
    return work


def payoff(cells: npt.ArrayLike, red: Action, blue: Action) -> int:
    """Red's boards-won margin (-3..3) after both actions resolve together: per board the
    larger largest region wins, equal sizes tie (rules 6.1-6.2), as if the game ended now."""
    a = _check_cells(cells)
    return int(pair_margins(a, _row(red), _row(blue))[0, 0])


def _mix_rows(mix: Mix) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.float64]]:
    items = list(mix.items()) if isinstance(mix, Mapping) else list(mix)
    if not items:
        raise ValueError("a mixed strategy needs at least one action")
    rows = np.ascontiguousarray(np.vstack([_row(a) for a, _ in items]))
    probs = np.array([float(p) for _, p in items], dtype=np.float64)
    if (probs < 0).any() or abs(probs.sum() - 1.0) > 1e-6:
        raise ValueError("a mixed strategy's probabilities must be >= 0 and sum to 1")
    return rows, probs


def _values(
    cells: npt.NDArray[np.int8],
    table: npt.NDArray[np.int16],
    me: int,
    rows: npt.NDArray[np.int16],
    probs: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """Red's expected margin for each row of ``table`` (legal drops then the pass row)."""
    return response_values(cells, me, np.ascontiguousarray(table[:-1]), rows, probs)


def best_response(
    cells: npt.ArrayLike,
    my_piece: str,
    their_piece: str,
    their_mix: Action | Mix,
    player: int | str,
) -> tuple[Action, float]:
    """A best action of ``player`` against the opponent's drop or mixed strategy, exact over
    every legal drop of ``my_piece`` and the pass.

    Parameters
    ----------
    cells
        The position (flat array of 300 cells).
    my_piece, their_piece
        The two selected pieces (``their_piece`` checks the opponent's drops are legal).
    their_mix
        One opponent action (a drop's four cells, or ``None`` to pass), or a mix:
        (action, probability) pairs or a mapping action -> probability.
    player
        Who responds: ``RED``/``"R"`` (maximises) or ``BLUE``/``"B"`` (minimises).

    Returns
    -------
    (action, value)
        The best action (the first in :func:`drop_table` order on ties, a pass last) and red's
        expected margin with it.

    Raises
    ------
    BoardError
        If the cells are malformed or an opponent's drop is not legal for ``their_piece``.

    Notes
    -----
    O(n k) for n legal drops and k actions in the mix, each candidate updating only the
    boards it touches (a flood fill of one board only when it collides).
    """
    a = _check_cells(cells)
    _check_piece(my_piece)
    _check_piece(their_piece)
    me = _player(player)
    mix: Mix
    if their_mix is None or (
        isinstance(their_mix, tuple) and len(their_mix) == 4 and not isinstance(their_mix[0], tuple)
    ):
        mix = [(their_mix, 1.0)]
    else:
        mix = cast(Mix, their_mix)
    rows, probs = _mix_rows(mix)
    theirs = legal_drops(a, their_piece)
    for row in rows:
        _require_legal(_action(row), theirs, "the opponent")
    table = _legal_set(a, my_piece)
    values = _values(a, table, me, rows, probs)
    i = int(np.argmax(values) if me == RED else np.argmin(values))
    return _action(table[i]), float(values[i])


def equilibrium_gap(
    cells: npt.ArrayLike, red_piece: str, blue_piece: str, red_mix: Mix, blue_mix: Mix
) -> float:
    """The independent check of a drop phase's equilibrium: red's best response payoff
    against ``blue_mix`` minus blue's best response payoff against ``red_mix``, both exact
    over every legal drop (:func:`best_response`).

    It is 0 (up to rounding) exactly when the two mixes are an equilibrium, and otherwise
    bounds what either player gains by deviating to any pure action.

    Raises
    ------
    BoardError
        If a drop in either mix is not legal for its piece.
    """
    _, up = best_response(cells, red_piece, blue_piece, blue_mix, RED)
    _, down = best_response(cells, blue_piece, red_piece, red_mix, BLUE)
    return max(0.0, up - down)


@dataclass(frozen=True)
class PhaseSolution:
    """The equilibrium of one drop phase.

    Attributes
    ----------
    value
        Red's expected boards-won margin at equilibrium (one-round horizon).
    red, blue
        The equilibrium mixes: (action, probability) pairs, most likely first; an action is
        a drop's four cells or ``None`` (pass).
    gap
        Red's best response payoff against blue's mix minus blue's best response payoff
        against red's mix, both exact over every legal drop: no pure strategy of either side
        gains more than this (0 up to the LP's precision certifies the equilibrium).
    iterations
        Restricted games solved by the double oracle.
    red_drops, blue_drops
        Legal drops of each player (the pass not counted).
    red_strategies, blue_strategies
        Size of each player's restricted strategy set at the end.
    seconds
        Time spent.
    """

    value: float
    red: list[tuple[Action, float]]
    blue: list[tuple[Action, float]]
    gap: float
    iterations: int
    red_drops: int
    blue_drops: int
    red_strategies: int
    blue_strategies: int
    seconds: float

    @property
    def red_support(self) -> int:
        """Actions red plays with positive probability."""
        return len(self.red)

    @property
    def blue_support(self) -> int:
        """Actions blue plays with positive probability."""
        return len(self.blue)


def solve_drop_phase(
    cells: npt.ArrayLike,
    red_piece: str,
    blue_piece: str,
    *,
    time_limit: float | None = None,
    tol: float = 1e-7,
) -> PhaseSolution:
    """The exact mixed equilibrium and value of a drop phase, by double oracle.

    Parameters
    ----------
    cells
        The position before the drops (flat array of 300 cells).
    red_piece, blue_piece
        The pieces red and blue selected this round.
    time_limit
        Seconds before giving up.
    tol
        Equilibrium tolerance (payoffs are integers -3..3).

    Returns
    -------
    PhaseSolution

    Raises
    ------
    BoardError, UnknownNameError
        On a malformed position or an unknown piece.
    SolverError
        If the time limit passes first, or an LP fails its check.

    Notes
    -----
    Starts from each side's best drop against a pass; every iteration solves the restricted
    game by LP and adds each side's best response over all its drops (O(n k) each, see
    :func:`best_response`). Stops when neither best response gains: the gap, measured by the
    exact oracles, certifies the equilibrium of the full game.
    """
    started = time.perf_counter()
    a = _check_cells(cells)
    _check_piece(red_piece)
    _check_piece(blue_piece)
    reds, blues = _legal_set(a, red_piece), _legal_set(a, blue_piece)
    red_pass, blue_pass = len(reds) - 1, len(blues) - 1

    def entry(r: Hashable, c: Hashable) -> float:
        i, j = int(r), int(c)  # type: ignore[call-overload]
        return float(pair_margins(a, reds[i : i + 1], blues[j : j + 1])[0, 0])

    def oracle(
        table: npt.NDArray[np.int16], me: int, other: npt.NDArray[np.int16]
    ) -> Callable[[Mapping[Hashable, float]], tuple[Hashable, float]]:
        def respond(mix: Mapping[Hashable, float]) -> tuple[Hashable, float]:
            rows = np.ascontiguousarray(other[[int(k) for k in mix]])  # type: ignore[call-overload]
            probs = np.fromiter(mix.values(), dtype=np.float64, count=len(mix))
            values = _values(a, table, me, rows, probs / probs.sum())
            i = int(np.argmax(values) if me == RED else np.argmin(values))
            return i, float(values[i])

        return respond

    red_oracle, blue_oracle = oracle(reds, RED, blues), oracle(blues, BLUE, reds)
    r0, _ = red_oracle({blue_pass: 1.0})
    c0, _ = blue_oracle({red_pass: 1.0})
    found = double_oracle([r0], [c0], entry, red_oracle, blue_oracle, tol=tol,
                          time_limit=time_limit)  # fmt: skip

    def mix(m: dict[Hashable, float], table: npt.NDArray[np.int16]) -> list[tuple[Action, float]]:
        return sorted(((_action(table[int(k)]), p) for k, p in m.items()),  # type: ignore[call-overload]
                      key=lambda x: -x[1])  # fmt: skip

    return PhaseSolution(
        value=found.value,
        red=mix(found.row, reds),
        blue=mix(found.col, blues),
        gap=found.gap,
        iterations=found.iterations,
        red_drops=red_pass,
        blue_drops=blue_pass,
        red_strategies=len(found.row_strategies),
        blue_strategies=len(found.col_strategies),
        seconds=time.perf_counter() - started,
    )


@dataclass(frozen=True)
class RoundSolution:
    """The equilibrium of a whole round: the selection over the drop phases' values.

    Attributes
    ----------
    value
        Red's expected boards-won margin at equilibrium (one-round horizon).
    red, blue
        The selection mixes: (piece, probability) pairs, most likely first.
    rotation
        The pieces that could be picked (after a refill of an empty rotation).
    values
        ``values[(red_piece, blue_piece)]``: the drop phase's value for each pair of picks.
    phases
        ``phases[(red_piece, blue_piece)]``: each drop phase's solution.
    gap
        An upper bound of what a deviation gains: the selection game's exploitability plus
        the largest drop phase gap.
    seconds
        Time spent.
    """

    value: float
    red: list[tuple[str, float]]
    blue: list[tuple[str, float]]
    rotation: tuple[str, ...]
    values: dict[tuple[str, str], float] = field(repr=False)
    phases: dict[tuple[str, str], PhaseSolution] = field(repr=False)
    gap: float
    seconds: float


def solve_round(
    cells: npt.ArrayLike,
    rotation: Sequence[str],
    *,
    time_limit: float | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    tol: float = 1e-7,
) -> RoundSolution:
    """A whole round as a matrix game: the simultaneous selection (rules 3.1), each pair of
    picks worth its drop phase's equilibrium value.

    Parameters
    ----------
    cells
        The position at the start of the round.
    rotation
        The pieces in the rotation (empty: refilled with all five; one piece: both players
        receive it and only its drop phase is solved; a piece picked by both is played by
        both).
    time_limit
        Seconds for the whole round.
    progress
        Called after each drop phase with (phases solved, phases in all, seconds so far).
    tol
        Equilibrium tolerance.

    Returns
    -------
    RoundSolution

    Raises
    ------
    UnknownNameError
        On an unknown piece in the rotation.
    SolverError
        If the time limit passes before every drop phase is solved.

    Notes
    -----
    k^2 drop phases for a rotation of k pieces (at most 25), then one LP of at most 5x5.
    """
    started = time.perf_counter()
    a = _check_cells(cells)
    pool = tuple(dict.fromkeys(rotation)) or PIECES
    for name in pool:
        _check_piece(name)
    pairs = [(r, b) for r in pool for b in pool]  # one piece: both get it, one phase
    phases: dict[tuple[str, str], PhaseSolution] = {}
    for done, (r, b) in enumerate(pairs, start=1):
        left = None
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - started)
            if left <= 0:
                raise SolverError(f"the round was not solved within {time_limit} s "
                                  f"({done - 1} of {len(pairs)} drop phases)")  # fmt: skip
        phases[(r, b)] = solve_drop_phase(a, r, b, time_limit=left, tol=tol)
        if progress is not None:
            progress(done, len(pairs), time.perf_counter() - started)
    values = {k: s.value for k, s in phases.items()}
    worst = max(s.gap for s in phases.values())
    if len(pool) == 1:
        only = pool[0]
        return RoundSolution(values[(only, only)], [(only, 1.0)], [(only, 1.0)], pool, values,
                             phases, worst, time.perf_counter() - started)  # fmt: skip
    eq = solve_matrix([[values[(r, b)] for b in pool] for r in pool], tol=tol)

    def picks(probs: npt.NDArray[np.float64]) -> list[tuple[str, float]]:
        out = [(n, float(p)) for n, p in zip(pool, probs, strict=True) if p > 1e-12]
        return sorted(out, key=lambda x: -x[1])

    return RoundSolution(eq.value, picks(eq.row), picks(eq.col), pool, values, phases,
                         eq.exploitability + worst, time.perf_counter() - started)  # fmt: skip


def warm_up() -> None:
    """Solve a small seeded round as ``solve-endgame`` does when it falls back on the one
    round's matrix game (a drop phase by double oracle, the best responses over every
    drop), so that numba compiles and caches the kernels (:mod:`polytile._warm` runs this
    in a process of its own the first time)."""
    from polytile.puzzles.walkable.board import seeded_boards

    cells = seeded_boards(0, dead=95)
    solve_drop_phase(cells, "I4", "O4")
    solve_round(cells, ("I4", "O4"))

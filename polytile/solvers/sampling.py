"""Determinized sampling (perfect-information Monte Carlo) for games with hidden information.

From one player's view, each of its legal moves is scored over the full states consistent
with what it knows (:meth:`State.hidden_states`, :meth:`State.sample_hidden`): every such
state, shown in full (:meth:`State.revealed`), is solved as a perfect-information game (the
caller's solver, e.g. alpha-beta), and
the move's score is the average of those values. With few consistent states they are all
solved, each weighted by its probability; with many, a seeded sample is, and the mean comes
with its standard error.

**This is an estimate, not the game's value.** Averaging perfect-information values assumes
the player would learn the hidden part before its next decision (strategy fusion), and it
treats all consistent states as equally informative whatever the opponent has done. Results
say so: :attr:`ViewEvaluation.kind` is ``"pimc-estimate"``, and :attr:`ViewEvaluation.exact_average`
tells an exact average over every consistent state from a sampled one.

Examples
--------
>>> from polytile.puzzles.toys import HighCard
>>> from polytile.solvers.expectimax import expectimax
>>> from polytile.solvers.alphabeta import Objective
>>> s = HighCard().new_initial_state(); s.push("deal 2-3")
>>> def solve(state, moves):
...     out = []
...     for m in moves:
...         state.push(m)
...         out.append(expectimax(state, Objective.guaranteed(0)).value)
...         state.pop()
...     return out
>>> ev = evaluate_moves(s, 0, solve)
>>> ev.kind, ev.exact_average, ev.states, {str(m): e.mean for m, e in ev.moves.items()}
('pimc-estimate', True, 2, {'bet': -0.5, 'fold': -1.0})
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polytile.errors import PolytileError
from polytile.puzzles.game import CHANCE, SIMULTANEOUS, TERMINAL, State

__all__ = ["MoveEstimate", "ViewEvaluation", "evaluate_moves"]

#: ``solve(full_state, moves)``: each move's perfect-information value for the viewer.
Solver = Callable[[State, Sequence[Any]], Sequence[float]]


@dataclass(frozen=True)
class MoveEstimate:
    """One move's score over the consistent states.

    Attributes
    ----------
    mean
        The (probability-weighted) average perfect-information value.
    stderr
        Its standard error: 0 for an exact average over every consistent state.
    low, high
        The least and greatest value over the states solved.
    """

    mean: float
    stderr: float
    low: float
    high: float


@dataclass(frozen=True)
class ViewEvaluation:
    """Every legal move of the viewer scored by determinized sampling (an estimate).

    Attributes
    ----------
    player
        Whose view.
    moves
        Move -> :class:`MoveEstimate`, best mean first.
    states
        Consistent full states solved.
    consistent
        How many there are in all, when the game can count them (else None).
    exact_average
        True when every consistent state was solved (the means are exact averages of
        perfect-information values, still not the game's value); False for a sample.
    seconds
        Time spent.
    kind
        Always ``"pimc-estimate"``.
    """

    player: int
    moves: dict[Any, MoveEstimate]
    states: int
    consistent: int | None
    exact_average: bool
    seconds: float
    kind: str = field(default="pimc-estimate")

    @property
    def best_move(self) -> Any:
        """The move with the highest average."""
        return next(iter(self.moves), None)

    def as_dict(self) -> dict[str, Any]:
        """As JSON, labelled as the estimate it is."""
        return {
            "kind": self.kind,
            "note": "average of perfect-information values over states consistent with the "
            "player's view; an estimate, not the game's value",
            "player": self.player,
            "exact_average": self.exact_average,
            "states": self.states,
            "consistent_states": self.consistent,
            "moves": [
                {"move": str(m), "mean": e.mean, "stderr": e.stderr, "low": e.low, "high": e.high}
                for m, e in self.moves.items()
            ],
            "seconds": round(self.seconds, 3),
        }


def evaluate_moves(
    state: State,
    player: int,
    solve: Solver,
    *,
    max_exact: int = 5000,
    samples: int = 200,
    seed: int | np.random.Generator | None = 0,
    time_limit: float | None = None,
    count: Callable[[State, int], int] | None = None,
) -> ViewEvaluation:
    """Score ``player``'s legal moves at ``state`` over the full states it cannot tell apart.

    Parameters
    ----------
    state
        A full state (its hidden part is ignored: only ``player``'s view of it is used).
    player
        Whose view; it must be the player to move.
    solve
        Each move's perfect-information value for ``player`` on a full state.
    max_exact
        List and solve every consistent state when the game lists at most this many.
    samples
        Otherwise, how many states to draw.
    seed
        Seeds the sample.
    time_limit
        Stop drawing after this many seconds (at least two states are always solved); the
        result says how many were.
    count
        ``count(state, player)``: how many consistent states there are, if the game can tell.

    Raises
    ------
    ValueError
        If it is not ``player``'s turn at a sequential node.
    """
    started = time.perf_counter()
    if state.to_move in (CHANCE, SIMULTANEOUS, TERMINAL) or state.to_move != player:
        raise ValueError(f"determinized sampling scores the moves of the player to move; it is "
                         f"not player {player}'s turn here")  # fmt: skip
    moves = list(state.legal_moves())
    listed = state.hidden_states(player)
    consistent = None if count is None else count(state, player)
    values: list[list[float]] = [[] for _ in moves]
    weights: list[float] = []
    exact = False
    if listed is not None:
        pairs = list(listed)
        if len(pairs) <= max_exact:
            exact = True
            consistent = len(pairs)
            for full, w in pairs:
                _solve_one(full, moves, solve, values)
                weights.append(w)
    if not exact:
        rng = np.random.default_rng(seed)
        for i in range(samples):
            if time_limit is not None and i >= 2 and time.perf_counter() - started > time_limit:
                break
            _solve_one(state.sample_hidden(player, rng), moves, solve, values)
            weights.append(1.0)
    total = sum(weights)
    estimates = {}
    for move, vals in zip(moves, values, strict=True):
        mean = sum(w * v for w, v in zip(weights, vals, strict=True)) / total
        if exact or len(vals) < 2:
            err = 0.0 if exact else math.inf
        else:
            var = sum((v - mean) ** 2 for v in vals) / (len(vals) - 1)
            err = math.sqrt(var / len(vals))
        estimates[move] = MoveEstimate(mean, err, min(vals), max(vals))
    ranked = dict(sorted(estimates.items(), key=lambda kv: -kv[1].mean))
    return ViewEvaluation(player, ranked, len(weights), consistent, exact,
                          time.perf_counter() - started)  # fmt: skip


class _Mismatch(PolytileError, ValueError):
    pass


def _solve_one(full: State, moves: list[Any], solve: Solver, values: list[list[float]]) -> None:
    legal = full.legal_moves()
    if set(map(str, legal)) != set(map(str, moves)):
        raise _Mismatch("a consistent state has other legal moves for the viewer: its view "
                        "must decide its legal moves")  # fmt: skip
    for i, v in enumerate(solve(full.revealed(), moves)):
        values[i].append(float(v))

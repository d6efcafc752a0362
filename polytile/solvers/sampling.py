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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from polytile.errors import PolytileError
from polytile.puzzles.game import CHANCE, SIMULTANEOUS, TERMINAL, State
from polytile.solvers.alphabeta import SearchStopped
from polytile.solvers.parallel import Executor, SerialExecutor

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
    complete
        False when a time limit or stop request ended the work before every planned state
        was solved.
    planned
        The states listed or drawn to be solved.
    stopped_by
        What ended the work early: ``"time"``, ``"stop"`` or ``"interrupt"`` (Ctrl-C), else
        None.
    kind
        Always ``"pimc-estimate"``.
    """

    player: int
    moves: dict[Any, MoveEstimate]
    states: int
    consistent: int | None
    exact_average: bool
    seconds: float
    complete: bool = True
    planned: int = 0
    stopped_by: str | None = None
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
            "complete": self.complete,
            "states": self.states,
            "planned_states": self.planned,
            "stopped_by": self.stopped_by,
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
    executor: Executor | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ViewEvaluation:
    """Score ``player``'s legal moves at ``state`` over the full states it cannot tell apart.

    Parameters
    ----------
    state
        A full state (its hidden part is ignored: only ``player``'s view of it is used).
    player
        Whose view; it must be the player to move.
    solve
        Each move's perfect-information value for ``player`` on a full state; picklable
        (a module-level function) when ``executor`` runs other processes.
    max_exact
        List and solve every consistent state when the game lists at most this many (the
        listing watches the clock too).
    samples
        Otherwise, how many states to draw: one by one as the executor takes them, so a
        stop leaves at most a few drawn beyond those solved, and none is held longer.
    seed
        Seeds the sample, and the order in which listed states are solved.
    time_limit, stop
        Stop after this many seconds, or when ``stop()`` returns True (asked between
        results, at least every tenth of a second with worker processes), or at Ctrl-C: the
        result then covers the states solved so far, a random part of them, and says so
        (``complete`` False, ``stopped_by``). A ``solve`` may raise
        :class:`~polytile.solvers.alphabeta.SearchStopped` when it runs out of time too.
    count
        ``count(state, player)``: how many consistent states there are, if the game can tell.
    executor
        Runs the states' solves (:mod:`polytile.solvers.parallel`; default: this process).
    progress
        Called with (states solved, states to solve) as results arrive.

    Raises
    ------
    ValueError
        If it is not ``player``'s turn at a sequential node.
    SearchStopped
        When the work stops before a single state is solved.
    """
    started = time.perf_counter()
    if state.to_move in (CHANCE, SIMULTANEOUS, TERMINAL) or state.to_move != player:
        raise ValueError(f"determinized sampling scores the moves of the player to move; it is "
                         f"not player {player}'s turn here")  # fmt: skip
    moves = list(state.legal_moves())
    rng = np.random.default_rng(seed)
    stopped_by: str | None = None

    def poll() -> bool:
        nonlocal stopped_by
        if time_limit is not None and time.perf_counter() - started > time_limit:
            stopped_by = "time"
        elif stop is not None and stop():
            stopped_by = "stop"
        return stopped_by is not None

    consistent = None if count is None else count(state, player)
    try:
        listed = _listed(state, player, max_exact, poll)
    except KeyboardInterrupt:
        stopped_by = "interrupt"
        listed = None
    if stopped_by is not None:  # the listing took the time: nothing is solved
        raise SearchStopped(stopped_by, 0, time.perf_counter() - started)
    exact = listed is not None
    states: Iterable[State]
    if listed is not None:
        consistent = planned = len(listed)
        listed = [listed[i] for i in rng.permutation(len(listed))]
        states = (full for full, _ in listed)
    else:  # drawn one by one as the executor asks for them: the sample is never held
        planned = samples
        states = (state.sample_hidden(player, rng) for _ in range(samples))
    executor = executor or SerialExecutor()

    solved: list[int] = []
    values: list[list[float]] = [[] for _ in moves]
    job = partial(_solve_one, solve=solve, moves=moves)
    try:
        for i, vals in executor.imap_unordered(job, states, poll):
            solved.append(i)
            for j, v in enumerate(vals):
                values[j].append(v)
            if progress is not None:
                progress(len(solved), planned)
            if poll():
                break
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    except SearchStopped as stopped:  # a state's own search ran out of the time left
        stopped_by = stopped.reason
    complete = len(solved) == planned
    if not solved:
        raise SearchStopped(stopped_by or "stop", 0, time.perf_counter() - started)
    weights = [1.0 if listed is None else listed[i][1] for i in solved]
    estimates = {}
    for move, vals in zip(moves, values, strict=True):
        estimates[move] = _estimate(vals, weights, exact and complete)
    ranked = dict(sorted(estimates.items(), key=lambda kv: -kv[1].mean))
    return ViewEvaluation(player, ranked, len(solved), consistent, exact and complete,
                          time.perf_counter() - started, complete=complete, planned=planned,
                          stopped_by=None if complete else stopped_by)  # fmt: skip


def _listed(state: State, player: int, max_exact: int,
            poll: Callable[[], bool]) -> list[tuple[State, float]] | None:  # fmt: skip
    """Every consistent state with its weight when the game lists them and there are at
    most ``max_exact``, else None (a sample is drawn instead). Listing stops as soon as
    ``poll()`` says so, asked every 64 states, so a time limit holds here too."""
    listing = state.hidden_states(player)
    if listing is None:
        return None
    listed: list[tuple[State, float]] = []
    for pair in listing:
        if len(listed) == max_exact:
            return None
        listed.append(pair)
        if len(listed) % 64 == 0 and poll():
            return None
    return listed


def _estimate(vals: list[float], weights: list[float], exact: bool) -> MoveEstimate:
    """The weighted mean of ``vals`` with its standard error (0 when ``exact``).

    A partial list of states is a random part of them (solved in a seeded random order), so
    its weighted mean estimates the whole one; the error uses Kish's effective sample size
    of the weights.
    """
    total = sum(weights)
    mean = sum(w * v for w, v in zip(weights, vals, strict=True)) / total
    if exact:
        err = 0.0
    elif len(vals) < 2:
        err = math.inf
    else:
        var = sum(w * (v - mean) ** 2 for w, v in zip(weights, vals, strict=True)) / total
        var *= len(vals) / (len(vals) - 1)
        n_eff = total**2 / sum(w * w for w in weights)
        err = math.sqrt(var / n_eff)
    return MoveEstimate(mean, err, min(vals), max(vals))


class _Mismatch(PolytileError, ValueError):
    pass


def _solve_one(full: State, *, solve: Solver, moves: list[Any]) -> list[float]:
    legal = full.legal_moves()
    if set(map(str, legal)) != set(map(str, moves)):
        raise _Mismatch("a consistent state has other legal moves for the viewer: its view "
                        "must decide its legal moves")  # fmt: skip
    return [float(v) for v in solve(full.revealed(), moves)]

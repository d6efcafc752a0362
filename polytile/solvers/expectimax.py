"""Expectimax over the game protocol: exact values of sequential games with chance events.

At a player's node the side that raises the objective takes the largest child value, the
other side the smallest (as in :mod:`polytile.solvers.alphabeta`, whose
:class:`~polytile.solvers.alphabeta.Objective` it shares); at a chance node the value is the
probability-weighted mean over :meth:`State.chance_outcomes`. Values are memoised per
:meth:`State.state_key`, so a position reached by several histories is solved once.

Examples
--------
>>> from polytile.puzzles.toys import DiceRace
>>> r = expectimax(DiceRace(target=4, sides=2).new_initial_state(), Objective.margin())
>>> round(r.value, 4), str(r.best_move)
(-0.0312, 'roll')

Notes
-----
Without pruning, the work is the number of distinct keys reachable times the moves and
outcomes at each: for small chance games and endgames.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from polytile.puzzles.game import CHANCE, State, require
from polytile.solvers.alphabeta import Objective, SearchStopped

__all__ = ["ExpectimaxResult", "expectimax"]


@dataclass(frozen=True)
class ExpectimaxResult:
    """The answer of :func:`expectimax`.

    Attributes
    ----------
    value
        The expected objective under best play by both sides.
    best_move
        A best move at the root (None at a chance node or when the game is over).
    move_values
        Every root move's expected value (the root's outcomes' at a chance node).
    nodes, seconds
        Positions evaluated and time spent.
    """

    value: float
    best_move: Any
    move_values: dict[Any, float]
    nodes: int
    seconds: float


def expectimax(
    state: State,
    objective: Objective,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> ExpectimaxResult:
    """The expected value of ``objective`` with best play and chance by its odds.

    Raises
    ------
    UnsupportedGameError
        If the game has simultaneous moves or hidden information.
    SearchStopped
        When a limit, a stop request or Ctrl-C ends the search first.
    """
    require(state.game, "expectimax", sequential=True, perfect_information=True)
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    s = state.clone()
    memo: dict[Hashable, float] = {}
    nodes = 0

    def tick() -> None:
        nonlocal nodes
        nodes += 1
        if node_limit is not None and nodes > node_limit:
            raise SearchStopped("nodes", nodes, time.perf_counter() - started)
        if nodes & 1023 == 0:
            if deadline is not None and time.perf_counter() >= deadline:
                raise SearchStopped("time", nodes, time.perf_counter() - started)
            if stop is not None and stop():
                raise SearchStopped("stop", nodes, time.perf_counter() - started)

    def children(node: State) -> dict[Any, float]:
        out = {}
        for move, _ in _branches(node):
            node.push(move)
            try:
                out[move] = value(node)
            finally:
                node.pop()
        return out

    def value(node: State) -> float:
        key = node.state_key()
        if key in memo:
            return memo[key]
        tick()
        if node.is_over():
            v = objective.value(node)
        elif node.to_move == CHANCE:
            v = sum(p * w for (_, p), w in zip(_branches(node), children(node).values(),
                                               strict=True))  # fmt: skip
        else:
            vals = children(node).values()
            v = max(vals) if objective.maximizing(node) else min(vals)
        memo[key] = v
        return v

    try:
        if s.is_over():
            return ExpectimaxResult(objective.value(s), None, {}, 1, time.perf_counter() - started)
        root = children(s)
    except KeyboardInterrupt:
        raise SearchStopped("interrupt", nodes, time.perf_counter() - started) from None
    if s.to_move == CHANCE:
        total = sum(p * root[m] for m, p in _branches(s))
        return ExpectimaxResult(total, None, root, nodes, time.perf_counter() - started)
    pick = max if objective.maximizing(s) else min
    best = pick(root, key=root.__getitem__)
    return ExpectimaxResult(root[best], best, root, nodes, time.perf_counter() - started)


def _branches(node: State) -> list[tuple[Any, float]]:
    """(move, probability): chance outcomes at a chance node, else each move with weight 1."""
    if node.to_move == CHANCE:
        return node.chance_outcomes()
    return [(m, 1.0) for m in node.legal_moves()]

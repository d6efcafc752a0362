"""The Walkable Cities engine player: the equilibrium of what comes next, an action drawn
from its mix.

Every decision is half of a zero-sum matrix game, so the engine plays a mixed strategy, as
an equilibrium does: a pure choice could be read and answered. When the exact backward
induction (:func:`polytile.puzzles.walkable.endgame.solve_endgame`) settles the rest of
the game in half the time, its equilibrium is played and the choice is exact. Otherwise
the selection or the drop phase is solved as a matrix game one round ahead
(:func:`polytile.puzzles.walkable.phase.solve_round`,
:func:`~polytile.puzzles.walkable.phase.solve_drop_phase`: the boards won as if the game
ended after this round), an estimate. If even that does not finish in time, the greedy
player's choice is played and the choice says so.

Examples
--------
>>> import numpy as np
>>> from polytile.puzzles.walkable.rules import Walkable
>>> g = Walkable.new(seed=4)
>>> c = engine_choice(g, 0, 30.0, rng=np.random.default_rng(0))
>>> c.exact, c.label, c.move in g.pick_choices()
(False, 'estimate (the selection as a matrix game, one round ahead)', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from polytile.errors import SolverError
from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice
from polytile.puzzles.walkable.players import greedy_drop, greedy_pick
from polytile.puzzles.walkable.rules import PASS, Drop, Walkable

__all__ = ["engine_choice", "engine_players"]


def _draw(mix: Sequence[tuple[Any, float]], rng: np.random.Generator) -> Any:
    p = np.array([q for _, q in mix], dtype=float)
    return mix[int(rng.choice(len(mix), p=p / p.sum()))][0]


def engine_choice(g: Walkable, player: int, seconds: float | None = DEFAULT_MOVE_TIME, *,
                  rng: np.random.Generator | None = None) -> EngineChoice:  # fmt: skip
    """``player``'s pick (at a round's start) or drop (a :class:`Drop` or ``"pass"``, once
    both picks are known) at ``g`` within ``seconds``; ``g`` is not changed."""
    from polytile.puzzles.walkable.endgame import EndgameRefused, EndgameStopped, solve_endgame
    from polytile.puzzles.walkable.phase import solve_drop_phase, solve_round

    started = time.perf_counter()
    rng = rng if rng is not None else np.random.default_rng()
    sign = 1.0 if player == 0 else -1.0
    selecting = g.picks is None

    def choice(move: Any, exact: bool, value: float | None, label: str) -> EngineChoice:
        return EngineChoice(move, exact, value, label, time.perf_counter() - started)

    try:
        sol = solve_endgame(g, time_limit=None if seconds is None else seconds / 2)
    except (EndgameRefused, EndgameStopped):
        pass
    else:
        if selecting and sol.selection is not None:
            return choice(_draw(sol.selection[player], rng), True, sign * sol.value,
                          "exact (the rest of the game by backward induction)")  # fmt: skip
        if not selecting and sol.drop_games:
            node = sol.drop_games[0]
            return choice(_draw((node.red, node.blue)[player], rng), True, sign * sol.value,
                          "exact (the rest of the game by backward induction)")  # fmt: skip
    left = None if seconds is None else max(0.05, seconds - (time.perf_counter() - started))
    try:
        if selecting:
            rs = solve_round(g.cells, g.pick_choices(), time_limit=left)
            return choice(_draw((rs.red, rs.blue)[player], rng), False, sign * rs.value,
                          "estimate (the selection as a matrix game, one round ahead)")  # fmt: skip
        assert g.picks is not None
        ps = solve_drop_phase(g.cells, g.picks[0], g.picks[1], time_limit=left)
    except SolverError:
        greedy = greedy_pick if selecting else greedy_drop
        return choice(greedy(g, player, rng), False, None,
                      "greedy (out of time before the matrix game was solved)")  # fmt: skip
    action = _draw((ps.red, ps.blue)[player], rng)
    cells = None if action is None else tuple(int(x) for x in action)
    move = PASS if cells is None else Drop(g.picks[player], cells)  # type: ignore[arg-type]
    return choice(move, False, sign * ps.value,
                  "estimate (the drop phase as a matrix game, one round ahead)")  # fmt: skip


def engine_players(seconds: float = DEFAULT_MOVE_TIME) -> tuple[
        Callable[[Walkable, int, np.random.Generator], str],
        Callable[[Walkable, int, np.random.Generator], Drop | str]]:  # fmt: skip
    """The engine's (pick, drop) pair, as :data:`polytile.puzzles.walkable.players.PLAYERS`
    holds them, taking ``seconds`` a decision."""

    def pick(g: Walkable, player: int, rng: np.random.Generator) -> str:
        return str(engine_choice(g, player, seconds, rng=rng).move)

    def drop(g: Walkable, player: int, rng: np.random.Generator) -> Drop | str:
        move: Drop | str = engine_choice(g, player, seconds, rng=rng).move
        return move

    return pick, drop

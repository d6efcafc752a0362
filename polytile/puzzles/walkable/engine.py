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

A whole round at once (the web board): :func:`engine_round` plays both players' parts as
the rules have them made, the picks at once and then, both picks known, the drops at once;
:func:`engine_part` commits one player's pick and drop together from the round's start,
seeing nothing of the other's part (the board's answer to a person who entered theirs).

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
from dataclasses import dataclass
from typing import Any

import numpy as np

from polytile.errors import SolverError
from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice
from polytile.puzzles.walkable.players import greedy_drop, greedy_pick
from polytile.puzzles.walkable.rules import PASS, PLAYER_NAMES, Drop, Round, Walkable

__all__ = ["engine_choice", "engine_part", "engine_players", "engine_round"]

#: A mixed strategy: (action, probability) pairs.
Mix = Sequence[tuple[Any, float]]


def _load() -> None:
    """Import the matrix-game and endgame solvers, whose compiled kernels load on import,
    and OR-tools' LP solver (together a second or two the first time in a process), so that
    this one-off start-up is not counted against a decision's time."""
    import ortools.linear_solver.pywraplp  # noqa: F401

    import polytile.puzzles.walkable.endgame
    import polytile.puzzles.walkable.phase  # noqa: F401


def _draw(mix: Sequence[tuple[Any, float]], rng: np.random.Generator) -> Any:
    p = np.array([q for _, q in mix], dtype=float)
    return mix[int(rng.choice(len(mix), p=p / p.sum()))][0]


def engine_choice(g: Walkable, player: int, seconds: float | None = DEFAULT_MOVE_TIME, *,
                  rng: np.random.Generator | None = None) -> EngineChoice:  # fmt: skip
    """``player``'s pick (at a round's start) or drop (a :class:`Drop` or ``"pass"``, once
    both picks are known) at ``g`` within ``seconds``; ``g`` is not changed."""
    _load()
    started = time.perf_counter()
    from polytile.puzzles.walkable.endgame import EndgameRefused, EndgameStopped, solve_endgame
    from polytile.puzzles.walkable.phase import solve_drop_phase, solve_round

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


@dataclass(frozen=True)
class _RoundPlan:
    """A round's equilibrium from its start: each player's mix of picks, and for each pair
    of picks each player's mix of drops (:data:`PASS` or a :class:`Drop`)."""

    picks: tuple[Mix, Mix]
    drops: Callable[[tuple[str, str]], tuple[Mix, Mix]]
    kind: str  # "exact", "estimate" or "greedy", as the label starts
    rests_on: str
    value: float | None  # red's


def _round_plan(g: Walkable, seconds: float | None, rng: np.random.Generator) -> _RoundPlan:
    """The equilibrium of the round starting at ``g``, as :func:`engine_choice` finds it:
    exact when the backward induction ends in half of ``seconds``, else the round as a
    matrix game, else greedy."""
    from polytile.puzzles.walkable.endgame import EndgameRefused, EndgameStopped, solve_endgame
    from polytile.puzzles.walkable.phase import solve_round

    started = time.perf_counter()
    pool = g.available()
    try:
        sol = solve_endgame(g, time_limit=None if seconds is None else seconds / 2)
    except (EndgameRefused, EndgameStopped):
        pass
    else:
        only: Mix = [(pool[0], 1.0)]  # one piece left: both get it, no selection to solve
        nodes = {node.picks: (node.red, node.blue) for node in sol.drop_games}
        return _RoundPlan(sol.selection or (only, only), nodes.__getitem__, "exact",
                          "the rest of the game by backward induction", sol.value)  # fmt: skip
    left = None if seconds is None else max(0.05, seconds - (time.perf_counter() - started))
    try:
        rs = solve_round(g.cells, pool, time_limit=left)
    except SolverError:

        def greedy(picks: tuple[str, str]) -> tuple[Mix, Mix]:
            after = g.copy()
            after.select(*picks)
            return [(greedy_drop(after, 0, rng), 1.0)], [(greedy_drop(after, 1, rng), 1.0)]

        picks = ([(greedy_pick(g, 0, rng), 1.0)], [(greedy_pick(g, 1, rng), 1.0)])
        return _RoundPlan(picks, greedy, "greedy",
                          "out of time before the matrix game was solved", None)  # fmt: skip

    def drops(picks: tuple[str, str]) -> tuple[Mix, Mix]:
        phase = rs.phases[picks]

        def mix(piece: str, actions: Mix) -> Mix:
            return [(PASS if a is None else Drop(piece, tuple(int(x) for x in a)), p)  # type: ignore[arg-type]
                    for a, p in actions]  # fmt: skip

        return mix(picks[0], phase.red), mix(picks[1], phase.blue)

    return _RoundPlan((rs.red, rs.blue), drops, "estimate",
                      "the round as a matrix game, one round ahead", rs.value)  # fmt: skip


def _drawn_round(g: Walkable, seconds: float | None,
                 rng: np.random.Generator | None) -> tuple[Round, _RoundPlan]:  # fmt: skip
    """A whole round drawn from the equilibrium of the round starting at ``g``: each pick
    from its player's mix, then each drop from its player's mix of that pair's drop phase
    (every draw on its own, as each player makes it), and the plan it was drawn from."""
    if g.phase != "select":
        why = "the game is over" if g.phase == "over" else "this round's picks are made"
        raise ValueError(f"the engine plays a round from its start: {why}")
    rng = rng if rng is not None else np.random.default_rng()
    plan = _round_plan(g, seconds, rng)
    picks = (str(_draw(plan.picks[0], rng)), str(_draw(plan.picks[1], rng)))
    red, blue = plan.drops(picks)
    return Round(picks, (_draw(red, rng), _draw(blue, rng))), plan


def engine_round(g: Walkable, seconds: float | None = DEFAULT_MOVE_TIME, *,
                 rng: np.random.Generator | None = None) -> EngineChoice:  # fmt: skip
    """A whole round at ``g`` (a round's start) within ``seconds``, the engine playing both
    players, each from its own view: the picks drawn at once from the selection's
    equilibrium, then, both picks known as the rules show them, the drops drawn at once
    from that drop phase's equilibrium. The move is a :class:`Round`, its value red's;
    ``g`` is not changed.

    Raises
    ------
    ValueError
        Outside a round's start (the game over, or picks already made).
    """
    _load()
    started = time.perf_counter()
    rnd, plan = _drawn_round(g, seconds, rng)
    return EngineChoice(rnd, plan.kind == "exact", plan.value, f"{plan.kind} ({plan.rests_on})",
                        time.perf_counter() - started)  # fmt: skip


def engine_part(g: Walkable, player: int, seconds: float | None = DEFAULT_MOVE_TIME, *,
                rng: np.random.Generator | None = None) -> EngineChoice:  # fmt: skip
    """``player``'s part of the round starting at ``g``, its pick and its drop together,
    within ``seconds``, chosen from ``g`` alone: as a player who commits both before seeing
    anything of the other's part (the web board's answer to a person who gave theirs so).

    It is ``player``'s half of a whole round drawn as :func:`engine_round` draws one: the
    pick from the selection's equilibrium; the drop, which the rules let a player choose
    knowing both picks, from the drop phase of its pick and a pick of the other's drawn
    from the other's mix (the other half, a guess, is dropped). The choice is never exact
    (the drop rests on that guess). The move is the part as a round writes it (``T4
    1:c4,d4 2:e4 3:d5`` or ``L4 pass``), its value ``player``'s; ``g`` is not changed.
    It raises ValueError where :func:`engine_round` does.
    """
    _load()
    started = time.perf_counter()
    rnd, plan = _drawn_round(g, seconds, rng)
    mine, theirs, drop = rnd.picks[player], rnd.picks[1 - player], rnd.drops[player]
    other = PLAYER_NAMES[1 - player]
    kind = "estimate" if plan.kind == "exact" else plan.kind
    label = (f"{kind} ({plan.rests_on}; its drop as if {other} picked {theirs}, a pick drawn "
             f"from {other}'s mix)")  # fmt: skip
    part = f"{mine} {PASS}" if drop == PASS else str(drop)
    value = None if plan.value is None else (1.0 if player == 0 else -1.0) * plan.value
    return EngineChoice(part, False, value, label, time.perf_counter() - started)

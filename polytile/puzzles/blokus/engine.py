"""The Blokus engine player: the exact endgame search where it answers in time, Monte Carlo
tree search before.

When every player can still place at most :data:`EXACT_PIECES` pieces, the exact endgame
search (:func:`polytile.puzzles.blokus.endgame.solve_endgame`) gets a quarter of the
time, half when at most :data:`SURE_PIECES` (its
compiled search only once compiled: the first compile after installing runs in the
background instead of eating the move's time); if it finishes, its best move is played and
the choice is exact. Otherwise (and with the time
left) Monte Carlo tree search (:func:`polytile.solvers.mcts.mcts`) estimates the moves:
the tree considers the placements of the biggest pieces the mover can still place (a
smaller piece is never better while a bigger one fits, the rule every strong Blokus engine
starts from), and each playout places, for every colour in turn, a random placement of its
biggest piece that fits. The reward is the win, with a share for the margin.

Examples
--------
>>> from polytile.puzzles.blokus.rules import Blokus
>>> g = Blokus("duo")
>>> c = engine_choice(g, None, playouts=40)
>>> c.exact, c.label, len(c.move.cells)
(False, 'estimate (Monte Carlo tree search, 40 playouts)', 5)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from polytile.puzzles.blokus.game import BlokusGame
from polytile.puzzles.blokus.players import greedy
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice
from polytile.puzzles.game import State
from polytile.solvers.mcts import MctsResult, mcts

__all__ = ["EXACT_PIECES", "SURE_PIECES", "engine_choice", "engine_move", "load",
           "playout_policy", "search"]

#: Try the exact endgame search when no player can place more pieces than this...
EXACT_PIECES = 10
#: ... with half the time when none can place more than this, a quarter otherwise.
SURE_PIECES = 6


def _biggest(moves: list[Move]) -> list[Move]:
    if moves[0].is_pass:
        return moves
    size = max(len(m.cells) for m in moves)
    return [m for m in moves if len(m.cells) == size]


#: How often a playout move is the greedy player's (its biggest piece where it blocks the
#: others most) rather than a random placement of the biggest piece.
GREEDY_SHARE = 0.5


def playout_policy(state: State, rng: np.random.Generator) -> Move:
    """A playout's move: the greedy player's (:data:`GREEDY_SHARE` of the time) or a random
    placement of the biggest piece that fits."""
    moves = state.legal_moves()
    if not moves[0].is_pass and len(moves) > 1 and rng.random() < GREEDY_SHARE:
        return greedy(state.board, moves, rng)  # type: ignore[attr-defined]
    moves = _biggest(moves)
    return moves[int(rng.integers(len(moves)))]


def _candidates(state: State, moves: list[Any]) -> list[Any]:
    return _biggest(moves)


def _exact(g: Blokus, seconds: float | None) -> EngineChoice | None:
    from polytile.puzzles.blokus.endgame import endgame_size, solve_endgame
    from polytile.puzzles.blokus.endgame_result import EndgameRefused, EndgameStopped

    started = time.perf_counter()
    most = max(endgame_size(g).values(), default=0)
    if most > EXACT_PIECES:
        return None
    from polytile._warm import compiled_or_started

    # A compile after installing takes longer than a move: until it is done (in the
    # background, for later moves), the Python search alone has the time.
    compiled = compiled_or_started("blokus-endgame")
    try:
        share = 2 if most <= SURE_PIECES else 4
        result = solve_endgame(g, time_limit=None if seconds is None else seconds / share,
                               use_compiled=compiled)  # fmt: skip
    except (EndgameRefused, EndgameStopped):
        return None
    line = result.best_line
    if line is None or result.best_move is None:
        return None
    if result.mode == "difference":
        value = line.value if result.to_move == result.players[0] else -line.value
        label = "exact (endgame search)"
    else:
        value = line.value
        label = "exact (endgame search: the score the mover can make sure of)"
    return EngineChoice(result.best_move, True, float(value), label,
                        time.perf_counter() - started)  # fmt: skip


def search(g: Blokus, seconds: float | None, *, playouts: int | None = None,
           rng: np.random.Generator | None = None,
           should_stop: Callable[[], bool] | None = None) -> MctsResult:  # fmt: skip
    """The tree search alone at ``g`` for the player to move: every root move's visits and
    mean margin (its final score minus the best other player's); ``g`` is not changed."""
    state = BlokusGame(g.variant.name, g.players).state_of(g.copy())
    return mcts(state, time_limit=seconds, playouts=playouts, policy=playout_policy,
                candidates=_candidates, seed=rng, should_stop=should_stop)  # fmt: skip


_loaded: set[str] = set()


def load(variant: str = "duo") -> None:
    """Switch to the compiled move generator and load it (numba and its cached kernels:
    about a second in a new process, 2-10 s on a busy machine), once a process. A search
    fills its time with playouts, so the numpy kernels' head start (:mod:`kernels`) only
    delays the switch. The engine loads them before a move's clock starts, so a move's
    time goes to playouts; a process's first move still takes the load on top of its time
    in wall time (the first 1 s move of a process had taken up to 13 s on a busy machine,
    the load counted inside its time and its playouts in the slower kernels)."""
    if variant in _loaded:
        return
    from polytile.puzzles.blokus import kernels

    kernels.use_compiled()
    g = Blokus(variant)
    moves = g.legal_moves()
    g.push(greedy(g, moves, np.random.default_rng(0)))
    g.legal_moves()
    _loaded.add(variant)


def engine_choice(g: Blokus, seconds: float | None = DEFAULT_MOVE_TIME, *,
                  playouts: int | None = None, rng: np.random.Generator | None = None,
                  should_stop: Callable[[], bool] | None = None) -> EngineChoice:  # fmt: skip
    """The engine's move at ``g`` for the colour to move (a pass when it has none), within
    ``seconds`` (or after ``playouts`` playouts) once its move generator is loaded
    (:func:`load`); ``g`` is not changed."""
    load(g.variant.name)
    started = time.perf_counter()
    moves = g.legal_moves()
    if len(moves) == 1:
        what = "a forced pass" if moves[0].is_pass else "the only legal move"
        return EngineChoice(moves[0], True, None, what, 0.0)
    exact = _exact(g, seconds) if playouts is None else None
    if exact is not None:
        return exact
    left = None if seconds is None else max(0.05, seconds - (time.perf_counter() - started))
    r = search(g, left, playouts=playouts, rng=rng, should_stop=should_stop)
    return EngineChoice(r.best, False, r.value if r.playouts else None, r.label,
                        time.perf_counter() - started)  # fmt: skip


def engine_move(seconds: float = DEFAULT_MOVE_TIME) -> Callable[[Blokus, list[Move], Any], Move]:
    """A move chooser with :func:`polytile.puzzles.blokus.players.greedy`'s signature
    (``(game, moves, rng)``) that takes ``seconds`` a move."""

    def choose(g: Blokus, moves: list[Move], rng: Any) -> Move:
        return engine_choice(g, seconds, rng=rng).move

    return choose

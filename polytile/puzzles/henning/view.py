"""City Blocks (Henning): every move scored from one player's view while tiles are hidden.

A player does not see the other hand nor the order of either reserve. :func:`evaluate_view`
scores each of its legal moves over the full states consistent with what it sees
(:meth:`~polytile.puzzles.henning.game.HenningState.hidden_states`): all of them when there
are at most ``max_exact``, else a seeded sample. Each state is solved exactly to the end
(every move's exact margin, its line replayed by the rules: the compiled search of
:mod:`polytile.puzzles.henning.kernel`, or the generic alpha-beta
:func:`polytile.solvers.alphabeta.move_values` with this game's hooks), and a move's score
is the average of its margins, weighted by the states' probabilities
(:func:`polytile.solvers.sampling.evaluate_moves`).

That average is **an estimate, not the game's value**: it credits the player with knowing
the hidden tiles when it plays on. Results are labelled ``"pimc-estimate"``. Only when
nothing is hidden from the player (both reserves empty: the other hand is known by
elimination) is there one consistent state, and the scores are then the exact values
(:attr:`ViewAnalysis.exact_values`).

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> from polytile.puzzles.henning.players import self_play
>>> g = Henning.new(seed=3)
>>> _ = self_play(g, seed=3)
>>> while g.reserve_size(0) + g.reserve_size(1) < 2:
...     _ = g.pop()
>>> a = evaluate_view(g, g.to_move)
>>> a.evaluation.kind, a.evaluation.exact_average, a.exact_values
('pimc-estimate', True, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from polytile.puzzles.game import State
from polytile.puzzles.henning.endgame import MARGIN, _Hooks
from polytile.puzzles.henning.game import HenningGame, HenningState
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.tiles import PLAYER_NAMES
from polytile.solvers.alphabeta import move_values
from polytile.solvers.parallel import Executor
from polytile.solvers.sampling import ViewEvaluation, evaluate_moves

__all__ = ["ENGINES", "ViewAnalysis", "evaluate_view", "solve_moves"]


@dataclass(frozen=True)
class ViewAnalysis:
    """The moves of ``player`` scored over the states it cannot tell apart.

    Attributes
    ----------
    evaluation
        Each move's average exact margin (the player's money minus the other's) with its
        standard error, best first (:class:`~polytile.solvers.sampling.ViewEvaluation`).
    player
        Whose view (0 blue, 1 red); the player to move.
    consistent
        How many distinct full states agree with the view.
    exact_values
        True when nothing is hidden from the player (one consistent state): the scores are
        then the moves' exact values, not estimates.
    """

    evaluation: ViewEvaluation
    player: int
    consistent: int
    exact_values: bool

    def as_dict(self) -> dict[str, Any]:
        """As JSON: labelled ``"pimc-estimate"`` unless the values are exact."""
        doc = self.evaluation.as_dict()
        doc["player"] = PLAYER_NAMES[self.player]
        doc["lead"] = (f"{PLAYER_NAMES[self.player]}'s final money minus "
                       f"{PLAYER_NAMES[1 - self.player]}'s")  # fmt: skip
        doc["consistent_states"] = self.consistent
        if self.exact_values:
            doc["kind"] = "exact"
            doc["note"] = ("nothing is hidden from this player: each move's exact margin "
                           "under best play")  # fmt: skip
        return {"game": "henning", "analysis": "view", "exact_values": self.exact_values, **doc}


#: The exact solvers a view analysis can use for each state.
ENGINES = ("kernel", "python")


def solve_moves(full: State, moves: Sequence[Any], deadline: float | None = None,
                engine: str = "kernel") -> list[float]:  # fmt: skip
    """Each move's exact final margin for the player to move at ``full`` (its money minus
    the other's), every line replayed by the rules. Module-level, so worker processes can
    run it.

    ``engine`` ``"kernel"`` is the compiled search
    (:func:`~polytile.puzzles.henning.kernel.kernel_move_values`), ``"python"`` the generic
    alpha-beta (:func:`polytile.solvers.alphabeta.move_values`) with this game's hooks; they
    give the same values. The kernel cannot be stopped inside a state: ``deadline`` (a
    ``time.time()``) holds for the Python search only.

    Raises
    ------
    SearchStopped
        When the clock passes ``deadline`` first (Python engine).
    """
    board: Henning = full.board  # type: ignore[attr-defined]
    me = board.to_move
    if engine == "kernel":
        from polytile.puzzles.henning.kernel import kernel_move_values

        values, _ = kernel_move_values(board, list(moves))
    elif engine == "python":
        limit = None if deadline is None else max(deadline - time.time(), 1e-3)
        floats, _ = move_values(full, MARGIN, _Hooks(), moves, time_limit=limit)
        values = [int(v) for v in floats]
    else:
        raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    return [float(v if me == 0 else -v) for v in values]


def evaluate_view(
    game: Henning,
    player: int,
    *,
    max_exact: int = 5000,
    samples: int = 200,
    seed: int | np.random.Generator | None = 0,
    time_limit: float | None = None,
    executor: Executor | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = "kernel",
) -> ViewAnalysis:
    """Score ``player``'s moves at ``game`` from its view (see the module notes).

    Parameters
    ----------
    game
        A full position; only ``player``'s view of it is used (a loaded view document fills
        the hidden part in one consistent way, which is fine).
    player
        Whose view: the player to move.
    max_exact, samples, seed, time_limit, executor, stop, progress
        As :func:`polytile.solvers.sampling.evaluate_moves`.
    engine
        The exact solver of each state (:func:`solve_moves`).

    Raises
    ------
    ValueError
        If the game is over or ``player`` is not to move.
    SearchStopped
        When a limit or Ctrl-C stops the work before a single state is solved.
    """
    if game.is_over():
        raise ValueError("the game is over: there is no move to score")
    if game.to_move != player:
        raise ValueError(f"it is {PLAYER_NAMES[game.to_move]}'s turn; a view analysis scores "
                         f"the moves of the player to move")  # fmt: skip
    state: HenningState = HenningGame().state_of(game.copy())
    consistent = state.count_hidden_states(player)
    deadline = None if time_limit is None else time.time() + time_limit
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    solve = partial(solve_moves, deadline=deadline, engine=engine)
    ev = evaluate_moves(state, player, solve, max_exact=max_exact, samples=samples,
                        seed=seed, time_limit=time_limit,
                        count=lambda s, p: s.count_hidden_states(p),  # type: ignore[attr-defined]
                        executor=executor, stop=stop, progress=progress)  # fmt: skip
    return ViewAnalysis(ev, player, consistent, consistent == 1 and ev.complete)

"""The Gridblock engine player: each move scored over the hands the mover cannot see.

In a round, every legal move of the mover is solved exactly to the end of the round over
the other colours' hands that agree with its view (all of them when few, a sample
otherwise), and the move with the best average is played
(:func:`polytile.puzzles.gridblock.view.evaluate_view`). That average is an estimate: it
credits the mover with knowing the hidden hands, and it stops at the end of the round. The
set-up moves are the greedy player's (the view analysis starts at round 1); when the time
runs out before a single hand combination is solved, the greedy move is played too, and
the choice says so.

Examples
--------
>>> import numpy as np
>>> from polytile.puzzles.gridblock.rules import Gridblock, Options
>>> g = Gridblock.new(seed=2, options=Options(players=2))
>>> engine_choice(g, 1.0, rng=np.random.default_rng(0)).label
'greedy (the set-up: no estimate is made before round 1)'
>>> _ = [g.push_legal(g.legal_moves()[-1]) for _ in range(4 + 9)]  # yellow's 3rd turn
>>> c = engine_choice(g, None, rng=np.random.default_rng(0))
>>> c.exact, c.label, c.move in g.legal_moves()
(False, 'estimate (each move solved to the end of the round over all 4 hand combinations)', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice, as_player
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.players import greedy_player
from polytile.puzzles.gridblock.rules import Gridblock
from polytile.solvers.alphabeta import SearchStopped

__all__ = ["engine_choice", "engine_player"]


def engine_choice(g: Gridblock, seconds: float | None = DEFAULT_MOVE_TIME, *,
                  rng: np.random.Generator | None = None,
                  should_stop: Callable[[], bool] | None = None) -> EngineChoice:  # fmt: skip
    """The engine's move at ``g`` for the colour to move, within ``seconds``; ``g`` is not
    changed."""
    from polytile.puzzles.gridblock.view import evaluate_view

    started = time.perf_counter()
    rng = rng if rng is not None else np.random.default_rng()
    if g.is_setup:
        return EngineChoice(greedy_player(g, rng), False, None,
                            "greedy (the set-up: no estimate is made before round 1)",
                            time.perf_counter() - started)  # fmt: skip
    try:
        a = evaluate_view(g, time_limit=seconds, seed=rng, stop=should_stop)
    except SearchStopped:
        return EngineChoice(greedy_player(g, rng), False, None,
                            "greedy (out of time before one hand combination was solved)",
                            time.perf_counter() - started)  # fmt: skip
    ev = a.evaluation
    best = ev.best_move
    if a.exact_values:
        label = "exact to the end of the round (every hand known; later rounds not counted)"
    elif ev.exact_average:
        label = (f"estimate (each move solved to the end of the round over all {ev.states:,} "
                 f"hand combinations)")  # fmt: skip
    else:
        label = (f"estimate (each move solved to the end of the round over {ev.states:,} "
                 f"sampled hand combinations)")  # fmt: skip
    return EngineChoice(best, False, float(ev.moves[best].mean), label,
                        time.perf_counter() - started)  # fmt: skip


def engine_player(
    seconds: float = DEFAULT_MOVE_TIME,
) -> Callable[[Gridblock, np.random.Generator], Move]:
    """A player (as :data:`polytile.puzzles.gridblock.players.PLAYERS` holds) that takes
    ``seconds`` a move."""
    return as_player(engine_choice, seconds)

"""The Gridblock engine player: each move scored from what the mover sees.

* In the set-up, information-set Monte Carlo tree search to the end of the game
  (:func:`polytile.puzzles.gridblock.estimate.estimate_game`): the set-up draws still to
  come and every deal are drawn for each playout, greedy play to the end. When the time
  (or ``playouts``) buys fewer playouts than there are moves to try, the greedy move is
  played, and the choice says so.
* In a round, every legal move is solved exactly to the end of the round over the other
  colours' hands that agree with the mover's view (all of them when few, a sample
  otherwise), and the move with the best average is played
  (:func:`polytile.puzzles.gridblock.view.evaluate_view`, with :data:`VIEW_SHARE` of the
  time). Its value to the end of the game is then estimated by the tree search, every
  playout through that move, in the time left. In the last round the end of the round is
  the end of the game: the average is the value (exact when every hand is known). The
  player (:func:`engine_player`) asks for the move alone: its round analysis has the whole
  time, and a move chosen early is played at once, not valued.

Tree search chose worse moves in the rounds than the round analysis (1 of 6 games against
greedy at 0.3 s of CPU a move, mean margin -4.3; the round analysis: see the commit and
``docs/engines.md``), so the rounds keep the round analysis for the choice.

Examples
--------
>>> import numpy as np
>>> from polytile.puzzles.gridblock.rules import Gridblock, Options
>>> g = Gridblock.new(seed=2, options=Options(players=2))
>>> c = engine_choice(g, None, playouts=30, rng=np.random.default_rng(0))
>>> c.exact, c.move in g.legal_moves(), c.label.split(",")[0]
(False, True, 'estimate to the end of the game (Monte Carlo tree search')
>>> _ = [g.push_legal(g.legal_moves()[-1]) for _ in range(4 + 9)]  # yellow's 3rd turn
>>> c = engine_choice(g, None, playouts=20, rng=np.random.default_rng(0))
>>> c.exact, c.move in g.legal_moves()
(False, True)
>>> import textwrap; print(textwrap.fill(c.label, 88))  # the choice; its value
estimate (each move solved to the end of the round over all 4 hand combinations); its
value: estimate to the end of the game (Monte Carlo tree search, 20 playouts, each on a
fresh draw of the hands and deals yellow+green cannot see, greedy play to the end;
value: yellow+green's points minus blue+red's at the end of the game)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np

from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice, as_player
from polytile.puzzles.gridblock.estimate import estimate_game
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.players import greedy_player
from polytile.puzzles.gridblock.rules import ROUNDS, Gridblock
from polytile.solvers.alphabeta import SearchStopped

__all__ = ["PLAYOUTS", "VIEW_SHARE", "engine_choice", "engine_player"]

#: The share of a round move's time the round analysis may take to choose (the rest values
#: the choice to the end of the game).
VIEW_SHARE = 0.75
#: Playouts of the tree search when no time limit is given.
PLAYOUTS = 200


def engine_choice(g: Gridblock, seconds: float | None = DEFAULT_MOVE_TIME, *,
                  playouts: int | None = None, rng: np.random.Generator | None = None,
                  should_stop: Callable[[], bool] | None = None,
                  value: bool = True) -> EngineChoice:  # fmt: skip
    """The engine's move at ``g`` for the colour to move, within ``seconds`` (None: no
    limit), the tree search stopping after ``playouts`` playouts (default
    :data:`PLAYOUTS` without a time limit); ``g`` is not changed.

    ``value`` False asks for the move alone, as a player does: in a round the choice then
    has the whole time, and the move is not valued to the end of the game (the choice's
    value is None), so a move whose round analysis finishes early is played at once."""
    from polytile.puzzles.gridblock.view import evaluate_view

    started = time.perf_counter()
    rng = rng if rng is not None else np.random.default_rng()
    if playouts is None and seconds is None:
        playouts = PLAYOUTS

    def left() -> float | None:
        return None if seconds is None else max(seconds - (time.perf_counter() - started), 0.0)

    def chose(move: Move, exact: bool, value: float | None, label: str) -> EngineChoice:
        return EngineChoice(move, exact, value, label, time.perf_counter() - started)

    if g.is_setup:
        e = estimate_game(g, seconds, playouts=playouts, seed=rng, should_stop=should_stop)
        n = e.result.playouts
        if e.best is None or n < e.considered:
            return chose(greedy_player(g, rng), False, None,
                         f"greedy (the tree search ran only {n} playout{'s' * (n != 1)}, "
                         f"fewer than its {e.considered} moves to try)")  # fmt: skip
        return chose(e.best, False, e.value, e.label)
    last = g.round == ROUNDS - 1
    try:
        a = evaluate_view(g, time_limit=seconds if last or seconds is None or not value else
                          seconds * VIEW_SHARE, seed=rng, stop=should_stop)  # fmt: skip
    except SearchStopped:
        return chose(
            greedy_player(g, rng),
            False,
            None,
            "greedy (out of time before one hand combination was solved)",
        )
    ev = a.evaluation
    best = ev.best_move
    if a.exact_values:
        how = ("exact to the end of the game (its last round; every hand known)" if last
               else "exact to the end of the round (every hand known)")  # fmt: skip
    else:
        combos = f"all {ev.states:,}" if ev.exact_average else f"{ev.states:,} sampled"
        end = "game, its last round," if last else "round"
        how = f"estimate (each move solved to the end of the {end} over {combos} hand " \
              "combinations)"  # fmt: skip
    if last:
        return chose(best, a.exact_values, float(ev.moves[best].mean), how)
    if not value:
        return chose(best, False, None, f"{how}; not valued to the end of the game (the move "
                     "alone was asked)")  # fmt: skip
    time_left = left()
    if time_left is not None and time_left <= 0.0:
        return chose(best, False, None, f"{how}; not valued to the end of the game (no time "
                     "left)")  # fmt: skip
    e = estimate_game(g, time_left, playouts=playouts, seed=rng, should_stop=should_stop,
                      only=[best])  # fmt: skip
    if not e.result.playouts:
        return chose(best, False, None, f"{how}; not valued to the end of the game (stopped)")
    return chose(best, False, e.value, f"{how}; its value: {e.label}")


def engine_player(
    seconds: float = DEFAULT_MOVE_TIME,
) -> Callable[[Gridblock, np.random.Generator], Move]:
    """A player (as :data:`polytile.puzzles.gridblock.players.PLAYERS` holds) that takes
    ``seconds`` a move: the move alone, not its value (``engine_choice``'s ``value``
    False), so it plays as soon as its choice is made."""
    return as_player(partial(engine_choice, value=False), seconds)

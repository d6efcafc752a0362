"""The City Blocks (Henning) engine player: information-set Monte Carlo tree search from the
mover's view.

Every playout draws the tiles the mover cannot see (the other hand and the draw pile,
consistent with everything played) and plays on to the end with the greedy player
(:func:`polytile.puzzles.henning.players.greedy_player`) on both sides; the tree keeps the
statistics of the mover's information sets (:func:`polytile.solvers.mcts.mcts`), over the
:data:`CANDIDATES` moves the greedy score ranks best at each node. The choice
is always an estimate: the exact search needs the hidden hand, which the mover does not see.

Examples
--------
>>> import numpy as np
>>> from polytile.puzzles.henning.rules import Henning
>>> g = Henning.new(seed=4)
>>> c = engine_choice(g, None, playouts=30, rng=np.random.default_rng(0))
>>> c.exact, c.label
(False, 'estimate (Monte Carlo tree search, 30 playouts on sampled hidden states)')
>>> g.is_legal(c.move)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice, as_player
from polytile.puzzles.game import State
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.henning.moves import Move
from polytile.puzzles.henning.players import greedy_player, greedy_scores
from polytile.puzzles.henning.rules import Henning
from polytile.solvers.mcts import MctsResult, mcts

__all__ = ["engine_choice", "engine_player", "search"]


#: The moves the tree considers at a node: the best this many by the greedy score (with
#: 100-150 legal moves early and tens of playouts a second, a tree over all of them would
#: not visit each once).
CANDIDATES = 8


def _greedy(state: State, rng: np.random.Generator) -> Move:
    return greedy_player(state.board, rng)  # type: ignore[attr-defined]


def _candidates(state: State, moves: list[Any]) -> list[Any]:
    if len(moves) <= CANDIDATES:
        return moves
    scores = greedy_scores(state.board, moves)  # type: ignore[attr-defined]
    order = sorted(range(len(moves)), key=lambda i: scores[i], reverse=True)
    return [moves[i] for i in order[:CANDIDATES]]


def search(g: Henning, seconds: float | None, *, playouts: int | None = None,
           rng: np.random.Generator | None = None,
           should_stop: Callable[[], bool] | None = None) -> MctsResult:  # fmt: skip
    """The engine's search at ``g`` from the view of the player to move: every root move's
    visits and mean margin (``g`` is not changed)."""
    rng = rng if rng is not None else np.random.default_rng()
    return mcts(HenningGame().state_of(g.copy()), time_limit=seconds, playouts=playouts,
                policy=_greedy, candidates=_candidates, seed=rng,
                should_stop=should_stop)  # fmt: skip


def engine_choice(g: Henning, seconds: float | None = DEFAULT_MOVE_TIME, *,
                  playouts: int | None = None, rng: np.random.Generator | None = None,
                  should_stop: Callable[[], bool] | None = None) -> EngineChoice:  # fmt: skip
    """The engine's move at ``g`` for the player to move, within ``seconds`` (or after
    ``playouts`` playouts); ``g`` is not changed."""
    started = time.perf_counter()
    r = search(g, seconds, playouts=playouts, rng=rng, should_stop=should_stop)
    return EngineChoice(r.best, False, r.value if r.playouts else None, r.label,
                        time.perf_counter() - started)  # fmt: skip


def engine_player(
    seconds: float = DEFAULT_MOVE_TIME,
) -> Callable[[Henning, np.random.Generator], Move]:
    """A player (as :data:`polytile.puzzles.henning.players.PLAYERS` holds) that takes
    ``seconds`` a move."""
    return as_player(engine_choice, seconds)

"""City Blocks (Henning) players for self-play, so that games exist to analyse.

A player is a function ``(game, rng) -> Move`` that sees only what its seat may see: it is
handed the full state but must read only the public parts and its own hand (the players here
do). :data:`PLAYERS` names them for the command line.

* ``random``: a uniformly random legal move.
* ``engine``: Monte Carlo tree search from its own view, a time a move
  (:mod:`polytile.puzzles.henning.engine`).
* ``greedy``: the move that most raises its money margin at once (streets won minus tokens
  paid), then the one that most raises its lead on the streets it touches; ties broken at
  random. It never looks at the opponent's hand.

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> g = Henning.new(seed=4)
>>> record = self_play(g, ("greedy", "random"), seed=4)
>>> g.is_over(), len(record) == len(g.move_stack)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from polytile.puzzles.engine import choose_player
from polytile.puzzles.henning.moves import Move
from polytile.puzzles.henning.rules import OPEN, Henning
from polytile.puzzles.henning.tiles import STREETS_OF

__all__ = ["PLAYERS", "Player", "greedy_player", "greedy_scores", "random_player", "self_play"]

Player = Callable[[Henning, np.random.Generator], Move]


def random_player(game: Henning, rng: np.random.Generator) -> Move:
    """A uniformly random legal move."""
    return game.random_move(rng)


def greedy_scores(game: Henning, moves: list[Move]) -> list[tuple[int, int]]:
    """Each move's greedy score for the player to move: its money margin right after the
    move, then its leads on the open streets the move touches."""
    sign = 1 if game.to_move == 0 else -1
    scores = []
    for move in moves:
        game.push_legal(move)
        margin = sign * game.margin()
        lead = 0
        if move.block is not None:
            for s in STREETS_OF[move.block[0] * 6 + move.block[1]]:
                if game.award(s) == OPEN:
                    blue, red = game.standing(s)
                    lead += sign * (blue - red)
        game.pop()
        scores.append((margin, lead))
    return scores


def greedy_player(game: Henning, rng: np.random.Generator) -> Move:
    """The move with the best immediate margin, then the best street leads (see the module
    notes)."""
    moves = game.legal_moves()
    scores = greedy_scores(game, moves)
    top = max(scores)
    best = [m for m, s in zip(moves, scores, strict=True) if s == top]
    return best[int(rng.integers(len(best)))]


#: Players by name (``engine`` is made by its module, :mod:`polytile.puzzles.henning.engine`).
PLAYERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}


def self_play(
    game: Henning,
    players: Sequence[str] = ("greedy", "greedy"),
    seed: int | np.random.Generator | None = None,
    max_moves: int | None = None,
    engine: Callable[[float], Player] | None = None,
    move_time: float | None = None,
) -> list[Move]:
    """Play ``game`` on to the end (or ``max_moves`` more moves) with the named players for
    blue and red; return the moves made. ``game`` is changed. A player named ``engine`` is
    made by ``engine(move_time)`` (the caller passes
    :func:`polytile.puzzles.henning.engine.engine_player`: this module does not import the
    engine, which plays its playouts with the greedy player here).

    Raises
    ------
    UnknownNameError
        For a player name not in :data:`PLAYERS`.
    """
    chosen = [choose_player(name, PLAYERS, engine, move_time) for name in players]
    if len(chosen) != 2:
        raise ValueError(f"City Blocks (Henning) has 2 players, got {len(chosen)}")
    rng = np.random.default_rng(seed)
    made: list[Move] = []
    while not game.is_over() and (max_moves is None or len(made) < max_moves):
        move = chosen[game.to_move](game, rng)
        game.push(move)  # checked: a player's bug must not write an illegal record
        made.append(move)
    return made

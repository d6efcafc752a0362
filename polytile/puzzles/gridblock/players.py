"""Gridblock players for self-play, so that games exist to look at and analyse.

A player is a function ``(game, rng) -> Move`` for the colour to move. It is handed the
full state but reads only what that colour's player sees: the grid, the cubes, the movers
and its own hand (the players here do).

* ``random``: a uniformly random legal move.
* ``engine``: each move solved to the end of the round over the hands it cannot see, a
  time a move (:mod:`polytile.puzzles.gridblock.engine`).
* ``greedy``: the move that most raises its player's points at once (its own colour's, or
  with two players the pair's sum or the weaker colour, as the game scores them; an instant
  win counts as the most of all), then the one that most raises its own colour's points;
  ties broken at random.

Examples
--------
>>> from polytile.puzzles.gridblock.rules import Gridblock, Options
>>> g = Gridblock.new(seed=4, options=Options(players=3))
>>> made = self_play(g, ("greedy", "random", "greedy"), seed=4)
>>> g.is_over(), len(made) == len(g.move_stack) == 57
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from polytile.puzzles.engine import choose_player
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import INSTANT_WIN, Gridblock, tile_points

__all__ = ["PLAYERS", "Player", "greedy_player", "greedy_scores", "random_player", "self_play"]

Player = Callable[[Gridblock, np.random.Generator], Move]


def random_player(game: Gridblock, rng: np.random.Generator) -> Move:
    """A uniformly random legal move."""
    moves = game.legal_moves()
    return moves[int(rng.integers(len(moves)))]


def greedy_player(game: Gridblock, rng: np.random.Generator) -> Move:
    """The move with the best immediate points for its player, then for its own colour (see
    the module notes).

    Notes
    -----
    Only the tile a cube lands on changes, so each move is scored from the colours' points
    before the turn and that tile's points before and after (looked up:
    :func:`~polytile.puzzles.gridblock.rules.tile_points`): O(moves) small sums.
    """
    return _best(game, game.legal_moves(), rng)


def greedy_scores(game: Gridblock, moves: list[Move]) -> list[tuple[int, int]]:
    """Each move's greedy score: what it adds to its player's points (:data:`INSTANT_WIN`
    more for an instant win), then to its own colour's; the greater, the better."""
    me = game.to_move_color
    team = [c for c in game.colors if game.options.player_of(c) == game.options.player_of(me)]
    weaker = game.options.players == 2 and game.options.two_player_score == "weaker"
    base = [0, 0, 0, 0]  # the points before the move: only a minimum needs them
    if weaker:
        for c, n in zip(game.colors, game.scores(), strict=True):
            base[c] = n
    now = min(base[c] for c in team) if weaker else sum(base[c] for c in team)
    win = game.options.instant_win and not game.is_setup
    corners = game.corners
    # a tile's free corners are alike (only how many cubes each colour has there counts)
    by_tile: dict[int | None, tuple[int, int]] = {}
    out = []
    for move in moves:
        q = move.corner
        t = None if q is None else move.tile
        score = by_tile.get(t)
        if score is None:
            points, won = base, False
            if t is not None and q is not None:
                held = tuple(corners[4 * t : 4 * t + 4])
                after_held = list(held)
                after_held[q] = me
                after, before = tile_points(tuple(after_held)), tile_points(held)
                points = [base[c] + after[c] - before[c] for c in range(4)]
                won = win and after_held.count(me) == 3 and all(c in (-1, me) for c in held)
            mine = [points[c] for c in team]
            value = (min(mine) if weaker else sum(mine)) - now
            score = by_tile[t] = (value + (INSTANT_WIN if won else 0), points[me] - base[me])
        out.append(score)
    return out


def _best(game: Gridblock, moves: list[Move], rng: np.random.Generator) -> Move:
    """A move of the best greedy score among ``moves``, ties broken at random."""
    scores = greedy_scores(game, moves)
    top = max(scores)
    best = [m for m, s in zip(moves, scores, strict=True) if s == top]
    return best[int(rng.integers(len(best)))]


#: Players by name.
PLAYERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}


def self_play(
    game: Gridblock,
    players: Sequence[str] | None = None,
    seed: int | np.random.Generator | None = None,
    max_moves: int | None = None,
    engine: Callable[[float], Player] | None = None,
    move_time: float | None = None,
) -> list[Move]:
    """Play ``game`` on to the end (or ``max_moves`` more moves) with the named players;
    return the moves made. ``game`` is changed.

    Parameters
    ----------
    game
        The game, at any point.
    players
        A name from :data:`PLAYERS` per colour in play (turn order), or per player (with
        two players, each name plays both of its colours); default greedy everywhere.
    seed
        The players' random choices.
    max_moves
        Stop after this many moves.
    engine, move_time
        What makes a player named ``engine``: ``engine(move_time)`` (the caller passes
        :func:`polytile.puzzles.gridblock.engine.engine_player`; this module does not import
        the engine, which plays greedy moves from here).

    Raises
    ------
    UnknownNameError
        For a player name not in :data:`PLAYERS`.
    ValueError
        If the number of names is neither the colours' nor the players'.
    """
    k = len(game.colors)
    names = list(players) if players is not None else ["greedy"] * k
    made_players = {name: choose_player(name, PLAYERS, engine, move_time) for name in names}
    if len(names) == game.options.players and len(names) != k:
        names = [names[game.options.player_of(c)] for c in game.colors]
    if len(names) != k:
        raise ValueError(f"this game has {k} colours and {game.options.players} players; "
                         f"got {len(names)} player names")  # fmt: skip
    chosen = [made_players[n] for n in names]
    rng = np.random.default_rng(seed)
    made: list[Move] = []
    while not game.is_over() and (max_moves is None or len(made) < max_moves):
        move = chosen[game.to_move_slot](game, rng)
        game.push(move)  # checked: a player's bug must not write an illegal record
        made.append(move)
    return made

"""Gridblock: the rest of the game estimated from the mover's view, set-up included.

The exact searches stop at the end of the current round (:mod:`.endgame`, :mod:`.view`)
and make no answer in the set-up. :func:`estimate_game` values the moves of the player to
move to the **end of the game** by information-set Monte Carlo tree search
(:func:`polytile.solvers.mcts.mcts`): every playout draws what that player cannot see (the
other colours' hands this round, consistent with the cards they played; every later deal,
its own included; the set-up draws still to come), then all colours play on to the end with
the greedy player (:func:`polytile.puzzles.gridblock.players.greedy_player`). The tree
keeps the statistics of the mover's information sets; at each node it looks at one corner
per tile (a tile's free corners are alike: scores and moves see only how many cubes of
each colour a tile holds) and, of those, the :data:`CANDIDATES` moves the greedy score
ranks best.

The value of a move is the mean over its playouts of the mover's final margin
(:func:`polytile.solvers.mcts.margin_of`), in points as the options count them:

* with 2 players its side's points minus the other side's at the end of the game (the two
  colours summed, or under ``two_player_score="weaker"`` the weaker of them), the
  rounds' lead for the side to move (blue+red's margin, or its negative);
* with 3 or 4 players its colour's points minus the best other colour's at the end of the
  game (the round values of :func:`~polytile.puzzles.gridblock.endgame.solve_round` are
  the points a colour can make sure of instead: no tree search estimates a guarantee).

An instant win (option 7.4) is worth :data:`~polytile.puzzles.gridblock.rules.INSTANT_WIN`
to the winner and nothing to the others, whatever the points, as the exact searches count it
(so every move that wins at once is worth as much as any other). It is **an estimate**
(greedy play after the tree, hidden cards drawn at random), and every result says so and
what it rests on (:attr:`GameEstimate.label`).

Examples
--------
>>> from polytile.puzzles.gridblock.rules import Gridblock, Options
>>> g = Gridblock.new(seed=2, options=Options(players=2))
>>> e = estimate_game(g, playouts=40, seed=1)
>>> e.result.playouts, e.best in g.legal_moves(), e.mover
(40, True, 'blue+red')
>>> import textwrap; print(textwrap.fill(e.label, 88))
estimate to the end of the game (Monte Carlo tree search, 40 playouts, each on a fresh
draw of the hands and deals blue+red cannot see, greedy play to the end; value:
blue+red's points minus yellow+green's at the end of the game)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from polytile.puzzles.game import State
from polytile.puzzles.gridblock.endgame import player_label
from polytile.puzzles.gridblock.game import GridblockGame
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.players import greedy_player, greedy_scores
from polytile.puzzles.gridblock.rules import COLOR_NAMES, INSTANT_WIN, Gridblock
from polytile.solvers.mcts import MctsResult, MoveStat, mcts

__all__ = ["CANDIDATES", "GameEstimate", "estimate_game", "game_lead", "twin"]

#: The moves the tree considers at a node (after one corner per tile): the best this many
#: by the greedy score. A round's mover has up to 3 cards times a dozen end tiles, and a
#: playout to the end of the game takes tens of milliseconds: a tree over all of them would
#: not visit each once in a move's time.
CANDIDATES = 8


def twin(move: Move) -> tuple[Any, int, bool]:
    """What makes moves alike: the card, the end tile and whether a cube is placed (not
    which free corner it takes, nor the walk)."""
    return move.card, move.tile, move.corner is not None


def _alike(moves: Sequence[Move]) -> list[Move]:
    """One move of each :func:`twin` class (the first), in order."""
    seen: dict[tuple[Any, int, bool], Move] = {}
    for m in moves:
        seen.setdefault(twin(m), m)
    return list(seen.values())


def _greedy(state: State, rng: np.random.Generator) -> Move:
    return greedy_player(state.board, rng)  # type: ignore[attr-defined]


def _narrow(g: Gridblock, moves: list[Move], keep: Sequence[Move] = ()) -> list[Move]:
    """The moves the tree looks at: one corner per tile, the :data:`CANDIDATES` best by the
    greedy score, and the twins of ``keep`` (moves to value whatever their score)."""
    alike = _alike(moves)
    if len(alike) > CANDIDATES:
        scores = greedy_scores(g, alike)
        order = sorted(range(len(alike)), key=lambda i: scores[i], reverse=True)
        wanted = {twin(m) for m in keep}
        alike = [alike[i] for i in order[:CANDIDATES]] + [
            alike[i] for i in order[CANDIDATES:] if twin(alike[i]) in wanted
        ]
    return alike


def _ending(state: State) -> tuple[float, ...]:
    """A finished playout's returns: the points, or a win at once (option 7.4) as
    :data:`~polytile.puzzles.gridblock.rules.INSTANT_WIN` to the winner and 0 to the others,
    whatever the points. :meth:`Gridblock.returns` adds the points to the win, which made a
    move winning at once 'lose' against another win with a point more (found by a busy-machine
    test run, where analyse estimated the winning move instead of solving it)."""
    b: Gridblock = state.board  # type: ignore[attr-defined]
    returns = b.returns()
    if b.winner is None:
        return tuple(returns)
    return tuple(float(INSTANT_WIN) if i == b.winner else 0.0 for i in range(len(returns)))


def game_lead(g: Gridblock, player: int) -> str:
    """What an estimate's value is for ``player`` (as :func:`estimate_game` numbers them),
    in words."""
    if g.options.players == 2:
        mine, theirs = ("blue+red", "yellow+green")[player], ("yellow+green", "blue+red")[player]
        if g.options.two_player_score == "weaker":
            return (f"the weaker of {mine}'s colours minus the weaker of {theirs}'s at the "
                    "end of the game")  # fmt: skip
        return f"{mine}'s points minus {theirs}'s at the end of the game"
    return (f"{COLOR_NAMES[g.colors[player]]}'s points minus the best other colour's at the "
            "end of the game")  # fmt: skip


@dataclass(frozen=True)
class GameEstimate:
    """The moves of the player to move valued to the end of the game (:func:`estimate_game`).

    Attributes
    ----------
    result
        The tree search's result: each searched move's visits and mean margin, most visited
        first, the best (most visited) move and its margin.
    player
        The player searched for (0 blue+red or 1 yellow+green with 2 players; else the
        colour's place in turn order).
    mover
        Its name.
    lead
        What each value is, in words (:func:`game_lead`).
    considered
        How many moves the tree looks at in the root (one a tile's corners, narrowed).
    """

    result: MctsResult
    player: int
    mover: str
    lead: str
    considered: int

    @property
    def best(self) -> Move | None:
        """The most visited move (None when no playout ran)."""
        best: Move | None = self.result.best
        return best

    @property
    def value(self) -> float:
        """The best move's mean margin (:attr:`lead`)."""
        return self.result.value

    def stat(self, move: Move) -> MoveStat | None:
        """The search's statistics of ``move`` or of a move alike (:func:`twin`); None when
        the tree did not look at it."""
        key = twin(move)
        return next((s for s in self.result.moves if twin(s.move) == key), None)

    @property
    def label(self) -> str:
        """What the estimate rests on and what its value is, in words."""
        n = self.result.playouts
        how = f"{n:,} playout{'s' * (n != 1)}"
        if self.result.sampled:
            how += f", each on a fresh draw of the hands and deals {self.mover} cannot see"
        return (f"estimate to the end of the game (Monte Carlo tree search, {how}, greedy "
                f"play to the end; value: {self.lead})")  # fmt: skip


def estimate_game(
    g: Gridblock,
    seconds: float | None = None,
    *,
    playouts: int | None = None,
    seed: int | np.random.Generator | None = None,
    should_stop: Callable[[], bool] | None = None,
    keep: Sequence[Move] = (),
    only: Sequence[Move] | None = None,
) -> GameEstimate:
    """Value the moves of the player to move at ``g`` to the end of the game from its view
    (module notes), until ``seconds``, ``playouts`` or ``should_stop()``; ``g`` is not
    changed. Deterministic for a given ``seed`` and ``playouts``.

    Parameters
    ----------
    g
        A full state; only the view of the player to move is used (the rest is redrawn for
        every playout).
    seconds, playouts, should_stop
        When to stop (at least one): the best so far is returned.
    seed
        The draws and the playouts' tie breaks.
    keep
        Moves to search at the root whatever their greedy score (the move a record played,
        say), beside the :data:`CANDIDATES` best.
    only
        The moves the root looks at, if given (one move: every playout values it).

    Raises
    ------
    ValueError
        When the game is over, or no limit is given.
    """
    if g.is_over():
        raise ValueError("the game is over: there is no move to estimate")
    state = GridblockGame.of(g.options).state_of(g.copy())
    root = g.step

    chosen = None if only is None else {twin(m) for m in only}

    def candidates(s: State, moves: list[Any]) -> list[Any]:
        b: Gridblock = s.board  # type: ignore[attr-defined]
        if b.step != root:
            return _narrow(b, moves)
        if chosen is not None:
            return [m for m in _alike(moves) if twin(m) in chosen]
        return _narrow(b, moves, keep)

    r = mcts(state, time_limit=seconds, playouts=playouts, policy=_greedy,
             candidates=candidates, value=_ending, seed=seed, should_stop=should_stop)  # fmt: skip
    considered = len(candidates(state, state.legal_moves()))
    return GameEstimate(r, g.to_move, player_label(g, g.to_move), game_lead(g, g.to_move),
                        considered)  # fmt: skip

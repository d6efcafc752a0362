"""Walkable Cities players for self-play, so that games exist to look at and analyse.

A player is a pair of functions of the state and a random generator: one picks a piece at
the selection, one drops (or passes) once both picks are known. Both see the whole state,
which hides nothing (the picks of the round are open by the time of the drop).

* ``random``: a uniformly random pick, then a uniformly random legal drop (a pass only when
  there is no drop).
* ``engine``: the equilibrium of the rest of the game where the exact search settles it in
  time, else of the selection or drop phase one round ahead, an action drawn from the mix
  (:mod:`polytile.puzzles.walkable.engine`).
* ``greedy``: the drop whose cells touch the most of its own cells already on the same
  boards (edge contacts; ties at random), which grows its regions; it picks the piece whose
  best such drop is best.

Examples
--------
>>> from polytile.puzzles.walkable.rules import Walkable
>>> g = Walkable.new(seed=4)
>>> self_play(g, ("greedy", "random"), seed=4)
>>> g.is_over(), g.round > 10
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from polytile.puzzles.engine import choose_player
from polytile.puzzles.walkable.board import BLUE, CELLS, RED, SIDE, legal_drops
from polytile.puzzles.walkable.rules import PASS, Drop, Walkable

__all__ = ["PLAYERS", "greedy_drop", "greedy_pick", "random_drop", "random_pick", "self_play"]

Pick = Callable[[Walkable, int, np.random.Generator], str]
DropChoice = Callable[[Walkable, int, np.random.Generator], "Drop | str"]


@cache
def _neighbours() -> npt.NDArray[np.int64]:
    """``out[g]``: the four edge neighbours of cell ``g`` on its board (``CELLS`` off it)."""
    out = np.full((CELLS, 4), CELLS, dtype=np.int64)
    for g in range(CELLS):
        b, r, c = g // 100, g % 100 // SIDE, g % SIDE
        for k, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE:
                out[g, k] = b * 100 + (r + dr) * SIDE + c + dc
    return out


def _best(g: Walkable, player: int, piece: str) -> tuple[int, npt.NDArray[np.int16]]:
    """The greedy score of ``piece``'s best drops for ``player``, and those drops."""
    rows = legal_drops(g.cells, piece)
    if len(rows) == 0:
        return -1, rows
    own = np.append(g.cells == (RED, BLUE)[player], False)
    touching = own[_neighbours()].sum(axis=1)
    scores = touching[rows].sum(axis=1)
    top = int(scores.max())
    return top, rows[scores == top]


def random_pick(g: Walkable, player: int, rng: np.random.Generator) -> str:
    """A uniformly random piece of the rotation."""
    choices = g.pick_choices()
    return choices[int(rng.integers(len(choices)))]


def random_drop(g: Walkable, player: int, rng: np.random.Generator) -> Drop | str:
    """A uniformly random legal drop, or a pass when there is none."""
    assert g.picks is not None
    rows = legal_drops(g.cells, g.picks[player])
    if len(rows) == 0:
        return PASS
    row = rows[int(rng.integers(len(rows)))]
    return Drop(g.picks[player], tuple(int(x) for x in row))  # type: ignore[arg-type]


def greedy_pick(g: Walkable, player: int, rng: np.random.Generator) -> str:
    """The piece whose best greedy drop scores most (ties at random)."""
    choices = g.pick_choices()
    scores = [_best(g, player, p)[0] for p in choices]
    top = [p for p, s in zip(choices, scores, strict=True) if s == max(scores)]
    return top[int(rng.integers(len(top)))]


def greedy_drop(g: Walkable, player: int, rng: np.random.Generator) -> Drop | str:
    """The legal drop touching the most own cells (ties at random), or a pass."""
    assert g.picks is not None
    _, rows = _best(g, player, g.picks[player])
    if len(rows) == 0:
        return PASS
    row = rows[int(rng.integers(len(rows)))]
    return Drop(g.picks[player], tuple(int(x) for x in row))  # type: ignore[arg-type]


#: Player name -> (pick, drop).
PLAYERS: dict[str, tuple[Pick, DropChoice]] = {
    "random": (random_pick, random_drop),
    "greedy": (greedy_pick, greedy_drop),
}


def self_play(g: Walkable, players: Sequence[str], seed: int | None = None,
              max_rounds: int | None = None,
              engine: Callable[[float], tuple[Pick, DropChoice]] | None = None,
              move_time: float | None = None) -> None:  # fmt: skip
    """Play ``g`` to the end (or for ``max_rounds`` rounds) with the named players, red's
    first. A player named ``engine`` is made by ``engine(move_time)`` (the caller passes
    :func:`polytile.puzzles.walkable.engine.engine_players`; this module does not import the
    engine, which falls back on the greedy player here).

    Raises
    ------
    UnknownNameError
        For a player name not in :data:`PLAYERS` nor ``engine``.
    """
    chosen = [choose_player(name, PLAYERS, engine, move_time) for name in players]
    rng = np.random.default_rng(seed)
    played = 0
    while not g.is_over() and (max_rounds is None or played < max_rounds):
        if g.picks is None:
            g.select(chosen[0][0](g, 0, rng), chosen[1][0](g, 1, rng))
        red, blue = chosen[0][1](g, 0, rng), chosen[1][1](g, 1, rng)
        g.push_legal((red, blue))
        played += 1

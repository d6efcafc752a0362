"""An estimate of a City Blocks (Ritchie) colour's final score, between its proven bounds.

The bounds (:mod:`polytile.puzzles.cityblocks.bounds`) say how far a colour's final score
can range; this says where in that range it is likely to end. It plays the game on to the
end many times (playouts) and averages the colour's final score:

* every colour, in turn, places one of its biggest pieces that fit: up to :data:`SAMPLE` of
  those placements, drawn at random, are tried for one sharing an edge with its own cells
  (growing its city: only the largest connected area scores), and the first drawn is
  placed when none of them does;
* a colour with no placement passes, and the game ends as the rules end it.

The mean is then kept between the bounds (``lower <= estimate <= upper``): no continuation
ends above the upper bound, and a colour that plays well ends at least at the lower one
(it may always pass), while a playout may place worse than passing would. The estimate is
never exact and says so, with the playouts it rests on and the 95% interval of their mean.

Examples
--------
>>> import numpy as np
>>> from polytile.puzzles.cityblocks.rules import CityBlocks
>>> e = estimate_score(CityBlocks(), "blue", playouts=4, rng=np.random.default_rng(0))
>>> e is not None and (e.playouts, e.low <= e.mean <= e.high)
(4, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from polytile.puzzles.cityblocks.moves import Move
from polytile.puzzles.cityblocks.rules import CityBlocks

__all__ = ["SAMPLE", "ScoreEstimate", "estimate_score", "playout_move", "t95"]

#: Candidates a playout move tries for one next to its own colour before it takes any.
SAMPLE = 60


@dataclass(frozen=True)
class ScoreEstimate:
    """The playouts' estimate of one colour's final score.

    Attributes
    ----------
    color
        The colour.
    value
        The mean final score kept between ``lower`` and ``upper`` (when given).
    mean, half_width
        The playouts' mean final score and the half-width of its 95% interval (Student's
        t; None with a single playout, which gives no interval).
    low, high
        The least and the greatest final score a playout reached.
    playouts
        Playouts played to the end (at least one).
    clipped
        True when the mean lay outside the bounds and ``value`` is the nearer bound.
    seconds
        Time spent.
    """

    color: str
    value: float
    mean: float
    half_width: float | None
    low: int
    high: int
    playouts: int
    clipped: bool
    seconds: float

    @property
    def note(self) -> str:
        """What the estimate rests on, in words."""
        n = f"{self.playouts} playout{'' if self.playouts == 1 else 's'}"
        spread = ("one playout gives no interval" if self.half_width is None
                  else f"95% interval of the mean ±{self.half_width:.1f}")  # fmt: skip
        basis = f"(each colour places its biggest pieces next to its own city); {spread}"
        if self.clipped:
            return (f"estimate, not exact: the mean final score of {n}, {self.mean:.1f}, "
                    f"lay outside the bounds, so the nearer bound is given {basis}")  # fmt: skip
        return f"estimate, not exact: the mean final score of {n} {basis}"

    def as_dict(self) -> dict[str, Any]:
        """The JSON document (``"estimate"`` in ``polytile bounds --json``)."""
        half = None if self.half_width is None else round(self.half_width, 2)
        return {"value": round(self.value, 2), "mean": round(self.mean, 2),
                "interval95": half, "low": self.low, "high": self.high,
                "playouts": self.playouts, "clipped": self.clipped,
                "note": self.note}  # fmt: skip


#: Student's t at 97.5%, for 1 to 30 degrees of freedom.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)  # fmt: skip


def t95(df: int) -> float:
    """The half-width factor of a 95% interval of a mean with ``df`` degrees of freedom
    (Student's t; past 30, 1.96 + 2.5/df, within 0.002 of it).

    >>> t95(1), t95(10), round(t95(120), 3)
    (12.706, 2.228, 1.981)
    """
    return _T95[df - 1] if df <= len(_T95) else 1.96 + 2.5 / df


def _grows(game: CityBlocks, color: str) -> np.ndarray:
    """Empty cells sharing an edge with ``color``'s cells, as a 20x20 boolean array."""
    rows = np.array([list(r) for r in game.board_rows()])
    own = rows == color[0].upper()
    near = np.zeros_like(own)
    near[1:] |= own[:-1]
    near[:-1] |= own[1:]
    near[:, 1:] |= own[:, :-1]
    near[:, :-1] |= own[:, 1:]
    return near & (rows == ".")


def playout_move(game: CityBlocks, rng: np.random.Generator) -> Move:
    """A playout's move for the side to move: a biggest piece that fits, next to its own
    colour where it can (see the module notes), or a pass."""
    moves = game.legal_placements()
    if not moves:
        return Move.pass_turn(game.to_move)
    size = max(len(m.cells) for m in moves)
    biggest = [m for m in moves if len(m.cells) == size]
    order = rng.permutation(len(biggest))[:SAMPLE]
    grows: dict[str, np.ndarray] = {}
    for i in order.tolist():
        m = biggest[i]
        near = grows.get(m.color)
        if near is None:
            near = grows[m.color] = _grows(game, m.color)
        if any(near[r, c] for r, c in m.cells):
            return m
    return biggest[int(order[0])]


def _playout(game: CityBlocks, color: str, rng: np.random.Generator,
             stop: Callable[[], bool]) -> int | None:  # fmt: skip
    """``color``'s final score after one playout, or None when ``stop`` said so first."""
    g = game.copy()
    while not g.is_game_over():
        if stop():
            return None
        g.push(playout_move(g, rng))
    return int(g.score().colors[color].total)


def estimate_score(
    game: CityBlocks,
    color: str,
    *,
    seconds: float | None = None,
    playouts: int | None = None,
    lower: int | None = None,
    upper: int | None = None,
    rng: np.random.Generator | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ScoreEstimate | None:
    """Estimate ``color``'s final score from ``game`` (not changed) by playouts, for
    ``seconds`` or ``playouts`` (whichever ends first; at least one of them must be
    given), kept between ``lower`` and ``upper`` when given. The time and ``should_stop``
    are heard at every move of a playout: a playout cut short is left out, and None is
    returned when not one was played to the end."""
    if seconds is None and playouts is None:
        raise ValueError("give seconds or playouts")
    rng = rng if rng is not None else np.random.default_rng()
    started = time.perf_counter()
    ends = None if seconds is None else started + seconds

    def out() -> bool:
        return (ends is not None and time.perf_counter() >= ends) or (
            should_stop is not None and should_stop())  # fmt: skip

    scores: list[int] = []
    while playouts is None or len(scores) < playouts:
        if out():
            break
        final = _playout(game, color, rng, out)
        if final is None:
            break
        scores.append(final)
    if not scores:
        return None
    mean = sum(scores) / len(scores)
    half = None
    if len(scores) > 1:
        var = sum((s - mean) ** 2 for s in scores) / (len(scores) - 1)
        half = t95(len(scores) - 1) * math.sqrt(var / len(scores))
    value = mean
    if lower is not None:
        value = max(value, float(lower))
    if upper is not None:
        value = min(value, float(upper))
    return ScoreEstimate(color, value, mean, half, min(scores), max(scores), len(scores),
                         value != mean, time.perf_counter() - started)  # fmt: skip

"""An estimate of a City Blocks (Ritchie) colour's final score, between its proven bounds.

The bounds (:mod:`polytile.puzzles.cityblocks.bounds`) say how far a colour's final score
can range; this says where in that range it is likely to end. It plays the game on to the
end many times (playouts) and averages the colour's final score:

* every colour, in turn, places one of its biggest pieces that fit, on cells sharing an edge
  with its own (growing its city: only the largest connected area scores), or anywhere when
  no such placement exists (a random one of up to :data:`SAMPLE` candidates is tried first);
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
>>> e.playouts, e.low <= e.mean <= e.high
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

__all__ = ["SAMPLE", "ScoreEstimate", "estimate_score", "playout_move"]

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
        The playouts' mean final score and the half-width of its 95% interval (0 with
        fewer than two playouts).
    low, high
        The least and the greatest final score a playout reached.
    playouts
        Playouts played (at least one, whatever the time).
    clipped
        True when the mean lay outside the bounds and ``value`` is the nearer bound.
    seconds
        Time spent.
    """

    color: str
    value: float
    mean: float
    half_width: float
    low: int
    high: int
    playouts: int
    clipped: bool
    seconds: float

    @property
    def note(self) -> str:
        """What the estimate rests on, in words."""
        kept = "; kept between the bounds" if self.clipped else ""
        return (f"estimate, not exact: the mean final score of {self.playouts} "
                f"playout{'' if self.playouts == 1 else 's'} "
                f"(each colour places its biggest pieces next to its own city){kept}; "
                f"95% interval of the mean ±{self.half_width:.1f}")  # fmt: skip

    def as_dict(self) -> dict[str, Any]:
        """The JSON document (``"estimate"`` in ``polytile bounds --json``)."""
        return {"value": round(self.value, 2), "mean": round(self.mean, 2),
                "interval95": round(self.half_width, 2), "low": self.low, "high": self.high,
                "playouts": self.playouts, "clipped": self.clipped,
                "note": self.note}  # fmt: skip


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


def _playout(game: CityBlocks, color: str, rng: np.random.Generator) -> int:
    g = game.copy()
    while not g.is_game_over():
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
) -> ScoreEstimate:
    """Estimate ``color``'s final score from ``game`` (not changed) by playouts, for
    ``seconds`` or ``playouts`` (whichever ends first; at least one of them must be
    given), kept between ``lower`` and ``upper`` when given. ``should_stop`` is asked
    between playouts (Ctrl-C: the estimate so far)."""
    if seconds is None and playouts is None:
        raise ValueError("give seconds or playouts")
    rng = rng if rng is not None else np.random.default_rng()
    started = time.perf_counter()
    scores: list[int] = []
    while playouts is None or len(scores) < playouts:
        if scores and seconds is not None and time.perf_counter() - started >= seconds:
            break
        if scores and should_stop is not None and should_stop():
            break
        scores.append(_playout(game, color, rng))
    mean = sum(scores) / len(scores)
    half = 0.0
    if len(scores) > 1:
        var = sum((s - mean) ** 2 for s in scores) / (len(scores) - 1)
        half = 1.96 * math.sqrt(var / len(scores))
    value = mean
    if lower is not None:
        value = max(value, float(lower))
    if upper is not None:
        value = min(value, float(upper))
    return ScoreEstimate(color, value, mean, half, min(scores), max(scores), len(scores),
                         value != mean, time.perf_counter() - started)  # fmt: skip

"""Blokus: estimates for the moves of a record that the exact analysis does not reach.

:func:`~polytile.puzzles.blokus.analyse.analyse_record` values the moves exactly from the
first position the endgame search accepts; the moves before it (most of a game) get an
estimate here, by the engine's Monte Carlo tree search
(:func:`polytile.puzzles.blokus.engine.search`) at the position before each finds the best
move, then the move played and that one are each valued alike, by the mean margin of
playouts (the engine's playout policy) from the position it leads to: the value after the
move is the played move's, the value before it the better of the two (so a move the
playouts rate above the search's choice is the best move and loses nothing). Values
are written as the exact ones are: with two players, the first player's lead; with three or
four, the move's player's margin over the best other player (the exact analysis gives the
score it can make sure of there: the estimate says which it is). An estimate is never
checked against the exact values: it can be wrong, and is labelled so everywhere.

Examples
--------
>>> import numpy as np
>>> from polytile.puzzles.blokus.rules import Blokus
>>> from polytile.puzzles.blokus.sgf import GameRecord
>>> game = Blokus("duo")
>>> _ = game.play_random(3)
>>> record = GameRecord("duo", 2, tuple(m for m in game.move_stack if not m.is_pass))
>>> found = estimate_moves(record, [1, 2], playouts=20, seed=0)
>>> [(e.number, e.player, e.kind, e.playouts >= 20) for e in found.estimates]
[(2, 'yellow', 'estimate', True), (1, 'blue', 'estimate', True)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from polytile.puzzles.blokus.endgame_result import move_doc
from polytile.puzzles.blokus.rules import Move
from polytile.puzzles.blokus.scoring import player_names
from polytile.puzzles.blokus.sgf import GameRecord

__all__ = ["Estimated", "MoveEstimate", "estimate_moves"]

#: The share of a move's time for the tree search that finds the best move; the rest
#: values the move played and that one by playouts from the positions they lead to.
SEARCH_SHARE = 0.5


@dataclass(frozen=True)
class MoveEstimate:
    """One move of the record, valued by tree search (an estimate).

    Attributes
    ----------
    number, move, player
        As :class:`~polytile.puzzles.blokus.analyse.MoveReview`.
    before, after
        The estimated value before and after the move: the first player's lead (2 players)
        or the move's player's margin over the best other player (3 or 4).
    loss
        What the move cost its player by the estimate (may be below 0: a move the
        estimate rates above the one it found best).
    best
        The best move by the estimate.
    playouts
        The playouts the values rest on.
    """

    number: int
    move: Move
    player: str
    before: float
    after: float
    loss: float
    best: Move
    playouts: int
    kind = "estimate"

    #: What the values are, when not the exact analysis's (3 or 4 players).
    meaning: str = ""

    def as_dict(self) -> dict[str, Any]:
        """This move as JSON (as an exact review's, with ``"kind": "estimate"`` and a note
        saying what it rests on, and what its values are with 3 or 4 players)."""
        note = f"Monte Carlo tree search: {self.playouts:,} playouts"
        return {"number": self.number, "player": self.player, "move": move_doc(self.move),
                "value_before": round(self.before, 2), "value_after": round(self.after, 2),
                "loss": round(self.loss, 2), "best_move": move_doc(self.best),
                "kind": "estimate", "playouts": self.playouts,
                "note": f"{note}; {self.meaning}" if self.meaning else note}  # fmt: skip


@dataclass(frozen=True)
class Estimated:
    """What :func:`estimate_moves` found: the moves estimated (in the order done, the last
    first) and why it stopped before the end of its list (``"time"``, ``"interrupt"``;
    None when every move asked for was estimated)."""

    estimates: tuple[MoveEstimate, ...]
    stopped: str | None
    seconds: float


def estimate_moves(record: GameRecord, numbers: Sequence[int], *,
                   time_limit: float | None = None, playouts: int | None = None,
                   seed: int = 0, should_stop: Callable[[], bool] | None = None,
                   progress: Callable[[int, int], None] | None = None) -> Estimated:  # fmt: skip
    """Estimate the moves ``numbers`` (1 is the record's first move) of ``record``, the
    time (``time_limit`` for them all, shared evenly) or ``playouts`` (each move's) their
    limit; ``progress(done, total)`` after each. A stop request or Ctrl-C ends it with the
    moves estimated so far.

    Raises
    ------
    ValueError
        When neither a time limit, playouts nor a stop request is given.
    """
    from polytile.puzzles.blokus.analyse import positions_of

    if time_limit is None and playouts is None and should_stop is None:
        raise ValueError("estimate_moves needs a time limit, playouts or a stop request")
    started = time.perf_counter()
    names = player_names(record.players, record.variant)
    positions = positions_of(record)
    rng = np.random.default_rng(seed)
    todo = sorted(numbers, reverse=True)
    done: list[MoveEstimate] = []
    stopped = None
    try:
        for i, number in enumerate(todo):
            if should_stop is not None and should_stop():
                stopped = "interrupt"
                break
            seconds = None
            if time_limit is not None:
                seconds = (time_limit - (time.perf_counter() - started)) / (len(todo) - i)
                if seconds <= 0:
                    stopped = "time"
                    break
            done.append(_estimate(record, positions, number, names, seconds, playouts, rng,
                                  should_stop))  # fmt: skip
            if progress is not None:
                progress(i + 1, len(todo))
    except KeyboardInterrupt:
        stopped = "interrupt"
    return Estimated(tuple(done), stopped, time.perf_counter() - started)


def _estimate(record: GameRecord, positions: list[Any], number: int, names: tuple[str, ...],
              seconds: float | None, playouts: int | None, rng: np.random.Generator,
              should_stop: Callable[[], bool] | None) -> MoveEstimate:  # fmt: skip
    from polytile.puzzles.blokus.engine import search

    k = number - 1
    g, move = positions[k], record.moves[k]
    share = None if seconds is None else seconds * SEARCH_SHARE
    r = search(g, share, playouts=playouts, rng=rng, should_stop=should_stop)
    player = names[r.player]
    best = r.best if r.best is not None else move
    # Both moves valued alike: playouts from the position each leads to (a search's own
    # means rest on a few playouts each, the best of them on luck as much as on play).
    moves = [move] if best == move else [move, best]
    each = None if seconds is None else seconds * (1 - SEARCH_SHARE) / len(moves)
    values, used = [], r.playouts
    for m in moves:
        after = g.copy()
        after.push(m)
        v, n = _playouts_after(after, r.player, each,
                               None if playouts is None else max(1, playouts // 2), rng,
                               should_stop)  # fmt: skip
        values.append(v)
        used += n
    played = values[0]
    if values[-1] > played:
        before, pick = values[-1], best
    else:
        before, pick = played, move
    sign = -1 if len(names) == 2 and player != names[0] else 1
    meaning = "" if len(names) == 2 else ("values: the move's player's final score minus the "
                                          "best other player's")  # fmt: skip
    return MoveEstimate(number, move, player, sign * before + 0.0, sign * played + 0.0,
                        before - played + 0.0, pick, used, meaning)  # fmt: skip


def _playouts_after(g: Any, player: int, seconds: float | None, playouts: int | None,
                    rng: np.random.Generator,
                    should_stop: Callable[[], bool] | None) -> tuple[float, int]:  # fmt: skip
    """``player``'s mean margin over playouts from ``g`` (the engine's, compiled once
    loaded),
    at least one, until ``seconds`` or ``playouts``; and how many ran."""
    from polytile.puzzles.blokus.engine import fast_playouts, playout_policy, rollout
    from polytile.puzzles.blokus.game import BlokusGame
    from polytile.solvers.mcts import margin_of

    start = time.perf_counter()
    game = BlokusGame(g.variant.name, g.players)
    total, n = 0.0, 0
    while True:
        state = game.state_of(g.copy())
        if fast_playouts() and not state.is_over():
            returns = rollout(state, rng)
        else:
            while not state.is_over():
                state.push_legal(playout_policy(state, rng))
            returns = state.returns()
        total += margin_of(returns, player)
        n += 1
        if playouts is not None and n >= playouts:
            break
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
        if should_stop is not None and should_stop():
            break
        if seconds is None and playouts is None:
            break
    return total / n, n

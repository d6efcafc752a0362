"""Blokus endgames the bounds settle: an exact result with no search.

:func:`~polytile.puzzles.blokus.bounds.bounds` gives each colour X a final score it can make
sure of (``score_lower``: a layout of its pieces inside territory no other colour can
reach, played one piece a turn; or its biggest placement now) and one it cannot exceed
(``score_upper``: its best layout if every other colour passed). When the two meet for every
colour, say on a board split into territories, the game's value follows without a search:

* whatever the others play, X makes sure of its score by playing its layout, and it never
  ends above it; so every player's final score is the sum of its colours', the first
  player's lead with two players is their difference, and no move can change either;
* a line that makes it: each colour in turn places the next piece of its layout, then
  passes. A colour that has placed its layout has no legal placement left (one would put
  it above the most it can place), so its passes are forced, as the rules require. Every
  node on that line keeps the value (the same argument from that node), so each move is a
  best move and the line a principal variation.

The line is replayed by the rules engine, which refuses an illegal placement or a pass
while a placement exists; every colour's final score must be its pinned one, and each
player's value the line's (:func:`~polytile.puzzles.blokus.endgame._checked_line`);
anything else is a :class:`~polytile.errors.SolverError`, never a wrong answer.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from polytile.errors import IllegalMoveError, SolverError
from polytile.puzzles.blokus.bounds import BlokusBounds, bounds
from polytile.puzzles.blokus.endgame import _checked_line, _Colors, _objectives, endgame_size
from polytile.puzzles.blokus.endgame_result import Endgame, Line
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.blokus.scoring import player_names

__all__ = ["settle", "settled_endgame"]


def settled_endgame(game: Blokus, results: Sequence[BlokusBounds],
                    players: Sequence[str] | None = None,
                    started: float | None = None) -> Endgame | None:  # fmt: skip
    """The exact result of ``game`` (as :func:`~.endgame.solve_endgame` gives it, with
    ``nodes`` 0 and ``settled`` True) when ``results`` pin every colour's final score; None
    otherwise. ``players``: with 3 or 4 players, whose lines to give (default all, the
    player to move first). ``started``: the :func:`time.perf_counter` time the bounds
    began, so that the result's ``seconds`` include them (default: now).

    Raises
    ------
    SolverError
        If the line of the layouts does not replay to the pinned scores (a bug).
    """
    if started is None:
        started = time.perf_counter()
    pinned = {b.color: b for b in results if b.score_lower == b.score_upper}
    if any(c not in pinned for c in game.colors):
        return None
    layouts = {c: list(pinned[c].lower.placements) for c in game.colors}
    check = game.copy()
    pv: list[Move] = []
    while not check.is_game_over():
        color = check.to_move
        move = layouts[color].pop(0) if layouts[color] else Move.pass_turn(color)
        try:
            check.push(move)
        except IllegalMoveError as exc:
            raise SolverError(f"the layouts of the pinned bounds do not replay: {exc}") from None
        pv.append(move)
    names = player_names(game.players, game.variant.name)
    lines: dict[str, Line] = {}
    final = check.score()
    for color in game.colors:  # every colour on its pinned score, not only the values
        if final.colors[color].total != pinned[color].score_lower:
            raise SolverError(f"the layouts of the pinned bounds end {color} on "
                              f"{final.colors[color].total}, not on its pinned "
                              f"{pinned[color].score_lower}")  # fmt: skip
    for name, weights in _objectives(game, _Colors(game), players).items():
        value = sum(w * pinned[c].score_lower for w, c in zip(weights, game.colors, strict=True))
        lines[name] = _checked_line(game, name, value, pv, weights)
    return Endgame(mode="difference" if len(names) == 2 else "max-own", players=names,
                   to_move=game.player_to_move, lines=lines, nodes=0,
                   seconds=time.perf_counter() - started, placeable=endgame_size(game),
                   settled=True)  # fmt: skip


def settle(game: Blokus, *, time_limit: float = 5.0, workers: int = 2,
           players: Sequence[str] | None = None) -> Endgame | None:  # fmt: skip
    """Every colour's bounds (:func:`~polytile.puzzles.blokus.bounds.bounds`, each of its
    two CP-SAT searches given ``time_limit`` seconds and ``workers`` threads), then the
    result they settle (:func:`settled_endgame`), or None."""
    started = time.perf_counter()
    results = [bounds(game, c, time_limit=time_limit, workers=workers) for c in game.colors]
    return settled_endgame(game, results, players, started)

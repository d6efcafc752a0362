"""``polytile bounds`` on a Blokus position or record: for each colour asked for, the squares
it can still place at least and at most, and the final-score range these give
(:mod:`polytile.puzzles.blokus.bounds`); also the table ``solve-endgame`` prints when its
search is refused."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from polytile.errors import OptionError
from polytile.faces.bounds import (
    BoundsRequest,
    bounds_json,
    end_incomplete,
    incomplete,
    mark,
    not_bounded_why,
)
from polytile.faces.face import Console

__all__ = ["bounds", "color_bounds", "table"]


def bounds(console: Console, file: str, request: BoundsRequest) -> None:
    """Print the bounds of ``request.color`` (the colour to move by default, or every
    colour) of the Blokus position in ``file`` (a record after ``request.move``), as a table
    or JSON; a stop before every colour is bounded ends as :func:`end_incomplete` says."""
    from polytile.puzzles.blokus.files import read_unchecked
    from polytile.puzzles.blokus.rules import Blokus

    source = "<stdin>" if file == "-" else file
    game = Blokus.from_position(read_unchecked(file, request.move), source)  # type: ignore[arg-type]
    color, limit, clock = request.color, request.time_limit, request.clock
    colors: tuple[str, ...] = game.colors if color == "all" else (color or game.to_move,)
    for name in colors:
        if name not in game.colors:
            raise OptionError(f"{name} does not play {game.variant.name} Blokus; colours: "
                              f"{', '.join(game.colors)}", "--color")  # fmt: skip
    results: list[Any] = []
    deadline = clock.deadline(limit)
    try:
        with deadline:
            for k, name in enumerate(colors):
                deadline.check()
                left = clock.left(limit, reserve=0.3) or limit
                each = max(left / ((len(colors) - k) * 2), 0.01)  # two searches a colour
                results += color_bounds(game, (name,), each, request.workers, request.seed,
                                        source)  # fmt: skip
    except KeyboardInterrupt:
        missing = [name for name in colors if name not in {b.color for b in results}]
    else:
        missing = []
    if request.as_json:
        doc: dict[str, Any] = {"game": "blokus",  # to_move, players: as --help says
                               "to_move": None if game.is_game_over() else game.to_move,
                               "players": game.players,
                               "colors": {b.color: bounds_json(b) for b in results}}  # fmt: skip
        console.out(json.dumps(doc | incomplete(missing, deadline.fired)))
        end_incomplete(console, missing, deadline.fired)
        return
    if results or missing:
        console.out(table(results, missing, deadline.fired))
    end_incomplete(console, missing, deadline.fired)


def color_bounds(game: Any, colors: tuple[str, ...], time_limit: float, workers: int,
                 seed: int, source: str) -> list[Any]:  # fmt: skip
    """:func:`polytile.puzzles.blokus.bounds.bounds` of each of ``colors``."""
    from polytile.puzzles.blokus.bounds import bounds as search

    return [search(game, name, time_limit=time_limit, workers=workers, seed=seed,
                   source=source) for name in colors]  # fmt: skip


def table(results: list[Any], missing: Sequence[str] = (), by_time: bool = False) -> str:
    """The text table of Blokus bounds (``polytile bounds`` and ``solve-endgame``): a row
    per colour bounded, and one per colour asked for but not bounded (``missing``) saying
    why."""
    lines = [f"{'':<8}{'score':>7}{'squares it can place':>25}{'final':>12}",
             f"{'colour':<8}{'now':>7}{'at least':>13}{'at most':>12}{'score':>12}"]  # fmt: skip
    for b in results:
        scores = f"{b.score_lower}..{b.score_upper}"
        lines.append(f"{b.color:<8}{b.score_now:>7}{mark(b.lower.value, b.lower.proven):>13}"
                     f"{mark(b.upper.value, b.upper.proven):>12}{scores:>12}")  # fmt: skip
    for name in missing:
        lines.append(f"{name:<8}  not bounded: {not_bounded_why(by_time)}")
    if any(not (b.lower.proven and b.upper.proven) for b in results):
        lines.append("? not proven optimal within the time limit; the number is still a valid "
                     "bound")  # fmt: skip
    return "\n".join(lines)

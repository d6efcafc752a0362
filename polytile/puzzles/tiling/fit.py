""" "Fit as many as possible": coloured teaser pieces on a board too small for all of them.

Each colour's pieces go on the board at most once, without overlap, same-colour pieces never
sharing an edge, under the teaser's corner rule; the objective is the number of squares
placed. CP-SAT (:mod:`polytile.models.cpsat`) finds the best layout it can and a proven
upper bound; the answer is ``optimal`` only when they meet.

Examples
--------
>>> from polytile import Board, piece
>>> from polytile.puzzles.tiling.fit import fit
>>> sol, result = fit(Board(3, 3), [[piece("O4")], [piece("O4")]], touch="none", seed=1)
>>> sol.status, sol.extra["objective"], sol.extra["bound"]
('optimal', 4, 4)
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Sequence

from polytile.board import Board, placements
from polytile.errors import BoardError
from polytile.formats import PlacedPiece, Solution
from polytile.geometry import Polyomino
from polytile.models.cpsat import (
    PlacementModel,
    add_connected_corner_groups,
    add_cover_at_most,
    add_cover_exactly,
    add_local_corner_touch,
    add_no_edge_same_color,
    add_piece_at_most_once,
    add_piece_exactly_once,
    maximize_squares,
)
from polytile.puzzles.tiling.puzzles import check_solution
from polytile.puzzles.tiling.teasers import COLOR_NAMES, Teaser, _same_color_rules
from polytile.solvers.cpsat import CpResult, solve
from polytile.solvers.symmetric import first_solution
from polytile.solvers.tiling import compile_problem

__all__ = ["check_fit", "fit", "fit_everything", "tile"]


def _model(
    board: Board, hands: Sequence[Sequence[Polyomino]], touch: str, exact: bool
) -> tuple[PlacementModel, list[Polyomino], list[int]]:
    """Placement booleans for every colour's pieces with the teaser's colour rules; every
    piece used and every cell covered exactly once when ``exact``, else at most once."""
    pieces = [p for hand in hands for p in hand]
    colors = [k for k, hand in enumerate(hands) for _ in hand]
    pm = PlacementModel(placements(board, pieces), colors)
    if exact:
        add_piece_exactly_once(pm)
        add_cover_exactly(pm)
    else:
        add_piece_at_most_once(pm)
        add_cover_at_most(pm)
    add_no_edge_same_color(pm)
    if touch == "local":
        add_local_corner_touch(pm)
    elif touch == "connected":
        add_connected_corner_groups(pm)
    return pm, pieces, colors


def _placed(pm: PlacementModel, pieces: Sequence[Polyomino], colors: Sequence[int],
            chosen: Sequence[int]) -> tuple[PlacedPiece, ...]:  # fmt: skip
    pl = pm.placements
    return tuple(
        PlacedPiece(
            pieces[int(pl.piece[i])].name,
            tuple(pl.coords_of(i)),
            COLOR_NAMES[colors[int(pl.piece[i])]],
        )
        for i in chosen
    )


def tile(
    board: Board,
    hands: Sequence[Sequence[Polyomino]],
    touch: str = "local",
    *,
    time_limit: float | None = 60,
    workers: int | None = None,
    seed: int | None = None,
) -> tuple[tuple[PlacedPiece, ...] | None, CpResult]:
    """A complete coloured tiling by CP-SAT (the direct model: one boolean per placement,
    each piece and each cell exactly once, the colour rules), or None with CP-SAT's status
    (``infeasible``: proven impossible; ``unknown``: out of time)."""
    pm, pieces, colors = _model(board, hands, touch, exact=True)
    result = solve(pm, time_limit=time_limit, workers=workers, seed=seed)
    if not result.found:
        return None, result
    return _placed(pm, pieces, colors, result.placements), result


def fit(
    board: Board,
    hands: Sequence[Sequence[Polyomino]],
    touch: str = "local",
    *,
    time_limit: float | None = 60,
    workers: int | None = None,
    seed: int | None = None,
) -> tuple[Solution, CpResult]:
    """Place as many squares of the colours' pieces as the rules allow.

    Parameters
    ----------
    board
        The board.
    hands
        Each colour's pieces, colour 0 (blue) first.
    touch
        ``"local"``, ``"connected"`` or ``"none"``.
    time_limit
        Seconds for building the model and solving it (None: no limit).
    workers, seed
        For CP-SAT.

    Returns
    -------
    (Solution, CpResult)
        The layout (``status`` optimal / feasible / unknown, ``extra`` with ``objective``
        and ``bound``) and the raw CP-SAT result.
    """
    started = time.perf_counter()  # the limit covers building the model too
    pm, pieces, colors = _model(board, hands, touch, exact=False)
    maximize_squares(pm)
    left = None if time_limit is None else max(0.05, time_limit - (time.perf_counter() - started))
    result = solve(pm, time_limit=left, workers=workers, seed=seed)
    placed = _placed(pm, pieces, colors, result.placements)
    status = result.status if result.found else "unknown"
    # CP-SAT's bound can be loose before it proves anything; the open cells and the pieces'
    # squares bound the objective too.
    bound = min(board.n_open, sum(p.size for p in pieces))
    if result.bound is not None:
        bound = min(bound, int(result.bound + 1e-6))
    if result.objective is not None and round(result.objective) == bound:
        status = "optimal"
    solution = Solution(
        "fit",
        board.rows,
        board.cols,
        placed,
        status if status in ("optimal", "feasible", "infeasible", "unknown") else "unknown",
        blocked=tuple(sorted(board.blocked)),
        extra={
            "touch": touch,
            "hands": [[p.name for p in hand] for hand in hands],
            "objective": None if result.objective is None else round(result.objective),
            "bound": bound,
        },
    )
    return solution, result


def fit_everything(
    board: Board,
    hands: Sequence[Sequence[Polyomino]],
    touch: str = "local",
    *,
    time_limit: float | None = 15,
    seed: int | None = None,
) -> Solution | None:
    """Every piece on the board, by the exact teaser search, or None.

    A layout placing every piece's squares can be beaten by none: the answer is
    ``optimal`` at once. When the pieces' squares equal the open cells that is a tiling of
    the board; when they are fewer, a tiling of an open rectangle of the board with exactly
    their area (tried by shape, each at its first open place): the colour rules hold there
    as on the whole board, the other cells staying empty. The exact search (symmetric
    solutions first, :mod:`polytile.solvers.symmetric`) finds one far sooner than CP-SAT's
    maximisation does. None when no such board or rectangle is tiled within ``time_limit``
    seconds (None: no limit), which proves nothing.
    """
    area = sum(p.size for hand in hands for p in hand)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    if area == board.n_open:
        places = [(board, 0, 0)]
    elif area < board.n_open:
        places = _open_rectangles(board, area)
    else:
        return None
    for i, (sub, top, left) in enumerate(places):
        share = None if deadline is None else (deadline - time.perf_counter()) / (len(places) - i)
        if share is not None and share <= 0:
            return None
        placed = _tiled(sub, hands, touch, share, seed)
        if placed is not None:
            moved = tuple(
                dataclasses.replace(pp, cells=tuple((r + top, c + left) for r, c in pp.cells))
                for pp in placed
            )
            return Solution(
                "fit",
                board.rows,
                board.cols,
                moved,
                "optimal",
                blocked=tuple(sorted(board.blocked)),
                extra={
                    "touch": touch,
                    "hands": [[p.name for p in hand] for hand in hands],
                    "objective": area,
                    "bound": area,
                },
            )
    return None


def _open_rectangles(board: Board, area: int) -> list[tuple[Board, int, int]]:
    """Per shape of ``area`` cells that fits the board (squarer first), the first place
    (row by row) where it is wholly open: (the rectangle as a board, its top row, its left
    column)."""
    shapes = sorted(((h, area // h) for h in range(1, board.rows + 1)
                     if area % h == 0 and area // h <= board.cols),
                    key=lambda hw: abs(hw[0] - hw[1]))  # fmt: skip
    found = []
    for h, w in shapes:
        for top in range(board.rows - h + 1):
            left = next((c for c in range(board.cols - w + 1)
                         if not any((r, x) in board.blocked for r in range(top, top + h)
                                    for x in range(c, c + w))), None)  # fmt: skip
            if left is not None:
                found.append((Board(h, w), top, left))
                break
    return found


def _tiled(
    board: Board,
    hands: Sequence[Sequence[Polyomino]],
    touch: str,
    time_limit: float | None,
    seed: int | None,
) -> tuple[PlacedPiece, ...] | None:
    """A tiling of ``board`` by every piece of ``hands`` under the colour rules, by the
    exact teaser search within ``time_limit`` seconds, or None."""
    try:
        teaser = Teaser("fit", board, tuple(tuple(hand) for hand in hands), touch)
    except BoardError:
        return None
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    stop = None if deadline is None else (lambda: time.perf_counter() >= deadline)
    path = first_solution(teaser.problem, seed=seed, should_stop=stop)
    if path is None:
        return None
    whole = teaser.to_solution(compile_problem(teaser.problem).placements, path, "optimal")
    return whole.placements


def check_fit(solution: Solution, hands: Sequence[Sequence[Polyomino]], touch: str) -> list[str]:
    """Every rule a partial layout breaks: geometry, the colours' hands, the colour rules.

    Independent of the solver; unlike a full teaser, pieces may stay in hand.
    """
    reasons = check_solution(solution)
    allowed = Counter((COLOR_NAMES[k], p.name) for k, hand in enumerate(hands) for p in hand)
    used = Counter((pp.color, pp.piece) for pp in solution.placements)
    for (color, name), n in used.items():
        if n > allowed.get((color or "", name), 0):
            reasons.append(
                f"{color} {name}: placed {n} times, the hand has "
                f"{allowed.get((color or '', name), 0)}"
            )
    reasons.extend(_same_color_rules(solution, touch))
    return reasons

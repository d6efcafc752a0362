"""A designer's puzzle with several solutions: where they differ, and the fewest pieces to
give so that exactly one is left (issue 47, items 4 and 5).

Both start from every solution of the puzzle (the search lists them, at most ``most``).

* :func:`differences`: the cells whose piece is not the same in every solution.
* :func:`fewest_givens`: for each solution ``T``, the smallest set ``G`` of its placements
  that no other solution contains all of; then ``T`` is the only solution with ``G`` given.
  A solution has one placement a piece (a dozen or so), so for each ``T`` every subset of
  its placements is tried by size, smallest first, each against all the other solutions at
  once (bit masks): the first that works is the fewest for that ``T``, and the fewest over
  every ``T`` is proven the fewest there are. The new puzzle is then counted: one solution.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from polytile.errors import SolverError
from polytile.formats import PlacedPiece
from polytile.puzzles.tiling.puzzles import TilingPuzzle
from polytile.solvers.tiling import compile_problem, solutions

__all__ = ["Givens", "differences", "every_solution", "fewest_givens"]


def every_solution(puzzle: TilingPuzzle, most: int, should_stop: Callable[[], bool] | None = None,
                   ) -> tuple[list[list[int]], bool]:  # fmt: skip
    """Every solution (placement indices of ``compile_problem(puzzle.problem)``), at most
    ``most``, and whether that is all of them."""
    found: list[list[int]] = []
    for sol in solutions(puzzle.problem, should_stop=should_stop):
        if len(found) == most:
            return found, False
        found.append(sorted(sol))
    stopped = should_stop is not None and should_stop()
    return found, not stopped


def differences(puzzle: TilingPuzzle, found: list[list[int]]) -> dict[tuple[int, ...], set[str]]:
    """Per cell, the pieces that cover it in the solutions ``found`` (only the cells where
    they are not all the same piece)."""
    pl = compile_problem(puzzle.problem).placements
    names = [p.name for p in pl.pieces]
    seen: dict[tuple[int, ...], set[str]] = {}
    for sol in found:
        for i in sol:
            for cell in pl.coords_of(i):
                seen.setdefault(cell, set()).add(names[int(pl.piece[i])])
    return {cell: who for cell, who in seen.items() if len(who) > 1}


@dataclass(frozen=True)
class Givens:
    """The fewest pieces to give: the solution kept (its index in the list) and its
    placements to give, as pieces on cells."""

    solution: int
    placements: tuple[int, ...]
    pieces: tuple[PlacedPiece, ...]


def fewest_givens(puzzle: TilingPuzzle, found: list[list[int]],
                  should_stop: Callable[[], bool] | None = None) -> Givens | None:  # fmt: skip
    """The fewest placements of one solution to give so that it is the only one left, over
    every solution in ``found`` (all of the puzzle's): see the module's docstring. None when
    ``should_stop`` (asked before each size tried) stopped it first.

    Raises
    ------
    SolverError
        If ``found`` has no solution.
    """
    if not found:
        raise SolverError("the puzzle has no solution to keep")
    pl = compile_problem(puzzle.problem).placements
    member = np.zeros((len(found), len(pl)), dtype=bool)
    for s, sol in enumerate(found):
        member[s, sol] = True
    best: tuple[int, int, tuple[int, ...]] | None = None  # (size, solution, placements)
    for t, target in enumerate(found):
        others = np.delete(np.arange(len(found)), t)
        # lacks[s, j]: solution s lacks the target's j-th placement
        lacks = ~member[np.ix_(others, np.array(target, dtype=np.int64))]
        limit = len(target) if best is None else best[0] - 1
        for size in range(0 if len(others) == 0 else 1, limit + 1):
            if should_stop is not None and should_stop():
                return None
            hit = next((combo for combo in itertools.combinations(range(len(target)), size)
                        if lacks[:, combo].any(axis=1).all()), None)  # fmt: skip
            if hit is not None:
                best = (size, t, tuple(target[j] for j in hit))
                break
        if best is not None and best[0] == 0:
            break
    if best is None:  # pragma: no cover - the whole solution given is always unique
        raise SolverError("no set of given pieces leaves one solution")
    _, t, chosen = best
    pieces = tuple(PlacedPiece(pl.pieces[int(pl.piece[i])].name, tuple(pl.coords_of(i)))
                   for i in chosen)  # fmt: skip
    return Givens(t, chosen, pieces)

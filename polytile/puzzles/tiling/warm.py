"""The tiling searches run on small puzzles, so that numba compiles and caches their kernels
(:mod:`polytile._warm` runs :func:`warm_up` in a process of its own the first time)."""

from __future__ import annotations

__all__ = ["warm_up"]


def warm_up() -> None:
    """Compile what ``count`` and ``solve`` run on the tiling puzzles: a count split into
    subtrees with the board's symmetries, and a first solution in the fixed and in a seeded
    order, each on a plain puzzle and on a teaser with its colour rules; the exact-cover
    kernel ``generate packing`` measures difficulty with; the frontier engine and the
    estimates."""
    from polytile.board import Board
    from polytile.geometry import piece
    from polytile.puzzles.tiling.catalogue import resolve
    from polytile.solvers.counting import count_tiling
    from polytile.solvers.estimate import estimate_frontier, estimate_search
    from polytile.solvers.frontier import count_frontier
    from polytile.solvers.symmetric import first_solution
    from polytile.solvers.tiling import TilingProblem
    from polytile.solvers.xcc import XCCArrays, count

    count(XCCArrays.from_lists([[0, 1], [0], [1]], n_items=2, n_primary=2))
    # the frontier engine and the estimates of count --estimate and --engine auto
    repeated = TilingProblem(Board(4, 4), (piece("T4"), piece("O4")), (2, 2))
    for threads in (1, 2):  # the compiled kernel, from the first layer on
        count_frontier(repeated, threads=threads, numpy_keys=0)
    estimate_frontier(repeated)
    estimate_search(repeated, probes=10, rate_seconds=0.0)

    for puzzle in (resolve("pentomino-3x20"),
                   resolve("four-square", "local", "4x4", 2, "O4,T4")):  # fmt: skip
        count_tiling(puzzle.problem, symmetry=True)
        for seed in (None, 1):
            first_solution(puzzle.problem, seed=seed)

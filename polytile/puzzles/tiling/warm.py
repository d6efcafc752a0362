"""The tiling searches run on small puzzles, so that numba compiles and caches their kernels
(:mod:`polytile._warm` runs :func:`warm_up` in a process of its own the first time)."""

from __future__ import annotations

__all__ = ["warm_up"]


def warm_up() -> None:
    """Compile what ``count`` and ``solve`` run on the tiling puzzles: a count split into
    subtrees with the board's symmetries, and a first solution in the fixed and in a seeded
    order, each on a plain puzzle and on a teaser with its colour rules; and the exact-cover
    kernel ``generate packing`` measures difficulty with."""
    from polytile.puzzles.tiling.catalogue import resolve
    from polytile.solvers.counting import count_tiling
    from polytile.solvers.symmetric import first_solution
    from polytile.solvers.xcc import XCCArrays, count

    count(XCCArrays.from_lists([[0, 1], [0], [1]], n_items=2, n_primary=2))

    for puzzle in (resolve("pentomino-3x20"),
                   resolve("four-square", "local", "4x4", 2, "O4,T4")):  # fmt: skip
        count_tiling(puzzle.problem, symmetry=True)
        for seed in (None, 1):
            first_solution(puzzle.problem, seed=seed)

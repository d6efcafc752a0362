"""Symmetric solutions first: a fast way to one coloured tiling (the Blokus teasers).

A coloured tiling is *symmetric* under a board symmetry ``g`` of order 2 and a pairing
``sigma`` of the colours when ``g`` maps every piece of colour ``k`` onto a piece of colour
``sigma(k)``. Such a tiling is fixed by half of its pieces: each option of the derived
problem puts down a piece ``P`` of colour ``k`` together with its image ``g(P)`` in colour
``sigma(k)`` (a two-coloured option of :mod:`polytile.solvers.bitboard`). The search is half
as deep, and its tree is orders of magnitude smaller than the full one.

Only pairings without fixed colours are used: a colour mapped to itself would need every one
of its pieces to be mapped onto a piece of its own colour, which a hand with a single L4 can
never give (no symmetry without a fixed cell maps an L4 onto itself). ``g`` may not fix an
open cell (that cell's colour would be its own partner).

Why it is sound: the derived problem's options keep the whole position symmetric, and each
colour receives only first pieces or only second pieces, so the second pieces break a colour
rule exactly when the first ones do (the kernel checks the first ones, the connected rule
included), and a complete cover is a tiling of the original problem in which every piece
type is used as often as it has copies (the partner colours have the same hands). Solutions
are then checked by the caller's rules like every other answer.

Not every problem has symmetric solutions: :func:`first_solution` shares its time between
the symmetric searches and the ordinary one, so it stays complete.

Examples
--------
>>> from polytile.puzzles.tiling.teasers import four_square
>>> [(s.symmetry, s.pairing) for s in symmetric_kernels(four_square().problem)]
[(2, (1, 0, 3, 2)), (4, (1, 0, 3, 2)), (5, (1, 0, 3, 2))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from polytile.geometry import compose_transforms
from polytile.solvers import bitboard
from polytile.solvers.tiling import (
    TilingKernel,
    TilingProblem,
    compile_problem,
    placement_images,
)

__all__ = ["SymmetricKernel", "first_solution", "symmetric_kernels"]


@dataclass(frozen=True)
class SymmetricKernel:
    """The two-coloured kernel of the tilings symmetric under ``symmetry`` and ``pairing``.

    ``pairing[k]`` is the partner of colour ``k``; ``kernel.options[i]`` are the two
    placement indices (into the original problem's placements) that option ``i`` puts down.
    """

    symmetry: int
    pairing: tuple[int, ...]
    kernel: TilingKernel


def _pairings(hands: list[Counter], interchangeable: bool) -> list[tuple[int, ...]]:
    """Fixed-point-free pairings of the colours, each pair with the same hand."""
    n = len(hands)
    if n % 2:
        return []
    if interchangeable:  # all pairings are the same up to renaming colours
        return [tuple(k ^ 1 for k in range(n))]
    found: list[tuple[int, ...]] = []

    def extend(left: list[int], sigma: list[int]) -> None:
        if not left:
            found.append(tuple(sigma))
            return
        a = left[0]
        for b in left[1:]:
            if hands[a] == hands[b]:
                sigma[a], sigma[b] = b, a
                extend([c for c in left if c not in (a, b)], sigma)

    extend(list(range(n)), [0] * n)
    return found


def symmetric_kernels(problem: TilingProblem) -> list[SymmetricKernel]:
    """One kernel per usable (board symmetry of order 2, colour pairing); empty if none.

    Only coloured problems with two-sided pieces qualify (a turned-over piece is the same
    piece, so a mirror image of a placement is a placement of the same type).
    """
    coloring = problem.coloring
    if coloring is None or problem.one_sided or problem.board.n_open % 2:
        return []
    base = compile_problem(problem)
    shapes = [t.canonical() for t in problem.types]
    hands: list[Counter] = [Counter() for _ in range(coloring.n_colors)]
    for t, k in enumerate(coloring.colors):
        hands[k][shapes[t]] += problem.counts[t]
    type_of = {(k, shapes[t]): t for t, k in enumerate(coloring.colors)}
    board = problem.board
    open_cells = np.flatnonzero(board.open_mask.ravel())
    # The base kernel's option of each placement (its options are single placements).
    option_of = np.empty(len(base.placements), dtype=np.int64)
    option_of[[opt[0] for opt in base.options]] = np.arange(len(base.options))
    result = []
    for g in board.symmetries():
        if g == 0 or compose_transforms(g, g) != 0:
            continue
        if np.any(board.cell_permutation(g)[open_cells] == open_cells):
            continue  # g fixes an open cell
        for sigma in _pairings(hands, coloring.interchangeable):
            partner = np.array(
                [type_of[(sigma[k], shapes[t])] for t, k in enumerate(coloring.colors)],
                dtype=np.int64,
            )
            image = placement_images(base.placements, g, partner)
            kernel = _pair_kernel(base, sigma, option_of, image)
            if kernel is not None:
                result.append(SymmetricKernel(g, sigma, kernel))
    return result


def _pair_kernel(
    base: TilingKernel,
    sigma: tuple[int, ...],
    option_of: npt.NDArray[np.int64],
    image: npt.NDArray[np.int64],
) -> TilingKernel | None:
    """The derived kernel: options ``(P in colour k, g(P) in colour sigma(k))``, ``k < sigma(k)``.

    ``image[i]`` is the placement ``g`` maps placement ``i`` to, in the partner colour, and
    ``option_of[i]`` the base kernel's option of placement ``i``.
    """
    coloring = base.problem.coloring
    assert coloring is not None  # checked by the caller; not a validation
    pl = base.placements
    colors = base.colors
    first = np.array([sigma[k] > k for k in coloring.colors])[pl.piece]
    a = option_of[np.flatnonzero(first)]
    b = option_of[image[np.flatnonzero(first)]]
    disjoint = ~np.any(base.masks[a] & base.masks[b], axis=1)
    a, b = a[disjoint], b[disjoint]
    if len(a) == 0:
        return None
    masks = base.masks[a] | base.masks[b]
    # The kernel branches on the first empty cell: options grouped by their lowest cell.
    lowest = np.array([_lowest_bit(m) for m in masks], dtype=np.int64)
    order = np.argsort(lowest, kind="stable")
    a, b, masks, lowest = a[order], b[order], masks[order], lowest[order]
    words = masks.shape[1]
    anchor_ptr = np.zeros(words * 64 + 1, dtype=np.int64)
    np.add.at(anchor_ptr, lowest + 1, 1)
    anchor_ptr = np.cumsum(anchor_ptr)
    _m, ptype, _u, _p, _i, *rest = base.arrays
    arrays = (
        masks,
        ptype[a],
        np.ones(len(a), dtype=np.int64),
        anchor_ptr,
        np.arange(len(a), dtype=np.int64),
        *rest,
    )
    # Each pair uses one copy of its first type; the partner types are never chosen.
    type_count = base.type_count.copy()
    for t, k in enumerate(coloring.colors):
        if sigma[k] < k:
            type_count[t] = 0
    pair_colors = bitboard.Colors(
        colors.n_colors,
        colors.ocolor[a],
        colors.halo[a],
        colors.corner[a],
        False,  # colour pairs fix part of the colour naming; search all namings
        colors.rule,
        np.zeros((0, words * 64), dtype=np.int64),
        pairs=True,
        part=base.masks[a],
        color2=np.array([sigma[k] for k in colors.ocolor[a]], dtype=np.int64),
        halo2=colors.halo[b],
    )
    options = [base.options[x] + base.options[y] for x, y in zip(a, b, strict=True)]
    return replace(
        base,
        options=options,
        arrays=arrays,
        type_count=type_count,
        colors=pair_colors,
    )


def _lowest_bit(mask: np.ndarray) -> int:
    for w, x in enumerate(mask):
        if x:
            x = int(x)
            return w * 64 + (x & -x).bit_length() - 1
    raise ValueError("empty option")  # pragma: no cover - options cover cells


def first_solution(
    problem: TilingProblem,
    seed: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    chunk: int = 50_000,
) -> list[int] | None:
    """One tiling (placement indices), symmetric ones tried first; None if there is none.

    The symmetric searches and the ordinary one take turns, ``chunk`` nodes each: three
    chunks for the symmetric searches (one search after another), then one for the ordinary
    search, because symmetric solutions are far denser in their small trees. A symmetric
    search drops out when its tree is exhausted, and the ordinary search runs alone once
    they all have. Complete: None means no tiling exists, or ``should_stop`` ended the search.
    """
    rng = np.random.default_rng(seed)
    kernels = [s.kernel for s in symmetric_kernels(problem)]
    if seed is not None:
        rng.shuffle(kernels)
    kernels.append(compile_problem(problem))
    if seed is not None:
        kernels = [k.shuffled(int(rng.integers(1 << 62))) for k in kernels]
    *symmetric, plain = [_Run(k) for k in kernels]
    turn = next_symmetric = 0
    while should_stop is None or not should_stop():
        live = [r for r in symmetric if not r.done]
        if live and turn % 4 != 3:
            run = live[next_symmetric % len(live)]
            next_symmetric += 1
            for path in run.step(chunk):
                return path
        else:
            # Alone, the ordinary search takes bigger steps (the stop check stays timely).
            for path in plain.step(chunk if live else 8 * chunk):
                return path
            if plain.done:
                return None
        turn += 1
    return None


class _Run:
    """A resumable search of one kernel that yields the tilings it finds."""

    def __init__(self, kernel: TilingKernel) -> None:
        self.kernel = kernel
        self.state = kernel.state(record=True, buffer=64)
        self.done = False

    def step(self, budget: int) -> Iterator[list[int]]:
        status = self.kernel.run(self.state, budget)
        for path in self.state.take():
            yield self.kernel.decode(path)
        self.done = status == bitboard.DONE

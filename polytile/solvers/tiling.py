"""Counting and listing polyomino tilings with the bitboard kernel, symmetry handled soundly.

A tiling problem is a board, a list of distinct piece *types* and how many copies of each
there are (copies are indistinguishable). Every open cell must be covered and, because the
areas must match, every copy used.

Symmetry
--------
Let G be the board's symmetry group (:meth:`Board.symmetries`, rotations only for one-sided
pieces), or the subgroup :meth:`TilingProblem.group` names. G acts on tilings; with
"mirror-pieces" a reflection also turns every one-sided piece into its mirror twin
(:meth:`TilingProblem.piece_map`), which acts on placements all the same.

* Raw count. When some type has exactly one copy, its placements fall into orbits under
  the symmetries that keep it (all of G, or the rotations where a reflection turns it into
  its twin); the tilings with that piece at ``g(p)`` are the images of those with it at
  ``p``, so ``raw = sum over orbit representatives p of |orbit(p)| * count(piece at p)``.
  The search runs only below the representatives: about |G| times less work.
* Count up to symmetry, by Burnside's lemma: ``(raw + sum over g != id of Fix(g)) / |G|``,
  where Fix(g) counts the g-invariant tilings. A g-invariant tiling is a disjoint union of
  <g>-orbits of placements, so Fix(g) is the count of a derived problem whose options are
  those orbits (an orbit of k placements uses k copies; an orbit of a piece and its twin
  uses one of each, counted on one counter: :meth:`TilingProblem.fixed_supply`). Fix(g)
  searches are small.

Both are exact for every board, holes and repeated pieces included; tests check them against
canonical-form deduplication.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from polytile.board import Board, Placements, placements
from polytile.errors import SolverError
from polytile.geometry import invert_transform
from polytile.solvers.problem import TOUCH_RULES, Coloring, PieceGroup, TilingProblem

if TYPE_CHECKING:
    from polytile.solvers import bitboard

__all__ = [
    "TOUCH_RULES",
    "Coloring",
    "CountPlan",
    "PieceGroup",
    "Task",
    "TaskCount",
    "TilingKernel",
    "TilingProblem",
    "count_task",
    "plan_count",
    "problem_placements",
    "scan_orders",
    "solutions",
]

#: Nodes per kernel call between checks of time limits, progress and Ctrl-C.
CHUNK = 2_000_000


@dataclass(eq=False)
class TilingKernel:
    """A :class:`TilingProblem` compiled into the kernel's arrays.

    ``options[i]`` is the tuple of placement indices (into ``placements``) that option ``i``
    puts down at once: one placement normally, a symmetric orbit for Fix(g) problems.
    """

    problem: TilingProblem
    placements: Placements
    options: list[tuple[int, ...]]
    arrays: tuple[npt.NDArray[np.generic], ...]
    width: int
    start_cover: npt.NDArray[np.uint64]
    type_count: npt.NDArray[np.int64]
    colors: bitboard.Colors
    prune: bool = False

    def __post_init__(self) -> None:
        if self.prune and self.problem.board.grid != "square":
            raise ValueError("dead-region pruning knows the square grid's neighbours only")

    @property
    def masks(self) -> npt.NDArray[np.uint64]:
        """Option bitmasks in scan order."""
        return self.arrays[0]  # type: ignore[return-value]

    @property
    def ptype(self) -> npt.NDArray[np.int64]:
        """Piece type of each option."""
        return self.arrays[1]  # type: ignore[return-value]

    @property
    def use(self) -> npt.NDArray[np.int64]:
        """Copies each option uses."""
        return self.arrays[2]  # type: ignore[return-value]

    @cached_property
    def option_of_placement(self) -> dict[int, int]:
        """Option index of each single-placement option."""
        return {opts[0]: i for i, opts in enumerate(self.options) if len(opts) == 1}

    def state(self, forced: Sequence[int] = (), record: bool = False, buffer: int = 1024):
        """A fresh :class:`bitboard.SearchState` below the forced options."""
        from polytile.solvers import bitboard  # numba: imported when a search runs

        return bitboard.SearchState(
            self.masks,
            self.ptype,
            self.use,
            self.start_cover,
            self.type_count,
            self.problem.n_pieces,
            self.colors,
            tuple(forced),
            record,
            buffer,
        )

    def run(self, state: bitboard.SearchState, budget: int = CHUNK, split_depth: int = -1) -> int:
        """Advance a search state (see :func:`bitboard.run`).

        Dead-region pruning is off: measured on the pentomino catalogue it cuts nodes 2-5x
        but costs more time than it saves (6x10: 0.37 s pruned vs 0.28 s plain), because a
        node of the bitboard search costs only ~100 ns.
        """
        from polytile.solvers import bitboard  # numba: imported when a search runs

        return bitboard.run(
            state, self.arrays, self.colors, self.width, budget, split_depth, self.prune
        )

    def shuffled(self, seed: int) -> TilingKernel:
        """The same problem with the options of each cell tried in a seeded random order."""
        rng = np.random.default_rng(seed)
        anchor_ptr, anchor_idx = self.arrays[3], self.arrays[4].copy()
        for c in range(len(anchor_ptr) - 1):
            lo, hi = anchor_ptr[c], anchor_ptr[c + 1]
            if hi - lo > 1:
                anchor_idx[lo:hi] = rng.permutation(anchor_idx[lo:hi])
        arrays = (*self.arrays[:4], anchor_idx, *self.arrays[5:])
        return dataclasses.replace(self, arrays=arrays)

    def decode(self, path: Sequence[int]) -> list[int]:
        """Placement indices of a kernel path (option indices)."""
        return [pl for opt in path for pl in self.options[opt]]


@lru_cache(maxsize=32)
def problem_placements(problem: TilingProblem) -> Placements:
    """Every placement of a problem's pieces, made once per problem (a count compiles a
    kernel for each symmetry of the board, all on the same placements). Read only."""
    return placements(problem.board, problem.types, problem.one_sided)


def _scan_layout(board: Board) -> tuple[npt.NDArray[np.int64], int, int]:
    """Map cell index -> bit index so that the scan runs along the board's short side, with
    the length of a line of the scan (the fastest axis) and the number of lines."""
    shape = board.open_mask.shape
    if len(shape) == 2:
        r, c = np.divmod(np.arange(board.size), board.cols)
        if board.cols > board.rows:  # column by column
            return (c * board.rows + r).astype(np.int64), board.rows, board.cols
        return (r * board.cols + c).astype(np.int64), board.cols, board.rows
    fastest = min(shape)
    return board.scan_order("short"), fastest, board.size // fastest


@lru_cache(maxsize=16)
def scan_orders(board: Board) -> tuple[tuple[str, npt.NDArray[np.int64]], ...]:
    """The scans a search may run in on ``board``, each named, with each cell's bit. The
    first is the default (:func:`_scan_layout`); the square grid has that one alone. On the
    other grids no one order is best (a count's time varies up to 20x between them), so
    :mod:`polytile.solvers.scan` chooses among these, on a 2D board the eight directions
    of rows, columns and both diagonals of the cell coordinates (each line scanned both
    ways), on a box the six orders of its axes, each axis either way."""
    default = ("default", _scan_layout(board)[0])
    if board.grid == "square":
        return (default,)
    shape = board.open_mask.shape
    coords = np.array(np.unravel_index(np.arange(board.size), shape), dtype=np.int64)
    keys: list[tuple[str, tuple[npt.NDArray[np.int64], ...]]] = []
    if len(shape) == 2:
        r, c = coords
        lines = {"rows": (r, c), "columns": (c, r), "diagonals": (r + c, c),
                 "antidiagonals": (r - c, c)}  # fmt: skip
        for name, (major, minor) in lines.items():
            for s1, s2 in itertools.product((1, -1), repeat=2):
                ways = f"{'forward' if s1 > 0 else 'backward'}/{'+' if s2 > 0 else '-'}"
                keys.append((f"{name} {ways}", (s2 * minor, s1 * major)))
    else:
        for axes in itertools.permutations(range(3)):  # slowest to fastest
            for signs in itertools.product((1, -1), repeat=3):
                name = " ".join(f"{'-' if signs[a] < 0 else '+'}{'LRC'[a]}" for a in axes)
                keys.append((f"axes {name}", tuple(signs[a] * coords[a] for a in axes[::-1])))
    found = [default]
    seen = {default[1].tobytes()}
    for name, key in keys:
        bit = np.empty(board.size, dtype=np.int64)
        bit[np.lexsort(key)] = np.arange(board.size, dtype=np.int64)
        if bit.tobytes() not in seen:
            seen.add(bit.tobytes())
            found.append((name, bit))
    return tuple(found)


def _pack(
    rows: npt.NDArray[np.bool_], bit: npt.NDArray[np.int64], words: int
) -> npt.NDArray[np.uint64]:
    """Bitmasks (one row of ``words`` words each) of boolean rows over the board's cells."""
    wide = np.zeros((rows.shape[0], words * 64), dtype=bool)
    wide[:, bit] = rows
    packed = np.packbits(wide, axis=1, bitorder="little")
    return packed.view("<u8").astype(np.uint64).reshape(rows.shape[0], words)


def _bits(indices: npt.NDArray[np.int64], words: int) -> npt.NDArray[np.uint64]:
    out = np.zeros(words, dtype=np.uint64)
    for i in indices:
        out[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return out


def compile_problem(problem: TilingProblem, symmetry: int = 0, scan: int = 0) -> TilingKernel:
    """Compile ``problem`` for the kernel; with ``symmetry`` k != 0, its Fix(k) problem;
    ``scan`` is the index of the order its cells are scanned in (:func:`scan_orders`).

    Cached per process, so workers compile each problem once (:func:`build_kernel` builds
    one afresh).
    """
    return _cached_kernel(problem, symmetry, scan)


@lru_cache(maxsize=32)
def _cached_kernel(problem: TilingProblem, symmetry: int, scan: int) -> TilingKernel:
    return build_kernel(problem, symmetry, scan)


def build_kernel(problem: TilingProblem, symmetry: int = 0, scan: int = 0) -> TilingKernel:
    """:func:`compile_problem` without its cache."""
    pl = problem_placements(problem)
    n_cells = problem.board.size
    words = (n_cells + 63) // 64
    bit, width, _ = _scan_layout(problem.board)
    if scan:
        bit = scan_orders(problem.board)[scan][1]
        width = 1  # only the square grid's dead-region test reads lines, and it has one scan
    options: list[tuple[int, ...]] = (
        [(i,) for i in range(len(pl))]
        if symmetry == 0
        else _orbit_options(pl, symmetry, problem.piece_map(symmetry))
    )
    kept, counts, _, _ = problem.fixed_supply(symmetry)
    # Option i covers the cells of its placements: a padded (options x cells) array of bits.
    width_opt = max((len(opt) for opt in options), default=1)
    members = np.full((len(options), width_opt), -1, dtype=np.int64)
    for i, opt in enumerate(options):
        members[i, : len(opt)] = opt
    use = (members >= 0).sum(axis=1).astype(np.int64)
    # the counter of the type: a piece and its mirror twin share one in some Fix(k) counts
    ptype = (np.array(kept, dtype=np.int64)[pl.piece[members[:, 0]]] if len(options)
             else np.zeros(0, np.int64))  # fmt: skip
    cells = pl.cells[np.maximum(members, 0)]  # (options, members, max size)
    cells = np.where((members >= 0)[:, :, None] & (cells >= 0), cells, -1)
    cells = cells.reshape(cells.shape[0], cells.shape[1] * cells.shape[2])
    bits = np.where(cells >= 0, bit[np.maximum(cells, 0)], -1)
    anchor = np.where(bits >= 0, bits, np.iinfo(np.int64).max).min(axis=1)
    masks = np.zeros((len(options), words), dtype=np.uint64)
    rows = np.arange(len(options))
    for j in range(bits.shape[1]):
        live = bits[:, j] >= 0
        b = bits[live, j]
        np.bitwise_or.at(
            masks, (rows[live], b >> 6), np.left_shift(np.uint64(1), (b & 63).astype(np.uint64))
        )
    order = np.argsort(anchor, kind="stable")
    # Reorder options so that those anchored at a cell are contiguous.
    options = [options[i] for i in order]
    masks, anchor, ptype, use = masks[order], anchor[order], ptype[order], use[order]
    anchor_ptr = np.zeros(words * 64 + 1, dtype=np.int64)
    np.add.at(anchor_ptr, anchor + 1, 1)
    anchor_ptr = np.cumsum(anchor_ptr)
    anchor_idx = np.arange(len(options), dtype=np.int64)
    open_bits = bit[np.flatnonzero(problem.board.open_mask.ravel())]
    valid = _bits(open_bits, words)
    all_bits = bit[np.arange(n_cells)]
    col = all_bits % width
    not_first = _bits(all_bits[col > 0], words)
    not_last = _bits(all_bits[col < width - 1], words)
    sizes = np.array([t.size for t in problem.types], dtype=np.int64)
    arrays = (masks, ptype, use, anchor_ptr, anchor_idx, sizes, valid, not_first, not_last,
              *problem.supply_arrays(symmetry))  # fmt: skip
    return TilingKernel(
        problem=problem,
        placements=pl,
        options=options,
        arrays=arrays,
        width=width,
        start_cover=~valid,
        type_count=np.array(counts, dtype=np.int64),
        colors=_colors(problem, pl, options, bit, words),
    )


_EDGE = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _colors(
    problem: TilingProblem,
    pl: Placements,
    options: list[tuple[int, ...]],
    bit: npt.NDArray[np.int64],
    words: int,
) -> bitboard.Colors:
    """The kernel's colour arrays: option colours, edge halos, corner cells, orbit maps."""
    from polytile.solvers import bitboard

    coloring = problem.coloring
    if coloring is None:
        return bitboard.Colors.none(len(options), words)
    board = problem.board
    ocolor = np.array([coloring.colors[pl.piece[opt[0]]] for opt in options], dtype=np.int64)
    # Each option's cells on a board padded by one cell all round, then shifted one step.
    rows, cols = board.rows, board.cols
    occ = np.zeros((len(options), rows + 2, cols + 2), dtype=bool)
    for j in range(max((len(opt) for opt in options), default=0)):
        which = np.array([i for i, opt in enumerate(options) if len(opt) > j], dtype=np.int64)
        cells = pl.cells[[options[i][j] for i in which]]
        ii = np.repeat(which, cells.shape[1])
        flat = cells.ravel()
        live = flat >= 0
        occ[ii[live], flat[live] // cols + 1, flat[live] % cols + 1] = True

    def shifted(steps: tuple[tuple[int, int], ...]) -> npt.NDArray[np.bool_]:
        out = np.zeros_like(occ)
        for dr, dc in steps:
            out[:, 1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc] |= occ[:, 1:-1, 1:-1]
        return out[:, 1:-1, 1:-1] & ~occ[:, 1:-1, 1:-1]

    edge = shifted(_EDGE)
    diag = shifted(_DIAGONAL) & ~edge
    halo = _pack(edge.reshape(len(options), -1), bit, words)
    corner = _pack(diag.reshape(len(options), -1), bit, words)
    # perms[g, b]: the bit whose colour the image under symmetry g puts on bit b.
    others = [k for k in problem.group() if k != 0]
    perms = np.tile(np.arange(words * 64, dtype=np.int64), (len(others), 1))
    for gi, k in enumerate(others):
        back = invert_transform(k)
        for r in range(board.rows):
            for c in range(board.cols):
                perms[gi, bit[board.index(r, c)]] = bit[board.index(*board.map_cell(back, r, c))]
    rule = TOUCH_RULES[coloring.touch]
    if rule == TOUCH_RULES["connected"]:
        # A colour's only piece is connected alone and needs no corner touch: where a colour
        # may end with one piece, the search may not prune on missing touches.
        least = [0] * coloring.n_colors
        for k, low in zip(coloring.colors, problem.low, strict=True):
            least[k] += low
        if min(least) < 2:
            rule = bitboard.CONNECTED_ALONE
    return bitboard.Colors(
        coloring.n_colors, ocolor, halo, corner, coloring.interchangeable, rule, perms
    )


def placement_images(
    pl: Placements, k: int, piece_map: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.int64]:
    """``image[i]`` = index of the placement that symmetry ``k`` maps placement ``i`` to.

    With ``piece_map``, the image is a placement of piece ``piece_map[piece]`` instead of the
    same piece (a piece of the same shape, such as the same piece in another colour).
    """
    perm = pl.board.cell_permutation(k)
    # Key a placement by its piece and its sorted cells (padding -1 sorts first).
    own = np.sort(pl.cells, axis=1)
    moved = np.sort(np.where(pl.cells >= 0, perm[np.maximum(pl.cells, 0)], -1), axis=1)
    piece = pl.piece.astype(np.int64)[:, None]
    own_keys = np.hstack([piece, own]).astype(np.int64)
    moved_piece = piece if piece_map is None else piece_map[piece]
    moved_keys = np.hstack([moved_piece, moved]).astype(np.int64)
    index = {row.tobytes(): i for i, row in enumerate(own_keys)}
    image = np.empty(len(pl), dtype=np.int64)
    for i, row in enumerate(moved_keys):
        j = index.get(row.tobytes())
        if j is None:
            raise SolverError(f"symmetry {k} maps placement {i} off the placement list")
        image[i] = j
    return image


def _orbit_options(
    pl: Placements, k: int, piece_map: Sequence[int] | None = None
) -> list[tuple[int, ...]]:
    """The <k>-orbits of placements whose members are pairwise disjoint (Fix(k) options);
    ``piece_map``: the type each type becomes under ``k`` (its mirror twin), if not itself."""
    image = placement_images(pl, k, None if piece_map is None else np.array(piece_map)).tolist()
    seen: set[tuple[int, ...]] = set()
    options = []
    cells_of = [row[:n] for row, n in zip(pl.cells.tolist(), pl.size.tolist(), strict=True)]
    for i in range(len(pl)):
        orbit = [i]
        j = image[i]
        while j != i:
            orbit.append(j)
            j = image[j]
        key = tuple(sorted(orbit))
        if key in seen:
            continue
        seen.add(key)
        cells = [c for j in key for c in cells_of[j]]
        if len(set(cells)) == len(cells):  # small lists: a set beats np.unique
            options.append(key)
    return options


# -- counting plans ----------------------------------------------------------------------
@dataclass(frozen=True)
class Task:
    """One independent piece of a count: a subtree below ``forced`` options of a kernel.

    ``weight`` multiplies its count into the raw total; ``symmetry`` != 0 marks a Fix(g)
    task (its count goes to the Burnside sum instead); ``scan`` is the order the kernel
    scans the cells in (:func:`scan_orders`), which ``forced`` options are numbered by.
    """

    problem: TilingProblem
    symmetry: int
    forced: tuple[int, ...]
    weight: int = 1
    scan: int = 0

    @property
    def kernel(self) -> TilingKernel:
        """The compiled kernel this task runs on."""
        return compile_problem(self.problem, self.symmetry, self.scan)


@dataclass
class CountPlan:
    """The tasks whose weighted counts give a problem's raw count and count up to symmetry."""

    problem: TilingProblem
    group: tuple[int, ...]
    tasks: list[Task] = field(default_factory=list)
    broken_by: str | None = None  # name of the piece whose placements break the symmetry
    broken_type: int | None = None  # its type (plans without colour rules)

    def raw(self, results: Sequence[TaskCount]) -> int:
        """The raw count from one result per task (in task order), complete or not."""
        return sum(
            t.weight * r.count for t, r in zip(self.tasks, results, strict=True) if t.symmetry == 0
        )

    def combine(self, results: Sequence[TaskCount]) -> tuple[int, int]:
        """(raw, up to symmetry) from one complete result per task, in task order."""
        raw = self.raw(results)
        if self.problem.coloring is not None:
            # Orbits = (sum over raw solutions of stabilizer sizes) / group order, with the
            # colour permutations in the group when colours are interchangeable.
            order = len(self.group) * self.problem.color_factor
            total = sum(t.weight * r.stab for t, r in zip(self.tasks, results, strict=True))
            if len(self.group) == 1:
                total = sum(t.weight * r.count for t, r in zip(self.tasks, results, strict=True))
            if total % order:
                raise SolverError(f"stabilizer sum {total} is not divisible by {order}")
            return raw, total // order
        fixed = sum(r.count for t, r in zip(self.tasks, results, strict=True) if t.symmetry)
        total = raw + fixed
        if total % len(self.group):
            raise SolverError(
                f"Burnside sum {total} is not divisible by the group order {len(self.group)}"
            )
        return raw, total // len(self.group)


_Images = tuple[list[tuple[int, ...] | None], list[npt.NDArray[np.int64]]]


@lru_cache(maxsize=8)
def _group_images(problem: TilingProblem, group: tuple[int, ...]) -> _Images:
    """Each symmetry's piece map and placement images (:func:`placement_images`), made once
    for the plans that fix one piece or another (:mod:`polytile.solvers.scan`)."""
    pl = problem_placements(problem)
    maps = [problem.piece_map(k) for k in group]
    images = [placement_images(pl, k, None if m is None else np.array(m))
              for k, m in zip(group, maps, strict=True)]  # fmt: skip
    return maps, images


def _break_symmetry(
    problem: TilingProblem, group: tuple[int, ...], allowed: Sequence[int] | None = None
) -> tuple[int, list[tuple[int, int]]] | None:
    """The unique piece type (among ``allowed``) with fewest orbit representatives, and its
    (option, orbit size) list."""
    if len(group) == 1:
        return None
    kernel = compile_problem(problem)
    pl = kernel.placements
    maps, images = _group_images(problem, group)
    best: tuple[int, list[tuple[int, int]]] | None = None
    for t, count in enumerate(problem.counts):
        # a piece in every tiling exactly once: one left over, or in a choice, may be absent
        in_group = any(t in g.types for g in problem.groups)
        if count != 1 or problem.low[t] != 1 or in_group or (allowed is not None
                                                             and t not in allowed):  # fmt: skip
            continue
        # the symmetries that keep the piece itself (a subgroup): not a reflection that
        # turns it into its mirror twin
        keep = [img for img, m in zip(images, maps, strict=True) if m is None or m[t] == t]
        reps = []
        for i in np.flatnonzero(pl.piece == t):
            orbit = {int(img[i]) for img in keep}
            if i == min(orbit):
                reps.append((kernel.option_of_placement[int(i)], len(orbit)))
        if best is None or len(reps) < len(best[1]):
            best = (t, reps)
    return best


def plan_count(problem: TilingProblem, symmetry: bool = True, breaker: int | None = None,
               ) -> CountPlan:  # fmt: skip
    """The tasks of a count, before splitting for parallel work.

    Parameters
    ----------
    problem
        The tiling problem.
    symmetry
        Use symmetry breaking and Burnside's lemma (``False``: one raw search, and the count
        up to symmetry is then not computed: it equals the raw count only for |G| = 1).
    breaker
        The piece type whose placements break the symmetry (one of a single copy, in every
        tiling); by default the one with fewest orbit representatives. Plans without
        colour rules only.
    """
    group = problem.group() if symmetry else (0,)
    plan = CountPlan(problem, group)
    coloring = problem.coloring
    if coloring is not None:
        # Interchangeable colours: the kernel numbers colours by first appearance (C! fewer
        # solutions to find). Board symmetry: a unique piece of colour 0 goes to orbit
        # representatives first, and the other colours are numbered after it ((C-1)!).
        # The kernel sums stabilizer sizes, from which the plan gets the orbit count.
        n = coloring.n_colors
        full = math.factorial(n) if coloring.interchangeable else 1
        rest = math.factorial(n - 1) if coloring.interchangeable else 1
        allowed = [
            t for t, k in enumerate(coloring.colors) if k == 0 or not coloring.interchangeable
        ]
        broken = _break_symmetry(problem, group, allowed)
        if broken is None:
            plan.tasks.append(Task(problem, 0, (), full))
        else:
            t, reps = broken
            plan.broken_by = f"{problem.types[t].name or t} of colour {coloring.colors[t]}"
            plan.tasks.extend(Task(problem, 0, (opt,), size * rest) for opt, size in reps)
        return plan
    broken = _break_symmetry(problem, group, None if breaker is None else [breaker])
    if broken is None:
        plan.tasks.append(Task(problem, 0, ()))
    else:
        t, reps = broken
        plan.broken_type = t
        plan.broken_by = problem.types[t].name or f"piece {t}"
        plan.tasks.extend(Task(problem, 0, (opt,), weight) for opt, weight in reps)
    plan.tasks.extend(Task(problem, k, ()) for k in group if k != 0)
    return plan


def split_task(task: Task, depth: int) -> list[Task]:
    """Split a task into the subtrees at ``depth`` more levels (a partition of its search)."""
    from polytile.solvers import bitboard

    kernel = task.kernel
    state = kernel.state(task.forced, record=True, buffer=1 << 16)
    target = len(task.forced) + depth
    leaves: list[tuple[int, ...]] = []
    while kernel.run(state, 1 << 40, target) == bitboard.PAUSED:
        leaves.extend(state.take())
    leaves.extend(state.take())
    # A tiling completed above the split depth is recorded too: as a task, its search finds
    # exactly that tiling, so the leaves still partition the whole subtree.
    return [dataclasses.replace(task, forced=leaf) for leaf in leaves]


@dataclass(frozen=True, slots=True)
class TaskCount:
    """What counting one task found: solutions, the sum of their stabilizer sizes (coloured
    problems), nodes, and whether the subtree was finished."""

    count: int
    stab: int
    nodes: int
    complete: bool


def count_task(
    task: Task,
    should_stop: Callable[[], bool] | None = None,
    on_chunk: Callable[[TaskCount], None] | None = None,
) -> TaskCount:
    """Count the tilings below a task.

    ``should_stop`` is polled between kernel chunks; when it answers True the count so far is
    returned with ``complete`` False. ``on_chunk``, if given, hears the count so far after
    each chunk (about ten a second; a chunked search even without ``should_stop``).
    """
    from polytile.solvers import bitboard

    kernel = task.kernel
    state = kernel.state(task.forced)
    if should_stop is None and on_chunk is None:
        while kernel.run(state) == bitboard.PAUSED:
            pass
        return TaskCount(state.solutions, state.stabilizers, state.nodes, True)
    # Nodes cost from ~0.1 to several microseconds (colour rules, a busy machine): size the
    # chunks by the clock, about a tenth of a second each, so a stop is heard promptly.
    budget = 20_000
    while True:
        began = time.perf_counter()
        if kernel.run(state, budget) != bitboard.PAUSED:
            return TaskCount(state.solutions, state.stabilizers, state.nodes, True)
        if on_chunk is not None:
            on_chunk(TaskCount(state.solutions, state.stabilizers, state.nodes, False))
        if should_stop is not None and should_stop():
            return TaskCount(state.solutions, state.stabilizers, state.nodes, False)
        took = max(time.perf_counter() - began, 1e-4)
        budget = int(min(max(budget * min(0.1 / took, 4.0), 1_000), CHUNK))


def solutions(
    problem: TilingProblem,
    forced: Sequence[int] = (),
    should_stop: Callable[[], bool] | None = None,
    seed: int | None = None,
) -> Iterator[list[int]]:
    """Yield every tiling (placement indices into ``compile_problem(problem).placements``).

    Parameters
    ----------
    problem
        The tiling problem.
    forced
        Options placed first (the subtree below them).
    should_stop
        Polled between kernel chunks; True ends the iteration early.
    seed
        Shuffle the order options are tried in (the same seed, the same order): a different
        first solution, and the same set of solutions in another order.

    Notes
    -----
    Memory stays constant: the kernel pauses whenever its buffer of solutions fills. The
    first call pauses at the first solution, so the first answer comes at once.
    """
    from polytile.solvers import bitboard

    kernel = compile_problem(problem)
    if seed is not None:
        kernel = kernel.shuffled(seed)
    state = kernel.state(forced, record=True, buffer=256)
    batch = 1
    while True:
        state.set_batch(batch)
        status = kernel.run(state)
        batch = min(2 * batch, 256)
        for path in state.take():
            yield kernel.decode(path)
        if status == bitboard.DONE:
            return
        if should_stop is not None and should_stop():
            return

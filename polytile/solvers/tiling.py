"""Counting and listing polyomino tilings with the bitboard kernel, symmetry handled soundly.

A tiling problem is a board, a list of distinct piece *types* and how many copies of each
there are (copies are indistinguishable). Every open cell must be covered and, because the
areas must match, every copy used.

Symmetry
--------
Let G be the board's symmetry group (:meth:`Board.symmetries`, rotations only for one-sided
pieces). G acts on tilings.

* Raw count. When some type has exactly one copy, its placements fall into G-orbits; the
  tilings with that piece at ``g(p)`` are the images of those with it at ``p``, so
  ``raw = sum over orbit representatives p of |orbit(p)| * count(piece at p)``.
  The search runs only below the representatives: about |G| times less work.
* Count up to symmetry, by Burnside's lemma: ``(raw + sum over g != id of Fix(g)) / |G|``,
  where Fix(g) counts the g-invariant tilings. A g-invariant tiling is a disjoint union of
  <g>-orbits of placements, so Fix(g) is the count of a derived problem whose options are
  those orbits (an orbit of k placements uses k copies). Fix(g) searches are small.

Both are exact for every board, holes and repeated pieces included; tests check them against
canonical-form deduplication.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt

from polytile.board import Board, Placements, placements
from polytile.errors import BoardError, SolverError
from polytile.geometry import Polyomino
from polytile.solvers import bitboard

__all__ = [
    "CountPlan",
    "Task",
    "TilingKernel",
    "TilingProblem",
    "count_task",
    "plan_count",
    "solutions",
]

#: Nodes per kernel call between checks of time limits, progress and Ctrl-C.
CHUNK = 2_000_000


@dataclass(frozen=True)
class TilingProblem:
    """A tiling problem: cover every open cell of ``board`` with exactly these pieces.

    Parameters
    ----------
    board
        The board (blocked cells stay empty).
    types
        Distinct piece shapes.
    counts
        Copies of each type (default one each).
    one_sided
        Pieces may be rotated but not turned over.

    Raises
    ------
    BoardError
        If the pieces' total area differs from the number of open cells.
    """

    board: Board
    types: tuple[Polyomino, ...]
    counts: tuple[int, ...] = ()
    one_sided: bool = False

    def __post_init__(self) -> None:
        types = tuple(self.types)
        counts = tuple(self.counts) or (1,) * len(types)
        if len(counts) != len(types):
            raise ValueError("counts must give one number per piece type")
        if any(c < 1 for c in counts):
            raise ValueError("every piece type needs at least one copy")
        if len(
            {t.canonical_one_sided() if self.one_sided else t.canonical() for t in types}
        ) != len(types):
            raise ValueError("piece types must be distinct shapes; give copies in counts")
        object.__setattr__(self, "types", types)
        object.__setattr__(self, "counts", counts)
        area = sum(t.size * c for t, c in zip(types, counts, strict=True))
        if area != self.board.n_open:
            raise BoardError(
                f"the pieces cover {area} cells but the board has {self.board.n_open} open "
                f"cells: no tiling can exist"
            )

    @property
    def n_pieces(self) -> int:
        """Total number of piece copies."""
        return sum(self.counts)

    def group(self) -> tuple[int, ...]:
        """The symmetries acting on this problem's tilings (a subgroup of the board's)."""
        sym = self.board.symmetries()
        return tuple(k for k in sym if k < 4) if self.one_sided else sym


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
    prune: bool = False

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
        return bitboard.SearchState(
            self.masks,
            self.ptype,
            self.use,
            self.start_cover,
            self.type_count,
            self.problem.n_pieces,
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
        return bitboard.run(state, self.arrays, self.width, self.prune, budget, split_depth, 12)

    def decode(self, path: Sequence[int]) -> list[int]:
        """Placement indices of a kernel path (option indices)."""
        return [pl for opt in path for pl in self.options[opt]]


def _scan_layout(board: Board) -> tuple[npt.NDArray[np.int64], int, int]:
    """Map cell index -> bit index so that the scan runs along the board's short side."""
    r, c = np.divmod(np.arange(board.size), board.cols)
    if board.cols > board.rows:
        return (c * board.rows + r).astype(np.int64), board.rows, board.cols  # column by column
    return (r * board.cols + c).astype(np.int64), board.cols, board.rows


def _bits(indices: npt.NDArray[np.int64], words: int) -> npt.NDArray[np.uint64]:
    out = np.zeros(words, dtype=np.uint64)
    for i in indices:
        out[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return out


@lru_cache(maxsize=32)
def compile_problem(problem: TilingProblem, symmetry: int = 0) -> TilingKernel:
    """Compile ``problem`` for the kernel; with ``symmetry`` k != 0, its Fix(k) problem.

    Cached per process, so workers compile each problem once.
    """
    pl = placements(problem.board, problem.types, problem.one_sided)
    n_cells = problem.board.size
    words = (n_cells + 63) // 64
    bit, width, height = _scan_layout(problem.board)
    options: list[tuple[int, ...]] = (
        [(i,) for i in range(len(pl))] if symmetry == 0 else _orbit_options(pl, symmetry)
    )
    masks = np.zeros((len(options), words), dtype=np.uint64)
    anchor = np.empty(len(options), dtype=np.int64)
    ptype = np.empty(len(options), dtype=np.int64)
    use = np.empty(len(options), dtype=np.int64)
    for i, opt in enumerate(options):
        cells = np.concatenate([pl.cells_of(j) for j in opt])
        b = bit[cells]
        masks[i] = _bits(b, words)
        anchor[i] = b.min()
        ptype[i] = pl.piece[opt[0]]
        use[i] = len(opt)
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
    arrays = (masks, ptype, use, anchor_ptr, anchor_idx, sizes, valid, not_first, not_last)
    del height
    return TilingKernel(
        problem=problem,
        placements=pl,
        options=options,
        arrays=arrays,
        width=width,
        start_cover=~valid,
        type_count=np.array(problem.counts, dtype=np.int64),
    )


def _placement_images(pl: Placements, k: int) -> npt.NDArray[np.int64]:
    """``image[i]`` = index of the placement that symmetry ``k`` maps placement ``i`` to."""
    perm = pl.board.cell_permutation(k)
    index = {(int(pl.piece[i]), frozenset(pl.cells_of(i).tolist())): i for i in range(len(pl))}
    image = np.empty(len(pl), dtype=np.int64)
    for i in range(len(pl)):
        key = (int(pl.piece[i]), frozenset(perm[pl.cells_of(i)].tolist()))
        if key not in index:
            raise SolverError(f"symmetry {k} maps placement {i} off the placement list")
        image[i] = index[key]
    return image


def _orbit_options(pl: Placements, k: int) -> list[tuple[int, ...]]:
    """The <k>-orbits of placements whose members are pairwise disjoint (Fix(k) options)."""
    image = _placement_images(pl, k)
    seen: set[tuple[int, ...]] = set()
    options = []
    for i in range(len(pl)):
        orbit = [i]
        j = int(image[i])
        while j != i:
            orbit.append(j)
            j = int(image[j])
        key = tuple(sorted(orbit))
        if key in seen:
            continue
        seen.add(key)
        cells = np.concatenate([pl.cells_of(j) for j in key])
        if len(np.unique(cells)) == len(cells):
            options.append(key)
    return options


# -- counting plans ----------------------------------------------------------------------
@dataclass(frozen=True)
class Task:
    """One independent piece of a count: a subtree below ``forced`` options of a kernel.

    ``weight`` multiplies its count into the raw total; ``symmetry`` != 0 marks a Fix(g)
    task (its count goes to the Burnside sum instead).
    """

    problem: TilingProblem
    symmetry: int
    forced: tuple[int, ...]
    weight: int = 1


@dataclass
class CountPlan:
    """The tasks whose weighted counts give a problem's raw count and count up to symmetry."""

    problem: TilingProblem
    group: tuple[int, ...]
    tasks: list[Task] = field(default_factory=list)
    broken_by: str | None = None  # name of the piece whose placements break the symmetry

    def combine(self, counts: Sequence[int]) -> tuple[int, int]:
        """(raw, up to symmetry) from one count per task, in task order."""
        raw = sum(t.weight * c for t, c in zip(self.tasks, counts, strict=True) if t.symmetry == 0)
        fixed = sum(c for t, c in zip(self.tasks, counts, strict=True) if t.symmetry != 0)
        total = raw + fixed
        if total % len(self.group):
            raise SolverError(
                f"Burnside sum {total} is not divisible by the group order {len(self.group)}"
            )
        return raw, total // len(self.group)


def _break_symmetry(
    problem: TilingProblem, group: tuple[int, ...]
) -> tuple[int, list[tuple[int, int]]] | None:
    """The unique piece type with fewest orbit representatives, and its (option, weight) list."""
    if len(group) == 1:
        return None
    kernel = compile_problem(problem)
    pl = kernel.placements
    images = [_placement_images(pl, k) for k in group]
    best: tuple[int, list[tuple[int, int]]] | None = None
    for t, count in enumerate(problem.counts):
        if count != 1:
            continue
        reps = []
        for i in np.flatnonzero(pl.piece == t):
            orbit = {int(img[i]) for img in images}
            if i == min(orbit):
                reps.append((kernel.option_of_placement[int(i)], len(orbit)))
        if best is None or len(reps) < len(best[1]):
            best = (t, reps)
    return best


def plan_count(problem: TilingProblem, symmetry: bool = True) -> CountPlan:
    """The tasks of a count, before splitting for parallel work.

    Parameters
    ----------
    problem
        The tiling problem.
    symmetry
        Use symmetry breaking and Burnside's lemma (``False``: one raw search, and the count
        up to symmetry is then not computed: it equals the raw count only for |G| = 1).
    """
    group = problem.group() if symmetry else (0,)
    plan = CountPlan(problem, group)
    broken = _break_symmetry(problem, group)
    if broken is None:
        plan.tasks.append(Task(problem, 0, ()))
    else:
        t, reps = broken
        plan.broken_by = problem.types[t].name or f"piece {t}"
        plan.tasks.extend(Task(problem, 0, (opt,), weight) for opt, weight in reps)
    plan.tasks.extend(Task(problem, k, ()) for k in group if k != 0)
    return plan


def split_task(task: Task, depth: int) -> list[Task]:
    """Split a task into the subtrees at ``depth`` more levels (a partition of its search)."""
    kernel = compile_problem(task.problem, task.symmetry)
    state = kernel.state(task.forced, record=True, buffer=1 << 16)
    target = len(task.forced) + depth
    leaves: list[tuple[int, ...]] = []
    while kernel.run(state, 1 << 40, target) == bitboard.PAUSED:
        leaves.extend(state.take())
    leaves.extend(state.take())
    # A tiling completed above the split depth is recorded too: as a task, its search finds
    # exactly that tiling, so the leaves still partition the whole subtree.
    return [Task(task.problem, task.symmetry, leaf, task.weight) for leaf in leaves]


def count_task(task: Task, should_stop: Callable[[], bool] | None = None) -> tuple[int, int, bool]:
    """Count the tilings below a task: (count, nodes, complete).

    ``should_stop`` is polled between kernel chunks; when it answers True the count so far is
    returned with ``complete`` False.
    """
    kernel = compile_problem(task.problem, task.symmetry)
    state = kernel.state(task.forced)
    while kernel.run(state) == bitboard.PAUSED:
        if should_stop is not None and should_stop():
            return state.solutions, state.nodes, False
    return state.solutions, state.nodes, True


def solutions(
    problem: TilingProblem,
    forced: Sequence[int] = (),
    should_stop: Callable[[], bool] | None = None,
) -> Iterator[list[int]]:
    """Yield every tiling (placement indices into ``compile_problem(problem).placements``).

    Memory stays constant: the kernel pauses whenever its buffer of solutions fills.
    """
    kernel = compile_problem(problem)
    state = kernel.state(forced, record=True, buffer=256)
    while True:
        status = kernel.run(state)
        for path in state.take():
            yield kernel.decode(path)
        if status == bitboard.DONE:
            return
        if should_stop is not None and should_stop():
            return

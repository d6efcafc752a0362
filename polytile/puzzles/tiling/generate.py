"""The ``packing`` kind: seeded candidates, made unique by the exact-cover engine, then rated.

Candidate ``index`` of a run with ``(params, seed)`` is reproducible
(:func:`packing_candidate`): pieces from a named set and a region they fill. The region is a
rectangle (a random tiling of it is found first) or a random connected shape grown piece by
piece, with a chosen number of enclosed holes (0 for none). A candidate is kept when its
solution is unique, after at most ``max_given`` repairs; otherwise it is dropped with a
reason. The kind as the puzzle store sees it is :data:`polytile.puzzles.tiling.kinds.PACKING`.

Regions
-------
A random shape is grown piece by piece inside a box a quarter larger than the pieces' area
(:func:`_box`, sides in a ratio up to 1.6), each piece touching those before and preferring
snug spots, so the region is compact. Its outline must give nothing away
(:func:`region_quality`): it fills at least :data:`MIN_FILL` of its bounding box, and over
every open cell at least two different pieces fit (an arm that only one piece can fill, or a
cell only one piece reaches, tells the solver part of the answer); a candidate that fails is
dropped with the reason. The figures are kept with the rating (``fill``, ``fewest_pieces``,
``single_cells``).

Uniqueness
----------
"Unique" means one solution up to the puzzle's own symmetries: the transformations of the
board that map its blocked cells and its given pieces onto themselves. (An empty rectangle
always has its mirror images as further raw solutions; nobody counts those as different.)
The bitboard kernel enumerates raw solutions and stops as soon as two inequivalent ones are
seen. A candidate with several solutions is repaired by *giving* one piece of the intended
solution (printed in place on the puzzle), chosen to kill as many of the other solutions
seen as possible and at least the first one; then it is checked again.

Difficulty
----------
A person solving a packing puzzle looks for the most constrained spot (a cell few pieces can
reach, a piece that fits in few places), tries a piece there and backs up on a contradiction.
Knuth's Algorithm X with the MRV rule does exactly that, so the rating is the size of its
search tree, normalised per piece placed and on a log scale::

    difficulty = log2(nodes / pieces_to_place)

where ``nodes`` is the number of search-tree nodes (the root not counted) needed to find
the solution *and* prove there is no other. A puzzle solved by forced moves alone (at
every step some cell or piece has one possible placement) rates 0; each doubling of the
tree per piece adds 1. The top-level branching (the fewest options of any cell or piece at
the start) is recorded too.

Examples
--------
>>> from polytile.puzzles.tiling.generate import PackingParams, packing_candidate
>>> c = packing_candidate(PackingParams(min_pieces=5, max_pieces=5), seed=1, index=0)
>>> c.accepted, c.puzzle.problem.n_pieces + len(c.puzzle.given)
(True, 5)
>>> packing_candidate(PackingParams(min_pieces=5, max_pieces=5), 1, 0).key == c.key
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from polytile.board import Board, placements
from polytile.errors import PolytileError, ShapeError, UnknownNameError
from polytile.formats import PlacedPiece
from polytile.geometry import Cell, Polyomino, piece_set, sets_on
from polytile.puzzles.tiling.keys import puzzle_key
from polytile.puzzles.tiling.puzzles import TilingPuzzle, check_solution
from polytile.solvers import bitboard
from polytile.solvers.tiling import TilingProblem, compile_problem
from polytile.store.candidates import Candidate
from polytile.store.candidates import candidate_rng as _rng
from polytile.text import counted

__all__ = [
    "PackingParams",
    "Uniqueness",
    "own_pieces",
    "packing_candidate",
    "puzzle_key",
    "rate",
    "region_quality",
    "unique_solution",
]


@dataclass(frozen=True)
class PackingParams:
    """Parameters of the ``packing`` kind.

    Parameters
    ----------
    pieces
        Named piece set to draw from (``polytile pieces`` lists them), or ``"own"`` with
        ``own_pieces``.
    own_pieces
        A designer's own pieces (``generate --pieces FILE.json``): ``(name, shape, copies)``
        with the shape's rows joined by ``/`` (``"##/#."``), so a store holds the pieces it
        was made from (its job is known by them, not by the file's path; ``pieces`` is then
        ``"own"``).
    min_pieces, max_pieces
        How many pieces a puzzle has, given ones included (drawn uniformly).
    region
        ``"shape"`` (a random connected region) or ``"rectangle"``.
    holes
        Enclosed holes of a shape region (0: none allowed).
    max_given
        Most pieces given in place to make the solution unique; beyond, the candidate is
        dropped.
    node_limit
        Search nodes allowed for one uniqueness check; a candidate needing more is dropped.
    """

    pieces: str = "pentominoes"
    min_pieces: int = 8
    max_pieces: int = 12
    region: str = "shape"
    holes: int = 0
    max_given: int = 2
    node_limit: int = 20_000_000
    own_pieces: tuple[tuple[str, str, int], ...] = ()

    def __post_init__(self) -> None:
        # read back from a store as JSON lists
        object.__setattr__(self, "own_pieces", tuple(tuple(p) for p in self.own_pieces))
        if not self.own_pieces and self.pieces.lower() not in sets_on("square"):
            raise UnknownNameError("square piece set (the generator makes square-grid "
                                   "puzzles)", self.pieces, sets_on("square"))
        n_set = len(self.pool())
        if not 2 <= self.min_pieces <= self.max_pieces <= n_set:
            whose = ("the pieces of your file, copies included" if self.own_pieces
                     else f"the size of set {self.pieces!r}")  # fmt: skip
            raise PolytileError(
                f"piece counts (--size) must satisfy 2 <= min ({self.min_pieces}) <= max "
                f"({self.max_pieces}) <= {n_set}, {whose}"
            )
        if self.region not in ("shape", "rectangle"):
            raise UnknownNameError("region", self.region, ("rectangle", "shape"))
        if not 0 <= self.holes <= 4:
            raise PolytileError(f"holes must be 0 to 4, got {self.holes}")
        if self.holes and self.region != "shape":
            raise PolytileError("holes need region 'shape'")
        if not 0 <= self.max_given <= self.min_pieces - 1:
            raise PolytileError(f"max-given must be 0 to {self.min_pieces - 1}")
        if self.node_limit < 1000:
            raise PolytileError("node-limit must be at least 1000")

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain JSON values (``own_pieces`` only when there are some)."""
        out = dataclasses.asdict(self)
        if not self.own_pieces:
            del out["own_pieces"]  # the stores of named sets read as before
        return out

    def pool(self) -> tuple[Polyomino, ...]:
        """The pieces a candidate draws from: the named set, or the own pieces with their
        copies."""
        if not self.own_pieces:
            return piece_set(self.pieces)
        try:
            return tuple(Polyomino.from_text(shape.split("/"), name)
                         for name, shape, copies in self.own_pieces
                         for _ in range(int(copies)))  # fmt: skip
        except (ShapeError, ValueError, TypeError) as exc:
            raise PolytileError(f"own pieces: {exc}") from None


def own_pieces(found: Sequence[tuple[Polyomino, int | None]], most: int
               ) -> tuple[tuple[str, str, int], ...]:  # fmt: skip
    """The ``own_pieces`` of :class:`PackingParams` from a pieces file's entries
    (:func:`polytile.puzzles.tiling.puzzle_file.parse_pieces`): a piece with no most copies
    ("*") is offered ``most`` times, the most a puzzle has."""
    return tuple((p.name, p.to_text().replace("\n", "/"), most if copies is None else copies)
                 for p, copies in found)  # fmt: skip


# -- regions -----------------------------------------------------------------------------
def _enclosed(open_cells: set[Cell], rows: int, cols: int) -> list[frozenset[Cell]]:
    """Components of the cells outside ``open_cells`` that do not reach the border."""
    from polytile.regions import components

    outside = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in open_cells]
    return [
        comp
        for comp in components(outside)
        if not any(r in (0, rows - 1) or c in (0, cols - 1) for r, c in comp)
    ]


#: A grown region's pieces are put down inside a box of about this many times their area
#: (with the holes), so that the region comes out compact rather than stringy.
BOX_SLACK = 1.25
#: The least share of its bounding box a grown region may fill.
MIN_FILL = 0.6


def _box(shapes: Sequence[Polyomino], holes: int, rng: np.random.Generator) -> tuple[int, int]:
    """The rows and columns of the box a region is grown in: its area over the pieces'
    area is :data:`BOX_SLACK`, its sides in a random ratio from 1 to 1.6, and every piece
    fits in it."""
    area = sum(s.size for s in shapes) + holes
    ratio = float(rng.uniform(1.0, 1.6))
    rows = max(2, math.ceil(math.sqrt(area * BOX_SLACK / ratio)))
    cols = math.ceil(area * BOX_SLACK / rows)
    short = max(min(s.height, s.width) for s in shapes)
    long = max(max(s.height, s.width) for s in shapes)
    least = 5 if holes else 1  # room for the holes around the centre, two cells apart
    rows, cols = max(rows, short, least), max(cols, long, least)
    return (rows, cols) if rng.random() < 0.5 else (cols, rows)


def _grow(
    shapes: Sequence[Polyomino], holes: int, rng: np.random.Generator
) -> list[tuple[int, tuple[Cell, ...]]] | None:
    """Place the shapes one by one inside a box (:func:`_box`), each touching the ones before
    along an edge, preferring snug spots; returns (shape index, cells) per piece, or None
    if it got stuck."""
    rows, cols = _box(shapes, holes, rng)
    canvas = Board(rows, cols)
    occupied = np.zeros(rows * cols, dtype=bool)
    forbidden = np.zeros(rows * cols, dtype=bool)
    mid_r, mid_c = (rows - 1) // 2, (cols - 1) // 2
    for h in range(holes):  # one-cell holes near the centre, two cells apart
        forbidden[(mid_r - 1 + 2 * (h // 2)) * cols + mid_c - 1 + 2 * (h % 2)] = True
    grid = np.arange(rows * cols).reshape(rows, cols)
    nbr = [
        np.concatenate([grid[1:], np.full((1, cols), -1)]).ravel(),
        np.concatenate([np.full((1, cols), -1), grid[:-1]]).ravel(),
        np.concatenate([grid[:, 1:], np.full((rows, 1), -1)], axis=1).ravel(),
        np.concatenate([np.full((rows, 1), -1), grid[:, :-1]], axis=1).ravel(),
    ]
    out: list[tuple[int, tuple[Cell, ...]]] = []
    order = rng.permutation(len(shapes))
    for step, si in enumerate(order):
        pl = placements(canvas, [shapes[si]])
        cells = pl.cells[:, : shapes[si].size].astype(np.int64)
        ok = ~(occupied[cells] | forbidden[cells]).any(axis=1)
        # Contact: edges shared with pieces already down (and, doubled, with the holes, so
        # that they get surrounded). Snug spots are preferred steeply (contact cubed).
        near = np.zeros(rows * cols, dtype=np.int64)
        near_hole = np.zeros(rows * cols, dtype=np.int64)
        for nb in nbr:
            valid = nb >= 0
            near[valid] += occupied[nb[valid]]
            near_hole[valid] += forbidden[nb[valid]]
        touching = near[cells].sum(axis=1)
        contact = touching + 2 * near_hole[cells].sum(axis=1)
        if step == 0:
            live = ok & (contact > 0) if holes else ok
            weight = live.astype(float)
        else:
            weight = np.where(ok & (touching > 0), contact.astype(float) ** 3, 0.0)
        if weight.sum() <= 0:
            return None
        for _ in range(16):  # avoid enclosing empty cells that are not a planned hole
            pick = int(rng.choice(len(weight), p=weight / weight.sum()))
            if not _encloses(occupied | forbidden, cells[pick], rows, cols) or (
                weight.sum() == weight[pick]
            ):
                break
            weight[pick] = 0.0
        occupied[cells[pick]] = True
        out.append((int(si), tuple(canvas.cell(int(i)) for i in cells[pick])))
    return out


def region_quality(board: Board, shapes: Sequence[Polyomino]) -> dict[str, Any]:
    """How much a region's outline gives away, before any search.

    Returns
    -------
    dict
        ``fill``: its open cells over its bounding box's cells (1 for a rectangle);
        ``fewest_pieces``: the fewest different pieces that fit over any one open cell (1:
        the outline alone tells which piece goes there, as an arm only one piece fills
        does); ``forced_cell`` and ``forced_piece``: such a cell and its piece, or None;
        ``single_cells``: the open cells that only one placement of any piece covers (the
        outline forces that placement).

    Examples
    --------
    >>> from polytile.geometry import piece
    >>> q = region_quality(Board.from_text(["...", "..#"]), [piece("I3"), piece("I2")])
    >>> q["fill"], q["fewest_pieces"], q["forced_cell"], q["forced_piece"]
    (0.833, 1, (1, 0), 'I2')
    """
    open_cells = np.flatnonzero(board.open_mask.ravel())
    where = [(r, c) for r, c in (board.cell(int(i)) for i in open_cells)]
    rs = [r for r, _ in where]
    cs = [c for _, c in where]
    box = (max(rs) - min(rs) + 1) * (max(cs) - min(cs) + 1) if where else 1
    kinds: dict[Polyomino, Polyomino] = {}
    for shape in shapes:
        kinds.setdefault(shape.canonical(), shape)
    types = list(kinds.values())
    pl = placements(board, types)
    covered = np.zeros((len(types), board.size), dtype=bool)
    per_cell = np.zeros(board.size, dtype=np.int64)
    for row, t in zip(pl.cells, pl.piece, strict=True):
        cells = row[row >= 0]
        covered[int(t), cells] = True
        per_cell[cells] += 1
    fits = covered.sum(axis=0)[open_cells]
    fewest = int(fits.min()) if fits.size else 0
    forced_cell = forced_piece = None
    if fewest == 1:
        i = int(open_cells[int(np.argmin(fits))])
        forced_cell = board.cell(i)
        forced_piece = types[int(np.flatnonzero(covered[:, i])[0])].name
    return {"fill": round(len(where) / box, 3), "fewest_pieces": fewest,
            "forced_cell": forced_cell, "forced_piece": forced_piece,
            "single_cells": int((per_cell[open_cells] == 1).sum())}  # fmt: skip


def _encloses(full: np.ndarray, piece: np.ndarray, rows: int, cols: int) -> bool:
    """Whether putting ``piece`` down leaves empty cells of the box that cannot reach its
    edge through empty cells (a pocket that would become a hole)."""
    empty = ~full.reshape(rows, cols)
    empty.ravel()[piece] = False
    reach = np.zeros_like(empty)
    reach[0, :], reach[-1, :] = empty[0, :], empty[-1, :]
    reach[:, 0] |= empty[:, 0]
    reach[:, -1] |= empty[:, -1]
    while True:  # flood from the edge, a step in each direction at a time
        grown = reach.copy()
        grown[1:] |= reach[:-1]
        grown[:-1] |= reach[1:]
        grown[:, 1:] |= reach[:, :-1]
        grown[:, :-1] |= reach[:, 1:]
        grown &= empty
        if (grown == reach).all():
            return bool((empty & ~reach).any())
        reach = grown


#: Regions grown for one candidate before it is dropped.
GROW_TRIES = 12


def _shape_region(
    chosen: Sequence[Polyomino], holes: int, rng: np.random.Generator
) -> tuple[Board, list[tuple[int, tuple[Cell, ...]]]] | str:
    """A region grown from ``chosen`` with ``holes`` enclosed holes whose outline gives
    nothing away (:func:`region_quality`), and the pieces' layout on it; after
    :data:`GROW_TRIES` regions that fail, why the last one failed."""
    reason = ""
    for _ in range(GROW_TRIES):
        grown = _grow(chosen, holes, rng)
        if grown is None:
            reason = "the region could not be grown"
            continue
        grown = _crop(grown)
        cells = {c for _, cs in grown for c in cs}
        rows = 1 + max(r for r, _ in cells)
        cols = 1 + max(c for _, c in cells)
        enclosed = _enclosed(cells, rows, cols)
        if len(enclosed) != holes:
            reason = f"the region has {counted(len(enclosed), 'hole')}, not {holes}"
            continue
        blocked = frozenset((r, c) for r in range(rows) for c in range(cols)) - cells
        board = Board(rows, cols, blocked)
        quality = region_quality(board, chosen)
        if quality["fill"] < MIN_FILL:
            reason = (f"the region is not compact: it fills {quality['fill']:.0%} of its "
                      f"bounding box, under {MIN_FILL:.0%}")  # fmt: skip
            continue
        # one shape repeated (T-tetromino regions) tells nothing by fitting alone
        if quality["fewest_pieces"] < min(2, len({s.canonical() for s in chosen})):
            r, c = quality["forced_cell"]
            reason = (f"the outline gives a piece away: only {quality['forced_piece']} fits "
                      f"over cell ({r}, {c})")  # fmt: skip
            continue
        return board, grown
    return f"{reason} (the last of {GROW_TRIES} regions grown)"


def _crop(layout: list[tuple[int, tuple[Cell, ...]]]) -> list[tuple[int, tuple[Cell, ...]]]:
    cells = [c for _, cs in layout for c in cs]
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return [(i, tuple((r - r0, c - c0) for r, c in cs)) for i, cs in layout]


# -- uniqueness --------------------------------------------------------------------------
def _puzzle_group(puzzle: TilingPuzzle) -> tuple[int, ...]:
    """Board symmetries that also map the given pieces onto themselves."""
    layout = puzzle.layout
    given = {(g.piece, frozenset(g.cells)) for g in puzzle.given}
    return tuple(
        k
        for k in layout.symmetries()
        if {(n, frozenset(layout.map_cell(k, *c) for c in cs)) for n, cs in given} == given
    )


def _solution_key(
    board: Board, group: Sequence[int], placed: Sequence[tuple[str, Sequence[Cell]]]
) -> tuple[Any, ...]:
    """A solution's representative under ``group``: equal keys, equivalent solutions."""
    return min(
        tuple(
            sorted((name, tuple(sorted(board.map_cell(k, *c) for c in cs))) for name, cs in placed)
        )
        for k in group
    )


@dataclass
class Uniqueness:
    """What a uniqueness check saw: inequivalent solutions found (at most two are looked for),
    a sample of raw solutions, the nodes searched, and whether the search finished."""

    classes: int
    samples: list[list[tuple[str, tuple[Cell, ...]]]]
    nodes: int
    complete: bool


def unique_solution(
    puzzle: TilingPuzzle, node_limit: int = 20_000_000, keep: int = 64
) -> Uniqueness:
    """Search ``puzzle`` until two inequivalent solutions appear (or the tree ends).

    Parameters
    ----------
    puzzle
        The puzzle (its given pieces are fixed).
    node_limit
        Stop after about this many nodes (then ``complete`` is False).
    keep
        Raw solutions to keep as samples (for choosing repairs).
    """
    kernel = compile_problem(puzzle.problem)
    group = _puzzle_group(puzzle)
    state = kernel.state(record=True, buffer=64)
    state.set_batch(64)
    keys: set[tuple[Any, ...]] = set()
    samples: list[list[tuple[str, tuple[Cell, ...]]]] = []
    pl = kernel.placements
    fixed = [(g.piece, tuple(g.cells)) for g in puzzle.given]
    while True:
        status = kernel.run(state, min(2_000_000, node_limit))
        for path in state.take():
            placed = fixed + [
                (pl.pieces[int(pl.piece[i])].name, tuple(pl.coords_of(i)))
                for i in kernel.decode(path)
            ]
            keys.add(_solution_key(puzzle.layout, group, placed))
            if len(samples) < keep:
                samples.append(placed)
        if len(keys) >= 2:
            return Uniqueness(len(keys), samples, state.nodes, False)
        if status == bitboard.DONE:
            return Uniqueness(len(keys), samples, state.nodes, True)
        if state.nodes >= node_limit:
            return Uniqueness(len(keys), samples, state.nodes, False)


# -- rating ------------------------------------------------------------------------------
def rate(puzzle: TilingPuzzle) -> tuple[float, dict[str, int]]:
    """The difficulty of a puzzle and the search figures behind it (see the module notes).

    Returns
    -------
    (float, dict)
        ``log2(nodes / pieces)`` rounded to 0.01, and ``{"nodes", "pieces", "top_branching",
        "raw_solutions"}``.
    """
    from polytile.models.exact_cover import tiling_problem
    from polytile.solvers.xcc import count

    problem = puzzle.problem
    shapes = [t for t, n in zip(problem.types, problem.counts, strict=True) for _ in range(n)]
    ec = tiling_problem(problem.board, shapes, one_sided=problem.one_sided)
    result = count(ec)
    pl = ec.placements
    if pl is None:  # pragma: no cover - tiling_problem always sets them
        raise PolytileError("a tiling problem without placements")
    per_cell = np.bincount(pl.cells[pl.cells >= 0], minlength=problem.board.size)
    open_cells = np.flatnonzero(problem.board.open_mask.ravel())
    per_piece = np.bincount(pl.piece, minlength=len(shapes))
    top = int(min(per_cell[open_cells].min(initial=1 << 30), per_piece.min(initial=1 << 30)))
    pieces = len(shapes)
    stats = {
        "nodes": int(result.nodes),
        "pieces": pieces,
        "top_branching": top,
        "raw_solutions": int(result.count),
    }
    # Knuth's count includes the root: a puzzle of forced moves only has pieces + 1 nodes.
    return round(max(0.0, math.log2(max(result.nodes - 1, 1) / pieces)), 2), stats


# -- the packing kind --------------------------------------------------------------------
def _first_tiling(
    problem: TilingProblem, seed: int, node_limit: int
) -> list[tuple[int, tuple[Cell, ...]]] | None:
    kernel = compile_problem(problem).shuffled(seed)
    state = kernel.state(record=True, buffer=1)
    state.set_batch(1)
    while state.nodes < node_limit:
        status = kernel.run(state, min(1_000_000, node_limit))
        found = state.take()
        if found:
            pl = kernel.placements
            return [(int(pl.piece[i]), tuple(pl.coords_of(i))) for i in kernel.decode(found[0])]
        if status == bitboard.DONE:
            return None
    return None


def _types(chosen: Sequence[Polyomino]) -> tuple[tuple[Polyomino, ...], tuple[int, ...]]:
    """The distinct shapes of ``chosen`` (each its first copy, in order) and their copies."""
    first: dict[Polyomino, int] = {}
    counts: list[int] = []
    types: list[Polyomino] = []
    for shape in chosen:
        key = shape.canonical()
        if key in first:
            counts[first[key]] += 1
        else:
            first[key] = len(types)
            types.append(shape)
            counts.append(1)
    return tuple(types), tuple(counts)


def _rectangle(area: int, rng: np.random.Generator, largest: int) -> Board | None:
    sides = [
        (r, area // r)
        for r in range(3, math.isqrt(area) + 1)
        if area % r == 0 and area // r <= 4 * r and area // r >= largest
    ]
    if not sides:
        return None
    r, c = sides[int(rng.integers(len(sides)))]
    return Board(r, c)


def packing_candidate(params: PackingParams, seed: int, index: int) -> Candidate:
    """Candidate ``index`` of a ``packing`` run with ``params`` and ``seed`` (deterministic:
    the same arguments give the same candidate in any process)."""
    cand = Candidate("packing", seed, index)
    rng = _rng(seed, index, "packing")
    pool = params.pool()
    n = int(rng.integers(params.min_pieces, params.max_pieces + 1))
    chosen = tuple(pool[int(i)] for i in sorted(rng.choice(len(pool), n, replace=False)))
    if params.region == "rectangle":
        largest = max(max(p.height, p.width) for p in chosen)
        board = _rectangle(sum(p.size for p in chosen), rng, largest)
        if board is None:
            cand.reason = "the pieces' area makes no rectangle of sides 3 or more"
            return cand
        types, counts = _types(chosen)
        layout = _first_tiling(
            TilingProblem(board, types, counts), int(rng.integers(1 << 62)), params.node_limit
        )
        if layout is None:
            cand.reason = "no tiling of the rectangle found"
            return cand
        where = {id(t): i for i, t in enumerate(chosen)}  # a type is its first copy
        layout = [(where[id(types[t])], cs) for t, cs in layout]
    else:
        found = _shape_region(chosen, params.holes, rng)
        if isinstance(found, str):
            cand.reason = found
            return cand
        board, layout = found
    intended = [(chosen[i].name, cs) for i, cs in layout]
    cand = _make_unique(cand, params, board, chosen, intended, rng)
    if cand.puzzle is not None:  # what the outline gives away, kept with the rating
        quality = region_quality(board, chosen)
        cand.stats.update(fill=quality["fill"], fewest_pieces=quality["fewest_pieces"],
                          single_cells=quality["single_cells"])  # fmt: skip
    return cand


def _puzzle(
    name: str,
    board: Board,
    shapes: Sequence[Polyomino],
    given: Sequence[tuple[str, tuple[Cell, ...]]],
) -> TilingPuzzle:
    taken = {c for _, cs in given for c in cs}
    left = list(shapes)
    for g, _ in given:
        left.pop(next(i for i, s in enumerate(left) if s.name == g))
    types: dict[Polyomino, list[Polyomino]] = {}
    for shape in left:  # copies of one shape become one type with a count
        types.setdefault(shape.canonical(), []).append(shape)
    problem = TilingProblem(
        Board(board.rows, board.cols, board.blocked | taken),
        tuple(group[0] for group in types.values()),
        tuple(len(group) for group in types.values()),
    )
    return TilingPuzzle(
        name,
        problem,
        given=tuple(PlacedPiece(n, cs) for n, cs in given),
    )


def _make_unique(
    cand: Candidate,
    params: PackingParams,
    board: Board,
    shapes: Sequence[Polyomino],
    intended: list[tuple[str, tuple[Cell, ...]]],
    rng: np.random.Generator,
) -> Candidate:
    given: list[tuple[str, tuple[Cell, ...]]] = []
    name = f"packing-{cand.seed}-{cand.index}"
    while True:
        puzzle = _puzzle(name, board, shapes, given)
        seen = unique_solution(puzzle, params.node_limit)
        if seen.classes == 1 and seen.complete:
            break
        if seen.classes < 2:
            cand.reason = f"uniqueness not settled within {params.node_limit} nodes"
            return cand
        if len(given) >= params.max_given:
            cand.reason = f"still several solutions with {len(given)} pieces given"
            return cand
        group = _puzzle_group(puzzle)
        mine = _solution_key(puzzle.layout, group, intended)
        others = [s for s in seen.samples if _solution_key(puzzle.layout, group, s) != mine]
        first = {(n, frozenset(cs)) for n, cs in others[0]}
        hits: dict[tuple[str, tuple[Cell, ...]], int] = {}
        for p in intended:
            if p in given or (p[0], frozenset(p[1])) in first:
                continue
            hits[p] = sum(
                (p[0], frozenset(p[1])) in {(n, frozenset(c)) for n, c in s} for s in others
            )
        fewest = min(hits.values())
        best = [p for p, h in hits.items() if h == fewest]
        given.append(best[int(rng.integers(len(best)))])
    placed = {(n, frozenset(cs)) for n, cs in given}
    rest = [p for p in intended if (p[0], frozenset(p[1])) not in placed]
    # the given pieces first, marked (extra "given") so that pictures show them as given
    solution = puzzle.solution_of([PlacedPiece(n, cs) for n, cs in rest])
    reasons = check_solution(solution, puzzle)
    if reasons:  # the intended layout must solve the final puzzle; a bug if not
        raise PolytileError(f"generated solution fails the rules check: {reasons[0]}")
    cand.puzzle, cand.solution = puzzle, solution
    cand.key = puzzle_key(cand.kind, puzzle)
    cand.difficulty, cand.stats = rate(puzzle)
    cand.stats["check_nodes"] = seen.nodes
    return cand

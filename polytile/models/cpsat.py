"""CP-SAT builders over placement booleans: one variable per placement, constraints by family.

A :class:`PlacementModel` holds a :class:`~ortools.sat.python.cp_model.CpModel` with one
boolean ``x[i]`` per (kept) placement ``i`` of a :class:`~polytile.board.Placements`, and
optionally a colour per piece. Each constraint family is a function ``add_xxx(pm, ...)``
that adds its constraints to ``pm.model``; puzzles combine them. Builders never print and
never solve: :mod:`polytile.solvers.cpsat` runs the model.

Colours are small integers (``0, 1, ...``; polytile's puzzles use the turn order of
:data:`~polytile.formats.COLORS`). "Cell ``c`` has colour ``k``" is a boolean made on demand
by :meth:`PlacementModel.color_cell`, equal to the number of colour-``k`` placements covering
``c``; making one therefore also forbids two colour-``k`` placements on ``c``.

Examples
--------
Two dominoes tile a 2x2 square in two ways:

>>> from polytile import Board, piece
>>> from polytile.board import placements
>>> from polytile.solvers.cpsat import enumerate_solutions
>>> pm = PlacementModel(placements(Board(2, 2), [piece("I2"), piece("I2")]))
>>> add_piece_exactly_once(pm)
>>> add_cover_exactly(pm)
>>> len(enumerate_solutions(pm))  # 2 tilings x 2 ways to assign the two copies
4
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from ortools.sat.python import cp_model

from polytile.board import Placements
from polytile.errors import BoardError, PolytileError
from polytile.geometry import Cell

__all__ = [
    "PlacementModel",
    "add_connected_corner_groups",
    "add_cover_at_most",
    "add_cover_exactly",
    "add_cover_groups_at_most",
    "add_local_corner_touch",
    "add_no_edge_same_color",
    "add_piece_at_most_once",
    "add_piece_exactly_once",
    "add_start_corners",
    "corner_cells",
    "maximize_pieces",
    "maximize_squares",
]

Literal_ = Any  # a CP-SAT literal (IntVar or its negation); ortools exports no stable alias
CellLike = Cell | int

_ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


class PlacementModel:
    """A CP-SAT model with one boolean per placement, and questions about those booleans.

    Parameters
    ----------
    placements
        Every candidate placement (see :func:`polytile.board.placements`).
    colors
        Per piece index (``placements.pieces``), its colour index or None; None for all means
        a colour-less problem.
    allowed
        If given, only placements whose cells all lie in these cells (``(row, col)`` pairs or
        flat indices) get a variable: pre-filtering keeps the model small.
    keep
        If given, a boolean mask over the placements, or the indices to keep; combined with
        ``allowed``.
    model
        Add to this model instead of a new one.

    Attributes
    ----------
    model : CpModel
        The model the builders add to.
    placements : Placements
        The placements the indices refer to.
    ids : numpy.ndarray
        The kept placement indices, ascending.
    x : dict[int, IntVar]
        The boolean of each kept placement, by placement index.
    piece_colors : tuple[int | None, ...]
        The colour of each piece.

    Raises
    ------
    BoardError
        If ``colors`` does not give one entry per piece, or a colour is negative.

    Notes
    -----
    Building is O(kept placements x piece size) plus one CP-SAT variable per kept placement.
    """

    def __init__(
        self,
        placements: Placements,
        colors: Sequence[int | None] | None = None,
        *,
        allowed: Collection[CellLike] | npt.NDArray[np.bool_] | None = None,
        keep: npt.ArrayLike | None = None,
        model: cp_model.CpModel | None = None,
    ) -> None:
        n_pieces = len(placements.pieces)
        if colors is None:
            colors = [None] * n_pieces
        if len(colors) != n_pieces:
            raise BoardError(f"{len(colors)} colours given for {n_pieces} pieces")
        if any(k is not None and k < 0 for k in colors):
            raise BoardError(f"colours must be non-negative integers, got {list(colors)}")
        self.placements = placements
        self.piece_colors: tuple[int | None, ...] = tuple(
            None if k is None else int(k) for k in colors
        )
        self.n_colors = 1 + max((k for k in self.piece_colors if k is not None), default=-1)
        self.model = model if model is not None else cp_model.CpModel()
        mask = np.ones(len(placements), dtype=bool)
        if keep is not None:
            arr = np.asarray(keep)
            if arr.dtype == bool:
                mask &= arr
            else:
                sub = np.zeros(len(placements), dtype=bool)
                sub[arr.astype(np.int64)] = True
                mask &= sub
        if allowed is not None:
            mask &= _inside(placements, allowed)
        self.ids: npt.NDArray[np.int64] = np.flatnonzero(mask)
        self.x: dict[int, Any] = {int(i): self.model.new_bool_var(f"x{i}") for i in self.ids}
        self._by_piece: list[list[int]] = [[] for _ in range(n_pieces)]
        self._by_cell: list[list[int]] = [[] for _ in range(placements.board.size)]
        for i in map(int, self.ids):
            self._by_piece[int(placements.piece[i])].append(i)
            for c in placements.cells_of(i):
                self._by_cell[int(c)].append(i)
        self._color_cell: dict[tuple[int, int], Any] = {}
        self._by_cell_color: dict[tuple[int, int], list[int]] = {}
        #: True once a builder adds variables that solutions do not determine (flows, depths):
        #: enumeration must then block placement sets rather than list assignments.
        self.free_auxiliary = False

    # -- the questions -----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.x)

    def flat(self, cell: CellLike) -> int:
        """Flat index of a cell given as ``(row, col)`` or already flat.

        Raises
        ------
        BoardError
            If the cell lies outside the board.
        """
        board = self.placements.board
        if isinstance(cell, tuple):
            if cell not in board:
                raise BoardError(f"cell {cell} lies outside the {board.rows}x{board.cols} board")
            return board.index(*cell)
        i = int(cell)
        if not 0 <= i < board.size:
            raise BoardError(f"flat cell {i} lies outside the {board.rows}x{board.cols} board")
        return i

    def color_of(self, i: int) -> int | None:
        """Colour of placement ``i`` (that of its piece)."""
        return self.piece_colors[int(self.placements.piece[i])]

    def piece_ids(self, piece: int) -> list[int]:
        """Kept placement indices of piece ``piece``."""
        return list(self._by_piece[piece])

    def cell_ids(self, cell: CellLike, color: int | None = None) -> list[int]:
        """Kept placement indices covering ``cell``, of colour ``color`` if given."""
        flat = self.flat(cell)
        if color is None:
            return list(self._by_cell[flat])
        key = (color, flat)
        if key not in self._by_cell_color:
            self._by_cell_color[key] = [i for i in self._by_cell[flat] if self.color_of(i) == color]
        return list(self._by_cell_color[key])

    def placed(self, piece: int) -> Any:
        """The linear expression "number of placements of ``piece`` chosen" (0 or 1 once
        :func:`add_piece_at_most_once` or :func:`add_piece_exactly_once` holds)."""
        return cp_model.LinearExpr.sum([self.x[i] for i in self._by_piece[piece]])

    def piece_vars(self, piece: int) -> list[Any]:
        """The booleans of the placements of ``piece``."""
        return [self.x[i] for i in self._by_piece[piece]]

    def cell_vars(self, cell: CellLike, color: int | None = None) -> list[Any]:
        """The booleans of the placements covering ``cell`` (of colour ``color`` if given)."""
        return [self.x[i] for i in self.cell_ids(cell, color)]

    def color_cell(self, color: int, cell: CellLike) -> Any:
        """Boolean "``cell`` is covered by colour ``color``", made once and cached.

        It is constrained equal to the sum of the colour's placements covering the cell, so it
        also forbids two of them there. Where no such placement exists it is the constant 0.
        """
        flat = self.flat(cell)
        key = (color, flat)
        if key not in self._color_cell:
            vs = self.cell_vars(flat, color)
            if not vs:
                var = self.model.new_constant(0)
            elif len(vs) == 1:
                var = vs[0]
            else:
                var = self.model.new_bool_var(f"c{color}_{flat}")
                self.model.add(cp_model.LinearExpr.sum(vs) == var)
            self._color_cell[key] = var
        return self._color_cell[key]

    def colors(self) -> list[int]:
        """The colour indices that some piece has, ascending."""
        return sorted({k for k in self.piece_colors if k is not None})

    def extract(self, solver: Any) -> list[int]:
        """The chosen placement indices, ascending.

        Parameters
        ----------
        solver
            A :class:`~ortools.sat.python.cp_model.CpSolver` after a successful solve, or a
            solution callback during one (anything with ``boolean_value``).
        """
        return [i for i, v in self.x.items() if solver.boolean_value(v)]

    def add_hints(self, chosen: Iterable[int]) -> None:
        """Hint a solution: the given placement indices true, every other placement false.

        Raises
        ------
        PolytileError
            If a hinted placement has no variable (it was filtered out).
        """
        chosen = {int(i) for i in chosen}
        missing = sorted(chosen - self.x.keys())
        if missing:
            raise PolytileError(f"hinted placements {missing[:10]} have no variable")
        self.model.clear_hints()
        for i, v in self.x.items():
            self.model.add_hint(v, i in chosen)

    def size_stats(self) -> dict[str, int]:
        """Model size: ``placements`` (booleans), ``variables`` and ``constraints`` in all."""
        proto = self.model.proto
        return {
            "placements": len(self.x),
            "variables": len(proto.variables),
            "constraints": len(proto.constraints),
        }

    def squares(self) -> Any:
        """Linear expression: the number of cells covered by chosen placements."""
        size = self.placements.size
        return cp_model.LinearExpr.weighted_sum(
            list(self.x.values()), [int(size[i]) for i in self.x]
        )


def _inside(pl: Placements, allowed: Collection[CellLike] | npt.NDArray[np.bool_]) -> Any:
    board = pl.board
    ok = np.zeros(board.size + 1, dtype=bool)  # the extra slot absorbs the -1 padding
    arr = np.asarray(allowed) if isinstance(allowed, np.ndarray) else None
    if arr is not None and arr.dtype == bool:
        ok[: board.size] = arr.reshape(-1)
    else:
        for cell in allowed:
            if isinstance(cell, tuple):
                if cell in board:
                    ok[board.index(*cell)] = True
            elif 0 <= int(cell) < board.size:
                ok[int(cell)] = True
    ok[board.size] = True
    return ok[np.where(pl.cells >= 0, pl.cells, board.size)].all(axis=1)


# -- pieces and cells ------------------------------------------------------------------
def _pieces(pm: PlacementModel, pieces: Iterable[int] | None) -> Iterable[int]:
    return range(len(pm.placements.pieces)) if pieces is None else pieces


def add_piece_exactly_once(pm: PlacementModel, pieces: Iterable[int] | None = None) -> None:
    """Each piece (all, or those listed) is placed exactly once.

    A piece without any kept placement makes the model infeasible.
    """
    for p in _pieces(pm, pieces):
        pm.model.add_exactly_one(pm.piece_vars(p))


def add_piece_at_most_once(pm: PlacementModel, pieces: Iterable[int] | None = None) -> None:
    """Each piece (all, or those listed) is placed at most once."""
    for p in _pieces(pm, pieces):
        vs = pm.piece_vars(p)
        if len(vs) > 1:
            pm.model.add_at_most_one(vs)


def _cells(pm: PlacementModel, cells: Iterable[CellLike] | None) -> list[int]:
    board = pm.placements.board
    if cells is None:
        return [board.index(r, c) for r in range(board.rows) for c in range(board.cols)
                if board.is_open(r, c)]  # fmt: skip
    return [pm.flat(c) for c in cells]


def add_cover_exactly(pm: PlacementModel, cells: Iterable[CellLike] | None = None) -> None:
    """Each cell (every open cell of the board, or those listed) is covered exactly once.

    A listed cell that no kept placement covers makes the model infeasible.
    """
    for c in _cells(pm, cells):
        pm.model.add_exactly_one(pm.cell_vars(c))


def add_cover_at_most(pm: PlacementModel, cells: Iterable[CellLike] | None = None) -> None:
    """No cell (of the board, or of those listed) is covered twice."""
    for c in _cells(pm, cells):
        vs = pm.cell_vars(c)
        if len(vs) > 1:
            pm.model.add_at_most_one(vs)


def add_cover_groups_at_most(pm: PlacementModel, groups: Iterable[Iterable[CellLike]]) -> None:
    """For each group of cells, at most one chosen placement covers any of its cells.

    With singleton groups this is :func:`add_cover_at_most`. With the orbits of a board
    symmetry it says that the chosen cells and their images are all distinct, which is how
    a symmetric solution keeps its colours apart (see :mod:`polytile.puzzles.blokus.eighty_four`).
    A placement covering two cells of one group can never be chosen.
    """
    for group in groups:
        hits: dict[int, int] = {}
        for c in set(map(pm.flat, group)):
            for i in pm.cell_ids(c):
                hits[i] = hits.get(i, 0) + 1
        for i, n in hits.items():
            if n > 1:
                pm.model.add(pm.x[i] == 0)
        if len(hits) > 1:
            pm.model.add_at_most_one([pm.x[i] for i in sorted(hits)])


# -- colours ---------------------------------------------------------------------------
def _colors(pm: PlacementModel, colors: Iterable[int] | None) -> list[int]:
    return pm.colors() if colors is None else list(colors)


def _colored_cells(pm: PlacementModel, color: int) -> list[int]:
    return [c for c in range(pm.placements.board.size) if pm.cell_ids(c, color)]


def add_no_edge_same_color(
    pm: PlacementModel,
    colors: Iterable[int] | None = None,
    encoding: Literal["cells", "clique"] = "cells",
) -> None:
    """Two pieces of the same colour never share an edge.

    Parameters
    ----------
    pm
        The model.
    colors
        The colours to constrain (default: every colour used).
    encoding
        ``"cells"`` (default): per adjacent pair ``a, b``,
        ``has(k, a) + has(k, b) - [colour-k placements covering both] <= 1`` with the cell
        booleans of :meth:`PlacementModel.color_cell`: a few terms per pair.
        ``"clique"``: per pair one at-most-one over the colour's placements covering exactly
        one of ``a, b``; stronger propagation, but hundreds of literals per pair on big boards.

    Notes
    -----
    Meant together with :func:`add_cover_at_most` or :func:`add_cover_exactly`; the
    ``"cells"`` encoding also forbids two same-colour placements on one cell by itself.
    O(colours x board edges) constraints.
    """
    board = pm.placements.board
    for k in _colors(pm, colors):
        for a in _colored_cells(pm, k):
            ra, ca = board.cell(a)
            for dr, dc in ((0, 1), (1, 0)):
                if not board.is_open(ra + dr, ca + dc):
                    continue
                b = board.index(ra + dr, ca + dc)
                ids_a = pm.cell_ids(a, k)
                ids_b = pm.cell_ids(b, k)
                if not ids_b:
                    continue
                both = set(ids_a) & set(ids_b)
                if encoding == "clique":
                    only = [pm.x[i] for i in (*ids_a, *ids_b) if i not in both]
                    if len(only) > 1:
                        pm.model.add_at_most_one(only)
                    continue
                shared = [pm.x[i] for i in sorted(both)]
                pm.model.add(
                    pm.color_cell(k, a) + pm.color_cell(k, b) - cp_model.LinearExpr.sum(shared) <= 1
                )


def corner_cells(pl: Placements, i: int) -> list[int]:
    """Flat cells that touch placement ``i`` only at a corner: diagonal neighbours of its
    cells that are neither its cells nor edge-neighbours of them (Blokus "corners")."""
    board = pl.board
    own = {board.cell(c) for c in pl.cells_of(i)}
    edge = {(r + dr, c + dc) for r, c in own for dr, dc in _ORTHO}
    out = {
        (r + dr, c + dc)
        for r, c in own
        for dr, dc in _DIAG
        if (r + dr, c + dc) not in own and (r + dr, c + dc) not in edge
    }
    return sorted(board.index(r, c) for r, c in out if board.is_open(r, c))


def add_local_corner_touch(pm: PlacementModel, colors: Iterable[int] | None = None) -> None:
    """Every placed piece corner-touches at least one placed piece of its own colour.

    For a chosen colour-``k`` placement, one of its corner cells (see :func:`corner_cells`)
    must have colour ``k``. Meant together with :func:`add_no_edge_same_color`, under which a
    corner cell of the same colour is exactly a corner touch.

    Notes
    -----
    One clause per placement of a constrained colour, of length about 8 to 12.
    """
    wanted = set(_colors(pm, colors))
    for i, var in pm.x.items():
        k = pm.color_of(i)
        if k is None or k not in wanted:
            continue
        lits = [pm.color_cell(k, d) for d in corner_cells(pm.placements, i) if pm.cell_ids(d, k)]
        pm.model.add_bool_or([var.Not(), *lits])


def _king_neighbours(pm: PlacementModel, cells: list[int]) -> dict[int, list[int]]:
    board = pm.placements.board
    present = set(cells)
    out: dict[int, list[int]] = {}
    for a in cells:
        r, c = board.cell(a)
        out[a] = [
            board.index(r + dr, c + dc)
            for dr, dc in (*_ORTHO, *_DIAG)
            if (r + dr, c + dc) in board and board.index(r + dr, c + dc) in present
        ]
    return out


def add_connected_corner_groups(
    pm: PlacementModel,
    colors: Iterable[int] | None = None,
    roots: Mapping[int, CellLike] | None = None,
    method: Literal["flow", "depth"] = "depth",
) -> None:
    """Each colour's placed pieces form one group connected through corner touches.

    Pieces are edge-connected and (under :func:`add_no_edge_same_color`) meet only at
    corners, so the pieces form one corner-connected group exactly when the colour's cells
    are connected in the 8-neighbourhood. That is what is constrained, on the cell graph.

    Parameters
    ----------
    pm
        The model.
    colors
        The colours to constrain (default: every colour used).
    roots
        Per colour, a cell that the colour must cover and that is the root of its group (its
        start corner). Colours without a root choose one cell as root, and may then be empty.
    method
        ``"depth"`` (default): every non-root cell of the colour picks a same-colour
        8-neighbour as parent, of smaller depth. ``"flow"``: the root sends one unit to every
        cell of its colour along 8-neighbour arcs between cells of the colour. Depth labels
        found first solutions about 1.6x faster (median of 5 seeds) on four-square
        "connected" in 8x8 and about 2x faster in the "eighty-four" completions; on the 8x10
        four-square neither finds a solution in 120 s (``benchmarks/bench_teasers.py``).

    Notes
    -----
    O(colours x cells) extra integer variables and O(colours x 8 x cells) constraints. The
    auxiliary variables are not determined by the placements (``pm.free_auxiliary``).
    """
    roots = dict(roots or {})
    pm.free_auxiliary = True
    m = pm.model
    for k in _colors(pm, colors):
        cells = _colored_cells(pm, k)
        root = pm.flat(roots[k]) if k in roots else None
        if root is not None and root not in cells:
            m.add_bool_or([])  # the root cannot have this colour: infeasible
            continue
        size_bound = sum(
            pm.placements.pieces[p].size
            for p, col in enumerate(pm.piece_colors)
            if col == k and pm.piece_ids(p)
        )
        n = max(1, min(len(cells), size_bound))
        nbrs = _king_neighbours(pm, cells)
        has = {c: pm.color_cell(k, c) for c in cells}
        if root is not None:
            m.add(has[root] == 1)
            is_root: dict[int, Any] = {c: (1 if c == root else 0) for c in cells}
        else:
            is_root = {c: m.new_bool_var(f"root{k}_{c}") for c in cells}
            for c in cells:
                m.add_implication(is_root[c], has[c])
            m.add_at_most_one(list(is_root.values()))
        if method == "flow":
            _flow(m, k, cells, nbrs, has, is_root, n)
        elif method == "depth":
            _depth(m, k, cells, nbrs, has, is_root, n)
        else:
            raise BoardError(f"unknown connectivity method {method!r}; known: depth, flow")


def _flow(
    m: cp_model.CpModel,
    k: int,
    cells: list[int],
    nbrs: dict[int, list[int]],
    has: dict[int, Any],
    is_root: dict[int, Any],
    n: int,
) -> None:
    flow = {(a, b): m.new_int_var(0, n - 1, f"f{k}_{a}_{b}") for a in cells for b in nbrs[a]}
    for (a, b), f in flow.items():
        m.add(f <= (n - 1) * has[a])
        m.add(f <= (n - 1) * has[b])
    for c in cells:
        supply = m.new_int_var(0, n, f"s{k}_{c}")
        m.add(supply <= n * is_root[c])
        out = cp_model.LinearExpr.sum([flow[c, b] for b in nbrs[c]])
        inn = cp_model.LinearExpr.sum([flow[b, c] for b in nbrs[c]])
        m.add(out - inn == supply - has[c])
        # Redundant but propagates early: a non-root cell of the colour is fed by a neighbour.
        if not isinstance(is_root[c], int) or is_root[c] == 0:
            feeders = [has[b] for b in nbrs[c]]
            lits = [has[c].Not(), *feeders]
            if not isinstance(is_root[c], int):
                lits.append(is_root[c])
            m.add_bool_or(lits)


def _depth(
    m: cp_model.CpModel,
    k: int,
    cells: list[int],
    nbrs: dict[int, list[int]],
    has: dict[int, Any],
    is_root: dict[int, Any],
    n: int,
) -> None:
    depth = {c: m.new_int_var(0, n - 1, f"d{k}_{c}") for c in cells}
    for c in cells:
        r = is_root[c]
        if isinstance(r, int):
            if r:
                m.add(depth[c] == 0)
                continue
            lits = [has[c].Not()]
        else:
            m.add(depth[c] == 0).only_enforce_if(r)
            lits = [has[c].Not(), r]
        for b in nbrs[c]:
            par = m.new_bool_var(f"p{k}_{b}_{c}")
            m.add_implication(par, has[b])
            m.add(depth[c] >= depth[b] + 1).only_enforce_if(par)
            lits.append(par)
        m.add_bool_or(lits)


def add_start_corners(pm: PlacementModel, starts: Mapping[int, CellLike]) -> None:
    """Each listed colour covers its start cell: the piece on it is of that colour.

    Parameters
    ----------
    starts
        Colour index to cell (``(row, col)`` or flat).
    """
    for k, cell in starts.items():
        pm.model.add_bool_or(pm.cell_vars(cell, k))


# -- objectives ------------------------------------------------------------------------
def maximize_squares(pm: PlacementModel) -> Any:
    """Objective: as many covered cells as possible. Returns the expression."""
    expr = pm.squares()
    pm.model.maximize(expr)
    return expr


def maximize_pieces(pm: PlacementModel) -> Any:
    """Objective: as many placed pieces as possible. Returns the expression."""
    expr = cp_model.LinearExpr.sum(list(pm.x.values()))
    pm.model.maximize(expr)
    return expr

"""CP-SAT builders for City Blocks scoring: one colour's free edges and counted area.

A :class:`LayoutModel` is a :class:`~polytile.models.cpsat.PlacementModel` over the pieces a
colour still holds, on a board whose blocked cells are exactly the cells occupied in the
current position; ``own`` lists which of those already belong to the colour (its centre
square, pieces placed earlier). It adds one boolean per empty cell, "the colour covers it",
equal to the number of chosen placements on the cell (so no two overlap). The builders

* :func:`add_free_edges` (free edges as a linear expression over placements and contacts),
* :func:`add_counted_area` (the counted region as a connected cell set, depth labels),
* :func:`add_first_piece` (the first piece covers the start cell),
* :func:`add_tree_cut` (valid inequality: a region of ``k`` atoms has ``k - 1`` contacts)

add their constraints and return what they measure; puzzles combine them
(:mod:`polytile.puzzles.cityblocks.maximum`). :func:`complete_hint` hints every variable from a
set of chosen placements, auxiliary ones included; :func:`greedy_placements` makes such a
set quickly.

Examples
--------
Two dominoes on an empty 2x3 board, most free edges: upright in the outer columns, each
with two edges towards the empty middle column.

>>> from polytile import Board, piece
>>> from polytile.board import placements
>>> from polytile.models.cpsat import add_piece_at_most_once
>>> from polytile.solvers.cpsat import solve
>>> lm = LayoutModel(placements(Board(2, 3), [piece("I2"), piece("I2")]), own=())
>>> add_piece_at_most_once(lm)
>>> lm.model.maximize(add_free_edges(lm))
>>> solve(lm, workers=1).objective
4.0
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
from ortools.sat.python import cp_model

from polytile.board import Placements
from polytile.errors import BoardError
from polytile.geometry import Cell
from polytile.models.cpsat import PlacementModel
from polytile.regions import components

__all__ = [
    "LayoutModel",
    "add_counted_area",
    "add_first_piece",
    "add_free_edges",
    "add_tree_cut",
    "complete_hint",
    "greedy_placements",
    "placement_edges",
]

_ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))


def placement_edges(pl: Placements, own: Collection[int] = ()) -> dict[str, npt.NDArray[np.int32]]:
    """Per placement, how its outer unit edges split: ``free``, ``own``, ``foreign``.

    ``free``: edges to empty cells (open cells of ``pl.board``) outside the placement;
    ``own``: edges to cells in ``own`` (flat indices, occupied by the same colour);
    ``foreign``: edges to the border or to other occupied cells. Their sum is the
    placement's perimeter.

    Notes
    -----
    O(placements x piece size), vectorised with numpy.
    """
    board = pl.board
    rows, cols = board.rows, board.cols
    kind = np.zeros((rows + 2, cols + 2), dtype=np.int8)  # 0 foreign (border too), 1 empty, 2 own
    kind[1:-1, 1:-1] = board.open_mask.astype(np.int8)
    for c in own:
        r, q = board.cell(c)
        kind[r + 1, q + 1] = 2
    n, width = pl.cells.shape
    out = {k: np.zeros(n, dtype=np.int32) for k in ("free", "own", "foreign")}
    cells = pl.cells
    valid = cells >= 0
    safe = np.where(valid, cells, 0)
    rr, cc = safe // cols, safe % cols
    for dr, dc in _ORTHO:
        nr, nc = rr + dr, cc + dc
        inside = (nr >= 0) & (nr < rows) & (nc >= 0) & (nc < cols)
        flat_n = np.where(inside, nr * cols + nc, -2)
        mine = (flat_n[:, :, None] == cells[:, None, :]).any(axis=2)  # neighbour in the piece
        k = kind[nr + 1, nc + 1]
        outer = valid & ~mine
        out["free"] += (outer & (k == 1)).sum(axis=1).astype(np.int32)
        out["own"] += (outer & (k == 2)).sum(axis=1).astype(np.int32)
        out["foreign"] += (outer & (k == 0)).sum(axis=1).astype(np.int32)
    del width
    return out


class LayoutModel(PlacementModel):
    """One colour's remaining pieces on a position, with a "covered" boolean per empty cell.

    Parameters
    ----------
    placements
        Placements of the colour's pieces in hand on a board whose blocked cells are the
        occupied cells of the position (any colour).
    own
        The occupied cells (``(row, col)`` or flat) that belong to the colour.
    keep
        Optional mask or indices of placements to keep (see :class:`PlacementModel`).
    model
        Add to this model instead of a new one.

    Attributes
    ----------
    own : frozenset[int]
        Flat indices of the colour's fixed cells.
    cover : dict[int, Any]
        Per empty cell some kept placement covers, its "covered" boolean.
    pairs : dict[tuple[int, int], list[int]]
        Per adjacent pair of coverable cells ``a < b``, the kept placements covering both.

    Raises
    ------
    BoardError
        If an ``own`` cell is open on the board (own cells are occupied by definition).
    """

    def __init__(
        self,
        placements: Placements,
        own: Iterable[Cell | int],
        *,
        keep: npt.ArrayLike | None = None,
        model: cp_model.CpModel | None = None,
    ) -> None:
        super().__init__(placements, keep=keep, model=model)
        board = placements.board
        self.own = frozenset(self.flat(c) for c in own)
        for c in self.own:
            if board.is_open(*board.cell(c)):
                raise BoardError(
                    f"own cell {board.cell(c)} must be occupied (blocked) on the board"
                )
        self.cover: dict[int, Any] = {}
        for c in range(board.size):
            vs = self.cell_vars(c)
            if vs:
                var = self.model.new_bool_var(f"b{c}")
                self.model.add(cp_model.LinearExpr.sum(vs) == var)
                self.cover[c] = var
        self.pairs: dict[tuple[int, int], list[int]] = {}
        for a in self.cover:
            r, q = board.cell(a)
            for dr, dc in ((0, 1), (1, 0)):
                if board.is_open(r + dr, q + dc) and board.index(r + dr, q + dc) in self.cover:
                    self.pairs[a, board.index(r + dr, q + dc)] = []
        for i in self.x:
            cs = set(map(int, placements.cells_of(i)))
            for c in cs:
                for d in (c + 1, c + board.cols):
                    if (c, d) in self.pairs and d in cs:
                        self.pairs[c, d].append(i)
        self.edges = placement_edges(placements, self.own)
        self.contact: dict[tuple[int, int], Any] = {}
        self.region: dict[int, Any] = {}
        self.aux: dict[str, Any] = {}

    def has(self, cell: int) -> Any:
        """1, 0 or the boolean "``cell`` (flat) has the colour"."""
        if cell in self.own:
            return 1
        return self.cover.get(cell, 0)

    def together(self, a: int, b: int) -> Any:
        """Linear expression: 1 when one chosen placement covers both adjacent cells."""
        key = (a, b) if a < b else (b, a)
        return cp_model.LinearExpr.sum([self.x[i] for i in self.pairs.get(key, [])])

    def colour_cells(self) -> list[int]:
        """Flat cells that have or may get the colour, ascending."""
        return sorted(self.own | self.cover.keys())

    def neighbours(self, cell: int) -> list[int]:
        """Edge-neighbours of ``cell`` that have or may get the colour."""
        board = self.placements.board
        r, q = board.cell(cell)
        out = []
        for dr, dc in _ORTHO:
            if (r + dr, q + dc) in board:
                d = board.index(r + dr, q + dc)
                if d in self.own or d in self.cover:
                    out.append(d)
        return out


def add_free_edges(lm: LayoutModel) -> Any:
    """Free edges of the colour as a linear expression; returns it.

    Every chosen placement brings its edges to empty cells outside itself
    (:func:`placement_edges`). A fixed cell of the colour brings its edges to empty cells,
    minus one for each that gets covered. Two chosen placements sharing a unit edge lose it on
    both sides: a boolean ``contact`` per adjacent pair of empty cells, true exactly when both
    are covered by different placements, costs 2.

    Notes
    -----
    One contact boolean and three or four clauses per adjacent pair of coverable cells.
    """
    m = lm.model
    board = lm.placements.board
    terms: list[Any] = []
    coefs: list[int] = []
    free_pl = lm.edges["free"]
    for i, var in lm.x.items():
        if free_pl[i]:
            terms.append(var)
            coefs.append(int(free_pl[i]))
    const = 0
    for f in lm.own:
        r, q = board.cell(f)
        for dr, dc in _ORTHO:
            if board.is_open(r + dr, q + dc):
                const += 1
                d = board.index(r + dr, q + dc)
                if d in lm.cover:
                    terms.append(lm.cover[d])
                    coefs.append(-1)
    for a, b in lm.pairs:
        z = m.new_bool_var(f"k{a}_{b}")
        same = lm.together(a, b)
        m.add(z >= lm.cover[a] + lm.cover[b] - 1 - same)
        m.add_implication(z, lm.cover[a])
        m.add_implication(z, lm.cover[b])
        m.add(z + same <= 1)
        lm.contact[a, b] = z
        terms.append(z)
        coefs.append(-2)
    return cp_model.LinearExpr.weighted_sum(terms, coefs) + const


def add_counted_area(lm: LayoutModel, closed: bool = True) -> Any:
    """The counted area: one connected set of the colour's cells, 0 or at least 2 of them.

    A boolean ``region[c]`` per cell that has or may get the colour; the chosen cells are
    edge-connected (depth labels: each non-root cell has a parent in the region of smaller
    depth), rooted at their smallest flat index so that every region has one labelling root.
    Cells of one placement are in or out together. With ``closed`` (default) the region is
    also a whole component (a region cell's coloured neighbours are in it), so the expression
    is exact in every solution; without it the region is any connected part, which is the
    same at the optimum of a maximisation.

    Returns
    -------
    LinearExpr
        The number of region cells (0 when fewer than 2).

    Notes
    -----
    O(cells) integer depths and O(4 x cells) parent booleans. The auxiliary variables are not
    determined by the placements (``lm.free_auxiliary``).
    """
    m = lm.model
    lm.free_auxiliary = True
    cells = lm.colour_cells()
    n = max(2, len(lm.own) + int(sum(p.size for p in lm.placements.pieces)))
    n = min(n, max(2, len(cells)))
    region = {c: m.new_bool_var(f"r{c}") for c in cells}
    root = {c: m.new_bool_var(f"root{c}") for c in cells}
    depth = {c: m.new_int_var(0, n - 1, f"d{c}") for c in cells}
    root_at = m.new_int_var(0, max(cells, default=0), "root_at")
    parent: dict[tuple[int, int], Any] = {}
    size = cp_model.LinearExpr.sum(list(region.values()))
    counts = m.new_bool_var("area_counts")
    m.add(size >= 2 * counts)
    m.add(size <= n * counts)
    m.add(cp_model.LinearExpr.sum(list(root.values())) == counts)
    m.add(root_at == cp_model.LinearExpr.weighted_sum(list(root.values()), cells))
    for c in cells:
        h = lm.has(c)
        if isinstance(h, int):
            if not h:
                m.add(region[c] == 0)
        else:
            m.add_implication(region[c], h)
        m.add_implication(root[c], region[c])
        m.add(depth[c] == 0).only_enforce_if(root[c])
        m.add(root_at <= c).only_enforce_if(region[c])
        lits = [region[c].Not(), root[c]]
        for d in lm.neighbours(c):
            p = m.new_bool_var(f"p{d}_{c}")
            m.add_implication(p, region[d])
            m.add(depth[c] >= depth[d] + 1).only_enforce_if(p)
            parent[d, c] = p
            lits.append(p)
            if closed:
                hd = lm.has(d)
                if isinstance(hd, int):
                    if hd:
                        m.add_implication(region[c], region[d])
                else:
                    m.add_bool_or([region[c].Not(), hd.Not(), region[d]])
        m.add_bool_or(lits)
    for (a, b), ids in lm.pairs.items():
        if ids:
            same = lm.together(a, b)
            m.add(region[a] - region[b] <= 1 - same)
            m.add(region[b] - region[a] <= 1 - same)
    lm.region = region
    lm.aux.update(root=root, depth=depth, parent=parent, root_at=root_at, counts=counts)
    return size


def add_first_piece(lm: LayoutModel, start: Cell | int) -> None:
    """The colour's first piece covers ``start``: no piece is placed unless one covers it.

    If ``start`` is not coverable, no piece may be placed at all.
    """
    s = lm.flat(start)
    cover = lm.cover.get(s)
    for p in range(len(lm.placements.pieces)):
        vs = lm.piece_vars(p)
        if not vs:
            continue
        if cover is None:
            lm.model.add(cp_model.LinearExpr.sum(vs) == 0)
        else:
            lm.model.add(cp_model.LinearExpr.sum(vs) <= cover)


def complete_hint(lm: LayoutModel, chosen: Iterable[int]) -> None:
    """Hint every variable the builders made from a set of chosen placements.

    Placements and cells follow directly; contacts from the cells; the region is the largest
    component of the colour (empty when it has fewer than 2 cells), rooted at its smallest
    cell, with breadth-first depths and parents.

    Raises
    ------
    PolytileError
        If a chosen placement has no variable (see :meth:`PlacementModel.add_hints`).
    """
    chosen = sorted(set(map(int, chosen)))
    lm.add_hints(chosen)
    m = lm.model
    owner: dict[int, int] = {}
    for i in chosen:
        for c in lm.placements.cells_of(i):
            owner[int(c)] = i
    for c, var in lm.cover.items():
        m.add_hint(var, c in owner)
    for (a, b), z in lm.contact.items():
        m.add_hint(z, a in owner and b in owner and owner[a] != owner[b])
    if not lm.region:
        return
    board = lm.placements.board
    comps = components(board.cell(c) for c in lm.own | owner.keys())
    best = [board.index(*c) for c in comps[0]] if comps and len(comps[0]) >= 2 else []
    inside = set(best)
    root_cell = min(best) if best else None
    depth = {c: 0 for c in lm.region}
    par: dict[int, int] = {}
    if root_cell is not None:
        order = [root_cell]
        depth[root_cell] = 0
        done = {root_cell}
        for x in order:
            for d in lm.neighbours(x):
                if d in inside and d not in done:
                    done.add(d)
                    depth[d] = depth[x] + 1
                    par[d] = x
                    order.append(d)
    aux = lm.aux
    for c, var in lm.region.items():
        m.add_hint(var, c in inside)
        m.add_hint(aux["root"][c], c == root_cell)
        m.add_hint(aux["depth"][c], depth[c])
    for (d, c), p in aux["parent"].items():
        m.add_hint(p, par.get(c) == d)
    m.add_hint(aux["root_at"], root_cell or 0)
    m.add_hint(aux["counts"], bool(best))
    piece_of = {int(lm.placements.piece[i]): i for i in chosen}
    for p, g in aux.get("inside", {}).items():
        j = piece_of.get(p)
        m.add_hint(g, j is not None and int(lm.placements.cells_of(j)[0]) in inside)


def greedy_placements(
    pl: Placements,
    own: Iterable[Cell | int],
    objective: str = "score",
    start: Cell | int | None = None,
    seed: int | np.random.Generator | None = None,
) -> list[int]:
    """A quick layout to hint from: place one piece at a time where it gains most.

    Each round looks at every placement of every piece not yet placed on cells still empty,
    and takes the one that raises ``objective`` (``"score"``, ``"area"`` or ``"free"``) the
    most, the score breaking ties, then a random choice. Stops when no placement gains.

    Parameters
    ----------
    pl
        Placements of the pieces in hand, on a board blocking the occupied cells.
    own
        The colour's fixed cells (occupied, flat or ``(row, col)``).
    objective
        What to gain.
    start
        If given, the first placement must cover this cell (the colour's first piece).
    seed
        Tie-breaking randomness.

    Returns
    -------
    list of int
        Chosen placement indices, in the order placed.

    Notes
    -----
    O(pieces x placements x piece size) numpy work: a fraction of a second on 20x20.
    """
    rng = np.random.default_rng(seed)
    board = pl.board
    rows, cols = board.rows, board.cols
    n_cells = board.size
    off = n_cells  # index of a virtual "outside" cell (border and occupied: never empty)
    empty = np.zeros(n_cells + 1, dtype=bool)
    empty[:n_cells] = board.open_mask.reshape(-1)
    label = np.zeros(n_cells + 1, dtype=np.int64)  # colour component id, 0 for none
    sizes = [0]
    for comp in components(c if isinstance(c, tuple) else board.cell(c) for c in own):
        label[[board.index(*c) for c in comp]] = len(sizes)
        sizes.append(len(comp))
    cells = pl.cells
    valid = cells >= 0
    safe = np.where(valid, cells, 0)
    rr, cc = safe // cols, safe % cols
    nbr_parts = []
    for dr, dc in _ORTHO:
        nr, nc = rr + dr, cc + dc
        inside = valid & (nr >= 0) & (nr < rows) & (nc >= 0) & (nc < cols)
        nbr_parts.append(np.where(inside, nr * cols + nc, off))
    nbr = np.concatenate(nbr_parts, axis=1)  # (n, 4 * width)
    outer = (nbr[:, :, None] != cells[:, None, :]).all(axis=2) & np.tile(valid, 4)
    size_arr = pl.size.astype(np.int64)
    placed_piece = np.zeros(len(pl.pieces), dtype=bool)
    chosen: list[int] = []
    start_flat = None if start is None else (board.index(*start) if isinstance(start, tuple)
                                             else int(start))  # fmt: skip

    def area_of(s: int) -> int:
        return s if s >= 2 else 0

    while True:
        ok = ~placed_piece[pl.piece] & np.where(valid, empty[safe], True).all(axis=1)
        if start_flat is not None and not chosen:
            ok &= (cells == start_flat).any(axis=1)
        cand = np.flatnonzero(ok)
        if cand.size == 0:
            break
        nb = nbr[cand]
        out = outer[cand]
        lab = np.where(out, label[nb], 0)
        d_free = (out & empty[nb]).sum(axis=1) - (lab > 0).sum(axis=1)
        srt = np.sort(lab, axis=1)
        first = np.ones_like(srt, dtype=bool)
        first[:, 1:] = srt[:, 1:] != srt[:, :-1]
        size_tab = np.asarray(sizes, dtype=np.int64)
        merged = size_arr[cand] + np.where(first & (srt > 0), size_tab[srt], 0).sum(axis=1)
        area_now = area_of(max(sizes))
        new_area = np.maximum(area_now, np.where(merged >= 2, merged, 0))
        d_area = new_area - area_now
        d_score = d_free + d_area
        gain = {"score": d_score, "area": d_area, "free": d_free}[objective]
        if not chosen and start_flat is not None:
            pass  # the first piece is always worth placing: later ones depend on it
        elif gain.max() <= 0:
            break
        key = gain * 4096 + d_score
        best = np.flatnonzero(key == key.max())
        i = int(cand[best[rng.integers(best.size)]])
        chosen.append(i)
        placed_piece[pl.piece[i]] = True
        pc = pl.cells_of(i)
        empty[pc] = False
        touched = {int(t) for t in label[nbr[i][outer[i]]] if t > 0}
        k = len(sizes)
        sizes.append(int(pl.size[i]) + sum(sizes[t] for t in touched))
        for t in touched:
            label[label == t] = k
            sizes[t] = 0
        label[pc] = k
    return chosen


def add_tree_cut(lm: LayoutModel) -> None:
    """Valid inequality: a counted region of ``k`` atoms holds at least ``k - 1`` contacts.

    An *atom* is a placed piece or a component of the colour's fixed cells. A connected
    region made of ``k`` atoms has at least ``k - 1`` unit edges between different atoms,
    and each is a contact of :func:`add_free_edges` (between two placements, or between a
    placement and a fixed cell). The depth labels of :func:`add_counted_area` imply this
    only through search; stated linearly (a boolean "piece in the region" per piece, tied to
    the region's cells) it enters CP-SAT's LP, whose bound then follows the closed-form
    argument of :mod:`polytile.puzzles.cityblocks.maximum`. Needs :func:`add_free_edges` and
    :func:`add_counted_area` first.

    Raises
    ------
    BoardError
        If the builders it relies on were not called first.

    Notes
    -----
    One boolean per piece and two linear constraints per placement, all of them kept linear
    so that CP-SAT's LP sees them (when presolve does not turn them into clauses).
    """
    if not lm.region or len(lm.contact) != len(lm.pairs):
        raise BoardError("add_tree_cut needs add_free_edges and add_counted_area first")
    m = lm.model
    pl = lm.placements
    board = pl.board
    inside: dict[int, Any] = {}
    for p in range(len(pl.pieces)):
        ids = lm.piece_ids(p)
        if not ids:
            continue
        g = m.new_bool_var(f"g{p}")
        m.add(g <= lm.placed(p))
        for i in ids:
            c = lm.region[int(pl.cells_of(i)[0])]
            m.add(g >= lm.x[i] + c - 1)
            m.add(g <= c + 1 - lm.x[i])
        inside[p] = g
    m.add(
        cp_model.LinearExpr.sum([lm.region[c] for c in lm.cover])
        == cp_model.LinearExpr.weighted_sum(
            list(inside.values()), [int(pl.pieces[p].size) for p in inside]
        )
    )
    reps = [lm.region[board.index(*min(comp))] for comp in components(map(board.cell, lm.own))]
    own_contacts = []
    for f in lm.own:
        r, q = board.cell(f)
        for dr, dc in _ORTHO:
            if (r + dr, q + dc) in board and board.index(r + dr, q + dc) in lm.cover:
                own_contacts.append(lm.cover[board.index(r + dr, q + dc)])
    contacts = cp_model.LinearExpr.sum([*lm.contact.values(), *own_contacts])
    atoms = cp_model.LinearExpr.sum([*inside.values(), *reps])
    m.add(contacts >= atoms - lm.aux["counts"])
    lm.aux["inside"] = inside

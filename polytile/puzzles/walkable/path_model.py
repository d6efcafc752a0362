"""CP-SAT model of the Walkable Cities largest-path puzzle: drops of known pieces, regions.

One player (red) drops a known sequence of pieces on the three boards, the opponent's cells
fixed, to make its largest regions as large as possible (the sum over the boards, or the
number of boards reaching given targets).

Why a selection problem: with the opponent fixed, a cell's state changes only when red drops
on it. A drop legal in the starting position stays legal until a drop of red's own covers
one of its cells, so a sequence of legal drops is exactly a set of pairwise disjoint drops,
each legal in the starting position, one per piece (or a pass), in any order. The only
order that matters is the pass limit (``seeds/walkable-cities.md`` 5.1): after
``pass_limit`` passes in a row the game is over, so no later piece may drop.

Variables
---------
* ``x[i][d]``: piece ``i`` makes its ``d``-th legal drop; ``passed[i]``: it passes. Exactly
  one per piece; each cell is covered at most once (``new[c]``, a boolean per droppable cell).
* Per board, a graph whose nodes are red's existing regions (contracted, weighted by size)
  and the droppable cells (weight 1), with edges between adjacent ones. ``pick[v]`` selects
  the nodes of one connected region: a cell node only if it is dropped (``pick <= new``).
  Connectivity is layered: at most one ``root`` per board (any picked node), and
  ``reach[l][v]``, "picked and within ``l`` steps of the root through picked nodes"; every
  picked node is reached. The region's weight is maximised: at an optimum it is the board's
  largest red region. (A layered encoding propagates: once the drops and the root are
  fixed, unit propagation decides which nodes can be picked. It proved a 3-piece case in
  6 s that an encoding by integer depths left open after 40 s; breaking the root's symmetry
  by "the root is the first picked node" made it slower, 11 s.)

Cuts
----
* ``2 * cells`` layers suffice: picked cells on a board are at most two per piece, and old
  regions on a shortest path lie between them.
* Per board, ``caps[b][m]``: the largest region any ``m`` new cells (in any shape) can make,
  by node-weighted Steiner trees over the old regions (:func:`region_caps`); the region is at
  most the cap of its own number of picked cells (one-hot, so the LP sees it), and the sum of
  the regions at most the best sum of caps over the cells per board the pieces can put down
  together (:func:`caps_bound`).
* Per board, the region is at least the board's largest existing region (adding cells never
  shrinks one), and identical pieces drop in increasing drop order.
* With a target (``at_least``, :func:`build_path_model`) every drop that cannot be part of
  drops reaching it is left out (:func:`useful_drops`): :func:`polytile.puzzles.walkable.
  path.solve_path` asks for more than a greedy incumbent, and infeasible proves it optimal.

Examples
--------
One I4 next to a red pair: two cells join it on one board, two start another board.

>>> import numpy as np
>>> from polytile.puzzles.walkable.board import DEAD, RED
>>> from polytile.solvers.cpsat import solve
>>> cells = np.full(300, DEAD, dtype=np.int8)
>>> cells[[0, 1, 2, 3, 100, 101, 102, 103, 200, 201, 202, 203]] = 0
>>> cells[[0, 1]] = RED
>>> v = build_path_model(cells, ["I4"])
>>> r = solve(v.runner(), workers=1)
>>> r.status, r.objective
('optimal', 6.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from ortools.sat.python import cp_model

from polytile.errors import BoardError
from polytile.models.cpsat import PlacementModel
from polytile.puzzles.walkable.board import (
    BOARDS,
    CELLS,
    PIECES,
    RED,
    SIDE,
    largest_regions,
    legal_drops,
)

__all__ = [
    "MAX_TERMINALS",
    "BoardGraph",
    "PathVars",
    "add_connected_regions",
    "add_drops",
    "add_objective",
    "add_region_caps",
    "board_graphs",
    "build_path_model",
    "caps_bound",
    "forbid_drops",
    "region_caps",
    "split_counts",
    "steiner_caps",
    "useful_drops",
]


class BoardGraph:
    """One board's region graph: red's existing regions contracted, and droppable cells.

    Attributes
    ----------
    board : int
    nodes : list[tuple[int, ...]]
        Each node's global cells: existing regions first (largest first), then one node per
        droppable cell.
    weight : list[int]
        Cells per node.
    olds : int
        How many nodes are existing regions.
    edges : list[tuple[int, int]]
        Adjacent node pairs ``(u, v)``, ``u < v``.
    """

    def __init__(self, board: int, cells: npt.NDArray[np.int8], droppable: set[int]) -> None:
        self.board = board
        base = board * SIDE * SIDE
        owner: dict[int, int] = {}
        regions: list[list[int]] = []
        for g in range(base, base + SIDE * SIDE):
            if cells[g] != RED or g in owner:
                continue
            stack, region = [g], []
            owner[g] = -1
            while stack:
                h = stack.pop()
                region.append(h)
                for n in _neighbours(h):
                    if cells[n] == RED and n not in owner:
                        owner[n] = -1
                        stack.append(n)
            regions.append(sorted(region))
        regions.sort(key=lambda r: (-len(r), r[0]))
        free = sorted(g for g in droppable if base <= g < base + SIDE * SIDE)
        self.nodes: list[tuple[int, ...]] = [tuple(r) for r in regions] + [(g,) for g in free]
        self.olds = len(regions)
        self.weight = [len(n) for n in self.nodes]
        for k, node in enumerate(self.nodes):
            for g in node:
                owner[g] = k
        edges: set[tuple[int, int]] = set()
        for k, node in enumerate(self.nodes):
            for g in node:
                for n in _neighbours(g):
                    j = owner.get(n)
                    if j is not None and j != k:
                        edges.add((min(j, k), max(j, k)))
        self.edges = sorted(edges)

    def neighbours(self) -> list[list[int]]:
        """Per node, its adjacent nodes."""
        out: list[list[int]] = [[] for _ in self.nodes]
        for u, v in self.edges:
            out[u].append(v)
            out[v].append(u)
        return out


def _neighbours(g: int) -> list[int]:
    r, c = g % 100 // SIDE, g % SIDE
    out = []
    if r > 0:
        out.append(g - SIDE)
    if r < SIDE - 1:
        out.append(g + SIDE)
    if c > 0:
        out.append(g - 1)
    if c < SIDE - 1:
        out.append(g + 1)
    return out


def board_graphs(cells: npt.NDArray[np.int8], droppable: set[int]) -> list[BoardGraph]:
    """The three boards' region graphs for red's cells and the given droppable cells."""
    return [BoardGraph(b, cells, droppable) for b in range(BOARDS)]


class _DropRunner(PlacementModel):
    """Lets :func:`polytile.solvers.cpsat.solve` (time limits, Ctrl-C, progress) run the
    path model and read back its drops: "placement" ``offset[i] + d`` is drop ``d`` of
    piece ``i``."""

    def __init__(self, model: cp_model.CpModel, x: dict[int, Any]) -> None:
        # No Placements behind this model: set only what solve() and extract() read.
        self.model = model
        self.x = x
        self.free_auxiliary = True


class PathVars:
    """The variables of a largest-path puzzle, and what they mean.

    Parameters
    ----------
    cells
        The starting position (300 cells, see :mod:`polytile.puzzles.walkable.board`).
    sequence
        The pieces red drops, in order (names of :data:`~polytile.puzzles.walkable.board.PIECES`).
    pass_limit
        Passes in a row that end the game.
    keep
        If given, per piece a mask of its legal drops to keep (see :func:`useful_drops`):
        the others cannot help, so "pass" then stands for them too (and the pass limit is
        left to the caller, who may turn such passes back into drops).
    model
        Add to this model instead of a new one.

    Attributes
    ----------
    drops : list[numpy.ndarray]
        Per piece, its legal drops in the starting position (rows of 4 global cells).
    x : list[list[IntVar]]
        Per piece, a boolean per legal drop.
    passed : list[IntVar]
        Per piece, a boolean "passes".
    new : dict[int, IntVar]
        Per droppable cell, "some drop covers it".
    graphs : list[BoardGraph]
    pick : list[list[IntVar]]
        Per board and node, "in the chosen region".
    region, picked_cells : list[IntVar]
        Per board, the chosen region's size and its number of new cells.
    base : list[int]
        Per board, red's largest existing region.

    Raises
    ------
    BoardError
        For a malformed position, an unknown piece or a pass limit below 1.
    """

    def __init__(self, cells: npt.ArrayLike, sequence: Sequence[str], *, pass_limit: int = 3,
                 keep: Sequence[npt.NDArray[np.bool_]] | None = None,
                 model: cp_model.CpModel | None = None) -> None:  # fmt: skip
        arr = np.array(cells, dtype=np.int8)  # a writable copy: numba takes no read-only one
        if arr.shape != (CELLS,) or arr.min() < 0 or arr.max() > 3:
            raise BoardError(f"a Walkable Cities position is {CELLS} cells of 0..3")
        bad = [p for p in sequence if p not in PIECES]
        if bad:
            raise BoardError(f"unknown pieces {bad}; expected names of {PIECES}")
        if pass_limit < 1:
            raise BoardError(f"the pass limit is at least 1, got {pass_limit}")
        self.cells = arr
        self.sequence = tuple(sequence)
        self.pass_limit = int(pass_limit)
        self.model = model if model is not None else cp_model.CpModel()
        m = self.model
        self.drops = [legal_drops(arr, p) for p in self.sequence]
        self.pruned = keep is not None
        if keep is not None:
            self.drops = [t[k] for t, k in zip(self.drops, keep, strict=True)]
        self.x = [[m.new_bool_var(f"x{i}_{d}") for d in range(len(t))]
                  for i, t in enumerate(self.drops)]  # fmt: skip
        self.passed = [m.new_bool_var(f"pass{i}") for i in range(len(self.sequence))]
        cover: dict[int, list[Any]] = {}
        for i, table in enumerate(self.drops):
            for d, row in enumerate(table.tolist()):
                for g in row:
                    cover.setdefault(g, []).append(self.x[i][d])
        self._cover = cover
        self.new: dict[int, Any] = {}
        self.graphs = board_graphs(arr, set(cover))
        self.base = [int(v) for v in largest_regions(arr)[0]]
        self.pick: list[list[Any]] = []
        self.region: list[Any] = []
        self.picked_cells: list[Any] = []
        self.hit: list[Any] = []
        self.offset = np.cumsum([0] + [len(t) for t in self.drops]).tolist()

    def most_cells(self) -> int:
        """The most new cells one board can get: two per piece."""
        return 2 * len(self.sequence)

    def runner(self) -> PlacementModel:
        """An adapter for :func:`polytile.solvers.cpsat.solve` whose "placements" are the
        drops, numbered ``offset[i] + d`` (read back with :meth:`chosen`)."""
        x = {self.offset[i] + d: v for i, row in enumerate(self.x) for d, v in enumerate(row)}
        return _DropRunner(self.model, x)

    def chosen(self, placements: Sequence[int]) -> list[npt.NDArray[np.int16] | None]:
        """Per piece, the cells of its chosen drop (None: it passes), from the numbers a
        :meth:`runner` solve returns."""
        out: list[npt.NDArray[np.int16] | None] = [None] * len(self.sequence)
        for k in placements:
            i = int(np.searchsorted(self.offset, k, side="right")) - 1
            out[i] = self.drops[i][k - self.offset[i]]
        return out


def add_drops(v: PathVars) -> None:
    """Each piece drops once or passes; no cell is covered twice; no drop after
    ``pass_limit`` passes in a row; identical pieces drop in increasing drop order."""
    m = v.model
    for i in range(len(v.sequence)):
        m.add_exactly_one([*v.x[i], v.passed[i]])
    for g, lits in sorted(v._cover.items()):
        b = m.new_bool_var(f"new{g}")
        m.add(cp_model.LinearExpr.sum(lits) == b)
        v.new[g] = b
    k = v.pass_limit
    for i in range(0 if not v.pruned else len(v.sequence), len(v.sequence) - k):
        run = v.passed[i : i + k]
        for j in range(i + k, len(v.sequence)):
            m.add_bool_or([*(p.Not() for p in run), v.passed[j]])
    index = []
    for i, row in enumerate(v.x):
        idx = m.new_int_var(0, max(len(row) - 1, 0), f"drop{i}")
        if row:
            m.add(idx == cp_model.LinearExpr.weighted_sum(row, list(range(len(row)))))
        index.append(idx)
    for i in range(len(v.sequence)):
        for j in range(i + 1, len(v.sequence)):
            if v.sequence[j] == v.sequence[i]:
                m.add(index[i] < index[j]).only_enforce_if(v.passed[i].Not(), v.passed[j].Not())
                break  # the next copy carries the order on


def add_connected_regions(v: PathVars) -> None:
    """Per board, one connected region of red cells (old and new) of size ``region[b]``.

    Notes
    -----
    Connectivity by layers of reach from one root (see the module's notes): ``2 *
    most_cells()`` layers of ``n`` booleans per board.
    """
    for b, graph in enumerate(v.graphs):
        pick, region, cells = _region(v.model, graph, v.new, v.most_cells(), f"{b}")
        v.model.add(region >= v.base[b])
        v.pick.append(pick)
        v.region.append(region)
        v.picked_cells.append(cells)


def _region(m: cp_model.CpModel, graph: BoardGraph, new: dict[int, Any], most: int,
            tag: str) -> tuple[list[Any], Any, Any]:  # fmt: skip
    """One board's connected region: its node booleans, its size and its new cells."""
    n = len(graph.nodes)
    pick = [m.new_bool_var(f"pick{tag}_{k}") for k in range(n)]
    for k in range(graph.olds, n):
        m.add_implication(pick[k], new[graph.nodes[k][0]])
    root = [m.new_bool_var(f"root{tag}_{k}") for k in range(n)]
    m.add_at_most_one(root)
    for k in range(n):
        m.add_implication(root[k], pick[k])
        m.add_bool_or([pick[k].Not(), *root])  # a root whenever anything is picked
    # reach[l][k]: node k is picked and within l steps of the root through picked nodes; a
    # layered encoding, so that fixing the drops decides the regions by unit propagation.
    nbrs = graph.neighbours()
    reach = [root]
    for layer in range(1, 2 * most + 1):
        prev = reach[-1]
        cur = [m.new_bool_var(f"reach{tag}_{layer}_{k}") for k in range(n)]
        for k in range(n):
            m.add_implication(cur[k], pick[k])
            m.add_implication(prev[k], cur[k])
            m.add_bool_or([cur[k].Not(), prev[k], *(prev[j] for j in nbrs[k])])
            for j in nbrs[k]:
                m.add_bool_or([prev[j].Not(), pick[k].Not(), cur[k]])
        reach.append(cur)
    for k in range(n):
        m.add_implication(pick[k], reach[-1][k])
    region = m.new_int_var(0, sum(graph.weight), f"region{tag}")
    m.add(region == cp_model.LinearExpr.weighted_sum(pick, graph.weight))
    cells = m.new_int_var(0, most, f"picked{tag}")
    m.add(cells == cp_model.LinearExpr.sum(pick[graph.olds :]))
    return pick, region, cells


def region_caps(v: PathVars) -> list[list[int]]:
    """Per board ``b`` and ``m = 0 .. most_cells()``: an upper bound on the largest region
    that ``m`` new cells (any of board ``b``'s droppable cells, in any shape) can make.

    A region with ``f <= m`` new cells that holds the old regions ``S`` has ``w(S) + f``
    cells, and its new cells connect ``S``: ``f >= st(S)``, the fewest cells joining ``S``
    (a node-weighted Steiner tree). So the cap is the best ``w(S) + m`` over the ``S`` with
    ``st(S) <= m`` (``m`` alone for ``S`` empty), exact whenever a region can grow by
    spare cells. ``st`` comes from the Dreyfus-Wagner dynamic programme over subsets of
    old regions; with more than :data:`MAX_TERMINALS` of them the cap is the board's whole
    red area plus ``m``.
    """
    return [steiner_caps(graph, v.most_cells())[0] for graph in v.graphs]


#: Old regions per board beyond which :func:`steiner_caps` gives the cheap bound (3^t work).
MAX_TERMINALS = 12


def steiner_caps(graph: BoardGraph, most: int) -> tuple[list[int], npt.NDArray[np.int64]]:
    """The caps of :func:`region_caps` for one board, and per node ``v`` and count ``m``,
    ``node_caps[m, v]``: the same bound for regions that hold node ``v``.

    Notes
    -----
    ``O(3^t n + 2^t n d)`` for ``t`` old regions, ``n`` nodes and ``d`` relaxation rounds.
    """
    t, n = graph.olds, len(graph.nodes)
    counts = np.arange(most + 1, dtype=np.int64)
    if t == 0 or t > MAX_TERMINALS:
        red = int(sum(graph.weight[:t]))
        node_caps = np.repeat((counts + red)[:, None], n, axis=1)
        return [red + m for m in range(most + 1)], node_caps
    cost = np.ones(n, dtype=np.int64)
    cost[:t] = 0
    src = np.array([u for u, w in graph.edges] + [w for u, w in graph.edges], dtype=np.int64)
    dst = np.array([w for u, w in graph.edges] + [u for u, w in graph.edges], dtype=np.int64)
    full = 1 << t
    dp = np.full((full, n), 10**6, dtype=np.int64)  # dp[S, v]: fewest cells joining S and v
    dp[0] = cost
    weights = np.zeros(full, dtype=np.int64)
    for mask in range(1, full):
        low = mask & -mask
        k = low.bit_length() - 1
        weights[mask] = weights[mask ^ low] + graph.weight[k]
        row = dp[mask]
        if mask == low:
            row[k] = 0
        else:
            sub = (mask - 1) & mask
            while sub:
                if sub < mask ^ sub:
                    np.minimum(row, dp[sub] + dp[mask ^ sub] - cost, out=row)
                sub = (sub - 1) & mask
        dp[mask] = _relax(row, cost, src, dst)
    # A region holding v with m cells: w(S) + m for some S with dp[S, v] <= m.
    node_caps = np.stack([np.where(dp <= m, weights[:, None], -(10**6)).max(axis=0) + m
                          for m in range(most + 1)])  # fmt: skip
    node_caps = np.where(node_caps < counts[:, None], -(10**6), node_caps)
    caps = [max(m, int(node_caps[m].max())) for m in range(most + 1)]
    return caps, node_caps


def _relax(
    row: npt.NDArray[np.int64],
    cost: npt.NDArray[np.int64],
    src: npt.NDArray[np.int64],
    dst: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:
    """Shortest node-weighted paths out of ``row`` (Bellman-Ford, vectorised over edges)."""
    row = row.copy()
    while True:
        cand = row[src] + cost[dst]
        new = row.copy()
        np.minimum.at(new, dst, cand)
        if (new == row).all():
            return row
        row = new


def useful_drops(v: PathVars, at_least: int) -> list[npt.NDArray[np.bool_]]:
    """Per piece, a mask over ``v.drops[i]``: the drops that can be part of drops whose
    regions sum to ``at_least`` or more.

    A drop's bound: over every count of cells per board the other pieces can put down
    (``R``), the sum over boards of what the board can hold with the drop's ``q_b`` cells
    and ``R_b`` more: either a region without the drop's cells (the caps with ``R_b``
    cells) or one holding one of them (the node caps of those cells with ``q_b + R_b``).
    """
    tables = [steiner_caps(graph, v.most_cells()) for graph in v.graphs]
    top = v.most_cells()
    where = [{g.nodes[k][0]: k for k in range(g.olds, len(g.nodes))} for g in v.graphs]
    options = split_counts(v)
    out = []
    for i, table in enumerate(v.drops):
        rest: set[tuple[int, ...]] = {(0,) * BOARDS}
        for j, opts in enumerate(options):
            if j != i:
                rest = {tuple(min(a + b, top) for a, b in zip(r, o, strict=True))
                        for r in rest for o in opts}  # fmt: skip
        rows = np.asarray(table, dtype=np.int64)
        n = len(rows)
        if n == 0:
            out.append(np.zeros(0, dtype=bool))
            continue
        per_board = []  # per board: (n, top + 1) caps with the drop's cells
        for b in range(BOARDS):
            caps = np.array(tables[b][0], dtype=np.int64)
            node_caps = tables[b][1]
            on = rows // 100 == b
            q = on.sum(axis=1)
            best = np.full((n, top + 1), -(10**6), dtype=np.int64)
            for col in range(4):
                idx = np.array([where[b].get(int(g), -1) for g in rows[:, col]])
                sel = on[:, col] & (idx >= 0)
                best[sel] = np.maximum(best[sel], node_caps[:, idx[sel]].T)
            counts = np.arange(top + 1)
            without = np.where(
                counts[None, :] >= q[:, None],
                caps[np.clip(counts[None, :] - q[:, None], 0, top)],
                -(10**6),
            )
            per_board.append((np.maximum(best, without), q))
        bound = np.full(n, -(10**6), dtype=np.int64)
        for r in rest:
            total = np.zeros(n, dtype=np.int64)
            for b, (cap, q) in enumerate(per_board):
                total += cap[np.arange(n), np.minimum(q + r[b], top)]
            np.maximum(bound, total, out=bound)
        out.append(bound >= at_least)
    return out


def split_counts(v: PathVars) -> list[set[tuple[int, int, int]]]:
    """Per piece, the cells per board its legal drops can put down (``(0, 0, 0)``: a pass)."""
    out = []
    for table in v.drops:
        boards = np.asarray(table, dtype=np.int64) // 100
        counts = np.stack([(boards == b).sum(axis=1) for b in range(BOARDS)], axis=1)
        out.append({(0, 0, 0), *(tuple(int(c) for c in row) for row in np.unique(counts, axis=0))})
    return out  # type: ignore[return-value]


def _reach(v: PathVars) -> set[tuple[int, ...]]:
    reach: set[tuple[int, ...]] = {(0,) * BOARDS}
    for options in split_counts(v):
        reach = {tuple(a + b for a, b in zip(r, o, strict=True)) for r in reach for o in options}
    return reach


def caps_bound(v: PathVars, caps: Sequence[Sequence[int]]) -> int:
    """The best sum of caps over the cells per board the pieces can put down together."""
    return max(sum(caps[b][min(r[b], len(caps[b]) - 1)] for b in range(BOARDS))
               for r in _reach(v))  # fmt: skip


def add_region_caps(v: PathVars, caps: Sequence[Sequence[int]]) -> None:
    """Each board's region is at most the cap of its number of picked new cells (one-hot,
    so the LP sees it), and the regions' sum at most :func:`caps_bound`."""
    m = v.model
    for b in range(BOARDS):
        ys = [m.new_bool_var(f"count{b}_{k}") for k in range(len(caps[b]))]
        m.add_exactly_one(ys)
        m.add(v.picked_cells[b] == cp_model.LinearExpr.weighted_sum(ys, range(len(ys))))
        m.add(v.region[b] <= cp_model.LinearExpr.weighted_sum(ys, list(caps[b])))
    m.add(cp_model.LinearExpr.sum(v.region) <= caps_bound(v, caps))
    per_board = [
        cp_model.LinearExpr.sum([v.new[g] for g in v.new if g // 100 == b]) for b in range(BOARDS)
    ]
    for b in range(BOARDS):
        m.add(v.picked_cells[b] <= per_board[b])


def add_objective(v: PathVars, targets: Sequence[int] | None = None) -> Any:
    """Maximise the sum of the regions, or with ``targets`` the number of boards whose
    region reaches its target. Returns the objective expression."""
    m = v.model
    if targets is None:
        expr = cp_model.LinearExpr.sum(v.region)
    else:
        if len(targets) != BOARDS:
            raise BoardError(f"{BOARDS} targets, one per board, not {len(targets)}")
        for b, t in enumerate(targets):
            hit = m.new_bool_var(f"hit{b}")
            m.add(v.region[b] >= int(t)).only_enforce_if(hit)
            v.hit.append(hit)
        expr = cp_model.LinearExpr.sum(v.hit)
    m.maximize(expr)
    return expr


def build_path_model(cells: npt.ArrayLike, sequence: Sequence[str], *,
                     targets: Sequence[int] | None = None, pass_limit: int = 3,
                     caps: bool = True, at_least: int | None = None) -> PathVars:  # fmt: skip
    """The whole largest-path model: drops, regions, caps (unless ``caps=False``) and the
    objective. Solve it with ``polytile.solvers.cpsat.solve(v.runner())``.

    With ``at_least`` (sum objective only) the model asks for regions summing to at least
    that: drops that cannot help reach it (:func:`useful_drops`) are left out (see
    :class:`PathVars`), and infeasible means no drops reach ``at_least``.
    """
    keep = None
    if at_least is not None:
        if targets is not None:
            raise BoardError("at_least applies to the sum objective, not to targets")
        keep = useful_drops(PathVars(cells, sequence, pass_limit=pass_limit), at_least)
    v = PathVars(cells, sequence, pass_limit=pass_limit, keep=keep)
    add_drops(v)
    add_connected_regions(v)
    if caps:
        add_region_caps(v, region_caps(v))
    expr = add_objective(v, targets)
    if at_least is not None:
        v.model.add(expr >= at_least)
    return v


def forbid_drops(v: PathVars, drops: Sequence[Sequence[int]]) -> None:
    """Forbid one drop sequence: at least one piece must not make the drop it makes there
    (it drops elsewhere, or passes). ``drops[i]`` is piece ``i``'s drop as its 4 global cells.

    Used to prove an optimum unique: with the drops of one optimal answer forbidden, a model
    asking for the same total is infeasible exactly when no other sequence reaches it.

    Raises
    ------
    BoardError
        If the sequence has the wrong length, or a drop is not among ``v.drops[i]`` (then
        the model cannot make it anyway, or pruning left it out and "pass" stands for it).
    """
    if len(drops) != len(v.sequence):
        raise BoardError(f"{len(drops)} drops for {len(v.sequence)} pieces")
    made = []
    for i, cells in enumerate(drops):
        row = np.array(sorted(int(g) for g in cells), dtype=np.int16)
        same = (np.asarray(v.drops[i]) == row).all(axis=1) if len(row) == 4 else np.zeros(0, bool)
        hit = np.nonzero(same)[0]
        if len(hit) == 0:
            raise BoardError(f"piece {i + 1} ({v.sequence[i]}): {row.tolist()} is not one of "
                             "the model's drops")  # fmt: skip
        made.append(v.x[i][int(hit[0])])
    v.model.add_bool_or([x.Not() for x in made])

"""The Blokus teaser "eighty-four": all 84 pieces on the board, with a legal play order.

The rules are seeds/blokus.md 8.2: every colour's 21 pieces on the 20x20 board, each colour
one corner-connected group on its start corner with no same-colour edge contact. This module
finds answers with a 90-degree rotational symmetry: yellow is blue turned a quarter about the
board's centre (the turn :func:`rotate` maps blue's corner (0,0) onto yellow's (0,19)), red
a half turn, green three quarters. Then only blue's pieces are chosen, under one extra rule:
blue's 89 cells lie in 89 distinct orbits of the turn (100 orbits of 4 cells), which keeps the
four colours apart. Every other rule for yellow, red and green follows from blue's by
symmetry.

Search, in two stages that restart until one succeeds:

1. a randomized greedy plays blue's first few pieces (largest first) as in a real game,
   preferring moves that waste fewest orbits (an orbit none of whose cells blue may use any
   more is lost; only 11 may be lost in all) and keep most corners open;
2. CP-SAT completes the layout (remaining pieces, orbits, no edge contact, corner
   connectivity from (0,0)) over the few hundred placements still possible, with a short
   time limit; when it proves the start hopeless, stage 1 starts again.

The play order is a breadth-first walk of blue's corner contacts from its corner piece; the
other colours play the turned copies in the same order. :func:`solve_eighty_four` checks the
answer with :func:`polytile.puzzles.blokus.teasers.check_eighty_four` before returning it.
:func:`solve_one_color` does the same for one colour's 21 pieces on a smaller board (no
symmetry).

Examples
--------
>>> solution, order = solve_eighty_four(seed=1)  # doctest: +SKIP
>>> len(solution.placements), order[:4]  # doctest: +SKIP
(84, [0, 21, 42, 63])
>>> rotate((0, 0)), rotate((0, 19)), rotate((19, 19))
((0, 19), (19, 19), (19, 0))
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np

from polytile.board import Board, Placements, placements
from polytile.errors import BoardError, SolverError
from polytile.formats import COLORS, PlacedPiece, Solution
from polytile.geometry import Cell, piece_set
from polytile.models.cpsat import (
    PlacementModel,
    add_connected_corner_groups,
    add_cover_groups_at_most,
    add_local_corner_touch,
    add_no_edge_same_color,
    add_piece_exactly_once,
    add_start_corners,
)
from polytile.puzzles.blokus.teasers import BOARD_SIZE, check_eighty_four, check_one_color
from polytile.solvers.cpsat import CpResult, solve

__all__ = [
    "Layout",
    "LayoutNotFound",
    "LayoutResult",
    "SearchProgress",
    "greedy_start",
    "layout_model",
    "play_order",
    "rotate",
    "search_layout",
    "solve_eighty_four",
    "solve_one_color",
    "symmetric_layout",
]


class LayoutNotFound(SolverError):
    """The layout search ran out of time: an outcome, not a bug (no layout was proven
    impossible either)."""


Seed = int | np.random.Generator | None

_EDGE = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def rotate(cell: Cell, size: int = BOARD_SIZE, times: int = 1) -> Cell:
    """Turn ``cell`` a quarter ``times`` times about the centre of a ``size`` square board.

    The turn maps ``(r, c)`` to ``(c, size - 1 - r)``: blue's corner to yellow's, yellow's to
    red's, red's to green's.
    """
    r, c = cell
    for _ in range(times % 4):
        r, c = c, size - 1 - r
    return (r, c)


@dataclass(frozen=True)
class SearchProgress:
    """Where a teaser search stands, passed to the ``progress`` callback after each try.

    Attributes
    ----------
    attempts
        Greedy starts tried so far.
    completions
        Of those, how many reached the CP-SAT completion.
    seconds
        Time since the search began.
    last
        Status of the last completion (``"feasible"``, ``"infeasible"``, ``"unknown"``), or
        ``"greedy"`` when the last start failed before the completion.
    """

    attempts: int
    completions: int
    seconds: float
    last: str


class Layout:
    """One colour's pieces on a square board, with optional orbits its cells must not share.

    Holds every placement of the 21 Blokus pieces whose cells lie in distinct orbits, with
    bitmasks (Python integers, bit ``r * size + c``) of their cells, of their cells' orbits,
    of their edge neighbours and of their corner cells, for the greedy stage.

    Parameters
    ----------
    size
        Side of the square board.
    start
        The colour's start cell.
    orbit_of
        Orbit number of each flat cell; None gives every cell its own orbit.

    Notes
    -----
    Building is O(placements x piece size); the 20x20 symmetric layout has 29,784 usable
    placements of 30,433 and takes about a second.
    """

    def __init__(self, size: int, start: Cell, orbit_of: Sequence[int] | None = None) -> None:
        if not 5 <= size <= BOARD_SIZE or start not in Board(size, size):
            raise BoardError(f"a layout needs a board of side 5 to 20 holding {start}")
        self.size = size
        self.start = start
        self.pieces = piece_set("blokus")
        self.placements: Placements = placements(Board(size, size), self.pieces)
        orbit = list(range(size * size)) if orbit_of is None else [int(o) for o in orbit_of]
        groups: dict[int, list[int]] = {}
        for cell, o in enumerate(orbit):
            groups.setdefault(o, []).append(cell)
        self.orbits: list[list[int]] = list(groups.values())
        masks = {o: sum(1 << c for c in cs) for o, cs in groups.items()}
        self.orbit_masks = [masks[o] for o in groups]
        slot = {o: k for k, o in enumerate(groups)}
        self.budget = len(groups) - sum(p.size for p in self.pieces)  # orbits left empty
        pl = self.placements
        self.ids: list[int] = []
        self.piece: list[int] = []
        self.sizes: list[int] = []
        self.cells: list[int] = []
        self.occ: list[int] = []
        self.adj: list[int] = []
        self.cor: list[int] = []
        self.adj_orbits: list[list[int]] = []
        self.by_cell: list[list[int]] = [[] for _ in range(size * size)]
        for i in range(len(pl)):
            own = [(int(r), int(c)) for r, c in pl.coords_of(i)]
            flat = [r * size + c for r, c in own]
            if len({orbit[c] for c in flat}) < len(flat):
                continue  # it would meet its own turned copy
            ring = _ring(own, size, _EDGE)
            corners = _ring(own, size, _DIAGONAL) - ring
            k = len(self.ids)
            self.ids.append(i)
            self.piece.append(int(pl.piece[i]))
            self.sizes.append(len(flat))
            self.cells.append(sum(1 << c for c in flat))
            self.occ.append(sum(masks[orbit[c]] for c in flat))
            self.adj.append(sum(1 << c for c in ring))
            self.cor.append(sum(1 << c for c in corners))
            self.adj_orbits.append(sorted({slot[orbit[c]] for c in ring}))
            for c in flat:
                self.by_cell[c].append(k)

    def groups(self) -> list[list[int]]:
        """The orbits of more than one cell (flat indices), for the CP-SAT model."""
        return [cs for cs in self.orbits if len(cs) > 1]


def _ring(own: Sequence[Cell], size: int, steps: tuple[tuple[int, int], ...]) -> set[int]:
    cells = set(own)
    return {
        (r + dr) * size + c + dc
        for r, c in own
        for dr, dc in steps
        if 0 <= r + dr < size and 0 <= c + dc < size and (r + dr, c + dc) not in cells
    }


@cache
def symmetric_layout() -> Layout:
    """Blue's layout for the symmetric "eighty-four" search (orbits of the quarter turn)."""
    n = BOARD_SIZE
    orbit = []
    for r in range(n):
        for c in range(n):
            images = [rotate((r, c), n, k) for k in range(4)]
            orbit.append(min(a * n + b for a, b in images))
    return Layout(n, (0, 0), orbit)


@cache
def _plain_layout(size: int) -> Layout:
    return Layout(size, (0, 0))


# -- stage 1: the greedy start ---------------------------------------------------------------
def _python_rng(seed: Seed) -> random.Random:
    gen = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return random.Random(int(gen.integers(2**63)))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def greedy_start(
    layout: Layout, n_pieces: int, seed: Seed | random.Random = None
) -> list[int] | None:
    """Play ``n_pieces`` of the colour's pieces greedily; the placement indices, or None.

    Each move takes a largest piece that still fits somewhere legal; among its moves it
    prefers the fewest newly lost orbits, then the most open corners, with random noise
    deciding near-ties. Moves that lose more orbits than the layout can spare are never
    made. None when the colour gets stuck first.

    Parameters
    ----------
    layout
        The layout tables.
    n_pieces
        How many pieces to play.
    seed
        An int, a numpy Generator, a :class:`random.Random` (used as is) or None.

    Notes
    -----
    Each move scans the placements covering the colour's open corners: a few hundred, with
    integer bitmask tests.
    """
    rng = seed if isinstance(seed, random.Random) else _python_rng(seed)
    start = layout.start[0] * layout.size + layout.start[1]
    occupied = blocked = corners = 0
    used: set[int] = set()
    lost = 0
    chosen: list[int] = []
    om = layout.orbit_masks
    for step in range(n_pieces):
        if step == 0:
            cands: set[int] = set(layout.by_cell[start])
        else:
            cands = set()
            for c in _bits(corners & ~(occupied | blocked)):
                cands.update(layout.by_cell[c])
        best: tuple[tuple[int, int, float], int, int] | None = None
        for k in cands:
            if layout.piece[k] in used or layout.cells[k] & (occupied | blocked):
                continue
            if step and not layout.cells[k] & corners:
                continue
            occ = occupied | layout.occ[k]
            blk = blocked | layout.adj[k]
            new_lost = sum(
                1
                for o in layout.adj_orbits[k]
                if not om[o] & occ and not om[o] & ~blk and om[o] & ~blocked
            )
            if lost + new_lost > layout.budget:
                continue
            live = ((corners | layout.cor[k]) & ~(occ | blk)).bit_count()
            key = (layout.sizes[k], -new_lost, live + 3.0 * rng.random())
            if best is None or key > best[0]:
                best = (key, k, new_lost)
        if best is None:
            return None
        _, k, new_lost = best
        occupied |= layout.occ[k]
        blocked |= layout.adj[k]
        corners |= layout.cor[k]
        used.add(layout.piece[k])
        lost += new_lost
        chosen.append(layout.ids[k])
    return chosen


# -- stage 2: the CP-SAT completion ----------------------------------------------------------
def layout_model(
    layout: Layout,
    fixed: Sequence[int] = (),
    *,
    local_touch: bool = True,
    method: Literal["flow", "depth"] = "depth",
) -> PlacementModel:
    """The CP-SAT model of the colour's layout, with the placements ``fixed`` already made.

    Only placements that avoid the fixed pieces' cells, orbits and edge neighbours get a
    variable. Constraints: each piece exactly once, distinct orbits, no same-colour edge
    contact, the start cell covered, one corner-connected group on it (and, redundantly,
    every piece corner-touching another when ``local_touch``).

    Parameters
    ----------
    layout
        The layout tables.
    fixed
        Placement indices (into ``layout.placements``) forced into the solution.
    local_touch
        Add the redundant local corner-touch clauses.
    method
        Connectivity encoding, ``"flow"`` or ``"depth"``.
    """
    pl = layout.placements
    index = {i: k for k, i in enumerate(layout.ids)}
    occupied = blocked = 0
    done: set[int] = set()
    for i in fixed:
        if i not in index:
            raise BoardError(f"placement {i} is not usable in this layout")
        occupied |= layout.occ[index[i]]
        blocked |= layout.adj[index[i]]
        done.add(int(pl.piece[i]))
    keep = np.zeros(len(pl), dtype=bool)
    for k, i in enumerate(layout.ids):
        if layout.piece[k] not in done and not layout.cells[k] & (occupied | blocked):
            keep[i] = True
    keep[list(fixed)] = True
    pm = PlacementModel(pl, [0] * len(pl.pieces), keep=keep)
    for i in fixed:
        pm.model.add(pm.x[i] == 1)
    add_piece_exactly_once(pm)
    add_cover_groups_at_most(pm, layout.orbits)
    add_no_edge_same_color(pm)
    add_start_corners(pm, {0: layout.start})
    if local_touch:
        add_local_corner_touch(pm)
    add_connected_corner_groups(pm, roots={0: layout.start}, method=method)
    return pm


@dataclass(frozen=True)
class LayoutResult:
    """A layout found by :func:`search_layout`, with what the search cost.

    Attributes
    ----------
    placements
        The colour's placement indices (into ``layout.placements``).
    attempts, completions
        Greedy starts tried, and CP-SAT completions run on them.
    seconds, greedy_seconds, cpsat_seconds
        Total time, and the parts spent in the greedy and in CP-SAT (building included).
    """

    placements: list[int]
    attempts: int
    completions: int
    seconds: float
    greedy_seconds: float
    cpsat_seconds: float


def search_layout(
    layout: Layout,
    *,
    seed: Seed = None,
    time_limit: float | None = 60,
    workers: int | None = None,
    progress: Callable[[SearchProgress], None] | None = None,
    greedy_pieces: int = 12,
    completion_limit: float = 5.0,
    local_touch: bool = True,
    method: Literal["flow", "depth"] = "depth",
) -> LayoutResult:
    """Greedy starts completed by CP-SAT, restarted until a layout is found.

    Parameters are those of :func:`solve_eighty_four`, plus ``local_touch`` and ``method``
    for :func:`layout_model`.

    Raises
    ------
    SolverError
        If nothing is found within ``time_limit``.
    KeyboardInterrupt
        On Ctrl-C, after stopping the running completion.
    """
    gen = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    rng = _python_rng(gen)
    started = time.perf_counter()
    attempts = completions = 0
    greedy_s = cpsat_s = 0.0
    while True:
        now = time.perf_counter()
        left = None if time_limit is None else time_limit - (now - started)
        if left is not None and left <= 0:
            raise LayoutNotFound(
                f"no layout found in {time_limit:g} s ({attempts} starts, {completions} "
                "completions); try a longer time limit or another seed"
            )
        attempts += 1
        start = greedy_start(layout, greedy_pieces, rng)
        greedy_s += time.perf_counter() - now
        result: CpResult | None = None
        if start is None:
            last = "greedy"
        else:
            now = time.perf_counter()
            completions += 1
            pm = layout_model(layout, start, local_touch=local_touch, method=method)
            limit = completion_limit if left is None else min(completion_limit, left)
            result = solve(pm, time_limit=limit, workers=workers, seed=int(gen.integers(2**31)))
            cpsat_s += time.perf_counter() - now
            if result.stopped_by == "interrupt":
                raise KeyboardInterrupt
            last = result.status
        seconds = time.perf_counter() - started
        if progress is not None:
            progress(SearchProgress(attempts, completions, seconds, last))
        if result is not None and result.found:
            return LayoutResult(
                result.placements, attempts, completions, seconds, greedy_s, cpsat_s
            )


# -- play order and solutions ----------------------------------------------------------------
def play_order(pieces: Sequence[Sequence[Cell]], start: Cell) -> list[int]:
    """A legal order for one colour's pieces: breadth-first over corner contacts.

    Parameters
    ----------
    pieces
        Each piece's cells.
    start
        The start cell; the piece covering it goes first.

    Returns
    -------
    list of int
        Indices into ``pieces``; each piece after the first touches an earlier one at a
        corner.

    Raises
    ------
    SolverError
        If no piece covers ``start`` or the pieces are not one corner-connected group.
    """
    owner = {tuple(cell): i for i, cells in enumerate(pieces) for cell in cells}
    root = owner.get(tuple(start))
    if root is None:
        raise SolverError(f"no piece covers the start cell {start}")
    order = [root]
    seen = {root}
    todo = deque([root])
    while todo:
        i = todo.popleft()
        near = {
            owner[(r + dr, c + dc)]
            for r, c in pieces[i]
            for dr, dc in _DIAGONAL
            if (r + dr, c + dc) in owner
        }
        for j in sorted(near - seen):
            seen.add(j)
            order.append(j)
            todo.append(j)
    if len(order) != len(pieces):
        raise SolverError("the pieces are not one corner-connected group")
    return order


def solve_eighty_four(
    seed: Seed = None,
    time_limit: float | None = 60,
    workers: int | None = None,
    progress: Callable[[SearchProgress], None] | None = None,
    *,
    greedy_pieces: int = 12,
    completion_limit: float = 5.0,
) -> tuple[Solution, list[int]]:
    """A verified answer to "eighty-four" (90-degree symmetric) and its play order.

    Parameters
    ----------
    seed
        Randomness of the greedy starts and of CP-SAT; None for fresh randomness.
    time_limit
        Seconds for the whole search; None for no limit.
    workers
        CP-SAT workers for each completion; None lets CP-SAT use every core.
    progress
        Called with a :class:`SearchProgress` after each start.
    greedy_pieces
        Blue pieces the greedy places before CP-SAT completes the layout.
    completion_limit
        Seconds allowed to each CP-SAT completion before starting again.

    Returns
    -------
    (Solution, list of int)
        The 84 placements, grouped by colour (blue, yellow, red, green; each colour's pieces
        in play order), and the play order as indices into them: B, Y, R, G repeating.
        The order is also in ``solution.extra["order"]``.

    Raises
    ------
    SolverError
        If nothing is found within ``time_limit``, or (a bug) the answer fails the rules check.
    KeyboardInterrupt
        On Ctrl-C, which stops the running completion first.

    Notes
    -----
    On 2 cores: about 0.5 s median over seeds 0-4 (1.2 s in a fresh process, tables and
    imports included), 1.2 s median over 15 other seeds, worst seen 5 s
    (``benchmarks/bench_teasers.py``). Most of the time goes to CP-SAT completions that
    prove a greedy start hopeless; the direct CP-SAT models find nothing in 60 s.
    """
    started = time.perf_counter()
    layout = symmetric_layout()
    found = search_layout(
        layout,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
        progress=progress,
        greedy_pieces=greedy_pieces,
        completion_limit=completion_limit,
    )
    blue, attempts = found.placements, found.attempts
    pl = layout.placements
    cells = [pl.coords_of(i) for i in blue]
    names = [pl.pieces[int(pl.piece[i])].name for i in blue]
    order_blue = play_order(cells, layout.start)
    placed = [
        PlacedPiece(names[j], tuple(rotate(cell, BOARD_SIZE, k) for cell in cells[j]), color)
        for k, color in enumerate(COLORS)
        for j in order_blue
    ]
    order = [k * 21 + t for t in range(21) for k in range(4)]
    seconds = round(time.perf_counter() - started, 3)
    solution = Solution(
        "eighty-four",
        BOARD_SIZE,
        BOARD_SIZE,
        tuple(placed),
        "feasible",
        extra={"order": order, "symmetry": "rotation-90", "attempts": attempts, "seconds": seconds},
    )
    reasons = check_eighty_four(solution, order)
    if reasons:
        raise SolverError(f"eighty-four answer failed the rules check: {'; '.join(reasons)}")
    return solution, order


def solve_one_color(
    board_size: int = 14,
    seed: Seed = None,
    time_limit: float | None = 60,
    workers: int | None = None,
    progress: Callable[[SearchProgress], None] | None = None,
    *,
    greedy_pieces: int = 15,
    completion_limit: float = 5.0,
) -> tuple[Solution, list[int]]:
    """One colour's 21 pieces on a ``board_size`` square from corner (0,0), with an order.

    The colour's pieces form one corner-connected group on (0,0) with no edge contact, as in
    a game where the other colours never move. Same search and parameters as
    :func:`solve_eighty_four`, without the symmetry.

    Returns
    -------
    (Solution, list of int)
        The 21 blue placements in play order, and that order (``0 .. 20``).

    Raises
    ------
    BoardError
        If ``board_size`` is not 5 to 20.
    SolverError
        If nothing is found within ``time_limit`` (boards under 12 or so have no answer).
    """
    started = time.perf_counter()
    layout = _plain_layout(board_size)
    found = search_layout(
        layout,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
        progress=progress,
        greedy_pieces=greedy_pieces,
        completion_limit=completion_limit,
    )
    blue, attempts = found.placements, found.attempts
    pl = layout.placements
    cells = [pl.coords_of(i) for i in blue]
    order_blue = play_order(cells, layout.start)
    placed = tuple(
        PlacedPiece(pl.pieces[int(pl.piece[blue[j]])].name, tuple(cells[j]), "blue")
        for j in order_blue
    )
    order = list(range(len(placed)))
    solution = Solution(
        f"one-color-{board_size}x{board_size}",
        board_size,
        board_size,
        placed,
        "feasible",
        extra={"order": order, "attempts": attempts, "seconds": time.perf_counter() - started},
    )
    reasons = check_one_color(solution, order, board_size)
    if reasons:
        raise SolverError(f"one-colour answer failed the rules check: {'; '.join(reasons)}")
    return solution, order

"""City Blocks (Ritchie): the best layout of one colour's pieces, with a proof of optimality.

:func:`max_layout` places the pieces a colour still holds on a position (by default the
starting board: four centre squares, nothing else) so as to maximise its score
(``area + free``), its counted area or its free edges, under the placement rules of
``seeds/cityblocks-ritchie.md`` (no overlap, the first piece covers the start corner). The
model is CP-SAT (:mod:`polytile.models.cityblocks`); the answer is ``"optimal"`` only when
proven.

Optimality is proven in one of two ways. (1) A closed-form upper bound
(:func:`theoretical_bound`, argued below) is the upper end of the objective variable, so a
layout that meets it is optimal and CP-SAT stops at once. (2) Without it, CP-SAT's own bound
has to close the gap; the valid "tree cut" (:func:`~polytile.models.cityblocks.add_tree_cut`)
puts the bound argument into its LP. A greedy layout
(:func:`~polytile.models.cityblocks.greedy_placements`) is the hint. On the starting board
it meets the bound of every objective (each colour, seeds 0-9): **score 261, area 89,
free 211**, proven in about 1 s with (1), and in about 30 s (score), 10 s (free) with (2)
(2 workers; ``benchmarks/bench_cityblocks_max.py``).

Notes
-----
**The bound.** Split the colour's final cells into *atoms*: the colour's components in the
current position (on the starting board only its centre square) and the pieces it places.
Count the unit edges from the colour's cells outward.

* A placed piece ``p`` has ``perim(p)`` outer edges (6 for I2; 8 for I3, V3, O4; 10 for the
  other tetrominoes and P5; 12 for the other pentominoes: 212 for the set). Some can never
  be free: edges on the border or against cells another colour occupies in the position.
  ``loss(p)`` is the least number of those over the piece's placements (0 on an open board).
  The first piece must cover the start cell; at a board corner every piece of two or more
  cells has at least 3 border edges there (the corner's two and one of its neighbour in the
  piece). With ``loss_first`` the least such count over placements covering the start cell,
  the losses add up to at least ``sum(loss) + first_extra``, ``first_extra = max(0,
  loss_first - max(loss))`` (3 on the starting board).
* The atoms already on the board keep at most their present free edges (``free_now``; 2 for
  a centre square, whose other two neighbours are other colours' centre squares).
* Each unit edge between two atoms of the colour (a *contact*) is lost on both sides.

So ``free <= free_now + sum(perim - loss) - first_extra - 2 * contacts``. The counted region
is a connected union ``R`` of atoms, which needs at least ``|R| - 1`` contacts, so
``score <= free_now + sum(perim - loss) - first_extra + 2 + sum(size(a) - 2 for a in R)``.
An atom of ``s >= 2`` cells adds ``s - 2 >= 0``, a single square ``-1``: the right side is
largest with every atom of two or more cells in ``R`` (``2 + ...`` drops when there is none):

* ``score <= 2 + 212 - 3 + 2 + (88 - 2 * 20) = 261`` on the starting board;
* ``free <= free_now + sum(perim - loss) - first_extra`` (``2 + 212 - 3 = 211``);
* ``area <=`` the colour's cells if every piece is placed (89).

Placing fewer pieces never raises a right side (``perim - loss >= 0``, ``size - 2 >= 0``),
so these bound every legal layout, passes included.

**Meeting it, and the alternatives.** 261 needs all 20 pieces in one region joined by
exactly 19 unit-edge contacts (a tree), the corner piece with exactly 3 border edges (I2 or
V3, or a W5, L- or Z-shape turned away from the border), no other edge on the border or
against another colour, and the centre square left alone: joining it gains 1 cell of area
and costs 2 free edges (260, what the area-optimal layout scores). Leaving I2 out of the
region ties (-2 area, +2 free); leaving any bigger piece out loses ``size - 2``; not placing
a piece loses ``perim - 2 + ...``. Pieces meeting only at corners are not connected, so they
are free-edge-wise apart and area-wise separate: no gain. Area 89 needs the region to reach
the centre square from the corner (18 cells of the 88 suffice); free 211 needs all pieces
apart with only the corner piece on the border.

Examples
--------
>>> b = theoretical_bound()
>>> b.score, b.area, b.free
(261, 89, 211)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polytile.board import Board, placements
from polytile.errors import BoardError, SolverError, UnknownNameError
from polytile.formats import COLORS, PlacedPiece, Position, Solution
from polytile.geometry import Cell, Polyomino, piece, piece_set
from polytile.models.cityblocks import (
    LayoutModel,
    add_counted_area,
    add_first_piece,
    add_free_edges,
    add_tree_cut,
    complete_hint,
    greedy_placements,
    placement_edges,
)
from polytile.models.cpsat import add_piece_at_most_once
from polytile.regions import components
from polytile.solvers.cpsat import CpResult, ProgressFn, solve

__all__ = [
    "CENTRE_SQUARES",
    "OBJECTIVES",
    "SOLVER_DEFAULTS",
    "Bound",
    "MaxLayout",
    "max_layout",
    "measure",
    "start_cells",
    "starting_rows",
    "theoretical_bound",
]

#: CP-SAT parameters :func:`max_layout` starts from. Presolve off keeps the contact and
#: tree-cut inequalities linear, so the LP of the one full-problem worker (of 2) sees them
#: (presolve makes clauses of them, which that LP ignores). On a crowded 20x20 position the
#: free-edge proof took 0.0 s instead of none in 60 s; on the starting board the score proof
#: without the closed-form bound 30 s instead of none in 120 s.
SOLVER_DEFAULTS: dict[str, Any] = {"cp_model_presolve": False}
#: The objectives :func:`max_layout` knows.
OBJECTIVES = ("score", "area", "free")
#: The fixed centre squares of the 20x20 board, by colour name.
CENTRE_SQUARES: dict[str, Cell] = {
    "blue": (9, 9),
    "yellow": (9, 10),
    "red": (10, 10),
    "green": (10, 9),
}
_LETTER = dict(COLORS)
_ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))


def start_cells(rows: int = 20, cols: int = 20) -> dict[str, Cell]:
    """Each colour's start cell: the board's corners, blue top-left then clockwise."""
    r, c = rows - 1, cols - 1
    return {"blue": (0, 0), "yellow": (0, c), "red": (r, c), "green": (r, 0)}


def starting_rows() -> tuple[str, ...]:
    """The 20x20 starting board as rows of text: the four centre squares, the rest empty."""
    grid = [["."] * 20 for _ in range(20)]
    for name, (r, c) in CENTRE_SQUARES.items():
        grid[r][c] = _LETTER[name]
    return tuple("".join(row) for row in grid)


def measure(rows: Sequence[str], color: str = "blue") -> tuple[int, int]:
    """``(area, free)`` of a colour on a board given as rows of ``. # B Y R G``.

    Examples
    --------
    >>> measure(starting_rows(), "red")
    (0, 2)
    """
    letter = _letter(color)
    n_rows, n_cols = len(rows), len(rows[0]) if rows else 0
    mine = {(r, c) for r in range(n_rows) for c in range(n_cols) if rows[r][c] == letter}
    free = sum(
        1
        for r, c in mine
        for dr, dc in _ORTHO
        if 0 <= r + dr < n_rows and 0 <= c + dc < n_cols and rows[r + dr][c + dc] == "."
    )
    comps = components(mine)
    best = len(comps[0]) if comps else 0
    return (best if best >= 2 else 0), free


def _letter(color: str) -> str:
    key = color.strip().lower()
    if key not in _LETTER:
        raise UnknownNameError("colour", color, list(_LETTER))
    return _LETTER[key]


# -- the position ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Setup:
    rows: tuple[str, ...]
    color: str
    letter: str
    hand: tuple[Polyomino, ...]
    start: Cell
    first_placed: bool

    @property
    def board(self) -> Board:
        blocked = frozenset(
            (r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch != "."
        )
        return Board(len(self.rows), len(self.rows[0]), blocked)

    @property
    def own(self) -> list[Cell]:
        return [(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row)
                if ch == self.letter]  # fmt: skip


def _setup(
    color: str,
    position: Position | Sequence[str] | str | None,
    hand: Sequence[str | Polyomino] | None,
    start: Cell | None,
) -> _Setup:
    letter = _letter(color)
    name = color.strip().lower()
    hands: dict[str, tuple[str, ...]] = {}
    if position is None:
        rows = starting_rows()
    elif isinstance(position, Position):
        rows = position.board
        hands = dict(position.hands)
    elif isinstance(position, str):
        rows = tuple(position.split())
    else:
        rows = tuple(position)
    if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
        raise BoardError("the position needs equal, non-empty rows")
    bad = {ch for row in rows for ch in row} - set(".#BYRG")
    if bad:
        raise BoardError(f"unknown cell characters {sorted(bad)}; use . # B Y R G")
    if start is None:
        start = start_cells(len(rows), len(rows[0]))[name]
    if not (0 <= start[0] < len(rows) and 0 <= start[1] < len(rows[0])):
        raise BoardError(f"start cell {start} lies outside the board")
    first_placed = rows[start[0]][start[1]] == letter
    if hand is None:
        if name in hands:
            hand = list(hands[name])
        elif not first_placed:
            hand = list(piece_set("cityblocks"))
        else:
            raise BoardError(
                f"{name} has placed pieces already: give the pieces still in hand (hand=...)"
            )
    pieces = tuple(p if isinstance(p, Polyomino) else piece(p) for p in hand)
    return _Setup(tuple(rows), name, letter, pieces, start, first_placed)


# -- the bound -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bound:
    """Closed-form upper bounds of one colour's score, area and free edges on a position.

    Attributes
    ----------
    score, area, free
        The bounds (see the module notes for the argument).
    terms
        The numbers they are made of: ``free_now``, ``perimeters`` (sum over placeable
        pieces), ``losses`` (sum of each piece's least unavoidable loss), ``first_extra``,
        ``atom_gain`` (``2 + sum(size - 2)`` over atoms of 2 or more cells, else 0),
        ``cells`` (the colour's cells if every placeable piece is placed), ``now_score``.
    """

    score: int
    area: int
    free: int
    terms: dict[str, int] = field(default_factory=dict)

    def of(self, objective: str) -> int:
        """The bound of one objective (``"score"``, ``"area"`` or ``"free"``)."""
        return {"score": self.score, "area": self.area, "free": self.free}[objective]

    def explain(self) -> str:
        """The bound's arithmetic in one line per objective."""
        t = self.terms
        return (
            f"free  <= {t['free_now']} + {t['perimeters']} - {t['losses']} - "
            f"{t['first_extra']} = {self.free}\n"
            f"area  <= {t['cells']} cells = {self.area}\n"
            f"score <= {self.free} + {t['atom_gain']} = {self.score}"
        )


def theoretical_bound(
    color: str = "blue",
    position: Position | Sequence[str] | str | None = None,
    hand: Sequence[str | Polyomino] | None = None,
    start: Cell | None = None,
) -> Bound:
    """Closed-form upper bounds of a colour's score, area and free edges (module notes).

    Parameters
    ----------
    color, position, hand, start
        As in :func:`max_layout`.

    Returns
    -------
    Bound

    Raises
    ------
    BoardError, UnknownNameError
        As :func:`max_layout`.

    Notes
    -----
    O(placements x piece size) to find each piece's least unavoidable loss.
    """
    return _bound(_setup(color, position, hand, start))


def _bound(setup: _Setup, pl: Any = None) -> Bound:
    board = setup.board
    if pl is None:
        pl = placements(board, setup.hand)
    own_flat = [board.index(*c) for c in setup.own]
    edges = placement_edges(pl, own_flat)
    perim = edges["free"] + edges["own"] + edges["foreign"]
    covers = (pl.cells == board.index(*setup.start)).any(axis=1)
    # Nothing covers the start cell (taken, or no room): the colour can never place a piece.
    usable = np.full(len(pl), setup.first_placed or bool(covers.any()))
    placeable = [p for p in range(len(setup.hand)) if usable[pl.piece == p].any()]
    loss = {p: int(edges["foreign"][usable & (pl.piece == p)].min()) for p in placeable}
    first_extra = 0
    if not setup.first_placed and placeable:
        first_extra = max(0, int(edges["foreign"][covers].min()) - max(loss.values()))
    free_now = measure(setup.rows, setup.color)[1]
    perimeters = int(sum(int(perim[pl.piece == p][0]) for p in placeable))
    losses = sum(loss.values())
    atoms = [len(c) for c in components(setup.own)] + [setup.hand[p].size for p in placeable]
    big = [s for s in atoms if s >= 2]
    atom_gain = 2 + sum(s - 2 for s in big) if big else 0
    free = free_now + perimeters - losses - first_extra if placeable else free_now
    cells = sum(atoms)
    now_score = sum(measure(setup.rows, setup.color))
    area = cells if cells >= 2 else 0
    score = max(now_score, free + atom_gain)
    terms = {
        "free_now": free_now,
        "perimeters": perimeters,
        "losses": losses,
        "first_extra": first_extra,
        "atom_gain": atom_gain,
        "cells": cells,
        "now_score": now_score,
    }
    return Bound(score=score, area=area, free=free, terms=terms)


# -- the search ------------------------------------------------------------------------------
@dataclass(frozen=True)
class MaxLayout:
    """The best layout found for one colour, and how good it is known to be.

    Attributes
    ----------
    color, objective
        What was maximised.
    status
        ``"optimal"`` (proven best), ``"feasible"`` (a layout, not proven best) or
        ``"unknown"`` (none found: the search stopped before its first layout).
    value
        The objective of the layout, measured on the board (None without a layout).
    bound
        The best proven upper bound: the smaller of CP-SAT's bound and, with ``use_bound``,
        the closed-form one; equal to ``value`` when optimal. None if nothing is known.
    proof
        How optimality was proven: ``"bound"`` (the layout meets the closed-form bound),
        ``"search"`` (CP-SAT closed the gap), or None.
    theoretical
        The closed-form bounds (:class:`Bound`).
    score, area, free
        The layout's measures (None without a layout).
    solution
        The placed pieces (colour named); ``extra`` holds ``board`` (the final rows),
        ``objective``, ``value``, ``bound``, ``proof``, ``score``, ``area``,
        ``free``.
    rows
        The final board as rows of text.
    cp
        The CP-SAT run (statistics, raw objective and bound).
    """

    color: str
    objective: str
    status: str
    value: int | None
    bound: int | None
    proof: str | None
    theoretical: Bound
    score: int | None
    area: int | None
    free: int | None
    solution: Solution | None
    rows: tuple[str, ...]
    cp: CpResult

    @property
    def proven(self) -> bool:
        """True when the layout is proven best."""
        return self.status == "optimal"


def max_layout(
    color: str = "blue",
    objective: str = "score",
    *,
    position: Position | Sequence[str] | str | None = None,
    hand: Sequence[str | Polyomino] | None = None,
    start: Cell | None = None,
    time_limit: float | None = 60.0,
    workers: int | None = 2,
    seed: int | None = 0,
    use_bound: bool = True,
    tree_cut: bool = True,
    hint: bool | Sequence[PlacedPiece] = True,
    progress: ProgressFn | None = None,
    stop: Callable[[], bool] | None = None,
    parameters: dict[str, Any] | None = None,
) -> MaxLayout:
    """Place a colour's remaining pieces for the best score, area or free edges.

    Parameters
    ----------
    color
        ``"blue"``, ``"yellow"``, ``"red"`` or ``"green"``.
    objective
        ``"score"`` (area + free edges), ``"area"`` or ``"free"``.
    position
        The board: None for the 20x20 starting board, a :class:`~polytile.formats.Position`
        (its ``hands`` give the pieces in hand), or rows of ``. # B Y R G`` (a list, or one
        string of whitespace-separated rows). Other colours' cells stay as they are.
    hand
        Pieces the colour still holds (names or shapes); by default the position's hand, or
        the whole City Blocks set when the colour has not placed its first piece.
    start
        The colour's start cell; by default its board corner. The first piece must cover it;
        once the colour holds it, pieces go anywhere.
    time_limit, workers, seed
        CP-SAT search limits (seconds, workers, random seed); the seconds count from this
        call, building the model included.
    use_bound
        Use the closed-form bound (:func:`theoretical_bound`): as the upper end of the
        objective in the model (a proven inequality, so it never removes a layout; CP-SAT
        stops as soon as a layout meets it) and as a proof of optimality. False leaves the
        proof to CP-SAT alone.
    tree_cut
        For the score, add the valid inequality of
        :func:`~polytile.models.cityblocks.add_tree_cut` (a region of ``k`` atoms has at
        least ``k - 1`` contacts), which brings CP-SAT's own LP bound to the closed-form one.
    hint
        True (default): start from the greedy layout of
        :func:`~polytile.models.cityblocks.greedy_placements` (on the starting board it meets
        the bound of every objective); or the placed pieces of a layout to start from; False
        for none.
    progress, stop, parameters
        Passed to :func:`polytile.solvers.cpsat.solve`; ``parameters`` override
        :data:`SOLVER_DEFAULTS`.

    Returns
    -------
    MaxLayout

    Raises
    ------
    UnknownNameError
        For an unknown colour, objective or piece name.
    BoardError
        For a malformed position, or a hand that cannot be inferred.

    Examples
    --------
    >>> r = max_layout("red", "free", position=["R..", "...", "..."], hand=["I2"],
    ...                start=(0, 0), workers=1)
    >>> r.status, r.value, r.theoretical.free
    ('optimal', 7, 7)
    """
    if objective not in OBJECTIVES:
        raise UnknownNameError("objective", objective, list(OBJECTIVES))
    started = time.perf_counter()
    setup = _setup(color, position, hand, start)
    board = setup.board
    pl = placements(board, setup.hand)
    bound = _bound(setup, pl)
    lm = LayoutModel(pl, setup.own)
    add_piece_at_most_once(lm)
    if not setup.first_placed:
        add_first_piece(lm, setup.start)
    if objective == "area":
        expr = add_counted_area(lm)
    elif objective == "free":
        expr = add_free_edges(lm)
    else:
        expr = add_free_edges(lm) + add_counted_area(lm)
        if tree_cut:
            add_tree_cut(lm)
    # The objective as a variable: with the bound as its upper end, CP-SAT stops as soon as
    # a layout reaches it (a cut on the expression alone does not tighten its reported bound).
    top = bound.of(objective) if use_bound else _trivial_top(lm, objective)
    value = lm.model.new_int_var(0, top, "objective")
    lm.model.add(value == expr)
    lm.model.maximize(value)
    chosen = _hint_ids(setup, lm, objective, hint, seed)
    if chosen is not None:
        complete_hint(lm, chosen)
        lm.model.add_hint(value, _value(setup, pl, chosen, objective))
    if time_limit is not None:  # building the model spent part of it
        time_limit = max(time_limit - (time.perf_counter() - started), 0.01)
    cp = solve(lm, time_limit=time_limit, workers=workers, seed=seed, progress=progress,
               stop=stop, parameters={**SOLVER_DEFAULTS, **(parameters or {})})  # fmt: skip
    return _result(setup, pl, objective, bound, use_bound, cp, chosen)


def _trivial_top(lm: LayoutModel, objective: str) -> int:
    cells = len(lm.own) + int(sum(p.size for p in lm.placements.pieces))
    edges = 4 * cells
    return {"score": cells + edges, "area": cells, "free": edges}[objective]


def _hint_ids(
    setup: _Setup,
    lm: LayoutModel,
    objective: str,
    hint: bool | Sequence[PlacedPiece],
    seed: int | None,
) -> list[int] | None:
    if hint is False:
        return None
    if hint is True:
        start = None if setup.first_placed else setup.start
        return greedy_placements(lm.placements, lm.own, objective, start, seed)
    return _ids_of(lm, list(hint))


def _value(setup: _Setup, pl: Any, ids: Sequence[int], objective: str) -> int:
    """The objective of a placement set, measured on the board."""
    area, free = measure(_apply(setup, pl, ids), setup.color)
    return {"score": area + free, "area": area, "free": free}[objective]


def _apply(setup: _Setup, pl: Any, ids: Sequence[int]) -> tuple[str, ...]:
    grid = [list(r) for r in setup.rows]
    for i in ids:
        for r, c in pl.coords_of(i):
            if grid[r][c] != ".":
                raise SolverError(f"cell {(r, c)} covered twice")
            grid[r][c] = setup.letter
    return tuple("".join(r) for r in grid)


def _ids_of(lm: LayoutModel, layout: Sequence[PlacedPiece]) -> list[int]:
    """Placement indices of placed pieces, matched by cells (and name where it helps)."""
    pl = lm.placements
    board = pl.board
    index: dict[frozenset[int], list[int]] = {}
    for i in lm.x:
        index.setdefault(frozenset(map(int, pl.cells_of(i))), []).append(i)
    used: set[int] = set()
    out = []
    for pp in layout:
        key = frozenset(board.index(r, c) for r, c in pp.cells)
        cands = [i for i in index.get(key, []) if int(pl.piece[i]) not in used]
        named = [i for i in cands if pl.pieces[int(pl.piece[i])].name == pp.piece]
        pick = (named or cands)[:1]
        if not pick:
            raise BoardError(f"hinted {pp.piece} on {list(pp.cells)} is not a legal placement")
        used.add(int(pl.piece[pick[0]]))
        out.extend(pick)
    return out


def _result(
    setup: _Setup,
    pl: Any,
    objective: str,
    bound: Bound,
    use_bound: bool,
    cp: CpResult,
    fallback: Sequence[int] | None,
) -> MaxLayout:
    theory = bound.of(objective) if use_bound else None
    known = [b for b in (theory, None if cp.bound is None else int(np.floor(cp.bound + 1e-6)))
             if b is not None]  # fmt: skip
    best_bound = min(known) if known else None
    ids: Sequence[int] | None = cp.placements if cp.found else None
    if ids is not None and cp.status == "optimal":
        got = _value(setup, pl, ids, objective)
        if cp.objective is None or got != round(cp.objective):
            raise SolverError(
                f"model and rules disagree: CP-SAT optimum {cp.objective}, measured {got}"
            )
    if fallback is not None and (
        ids is None or _value(setup, pl, fallback, objective) > _value(setup, pl, ids, objective)
    ):
        ids = list(fallback)  # the hint beats what the search returned (stopped early)
    if ids is None:
        return MaxLayout(setup.color, objective, "unknown", None, best_bound, None, bound, None,
                         None, None, None, setup.rows, cp)  # fmt: skip
    rows = _apply(setup, pl, ids)
    placed = tuple(
        PlacedPiece(pl.pieces[int(pl.piece[i])].name, tuple(pl.coords_of(i)), setup.color)
        for i in ids
    )
    area, free = measure(rows, setup.color)
    score = area + free
    value = {"score": score, "area": area, "free": free}[objective]
    proof = None
    if theory is not None and value >= theory:
        proof = "bound"
    elif cp.status == "optimal" and ids is cp.placements:
        proof = "search"
    status = "optimal" if proof else "feasible"
    if proof:
        best_bound = value
    solution = Solution(
        puzzle=f"cityblocks-max-{setup.color}-{objective}",
        rows=len(rows),
        cols=len(rows[0]),
        placements=placed,
        status=status,
        extra={"board": list(rows), "objective": objective, "value": value,
               "bound": best_bound, "proof": proof, "score": score, "area": area, "free": free},
    )  # fmt: skip
    return MaxLayout(setup.color, objective, status, value, best_bound, proof, bound, score, area,
                     free, solution, rows, cp)  # fmt: skip

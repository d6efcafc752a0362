"""CP-SAT builders for the City Blocks lower bound: opponents covering one colour's free edges.

When a colour places nothing more, its cells never change, so its area is fixed and only its
free edges can fall: an opponent's piece on an empty cell beside the colour takes away one
free edge per cell of the colour next to it. The least score the colour can be left with is
therefore its area plus its free edges now minus the most *weight* the opponents' remaining
pieces can cover, where an empty cell weighs the number of the colour's cells beside it
(:func:`free_edge_weights`).

A :class:`CoverModel` is a :class:`~polytile.models.cpsat.PlacementModel` over the pieces the
opponents hold (colour per piece), on a board whose blocked cells are the occupied cells of
the position. Only placements that cover a weighted cell, or cover an unstarted opponent's
start cell, get a variable: any other placement changes nothing for the colour. The builders

* :func:`add_first_pieces` (an opponent that has not started must cover its start cell with
  one of its own pieces before placing anything else),
* :func:`add_opening` (when the game is about to end by passes, one of the colours that may
  still move before it ends must place first),
* :func:`covered_weight` (the objective: the weight covered)

add their constraints and return what they measure; :mod:`polytile.puzzles.cityblocks.bounds`
combines them with :func:`~polytile.models.cpsat.add_piece_at_most_once` and
:func:`~polytile.models.cpsat.add_cover_at_most`.

Examples
--------
A blue square with two empty neighbours on a 1x3 strip; a yellow domino can cover both of
them at once only when it lies on both, which no domino can (they are not adjacent).

>>> from polytile import Board, piece
>>> from polytile.board import placements
>>> from polytile.models.cpsat import add_cover_at_most, add_piece_at_most_once
>>> from polytile.solvers.cpsat import solve
>>> rows = ["..", "B.", "##"]
>>> w = free_edge_weights(rows, "B")
>>> sorted(w.items())
[((0, 0), 1), ((1, 1), 1)]
>>> board = Board(3, 2, frozenset({(1, 0), (2, 0), (2, 1)}))
>>> cm = CoverModel(placements(board, [piece("I2")]), [1], w)
>>> add_piece_at_most_once(cm)
>>> add_cover_at_most(cm)
>>> cm.model.maximize(covered_weight(cm))
>>> solve(cm, workers=1).objective  # the domino on (0,0),(0,1) or (0,1),(1,1)
1.0
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from ortools.sat.python import cp_model

from polytile.board import Placements
from polytile.errors import BoardError
from polytile.geometry import Cell
from polytile.models.cpsat import PlacementModel

__all__ = ["CoverModel", "add_first_pieces", "add_opening", "covered_weight", "free_edge_weights"]

_ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))


def free_edge_weights(rows: Sequence[str], letter: str) -> dict[Cell, int]:
    """Per empty cell beside the colour ``letter``, the number of its cells beside it.

    The weights sum to the colour's free edges: covering a cell of weight ``w`` removes ``w``
    of them.

    Examples
    --------
    >>> free_edge_weights([".B.", "B.."], "B")
    {(0, 0): 2, (0, 2): 1, (1, 1): 2}
    """
    n_rows, n_cols = len(rows), len(rows[0]) if rows else 0
    out: dict[Cell, int] = {}
    for r in range(n_rows):
        for c in range(n_cols):
            if rows[r][c] != ".":
                continue
            w = sum(
                1
                for dr, dc in _ORTHO
                if 0 <= r + dr < n_rows and 0 <= c + dc < n_cols and rows[r + dr][c + dc] == letter
            )
            if w:
                out[r, c] = w
    return out


class CoverModel(PlacementModel):
    """The opponents' remaining pieces on a position, and the weight of the cells they cover.

    Parameters
    ----------
    placements
        Placements of every opponent piece in hand (one entry per piece and colour) on a
        board whose blocked cells are the occupied cells of the position.
    colors
        The colour index of each piece (``placements.pieces``).
    weights
        Weight of each empty cell (``(row, col)`` or flat), see :func:`free_edge_weights`.
    starts
        Per colour index that has not placed its first piece, its start cell: placements
        covering it are kept too, whatever their weight.
    keep_colors
        Colour indices that may open the game (:func:`add_opening`), where a placement that
        covers nothing may matter: for each of their pieces, one placement clear of every
        other kept placement is kept too (any such one does, whatever the others chosen),
        or every placement of the piece when none is clear.
    model
        Add to this model instead of a new one.

    Attributes
    ----------
    weight : dict[int, int]
        Weight per flat cell.
    gain : dict[int, int]
        Per kept placement, the weight of its cells.
    starts : dict[int, int]
        Flat start cell per unstarted colour.
    opening : frozenset[int] or None
        The colours that may open the game, once :func:`add_opening` has run.

    Raises
    ------
    BoardError
        If a weighted cell is blocked on the board.

    Notes
    -----
    Keeps O(placements touching a weighted cell) booleans: on a mid-game 20x20 position, a
    few thousand of the tens of thousands of placements.
    """

    def __init__(
        self,
        placements: Placements,
        colors: Sequence[int],
        weights: Mapping[Cell, int] | Mapping[int, int],
        starts: Mapping[int, Cell | int] | None = None,
        *,
        keep_colors: Collection[int] = (),
        model: cp_model.CpModel | None = None,
    ) -> None:
        board = placements.board
        weight: dict[int, int] = {}
        for cell, w in weights.items():
            flat = board.index(*cell) if isinstance(cell, tuple) else int(cell)
            r, c = board.cell(flat)
            if not board.is_open(r, c):
                raise BoardError(f"weighted cell {(r, c)} must be empty (open) on the board")
            weight[flat] = int(w)
        start_flat: dict[int, int] = {}
        for k, cell in (starts or {}).items():
            start_flat[int(k)] = board.index(*cell) if isinstance(cell, tuple) else int(cell)
        keep = _keep(placements, colors, weight, start_flat, keep_colors)
        super().__init__(placements, list(colors), keep=keep, model=model)
        self.weight = weight
        self.starts = start_flat
        table = np.zeros(board.size + 1, dtype=np.int64)  # the extra slot absorbs the padding
        for flat, w in weight.items():
            table[flat] = w
        gains = table[placements.cells].sum(axis=1)
        self.gain: dict[int, int] = {i: int(gains[i]) for i in self.x}
        self.opening: frozenset[int] | None = None

    def trim(self, chosen: Collection[int]) -> list[int]:
        """``chosen`` without the placements that cover no weight and that no constraint
        needs (a first piece on a start cell, the one piece that opens the game).

        The covered weight stays the same and the set stays feasible; solvers pad optimal
        answers with such idle pieces, which would only clutter a picture.
        """
        out = sorted(set(map(int, chosen)))
        for i in [i for i in out if not self.gain[i]]:
            rest = [j for j in out if j != i]
            if self._feasible(rest):
                out = rest
        return out

    def _feasible(self, chosen: Sequence[int]) -> bool:
        colors = {self.color_of(i) for i in chosen}
        for k, s in self.starts.items():
            if k in colors and not any(
                self.color_of(i) == k and s in self.placements.cells_of(i) for i in chosen
            ):
                return False
        return not chosen or self.opening is None or bool(colors & self.opening)


def _keep(
    pl: Placements,
    colors: Sequence[int],
    weight: Mapping[int, int],
    starts: Mapping[int, int],
    keep_colors: Collection[int],
) -> npt.NDArray[np.bool_]:
    size = pl.board.size
    hot = np.zeros(size + 1, dtype=bool)
    hot[list(weight)] = True
    keep = np.asarray(hot[pl.cells].any(axis=1), dtype=bool)
    color_of = np.asarray(colors, dtype=np.int64)[pl.piece] if len(pl) else np.zeros(0, np.int64)
    for k, s in starts.items():
        keep |= (color_of == k) & (pl.cells == s).any(axis=1)
    opening = np.isin(color_of, list(keep_colors))
    if not opening.any():
        return keep
    used = np.zeros(size + 1, dtype=bool)
    used[pl.cells[keep]] = True
    used[size] = False  # the padding
    clear = ~np.asarray(used[pl.cells].any(axis=1), dtype=bool)
    for p in np.unique(pl.piece[opening]).tolist():
        rows = np.flatnonzero((pl.piece == p) & ~keep)
        free = rows[clear[rows]]
        keep[free[:1] if free.size else rows] = True
    return keep


def covered_weight(cm: CoverModel) -> Any:
    """Linear expression: the weight of the cells the chosen placements cover.

    Exact once no cell is covered twice (:func:`~polytile.models.cpsat.add_cover_at_most`).
    """
    ids = [i for i in cm.x if cm.gain[i]]
    return cp_model.LinearExpr.weighted_sum([cm.x[i] for i in ids], [cm.gain[i] for i in ids])


def add_first_pieces(cm: CoverModel) -> None:
    """An opponent that has not started places nothing unless one of its own pieces covers
    its start cell (:attr:`CoverModel.starts`).

    Notes
    -----
    One constraint per placement of an unstarted colour: ``x <= has(colour, start)``. When
    no piece of the colour can cover its start cell, all its placements are forbidden.
    """
    for k, s in cm.starts.items():
        own = cm.color_cell(k, s)
        for i, var in cm.x.items():
            if cm.color_of(i) == k:
                cm.model.add(var <= own)


def add_opening(cm: CoverModel, opening: Collection[int]) -> None:
    """If anything is placed, some placement is of a colour in ``opening``.

    Used when passes already made would end the game before some colours move again: then
    the first piece placed must come from a colour whose seat moves before that, and after it
    everyone may move again. With every colour in ``opening`` this adds nothing; otherwise
    the model must keep every placement of the opening colours (``keep_colors``), since one
    that covers nothing may still be what lets the others move.
    """
    colors = set(opening)
    cm.opening = frozenset(colors)
    first = [v for i, v in cm.x.items() if cm.color_of(i) in colors]
    later = [v for i, v in cm.x.items() if cm.color_of(i) not in colors]
    if not later:
        return
    if not first:
        for v in later:
            cm.model.add(v == 0)
        return
    opened = cm.model.new_bool_var("opened")
    cm.model.add(opened <= cp_model.LinearExpr.sum(first))
    for v in later:
        cm.model.add_implication(v, opened)

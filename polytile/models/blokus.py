"""CP-SAT builders for Blokus layouts (bounds of what a colour can still place).

Each builder adds one family of constraints to a
:class:`~polytile.models.cpsat.PlacementModel` of one colour's placements.
"""

from __future__ import annotations

from collections.abc import Sequence

from ortools.sat.python import cp_model

from polytile.models.cpsat import PlacementModel

__all__ = ["add_rooted", "maximize_piece_squares"]

_ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def add_rooted(pm: PlacementModel, roots: set[int], n_pieces: int) -> None:
    """Every covered cell is joined to a root cell (an attach point) through covered cells
    that are 8-neighbours, with strictly decreasing depth. Pieces of one colour meet only at
    corners, so this says every piece is reached from X's attach points through a chain of
    corner-touching pieces: the pieces can be placed one by one, each touching X."""
    m = pm.model
    board = pm.placements.board
    cells = [c for c in range(board.size) if pm.cell_ids(c, 0)]
    has = {c: pm.color_cell(0, c) for c in cells}
    present = set(cells)
    top = min(len(cells), 5 * n_pieces)
    depth = {c: m.new_int_var(0, top, f"d{c}") for c in cells}
    pm.free_auxiliary = True
    for c in cells:
        if c in roots:
            continue
        r0, c0 = board.cell(c)
        lits = [has[c].Not()]
        for dr, dc in _ORTHO + _DIAG:
            if (r0 + dr, c0 + dc) not in board:
                continue
            b = board.index(r0 + dr, c0 + dc)
            if b not in present:
                continue
            par = m.new_bool_var(f"p{b}_{c}")
            m.add_implication(par, has[b])
            m.add(depth[c] >= depth[b] + 1).only_enforce_if(par)
            lits.append(par)
        m.add_bool_or(lits)


def maximize_piece_squares(pm: PlacementModel, sizes: Sequence[int], cells: int) -> None:
    """Maximise the squares of the pieces placed, with a 0/1 variable per piece (so CP-SAT's
    bound never exceeds the squares in hand) and at most ``cells`` squares in all."""
    used = [pm.model.new_bool_var(f"u{p}") for p in range(len(sizes))]
    for p, var in enumerate(used):
        pm.model.add(pm.placed(p) == var)
    pm.model.add(pm.squares() <= cells)
    pm.model.maximize(cp_model.LinearExpr.weighted_sum(used, list(sizes)))

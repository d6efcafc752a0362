"""The Blokus CP-SAT builders, each alone on a tiny feasible and a tiny infeasible case."""

from __future__ import annotations

from polytile.board import Board, placements
from polytile.geometry import piece
from polytile.models.blokus import add_rooted, maximize_piece_squares
from polytile.models.cpsat import PlacementModel, add_cover_at_most, add_piece_at_most_once
from polytile.solvers.cpsat import solve


def _model(rows: list[str], names: list[str]) -> PlacementModel:
    board = Board.from_text(rows)
    pm = PlacementModel(placements(board, [piece(n) for n in names]), [0] * len(names))
    add_piece_at_most_once(pm)
    add_cover_at_most(pm)
    return pm


def test_rooted_drops_pieces_cut_off_from_the_root() -> None:
    # ".#.": two I1s fit, but the right cell touches no covered cell next to the root.
    free = _model([".#."], ["I1", "I1"])
    maximize_piece_squares(free, [1, 1], 3)
    assert round(solve(free, time_limit=10, workers=1).objective) == 2
    pm = _model([".#."], ["I1", "I1"])
    add_rooted(pm, {0}, 2)
    maximize_piece_squares(pm, [1, 1], 3)
    res = solve(pm, time_limit=10, workers=1)
    assert res.status == "optimal" and round(res.objective) == 1


def test_rooted_allows_a_diagonal_chain() -> None:
    pm = _model(["..#", "#..", "..."], ["I2", "I2"])
    add_rooted(pm, {0}, 2)
    maximize_piece_squares(pm, [2, 2], 8)
    res = solve(pm, time_limit=10, workers=1)
    assert res.status == "optimal" and round(res.objective) == 4


def test_square_cap_limits_the_objective() -> None:
    pm = _model(["...."], ["I2", "I2"])
    maximize_piece_squares(pm, [2, 2], 2)
    res = solve(pm, time_limit=10, workers=1)
    assert res.status == "optimal" and round(res.objective) == 2

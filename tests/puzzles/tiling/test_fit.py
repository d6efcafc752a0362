"""'Fit as many as possible': optimal on small boards, and the partial-layout checker."""

from __future__ import annotations

from polytile import Board, piece
from polytile.formats import PlacedPiece, Solution
from polytile.geometry import piece_set
from polytile.puzzles.tiling.fit import check_fit, fit, fit_everything


def test_two_squares_cannot_share_a_3x3():
    hands = [[piece("O4")], [piece("O4")]]
    sol, _ = fit(Board(3, 3), hands, touch="none", seed=0)
    assert sol.status == "optimal" and sol.extra["objective"] == sol.extra["bound"] == 4
    assert check_fit(sol, hands, "none") == []


def test_everything_fits_when_it_can():
    # Two colours of dominoes on 2x4: all four fit (checkerboard of colours by column pairs).
    hands = [[piece("I2"), piece("I2")], [piece("I2"), piece("I2")]]
    sol, _ = fit(Board(2, 4), hands, touch="none", seed=0)
    assert sol.extra["objective"] == 8 and sol.status == "optimal"
    assert check_fit(sol, hands, "none") == []


def test_fit_everything_tiles_when_the_areas_match():
    tetrominoes = list(piece_set("tetrominoes"))
    for touch in ("local", "connected"):
        sol = fit_everything(Board(8, 10), [tetrominoes] * 4, touch, seed=1)
        assert sol is not None and sol.status == "optimal"
        assert sol.extra["objective"] == sol.extra["bound"] == 80 == len(sol.placements) * 4
        assert check_fit(sol, [tetrominoes] * 4, touch) == []
    # Areas that differ, and a board that no tiling covers: nothing to say.
    assert fit_everything(Board(8, 8), [tetrominoes] * 4) is None
    assert fit_everything(Board(4, 10), [tetrominoes] * 2) is None


def test_fit_everything_tiles_an_open_rectangle_of_a_bigger_board():
    # 80 squares on a 12x12 board less a corner: a tiling of an 8x10 rectangle clear of the
    # blocked cell places every piece, which no layout beats.
    tetrominoes = list(piece_set("tetrominoes"))
    board = Board(12, 12, frozenset({(0, 0)}))
    sol = fit_everything(board, [tetrominoes] * 4, "local", seed=1)
    assert sol is not None and sol.status == "optimal"
    assert sol.extra["objective"] == sol.extra["bound"] == 80 == len(sol.placements) * 4
    cells = {cell for pp in sol.placements for cell in pp.cells}
    assert len(cells) == 80 and (0, 0) not in cells
    assert check_fit(sol, [tetrominoes] * 4, "local") == []


def test_the_touch_rule_limits_the_layout():
    # One colour, two dominoes, local touch: they must touch at a corner, never an edge.
    hands = [[piece("I2"), piece("I2")]]
    sol, _ = fit(Board(2, 3), hands, touch="local", seed=0)
    assert check_fit(sol, hands, "local") == []
    assert sol.extra["objective"] in (0, 4)


def test_check_fit_reports_extra_pieces_and_colour_faults():
    hands = [[piece("I2")]]
    bad = Solution(
        "fit",
        2,
        4,
        (
            PlacedPiece("I2", ((0, 0), (0, 1)), "blue"),
            PlacedPiece("I2", ((1, 0), (1, 1)), "blue"),
        ),
    )
    reasons = check_fit(bad, hands, "none")
    assert any("placed 2 times, the hand has 1" in r for r in reasons)
    assert any("share an edge" in r for r in reasons)

"""Tests of polytile.grids and of pieces and boards on the triangle, hex and cube grids."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from polytile.board import Board, placements
from polytile.errors import BoardError, ShapeError, UnknownNameError
from polytile.geometry import Polyform
from polytile.grids import GRIDS, grid


def _cells_near(g, n: int = 3) -> list[tuple[int, ...]]:
    return list(itertools.product(range(-n, n + 1), repeat=g.dims))


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_each_symmetry_keeps_neighbours_and_the_group_closes(name: str) -> None:
    g = grid(name)
    cells = _cells_near(g)
    images = []
    for k in range(g.order):
        image = {c: g.transform(k, c) for c in cells}
        for c in cells:
            for n in g.neighbours(c):
                if n in image:
                    assert image[n] in g.neighbours(image[c]), (name, k, c, n)
        images.append(tuple(image[c] for c in cells))
    assert len(set(images)) == g.order  # every element distinct
    assert images[0] == tuple(cells)  # 0 is the identity
    # composing two symmetries gives one of the group, up to a move of the grid
    for j, k in itertools.product(range(g.order), repeat=2):
        composed = g.normalize(g.transform(j, g.transform(k, c)) for c in cells[:7])
        assert any(g.normalize(g.transform(m, c) for c in cells[:7]) == composed
                   for m in range(g.order))  # fmt: skip


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_rotations_come_first_and_the_mirror_turns_a_chiral_piece_over(name: str) -> None:
    g = grid(name)
    chiral = {"square": [(0, 0), (1, 0), (1, 1), (1, 2), (2, 1)],  # F
              "triangle": [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 4)],
              "hex": [(0, 0), (0, 1), (1, 1), (1, 2)],
              "cube": [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 1)]}[name]  # fmt: skip
    p = Polyform(tuple(chiral), "x", name)
    rotations = {p.transform(k) for k in range(g.rotations)}
    assert p.mirror_image() not in rotations
    assert p.mirror_image().canonical() == p.canonical()
    assert p.canonical_one_sided() != p.mirror_image().canonical_one_sided()


def test_triangle_moves_keep_each_triangle_pointing_its_way() -> None:
    g = grid("triangle")
    assert g.normalize([(0, 1)]) == ((0, 1),)  # a down triangle stays down
    assert g.normalize([(3, 3)]) == ((0, 0),)
    assert not g.shift_ok((0, 1)) and g.shift_ok((1, 1))
    up, down = (0, 0), (0, 1)
    assert set(g.neighbours(up)) == {(0, -1), (0, 1), (1, 0)}
    assert set(g.neighbours(down)) == {(0, 0), (0, 2), (-1, 1)}


def test_unknown_grid_names_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match="square"):
        grid("octagon")
    assert grid("polyiamonds").name == "triangle" and grid("Hexagons").name == "hex"


# -- pieces ------------------------------------------------------------------------------
def test_pieces_read_and_draw_in_each_grids_text_form() -> None:
    hexes = Polyform.from_text(["# # #", " # #"], "h", "hex")
    assert hexes.cells == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1))
    assert hexes.to_text() == "# # #\n # #"
    tri = Polyform.from_text(["##", "##"], "t", "triangle")  # joined where up meets down
    assert tri.cells == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert Polyform.from_text(tri.to_text(), "t", "triangle") == tri
    cube = Polyform.from_text(["## #.", "#. .."], "A", "cube")
    assert cube.cells == ((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0))
    assert (cube.layers, cube.height, cube.width) == (2, 2, 2)
    assert Polyform.from_text(cube.to_text(), "A", "cube") == cube


def test_bad_drawings_and_cells_are_refused_with_the_place() -> None:
    with pytest.raises(ShapeError, match="line 2, column 1"):
        Polyform.from_text(["# #", "#"], "x", "hex")  # a cell between two
    with pytest.raises(ShapeError, match="layers"):
        Polyform.from_text(["## #.", "#."], "x", "cube")
    with pytest.raises(ShapeError, match="not connected"):
        Polyform(((0, 0), (1, 1)), "x", "triangle")  # (0,0) up, (1,1) up: no shared edge
    with pytest.raises(ShapeError, match="3 coordinates"):
        Polyform(((0, 0),), "x", "cube")
    assert Polyform(((0, 0),), "x", "hex") != Polyform(((0, 0),), "x", "triangle")


# -- boards ------------------------------------------------------------------------------
def test_sized_boards_of_each_grid() -> None:
    rhombus = Board.parse_size("6x6", "triangle")
    assert rhombus.n_open == 72 and rhombus.symmetries() == (0, 3, 6, 9)
    assert Board.from_text(rhombus.to_text(), grid="triangle") == rhombus
    hexes = Board.parse_size("4x7", "hex")
    assert hexes.n_open == 28 and len(hexes.symmetries()) == 2
    box = Board.parse_size("3x4x5", "cube")
    assert (box.layers, box.rows, box.cols, box.n_open) == (3, 4, 5, 60)
    assert len(box.symmetries()) == 8
    assert len(Board.parse_size("3x3x3", "cube").symmetries()) == 48
    with pytest.raises(BoardError, match="3x4x5"):
        Board.parse_size("3x4", "cube")


def test_a_hexagon_board_has_the_twelve_symmetries_and_permutes_its_cells() -> None:
    board = Board.from_text(["  . . .", " . . . .", ". . . . .", " . . . .", "  . . ."],
                            grid="hex")  # fmt: skip
    assert board.n_open == 19 and board.symmetries() == tuple(range(12))
    open_ = set(np.flatnonzero(board.open_mask.ravel()))
    for k in board.symmetries():
        perm = board.cell_permutation(k)
        assert {int(perm[i]) for i in open_} == open_


def test_placements_on_each_grid_stay_on_open_cells_and_keep_the_shape() -> None:
    cases = [(Board.parse_size("2x3", "triangle"), Polyform.from_text(["###"], "A", "triangle")),
             (Board.parse_size("3x3", "hex"), Polyform.from_text(["# #", " #"], "B", "hex")),
             (Board.parse_size("2x2x3", "cube"), Polyform.from_text(["## #."], "C", "cube"))]
    for board, piece in cases:
        pl = placements(board, [piece])
        assert len(pl) > 0
        seen = set()
        for i in range(len(pl)):
            cells = pl.coords_of(i)
            assert all(board.is_open(*c) for c in cells)
            assert Polyform(tuple(cells), "", board.grid).canonical() == piece.canonical()
            seen.add(frozenset(cells))
        assert len(seen) == len(pl)  # no placement twice
        # brute force: every translate of every orientation inside the board
        want = set()
        for shape in piece.orientations():
            reach = range(-10, 11)  # beyond every board here
            for delta in itertools.product(reach, repeat=len(shape.cells[0])):
                if not board.on_grid.shift_ok(delta):
                    continue
                moved = frozenset(tuple(a + b for a, b in zip(c, delta, strict=True))
                                  for c in shape.cells)  # fmt: skip
                if all(board.is_open(*c) for c in moved):
                    want.add(moved)
        assert seen == want


def test_a_piece_of_another_grid_is_refused() -> None:
    with pytest.raises(BoardError, match="hex piece"):
        placements(Board.parse_size("2x3", "triangle"), [Polyform(((0, 0),), "h", "hex")])

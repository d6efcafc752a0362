"""Pictures of puzzles to solve on the triangle, hex and cube grids (polytile.render.puzzle
with polytile.render.gridtray): the board drawn in its grid, each tray piece in its grid (a
piece of cubes isometric, every cube showing), text in the grid's drawing, PNG as the SVG."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from polytile.grids import grid
from polytile.puzzles.tiling.picture import puzzle_picture, read_drawn, render_puzzles
from polytile.puzzles.tiling.puzzle_file import parse_puzzle
from polytile.render import (
    PuzzlePicture,
    TrayPiece,
    board_grid,
    png_bytes,
    save_picture,
    to_svg,
    to_text,
)
from polytile.render.griddraw import shown_cubes
from polytile.render.gridtray import turned

SVG = "{http://www.w3.org/2000/svg}"

#: Catalogue puzzle: its grid, the corners of a cell in its board picture (a box of cubes is
#: drawn as its layers of squares), and its board's cells.
CATALOGUE = {
    "hexiamond-6x6": ("triangle", 3, 72),
    "tetrahex-4x7": ("hex", 6, 28),
    "soma-cube": ("cube", 4, 27),
}

#: Small puzzle files, one a grid: a given piece, every kind of supply, a hole at the edge.
TRI: dict[str, Any] = {
    "format": "polytile/puzzle@1", "name": "tri", "grid": "triangle", "board": "2x3",
    "pieces": [{"name": "Hook", "shape": ["##", "#"], "count": 2},
               {"name": "Dia", "shape": ["##"], "count": 3}],
    "given": [{"piece": "Dia", "cells": [[0, 2], [0, 3]]}],
}  # fmt: skip
HEX: dict[str, Any] = {
    "format": "polytile/puzzle@1", "name": "hex", "grid": "hex", "board": [". . #", " . . ."],
    "pieces": [{"name": "Bar", "shape": ["# # #"], "count": 1},
               {"name": "Vee", "shape": ["# #", " #"], "count": "0-2"},
               {"name": "Mono", "shape": ["#"], "count": "*"}],
}  # fmt: skip
CUBE: dict[str, Any] = {
    "format": "polytile/puzzle@1", "name": "cube", "grid": "cube", "board": "2x2x2",
    "pieces": [{"name": "Ell", "shape": ["#. ##"], "count": 2},
               {"name": "Duo", "shape": ["##"], "count": 1}],
}  # fmt: skip
#: A box with blocked cubes and a piece given in place (the corner of three arms, the cube
#: an isometric picture cannot show as it is given).
GIVEN: dict[str, Any] = {
    "format": "polytile/puzzle@1", "name": "given", "grid": "cube",
    "board": ["... ... ...", "... ... ...", "... ... ###"],
    "pieces": [{"name": p, "count": 1} for p in ("P", "L", "T", "Z", "A", "B")],
    "given": [{"piece": "P", "cells": [[0, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]]}],
}  # fmt: skip


@pytest.fixture(scope="module")
def pictures() -> dict[str, PuzzlePicture]:
    return {name: puzzle_picture(read_drawn(name)) for name in CATALOGUE}


def _of(svg: str, tag: str, cls: str, root: ET.Element | None = None) -> list[ET.Element]:
    top = ET.fromstring(svg) if root is None else root
    return [e for e in top.iter(SVG + tag) if e.get("class") == cls]


def _points(polygon: ET.Element) -> list[tuple[float, float]]:
    pairs = (p.split(",") for p in polygon.get("points", "").split())
    return [(float(x), float(y)) for x, y in pairs]


def _tray_pieces(picture: PuzzlePicture) -> list[TrayPiece]:
    return [piece for group in picture.tray for piece in group.pieces]


# -- SVG ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", CATALOGUE)
def test_svg_draws_the_board_in_its_grid(pictures: dict[str, PuzzlePicture], name: str) -> None:
    _, corners, cells = CATALOGUE[name]
    svg = to_svg(pictures[name])
    (board,) = _of(svg, "svg", "puzzle-board")
    empty = _of(svg, "polygon", "empty", board)
    assert len(empty) == cells
    assert all(len(_points(p)) == corners for p in empty)
    assert not _of(svg, "rect", "board")  # no rectangle of squares under it


@pytest.mark.parametrize("name", CATALOGUE)
def test_svg_draws_each_tray_piece_in_its_grid(pictures: dict[str, PuzzlePicture],
                                               name: str) -> None:  # fmt: skip
    on, corners, _ = CATALOGUE[name]
    picture = pictures[name]
    svg = to_svg(picture)
    drawn = _of(svg, "g", "tray-piece")
    pieces = _tray_pieces(picture)
    assert [g.get("data-piece") for g in drawn] == [p.name for p in pieces]
    assert len(drawn) == {"triangle": 12, "hex": 7, "cube": 7}[on]
    assert not _of(svg, "path", "tray-cells")  # the squares' tray is not drawn
    for g, piece in zip(drawn, pieces, strict=True):
        assert piece.grid == on
        labels = _of(svg, "text", "tray-label", g)
        assert [t.text for t in labels] == [f"{piece.name} {piece.supply}"]
        if on != "cube":
            polygons = _of(svg, "polygon", "cell", g)
            assert len(polygons) == len(piece.cells)
            assert all(len(_points(p)) == corners for p in polygons)
            continue
        cubes = [
            tuple(map(int, c.get("data-cell", "").split(","))) for c in _of(svg, "g", "cube", g)
        ]
        assert len(cubes) == len(piece.cells)
        assert shown_cubes(cubes) == frozenset(cubes)  # every cube shows
        cube = grid("cube")  # the piece, turned by a rotation at most
        turns = {cube.normalize(cube.transform(k, c) for c in piece.cells) for k in range(24)}
        assert cube.normalize(cubes) in turns
        for c in _of(svg, "g", "cube", g):
            assert all(len(_points(p)) == 4 for p in _of(svg, "polygon", "face", c))


def test_a_cube_piece_is_turned_when_it_would_hide_a_cube() -> None:
    corner = TrayPiece("A", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)), "x1", "cube")
    assert len(shown_cubes(corner.cells)) == 3  # the corner cube hides behind the arms
    shown = turned(corner)
    assert shown_cubes(shown) == frozenset(shown) and len(shown) == 4
    flat = TrayPiece("L", ((0, 0, 0), (0, 0, 1), (0, 1, 0)), "x1", "cube")
    assert turned(flat) == flat.cells  # kept as given when every cube shows


def test_tray_pieces_refuse_cells_of_another_grid() -> None:
    with pytest.raises(ValueError, match="3 coordinates"):
        TrayPiece("A", ((0, 0),), "x1", "cube")
    with pytest.raises(ValueError, match="none negative"):
        TrayPiece("A", ((0, -1),), "x1", "hex")


# -- text --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("doc", "expected"), [
    (TRI, "tri\n"
          "  dd....\n"
          " ......\n"
          "lower case: given in place (Dia)\n"
          "\n"
          "Pieces to place:\n"
          "HH        DD\n"
          "H\n"
          "Hook x2   Dia x2\n"
          "\n"
          "10 cells to fill, 2 covered by the given pieces\n"),
    (HEX, "hex\n"
          ". .\n"
          " . . .\n"
          "\n"
          "Pieces to place:\n"
          "B B B    V V       M\n"
          "          V\n"
          "Bar x1   Vee 0-2   Mono any number\n"
          "\n"
          "5 cells to fill; pieces may be left over\n"),
    (CUBE, "cube\n"
           ".. ..\n"
           ".. ..\n"
           "\n"
           "Pieces to place:\n"
           "E. EE    DD\n"
           "Ell x2   Duo x1\n"
           "\n"
           "8 cells to fill\n"
           "One-sided: turn the pieces, but do not turn them over.\n"),
])  # fmt: skip
def test_text_draws_board_and_tray_as_the_grid_draws_them(doc: dict[str, Any],
                                                          expected: str) -> None:  # fmt: skip
    picture = puzzle_picture(parse_puzzle(doc, "small.json"))
    assert to_text(picture, color=False) == expected


def test_coloured_text_colours_the_tray_pieces_letters() -> None:
    text = to_text(puzzle_picture(parse_puzzle(HEX, "small.json")), color=True)
    assert "\x1b[" in text
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "B B B    V V       M" in plain


@pytest.mark.parametrize("name", CATALOGUE)
def test_text_of_a_catalogue_puzzle_lists_every_piece(pictures: dict[str, PuzzlePicture],
                                                      name: str) -> None:  # fmt: skip
    text = to_text(pictures[name], color=False)
    for piece in _tray_pieces(pictures[name]):
        assert f"{piece.name} {piece.supply}" in text
    board = board_grid(pictures[name])  # the grid's drawing of the board
    assert text.split("\n")[1 : 1 + len(board)] == board
    on = CATALOGUE[name][0]
    if on == "cube":  # a box's layers side by side, a piece's too
        assert "... ... ..." in text and "LLL" in text


# -- PNG ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", CATALOGUE)
def test_png_is_the_svg_in_size_and_draws_the_tray_pieces(pictures: dict[str, PuzzlePicture],
                                                           name: str) -> None:  # fmt: skip
    picture = pictures[name]
    svg = to_svg(picture, 20)
    root = ET.fromstring(svg)
    size = (round(float(root.get("width", 0))), round(float(root.get("height", 0))))
    image = Image.open(io.BytesIO(png_bytes(picture, 20, None))).convert("RGB")
    assert image.size == size
    board = Image.open(io.BytesIO(png_bytes(picture.setup, 20, name)))
    assert image.height > board.height + 100  # the tray under the board
    for g in _of(svg, "g", "tray-piece"):
        # its last polygon (a cube's face drawn last is not covered) where the SVG has it
        polygon = list(g.iter(SVG + "polygon"))[-1]
        points = _points(polygon)
        x = sum(px for px, _ in points) / len(points)
        y = sum(py for _, py in points) / len(points)
        fill = polygon.get("fill", "")
        want = tuple(int(fill[i : i + 2], 16) for i in (1, 3, 5))
        got = image.getpixel((int(x), int(y)))
        assert isinstance(got, tuple)
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 12, g.get("data-piece")


# -- the isometric view of a box ----------------------------------------------------------------
def test_isometric_board_shows_the_box_its_holes_and_given_pieces(tmp_path: Path) -> None:
    picture = puzzle_picture(parse_puzzle(GIVEN, "given.json"))
    path = tmp_path / "given.svg"
    save_picture(picture, path, 20, view="isometric")
    svg = path.read_text()
    (board,) = _of(svg, "svg", "puzzle-board")
    assert len(_of(svg, "g", "room", board)) == 1  # the empty box: its floor and walls
    given = _of(svg, "g", "cube", board)
    assert len(given) == 4 and all(g.get("data-given") == "true" for g in given)
    assert _of(svg, "path", "given-hatch", board)
    assert len(_of(svg, "g", "blocked", board)) == 3
    assert not _of(svg, "polygon", "empty", board)  # not the layers
    layers = to_svg(picture, 20)
    assert len(_of(layers, "polygon", "empty")) == 27 - 3 - 4
    png = tmp_path / "given.png"
    save_picture(picture, png, 20, view="isometric")
    root = ET.fromstring(svg)
    assert Image.open(png).size == (round(float(root.get("width", 0))),
                                    round(float(root.get("height", 0))))  # fmt: skip


def test_views_are_refused_where_they_do_not_apply(pictures: dict[str, PuzzlePicture],
                                                   tmp_path: Path) -> None:  # fmt: skip
    with pytest.raises(ValueError, match="box of cubes"):
        save_picture(pictures["hexiamond-6x6"], tmp_path / "x.svg", view="isometric")
    with pytest.raises(ValueError, match="isometric"):
        save_picture(pictures["soma-cube"], tmp_path / "x.txt", view="isometric")
    with pytest.raises(ValueError, match="box of cubes"):
        to_svg(puzzle_picture(read_drawn("pentomino-6x10")), view="layers")


class _Console:
    def __init__(self) -> None:
        self.said: list[str] = []

    def out(self, text: str = "", *, nl: bool = True, color: bool | None = None) -> None:
        self.said.append(text)

    def err(self, text: str) -> None:
        self.said.append(text)


def test_render_puzzles_takes_a_view(tmp_path: Path) -> None:
    console: Any = _Console()
    out = tmp_path / "soma.svg"
    render_puzzles(console, ["soma-cube"], out, False, 16, None, view="isometric")
    assert _of(out.read_text(), "g", "room")
    with pytest.raises(ValueError, match="one puzzle"):
        render_puzzles(console, ["soma-cube", "soma-cube"], tmp_path / "two.svg", False, 16,
                       None, view="isometric")  # fmt: skip
    with pytest.raises(ValueError, match="box of cubes"):
        render_puzzles(console, ["tetrahex-4x7"], None, False, 16, None, view="layers")

"""Tests of the pictures of the triangle, hex and cube grids (polytile.render.grids): SVG,
PNG and text through the entry points every caller uses."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from polytile.board import Board
from polytile.formats import PlacedPiece, Solution
from polytile.render import PALETTE, board_grid, png_bytes, save_picture, to_svg, to_text
from polytile.render.grids import LETTERS, grid_scene, honest_letters

SVG = "{http://www.w3.org/2000/svg}"

# Two triangles, up (0, 0) and down (0, 1), forming a rhombus.
RHOMBUS = Solution(
    "rhombus",
    1,
    2,
    (PlacedPiece("A1", ((0, 0),)), PlacedPiece("B1", ((0, 1),))),
    grid="triangle",
)
# Three hexagons in a triangle, (1, 1) of the 2x2 box not part of the board.
HEX3 = Solution(
    "hex3",
    2,
    2,
    (PlacedPiece("D2", ((0, 0), (0, 1))), PlacedPiece("M1", ((1, 0),))),
    blocked=((1, 1),),
    grid="hex",
)
# A 1x1x2 box (one layer, one row, two columns) of two cubes.
BOX = Solution(
    "box",
    1,
    2,
    (PlacedPiece("A", ((0, 0, 0),)), PlacedPiece("B", ((0, 0, 1),))),
    grid="cube",
    layers=1,
)
# Two layers of one cube each.
TOWER = Solution(
    "tower",
    1,
    1,
    (PlacedPiece("A", ((0, 0, 0),)), PlacedPiece("B", ((1, 0, 0),))),
    grid="cube",
    layers=2,
)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode())


def points(polygon: ET.Element) -> list[tuple[float, float]]:
    return [
        (float(x), float(y)) for x, y in (p.split(",") for p in polygon.get("points", "").split())
    ]


def cells(root: ET.Element) -> dict[str, ET.Element]:
    """The piece cells' polygons by their data-cell."""
    return {
        p.get("data-cell", ""): p for p in root.iter(f"{SVG}polygon") if p.get("class") == "cell"
    }


def of_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if e.get("class") == cls]


def png_size(obj: Solution, **kw: object) -> tuple[int, int]:
    return Image.open(io.BytesIO(png_bytes(obj, 24, None, **kw))).size  # type: ignore[arg-type]


def svg_size(root: ET.Element) -> tuple[int, int]:
    return int(root.get("width", "0")), int(root.get("height", "0"))


# -- triangles ----------------------------------------------------------------------------------
def test_triangle_svg_draws_two_triangles_sharing_an_edge() -> None:
    root = parse(to_svg(RHOMBUS))
    drawn = cells(root)
    assert sorted(drawn) == ["0,0", "0,1"]
    up, down = points(drawn["0,0"]), points(drawn["0,1"])
    assert len(up) == len(down) == 3
    # the up triangle's apex is above its base; the down triangle's below its top side
    assert min(y for _, y in up) == up[0][1] < up[1][1] == up[2][1]
    assert down[0][1] == down[1][1] < down[2][1]
    assert len(set(up) & set(down)) == 2  # they share one edge
    # equilateral: every side the same length
    for tri in (up, down):
        sides = {round(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5, 1)
                 for a, b in zip(tri, tri[1:] + tri[:1], strict=True)}  # fmt: skip
        assert len(sides) == 1
    pieces = of_class(root, "g", "piece")
    assert [g.get("data-piece") for g in pieces] == ["A1", "B1"]
    fills = {p.get("fill") for p in drawn.values()}
    assert len(fills) == 2  # adjacent pieces differ
    outline = of_class(root, "path", "outline")
    assert [p.get("data-piece") for p in outline] == ["A1", "B1"]
    grid = of_class(root, "path", "grid")
    assert float(outline[0].get("stroke-width", "0")) > float(grid[0].get("stroke-width", "9"))
    assert sorted(t.text or "" for t in of_class(root, "text", "label")) == ["A", "B"]


def test_triangle_text_and_png() -> None:
    assert to_text(RHOMBUS, color=False) == "AB\n"
    assert board_grid(RHOMBUS) == ["AB"]
    root = parse(to_svg(RHOMBUS))
    assert png_size(RHOMBUS) == svg_size(root)
    # the PNG fills each triangle with its piece's colour (sampled off the letter)
    big = Image.open(io.BytesIO(png_bytes(RHOMBUS, 60, None))).convert("RGB")
    for cell in cells(parse(to_svg(RHOMBUS, 60))).values():
        pts = points(cell)
        cx, cy = sum(x for x, _ in pts) / 3, sum(y for _, y in pts) / 3
        x, y = (cx + pts[0][0]) / 2, (cy + pts[0][1]) / 2  # toward a corner
        fill = cell.get("fill", "#000000")
        want = tuple(int(fill[i : i + 2], 16) for i in (1, 3, 5))
        got = big.getpixel((round(x), round(y)))
        assert all(abs(a - b) <= 10 for a, b in zip(got, want, strict=True)), (got, want)


def test_triangle_board_shape_holes_and_letters() -> None:
    # a parallelogram of 3 rows of 3 rhombi: the box's corners outside it are no cells
    board = Board.parse_size("3x3", "triangle")
    open_cells = board.open_cells()
    hole = next(c for c in open_cells if all(n in open_cells for n in board_neighbours(c)))
    rest = [c for c in open_cells if c != hole]
    pieces = (PlacedPiece("L", tuple(rest[:8])), PlacedPiece("L", tuple(rest[8:])))
    s = Solution("p", board.rows, board.cols, pieces, blocked=(*board.blocked, hole),
                 grid="triangle")  # fmt: skip
    root = parse(to_svg(s))
    assert len(cells(root)) == len(rest) == 17
    blocked = of_class(root, "polygon", "blocked")
    assert [p.get("data-cell") for p in blocked] == [",".join(map(str, hole))]
    lines = board.to_text()
    chars = {(r, c): ch for r, line in enumerate(lines) for c, ch in enumerate(line) if ch != " "}
    text = to_text(s, color=False).splitlines()
    # the same drawing as the board's file, the hole a '#' (a space in the file)
    drawn = {(r, c): ch for r, line in enumerate(text[: board.rows]) for c, ch in enumerate(line)
             if ch != " "}  # fmt: skip
    assert set(drawn) == set(chars)
    assert drawn[hole] == "#"
    assert {drawn[c] for c in rest[:8]} == {"L"}
    assert {drawn[c] for c in rest[8:]} == {"A"}  # the second L: another letter
    assert text[board.rows :] == ["letters: L = L, A = L"]
    legend = [t.text for t in of_class(root, "text", "note")]
    assert legend == ["letters: L = L, A = L"]


def board_neighbours(cell: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    from polytile.grids import grid

    return grid("triangle").neighbours(cell)


# -- hexagons -----------------------------------------------------------------------------------
def test_hex_svg_draws_three_hexagons_and_not_the_box_corner() -> None:
    root = parse(to_svg(HEX3))
    drawn = cells(root)
    assert sorted(drawn) == ["0,0", "0,1", "1,0"]
    assert all(len(points(p)) == 6 for p in drawn.values())
    assert not of_class(root, "polygon", "blocked") and not of_class(root, "polygon", "empty")
    # (1, 0) lies half a hexagon right of (0, 0) and shares an edge with (0, 0) and (0, 1)
    centre = {k: (sum(x for x, _ in points(p)) / 6, sum(y for _, y in points(p)) / 6)
              for k, p in drawn.items()}  # fmt: skip
    width = centre["0,1"][0] - centre["0,0"][0]
    assert centre["1,0"][0] - centre["0,0"][0] == pytest.approx(width / 2)
    for other in ("0,0", "0,1"):
        assert len(set(points(drawn["1,0"])) & set(points(drawn[other]))) == 2
    pieces = of_class(root, "g", "piece")
    assert [(g.get("data-piece"), len(list(g))) for g in pieces] == [("D2", 2), ("M1", 1)]
    assert drawn["0,0"].get("fill") == drawn["0,1"].get("fill") != drawn["1,0"].get("fill")
    assert len(of_class(root, "path", "outline")) == 2


def test_hex_text_and_png() -> None:
    assert to_text(HEX3, color=False) == "D D\n M\n"
    assert png_size(HEX3) == svg_size(parse(to_svg(HEX3)))


def test_hex_hole_inside_the_board() -> None:
    board = Board.from_text([" . .", ". # .", " . ."], grid="hex")
    ring = PlacedPiece("O6", tuple(board.open_cells()))
    s = Solution("ring", board.rows, board.cols, (ring,), blocked=tuple(board.blocked),
                 grid="hex")  # fmt: skip
    assert to_text(s, color=False) == " O O\nO # O\n O O\n"
    root = parse(to_svg(s))
    assert len(cells(root)) == 6
    assert len(of_class(root, "polygon", "blocked")) == 1


def test_hex_colours_differ_across_a_hex_only_neighbour() -> None:
    # Piece 16 would take piece 0's colour (the palette has 16) but for its neighbour:
    # (1, 0) touches (0, 1) on the hex grid, not by the square's four steps.
    far = [PlacedPiece(f"P{k}", ((5, k),)) for k in range(1, 16)]
    pieces = (PlacedPiece("Q", ((0, 1),)), *far, PlacedPiece("R", ((1, 0),)))
    s = Solution("far", 6, 16, pieces, grid="hex")
    drawn = cells(parse(to_svg(s)))
    assert len(PALETTE) == 16
    assert drawn["0,1"].get("fill") != drawn["1,0"].get("fill")


# -- cubes --------------------------------------------------------------------------------------
def test_cube_layers_svg_text_and_png() -> None:
    root = parse(to_svg(BOX))
    drawn = cells(root)
    assert sorted(drawn) == ["0,0,0", "0,0,1"]
    assert all(len(points(p)) == 4 for p in drawn.values())
    assert [t.text for t in of_class(root, "text", "caption")] == ["layer 1"]
    assert drawn["0,0,0"].get("fill") != drawn["0,0,1"].get("fill")
    assert to_text(BOX, color=False) == "AB\n"
    assert png_size(BOX) == svg_size(root)


def test_cube_layers_side_by_side() -> None:
    root = parse(to_svg(TOWER))
    assert [t.text for t in of_class(root, "text", "caption")] == ["layer 1", "layer 2"]
    drawn = cells(root)
    xs = {k: min(x for x, _ in points(p)) for k, p in drawn.items()}
    assert xs["0,0,0"] < xs["1,0,0"]  # layer 1 at the left
    assert to_text(TOWER, color=False) == "A B\n"
    # touching across a face (one above the other): different colours
    assert drawn["0,0,0"].get("fill") != drawn["1,0,0"].get("fill")


def test_cube_isometric_faces_back_to_front() -> None:
    root = parse(to_svg(BOX, view="isometric"))
    cubes = of_class(root, "g", "cube")
    assert [g.get("data-cell") for g in cubes] == ["0,0,0", "0,0,1"]  # the back one first
    faces = [[f.get("data-face") for f in g if f.get("class") == "face"] for g in cubes]
    assert faces == [["top", "front"], ["top", "front", "right"]]  # A's right side is hidden
    b = {f.get("data-face"): f.get("fill") for f in cubes[1] if f.get("class") == "face"}
    assert len(set(b.values())) == 3  # each face direction its own shade
    assert png_size(BOX, view="isometric") == svg_size(root)
    # the tower: the upper cube hides the lower one's top
    root = parse(to_svg(TOWER, view="isometric"))
    faces = [[f.get("data-face") for f in g if f.get("class") == "face"]
             for g in of_class(root, "g", "cube")]  # fmt: skip
    assert faces == [["front", "right"], ["top", "front", "right"]]


def test_views_are_for_boxes_of_cubes(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="box of cubes"):
        to_svg(RHOMBUS, view="isometric")
    with pytest.raises(ValueError, match="view must be one of"):
        to_svg(BOX, view="sideways")
    with pytest.raises(ValueError, match="text picture"):
        save_picture(BOX, tmp_path / "x.txt", view="isometric")
    with pytest.raises(ValueError, match="square boards only"):
        to_svg(RHOMBUS, marks=[(0, 0)])


# -- every entry point ---------------------------------------------------------------------------
@pytest.mark.parametrize("solution", [RHOMBUS, HEX3, BOX], ids=["triangle", "hex", "cube"])
def test_save_picture_by_suffix(tmp_path: Path, solution: Solution) -> None:
    save_picture(solution, tmp_path / "a.svg", title="t")
    save_picture(solution, tmp_path / "a.png", cell=20)
    save_picture(solution, tmp_path / "a.txt")
    root = ET.parse(tmp_path / "a.svg").getroot()
    assert root.find(f"{SVG}title") is not None
    assert len(cells(root)) == (3 if solution is HEX3 else 2)
    assert Image.open(tmp_path / "a.png").size == svg_size(parse(to_svg(solution, 20)))
    assert (tmp_path / "a.txt").read_text() == to_text(solution, color=False)
    assert solution._repr_svg_() == to_svg(solution)


def test_given_piece_conflict_and_colour_text() -> None:
    s = Solution(
        "g",
        2,
        2,
        (PlacedPiece("D2", ((0, 0), (0, 1))), PlacedPiece("M1", ((0, 1),))),
        blocked=((1, 1),),
        grid="hex",
        extra={"given": [0]},
    )
    assert to_text(s, color=False) == "d *\n .\nlower case: given in place (D2)\n"
    root = parse(to_svg(s))
    assert [g.get("data-given") for g in of_class(root, "g", "piece")] == ["true", None]
    assert len(of_class(root, "path", "given-hatch")) == 1
    assert len(of_class(root, "path", "conflict")) == 1
    coloured = to_text(HEX3, color=True)
    assert "\x1b[" in coloured and "D" in coloured and "M" in coloured


def test_letters_differ_and_repeat_only_apart() -> None:
    assert honest_letters(["L5", "L5", "A", "l3"]) == ["L", "B", "A", "C"]
    many = ["T"] * (len(LETTERS) + 5)
    with pytest.raises(ValueError):
        honest_letters(many)
    # more monoiamonds than letters: letters repeat, never on touching triangles
    board = Board.parse_size("6x6", "triangle")
    pieces = tuple(PlacedPiece("T1", (c,)) for c in board.open_cells())
    s = Solution("mono", board.rows, board.cols, pieces, blocked=tuple(board.blocked),
                 grid="triangle")  # fmt: skip
    scene = grid_scene(s)
    letter = {c: shape.letter for shape in scene.shapes for c in shape.cells}
    assert all(letter[c] != letter[n] for c in letter for n in scene.grid.neighbours(c)
               if n in letter)  # fmt: skip
    assert to_text(s, color=False).splitlines()[-1].startswith("letters repeat")

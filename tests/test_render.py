"""Tests of polytile.render: text, SVG and PNG pictures drawn from one geometry."""

from __future__ import annotations

import io
import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from polytile import render
from polytile.errors import FormatError
from polytile.formats import PlacedPiece, Position, Solution, load
from polytile.render import (
    BLOCKED_FILL,
    PALETTE,
    PLAYER_FILLS,
    board_grid,
    save_picture,
    scene,
    to_png,
    to_svg,
    to_text,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SVG = "{http://www.w3.org/2000/svg}"

# Two tetromino copies of the same letter side by side, a blocked cell and an empty one.
TINY = Solution(
    "tiny",
    3,
    4,
    (
        PlacedPiece("L4", ((0, 0), (1, 0), (2, 0), (2, 1))),
        PlacedPiece("L4", ((0, 1), (0, 2), (0, 3), (1, 3))),
        PlacedPiece("O4", ((1, 1), (1, 2), (2, 2), (2, 3))),  # not really O4: drawing only
    ),
)
COLOURED = load(EXAMPLES / "colours-4x4.json")


def test_board_grid() -> None:
    assert board_grid(TINY) == ["LLLL", "LOOL", "LLOO"]
    assert board_grid(COLOURED) == ["BBBB", "YYYR", "YGRR", "GGGR"]
    holed = Solution("h", 2, 2, (PlacedPiece("I1", ((0, 0),)),), blocked=((1, 1),))
    assert board_grid(holed) == ["I.", ".#"]


def test_board_grid_marks_cells_claimed_twice_and_ignores_outside() -> None:
    s = Solution(
        "bad",
        2,
        3,
        (
            PlacedPiece("I2", ((0, 0), (0, 1))),
            PlacedPiece("V3", ((0, 1), (1, 1), (1, 2))),
            PlacedPiece("I2", ((1, 0), (2, 0))),  # half off the board
            PlacedPiece("I1", ((0, 2),)),  # on the blocked cell
        ),
        blocked=((0, 2),),
    )
    assert board_grid(s) == ["I**", "IVV"]


def test_plain_text_exact() -> None:
    # the two L4 copies touch: their boundary is drawn (issue 47, item 3)
    assert to_text(TINY, color=False) == ("+---+---+---+---+\n| L | L   L   L |\n"
                                          "+   +---+---+   +\n| L | O   O | L |\n"
                                          "+   +---+   +---+\n| L   L | O   O |\n"
                                          "+---+---+---+---+\n")  # fmt: skip
    assert to_text(COLOURED, color=False) == "B B B B\nY Y Y R\nY G R R\nG G G R\n"
    position = Position("blokus", ("B.#", ".YR"))
    assert to_text(position, color=False) == "B . #\n. Y R\n"


def test_example_plain_text() -> None:
    text = to_text(load(EXAMPLES / "pentomino-6x10.json"), color=False)
    assert text.splitlines()[0] == "T N N N W W Y Y Y Y"
    assert len(text.splitlines()) == 6


def test_colour_text_uses_ansi_and_two_columns_per_cell() -> None:
    text = to_text(COLOURED, color=True)
    assert "\x1b[" in text
    plain = _strip_ansi(text)
    assert plain.splitlines() == ["        "] * 4  # blocks only: 4 cells x 2 columns
    tiling = _strip_ansi(to_text(TINY, color=True))
    assert tiling.splitlines()[1] == "L O O L "


def _strip_ansi(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_automatic_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdout", Tty())
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert "\x1b[" in to_text(COLOURED)
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in to_text(COLOURED)
    assert "\x1b[" in to_text(COLOURED, color=True)  # an explicit request wins
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr("sys.stdout", io.StringIO())  # not a terminal
    assert "\x1b[" not in to_text(COLOURED)


# -- SVG --------------------------------------------------------------------------------------
def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def _outlines(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}path") if e.get("class") == "outline"]


@pytest.mark.parametrize(
    "name", ["pentomino-6x10.json", "colours-4x4.json", "pentomino-6x10-broken.json"]
)
def test_svg_is_standalone_with_one_outline_per_piece(name: str) -> None:
    s = load(EXAMPLES / name)
    assert isinstance(s, Solution)
    root = _parse(to_svg(s, cell=20, title="<&>"))
    assert root.tag == f"{SVG}svg"
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert width == s.cols * 20 + 2 * 10
    outlines = _outlines(root)
    assert len(outlines) == len(s.placements)
    assert [e.get("data-piece") for e in outlines] == [p.piece for p in s.placements]
    assert all(e.get("d", "").startswith("M") for e in outlines)
    assert root.find(f"{SVG}title") is not None


def test_svg_fills() -> None:
    root = _parse(to_svg(COLOURED))
    fills = [e.get("fill") for e in root.iter(f"{SVG}path") if e.get("class") == "piece"]
    assert fills == [PLAYER_FILLS[c] for c in "BYRG"]
    holed = Solution("h", 2, 2, (PlacedPiece("I1", ((0, 0),)),), blocked=((1, 1),))
    blocked = [e for e in _parse(to_svg(holed)).iter(f"{SVG}path") if e.get("class") == "blocked"]
    assert len(blocked) == 1 and blocked[0].get("fill") == BLOCKED_FILL


def test_svg_of_a_position_outlines_each_colour_group() -> None:
    position = Position("blokus", ("BB.Y", "B..Y", "...B"))
    outlines = _outlines(_parse(to_svg(position)))
    assert sorted(e.get("data-piece") for e in outlines) == ["blue", "blue", "yellow"]


def test_svg_escapes_names() -> None:
    s = Solution("x", 1, 1, (PlacedPiece("<&\"'>", ((0, 0),)),))
    assert _outlines(_parse(to_svg(s)))[0].get("data-piece") == "<&\"'>"


def test_square_outline_is_four_segments() -> None:
    s = Solution("o", 2, 2, (PlacedPiece("O4", ((0, 0), (0, 1), (1, 0), (1, 1))),))
    d = _outlines(_parse(to_svg(s, cell=10)))[0].get("d", "")
    assert d == "M5 5H25M5 25H25M5 5V25M25 5V25"


@given(st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1))
def test_outline_length_is_the_perimeter(cells: set[tuple[int, int]]) -> None:
    shape = frozenset(cells)
    perimeter = sum(
        (r + dr, c + dc) not in shape
        for r, c in shape
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
    )
    segments = scene.outline(shape)
    assert sum(abs(x1 - x0) + abs(y1 - y0) for x0, y0, x1, y1 in segments) == perimeter
    # maximal: no two collinear segments touch end to end
    ends = {(x0, y0, x1 == x0) for x0, y0, x1, _ in segments}
    assert all((x1, y1, x1 == x0) not in ends for x0, y0, x1, y1 in segments)


def test_touching_tiling_pieces_get_different_fills() -> None:
    strip = Solution("strip", 1, 40, tuple(PlacedPiece("I1", ((0, c),)) for c in range(40)))
    root = _parse(to_svg(strip))
    fills = [e.get("fill") for e in root.iter(f"{SVG}path") if e.get("class") == "piece"]
    assert all(a != b for a, b in itertools.pairwise(fills))
    assert set(fills) <= set(PALETTE)
    tiny_fills = [
        e.get("fill") for e in _parse(to_svg(TINY)).iter(f"{SVG}path") if e.get("class") == "piece"
    ]
    assert len(set(tiny_fills)) == 3


def test_bad_cell_size() -> None:
    with pytest.raises(ValueError, match="cell size"):
        to_svg(TINY, cell=2)
    with pytest.raises(TypeError):
        to_svg("TINY")  # type: ignore[arg-type]


# -- PNG and files ------------------------------------------------------------------------------
def test_png_matches_svg_geometry(tmp_path: Path) -> None:
    path = tmp_path / "c.png"
    to_png(COLOURED, path, cell=20)
    root = _parse(to_svg(COLOURED, cell=20))
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert image.size == (int(root.get("width", "0")), int(root.get("height", "0")))
        rgb = image.convert("RGB")
        margin = 10
        # centre of cell (0, 0) is blue, of (3, 3) red; the line between rows 0 and 1 is dark
        assert rgb.getpixel((margin + 10, margin + 10)) == (0x1F, 0x5F, 0xBF)
        assert rgb.getpixel((margin + 3 * 20 + 10, margin + 3 * 20 + 10)) == (0xD6, 0x31, 0x2B)
        r, g, b = rgb.getpixel((margin + 10, margin + 20))  # type: ignore[misc]
        assert max(r, g, b) < 0x40


def test_a_long_title_widens_the_picture_and_centres_the_board() -> None:
    root = _parse(to_svg(TINY, cell=20, title="a title much wider than the board"))
    width = int(root.get("width", "0"))
    assert width > TINY.cols * 20 + 20
    board = next(e for e in root.iter(f"{SVG}rect") if e.get("class") == "board")
    left = float(board.get("x", "0"))
    assert abs(left - (width - TINY.cols * 20 - left)) <= 1


def test_png_with_title_is_taller(tmp_path: Path) -> None:
    to_png(TINY, tmp_path / "a.png")
    to_png(TINY, tmp_path / "b.png", title="tiny")
    with Image.open(tmp_path / "a.png") as a, Image.open(tmp_path / "b.png") as b:
        assert a.size[0] == b.size[0] and a.size[1] < b.size[1]


@pytest.mark.parametrize("suffix", [".svg", ".png", ".txt", ".SVG"])
def test_save_picture_by_suffix(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"pic{suffix}"
    save_picture(TINY, path)
    data = path.read_bytes()
    if suffix.lower() == ".svg":
        assert _parse(data.decode()).tag == f"{SVG}svg"
    elif suffix == ".png":
        assert data.startswith(b"\x89PNG")
    else:
        assert data.decode() == to_text(TINY, color=False)


def test_save_picture_refuses_unknown_suffix(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"\.svg, \.png or \.txt") as info:
        save_picture(TINY, tmp_path / "pic.gif")
    assert info.value.source.endswith("pic.gif")
    assert not (tmp_path / "pic.gif").exists()


# -- marks and highlight ------------------------------------------------------------------------
# A Duo-sized corner: blue's V3 at the top left, yellow's I2 and a blocked cell.
MARKED = Position("blokus", ("BB..", "B..#", "..YY", "...."))


def test_marks_and_highlight_are_off_by_default(tmp_path: Path) -> None:
    for obj in (TINY, COLOURED, MARKED):
        assert to_text(obj, color=False, marks=(), highlight=()) == to_text(obj, color=False)
        assert to_text(obj, color=True, marks=[], highlight=[]) == to_text(obj, color=True)
        assert to_svg(obj, marks=(), highlight=()) == to_svg(obj)
        assert "mark" not in to_svg(obj) and "highlight" not in to_svg(obj)
    to_png(MARKED, tmp_path / "a.png")
    to_png(MARKED, tmp_path / "b.png", marks=(), highlight=())
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


def test_plain_text_marks_only_empty_cells() -> None:
    # (1, 1) is empty, (0, 0) blue, (1, 3) blocked, (9, 9) off the board
    text = to_text(MARKED, color=False, marks=[(1, 1), (0, 0), (1, 3), (9, 9), (3, 0)])
    assert text == "B B . .\nB + . #\n. . Y Y\n+ . . .\n"


def test_plain_text_highlight_lower_cases_its_cells() -> None:
    played = to_text(MARKED, color=False, highlight=[(2, 2), (2, 3)], marks=[(1, 1)])
    assert played == "B B . .\nB + . #\n. . y y\n. . . .\n"
    # a move not yet played: its colour's letter in lower case; '@' without a colour
    planned = to_text(MARKED, color=False, highlight=[(1, 1), (1, 2)], highlight_color="blue")
    assert planned == "B B . .\nB b b #\n. . Y Y\n. . . .\n"
    unknown = to_text(MARKED, color=False, highlight=[(3, 0), (1, 3)], marks=[(3, 0)])
    assert unknown == "B B . .\nB . . #\n. . Y Y\n@ . . .\n"
    assert "| L | o   O | L |" in to_text(TINY, color=False, highlight=[(1, 1)])


def test_colour_text_marks_and_highlight_keep_two_columns_per_cell() -> None:
    text = to_text(
        MARKED,
        color=True,
        marks=[(1, 1)],
        mark_color="blue",
        highlight=[(2, 2), (2, 3), (3, 3)],
        highlight_color="yellow",
    )
    rows = _strip_ansi(text).splitlines()
    assert rows == ["    . . ", "  • .   ", ". . ▒▒▒▒", ". . . ░░"]
    assert _strip_ansi(to_text(MARKED, color=True)).splitlines()[1] == "  . .   "


def test_unknown_mark_colour() -> None:
    with pytest.raises(ValueError, match="mark_color"):
        to_text(MARKED, marks=[(1, 1)], mark_color="purple")
    with pytest.raises(ValueError, match="highlight_color"):
        to_svg(MARKED, highlight=[(1, 1)], highlight_color="B")


def test_svg_marks_are_dots_on_exactly_the_marked_cells() -> None:
    root = _parse(to_svg(MARKED, cell=10, marks=[(1, 1), (3, 0), (5, 5)], mark_color="yellow"))
    group = next(e for e in root.iter(f"{SVG}g") if e.get("class") == "marks")
    assert group.get("fill") == PLAYER_FILLS["Y"]
    dots = [e for e in root.iter(f"{SVG}circle") if e.get("class") == "mark"]
    assert [e.get("data-cell") for e in dots] == ["1,1", "3,0"]
    # centres of cells (1, 1) and (3, 0) with a 5 px margin
    assert [(e.get("cx"), e.get("cy")) for e in dots] == [("20", "20"), ("10", "40")]
    neutral = _parse(to_svg(MARKED, marks=[(1, 1)]))
    assert (
        next(e for e in neutral.iter(f"{SVG}g") if e.get("class") == "marks").get("fill")
        == scene.INK
    )


def test_svg_highlight_outlines_the_placement_and_shades_empty_cells() -> None:
    planned_cells = [(0, 2), (0, 3), (1, 2), (1, 1)]  # all empty: a move not yet played
    root = _parse(to_svg(MARKED, cell=10, highlight=[(2, 2), (2, 3)]))
    lit = [e for e in root.iter(f"{SVG}path") if e.get("class") == "highlight"]
    assert len(lit) == 1
    assert lit[0].get("d") == "M25 25H45M25 35H45M25 25V35M45 25V35"  # around (2, 2)-(2, 3)
    assert not [e for e in root.iter(f"{SVG}path") if e.get("class") == "ghost"]  # both played
    planned = _parse(to_svg(MARKED, cell=10, highlight=planned_cells, highlight_color="blue"))
    ghosts = [e for e in planned.iter(f"{SVG}path") if e.get("class") == "ghost"]
    assert len(ghosts) == 1
    assert (
        ghosts[0].get("d") == "M25 5h10v10h-10zM35 5h10v10h-10zM15 15h10v10h-10zM25 15h10v10h-10z"
    )
    assert ghosts[0].get("fill") == scene.mix(render.EMPTY_FILL, PLAYER_FILLS["B"], 0.35)


def test_png_draws_marks_and_highlight(tmp_path: Path) -> None:
    path = tmp_path / "m.png"
    to_png(MARKED, path, cell=40, marks=[(3, 0)], mark_color="blue", highlight=[(1, 1), (1, 2)])
    with Image.open(path) as image:
        rgb = image.convert("RGB")
    margin, thick = 20, 5

    def centre(r: int, c: int) -> tuple[int, int]:
        return margin + c * 40 + 20, margin + r * 40 + 20

    assert rgb.getpixel(centre(3, 0)) == (0x1F, 0x5F, 0xBF)  # the blue dot
    assert rgb.getpixel(centre(3, 1)) == (0xFF, 0xFF, 0xFF)  # an unmarked empty cell
    # across the highlight's top edge (row 1's top, y = 60): black, white on the edge, black
    x, edge = centre(1, 1)[0], margin + 40
    for dy, dark in ((-thick - 1, False), (-thick + 1, True), (0, False), (thick - 1, True)):
        r, g, b = rgb.getpixel((x, edge + dy))  # type: ignore[misc]
        assert (max(r, g, b) < 0x40) == dark, dy
    assert rgb.getpixel((x, edge)) == (0xFF, 0xFF, 0xFF)
    # an empty highlighted cell is shaded (grey without a colour) where no hatch crosses it
    shade = rgb.getpixel((margin + 40 + 12, margin + 40 + 12))
    assert shade != (0xFF, 0xFF, 0xFF) and len(set(shade)) == 1  # type: ignore[arg-type]


def test_save_picture_passes_marks_and_highlight_on(tmp_path: Path) -> None:
    save_picture(MARKED, tmp_path / "m.txt", marks=[(1, 1)], highlight=[(2, 2), (2, 3)])
    assert (tmp_path / "m.txt").read_text() == "B B . .\nB + . #\n. . y y\n. . . .\n"
    save_picture(MARKED, tmp_path / "m.svg", marks=iter([(1, 1)]), highlight=iter([(2, 2)]))
    root = _parse((tmp_path / "m.svg").read_text())
    assert [e.get("data-cell") for e in root.iter(f"{SVG}circle")] == ["1,1"]
    assert any(e.get("class") == "highlight" for e in root.iter(f"{SVG}path"))
    save_picture(MARKED, tmp_path / "m.png", marks=[(1, 1)], highlight=[(2, 2)])
    assert (tmp_path / "m.png").read_bytes().startswith(b"\x89PNG")


def test_touching_pieces_of_one_letter_are_told_apart_in_text() -> None:
    """Two T-tetrominoes side by side show their boundary (issue 47, item 3): with letters
    alone they read as one region of eight T's."""
    from polytile.formats import PlacedPiece, Solution
    from polytile.render import to_text

    two = Solution("tt", 2, 4, (PlacedPiece("T4", ((0, 0), (0, 1), (0, 2), (1, 1))),
                                PlacedPiece("T4", ((1, 0), (1, 2), (1, 3), (0, 3)))))  # fmt: skip
    with_walls = to_text(two, color=False).splitlines()
    assert with_walls == ["+---+---+---+---+", "| T   T   T | T |", "+---+   +---+   +",
                          "| T | T | T   T |", "+---+---+---+---+"]  # fmt: skip
    apart = Solution("tl", 1, 2, (PlacedPiece("I1", ((0, 0),)), PlacedPiece("O1", ((0, 1),))))
    assert to_text(apart, color=False) == "I O\n"  # letters tell them apart: no walls


def test_boards_name_their_squares_as_their_moves_do(tmp_path: Path) -> None:
    """#50: Blokus pictures name columns a, b, ... and rows from 1 at the bottom (Pentobi's
    points, as its moves write them); City Blocks (Ritchie) rows and columns from 0 at the
    top left (its moves' cells); each name sits beside its square (``cell_boxes``, where
    the web board's clicks land, agrees); the PNG grows by the same margins."""
    import re

    from polytile.faces.registry import face

    for game, options, first_col, top_row in (("blokus", {"variant": "duo"}, "a", "14"),
                                              ("cityblocks", {}, "0", "0")):  # fmt: skip
        f = face(game)
        path = tmp_path / f"{game}.json"
        path.write_text(f.new(0, options))
        doc = f.read(str(path))
        svg = str(f.picture(doc, "svg", cell=24))
        group = re.search(r'<g class="coordinates"[^>]*>(.*?)</g>', svg, re.S)
        assert group, game
        names = [(float(x), float(y), t) for x, y, t in
                 re.findall(r'<text x="([\d.]+)" y="([\d.]+)">([^<]+)</text>', group[1])]
        cells = f.move_cells(doc, cell=24)
        assert cells is not None
        side = round(len(cells.cells) ** 0.5)
        assert len(names) == 2 * side, game
        x0, y0, w, h = cells.cells["0,0"]
        under = next(n for n in names if n[2] == first_col and abs(n[0] - (x0 + w / 2)) < 0.01)
        assert under[1] > y0 + side * h  # under the board
        beside = [n for n in names if abs(n[1] - (y0 + h / 2)) < 0.01 and n[0] < x0]
        assert [n[2] for n in beside] == [top_row], game
        width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"',
                                                     svg).groups())  # fmt: skip
        assert all(0 < x < width and 0 < y < height for x, y, _ in names)
        png = f.picture(doc, "png", cell=24)
        assert isinstance(png, bytes) and png.startswith(b"\x89PNG")
        assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (
            int(width), int(height))


def test_render_files_name_the_squares_as_the_board_does(tmp_path: Path) -> None:
    """The pictures ``polytile render -o`` writes of a Blokus or City Blocks (Ritchie)
    position name the squares as the web board's do (they had none)."""
    from click.testing import CliRunner

    from polytile.cli import cli
    from polytile.faces.registry import face

    runner = CliRunner()
    for game, options in (("blokus", {"variant": "duo"}), ("cityblocks", {})):
        path = tmp_path / f"{game}.json"
        path.write_text(face(game).new(0, options))
        out = tmp_path / f"{game}.svg"
        result = runner.invoke(cli, ["render", str(path), "-o", str(out)])
        assert result.exit_code == 0, result.output
        doc = face(game).read(str(path))
        assert out.read_text() == face(game).picture(doc, "svg", cell=24)
        assert 'class="coordinates"' in out.read_text()

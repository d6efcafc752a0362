"""Pictures of a puzzle to solve (polytile.render.puzzle) and of given pieces (issue 47, item 3):
the tray lists every piece with its supply, given pieces are marked in puzzle and solution
pictures, holes show, PNG pictures have a sensible size, several go on one sheet."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from PIL import Image

from polytile.errors import FormatError
from polytile.formats import PlacedPiece, Solution, dumps, loads
from polytile.puzzles.tiling.picture import puzzle_picture
from polytile.puzzles.tiling.puzzle_file import parse_puzzle
from polytile.puzzles.tiling.puzzles import check_solution
from polytile.render import (
    PuzzlePicture,
    contact_sheet,
    contact_sheet_png,
    png_bytes,
    save_picture,
    save_sheet,
    to_svg,
    to_text,
)

SVG = "{http://www.w3.org/2000/svg}"

#: A board with a hole, every kind of supply and a given piece.
DOC: dict[str, Any] = {
    "format": "polytile/puzzle@1",
    "name": "tray-demo",
    "board": ["#.....", "......", "......"],
    "pieces": [
        {"name": "L4", "count": 2},
        {"name": "O4", "count": "0-2"},
        {"name": "I2", "count": "*"},
        {"choose": 1, "of": ["T4", "I3"]},
    ],
    "given": [{"piece": "L4", "cells": [[1, 0], [2, 0], [2, 1], [2, 2]]}],
}
#: Each piece still to place and its supply, as the tray says it.
SUPPLIES = {"L4": "x1", "O4": "0-2", "I2": "any number", "T4": "up to 1", "I3": "up to 1"}


@pytest.fixture
def picture() -> PuzzlePicture:
    return puzzle_picture(parse_puzzle(DOC, "demo.json"))


def _attrs(svg: str, cls: str) -> list[dict[str, str]]:
    return [e.attrib for e in ET.fromstring(svg).iter() if e.get("class") == cls]


# -- the tray -----------------------------------------------------------------------------------
def test_text_tray_lists_every_piece_with_its_supply(picture: PuzzlePicture) -> None:
    text = to_text(picture, color=False)
    for name, supply in SUPPLIES.items():
        assert f"{name} {supply}" in text
    assert "Pieces to place:" in text and "Choose 1 of these:" in text
    assert text.startswith("tray-demo\n")


def test_text_tray_draws_each_piece_in_its_letters(picture: PuzzlePicture) -> None:
    text = to_text(picture, color=False)
    # side by side, top-aligned, each label under the tallest piece of its row
    assert text.endswith(
        "Pieces to place:\n"
        "L        O O      I I\n"
        "L L L    O O\n"
        "L4 x1    O4 0-2   I2 any number\n"
        "\n"
        "Choose 1 of these:\n"
        "T T T        I I I\n"
        "  T\n"
        "T4 up to 1   I3 up to 1\n"
        "\n"
        "13 cells to fill, 4 covered by the given pieces; pieces may be left over\n"
    )


def test_svg_tray_has_one_group_per_piece_with_its_supply(picture: PuzzlePicture) -> None:
    svg = to_svg(picture, cell=20)
    pieces = {a["data-piece"]: a["data-supply"] for a in _attrs(svg, "tray-piece")}
    assert pieces == SUPPLIES
    headings = [e.text for e in ET.fromstring(svg).iter(f"{SVG}text")
                if e.get("class") == "tray-heading"]  # fmt: skip
    assert headings == ["Pieces to place", "Choose 1 of these"]


def test_nothing_left_to_place_is_said() -> None:
    empty = PuzzlePicture("done", Solution("done", 1, 2, ()), ())
    assert "Nothing left to place." in to_text(empty, color=False)
    assert "Nothing left to place" in to_svg(empty)


# -- holes and given pieces -----------------------------------------------------------------------
def test_text_board_shows_the_hole_and_the_given_piece_in_lower_case(
    picture: PuzzlePicture,
) -> None:
    lines = to_text(picture, color=False).splitlines()
    assert lines[1:4] == ["# . . . . .", "l . . . . .", "l l l . . ."]
    assert lines[4] == "lower case: given in place (L4)"


def test_colour_text_keeps_the_given_letters_in_lower_case(picture: PuzzlePicture) -> None:
    text = to_text(picture, color=True)
    assert "\x1b[" in text and "l " in text and "lower case: given in place (L4)" in text


def test_svg_board_hatches_the_given_piece_and_shows_the_hole(picture: PuzzlePicture) -> None:
    svg = to_svg(picture, cell=20)
    root = ET.fromstring(svg)
    board = [e for e in root if e.get("class") == "puzzle-board"]
    assert len(board) == 1 and board[0].tag == f"{SVG}svg"
    assert [a["data-piece"] for a in _attrs(svg, "given-hatch")] == ["L4"]
    given = [a for a in _attrs(svg, "piece") if a.get("data-given") == "true"]
    assert [a["data-piece"] for a in given] == ["L4"]
    assert len(_attrs(svg, "blocked")) == 1
    notes = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "tray-note"]
    assert notes[0] == "Hatched: given in place"


def test_png_puzzle_has_the_board_above_its_tray(picture: PuzzlePicture, tmp_path: Any) -> None:
    out = tmp_path / "puzzle.png"
    save_picture(picture, out, cell=20)
    with Image.open(out) as image:
        width, height = image.size
        assert image.format == "PNG"
    with Image.open(io.BytesIO(png_bytes(picture.setup, 20, "tray-demo"))) as board:
        bw, bh = board.size
    assert width >= max(bw, 14 * 20) and width < 40 * 20
    assert bh + 3 * 20 < height < bh + 20 * 20  # two groups of small pieces, two notes


def test_txt_file_is_the_plain_text(picture: PuzzlePicture, tmp_path: Any) -> None:
    out = tmp_path / "puzzle.txt"
    save_picture(picture, out)
    assert out.read_text() == to_text(picture, color=False)


# -- given pieces in solution pictures -----------------------------------------------------------
def _solution(given: list[int] | None) -> Solution:
    extra = {} if given is None else {"given": given}
    placed = (PlacedPiece("V3", ((0, 0), (1, 0), (1, 1))), PlacedPiece("I2", ((0, 1), (0, 2))))
    return Solution("demo", 2, 3, placed, blocked=((1, 2),), extra=extra)


def test_solution_text_marks_given_pieces_in_lower_case_with_a_line_saying_so() -> None:
    assert to_text(_solution([0]), color=False) == (
        "v I I\nv v #\nlower case: given in place (V3)\n"
    )
    assert to_text(_solution(None), color=False) == "V I I\nV V #\n"


def test_given_pieces_in_colour_with_a_highlight_over_them() -> None:
    text = to_text(_solution([0]), color=True, highlight=[(0, 0), (1, 0), (1, 1)])
    assert "v▒" in text and "I " in text and text.endswith("lower case: given in place (V3)\n")


def test_solution_svg_and_png_mark_given_pieces() -> None:
    svg = to_svg(_solution([0]))
    assert [a["data-piece"] for a in _attrs(svg, "given-hatch")] == ["V3"]
    assert not _attrs(to_svg(_solution(None)), "given-hatch")
    assert png_bytes(_solution([0]), 24, None) != png_bytes(_solution(None), 24, None)


def test_given_field_reads_back_and_is_checked_when_read() -> None:
    solution = _solution([0])
    assert loads(dumps(solution)) == solution and loads(dumps(solution)).extra["given"] == [0]
    doc = json.loads(dumps(_solution(None)))
    for bad, where in (([2], r"given\[0\]"), ([0, 0], r"given\[1\]"), ([True], r"given\[0\]"),
                       ("0", "given: must be a list")):  # fmt: skip
        with pytest.raises(FormatError, match=where):
            loads(json.dumps({**doc, "given": bad}), "sol.json")


def test_a_solved_puzzle_records_its_given_pieces_and_validate_checks_them() -> None:
    puzzle = parse_puzzle({"format": "polytile/puzzle@1", "board": ["...."],
                           "pieces": ["I2", {"name": "O1", "shape": ["#"], "count": 2}],
                           "given": [{"piece": "I2", "cells": [[0, 1], [0, 2]]}]})  # fmt: skip
    ones = [PlacedPiece("O1", ((0, 0),)), PlacedPiece("O1", ((0, 3),))]
    solution = puzzle.solution_of(ones)
    assert solution.extra["given"] == [0] and solution.placements[0].piece == "I2"
    assert check_solution(solution, puzzle) == []
    wrong = Solution(solution.puzzle, 1, 4, solution.placements, extra={"given": [1]})
    assert any("'given'" in reason for reason in check_solution(wrong, puzzle))
    unmarked = Solution(solution.puzzle, 1, 4, solution.placements)  # older files: no field
    assert check_solution(unmarked, puzzle) == []


# -- sheets ---------------------------------------------------------------------------------------
def test_several_puzzles_on_one_svg_and_png_sheet(picture: PuzzlePicture) -> None:
    other = puzzle_picture(parse_puzzle({"format": "polytile/puzzle@1", "name": "bar",
                                         "board": ["..."], "pieces": ["I3"]}))  # fmt: skip
    pages = [(picture, picture.name), (other, other.name)]
    svg = contact_sheet(pages, columns=2, cell=16, heading="two puzzles")
    root = ET.fromstring(svg)
    assert [e.find(f"{SVG}title").text for e in root if e.tag == f"{SVG}svg"] == [  # type: ignore[union-attr]
        "tray-demo", "bar"]  # fmt: skip
    assert {a["data-piece"] for a in _attrs(svg, "tray-piece")} == {*SUPPLIES, "I3"}
    with Image.open(io.BytesIO(contact_sheet_png(pages, columns=2, cell=16))) as sheet:
        one = Image.open(io.BytesIO(png_bytes(picture, 16, picture.name)))
        assert sheet.size[0] > 2 * one.size[0] and sheet.size[1] > one.size[1]


def test_a_text_sheet_is_each_picture_under_its_caption(picture: PuzzlePicture,
                                                        tmp_path: Any) -> None:  # fmt: skip
    out = tmp_path / "sheet.txt"
    save_sheet([(picture, picture.name), (_solution(None), "a solution")], out)
    assert out.read_text() == (to_text(picture, color=False) + "\na solution\n"
                               + to_text(_solution(None), color=False))  # fmt: skip

"""A tiling puzzle on paper (polytile.puzzles.tiling.picture): the tray's supplies in words,
the given copies taken off, and what render reads."""

from __future__ import annotations

from typing import Any

import pytest

from polytile.puzzles.tiling.picture import draws, puzzle_picture, read_drawn, supply_text, tray
from polytile.puzzles.tiling.puzzle_file import parse_puzzle, puzzle_doc
from polytile.puzzles.tiling.puzzles import CATALOGUE


def _puzzle(pieces: list[Any], board: list[str] | None = None, **more: Any) -> Any:
    return parse_puzzle({"format": "polytile/puzzle@1", "name": "p",
                         "board": board or ["." * 10] * 5, "pieces": pieces, **more})  # fmt: skip


def _said(puzzle: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    return [(g.heading, [(t.name, t.supply) for t in g.pieces]) for g in tray(puzzle)]


@pytest.mark.parametrize(
    ("args", "said"),
    [((1, 1), "x1"), ((3, 3), "x3"), ((0, 2), "0-2"), ((1, 4), "1-4"),
     ((0, 5, True), "any number"), ((2, 5, True), "2 or more"), ((0, 2, False, True), "up to 2"),
     ((0, 7, True, True), "any number")],
)  # fmt: skip
def test_supply_in_words(args: tuple[Any, ...], said: str) -> None:
    assert supply_text(*args) == said


def test_every_catalogue_puzzle_lists_each_type_once_with_its_copies() -> None:
    for puzzle in CATALOGUE.values():
        groups = tray(puzzle)
        assert [g.heading for g in groups] == ["Pieces to place"]
        problem = puzzle.problem
        assert [(t.name, t.supply) for t in groups[0].pieces] == [
            (shape.name, f"x{n}") for shape, n in zip(problem.types, problem.counts, strict=True)
        ]
        assert all(t.cells == shape.cells for t, shape in zip(groups[0].pieces, problem.types,
                                                              strict=True))  # fmt: skip


def test_choices_say_how_many_of_them() -> None:
    ten = _puzzle([{"choose": 10, "of": ["pentominoes"]}])
    assert _said(ten)[0][0] == "Choose 10 of these"
    assert {s for _, s in _said(ten)[0][1]} == {"up to 1"} and len(_said(ten)[0][1]) == 12
    both = _puzzle([{"name": "I2", "count": 2}, {"choose": 1, "of": ["O4", "T4"]}],
                   board=["....", "...."])  # fmt: skip
    assert _said(both) == [("Pieces to place", [("I2", "x2")]),
                           ("Choose 1 of these", [("O4", "up to 1"), ("T4", "up to 1")])]


def test_a_choice_range_and_an_open_choice() -> None:
    rng = _puzzle([{"choose": "9-10", "of": ["pentominoes"]}])
    assert _said(rng)[0][0] == "Choose 9 to 10 of these"
    tetro = _puzzle([{"choose": "*", "of": [{"set": "tetrominoes", "count": "*"}]}],
                    board=["...."] * 4)  # fmt: skip
    assert _said(tetro)[0][0] == "Choose any number of these"
    assert {s for _, s in _said(tetro)[0][1]} == {"any number"}
    least = _puzzle([{"choose": "2-1000", "of": [{"name": "I2", "count": 8}, "O4"]}],
                    board=["...."] * 4)  # fmt: skip
    assert _said(least) == [("Choose at least 2 of these", [("I2", "up to 8"), ("O4", "up to 1")])]


def test_given_copies_are_taken_off_the_tray() -> None:
    l5 = [[1, 0], [1, 1], [1, 2], [1, 3], [2, 0]]
    puzzle = _puzzle([{"name": "I5", "count": 2}, "L5", {"name": "I2", "count": "*"}],
                     board=["....."] * 4,
                     given=[{"piece": "I5", "cells": [[0, c] for c in range(5)]},
                            {"piece": "L5", "cells": l5}])  # fmt: skip
    assert _said(puzzle) == [("Pieces to place", [("I5", "x1"), ("I2", "any number")])]
    picture = puzzle_picture(puzzle)
    assert [p.piece for p in picture.setup.placements] == ["I5", "L5"]
    assert picture.setup.extra["given"] == [0, 1]
    assert picture.notes == ("10 cells to fill, 10 covered by the given pieces; pieces may be "
                             "left over",)  # fmt: skip


def test_one_sided_pieces_are_said_not_to_turn_over() -> None:
    puzzle = _puzzle(["L4", "I4"], board=["....", "...."], one_sided=True)
    assert puzzle_picture(puzzle).notes == (
        "8 cells to fill", "One-sided: turn the pieces, but do not turn them over.")


def test_as_many_as_fit_is_kept_but_not_compared() -> None:
    puzzle = _puzzle([{"name": "O4", "count": "*"}, "I2"], board=["......"] * 2)
    assert puzzle.unlimited == {"O4"}
    again = parse_puzzle(puzzle_doc(puzzle))  # the file writes the range "0-3"
    assert again.unlimited == frozenset() and again == puzzle


def test_render_reads_puzzle_files_and_catalogue_names(tmp_path: Any) -> None:
    import json

    path = tmp_path / "mine.json"
    path.write_text(json.dumps(puzzle_doc(CATALOGUE["pentomino-3x20"])))
    assert draws(str(path)) and read_drawn(str(path)).problem == CATALOGUE["pentomino-3x20"].problem
    assert draws("pentomino-6x10") and read_drawn("pentomino-6x10") is CATALOGUE["pentomino-6x10"]
    solution = tmp_path / "sol.json"
    solution.write_text('{"format": "polytile/solution@1"}')
    assert not draws(str(solution)) and not draws("four-square") and not draws("nothing")

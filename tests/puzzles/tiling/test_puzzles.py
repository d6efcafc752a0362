"""Tiling puzzles: catalogue, puzzle files, and the independent rules check."""

from __future__ import annotations

import json

import pytest

from polytile.errors import FormatError, UnknownNameError
from polytile.formats import PlacedPiece, Solution
from polytile.puzzles.tiling.catalogue import load_puzzle, resolve
from polytile.puzzles.tiling.puzzle_file import parse_puzzle
from polytile.puzzles.tiling.puzzles import (
    CATALOGUE,
    check_solution,
    get_puzzle,
    to_solution,
)
from polytile.solvers.tiling import compile_problem, solutions


def test_catalogue_has_the_named_puzzles():
    assert {
        "pentomino-6x10",
        "pentomino-5x12",
        "pentomino-4x15",
        "pentomino-3x20",
        "pentomino-8x8-hole",
        "tetromino-8x10",
    } <= set(CATALOGUE)
    holed = get_puzzle("pentomino-8x8-hole").board
    assert holed.blocked == {(3, 3), (3, 4), (4, 3), (4, 4)}
    tet = get_puzzle("tetromino-8x10")
    assert tet.problem.counts == (4, 4, 4, 4, 4)
    assert sorted(tet.piece_names()).count("T4") == 4


def test_unknown_puzzle_lists_the_catalogue():
    with pytest.raises(UnknownNameError, match="pentomino-6x10"):
        get_puzzle("pentomino-7x10")
    with pytest.raises(UnknownNameError):
        resolve("no-such-puzzle")


def _doc(**changes):
    doc = {
        "format": "polytile/puzzle@1",
        "name": "strip",
        "board": ["....", "...."],
        "pieces": [{"name": "I4", "count": 2}],
    }
    doc.update(changes)
    return doc


def test_puzzle_file_round_trip(tmp_path):
    path = tmp_path / "strip.json"
    path.write_text(json.dumps(_doc()))
    puzzle = load_puzzle(path)
    assert puzzle.name == "strip"
    assert puzzle.problem.counts == (2,)
    assert sum(1 for _ in solutions(puzzle.problem)) == 1  # two horizontal bars only
    assert resolve(str(path)).name == "strip"


def test_puzzle_file_with_custom_shapes_and_sets():
    doc = _doc(board=["...", "..."], pieces=[{"name": "L", "shape": ["#.", "##"], "count": 2}])
    puzzle = parse_puzzle(doc)
    assert puzzle.problem.types[0].name == "L"
    sets = parse_puzzle(_doc(board=["......"] * 10, pieces=["pentominoes"]))
    assert sets.problem.n_pieces == 12


@pytest.mark.parametrize(
    ("changes", "where", "message"),
    [
        ({"format": "polytile/puzzle@2"}, "format", "expected format"),
        ({"board": ["....", "..."]}, "board", "row 1 has 3 cells"),
        ({"board": ["..x."]}, "board[0]", "strings of"),
        ({"pieces": ["Q9"]}, "pieces[0]", "unknown piece"),
        ({"pieces": [{"name": "A", "shape": ["#.", ".#"]}]}, "pieces[0]", "not edge-connected"),
        ({"pieces": [{"name": "I4", "count": 0}]}, "pieces[0]", "count"),
        ({"pieces": [{"name": "I4", "count": 3}]}, "pieces", "cover 12 cells but the board has 8"),
        ({"pieces": []}, "pieces", "at least one piece"),
        ({"pieces": ["I4", {"name": "J", "shape": ["####"]}]}, "pieces[1]", "same shape"),
        (
            {"pieces": [{"name": "A", "shape": ["###"]}, {"name": "A", "shape": ["##"]}]},
            "pieces[1]",
            "two different shapes are named 'A'",
        ),
        ({"pieces": ["I2", {"name": "I2", "shape": ["###"]}]}, "pieces[1]", "named 'I2'"),
    ],
)
def test_bad_puzzle_files_name_the_field(changes, where, message):
    with pytest.raises(FormatError, match=message) as info:
        parse_puzzle(_doc(**changes), "bad.json")
    assert info.value.source == "bad.json"
    assert info.value.where == where


def test_bad_json_names_the_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n "format": "polytile/puzzle@1",\n "board": [\n')
    with pytest.raises(FormatError) as info:
        load_puzzle(path)
    assert "line" in (info.value.where or "")


def _first_solution(name):
    puzzle = get_puzzle(name)
    pl = compile_problem(puzzle.problem).placements
    return puzzle, to_solution(puzzle, pl, next(solutions(puzzle.problem)))


def test_solver_solutions_pass_the_rules_check():
    for name in ("pentomino-3x20", "pentomino-8x8-hole", "tetromino-8x10"):
        puzzle, sol = _first_solution(name)
        assert check_solution(sol, puzzle) == []
        assert check_solution(sol) == []


def _replace(sol, index, cells=None, piece=None):
    placements = list(sol.placements)
    old = placements[index]
    placements[index] = PlacedPiece(piece or old.piece, tuple(cells or old.cells), old.color)
    return Solution(sol.puzzle, sol.rows, sol.cols, tuple(placements), blocked=sol.blocked)


def test_rules_check_reports_every_violation():
    puzzle, sol = _first_solution("pentomino-3x20")
    shifted = [(r, c + 30) for r, c in sol.placements[0].cells]
    bad = _replace(sol, 0, cells=shifted)
    reasons = check_solution(bad, puzzle)
    assert any("outside the 3x20 board" in r for r in reasons)
    assert any("open cells are not covered" in r for r in reasons)

    overlap = _replace(sol, 1, cells=sol.placements[0].cells, piece=sol.placements[0].piece)
    reasons = check_solution(overlap, puzzle)
    assert any("overlaps placement 0" in r for r in reasons)
    assert any("pieces not placed" in r for r in reasons)

    wrong_shape = _replace(sol, 0, piece="X5" if sol.placements[0].piece != "X5" else "I5")
    assert any("do not form piece" in r for r in check_solution(wrong_shape, puzzle))

    assert any("unknown piece name" in r for r in check_solution(_replace(sol, 0, piece="Q7")))


def test_rules_check_rejects_blocked_cells_and_wrong_board():
    puzzle, sol = _first_solution("pentomino-8x8-hole")
    moved = Solution(sol.puzzle, 8, 8, sol.placements, blocked=())
    assert check_solution(moved, puzzle) == []  # the puzzle's own holes still apply
    small = Solution(sol.puzzle, 6, 10, sol.placements)
    assert any("is 6x10 but puzzle" in r for r in check_solution(small, puzzle))
    hole = (3, 3)
    covering = _replace(sol, 0, cells=[hole, *sol.placements[0].cells[1:]])
    assert any("blocked cells" in r for r in check_solution(covering, puzzle))

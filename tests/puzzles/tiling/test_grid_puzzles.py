"""Tiling puzzles on the triangle, hex and cube grids: the catalogue's counts by both engines,
puzzle files, the rules check of solutions, and the command line."""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from polytile.cli import cli
from polytile.errors import FormatError
from polytile.formats import PlacedPiece, loads
from polytile.puzzles.tiling.puzzle_file import parse_puzzle, puzzle_doc
from polytile.puzzles.tiling.puzzles import CATALOGUE, check_solution
from polytile.solvers.counting import count_tiling
from polytile.solvers.symmetric import first_solution
from polytile.solvers.tiling import compile_problem

GRID_PUZZLES = sorted(name for name, p in CATALOGUE.items() if p.board.grid != "square")
SLOW = {"solid-pentomino-3x4x5", "solid-pentomino-2x5x6", "hexiamond-4x9", "hexiamond-3x12"}


def _counts(name: str) -> None:
    puzzle = CATALOGUE[name]
    front = count_tiling(puzzle.problem, engine="frontier")
    search = count_tiling(puzzle.problem, engine="search")
    want = (puzzle.known_count, puzzle.known_count_up_to_symmetry)
    assert (front.count, front.count_up_to_symmetry) == want
    assert (search.count, search.count_up_to_symmetry) == want


def test_the_catalogue_has_every_grid() -> None:
    assert {CATALOGUE[n].board.grid for n in GRID_PUZZLES} == {"triangle", "hex", "cube"}


@pytest.mark.parametrize("name", [n for n in GRID_PUZZLES if n not in SLOW])
def test_catalogue_counts_equal_both_engines(name: str) -> None:
    _counts(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW))
def test_slow_catalogue_counts_equal_both_engines(name: str, slow_scale: str) -> None:
    if slow_scale == "reduced" and name != "hexiamond-4x9":
        pytest.skip("full size only (POLYTILE_SLOW=full): minutes on a busy machine")
    _counts(name)


@pytest.mark.parametrize("name", GRID_PUZZLES)
def test_a_solution_passes_the_rules_and_a_moved_cell_fails(name: str) -> None:
    puzzle = CATALOGUE[name]
    found = first_solution(puzzle.problem, seed=1)
    if found is None:
        assert puzzle.known_count == 0
        return
    solution = puzzle.to_solution(compile_problem(puzzle.problem).placements, found)
    assert check_solution(solution, puzzle) == []
    assert loads(json.dumps(json.loads(_dumps(solution)))) == solution
    first = solution.placements[0]
    other = solution.placements[1]
    swapped = (PlacedPiece(first.piece, other.cells), PlacedPiece(other.piece, first.cells))
    broken = dataclasses.replace(solution, placements=swapped + solution.placements[2:])
    reasons = check_solution(broken, puzzle)
    assert any("do not form piece" in r for r in reasons), reasons


def _dumps(solution) -> str:
    from polytile.formats import dumps

    return dumps(solution)


@pytest.mark.parametrize("name", GRID_PUZZLES)
def test_puzzle_files_round_trip(name: str) -> None:
    puzzle = CATALOGUE[name]
    doc = puzzle_doc(puzzle)
    assert doc["grid"] == puzzle.board.grid
    again = parse_puzzle(json.loads(json.dumps(doc)), "x.json")
    assert again.problem == puzzle.problem


def _doc(**fields):
    return {"format": "polytile/puzzle@1", "grid": "hex", "board": "2x2",
            "pieces": [{"name": "A", "shape": ["# #"], "count": 2}]} | fields  # fmt: skip


@pytest.mark.parametrize(("fields", "where", "said"), [
    ({"grid": "octagon"}, "grid", "unknown grid 'octagon'"),
    ({"board": ["..x"]}, "board[0]", "spaces outside the board"),
    ({"board": "2x2x2"}, "board", "must look like 8x10"),
    ({"pieces": ["pentominoes"]}, "pieces[0]", 'give "grid": "square"'),
    ({"pieces": ["Bar"]}, "pieces[0]", "unknown hex piece"),
    ({"symmetry": "sideways"}, "symmetry", "'symmetry' is one of"),
    ({"grid": "cube", "board": "1x2x2", "pieces": [{"name": "A", "shape": ["##"], "count": 2}],
      "given": [{"piece": "A", "cells": [[0, 0], [0, 1]]}]}, "given[0]", "[layer, row, col]"),
])  # fmt: skip
def test_bad_grid_puzzle_files_name_the_field(fields, where, said) -> None:
    with pytest.raises(FormatError) as info:
        parse_puzzle(_doc(**fields), "bad.json")
    assert where in str(info.value) and said in str(info.value)


def test_a_solid_puzzle_counts_by_the_literatures_convention_by_default() -> None:
    doc = _doc(grid="cube", board="3x3x3", pieces=["soma"])
    assert parse_puzzle(doc).problem.symmetries == "mirror-pieces"
    assert parse_puzzle(doc).problem.one_sided
    assert parse_puzzle(doc | {"symmetry": "rotations"}).problem.symmetries == "rotations"
    with pytest.raises(FormatError, match="'A' and 'B' are the same shape"):
        parse_puzzle(doc | {"one_sided": False})  # mirrored, the twins are one piece
    flat = _doc(grid="cube", board="2x3x10", pieces=["solid-pentominoes"], one_sided=False)
    assert parse_puzzle(flat).problem.symmetries == "board"


def test_count_and_solve_from_the_command_line(tmp_path) -> None:
    path = tmp_path / "tri.json"
    path.write_text(json.dumps({"format": "polytile/puzzle@1", "name": "tri",
                                "grid": "triangle", "board": "2x3",
                                "pieces": [{"name": "A", "shape": ["###"], "count": 4}]}))
    runner = CliRunner()
    counted = runner.invoke(cli, ["count", str(path), "--json"])
    assert counted.exit_code == 0, counted.output
    assert json.loads(counted.output.splitlines()[-1])["count"] == 2
    solved = runner.invoke(cli, ["solve", str(path), "--json"])
    assert solved.exit_code == 0, solved.output
    doc = json.loads(solved.output)
    assert doc["grid"] == "triangle" and len(doc["placements"]) == 4
    out = tmp_path / "one.json"
    runner.invoke(cli, ["solve", str(path), "-o", str(out)])
    checked = runner.invoke(cli, ["validate", str(out), "--puzzle", str(path)])
    assert checked.exit_code == 0, checked.output


def test_a_cube_count_names_its_symmetries() -> None:
    runner = CliRunner()
    done = runner.invoke(cli, ["count", "soma-cube", "--json"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.output.splitlines()[-1])
    assert (doc["count"], doc["count_up_to_symmetry"]) == (11_520, 240)
    assert len(doc["group"]) == 48 and doc["group"][0] == "rotation 0"
    said = runner.invoke(cli, ["count", "hexiamond-6x6"])
    assert "156 up to the 4 symmetries of the board" in said.output, said.output

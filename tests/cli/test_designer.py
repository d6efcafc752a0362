"""A designer's commands on puzzles with several solutions (issue 47, items 4 and 5): every
solution listed, where they differ, the fewest pieces that make a puzzle unique."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from click.testing import CliRunner

from polytile.cli import cli
from polytile.puzzles.tiling.catalogue import load_puzzle, resolve
from polytile.puzzles.tiling.unique import differences, every_solution, fewest_givens
from polytile.solvers.counting import count_tiling

FIVE = {"format": "polytile/puzzle@1", "name": "five", "board": ["......"] * 5,
        "pieces": ["L5", "P5", "Y5", "N5", "U5", "V5"]}  # fmt: skip


def _file(tmp_path: Path, doc: dict) -> str:
    path = tmp_path / f"{doc['name']}.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_solve_all_lists_every_solution_checked(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["solve", "pentomino-3x20", "--all"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 8 and len({line for line in lines}) == 8
    assert all(json.loads(line)["format"] == "polytile/solution@1" for line in lines)
    assert "8 solutions, all of them" in result.stderr
    capped = runner.invoke(cli, ["solve", "t-tetromino-8x20", "--all", "--limit", "5"])
    assert len(capped.stdout.splitlines()) == 5 and "stopped by --limit" in capped.stderr
    assert runner.invoke(cli, ["solve", "pentomino-3x20", "--limit", "5"]).exit_code == 2


def test_count_differ_marks_the_cells_the_solutions_disagree_on(tmp_path: Path) -> None:
    puzzle = load_puzzle(_file(tmp_path, FIVE))
    found, whole = every_solution(puzzle, 1000)
    assert whole and len(found) == count_tiling(puzzle.problem).count
    differ = differences(puzzle, found)
    doc = json.loads(CliRunner().invoke(cli, ["count", _file(tmp_path, FIVE), "--differ",
                                              "--json"]).stdout)  # fmt: skip
    assert doc["solutions"] == len(found) and sorted(map(tuple, doc["differ"])) == sorted(differ)


def test_unique_gives_the_fewest_pieces_proven(tmp_path: Path) -> None:
    """The file written counts one solution, and no smaller set of one solution's pieces
    leaves one (checked here by brute force over the list of solutions)."""
    for doc in (FIVE, {"format": "polytile/puzzle@1", "name": "strip",
                       "board": ["." * 20] * 3, "pieces": ["pentominoes"]}):  # fmt: skip
        out = tmp_path / f"{doc['name']}-u.json"
        result = CliRunner().invoke(cli, ["unique", _file(tmp_path, doc), "-o", str(out),
                                          "--json"])  # fmt: skip
        assert result.exit_code == 0, result.output
        made = load_puzzle(out)
        assert count_tiling(made.problem).count == 1
        size = len(json.loads(result.stdout)["given"])
        puzzle = load_puzzle(_file(tmp_path, doc))
        found, _ = every_solution(puzzle, 10_000)
        fewest = fewest_givens(puzzle, found)
        assert fewest is not None and len(fewest.pieces) == size
        sets = [set(s) for s in found]
        for target in sets:  # no smaller set of any solution's placements singles it out
            for fewer in itertools.combinations(sorted(target), size - 1):
                assert sum(set(fewer) <= s for s in sets) > 1


def test_unique_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    runner = CliRunner()
    out = str(tmp_path / "u.json")
    many = runner.invoke(cli, ["unique", "pentomino-6x10", "-o", out, "--limit", "100"])
    assert many.exit_code == 1 and "more than 100 solutions" in many.stderr
    teaser = runner.invoke(cli, ["unique", "four-square", "-o", out])
    assert teaser.exit_code == 2 and "teaser" in teaser.stderr
    assert resolve("pentomino-3x20").known_count == 8

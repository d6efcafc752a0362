"""``polytile validate``: the CLI around polytile.puzzles.tiling.puzzles.check_solution."""

from __future__ import annotations

import json
from pathlib import Path

from polytile.formats import PlacedPiece, Solution, save

from .helpers import Invoke, assert_clean_failure


def test_help(invoke: Invoke) -> None:
    result = invoke("validate", "--help")
    assert result.exit_code == 0
    assert "Exit codes" in result.stdout and "Examples" in result.stdout


def test_valid_solution_checked_against_its_own_puzzle(invoke: Invoke, examples: Path) -> None:
    result = invoke("validate", str(examples / "pentomino-6x10.json"))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "valid solution for puzzle pentomino-6x10" in result.stdout


def test_broken_solution_lists_every_reason(invoke: Invoke, examples: Path) -> None:
    result = invoke("validate", str(examples / "pentomino-6x10-broken.json"))
    assert result.exit_code == 1
    reasons = result.stdout.splitlines()
    assert any("overlaps" in r for r in reasons)
    assert any("outside the 6x10 board" in r for r in reasons)
    assert any("not covered" in r for r in reasons)
    assert "invalid" in result.stderr and "Traceback" not in result.stderr


def test_json_output(invoke: Invoke, examples: Path) -> None:
    bad = invoke("validate", str(examples / "pentomino-6x10-broken.json"), "--json")
    assert bad.exit_code == 1
    doc = json.loads(bad.stdout)
    assert doc["valid"] is False and len(doc["reasons"]) >= 3
    good = json.loads(invoke("validate", str(examples / "pentomino-6x10.json"), "--json").stdout)
    assert good["valid"] is True and good["reasons"] == [] and good["puzzle"] == "pentomino-6x10"


def _write(tmp_path: Path, *placements: PlacedPiece, rows: int = 3, cols: int = 3) -> str:
    path = tmp_path / "s.json"
    save(Solution("my-board", rows, cols, placements), path)
    return str(path)


def test_overlap_rejected(invoke: Invoke, tmp_path: Path) -> None:
    file = _write(
        tmp_path,
        PlacedPiece("I3", ((0, 0), (0, 1), (0, 2))),
        PlacedPiece("I2", ((0, 2), (1, 2))),
    )
    result = invoke("validate", file)
    assert result.exit_code == 1
    assert "overlaps placement 0 at cell (0, 2)" in result.stdout
    assert "not in the catalogue" in result.stderr  # so only the placements were checked


def test_out_of_board_rejected(invoke: Invoke, tmp_path: Path) -> None:
    file = _write(tmp_path, PlacedPiece("I2", ((2, 2), (2, 3))))
    result = invoke("validate", file)
    assert result.exit_code == 1
    assert "outside the 3x3 board" in result.stdout


def test_wrong_shape_rejected(invoke: Invoke, tmp_path: Path) -> None:
    file = _write(tmp_path, PlacedPiece("I3", ((0, 0), (0, 1), (1, 1))))
    result = invoke("validate", file)
    assert result.exit_code == 1
    assert "do not form piece I3" in result.stdout


def test_partial_solution_is_valid_without_a_puzzle(invoke: Invoke, tmp_path: Path) -> None:
    file = _write(tmp_path, PlacedPiece("V3", ((0, 0), (1, 0), (1, 1))))
    assert invoke("validate", file).exit_code == 0


def test_explicit_puzzle(invoke: Invoke, examples: Path) -> None:
    file = str(examples / "pentomino-6x10.json")
    result = invoke("validate", file, "--puzzle", "pentomino-5x12")
    assert result.exit_code == 1
    assert "pentomino-5x12" in result.stdout
    assert invoke("validate", file, "--placements-only").exit_code == 0


def test_a_known_piece_outside_the_puzzles_set_is_not_called_unknown(
    invoke: Invoke, examples: Path, tmp_path: Path
) -> None:
    doc = json.loads((examples / "pentomino-6x10.json").read_text())
    doc["placements"][0] = {"piece": "O4", "cells": [[0, 0], [0, 1], [1, 0], [1, 1]]}
    doc["placements"][1]["piece"] = "Q9"
    path = tmp_path / "sol.json"
    path.write_text(json.dumps(doc))
    result = invoke("validate", str(path), "--puzzle", "pentomino-6x10")
    assert result.exit_code == 1
    assert (
        "placement 0 (O4): O4 is a known piece but not one of puzzle pentomino-6x10's pieces"
        in result.stdout
    )
    assert "placement 1 (Q9): unknown piece name 'Q9'" in result.stdout


def test_unknown_puzzle_exits_2(invoke: Invoke, examples: Path) -> None:
    result = invoke("validate", str(examples / "pentomino-6x10.json"), "--puzzle", "nope")
    assert_clean_failure(result)
    assert "nope" in result.stderr


def test_conflicting_options(invoke: Invoke, examples: Path) -> None:
    result = invoke(
        "validate",
        str(examples / "pentomino-6x10.json"),
        "--puzzle",
        "pentomino-6x10",
        "--placements-only",
    )
    assert_clean_failure(result)


def test_positions_and_text_boards_are_valid_once_loaded(invoke: Invoke, examples: Path) -> None:
    for name in ("blokus-opening.json", "board-8x8-centre.txt"):
        result = invoke("validate", str(examples / name))
        assert result.exit_code == 0, result.stderr
        assert "valid position" in result.stdout


def test_unreadable_files_exit_2(invoke: Invoke, tmp_path: Path) -> None:
    bad_board = tmp_path / "board.txt"
    bad_board.write_text("....\n..x.\n")
    result = invoke("validate", str(bad_board))
    assert_clean_failure(result)
    assert f"{bad_board}: line 2" in result.stderr
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    assert_clean_failure(invoke("validate", str(binary)))
    v2 = tmp_path / "v2.json"
    v2.write_text('{"format": "polytile/solution@2"}')
    result = invoke("validate", str(v2))
    assert_clean_failure(result)
    assert "unsupported version 2" in result.stderr
    assert_clean_failure(invoke("validate", str(tmp_path / "missing.json")))


HOSTILE = "\x1b[2J\x1b]0;owned\x07"


def test_control_characters_in_names_are_escaped(invoke: Invoke, tmp_path: Path) -> None:
    """#17 item 10: names read from the file reach the reasons printed; their control
    characters are shown escaped, never sent to the terminal."""
    path = tmp_path / "hostile.json"
    save(Solution("p" + HOSTILE, 2, 2, (PlacedPiece("Q" + HOSTILE, ((0, 0), (0, 1))),)), path)
    for args in ((), ("--json",), ("--placements-only",)):
        result = invoke("validate", str(path), *args)
        assert result.exit_code == 1, result.stderr
        text = result.stdout + result.stderr
        assert "\x1b" not in text and "\x07" not in text, text
        assert "owned" in text  # the name is still shown, escaped
    assert "\\x1b" in invoke("validate", str(path)).stdout


def test_a_missing_henning_street_is_called_missing(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "city.json"
    assert invoke("new", "henning", "--seed", "3", "-o", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    del doc["setup"]["streets"]["f"]
    path.write_text(json.dumps(doc))
    result = invoke("validate", str(path))
    assert_clean_failure(result)
    assert "streets.f: street f is missing" in result.stderr and "None" not in result.stderr


def test_blokus_records_valid_and_illegal(invoke: Invoke, examples: Path, tmp_path: Path) -> None:
    """#48: a valid Blokus record was called a "position"; an illegal one exited 2 with no
    JSON for --json, its start cell written (4, 4) where the record writes points (e10)."""
    record = str(examples / "duo-game.blksgf")
    good = invoke("validate", record)
    assert good.exit_code == 0 and good.stdout.endswith("duo-game.blksgf: valid record\n")
    assert json.loads(invoke("validate", record, "--json").stdout)["kind"] == "record"
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus Duo];B[a1,b1,c1];W[j5])")
    said = invoke("validate", str(bad), "--json")
    assert said.exit_code == 1 and "Traceback" not in said.stdout + said.stderr
    doc = json.loads(said.stdout)
    assert (doc["valid"], doc["kind"]) == (False, "record")
    assert doc["reasons"] == [f"{bad}: move 1: illegal move blue I3 a1 b1 c1: blue's first "
                              "piece must cover its start cell e10"]  # fmt: skip
    text = invoke("validate", str(bad))
    assert text.exit_code == 1 and "(4, 4)" not in text.stdout + text.stderr
    broken = tmp_path / "broken.blksgf"
    broken.write_text("(;GM[Blokus Duo];B[z99])")  # not a point: unreadable, exit 2
    assert_clean_failure(invoke("validate", str(broken), "--json"), 2)

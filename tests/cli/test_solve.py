"""``polytile count``, ``solve`` and ``puzzles`` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polytile.cli import cli
from polytile.formats import loads
from polytile.puzzles.tiling.catalogue import resolve

from .helpers import Invoke, assert_clean_failure


@pytest.mark.parametrize("command", ["count", "solve", "puzzles", "pieces", "render", "validate"])
def test_every_command_has_teaching_help(invoke: Invoke, command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.stdout
    if command in ("count", "solve"):
        assert "Examples:" in result.stdout


def test_root_help_and_version(invoke: Invoke) -> None:
    assert "Start here" in invoke("--help").stdout
    result = invoke("--version")
    assert result.exit_code == 0 and "polytile" in result.stdout


def test_count_json(invoke: Invoke) -> None:
    result = invoke("count", "pentomino-3x20", "--json", "--workers", "1", "--engine", "search")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["puzzle"] == "pentomino-3x20"
    assert (doc["count"], doc["count_up_to_symmetry"], doc["complete"]) == (8, 2, True)
    assert doc["nodes"] > 0 and doc["seconds"] >= 0 and doc["engine"] == "search"
    assert doc["up_to"] == "the 4 symmetries of the board"
    assert doc["work"] == {"done": doc["subproblems"], "total": doc["subproblems"],
                           "unit": "subproblems"}  # fmt: skip


def test_count_says_which_engine_ran_and_why(invoke: Invoke) -> None:
    doc = json.loads(invoke("count", "t-tetromino-8x20", "--json").stdout)
    assert (doc["count"], doc["count_up_to_symmetry"]) == (234_390, 58_851)
    assert doc["engine"] == "frontier" and "frontier" in doc["engine_reason"]
    assert doc["peak_keys"] > 0 and doc["work"]["unit"] == "cells"
    text = invoke("count", "pentomino-6x10", "--workers", "1")
    assert "search:" in text.stderr and "every piece differs" in text.stderr
    forced = invoke("count", "four-square", "--engine", "frontier")
    assert forced.exit_code == 2 and "colour rules" in forced.stderr


def test_count_estimate_is_labelled(invoke: Invoke) -> None:
    result = invoke("count", "t-tetromino-8x20", "--estimate", "--probes", "4000")
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("t-tetromino-8x20: about ") and "an estimate: 95% between" in first
    doc = json.loads(invoke("count", "four-square", "--estimate", "--probes", "800",
                            "--json").stdout)  # fmt: skip
    assert doc["estimate"] is True and doc["frontier"] is None
    assert "colour" in doc["frontier_refused"]
    assert invoke("count", "pentomino-3x20", "--probes", "100").exit_code == 2


def test_a_frontier_count_stopped_early_prints_no_count(invoke: Invoke) -> None:
    result = invoke("count", "tetromino-8x10", "--time-limit", "1", "--engine", "frontier",
                    "--json")  # fmt: skip
    doc = json.loads(result.stdout)
    assert doc["count"] is None and doc["complete"] is False
    assert doc["stopped_by"] == "time limit" and doc["work"]["unit"] == "cells"
    assert doc["work"]["done"] < doc["work"]["total"]
    text = invoke("count", "tetromino-8x10", "--time-limit", "1", "--engine", "frontier")
    assert "no count (stopped by time limit at cell" in text.stdout


def test_count_text_and_no_symmetry(invoke: Invoke) -> None:
    result = invoke("count", "pentomino-4x15", "--workers", "1")
    assert result.stdout.startswith("pentomino-4x15: 1,472 solutions (368 up to the 4 symmetries")
    plain = json.loads(invoke("count", "pentomino-4x15", "--no-symmetry", "--json").stdout)
    assert plain["count"] == 1472 and plain["count_up_to_symmetry"] is None


def test_count_with_a_time_limit_is_marked_incomplete(invoke: Invoke) -> None:
    result = invoke("count", "tetromino-8x10", "--time-limit", "0.5", "--json", "--workers", "1")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["complete"] is False and doc["stopped_by"] == "time limit"
    assert doc["count_up_to_symmetry"] is None


def test_count_a_puzzle_file(invoke: Invoke, tmp_path) -> None:
    path = tmp_path / "strip.json"
    path.write_text(
        json.dumps(
            {
                "format": "polytile/puzzle@1",
                "name": "strip",
                "board": ["....", "...."],
                "pieces": [{"name": "I4", "count": 2}],
            }
        )
    )
    doc = json.loads(invoke("count", str(path), "--json").stdout)
    assert (doc["count"], doc["count_up_to_symmetry"]) == (1, 1)


def test_solve_prints_a_verified_picture_and_json(invoke: Invoke, tmp_path) -> None:
    result = invoke("solve", "pentomino-8x8-hole", "--no-color")
    assert result.exit_code == 0
    rows = result.stdout.split("\n")[:8]
    assert all(len(r.split()) == 8 for r in rows)
    out = tmp_path / "sol.json"
    result = invoke("solve", "pentomino-8x8-hole", "--json", "-o", str(out))
    sol = loads(result.stdout)
    assert resolve("pentomino-8x8-hole").check(sol) == []
    assert loads(out.read_text()) == sol
    assert invoke("validate", str(out)).exit_code == 0


def test_solve_four_square_and_its_variants(invoke: Invoke) -> None:
    result = invoke("solve", "four-square", "--seed", "3", "--json")
    assert result.exit_code == 0
    sol = loads(result.stdout)
    assert {pp.color for pp in sol.placements} == {"blue", "yellow", "red", "green"}
    assert resolve("four-square").check(sol) == []
    small = invoke(
        "solve",
        "four-square",
        "--board",
        "8x8",
        "--pieces",
        "O4,T4,L4,Z4",
        "--touch",
        "connected",
        "--json",
    )
    assert small.exit_code == 0
    teaser = resolve("four-square", "connected", "8x8", None, "O4,T4,L4,Z4")
    assert teaser.check(loads(small.stdout)) == []


def test_both_engines_agree_on_small_teasers(invoke: Invoke) -> None:
    variant = ("--board", "8x8", "--pieces", "O4,T4,L4,Z4")
    for engine in ("xcc", "cpsat"):
        found = invoke("solve", "four-square", *variant, "--engine", engine, "--json",
                       "--seed", "1")  # fmt: skip
        assert found.exit_code == 0, found.stderr
        sol = loads(found.stdout)
        assert resolve("four-square", None, "8x8", None, "O4,T4,L4,Z4").check(sol) == []
        none = invoke("solve", "four-square", "--board", "4x8", "--colors", "2", "--pieces",
                      "O4,T4,L4,Z4", "--engine", engine)  # fmt: skip
        assert none.exit_code == 1 and "no solution exists" in none.stderr
    assert loads(found.stdout).extra["engine"] == "cpsat"
    wrong = invoke("solve", "pentomino-6x10", "--engine", "cpsat")
    assert wrong.exit_code == 2 and "four-square" in wrong.stderr


def test_count_four_square_variant(invoke: Invoke) -> None:
    result = invoke("count", "four-square", "--board", "4x8", "--pieces", "L4,T4", "--json")
    doc = json.loads(result.stdout)
    assert (doc["count"], doc["count_up_to_symmetry"]) == (48, 1)


def test_no_solution_exits_1(invoke: Invoke, tmp_path) -> None:
    path = tmp_path / "none.json"
    path.write_text(
        json.dumps(
            {
                "format": "polytile/puzzle@1",
                "board": ["......"],
                "pieces": [{"name": "O4"}, {"name": "I2"}],
            }
        )
    )
    result = invoke("solve", str(path))
    assert result.exit_code == 1
    assert "no solution exists" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["count", "pentomino-7x10"], "unknown puzzle"),
        (["solve", "four-square", "--board", "8x8"], "cover 80 cells"),
        (["solve", "four-square", "--board", "8xx"], "rows x columns"),
        (["solve", "four-square", "--pieces", "Q4"], "unknown piece"),
        (["count", "pentomino-6x10", "--touch", "local"], "apply to the teasers"),
        (["count", "pentomino-6x10", "--workers", "0"], "0"),
        (["solve", "missing-file.json"], "missing-file.json"),
        (["solve", "four-square", "--seed", "-3"], "--seed"),
        (["solve", "four-square", "--time-limit", "abc"], "'abc' is not a number of seconds"),
        (["solve", "four-square", "--board", "no/such.txt"], "no/such.txt: no such board file"),
        (["bounds", "examples/duo-endgame.blksgf", "--seed", "-1"], "--seed"),
    ],
)
def test_bad_input_is_a_clean_exit_2(invoke: Invoke, args, message) -> None:
    result = invoke(*args)
    assert_clean_failure(result, 2)
    assert message in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe..\n", "must be UTF-8 text"),
        (b"; only a comment\n", "has no rows"),
        (b"....\n...\n", "rows must be equal"),
    ],
)
def test_bad_board_files_are_named(invoke: Invoke, tmp_path, content, message) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(content)
    result = invoke("solve", "four-square", "--board", str(path))
    assert_clean_failure(result, 2)
    assert f"{path}: " in result.stderr and message in result.stderr


def test_layout_search_out_of_time_exits_1(invoke: Invoke) -> None:
    result = invoke("solve", "one-color", "--board", "10x10", "--time-limit", "0.2")
    assert result.exit_code == 1, result.stderr
    # the limit covers the whole command: the search had what start-up left of 0.2 s
    assert "one-color 10x10: no layout found in 0." in result.stderr
    assert "internal error" not in result.stderr


def test_puzzles_lists_the_catalogue(invoke: Invoke) -> None:
    text = invoke("puzzles").stdout
    assert "pentomino-6x10" in text and "9,356 / 2,339" in text
    rows = json.loads(invoke("puzzles", "--json").stdout)
    assert {r["name"] for r in rows} >= {"pentomino-8x8-hole", "tetromino-8x10"}


def test_solve_and_validate_eighty_four(invoke: Invoke, tmp_path) -> None:
    result = invoke("solve", "eighty-four", "--seed", "1", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert len(doc["placements"]) == 84 and sorted(doc["order"]) == list(range(84))
    path = tmp_path / "e84.json"
    path.write_text(result.stdout)
    assert invoke("validate", str(path)).exit_code == 0
    doc["order"][0], doc["order"][1] = doc["order"][1], doc["order"][0]
    path.write_text(json.dumps(doc))
    bad = invoke("validate", str(path))
    assert bad.exit_code == 1 and "turn" in bad.stdout


def test_solve_one_color(invoke: Invoke) -> None:
    from polytile.puzzles.blokus.teasers import check_one_color

    result = invoke("solve", "one-color", "--seed", "1", "--json")
    assert result.exit_code == 0, result.stderr
    sol = loads(result.stdout)
    assert (sol.rows, sol.cols, len(sol.placements)) == (14, 14, 21)
    assert check_one_color(sol, sol.extra["order"], 14) == []
    assert_clean_failure(invoke("solve", "one-color", "--board", "9x9"), 2)
    assert_clean_failure(invoke("solve", "one-color", "--touch", "local"), 2)


def test_solve_fit_reports_objective_and_bound(invoke: Invoke) -> None:
    result = invoke(
        "solve",
        "four-square",
        "--fit",
        "--board",
        "3x3",
        "--colors",
        "2",
        "--pieces",
        "O4",
        "--touch",
        "none",
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["status"] == "optimal" and doc["objective"] == doc["bound"] == 4
    assert_clean_failure(invoke("solve", "pentomino-6x10", "--fit"), 2)
    # When everything fits, the exact search says so (CP-SAT alone stalled at 72 of 80).
    doc = json.loads(invoke("solve", "four-square", "--fit", "--seed", "2", "--json").stdout)
    assert doc["status"] == "optimal" and doc["objective"] == doc["bound"] == 80


def test_ctrl_c_during_fit_shows_the_best_so_far(tmp_path) -> None:
    import signal
    import subprocess
    import sys
    import time

    # The child gets the default Ctrl-C handling even when this test runs as a background
    # job (which starts with SIGINT ignored).
    proc = subprocess.Popen(
        [sys.executable, "-m", "polytile", "solve", "four-square", "--fit", "--board", "8x8",
         "--time-limit", "60", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    doc = json.loads(out)
    if doc.get("solution", True) is None:  # a busy machine: no layout found in 4 s yet
        assert doc["status"] == "interrupted"
        assert "interrupted" in err  # before a layout, or before the search even started
        return
    assert "interrupted: the layout above is the best found so far" in err
    assert doc["placements"] and doc["status"] in ("feasible", "optimal")


def test_exit_codes_are_those_the_help_lists(tmp_path: Path) -> None:
    """An unknown puzzle, or a puzzle file naming an unknown piece, is bad input (exit 2, as
    'solve --help' lists it); exit 1 is kept for a puzzle with no solution (issue 36)."""
    runner = CliRunner()
    assert "2    bad input: an unknown puzzle name or piece" in runner.invoke(
        cli, ["solve", "--help"]).stdout  # fmt: skip
    puzzle = tmp_path / "q.json"
    puzzle.write_text(json.dumps({"format": "polytile/puzzle@1", "name": "q",
                                  "board": ["....", "...."], "pieces": ["Q9", "I4"]}))  # fmt: skip
    for args in (["solve", "nosuchshape"], ["solve", str(puzzle)]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2 and "unknown" in result.stderr, args
    impossible = tmp_path / "i.json"
    impossible.write_text(json.dumps({"format": "polytile/puzzle@1", "name": "i",
                                      "board": ["..", ".."], "pieces": ["I4"]}))  # fmt: skip
    result = runner.invoke(cli, ["solve", str(impossible)])  # four cells, but no room for I4
    assert result.exit_code == 1, result.stderr

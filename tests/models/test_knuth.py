"""Knuth's exact-cover text format (issue 47, item 6): read, written, round-tripped through
the colour engine against polytile's own counts, and reached from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from polytile.cli import cli
from polytile.errors import FormatError
from polytile.models.knuth import parse_text, puzzle_text
from polytile.puzzles.tiling.catalogue import resolve
from polytile.puzzles.tiling.puzzle_file import parse_puzzle
from polytile.solvers.counting import count_tiling
from polytile.solvers.xcc import count

from ..solvers.test_tiling import random_problems

FIRST = """| Knuth's first example, TAOCP 7.2.2.1 (6)
a b c d e f g
c e
a d g
b c f
a d f
b g
d e g
"""

COLOURS = """| with a secondary item and colours
p q r | x y
p q x y:A
p r x:A y
p x:B
q x:A
r y:B
"""


def _knuth_count(text: str) -> int:
    problem = parse_text(text)
    expanded, _ = problem.expanded()
    found = count(expanded).count
    assert found % problem.copies_factor == 0
    return found // problem.copies_factor


def test_knuths_examples() -> None:
    assert _knuth_count(FIRST) == 1
    assert _knuth_count(COLOURS) == 1
    problem = parse_text(COLOURS)
    assert problem.secondary == ("x", "y") and problem.check([3, 1]) == []
    assert problem.check([0, 2]) != []  # x in two colours, r not covered


@pytest.mark.parametrize("name", ["pentomino-3x20", "tetromino-pairs-5x8", "domino-8x8"])
def test_puzzles_round_trip_with_the_same_count(name: str) -> None:
    puzzle = resolve(name)
    if name == "domino-8x8":  # 32 copies: 32! numberings of the copies; keep it small
        puzzle = parse_puzzle({"format": "polytile/puzzle@1", "name": "d", "board": ["...."] * 3,
                               "pieces": [{"name": "I2", "count": 6}]})  # fmt: skip
    assert _knuth_count(puzzle_text(puzzle.name, puzzle.problem)) == count_tiling(
        puzzle.problem).count  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_problems())
def test_random_puzzles_round_trip(prob) -> None:  # type: ignore[no-untyped-def]
    if max(prob.counts) > 4:  # copies are expanded as numbered items: keep k! small
        return
    assert _knuth_count(puzzle_text("p", prob)) == count_tiling(prob, engine="search").count


@pytest.mark.parametrize(("text", "said"), [
    ("", "no item line"),
    ("a | b | c\na\n", "two bars"),
    ("a a\na\n", "named twice"),
    ("2:3|a b\na b\n", "multiplicity range 2:3"),
    ("a b\na z\n", "unknown item 'z'"),
    ("a | x\nx\n", "needs a primary item"),
])  # fmt: skip
def test_bad_files_name_the_line(text: str, said: str) -> None:
    with pytest.raises(FormatError, match=said):
        parse_text(text, "f.dlx")


def test_the_command_line_converts_counts_and_solves(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "p.dlx"
    made = runner.invoke(cli, ["convert", "tetromino-pairs-5x8", "-o", str(out)])
    assert made.exit_code == 0, made.output
    counted = json.loads(runner.invoke(cli, ["count", str(out), "--json"]).stdout)
    assert counted["count"] == 3106 and counted["format"] == "knuth"
    solved = runner.invoke(cli, ["solve", str(out), "--json"])
    assert solved.exit_code == 0 and len(json.loads(solved.stdout)["options"]) == 10
    teaser = runner.invoke(cli, ["convert", "four-square", "-o", str(tmp_path / "t.dlx")])
    assert teaser.exit_code == 2 and "teaser" in teaser.stderr
    own = tmp_path / "mine.json"
    assert runner.invoke(cli, ["convert", "t-tetromino-8x20", "-o", str(own)]).exit_code == 0
    assert parse_puzzle(json.loads(own.read_text())).problem == resolve("t-tetromino-8x20").problem
    refused = runner.invoke(cli, ["solve", str(out), "--seed", "3"])
    assert refused.exit_code == 2 and "Knuth's format" in refused.stderr


def test_items_repeated_or_coloured_wrongly_name_their_line() -> None:
    with pytest.raises(FormatError, match=r"line 2.*twice in one option"):
        parse_text("a b\na a b\n", "f.dlx")
    with pytest.raises(FormatError, match=r"line 2.*colour on the primary item 'a'"):
        parse_text("a | x\na:R x\n", "f.dlx")
    with pytest.raises(FormatError, match=r"multiplicity 12: .* 12! times"):
        parse_text("12:12|a b\na\nb\n", "f.dlx")

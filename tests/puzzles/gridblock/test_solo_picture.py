"""The Gridblock solitaire grid as text: columns and rows that read as tile names (``b3``),
and a legend line saying what a tile's letter, digit and marks mean (issue 35, item 6)."""

from __future__ import annotations

import dataclasses

from polytile.puzzles.gridblock.generate import QUESTION_LEGEND, GridblockSoloPuzzle, question_text
from polytile.puzzles.gridblock.grid import SYMBOLS, parse_tile
from polytile.puzzles.gridblock.solo import SoloPuzzle, solo_legend, solo_picture, solve_solo


def _tile(lines: list[str], name: str) -> str:
    """What the grid shows at tile ``name``, found through the column letters over it and
    the row numbers at its left."""
    header, rows = lines[0], lines[1:7]
    row = next(line for line in rows if line.split()[0] == name[1:])
    x = header.index(f" {name[0]} ") + 1
    return row[x : x + 3].strip()


def test_solved_grid_reads_as_tile_names_with_a_legend() -> None:
    puzzle = SoloPuzzle.from_seed(7, "fixed", rounds=1)
    result = solve_solo(puzzle)
    assert result.start is not None and result.turns
    lines = solo_picture(result).splitlines()
    for name in ("a1", "c4", "f6"):
        assert _tile(lines, name)[0] == SYMBOLS[puzzle.layout[parse_tile(name)]]
    last = result.turns[-1].tile
    assert lines[7] == solo_legend(result.start, last)
    ends = [n for n in (f"{c}{r}" for c in "abcdef" for r in range(1, 7))
            if _tile(lines, n).endswith("@")]  # fmt: skip
    assert [parse_tile(n) for n in ends] == [last]
    if result.start != last:
        starts = [n for n in (f"{c}{r}" for c in "abcdef" for r in range(1, 7))
                  if _tile(lines, n).endswith("*")]  # fmt: skip
        assert [parse_tile(n) for n in starts] == [result.start]


def test_legend_says_the_marks_shown() -> None:
    assert solo_legend(None, None) == "tiles: symbol, then the cubes on it (. none)"
    assert solo_legend(3, None).endswith("; * the set-up tile")
    assert solo_legend(3, 4).endswith("* the set-up tile, @ the mover's last tile")
    assert solo_legend(3, 3).endswith("@ the mover's last tile (the set-up tile too)")
    result = solve_solo(SoloPuzzle.from_seed(7, "fixed", rounds=1))
    empty = dataclasses.replace(result, turns=())
    assert solo_picture(empty).splitlines()[7] == solo_legend(result.start, None)


def test_question_grid_has_coordinates_and_a_legend() -> None:
    puzzle = GridblockSoloPuzzle("t", SoloPuzzle.from_seed(7, "fixed", rounds=1), 5)
    lines = question_text(puzzle).splitlines()
    assert lines[0].split() == list("abcdef") and [ln.split()[0] for ln in lines[1:7]] == [
        str(r) for r in range(1, 7)
    ]
    assert lines[7] == QUESTION_LEGEND

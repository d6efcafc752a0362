"""The largest-path puzzle's boards as text: column letters and row numbers that read as the
rules' cell names (``d4``), and a legend line (issue 35, item 6)."""

from __future__ import annotations

import numpy as np

from polytile.puzzles.walkable.board import BLUE, DEAD, RED, SIDE, legal_drops
from polytile.puzzles.walkable.path import PathPuzzle, PathResult, drop_text, path_picture
from polytile.puzzles.walkable.path_generate import (
    WalkablePathAnswer,
    WalkablePathPuzzle,
    answer_text,
    question_text,
)
from polytile.puzzles.walkable.picture import path_legend, path_text
from polytile.puzzles.walkable.rules import parse_drop


def _read(text: str) -> dict[tuple[int, str], str]:
    """(board 1..3, cell name like ``d4``) -> the character shown, found through the labels
    alone: the board titles, the column letters over each board, the row numbers."""
    lines = text.splitlines()
    titles, letters = lines[0], lines[1]
    out = {}
    for b in range(3):
        x0 = titles.index(f"board {b + 1}")
        assert letters[x0 : x0 + SIDE] == "abcdefghij"
        for line in lines[2 : 2 + SIDE]:
            row = int(line[:4])
            for c, letter in enumerate(letters[x0 : x0 + SIDE]):
                out[b + 1, f"{letter}{row}"] = line[x0 + c]
    return out


def _puzzle() -> PathPuzzle:
    cells = np.zeros(300, dtype=np.int8)
    cells[[0, 105, 299]] = DEAD, RED, BLUE  # a1 on board 1, f1 on board 2, j10 on board 3
    return PathPuzzle(cells, ("L4", "I4"))


def test_cells_are_where_their_names_say() -> None:
    shown = _read(path_text(_puzzle().cells))
    assert shown[1, "a1"] == "#" and shown[2, "f1"] == "R" and shown[3, "j10"] == "B"
    assert list(shown.values()).count(".") == 300 - 3


def test_drops_are_numbered_on_the_cells_their_text_names() -> None:
    p = _puzzle()
    first = tuple(int(g) for g in legal_drops(np.array(p.cells), "L4")[7])
    cells = np.array(p.cells)
    cells[list(first)] = RED
    second = tuple(int(g) for g in legal_drops(cells, "I4")[-1])
    result = PathResult(p, "optimal", (first, second), (0, 0, 0), 0, 0, 0.0)
    shown = _read(path_picture(result))
    for number, (name, drop) in enumerate(zip(p.sequence, (first, second), strict=True), 1):
        parsed = parse_drop(drop_text(name, drop))
        assert not isinstance(parsed, str)
        for g in parsed.cells:
            board, rest = divmod(g, 100)
            row, col = divmod(rest, SIDE)
            assert shown[board + 1, f"{'abcdefghij'[col]}{row + 1}"] == str(number)


def test_legend_line_says_every_mark() -> None:
    assert path_legend() == "cells: . unclaimed, # dead, R red, B blue"
    assert path_legend(1).endswith("; 1 red's drop")
    assert path_legend(3).endswith("; 1..3 red's drops, numbered in order")
    assert "last digit" in path_legend(12)
    p = _puzzle()
    result = PathResult(p, "optimal", (None, (1, 2, 101, 201)), (0, 0, 0), 0, 0, 0.0)
    assert path_picture(result).splitlines()[-1] == path_legend(2)
    assert path_text(p.cells).splitlines()[-1] == path_legend()


def test_store_question_and_answer_show_coordinates_and_legend() -> None:
    p = _puzzle()
    puzzle = WalkablePathPuzzle("t", p, 4)
    drops = ((1, 2, 101, 201), (3, 4, 103, 203))
    answer = WalkablePathAnswer(drops, (2, 2, 2), 6, 6)
    question = question_text(puzzle).splitlines()
    assert question[1].split() == ["abcdefghij"] * 3 and question[11].startswith("10  ")
    assert question[12] == path_legend()
    solved = answer_text(puzzle, answer).splitlines()
    assert solved[12] == path_legend(2) and _read("\n".join(solved))[1, "b1"] == "1"

"""Piece supplies (issue 47): copies in ranges, unlimited, choices among pieces. Both
engines against a brute-force enumerator, and puzzle files written and read back."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from polytile import Board, piece, piece_set
from polytile.errors import BoardError, FormatError
from polytile.puzzles.tiling.puzzle_file import parse_count, parse_puzzle, puzzle_doc
from polytile.solvers.counting import count_tiling
from polytile.solvers.tiling import PieceGroup, TilingProblem

from .test_tiling import brute_tilings, orbit_count


def _supplied(tiling: frozenset, prob: TilingProblem) -> bool:
    used = Counter(t for t, _ in tiling)
    if any(not lo <= used[t] <= c for t, (lo, c) in enumerate(zip(prob.low, prob.counts,
                                                                  strict=True))):  # fmt: skip
        return False
    return all(g.low <= sum(used[t] for t in g.types) <= g.high for g in prob.groups)


@st.composite
def supplied_problems(draw: st.DrawFn) -> TilingProblem:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = frozenset(draw(st.lists(st.sampled_from(cells), max_size=3, unique=True)))
    pool = [p for p in piece_set("blokus") if p.size <= 4]
    types = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique=True))
    counts = [draw(st.integers(1, 4)) for _ in types]
    low = [draw(st.integers(0, c)) for c in counts]
    groups = ()
    if len(types) >= 2 and draw(st.booleans()):
        members = tuple(range(draw(st.integers(2, len(types)))))
        for t in members:
            low[t] = 0
        most = sum(counts[t] for t in members)
        lo = draw(st.integers(0, most))
        groups = (PieceGroup(members, lo, draw(st.integers(lo, most))),)
    board = Board(rows, cols, blocked)
    try:
        return TilingProblem(board, tuple(types), tuple(counts), draw(st.booleans()),
                             low=tuple(low), groups=groups)  # fmt: skip
    except BoardError:
        assume(False)
        raise


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(supplied_problems())
def test_supplies_against_brute_force(prob: TilingProblem) -> None:
    b = prob.board
    every = brute_tilings(b.rows, b.cols, b.blocked, [t.cells for t in prob.types],
                          prob.counts, prob.one_sided)  # fmt: skip
    assume(len(every) <= 20_000)
    want = [t for t in every if _supplied(t, prob)]
    search = count_tiling(prob, engine="search")
    front = count_tiling(prob, engine="frontier")
    assert search.count == front.count == len(want)
    assert search.count_up_to_symmetry == front.count_up_to_symmetry == orbit_count(prob, want)


def test_exact_supplies_are_still_checked_for_area() -> None:
    with pytest.raises(BoardError, match="cover 12 cells but the board has 16"):
        TilingProblem(Board(4, 4), (piece("I4"),), (3,))
    with pytest.raises(BoardError, match="the supply covers 20 to 24 cells"):
        TilingProblem(Board(4, 4), (piece("I4"),), (6,), low=(5,))


def test_counts_read_as_ranges() -> None:
    assert parse_count(2) == (2, 2) and parse_count("1-3") == (1, 3)
    assert parse_count("*") == (0, None)
    for bad in (0, "3-1", "0-0", "two", True, 1001):
        with pytest.raises(ValueError, match="number of copies"):
            parse_count(bad)


PUZZLES = {
    # any 10 of the 12 pentominoes in 5x10; both engines count alike
    "choice": ({"choose": 10, "of": ["pentominoes"]}, (5, 10), 27_804, 6_951),
    # the free tetrominoes, as many of each as fit, on 4x4
    "unlimited": ({"set": "tetrominoes", "count": "*"}, (4, 4), 117, 22),
}


@pytest.mark.parametrize("name", PUZZLES)
def test_puzzle_files_with_supplies_round_trip(name: str) -> None:
    entry, (rows, cols), raw, up = PUZZLES[name]
    doc = {"format": "polytile/puzzle@1", "name": name, "board": ["." * cols] * rows,
           "pieces": [entry]}  # fmt: skip
    puzzle = parse_puzzle(doc)
    assert not puzzle.problem.exact
    again = parse_puzzle(json.loads(json.dumps(puzzle_doc(puzzle))))
    assert again.problem == puzzle.problem
    result = count_tiling(puzzle.problem)
    assert (result.count, result.count_up_to_symmetry) == (raw, up)


def test_bad_supplies_name_the_entry() -> None:
    doc = {"format": "polytile/puzzle@1", "board": ["...."], "pieces": [{"name": "I4",
                                                                          "count": "2-1"}]}
    with pytest.raises(FormatError, match=r"pieces\[0\].*range"):
        parse_puzzle(doc)
    doc["pieces"] = [{"choose": 1, "of": ["I4"]}, "I4"]
    with pytest.raises(FormatError, match="in a choice and listed again"):
        parse_puzzle(doc)
    doc["pieces"] = [{"choose": 1}]
    with pytest.raises(FormatError, match="a choice is"):
        parse_puzzle(doc)


def test_a_given_piece_of_a_choice_counts_towards_it() -> None:
    """Two of I4 or O4 on 2x4, one I4 given: one way is left (the other I4 beside it)."""
    doc = {"format": "polytile/puzzle@1", "name": "g", "board": ["....", "...."],
           "pieces": [{"choose": 2, "of": [{"name": "I4", "count": "0-2"},
                                           {"name": "O4", "count": "0-2"}]}],
           "given": [{"piece": "I4", "cells": [[0, 0], [0, 1], [0, 2], [0, 3]]}]}  # fmt: skip
    puzzle = parse_puzzle(doc)
    assert count_tiling(puzzle.problem, engine="search").count == 1
    assert count_tiling(puzzle.problem, engine="frontier").count == 1
    again = parse_puzzle(json.loads(json.dumps(puzzle_doc(puzzle))))
    assert again.problem == puzzle.problem


def test_a_type_in_two_groups_is_refused() -> None:
    with pytest.raises(ValueError, match="one group only"):
        TilingProblem(Board(2, 4), (piece("I4"), piece("O4"), piece("L4")), (2, 2, 2),
                      low=(0, 0, 0), groups=(PieceGroup((0, 1), 2, 2),
                                             PieceGroup((0, 2), 1, 2)))  # fmt: skip

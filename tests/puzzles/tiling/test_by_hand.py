"""Solving a tiling puzzle or a teaser by hand: the rules of each step, and their agreement
with the puzzle's own checker on whole answers."""

from __future__ import annotations

import itertools

import pytest

from polytile.board import Board
from polytile.formats import PlacedPiece
from polytile.geometry import piece
from polytile.puzzles.tiling.by_hand import hand, step_problems
from polytile.puzzles.tiling.puzzle_file import parse_puzzle
from polytile.puzzles.tiling.teasers import Teaser
from polytile.solvers.tiling import compile_problem, solutions

#: A 3x5 board less a corner, a given V3 in the other corner; I2, I3 x2 and V3 to place.
PACKING = {"format": "polytile/puzzle@1", "name": "small", "board": ["....#", ".....", "....."],
           "pieces": ["I2", {"name": "I3", "count": 2}, {"name": "V3", "count": 2}],
           "given": [{"piece": "V3", "cells": [[1, 4], [2, 4], [2, 3]]}]}  # fmt: skip


def _placed(name: str, cells: list[tuple[int, int]], color: str | None = None) -> PlacedPiece:
    return PlacedPiece(name, tuple(cells), color)


def _every_solution(puzzle: object) -> list[list[PlacedPiece]]:
    problem = puzzle.problem  # type: ignore[attr-defined]
    pl = compile_problem(problem).placements
    found = []
    for indices in solutions(problem):
        answer = puzzle.to_solution(pl, indices)  # type: ignore[attr-defined]
        found.append([pp for pp in answer.placements if pp not in puzzle.given])  # type: ignore[attr-defined]
    return found


def test_the_hand_leaves_out_the_given_pieces() -> None:
    puzzle = parse_puzzle(PACKING)
    assert [(h.name, h.color, h.count) for h in hand(puzzle)] == [
        ("I2", None, 1), ("I3", None, 2), ("V3", None, 1)]  # fmt: skip


def test_every_order_of_every_solution_is_accepted_step_by_step() -> None:
    puzzle = parse_puzzle(PACKING)
    answers = _every_solution(puzzle)
    assert answers
    for answer in answers:
        for order in itertools.permutations(answer):
            for i, step in enumerate(order):
                assert step_problems(puzzle, order[:i], step) == [], (order, i)
            assert puzzle.check(puzzle.solution_of(order)) == []


def test_steps_the_rules_refuse() -> None:
    puzzle = parse_puzzle(PACKING)
    i3 = _placed("I3", [(0, 0), (0, 1), (0, 2)])

    def refused(placed: list[PlacedPiece], step: PlacedPiece) -> str:
        reasons = step_problems(puzzle, placed, step)
        assert reasons, step
        return "; ".join(reasons)

    assert "not one of the puzzle's pieces (I2, I3, V3)" in refused([], _placed("T4", [(0, 0)]))
    assert "not one of" in refused([], _placed("I3", [(0, 0), (0, 1), (0, 2)], "blue"))
    v3 = _placed("V3", [(0, 0), (1, 0), (1, 1)])
    again = _placed("V3", [(0, 2), (1, 2), (1, 1)])
    assert "the puzzle has 1 V3, placed already" in refused([v3], again)
    i3b = _placed("I3", [(1, 0), (1, 1), (1, 2)])
    assert "2 I3, all placed already" in refused([i3, i3b], _placed("I3", [(2, 0), (2, 1),
                                                                         (2, 2)]))  # fmt: skip
    assert "cell (0, 4) is blocked" in refused([], _placed("I3", [(0, 2), (0, 3), (0, 4)]))
    assert "cell (1, 5) is off the 3x5 board" in refused([], _placed("I3", [(1, 3), (1, 4),
                                                                          (1, 5)]))  # fmt: skip
    assert "cell (1, 4) is taken by V3" in refused([], _placed("I3", [(1, 2), (1, 3), (1, 4)]))
    assert "cell (0, 1) is taken by I3" in refused([i3], _placed("I3", [(0, 1), (1, 1), (2, 1)]))
    assert "do not form I3" in refused([], _placed("I3", [(1, 0), (1, 1), (2, 1)]))
    assert "not edge-connected" in refused([], _placed("I3", [(1, 0), (1, 2), (2, 1)]))
    assert "listed twice" in refused([], _placed("I3", [(1, 0), (1, 0), (1, 1)]))


def test_a_one_sided_piece_is_not_turned_over() -> None:
    puzzle = parse_puzzle({"format": "polytile/puzzle@1", "board": ["...", "..."],
                           "pieces": [{"name": "S", "shape": [".##", "##."]}, "I2"],
                           "one_sided": True})  # fmt: skip
    assert step_problems(puzzle, [], _placed("S", [(0, 1), (0, 2), (1, 0), (1, 1)])) == []
    mirrored = step_problems(puzzle, [], _placed("S", [(0, 0), (0, 1), (1, 1), (1, 2)]))
    assert mirrored == ["the cells do not form S (it may not be turned over)"]


def _teaser(touch: str) -> Teaser:
    hand_ = (piece("I3"), piece("V3"))
    return Teaser("t", Board(3, 4), (hand_, hand_), touch)


def test_a_teaser_step_keeps_the_colours_apart() -> None:
    teaser = _teaser("none")
    assert [(h.name, h.color, h.count) for h in hand(teaser)] == [
        ("I3", "blue", 1), ("V3", "blue", 1), ("I3", "yellow", 1), ("V3", "yellow", 1)]  # fmt: skip
    blue = _placed("I3", [(0, 0), (0, 1), (0, 2)], "blue")
    touching = _placed("V3", [(1, 0), (1, 1), (2, 0)], "blue")
    (reason,) = step_problems(teaser, [blue], touching)
    assert reason.startswith("it would share an edge with blue I3 at (1, 0)")
    assert step_problems(teaser, [blue], _placed("V3", [(1, 0), (1, 1), (2, 0)], "yellow")) == []
    assert "not one of" in step_problems(teaser, [], _placed("I3", [(0, 0), (0, 1), (0, 2)],
                                                             "red"))[0]  # fmt: skip


@pytest.mark.parametrize(("cols", "names", "touch"), [(5, ("I2", "V3"), "local"),
                                                     (5, ("I2", "V3"), "connected"),
                                                     (6, ("I3", "I3"), "none")])  # fmt: skip
def test_teaser_steps_agree_with_its_checker_on_every_colouring(
    cols: int, names: tuple[str, ...], touch: str
) -> None:
    """Every tiling of a two-colour teaser's board, in every colouring by the hands: each
    step is accepted exactly when no two pieces of one colour share an edge (the checker's
    colour rule, alone under touch ``none``), and then the checker refuses the whole answer
    only by its corner rule."""
    from collections import Counter

    from polytile.puzzles.tiling.puzzles import TilingPuzzle
    from polytile.solvers.tiling import TilingProblem

    board = Board(2, cols)
    tally = Counter(names)
    shapes = TilingPuzzle("colourless", TilingProblem(
        board, tuple(piece(n) for n in tally), tuple(2 * n for n in tally.values())))  # fmt: skip
    hand_ = tuple(piece(n) for n in names)
    teaser = Teaser("t", board, (hand_, hand_), touch)
    free = Teaser("t", board, (hand_, hand_), "none")
    seen: Counter[str] = Counter()
    for tiling in _every_solution(shapes):
        for colours in itertools.product(("blue", "yellow"), repeat=len(tiling)):
            placed = [PlacedPiece(pp.piece, pp.cells, k)
                      for pp, k in zip(tiling, colours, strict=True)]  # fmt: skip
            whole = teaser.check(teaser.solution_of(placed))
            if any("missing" in r for r in whole):
                continue  # not each colour's own hand: not an answer
            steps = all(not step_problems(teaser, placed[:i], step)
                        for i, step in enumerate(placed))  # fmt: skip
            edges = free.check(free.solution_of(placed))
            assert steps == (edges == []), (placed, edges)
            if steps:
                assert all("corner" in r for r in whole), whole
            seen["refused by the corner rule" if whole and steps else
                 "accepted" if steps else "refused"] += 1  # fmt: skip
    assert seen["accepted"] + seen["refused by the corner rule"] and seen["refused"], seen
    if touch == "local":
        assert seen["refused by the corner rule"], seen

"""The three engines agree: bitboard kernel, Algorithm C (XCC) and CP-SAT, on random tilings."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from polytile import Board, piece_set, placements
from polytile.models.cpsat import PlacementModel, add_cover_exactly, add_piece_exactly_once
from polytile.models.exact_cover import tiling_problem
from polytile.solvers import xcc
from polytile.solvers.cpsat import enumerate_solutions
from polytile.solvers.tiling import Task, TilingProblem, count_task

POOL = [p for p in piece_set("blokus") if p.size <= 4]


@st.composite
def problems(draw):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(2, 5))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = set(draw(st.lists(st.sampled_from(cells), max_size=3, unique=True)))
    types = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=3, unique=True))
    counts = [draw(st.integers(1, 2)) for _ in types]
    area = sum(t.size * k for t, k in zip(types, counts, strict=True))
    free = [x for x in cells if x not in blocked]
    # Fit the board to the pieces: block or unblock cells until the areas match.
    while len(free) > area:
        blocked.add(free.pop())
    if len(free) < area:
        return None
    return TilingProblem(Board(rows, cols, frozenset(blocked)), tuple(types), tuple(counts))


@settings(max_examples=60, deadline=None)
@given(problems())
def test_bitboard_xcc_and_cpsat_counts_agree(problem):
    if problem is None:
        return
    copies = [t for t, k in zip(problem.types, problem.counts, strict=True) for _ in range(k)]
    # Copies are distinct items for XCC and CP-SAT: divide by their permutations.
    same = math.prod(math.factorial(k) for k in problem.counts)
    kernel = count_task(Task(problem, 0, ())).count
    algorithm_c = xcc.count(tiling_problem(problem.board, copies)).count
    pm = PlacementModel(placements(problem.board, copies))
    add_piece_exactly_once(pm)
    add_cover_exactly(pm)
    cp_sat = len(enumerate_solutions(pm, time_limit=20))
    assert algorithm_c == cp_sat
    assert kernel * same == algorithm_c

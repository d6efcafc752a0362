"""The frontier counting engine against published counts, the search and brute force; its
stops (time, Ctrl-C, memory); the estimates of ``count --estimate`` and ``--engine auto``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polytile import Board, piece
from polytile.puzzles.tiling.catalogue import resolve
from polytile.solvers import _frontier_numpy
from polytile.solvers.counting import choose_engine, count_tiling
from polytile.solvers.estimate import estimate_frontier, estimate_search, interval
from polytile.solvers.frontier import (
    FrontierUnsupported,
    count_frontier,
    fixed_layout,
    frontier_layout,
)
from polytile.solvers.tiling import Task, TilingProblem, count_task

from .test_tiling import brute_tilings, random_problems


def problem(rows: int, cols: int, pieces: str, one_sided: bool = False) -> TilingProblem:
    """``pieces`` as "T4*40" or "I4*2,O4*2": names and copies."""
    names, counts = zip(*(part.split("*") for part in pieces.split(",")), strict=True)
    return TilingProblem(Board(rows, cols), tuple(piece(n) for n in names),
                         tuple(int(c) for c in counts), one_sided)  # fmt: skip


# Published counts of repeated-shape rectangles (OEIS A174249 for T-tetrominoes, A004003 for
# dominoes; the L-tetromino 4xn strip and two of each tetromino in 5x8 from Polyform
# Puzzler's tables), each also counted by the search in the issue that set them as figures.
KNOWN = [
    (8, 20, "T4*40", 234_390),
    (12, 16, "T4*48", 5_253_822),
    (8, 24, "T4*48", 3_300_852),
    (4, 20, "L4*20", 1_224_182),
    (8, 8, "I2*32", 12_988_816),
    (5, 8, "I4*2,O4*2,T4*2,L4*2,Z4*2", 3_106),
]


@pytest.mark.parametrize(("rows", "cols", "pieces", "count"), KNOWN)
@pytest.mark.parametrize("threads", [1, 2])
def test_repeated_shapes_match_published_counts(rows, cols, pieces, count, threads) -> None:
    result = count_frontier(problem(rows, cols, pieces), threads=threads)
    assert result.complete and result.count == count


@pytest.mark.parametrize("name", ["pentomino-3x20", "pentomino-4x15", "pentomino-5x12",
                                  "pentomino-8x8-hole"])  # fmt: skip
def test_catalogue_counts_equal_the_search(name: str) -> None:
    puzzle = resolve(name)
    front = count_tiling(puzzle.problem, engine="frontier")
    search = count_tiling(puzzle.problem, engine="search")
    assert front.engine == "frontier" and search.engine == "search"
    assert (front.count, front.count_up_to_symmetry) == (
        puzzle.known_count, puzzle.known_count_up_to_symmetry)  # fmt: skip
    assert (front.count, front.count_up_to_symmetry) == (search.count,
                                                         search.count_up_to_symmetry)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_problems(), st.sampled_from([1, 2]))
def test_random_problems_agree_with_the_search_and_brute_force(prob, threads) -> None:
    """Holes, repeated shapes, one-sided pieces: the raw count, and up to symmetry."""
    front = count_frontier(prob, threads=threads)
    search = count_task(Task(prob, 0, ())).count
    assert front.complete and front.count == search
    if search <= 5_000:
        b = prob.board
        brute = brute_tilings(b.rows, b.cols, b.blocked, [t.cells for t in prob.types],
                              prob.counts, prob.one_sided)  # fmt: skip
        assert front.count == len(brute)
    up = count_tiling(prob, engine="frontier").count_up_to_symmetry
    assert up == count_tiling(prob, engine="search").count_up_to_symmetry


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_problems())
def test_fixed_tilings_by_folding_equal_the_search(prob) -> None:
    """Fix(g) on the board folded by g, against the search over orbits of placements."""
    for k in prob.group():
        if k == 0:
            continue
        try:
            layout = fixed_layout(prob, k)
        except FrontierUnsupported:
            continue  # quarter turns of wide squares: the search counts those
        assert count_frontier(layout).count == count_task(Task(prob, k, ())).count, k


@pytest.mark.parametrize("name", ["pentomino-6x10", "pentomino-8x8-hole", "tetromino-8x10",
                                  "t-tetromino-12x16"])  # fmt: skip
def test_fixed_tilings_of_the_catalogue(name: str) -> None:
    prob = resolve(name).problem
    for k in prob.group():
        if k:
            try:
                layout = fixed_layout(prob, k)
            except FrontierUnsupported:
                assert k in (1, 3)  # the quarter turns of the square board
                continue
            assert count_frontier(layout).count == count_task(Task(prob, k, ())).count


def test_the_compiled_kernel_takes_over_from_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    prob = problem(8, 20, "T4*40")
    whole = count_frontier(prob).count
    monkeypatch.setattr(_frontier_numpy, "NUMPY_KEYS", 5)
    for threads in (1, 2):
        assert count_frontier(prob, threads=threads).count == whole
    stopped = count_frontier(prob, compiled=False)
    assert not stopped.complete and stopped.stopped_by == "too large for numpy"


def test_no_tiling_counts_zero() -> None:
    # a T in 2x3 leaves two cells apart; two squares do not fit in 3x3
    assert count_frontier(problem(2, 3, "T4*1,I2*1")).count == 0
    assert count_frontier(problem(3, 3, "O4*2,I1*1")).count == 0


def test_colours_and_wide_keys_are_refused() -> None:
    with pytest.raises(FrontierUnsupported, match="colour rules"):
        frontier_layout(resolve("four-square").problem)
    # an I5 along a 15-wide board needs a 60-cell window, and 13 types need more bits
    wide = TilingProblem(Board(15, 15), (piece("I5"), piece("O4"), piece("I1")), (9, 32, 52))
    with pytest.raises(FrontierUnsupported, match="63 bits"):
        frontier_layout(wide)


def test_counts_beyond_64_bits_are_exact() -> None:
    """Domino tilings of 14x14 number about 1.1e23: the 128-bit values carry."""
    for threads in (1, 2):
        result = count_frontier(problem(14, 14, "I2*98"), threads=threads)
        assert result.count is not None and result.count > 2**64
        assert result.count == _dominoes(14, 14)


def _column_fills(rows: int, cur: int) -> list[int]:
    """The ways dominoes can fill a column whose cells ``cur`` are taken already: the cells
    of the next column each way takes (horizontal dominoes reach into it)."""
    out: list[int] = []

    def fill(r: int, nxt: int) -> None:
        if r == rows:
            out.append(nxt)
        elif cur >> r & 1:
            fill(r + 1, nxt)
        else:
            fill(r + 1, nxt | 1 << r)  # a horizontal domino into the next column
            if r + 1 < rows and not cur >> (r + 1) & 1:
                fill(r + 2, nxt)  # a vertical one

    fill(0, 0)
    return out


def _dominoes(rows: int, cols: int) -> int:
    """Domino tilings of rows x cols by a plain column-profile transfer matrix."""
    ways = {0: 1}
    for _ in range(cols):
        nxt: dict[int, int] = {}
        for mask, n in ways.items():
            for out in _column_fills(rows, mask):
                nxt[out] = nxt.get(out, 0) + n
        ways = nxt
    return ways.get(0, 0)


def test_a_stop_leaves_no_count() -> None:
    big = resolve("tetromino-8x10").problem
    asked = iter([False, False, True])
    result = count_frontier(big, should_stop=lambda: next(asked, True))
    assert not result.complete and result.count is None and result.stopped_by == "interrupt"
    result = count_frontier(big, memory=1 << 20)
    assert not result.complete and result.stopped_by == "memory"


def test_the_memory_limit_falls_back_to_the_search() -> None:
    prob = problem(6, 6, "T4*5,O4*2,I4*2")
    result = count_tiling(prob, engine="frontier", memory=1)
    assert result.engine == "search" and result.complete
    assert "memory" in result.extra["fallback"]
    assert result.count == count_frontier(prob).count


def test_auto_picks_the_frontier_where_shapes_repeat() -> None:
    assert choose_engine(problem(8, 20, "T4*40"))[0] == "frontier"
    assert choose_engine(resolve("pentomino-6x10").problem)[0] == "search"
    engine, why = choose_engine(resolve("four-square").problem)
    assert engine == "search" and "colour" in why


def test_estimates_are_exact_when_a_population_holds_the_tree() -> None:
    prob = resolve("pentomino-3x20").problem
    est = estimate_search(prob, probes=400_000, replicates=1, rate_seconds=0.01)
    assert est.solutions == 8 and est.nodes == 71_191


def test_estimates_cover_the_true_count() -> None:
    prob = problem(8, 20, "T4*40")
    est = estimate_search(prob, probes=16_000, seed=3, rate_seconds=0.01)
    low, high = interval(est.solutions, est.solutions_se)
    assert low <= 234_390 <= high
    front = estimate_frontier(prob)
    actual = count_frontier(prob)
    assert front.peak >= actual.peak_states  # an upper estimate


def test_a_compile_wait_moves_the_time_limit_on() -> None:
    """Waiting for numba's first compile (here a stand-in that takes 0.6 s) does not eat
    the count's time limit (0.5 s): the limit moves on by the wait."""
    import time as clock

    def compile_wait() -> float:
        clock.sleep(0.6)
        return 0.6

    prob = problem(8, 20, "T4*40")
    result = count_frontier(prob, time_limit=0.5, prepare=compile_wait, numpy_keys=0)
    assert result.complete and result.count == 234_390

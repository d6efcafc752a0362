"""The bitboard tiling kernel and its symmetry handling, against independent brute force."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from polytile import Board, Polyomino, piece, piece_set
from polytile.errors import BoardError
from polytile.solvers.tiling import (
    Task,
    TilingProblem,
    compile_problem,
    count_task,
    plan_count,
    solutions,
    split_task,
)

# -- an independent reference: plain recursion, orientations computed here ---------------


def _orientations(cells, one_sided):
    maps = [lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r)]
    if not one_sided:
        maps += [
            lambda r, c: (r, -c),
            lambda r, c: (-c, -r),
            lambda r, c: (-r, c),
            lambda r, c: (c, r),
        ]
    out = set()
    for f in maps:
        moved = [f(r, c) for r, c in cells]
        r0 = min(r for r, _ in moved)
        c0 = min(c for _, c in moved)
        out.add(tuple(sorted((r - r0, c - c0) for r, c in moved)))
    return sorted(out)


def brute_tilings(rows, cols, blocked, shapes, counts, one_sided=False):
    """Every tiling as a frozenset of (type, frozenset(cells)), by first-empty-cell recursion."""
    orients = [_orientations(s, one_sided) for s in shapes]
    open_cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in blocked]
    left = list(counts)
    covered = set()
    chosen = []
    found = []

    def rec():
        empty = next((x for x in open_cells if x not in covered), None)
        if empty is None:
            found.append(frozenset(chosen))
            return
        er, ec = empty
        for t, os_ in enumerate(orients):
            if not left[t]:
                continue
            for o in os_:
                # Anchor: the orientation's first cell in reading order goes on the empty cell.
                ar, ac = o[0]
                cells = [(er + r - ar, ec + c - ac) for r, c in o]
                if all(x in open_cells and x not in covered for x in cells) and all(
                    (r, c) >= empty for r, c in cells
                ):
                    covered.update(cells)
                    left[t] -= 1
                    chosen.append((t, frozenset(cells)))
                    rec()
                    chosen.pop()
                    left[t] += 1
                    covered.difference_update(cells)

    rec()
    return found


def library_tilings(problem):
    kernel = compile_problem(problem)
    pl = kernel.placements
    return [
        frozenset((int(pl.piece[i]), frozenset(pl.coords_of(i))) for i in sol)
        for sol in solutions(problem)
    ]


def full_count(problem, symmetry=True):
    plan = plan_count(problem, symmetry)
    return plan.combine([count_task(t) for t in plan.tasks])


def orbit_count(problem, tilings):
    board = problem.board
    group = problem.group()
    seen = set()
    for t in tilings:
        images = []
        for k in group:
            images.append(
                frozenset(
                    (p, frozenset(board.map_cell(k, r, c) for r, c in cells)) for p, cells in t
                )
            )
        seen.add(min(images, key=lambda s: sorted((p, sorted(c)) for p, c in s)))
    return len(seen)


PENT = piece_set("pentominoes")


@pytest.mark.parametrize(
    ("rows", "cols", "raw", "up"),
    [(3, 20, 8, 2), (4, 15, 1472, 368)],
)
def test_pentomino_rectangles_match_published_counts(rows, cols, raw, up):
    assert full_count(TilingProblem(Board(rows, cols), PENT)) == (raw, up)


def test_symmetry_breaking_agrees_with_plain_search():
    problem = TilingProblem(Board(4, 15), PENT)
    plain = count_task(Task(problem, 0, ()))
    assert plain.count == 1472 and plain.complete
    assert full_count(problem)[0] == plain.count
    assert plan_count(problem).broken_by == "X5"


@pytest.mark.slow
def test_pentomino_6x10_and_8x8_hole():
    assert full_count(TilingProblem(Board(6, 10), PENT)) == (9356, 2339)
    holed = Board(8, 8, frozenset((r, c) for r in (3, 4) for c in (3, 4)))
    assert full_count(TilingProblem(holed, PENT)) == (520, 65)


def test_area_mismatch_is_a_board_error():
    with pytest.raises(BoardError, match="cover 60 cells but the board has 61"):
        TilingProblem(Board(1, 61), PENT)


def test_repeated_types_are_rejected():
    with pytest.raises(ValueError, match="distinct"):
        TilingProblem(Board(2, 4), (piece("I4"), piece("I4")))


def _random_problem(draw):
    rows = draw(st.integers(2, 5))
    cols = draw(st.integers(2, 5))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = frozenset(draw(st.lists(st.sampled_from(cells), max_size=4, unique=True)))
    n_open = rows * cols - len(blocked)
    pool = [p for p in piece_set("blokus") if p.size <= 4]
    types = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique=True))
    counts = []
    remaining = n_open
    for t in types[:-1]:
        k = draw(st.integers(0, max(0, remaining // t.size)))
        counts.append(k)
        remaining -= k * t.size
    last = types[-1]
    if remaining % last.size:
        blocked_extra = remaining % last.size
        free = [c for c in cells if c not in blocked]
        blocked = blocked | frozenset(free[:blocked_extra])
        remaining -= blocked_extra
    counts.append(remaining // last.size)
    keep = [(t, k) for t, k in zip(types, counts, strict=True) if k > 0]
    if not keep:
        keep = [(piece("I1"), rows * cols - len(blocked))]
        if keep[0][1] == 0:
            blocked = frozenset()
            keep = [(piece("I1"), rows * cols)]
    one_sided = draw(st.booleans())
    board = Board(rows, cols, blocked)
    return TilingProblem(board, tuple(t for t, _ in keep), tuple(k for _, k in keep), one_sided)


random_problems = st.composite(_random_problem)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_problems())
def test_counts_and_solutions_agree_with_brute_force(problem):
    raw, up = full_count(problem)
    # Monominoes and dominoes mixed on 5x5 can have millions of tilings, which the brute
    # force and the solution list below would hold in memory (over 20 GB once in CI).
    assume(raw <= 20_000)
    b = problem.board
    expected = brute_tilings(
        b.rows,
        b.cols,
        b.blocked,
        [t.cells for t in problem.types],
        problem.counts,
        problem.one_sided,
    )
    got = library_tilings(problem)
    assert len(got) == len(set(got))
    assert set(got) == set(expected)
    assert raw == len(expected)
    assert up == orbit_count(problem, got)


@settings(max_examples=40, deadline=None)
@given(random_problems(), st.integers(1, 3))
def test_split_partitions_the_search(problem, depth):
    whole = count_task(Task(problem, 0, ())).count
    parts = split_task(Task(problem, 0, ()), depth)
    assert sum(count_task(t).count for t in parts) == whole
    assert len(set(p.forced for p in parts)) == len(parts)


def test_symmetric_tilings_by_fix_problems():
    # 2x2 of monominoes: 1 tiling fixed by all 8 symmetries; Burnside gives 1.
    problem = TilingProblem(Board(2, 2), (piece("I1"),), (4,))
    assert full_count(problem) == (1, 1)
    # 2x4 with two I4 copies... and one O4 + ... : raw and orbit counts against brute force.
    problem = TilingProblem(Board(4, 4), (piece("O4"), piece("I4")), (2, 2))
    tilings = library_tilings(problem)
    assert full_count(problem) == (len(tilings), orbit_count(problem, tilings))


def test_solutions_stream_in_bounded_buffers():
    problem = TilingProblem(Board(4, 15), PENT)
    seen = set()
    for sol in solutions(problem):
        assert len(sol) == 12
        seen.add(tuple(sorted(sol)))
    assert len(seen) == 1472


def test_should_stop_returns_partial_count():
    problem = TilingProblem(Board(6, 10), PENT)
    result = count_task(Task(problem, 0, ()), should_stop=lambda: True)
    count, nodes, complete = result.count, result.nodes, result.complete
    assert not complete
    assert nodes > 0
    assert count < 9356


def test_forced_prefix_that_overlaps_is_rejected():
    problem = TilingProblem(Board(1, 4), (piece("I2"),), (2,))
    kernel = compile_problem(problem)
    first = kernel.option_of_placement[0]
    with pytest.raises(ValueError, match="overlaps"):
        kernel.state((first, first))


def test_custom_shapes_and_one_sided_pieces():
    # One-sided L-trominoes tiling a 2x3: compare with brute force.
    v = Polyomino.from_text("#.\n##", "V")
    problem = TilingProblem(Board(2, 3), (v,), (2,), one_sided=True)
    expected = brute_tilings(2, 3, frozenset(), [v.cells], (2,), True)
    assert full_count(problem)[0] == len(expected)
    assert list(itertools.islice(solutions(problem), 1))


@pytest.mark.parametrize(
    "board",
    [Board(4, 15), Board(8, 8, frozenset((r, c) for r in (3, 4) for c in (3, 4)))],
)
def test_dead_region_pruning_keeps_the_count(board):
    import dataclasses

    from polytile.solvers import bitboard

    problem = TilingProblem(board, PENT)
    plain = compile_problem(problem)
    pruned = dataclasses.replace(plain, prune=True)
    counts = []
    for kernel in (plain, pruned):
        state = kernel.state()
        while kernel.run(state) == bitboard.PAUSED:
            pass
        counts.append((state.solutions, state.nodes))
    assert counts[0][0] == counts[1][0] in (1472, 520)
    assert counts[1][1] < counts[0][1]  # pruning cuts nodes


def test_dead_region_pruning_on_a_multiword_board():
    import dataclasses

    from polytile.solvers import bitboard

    # 80 cells: two 64-bit words, the general flood fill.
    problem = TilingProblem(Board(4, 20), (piece("I4"), piece("O4")), (10, 10))
    plain = compile_problem(problem)
    pruned = dataclasses.replace(plain, prune=True)
    found = []
    for kernel in (plain, pruned):
        state = kernel.state()
        while kernel.run(state) == bitboard.PAUSED:
            pass
        found.append(state.solutions)
    # The plain kernel is checked against brute force above; pruning must not change it.
    assert found[0] == found[1] > 0

"""Algorithm C (polytile.solvers.xcc) against Knuth's examples and a brute force over subsets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile import Board, piece_set
from polytile.errors import FormatError, PolytileError
from polytile.models.exact_cover import tiling_problem
from polytile.solvers.xcc import (
    CountResult,
    Search,
    XCCArrays,
    count,
    first,
    is_unique,
    solve,
    split,
)

# -- an independent reference ------------------------------------------------------------------


def is_solution(options, colors, n_primary, chosen):
    """Each primary item exactly once; each secondary item once uncoloured or one colour."""
    covered = [0] * n_primary
    used: dict[int, list[int]] = {}
    for k in chosen:
        for i, c in zip(options[k], colors[k], strict=True):
            if i < n_primary:
                covered[i] += 1
            else:
                used.setdefault(i, []).append(c)
    if any(n != 1 for n in covered):
        return False
    return all(len(cs) == 1 or (0 not in cs and len(set(cs)) == 1) for cs in used.values())


def brute_force(options, colors, n_primary):
    """Every solution as a frozenset of option indices, by trying every subset."""
    n = len(options)
    return {
        frozenset(chosen)
        for size in range(n + 1)
        for chosen in itertools.combinations(range(n), size)
        if is_solution(options, colors, n_primary, chosen)
    }


@st.composite
def xcc_problems(draw, max_items=8, max_options=10):
    """Random XCC problems: every option has a primary item; secondary items may be coloured."""
    n_items = draw(st.integers(1, max_items))
    n_primary = draw(st.integers(1, n_items))
    n_options = draw(st.integers(0, max_options))
    options, colors = [], []
    for _ in range(n_options):
        prim = draw(st.lists(st.integers(0, n_primary - 1), min_size=1, max_size=3, unique=True))
        sec = []
        if n_primary < n_items:
            sec = draw(st.lists(st.integers(n_primary, n_items - 1), max_size=3, unique=True))
        options.append(prim + sec)
        colors.append([0] * len(prim) + [draw(st.integers(0, 2)) for _ in sec])
    return options, colors, n_items, n_primary


def arrays(options, colors, n_items, n_primary):
    return XCCArrays.from_lists(options, n_items, n_primary, colors)


# Knuth's first exact cover example (TAOCP 7.2.2.1 (5)): items a..g.
KNUTH_X = [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]]
# Knuth's colour example (TAOCP 7.2.2.1 (49)): primary p q r = 0 1 2, secondary x y = 3 4,
# colours A = 1, B = 2; options 'p q x y:A', 'p r x:A y', 'p x:B', 'q x:A', 'r y:B'.
KNUTH_C = [[0, 1, 3, 4], [0, 2, 3, 4], [0, 3], [1, 3], [2, 4]]
KNUTH_C_COLORS = [[0, 0, 0, 1], [0, 0, 1, 0], [0, 2], [0, 1], [0, 2]]


@pytest.fixture(scope="module")
def pent_3x20():
    return tiling_problem(Board(3, 20), piece_set("pentominoes"))


# -- Knuth's examples ----------------------------------------------------------------------------


def test_knuth_exact_cover_example():
    p = XCCArrays.from_lists(KNUTH_X, n_items=7, n_primary=7)
    assert [sorted(s) for s in solve(p)] == [[0, 3, 4]]
    result = count(p)
    assert (result.count, result.complete) == (1, True)
    assert result == CountResult(1, result.nodes, result.updates, True)
    assert is_unique(p) is True


def test_knuth_colour_example():
    p = XCCArrays.from_lists(KNUTH_C, n_items=5, n_primary=3, colors=KNUTH_C_COLORS)
    assert [sorted(s) for s in solve(p)] == [[1, 3]]
    assert is_unique(p) is True


def test_statistics_on_a_tiny_tree():
    # Root, then item 0 with options {0} and {0, 1}: {0} leads to item 1 and a leaf.
    p = XCCArrays.from_lists([[0], [1], [0, 1]], n_items=2, n_primary=2)
    result = count(p)
    assert result.count == 2 and result.complete
    assert result.nodes == 4  # root, level 1 after {0}, the leaf after {1}, the leaf after {0,1}


def test_no_primary_items_has_the_empty_solution():
    p = XCCArrays.from_lists([], n_items=2, n_primary=0)
    assert list(solve(p)) == [[]]


def test_primary_item_without_options_has_no_solution():
    p = XCCArrays.from_lists([[0]], n_items=2, n_primary=2)
    assert list(solve(p)) == []
    assert first(p) is None
    assert is_unique(p) is False


# -- agreement with brute force -------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(xcc_problems())
def test_solutions_equal_brute_force(problem):
    options, colors, _n_items, n_primary = problem
    p = arrays(*problem)
    found = [frozenset(s) for s in solve(p)]
    expected = brute_force(options, colors, n_primary)
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert count(p).count == len(expected)
    assert all(is_solution(options, colors, n_primary, s) for s in found)


@settings(max_examples=150, deadline=None)
@given(xcc_problems(), st.integers(0, 4))
def test_split_partitions_the_search(problem, depth):
    p = arrays(*problem)
    total = count(p).count
    parts = split(p, depth)
    assert sum(count(p, forced=f).count for f in parts) == total
    # The subtrees are disjoint: their solutions together are exactly the solutions.
    found = [frozenset(s) for f in parts for s in solve(p, forced=f)]
    assert len(found) == len(set(found)) == total


@settings(max_examples=100, deadline=None)
@given(xcc_problems(), st.integers(0, 2**64 - 1))
def test_seeded_order_finds_the_same_solutions(problem, seed):
    p = arrays(*problem)
    plain = {frozenset(s) for s in solve(p)}
    shuffled = [frozenset(s) for s in solve(p, seed=seed)]
    assert set(shuffled) == plain and len(shuffled) == len(plain)
    assert [sorted(s) for s in solve(p, seed=seed)] == [sorted(s) for s in shuffled]
    assert count(p, seed=seed).count == len(plain)


@settings(max_examples=100, deadline=None)
@given(xcc_problems(), st.integers(0, 3))
def test_forced_options_count_the_solutions_containing_them(problem, n_forced):
    options, colors, _, n_primary = problem
    p = arrays(*problem)
    forced = list(range(min(n_forced, len(options))))
    expected = {s for s in brute_force(options, colors, n_primary) if set(forced) <= s}
    found = [frozenset(s) for s in solve(p, forced=forced)]
    assert set(found) == expected and len(found) == len(expected)
    assert all(s[: len(forced)] == forced for s in solve(p, forced=forced))


# -- modes and limits -------------------------------------------------------------------------


def test_limit_stops_after_n_solutions(pent_3x20):
    search = solve(pent_3x20, limit=2)
    assert len(list(search)) == 2
    assert search.stopped == "limit" and not search.complete
    assert is_unique(pent_3x20) is False
    three = count(pent_3x20, limit=3)
    assert (three.count, three.complete) == (3, False)


def test_node_limit_reports_an_incomplete_count(pent_3x20):
    full = count(pent_3x20)
    assert (full.count, full.complete) == (8, True)
    part = count(pent_3x20, node_limit=1000)
    assert part.nodes == 1000 and not part.complete and part.count <= 8
    assert part.updates < full.updates
    search = solve(pent_3x20, node_limit=1000)
    assert list(search) == list(solve(pent_3x20))[: search.count]
    assert search.stopped == "node_limit"
    assert is_unique(pent_3x20, node_limit=10) is None
    assert count(pent_3x20, node_limit=0).nodes == 0


def test_iteration_is_lazy():
    p = tiling_problem(Board(6, 10), piece_set("pentominoes"))
    search = solve(p)
    one = next(search)
    assert search.count == 1 and not search.complete
    assert p.is_solution(one)
    assert [next(search) for _ in range(5)] == list(solve(p, limit=6))[1:]


def test_first_solution_is_valid(pent_3x20):
    sol = first(pent_3x20)
    assert sol is not None and pent_3x20.is_solution(sol)
    assert len(pent_3x20.decode(sol)) == 12


def test_seeds_reproduce_and_vary(pent_3x20):
    firsts = {tuple(sorted(first(pent_3x20, seed=s))) for s in range(12)}
    assert len(firsts) > 1
    assert first(pent_3x20, seed=7) == first(pent_3x20, seed=7)
    assert list(solve(pent_3x20, seed=3)) == list(solve(pent_3x20, seed=3))
    assert first(pent_3x20, seed=np.random.default_rng(1)) == first(
        pent_3x20, seed=np.random.default_rng(1)
    )
    assert {count(pent_3x20, seed=s).count for s in range(4)} == {8}


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_split_sums_to_the_pentomino_count(pent_3x20, depth):
    parts = split(pent_3x20, depth)
    assert all(len(f) <= depth for f in parts)
    assert sum(count(pent_3x20, forced=f).count for f in parts) == 8
    refined = [g for f in parts for g in split(pent_3x20, 1, forced=f)]
    assert sum(count(pent_3x20, forced=f).count for f in refined) == 8


def test_conflicting_forced_options_give_nothing():
    p = XCCArrays.from_lists(KNUTH_X, n_items=7, n_primary=7)
    assert count(p, forced=[1, 3]) == CountResult(0, 0, 0, True)  # both cover a
    assert list(solve(p, forced=[3, 4])) == [[3, 4, 0]]
    c = XCCArrays.from_lists(KNUTH_C, n_items=5, n_primary=3, colors=KNUTH_C_COLORS)
    assert count(c, forced=[2, 3]).count == 0  # x:B against x:A
    assert count(c, forced=[1, 3]).count == 1  # x:A shared


def test_search_repr_and_result(pent_3x20):
    search = solve(pent_3x20)
    for _ in search:
        pass
    assert search.complete and search.stopped is None
    assert search.result() == count(pent_3x20)
    assert "8 solutions" in repr(search)
    assert isinstance(search, Search)


# -- input validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "colors", "n_items", "n_primary", "message"),
    [
        ([[0, 7]], None, 3, 3, "outside 0..2"),
        ([[0, -1]], None, 3, 3, "outside 0..2"),
        ([[0, 0]], None, 3, 3, "more than once"),
        ([[0, 2, 2]], None, 3, 1, "more than once"),
        ([[0, 2]], [[0, -1]], 3, 1, "negative colour"),
        ([[0, 1]], [[0, 1]], 3, 2, "colour to primary item 1"),
        ([[2]], None, 3, 1, "no primary item"),
        ([[0], []], None, 3, 1, "option 1 is empty"),
        ([[0]], None, 3, 4, "n_primary must be"),
        ([[0]], None, -1, 0, "n_items must be"),
    ],
)
def test_bad_problems_are_rejected(options, colors, n_items, n_primary, message):
    with pytest.raises(FormatError, match=message):
        XCCArrays.from_lists(options, n_items, n_primary, colors)


def test_bad_arrays_are_rejected():
    with pytest.raises(FormatError, match="start at 0"):
        XCCArrays(np.array([0, 1]), np.array([0, 1]), np.array([0, 0]), 2, 2)
    with pytest.raises(FormatError, match="integers"):
        XCCArrays(np.array([0.0]), np.array([0, 1]), np.array([0]), 2, 2)
    with pytest.raises(FormatError, match="one entry per option entry"):
        XCCArrays(np.array([0, 1]), np.array([0, 2]), np.array([0]), 2, 2)
    with pytest.raises(FormatError, match="negative length"):
        XCCArrays(np.array([0, 1]), np.array([0, 2, 1, 2]), np.array([0, 0]), 2, 2)
    with pytest.raises(FormatError, match="one entry per item"):
        XCCArrays.from_lists([[0, 1]], 2, 2, colors=[[0]])


def test_bad_arguments_are_rejected():
    p = XCCArrays.from_lists(KNUTH_X, n_items=7, n_primary=7)
    with pytest.raises(FormatError, match=r"outside 0\.\.5"):
        count(p, forced=[6])
    with pytest.raises(FormatError, match="repeated"):
        count(p, forced=[1, 1])
    with pytest.raises(PolytileError, match="node_limit"):
        count(p, node_limit=-1)
    with pytest.raises(ValueError, match="depth"):
        split(p, -1)
    with pytest.raises(TypeError, match="seed"):
        first(p, seed="abc")  # type: ignore[arg-type]


def test_arrays_are_immutable():
    p = XCCArrays.from_lists(KNUTH_X, n_items=7, n_primary=7)
    with pytest.raises(ValueError, match="read-only"):
        p.options[0] = 1
    assert p.n_options == 6 and p.option(1) == ([0, 3, 6], [0, 0, 0])
    assert p.to_arrays() is p


def test_run_to_end_after_partial_iteration(pent_3x20):
    search = solve(pent_3x20)
    next(search)
    assert search.run_to_end().count == 8 and search.complete
    assert list(search) == []
    with pytest.raises(FormatError, match="integers"):
        XCCArrays.from_lists([["a"]], 1, 1)
    with pytest.raises(FormatError, match="integers"):
        XCCArrays.from_lists([[0.5]], 1, 1)


def test_problems_survive_pickling(pent_3x20):
    # Process pools and Dask ship problems and subproblems by pickle.
    import pickle

    p = XCCArrays.from_lists(KNUTH_C, n_items=5, n_primary=3, colors=KNUTH_C_COLORS)
    assert list(solve(pickle.loads(pickle.dumps(p)))) == list(solve(p))
    copy = pickle.loads(pickle.dumps(pent_3x20))
    parts = split(copy, 2)
    assert sum(count(copy, forced=f).count for f in parts) == 8

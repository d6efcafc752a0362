"""The scan a count's search runs in, off the square grid (issue 51): chosen by estimates of
the plan's own trees, the same in every process, and never changing a count."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from polytile.board import Board
from polytile.puzzles.tiling.puzzles import CATALOGUE
from polytile.solvers import scan as scan_module
from polytile.solvers.counting import count_tiling
from polytile.solvers.parallel import LocalExecutor
from polytile.solvers.scan import choose_scan, in_scan
from polytile.solvers.tiling import count_task, plan_count, scan_orders


def _real_nodes(plan) -> int:
    return sum(count_task(t).nodes for t in plan.tasks if t.symmetry == 0)


SCANS = [("6x10", "square", 1), ("6x6", "triangle", 16), ("4x7", "hex", 16), ("2x3x4", "cube", 48)]


@pytest.mark.parametrize("size, grid, scans", SCANS)
def test_every_scan_is_an_order_of_the_cells(size: str, grid: str, scans: int) -> None:
    board = Board.parse_size(size, grid)
    orders = scan_orders(board)
    assert orders[0][0] == "default" and len(orders) == scans
    assert len({bit.tobytes() for _, bit in orders}) == scans  # all different
    for _, bit in orders:
        assert sorted(bit.tolist()) == list(range(board.size))


@pytest.fixture
def still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan comparison's clock held still. Its time budget is the default search's
    estimated time, so a busy machine (which ran out of it after 14 of the 16 scans of the
    hexiamond rhombus) compares fewer scans than a quiet one; with the clock still, every
    machine compares them all."""
    monkeypatch.setattr(scan_module, "time", SimpleNamespace(perf_counter=lambda: 0.0))


@pytest.mark.usefixtures("still_clock")
def test_the_hexiamond_rhombus_is_scanned_the_way_its_plan_is_smallest() -> None:
    """Its default scan (columns) visits 4.4 million nodes; the antidiagonals, which meet the
    hexagon fixed for symmetry early, about 0.75 million. The choice is made by estimates
    and checked here by the real searches."""
    plan = plan_count(CATALOGUE["hexiamond-6x6"].problem)
    chosen, choice = choose_scan(plan)
    assert choice is not None and choice.compared == 16 and choice.index != 0
    assert all(t.scan == choice.index for t in chosen.tasks if t.symmetry == 0)
    assert all(t.scan == 0 for t in chosen.tasks if t.symmetry)
    before, after = _real_nodes(plan), _real_nodes(chosen)
    assert after * 3 < before, (before, after)
    # each task still fixes the same placement, numbered in the new scan
    old = [t.kernel.options[t.forced[0]] for t in plan.tasks if t.symmetry == 0]
    new = [t.kernel.options[t.forced[0]] for t in chosen.tasks if t.symmetry == 0]
    assert old == new
    # the same choice every time (every process numbers the forced options alike)
    assert choose_scan(plan)[1] == choice


def test_a_small_count_keeps_its_default_scan() -> None:
    plan = plan_count(CATALOGUE["soma-cube"].problem)
    chosen, choice = choose_scan(plan)
    assert chosen is plan and choice is not None and choice.compared == 1 and choice.index == 0
    assert choice.default_nodes < scan_module.RATE * scan_module.PROBE_SECONDS * 48


def test_squares_and_chosen_plans_are_left_alone() -> None:
    plan = plan_count(CATALOGUE["pentomino-6x10"].problem)
    assert choose_scan(plan) == (plan, None)
    chosen, _ = choose_scan(plan_count(CATALOGUE["hexiamond-6x6"].problem))
    with pytest.raises(ValueError, match="already chosen"):
        choose_scan(chosen)


def test_a_stop_keeps_the_best_scan_so_far() -> None:
    plan = plan_count(CATALOGUE["hexiamond-6x6"].problem)
    asked = []
    # asked once before anything, then before each scan: two scans besides the default
    _, choice = choose_scan(plan, lambda: len(asked) > 2 or asked.append(1) is not None)
    assert choice is not None and choice.compared == 3


@pytest.mark.usefixtures("still_clock")
def test_counts_on_workers_in_the_chosen_scan_are_right() -> None:
    """Workers get tasks split in the chosen scan: their forced options must be read in it."""
    puzzle = CATALOGUE["hexiamond-6x6"]
    with LocalExecutor(2) as executor:
        result = count_tiling(puzzle.problem, executor, trial_seconds=0)
    assert (result.count, result.count_up_to_symmetry) == (624, 156)
    assert result.tasks > 12 and result.extra["scan"]["scans_compared"] == 16


@pytest.mark.usefixtures("still_clock")
def test_a_count_reports_its_scan() -> None:
    result = count_tiling(CATALOGUE["hexiamond-6x6"].problem)
    assert (result.count, result.count_up_to_symmetry) == (624, 156)
    scan = result.extra["scan"]
    assert scan["scan"] != "default" and scan["estimated_nodes"] < scan["default_estimated_nodes"]


@pytest.mark.parametrize("name", ["tetrahex-4x7", "soma-cube"])
def test_every_scan_counts_the_same_tilings(name: str) -> None:
    puzzle = CATALOGUE[name]
    plan = plan_count(puzzle.problem)
    for i in range(len(scan_orders(puzzle.problem.board))):
        raw = [t for t in in_scan(plan, i).tasks if t.symmetry == 0]
        assert sum(t.weight * count_task(t).count for t in raw) == puzzle.known_count, i


def test_any_piece_fixed_for_symmetry_counts_alike() -> None:
    puzzle = CATALOGUE["hexiamond-6x6"]
    want = (puzzle.known_count, puzzle.known_count_up_to_symmetry)
    for t in (0, 5, 11):
        plan = plan_count(puzzle.problem, breaker=t)
        assert plan.broken_type == t and plan.broken_by == puzzle.problem.types[t].name
        assert plan.combine([count_task(task) for task in plan.tasks]) == want


def test_the_piece_fixed_is_the_one_whose_trees_are_estimated_smallest() -> None:
    """Asked to compare (as a long count would), every other piece is estimated in the
    chosen scan; the plan kept fixes the smallest one's placements and counts right."""
    puzzle = CATALOGUE["hexiamond-6x6"]
    plan, choice = choose_scan(plan_count(puzzle.problem))
    assert choice is not None and choice.pieces == 1  # a short count: not compared
    kept, nodes, compared = scan_module._choose_piece(plan, choice.index, choice.nodes, None, True)
    assert compared == 12 and nodes <= choice.nodes
    assert all(t.scan == choice.index for t in kept.tasks if t.symmetry == 0)
    counts = [count_task(t) for t in kept.tasks]
    assert kept.combine(counts) == (puzzle.known_count, puzzle.known_count_up_to_symmetry)


def test_a_scan_within_the_estimates_noise_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = plan_count(CATALOGUE["hexiamond-6x6"].problem)
    base = plan.tasks[0].kernel
    monkeypatch.setattr(scan_module, "RATE", 1.0)  # every count long enough to compare
    for other, taken in ((90.0, False), (70.0, True)):
        monkeypatch.setattr(scan_module, "_plan_nodes",
                            lambda kernel, trees, other=other: 100.0 if kernel is base else other)
        _, choice = choose_scan(plan)
        assert choice is not None and choice.compared == 16
        assert (choice.index != 0) == taken and choice.nodes == (other if taken else 100.0)


def test_no_comparison_once_stopped() -> None:
    plan = plan_count(CATALOGUE["hexiamond-6x6"].problem)
    assert choose_scan(plan, lambda: True) == (plan, None)

"""Counting end to end: executors agree, limits stop cleanly, Dask gives the same totals."""

from __future__ import annotations

import time

import pytest

from polytile import Board, piece_set
from polytile.solvers.counting import count_tiling
from polytile.solvers.parallel import LocalExecutor, SerialExecutor, make_executor
from polytile.solvers.tiling import TilingProblem

PENT = piece_set("pentominoes")


def test_serial_and_two_workers_agree():
    problem = TilingProblem(Board(4, 15), PENT)
    serial = count_tiling(problem, SerialExecutor())
    with LocalExecutor(2) as ex:
        parallel = count_tiling(problem, ex, trial_seconds=0)
    assert (serial.count, serial.count_up_to_symmetry) == (1472, 368)
    assert (parallel.count, parallel.count_up_to_symmetry) == (1472, 368)
    assert parallel.tasks > serial.tasks  # the work really was split
    assert parallel.complete and serial.complete


def test_progress_reports_every_subproblem():
    seen = []
    count_tiling(TilingProblem(Board(3, 20), PENT), progress=seen.append, engine="search")
    assert [p.done for p in seen] == list(range(1, len(seen) + 1))
    assert seen[-1].done == seen[-1].total
    assert seen[-1].count == 8


def test_time_limit_returns_an_incomplete_lower_bound():
    result = count_tiling(TilingProblem(Board(6, 10), PENT), time_limit=1e-6)
    assert not result.complete
    assert result.stopped_by == "time limit"
    assert result.count_up_to_symmetry is None
    assert 0 <= result.count < 9356


def test_poll_ends_the_iteration_while_slow_items_run():
    # Items that take 30 s each: a poll that says stop after 0.3 s ends the iteration and
    # the executor stops its workers instead of waiting for them.
    start = time.perf_counter()
    with LocalExecutor(2) as ex:
        got = list(
            ex.imap_unordered(time.sleep, [30] * 4, poll=lambda: time.perf_counter() - start > 0.3)
        )
    assert got == []
    assert time.perf_counter() - start < 10
    # Between results the poll is asked too, and the serial executor asks it between items.
    seen: list[tuple[int, int]] = []
    for pair in SerialExecutor().imap_unordered(abs, [-1, -2, -3], poll=lambda: len(seen) >= 2):
        seen.append(pair)
    assert seen == [(0, 1), (1, 2)]


def test_leaving_early_stops_the_workers():
    start = time.perf_counter()
    with LocalExecutor(2) as ex:
        for _ in ex.imap_unordered(time.sleep, [0] + [30] * 4):
            break  # the 30 s items are abandoned
    assert time.perf_counter() - start < 10


def test_make_executor_rejects_zero_workers():
    from polytile.errors import PolytileError

    with pytest.raises(PolytileError, match="at least 1"):
        make_executor(0)


def test_dask_local_cluster_gives_the_same_totals():
    distributed = pytest.importorskip("dask.distributed")
    from polytile.solvers.parallel import DaskExecutor

    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        DaskExecutor(cluster.scheduler_address) as ex,
    ):
        result = count_tiling(TilingProblem(Board(4, 15), PENT), ex, trial_seconds=0)
    assert (result.count, result.count_up_to_symmetry) == (1472, 368)


def test_unreachable_dask_scheduler_is_a_clear_error():
    pytest.importorskip("dask.distributed")
    from polytile.errors import PolytileError
    from polytile.solvers.parallel import DaskExecutor

    with pytest.raises(PolytileError, match="cannot reach the Dask scheduler"):
        DaskExecutor("tcp://127.0.0.1:9", timeout=1)


def test_quick_counts_skip_the_workers():
    with LocalExecutor(2) as ex:
        result = count_tiling(TilingProblem(Board(3, 20), PENT), ex, trial_seconds=5)
    assert result.complete and result.workers == 1 and result.count == 8


def test_pools_left_open_are_closed_with_their_manager_threads():
    """A pool a command kept open is closed as it ends (issue 48, item 2): no manager thread
    is left for Python's own exit hook, which in 3.11 may write to the thread's closing
    wake-up pipe and print a BrokenPipeError traceback after the report."""
    import threading

    from polytile.solvers import parallel

    pool = LocalExecutor(2)
    assert sorted(r for _, r in pool.imap_unordered(abs, [-1, -2, -3])) == [1, 2, 3]
    manager = pool._pool._executor_manager_thread
    assert manager is not None and manager.is_alive() and not manager.daemon
    parallel.close_all()
    assert not manager.is_alive()
    assert pool not in parallel._LIVE
    assert not [t for t in threading.enumerate() if t is manager]


def test_a_long_task_reports_its_count_as_it_goes() -> None:
    """A one-worker count showed nothing until a task ended (four-square's first took a
    minute): a task's count so far is heard after each chunk of its search."""
    from polytile.solvers.tiling import count_task, plan_count

    problem = TilingProblem(Board(5, 8), tuple(piece_set("pentominoes"))[:8])
    task = plan_count(problem, symmetry=False).tasks[0]
    heard: list = []
    whole = count_task(task, on_chunk=heard.append)
    # the first chunk is 20,000 nodes and this task 55,000: heard at least once whatever
    # the machine's speed (the later chunks are sized by the clock)
    assert whole.complete and whole.nodes > 20_000 and len(heard) >= 1
    assert all(not c.complete for c in heard)
    assert [c.nodes for c in heard] == sorted(c.nodes for c in heard)
    assert heard[-1].nodes < whole.nodes and heard[-1].count <= whole.count
    assert whole == count_task(task)


def test_the_seconds_reported_leave_out_the_first_compile_waited_for() -> None:
    """The first count after installing waits for numba's compile (25 s) and reported it as
    the search's time ("2,455,950 nodes, 24.94 s" at 1.7M nodes/s). A wait that says it
    took 1,000 s is left out of the seconds."""
    from polytile.board import Board
    from polytile.geometry import piece
    from polytile.solvers.counting import count_tiling
    from polytile.solvers.tiling import TilingProblem

    problem = TilingProblem(Board(4, 4), (piece("T4"), piece("O4")), (2, 2))
    plain = count_tiling(problem, engine="search")
    waited = count_tiling(problem, engine="search", prepare=lambda: 1000.0)
    assert waited.count == plain.count and waited.seconds < 0  # the wait was not real

"""Counting end to end: executors agree, limits stop cleanly, Dask gives the same totals."""

from __future__ import annotations

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
    count_tiling(TilingProblem(Board(3, 20), PENT), progress=seen.append)
    assert [p.done for p in seen] == list(range(1, len(seen) + 1))
    assert seen[-1].done == seen[-1].total
    assert seen[-1].count == 8


def test_time_limit_returns_an_incomplete_lower_bound():
    result = count_tiling(TilingProblem(Board(6, 10), PENT), time_limit=1e-6)
    assert not result.complete
    assert result.stopped_by == "time limit"
    assert result.count_up_to_symmetry is None
    assert 0 <= result.count < 9356


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

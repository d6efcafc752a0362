"""Counting tilings end to end: plan, split, run on an executor, combine, report.

:func:`count_tiling` is what ``polytile count`` calls. The plan's tasks (symmetry
representatives and Fix(g) problems, see :mod:`polytile.solvers.tiling`) are split at the top
of their search trees into subtrees that partition the search, run on an executor, and
summed; the totals are therefore the same for any number of workers or any cluster.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from polytile.solvers.parallel import Executor, SerialExecutor
from polytile.solvers.tiling import (
    CountPlan,
    Task,
    TaskCount,
    TilingProblem,
    count_task,
    plan_count,
    split_task,
)

__all__ = ["CountResult", "Progress", "count_tiling"]


@dataclass
class Progress:
    """What a progress display needs: subproblems done of total, solutions and nodes so far."""

    done: int
    total: int
    count: int
    nodes: int
    seconds: float


@dataclass
class CountResult:
    """The outcome of a count.

    ``count`` is exact when ``complete``; otherwise it is the number found before the time
    limit or Ctrl-C (a lower bound) and ``count_up_to_symmetry`` is ``None``.
    """

    count: int
    count_up_to_symmetry: int | None
    nodes: int
    seconds: float
    complete: bool
    workers: int
    tasks: int
    group_order: int
    symmetry_broken_by: str | None
    stopped_by: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _run(job: tuple[Task, float | None]) -> TaskCount:
    task, deadline = job
    if deadline is None:
        return count_task(task)
    if time.time() >= deadline:
        return TaskCount(0, 0, 0, False)
    return count_task(task, lambda: time.time() >= deadline)


def _split(tasks: list[Task], target: int) -> list[Task]:
    for _ in range(8):
        if len(tasks) >= target:
            break
        tasks = [sub for t in tasks for sub in split_task(t, 1)]
    return tasks


def count_tiling(
    problem: TilingProblem,
    executor: Executor | None = None,
    *,
    symmetry: bool = True,
    time_limit: float | None = None,
    progress: Callable[[Progress], None] | None = None,
    trial_seconds: float = 0.3,
) -> CountResult:
    """Count every tiling of ``problem``, raw and up to the board's symmetries.

    Parameters
    ----------
    problem
        The tiling problem.
    executor
        Where subproblems run (:func:`polytile.solvers.parallel.make_executor`); serial when
        omitted.
    symmetry
        Break symmetry and apply Burnside's lemma (``False`` for a plain raw search).
    time_limit
        Seconds after which the count stops and reports what it has (``complete`` False).
    progress
        Called after every finished subproblem.
    trial_seconds
        With several workers, first try this long in this process: a count that finishes
        is returned at once (reported with one worker); otherwise the subproblems finished
        so far are kept and the rest are split and run on the executor (at most this much
        time is spent twice).

    Returns
    -------
    CountResult

    Notes
    -----
    Ctrl-C stops the count like a time limit: the partial result is returned with
    ``stopped_by="interrupt"``. Memory is constant in the number of solutions.
    """
    executor = executor or SerialExecutor()
    start = time.perf_counter()
    deadline = None if time_limit is None else time.time() + time_limit
    plan = plan_count(problem, symmetry)
    if executor.workers > 1 and trial_seconds > 0:
        # Most counts finish in well under a second, where starting workers and splitting
        # the tree costs more than it saves: try serially first, briefly.
        trial_end = time.time() + trial_seconds
        if deadline is not None:
            trial_end = min(trial_end, deadline)
        kept: list[Task] = []
        kept_results: list[TaskCount] = []
        todo: list[Task] = []
        for t in plan.tasks:
            r = count_task(t, lambda: time.time() >= trial_end) if not todo else None
            if r is not None and r.complete:
                kept.append(t)
                kept_results.append(r)
            else:
                todo.append(t)  # unfinished or not started: split and run on the workers
        if not todo:
            return _result(plan, kept, kept_results, start, 1, None, progress)
    else:
        kept, kept_results, todo = [], [], list(plan.tasks)
    # One worker gains nothing from splitting beyond the plan's own tasks.
    pending = todo if executor.workers == 1 else _split(todo, 150 * executor.workers)
    tasks = kept + pending
    results = kept_results + [TaskCount(0, 0, 0, False)] * len(pending)
    done = len(kept)
    stopped_by = None
    try:
        for i, result in executor.imap_unordered(_run, [(t, deadline) for t in pending]):
            results[len(kept) + i] = result
            done += 1
            if not result.complete:
                stopped_by = "time limit"
            if progress is not None:
                sub = CountPlan(plan.problem, plan.group, tasks)
                progress(
                    Progress(
                        done,
                        len(tasks),
                        sub.raw(results),
                        sum(r.nodes for r in results),
                        time.perf_counter() - start,
                    )
                )
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    if stopped_by is None and not all(r.complete for r in results):
        stopped_by = "time limit"
    return _result(plan, tasks, results, start, executor.workers, stopped_by, None)


def _result(
    plan: CountPlan,
    tasks: list[Task],
    results: list[TaskCount],
    start: float,
    workers: int,
    stopped_by: str | None,
    progress: Callable[[Progress], None] | None,
) -> CountResult:
    whole = CountPlan(plan.problem, plan.group, tasks, plan.broken_by)
    nodes = sum(r.nodes for r in results)
    complete = stopped_by is None
    if complete:
        raw, up = whole.combine(results)
    else:
        raw, up = whole.raw(results), None
    if progress is not None:
        progress(Progress(len(tasks), len(tasks), raw, nodes, time.perf_counter() - start))
    return CountResult(
        count=raw,
        count_up_to_symmetry=up,
        nodes=nodes,
        seconds=time.perf_counter() - start,
        complete=complete,
        workers=workers,
        tasks=len(tasks),
        group_order=len(plan.group),
        symmetry_broken_by=plan.broken_by,
        stopped_by=stopped_by,
    )

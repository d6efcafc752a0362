"""Counting tilings end to end: plan, split, run on an executor, combine, report.

:func:`count_tiling` is what ``polytile count`` calls. The plan's tasks (symmetry
representatives and Fix(g) problems, see :mod:`polytile.solvers.tiling`) are split at the top
of their search trees into subtrees that partition the search, run on an executor, and
summed; the totals are therefore the same for any number of workers or any cluster.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from polytile.errors import SolverError
from polytile.solvers.parallel import Executor, LocalExecutor, SerialExecutor
from polytile.solvers.scan import ScanChoice, choose_scan
from polytile.solvers.tiling import (
    CountPlan,
    Task,
    TaskCount,
    TilingProblem,
    count_task,
    plan_count,
    split_task,
)

__all__ = ["ENGINES", "CountResult", "Progress", "choose_engine", "count_tiling", "memory_limit"]


@dataclass
class Progress:
    """What a progress display needs: subproblems done of total, solutions and nodes so far."""

    done: int
    total: int
    count: int
    nodes: int
    seconds: float
    #: What the work is when it is not a search's (the frontier engine's keys and memory).
    note: str | None = None


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
    #: "search" or "frontier": the engine that counted the raw tilings.
    engine: str = "search"
    #: Why that engine: the estimates compared, or what ruled the other one out.
    engine_reason: str | None = None


#: Set by the first Ctrl-C during :func:`count_tiling` in this process. Worker processes
#: ignore Ctrl-C, so there it stays False.
_interrupted = threading.Event()


def _shared_flag() -> Any:
    """A byte in shared memory that local worker processes, forked after this module is
    imported, see too: the parent sets it at Ctrl-C, and the subproblems running stop and
    return their counts so far. None where processes are not forked."""
    try:
        return multiprocessing.get_context("fork").RawValue("b", 0)
    except (ValueError, OSError):  # pragma: no cover - no fork (Windows)
        return None


_stop_all = _shared_flag()


def _stopping() -> bool:
    return _interrupted.is_set() or (_stop_all is not None and bool(_stop_all.value))


def _run(
    job: tuple[Task, float | None], on_chunk: Callable[[TaskCount], None] | None = None
) -> TaskCount:
    task, deadline = job
    if deadline is not None and time.time() >= deadline:
        return TaskCount(0, 0, 0, False)
    if _stopping():
        return TaskCount(0, 0, 0, False)
    # A subproblem stops at Ctrl-C (in this process, or on a forked worker) with its count
    # so far, as at the deadline.
    return count_task(
        task, lambda: _stopping() or (deadline is not None and time.time() >= deadline), on_chunk
    )


@contextmanager
def _catch_ctrl_c() -> Iterator[None]:
    """While counting, the first Ctrl-C only asks the search to stop (so the solutions counted
    so far are kept); a second one interrupts at once."""
    _interrupted.clear()
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # a worker: Ctrl-C is not ours
    ):
        yield
        return
    if _stop_all is not None:
        _stop_all.value = 0

    def first(signum: int, frame: object) -> None:
        _interrupted.set()
        if _stop_all is not None:
            _stop_all.value = 1
        signal.signal(signal.SIGINT, signal.default_int_handler)

    previous = signal.signal(signal.SIGINT, first)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _split(tasks: list[Task], target: int) -> list[Task]:
    for _ in range(8):
        if len(tasks) >= target:
            break
        tasks = [sub for t in tasks for sub in split_task(t, 1)]
    return tasks


def _load_kernel(task: Task | None) -> None:
    """Have numba load (or compile) the search kernel ``task`` runs, by a step of one node
    on a state thrown away."""
    if task is None:
        return
    kernel = task.kernel
    kernel.run(kernel.state(task.forced), 1)


def count_tiling(
    problem: TilingProblem,
    executor: Executor | None = None,
    *,
    symmetry: bool = True,
    time_limit: float | None = None,
    progress: Callable[[Progress], None] | None = None,
    trial_seconds: float = 1.0,
    engine: str = "auto",
    memory: int | None = None,
    prepare: Callable[[], float | None] | None = None,
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
        time is spent twice). A second: below about that, starting the workers and
        splitting the tree cost more than they save (pentomino-6x10 counts in 0.33 s
        alone, and took 2.1 s on two workers when a 0.3 s trial just missed it).
    engine
        "search" (every tiling visited, on the executor), "frontier" (equal partial tilings
        merged: :mod:`polytile.solvers.frontier`, on up to two threads here, the Fix(g)
        counts of Burnside's lemma by the search) or "auto" (:func:`choose_engine`).
    memory
        Bytes the frontier engine's tables may hold (default: half the memory available);
        past it, the count goes on with the search, said in ``extra["fallback"]``.
    prepare
        Called once before the first compiled (numba) code runs, if any does: a small
        frontier count runs in numpy and never starts numba (which takes about a second in
        a new process). The command line waits there for the engines' first compile.

    Returns
    -------
    CountResult

    Raises
    ------
    ValueError
        For an unknown ``engine``.
    FrontierUnsupported
        For ``engine="frontier"`` on a problem it cannot take (colour rules, too wide a key).

    Notes
    -----
    Ctrl-C stops the count like a time limit: the partial result is returned with
    ``stopped_by="interrupt"``. The search's memory is constant in the number of solutions;
    a frontier count stopped early has no partial count (``count`` 0, ``complete`` False).
    """
    executor = executor or SerialExecutor()
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    began = time.perf_counter()
    with _catch_ctrl_c():
        reason = None
        once = _Once(prepare)

        def left() -> float | None:
            """What is left of the limit: the time spent so far, less the compile waits."""
            if time_limit is None:
                return None
            return max(time_limit - (time.perf_counter() - began - once.waited), 0.0)

        quick = None
        if engine == "auto":
            quick = _quick_frontier(problem)
            if quick is not None:
                engine, reason = "frontier", "small enough for the frontier engine in numpy"
            else:
                engine, reason = choose_engine(problem, once)
        if engine == "frontier":
            result = _count_frontier(problem, executor, symmetry, left(), progress, memory,
                                     once, quick)  # fmt: skip
            if result.stopped_by != "memory":
                result.engine_reason = reason
                result.seconds = time.perf_counter() - began - once.waited  # the search's own
                return result
            reason = (f"the frontier engine needed more than {_gb(memory_limit(memory))} "
                      "of memory (--memory); counted by the search instead")  # fmt: skip
        once()
        result = _count(problem, executor, symmetry, left(), progress, trial_seconds)
        if reason is not None and reason.startswith("the frontier engine needed"):
            result.extra["fallback"] = reason
        result.engine_reason = reason
        result.seconds = time.perf_counter() - began - once.waited  # the search's own
        return result


class _Once:
    """``prepare``, called at most once however often this is; :attr:`waited` keeps the
    seconds it waited (numba's first compile), which the time limit does not count."""

    def __init__(self, prepare: Callable[[], float | None] | None) -> None:
        self._prepare = prepare
        self._done = threading.Event()
        self.waited = 0.0

    def __call__(self) -> float:
        if self._prepare is None or self._done.is_set():
            return 0.0
        self._done.set()
        waited = self._prepare() or 0.0
        self.waited += waited
        return waited


#: The engines :func:`count_tiling` takes.
ENGINES = ("auto", "search", "frontier")


def _gb(n: int) -> str:
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:.0f} MB"


def memory_limit(memory: int | None) -> int:
    """The frontier engine's memory limit: ``memory``, or half the memory available now
    (``MemAvailable``; half of all memory where that cannot be read)."""
    if memory is not None:
        return memory
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except OSError:
        pass
    try:
        import os

        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 4 << 30


def _quick_frontier(problem: TilingProblem) -> Any:
    """The raw count by the frontier engine if every layer stays small enough for numpy
    (no compiler started: tens of milliseconds where numba takes a second to start),
    else None; None too where the engine cannot take the problem."""
    from polytile.solvers.frontier import FrontierUnsupported, count_frontier

    try:
        front = count_frontier(problem, compiled=False, should_stop=_stopping)
    except FrontierUnsupported:
        return None
    return front if front.complete else None


def choose_engine(problem: TilingProblem, prepare: Callable[[], float | None] | None = None,
                  ) -> tuple[str, str]:  # fmt: skip
    """The engine that should count ``problem`` fastest, and why (a sentence).

    The frontier engine cannot take colour rules or keys wider than 63 bits; it gains
    nothing where every piece differs (no two partial tilings use the same copies unless
    they use the same pieces). Otherwise the two engines' estimates are compared
    (:mod:`polytile.solvers.estimate`): the frontier's upper estimate of its own time,
    and, unless that is small, the search's random-path estimate (``prepare`` is called
    before that, which runs compiled code).
    """
    from polytile.solvers.estimate import estimate_frontier, estimate_search
    from polytile.solvers.frontier import FrontierUnsupported, frontier_layout

    try:
        frontier_layout(problem)
    except FrontierUnsupported as no:
        return "search", str(no)
    if all(c == 1 for c in problem.counts):
        return "search", "every piece differs: the frontier engine would merge nothing"
    front = estimate_frontier(problem)
    if front.seconds < 0.5:
        return "frontier", f"the frontier engine's estimate is {front.seconds:.2g} s"
    if prepare is not None:
        prepare()
    search = estimate_search(problem, probes=2000, rate_seconds=0.05)
    said = (f"estimated {search.seconds:.2g} s for the search, at most {front.seconds:.2g} s "
            "for the frontier engine")  # fmt: skip
    return ("frontier" if front.seconds < search.seconds else "search"), said


def _fixed_counts(problem: TilingProblem, fixes: list[Task], deadline: float | None,
                  memory: int | None, prepare: _Once,
                  ) -> tuple[int, int, str | None]:  # fmt: skip
    """The sum of the Fix(g) counts of Burnside's lemma, the search's nodes, and what
    stopped them (None: nothing). Each is counted by the frontier engine on the board
    folded by g (:func:`~polytile.solvers.frontier.fixed_layout`) where that keeps its
    window narrow and its tables within ``memory``, else by the search. ``deadline`` (a
    :func:`time.time`) moves on by numba's first compile if one is waited for."""
    from polytile.solvers.frontier import FrontierUnsupported, count_frontier, fixed_layout

    total = nodes = 0
    for task in fixes:
        try:
            layout = fixed_layout(problem, task.symmetry)
        except FrontierUnsupported:
            layout = None
        if layout is not None:
            left = None if deadline is None else max(deadline - time.time(), 0.0)
            front = count_frontier(layout, time_limit=left, memory=memory_limit(memory),
                                   should_stop=_stopping, prepare=prepare)  # fmt: skip
            if front.complete:
                total += front.count or 0
                continue
            if front.stopped_by != "memory":
                return total, nodes, front.stopped_by
        waited = prepare()  # the search: compiled code
        if deadline is not None:
            deadline += waited
        result = _run((task, deadline))
        total, nodes = total + result.count, nodes + result.nodes
        if not result.complete:
            return total, nodes, "interrupt" if _interrupted.is_set() else "time limit"
    return total, nodes, None


def _count_frontier(
    problem: TilingProblem,
    executor: Executor,
    symmetry: bool,
    time_limit: float | None,
    progress: Callable[[Progress], None] | None,
    memory: int | None,
    prepare: _Once,
    quick: Any = None,
) -> CountResult:
    """The raw count (``quick`` when already counted) and the Fix(g) counts by the
    frontier engine (a Fix(g) whose folded board it cannot take by the search)."""
    from polytile.solvers.frontier import FrontierProgress, count_frontier

    start = time.perf_counter()
    deadline = None if time_limit is None else time.time() + time_limit
    group = problem.group() if symmetry else (0,)
    fixes = [Task(problem, k, ()) for k in group if k != 0]
    total = problem.board.size + len(fixes)

    def report(p: FrontierProgress) -> None:
        if progress is not None:
            note = f"cell {p.done:,} of {p.total:,}, {p.states:,} keys, {_gb(p.peak_bytes)} at most"
            progress(Progress(p.done, total, 0, 0, p.seconds, note))

    threads = min(2, executor.workers)
    front = quick or count_frontier(problem, threads=threads, time_limit=time_limit,
                                    memory=memory_limit(memory), should_stop=_stopping,
                                    progress=report, prepare=prepare)  # fmt: skip
    extra: dict[str, Any] = {"peak_states": front.peak_states, "peak_bytes": front.peak_bytes,
                             "cells": front.cells, "cells_done": front.cells_done,
                             "threads": front.threads}  # fmt: skip
    base = dict(nodes=0, workers=front.threads, tasks=len(fixes) + 1, group_order=len(group),
                symmetry_broken_by=None, extra=extra, engine="frontier")  # fmt: skip
    if not front.complete:
        return CountResult(count=0, count_up_to_symmetry=None, complete=False,
                           stopped_by=front.stopped_by, seconds=time.perf_counter() - start,
                           **base)  # type: ignore[arg-type]  # fmt: skip
    raw = front.count or 0
    fixed, nodes, stopped = _fixed_counts(problem, fixes, deadline, memory, prepare)
    base["nodes"] = nodes
    up = None
    if stopped is None and symmetry:
        if (raw + fixed) % len(group):
            raise SolverError(
                f"Burnside sum {raw + fixed} is not divisible by the group order {len(group)}"
            )
        up = (raw + fixed) // len(group)
    if progress is not None:
        progress(Progress(total, total, raw, nodes, time.perf_counter() - start, None))
    return CountResult(count=raw, count_up_to_symmetry=up, complete=stopped is None,
                       stopped_by=stopped, seconds=time.perf_counter() - start,
                       **base)  # type: ignore[arg-type]  # fmt: skip


def _count(
    problem: TilingProblem,
    executor: Executor,
    symmetry: bool,
    time_limit: float | None,
    progress: Callable[[Progress], None] | None,
    trial_seconds: float,
) -> CountResult:
    start = time.perf_counter()
    deadline = None if time_limit is None else time.time() + time_limit
    plan = plan_count(problem, symmetry)
    # off the square grid, the order the cells are scanned in is chosen by estimates
    plan, scan = choose_scan(plan, lambda: _interrupted.is_set() or (
        deadline is not None and time.time() >= deadline))  # fmt: skip
    if deadline is not None and time.time() >= deadline:
        # The limit is already spent (a whole-command limit used up by start-up): answer at
        # once rather than load the search kernel only to stop it.
        nothing = [TaskCount(0, 0, 0, False)] * len(plan.tasks)
        return _result(plan, list(plan.tasks), nothing, start, executor.workers, "time limit",
                       None, scan)  # fmt: skip
    if executor.workers > 1 and trial_seconds > 0:
        # Most counts finish in well under a second, where starting workers and splitting
        # the tree costs more than it saves: try serially first, briefly. The compiled
        # kernel is loaded first (0.4-1 s from numba's cache in a new process), so that the
        # trial times the count, not the load: pentomino-6x10 counts in 0.3 s once loaded,
        # and a trial that spent its time loading sent it to the workers as 2,377 subtrees
        # (1.7 s in all against 0.7 s serially).
        _load_kernel(plan.tasks[0] if plan.tasks else None)
        trial_end = time.time() + trial_seconds
        if deadline is not None:
            trial_end = min(trial_end, deadline)
        kept: list[Task] = []
        kept_results: list[TaskCount] = []
        todo: list[Task] = []
        partial: list[TaskCount] = []  # what the trial counted of each task left to do
        for t in plan.tasks:
            r = (
                count_task(t, lambda: _interrupted.is_set() or time.time() >= trial_end)
                if not todo
                else None
            )
            if r is not None and r.complete:
                kept.append(t)
                kept_results.append(r)
            else:
                todo.append(t)  # unfinished or not started: split and run on the workers
                partial.append(TaskCount(0, 0, 0, False) if r is None else r)
        if not todo:
            return _result(plan, kept, kept_results, start, 1, None, progress, scan)
        if _interrupted.is_set():  # stopped during the trial: report what it counted
            tasks = kept + todo
            results = kept_results + partial
            return _result(plan, tasks, results, start, 1, "interrupt", None, scan)
        if deadline is not None and time.time() >= deadline:
            # the limit ended inside the trial: what it counted is all there is (workers
            # started now would only find the limit spent and count nothing)
            return _result(plan, kept + todo, kept_results + partial, start, 1, "time limit",
                           None, scan)  # fmt: skip
    else:
        kept, kept_results, todo = [], [], list(plan.tasks)
    # One worker gains nothing from splitting beyond the plan's own tasks.
    pending = todo if executor.workers == 1 else _split(todo, 150 * executor.workers)
    tasks = kept + pending
    results = kept_results + [TaskCount(0, 0, 0, False)] * len(pending)
    done = len(kept)
    stopped_by = None
    try:
        jobs = [(t, deadline) for t in pending]
        # Local workers hear Ctrl-C through the shared flag and return their counts so far,
        # so keep collecting; elsewhere (Dask) stop collecting at once.
        shared = _stop_all is not None and isinstance(executor, (SerialExecutor, LocalExecutor))
        poll = None if shared else _interrupted.is_set
        sub = CountPlan(plan.problem, plan.group, tasks)
        shown = [time.perf_counter()]

        def report(running: TaskCount | None = None, at: int = -1) -> None:
            if progress is None:
                return
            now = [running if running is not None and j == at else r
                   for j, r in enumerate(results)]  # fmt: skip
            total = sum(r.nodes for r in now)
            progress(Progress(done, len(tasks), sub.raw(now), total, time.perf_counter() - start))

        run: Callable[[tuple[Task, float | None]], TaskCount] = _run
        if isinstance(executor, SerialExecutor) and progress is not None:
            # In this process a task can run for minutes (four-square's first took 64 s):
            # its count so far is shown every second, not only when it ends.
            calls = [len(kept)]  # the serial executor runs the jobs in their order

            def shown_run(job: tuple[Task, float | None]) -> TaskCount:
                at = calls[0]
                calls[0] += 1

                def chunk(so_far: TaskCount) -> None:
                    if time.perf_counter() - shown[0] >= 1.0:
                        shown[0] = time.perf_counter()
                        report(so_far, at)

                return _run(job, chunk)

            run = shown_run

        for i, result in executor.imap_unordered(run, jobs, poll=poll):
            results[len(kept) + i] = result
            done += 1
            if not result.complete:
                stopped_by = "time limit"
            report()
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    if _interrupted.is_set():
        stopped_by = "interrupt"
    if stopped_by is None and not all(r.complete for r in results):
        stopped_by = "time limit"
    return _result(plan, tasks, results, start, executor.workers, stopped_by, None, scan)


def _result(
    plan: CountPlan,
    tasks: list[Task],
    results: list[TaskCount],
    start: float,
    workers: int,
    stopped_by: str | None,
    progress: Callable[[Progress], None] | None,
    scan: ScanChoice | None = None,
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
        extra={"tasks_done": sum(r.complete for r in results)}
        | ({} if scan is None else {"scan": scan.as_dict()}),
    )

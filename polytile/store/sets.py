"""Building a puzzle set: candidates made on an executor, stored in candidate order.

Candidates are independent and deterministic (:func:`polytile.store.generate.make_candidate`,
which asks the kind), so they run on any executor (this
process, local workers, Dask) in any order. Results are put back in candidate order before
they are stored, and each is stored in its own transaction together with the job's progress. Hence:

* the set a run produces depends only on kind, parameters, seed and count, never on the
  number of workers or on timing;
* a run killed at any moment and started again with the same arguments resumes after the
  last stored candidate, and ends with exactly the puzzles an uninterrupted run would have.

Examples
--------
>>> from polytile.store.db import PuzzleStore
>>> from polytile.store.generate import parse_params
>>> from polytile.store.sets import build_set
>>> params = parse_params("packing", {"min_pieces": 5, "max_pieces": 6})
>>> with PuzzleStore(":memory:") as db:
...     report = build_set(db, "packing", params, 1, 3)
...     report.stored, db.count()
(3, 3)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from polytile.solvers.parallel import Executor, SerialExecutor
from polytile.store.candidates import Candidate
from polytile.store.db import Job, PuzzleStore
from polytile.store.generate import make_candidate
from polytile.store.kinds import kind as _kind

__all__ = ["BuildReport", "Progress", "build_set", "verify_store"]


@dataclass(frozen=True)
class Progress:
    """Where a build stands: puzzles stored of the total wanted, candidates tried, seconds."""

    done: int
    total: int
    tried: int
    seconds: float


@dataclass
class BuildReport:
    """What a build did: puzzles stored now, candidates tried now, drops by reason, the job
    afterwards, seconds, and why it stopped early (``None``: the target was reached)."""

    job: Job
    stored: int = 0
    tried: int = 0
    duplicates: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    stopped_by: str | None = None


#: A time limit this short starts no candidate: a candidate alone (loading the compiled
#: search, a first solve) takes longer.
NO_TIME = 0.05


def _work(item: tuple[str, Any, int, int, float | None, float | None]) -> Candidate:
    kind, params, seed, index, lo, hi = item
    cand = make_candidate(kind, params, seed, index)
    if cand.accepted and cand.difficulty is not None:
        if lo is not None and cand.difficulty < lo:
            cand.reason = "easier than --min-difficulty"
        elif hi is not None and cand.difficulty > hi:
            cand.reason = "harder than --max-difficulty"
    return cand


def build_set(
    store: PuzzleStore,
    kind: str,
    params: Any,
    seed: int,
    count: int,
    executor: Executor | None = None,
    *,
    min_difficulty: float | None = None,
    max_difficulty: float | None = None,
    time_limit: float | None = None,
    max_candidates: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> BuildReport:
    """Generate until the job (kind, params, seed, filters) holds ``count`` puzzles.

    Parameters
    ----------
    store
        Where puzzles go; the job is created or resumed there.
    kind, params, seed
        What to generate (:func:`polytile.store.generate.make_candidate`).
    count
        Puzzles the job should hold at the end.
    executor
        Where candidates are made (serial when omitted).
    min_difficulty, max_difficulty
        Keep only puzzles rated inside these bounds.
    time_limit
        Seconds after which the build stops (what is stored stays). It is checked as each
        candidate arrives and, with local workers, every tenth of a second while candidates
        run; the candidates running then are dropped (one worker runs them in this
        process, so there the limit waits for the running candidate). At most
        :data:`NO_TIME` seconds: no candidate is started.
    max_candidates
        Candidates to try in this run before giving up (default ``1000 + 200 * count``).
    progress
        Called after each stored or dropped candidate.
    should_stop
        Polled after each candidate; True stops the build (``stopped_by="interrupt"``), as
        a signal handler can ask without raising inside the executor.

    Returns
    -------
    BuildReport

    Notes
    -----
    Ctrl-C stops the build like a time limit: everything stored stays stored.
    """
    executor = executor or SerialExecutor()
    job_params = _kind(kind).describe_params(params)
    if min_difficulty is not None:
        job_params["min_difficulty"] = min_difficulty
    if max_difficulty is not None:
        job_params["max_difficulty"] = max_difficulty
    job = store.job(kind, job_params, seed, count)
    report = BuildReport(job)
    start = time.perf_counter()
    limit = max_candidates if max_candidates is not None else 1000 + 200 * count
    first = job.next_index
    done = job.done
    if done >= count:
        report.job = store.get_job(job.id)
        return report
    items = (
        (kind, params, seed, i, min_difficulty, max_difficulty) for i in itertools.count(first)
    )
    waiting: dict[int, Candidate] = {}
    following = first

    def stopping() -> bool:
        # Asked after each candidate and while slow candidates run, so the limit holds.
        if should_stop is not None and should_stop():
            report.stopped_by = "interrupt"
        elif time_limit is not None and time.perf_counter() - start >= time_limit:
            report.stopped_by = "time limit"
        return report.stopped_by is not None

    if time_limit is not None and time_limit <= NO_TIME:  # start-up took the whole limit
        report.stopped_by = "time limit"
        report.job = store.get_job(job.id)
        return report
    try:
        for _, cand in executor.imap_unordered(_work, items, poll=stopping):
            waiting[cand.index] = cand
            while following in waiting:  # store in candidate order
                c = waiting.pop(following)
                following += 1
                report.tried += 1
                if store.record(job, c):
                    report.stored += 1
                    done += 1
                elif (done := store.get_job(job.id).done) >= count:
                    break  # another run of the same job filled it
                elif c.accepted:
                    report.duplicates += 1
                else:
                    why = c.reason or "?"
                    report.dropped[why] = report.dropped.get(why, 0) + 1
                if progress is not None:
                    progress(Progress(done, count, report.tried, time.perf_counter() - start))
                if done >= count:
                    break
            if done >= count or stopping():
                break
            if report.tried >= limit:
                report.stopped_by = f"{limit} candidates tried"
                break
    except KeyboardInterrupt:
        report.stopped_by = "interrupt"
    report.seconds = time.perf_counter() - start
    report.job = store.get_job(job.id)
    return report


def verify_store(store: PuzzleStore) -> Iterator[tuple[int, list[str]]]:
    """Re-verify every stored puzzle: (id, problems) each, an empty list when sound.

    Each puzzle's kind (:meth:`polytile.store.kinds.PuzzleKind.verify`) checks the stored
    answer with the rules engine, uniqueness by a full search, and that the stored key is the
    puzzle's canonical key (so the store's unique index really keeps out turned and flipped
    copies).
    """
    for sp in store.puzzles():
        if not sp.known:
            yield sp.id, [sp.unknown()]  # reported as "puzzle N: its kind ..."
            continue
        yield sp.id, _kind(sp.kind).verify(sp.puzzle, sp.solution(), sp.key)

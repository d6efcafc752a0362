"""Running independent subproblems: in this process, on local worker processes, or on Dask.

Every executor offers one operation, :meth:`Executor.imap_unordered`: apply a picklable
function to picklable items and yield ``(index, result)`` as results arrive; ``poll``, when
given, is asked between results (at least every tenth of a second with local workers) and
True ends the iteration, so a time limit holds even while slow items run. Leaving the
iteration early abandons the items still running: leaving the executor then stops its
workers instead of waiting for them. Searches split
their tree into subproblems (a forced prefix of choices each) and sum the results, so totals
do not depend on the order results arrive in or on the executor.

Examples
--------
>>> from polytile.solvers.parallel import make_executor
>>> with make_executor(workers=1) as ex:
...     sorted(ex.imap_unordered(abs, [-1, -2]))
[(0, 1), (1, 2)]
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, Protocol

from polytile.errors import PolytileError

__all__ = [
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "SerialExecutor",
    "ctrl_c_asks_stop",
    "default_workers",
    "make_executor",
    "usable_workers",
]


@contextmanager
def ctrl_c_asks_stop() -> Iterator[threading.Event]:
    """While it holds, a first Ctrl-C only sets the event it yields, for work that polls it
    to stop and keep what it has; a second one interrupts at once (``KeyboardInterrupt``).

    A ``KeyboardInterrupt`` raised by the signal lands wherever the main thread is, a
    callback of the process pool's bookkeeping included, which then prints "Exception
    ignored" with a traceback and loses the interrupt; a flag polled by the work has no such
    place. Off the main thread, or where Ctrl-C is ignored (a worker), it changes nothing.
    """
    asked = threading.Event()
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is signal.SIG_IGN):  # fmt: skip
        yield asked
        return

    def first(signum: int, frame: object) -> None:
        asked.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    previous = signal.signal(signal.SIGINT, first)
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, previous)


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def usable_workers(requested: int) -> int:
    """``requested`` workers, at most the cores this process may use: more processes (or
    CP-SAT threads) than cores only share the same cores and multiply the memory held, and
    no result depends on the count."""
    return max(1, min(requested, default_workers()))


class Executor(Protocol):
    """Runs a function over items, yielding ``(index, result)`` as they finish."""

    workers: int

    def imap_unordered(
        self,
        fn: Callable[[Any], Any],
        items: Iterable[Any],
        poll: Callable[[], bool] | None = None,
    ) -> Iterator[tuple[int, Any]]: ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc: object) -> None: ...


class SerialExecutor:
    """Runs everything in this process, in order (the reference and the one-worker case)."""

    workers = 1

    def imap_unordered(
        self,
        fn: Callable[[Any], Any],
        items: Iterable[Any],
        poll: Callable[[], bool] | None = None,
    ) -> Iterator[tuple[int, Any]]:
        """Apply ``fn`` to each item in turn (``poll`` is asked between items)."""
        for i, item in enumerate(items):
            if poll is not None and poll():
                return
            yield i, fn(item)

    def __enter__(self) -> SerialExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def _ignore_sigint(parent: int) -> None:
    # Workers leave Ctrl-C to the parent, which stops them and keeps what finished.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's Python handlers; one that only sets a flag
    # (generate's graceful stop) would make SIGTERM, the parent-death signal below, a no-op.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # And they end with it, even when it is killed with no chance to stop them (Linux).
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    # A parent killed before that line was reached sends no signal: it is already gone.
    if os.getppid() != parent:
        os._exit(1)


class LocalExecutor:
    """A pool of local worker processes.

    Workers are forked where the platform allows, so compiled kernels already loaded in the
    parent are reused; at most ``2 * workers`` tasks are in flight, so huge task lists stream.
    """

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.workers = workers
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_ignore_sigint,
                                         initargs=(os.getpid(),))  # fmt: skip
        self._abandoned = False
        _LIVE.add(self)

    def imap_unordered(
        self,
        fn: Callable[[Any], Any],
        items: Iterable[Any],
        poll: Callable[[], bool] | None = None,
    ) -> Iterator[tuple[int, Any]]:
        """Apply ``fn`` on the workers; yields results as they complete."""
        pending: dict[Future[Any], int] = {}
        source = enumerate(items)
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < 2 * self.workers:
                    try:
                        i, item = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    pending[self._pool.submit(fn, item)] = i
                if not pending:
                    return
                timeout = None if poll is None else 0.1
                done, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield pending.pop(fut), fut.result()
                if poll is not None and poll():
                    return
        finally:
            if pending:  # left early: nobody wants what is still running
                for fut in pending:
                    fut.cancel()
                self._abandoned = True

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(stop=exc[0] is not None or self._abandoned)

    def close(self, stop: bool = True) -> None:
        """Shut the pool down: with ``stop`` (an error, Ctrl-C, abandoned work) drop the
        queued work and stop the workers at once, else wait for them.

        Then wait for the pool's manager thread to end: one still running when Python exits
        meets the interpreter's own exit hook, which in Python 3.11 may write to the
        thread's wake-up pipe as the thread closes it (a BrokenPipeError traceback after a
        command's normal report, seen on a busy machine).
        """
        # Take the processes and the manager first: shutdown forgets them.
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        manager = getattr(self._pool, "_executor_manager_thread", None)
        self._pool.shutdown(wait=not stop, cancel_futures=True)
        if stop:
            for proc in processes:
                proc.terminate()
        if manager is not None and manager is not threading.current_thread():
            manager.join(timeout=10)
        _LIVE.discard(self)


#: Local pools not closed yet (one kept for a whole command, say): closed at its end.
_LIVE: weakref.WeakSet[LocalExecutor] = weakref.WeakSet()


def close_all() -> None:
    """Close every local pool still open (:meth:`LocalExecutor.close`), as a command ends."""
    for pool in list(_LIVE):
        pool.close()


class DaskExecutor:
    """Tasks on a Dask cluster (``dask.distributed``), given the scheduler's address.

    The workers need polytile installed; each compiles the kernel once and caches it.
    """

    def __init__(self, address: Any, timeout: float = 10.0) -> None:
        try:
            from dask.distributed import Client
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise PolytileError("--scheduler needs Dask: pip install 'polytile[dask]'") from exc
        try:
            self._client = Client(address, timeout=f"{timeout}s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise PolytileError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
        self.workers = max(1, sum(self._client.nthreads().values()))

    def imap_unordered(
        self,
        fn: Callable[[Any], Any],
        items: Iterable[Any],
        poll: Callable[[], bool] | None = None,
    ) -> Iterator[tuple[int, Any]]:
        """Submit items (at most ``4 * workers`` in flight, so endless streams work) and
        yield results as they complete (``poll`` is asked after each result)."""
        from dask.distributed import as_completed

        source = enumerate(items)
        futures: dict[Any, int] = {}
        for i, item in itertools.islice(source, 4 * self.workers):
            futures[self._client.submit(fn, item, pure=False)] = i
        done = as_completed(list(futures))
        try:
            for fut in done:
                yield futures.pop(fut), fut.result()
                if poll is not None and poll():
                    return
                for i, item in itertools.islice(source, 1):
                    new = self._client.submit(fn, item, pure=False)
                    futures[new] = i
                    done.add(new)
        finally:
            if futures:  # left early: cancel what is still queued or running
                self._client.cancel(list(futures))

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self._client.close()


def make_executor(workers: int | None = None, scheduler: Any = None) -> Executor:
    """The executor for ``--workers`` / ``--scheduler``: Dask if an address is given, else
    local processes (serial for one worker). ``workers`` defaults to the cores available.
    """
    if scheduler is not None:
        return DaskExecutor(scheduler)
    n = default_workers() if workers is None else workers
    if n < 1:
        raise PolytileError(f"--workers must be at least 1, got {n}")
    return SerialExecutor() if n == 1 else LocalExecutor(n)

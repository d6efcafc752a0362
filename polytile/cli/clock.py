"""Whole-command time limits: ``--time-limit`` counts from the moment the process started.

Start-up (imports, OR-tools, compiling the kernels) is part of what a user waits for, so each
command turns its limit into the seconds still left for its searches with :func:`budget`,
keeping back a little for checking and printing the answer. Work that does not watch the
clock itself (building a CP-SAT model, a bounds search between its checks) runs inside a
:class:`Deadline`, which stops it like a Ctrl-C when the command runs 10% past its limit.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import weakref
from types import TracebackType

from polytile import _pause

__all__ = [
    "CLOCK",
    "EXIT_RESERVE",
    "CommandClock",
    "Deadline",
    "DeadlineReached",
    "StopFlag",
    "budget",
    "elapsed",
    "process_start",
    "start_command",
]

_IMPORTED = time.time()

#: Seconds kept back from every budget for the interpreter to stop once the answer is out:
#: with numba's kernels and OR-tools loaded, 0.2-0.4 s on a quiet machine, more on a busy one.
EXIT_RESERVE = 0.35


def process_start() -> float:
    """When this process started, as a :func:`time.time` value.

    Read from ``/proc`` on Linux (the process's start in clock ticks since boot, against the
    seconds since boot now); elsewhere, when this module was first imported.
    """
    try:
        with open("/proc/self/stat") as f:
            stat = f.read()
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        # pid (comm) state ppid ...: comm may hold spaces; starttime is field 22
        ticks = int(stat.rsplit(")", 1)[1].split()[19])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return _IMPORTED
    # /proc/uptime has hundredths of a second: never date the start after the import
    return min(time.time() - max(age, 0.0), _IMPORTED)


_START = process_start()


def start_command(whole_process: bool) -> None:
    """Start the clock of a command: from the process's start when the command is the
    program (the ``polytile`` entry point), else now (a command run inside a longer-lived
    process, such as a test's CliRunner or a notebook)."""
    global _START
    _START = process_start() if whole_process else time.time()
    _pause.paused = 0.0  # a new command: its own compile waits only


def elapsed() -> float:
    """Seconds since this process started, less those it waited for numba's first compile
    (:mod:`polytile._pause`): a time limit is for the work asked for."""
    return time.time() - _START - _pause.paused


def budget(limit: float | None, reserve: float = 0.0, floor: float = 0.01) -> float | None:
    """The seconds left of a whole-command ``limit``, less ``reserve`` for what follows the
    search (checking, printing, stopping workers) and :data:`EXIT_RESERVE`; ``None`` when
    there is no limit.

    Never less than ``floor``: a search given that little stops at its first check and
    reports the limit reached, which is the cheapest honest answer once start-up alone has
    used the time.
    """
    if limit is None:
        return None
    return max(limit - elapsed() - reserve - EXIT_RESERVE, floor)


class DeadlineReached(KeyboardInterrupt):
    """A whole-command time limit ran out in work that does not watch the clock.

    A :class:`KeyboardInterrupt`, so that everything that keeps its work on Ctrl-C (CP-SAT
    keeps its best solution, ``bounds`` the colours already bounded) keeps it here too.
    """


class Deadline:
    """Stop the enclosed work like a Ctrl-C once ``seconds`` (plus ``grace``) have passed.

    A backstop, not the budget: searches are given :func:`budget` and normally stop by
    themselves, well before it. :meth:`of_limit` is the usual one: it goes off when the
    whole command has run 10% past its limit, which leaves the 0.5 s a command may overrun
    by for stopping, printing what was found and exiting. The alarm (SIGALRM, in the main
    thread) raises :class:`DeadlineReached` in whatever runs then, such as a model being
    built. Libraries that turn a Ctrl-C into a plain :class:`KeyboardInterrupt` lose the
    subclass: ``fired`` tells the command that it was the clock, not the user. Does nothing
    when ``seconds`` is None, outside the main thread, or where ``setitimer`` is missing.

    Examples
    --------
    >>> with Deadline(None) as d:
    ...     pass
    >>> d.fired
    False
    """

    def __init__(self, seconds: float | None, grace: float = 0.0) -> None:
        self.seconds, self.grace = seconds, grace
        self.fired = False
        self._old: object = None
        self._armed = False
        self._ends: float | None = None

    @classmethod
    def of_limit(cls, limit: float | None) -> Deadline:
        """The deadline of a whole-command ``limit``: when the command has run 10% past it
        (counted as :func:`elapsed` counts), not before now."""
        return cls(None if limit is None else max(1.1 * limit - elapsed(), 0.0))

    def __enter__(self) -> Deadline:
        self.fired = False
        if (self.seconds is None or not hasattr(signal, "setitimer")
                or threading.current_thread() is not threading.main_thread()):  # fmt: skip
            return self
        self._old = signal.signal(signal.SIGALRM, self._fire)
        signal.setitimer(signal.ITIMER_REAL, max(self.seconds + self.grace, 0.001))
        self._armed = True
        self._ends = time.monotonic() + self.seconds + self.grace
        _ARMED.add(self)
        return self

    def check(self) -> None:
        """Raise :class:`DeadlineReached` at once if the deadline has passed: before work the
        alarm cannot cut short (importing OR-tools holds it for a second), or not worth
        starting."""
        if self._ends is not None and time.monotonic() >= self._ends:
            self.fired = True
            raise DeadlineReached

    def _shift(self, seconds: float) -> None:
        if self._ends is not None:
            self._ends += seconds

    def _fire(self, signum: int, frame: object) -> None:
        self.fired = True
        raise DeadlineReached

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        if self._armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)  # type: ignore[arg-type]
            self._armed = False
            _ARMED.discard(self)
        if self.fired and kind is not None and issubclass(kind, ImportError):
            # The alarm went off inside an extension module's import (OR-tools, numba's
            # compiled code), which then fails as "ImportError: initialization failed": it
            # was the clock, and the command says so as it does for any deadline (it ended
            # as an internal error, found by bench_time_limits at --time-limit 0.5).
            raise DeadlineReached from exc


#: The deadlines armed now: held still while the clock is paused.
_ARMED: weakref.WeakSet[Deadline] = weakref.WeakSet()


def _hold_alarm() -> float:
    """A pause starts: stop the alarm, keeping what was left of it."""
    if not _ARMED or threading.current_thread() is not threading.main_thread():
        return 0.0
    left, _ = signal.setitimer(signal.ITIMER_REAL, 0)
    return left


def _release_alarm(left: float, seconds: float) -> None:
    """A pause of ``seconds`` ends: the alarm goes on with what was left of it."""
    for deadline in list(_ARMED):
        deadline._shift(seconds)
    if left > 0 and threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, left)


_pause.add_hook(_hold_alarm, _release_alarm)


class StopFlag:
    """While active, the first Ctrl-C (and SIGTERM, with ``terminate=True``) only sets the
    flag, so no exception lands inside a search or a worker pool: the caller polls it and
    stops with its best so far. A second Ctrl-C stops at once (``KeyboardInterrupt``)."""

    def __init__(self, terminate: bool = False) -> None:
        self.asked = False
        self._signals = (signal.SIGINT, signal.SIGTERM) if terminate else (signal.SIGINT,)
        self._old: dict[int, object] = {}

    def __call__(self) -> bool:
        return self.asked

    def _handle(self, signum: int, frame: object) -> None:
        if self.asked and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.asked = True

    def __enter__(self) -> StopFlag:
        for sig in self._signals:
            self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)  # type: ignore[arg-type]


class CommandClock:
    """The clock a command gives the games (:class:`~polytile.faces.puzzle.Clock`):
    its limit counts from the command's start, as :func:`budget` counts it."""

    def left(self, limit: float | None, reserve: float = 0.0) -> float | None:
        """:func:`budget`."""
        return budget(limit, reserve=reserve)

    def deadline(self, limit: float | None) -> Deadline:
        """:meth:`Deadline.of_limit`."""
        return Deadline.of_limit(limit)

    def stop_flag(self) -> StopFlag:
        """A :class:`StopFlag` for Ctrl-C."""
        return StopFlag()


#: The clock of every command.
CLOCK = CommandClock()

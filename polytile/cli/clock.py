"""Whole-command time limits: ``--time-limit`` counts from the moment the process started.

Start-up (imports, OR-tools, compiling the kernels) is part of what a user waits for, so each
command turns its limit into the seconds still left for its searches with :func:`budget`,
keeping back a little for checking and printing the answer.
"""

from __future__ import annotations

import os
import time

__all__ = ["EXIT_RESERVE", "budget", "elapsed", "process_start", "start_command"]

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


def elapsed() -> float:
    """Seconds since this process started."""
    return time.time() - _START


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

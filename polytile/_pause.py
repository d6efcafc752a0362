"""Time a command's clock does not count: waiting for numba's first compile.

A whole-command ``--time-limit`` is for the work asked for. The first run after installing
also waits for numba to compile an engine (tens of seconds, once); that wait is a pause of
the command's clock (:func:`pausing`), so the search still gets its whole limit afterwards.
The command line's clock subtracts :data:`paused` and registers a hook that holds its alarm
(:class:`polytile.cli.clock.Deadline`) still while the clock is paused.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["add_hook", "paused", "pausing"]

#: Seconds the clock was paused in all, in this process.
paused = 0.0

#: (before, after) pairs: ``before()`` returns a state given back as ``after(state, seconds)``.
_hooks: list[tuple[Callable[[], Any], Callable[[Any, float], None]]] = []
_depth = 0
_lock = threading.Lock()


def add_hook(before: Callable[[], Any], after: Callable[[Any, float], None]) -> None:
    """Call ``before()`` when a pause starts and ``after(its result, seconds)`` when it
    ends (nested pauses count once)."""
    _hooks.append((before, after))


@contextmanager
def pausing() -> Iterator[None]:
    """While this holds, the command's clock stands still."""
    global paused, _depth
    with _lock:
        _depth += 1
        outer = _depth == 1
    states = [before() for before, _ in _hooks] if outer else []
    began = time.monotonic()
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
        if outer:
            seconds = time.monotonic() - began
            paused += seconds
            for (_, after), state in zip(_hooks, states, strict=True):
                after(state, seconds)

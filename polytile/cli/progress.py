"""The progress bar every long command shows on a terminal (stderr, never stdout)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

__all__ = ["LOG_EVERY", "log_every", "progress_bar", "search_progress"]


@contextmanager
def progress_bar(
    label: str, enabled: bool, describe: Callable[[Any], str] | None = None
) -> Iterator[Any]:
    """A rich progress bar on stderr when it is a terminal; yields an update callback.

    The callback takes an object with ``done``, ``total`` and ``seconds``; ``describe`` turns
    it into the bar's note (default: solutions found and search speed, from ``count`` and
    ``nodes``). The bar appears only after a second, so quick commands print nothing extra.
    When stderr is not a terminal (a log, a pipe), a plain line every :data:`LOG_EVERY`
    seconds says the same instead, so that long work is never silent there.
    """
    if not enabled:
        yield None
        return
    if not sys.stderr.isatty():
        yield _log_lines(label, describe or _search_note)
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    started = time.perf_counter()
    task_id = None

    def update(p: Any) -> None:
        nonlocal task_id
        if time.perf_counter() - started < 1.0 and p.done < p.total:
            return
        if task_id is None:
            bar.start()
            task_id = bar.add_task(label, total=p.total, info="")
        bar.update(task_id, completed=p.done, info=(describe or _search_note)(p))

    try:
        yield update
    finally:
        bar.stop()


#: Seconds between two progress lines when stderr is not a terminal; the environment
#: variable ``POLYTILE_LOG_EVERY`` sets another (0: a line at every update).
LOG_EVERY = 5.0


def log_every() -> float:
    """Seconds between two progress lines in a log: ``POLYTILE_LOG_EVERY`` when it is a
    number of seconds (0 or more), else :data:`LOG_EVERY`."""
    try:
        every = float(os.environ.get("POLYTILE_LOG_EVERY", LOG_EVERY))
    except ValueError:
        return LOG_EVERY
    return every if every >= 0 else LOG_EVERY


def _log_lines(label: str, describe: Callable[[Any], str]) -> Callable[[Any], None]:
    """An update callback printing a line now and then (every :func:`log_every` seconds;
    the first after that long too, so quick work prints nothing)."""
    started = time.perf_counter()
    last = started
    every = log_every()

    def update(p: Any) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last < every:
            return
        last = now
        # a bar shows done of total itself; a note that does not say it gets it here
        parts = f"{p.done:,} of {p.total:,} done, " if describe is _search_note else ""
        print(f"{label}: {parts}{describe(p)} ({now - started:.0f} s)", file=sys.stderr,
              flush=True)  # fmt: skip

    return update


def _search_note(p: Any) -> str:
    rate = p.nodes / max(p.seconds, 1e-9)
    return f"{p.count:,} found, {rate / 1e6:.1f}M nodes/s"


@contextmanager
def search_progress(label: str, enabled: bool) -> Iterator[Callable[[int, float], None]]:
    """:func:`progress_bar` for a search that reports the positions it has visited: yields
    the ``progress(positions, seconds)`` callback the searches take."""
    note = SimpleNamespace(done=0, total=1, seconds=0.0, nodes=0)
    with progress_bar(label, enabled, _positions_note) as update:

        def progress(nodes: int, seconds: float) -> None:
            if update is not None:
                note.nodes, note.seconds = nodes, seconds
                update(note)

        yield progress


def _positions_note(p: Any) -> str:
    return f"{p.nodes:,} positions, {p.nodes / max(p.seconds, 1e-9):,.0f}/s"

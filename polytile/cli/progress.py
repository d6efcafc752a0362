"""The progress bar every long command shows on a terminal (stderr, never stdout)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

__all__ = ["progress_bar", "search_progress"]


@contextmanager
def progress_bar(
    label: str, enabled: bool, describe: Callable[[Any], str] | None = None
) -> Iterator[Any]:
    """A rich progress bar on stderr when it is a terminal; yields an update callback.

    The callback takes an object with ``done``, ``total`` and ``seconds``; ``describe`` turns
    it into the bar's note (default: solutions found and search speed, from ``count`` and
    ``nodes``). The bar appears only after a second, so quick commands print nothing extra.
    """
    if not enabled or not sys.stderr.isatty():
        yield None
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

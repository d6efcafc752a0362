"""The verbs a view analysis shares (the moves of the player to move scored over what it
cannot see: City Blocks (Henning) and Gridblock), re-exported by
:mod:`polytile.faces.face`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from polytile.errors import OptionError

if TYPE_CHECKING:
    from polytile.faces.base import Console, EndgameRequest

__all__ = ["check_view_player", "print_view_moves", "run_view_analysis", "view_plan"]


def check_view_player(request: EndgameRequest, mover: str, names: list[str]) -> None:
    """Refuse a ``--view PLAYER`` that is not a player (``names``) or not ``mover``: the
    view analysis scores the moves of the player to move."""
    if request.view in (None, "to-move"):
        return
    name = request.view.strip().lower()
    if name not in names:
        raise OptionError(f"{request.view!r} is not a player; players: {', '.join(names)}",
                          "--view")  # fmt: skip
    if name != mover:
        raise OptionError(f"{mover} is to move, not {name}; the analysis scores the moves of "
                          "the player to move", "--view")  # fmt: skip


def run_view_analysis(
    console: Console, file: str, request: EndgameRequest, executor: Any,
    evaluate: Callable[[Any, Callable[[int, int], None], Callable[[], bool]], Any], *,
    label: str, unit: str, fallback: bool = False,
) -> tuple[Any, int]:  # fmt: skip
    """Run a view analysis (the moves of the player to move scored over the hidden part it
    cannot see) with a progress display: ``evaluate(executor, progress, stop)`` returns the
    analysis (its ``evaluation`` a :class:`~polytile.solvers.sampling.ViewEvaluation`),
    polling ``stop()``, which turns true at Ctrl-C; ``label`` names the work in the display
    and ``unit`` what it solves ("state", "hand combination"). Returns the analysis (a stop
    by Ctrl-C in its ``stopped_by``) and the executor's worker count.

    A stop (time limit, Ctrl-C) before a single ``unit`` was solved is said on standard
    error and ends with ``SystemExit`` 1 (130 for Ctrl-C): there is nothing to report. With
    ``fallback``, a stop by the time limit returns None as the analysis instead, so that
    the caller can estimate otherwise in the time it kept back.
    """
    import dataclasses
    import threading
    from contextlib import nullcontext
    from types import SimpleNamespace

    from polytile.solvers.alphabeta import SearchStopped
    from polytile.solvers.parallel import SerialExecutor, ctrl_c_asks_stop

    note = SimpleNamespace(done=0, total=1, seconds=0.0)
    with (
        executor as ex,
        console.progress(label, True,
                         lambda p: f"{p.done:,} of {p.total:,} {unit}s") as update,
    ):  # fmt: skip

        def progress(done: int, total: int) -> None:
            if update is not None:
                note.done, note.total = done, total
                update(note)

        # With worker processes the solves run elsewhere and this process only waits on
        # them, polling: a first Ctrl-C is a flag it polls. In this process (a serial
        # executor) it stays an interrupt, which stops the solve under way at once.
        soft = ctrl_c_asks_stop() if not isinstance(ex, SerialExecutor) else nullcontext(
            threading.Event())  # fmt: skip
        try:
            with soft as asked:
                analysis = evaluate(ex, progress, asked.is_set)
        except SearchStopped as stop:
            reason = "interrupt" if asked.is_set() else stop.reason
            if fallback and reason == "time":
                return None, getattr(ex, "workers", 1)
            why = {"interrupt": "interrupted", "time": "out of time (--time-limit)"}.get(
                reason, "stopped"
            )
            console.err(f"{file}: {why} before a single {unit} was solved"
                        + (" exactly" if unit == "state" else ""))  # fmt: skip
            raise SystemExit(130 if reason == "interrupt" else 1) from None
        ev = analysis.evaluation
        if asked.is_set() and not ev.complete and ev.stopped_by in (None, "stop"):
            analysis = dataclasses.replace(
                analysis, evaluation=dataclasses.replace(ev, stopped_by="interrupt")
            )
        return analysis, getattr(ex, "workers", 1)


def view_plan(analysis: Any) -> str:
    """What a view analysis set out to solve and how far it got, for its first lines:
    "every one solved exactly", "a seeded sample of 200, each solved exactly", or, when a
    time limit or Ctrl-C stopped it, how many of those were solved before the stop (the
    table's last lines say the same)."""
    ev = analysis.evaluation
    every = ev.planned == analysis.consistent
    sample = f"a seeded sample of {ev.planned:,}"
    if not every and analysis.consistent is not None and ev.planned > analysis.consistent:
        sample += " (drawn with repeats: more draws than there are)"
    if ev.complete:
        return "every one solved exactly" if every else f"{sample}, each solved exactly"
    plan = f"all {ev.planned:,}" if every else sample
    return f"{plan} to be solved exactly, {ev.states:,} solved before the stop"


def print_view_moves(console: Console, analysis: Any, workers: int, *, width: int, unit: str,
                     shown: int = 15) -> None:  # fmt: skip
    """The table of a view analysis (:func:`run_view_analysis`): each move's exact value,
    or its average over the ``unit``s solved with the spread (and the standard error where
    the average is not exact), the best move, how far the work got and on how many workers;
    ``width`` is the move column's, ``shown`` the moves listed (--json lists them all)."""
    ev = analysis.evaluation
    exact = analysis.exact_values
    console.out()
    err = not exact and not ev.exact_average
    head = f"  {'move':<{width}}{'value' if exact else 'average':>8}"
    head += f"{'± s.e.':>9}" if err else ""
    head += "" if exact else f"{'worst':>7}{'best':>6}"
    console.out(head)
    for i, (m, e) in enumerate(ev.moves.items()):
        if i == shown:
            console.out(f"  ... {len(ev.moves) - shown} more moves (--json lists them all)")
            break
        row = f"  {m!s:<{width}}{e.mean:>+8.2f}"
        row += f"{e.stderr:>9.2f}" if err else ""
        row += "" if exact else f"{e.low:>+7.0f}{e.high:>+6.0f}"
        console.out(row)
    console.out()
    console.out(f"{'best move' if exact else 'best by this estimate'}: {ev.best_move}")
    if not ev.complete:
        why = {"time": "the time limit (--time-limit)", "interrupt": "Ctrl-C"}.get(
            ev.stopped_by or "", "a stop request"
        )
        console.out(f"stopped by {why} after {ev.states:,} of {ev.planned:,} {unit}s: the "
                    "averages are over a random part of them")  # fmt: skip
    states = f"{ev.states:,} {unit}" + ("" if ev.states == 1 else "s")
    console.out(f"solved {states} in {ev.seconds:.1f} s on {workers} worker"
                f"{'s' if workers != 1 else ''}")  # fmt: skip

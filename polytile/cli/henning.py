"""``solve-endgame`` on City Blocks (Henning) files, chosen by the file's format
(``polytile/henning@1``); the other verbs reach the game through its face."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import click

__all__ = ["ViewOptions", "is_henning", "solve_henning"]

_TAG = '"polytile/henning@1"'


def is_henning(file: str) -> bool:
    """True when ``file`` is a City Blocks (Henning) document (its first bytes say so;
    ``-`` is standard input)."""
    from polytile._files import has_tag

    return has_tag(file, _TAG.encode())


def _load(file: str, move: int | None) -> Any:
    from polytile.puzzles.henning.files import load_henning

    return load_henning(file, move)


@dataclass(frozen=True)
class ViewOptions:
    """``solve-endgame``'s options for the analysis from one player's view."""

    player: str | None  # None: not asked for; "to-move", or a player's name
    samples: int = 200
    max_exact: int = 5000
    seed: int = 0
    workers: int | None = None
    given: frozenset[str] | set[str] = frozenset()


_SHOWN = 15  # moves listed in the text report (--json lists them all)


def solve_henning(file: str, move: int | None, as_json: bool, time_limit: float,
                  open_analysis: bool, view: ViewOptions | None = None) -> None:  # fmt: skip
    """``polytile solve-endgame`` of a Henning file: the exact endgame, or the moves scored
    from the view of the player to move, checked."""
    from polytile.puzzles.henning.endgame import EndgameStopped, solve_endgame

    view = view or ViewOptions(None)
    doc = _load(file, move)
    if view.player is not None or doc.kind == "view":
        if open_analysis:
            raise click.UsageError("--open solves one deal as if it were known; --view "
                                   "averages over every deal the player cannot rule out: "
                                   "choose one")  # fmt: skip
        _solve_view(file, doc, as_json, time_limit, view)
        return
    extra = sorted(set(view.given) - {"open_analysis"})
    if extra:
        flags = ", ".join("--" + n.replace("_", "-") for n in extra)
        raise click.UsageError(f"{flags}: only with --view (the analysis from one player's view)")
    try:
        r = solve_endgame(doc.state, open_analysis=open_analysis, time_limit=time_limit)
    except EndgameStopped as stop:
        click.echo(f"{file}: {stop}", err=True)
        raise SystemExit(130 if stop.reason == "interrupt" else 1) from None
    if as_json:
        click.echo(json.dumps(r.as_dict()))
        return
    sign = "+" if r.value > 0 else ""
    if r.over:
        click.echo(f"the game is over: blue {sign}{r.value} ({r.outcome}); final money blue "
                   f"${r.money[0]}, red ${r.money[1]}")  # fmt: skip
        click.echo("best move: none (the game is over)")
        return
    head = "exact value" if not r.open else "exact value of this deal (open analysis)"
    click.echo(f"{head}: blue {sign}{r.value} ({r.outcome}); final money blue ${r.money[0]}, "
               f"red ${r.money[1]}")  # fmt: skip
    who = ("blue", "red")[r.to_move]
    click.echo(f"best moves for {who}: " + ", ".join(str(m) for m in r.best_moves))
    click.echo("line: " + " / ".join(str(m) for m in r.pv))
    click.echo(f"searched {r.nodes:,} positions in {r.seconds:.2f} s")


def _solve_view(file: str, doc: Any, as_json: bool, time_limit: float, opts: ViewOptions) -> None:
    """Score the moves of the player to move over the states consistent with its view."""
    from types import SimpleNamespace

    from polytile.cli.progress import progress_bar
    from polytile.puzzles.henning.tiles import PLAYER_NAMES
    from polytile.puzzles.henning.view import evaluate_view
    from polytile.solvers.alphabeta import SearchStopped
    from polytile.solvers.parallel import LocalExecutor, default_workers

    g = doc.state
    if g.is_over():
        raise click.BadParameter(f"{file}: the game is over (final money blue ${g.money_of(0)}, "
                                 f"red ${g.money_of(1)}); there is no move to score",
                                 param_hint="POSITION")  # fmt: skip
    me = g.to_move
    mover = PLAYER_NAMES[me]
    if doc.kind == "view" and doc.player != me:
        raise click.BadParameter(f"{file} is {PLAYER_NAMES[doc.player]}'s view but {mover} is "
                                 "to move; a view analysis scores the moves of the player to "
                                 "move", param_hint="POSITION")  # fmt: skip
    if opts.player not in (None, "to-move"):
        name = opts.player.strip().lower()
        if name not in PLAYER_NAMES:
            raise click.BadParameter(f"{opts.player!r} is not a player; players: blue, red",
                                     param_hint="--view")  # fmt: skip
        if name != mover:
            raise click.BadParameter(f"{mover} is to move, not {name}; the analysis scores "
                                     "the moves of the player to move",
                                     param_hint="--view")  # fmt: skip
    note = SimpleNamespace(done=0, total=1, seconds=0.0)
    # Worker processes even for one worker: a compiled search cannot be stopped inside a
    # state, but its process can, so --time-limit and Ctrl-C hold.
    n = opts.workers or default_workers()
    with (
        LocalExecutor(n) as ex,
        progress_bar(
            "solving deals", not as_json, lambda p: f"{p.done:,} of {p.total:,} states"
        ) as update,
    ):

        def progress(done: int, total: int) -> None:
            if update is not None:
                note.done, note.total = done, total
                update(note)

        try:
            a = evaluate_view(g, me, max_exact=opts.max_exact, samples=opts.samples,
                              seed=opts.seed, time_limit=time_limit, executor=ex,
                              progress=progress)  # fmt: skip
        except SearchStopped as stop:
            why = {"interrupt": "interrupted", "time": "out of time (--time-limit)"}.get(
                stop.reason, "stopped"
            )
            click.echo(f"{file}: {why} before a single state was solved exactly", err=True)
            raise SystemExit(130 if stop.reason == "interrupt" else 1) from None
        workers = ex.workers
    ev = a.evaluation
    if as_json:
        click.echo(json.dumps({**a.as_dict(), "workers": workers}))
    else:
        _print_view(a, mover, workers)
    if ev.stopped_by == "interrupt":
        raise SystemExit(130)


def _print_view(a: Any, mover: str, workers: int) -> None:
    ev = a.evaluation
    other = "red" if mover == "blue" else "blue"
    if a.exact_values:
        click.echo(f"Nothing is hidden from {mover} (both reserves are empty): each move's exact "
                   f"value, {mover}'s final money minus {other}'s under best play.")  # fmt: skip
    else:
        how = ("every one solved exactly" if ev.planned == a.consistent
               else f"a seeded sample of {ev.planned:,}, each solved exactly")  # fmt: skip
        click.echo(f"{a.consistent:,} full states agree with what {mover} sees (the tiles of "
                   f"{other}'s hand, the order of both reserves); {how}.")  # fmt: skip
        click.echo(f"Scores: each move's average exact margin ({mover}'s money minus {other}'s) "
                   "over those states. An estimate, not the game's value.")  # fmt: skip
    click.echo()
    err = not a.exact_values and not ev.exact_average
    head = f"  {'move':<34}{'value' if a.exact_values else 'average':>8}"
    head += f"{'± s.e.':>9}" if err else ""
    head += "" if a.exact_values else f"{'worst':>7}{'best':>6}"
    click.echo(head)
    for i, (m, e) in enumerate(ev.moves.items()):
        if i == _SHOWN:
            click.echo(f"  ... {len(ev.moves) - _SHOWN} more moves (--json lists them all)")
            break
        row = f"  {m!s:<34}{e.mean:>+8.2f}"
        row += f"{e.stderr:>9.2f}" if err else ""
        row += "" if a.exact_values else f"{e.low:>+7.0f}{e.high:>+6.0f}"
        click.echo(row)
    best = ev.best_move
    click.echo()
    label = "best move" if a.exact_values else "best by this estimate"
    click.echo(f"{label}: {best}")
    if not ev.complete:
        why = {"time": "the time limit (--time-limit)", "interrupt": "Ctrl-C"}.get(
            ev.stopped_by or "", "a stop request"
        )
        click.echo(f"stopped by {why} after {ev.states:,} of {ev.planned:,} states: the averages "
                   "are over a random part of them")  # fmt: skip
    states = f"{ev.states:,} state" + ("" if ev.states == 1 else "s")
    click.echo(f"solved {states} in {ev.seconds:.1f} s on {workers} worker"
               f"{'s' if workers != 1 else ''}")  # fmt: skip

"""``polytile generate``: build a set of puzzles, each with exactly one solution (or one
best answer), into a puzzle store."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import click

from polytile.cli.clock import Deadline, DeadlineReached, StopFlag
from polytile.cli.console import facing
from polytile.cli.options import SECONDS, Finite, Workers
from polytile.faces.registry import PLANNED_KINDS as PLANNED
from polytile.store.kinds import PuzzleKind, kind_names
from polytile.store.kinds import kind as find_kind
from polytile.text import printable

__all__ = ["COMMANDS", "DB_HELP", "generate", "listed", "say", "summary"]

DB_HELP = "The puzzle store (an SQLite file; created by 'polytile generate')."


def _size_range(text: str) -> tuple[int, int]:
    """``"8-12"`` or ``"10"`` as (min, max)."""
    lo, sep, hi = text.partition("-")
    try:
        a = int(lo)
        b = int(hi) if sep else a
    except ValueError:
        raise click.BadParameter(f"{text!r} is not N or MIN-MAX (e.g. 8-12)",
                                 param_hint="'--size'") from None
    return a, b


def _histogram(values: list[float], width: int = 40) -> list[str]:
    """Text histogram of difficulties in unit bins."""
    if not values:
        return []
    lo, hi = int(min(values)), int(max(values))
    counts = {b: 0 for b in range(lo, hi + 1)}
    for v in values:
        counts[int(v)] += 1
    peak = max(counts.values())
    return [
        f"  {b:>2}-{b + 1:<2} {'#' * max(1, round(width * n / peak)) if n else '':<{width}} {n}"
        for b, n in counts.items()
    ]


def _kinds() -> list[PuzzleKind]:
    """Every kind, in the registry's order (each is a light object: its game's generator
    is imported only when it makes a candidate)."""
    return [find_kind(name) for name in kind_names()]


def listed(parts: list[str], last: str = " and ") -> str:
    """``"a, b and c"`` (``last`` joins the last two)."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])}{last}{parts[-1]}"


def _help(kinds: list[PuzzleKind]) -> str:
    """The command's help: each kind's paragraph, difficulty and examples come from it."""
    blocks = []
    for k in kinds:
        first, *rest = k.help.splitlines()
        indented = [f"  {k.name:<15}{first}", *(" " * 17 + line for line in rest)]
        blocks.append("\n".join(indented))
    planned = " ".join(f"{name!r} ({what}) is not built yet." for name, what in PLANNED.items())
    notes = [(k.name, k.difficulty_note) for k in kinds if k.difficulty_note]
    difficulty = "".join(
        (f" For {name} it is {note}" if i == 0 else f"; for {name}, {note}")
        for i, (name, note) in enumerate(notes)
    )
    examples = "\n".join(f"  {line}" for k in kinds for line in k.examples)
    return f"""Generate a set of puzzles, each with exactly one solution, into a store.

KIND is one of:

\b
{chr(10).join(blocks)}

{planned}

Each puzzle is rated by its difficulty: log2 of the search-tree nodes per piece that a
most-constrained-first search (Knuth's Algorithm X, the way people solve) needs to find
the solution and prove there is no other. 0 means forced moves all the way; each +1 doubles
the work.{difficulty}{"." if notes else ""}

The same KIND, options and --seed always give the same puzzles, with any number of
workers. Every puzzle is committed as soon as it is made: a run that is interrupted (even
killed) and started again with the same command resumes where it stopped. --count is the
number of puzzles this run's job should hold at the end.

\b
Exit codes:
  0  the set holds --count puzzles
  1  stopped early (--time-limit, Ctrl-C, or too many candidates dropped): run the
     same command again to carry on
  2  bad input or usage

\b
Examples:
{examples}
  polytile puzzles list --db puzzles.db
"""


def _kind_options(kinds: list[PuzzleKind]) -> list[click.Option]:
    """``--pieces`` and ``--size``, whose help says what each kind takes, then each kind's
    own options as it declares them."""
    pieces = ", ".join(f"{k.pieces_default} for {k.name}" for k in kinds if k.pieces_default)
    sizes = [f"{k.size_help} [default: {k.size_default}]" for k in kinds]
    size_help = listed(sizes, ", or ")
    out = [
        click.Option(["--pieces", "piece_set"], default=None,
                     help=f"The named piece set to draw from [default: {pieces}]; for "
                          "packing also FILE.json, your own pieces (the 'pieces' list of a "
                          "puzzle file)."),
        click.Option(["--size"], default=None, metavar="MIN-MAX",
                     help=size_help[:1].upper() + size_help[1:] + "."),
    ]  # fmt: skip
    for k in kinds:
        for o in k.options:
            kind_type: click.ParamType = (
                click.Choice(list(o.choices)) if o.choices else click.IntRange(*(o.bounds or ()))
            )
            out.append(click.Option([o.flag, o.name], type=kind_type, default=o.default,
                                    show_default=True, help=f"{k.name}: {o.help}"))  # fmt: skip
    return out


def _generate(
    kind: str,
    count: int,
    db: Path,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    min_difficulty: float | None,
    max_difficulty: float | None,
    time_limit: float | None,
    size: str | None,
    as_json: bool,
    **options: Any,
) -> None:
    """Fill ``db`` with ``count`` puzzles of ``kind`` (``options``: ``--pieces`` and every
    kind's own options; the kind takes its own)."""
    from polytile.cli.clock import budget as _budget
    from polytile.cli.progress import progress_bar
    from polytile.solvers.parallel import make_executor as _executor
    from polytile.store.db import PuzzleStore

    if (
        min_difficulty is not None
        and max_difficulty is not None
        and min_difficulty > max_difficulty
    ):
        raise click.BadParameter("--min-difficulty is above --max-difficulty")
    if str(db) == ":memory:":  # SQLite's in-memory database: everything made would be lost
        raise click.BadParameter(":memory: keeps nothing after the command; give a file",
                                 param_hint="--db")  # fmt: skip
    chosen = find_kind(kind)
    ctx = click.get_current_context()
    own = {o.name for o in chosen.options} | ({"piece_set"} if chosen.pieces_default else set())
    typed = frozenset(
        p.name for p in ctx.command.params
        if p.name and ctx.get_parameter_source(p.name) == click.core.ParameterSource.COMMANDLINE
    )  # fmt: skip
    foreign = [p.opts[-1] for p in ctx.command.params if p.name in options and p.name not in own
               and p.name in typed]  # fmt: skip
    if foreign:
        raise click.UsageError(f"{', '.join(foreign)} do(es) not apply to kind {kind}")
    size_text = chosen.size_default if size is None else size  # an empty --size is refused
    lo, hi = _size_range(size_text)
    with facing():
        values = chosen.params_values(
            (lo, hi), size_text, {n: v for n, v in options.items() if n in own}, typed
        )
    params = chosen.parse_params(values)
    if scheduler is None:  # the kind's compiled engines, once after installing
        _compiled(chosen.engines, as_json)
    stop = StopFlag(terminate=True)
    with PuzzleStore(db, on_wait=say) as store, _executor(workers, scheduler) as ex, stop:
        # A candidate can run for seconds: on one worker (this process) the deadline cuts
        # the one running (just after build_set's own limit, which it checks between
        # candidates), and a resumed run tries that candidate again.
        late = Deadline(_budget(time_limit, reserve=0.2, floor=0.25) if ex.workers == 1
                        and scheduler is None else None)  # fmt: skip
        try:
            with progress_bar("generating", True, _note) as update, late:
                report = _build(
                    late,
                    store,
                    kind,
                    params,
                    seed,
                    count,
                    ex,
                    min_difficulty=min_difficulty,
                    max_difficulty=max_difficulty,
                    time_limit=_budget(time_limit, reserve=0.3),
                    progress=update,
                    should_stop=stop,
                )
        except DeadlineReached:  # the alarm broke an import inside a candidate
            click.echo(f"{printable(str(db))}: stopped by the time limit (--time-limit) "
                       "before the candidate under way was done; every puzzle made before "
                       "it is stored, and the same command resumes", err=True)  # fmt: skip
            raise SystemExit(1) from None
        difficulties = store.difficulties(report.job.id)
    if late.fired and report.stopped_by == "interrupt":
        report.stopped_by = "time limit"
    rate = report.stored / report.seconds * 60 if report.seconds > 0 else 0.0
    doc: dict[str, Any] = {
        "db": str(db),
        "kind": kind,
        "job": report.job.id,
        "stored": report.stored,
        "total": report.job.done,
        "target": report.job.target,
        "tried": report.tried,
        "duplicates": report.duplicates,
        "dropped": report.dropped,
        "seconds": round(report.seconds, 3),
        "per_minute": round(rate, 1),
        "workers": ex.workers,
        "stopped_by": report.stopped_by,
        "difficulty": summary(difficulties),
    }
    if as_json:
        click.echo(json.dumps(doc, indent=2))
    else:
        click.echo(
            f"{printable(str(db))}: {report.stored} new puzzle(s); the set holds "
            f"{report.job.done} of "
            f"{report.job.target} (job {report.job.id})"
        )
        click.echo(
            f"tried {report.tried} candidate(s) in {report.seconds:.1f} s on "
            f"{ex.workers} worker(s): {rate:.0f} puzzles per minute"
        )
        if report.duplicates:
            click.echo(f"skipped {report.duplicates} duplicate(s) already in the store")
        for why, n in sorted((report.dropped or {}).items(), key=lambda kv: -kv[1]):
            click.echo(f"dropped {n}: {why}")
        if difficulties:
            s = doc["difficulty"]
            click.echo(f"difficulty: min {s['min']}, median {s['median']}, max {s['max']}")
            for line in _histogram(difficulties):
                click.echo(line)
    if report.stopped_by is not None:
        click.echo(
            f"stopped by {report.stopped_by} before the target; run the same command again "
            "to carry on",
            err=True,
        )
        raise SystemExit(1)


def _compiled(engines: tuple[str, ...], as_json: bool) -> None:
    """Wait for numba's first compile of ``engines`` (in a process of its own, which Ctrl-C
    does not throw away); the command's clock stands still meanwhile, so its time limit is
    for making puzzles."""
    from polytile._warm import compiled
    from polytile.cli.console import CONSOLE

    for engine in engines:
        compiled(CONSOLE, engine, None, not as_json)


def _build(late: Deadline, *args: Any, **kwargs: Any) -> Any:
    """``build_set(*args, **kwargs)``; should ``late`` go off outside its loop (which keeps
    what is stored and reports the stop itself), stop with exit 1 all the same."""
    from polytile.store.sets import build_set

    try:
        return build_set(*args, **kwargs)
    except KeyboardInterrupt:
        if not late.fired:
            raise
        say("stopped by time limit before the target; run the same command again to carry on")
        raise SystemExit(1) from None


def summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "min": min(values),
        "median": round(statistics.median(values), 2),
        "max": max(values),
    }


def say(message: str) -> None:
    click.echo(message, err=True)


def _note(p: Any) -> str:
    return f"{p.tried} tried, {p.done / max(p.seconds, 1e-9) * 60:.0f} per minute"


def _command() -> click.Command:
    """The ``generate`` command, its kind-specific help and options taken from the kinds."""
    kinds = _kinds()
    params: list[click.Parameter] = [
        click.Argument(["kind"]),
        click.Option(["-n", "--count"], type=click.IntRange(1, 1_000_000), required=True,
                     help="Puzzles the set should hold."),
        click.Option(["--db"], type=click.Path(dir_okay=False, path_type=Path), required=True,
                     help="The SQLite store to fill (created if missing)."),
        click.Option(["--seed"], type=click.IntRange(0, 2**63 - 1), default=0,
                     show_default=True, help="Seed of the run."),
        click.Option(["--workers"], type=Workers(1, 256), default=None,
                     help="Local worker processes [default: all cores]."),
        click.Option(["--scheduler"], metavar="ADDRESS",
                     help="Run candidates on this Dask scheduler (tcp://host:8786) instead."),
        click.Option(["--min-difficulty"], type=Finite(), default=None,
                     help="Keep puzzles at least this hard."),
        click.Option(["--max-difficulty"], type=Finite(), default=None,
                     help="Keep puzzles at most this hard."),
        click.Option(["--time-limit"], type=SECONDS, default=None,
                     help="Stop after this many seconds, counted from when the process started "
                     "(start-up included; what is stored stays; candidates still running are "
                     "dropped and tried again by the next run)."),
        *_kind_options(kinds),
        click.Option(["--json", "as_json"], is_flag=True,
                     help="Print a JSON report instead of text."),
    ]  # fmt: skip
    return click.Command("generate", callback=_generate, params=params, help=_help(kinds))


generate = _command()

COMMANDS = [generate]

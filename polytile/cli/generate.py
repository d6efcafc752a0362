"""``polytile generate``: build a set of puzzles, each with exactly one solution (or one
best answer), into a puzzle store."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import click

from polytile.cli.clock import Deadline, StopFlag
from polytile.cli.options import SECONDS, Finite

__all__ = ["COMMANDS", "DB_HELP", "say", "summary"]

DB_HELP = "The puzzle store (an SQLite file; created by 'polytile generate')."
#: Options that only some kinds take (each kind's own are listed in ``generate``).
_KIND_OPTIONS = ("piece_set", "colors", "touch", "max_blocked", "region", "holes", "max_given",
                 "question", "order", "node_limit")  # fmt: skip


def _size_range(text: str) -> tuple[int, int]:
    """``"8-12"`` or ``"10"`` as (min, max)."""
    lo, sep, hi = text.partition("-")
    try:
        a = int(lo)
        b = int(hi) if sep else a
    except ValueError:
        raise click.BadParameter(f"{text!r} is not N or MIN-MAX (e.g. 8-12)") from None
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


@click.command(
    "generate",
    help="""Generate a set of puzzles, each with exactly one solution, into a store.

KIND is one of:

\b
  packing        pieces from a named set (see 'polytile pieces') that fill a region in
                 exactly one way, up to the region's own symmetries. The region is a
                 random connected shape (--region shape, --holes enclosed holes) or a
                 rectangle. A candidate with several solutions gets up to --max-given of
                 its pieces given in place to rule the others out, or is dropped.
  blokus-teaser  four-square style: --colors colours with the same hand of pieces tile a
                 rectangle with up to --max-blocked blocked cells; same-colour pieces never
                 share an edge and follow --touch. Exactly one solution up to the board's
                 symmetries and colour renaming (counted exactly); others are dropped.
  henning        City Blocks (Henning): a late position of a seeded self-played game with
                 both reserves empty (every tile known) and --size empty blocks [2-4],
                 where exactly one move wins ("only-win": every other draws or loses) or
                 exactly one move is best, by $N or more over any other ("best-by-N");
                 --question keeps one of the two. Every move's value is solved exactly.
  gridblock-solo Gridblock solitaire: blue alone on a seeded layout with its seeded
                 hands for --size rounds [2-4], played in --order (fixed: as dealt;
                 free: any order in a round). Exactly one plan scores the most points:
                 a second exact search, which forbids that plan, proves every other
                 plan scores less (by the margin). Plans differing only in corners or
                 walks are one plan.
  walkable-path  Walkable Cities largest path: red alone drops --size pieces [1-2] on
                 three seeded boards (24 blue, 16 red cells, 10 dead per board) to make
                 the sum of its largest regions as large as possible. An exact branch
                 and bound (--node-limit nodes per proof) proves the optimum; a second
                 search for any other drops reaching it proves there are none. An
                 answer is each piece's drop: 4 cells, each on its board, so another
                 split or another board is another answer; swapping the drops of two
                 identical pieces is not. With more pieces most candidates have a
                 second optimal answer (a cell that does not count can go elsewhere)
                 and are dropped; 5-6 pieces may need a larger --node-limit.

'blokus-endgame' (Blokus endgame puzzles) is not built yet.

Each puzzle is rated by its difficulty: log2 of the search-tree nodes per piece that a
most-constrained-first search (Knuth's Algorithm X, the way people solve) needs to find
the solution and prove there is no other. 0 means forced moves all the way; each +1 doubles
the work. For henning it is log2 of the positions the exact endgame search visits to find
the answer and prove every other move worse; for gridblock-solo, log2 of the nodes the exact
search visits to find the best plan and prove every other plan scores less; for
walkable-path, log2(1 + the search nodes of both proofs) (the stats add greedy_short, how
far a player who takes each piece's best drop at once falls below the optimum).

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
  polytile generate packing --count 50 --db puzzles.db
  polytile generate packing -n 20 --db rect.db --region rectangle --size 8-10 --seed 7
  polytile generate packing -n 10 --db hard.db --min-difficulty 5
  polytile generate blokus-teaser -n 5 --db teasers.db --touch connected
  polytile generate henning -n 5 --db city.db --size 2-3 --question only-win
  polytile generate gridblock-solo -n 5 --db solo.db --order fixed --size 2-3
  polytile generate walkable-path -n 5 --db walk.db --size 1-2 --workers 1
  polytile generate walkable-path -n 1 --db walk3.db --size 3 --node-limit 1000000
  polytile puzzles list --db puzzles.db
""",
)
@click.argument("kind")
@click.option(
    "-n",
    "--count",
    type=click.IntRange(1, 1_000_000),
    required=True,
    help="Puzzles the set should hold.",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The SQLite store to fill (created if missing).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="Seed of the run.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 256),
    default=None,
    help="Local worker processes [default: all cores].",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run candidates on this Dask scheduler (tcp://host:8786) instead.",
)
@click.option(
    "--min-difficulty", type=Finite(), default=None, help="Keep puzzles at least this hard."
)
@click.option(
    "--max-difficulty", type=Finite(), default=None, help="Keep puzzles at most this hard."
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    help="Stop after this many seconds, counted from when the process started (start-up "
    "included; what is stored stays; candidates still running are dropped and tried again "
    "by the next run).",
)
@click.option(
    "--pieces",
    "piece_set",
    default=None,
    help="The named piece set to draw from [default: pentominoes for packing, tetrominoes "
    "for blokus-teaser].",
)
@click.option(
    "--size",
    default=None,
    metavar="MIN-MAX",
    help="Pieces per puzzle, given ones included (packing) [default: 8-12], per colour "
    "(blokus-teaser) [default: 2-3], empty blocks (henning) [default: 2-4], rounds "
    "(gridblock-solo, 1-6) [default: 2-4], or pieces to drop (walkable-path, 1-6) "
    "[default: 1-2].",
)
@click.option(
    "--colors",
    type=click.IntRange(2, 4),
    default=4,
    show_default=True,
    help="blokus-teaser: colours, each with the same hand.",
)
@click.option(
    "--touch",
    type=click.Choice(["local", "connected", "none"]),
    default="local",
    show_default=True,
    help="blokus-teaser: corner rule (see 'polytile solve --help').",
)
@click.option(
    "--max-blocked",
    type=click.IntRange(0, 10),
    default=3,
    show_default=True,
    help="blokus-teaser: most blocked cells on the board.",
)
@click.option(
    "--region",
    type=click.Choice(["shape", "rectangle"]),
    default="shape",
    show_default=True,
    help="packing: a random connected shape or a rectangle.",
)
@click.option(
    "--holes",
    type=click.IntRange(0, 4),
    default=0,
    show_default=True,
    help="packing: enclosed holes in a shape region.",
)
@click.option(
    "--max-given",
    type=click.IntRange(0, 20),
    default=2,
    show_default=True,
    help="packing: most pieces given in place to make the solution unique.",
)
@click.option(
    "--question",
    type=click.Choice(["any", "only-win", "best-by"]),
    default="any",
    show_default=True,
    help="henning: keep only-win puzzles, best-by-N puzzles, or both.",
)
@click.option(
    "--order",
    type=click.Choice(["fixed", "free"]),
    default="free",
    show_default=True,
    help="gridblock-solo: each round's cards in the dealt order, or in any order.",
)
@click.option(
    "--node-limit",
    type=click.IntRange(100, 10**9),
    default=100_000,
    show_default=True,
    help="walkable-path: search nodes per proof (work, not time: the same puzzles on any "
    "machine); a candidate needing more is dropped. 4-piece proofs take a few thousand; "
    "raise it for 5-6 pieces.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report instead of text.")
def generate(
    kind: str,
    count: int,
    db: Path,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    min_difficulty: float | None,
    max_difficulty: float | None,
    time_limit: float | None,
    piece_set: str | None,
    size: str | None,
    colors: int,
    touch: str,
    max_blocked: int,
    region: str,
    holes: int,
    max_given: int,
    question: str,
    order: str,
    node_limit: int,
    as_json: bool,
) -> None:
    """Fill ``db`` with ``count`` puzzles of ``kind``."""
    from polytile.cli.clock import budget as _budget
    from polytile.cli.progress import progress_bar
    from polytile.cli.solve import _executor
    from polytile.puzzles.tiling.generate import parse_params
    from polytile.puzzles.tiling.store import PuzzleStore

    if (
        min_difficulty is not None
        and max_difficulty is not None
        and min_difficulty > max_difficulty
    ):
        raise click.BadParameter("--min-difficulty is above --max-difficulty")
    if str(db) == ":memory:":  # SQLite's in-memory database: everything made would be lost
        raise click.BadParameter(":memory: keeps nothing after the command; give a file",
                                 param_hint="--db")  # fmt: skip
    teaser, henning = kind == "blokus-teaser", kind == "henning"
    solo, walk = kind == "gridblock-solo", kind == "walkable-path"
    ctx = click.get_current_context()
    own = {"blokus-teaser": ("piece_set", "colors", "touch", "max_blocked"), "henning": (
        "question",), "gridblock-solo": ("order",), "walkable-path": ("node_limit",)}.get(
        kind, ("piece_set", "region", "holes", "max_given"))  # fmt: skip
    given = [
        p.opts[-1]
        for p in ctx.command.params
        if p.name in _KIND_OPTIONS and p.name not in own
        and ctx.get_parameter_source(p.name or "") == click.core.ParameterSource.COMMANDLINE
    ]  # fmt: skip
    if given:
        raise click.UsageError(f"{', '.join(given)} do(es) not apply to kind {kind}")
    lo, hi = _size_range(size or ("2-3" if teaser else "2-4" if henning or solo
                                  else "1-2" if walk else "8-12"))  # fmt: skip
    values: dict[str, Any] = {
        "pieces": piece_set or ("tetrominoes" if teaser else "pentominoes"),
        "min_pieces": lo,
        "max_pieces": hi,
    }
    if teaser:
        values |= {"colors": colors, "touch": touch, "max_blocked": max_blocked}
    elif henning:
        values = {"min_empty": lo, "max_empty": hi, "question": question}
    elif solo:
        values = {"order": order, "min_rounds": lo, "max_rounds": hi}
    elif walk:
        if not 1 <= lo <= hi <= 6:
            raise click.BadParameter(f"walkable-path drops 1 to 6 pieces (MIN <= MAX), not "
                                     f"{size}", param_hint="--size")  # fmt: skip
        values = {"min_pieces": lo, "max_pieces": hi, "node_limit": node_limit}
    else:
        if 2 <= lo <= hi and max_given > lo - 1:  # a puzzle keeps one piece to place
            default = (ctx.get_parameter_source("max_given")
                       != click.core.ParameterSource.COMMANDLINE)  # fmt: skip
            raise click.BadParameter(
                f"{max_given}{' (the default)' if default else ''} is too many for "
                f"--size {size or f'{lo}-{hi}'}: a puzzle of {lo} pieces gives at most "
                f"{lo - 1}; pass --max-given {lo - 1} or a larger --size",
                param_hint="--max-given",
            )
        values |= {"region": region, "holes": holes, "max_given": max_given}
    params = parse_params(kind, values)
    stop = StopFlag(terminate=True)
    with PuzzleStore(db, on_wait=say) as store, _executor(workers, scheduler) as ex, stop:
        # A candidate can run for seconds: on one worker (this process) the deadline cuts
        # the one running (just after build_set's own limit, which it checks between
        # candidates), and a resumed run tries that candidate again.
        late = Deadline(_budget(time_limit, reserve=0.2, floor=0.25) if ex.workers == 1
                        and scheduler is None else None)  # fmt: skip
        with progress_bar("generating", not as_json, _note) as update, late:
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
            f"{db}: {report.stored} new puzzle(s); the set holds {report.job.done} of "
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


def _build(late: Deadline, *args: Any, **kwargs: Any) -> Any:
    """``build_set(*args, **kwargs)``; should ``late`` go off outside its loop (which keeps
    what is stored and reports the stop itself), stop with exit 1 all the same."""
    from polytile.puzzles.tiling.sets import build_set

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


COMMANDS = [generate]

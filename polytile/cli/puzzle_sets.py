"""``polytile generate`` and ``polytile puzzles``: build, browse and export puzzle sets."""

from __future__ import annotations

import json
import signal
import statistics
from pathlib import Path
from typing import Any

import click

from polytile.cli.options import SECONDS

__all__ = ["COMMANDS"]

_DB_HELP = "The puzzle store (an SQLite file; created by 'polytile generate')."
#: Options that only some kinds take (each kind's own are listed in ``generate``).
_KIND_OPTIONS = ("piece_set", "colors", "touch", "max_blocked", "region", "holes", "max_given",
                 "question")  # fmt: skip


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

'blokus-endgame' is not built: it needs Blokus endgame bounds, which have not landed.

Each puzzle is rated by its difficulty: log2 of the search-tree nodes per piece that a
most-constrained-first search (Knuth's Algorithm X, the way people solve) needs to find
the solution and prove there is no other. 0 means forced moves all the way; each +1 doubles
the work. For henning it is log2 of the positions the exact endgame search visits to find
the answer and prove every other move worse.

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
@click.option("--min-difficulty", type=float, default=None, help="Keep puzzles at least this hard.")
@click.option("--max-difficulty", type=float, default=None, help="Keep puzzles at most this hard.")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    help="Stop after this many seconds (what is stored stays; candidates still running are "
    "dropped, except with --workers 1, which finishes the one it runs).",
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
    "(blokus-teaser) [default: 2-3], or empty blocks (henning) [default: 2-4].",
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
    as_json: bool,
) -> None:
    """Fill ``db`` with ``count`` puzzles of ``kind``."""
    from polytile.cli.progress import progress_bar
    from polytile.cli.solve import _executor
    from polytile.puzzles.tiling.generate import parse_params
    from polytile.puzzles.tiling.sets import build_set
    from polytile.puzzles.tiling.store import PuzzleStore

    if (
        min_difficulty is not None
        and max_difficulty is not None
        and min_difficulty > max_difficulty
    ):
        raise click.BadParameter("--min-difficulty is above --max-difficulty")
    teaser, henning = kind == "blokus-teaser", kind == "henning"
    ctx = click.get_current_context()
    own = {"blokus-teaser": ("piece_set", "colors", "touch", "max_blocked"), "henning": (
        "question",)}.get(kind, ("piece_set", "region", "holes", "max_given"))  # fmt: skip
    given = [
        p.opts[-1]
        for p in ctx.command.params
        if p.name in _KIND_OPTIONS and p.name not in own
        and ctx.get_parameter_source(p.name or "") == click.core.ParameterSource.COMMANDLINE
    ]  # fmt: skip
    if given:
        raise click.UsageError(f"{', '.join(given)} do(es) not apply to kind {kind}")
    lo, hi = _size_range(size or ("2-3" if teaser else "2-4" if henning else "8-12"))
    values: dict[str, Any] = {
        "pieces": piece_set or ("tetrominoes" if teaser else "pentominoes"),
        "min_pieces": lo,
        "max_pieces": hi,
    }
    if teaser:
        values |= {"colors": colors, "touch": touch, "max_blocked": max_blocked}
    elif henning:
        values = {"min_empty": lo, "max_empty": hi, "question": question}
    else:
        values |= {"region": region, "holes": holes, "max_given": max_given}
    params = parse_params(kind, values)
    stop = _StopFlag()
    with PuzzleStore(db, on_wait=_say) as store, _executor(workers, scheduler) as ex, stop:
        with progress_bar("generating", not as_json, _note) as update:
            report = build_set(
                store,
                kind,
                params,
                seed,
                count,
                ex,
                min_difficulty=min_difficulty,
                max_difficulty=max_difficulty,
                time_limit=time_limit,
                progress=update,
                should_stop=stop,
            )
        difficulties = store.difficulties(report.job.id)
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
        "difficulty": _summary(difficulties),
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


class _StopFlag:
    """While active, Ctrl-C and SIGTERM ask the build to stop after the current candidate
    (so no exception lands inside the worker pool); a second Ctrl-C stops at once."""

    def __init__(self) -> None:
        self.asked = False
        self._old: dict[int, Any] = {}

    def __call__(self) -> bool:
        return self.asked

    def _handle(self, signum: int, frame: Any) -> None:
        if self.asked and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.asked = True

    def __enter__(self) -> _StopFlag:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)


def _summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "min": min(values),
        "median": round(statistics.median(values), 2),
        "max": max(values),
    }


def _say(message: str) -> None:
    click.echo(message, err=True)


def _note(p: Any) -> str:
    return f"{p.tried} tried, {p.done / max(p.seconds, 1e-9) * 60:.0f} per minute"


# -- polytile puzzles ---------------------------------------------------------------------
@click.group(
    "puzzles",
    invoke_without_command=True,
    help="""The catalogue of named puzzles, or a generated puzzle set.

Without a subcommand: the catalogue of named tiling puzzles with their known solution
counts (raw / up to the board's symmetries; '?' where not published). Run
'polytile count NAME' to count one, 'polytile solve NAME' to see a solution.

\b
With a store made by 'polytile generate':
  polytile puzzles list --db puzzles.db            one line per puzzle
  polytile puzzles show 3 --db puzzles.db          puzzle 3 as a picture
  polytile puzzles show 3 --db puzzles.db --solution
  polytile puzzles export --db puzzles.db -o set.jsonl
  polytile puzzles export --db puzzles.db -o sheet.svg   (and sheet-solutions.svg)
""",
)
@click.option("--json", "as_json", is_flag=True, help="Print the catalogue as a JSON list.")
@click.pass_context
def puzzles(ctx: click.Context, as_json: bool) -> None:
    """List the catalogue when no subcommand is given."""
    if ctx.invoked_subcommand is None:
        _catalogue(as_json)


def _catalogue(as_json: bool) -> None:
    from polytile.puzzles.tiling.puzzles import CATALOGUE

    rows: list[dict[str, Any]] = []
    for p in CATALOGUE.values():
        rows.append(
            {
                "name": p.name,
                "board": f"{p.board.rows}x{p.board.cols}",
                "pieces": p.problem.n_pieces,
                "known_count": p.known_count,
                "known_count_up_to_symmetry": p.known_count_up_to_symmetry,
                "description": p.description,
            }
        )
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        known = (
            f"{r['known_count']:,} / {r['known_count_up_to_symmetry']:,}"
            if r["known_count"] is not None
            else "? / ?"
        )
        click.echo(f"{r['name']:<{width}}  {r['board']:>5}  {known:>14}  {r['description']}")


def _open(db: Path) -> Any:
    from polytile.puzzles.tiling.store import PuzzleStore

    if not db.exists():
        raise click.BadParameter(f"{db} does not exist (make one with 'polytile generate')")
    return PuzzleStore(db, create=False, on_wait=_say)


def _filters(f: Any) -> Any:
    f = click.option(
        "--max-difficulty", type=float, default=None, help="Only puzzles at most this hard."
    )(f)
    f = click.option(
        "--min-difficulty", type=float, default=None, help="Only puzzles at least this hard."
    )(f)
    f = click.option("--kind", default=None, help="Only puzzles of this kind.")(f)
    f = click.option(
        "--db", type=click.Path(dir_okay=False, path_type=Path), required=True, help=_DB_HELP
    )(f)
    return f


def _henning(sp: Any) -> bool:
    from polytile.puzzles.henning.generate import HenningPuzzle

    return isinstance(sp.puzzle, HenningPuzzle)


def _row(sp: Any) -> dict[str, Any]:
    from polytile.puzzles.henning.generate import puzzle_summary

    p = sp.puzzle
    if _henning(sp):  # cells: empty blocks; pieces: tiles in both hands
        shape = puzzle_summary(p)
    else:
        shape = {"board": f"{p.layout.rows}x{p.layout.cols}", "cells": p.layout.n_open,
                 "pieces": len(p.all_piece_names()), "given": len(p.given)}  # fmt: skip
    return {
        "id": sp.id,
        "kind": sp.kind,
        **shape,
        "difficulty": sp.difficulty,
        "nodes": sp.stats.get("nodes"),
        "seed": sp.seed,
        "candidate": sp.candidate,
        "key": sp.key,
    }


@puzzles.command("list")
@_filters
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def list_command(
    db: Path,
    kind: str | None,
    min_difficulty: float | None,
    max_difficulty: float | None,
    as_json: bool,
) -> None:
    """One line per stored puzzle: id, kind, board, pieces, given pieces, difficulty.

    For City Blocks (henning) puzzles, cells are the empty blocks and pieces the tiles in
    both hands; the JSON rows add the question and the player to move.
    """
    with _open(db) as store:
        rows = [_row(sp) for sp in store.puzzles(kind, min_difficulty, max_difficulty)]
        kinds = store.kinds()
    if kind is not None and kind not in kinds:
        click.echo(f"note: {db} holds no puzzle of kind {kind!r} (it has: "
                   f"{', '.join(kinds) or 'none'})", err=True)  # fmt: skip
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    click.echo(
        f"{'id':>5}  {'kind':<13} {'board':>6} {'cells':>5} {'pieces':>6} {'given':>5} "
        f"{'difficulty':>10}"
    )
    for r in rows:
        click.echo(
            f"{r['id']:>5}  {r['kind']:<13} {r['board']:>6} {r['cells']:>5} {r['pieces']:>6} "
            f"{r['given']:>5} {r['difficulty']:>10.2f}"
        )
    click.echo(f"{len(rows)} puzzle(s)", err=True)


def _puzzle_picture(sp: Any) -> Any:
    """The puzzle as a drawable solution: the given pieces on the board, the rest empty."""
    from polytile.formats import Solution

    p = sp.puzzle
    return Solution(
        puzzle=p.name,
        rows=p.layout.rows,
        cols=p.layout.cols,
        placements=p.given,
        blocked=tuple(sorted(p.layout.blocked)),
        status="unknown",
    )


def _caption(sp: Any) -> str:
    p = sp.puzzle
    if _henning(sp):
        return f"#{sp.id}  difficulty {sp.difficulty:.1f}  {p.question}, {p.position.empty} " \
            "empty blocks"  # fmt: skip
    if hasattr(p, "touch"):  # a teaser: the same hand per colour
        hand = " ".join(x.name for x in p.pieces[0])
        what = f"{p.n_colors} colours x {hand}, touch {p.touch}"
    else:
        what = " ".join(p.piece_names())
    return f"#{sp.id}  difficulty {sp.difficulty:.1f}  place: {what}"


@puzzles.command("show")
@click.argument("puzzle_id", type=int, metavar="ID")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), required=True, help=_DB_HELP)
@click.option("--solution", "with_solution", is_flag=True, help="Show the solution too.")
@click.option("--json", "as_json", is_flag=True, help="Print the puzzle (and solution) documents.")
@click.option(
    "--file",
    "as_file",
    is_flag=True,
    help="Print only the puzzle file, ready for 'polytile solve FILE' or 'polytile count FILE' "
    "(henning: the henning@1 position, for 'polytile render' or 'polytile solve-endgame').",
)
@click.option("--color/--no-color", default=None, help="Force colour on or off [default: auto].")
def show_command(
    puzzle_id: int,
    db: Path,
    with_solution: bool,
    as_json: bool,
    as_file: bool,
    color: bool | None,
) -> None:
    """Show one stored puzzle: its board with the given pieces, and the pieces to place
    (City Blocks: the city, the side to move and the question; --solution adds the answer,
    its value, the runner-up's and a line of best play).

    \b
    Examples:
      polytile puzzles show 3 --db puzzles.db --solution
      polytile puzzles show 3 --db puzzles.db --file > p3.json && polytile count p3.json
    """
    from polytile.puzzles.henning import generate as henning
    from polytile.puzzles.henning.picture import to_text as city_text
    from polytile.render import to_text

    with _open(db) as store:
        sp = store.get(puzzle_id)
    if as_file:
        click.echo(json.dumps(sp.puzzle_json["position"] if _henning(sp) else sp.puzzle_json,
                              indent=2))  # fmt: skip
        return
    if as_json:
        doc: dict[str, Any] = {
            **_row(sp),
            "params": sp.params,
            "stats": sp.stats,
            "puzzle": sp.puzzle_json,
        }
        if with_solution:
            doc["solution"] = json.loads(sp.solution_json)
        click.echo(json.dumps(doc, indent=2))
        return
    click.echo(_caption(sp))
    if _henning(sp):
        click.echo(city_text(sp.puzzle.position, color=color))
        click.echo(henning.question_text(sp.puzzle))
        if with_solution:
            click.echo(henning.answer_text(sp.puzzle, sp.solution()))
        return
    click.echo(to_text(_puzzle_picture(sp), color=color), nl=False)
    if with_solution:
        click.echo("solution:")
        click.echo(to_text(sp.solution(), color=color), nl=False)


@puzzles.command("export")
@_filters
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="FILE.jsonl (one JSON object per puzzle) or FILE.svg (a printable sheet; "
    "the solutions go to FILE-solutions.svg).",
)
@click.option(
    "--columns",
    type=click.IntRange(1, 20),
    default=3,
    show_default=True,
    help="SVG: pictures per row.",
)
def export_command(
    db: Path,
    kind: str | None,
    min_difficulty: float | None,
    max_difficulty: float | None,
    output: Path,
    columns: int,
) -> None:
    """Export stored puzzles as JSON lines or as printable SVG sheets."""
    from polytile.formats import write_atomic
    from polytile.render.sheet import contact_sheet

    suffix = output.suffix.lower()
    other = output.with_name(output.stem + "-solutions.svg")
    if any(p.exists() and p.resolve() == db.resolve() for p in (output, other)):
        raise click.BadParameter(f"{output} would overwrite the store {db}", param_hint="-o")
    if suffix not in (".jsonl", ".svg"):
        raise click.BadParameter(f"{output}: the suffix must be .jsonl or .svg")
    with _open(db) as store:
        chosen = list(store.puzzles(kind, min_difficulty, max_difficulty))
    if suffix == ".svg" and any(_henning(sp) for sp in chosen):
        why = "SVG sheets hold tiling puzzles; export henning ones as .jsonl (or use --kind)"
        raise click.BadParameter(why, param_hint="-o")
    if suffix == ".jsonl":
        lines = [
            json.dumps(
                {
                    **_row(sp),
                    "params": sp.params,
                    "stats": sp.stats,
                    "puzzle": sp.puzzle_json,
                    "solution": json.loads(sp.solution_json),
                }
            )
            for sp in chosen
        ]
        write_atomic(output, ("\n".join(lines) + "\n" if lines else "").encode())
        click.echo(f"wrote {len(chosen)} puzzle(s) to {output}", err=True)
        return
    heading = f"{len(chosen)} puzzles from {db.name}"
    page = contact_sheet(
        [(_puzzle_picture(sp), _caption(sp)) for sp in chosen], columns, heading=heading
    )
    answers = contact_sheet(
        [(sp.solution(), f"#{sp.id} solution") for sp in chosen],
        columns,
        heading=f"Solutions: {heading}",
    )
    write_atomic(output, page.encode())
    write_atomic(other, answers.encode())
    click.echo(
        f"wrote {len(chosen)} puzzle(s) to {output} and their solutions to {other}", err=True
    )


COMMANDS = [generate, puzzles]

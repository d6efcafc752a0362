"""``polytile puzzles``: browse, show and export the catalogue and generated puzzle sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from polytile.cli.generate import DB_HELP, listed, say
from polytile.cli.options import Finite
from polytile.errors import PolytileError
from polytile.store.kinds import Catalogued, DrawnKind, PuzzleKind, UnsoundAnswerError, kind_names
from polytile.store.kinds import kind as find_kind
from polytile.text import printable

__all__ = ["COMMANDS"]


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

\b
Exit codes:
  0  listed, shown or exported
  2  no such store or puzzle, a store this version cannot read, or bad usage
""",
)
@click.option("--json", "as_json", is_flag=True, help="Print the catalogue as a JSON list.")
@click.pass_context
def puzzles(ctx: click.Context, as_json: bool) -> None:
    """List the catalogue when no subcommand is given."""
    if ctx.invoked_subcommand is None:
        _catalogue(as_json)


def _kinds() -> list[PuzzleKind]:
    return [find_kind(name) for name in kind_names()]


def _catalogue(as_json: bool) -> None:
    rows = [r for k in _kinds() if isinstance(k, Catalogued) for r in k.catalogue()]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(r["name"]) for r in rows)
    knowns = [
        f"{r['known_count']:,} / {r['known_count_up_to_symmetry']:,}"
        if r["known_count"] is not None
        else "? / ?"
        for r in rows
    ]
    wide = max(len(k) for k in knowns)
    boards = max(len(r["board"]) for r in rows)
    for r, known in zip(rows, knowns, strict=True):
        click.echo(f"{r['name']:<{width}}  {r['board']:>{boards}}  {known:>{wide}}  "
                   f"{r['description']}")  # fmt: skip


def _open(db: Path) -> Any:
    from polytile.store.db import PuzzleStore

    if not db.exists():
        raise click.BadParameter(f"{db} does not exist (make one with 'polytile generate')")
    return PuzzleStore(db, create=False, on_wait=say)


def _filters(f: Any) -> Any:
    f = click.option(
        "--max-difficulty", type=Finite(), default=None, help="Only puzzles at most this hard."
    )(f)
    f = click.option(
        "--min-difficulty", type=Finite(), default=None, help="Only puzzles at least this hard."
    )(f)
    f = click.option("--kind", default=None, help="Only puzzles of this kind.")(f)
    f = click.option(
        "--db", type=click.Path(dir_okay=False, path_type=Path), required=True, help=DB_HELP
    )(f)
    return f


def _row(sp: Any) -> dict[str, Any]:
    if sp.known:
        shape = find_kind(sp.kind).row(sp.puzzle)
    else:  # listed as it is stored, with nothing read from a document this version can't
        shape = {"board": "?", "cells": "?", "pieces": "?", "given": "?", "unknown_kind": True}
    return {
        "id": sp.id,
        "kind": sp.kind if sp.known else printable(sp.kind[:40]),
        **shape,
        "difficulty": sp.difficulty,
        "nodes": sp.stats.get("nodes"),
        "seed": sp.seed,
        "candidate": sp.candidate,
        "key": sp.key,
    }


def _list_help() -> str:
    notes = " ".join(k.list_note for k in _kinds() if k.list_note)
    return "One line per stored puzzle: id, kind, board, pieces, given pieces, difficulty." + (
        f"\n\n{notes}" if notes else ""
    )


@puzzles.command("list", help=_list_help())
@_filters
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def list_command(
    db: Path,
    kind: str | None,
    min_difficulty: float | None,
    max_difficulty: float | None,
    as_json: bool,
) -> None:
    """List the stored puzzles (the help is :func:`_list_help`'s)."""
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
    unknown = sorted({r["kind"] for r in rows if r.get("unknown_kind")})
    if unknown:
        n = sum(1 for r in rows if r.get("unknown_kind"))
        names = ", ".join(f"'{k}'" for k in unknown)
        click.echo(f"note: {n} of them of a kind this version of polytile does not know "
                   f"({names}; shown as '?': made by a newer "
                   f"version? 'polytile validate' names them)", err=True)  # fmt: skip


def _caption(sp: Any) -> str:
    return f"#{sp.id}  difficulty {sp.difficulty:.1f}  {find_kind(sp.kind).caption(sp.puzzle)}"


def _show_help() -> str:
    notes = ". ".join(k.show_note for k in _kinds() if k.show_note)
    return f"""Show one stored puzzle: its board with the given pieces, and the pieces to place{
        f" ({notes})" if notes else ""
    }.

\b
Examples:
  polytile puzzles show 3 --db puzzles.db --solution
  polytile puzzles show 3 --db puzzles.db --file > p3.json && polytile count p3.json
"""


def _file_help() -> str:
    said: dict[str, list[str]] = {}  # kinds that say the same, named together
    for k in _kinds():
        if k.file_note:
            said.setdefault(k.file_note, []).append(k.name)
    notes = "; ".join(f"{', '.join(names)}: {note}" for note, names in said.items())
    return "Print only the puzzle file, ready for 'polytile solve FILE' or 'polytile count " \
        f"FILE'{f' ({notes})' if notes else ''}. 'polytile validate ANSWER.json --puzzle FILE' " \
        "checks an answer of your own; --solution --json shows the stored one's form."  # fmt: skip


@puzzles.command("show", help=_show_help())
@click.argument("puzzle_id", type=int, metavar="ID")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), required=True, help=DB_HELP)
@click.option("--solution", "with_solution", is_flag=True, help="Show the solution too.")
@click.option("--json", "as_json", is_flag=True, help="Print the puzzle (and solution) documents.")
@click.option(
    "--file",
    "as_file",
    is_flag=True,
    help=_file_help(),
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
    """Show one stored puzzle (the help is :func:`_show_help`'s)."""
    with _open(db) as store:
        sp = store.get(puzzle_id)
    if not sp.known:
        raise PolytileError(f"puzzle {sp.id}: {sp.unknown()}")
    shown = find_kind(sp.kind)
    if as_file:
        click.echo(json.dumps(shown.puzzle_file(sp.puzzle_json), indent=2))
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
            if shown.answer_lead:
                doc["solution_lead"] = shown.answer_lead
        click.echo(json.dumps(doc, indent=2))
        return
    click.echo(_caption(sp))
    try:
        for text in shown.show(sp, with_solution, color):
            click.echo(text, nl=False)
    except UnsoundAnswerError as exc:
        raise click.ClickException(f"puzzle {sp.id}'s stored answer is unsound: {exc}") from None


@puzzles.command("export")
@_filters
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="FILE.jsonl (one JSON object per puzzle) or FILE.svg (a printable sheet; "
    "the solutions go to FILE-solutions.svg); '-' writes the JSON lines to standard output.",
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

    to_stdout = str(output) == "-"
    suffix = ".jsonl" if to_stdout else output.suffix.lower()
    other = output.with_name(output.stem + "-solutions.svg")
    if not to_stdout and any(p.exists() and p.resolve() == db.resolve() for p in (output, other)):
        raise click.BadParameter(f"{output} would overwrite the store {db}", param_hint="-o")
    if suffix not in (".jsonl", ".svg"):
        raise click.BadParameter(f"{output}: the suffix must be .jsonl or .svg")
    with _open(db) as store:
        chosen = list(store.puzzles(kind, min_difficulty, max_difficulty))
    for sp in chosen:
        if not sp.known:
            click.echo(f"note: left out puzzle {sp.id}: {sp.unknown()}", err=True)
    chosen = [sp for sp in chosen if sp.known]
    drawn = [(sp, find_kind(sp.kind)) for sp in chosen]
    if suffix == ".svg" and not all(isinstance(k, DrawnKind) for _, k in drawn):
        undrawn = [k.name for k in _kinds() if not isinstance(k, DrawnKind)]
        why = (f"SVG sheets hold tiling puzzles; export {listed(undrawn)} ones as .jsonl (or use "
               "--kind)")  # fmt: skip
        raise click.BadParameter(why, param_hint="-o")
    sheets = [(sp, k) for sp, k in drawn if isinstance(k, DrawnKind)]
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
        text = "\n".join(lines) + "\n" if lines else ""
        if to_stdout:
            click.echo(text, nl=False)
            click.echo(f"wrote {len(chosen)} puzzle(s) to standard output", err=True)
            return
        write_atomic(output, text.encode())
        click.echo(f"wrote {len(chosen)} puzzle(s) to {printable(str(output))}", err=True)
        return
    heading = f"{len(chosen)} puzzles from {db.name}"
    page = contact_sheet(
        [(k.picture(sp.puzzle), _caption(sp)) for sp, k in sheets], columns, heading=heading
    )
    answers = contact_sheet(
        [(k.answer_picture(sp.solution()), f"#{sp.id} solution") for sp, k in sheets],
        columns,
        heading=f"Solutions: {heading}",
    )
    write_atomic(output, page.encode())
    write_atomic(other, answers.encode())
    click.echo(
        f"wrote {len(chosen)} puzzle(s) to {printable(str(output))} and their solutions to "
        f"{printable(str(other))}",
        err=True,
    )


COMMANDS = [puzzles]

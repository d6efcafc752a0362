"""``polytile puzzles``: browse, show and export the catalogue and generated puzzle sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from polytile.cli.generate import DB_HELP, say
from polytile.cli.options import Finite

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


def _henning(sp: Any) -> bool:
    from polytile.puzzles.henning.generate import HenningPuzzle

    return isinstance(sp.puzzle, HenningPuzzle)


def _solo(sp: Any) -> bool:
    from polytile.puzzles.gridblock.generate import GridblockSoloPuzzle

    return isinstance(sp.puzzle, GridblockSoloPuzzle)


def _walk(sp: Any) -> bool:
    from polytile.puzzles.walkable.path_generate import WalkablePathPuzzle

    return isinstance(sp.puzzle, WalkablePathPuzzle)


def _row(sp: Any) -> dict[str, Any]:
    from polytile.puzzles.gridblock import generate as gridblock
    from polytile.puzzles.henning.generate import puzzle_summary
    from polytile.puzzles.walkable import path_generate as walkable

    p = sp.puzzle
    if _walk(sp):  # cells: unclaimed cells of the 3 boards; pieces: the pieces to drop
        shape = walkable.puzzle_summary(p)
    elif _henning(sp):  # cells: empty blocks; pieces: tiles in both hands
        shape = puzzle_summary(p)
    elif _solo(sp):  # cells: the 36 tiles; pieces: the cards to play
        shape = gridblock.puzzle_summary(p)
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
    both hands; the JSON rows add the question and the player to move. For Gridblock
    solitaires (gridblock-solo), cells are the 36 tiles and pieces the cards to play; the
    JSON rows add the card order, the rounds and the target score. For Walkable Cities
    path puzzles (walkable-path), the board is 3x10x10, cells are the unclaimed cells and
    pieces the pieces to drop; the JSON rows add the sequence and the target.
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
    if _walk(sp):
        return (f"#{sp.id}  difficulty {sp.difficulty:.1f}  Walkable Cities path: drop "
                f"{','.join(p.path.sequence)}, target {p.target}")  # fmt: skip
    if _henning(sp):
        return f"#{sp.id}  difficulty {sp.difficulty:.1f}  {p.question}, {p.position.empty} " \
            "empty blocks"  # fmt: skip
    if _solo(sp):
        what = f"{len(p.solo.hands)} round(s), {p.solo.order} order, target {p.target}"
        return f"#{sp.id}  difficulty {sp.difficulty:.1f}  Gridblock solitaire, {what}"
    if hasattr(p, "touch"):  # a teaser: the same hand per colour
        hand = " ".join(x.name for x in p.pieces[0])
        what = f"{p.n_colors} colours x {hand}, touch {p.touch}"
    else:
        what = " ".join(p.piece_names())
    return f"#{sp.id}  difficulty {sp.difficulty:.1f}  place: {what}"


@puzzles.command("show")
@click.argument("puzzle_id", type=int, metavar="ID")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), required=True, help=DB_HELP)
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
    its value, the runner-up's and a line of best play. Gridblock solitaire: the layout,
    the set-up draw, the hands and the target; --solution adds the plan replayed by the
    rules engine, the runner-up's score and the margin. Walkable Cities path: the three
    boards, the pieces, the target and the 'polytile solve walkable-path' command that
    rebuilds the position; --solution adds the drops replayed by the rules, the regions
    and what a greedy player reaches; --file prints the puzzle document).

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
    if _walk(sp):
        from polytile.puzzles.walkable import path_generate as walkable

        click.echo(walkable.question_text(sp.puzzle))
        command = walkable.solve_command(sp.puzzle)
        if command is not None:
            click.echo(f"(solve it: {command})")
        if with_solution:
            answer = sp.solution()
            problems = walkable.check_answer(sp.puzzle, answer)  # the rules replay the drops
            if problems:
                raise click.ClickException(f"puzzle {sp.id}'s stored answer is unsound: "
                                           f"{problems[0]}")  # fmt: skip
            click.echo(walkable.answer_text(sp.puzzle, answer))
        return
    if _solo(sp):
        from polytile.puzzles.gridblock import generate as gridblock

        click.echo(gridblock.question_text(sp.puzzle))
        if with_solution:
            answer = sp.solution()
            problems = gridblock.check_answer(sp.puzzle, answer)  # the rules engine replays it
            if problems:
                raise click.ClickException(f"puzzle {sp.id}'s stored answer is unsound: "
                                           f"{problems[0]}")  # fmt: skip
            click.echo(gridblock.answer_text(sp.puzzle, answer))
        return
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
    if suffix == ".svg" and any(_henning(sp) or _solo(sp) or _walk(sp) for sp in chosen):
        why = ("SVG sheets hold tiling puzzles; export henning, gridblock-solo and "
               "walkable-path ones as .jsonl (or use --kind)")  # fmt: skip
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
        text = "\n".join(lines) + "\n" if lines else ""
        if to_stdout:
            click.echo(text, nl=False)
            click.echo(f"wrote {len(chosen)} puzzle(s) to standard output", err=True)
            return
        write_atomic(output, text.encode())
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


COMMANDS = [puzzles]

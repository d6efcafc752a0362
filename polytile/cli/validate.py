"""``polytile validate``: check a solution or position file against the rules."""

from __future__ import annotations

import json

import click

from polytile.cli.render import read_document
from polytile.cli.solve import variant_options
from polytile.errors import UnknownNameError
from polytile.formats import Position, Solution
from polytile.text import printable

__all__ = ["COMMANDS", "validate_command"]


@click.command(
    "validate",
    help="""Check a solution or position file.

A solution is checked by the rules engine, independently of every solver: each placement
lies inside the board, avoids blocked cells and really is the named piece in some
orientation, and no two placements overlap. Against a puzzle it must also cover every open
cell with exactly the puzzle's pieces. The puzzle is --puzzle if given, otherwise the file's
own "puzzle" field when that names a catalogue puzzle (see 'polytile puzzles'). To skip
the puzzle check, give --placements-only.

A position is checked by its game's rules engine (hands, passes, the board against the
hands); a plain text board is valid once it loads (board characters and sizes).

A City Blocks (Henning), Gridblock or Walkable Cities file (a record, position or view)
is checked as it is read: every field against the rules, and every move of a record
replayed by the rules engine; a file that breaks them exits 2 with the field or move named.
A walkable-path answer saved by 'polytile solve walkable-path -o FILE.json' has its drops
replayed in order: legal, and making the stated regions and objective (else exit 1).

A puzzle store made by 'polytile generate' (an SQLite file) is re-verified puzzle by
puzzle: the stored solution passes the rules check, a full search finds exactly one
solution up to the puzzle's symmetries, and the stored key is the canonical one.

\b
Exit codes:
  0  valid
  1  invalid: every reason is printed, one per line
  2  unreadable file, unknown puzzle or bad usage

\b
Examples:
  polytile validate examples/pentomino-6x10.json
  polytile validate my-tiling.json --puzzle pentomino-6x10 --json
  polytile validate answer.json --puzzle four-square --touch connected
  polytile validate puzzles.db
  polytile validate gridblock.json
""",
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--puzzle",
    "puzzle_name",
    metavar="NAME",
    help="Check against this catalogue puzzle, teaser (four-square) or puzzle file instead "
    "of the file's own.",
)
@click.option(
    "--placements-only",
    is_flag=True,
    help="Check the placements only, against no puzzle.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"valid": ..., "reasons": [...]} instead of text.',
)
@variant_options
@click.pass_context
def validate_command(
    ctx: click.Context,
    file: str,
    puzzle_name: str | None,
    placements_only: bool,
    as_json: bool,
    touch: str | None,
    board: str | None,
    colors: int | None,
    pieces: str | None,
) -> None:
    """Validate ``file``; exit 1 when it breaks the rules."""
    from polytile.cli.console import CONSOLE, facing
    from polytile.cli.walkable_path import is_path_answer, validate_path_answer
    from polytile.puzzles.faces import POSITION_GAMES, face, face_of_file

    if is_path_answer(file):  # a saved 'solve walkable-path' answer: the drops replayed
        validate_path_answer(file, as_json)
        return
    found = face_of_file(file)
    if found is not None:  # a game with a face: reading checks every rule and every move
        with facing():
            found.validate(CONSOLE, file, as_json)
        return
    from polytile.puzzles.tiling.catalogue import resolve
    from polytile.puzzles.tiling.puzzles import check_solution

    if puzzle_name is not None and placements_only:
        raise click.UsageError("--puzzle and --placements-only exclude each other")
    if _is_sqlite(file):
        _validate_store(ctx, file, as_json)
        return
    obj = read_document(file)
    puzzle = None
    if isinstance(obj, Position):
        if obj.game in POSITION_GAMES:  # a game's position its first bytes did not tell
            with facing():
                face(obj.game).validate(CONSOLE, file, as_json)
            return
        kind, reasons = "position", []  # a tiling board: valid once it loads
    else:
        kind = "solution"
        name = puzzle_name if puzzle_name is not None else obj.puzzle
        if name == "eighty-four" and not placements_only:
            reasons = _check_eighty_four(obj)
            _report(ctx, file, kind, "eighty-four", reasons, as_json)
            return
        if puzzle_name is None and not placements_only and (touch, board, colors, pieces) == (
            None, None, None, None
        ):  # fmt: skip
            # a teaser variant, --fit or one-color answer: the file records its puzzle
            from polytile.puzzles.tiling.recorded import check_recorded

            recorded = check_recorded(obj)
            if recorded is not None:
                _report(ctx, file, kind, recorded[0], recorded[1], as_json)
                return
        # A teaser solution records its touch rule; --touch overrides it.
        recorded = obj.extra.get("touch") if isinstance(obj.extra.get("touch"), str) else None
        if puzzle_name is not None:
            # unknown -> UnknownNameError -> exit 2
            puzzle = resolve(
                puzzle_name, touch or _teaser_touch(puzzle_name, recorded), board, colors
            )
        elif not placements_only and obj.puzzle:
            try:
                puzzle = resolve(
                    obj.puzzle, touch or _teaser_touch(obj.puzzle, recorded), board, colors
                )
            except UnknownNameError:
                click.echo(
                    f"note: puzzle {obj.puzzle!r} is not in the catalogue; "
                    "checking the placements only",
                    err=True,
                )
        reasons = puzzle.check(obj) if puzzle is not None else check_solution(obj)
    _report(ctx, file, kind, puzzle.name if puzzle is not None else None, reasons, as_json)


def _is_sqlite(file: str) -> bool:
    if file == "-":
        return False
    try:
        with open(file, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False  # read_document reports it


def _validate_store(ctx: click.Context, file: str, as_json: bool) -> None:
    """Re-verify every puzzle of a store; exit 1 if any fails."""
    from polytile.store.db import PuzzleStore
    from polytile.store.sets import verify_store

    with PuzzleStore(file, create=False) as store:
        results = list(verify_store(store))
    bad = {pid: reasons for pid, reasons in results if reasons}
    if as_json:
        doc = {
            "valid": not bad,
            "file": file,
            "kind": "puzzle store",
            "puzzles": len(results),
            "problems": {str(k): v for k, v in bad.items()},
        }
        click.echo(json.dumps(doc, indent=2))
    elif not bad:
        click.echo(f"{file}: all {len(results)} puzzles verified: rules, unique answer "
                   "(one solution, or one best move for City Blocks), key")  # fmt: skip
    else:
        for pid, reasons in bad.items():
            for reason in reasons:
                click.echo(f"puzzle {pid}: {printable(reason)}")
        click.echo(f"{file}: {len(bad)} of {len(results)} puzzles have problems", err=True)
    if bad:
        ctx.exit(1)


def _report(
    ctx: click.Context,
    file: str,
    kind: str,
    puzzle: str | None,
    reasons: list[str],
    as_json: bool,
) -> None:
    """Print the verdict; exit 1 when invalid."""
    from polytile.cli.console import CONSOLE
    from polytile.puzzles.face import report_problems

    report_problems(CONSOLE, file, kind, reasons, as_json, puzzle)


def _check_eighty_four(solution: Solution) -> list[str]:
    """The eighty-four rules, replaying the play order the file carries in "order"."""
    from polytile.puzzles.blokus.teasers import check_eighty_four

    order = solution.extra.get("order")
    if not isinstance(order, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in order
    ):
        return ['an eighty-four answer carries "order": a list of placement indices']
    return check_eighty_four(solution, order)


COMMANDS = [validate_command]


def _teaser_touch(name: str, recorded: str | None) -> str | None:
    from polytile.puzzles.tiling.catalogue import TEASERS

    return recorded if name in TEASERS else None

"""``polytile validate``: check a solution or position file against the rules."""

from __future__ import annotations

import json
from typing import Any

import click

from polytile.cli.render import read_document
from polytile.cli.solve import variant_options
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
hands); a plain text board is valid once it loads (board characters and sizes). A Blokus
game record (.blksgf) has every move replayed by the rules engine: one that breaks the
rules makes it invalid (exit 1, the move named in Pentobi's points).

A City Blocks (Henning), Gridblock or Walkable Cities file (a record, position or view)
is checked as it is read: every field against the rules, and every move of a record
replayed by the rules engine; a file that breaks them exits 2 with the field or move named.
A walkable-path answer saved by 'polytile solve walkable-path -o FILE.json' has its drops
replayed in order: legal, and making the stated regions and objective (else exit 1).

A puzzle exported from a store ('polytile puzzles show N --db STORE --file': a Gridblock
solitaire or a Walkable Cities path puzzle) is read in full. An answer to one, with --puzzle
naming that puzzle's file, is replayed by the rules: valid when every move is legal, every
figure it states is what the rules count, and it reaches the puzzle's target, which only
the one best answer does. Only its moves are needed, so a person can check their own:
'puzzles show N --solution --json' shows the form.

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
  polytile validate my-plan.json --puzzle solo-3.json
""",
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--puzzle",
    "puzzle_name",
    metavar="NAME",
    help="Check against this catalogue puzzle, teaser (four-square) or puzzle file instead "
    "of the file's own (an answer to a puzzle exported from a store: that puzzle's file).",
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
    **variants: Any,
) -> None:
    """Validate ``file``; exit 1 when it breaks the rules."""
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.registry import POSITION_GAMES, answer_of_file, face, face_of_file

    answers = answer_of_file(file)
    if answers is not None:  # an answer file of a puzzle's own format (walkable-path's)
        with facing():
            answers.validate_answer(CONSOLE, file, as_json)
        return
    found = face_of_file(file)
    if found is not None:  # a game with a face: reading checks every rule and every move
        with facing():
            found.validate(CONSOLE, file, as_json)
        return
    from polytile.store.files import puzzle_file, validate_puzzle_file

    exported = puzzle_file(file)
    if exported is not None:  # a puzzle exported from a store, or an answer to one
        with facing():
            validate_puzzle_file(CONSOLE, file, exported, puzzle_name, as_json)
        return
    if puzzle_name is not None and placements_only:
        raise click.UsageError("--puzzle and --placements-only exclude each other")
    if _is_sqlite(file):
        _validate_store(ctx, file, as_json)
        return
    obj = read_document(file)
    if isinstance(obj, Position):
        if obj.game in POSITION_GAMES:  # a game's position its first bytes did not tell
            with facing():
                face(obj.game).validate(CONSOLE, file, as_json)
            return
        _report(ctx, file, "position", None, [], as_json)  # a tiling board: valid once it loads
        return
    given = {name: value for name, value in variants.items() if value is not None}
    label, reasons = _check_solution(obj, puzzle_name, placements_only, given)
    _report(ctx, file, "solution", label, reasons, as_json)


def _check_solution(solution: Solution, puzzle_name: str | None, placements_only: bool,
                    given: dict[str, Any]) -> tuple[str | None, list[str]]:  # fmt: skip
    """The puzzle a solution was checked against and every rule it breaks: a declared
    puzzle's own check when the solution is its answer (eighty-four, one-color), else the
    catalogue's (its puzzle, a recorded teaser, or the placements alone)."""
    from polytile.cli.console import CONSOLE
    from polytile.faces.puzzle import AnswerCheck
    from polytile.faces.registry import catalogue, puzzles

    if not placements_only:
        against = puzzle_name if puzzle_name is not None else solution.puzzle
        recorded = puzzle_name is None and not given
        for declared in puzzles().values():
            if isinstance(declared, AnswerCheck):
                verdict = declared.check_answer(solution, against, recorded)
                if verdict is not None:
                    return verdict
    return catalogue().check(CONSOLE, solution, puzzle_name, placements_only, given)


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
    from polytile.faces.face import report_problems

    report_problems(CONSOLE, file, kind, reasons, as_json, puzzle)


COMMANDS = [validate_command]

"""The ``polytile`` command line: a click group with one module per command family.

Only this package turns library errors into messages and exit codes:
0 success, 1 "no" (no solution, invalid position), 2 bad input or usage, 3 internal error.
No traceback unless ``--debug``.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from typing import Any

import click

from polytile import __version__
from polytile.errors import PolytileError, SolverError
from polytile.text import printable

__all__ = ["InputError", "cli", "main"]


class InputError(click.ClickException):
    """Bad input (unreadable file, impossible board, unknown name): exit code 2."""

    exit_code = 2


class InternalError(click.ClickException):
    """A solver answer failed its independent check, or another bug: exit code 3."""

    exit_code = 3


class _Root(click.Group):
    """Translates polytile errors into exit codes, unless ``--debug`` asks for tracebacks."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            # messages often quote what a file held: no control character reaches the
            # terminal raw (a name holding ESC[2J would clear it)
            setattr(exc, "message", printable(exc.message, newlines=True))  # noqa: B010 (typed Final)
            raise
        except (click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            # Commands that keep a best-so-far catch Ctrl-C themselves; anywhere else it ends
            # the command at once, with the conventional status.
            if _debug(ctx):
                raise
            click.echo("interrupted", err=True)
            raise SystemExit(130) from None
        except BrokenPipeError:
            # The reader went away (``polytile ... | head``): stop quietly, as Unix tools do.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise SystemExit(141) from None
        except SolverError as exc:
            if _debug(ctx):
                raise
            raise InternalError(printable(f"internal error, please report it: {exc}",
                                          newlines=True)) from exc  # fmt: skip
        except (PolytileError, OSError) as exc:
            if _debug(ctx):
                raise
            raise InputError(printable(_describe(exc), newlines=True)) from exc
        except sqlite3.Error as exc:  # a puzzle store that is damaged or not readable
            if _debug(ctx):
                raise
            raise InputError(printable(f"puzzle store: {exc}", newlines=True)) from exc
        except Exception as exc:  # a bug: say so briefly, the traceback is one flag away
            if _debug(ctx):
                raise
            raise InternalError(printable(
                f"internal error ({type(exc).__name__}: {exc}); rerun as 'polytile --debug "
                "...' for the traceback and please report it", newlines=True
            )) from exc  # fmt: skip


def _debug(ctx: click.Context) -> bool:
    return bool(ctx.params.get("debug")) or bool((ctx.obj or {}).get("debug"))


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc)


@click.group(cls=_Root, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="polytile")
@click.option("--debug", is_flag=True, help="Show full tracebacks instead of short messages.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """polytile: exact solver and constraint toolkit for grid board games.

    Polyomino tilings, the Blokus brain teasers and City Blocks layouts become exact-cover
    or CP-SAT models, game positions exact game-tree searches; every solution printed is
    first checked by the rules engine.

    \b
    Start here:
      polytile puzzles                 the catalogue of named puzzles
      polytile count pentomino-6x10    count every solution, raw and up to symmetry
      polytile solve pentomino-6x10    one verified solution, as a picture
      polytile pieces blokus           the piece sets with pictures
      polytile generate packing -n 20 --db set.db   puzzles with one solution each
      polytile solve cityblocks-max    the best City Blocks layout, proven
      polytile solve-endgame game.blksgf --move 40   a Blokus endgame played perfectly
      polytile new henning --seed 7 -o game.json    a City Blocks (Henning) game to play

    Results go to stdout (text, or JSON with --json), progress and messages to stderr.
    Exit codes: 0 success, 1 no solution / invalid, 2 bad input or usage, 3 internal error.
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug
    from polytile.cli.clock import start_command

    start_command(_AS_PROGRAM)  # time limits count from here, or from the process's start


#: Set by :func:`main`: the command is the whole process, so its time limit counts from the
#: process's start.
_AS_PROGRAM = False


def _register() -> None:
    # One module per command family; each exposes COMMANDS.
    from polytile.cli import (
        bounds,
        endgame,
        games,
        generate,
        pieces,
        puzzle_sets,
        render,
        score,
        solve,
        validate,
    )

    for module in (
        solve,
        generate,
        puzzle_sets,
        pieces,
        games,
        render,
        validate,
        score,
        bounds,
        endgame,
    ):
        for command in module.COMMANDS:
            cli.add_command(command)


def main() -> None:
    """Entry point of the ``polytile`` console script."""
    global _AS_PROGRAM
    _AS_PROGRAM = True
    _register()
    cli(prog_name="polytile")


if __name__ == "__main__":  # pragma: no cover
    main()

"""The ``polytile`` command line: a click group with one module per command family.

Only this package turns library errors into messages and exit codes:
0 success, 1 "no" (no solution, invalid position), 2 bad input or usage, 3 internal error.
No traceback unless ``--debug``.

Commands are loaded on demand (:data:`COMMANDS` maps each name to where it lives), so a
command imports only what it uses: ``polytile --help`` lists them all without importing any.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
import sys
from typing import Any, NoReturn

import click

from polytile import __version__
from polytile.errors import PolytileError, SolverError
from polytile.text import printable

__all__ = ["COMMANDS", "InputError", "cli", "main"]

#: Every command: its name, where it lives (``module:attribute``, imported on first use) and
#: the first paragraph of its help, which ``polytile --help`` shortens as click would, so that
#: listing the commands imports none of them (tests check each summary against its command).
#: A new command is one line here.
COMMANDS: dict[str, tuple[str, str]] = {
    "count": ("polytile.cli.solve:count",
              "Count every solution of PUZZLE, raw and up to symmetry."),
    "solve": ("polytile.cli.solve:solve", "Find one solution of PUZZLE and show it."),
    "unique": ("polytile.cli.unique:unique",
               "Make PUZZLE unique: the fewest pieces to give so that one solution is left."),
    "convert": ("polytile.cli.convert:convert",
                "Write PUZZLE in another format: Knuth's exact-cover text or a puzzle file."),
    "generate": ("polytile.cli.generate:generate",
                 "Generate a set of puzzles, each with exactly one solution, into a store."),
    "puzzles": ("polytile.cli.puzzle_sets:puzzles",
                "The catalogue of named puzzles, or a generated puzzle set."),
    "pieces": ("polytile.cli.pieces:pieces_command",
               "List the pieces of a named set, or every polyform of a size on a grid: names, "
               "sizes, orientations and pictures."),
    "new": ("polytile.cli.games:new", "Set up a new game and write it as a file."),
    "play": ("polytile.cli.games:play",
             "Play moves in a Blokus, City Blocks (Henning), City Blocks (Ritchie), Gridblock or "
             "Walkable Cities game, in place."),
    "selfplay": ("polytile.cli.games:selfplay",
                 "Let engine players play Blokus, City Blocks (Henning), Gridblock or Walkable "
                 "Cities games and write their records."),
    "render": ("polytile.cli.render:render_command", "Draw a solution, position or puzzle file."),
    "validate": ("polytile.cli.validate:validate_command", "Check a solution or position file."),
    "score": ("polytile.cli.score:score",
              "Score a City Blocks (Ritchie's or Henning's), Blokus, Gridblock or Walkable "
              "Cities game."),
    "bounds": ("polytile.cli.bounds:bounds_command",
               "Bound how a colour can still end a City Blocks or Blokus game."),
    "solve-endgame": ("polytile.cli.endgame:solve_endgame_command",
                      "Play the rest of a game perfectly: its exact value and best line."),
    "moves": ("polytile.cli.moves:moves_command",
              "List the legal moves of the player to move, and what it sees."),
    "serve": ("polytile.cli.serve:serve_command",
              "Show game records and positions on a web board in the browser."),
    "analyse": ("polytile.cli.analyse:analyse_command",
                "Analyse a game record: what each move lost, exactly where the solver "
                "settles it."),
}  # fmt: skip


class InputError(click.ClickException):
    """Bad input (unreadable file, impossible board, unknown name): exit code 2."""

    exit_code = 2


class InternalError(click.ClickException):
    """A solver answer failed its independent check, or another bug: exit code 3."""

    exit_code = 3


class _Root(click.Group):
    """Translates polytile errors into exit codes, unless ``--debug`` asks for tracebacks,
    and loads the commands of :data:`COMMANDS` when they are first asked for (click's
    documented lazy-loading group)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.add_command(_load(cmd_name), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # A command not yet loaded is listed from its summary in COMMANDS: a stand-in
        # command with that help gives the short help click would make from the real one.
        rows = []
        for name in self.list_commands(ctx):
            command = self.commands.get(name) or click.Command(name, help=COMMANDS[name][1])
            if not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, c.get_short_help_str(limit)) for name, c in rows])

    def invoke(self, ctx: click.Context) -> Any:
        # the command line after "polytile" (click empties these before the command runs)
        given = [*getattr(ctx, "_protected_args", ()), *ctx.args]
        from polytile.cli.console import CONSOLE

        CONSOLE.report_to_err = _file_on_stdout(given)
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            # messages often quote what a file held: no control character reaches the
            # terminal raw (a name holding ESC[2J would clear it)
            setattr(exc, "message", _brief(printable(exc.message, newlines=True)))  # noqa: B010
            raise
        except (click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            # Commands that keep a best-so-far catch Ctrl-C themselves; anywhere else it ends
            # the command at once, with the conventional status.
            if _debug(ctx):
                raise
            click.echo("interrupted", err=True)
            if "--json" in given:  # machines get a result too
                click.echo('{"status": "interrupted", "solution": null, "message": '
                           '"interrupted before any result"}')  # fmt: skip
            raise SystemExit(130) from None
        except BrokenPipeError:
            # The reader went away (``polytile ... | head``): stop quietly, as Unix tools do.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise SystemExit(141) from None
        except SolverError as exc:
            if _debug(ctx):
                raise
            raise InternalError(_brief(printable(f"internal error, please report it: {exc}",
                                                 newlines=True))) from exc  # fmt: skip
        except (PolytileError, OSError) as exc:
            if _debug(ctx):
                raise
            raise InputError(_brief(printable(_describe(exc), newlines=True))) from exc
        except sqlite3.Error as exc:  # a puzzle store that is damaged or not readable
            if _debug(ctx):
                raise
            raise InputError(_brief(printable(f"puzzle store: {exc}", newlines=True))) from exc
        except Exception as exc:  # a bug: say so briefly, the traceback is one flag away
            if _debug(ctx):
                raise
            raise InternalError(printable(
                f"internal error ({type(exc).__name__}: {exc}); rerun as 'polytile --debug "
                "...' for the traceback and please report it", newlines=True
            )) from exc  # fmt: skip
        finally:
            CONSOLE.report_to_err = False


def _file_on_stdout(given: list[str]) -> bool:
    """True when the command line writes its file to standard output (``-o -``,
    ``--output /dev/stdout``): the command's report then goes to standard error."""
    from polytile._files import STREAMS

    stdout = {s for s in STREAMS if s != "/dev/stderr"}
    for i, arg in enumerate(given):
        if arg in ("-o", "--output") and i + 1 < len(given) and given[i + 1] in stdout:
            return True
        if arg.startswith("--output=") and arg.removeprefix("--output=") in stdout:
            return True
        if arg.startswith("-o") and not arg.startswith("--") and arg[2:] in stdout:
            return True
    return False


#: The longest line an error message keeps whole: a message quoting a 10,000-piece list or a
#: 200,000-character field would otherwise fill the terminal (issue 36, item 6).
LONGEST_LINE = 600


def _brief(message: str) -> str:
    """``message`` with every line longer than :data:`LONGEST_LINE` cut in its middle."""
    lines = []
    for line in message.split("\n"):
        if len(line) > LONGEST_LINE:
            cut = len(line) - 400
            line = f"{line[:300]}... ({cut:,} characters left out) ...{line[-100:]}"
        lines.append(line)
    return "\n".join(lines)


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


def _load(name: str) -> click.Command:
    module, _, attribute = COMMANDS[name][0].partition(":")
    command = getattr(importlib.import_module(module), attribute)
    if not isinstance(command, click.Command):  # pragma: no cover - a wrong COMMANDS line
        raise TypeError(f"{COMMANDS[name][0]} is not a click command")
    return command


def main() -> None:
    """Entry point of the ``polytile`` console script."""
    global _AS_PROGRAM
    _AS_PROGRAM = True
    try:
        cli(prog_name="polytile")
    except SystemExit as done:
        _exit(done.code)
    _exit(0)  # pragma: no cover - click always ends with SystemExit


def _exit(code: object) -> NoReturn:
    """End the process as a normal exit does, less the interpreter's teardown.

    Runs the ``atexit`` handlers (worker pools, temporary files, finalizers registered to
    run at exit), then leaves with :func:`os._exit`: clearing every module of numba,
    llvmlite and OR-tools one by one costs 0.2-0.6 s that a ``--time-limit`` counts and
    nobody needs. While a thread that is not a daemon still runs (a worker pool's manager
    left open, say), the ordinary exit is taken instead: only the interpreter's own shutdown
    tells such threads to stop before it waits for them.
    """
    import atexit
    import contextlib
    import threading

    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # SystemExit("message"): printed, status 1, as the interpreter does
        print(code, file=sys.stderr)
        status = 1
    parallel = sys.modules.get("polytile.solvers.parallel")
    if parallel is not None:  # worker pools left open: their manager threads end with them
        parallel.close_all()
    if any(t is not threading.current_thread() and not t.daemon for t in threading.enumerate()):
        sys.exit(status)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            stream.flush()
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    main()

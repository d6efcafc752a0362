"""``polytile count`` and ``polytile solve``: tiling puzzles and teasers."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any, NoReturn

import click

from polytile.cli.options import PICTURES, SECONDS, Workers, check_output
from polytile.cli.progress import progress_bar
from polytile.cli.walkable_path import walkable_path_options
from polytile.errors import SolverError, UnknownNameError
from polytile.text import printable

__all__ = ["COMMANDS"]

#: What ``solve`` knows beyond the catalogue and the teasers that ``count`` also takes.
SOLVE_ONLY = ("eighty-four", "one-color", "cityblocks-max", "gridblock-solo", "walkable-path")

PUZZLE_HELP = "a catalogue name (see 'polytile puzzles') or a puzzle file (.json)"


def _many(n: int, word: str) -> str:
    """``"1 solution"``, ``"2,339 solutions"``."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def variant_options(f: Any, more_pieces: str = "") -> Any:
    """The teaser variant options shared by count, solve and validate (``more_pieces``: what
    else ``--pieces`` means to the command)."""
    f = click.option(
        "--pieces",
        metavar="NAMES",
        default=None,
        help="Teasers: each colour's pieces, comma-separated Blokus names [default: "
        "I4,O4,T4,L4,Z4]." + more_pieces,
    )(f)
    f = click.option(
        "--colors",
        type=click.IntRange(1, 4),
        default=None,
        help="Teasers: number of colours, each with the same pieces [default: 4].",
    )(f)
    f = click.option(
        "--board",
        "board",
        metavar="RxC|FILE",
        default=None,
        help="Teasers: another board, as rows x columns (8x10) or a file of '.'/'#' rows.",
    )(f)
    f = click.option(
        "--touch",
        type=click.Choice(["local", "connected", "none"]),
        default=None,
        help="Teasers: corner rule. local: every piece corner-touches its colour [default];"
        " connected: each colour's pieces form one corner-connected group.",
    )(f)
    return f


def _executor(workers: int | None, scheduler: str | None) -> Any:
    from polytile.solvers.parallel import make_executor

    return make_executor(workers, scheduler)


@click.command()
@click.argument("puzzle")
@click.option(
    "--workers",
    "-w",
    type=Workers(min=1),
    default=None,
    help="Local worker processes [default: every core].",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Run on a Dask cluster instead, e.g. tcp://10.0.0.5:8786.",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="Stop after this long and report the count so far. The limit covers the whole "
    "command, counted from when the process started (start-up and printing included).",
)
@click.option(
    "--no-symmetry",
    is_flag=True,
    help="Plain search: no symmetry breaking, no count up to symmetry.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of text.")
@click.option(
    "--progress/--no-progress",
    default=True,
    show_default=True,
    help="Progress bar on stderr (only when it is a terminal).",
)
@variant_options
def count(
    puzzle: str,
    touch: str | None,
    board: str | None,
    colors: int | None,
    pieces: str | None,
    workers: int | None,
    scheduler: str | None,
    time_limit: float | None,
    no_symmetry: bool,
    as_json: bool,
    progress: bool,
) -> None:
    """Count every solution of PUZZLE, raw and up to symmetry.

    PUZZLE is a catalogue name (see 'polytile puzzles'), a teaser (four-square) or a
    puzzle file. Raw counts distinguish placements (mirror images and rotations of a
    solution count separately; identical copies of a piece do not). The count up to
    symmetry identifies solutions that a symmetry of the board maps onto each other
    (Burnside's lemma, exact on any board); for teasers, renaming the colours too.

    The search is split into independent subtrees run on worker processes (or a Dask
    cluster with --scheduler); the total does not depend on how it was split. Ctrl-C or
    --time-limit stops early and reports the solutions found so far, marked incomplete.

    \b
    Examples:
      polytile count pentomino-6x10
      polytile count pentomino-8x8-hole --workers 2 --json
      polytile count my-puzzle.json --time-limit 60
      polytile count four-square --touch connected
    """
    from polytile.cli.clock import budget
    from polytile.puzzles.tiling.catalogue import resolve
    from polytile.solvers.counting import count_tiling

    spec = resolve(puzzle, touch, board, colors, pieces)
    with _executor(workers, scheduler) as ex, progress_bar("counting", progress) as update:
        # what is left of the limit once started; stopping the workers takes a moment
        left = budget(time_limit, reserve=0.15 if ex.workers > 1 else 0.05)
        result = count_tiling(
            spec.problem, ex, symmetry=not no_symmetry, time_limit=left, progress=update
        )
    if (
        result.complete
        and spec.known_count is not None
        and (
            result.count != spec.known_count
            or (
                result.count_up_to_symmetry not in (None, spec.known_count_up_to_symmetry)
                and not no_symmetry
            )
        )
    ):
        raise SolverError(
            f"{spec.name}: counted {result.count} / {result.count_up_to_symmetry} but the "
            f"published count is {spec.known_count} / {spec.known_count_up_to_symmetry}"
        )
    up = None if no_symmetry else result.count_up_to_symmetry
    if as_json:
        doc = {
            "puzzle": spec.name,
            "count": result.count,
            "count_up_to_symmetry": up,
            "complete": result.complete,
            "nodes": result.nodes,
            "seconds": round(result.seconds, 4),
            "workers": result.workers,
            "subproblems": result.tasks,
            "symmetries": result.group_order,
            "symmetry_broken_by": result.symmetry_broken_by,
        }
        if result.stopped_by:
            doc["stopped_by"] = result.stopped_by
        click.echo(json.dumps(doc))
    else:
        if result.complete:
            line = f"{printable(spec.name)}: {_many(result.count, 'solution')}"
            if up is not None:
                renaming = spec.problem.color_factor
                parts = [f"the {result.group_order} symmetries of the board"] * (
                    result.group_order > 1
                ) + [f"the {renaming} colour renamings"] * (renaming > 1)
                if parts:
                    line += f" ({up:,} up to {' and '.join(parts)})"
                else:
                    line += " (the board has no symmetry)"
        elif result.nodes == 0 and result.stopped_by == "time limit":
            line = (
                f"{printable(spec.name)}: the time limit was reached during start-up, before "
                "the search began: nothing was counted (the count is incomplete)"
            )
        else:
            line = (
                f"{printable(spec.name)}: at least {result.count:,} solutions "
                f"(stopped by {result.stopped_by}; the count is incomplete)"
            )
        click.echo(line)
        workers_text = f"{result.workers} worker" + ("s" if result.workers > 1 else "")
        click.echo(
            f"  {result.nodes:,} nodes, {result.seconds:.2f} s, {workers_text}, "
            f"{result.tasks} subproblems",
            err=True,
        )
    if not result.complete:
        sys.exit(130 if result.stopped_by == "interrupt" else 0)


@click.command()
@click.argument("puzzle")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the solution JSON instead of a picture."
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also save the solution: .json (read back by validate, render and score), or a "
    "picture (.svg, .png, .txt) for people only: no command reads a picture back. "
    "walkable-path saves .json only (read back by validate); gridblock-solo saves no file "
    "(its plan is printed; --json prints it for machines).",
)
@click.option(
    "--color",
    "color_opt",
    is_flag=False,
    flag_value="always",
    default=None,
    metavar="[COLOUR]",
    help="Alone: force terminal colour on. cityblocks-max: the colour to lay out (blue, "
    "yellow, red, green) [default: blue].",
)
@click.option("--no-color", is_flag=True, help="Force terminal colour off.")
@click.option(
    "--objective",
    type=click.Choice(["score", "area", "free"]),
    default=None,
    help="cityblocks-max: what to maximise [default: score].",
)
@click.option(
    "--from",
    "start_from",
    metavar="POSITION",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="cityblocks-max: lay out the colour's remaining pieces on this position instead of "
    "the starting board.",
)
@click.option(
    "--workers",
    type=Workers(1, 64),
    default=None,
    help="cityblocks-max: CP-SAT workers [default: 2].",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=None,
    help="Try options in a seeded random order: another solution, reproducibly. Searches "
    "that use CP-SAT (eighty-four, one-color, cityblocks-max, --fit, --engine cpsat) run it "
    "on several threads against the clock, so there the seed varies the answer but the same "
    "seed may not give the same one.",
)
@click.option(
    "--fit",
    "fit_mode",
    is_flag=True,
    help="Teasers: place as many squares as the rules allow when not everything fits "
    "(CP-SAT; reports the best found and a proven bound).",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="Give up after this long (exit 1, 'unknown'; cityblocks-max, --fit, gridblock-solo, "
    "walkable-path: the best found, labelled not proven). The limit covers the whole command, "
    "counted from when the process started (start-up and printing included). Default: none; "
    "60 s for cityblocks-max, gridblock-solo, walkable-path and --engine cpsat.",
)
@click.option(
    "--engine",
    type=click.Choice(["xcc", "cpsat"]),
    default="xcc",
    show_default=True,
    help="four-square and its variants: xcc, the exact-cover kernel with colours and the "
    "corner rules inside the search (fast); cpsat, the direct CP-SAT model of "
    "polytile.models.cpsat (slow: tens of seconds or more; --time-limit defaults to 60 s). "
    "gridblock-solo and walkable-path: cpsat solves their CP-SAT model instead of the exact "
    "branch and bound.",
)
@click.option(
    "--order",
    type=click.Choice(["fixed", "free"]),
    default=None,
    help="gridblock-solo: each round's cards in the dealt order, or in any order (solved by "
    "an exact branch and bound; --engine cpsat solves the CP-SAT model instead; "
    "--time-limit defaults to 60 s) [default: fixed].",
)
@partial(variant_options, more_pieces=" walkable-path: a number N, how many seeded pieces "
         "red drops (1 to 20) [default: 4].")  # fmt: skip
@walkable_path_options
def solve(
    puzzle: str,
    touch: str | None,
    board: str | None,
    colors: int | None,
    pieces: str | None,
    as_json: bool,
    output: str | None,
    color_opt: str | None,
    no_color: bool,
    objective: str | None,
    start_from: str | None,
    workers: int | None,
    seed: int | None,
    time_limit: float | None,
    fit_mode: bool,
    engine: str,
    order: str | None,
    **walkable: Any,
) -> None:
    """Find one solution of PUZZLE and show it.

    PUZZLE is a catalogue name, a teaser (four-square, eighty-four, one-color: all 21 pieces
    of one colour on a square board, 14x14 by default), cityblocks-max (the best layout of
    one City Blocks colour's 20 pieces, by CP-SAT with a proof of optimality; --time-limit
    defaults to 60 s there) or a puzzle file. The
    solution is checked against the puzzle's rules by an independent validator before it is
    printed; eighty-four's JSON also carries "order", a legal play order, replayed first.
    Exit code 1 when the puzzle has no solution (or none was found in --time-limit).

    \b
    Examples:
      polytile solve pentomino-6x10
      polytile solve pentomino-8x8-hole --json > sol.json
      polytile solve four-square --touch connected -o four-square.svg
      polytile solve eighty-four --json > eighty-four.json
      polytile solve one-color --board 14x14
      polytile solve four-square --board 8x8 --pieces O4,T4,L4,Z4 --seed 7
      polytile solve cityblocks-max --color red --objective area
      polytile solve cityblocks-max --from game.json --color yellow --json
      polytile solve gridblock-solo --seed 3 --order free
      polytile solve walkable-path --seed 2 --pieces 4 --time-limit 60
      polytile solve walkable-path --seed 2 --pieces 2 --engine cpsat
    """
    color = False if no_color else (True if color_opt == "always" else None)
    player = color_opt.lower() if color_opt not in (None, "always") else None
    if puzzle == "walkable-path":
        check_output(output, (".json",), " (walkable-path saves its answer as .json)")
    elif puzzle != "gridblock-solo":  # which takes no -o, said below
        check_output(output, (".json", *PICTURES), " (.json: the solution, read back by "
                     "validate, render and score; the others: a picture)")  # fmt: skip
    if puzzle == "walkable-path":
        from polytile.cli.walkable_path import solve_walkable_path

        if any(x is not None for x in (touch, board, colors, objective, start_from,
                                       player, order)) or fit_mode:  # fmt: skip
            raise click.UsageError("walkable-path takes --seed, --pieces N or --sequence, "
                                   "--dead, --opponent-cells, --own-cells, --targets, "
                                   "--time-limit, --workers, --engine cpsat, --json, "
                                   "-o FILE.json")  # fmt: skip
        whole = 60.0 if time_limit is None else time_limit
        solve_walkable_path(seed, pieces, walkable, _left(whole) or whole, workers, as_json,
                            output, whole, _search_or_cpsat(puzzle, engine))  # fmt: skip
        return
    from polytile.cli.walkable_path import refuse_walkable_options

    refuse_walkable_options(walkable)
    if puzzle == "gridblock-solo":
        from polytile.cli.gridblock_solo import solve_gridblock_solo

        if output is not None:
            raise click.BadParameter("gridblock-solo saves no file: its plan is printed; use "
                                     "--json to print it for machines (e.g. --json > "
                                     "plan.json)", param_hint="-o")  # fmt: skip
        if any(x is not None for x in (touch, board, colors, pieces, objective, start_from,
                                       output, player)) or fit_mode:  # fmt: skip
            raise click.UsageError("gridblock-solo takes --seed, --order, --time-limit, "
                                   "--workers, --engine cpsat, --json")  # fmt: skip
        solve_gridblock_solo(seed, order or "fixed", _left(60.0 if time_limit is None
                             else time_limit), workers, as_json,
                             _search_or_cpsat(puzzle, engine))  # fmt: skip
        return
    if order is not None:
        raise click.UsageError("--order is for gridblock-solo")
    if puzzle == "cityblocks-max":
        from polytile.cli.cityblocks_max import solve_cityblocks_max

        if any(x is not None for x in (touch, board, colors, pieces)) or fit_mode:
            raise click.UsageError("cityblocks-max takes --color, --objective, --from")
        whole = 60.0 if time_limit is None else time_limit
        solve_cityblocks_max(player or "blue", objective or "score", start_from, _left(whole),
                             workers or 2, seed, as_json, output, color, whole)  # fmt: skip
        return
    # the tiling solvers (numba kernels) only now: the games above do not use them
    from polytile.puzzles.tiling.catalogue import resolve
    from polytile.solvers.symmetric import first_solution
    from polytile.solvers.tiling import compile_problem

    if player is not None:
        raise click.BadParameter(
            f"--color {player}: a colour to lay out is for cityblocks-max; use --color alone "
            "to force terminal colour",
            param_hint="--color",
        )
    if objective is not None or start_from is not None or workers is not None:
        raise click.UsageError("--objective, --from and --workers are for cityblocks-max")
    if puzzle == "eighty-four":
        if any(x is not None for x in (touch, board, colors, pieces)):
            raise click.UsageError("eighty-four takes no variant options")
        _solve_eighty_four(seed, time_limit, as_json, output, color)
        return
    if puzzle == "one-color":
        if any(x is not None for x in (touch, colors, pieces)):
            raise click.UsageError("one-color takes only --board NxN")
        _solve_one_color(board, seed, time_limit, as_json, output, color)
        return
    if fit_mode:
        _solve_fit(puzzle, touch, board, colors, pieces, seed, time_limit, as_json, output, color)
        return
    try:
        spec = resolve(puzzle, touch, board, colors, pieces)
    except UnknownNameError as exc:  # name solve's own puzzles too, not only the catalogue's
        if exc.kind != "puzzle":
            raise
        raise UnknownNameError("puzzle", exc.name, [*exc.known, *SOLVE_ONLY]) from None
    if engine == "cpsat":
        _solve_teaser_cpsat(spec, seed, time_limit, as_json, output, color)
        return
    start = time.perf_counter()
    left = _left(time_limit)
    deadline = None if left is None else start + left
    stop = None if deadline is None else (lambda: time.perf_counter() >= deadline)
    try:
        first = first_solution(spec.problem, seed=seed, should_stop=stop)
    except KeyboardInterrupt:
        _give_up(spec.name, "interrupted", "interrupted before a solution was found", as_json)
    seconds = time.perf_counter() - start
    if first is None:
        if deadline is not None and time.perf_counter() >= deadline:
            _give_up(spec.name, "unknown", f"no solution found in {time_limit:g} s (unknown)",
                     as_json)  # fmt: skip
        _give_up(spec.name, "infeasible", "no solution exists", as_json)
    pl = compile_problem(spec.problem).placements
    sol = spec.to_solution(pl, first, "feasible", seconds=round(seconds, 4))
    _emit_checked(spec, sol, as_json, output, color)


def _solve_eighty_four(
    seed: int | None,
    time_limit: float | None,
    as_json: bool,
    output: str | None,
    color: bool | None,
) -> None:
    """All 84 Blokus pieces on the board, with a legal play order, checked before printing."""
    from polytile.puzzles.blokus.eighty_four import solve_eighty_four
    from polytile.puzzles.blokus.teasers import check_eighty_four

    sol, order = _layout_or_exit(
        "eighty-four",
        lambda: solve_eighty_four(seed=seed, time_limit=_left(time_limit or 60.0)),
        as_json,
    )
    reasons = check_eighty_four(sol, order)
    if reasons:
        raise SolverError(f"eighty-four answer failed the rules check: {'; '.join(reasons)}")
    _emit(sol, as_json, output, color)
    if not as_json:
        click.echo(
            f"play order (blue, yellow, red, green, ...): {len(order)} moves, replayed "
            "and checked; --json has them",
            err=True,
        )


def _solve_fit(
    puzzle: str,
    touch: str | None,
    board: str | None,
    colors: int | None,
    pieces: str | None,
    seed: int | None,
    time_limit: float | None,
    as_json: bool,
    output: str | None,
    color: bool | None,
) -> None:
    """Most squares of a teaser's pieces on its board, with a proven bound."""
    from polytile.board import Board
    from polytile.geometry import piece, piece_set
    from polytile.puzzles.tiling.catalogue import teaser_board
    from polytile.puzzles.tiling.fit import check_fit, fit, fit_everything

    if puzzle != "four-square":
        raise click.UsageError("--fit applies to the four-square teaser and its variants")
    hand = (
        [piece(part) for part in pieces.split(",") if part.strip()]
        if pieces
        else list(piece_set("tetrominoes"))
    )
    hands = [hand] * (colors or 4)
    grid = teaser_board(board) if board else Board(8, 10)
    limit = _left(time_limit or 60.0) or 60.0
    started = time.perf_counter()
    # When everything might fit, the exact search (a quarter of the time) finds it soonest.
    sol = fit_everything(grid, hands, touch or "local", time_limit=limit / 4, seed=seed)
    interrupted = False
    if sol is None:
        left = max(limit - (time.perf_counter() - started), 0.1)
        sol, result = fit(grid, hands, touch or "local", time_limit=left, seed=seed)
        interrupted = result.stopped_by == "interrupt"
        if sol.extra.get("objective") is None or not sol.placements:
            # stopped before its first layout, or with only the empty one (nothing placed)
            if interrupted:
                _give_up(puzzle, "interrupted", "--fit: interrupted before a layout was found",
                         as_json)  # fmt: skip
            _give_up(puzzle, "unknown", f"--fit: no layout found in {time_limit or 60.0:g} s "
                     "(the time limit was reached; unknown)",
                     as_json)  # fmt: skip
    reasons = check_fit(sol, hands, touch or "local")
    if reasons:
        raise SolverError(f"fit answer failed the rules check: {'; '.join(reasons)}")
    _emit(sol, as_json, output, color)
    if not as_json:
        click.echo(
            f"{sol.extra['objective']} squares placed, at most {sol.extra['bound']} possible "
            f"({sol.status})",
            err=True,
        )
    if interrupted:  # the best layout so far is shown; say it was cut short
        click.echo("interrupted: the layout above is the best found so far", err=True)
        sys.exit(130)
    if sol.status == "unknown":
        sys.exit(1)


def _solve_teaser_cpsat(
    spec: Any,
    seed: int | None,
    time_limit: float | None,
    as_json: bool,
    output: str | None,
    color: bool | None,
) -> None:
    """A coloured teaser by the direct CP-SAT model."""
    from polytile.formats import Solution
    from polytile.puzzles.blokus.four_square import Teaser
    from polytile.puzzles.tiling.fit import tile

    if not isinstance(spec, Teaser):
        raise click.UsageError("--engine cpsat applies to four-square and its variants")
    limit = 60.0 if time_limit is None else time_limit
    start = time.perf_counter()
    placed, result = tile(spec.board, spec.pieces, spec.touch, time_limit=_left(limit),
                          seed=seed)  # fmt: skip
    if placed is None:
        if result.stopped_by == "interrupt":
            _give_up(spec.name, "interrupted", "interrupted before a solution was found",
                     as_json)  # fmt: skip
        if result.status == "infeasible":
            _give_up(spec.name, "infeasible", "no solution exists (proven by CP-SAT)", as_json)
        _give_up(spec.name, "unknown", f"no solution found in {limit:g} s (unknown)", as_json)
    seconds = round(time.perf_counter() - start, 4)
    sol = Solution(spec.name, spec.board.rows, spec.board.cols, placed, "feasible",
                   blocked=tuple(sorted(spec.board.blocked)),
                   extra={"touch": spec.touch, "engine": "cpsat", "seconds": seconds})  # fmt: skip
    _emit_checked(spec, sol, as_json, output, color)


def _solve_one_color(
    board: str | None,
    seed: int | None,
    time_limit: float | None,
    as_json: bool,
    output: str | None,
    color: bool | None,
) -> None:
    """One colour's 21 Blokus pieces on a square board from corner (0, 0), in a legal order."""
    from polytile.board import Board
    from polytile.errors import BoardError
    from polytile.puzzles.blokus.eighty_four import solve_one_color
    from polytile.puzzles.blokus.teasers import check_one_color

    size = 14
    if board is not None:
        b = Board.parse_size(board)
        if b.rows != b.cols or not 10 <= b.rows <= 20:
            raise BoardError(f"one-color needs a square board from 10x10 to 20x20, got {board}")
        size = b.rows
    sol, order = _layout_or_exit(
        f"one-color {size}x{size}",
        lambda: solve_one_color(size, seed=seed, time_limit=_left(time_limit or 60.0)),
        as_json,
    )
    reasons = check_one_color(sol, order, size)
    if reasons:
        raise SolverError(f"one-color answer failed the rules check: {'; '.join(reasons)}")
    _emit(sol, as_json, output, color)


def _search_or_cpsat(puzzle: str, engine: str) -> str:
    """``"cpsat"`` when ``--engine cpsat`` was given, else ``"search"`` (the puzzle's exact
    branch and bound); another ``--engine`` is refused."""
    given = click.get_current_context().get_parameter_source("engine")
    if given == click.core.ParameterSource.COMMANDLINE and engine != "cpsat":
        raise click.UsageError(f"{puzzle}: --engine cpsat uses the CP-SAT model; without it, "
                               "the exact branch and bound")  # fmt: skip
    return "cpsat" if engine == "cpsat" else "search"


def _left(limit: float | None) -> float | None:
    """What remains of a whole-command time limit for a search of ``solve``, keeping a
    moment back for checking and printing its answer."""
    from polytile.cli.clock import budget

    return budget(limit, reserve=0.25)


def _give_up(name: str, status: str, message: str, as_json: bool) -> NoReturn:
    """End ``solve`` without a solution: ``message`` on stderr and, with --json, a result
    ``{"puzzle", "status", "solution": null, "message"}`` on stdout. Exit 130 when
    ``status`` is "interrupted", else 1 ("infeasible": none exists; "unknown": none found in
    the time limit)."""
    click.echo(f"{printable(name)}: {message}", err=True)
    if as_json:
        doc = {"puzzle": name, "status": status, "solution": None, "message": message}
        click.echo(json.dumps(doc))
    sys.exit(130 if status == "interrupted" else 1)


def _layout_or_exit(name: str, search: Callable[[], Any], as_json: bool = False) -> Any:
    """``search()`` (a layout search of :mod:`polytile.puzzles.blokus.eighty_four`); running out
    of time exits 1 and Ctrl-C exits 130, each with a message naming ``name``."""
    from polytile.puzzles.blokus.eighty_four import LayoutNotFound

    try:
        return search()
    except LayoutNotFound as exc:
        _give_up(name, "unknown", str(exc), as_json)
    except KeyboardInterrupt:
        _give_up(name, "interrupted", "interrupted before a layout was found", as_json)


def _emit_checked(spec: Any, sol: Any, as_json: bool, output: str | None,
                  color: bool | None) -> None:  # fmt: skip
    """Print ``sol`` once the puzzle's own rules check passes it (else a SolverError)."""
    reasons = spec.check(sol)
    if reasons:
        raise SolverError(f"solution failed the rules check: {'; '.join(reasons)}")
    _emit(sol, as_json, output, color)


def _emit(sol: Any, as_json: bool, output: str | None, color: bool | None) -> None:
    from polytile import formats, render
    from polytile._files import output_suffix

    if output:
        if output_suffix(output, ".json") == ".json":
            formats.save(sol, output)
            click.echo(f"saved {output}", err=True)
        else:
            render.save_picture(sol, output)
            click.echo(f"saved {output} (a picture: no command reads it back; -o with .json "
                       "saves a file that validate and render read)", err=True)  # fmt: skip
    if as_json:
        click.echo(formats.dumps(sol))
    else:
        click.echo(render.to_text(sol, color=color))


COMMANDS = [count, solve]

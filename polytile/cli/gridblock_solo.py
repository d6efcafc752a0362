"""``polytile solve gridblock-solo``: one Gridblock colour's best plan, proven exactly."""

from __future__ import annotations

import json
import sys
import time

import click

from polytile.cli.clock import StopFlag

__all__ = ["solve_gridblock_solo"]


def solve_gridblock_solo(seed: int | None, order: str, time_limit: float | None,
                         workers: int | None, as_json: bool,
                         engine: str = "search") -> None:  # fmt: skip
    """Solve the seeded solitaire and print the plan checked by the rules engine.

    ``time_limit`` is what is left of the command's limit (60 s by default). Exit 0 when
    the plan is proven optimal; when the time runs out (exit 1) or Ctrl-C stops the search
    (exit 130) first, the best plan found so far, replayed by the rules engine, is printed
    as not proven, with the proven bound (or only the bound when there is no plan yet).
    """
    from polytile.puzzles.gridblock.solo import SoloPuzzle, solo_picture, solve_solo

    deadline = time.perf_counter() + (60.0 if time_limit is None else time_limit)
    puzzle = SoloPuzzle.from_seed(0 if seed is None else seed, order)
    name = f"gridblock-solo (seed {puzzle.seed}, {order} order)"
    try:
        with StopFlag() as stop:
            result = solve_solo(puzzle, workers=workers or 2, seed=0, engine=engine,
                                deadline=deadline, should_stop=stop)  # fmt: skip
    except KeyboardInterrupt:
        click.echo(f"{name}: interrupted", err=True)
        sys.exit(130)
    stopped = result.stopped_by or "stopped"
    why = {"time limit": "out of time", "interrupt": "interrupted"}.get(stopped, stopped)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    elif result.start is not None:
        click.echo(solo_picture(result), nl=False)
        verdict = "proven optimal" if result.proven_optimal else (
            f"NOT proven optimal ({why}): the best plan found so far, proven bound "
            f"{result.bound}")  # fmt: skip
        cubes, tiles = ("cube" if result.cubes == 1 else "cubes",
                        "tile" if result.pairs == 1 else "tiles")  # fmt: skip
        click.echo(f"{name}: score {result.score} = {result.cubes} {cubes} + {result.bonus} "
                   f"bonus ({result.pairs} {tiles} of 2, {result.triples} of 3 or 4); {verdict} "
                   f"[{result.seconds:.2f} s, {result.effort:,} "
                   f"{'nodes' if result.engine == 'search' else 'branches'}]")  # fmt: skip
    code = 130 if result.stopped_by == "interrupt" else 1
    if result.start is None:
        click.echo(f"{name}: {why} before any plan was found; proven bound {result.bound}",
                   err=True)  # fmt: skip
        sys.exit(code)
    if not result.proven_optimal:
        click.echo(f"{name}: {why} before proving optimality (best {result.score}, bound "
                   f"{result.bound})", err=True)  # fmt: skip
        sys.exit(code)

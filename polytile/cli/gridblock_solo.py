"""``polytile solve gridblock-solo``: one Gridblock colour's best plan, proven by CP-SAT."""

from __future__ import annotations

import json
import sys

import click

__all__ = ["solve_gridblock_solo"]


def solve_gridblock_solo(seed: int | None, order: str, time_limit: float | None,
                         workers: int | None, as_json: bool) -> None:  # fmt: skip
    """Solve the seeded solitaire and print the plan checked by the rules engine.

    Exit 0 when the plan is proven optimal, 1 when the time ran out first (the best plan
    found and the proven bound are printed, or only the bound when no plan was found).
    """
    from polytile.puzzles.gridblock.solo import SoloPuzzle, solo_picture, solve_solo

    puzzle = SoloPuzzle.from_seed(0 if seed is None else seed, order)
    result = solve_solo(puzzle, time_limit=60.0 if time_limit is None else time_limit,
                        workers=workers or 2, seed=0)  # fmt: skip
    name = f"gridblock-solo (seed {puzzle.seed}, {order} order)"
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    elif result.start is not None:
        click.echo(solo_picture(result), nl=False)
        verdict = "proven optimal" if result.proven_optimal else (
            f"NOT proven optimal: out of time, proven bound {result.bound}")  # fmt: skip
        click.echo(f"{name}: score {result.score} = {result.cubes} cubes + {result.bonus} bonus "
                   f"({result.pairs} tiles of 2, {result.triples} of 3 or 4); {verdict} "
                   f"[{result.seconds:.2f} s]")  # fmt: skip
    if result.start is None:
        click.echo(f"{name}: no plan found in {time_limit or 60.0:g} s; proven bound "
                   f"{result.bound}", err=True)  # fmt: skip
        sys.exit(1)
    if not result.proven_optimal:
        click.echo(f"{name}: stopped by the time limit before proving optimality "
                   f"(best {result.score}, bound {result.bound})", err=True)  # fmt: skip
        sys.exit(1)

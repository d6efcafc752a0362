"""``polytile solve gridblock-solo``: one Gridblock colour's best plan, proven exactly
(:data:`SOLO`, as :data:`polytile.faces.registry.PUZZLES` names it)."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import ClassVar

from polytile.faces.face import Console, Option
from polytile.faces.puzzle import (
    ENGINE_OPTION,
    SEED_NOTE,
    TIME_NOTE,
    WORKERS_OPTION,
    PuzzleSolver,
    SolveRequest,
    refuse_engine,
    report_target,
)
from polytile.text import counted

__all__ = ["SOLO", "GridblockSolo"]


class GridblockSolo(PuzzleSolver):
    """Blue alone on a seeded layout with its seeded hands: the plan scoring the most."""

    name = "gridblock-solo"
    label = "gridblock-solo"
    help = ("Gridblock solitaire: blue alone with the seeded layout and hands (--seed), its "
            "best plan proven by an exact branch and bound")  # fmt: skip
    examples = ("polytile solve gridblock-solo --seed 3 --order free",)
    options = (
        Option("order", "Each round's cards in the dealt order, or in any order (solved by an "
               "exact branch and bound; --engine cpsat solves the CP-SAT model instead; "
               "--time-limit defaults to 60 s) [default: fixed].", ("fixed", "free")),
        WORKERS_OPTION,
        ENGINE_OPTION,
    )  # fmt: skip
    notes: ClassVar[Mapping[str, str]] = {
        "seed": SEED_NOTE,
        "time_limit": TIME_NOTE,
        "output": "{name} saves no file (its plan is printed; --json prints it for machines).",
    }
    outputs = ()
    making_options = ("order",)
    no_output = ("gridblock-solo saves no file: its plan is printed; use --json to print it "
                 "for machines (e.g. --json > plan.json)")  # fmt: skip

    def solve(self, console: Console, request: SolveRequest) -> None:
        """Solve the seeded solitaire and print the plan checked by the rules engine.

        Exit 0 when the plan is proven optimal; when the time runs out (exit 1) or Ctrl-C
        stops the search (exit 130) first, the best plan found so far, replayed by the rules
        engine, is printed as not proven, with the proven bound (or only the bound when
        there is no plan yet).
        """
        from polytile._warm import compiled
        from polytile.puzzles.gridblock.solo import SoloPuzzle, solo_picture, solve_solo

        engine = refuse_engine(self.name, request.option("engine"))
        order = request.option("order", "fixed")
        limit = request.clock.left(60.0 if request.time_limit is None else request.time_limit,
                                   reserve=0.25)  # fmt: skip
        deadline = time.perf_counter() + (60.0 if limit is None else limit)
        document = request.document  # a GridblockSoloPuzzle read from a file
        if document is not None:
            puzzle = document.solo
            name = f"{document.name} ({puzzle.order} order)"
        else:
            puzzle = SoloPuzzle.from_seed(0 if request.seed is None else request.seed, order)
            name = f"gridblock-solo (seed {puzzle.seed}, {order} order)"
        try:
            if engine != "cpsat":  # the search, compiled once after installing; the clock
                # stands still meanwhile, and the deadline moves on by as much
                deadline += compiled(console, "gridblock-solo", None, not request.as_json)
            with request.clock.stop_flag() as stop:
                result = solve_solo(puzzle, workers=request.option("workers", 2), seed=0,
                                    engine=engine, deadline=deadline, should_stop=stop)  # fmt: skip
        except KeyboardInterrupt:
            console.err(f"{name}: interrupted")
            raise SystemExit(130) from None
        stopped = result.stopped_by or "stopped"
        why = {"time limit": "out of time", "interrupt": "interrupted"}.get(stopped, stopped)
        if request.as_json:
            console.out(json.dumps(result.to_dict() | (
                {} if document is None else {"puzzle": document.name, "target": document.target})))
        elif result.start is not None:
            console.out(solo_picture(result), nl=False)
            verdict = "proven optimal" if result.proven_optimal else (
                f"NOT proven optimal ({why}): the best plan found so far, proven bound "
                f"{result.bound}")  # fmt: skip
            effort = f"{result.effort:,} {'nodes' if result.engine == 'search' else 'branches'}"
            console.out(f"{name}: score {result.score} = {counted(result.cubes, 'cube')} + "
                        f"{result.bonus} bonus ({counted(result.pairs, 'tile')} of 2, "
                        f"{result.triples} of 3 or 4); {verdict} [{result.seconds:.2f} s, "
                        f"{effort}]")  # fmt: skip
        code = 130 if result.stopped_by == "interrupt" else 1
        # a file that misstates its puzzle is invalid (#48: exit 0)
        report_target(console, document, result.score if result.start is not None else None,
                      result.proven_optimal, code,
                      quiet=request.as_json or result.start is None)  # fmt: skip
        if result.start is None:
            console.err(f"{name}: {why} before any plan was found; proven bound {result.bound}")
            raise SystemExit(code)
        if not result.proven_optimal:
            console.err(f"{name}: {why} before proving optimality (best {result.score}, bound "
                        f"{result.bound})")  # fmt: skip
            raise SystemExit(code)


#: ``polytile solve gridblock-solo``.
SOLO = GridblockSolo()

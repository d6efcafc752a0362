"""The tiling catalogue as the front ends see it: :data:`TILINGS`.

``polytile solve``, ``count`` and ``validate`` reach the tiling puzzles here, through the
registry (:data:`polytile.faces.registry.CATALOGUE`): the named puzzles of the catalogue,
the coloured teaser four-square and its variants (``--touch``, ``--board``, ``--colors``,
``--pieces``, ``--fit``, ``--engine cpsat``), and puzzle files (``.json``, generated
teasers included). Every solution printed passes the puzzle's own rules check first.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar

from polytile.errors import OptionError, PolytileError, SolverError, UnknownNameError
from polytile.faces.face import Console, Option
from polytile.faces.puzzle import (
    CataloguePuzzles,
    CountRequest,
    SolveRequest,
    emit_solution,
    give_up,
)
from polytile.text import printable

__all__ = ["TILINGS", "TilingPuzzles"]

#: The variant options, by name, in the order ``resolve`` takes them.
_VARIANTS = ("touch", "board", "colors", "pieces")


class TilingPuzzles(CataloguePuzzles):
    """The catalogue's puzzles, the coloured teasers and puzzle files."""

    name = "tiling"
    label = "Teasers"
    help = (
        "a catalogue name (see 'polytile puzzles'), the teaser four-square (the 20 Blokus "
        "tetrominoes of four colours tile 8x10, same colours never sharing an edge, with "
        "variants) or a puzzle file (.json; 'polytile puzzles show N --file' writes one, of "
        "any kind: a Gridblock solitaire or a Walkable Cities path puzzle goes to its "
        "puzzle below)"
    )
    examples = (
        "polytile solve pentomino-6x10",
        "polytile solve pentomino-8x8-hole --json > sol.json",
        "polytile solve four-square --touch connected -o four-square.svg",
        "polytile solve four-square --board 8x8 --pieces O4,T4,L4,Z4 --seed 7",
    )
    variant_options = (
        Option("touch", "Corner rule. local: every piece corner-touches its colour [default]; "
               "connected: each colour's pieces form one corner-connected group.",
               ("local", "connected", "none")),
        Option("board", "Another board, as rows x columns (8x10) or a file of '.'/'#' rows.",
               metavar="RxC|FILE"),
        Option("colors", "Number of colours, each with the same pieces [default: 4].",
               low=1, high=4),
        Option("pieces", "Each colour's pieces, comma-separated Blokus names [default: "
               "I4,O4,T4,L4,Z4].", metavar="NAMES"),
    )  # fmt: skip
    options = (
        *variant_options,
        Option("fit", "Place as many squares as the rules allow when not everything fits "
               "(CP-SAT; reports the best found and a proven bound).", switch=True),
        Option("all", "List every solution instead of one: a JSON document a line, each checked "
               "by the rules first, up to --limit (a tiling puzzle or puzzle file).",
               switch=True),
        Option("limit", "With --all: stop after this many solutions [default: 1000].", low=1,
               high=10**9),
        Option("engine", "xcc, the exact-cover kernel with "
               "colours and the corner rules inside the search (fast) [default]; cpsat, the "
               "direct CP-SAT model of polytile.models.cpsat (slow: tens of seconds or more; "
               "--time-limit defaults to 60 s).", ("xcc", "cpsat")),
        Option("view", "How -o draws a box of cubes: layers, side by side [default]; "
               "isometric, the assembled solid.", ("layers", "isometric")),
    )  # fmt: skip
    notes: ClassVar[Mapping[str, str]] = {
        "seed": "{name}: --fit and --engine cpsat search with CP-SAT.",
        "time_limit": "{name}: with --fit, the best layout found, labelled not proven; --fit "
        "and --engine cpsat default to 60 s.",
    }

    # -- names and puzzles --------------------------------------------------------------------

    def names(self) -> list[str]:
        """The catalogue's names and the teasers'."""
        from polytile.puzzles.tiling.catalogue import names

        return names()

    def _resolve(self, name: str, options: Mapping[str, Any]) -> Any:
        from polytile.puzzles.tiling.catalogue import resolve

        return resolve(name, *(options.get(k) for k in _VARIANTS))

    # -- solve ----------------------------------------------------------------------------------

    def solve(self, console: Console, request: SolveRequest) -> None:
        """One solution of a catalogue puzzle, a teaser or a puzzle file (``--fit``: the most
        squares of a teaser's pieces; ``--engine cpsat``: a teaser by CP-SAT)."""
        from polytile._warm import compiled
        from polytile.solvers.symmetric import first_solution
        from polytile.solvers.tiling import compile_problem

        if request.option("fit"):
            self._solve_fit(console, request)
            return
        if _knuth(console, request, "solve"):
            return
        if request.option("all"):
            self._solve_all(console, request)
            return
        if request.option("limit") is not None:
            raise OptionError("--limit goes with --all (every solution)", "--limit")
        spec = self._resolve(request.puzzle, request.options)
        if request.option("engine") == "cpsat":
            self._solve_cpsat(console, request, spec)
            return
        name, as_json, time_limit = spec.name, request.as_json, request.time_limit
        start = time.perf_counter()
        try:
            compiled(console, "tiling", None, not as_json)  # the clock stands still meanwhile
            left = request.clock.left(time_limit, reserve=0.25)
            deadline = None if left is None else time.perf_counter() + left
            stop = None if deadline is None else (lambda: time.perf_counter() >= deadline)
            first = first_solution(spec.problem, seed=request.seed, should_stop=stop)
        except KeyboardInterrupt:
            give_up(console, name, "interrupted", "interrupted before a solution was found",
                    as_json)  # fmt: skip
        seconds = time.perf_counter() - start
        if first is None:
            if deadline is not None and time.perf_counter() >= deadline:
                give_up(console, name, "unknown",
                        f"no solution found in {time_limit:g} s (unknown)", as_json)  # fmt: skip
            give_up(console, name, "infeasible", "no solution exists", as_json)
        placements = compile_problem(spec.problem).placements
        sol = spec.to_solution(placements, first, "feasible", seconds=round(seconds, 4))
        emit_solution(console, sol, request, spec.check, _picture(sol, request))

    def _solve_all(self, console: Console, request: SolveRequest) -> None:
        """``solve --all``: every solution, a JSON line each, checked by the rules first, up
        to ``--limit``; the time limit and Ctrl-C end the list early, said on stderr."""
        import json

        from polytile import formats
        from polytile._warm import compiled
        from polytile.puzzles.tiling.puzzles import TilingPuzzle
        from polytile.solvers.parallel import ctrl_c_asks_stop
        from polytile.solvers.tiling import compile_problem, solutions

        options = {k: v for k, v in request.options.items() if k not in ("all", "limit")}
        spec = self._resolve(request.puzzle, options)
        if not isinstance(spec, TilingPuzzle):
            raise OptionError("--all lists the solutions of tiling puzzles; a teaser's are "
                              "counted up to its colour renamings (count)", "--all")  # fmt: skip
        if request.output or request.seed is not None:
            raise OptionError("--all prints JSON lines: no -o or --seed", "--all")
        most = request.option("limit") or 1000
        compiled(console, "tiling", None, True)  # the search: once after installing
        left = request.clock.left(request.time_limit, reserve=0.1)
        deadline = None if left is None else time.perf_counter() + left
        placements = compile_problem(spec.problem).placements
        listed = 0
        with ctrl_c_asks_stop() as asked:

            def stop() -> bool:
                return asked.is_set() or (deadline is not None and time.perf_counter() >= deadline)

            for sol in solutions(spec.problem, should_stop=stop):
                if listed == most:
                    break
                document = spec.to_solution(placements, sol, "feasible")
                reasons = spec.check(document)
                if reasons:
                    raise SolverError(f"solution failed the rules check: {'; '.join(reasons)}")
                # one line each (JSON lines): the file's text, without its layout
                console.out(json.dumps(json.loads(formats.dumps(document))))
                listed += 1
            else:
                if not stop():
                    console.err(f"{printable(spec.name)}: {listed:,} solutions, all of them")
                    return
        why = ("--limit" if listed == most else "Ctrl-C" if asked.is_set() else "--time-limit")
        console.err(f"{printable(spec.name)}: {listed:,} solutions listed, stopped by {why} "
                    "(there may be more)")  # fmt: skip
        if why == "Ctrl-C":
            raise SystemExit(130)

    def _solve_fit(self, console: Console, request: SolveRequest) -> None:
        """Most squares of a teaser's pieces on its board, with a proven bound."""
        from polytile.board import Board
        from polytile.geometry import piece, piece_set
        from polytile.puzzles.tiling.catalogue import teaser_board
        from polytile.puzzles.tiling.fit import check_fit, fit, fit_everything

        puzzle, as_json = request.puzzle, request.as_json
        if puzzle != "four-square":
            raise OptionError("--fit applies to the four-square teaser and its variants")
        pieces, board = request.option("pieces"), request.option("board")
        touch = request.option("touch", "local")
        hand = ([piece(part) for part in pieces.split(",") if part.strip()] if pieces
                else list(piece_set("tetrominoes")))  # fmt: skip
        hands = [hand] * request.option("colors", 4)
        grid = teaser_board(board) if board else Board(8, 10)
        whole = request.time_limit or 60.0
        limit = request.clock.left(whole, reserve=0.25) or 60.0
        started = time.perf_counter()
        # When everything might fit, the exact search (a quarter of the time) finds it soonest.
        sol = fit_everything(grid, hands, touch, time_limit=limit / 4, seed=request.seed)
        interrupted = False
        if sol is None:
            left = max(limit - (time.perf_counter() - started), 0.1)
            sol, result = fit(grid, hands, touch, time_limit=left, seed=request.seed)
            interrupted = result.stopped_by == "interrupt"
            if sol.extra.get("objective") is None or not sol.placements:
                # stopped before its first layout, or with only the empty one (nothing placed)
                if interrupted:
                    give_up(console, puzzle, "interrupted",
                            "--fit: interrupted before a layout was found", as_json)  # fmt: skip
                give_up(console, puzzle, "unknown", f"--fit: no layout found in {whole:g} s "
                        "(the time limit was reached; unknown)", as_json)  # fmt: skip
        reasons = check_fit(sol, hands, touch)
        if reasons:
            raise SolverError(f"fit answer failed the rules check: {'; '.join(reasons)}")
        emit_solution(console, sol, request)
        if not as_json:
            console.err(f"{sol.extra['objective']} squares placed, at most "
                        f"{sol.extra['bound']} possible ({sol.status})")  # fmt: skip
        if interrupted:  # the best layout so far is shown; say it was cut short
            console.err("interrupted: the layout above is the best found so far")
            raise SystemExit(130)
        if sol.status == "unknown":
            raise SystemExit(1)

    def _solve_cpsat(self, console: Console, request: SolveRequest, spec: Any) -> None:
        """A coloured teaser by the direct CP-SAT model."""
        from polytile.formats import Solution
        from polytile.puzzles.tiling.fit import tile
        from polytile.puzzles.tiling.teasers import Teaser

        if not isinstance(spec, Teaser):
            raise OptionError("--engine cpsat applies to four-square and its variants")
        name, as_json = spec.name, request.as_json
        limit = 60.0 if request.time_limit is None else request.time_limit
        start = time.perf_counter()
        placed, result = tile(spec.board, spec.pieces, spec.touch,
                              time_limit=request.clock.left(limit, reserve=0.25),
                              seed=request.seed)  # fmt: skip
        if placed is None:
            if result.stopped_by == "interrupt":
                give_up(console, name, "interrupted", "interrupted before a solution was found",
                        as_json)  # fmt: skip
            if result.status == "infeasible":
                give_up(console, name, "infeasible", "no solution exists (proven by CP-SAT)",
                        as_json)  # fmt: skip
            give_up(console, name, "unknown", f"no solution found in {limit:g} s (unknown)",
                    as_json)  # fmt: skip
        seconds = round(time.perf_counter() - start, 4)
        extra = {"touch": spec.touch, "engine": "cpsat", "seconds": seconds}
        sol = Solution(name, spec.board.rows, spec.board.cols, placed, "feasible",
                       blocked=tuple(sorted(spec.board.blocked)), extra=extra)  # fmt: skip
        emit_solution(console, sol, request, spec.check)

    # -- count ----------------------------------------------------------------------------------

    def count(self, console: Console, request: CountRequest) -> None:
        """Every solution, raw and up to symmetry, by the engine asked for or chosen, on
        local workers or a Dask cluster; a puzzle with a published count is checked against
        it. With ``request.estimate``, an estimate instead of the count."""
        import json

        from polytile._warm import compiled
        from polytile.puzzles.tiling import count_report as report
        from polytile.solvers.counting import count_tiling
        from polytile.solvers.frontier import FrontierUnsupported
        from polytile.solvers.parallel import make_executor

        if _knuth(console, request, "count"):
            return
        spec = self._resolve(request.puzzle, request.options)
        if request.differ:
            self._differ(console, request, spec)
            return
        problem = spec.problem
        if request.group != "board":  # the group the count up to symmetry is taken under
            import dataclasses

            from polytile.errors import SymmetryError

            try:
                problem = dataclasses.replace(problem, symmetries=request.group)
            except SymmetryError as no:
                raise OptionError(f"{printable(spec.name)}: {no}", "--symmetry") from None

        def prepare() -> float:
            """Before compiled code first runs: wait for the engines' first compile (a
            small frontier count runs in numpy and never gets here); the seconds waited."""
            if request.scheduler is not None:  # a cluster's workers compile in their places
                return 0.0
            # the clock stands still meanwhile: the limit is for the count
            return compiled(console, "tiling", None, request.progress and not request.as_json)

        if request.estimate is not None:
            prepare()
            self._estimate(console, request, spec)
            return

        def note(p: Any) -> str:
            rate = p.nodes / max(p.seconds, 1e-9) / 1e6
            return p.note or f"{p.count:,} found, {rate:.1f}M nodes/s"

        with (
            make_executor(request.workers, request.scheduler) as ex,
            console.progress("counting", request.progress, note) as update,
        ):
            # what is left of the limit once started; stopping the workers takes a moment
            left = request.clock.left(request.time_limit, reserve=0.15 if ex.workers > 1
                                      else 0.05)  # fmt: skip
            try:
                result = count_tiling(problem, ex, symmetry=request.symmetry,
                                      time_limit=left, progress=update, engine=request.engine,
                                      memory=request.memory, prepare=prepare)  # fmt: skip
            except FrontierUnsupported as no:
                raise OptionError(f"{printable(spec.name)}: {no}", "--engine") from None
        _check_published(spec, result, request.symmetry and request.group == "board")
        up = result.count_up_to_symmetry if request.symmetry else None
        if request.as_json:
            console.out(json.dumps(report.count_doc(spec.name, problem, result, up)))
        else:
            console.out(report.count_line(spec.name, problem, result, up))
            console.err(report.stats_line(result))
        if not result.complete:
            raise SystemExit(130 if result.stopped_by == "interrupt" else 0)

    @staticmethod
    def _differ(console: Console, request: CountRequest, spec: Any) -> None:
        """``count --differ``: read every solution (at most ``--limit``) and show the cells
        where they do not all have the same piece."""
        import json

        from polytile._warm import compiled
        from polytile.puzzles.tiling.puzzles import TilingPuzzle
        from polytile.puzzles.tiling.unique import differences, every_solution
        from polytile.solvers.parallel import ctrl_c_asks_stop

        if not isinstance(spec, TilingPuzzle):
            raise OptionError("--differ reads the solutions of tiling puzzles, not a teaser's",
                              "--differ")  # fmt: skip
        compiled(console, "tiling", None, not request.as_json)  # once after installing
        left = request.clock.left(request.time_limit, reserve=0.1)
        deadline = None if left is None else time.perf_counter() + left
        with ctrl_c_asks_stop() as asked:
            found, whole = every_solution(spec, request.limit, lambda: asked.is_set() or (
                deadline is not None and time.perf_counter() >= deadline))  # fmt: skip
        differ = differences(spec, found)
        board = spec.layout
        if board.grid == "square":
            rows = [" ".join("#" if (r, c) in board.blocked else "?" if (r, c) in differ else "."
                             for c in range(board.cols)) for r in range(board.rows)]  # fmt: skip
        else:  # the grid's own drawing: '?' where solutions differ
            from polytile.grids import grid

            drawn = {cell: "?" if cell in differ else "." for cell in board.open_cells()}
            if board.grid == "cube":
                drawn.update(dict.fromkeys(board.blocked, "#"))
            rows = grid(board.grid).write_text(drawn, "#" if board.grid == "cube" else " ")
        some = "" if whole else "the first "
        if request.as_json:
            console.out(json.dumps({"puzzle": spec.name, "solutions": len(found),
                                    "complete": whole, "differ": sorted(map(list, differ)),
                                    "board": rows}))  # fmt: skip
        elif not found:
            console.out(f"{printable(spec.name)}: no solution" + ("" if whole else " found"))
            return
        else:
            console.out(f"{printable(spec.name)}: {some}{len(found):,} solutions differ on "
                        f"{len(differ)} of {board.n_open} cells (marked ?):")  # fmt: skip
            for row in rows:
                console.out(row)
            if not whole:
                console.err("not every solution was read (--limit, --time-limit or Ctrl-C): "
                            "cells marked . may differ in the others")  # fmt: skip

    @staticmethod
    def _estimate(console: Console, request: CountRequest, spec: Any) -> None:
        """``count --estimate``: the random paths' estimate of the solutions and of the
        search's time, and the frontier engine's upper estimate, labelled as estimates."""
        import json

        from polytile.puzzles.tiling import count_report as report
        from polytile.solvers.estimate import estimate_frontier, estimate_search
        from polytile.solvers.frontier import FrontierUnsupported

        search = estimate_search(spec.problem, probes=request.estimate or 20_000,
                                 seed=request.seed)  # fmt: skip
        front, refused = None, None
        try:
            front = estimate_frontier(spec.problem)
        except FrontierUnsupported as no:
            refused = str(no)
        if request.as_json:
            console.out(json.dumps(report.estimate_doc(spec, search, front, refused)))
        else:
            for line in report.estimate_lines(spec, search, front, refused):
                console.out(line)

    # -- unique ---------------------------------------------------------------------------------

    def make_unique(self, console: Console, puzzle: str, output: str, most: int,
                    time_limit: float | None, clock: Any, as_json: bool) -> None:  # fmt: skip
        """``polytile unique``: the fewest pieces of one solution to give so that it is the
        only one (:func:`~polytile.puzzles.tiling.unique.fewest_givens`), proven by a count
        of 1, written as a puzzle file; exit 1 when there is no solution or too many."""
        import json

        from polytile._files import write_atomic
        from polytile._warm import compiled
        from polytile.puzzles.tiling.puzzle_file import parse_puzzle, puzzle_doc
        from polytile.puzzles.tiling.puzzles import TilingPuzzle
        from polytile.puzzles.tiling.unique import every_solution, fewest_givens
        from polytile.render import to_text
        from polytile.solvers.counting import count_tiling
        from polytile.solvers.parallel import ctrl_c_asks_stop
        from polytile.text import wrote

        spec = self._resolve(puzzle, {})
        if not isinstance(spec, TilingPuzzle):
            raise OptionError(f"{printable(spec.name)} is a teaser: unique makes tiling puzzles "
                              "unique")  # fmt: skip
        compiled(console, "tiling", None, not as_json)  # the search: once after installing
        left = clock.left(time_limit, reserve=0.3)
        deadline = None if left is None else time.perf_counter() + left
        with ctrl_c_asks_stop() as asked:

            def stop() -> bool:
                return asked.is_set() or (deadline is not None and time.perf_counter() >= deadline)

            found, whole = every_solution(spec, most, stop)
            if not found or not whole:
                why = ("no solution exists" if whole else
                       f"more than {most:,} solutions (--limit), or stopped before all were read: "
                       "give a piece or two by hand where 'count --differ' shows, then try "
                       "again")  # fmt: skip
                console.err(f"{printable(spec.name)}: {why}")
                if as_json:
                    console.out(json.dumps({"puzzle": spec.name, "unique": False,
                                            "solutions": len(found), "complete": whole}))
                raise SystemExit(130 if asked.is_set() else 1)
            givens = fewest_givens(spec, found, stop)
            if givens is None:
                console.err(f"{printable(spec.name)}: stopped before the fewest givens were "
                            "found: nothing written")  # fmt: skip
                raise SystemExit(130 if asked.is_set() else 1)
        doc = puzzle_doc(spec)
        doc["name"] = f"{spec.name}-unique"
        doc["given"] = [*doc.get("given", []),
                        *({"piece": g.piece, "cells": [list(c) for c in g.cells]}
                          for g in givens.pieces)]  # fmt: skip
        made = parse_puzzle(doc, output)
        proof = count_tiling(made.problem, symmetry=False, engine="auto",
                             time_limit=clock.left(time_limit, reserve=0.2))  # fmt: skip
        if not proof.complete:
            console.err(f"{printable(spec.name)}: stopped before the new puzzle was counted: "
                        "nothing written")  # fmt: skip
            raise SystemExit(130 if proof.stopped_by == "interrupt" else 1)
        if proof.count != 1:
            raise SolverError(f"the puzzle with the givens chosen counts {proof.count}, not 1")
        write_atomic(output, json.dumps(doc, indent=1) + "\n")
        console.err(wrote(output, "wrote"))
        already = len(found) == 1
        if as_json:
            console.out(json.dumps({"puzzle": spec.name, "unique": True, "solutions": len(found),
                                    "given": [{"piece": g.piece, "cells": [list(c) for c in
                                                                           g.cells]}
                                              for g in givens.pieces],
                                    "fewest": True, "file": output}))  # fmt: skip
            return
        if already:
            console.out(f"{printable(spec.name)} has one solution already: nothing to give")
        else:
            names = ", ".join(g.piece for g in givens.pieces)
            console.out(f"{printable(spec.name)}: {len(found):,} solutions; giving "
                        f"{len(givens.pieces)} piece{'s' if len(givens.pieces) != 1 else ''} "
                        f"({names}) leaves exactly one (counted). No fewer do: every solution "
                        "was tried with every smaller set of its pieces.")  # fmt: skip
        console.out(to_text(made.solution_of((), "unknown"), color=False))  # the givens in place

    # -- convert --------------------------------------------------------------------------------

    def convert(self, console: Console, puzzle: str, output: str,
                options: Mapping[str, Any]) -> None:  # fmt: skip
        """Write a tiling puzzle (a catalogue name, a file, a teaser variant) to ``output``,
        in the format its suffix names: ``.dlx`` Knuth's exact-cover text, ``.json`` a
        polytile puzzle file (to start a puzzle of your own from a named one).

        Raises
        ------
        OptionError
            For a teaser (its corner rules are no exact cover, and no puzzle file), or an
            unknown suffix.
        """
        from polytile._files import output_suffix, write_atomic
        from polytile.models.knuth import puzzle_text
        from polytile.puzzles.tiling.puzzle_file import puzzle_doc
        from polytile.puzzles.tiling.puzzles import TilingPuzzle
        from polytile.text import wrote

        spec = self._resolve(puzzle, options)
        suffix = output_suffix(output, ".dlx")
        if not isinstance(spec, TilingPuzzle):
            raise OptionError(f"{printable(spec.name)} is a teaser: its colour rules are neither "
                              "exact cover nor a tiling puzzle file")  # fmt: skip
        if suffix == ".dlx":
            text = puzzle_text(spec.name, spec.problem)
        elif suffix == ".json":
            import json

            text = json.dumps(puzzle_doc(spec), indent=1) + "\n"
        else:
            raise OptionError(f"{output}: the suffix must be .dlx (Knuth's exact-cover text) or "
                              ".json (a polytile puzzle file)", "-o")  # fmt: skip
        write_atomic(output, text)
        console.err(wrote(output, "wrote"))

    # -- render ---------------------------------------------------------------------------------

    def draws(self, file: str) -> bool:
        """Whether ``render`` draws ``file`` as a puzzle (:mod:`.tiling.picture`)."""
        from polytile.puzzles.tiling.picture import draws

        return draws(file)

    def is_teaser_name(self, file: str) -> bool:
        """Whether ``file``, no file of that name being there, names a teaser of the
        catalogue (which ``solve`` draws an answer of, and ``render`` does not draw)."""
        from pathlib import Path

        from polytile.puzzles.tiling.catalogue import TEASERS

        return file != "-" and not Path(file).exists() and file in TEASERS

    def render(self, console: Console, files: tuple[str, ...], output: Any, color: bool | None,
               cell: int, title: str | None, view: str | None = None) -> None:  # fmt: skip
        """``render`` of puzzles with their trays (:mod:`.tiling.picture`); ``view`` draws
        a box of cubes (its layers, or isometric)."""
        from polytile.puzzles.tiling.picture import render_puzzles

        try:
            render_puzzles(console, files, output, color, cell, title, view=view)
        except ValueError as exc:
            if view is None or isinstance(exc, PolytileError):
                raise
            raise OptionError(str(exc), "--view") from None

    # -- validate -------------------------------------------------------------------------------

    def check(self, console: Console, solution: Any, against: str | None,
              placements_only: bool, options: Mapping[str, Any],
              ) -> tuple[str | None, list[str]]:  # fmt: skip
        """A solution against ``--puzzle`` (with the variant options), else the teaser its
        file records, else the catalogue puzzle it names; its placements alone when none
        (said on standard error) or with ``placements_only``."""
        from polytile.puzzles.tiling.catalogue import TEASERS
        from polytile.puzzles.tiling.puzzles import check_solution

        if against is None and not placements_only and not options:
            # a teaser variant or --fit answer: the file records its puzzle
            from polytile.puzzles.tiling.recorded import check_recorded

            recorded = check_recorded(solution)
            if recorded is not None:
                return recorded
        # A teaser solution records its touch rule; --touch overrides it.
        touch = solution.extra.get("touch") if isinstance(solution.extra.get("touch"),
                                                          str) else None  # fmt: skip
        puzzle = None
        name = against if against is not None else solution.puzzle
        variant = {**options, "touch": options.get("touch") or (touch if name in TEASERS
                                                                else None)}  # fmt: skip
        if against is not None:  # unknown -> UnknownNameError -> exit 2
            puzzle = self._resolve(against, variant)
        elif not placements_only and solution.puzzle:
            try:
                puzzle = self._resolve(solution.puzzle, variant)
            except UnknownNameError:
                console.err(f"note: puzzle {solution.puzzle!r} is not in the catalogue; "
                            "checking the placements only")  # fmt: skip
        reasons = puzzle.check(solution) if puzzle is not None else check_solution(solution)
        return (puzzle.name if puzzle is not None else None), reasons


def _picture(solution: Any, request: Any) -> Any:
    """How ``-o`` draws ``solution``: in the ``--view`` asked for (a box of cubes), else as
    pictures are drawn; ``--view`` is refused off the cube grid and for a text picture."""
    view = request.option("view")
    if view is None:
        return None
    from polytile._files import output_suffix
    from polytile.render import save_picture

    if solution.grid != "cube":
        raise OptionError(f"draws a box of cubes; this puzzle is on the {solution.grid} "
                          "grid", "--view")  # fmt: skip
    if request.output is None or output_suffix(request.output, ".json") in (".json", ".txt"):
        raise OptionError("chooses how -o draws a picture (.svg or .png)", "--view")
    return lambda output: save_picture(solution, output, view=view)


def _knuth(console: Console, request: Any, verb: str) -> bool:
    """``count`` or ``solve`` of a file in Knuth's exact-cover format, if the puzzle is one
    (:mod:`polytile.puzzles.tiling.knuth_face`); False otherwise."""
    from polytile.puzzles.tiling.knuth_face import count_knuth, is_knuth, solve_knuth
    from polytile.solvers.parallel import ctrl_c_asks_stop

    if not is_knuth(request.puzzle):
        return False
    from polytile._warm import compiled

    if request.options:
        raise OptionError(f"{', '.join('--' + n for n in request.options)}: not for a file in "
                          "Knuth's format, which holds its whole problem")  # fmt: skip
    if verb == "solve" and (request.output or request.seed is not None):
        raise OptionError("-o and --seed are not for a file in Knuth's format: its solution is "
                          "printed as the options chosen (--json for a document)")  # fmt: skip
    compiled(console, "tiling", None, not request.as_json)  # the colour engine, once
    limit = request.clock.left(request.time_limit, reserve=0.1)
    with ctrl_c_asks_stop() as asked:
        run = count_knuth if verb == "count" else solve_knuth
        run(console, request.puzzle, limit, request.as_json, asked.is_set)
    return True


def _check_published(spec: Any, result: Any, symmetry: bool) -> None:
    """A complete count that differs from the puzzle's published one is a solver bug."""
    if not result.complete or spec.known_count is None:
        return
    up = result.count_up_to_symmetry
    if result.count != spec.known_count or (
        up not in (None, spec.known_count_up_to_symmetry) and symmetry
    ):
        known = f"{spec.known_count} / {spec.known_count_up_to_symmetry}"
        raise SolverError(f"{spec.name}: counted {result.count} / {up} but the published "
                          f"count is {known}")  # fmt: skip


#: The tiling catalogue's puzzles, as :data:`polytile.faces.registry.CATALOGUE` names them.
TILINGS = TilingPuzzles()

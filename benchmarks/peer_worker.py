"""Count one exact-cover problem with one peer engine; run by bench_count.py in a subprocess.

Reads the problem as JSON on stdin::

    {"name": str, "items": [str], "n_primary": int, "options": [[int]],
     "rows": int, "cols": int, "holes": [[r, c]], "expect": int,
     "runs": int, "long_run": float, "time_limit": float}

builds it with the engine's own API, counts every solution, and prints one JSON object:
the engine's version, the build and count times of each run, the count, and whether the
count is complete. Each run builds afresh (some engines consume the problem while
solving), and only the count is timed as "count"; once a count takes ``long_run`` seconds
or more it is not repeated.

This file imports only the engine it is asked for, so it runs under the peers' virtual
environment (xcover, exact-cover, miniexact, pyxcc, polyomino) and under polytile's
(ortools, for CP-SAT) alike. It never imports polytile.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
import time
from collections.abc import Callable
from typing import Any

Problem = dict[str, Any]
Built = Any
#: An engine: build(problem) -> built; count(built, problem) -> (count, complete, note).
Engine = tuple[Callable[[Problem], Built], Callable[[Built, Problem], tuple[int, bool, str]]]


def _bool_matrix(problem: Problem) -> Any:
    """The 0/1 option-by-item matrix as a C-contiguous numpy bool array."""
    import numpy as np

    matrix = np.zeros((len(problem["options"]), len(problem["items"])), dtype=np.bool_)
    for row, option in enumerate(problem["options"]):
        matrix[row, option] = True
    return matrix


# xcover: numba Dancing Cells; covers_bool yields the solutions of a boolean matrix.
def _xcover_build(problem: Problem) -> Built:
    return _bool_matrix(problem)


def _xcover_count(matrix: Built, problem: Problem) -> tuple[int, bool, str]:
    from xcover import covers_bool

    return sum(1 for _ in covers_bool(matrix)), True, "covers_bool"


# xcover's ZDD mode: Knuth's Algorithm Z with the memo cache (equal subproblems merged);
# the ZDD comes as nodes (index, item, lo, hi), children first, 0 the empty family and 1 the
# family of the empty set; the count is the number of paths to 1.
def _xcover_zdd_count(matrix: Built, problem: Problem) -> tuple[int, bool, str]:
    from xcover import covers_bool_zdd

    paths = [0, 1]
    for node in covers_bool_zdd(matrix, use_memo_cache=True):
        index, lo, hi = node[0], node[2], node[3]
        while len(paths) <= index:
            paths.append(0)
        paths[index] = paths[lo] + paths[hi]
    return (paths[-1] if len(paths) > 2 else 0), True, "covers_bool_zdd, memo cache"


def _xcover_warm_up() -> None:
    """Load (or compile, the very first time) xcover's numba kernel outside the timing."""
    import numpy as np
    from xcover import covers_bool

    tiny = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]], dtype=np.bool_)
    if sum(1 for _ in covers_bool(tiny)) != 2:
        raise RuntimeError("xcover warm-up gave a wrong count")
    if _xcover_zdd_count(tiny, {})[0] != 2:
        raise RuntimeError("xcover's ZDD warm-up gave a wrong count")


# exact-cover: C Algorithm X over a numpy bool matrix; get_solution_count counts only.
def _exact_cover_build(problem: Problem) -> Built:
    return _bool_matrix(problem)


def _exact_cover_count(matrix: Built, problem: Problem) -> tuple[int, bool, str]:
    import exact_cover

    return int(exact_cover.get_solution_count(matrix)), True, "get_solution_count"


# miniexact: C Algorithm X through SWIG; each solve() call returns the next solution (10)
# until there is none (20).
def _miniexact_build(problem: Problem) -> Built:
    from miniexact import miniexacts_x

    solver = miniexacts_x()
    handles = [solver.primary(name) for name in problem["items"]]
    for option in problem["options"]:
        solver.add([handles[i] for i in option])
    return solver


def _miniexact_count(solver: Built, problem: Problem) -> tuple[int, bool, str]:
    found = 0
    while solver.solve() == 10:
        found += 1
    return found, True, "miniexacts_x, solve() until 20"


# pyxcc: Rust Dancing Cells; solve(problem, True) returns every solution (its stub file
# documents a Solver class, but the module exposes solve() as a plain function).
def _pyxcc_build(problem: Problem) -> Built:
    import pyxcc

    names = problem["items"]
    options = [
        pyxcc.Option(f"o{k}", [names[i] for i in option], [])
        for k, option in enumerate(problem["options"])
    ]
    return pyxcc.Problem(list(names), [], options)


def _pyxcc_count(built: Built, problem: Problem) -> tuple[int, bool, str]:
    import pyxcc

    return int(pyxcc.solve(built, True).count()), True, "solve(problem, get_all=True)"


# polyomino: builds its own matrix from a board and a tile set, but its solver
# (TilingProblem.solve) returns one solution: it has no way to count them.
def _polyomino_build(problem: Problem) -> Built:
    from polyomino.board import Rectangle
    from polyomino.constant import ALL_PENTOMINOS
    from polyomino.tileset import exactly

    board: Any = Rectangle(problem["cols"], problem["rows"])
    holes = [(c, r) for r, c in problem["holes"]]
    if holes:
        board = board.remove_all(holes)
    tiling = board.tile_with_set(exactly(ALL_PENTOMINOS).with_reflections())
    tiling.make_problem()
    return tiling


def _polyomino_count(tiling: Built, problem: Problem) -> tuple[int, bool, str]:
    solution = tiling.solve()
    n_rows = tiling.array.shape[0]
    if solution is None:
        return 0, False, f"no solution found ({n_rows} rows)"
    covered = sorted(cell for piece in solution.tiling for cell in piece)
    if len(solution.tiling) != 12 or covered != sorted(tiling.board.squares):
        raise RuntimeError("polyomino returned an invalid tiling")
    return 1, False, f"first solution only: no count API ({n_rows} rows built)"


# OR-tools CP-SAT: one boolean per option, exactly one per item, enumerate every solution.
def _cpsat_build(problem: Problem) -> Built:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    chosen = [model.new_bool_var(f"o{k}") for k in range(len(problem["options"]))]
    covering: list[list[Any]] = [[] for _ in problem["items"]]
    for k, option in enumerate(problem["options"]):
        for i in option:
            covering[i].append(chosen[k])
    for literals in covering:
        model.add_exactly_one(literals)
    return model, chosen


def _cpsat_count(built: Built, problem: Problem) -> tuple[int, bool, str]:
    from ortools.sat.python import cp_model

    model, _ = built

    class _Counter(cp_model.CpSolverSolutionCallback):
        """Counts solutions without reading them."""

        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # enumeration needs a single search worker
    solver.parameters.max_time_in_seconds = float(problem["time_limit"])
    counter = _Counter()
    status = solver.solve(model, counter)
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    note = "enumerate_all_solutions" if complete else f"time limit {problem['time_limit']:g} s"
    return counter.found, complete, note


ENGINES: dict[str, tuple[str, Engine]] = {
    "xcover": ("xcover", (_xcover_build, _xcover_count)),
    "xcover-zdd": ("xcover", (_xcover_build, _xcover_zdd_count)),
    "exact-cover": ("exact-cover", (_exact_cover_build, _exact_cover_count)),
    "miniexact": ("miniexact", (_miniexact_build, _miniexact_count)),
    "pyxcc": ("pyxcc", (_pyxcc_build, _pyxcc_count)),
    "polyomino": ("polyomino", (_polyomino_build, _polyomino_count)),
    "cp-sat": ("ortools", (_cpsat_build, _cpsat_count)),
}


def run(engine: str, problem: Problem) -> dict[str, Any]:
    """Build and count ``problem`` with ``engine``, ``problem["runs"]`` times at most.

    Raises
    ------
    RuntimeError
        If a complete count differs from ``problem["expect"]``.
    """
    dist, (build, count) = ENGINES[engine]
    if engine.startswith("xcover"):
        _xcover_warm_up()
    builds: list[float] = []
    counts: list[float] = []
    result: dict[str, Any] = {"engine": engine, "version": importlib.metadata.version(dist)}
    for _ in range(max(1, int(problem["runs"]))):
        t0 = time.perf_counter()
        built = build(problem)
        t1 = time.perf_counter()
        found, complete, note = count(built, problem)
        t2 = time.perf_counter()
        builds.append(t1 - t0)
        counts.append(t2 - t1)
        if complete and found != problem["expect"]:
            raise RuntimeError(
                f"{engine} counted {found} solutions of {problem['name']}, "
                f"expected {problem['expect']}"
            )
        result.update(count=found, complete=complete, note=note)
        if t2 - t1 >= problem["long_run"]:
            break
    result.update(build_seconds=builds, count_seconds=counts)
    return result


def main() -> int:
    """Command line: ``peer_worker.py ENGINE < problem.json``; prints the result as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", choices=sorted(ENGINES))
    args = parser.parse_args()
    problem = json.load(sys.stdin)
    json.dump(run(args.engine, problem), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

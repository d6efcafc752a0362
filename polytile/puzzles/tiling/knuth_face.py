"""``count`` and ``solve`` of a file in Knuth's exact-cover format (``.dlx``, ``.xcc``,
``.mcc``: :mod:`polytile.models.knuth`), by the colour engine (:mod:`polytile.solvers.xcc`).

Such a file may hold any exact cover problem, not only a tiling, so no board symmetry is
known: the count is raw. Every solution printed is checked item by item first.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from polytile.errors import FormatError, SolverError
from polytile.faces.face import Console
from polytile.text import printable

__all__ = ["KNUTH_SUFFIXES", "count_knuth", "is_knuth", "read_knuth", "solve_knuth"]

#: The suffixes read as Knuth's format.
KNUTH_SUFFIXES = (".dlx", ".xcc", ".mcc")
#: The largest file read, in bytes.
MOST_BYTES = 64 * 2**20
#: Nodes between two looks at the clock and Ctrl-C.
CHUNK = 2_000_000


def is_knuth(name: str) -> bool:
    """Whether ``name`` is a file to read in Knuth's format (by its suffix)."""
    return Path(name).suffix.lower() in KNUTH_SUFFIXES and Path(name).is_file()


def read_knuth(name: str) -> Any:
    """The :class:`~polytile.models.knuth.KnuthProblem` in file ``name``.

    Raises
    ------
    FormatError
        If it is too large, not UTF-8 text, or not in the format.
    """
    from polytile.models.knuth import parse_text

    with open(name, "rb") as f:
        data = f.read(MOST_BYTES + 1)
    if len(data) > MOST_BYTES:
        raise FormatError(f"larger than {MOST_BYTES // 2**20} MB", name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", name) from None
    return parse_text(text, name)


def _run(expanded: Any, limit: float | None, stop: Any,
         first: bool) -> tuple[Any, list[int] | None]:  # fmt: skip
    """The colour engine on ``expanded`` (to the end, or with ``first`` to a first
    solution), checking the clock and ``stop`` between chunks of nodes: the
    :class:`~polytile.solvers.xcc.Search` where it ended, and the solution found."""
    from polytile.solvers.xcc import Search

    search = Search(expanded, node_limit=CHUNK, limit=1 if first else None)
    deadline = None if limit is None else time.perf_counter() + limit
    while True:
        solution: list[int] | None = None
        if first:
            solution = next(search, None)
        else:
            search.run_to_end()
        if solution is not None or search.stopped != "node_limit":
            return search, solution
        if (deadline is not None and time.perf_counter() >= deadline) or stop():
            return search, None
        search.resume(search.nodes + CHUNK)


def count_knuth(console: Console, name: str, limit: float | None, as_json: bool,
                stop: Any) -> None:  # fmt: skip
    """Count every solution of the file; an incomplete count (time limit, Ctrl-C) is a
    lower bound, said so, and ends with ``SystemExit`` 0 or 130."""
    problem = read_knuth(name)
    began = time.perf_counter()
    search, _ = _run(problem.expanded()[0], limit, stop, False)
    factor = problem.copies_factor
    if search.count % factor and search.complete:
        raise SolverError(f"{search.count} solutions of the expanded problem are not a "
                          f"multiple of {factor}, the numberings of its copies")  # fmt: skip
    found = search.count // factor
    seconds = time.perf_counter() - began
    complete = search.complete
    stopped_by = None if complete else ("interrupt" if stop() else "time limit")
    if as_json:
        console.out(json.dumps({"puzzle": problem.name, "format": "knuth", "count": found,
                                "count_up_to_symmetry": None, "complete": complete,
                                "stopped_by": stopped_by, "engine": "xcc",
                                "nodes": search.nodes, "seconds": round(seconds, 4),
                                "options": len(problem.options),
                                "items": len(problem.primary) + len(problem.secondary)}))
    else:
        what = f"{found:,} solution" + ("" if found == 1 else "s")
        said = ("(exact cover, Knuth's format: no symmetry known, so raw only)" if complete
                else f"(stopped by {stopped_by}; the count is incomplete)")  # fmt: skip
        console.out(f"{printable(problem.name)}: {'' if complete else 'at least '}{what} {said}")
        console.err(f"  exact cover with colours (Algorithm C): {search.nodes:,} nodes, "
                    f"{seconds:.2f} s, {len(problem.options):,} options")  # fmt: skip
    if not complete:
        raise SystemExit(130 if stopped_by == "interrupt" else 0)


def solve_knuth(console: Console, name: str, limit: float | None, as_json: bool,
                stop: Any) -> None:  # fmt: skip
    """One solution of the file: its options as written, with their lines, checked first;
    exit 1 when there is none (or none was found in the time limit)."""
    problem = read_knuth(name)
    expanded, origin = problem.expanded()
    search, found = _run(expanded, limit, stop, True)
    chosen = None if found is None else sorted({origin[k] for k in found})
    if chosen is None:
        status = "infeasible" if search.complete else "unknown"
        message = ("no solution exists" if search.complete
                   else "no solution found in the time limit (unknown)")  # fmt: skip
        console.err(f"{printable(problem.name)}: {message}")
        if as_json:
            console.out(json.dumps({"puzzle": problem.name, "status": status, "solution": None}))
        raise SystemExit(1)
    reasons = problem.check(chosen)
    if reasons:
        raise SolverError(f"solution failed the exact cover check: {'; '.join(reasons)}")
    if as_json:
        console.out(json.dumps({"puzzle": problem.name, "format": "knuth", "status": "feasible",
                                "lines": [problem.lines[j] for j in chosen],
                                "options": [" ".join(problem.options[j]) for j in chosen]}))
        return
    for j in chosen:
        console.out(f"{problem.lines[j]:>6}  {' '.join(problem.options[j])}")
    console.err(f"{printable(problem.name)}: {len(chosen)} options (their line numbers first), "
                "checked item by item")  # fmt: skip

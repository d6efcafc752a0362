"""What ``polytile count`` prints of a count or an estimate: text for people, JSON for
machines, and the same facts in both (which engine ran and why, how far a stopped count
got, what an estimate rests on)."""

from __future__ import annotations

from typing import Any

from polytile.text import counted, printable

__all__ = [
    "count_doc",
    "count_line",
    "estimate_doc",
    "estimate_lines",
    "group_names",
    "group_words",
    "stats_line",
    "work_done",
]


def _size(n: float) -> str:
    if n >= 2**30:
        return f"{n / 2**30:.1f} GB"
    return f"{n / 2**20:.0f} MB" if n >= 2**20 else f"{n / 2**10:.0f} KB"


def work_done(result: Any) -> dict[str, Any]:
    """How much of the count's work is done: cells of the frontier engine's scan, or the
    search's subproblems finished (with the Fix(g) searches), of all."""
    if result.engine == "frontier":
        return {"done": result.extra.get("cells_done", 0), "total": result.extra.get("cells", 0),
                "unit": "cells"}  # fmt: skip
    return {"done": result.extra.get("tasks_done", result.tasks if result.complete else 0),
            "total": result.tasks, "unit": "subproblems"}  # fmt: skip


def group_words(problem: Any, result: Any) -> str | None:
    """What a count up to symmetry is up to: "the 4 symmetries of the board and the 24
    colour renamings", "the 2 rotations of the board", "the 4 symmetries of the board,
    its reflections turning each piece into its mirror twin"; None when there is nothing
    to identify."""
    renaming = problem.color_factor
    reflects = result.group_order > 1 and any(k >= problem.board.rotations
                                              for k in problem.group())  # fmt: skip
    kind = "symmetries" if reflects else "rotations"
    board = f"the {result.group_order} {kind} of the board"
    if reflects and problem.one_sided:  # "mirror-pieces": reflections turn pieces over
        board += ", its reflections turning each piece into its mirror twin"
    parts = [board] * (result.group_order > 1)
    parts += [f"the {renaming} colour renamings"] * (renaming > 1)
    return " and ".join(parts) if parts else None


def group_names(problem: Any) -> list[str]:
    """The symmetries a count up to symmetry identifies solutions by, by name ("id",
    "rot180", "flip-lr"...: the grid's :meth:`~polytile.grids.Grid.transform_name`)."""
    names = problem.board.on_grid.transform_name
    return [names(k) for k in problem.group()]


def count_line(puzzle: str, problem: Any, result: Any, up: int | None) -> str:
    """The count for people: complete (with the symmetries it was reduced by) or not."""
    name = printable(puzzle)
    if result.complete:
        line = f"{name}: {counted(result.count, 'solution')}"
        if up is not None:
            words = group_words(problem, result)
            if words:
                line += f" ({up:,} up to {words})"
            elif problem.symmetries == "none":
                line += " (--symmetry none: no count up to symmetry)"
            else:
                line += " (the board has no symmetry)"
        return line
    if result.engine == "frontier":
        done = work_done(result)
        return (f"{name}: no count (stopped by {result.stopped_by} at cell {done['done']:,} of "
                f"{done['total']:,}: the frontier engine counts only at its end)")  # fmt: skip
    if result.nodes == 0 and result.stopped_by == "time limit":
        return (f"{name}: the time limit was reached during start-up, before the search "
                "began: nothing was counted (the count is incomplete)")  # fmt: skip
    return (f"{name}: at least {result.count:,} solutions (stopped by {result.stopped_by}; "
            "the count is incomplete)")  # fmt: skip


def stats_line(result: Any) -> str:
    """The engine and its work, for standard error."""
    if result.engine == "frontier":
        extra = result.extra
        threads = f"{extra.get('threads', 1)} thread" + ("s" if extra.get("threads", 1) > 1 else "")
        keys, size = extra.get("peak_states", 0), _size(extra.get("peak_bytes", 0))
        line = (f"  frontier engine: {keys:,} keys at the widest, {size}, "
                f"{result.seconds:.2f} s, {threads}")  # fmt: skip
        if result.nodes:
            line += f"; symmetric solutions by the search: {result.nodes:,} nodes"
    else:
        workers = f"{result.workers} worker" + ("s" if result.workers > 1 else "")
        line = (f"  search: {result.nodes:,} nodes, {result.seconds:.2f} s, {workers}, "
                f"{result.tasks} subproblems")  # fmt: skip
    if result.engine_reason:
        line += f"\n  ({result.engine_reason})"
    scan = result.extra.get("scan")
    if scan and (scan["scans_compared"] > 1 or scan.get("pieces_compared", 1) > 1):
        line += (f"\n  (cells scanned by {scan['scan']}: the smallest tree estimated of "
                 f"{scan['scans_compared']} scans, {scan['estimated_nodes']:,.0f} nodes against "
                 f"{scan['default_estimated_nodes']:,.0f} by default"
                 + (f"; the piece fixed for symmetry chosen of {scan['pieces_compared']}"
                    if scan.get("pieces_compared", 1) > 1 else "") + ")")  # fmt: skip
    return line


def count_doc(puzzle: str, problem: Any, result: Any, up: int | None) -> dict[str, Any]:
    """The count as ``--json`` prints it."""
    frontier_stopped = result.engine == "frontier" and not result.complete
    doc: dict[str, Any] = {
        "puzzle": puzzle,
        "count": None if frontier_stopped else result.count,
        "count_up_to_symmetry": up,
        "up_to": group_words(problem, result) if up is not None else None,
        "symmetry": problem.symmetries,
        "group": group_names(problem) if up is not None else None,
        "complete": result.complete,
        "engine": result.engine,
        "engine_reason": result.engine_reason,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "workers": result.workers,
        "subproblems": result.tasks,
        "symmetries": result.group_order,
        "symmetry_broken_by": result.symmetry_broken_by,
        "work": work_done(result),
    }
    if "scan" in result.extra:
        doc["scan"] = result.extra["scan"]
    if result.engine == "frontier":
        doc["peak_keys"] = result.extra.get("peak_states", 0)
        doc["peak_bytes"] = result.extra.get("peak_bytes", 0)
    if result.stopped_by:
        doc["stopped_by"] = result.stopped_by
    return doc


def estimate_doc(spec: Any, search: Any, front: Any, front_error: str | None) -> dict[str, Any]:
    """An estimate as ``--json`` prints it (every figure an estimate)."""
    from polytile.solvers.estimate import interval

    doc: dict[str, Any] = {
        "puzzle": spec.name,
        "estimate": True,
        "method": "random paths down the search tree (Knuth's estimator)",
        "probes": search.probes,
        # none reached: no estimate (null), not an estimate of none
        "solutions": round(search.solutions) if search.solutions else None,
        "solutions_se": round(search.solutions_se) if search.solutions else None,
        "solutions_95": [round(x) for x in interval(search.solutions, search.solutions_se)]
        if search.solutions
        else None,
        "search_nodes": round(search.nodes),
        "search_nodes_se": round(search.nodes_se),
        "search_nodes_per_second": round(search.rate),
        "search_seconds": round(search.seconds, 3),
        "search_seconds_se": round(search.seconds_se, 3),
        "frontier": None,
        "frontier_refused": front_error,
    }
    if front is not None:
        doc["frontier"] = {"peak_keys_at_most": round(front.peak),
                           "keys_moved_at_most": round(front.moved),
                           "seconds_at_most": round(front.seconds, 3),
                           "bytes_at_most": round(front.bytes)}  # fmt: skip
    return doc


def estimate_lines(spec: Any, search: Any, front: Any, front_error: str | None) -> list[str]:
    """An estimate for people: every figure said to be one, with its spread."""
    from polytile.solvers.estimate import interval

    low, high = interval(search.solutions, search.solutions_se)
    _, shigh = interval(search.seconds, search.seconds_se)
    name = printable(spec.name)
    if search.solutions == 0:
        first = (f"{name}: no solution estimate: none of {search.probes:,} random paths "
                 "reached a solution (there may be none, or too few to meet; try more --probes)")
    else:
        first = (f"{name}: about {search.solutions:,.3g} solutions (an estimate: 95% between "
                 f"{low:,.3g} and {high:,.3g}, from {search.probes:,} random paths)")
    lines = [
        first,
        f"  search: about {search.nodes:,.3g} nodes (± {search.nodes_se:,.2g}), "
        f"{_seconds(search.seconds)} at {search.rate:,.3g} nodes/s on one worker "
        f"(95% up to {_seconds(shigh)})",
    ]
    if front is None:
        lines.append(f"  frontier engine: cannot take this puzzle ({front_error})")
    else:
        size, seconds = _size(front.bytes), _seconds(front.seconds)
        lines.append(f"  frontier engine: at most {front.peak:,.3g} keys at the widest "
                     f"({size}), about {seconds} or less")  # fmt: skip
    return lines


def _seconds(s: float) -> str:
    if s < 120:
        return f"{s:.2g} s"
    if s < 2 * 3600:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.0f} h"
    return f"{s / 86400:,.0f} days"

"""``polytile bounds`` on a City Blocks (Ritchie) position: for each colour asked for, its
best final score if the others pass, what it can make sure of, and its exact value when few
pieces are left (:mod:`polytile.puzzles.cityblocks.bounds`), with the best layout drawn."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from polytile.faces.bounds import (
    BoundsRequest,
    bounds_json,
    end_incomplete,
    incomplete,
    mark,
    not_bounded_why,
)
from polytile.faces.face import Console

__all__ = ["COLORS", "bounds"]

#: The colours, in the order ``--color all`` bounds them.
COLORS = ("blue", "yellow", "red", "green")


def bounds(console: Console, obj: Any, source: str, request: BoundsRequest) -> None:
    """Print the bounds of ``request.color`` (the colour to move by default, or every
    colour) of the position ``obj`` (read from ``source``), each colour's best layout drawn
    and a table, or JSON; a stop before every colour is bounded ends as
    :func:`~polytile.faces.bounds.end_incomplete` says."""
    from polytile.puzzles.cityblocks.bounds import bounds as search  # OR-tools: only here
    from polytile.puzzles.cityblocks.bounds import shares
    from polytile.puzzles.cityblocks.picture import score_text
    from polytile.puzzles.cityblocks.scoring import score

    color, limit, clock = request.color, request.time_limit, request.clock
    colors: tuple[str, ...] = COLORS if color == "all" else (color or obj.to_move or "blue",)
    exact_pieces = request.exact_pieces
    results = []
    # Building a model does not watch the clock: the deadline stops it, as Ctrl-C would.
    deadline = clock.deadline(limit)
    started = time.perf_counter()
    state = SimpleNamespace(done=0, total=2 * len(colors), seconds=0.0, note="", color="")

    def describe(p: Any) -> str:
        return str(p.note)

    with console.progress("bounds", True, describe) as update:

        def report(stage: str, obj: float | None, bnd: float | None, sec: float) -> None:
            if update is not None:
                state.seconds = time.perf_counter() - started
                found = "" if obj is None else f" {obj:g}, bound {bnd:g}"
                state.note = f"{state.color} {stage}{found}"
                update(state)

        searches = shares(exact_pieces)  # upper, lower, the exact value or an estimate
        try:
            with deadline:
                for k, name in enumerate(colors):
                    deadline.check()
                    state.color = name
                    left = clock.left(limit, reserve=0.3) or limit
                    each = max(left / ((len(colors) - k) * searches), 0.01)
                    found = search(obj, name, time_limit=each, workers=request.workers,
                                   seed=request.seed, exact_pieces=exact_pieces,
                                   progress=report, source=source)  # fmt: skip
                    results.append(found)
                    state.done += 2
                    if found.stopped:  # during its estimate: the colour stands, no more
                        raise KeyboardInterrupt
        except KeyboardInterrupt:
            missing = [name for name in colors if name not in {b.color for b in results}]
        else:
            missing = []
    if request.as_json:
        doc = {
            "game": "cityblocks",
            "to_move": obj.to_move or "blue",
            "players": obj.extra.get("players", 4),
            "colors": {b.color: bounds_json(b) for b in results},
        }
        console.out(json.dumps(doc | incomplete(missing, deadline.fired)))
        end_incomplete(console, missing, deadline.fired)
        return
    for b in results:
        rows = b.upper.rows
        console.out(f"{b.color}: best layout if the others pass (score {b.upper.layout_score})")
        picture = score_text(rows, score(rows))
        console.out(picture, nl=False, color="\x1b[" in picture)
        console.out()
    if results or missing:
        console.out(_table(results, missing, deadline.fired))
    for line in _notes(results):
        console.out(line)
    end_incomplete(console, missing, deadline.fired)


def _table(results: list[Any], missing: Sequence[str] = (), by_time: bool = False) -> str:
    """A row per colour asked for: its bounds, or why it has none (``missing``)."""
    lines = [f"{'colour':<8}{'now':>5}{'lower':>7}{'upper':>7}{'exact':>7}{'estimate':>10}"
             "  best next"]  # fmt: skip
    for b in results:
        exact = "-" if b.exact is None else str(b.exact.value)
        guess = "-" if b.estimate is None else f"~{b.estimate.value:.1f}"
        nxt = "pass" if b.best_next is None else str(b.best_next)
        lines.append(f"{b.color:<8}{b.score_now:>5}{mark(b.lower.value, b.lower.proven):>7}"
                     f"{mark(b.upper.value, b.upper.proven):>7}{exact:>7}{guess:>10}"
                     f"  {nxt}")  # fmt: skip
    for name in missing:
        lines.append(f"{name:<8}{'-':>5}{'-':>7}{'-':>7}{'-':>7}{'-':>10}  not bounded: "
                     f"{not_bounded_why(by_time)}")  # fmt: skip
    return "\n".join(lines)


def _notes(results: list[Any]) -> list[str]:
    out = []
    if any(not (b.lower.proven and b.upper.proven) for b in results):
        out.append("? not proven tight within the time limit; the number is still a valid bound")
    for b in results:
        if not b.upper.proven:
            out.append(f"{b.color}: the best layout found scores {b.upper.layout_score}")
        if not b.lower.proven:
            out.append(f"{b.color}: the opponents' best attack found leaves {b.lower.layout_score}")
        if b.exact_note:
            out.append(f"{b.color}: no exact value: {b.exact_note}")
        if b.estimate is not None:
            out.append(f"{b.color}: ~{b.estimate.value:.1f} is an {b.estimate.note}")
    return out

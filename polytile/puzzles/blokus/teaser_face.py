"""The Blokus teasers played on the full rules, as ``polytile solve`` and ``validate`` see
them: :data:`EIGHTY_FOUR` and :data:`ONE_COLOR`.

Both answers carry a play order (``"order"``), which the rules check
(:mod:`polytile.puzzles.blokus.teasers`) replays move by move before the answer is printed
or judged valid. (The coloured tiling teasers, four-square and its variants, are the
tiling catalogue's.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from polytile.errors import SolverError
from polytile.faces.face import Console, Option
from polytile.faces.puzzle import AnswerCheck, SolveRequest, emit_solution, give_up

__all__ = ["EIGHTY_FOUR", "ONE_COLOR", "EightyFour", "OneColor"]

_ONE_COLOR = re.compile(r"one-color-(\d+)x(\d+)")
_CPSAT_NOTES: Mapping[str, str] = {
    "seed": "{name}: searched with CP-SAT.",
    "time_limit": "{name}: 60 s by default.",
}


def _order(solution: Any) -> list[int] | None:
    """The recorded play order, when it is a list of placement indices."""
    order = solution.extra.get("order")
    if not isinstance(order, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in order
    ):
        return None
    return order


def _layout_or_exit(console: Console, name: str, search: Callable[[], Any],
                    as_json: bool) -> Any:  # fmt: skip
    """``search()`` (a layout search of :mod:`polytile.puzzles.blokus.eighty_four`); running
    out of time exits 1 and Ctrl-C exits 130, each with a message naming ``name``."""
    from polytile.puzzles.blokus.eighty_four import LayoutNotFound

    try:
        return search()
    except LayoutNotFound as exc:
        give_up(console, name, "unknown", str(exc), as_json)
    except KeyboardInterrupt:
        give_up(console, name, "interrupted", "interrupted before a layout was found", as_json)


class EightyFour(AnswerCheck):
    """All 84 Blokus pieces on the 20x20 board, with a legal play order."""

    name = "eighty-four"
    label = "eighty-four"
    help = ("the Blokus teaser: all 84 pieces of the four colours on the 20x20 board, with a "
            "legal play order (its JSON's \"order\", replayed before it is printed)")  # fmt: skip
    examples = ("polytile solve eighty-four --json > eighty-four.json",)
    notes = _CPSAT_NOTES

    def solve(self, console: Console, request: SolveRequest) -> None:
        """Lay out the 84 pieces, replay the order by the rules, print."""
        from polytile.puzzles.blokus.eighty_four import solve_eighty_four
        from polytile.puzzles.blokus.teasers import check_eighty_four

        left = request.clock.left(request.time_limit or 60.0, reserve=0.25)
        sol, order = _layout_or_exit(
            console, "eighty-four",
            lambda: solve_eighty_four(seed=request.seed, time_limit=left), request.as_json,
        )  # fmt: skip
        reasons = check_eighty_four(sol, order)
        if reasons:
            raise SolverError(f"eighty-four answer failed the rules check: {'; '.join(reasons)}")
        emit_solution(console, sol, request)
        if not request.as_json:
            console.err(f"play order (blue, yellow, red, green, ...): {len(order)} moves, "
                        "replayed and checked; --json has them")  # fmt: skip

    def check_answer(self, solution: Any, against: str,
                     recorded: bool) -> tuple[str, list[str]] | None:  # fmt: skip
        """An answer checked as eighty-four, its play order (``"order"``) replayed."""
        from polytile.puzzles.blokus.teasers import check_eighty_four

        if against != self.name:
            return None
        order = _order(solution)
        if order is None:
            return self.name, ['an eighty-four answer carries "order": a list of placement '
                               "indices"]  # fmt: skip
        return self.name, check_eighty_four(solution, order)


class OneColor(AnswerCheck):
    """One colour's 21 Blokus pieces on a square board from corner (0, 0), in a legal order."""

    name = "one-color"
    label = "one-color"
    help = ("all 21 pieces of one Blokus colour on a square board (14x14 by default, --board "
            "NxN), in a legal play order")  # fmt: skip
    examples = ("polytile solve one-color --board 14x14",)
    options = (Option("board", "A square board NxN, 10x10 to 20x20 [default: 14x14].",
                      metavar="NxN"),)  # fmt: skip
    notes = _CPSAT_NOTES

    def solve(self, console: Console, request: SolveRequest) -> None:
        """Lay out the 21 pieces, replay the order by the rules, print."""
        from polytile.board import Board
        from polytile.errors import BoardError
        from polytile.puzzles.blokus.eighty_four import solve_one_color
        from polytile.puzzles.blokus.teasers import check_one_color

        size = 14
        board = request.option("board")
        if board is not None:
            b = Board.parse_size(board)
            if b.rows != b.cols or not 10 <= b.rows <= 20:
                raise BoardError(f"one-color needs a square board from 10x10 to 20x20, got "
                                 f"{board}")  # fmt: skip
            size = b.rows
        left = request.clock.left(request.time_limit or 60.0, reserve=0.25)
        sol, order = _layout_or_exit(
            console, f"one-color {size}x{size}",
            lambda: solve_one_color(size, seed=request.seed, time_limit=left), request.as_json,
        )  # fmt: skip
        reasons = check_one_color(sol, order, size)
        if reasons:
            raise SolverError(f"one-color answer failed the rules check: {'; '.join(reasons)}")
        emit_solution(console, sol, request)

    def check_answer(self, solution: Any, against: str,
                     recorded: bool) -> tuple[str, list[str]] | None:  # fmt: skip
        """An answer whose file names a one-color board and records its play order, checked
        by replaying that order (only when no option names another puzzle)."""
        from polytile.puzzles.blokus.teasers import check_one_color

        one = _ONE_COLOR.fullmatch(solution.puzzle)
        if not recorded or one is None or solution.extra.get("order") is None:
            return None
        label = f"{solution.puzzle} (replaying the recorded play order)"
        order = _order(solution)
        if order is None:
            return label, ['a one-color answer carries "order": a list of placement indices']
        if one.group(1) != one.group(2) or (solution.rows, solution.cols) != (
            int(one.group(1)),
            int(one.group(2)),
        ):
            return label, [f"{solution.puzzle} needs a square board of that size, the file "
                           f"has {solution.rows}x{solution.cols}"]  # fmt: skip
        return label, check_one_color(solution, order, solution.rows)


#: ``polytile solve eighty-four``, as :data:`polytile.faces.registry.PUZZLES` names it.
EIGHTY_FOUR = EightyFour()
#: ``polytile solve one-color``.
ONE_COLOR = OneColor()

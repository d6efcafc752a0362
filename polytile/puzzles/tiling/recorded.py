"""Checking a teaser answer against the puzzle its own file records.

``polytile solve`` writes, with each coloured teaser answer (four-square and its variants,
``--fit`` layouts) the board (``rows``, ``cols``, ``blocked``), the touch rule and each
colour's hand (``"hands"``), so the answer can be checked later without repeating the
options it was solved with. The checks are the rules engine's own (:meth:`Teaser.check`,
:func:`check_fit`), which share no code with the solvers. (A one-color answer records its
play order instead, and is Blokus's to check: :mod:`polytile.puzzles.blokus.teaser_face`.)

Examples
--------
>>> from polytile.formats import Solution
>>> check_recorded(Solution("pentomino-6x10", 6, 10, ())) is None
True
"""

from __future__ import annotations

from polytile.board import Board
from polytile.errors import PolytileError
from polytile.formats import Solution
from polytile.geometry import Polyomino, piece

__all__ = ["check_recorded"]


def _hands(solution: Solution) -> list[list[Polyomino]] | str:
    """The recorded hands, or what is wrong with them."""
    hands = solution.extra.get("hands")
    if not isinstance(hands, list) or not all(
        isinstance(h, list) and all(isinstance(n, str) for n in h) for h in hands
    ):
        return '"hands" must be a list of lists of piece names, one list per colour'
    if not 1 <= len(hands) <= 4:
        return f'"hands" lists {len(hands)} colours; teasers have 1 to 4'
    try:
        return [[piece(n) for n in hand] for hand in hands]
    except PolytileError as exc:
        return f'"hands": {exc}'


def _touch(solution: Solution) -> str | list[str]:
    touch = solution.extra.get("touch", "local")
    if touch not in ("local", "connected", "none"):
        return [f'"touch" must be local, connected or none, not {touch!r}']
    return str(touch)


def check_recorded(solution: Solution) -> tuple[str, list[str]] | None:
    """Check ``solution`` against the teaser its file records.

    Returns
    -------
    (str, list of str) or None
        A description of the puzzle checked against (naming the recorded variant) and every
        rule broken (empty when valid); ``None`` when the file records no teaser (it
        carries no ``"hands"``).
    """
    if "hands" not in solution.extra:
        return None
    hands = _hands(solution)
    touch = _touch(solution)
    board = Board(solution.rows, solution.cols, frozenset(solution.blocked))
    names = ",".join(p.name for p in hands[0]) if not isinstance(hands, str) else "?"
    colours = len(hands) if not isinstance(hands, str) else 0
    label = (
        f"{solution.puzzle} as the file records it: {board.rows}x{board.cols} board, "
        f"{len(board.blocked)} blocked, {colours} colour(s) of {names}, touch {touch}"
    )
    if isinstance(hands, str):
        return label, [hands]
    if isinstance(touch, list):
        return label, touch
    if solution.puzzle == "fit":
        from polytile.puzzles.tiling.fit import check_fit

        return label, check_fit(solution, hands, touch)
    from polytile.puzzles.tiling.teasers import Teaser

    try:
        teaser = Teaser(solution.puzzle, board, tuple(tuple(h) for h in hands), touch)
    except (PolytileError, ValueError) as exc:
        return label, [f"the recorded teaser is impossible: {exc}"]
    return label, teaser.check(solution)

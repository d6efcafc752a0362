"""Solving a tiling puzzle or a teaser by hand, a piece at a time: the pieces a person
places, and the rules each placement must keep.

A step is refused when the rules already forbid it, whatever comes after: a piece that is
not the puzzle's (or not in that colour's hand), or whose copies are all placed; cells off
the board, on blocked cells or on a piece already there; cells that do not form the piece
(one-sided pieces are not turned over); for a teaser, an edge shared with a piece of the
same colour. The corner rules of a teaser (``local``, ``connected``) concern the whole
answer: they are checked, with everything else, by the puzzle's own checker
(:func:`~polytile.puzzles.tiling.puzzles.check_solution`, :meth:`Teaser.check`) once every
piece is placed.

Examples
--------
>>> from polytile.formats import PlacedPiece
>>> from polytile.puzzles.tiling.puzzle_file import parse_puzzle
>>> p = parse_puzzle({"format": "polytile/puzzle@1", "board": ["...", "..."],
...                   "pieces": ["I3", "I3"]})
>>> [(h.name, h.count) for h in hand(p)]
[('I3', 2)]
>>> top = PlacedPiece("I3", ((0, 0), (0, 1), (0, 2)))
>>> step_problems(p, [], top)
[]
>>> step_problems(p, [top], PlacedPiece("I3", ((0, 0), (1, 0), (2, 0))))
['cell (0, 0) is taken by I3', 'cell (2, 0) is off the 2x3 board']
"""

from __future__ import annotations

from collections.abc import Sequence

from polytile.errors import ShapeError
from polytile.formats import PlacedPiece
from polytile.geometry import Polyomino
from polytile.puzzles.tiling.puzzles import TilingPuzzle
from polytile.puzzles.tiling.teasers import COLOR_NAMES, Teaser, _tally
from polytile.store.kinds import HandPiece

__all__ = ["hand", "step_problems"]

_EDGE = ((1, 0), (-1, 0), (0, 1), (0, -1))


def hand(puzzle: TilingPuzzle | Teaser) -> tuple[HandPiece, ...]:
    """The pieces a person places (a puzzle's given pieces are in place already): each
    shape once, with its colour (a teaser's) and how many copies there are."""
    if isinstance(puzzle, Teaser):
        return tuple(
            HandPiece(shape.name, COLOR_NAMES[k], n, shape)
            for k, pieces in enumerate(puzzle.pieces)
            for shape, n in zip(*_tally(pieces), strict=True)
        )
    p = puzzle.problem
    return tuple(HandPiece(t.name, None, n, t, p.one_sided)
                 for t, n in zip(p.types, p.counts, strict=True))  # fmt: skip


def _label(name: str, color: str | None) -> str:
    return f"{color} {name}" if color else name


def step_problems(
    puzzle: TilingPuzzle | Teaser, placed: Sequence[PlacedPiece], step: PlacedPiece
) -> list[str]:
    """Why ``step`` may not follow the pieces ``placed`` so far (empty: it may).

    Parameters
    ----------
    puzzle
        The puzzle solved.
    placed
        The pieces placed by hand so far, each of which passed this check in turn.
    step
        The piece to place next: its name, colour (a teaser's; None otherwise) and cells.

    Notes
    -----
    Linear in the cells placed so far.
    """
    what = _label(step.piece, step.color)
    found = [h for h in hand(puzzle) if (h.name, h.color) == (step.piece, step.color)]
    if not found:
        names = ", ".join(_label(h.name, h.color) for h in hand(puzzle))
        return [f"{what} is not one of the puzzle's pieces ({names})"]
    piece = found[0]
    used = sum((pp.piece, pp.color) == (step.piece, step.color) for pp in placed)
    if used >= piece.count:
        every = "placed" if piece.count == 1 else "all placed"
        return [f"the puzzle has {piece.count} {what}, {every} already"]
    layout = puzzle.layout
    owner = {c: pp for pp in (*puzzle.given, *placed) for c in pp.cells}
    reasons = []
    for cell in step.cells:
        if cell not in layout:
            reasons.append(f"cell {cell} is off the {layout.describe_size()} board")
        elif not layout.is_open(*cell):
            reasons.append(f"cell {cell} is blocked")
        elif cell in owner:
            there = owner[cell]
            reasons.append(f"cell {cell} is taken by {_label(there.piece, there.color)}")
    if len(set(step.cells)) != len(step.cells):
        reasons.append("a cell is listed twice")
    try:
        shape = Polyomino(tuple(set(step.cells)))
    except ShapeError:
        reasons.append(f"the cells are not edge-connected: they do not form {what}")
    else:
        if shape not in piece.shape.orientations(piece.one_sided):
            turned = " (it may not be turned over)" if (
                piece.one_sided and shape in piece.shape.orientations()) else ""  # fmt: skip
            reasons.append(f"the cells do not form {what}{turned}")
    if reasons or step.color is None:
        return reasons
    for r, c in step.cells:  # a teaser: no edge with a piece of the same colour
        for dr, dc in _EDGE:
            other = owner.get((r + dr, c + dc))
            if other is not None and other.color == step.color:
                other_name = _label(other.piece, other.color)
                reasons.append(f"it would share an edge with {other_name} at {(r, c)}: "
                               "pieces of one colour never share an edge")  # fmt: skip
                return reasons
    return reasons

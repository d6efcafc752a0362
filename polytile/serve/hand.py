"""Solving a stored puzzle by hand on the web board, a piece at a time.

The page keeps its own placements (one list per tab: nothing is kept on the server) and
sends them all with every step; :func:`by_hand` reads them and has the puzzle's kind
(:class:`~polytile.store.kinds.ByHandKind`) check each in turn, so a placement the page
sends is never taken on trust. A placement the rules forbid is refused with their reasons;
once every piece is placed, the whole answer goes through the kind's rules checker (the
check ``polytile validate --puzzle`` makes) before the page is told it is solved.
"""

from __future__ import annotations

from typing import Any

from polytile.formats import PlacedPiece
from polytile.serve.board import BoardError
from polytile.serve.store import Shelf
from polytile.serve.turning import orientations
from polytile.text import printable

__all__ = ["CELL", "MOST_NAME", "by_hand", "orientations", "read_placed"]

#: Side of a cell in the pictures of a puzzle solved by hand, in pixels.
CELL = 32
#: Longest piece or colour name read from a request.
MOST_NAME = 40
#: Largest coordinate read from a request (the rules say a cell is off the board).
MOST_COORDINATE = 10_000

def read_placed(doc: Any, most_pieces: int, most_cells: int) -> list[PlacedPiece]:
    """The placements a request sends: ``[{"piece": NAME, "color": COLOUR or null,
    "cells": [[row, col], ...]}, ...]``, read without judging them by the rules.

    Raises
    ------
    BoardError
        When the list is not of that shape, or longer than the pieces or a piece's cells.
    """
    form = (
        '"placed" must be a list of {"piece": NAME, "color": COLOUR or null, '
        '"cells": [[row, col], ...]}'
    )
    if not isinstance(doc, list):
        raise BoardError(form)
    if len(doc) > most_pieces:
        raise BoardError(f"{len(doc)} placements sent: the puzzle has {most_pieces} pieces "
                         "to place")  # fmt: skip
    placed = []
    for i, entry in enumerate(doc):
        where = f"placement {i + 1}"
        if not isinstance(entry, dict):
            raise BoardError(f"{where}: {form}")
        name, color, cells = entry.get("piece"), entry.get("color"), entry.get("cells")
        if not isinstance(name, str) or not 0 < len(name) <= MOST_NAME:
            raise BoardError(f'{where}: "piece" must name a piece (at most {MOST_NAME} '
                             "characters)")  # fmt: skip
        if color is not None and (not isinstance(color, str) or not 0 < len(color) <= MOST_NAME):
            raise BoardError(f'{where}: "color" must name a colour, or be null')
        if not isinstance(cells, list) or not 0 < len(cells) <= most_cells:
            raise BoardError(f'{where}: "cells" must list 1 to {most_cells} cells')
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 2 and all(
                    isinstance(v, int) and not isinstance(v, bool)
                    and abs(v) <= MOST_COORDINATE for v in cell)):  # fmt: skip
                raise BoardError(f"{where}: a cell is [row, col], whole numbers from "
                                 f"-{MOST_COORDINATE} to {MOST_COORDINATE}")  # fmt: skip
        placed.append(PlacedPiece(name, tuple((r, c) for r, c in cells), color))
    return placed


def by_hand(shelf: Shelf, index: int, puzzle_id: int, placed_doc: Any) -> dict[str, Any]:
    """Puzzle ``puzzle_id`` of store ``index`` with the placements ``placed_doc`` (see
    :func:`read_placed`), each checked by the rules in turn.

    Returns
    -------
    dict
        ``svg`` (the board with the given and placed pieces, the last one highlighted),
        ``cells`` (where the picture draws each cell, by ``"row,col"``), ``pieces`` (each
        with its ``name``, ``color``, ``count``, ``left`` and ``orientations``), ``placed``,
        ``left`` (copies still to place), ``solved`` (every piece placed and the whole
        answer accepted by the rules checker) and the puzzle's ``id``, ``kind`` and
        ``caption``.

    Raises
    ------
    BoardError
        For no such store or puzzle (404), a kind not solved by hand, a malformed list, a
        placement the rules refuse (naming why), or every piece placed in an answer the
        rules checker refuses.
    """
    from polytile.render import to_svg
    from polytile.render.svg import cell_boxes
    from polytile.store.kinds import ByHandKind
    from polytile.store.kinds import kind as find_kind

    sp = shelf.stored(index, puzzle_id)
    kind = find_kind(sp.kind)
    if not isinstance(kind, ByHandKind):
        raise BoardError(f"puzzle {sp.id} is a {sp.kind} puzzle: those are not solved by hand "
                         "on the board")  # fmt: skip
    puzzle = sp.puzzle
    pieces = kind.hand(puzzle)
    total = sum(p.count for p in pieces)
    placed = read_placed(placed_doc, total, max((p.shape.size for p in pieces), default=0))
    for i, step in enumerate(placed):
        reasons = kind.step_problems(puzzle, placed[:i], step)
        if reasons:
            what = f"{step.color} {step.piece}" if step.color else step.piece
            at = "" if i == len(placed) - 1 else f"placement {i + 1} of {len(placed)}: "
            raise BoardError(printable(f"{at}{what} not placed: {'; '.join(reasons)}"))
    answer = kind.placed_answer(puzzle, placed)
    solved = len(placed) == total
    if solved:
        problems = kind.check_answer(puzzle, answer)
        if problems:
            raise BoardError(printable("every piece would be placed, but the rules refuse the "
                                       f"answer: {'; '.join(problems)}"))  # fmt: skip
    boxes = cell_boxes(answer, CELL)
    rows = [{"name": p.name, "color": p.color, "count": p.count,
             "left": p.count - sum((q.piece, q.color) == (p.name, p.color) for q in placed),
             "orientations": orientations(p.shape, p.one_sided)} for p in pieces]  # fmt: skip
    return {
        "id": sp.id,
        "kind": sp.kind,
        "caption": kind.caption(puzzle),
        "svg": to_svg(answer, CELL, highlight=placed[-1].cells if placed else ()),
        "cells": {f"{r},{c}": box for (r, c), box in boxes.items()},
        "pieces": rows,
        "placed": [
            {"piece": q.piece, "color": q.color, "cells": [list(c) for c in q.cells]}
            for q in placed
        ],
        "left": total - len(placed),
        "solved": solved,
    }

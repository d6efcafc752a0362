"""Independent rules checks for the Blokus teasers played on the full rules: "eighty-four".

:func:`check_eighty_four` judges an answer to the teaser "eighty-four" (all 84 pieces on the
20x20 board, seeds/blokus.md 8.2) together with its play order, and
:func:`check_one_color` the one-colour variant (one colour's 21 pieces on a smaller board).
Both read only cells, names and colours, and replay the order move by move; they share no
code with the solvers, so a solver bug cannot hide behind them.

Every violation is reported, each naming the placement (its index in
``solution.placements``, colour and piece) or the turn at fault. Properties that do not
depend on the order (shapes, overlaps, same-colour edges, the piece set, connectivity) are
reported once; the replay adds only what the order decides (whose turn it is, first pieces on
the start corners, corner contact with an earlier piece).

Examples
--------
>>> from polytile.formats import PlacedPiece, Solution
>>> s = Solution("eighty-four", 20, 20, (PlacedPiece("I1", ((0, 0),), "blue"),))
>>> reasons = check_eighty_four(s, [0])
>>> reasons[0][:60]
'blue: pieces not placed: F5, I2, I3, I4, I5, L4, L5, N5, O4,'
>>> reasons[-1]
'order has 1 turns, expected 84 (B, Y, R, G repeating, no passes)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from polytile.errors import ShapeError, UnknownNameError
from polytile.formats import COLORS, PlacedPiece, Solution
from polytile.geometry import Cell, Polyomino, piece, piece_set

__all__ = ["BOARD_SIZE", "START_CORNERS", "check_eighty_four", "check_one_color"]

#: Side of the Blokus board.
BOARD_SIZE = 20
#: Each colour's start corner on the 20x20 board (seeds/blokus.md 2.2).
START_CORNERS: Mapping[str, Cell] = {
    "blue": (0, 0),
    "yellow": (0, BOARD_SIZE - 1),
    "red": (BOARD_SIZE - 1, BOARD_SIZE - 1),
    "green": (BOARD_SIZE - 1, 0),
}

_EDGE = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def check_eighty_four(solution: Solution, order: Sequence[int]) -> list[str]:
    """Every way an "eighty-four" answer breaks the rules; an empty list means it is valid.

    Parameters
    ----------
    solution
        The 84 placed pieces, each with its colour.
    order
        The play order: indices into ``solution.placements``, one per turn, colours
        blue, yellow, red, green repeating, no passes.

    Returns
    -------
    list of str
        One message per violation: board size, unknown colours or pieces, cells outside the
        board or not forming the named piece, overlaps, a colour's pieces not being exactly
        the 21 Blokus pieces, same-colour edge contact, start corners not covered, a colour not
        forming one corner-connected group, and, replaying the order, turns out of colour
        order, first pieces off their start corner and pieces touching no earlier piece of
        their colour at a corner.

    Notes
    -----
    O(cells) with dictionaries; no solver involved.
    """
    return _check(solution, order, tuple(COLORS), dict(START_CORNERS), BOARD_SIZE)


def check_one_color(
    solution: Solution,
    order: Sequence[int],
    board_size: int = 14,
    color: str = "blue",
    start: Cell = (0, 0),
) -> list[str]:
    """Like :func:`check_eighty_four`, for one colour's 21 pieces on a smaller square board.

    Parameters
    ----------
    solution
        The 21 placed pieces, all of colour ``color``.
    order
        Play order (every turn is that colour's).
    board_size
        Side of the square board.
    color, start
        The colour and its start cell.
    """
    return _check(solution, order, (color,), {color: start}, board_size)


def _check(
    solution: Solution,
    order: Sequence[int],
    colors: tuple[str, ...],
    starts: dict[str, Cell],
    side: int,
) -> list[str]:
    reasons: list[str] = []
    if (solution.rows, solution.cols) != (side, side):
        reasons.append(f"the board is {solution.rows}x{solution.cols}, expected {side}x{side}")
    if solution.blocked:
        reasons.append(f"the board has blocked cells {list(solution.blocked)[:5]}; it has none")
    places = solution.placements
    labels = [f"placement {i} ({pp.color} {pp.piece})" for i, pp in enumerate(places)]
    cells: list[list[Cell]] = [[(int(r), int(c)) for r, c in pp.cells] for pp in places]
    for i, pp in enumerate(places):
        reasons.extend(_shape_problems(labels[i], pp.piece, cells[i], pp.color, colors, side))
    owner: dict[Cell, int] = {}
    for i, cs in enumerate(cells):
        for cell in cs:
            j = owner.setdefault(cell, i)
            if j != i:
                reasons.append(f"{labels[i]}: overlaps placement {j} at cell {cell}")
    reasons.extend(_piece_set_problems(places, colors))
    reasons.extend(_edge_problems(places, cells, owner, labels))
    reasons.extend(_group_problems(places, cells, owner, colors, starts))
    reasons.extend(_replay_problems(places, cells, labels, order, colors, starts))
    return reasons


def _shape_problems(
    label: str, name: str, cells: list[Cell], color: str | None, colors: tuple[str, ...], side: int
) -> list[str]:
    out: list[str] = []
    if color not in colors:
        out.append(f"{label}: colour {color!r} is not one of {', '.join(colors)}")
    outside = [c for c in cells if not (0 <= c[0] < side and 0 <= c[1] < side)]
    if outside:
        out.append(f"{label}: cells {outside} lie outside the {side}x{side} board")
    if len(set(cells)) != len(cells):
        out.append(f"{label}: lists a cell twice")
    try:
        shape = piece(name)
    except UnknownNameError:
        out.append(f"{label}: unknown piece name {name!r}")
        return out
    try:
        placed = Polyomino(tuple(set(cells)))
    except ShapeError:
        out.append(f"{label}: its cells are empty or not edge-connected")
        return out
    if placed not in shape.orientations():
        out.append(f"{label}: its cells do not form piece {name}")
    return out


def _piece_set_problems(places: Sequence[PlacedPiece], colors: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    want = Counter(p.name for p in piece_set("blokus"))
    for color in colors:
        have = Counter(pp.piece for pp in places if pp.color == color)
        missing = sorted((want - have).elements())
        extra = sorted((have - want).elements())
        if missing:
            out.append(f"{color}: pieces not placed: {', '.join(missing)}")
        if extra:
            out.append(f"{color}: pieces beyond its set of 21: {', '.join(extra)}")
    return out


def _edge_problems(
    places: Sequence[PlacedPiece],
    cells: list[list[Cell]],
    owner: dict[Cell, int],
    labels: list[str],
) -> list[str]:
    out: list[str] = []
    seen: set[tuple[int, int]] = set()
    for i, cs in enumerate(cells):
        color = places[i].color
        for r, c in cs:
            for dr, dc in _EDGE:
                j = owner.get((r + dr, c + dc))
                if j is None or j == i or places[j].color != color:
                    continue
                key = (min(i, j), max(i, j))
                if key not in seen:
                    seen.add(key)
                    a, b = key
                    out.append(
                        f"{labels[a]} and {labels[b]} share an edge "
                        f"({(r, c)} next to {(r + dr, c + dc)}); same colour may only "
                        "touch at corners"
                    )
    return out


def _corner_touch(a: list[Cell], b: set[Cell]) -> bool:
    return any((r + dr, c + dc) in b for r, c in a for dr, dc in _DIAGONAL)


def _group_problems(
    places: Sequence[PlacedPiece],
    cells: list[list[Cell]],
    owner: dict[Cell, int],
    colors: tuple[str, ...],
    starts: dict[str, Cell],
) -> list[str]:
    out: list[str] = []
    for color in colors:
        members = [i for i, pp in enumerate(places) if pp.color == color]
        if not members:
            continue
        start = starts[color]
        root = owner.get(start)
        if root is None or places[root].color != color:
            out.append(f"{color}: no {color} piece covers its start corner {start}")
            root = members[0]
        seen = {root}
        todo = [root]
        while todo:
            i = todo.pop()
            for r, c in cells[i]:
                for dr, dc in (*_DIAGONAL, *_EDGE):
                    j = owner.get((r + dr, c + dc))
                    if j is not None and j not in seen and places[j].color == color:
                        seen.add(j)
                        todo.append(j)
        cut = sorted(set(members) - seen)
        if cut:
            out.append(
                f"{color}: pieces {cut} are not corner-connected to the group on its start "
                f"corner {start}"
            )
    return out


def _replay_problems(
    places: Sequence[PlacedPiece],
    cells: list[list[Cell]],
    labels: list[str],
    order: Sequence[int],
    colors: tuple[str, ...],
    starts: dict[str, Cell],
) -> list[str]:
    out: list[str] = []
    n = len(places)
    expected = 21 * len(colors)
    if len(order) != expected:
        letters = ", ".join(COLORS.get(c, c) for c in colors)
        extra = ", no passes" if len(colors) > 1 else ""
        out.append(
            f"order has {len(order)} turns, expected {expected} ({letters} repeating{extra})"
        )
    listed: set[int] = set()
    played: dict[str | None, set[Cell]] = {}  # cells of each colour's pieces played so far
    for t, i in enumerate(order):
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n:
            out.append(f"turn {t}: {i!r} is not a placement index (0 to {n - 1})")
            continue
        if i in listed:
            out.append(f"turn {t}: placement {i} was already played")
            continue
        listed.add(i)
        mover = colors[t % len(colors)]
        color = places[i].color
        where = f"turn {t} ({labels[i]})"
        if color != mover:
            out.append(f"{where}: it is {mover}'s turn, not {color}'s")
        own = played.setdefault(color, set())
        if not own:
            start = starts.get(color) if color is not None else None
            if start is not None and start not in cells[i]:
                out.append(
                    f"{where}: {color}'s first piece does not cover its start corner {start}"
                )
        elif not _corner_touch(cells[i], own):
            out.append(f"{where}: does not touch an earlier {color} piece at a corner")
        own.update(cells[i])
    missing = sorted(set(range(n)) - listed)
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
        out.append(f"placements never played: {shown}")
    return out

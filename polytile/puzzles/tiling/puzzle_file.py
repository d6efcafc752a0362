"""Tiling puzzle files (``polytile/puzzle@1``): reading them, with their piece supplies, and
writing a puzzle back.

A document::

    {"format": "polytile/puzzle@1", "name": "...", "board": ["....", ".##."],
     "pieces": [...], "one_sided": false, "given": [...], "description": "..."}

Each ``pieces`` entry is a Blokus piece name (``"L4"``), a set name (``"pentominoes"``), or an
object: ``{"name": "A", "shape": ["##", "#."], "count": 2}`` (``shape`` for a piece of your
own), ``{"set": "tetrominoes", "count": "*"}`` (every piece of a set), or a choice
``{"choose": 10, "of": [entries]}``. A ``count`` is a number of copies (all placed), a range
``"0-2"`` (at least 0, at most 2 placed) or ``"*"`` (as many as fit); a choice places that
many copies from its list in all (``"choose": "8-10"`` a range). The board is covered
exactly; pieces may be left over where the supply allows it.

On the other grids (``"grid": "triangle"``, ``"hex"`` or ``"cube"``, see
:mod:`polytile.grids`) the board and the shapes are drawn in that grid's text form (spaces
are not cells on the triangle and hex grids; a cube drawing shows its layers side by side),
or the board is a size: ``"6x6"`` (a parallelogram of triangles or hexagons), ``"3x3x3"``
(a box of cubes). Pieces of the cube grid turn by rotations only, as solid pieces do
(``"one_sided": false`` lets them be mirrored too); ``"symmetry"`` names the group the
count up to symmetry is taken under (as ``count --symmetry``), by default "mirror-pieces"
for cubes whose set holds each piece's mirror twin (the literature's convention: a mirror
image of a solution turns each piece into its twin), else "board".
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from polytile.board import Board
from polytile.errors import BoardError, FormatError, ShapeError, SymmetryError, UnknownNameError
from polytile.formats import PlacedPiece
from polytile.geometry import PIECE_SETS, Polyomino, piece, piece_set
from polytile.grids import GRIDS
from polytile.grids import grid as grid_of
from polytile.puzzles.tiling.puzzles import PUZZLE_FORMAT, TilingPuzzle
from polytile.solvers.problem import SYMMETRIES
from polytile.solvers.tiling import PieceGroup, TilingProblem

__all__ = ["PUZZLE_FORMAT", "parse_count", "parse_pieces", "parse_puzzle", "puzzle_doc"]

#: The most copies of one piece a file may ask for.
MOST_COPIES = 1000


@dataclass
class _Supply:
    """One piece type as read: its shape, fewest and most copies, and its choice if any."""

    shape: Polyomino
    low: int
    high: int | None  # None: as many as fit ("*")
    group: int | None = None
    where: str = ""


def _field(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...], source: str) -> Any:
    if key not in doc:
        raise FormatError(f"missing field {key!r}", source, key)
    value = doc[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise FormatError(f"field {key!r} has the wrong type {type(value).__name__}", source, key)
    return value


def _check_fits(shape: list[str], board: Board, where: str, source: str) -> None:
    """Refuse a drawn piece that cannot fit on ``board`` before building it: its extent
    longer than the board's longer side or wider than its shorter side, or more squares
    than the board has open (a huge drawing would otherwise take minutes to turn)."""
    if board.grid != "square":
        cells = sum(len(r) - r.count(".") - r.count(" ") for r in shape)
        if cells > board.n_open:
            raise FormatError(f"the piece drawn has {cells} cells but the board only "
                              f"{board.n_open} open ones: it cannot fit", source, where)
        return
    rows = [i for i, r in enumerate(shape) if "#" in r]
    if not rows:
        return  # an empty drawing: Polyomino.from_text says what is wrong
    left = min(r.index("#") for r in shape if "#" in r)
    right = max(r.rindex("#") for r in shape if "#" in r)
    height, width = rows[-1] - rows[0] + 1, right - left + 1
    squares = sum(r.count("#") for r in shape)
    open_cells = board.rows * board.cols - len(board.blocked)
    if (
        max(height, width) > max(board.rows, board.cols)
        or min(height, width) > min(board.rows, board.cols)
        or squares > open_cells
    ):
        raise FormatError(
            f"the piece drawn is {height}x{width} with {squares} squares: it cannot fit on "
            f"the {board.describe_size()} board ({open_cells} open cells)",
            source,
            where,
        )


_RANGE = re.compile(r"\s*(\d+)\s*-\s*(\d+)\s*")


def parse_count(value: Any, what: str = "'count'") -> tuple[int, int | None]:
    """A count as (fewest, most): a number ``n`` is (n, n), ``"a-b"`` is (a, b), ``"*"`` is
    (0, None) (as many as fit).

    Raises
    ------
    ValueError
        Saying what a count may be.

    Examples
    --------
    >>> parse_count(3), parse_count("0-2"), parse_count("*")
    ((3, 3), (0, 2), (0, None))
    """
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MOST_COPIES:
        return value, value
    if value == "*":
        return 0, None
    match = _RANGE.fullmatch(value) if isinstance(value, str) else None
    if match:
        low, high = int(match.group(1)), int(match.group(2))
        if low <= high and 1 <= high <= MOST_COPIES:
            return low, high
    raise ValueError(f"{what} is a number of copies from 1 to {MOST_COPIES}, a range such as "
                     f"\"0-2\" (fewest-most, most at least 1) or \"*\" (as many as fit), not "
                     f"{value!r}")  # fmt: skip


def _entry(entry: Any, where: str, source: str, board: Board,
           group: int | None = None) -> list[_Supply]:  # fmt: skip
    """The piece types of one ``pieces`` entry (a choice's members get ``group``)."""
    try:
        if isinstance(entry, str):
            if entry.lower() in PIECE_SETS:
                return [_Supply(p, 1, 1, group, where) for p in _set_on(entry, board, where,
                                                                       source)]
            return [_Supply(_named(entry, board), 1, 1, group, where)]
        if not isinstance(entry, dict):
            raise FormatError("a piece is a name, a set name or an object {name, shape, count}, "
                              "{set, count} or {choose, of}", source, where)  # fmt: skip
        try:
            low, high = parse_count(entry.get("count", 1))
        except ValueError as exc:
            raise FormatError(str(exc), source, where) from None
        if "set" in entry:
            name = entry["set"]
            if not isinstance(name, str) or name.lower() not in PIECE_SETS:
                raise FormatError(f"'set' names one of the sets {', '.join(sorted(PIECE_SETS))}",
                                  source, where)  # fmt: skip
            return [_Supply(p, low, high, group, where)
                    for p in _set_on(name, board, where, source)]  # fmt: skip
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise FormatError("a piece needs a non-empty string 'name'", source, where)
        if "shape" in entry:
            shape = entry["shape"]
            if not isinstance(shape, list) or not all(isinstance(r, str) for r in shape):
                raise FormatError("'shape' must be a list of strings", source, where)
            _check_fits(shape, board, where, source)
            return [_Supply(Polyomino.from_text(shape, name, board.grid), low, high, group,
                            where)]  # fmt: skip
        return [_Supply(_named(name, board), low, high, group, where)]
    except (ShapeError, UnknownNameError) as exc:
        raise FormatError(str(exc), source, where) from exc


def _set_on(name: str, board: Board, where: str, source: str) -> tuple[Polyomino, ...]:
    """The pieces of a named set, refused if they live on another grid than the board."""
    pieces = piece_set(name)
    if pieces and pieces[0].grid != board.grid:
        raise FormatError(f"set {name!r} holds {pieces[0].grid} pieces but the board is on the "
                          f"{board.grid} grid (give \"grid\": \"{pieces[0].grid}\")", source,
                          where)  # fmt: skip
    return pieces


def _named(name: str, board: Board) -> Polyomino:
    """A piece by name: a Blokus piece on squares, a piece of a named set on other grids."""
    if board.grid == "square":
        return piece(name)
    known = {p.name.lower(): p for set_name in PIECE_SETS for p in piece_set(set_name)
             if p.grid == board.grid}  # fmt: skip
    if name.strip().lower() not in known:
        raise UnknownNameError(f"{board.grid} piece", name, sorted(p.name for p in known.values()))
    return known[name.strip().lower()]


def _supplies(entries: list[Any], source: str, board: Board,
              one_sided: bool) -> tuple[list[_Supply], list[tuple[int, int]]]:  # fmt: skip
    """Every piece type of ``pieces`` (one per shape, copies added up) and the choices'
    ranges of copies."""
    found: list[_Supply] = []
    choices: list[tuple[int, int]] = []
    for i, entry in enumerate(entries):
        where = f"pieces[{i}]"
        if isinstance(entry, dict) and "choose" in entry:
            members = entry.get("of")
            if not isinstance(members, list) or not members:
                raise FormatError("a choice is {\"choose\": N, \"of\": [pieces]}", source, where)
            try:
                least, most = parse_count(entry["choose"], "'choose'")
            except ValueError as exc:
                raise FormatError(str(exc), source, where) from None
            choices.append((least, most if most is not None else MOST_COPIES))
            for j, member in enumerate(members):
                for s in _entry(member, f"{where}.of[{j}]", source, board, len(choices) - 1):
                    s.low = 0  # a choice's pieces may be left out: the choice counts them
                    found.append(s)
        else:
            found += _entry(entry, where, source, board)
    merged: dict[Polyomino, _Supply] = {}
    named: dict[str, tuple[Polyomino, str]] = {}  # each name's shape and where it came first
    for s in found:
        key = s.shape.canonical_one_sided() if one_sided else s.shape.canonical()
        first, where = named.setdefault(s.shape.name, (key, s.where))
        if first != key:
            raise FormatError(f"two different shapes are named {s.shape.name!r} ({where} and "
                              f"this one); give each shape its own name", source,
                              s.where)  # fmt: skip
        if key not in merged:
            merged[key] = s
            continue
        have = merged[key]
        if have.shape.name != s.shape.name:
            raise FormatError(f"pieces {have.shape.name!r} and {s.shape.name!r} are the same "
                              "shape; give one name with a count", source, s.where)  # fmt: skip
        if have.group is not None or s.group is not None:
            raise FormatError(f"piece {s.shape.name!r} is in a choice and listed again: list it "
                              "once", source, s.where)  # fmt: skip
        have.low += s.low
        have.high = None if have.high is None or s.high is None else have.high + s.high
    return list(merged.values()), choices


#: The widest board a piece of a pieces file may be drawn for.
_PIECES_BOARD = Board(64, 64)


def parse_pieces(doc: Any, source: str = "<string>") -> list[tuple[Polyomino, int | None]]:
    """The pieces of a file's ``pieces`` list, each shape with its most copies (None: as
    many as wanted), as a puzzle file writes them: any JSON object with a ``pieces`` list,
    a puzzle file included (its board and givens are not read). A choice's members count
    with their own copies.

    Raises
    ------
    FormatError
        Naming the source and the entry at fault.

    Examples
    --------
    >>> [(p.name, most) for p, most in parse_pieces({"pieces": ["I3", {"name": "A",
    ...     "shape": ["##"], "count": "0-2"}]})]
    [('I3', 1), ('A', 2)]
    """
    if not isinstance(doc, dict):
        raise FormatError("a pieces file holds a JSON object with a 'pieces' list", source)
    if doc.get("one_sided"):
        raise FormatError("one-sided pieces are not generated from yet: give pieces that may "
                          "be turned over (drop 'one_sided')", source, "one_sided")  # fmt: skip
    entries = _field(doc, "pieces", list, source)
    supplies, _ = _supplies(entries, source, _PIECES_BOARD, False)
    if not supplies:
        raise FormatError("the file lists no pieces", source, "pieces")
    return [(s.shape, s.high) for s in supplies]


def parse_puzzle(doc: Any, source: str = "<string>") -> TilingPuzzle:
    """A puzzle from a decoded ``polytile/puzzle@1`` document (the module's docstring).

    Raises
    ------
    FormatError
        Naming the source and the field at fault.
    """
    if not isinstance(doc, dict):
        raise FormatError("a puzzle file holds a JSON object", source)
    fmt = doc.get("format")
    if fmt != PUZZLE_FORMAT:
        raise FormatError(f"expected format {PUZZLE_FORMAT!r}, got {fmt!r}", source, "format")
    grid_name = doc.get("grid", "square")
    try:
        grid_name = grid_of(grid_name).name if isinstance(grid_name, str) else None
    except UnknownNameError as exc:
        raise FormatError(str(exc), source, "grid") from None
    if grid_name is None:
        raise FormatError(f"'grid' names one of {', '.join(GRIDS)}", source, "grid")
    board = _read_board(doc, grid_name, source)
    entries = _field(doc, "pieces", list, source)
    one_sided = doc.get("one_sided", grid_name == "cube")  # a solid piece cannot be mirrored
    if not isinstance(one_sided, bool):
        raise FormatError("'one_sided' must be true or false", source, "one_sided")
    supplies, choices = _supplies(entries, source, board, one_sided)
    if not supplies:
        raise FormatError("a puzzle needs at least one piece", source, "pieces")
    name = doc.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise FormatError("'name' must be a string", source, "name")
    given = _read_given(doc.get("given", []), board, supplies, choices, one_sided, source)
    taken = {c for g in given for c in g.cells}
    left = dataclasses.replace(board, blocked=board.blocked | taken)
    unlimited = frozenset(s.shape.name for s in supplies if s.high is None)
    for s in supplies:  # "as many as fit": as many as the open cells left could take
        if s.high is None:
            s.high = max(left.n_open // s.shape.size, s.low, 1)
    kept = [s for s in supplies if s.high]
    index = {id(s): t for t, s in enumerate(kept)}
    groups = tuple(PieceGroup(tuple(index[id(s)] for s in kept if s.group == g), least, most)
                   for g, (least, most) in enumerate(choices))  # fmt: skip
    try:
        problem = TilingProblem(left, tuple(s.shape for s in kept),
                                tuple(s.high or 0 for s in kept), one_sided,
                                low=tuple(s.low for s in kept),
                                groups=tuple(g for g in groups if g.types))  # fmt: skip
    except (BoardError, ValueError) as exc:
        raise FormatError(str(exc), source, "pieces") from exc
    problem = _with_symmetry(problem, doc.get("symmetry"), source)
    return TilingPuzzle(name, problem, str(doc.get("description", "")), given=given,
                        unlimited=unlimited)


def _read_board(doc: dict[str, Any], grid_name: str, source: str) -> Board:
    """The ``board`` field: rows of text, or a size such as ``"6x10"`` or ``"3x3x3"``."""
    if isinstance(doc.get("board"), str):
        try:
            return Board.parse_size(doc["board"], grid_name)
        except BoardError as exc:
            raise FormatError(str(exc), source, "board") from exc
    rows = _field(doc, "board", list, source)
    allowed = set(".#") if grid_name == "square" else set(".# ")
    for i, row in enumerate(rows):
        if not isinstance(row, str) or set(row) - allowed:
            said = "" if grid_name == "square" else ", spaces outside the board"
            raise FormatError(f"board rows are strings of '.' (open) and '#' (blocked){said}",
                              source, f"board[{i}]")  # fmt: skip
    try:
        return Board.from_text(rows, grid=grid_name)
    except BoardError as exc:
        raise FormatError(str(exc), source, "board") from exc


def _with_symmetry(problem: TilingProblem, said: Any, source: str) -> TilingProblem:
    """The problem with the group its count up to symmetry is taken under: the file's
    ``symmetry``, else the literature's for solid pieces, else the board's."""
    if said is None:
        if problem.board.grid != "cube" or not problem.one_sided:
            return problem
        try:
            return dataclasses.replace(problem, symmetries="mirror-pieces")
        except SymmetryError:
            return problem  # a set without every mirror twin: rotations of the box only
    if not isinstance(said, str) or said not in SYMMETRIES:
        raise FormatError(f"'symmetry' is one of {', '.join(SYMMETRIES)}", source, "symmetry")
    try:
        return dataclasses.replace(problem, symmetries=said)
    except SymmetryError as exc:
        raise FormatError(str(exc), source, "symmetry") from None


def _read_given(entries: Any, board: Board, supplies: list[_Supply],
                choices: list[tuple[int, int]], one_sided: bool,
                source: str) -> tuple[PlacedPiece, ...]:  # fmt: skip
    """The pre-placed pieces of a puzzle file; each takes a copy from its supply and from
    its choice, if any (in place: one fewer at most, and at least)."""
    if not isinstance(entries, list):
        raise FormatError("'given' must be a list of placed pieces", source, "given")
    by_name = {s.shape.name: s for s in supplies}
    given: list[PlacedPiece] = []
    seen: dict[tuple[int, ...], int] = {}
    for i, entry in enumerate(entries):
        where = f"given[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("piece"), str):
            raise FormatError(
                'a given piece is {"piece": NAME, "cells": [[r, c], ...]}', source, where
            )
        cells_doc = entry.get("cells")
        dims = 3 if board.grid == "cube" else 2
        if not isinstance(cells_doc, list) or not all(
            isinstance(c, list)
            and len(c) == dims
            and all(isinstance(v, int) and not isinstance(v, bool) for v in c)
            for c in cells_doc
        ):
            said = "[layer, row, col] triples" if dims == 3 else "[row, col] pairs"
            raise FormatError(f"'cells' must be a list of {said}", source, where)
        cells = tuple(tuple(int(v) for v in c) for c in cells_doc)
        supply = by_name.get(entry["piece"])
        if supply is None or supply.high == 0:
            raise FormatError(
                f"given piece {entry['piece']!r} is not among the puzzle's pieces (or all "
                "its copies are given already)",
                source,
                where,
            )
        bad = [c for c in cells if c not in board or not board.is_open(*c)]
        if bad:
            raise FormatError(f"cells {bad} are outside the board or blocked", source, where)
        try:
            shape = Polyomino(tuple(set(cells)), "", board.grid)
        except ShapeError as exc:
            raise FormatError(str(exc), source, where) from exc
        if len(set(cells)) != len(cells) or shape not in supply.shape.orientations(one_sided):
            raise FormatError(f"the cells do not form piece {entry['piece']}", source, where)
        for c in cells:
            if c in seen:
                raise FormatError(f"cell {c} is also covered by given[{seen[c]}]", source, where)
            seen[c] = i
        if supply.high is not None:
            supply.high -= 1
        supply.low = max(supply.low - 1, 0)
        if supply.group is not None:  # the choice has one fewer to place
            least, most = choices[supply.group]
            choices[supply.group] = (max(least - 1, 0), most - 1)
        given.append(PlacedPiece(entry["piece"], cells))
    return tuple(given)


def _count_text(low: int, high: int) -> int | str:
    return low if low == high else f"{low}-{high}"


def puzzle_doc(puzzle: TilingPuzzle) -> dict[str, Any]:
    """The ``polytile/puzzle@1`` document of a puzzle (:func:`parse_puzzle` reads it back).

    Pieces are written by name when they are the standard piece of that name, else with
    their shape, and with their supply; the given pieces are listed among the pieces and
    again under ``given``; the choices as ``{"choose", "of"}``.
    """
    problem = puzzle.problem
    given = Counter(g.piece for g in puzzle.given)
    shapes = {t.name: t for t in problem.types}
    on = problem.board.grid
    for g in puzzle.given:
        shapes.setdefault(g.piece, Polyomino(tuple(g.cells), g.piece, on))
    supply = {t.name: (lo + given[t.name], c + given[t.name])
              for t, lo, c in zip(problem.types, problem.low, problem.counts, strict=True)}
    for name, n in given.items():
        supply.setdefault(name, (n, n))

    def entry(name: str) -> Any:
        low, high = supply[name]
        try:
            standard = _named(name, problem.board).canonical() == shapes[name].canonical()
        except UnknownNameError:
            standard = False
        if standard and low == high == 1:
            return name
        out: dict[str, Any] = {"name": name}
        if not standard:
            out["shape"] = shapes[name].to_text().splitlines()
        out["count"] = _count_text(low, high)
        return out

    chosen = {problem.types[t].name: k for k, group in enumerate(problem.groups)
              for t in group.types}  # fmt: skip
    pieces: list[Any] = [entry(name) for name in supply if name not in chosen]
    for k, group in enumerate(problem.groups):
        members = [member for member, at in chosen.items() if at == k]
        back = sum(given[member] for member in members)  # the choice's copies given in place
        for member in members:  # in a choice, a piece may be left out: its least is 0
            supply[member] = (0, supply[member][1])
        pieces.append({"choose": _count_text(group.low + back, group.high + back),
                       "of": [entry(member) for member in members]})  # fmt: skip
    doc: dict[str, Any] = {"format": PUZZLE_FORMAT, "name": puzzle.name}
    if on != "square":
        doc["grid"] = on
    doc.update(board=puzzle.layout.to_text(), pieces=pieces)
    if problem.one_sided != (on == "cube"):
        doc["one_sided"] = problem.one_sided
    if problem.symmetries != _with_symmetry(dataclasses.replace(problem, symmetries="board"),
                                            None, "").symmetries:
        doc["symmetry"] = problem.symmetries
    if puzzle.given:
        doc["given"] = [
            {"piece": g.piece, "cells": [list(c) for c in g.cells]} for g in puzzle.given
        ]
    if puzzle.description:
        doc["description"] = puzzle.description
    return doc

"""Tiling puzzles: declarations, the named catalogue, puzzle files and the rules check.

A tiling puzzle is data: a board (with blocked cells) and a multiset of pieces that must
cover every open cell exactly once. Known solution counts sit beside each declaration and are
checked by the tests, like perft numbers in chess.

Examples
--------
>>> from polytile.puzzles.tiling.puzzles import get_puzzle
>>> p = get_puzzle("pentomino-6x10")
>>> p.board.rows, p.board.cols, p.problem.n_pieces, p.known_count, p.known_count_up_to_symmetry
(6, 10, 12, 9356, 2339)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from polytile.board import Board, Placements
from polytile.errors import BoardError, FormatError, ShapeError, UnknownNameError
from polytile.formats import PlacedPiece, Solution
from polytile.geometry import PIECE_SETS, Polyomino, piece, piece_set
from polytile.solvers.tiling import TilingProblem

if TYPE_CHECKING:
    from polytile.puzzles.tiling.teasers import Teaser

__all__ = [
    "CATALOGUE",
    "TilingPuzzle",
    "check_solution",
    "get_puzzle",
    "parse_puzzle",
    "placed_solution",
    "puzzle_doc",
    "to_solution",
]

PUZZLE_FORMAT = "polytile/puzzle@1"


@dataclass(frozen=True)
class TilingPuzzle:
    """A named tiling puzzle with its known counts (``None`` where not known).

    Counts are raw (every placement of every piece counted, identical copies
    indistinguishable) and up to the board's symmetries.
    """

    name: str
    problem: TilingProblem
    description: str = ""
    known_count: int | None = None
    known_count_up_to_symmetry: int | None = None
    given: tuple[PlacedPiece, ...] = ()

    @property
    def board(self) -> Board:
        """The board left to fill: blocked cells and the given pieces' cells are closed."""
        return self.problem.board

    @property
    def layout(self) -> Board:
        """The board as printed: only its blocked cells are closed (givens sit on open cells)."""
        taken = {tuple(c) for g in self.given for c in g.cells}
        b = self.problem.board
        return Board(b.rows, b.cols, frozenset(b.blocked - taken))

    def to_solution(
        self, pl: Placements, indices: Sequence[int], status: str = "feasible", **extra: Any
    ) -> Solution:
        """The solution document for placement indices (see :func:`to_solution`)."""
        return to_solution(self, pl, indices, status, **extra)

    def solution_of(
        self, placed: Sequence[PlacedPiece], status: str = "feasible", **extra: Any
    ) -> Solution:
        """The solution document holding the given pieces and ``placed`` (not checked)."""
        return placed_solution(self, placed, status, extra)

    def check(self, solution: Solution) -> list[str]:
        """Every rule the solution breaks (see :func:`check_solution`)."""
        return check_solution(solution, self)

    def piece_names(self) -> list[str]:
        """Every piece copy's name still to place, types in order."""
        return [
            t.name
            for t, n in zip(self.problem.types, self.problem.counts, strict=True)
            for _ in range(n)
        ]

    def all_piece_names(self) -> list[str]:
        """Every piece copy's name, the given ones included."""
        return self.piece_names() + [g.piece for g in self.given]


def _catalogue() -> dict[str, TilingPuzzle]:
    pent = piece_set("pentominoes")
    tet = piece_set("tetrominoes")
    holed = Board(8, 8, frozenset((r, c) for r in (3, 4) for c in (3, 4)))
    entries = [
        (
            "pentomino-6x10",
            Board(6, 10),
            pent,
            (),
            9356,
            2339,
            "the 12 pentominoes in a 6x10 rectangle",
        ),
        (
            "pentomino-5x12",
            Board(5, 12),
            pent,
            (),
            4040,
            1010,
            "the 12 pentominoes in a 5x12 rectangle",
        ),
        (
            "pentomino-4x15",
            Board(4, 15),
            pent,
            (),
            1472,
            368,
            "the 12 pentominoes in a 4x15 rectangle",
        ),
        ("pentomino-3x20", Board(3, 20), pent, (), 8, 2, "the 12 pentominoes in a 3x20 rectangle"),
        (
            "pentomino-8x8-hole",
            holed,
            pent,
            (),
            520,
            65,
            "the 12 pentominoes in an 8x8 square without its centre 2x2",
        ),
        # Counted by the frontier engine along the short side and along the long side, and
        # as the sum of the 13 subtrees of the search's first piece; Burnside's Fix(g) by
        # the search and by folding (benchmarks/verify_tetromino_8x10.py, docs/counting.md).
        (
            "tetromino-8x10",
            Board(8, 10),
            tet,
            (4,) * 5,
            6_818_063_454,
            1_704_534_200,
            "the 20 Blokus tetrominoes (4 each of I4 O4 T4 L4 Z4) in 8x10, colours ignored",
        ),
        # Repeated shapes, where the frontier engine counts what the search must visit one by
        # one. Raw counts as published (T-tetrominoes: OEIS A174249; dominoes: A004003);
        # every count here equals both engines' (tests/solvers/test_frontier.py).
        ("tetromino-pairs-5x8", Board(5, 8), tet, (2,) * 5, 3106, 783,
         "two of each Blokus tetromino (I4 O4 T4 L4 Z4) in 5x8"),
        ("t-tetromino-8x20", Board(8, 20), (piece("T4"),), (40,), 234_390, 58_851,
         "40 T-tetrominoes in 8x20"),
        ("t-tetromino-8x24", Board(8, 24), (piece("T4"),), (48,), 3_300_852, 826_245,
         "48 T-tetrominoes in 8x24"),
        ("t-tetromino-12x16", Board(12, 16), (piece("T4"),), (48,), 5_253_822, 1_314_780,
         "48 T-tetrominoes in 12x16"),
        ("l-tetromino-4x20", Board(4, 20), (piece("L4"),), (20,), 1_224_182, 306_751,
         "20 L-tetrominoes in 4x20"),
        ("domino-8x8", Board(8, 8), (piece("I2"),), (32,), 12_988_816, 1_629_189,
         "32 dominoes on the 8x8 chessboard"),
    ]
    return {
        name: TilingPuzzle(name, TilingProblem(board, pieces, counts), desc, raw, up)
        for name, board, pieces, counts, raw, up, desc in entries
    }


CATALOGUE: dict[str, TilingPuzzle] = _catalogue()


def get_puzzle(name: str) -> TilingPuzzle:
    """A catalogue puzzle by name.

    Raises
    ------
    UnknownNameError
        Listing the catalogue, if the name is not in it.
    """
    if name not in CATALOGUE:
        raise UnknownNameError("puzzle", name, sorted(CATALOGUE))
    return CATALOGUE[name]


# -- puzzle files ------------------------------------------------------------------------
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
            f"the {board.rows}x{board.cols} board ({open_cells} open cells)",
            source,
            where,
        )


def _piece_entry(
    entry: Any, where: str, source: str, board: Board | None = None
) -> list[tuple[Polyomino, int]]:
    """Pieces from one ``pieces`` entry: a piece name, a set name, or a {name, shape, count}."""
    try:
        if isinstance(entry, str):
            if entry.lower() in PIECE_SETS:
                return [(p, 1) for p in piece_set(entry)]
            return [(piece(entry), 1)]
        if isinstance(entry, dict):
            name = entry.get("name")
            if not isinstance(name, str) or not name:
                raise FormatError("a piece needs a non-empty string 'name'", source, where)
            count = entry.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 1000:
                raise FormatError("'count' must be an integer from 1 to 1000", source, where)
            if "shape" in entry:
                shape = entry["shape"]
                if not isinstance(shape, list) or not all(isinstance(r, str) for r in shape):
                    raise FormatError("'shape' must be a list of strings", source, where)
                if board is not None:
                    _check_fits(shape, board, where, source)
                return [(Polyomino.from_text(shape, name), count)]
            return [(piece(name), count)]
    except (ShapeError, UnknownNameError) as exc:
        raise FormatError(str(exc), source, where) from exc
    raise FormatError("a piece is a name or an object {name, shape, count}", source, where)


def parse_puzzle(doc: Any, source: str = "<string>") -> TilingPuzzle:
    """A puzzle from a decoded ``polytile/puzzle@1`` document.

    The document: ``{"format": "polytile/puzzle@1", "name": "...", "board": [rows],
    "pieces": [...], "one_sided": false}`` where each piece is a Blokus piece name, a set name
    (``"pentominoes"``), or ``{"name": "A", "shape": ["##", "#."], "count": 2}``.

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
    rows = _field(doc, "board", list, source)
    for i, row in enumerate(rows):
        if not isinstance(row, str) or set(row) - set(".#"):
            raise FormatError(
                "board rows are strings of '.' (open) and '#' (blocked)", source, f"board[{i}]"
            )
    try:
        board = Board.from_text(rows)
    except BoardError as exc:
        raise FormatError(str(exc), source, "board") from exc
    entries = _field(doc, "pieces", list, source)
    counts: dict[Polyomino, int] = {}
    one_sided = doc.get("one_sided", False)
    if not isinstance(one_sided, bool):
        raise FormatError("'one_sided' must be true or false", source, "one_sided")
    types: dict[Polyomino, Polyomino] = {}
    named: dict[str, tuple[Polyomino, str]] = {}  # each name's shape and where it came first
    for i, entry in enumerate(entries):
        for shape, n in _piece_entry(entry, f"pieces[{i}]", source, board):
            key = shape.canonical_one_sided() if one_sided else shape.canonical()
            first, where = named.setdefault(shape.name, (key, f"pieces[{i}]"))
            if first != key:
                raise FormatError(f"two different shapes are named {shape.name!r} ({where} and "
                                  f"this one); give each shape its own name", source,
                                  f"pieces[{i}]")  # fmt: skip
            if key in types and types[key].name != shape.name:
                raise FormatError(
                    f"pieces {types[key].name!r} and {shape.name!r} are the same shape; "
                    "give one name with a count",
                    source,
                    f"pieces[{i}]",
                )
            types.setdefault(key, shape)
            counts[key] = counts.get(key, 0) + n
    if not types:
        raise FormatError("a puzzle needs at least one piece", source, "pieces")
    name = doc.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise FormatError("'name' must be a string", source, "name")
    given = _read_given(doc.get("given", []), board, types, counts, one_sided, source)
    taken = {c for g in given for c in g.cells}
    left = [(t, counts[k]) for k, t in types.items() if counts[k] > 0]
    try:
        problem = TilingProblem(
            Board(board.rows, board.cols, board.blocked | taken),
            tuple(t for t, _ in left),
            tuple(n for _, n in left),
            one_sided,
        )
    except (BoardError, ValueError) as exc:
        raise FormatError(str(exc), source, "pieces") from exc
    return TilingPuzzle(name, problem, str(doc.get("description", "")), given=given)


def _read_given(
    entries: Any,
    board: Board,
    types: dict[Polyomino, Polyomino],
    counts: dict[Polyomino, int],
    one_sided: bool,
    source: str,
) -> tuple[PlacedPiece, ...]:
    """The pre-placed pieces of a puzzle file; takes each from ``counts`` (in place)."""
    if not isinstance(entries, list):
        raise FormatError("'given' must be a list of placed pieces", source, "given")
    by_name = {t.name: key for key, t in types.items()}
    given: list[PlacedPiece] = []
    seen: dict[tuple[int, int], int] = {}
    for i, entry in enumerate(entries):
        where = f"given[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("piece"), str):
            raise FormatError(
                'a given piece is {"piece": NAME, "cells": [[r, c], ...]}', source, where
            )
        cells_doc = entry.get("cells")
        if not isinstance(cells_doc, list) or not all(
            isinstance(c, list)
            and len(c) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in c)
            for c in cells_doc
        ):
            raise FormatError("'cells' must be a list of [row, col] pairs", source, where)
        cells = tuple((int(r), int(c)) for r, c in cells_doc)
        key = by_name.get(entry["piece"])
        if key is None or counts[key] == 0:
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
            shape = Polyomino(tuple(set(cells)))
        except ShapeError as exc:
            raise FormatError(str(exc), source, where) from exc
        if len(set(cells)) != len(cells) or shape not in types[key].orientations(one_sided):
            raise FormatError(f"the cells do not form piece {entry['piece']}", source, where)
        for c in cells:
            if c in seen:
                raise FormatError(f"cell {c} is also covered by given[{seen[c]}]", source, where)
            seen[c] = i
        counts[key] -= 1
        given.append(PlacedPiece(entry["piece"], cells))
    return tuple(given)


def puzzle_doc(puzzle: TilingPuzzle) -> dict[str, Any]:
    """The ``polytile/puzzle@1`` document of a puzzle (:func:`parse_puzzle` reads it back).

    Pieces are written by name when they are the standard piece of that name, else with
    their shape; the given pieces are listed among the pieces and again under ``given``.
    """
    names = Counter(puzzle.all_piece_names())
    shapes = {t.name: t for t in puzzle.problem.types}
    for g in puzzle.given:
        shapes.setdefault(g.piece, Polyomino(tuple(g.cells), g.piece))
    pieces: list[Any] = []
    for name, n in names.items():
        try:
            standard = piece(name).canonical() == shapes[name].canonical()
        except UnknownNameError:
            standard = False
        if standard and n == 1:
            pieces.append(name)
        elif standard:
            pieces.append({"name": name, "count": n})
        else:
            pieces.append({"name": name, "shape": shapes[name].to_text().splitlines(), "count": n})
    doc: dict[str, Any] = {
        "format": PUZZLE_FORMAT,
        "name": puzzle.name,
        "board": puzzle.layout.to_text(),
        "pieces": pieces,
    }
    if puzzle.problem.one_sided:
        doc["one_sided"] = True
    if puzzle.given:
        doc["given"] = [
            {"piece": g.piece, "cells": [list(c) for c in g.cells]} for g in puzzle.given
        ]
    if puzzle.description:
        doc["description"] = puzzle.description
    return doc


# -- solutions ---------------------------------------------------------------------------
def placed_solution(puzzle: TilingPuzzle | Teaser, placed: Sequence[PlacedPiece], status: str,
                    extra: Mapping[str, Any]) -> Solution:  # fmt: skip
    """The solution document of ``puzzle`` (a tiling puzzle or a teaser) holding its given
    pieces and ``placed``, not checked."""
    return Solution(
        puzzle=puzzle.name,
        rows=puzzle.board.rows,
        cols=puzzle.board.cols,
        placements=puzzle.given + tuple(placed),
        status=status,
        blocked=tuple(sorted(puzzle.layout.blocked)),
        extra=extra,
    )


def to_solution(
    puzzle: TilingPuzzle,
    pl: Placements,
    indices: Sequence[int],
    status: str = "feasible",
    **extra: Any,
) -> Solution:
    """The solution document for placement indices of ``pl`` (placements of the puzzle)."""
    placed = [PlacedPiece(pl.pieces[int(pl.piece[i])].name, tuple(pl.coords_of(i)))
              for i in indices]  # fmt: skip
    return puzzle.solution_of(placed, status, **extra)


def _shape_for(name: str, puzzle: TilingPuzzle | None) -> Polyomino | None:
    if puzzle is not None:
        for t in puzzle.problem.types:
            if t.name == name:
                return t
        for g in puzzle.given:
            if g.piece == name:
                return Polyomino(tuple(g.cells), name)
        return None
    try:
        return piece(name)
    except UnknownNameError:
        return None


def check_solution(solution: Solution, puzzle: TilingPuzzle | None = None) -> list[str]:
    """Every way ``solution`` breaks the tiling rules; an empty list means it is valid.

    Independent of every solver: it looks only at the cells. Checks that each placement's
    cells lie inside the board, avoid blocked cells, and form the named piece in one of its
    allowed orientations; that no cell is covered twice; and, given a puzzle, that the board
    matches, every open cell is covered and the pieces are exactly the puzzle's.
    """
    reasons: list[str] = []
    rows, cols = solution.rows, solution.cols
    blocked = set(map(tuple, solution.blocked))
    one_sided = False
    if puzzle is not None:
        one_sided = puzzle.problem.one_sided
        if (rows, cols) != (puzzle.board.rows, puzzle.board.cols):
            reasons.append(
                f"the board is {rows}x{cols} but puzzle {puzzle.name} is "
                f"{puzzle.board.rows}x{puzzle.board.cols}"
            )
        blocked |= puzzle.layout.blocked
    owner: dict[tuple[int, int], int] = {}
    for i, pp in enumerate(solution.placements):
        label = f"placement {i} ({pp.piece})"
        cells: list[tuple[int, int]] = [(int(r), int(c)) for r, c in pp.cells]
        outside = [c for c in cells if not (0 <= c[0] < rows and 0 <= c[1] < cols)]
        if outside:
            reasons.append(f"{label}: cells {outside} lie outside the {rows}x{cols} board")
        on_blocked = sorted(c for c in cells if c in blocked)
        if on_blocked:
            reasons.append(f"{label}: covers blocked cells {on_blocked}")
        if len(set(cells)) != len(cells):
            reasons.append(f"{label}: lists a cell twice")
        shape = _shape_for(pp.piece, puzzle)
        if shape is None and puzzle is not None and _shape_for(pp.piece, None) is not None:
            reasons.append(f"{label}: {pp.piece} is a known piece but not one of puzzle "
                           f"{puzzle.name}'s pieces")  # fmt: skip
        elif shape is None:
            reasons.append(f"{label}: unknown piece name {pp.piece!r}")
        elif cells:
            try:
                placed = Polyomino(tuple(set(cells)))
            except ShapeError:
                reasons.append(f"{label}: its cells are not edge-connected")
            else:
                if placed not in shape.orientations(one_sided):
                    reasons.append(f"{label}: its cells do not form piece {pp.piece}")
        for c in cells:
            if c in owner and owner[c] != i:
                reasons.append(f"{label}: overlaps placement {owner[c]} at cell {c}")
            owner.setdefault(c, i)
    if puzzle is not None:
        empty = [
            (r, c)
            for r in range(rows)
            for c in range(cols)
            if (r, c) not in blocked and (r, c) not in owner
        ]
        if empty:
            shown = ", ".join(map(str, empty[:10])) + (" ..." if len(empty) > 10 else "")
            reasons.append(f"{len(empty)} open cells are not covered: {shown}")
        laid = {(pp.piece, frozenset(map(tuple, pp.cells))) for pp in solution.placements}
        for g in puzzle.given:
            if (g.piece, frozenset(map(tuple, g.cells))) not in laid:
                reasons.append(f"given piece {g.piece} at {list(g.cells)} was moved or removed")
        want = Counter(puzzle.all_piece_names())
        have = Counter(pp.piece for pp in solution.placements)
        if want != have:
            missing = want - have
            extra = have - want
            if missing:
                reasons.append(f"pieces not placed: {dict(missing)}")
            if extra:
                reasons.append(f"pieces placed beyond the puzzle's set: {dict(extra)}")
    return reasons

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

import dataclasses
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from polytile.board import Board, Placements
from polytile.errors import ShapeError, UnknownNameError
from polytile.formats import PlacedPiece, Solution
from polytile.geometry import Polyomino, piece, piece_set
from polytile.solvers.tiling import TilingProblem

if TYPE_CHECKING:
    from polytile.puzzles.tiling.teasers import Teaser

__all__ = [
    "CATALOGUE",
    "TilingPuzzle",
    "check_solution",
    "get_puzzle",
    "placed_solution",
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
    #: The piece types whose supply is "as many as fit" (``"*"``), by name: their ``counts``
    #: are the most the open cells take, and a tray says "any number". Not compared, so a
    #: puzzle equals the one its file (which writes the range) reads back as.
    unlimited: frozenset[str] = field(default=frozenset(), compare=False)

    @property
    def board(self) -> Board:
        """The board left to fill: blocked cells and the given pieces' cells are closed."""
        return self.problem.board

    @property
    def layout(self) -> Board:
        """The board as printed: only its blocked cells are closed (givens sit on open cells)."""
        taken = {tuple(c) for g in self.given for c in g.cells}
        b = self.problem.board
        return dataclasses.replace(b, blocked=frozenset(b.blocked - taken))

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
    found = {
        name: TilingPuzzle(name, TilingProblem(board, pieces, counts), desc, raw, up)
        for name, board, pieces, counts, raw, up, desc in entries
    }
    return found | _other_grids()


def _other_grids() -> dict[str, TilingPuzzle]:
    """Puzzles of the triangle, hex and cube grids, with the literature's counts: distinct
    solutions up to the board's symmetries, for solid pieces (which turn by rotations only)
    up to every symmetry of the box, a mirror turning each piece into its twin. Every count
    here equals both engines' (tests/puzzles/tiling/test_grid_puzzles.py)."""
    entries = [
        ("hexiamond-6x6", "triangle", "6x6", "hexiamonds", 624, 156,
         "the 12 hexiamonds in a 6x6 rhombus (72 triangles)"),
        ("hexiamond-4x9", "triangle", "4x9", "hexiamonds", 148, 74,
         "the 12 hexiamonds in a 4x9 parallelogram"),
        ("hexiamond-3x12", "triangle", "3x12", "hexiamonds", 0, 0,
         "the 12 hexiamonds in a 3x12 parallelogram: impossible"),
        ("tetrahex-4x7", "hex", "4x7", "tetrahexes", 18, 9,
         "the 7 tetrahexes in a 4x7 parallelogram (28 hexagons)"),
        ("soma-cube", "cube", "3x3x3", "soma", 11_520, 240,
         "the 7 Soma pieces in a 3x3x3 cube"),
        ("solid-pentomino-2x3x10", "cube", "2x3x10", "solid-pentominoes", 96, 12,
         "the 12 solid pentominoes in a 2x3x10 box"),
        ("solid-pentomino-2x5x6", "cube", "2x5x6", "solid-pentominoes", 2_112, 264,
         "the 12 solid pentominoes in a 2x5x6 box"),
        ("solid-pentomino-3x4x5", "cube", "3x4x5", "solid-pentominoes", 31_520, 3_940,
         "the 12 solid pentominoes in a 3x4x5 box"),
    ]  # fmt: skip
    found = {}
    for name, on, size, pieces, raw, up, desc in entries:
        solid = on == "cube"  # solid pieces turn by rotations; a mirror swaps twins
        problem = TilingProblem(Board.parse_size(size, on), piece_set(pieces), one_sided=solid,
                                symmetries="mirror-pieces" if solid else "board")  # fmt: skip
        found[name] = TilingPuzzle(name, problem, desc, raw, up)
    return found


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


# -- solutions ---------------------------------------------------------------------------
def placed_solution(puzzle: TilingPuzzle | Teaser, placed: Sequence[PlacedPiece], status: str,
                    extra: Mapping[str, Any]) -> Solution:  # fmt: skip
    """The solution document of ``puzzle`` (a tiling puzzle or a teaser) holding its given
    pieces and ``placed``, not checked. The given pieces come first, and the extra field
    ``given`` lists their indices, so that pictures mark them (docs/formats.md)."""
    if puzzle.given:
        extra = {**extra, "given": list(range(len(puzzle.given)))}
    return Solution(
        puzzle=puzzle.name,
        rows=puzzle.board.rows,
        cols=puzzle.board.cols,
        placements=puzzle.given + tuple(placed),
        status=status,
        blocked=tuple(sorted(puzzle.layout.blocked)),
        extra=extra,
        grid=puzzle.board.grid,
        layers=puzzle.board.layers,
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
                return Polyomino(tuple(g.cells), name, puzzle.board.grid)
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
    on = solution.grid
    extent = (solution.layers, rows, cols) if on == "cube" else (rows, cols)
    size = "x".join(map(str, extent))
    blocked = set(map(tuple, solution.blocked))
    one_sided = False
    if puzzle is not None:
        one_sided = puzzle.problem.one_sided
        board = puzzle.board
        if on != board.grid:
            reasons.append(f"the solution is on the {on} grid but puzzle {puzzle.name} on the "
                           f"{board.grid} grid")  # fmt: skip
        if (size, on) != (board.describe_size(), board.grid):
            reasons.append(f"the board is {size} but puzzle {puzzle.name} is "
                           f"{board.describe_size()}")  # fmt: skip
        blocked |= puzzle.layout.blocked
    owner: dict[tuple[int, ...], int] = {}
    for i, pp in enumerate(solution.placements):
        label = f"placement {i} ({pp.piece})"
        cells: list[tuple[int, ...]] = [tuple(int(x) for x in c) for c in pp.cells]
        outside = [c for c in cells if len(c) != len(extent)
                   or not all(0 <= x < n for x, n in zip(c, extent, strict=True))]  # fmt: skip
        if outside:
            reasons.append(f"{label}: cells {outside} lie outside the {size} board")
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
        elif cells and not outside:
            try:
                placed = Polyomino(tuple(set(cells)), "", on)
            except ShapeError:
                reasons.append(f"{label}: its cells are not "
                               f"{'face' if on == 'cube' else 'edge'}-connected")
            else:
                if placed not in shape.orientations(one_sided):
                    reasons.append(f"{label}: its cells do not form piece {pp.piece}")
        for c in cells:
            if c in owner and owner[c] != i:
                reasons.append(f"{label}: overlaps placement {owner[c]} at cell {c}")
            owner.setdefault(c, i)
    if puzzle is not None:
        empty = [cell for cell in itertools.product(*map(range, extent))
                 if cell not in blocked and cell not in owner]  # fmt: skip
        if empty:
            shown = ", ".join(map(str, empty[:10])) + (" ..." if len(empty) > 10 else "")
            reasons.append(f"{len(empty)} open cells are not covered: {shown}")
        laid = {(pp.piece, frozenset(map(tuple, pp.cells))) for pp in solution.placements}
        for g in puzzle.given:
            if (g.piece, frozenset(map(tuple, g.cells))) not in laid:
                reasons.append(f"given piece {g.piece} at {list(g.cells)} was moved or removed")
        reasons += _marked_reasons(solution, puzzle)
        reasons += _supply_reasons(puzzle, Counter(pp.piece for pp in solution.placements))
    return reasons


def _marked_reasons(solution: Solution, puzzle: TilingPuzzle) -> list[str]:
    """Whether the placements the solution's ``given`` field marks (if it has one) are the
    pieces the puzzle gives in place: a picture marks them as given."""
    marked = solution.extra.get("given")
    if not isinstance(marked, list):
        return []
    placed = solution.placements
    said = {(placed[i].piece, frozenset(placed[i].cells)) for i in marked
            if isinstance(i, int) and 0 <= i < len(placed)}  # fmt: skip
    wanted = {(g.piece, frozenset(g.cells)) for g in puzzle.given}
    if said == wanted:
        return []

    def listed(pieces: set[tuple[str, frozenset[tuple[int, ...]]]]) -> str:
        return ", ".join(sorted(name for name, _ in pieces)) or "none"

    return [f"its field 'given' marks {listed(said - wanted)} as given in place, which puzzle "
            f"{puzzle.name} does not give (it gives {listed(wanted)})" if said - wanted else
            f"its field 'given' leaves out given pieces {listed(wanted - said)} of puzzle "
            f"{puzzle.name}"]  # fmt: skip


def _supply_reasons(puzzle: TilingPuzzle, have: Counter[str]) -> list[str]:
    """How the pieces placed (given ones included) fall outside the puzzle's supply: copies
    missing or beyond it, per piece, and choices not met."""
    problem = puzzle.problem
    given = Counter(g.piece for g in puzzle.given)
    low = {t.name: lo + given[t.name] for t, lo in zip(problem.types, problem.low, strict=True)}
    high = {t.name: c + given[t.name]
            for t, c in zip(problem.types, problem.counts, strict=True)}  # fmt: skip
    for name, n in given.items():
        low.setdefault(name, n)
        high.setdefault(name, n)
    missing = {n: low[n] - have[n] for n in low if have[n] < low[n]}
    extra = {n: have[n] - high.get(n, 0) for n in have if have[n] > high.get(n, 0)}
    reasons = []
    if missing:
        reasons.append(f"pieces not placed: {missing}")
    if extra:
        reasons.append(f"pieces placed beyond the puzzle's set: {extra}")
    for group in problem.groups:
        names = [problem.types[t].name for t in group.types]
        used = sum(have[n] for n in names)
        if not group.low <= used <= group.high:
            wanted = group.low if group.low == group.high else f"{group.low} to {group.high}"
            reasons.append(f"{used} pieces placed of the choice {', '.join(names)}, which "
                           f"takes {wanted}")  # fmt: skip
    return reasons

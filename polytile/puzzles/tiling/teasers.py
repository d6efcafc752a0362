"""Coloured tiling teasers: the Blokus brain teaser "four-square" and its variants.

The 20 Blokus tetrominoes (I4 O4 T4 L4 Z4 in each of the four colours) must tile an 8x10
rectangle exactly, same-colour pieces never sharing an edge. Touch rule ``local`` (the
default): every piece corner-touches a piece of its colour; ``connected``: each colour's
pieces form one corner-connected group. Board, colours and pieces are parameters, so the
same code solves other boards (with blocked cells) and piece lists. The teasers played on
the full Blokus rules, with a play order (eighty-four, one-color), are Blokus's own
(:mod:`polytile.puzzles.blokus.teaser_face`).

A teaser becomes a coloured :class:`~polytile.solvers.tiling.TilingProblem` for the bitboard
kernel; :meth:`Teaser.check` is the independent rules check every printed answer passes.

Examples
--------
>>> from polytile.puzzles.tiling.teasers import four_square
>>> t = four_square()
>>> t.board.rows, t.board.cols, t.problem.n_pieces, t.touch
(8, 10, 20, 'local')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from polytile.board import Board, Placements
from polytile.errors import BoardError
from polytile.formats import COLORS, PlacedPiece, Solution
from polytile.geometry import Polyomino, piece_set
from polytile.puzzles.tiling.puzzles import TilingPuzzle, check_solution, placed_solution
from polytile.solvers.tiling import TOUCH_RULES, Coloring, TilingProblem

__all__ = ["COLOR_NAMES", "Teaser", "four_square"]

#: Colour names in turn order; colour index k is ``COLOR_NAMES[k]``.
COLOR_NAMES: tuple[str, ...] = tuple(COLORS)

_EDGE = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class Teaser:
    """A coloured tiling teaser: each colour's pieces tile the board together.

    Parameters
    ----------
    name
        Label used in solution files.
    board
        The board; blocked cells stay empty.
    pieces
        The piece list of each colour, colour 0 (blue) first.
    touch
        ``"local"``, ``"connected"`` or ``"none"`` (see the module notes).

    Raises
    ------
    BoardError
        If the pieces' area differs from the open cells, or there are more than 4 colours.
    """

    name: str
    board: Board
    pieces: tuple[tuple[Polyomino, ...], ...]
    touch: str = "local"

    def __post_init__(self) -> None:
        if not 1 <= len(self.pieces) <= len(COLOR_NAMES):
            raise BoardError(f"a teaser has 1 to {len(COLOR_NAMES)} colours")
        if self.touch not in TOUCH_RULES:
            raise ValueError(f"touch must be one of {', '.join(TOUCH_RULES)}, got {self.touch!r}")
        self.problem  # noqa: B018 - validates the area now, not at first use

    #: No published counts for teasers: ``polytile count`` computes them.
    known_count = None
    known_count_up_to_symmetry = None

    @property
    def n_colors(self) -> int:
        """Number of colours."""
        return len(self.pieces)

    @property
    def layout(self) -> Board:
        """The board as printed (as for tiling puzzles; a teaser gives no pieces in place)."""
        return self.board

    #: Pieces given in place: none (as for tiling puzzles).
    given: ClassVar[tuple[PlacedPiece, ...]] = ()

    def piece_names(self) -> list[str]:
        """Every piece's name, colour by colour."""
        return [p.name for hand in self.pieces for p in hand]

    all_piece_names = piece_names

    @cached_property
    def problem(self) -> TilingProblem:
        """The coloured tiling problem for the kernel (types are colour x shape)."""
        types: list[Polyomino] = []
        counts: list[int] = []
        colors: list[int] = []
        for k, hand in enumerate(self.pieces):
            hand_types, hand_counts = _tally(hand)
            types.extend(hand_types)
            counts.extend(hand_counts)
            colors.extend([k] * len(hand_types))
        same = len({tuple(sorted(p.canonical().cells for p in h)) for h in self.pieces}) == 1
        return TilingProblem(
            self.board,
            tuple(types),
            tuple(counts),
            coloring=Coloring(tuple(colors), self.n_colors, self.touch, interchangeable=same),
        )

    # -- solutions -----------------------------------------------------------------------
    def to_solution(
        self, pl: Placements, indices: Sequence[int], status: str = "feasible", **extra: Any
    ) -> Solution:
        """The solution document for placement indices of the problem's placements."""
        coloring = self.problem.coloring
        assert coloring is not None  # built with one; not a validation
        placed = [
            PlacedPiece(
                pl.pieces[int(pl.piece[i])].name,
                tuple(pl.coords_of(i)),
                COLOR_NAMES[coloring.colors[int(pl.piece[i])]],
            )
            for i in indices
        ]
        return self.solution_of(placed, status, **extra)

    def solution_of(
        self, placed: Sequence[PlacedPiece], status: str = "feasible", **extra: Any
    ) -> Solution:
        """The solution document holding ``placed`` (not checked)."""
        # the hands with the board and touch rule: enough to check the answer from the file
        hands = {"touch": self.touch, "hands": self.hand_names(), **extra}
        return placed_solution(self, placed, status, hands)

    def hand_names(self) -> list[list[str]]:
        """Each colour's piece names, colour 0 (blue) first."""
        return [[p.name for p in hand] for hand in self.pieces]

    def check(self, solution: Solution) -> list[str]:
        """Every rule the solution breaks; empty when it is a valid answer.

        Independent of the solvers: it reads cells, names and colours only.
        """
        every = [p for hand in self.pieces for p in hand]
        tiling = TilingPuzzle(self.name, TilingProblem(self.board, *_tally(every)))
        reasons = check_solution(solution, tiling)
        names = COLOR_NAMES[: self.n_colors]
        want: Counter[tuple[str | None, str]] = Counter(
            (COLOR_NAMES[k], p.name) for k, hand in enumerate(self.pieces) for p in hand
        )
        have: Counter[tuple[str | None, str]] = Counter(
            (pp.color, pp.piece) for pp in solution.placements
        )
        for i, pp in enumerate(solution.placements):
            if pp.color not in names:
                reasons.append(
                    f"placement {i} ({pp.piece}): colour {pp.color!r} is not one "
                    f"of {', '.join(names)}"
                )
        if want != have:
            for (color, name), n in (want - have).items():
                reasons.append(f"{color} {name}: {n} missing")
            for (color, name), n in (have - want).items():
                reasons.append(f"{color} {name}: {n} more than the teaser has")
        reasons.extend(_same_color_rules(solution, self.touch))
        return reasons


def _tally(pieces: Sequence[Polyomino]) -> tuple[tuple[Polyomino, ...], tuple[int, ...]]:
    """Distinct free shapes (first name seen) and how many copies of each."""
    tally: dict[Polyomino, int] = {}
    named: dict[Polyomino, Polyomino] = {}
    for p in pieces:
        key = p.canonical()
        tally[key] = tally.get(key, 0) + 1
        named.setdefault(key, p)
    return tuple(named[k] for k in tally), tuple(tally.values())


def _same_color_rules(solution: Solution, touch: str) -> list[str]:
    """No same-colour edge contact, and the corner rule, from the cells alone."""
    import networkx as nx  # imported on first use: it costs 0.1 s at start-up

    reasons = []
    owner = {}
    for i, pp in enumerate(solution.placements):
        for cell in pp.cells:
            owner[tuple(cell)] = i
    corner_graph = nx.Graph()
    corner_graph.add_nodes_from(range(len(solution.placements)))
    reported = set()
    for i, pp in enumerate(solution.placements):
        for r, c in pp.cells:
            for dr, dc in _EDGE:
                j = owner.get((r + dr, c + dc))
                if j is not None and j != i and solution.placements[j].color == pp.color:
                    key = (min(i, j), max(i, j))
                    if key not in reported:
                        reported.add(key)
                        reasons.append(
                            f"placements {key[0]} and {key[1]} are both {pp.color} "
                            f"and share an edge at {(r, c)}"
                        )
            for dr, dc in _DIAGONAL:
                j = owner.get((r + dr, c + dc))
                if j is not None and j != i and solution.placements[j].color == pp.color:
                    corner_graph.add_edge(i, j)
    if touch == "local":
        for i, pp in enumerate(solution.placements):
            if corner_graph.degree(i) == 0:
                reasons.append(
                    f"placement {i} ({pp.color} {pp.piece}) corner-touches no piece of its colour"
                )
    elif touch == "connected":
        for color in dict.fromkeys(pp.color for pp in solution.placements):
            members = [i for i, pp in enumerate(solution.placements) if pp.color == color]
            groups = nx.number_connected_components(corner_graph.subgraph(members))
            if groups > 1:
                reasons.append(f"{color}'s pieces form {groups} corner-connected groups, not one")
    return reasons


def four_square(
    touch: str = "local",
    board: Board | None = None,
    n_colors: int = 4,
    pieces: Sequence[Polyomino] | None = None,
) -> Teaser:
    """The "four-square" teaser, or a variant of it.

    Parameters
    ----------
    touch
        ``"local"`` (default), ``"connected"`` or ``"none"``.
    board
        Default 8x10.
    n_colors
        Colours (1 to 4), each with the same pieces.
    pieces
        Each colour's pieces; default the five tetrominoes.

    Raises
    ------
    BoardError
        If the pieces cannot cover the board exactly (area mismatch).
    """
    hand = tuple(pieces) if pieces is not None else piece_set("tetrominoes")
    return Teaser(
        "four-square",
        board if board is not None else Board(8, 10),
        tuple(hand for _ in range(n_colors)),
        touch,
    )

"""The ``blokus-teaser`` kind: four-square-style puzzles with one solution, and their files.

A candidate is a rectangle with a few random blocked cells and a hand of pieces drawn from
a named set, the same hand for each colour. Its solutions follow the teaser rules of
``seeds/blokus.md`` (same-colour pieces never share an edge; the touch rule ``local`` or
``connected``). The candidate is counted exactly by the coloured bitboard kernel, raw and up
to the board's symmetries and the colour permutations; it is kept when that count is 1.
Candidates with several solutions are dropped, not repaired: a given coloured piece would
change which colour permutations are symmetries, and dropping costs little because
candidates are cheap (about one in ten is unique with four colours of two or three
tetrominoes; most have no solution at all).

Difficulty is ``log2(nodes / pieces)`` over the nodes of that exact count (a first-empty-
cell search with the colour rules inside, not Algorithm X), so teaser ratings compare with
each other, not with packing ratings.

Teaser puzzle files: ``{"format": "polytile/teaser@1", "name": ..., "board": [rows],
"hands": [[piece names of colour 0], ...], "touch": "local"}``.

Examples
--------
>>> from polytile.puzzles.tiling.generate_teasers import TeaserParams, make_teaser
>>> tried = (make_teaser(TeaserParams(), 0, i) for i in range(40))
>>> c = next(c for c in tried if c.accepted)
>>> c.puzzle.check(c.solution), c.stats["raw_solutions"] % 24
([], 0)
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from polytile.board import Board
from polytile.errors import BoardError, FormatError, PolytileError, UnknownNameError
from polytile.geometry import piece, piece_set, sets_on
from polytile.puzzles.tiling.keys import puzzle_key
from polytile.puzzles.tiling.teasers import Teaser
from polytile.solvers.counting import count_tiling
from polytile.solvers.tiling import TOUCH_RULES, compile_problem, solutions
from polytile.store.candidates import Candidate
from polytile.store.candidates import candidate_rng as _rng

__all__ = ["TEASER_FORMAT", "TeaserParams", "make_teaser", "parse_teaser", "teaser_doc"]

TEASER_FORMAT = "polytile/teaser@1"


@dataclass(frozen=True)
class TeaserParams:
    """Parameters of the ``blokus-teaser`` kind.

    Parameters
    ----------
    pieces
        Named set each colour's hand is drawn from.
    colors
        Number of colours (2 to 4), all with the same hand.
    min_pieces, max_pieces
        Pieces per colour.
    touch
        ``"local"`` or ``"connected"`` (see ``seeds/blokus.md``), or ``"none"``.
    max_blocked
        Most blocked cells on the rectangle (drawn from 0 to this).
    time_limit
        Seconds allowed for one exact count; a candidate needing more is dropped.
    """

    pieces: str = "tetrominoes"
    colors: int = 4
    min_pieces: int = 2
    max_pieces: int = 3
    touch: str = "local"
    max_blocked: int = 3
    time_limit: float = 5.0

    def __post_init__(self) -> None:
        if self.pieces.lower() not in sets_on("square"):
            raise UnknownNameError("square piece set (teasers are of the square grid)",
                                   self.pieces, sets_on("square"))
        n_set = len(piece_set(self.pieces))
        if not 1 <= self.min_pieces <= self.max_pieces <= n_set:
            raise PolytileError(
                f"pieces per colour must satisfy 1 <= min ({self.min_pieces}) <= max "
                f"({self.max_pieces}) <= {n_set}, the size of set {self.pieces!r}"
            )
        if not 2 <= self.colors <= 4:
            raise PolytileError(f"colors must be 2 to 4, got {self.colors}")
        if self.touch not in TOUCH_RULES:
            raise UnknownNameError("touch rule", self.touch, tuple(TOUCH_RULES))
        if not 0 <= self.max_blocked <= 10:
            raise PolytileError(f"max-blocked must be 0 to 10, got {self.max_blocked}")
        if not self.time_limit > 0:
            raise PolytileError("the time limit must be positive")

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain JSON values."""
        return dataclasses.asdict(self)


def make_teaser(params: TeaserParams, seed: int, index: int) -> Candidate:
    """Candidate ``index`` of a ``blokus-teaser`` run (deterministic)."""
    cand = Candidate("blokus-teaser", seed, index)
    rng = _rng(seed, index, "blokus-teaser")
    pool = piece_set(params.pieces)
    k = int(rng.integers(params.min_pieces, params.max_pieces + 1))
    hand = tuple(pool[int(i)] for i in sorted(rng.choice(len(pool), k, replace=False)))
    area = params.colors * sum(p.size for p in hand)
    sides = [
        (r, c)
        for r in range(2, area + 1)
        for c in range(r, 3 * r + 1)
        if area <= r * c <= area + params.max_blocked
    ]
    if not sides:
        cand.reason = f"no rectangle holds {area} cells with at most {params.max_blocked} blocked"
        return cand
    rows, cols = sides[int(rng.integers(len(sides)))]
    if rng.integers(2):
        rows, cols = cols, rows
    blocked = rows * cols - area
    shut = rng.choice(rows * cols, blocked, replace=False)
    board = Board(rows, cols, frozenset((int(x) // cols, int(x) % cols) for x in shut))
    teaser = Teaser(f"teaser-{seed}-{index}", board, (hand,) * params.colors, params.touch)
    result = count_tiling(teaser.problem, time_limit=params.time_limit)
    if not result.complete:
        cand.reason = f"not counted within {params.time_limit:g} s"
        return cand
    if result.count_up_to_symmetry != 1:
        cand.reason = "no solution" if result.count == 0 else "several solutions (up to symmetry)"
        return cand
    first = next(solutions(teaser.problem))
    solution = teaser.to_solution(compile_problem(teaser.problem).placements, first)
    reasons = teaser.check(solution)
    if reasons:  # the kernel's answer must pass the rules check; a bug if not
        raise PolytileError(f"generated teaser solution fails the rules check: {reasons[0]}")
    pieces = params.colors * len(hand)
    cand.puzzle, cand.solution = teaser, solution
    cand.key = puzzle_key(cand.kind, teaser)  # type: ignore[arg-type]
    cand.difficulty = round(max(0.0, math.log2(max(result.nodes, 1) / pieces)), 2)
    cand.stats = {
        "nodes": int(result.nodes),
        "pieces": pieces,
        "raw_solutions": int(result.count),
    }
    return cand


def teaser_doc(teaser: Teaser) -> dict[str, Any]:
    """The ``polytile/teaser@1`` document of a teaser (:func:`parse_teaser` reads it)."""
    return {
        "format": TEASER_FORMAT,
        "name": teaser.name,
        "board": teaser.board.to_text(),
        "hands": [[p.name for p in hand] for hand in teaser.pieces],
        "touch": teaser.touch,
    }


def parse_teaser(doc: Any, source: str = "<string>") -> Teaser:
    """A teaser from its decoded document.

    Raises
    ------
    FormatError
        Naming the source and the field at fault.
    """
    if not isinstance(doc, dict) or doc.get("format") != TEASER_FORMAT:
        raise FormatError(f"expected format {TEASER_FORMAT!r}", source, "format")
    rows = doc.get("board")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise FormatError("'board' must be a list of rows of '.' and '#'", source, "board")
    for r, row in enumerate(rows):  # a teaser starts empty: no colour owns a cell yet
        for c, ch in enumerate(row):
            if ch not in ".#":
                raise FormatError(
                    f"{ch!r} at row {r}, column {c} (counted from 0): a teaser board holds "
                    "only '.' (open) and '#' (blocked); no colour has a piece on it yet",
                    source,
                    f"board[{r}]",
                )
    hands = doc.get("hands")
    if not isinstance(hands, list) or not all(
        isinstance(h, list) and all(isinstance(n, str) for n in h) for h in hands
    ):
        raise FormatError("'hands' must be a list of lists of piece names", source, "hands")
    try:
        board = Board.from_text(rows)
        shaped = tuple(tuple(piece(n) for n in hand) for hand in hands)
        return Teaser(str(doc.get("name", "teaser")), board, shaped, str(doc.get("touch")))
    except (BoardError, UnknownNameError, ValueError) as exc:
        raise FormatError(str(exc), source) from exc

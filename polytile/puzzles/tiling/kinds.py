"""The tiling kinds of generated puzzle, as the puzzle store sees them: ``packing``
(:mod:`polytile.puzzles.tiling.generate`) and ``blokus-teaser``
(:mod:`polytile.puzzles.tiling.generate_teasers`).

Both store a puzzle file (``polytile/puzzle@1``, ``polytile/teaser@1``) and a solution file,
are drawn on SVG sheets, and are re-verified by the rules checker and a count of their
solutions up to symmetry. The packing kind also lists the catalogue of named puzzles.

Examples
--------
>>> PACKING.caption(PACKING.read_puzzle({"format": "polytile/puzzle@1", "board": ["..."],
...                                      "pieces": ["I3"]}, "<doc>"))
'place: I3'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from polytile.errors import OptionError
from polytile.store.kinds import ByHandKind, HandPiece, KindOption, UnsoundAnswerError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from polytile.formats import PlacedPiece, Solution
    from polytile.store.candidates import Candidate
    from polytile.store.kinds import StoredRow

__all__ = ["PACKING", "TEASER", "PackingKind", "TeaserKind"]


class _TilingKind(ByHandKind):
    """What the two tiling kinds share: solution files, rows, pictures, solving by hand
    (:mod:`polytile.puzzles.tiling.by_hand`) and the check of a stored puzzle's uniqueness
    and key."""

    engines = ("tiling",)

    def answer_json(self, puzzle: Any, answer: Any) -> str:
        """The solution file's text."""
        from polytile.formats import dumps

        return dumps(answer)

    def read_answer(self, text: str, puzzle: Any, source: str) -> Any:
        """The stored :class:`~polytile.formats.Solution`."""
        from polytile.formats import loads

        return loads(text, source)

    def row(self, puzzle: Any) -> dict[str, Any]:
        """The board, its open cells, the pieces (given ones included) and the given ones."""
        layout = puzzle.layout
        return {"board": _size(layout), "cells": layout.n_open,
                "pieces": len(puzzle.all_piece_names()), "given": len(puzzle.given)}  # fmt: skip

    def picture(self, puzzle: Any) -> Solution:
        """The given pieces on the board, the rest empty."""

        return puzzle.solution_of((), "unknown")  # the given pieces, marked as given

    def answer_picture(self, answer: Any) -> Solution:
        """The solution, which draws itself."""
        return answer

    def _marked(self, puzzle: Any, answer: Solution) -> Solution:
        """A stored answer with its given pieces marked (a store written before the mark
        existed: the generator puts them first)."""
        import dataclasses

        if not puzzle.given or "given" in answer.extra:
            return answer
        return dataclasses.replace(answer, extra={**answer.extra,
                                                  "given": list(range(len(puzzle.given)))})

    def show(self, stored: StoredRow, with_answer: bool, color: bool | None) -> Iterator[str]:
        """The board with the given pieces; with the answer, the solution below it, once
        the rules checker has accepted it (:class:`UnsoundAnswerError` otherwise)."""
        from polytile.render import to_text

        yield to_text(self.picture(stored.puzzle), color=color)
        if with_answer:
            answer = stored.solution()
            problems = self.check_answer(stored.puzzle, answer)
            if problems:
                raise UnsoundAnswerError(problems[0])
            yield "solution:\n"
            yield to_text(self._marked(stored.puzzle, answer), color=color)

    def hand(self, puzzle: Any) -> tuple[HandPiece, ...]:
        """:func:`~polytile.puzzles.tiling.by_hand.hand`."""
        from polytile.puzzles.tiling.by_hand import hand

        return hand(puzzle)

    def step_problems(self, puzzle: Any, placed: Sequence[PlacedPiece],
                      step: PlacedPiece) -> list[str]:  # fmt: skip
        """:func:`~polytile.puzzles.tiling.by_hand.step_problems`."""
        from polytile.puzzles.tiling.by_hand import step_problems

        return step_problems(puzzle, placed, step)

    def placed_answer(self, puzzle: Any, placed: Sequence[PlacedPiece]) -> Solution:
        """The puzzle's solution document with ``placed`` (status ``unknown``)."""
        return puzzle.solution_of(placed, "unknown")

    def _verified(self, reasons: list[str], classes: int, puzzle: Any, key: str) -> list[str]:
        from polytile.puzzles.tiling.keys import puzzle_key

        if classes == 0:
            reasons.append("the puzzle has no solution")
        elif classes > 1:
            reasons.append("the puzzle has more than one solution (up to its symmetries)")
        if puzzle_key(self.name, puzzle) != key:
            reasons.append("its stored key is not its canonical key")
        return reasons


#: The largest pieces file read (a file of a few hundred pieces takes some 50 KB).
MAX_PIECES_FILE = 1 << 20


def _own_pieces(path: str, most: int) -> tuple[tuple[str, str, int], ...]:
    """``generate packing --pieces FILE.json``: the pieces of a puzzle file or of any JSON
    object with a ``pieces`` list written as a puzzle file writes it, each with its copies
    (``"*"``: as many as a puzzle has pieces)."""
    from polytile._files import decode_text, parse_json, read_input
    from polytile.puzzles.tiling.generate import own_pieces
    from polytile.puzzles.tiling.puzzle_file import parse_pieces

    data, source = read_input(path, MAX_PIECES_FILE)
    return own_pieces(parse_pieces(parse_json(decode_text(data, source), source), source), most)


class PackingKind(_TilingKind):
    """``packing``: pieces from a named set that fill a region in one way."""

    name = "packing"
    summary = ("pieces from a named set or your own that fill a rectangle or a compact shape "
               "in one way")
    help = """pieces from a named set (see 'polytile pieces'), or your own
(--pieces FILE.json: the 'pieces' list of a puzzle file), that fill a
region in exactly one way, up to the region's own symmetries. The
region is a compact random shape (--region shape, --holes enclosed
holes) whose outline gives no piece away, or a rectangle. A candidate
with several solutions gets up to --max-given of its pieces given in
place to rule the others out, or is dropped."""
    examples = (
        "polytile generate packing --count 50 --db puzzles.db",
        "polytile generate packing -n 20 --db rect.db --region rectangle --size 8-10 --seed 7",
        "polytile generate packing -n 10 --db hard.db --min-difficulty 5",
        "polytile generate packing -n 10 --db mine.db --pieces my-pieces.json --size 6-8",
    )
    size_help = "pieces per puzzle, given ones included (packing)"
    size_default = "8-12"
    pieces_default = "pentominoes"
    options = (
        KindOption(
            "region",
            "--region",
            "shape",
            "a random connected shape or a rectangle.",
            choices=("shape", "rectangle"),
        ),
        KindOption("holes", "--holes", 0, "enclosed holes in a shape region.", bounds=(0, 4)),
        KindOption(
            "max_given",
            "--max-given",
            2,
            "most pieces given in place to make the solution unique.",
            bounds=(0, 20),
        ),
    )

    def params_type(self) -> type:
        """:class:`~polytile.puzzles.tiling.generate.PackingParams`."""
        from polytile.puzzles.tiling.generate import PackingParams

        return PackingParams

    def params_values(
        self,
        size: tuple[int, int],
        size_text: str,
        options: Mapping[str, Any],
        given: frozenset[str],
    ) -> dict[str, Any]:
        """The piece set, the piece counts, the region and the pieces that may be given (a
        puzzle keeps at least one piece to place)."""
        lo, hi = size
        max_given = options["max_given"]
        if 2 <= lo <= hi and max_given > lo - 1:
            default = " (the default)" if "max_given" not in given else ""
            raise OptionError(
                f"{max_given}{default} is too many for --size {size_text}: a puzzle of {lo} "
                f"pieces gives at most {lo - 1}; pass --max-given {lo - 1} or a larger --size",
                "--max-given",
            )
        pieces = options.get("piece_set") or self.pieces_default
        values = {"pieces": pieces, "min_pieces": lo, "max_pieces": hi,
                  "region": options["region"], "holes": options["holes"],
                  "max_given": max_given}  # fmt: skip
        if pieces.lower().endswith(".json"):  # your own pieces, from a file: the job is
            values["pieces"] = "own"  # known by them, not by how the path was spelled
            values["own_pieces"] = _own_pieces(pieces, hi)
        return values

    def candidate(self, params: Any, seed: int, index: int) -> Candidate:
        """:func:`~polytile.puzzles.tiling.generate.packing_candidate`."""
        from polytile.puzzles.tiling.generate import packing_candidate

        return packing_candidate(params, seed, index)

    def puzzle_doc(self, puzzle: Any) -> dict[str, Any]:
        """The ``polytile/puzzle@1`` document."""
        from polytile.puzzles.tiling.puzzle_file import puzzle_doc

        return puzzle_doc(puzzle)

    def read_puzzle(self, doc: Any, source: str) -> Any:
        """A :class:`~polytile.puzzles.tiling.puzzles.TilingPuzzle`."""
        from polytile.puzzles.tiling.puzzle_file import parse_puzzle

        return parse_puzzle(doc, source)

    def verify(self, puzzle: Any, answer: Any, key: str) -> list[str]:
        """The rules checker on the solution, then a search of the whole tree for a second
        solution up to the puzzle's symmetries, and the key."""
        from polytile.puzzles.tiling.generate import unique_solution

        reasons = self.check_answer(puzzle, answer)
        classes = unique_solution(puzzle, node_limit=1 << 62).classes
        return self._verified(reasons, classes, puzzle, key)

    def check_answer(self, puzzle: Any, answer: Any) -> list[str]:
        """:func:`~polytile.puzzles.tiling.puzzles.check_solution`."""
        from polytile.puzzles.tiling.puzzles import check_solution

        return list(check_solution(answer, puzzle))

    def caption(self, puzzle: Any) -> str:
        """The pieces to place."""
        return f"place: {' '.join(puzzle.piece_names())}"

    def catalogue(self) -> list[dict[str, Any]]:
        """The catalogue of named tiling puzzles with their known solution counts."""
        from polytile.puzzles.tiling.puzzles import CATALOGUE

        return [
            {
                "name": p.name,
                "board": _size(p.board),
                "grid": p.board.grid,
                "pieces": p.problem.n_pieces,
                "known_count": p.known_count,
                "known_count_up_to_symmetry": p.known_count_up_to_symmetry,
                "description": p.description,
            }
            for p in CATALOGUE.values()
        ]


class TeaserKind(_TilingKind):
    """``blokus-teaser``: four-square-style coloured teasers with one solution."""

    name = "blokus-teaser"
    summary = "coloured pieces that tile a board in one way under the teaser rules"
    help = """four-square style: --colors colours with the same hand of pieces tile a
rectangle with up to --max-blocked blocked cells; same-colour pieces never
share an edge and follow --touch. Exactly one solution up to the board's
symmetries and colour renaming (counted exactly); others are dropped."""
    examples = ("polytile generate blokus-teaser -n 5 --db teasers.db --touch connected",)
    size_help = "per colour (blokus-teaser)"
    size_default = "2-3"
    pieces_default = "tetrominoes"
    options = (
        KindOption("colors", "--colors", 4, "colours, each with the same hand.", bounds=(2, 4)),
        KindOption(
            "touch",
            "--touch",
            "local",
            "corner rule (see 'polytile solve --help').",
            choices=("local", "connected", "none"),
        ),
        KindOption(
            "max_blocked", "--max-blocked", 3, "most blocked cells on the board.", bounds=(0, 10)
        ),
    )

    def params_type(self) -> type:
        """:class:`~polytile.puzzles.tiling.generate_teasers.TeaserParams`."""
        from polytile.puzzles.tiling.generate_teasers import TeaserParams

        return TeaserParams

    def params_values(
        self,
        size: tuple[int, int],
        size_text: str,
        options: Mapping[str, Any],
        given: frozenset[str],
    ) -> dict[str, Any]:
        """The piece set, the pieces per colour, the colours, the touch rule and the blocked
        cells."""
        lo, hi = size
        return {"pieces": options.get("piece_set") or self.pieces_default, "min_pieces": lo,
                "max_pieces": hi, "colors": options["colors"], "touch": options["touch"],
                "max_blocked": options["max_blocked"]}  # fmt: skip

    def candidate(self, params: Any, seed: int, index: int) -> Candidate:
        """:func:`~polytile.puzzles.tiling.generate_teasers.make_teaser`."""
        from polytile.puzzles.tiling.generate_teasers import make_teaser

        return make_teaser(params, seed, index)

    def puzzle_doc(self, puzzle: Any) -> dict[str, Any]:
        """The ``polytile/teaser@1`` document."""
        from polytile.puzzles.tiling.generate_teasers import teaser_doc

        return teaser_doc(puzzle)

    def read_puzzle(self, doc: Any, source: str) -> Any:
        """A :class:`~polytile.puzzles.tiling.teasers.Teaser`."""
        from polytile.puzzles.tiling.generate_teasers import parse_teaser

        return parse_teaser(doc, source)

    def verify(self, puzzle: Any, answer: Any, key: str) -> list[str]:
        """The teaser rules on the solution, an exact count of the solutions up to the
        board's symmetries and colour renaming, and the key."""
        from polytile.solvers.counting import count_tiling

        reasons = self.check_answer(puzzle, answer)
        classes = count_tiling(puzzle.problem).count_up_to_symmetry or 0
        return self._verified(reasons, classes, puzzle, key)

    def check_answer(self, puzzle: Any, answer: Any) -> list[str]:
        """The teaser's own rules (colours, touching) on the answer."""
        return list(puzzle.check(answer))

    def caption(self, puzzle: Any) -> str:
        """The colours, the hand each has, and the touch rule."""
        hand = " ".join(x.name for x in puzzle.pieces[0])
        return f"place: {puzzle.n_colors} colours x {hand}, touch {puzzle.touch}"


PACKING = PackingKind()
TEASER = TeaserKind()


def _size(board: Any) -> str:
    """A board's size for a listing: ``8x10``; on the other grids its box with the grid's
    cells, ``6x18 triangles`` (rows by columns of triangles), ``3x3x3 cubes``."""
    size = board.describe_size()
    return size if board.grid == "square" else f"{size} {board.on_grid.cell_word[1]}"

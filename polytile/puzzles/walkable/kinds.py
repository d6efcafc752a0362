"""The ``walkable-path`` kind of generated puzzle, as the puzzle store sees it: Walkable
Cities largest-path puzzles with one optimal drop sequence
(:mod:`polytile.puzzles.walkable.path_generate`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from polytile.errors import OptionError
from polytile.store.kinds import Attempt, FileKind, KindOption, UnsoundAnswerError

if TYPE_CHECKING:
    from polytile.store.candidates import Candidate
    from polytile.store.kinds import StoredRow

__all__ = ["KIND", "WalkablePathKind"]

#: The fewest and most pieces a puzzle drops.
DROPS = (1, 6)


class WalkablePathKind(FileKind):
    """``walkable-path``: red drops its pieces to make its largest regions largest."""

    engines = ("walkable-path",)

    name = "walkable-path"
    puzzle_format = "polytile/walkable-path-puzzle@1"
    answer_format = "polytile/walkable-path-answer@1"
    solver = "walkable-path"
    answer_help = ('{"format": "polytile/walkable-path-answer@1", "drops": ["L4 1:d4,e4 '
                   '3:d5 2:d6", ...]}: one drop per piece in the puzzle\'s order, as '
                   "'polytile play' writes them ('pass' for none)")
    summary = "Walkable Cities largest-path puzzles with one optimal drop sequence"
    help = """Walkable Cities largest path: red alone drops --size pieces [1-2] on
three seeded boards (24 blue, 16 red cells, 10 dead per board) to make
the sum of its largest regions as large as possible. An exact branch
and bound (--node-limit nodes per proof) proves the optimum; a second
search for any other drops reaching it proves there are none. An
answer is each piece's drop: 4 cells, each on its board, so another
split or another board is another answer; swapping the drops of two
identical pieces is not. With more pieces most candidates have a
second optimal answer (a cell that does not count can go elsewhere)
and are dropped; 5-6 pieces may need a larger --node-limit."""
    examples = (
        "polytile generate walkable-path -n 5 --db walk.db --size 1-2 --workers 1",
        "polytile generate walkable-path -n 1 --db walk3.db --size 3 --node-limit 1000000",
    )
    difficulty_note = ("log2(1 + the search nodes of both proofs) (the stats add greedy_short, "
                       "how far a player who takes each piece's best drop at once falls below "
                       "the optimum)")  # fmt: skip
    size_help = "pieces to drop (walkable-path, 1-6)"
    size_default = "1-2"
    options = (
        KindOption(
            "node_limit",
            "--node-limit",
            100_000,
            "search nodes per proof (work, not time: the same puzzles on any machine); "
            "a candidate needing more is dropped. 4-piece proofs take a few thousand; "
            "raise it for 5-6 pieces.",
            bounds=(100, 10**9),
        ),
    )
    list_note = ("For Walkable Cities path puzzles (walkable-path), the board is 3x10x10, "
                 "cells are the unclaimed cells and pieces the pieces to drop; the JSON rows "
                 "add the sequence and the target.")  # fmt: skip
    show_note = ("Walkable Cities path: the three boards, the pieces, the target and the "
                 "'polytile solve walkable-path' command that rebuilds the position; "
                 "--solution adds the drops replayed by the rules, the regions and what a "
                 "greedy player reaches; --file prints the puzzle document")  # fmt: skip

    def params_type(self) -> type:
        """:class:`~polytile.puzzles.walkable.path_generate.WalkablePathParams`."""
        from polytile.puzzles.walkable.path_generate import WalkablePathParams

        return WalkablePathParams

    def params_values(
        self,
        size: tuple[int, int],
        size_text: str,
        options: Mapping[str, Any],
        given: frozenset[str],
    ) -> dict[str, Any]:
        """The pieces to drop (1 to 6) and the work per proof."""
        lo, hi = size
        if not DROPS[0] <= lo <= hi <= DROPS[1]:
            raise OptionError(f"walkable-path drops {DROPS[0]} to {DROPS[1]} pieces (MIN <= "
                              f"MAX), not {size_text}", "--size")  # fmt: skip
        return {"min_pieces": lo, "max_pieces": hi, "node_limit": options["node_limit"]}

    def candidate(self, params: Any, seed: int, index: int) -> Candidate:
        """:func:`~polytile.puzzles.walkable.path_generate.make_walkable_path_candidate`."""
        from polytile.puzzles.walkable.path_generate import make_walkable_path_candidate

        return make_walkable_path_candidate(params, seed, index)

    def puzzle_doc(self, puzzle: Any) -> dict[str, Any]:
        """The ``polytile/walkable-path-puzzle@1`` document."""
        from polytile.puzzles.walkable.path_generate import puzzle_doc

        return puzzle_doc(puzzle)

    def read_puzzle(self, doc: Any, source: str) -> Any:
        """A :class:`~polytile.puzzles.walkable.path_generate.WalkablePathPuzzle`."""
        from polytile.puzzles.walkable.path_generate import parse_path_puzzle

        return parse_path_puzzle(doc, source)

    def answer_json(self, puzzle: Any, answer: Any) -> str:
        """The ``polytile/walkable-path-answer@1`` document's text."""
        from polytile.puzzles.walkable.path_generate import answer_doc

        return json.dumps(answer_doc(puzzle, answer))

    def read_answer(self, text: str, puzzle: Any, source: str) -> Any:
        """A :class:`~polytile.puzzles.walkable.path_generate.WalkablePathAnswer`."""
        from polytile.puzzles.walkable.path_generate import parse_path_answer

        return parse_path_answer(json.loads(text), puzzle, f"{source} solution")

    def verify(self, puzzle: Any, answer: Any, key: str) -> list[str]:
        """:func:`~polytile.puzzles.walkable.path_generate.verify_walkable_path`: both proofs
        again without a work limit, and the puzzle's key."""
        from polytile.puzzles.walkable.path_generate import verify_walkable_path

        return verify_walkable_path(puzzle, answer, key)

    def row(self, puzzle: Any) -> dict[str, Any]:
        """Cells: the unclaimed cells of the 3 boards; pieces: the pieces to drop."""
        from polytile.puzzles.walkable.path_generate import puzzle_summary

        return puzzle_summary(puzzle)

    def caption(self, puzzle: Any) -> str:
        """The pieces to drop and the target."""
        return (
            f"Walkable Cities path: drop {','.join(puzzle.path.sequence)}, target {puzzle.target}"
        )

    def show(self, stored: StoredRow, with_answer: bool, color: bool | None) -> Iterator[str]:
        """The boards, the pieces, the target and the command that rebuilds the position;
        with the answer, the drops replayed by the rules, the regions and what a greedy
        player reaches."""
        from polytile.puzzles.walkable import path_generate as walkable

        yield walkable.question_text(stored.puzzle) + "\n"
        command = walkable.solve_command(stored.puzzle)
        if command is not None:
            yield f"(solve it: {command})\n"
        if with_answer:
            answer = stored.solution()
            problems = walkable.check_answer(stored.puzzle, answer)  # the rules replay the drops
            if problems:
                raise UnsoundAnswerError(problems[0])
            yield walkable.answer_text(stored.puzzle, answer) + "\n"

    def question(self, puzzle: Any) -> str:
        """:func:`~polytile.puzzles.walkable.path_generate.question_text`."""
        from polytile.puzzles.walkable.path_generate import question_text

        return question_text(puzzle)

    def attempt(self, puzzle: Any, doc: Any, source: str) -> Attempt:
        """:func:`~polytile.puzzles.walkable.path_generate.attempt_answer`."""
        from polytile.puzzles.walkable.path_generate import attempt_answer

        return Attempt(*attempt_answer(puzzle, doc, source))


KIND = WalkablePathKind()

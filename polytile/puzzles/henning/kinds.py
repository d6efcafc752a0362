"""The ``henning`` kind of generated puzzle, as the puzzle store sees it: City Blocks
(Henning) positions where exactly one move wins, or is best
(:mod:`polytile.puzzles.henning.generate`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from polytile.store.kinds import KindOption, PuzzleKind, UnsoundAnswerError

if TYPE_CHECKING:
    from polytile.store.candidates import Candidate
    from polytile.store.kinds import StoredRow

__all__ = ["KIND", "HenningKind"]


class HenningKind(PuzzleKind):
    """``henning``: a late position with every tile known and one best move."""

    name = "henning"
    summary = "City Blocks (Henning) positions where exactly one move wins, or is best"
    help = """City Blocks (Henning): a late position of a seeded self-played game with
both reserves empty (every tile known) and --size empty blocks [2-4],
where exactly one move wins ("only-win": every other draws or loses) or
exactly one move is best, by $N or more over any other ("best-by-N");
--question keeps one of the two. Every move's value is solved exactly."""
    examples = ("polytile generate henning -n 5 --db city.db --size 2-3 --question only-win",)
    difficulty_note = ("log2 of the positions the exact endgame search visits to find the "
                       "answer and prove every other move worse")  # fmt: skip
    size_help = "empty blocks (henning)"
    size_default = "2-4"
    options = (
        KindOption(
            "question",
            "--question",
            "any",
            "keep only-win puzzles, best-by-N puzzles, or both.",
            choices=("any", "only-win", "best-by"),
        ),
    )
    list_note = ("For City Blocks (henning) puzzles, cells are the empty blocks and pieces "
                 "the tiles in both hands; the JSON rows add the question and the player to "
                 "move.")  # fmt: skip
    show_note = ("City Blocks: the city, the side to move and the question; --solution adds "
                 "the answer, its value, the runner-up's and a line of best play")  # fmt: skip
    file_note = "the henning@1 position, for 'polytile render' or 'polytile solve-endgame'"
    answer_lead = "blue's final money minus red's"  # the answer's value and runner_up

    def params_type(self) -> type:
        """:class:`~polytile.puzzles.henning.generate.HenningParams`."""
        from polytile.puzzles.henning.generate import HenningParams

        return HenningParams

    def params_values(
        self,
        size: tuple[int, int],
        size_text: str,
        options: Mapping[str, Any],
        given: frozenset[str],
    ) -> dict[str, Any]:
        """The empty blocks and the question."""
        return {"min_empty": size[0], "max_empty": size[1], "question": options["question"]}

    def candidate(self, params: Any, seed: int, index: int) -> Candidate:
        """:func:`~polytile.puzzles.henning.generate.make_henning_candidate`."""
        from polytile.puzzles.henning.generate import make_henning_candidate

        return make_henning_candidate(params, seed, index)

    def puzzle_doc(self, puzzle: Any) -> dict[str, Any]:
        """The ``polytile/henning-puzzle@1`` document."""
        from polytile.puzzles.henning.generate import puzzle_doc

        return puzzle_doc(puzzle)

    def read_puzzle(self, doc: Any, source: str) -> Any:
        """A :class:`~polytile.puzzles.henning.generate.HenningPuzzle`."""
        from polytile.puzzles.henning.generate import parse_henning_puzzle

        return parse_henning_puzzle(doc, source)

    def answer_json(self, puzzle: Any, answer: Any) -> str:
        """The ``polytile/henning-answer@1`` document's text."""
        from polytile.puzzles.henning.generate import answer_doc

        return json.dumps(answer_doc(puzzle, answer))

    def read_answer(self, text: str, puzzle: Any, source: str) -> Any:
        """A :class:`~polytile.puzzles.henning.generate.HenningAnswer`."""
        from polytile.puzzles.henning.generate import parse_answer

        return parse_answer(json.loads(text), puzzle, f"{source} solution")

    def verify(self, puzzle: Any, answer: Any, key: str) -> list[str]:
        """:func:`~polytile.puzzles.henning.generate.verify_henning`: the exact value of every
        move again, and the position's key."""
        from polytile.puzzles.henning.generate import verify_henning

        return verify_henning(puzzle, answer, key)

    def row(self, puzzle: Any) -> dict[str, Any]:
        """Cells: the empty blocks; pieces: the tiles in both hands."""
        from polytile.puzzles.henning.generate import puzzle_summary

        return puzzle_summary(puzzle)

    def caption(self, puzzle: Any) -> str:
        """The question and the empty blocks."""
        return f"{puzzle.question}, {puzzle.position.empty} empty blocks"

    def show(self, stored: StoredRow, with_answer: bool, color: bool | None) -> Iterator[str]:
        """The city, the hands and the question; with the answer, the move, its value, the
        runner-up's and a line of best play."""
        from polytile.puzzles.henning.generate import answer_text, check_answer, question_text
        from polytile.puzzles.henning.picture import to_text

        yield to_text(stored.puzzle.position, color=color) + "\n"
        yield question_text(stored.puzzle) + "\n"
        if with_answer:
            answer = stored.solution()
            problems = check_answer(stored.puzzle, answer)  # the answer and line replayed
            if problems:
                raise UnsoundAnswerError(problems[0])
            yield answer_text(stored.puzzle, answer) + "\n"

    def puzzle_file(self, doc: dict[str, Any]) -> Any:
        """The ``polytile/henning@1`` position (for ``render`` and ``solve-endgame``)."""
        return doc["position"]


KIND = HenningKind()

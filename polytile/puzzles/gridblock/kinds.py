"""The ``gridblock-solo`` kind of generated puzzle, as the puzzle store sees it: Gridblock
solitaires with one optimal plan (:mod:`polytile.puzzles.gridblock.generate`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from polytile.store.kinds import Attempt, FileKind, KindOption, UnsoundAnswerError

if TYPE_CHECKING:
    from polytile.store.candidates import Candidate
    from polytile.store.kinds import StoredRow

__all__ = ["KIND", "GridblockSoloKind"]


class GridblockSoloKind(FileKind):
    """``gridblock-solo``: blue alone with known cards, one plan scoring the most."""

    engines = ("gridblock-solo",)

    name = "gridblock-solo"
    puzzle_format = "polytile/gridblock-solo-puzzle@1"
    answer_format = "polytile/gridblock-solo-answer@1"
    solver = "gridblock-solo"
    answer_help = ("{\"format\": \"polytile/gridblock-solo-answer@1\", \"setup\": \"setup b3 NE\", "
                   "\"turns\": [\"C3@d4 NE\", ...]}: the set-up move, then one card move per turn "
                   "as 'polytile play' writes them (walks optional: 'C3@d4 NE via c3,c4,d4')")
    summary = "Gridblock solitaires (one colour, known cards) with one optimal plan"
    help = """Gridblock solitaire: blue alone on a seeded layout with its seeded
hands for --size rounds [2-4], played in --order (fixed: as dealt;
free: any order in a round). Exactly one plan scores the most points:
a second exact search, which forbids that plan, proves every other
plan scores less (by the margin). Plans differing only in corners or
walks are one plan."""
    examples = ("polytile generate gridblock-solo -n 5 --db solo.db --order fixed --size 2-3",)
    difficulty_note = ("log2 of the nodes the exact search visits to find the best plan and "
                       "prove every other plan scores less")  # fmt: skip
    size_help = "rounds (gridblock-solo, 1-6)"
    size_default = "2-4"
    options = (
        KindOption(
            "order",
            "--order",
            "free",
            "each round's cards in the dealt order, or in any order.",
            choices=("fixed", "free"),
        ),
    )
    list_note = ("For Gridblock solitaires (gridblock-solo), cells are the 36 tiles and pieces "
                 "the cards to play; the JSON rows add the card order, the rounds and the "
                 "target score.")  # fmt: skip
    show_note = ("Gridblock solitaire: the layout, the set-up draw, the hands and the target; "
                 "--solution adds the plan replayed by the rules engine, the runner-up's score "
                 "and the margin")  # fmt: skip

    def params_type(self) -> type:
        """:class:`~polytile.puzzles.gridblock.generate.GridblockSoloParams`."""
        from polytile.puzzles.gridblock.generate import GridblockSoloParams

        return GridblockSoloParams

    def params_values(
        self,
        size: tuple[int, int],
        size_text: str,
        options: Mapping[str, Any],
        given: frozenset[str],
    ) -> dict[str, Any]:
        """The card order and the rounds."""
        return {"order": options["order"], "min_rounds": size[0], "max_rounds": size[1]}

    def candidate(self, params: Any, seed: int, index: int) -> Candidate:
        """:func:`~polytile.puzzles.gridblock.generate.make_gridblock_solo_candidate`."""
        from polytile.puzzles.gridblock.generate import make_gridblock_solo_candidate

        return make_gridblock_solo_candidate(params, seed, index)

    def puzzle_doc(self, puzzle: Any) -> dict[str, Any]:
        """The ``polytile/gridblock-solo-puzzle@1`` document."""
        from polytile.puzzles.gridblock.generate import puzzle_doc

        return puzzle_doc(puzzle)

    def read_puzzle(self, doc: Any, source: str) -> Any:
        """A :class:`~polytile.puzzles.gridblock.generate.GridblockSoloPuzzle`."""
        from polytile.puzzles.gridblock.generate import parse_solo_puzzle

        return parse_solo_puzzle(doc, source)

    def answer_json(self, puzzle: Any, answer: Any) -> str:
        """The ``polytile/gridblock-solo-answer@1`` document's text."""
        from polytile.puzzles.gridblock.generate import answer_doc

        return json.dumps(answer_doc(puzzle, answer))

    def read_answer(self, text: str, puzzle: Any, source: str) -> Any:
        """A :class:`~polytile.puzzles.gridblock.generate.GridblockSoloAnswer`."""
        from polytile.puzzles.gridblock.generate import parse_solo_answer

        return parse_solo_answer(json.loads(text), puzzle, f"{source} solution")

    def verify(self, puzzle: Any, answer: Any, key: str) -> list[str]:
        """:func:`~polytile.puzzles.gridblock.generate.verify_gridblock_solo`: both searches
        again, and the puzzle's key."""
        from polytile.puzzles.gridblock.generate import verify_gridblock_solo

        return verify_gridblock_solo(puzzle, answer, key)

    def row(self, puzzle: Any) -> dict[str, Any]:
        """Cells: the 36 tiles; pieces: the cards to play."""
        from polytile.puzzles.gridblock.generate import puzzle_summary

        return puzzle_summary(puzzle)

    def caption(self, puzzle: Any) -> str:
        """The rounds, the card order and the target."""
        solo = puzzle.solo
        return f"Gridblock solitaire, {len(solo.hands)} round(s), {solo.order} order, " \
            f"target {puzzle.target}"  # fmt: skip

    def show(self, stored: StoredRow, with_answer: bool, color: bool | None) -> Iterator[str]:
        """The layout, the set-up draw, the hands and the target; with the answer, the plan
        replayed by the rules engine, the runner-up's score and the margin."""
        from polytile.puzzles.gridblock.generate import answer_text, check_answer, question_text

        yield question_text(stored.puzzle) + "\n"
        if with_answer:
            answer = stored.solution()
            problems = check_answer(stored.puzzle, answer)  # the rules engine replays it
            if problems:
                raise UnsoundAnswerError(problems[0])
            yield answer_text(stored.puzzle, answer) + "\n"

    def question(self, puzzle: Any) -> str:
        """:func:`~polytile.puzzles.gridblock.generate.question_text`."""
        from polytile.puzzles.gridblock.generate import question_text

        return question_text(puzzle)

    def attempt(self, puzzle: Any, doc: Any, source: str) -> Attempt:
        """:func:`~polytile.puzzles.gridblock.generate.attempt_answer`."""
        from polytile.puzzles.gridblock.generate import attempt_answer

        return Attempt(*attempt_answer(puzzle, doc, source))


KIND = GridblockSoloKind()

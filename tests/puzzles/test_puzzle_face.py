"""The one-player puzzles' declarations, as the registry finds them."""

from __future__ import annotations

from polytile.faces.puzzle import AnswerFile, CataloguePuzzles, PuzzleSolver
from polytile.faces.registry import ANSWER_FORMATS, PUZZLES, catalogue, puzzle, puzzles


def test_each_declared_puzzle_has_its_registry_name() -> None:
    for name, found in puzzles().items():
        assert isinstance(found, PuzzleSolver) and found.name == name


def test_any_other_name_is_the_catalogues() -> None:
    assert isinstance(catalogue(), CataloguePuzzles)
    assert puzzle("pentomino-6x10") is catalogue() is puzzle("my-puzzle.json")
    assert not set(PUZZLES) & set(catalogue().names())


def test_the_registry_answer_formats_are_the_puzzles_own() -> None:
    declared = {tag: name for name, found in puzzles().items() if isinstance(found, AnswerFile)
                for tag in found.answer_formats}  # fmt: skip
    assert declared == ANSWER_FORMATS


def test_a_puzzle_that_saves_no_file_says_why() -> None:
    for found in [catalogue(), *puzzles().values()]:
        assert found.outputs or found.no_output, found.name

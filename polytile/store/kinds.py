"""Puzzle kinds: what the store and the ``generate``/``puzzles``/``validate`` commands need of
each kind of generated puzzle, declared by the games and found by name.

A game package that generates puzzles has a ``kinds`` module holding one
:class:`PuzzleKind` per kind it makes. :data:`polytile.faces.registry.KINDS` names each one
(``"module:ATTRIBUTE"``) and :func:`kind` imports it the first time it is asked for, so the
store, the generation loop and the commands name no game: a stored row says its kind, and
the kind reads, writes, shows and re-verifies its documents.

A kind is

* **data for the command line**: its :attr:`~PuzzleKind.help` paragraph and examples for
  ``generate --help``, what ``--size`` counts for it and its default, whether it takes
  ``--pieces``, its own options (:class:`KindOption`), and its notes in the help of
  ``puzzles list`` and ``puzzles show``;
* **generation**: its parameters (:meth:`~PuzzleKind.params_type`, built from the command's
  values by :meth:`~PuzzleKind.params_values`), and candidate ``index`` of a run with
  ``(params, seed)`` (:meth:`~PuzzleKind.candidate`), which proves the answer unique or drops
  the candidate;
* **storage**: the puzzle document (:meth:`~PuzzleKind.puzzle_doc`, read back by
  :meth:`~PuzzleKind.read_puzzle`) and the answer text (:meth:`~PuzzleKind.answer_json`,
  :meth:`~PuzzleKind.read_answer`), and the re-verification of a stored puzzle
  (:meth:`~PuzzleKind.verify`: the rules, the uniqueness proof again, the key);
* **presentation**: a row for ``puzzles list``, a caption, the text ``puzzles show``
  prints, and the file ``--file`` prints.

What only some kinds have is declared by a subclass, not stubbed: a :class:`DrawnKind` draws
its puzzles and answers on SVG sheets; a :class:`FileKind`'s puzzles, once exported as files
(``puzzles show N --file``), are read by ``render``, ``solve`` and ``validate``, which also
judges a person's own answer to one (:mod:`polytile.store.files`); a kind with named puzzles
of its own (the tiling catalogue) is a :class:`Catalogued` one.

Examples
--------
>>> packing = kind("packing")
>>> packing.name, packing.size_default, "max_given" in [o.name for o in packing.options]
('packing', '8-12', True)
>>> kind("blokus-endgame")
Traceback (most recent call last):
...
polytile.errors.PolytileError: kind 'blokus-endgame' is not built yet
"""

from __future__ import annotations

import dataclasses
import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from polytile.errors import PolytileError, UnknownNameError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from polytile.formats import PlacedPiece, Solution
    from polytile.geometry import Polyomino
    from polytile.store.candidates import Candidate

__all__ = [
    "Attempt",
    "ByHandKind",
    "Catalogued",
    "DrawnKind",
    "FileKind",
    "HandPiece",
    "KindOption",
    "PuzzleKind",
    "StoredRow",
    "UnsoundAnswerError",
    "kind",
    "kind_names",
]


class UnsoundAnswerError(PolytileError):
    """A stored answer that the rules engine rejects when a kind shows it."""


@dataclass(frozen=True)
class KindOption:
    """An option of ``polytile generate`` that only one kind takes, declared as data (the
    command line builds the option from it).

    Attributes
    ----------
    name
        The parameter's name (``"max_given"``).
    flag
        The option on the command line (``"--max-given"``).
    default
        Its value when not given.
    help
        What it does, without the kind's name (the help line starts with that).
    choices
        The values it takes, for a text option; empty for an integer option.
    bounds
        The least and greatest value of an integer option.
    """

    name: str
    flag: str
    default: int | str
    help: str
    choices: tuple[str, ...] = ()
    bounds: tuple[int, int] | None = None


class StoredRow(Protocol):
    """A stored puzzle as a kind shows it (:class:`polytile.store.db.StoredPuzzle`, read by
    its fields so that the kinds need no import of the store that imports them)."""

    @property
    def puzzle(self) -> Any:
        """The kind's own puzzle object."""

    def solution(self) -> Any:
        """The stored answer, read by the kind."""


class PuzzleKind(ABC):
    """A kind of generated puzzle, as the store and the commands see it.

    Attributes
    ----------
    name
        The kind's name (``packing``), as stored in each row and typed after ``generate``.
    summary
        One line: what a puzzle of this kind is.
    help
        Its paragraph under "KIND is one of" in ``generate --help``: lines of at most 74
        characters, printed as they are.
    examples
        ``polytile generate`` command lines for the help's examples.
    difficulty_note
        How its difficulty is measured when not as for packing puzzles (empty: as those).
    size_help, size_default
        What ``--size MIN-MAX`` counts for it, and its default.
    pieces_default
        The piece set ``--pieces`` defaults to; None when the kind takes no ``--pieces``.
    options
        Its own options.
    list_note, show_note, file_note
        What ``puzzles list``, ``puzzles show`` and ``show --file`` say of its puzzles in
        their help (empty: nothing beyond the general text).
    answer_lead
        Whose lead the values of its stored answers are, in words ("blue's final money minus
        red's"); ``puzzles show --json`` gives it beside the answer. Empty when its answers
        hold no such value (a one-player score is the player's own).
    engines
        The compiled engines (names of :data:`polytile._warm.ENGINES`) its candidates run:
        ``generate`` waits for their first compile once, in a process that a time limit
        does not stop, before its workers start.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    help: ClassVar[str]
    examples: ClassVar[tuple[str, ...]]
    difficulty_note: ClassVar[str] = ""
    size_help: ClassVar[str]
    size_default: ClassVar[str]
    pieces_default: ClassVar[str | None] = None
    options: ClassVar[tuple[KindOption, ...]] = ()
    list_note: ClassVar[str] = ""
    show_note: ClassVar[str] = ""
    file_note: ClassVar[str] = ""
    answer_lead: ClassVar[str] = ""
    engines: ClassVar[tuple[str, ...]] = ()

    # -- parameters -------------------------------------------------------------------------
    @abstractmethod
    def params_type(self) -> type:
        """The frozen dataclass of its parameters (with a ``to_dict`` method)."""

    def parse_params(self, values: Mapping[str, Any]) -> Any:
        """Its parameters from a mapping; missing ones take their defaults.

        Raises
        ------
        UnknownNameError
            For a parameter the kind does not have.
        PolytileError
            For values out of range (the parameters check themselves).
        """
        cls = self.params_type()
        names = {f.name for f in dataclasses.fields(cls)}
        for key in values:
            if key not in names:
                raise UnknownNameError(f"{self.name} parameter", key, sorted(names))
        return cls(**values)

    def describe_params(self, params: Any) -> dict[str, Any]:
        """The parameters as plain JSON values (what a job stores)."""
        return dict(params.to_dict())

    @abstractmethod
    def params_values(
        self,
        size: tuple[int, int],
        size_text: str,
        options: Mapping[str, Any],
        given: frozenset[str],
    ) -> dict[str, Any]:
        """The values of its parameters from the ``generate`` command's.

        Parameters
        ----------
        size, size_text
            ``--size`` as (min, max) and as typed (its default when not given).
        options
            ``piece_set`` (``--pieces``, None when not given) and its own options by name.
        given
            The names of the options typed on the command line (not defaulted).

        Raises
        ------
        OptionError
            When a value does not fit the kind, naming the option.
        """

    # -- generation ---------------------------------------------------------------------------
    @abstractmethod
    def candidate(self, params: Any, seed: int, index: int) -> Candidate:
        """Candidate ``index`` of a run with ``params`` and ``seed``: a puzzle whose answer is
        proved unique (with its key, difficulty and search figures), or the reason it was
        dropped. Deterministic: the same arguments give the same candidate in any process."""

    # -- storage ------------------------------------------------------------------------------
    @abstractmethod
    def puzzle_doc(self, puzzle: Any) -> dict[str, Any]:
        """The stored JSON document of a puzzle (with its ``format`` tag)."""

    @abstractmethod
    def read_puzzle(self, doc: Any, source: str) -> Any:
        """A puzzle from its stored document.

        Raises
        ------
        FormatError
            Naming ``source`` and the field at fault.
        """

    @abstractmethod
    def answer_json(self, puzzle: Any, answer: Any) -> str:
        """The stored text of a puzzle's answer."""

    @abstractmethod
    def read_answer(self, text: str, puzzle: Any, source: str) -> Any:
        """A puzzle's answer from its stored text (``source``: ``"puzzle ID"``).

        Raises
        ------
        FormatError
            When the text is not such an answer.
        """

    @abstractmethod
    def verify(self, puzzle: Any, answer: Any, key: str) -> list[str]:
        """Every problem with a stored puzzle, by a full re-verification: the answer by the
        rules engine, uniqueness by the proof searched again without limits, and that
        ``key`` is the puzzle's canonical key. Empty when sound."""

    # -- presentation ------------------------------------------------------------------------
    @abstractmethod
    def row(self, puzzle: Any) -> dict[str, Any]:
        """Its columns in ``puzzles list``: ``board``, ``cells``, ``pieces``, ``given`` (and
        any the JSON rows add)."""

    @abstractmethod
    def caption(self, puzzle: Any) -> str:
        """What a puzzle's caption says after its id and difficulty."""

    @abstractmethod
    def show(self, stored: StoredRow, with_answer: bool, color: bool | None) -> Iterator[str]:
        """The text ``puzzles show`` prints after the caption, in pieces as they are made
        (each ends its own lines).

        Raises
        ------
        UnsoundAnswerError
            When ``with_answer`` and the rules engine rejects the stored answer.
        """

    def puzzle_file(self, doc: dict[str, Any]) -> Any:
        """The document ``puzzles show --file`` prints: the stored one, unless the kind's
        puzzles are files of another shape (a position, say)."""
        return doc


class DrawnKind(PuzzleKind):
    """A kind whose puzzles and answers are drawn on the SVG sheets ``puzzles export``
    writes."""

    @abstractmethod
    def picture(self, puzzle: Any) -> Solution:
        """The puzzle as a drawable solution: its given pieces in place, the rest empty."""

    @abstractmethod
    def answer_picture(self, answer: Any) -> Solution:
        """The answer as a drawable solution."""


@dataclass(frozen=True)
class HandPiece:
    """A piece a person places when solving a puzzle by hand (:class:`ByHandKind`).

    Attributes
    ----------
    name
        The piece's name, as the puzzle's answers write it.
    color
        Its colour, for puzzles whose pieces have one (a teaser's hands); else None.
    count
        How many copies are placed by hand (given pieces not counted).
    shape
        The piece in one orientation.
    one_sided
        Whether it may only be turned, not turned over.
    """

    name: str
    color: str | None
    count: int
    shape: Polyomino
    one_sided: bool = False


class ByHandKind(DrawnKind):
    """A drawn kind whose puzzles a person can solve by hand, a piece at a time, the rules
    refusing each placement they already forbid and judging the whole answer at the end
    (the web board's "Solve by hand")."""

    @abstractmethod
    def hand(self, puzzle: Any) -> tuple[HandPiece, ...]:
        """The pieces left to place on the puzzle as given."""

    @abstractmethod
    def step_problems(self, puzzle: Any, placed: Sequence[PlacedPiece],
                      step: PlacedPiece) -> list[str]:  # fmt: skip
        """Why ``step`` may not follow the pieces ``placed`` by hand so far (empty: it
        may)."""

    @abstractmethod
    def placed_answer(self, puzzle: Any, placed: Sequence[PlacedPiece]) -> Solution:
        """The given pieces and those ``placed``, as a drawable answer (not checked)."""

    @abstractmethod
    def check_answer(self, puzzle: Any, answer: Any) -> list[str]:
        """The problems the rules checker finds with a whole answer (empty: a solution);
        the check ``polytile validate SOLUTION --puzzle`` makes."""


@dataclass(frozen=True)
class Attempt:
    """A person's answer to a puzzle, replayed by the rules (:meth:`FileKind.attempt`).

    Attributes
    ----------
    score
        What the answer makes by the rules; None when a move of it is illegal.
    problems
        Every rule it breaks, and every figure it states that the rules count otherwise.
    picture
        The answer drawn (text), when it replays.
    """

    score: int | None
    problems: list[str]
    picture: str = ""


class FileKind(PuzzleKind):
    """A kind whose exported puzzles are files of their own (``puzzles show N --file``):
    ``render`` draws one, ``solve`` solves it with the one-player puzzle :attr:`solver`
    names, and ``validate`` checks one, or an answer to one against it.

    Attributes
    ----------
    puzzle_format, answer_format
        The ``format`` tags of its puzzle documents and of its answers (the registry's
        :data:`~polytile.faces.registry.PUZZLE_FILES` lists both).
    solver
        The name of the puzzle ``polytile solve`` solves its files with (in
        :data:`~polytile.faces.registry.PUZZLES`), which reads ``SolveRequest.document``.
    answer_help
        How a person writes an answer, for the messages that refuse one.
    """

    puzzle_format: ClassVar[str]
    answer_format: ClassVar[str]
    solver: ClassVar[str]
    answer_help: ClassVar[str]
    file_note = ("for 'polytile solve FILE', 'render' and 'validate' (which replays an answer "
                 "with --puzzle FILE), not count")  # fmt: skip

    @abstractmethod
    def question(self, puzzle: Any) -> str:
        """The puzzle drawn as text, with its coordinates, a legend and the question."""

    @abstractmethod
    def attempt(self, puzzle: Any, doc: Any, source: str) -> Attempt:
        """A person's answer (a decoded ``answer_format`` document, of which only the moves
        are needed; figures it states are checked too) replayed by the rules on ``puzzle``.

        Raises
        ------
        FormatError
            When the document cannot be read as an answer (naming the field).
        """


@runtime_checkable
class Catalogued(Protocol):
    """A kind with named puzzles of its own, listed by ``polytile puzzles``."""

    def catalogue(self) -> list[dict[str, Any]]:
        """One row per named puzzle: ``name``, ``board``, ``pieces``, ``known_count``,
        ``known_count_up_to_symmetry`` and ``description``."""
        ...  # pragma: no cover - a protocol


_loaded: dict[str, PuzzleKind] = {}


def kind_names() -> tuple[str, ...]:
    """The names of the kinds that can be generated, in the registry's order."""
    from polytile.faces.registry import KINDS

    return tuple(KINDS)


def kind(name: str) -> PuzzleKind:
    """The kind called ``name``, its module imported on first use.

    Raises
    ------
    PolytileError
        For a kind that is planned but not built.
    UnknownNameError
        For any other unknown name (the message lists the kinds).
    """
    found = _loaded.get(name)
    if found is None:
        from polytile.faces.registry import KINDS, PLANNED_KINDS

        if name in PLANNED_KINDS:
            raise PolytileError(f"kind {name!r} is not built yet")
        target = KINDS.get(name)
        if target is None:
            raise UnknownNameError("puzzle kind", str(name), sorted(KINDS))
        module, _, attribute = target.partition(":")
        found = _loaded[name] = getattr(importlib.import_module(module), attribute)
    return found

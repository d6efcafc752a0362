"""Named one-player puzzles: how ``polytile solve NAME`` reaches a puzzle its game declares.

A game that has a one-player puzzle (City Blocks (Ritchie)'s best layout of one colour,
Gridblock's solitaire, Walkable Cities' largest path, the Blokus teasers played on the full
rules) declares it as a :class:`PuzzleSolver`: its name, its options as data
(:class:`~polytile.faces.face.Option`, from which the command line builds its options and
refuses those of another puzzle), its help, and :meth:`PuzzleSolver.solve`, which prints
through a :class:`~polytile.faces.face.Console` as the faces' verbs do. The registry
(:data:`polytile.faces.registry.PUZZLES`) names each by ``module:ATTRIBUTE``, so ``solve``
names no game and loads only the puzzle asked for.

The tiling catalogue (named puzzles, the coloured teasers, puzzle files) is a
:class:`CataloguePuzzles`: a puzzle solver for every name no other puzzle takes, which also
counts (``polytile count``) and checks solution files against their puzzle (``validate``).
A puzzle whose answers are solution files that only it can judge (eighty-four's play order)
is an :class:`AnswerCheck` too.

Every answer printed has passed the puzzle's own rules check first, which shares no code
with the solvers.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn

from polytile.errors import OptionError
from polytile.faces.base import Clock, Console, Option
from polytile.text import printable, wrote

__all__ = [
    "ENGINE_OPTION",
    "PICTURE_OUTPUTS",
    "SEED_NOTE",
    "TIME_NOTE",
    "WORKERS_OPTION",
    "AnswerCheck",
    "AnswerFile",
    "CataloguePuzzles",
    "Clock",
    "CountRequest",
    "PuzzleSolver",
    "SolveRequest",
    "against_target",
    "emit_solution",
    "give_up",
    "refuse_engine",
    "report_target",
    "save_solution",
    "wrong_target",
]

#: ``--engine cpsat``, as the puzzles with an exact branch and bound and a CP-SAT model say it.
ENGINE_OPTION = Option("engine", "cpsat solves the CP-SAT model instead of the exact branch "
                       "and bound.", ("cpsat",))  # fmt: skip
#: ``--workers``, as the puzzles that run CP-SAT say it.
WORKERS_OPTION = Option("workers", "The workers of CP-SAT [default: 2].", low=1, high=64)
#: What ``--seed`` is to a puzzle made from it (:attr:`PuzzleSolver.notes`).
SEED_NOTE = "{name}: the seed of the puzzle itself [default: 0]."
#: What their ``--time-limit`` does.
TIME_NOTE = "{name}: 60 s by default; when it runs out, the best found so far, labelled not proven."


#: What ``-o`` saves for a puzzle whose answer is a solution file: the file, or a picture.
PICTURE_OUTPUTS = (".json", ".svg", ".png", ".txt")


@dataclass(frozen=True)
class SolveRequest:
    """What ``polytile solve`` asks of a puzzle.

    Attributes
    ----------
    puzzle
        The name (or file) as given.
    clock
        The front end's :class:`Clock`.
    options
        The puzzle's own options given (those of :attr:`PuzzleSolver.options`), by name;
        a puzzle takes its defaults for the rest.
    time_limit
        The whole command's limit in seconds as given (None: the puzzle's default).
    """

    puzzle: str
    clock: Clock
    options: Mapping[str, Any] = field(default_factory=dict)
    as_json: bool = False
    output: str | None = None
    color: bool | None = None
    seed: int | None = None
    time_limit: float | None = None
    #: The puzzle read from a file exported from a store (``polytile solve PUZZLE.json``),
    #: for a puzzle whose kind's files it solves; None for a puzzle made from the options.
    document: Any = None

    def option(self, name: str, default: Any = None) -> Any:
        """The value of the puzzle's option ``name``, or ``default`` when not given."""
        value = self.options.get(name)
        return default if value is None else value


@dataclass(frozen=True)
class CountRequest:
    """What ``polytile count`` asks of the catalogue: the puzzle, its variant options given
    (by name), and how to run the count."""

    puzzle: str
    clock: Clock
    options: Mapping[str, Any] = field(default_factory=dict)
    workers: int | None = None
    scheduler: str | None = None
    time_limit: float | None = None
    symmetry: bool = True
    as_json: bool = False
    progress: bool = True
    #: "auto", "search" or "frontier" (:func:`polytile.solvers.counting.count_tiling`).
    engine: str = "auto"
    #: Bytes the frontier engine may hold (None: its default).
    memory: int | None = None
    #: Estimate only: random paths (this many) instead of a count.
    estimate: int | None = None
    #: Seed of the estimate's random paths.
    seed: int = 0
    #: What the count up to symmetry is taken under: "board", "rotations" or "none".
    group: str = "board"
    #: The cells where the solutions differ, instead of a count; at most ``limit`` read.
    differ: bool = False
    limit: int = 100_000


class PuzzleSolver(ABC):
    """A one-player puzzle as ``polytile solve`` sees it; subclasses set the class
    attributes and solve.

    Attributes
    ----------
    name
        The name ``polytile solve NAME`` takes.
    label
        How the help of its options names it ("gridblock-solo", "Teasers").
    help
        What it is, for the list of puzzles in ``solve --help``.
    examples
        ``polytile solve`` command lines for the help's examples.
    options
        Its own options beyond those every puzzle takes (``--json``, ``-o``, ``--color``,
        ``--seed``, ``--time-limit``).
    notes
        What it adds to the help of those shared options, by option (``"seed"``,
        ``"time_limit"``, ``"output"``): a sentence in which ``{name}`` stands for the
        puzzles that say the same.
    outputs
        The suffixes ``-o`` takes; empty when it saves no file (:attr:`no_output` says why).
    output_note
        What each suffix saves, said when another one is refused.
    """

    name: ClassVar[str]
    label: ClassVar[str]
    help: ClassVar[str]
    examples: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()
    notes: ClassVar[Mapping[str, str]] = {}
    outputs: ClassVar[tuple[str, ...]] = PICTURE_OUTPUTS
    output_note: ClassVar[str] = (" (.json: the solution, read back by validate and render; "
                                  "the others: a picture)")  # fmt: skip
    #: Why ``-o`` is refused, for a puzzle that saves no file.
    no_output: ClassVar[str] = ""
    #: The options that make the puzzle (with ``--seed``), which a puzzle read from a file
    #: (``SolveRequest.document``) refuses.
    making_options: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def solve(self, console: Console, request: SolveRequest) -> None:
        """Solve the puzzle and print its answer (text, ``--json``, the file ``-o`` names),
        checked by the rules engine first.

        Ends with ``SystemExit`` 1 when there is no answer or it is not proven in the time
        limit, 130 after a Ctrl-C, each said on standard error.

        Raises
        ------
        OptionError
            For options the puzzle cannot take (together).
        SolverError
            When an answer fails the rules check (never printed).
        """


class AnswerCheck(PuzzleSolver):
    """A puzzle whose answers are solution files that only it can judge (``validate``)."""

    @abstractmethod
    def check_answer(self, solution: Any, against: str,
                     recorded: bool) -> tuple[str, list[str]] | None:  # fmt: skip
        """The puzzle ``solution`` was checked against and every rule it breaks (empty when
        valid), if it is an answer to this puzzle; None when it is not.

        ``against`` is the puzzle named by ``--puzzle`` or else by the file; ``recorded``
        is True when no option says which puzzle, so that what the file records counts.
        """

    def drawn(self, solution: Any) -> Any:
        """What ``render`` draws for ``solution``, an answer to this puzzle: by default the
        solution itself (its placements); a puzzle whose board holds more than the answer
        places (City Blocks' centre squares) gives a solution with those too."""
        return solution


class AnswerFile(PuzzleSolver):
    """A puzzle whose answers are files of a format of its own, which ``validate`` checks
    (registered by their ``format`` tag in :data:`polytile.faces.registry.ANSWER_FORMATS`).

    Attributes
    ----------
    answer_formats
        The ``format`` tags of its answer files.
    """

    answer_formats: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def validate_answer(self, console: Console, file: str, as_json: bool) -> None:
        """``validate`` of an answer file: valid, or every problem on a line and
        ``SystemExit`` 1; a file that cannot be read raises FormatError (exit 2)."""


class CataloguePuzzles(PuzzleSolver):
    """The puzzles of every name no declared puzzle takes: a catalogue of named puzzles and
    puzzle files, which ``count`` counts and ``validate`` checks solution files against.

    Attributes
    ----------
    variant_options
        The options of ``count`` and ``validate`` (a variant of a named puzzle).
    """

    variant_options: ClassVar[tuple[Option, ...]] = ()

    @abstractmethod
    def names(self) -> list[str]:
        """Every name of the catalogue."""

    @abstractmethod
    def count(self, console: Console, request: CountRequest) -> None:
        """``polytile count``: every solution, raw and up to symmetry; an incomplete count
        (time limit, Ctrl-C) is reported as such and ends with ``SystemExit`` 0 or 130."""

    @abstractmethod
    def check(self, console: Console, solution: Any, against: str | None,
              placements_only: bool, options: Mapping[str, Any],
              ) -> tuple[str | None, list[str]]:  # fmt: skip
        """``validate`` of a solution file: the puzzle it was checked against (None: its
        placements only) and every rule it breaks. ``against`` is ``--puzzle``;
        ``options`` the variant options given."""


def report_target(console: Console, document: Any, reached: int | None, proven: bool,
                  code: int, *, quiet: bool = False) -> None:
    """Say what a puzzle file's stored target says of the answer found, ``reached`` (None:
    none found): reached (the one best answer), or the best found so far. Nothing for a
    puzzle made from the options, nor with ``quiet`` (``--json``, whose result names the
    target, or no answer to speak of).

    Raises
    ------
    SystemExit
        ``code``, after saying why on standard error, when the target cannot be the
        optimum (:func:`wrong_target`), ``quiet`` or not.
    """
    wrong = wrong_target(document, reached, proven)
    if wrong is not None:
        console.err(wrong)
        raise SystemExit(code)
    if document is None or quiet:
        return
    if reached == document.target:
        console.out(f"{document.name}: the puzzle's target {document.target} is reached")
    else:
        console.out(f"{document.name}: the puzzle's target is {document.target}; best found "
                    f"{reached}")  # fmt: skip


def wrong_target(document: Any, reached: int | None, proven: bool) -> str | None:
    """Why a puzzle file's stored target cannot be its optimum, or None: the search proved
    another optimum, or found an answer above the target (an answer can only be maximised,
    so the target is then wrong, proven or not). Such a file was changed after its store
    proved it: ``solve`` says so and exits 1, as ``validate`` calls a file that misstates
    itself invalid (#48: it exited 0)."""
    if document is None or reached is None or reached == document.target:
        return None
    name, target = document.name, document.target
    if proven:
        return (f"{name}: the file's target is {target}, but the proven optimum is "
                f"{reached}: the file is not the puzzle its store proved (was it changed?)")
    if reached > target:
        return (f"{name}: the file's target is {target}, but an answer scoring {reached} "
                "was found: the target is not the optimum, so the file is not the puzzle its "
                "store proved (was it changed?)")
    return None


def against_target(said: str, score: int, target: int, answer: str = "answer",
                   measure: str = "score") -> list[str]:  # fmt: skip
    """What an answer's ``score`` (``said``: how the answer makes it, in words) says against
    a puzzle file's ``target``, the ``measure`` its file gives the one best ``answer`` (not
    proven here): below it, the answer is not the best; above it, the file's target is
    wrong, as no answer beats the best one (#48: "the best plan scores 15"). Empty when
    they agree.

    >>> print(*against_target("it scores 9", 9, 15, "plan"))
    it scores 9, below the puzzle's target 15 (the score its file gives the one best plan)
    """
    if score < target:
        return [f"{said}, below the puzzle's target {target} (the {measure} its file gives "
                f"the one best {answer})"]  # fmt: skip
    if score > target:
        return [f"{said}, above the puzzle's target {target}: no {answer} beats the best "
                "one, so the file's target is wrong and the file is not the puzzle its store "
                "proved (was it changed?)"]  # fmt: skip
    return []


def give_up(console: Console, name: str, status: str, message: str, as_json: bool) -> NoReturn:
    """End a solve without an answer: ``message`` on standard error and, for ``--json``, a
    result ``{"puzzle", "status", "solution": null, "message"}``. ``SystemExit`` 130 when
    ``status`` is "interrupted", else 1 ("infeasible": none exists; "unknown": none found
    in the time limit)."""
    console.err(f"{printable(name)}: {message}")
    if as_json:
        doc = {"puzzle": name, "status": status, "solution": None, "message": message}
        console.out(json.dumps(doc))
    raise SystemExit(130 if status == "interrupted" else 1)


def emit_solution(console: Console, solution: Any, request: SolveRequest,
                  check: Callable[[Any], list[str]] | None = None,
                  picture: Callable[[str], None] | None = None) -> None:  # fmt: skip
    """Print a solution (its JSON for ``--json``, else its picture) and save it to the file
    ``-o`` names (:func:`save_solution`), once ``check`` (the puzzle's rules) passes it.

    Raises
    ------
    SolverError
        When ``check`` finds a broken rule.
    """
    from polytile import formats, render
    from polytile.errors import SolverError

    if check is not None:
        reasons = check(solution)
        if reasons:
            raise SolverError(f"solution failed the rules check: {'; '.join(reasons)}")
    save_solution(console, solution, request.output, picture)
    if request.as_json:
        console.out(formats.dumps(solution))
    else:
        console.out(render.to_text(solution, color=request.color))


def save_solution(console: Console, solution: Any, output: str | None,
                  picture: Callable[[str], None] | None = None) -> None:  # fmt: skip
    """Save ``solution`` to ``output``: its file for ``.json``, else a picture (drawn by
    ``picture(output)``, by default the solution's own); nothing without ``output``."""
    from polytile import formats, render
    from polytile._files import output_suffix

    if not output:
        return
    if output_suffix(output, ".json") == ".json":
        formats.save(solution, output)
        console.err(wrote(output, "saved"))
        return
    if picture is None:
        render.save_picture(solution, output)
    else:
        picture(output)
    console.err(f"{wrote(output, 'saved')} (a picture: no command reads it back; -o with "
                ".json saves a file that validate and render read)")  # fmt: skip


def refuse_engine(name: str, engine: str | None) -> str:
    """``"cpsat"`` for ``--engine cpsat``, ``"search"`` (the puzzle's exact branch and bound)
    when no engine is given; another engine is refused (:class:`OptionError`)."""
    if engine is not None and engine != "cpsat":
        raise OptionError(f"{name}: --engine cpsat uses the CP-SAT model; without it, the exact "
                          "branch and bound")  # fmt: skip
    return "cpsat" if engine == "cpsat" else "search"

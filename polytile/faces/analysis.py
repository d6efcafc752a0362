"""A game record analysed move by move, the same way for every game with an exact solver.

A face that can value positions is an :class:`AnalyseFace`: for one move of a record it
gives a :class:`Review` (the value before and after the move, what the move lost for its
player and a best move in its place, exact or labelled as an estimate). :func:`analyse`
walks the record from its end backward (the late positions are the cheap ones, so a time
limit or Ctrl-C still leaves the last moves analysed), until the solver can no longer settle
a position or the time is up; :meth:`AnalyseFace.analyse` prints the one output shape every
game shares: a table, ``--json``, and the record written back with the analysis in it.

Every value is a lead, and says whose (:attr:`AnalyseFace.lead`): "blue's money minus
red's" in City Blocks (Henning), "red's boards won minus blue's" in Walkable Cities.
A move's loss is what it took from its own player: the lead going down when the mover owns
it, up when the other side does. An exact loss is never negative: a move cannot gain over
the value of the position it was played in, and :func:`analyse` refuses such an answer as a
solver bug (:class:`~polytile.errors.SolverError`).
"""

from __future__ import annotations

import json
import time
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from polytile.errors import SolverError
from polytile.faces.face import Console, Face
from polytile.text import counted, wrote

if TYPE_CHECKING:
    from polytile.faces.base import Clock

__all__ = ["AnalyseFace", "AnalyseRequest", "Analysis", "OwnAnalysisFace", "Review", "analyse",
           "review_time"]


@dataclass(frozen=True)
class Review:
    """One move of a record, valued.

    Attributes
    ----------
    number
        The move's number (1 is the first move of the record).
    player
        Who made it.
    move
        The move, in the game's notation.
    before, after
        The value (a lead, see :attr:`AnalyseFace.lead`) before and after the move.
    loss
        What the move cost its player (0: a best move).
    best
        A best move in its place.
    exact
        False for an estimate (a value averaged over what the player could not see).
    note
        How the values were found, when it needs saying ("from blue's view").
    at_once
        True when every player moved at once: :attr:`loss` is then the change of the lead
        (both moves made it; it may be negative).
    """

    number: int
    player: str
    move: str
    before: float
    after: float
    loss: float
    best: str
    exact: bool = True
    note: str = ""
    at_once: bool = False

    def as_dict(self) -> dict[str, Any]:
        """This review as JSON (and as stored in a record's ``analysis``)."""
        return {"number": self.number, "player": self.player, "move": self.move,
                "value_before": _num(self.before), "value_after": _num(self.after),
                "loss": _num(self.loss), "best_move": self.best,
                "kind": "exact" if self.exact else "estimate", "note": self.note}  # fmt: skip


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(float(x), 4)


@dataclass
class Analysis:
    """What :func:`analyse` found: the moves reviewed (in the record's order), how many the
    record has, those the solver could not settle (``skipped``, by number), and why it
    stopped before the first move (``"time"``, ``"interrupt"``; None: it went through)."""

    total: int
    reviews: list[Review] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    stopped: str | None = None
    why: str = ""
    seconds: float = 0.0


class AnalyseFace(Face):
    """A face whose game's solver values positions, so that ``polytile analyse`` can go
    through a record.

    Attributes
    ----------
    lead
        Whose lead every value is, in words ("blue's money minus red's at the end").
    stop_errors
        The errors (``"module:Name"``, imported when needed) that mean the time limit or
        Ctrl-C stopped the solver (with a ``reason``).
    analysis_options
        The :class:`AnalyseRequest` fields beyond the clock, the time limit, ``--json`` and
        ``-o`` that :meth:`review` reads (as :attr:`OwnAnalysisFace.analysis_options`); the
        CLI refuses them for the other games' records.
    record_format_name
        The format of the records it analyses, in words, as ``analyse`` lists what it reads
        (polytile's JSON files, which :meth:`analyse` writes back).
    """

    lead: ClassVar[str]
    analysis_options: ClassVar[frozenset[str]] = frozenset()
    record_format_name: ClassVar[str] = "polytile JSON"
    #: What one step of a record is called ("move"; "round" where everyone moves at once).
    move_word: ClassVar[str] = "move"

    def record_length(self, doc: Any) -> int:
        """How many moves the record ``doc`` has (rounds, for a game of rounds)."""
        return len(doc.moves)

    @abstractmethod
    def review(self, file: str, index: int, time_limit: float, cache: dict[Any, Any],
               request: AnalyseRequest) -> Review | None:  # fmt: skip
        """The review of move ``index + 1`` of the record in ``file`` (the position after
        ``index`` moves, then the move); None when the solver cannot settle it (the move is
        skipped). ``request`` carries the game options of :attr:`analysis_options`.

        ``cache`` is kept between the calls of one analysis (the value after a move is the
        value before the next); a function in its list ``"close"`` is called once the
        analysis ends (to stop worker processes, say). ``time_limit`` is what is left.

        Raises
        ------
        The game's stop errors
            When the time or Ctrl-C ends the work first (:func:`analyse` catches those
            :attr:`stop_errors` names).
        """

    stop_errors: ClassVar[tuple[str, ...]] = ()

    def estimate_review(self, file: str, index: int, seconds: float,
                        cache: dict[Any, Any]) -> Review | None:  # fmt: skip
        """An estimate of move ``index + 1`` in about ``seconds`` (``exact`` False, its
        ``note`` saying what it rests on), for the moves :meth:`review` did not value in its
        share of the time; None: this game gives none (those moves stay unanalysed)."""
        return None

    def analyse(self, console: Console, file: str, request: AnalyseRequest) -> None:
        """``polytile analyse``: the table (or ``request.as_json``, JSON) of the moves the
        solver settles, from the end of the record backward; with ``request.output``, the
        record written there with the analysis in its ``analysis`` field; the game's own
        options go on to :meth:`review`. Exit 1 when incomplete, 130 after Ctrl-C."""
        from polytile.formats import write_atomic

        output = request.output
        doc = self.read(file)
        if doc.kind != "record":
            from polytile.errors import OptionError

            raise OptionError(f"{file} is a {doc.kind}; analyse goes through a game record",
                              "RECORD")  # fmt: skip
        word = self.move_word
        with console.progress("analysis", True,
                              lambda p: f"{counted(p.done, word)} reviewed") as update:  # fmt: skip
            result = analyse(self, file, request, update)
        if output is not None and result.reviews:
            doc.extra["analysis"] = {"lead": self.lead,
                                     "moves": [r.as_dict() for r in result.reviews]}  # fmt: skip
            write_atomic(output, self.dumps(doc))
            console.err(wrote(output))
        elif output is not None:
            console.err(f"nothing written to {output}: no move analysed")
        if request.as_json:
            console.out(json.dumps({"game": self.name, "lead": self.lead,
                                    "total_moves": result.total,
                                    "moves": [r.as_dict() for r in result.reviews],
                                    "not_settled": result.skipped,
                                    "complete": result.stopped is None,
                                    "stopped": result.stopped}))  # fmt: skip
        else:
            _print(console, self, result)
        if result.stopped is not None:
            console.err(f"{file}: {result.why}")
            raise SystemExit(130 if result.stopped == "interrupt" else 1)
        if result.total and not result.reviews:  # exit 1, as --help says (it was 0)
            console.err(f"{file}: no {self.move_word} analysed: the solver settles none of "
                        "its positions (hidden hands or cards it cannot solve, or positions "
                        "too large for it)")  # fmt: skip
            raise SystemExit(1)


@dataclass(frozen=True)
class AnalyseRequest:
    """What ``polytile analyse`` asks of a game (:meth:`AnalyseFace.analyse`,
    :meth:`OwnAnalysisFace.analyse_own`).

    Attributes
    ----------
    clock
        The front end's :class:`~polytile.faces.base.Clock`.
    time_limit
        The whole command's limit in seconds, counted from its start.
    output
        Where to write the record with its analysis (``.json``, or a suffix of
        :attr:`OwnAnalysisFace.analysis_outputs`), or None.
    max_pieces
        Analyse from the first position where no player can place more pieces than this
        (a game that declares it in :attr:`OwnAnalysisFace.analysis_options`); None: the
        game's default.
    max_drops
        Value a position only when no piece has more legal drops than this (a game that
        declares it in :attr:`AnalyseFace.analysis_options`, as ``solve-endgame
        --max-drops``).
    exact_only
        Exact values only: no estimates for the moves the exact analysis leaves (which then
        stay unvalued), and the whole time for the exact analysis.
    reads
        The game records ``analyse`` reads, in words, as the front end lists its games
        ("Gridblock records (polytile JSON) and Blokus records (Pentobi .blksgf)"): what the
        refusal of a file that is none of them names.
    """

    clock: Clock
    time_limit: float = 60.0
    as_json: bool = False
    output: Path | None = None
    max_pieces: int | None = None
    max_drops: int = 6
    reads: str = ""
    exact_only: bool = False


class OwnAnalysisFace(Face):
    """A face whose game analyses its records its own way, with an output of its own
    rather than the one :class:`AnalyseFace` shares (Blokus keeps its exact values from the
    first position its endgame search accepts, and its records annotated with comments).

    It also speaks for the files no game's face analyses: :meth:`analyse_own` says what
    ``analyse`` needs and what the file is.

    Attributes
    ----------
    analysis_options
        The :class:`AnalyseRequest` fields beyond the clock, the time limit, ``--json``
        and ``-o`` that the game reads; the CLI refuses them for the other games' records.
    analysis_outputs
        The suffixes ``-o`` takes, and what the file written is (for the refusal of
        another).
    record_format_name
        The format of the records it analyses, in words, as ``analyse`` lists what it reads
        ("Pentobi .blksgf").
    """

    analysis_options: ClassVar[frozenset[str]] = frozenset()
    analysis_outputs: ClassVar[tuple[tuple[str, ...], str]] = ((), "")
    record_format_name: ClassVar[str]

    @abstractmethod
    def analyse_own(self, console: Console, file: str, request: AnalyseRequest) -> None:
        """``polytile analyse`` on ``file``: the moves analysed (text or ``--json``), the
        record written to ``request.output`` with the analysis; a file that is not one of
        the game's records is refused (:class:`~polytile.errors.FormatError`), saying what
        it is. Exit 1 when incomplete or nothing could be analysed, 130 after Ctrl-C."""


#: The share of ``analyse``'s time its reviews (exact where they can be) may take when the
#: game also estimates (:meth:`AnalyseFace.estimate_review`): the rest estimates the moves
#: they left, so that the whole record is valued.
REVIEW_SHARE = 0.6
#: ... but at least this many seconds are kept for each move that may need an estimate.
ESTIMATE_FLOOR = 0.3


def review_time(seconds: float, moves: int) -> float:
    """The reviews' share of ``seconds`` when the ``moves`` they leave are estimated after
    them: :data:`REVIEW_SHARE`, less :data:`ESTIMATE_FLOOR` a move, never under half that
    share."""
    return max(seconds * REVIEW_SHARE / 2,
               min(seconds * REVIEW_SHARE, seconds - ESTIMATE_FLOOR * moves))


def analyse(face: AnalyseFace, file: str, request: AnalyseRequest,
            progress: Callable[[Any], None] | None = None) -> Analysis:  # fmt: skip
    """Review the moves of the record in ``file`` from the last backward, skipping those the
    solver cannot settle, until the first move, what the front end's clock leaves of
    ``request.time_limit`` (less a quarter second to report) or Ctrl-C (``request``: the
    game options for :meth:`AnalyseFace.review` too).

    A game that estimates (:meth:`AnalyseFace.estimate_review`) gives its reviews
    :data:`REVIEW_SHARE` of the time (less :data:`ESTIMATE_FLOOR` a move, but never under
    half that share), then estimates
    every move they left, the time left shared evenly among those: estimates are marked
    apart from exact values, and every move is valued.

    Raises
    ------
    SolverError
        If an exact review says a move gained over the value before it.
    """
    from types import SimpleNamespace

    started = time.perf_counter()
    time_limit = request.clock.left(request.time_limit, reserve=0.25) or request.time_limit
    total = face.record_length(face.read(file))
    estimates = (type(face).estimate_review is not AnalyseFace.estimate_review
                 and not request.exact_only)  # fmt: skip
    first = review_time(time_limit, total) if estimates else time_limit
    result = Analysis(total)
    cache: dict[Any, Any] = {}
    note = SimpleNamespace(done=0, total=total, seconds=0.0)

    def elapsed() -> float:
        return time.perf_counter() - started

    def keep(review: Review) -> None:
        result.reviews.append(review)
        result.reviews.sort(key=lambda r: r.number)
        if progress is not None:
            note.done, note.seconds = len(result.reviews), elapsed()
            progress(note)

    left_out: list[int] = []  # indices the reviews did not reach
    try:
        for index in range(total - 1, -1, -1):
            left = first - elapsed()
            if left <= 0:
                left_out = list(range(index + 1))
                if not estimates:
                    result.stopped, result.why = "time", _time_why(result, total)
                break
            try:
                review = face.review(file, index, left, cache, request)
            except _errors(face.stop_errors) as stop:
                if not estimates or getattr(stop, "reason", "time") == "interrupt":
                    raise
                left_out = list(range(index + 1))
                break
            if review is None:
                result.skipped.insert(0, index + 1)
                continue
            if review.exact and not review.at_once and review.loss < -1e-9:
                raise SolverError(f"move {review.number} ({review.move}) would gain "
                                  f"{-review.loss:g} over the exact value before it")  # fmt: skip
            keep(review)
        if estimates:
            todo = sorted({*left_out, *(n - 1 for n in result.skipped)}, reverse=True)
            for done, index in enumerate(todo):
                share = (time_limit - elapsed()) / (len(todo) - done)
                if share <= 0:
                    result.stopped, result.why = "time", _time_why(result, total)
                    break
                review = face.estimate_review(file, index, share, cache)
                if review is not None:
                    if index + 1 in result.skipped:
                        result.skipped.remove(index + 1)
                    keep(review)
                elif index + 1 not in result.skipped:  # its share was too short for it
                    result.skipped.append(index + 1)
                    result.skipped.sort()
            if result.stopped is None and result.skipped:  # every move was to be valued
                result.stopped = "time"
                whose = "its estimate" if len(result.skipped) == 1 else "their estimates"
                result.why = (f"{_ranges(result.skipped, face.move_word)} not valued: {whose} "
                              "did not fit in the time left (--time-limit)")  # fmt: skip
    except KeyboardInterrupt:
        result.stopped, result.why = "interrupt", "interrupted (Ctrl-C)"
    except _errors(face.stop_errors) as stop:
        reason = getattr(stop, "reason", "time")
        result.stopped = "interrupt" if reason == "interrupt" else "time"
        result.why = "interrupted (Ctrl-C)" if reason == "interrupt" else _time_why(result, total)
    finally:
        for close in cache.get("close", ()):
            close()
    result.seconds = time.perf_counter() - started
    return result


def _errors(names: tuple[str, ...]) -> tuple[type[BaseException], ...]:
    """The exception classes named ``"module:Name"``."""
    import importlib

    return tuple(getattr(importlib.import_module(m), n)
                 for m, _, n in (name.partition(":") for name in names))  # fmt: skip


def _time_why(result: Analysis, total: int) -> str:
    done = len(result.reviews)
    numbers = [r.number for r in result.reviews]
    if numbers == list(range(total - done + 1, total + 1)):
        return (f"out of time (--time-limit) after the last {done} of {total} moves; the "
                "earlier moves are not analysed")  # fmt: skip
    return f"out of time (--time-limit): {done} of {total} moves analysed"


def _print(console: Console, face: AnalyseFace, result: Analysis) -> None:
    console.out(f"{face.title}: values are {face.lead}.")
    if not result.reviews:
        console.out("no move analysed")
        return
    word = face.move_word
    console.out(f"{len(result.reviews)} of {result.total} {word}s analysed"
                + ("" if result.stopped is None else " (incomplete)")
                + (f"; {_ranges(result.skipped, word)} not settled by the solver"
                   if result.skipped
                   else ""))  # fmt: skip
    width = max(12, *(len(r.move) for r in result.reviews)) + 2
    who = max(6, *(len(r.player) for r in result.reviews)) + 2
    rows = [tuple(_shown(v, r.exact, sign) for v, sign in
                  ((r.before, True), (r.after, True), (r.loss, False)))
            for r in result.reviews]  # fmt: skip
    # each value column at least as wide as it was, and 2 spaces wider than its longest value
    # (a Gridblock win at once, ~+1000.0, ran into the next column at a fixed 8)
    wb, wa, wl = (max(least, *(len(row[k]) + 2 for row in rows))
                  for k, least in ((0, 8), (1, 8), (2, 7)))  # fmt: skip
    console.out(f"{face.move_word:>5}  {'player':<{who}}{'played':<{width}}{'before':>{wb}}"
                f"{'after':>{wa}}{'lost':>{wl}}  a best move")  # fmt: skip
    for r, (before, after, lost) in zip(result.reviews, rows, strict=True):
        console.out(f"{r.number:>5}  {r.player:<{who}}{r.move:<{width}}"
                    f"{before:>{wb}}{after:>{wa}}{lost:>{wl}}  {r.best}")  # fmt: skip
    estimates = [r for r in result.reviews if not r.exact]
    # one line per kind of estimate (a note's words before its ":" name the kind)
    for kind in dict.fromkeys(r.note.split(":")[0] for r in estimates):
        console.out(f"~ an estimate ({kind}), not an exact value")
    if any(r.at_once for r in result.reviews):
        console.out(f"{word}s made at once: 'lost' is the lead's change, which both parts made")
    losing = [r for r in result.reviews if r.loss > 1e-9 and not r.at_once]
    console.out(f"{len(losing)} of {len(result.reviews)} {word}s lost value")


def _shown(value: float, exact: bool, sign: bool) -> str:
    """A value for the table: whole numbers as they are, an estimate to one decimal after
    ``~``; with ``sign``, a + before a positive one."""
    text = (
        format(_num(value), "+" if sign else "") if exact else f"~{value:{'+' if sign else ''}.1f}"
    )
    return text


def _ranges(numbers: list[int], word: str) -> str:
    """``[1, 2, 3, 7]`` -> ``"moves 1-3, 7"``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs]
    return f"{word}{'' if len(numbers) == 1 else 's'} " + ", ".join(parts)

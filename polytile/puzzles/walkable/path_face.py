"""``polytile solve walkable-path``: red's best drops of known pieces, Walkable Cities
(:data:`PATH`, as :data:`polytile.faces.registry.PUZZLES` names it), and ``validate`` of the
answers it saves (``polytile/walkable-path@1``)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any, ClassVar

from polytile.errors import BoardError, OptionError
from polytile.faces.face import Console, Option
from polytile.faces.puzzle import (
    ENGINE_OPTION,
    SEED_NOTE,
    TIME_NOTE,
    WORKERS_OPTION,
    AnswerFile,
    SolveRequest,
    refuse_engine,
    report_target,
)
from polytile.text import printable, wrote

__all__ = ["ANSWER_FORMAT", "PATH", "WalkablePath"]

#: The ``format`` tag of the answers ``solve walkable-path -o FILE.json`` saves.
ANSWER_FORMAT = "polytile/walkable-path@1"
#: The defaults of --dead, --opponent-cells and --own-cells (``PathPuzzle.from_seed``'s).
_COUNTS = {"dead": 10, "opponent_cells": 24, "own_cells": 16}


def _board_counts(given: dict[str, Any]) -> dict[str, int]:
    """--dead, --opponent-cells and --own-cells, with their defaults."""
    return _COUNTS | {k: v for k, v in given.items() if k in _COUNTS and v is not None}


def _crowding(given: dict[str, Any]) -> str:
    """Which options crowd the boards: their values (defaults marked), and the ones the user
    gave (all three if none) to lower."""
    from polytile.puzzles.walkable.cells import BOARDS, SIDE

    values = _board_counts(given)
    named = [k for k in values if given.get(k) is not None] or list(values)
    shown = ", ".join(f"--{k.replace('_', '-')} {v}" + (" per board" if k == "dead" else "")
                      + ("" if given.get(k) is not None else " (the default)")
                      for k, v in values.items())  # fmt: skip
    lower = " or ".join(f"--{k.replace('_', '-')}" for k in named)
    return (f"{shown} did not fit on {BOARDS} boards of {SIDE}x{SIDE} cells (the random "
            f"drops that placed them left no piece a legal drop); lower {lower}")


def _ints(text: str, what: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise OptionError(f"{text!r} is not comma-separated numbers", what) from None


def _pieces(given: dict[str, Any]) -> int | list[str]:
    """The pieces red drops: ``--sequence`` names, or ``--pieces N`` seeded ones (4)."""
    from polytile.puzzles.walkable.board import PIECES

    sequence, pieces = given.get("sequence"), given.get("pieces")
    if sequence is not None and pieces is not None:
        raise OptionError("walkable-path: --pieces N or --sequence NAMES, not both")
    if sequence is not None:
        names = [p.strip().upper() for p in sequence.split(",")]
        if "" in names:
            raise OptionError(f"{sequence!r} has an empty piece name (piece "
                              f"{names.index('') + 1}); give names of {', '.join(PIECES)} "
                              "separated by single commas", "--sequence")  # fmt: skip
        bad = [p for p in names if p not in PIECES]
        if bad or not 1 <= len(names) <= 20:
            raise OptionError(f"1..20 names of {', '.join(PIECES)}, got {sequence!r}",
                              "--sequence")  # fmt: skip
        return names
    if pieces is not None:
        if not pieces.isdigit() or not 1 <= int(pieces) <= 20:
            raise OptionError(f"walkable-path: a number of pieces 1..20, not {pieces!r}",
                              "--pieces")  # fmt: skip
        return int(pieces)
    return 4


class WalkablePath(AnswerFile):
    """Red alone drops its pieces on three seeded boards, making its largest regions largest."""

    name = "walkable-path"
    label = "walkable-path"
    help = (
        "Walkable Cities largest path: red alone drops known pieces on the three seeded boards "
        "(--seed) to make its largest regions as large as possible, proven optimal"
    )
    examples = ("polytile solve walkable-path --seed 2 --pieces 4 --time-limit 60",
                "polytile solve walkable-path --seed 2 --pieces 2 --engine cpsat")  # fmt: skip
    options = (
        Option("pieces", "A number N, how many seeded pieces red drops (1 to 20) [default: 4].",
               metavar="N"),
        Option("sequence", "Red's pieces in order, e.g. I4,L4,T4,O4 (instead of --pieces N "
               "seeded ones). -o FILE.json saves the answer (format polytile/walkable-path@1: "
               "boards, pieces, drops, regions), which 'polytile validate FILE' replays; "
               "render and score do not read it.", metavar="NAMES"),
        Option("dead", f"Dead cells per board [default: {_COUNTS['dead']}].", low=0, high=100),
        Option("opponent_cells", f"Blue cells on the boards [default: "
               f"{_COUNTS['opponent_cells']}].", low=0, high=200),
        Option("own_cells", f"Red cells already there [default: {_COUNTS['own_cells']}].",
               low=0, high=200),
        Option("targets", "Maximise the boards whose largest region reaches these sizes "
               "instead of the sum.", metavar="A,B,C"),
        WORKERS_OPTION,
        ENGINE_OPTION,
    )  # fmt: skip
    notes: ClassVar[Mapping[str, str]] = {
        "seed": SEED_NOTE,
        "time_limit": TIME_NOTE,
        "output": "{name} saves .json only (read back by validate).",
    }
    outputs = (".json",)
    making_options = ("pieces", "sequence", "dead", "opponent_cells", "own_cells", "targets")
    answer_formats = (ANSWER_FORMAT,)
    output_note = " (walkable-path saves its answer as .json)"

    def solve(self, console: Console, request: SolveRequest) -> None:
        """Build the seeded puzzle, solve it, print the replayed answer (and save it as JSON
        to ``-o``). Without ``--engine cpsat``, the branch and bound for the sum objective
        (targets always use CP-SAT).

        Exit 0 when proven optimal; when the time runs out first (exit 1) or Ctrl-C stops
        the search (exit 130), the best drops so far, replayed, are printed (and saved) as not
        proven with the proven bound.
        """
        from polytile.puzzles.walkable.path import PathPuzzle, drop_text, path_picture, solve_path

        engine = refuse_engine(self.name, request.option("engine"))
        given = dict(request.options)
        whole = 60.0 if request.time_limit is None else request.time_limit
        time_limit = request.clock.left(whole, reserve=0.25) or whole
        count = _pieces(given)
        targets = None
        if given.get("targets") is not None:
            targets = _ints(given["targets"], "--targets")
            if len(targets) != 3 or not all(0 <= t <= 100 for t in targets):
                raise OptionError("three region sizes 0..100, one per board", "--targets")
        counts = _board_counts(given)
        document = request.document  # a WalkablePathPuzzle read from a file
        if document is not None:
            puzzle = document.path
            name = f"{document.name} ({','.join(puzzle.sequence)})"
        else:
            try:
                puzzle = PathPuzzle.from_seed(
                    0 if request.seed is None else request.seed, pieces=count,
                    dead=counts["dead"], opponent_cells=counts["opponent_cells"],
                    own_cells=counts["own_cells"], targets=targets,
                )  # fmt: skip
            except BoardError as exc:
                raise OptionError(f"{exc}: {_crowding(given)}") from None
            name = f"walkable-path (seed {puzzle.seed}, {','.join(puzzle.sequence)})"
        # The compiled kernels, once after installing: compiled in a process of their own
        # (a deadline inside numba's compile would leave it broken), waited for as long as
        # the limit allows, and kept for the next run when it does not.
        from polytile._warm import compiled

        compiled(console, "walkable-path", None, not request.as_json)  # the clock stands still
        # Building the model (the greedy start, the legal drops, the region caps) does not
        # watch the clock: the whole command's deadline stops it as a Ctrl-C would.
        deadline = request.clock.deadline(whole)
        try:
            with request.clock.stop_flag() as stop, deadline:
                # The clock's reserve (0.25 s) keeps back what the replay, the picture and
                # the exit take; the search's own stop lands within a few hundredths of its
                # limit (seeds 2-4 at 0.5-10 s: 0.55 s at 0.5 s, 1.66-1.75 at 2, 4.84-4.93 at
                # 5, 9.97 at 10, whole commands), so it keeps back little more. It kept
                # 0.25-0.96 s more (4.2 s of 5, 1.37 of 2), and before that a whole second.
                reserve = 0.05
                result = solve_path(puzzle, time_limit=max(0.05, time_limit - reserve),
                                    workers=request.option("workers", 2), stop=stop,
                                    method="cpsat" if engine == "cpsat" else "auto")  # fmt: skip
        except KeyboardInterrupt:  # before the greedy drops were found
            if deadline.fired:
                console.err(f"{name}: no drops found in the time limit")
                raise SystemExit(1) from None
            console.err(f"{name}: interrupted")
            raise SystemExit(130) from None
        if deadline.fired and result.stopped_by in ("interrupt", "stop"):
            result = dataclasses.replace(result, stopped_by="time")
        if stop.asked and result.stopped_by in (None, "stop") and not result.proven:
            # a search the Ctrl-C flag stopped was interrupted, whatever the runner called it
            result = dataclasses.replace(result, stopped_by="interrupt")
        self._print(console, request, puzzle, result, name, drop_text, path_picture)

    def _print(self, console: Console, request: SolveRequest, puzzle: Any, result: Any,
               name: str, drop_text: Any, path_picture: Any) -> None:  # fmt: skip
        """Save, print and exit as the result says (1 or 130 when not proven)."""
        bound = "not known yet" if result.bound is None else result.bound
        why = {"time": "out of time", "interrupt": "interrupted"}.get(result.stopped_by or "",
                                                                      "stopped")  # fmt: skip
        output = request.output
        if output is not None:
            from polytile._files import write_atomic

            try:
                write_atomic(output, json.dumps(result.to_dict(), indent=2) + "\n")
            except OSError as exc:
                raise OptionError(f"cannot write {output}: {exc.strerror or exc}",
                                  "-o") from exc  # fmt: skip
            replay = "" if str(output) == "-" else (
                f" ('polytile validate {printable(str(output))}' replays it)")  # fmt: skip
            console.err(wrote(output, "saved") + replay)
        document = request.document
        if request.as_json:
            console.out(json.dumps(result.to_dict() | (
                {} if document is None else {"puzzle": document.name, "target": document.target})))
        else:
            console.out(path_picture(result), nl=False)
            for k, (piece, drop) in enumerate(zip(puzzle.sequence, result.drops, strict=True)):
                console.out(f"{k + 1}. {'pass' if drop is None else drop_text(piece, drop)}")
            what = "boards on target" if puzzle.targets else "sum of largest regions"
            verdict = "proven optimal" if result.proven else (
                f"NOT proven optimal ({why}): the best found so far, bound {bound}")  # fmt: skip
            console.out(f"{name}: regions {'/'.join(map(str, result.regions))} (before "
                        f"{'/'.join(map(str, puzzle.base_regions()))}); {what} "
                        f"{result.objective}; {verdict} [{result.seconds:.2f} s]")  # fmt: skip
        code = 130 if result.stopped_by == "interrupt" else 1
        # a file that misstates its puzzle is invalid (#48: exit 0)
        report_target(console, document, result.objective, result.proven, code,
                      quiet=request.as_json)  # fmt: skip
        if not result.proven:
            console.err(f"{name}: {why} before proving optimality (best {result.objective}, "
                        f"bound {bound})")  # fmt: skip
            raise SystemExit(code)

    def validate_answer(self, console: Console, file: str, as_json: bool) -> None:
        """Replay a saved answer's drops by the rules (:func:`~polytile.puzzles.walkable.
        path.check_result_doc`): exit 0 valid, 1 invalid (every reason printed), 2
        unreadable."""
        from polytile._files import parse_json, read_input
        from polytile.errors import FormatError
        from polytile.puzzles.walkable.path import check_result_doc

        data, source = read_input(file, 4_000_000)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FormatError("not UTF-8 text", source) from exc
        puzzle, reasons = check_result_doc(parse_json(text, source), source)
        name = f"walkable-path {','.join(puzzle.sequence)}"
        if as_json:
            doc = {"valid": not reasons, "reasons": reasons, "file": file,
                   "kind": "walkable-path answer", "puzzle": name}  # fmt: skip
            console.out(json.dumps(doc, indent=2))
        elif not reasons:
            console.out(f"{printable(file)}: valid walkable-path answer ({name}: every drop "
                        "legal in turn, regions and objective as stated)")  # fmt: skip
        else:
            for reason in reasons:
                console.out(reason)
            console.err(f"{file}: invalid, {len(reasons)} problem(s)")
        if reasons:
            raise SystemExit(1)


#: ``polytile solve walkable-path``.
PATH = WalkablePath()

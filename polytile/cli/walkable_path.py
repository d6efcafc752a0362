"""``polytile solve walkable-path``: red's best drops of known pieces, Walkable Cities.

The options are added to ``solve`` by :func:`walkable_path_options`; ``solve`` hands them to
:func:`solve_walkable_path` when the puzzle is ``walkable-path`` and refuses them otherwise
(:func:`refuse_walkable_options`).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

import click

from polytile.cli.clock import Deadline, StopFlag
from polytile.errors import BoardError

__all__ = [
    "is_path_answer",
    "refuse_walkable_options",
    "solve_walkable_path",
    "validate_path_answer",
    "walkable_path_options",
]

_OPTIONS = ("sequence", "dead", "opponent_cells", "own_cells", "targets")
#: The defaults of --dead, --opponent-cells and --own-cells (``PathPuzzle.from_seed``'s).
_COUNTS = {"dead": 10, "opponent_cells": 24, "own_cells": 16}


def walkable_path_options(f: Any) -> Any:
    """The options of ``solve walkable-path`` beyond those ``solve`` already has."""
    f = click.option("--targets", metavar="A,B,C", default=None,
                     help="walkable-path: maximise the boards whose largest region reaches "
                     "these sizes instead of the sum.")(f)  # fmt: skip
    f = click.option("--own-cells", type=click.IntRange(0, 200), default=None,
                     help="walkable-path: red cells already there "
                     f"[default: {_COUNTS['own_cells']}].")(f)  # fmt: skip
    f = click.option("--opponent-cells", type=click.IntRange(0, 200), default=None,
                     help="walkable-path: blue cells on the boards "
                     f"[default: {_COUNTS['opponent_cells']}].")(f)  # fmt: skip
    f = click.option("--dead", type=click.IntRange(0, 100), default=None,
                     help="walkable-path: dead cells per board "
                     f"[default: {_COUNTS['dead']}].")(f)  # fmt: skip
    f = click.option("--sequence", metavar="NAMES", default=None,
                     help="walkable-path: red's pieces in order, e.g. I4,L4,T4,O4 (instead "
                     "of --pieces N seeded ones). -o FILE.json saves the answer (format "
                     "polytile/walkable-path@1: boards, pieces, drops, regions), which "
                     "'polytile validate FILE' replays; render and score do not read "
                     "it.")(f)  # fmt: skip
    return f


def refuse_walkable_options(given: dict[str, Any]) -> None:
    """Refuse the walkable-path options for any other puzzle (exit 2)."""
    used = [k for k in _OPTIONS if given.get(k) is not None]
    if used:
        names = ", ".join("--" + k.replace("_", "-") for k in used)
        raise click.UsageError(f"{names}: only for walkable-path")


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
    return f"{shown} do not fit on {BOARDS} boards of {SIDE}x{SIDE} cells; lower {lower}"


def _ints(text: str, what: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"{text!r} is not comma-separated numbers",
                                 param_hint=what) from None  # fmt: skip


def solve_walkable_path(seed: int | None, pieces: str | None, given: dict[str, Any],
                        time_limit: float, workers: int | None, as_json: bool,
                        output: str | None = None, whole_limit: float | None = None,
                        engine: str = "search") -> None:  # fmt: skip
    """Build the seeded puzzle, solve it, print the replayed answer (and save it as JSON to
    ``output``, a ``.json`` file, when given). ``engine`` ``"search"``: the branch and bound
    for the sum objective (targets always use CP-SAT); ``"cpsat"``: the CP-SAT model.

    Exit 0 when proven optimal; when the time runs out first (exit 1) or Ctrl-C stops the
    search (exit 130), the best drops so far, replayed, are printed (and saved) as not
    proven with the proven bound.
    """
    from polytile.puzzles.walkable.board import PIECES
    from polytile.puzzles.walkable.path import PathPuzzle, drop_text, path_picture, solve_path

    sequence = given.get("sequence")
    if sequence is not None and pieces is not None:
        raise click.UsageError("walkable-path: --pieces N or --sequence NAMES, not both")
    if output is not None and not output.lower().endswith(".json"):
        raise click.BadParameter(f"{output!r}: walkable-path saves its answer as .json only",
                                 param_hint="-o")  # fmt: skip
    count: int | list[str] = 4
    if sequence is not None:
        count = [p.strip().upper() for p in sequence.split(",")]
        if "" in count:
            raise click.BadParameter(f"{sequence!r} has an empty piece name (piece "
                                     f"{count.index('') + 1}); give names of "
                                     f"{', '.join(PIECES)} separated by single commas",
                                     param_hint="--sequence")  # fmt: skip
        bad = [p for p in count if p not in PIECES]
        if bad or not 1 <= len(count) <= 20:
            raise click.BadParameter(f"1..20 names of {', '.join(PIECES)}, got {sequence!r}",
                                     param_hint="--sequence")  # fmt: skip
    elif pieces is not None:
        if not pieces.isdigit() or not 1 <= int(pieces) <= 20:
            raise click.BadParameter(f"walkable-path: a number of pieces 1..20, not {pieces!r}",
                                     param_hint="--pieces")  # fmt: skip
        count = int(pieces)
    targets = None
    if given.get("targets") is not None:
        targets = _ints(given["targets"], "--targets")
        if len(targets) != 3 or not all(0 <= t <= 100 for t in targets):
            raise click.BadParameter("three region sizes 0..100, one per board",
                                     param_hint="--targets")  # fmt: skip
    counts = _board_counts(given)
    try:
        puzzle = PathPuzzle.from_seed(
            0 if seed is None else seed, pieces=count, dead=counts["dead"],
            opponent_cells=counts["opponent_cells"], own_cells=counts["own_cells"],
            targets=targets,
        )  # fmt: skip
    except BoardError as exc:
        raise click.UsageError(f"{exc}: {_crowding(given)}") from None
    name = f"walkable-path (seed {puzzle.seed}, {','.join(puzzle.sequence)})"
    # Building the model (the greedy start, the legal drops, the region caps) does not watch
    # the clock: the whole command's deadline stops it as a Ctrl-C would.
    deadline = Deadline.of_limit(whole_limit)
    try:
        with StopFlag() as stop, deadline:
            # keep back what the replay, the picture and the exit take (0.1-0.2 s), and at
            # short limits what the search may overrun its own limit by (up to 0.7 s): the
            # rest of the limit is the search's (it kept a whole second back; issue 36)
            reserve = max(0.25, 1.0 - 0.075 * time_limit)
            result = solve_path(puzzle, time_limit=max(0.05, time_limit - reserve),
                                workers=workers or 2, stop=stop,
                                method="cpsat" if engine == "cpsat" else "auto")  # fmt: skip
    except KeyboardInterrupt:  # before the greedy drops were found
        if deadline.fired:
            click.echo(f"{name}: no drops found in the time limit", err=True)
            sys.exit(1)
        click.echo(f"{name}: interrupted", err=True)
        sys.exit(130)
    if deadline.fired and result.stopped_by in ("interrupt", "stop"):
        result = dataclasses.replace(result, stopped_by="time")
    if stop.asked and result.stopped_by in (None, "stop"):
        result = _relabel(result)
    bound = "not known yet" if result.bound is None else result.bound
    why = {"time": "out of time", "interrupt": "interrupted"}.get(result.stopped_by or "",
                                                                  "stopped")  # fmt: skip
    if output is not None:
        from polytile._files import write_atomic

        try:
            write_atomic(output, json.dumps(result.to_dict(), indent=2) + "\n")
        except OSError as exc:
            raise click.BadParameter(f"cannot write {output}: {exc.strerror or exc}",
                                     param_hint="-o") from exc  # fmt: skip
        click.echo(f"saved {output} ('polytile validate {output}' replays it)", err=True)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(path_picture(result), nl=False)
        for k, (piece, drop) in enumerate(zip(puzzle.sequence, result.drops, strict=True)):
            text = "pass" if drop is None else drop_text(piece, drop)
            click.echo(f"{k + 1}. {text}")
        what = "boards on target" if puzzle.targets else "sum of largest regions"
        verdict = "proven optimal" if result.proven else (
            f"NOT proven optimal ({why}): the best found so far, bound {bound}")  # fmt: skip
        click.echo(f"{name}: regions {'/'.join(map(str, result.regions))} (before "
                   f"{'/'.join(map(str, puzzle.base_regions()))}); {what} {result.objective}; "
                   f"{verdict} [{result.seconds:.2f} s]")  # fmt: skip
    if not result.proven:
        click.echo(f"{name}: {why} before proving optimality (best {result.objective}, bound "
                   f"{bound})", err=True)  # fmt: skip
        sys.exit(130 if result.stopped_by == "interrupt" else 1)


def is_path_answer(file: str) -> bool:
    """True when ``file`` is a saved walkable-path answer (``polytile/walkable-path@1``)."""
    from polytile._files import has_tag

    return has_tag(file, b'"polytile/walkable-path@1"')


def validate_path_answer(file: str, as_json: bool) -> None:
    """Replay a saved answer's drops by the rules (:func:`~polytile.puzzles.walkable.path.
    check_result_doc`): exit 0 valid, 1 invalid (every reason printed), 2 unreadable."""
    from polytile._files import parse_json, read_input
    from polytile.puzzles.walkable.path import check_result_doc

    data, source = read_input(file, 4_000_000)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        from polytile.errors import FormatError

        raise FormatError("not UTF-8 text", source) from exc
    puzzle, reasons = check_result_doc(parse_json(text, source), source)
    name = f"walkable-path {','.join(puzzle.sequence)}"
    if as_json:
        doc = {"valid": not reasons, "reasons": reasons, "file": file,
               "kind": "walkable-path answer", "puzzle": name}  # fmt: skip
        click.echo(json.dumps(doc, indent=2))
    elif not reasons:
        click.echo(f"{file}: valid walkable-path answer ({name}: every drop legal in turn, "
                   "regions and objective as stated)")  # fmt: skip
    else:
        for reason in reasons:
            click.echo(reason)
        click.echo(f"{file}: invalid, {len(reasons)} problem(s)", err=True)
    if reasons:
        sys.exit(1)


def _relabel(result: Any) -> Any:
    """A search the Ctrl-C flag stopped was interrupted, whatever the runner called it."""
    if result.proven:
        return result
    return dataclasses.replace(result, stopped_by="interrupt")

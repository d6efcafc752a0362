"""Puzzles exported from a store as files (``polytile puzzles show N --file``), and answers
to them: what ``render``, ``solve`` and ``validate`` do with one, written once for every
:class:`~polytile.store.kinds.FileKind` and naming none.

* ``render PUZZLE.json`` draws the puzzle and its question (text; ``-o FILE.txt``).
* ``solve PUZZLE.json`` solves it with the one-player puzzle its kind names
  (``SolveRequest.document`` carries the puzzle read from the file).
* ``validate PUZZLE.json`` checks the file; ``validate ANSWER.json --puzzle PUZZLE.json``
  replays an answer (a stored one, or a person's own, of which only the moves are needed)
  by the rules on the puzzle: valid when every move is legal, every figure it states is
  what the rules count, and it reaches the puzzle's target, which exactly one answer does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from polytile.errors import FormatError, OptionError
from polytile.faces.face import Console
from polytile.store.kinds import FileKind, kind
from polytile.text import printable, wrote

__all__ = ["PuzzleFile", "puzzle_file", "read_puzzle", "render_puzzle", "validate_puzzle_file"]


@dataclass(frozen=True)
class PuzzleFile:
    """A file of a :class:`FileKind`: its kind, whether it is a ``"puzzle"`` or an
    ``"answer"``, and its name in messages."""

    kind: FileKind
    role: str
    source: str


def puzzle_file(file: str) -> PuzzleFile | None:
    """What ``file`` (``-``: standard input) is, when it is an exported puzzle or an answer
    to one (by its ``format``, or for a file that does not parse by that tag among its first
    bytes, so that its reader says where it is damaged); None for any other file."""
    from polytile._files import sniff
    from polytile._positions import source_of
    from polytile.faces.registry import PUZZLE_FILES

    doc, head = sniff(file)
    if doc is not None:
        tag = doc.get("format")
        found = PUZZLE_FILES.get(tag) if isinstance(tag, str) else None
    else:
        found = next((f for t, f in PUZZLE_FILES.items()
                      if head is not None and json.dumps(t).encode() in head), None)  # fmt: skip
    if found is None:
        return None
    name, _, role = found.partition(":")
    shown = kind(name)
    if not isinstance(shown, FileKind):  # the registry and the kinds disagree: a bug
        raise TypeError(f"kind {name!r} has no files")
    return PuzzleFile(shown, role, source_of(file))


def _document(file: str) -> tuple[Any, str]:
    from polytile._files import MAX_GAME_FILE_BYTES, parse_json, read_input

    data, source = read_input(file, MAX_GAME_FILE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError("not UTF-8 text", source) from exc
    return parse_json(text, source), source


def read_puzzle(file: str, found: PuzzleFile | None = None) -> tuple[FileKind, Any]:
    """The kind and the puzzle of an exported puzzle file, every field checked.

    Raises
    ------
    FormatError
        For a file that is no such puzzle (an answer names what to do instead), or a
        field at fault.
    """
    found = found or puzzle_file(file)
    if found is None or found.role != "puzzle":
        what = (f"an answer to a {found.kind.name} puzzle; give the puzzle file "
                "(polytile puzzles show N --db STORE --file)" if found is not None
                else "not a puzzle exported from a store")  # fmt: skip
        raise FormatError(what, found.source if found else file, "format")
    doc, source = _document(file)
    return found.kind, found.kind.read_puzzle(doc, source)


def render_puzzle(console: Console, file: str, found: PuzzleFile, output: str | None) -> None:
    """``render``: the puzzle and its question as text, on standard output or to ``-o`` (a
    ``.txt`` file; a picture is text only for these puzzles)."""
    if found.role != "puzzle":
        raise FormatError(f"an answer to a {found.kind.name} puzzle, which 'polytile validate "
                          f"{printable(found.source)} --puzzle PUZZLE.json' replays and draws",
                          found.source, "format")  # fmt: skip
    shown, puzzle = read_puzzle(file, found)
    text = shown.question(puzzle) + "\n"
    if output is None:
        console.out(text, nl=False)
        return
    from polytile._files import output_suffix, write_atomic

    if output_suffix(output, ".txt") != ".txt":
        raise OptionError(f"a {shown.name} puzzle is drawn as text only: give -o FILE.txt",
                          "-o")  # fmt: skip
    write_atomic(output, text)
    console.err(wrote(output))


def validate_puzzle_file(console: Console, file: str, found: PuzzleFile, against: str | None,
                         as_json: bool) -> None:  # fmt: skip
    """``validate``: a puzzle file read in full, or an answer replayed on ``against`` (the
    puzzle file ``--puzzle`` names). Exit 1 for an answer that breaks a rule or falls short
    of the target, every reason printed."""
    from polytile.faces.face import report_problems

    if found.role == "puzzle":
        if against is not None:
            raise OptionError(f"{printable(found.source)} is a puzzle; --puzzle names the puzzle "
                              "an answer file answers", "--puzzle")  # fmt: skip
        shown, puzzle = read_puzzle(file, found)
        if as_json:
            console.out(json.dumps({"valid": True, "reasons": [], "file": file,
                                    "kind": f"{shown.name} puzzle"}, indent=2))  # fmt: skip
        else:
            console.out(f"{printable(file)}: valid {shown.name} puzzle ({shown.caption(puzzle)}; "
                        f"solve it with 'polytile solve {printable(file)}')")  # fmt: skip
        return
    if against is None:
        raise OptionError(f"{printable(found.source)} is an answer to a {found.kind.name} "
                          "puzzle: give --puzzle PUZZLE.json, the puzzle it answers (polytile "
                          "puzzles show N --db STORE --file > PUZZLE.json)",
                          "--puzzle")  # fmt: skip
    shown, puzzle = read_puzzle(against)
    if shown is not found.kind:
        raise OptionError(f"{printable(against)} is a {shown.name} puzzle; "
                          f"{printable(found.source)} answers a {found.kind.name} one",
                          "--puzzle")  # fmt: skip
    doc, source = _document(file)
    try:
        attempt = shown.attempt(puzzle, doc, source)
    except FormatError as exc:  # say how an answer is written
        raise FormatError(f"{exc.message}; an answer is {shown.answer_help}", exc.source,
                          exc.where) from None  # fmt: skip
    if not as_json and attempt.picture:
        console.out(attempt.picture, nl=False)
    if not as_json and attempt.score is not None:
        console.out(f"score {attempt.score}; the puzzle's target {puzzle.target}")
    if as_json:
        console.out(json.dumps({"valid": not attempt.problems, "reasons": attempt.problems,
                                "file": file, "kind": f"{shown.name} answer",
                                "score": attempt.score, "target": puzzle.target},
                               indent=2))  # fmt: skip
        if attempt.problems:
            raise SystemExit(1)
        return
    report_problems(console, file, f"{shown.name} answer", attempt.problems, False,
                    printable(against))  # fmt: skip

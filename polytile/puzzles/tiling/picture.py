"""A tiling puzzle on paper: :func:`puzzle_picture` gives the
:class:`~polytile.render.scene.PuzzlePicture` ``polytile render PUZZLE.json`` draws (the
board with its holes and the given pieces, marked given, and the tray of the pieces still
to place with their supplies); :func:`tray` is that tray.

Supplies are said as a person reads them: ``x2`` (exactly two), ``0-2`` (at least 0, at most
2), ``any number`` (as many as fit, ``"*"``), and in a choice, whose pieces may each be left
out, ``up to 2``; the choice's heading says how many of its pieces are placed in all
(``Choose 10 of these``). The copies given in place are taken off first: the tray holds what
is left to place.

Examples
--------
>>> from polytile.puzzles.tiling.puzzle_file import parse_puzzle
>>> p = parse_puzzle({"format": "polytile/puzzle@1", "name": "demo", "board": ["....", "...."],
...                   "pieces": [{"name": "O4", "count": "0-2"}, {"name": "I2", "count": "*"}]})
>>> [(g.heading, [(t.name, t.supply) for t in g.pieces]) for g in tray(p)]
[('Pieces to place', [('O4', '0-2'), ('I2', 'any number')])]
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from polytile.errors import FormatError
from polytile.faces.face import Console
from polytile.formats import Solution
from polytile.render.scene import PuzzlePicture, TrayGroup, TrayPiece

if TYPE_CHECKING:  # the puzzles import the engine (numpy): render of a solution does not
    from polytile.puzzles.tiling.puzzles import TilingPuzzle

#: The format tag of a tiling puzzle file (``PUZZLE_FORMAT``), as a JSON string.
_TAG = b'"polytile/puzzle@1"'

__all__ = ["draws", "puzzle_picture", "read_drawn", "render_puzzles", "supply_text", "tray"]


def supply_text(low: int, high: int, unlimited: bool = False, chosen: bool = False) -> str:
    """How many copies of a piece may be placed, in words.

    Parameters
    ----------
    low, high
        The fewest and most copies (``high`` is ignored when ``unlimited``).
    unlimited
        As many as fit (``"*"`` in the file).
    chosen
        The piece is in a choice (its ``low`` is then 0: the choice counts its copies).

    Examples
    --------
    >>> supply_text(2, 2), supply_text(0, 2), supply_text(0, 9, unlimited=True)
    ('x2', '0-2', 'any number')
    >>> supply_text(1, 9, unlimited=True), supply_text(0, 1, chosen=True)
    ('1 or more', 'up to 1')
    """
    if unlimited:
        return "any number" if low == 0 else f"{low} or more"
    if chosen:
        return f"up to {high}"
    return f"x{high}" if low == high else f"{low}-{high}"


def tray(puzzle: TilingPuzzle) -> tuple[TrayGroup, ...]:
    """The pieces still to place (the given copies taken off), each once with its supply:
    those outside choices under "Pieces to place", then each choice under its heading.

    The pieces are drawn as the file or the piece set defines them, in the puzzle's order,
    on the puzzle's grid (a piece of cubes turned when that would hide a cube from its
    isometric drawing: :func:`polytile.render.gridtray.turned`).
    """
    problem = puzzle.problem
    chosen = {t: k for k, group in enumerate(problem.groups) for t in group.types}

    def piece(t: int) -> TrayPiece:
        shape = problem.types[t]
        supply = supply_text(problem.low[t], problem.counts[t], shape.name in puzzle.unlimited,
                             t in chosen)  # fmt: skip
        return TrayPiece(shape.name, shape.cells, supply, shape.grid)

    groups = []
    loose = tuple(piece(t) for t in range(len(problem.types)) if t not in chosen)
    if loose:
        groups.append(TrayGroup("Pieces to place", loose))
    for group in problem.groups:
        cap = sum(problem.counts[t] for t in group.types)
        if group.high < cap:
            many = str(group.low) if group.low == group.high else f"{group.low} to {group.high}"
        else:  # no more than the pieces there are: only the least binds
            many = f"at least {group.low}" if group.low else "any number"
        groups.append(TrayGroup(f"Choose {many} of these", tuple(piece(t) for t in group.types)))
    return tuple(groups)


def puzzle_picture(puzzle: TilingPuzzle) -> PuzzlePicture:
    """What ``polytile render`` draws of ``puzzle``: its board as set up (blocked cells, and
    the given pieces marked given) and its :func:`tray`, with a line on the cells to fill and,
    for one-sided pieces, one saying they are not turned over."""
    board = puzzle.problem.board
    given = sum(len(g.cells) for g in puzzle.given)
    notes = [f"{board.n_open} cells to fill" + (f", {given} covered by the given pieces"
                                                 if given else "")
             + ("" if puzzle.problem.exact else "; pieces may be left over")]  # fmt: skip
    if puzzle.problem.one_sided:
        notes.append("One-sided: turn the pieces, but do not turn them over.")
    setup: Solution = puzzle.solution_of((), "unknown")
    return PuzzlePicture(puzzle.name, setup, tray(puzzle), puzzle.description, tuple(notes))


# -- polytile render ---------------------------------------------------------------------------
def draws(file: str) -> bool:
    """Whether ``polytile render`` draws ``file`` (``-``: standard input) as a puzzle to
    solve: a tiling puzzle file (``polytile/puzzle@1``, a flat BurrTools ``.xmpuzzle``), or
    the name of a catalogue puzzle when no file has that name."""
    from polytile._files import has_tag

    if file != "-" and not Path(file).exists():
        from polytile.puzzles.tiling.puzzles import CATALOGUE

        return file in CATALOGUE
    return file.lower().endswith(".xmpuzzle") or has_tag(file, _TAG)


def read_drawn(file: str) -> TilingPuzzle:
    """The puzzle :func:`draws` found in ``file``, read and checked by the puzzle reader.

    Raises
    ------
    FormatError
        For a file that is not a valid tiling puzzle (the field at fault named).
    OSError
        If the file cannot be read.
    """
    from polytile.puzzles.tiling.catalogue import load_puzzle
    from polytile.puzzles.tiling.puzzles import CATALOGUE, TilingPuzzle

    if file == "-":
        from polytile._files import decode_text, parse_json, read_stdin
        from polytile.puzzles.tiling.puzzle_file import parse_puzzle

        return parse_puzzle(parse_json(decode_text(read_stdin(), "<stdin>"), "<stdin>"),
                            "<stdin>")  # fmt: skip
    if file in CATALOGUE and not Path(file).exists():
        return CATALOGUE[file]
    puzzle = load_puzzle(file)
    if not isinstance(puzzle, TilingPuzzle):  # pragma: no cover - draws() saw a tiling tag
        raise FormatError("not a tiling puzzle", file, "format")
    return puzzle


def render_puzzles(console: Console, files: Sequence[str], output: Path | None,
                   color: bool | None, cell: int, title: str | None,
                   view: str | None = None) -> None:  # fmt: skip
    """``polytile render`` of puzzle files: each puzzle as text on standard output, or
    written to ``output`` by its suffix (``.svg``, ``.png``, ``.txt``); several puzzles go on
    one sheet, captioned with their names under the heading ``title``.

    ``view`` draws a box of cubes' board (:data:`~polytile.render.VIEWS`): ``"layers"``
    side by side, or ``"isometric"`` (in a ``.svg`` or ``.png`` of one puzzle); the tray
    shows its pieces of cubes isometric either way.

    Raises
    ------
    ValueError
        If ``view`` is given for a puzzle not on the cube grid, for several puzzles, or
        ``"isometric"`` without a ``.svg`` or ``.png`` file.
    """
    from polytile.render import save_picture, save_sheet, to_text
    from polytile.render.grids import check_view
    from polytile.text import wrote

    pictures = [puzzle_picture(read_drawn(file)) for file in files]
    for picture in pictures:
        check_view(picture, view)
    if view is not None and len(pictures) > 1:
        raise ValueError("a view draws one puzzle's box of cubes; a sheet of several draws "
                         "each box's layers")  # fmt: skip
    if view == "isometric" and output is None:
        raise ValueError("the isometric view is drawn in a .svg or .png file (-o); text "
                         "shows a box's layers")  # fmt: skip
    if output is None:
        text = "\n".join(to_text(picture, color) for picture in pictures)
        console.out(text, nl=False, color="\x1b[" in text)
        return
    if len(pictures) == 1:
        save_picture(pictures[0], output, cell, title, view=view)
    else:
        save_sheet([(picture, picture.name) for picture in pictures], output, cell, title)
    console.err(wrote(output))

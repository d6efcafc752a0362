"""Blokus moves as people type them: Pentobi's points, the piece and colour optional.

:func:`parse_move` reads one move for the position it is played in:

* ``e10 e9 f9`` (or ``e10,e9,f9``): the colour to move places the piece these points form;
* ``V3 e10 e9 f9``, ``yellow V3 e10 e9 f9``, ``Y e10 e9 f9``: the piece (its name in
  capitals) and the colour, each optional, checked against the points and the turn;
* ``pass`` (or ``blue pass``): only where the colour has no placement;
* ``B V3 4,4 5,4 5,5``: the rules engine's own form (:meth:`Move.__str__`; rows and columns
  counted from 0 at the top left), which polytile wrote before it had one notation, still
  read.

A point is a column letter and a row number counted from the bottom (``a1`` is the bottom
left corner), as Pentobi and ``polytile solve-endgame`` write them. Piece names are
written in capitals because some are also points (``I2``, ``T4``, ``L5``...): ``i2`` is a
point, ``I2`` the piece. A first word in capitals that reads both ways, as the piece on
the other points and as one more point of a piece, is the piece when the points after it
are written in lower case (``I1 j1``: the monomino on j1) and is refused as ambiguous when
they are capitals too (``I2 I3 I4``).

:func:`move_text` writes the one notation every command and the web board show a move in
(the move list, the legal moves, the best move, ``--json``'s ``"text"``): the colour's
name, the piece, its points (``yellow I1 j1``, ``blue V3 e10 e9 f9``), or ``blue pass``.

Examples
--------
>>> from polytile.puzzles.blokus.rules import Blokus
>>> g = Blokus("duo")
>>> parse_move("e10 e9 f9", g)
Move(color='blue', piece='V3', cells=((4, 4), (5, 4), (5, 5)))
>>> parse_move("B V3 4,4 5,4 5,5", g) == parse_move("blue V3 e10,e9,f9", g)
True
>>> move_text(parse_move("e10 e9 f9", g), g.size)
'blue V3 e10 e9 f9'
"""

from __future__ import annotations

import re
from typing import Any

from polytile.geometry import Cell
from polytile.puzzles.blokus.moves import PIECE_NAMES, Move
from polytile.puzzles.blokus.rules import Blokus
from polytile.puzzles.blokus.sgf import _piece_of, cell_name, parse_cell

__all__ = ["is_pass", "move_text", "named_color", "parse_move", "with_move_texts"]

_LETTERS = {"B": "blue", "Y": "yellow", "R": "red", "G": "green"}
_ENGINE_FORM = re.compile(r"\s*[BYRG]\s+\S+\s+\d+\s*,\s*\d+")


def _color(word: str) -> str | None:
    """The colour ``word`` names (``B``, ``b``, ``blue``, ``Blue``...), or None."""
    if word.upper() in _LETTERS and len(word) == 1:
        return _LETTERS[word.upper()]
    lower = word.lower()
    return lower if lower in _LETTERS.values() else None


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,;]+", text.strip()) if w]


def named_color(text: str) -> str | None:
    """The colour a move's text names first, if any (``yellow V3 j5 j4 k4``: yellow)."""
    words = _words(text)
    return _color(words[0]) if words else None


def is_pass(text: str) -> bool:
    """Whether the text is a pass (``pass``, ``Pass``, ``yellow pass``, ``Y pass``)."""
    words = _words(text)
    if words and _color(words[0]) is not None:
        words = words[1:]
    return [w.lower() for w in words] == ["pass"]


def _placement(words: list[str], size: int, piece: str | None = None) -> tuple[str, list[Cell]]:
    """(the piece, the cells) the points ``words`` cover, which must form ``piece`` if one
    is given; ValueError saying why not."""
    if not words:
        raise ValueError("no points: give the points the piece covers, like e10 e9 f9")
    cells = [parse_cell(w, size) for w in words]
    try:
        shape = _piece_of(cells)
    except ValueError as exc:
        raise ValueError(f"the points {' '.join(words)} are no Blokus piece: {exc}") from None
    if piece is not None and shape != piece:
        raise ValueError(f"the points {' '.join(words)} form {shape}, not {piece}")
    return shape, cells


def parse_move(text: str, game: Blokus) -> Move:
    """The move ``text`` describes in ``game`` (see the module notes); whether it is legal
    there is the rules engine's to say (:meth:`Blokus.push`).

    Raises
    ------
    ValueError
        Saying what is wrong: no points, a point off the board, points that form no piece or
        another piece than the one named, a first word that reads both as a piece and as a
        point of a piece (``I2 I3 I4``), a colour that is not in the game.
    """
    if _ENGINE_FORM.match(text):
        move = Move.parse(" ".join(text.replace(" ,", ",").replace(", ", ",").split()))
        _check_color(move.color, game)
        return move
    words = _words(text)
    if not words:
        raise ValueError("an empty move: give the points the piece covers, like e10 e9 f9")
    color = _color(words[0])
    if color is not None:
        words = words[1:]
    else:
        color = game.to_move
    _check_color(color, game)
    if is_pass(" ".join(words)):
        return Move.pass_turn(color)
    if words and words[0] in PIECE_NAMES:  # the piece, unless it is a point (L5 L6 L7 ...)
        try:
            named = _placement(words[1:], game.size, words[0])
        except ValueError as exc:
            try:
                return Move(color, *_placement(words, game.size))
            except ValueError:
                raise exc from None
        if any(w != w.upper() for w in words[1:]):  # points in lower case: words[0] is the piece
            return Move(color, *named)
        try:
            whole = _placement(words, game.size)
        except ValueError:
            return Move(color, *named)
        raise ValueError(
            f"{text.strip()!r} reads two ways: {named[0]} on {' '.join(words[1:])}, or "
            f"{whole[0]} on {' '.join(words)}; write points in lower case"
        )
    return Move(color, *_placement(words, game.size))


def move_text(move: Move, size: int) -> str:
    """``move`` in polytile's one Blokus notation (see the module notes), which
    :func:`parse_move` reads back: ``yellow I1 j1``, ``blue pass``."""
    return _text(move.color, move.piece, move.cells, size)


def _text(color: str, piece: str | None, cells: Any, size: int) -> str:
    if piece is None:
        return f"{color} pass"
    return f"{color} {piece} " + " ".join(cell_name(tuple(c), size) for c in cells)


def with_move_texts(doc: Any, size: int) -> Any:
    """``doc`` (JSON: dicts, lists, values) with a ``"text"`` in every move it holds (a dict
    with ``"color"`` and ``"piece"`` and ``"cells"``, or ``"pass"``): the move in
    :func:`move_text`'s notation, the one ``polytile play`` reads."""
    if isinstance(doc, list):
        return [with_move_texts(v, size) for v in doc]
    if not isinstance(doc, dict):
        return doc
    out = {k: with_move_texts(v, size) for k, v in doc.items()}
    color = doc.get("color")
    if isinstance(color, str) and "text" not in doc:
        if doc.get("pass") is True and "cells" not in doc:
            out["text"] = _text(color, None, (), size)
        elif isinstance(doc.get("piece"), str) and isinstance(doc.get("cells"), list):
            out["text"] = _text(color, doc["piece"], doc["cells"], size)
    return out


def _check_color(color: str, game: Blokus) -> None:
    if color not in game.colors:
        raise ValueError(f"{color} does not play in this game ({', '.join(game.colors)} do)")

"""Blokus files as the front ends read them: Pentobi records (``.blksgf``) and positions.

A Pentobi record is a ``.blksgf`` file, or a file of another name (``game.sgf``) whose first
4 kB are an SGF game tree (``(;``) with a ``GM[Blokus...]`` property; standard input is never
read as one. A position is a ``polytile/position@1`` file of game ``"blokus"`` (or, for
``solve-endgame``, a plain text board). :func:`read_blokus` reads either into a
:class:`BlokusDoc`: the position shown, its rules engine, and the record it came from.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from polytile._positions import check_game, read_board_or_position, read_document, source_of
from polytile.errors import FormatError, OptionError
from polytile.formats import Position, Solution

if TYPE_CHECKING:
    from polytile.puzzles.blokus.rules import Blokus
    from polytile.puzzles.blokus.sgf import GameRecord

__all__ = ["BlokusDoc", "is_record", "read_blokus", "read_record", "refuse_record"]

# An SGF game tree opens with "(;"; Pentobi names a Blokus variant in the root's GM property
# (GM[Blokus], GM[Blokus Duo], ...; the reader refuses the variants it does not play).
_SGF_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\(\s*;")
_BLOKUS_GM = re.compile(rb"GM\s*\[\s*Blokus")


@dataclass
class BlokusDoc:
    """A Blokus file read: the position shown (``obj``, after ``move`` of a record), its
    rules engine (None when read unchecked) and the Pentobi record it came from (None for
    a position)."""

    obj: Position
    game: Blokus | None
    record: GameRecord | None = None
    move: int | None = None

    @property
    def kind(self) -> str:
        """``"record"`` or ``"position"``."""
        return "record" if self.record is not None else "position"


def head(file: str) -> bytes:
    """The first 4 kB of ``file`` (empty when it cannot be read: its reader says why)."""
    try:
        with open(file, "rb") as f:
            return f.read(4096)
    except OSError:
        return b""


def is_record(file: str) -> bool:
    """True when ``file`` names a Pentobi game record (see the module notes)."""
    if file == "-":
        return False
    if Path(file).suffix.lower() == ".blksgf":
        return True
    if not os.path.isfile(file):  # a pipe would lose the bytes looked at; readers say why
        return False
    start = head(file)
    return _SGF_START.match(start) is not None and _BLOKUS_GM.search(start) is not None


def read_record(file: str, move: int | None) -> GameRecord:
    """The game record in ``file``, once ``move`` is known to be one of its move numbers.

    Raises
    ------
    OptionError
        For a ``move`` past the record's end (``--move``).
    """
    from polytile.puzzles.blokus.sgf import read_blksgf

    record = read_blksgf(Path(file))
    if move is not None and not 0 <= move <= len(record.moves):
        raise OptionError(
            f"{file} has {len(record.moves)} moves; --move must be 0 to {len(record.moves)}",
            "--move",
        )
    return record


def refuse_record(data: bytes, source: str) -> None:
    """Refuse an SGF game record that :func:`is_record` did not take: one on standard input,
    or one that is not a Pentobi Blokus record."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] != b"(":
        return
    if source == "<stdin>":
        raise FormatError(
            "this looks like a Pentobi game record: give it as a file, such as game.blksgf "
            "(records are not read from standard input)",
            source,
        )
    from polytile.puzzles.blokus.sgf import GAME_NAMES

    games = ", ".join(f"GM[{name}]" for name in GAME_NAMES)
    raise FormatError(
        "this looks like an SGF game record, but its first 4 kB name no Blokus game; "
        f"polytile reads Pentobi records of {games} (a file named *.blksgf is always read "
        "as one)",
        source,
    )


def refuse_move(move: int | None) -> None:
    """``--move`` is for game records: refuse it for any other file."""
    if move is not None:
        raise OptionError("--move applies to game records (.blksgf); this is a position",
                          "--move")  # fmt: skip


def read_unchecked(file: str, move: int | None = None) -> Solution | Position:
    """The document in ``file`` as it stands: a record's position after ``move``, else
    what the file holds (a solution, a position of any game, a plain text board), not
    checked against the rules."""
    if is_record(file):
        return read_record(file, move).position(move).to_position()
    refuse_move(move)
    return read_document(file, refuse_record)


def read_blokus(file: str, move: int | None = None, command: str = "render") -> BlokusDoc:
    """The Blokus record or position in ``file`` (``-``: standard input), a record shown
    after ``move``, the position checked by the rules engine.

    Raises
    ------
    FormatError
        For a file that is no Blokus record nor position, or one the rules refuse.
    OptionError
        For a ``move`` given with a position, or past a record's end.
    """
    from polytile.puzzles.blokus.rules import Blokus

    if is_record(file):
        record = read_record(file, move)
        game = record.position(move)
        return BlokusDoc(game.to_position(), game, record, move)
    refuse_move(move)
    obj, is_text = read_board_or_position(file, refuse_record)
    position = check_game(obj, is_text, ("blokus",), command, source_of(file))
    return BlokusDoc(position, Blokus.from_position(position, source_of(file)))

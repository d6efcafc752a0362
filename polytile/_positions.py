"""Reading a position file, or a plain text board read as one game's position.

Blokus and City Blocks (Ritchie) keep their positions in ``polytile/position@1`` files, and
some commands read a plain text board (rows of ``. # B Y R G``) as a position of one game.
This module reads either, for the games' faces and the command line alike: it names no
game, the callers say which they read.
"""

from __future__ import annotations

from collections.abc import Callable

from polytile.errors import FormatError
from polytile.formats import MAX_FILE_BYTES, Position, Solution, loads

__all__ = ["check_game", "is_text_board", "read_board_or_position", "source_of"]


def source_of(file: str) -> str:
    """The name messages give ``file`` by (``<stdin>`` for ``-``)."""
    return "<stdin>" if file == "-" else file


def is_text_board(data: bytes) -> bool:
    """True when ``data`` (a file's first bytes) is not JSON nor an SGF game tree: a plain
    text board, if it reads at all."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"{", b"[", b"(")


def read_board_or_position(file: str, check: Callable[[bytes, str], None] | None = None,
                           ) -> tuple[Solution | Position, bool]:  # fmt: skip
    """The document in ``file`` (``-``: standard input), and True when it was a plain text
    board; ``check(data, source)`` may refuse the bytes before they are read as JSON.

    Raises
    ------
    FormatError
        For a file that reads as no document (:func:`polytile.formats.loads`).
    """
    source = source_of(file)
    if file == "-":
        from polytile._files import read_stdin

        data = read_stdin()  # loads refuses more than MAX_FILE_BYTES
    else:
        with open(file, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)  # loads refuses more
    if check is not None:
        check(data, source)
    obj = loads(data, source)
    is_text = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"{", b"[")
    return obj, is_text


def check_game(obj: Solution | Position, is_text: bool, games: tuple[str, ...], command: str,
               source: str) -> Position:  # fmt: skip
    """``obj`` as a position of one of ``games`` for ``command``: a plain text board
    (``is_text``) becomes a board of ``games[0]`` with no hands.

    Raises
    ------
    FormatError
        For a solution, or a position of another game.
    """
    if not isinstance(obj, Position):
        raise FormatError("expected a position or a plain text board, found a solution", source)
    if is_text:  # a plain text board has no game of its own (it loads as "tiling")
        return Position(games[0], obj.board)
    if obj.game not in games:
        wanted = " or ".join(f'"{g}"' for g in games)
        raise FormatError(
            f"the position is of game {obj.game!r}; polytile {command} reads {wanted} positions",
            source,
            "game",
        )
    return obj

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

__all__ = ["check_game", "is_text_board", "read_board_or_position", "read_document",
           "source_of"]  # fmt: skip


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


def read_document(file: str, check: Callable[[bytes, str], None] | None = None,
                  ) -> Solution | Position:  # fmt: skip
    """The document in ``file`` (``-``: standard input) as it stands: a solution, a position
    of any game or a plain text board, not checked against any rules; ``check(data,
    source)`` may refuse its first 4 kB (all of standard input) before it is read.

    Raises
    ------
    FormatError
        For a file that reads as no document (:func:`polytile.formats.load`).
    """
    import os

    from polytile.formats import load

    if file == "-":
        from polytile._files import read_stdin

        data = read_stdin()
        if check is not None:
            check(data, "<stdin>")
        return loads(data, "<stdin>")
    if check is not None and os.path.isfile(file):  # a pipe would lose the bytes looked at
        try:
            with open(file, "rb") as f:
                head = f.read(4096)
        except OSError:  # load says why
            head = b""
        check(head, file)
    return load(file)


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

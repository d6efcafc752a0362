"""The registry of the games' faces: a front end finds a game here, by name or by file.

Each line of :data:`FACES` names the module whose ``FACE`` is a game's
:class:`~polytile.faces.face.Face`; it is imported the first time it is asked for, so
finding one game loads no other. :data:`FORMATS` tells a file's game by its ``format`` tag
without importing any (a test keeps it equal to the faces' own ``formats``). A new game is
its package with a ``face`` module, plus a line in each table.

Files of a shared format are told apart by the other tables: a ``polytile/position@1`` file
by its ``"game"`` field (:data:`POSITION_GAMES`), a record of another program by its suffix
or its SGF game name (:data:`RECORD_SUFFIXES`, :data:`SGF_GAMES`), and a plain text board by
the command reading it (:data:`TEXT_BOARDS`).

:data:`PUZZLES` does the same for the one-player puzzles ``polytile solve NAME`` solves
(:class:`~polytile.faces.puzzle.PuzzleSolver`, found by :func:`puzzle`), and
:data:`CATALOGUE` for the tiling catalogue, which takes every other name and puzzle file.

:data:`KINDS` does the same for the kinds of generated puzzle
(:class:`~polytile.store.kinds.PuzzleKind`, found by :func:`polytile.store.kinds.kind`): each
names the ``module:ATTRIBUTE`` of a kind declared by its game, so the puzzle store and the
``generate`` and ``puzzles`` commands name no game.
"""

from __future__ import annotations

import importlib
import os
import re
from typing import TYPE_CHECKING, Any

from polytile.errors import UnknownNameError

if TYPE_CHECKING:
    from polytile.faces.face import Face
    from polytile.faces.puzzle import AnswerFile, CataloguePuzzles, PuzzleSolver

__all__ = [
    "ANSWER_FORMATS",
    "CATALOGUE",
    "FACES",
    "FORMATS",
    "KINDS",
    "PLANNED_KINDS",
    "POSITION_GAMES",
    "PUZZLES",
    "PUZZLE_FILES",
    "RECORD_SUFFIXES",
    "SGF_GAMES",
    "TEXT_BOARDS",
    "answer_of_file",
    "catalogue",
    "face",
    "face_of_file",
    "game_of_file",
    "puzzle",
    "puzzles",
    "refuse_record",
]

#: Every game with a face: its name and the module holding ``FACE``.
FACES: dict[str, str] = {
    "henning": "polytile.puzzles.henning.face",
    "gridblock": "polytile.puzzles.gridblock.face",
    "walkable": "polytile.puzzles.walkable.face",
    "blokus": "polytile.puzzles.blokus.face",
    "cityblocks": "polytile.puzzles.cityblocks.face",
}

#: The ``format`` tags of the games' own files, and their game.
FORMATS: dict[str, str] = {
    "polytile/henning@1": "henning",
    "polytile/gridblock@1": "gridblock",
    "polytile/walkable@1": "walkable",
}

#: The games whose positions are ``polytile/position@1`` files, by their ``"game"`` field.
POSITION_GAMES: tuple[str, ...] = ("cityblocks", "blokus")

#: Game records in other programs' formats: by file suffix, and by the game an SGF game
#: tree's ``GM`` property names (its start: ``GM[Blokus Duo]`` is Blokus).
RECORD_SUFFIXES: dict[str, str] = {".blksgf": "blokus"}
SGF_GAMES: dict[str, str] = {"Blokus": "blokus"}

#: The game whose position a plain text board (rows of ``. # B Y R G``) is, by the command
#: reading it; the other commands read one as a tiling board.
TEXT_BOARDS: dict[str, str] = {"score": "cityblocks", "bounds": "cityblocks",
                               "solve-endgame": "blokus"}  # fmt: skip

#: The one-player puzzles ``polytile solve NAME`` solves, declared by their games: the name
#: and the ``module:ATTRIBUTE`` of each one's PuzzleSolver, in the order the help lists them.
PUZZLES: dict[str, str] = {
    "eighty-four": "polytile.puzzles.blokus.teaser_face:EIGHTY_FOUR",
    "one-color": "polytile.puzzles.blokus.teaser_face:ONE_COLOR",
    "cityblocks-max": "polytile.puzzles.cityblocks.max_face:MAX",
    "gridblock-solo": "polytile.puzzles.gridblock.solo_face:SOLO",
    "walkable-path": "polytile.puzzles.walkable.path_face:PATH",
}

#: The answer files of those puzzles, by their ``format`` tag: the puzzle that checks them
#: (a test keeps it equal to the puzzles' own ``answer_formats``).
ANSWER_FORMATS: dict[str, str] = {"polytile/walkable-path@1": "walkable-path"}

#: The puzzles of every other name: the tiling catalogue, its coloured teasers and puzzle
#: files, which ``count`` counts and ``validate`` checks solutions against.
CATALOGUE = "polytile.puzzles.tiling.face:TILINGS"

#: Every kind of puzzle ``polytile generate`` makes: its name and the ``module:ATTRIBUTE`` of
#: its :class:`~polytile.store.kinds.PuzzleKind`, in the order the help lists them.
KINDS: dict[str, str] = {
    "packing": "polytile.puzzles.tiling.kinds:PACKING",
    "blokus-teaser": "polytile.puzzles.tiling.kinds:TEASER",
    "henning": "polytile.puzzles.henning.kinds:KIND",
    "gridblock-solo": "polytile.puzzles.gridblock.kinds:KIND",
    "walkable-path": "polytile.puzzles.walkable.kinds:KIND",
}

#: The files of the kinds whose puzzles are exported as files of their own (a
#: :class:`~polytile.store.kinds.FileKind`): each ``format`` tag, and ``kind:puzzle`` or
#: ``kind:answer`` (a test keeps it equal to the kinds' own ``puzzle_format`` and
#: ``answer_format``).
PUZZLE_FILES: dict[str, str] = {
    "polytile/gridblock-solo-puzzle@1": "gridblock-solo:puzzle",
    "polytile/gridblock-solo-answer@1": "gridblock-solo:answer",
    "polytile/walkable-path-puzzle@1": "walkable-path:puzzle",
    "polytile/walkable-path-answer@1": "walkable-path:answer",
}

#: Kinds that are planned but not built, and what they would be.
PLANNED_KINDS: dict[str, str] = {
    "blokus-endgame": "Blokus endgame puzzles",
}

_loaded: dict[str, Face] = {}
_puzzles: dict[str, PuzzleSolver] = {}
_catalogue: CataloguePuzzles | None = None


def face(name: str) -> Face:
    """The face of the game called ``name``.

    Raises
    ------
    UnknownNameError
        If no game of that name has a face (the message lists those that do).
    """
    found = _loaded.get(name)
    if found is None:
        module = FACES.get(name)
        if module is None:
            raise UnknownNameError("game", str(name), tuple(FACES))
        found = _loaded[name] = importlib.import_module(module).FACE
    return found


def _attribute(target: str) -> Any:
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def puzzle(name: str) -> PuzzleSolver:
    """The puzzle ``polytile solve name`` solves: a declared one (:data:`PUZZLES`), else the
    catalogue, which takes every other name and file (and says which it does not know)."""
    found = _puzzles.get(name)
    if found is None:
        target = PUZZLES.get(name)
        if target is None:
            return catalogue()
        found = _puzzles[name] = _attribute(target)
    return found


def puzzles() -> dict[str, PuzzleSolver]:
    """Every declared puzzle by name, in the order of :data:`PUZZLES` (each module imported
    on first use; they are small, the solvers load when a puzzle is solved)."""
    return {name: puzzle(name) for name in PUZZLES}


def answer_of_file(file: str) -> AnswerFile | None:
    """The puzzle whose answer file ``file`` is, by a format tag of :data:`ANSWER_FORMATS`
    among its first 4 kB (``-``: standard input); None for any other file."""
    from polytile._files import has_tag

    for tag, name in ANSWER_FORMATS.items():
        if has_tag(file, f'"{tag}"'.encode()):
            return puzzle(name)  # type: ignore[return-value]
    return None


def catalogue() -> CataloguePuzzles:
    """The tiling catalogue's puzzles (:data:`CATALOGUE`)."""
    global _catalogue
    if _catalogue is None:
        _catalogue = _attribute(CATALOGUE)
    return _catalogue


def game_of_file(file: str, command: str | None = None) -> str | None:
    """The name of the game whose file ``file`` is (``-``: standard input): by the
    ``format`` of the JSON object it holds (read whole, within the size limit) and a
    position's ``"game"``, by a record's suffix or SGF game name, or for ``command`` a plain
    text board (see the module notes); None for a file of no such game, or one that cannot
    be read (the other readers say why). A JSON file that does not parse goes by the
    format tag among its first 4 kB, so that its game's reader says where it is damaged."""
    from polytile._files import read_stdin, sniff
    from polytile._positions import is_text_board  # with the file formats: numpy

    suffix = "" if file == "-" else os.path.splitext(file)[1].lower()
    if suffix in RECORD_SUFFIXES:
        return RECORD_SUFFIXES[suffix]
    doc, data = sniff(file)
    if doc is not None:
        tag = doc.get("format")
        if tag == "polytile/position@1":
            return doc["game"] if doc.get("game") in POSITION_GAMES else None
        return FORMATS.get(tag) if isinstance(tag, str) else None
    if data is None:
        return None
    for tag, name in FORMATS.items():
        if f'"{tag}"'.encode() in data:
            return name
    if file != "-" and _SGF_START.match(data):  # records are not read from standard input
        names = [m.decode("utf-8", "replace") for m in _SGF_GAME.findall(data)]
        for prefix, name in SGF_GAMES.items():
            if any(n.startswith(prefix) for n in names):
                return name
    if b'"polytile/position@1"' in data:  # a damaged position: its game may come late
        whole = read_stdin() if file == "-" else _head(file, _POSITION_HEAD)
        game = _GAME_FIELD.search(whole)
        if game is not None and game[1].decode() in POSITION_GAMES:
            return game[1].decode()
    if command in TEXT_BOARDS and is_text_board(data):
        return TEXT_BOARDS[command]
    return None


def refuse_record(data: bytes, source: str) -> None:
    """Refuse ``data``, the first bytes of a file of no game's face, when they look like a
    record of a game of :data:`SGF_GAMES` that cannot be read there (on standard input, or
    naming another game): that game's face says why (:class:`~polytile.errors.FormatError`)."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] != b"(":
        return
    for name in dict.fromkeys(SGF_GAMES.values()):
        face(name).refuse_record(data, source)


def face_of_file(file: str, command: str | None = None) -> Face | None:
    """The face of the game whose file ``file`` is (see :func:`game_of_file`), or None."""
    name = game_of_file(file, command)
    return None if name is None else face(name)


_SGF_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\(\s*;")
_SGF_GAME = re.compile(rb"GM\s*\[\s*([^\]]*)")
_GAME_FIELD = re.compile(rb'"game"\s*:\s*"([\w-]+)"')
_POSITION_HEAD = 1 << 20


def _head(file: str, size: int) -> bytes:
    """The first ``size`` bytes of a file; empty for one that cannot be read."""
    try:
        with open(file, "rb") as f:
            return f.read(size)
    except OSError:
        return b""

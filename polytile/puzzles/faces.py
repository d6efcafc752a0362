"""The registry of the games' faces: a front end finds a game here, by name or by file.

Each line of :data:`FACES` names the module whose ``FACE`` is a game's
:class:`~polytile.puzzles.face.Face`; it is imported the first time it is asked for, so
finding one game loads no other. :data:`FORMATS` tells a file's game by its ``format`` tag
without importing any (a test keeps it equal to the faces' own ``formats``). A new game is
its package with a ``face`` module, plus a line in each table.

:data:`KINDS` does the same for the kinds of generated puzzle
(:class:`~polytile.store.kinds.PuzzleKind`, found by :func:`polytile.store.kinds.kind`): each
names the ``module:ATTRIBUTE`` of a kind declared by its game, so the puzzle store and the
``generate`` and ``puzzles`` commands name no game.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from polytile.errors import UnknownNameError

if TYPE_CHECKING:
    from polytile.puzzles.face import Face

__all__ = ["FACES", "FORMATS", "KINDS", "PLANNED_KINDS", "face", "face_of_file", "game_of_file"]

#: Every game with a face: its name and the module holding ``FACE``.
FACES: dict[str, str] = {
    "henning": "polytile.puzzles.henning.face",
    "gridblock": "polytile.puzzles.gridblock.face",
    "walkable": "polytile.puzzles.walkable.face",
}

#: The ``format`` tags of the games' own files, and their game.
FORMATS: dict[str, str] = {
    "polytile/henning@1": "henning",
    "polytile/gridblock@1": "gridblock",
    "polytile/walkable@1": "walkable",
}

#: Every kind of puzzle ``polytile generate`` makes: its name and the ``module:ATTRIBUTE`` of
#: its :class:`~polytile.store.kinds.PuzzleKind`, in the order the help lists them.
KINDS: dict[str, str] = {
    "packing": "polytile.puzzles.tiling.kinds:PACKING",
    "blokus-teaser": "polytile.puzzles.tiling.kinds:TEASER",
    "henning": "polytile.puzzles.henning.kinds:KIND",
    "gridblock-solo": "polytile.puzzles.gridblock.kinds:KIND",
    "walkable-path": "polytile.puzzles.walkable.kinds:KIND",
}

#: Kinds that are planned but not built, and what they would be.
PLANNED_KINDS: dict[str, str] = {
    "blokus-endgame": "Blokus endgame puzzles",
}

_loaded: dict[str, Face] = {}


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


def game_of_file(file: str) -> str | None:
    """The name of the game whose file ``file`` is (``-``: standard input), by the format
    tag among its first 4 kB; None for a file of no such game, or one that cannot be read
    (the other readers say why)."""
    from polytile._files import has_tag

    for tag, name in FORMATS.items():
        if has_tag(file, f'"{tag}"'.encode()):
            return name
    return None


def face_of_file(file: str) -> Face | None:
    """The face of the game whose file ``file`` is (see :func:`game_of_file`), or None."""
    name = game_of_file(file)
    return None if name is None else face(name)

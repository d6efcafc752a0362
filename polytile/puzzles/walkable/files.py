"""Walkable Cities files: game records and positions (format ``polytile/walkable@1``).

Both are JSON documents told apart by ``kind``; ``docs/formats.md`` lists every field. A
**record** gives the set-up (the rule options, the three boards with their dead cells and,
optionally, the seed and dead count that made them) and every round played, so any position
of the game can be rebuilt (:func:`read_walkable` with ``move=N``: after N rounds). A
**position** gives the boards with claimed cells, the rotation, the pass counts, the round
number and, between the selection and the drop, both picks (the rotation is then what is
left after them).

Reading checks every field and replays every round with the rules engine; errors are
:class:`~polytile.errors.FormatError` naming the file and the field (``rounds[3]``).

Examples
--------
>>> from polytile.puzzles.walkable.rules import Walkable
>>> g = Walkable.new(seed=1)
>>> g.play_round("T4 1:c4,d4 2:e4 3:d5 | L4 pass")
>>> doc = read_walkable(dumps_record(g, {"seed": 1, "dead": 10}))
>>> doc.kind, doc.state.state_key() == g.state_key(), len(doc.rounds)
('record', True, 1)
>>> read_walkable(dumps_position(g)).state.state_key() == g.state_key()
True
>>> read_walkable(dumps_record(g), move=0).state.round
0
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile._files import (
    MAX_GAME_FILE_BYTES,
    get_list,
    get_string,
    kind_of,
    open_game_document,
    read_input,
    require,
)
from polytile.errors import FormatError, IllegalMoveError
from polytile.puzzles.walkable.board import (
    BLUE,
    BOARDS,
    CELLS,
    PIECES,
    RED,
    SIDE,
    seeded_boards,
)
from polytile.puzzles.walkable.rules import (
    PLAYER_NAMES,
    TIEBREAKS,
    Options,
    Round,
    Walkable,
    cell_name,
    parse_round,
)
from polytile.text import counted

__all__ = ["FORMAT", "WalkableDoc", "dumps_position", "dumps_record", "load_walkable",
           "read_walkable"]  # fmt: skip

FORMAT = "polytile/walkable@1"
_KINDS = ("record", "position")
_SYMBOLS = ".#RB"
_COMMON = {"format", "game", "kind", "options", "boards"}
_RECORD = _COMMON | {"setup", "rounds"}
_POSITION = _COMMON | {"rotation", "passes", "round", "picks"}


@dataclass
class WalkableDoc:
    """A loaded Walkable Cities document.

    Attributes
    ----------
    kind
        ``"record"`` or ``"position"``.
    state
        The game state (for a record: after :attr:`rounds` or the ``move`` asked for, those
        rounds on its step stack).
    rounds
        For a record, every round of the file.
    setup
        For a record, its ``setup`` field (``seed``, ``dead``) when it has one.
    extra
        Top-level fields polytile does not read, kept.
    """

    kind: str
    state: Walkable
    rounds: list[Round] = field(default_factory=list)
    setup: dict[str, int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


# -- reading -----------------------------------------------------------------------------------
def load_walkable(path: str | os.PathLike[str], move: int | None = None) -> WalkableDoc:
    """Read a file (see :func:`read_walkable`).

    Raises
    ------
    FormatError
        If the file is not a valid Walkable Cities document.
    OSError
        If it cannot be read.
    """
    data, source = read_input(path, MAX_GAME_FILE_BYTES)
    return read_walkable(data, source, move)


def read_walkable(text: str | bytes, source: str = "<string>",
                  move: int | None = None) -> WalkableDoc:  # fmt: skip
    """Read a record or position document.

    Parameters
    ----------
    text
        The JSON document.
    source
        Named in errors.
    move
        For a record: the position after this many rounds (default: all). Every round is
        replayed either way.

    Raises
    ------
    FormatError
        Naming the field that is wrong, or the round that is illegal.
    """
    doc, kind = open_game_document(text, source, FORMAT, "walkable", _KINDS, move)
    options = _options(require(doc, "options", source), source)
    claimed = kind == "position"
    cells = _boards(require(doc, "boards", source), source, claimed)
    if kind == "position":
        state = _position(doc, cells, options, source)
        return WalkableDoc(kind, state, extra=_extra(doc, _POSITION))
    setup = _setup(doc.get("setup"), cells, source)
    g = Walkable(cells, options)
    rounds = get_list(require(doc, "rounds", source), source, "rounds")
    if move is not None and move > len(rounds):
        raise FormatError(f"--move {move}: the record has {len(rounds)} rounds", source,
                          "rounds")  # fmt: skip
    played: list[Round] = []
    for i, text_i in enumerate(rounds):
        where = f"rounds[{i}]"
        if g.is_over():
            raise FormatError("the game was already over", source, where)
        try:
            rnd = parse_round(get_string(text_i, source, where))
            g.play_round(rnd)
        except (ValueError, IllegalMoveError) as e:
            if isinstance(e, FormatError):
                raise
            raise FormatError(f"round {i + 1}: {e}", source, where) from None
        played.append(rnd)
    while move is not None and g.round > move:
        g.pop_round()
    return WalkableDoc(kind, g, played, setup, _extra(doc, _RECORD))


def _options(value: Any, source: str) -> Options:
    if not isinstance(value, dict):
        raise FormatError(f"must be an object, got {kind_of(value)}", source, "options")
    unknown = sorted(set(value) - {"pass_limit", "tiebreak"})
    if unknown:
        raise FormatError(f"unknown option {unknown[0]!r} (pass_limit, tiebreak)", source,
                          f"options.{unknown[0]}")  # fmt: skip
    limit = value.get("pass_limit", 3)
    if isinstance(limit, bool) or limit not in (3, 4):
        raise FormatError(f"must be 3 or 4, got {limit!r}", source, "options.pass_limit")
    tiebreak = get_string(value.get("tiebreak", "none"), source, "options.tiebreak", TIEBREAKS)
    return Options(limit, tiebreak)


def _boards(value: Any, source: str, claimed: bool) -> npt.NDArray[np.int8]:
    allowed = _SYMBOLS if claimed else _SYMBOLS[:2]
    boards = get_list(value, source, "boards")
    if len(boards) != BOARDS:
        raise FormatError(f"must be {BOARDS} boards, got {len(boards)}", source, "boards")
    cells = np.zeros(CELLS, dtype=np.int8)
    for b, rows in enumerate(boards):
        rows = get_list(rows, source, f"boards[{b}]")
        if len(rows) != SIDE:
            raise FormatError(f"must be {SIDE} rows, got {len(rows)}", source, f"boards[{b}]")
        for r, row in enumerate(rows):
            # The field is named as JSON counts (from 0), the place as the game writes it:
            # "boards[0][3]: d4 on board 1", as a round's error names "a1 on board 1"
            # (#48: "boards[0][3]: column 3" mixed a 0-based row with a 1-based column).
            where = f"boards[{b}][{r}]"
            row = get_string(row, source, where)
            if len(row) != SIDE:
                raise FormatError(f"row {r + 1} of board {b + 1} must be {SIDE} cells, got "
                                  f"{len(row)}", source, where)  # fmt: skip
            for c, ch in enumerate(row):
                if ch not in allowed:
                    what = " ".join(allowed)
                    place = cell_name(b * 100 + r * SIDE + c)
                    raise FormatError(f"{place} on board {b + 1}: {ch!r} is not a cell "
                                      f"({what})", source, where)  # fmt: skip
                cells[b * 100 + r * SIDE + c] = allowed.index(ch)
    return cells


def _int(value: Any, source: str, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"must be an integer, got {kind_of(value)}", source, where)
    if not low <= value <= high:
        raise FormatError(f"must be from {low} to {high}, got {value}", source, where)
    return value


def _setup(value: Any, cells: npt.NDArray[np.int8], source: str) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict) or set(value) != {"seed", "dead"}:
        raise FormatError("must be an object with seed and dead", source, "setup")
    seed = _int(value["seed"], source, "setup.seed", 0, 2**31 - 1)
    dead = _int(value["dead"], source, "setup.dead", 0, SIDE * SIDE)
    if not np.array_equal(seeded_boards(seed, dead), cells):
        raise FormatError(f"the boards are not those of seed {seed} with {dead} dead cells "
                          "(remove setup when the boards are your own)", source,
                          "boards")  # fmt: skip
    return {"seed": seed, "dead": dead}


def _pieces(value: Any, source: str, where: str, size: tuple[int, int]) -> tuple[str, ...]:
    items = get_list(value, source, where)
    if not size[0] <= len(items) <= size[1]:
        raise FormatError(f"must hold {size[0]} to {size[1]} pieces, got {len(items)}", source,
                          where)  # fmt: skip
    for i, p in enumerate(items):
        get_string(p, source, f"{where}[{i}]", PIECES)
    return tuple(items)


def _position(doc: dict[str, Any], cells: npt.NDArray[np.int8], options: Options,
              source: str) -> Walkable:  # fmt: skip
    rotation = _pieces(require(doc, "rotation", source), source, "rotation", (0, 5))
    if len(set(rotation)) != len(rotation):
        raise FormatError("a piece appears twice", source, "rotation")
    rotation = tuple(p for p in PIECES if p in rotation)
    passes = require(doc, "passes", source)
    if not isinstance(passes, dict) or set(passes) != set(PLAYER_NAMES):
        raise FormatError("must be an object with red and blue", source, "passes")
    counts = tuple(_int(passes[n], source, f"passes.{n}", 0, options.pass_limit)
                   for n in PLAYER_NAMES)  # fmt: skip
    rnd = _int(require(doc, "round", source), source, "round", 0, 10**6)
    for p, symbol in enumerate((RED, BLUE)):
        name = PLAYER_NAMES[p]
        if counts[p] > rnd:
            raise FormatError(f"{name} cannot have passed {counts[p]} of "
                              f"{counted(rnd, 'round')}", source, f"passes.{name}")  # fmt: skip
        have = int((cells == symbol).sum())
        if have > 4 * (rnd - counts[p]):
            dropped = counted(rnd - counts[p], "round")
            raise FormatError(f"{name} has {counted(have, 'cell')}, more than 4 a round in the "
                              f"{dropped} it can have dropped in", source, "boards")  # fmt: skip
    g = Walkable(cells, options, rotation, (counts[0], counts[1]), rnd)
    if doc.get("picks") is not None:  # null, as --json prints it, means no picks yet
        if g.is_over():
            raise FormatError("the game is over: there is nothing to pick", source, "picks")
        picks = _pieces(doc["picks"], source, "picks", (2, 2))
        if set(picks) & set(rotation):
            raise FormatError("a picked piece has left the rotation, but the rotation holds "
                              "it", source, "picks")  # fmt: skip
        g.picks = (picks[0], picks[1])
    return g


def _extra(doc: dict[str, Any], known: set[str]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in known}


# -- writing -----------------------------------------------------------------------------------
def _rows(cells: npt.NDArray[np.int8]) -> list[list[str]]:
    return [["".join(_SYMBOLS[cells[b * 100 + r * SIDE + c]] for c in range(SIDE))
             for r in range(SIDE)] for b in range(BOARDS)]  # fmt: skip


def _dump(doc: dict[str, Any]) -> str:
    """JSON with a field or a board row per line, and lists of pieces on one line."""
    text = json.dumps(doc, indent=2)
    return (
        re.sub(
            r"\[\s*((?:\"[IOTLZ]4\",?\s*)+)\]",
            lambda m: "[" + ", ".join(m[1].replace(",", " ").split()) + "]",
            text,
        )
        + "\n"
    )


def _head(g: Walkable, kind: str) -> dict[str, Any]:
    o = g.options
    return {"format": FORMAT, "game": "walkable", "kind": kind,
            "options": {"pass_limit": o.pass_limit, "tiebreak": o.tiebreak}}  # fmt: skip


def dumps_record(g: Walkable, setup: dict[str, int] | None = None,
                 extra: dict[str, Any] | None = None) -> str:  # fmt: skip
    """The game so far as a record: the set-up and every whole round (a selection not yet
    dropped is left out).

    Raises
    ------
    ValueError
        If ``g`` did not start from empty boards at round 0 (it was loaded from a position),
        or ``extra`` names a field of the format.
    """
    start = g.start if g.start is not None else g.cells
    if g.round != len(g.rounds()) or ((start == RED) | (start == BLUE)).any():
        raise ValueError("this game was loaded mid-game: it has no set-up to record")
    doc = _head(g, "record")
    if setup:
        doc["setup"] = dict(setup)
    doc["boards"] = _rows(start)
    doc["rounds"] = [str(r) for r in g.rounds()]
    clash = sorted(set(extra or {}) & (_RECORD | set(doc)))
    if clash:
        raise ValueError(f"extra fields {', '.join(clash)} are fields of the format")
    doc.update(extra or {})
    return _dump(doc)


def dumps_position(g: Walkable) -> str:
    """The state as a position document."""
    doc = _head(g, "position")
    doc["boards"] = _rows(g.cells)
    doc["rotation"] = list(g.rotation)
    doc["passes"] = dict(zip(PLAYER_NAMES, g.passes, strict=True))
    doc["round"] = g.round
    if g.picks is not None:
        doc["picks"] = list(g.picks)
    return _dump(doc)

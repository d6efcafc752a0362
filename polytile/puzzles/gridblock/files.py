"""Gridblock files: game records, full positions and one player's view.

All three are JSON documents of format ``polytile/gridblock@1`` told apart by ``kind``; see
``docs/formats.md`` for every field. A **record** gives the set-up (options, layout, decks,
set-up draws, every colour's hand in every round) and the moves, so any position of the game
can be rebuilt (:func:`read_gridblock` with ``move=N``). A **position** gives the full state,
future deals included; a **view** gives what one player knows (no hand it cannot see, no
future deal).

Reading checks what the rules imply: hands come from their colour's deck (under
``deal="split"`` rounds 2, 4 and 6 hold the other three cards), set-up draws are in the deck
and on the grid, the cards played fit the turn order, each colour's cubes on corners and
discarded add up to its turns, and every move of a record is legal when replayed (the
field by field checks are in :mod:`polytile.puzzles.gridblock._reading`). Errors are
:class:`~polytile.errors.FormatError` naming the file and the field (``moves[12]``).

Examples
--------
>>> from polytile.puzzles.gridblock.rules import Gridblock
>>> g = Gridblock.new(seed=2)
>>> _ = g.play_random(seed=2)
>>> doc = read_gridblock(dumps_record(g), "<string>")
>>> doc.kind, doc.state.state_key() == g.state_key(), dumps_record(doc.state) == dumps_record(g)
('record', True, True)
>>> read_gridblock(dumps_position(g)).state.state_key() == g.state_key()
True
>>> split_moves(["setup", "b3", "NE", "C3@d4", "A1@a2", "SW", "via", "a1,a2"])
['setup b3 NE', 'C3@d4', 'A1@a2 SW via a1,a2']
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from polytile._files import (
    MAX_GAME_FILE_BYTES,
    open_game_document,
    read_input,
)
from polytile.puzzles.gridblock._reading import CUBE_LETTERS, Reader
from polytile.puzzles.gridblock.grid import (
    SYMBOLS,
    Card,
    card_name,
    tile_name,
    walk_to,
)
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import (
    COLOR_NAMES,
    Gridblock,
)

__all__ = [
    "FORMAT",
    "GridblockDoc",
    "dumps_position",
    "dumps_record",
    "dumps_view",
    "last_walk",
    "load_gridblock",
    "move_text",
    "read_gridblock",
    "split_moves",
]

FORMAT = "polytile/gridblock@1"
_KINDS = ("record", "position", "view")
_SETUP_KEYS = {"options", "layout", "decks", "setup"}


@dataclass
class GridblockDoc:
    """A loaded Gridblock document.

    Attributes
    ----------
    kind
        ``"record"``, ``"position"`` or ``"view"``.
    state
        The game state. For a view, the hidden part is filled in one consistent way (the
        lowest cards first); only ``player``'s information state is meaningful, and analyses
        must sample or list the hidden part
        (:meth:`~polytile.puzzles.gridblock.game.GridblockState.sample_hidden`).
    player
        For a view, whose view it is (a player index); else None.
    moves
        For a record, every move of the game (a written walk kept in ``Move.path``);
        ``state`` is after ``len(moves)`` of them, or after the ``move`` asked for, with
        those moves on its move stack.
    extra
        Top-level fields of the file that polytile does not read, kept.
    """

    kind: str
    state: Gridblock
    player: int | None = None
    moves: list[Move] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def hidden_hands(self) -> tuple[int, ...]:
        """For a view, the colours (indices into ``state.colors``) whose cards this round
        its player cannot see; empty for a record or a position."""
        g = self.state
        if self.kind != "view" or g.is_setup or g.is_over():
            return ()
        if g.options.deal == "split" and g.round % 2 == 1:
            return ()  # rounds 2, 4 and 6 are open
        return tuple(s for s, c in enumerate(g.colors) if g.options.player_of(c) != self.player)

    def shown_state(self) -> Gridblock:
        """The state to draw or score: :attr:`state`, but for a view the hands its player
        cannot see are empty instead of filled in."""
        hidden = self.hidden_hands()
        return _Shown(self.state, hidden) if hidden else self.state


class _Shown(Gridblock):
    """A copy of a state whose :meth:`hand` is empty for the colours in ``hidden``."""

    def __init__(self, g: Gridblock, hidden: Sequence[int]) -> None:
        self.__dict__.update(g.copy().__dict__)
        self._hidden = frozenset(hidden)

    def hand(self, slot: int) -> tuple[Card, ...]:
        return () if slot in self._hidden else super().hand(slot)


# -- moves -----------------------------------------------------------------------------------
def move_text(move: Move) -> str:
    """The text form of a move, with ``via`` and its walk when it has one
    (``C3@d4 NE via d2,d3,d4``)."""
    if move.path is None:
        return str(move)
    return f"{move} via {','.join(tile_name(t) for t in move.path)}"


def split_moves(words: Sequence[str]) -> list[str]:
    """Cut command-line words into move texts: a move starts at ``setup`` or at a word with
    ``@`` and runs to the next one, so ``setup b3 NE C3@d4 NE`` is two moves (quoted moves
    work too)."""
    out: list[str] = []
    for word in " ".join(words).split():
        if word.lower() == "setup" or "@" in word or not out:
            out.append(word)
        else:
            out[-1] += " " + word
    return out


def last_walk(g: Gridblock) -> tuple[int, ...] | None:
    """The walk of the last move on ``g``'s move stack, start tile first: the walk the move
    wrote, or one that :func:`~polytile.puzzles.gridblock.grid.walk_to` finds; just the tile
    for a set-up placement; None when no move was made."""
    if not g.move_stack:
        return None
    before = g.copy()
    move = before.pop()
    if move.card is None:
        return (move.tile,)
    start = before.mover[before.to_move_slot]
    path = move.path or walk_to(start, move.card[1], move.tile)
    return None if path is None else (start, *path)


# -- reading ---------------------------------------------------------------------------------
def load_gridblock(path: str | os.PathLike[str], move: int | None = None) -> GridblockDoc:
    """Read a file (see :func:`read_gridblock`).

    Raises
    ------
    FormatError
        If the file is not a valid Gridblock document.
    OSError
        If it cannot be read.
    """
    data, source = read_input(path, MAX_GAME_FILE_BYTES)
    return read_gridblock(data, source, move)


def read_gridblock(text: str | bytes, source: str = "<string>",
                   move: int | None = None) -> GridblockDoc:  # fmt: skip
    """Read a record, position or view document.

    Parameters
    ----------
    text
        The JSON document.
    source
        Named in errors.
    move
        For a record: the position after this many moves (default: after all of them).
        Every move is checked either way.

    Raises
    ------
    FormatError
        Naming the field that is wrong, or the record move that is illegal.
    """
    doc, kind = open_game_document(text, source, FORMAT, "gridblock", _KINDS, move)
    r = Reader(doc, source)
    known = {"format", "game", "kind"} | _SETUP_KEYS
    if kind == "record":
        state, moves = r.record(move)
        known |= {"deals", "moves"}
        return GridblockDoc(kind, state, None, moves, _extra(doc, known))
    player = r.player() if kind == "view" else None
    state = r.position(player)
    known |= {"deals", "corners", "movers", "played", "player", "hands"}
    return GridblockDoc(kind, state, player, [], _extra(doc, known))


def _extra(doc: dict[str, Any], known: set[str]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in known}


# -- writing ---------------------------------------------------------------------------------
def _setup_doc(g: Gridblock, kind: str, drawn: int | None = None) -> dict[str, Any]:
    names = [COLOR_NAMES[c] for c in g.colors]
    o = g.options
    n = len(names) if drawn is None else drawn
    return {
        "format": FORMAT,
        "game": "gridblock",
        "kind": kind,
        "options": {
            "players": o.players,
            "two_player_score": o.two_player_score,
            "deal": o.deal,
            "instant_win": o.instant_win,
        },
        "layout": ["".join(SYMBOLS[s] for s in g.layout[6 * r : 6 * r + 6]) for r in range(6)],
        "decks": {name: [card_name(c) for c in g.decks[s]] for s, name in enumerate(names)},
        "setup": {names[s]: SYMBOLS[g.setup_symbols[s]] for s in range(n)},
    }


def _deals_doc(g: Gridblock) -> dict[str, list[list[str]]]:
    return {COLOR_NAMES[c]: [[card_name(x) for x in sorted(h)] for h in g.deals[s]]
            for s, c in enumerate(g.colors)}  # fmt: skip


def _board_doc(g: Gridblock) -> dict[str, Any]:
    def tile(t: int) -> str:
        return "".join("." if c < 0 else CUBE_LETTERS[c] for c in g.corners[4 * t : 4 * t + 4])

    return {
        "corners": [" ".join(tile(6 * r + c) for c in range(6)) for r in range(6)],
        "movers": {
            COLOR_NAMES[c]: (tile_name(g.mover[s]) if g.mover[s] >= 0 else None)
            for s, c in enumerate(g.colors)
        },
        "played": {
            COLOR_NAMES[c]: [[card_name(x) for x in r] for r in g.played[s]]
            for s, c in enumerate(g.colors)
        },
    }


def dumps_record(g: Gridblock, extra: dict[str, Any] | None = None) -> str:
    """The game so far as a record: its set-up, every deal and every move (walks kept).

    Raises
    ------
    ValueError
        If ``g`` was not played from the start (it was loaded from a position or a view), or
        ``extra`` names a field of the format.
    """
    start = g.copy()
    while start.move_stack:
        start.pop()
    if start.step != 0:
        raise ValueError("this game was loaded mid-game: it has no set-up to record")
    doc = _setup_doc(g, "record")
    doc["deals"] = _deals_doc(g)
    doc["moves"] = [move_text(m) for m in g.move_stack]
    return _dump(_with_extra(doc, extra))


def dumps_position(g: Gridblock) -> str:
    """The full state (every deal included) as a document."""
    doc = _setup_doc(g, "position")
    doc["deals"] = _deals_doc(g)
    doc.update(_board_doc(g))
    return _dump(doc)


def dumps_view(g: Gridblock, player: int) -> str:
    """What ``player`` knows, as a document: no hand it cannot see, no future deal, no set-up
    draw still to come."""
    from polytile.puzzles.gridblock.game import GridblockGame

    state = GridblockGame.of(g.options).state_of(g)
    names = state.game.player_names()
    if not 0 <= player < len(names):
        raise ValueError(f"player {player} is not 0..{len(names) - 1}")
    drawn = g.to_move_slot + 1 if g.is_setup and not g.is_over() else len(g.colors)
    doc = _setup_doc(g, "view", drawn)
    doc["player"] = names[player]
    doc.update(_board_doc(g))
    split_open = g.options.deal == "split" and not g.is_setup and g.round % 2 == 1
    doc["hands"] = {COLOR_NAMES[c]: [card_name(x) for x in g.hand(s)]
                    for s, c in enumerate(g.colors)
                    if split_open or g.options.player_of(c) == player}  # fmt: skip
    return _dump(doc)


def _with_extra(doc: dict[str, Any], extra: dict[str, Any] | None) -> dict[str, Any]:
    clash = sorted(set(extra or {}) & set(doc))
    if clash:
        raise ValueError(f"extra fields {', '.join(clash)} are fields of the format")
    doc.update(extra or {})
    return doc


def _dump(doc: dict[str, Any]) -> str:
    """JSON with one field per line, the grids ``layout`` and ``corners`` a row per line, and
    other lists of plain values (or of such lists) on one line."""
    return _format(doc, "") + "\n"


_GRIDS = ("layout", "corners")


def _flat(value: Any) -> bool:
    return isinstance(value, list) and all(
        not isinstance(v, (dict, list)) or (isinstance(v, list) and _flat(v)) for v in value
    )


def _format(value: Any, indent: str, key: str = "") -> str:
    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {_format(v, inner, k)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and (key in _GRIDS or not _flat(value)):
        items = [inner + _format(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)

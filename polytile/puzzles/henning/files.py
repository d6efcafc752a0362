"""City Blocks (Henning) files: positions (full, or one player's view) and game records.

All three are JSON documents of format ``polytile/henning@1`` told apart by ``kind``; see
``docs/formats.md`` for every field. A full **position** gives everything, hidden parts
included; a **view** gives what one player knows (its own hand; the sizes of the other
hand and of both reserves); a **record** gives the set-up and the moves, so that any
position of the game can be rebuilt (:func:`read_henning` with ``move=N``).

Reading checks everything the rules imply: each player's tiles add up to its 20, the
awards match the full streets, the tokens held were won and are all different, and every
move of a record is legal when it is replayed. Errors are
:class:`~polytile.errors.FormatError` naming the file and the field (``moves[12]``).

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> g = Henning.new(seed=2)
>>> _ = g.play_random(seed=2)
>>> doc = read_henning(dumps_record(g), "<string>")
>>> doc.state.state_key() == g.state_key(), doc.kind
(True, 'record')
>>> back = read_henning(dumps_position(g), "<string>").state
>>> back.state_key() == g.state_key()
True
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

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
from polytile.puzzles.henning.moves import Move
from polytile.puzzles.henning.rules import HAND_SIZE, OPEN, TIED, Henning
from polytile.puzzles.henning.tiles import (
    KINDS,
    PLAYER_NAMES,
    STREETS,
    TILE_SET,
    street_name,
)
from polytile.puzzles.henning.tiles import (
    kind_of as tile_kind,
)

__all__ = [
    "FORMAT",
    "HenningDoc",
    "dumps_position",
    "dumps_record",
    "dumps_view",
    "load_henning",
    "read_henning",
]

FORMAT = "polytile/henning@1"
_KINDS = ("position", "view", "record")
_MAX_MOVES = 1000  # a game has at most 40 placements and some passes


@dataclass
class HenningDoc:
    """A loaded City Blocks (Henning) document.

    Attributes
    ----------
    kind
        ``"position"``, ``"view"`` or ``"record"``.
    state
        The game state. For a view, the hidden part is filled in one consistent way (the
        opponent's tiles dealt in sorted order); only ``player``'s information state is
        meaningful, and analyses must sample or list the hidden part.
    player
        For a view, whose view it is (0 blue, 1 red); else None.
    moves
        For a record, every move of the game; ``state`` is after ``len(moves)`` of them or
        after the ``move`` asked for.
    extra
        Fields of the file that polytile does not read, kept.
    """

    kind: str
    state: Henning
    player: int | None = None
    moves: list[Move] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


# -- reading ---------------------------------------------------------------------------------
def load_henning(path: str | os.PathLike[str], move: int | None = None) -> HenningDoc:
    """Read a file (see :func:`read_henning`).

    Raises
    ------
    FormatError
        If the file is not a valid City Blocks (Henning) document.
    OSError
        If it cannot be read.
    """
    data, source = read_input(path, MAX_GAME_FILE_BYTES)
    return read_henning(data, source, move)


def read_henning(
    text: str | bytes, source: str = "<string>", move: int | None = None
) -> HenningDoc:
    """Read a position, view or record document.

    Parameters
    ----------
    text
        The JSON document.
    source
        Named in errors.
    move
        For a record: the position after this many moves (default: after all of them).

    Raises
    ------
    FormatError
        Naming the field that is wrong, or the record move that is illegal.
    """
    doc, kind = open_game_document(text, source, FORMAT, "henning", _KINDS, move)
    known = {"format", "game", "kind"}
    if kind == "record":
        state, moves = _read_record(doc, source, move)
        known |= {"setup", "moves"}  # "seed" is kept, and written back
        return HenningDoc(kind, state, None, moves, _extra(doc, known))
    player = None
    if kind == "view":
        player = _player(require(doc, "player", source), source, "player")
    state = _read_state(doc, source, player)
    known |= {"player", "streets", "awards", "city", "money", "removed", "to_move", "hands",
              "reserves", "hand_sizes", "reserve_sizes", "first"}  # fmt: skip
    return HenningDoc(kind, state, player, [], _extra(doc, known))


def _extra(doc: dict[str, Any], known: set[str]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in known}


def _player(value: Any, source: str, where: str) -> int:
    return PLAYER_NAMES.index(get_string(value, source, where, PLAYER_NAMES))


def _tiles(value: Any, source: str, where: str) -> list[int]:
    out = []
    for i, name in enumerate(get_list(value, source, where)):
        try:
            out.append(tile_kind(get_string(name, source, f"{where}[{i}]")))
        except ValueError as e:
            raise FormatError(str(e), source, f"{where}[{i}]") from None
    return out


def _per_player(doc: dict[str, Any], key: str, source: str) -> dict[int, Any]:
    value = require(doc, key, source)
    if not isinstance(value, dict):
        raise FormatError(f"must be an object with 'blue' and 'red', got {kind_of(value)}",
                          source, key)  # fmt: skip
    for name in value:
        if name not in PLAYER_NAMES:
            raise FormatError(f"{name!r} is not a player (blue, red)", source, f"{key}.{name}")
    return {p: value.get(name) for p, name in enumerate(PLAYER_NAMES) if name in value}


def _tokens(doc: dict[str, Any], source: str) -> list[int]:
    streets = require(doc, "streets", source)
    if not isinstance(streets, dict):
        raise FormatError(f"must be an object from street to token, got {kind_of(streets)}",
                          source, "streets")  # fmt: skip
    names = [street_name(s) for s in range(11)]
    tokens = []
    for name in names:
        if name not in streets:
            raise FormatError(f"street {name} is missing; every street (1-5, a-f) needs a "
                              "token from 1 to 15", source, f"streets.{name}")  # fmt: skip
        value = streets[name]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 15:
            raise FormatError(f"street {name} needs a token from 1 to 15, got {value!r}",
                              source, f"streets.{name}")  # fmt: skip
        tokens.append(value)
    for name in streets:
        if name not in names:
            raise FormatError(f"{name!r} is not a street (1-5, a-f)", source, f"streets.{name}")
    if len(set(tokens)) != 11:
        dup = next(t for t, n in Counter(tokens).items() if n > 1)
        raise FormatError(f"token ${dup} lies on two streets", source, "streets")
    return tokens


def _read_state(doc: dict[str, Any], source: str, view: int | None) -> Henning:
    tokens = _tokens(doc, source)
    city = get_list(require(doc, "city", source), source, "city")
    if len(city) != 5:
        raise FormatError(f"needs 5 rows, got {len(city)}", source, "city")
    owner, kind = [-1] * 30, [-1] * 30
    for r, row in enumerate(city):
        cells = get_string(row, source, f"city[{r}]").split()
        if len(cells) != 6:
            raise FormatError(f"needs 6 blocks separated by spaces, got {len(cells)}",
                              source, f"city[{r}]")  # fmt: skip
        for c, cell in enumerate(cells):
            if cell == ".":
                continue
            letter, _, tile = cell.partition(":")
            if letter not in ("B", "R") or not tile:
                raise FormatError(f"block {cell!r} must be '.', 'B:<tile>' or 'R:<tile>'",
                                  source, f"city[{r}] column {'abcdef'[c]}")  # fmt: skip
            try:
                kind[r * 6 + c] = tile_kind(tile)
            except ValueError as e:
                raise FormatError(str(e), source, f"city[{r}] column {'abcdef'[c]}") from None
            owner[r * 6 + c] = "BR".index(letter)
    awards = [OPEN] * 11
    raw_awards = doc.get("awards", {})
    if not isinstance(raw_awards, dict):
        raise FormatError(f"must be an object, got {kind_of(raw_awards)}", source, "awards")
    for name, who in raw_awards.items():
        where = f"awards.{name}"
        try:
            s = [street_name(x) for x in range(11)].index(name)
        except ValueError:
            raise FormatError(f"{name!r} is not a street (1-5, a-f)", source, where) from None
        awards[s] = TIED if who == "tie" else _player(who, source, where)
    for s, blocks in enumerate(STREETS):
        full = all(owner[b] >= 0 for b in blocks)
        if full != (awards[s] != OPEN):
            what = "is full but has no award" if full else "has an award but is not full"
            raise FormatError(f"street {street_name(s)} {what}", source, "awards")
    money = {p: sorted(_ints(v, source, f"money.{PLAYER_NAMES[p]}"))
             for p, v in _per_player(doc, "money", source).items()}  # fmt: skip
    for p in (0, 1):
        won = {tokens[s] for s in range(11) if awards[s] == p}
        for t in money.get(p, []):
            if t not in won:
                raise FormatError(f"${t} is not the token of a street {PLAYER_NAMES[p]} won",
                                  source, f"money.{PLAYER_NAMES[p]}")  # fmt: skip
    removed = []
    for i, item in enumerate(get_list(doc.get("removed", []), source, "removed")):
        text = get_string(item, source, f"removed[{i}]")
        letter, _, tile = text.partition(":")
        if letter not in ("B", "R"):
            raise FormatError(f"{text!r} must be 'B:<tile>' or 'R:<tile>'", source,
                              f"removed[{i}]")  # fmt: skip
        try:
            removed.append(("BR".index(letter), tile_kind(tile)))
        except ValueError as e:
            raise FormatError(str(e), source, f"removed[{i}]") from None
    to_move = _player(require(doc, "to_move", source), source, "to_move")
    hands = _per_player(doc, "hands", source)
    hand = {p: _tiles(v, source, f"hands.{PLAYER_NAMES[p]}") for p, v in hands.items()}
    reserve: dict[int, list[int]] = {}
    if view is None:
        for p, v in _per_player(doc, "reserves", source).items():
            reserve[p] = _tiles(v, source, f"reserves.{PLAYER_NAMES[p]}")
        for p in (0, 1):
            if p not in hand or p not in reserve:
                raise FormatError(f"a full position gives {PLAYER_NAMES[p]}'s hand and "
                                  "reserve (a view gives one player's)", source)  # fmt: skip
    else:
        if set(hand) != {view}:
            raise FormatError(f"a view gives only {PLAYER_NAMES[view]}'s hand", source, "hands")
        sizes = _per_player(doc, "reserve_sizes", source)
        hand_sizes = _per_player(doc, "hand_sizes", source)
        try:
            left = {p: _left(owner, kind, removed, p) for p in (0, 1)}
        except ValueError as e:
            raise FormatError(str(e), source, "city") from None
        for p in (0, 1):
            kept = sizes.get(p)
            if not isinstance(kept, int) or isinstance(kept, bool) or kept < 0:
                raise FormatError(f"needs a count, got {kept!r}", source,
                                  f"reserve_sizes.{PLAYER_NAMES[p]}")  # fmt: skip
            if p != view:
                h = hand_sizes.get(p)
                if not isinstance(h, int) or isinstance(h, bool) or not 0 <= h <= HAND_SIZE:
                    raise FormatError(f"needs a count from 0 to {HAND_SIZE}, got {h!r}",
                                      source, f"hand_sizes.{PLAYER_NAMES[p]}")  # fmt: skip
                if h + kept != len(left[p]):
                    raise FormatError(f"{PLAYER_NAMES[p]} has {len(left[p])} tiles off the "
                                      f"city, not {h} + {kept}", source, "hand_sizes")  # fmt: skip
                hand[p], reserve[p] = left[p][:h], left[p][h:]
            else:
                rest = Counter(left[p])
                rest.subtract(hand[p])
                if any(n < 0 for n in rest.values()) or sum(rest.values()) != kept:
                    raise FormatError(f"{PLAYER_NAMES[p]}'s hand and reserve size do not add "
                                      "up to its tiles off the city", source, "hands")  # fmt: skip
                reserve[p] = sorted(rest.elements())
    return _assemble(tokens, awards, owner, kind, money, removed, to_move, hand, reserve,
                     source)  # fmt: skip


def _ints(value: Any, source: str, where: str) -> list[int]:
    out = []
    for i, v in enumerate(get_list(value, source, where)):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 15:
            raise FormatError(f"a token is an integer from 1 to 15, got {v!r}", source,
                              f"{where}[{i}]")  # fmt: skip
        out.append(v)
    return out


def _left(owner: list[int], kind: list[int], removed: list[tuple[int, int]], p: int) -> list[int]:
    left = Counter(TILE_SET)
    for b in range(30):
        if owner[b] == p:
            left[kind[b]] -= 1
    for o, k in removed:
        if o == p:
            left[k] -= 1
    if any(n < 0 for n in left.values()):
        extra = next(KINDS[k] for k, n in left.items() if n < 0)
        raise ValueError(f"{PLAYER_NAMES[p]} has too many {extra} on the city and removed")
    return sorted(left.elements())


def _assemble(tokens: list[int], awards: list[int], owner: list[int], kind: list[int],
              money: dict[int, list[int]], removed: list[tuple[int, int]], to_move: int,
              hands: dict[int, list[int]], reserves: dict[int, list[int]],
              source: str) -> Henning:  # fmt: skip
    for p in (0, 1):
        try:
            left = _left(owner, kind, removed, p)
        except ValueError as e:
            raise FormatError(str(e), source, "city") from None
        if sorted(hands[p] + reserves[p]) != left:
            raise FormatError(f"{PLAYER_NAMES[p]}'s hand and reserve must be its tiles that "
                              "are neither on the city nor removed", source, "hands")  # fmt: skip
        if len(hands[p]) > HAND_SIZE:
            raise FormatError(f"holds more than {HAND_SIZE} tiles", source,
                              f"hands.{PLAYER_NAMES[p]}")  # fmt: skip
    held = money.get(0, []) + money.get(1, [])
    if len(set(held)) != len(held):
        raise FormatError("a token is held twice", source, "money")
    g = Henning(tokens, to_move, [TILE_SET[:HAND_SIZE]] * 2, [TILE_SET[HAND_SIZE:]] * 2)
    g.award_of = list(awards)
    g.owner, g.kind = list(owner), list(kind)
    g.empty = owner.count(-1)
    g.empty_in = [sum(owner[b] < 0 for b in blocks) for blocks in STREETS]
    g.money = [sorted(money.get(0, [])), sorted(money.get(1, []))]
    g.hands = [sorted(hands[0]), sorted(hands[1])]
    g.reserves = [list(reserves[0]), list(reserves[1])]
    g.removed = list(removed)
    if not removed:  # nothing was ever redeveloped: every award's totals are today's
        g.decided = [None if a == OPEN else g.standing(s) for s, a in enumerate(awards)]
    return g


def _read_record(doc: dict[str, Any], source: str, move: int | None) -> tuple[Henning, list[Move]]:
    setup = require(doc, "setup", source)
    if not isinstance(setup, dict):
        raise FormatError(f"must be an object, got {kind_of(setup)}", source, "setup")
    tokens = _tokens(setup, source)
    first = _player(require(setup, "first", source), source, "setup.first")
    hands = _per_player(setup, "hands", source)
    reserves = _per_player(setup, "reserves", source)
    dealt = [_tiles(hands.get(p), source, f"setup.hands.{n}") for p, n in enumerate(PLAYER_NAMES)]
    rest = [_tiles(reserves.get(p), source, f"setup.reserves.{n}")
            for p, n in enumerate(PLAYER_NAMES)]  # fmt: skip
    try:
        g = Henning(tokens, first, dealt, rest)
    except ValueError as e:
        raise FormatError(str(e), source, "setup") from None
    raw = get_list(require(doc, "moves", source), source, "moves")
    if len(raw) > _MAX_MOVES:
        raise FormatError(f"{len(raw)} moves; a game has at most {_MAX_MOVES}", source, "moves")
    if move is not None and not 0 <= move <= len(raw):
        raise FormatError(f"--move {move} is outside 0..{len(raw)} (the record has {len(raw)} "
                          "moves)", source, "moves")  # fmt: skip
    moves = []
    for i, text in enumerate(raw):
        where = f"moves[{i}]"
        try:
            m = Move.parse(get_string(text, source, where))
        except ValueError as e:
            raise FormatError(str(e), source, where) from None
        moves.append(m)
        if move is None or i < move:
            try:
                g.push(m)
            except IllegalMoveError as e:
                raise FormatError(f"move {i + 1} {str(e).removeprefix('illegal move ')}",
                                  source, where) from None  # fmt: skip
    return g, moves


# -- writing ---------------------------------------------------------------------------------
def _street_doc(tokens: list[int]) -> dict[str, int]:
    return {street_name(s): tokens[s] for s in range(11)}


def _block(g: Henning, b: int) -> str:
    return "." if g.owner[b] < 0 else f"{'BR'[g.owner[b]]}:{KINDS[g.kind[b]]}"


def _city(g: Henning) -> list[str]:
    return [" ".join(_block(g, r * 6 + c) for c in range(6)) for r in range(5)]


def _common(g: Henning, kind: str) -> dict[str, Any]:
    awards = {street_name(s): ("tie" if a == TIED else PLAYER_NAMES[a])
              for s, a in enumerate(g.award_of) if a != OPEN}  # fmt: skip
    return {
        "format": FORMAT,
        "game": "henning",
        "kind": kind,
        "streets": _street_doc(g.tokens),
        "awards": awards,
        "city": _city(g),
        "money": {n: list(g.money[p]) for p, n in enumerate(PLAYER_NAMES)},
        "removed": [f"{'BR'[o]}:{KINDS[k]}" for o, k in g.removed],
        "to_move": PLAYER_NAMES[g.to_move],
    }


def _names(kinds: Any) -> list[str]:
    return [KINDS[k] for k in kinds]


def dumps_position(g: Henning) -> str:
    """The full position (hidden parts included) as a document."""
    doc = _common(g, "position")
    doc["hands"] = {n: _names(g.hand(p)) for p, n in enumerate(PLAYER_NAMES)}
    doc["reserves"] = {n: _names(g.reserve(p)) for p, n in enumerate(PLAYER_NAMES)}
    return _dump(doc)


def dumps_view(g: Henning, player: int) -> str:
    """What ``player`` knows, as a document (no order of any reserve, no other hand)."""
    doc = _common(g, "view")
    doc["player"] = PLAYER_NAMES[player]
    doc["hands"] = {PLAYER_NAMES[player]: _names(g.hand(player))}
    doc["hand_sizes"] = {PLAYER_NAMES[1 - player]: len(g.hand(1 - player))}
    doc["reserve_sizes"] = {n: g.reserve_size(p) for p, n in enumerate(PLAYER_NAMES)}
    return _dump(doc)


def dumps_record(g: Henning, extra: dict[str, Any] | None = None) -> str:
    """The game so far as a record: its set-up and every move (a game loaded from a position
    has no set-up to write).

    Raises
    ------
    ValueError
        If ``g`` was not played from a set-up (it was loaded mid-game).
    """
    start = g.copy()
    while start.move_stack:
        start.pop()
    if start.empty != 30:
        raise ValueError("this game was loaded mid-game: it has no set-up to record")
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": "henning",
        "kind": "record",
        "setup": {
            "streets": _street_doc(start.tokens),
            "first": PLAYER_NAMES[start.first],
            "hands": {n: _names(start.hand(p)) for p, n in enumerate(PLAYER_NAMES)},
            "reserves": {n: _names(start.reserve(p)) for p, n in enumerate(PLAYER_NAMES)},
        },
        "moves": [str(m) for m in g.move_stack],
    }
    doc.update(extra or {})
    return _dump(doc)


def _dump(doc: dict[str, Any]) -> str:
    """JSON with one field per line and lists of plain values kept on one line."""
    return _format(doc, "") + "\n"


def _format(value: Any, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {_format(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        items = [inner + _format(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value)

"""Gridblock: the 6x6 grid, tile and corner names, cards, decks, and the walks a mover takes.

Tiles are written like chess squares: the column letter ``a``..``f`` then the row number
``1``..``6`` from the top (``b3`` is tile (row 2, column 1)); tile index ``r * 6 + c``.
Corners are ``NW NE SE SW`` (0..3). A card is a symbol ``A``..``F`` and a value 1..3
(``C3``).

:func:`end_tiles` gives, for a start tile and a card value, every tile a mover can stop on:
the ends of the self-avoiding walks of that many steps that never re-enter a tile (the start
counts as entered). Only the end tile matters to the rules, so a move names the end tile;
:func:`walk_to` gives one walk there.

Examples
--------
>>> tile_name(2 * 6 + 1), parse_tile("b3"), parse_card("c3")
('b3', 13, (2, 3))
>>> sorted(tile_name(t) for t in end_tiles(0, 3))
['a2', 'a4', 'b1', 'b3', 'c2', 'd1']
>>> sum(len(end_tiles(t, k)) for t in range(36) for k in (1,)), sum(
...     len(end_tiles(t, 3)) for t in range(36))
(120, 352)
"""

from __future__ import annotations

from functools import cache

__all__ = [
    "CORNERS",
    "DEFAULT_DECK",
    "SIDE",
    "SYMBOLS",
    "Card",
    "card_name",
    "end_tiles",
    "parse_card",
    "parse_corner",
    "parse_tile",
    "tile_name",
    "walk_to",
]

SIDE = 6
SYMBOLS = "ABCDEF"
CORNERS = ("NW", "NE", "SE", "SW")
Card = tuple[int, int]  # (symbol index, value)
#: Every colour's deck unless a game gives another: A1 B2 C3 D1 E2 F3.
DEFAULT_DECK: tuple[Card, ...] = ((0, 1), (1, 2), (2, 3), (3, 1), (4, 2), (5, 3))
_COLS = "abcdef"


def tile_name(tile: int) -> str:
    """Tile index -> ``"b3"``."""
    return f"{_COLS[tile % SIDE]}{tile // SIDE + 1}"


def parse_tile(text: str) -> int:
    """``"b3"`` -> tile index.

    Raises
    ------
    ValueError
        If the text names no tile of the 6x6 grid.
    """
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in _COLS or t[1] not in "123456":
        raise ValueError(f"a tile is a column a-f and a row 1-6, like 'b3'; got {text!r}")
    return (int(t[1]) - 1) * SIDE + _COLS.index(t[0])


def card_name(card: Card) -> str:
    """``(2, 3)`` -> ``"C3"``."""
    return f"{SYMBOLS[card[0]]}{card[1]}"


def parse_card(text: str) -> Card:
    """``"C3"`` -> ``(2, 3)``.

    Raises
    ------
    ValueError
        If the text is not a symbol A-F followed by a value 1-3.
    """
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in SYMBOLS or t[1] not in "123":
        raise ValueError(f"a card is a symbol A-F and a value 1-3, like 'C3'; got {text!r}")
    return SYMBOLS.index(t[0]), int(t[1])


def parse_corner(text: str) -> int:
    """``"NE"`` -> 1.

    Raises
    ------
    ValueError
        If the text is not NW, NE, SE or SW.
    """
    t = text.strip().upper()
    if t not in CORNERS:
        raise ValueError(f"a corner is NW, NE, SE or SW; got {text!r}")
    return CORNERS.index(t)


def _neighbours(tile: int) -> list[int]:
    r, c = divmod(tile, SIDE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE:
            out.append((r + dr) * SIDE + c + dc)
    return out


@cache
def _walks(start: int, steps: int) -> dict[int, tuple[int, ...]]:
    """End tile -> one self-avoiding walk (start excluded) of exactly ``steps`` steps."""
    ends: dict[int, tuple[int, ...]] = {}

    def extend(path: tuple[int, ...], seen: frozenset[int]) -> None:
        if len(path) == steps:
            ends.setdefault(path[-1], path)
            return
        here = path[-1] if path else start
        for nxt in _neighbours(here):
            if nxt not in seen:
                extend((*path, nxt), seen | {nxt})

    extend((), frozenset({start}))
    return ends


def end_tiles(start: int, steps: int) -> tuple[int, ...]:
    """Every tile a mover on ``start`` can stop on after exactly ``steps`` steps (ascending).

    Notes
    -----
    Walks are enumerated once per (start, steps) and cached: at most 36 x 3 small searches.
    """
    return tuple(sorted(_walks(start, steps)))


def walk_to(start: int, steps: int, end: int) -> tuple[int, ...] | None:
    """One walk of ``steps`` steps from ``start`` ending on ``end`` (start excluded), or None."""
    return _walks(start, steps).get(end)


def is_walk(start: int, path: tuple[int, ...]) -> bool:
    """Whether ``path`` (start excluded) is a legal walk: each step to an edge neighbour, no
    tile entered twice, never back to the start."""
    seen = {start}
    here = start
    for t in path:
        if t in seen or t not in _neighbours(here):
            return False
        seen.add(t)
        here = t
    return True

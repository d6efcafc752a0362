"""Gridblock moves and their text form.

=============================  ==========================================================
text                           move
=============================  ==========================================================
``setup b3 NE``                set-up: the mover onto b3, the first cube on its NE corner
``C3@d4 NE``                   play C3, stop on d4, put a cube on its NE corner
``C3@d4``                      play C3, stop on d4, discard a cube (no symbol match, or
                               the tile is full)
``C3@d4 NE via c1,c2,d2,d4``   the same with the walk written out (checked, then dropped)
=============================  ==========================================================

Only the end tile matters to the rules, so moves compare equal whatever walk they took.

Examples
--------
>>> m = Move.parse("c3@D4 ne via d2,d3,d4")
>>> str(m), m == Move.parse("C3@d4 NE"), m.path
('C3@d4 NE', True, (9, 15, 21))
>>> str(Move.parse("setup b3 SW"))
'setup b3 SW'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from polytile.puzzles.gridblock.grid import (
    CORNERS,
    Card,
    card_name,
    parse_card,
    parse_corner,
    parse_tile,
    tile_name,
)

__all__ = ["Move"]


@dataclass(frozen=True, slots=True)
class Move:
    """A set-up placement (``card`` None) or a turn.

    Attributes
    ----------
    card
        The card played, ``(symbol, value)``; None for the set-up.
    tile
        Where the mover ends (or, at set-up, is put).
    corner
        The corner that receives a cube (0..3 for NW NE SE SW), or None when a cube is
        discarded.
    path
        The walk, if the player wrote it (tiles entered in order, the last being ``tile``);
        not part of the move's identity.
    """

    card: Card | None
    tile: int
    corner: int | None
    path: tuple[int, ...] | None = field(default=None, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not 0 <= self.tile < 36:
            raise ValueError(f"tile {self.tile} is not on the 6x6 grid")
        if self.corner is not None and not 0 <= self.corner < 4:
            raise ValueError(f"corner {self.corner} is not 0..3")
        if self.card is None and self.corner is None:
            raise ValueError("a set-up move puts its cube on a corner")
        if self.path is not None and (not self.path or self.path[-1] != self.tile):
            raise ValueError("a walk ends on the move's tile")

    @property
    def is_setup(self) -> bool:
        """True for a set-up placement."""
        return self.card is None

    def __str__(self) -> str:
        where = tile_name(self.tile)
        corner = "" if self.corner is None else " " + CORNERS[self.corner]
        if self.card is None:
            return f"setup {where}{corner}"
        return f"{card_name(self.card)}@{where}{corner}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read the text form (see the module notes).

        Raises
        ------
        ValueError
            Saying what is wrong with the text.
        """
        words = text.split()
        if len(words) == 3 and words[0].lower() == "setup":
            return cls(None, parse_tile(words[1]), parse_corner(words[2]))
        if not words or "@" not in words[0]:
            raise ValueError(f"a move looks like 'C3@d4 NE', 'C3@d4' or 'setup b3 NE'; "
                             f"got {text!r}")  # fmt: skip
        card, _, tile = words[0].partition("@")
        rest = words[1:]
        corner = None
        if rest and rest[0].lower() != "via":
            corner = parse_corner(rest[0])
            rest = rest[1:]
        path = None
        if rest:
            if len(rest) != 2 or rest[0].lower() != "via":
                raise ValueError(f"a walk is written 'via c1,c2,d2'; got {text!r}")
            path = tuple(parse_tile(t) for t in rest[1].split(","))
        return cls(parse_card(card), parse_tile(tile), corner, path)

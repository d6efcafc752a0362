"""City Blocks (Henning): moves and their text form.

A move is a pass, or one hand tile put on a block: developing an empty block, or
redeveloping a block holding one of the mover's tiles by paying its lowest token. A
courthouse may swap the tokens of two streets not yet awarded.

========================================  ==========================================
text                                      move
========================================  ==========================================
``S4@b3``                                 develop b3 with the store S4
``redevelop H2@c1 with $3``               pay $3, replace the mover's tile on c1 by H2
``CH@a2 swap 1,c``                        develop a2 with the courthouse, swap the
                                          tokens of row 1 and column c
``redevelop CH@a2 with $3 swap 1,c``      the same by redevelopment
``CH@a2``                                 a courthouse without a swap
``pass``                                  no legal play
========================================  ==========================================

Tile names are read case-insensitively, and a park (``PK``) is a school (``SC``).

Examples
--------
>>> m = Move.parse("redevelop CH@a2 with $3 swap 1,c")
>>> m.kind, m.block, m.redevelop, m.pay, m.swap
(18, (1, 0), True, 3, (0, 7))
>>> str(m), str(Move.parse("pk@F5")), Move.parse(str(m)) == m
('redevelop CH@a2 with $3 swap 1,c', 'SC@f5', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from polytile.geometry import Cell
from polytile.puzzles.henning.tiles import (
    CH,
    KINDS,
    block_name,
    kind_of,
    parse_block,
    parse_street,
    street_name,
)

__all__ = ["PASS", "Move"]


@dataclass(frozen=True, slots=True)
class Move:
    """One turn of City Blocks (Henning).

    Attributes
    ----------
    kind
        The tile's kind code (:data:`~polytile.puzzles.henning.tiles.KINDS`), -1 for a pass.
    block
        ``(row, col)`` of the block, None for a pass.
    redevelop
        True when the block holds one of the mover's tiles, which leaves the game.
    pay
        The token paid to redevelop (the mover's lowest), else None.
    swap
        The two streets whose tokens a courthouse swaps (ascending indices), else None.
    """

    kind: int = -1
    block: Cell | None = None
    redevelop: bool = False
    pay: int | None = None
    swap: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.kind == -1:
            if self.block is not None or self.redevelop or self.pay or self.swap:
                raise ValueError("a pass has no tile, block, payment or swap")
            return
        if not 0 <= self.kind < len(KINDS) or self.block is None:
            raise ValueError("a placement needs a tile and a block")
        if self.redevelop != (self.pay is not None):
            raise ValueError("a redevelopment names the token paid, and only it")
        if self.swap is not None:
            if self.kind != CH:
                raise ValueError("only a courthouse swaps tokens")
            a, b = self.swap
            if not (0 <= a < b <= 10):
                raise ValueError(f"a swap names two different streets, got {self.swap}")

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.kind == -1

    @property
    def tile(self) -> str | None:
        """The tile's name (None for a pass)."""
        return None if self.kind < 0 else KINDS[self.kind]

    def __str__(self) -> str:
        if self.kind < 0 or self.block is None:
            return "pass"
        text = f"{KINDS[self.kind]}@{block_name(self.block)}"
        if self.redevelop:
            text = f"redevelop {text} with ${self.pay}"
        if self.swap is not None:
            text += f" swap {street_name(self.swap[0])},{street_name(self.swap[1])}"
        return text

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read the text form (see the module notes).

        Raises
        ------
        ValueError
            Saying what is wrong with the text.
        """
        words = text.split()
        if [w.lower() for w in words] == ["pass"]:
            return cls()
        redevelop = bool(words) and words[0].lower() == "redevelop"
        if redevelop:
            words = words[1:]
        if not words or "@" not in words[0]:
            raise ValueError(f"a move looks like 'S4@b3', 'redevelop H2@c1 with $3', "
                             f"'CH@a2 swap 1,c' or 'pass'; got {text!r}")  # fmt: skip
        tile, _, block = words[0].partition("@")
        kind, cell = kind_of(tile), parse_block(block)
        rest = [w.lower() for w in words[1:]]
        pay = None
        if redevelop:
            if len(rest) < 2 or rest[0] != "with" or not rest[1].startswith("$"):
                raise ValueError(f"a redevelopment says the token it pays: 'with $3'; got {text!r}")
            try:
                pay = int(rest[1][1:])
            except ValueError:
                raise ValueError(f"'{rest[1]}' is not a token like $3 in {text!r}") from None
            rest = rest[2:]
        swap = None
        if rest:
            if len(rest) != 2 or rest[0] != "swap" or rest[1].count(",") != 1:
                raise ValueError(f"a courthouse swap is written 'swap 1,c'; got {text!r}")
            a, b = sorted(parse_street(s) for s in rest[1].split(","))
            if a == b:
                raise ValueError(f"a swap needs two different streets; got {text!r}")
            swap = (a, b)
        return cls(kind, cell, redevelop, pay, swap)


#: The pass.
PASS = Move()

"""City Blocks (Henning): the tiles, the 5x6 city's blocks and its 11 streets, and their names.

Tiles are named as in ``seeds/cityblocks-henning.md``: houses ``H1``..``H5``, stores
``S2``..``S6``, factories ``F3``..``F7`` (the digit is the value), and the special tiles
``SC`` (school; some editions call it a park: ``PK``, ``park`` and ``school`` are read as
``SC``), ``PP`` (power plant), ``MA`` (mall) and ``CH`` (courthouse), worth 0.

Blocks are written like chess squares: the column letter ``a``..``f`` then the row number
``1``..``5`` from the top, so ``b3`` is block (row 2, column 1). Streets are written ``1``..``5``
(the rows, top to bottom) and ``a``..``f`` (the columns); street indices are 0..4 for the rows
and 5..10 for the columns.

Examples
--------
>>> block_name((2, 1)), parse_block("b3"), kind_of("park"), KINDS[kind_of("F7")]
('b3', (2, 1), 15, 'F7')
>>> street_name(0), street_name(7), parse_street("c")
('1', 'c', 7)
"""

from __future__ import annotations

from polytile.geometry import Cell

__all__ = [
    "BLOCKS",
    "CH",
    "COLS",
    "FACTORY",
    "HOUSE",
    "KINDS",
    "MA",
    "OPEN",
    "PLAYER_NAMES",
    "PP",
    "ROWS",
    "SC",
    "STORE",
    "STREETS",
    "STREETS_OF",
    "TIED",
    "TILE_SET",
    "VALUES",
    "block_name",
    "kind_of",
    "parse_block",
    "parse_street",
    "street_name",
    "street_title",
]

ROWS, COLS = 5, 6
#: Every block, row-major: block index ``r * 6 + c``.
BLOCKS: tuple[Cell, ...] = tuple((r, c) for r in range(ROWS) for c in range(COLS))
#: The 11 streets: rows 0..4 then columns a..f, each as its block indices.
STREETS: tuple[tuple[int, ...], ...] = tuple(
    [tuple(r * COLS + c for c in range(COLS)) for r in range(ROWS)]
    + [tuple(r * COLS + c for r in range(ROWS)) for c in range(COLS)]
)
#: The two streets (row, column) of each block index.
STREETS_OF: tuple[tuple[int, int], ...] = tuple((b // COLS, ROWS + b % COLS) for b in range(30))

#: Tile kinds by code: 0..4 houses, 5..9 stores, 10..14 factories, then SC, PP, MA, CH.
KINDS: tuple[str, ...] = (
    "H1", "H2", "H3", "H4", "H5", "S2", "S3", "S4", "S5", "S6",
    "F3", "F4", "F5", "F6", "F7", "SC", "PP", "MA", "CH",
)  # fmt: skip
VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 3, 4, 5, 6, 7, 0, 0, 0, 0)
HOUSE, STORE, FACTORY = range(0, 5), range(5, 10), range(10, 15)
SC, PP, MA, CH = 15, 16, 17, 18
#: One player's 20 tiles as kind codes (two schools).
TILE_SET: tuple[int, ...] = (*range(15), SC, SC, PP, MA, CH)
#: The players, in index order: blue moves first unless the set-up says otherwise.
PLAYER_NAMES = ("blue", "red")
#: The award of a street not yet awarded, and of one whose token was discarded on a tie.
OPEN, TIED = -1, 2

_ALIASES = {"PK": SC, "PARK": SC, "SCHOOL": SC, "POWERPLANT": PP, "POWER-PLANT": PP,
            "MALL": MA, "COURTHOUSE": CH, "COURT": CH}  # fmt: skip
_CODE = {name: i for i, name in enumerate(KINDS)}
_COLS = "abcdef"


def kind_of(name: str) -> int:
    """The kind code of a tile name (case-insensitive; ``park``/``PK``/``school`` mean
    ``SC``).

    Raises
    ------
    ValueError
        If the name is not a tile.
    """
    key = name.strip().upper()
    code = _CODE.get(key, _ALIASES.get(key))
    if code is None:
        raise ValueError(f"unknown tile {name!r}; tiles are {' '.join(KINDS)} (PK = park = SC)")
    return code


def block_name(block: Cell) -> str:
    """``(2, 1)`` -> ``"b3"``."""
    r, c = block
    return f"{_COLS[c]}{r + 1}"


def parse_block(text: str) -> Cell:
    """``"b3"`` -> ``(2, 1)``.

    Raises
    ------
    ValueError
        If the text is not a block of the 5x6 city.
    """
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in _COLS or t[1] not in "12345":
        raise ValueError(f"a block is a column a-f and a row 1-5, like 'b3'; got {text!r}")
    return int(t[1]) - 1, _COLS.index(t[0])


def street_name(street: int) -> str:
    """Street index -> ``"1"``..``"5"`` (rows) or ``"a"``..``"f"`` (columns)."""
    return str(street + 1) if street < ROWS else _COLS[street - ROWS]


def street_title(street: int) -> str:
    """Street index -> ``"row 1"`` or ``"column c"``, for people."""
    return f"row {street + 1}" if street < ROWS else f"column {_COLS[street - ROWS]}"


def parse_street(text: str) -> int:
    """``"1"``..``"5"`` or ``"a"``..``"f"`` (also ``"row 2"``, ``"column c"``) -> index.

    Raises
    ------
    ValueError
        If the text names no street.
    """
    t = text.strip().lower().removeprefix("row").removeprefix("column").strip()
    if len(t) == 1 and t in "12345":
        return int(t) - 1
    if len(t) == 1 and t in _COLS:
        return ROWS + _COLS.index(t)
    raise ValueError(f"a street is a row 1-5 or a column a-f; got {text!r}")

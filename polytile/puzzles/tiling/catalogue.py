"""Finding a puzzle by name or file: tiling puzzles, and the coloured Blokus teasers.

Both kinds answer the same questions (``name``, ``problem``, known counts, ``to_solution``,
``check``), so ``polytile count`` and ``polytile solve`` treat them alike.
"""

from __future__ import annotations

from pathlib import Path

from polytile.board import Board
from polytile.errors import BoardError, FormatError, UnknownNameError
from polytile.geometry import piece
from polytile.puzzles.tiling.puzzle_file import parse_puzzle
from polytile.puzzles.tiling.puzzles import CATALOGUE, TilingPuzzle
from polytile.puzzles.tiling.teasers import Teaser, four_square

__all__ = ["TEASERS", "Puzzle", "load_puzzle", "names", "resolve", "teaser_board"]

Puzzle = TilingPuzzle | Teaser

#: The largest puzzle file read, in bytes.
MAX_PUZZLE_BYTES = 16 * 2**20

#: The coloured teasers by name, with what they are.
TEASERS = {
    "four-square": "Blokus: the 20 tetrominoes of four colours tile 8x10, same colours never "
    "share an edge, every piece corner-touches its colour (--touch connected: one group)",
}


def load_puzzle(path: str | Path) -> Puzzle:
    """Read a puzzle file: a tiling puzzle (:func:`~polytile.puzzles.tiling.puzzles.parse_puzzle`),
    a generated Blokus teaser (``polytile/teaser@1``), which solves, counts and checks like
    one, or a flat BurrTools puzzle (``.xmpuzzle``,
    :func:`~polytile.puzzles.tiling.burrtools.read_xmpuzzle`).

    Raises
    ------
    FormatError
        If the file is not valid JSON or not a valid puzzle.
    OSError
        If it cannot be read.
    """
    from polytile._files import decode_text, parse_json

    source = str(path)
    if source.lower().endswith(".xmpuzzle"):  # BurrTools: a flat puzzle on the cube grid
        from polytile.puzzles.tiling.burrtools import read_xmpuzzle

        return parse_puzzle(read_xmpuzzle(source), source)
    with open(path, "rb") as f:  # a file may grow after a size check: read one byte more
        data = f.read(MAX_PUZZLE_BYTES + 1)
    if len(data) > MAX_PUZZLE_BYTES:
        raise FormatError(f"larger than {MAX_PUZZLE_BYTES // 2**20} MB: not a puzzle file "
                          "polytile reads (a 200x200 board with its pieces is far smaller)",
                          source)  # fmt: skip
    doc = parse_json(decode_text(data, source), source)  # deep nesting, NaN: exit 2, located
    if isinstance(doc, dict) and doc.get("format") == "polytile/teaser@1":
        from polytile.puzzles.tiling.generate_teasers import parse_teaser

        return parse_teaser(doc, source)
    return parse_puzzle(doc, source)


def names() -> list[str]:
    """Every catalogue and teaser name."""
    return [*CATALOGUE, *TEASERS]


def teaser_board(text: str) -> Board:
    """A board from ``RxC`` or from a file of rows (``.`` open, ``#`` blocked).

    Raises
    ------
    BoardError
        If the text is neither a size nor a readable board file.
    """
    path = Path(text)
    if path.exists():
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError as exc:
            raise BoardError(f"{text}: a board file must be UTF-8 text") from exc
        rows = [line.strip() for line in lines if line.strip() and not line.startswith(";")]
        bad = {ch for row in rows for ch in row} - set(".#")
        if bad:
            raise BoardError(f"{text}: board files use '.' and '#' only, found {sorted(bad)}")
        if not rows:
            raise BoardError(f"{text}: the board file has no rows")
        try:
            return Board.from_text(rows)
        except BoardError as exc:
            raise BoardError(f"{text}: {exc}") from exc
    if any(sep in text for sep in "/\\") or text.endswith((".txt", ".board")):
        raise BoardError(f"{text}: no such board file")
    return Board.parse_size(text)


def resolve(
    name: str,
    touch: str | None = None,
    board: str | None = None,
    colors: int | None = None,
    pieces: str | None = None,
) -> Puzzle:
    """A puzzle by catalogue name, teaser name or puzzle file.

    ``touch``, ``board``, ``colors`` and ``pieces`` (comma-separated piece names: each
    colour's hand) make teaser variants; given for a tiling puzzle they are an error.

    Raises
    ------
    UnknownNameError
        Listing every name, for an unknown name that is not a file.
    BoardError
        For variant options on a puzzle that has none, or an impossible variant.
    """
    if name == "four-square":
        hand = None
        if pieces is not None:
            hand = [piece(part) for part in pieces.split(",") if part.strip()]
            if not hand:
                raise BoardError("--pieces needs at least one piece name")
        return four_square(
            touch or "local",
            teaser_board(board) if board else None,
            colors if colors is not None else 4,
            hand,
        )
    if any(x is not None for x in (touch, board, colors, pieces)):
        raise BoardError(
            f"--touch, --board, --colors and --pieces apply to the teasers "
            f"({', '.join(TEASERS)}), not to {name}"
        )
    if name in CATALOGUE:
        return CATALOGUE[name]
    if Path(name).suffix == ".json" or Path(name).exists():
        return load_puzzle(name)
    raise UnknownNameError("puzzle", name, names())

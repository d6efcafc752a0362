"""Blokus: the rules engine, a position that makes and unmakes moves.

The rules are ``seeds/blokus.md``. In the python-chess style, a :class:`Move` is a small
immutable value (a colour placing a named piece on some cells, or a pass) and a
:class:`Blokus` game is a mutable position with :meth:`~Blokus.push` and :meth:`~Blokus.pop`,
:meth:`~Blokus.legal_moves` and :meth:`~Blokus.is_legal`.

Legal placements come from the attach points of the colour to move (empty cells touching it at
a corner but not along an edge; before its first piece, its start cell): only the placements
covering one are tried, against the colour's forbidden cells, in a compiled kernel
(:mod:`polytile.puzzles.blokus.moves`). Passing is forced and only then allowed; the game ends
as soon as no colour can place a piece. Scoring lives in
:mod:`polytile.puzzles.blokus.scoring`. This module re-exports both.

Variants: ``Blokus()`` is the classic 4-colour game on 20x20; ``players`` may be 4, 3 (green
shared), 2 or ``"teams"`` (blue+red against yellow+green). ``Blokus("duo")`` is Blokus Duo:
14x14, blue starting on (4, 4) and moving first, yellow on (9, 9).

Examples
--------
>>> from polytile.puzzles.blokus.rules import Blokus, Move
>>> game = Blokus()
>>> game.to_move, game.count_legal_moves()  # placements covering blue's corner (0, 0)
('blue', 58)
>>> game.push(Move("blue", "V3", [(0, 0), (1, 0), (1, 1)]))
>>> game.push(Move("yellow", "I2", [(5, 5), (5, 6)]))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
polytile.errors.IllegalMoveError: illegal move Y I2 5,5 5,6: yellow's first piece must cover ...
>>> game.score().colors["blue"].total
-86
>>> game.pop()
Move(color='blue', piece='V3', cells=((0, 0), (1, 0), (1, 1)))
>>> Blokus("duo").count_legal_moves()  # every placement covering (4, 4)
414
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from polytile.errors import FormatError, IllegalMoveError, UnknownNameError
from polytile.formats import Position
from polytile.geometry import Cell
from polytile.puzzles.blokus import kernels
from polytile.puzzles.blokus.moves import (
    COLOR_NAMES,
    PIECE_NAMES,
    PIECE_SIZES,
    VARIANTS,
    Move,
    Variant,
    move_cache,
    neighbour_masks,
    pack_cells,
    placement_table,
)
from polytile.puzzles.blokus.scoring import (
    PLAYER_OPTIONS,
    ColorScore,
    ScoreSheet,
    check_players,
    player_names,
    read_fields,
    score_hands,
)

__all__ = [
    "COLOR_NAMES",
    "PIECE_NAMES",
    "PIECE_SIZES",
    "PLAYER_OPTIONS",
    "VARIANTS",
    "Blokus",
    "ColorScore",
    "Move",
    "ScoreSheet",
    "Variant",
    "player_names",
    "score_hands",
]

_PIECE_INDEX = {name: i for i, name in enumerate(PIECE_NAMES)}
_SQUARES = sum(PIECE_SIZES)  # 89
_I1 = PIECE_NAMES.index("I1")
# Grid codes: 0 empty, 1 + index in COLOR_NAMES for a colour (so B Y R G keep their letters
# whatever the variant).
_CODE_CHARS = ".BYRG"
_TO_CODES = str.maketrans(_CODE_CHARS, "\x00\x01\x02\x03\x04")
_FROM_CODES = bytes.maketrans(bytes(range(5)), _CODE_CHARS.encode("ascii"))


class Blokus:
    """A Blokus position that makes and unmakes moves.

    Parameters
    ----------
    variant
        ``"classic"`` (20x20, blue, yellow, red, green) or ``"duo"`` (14x14, blue, yellow).
    players
        Classic: 4 (one colour each, the default), 3 (blue, yellow and red; green is shared,
        its moves made in turn by the blue, yellow and red players, its score ignored), 2 or
        ``"teams"`` (blue+red against yellow+green, scores summed). Duo: 2 (the default).

    Raises
    ------
    UnknownNameError
        If the variant is unknown.
    ValueError
        If the variant is not played with that many players.

    Notes
    -----
    Colours always move in the variant's fixed order; a colour that cannot place a piece must
    pass (:meth:`legal_moves` is then just the pass). The game is over as soon as no colour
    can place a piece; then no move is legal.
    """

    def __init__(self, variant: str = "classic", players: int | str | None = None) -> None:
        if variant not in VARIANTS:
            raise UnknownNameError("Blokus variant", str(variant), tuple(VARIANTS))
        if players is None:
            players = PLAYER_OPTIONS[variant][0]
        self.players: int | str = check_players(players, variant)
        self.variant: Variant = VARIANTS[variant]
        self._colors = self.variant.colors
        self._index = {c: i for i, c in enumerate(self._colors)}
        self._codes = tuple(COLOR_NAMES.index(c) + 1 for c in self._colors)
        n = self.variant.size
        self._table = t = placement_table(n)
        self._out = np.empty(len(t.cells), dtype=np.int64)
        self._grid = bytearray(n * n)
        # Rows: 0 occupied, 1 + i colour i's edge neighbourhood, 1 + k + i its corner one.
        self._bits = np.zeros((1 + 2 * len(self._colors), t.words), dtype=np.uint64)
        for i, color in enumerate(self._colors):
            r, c = self.variant.starts[color]
            self._bits[1 + len(self._colors) + i, (r * n + c) >> 6] |= np.uint64(1) << np.uint64(
                (r * n + c) & 63
            )
        self._hand = np.ones((len(self._colors), len(PIECE_NAMES)), dtype=np.uint8)
        self._last = [-1] * len(self._colors)
        self._passes = [0] * len(self._colors)
        self._turn = 0
        self._over: bool | None = None
        self._moves = [move_cache(n, color) for color in self._colors]
        # (move, placement or -1, bits before, last piece before)
        self._stack: list[tuple[Move, int, npt.NDArray[np.uint64] | None, int]] = []

    # -- state ---------------------------------------------------------------------------
    @property
    def colors(self) -> tuple[str, ...]:
        """The colours of the variant, in turn order."""
        return self._colors

    @property
    def size(self) -> int:
        """Side of the board."""
        return self.variant.size

    @property
    def to_move(self) -> str:
        """The colour whose turn it is."""
        return self._colors[self._turn]

    @property
    def player_to_move(self) -> str:
        """The player whose turn it is (a name of :func:`player_names`).

        With 3 players green's moves go round the players: its first placement is made by
        blue's player, the second by yellow's, the third by red's, and so on (a forced pass
        by the player whose turn with green it would be).
        """
        color = self.to_move
        names = player_names(self.players, self.variant.name)
        if self.players == 3 and color == "green":
            return names[(len(PIECE_NAMES) - len(self.hand("green"))) % 3]
        return next(name for name in names if color in name.split("+"))

    @property
    def move_stack(self) -> list[Move]:
        """Moves pushed since construction (not those before a loaded position)."""
        return [entry[0] for entry in self._stack]

    def _color_index(self, color: str) -> int:
        if color not in self._index:
            raise ValueError(f"{color!r} does not play {self.variant.name} Blokus")
        return self._index[color]

    def hand(self, color: str) -> tuple[str, ...]:
        """Pieces ``color`` still holds, in :data:`PIECE_NAMES` order.

        Raises
        ------
        ValueError
            If ``color`` does not play in this variant.
        """
        row = self._hand[self._color_index(color)].tolist()
        return tuple(name for name, held in zip(PIECE_NAMES, row, strict=True) if held)

    def last_piece(self, color: str) -> str | None:
        """The last piece ``color`` placed: None before its first, or when a loaded position
        did not record it (then no ``I1`` bonus is given)."""
        p = self._last[self._color_index(color)]
        return None if p < 0 else PIECE_NAMES[p]

    def has_started(self, color: str) -> bool:
        """True once ``color`` has placed its first piece."""
        return not bool(self._hand[self._color_index(color)].all())

    def passes(self, color: str) -> int:
        """How many times ``color`` has passed."""
        return self._passes[self._color_index(color)]

    def color_at(self, cell: Cell) -> str | None:
        """Colour name occupying ``cell``, None when empty."""
        r, c = cell
        code = self._grid[r * self.size + c]
        return COLOR_NAMES[code - 1] if code else None

    def board_rows(self) -> list[str]:
        """The board as rows of ``. B Y R G``."""
        text = bytes(self._grid).translate(_FROM_CODES).decode("ascii")
        n = self.size
        return [text[i : i + n] for i in range(0, n * n, n)]

    def __str__(self) -> str:
        return "\n".join(self.board_rows())

    def __repr__(self) -> str:
        return (
            f"<Blokus {self.variant.name} players={self.players} to_move={self.to_move} "
            f"moves={len(self._stack)}>"
        )

    def _repr_svg_(self) -> str:
        from polytile.render import to_svg

        return to_svg(self.to_position())

    def copy(self) -> Blokus:
        """An independent copy, move stack included."""
        other = Blokus.__new__(Blokus)
        other.__dict__.update(self.__dict__)
        other._grid, other._bits = bytearray(self._grid), self._bits.copy()
        other._hand, other._last = self._hand.copy(), list(self._last)
        other._passes, other._stack = list(self._passes), list(self._stack)
        return other

    # -- moves ---------------------------------------------------------------------------
    def _generate(self, ci: int) -> int:
        """Write colour ``ci``'s legal placements into ``self._out``; return how many."""
        t, bits, k = self._table, self._bits, len(self._colors)
        args = (bits[0], bits[1 + ci], bits[1 + k + ci], self._hand[ci], self._out)
        return int(kernels.generate(t.masks, t.piece, t.cell_ptr, t.cell_placements, *args))

    def _placeable(self, ci: int) -> npt.NDArray[np.int64]:
        """Placement indices legal for colour ``ci`` now, ascending."""
        return np.sort(self._out[: self._generate(ci)])

    def _move(self, ci: int, p: int) -> Move:
        move = self._moves[ci][p]
        if move is None:
            t = self._table
            move = Move.trusted(self._colors[ci], PIECE_NAMES[t.piece[p]], t.cells[p])
            self._moves[ci][p] = move
        return move

    def state_key(self) -> bytes:
        """A key for everything the rest of the game depends on: the board, the hands, the
        colour to move and, for colours that have placed everything, whether ``I1`` went
        last. Positions reached by different move orders share it (for transposition
        tables); the pass counts and the move stack are not in it."""
        done = bytes(
            2 + (last == _I1) if not self._hand[ci].any() else 0
            for ci, last in enumerate(self._last)
        )
        return bytes(self._grid) + self._hand.tobytes() + done + bytes((self._turn,))

    def bitboards(
        self,
    ) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint8], npt.NDArray[np.int64], int]:
        """Copies of the compiled kernels' view of the position, for code that plays on
        without this class (the engine's playouts): the bitboard rows (0 occupied, ``1 + i``
        colour ``i``'s edge neighbourhood, ``1 + k + i`` its corner one, ``k`` colours), the
        hands (colours x :data:`PIECE_NAMES`, 1 = in hand), each colour's last piece index
        (-1 for none) and the index of the colour to move."""
        return (self._bits.copy(), self._hand.copy(), np.array(self._last, dtype=np.int64),
                self._turn)  # fmt: skip

    def hand_mask(self, color: str) -> npt.NDArray[np.uint8]:
        """``color``'s hand as 1 per piece index of :data:`PIECE_NAMES` it still holds, else
        0 (a copy).

        Raises
        ------
        ValueError
            If ``color`` does not play in this variant.
        """
        return self._hand[self._color_index(color)].copy()

    def grid_codes(self) -> npt.NDArray[np.uint8]:
        """The board as a flat row-major array of colour codes (a copy): 0 for an empty cell,
        else 1 + the colour's index in :data:`COLOR_NAMES` (blue 1, yellow 2, red 3, green
        4)."""
        return np.frombuffer(bytes(self._grid), dtype=np.uint8).copy()

    def attach_points(self, color: str | None = None) -> list[Cell]:
        """The cells where ``color`` (default: the colour to move) may attach a piece: empty
        cells touching it at a corner but not along an edge, or its start cell before its
        first piece; none once its hand is empty. Row-major order.

        Examples
        --------
        >>> Blokus("duo").attach_points()
        [(4, 4)]
        """
        ci = self._turn if color is None else self._color_index(color)
        if not self._hand[ci].any():
            return []
        k, bits = len(self._colors), self._bits
        free = bits[1 + k + ci] & ~bits[0] & ~bits[1 + ci]
        n = self.size
        flat = np.unpackbits(free.view(np.uint8), bitorder="little")[: n * n]
        return [(int(f) // n, int(f) % n) for f in np.flatnonzero(flat)]

    def legal_placements(self, color: str | None = None) -> list[Move]:
        """Every placement ``color`` (default: the colour to move) could make now.

        Ordered by piece (:data:`PIECE_NAMES` order), then orientation, then position. For a
        colour other than the one to move this is what it could place if it were its turn.

        Notes
        -----
        Tries only the placements covering an attach point, in compiled code: some tens of
        microseconds mid-game (``benchmarks/bench_blokus_moves.py``).
        """
        ci = self._turn if color is None else self._color_index(color)
        moves = self._moves[ci]
        return [moves[p] or self._move(ci, p) for p in self._placeable(ci).tolist()]

    def count_legal_placements(self, color: str | None = None) -> int:
        """``len(legal_placements(color))`` without building the moves."""
        return self._generate(self._turn if color is None else self._color_index(color))

    def legal_moves(self) -> list[Move]:
        """The legal placements of the colour to move; if none, its forced pass; if the game
        is over, nothing."""
        moves = self.legal_placements()
        if moves:
            return moves
        return [] if self.is_game_over() else [Move.pass_turn(self.to_move)]

    def count_legal_moves(self) -> int:
        """``len(legal_moves())`` without building the moves."""
        n = self._generate(self._turn)
        if n:
            return n
        return 0 if self.is_game_over() else 1

    def must_pass(self) -> bool:
        """True when the colour to move has no placement but the game goes on."""
        return self._generate(self._turn) == 0 and not self.is_game_over()

    def is_game_over(self) -> bool:
        """True when no colour can place a piece (section 5.1)."""
        if self._over is None:
            order = [(self._turn + i) % len(self._colors) for i in range(len(self._colors))]
            self._over = not any(self._generate(ci) for ci in order)
        return self._over

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be pushed now."""
        return self._illegality(move)[0] is not None

    def _illegality(self, move: Move) -> tuple[int | None, str]:
        """(placement index, or -1 for a pass, "") if legal, else (None, the reason)."""
        if move.color != self.to_move:
            return None, f"it is {self.to_move}'s turn, not {move.color}'s"
        ci = self._turn
        if move.piece is None:
            if self.is_game_over():
                return None, "the game is over"
            n = self._generate(ci)
            if n:
                return None, f"{move.color} has {n} legal placements; passing is only forced"
            return -1, ""
        t = self._table
        n = self.size
        outside = [(r, c) for r, c in move.cells if not (0 <= r < n and 0 <= c < n)]
        if outside:
            return None, f"cells {outside} lie outside the {n}x{n} board"
        p = t.index.get(move.cells)
        if p is None:
            return None, f"cells {list(move.cells)} do not form {move.piece}"
        actual = PIECE_NAMES[t.piece[p]]
        if actual != move.piece:
            return None, f"cells {list(move.cells)} form {actual}, not {move.piece}"
        if not self._hand[ci, _PIECE_INDEX[actual]]:
            return None, f"{move.color} has already placed its {actual}"
        k, bits = len(self._colors), self._bits
        status = kernels.placement_status(t.masks, p, bits[0], bits[1 + ci], bits[1 + k + ci])
        if status == 0:
            return p, ""
        if status == 1:
            cell = next(cell for cell in move.cells if self.color_at(cell))
            return None, f"cell {cell} is already covered by {self.color_at(cell)}"
        if status == 2:
            cell = next(cell for cell in move.cells if self._beside(cell, move.color))
            return None, f"cell {cell} shares an edge with a {move.color} cell"
        if self._hand[ci].all():
            start = self.variant.starts[move.color]
            return None, f"{move.color}'s first piece must cover its start cell {start}"
        return None, f"no cell touches a {move.color} cell at a corner"

    def _beside(self, cell: Cell, color: str) -> bool:
        r, c = cell
        n = self.size
        return any(
            0 <= r + dr < n and 0 <= c + dc < n and self.color_at((r + dr, c + dc)) == color
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )

    def push(self, move: Move) -> None:
        """Play ``move``.

        Raises
        ------
        IllegalMoveError
            Naming the move and what is wrong: not this colour's turn, the cells leaving the
            board or not forming the piece, the piece already placed, a cell already covered,
            an edge shared with the same colour, no corner contact (or, for a first piece, the
            start cell not covered), a pass while a placement exists, or the game being over.
        """
        p, reason = self._illegality(move)
        if p is None:
            raise IllegalMoveError(f"illegal move {move}: {reason}")
        self._apply(move, p)

    def _apply(self, move: Move, p: int) -> None:
        ci = self._turn
        if p < 0:
            self._stack.append((move, -1, None, -1))
            self._passes[ci] += 1
        else:
            t = self._table
            saved = self._bits
            self._bits = saved.copy()
            kernels.place(
                self._bits, ci, len(self._colors), p, t.masks, t.edge_masks, t.corner_masks
            )
            code = self._codes[ci]
            for f in t.flat_cells[p]:
                self._grid[f] = code
            piece = int(t.piece[p])
            self._hand[ci, piece] = 0
            self._stack.append((move, p, saved, self._last[ci]))
            self._last[ci] = piece
            self._over = None
        self._turn = (ci + 1) % len(self._colors)

    def pop(self) -> Move:
        """Take back the last pushed move and return it.

        Raises
        ------
        IndexError
            If no move was pushed since construction or loading.
        """
        if not self._stack:
            raise IndexError("no move to take back")
        move, p, saved, last = self._stack.pop()
        self._turn = ci = (self._turn - 1) % len(self._colors)
        if saved is None:
            self._passes[ci] -= 1
        else:
            t = self._table
            self._bits = saved
            for f in t.flat_cells[p]:
                self._grid[f] = 0
            self._hand[ci, t.piece[p]] = 1
            self._last[ci] = last
            self._over = None
        return move

    def peek(self) -> Move:
        """The last pushed move.

        Raises
        ------
        IndexError
            If there is none.
        """
        if not self._stack:
            raise IndexError("no move pushed yet")
        return self._stack[-1][0]

    def perft(self, depth: int) -> int:
        """Number of move sequences of length ``depth`` from here (forced passes included).

        Examples
        --------
        >>> Blokus().perft(2)  # the colours are far apart at first: 58 x 58
        3364
        """
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count_legal_moves()
        total = 0
        for move in self.legal_moves():
            self.push(move)
            total += self.perft(depth - 1)
            self.pop()
        return total

    def play_random(self, seed: int | np.random.Generator | None = None) -> int:
        """Play uniformly random legal moves until the game is over; return how many."""
        rng = np.random.default_rng(seed)
        played = 0
        while True:
            moves = self.legal_moves()
            if not moves:
                return played
            self.push(moves[int(rng.integers(len(moves)))])
            played += 1

    # -- scores and positions --------------------------------------------------------------
    def score(self) -> ScoreSheet:
        """Every colour's score now, and the players' totals (section 6)."""
        return score_hands(
            {c: self.hand(c) for c in self._colors},
            {c: self.last_piece(c) for c in self._colors},
            self.players,
            self.variant.name,
        )

    def to_position(self) -> Position:
        """The position as a :class:`~polytile.formats.Position` of game ``"blokus"``.

        ``extra`` records what the board cannot show: ``variant``, ``players``,
        ``last_piece`` (per colour, None before its first) and ``passes`` (per colour, how
        many times it passed). :meth:`from_position` restores the same state, without the
        move stack.
        """
        return Position(
            "blokus",
            tuple(self.board_rows()),
            self.to_move,
            {c: self.hand(c) for c in self._colors},
            {
                "variant": self.variant.name,
                "players": self.players,
                "last_piece": {c: self.last_piece(c) for c in self._colors},
                "passes": {c: self.passes(c) for c in self._colors},
            },
        )

    @classmethod
    def from_position(cls, position: Position, source: str = "<position>") -> Blokus:
        """Set up a game from a position of game ``"blokus"``.

        Parameters
        ----------
        position
            The board, ``to_move`` (blue when missing) and the hands. A colour without a hand
            entry must have no cell on the board (it holds all 21 pieces). ``extra`` may give
            ``variant`` (default ``"duo"`` for a 14x14 board, else ``"classic"``),
            ``players``, ``last_piece`` and ``passes`` (as :meth:`to_position` writes them;
            a last piece not given is unknown, which forfeits the ``I1`` bonus).
        source
            Named in error messages (a file name).

        Returns
        -------
        Blokus
            With an empty move stack.

        Raises
        ------
        FormatError
            Naming the field: another game, an unknown variant or bad ``players``, or any
            problem :func:`~polytile.puzzles.blokus.scoring.read_fields` finds (board, hands,
            ``to_move``, ``last_piece``, ``passes``).
        """
        if position.game != "blokus":
            raise FormatError(
                f'the position is of game {position.game!r}, not "blokus"', source, "game"
            )
        extra = position.extra
        default = "duo" if len(position.board) == VARIANTS["duo"].size else "classic"
        variant = extra.get("variant", default)
        try:
            game = cls(variant, extra.get("players"))
        except (UnknownNameError, ValueError, TypeError) as exc:
            field = "variant" if variant not in VARIANTS else "players"
            raise FormatError(str(exc), source, field) from exc
        game._load(position, source)
        return game

    def _load(self, position: Position, source: str) -> None:
        fields = read_fields(position, self.variant.name, source)
        colors = self._colors
        for ci, color in enumerate(colors):
            held = set(fields.hands[color])
            self._hand[ci] = [name in held for name in PIECE_NAMES]
            last = fields.last_pieces[color]
            self._last[ci] = -1 if last is None else PIECE_NAMES.index(last)
            self._passes[ci] = fields.passes[color]
        self._grid[:] = "".join(position.board).translate(_TO_CODES).encode("ascii")
        codes = np.frombuffer(bytes(self._grid), dtype=np.uint8).reshape(self.size, self.size)
        k = len(colors)
        self._bits[0] = pack_cells(codes != 0, self._table.words)
        for ci, color in enumerate(colors):
            edge, corner = neighbour_masks(codes == self._codes[ci])
            r, c = self.variant.starts[color]
            corner[r, c] = True  # an attach point until the first piece covers it
            self._bits[1 + ci] = pack_cells(edge, self._table.words)
            self._bits[1 + k + ci] = pack_cells(corner, self._table.words)
        self._turn = colors.index(fields.to_move)
        self._over = None

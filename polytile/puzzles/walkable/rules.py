"""Walkable Cities: the rules engine (``seeds/walkable-cities.md``).

A :class:`Walkable` is the whole state: the three boards (one flat cell array, see
:mod:`polytile.puzzles.walkable.board`), the rotation of pieces still to pick, each player's
consecutive passes, the round number, the rule options and a stack of the steps made, which
:meth:`Walkable.pop` unmakes exactly. Both players act at once: a round is two steps, the
*selection* (:meth:`Walkable.select`: both picks, section 3.1) and the *drop*
(:meth:`Walkable.drop`: both drops or passes, resolved together, sections 3.2-3.4).
:meth:`Walkable.play_round` makes both.

Text forms (``docs/formats.md``): a cell is its column letter ``a``-``j`` and row number
``1``-``10`` counted from the top (``d4`` is row 3, column 3 0-based); a drop is its piece
and, per board used, ``board:cells`` (``L4 1:d4,e4 3:d5 2:d6``, written back with boards in
order and cells in order); a pass is ``pass``. A player's part of a round is its pick and then
its drop or ``pass`` (``T4 1:a1,a2 3:b1,b2``, ``L4 pass``); a round is red's part, ``|``,
blue's part.

Examples
--------
>>> g = Walkable.new(seed=1)
>>> g.play_round("T4 1:c4,d4 2:e4 3:d5 | L4 pass")
>>> g.rotation, g.passes, g.round
(('I4', 'O4', 'Z4'), (0, 1), 1)
>>> str(g.rounds()[0])
'T4 1:c4,d4 2:e4 3:d5 | L4 pass'
>>> str(g.pop_round()), g.round, g.rotation
('T4 1:c4,d4 2:e4 3:d5 | L4 pass', 0, ('I4', 'O4', 'T4', 'L4', 'Z4'))
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from polytile.errors import IllegalMoveError
from polytile.puzzles.walkable.board import (
    BLUE,
    BOARDS,
    CELLS,
    DEAD,
    PIECES,
    RED,
    SIDE,
    UNCLAIMED,
    drop_table,
    is_drop,
    largest_regions,
    legal_drop_rows,
    legal_drops,
    resolve_drops,
    seeded_boards,
)

__all__ = [
    "PASS",
    "PLAYER_NAMES",
    "TIEBREAKS",
    "Drop",
    "Options",
    "Result",
    "Round",
    "Walkable",
    "board_cell_name",
    "boards_from_rows",
    "cell_name",
    "drop_cell_names",
    "drop_texts",
    "legal_drop_rows",
    "legal_drop_texts",
    "parse_cell",
    "parse_drop",
    "parse_part",
    "parse_round",
    "result_of",
]

#: The players in index order: red (0) and blue (1).
PLAYER_NAMES = ("red", "blue")
TIEBREAKS = ("none", "R", "B")
#: A pass, in the drop step (its text form).
PASS = "pass"
_COLUMNS = "abcdefghij"


@dataclass(frozen=True)
class Options:
    """The rule options of section 7: ``pass_limit`` 3 or 4 consecutive passes end the
    game; ``tiebreak`` ``"none"``, ``"R"`` or ``"B"`` (who wins equal boards won).

    Raises
    ------
    ValueError
        For a value the rules do not have.
    """

    pass_limit: int = 3
    tiebreak: str = "none"

    def __post_init__(self) -> None:
        if isinstance(self.pass_limit, bool) or self.pass_limit not in (3, 4):
            raise ValueError(f"pass_limit is 3 or 4, not {self.pass_limit!r}")
        if self.tiebreak not in TIEBREAKS:
            raise ValueError(f"tiebreak is one of {', '.join(TIEBREAKS)}, not {self.tiebreak!r}")


def cell_name(g: int) -> str:
    """The text of global cell ``g`` on its board (``d4``; the board is not named)."""
    r, c = divmod(g % 100, SIDE)
    return f"{_COLUMNS[c]}{r + 1}"


def parse_cell(text: str, board: int) -> int:
    """The global cell of ``text`` (``d4``) on board ``board`` (0-based).

    Raises
    ------
    ValueError
        If ``text`` is not a cell of a 10x10 board.
    """
    m = re.fullmatch(r"([a-j])(10|[1-9])", text)
    if m is None:
        raise ValueError(f"{text!r} is not a cell: a column a-j and a row 1-10 (d4)")
    return board * 100 + (int(m[2]) - 1) * SIDE + _COLUMNS.index(m[1])


@dataclass(frozen=True, order=True)
class Drop:
    """A drop of ``piece``: its four global cells, sorted (the cells on one board are one
    sub-piece). Only drops of :func:`~polytile.puzzles.walkable.board.drop_table` are made:
    :func:`parse_drop` checks the shape and the split."""

    piece: str
    cells: tuple[int, int, int, int]

    def __str__(self) -> str:
        parts = []
        for b in range(BOARDS):
            here = [cell_name(g) for g in self.cells if g // 100 == b]
            if here:
                parts.append(f"{b + 1}:{','.join(here)}")
        return f"{self.piece} {' '.join(parts)}"

    def boards(self) -> dict[int, tuple[int, ...]]:
        """Board (0-based) -> the cells of the sub-piece sent there."""
        out: dict[int, tuple[int, ...]] = {}
        for g in self.cells:
            out[g // 100] = (*out.get(g // 100, ()), g)
        return out


def parse_drop(text: str) -> Drop | str:
    """The drop (or :data:`PASS`) written as ``text``: ``L4 1:d4,e4 3:d5 2:d6`` or ``pass``.

    Raises
    ------
    ValueError
        Saying what is wrong: an unknown piece, a cell off the board, a board named twice,
        or cells that are not the piece split into sub-pieces of one or two edge-adjacent
        cells on different boards.
    """
    text = text.strip()
    words = text.split()
    if words == [PASS]:
        return PASS
    if not words or words[0] not in PIECES:
        raise ValueError(f"{text!r}: a drop starts with its piece ({', '.join(PIECES)}), "
                         "or is 'pass'")  # fmt: skip
    piece, cells, seen = words[0], [], set()
    for word in words[1:]:
        m = re.fullmatch(r"([123]):(\S+)", word)
        if m is None:
            raise ValueError(f"{word!r} is not board:cells (1:d4,e4; boards 1, 2, 3)")
        board = int(m[1]) - 1
        if board in seen:
            raise ValueError(f"board {board + 1} is named twice in {text!r}")
        seen.add(board)
        cells += [parse_cell(c, board) for c in m[2].split(",")]
    key = tuple(sorted(cells))
    if not is_drop(piece, key):
        raise ValueError(f"{text!r} is not a drop of {piece}: its 4 cells must make the piece, "
                         "split into sub-pieces of 1 or 2 edge-adjacent cells (2+2 or 2+1+1), "
                         "each on its own board")  # fmt: skip
    return Drop(piece, key)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Round:
    """One round as played: both picks, then both drops (:data:`PASS` for a pass)."""

    picks: tuple[str, str]
    drops: tuple[Drop | str, Drop | str]

    def __str__(self) -> str:
        return " | ".join(
            f"{pick} {PASS}" if d == PASS else str(d)
            for pick, d in zip(self.picks, self.drops, strict=True)
        )


def parse_part(text: str) -> tuple[str, Drop | str]:
    """One player's part of a round, ``T4 1:a1,a2 3:b1,b2`` or ``L4 pass``: its pick and its
    drop (or :data:`PASS`).

    Raises
    ------
    ValueError
        If it is neither.
    """
    words = text.split()
    if len(words) == 2 and words[1] == PASS:
        if words[0] not in PIECES:
            raise ValueError(f"{words[0]!r} is not a piece ({', '.join(PIECES)})")
        return words[0], PASS
    d = parse_drop(text)
    if d == PASS:
        raise ValueError("a pass names the piece picked first: 'L4 pass'")
    assert isinstance(d, Drop)
    return d.piece, d


@dataclass(frozen=True)
class Result:
    """The score (section 6): ``paths[p][b]`` each player's largest region per board,
    ``board_winners[b]`` 0, 1 or None (tied), ``won`` boards won per player, ``winner``
    0, 1 or None (a draw), ``by_tiebreak`` when the tiebreak holder won equal boards."""

    paths: tuple[tuple[int, int, int], tuple[int, int, int]]
    board_winners: tuple[int | None, int | None, int | None]
    won: tuple[int, int]
    winner: int | None
    by_tiebreak: bool

    @property
    def margin(self) -> int:
        """Red's boards won minus blue's."""
        return self.won[0] - self.won[1]


def result_of(paths: npt.NDArray[np.int64], tiebreak: str = "none") -> Result:
    """The :class:`Result` of largest regions ``paths`` (``[player][board]``)."""
    winners = tuple(None if paths[0, b] == paths[1, b] else int(paths[1, b] > paths[0, b])
                    for b in range(BOARDS))  # fmt: skip
    won = (winners.count(0), winners.count(1))
    winner: int | None = None if won[0] == won[1] else int(won[1] > won[0])
    tied = winner is None and tiebreak != "none"
    if tied:
        winner = "RB".index(tiebreak)
    p = tuple(tuple(int(x) for x in paths[i]) for i in range(2))
    return Result(p, winners, won, winner, tied)  # type: ignore[arg-type]


@dataclass
class _Step:
    """What one step changed, for :meth:`Walkable.pop`."""

    kind: str  # "select" or "drop"
    picks: tuple[str, str]
    rotation: tuple[str, ...] = ()
    drops: tuple[Drop | str, Drop | str] = (PASS, PASS)
    passes: tuple[int, int] = (0, 0)


@dataclass(eq=False)  # states compare by state_key(); == on the cell arrays is ambiguous
class Walkable:
    """A Walkable Cities state (see the module notes).

    Attributes
    ----------
    cells
        The three boards as one int8 array of 300 cells.
    rotation
        The pieces still in the rotation, in :data:`PIECES` order (empty: it refills at the
        next selection).
    passes
        Each player's consecutive passes.
    round
        Rounds completed.
    picks
        Both picks once this round's selection is made, else None.
    options
        The rule options.
    start
        The boards the game started from (for records).
    """

    cells: npt.NDArray[np.int8]
    options: Options = field(default_factory=Options)
    rotation: tuple[str, ...] = PIECES
    passes: tuple[int, int] = (0, 0)
    round: int = 0
    picks: tuple[str, str] | None = None
    start: npt.NDArray[np.int8] | None = None
    steps: list[_Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cells = np.ascontiguousarray(self.cells, dtype=np.int8)
        if self.cells.shape != (CELLS,):
            raise ValueError(f"the boards are {CELLS} cells, got shape {self.cells.shape}")
        if self.start is None:
            self.start = self.cells.copy()

    @classmethod
    def new(cls, seed: int = 0, dead: int = 10, options: Options | None = None) -> Walkable:
        """A new game on three boards with ``dead`` dead cells each at seeded places."""
        return cls(seeded_boards(seed, dead), options or Options())

    @classmethod
    def on(cls, boards: npt.NDArray[np.int8], options: Options | None = None) -> Walkable:
        """A new game on the given boards (unclaimed and dead cells only).

        Raises
        ------
        ValueError
            If a cell is claimed.
        """
        cells = np.asarray(boards, dtype=np.int8)
        if ((cells != UNCLAIMED) & (cells != DEAD)).any():
            raise ValueError("a new game's boards hold unclaimed and dead cells only")
        return cls(cells.copy(), options or Options())

    def copy(self) -> Walkable:
        """An independent copy (the step stack included)."""
        return Walkable(self.cells.copy(), self.options, self.rotation, self.passes, self.round,
                        self.picks, self.start, list(self.steps))  # fmt: skip

    # -- where the game stands -------------------------------------------------------------
    def is_over(self) -> bool:
        """True once some player has passed ``pass_limit`` rounds in a row (section 5)."""
        return max(self.passes) >= self.options.pass_limit

    @property
    def phase(self) -> str:
        """``"select"``, ``"drop"`` or ``"over"``."""
        return "over" if self.is_over() else ("select" if self.picks is None else "drop")

    def available(self) -> tuple[str, ...]:
        """The pieces this round's selection is made from (the rotation, refilled if empty)."""
        return self.rotation or PIECES

    def pick_choices(self) -> tuple[str, ...]:
        """What either player may pick now: the rotation, or its one piece (both get it)."""
        return self.available() if self.phase == "select" else ()

    def legal_drops(self, player: int) -> list[Drop]:
        """Every legal drop of ``player``'s picked piece (section 4); empty outside a drop."""
        if self.phase != "drop":
            return []
        assert self.picks is not None
        piece = self.picks[player]
        return [Drop(piece, tuple(int(x) for x in row))  # type: ignore[arg-type]
                for row in legal_drops(self.cells, piece)]  # fmt: skip

    def result(self) -> Result:
        """The score now (final once the game is over)."""
        return result_of(largest_regions(self.cells), self.options.tiebreak)

    def returns(self) -> tuple[float, float]:
        """1 for the winner, -1 for the loser, 0 each for a draw."""
        w = self.result().winner
        return (0.0, 0.0) if w is None else ((1.0, -1.0) if w == 0 else (-1.0, 1.0))

    def state_key(self) -> Hashable:
        """Equal for states with the same future (the round number does not matter)."""
        return (self.cells.tobytes(), self.rotation, self.passes, self.picks, self.options)

    # -- moves -------------------------------------------------------------------------------
    def select(self, red: str, blue: str) -> None:
        """Both picks (section 3.1): each a piece of the rotation (refilled if empty); with one
        piece left both must be that piece. Every picked piece leaves the rotation.

        Raises
        ------
        IllegalMoveError
            If it is not the selection or a pick is not in the rotation.
        """
        if self.phase != "select":
            raise IllegalMoveError(f"not the selection: the game is {self._where()}")
        avail = self.available()
        for who, pick in zip(PLAYER_NAMES, (red, blue), strict=True):
            if pick not in avail:
                raise IllegalMoveError(f"{who} picks {pick}, not in the rotation "
                                       f"({' '.join(avail)})")  # fmt: skip
        self.steps.append(_Step("select", (red, blue), rotation=self.rotation))
        self.rotation = tuple(p for p in avail if p not in (red, blue))
        self.picks = (red, blue)

    def drop(self, red: Drop | str, blue: Drop | str) -> None:
        """Both drops or passes, resolved together (sections 3.2-3.4).

        Raises
        ------
        IllegalMoveError
            If it is not the drop step, a drop is not of its player's pick, or a cell is not
            unclaimed on its board.
        """
        if self.phase != "drop":
            raise IllegalMoveError(f"not a drop: the game is {self._where()}")
        assert self.picks is not None
        for who, pick, d in zip(PLAYER_NAMES, self.picks, (red, blue), strict=True):
            if d == PASS:
                continue
            if not isinstance(d, Drop) or d.piece != pick:
                raise IllegalMoveError(f"{who} picked {pick} but drops {d}")
            if not is_drop(pick, d.cells):
                raise IllegalMoveError(f"{who}'s {d} is not a drop of {pick}")
            taken = [g for g in d.cells if self.cells[g] != UNCLAIMED]
            if taken:
                state = {DEAD: "dead", RED: "red's", BLUE: "blue's"}
                where = ", ".join(f"{cell_name(g)} on board {g // 100 + 1} is "
                                  f"{state[int(self.cells[g])]}" for g in taken)  # fmt: skip
                raise IllegalMoveError(f"{who}'s {d}: {where}, not unclaimed")
        self.push_legal((red, blue))

    def push_legal(self, drops: tuple[Drop | str, Drop | str]) -> None:
        """:meth:`drop` without the checks (for drops just listed by :meth:`legal_drops`)."""
        assert self.picks is not None
        self.steps.append(_Step("drop", self.picks, drops=drops, passes=self.passes))
        red_cells, blue_cells = (() if d == PASS else d.cells for d in drops)  # type: ignore[union-attr]
        resolve_drops(self.cells, red_cells, blue_cells)
        red, blue = (n + 1 if d == PASS else 0 for n, d in zip(self.passes, drops, strict=True))
        self.passes = (red, blue)
        self.picks = None
        self.round += 1

    def play_round(self, text: str | Round) -> None:
        """Both picks and both drops, as a :class:`Round` or its text
        (``T4 1:d4,e4 3:d5,e5 | L4 pass``); nothing changes if any of it is illegal.

        Raises
        ------
        ValueError
            If the text is not a round (IllegalMoveError, a ValueError, if a move is illegal).
        """
        rnd = parse_round(text) if isinstance(text, str) else text
        self.select(*rnd.picks)
        try:
            self.drop(*rnd.drops)
        except IllegalMoveError:
            self.pop()
            raise

    def pop(self) -> _Step:
        """Unmake the last step (a selection or a drop) and return it.

        Raises
        ------
        IndexError
            If no step was made.
        """
        if not self.steps:
            raise IndexError("no step to undo")
        step = self.steps.pop()
        if step.kind == "select":
            self.rotation, self.picks = step.rotation, None
            return step
        for d in step.drops:
            if d != PASS:
                self.cells[list(d.cells)] = UNCLAIMED  # type: ignore[union-attr]
        self.passes, self.picks = step.passes, step.picks
        self.round -= 1
        return step

    def pop_round(self) -> Round:
        """Unmake the last whole round (a drop step and its selection) and return it."""
        if not self.steps or self.steps[-1].kind != "drop":
            raise IndexError("no whole round to undo")
        step = self.pop()
        self.pop()
        return Round(step.picks, step.drops)

    def rounds(self) -> list[Round]:
        """The whole rounds made, in order (a selection not yet dropped is left out)."""
        return [Round(s.picks, s.drops) for s in self.steps if s.kind == "drop"]

    def _where(self) -> str:
        return "over" if self.is_over() else f"at the {self.phase} of round {self.round + 1}"

    def __str__(self) -> str:
        text = "".join(".#RB"[v] for v in self.cells)
        return "\n".join("  ".join(text[b * 100 + r * SIDE : b * 100 + r * SIDE + SIDE]
                                    for b in range(BOARDS)) for r in range(SIDE))  # fmt: skip


def parse_round(text: str) -> Round:
    """The round written as ``RED | BLUE`` (each as :func:`parse_part` reads it).

    Raises
    ------
    ValueError
        If it is not.
    """
    parts = text.split("|")
    if len(parts) != 2:
        raise ValueError(f"{text!r}: a round is red's part | blue's part "
                         "('T4 1:d4,e4 3:d5,e5 | L4 pass')")  # fmt: skip
    (rp, rd), (bp, bd) = (parse_part(p) for p in parts)
    return Round((rp, bp), (rd, bd))


def boards_from_rows(rows: Sequence[Sequence[str]]) -> npt.NDArray[np.int8]:
    """The cell array of three boards written as rows of ``. # R B`` (``rows[b][r]``)."""
    cells = np.zeros(CELLS, dtype=np.int8)
    for b, board in enumerate(rows):
        for r, line in enumerate(board):
            for c, ch in enumerate(line):
                cells[b * 100 + r * SIDE + c] = ".#RB".index(ch)
    return cells


@cache
def drop_texts(name: str) -> tuple[str, ...]:
    """The text of every row of :func:`drop_table` of ``name``, in its order (made once a
    piece: a web board's step lists thousands of drops, and writing each anew took most of
    a Walkable Cities step)."""
    return tuple(str(Drop(name, (int(a), int(b), int(c), int(d))))
                 for a, b, c, d in drop_table(name).tolist())  # fmt: skip


@cache
def drop_cell_names(name: str) -> tuple[tuple[str, ...], ...]:
    """Each row of :func:`drop_table` of ``name`` as its cells' names, board first
    (``"2:d4"``), in the table's order."""
    return tuple(tuple(board_cell_name(g) for g in row)
                 for row in drop_table(name).tolist())  # fmt: skip


def board_cell_name(g: int) -> str:
    """Global cell ``g`` named with its board first (``"2:d4"``), as the web board names
    the cells a drop claims."""
    return f"{g // 100 + 1}:{cell_name(g)}"


def legal_drop_texts(cells: npt.NDArray[np.int8], name: str) -> list[str]:
    """The text of every legal drop of ``name`` (:func:`legal_drops`, in its order)."""
    texts = drop_texts(name)
    return [texts[i] for i in legal_drop_rows(cells, name).tolist()]

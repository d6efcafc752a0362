"""What a tiling problem is: a board, piece types and their supply, colour rules.

:class:`TilingProblem` is what every tiling engine takes (the search in
:mod:`polytile.solvers.tiling`, the frontier engine in :mod:`polytile.solvers.frontier`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from polytile.board import Board
from polytile.errors import BoardError, SymmetryError
from polytile.geometry import Polyomino

__all__ = ["SYMMETRIES", "TOUCH_RULES", "Coloring", "PieceGroup", "TilingProblem"]

#: The groups a count up to symmetry may be taken under (:attr:`TilingProblem.symmetries`).
SYMMETRIES = ("board", "rotations", "none", "mirror-pieces")


#: Corner rules of the Blokus teasers, as the kernel numbers them.
TOUCH_RULES = {"none": 0, "local": 1, "connected": 2}


@dataclass(frozen=True)
class Coloring:
    """Colours of piece types and the rules between pieces of one colour.

    Parameters
    ----------
    colors
        Colour index (0 .. n_colors-1) of each piece type.
    n_colors
        Number of colours.
    touch
        ``"none"``, ``"local"`` (every piece corner-touches one of its colour) or
        ``"connected"`` (each colour's pieces form one corner-connected group).
    interchangeable
        Every colour has the same pieces, so colour permutations are symmetries: the search
        finds each solution once with colours numbered by first appearance, and multiplies.

    Notes
    -----
    Same-colour pieces never share an edge (the rule common to every teaser).
    """

    colors: tuple[int, ...]
    n_colors: int
    touch: str = "local"
    interchangeable: bool = True

    def __post_init__(self) -> None:
        if self.touch not in TOUCH_RULES:
            raise ValueError(f"touch must be one of {', '.join(TOUCH_RULES)}, got {self.touch!r}")
        if any(not 0 <= k < self.n_colors for k in self.colors):
            raise ValueError("colour indices must lie in 0 .. n_colors-1")


@dataclass(frozen=True)
class PieceGroup:
    """A choice among piece types: the copies used of ``types`` together number at least
    ``low`` and at most ``high`` ("any 10 of the 12 pentominoes")."""

    types: tuple[int, ...]
    low: int
    high: int


@dataclass(frozen=True)
class TilingProblem:
    """A tiling problem: cover every open cell of ``board`` with pieces from a supply.

    Parameters
    ----------
    board
        The board (blocked cells stay empty).
    types
        Distinct piece shapes.
    counts
        Copies of each type there are (default one each).
    one_sided
        Pieces may be rotated but not turned over.
    coloring
        Colours of the types and the same-colour rules (the Blokus teasers), or None.
    low
        The fewest copies of each type a tiling uses (default: all of ``counts``, an exact
        supply: every piece placed). Below ``counts``, copies may be left over.
    groups
        Choices among types (:class:`PieceGroup`), also checked at every tiling.
    symmetries
        What the count up to symmetry identifies tilings by (:data:`SYMMETRIES`): "board",
        every symmetry of the board (its rotations alone for one-sided pieces); "rotations",
        its rotations; "none", nothing (the count up to symmetry is the raw count);
        "mirror-pieces", every symmetry of the board, a reflection also turning each piece
        into its mirror twin (:meth:`mirror_twins`): the convention of the literature for a
        one-sided set that holds both mirror images of each piece, such as the 18 one-sided
        pentominoes. For pieces that may be turned over it is "board".

    Raises
    ------
    BoardError
        If no choice of pieces from the supply has the board's area (for an exact supply:
        the pieces' total area differs from the number of open cells).
    SymmetryError
        For "mirror-pieces" when a one-sided piece's mirror twin is not among the types or
        has another supply, or with colour rules on one-sided pieces.

    Notes
    -----
    Exact cover with multiplicities, as Knuth's Algorithm M generalises exact cover: the
    engines keep each type's copies as a counter (at most ``counts``) and check the lower
    bounds and the groups at each complete cover.
    """

    board: Board
    types: tuple[Polyomino, ...]
    counts: tuple[int, ...] = ()
    one_sided: bool = False
    coloring: Coloring | None = None
    low: tuple[int, ...] = ()
    groups: tuple[PieceGroup, ...] = ()
    symmetries: str = "board"

    def __post_init__(self) -> None:
        if self.symmetries not in SYMMETRIES:
            raise ValueError(f"symmetries must be one of {', '.join(SYMMETRIES)}, got "
                             f"{self.symmetries!r}")  # fmt: skip
        types = tuple(self.types)
        counts = tuple(self.counts) or (1,) * len(types)
        if len(counts) != len(types):
            raise ValueError("counts must give one number per piece type")
        if any(c < 1 for c in counts):
            raise ValueError("every piece type needs at least one copy")
        low = tuple(self.low) if self.low else counts
        if len(low) != len(types) or any(not 0 <= lo <= c
                                         for lo, c in zip(low, counts, strict=True)):  # fmt: skip
            raise ValueError("low must give, per type, a number from 0 to its count")
        for g in self.groups:
            if not g.types or any(not 0 <= t < len(types) for t in g.types) or not (
                    0 <= g.low <= g.high):  # fmt: skip
                raise ValueError("a group names piece types and 0 <= low <= high")
        grouped = [t for g in self.groups for t in g.types]
        if len(grouped) != len(set(grouped)):
            raise ValueError("a piece type may be in one group only")
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "groups", tuple(self.groups))
        colors = self.coloring.colors if self.coloring else (0,) * len(types)
        if len(colors) != len(types):
            raise ValueError("the coloring must give one colour per piece type")
        keys = {
            (k, t.canonical_one_sided() if self.one_sided else t.canonical())
            for k, t in zip(colors, types, strict=True)
        }
        if len(keys) != len(types):
            raise ValueError("piece types must be distinct shapes; give copies in counts")
        object.__setattr__(self, "types", types)
        object.__setattr__(self, "counts", counts)
        area = sum(t.size * c for t, c in zip(types, counts, strict=True))
        least = sum(t.size * c for t, c in zip(types, low, strict=True))
        if self.exact and area != self.board.n_open:
            raise BoardError(
                f"the pieces cover {area} cells but the board has {self.board.n_open} open "
                f"cells: no tiling can exist"
            )
        if not least <= self.board.n_open <= area:
            raise BoardError(
                f"the supply covers {least} to {area} cells but the board has "
                f"{self.board.n_open} open cells: no tiling can exist"
            )
        if self.symmetries == "mirror-pieces":
            self.mirror_twins()  # refuse a set without its twins now, not in the middle of a count

    @property
    def exact(self) -> bool:
        """Every copy is placed in every tiling (no ranges, no choices)."""
        return self.low == self.counts and not self.groups

    def supply_arrays(self, k: int = 0) -> tuple[npt.NDArray[np.int64], ...]:
        """The supply as the kernels check it at a complete cover: per type the copies that
        may be left over (``counts - low``) and its count, per type its group (-1: none),
        per group its least and most copies used. With ``k``, the supply of the Fix(k)
        count (:meth:`fixed_supply`)."""
        _, counts, least, groups = self.fixed_supply(k)
        spare = np.array([c - lo for c, lo in zip(counts, least, strict=True)], dtype=np.int64)
        cap = np.array(counts, dtype=np.int64)
        group_of = np.full(len(self.types), -1, dtype=np.int64)
        for g, group in enumerate(groups):
            group_of[list(group.types)] = g
        low = np.array([g.low for g in groups], dtype=np.int64)
        high = np.array([g.high for g in groups], dtype=np.int64)
        return spare, cap, group_of, low, high

    @property
    def n_pieces(self) -> int:
        """Total number of piece copies."""
        return sum(self.counts)

    @property
    def color_factor(self) -> int:
        """Solutions per solution found: n_colors! with interchangeable colours, else 1."""
        c = self.coloring
        return math.factorial(c.n_colors) if c is not None and c.interchangeable else 1

    def group(self) -> tuple[int, ...]:
        """The symmetries a count up to symmetry identifies tilings by
        (:attr:`symmetries`): a subgroup of the board's (rotations only for one-sided
        pieces, which a mirror would turn over, unless "mirror-pieces" turns each into its
        twin: :meth:`piece_map`)."""
        if self.symmetries == "none":
            return (0,)
        sym = self.board.symmetries()
        turned = self.symmetries == "mirror-pieces"  # reflections turn pieces into twins
        rotations = self.symmetries == "rotations" or (self.one_sided and not turned)
        return tuple(k for k in sym if k < self.board.rotations) if rotations else sym

    def mirror_twins(self) -> tuple[int, ...]:
        """``twins[t]``: the type whose shape is type ``t``'s mirror image, as one-sided
        pieces (``t`` itself for a piece that is its own mirror image, such as T4, and for
        every type of pieces that may be turned over).

        Raises
        ------
        SymmetryError
            If a one-sided piece's mirror image is not among the types, or has another
            supply (copies, fewest copies, choice); or with colour rules on one-sided
            pieces (their count up to symmetry compares colours, not pieces).

        Examples
        --------
        >>> from polytile import Board, Polyomino, piece
        >>> j4 = Polyomino.from_text(["..#", "###"], "J4")  # L4 is "#..", "###"
        >>> TilingProblem(Board(4, 4), (piece("L4"), j4), (2, 2), one_sided=True).mirror_twins()
        (1, 0)
        """
        return _mirror_twins(self)

    def _find_twins(self) -> tuple[int, ...]:
        """:meth:`mirror_twins`, worked out (cached by :func:`_mirror_twins`)."""
        types = self.types
        if not self.one_sided:
            return tuple(range(len(types)))
        if self.coloring is not None:
            raise SymmetryError('"mirror-pieces" does not take colour rules on one-sided pieces')
        index = {t.canonical_one_sided(): i for i, t in enumerate(types)}
        group_of = {t: g for g, grp in enumerate(self.groups) for t in grp.types}

        def name(t: int) -> str:
            return types[t].name or f"piece {t}"

        def supply(t: int) -> str:
            low, high = self.low[t], self.counts[t]
            copies = f"{low}-{high}" if low < high else str(high)
            copies += " copy" if copies == "1" else " copies"
            return copies + (f" in choice {group_of[t] + 1}" if t in group_of else "")

        twins: list[int] = []
        lonely: list[str] = []
        unequal: list[str] = []
        for i, t in enumerate(types):
            j = index.get(t.mirror_image().canonical_one_sided())
            if j is None:
                lonely.append(name(i))
                j = i
            elif j > i and supply(i) != supply(j):
                unequal.append(f"{name(i)} ({supply(i)}) and its twin {name(j)} ({supply(j)})")
            twins.append(j)
        if lonely or unequal:
            said = [f"{', '.join(lonely)} {'has' if len(lonely) == 1 else 'have'} no mirror "
                    "twin in the set"] if lonely else []  # fmt: skip
            said += [f"{pair} have different supplies" for pair in unequal]
            raise SymmetryError(
                '"mirror-pieces" identifies a tiling with its mirror image in which every '
                "piece is turned into its mirror twin, for a one-sided set that holds both "
                "mirror images of each piece with the same supply (the 7 one-sided "
                f"tetrominoes, the 18 one-sided pentominoes); here {'; '.join(said)}"
            )
        return tuple(twins)

    def piece_map(self, k: int) -> tuple[int, ...] | None:
        """The type each type becomes under symmetry ``k`` of :meth:`group`: its mirror twin
        for a reflection with "mirror-pieces" on one-sided pieces; None where every piece
        stays itself."""
        if k < self.board.rotations or self.symmetries != "mirror-pieces" or not self.one_sided:
            return None
        return self.mirror_twins()

    def fixed_supply(self, k: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...],
                                            tuple[PieceGroup, ...]]:  # fmt: skip
        """The supply a count of the tilings that ``k`` maps onto themselves keeps (Fix(k)
        of Burnside's lemma): per type the type whose counter counts its copies, and the
        copies, fewest copies and choices of those counters.

        Where ``k`` turns pieces into their twins (:meth:`piece_map`), a tiling it fixes
        has as many copies of a piece as of its twin, whose supplies are equal: one counter
        (the lower type's) counts the copies of both, and the other type has none.
        Otherwise the problem's own supply.
        """
        twins = self.piece_map(k)
        if twins is None:
            return tuple(range(len(self.types))), self.counts, self.low, self.groups
        kept = tuple(min(t, u) for t, u in enumerate(twins))
        counts = [0] * len(kept)
        low = [0] * len(kept)
        for t, into in enumerate(kept):
            counts[into] += self.counts[t]
            low[into] += self.low[t]
        groups = tuple(PieceGroup(tuple(sorted({kept[t] for t in g.types})), g.low, g.high)
                       for g in self.groups)  # fmt: skip
        return kept, tuple(counts), tuple(low), groups


@lru_cache(maxsize=64)
def _mirror_twins(problem: TilingProblem) -> tuple[int, ...]:
    """A problem's mirror twins, worked out once: counts ask for them at every Fix(k)."""
    return problem._find_twins()

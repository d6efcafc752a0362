"""How a tiling problem becomes the frontier engine's arrays (:class:`FrontierLayout`), for
the whole board (:func:`frontier_layout`) or folded onto half of it for a symmetry's fixed
tilings (:func:`fixed_layout`).

Positions are the cells in scan order; an option is a set of positions with the piece
type it uses and how many copies (one placement, or the orbit of a symmetric tiling); its
*anchor* is its lowest position, and its mask is relative to the anchor. The window (the
``bits`` of a key's mask) is the widest reach of an option past its anchor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from polytile.errors import SolverError
from polytile.solvers.tiling import TilingProblem, _orbit_options, _scan_layout, problem_placements

__all__ = ["FrontierLayout", "FrontierUnsupported", "fixed_layout", "frontier_layout"]


class FrontierUnsupported(SolverError):
    """The frontier engine cannot take this problem (colour rules, or a key wider than 63
    bits); the search can."""


@dataclass(frozen=True)
class FrontierLayout:
    """A problem as the frontier kernels see it.

    ``opt_ptr[c] .. opt_ptr[c + 1]`` are the options whose lowest position is ``c``,
    grouped by type: ``opt_mask`` relative to ``c``, ``opt_type`` the piece type,
    ``opt_use`` the copies it uses. ``blocked[c]`` for ``c`` in ``0 .. n + bits``: the
    position is not to be covered (a hole, or past the end). A key is
    ``code << bits | mask``, where the code counts the copies used of each type in mixed
    radix (``radix[t]``, at most ``cap[t]``); ``total`` is the code of every copy used.
    """

    n: int
    bits: int
    blocked: npt.NDArray[np.uint8]
    opt_ptr: npt.NDArray[np.int64]
    opt_mask: npt.NDArray[np.uint64]
    opt_type: npt.NDArray[np.int64]
    opt_use: npt.NDArray[np.uint64]
    radix: npt.NDArray[np.uint64]
    cap: npt.NDArray[np.uint64]
    total: int
    #: The fewest copies of each type a tiling uses, and the choices among types (types,
    #: least, most): a supply that is not exact (:attr:`TilingProblem.low`, ``groups``).
    low: tuple[int, ...] = ()
    groups: tuple[tuple[tuple[int, ...], int, int], ...] = ()

    @property
    def exact(self) -> bool:
        """Every copy placed in every tiling: one key ends the count (:meth:`end_key`)."""
        return self.low == tuple(int(c) for c in self.cap) and not self.groups

    def accepted(self, keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
        """Which keys after the last position are tilings: the window past the end, and
        copies used within the supply's ranges and choices."""
        full = np.uint64((1 << self.bits) - 1)
        ok = (keys & full) == full
        codes = keys >> np.uint64(self.bits)
        digits = [(codes // r) % (c + np.uint64(1)) for r, c in zip(self.radix, self.cap,
                                                                     strict=True)]  # fmt: skip
        for d, low in zip(digits, self.low, strict=True):
            ok &= d >= np.uint64(low)
        for types, least, most in self.groups:
            used = sum(digits[t].astype(np.int64) for t in types)
            ok &= (used >= least) & (used <= most)
        return ok

    def start_key(self) -> int:
        """The key before the first position: the blocked ones of its window, no copy used."""
        return sum(1 << k for k in range(self.bits) if self.blocked[k])

    def end_key(self) -> int:
        """The key after the last position: every copy used, the window past the end."""
        return (self.total << self.bits) | ((1 << self.bits) - 1)


def _build(n: int, open_positions: npt.NDArray[np.int64], options: Sequence[npt.NDArray[np.int64]],
           types: npt.NDArray[np.int64], uses: npt.NDArray[np.int64],
           problem: TilingProblem, k: int = 0) -> FrontierLayout:  # fmt: skip
    """The layout of ``options`` (each an array of positions) over ``n`` positions, with
    ``problem``'s supply (that of its Fix(k) count: :meth:`TilingProblem.fixed_supply`)."""
    _, counts, least, groups = problem.fixed_supply(k)
    width = max((len(o) for o in options), default=1)
    pos = np.full((len(options), width), -1, dtype=np.int64)
    for i, o in enumerate(options):
        pos[i, : len(o)] = o
    anchor = np.where(pos >= 0, pos, n).min(axis=1) if len(options) else np.zeros(0, np.int64)
    top = pos.max(axis=1) if len(options) else np.zeros(0, np.int64)
    bits = int((top - anchor).max()) if len(options) else 0
    radix: list[int] = []
    codes = 1
    for count in counts:
        radix.append(codes)
        codes *= count + 1
    code_bits = max((codes - 1).bit_length(), 1)
    if bits + code_bits > 63:
        raise FrontierUnsupported(
            f"its key needs {bits} cells of window and {code_bits} bits of piece counts, "
            "more than the 63 bits the frontier engine keys with"
        )
    rel = np.where(pos >= 0, pos - anchor[:, None], -1)
    masks = np.zeros(len(options), dtype=np.uint64)
    for j in range(width):
        live = rel[:, j] >= 0
        masks[live] |= np.left_shift(np.uint64(1), rel[live, j].astype(np.uint64))
    order = np.lexsort((types, anchor))
    opt_ptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(opt_ptr, anchor + 1, 1)
    blocked = np.ones(n + bits + 1, dtype=np.uint8)
    blocked[open_positions] = 0
    return FrontierLayout(
        n=n,
        bits=bits,
        blocked=blocked,
        opt_ptr=np.cumsum(opt_ptr),
        opt_mask=masks[order],
        opt_type=types[order].astype(np.int64),
        opt_use=uses[order].astype(np.uint64),
        radix=np.array(radix, dtype=np.uint64),
        cap=np.array(counts, dtype=np.uint64),
        total=sum(r * c for r, c in zip(radix, counts, strict=True)),
        low=tuple(least),
        groups=tuple((g.types, g.low, g.high) for g in groups),
    )


def _scan(problem: TilingProblem, along: str) -> npt.NDArray[np.int64]:
    """Each cell's position in the scan along the board's ``along`` side."""
    if problem.coloring is not None:
        raise FrontierUnsupported("the frontier engine does not take colour rules")
    if along not in ("short", "long"):
        raise ValueError(f"along must be 'short' or 'long', got {along!r}")
    board = problem.board
    if board.grid == "cube":
        return board.scan_order(along)
    bit, _, _ = _scan_layout(board)
    if along == "long":  # the transposed order: along the other side
        r, c = np.divmod(np.arange(board.size), board.cols)
        bit = (r * board.cols + c) if board.cols > board.rows else (c * board.rows + r)
    return bit.astype(np.int64)


def frontier_layout(problem: TilingProblem, along: str = "short") -> FrontierLayout:
    """Compile ``problem`` for the frontier kernels.

    ``along`` is the side the scan runs along: "short" (the narrow window that makes the
    engine fast) or "long" (a far wider one, for checking a count by a second scan).

    Raises
    ------
    FrontierUnsupported
        With colour rules, or when the window and the copy counts need more than 63 bits.
    """
    bit = _scan(problem, along)
    board = problem.board
    pl = problem_placements(problem)
    options = [bit[pl.cells_of(i)] for i in range(len(pl))]
    piece = pl.piece.astype(np.int64)
    return _build(board.size, bit[np.flatnonzero(board.open_mask.ravel())], options, piece,
                  np.ones(len(pl), dtype=np.int64), problem)  # fmt: skip


def fixed_layout(problem: TilingProblem, k: int) -> FrontierLayout:
    """The layout counting the tilings that symmetry ``k`` maps onto themselves (Fix(k) of
    Burnside's lemma), folded onto one cell of each of ``k``'s cell orbits.

    Such a tiling is a set of disjoint orbits of placements (an orbit of m placements uses
    m copies), and it is known from the part of it on the orbits' first cells in scan
    order: each option is an orbit cut down to those cells. For a half turn of a rectangle
    they are the first half of the scan, for a mirror along the scan its first half or one
    half of every column: a placement and its image lie close in the scan, and so the
    window stays as narrow as the whole board's.

    Raises
    ------
    FrontierUnsupported
        When the folded options reach too far (quarter turns of a square board: an orbit of
        four placements spans the board), as :func:`frontier_layout` does.
    """
    bit = _scan(problem, "short")
    board = problem.board
    perm = board.cell_permutation(k).astype(np.int64)
    # each cell orbit's first cell in scan order stands for it
    first = np.arange(board.size, dtype=np.int64)
    image = perm.copy()
    for _ in range(board.grid_order):
        better = bit[image] < bit[first]
        first = np.where(better, image, first)
        image = perm[image]
    keep = np.flatnonzero(first == np.arange(board.size))
    keep = keep[np.argsort(bit[keep])]
    position = np.full(board.size, -1, dtype=np.int64)
    position[keep] = np.arange(len(keep))
    pl = problem_placements(problem)
    orbits = _orbit_options(pl, k, problem.piece_map(k))
    options = []
    for orbit in orbits:
        cells = np.concatenate([pl.cells_of(j) for j in orbit])
        options.append(np.unique(position[cells][position[cells] >= 0]))
    # the counter of the type (a piece and its mirror twin may share one)
    kept = problem.fixed_supply(k)[0]
    types = np.array([kept[pl.piece[orbit[0]]] for orbit in orbits], dtype=np.int64)
    uses = np.array([len(orbit) for orbit in orbits], dtype=np.int64)
    open_cells = keep[board.open_mask.ravel()[keep]]
    return _build(len(keep), position[open_cells], options, types, uses, problem, k)

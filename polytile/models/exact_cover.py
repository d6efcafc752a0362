"""Exact cover formulations: named items, options, colours, and tilings built from placements.

An :class:`ExactCoverProblem` is Knuth's exact cover with colours (XCC, TAOCP 7.2.2.1) with
names: items (primary ones first, covered exactly once; secondary ones covered at most once or
shared by options that agree on their colour), options as tuples of item indices, colours
parallel to them, and a label per option saying what it means. :func:`from_sets` builds one
from item names; :func:`tiling_problem` from a board and pieces. The solvers in
:mod:`polytile.solvers.xcc` run it through :meth:`ExactCoverProblem.to_arrays`.

Examples
--------
>>> from polytile.models.exact_cover import from_sets
>>> from polytile.solvers.xcc import solve
>>> p = from_sets("pqr", "xy", ["p q x y:A".split(), "p r x:A y".split(), "p x:B".split(),
...                              "q x:A".split(), "r y:B".split()])
>>> [p.decode(s) for s in solve(p)]
[[3, 1]]

Tiling a 2x3 rectangle with two L-trominoes:

>>> from polytile import Board, piece
>>> from polytile.solvers.xcc import count
>>> t = tiling_problem(Board(2, 3), [piece("V3"), piece("V3")])
>>> count(t).count  # two tilings, times 2 for which copy goes where
4
"""

from __future__ import annotations

import operator
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

import numpy as np

from polytile.board import Board, Placements, placements
from polytile.errors import FormatError, UnknownNameError
from polytile.geometry import Polyomino
from polytile.solvers.xcc import XCCArrays

__all__ = ["ExactCoverProblem", "from_sets", "tiling_problem"]

L = TypeVar("L")

_SOURCE = "<exact cover problem>"


def _index(value: object, where: str) -> int:
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise FormatError(f"expected an integer, got {value!r}", _SOURCE, where) from None


@dataclass(frozen=True)
class ExactCoverProblem(Generic[L]):
    """An exact cover problem with colours, with named items and labelled options.

    Parameters
    ----------
    items
        Item names, distinct; the first ``n_primary`` are primary.
    n_primary
        Number of primary items (covered exactly once); the others are secondary.
    options
        Each option as a tuple of item indices. Every option needs a primary item.
    colors
        Parallel to ``options``: the colour each option gives each of its items, ``0`` for
        none (the item is then used exclusively); only secondary items take colours ``>= 1``.
        Empty means no colours at all.
    labels
        What each option means (for tilings, a placement index); ``None`` marks a
        bookkeeping option that :meth:`decode` drops. Empty means ``0 .. n_options - 1``.
    color_names
        Optional names of colours ``1, 2, ...`` (``color_names[c - 1]``), for display.
    placements
        For tilings: the placements the labels index into.

    Raises
    ------
    FormatError
        If items repeat, ``colors`` or ``labels`` are not parallel to ``options``, or the
        options are not valid for Algorithm C (see :class:`~polytile.solvers.xcc.XCCArrays`).
    """

    items: tuple[Hashable, ...]
    n_primary: int
    options: tuple[tuple[int, ...], ...]
    colors: tuple[tuple[int, ...], ...] = ()
    labels: tuple[L | None, ...] = ()
    color_names: tuple[Hashable, ...] = ()
    placements: Placements | None = field(default=None, compare=False, repr=False)
    _arrays: XCCArrays = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        items = tuple(self.items)
        options = tuple(
            tuple(_index(i, f"options[{k}]") for i in o) for k, o in enumerate(self.options)
        )
        if not self.colors:
            colors = tuple((0,) * len(o) for o in options)
        else:
            colors = tuple(
                tuple(_index(c, f"colors[{k}]") for c in cs) for k, cs in enumerate(self.colors)
            )
        labels: tuple[Any, ...] = tuple(self.labels) if self.labels else tuple(range(len(options)))
        seen: set[Hashable] = set()
        for name in items:
            try:
                if name in seen:
                    raise FormatError(f"item {name!r} is named twice", _SOURCE, "items")
            except TypeError:
                raise FormatError(f"item name {name!r} is not hashable", _SOURCE, "items") from None
            seen.add(name)
        if len(colors) != len(options):
            raise FormatError(
                f"{len(colors)} colour tuples for {len(options)} options", _SOURCE, "colors"
            )
        for k, (o, cs) in enumerate(zip(options, colors, strict=True)):
            if len(o) != len(cs):
                raise FormatError(
                    f"option {k} has {len(o)} items but {len(cs)} colours", _SOURCE, f"colors[{k}]"
                )
        if len(labels) != len(options):
            raise FormatError(f"{len(labels)} labels for {len(options)} options", _SOURCE, "labels")
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "colors", colors)
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "color_names", tuple(self.color_names))
        arrays = XCCArrays.from_lists(options, len(items), self.n_primary, colors)
        object.__setattr__(self, "n_primary", arrays.n_primary)
        object.__setattr__(self, "_arrays", arrays)

    # -- sizes and arrays ----------------------------------------------------------------
    @property
    def n_items(self) -> int:
        """Number of items, primary and secondary."""
        return len(self.items)

    @property
    def n_options(self) -> int:
        """Number of options."""
        return len(self.options)

    def to_arrays(self) -> XCCArrays:
        """The CSR arrays the kernel reads (built and validated once, at construction)."""
        return self._arrays

    # -- reading solutions -------------------------------------------------------------
    def decode(self, solution: Iterable[int]) -> list[L]:
        """The labels of a solution's options (for tilings, placement indices).

        Options labelled ``None`` (bookkeeping, such as "this optional piece is not placed")
        are left out.
        """
        return [lab for k in solution if (lab := self.labels[k]) is not None]

    def format_option(self, k: int) -> str:
        """Option ``k`` in Knuth's notation: item names, ``name:colour`` for coloured ones."""
        parts = []
        for i, c in zip(self.options[k], self.colors[k], strict=True):
            name = str(self.items[i])
            if c:
                colour = self.color_names[c - 1] if c <= len(self.color_names) else c
                name = f"{name}:{colour}"
            parts.append(name)
        return " ".join(parts)

    def is_solution(self, solution: Iterable[int]) -> bool:
        """Whether the options form a solution: a check written without the solver.

        Every primary item is covered exactly once; every secondary item is either used by
        one option without colour, or by options that all give it the same colour.
        """
        covered = [0] * self.n_primary
        shared: dict[int, int] = {}
        for k in solution:
            if not 0 <= k < self.n_options:
                return False
            for i, c in zip(self.options[k], self.colors[k], strict=True):
                if i < self.n_primary:
                    covered[i] += 1
                elif i in shared and (c == 0 or shared[i] != c):
                    return False
                else:
                    shared[i] = c
        return all(n == 1 for n in covered)

    def __repr__(self) -> str:
        entries = sum(len(o) for o in self.options)
        return (
            f"<ExactCoverProblem {self.n_primary} primary + "
            f"{self.n_items - self.n_primary} secondary items, {self.n_options} options, "
            f"{entries} entries>"
        )


# -- generic entry point ------------------------------------------------------------------------
def from_sets(
    primary: Iterable[Hashable],
    secondary: Iterable[Hashable],
    options: Iterable[Iterable[Hashable]],
    *,
    labels: Iterable[L] | None = None,
) -> ExactCoverProblem[L]:
    """An exact cover problem from item names: any XCC problem, not only tilings.

    Parameters
    ----------
    primary
        Names of the items to cover exactly once.
    secondary
        Names of the items to cover at most once, or to share with one colour.
    options
        Each option as item names. A secondary item with a colour is written
        ``(name, colour)`` or ``"name:colour"``, the colour any hashable (``None``: no colour).
        A plain item name always wins over these readings.
    labels
        What each option means; default ``0 .. n - 1``.

    Returns
    -------
    ExactCoverProblem
        Items primary then secondary, in the given order; colours numbered ``1, 2, ...`` in
        order of first appearance, their names in ``color_names``.

    Raises
    ------
    FormatError
        On a repeated item name, an unknown item, an item repeated in an option, a colour on a
        primary item, an option without a primary item, or labels not parallel to options.

    Examples
    --------
    >>> p = from_sets(["a", "b"], ["x"], [["a", ("x", "red")], ["b", "x:red"], ["a", "b"]])
    >>> p.format_option(0), p.n_primary
    ('a x:red', 2)
    """
    prim = list(primary)
    sec = list(secondary)
    items: tuple[Hashable, ...] = (*prim, *sec)
    index: dict[Hashable, int] = {}
    for i, name in enumerate(items):
        try:
            if name in index:
                raise FormatError(f"item {name!r} is named twice", _SOURCE, "items")
        except TypeError:
            raise FormatError(f"item name {name!r} is not hashable", _SOURCE, "items") from None
        index[name] = i
    n_primary = len(prim)
    colour_of: dict[Hashable, int] = {}
    opts: list[tuple[int, ...]] = []
    cols: list[tuple[int, ...]] = []
    for k, option in enumerate(options):
        where = f"options[{k}]"
        row: list[int] = []
        row_colors: list[int] = []
        for entry in option:
            i, colour = _parse_entry(entry, index, where)
            if colour is not None and i < n_primary:
                raise FormatError(
                    f"option {k} gives primary item {items[i]!r} the colour {colour!r}; "
                    "only secondary items have colours",
                    _SOURCE,
                    where,
                )
            if i in row:
                raise FormatError(f"option {k} names item {items[i]!r} twice", _SOURCE, where)
            row.append(i)
            row_colors.append(
                0 if colour is None else colour_of.setdefault(colour, len(colour_of) + 1)
            )
        if not any(i < n_primary for i in row):
            raise FormatError(
                f"option {k} has no primary item; Algorithm C never chooses such an option",
                _SOURCE,
                where,
            )
        opts.append(tuple(row))
        cols.append(tuple(row_colors))
    return ExactCoverProblem(
        items=items,
        n_primary=n_primary,
        options=tuple(opts),
        colors=tuple(cols),
        labels=tuple(labels) if labels is not None else tuple(range(len(opts))),  # type: ignore[arg-type]
        color_names=tuple(colour_of),
    )


def _parse_entry(
    entry: Hashable, index: dict[Hashable, int], where: str
) -> tuple[int, Hashable | None]:
    """Item index and colour (``None``: none) of one option entry."""
    try:
        if entry in index:
            return index[entry], None
    except TypeError:
        raise FormatError(f"option entry {entry!r} is not hashable", _SOURCE, where) from None
    if isinstance(entry, tuple) and len(entry) == 2 and _known(entry[0], index):
        return index[entry[0]], entry[1]
    if isinstance(entry, str) and ":" in entry:
        name, colour = entry.rsplit(":", 1)
        if name in index:
            return index[name], colour
    raise FormatError(f"unknown item {entry!r}", _SOURCE, where)


def _known(name: object, index: dict[Hashable, int]) -> bool:
    try:
        return name in index
    except TypeError:
        return False


# -- tilings ------------------------------------------------------------------------------------
def _piece_indices(values: bool | Iterable[int], n: int, what: str) -> set[int]:
    if isinstance(values, bool):
        return set(range(n)) if values else set()
    result = set()
    for j, p in enumerate(values):
        if isinstance(p, bool) or not isinstance(p, int | np.integer) or not 0 <= p < n:
            raise FormatError(
                f"{what} must hold piece indices 0..{n - 1}, got {p!r}",
                "tiling_problem",
                f"{what}[{j}]",
            )
        result.add(int(p))
    return result


def tiling_problem(
    board: Board,
    pieces: Sequence[Polyomino],
    *,
    one_sided: bool = False,
    optional_pieces: Iterable[int] = (),
    reusable: bool | Collection[int] = False,
    cover: Literal["exact", "pack"] = "exact",
    colors: Sequence[Hashable | None] | None = None,
    no_edge_same_color: bool = False,
) -> ExactCoverProblem[int]:
    """The exact cover problem of placing pieces on a board.

    Items: each open cell (primary for ``cover="exact"``: every cell covered; secondary for
    ``"pack"``: cells may stay empty), then one item per piece copy (primary: place it once).
    Options: one per placement (:func:`polytile.board.placements`), labelled with its
    placement index into the problem's ``placements``.

    Parameters
    ----------
    board
        The board; blocked cells are never covered.
    pieces
        The pieces; each entry is one copy (repeated shapes are distinct copies, so solutions
        are counted with copies told apart).
    one_sided
        Pieces may not be turned over.
    optional_pieces
        Indices of pieces that may be left out. With ``"exact"`` their item is secondary; with
        ``"pack"`` it stays primary with an extra option "not placed" (labelled ``None``),
        since with secondary cells a placement without primary items would never be chosen.
    reusable
        ``True`` (all) or the indices of pieces that may be used any number of times: they
        get no piece item, and their placements with the same cells (and, with
        ``no_edge_same_color``, the same colour) are listed once. Only with ``cover="exact"``.
    cover
        ``"exact"`` or ``"pack"``.
    colors
        Each piece's colour (any hashable) or ``None``; used by ``no_edge_same_color``.
    no_edge_same_color
        Pieces of the same colour never share an edge (as Blokus pieces of one colour).

    Returns
    -------
    ExactCoverProblem
        With ``placements`` set; ``decode`` gives placement indices.

    Raises
    ------
    UnknownNameError
        If ``cover`` is not ``"exact"`` or ``"pack"``.
    FormatError
        On piece indices out of range, ``colors`` of the wrong length, ``no_edge_same_color``
        without ``colors``, or reusable pieces with ``cover="pack"``.

    Notes
    -----
    Same-colour rule: a secondary item ``("edge", a, b, k)`` for each pair of edge-adjacent
    open cells and each colour ``k``, used (uncoloured) by every colour-``k`` placement
    covering exactly one of ``a``, ``b``. Two colour-``k`` pieces sharing the edge ``ab`` both
    use it, so they conflict. Two colour-``k`` pieces that do not overlap can only both use it
    if one covers ``a`` and the other ``b``, i.e. if they share that edge; pieces of other
    colours use other items; a piece covering both cells does not use it. Cost: one entry per
    unit of perimeter inside the board per placement.
    """
    pieces = tuple(pieces)
    n_pieces = len(pieces)
    if cover not in ("exact", "pack"):
        raise UnknownNameError("cover mode", str(cover), ("exact", "pack"))
    optional = _piece_indices(optional_pieces, n_pieces, "optional_pieces")
    reuse = _piece_indices(reusable, n_pieces, "reusable")
    if reuse and cover == "pack":
        raise FormatError(
            "reusable pieces need cover='exact': with 'pack' nothing makes them be placed",
            "tiling_problem",
            "reusable",
        )
    if colors is not None and len(colors) != n_pieces:
        raise FormatError(
            f"colors has {len(colors)} entries for {n_pieces} pieces", "tiling_problem", "colors"
        )
    if no_edge_same_color and colors is None:
        raise FormatError(
            "no_edge_same_color needs colors (one per piece)", "tiling_problem", "colors"
        )
    pl = placements(board, pieces, one_sided)
    cols = board.cols
    open_cells = [
        board.index(r, c) for r in range(board.rows) for c in range(cols) if board.is_open(r, c)
    ]
    cell_names: list[Hashable] = [("cell", *board.cell(a)) for a in open_cells]
    mandatory = [p for p in range(n_pieces) if p not in optional and p not in reuse]
    optional_list = [p for p in range(n_pieces) if p in optional and p not in reuse]
    # Items: primary first, then secondary; edge items are appended as they are met.
    if cover == "exact":
        primary = [*cell_names, *(("piece", p) for p in mandatory)]
        secondary: list[Hashable] = [("piece", p) for p in optional_list]
    else:
        primary = [("piece", p) for p in (*mandatory, *optional_list)]
        secondary = list(cell_names)
    items: list[Hashable] = [*primary, *secondary]
    index = {name: i for i, name in enumerate(items)}
    cell_item = {a: index[name] for a, name in zip(open_cells, cell_names, strict=True)}
    piece_item = {p: index[("piece", p)] for p in (*mandatory, *optional_list)}

    colour_key: list[int | None] = [None] * n_pieces
    colour_names: list[Hashable] = []
    if no_edge_same_color and colors is not None:
        for p, name in enumerate(colors):
            if name is not None:
                if name not in colour_names:
                    colour_names.append(name)
                colour_key[p] = colour_names.index(name)
    neighbours: dict[int, list[int]] = {}
    if colour_names:
        for a in open_cells:
            r, c = board.cell(a)
            neighbours[a] = [
                board.index(rr, cc)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if board.is_open(rr, cc)
            ]

    options: list[tuple[int, ...]] = []
    labels: list[int | None] = []
    seen: set[tuple[int, frozenset[int], int | None]] = set()
    for k in range(len(pl)):
        p = int(pl.piece[k])
        cells = [int(a) for a in pl.cells_of(k)]
        colour = colour_key[p]
        if p in reuse:
            key = (0, frozenset(cells), colour)
            if key in seen:
                continue
            seen.add(key)
        row = [cell_item[a] for a in cells]
        if p in piece_item:
            row.append(piece_item[p])
        if colour is not None:
            inside = set(cells)
            for a in cells:
                for b in neighbours[a]:
                    if b not in inside:
                        name = (
                            "edge",
                            board.cell(min(a, b)),
                            board.cell(max(a, b)),
                            colour_names[colour],
                        )
                        if name not in index:
                            index[name] = len(items)
                            items.append(name)
                        row.append(index[name])
        options.append(tuple(row))
        labels.append(k)
    if cover == "pack":
        for p in optional_list:
            options.append((piece_item[p],))
            labels.append(None)
    return ExactCoverProblem(
        items=tuple(items),
        n_primary=len(primary),
        options=tuple(options),
        labels=tuple(labels),
        placements=pl,
    )

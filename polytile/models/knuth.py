"""Knuth's exact-cover text format: the input of his DLX and XCC programs, read and written.

The format (DLX1, DLX2 and DLX3 of Knuth's programs, as in TAOCP 7.2.2.1)::

    | a comment line starts with a bar
    p q r | x y          <- the items: primary ones, then (after a lone bar) secondary ones
    p q x y:A            <- one option a line: its items; a secondary item may have a colour
    p r x:A y
    q x:A

An item of the first line may carry a multiplicity, ``u:v|name`` (DLX3: covered at least ``u``
and at most ``v`` times). polytile reads every such file: exact multiplicities (``u == v``)
are counted by the colour engine on ``u`` numbered copies of the item, each solution found
``u!`` times over and divided back exactly; a range (``u < v``) is refused, naming the item.
And it writes any tiling puzzle in it (:func:`puzzle_text`): one item a cell, one a piece type
(with its supply as a multiplicity when it is not one copy), one a choice, and one option a
placement, so that Knuth's programs and polytile can check each other on the same input.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

from polytile.board import placements
from polytile.errors import FormatError
from polytile.models.exact_cover import ExactCoverProblem, from_sets
from polytile.solvers.tiling import TilingProblem

__all__ = ["KnuthProblem", "parse_text", "puzzle_text"]

_MULT = re.compile(r"(\d+):(\d+)\|(.+)")
#: The most numberings of copies a problem's multiplicities may give its solutions.
MOST_NUMBERINGS = 10**6


@dataclass(frozen=True)
class KnuthProblem:
    """A problem read from Knuth's format.

    ``primary``/``secondary`` are the item names, ``multiplicity`` each primary item's
    (exact) multiplicity, ``options`` each option's items as written (``"x:A"`` with its
    colour) and ``lines`` the line each option was read from.
    """

    name: str
    primary: tuple[str, ...]
    secondary: tuple[str, ...]
    multiplicity: tuple[int, ...]
    options: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...]

    @property
    def copies_factor(self) -> int:
        """How many times the expanded problem finds each solution: the numberings of the
        copies of the items with a multiplicity."""
        return math.prod(math.factorial(m) for m in self.multiplicity)

    def expanded(self) -> tuple[ExactCoverProblem[int], list[int]]:
        """The problem for the colour engine (items with multiplicity ``m`` as ``m``
        numbered copies; each option once for every choice of copies) and, per option of
        it, the index of the option it comes from."""
        copies = {name: m for name, m in zip(self.primary, self.multiplicity, strict=True)
                  if m != 1}  # fmt: skip
        primary = [f"{name}#{k}" if name in copies else name
                   for name in self.primary for k in range(copies.get(name, 1))]  # fmt: skip
        options: list[list[str]] = []
        origin: list[int] = []
        for j, option in enumerate(self.options):
            choices = [[f"{item}#{k}" for k in range(copies[item])] if item in copies
                       else [item] for item in option]  # fmt: skip
            for pick in itertools.product(*choices):
                options.append(list(pick))
                origin.append(j)
        return from_sets(primary, self.secondary, options), origin

    def check(self, chosen: list[int]) -> list[str]:
        """Every way the options ``chosen`` (indices) fail to be a solution: a primary item
        covered other than its multiplicity, a secondary item covered twice in different
        colours. Independent of the engines: it reads only the item names."""
        reasons = []
        covered: dict[str, int] = {}
        colours: dict[str, set[str]] = {}
        plain: dict[str, int] = {}
        for j in chosen:
            for entry in self.options[j]:
                if entry in self.primary:
                    covered[entry] = covered.get(entry, 0) + 1
                elif entry in self.secondary:
                    plain[entry] = plain.get(entry, 0) + 1
                else:  # a secondary item with its colour
                    name, _, colour = entry.partition(":")
                    colours.setdefault(name, set()).add(colour)
        for name, m in zip(self.primary, self.multiplicity, strict=True):
            if covered.get(name, 0) != m:
                reasons.append(f"item {name} is covered {covered.get(name, 0)} times, not {m}")
        for name in self.secondary:
            shades = colours.get(name, set())
            if plain.get(name, 0) + bool(shades) > 1 or len(shades) > 1:
                reasons.append(f"secondary item {name} is covered twice or in two colours")
        return reasons


def parse_text(text: str, source: str = "<string>") -> KnuthProblem:
    """A problem from Knuth's format (the module's docstring).

    Raises
    ------
    FormatError
        Naming the line at fault: no item line, a second bar, an item given twice, a range
        multiplicity, an option naming an unknown item or none of the primary ones.
    """
    rows = [(n, line.split()) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("|")]  # fmt: skip
    if not rows:
        raise FormatError("no item line: Knuth's format starts with the items", source)
    first, words = rows[0]
    where = f"line {first}"
    if words.count("|") > 1:
        raise FormatError("the item line has two bars (primary | secondary)", source, where)
    bar = words.index("|") if "|" in words else len(words)
    primary: list[str] = []
    multiplicity: list[int] = []
    for word in words[:bar]:
        match = _MULT.fullmatch(word)
        name, m = (match.group(3), (int(match.group(1)), int(match.group(2)))) if match else (
            word, (1, 1))  # fmt: skip
        if m[0] != m[1]:
            raise FormatError(f"item {name} has the multiplicity range {m[0]}:{m[1]}: "
                              "polytile reads exact multiplicities (u:u|name) only", source,
                              where)  # fmt: skip
        if m[0] < 1:
            raise FormatError(f"item {name} has multiplicity 0", source, where)
        primary.append(name)
        multiplicity.append(m[0])
    secondary = words[bar + 1 :]
    if len(set(primary + secondary)) != len(primary) + len(secondary):
        raise FormatError("an item is named twice in the item line", source, where)
    known = set(primary) | set(secondary)
    options: list[tuple[str, ...]] = []
    lines: list[int] = []
    for n, option in rows[1:]:
        names = []
        for entry in option:
            name = entry if entry in known else entry.partition(":")[0]
            if name not in known:
                raise FormatError(f"unknown item {entry!r}", source, f"line {n}")
            if name in primary and entry != name:
                raise FormatError(f"a colour on the primary item {name!r}", source, f"line {n}")
            names.append(name)
        if len(set(names)) != len(names):
            raise FormatError("an item twice in one option", source, f"line {n}")
        if not any(entry in primary for entry in option):
            raise FormatError("an option needs a primary item", source, f"line {n}")
        options.append(tuple(option))
        lines.append(n)
    from pathlib import Path

    problem = KnuthProblem(Path(source).stem, tuple(primary), tuple(secondary),
                           tuple(multiplicity), tuple(options), tuple(lines))
    if problem.copies_factor > MOST_NUMBERINGS:
        worst = max(zip(problem.multiplicity, problem.primary, strict=True))
        raise FormatError(f"item {worst[1]} has multiplicity {worst[0]}: the colour engine counts "
                          f"it as {worst[0]} numbered copies, each solution {worst[0]}! times "
                          "over, too many to count this way", source, where)  # fmt: skip
    return problem


def puzzle_text(name: str, problem: TilingProblem) -> str:
    """A tiling problem in Knuth's format: an item a cell (``r3c7``; ``l1r3c7`` on the cube
    grid, on the triangle and hex grids the cell's coordinates of :mod:`polytile.grids`), a
    piece type (its
    name, with ``u:v|`` when its supply is not exactly one copy), a choice (``choice1``,
    with its range), and an option a placement.

    Raises
    ------
    FormatError
        For colour rules (Knuth's format has colours, but not the teasers' corner rules).
    """
    if problem.coloring is not None:
        raise FormatError("the teasers' corner rules cannot be written as exact cover", name)
    board = problem.board
    cells = board.open_cells()
    cell_item = {cell: (f"l{cell[0]}r{cell[1]}c{cell[2]}" if len(cell) == 3 else
                        f"r{cell[0]}c{cell[1]}") for cell in cells}  # fmt: skip
    types = [t.name or f"piece{k}" for k, t in enumerate(problem.types)]

    def item(label: str, low: int, high: int) -> str:
        return label if low == high == 1 else f"{low}:{high}|{label}"

    group_of = {t: g for g, group in enumerate(problem.groups) for t in group.types}
    heads = [cell_item[c] for c in cells]
    heads += [item(types[t], problem.low[t], problem.counts[t]) for t in range(len(types))]
    heads += [item(f"choice{g + 1}", group.low, group.high)
              for g, group in enumerate(problem.groups)]  # fmt: skip
    pl = placements(board, problem.types, problem.one_sided)
    lines = [f"| {name}: {len(cells)} cells, {len(types)} piece types, {len(pl)} placements"
             " (polytile)", " ".join(heads)]  # fmt: skip
    for i in range(len(pl)):
        t = int(pl.piece[i])
        extra = [types[t]] + ([f"choice{group_of[t] + 1}"] if t in group_of else [])
        lines.append(" ".join([cell_item[c] for c in sorted(pl.coords_of(i))] + extra))
    return "\n".join(lines) + "\n"

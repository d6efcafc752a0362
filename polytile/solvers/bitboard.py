"""The compiled tiling kernel: depth-first search over bitboards, filling the first empty cell.

This is the engine behind counting and listing polyomino tilings. It is an exact-cover
search (Algorithm X) specialised to tilings, where the cell items are bits of a bitboard:

* The item chosen at each node is the first empty cell in a scan order that runs along the
  board's short side, so the frontier stays short and most cells have few candidates.
* Candidates for a cell are the options whose lowest cell (in scan order) is that cell;
  an option fits when its mask misses the cover (one AND per 64-bit word).
* Piece items are counters: option ``p`` uses ``use[p]`` copies of piece type ``ptype[p]``
  (``use`` > 1 lets one option stand for a symmetric orbit of placements).
* Optional dead-region pruning (:mod:`polytile.solvers._bits`).
* Colours, for the Blokus teasers: option ``p`` has colour ``ocolor[p]`` (-1 for none) and
  may not go down when its edge halo ``halo[p]`` meets a cell of its own colour (XCC colours
  in bitboard form: "same-colour pieces never share an edge"). With ``color_order`` the
  colours are interchangeable and a colour may first appear only after every lower colour
  (each solution is found once, with its colours numbered by first appearance). At a
  complete cover a corner rule filters the solution: ``rule`` 1 = every piece corner-touches
  a piece of its colour, 2 = each colour's pieces form one corner-connected group; below
  rules 1 and 2 a piece that can no longer get its corner touch ends the branch. Rule 3 is
  rule 2 where a colour may end with a single piece, which needs no touch: no such pruning
  (:data:`CONNECTED_ALONE`). Finally
  ``orbit_perms`` (inverse cell maps of the board's other symmetries) let the kernel count
  how many solutions are the least of their symmetry orbit: the count up to symmetry.
* Two-coloured options, for searching symmetric solutions: option ``p`` may put down a
  second piece in another colour, ``color2[p]``, on the cells of ``masks[p]`` outside
  ``part[p]`` (its own colour's cells). Only first pieces are checked against their colour's
  halo and corner rules (the connected rule joins first pieces only): the solver uses these
  options only where the whole position stays symmetric (a board symmetry mapping the first
  piece onto the second, and colour onto colour) and no colour receives both first and
  second pieces, so the second pieces pass exactly when the first ones do.

The kernel sees only flat arrays and keeps its whole search state in arrays owned by the
caller, so a search can stop after a node budget or a buffer of solutions and be resumed:
Python checks time limits, progress and Ctrl-C between calls, and counting uses constant
memory however many solutions there are.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from polytile._jit import njit
from polytile.solvers._bits import (
    ONE,
    ZERO,
    ctz,
    dead_region,
    dead_region1,
    remaining_sizes,
    supplied,
)

__all__ = ["CONNECTED_ALONE", "DONE", "PAUSED", "Colors", "SearchState", "run"]

#: The connected rule's ``rule`` when some colour may end with one piece (see the notes).
CONNECTED_ALONE = 3

#: :func:`run` finished the whole subtree below the state's base level.
DONE = 0
#: :func:`run` stopped after its node budget, or when its output buffer filled; call again.
PAUSED = 1


class Colors(NamedTuple):
    """The colour arrays of a problem (all empty for colour-less tilings).

    ``ocolor[p]``: colour of option ``p`` (-1 none); ``halo[p]`` / ``corner[p]``: bitmasks of
    the cells sharing an edge / only a corner with the option; ``orbit_perms[g, b]``: the cell
    whose colour lands on cell ``b`` under symmetry ``g`` (identity excluded). Two-coloured
    options (``pairs``): ``part[p]`` is the first piece's cells, ``color2[p]`` / ``halo2[p]``
    the second piece's colour (-1: no second piece) and edge halo.
    """

    n_colors: int
    ocolor: npt.NDArray[np.int64]
    halo: npt.NDArray[np.uint64]
    corner: npt.NDArray[np.uint64]
    color_order: bool
    rule: int
    orbit_perms: npt.NDArray[np.int64]
    pairs: bool = False
    part: npt.NDArray[np.uint64] = np.zeros((0, 1), dtype=np.uint64)
    color2: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
    halo2: npt.NDArray[np.uint64] = np.zeros((0, 1), dtype=np.uint64)

    @classmethod
    def none(cls, n_options: int, words: int) -> Colors:
        """No colours: a plain tiling."""
        return cls(
            0,
            np.full(n_options, -1, dtype=np.int64),
            np.zeros((0, words), dtype=np.uint64),
            np.zeros((0, words), dtype=np.uint64),
            False,
            0,
            np.zeros((0, 0), dtype=np.int64),
            part=np.zeros((0, words), dtype=np.uint64),
            halo2=np.zeros((0, words), dtype=np.uint64),
        )


@njit(cache=True, inline="always")
def _find(parent: npt.NDArray[np.int64], a: int) -> int:
    # Root of a's set in the union-find forest.
    while parent[a] != a:
        a = parent[a]
    return a


@njit(cache=True)
def _corner_rule(
    level: int,
    choice: npt.NDArray[np.int64],
    ocolor: npt.NDArray[np.int64],
    masks: npt.NDArray[np.uint64],
    corner: npt.NDArray[np.uint64],
    ccover: npt.NDArray[np.uint64],
    rule: int,
    parent: npt.NDArray[np.int64],
) -> bool:
    """Whether the complete cover ``choice[:level]`` obeys the corner rule."""
    n = masks.shape[1]
    if rule == 1:
        # Every piece has a cell of its own colour among its corner neighbours (no cell of its
        # colour can share an edge with it, so that is a corner touch).
        for i in range(level):
            p = choice[i]
            k = ocolor[p]
            if k < 0:
                continue
            touch = False
            for w in range(n):
                if corner[p, w] & ccover[k, w] != ZERO:
                    touch = True
                    break
            if not touch:
                return False
        return True
    # rule 2: union-find over corner touches between pieces of one colour.
    for i in range(level):
        parent[i] = i
    for i in range(level):
        p = choice[i]
        k = ocolor[p]
        if k < 0:
            continue
        for j in range(i + 1, level):
            q = choice[j]
            if ocolor[q] != k:
                continue
            touch = False
            for w in range(n):
                if corner[p, w] & masks[q, w] != ZERO:
                    touch = True
                    break
            if touch:
                a = _find(parent, i)
                b = _find(parent, j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    # One root per colour: the root of a colour's first piece must be every piece's root.
    for i in range(level):
        p = choice[i]
        if ocolor[p] < 0:
            continue
        for j in range(i):
            if ocolor[choice[j]] == ocolor[p]:
                if _find(parent, i) != _find(parent, j):
                    return False
                break
    return True


@njit(cache=True)
def _untouchable(
    level: int,
    choice: npt.NDArray[np.int64],
    ocolor: npt.NDArray[np.int64],
    corner: npt.NDArray[np.uint64],
    cover: npt.NDArray[np.uint64],
    ccover: npt.NDArray[np.uint64],
    forbid: npt.NDArray[np.uint64],
    touched: npt.NDArray[np.int64],
) -> bool:
    """Whether the position below this node is dead for a colour reason.

    Dead when some piece in ``choice[:level]`` can no longer get a same-colour corner touch
    (none of its corner cells is of its colour or empty and still open to its colour: cells
    edge-adjacent to a colour, ``forbid[k]``, can never take it), or when some empty cell is
    edge-adjacent to every colour (no colour can cover it).

    ``touched[level - 1]`` is a bitset of the levels whose piece already has its corner
    touch (it keeps it below; unmarked pieces are simply checked again); ``touched[level]``
    is set here. Solutions have at most 63
    pieces when this is used.
    """
    n = cover.shape[0]
    n_colors = ccover.shape[0]
    for w in range(n):
        x = ~cover[w]
        for k in range(n_colors):
            x &= forbid[k, w]
        if x != ZERO:
            return True
    done = touched[level - 1]
    for i in range(level):
        if (done >> i) & 1:
            continue
        q = choice[i]
        k = ocolor[q]
        if k < 0:
            done |= 1 << i
            continue
        touch = False
        hope = False
        for w in range(n):
            if corner[q, w] & ccover[k, w] != ZERO:
                touch = True
                break
            if corner[q, w] & ~cover[w] & ~forbid[k, w] != ZERO:
                hope = True
        if touch:
            done |= 1 << i
        elif not hope:
            return True
    touched[level] = done
    return False


@njit(cache=True)
def _normalize(grid: npt.NDArray[np.int64], remap: npt.NDArray[np.int64]) -> None:
    # Renumber colours by first appearance in scan order, in place.
    for k in range(remap.shape[0]):
        remap[k] = -1
    nxt = 0
    for b in range(grid.shape[0]):
        c = grid[b]
        if c >= 0:
            if remap[c] < 0:
                remap[c] = nxt
                nxt += 1
            grid[b] = remap[c]


@njit(cache=True)
def _stabilizer(
    level: int,
    choice: npt.NDArray[np.int64],
    ocolor: npt.NDArray[np.int64],
    masks: npt.NDArray[np.uint64],
    perms: npt.NDArray[np.int64],
    normalize: bool,
    grid: npt.NDArray[np.int64],
    image: npt.NDArray[np.int64],
    remap: npt.NDArray[np.int64],
) -> int:
    """How many symmetries (identity included) map the solution onto itself.

    A board symmetry g counts when g maps the colour grid onto itself, up to renaming the
    colours when ``normalize`` (interchangeable colours): then exactly one colour
    permutation goes with g. Same-colour pieces never share an edge, so the colour grid
    determines the solution. Summed over the solutions (with their weights) this gives the
    count up to symmetry: orbits = sum of stabilizer sizes / group order.
    """
    n = masks.shape[1]
    nbits = grid.shape[0]
    for b in range(nbits):
        grid[b] = -1
    for i in range(level):
        p = choice[i]
        k = ocolor[p]
        for w in range(n):
            x = masks[p, w]
            while x != ZERO:
                grid[w * 64 + ctz(x)] = k
                x &= x - ONE
    if normalize:
        _normalize(grid, remap)
    stab = 1
    for g in range(perms.shape[0]):
        for b in range(nbits):
            image[b] = grid[perms[g, b]]
        if normalize:
            _normalize(image, remap)
        same = True
        for b in range(nbits):
            if image[b] != grid[b]:
                same = False
                break
        if same:
            stab += 1
    return stab


@njit(cache=True)
def _run(
    masks: npt.NDArray[np.uint64],
    ptype: npt.NDArray[np.int64],
    use: npt.NDArray[np.int64],
    anchor_ptr: npt.NDArray[np.int64],
    anchor_idx: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64],
    valid: npt.NDArray[np.uint64],
    not_first_col: npt.NDArray[np.uint64],
    not_last_col: npt.NDArray[np.uint64],
    spare: npt.NDArray[np.int64],
    cap: npt.NDArray[np.int64],
    group_of: npt.NDArray[np.int64],
    group_low: npt.NDArray[np.int64],
    group_high: npt.NDArray[np.int64],
    ocolor: npt.NDArray[np.int64],
    halo: npt.NDArray[np.uint64],
    corner: npt.NDArray[np.uint64],
    perms: npt.NDArray[np.int64],
    width: int,
    prune: bool,
    prune_limit: int,
    color_order: bool,
    rule: int,
    pairs: bool,
    part: npt.NDArray[np.uint64],
    color2: npt.NDArray[np.int64],
    halo2: npt.NDArray[np.uint64],
    type_left: npt.NDArray[np.int64],
    cover: npt.NDArray[np.uint64],
    ccover: npt.NDArray[np.uint64],
    forbid: npt.NDArray[np.uint64],
    touched: npt.NDArray[np.int64],
    used: npt.NDArray[np.int64],
    choice: npt.NDArray[np.int64],
    pos: npt.NDArray[np.int64],
    cell: npt.NDArray[np.int64],
    ints: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
    out_len: npt.NDArray[np.int64],
    node_budget: int,
    split_depth: int,
) -> int:
    # ints: [0] level, [1] base level, [2] solutions, [3] nodes, [4] outputs recorded,
    #       [5] record solutions (0/1), [6] leaves reported at split_depth,
    #       [7] sum of the solutions' stabilizer sizes (coloured problems),
    #       [8] outputs per call (0: the buffer size)
    n = masks.shape[1]
    n_colors = ccover.shape[1]
    scratch = np.empty(5 * n, dtype=np.uint64)
    parent = np.empty(choice.shape[0], dtype=np.int64)
    grid = np.empty(n * 64, dtype=np.int64)
    image = np.empty(n * 64, dtype=np.int64)
    remap = np.empty(max(n_colors, 1), dtype=np.int64)
    group_used = np.empty(len(group_low), dtype=np.int64)
    level = ints[0]
    base = ints[1]
    max_out = out.shape[0] if ints[8] <= 0 else min(ints[8], out.shape[0])
    record = ints[5] != 0
    nodes_end = ints[3] + node_budget
    # Sizes of all piece types: their gcd divides the gcd of any remaining subset and their
    # minimum is no larger, so pruning with these fixed values is sound (and costs nothing
    # per node).
    smallest, _largest, g = remaining_sizes(sizes, type_left + 1)
    own = part if pairs else masks  # the cells taking each option's colour
    while True:
        if pos[level] < 0:
            # Entering a node (Knuth's X2/C2: is the cover complete?  X3: choose an item).
            if ints[3] >= nodes_end:
                ints[0] = level
                return PAUSED
            ints[3] += 1
            first: Any = -1
            for w in range(n):
                free = ~cover[level, w]
                if free != ZERO:
                    first = w * 64 + ctz(free)
                    break
            leaf = False
            if first < 0:
                ok = supplied(type_left, spare, cap, group_of, group_low, group_high,
                              group_used) and (
                    rule == 0
                    or _corner_rule(level, choice, ocolor, own, corner, ccover[level], rule, parent)
                )
                if ok:
                    ints[2] += 1
                    if n_colors > 0:
                        ints[7] += _stabilizer(
                            level, choice, ocolor, masks, perms, color_order, grid, image, remap
                        )
                    leaf = record
            elif level == split_depth:
                ints[6] += 1
                leaf = True
            if leaf:
                k = ints[4]
                for i in range(level):
                    out[k, i] = choice[i]
                out_len[k] = level
                ints[4] = k + 1
            if first < 0 or level == split_depth:
                # X8: leave this node.
                level -= 1
                if level < base:
                    ints[0] = level
                    return DONE
                p = choice[level]
                type_left[ptype[p]] += use[p]
                if leaf and ints[4] >= max_out:
                    ints[0] = level
                    return PAUSED
                continue
            cell[level] = first
            pos[level] = anchor_ptr[first]
        # X5/X6: try the next option for this node's cell.
        c = cell[level]
        end = anchor_ptr[c + 1]
        found = False
        while pos[level] < end:
            p = anchor_idx[pos[level]]
            pos[level] += 1
            t = ptype[p]
            if type_left[t] < use[p]:
                continue
            fits = True
            for w in range(n):
                if masks[p, w] & cover[level, w] != ZERO:
                    fits = False
                    break
            if not fits:
                continue
            k = ocolor[p]
            if k >= 0:
                # The colour's first appearance must follow every lower colour's.
                if color_order and k > used[level]:
                    continue
                # XCC colour test: no cell of the option is edge-adjacent to its colour.
                for w in range(n):
                    if own[p, w] & forbid[level, k, w] != ZERO:
                        fits = False
                        break
                if not fits:
                    continue
            for w in range(n):
                cover[level + 1, w] = cover[level, w] | masks[p, w]
            if n_colors > 0:
                for j in range(n_colors):
                    for w in range(n):
                        ccover[level + 1, j, w] = ccover[level, j, w]
                        forbid[level + 1, j, w] = forbid[level, j, w]
                used[level + 1] = used[level]
                if k >= 0:
                    for w in range(n):
                        ccover[level + 1, k, w] |= own[p, w]
                        forbid[level + 1, k, w] |= halo[p, w]
                    if pairs and color2[p] >= 0:
                        k2 = color2[p]
                        for w in range(n):
                            ccover[level + 1, k2, w] |= masks[p, w] & ~own[p, w]
                            forbid[level + 1, k2, w] |= halo2[p, w]
                    if k == used[level]:
                        used[level + 1] = k + 1
            type_left[t] -= use[p]
            dead = False
            if rule == 1 or rule == 2:
                touched[level + 1] = touched[level]
            if (rule == 1 or rule == 2) and k >= 0:
                choice[level] = p
                dead = _untouchable(
                    level + 1,
                    choice,
                    ocolor,
                    corner,
                    cover[level + 1],
                    ccover[level + 1],
                    forbid[level + 1],
                    touched,
                )
            if prune and not dead:
                if n == 1:
                    dead = dead_region1(
                        cover[level + 1, 0],
                        masks[p, 0],
                        valid[0],
                        not_first_col[0],
                        not_last_col[0],
                        np.uint64(width),
                        smallest,
                        g,
                        prune_limit,
                    )
                else:
                    dead = dead_region(
                        cover[level + 1],
                        masks[p],
                        valid,
                        not_first_col,
                        not_last_col,
                        width,
                        sizes,
                        type_left,
                        scratch,
                    )
            if dead:
                type_left[t] += use[p]
                continue
            choice[level] = p
            found = True
            break
        if found:
            level += 1
            pos[level] = -1
            continue
        # X7: all options for this cell tried; back up one level.
        level -= 1
        if level < base:
            ints[0] = level
            return DONE
        p = choice[level]
        type_left[ptype[p]] += use[p]


class SearchState:
    """Arrays of one resumable search, positioned below a forced prefix of options.

    Parameters
    ----------
    masks, ptype, use
        The problem's option masks, piece types and copies used.
    start_cover
        Cells covered before the search (blocked cells and padding bits).
    type_count
        Copies of each piece type.
    max_depth
        Most options a solution can have.
    colors
        The colour arrays (:meth:`Colors.none` for plain tilings).
    forced
        Options already placed; the search explores only the subtree below them.
    record
        Whether solutions are written to the output buffer (counting leaves it off).
    buffer
        How many solutions or split leaves one call may record before pausing.

    Raises
    ------
    ValueError
        If the forced options overlap, use too many copies, or break a colour rule; or if
        two-coloured options come with orbit maps.
    """

    def __init__(
        self,
        masks: npt.NDArray[np.uint64],
        ptype: npt.NDArray[np.int64],
        use: npt.NDArray[np.int64],
        start_cover: npt.NDArray[np.uint64],
        type_count: npt.NDArray[np.int64],
        max_depth: int,
        colors: Colors,
        forced: tuple[int, ...] = (),
        record: bool = False,
        buffer: int = 1024,
    ) -> None:
        if colors.pairs and colors.orbit_perms.shape[0]:
            # The orbit count paints whole options in one colour.
            raise ValueError("two-coloured options cannot count orbits")
        depth = max_depth + 1
        words = masks.shape[1]
        self.type_left = type_count.copy()
        self.cover = np.zeros((depth + 1, words), dtype=np.uint64)
        self.ccover = np.zeros((depth + 1, colors.n_colors, words), dtype=np.uint64)
        self.forbid = np.zeros((depth + 1, colors.n_colors, words), dtype=np.uint64)
        # touched[j]: bitset of the first j levels whose piece has its corner touch.
        self.touched = np.zeros(depth + 1, dtype=np.int64)
        self.used = np.zeros(depth + 1, dtype=np.int64)
        self.choice = np.full(depth, -1, dtype=np.int64)
        self.pos = np.full(depth + 1, -1, dtype=np.int64)
        self.cell = np.zeros(depth + 1, dtype=np.int64)
        self.ints = np.zeros(9, dtype=np.int64)
        self.out = np.zeros((buffer, depth), dtype=np.int64)
        self.out_len = np.zeros(buffer, dtype=np.int64)
        cover = start_cover.copy()
        ccover = np.zeros((colors.n_colors, words), dtype=np.uint64)
        forbid = np.zeros((colors.n_colors, words), dtype=np.uint64)
        used = 0
        for i, p in enumerate(forced):
            if np.any(cover & masks[p]):
                raise ValueError(f"forced option {p} overlaps an earlier one")
            k = int(colors.ocolor[p])
            if k >= 0:
                own = colors.part[p] if colors.pairs else masks[p]
                if np.any(own & forbid[k]):
                    raise ValueError(f"forced option {p} shares an edge with its colour")
                if colors.color_order and k > used:
                    raise ValueError(f"forced option {p} breaks the colour order")
                ccover[k] |= own
                forbid[k] |= colors.halo[p]
                if colors.pairs and colors.color2[p] >= 0:
                    ccover[colors.color2[p]] |= masks[p] & ~own
                    forbid[colors.color2[p]] |= colors.halo2[p]
                used = max(used, k + 1)
            cover |= masks[p]
            self.type_left[ptype[p]] -= use[p]
            self.choice[i] = p
        if np.any(self.type_left < 0):
            raise ValueError("forced options use more copies of a piece than there are")
        level = len(forced)
        self.cover[level] = cover
        self.ccover[level] = ccover
        self.forbid[level] = forbid
        self.used[level] = used
        self.ints[0] = level
        self.ints[1] = level
        self.ints[5] = 1 if record else 0

    @property
    def done(self) -> bool:
        """The subtree is exhausted."""
        return bool(self.ints[0] < self.ints[1])

    @property
    def solutions(self) -> int:
        """Complete solutions found so far (that pass the corner rule, if any)."""
        return int(self.ints[2])

    @property
    def stabilizers(self) -> int:
        """Sum over the solutions found of their stabilizer sizes (coloured problems)."""
        return int(self.ints[7])

    @property
    def nodes(self) -> int:
        """Search nodes entered so far."""
        return int(self.ints[3])

    def set_batch(self, n: int) -> None:
        """Pause after recording ``n`` outputs (at most the buffer size)."""
        self.ints[8] = max(1, min(n, self.out.shape[0]))

    def take(self) -> list[tuple[int, ...]]:
        """The recorded paths (option indices from the root), emptying the buffer."""
        k = int(self.ints[4])
        paths = [tuple(int(x) for x in self.out[i, : self.out_len[i]]) for i in range(k)]
        self.ints[4] = 0
        return paths


def run(
    state: SearchState,
    arrays: tuple[Any, ...],
    colors: Colors,
    width: int,
    node_budget: int,
    split_depth: int = -1,
    prune: bool = False,
    prune_limit: int = 12,
) -> int:
    """Advance ``state`` by at most ``node_budget`` nodes; returns :data:`DONE` or :data:`PAUSED`.

    ``arrays`` are the problem's ``(masks, ptype, use, anchor_ptr, anchor_idx, sizes, valid,
    not_first_col, not_last_col)`` and its supply (``spare, cap, group_of, group_low,
    group_high``: :meth:`~polytile.solvers.problem.TilingProblem.supply_arrays`). With
    ``split_depth`` >= 0, nodes at that depth are recorded as leaves instead of being
    searched (the top of the tree, for splitting work).
    """
    if state.done:
        return DONE
    return int(
        _run(
            *arrays,
            colors.ocolor, colors.halo, colors.corner, colors.orbit_perms,
            width, prune, prune_limit, colors.color_order, colors.rule,
            colors.pairs, colors.part, colors.color2, colors.halo2,
            state.type_left, state.cover, state.ccover, state.forbid, state.touched,
            state.used, state.choice, state.pos,
            state.cell, state.ints, state.out, state.out_len, node_budget, split_depth,
        )
    )  # fmt: skip

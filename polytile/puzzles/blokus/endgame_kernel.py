"""The compiled Blokus endgame search: the search of :mod:`polytile.puzzles.blokus.endgame`
over bitboards in numba (:mod:`._endgame_search`), for searches too big for Python.

:func:`kernel_line` runs one search (an objective given by per-colour weights, each colour
raising or lowering it) in a worker thread, so that a deadline, a node limit and Ctrl-C
stop it within a few thousand positions, and returns the value with its principal
variation as engine moves. The caller replays that line with the rules engine before
using it (:func:`polytile.puzzles.blokus.endgame.solve_endgame` does). Importing this module
is cheap; the first search loads numba and the compiled search (about a second once
compiled, which numba caches on disk after the first run).

Examples
--------
>>> from polytile.puzzles.blokus.rules import Blokus
>>> g = Blokus("duo")
>>> for _ in range(40):
...     if g.is_game_over():
...         break
...     g.push(g.legal_moves()[0])
>>> value, pv, nodes = kernel_line(g, [1, -1], [True, False])
>>> final = g.copy()
>>> for move in pv:
...     final.push(move)
>>> final.is_game_over(), value == final.score().colors["blue"].total - \\
...     final.score().colors["yellow"].total
(True, True)
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from polytile.errors import SolverError
from polytile.puzzles.blokus import _endgame_ctr as ks
from polytile.puzzles.blokus._endgame_ctr import CELLS, PAD
from polytile.puzzles.blokus.moves import COLOR_NAMES, pack_cells, placement_table
from polytile.puzzles.blokus.rules import PIECE_NAMES, Blokus, Move

__all__ = [
    "KernelStopped",
    "KernelTables",
    "RootBounds",
    "bitboard_scratch",
    "kernel_line",
    "orientations",
    "solitaire",
]

_TABLE_BITS = 22  # transposition table entries (2^22: 64 MB)
_MEMO_BITS = 20  # solitaire memo entries
_GREEDY_BITS = 18  # greedy layout memo entries
_BUSY_BITS = 16  # keys of positions a thread is searching (the others put them off)
#: How far above the score that would settle a node a colour's reach bound may be for the
#: search to ask whether its best solitaire stays at or below that score: further above,
#: the solitaire proofs cost more than the positions they save (on the Duo positions of
#: benchmarks/blokus-deep.json, 6 and 13 did about as well, 99 worse).
SOLO_GAP = 13


@cache
def orientations(n: int) -> tuple[np.ndarray, ...]:
    """The orientations of the pieces on the ``n`` x ``n`` board, for
    :mod:`._bitboard`: (piece per orientation; per orientation its five cell offsets from
    the anchor (top-left corner of its bounding box; a piece of fewer cells repeats its
    first), each as a bit shift (under 64) and a word shift, and as an index into the
    distinct offsets; the anchors where it stays on the board (a board per orientation);
    the board's cells; the cells off its first column; those off its last; the distinct
    offsets as bit shifts and word shifts, ascending; and the placement of each
    orientation at each anchor (-1: none)). Boards are padded with
    :data:`._bitboard.PAD` zero words on each side, as the scratch boards are."""
    t = placement_table(n)
    flat = t.flat.astype(np.int64)
    live = flat >= 0
    far = n * n * 2  # pads the offsets so that they sort last
    r, c = np.where(live, flat // n, far), np.where(live, flat % n, far)
    anchor = r.min(axis=1) * n + c.min(axis=1)
    offs = np.sort(np.where(live, flat - anchor[:, None], far), axis=1)
    # Orientations in the order of (piece, offsets): np.unique sorts the rows.
    _, first, which = np.unique(np.column_stack([t.piece, offs]), axis=0, return_index=True,
                                return_inverse=True)  # fmt: skip
    which = which.reshape(-1)
    piece = t.piece[first].astype(np.int64)
    offsets = np.where(offs[first] == far, -1, offs[first])
    if offsets.shape[1] > CELLS:
        raise ValueError(f"pieces of more than {CELLS} cells")
    if len(piece) > 128 or offsets.max() >> 6 >= PAD:  # kept_moves' mask; the padding
        raise ValueError(f"a board of {n} x {n} is beyond the compiled search's scratch")
    offsets = np.pad(offsets, ((0, 0), (0, CELLS - offsets.shape[1])), constant_values=-1)
    offsets = np.where(offsets >= 0, offsets, offsets[:, :1])  # repeat the first offset
    height = np.where(live, r, -1).max(axis=1)[first] - r.min(axis=1)[first] + 1
    width = np.where(live, c, -1).max(axis=1)[first] - c.min(axis=1)[first] + 1
    rr, cc = np.indices((n, n))

    def padded(board: np.ndarray) -> np.ndarray:
        packed = pack_cells(board, t.words)
        return np.pad(packed, [(0, 0)] * (packed.ndim - 1) + [(PAD, PAD)])

    valid = padded((rr <= n - height[:, None, None]) & (cc <= n - width[:, None, None]))
    board = padded(np.ones((n, n), dtype=bool))
    not_first = padded(cc != 0)
    not_last = padded(cc != n - 1)
    distinct = np.unique(offsets)
    rows = np.searchsorted(distinct, offsets).astype(np.int64)
    placement = np.full((len(piece), n * n), -1, dtype=np.int64)
    placement[which, anchor] = np.arange(len(t.piece))
    bits, word = (offsets & 63).astype(np.uint64), (offsets >> 6).astype(np.int64)
    first = np.searchsorted(piece, np.arange(len(PIECE_NAMES) + 1)).astype(np.int64)
    return (piece, bits, word, rows, valid, board, not_first, not_last,
            (distinct & 63).astype(np.uint64), (distinct >> 6).astype(np.int64), placement,
            first)


def bitboard_scratch(n: int) -> np.ndarray:
    """The scratch of :mod:`._bitboard`'s functions on the ``n`` x ``n`` board, each row a
    board padded with :data:`._bitboard.PAD` zero words on each side: a row per
    orientation, one per distinct offset, six for the reach's queue and the like, the
    reach's list of live orientations (an index per word), and for :func:`._bitboard.kept_moves`
    a row per orientation, a mask of them, and the attach points (the last two rows are also
    move generation's usable and attach rows)."""
    orient = orientations(n)
    width = placement_table(n).words + 2 * PAD
    count_o = len(orient[0])
    rows = 2 * count_o + len(orient[8]) + 8 + -(-count_o // width)
    return np.zeros((rows, width), dtype=np.uint64)


class KernelStopped(Exception):
    """The compiled search stopped before its answer: ``reason`` is ``"time"``,
    ``"nodes"`` or ``"interrupt"``; ``nodes`` the positions searched; ``preparing`` True
    when numba was still compiling the search (the first time after installing)."""

    def __init__(self, reason: str, nodes: int, *, preparing: bool = False,
                 proven: RootBounds | None = None) -> None:  # fmt: skip
        super().__init__(reason)
        self.reason, self.nodes, self.preparing, self.proven = reason, nodes, preparing, proven


@dataclass(frozen=True)
class RootBounds:
    """What a compiled search proved of its root before it stopped: the value lies in
    [``lower``, ``upper``] (None where nothing is known on that side: the search stopped
    before its root's bounds), and ``move`` (after the forced passes in ``passes``), once a
    root move has been searched far enough, is a move of the colour to move (``color``)
    that makes sure of ``bound``: at least ``bound`` when that colour raises the objective
    (``raises``), at most ``bound`` when it lowers it. The rest of the interval comes from
    the root's own bounds (the pieces each colour can still reach)."""

    lower: int | None
    upper: int | None
    move: Move | None
    color: str
    raises: bool
    passes: tuple[Move, ...] = ()
    bound: int | None = None


# What the move lists hold before a search writes them: an index outside every array, so
# that a kernel reading a move it never wrote fails under numba's bounds checks (the
# tests run them so) instead of reading some placement.
_NO_MOVE = -(1 << 40)


def _memos() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The memos the search threads share: the solitaire's by reach and by placements, and
    the greedy layouts' by territory. An entry is two words (the key XOR the data, and the
    data); all zeros reads as a miss."""
    return (np.zeros((1 << _MEMO_BITS, 2), dtype=np.uint64),
            np.zeros((1 << _MEMO_BITS, 2), dtype=np.uint64),
            np.zeros((1 << _GREEDY_BITS, 2), dtype=np.uint64))  # fmt: skip


class KernelTables:
    """The transposition tables and solitaire memos of compiled searches, kept from one
    search to the next (``kernel_line(tables=...)``): positions of one game, such as those
    ``analyse`` solves from the end backward, then find what the searches of the others
    proved. Their keys are of whole positions, and their entries proven bounds (exact,
    upper or lower values), true from any root with the same board and objective. One set
    per board size and objective, for the ``keep`` most recently used (about 100 MB each;
    ``analyse`` with 4 players asks for two objectives a position, by turns). ``reused``
    counts the searches that found their set kept."""

    def __init__(self, keep: int = 2) -> None:
        if keep < 1:
            raise ValueError(f"keep must be at least 1, not {keep}")
        self.keep = keep
        self.reused = 0
        self._sets: dict[tuple[Any, ...], tuple[Any, Any]] = {}

    def get(self, n: int, weights: Sequence[int], maxer: Sequence[bool]) -> tuple[Any, Any]:
        """(table, memos) for a search of this board size and objective."""
        what = (n, tuple(int(w) for w in weights), tuple(bool(m) for m in maxer))
        found = self._sets.pop(what, None)
        if found is None:
            while len(self._sets) >= self.keep:
                del self._sets[next(iter(self._sets))]  # the least recently used
            found = (_table(), _memos())
        else:
            self.reused += 1
            # A search unmarks its positions as it returns, stopped or not; this only makes
            # sure that no mark outlives its search (one that raised, say).
            found[0][1][:] = 0
        self._sets[what] = found
        return found


# The table set of the last search with none of its own (no ``tables``), kept for the next
# one of the same board in this process: allocating and zeroing a new set (about 100 MB)
# costs 10-20 ms a search, more than many searches take. Each search XORs a salt of its
# own into its keys, above their slot bits, so that it reads the entries of earlier
# searches as empty slots and searches exactly as with a new set (the slots are the same).
_SPARE: dict[int, tuple[Any, Any]] = {}
_SPARE_LOCK = threading.Lock()


def _borrow(n: int) -> tuple[tuple[Any, Any], int]:
    """(table set, salt) for a search of the ``n`` x ``n`` board with no tables of its own:
    the set kept from an earlier search when no other search is using it, else a new one."""
    with _SPARE_LOCK:
        found = _SPARE.pop(n, None)
    if found is None:
        found = (_table(), _memos())
    else:
        found[0][1][:] = 0  # no mark of an earlier search (one that raised, say) outlives it
    return found, secrets.randbits(63 - _TABLE_BITS) << _TABLE_BITS


def _table() -> tuple[np.ndarray, np.ndarray]:
    """A transposition table: entries (key ^ data, data), and the keys of positions being
    searched. An entry of zeros reads as a miss (the key would be 0 and the data is never
    0)."""
    return (np.zeros((1 << _TABLE_BITS, 2), dtype=np.uint64),
            np.zeros(1 << _BUSY_BITS, dtype=np.uint64))  # fmt: skip


def _thread_state(game: Blokus, t: Any, hand: np.ndarray, lasti1: np.ndarray, limit: int,
                  solo_gap: int) -> tuple[Any, ...]:  # fmt: skip
    """One search thread's own state, scratch, counters and line."""
    k, n = len(game.colors), game.size
    held = int(hand.sum())
    plies = held * k + k + 2  # each placement after at most k - 1 forced passes
    bits = np.zeros((plies + 1, *game._bits.shape), dtype=np.uint64)  # engine internals
    bits[0] = game._bits
    st = (bits, hand.copy(), lasti1.copy())
    places = len(t.piece)
    # A solitaire ply places a piece or leaves a cell empty for good.
    pieces = int(hand.sum(axis=1).max())  # the most pieces a colour holds
    solo_depth = pieces + 64 * t.words + 2
    covering = int(np.diff(t.cell_ptr).max())  # the most placements covering one cell
    buf = (
        np.full((plies + 1, places), _NO_MOVE, dtype=np.int64),  # moves per ply
        np.zeros((k + 1, t.words), dtype=np.uint64),  # reach per colour (+ the solitaire's)
        np.zeros((k + 2, 21), dtype=np.uint8),  # reachable pieces per colour (+ 2 scratch)
        np.zeros((solo_depth + 1, 3, t.words), dtype=np.uint64),  # solitaire states
        np.full((solo_depth + 1, covering), _NO_MOVE, dtype=np.int64),  # solitaire moves
        np.zeros((6, t.words), dtype=np.uint64),  # greedy state and scratch, move keys
        np.zeros(t.words, dtype=np.uint64),  # contested cells / territory scratch
        bitboard_scratch(n),
        np.full((plies + 1, 2), -1, dtype=np.int64),  # killer moves per ply
        (  # per ply, each colour's reach, reachable pieces, (score now, most it can make)
            np.zeros((plies + 1, k, t.words), dtype=np.uint64),
            np.zeros((plies + 1, k, 21), dtype=np.uint8),
            np.zeros((plies + 1, k, 2), dtype=np.int64),
            np.zeros(plies + 1, dtype=np.uint8),  # whether that ply's are the current node's
        ),
        # per ply, each colour's score now, best, sure score, solitaire move, shared reach
        np.zeros((plies + 1, 5, k), dtype=np.int64),
        np.full(2 * places + 128, _NO_MOVE, dtype=np.int64),  # moves, keys, their sort
        # solitaire moves per ply where I1's bonus is still possible (every placement)
        np.full((pieces + 2, places), _NO_MOVE, dtype=np.int64),
        # per solitaire ply, the reach and the pieces of the ply before (its reach lies
        # within them); the last rows: every cell, and scratch
        np.full((solo_depth + 3, t.words), np.iinfo(np.uint64).max, dtype=np.uint64),
        np.zeros((solo_depth + 3, 21), dtype=np.uint8),
    )
    ctr = np.zeros(ks.SIZE, dtype=np.int64)
    ctr[ks.LIMIT] = limit
    ctr[ks.SOLO_GAP] = solo_gap
    ctr[ks.ROOT_LO], ctr[ks.ROOT_HI], ctr[ks.ROOT_MOVE] = -ks.INF, ks.INF, -1
    return st, buf, ctr, np.full(plies + 1, -2, dtype=np.int64)


@cache
def _zobrist(n: int, k: int) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """Zobrist keys of whole positions on the ``n`` x ``n`` board with ``k`` colours, so that
    a table can serve several roots (:class:`KernelTables`): (per cell and colour, per piece
    and colour, (per placement and colour, per colour to move, per colour's ``I1`` last)).
    A placement's key is its cells' keys for its colour and its piece's; a root's, those of
    every cell and piece already placed (:func:`_arrays`). Computed once per board."""
    t = placement_table(n)
    rng = np.random.default_rng(0x5EED)
    words = np.iinfo(np.uint64).max
    zcell = rng.integers(0, words, size=(n * n + 1, k), dtype=np.uint64, endpoint=True)
    zcell[n * n] = 0  # the padding of placements with fewer cells
    zpiece = rng.integers(0, words, size=(len(PIECE_NAMES), k), dtype=np.uint64, endpoint=True)
    zob = np.bitwise_xor.reduce(zcell[np.where(t.flat >= 0, t.flat, n * n)], axis=1)
    zob ^= zpiece[t.piece]
    zturn = rng.integers(0, words, size=k, dtype=np.uint64, endpoint=True)
    zi1 = rng.integers(0, words, size=k, dtype=np.uint64, endpoint=True)
    return zcell, zpiece, (np.ascontiguousarray(zob), zturn, zi1)


def _arrays(game: Blokus, weights: Sequence[int], maxer: Sequence[bool]) -> tuple[Any, ...]:
    """The compiled search's view of ``game``: (placement table, its arrays, the game
    tuple, hands, ``I1``-last flags, Zobrist keys, the colour to move, the root's key)."""
    k, n = len(game.colors), game.size
    t = placement_table(n)
    tab = (t.masks, t.edge_masks, t.corner_masks, t.piece, t.flat, t.cell_ptr,
           t.cell_placements, orientations(n))  # fmt: skip
    g = (n, k, np.asarray(weights, dtype=np.int64), np.asarray(maxer, dtype=np.int64))
    hand = np.stack([game.hand_mask(c) for c in game.colors]).astype(np.uint8)
    lasti1 = np.array([game.last_piece(c) == "I1" for c in game.colors], dtype=np.int64)
    zcell, zpiece, z = _zobrist(n, k)
    zturn, zi1 = z[1], z[2]
    turn = game.colors.index(game.to_move)
    h = np.uint64(zturn[turn])
    grid = game.grid_codes()
    for ci, color in enumerate(game.colors):
        code = COLOR_NAMES.index(color) + 1
        h ^= np.bitwise_xor.reduce(zcell[np.flatnonzero(grid == code), ci], initial=np.uint64(0))
        h ^= np.bitwise_xor.reduce(zpiece[np.flatnonzero(hand[ci] == 0), ci],
                                   initial=np.uint64(0))  # fmt: skip
        if not hand[ci].any() and lasti1[ci]:
            h ^= zi1[ci]
    return t, tab, g, hand, lasti1, z, turn, h


def solitaire(game: Blokus, color: str, floor: int = -ks.INF,
              roof: int = ks.INF) -> tuple[int, Move | None]:  # fmt: skip
    """The best final score of ``color`` placing alone from ``game`` (every other colour
    passing), and the first placement of a layout that makes it (None if it cannot place);
    the compiled search's own solitaire, for checks. The value is exact between ``floor``
    and ``roof``; at most ``floor``, a bound at least as high (and the placement means
    nothing); at least ``roof``, a bound at most as high."""
    ci = game.colors.index(color)
    t, tab, g, hand, lasti1, z, _, _ = _arrays(game, [0] * len(game.colors),
                                               [False] * len(game.colors))  # fmt: skip
    st, buf, ctr, _ = _thread_state(game, t, hand, lasti1, np.iinfo(np.int64).max, 0)
    # Fresh memos only: the first call's placement key below is taken before any reach is
    # computed (the node's reach is empty here), so it is not a key of the position.
    memo = _memos()
    from polytile.puzzles.blokus import _endgame_search as search

    value, first = search._solo_root(tab, g, st, z, memo, buf, ctr, 0, ci, floor, roof, False)
    return int(value), None if first < 0 else game._move(ci, int(first))


def kernel_line(
    game: Blokus,
    weights: Sequence[int],
    maxer: Sequence[bool],
    *,
    deadline: float | None = None,
    node_limit: int | None = None,
    progress: Callable[[int], None] | None = None,
    threads: int | None = None,
    solo_gap: int = SOLO_GAP,
    tables: KernelTables | None = None,
    known: tuple[int | None, int | None] = (None, None),
) -> tuple[int, list[Move], int]:
    """Search ``game`` to the end: the objective ``sum(weights[c] * final score[c])`` under
    play where colour ``c`` raises it if ``maxer[c]`` and lowers it otherwise.

    Parameters
    ----------
    weights
        Per colour of ``game.colors``: -1, 0 or 1.
    deadline
        A :func:`time.perf_counter` time to stop at.
    node_limit
        Positions to search at most (solitaire positions included).
    progress
        Called about ten times a second with the positions searched so far.
    threads
        Searches run at once, sharing one transposition table and the solitaire memos.
        They split the work as in ABDADA: each marks the positions it is searching, and a
        thread puts off a move whose position another is searching until its other moves
        are done (by then the table usually has it), except at the root, whose moves both
        search together. The first to finish answers. Default:
        one with a node limit (so that its count repeats), else one per core, at most two.
    solo_gap
        Where a colour's reach bound is at most this far above the score that would settle
        a node, ask whether its best solitaire layout stays at or below that score (a
        bound: the others' moves only take cells from it). 0 or below: never. It changes
        only how many positions are searched, never a value.
    tables
        Keep the transposition table and the solitaire memos here for the next search
        (:class:`KernelTables`). Default: the set this process's last such search used
        (a new one if another search has it), read as empty: the search XORs a salt of its
        own into its keys, so its count of positions is that of a new set.
    known
        What the caller has proven of the value: at least ``known[0]`` and at most
        ``known[1]`` (None: nothing), say from a move already solved. The search's window
        starts there, so that moves worse than the bound are only refuted, never valued.

    Returns
    -------
    (value, principal variation to the end of the game, positions searched)

    Raises
    ------
    KernelStopped
        At the deadline, the node limit or Ctrl-C.
    SolverError
        When no move follows the value found (a search bug; never silently).
    """
    t, tab, g, hand, lasti1, z, turn, h = _arrays(game, weights, maxer)
    borrowed = None
    salt = 0
    if tables is None:
        borrowed, salt = _borrow(game.size)
        tt, memo = borrowed
        h ^= np.uint64(salt)
    else:
        tt, memo = tables.get(game.size, weights, maxer)
    if threads is None:
        threads = 1 if node_limit is not None else min(2, os.cpu_count() or 1)
    limit = np.iinfo(np.int64).max if node_limit is None else int(node_limit)
    each = [_thread_state(game, t, hand, lasti1, limit, solo_gap) for _ in range(threads)]
    for _, _, ctr, _ in each:
        ctr[ks.SALT] = salt
    alpha = -ks.INF if known[0] is None else known[0] - 1
    beta = ks.INF if known[1] is None else known[1] + 1
    results: list[tuple[int, int, np.ndarray] | None] = [None] * threads
    failure: list[BaseException] = []
    done = threading.Event()
    claim, winner, finished = threading.Lock(), list[int](), list[int]()

    def work(i: int) -> None:
        st, buf, ctr, out = each[i]
        try:
            # Loaded here so that the caller's deadline holds while numba compiles it (the
            # first time only: numba keeps it on disk).
            from polytile.puzzles.blokus import _endgame_search as search

            ready.set()
            value = search.search(tab, g, st, z, tt, memo, buf, ctr, 0, turn, h, alpha, beta)
            with claim:  # the first to finish has the value: it stops the others
                first = ctr[ks.STATUS] == 0 and not winner
                if first:
                    winner.append(i)
                    for other in each:
                        if other[2] is not ctr:
                            other[2][ks.REQUEST] = 1
            if first:
                if alpha < value < beta:  # exact, even should the line below be stopped
                    finished.append(int(value))
                length = search.principal_variation(tab, g, st, z, tt, memo, buf, ctr, turn, h,
                                                    value, out)  # fmt: skip
                if ctr[ks.STATUS] == 0:
                    results[i] = (int(value), int(length), out)
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)
        if results[i] is not None or failure:
            done.set()

    def request_stop() -> None:
        for _, _, ctr, _ in each:
            ctr[ks.REQUEST] = 1

    def counted() -> int:
        return sum(int(e[2][ks.NODES]) for e in each)

    ready = threading.Event()
    pool = [threading.Thread(target=work, args=(i,), name=f"polytile-blokus-endgame-{i}",
                             daemon=True) for i in range(threads)]  # fmt: skip
    for thread in pool:
        thread.start()
    interrupted = False
    try:
        while any(thread.is_alive() for thread in pool):
            done.wait(0.1)
            if done.is_set():
                request_stop()
                for thread in pool:
                    thread.join()
                break
            if deadline is not None and time.perf_counter() >= deadline:
                request_stop()
                if not ready.is_set():  # still compiling: the threads end with the process
                    raise KernelStopped("time", 0, preparing=True)
            if progress is not None:
                progress(counted())
    except KeyboardInterrupt:
        interrupted = True
        request_stop()
        if not ready.is_set():
            raise KernelStopped("interrupt", 0, preparing=True) from None
        for thread in pool:
            thread.join()
    except BaseException:  # the progress callback failed, say: no search runs on unheard
        request_stop()
        raise
    if borrowed is not None:  # every thread has ended: the set is free for the next search
        with _SPARE_LOCK:
            _SPARE[game.size] = borrowed
    if failure:
        raise failure[0]
    nodes = counted()
    won = next((r for r in results if r is not None), None)
    if finished:  # the value is known even where its line was stopped
        known = (finished[0], finished[0])
    if interrupted:
        raise KernelStopped("interrupt", nodes, proven=_root_bounds(game, maxer, each, known))
    if won is None:
        status = max(int(e[2][ks.STATUS]) for e in each)
        raise KernelStopped("nodes" if status == 1 else "time", nodes,
                            proven=_root_bounds(game, maxer, each, known))  # fmt: skip
    value, length, out = won
    if not alpha < value < beta:
        raise SolverError(f"the compiled endgame search found {value}, outside the bounds "
                          f"{known} it was given")  # fmt: skip
    if length < 0:
        raise SolverError("the compiled endgame search found no move keeping its value "
                          f"{value}")  # fmt: skip
    pv = []
    check = game.copy()
    for p in out[:length].tolist():
        move = Move.pass_turn(check.to_move) if p < 0 else check._move(check._turn, p)
        pv.append(move)
        check.push(move)
    return value, pv, nodes


def _root_bounds(game: Blokus, maxer: Sequence[bool], each: Sequence[Any],
                 known: tuple[int | None, int | None]) -> RootBounds:  # fmt: skip
    """The bounds of the root the search threads proved before they stopped (all threads
    search the same root: the tightest of each side) within those ``known`` before, with
    the move that makes sure of the most on the mover's side, checked legal by the rules
    engine."""
    ctrs = [e[2] for e in each]
    lo = max(int(c[ks.ROOT_LO]) for c in ctrs)
    hi = min(int(c[ks.ROOT_HI]) for c in ctrs)
    lo = lo if known[0] is None else max(lo, known[0])
    hi = hi if known[1] is None else min(hi, known[1])
    check = game.copy()
    passes = []
    for _ in range(max(int(c[ks.ROOT_PLY]) for c in ctrs)):  # forced passes before the root
        passes.append(Move.pass_turn(check.to_move))
        check.push(passes[-1])
    raises = bool(maxer[check._turn])
    side = ks.ROOT_LO if raises else ks.ROOT_HI
    moved = [(int(c[side]), int(c[ks.ROOT_MOVE])) for c in ctrs if c[ks.ROOT_MOVE] >= 0]
    move = bound = None
    if moved:
        bound, index = (max if raises else min)(moved)
        move = check._move(check._turn, index)
        check.push(move)  # the rules engine refuses an illegal move
    return RootBounds(lo if lo > -ks.INF else None, hi if hi < ks.INF else None, move,
                      check.to_move if move is None else move.color, raises, tuple(passes),
                      bound)  # fmt: skip

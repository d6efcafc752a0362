"""City Blocks (Henning): a compiled exact search giving every root move's value fast.

Why. A player's view is scored by solving hundreds of deals of the hidden tiles, each for
every root move (:mod:`polytile.puzzles.henning.view`); the generic alpha-beta over the rules
engine visits about 20,000 positions a second, so one deal with 4 empty blocks and two tiles
left in each reserve takes minutes. This module runs an exact search in numba, on flat
integer arrays, about forty times as many positions a second (some 1.2 million against
30,000 on one core), with bounds and a move order of its own (below) that visit far fewer
positions: on the hardest deals of ``benchmarks/bench_henning_view.py``, every root move of
one state took over 150 million positions with the bounds the Python search uses, and under
1.2 million with these. It still checks every answer with the rules engine.

The encoding (:func:`encode`). A full :class:`~polytile.puzzles.henning.rules.Henning` state
becomes one ``int64`` vector: each block's owner and kind (-1 when empty), each street's token,
award and count of empty blocks, each player's tokens ascending (a redevelopment pays the
first), each hand as counts per kind (the order of a hand never matters), each reserve still
to draw in order with how much of it is drawn, the player to move and the number of empty
blocks. A move is one integer (:func:`~polytile.puzzles.henning._kernel_search.move_code`):
kind, block, redevelop flag and courthouse swap; a pass has its own code. Make and unmake
follow :meth:`Henning.push_legal` and :meth:`Henning.pop` step by step (the swap before the
awards, the draw after), so the kernel plays the rules the engine plays.

The search. Fail-soft negamax over make/unmake with principal variation search (the first
move with the whole window, the others with a null window, searched again only when one
proves better), on sound bounds that keep it small (their proofs are in the search
module): money only moves by open streets' tokens and by redevelopments, and either player
may always decline to redevelop, so the value lies within the margin plus or minus the open
tokens; one ply ahead, a development settles the streets it completes; with one empty block
left the mover's best finish is exact for that move and the other player's best finish
after any redevelopment bounds the rest. Moves whose bound shows them no better than what
the mover already has are not played at all: a development by the streets it settles (and,
two blocks before the end, by the other's best finish after it), a redevelopment by the
token it pays and what the other can then win at once. A dead block (both streets awarded)
is interchangeable with any other dead block: the Zobrist key hashes of the dead blocks only
whether each player owns one (and of the tokens only those of open streets, which alone can
still move), and only the first dead block's redevelopments are searched, none giving up a
tile while the hand holds a weaker one (a house, store or factory never better wherever it
stands). A table move stored under such a key may be illegal in the position at hand
(another dead block's owner), so it is checked before it is tried. The table holds buckets
of two slots (the full 64-bit key, the proven interval, the best move and the tiles left,
packed in two integers); the first slot keeps the deeper entries. Moves are tried table move
first, then by a history of the moves that cut off (per player and number of empty blocks,
weighted by the tiles left), kept from one search to the next, developments before
redevelopments.

Every root move gets a full-window search sharing one table, then a principal variation found
by null-window re-searches. :func:`kernel_move_values` replays each variation through the
checked :meth:`Henning.push` on a copy; it must end the game on the value, else
:class:`~polytile.errors.SolverError`: a kernel bug never reaches a caller as an answer.

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> import numpy as np
>>> g = Henning.new(3)
>>> rng = np.random.default_rng(3)
>>> while g.empty > 2:
...     g.push_legal(g.random_move(rng))
>>> values, nodes = kernel_move_values(g)
>>> (max(values) if g.to_move == 0 else min(values)) == kernel_value(g)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from polytile.errors import IllegalMoveError, PolytileError, SolverError
from polytile.puzzles.henning import _kernel_search as ks
from polytile.puzzles.henning import _kernel_state as kst
from polytile.puzzles.henning.moves import PASS, Move
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.tiles import CH, KINDS, OPEN, STREETS

__all__ = [
    "KernelEncodingError",
    "KernelStopped",
    "decode_move",
    "encode",
    "encode_move",
    "kernel_move_values",
    "kernel_value",
]

#: Table slots (a power of two, 16 bytes each): 2**22 slots take 64 MB, allocated once per
#: process.
TABLE_BITS = 22
_ZOBRIST = np.random.default_rng(20261124).integers(
    -(2**63), 2**63 - 1, size=kst.Z_SIZE, dtype=np.int64)  # fmt: skip


class KernelEncodingError(PolytileError, ValueError):
    """A position or move the compiled kernel cannot represent."""


class KernelStopped(PolytileError, RuntimeError):
    """The compiled search reached its node limit before its answer.

    Attributes
    ----------
    nodes
        The positions searched.
    """

    def __init__(self, nodes: int) -> None:
        super().__init__(f"the compiled search stopped at its node limit after {nodes:,} "
                         "positions without an answer")  # fmt: skip
        self.nodes = nodes


def encode(game: Henning) -> np.ndarray:
    """The state vector of ``game`` (see the module notes).

    Raises
    ------
    KernelEncodingError
        If the state is not one the rules can reach (a hand of more than 5 tiles, a token
        list of more than 11, a block's owner without a kind, street counts that disagree with
        the board).
    """
    st = np.zeros(kst.SIZE, dtype=np.int64)
    for b in range(30):
        o, k = game.owner[b], game.kind[b]
        if not (o == -1 and k == -1) and not (o in (0, 1) and 0 <= k < len(KINDS)):
            raise KernelEncodingError(f"block {b} holds owner {o}, kind {k}")
        st[kst.OWN + b], st[kst.KND + b] = o, k
    for s in range(11):
        empty = sum(1 for b in STREETS[s] if game.owner[b] < 0)
        if game.empty_in[s] != empty or (game.award_of[s] == OPEN) != (empty > 0):
            raise KernelEncodingError(f"street {s}'s empty count or award disagrees with "
                                      "the board")  # fmt: skip
        st[kst.TOK + s], st[kst.AWD + s] = game.tokens[s], game.award_of[s]
        st[kst.EIN + s] = empty
    if game.empty != sum(1 for o in game.owner if o < 0):
        raise KernelEncodingError("the count of empty blocks disagrees with the board")
    for p in (0, 1):
        money = sorted(game.money[p])
        if len(money) > 11 or not all(1 <= t <= 15 for t in money):
            raise KernelEncodingError(f"player {p} holds impossible tokens {money}")
        st[kst.MON + 16 * p : kst.MON + 16 * p + len(money)] = money
        st[kst.NMON + p], st[kst.MSUM + p] = len(money), sum(money)
        hand = game.hands[p]
        if len(hand) > 5:
            raise KernelEncodingError(f"player {p}'s hand holds {len(hand)} tiles (at most 5)")
        for k in hand:
            st[kst.HAND + 19 * p + k] += 1
        st[kst.HANDN + p] = len(hand)
        reserve = game.reserve(p)
        if len(reserve) > 20:
            raise KernelEncodingError(f"player {p}'s reserve holds {len(reserve)} tiles")
        st[kst.RES + 20 * p : kst.RES + 20 * p + len(reserve)] = reserve
        st[kst.RESN + p], st[kst.DRAWN + p] = len(reserve), 0
    st[kst.TURN], st[kst.EMPTY] = game.turn, game.empty
    return st


def encode_move(move: Move) -> int:
    """The kernel's integer for ``move`` (a pass has its own code)."""
    if move.is_pass or move.block is None:
        return kst.PASS_CODE
    r, c = move.block
    return kst.move_code(move.kind, r * 6 + c, move.redevelop, move.swap)


def decode_move(game: Henning, code: int) -> Move:
    """The :class:`Move` of the kernel's integer ``code`` at ``game`` (a redevelopment pays the
    mover's lowest token there).

    Raises
    ------
    KernelEncodingError
        If ``code`` is no move.
    """
    if code == kst.PASS_CODE:
        return PASS
    if code < 0 or code >= kst.PASS_CODE:
        raise KernelEncodingError(f"{code} is not a move code")
    kind, block, redevelop, sw = code & 31, (code >> 5) & 31, bool((code >> 10) & 1), code >> 11
    if kind >= len(KINDS) or block >= 30 or sw > 121 or (sw and kind != CH):
        raise KernelEncodingError(f"{code} is not a move code")
    swap = None if sw == 0 else ((sw - 1) // 11, (sw - 1) % 11)
    money = game.money[game.turn]
    pay = (money[0] if money else -1) if redevelop else None
    return Move(kind, (block // 6, block % 6), redevelop, pay, swap)


def _tiles_left(game: Henning) -> int:
    return sum(len(game.hands[p]) + game.reserve_size(p) for p in (0, 1))


_TABLE: tuple[np.ndarray, np.ndarray] | None = None


def _table() -> tuple[np.ndarray, np.ndarray]:
    """This process's transposition table and move-ordering history, kept from one search
    to the next.

    Keeping the table is sound: a key stands for the whole state that decides the rest of
    the game (the reserves' tiles still to draw included), every entry is a proven interval
    of that state's value, and a search stopped at its node limit stores nothing on its way
    out. It pays off when many related positions are solved in a row, as a view analysis
    does: once the reserves are drawn, positions reached from different deals coincide. The
    history only orders moves.
    """
    global _TABLE
    if _TABLE is None:
        _TABLE = (
            np.zeros(2 << TABLE_BITS, dtype=np.int64),
            np.zeros(ks.HIST_SIZE, dtype=np.int64),
        )
    return _TABLE


def _solve(game: Henning, roots: list[int], node_limit: int | None) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, int]:  # fmt: skip
    """Run the kernel: (values, pvs, pv lengths, nodes)."""
    st = encode(game)
    # Every placement uses a tile and a pass is followed by a placement or the end.
    plies = 2 * _tiles_left(game) + 4
    tt, hist = _table()
    mbuf = np.empty((plies, kst.ROW_SIZE), dtype=np.int64)
    sbuf = np.empty((plies, kst.ROW_SIZE), dtype=np.int64)
    limit = np.iinfo(np.int64).max if node_limit is None else int(node_limit)
    ctr = np.array([0, limit, kst.OK], dtype=np.int64)
    count = max(len(roots), 1)
    values = np.zeros(count, dtype=np.int64)
    pvs = np.zeros((count, plies), dtype=np.int64)
    pv_len = np.zeros(count, dtype=np.int64)
    ks.run(st, _ZOBRIST, tt, hist, mbuf, sbuf, ctr, np.array(roots, dtype=np.int64), values,
           pvs, pv_len)  # fmt: skip
    nodes = int(ctr[0])
    if ctr[2] == kst.ABORTED:
        raise KernelStopped(nodes)
    if ctr[2] == kst.LOST_PV:
        raise SolverError("the compiled search lost its principal variation")
    return values, pvs, pv_len, nodes


def _check(game: Henning, first: Move | None, line: Sequence[int] | np.ndarray,
           value: int) -> None:  # fmt: skip
    """Replay ``first`` then the kernel's ``line`` with checked moves on a copy of ``game``:
    the game must end with margin ``value``.

    Raises
    ------
    SolverError
        If a move is illegal, the game does not end, or the margin differs.
    """
    check = game.copy()
    try:
        if first is not None:
            check.push(first)
        for code in line:
            check.push(decode_move(check, int(code)))
    except (IllegalMoveError, KernelEncodingError) as error:
        raise SolverError(f"the compiled search's line does not replay: {error}") from None
    if not check.is_over():
        raise SolverError("the compiled search's line stops before the end of the game")
    if check.margin() != value:
        raise SolverError(f"the compiled search's line ends at {check.margin()}, not at its "
                          f"value {value}")  # fmt: skip


def kernel_move_values(
    game: Henning,
    moves: Sequence[Move] | None = None,
    *,
    node_limit: int | None = None,
) -> tuple[list[int], int]:
    """Each move's exact final margin (blue's money minus red's) after it is played at
    ``game``, both players playing perfectly afterwards, everything taken as known (hands
    and reserve orders: "open" analysis); ``game`` is not changed.

    Parameters
    ----------
    game
        A full position, not over.
    moves
        The moves to value (default :meth:`Henning.legal_moves`).
    node_limit
        Stop with :class:`KernelStopped` after this many positions (all moves together).

    Returns
    -------
    (values, nodes)
        The values in the order of ``moves``, and the positions searched.

    Raises
    ------
    IllegalMoveError
        If a move is not legal at ``game``.
    KernelStopped
        When the node limit is reached first.
    KernelEncodingError
        If the position cannot be encoded.
    SolverError
        If a value's line does not replay through the rules to it.

    Notes
    -----
    One search per move sharing one table; each value's line is replayed by
    :meth:`Henning.push`. Exponential in the tiles left in the worst case.
    """
    todo = list(game.legal_moves() if moves is None else moves)
    for move in todo:
        reason = game.illegality(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move}: {reason}")
    if not todo:
        return [], 0
    values, pvs, pv_len, nodes = _solve(game, [encode_move(m) for m in todo], node_limit)
    out = []
    for i, move in enumerate(todo):
        value = int(values[i])
        _check(game, move, pvs[i, : pv_len[i]], value)
        out.append(value)
    return out, nodes


def kernel_value(game: Henning, *, node_limit: int | None = None) -> int:
    """The exact final margin (blue minus red) of ``game`` under best play, everything taken
    as known; checked by replaying its line (see :func:`kernel_move_values`).

    Raises
    ------
    KernelStopped, KernelEncodingError, SolverError
        As :func:`kernel_move_values`.
    """
    if game.is_over():
        return game.margin()
    values, pvs, pv_len, _ = _solve(game, [], node_limit)
    value = int(values[0])
    _check(game, None, pvs[0, : pv_len[0]], value)
    return value


def warm_up() -> None:
    """Run the compiled search on a small ending, so that numba compiles and caches it
    (:mod:`polytile._warm` runs this in a process of its own the first time)."""
    game = Henning.new(0)
    while game.empty > 4:
        game.push(game.legal_moves()[0])
    kernel_move_values(game)
    kernel_value(game)

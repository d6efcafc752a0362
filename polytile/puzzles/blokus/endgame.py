"""Blokus: exact endgames, played perfectly to the end over the real turn order.

:func:`solve_endgame` searches every continuation of a position (forced passes included)
and returns its value with a principal variation:

* with **two players** (Duo, classic 2-player, teams) the value is the first player's final
  score minus the second's; the first plays to raise it, the second to lower it
  (alpha-beta);
* with **three or four players** ("max own score") the value of a player is the final score
  it can make sure of when every other player plays against it (alpha-beta with that player
  maximising its score and all the others minimising it); every player gets its own search.
  With 3 players the shared green is moved, in turn, by the player whose turn with it it is.

What keeps it small:

* **Bounds at every node.** A colour's final score only grows; it can grow at most to what
  its reachable pieces allow (:mod:`polytile.puzzles.blokus.reach`: the pieces and cells it
  may still place, whoever plays what). It is sure to reach what a greedy layout of its
  pieces inside its *territory* (reach cells no other colour can ever cover) makes, and when
  it is to move, its biggest legal placement now (as in
  :mod:`polytile.puzzles.blokus.bounds`). These bounds cut the search when they cannot
  change the result, and end it when no colour can place again.
* **Independent colours.** When a colour's reach shares no cell with any other colour's,
  nothing it does affects anyone else, and nothing anyone does affects it. Its best play is
  then its best solitaire layout (a branch and bound of its own, searched only when the
  bounds above do not already settle the node; here over every placement, in the compiled
  search over the placements covering one cell or none, which meets each layout once, unless
  ``I1`` placed last may still earn its bonus), and the main search follows that line
  instead of branching over its moves. Solitaire positions are remembered by the board
  inside the colour's reach only, so the other colours' moves elsewhere reuse them.
* **Solitaire bounds** (the compiled search, :mod:`.endgame_kernel`). A colour that shares
  its reach scores no more than its best solitaire layout, the one it would make if every
  other colour passed from now on: their moves only take cells from it (the same argument as
  the upper bound of :mod:`polytile.puzzles.blokus.bounds`). Where a colour's reach bound is
  a little above the score that would settle a node, a null-window solitaire asks whether it
  can get above that score at all.
* **A transposition table** over :meth:`~polytile.puzzles.blokus.rules.Blokus.state_key`, so
  move orders that reach one position are searched once (the facts above are kept per
  position too); and move ordering: the table's best move, then the placements covering the
  most contested cells (cells two colours may still take), then bigger pieces.

The principal variation is replayed by the rules engine, and the final scores it reaches
must equal the value found, before anything is returned (else
:class:`~polytile.errors.SolverError`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.errors import SolverError
from polytile.puzzles.blokus import kernels
from polytile.puzzles.blokus._endgame_limits import (
    COMPILED_MODULE,
    DEFAULT_MAX_PIECES,
    PYTHON_FIRST,  # fmt: skip
    PYTHON_FIRST_LOADED,
)
from polytile.puzzles.blokus.endgame_kernel import KernelTables  # cheap: no numba
from polytile.puzzles.blokus.endgame_result import (
    Endgame,
    EndgameRefused,
    EndgameStopped,
    Line,
    Proven,
)
from polytile.puzzles.blokus.game import BlokusGame
from polytile.puzzles.blokus.moves import pack_cells, placement_table
from polytile.puzzles.blokus.reach import reach_arrays
from polytile.puzzles.blokus.rules import COLOR_NAMES, PIECE_NAMES, PIECE_SIZES, Blokus, Move
from polytile.puzzles.blokus.scoring import ALL_PLACED_BONUS, I1_LAST_BONUS, player_names
from polytile.puzzles.game import State
from polytile.solvers.alphabeta import Hooks, Objective, SearchStopped, alphabeta

__all__ = [
    "DEFAULT_MAX_PIECES",
    "Endgame",
    "EndgameRefused",
    "EndgameStopped",
    "Line",
    "Proven",
    "endgame_size",
    "score_ranges",
    "solve_endgame",
]

_SIZES = np.array(PIECE_SIZES, dtype=np.int64)
_I1 = PIECE_NAMES.index("I1")
_INF = 10**6
_PENDING = -3  # an independent colour whose solitaire is not searched yet


# -- per-colour facts at a node ---------------------------------------------------------------
class _Colors:
    """Static facts of the game: colour codes, start cells, players."""

    def __init__(self, game: Blokus) -> None:
        self.n = game.size
        self.colors = game.colors
        self.k = len(self.colors)
        self.codes = [COLOR_NAMES.index(c) + 1 for c in self.colors]
        self.starts = [r * self.n + c for r, c in (game.variant.starts[x] for x in self.colors)]
        self.players = player_names(game.players, game.variant.name)
        self.owner = []  # player index of each colour (-1: green with 3 players, no owner)
        for color in self.colors:
            mine = [i for i, name in enumerate(self.players) if color in name.split("+")]
            self.owner.append(mine[0] if mine else -1)

    def reach(
        self, grid: npt.NDArray[np.uint8], ci: int, hand: npt.NDArray[np.uint8]
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8], int]:
        """Colour ``ci``'s reach on ``grid`` with ``hand`` (cells, pieces, number of cells);
        nothing once the hand is empty."""
        if not hand.any():
            return np.zeros(self.n * self.n, dtype=bool), hand, 0
        start = self.starts[ci] if hand.all() else -1
        return reach_arrays(grid, self.n, self.codes[ci], start, hand)

    def score_range(
        self, game: Blokus, grid: npt.NDArray[np.uint8], ci: int, hand: npt.NDArray[np.uint8]
    ) -> tuple[int, int, npt.NDArray[np.bool_]]:
        """Colour ``ci``'s score now, the most it can become, and its reach cells."""
        now = _now(hand, game.last_piece(self.colors[ci]) == "I1")
        cells, pieces, count = self.reach(grid, ci, hand)
        return now, _best(hand, pieces, count, now), cells


def _hands(game: Blokus) -> list[npt.NDArray[np.uint8]]:
    return [game.hand_mask(c) for c in game.colors]


def _now(hand: npt.NDArray[np.uint8], last_i1: bool) -> int:
    """The colour's score if the game ended now."""
    if not hand.any():
        return ALL_PLACED_BONUS + I1_LAST_BONUS * last_i1
    return -int((_SIZES * hand).sum())


def _best(hand: npt.NDArray[np.uint8], reach_pieces: npt.NDArray[np.uint8], cells: int,
          now: int) -> int:  # fmt: skip
    """The most the colour's score can still become (see the module notes)."""
    if not hand.any():
        return now
    held = int((_SIZES * hand).sum())
    reachable = int((_SIZES * reach_pieces).sum())
    if reachable == held and cells >= held:
        return ALL_PLACED_BONUS + I1_LAST_BONUS * int(hand[_I1])
    return now + min(reachable, cells)


# -- the search: hooks of the generic alpha-beta ----------------------------------------------
class _Hooks(Hooks):
    """Blokus's help for :func:`polytile.solvers.alphabeta.alphabeta`: reach bounds of the
    objective, independent colours' solitaire lines instead of their moves, bigger pieces
    first (see the module notes)."""

    def __init__(self, game: Blokus, weights: Sequence[int]) -> None:
        self.info = _Colors(game)
        self.weights = list(weights)
        self.table = placement_table(game.size)
        self.solo_memo: dict[bytes, tuple[int, int, bool]] = {}
        self.greedy_memo: dict[bytes, int] = {}
        self.facts_memo: dict[bytes, tuple[list[int], list[int], list[int], list[int],
                                           npt.NDArray[np.bool_]]] = {}  # fmt: skip
        self._node: bytes | None = None  # the key of the node being searched
        self._key: bytes | None = None  # the node whose facts are cached
        self._solo: list[int] = []
        self._contested = np.zeros(0, dtype=bool)  # cells two live colours may both take

    def key(self, state: State) -> bytes:
        board: Blokus = state.board  # type: ignore[attr-defined]
        self._node = board.state_key()
        return self._node

    # -- facts at the node -------------------------------------------------------------------
    def facts(self, g: Blokus) -> tuple[list[int], list[int], list[int], list[int]]:
        """(now, best, sure, solitaire first placement or -1 for an independent colour,
        :data:`_PENDING` before its solitaire is searched, else -2); ``sure`` is the least
        score the colour can make sure of (see the module notes).
        Kept per position: a position searched again (another window) reuses them."""
        hit = self.facts_memo.get(self._node) if self._node is not None else None
        if hit is not None:
            self._key, self._solo, self._contested = self._node, hit[3], hit[4]
            return hit[0], hit[1], hit[2], hit[3]
        info = self.info
        grid = g.grid_codes()
        hands = _hands(g)
        nows, bests, reaches = [], [], []
        for ci in range(info.k):
            now, best, cells = info.score_range(g, grid, ci, hands[ci])
            nows.append(now)
            bests.append(best)
            reaches.append(cells)
        sure = list(nows)
        solo = [-2] * info.k
        live = [ci for ci in range(info.k) if bests[ci] > nows[ci]]
        for ci in live:
            others = [reaches[cj] for cj in live if cj != ci]
            if all(not (reaches[ci] & r).any() for r in others):
                solo[ci] = _PENDING  # its solitaire is searched when the bounds need it
                sure[ci] = self._sure(g, ci, grid, hands[ci], reaches[ci], [])
            elif info.owner[ci] >= 0:
                sure[ci] = self._sure(g, ci, grid, hands[ci], reaches[ci], others)
        contested = np.zeros(info.n * info.n + 1, dtype=bool)  # + the -1 padding, False
        for i, ci in enumerate(live):
            for cj in live[i + 1 :]:
                contested[:-1] |= reaches[ci] & reaches[cj]
        self._key, self._solo, self._contested = self._node, solo, contested
        if self._node is not None:
            self.facts_memo[self._node] = (nows, bests, sure, solo, contested)
        return nows, bests, sure, solo

    def _sure(self, g: Blokus, ci: int, grid: npt.NDArray[np.uint8],
              hand: npt.NDArray[np.uint8], cells: npt.NDArray[np.bool_],
              others: list[npt.NDArray[np.bool_]]) -> int:  # fmt: skip
        """The least final score colour ``ci`` can make sure of: a greedy layout inside its
        territory (cells no other colour can ever cover: nothing can spoil it, and a colour
        that can place is never skipped), or when it is to move, its biggest legal
        placement now."""
        mine = cells.copy()
        for r in others:
            mine &= ~r
        sure = self._greedy(g, ci, hand, mine) if mine.any() else -_INF
        now = _now(hand, g.last_piece(g.colors[ci]) == "I1")
        if g.colors[ci] == g.to_move:
            placeable = g._placeable(ci)  # engine internals: indices
            if len(placeable):
                now += int(_SIZES[self.table.piece[placeable]].max())
        return max(sure, now)

    def bounds(self, state: State) -> tuple[float, float]:
        """The objective's least and greatest possible values (scores only grow). The
        solitaires of independent colours are searched only when the bounds without them
        do not already settle the search's window."""
        g: Blokus = state.board  # type: ignore[attr-defined]
        nows, bests, sure, solo = self.facts(g)
        lo, hi = self._range(bests, sure)
        if _PENDING in solo and lo < hi and self.window[0] < hi and lo < self.window[1]:
            self._resolve(g, nows, bests, sure, solo)
            lo, hi = self._range(bests, sure)
        return lo, hi

    def _range(self, bests: list[int], sure: list[int]) -> tuple[int, int]:
        lo = hi = 0
        for w, low, best in zip(self.weights, sure, bests, strict=True):
            lo += w * (low if w > 0 else best)
            hi += w * (best if w > 0 else low)
        return lo, hi

    def _resolve(self, g: Blokus, nows: list[int], bests: list[int], sure: list[int],
                 solo: list[int]) -> None:  # fmt: skip
        """Search the pending solitaires of the node (in place: the memo holds these lists)."""
        grid = g.grid_codes()
        for ci, first in enumerate(solo):
            if first == _PENDING:
                value, solo[ci] = self.solitaire(g, ci, grid, g.hand_mask(g.colors[ci]))
                nows[ci] = bests[ci] = sure[ci] = value

    def _greedy(
        self, g: Blokus, ci: int, hand: npt.NDArray[np.uint8], cells: npt.NDArray[np.bool_]
    ) -> int:
        """The final score of colour ``ci`` placing, again and again, its biggest legal
        placement inside ``cells`` (a layout, not the best one)."""
        t, k = self.table, self.info.k
        bits = g._bits  # engine internals: the engine's own bitboards, read only
        state = np.stack([bits[0], bits[1 + ci], bits[1 + k + ci]])
        inside = pack_cells(cells.reshape(self.info.n, self.info.n), t.words)
        last = g.last_piece(self.info.colors[ci])
        key = (bytes((ci, last == "I1")) + inside.tobytes() + (state & inside).tobytes()
               + hand.tobytes())  # fmt: skip
        hit = self.greedy_memo.get(key)
        if hit is None:
            hand = hand.copy()
            out = np.empty(len(t.piece), dtype=np.int64)
            while True:
                count = int(kernels.generate(t.masks, t.piece, t.cell_ptr, t.cell_placements,
                                     state[0], state[1], state[2], hand, out))  # fmt: skip
                moves = out[:count]
                moves = moves[~(t.masks[moves] & ~inside).any(axis=1)]
                if len(moves) == 0:
                    break
                p = int(moves[np.argmax(_SIZES[t.piece[moves]])])
                kernels.place(state, 0, 1, p, t.masks, t.edge_masks, t.corner_masks)
                hand[t.piece[p]] = 0
                last = PIECE_NAMES[t.piece[p]]
            hit = self.greedy_memo[key] = _now(hand, last == "I1")
        return hit

    def solitaire(self, g: Blokus, ci: int, grid: npt.NDArray[np.uint8],
                  hand: npt.NDArray[np.uint8]) -> tuple[int, int]:  # fmt: skip
        """Colour ``ci``'s best final score playing alone, and its first placement."""
        bits = g._bits  # engine internals: the engine's own bitboards, read only
        k = self.info.k
        state = np.stack([bits[0], bits[1 + ci], bits[1 + k + ci]])
        return self._solo_search(ci, state, grid.copy(), hand.copy(),
                                 g.last_piece(self.info.colors[ci]))  # fmt: skip

    def _solo_search(self, ci: int, state: npt.NDArray[np.uint64], grid: npt.NDArray[np.uint8],
                     hand: npt.NDArray[np.uint8], last: str | None,
                     floor: float = -_INF) -> tuple[int, int]:  # fmt: skip
        """(best final score, first placement) by branch and bound: exact when the score is
        above ``floor``, else only a bound no greater than ``floor``.

        Everything the colour can still place lies in its reach, so only the board inside
        the reach matters: the memo keys on that, and solitaires that differ only outside
        it (another colour's moves there) share their work."""
        info, t = self.info, self.table
        now = _now(hand, last == "I1")
        reach, pieces, cells = info.reach(grid, ci, hand)
        inside = pack_cells(reach.reshape(info.n, info.n), t.words)
        key = (bytes((ci, last == "I1")) + inside.tobytes() + (state & inside).tobytes()
               + hand.tobytes())  # fmt: skip
        hit = self.solo_memo.get(key)
        if hit is not None and (hit[2] or hit[0] <= floor):
            return hit[0], hit[1]
        self.tick()
        out = np.empty(len(t.piece), dtype=np.int64)
        count = int(kernels.generate(t.masks, t.piece, t.cell_ptr, t.cell_placements, state[0],
                             state[1], state[2], hand, out))  # fmt: skip
        moves = out[:count]
        if len(moves) == 0:
            self.solo_memo[key] = (now, -1, True)
            return now, -1
        ceiling = _best(hand, pieces, cells, now)
        if ceiling <= floor:
            self.solo_memo[key] = (ceiling, -1, False)
            return ceiling, -1
        moves = moves[np.argsort(-_SIZES[t.piece[moves]], kind="stable")]
        best, best_p = -_INF, -1
        for p in moves.tolist():
            after = state.copy()
            kernels.place(after, 0, 1, p, t.masks, t.edge_masks, t.corner_masks)
            cells_p = [x for x in t.flat[p].tolist() if x >= 0]
            piece = int(t.piece[p])
            grid[cells_p] = info.codes[ci]
            hand[piece] = 0
            value, _ = self._solo_search(ci, after, grid, hand, PIECE_NAMES[piece],
                                         max(floor, best))  # fmt: skip
            hand[piece] = 1
            grid[cells_p] = 0
            if value > best:
                best, best_p = value, p
                if best >= ceiling:
                    break
        self.solo_memo[key] = (int(best), best_p, best > floor)
        return int(best), best_p

    # -- moves -------------------------------------------------------------------------------
    def moves(self, state: State, hint: Any) -> list[Move]:
        """The moves to search: an independent colour's solitaire move only; else every
        placement, the table's move first, then those covering more contested cells, then
        bigger pieces."""
        g: Blokus = state.board  # type: ignore[attr-defined]
        t = self.table
        if self._key is None or self._key is not self._node:
            self._node = g.state_key()
            self.facts(g)
        ci = g.colors.index(g.to_move)
        if self._solo[ci] == _PENDING:
            self._resolve(g, *self.facts(g))
        solo_first = self._solo[ci]
        if solo_first >= -1:  # an independent colour: its solitaire line only
            if solo_first < 0:
                return [Move.pass_turn(g.to_move)]
            return [g._move(ci, solo_first)]
        placeable = g._placeable(ci)  # engine internals: indices, ascending
        if len(placeable) == 0:
            return [Move.pass_turn(g.to_move)]
        # Most contested cells first (cells another colour may also take: what the
        # opponent's reply will fight over), then bigger pieces.
        hot = self._contested[t.flat[placeable]].sum(axis=1)
        order = np.lexsort((-_SIZES[t.piece[placeable]], -hot))
        idx = placeable[order].tolist()
        first = -2 if hint is None or hint.piece is None else t.index.get(hint.cells, -2)
        if first in idx:
            idx.remove(first)
            idx.insert(0, first)
        return [g._move(ci, p) for p in idx]


def score_ranges(game: Blokus) -> dict[str, tuple[int, int]]:
    """Each colour's final score range from its reach alone (instant, never tight by
    search): (the score now, the most it can become)."""
    info = _Colors(game)
    grid = game.grid_codes()
    out = {}
    for ci, hand in enumerate(_hands(game)):
        now, best, _ = info.score_range(game, grid, ci, hand)
        out[info.colors[ci]] = (now, best)
    return out


def endgame_size(game: Blokus) -> dict[str, int]:
    """Pieces each player can still place (reachable, :mod:`polytile.puzzles.blokus.reach`),
    summed over its colours; green's with 3 players under ``"green"``."""
    info = _Colors(game)
    grid = game.grid_codes()
    sizes: dict[str, int] = {}
    for ci, hand in enumerate(_hands(game)):
        count = int(info.reach(grid, ci, hand)[1].sum())
        name = info.players[info.owner[ci]] if info.owner[ci] >= 0 else info.colors[ci]
        sizes[name] = sizes.get(name, 0) + count
    return sizes


def solve_endgame(
    game: Blokus,
    *,
    players: Sequence[str] | None = None,
    max_pieces: int | None = DEFAULT_MAX_PIECES,
    time_limit: float | None = 60.0,
    node_limit: int | None = None,
    progress: Callable[[int, float], None] | None = None,
    use_compiled: bool = True,
    tables: KernelTables | None = None,
    played: tuple[Move, Endgame] | None = None,
) -> Endgame:
    """Play the rest of ``game`` perfectly (see the module notes) and return the result.

    Parameters
    ----------
    game
        The position (not changed).
    players
        Max-own mode: the players to search (default: all, the player to move first).
        Ignored with 2 players.
    max_pieces
        Refuse when a player can still place more pieces than this (:func:`endgame_size`;
        default :data:`DEFAULT_MAX_PIECES`, also the command line's); None never refuses.
    time_limit, node_limit
        Stop with :class:`EndgameStopped` after this many seconds or positions, all
        searches together.
    progress
        Called now and then with (positions searched, seconds).
    use_compiled
        Switch to the compiled search (:mod:`polytile.puzzles.blokus.endgame_kernel`, not
        with 3 players) when the Python one has not finished within :data:`PYTHON_FIRST`
        seconds (:data:`PYTHON_FIRST_LOADED` once loaded). False keeps to Python.
    tables
        Where the compiled search keeps its tables for the next call, for positions of one
        game (:class:`~polytile.puzzles.blokus.endgame_kernel.KernelTables`).
    played
        A move of the player to move and the exact result of the position after it (as
        ``analyse`` has them, solving a record from its end): the mover can make sure of
        what that move leads to, so the compiled search starts from that bound and only
        refutes the moves that do worse. It changes how long the search takes, never its
        answer; ignored unless the move is legal here.

    Raises
    ------
    EndgameRefused
        When the position is too large.
    EndgameStopped
        When a limit is reached, or on KeyboardInterrupt.
    SolverError
        If a principal variation does not replay to the value found.
    ValueError
        For a player not in the game.
    """
    started = time.perf_counter()
    names = player_names(game.players, game.variant.name)
    two = len(names) == 2
    sizes = endgame_size(game)
    if max_pieces is not None and any(v > max_pieces for v in sizes.values()):
        counts = ", ".join(f"{k} {v}" for k, v in sizes.items())
        raise EndgameRefused(f"too large for an exact search: pieces still placeable per player "
                             f"({counts}); the limit is {max_pieces}")  # fmt: skip
    info = _Colors(game)
    objectives = _objectives(game, info, players)
    deadline = None if time_limit is None else started + time_limit
    known = _known(game, names, played)
    compiled = use_compiled and game.players != 3  # the shared green changes hands
    lines: dict[str, Line] = {}
    nodes = 0
    state = BlokusGame(game.variant.name, game.players).state_of(game.copy())
    for name, weights in objectives.items():
        me = names.index(name)

        # The player to move is read from the engine (the protocol's to_move would also ask
        # whether the game is over, which costs a move generation per colour).
        def maximizing(s: State, name: str = name) -> bool:
            return bool(s.board.player_to_move == name)  # type: ignore[attr-defined]

        objective = Objective(
            Objective.margin(0, 1).value if two else Objective.guaranteed(me).value,
            maximizing,
            "lead of the first player" if two else f"score {name} can make sure of",
        )
        hooks = _Hooks(game, weights)
        done = nodes

        def report(n: int, _: float, done: int = done) -> None:
            if progress is not None:
                progress(done + n, time.perf_counter() - started)

        left = None if deadline is None else max(1e-9, deadline - time.perf_counter())
        python = PYTHON_FIRST_LOADED if COMPILED_MODULE in sys.modules else PYTHON_FIRST
        first = left if not compiled else python if left is None else min(left, python)
        try:
            found = alphabeta(
                state,
                objective,
                hooks,
                time_limit=first,
                node_limit=None if node_limit is None else node_limit - nodes,
                progress=report,
            )
            value, pv = int(found.value), list(found.pv)
            nodes += found.nodes
        except SearchStopped as stop:
            nodes += stop.nodes
            solved = {} if two else lines  # max-own: the players searched before the stop
            if stop.reason != "time" or not compiled or first == left:
                raise EndgameStopped(stop.reason, nodes, time.perf_counter() - started,
                                     solved=solved) from None  # fmt: skip
            bound = known.get(name, (None, None))
            try:
                value, pv, more = _compiled_line(game, weights, [o == me for o in info.owner],
                                                 deadline, node_limit, nodes, started,
                                                 progress, tables, (name, two, info),
                                                 bound)  # fmt: skip
            except EndgameStopped as error:
                error.solved = dict(solved)
                raise
            nodes += more
        lines[name] = _checked_line(game, name, value, pv, weights)
    return Endgame(
        mode="difference" if two else "max-own",
        players=names,
        to_move=game.player_to_move,
        lines=lines,
        nodes=nodes,
        seconds=time.perf_counter() - started,
        placeable=sizes,
    )


def _objectives(game: Blokus, info: _Colors,
                players: Sequence[str] | None) -> dict[str, list[int]]:  # fmt: skip
    """The players to solve for, each with its objective's weight per colour: with 2
    players the first one alone (its lead: +1 its colours, -1 the other's); with 3 or 4,
    ``players`` (default all, the player to move first), each its own score (+1 its
    colours). ValueError for a name not of the game."""
    names, two = info.players, len(info.players) == 2
    if two:
        wanted = [names[0]]
    else:
        wanted = list(players) if players is not None else sorted(
            names, key=lambda name: name != game.player_to_move)  # fmt: skip
        for name in wanted:
            if name not in names:
                raise ValueError(f"{name!r} is not a player of this game; players: "
                                 f"{', '.join(names)}")  # fmt: skip
    return {name: [1 if o == names.index(name) else (-1 if two and o >= 0 else 0)
                   for o in info.owner] for name in wanted}  # fmt: skip


def _compiled_line(game: Blokus, weights: Sequence[int], maxer: Sequence[bool],
                   deadline: float | None, node_limit: int | None, done: int,
                   started: float, progress: Callable[[int, float], None] | None,
                   tables: KernelTables | None = None,
                   whose: tuple[str, bool, _Colors] | None = None,
                   known: tuple[int | None, int | None] = (None, None),
                   ) -> tuple[int, list[Move], int]:  # fmt: skip
    """One search by the compiled kernel after ``done`` positions: (value, line, positions
    it searched), or EndgameStopped with what it proved (``whose``: the objective's player,
    whether the game has two players, the colours)."""
    from polytile._warm import ensure_compiled

    try:  # Ctrl-C while numba loads (half a second) or the search is set up: a stop too
        # Compiled once after installing, in a process that outlives this command; the
        # command's clock stands still meanwhile, and the search's deadline moves on by as
        # much: a time limit is for the search.
        waited = ensure_compiled("blokus-endgame", None,
                                 lambda _: progress(done, time.perf_counter() - started)
                                 if progress is not None else None)  # fmt: skip
        if deadline is not None:
            deadline += waited
        from polytile.puzzles.blokus.endgame_kernel import KernelStopped, kernel_line
    except KeyboardInterrupt:
        raise EndgameStopped("interrupt", done, time.perf_counter() - started) from None

    def report(n: int) -> None:
        if progress is not None:
            progress(done + n, time.perf_counter() - started)

    try:
        return kernel_line(game, weights, maxer, deadline=deadline,
                           node_limit=None if node_limit is None else node_limit - done,
                           progress=report, tables=tables, known=known)  # fmt: skip
    except KeyboardInterrupt:  # before the search threads started
        raise EndgameStopped("interrupt", done, time.perf_counter() - started) from None
    except KernelStopped as stop:
        proven = None
        if stop.proven is not None and whose is not None:
            root, (player, two, info) = stop.proven, whose
            proven = Proven(player, "difference" if two else "max-own", root.lower, root.upper,
                            info.players[info.owner[info.colors.index(root.color)]],
                            root.raises,
                            root.passes + (() if root.move is None else (root.move,)),
                            root.bound)  # fmt: skip
        error = EndgameStopped(stop.reason, done + stop.nodes, time.perf_counter() - started,
                               proven=proven)  # fmt: skip
        if stop.preparing:
            error.args = (f"{error}: numba was still compiling the exact search, which "
                          "happens once after installing; run once with --time-limit 120 to "
                          "let it finish (later runs load it in about a second)",)  # fmt: skip
        raise error from None


Bounds = dict[str, tuple[int | None, int | None]]


def _known(game: Blokus, names: Sequence[str], played: tuple[Move, Endgame] | None) -> Bounds:
    """Per objective (its player's name), the bound on its value that a move and the exact
    result after it (``played``) prove: the player to move makes sure of at least (if it
    raises the objective) or at most (else) the value after its move."""
    if played is None:
        return {}
    move, after = played
    if move.is_pass or move.color != game.to_move:
        return {}
    try:
        game.copy().push(move)
    except ValueError:  # not legal here: no bound
        return {}
    mover = game.player_to_move
    known: Bounds = {}
    for name, line in after.lines.items():
        raises = mover == name if len(names) > 2 else mover == names[0]
        known[name] = (line.value, None) if raises else (None, line.value)
    return known


def _checked_line(game: Blokus, player: str, value: int, pv: Sequence[Move],
                  weights: Sequence[int]) -> Line:  # fmt: skip
    """Replay ``pv`` with the rules engine; its final scores must give ``value``."""
    check = game.copy()
    for move in pv:
        check.push(move)
    if not check.is_game_over():
        raise SolverError("the principal variation stops before the end of the game")
    sheet = check.score()
    scores = {c: sheet.colors[c].total for c in game.colors}
    reached = sum(w * scores[c] for w, c in zip(weights, game.colors, strict=True))
    if reached != value:
        raise SolverError(f"the principal variation for {player} ends at {reached}, "
                          f"not at the value {value}")  # fmt: skip
    return Line(player, value, tuple(pv), scores, dict(sheet.player_totals))

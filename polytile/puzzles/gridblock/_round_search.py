"""The rest of a Gridblock round as a perfect-information game, and the search hooks that
keep it small (private; used by :mod:`polytile.puzzles.gridblock.endgame` and ``view``).

:class:`RoundState` wraps the rules engine's :class:`~polytile.puzzles.gridblock.rules.Gridblock`
under the game protocol, with the round's last turn (or an instant win) as the end of the
game. Its objective (:class:`RoundObjective`) is a sum over tiles in the additive modes (the
team margin, a player's own score) and the two weaker colours' difference under
``two_player_score="weaker"``.

Three facts of the rules keep the search exact and small (:class:`RoundHooks`):

* Corners are interchangeable. Scores and legal moves see only how many cubes of each colour
  a tile holds and how many corners are free, never which corner: a state is keyed by those
  counts (and by the movers and cards of the colours with cards left), and one corner per
  tile is searched, the lowest free one.
* A colour's cube changes one tile only: the bounds of
  :mod:`~polytile.puzzles.gridblock._round_bounds`, from the tiles each colour alone can
  still reach, decide most positions a few turns from the end of the round.
* A colour's last card ends its part in the round. Every move whose tile no other colour can
  reach (a discard, or a cube where nobody else comes) changes the value by its own effect
  only, so only the best such move is searched.

Under ``instant_win`` a cube can end the round at once, which no sum over tiles sees: the
bounds are used only while no colour can still get three corners of a tile whose fourth is
not another colour's, and the last-card pruning is off.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from functools import cache
from typing import Any

from polytile.errors import IllegalMoveError
from polytile.puzzles.game import (
    TERMINAL,
    ChanceMode,
    Dynamics,
    Game,
    Information,
    State,
    Traits,
    Utility,
)
from polytile.puzzles.gridblock._round_bounds import (
    P5,
    PerSlot,
    Share,
    layout_of,
    targets,
    tile_table,
    value_bounds,
)
from polytile.puzzles.gridblock.grid import Card, end_tiles
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import INSTANT_WIN, TURNS_PER_ROUND, Gridblock
from polytile.solvers.alphabeta import Hooks, Objective

__all__ = [
    "PinnedHooks",
    "RoundGame",
    "RoundHooks",
    "RoundObjective",
    "RoundState",
    "objective_for",
    "round_end",
]


def round_end(g: Gridblock) -> int:
    """The step at which the current round is over."""
    k = len(g.colors)
    return k + (g.round + 1) * TURNS_PER_ROUND * k


@cache
def objective_for(k: int, players: int, two_player_score: str, player: int = 0) -> RoundObjective:
    """The :class:`RoundObjective` of these parameters, one per process (its tables are built
    once, and its caches serve every search)."""
    return RoundObjective(k, players, two_player_score, player)


class RoundObjective:
    """What a round is solved for, and who raises it.

    ``mode`` is ``"margin"`` (2 players, sum: blue+red minus yellow+green), ``"weaker"``
    (2 players: the lower of blue and red minus the lower of yellow and green) or
    ``"guaranteed"`` (3-4 players: ``player``'s score, everyone else lowering it). An instant
    win (option 7.4) ends the game with a winner whatever the points: it is worth
    :data:`~polytile.puzzles.gridblock.rules.INSTANT_WIN` to the winning side and
    -:data:`~polytile.puzzles.gridblock.rules.INSTANT_WIN` to the other with 2 players, and
    :data:`~polytile.puzzles.gridblock.rules.INSTANT_WIN` to ``player`` winning with 3-4 (a
    win by another leaves its points); no points are added to it, so every win is as good
    as another (:meth:`Gridblock.returns` adds the points, and :meth:`of_board` reads it so).
    """

    def __init__(self, k: int, players: int, two_player_score: str, player: int = 0) -> None:
        self._args = (k, players, two_player_score, player)
        self.k, self.player = k, player
        if players == 2:
            self.mode = "weaker" if two_player_score == "weaker" else "margin"
            self.weights = tuple(1 if s % 2 == 0 else -1 for s in range(k))
            self.maximizers = tuple(s % 2 == 0 for s in range(k))
        else:
            self.mode = "guaranteed"
            self.weights = tuple(1 if s == player else 0 for s in range(k))
            self.maximizers = tuple(s == player for s in range(k))
        table = tile_table(k)
        self.points = table
        #: Per tile code, the tile's share of the objective (additive modes).
        self.m = tuple(sum(w * p for w, p in zip(self.weights, row, strict=True))
                       for row in table)  # fmt: skip
        self.shares = ([Share(self.m, k)] if self.additive else
                       [Share([row[x] for row in table], k) for x in range(k)])  # fmt: skip

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Worker processes rebuild it from its parameters (and share it) rather than
        # receiving its tables.
        return objective_for, self._args

    @property
    def additive(self) -> bool:
        """True when the objective is a sum over tiles (all but ``"weaker"``)."""
        return self.mode != "weaker"

    def of_codes(self, codes: Sequence[int], winner: int | None) -> int:
        """The objective of tile codes ``codes`` and an instant winner (a player) or None."""
        won = self.win_value(winner)
        if won is not None:
            return won
        if self.mode == "weaker":
            per = [sum(self.points[c][s] for c in codes) for s in range(self.k)]
            return min(per[0], per[2]) - min(per[1], per[3])
        return sum(self.m[c] for c in codes)

    def win_value(self, winner: int | None) -> int | None:
        """The value of a game won at once by ``winner`` (a player), or None when it is
        not decided so (no winner, or another player's win with 3-4 players: its points)."""
        if winner is None:
            return None
        if self.mode != "guaranteed":
            return INSTANT_WIN if winner == 0 else -INSTANT_WIN
        return INSTANT_WIN if winner == self.player else None

    def of_board(self, board: Gridblock) -> float:
        """The same value of the engine's state ``board``, from :meth:`Gridblock.returns`
        (which adds the points to a win: left out here)."""
        won = self.win_value(board.winner)
        if won is not None:
            return won
        returns = board.returns()
        if self.mode == "guaranteed":
            return returns[self.player]
        return returns[0] - returns[1]

    def as_objective(self) -> Objective:
        """For :func:`polytile.solvers.alphabeta.alphabeta`."""
        names = {"margin": "blue+red minus yellow+green",
                 "weaker": "the weaker of blue and red minus the weaker of yellow and green",
                 "guaranteed": f"the score player {self.player} can make sure of"}  # fmt: skip
        # The search reads final values from RoundHooks.final (tile codes); this one, which
        # replays of the lines use, asks the engine.
        return Objective(lambda s: float(self.of_board(s.board)),  # type: ignore[attr-defined]
                         lambda s: self.maximizers[s.board.to_move_slot],  # type: ignore[attr-defined]
                         names[self.mode])  # fmt: skip


class RoundGame(Game):
    """The rest of one Gridblock round with every hand shown: sequential, deterministic,
    perfect information. Returns are the engine's (:meth:`Gridblock.returns`)."""

    name = "gridblock-round"
    long_name = "Gridblock (one round, cards shown)"

    def __init__(self, players: int = 2) -> None:
        self.players = players

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.DETERMINISTIC, Information.PERFECT,
                      Utility.GENERAL_SUM, 2, 4)  # fmt: skip

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def parameters(self) -> dict[str, Any]:
        return {"players": self.players}

    def new_initial_state(self, seed: Any = None) -> State:
        raise NotImplementedError("a round state is made from a game in progress")

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)


class RoundState(State):
    """A Gridblock state whose game ends with the current round (or an instant win).

    Besides the engine (``board``) it keeps what the search reads at every node: each tile's
    code (cubes per colour), each colour's cards left this round, and the objective now.
    """

    game: RoundGame
    codes: list[int]  # per tile: sum of count[slot] * 5**slot
    full: int  # bitmask of the tiles with no free corner
    rem: list[tuple[Card, ...]]  # per slot: the cards left this round, ascending

    def __init__(self, board: Gridblock, objective: RoundObjective, end: int | None = None,
                 _copy: RoundState | None = None) -> None:  # fmt: skip
        self.game = RoundGame(board.options.players)
        self.board, self.objective = board, objective
        self.end = round_end(board) if end is None else end
        #: The hooks' per-position facts (each colour's reach, the live tiles), until a move.
        self.memo: Any = None
        if _copy is not None:
            self.codes, self.full, self.rem = list(_copy.codes), _copy.full, list(_copy.rem)
            return
        k = len(board.colors)
        self.codes = [0] * 36
        full = 0
        for t in range(36):
            for q in range(4):
                c = board.corners[4 * t + q]
                if c >= 0:
                    self.codes[t] += P5[board.colors.index(c)]
            if all(c >= 0 for c in board.corners[4 * t : 4 * t + 4]):
                full |= 1 << t
        self.full = full
        self.rem = [board.hand(s) for s in range(k)]

    # -- the protocol --------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return TERMINAL if self.is_over() else self.board.to_move

    def is_over(self) -> bool:
        return self.board.winner is not None or self.board.step >= self.end

    def legal_moves(self, player: int | None = None) -> list[Any]:
        return [] if self.is_over() else self.board.legal_moves()

    def push(self, move: Any) -> None:
        if self.is_over():
            raise IllegalMoveError(f"illegal move {move}: the round is over")
        slot = self.board.to_move_slot
        self.board.push(move)
        self._after(slot, move, 1)

    def push_legal(self, move: Any) -> None:
        slot = self.board.to_move_slot
        self.board.push_legal(move)
        self._after(slot, move, 1)

    def pop(self) -> Any:
        move = self.board.pop()
        self._after(self.board.to_move_slot, move, -1)
        return move

    def _after(self, slot: int, move: Move, sign: int) -> None:
        self.memo = None
        rem, card = self.rem[slot], move.card
        if card is None:
            raise IllegalMoveError("a round has no set-up moves")
        if sign > 0:
            i = rem.index(card)
            self.rem[slot] = rem[:i] + rem[i + 1 :]
        else:
            self.rem[slot] = tuple(sorted((*rem, card)))
        if move.corner is not None:
            t = move.tile
            self.codes[t] += sign * P5[slot]
            if sign > 0 and all(c >= 0 for c in self.board.corners[4 * t : 4 * t + 4]):
                self.full |= 1 << t
            elif sign < 0:
                self.full &= ~(1 << t)

    def returns(self) -> tuple[float, ...]:
        return self.board.returns()

    def value_now(self) -> int:
        """The objective as if the round ended now (its value once it is over)."""
        return self.objective.of_codes(self.codes, self.board.winner)

    def state_key(self) -> Hashable:
        """Tile codes (not corners), the step, and the cards and movers of the colours with
        cards left (a mover with no card left this round no longer matters to the round)."""
        b = self.board
        return (tuple(self.codes), b.step, b.winner,
                tuple((b.mover[s] if r else -1, r) for s, r in enumerate(self.rem)))  # fmt: skip

    def clone(self) -> RoundState:
        return RoundState(self.board.copy(), self.objective, self.end, _copy=self)

    @property
    def history(self) -> list[Any]:
        return list(self.board.move_stack)


# -- the hooks ------------------------------------------------------------------------------
_ALL = (1 << 36) - 1


class RoundHooks(Hooks):
    """:class:`~polytile.solvers.alphabeta.Hooks` for :class:`RoundState` (module notes)."""

    def __init__(self, layout: Sequence[int], use_bounds: bool = True,
                 prune_last: bool = True) -> None:  # fmt: skip
        self.lay = layout_of(tuple(layout))
        self.use_bounds, self.prune_last = use_bounds, prune_last
        self._moves: dict[tuple[Card, int, int | None], Move] = {}

    def reach(self, st: RoundState) -> tuple[PerSlot, int]:
        """Per colour with cards left, the tiles it can still put a cube on (and per card);
        and the live tiles, whose share of the value can still change (cached until the
        next move).

        Every tile is live but with 3-4 players, where a tile counts for the player whose
        score is searched only if it can still put a cube there, or holds exactly two of its
        cubes and a free corner (another colour's second cube there would cost it its pair
        bonus); a tile with one or three of its cubes, or none, keeps its points. Without an
        instant win in the game, a colour none of whose reachable tiles is live can change
        nothing that counts: its moves are all alike."""
        if st.memo is not None:
            return st.memo
        per_slot = {s: targets(st, self.lay, s) for s, r in enumerate(st.rem) if r}
        live = _ALL
        obj = st.objective
        if obj.mode == "guaranteed" and not st.board.options.instant_win:
            p = obj.player
            live = per_slot[p][0] if p in per_slot else 0
            for t, code in enumerate(st.codes):
                if (code // P5[p]) % 5 == 2 and not st.full >> t & 1:
                    live |= 1 << t
        st.memo = (per_slot, live)
        return per_slot, live

    def key(self, state: State) -> Hashable:
        """The tile codes of the live tiles, the points of the others, the step, and the
        movers and cards of the colours that can still change something (see
        :meth:`reach`): states with one key have one value."""
        st: RoundState = state  # type: ignore[assignment]
        per_slot, live = self.reach(st)
        b = st.board
        frozen = 0  # the points of the tiles that are not live, which stay as they are
        if live == _ALL:
            codes = tuple(st.codes)
        else:
            m = st.objective.m
            codes = tuple(c if live >> t & 1 else 0 for t, c in enumerate(st.codes))
            frozen = sum(m[c] for t, c in enumerate(st.codes) if not live >> t & 1)
        who = tuple((b.mover[s], st.rem[s]) if per_slot[s][0] & live else None
                    for s in per_slot)  # fmt: skip
        return codes, live, frozen, b.step, tuple(per_slot), who

    def final(self, state: State) -> float | None:
        st: RoundState = state  # type: ignore[assignment]
        return float(st.value_now()) if st.is_over() else None

    def bounds(self, state: State) -> tuple[float, float] | None:
        if not self.use_bounds:
            return None
        st: RoundState = state  # type: ignore[assignment]
        b = value_bounds(st, self.lay, self.reach(st)[0])
        return None if b is None else (float(b[0]), float(b[1]))

    def _move(self, card: Card, tile: int, corner: int | None) -> Move:
        key = (card, tile, corner)
        m = self._moves.get(key)
        if m is None:
            m = self._moves[key] = Move(card, tile, corner)
        return m

    def moves(self, state: State, hint: Any) -> Iterable[Any]:
        st: RoundState = state  # type: ignore[assignment]
        if st.is_over():
            return ()
        b = st.board
        slot = b.to_move_slot
        rem = st.rem[slot]
        lay = self.lay.layout
        m = st.objective.m
        step = P5[slot]
        scored: list[tuple[int, Move]] = []
        for card in sorted(set(rem)):
            for e in end_tiles(b.mover[slot], card[1]):
                if lay[e] == card[0] and not st.full >> e & 1:
                    q = b.corners.index(-1, 4 * e, 4 * e + 4) - 4 * e
                    d = m[st.codes[e] + step] - m[st.codes[e]]
                    scored.append((d, self._move(card, e, q)))
                else:
                    scored.append((0, self._move(card, e, None)))
        maximize = st.objective.maximizers[slot]
        per_slot, live = self.reach(st)
        if self.prune_last and not per_slot[slot][0] & live:
            return [scored[0][1]]  # nothing this colour does can change the value
        if len(rem) == 1 and self.prune_last and not b.options.instant_win:
            scored = self._last_card(st, slot, scored, maximize)
        scored.sort(key=lambda x: -x[0] if maximize else x[0])
        out = [mv for _, mv in scored]
        if hint is not None and hint in out:
            out.remove(hint)
            out.insert(0, hint)
        return out

    def _last_card(self, st: RoundState, slot: int, scored: list[tuple[int, Move]],
                   maximize: bool) -> list[tuple[int, Move]]:  # fmt: skip
        """Keep the moves on tiles another colour can still reach, and the best of the rest.

        The rest are quiet: nobody touches their tile again and this colour has no turn
        left this round, so each changes the colours' final points by its own change of
        them, whatever follows. With an additive objective the quiet move with the best
        change of it is as good as any; under ``"weaker"`` the quiet moves whose change of
        some colour's points is better for the mover are all kept (the undominated ones)."""
        others = 0
        for s, (union, _) in self.reach(st)[0].items():
            if s != slot:
                others |= union
        keep: list[tuple[int, Move]] = []
        quiet: list[tuple[int, Move]] = []
        for d, mv in scored:
            if mv.corner is not None and others >> mv.tile & 1:
                keep.append((d, mv))
            else:
                quiet.append((d, mv))
        if not quiet:
            return keep
        obj = st.objective
        if obj.additive:
            return [*keep, max(quiet, key=lambda x: x[0] if maximize else -x[0])]
        # Per quiet move, each colour's change, signed so that more is better for the mover.
        sign = [1 if obj.maximizers[s] == maximize else -1 for s in range(len(st.rem))]
        step = P5[slot]
        table = obj.points
        vecs: dict[tuple[int, ...], tuple[int, Move]] = {}
        for d, mv in quiet:
            if mv.corner is None:
                vec = (0,) * len(sign)
            else:
                c = st.codes[mv.tile]
                vec = tuple(g * (a - b) for g, a, b in zip(sign, table[c + step], table[c],
                                                           strict=True))  # fmt: skip
            vecs.setdefault(vec, (d, mv))
        for vec, item in vecs.items():
            if not any(o != vec and all(x >= y for x, y in zip(o, vec, strict=True))
                       for o in vecs):  # fmt: skip
                keep.append(item)
        return keep


class PinnedHooks(RoundHooks):
    """:class:`RoundHooks` for a search whose first position's value is already proven
    (``value``, at step ``step``): that position answers with it at once, and the search's
    line is then read off with narrow windows only, much cheaper than solving it again.

    Used to find a line for every optimal move another search has listed: the line is what
    gets checked (replayed through the engine to the value), so nothing rests on the pin.
    """

    def __init__(self, layout: Sequence[int], step: int, value: int) -> None:
        super().__init__(layout)
        self.step, self.value = step, float(value)

    def bounds(self, state: State) -> tuple[float, float] | None:
        st: RoundState = state  # type: ignore[assignment]
        if st.board.step == self.step:  # only the first position: every other is deeper
            return self.value, self.value
        return super().bounds(state)

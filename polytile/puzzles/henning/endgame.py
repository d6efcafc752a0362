"""City Blocks (Henning): exact endgames, once every tile is known.

When both reserves are empty each hand is known by elimination, so the rest of the game has
perfect information (``seeds/cityblocks-henning.md``, 7.2). :func:`solve_endgame` then finds
its exact value, blue's final money minus red's under best play by both, with every optimal
move of the player to move and a principal variation, by the shared alpha-beta
(:func:`polytile.solvers.alphabeta.alphabeta`) with this game's hooks: sound margin bounds
(:func:`~polytile.puzzles.henning.bounds.value_bounds`), a transposition key that forgets
what no longer matters and promising moves first. Any full position can be solved the same
way ("open" analysis: the hidden part taken as given), which the caller must say.

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> from polytile.puzzles.henning.players import self_play
>>> g = Henning.new(seed=3)
>>> _ = self_play(g, seed=3)
>>> while g.empty < 2:
...     _ = g.pop()
>>> r = solve_endgame(g, open_analysis=True)  # the reserves still hide a tile or two
>>> r.open, r.value == r.pv_margin, r.outcome in ("blue wins", "red wins", "draw")
(True, True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from polytile.errors import PolytileError
from polytile.puzzles.game import State
from polytile.puzzles.henning.bounds import iter_search_moves, search_key, value_bounds
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.henning.moves import Move
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.tiles import PLAYER_NAMES
from polytile.solvers.alphabeta import Hooks, Objective, ProvenBounds, SearchStopped, alphabeta

__all__ = ["LEAD", "EndgameStopped", "HenningEndgame", "HiddenTilesError", "solve_endgame"]

#: Whose lead an exact value is (``polytile solve-endgame``, ``analyse``, stored answers).
LEAD = "blue's final money minus red's"


class HiddenTilesError(PolytileError, ValueError):
    """The position still has hidden tiles (a reserve is not empty) and open analysis was not
    asked for."""


class EndgameStopped(PolytileError, RuntimeError):
    """The exact search stopped (time or node limit, or an interrupt) before its answer."""

    def __init__(self, reason: str, nodes: int, seconds: float,
                 proven: ProvenBounds | None = None) -> None:  # fmt: skip
        what = {"time": "its time limit", "nodes": "its node limit", "interrupt": "an interrupt",
                "stop": "a stop request"}[reason]  # fmt: skip
        super().__init__(f"the exact search stopped at {what} after {nodes:,} positions "
                         f"({seconds:.1f} s) without an answer")  # fmt: skip
        self.reason, self.nodes, self.seconds = reason, nodes, seconds
        #: What it had proven of blue's final margin before it stopped.
        self.proven = proven


@dataclass(frozen=True)
class HenningEndgame:
    """An exact endgame value.

    Attributes
    ----------
    value
        Blue's final money minus red's under best play by both.
    to_move
        The player to move (0 blue, 1 red).
    best_moves
        Every move of the player to move that keeps the value.
    pv
        A principal variation to the end, replayed by the rules engine.
    pv_margin
        The margin at the end of :attr:`pv` (equal to :attr:`value`).
    money
        Each player's final money at the end of :attr:`pv`.
    open
        True when the position still had hidden tiles, taken as given ("open" analysis).
    nodes, seconds
        Positions searched and time spent.
    over
        True when the game was already over: no move to make, :attr:`best_moves` and
        :attr:`pv` are empty and the value is the final margin.
    """

    value: int
    to_move: int
    best_moves: tuple[Move, ...]
    pv: tuple[Move, ...]
    pv_margin: int
    money: tuple[int, int]
    open: bool
    nodes: int
    seconds: float
    exact: bool = True
    over: bool = False

    @property
    def outcome(self) -> str:
        """``"blue wins"``, ``"red wins"`` or ``"draw"`` under best play."""
        if self.value == 0:
            return "draw"
        return f"{PLAYER_NAMES[0 if self.value > 0 else 1]} wins"

    def as_dict(self) -> dict[str, Any]:
        """As JSON (``polytile solve-endgame --json``)."""
        return {
            "game": "henning",
            "kind": "exact" if not self.open else "exact-open",
            "value": self.value,
            "lead": LEAD,
            "outcome": self.outcome,
            "to_move": PLAYER_NAMES[self.to_move],
            "best_moves": [str(m) for m in self.best_moves],
            "pv": [str(m) for m in self.pv],
            "final_money": dict(zip(PLAYER_NAMES, self.money, strict=True)),
            "open": self.open,
            "over": self.over,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


class _Hooks(Hooks):
    def key(self, state: State) -> Hashable:
        return search_key(state.board)  # type: ignore[attr-defined]

    def final(self, state: State) -> float | None:
        g: Henning = state.board  # type: ignore[attr-defined]
        return float(g.margin()) if g.empty == 0 else None

    def bounds(self, state: State) -> tuple[float, float]:
        return value_bounds(state.board)  # type: ignore[attr-defined]

    def moves(self, state: State, hint: Any) -> Iterable[Any]:
        g: Henning = state.board  # type: ignore[attr-defined]
        if g.is_over():
            return ()
        if hint is not None and g.illegality(hint) is not None:
            hint = None  # from a position with the same key but another dead block's owner
        return _Moves(g, hint)


class _Moves:
    """The moves of a position that is not over: the table's move first, the others
    scored and listed only when the search asks for them (many positions are cut off by
    their first move)."""

    __slots__ = ("g", "hint")

    def __init__(self, g: Henning, hint: Move | None) -> None:
        self.g, self.hint = g, hint

    def __bool__(self) -> bool:
        return True

    def __iter__(self) -> Iterator[Move]:
        if self.hint is not None:
            yield self.hint
        for move in iter_search_moves(self.g):
            if move != self.hint:
                yield move


def _margin(state: State) -> float:
    return float(state.board.margin())  # type: ignore[attr-defined]


def _blue_moves(state: State) -> bool:
    return bool(state.board.to_move == 0)  # type: ignore[attr-defined]


#: Blue's final money minus red's; blue raises it, red lowers it.
MARGIN = Objective(_margin, _blue_moves, "blue's money minus red's")


def solve_endgame(
    game: Henning,
    *,
    open_analysis: bool = False,
    time_limit: float | None = 60.0,
    node_limit: int | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> HenningEndgame:
    """The exact value of ``game`` played perfectly to the end (not changed).

    Parameters
    ----------
    game
        A full position.
    open_analysis
        Solve it even though a reserve still hides tiles, taking the hidden part as given
        (the answer is then exact for that deal only; :attr:`HenningEndgame.open` says so).
    time_limit, node_limit
        Stop with :class:`EndgameStopped` after this many seconds or positions.
    progress
        Called now and then with (positions, seconds).

    Raises
    ------
    HiddenTilesError
        If a reserve is not empty and ``open_analysis`` is False.
    EndgameStopped
        When a limit or Ctrl-C stops the search first.
    SolverError
        If the principal variation does not replay to the value.
    """
    hidden = game.reserve_size(0) > 0 or game.reserve_size(1) > 0
    if hidden and not open_analysis:
        raise HiddenTilesError(
            f"tiles are still hidden (reserves: blue {game.reserve_size(0)}, red "
            f"{game.reserve_size(1)}); the exact endgame starts once both reserves are empty "
            "(score the moves from the mover's view with --view, or analyse the full position "
            "as given with --open)"
        )
    started = time.perf_counter()
    state = HenningGame(open=True).state_of(game.copy())
    try:
        found = alphabeta(state, MARGIN, _Hooks(), all_best=True, time_limit=time_limit,
                          node_limit=node_limit, progress=progress)  # fmt: skip
    except SearchStopped as stop:
        raise EndgameStopped(stop.reason, stop.nodes, time.perf_counter() - started,
                             stop.proven) from None  # fmt: skip
    end = game.copy()
    for move in found.pv:
        end.push(move)
    return HenningEndgame(
        value=int(found.value),
        to_move=game.to_move,
        best_moves=tuple(found.optimal_moves or ()),
        pv=tuple(found.pv),
        pv_margin=end.margin(),
        money=(end.money_of(0), end.money_of(1)),
        open=hidden,
        nodes=found.nodes,
        seconds=time.perf_counter() - started,
        over=game.is_over(),
    )

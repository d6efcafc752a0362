"""Gridblock: the moves of the player to move scored from its view of the round.

A player sees the grid, the movers, every card played and its own colours' hands; it does
not see what the other colours still hold this round (except under the split deal in
rounds 2, 4 and 6, when every hand is known). :func:`evaluate_view` scores each legal move
of the player to move over every combination of the other colours' hands that agrees with
the cards they have played this round (each hand is 3 of its colour's 6 cards, so at most
20 per colour), each combination weighted by how many shuffles deal it. Each combination is
solved exactly to the end of the round (:func:`polytile.puzzles.gridblock.endgame.solve_round`'s
objective, search and hooks; every move's value checked by a replay through the engine), and
a move's score is the weighted average of its values
(:func:`polytile.solvers.sampling.evaluate_moves`: worker processes, a time limit, partial
results at Ctrl-C). When there are more combinations than ``max_exact`` (4 players: up to
8,000), a seeded sample of them is solved and each average comes with its standard error.

The average is **an estimate** ("average perfect-information value, not the game's value"):
it credits the player with knowing the hidden hands for the rest of the round. Results are
labelled ``"pimc-estimate"``; only when nothing is hidden are the scores exact values
(:attr:`ViewAnalysis.exact_values`). Later rounds' deals do not change a round's value, so
they are not averaged over.

The value of a move is, for the player to move: with 2 players its side's points minus the
other side's at the end of the round; with 3-4 players the points it can make sure of at the
end of the round against all the others.

Examples
--------
>>> from polytile.puzzles.gridblock.rules import Gridblock, Options
>>> g = Gridblock.new(seed=2, options=Options(players=2))
>>> _ = [g.push_legal(g.legal_moves()[-1]) for _ in range(4 + 9)]  # yellow's 3rd turn
>>> a = evaluate_view(g)
>>> a.evaluation.kind, a.evaluation.exact_average, a.consistent
('pimc-estimate', True, 4)
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations, product
from typing import Any

import numpy as np

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
from polytile.puzzles.gridblock._round_search import RoundHooks, RoundState
from polytile.puzzles.gridblock.endgame import (
    _check_round,
    hands_known,
    player_label,
    round_objective,
)
from polytile.puzzles.gridblock.grid import Card, card_name
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import COLOR_NAMES, Gridblock
from polytile.solvers.alphabeta import move_values
from polytile.solvers.parallel import Executor
from polytile.solvers.sampling import ViewEvaluation, evaluate_moves

__all__ = ["RoundView", "ViewAnalysis", "consistent_hands", "evaluate_view", "solve_moves"]


def consistent_hands(
    deck: Sequence[Card], played: Sequence[Card]
) -> list[tuple[tuple[Card, ...], float]]:
    """Every hand of 3 cards of ``deck`` that holds the cards ``played``, with its
    probability: the share of the 20 equally likely draws of 3 of the deck's 6 places that
    deal it, among those that hold ``played``.

    Examples
    --------
    >>> from polytile.puzzles.gridblock.grid import DEFAULT_DECK
    >>> len(consistent_hands(DEFAULT_DECK, [])), len(consistent_hands(DEFAULT_DECK, [(0, 1)]))
    (20, 10)
    """
    need = Counter(played)
    counts: Counter[tuple[Card, ...]] = Counter()
    for idx in combinations(range(len(deck)), 3):
        hand = tuple(sorted(deck[i] for i in idx))
        if not need - Counter(hand):
            counts[hand] += 1
    total = sum(counts.values())
    return [(hand, n / total) for hand, n in sorted(counts.items())]


class _ViewGame(Game):
    """One round of Gridblock as a player sees it: the other colours' hands hidden."""

    name = "gridblock-round-view"
    long_name = "Gridblock (one round, other hands hidden)"

    def __init__(self, players: int = 2) -> None:
        self.players = players

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.DETERMINISTIC, Information.IMPERFECT,
                      Utility.GENERAL_SUM, 2, 4)  # fmt: skip

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"players": self.players}

    def new_initial_state(self, seed: Any = None) -> State:
        raise NotImplementedError("a round view is made from a game in progress")

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)


class RoundView(State):
    """A full state seen by ``viewer``, the player to move: the other colours' current hands
    are what it does not know. :meth:`revealed` is the round with every hand shown, valued
    for ``viewer``."""

    def __init__(self, board: Gridblock, viewer: int) -> None:
        self.game = _ViewGame(board.options.players)
        self.board, self.viewer = board, viewer

    @property
    def to_move(self) -> int:
        return TERMINAL if self.is_over() else self.board.to_move

    def is_over(self) -> bool:
        return self.board.is_over()

    def legal_moves(self, player: int | None = None) -> list[Any]:
        return self.board.legal_moves()

    def push(self, move: Any) -> None:
        self.board.push(move)

    def pop(self) -> Any:
        return self.board.pop()

    def returns(self) -> tuple[float, ...]:
        return self.board.returns()

    def state_key(self) -> Hashable:
        return self.board.state_key()

    def clone(self) -> RoundView:
        return RoundView(self.board.copy(), self.viewer)

    def revealed(self) -> RoundState:
        b = self.board
        player = None if b.options.players == 2 else self.viewer
        return RoundState(b.copy(), round_objective(b, player))

    # -- what is hidden --------------------------------------------------------------------
    def hidden_slots(self, player: int) -> list[int]:
        """The colours (slots) whose hand this round ``player`` does not see."""
        b = self.board
        if hands_known(b):
            return []
        return [s for s in range(len(b.colors)) if b.options.player_of(b.colors[s]) != player]

    def _choices(self, player: int) -> list[list[tuple[tuple[Card, ...], float]]]:
        b = self.board
        r = b.round
        return [consistent_hands(b.decks[s], b.played[s][r]) for s in self.hidden_slots(player)]

    def _with(self, player: int, hands: Sequence[tuple[Card, ...]]) -> RoundView:
        b = self.board.copy()
        for s, hand in zip(self.hidden_slots(player), hands, strict=True):
            b.deals[s] = list(b.deals[s])
            b.deals[s][b.round] = hand
        return RoundView(b, self.viewer)

    def count_hidden_states(self, player: int) -> int:
        """How many hand combinations agree with ``player``'s view."""
        return math.prod(len(c) for c in self._choices(player))

    def hidden_states(self, player: int) -> Iterator[tuple[State, float]]:
        choices = self._choices(player)
        for combo in product(*choices):
            yield self._with(player, [h for h, _ in combo]), math.prod(w for _, w in combo)

    def sample_hidden(self, player: int, rng: np.random.Generator) -> State:
        hands = []
        for options in self._choices(player):
            i = int(rng.choice(len(options), p=[w for _, w in options]))
            hands.append(options[i][0])
        return self._with(player, hands)


def solve_moves(full: State, moves: Sequence[Any], deadline: float | None = None) -> list[float]:
    """Each move's exact value for the player to move at ``full`` (a
    :class:`~polytile.puzzles.gridblock._round_search.RoundState`, every hand shown): with 2
    players its side's margin at the end of the round, with 3-4 its guaranteed points. One
    search and table for all the moves; each value's line is replayed through the engine.
    Module-level, so worker processes can run it.

    Raises
    ------
    SearchStopped
        When the clock passes ``deadline`` (a ``time.time()``) first.
    """
    st: RoundState = full  # type: ignore[assignment]
    g, obj = st.board, st.objective
    limit = None if deadline is None else max(deadline - time.time(), 1e-3)
    values, _ = move_values(st, obj.as_objective(), RoundHooks(g.layout), moves,
                            time_limit=limit)  # fmt: skip
    sign = -1 if obj.mode != "guaranteed" and g.to_move == 1 else 1
    return [sign * v + 0.0 for v in values]  # + 0.0: no -0.0


@dataclass(frozen=True)
class ViewAnalysis:
    """The moves of the player to move scored over the hands it cannot see.

    Attributes
    ----------
    evaluation
        Each move's average exact value for the player, with its standard error, best first.
    player
        Whose view: the player to move.
    label
        Its name (``"blue+red"``, ``"yellow"``, ...).
    hidden
        The colours whose hands are averaged over.
    consistent
        How many hand combinations agree with the view.
    exact_values
        True when nothing is hidden (one combination): the scores are exact values.
    """

    evaluation: ViewEvaluation
    player: int
    label: str
    hidden: tuple[int, ...]
    consistent: int
    exact_values: bool

    def as_dict(self) -> dict[str, Any]:
        """As JSON, labelled ``"pimc-estimate"`` unless the values are exact."""
        doc = self.evaluation.as_dict()
        doc["note"] = "average perfect-information value, not the game's value"
        doc["player"] = self.label
        doc["hidden_colors"] = [COLOR_NAMES[c] for c in self.hidden]
        doc["consistent_states"] = self.consistent
        if self.exact_values:
            doc["kind"] = "exact"
            doc["note"] = "every hand is known: each move's exact value to the end of the round"
        return {"game": "gridblock", "analysis": "view", "exact_values": self.exact_values, **doc}


def evaluate_view(
    g: Gridblock,
    player: int | None = None,
    *,
    max_exact: int = 5000,
    samples: int = 200,
    seed: int | np.random.Generator | None = 0,
    time_limit: float | None = None,
    executor: Executor | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ViewAnalysis:
    """Score the legal moves of the player to move at ``g`` from its view (module notes).

    Parameters
    ----------
    g
        A full state; only the player's view of it is used.
    player
        Whose view; it must be the player to move (default).
    max_exact, samples, seed, time_limit, executor, stop, progress
        As :func:`polytile.solvers.sampling.evaluate_moves`.

    Raises
    ------
    ValueError
        During the set-up, once the game is over, or when ``player`` is not to move.
    SearchStopped
        When a limit or Ctrl-C stops the work before a single combination is solved.
    """
    _check_round(g)
    me = g.to_move if player is None else player
    if me != g.to_move:
        raise ValueError(f"it is {player_label(g, g.to_move)}'s turn; a view analysis scores "
                         "the moves of the player to move")  # fmt: skip
    view = RoundView(g.copy(), me)
    deadline = None if time_limit is None else time.time() + time_limit
    consistent = view.count_hidden_states(me)
    ev = evaluate_moves(view, me, partial(solve_moves, deadline=deadline), max_exact=max_exact,
                        samples=samples, seed=seed, time_limit=time_limit,
                        count=lambda s, p: s.count_hidden_states(p),  # type: ignore[attr-defined]
                        executor=executor, stop=stop, progress=progress)  # fmt: skip
    hidden = tuple(g.colors[s] for s, c in zip(view.hidden_slots(me), view._choices(me),
                                               strict=True) if len(c) > 1)  # fmt: skip
    return ViewAnalysis(ev, me, player_label(g, me), hidden, consistent,
                        consistent == 1 and ev.complete)  # fmt: skip


def describe_hands(g: Gridblock, player: int) -> str:
    """What ``player`` knows of the other colours' hands this round, in words."""
    view = RoundView(g, player)
    parts = []
    for s in view.hidden_slots(player):
        played = " ".join(card_name(c) for c in g.played[s][g.round]) or "nothing yet"
        n = len(consistent_hands(g.decks[s], g.played[s][g.round]))
        if n > 1:
            parts.append(f"{COLOR_NAMES[g.colors[s]]} played {played}: {n} possible hands")
    return "; ".join(parts) or "every hand is known"

"""Gridblock under the game protocol, with its hidden cards made explicit.

:class:`GridblockGame` is the description: its parameters are the rule options of section 7
of ``seeds/gridblock.md`` (``players``, ``two_player_score``, ``deal``, ``instant_win``).
Its states (:class:`GridblockState`) wrap the full state
:class:`~polytile.puzzles.gridblock.rules.Gridblock` (``state.board``), which holds every
card every colour will hold in every round.

What a player sees (:meth:`GridblockState.information_state`): the layout, the decks, the
corners and the movers, every card played so far (round by round, in order), the set-up
draws made so far, and the cards its own colours still hold this round. Under
``deal="split"`` the hands of rounds 2, 4 and 6 are open to everyone. Hidden from it: what
the other colours still hold this round (3 of their 6 cards, the ones played this round
among them) and every later round's deal, its own colours' included (under ``"split"`` a
colour's round 2, 4 or 6 hand follows from its hand of the round before).

:meth:`GridblockState.sample_hidden` draws a full state from those consistent with a view,
each as likely as the shuffles make it; :meth:`GridblockState.hidden_states` lists them
with their probabilities when there are at most :data:`MAX_LISTED`;
:meth:`GridblockState.count_hidden_states` counts them. Once no player has anything left to
learn (:meth:`GridblockState.is_open`), the rest is a perfect-information game.

Examples
--------
>>> g = GridblockGame(players=2, deal="split")
>>> s = g.new_initial_state(seed=3)
>>> g.num_players, g.player_names(), g.traits.perfect_information
(2, ('blue+red', 'yellow+green'), False)
>>> view = s.information_state(0)
>>> t = s.sample_hidden(0, np.random.default_rng(1))
>>> t.information_state(0) == view
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from typing import Any

import numpy as np

from polytile.puzzles.game import (
    ChanceMode,
    Dynamics,
    EngineState,
    Game,
    Information,
    State,
    Traits,
    Utility,
)
from polytile.puzzles.gridblock.grid import CORNERS, SYMBOLS, Card, card_name, tile_name
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import (
    COLOR_NAMES,
    INSTANT_WIN,
    ROUNDS,
    TURNS_PER_ROUND,
    Gridblock,
    Options,
)

__all__ = [
    "MAX_LISTED",
    "MAX_SCORE",
    "GridblockGame",
    "GridblockState",
    "hand_weights",
    "player_names",
]

#: :meth:`GridblockState.hidden_states` lists the consistent states only up to this many.
MAX_LISTED = 5000
#: The most one colour can score: 19 cubes and at most 12 bonus points (see
#: :mod:`polytile.puzzles.gridblock.solo`).
MAX_SCORE = 19 + 12


def player_names(options: Options) -> tuple[str, ...]:
    """The players' names: the colours, or ``"blue+red"`` and ``"yellow+green"`` with two."""
    if options.players == 2:
        return tuple("+".join(COLOR_NAMES[c] for c in options.colors if options.player_of(c) == p)
                     for p in range(2))  # fmt: skip
    return tuple(COLOR_NAMES[c] for c in options.colors)


class GridblockGame(Game):
    """Gridblock by André Heines: 2 to 4 players, hidden hands and future deals.

    Parameters
    ----------
    players, two_player_score, deal, instant_win
        The rule options (:class:`~polytile.puzzles.gridblock.rules.Options`).
    open
        Every card of every round shown to everyone (what a determinized state is solved as).

    Raises
    ------
    ValueError
        For an option value the rules do not have.
    """

    name = "gridblock"
    long_name = "Gridblock"

    def __init__(self, players: int = 4, two_player_score: str = "sum", deal: str = "shuffle",
                 instant_win: bool = False, open: bool = False) -> None:  # fmt: skip
        if not isinstance(instant_win, bool) or not isinstance(open, bool):
            raise ValueError("instant_win and open are True or False")
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"Gridblock is played by 2, 3 or 4 players, not {players!r}")
        self.options = Options(players, two_player_score, deal, instant_win)
        self.open = open

    @classmethod
    def of(cls, options: Options, open: bool = False) -> GridblockGame:
        """The description of a game played with ``options``."""
        return cls(options.players, options.two_player_score, options.deal,
                   options.instant_win, open)  # fmt: skip

    @property
    def traits(self) -> Traits:
        # The shuffles are drawn at the set-up and kept in the state (hidden from everyone
        # until their round), not chance nodes during play, as in City Blocks (Henning).
        seen = Information.PERFECT if self.open else Information.IMPERFECT
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.DETERMINISTIC, seen, Utility.GENERAL_SUM,
                      2, 4)  # fmt: skip

    @property
    def num_players(self) -> int:
        return self.options.players

    @property
    def parameters(self) -> Mapping[str, Any]:
        o = self.options
        return {"players": o.players, "two_player_score": o.two_player_score, "deal": o.deal,
                "instant_win": o.instant_win, "open": self.open}  # fmt: skip

    def revealed(self) -> GridblockGame:
        """The open game: every hand of every round shown."""
        return GridblockGame.of(self.options, open=True)

    def player_names(self) -> tuple[str, ...]:
        return player_names(self.options)

    def utility_range(self) -> tuple[float, float]:
        """From 0 to :data:`MAX_SCORE` per colour (twice that for a two-colour sum), plus
        :data:`~polytile.puzzles.gridblock.rules.INSTANT_WIN` when instant wins are on."""
        o = self.options
        high = 2 * MAX_SCORE if o.players == 2 and o.two_player_score == "sum" else MAX_SCORE
        return 0.0, float(high + (INSTANT_WIN if o.instant_win else 0))

    def max_game_length(self) -> int:
        """A set-up placement and 18 turns per colour."""
        return len(self.options.colors) * (1 + ROUNDS * TURNS_PER_ROUND)

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> GridblockState:
        """A seeded game (:meth:`Gridblock.new`): layout, set-up draws and every deal."""
        return GridblockState(self, Gridblock.new(seed, self.options))

    def state_of(self, board: Gridblock) -> GridblockState:
        """Wrap a full state (not copied).

        Raises
        ------
        ValueError
            If ``board`` is played with other options than this description.
        """
        if board.options != self.options:
            theirs, ours = (", ".join(f"{k}={v}" for k, v in vars(o).items())
                            for o in (board.options, self.options))  # fmt: skip
            raise ValueError(f"the state is played with other options ({theirs}) than the "
                             f"game ({ours})")  # fmt: skip
        return GridblockState(self, board)

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    # The move coding (OpenSpiel's actions): a set-up placement by tile and corner; then a
    # turn by card (symbol, value 1..3), end tile and the corner filled (or none: a cube
    # discarded). A walk's path is not part of a move.

    def num_distinct_moves(self) -> int:
        return _TURNS + len(SYMBOLS) * 3 * 36 * 5

    def move_index(self, move: Any) -> int:
        if move.card is None:
            return move.tile * 4 + move.corner
        symbol, value = move.card
        corner = 4 if move.corner is None else move.corner
        return _TURNS + ((symbol * 3 + value - 1) * 36 + move.tile) * 5 + corner

    def move_at(self, index: int, state: State) -> Move:
        if not 0 <= index < self.num_distinct_moves():
            raise ValueError(f"move index {index} is outside 0..{self.num_distinct_moves() - 1}")
        if index < _TURNS:
            return Move(None, index // 4, index % 4)
        card, rest = divmod(index - _TURNS, 36 * 5)
        tile, corner = divmod(rest, 5)
        return Move((card // 3, card % 3 + 1), tile, None if corner == 4 else corner)


#: The first index of a turn in the move coding (the set-up placements come first).
_TURNS = 36 * 4


def hand_weights(deck: Sequence[Card], played: Sequence[Card] = ()
                 ) -> list[tuple[tuple[Card, ...], float]]:  # fmt: skip
    """Every hand (3 cards, sorted) a shuffled ``deck`` can deal that holds ``played``, with
    its probability given that it does.

    Each of the 20 choices of 3 of the 6 cards is equally likely; a deck with two equal cards
    deals some hands in more ways than others.

    Examples
    --------
    >>> from polytile.puzzles.gridblock.grid import DEFAULT_DECK
    >>> len(hand_weights(DEFAULT_DECK)), len(hand_weights(DEFAULT_DECK, [(0, 1)]))
    (20, 10)
    >>> [round(w, 3) for _, w in hand_weights([(0, 1)] * 5 + [(1, 1)])]
    [0.5, 0.5]
    """
    return list(_hand_weights(tuple(deck), tuple(sorted(played))))


@cache
def _hand_weights(deck: tuple[Card, ...], played: tuple[Card, ...]
                  ) -> tuple[tuple[tuple[Card, ...], float], ...]:  # fmt: skip
    ways: Counter[tuple[Card, ...]] = Counter()
    need = Counter(played)
    for pick in combinations(range(len(deck)), 3):
        hand = tuple(sorted(deck[i] for i in pick))
        if not need - Counter(hand):
            ways[hand] += 1
    total = sum(ways.values())
    return tuple((hand, n / total) for hand, n in sorted(ways.items()))


@cache
def _cumulative(weights: tuple[float, ...]) -> np.ndarray:
    """The cumulative shares :meth:`numpy.random.Generator.choice` draws ``weights`` by:
    a draw is the index :meth:`numpy.ndarray.searchsorted` gives one ``rng.random()``
    (the same numbers ``choice`` gives, without its checks on every call)."""
    p = np.array(weights)
    p = p / p.sum()
    cdf = p.cumsum()
    cdf /= cdf[-1]
    return cdf


def _rest(deck: Sequence[Card], hand: Sequence[Card]) -> tuple[Card, ...]:
    """The 3 cards of ``deck`` not in ``hand`` (the next round's hand under ``split``)."""
    return tuple(sorted((Counter(deck) - Counter(hand)).elements()))


@dataclass(frozen=True)
class _Unknown:
    """One hidden part of a state: a colour's set-up draw (``round`` None) or its hand in
    ``round`` (and, when ``pair``, the round after it gets the other 3 cards); ``choices``
    are its possible values with their probabilities."""

    slot: int
    round: int | None
    pair: bool
    choices: tuple[tuple[Any, float], ...]


class GridblockState(EngineState):
    """A Gridblock state under the protocol; ``board`` is the full state."""

    game: GridblockGame
    board: Gridblock

    def revealed(self) -> GridblockState:
        return GridblockState(self.game.revealed(), self.board.copy())

    def is_open(self) -> bool:
        """True when every player knows the whole rest of the game (nothing it could still
        learn changes what happens)."""
        return all(self.count_hidden_states(p) == 1 for p in range(self.game.num_players))

    # -- hidden information ----------------------------------------------------------------
    def _mine(self, player: int) -> list[int]:
        """Slots of the colours ``player`` holds."""
        b = self.board
        return [s for s, c in enumerate(b.colors) if b.options.player_of(c) == player]

    def _open_round(self) -> bool:
        """True in rounds 2, 4 and 6 under ``split``: every hand is known."""
        b = self.board
        return b.options.deal == "split" and not b.is_setup and b.round % 2 == 1

    def _drawn(self) -> int:
        """How many colours' set-up draws are known (the colour to move has drawn)."""
        b = self.board
        return b.to_move_slot + 1 if b.is_setup and not b.is_over() else len(b.colors)

    def information_state(self, player: int) -> str:
        b = self.board
        names = self.game.player_names()
        over = b.is_over()
        where = "over" if over else (
            "set-up" if b.is_setup else f"round {b.round + 1}")  # fmt: skip
        who = "-" if over else COLOR_NAMES[b.to_move_color]
        shown = range(len(b.colors)) if self._open_round() else self._mine(player)
        layout = "".join(SYMBOLS[s] for s in b.layout)
        decks = "; ".join(f"{COLOR_NAMES[c]} " + " ".join(card_name(x) for x in b.decks[s])
                          for s, c in enumerate(b.colors))  # fmt: skip
        draws = " ".join(f"{COLOR_NAMES[b.colors[s]]} {SYMBOLS[b.setup_symbols[s]]}"
                         for s in range(self._drawn()))  # fmt: skip
        corners = " ".join("".join("-BYRG"[c + 1] for c in b.corners[4 * t : 4 * t + 4])
                           for t in range(36))  # fmt: skip
        movers = " ".join(f"{COLOR_NAMES[c]} " + (tile_name(b.mover[s]) if b.mover[s] >= 0
                          else "-") for s, c in enumerate(b.colors))  # fmt: skip
        played = "; ".join(
            f"{COLOR_NAMES[c]} "
            + " | ".join(" ".join(card_name(x) for x in r) for r in b.played[s])
            for s, c in enumerate(b.colors)
        )
        hands = "; ".join(f"{COLOR_NAMES[b.colors[s]]} " + (" ".join(
            card_name(x) for x in b.hand(s)) or "-") for s in shown)  # fmt: skip
        winner = "-" if b.winner is None else names[b.winner]
        return "\n".join([
            f"view of {names[player]}; step {b.step}/{b.total_steps}, {where}; to move: {who}",
            f"layout: {layout}",
            f"decks: {decks}",
            f"set-up draws: {draws}",
            f"corners ({' '.join(CORNERS)}): {corners}",
            f"movers: {movers}",
            f"played: {played}",
            f"hands: {hands}",
            f"instant winner: {winner}",
        ])  # fmt: skip

    def _unknowns(self, player: int) -> list[_Unknown]:
        """The hidden parts of the state for ``player``, each with its choices."""
        b = self.board
        if b.is_over():
            return []
        split = b.options.deal == "split"
        out: list[_Unknown] = []
        if b.is_setup:
            for s in range(self._drawn(), len(b.colors)):
                out.append(_Unknown(s, None, False, _setup_weights(b, s)))
            first_future = 0
        else:
            r = b.round
            first_future = r + 1
            mine = set(self._mine(player))
            if not self._open_round():
                for s in range(len(b.colors)):
                    if s not in mine:
                        choices = tuple(hand_weights(b.decks[s], b.played[s][r]))
                        out.append(_Unknown(s, r, split, choices))
        for s in range(len(b.colors)):
            for r in range(first_future, ROUNDS):
                if not (split and r % 2 == 1):  # under split an odd round follows the one before
                    out.append(_Unknown(s, r, split, tuple(hand_weights(b.decks[s]))))
        return out

    def _with(self, unknowns: Sequence[_Unknown], values: Sequence[Any]) -> GridblockState:
        b = self.board.copy()
        b.setup_symbols = list(b.setup_symbols)  # copy() shares it
        for u, value in zip(unknowns, values, strict=True):
            if u.round is None:
                b.setup_symbols[u.slot] = value
                continue
            b.deals[u.slot][u.round] = value
            if u.pair and u.round + 1 < ROUNDS:
                b.deals[u.slot][u.round + 1] = _rest(b.decks[u.slot], value)
        return GridblockState(self.game, b)

    def sample_hidden(self, player: int, rng: np.random.Generator) -> GridblockState:
        """A full state drawn from those consistent with ``player``'s view: the other colours'
        hands this round redrawn around the cards they played, later deals reshuffled, set-up
        draws still to come redrawn. The moves made stay on its move stack."""
        unknowns = self._unknowns(player)
        values = []
        for u in unknowns:
            cdf = _cumulative(tuple(w for _, w in u.choices))
            values.append(u.choices[int(cdf.searchsorted(rng.random(), side="right"))][0])
        return self._with(unknowns, values)

    def count_hidden_states(self, player: int) -> int:
        """How many distinct full states are consistent with ``player``'s view."""
        return math.prod(len(u.choices) for u in self._unknowns(player))

    def hidden_states(self, player: int) -> Iterator[tuple[State, float]] | None:
        """Every full state consistent with ``player``'s view with its probability, or None
        when there are more than :data:`MAX_LISTED`."""
        if self.count_hidden_states(player) > MAX_LISTED:
            return None
        return self._list_hidden(player)

    def _list_hidden(self, player: int) -> Iterator[tuple[State, float]]:
        unknowns = self._unknowns(player)
        for combo in product(*(u.choices for u in unknowns)):
            yield self._with(unknowns, [v for v, _ in combo]), math.prod(w for _, w in combo)


def _setup_weights(b: Gridblock, slot: int) -> tuple[tuple[int, float], ...]:
    """The symbols colour ``slot`` may draw at set-up, each as likely as its cards in the deck
    (only symbols some tile shows: a draw must name a tile to stand on)."""
    counts = Counter(s for s, _ in b.decks[slot] if s in b.layout)
    total = sum(counts.values())
    return tuple((s, n / total) for s, n in sorted(counts.items()))

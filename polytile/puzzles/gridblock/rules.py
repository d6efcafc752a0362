"""Gridblock: the full game state, set-up, rounds, moves, scoring and the options.

:class:`Gridblock` holds everything, the cards every colour will draw in every round
included (they come from the seed, or are given); what a player sees of it is the
information state of :mod:`polytile.puzzles.gridblock.game`. It makes and unmakes moves
(``push``/``pop``). The rules are those of ``seeds/gridblock.md``; section numbers refer to it.

Examples
--------
>>> g = Gridblock.new(seed=3)
>>> g.colors, g.to_move_color, g.is_setup
((0, 1, 2, 3), 0, True)
>>> m = g.legal_moves()[0]
>>> g.push(m); g.pop() == m
True
>>> g.play_random(seed=1) > 0 and g.is_over()
True
>>> sum(g.scores()) > 0
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from polytile.errors import IllegalMoveError
from polytile.puzzles.gridblock.grid import (
    CORNERS,
    DEFAULT_DECK,
    SYMBOLS,
    Card,
    card_name,
    end_tiles,
    is_walk,
    tile_name,
)
from polytile.puzzles.gridblock.moves import Move

__all__ = [
    "COLOR_NAMES",
    "INSTANT_WIN",
    "ROUNDS",
    "TURNS_PER_ROUND",
    "Gridblock",
    "Options",
    "tile_points",
    "tile_scores",
]

COLOR_NAMES = ("blue", "yellow", "red", "green")
ROUNDS, TURNS_PER_ROUND = 6, 3
#: Added to the return of the player who wins at once under ``instant_win`` (section 7.4).
INSTANT_WIN = 1000


@dataclass(frozen=True)
class Options:
    """The rule options of section 7.

    Attributes
    ----------
    players
        4, 3 or 2 (two colours each: blue+red against yellow+green).
    two_player_score
        ``"sum"`` (default) or ``"weaker"``: only the lower of a player's two colours counts.
    deal
        ``"shuffle"`` (default: a fresh 3 of 6 every round) or ``"split"`` (even rounds play
        the 3 cards the odd round before did not draw; they are open information).
    instant_win
        Three corners of a tile whose fourth is not another colour's win at once.
    """

    players: int = 4
    two_player_score: str = "sum"
    deal: str = "shuffle"
    instant_win: bool = False

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"Gridblock is played by 2, 3 or 4 players, not {self.players!r}")
        if self.two_player_score not in ("sum", "weaker"):
            raise ValueError(
                f"two_player_score is 'sum' or 'weaker', not {self.two_player_score!r}"
            )
        if self.deal not in ("shuffle", "split"):
            raise ValueError(f"deal is 'shuffle' or 'split', not {self.deal!r}")

    @property
    def colors(self) -> tuple[int, ...]:
        """The colours in play, in turn order."""
        return (0, 1, 2) if self.players == 3 else (0, 1, 2, 3)

    def player_of(self, color: int) -> int:
        """The player holding ``color``."""
        return color % 2 if self.players == 2 else color


def tile_scores(corners: Sequence[int], colors: Sequence[int]) -> dict[int, int]:
    """Each colour's points from the cubes and tile bonuses of section 5.

    Examples
    --------
    The worked example 8.3 (tiles P, Q and T):

    >>> tile_scores([0, 0, 0, 1] + [0, 0, 1, 1] + [0, 0, 2, -1], (0, 1, 2))
    {0: 10, 1: 3, 2: 1}

    Notes
    -----
    A tile's points depend on its four corners alone, so each of the 5**4 fillings is
    scored once and looked up after (the greedy playouts of the engine's search score
    every move this way).
    """
    total = [0, 0, 0, 0]
    it = iter(corners)
    for held in zip(it, it, it, it, strict=False):  # the tiles' corners, four at a time
        if held != _EMPTY:
            for c, n in enumerate(tile_points(held)):
                total[c] += n
    return {c: total[c] for c in colors}


_EMPTY = (-1, -1, -1, -1)


@cache
def tile_points(held: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Each colour's points (blue, yellow, red, green) from one tile whose corners hold
    ``held`` (a colour, or -1 for a free corner): a point a cube, +1 for the only colour
    with 2 cubes there, +2 for a colour with 3 or more."""
    points = [0, 0, 0, 0]
    counts = Counter(c for c in held if c >= 0)
    pairs = sum(1 for n in counts.values() if n == 2)
    for c, n in counts.items():
        points[c] = n + (2 if n >= 3 else 1 if n == 2 and pairs == 1 else 0)
    return points[0], points[1], points[2], points[3]


class Gridblock:
    """A Gridblock game state with everything known, future deals included.

    Make one with :meth:`new`.

    Parameters
    ----------
    layout
        The 36 tiles' symbols (indices into ``"ABCDEF"``), row-major.
    options
        The rule options.
    decks
        Each colour's 6 cards, per colour in play.
    setup_symbols
        The symbol each colour drew at set-up.
    deals
        Each colour's hand in each of the 6 rounds (3 cards each).

    Raises
    ------
    ValueError
        If the pieces do not fit together (wrong sizes, a hand not from the deck, a set-up
        symbol not on the grid).
    """

    def __init__(self, layout: Sequence[int], options: Options, decks: Sequence[Sequence[Card]],
                 setup_symbols: Sequence[int],
                 deals: Sequence[Sequence[Sequence[Card]]]) -> None:  # fmt: skip
        self.options = options
        self.colors = options.colors
        k = len(self.colors)
        self.layout = [int(s) for s in layout]
        if len(self.layout) != 36 or not all(0 <= s < 6 for s in self.layout):
            raise ValueError("a layout is 36 symbols A-F")
        self.decks = [tuple((int(s), int(v)) for s, v in d) for d in decks]
        if len(self.decks) != k or any(len(d) != 6 for d in self.decks):
            raise ValueError(f"each of the {k} colours needs a deck of 6 cards")
        self.setup_symbols = [int(s) for s in setup_symbols]
        for i, s in enumerate(self.setup_symbols):
            if s not in self.layout:
                raise ValueError(f"{COLOR_NAMES[self.colors[i]]} drew {SYMBOLS[s]} at set-up, "
                                 "which no tile shows")  # fmt: skip
        self.deals = [[tuple((int(s), int(v)) for s, v in hand) for hand in d] for d in deals]
        for i, d in enumerate(self.deals):
            if len(d) != ROUNDS or any(len(h) != 3 for h in d):
                raise ValueError("each colour needs 6 hands of 3 cards")
            for hand in d:
                if Counter(hand) - Counter(self.decks[i]):
                    raise ValueError(f"{COLOR_NAMES[self.colors[i]]}'s hand {hand} is not from "
                                     "its deck")  # fmt: skip
        self.corners = [-1] * 144
        self.mover = [-1] * k
        self.placed = [0] * k
        self.discarded = [0] * k
        self.played: list[list[list[Card]]] = [[[] for _ in range(ROUNDS)] for _ in range(k)]
        self.step = 0
        self.winner: int | None = None
        self._stack: list[tuple[Move, int, bool]] = []

    # -- set-up ------------------------------------------------------------------------------
    @classmethod
    def new(cls, seed: int | np.random.Generator | None = None, options: Options | None = None,
            layout: Sequence[int] | None = None,
            decks: Sequence[Sequence[Card]] | None = None) -> Gridblock:  # fmt: skip
        """A seeded game (sections 1.1, 2, 3.1 and 7.3): the layout (six of each symbol,
        shuffled) unless given, the set-up draws and every round's hands."""
        options = options or Options()
        rng = np.random.default_rng(seed)
        if layout is None:
            layout = [int(s) for s in rng.permutation(np.repeat(np.arange(6), 6))]
        k = len(options.colors)
        decks = [tuple(d) for d in (decks or [DEFAULT_DECK] * k)]
        setup = [decks[i][int(rng.integers(6))][0] for i in range(k)]
        deals = []
        for i in range(k):
            rounds: list[tuple[Card, ...]] = []
            for r in range(ROUNDS):
                order = rng.permutation(6)
                if options.deal == "split" and r % 2 == 1:
                    rest = Counter(decks[i]) - Counter(rounds[-1])
                    rounds.append(tuple(sorted(rest.elements())))
                else:
                    rounds.append(tuple(sorted(decks[i][j] for j in order[:3])))
            deals.append(rounds)
        return cls(layout, options, decks, setup, deals)

    def copy(self) -> Gridblock:
        """An independent copy, move stack included."""
        other = Gridblock.__new__(Gridblock)
        other.__dict__.update(self.__dict__)
        other.corners, other.mover = list(self.corners), list(self.mover)
        other.placed, other.discarded = list(self.placed), list(self.discarded)
        other.played = [[list(r) for r in c] for c in self.played]
        other.deals = [list(d) for d in self.deals]
        other._stack = list(self._stack)
        return other

    # -- where the game is -------------------------------------------------------------------
    @property
    def is_setup(self) -> bool:
        """True while colours are still placing their movers."""
        return self.step < len(self.colors)

    @property
    def round(self) -> int:
        """The round being played, 0..5 (0 during the set-up)."""
        if self.is_setup:
            return 0
        per_round = TURNS_PER_ROUND * len(self.colors)
        return min(ROUNDS - 1, (self.step - len(self.colors)) // per_round)

    @property
    def total_steps(self) -> int:
        """Set-up placements plus every turn of the game."""
        return len(self.colors) * (1 + ROUNDS * TURNS_PER_ROUND)

    @property
    def to_move_slot(self) -> int:
        """Index into :attr:`colors` of the colour to move."""
        k = len(self.colors)
        return self.step % k if self.is_setup else (self.step - k) % k

    @property
    def to_move_color(self) -> int:
        """The colour to move (0 blue, 1 yellow, 2 red, 3 green)."""
        return self.colors[self.to_move_slot]

    @property
    def to_move(self) -> int:
        """The player to move."""
        return self.options.player_of(self.to_move_color)

    def hand(self, slot: int) -> tuple[Card, ...]:
        """The cards colour ``slot`` still holds this round (none during the set-up)."""
        if self.is_setup or self.is_over():
            return ()
        left = sorted(self.deals[slot][self.round])
        for card in self.played[slot][self.round]:
            if card in left:
                left.remove(card)
        return tuple(left)

    def is_over(self) -> bool:
        """True after the 6th round, or once a colour has won at once (option 7.4)."""
        return self.winner is not None or self.step >= self.total_steps

    def scores(self) -> tuple[int, ...]:
        """Each colour's points now (section 5), per colour in play."""
        s = tile_scores(self.corners, self.colors)
        return tuple(s[c] for c in self.colors)

    def returns(self) -> tuple[float, ...]:
        """Each player's result: its points (two colours summed, or the weaker of them under
        ``two_player_score="weaker"``), plus :data:`INSTANT_WIN` for an instant winner."""
        per_color = dict(zip(self.colors, self.scores(), strict=True))
        if self.options.players == 2:
            join = min if self.options.two_player_score == "weaker" else (lambda a, b: a + b)
            out = [float(join(per_color[0], per_color[2])), float(join(per_color[1], per_color[3]))]
        else:
            out = [float(per_color[c]) for c in self.colors]
        if self.winner is not None:
            out[self.winner] += INSTANT_WIN
        return tuple(out)

    def state_key(self) -> tuple[Any, ...]:
        """Everything the rest of the game depends on (for transposition tables). The cards
        played this round are sorted: only which are left in hand matters, not their order."""
        r = self.round
        hands = tuple(tuple(d[r:]) for d in self.deals)
        played = tuple(tuple(sorted(p[r])) for p in self.played)
        return (tuple(self.corners), tuple(self.mover), self.step, hands, played, self.winner)

    @property
    def move_stack(self) -> list[Move]:
        """Moves pushed since construction."""
        return [entry[0] for entry in self._stack]

    # -- moves -------------------------------------------------------------------------------
    def _free(self, tile: int) -> list[int]:
        return [q for q in range(4) if self.corners[4 * tile + q] < 0]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the colour to move: set-up placements, or for each card in
        hand each end tile with each free corner (or the discard); none once over."""
        if self.is_over():
            return []
        slot = self.to_move_slot
        if self.is_setup:
            symbol = self.setup_symbols[slot]
            return [Move(None, t, q) for t in range(36) if self.layout[t] == symbol
                    for q in self._free(t)]  # fmt: skip
        out = []
        for card in sorted(set(self.hand(slot))):
            for end in end_tiles(self.mover[slot], card[1]):
                free = self._free(end) if self.layout[end] == card[0] else []
                if free:
                    out += [Move(card, end, q) for q in free]
                else:
                    out.append(Move(card, end, None))
        return out

    def illegality(self, move: Move) -> str | None:
        """Why ``move`` is illegal now, or None when it is legal."""
        if self.is_over():
            return "the game is over"
        slot = self.to_move_slot
        who = COLOR_NAMES[self.colors[slot]]
        where = tile_name(move.tile)
        if self.is_setup:
            if move.card is not None:
                return f"{who} is setting up: move 'setup <tile> <corner>'"
            symbol = self.setup_symbols[slot]
            if self.layout[move.tile] != symbol:
                return (f"{who} drew {SYMBOLS[symbol]} at set-up; {where} shows "
                        f"{SYMBOLS[self.layout[move.tile]]}")  # fmt: skip
            if move.corner is None or self.corners[4 * move.tile + move.corner] >= 0:
                return f"the {CORNERS[move.corner or 0]} corner of {where} is taken"
            return None
        if move.card is None:
            return "the set-up is over; play a card"
        if move.card not in self.hand(slot):
            held = " ".join(card_name(c) for c in self.hand(slot)) or "nothing"
            return f"{who} holds no {card_name(move.card)} (hand: {held})"
        start = self.mover[slot]
        if move.path is not None:
            if len(move.path) != move.card[1] or not is_walk(start, move.path):
                return (f"the walk {','.join(tile_name(t) for t in move.path)} from "
                        f"{tile_name(start)} is not {move.card[1]} steps without entering a "
                        "tile twice")  # fmt: skip
        elif move.tile not in end_tiles(start, move.card[1]):
            return (f"{where} is not {move.card[1]} steps from {tile_name(start)} without "
                    "entering a tile twice")  # fmt: skip
        free = self._free(move.tile) if self.layout[move.tile] == move.card[0] else []
        if free and move.corner is None:
            return f"{where} shows {SYMBOLS[move.card[0]]} and has a free corner: put a cube there"
        if not free and move.corner is not None:
            why = (
                "is full"
                if self.layout[move.tile] == move.card[0]
                else (f"shows {SYMBOLS[self.layout[move.tile]]}, not {SYMBOLS[move.card[0]]}")
            )
            return f"{where} {why}: a cube is discarded, name no corner"
        if move.corner is not None and move.corner not in free:
            return f"the {CORNERS[move.corner]} corner of {where} is taken"
        return None

    def push(self, move: Move) -> None:
        """Play ``move`` for the colour to move.

        Raises
        ------
        IllegalMoveError
            Naming the move and what is wrong.
        """
        reason = self.illegality(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move}: {reason}")
        self.push_legal(move)

    def push_legal(self, move: Move) -> None:
        """Play a move known to be legal."""
        slot = self.to_move_slot
        before = self.mover[slot]
        if move.card is not None:
            self.played[slot][self.round].append(move.card)
        self.mover[slot] = move.tile
        won = False
        color = self.colors[slot]
        if move.corner is not None:
            self.corners[4 * move.tile + move.corner] = color
            self.placed[slot] += 1
            if self.options.instant_win and not self.is_setup:
                held = self.corners[4 * move.tile : 4 * move.tile + 4]
                if held.count(color) == 3 and all(c in (-1, color) for c in held):
                    self.winner = self.options.player_of(color)
                    won = True
        else:
            self.discarded[slot] += 1
        self._stack.append((move, before, won))
        self.step += 1

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises
        ------
        IndexError
            If no move was pushed.
        """
        if not self._stack:
            raise IndexError("no move to take back")
        move, before, won = self._stack.pop()
        self.step -= 1
        slot = self.to_move_slot
        if won:
            self.winner = None
        if move.corner is not None:
            self.corners[4 * move.tile + move.corner] = -1
            self.placed[slot] -= 1
        else:
            self.discarded[slot] -= 1
        self.mover[slot] = before
        if move.card is not None:
            self.played[slot][self.round].pop()
        return move

    def play_random(self, seed: int | np.random.Generator | None = None) -> int:
        """Play uniformly random legal moves to the end; return how many."""
        rng = np.random.default_rng(seed)
        n = 0
        while not self.is_over():
            moves = self.legal_moves()
            self.push_legal(moves[int(rng.integers(len(moves)))])
            n += 1
        return n

    def __repr__(self) -> str:
        return (f"<Gridblock players={self.options.players} step={self.step}/"
                f"{self.total_steps} scores={self.scores()}>")  # fmt: skip

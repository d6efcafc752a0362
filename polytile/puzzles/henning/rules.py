"""City Blocks (Henning): the full game state, its set-up, legal moves, awards and money.

:class:`Henning` holds everything, hidden parts included (both hands and the order of both
reserves); what each player sees of it is :meth:`Henning.view`. It makes and unmakes moves
(``push``/``pop``) so that searches can walk the game tree. The rules are those of
``seeds/cityblocks-henning.md``; section numbers below refer to it.

Examples
--------
>>> g = Henning.new(seed=7)
>>> g.to_move, len(g.hand(0)), g.reserve_size(0), sum(g.tokens) > 0
(1, 5, 15, True)
>>> m = g.legal_moves()[0]
>>> g.push(m); g.pop() == m
True
>>> g.play_random(seed=1) > 0 and g.is_over()
True
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np

from polytile.errors import IllegalMoveError
from polytile.geometry import Cell
from polytile.puzzles.henning.moves import PASS, Move
from polytile.puzzles.henning.tiles import (
    CH,
    FACTORY,
    HOUSE,
    KINDS,
    MA,
    OPEN,
    PLAYER_NAMES,
    PP,
    SC,
    STREETS,
    STREETS_OF,
    TIED,
    TILE_SET,
    VALUES,
    block_name,
    street_title,
)

__all__ = ["HAND_SIZE", "OPEN", "TIED", "Henning", "street_sums"]

HAND_SIZE = 5
_IS_HOUSE = tuple(k in HOUSE for k in range(len(KINDS)))
_IS_FACTORY = tuple(k in FACTORY for k in range(len(KINDS)))


def street_sums(owners: Sequence[int], kinds: Sequence[int]) -> tuple[int, int]:
    """Each player's total on one street (section 5.2) from its blocks' owners and kinds.

    Examples
    --------
    The rule text's Buchanan Blvd. (the school zeroes the factories):

    >>> from polytile.puzzles.henning.tiles import kind_of
    >>> street_sums([0, 1, 0], [kind_of(k) for k in ("H1", "F6", "SC")])
    (1, 0)
    """
    no_factories = SC in kinds or MA in kinds
    no_houses = PP in kinds or MA in kinds
    sums = [0, 0]
    for owner, kind in zip(owners, kinds, strict=True):
        if (no_factories and _IS_FACTORY[kind]) or (no_houses and _IS_HOUSE[kind]):
            continue
        sums[owner] += VALUES[kind]
    return sums[0], sums[1]


class Henning:
    """A City Blocks (Henning) game state with everything known, hidden parts included.

    Make one with :meth:`new` (a seeded set-up) or :meth:`setup` (everything given), or load
    one with :func:`polytile.puzzles.henning.files.read_position`.

    Parameters
    ----------
    tokens
        The token on each of the 11 streets (rows 1-5, then columns a-f), distinct values
        1..15.
    first
        The player who moves first (0 blue, 1 red).
    hands
        Each player's hand, as tile kind codes.
    reserves
        Each player's face-down reserve in drawing order.

    Raises
    ------
    ValueError
        If the tokens or tiles are not a possible set-up.
    """

    def __init__(
        self,
        tokens: Sequence[int],
        first: int,
        hands: Sequence[Sequence[int]],
        reserves: Sequence[Sequence[int]],
    ) -> None:
        tokens = [int(t) for t in tokens]
        if len(tokens) != 11 or len(set(tokens)) != 11 or not all(1 <= t <= 15 for t in tokens):
            raise ValueError(f"the 11 street tokens must be distinct values 1..15, got {tokens}")
        if first not in (0, 1):
            raise ValueError(f"the first player must be 0 (blue) or 1 (red), got {first!r}")
        self.tokens: list[int] = tokens
        self.first = first
        self.turn = first
        self.award_of: list[int] = [OPEN] * 11
        #: each awarded street's (blue, red) totals at its award, None while open or unknown
        #: (a position file does not say what a later redevelopment changed)
        self.decided: list[tuple[int, int] | None] = [None] * 11
        self.owner: list[int] = [-1] * 30
        self.kind: list[int] = [-1] * 30
        self.empty_in: list[int] = [len(s) for s in STREETS]
        self.money: list[list[int]] = [[], []]
        self.hands: list[list[int]] = [sorted(int(k) for k in h) for h in hands]
        self.reserves: list[list[int]] = [[int(k) for k in r] for r in reserves]
        self.drawn = [0, 0]
        self.removed: list[tuple[int, int]] = []
        self.discarded: list[int] = []  # tokens paid or tied away, in order
        self.empty = 30
        self._stack: list[tuple[Any, ...]] = []
        for p in (0, 1):
            tiles = sorted(self.hands[p] + self.reserves[p])
            if tiles != sorted(TILE_SET):
                raise ValueError(f"{PLAYER_NAMES[p]}'s hand and reserve must be its 20 tiles")
            if len(self.hands[p]) > HAND_SIZE:
                raise ValueError(f"{PLAYER_NAMES[p]}'s hand holds more than {HAND_SIZE} tiles")

    # -- set-up -----------------------------------------------------------------------------
    @classmethod
    def new(cls, seed: int | np.random.Generator | None = None) -> Henning:
        """A random set-up (section 2): 11 street tokens drawn from $1..$15, the first player
        by a draw of two of the other four (the higher moves first), both players' tiles
        shuffled, 5 in hand.

        The same seed gives the same set-up.
        """
        rng = np.random.default_rng(seed)
        bag = [int(t) for t in rng.permutation(np.arange(1, 16))]
        tokens, draws = bag[:11], bag[11:13]
        first = 0 if draws[0] > draws[1] else 1
        decks = [[TILE_SET[i] for i in rng.permutation(20)] for _ in (0, 1)]
        return cls(tokens, first, [d[:HAND_SIZE] for d in decks], [d[HAND_SIZE:] for d in decks])

    def copy(self) -> Henning:
        """An independent copy, move stack included."""
        other = Henning.__new__(Henning)
        other.__dict__.update(self.__dict__)
        other.tokens, other.award_of = list(self.tokens), list(self.award_of)
        other.decided = list(self.decided)
        other.owner, other.kind, other.empty_in = list(self.owner), list(self.kind), list(
            self.empty_in)  # fmt: skip
        other.money = [list(m) for m in self.money]
        other.hands = [list(h) for h in self.hands]
        other.reserves = [list(r) for r in self.reserves]
        other.drawn, other.removed = list(self.drawn), list(self.removed)
        other.discarded, other._stack = list(self.discarded), list(self._stack)
        return other

    # -- reading the state -------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The player to move (0 blue, 1 red); meaningful while the game is not over."""
        return self.turn

    def hand(self, player: int) -> tuple[int, ...]:
        """The player's hand, kind codes ascending."""
        return tuple(self.hands[player])

    def reserve(self, player: int) -> tuple[int, ...]:
        """The player's reserve still to draw, in drawing order."""
        return tuple(self.reserves[player][self.drawn[player] :])

    def reserve_size(self, player: int) -> int:
        """How many tiles the player's reserve still holds."""
        return len(self.reserves[player]) - self.drawn[player]

    def award(self, street: int) -> int:
        """:data:`OPEN`, the winner (0 or 1), or :data:`TIED` (the token was discarded)."""
        return self.award_of[street]

    def money_of(self, player: int) -> int:
        """The total value of the tokens the player holds."""
        return sum(self.money[player])

    def at(self, block: Cell) -> tuple[int, int] | None:
        """(owner, kind) of the tile on ``block``, None when empty."""
        b = block[0] * 6 + block[1]
        return None if self.owner[b] < 0 else (self.owner[b], self.kind[b])

    def standing(self, street: int) -> tuple[int, int]:
        """Each player's total on ``street`` now (section 5.2), complete or not."""
        blocks = [b for b in STREETS[street] if self.owner[b] >= 0]
        return street_sums([self.owner[b] for b in blocks], [self.kind[b] for b in blocks])

    def has_play(self, player: int) -> bool:
        """Whether ``player`` could place a tile if it were its turn."""
        if not self.hands[player]:
            return False
        if self.empty:
            return True
        return bool(self.money[player]) and player in self.owner

    def is_over(self) -> bool:
        """True once every block is built on, or neither player can play (section 6.1)."""
        return self.empty == 0 or not (self.has_play(0) or self.has_play(1))

    def returns(self) -> tuple[float, float]:
        """Each player's money (final once the game is over)."""
        return float(self.money_of(0)), float(self.money_of(1))

    def margin(self) -> int:
        """Blue's money minus red's."""
        return self.money_of(0) - self.money_of(1)

    def state_key(self) -> tuple[Any, ...]:
        """Everything the rest of the game depends on (for transposition tables): the board,
        tokens, awards, money, hands, the reserves still to draw and the player to move."""
        return (tuple(self.owner), tuple(self.kind), tuple(self.tokens), tuple(self.award_of),
                tuple(self.money[0]), tuple(self.money[1]), tuple(self.hands[0]),
                tuple(self.hands[1]), self.reserve(0), self.reserve(1), self.turn)  # fmt: skip

    @property
    def move_stack(self) -> list[Move]:
        """Moves pushed since construction or loading."""
        return [entry[0] for entry in self._stack]

    # -- moves -----------------------------------------------------------------------------
    def _swaps(self) -> list[tuple[int, int] | None]:
        open_streets = [s for s in range(11) if self.award_of[s] == OPEN]
        return [None, *combinations(open_streets, 2)]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move: developments, then redevelopments, each by
        tile then block; a courthouse with every swap (none first). Just the pass when the
        player has no play; nothing once the game is over."""
        if self.is_over():
            return []
        p = self.turn
        kinds = sorted(set(self.hands[p]))
        if not kinds:
            return [PASS]
        empty = [b for b in range(30) if self.owner[b] < 0]
        mine = [b for b in range(30) if self.owner[b] == p] if self.money[p] else []
        pay = self.money[p][0] if self.money[p] else None
        swaps = self._swaps() if CH in kinds else [None]
        out: list[Move] = []
        for redevelop, blocks in ((False, empty), (True, mine)):
            for k in kinds:
                for b in blocks:
                    cell = (b // 6, b % 6)
                    for swap in swaps if k == CH else (None,):
                        out.append(Move(k, cell, redevelop, pay if redevelop else None, swap))
        return out

    def count_legal_moves(self) -> int:
        """``len(legal_moves())`` without building them."""
        if self.is_over():
            return 0
        p = self.turn
        kinds = set(self.hands[p])
        if not kinds:
            return 1
        blocks = self.empty + (self.owner.count(p) if self.money[p] else 0)
        swaps = len(self._swaps())
        return blocks * (len(kinds) - (CH in kinds)) + (blocks * swaps if CH in kinds else 0)

    def illegality(self, move: Move) -> str | None:
        """Why ``move`` is illegal now, or None when it is legal."""
        if self.is_over():
            return "the game is over"
        p = self.turn
        who = PLAYER_NAMES[p]
        if move.is_pass:
            if self.has_play(p):
                return f"{who} has a legal play; passing is forced only"
            return None
        if move.kind not in self.hands[p]:
            held = " ".join(KINDS[k] for k in self.hands[p]) or "nothing"
            return f"{who} holds no {KINDS[move.kind]} (hand: {held})"
        if move.block is None:
            return "a placement needs a block"
        r, c = move.block
        if not (0 <= r < 5 and 0 <= c < 6):
            return f"block {move.block} is outside the 5x6 city"
        b = r * 6 + c
        name = block_name(move.block)
        if move.redevelop:
            if self.owner[b] != p:
                return f"{name} does not hold a {who} tile to redevelop"
            if not self.money[p]:
                return f"{who} holds no token to pay for a redevelopment"
            if move.pay != self.money[p][0]:
                lowest = self.money[p][0]
                return f"a redevelopment pays the lowest token held, ${lowest}, not ${move.pay}"
        elif self.owner[b] >= 0:
            return f"{name} is built on already (redevelop it, paying a token, if it is yours)"
        if move.swap is not None:
            for s in move.swap:
                if self.award_of[s] != OPEN:
                    return f"{street_title(s)} was awarded already; only open streets swap tokens"
        return None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be pushed now."""
        return self.illegality(move) is None

    def push(self, move: Move) -> None:
        """Play ``move`` for the player to move.

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
        """Play a move known to be legal (one :meth:`legal_moves` just returned)."""
        p = self.turn
        if move.kind < 0 or move.block is None:
            self._stack.append((move, p, -1, None, (), False))
            self.turn = 1 - p
            return
        hand = self.hands[p]
        hand.remove(move.kind)
        b = move.block[0] * 6 + move.block[1]
        old = -1
        paid = None
        if move.redevelop:
            old = self.kind[b]
            paid = self.money[p].pop(0)
            self.discarded.append(paid)
            self.removed.append((p, old))
        else:
            self.empty -= 1
        self.owner[b], self.kind[b] = p, move.kind
        if move.swap is not None:
            s, t = move.swap
            self.tokens[s], self.tokens[t] = self.tokens[t], self.tokens[s]
        awards: list[int] = []
        if not move.redevelop:
            for s in STREETS_OF[b]:
                self.empty_in[s] -= 1
                if self.empty_in[s] == 0:
                    awards.append(s)
                    self._award(s)
        drew = self.drawn[p] < len(self.reserves[p])
        if drew:
            bisect.insort(hand, self.reserves[p][self.drawn[p]])
            self.drawn[p] += 1
        self._stack.append((move, p, old, paid, tuple(awards), drew))
        self.turn = 1 - p

    def _award(self, street: int) -> None:
        blue, red = self.standing(street)
        self.decided[street] = (blue, red)
        token = self.tokens[street]
        if blue == red:
            self.award_of[street] = TIED
            self.discarded.append(token)
        else:
            w = 0 if blue > red else 1
            self.award_of[street] = w
            bisect.insort(self.money[w], token)

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises
        ------
        IndexError
            If no move was pushed since construction or loading.
        """
        if not self._stack:
            raise IndexError("no move to take back")
        move, p, old, paid, awards, drew = self._stack.pop()
        self.turn = p
        if move.kind < 0 or move.block is None:
            return move
        hand = self.hands[p]
        if drew:
            self.drawn[p] -= 1
            hand.remove(self.reserves[p][self.drawn[p]])
        for s in reversed(awards):
            w = self.award_of[s]
            if w == TIED:
                self.discarded.pop()
            else:
                self.money[w].remove(self.tokens[s])
            self.award_of[s] = OPEN
            self.decided[s] = None
        if not move.redevelop:
            for s in STREETS_OF[move.block[0] * 6 + move.block[1]]:
                self.empty_in[s] += 1
        if move.swap is not None:
            s, t = move.swap
            self.tokens[s], self.tokens[t] = self.tokens[t], self.tokens[s]
        b = move.block[0] * 6 + move.block[1]
        if move.redevelop:
            self.kind[b] = old
            self.removed.pop()
            self.discarded.pop()
            bisect.insort(self.money[p], paid)
        else:
            self.owner[b], self.kind[b] = -1, -1
            self.empty += 1
        bisect.insort(hand, move.kind)
        return move

    def random_move(self, rng: np.random.Generator) -> Move:
        """A legal move drawn uniformly, without listing them all: the same distribution as
        ``rng.choice(legal_moves())``, about ten times faster with a courthouse in hand.

        Raises
        ------
        IllegalMoveError
            If the game is over.
        """
        total = self.count_legal_moves()
        if total == 0:
            raise IllegalMoveError("the game is over: no move to draw")
        p = self.turn
        if not self.hands[p]:
            return PASS
        i = int(rng.integers(total))
        kinds = sorted(set(self.hands[p]))
        swaps = self._swaps() if CH in kinds else [None]
        for redevelop in (False, True):
            if redevelop:
                blocks = [b for b in range(30) if self.owner[b] == p] if self.money[p] else []
            else:
                blocks = [b for b in range(30) if self.owner[b] < 0]
            for k in kinds:
                per = len(swaps) if k == CH else 1
                size = len(blocks) * per
                if i < size:
                    b, j = blocks[i // per], i % per
                    pay = self.money[p][0] if redevelop else None
                    return Move(k, (b // 6, b % 6), redevelop, pay, swaps[j] if k == CH else None)
                i -= size
        raise AssertionError("unreachable: the index lies within count_legal_moves()")

    def play_random(self, seed: int | np.random.Generator | None = None) -> int:
        """Play uniformly random legal moves to the end; return how many were played."""
        rng = np.random.default_rng(seed)
        played = 0
        while not self.is_over():
            self.push_legal(self.random_move(rng))
            played += 1
        return played

    # -- text ------------------------------------------------------------------------------
    def __str__(self) -> str:
        from polytile.puzzles.henning.picture import to_text

        return to_text(self, color=False)

    def __repr__(self) -> str:
        return (f"<Henning to_move={PLAYER_NAMES[self.turn]} empty={self.empty} "
                f"money={self.money_of(0)}-{self.money_of(1)}>")  # fmt: skip

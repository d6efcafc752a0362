"""Reading the fields of a Gridblock document (:mod:`polytile.puzzles.gridblock.files`),
with errors that name the file and the field.

Everything here is checked against the rules: the option values, the layout, the decks, the
set-up draws, the hands (and under ``deal="split"`` their pairing), the moves of a record
(replayed through the engine's checked ``push``), and for a position or a view the cards
played, the cubes on corners and the movers against the turn order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from polytile._files import get_list, get_string, kind_of, require
from polytile.errors import FormatError, IllegalMoveError
from polytile.puzzles.gridblock.grid import (
    SYMBOLS,
    Card,
    card_name,
    parse_card,
    parse_tile,
    tile_name,
)
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import (
    COLOR_NAMES,
    ROUNDS,
    TURNS_PER_ROUND,
    Gridblock,
    Options,
)

__all__ = ["CUBE_LETTERS", "Reader"]

#: A cube's colour letter, by colour.
CUBE_LETTERS = "BYRG"
_MAX_MOVES = 1000  # a game has at most 4 x 19 = 76
_OPTION_KEYS = ("players", "two_player_score", "deal", "instant_win")


class Reader:
    """Reads the fields of one document, raising errors that name the file and the field."""

    def __init__(self, doc: dict[str, Any], source: str) -> None:
        self.doc = doc
        self.source = source
        self.options = self._options()
        self.colors = self.options.colors
        self.names = [COLOR_NAMES[c] for c in self.colors]
        self.layout = self._layout()
        self.decks = [self._cards(v, f"decks.{n}", 6) for n, v in self._per_color("decks")]

    def fail(self, message: str, where: str | None = None) -> FormatError:
        return FormatError(message, self.source, where)

    # -- the set-up ----------------------------------------------------------------------
    def _options(self) -> Options:
        raw = require(self.doc, "options", self.source)
        if not isinstance(raw, dict):
            raise self.fail(f"must be an object, got {kind_of(raw)}", "options")
        for key in raw:
            if key not in _OPTION_KEYS:
                raise self.fail(f"{key!r} is not an option ({', '.join(_OPTION_KEYS)})",
                                f"options.{key}")  # fmt: skip
        players = raw.get("players", 4)
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise self.fail(f"must be 2, 3 or 4, got {players!r}", "options.players")
        choices = {"two_player_score": ("sum", "weaker"), "deal": ("shuffle", "split")}
        words = {k: get_string(raw.get(k, v[0]), self.source, f"options.{k}", v)
                 for k, v in choices.items()}  # fmt: skip
        instant = raw.get("instant_win", False)
        if not isinstance(instant, bool):
            raise self.fail(f"must be true or false, got {kind_of(instant)}",
                            "options.instant_win")  # fmt: skip
        return Options(players, words["two_player_score"], words["deal"], instant)

    def _layout(self) -> list[int]:
        rows = get_list(require(self.doc, "layout", self.source), self.source, "layout")
        if len(rows) != 6:
            raise self.fail(f"needs 6 rows, got {len(rows)}", "layout")
        out = []
        for r, row in enumerate(rows):
            text = get_string(row, self.source, f"layout[{r}]").replace(" ", "").upper()
            if len(text) != 6 or any(ch not in SYMBOLS for ch in text):
                raise self.fail(f"a row is 6 symbols A-F, got {row!r}", f"layout[{r}]")
            out += [SYMBOLS.index(ch) for ch in text]
        return out

    def _per_color(self, key: str, doc: dict[str, Any] | None = None, partial: bool = False,
                   where: str | None = None) -> list[tuple[str, Any]]:  # fmt: skip
        """``(colour name, value)`` of an object keyed by the colours in play, in turn order
        (every colour, unless ``partial``)."""
        where = where or key
        value = require(doc if doc is not None else self.doc, key, self.source)
        if not isinstance(value, dict):
            raise self.fail(f"must be an object keyed by colour ({', '.join(self.names)}), "
                            f"got {kind_of(value)}", where)  # fmt: skip
        for name in value:
            if name not in self.names:
                raise self.fail(f"{name!r} is not a colour in play ({', '.join(self.names)})",
                                f"{where}.{name}")  # fmt: skip
        if not partial:
            for name in self.names:
                if name not in value:
                    raise self.fail(f"missing {name}", where)
        return [(n, value[n]) for n in self.names if n in value]

    def _cards(self, value: Any, where: str, size: int | None = None,
               most: int | None = None) -> list[Card]:  # fmt: skip
        items = get_list(value, self.source, where)
        if size is not None and len(items) != size:
            raise self.fail(f"needs {size} cards, got {len(items)}", where)
        if most is not None and len(items) > most:
            raise self.fail(f"holds at most {most} cards, got {len(items)}", where)
        out = []
        for i, item in enumerate(items):
            try:
                out.append(parse_card(get_string(item, self.source, f"{where}[{i}]")))
            except ValueError as e:
                raise self.fail(str(e), f"{where}[{i}]") from None
        return out

    def setup_symbols(self, known: int | None = None) -> list[int]:
        """The set-up draws: every colour's, or (a view) those of the first ``known`` ones
        in turn order; each a symbol of the colour's deck shown by some tile."""
        entries = self._per_color("setup", partial=known is not None)
        if known is not None and [n for n, _ in entries] != self.names[:known]:
            raise self.fail(f"a view at this point gives the draws of {known} colour(s) in "
                            f"turn order ({', '.join(self.names[:known]) or 'none'})",
                            "setup")  # fmt: skip
        out = []
        for slot, (name, value) in enumerate(entries):
            where = f"setup.{name}"
            text = get_string(value, self.source, where).strip().upper()
            if len(text) != 1 or text not in SYMBOLS:
                raise self.fail(f"a set-up draw is a symbol A-F, got {value!r}", where)
            s = SYMBOLS.index(text)
            if all(card[0] != s for card in self.decks[slot]):
                raise self.fail(f"{name}'s deck has no {text} card", where)
            if s not in self.layout:
                raise self.fail(f"no tile shows {text}", where)
            out.append(s)
        return out

    def deals(self) -> list[list[tuple[Card, ...]]]:
        """Every colour's hand in every round, checked against its deck and the deal option."""
        out = []
        for slot, (name, value) in enumerate(self._per_color("deals")):
            rounds = get_list(value, self.source, f"deals.{name}")
            if len(rounds) != ROUNDS:
                raise self.fail(f"needs {ROUNDS} hands, got {len(rounds)}", f"deals.{name}")
            hands: list[tuple[Card, ...]] = []
            for r, raw in enumerate(rounds):
                where = f"deals.{name}[{r}]"
                hand = tuple(sorted(self._cards(raw, where, 3)))
                self._check_hand(slot, hand, hands, r, where)
                hands.append(hand)
            out.append(hands)
        return out

    def _check_hand(self, slot: int, hand: Sequence[Card], before: Sequence[Sequence[Card]],
                    r: int, where: str) -> None:  # fmt: skip
        deck = self.decks[slot]
        if Counter(hand) - Counter(deck):
            raise self.fail(f"{' '.join(card_name(c) for c in hand)} is not 3 cards of "
                            f"{self.names[slot]}'s deck", where)  # fmt: skip
        if self.options.deal == "split" and r % 2 == 1:
            rest = Counter(deck) - Counter(before[r - 1])
            if Counter(hand) != rest:
                raise self.fail(f"under deal 'split' round {r + 1}'s hand is the 3 cards not "
                                f"drawn in round {r}: "
                                f"{' '.join(card_name(c) for c in sorted(rest.elements()))}",
                                where)  # fmt: skip

    def build(self, setup: list[int], deals: list[list[tuple[Card, ...]]]) -> Gridblock:
        try:
            return Gridblock(self.layout, self.options, self.decks, setup, deals)
        except ValueError as e:  # everything it checks was checked above; kept as a guard
            raise self.fail(str(e)) from None

    # -- records -------------------------------------------------------------------------
    def record(self, move: int | None) -> tuple[Gridblock, list[Move]]:
        g = self.build(self.setup_symbols(), self.deals())
        raw = get_list(require(self.doc, "moves", self.source), self.source, "moves")
        if len(raw) > _MAX_MOVES:
            raise self.fail(f"{len(raw)} moves; a game has at most {g.total_steps}", "moves")
        if move is not None and not 0 <= move <= len(raw):
            raise self.fail(f"--move {move} is outside 0..{len(raw)} (the record has "
                            f"{len(raw)} moves)", "moves")  # fmt: skip
        moves = []
        for i, text in enumerate(raw):
            where = f"moves[{i}]"
            try:
                m = Move.parse(get_string(text, self.source, where))
            except ValueError as e:
                raise self.fail(f"move {i + 1}: {e}", where) from None
            try:
                g.push(m)
            except IllegalMoveError as e:
                raise self.fail(f"move {i + 1} {str(e).removeprefix('illegal move ')}",
                                where) from None  # fmt: skip
            moves.append(m)
        while move is not None and len(g.move_stack) > move:
            g.pop()
        return g, moves

    # -- positions and views -------------------------------------------------------------
    def player(self) -> int:
        from polytile.puzzles.gridblock.game import player_names

        names = player_names(self.options)
        value = get_string(require(self.doc, "player", self.source), self.source, "player",
                           names)  # fmt: skip
        return names.index(value)

    def position(self, view: int | None) -> Gridblock:
        k = len(self.colors)
        movers = self._movers()
        played = self._played()
        turns = [sum(len(r) for r in p) for p in played]
        placed_movers = sum(m >= 0 for m in movers)
        if movers[:placed_movers] != [m for m in movers if m >= 0]:
            raise self.fail("movers are placed in turn order: a colour without one comes "
                            "after every colour with one", "movers")  # fmt: skip
        total = sum(turns)
        if total and placed_movers < k:
            raise self.fail("no card is played before every mover is placed", "played")
        q, rem = divmod(total, k)
        for slot, name in enumerate(self.names):
            want = q + (1 if slot < rem else 0)
            if turns[slot] != want:
                raise self.fail(f"{total} turns played in turn order give {name} {want} "
                                f"turns, not {turns[slot]}", f"played.{name}")  # fmt: skip
        if total > k * ROUNDS * TURNS_PER_ROUND:
            raise self.fail(f"more than {ROUNDS * TURNS_PER_ROUND} turns per colour", "played")
        corners = self._corners()
        step = placed_movers + total
        setup_done = placed_movers == k
        winner = self._winner(corners, step)
        over = winner is not None or total == k * ROUNDS * TURNS_PER_ROUND
        r = 0 if not setup_done else min(ROUNDS - 1, total // (TURNS_PER_ROUND * k))
        if view is None:
            setup = self.setup_symbols()
            deals = self.deals()
            for slot, name in enumerate(self.names):
                for rr, cards in enumerate(played[slot]):
                    if Counter(cards) - Counter(deals[slot][rr]):
                        raise self.fail(f"{name} played {' '.join(card_name(c) for c in cards)} "
                                        f"in round {rr + 1} but was dealt "
                                        f"{' '.join(card_name(c) for c in deals[slot][rr])}",
                                        f"played.{name}[{rr}]")  # fmt: skip
        else:
            known = placed_movers + 1 if not setup_done else k
            setup = self.setup_symbols(known)
            setup += [self._fill_setup(slot) for slot in range(known, k)]
            deals = self._view_deals(view, played, r, setup_done, over)
        g = self.build(setup, deals)
        self._place(g, movers, played, corners, turns, step)
        g.winner = winner
        return g

    def _movers(self) -> list[int]:
        out = []
        for name, value in self._per_color("movers"):
            if value is None:
                out.append(-1)
                continue
            try:
                out.append(parse_tile(get_string(value, self.source, f"movers.{name}")))
            except ValueError as e:
                raise self.fail(str(e), f"movers.{name}") from None
        return out

    def _played(self) -> list[list[list[Card]]]:
        out = []
        for name, value in self._per_color("played"):
            rounds = get_list(value, self.source, f"played.{name}")
            if len(rounds) > ROUNDS:
                raise self.fail(f"at most {ROUNDS} rounds, got {len(rounds)}", f"played.{name}")
            cards = [self._cards(v, f"played.{name}[{r}]", most=3) for r, v in enumerate(rounds)]
            cards += [[] for _ in range(ROUNDS - len(cards))]
            for r in range(ROUNDS - 1):
                if cards[r + 1] and len(cards[r]) != TURNS_PER_ROUND:
                    raise self.fail(f"{name} played in round {r + 2} before finishing round "
                                    f"{r + 1}", f"played.{name}[{r}]")  # fmt: skip
            out.append(cards)
        return out

    def _corners(self) -> list[int]:
        rows = get_list(require(self.doc, "corners", self.source), self.source, "corners")
        if len(rows) != 6:
            raise self.fail(f"needs 6 rows, got {len(rows)}", "corners")
        letters = "." + "".join(CUBE_LETTERS[c] for c in self.colors)
        out = []
        for r, row in enumerate(rows):
            tiles = get_string(row, self.source, f"corners[{r}]").split()
            if len(tiles) != 6:
                raise self.fail(f"needs 6 tiles of 4 corners separated by spaces, got "
                                f"{len(tiles)}", f"corners[{r}]")  # fmt: skip
            for c, tile in enumerate(tiles):
                where = f"corners[{r}] tile {tile_name(r * 6 + c)}"
                if len(tile) != 4 or any(ch not in letters for ch in tile.upper()):
                    raise self.fail(f"a tile is 4 corners (NW NE SE SW), each '.' or a cube "
                                    f"({' '.join(letters[1:])}), got {tile!r}",
                                    where)  # fmt: skip
                out += [-1 if ch == "." else CUBE_LETTERS.index(ch) for ch in tile.upper()]
        return out

    def _fill_setup(self, slot: int) -> int:
        return next(s for s, _ in sorted(self.decks[slot]) if s in self.layout)

    def _view_deals(self, view: int, played: list[list[list[Card]]], r: int, setup_done: bool,
                    over: bool) -> list[list[tuple[Card, ...]]]:  # fmt: skip
        """Deals that fit a view: the hands it gives, the cards played, the rest filled with
        the lowest cards."""
        o = self.options
        open_round = o.deal == "split" and setup_done and r % 2 == 1
        shown = [s for s, c in enumerate(self.colors) if open_round or o.player_of(c) == view]
        hands = dict(self._per_color("hands", partial=True))
        if set(hands) != {self.names[s] for s in shown}:
            raise self.fail("a view gives the hands of "
                            f"{', '.join(self.names[s] for s in shown)}", "hands")  # fmt: skip
        held = {n: self._cards(v, f"hands.{n}", most=3) for n, v in hands.items()}
        playing = setup_done and not over
        for name, cards in held.items():
            if cards and not playing:
                raise self.fail("holds no cards during the set-up or once the game is over",
                                f"hands.{name}")  # fmt: skip
        deals = []
        for slot, name in enumerate(self.names):
            out: list[tuple[Card, ...]] = []
            for rr in range(ROUNDS):
                cards = list(played[slot][rr])
                where = f"played.{name}[{rr}]"
                if rr == r and playing and name in held:
                    where = f"hands.{name}"
                    if len(cards) + len(held[name]) != TURNS_PER_ROUND:
                        raise self.fail(f"{name} played {len(cards)} card(s) this round, so "
                                        f"it holds {3 - len(cards)}, not {len(held[name])}",
                                        where)  # fmt: skip
                    cards += held[name]
                elif len(cards) < 3 and o.deal == "split" and rr % 2 == 1:
                    cards = list(_rest(self.decks[slot], out[rr - 1]))
                elif len(cards) < 3:
                    spare = Counter(self.decks[slot]) - Counter(cards)
                    cards += sorted(spare.elements())[: 3 - len(cards)]
                hand = tuple(sorted(cards))
                self._check_hand(slot, hand, out, rr, where)
                if Counter(played[slot][rr]) - Counter(hand):
                    raise self.fail(f"{name} played "
                                    f"{' '.join(card_name(c) for c in played[slot][rr])} in "
                                    f"round {rr + 1}, which its hand "
                                    f"{' '.join(card_name(c) for c in hand)} does not hold",
                                    f"played.{name}[{rr}]")  # fmt: skip
                out.append(hand)
            deals.append(out)
        return deals

    def _place(self, g: Gridblock, movers: list[int], played: list[list[list[Card]]],
               corners: list[int], turns: list[int], step: int) -> None:  # fmt: skip
        """Put the position on a fresh game and check its cubes."""
        g.corners = corners
        g.mover = movers
        g.played = [[list(r) for r in p] for p in played]
        g.step = step
        for slot, name in enumerate(self.names):
            color = self.colors[slot]
            cubes = corners.count(color)
            used = 1 + turns[slot] if movers[slot] >= 0 else 0
            if not ((movers[slot] < 0 and cubes == 0) or 1 <= cubes <= used):
                raise self.fail(f"{name} has {cubes} cube(s) on corners after a set-up and "
                                f"{turns[slot]} turn(s): between 1 and {used} (one cube per "
                                "turn, placed or discarded)" if used else
                                f"{name} has no mover yet, so no cube", "corners")  # fmt: skip
            if movers[slot] >= 0 and turns[slot] == 0:
                t = movers[slot]
                if g.layout[t] != g.setup_symbols[slot]:
                    raise self.fail(f"{name} drew {SYMBOLS[g.setup_symbols[slot]]} at set-up "
                                    f"and has not moved, but stands on "
                                    f"{SYMBOLS[g.layout[t]]} tile {tile_name(t)}",
                                    f"movers.{name}")  # fmt: skip
                if color not in corners[4 * t : 4 * t + 4]:
                    raise self.fail(f"{name} has not moved since the set-up, so its cube is on "
                                    f"its mover's tile {tile_name(t)}; no corner there holds "
                                    "it", "corners")  # fmt: skip
            g.placed[slot] = cubes
            g.discarded[slot] = used - cubes

    def _winner(self, corners: list[int], step: int) -> int | None:
        """Under ``instant_win``: the player who won at once (a tile with 3 or 4 corners of one
        colour and none of another can only come from the move that ended the game)."""
        if not self.options.instant_win:
            return None
        won = []
        for t in range(36):
            held = [c for c in corners[4 * t : 4 * t + 4] if c >= 0]
            if len(held) >= 3 and len(set(held)) == 1:
                won.append((t, held[0]))
        if not won:
            return None
        if len(won) > 1:
            raise self.fail("with instant_win the game stops at the first tile with 3 corners "
                            f"of one colour and none of another; "
                            f"{' and '.join(tile_name(t) for t, _ in won)} both are",
                            "corners")  # fmt: skip
        t, color = won[0]
        k = len(self.colors)
        last = self.colors[(step - k - 1) % k] if step > k else None
        if last != color:
            raise self.fail(f"{COLOR_NAMES[color]} won at once on {tile_name(t)}, so the game "
                            f"stopped after its move, but it is not the colour that moved "
                            f"last", "corners")  # fmt: skip
        return self.options.player_of(color)


def _rest(deck: Sequence[Card], hand: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted((Counter(deck) - Counter(hand)).elements()))

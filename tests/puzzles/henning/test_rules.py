"""City Blocks (Henning): the rules engine against the rule statement's worked examples and
an independent slow reference, move text, and the hidden-information views."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.errors import IllegalMoveError
from polytile.puzzles.henning.game import HenningGame, HenningState, unseen_tiles
from polytile.puzzles.henning.moves import PASS, Move
from polytile.puzzles.henning.rules import OPEN, TIED, Henning, street_sums
from polytile.puzzles.henning.tiles import (
    KINDS,
    STREETS,
    TILE_SET,
    VALUES,
    kind_of,
    parse_street,
)


def k(*names: str) -> list[int]:
    return [kind_of(n) for n in names]


# -- the worked examples of seeds/cityblocks-henning.md, section 8 ----------------------------
def test_example_8_1_school_zeroes_factories() -> None:
    owners = [0, 0, 0, 1, 1, 1]
    assert street_sums(owners, k("H5", "F7", "S2", "S6", "SC", "H4")) == (7, 10)
    assert street_sums(owners, k("H5", "F7", "S2", "S6", "CH", "H4")) == (14, 10)
    assert street_sums(owners, k("H5", "F7", "S2", "S6", "MA", "H4")) == (2, 6)


def test_example_8_2_power_plant_zeroes_houses_and_ties() -> None:
    assert street_sums([0, 0, 0, 1, 1], k("S2", "F3", "H4", "S5", "PP")) == (5, 5)


def test_rule_text_award_kinds() -> None:
    # The three kinds of award the published text illustrates: a courthouse worth 0, a school
    # zeroing factories of both players, a power plant and a mall zeroing houses (and the
    # mall factories too).
    assert street_sums([0, 0, 1, 1, 1], k("H2", "S3", "S6", "CH", "H1")) == (5, 7)
    assert street_sums([0, 1, 1, 0, 1], k("H1", "F6", "F3", "SC", "SC")) == (1, 0)
    assert street_sums([0, 1, 0, 1, 0], k("S3", "H5", "PP", "MA", "F7")) == (3, 0)


def _board(tokens: list[int], first: int = 0) -> Henning:
    return Henning(tokens, first, [k("H1", "H2", "H3", "H4", "H5")] * 2,
                   [[t for t in TILE_SET if t > 4]] * 2)  # fmt: skip


def test_completing_a_row_and_column_awards_both_and_redevelop_pays_lowest() -> None:
    g = _board([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    # Fill row 1 (street 0) and column a (street 5) so that a1 completes both.
    for b in [1, 2, 3, 4, 5, 6, 12, 18, 24]:
        g.push_legal(Move(g.hands[g.to_move][0], (b // 6, b % 6)))
    assert g.empty_in[0] == 1 and g.empty_in[5] == 1
    mover = g.to_move
    g.push(Move(g.hands[mover][-1], (0, 0)))
    assert g.award(0) != OPEN and g.award(5) != OPEN
    before = g.money[0] + g.money[1]
    assert sorted(before) == sorted(t for s, t in enumerate(g.tokens) if g.award(s) in (0, 1))
    holder = 0 if g.money[0] else 1
    if g.to_move != holder:
        g.push(g.random_move(np.random.default_rng(0)))
    if g.to_move == holder and g.money[holder]:
        mine = next(b for b in range(30) if g.owner[b] == holder)
        lowest = g.money[holder][0]
        with pytest.raises(IllegalMoveError, match="lowest token"):
            g.push(Move(g.hands[holder][0], (mine // 6, mine % 6), True, lowest + 100))
        g.push(Move(g.hands[holder][0], (mine // 6, mine % 6), True, lowest))
        assert lowest not in g.money[holder] and g.removed


def test_courthouse_swap_happens_before_the_award() -> None:
    # Example 8.4: a courthouse completes row 1 and swaps its token with column d's first.
    g = Henning([2, 5, 6, 7, 8, 9, 10, 11, 14, 12, 13], 0,
                [k("CH", "S6", "S5", "S4", "S3"), k("H1", "H2", "H3", "H4", "H5")],
                [[t for t in TILE_SET if t not in k("CH", "S6", "S5", "S4", "S3")],
                 [t for t in TILE_SET if t > 4]])  # fmt: skip
    ch = kind_of("CH")
    for c in range(1, 6):
        g.push(Move(next(x for x in g.hands[0] if x != ch), (0, c)))
        g.push(Move(g.hands[1][0], (4, c - 1)))
    assert g.to_move == 0 and ch in g.hands[0]
    m = Move.parse("CH@a1 swap 1,d")
    assert m.swap == (0, parse_street("d"))
    g.push(m)
    assert g.tokens[0] == 14 and g.tokens[parse_street("d")] == 2
    assert g.award(0) in (0, 1, TIED)
    g.pop()
    assert g.tokens[0] == 2 and g.award(0) == OPEN


# -- an independent slow reference --------------------------------------------------------------
def reference_moves(g: Henning) -> set[str]:
    """Legal moves by the rule statement, from scratch, as text."""
    if _reference_over(g):
        return set()
    p = g.to_move
    out = set()
    opens = [s for s in range(11) if g.award(s) == OPEN]
    for kind in set(g.hand(p)):
        targets = [(b, False) for b in range(30) if g.at((b // 6, b % 6)) is None]
        if g.money[p]:
            targets += [(b, True) for b in range(30) if (g.at((b // 6, b % 6)) or (-1,))[0] == p]
        for b, re in targets:
            swaps = [None, *combinations(opens, 2)] if kind == kind_of("CH") else [None]
            for swap in swaps:
                out.add(str(Move(kind, (b // 6, b % 6), re, g.money[p][0] if re else None, swap)))
    return out or {"pass"}


def _reference_over(g: Henning) -> bool:
    full = all(g.at((b // 6, b % 6)) is not None for b in range(30))
    return (
        full
        or not any(g.hand(p) for p in (0, 1))
        or (not g.hand(g.to_move) and not g.hand(1 - g.to_move))
    )


def reference_money(g: Henning) -> tuple[int, int]:
    """Money recomputed from the move list: replay every award on a plain board."""
    start = g.copy()
    while start.move_stack:
        start.pop()
    owners: dict[int, tuple[int, int]] = {}
    tokens = list(start.tokens)
    money = [0, 0]
    held: list[list[int]] = [[], []]
    awarded: set[int] = set()
    player = start.to_move
    for move in g.move_stack:
        if not move.is_pass:
            assert move.block is not None
            b = move.block[0] * 6 + move.block[1]
            if move.redevelop:
                held[player].remove(min(held[player]))
            owners[b] = (player, move.kind)
            if move.swap:
                a, c = move.swap
                tokens[a], tokens[c] = tokens[c], tokens[a]
            if not move.redevelop:
                for s, blocks in enumerate(STREETS):
                    if b in blocks and s not in awarded and all(x in owners for x in blocks):
                        awarded.add(s)
                        kinds = [owners[x][1] for x in blocks]
                        sums = [0, 0]
                        for x in blocks:
                            o, kind = owners[x]
                            name = KINDS[kind]
                            if name[0] == "F" and (
                                "SC" in map(KINDS.__getitem__, kinds)
                                or "MA" in map(KINDS.__getitem__, kinds)
                            ):
                                continue
                            if name[0] == "H" and (
                                "PP" in map(KINDS.__getitem__, kinds)
                                or "MA" in map(KINDS.__getitem__, kinds)
                            ):
                                continue
                            sums[o] += VALUES[kind]
                        if sums[0] != sums[1]:
                            held[0 if sums[0] > sums[1] else 1].append(tokens[s])
        player = 1 - player
    money = [sum(h) for h in held]
    return money[0], money[1]


@pytest.mark.parametrize("seed", range(12))
def test_engine_matches_the_reference_on_random_games(seed: int) -> None:
    rng = np.random.default_rng(seed)
    g = Henning.new(seed)
    while True:
        legal = {str(m) for m in g.legal_moves()}
        assert legal == reference_moves(g)
        assert g.count_legal_moves() == len(g.legal_moves())
        if not legal:
            break
        key = g.state_key()
        move = g.random_move(rng)
        assert str(move) in legal
        g.push(move)
        assert (g.money_of(0), g.money_of(1)) == reference_money(g)
        g.pop()
        assert g.state_key() == key
        g.push(move)
    assert g.is_over()
    assert g.empty == 0 or not (g.hand(0) or g.hand(1)) or not any(g.has_play(p) for p in (0, 1))


def test_random_move_is_uniform_over_legal_moves() -> None:
    g = Henning.new(4)
    rng = np.random.default_rng(1)
    for _ in range(6):
        g.push(g.random_move(rng))
    legal = g.legal_moves()
    draws = Counter(str(g.random_move(rng)) for _ in range(40 * len(legal)))
    assert set(draws) <= {str(m) for m in legal}
    assert len(draws) > 0.9 * len(legal)


def test_illegal_moves_are_named() -> None:
    g = Henning.new(1)
    with pytest.raises(IllegalMoveError, match="holds no"):
        g.push(
            Move(kind_of("F7") if kind_of("F7") not in g.hand(g.to_move) else 0, (0, 0))
            if kind_of("F7") not in g.hand(g.to_move)
            else Move(-1)
        )
    with pytest.raises(IllegalMoveError, match="passing is forced only"):
        g.push(PASS)


# -- move text ------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 40))
def test_move_text_round_trips(seed: int, plies: int) -> None:
    g = Henning.new(seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if g.is_over():
            break
        g.push(g.random_move(rng))
    for m in g.legal_moves()[:200]:
        assert Move.parse(str(m)) == m


@pytest.mark.parametrize(
    "text",
    [
        "S4@z9",
        "XX@a1",
        "redevelop H2@c1",
        "CH@a2 swap 1,1",
        "S4@a1 swap 1,2",
        "redevelop H2@c1 with 3",
        "",
    ],
)
def test_bad_move_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Move.parse(text)


def test_park_is_a_school() -> None:
    assert Move.parse("park@a1") == Move.parse("SC@a1") == Move.parse("pk@A1")


# -- hidden information ------------------------------------------------------------------------
def _midgame(seed: int, reserve: int) -> HenningState:
    s = HenningGame().new_initial_state(seed)
    rng = np.random.default_rng(seed)
    b = s.board
    while (b.reserve_size(0) > reserve or b.reserve_size(1) > reserve) and not b.is_over():
        b.push_legal(b.random_move(rng))
    return s


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 15), st.integers(0, 1))
def test_sampled_states_agree_with_the_view(seed: int, reserve: int, player: int) -> None:
    s = _midgame(seed, reserve)
    view = s.information_state(player)
    t = s.sample_hidden(player, np.random.default_rng(seed))
    assert t.information_state(player) == view
    q = 1 - player
    assert sorted(t.board.hand(q) + t.board.reserve(q)) == unseen_tiles(s.board, q)
    assert sorted(t.board.reserve(player)) == sorted(s.board.reserve(player))
    assert t.board.hand(player) == s.board.hand(player)


def test_hidden_states_are_all_consistent_and_sum_to_one() -> None:
    s = _midgame(5, 2)
    player = s.board.to_move
    listed = list(s.hidden_states(player) or [])
    assert len(listed) == s.count_hidden_states(player) > 1
    assert sum(w for _, w in listed) == pytest.approx(1.0)
    view = s.information_state(player)
    assert all(t.information_state(player) == view for t, _ in listed)
    assert len({t.state_key() for t, _ in listed}) == len(listed)
    truth = s.board.state_key()
    assert any(t.state_key() == truth for t, _ in listed)


def test_hidden_state_probabilities_match_shuffling() -> None:
    s = _midgame(11, 1)
    player = s.board.to_move
    listed = {t.state_key(): w for t, w in s.hidden_states(player) or []}
    rng = np.random.default_rng(3)
    n = 6000
    counts = Counter(s.sample_hidden(player, rng).state_key() for _ in range(n))
    for key, w in listed.items():
        assert abs(counts[key] / n - w) < 4 * (w * (1 - w) / n) ** 0.5 + 1e-9


def test_early_views_are_too_many_to_list() -> None:
    s = HenningGame().new_initial_state(1)
    assert s.hidden_states(0) is None
    assert s.count_hidden_states(0) > 10**20

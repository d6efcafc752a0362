"""Gridblock under the game protocol: the description, the views, and the hidden cards drawn
or listed consistently with a view."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from polytile.puzzles.game import TERMINAL, load_game
from polytile.puzzles.gridblock.game import (
    MAX_LISTED,
    GridblockGame,
    GridblockState,
    hand_weights,
)
from polytile.puzzles.gridblock.grid import DEFAULT_DECK
from polytile.puzzles.gridblock.rules import ROUNDS, TURNS_PER_ROUND, Gridblock


def _advance(s: GridblockState, steps: int, seed: int = 0) -> GridblockState:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if s.is_over():
            break
        legal = s.legal_moves()
        s.push(legal[int(rng.integers(len(legal)))])
    return s


def _round_start(s: GridblockState, r: int) -> int:
    """Steps from the start to the first turn of round ``r`` (0-based)."""
    k = len(s.board.colors)
    return k + r * TURNS_PER_ROUND * k


def _check_consistent(s: GridblockState, t: GridblockState, player: int) -> None:
    """``t`` is a full state ``player`` cannot tell from ``s``, and a legal one."""
    assert t.information_state(player) == s.information_state(player)
    b = t.board
    for slot in range(len(b.colors)):
        deck = Counter(b.decks[slot])
        for r in range(ROUNDS):
            hand = Counter(b.deals[slot][r])
            assert sum(hand.values()) == 3 and not hand - deck
            assert not Counter(b.played[slot][r]) - hand
            if b.options.deal == "split" and r % 2 == 1:
                assert hand + Counter(b.deals[slot][r - 1]) == deck
        assert b.setup_symbols[slot] in {c[0] for c in b.decks[slot]}
    # The construction checks would refuse anything inconsistent.
    Gridblock(b.layout, b.options, b.decks, b.setup_symbols, b.deals)


def test_registry_and_description() -> None:
    g = load_game("gridblock", players=2, two_player_score="weaker", deal="split")
    assert isinstance(g, GridblockGame) and g.num_players == 2
    assert g.player_names() == ("blue+red", "yellow+green")
    assert not g.traits.perfect_information and g.traits.sequential
    assert g.revealed().traits.perfect_information and g.revealed() != g
    assert g == GridblockGame(2, "weaker", "split") and hash(g) == hash(
        GridblockGame(2, "weaker", "split")
    )
    assert g.utility_range() == (0.0, 31.0)
    assert GridblockGame(2).utility_range() == (0.0, 62.0)
    assert GridblockGame(3).max_game_length() == 3 * 19
    with pytest.raises(ValueError, match="2, 3 or 4"):
        load_game("gridblock", players=5)
    with pytest.raises(ValueError, match="deal"):
        load_game("gridblock", deal="open")
    with pytest.raises(ValueError, match="gridblock"):
        load_game("gridblock", colour="blue")


def test_moves_read_back_and_unmake() -> None:
    g = GridblockGame(3)
    s = _advance(g.new_initial_state(4), 10)
    for m in s.legal_moves():
        assert g.parse_move(str(m)) == m
    key = s.state_key()
    m = s.legal_moves()[-1]
    s.push(m)
    assert s.pop() == m and s.state_key() == key
    assert s.to_move == s.board.to_move
    _advance(s, 100)
    assert s.is_over() and s.to_move == TERMINAL and len(s.returns()) == 3


def test_views_show_own_hands_only() -> None:
    s = _advance(GridblockGame(2).new_initial_state(1), 4 + 1)  # set-up, blue's first turn
    b = s.board
    blue_view, yellow_view = s.information_state(0), s.information_state(1)
    hands = blue_view.split("hands:")[1]
    assert "blue " in hands and "red " in hands and "yellow " not in hands
    # Another hand for yellow this round: blue cannot tell, yellow can.
    other = s.clone()
    assert isinstance(other, GridblockState)
    ob = other.board
    ob.deals[1][0] = next(h for h, _ in hand_weights(ob.decks[1]) if h != b.deals[1][0])
    assert other.information_state(0) == blue_view
    assert other.information_state(1) != yellow_view
    # So are later deals, its own colours' included.
    ob.deals[0][3] = next(h for h, _ in hand_weights(ob.decks[0]) if h != b.deals[0][3])
    assert other.information_state(0) == blue_view


def test_split_even_rounds_are_open_to_all() -> None:
    g = GridblockGame(4, deal="split")
    s = g.new_initial_state(2)
    _advance(s, _round_start(s, 1))  # the start of round 2
    views = [s.information_state(p).split("hands:")[1] for p in range(4)]
    assert all(v == views[0] for v in views)
    assert all(f"{n} " in views[0] for n in ("blue", "yellow", "red", "green"))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deal", ["shuffle", "split"])
def test_sampled_states_agree_with_the_view(players: int, deal: str) -> None:
    g = GridblockGame(players, deal=deal)
    rng = np.random.default_rng(players)
    s = g.new_initial_state(players)
    changed = 0
    steps = [0, 1, 5, 13, 27, 40, 70]
    done = 0
    for target in steps:
        _advance(s, target - done, seed=target)
        done = target
        for player in range(players):
            for _ in range(3):
                t = s.sample_hidden(player, rng)
                _check_consistent(s, t, player)
                changed += t.state_key() != s.state_key()
                assert t.board.move_stack == s.board.move_stack
    assert changed > 0  # the hidden part really is redrawn


def test_sampled_states_play_on_to_the_end() -> None:
    s = _advance(GridblockGame(4, instant_win=True).new_initial_state(8), 20)
    t = s.sample_hidden(2, np.random.default_rng(0))
    _advance(t, 200, seed=1)
    assert t.is_over()


def test_setup_draws_still_to_come_are_hidden() -> None:
    s = GridblockGame(4).new_initial_state(5)
    seen = {tuple(s.sample_hidden(0, np.random.default_rng(i)).board.setup_symbols)
            for i in range(30)}  # fmt: skip
    assert {x[0] for x in seen} == {s.board.setup_symbols[0]}  # blue has drawn
    assert len({x[1:] for x in seen}) > 1


def test_hand_weights() -> None:
    assert len(hand_weights(DEFAULT_DECK)) == 20
    assert all(abs(w - 0.05) < 1e-12 for _, w in hand_weights(DEFAULT_DECK))
    one = hand_weights(DEFAULT_DECK, [(2, 3), (0, 1)])
    assert [h for h, _ in one] == [tuple(sorted([(0, 1), (2, 3), x])) for x in
                                   [(1, 2), (3, 1), (4, 2), (5, 3)]]  # fmt: skip
    # A deck with two A1 cards deals some hands in more ways than others.
    deck = [(0, 1), (0, 1), (1, 2), (2, 3), (3, 1), (4, 2)]
    w = dict(hand_weights(deck, [(1, 2)]))
    assert abs(sum(w.values()) - 1) < 1e-12
    # Of the 10 draws with B2: A1 A1 B2 once, A1 B2 x twice for each of C3 D1 E2, and the
    # three hands of B2 with two of C3 D1 E2 once each.
    assert w[((0, 1), (0, 1), (1, 2))] == pytest.approx(0.1)
    assert w[((0, 1), (1, 2), (2, 3))] == pytest.approx(0.2)
    assert w[((1, 2), (2, 3), (3, 1))] == pytest.approx(0.1)


def test_sampling_follows_the_weights() -> None:
    deck = [(0, 1), (0, 1), (1, 2), (2, 3), (3, 1), (4, 2)]
    g = Gridblock.new(3, decks=[deck] * 4)
    s = GridblockGame().state_of(g)
    _advance(s, _round_start(s, 5) + 1)  # blue has played once in the last round
    rng = np.random.default_rng(7)
    counts = Counter(s.sample_hidden(1, rng).board.deals[0][5] for _ in range(3000))
    weights = dict(hand_weights(deck, s.board.played[0][5]))
    assert set(counts) == set(weights)
    for hand, w in weights.items():
        assert abs(counts[hand] / 3000 - w) < 0.04


def test_hidden_states_are_listed_with_weights_summing_to_one() -> None:
    g = GridblockGame(3)
    s = g.new_initial_state(6)
    _advance(s, _round_start(s, 5) + 2)  # the last round, blue and yellow have played once
    for player in range(3):
        n = s.count_hidden_states(player)
        assert 1 < n <= MAX_LISTED
        listed = s.hidden_states(player)
        assert listed is not None
        items = list(listed)
        assert len(items) == n
        assert sum(w for _, w in items) == pytest.approx(1.0)
        keys = set()
        for t, _ in items:
            assert isinstance(t, GridblockState)
            _check_consistent(s, t, player)
            keys.add(t.state_key())
        assert len(keys) == n and s.state_key() in keys
    # Early on, the later deals are far too many to list.
    early = g.new_initial_state(6)
    assert early.count_hidden_states(0) > MAX_LISTED and early.hidden_states(0) is None


def test_is_open_and_revealed() -> None:
    split = GridblockGame(2, deal="split")
    s = split.new_initial_state(4)
    _advance(s, _round_start(s, 5))  # round 6 under split: every hand is known
    assert s.is_open() and all(s.count_hidden_states(p) == 1 for p in range(2))
    shuffle = GridblockGame(2)
    t = shuffle.new_initial_state(4)
    _advance(t, _round_start(t, 5))
    assert not t.is_open()
    _advance(t, 100)
    assert t.is_over() and t.is_open()
    r = t.revealed()
    assert r.game.traits.perfect_information and r.state_key() == t.state_key()
    with pytest.raises(ValueError, match="options"):
        GridblockGame(3).state_of(Gridblock.new(1))

"""Gridblock rounds solved exactly, against plain minimax through the rules engine; one
colour's best plan against brute force through the engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

from polytile.errors import SolverError
from polytile.puzzles.gridblock import endgame
from polytile.puzzles.gridblock._round_bounds import Layout, value_bounds
from polytile.puzzles.gridblock._round_search import RoundHooks, RoundObjective, RoundState
from polytile.puzzles.gridblock.endgame import (
    HiddenCardsError,
    RoundStopped,
    best_plan,
    replay_line,
    round_objective,
    solve_round,
)
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import INSTANT_WIN, Gridblock, Options, tile_scores
from polytile.solvers.alphabeta import Hooks, alphabeta

OPTIONS = {
    "2p": Options(players=2),
    "2p-weaker": Options(players=2, two_player_score="weaker"),
    "2p-win": Options(players=2, instant_win=True),
    "3p": Options(players=3),
    "3p-win": Options(players=3, instant_win=True),
    "4p": Options(players=4),
    "4p-split": Options(players=4, deal="split"),
}


def late(seed: int, options: Options, left: int, rnd: int | None = None) -> Gridblock:
    """A seeded random game with ``left`` colour-turns left in round ``rnd`` (default: a
    seeded round 1-6); a game an instant win ended before is replaced by the next seed's."""
    while True:
        g = Gridblock.new(seed=seed, options=options)
        rng = np.random.default_rng(seed)
        k = len(g.colors)
        r = int(rng.integers(6)) if rnd is None else rnd
        stop = k + (r + 1) * 3 * k - left
        while g.step < stop and not g.is_over():
            moves = g.legal_moves()
            g.push_legal(moves[int(rng.integers(len(moves)))])
        if not g.is_over():
            return g
        seed += 1000


def value_of(g: Gridblock, player: int) -> float:
    """The objective of the engine's returns: the 2-player margin or ``player``'s return;
    a game won at once (option 7.4) is a win whatever the points (the returns add them)."""
    r = g.returns()
    two = g.options.players == 2
    if g.winner is not None and (two or g.winner == player):
        return INSTANT_WIN if g.winner == (0 if two else player) else -INSTANT_WIN
    return r[0] - r[1] if two else r[player]


def minimax(g: Gridblock, player: int, key: Callable[[Gridblock], object] | None = None,
            one_corner: bool = False) -> tuple[float, dict[Move, float]]:  # fmt: skip
    """Plain minimax to the end of the round through the engine: every legal move (each
    corner), checked pushes, values from the engine's returns; memoised on the engine's
    state key (or ``key``). Returns the value and each root move's value."""
    k = len(g.colors)
    end = k + (g.round + 1) * 3 * k
    memo: dict[object, float] = {}
    side = 0 if g.options.players == 2 else player

    def moves() -> list[Move]:
        out = g.legal_moves()
        if one_corner:
            first: dict[tuple[object, int], Move] = {}
            for m in out:
                first.setdefault((m.card, m.tile), m)
            out = list(first.values())
        return out

    def go() -> float:
        if g.winner is not None or g.step >= end:
            return value_of(g, player)
        kk = g.state_key() if key is None else key(g)
        if kk in memo:
            return memo[kk]
        up = g.to_move == side
        best = -np.inf if up else np.inf
        for m in moves():
            g.push(m)
            v = go()
            g.pop()
            best = max(best, v) if up else min(best, v)
        memo[kk] = best
        return best

    root = {}
    for m in g.legal_moves():
        g.push(m)
        root[m] = go()
        g.pop()
    up = g.to_move == side
    return (max(root.values()) if up else min(root.values())), root


def corner_counts(g: Gridblock) -> object:
    """A memo key that forgets which corner a cube is on (corners are interchangeable)."""
    tiles = tuple(tuple(sorted(g.corners[4 * t : 4 * t + 4])) for t in range(36))
    return tiles, g.step, tuple(g.mover), tuple(g.hand(s) for s in range(len(g.colors)))


CASES = [(name, seed, left) for name in OPTIONS for seed in range(3) for left in (3, 4)]


@pytest.mark.parametrize(("name", "seed", "left"), CASES)
def test_round_equals_plain_minimax(name: str, seed: int, left: int) -> None:
    options = OPTIONS[name]
    g = late(seed, options, left)
    players = range(options.players) if options.players > 2 and left == 3 else [g.to_move]
    for p in players:
        want, root = minimax(g, p)
        r = solve_round(g, player=p if options.players > 2 else None, open_analysis=True)
        assert r.value == want, (name, seed, left, p)
        assert set(r.best_moves) == {m for m, v in root.items() if v == want}
        assert len(r.pv) == left and r.pv_value == want
        assert r.open == (options.deal != "split" or g.round % 2 == 0)


@pytest.mark.parametrize("name", ["2p-weaker", "3p", "4p"])
def test_many_short_rounds(name: str) -> None:
    """The last two or three colour-turns of many rounds: where the last card's quiet moves
    are pruned (under "weaker", only those no other quiet move beats for every colour)."""
    for seed in range(12):
        g = late(40 + seed, OPTIONS[name], 2 + seed % 2)
        want, _ = minimax(g, g.to_move)
        p = None if g.options.players == 2 else g.to_move
        assert solve_round(g, player=p, open_analysis=True, all_best=False).value == want


def plain_search(g: Gridblock, player: int | None) -> float:
    """The generic alpha-beta with no game hooks: every legal move (each corner), no bounds,
    the state's own key (corners forgotten, every tile and mover kept)."""
    obj = round_objective(g, player)
    return alphabeta(RoundState(g.copy(), obj), obj.as_objective(), Hooks()).value


@pytest.mark.parametrize("name", list(OPTIONS))
@pytest.mark.parametrize("left", [6, pytest.param(8, marks=pytest.mark.slow)])
def test_hooks_agree_with_plain_alpha_beta(name: str, left: int, slow_scale: str) -> None:
    """Deeper than minimax reaches: the bounds, the pruning and the key that forgets dead
    tiles and idle colours against a search without them, for every player."""
    if left == 8 and OPTIONS[name].players > 2 and slow_scale == "reduced":
        # 13-25 s each (the plain search, once per player); 6 left checks the same hooks
        pytest.skip("full size only (POLYTILE_SLOW=full): 8 left with 3 or 4 players")
    g = late(60 + left, OPTIONS[name], left)
    players = [None] if g.options.players == 2 else list(range(len(g.colors)))
    for p in players:
        r = solve_round(g, player=p, open_analysis=True, all_best=False)
        assert r.value == plain_search(g, p), (name, p)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seed", "left"), [("2p", 5, 5), ("3p", 6, 5), ("4p", 7, 5),
                                                    ("2p", 8, 6)])  # fmt: skip
def test_longer_rounds_equal_minimax(name: str, seed: int, left: int) -> None:
    options = OPTIONS[name]
    g = late(seed, options, left)
    want, _ = minimax(g, g.to_move, key=corner_counts, one_corner=True)
    assert solve_round(g, open_analysis=True, all_best=False).value == want


def threaten(g: Gridblock, slot: int) -> bool:
    """Give colour ``slot`` two corners of a free tile that one of its cards reaches with
    the tile's symbol (the colour then threatens an instant win); False if none is near."""
    from polytile.puzzles.gridblock.grid import end_tiles

    for card in g.hand(slot):
        for e in end_tiles(g.mover[slot], card[1]):
            if g.layout[e] == card[0] and all(c < 0 for c in g.corners[4 * e : 4 * e + 4]):
                g.corners[4 * e : 4 * e + 2] = [g.colors[slot]] * 2
                return True
    return False


@pytest.mark.parametrize("name", ["2p-win", "3p-win"])
def test_instant_wins_are_searched(name: str) -> None:
    """Rounds in which the mover, or the colour after it, threatens an instant win (two of
    its cubes on a tile it can reach, two corners free): against minimax."""
    wins = 0
    for seed in range(6):
        g = late(30 + seed, OPTIONS[name], 4 if name == "2p-win" else 3)
        k = len(g.colors)
        if not threaten(g, (g.to_move_slot + seed % 2) % k):
            continue
        for p in range(1 if g.options.players == 2 else k):
            want, root = minimax(g, p)
            wins += any(abs(v) >= INSTANT_WIN // 2 for v in root.values())
            r = solve_round(g, player=None if g.options.players == 2 else p, open_analysis=True)
            assert r.value == want
            assert set(r.best_moves) == {m for m, v in root.items() if v == want}
    assert wins >= 2


@pytest.mark.parametrize("name", list(OPTIONS))
def test_bounds_hold(name: str) -> None:
    """lo <= value <= hi at every state of short searches, and the hooks change no value."""
    options = OPTIONS[name]
    for seed in range(4):
        g = late(10 + seed, options, 3)
        obj = round_objective(g, None if options.players == 2 else 0)
        want, root = minimax(g, 0)
        st = RoundState(g.copy(), obj)
        b = value_bounds(st, Layout(g.layout))
        if b is not None:
            assert b[0] <= want <= b[1]
        for m, v in root.items():
            st.push(m)
            b = value_bounds(st, Layout(g.layout)) if not st.is_over() else None
            st.pop()
            if b is not None:
                assert b[0] <= v <= b[1], (str(m), b, v)
        plain = alphabeta(RoundState(g.copy(), obj), obj.as_objective(),
                          RoundHooks(g.layout, use_bounds=False, prune_last=False))  # fmt: skip
        assert plain.value == want


def test_hidden_hands_are_refused_without_open_analysis() -> None:
    g = late(1, Options(players=2), 4, rnd=1)
    with pytest.raises(HiddenCardsError, match="not known to every player"):
        solve_round(g)
    split = late(1, Options(players=2, deal="split"), 4, rnd=1)  # round 2: every hand known
    r = solve_round(split)
    assert not r.open and r.as_dict()["kind"] == "exact"
    odd = late(1, Options(players=2, deal="split"), 4, rnd=2)
    with pytest.raises(HiddenCardsError):
        solve_round(odd)


def test_setup_and_game_over_are_refused() -> None:
    g = Gridblock.new(seed=1)
    with pytest.raises(ValueError, match="set-up"):
        solve_round(g, open_analysis=True)
    g.play_random(seed=1)
    with pytest.raises(ValueError, match="over"):
        solve_round(g, open_analysis=True)
    with pytest.raises(ValueError, match="over"):
        best_plan(g)


def test_node_limit_stops() -> None:
    g = late(2, Options(players=2), 10, rnd=2)
    with pytest.raises(RoundStopped, match="node limit") as info:
        solve_round(g, open_analysis=True, node_limit=50)
    assert info.value.reason == "nodes"


def test_a_wrong_line_is_rejected() -> None:
    g = late(3, Options(players=2), 3, rnd=1)
    r = solve_round(g, open_analysis=True)
    obj = round_objective(g)
    replay_line(g, r.pv, obj, r.value)
    with pytest.raises(SolverError, match="not at the value"):
        replay_line(g, r.pv, obj, r.value + 1)
    with pytest.raises(SolverError, match="not with the round"):
        replay_line(g, r.pv[:-1], obj, r.value)
    with pytest.raises(SolverError, match="rejects"):
        replay_line(g, (*r.pv[:-1], r.pv[0]), obj, r.value)


def test_full_round_two_players() -> None:
    """A whole round (12 colour-turns) solves, and the answer agrees with a search whose
    bounds are off for the last turns of its line."""
    g = late(0, Options(players=2, deal="split"), 12, rnd=1)
    r = solve_round(g, all_best=False)
    assert len(r.pv) == 12 and r.value == r.pv_value
    after = g.copy()
    for m in r.pv[:8]:
        after.push(m)
    want, _ = minimax(after, 0, key=corner_counts, one_corner=True)
    assert solve_round(after).value == want


# -- best_plan --------------------------------------------------------------------------------
def plan_brute_force(g: Gridblock) -> int:
    """The best score over every plan of the colour to move, the others not moving: every
    legal move of the engine (each corner), the turn held after each checked push."""
    slot = g.to_move_slot
    k = len(g.colors)
    mine = [s for s in range(k) if g.options.player_of(g.colors[s]) == g.to_move]

    def score(h: Gridblock) -> int:
        pts = tile_scores(h.corners, h.colors)
        per = [pts[h.colors[s]] for s in mine]
        v = min(per) if g.options.two_player_score == "weaker" else sum(per)
        return v + (INSTANT_WIN if h.winner is not None else 0)

    def go(h: Gridblock) -> int:
        if not h.hand(slot) or h.winner is not None:
            return score(h)
        best = -1
        for m in h.legal_moves():
            c = h.copy()
            c.push(m)
            c.step -= 1
            best = max(best, go(c))
        return best

    return go(g.copy())


@pytest.mark.parametrize("name", list(OPTIONS))
@pytest.mark.parametrize("left", [1, 2, 3])
def test_best_plan_equals_brute_force(name: str, left: int) -> None:
    for seed in range(2 if left < 3 else 1):
        k = OPTIONS[name].players if OPTIONS[name].players > 2 else 4
        g = late(20 + seed, OPTIONS[name], k * (left - 1) + 1)  # the mover has `left` cards
        assert len(g.hand(g.to_move_slot)) == left
        p = best_plan(g)
        assert p.score == plan_brute_force(g)
        assert p.color == g.to_move_color and 1 <= p.best_plans <= p.plans
        assert len(p.plan) <= left and all(m.path for m in p.plan)


def test_best_plan_counts_every_plan() -> None:
    g = late(4, Options(players=2), 12, rnd=2)
    p = best_plan(g)
    assert 1 < p.plans <= 3072
    assert p.as_dict()["note"].startswith("the other colours held")


# -- every listed best move checked by the engine ----------------------------------------------
@pytest.mark.parametrize("name", ["2p", "2p-weaker", "2p-win", "3p", "4p"])
def test_every_best_move_is_replayed_by_the_engine(name: str, monkeypatch: pytest.MonkeyPatch
                                                   ) -> None:  # fmt: skip
    """The principal variation first, then a line for each listed best move in turn, each
    starting with that very move (its corner included) and passing the engine's replay."""
    replayed: list[tuple[Move, ...]] = []
    real = endgame.replay_line

    def spy(g: Gridblock, line: Sequence[Move], obj: RoundObjective, value: int) -> Gridblock:
        end = real(g, line, obj, value)
        replayed.append(tuple(line))
        return end

    monkeypatch.setattr(endgame, "replay_line", spy)
    for seed in range(4):
        g = late(seed, OPTIONS[name], 5)
        replayed.clear()
        r = solve_round(g, open_analysis=True)
        assert r.best_moves and replayed[0] == r.pv
        assert [line[0] for line in replayed[1:]] == list(r.best_moves)
        assert all(line[1:] == r.pv[1:] for line in replayed[1:] if line[0] == r.pv[0])


def test_a_best_move_whose_line_fails_is_an_internal_error(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:  # fmt: skip
    g = late(4, OPTIONS["2p"], 5)  # best moves on several tiles: some lines come from a search
    monkeypatch.setattr(endgame, "_line_after", lambda g, obj, move, value, limits: (move,))
    with pytest.raises(SolverError, match=r"the best move .* fails the engine's check"):
        solve_round(g, open_analysis=True)
    monkeypatch.undo()
    solve_round(g, open_analysis=True)
    monkeypatch.setattr(endgame, "_corner_twin", lambda move, line: (move, *line[1:-1]))
    with pytest.raises(SolverError, match=r"the best move .* fails .*not with the round"):
        solve_round(g, open_analysis=True)


def test_the_limits_cover_the_lines_of_the_best_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    g = late(4, OPTIONS["2p"], 5)
    with monkeypatch.context() as m:
        m.setattr(endgame, "_check_best_moves", lambda *args: None)
        searched = solve_round(g, open_analysis=True).nodes
    assert solve_round(g, open_analysis=True).nodes > searched  # lines were searched
    with pytest.raises(RoundStopped) as info:
        solve_round(g, open_analysis=True, node_limit=searched)
    assert info.value.reason == "nodes"
    assert solve_round(g, open_analysis=True, all_best=False).best_moves == ()


def test_a_stopped_round_keeps_the_players_it_solved(capsys: pytest.CaptureFixture[str]) -> None:
    """A 4-player round stopped at its last player keeps what the players solved before make
    sure of, and says what it proved of the one it was at (issue 48, item 5)."""
    import json

    from polytile.puzzles.gridblock.report import _stopped
    from polytile.solvers.alphabeta import ProvenBounds

    class Out:
        def out(self, text: str = "", **_: object) -> None:
            print(text)

        def err(self, text: str = "") -> None:
            print(text, file=__import__("sys").stderr)

    g = late(5, OPTIONS["4p"], 8, rnd=0)
    solved = [endgame.solve_round(g, player=p, open_analysis=True) for p in range(3)]
    stop = endgame.RoundStopped("time", 1234, 1.0, ProvenBounds(2, 7, g.legal_moves()[0],
                                                                 False, 3, 9))  # fmt: skip
    _stopped(Out(), "rec.json", g, True, stop, solved)  # type: ignore[arg-type]
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["complete"] is False and doc["stopped_by"] == "time"
    assert len(doc["guaranteed"]) == 3 and doc["proven"]["high"] == 7
    assert err.count("solved before the stop:") == 3 and "(exact)" in err
    assert "proven before the stop: the points" in err and "holds it to at most +7" in err

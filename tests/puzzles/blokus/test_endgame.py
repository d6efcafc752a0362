"""Blokus exact endgames: the values agree with a plain minimax over the rules engine, the
lines replay to them, and large positions are refused."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.blokus.endgame import (
    EndgameRefused,
    EndgameStopped,
    endgame_size,
    solve_endgame,
)
from polytile.puzzles.blokus.rules import Blokus
from polytile.puzzles.blokus.scoring import player_names


def objective(game: Blokus, player: str) -> int:
    """Difference mode: the first player's lead; else ``player``'s own score."""
    totals = game.score().player_totals
    names = player_names(game.players, game.variant.name)
    if len(names) == 2:
        return totals[names[0]] - totals[names[1]]
    return totals[player]


def minimax(game: Blokus, player: str, memo: dict[tuple[object, ...], int]) -> int:
    """The value by brute force: every legal move at every turn, no bounds, no pruning."""
    key = (tuple(game.board_rows()), tuple(game.hand(c) for c in game.colors),
           tuple(game.last_piece(c) for c in game.colors), game.to_move)  # fmt: skip
    if key in memo:
        return memo[key]
    moves = game.legal_moves()
    if not moves:
        value = objective(game, player)
    else:
        values = []
        for move in moves:
            game.push(move)
            values.append(minimax(game, player, memo))
            game.pop()
        value = max(values) if game.player_to_move == player else min(values)
    memo[key] = value
    return value


def contested(variant: str, players: int | str, seed: int, low: int, high: int) -> Blokus:
    """The first position of a random game (big pieces half the time) where no player can
    still place more than ``high`` pieces and two players can place ``low`` or more."""
    game = Blokus(variant, players)
    rng = np.random.default_rng(seed)
    while not game.is_game_over():
        sizes = sorted(endgame_size(game).values())
        if game.move_stack and sizes[-1] <= high and sizes[-2] >= low:
            break
        moves = game.legal_moves()
        biggest = max(len(m.cells) for m in moves)
        if rng.random() < 0.5:
            moves = [m for m in moves if len(m.cells) == biggest]
        game.push(moves[int(rng.integers(len(moves)))])
    return game


# Positions where both sides still fight over cells; the brute force visits from 20 to about
# 1,200 distinct positions for them.
CASES = [
    ("duo", 2, 2, 3, 5),
    ("duo", 2, 30, 3, 5),
    ("classic", 2, 6, 3, 4),
    ("classic", "teams", 21, 3, 4),
    ("classic", 4, 11, 2, 3),
    ("classic", 4, 13, 2, 3),
    ("classic", 3, 11, 2, 3),
    ("classic", 3, 13, 2, 3),
]


@pytest.mark.parametrize(("variant", "players", "seed", "low", "high"), [
    *CASES, pytest.param("duo", 2, 0, 3, 5, marks=pytest.mark.slow),  # ~500,000 for brute force
])  # fmt: skip
def test_values_agree_with_brute_force(variant: str, players: int | str, seed: int, low: int,
                                       high: int,
                                       request: pytest.FixtureRequest) -> None:  # fmt: skip
    if request.node.get_closest_marker("slow") and request.getfixturevalue("slow_scale") != "full":
        pytest.skip("full size only (POLYTILE_SLOW=full): 30 s of brute force")
    game = contested(variant, players, seed, low, high)
    before = game.state_key()
    result = solve_endgame(game, max_pieces=None, time_limit=None)
    assert game.state_key() == before, "the position was changed"
    names = player_names(game.players, game.variant.name)
    for name, line in result.lines.items():
        assert line.value == minimax(game.copy(), name, {}), name
        replay = game.copy()
        for move in line.pv:
            replay.push(move)
        assert replay.is_game_over()
        assert objective(replay, name) == line.value
    if len(names) == 2:
        assert result.mode == "difference" and list(result.lines) == [names[0]]
        assert result.value == result.lines[names[0]].value
    else:
        assert result.mode == "max-own" and sorted(result.lines) == sorted(names)
        assert result.value is None
        assert next(iter(result.lines)) == game.player_to_move


def test_the_best_move_is_the_first_move_of_the_line() -> None:
    game = contested("duo", 2, 2, 3, 5)
    result = solve_endgame(game)
    line = result.lines["blue"]
    assert line.pv and result.best_move == line.pv[0]
    assert result.best_move.color == game.to_move
    doc = result.as_dict()
    assert doc["value"] == line.value and doc["values"] == {"blue": line.value}
    assert len(doc["lines"]["blue"]["pv"]) == len(line.pv)


def test_large_positions_are_refused_and_limits_stop_the_search() -> None:
    game = Blokus("duo")
    with pytest.raises(EndgameRefused, match="blue 21, yellow 21"):
        solve_endgame(game)
    middle = contested("duo", 2, 0, 0, 12)
    with pytest.raises(EndgameStopped, match="node limit") as stopped:
        solve_endgame(middle, max_pieces=None, node_limit=500)
    assert stopped.value.reason == "nodes" and stopped.value.nodes >= 500  # either search


def test_a_finished_game_has_an_empty_line() -> None:
    game = Blokus("duo")
    game.play_random(5)
    result = solve_endgame(game)
    totals = game.score().player_totals
    assert result.value == totals["blue"] - totals["yellow"]
    assert result.best_move is None and result.lines["blue"].pv == ()


def child_values(game: Blokus, player: str) -> tuple[list[int], list[int]]:
    """The value after each legal move, by the exact search and by brute force."""
    exact, brute = [], []
    for move in game.legal_moves():
        game.push(move)
        child = game.copy()
        game.pop()
        found = solve_endgame(child, players=[player], max_pieces=None, time_limit=None)
        exact.append(found.lines[player].value)
        brute.append(minimax(child.copy(), player, {}))
    return exact, brute


# Small random endgames (a few hundred brute-force positions at most), for every mode: the
# value after every root move must agree, so the sets of optimal moves agree too.
SMALL = [
    *(("duo", 2, seed, 2, 3) for seed in range(40, 52)),
    *(("classic", 2, seed, 2, 2) for seed in range(3)),
    *(("classic", "teams", seed, 1, 2) for seed in range(3)),
    *(("classic", 4, seed, 1, 2) for seed in range(4)),
    *(("classic", 3, seed, 1, 2) for seed in range(4)),
]


@pytest.mark.parametrize(("variant", "players", "seed", "low", "high"), SMALL)
def test_every_root_move_keeps_its_brute_force_value(
    variant: str, players: int | str, seed: int, low: int, high: int
) -> None:
    game = contested(variant, players, seed, low, high)
    names = player_names(game.players, game.variant.name)
    for name in names[:1] if len(names) == 2 else names:
        exact, brute = child_values(game, name)
        assert exact == brute, name
        result = solve_endgame(game, players=[name], max_pieces=None, time_limit=None)
        assert result.lines[name].value == minimax(game.copy(), name, {})


def test_a_stop_keeps_the_players_already_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    """Max-own mode: stopped during the second player's search, the first player's line is
    kept (``solved``), and the second's search says what it proved so far."""
    from polytile.puzzles.blokus import endgame

    monkeypatch.setattr(endgame, "PYTHON_FIRST", 0.0)  # the compiled search from the start
    monkeypatch.setattr(endgame, "PYTHON_FIRST_LOADED", 0.0)
    game = contested("classic", 4, 2, 0, 9)  # 6k positions for the first, 180k the second
    first, second = game.player_to_move, next(n for n in player_names(4, "classic")
                                              if n != game.player_to_move)  # fmt: skip
    one = 10**12  # a node limit: one search thread, so that the counts repeat
    alone = solve_endgame(game, players=[first], max_pieces=None, node_limit=one)
    both = solve_endgame(game, players=[first, second], max_pieces=None, node_limit=one)
    with pytest.raises(EndgameStopped) as stop:
        solve_endgame(game, players=[first, second], max_pieces=None,
                      node_limit=alone.nodes + (both.nodes - alone.nodes) // 3)  # fmt: skip
    assert set(stop.value.solved) == {first}
    assert stop.value.solved[first].value == alone.lines[first].value
    proven = stop.value.proven
    assert proven is not None and proven.player == second and proven.mode == "max-own"
    value = both.lines[second].value
    assert (proven.lower is None or proven.lower <= value) and (
        proven.upper is None or value <= proven.upper)  # fmt: skip

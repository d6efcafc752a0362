"""Blokus record analysis: every value agrees with a brute force over the rules engine, a bad
move is marked with what it lost, and a search cut short keeps the last moves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from polytile.errors import SolverError
from polytile.puzzles.blokus import analyse
from polytile.puzzles.blokus.analyse import analyse_record, positions_of
from polytile.puzzles.blokus.endgame import endgame_size
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.blokus.sgf import GameRecord, read_blksgf

RECORD = Path(__file__).resolve().parents[3] / "examples" / "duo-endgame.blksgf"


def record_of(game: Blokus) -> GameRecord:
    return GameRecord(game.variant.name, game.players,
                      tuple(m for m in game.move_stack if not m.is_pass))  # fmt: skip


def finished_duo(seed: int = 0) -> GameRecord:
    """The example Duo record played on at random to the end (33 moves with seed 0)."""
    game = read_blksgf(RECORD).position()
    game.play_random(seed)
    return record_of(game)


def exact(game: Blokus, player: str, memo: dict[bytes, int]) -> int:
    """Brute force over every legal move: the first player's lead (2 players) or the score
    ``player`` can make sure of (3 or 4)."""
    key = game.state_key() + player.encode()
    if key not in memo:
        moves = game.legal_moves()
        if not moves:
            totals = game.score().player_totals
            names = list(totals)
            memo[key] = totals[names[0]] - totals[names[1]] if len(names) == 2 else totals[player]
        else:
            values = []
            for move in moves:
                game.push(move)
                values.append(exact(game, player, memo))
                game.pop()
            maximise = game.player_to_move == (names_of(game)[0] if two(game) else player)
            memo[key] = max(values) if maximise else min(values)
    return memo[key]


def names_of(game: Blokus) -> list[str]:
    return list(game.score().player_totals)


def two(game: Blokus) -> bool:
    return len(names_of(game)) == 2


def check_against_brute_force(record: GameRecord, max_pieces: int) -> list[analyse.MoveReview]:
    analysis = analyse_record(record, max_pieces=max_pieces, time_limit=None)
    assert analysis.complete and analysis.first_solvable is not None
    positions = positions_of(record)
    assert [m.number for m in analysis.moves] == list(
        range(analysis.first_solvable + 1, len(record.moves) + 1)
    )
    memo: dict[bytes, int] = {}
    for m in analysis.moves:
        before, after = positions[m.number - 1], positions[m.number]
        assert m.move == record.moves[m.number - 1] and m.player == before.player_to_move
        assert m.before == exact(before.copy(), m.player, memo)
        assert m.after == exact(after.copy(), m.player, memo)
        sign = -1 if two(before) and m.player != analysis.players[0] else 1
        assert m.loss == sign * (m.before - m.after) >= 0
        # the best move is legal and keeps the value
        assert before.is_legal(m.best)
        best = before.copy()
        best.push(m.best)
        assert exact(best, m.player, memo) == m.before
    return list(analysis.moves)


def test_duo_values_agree_with_brute_force() -> None:
    reviews = check_against_brute_force(finished_duo(), max_pieces=4)
    assert [(m.number, m.loss) for m in reviews] == [(30, 7), (31, 3), (32, 0), (33, 1)]


def test_a_deliberately_bad_move_is_marked_with_its_loss() -> None:
    record = finished_duo()
    game = positions_of(record)[29]
    memo: dict[bytes, int] = {}
    player = game.player_to_move

    def lead_after(move: Move) -> int:
        after = game.copy()
        after.push(move)
        return exact(after, player, memo)

    moves = game.legal_placements()
    sign = 1 if player == "blue" else -1
    worst = min(moves, key=lambda m: sign * lead_after(m))
    best = max(sign * lead_after(m) for m in moves)
    assert best > sign * lead_after(worst), "the position must offer a bad move"
    on = game.copy()
    on.push(worst)
    on.play_random(3)
    bad = record_of(on)
    assert bad.moves[:29] == record.moves[:29]
    reviews = check_against_brute_force(bad, max_pieces=4)
    marked = next(m for m in reviews if m.number == 30)
    assert marked.move == worst and marked.loss == best - sign * lead_after(worst)
    assert marked.best != worst


def contested_game(variant: str, players: int | str, seed: int, low: int,
                   high: int) -> GameRecord:  # fmt: skip
    """A random game (the biggest pieces half the time) up to the first position where no
    player can place more than ``high`` pieces and two can still place ``low``, then played
    on at random to the end."""
    game = Blokus(variant, players)
    rng = np.random.default_rng(seed)
    while moves := game.legal_moves():
        sizes = sorted(endgame_size(game).values())
        if sizes[-1] <= high and sizes[-2] >= low:
            break
        biggest = max(len(m.cells) for m in moves)
        if rng.random() < 0.5:
            moves = [m for m in moves if len(m.cells) == biggest]
        game.push(moves[int(rng.integers(len(moves)))])
    game.play_random(seed)
    return record_of(game)


@pytest.mark.parametrize(("variant", "players", "seed"), [
    ("classic", 3, 6), ("classic", 4, 0), ("classic", "teams", 6),
])  # fmt: skip
def test_more_players_agree_with_brute_force(variant: str, players: int | str, seed: int) -> None:
    record = contested_game(variant, players, seed, 3, 4)
    reviews = check_against_brute_force(record, max_pieces=4)
    assert len(reviews) >= 3 and any(m.loss for m in reviews)


def test_a_stopped_search_keeps_the_last_moves() -> None:
    record = finished_duo()
    full = analyse_record(record, max_pieces=4)
    cut = analyse_record(record, max_pieces=4, node_limit=60)
    assert not cut.complete and cut.stopped == "nodes"
    assert cut.moves == full.moves[len(full.moves) - len(cut.moves) :]
    assert len(cut.moves) < len(full.moves)


def test_refusal_and_a_record_solvable_from_the_start() -> None:
    unfinished = read_blksgf(RECORD)  # 5 pieces each still placeable at its end
    analysis = analyse_record(unfinished, max_pieces=2)
    assert analysis.first_solvable is None and analysis.moves == ()
    assert "the limit is 2" in (analysis.refused or "")
    whole = finished_duo()  # every position searched, from the empty board: never in time
    assert analyse_record(whole, max_pieces=None, time_limit=0.001).stopped == "time"


def test_contradicting_values_are_a_solver_error(monkeypatch: pytest.MonkeyPatch) -> None:
    record = finished_duo()
    real = analyse._value
    monkeypatch.setattr(analyse, "_value", lambda result, player: real(result, player) + (
        100 if result.to_move == "yellow" else 0))  # fmt: skip
    with pytest.raises(SolverError):
        analyse_record(record, max_pieces=4)


def test_positions_the_bounds_settle_are_analysed_before_the_search_starts() -> None:
    # A greedy self-played Duo game whose board splits into territories early: before the
    # first position the search accepts (12 pieces a player), the bounds settle some.
    from polytile.puzzles.blokus.players import self_play

    game = Blokus("duo")
    self_play(game, {}, 3)
    record = GameRecord("duo", 2, tuple(m for m in game.move_stack if not m.is_pass))
    searched_from, _ = analyse._first_solvable(positions_of(record), 12)
    analysis = analyse_record(record, max_pieces=12, time_limit=None)  # compiling may be slow
    assert analysis.complete and searched_from is not None
    assert analysis.first_solvable is not None and analysis.first_solvable < searched_from
    assert "its bounds do not settle it" in (analysis.refused or "")
    numbers = [m.number for m in analysis.moves]
    assert numbers == list(range(analysis.first_solvable + 1, len(record.moves) + 1))
    for a, b in zip(analysis.moves, analysis.moves[1:], strict=False):
        assert a.after == b.before  # one value per position, settled or searched

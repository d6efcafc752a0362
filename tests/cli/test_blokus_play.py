"""``polytile play`` and ``polytile selfplay`` for Blokus."""

from __future__ import annotations

from pathlib import Path

from polytile.formats import dumps, load
from polytile.puzzles.blokus.players import self_play
from polytile.puzzles.blokus.rules import Blokus
from polytile.puzzles.blokus.sgf import cell_name, read_blksgf

from .helpers import Invoke, assert_clean_failure


def _points(move, size: int) -> str:  # type: ignore[no-untyped-def]
    return " ".join(cell_name(c, size) for c in move.cells)


def test_play_writes_a_position_and_draws_it_with_points(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "duo.json"
    assert invoke("new", "blokus", "--variant", "duo", "-o", str(path)).exit_code == 0
    result = invoke("play", str(path), "e10 e9 f9", "yellow V3 j5 j4 k4", "--no-color")
    assert result.exit_code == 0, result.stderr
    game = Blokus.from_position(load(path))  # type: ignore[arg-type]
    assert game.to_move == "blue"
    assert "V3" not in game.hand("blue") and "V3" not in game.hand("yellow")
    assert game.color_at((4, 4)) == "blue" and game.color_at((9, 9)) == "yellow"
    lines = result.stdout.splitlines()
    assert lines[0].startswith("14 ") and lines[13].startswith(" 1 ")
    assert lines[14].split() == list("abcdefghijklmn")
    assert "the last move, yellow V3" in result.stdout
    assert "attach points of blue (to move)" in result.stdout


def test_new_refuses_a_player_count_the_variant_does_not_take(invoke: Invoke,
                                                               tmp_path: Path) -> None:  # fmt: skip
    """Exit 2 naming --players, and an existing file kept (an internal error, before)."""
    path = tmp_path / "duo.json"
    invoke("new", "blokus", "--variant", "duo", "-o", str(path))
    before = path.read_bytes()
    for players in ("3", "4", "teams"):
        bad = invoke("new", "blokus", "--variant", "duo", "--players", players, "-o", str(path))
        assert_clean_failure(bad)
        assert "--players" in bad.stderr and "duo Blokus is played with" in bad.stderr
        assert path.read_bytes() == before


def test_an_illegal_move_writes_nothing(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "duo.json"
    invoke("new", "blokus", "--variant", "duo", "-o", str(path))
    before = path.read_bytes()
    for moves in (["e10 e9 f9", "a1 a2"], ["pass"], ["T4 e10 e9 f9"], ["zz"], ["red e10"]):
        bad = invoke("play", str(path), *moves)
        assert_clean_failure(bad)
        assert f"move {len(moves)} " in bad.stderr and "nothing was written" in bad.stderr
        assert path.read_bytes() == before


def test_play_adds_to_a_record_and_keeps_its_comments(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "game.blksgf"
    assert invoke("selfplay", "blokus", "--variant", "duo", "--stop-before-end", "3",
                  "-o", str(path)).exit_code == 0  # fmt: skip
    record = read_blksgf(path)
    game = record.position()
    move = game.legal_moves()[-1]
    result = invoke("play", str(path), f"{move.piece} {_points(move, 14)}", "--no-color")
    assert result.exit_code == 0, result.stderr
    again = read_blksgf(path)
    assert again.moves == (*record.moves, move)
    assert again.properties["C"] == record.properties["C"]


def test_forced_passes_are_played_on_the_way(invoke: Invoke, tmp_path: Path) -> None:
    # a self-played Duo game in which a colour passes: from the position before its pass,
    # the other colour's move is played after the pass, which is announced
    for seed in range(50):
        game = Blokus("duo")
        self_play(game, {"blue": "greedy", "yellow": "random"}, seed)
        moves = game.move_stack
        at = next((i for i, m in enumerate(moves) if m.is_pass and i + 1 < len(moves)
                   and not moves[i + 1].is_pass), None)  # fmt: skip
        if at is not None:
            break
    assert at is not None
    while len(game.move_stack) > at:
        game.pop()
    path = tmp_path / "pos.json"
    path.write_text(dumps(game.to_position()))
    passer, after = moves[at].color, moves[at + 1]
    result = invoke("play", str(path), f"{after.piece} {_points(after, 14)}", "--no-color")
    assert result.exit_code == 0, result.stderr
    assert f"{passer} passes (no placement left)" in result.stderr
    done = Blokus.from_position(load(path))  # type: ignore[arg-type]
    assert all(done.color_at(c) == after.color for c in after.cells)
    # its pass before the move, and one after it if it still has no placement
    assert done.passes(passer) > game.passes(passer)
    assert not done.must_pass()


def test_selfplay_blokus_writes_legal_finished_records(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke("selfplay", "blokus", "--games", "2", "--blue", "random", "-o",
                    str(tmp_path / "recs"))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    files = sorted((tmp_path / "recs").glob("blokus-*.blksgf"))
    assert len(files) == 2
    for f in files:  # replayed by the rules engine on reading
        game = read_blksgf(f).position()
        assert game.is_game_over() and len(game.colors) == 4
    short = invoke("selfplay", "blokus", "--variant", "duo", "--stop-before-end", "4")
    assert short.exit_code == 0
    path = tmp_path / "short.blksgf"
    path.write_text(short.stdout)
    assert not read_blksgf(path).position().is_game_over()
    assert_clean_failure(invoke("selfplay", "blokus", "--variant", "duo", "--players", "4"))
    assert_clean_failure(invoke("selfplay", "henning", "--variant", "duo"))
    assert_clean_failure(invoke("selfplay", "blokus", "--deal", "split"))


def test_greedy_beats_random_in_duo() -> None:
    # the greedy player is a player, not a synonym of random: over 20 games it wins most
    wins = 0
    for seed in range(20):
        game = Blokus("duo")
        self_play(game, {"blue": "greedy", "yellow": "random"}, seed)
        totals = game.score().player_totals
        wins += totals["blue"] > totals["yellow"]
    assert wins >= 15


def test_a_record_with_variations_is_not_rewritten(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "pentobi.blksgf"
    path.write_text("(;GM[Blokus Duo]FF[4];B[e9,e10,f9]BL[100](;W[j4,j5,k4])(;W[j5,j4,i4]))")
    before = path.read_bytes()
    bad = invoke("play", str(path), "d11 d12 c12")
    assert_clean_failure(bad)
    assert "1 variation" in bad.stderr and "move properties BL" in bad.stderr
    assert path.read_bytes() == before


def test_errors_name_points_and_a_colour_that_must_pass(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "duo.json"
    invoke("new", "blokus", "--variant", "duo", "-o", str(path))
    bad = invoke("play", str(path), "a1 a2")
    assert "blue I2 a2 a1" in bad.stderr and "start cell e10" in bad.stderr
    for seed in range(50):  # a position where the colour to move must pass
        game = Blokus("duo")
        self_play(game, {"blue": "greedy", "yellow": "random"}, seed)
        while game.move_stack and not game.must_pass():
            game.pop()
        if game.move_stack:
            break
    path.write_text(dumps(game.to_position()))
    bad = invoke("play", str(path), f"{game.to_move} a1")
    assert_clean_failure(bad)
    assert f"{game.to_move} has no placement left" in bad.stderr
    done = invoke("play", str(path), "Pass")
    assert done.exit_code == 0, done.stderr


def test_selfplay_options_that_do_not_fit(invoke: Invoke, tmp_path: Path) -> None:
    assert_clean_failure(invoke("selfplay", "blokus", "--variant", "duo", "--red", "random"))
    assert_clean_failure(invoke("selfplay", "blokus", "--players", "3", "--green", "random"))
    assert_clean_failure(invoke("selfplay", "blokus", "-o", str(tmp_path / "g.json")))
    folder = invoke("selfplay", "blokus", "-o", str(tmp_path))
    assert_clean_failure(folder)
    assert "is a folder" in folder.stderr


def test_stop_before_end_counts_placements(invoke: Invoke, tmp_path: Path) -> None:
    counts = []
    for n in ("0", "1", "3"):
        path = tmp_path / f"s{n}.blksgf"
        invoke("selfplay", "blokus", "--stop-before-end", n, "-o", str(path))
        counts.append(len(read_blksgf(path).moves))
    assert counts[0] - counts[1] == 1 and counts[0] - counts[2] == 3


def test_three_players_share_green_by_turn() -> None:
    # the three players are greedy and a "green" engine is random: green's moves are made by
    # the players' greedy engines, so each is of the biggest size it could place
    game = Blokus("classic", 3)
    self_play(game, {"blue": "greedy", "yellow": "greedy", "red": "greedy", "green": "random"}, 3)
    assert game.is_game_over()
    replay = Blokus("classic", 3)
    green = 0
    for move in game.move_stack:
        if move.color == "green" and not move.is_pass:
            assert len(move.cells) == max(len(m.cells) for m in replay.legal_moves())
            green += 1
        replay.push(move)
    assert green >= 10


def test_play_names_a_file_it_does_not_continue(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "board.json"  # a tiling board (City Blocks (Ritchie) positions play, #48)
    path.write_text('{"format": "polytile/position@1", "game": "tiling", "board": ["..", ".."]}')
    bad = invoke("play", str(path), "a1")
    assert_clean_failure(bad)
    assert "is a tiling position; play continues Blokus and City Blocks (Ritchie) positions" in (
        bad.stderr
    )
    solution = tmp_path / "sol.json"
    solution.write_text('{"format": "polytile/solution@1", "rows": 1}')
    assert "is a solution file" in invoke("play", str(solution), "a1").stderr

"""``solve-endgame`` on Gridblock files (:func:`polytile.cli.gridblock_solve.solve_gridblock`):
exact rounds, open analysis, the view analysis, and what is refused.

The command is run through a small click command with ``solve-endgame``'s options, so the
tests hold whether or not the root command already dispatches Gridblock files."""

from __future__ import annotations

import json
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner, Result

from polytile.cli.gridblock_solve import solve_gridblock
from polytile.cli.henning import ViewOptions
from polytile.puzzles.gridblock.endgame import solve_round
from polytile.puzzles.gridblock.files import dumps_position, dumps_record, dumps_view
from polytile.puzzles.gridblock.rules import Gridblock, Options

from .helpers import assert_clean_failure


@click.command()
@click.argument("position")
@click.option("--move", type=int, default=None)
@click.option("--json", "as_json", is_flag=True)
@click.option("--time-limit", type=float, default=60.0)
@click.option("--open", "open_analysis", is_flag=True)
@click.option("--view", is_flag=False, flag_value="to-move", default=None)
@click.option("--samples", type=int, default=200)
@click.option("--max-exact", type=int, default=5000)
@click.option("--seed", type=int, default=0)
@click.option("--workers", type=int, default=None)
@click.option("--player", "players", multiple=True)
def command(position: str, move: int | None, as_json: bool, time_limit: float,
            open_analysis: bool, view: str | None, samples: int, max_exact: int, seed: int,
            workers: int | None, players: tuple[str, ...]) -> None:  # fmt: skip
    ctx = click.get_current_context()
    names = ("view", "samples", "max_exact", "seed", "workers", "open_analysis")
    given = {
        n for n in names if ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE
    }
    options = ViewOptions(view, samples, max_exact, seed, workers, given)
    solve_gridblock(position, move, as_json, time_limit, open_analysis, options, players=players)


def run(*args: str) -> Result:
    return CliRunner().invoke(command, list(args), catch_exceptions=False)


def played(seed: int, options: Options, turns: int) -> Gridblock:
    g = Gridblock.new(seed=seed, options=options)
    rng = np.random.default_rng(seed)
    for _ in range(turns):
        moves = g.legal_moves()
        g.push_legal(moves[int(rng.integers(len(moves)))])
    return g


@pytest.fixture
def split_record(tmp_path: Path) -> Path:
    """A 2-player record in round 2 (split deal: every hand known), 5 colour-turns left."""
    g = played(1, Options(players=2, deal="split"), 4 + 12 + 7)
    path = tmp_path / "split.json"
    path.write_text(dumps_record(g))
    return path


def test_exact_round_text_and_json(split_record: Path) -> None:
    g = played(1, Options(players=2, deal="split"), 4 + 12 + 7)
    want = solve_round(g)
    out = run(str(split_record))
    assert out.exit_code == 0, out.stderr
    assert f"Value (exact): {want.value:+d}" in out.stdout
    assert "Best moves for" in out.stdout and "Best line: " in out.stdout
    assert "Points at the end of that line" in out.stdout
    doc = json.loads(run(str(split_record), "--json").stdout)
    assert doc["kind"] == "exact" and doc["value"] == want.value and doc["round"] == 2
    assert sorted(doc["best_moves"]) == sorted(map(str, want.best_moves))
    assert len(doc["pv"]) == 5


def test_an_earlier_position_of_the_record(split_record: Path) -> None:
    doc = json.loads(run(str(split_record), "--move", str(4 + 12 + 6), "--json").stdout)
    assert len(doc["pv"]) == 6


def test_hidden_hands_are_refused_unless_open(tmp_path: Path) -> None:
    g = played(2, Options(players=2), 4 + 9)
    path = tmp_path / "shuffle.json"
    path.write_text(dumps_position(g))
    out = run(str(path))
    assert_clean_failure(out)
    assert "--view" in out.stderr and "--open" in out.stderr
    doc = json.loads(run(str(path), "--open", "--json").stdout)
    assert doc["kind"] == "exact-open" and doc["open"]
    assert doc["value"] == solve_round(g, open_analysis=True).value
    assert_clean_failure(run(str(path), "--open", "--view"))
    assert_clean_failure(run(str(path), "--samples", "5"))


def test_view_analysis(tmp_path: Path) -> None:
    g = played(2, Options(players=2), 4 + 9)
    path = tmp_path / "shuffle.json"
    path.write_text(dumps_position(g))
    out = run(str(path), "--view", "--workers", "1")
    assert out.exit_code == 0, out.stderr
    assert "not the game's value" in out.stdout and "best by this estimate" in out.stdout
    doc = json.loads(run(str(path), "--view", "--workers", "1", "--json").stdout)
    assert doc["kind"] == "pimc-estimate" and doc["exact_average"]
    assert doc["note"] == "average perfect-information value, not the game's value"
    assert doc["consistent_states"] == 4 and len(doc["moves"]) == len(g.legal_moves())
    view = tmp_path / "view.json"
    view.write_text(dumps_view(g, g.to_move))
    again = json.loads(run(str(view), "--workers", "1", "--json").stdout)
    assert again["moves"] == doc["moves"]
    other = tmp_path / "other.json"
    other.write_text(dumps_view(g, 1 - g.to_move))
    assert_clean_failure(run(str(other)))
    assert_clean_failure(run(str(path), "--view", "red"))


def test_three_players_each_guaranteed_score(tmp_path: Path) -> None:
    g = played(3, Options(players=3), 3 + 6)
    path = tmp_path / "three.json"
    path.write_text(dumps_position(g))
    doc = json.loads(run(str(path), "--open", "--json").stdout)
    assert set(doc["guaranteed"]) == {"blue", "yellow", "red"}
    for p, name in enumerate(("blue", "yellow", "red")):
        assert doc["guaranteed"][name] == solve_round(g, player=p, open_analysis=True).value
    one = json.loads(run(str(path), "--open", "--json", "--player", "red").stdout)
    assert list(one["guaranteed"]) == ["red"]
    assert_clean_failure(run(str(path), "--open", "--player", "green"))


def test_set_up_and_game_over_are_refused(tmp_path: Path) -> None:
    g = Gridblock.new(seed=1, options=Options(players=2, deal="split"))
    path = tmp_path / "setup.json"
    path.write_text(dumps_position(g))
    out = run(str(path))
    assert_clean_failure(out)
    assert "set-up" in out.stderr
    g.play_random(seed=1)
    path.write_text(dumps_record(g))
    out = run(str(path))
    assert_clean_failure(out)
    assert "over" in out.stderr


def test_out_of_time_exits_1(tmp_path: Path) -> None:
    g = played(4, Options(players=2, deal="split"), 4 + 12)
    path = tmp_path / "round.json"
    path.write_text(dumps_position(g))
    out = run(str(path), "--time-limit", "0.01")
    assert_clean_failure(out, 1)
    assert "time" in out.stderr

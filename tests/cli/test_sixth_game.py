"""A sixth game wired into the CLI as ``docs/architecture.md`` says: its face in a folder of
its own (``examples/takeaway``) and one line in each registry table, no other edit."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def cli(monkeypatch):
    """The CLI with Take-away registered (the registry lines), its commands loaded anew;
    afterwards the registry and the commands as they were."""
    import polytile.cli as root
    from polytile.faces import registry as faces

    monkeypatch.syspath_prepend(str(EXAMPLES))
    saved = dict(faces.FACES), dict(faces.FORMATS), dict(root.cli.commands)
    games = importlib.import_module("polytile.cli.games")
    faces.FACES["takeaway"] = "takeaway.face"
    faces.FORMATS["polytile-example/takeaway@1"] = "takeaway"
    try:
        # commands build their game lists and options when first loaded: load them again
        root.cli.commands.clear()
        importlib.reload(games)
        yield root.cli
    finally:
        faces.FACES.clear()
        faces.FACES.update(saved[0])
        faces.FORMATS.clear()
        faces.FORMATS.update(saved[1])
        faces._loaded.pop("takeaway", None)
        for name in ("takeaway.face", "takeaway"):
            sys.modules.pop(name, None)
        importlib.reload(games)
        root.cli.commands.clear()
        root.cli.commands.update(saved[2])


def test_a_sixth_game_through_every_verb(cli, tmp_path):
    run = CliRunner()
    game = tmp_path / "pile.json"

    made = run.invoke(cli, ["new", "takeaway", "--pile", "7", "-o", str(game)])
    assert made.exit_code == 0, made.output
    assert json.loads(game.read_text())["pile"] == 7
    assert "Take-away" in run.invoke(cli, ["new", "--help"]).stdout

    moves = json.loads(run.invoke(cli, ["moves", str(game), "--json"]).stdout)
    assert moves["to_move"] == "first" and moves["moves"] == ["take 1", "take 2", "take 3"]

    best = json.loads(run.invoke(cli, ["solve-endgame", str(game), "--json"]).stdout)
    assert best["value"] == 1 and best["best_move"] == "take 3"  # 7 = 3 + 4: leave 4

    played = run.invoke(cli, ["play", str(game), "take 3", "take 2"])
    assert played.exit_code == 0, played.output
    assert "2 left, first to move" in played.stdout
    illegal = run.invoke(cli, ["play", str(game), "take 3"])
    assert illegal.exit_code == 2 and "illegal move take 3" in illegal.stderr

    shown = run.invoke(cli, ["render", str(game), "--move", "1"])
    assert shown.exit_code == 0 and "4 left, second to move" in shown.stdout
    assert run.invoke(cli, ["render", str(game), "-o", str(tmp_path / "p.svg")]).exit_code == 0
    assert "<svg" in (tmp_path / "p.svg").read_text()

    assert run.invoke(cli, ["play", str(game), "take 2"]).exit_code == 0
    scored = run.invoke(cli, ["score", str(game)])
    assert scored.exit_code == 0 and "first took the last counter and wins" in scored.stdout
    valid = run.invoke(cli, ["validate", str(game)])
    assert valid.stdout.strip() == f"{game}: valid Take-away game record, 3 moves, all legal"
    over = run.invoke(cli, ["solve-endgame", str(game)])
    assert over.exit_code == 2 and "the game is over" in over.stderr
    refused = run.invoke(cli, ["solve-endgame", str(game), "--view"])
    assert refused.exit_code == 2 and "--view: only for" in refused.stderr


def test_the_registry_lists_the_game_only_with_its_line():
    from polytile.faces import registry as faces

    assert "takeaway" not in faces.FACES

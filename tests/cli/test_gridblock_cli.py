"""Gridblock on the command line: ``new``, ``play``, ``selfplay`` and the shared verbs
``render``, ``score`` and ``validate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polytile.puzzles.gridblock.files import (
    dumps_position,
    dumps_view,
    load_gridblock,
    read_gridblock,
)
from polytile.puzzles.gridblock.grid import card_name, tile_name

from .helpers import Invoke, assert_clean_failure


@pytest.mark.parametrize(
    ("command", "words"),
    [("new", ["gridblock", "--deal"]), ("play", ["Gridblock", "setup b3 NE"]),
     ("selfplay", ["gridblock", "--yellow"]), ("render", ["Gridblock"]),
     ("score", ["Gridblock"]), ("validate", ["Gridblock"])],
)  # fmt: skip
def test_help_mentions_gridblock(invoke: Invoke, command: str, words: list[str]) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert all(w in result.stdout for w in words), result.stdout


def test_new_gridblock_is_seeded_and_takes_the_options(invoke: Invoke) -> None:
    a, b = invoke("new", "gridblock", "--seed", "5"), invoke("new", "gridblock", "--seed", "5")
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert a.stdout != invoke("new", "gridblock", "--seed", "6").stdout
    doc = json.loads(a.stdout)
    assert doc["format"] == "polytile/gridblock@1" and doc["kind"] == "record"
    assert doc["moves"] == [] and doc["seed"] == 5 and len(doc["deals"]) == 4
    two = json.loads(invoke("new", "gridblock", "--players", "2", "--deal", "split", "--score",
                            "weaker", "--instant-win").stdout)  # fmt: skip
    assert two["options"] == {"players": 2, "two_player_score": "weaker", "deal": "split",
                              "instant_win": True}  # fmt: skip
    three = json.loads(invoke("new", "gridblock", "--players", "3").stdout)
    assert set(three["decks"]) == {"blue", "yellow", "red"}


def test_new_refuses_options_that_do_not_apply(invoke: Invoke) -> None:
    assert_clean_failure(invoke("new", "gridblock", "--players", "teams"))
    bad = invoke("new", "gridblock", "--score", "weaker")
    assert_clean_failure(bad)
    assert "--players 2" in bad.stderr
    other = invoke("new", "henning", "--deal", "split")
    assert_clean_failure(other)
    assert "Gridblock options" in other.stderr
    assert invoke("new", "henning").exit_code == 0  # Henning unchanged


def _setup_moves(path: Path) -> list[str]:
    """Legal set-up placements for every colour, in turn order."""
    g = load_gridblock(path).state
    out = []
    while g.is_setup:
        m = g.legal_moves()[0]
        g.push(m)
        out.append(str(m))
    return out


def test_play_appends_legal_moves_and_refuses_illegal_ones(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert invoke("new", "gridblock", "--seed", "7", "-o", str(path)).exit_code == 0
    setup = _setup_moves(path)
    # Moves as several words each, or quoted: both read the same.
    words = [w for m in setup[:2] for w in m.split()] + setup[2:]
    result = invoke("play", str(path), *words, "--no-color")
    assert result.exit_code == 0, result.stderr
    assert [str(m) for m in load_gridblock(path).moves] == setup
    assert "round 1 of 6" in result.stdout
    g = load_gridblock(path).state
    move = g.legal_moves()[-1]
    assert invoke("play", str(path), str(move), "--no-color").exit_code == 0
    assert load_gridblock(path).moves[-1] == move
    before = path.read_bytes()
    g = load_gridblock(path).state
    slot = g.to_move_slot
    stay = f"{card_name(g.hand(slot)[0])}@{tile_name(g.mover[slot])}"  # never a legal walk
    for bad in (stay, "setup a1 NW", "Q9@z9", "C3@d4 XX"):
        result = invoke("play", str(path), bad)
        assert_clean_failure(result)
        assert "nothing was written" in result.stderr
        assert path.read_bytes() == before
    # A legal move followed by an illegal one writes nothing either.
    legal = str(load_gridblock(path).state.legal_moves()[0])
    assert_clean_failure(invoke("play", str(path), legal, "setup a1 NW"))
    assert path.read_bytes() == before


def test_play_needs_a_record(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(dumps_position(load_gridblock_new(invoke, tmp_path)))
    result = invoke("play", str(path), "setup a1 NW")
    assert_clean_failure(result)
    assert "is a position" in result.stderr


def load_gridblock_new(invoke: Invoke, tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "new.json"
    invoke("new", "gridblock", "--seed", "2", "-o", str(path))
    return load_gridblock(path).state


def test_selfplay_writes_finished_records(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke("selfplay", "gridblock", "--games", "2", "--yellow", "random", "--players",
                    "3", "--deal", "split", "-o", str(tmp_path / "recs"))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    files = sorted((tmp_path / "recs").glob("gridblock-*.json"))
    assert len(files) == 2 and "game 2: 57 moves" in result.stderr
    doc = load_gridblock(files[0])
    assert doc.state.is_over() and doc.state.options.deal == "split"
    assert doc.extra["players"] == {"blue": "greedy", "yellow": "random", "red": "greedy"}
    short = invoke("selfplay", "gridblock", "--stop-before-end", "4", "--seed", "3")
    g = read_gridblock(short.stdout).state
    assert not g.is_over() and len(g.move_stack) == 76 - 4
    two = invoke("selfplay", "gridblock", "--players", "2", "--instant-win", "--seed", "1",
                 "-o", str(tmp_path / "two.json"))  # fmt: skip
    assert two.exit_code == 0 and "blue+red" in two.stderr
    assert_clean_failure(invoke("selfplay", "gridblock", "--players", "3", "--green", "random"))
    assert_clean_failure(invoke("selfplay", "henning", "--yellow", "random"))
    assert_clean_failure(invoke("selfplay", "gridblock", "--games", "2"))


def test_shared_verbs_read_gridblock_files(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = invoke("selfplay", "gridblock", "--seed", "3", "--blue", "random", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    valid = invoke("validate", str(path))
    assert valid.exit_code == 0 and "valid Gridblock game record, 76 moves, all legal" in (
        valid.stdout
    )
    assert json.loads(invoke("validate", str(path), "--json").stdout)["game"] == "gridblock"
    text = invoke("score", str(path), "--no-color").stdout
    assert "bonus tiles" in text and "game over" in text
    score = json.loads(invoke("score", str(path), "--json").stdout)
    assert set(score["colors"]) == {"blue", "yellow", "red", "green"} and score["over"]
    shown = invoke("render", str(path), "--no-color").stdout
    assert shown.count("\n") >= 20 and "last walk" in shown
    # --move N: the position after move N, its walk numbered from where the mover started.
    doc = load_gridblock(path, move=6)
    m = doc.moves[5]
    early = invoke("render", str(path), "--move", "6", "--no-color").stdout
    assert "*0" in early and f"*{m.card[1]}" in early  # type: ignore[index]
    assert "round 1 of 6" in early
    for suffix in ("svg", "png", "txt"):
        out = tmp_path / f"g.{suffix}"
        assert invoke("render", str(path), "--move", "9", "-o", str(out)).exit_code == 0
        assert out.stat().st_size > 100
    assert (tmp_path / "g.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"
    assert_clean_failure(invoke("render", str(path), "-o", str(tmp_path / "g.gif")))
    assert_clean_failure(invoke("render", str(path), "--move", "77"))


def test_positions_and_views_on_the_command_line(invoke: Invoke, tmp_path: Path) -> None:
    g = load_gridblock_new(invoke, tmp_path)
    for _ in range(4 + 5):
        g.push(g.legal_moves()[0])
    pos, view = tmp_path / "pos.json", tmp_path / "view.json"
    pos.write_text(dumps_position(g))
    view.write_text(dumps_view(g, 1))
    assert "valid Gridblock position" in invoke("validate", str(pos)).stdout
    assert "valid Gridblock view" in invoke("validate", str(view)).stdout
    shown = invoke("render", str(view), "--no-color").stdout
    assert "the view of yellow" in shown and tile_name(g.mover[0]) in shown
    assert json.loads(invoke("score", str(pos), "--json").stdout)["round"] == 1
    # The view's hidden hands are not shown as the cards that fill them in.
    seen = json.loads(invoke("score", str(view), "--json").stdout)
    assert seen["view"] == {"player": "yellow", "hidden_hands": ["blue", "red", "green"]}
    assert seen["colors"]["blue"]["hand"] is None and seen["colors"]["yellow"]["hand"]
    assert "B blue" in shown and "hand -" in shown.split("B blue")[1].split("\n")[0]
    bad = invoke("render", str(pos), "--move", "2")
    assert_clean_failure(bad)
    assert "needs a game record" in bad.stderr


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["moves"].append("setup a1 NW"), "moves[0]: move 1"),
        (lambda d: d["moves"].append("walk to d4"), "moves[0]: move 1: a move looks like"),
        (lambda d: d["layout"].__setitem__(0, "ABC"), "layout[0]"),
        (lambda d: d["options"].update(players=7), "options.players"),
        (lambda d: d["deals"]["red"].__setitem__(0, ["A1", "A1", "A1"]), "deals.red[0]"),
        (lambda d: d.pop("setup"), "setup: missing required field 'setup'"),
    ],
)
def test_broken_files_exit_2_with_the_place_named(invoke: Invoke, tmp_path: Path, change,  # type: ignore[no-untyped-def]
                                                  where: str) -> None:  # fmt: skip
    path = tmp_path / "g.json"
    invoke("new", "gridblock", "--seed", "4", "-o", str(path))
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))
    for command in ("validate", "render", "score"):
        result = invoke(command, str(path))
        assert_clean_failure(result)
        assert f"{path}: {where}" in result.stderr, result.stderr


def test_unreadable_json_exits_2(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text('{"format": "polytile/gridblock@1", "kind": ')
    for command in ("validate", "render", "score"):
        result = invoke(command, str(path))
        assert_clean_failure(result)
        assert "not valid JSON" in result.stderr
    assert_clean_failure(invoke("play", str(path), "setup a1 NW"))

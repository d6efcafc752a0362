"""``polytile moves``: every game's legal moves, equal to its rules engine's."""

from __future__ import annotations

import json

import pytest

from .helpers import assert_clean_failure


def _moves(invoke, path, *extra):
    result = invoke("moves", str(path), "--json", *extra)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def henning_record(invoke, tmp_path):
    path = tmp_path / "h.json"
    assert invoke("selfplay", "henning", "--seed", "3", "-o", str(path)).exit_code == 0
    return path


def test_henning_moves_are_the_rules_engines(invoke, henning_record):
    from polytile.puzzles.henning.files import load_henning
    from polytile.puzzles.henning.moves import Move

    for n in (0, 7, 16):
        doc = _moves(invoke, henning_record, "--move", str(n))
        g = load_henning(henning_record, n).state
        assert doc["game"] == "henning" and doc["to_move"] == ("blue", "red")[g.to_move]
        assert [Move.parse(t) for t in doc["moves"]] == g.legal_moves()
        assert doc["count"] == len(g.legal_moves()) > 0
        assert doc["sees"]["hand"].split() and "hidden" in json.dumps(doc["sees"])


def test_henning_text_report_names_the_hand_and_cuts_long_lists(invoke, henning_record):
    result = invoke("moves", str(henning_record), "--move", "0", "--limit", "5")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].endswith("to move") and lines[1].startswith("hand: ")
    assert "more (--limit 0 lists them all" in result.stdout


def test_henning_view_of_the_other_player_lists_no_moves(invoke, tmp_path):
    from polytile.puzzles.henning.files import dumps_view
    from polytile.puzzles.henning.rules import Henning

    g = Henning.new(5)
    view = tmp_path / "view.json"
    view.write_text(dumps_view(g, 1 - g.to_move))
    doc = _moves(invoke, view)
    assert doc["moves"] == [] and doc["sees"]["hand"].startswith("hidden")
    assert doc["moves_known"] is False  # not "no legal move" (found by a tester)
    text = invoke("moves", str(view)).stdout
    assert "legal moves: not known" in text and "legal moves (0)" not in text
    mine = tmp_path / "mine.json"
    mine.write_text(dumps_view(g, g.to_move))
    assert _moves(invoke, mine)["count"] == len(g.legal_moves())
    assert _moves(invoke, mine)["moves_known"] is True


def test_gridblock_moves_are_the_rules_engines(invoke, tmp_path):
    from polytile.puzzles.gridblock.files import load_gridblock, move_text

    path = tmp_path / "g.json"
    made = invoke("selfplay", "gridblock", "--seed", "5", "--players", "2", "--deal", "split",
                  "-o", str(path))  # fmt: skip
    assert made.exit_code == 0
    for n in (0, 5, 20, 40):
        doc = _moves(invoke, path, "--move", str(n))
        g = load_gridblock(path, n).state
        assert doc["moves"] == [move_text(m) for m in g.legal_moves()]
        assert doc["count"] > 0
    # a listed move plays
    first = _moves(invoke, path, "--move", "0")["moves"][0]
    fresh = tmp_path / "fresh.json"
    invoke("new", "gridblock", "--seed", "5", "--players", "2", "--deal", "split",
           "-o", str(fresh))  # fmt: skip
    assert invoke("play", str(fresh), first).exit_code == 0


def test_walkable_moves_are_every_legal_part(invoke, tmp_path):
    from polytile.puzzles.walkable.board import legal_drops
    from polytile.puzzles.walkable.files import load_walkable
    from polytile.puzzles.walkable.rules import parse_part

    path = tmp_path / "w.json"
    assert invoke("selfplay", "walkable", "--seed", "2", "-o", str(path)).exit_code == 0
    doc = _moves(invoke, path, "--move", "6")
    g = load_walkable(path, 6).state
    assert doc["at_once"] and doc["to_move"] == "red and blue"
    parts = [parse_part(t) for t in doc["moves"]]
    for piece in g.available():
        drops = [d for p, d in parts if p == piece and d != "pass"]
        assert len(drops) == len(set(drops)) == len(legal_drops(g.cells, piece))
        assert (piece, "pass") in parts


def test_moves_of_a_finished_game(invoke, henning_record):
    result = invoke("moves", str(henning_record))
    assert result.exit_code == 0 and "the game is over" in result.stdout
    assert _moves(invoke, henning_record)["to_move"] is None


def test_moves_refuses_a_file_of_no_game_with_moves(invoke, examples, tmp_path):
    bad = invoke("moves", str(examples / "pentomino-6x10.json"))
    assert_clean_failure(bad)
    assert "not a file of a game with moves" in bad.stderr
    # what is wrong with a file no game reads is named, as validate and render name it
    # (all four said only "not a file of a game with moves" before)
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "cut.json").write_text('{"format": "polytile/position@1", "game": "blokus"')
    for name, said in [("missing.json", "No such file"), ("empty.json", "the file is empty"),
                       ("cut.json", "not valid JSON")]:  # fmt: skip
        bad = invoke("moves", str(tmp_path / name))
        assert_clean_failure(bad)
        assert said in bad.stderr, bad.stderr
    bad = invoke("analyse", str(tmp_path / "cut.json"))  # not "a position: no moves", before
    assert_clean_failure(bad)
    assert "not valid JSON" in bad.stderr, bad.stderr
    for name, said in [("missing.json", "No such file"), ("empty.json", "the file is empty")]:
        bad = invoke("analyse", str(tmp_path / name))  # not "needs a Blokus game record"
        assert_clean_failure(bad)
        assert said in bad.stderr, bad.stderr


def test_blokus_moves_are_the_rules_engines(invoke, tmp_path):
    from polytile.puzzles.blokus.notation import parse_move
    from polytile.puzzles.blokus.sgf import read_blksgf

    path = tmp_path / "duo.blksgf"
    assert invoke("selfplay", "blokus", "--variant", "duo", "-o", str(path)).exit_code == 0
    for n in (0, 1, 9):
        doc = _moves(invoke, path, "--move", str(n))
        game = read_blksgf(path).position(n)
        legal = game.legal_moves()
        assert doc["to_move"] == game.to_move and doc["count"] == len(legal) > 0
        parsed = [parse_move(text, game) for text in doc["moves"]]
        assert len(set(parsed)) == len(parsed) and set(parsed) == set(legal)
    text = invoke("moves", str(path), "--move", "1", "--limit", "3")
    assert text.exit_code == 0 and "Blokus: yellow to move" in text.stdout


def test_blokus_moves_of_a_position_play_back(invoke, tmp_path):
    position = tmp_path / "classic.json"
    assert invoke("new", "blokus", "-o", str(position)).exit_code == 0
    doc = _moves(invoke, position)
    assert doc["game"] == "blokus" and doc["to_move"] == "blue"
    from polytile.formats import load
    from polytile.puzzles.blokus.rules import Blokus

    assert doc["count"] == len(Blokus.from_position(load(position)).legal_moves())
    assert invoke("play", str(position), doc["moves"][-1]).exit_code == 0
    assert _moves(invoke, position)["to_move"] == "yellow"


def test_cityblocks_moves_are_the_rules_engines(invoke, tmp_path):
    from polytile.formats import load
    from polytile.puzzles.cityblocks.rules import CityBlocks, Move

    path = tmp_path / "city.json"
    assert invoke("new", "cityblocks", "--players", "3", "-o", str(path)).exit_code == 0
    game = CityBlocks.from_position(load(path))
    game.push(game.legal_placements()[5])
    from polytile.formats import save

    save(game.to_position(), path)
    doc = _moves(invoke, path)
    legal = game.legal_moves()
    assert doc["game"] == "cityblocks" and doc["to_move"] == game.to_move
    assert doc["count"] == len(legal) and {Move.parse(t) for t in doc["moves"]} == set(legal)
    assert "pass" in doc["moves"][-1]


def test_henning_a_hand_known_by_elimination_is_not_called_hidden(invoke, tmp_path):
    """#48: with red's reserve empty, every red tile not on the city is in its hand, yet
    moves called red's hand hidden; a view whose mover's reserve is empty listed no moves."""
    from polytile.puzzles.henning.files import dumps_position, dumps_view, read_henning
    from polytile.puzzles.henning.players import self_play
    from polytile.puzzles.henning.rules import Henning
    from polytile.puzzles.henning.tiles import KINDS

    g = Henning.new(0)
    self_play(g, seed=0)
    g.pop()  # the last move taken back: blue to move, red's reserve empty
    assert (g.to_move, g.reserve_size(0), g.reserve_size(1)) == (0, 1, 0)
    red = " ".join(KINDS[k] for k in g.hand(1))
    record = tmp_path / "late.json"
    record.write_text(dumps_position(g))
    sees = _moves(invoke, record)["sees"]
    assert sees["red's hand"] == f"known by elimination (its reserve is empty): {red}"
    doc = json.loads(dumps_position(g))
    doc["to_move"] = "red"  # red to move: blue's view of it knows red's hand, so its moves
    red_to_move = read_henning(json.dumps(doc).encode(), "red-to-move").state
    view = tmp_path / "blue-view.json"
    view.write_text(dumps_view(red_to_move, 0))
    seen = _moves(invoke, view)
    assert seen["moves_known"] is True and seen["count"] == len(red_to_move.legal_moves()) > 0
    assert seen["sees"]["hand"] == f"known by elimination (its reserve is empty): {red}"
    assert "hidden" not in invoke("moves", str(view)).stdout

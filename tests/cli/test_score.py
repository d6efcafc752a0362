"""``polytile score``: City Blocks (Ritchie) scores from a position file or a text board."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from polytile.formats import Position, save
from polytile.puzzles.cityblocks.rules import CityBlocks, Move, score, start_rows

from .helpers import Invoke, assert_clean_failure


def finished_game(players: int = 4, seed: int = 7) -> CityBlocks:
    rng = random.Random(seed)
    game = CityBlocks(players)
    while not game.is_game_over():
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
    return game


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    save(finished_game().to_position(), path)
    return path


def test_help(invoke: Invoke) -> None:
    result = invoke("score", "--help")
    assert result.exit_code == 0
    assert "Examples" in result.stdout and "Exit codes" in result.stdout


def test_text_output_has_picture_and_table(invoke: Invoke, game_file: Path) -> None:
    result = invoke("score", str(game_file), "--no-color")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines[0].split()) == 20  # a board row, one letter per cell
    assert "colour   area  free  total" in lines
    sheet = finished_game().score()
    blue = sheet.colors["blue"]
    assert f"blue{blue.area:>9}{blue.free:>6}{blue.total:>7}" in lines
    assert any(line.startswith(("winner:", "draw between:")) for line in lines)
    assert "\x1b[" not in result.stdout


def test_colour_on_request(invoke: Invoke, game_file: Path) -> None:
    result = invoke("score", str(game_file), "--color")
    assert result.exit_code == 0 and "\x1b[" in result.stdout


def test_json_shape(invoke: Invoke, game_file: Path) -> None:
    result = invoke("score", str(game_file), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    # "over": whether the game is over (the table names a winner only then)
    assert list(doc) == ["game", "colors", "players", "over"] and doc["game"] == "cityblocks"
    assert doc.pop("over") is True
    assert list(doc["colors"]) == ["blue", "yellow", "red", "green"]
    for entry in doc["colors"].values():
        assert list(entry) == ["area", "free", "total"]
        assert entry["total"] == entry["area"] + entry["free"]
    assert doc == finished_game().score().as_dict()
    assert doc["players"] == {name: doc["colors"][name]["total"] for name in doc["colors"]}


@pytest.mark.parametrize(
    ("players", "names"),
    [("2", ["blue+red", "yellow+green"]), ("3", ["blue", "yellow", "red"])],
)
def test_player_variants(invoke: Invoke, game_file: Path, players: str, names: list[str]) -> None:
    doc = json.loads(invoke("score", str(game_file), "--json", "--players", players).stdout)
    assert list(doc["players"]) == names
    if players == "2":
        c = doc["colors"]
        assert doc["players"]["blue+red"] == c["blue"]["total"] + c["red"]["total"]


def test_players_recorded_in_the_file_are_the_default(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    save(finished_game(players=2).to_position(), path)
    doc = json.loads(invoke("score", str(path), "--json").stdout)
    assert list(doc["players"]) == ["blue+red", "yellow+green"]
    doc = json.loads(invoke("score", str(path), "--json", "--players", "4").stdout)
    assert len(doc["players"]) == 4


def test_plain_text_board_and_standard_input(invoke: Invoke, tmp_path: Path) -> None:
    rows = start_rows()
    rows[0] = "BBB" + rows[0][3:]
    path = tmp_path / "board.txt"
    path.write_text("; a City Blocks board\n" + "\n".join(rows) + "\n")
    doc = json.loads(invoke("score", str(path), "--json").stdout)
    assert doc["colors"]["blue"] == {"area": 3, "free": 6, "total": 9}
    piped = invoke("score", "-", "--json", input=path.read_text())
    assert json.loads(piped.stdout) == doc


@pytest.mark.parametrize("suffix", [".svg", ".png", ".txt"])
def test_writes_a_picture(invoke: Invoke, game_file: Path, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"scores{suffix}"
    result = invoke("score", str(game_file), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert f"wrote {out}" in result.stderr
    assert "colour   area  free  total" in result.stdout
    sheet = finished_game().score()
    if suffix == ".svg":
        root = ET.fromstring(out.read_text())
        ns = "{http://www.w3.org/2000/svg}"
        dots = root.findall(f".//{ns}g[@class='area']/{ns}circle")
        assert len(dots) == sum(s.area for s in sheet.colors.values())
        stripes = root.findall(f".//{ns}g[@class='free-edges']/{ns}path")
        assert {p.get("data-color") for p in stripes} == {
            name for name, s in sheet.colors.items() if s.free
        }
    elif suffix == ".png":
        assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    else:
        text = out.read_text()
        assert len(text.splitlines()[0].split()) == 20
        assert "winner: " in text or "draw between: " in text


def test_bad_inputs_exit_2(invoke: Invoke, tmp_path: Path, examples: Path) -> None:
    blokus = invoke("score", str(examples / "blokus-opening.json"))  # scored, as Blokus
    assert blokus.exit_code == 0 and "Blokus classic" in blokus.stdout, blokus.stderr
    solution = invoke("score", str(examples / "pentomino-6x10.json"))
    assert_clean_failure(solution)
    assert "found a solution" in solution.stderr
    small = invoke("score", str(examples / "board-8x8-centre.txt"))
    assert_clean_failure(small)
    assert "8 rows" in small.stderr and "20x20" in small.stderr
    missing = invoke("score", str(tmp_path / "nope.json"))
    assert_clean_failure(missing)
    rows = start_rows()
    rows[9] = rows[9][:9] + "." + rows[9][10:]
    no_centre = tmp_path / "no-centre.json"
    save(Position("cityblocks", tuple(rows)), no_centre)
    result = invoke("score", str(no_centre))
    assert_clean_failure(result)
    assert "board[9]" in result.stderr and "centre square" in result.stderr
    bad_players = tmp_path / "players.json"
    save(Position("cityblocks", tuple(start_rows()), extra={"players": 5}), bad_players)
    result = invoke("score", str(bad_players))
    assert_clean_failure(result)
    assert "players" in result.stderr
    assert_clean_failure(invoke("score", str(bad_players), "--players", "5"))
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("hello\n")
    assert_clean_failure(invoke("score", str(garbage)))


def test_bad_picture_suffix_exits_2(invoke: Invoke, game_file: Path, tmp_path: Path) -> None:
    result = invoke("score", str(game_file), "-o", str(tmp_path / "pic.gif"))
    assert_clean_failure(result)
    assert ".svg, .png or .txt" in result.stderr


def test_library_and_command_agree_on_a_hand_built_board(invoke: Invoke, tmp_path: Path) -> None:
    rows = start_rows()
    rows[2] = "..RR" + rows[2][4:]
    path = tmp_path / "b.json"
    save(Position("cityblocks", tuple(rows)), path)
    doc = json.loads(invoke("score", str(path), "--json").stdout)
    assert doc.pop("over") is None  # a board the rules refuse: not known
    assert doc == score(rows).as_dict()


def test_a_position_with_hands_validate_refuses_is_refused(invoke: Invoke, tmp_path: Path) -> None:
    rows = start_rows()
    rows[0] = "B" * 20
    cases = {
        "row.json": (rows, {"blue": ("I2",)}, "blue has 21 cells on the board"),
        "q9.json": (start_rows(), {"blue": ("Q9",)}, "'Q9' is not a City Blocks piece"),
        "dup.json": (start_rows(), {"blue": ("I2", "I2")}, "piece I2 is listed twice"),
    }
    for name, (board, hands, words) in cases.items():
        path = tmp_path / name
        save(Position("cityblocks", tuple(board), hands=hands), path)
        checked = invoke("validate", str(path))
        assert checked.exit_code == 1 and words in checked.stdout + checked.stderr
        scored = invoke("score", str(path))
        assert_clean_failure(scored)
        assert f"{path}: hands.blue" in scored.stderr and words in scored.stderr
        assert scored.stdout == ""

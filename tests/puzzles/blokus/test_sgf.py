"""Pentobi game records (.blksgf): the coordinate flip, move N positions, round trips through
the engine, variations, setup, and malformed input named by source and place."""

from __future__ import annotations

from pathlib import Path

import pytest

from polytile.errors import FormatError, IllegalMoveError
from polytile.formats import Position, dumps, loads
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.blokus.sgf import (
    GameRecord,
    cell_name,
    parse_cell,
    read_blksgf,
    write_blksgf,
)

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "duo-game.blksgf"

# Written for these tests in Pentobi's layout (not a real game): X5 against X5, then an I3 and
# an I2, with names, date, result and a comment containing an escaped bracket.
DUO_FRAGMENT = """(;GM[Blokus Duo]FF[4]CA[UTF-8]AP[Pentobi:19.0]
PB[Ann]PW[Bob]DT[2024-03-02]RE[B+3]
;B[e9,d10,e10,f10,e11]
;W[j4,i5,j5,k5,j6]
;B[f12,g12,h12]C[a quiet move \\] really]
;W[i2,i3]
)
"""


def cells_of(game: Blokus) -> dict[tuple[int, int], str]:
    return {
        (r, c): color
        for r in range(game.size)
        for c in range(game.size)
        if (color := game.color_at((r, c))) is not None
    }


# -- points -----------------------------------------------------------------------------------
def test_points_count_rows_from_the_bottom() -> None:
    assert parse_cell("a1", 20) == (19, 0)
    assert parse_cell("a20", 20) == (0, 0)
    assert parse_cell("t1", 20) == (19, 19)
    assert parse_cell("E10", 14) == (4, 4)  # case-insensitive; Duo's first start point
    assert parse_cell("j5", 14) == (9, 9)  # Duo's second start point
    for size in (14, 20):
        for cell in [(0, 0), (size - 1, 0), (3, 7), (size - 1, size - 1)]:
            assert parse_cell(cell_name(cell, size), size) == cell


@pytest.mark.parametrize("text", ["a0", "a15", "o1", "1a", "aa1", "e", "e-1", ""])
def test_bad_points_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_cell(text, 14)


# -- hand-written records ---------------------------------------------------------------------
def test_duo_fragment_cell_by_cell() -> None:
    record = read_blksgf(DUO_FRAGMENT, source="fragment.blksgf")
    assert (record.variant, record.players, len(record.moves)) == ("duo", 2, 4)
    assert record.properties["PB"] == "Ann" and record.properties["PW"] == "Bob"
    assert record.properties["RE"] == "B+3" and record.properties["DT"] == "2024-03-02"
    assert record.comments == {3: "a quiet move ] really"}
    assert [m.piece for m in record.moves] == ["X5", "X5", "I3", "I2"]
    assert [m.color for m in record.moves] == ["blue", "yellow", "blue", "yellow"]
    expected = {
        **dict.fromkeys([(5, 4), (4, 3), (4, 4), (4, 5), (3, 4)], "blue"),
        **dict.fromkeys([(10, 9), (9, 8), (9, 9), (9, 10), (8, 9)], "yellow"),
        **dict.fromkeys([(2, 5), (2, 6), (2, 7)], "blue"),
        **dict.fromkeys([(11, 8), (12, 8)], "yellow"),
    }
    assert cells_of(record.position()) == expected


def test_classic_corners_cell_by_cell() -> None:
    text = "(;GM[Blokus]FF[4];1[a20,b20];2[s19,t19,t20];3[t1];4[a1,a2,a3,a4])"
    record = read_blksgf(text)
    assert (record.variant, record.players) == ("classic", 4)
    game = record.position()
    assert cells_of(game) == {
        (0, 0): "blue",
        (0, 1): "blue",
        (0, 19): "yellow",
        (1, 19): "yellow",
        (1, 18): "yellow",
        (19, 19): "red",
        (19, 0): "green",
        (18, 0): "green",
        (17, 0): "green",
        (16, 0): "green",
    }
    assert [m.piece for m in game.move_stack] == ["I2", "V3", "I1", "I4"]


@pytest.mark.parametrize(("gm", "players"), [("Blokus Two-Player", 2), ("Blokus Three-Player", 3)])
def test_classic_player_variants(gm: str, players: int) -> None:
    record = read_blksgf(f"(;GM[{gm}];1[a20])")
    assert (record.variant, record.players) == ("classic", players)
    assert write_blksgf(record).startswith(f"(;GM[{gm}]")


def test_position_after_move_n() -> None:
    record = read_blksgf(DUO_FRAGMENT)
    assert cells_of(record.position(0)) == {}
    after_one = record.position(1)
    assert set(cells_of(after_one).values()) == {"blue"} and after_one.to_move == "yellow"
    assert len(record.position(3).move_stack) == 3
    assert record.position(4).to_position() == record.position().to_position()
    for bad in (-1, 5):
        with pytest.raises(ValueError, match="move number"):
            record.position(bad)


def test_variations_follow_the_main_line() -> None:
    text = "(;GM[Blokus Duo](;B[e10](;W[j5];B[d11,d12])(;W[i5,j5]))(;B[e10,e9]))"
    record = read_blksgf(text)
    assert [m.cells for m in record.moves] == [((4, 4),), ((9, 9),), ((2, 3), (3, 3))]


def test_two_colour_ids_one_and_two_are_read_too() -> None:
    assert read_blksgf("(;GM[Blokus Duo];1[e10];2[j5])").moves[1].color == "yellow"


# -- round trips --------------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "seed"), [("duo", 1), ("duo", 7), ("classic", 3)])
def test_random_games_round_trip(variant: str, seed: int) -> None:
    game = Blokus(variant)
    game.play_random(seed)
    assert any(m.is_pass for m in game.move_stack) or variant == "duo"
    text = write_blksgf(game, PB="rand", RE="?")
    record = read_blksgf(text)
    assert list(record.moves) == [m for m in game.move_stack if not m.is_pass]
    replay = record.position()
    assert replay.move_stack == game.move_stack  # forced passes inferred in the same places
    assert replay.to_position() == game.to_position()
    assert replay.is_game_over()
    assert write_blksgf(record) == text  # stable


def test_bare_moves_and_passes_are_written_without_passes() -> None:
    game = Blokus("classic")
    game.play_random(11)
    text = write_blksgf(game.move_stack, variant="classic")
    assert text == write_blksgf(game)
    assert "[]" not in text


def test_points_written_in_pentobi_order() -> None:
    move = Move("blue", "L4", [(4, 4), (5, 4), (6, 4), (6, 5)])
    text = write_blksgf([move], variant="duo")
    assert ";B[e8,f8,e9,e10])" in text  # a1, b1, ..., a2, ...


def test_setup_and_position_json_both_ways() -> None:
    game = read_blksgf(DUO_FRAGMENT).position(3)
    position = loads(dumps(game.to_position()))
    assert isinstance(position, Position)
    text = write_blksgf(position)
    assert "[e9,d10,e10,f10,e11]" in text and "[f12,g12,h12]" in text and "AB[" in text
    assert "AW[j4,i5,j5,k5,j6]" in text and "PL[W]" in text
    record = read_blksgf(text)
    assert record.moves == () and record.setup_to_move == "yellow"
    again = record.position()
    assert again.board_rows() == game.board_rows()
    assert {c: again.hand(c) for c in again.colors} == {c: game.hand(c) for c in game.colors}
    # moves continue from a setup
    record = read_blksgf(text.replace(")\n", ";W[i2,i3])"))
    assert cells_of(record.position()) == cells_of(read_blksgf(DUO_FRAGMENT).position())
    # a game loaded from a position writes its board as setup, then its moves
    loaded = Blokus.from_position(position)
    loaded.push(Move("yellow", "I2", [(11, 8), (12, 8)]))
    assert write_blksgf(loaded).endswith("PL[W]\n;W[i2,i3])\n")


def test_comments_and_escapes_round_trip() -> None:
    record = read_blksgf(DUO_FRAGMENT)
    again = read_blksgf(write_blksgf(record, GN="a [test] \\ game"))
    assert again.comments == record.comments
    assert again.properties["GN"] == "a [test] \\ game"
    assert again.properties["AP"] == "polytile"  # Pentobi's AP is not repeated as ours
    with pytest.raises(ValueError, match="SGF property"):
        write_blksgf(record, player_black="x")


def test_illegal_bare_moves_are_refused_when_writing() -> None:
    with pytest.raises(IllegalMoveError):
        write_blksgf([Move("blue", "I1", [(0, 0)])], variant="duo")


def test_files_and_bytes(tmp_path: Path) -> None:
    path = tmp_path / "game.blksgf"
    path.write_text(DUO_FRAGMENT, encoding="utf-8")
    assert read_blksgf(path).source == str(path)
    assert read_blksgf(str(path)).moves == read_blksgf(DUO_FRAGMENT).moves
    assert len(read_blksgf(b"\xef\xbb\xbf" + DUO_FRAGMENT.encode()).moves) == 4
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus Duo];B[e10];B[d11])", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.blksgf: move 2: blue plays out of turn"):
        read_blksgf(bad)
    with pytest.raises(FormatError, match="cannot read"):
        read_blksgf(tmp_path / "missing.blksgf")


def test_example_file() -> None:
    record = read_blksgf(EXAMPLE)
    assert record.variant == "duo" and len(record.moves) == 10
    assert record.properties["PB"] == "polytile random" and record.comments
    assert write_blksgf(record) == EXAMPLE.read_text(encoding="utf-8")


# -- malformed input ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (b"GM[Blokus]", "line 1", "starts with '\\('"),
        ("(;GM[Blokus Duo];B[e10]", "line 1", "expected '\\)'"),
        ("(;GM[Blokus Duo]\n;B[e10", "line 2", "not closed"),
        ("(GM[Blokus])", "line 1", "expected ';'"),
        ("(;GM[Blokus Duo];B)", "line 1", "no value"),
        ("(;GM[Blokus Duo]GM[Blokus])", "line 1", "repeated"),
        ("(;FF[4])", "GM", "no GM property; supported: Blokus, "),
        ("(;GM[1])", "GM", "not a Pentobi Blokus game"),
        ("(;GM[Blokus Trigon])", "GM", "'Blokus Trigon' is not supported; supported: .*Duo"),
        ("(;GM[Blokus Duo];B[z1])", "move 1", "outside the 14x14 board"),
        ("(;GM[Blokus Duo];B[e10,,e11])", "move 1", "'' is not a point"),
        (
            "(;GM[Blokus Duo];B[e10,g10])",
            "move 1",
            "points e10,g10 do not form a piece: .*not edge-connected",
        ),
        ("(;GM[Blokus Duo];B[e10,e10])", "move 1", "a point is repeated"),
        (
            "(;GM[Blokus Duo];B[a1,a2,a3,a4,a5,a6])",
            "move 1",
            "no Blokus piece has this shape of 6 squares",
        ),
        ("(;GM[Blokus Duo];B[])", "move 1", "one value"),
        ("(;GM[Blokus Duo];B[e10]W[j5])", "line 1", "one node holds moves B, W"),
        (
            "(;GM[Blokus Duo];B[a1])",
            "move 1",
            "illegal move blue I1 a1: .*first piece must cover its start cell e10$",
        ),
        ("(;GM[Blokus Duo];B[e10];W[j5];B[e11])", "move 3", "illegal move"),
        ("(;GM[Blokus Duo];W[j5])", "move 1", "yellow plays out of turn"),
        ("(;GM[Blokus Duo];B[e10];AW[j5])", "line 1", "setup after the root"),
        ("(;GM[Blokus Duo]AE[e10])", "AE", "not supported"),
        ("(;GM[Blokus Duo]PL[3])", "PL", "names no colour"),
        ("(;GM[Blokus Duo]AB[e10][e10])", "setup", "set up twice"),
        ("(;GM[Blokus Duo]AB[e10]AW[e10])", "setup", "overlap on e10"),
        ("(;GM[Blokus Duo]AB[e10,e11,e12,e13,e14,e15])", "AB value 1", "outside"),
    ],
)
def test_malformed_records(text: str | bytes, where: str, message: str) -> None:
    pattern = f"^game\\.blksgf: {where}( \\([^)]*\\))?: .*{message}"
    with pytest.raises(FormatError, match=pattern) as info:
        read_blksgf(text, source="game.blksgf")
    assert info.value.source == "game.blksgf"


def test_game_over_then_a_move() -> None:
    game = Blokus("duo")
    game.play_random(2)
    text = write_blksgf(game)
    last = text.rstrip(")\n").rsplit(";", 1)[1]
    with pytest.raises(FormatError, match=r"after the game is over|out of turn|illegal"):
        read_blksgf(text.rstrip(")\n") + ";" + last + ")")


def test_record_is_a_value() -> None:
    record = GameRecord("duo", 2, (Move("blue", "I1", [(4, 4)]),))
    assert record.position().color_at((4, 4)) == "blue"
    assert write_blksgf(record).endswith(";B[e10])\n")


def test_errors_name_the_property_and_line() -> None:
    text = "(;GM[Blokus Duo]\n;B[e10]\n;W[j5,j55])"
    with pytest.raises(FormatError) as info:
        read_blksgf(text, source="g.blksgf")
    assert info.value.where == "move 2 (W, line 3)"
    assert str(info.value) == "g.blksgf: move 2 (W, line 3): point 'j55' is outside the 14x14 board"

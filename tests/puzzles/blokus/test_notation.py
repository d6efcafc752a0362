"""Blokus moves as people type them (:mod:`polytile.puzzles.blokus.notation`)."""

from __future__ import annotations

import pytest

from polytile.puzzles.blokus.notation import parse_move
from polytile.puzzles.blokus.rules import Blokus, Move


@pytest.fixture
def duo() -> Blokus:
    return Blokus("duo")


def test_the_forms_agree(duo: Blokus) -> None:
    want = Move("blue", "V3", [(4, 4), (5, 4), (5, 5)])
    for text in ("e10 e9 f9", "e10,e9,f9", "V3 e10 e9 f9", "blue V3 e10 e9 f9", "B e10 E9 f9",
                 "B V3 4,4 5,4 5,5", " B  V3 4, 4 5,4 5,5 "):  # fmt: skip
        assert parse_move(text, duo) == want, text


def test_colour_defaults_to_the_mover_and_a_named_one_is_kept(duo: Blokus) -> None:
    duo.push(parse_move("e10 e9 f9", duo))
    assert parse_move("j5 j4 k4", duo).color == "yellow"
    assert parse_move("blue j5 j4 k4", duo).color == "blue"  # the engine refuses it, not this
    assert parse_move("pass", duo) == Move.pass_turn("yellow")


def test_a_lower_case_piece_name_is_a_point(duo: Blokus) -> None:
    # i2 is the point in column i, row 2: two points and no piece name
    assert parse_move("i2 i3", duo) == Move("blue", "I2", [(11, 8), (12, 8)])
    with pytest.raises(ValueError, match="form I2, not V3"):
        parse_move("V3 i2 i3", duo)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("blue", "no points"),
        ("V3", "no points"),
        ("o1 o2", "outside the 14x14 board"),
        ("a1 c3", "not edge-connected"),
        ("a1 a1", "repeated"),
        ("red a1", "red does not play"),
        ("e10 e9 xx", "not a point"),
    ],
)
def test_bad_text_says_what(duo: Blokus, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_move(text, duo)


def test_a_capital_first_word_that_reads_two_ways_is_refused() -> None:
    big = Blokus("classic")
    with pytest.raises(ValueError, match="reads two ways"):
        parse_move("I2 I3 I4", big)  # I2 on i3 i4, or I3 on i2 i3 i4
    assert parse_move("I3 i2 i3 i4", big).piece == "I3"
    # only one reading is a piece: the L5 on five points, not an L5 on four
    assert parse_move("L5 L6 L7 L8 M8", big).piece == "L5"


def test_pass_and_colour_letters_in_any_case(duo: Blokus) -> None:
    assert parse_move("Pass", duo) == parse_move("b PASS", duo) == Move.pass_turn("blue")
    assert parse_move("y j5 j4 k4", duo).color == "yellow"

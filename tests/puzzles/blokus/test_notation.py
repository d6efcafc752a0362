"""Blokus moves as people type them (:mod:`polytile.puzzles.blokus.notation`)."""

from __future__ import annotations

import pytest

from polytile.puzzles.blokus.notation import move_text, parse_move, with_move_texts
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


def test_a_capital_piece_before_lower_case_points_is_the_piece() -> None:
    """#50: ``yellow I1 j1`` (the Duo example's move 10 as the move list writes it) was
    refused as reading two ways (I1 on j1, or I2 on i1 j1); points in lower case say the
    capital word is the piece."""
    duo = Blokus("duo")
    duo.push(parse_move("e10 e9 f9", duo))
    assert parse_move("yellow I1 j1", duo) == Move("yellow", "I1", [(13, 9)])
    assert parse_move("I2 i3 i4", Blokus("classic")).piece == "I2"


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_every_legal_move_written_reads_back(variant: str) -> None:
    """The one notation: :func:`move_text` of every legal move (the opening and two moves
    on, a pass included) is read back by :func:`parse_move` as that move."""
    game = Blokus(variant)
    for _ in range(3):
        moves = game.legal_moves()
        for move in [*moves, Move.pass_turn(game.to_move)]:
            text = move_text(move, game.size)
            assert text.startswith(f"{move.color} ")
            assert parse_move(text, game) == move, text
        game.push(moves[len(moves) // 2])


def test_json_moves_carry_their_text(duo: Blokus) -> None:
    doc = {"best_move": {"color": "blue", "piece": "V3", "cells": [[4, 4], [5, 4], [5, 5]]},
           "pv": [{"color": "yellow", "pass": True}], "colors": {"blue": {"color": "blue"}}}
    out = with_move_texts(doc, duo.size)
    assert out["best_move"]["text"] == "blue V3 e10 e9 f9"
    assert out["pv"][0]["text"] == "yellow pass"
    assert "text" not in out["colors"]["blue"] and "text" not in doc["best_move"]

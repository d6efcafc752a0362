"""``polytile pieces``."""

from __future__ import annotations

import json

from .helpers import Invoke, assert_clean_failure


def test_help(invoke: Invoke) -> None:
    result = invoke("pieces", "--help")
    assert result.exit_code == 0
    assert "pentominoes" in result.stdout and "Examples" in result.stdout


def test_default_set_is_blokus_with_pictures(invoke: Invoke) -> None:
    result = invoke("pieces", "--width", "80")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("blokus: 21 pieces, 89 squares\n")
    for name in ("I1", "V3", "Z4", "F5", "X5", "Z5"):
        assert name in out
    assert "1 cell\n" in out or "1 cell " in out
    assert "8 orientations" in out and "1 orientation" in out
    assert ".##" in out  # the F5 picture's first row
    assert max(len(line) for line in out.splitlines()) <= 80


def test_narrow_width_gives_one_piece_per_row(invoke: Invoke) -> None:
    out = invoke("pieces", "tetrominoes", "--width", "10").stdout
    names = [line for line in out.splitlines() if line in ("I4", "O4", "T4", "L4", "Z4")]
    assert names == ["I4", "O4", "T4", "L4", "Z4"]


def test_json(invoke: Invoke) -> None:
    result = invoke("pieces", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert len(doc) == 21
    assert sum(p["size"] for p in doc) == 89
    by_name = {p["name"]: p for p in doc}
    assert set(by_name["F5"]) == {"name", "size", "orientations", "cells"}
    assert (by_name["F5"]["orientations"], by_name["X5"]["orientations"]) == (8, 1)
    assert by_name["I2"]["cells"] == [[0, 0], [0, 1]]


def test_other_sets(invoke: Invoke) -> None:
    assert len(json.loads(invoke("pieces", "pentominoes", "--json").stdout)) == 12
    assert len(json.loads(invoke("pieces", "CityBlocks", "--json").stdout)) == 20


def test_unknown_set_exits_2_listing_the_known_ones(invoke: Invoke) -> None:
    result = invoke("pieces", "hexominoes")
    assert_clean_failure(result)
    assert "hexominoes" in result.stderr and "pentominoes" in result.stderr

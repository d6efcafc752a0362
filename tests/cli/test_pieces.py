"""``polytile pieces``."""

from __future__ import annotations

import json

import pytest

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
    assert set(by_name["F5"]) == {"name", "grid", "size", "orientations", "cells"}
    assert by_name["F5"]["grid"] == "square"
    assert (by_name["F5"]["orientations"], by_name["X5"]["orientations"]) == (8, 1)
    assert by_name["I2"]["cells"] == [[0, 0], [0, 1]]


def test_other_sets(invoke: Invoke) -> None:
    assert len(json.loads(invoke("pieces", "pentominoes", "--json").stdout)) == 12
    assert len(json.loads(invoke("pieces", "CityBlocks", "--json").stdout)) == 20


def test_unknown_set_exits_2_listing_the_known_ones(invoke: Invoke) -> None:
    result = invoke("pieces", "hexominoes")
    assert_clean_failure(result)
    assert "hexominoes" in result.stderr and "pentominoes" in result.stderr


# -- sets on the other grids -----------------------------------------------------------------
def test_help_teaches_the_grids_and_the_enumeration(invoke: Invoke) -> None:
    out = " ".join(invoke("pieces", "--help").stdout.split())  # as one line: click wraps
    for word in (
        "hexiamonds",
        "soma",
        "pentacubes",
        "--grid hex --size 5",
        "--one-sided",
        "12 of the triangle and hex grids",
        "24 rotations",
        "48 symmetries",
    ):
        assert word in out, word


def test_soma_pictures_show_layers_and_count_rotations(invoke: Invoke) -> None:
    result = invoke("pieces", "soma", "--width", "80")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("soma: 7 pieces, 27 cubes on the cube grid; orientations of 24 "
                          "rotations\n")  # fmt: skip
    assert ".# .#" in out  # A's two layers side by side
    assert "8 orientations" in out  # P: 24 rotations / 3
    assert max(len(line) for line in out.splitlines()) <= 80


def test_hexiamonds_and_pentahexes_in_their_grids_text(invoke: Invoke) -> None:
    out = invoke("pieces", "hexiamonds").stdout
    assert out.startswith("hexiamonds: 12 pieces, 72 triangles on the triangle grid")
    assert "######" in out  # I6: one character per triangle
    assert "1 orientation\n" in out or "1 orientation " in out  # O6, the hexagon
    out = invoke("pieces", "pentahexes", "--width", "40").stdout
    assert "# # # # #" in out  # I5: hexagons two columns apart
    assert "22 pieces, 110 hexagons" in out


def test_json_of_a_solid_set_counts_rotations(invoke: Invoke) -> None:
    doc = json.loads(invoke("pieces", "pentacubes", "--json").stdout)
    assert len(doc) == 29 and {p["grid"] for p in doc} == {"cube"}
    by_name = {p["name"]: p for p in doc}
    assert by_name["X5"]["orientations"] == 3 and by_name["F5"]["orientations"] == 24
    assert by_name["J15"]["orientations"] == 12
    assert all(len(cell) == 3 for p in doc for cell in p["cells"])


# -- every polyform of a size ----------------------------------------------------------------
def test_size_lists_the_free_pentahexes_with_a_count_line(invoke: Invoke) -> None:
    result = invoke("pieces", "--grid", "hex", "--size", "5", "--width", "80")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    first = out.splitlines()[0]
    assert first == "22 free polyhexes of 5 hexagons (hex grid; orientations of 12 symmetries)"
    lines = out.splitlines()
    # each row of pictures starts after a blank line with its pieces' titles: number, name
    titles = [lines[i + 1] for i, line in enumerate(lines[:-1]) if not line]
    numbers = [word for line in titles for word in line.split() if word.isdigit()]
    assert numbers == [str(i) for i in range(1, 23)]
    assert "1 I5" in out  # the bar comes first, with the name the pentahexes set gives it


def test_one_sided_lists_the_33_pentahexes(invoke: Invoke) -> None:
    result = invoke("pieces", "--grid", "hex", "--size", "5", "--one-sided", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert len(doc) == 33
    assert [p["name"] for p in doc] == [str(i) for i in range(1, 34)]
    assert {p["grid"] for p in doc} == {"hex"} and {p["size"] for p in doc} == {5}
    known = [name for p in doc for name in p["known_as"]]
    assert len(known) == 33 and "F5" in known and "F5'" in known
    assert max(p["orientations"] for p in doc) == 6  # of the 6 rotations
    text = invoke("pieces", "--grid", "hex", "--size", "5", "--one-sided").stdout
    assert text.startswith("33 one-sided polyhexes of 5 hexagons")


@pytest.mark.parametrize(
    ("args", "count"),
    [
        (("--size", "5"), 12),  # square by default
        (("--size", "5", "--one-sided"), 18),
        (("--grid", "triangle", "--size", "6"), 12),
        (("--grid", "polyiamonds", "--size", "6", "--one-sided"), 19),
        (("--grid", "cube", "--size", "5"), 23),
        (("--grid", "cube", "--size", "5", "--one-sided"), 29),
    ],
)
def test_size_counts(invoke: Invoke, args: tuple[str, ...], count: int) -> None:
    result = invoke("pieces", *args, "--json")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)) == count
    text = invoke("pieces", *args).stdout
    assert text.startswith(f"{count} ")


def test_unknown_grid_exits_2_naming_the_known_ones(invoke: Invoke) -> None:
    result = invoke("pieces", "--grid", "octagon", "--size", "3")
    assert_clean_failure(result)
    assert "octagon" in result.stderr and "triangle" in result.stderr
    assert "--grid" in result.stderr


def test_size_too_large_exits_2_naming_the_limit(invoke: Invoke) -> None:
    from polytile.polyforms import MAX_SIZES

    limit = MAX_SIZES["hex"]
    result = invoke("pieces", "--grid", "hex", "--size", str(limit + 1))
    assert_clean_failure(result)
    assert f"limit is {limit}" in result.stderr and "--size" in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("pentominoes", "--size", "5"), ("pentominoes", "--size")),
        (("--grid", "hex"), ("--grid", "--size")),
        (("soma", "--one-sided"), ("--one-sided", "--size")),
        (("--size", "0"), ("--size",)),
        (("--size", "five"), ("--size",)),
    ],
)
def test_bad_combinations_exit_2_with_a_message(
    invoke: Invoke, args: tuple[str, ...], words: tuple[str, ...]
) -> None:
    result = invoke("pieces", *args)
    assert_clean_failure(result)
    for word in words:
        assert word in result.stderr, word

"""Tests of polytile.polyforms (every polyform of a size on a grid) and of the named piece sets
on the triangle, hex and cube grids (seeds/polyforms.txt) that it checks.

Known counts are OEIS's: free A000105 (squares), A000577 (triangles), A000228 (hexagons),
A038119 (cubes, mirror images alike); one-sided A000988, A006534, A006535, A000162 (cubes
as solids turn); fixed A001168, A001420, A001207, A001931.
"""

from __future__ import annotations

import pytest

from polytile.errors import FormatError, ShapeError, UnknownNameError
from polytile.geometry import (
    PIECE_SETS,
    Polyform,
    piece_set,
    read_piece_file,
    read_piece_sets,
)
from polytile.grids import grid
from polytile.polyforms import MAX_SIZES, enumerate_polyforms, known_names

FREE = {
    "square": [1, 1, 2, 5, 12, 35, 108],
    "triangle": [1, 1, 1, 3, 4, 12, 24, 66],
    "hex": [1, 1, 3, 7, 22, 82],
    "cube": [1, 1, 2, 7, 23, 112],
}
ONE_SIDED = {
    "square": [1, 1, 2, 7, 18, 60, 196],
    "triangle": [1, 1, 1, 4, 6, 19, 43, 120],
    "hex": [1, 1, 3, 10, 33, 147],
    "cube": [1, 1, 2, 8, 29, 166],
}
FIXED = {
    "square": [1, 2, 6, 19, 63, 216, 760],
    "triangle": [2, 3, 6, 14, 36, 94, 250, 675],
    "hex": [1, 3, 11, 44, 186, 814],
    "cube": [1, 3, 15, 86, 534, 3481],
}


def _case(table: dict[str, list[int]]) -> list[tuple[str, int, int]]:
    return [(g, n, count) for g, counts in table.items()
            for n, count in enumerate(counts, start=1)]  # fmt: skip


# -- enumeration -----------------------------------------------------------------------------
@pytest.mark.parametrize(("grid_name", "size", "count"), _case(FREE))
def test_free_polyforms_number_as_oeis_says(grid_name: str, size: int, count: int) -> None:
    assert len(enumerate_polyforms(grid_name, size)) == count


@pytest.mark.parametrize(("grid_name", "size", "count"), _case(ONE_SIDED))
def test_one_sided_polyforms_number_as_oeis_says(grid_name: str, size: int, count: int) -> None:
    assert len(enumerate_polyforms(grid_name, size, one_sided=True)) == count


@pytest.mark.parametrize(("grid_name", "size", "count"), _case(FIXED))
def test_orientations_of_the_free_pieces_add_up_to_the_fixed_count(
    grid_name: str, size: int, count: int
) -> None:
    # an independent check of the enumeration: every fixed polyform is an orientation of
    # exactly one free piece, and the library's orientations() does not use the enumeration
    pieces = enumerate_polyforms(grid_name, size)
    fixed = [q for p in pieces for q in p.orientations()]
    assert len(fixed) == len(set(fixed)) == count
    pieces = enumerate_polyforms(grid_name, size, one_sided=True)
    assert sum(len(p.orientations(one_sided=True)) for p in pieces) == count


@pytest.mark.parametrize("grid_name", sorted(FREE))
@pytest.mark.parametrize("one_sided", [False, True])
def test_each_piece_once_canonical_sorted_connected_and_numbered(
    grid_name: str, one_sided: bool
) -> None:
    size = len(FREE[grid_name]) - 1
    pieces = enumerate_polyforms(grid_name, size, one_sided)
    for p in pieces:
        assert p.grid == grid_name and p.size == size
        assert p == (p.canonical_one_sided() if one_sided else p.canonical())
        assert Polyform(p.cells, "", grid_name) == p  # connected, normalized: it rebuilds
    assert [p.cells for p in pieces] == sorted(p.cells for p in pieces)
    assert len(set(pieces)) == len(pieces)
    assert [p.name for p in pieces] == [str(i) for i in range(1, len(pieces) + 1)]


def test_one_sided_pieces_are_the_free_ones_and_the_mirror_images_of_the_chiral_ones() -> None:
    free = enumerate_polyforms("hex", 5)
    one_sided = set(enumerate_polyforms("hex", 5, one_sided=True))
    rotations = grid("hex").rotations
    chiral = [p for p in free if all(k < rotations for k in p.stabilizer())]
    assert len(one_sided) == len(free) + len(chiral) == 33
    for p in chiral:
        assert p.canonical_one_sided() in one_sided
        assert p.mirror_image().canonical_one_sided() in one_sided


def test_the_first_pieces_of_each_grid_are_the_bars() -> None:
    # sorted by cells, the straight piece comes first on every grid
    assert enumerate_polyforms("square", 4)[0].to_text() == "####"
    assert enumerate_polyforms("hex", 3)[0].to_text() == "# # #"
    assert enumerate_polyforms("cube", 3)[0].cells == ((0, 0, 0), (0, 0, 1), (0, 0, 2))
    assert enumerate_polyforms("triangle", 2)[0].to_text() == "##"


@pytest.mark.parametrize("grid_name", sorted(MAX_SIZES))
def test_sizes_past_the_limit_are_refused_naming_the_limit(grid_name: str) -> None:
    limit = MAX_SIZES[grid_name]
    with pytest.raises(ShapeError) as info:
        enumerate_polyforms(grid_name, limit + 1)
    assert isinstance(info.value, ValueError)
    assert f"limit is {limit}" in str(info.value) and grid_name in str(info.value)
    with pytest.raises(ShapeError, match="at least one"):
        enumerate_polyforms(grid_name, 0)


@pytest.mark.parametrize("size", [2.0, "3", True, None])
def test_a_size_that_is_not_a_whole_number_is_refused(size: object) -> None:
    with pytest.raises(ShapeError, match="whole number"):
        enumerate_polyforms("square", size)  # type: ignore[arg-type]


def test_an_unknown_grid_is_refused_listing_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match="triangle"):
        enumerate_polyforms("octagon", 3)
    assert len(enumerate_polyforms("polyiamonds", 6)) == 12  # the grids' aliases work


# -- the named sets on the new grids ---------------------------------------------------------
NEW_SETS = {  # set: (grid, size, one-sided, count, cells)
    "hexiamonds": ("triangle", 6, False, 12, 72),
    "tetrahexes": ("hex", 4, False, 7, 28),
    "pentahexes": ("hex", 5, False, 22, 110),
    "pentacubes": ("cube", 5, True, 29, 145),
}


@pytest.mark.parametrize("name", sorted(NEW_SETS))
def test_each_set_is_every_piece_of_its_size_once(name: str) -> None:
    grid_name, size, one_sided, count, cells = NEW_SETS[name]
    pieces = piece_set(name)
    assert len(pieces) == count and sum(p.size for p in pieces) == cells
    assert {p.grid for p in pieces} == {grid_name}
    shapes = [p.canonical_one_sided() if one_sided else p.canonical() for p in pieces]
    assert len(set(shapes)) == len(shapes), "a piece drawn twice"
    assert set(shapes) == set(enumerate_polyforms(grid_name, size, one_sided))
    assert len({p.name for p in pieces}) == count


@pytest.mark.parametrize(
    ("name", "names"),
    [
        ("hexiamonds", "C6 E6 F6 G6 H6 I6 J6 O6 P6 S6 V6 X6"),
        ("tetrahexes", "I4 J4 O4 P4 S4 U4 Y4"),
        ("pentahexes", "A5 B5 C5 D5 E5 F5 G5 H5 I5 J5 L5 N5 P5 Q5 R5 S5 T5 U5 V5 W5 X5 Y5"),
        ("soma", "V L T Z A B P"),
        ("solid-pentominoes", "F5 I5 L5 N5 P5 T5 U5 V5 W5 X5 Y5 Z5"),
    ],
)
def test_set_names(name: str, names: str) -> None:
    assert [p.name for p in piece_set(name)] == names.split()


def _by_name(set_name: str) -> dict[str, Polyform]:
    return {p.name: p for p in piece_set(set_name)}


def test_the_names_fit_the_shapes() -> None:
    hexiamonds = _by_name("hexiamonds")
    assert hexiamonds["I6"].to_text() == "######"
    assert len(hexiamonds["O6"].orientations()) == 1  # the hexagon
    assert len(hexiamonds["X6"].orientations()) == 3  # the butterfly
    assert {n for n, p in hexiamonds.items() if len(p.orientations()) == 12} == set(
        ["F6", "G6", "H6", "J6", "P6"])  # fmt: skip
    tetrahexes = _by_name("tetrahexes")
    assert tetrahexes["I4"].to_text() == "# # # #"
    assert len(tetrahexes["Y4"].orientations()) == 2  # the propeller
    assert len(tetrahexes["O4"].orientations()) == 3  # the bee
    pentahexes = _by_name("pentahexes")
    assert pentahexes["I5"].to_text() == "# # # # #"
    assert len(pentahexes["X5"].orientations()) == 3


def test_solid_pentominoes_are_the_pentominoes_laid_flat() -> None:
    flat = piece_set("solid-pentominoes")
    for solid, square in zip(flat, piece_set("pentominoes"), strict=True):
        assert solid.name == square.name and solid.grid == "cube" and solid.layers == 1
        assert solid.cells == tuple((0, r, c) for r, c in square.cells)
    # a flat piece turned over is one of its rotations: one-sided and free agree
    assert all(len(p.orientations(True)) == len(p.orientations()) for p in flat)


def test_pentacubes_hold_the_solid_pentominoes_and_the_mirror_twins() -> None:
    pentacubes = _by_name("pentacubes")
    for solid in piece_set("solid-pentominoes"):
        assert pentacubes[solid.name].canonical_one_sided() == solid.canonical_one_sided()
    for left, right in [("J15", "L15"), ("J25", "L25"), ("J45", "L45"), ("N15", "S15"),
                        ("N25", "S25"), ("V15", "V25")]:  # fmt: skip
        a, b = pentacubes[left], pentacubes[right]
        assert a.canonical_one_sided() != b.canonical_one_sided()
        assert a.mirror_image().canonical_one_sided() == b.canonical_one_sided()
    for name in ("A5", "L35", "Q5", "T15", "T25"):
        p = pentacubes[name]
        assert p.mirror_image().canonical_one_sided() == p.canonical_one_sided()


def test_soma_is_every_tri_and_tetracube_that_is_not_a_box() -> None:
    soma = piece_set("soma")
    assert sum(p.size for p in soma) == 27

    def box(p: Polyform) -> bool:
        return p.size == p.layers * p.height * p.width

    wanted = {p for n in (3, 4) for p in enumerate_polyforms("cube", n, one_sided=True)
              if not box(p)}  # fmt: skip
    assert {p.canonical_one_sided() for p in soma} == wanted
    assert [p.name for p in soma if p.layers == 1 and p.height * p.width > 1] == list("VLTZ")


def test_soma_a_and_b_are_mirror_twins_and_p_is_its_own_mirror_image() -> None:
    soma = _by_name("soma")
    a, b, p = soma["A"], soma["B"], soma["P"]
    assert a.mirror_image().canonical_one_sided() == b.canonical_one_sided()
    assert b.mirror_image().canonical_one_sided() == a.canonical_one_sided()
    # no rotation turns A into B, though they are the same free piece
    assert b not in a.orientations(one_sided=True)
    assert a.canonical() == b.canonical()
    assert p.mirror_image().canonical_one_sided() == p.canonical_one_sided()
    assert len(a.orientations(one_sided=True)) == 12 and len(p.orientations(one_sided=True)) == 8
    # the drawn handedness (seeds/polyforms.txt, Bundgard's "a"): the third cube stands on
    # the arm of the V that runs from the corner to the far side, seen from above
    assert a == Polyform.from_text(".# .#\n## ..", "A", "cube")


@pytest.mark.parametrize("name", ["hexiamonds", "tetrahexes", "pentahexes", "soma",
                                  "solid-pentominoes", "pentacubes"])  # fmt: skip
def test_each_new_set_says_its_grid_and_cell_count(name: str) -> None:
    pieces = piece_set(name)
    g = grid(pieces[0].grid)
    description = PIECE_SETS[name]
    assert f"{g.name} grid" in description
    assert f"{sum(p.size for p in pieces)} {g.cell_word[1]}" in description
    assert f"the {len(pieces)} " in description


def test_piece_stays_blokus_only() -> None:
    from polytile.geometry import piece

    assert piece("I4").grid == "square"
    with pytest.raises(UnknownNameError):
        piece("Y4")


# -- known names -----------------------------------------------------------------------------
def test_known_names_of_enumerated_pieces() -> None:
    names = [known_names(p) for p in enumerate_polyforms("hex", 4)]
    assert sorted(n for (n,) in names) == sorted(["I4", "J4", "O4", "P4", "S4", "U4", "Y4"])
    assert known_names(enumerate_polyforms("square", 5)[0]) == ("I5",)
    # a free listing of cubes: the chiral pair of the Soma set is one free piece
    tetracubes = enumerate_polyforms("cube", 4)
    assert ("A", "B") in [known_names(p) for p in tetracubes]
    # one-sided: each twin has its own name; the twin a free set lacks gets a prime
    one_sided = [known_names(p, one_sided=True) for p in enumerate_polyforms("cube", 4, True)]
    assert ("A",) in one_sided and ("B",) in one_sided
    hexes = [known_names(p, one_sided=True) for p in enumerate_polyforms("hex", 4, True)]
    assert ("J4",) in hexes and ("J4'",) in hexes and ("Y4'",) not in hexes
    assert known_names(enumerate_polyforms("hex", 6)[0]) == ()


# -- the piece-file reader -------------------------------------------------------------------
SETS_FILE = """\
; set: Bars
; grid: hex
I2
# #

I3
# # #

; set: trays
; grid: triangle
T1
#

; grid: cube
I3
### ...
"""


def test_set_and_grid_lines_steer_the_reader() -> None:
    sets = read_piece_sets(SETS_FILE, "mine.txt")
    assert list(sets) == ["bars", "trays"]
    assert [(p.name, p.grid, p.size) for p in sets["bars"]] == [("I2", "hex", 2), ("I3", "hex", 3)]
    assert [(p.name, p.grid) for p in sets["trays"]] == [("T1", "triangle"), ("I3", "cube")]
    # the flat reading gives every set's pieces in order; names repeat only across sets
    assert [p.name for p in read_piece_file(SETS_FILE)] == ["I2", "I3", "T1", "I3"]


def test_blocks_before_any_set_line_are_the_unnamed_set_on_squares() -> None:
    sets = read_piece_sets("A\n##\n\n; grid: hex\nB\n# #\n")
    assert list(sets) == [""]
    assert [p.grid for p in sets[""]] == ["square", "hex"]


def test_the_blokus_file_reads_as_before() -> None:
    from polytile.geometry import _seed_file

    pieces = read_piece_file(_seed_file("pieces.txt"), "seeds/pieces.txt")
    assert len(pieces) == 21 and {p.grid for p in pieces} == {"square"}
    assert list(read_piece_sets(_seed_file("pieces.txt"))) == [""]


def _error(text: str) -> FormatError:
    with pytest.raises(FormatError) as info:
        read_piece_sets(text, "mine.txt")
    assert isinstance(info.value, ValueError)
    return info.value


def test_an_unknown_grid_names_its_line() -> None:
    err = _error("A\n#\n\n; grid: octagon\nB\n#\n")
    assert err.where == "line 4" and "octagon" in err.message and "hex" in err.message


def test_a_steering_line_inside_a_block_names_its_line() -> None:
    err = _error("A\n#\n; grid: hex\n#\n")
    assert err.where == "line 3" and "between pieces" in err.message


def test_a_hex_drawing_error_names_the_line_of_the_file_it_is_on() -> None:
    err = _error("; grid: hex\n\nA\n# #\n# #\n")  # the second line is not shifted
    assert err.where == "line 5"
    assert err.message.startswith("piece 'A': column 1:") and "two columns apart" in err.message


def test_a_cube_drawing_with_a_missing_layer_names_its_line() -> None:
    err = _error("; grid: cube\nA\n## #.\n##\n")
    assert err.where == "line 4" and "this line shows 1 layers" in err.message


def test_a_disconnected_piece_on_a_grid_names_its_block() -> None:
    err = _error("; grid: triangle\n; a comment\nA\n#.#\n")
    assert err.where == "line 3" and "not connected" in err.message


def test_names_repeat_across_sets_but_not_within_one() -> None:
    err = _error("; set: one\nA\n#\n\nA\n##\n")
    assert err.where == "line 5" and "repeated in set 'one'" in err.message
    assert len(read_piece_file("; set: one\nA\n#\n\n; set: two\nA\n##\n")) == 2


def test_a_set_started_twice_or_left_empty_or_unnamed_names_its_line() -> None:
    assert _error("; set: a\nA\n#\n\n; set: A\nB\n#\n").where == "line 5"
    err = _error("; set: a\nA\n#\n\n; set: b\n; set: c\nC\n#\n")
    assert err.where == "line 5" and "no pieces" in err.message
    assert _error(";set:\nA\n#\n").where == "line 1"


def test_other_comments_are_still_comments() -> None:
    pieces = read_piece_file("; grids are fun\n; settle: this\nA\n#\n")
    assert [(p.name, p.grid) for p in pieces] == [("A", "square")]

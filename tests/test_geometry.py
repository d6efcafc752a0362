"""Tests of polytile.geometry: polyominoes, the symmetry group, and the named piece sets.

Known counts (OEIS A001168 fixed, A000105 free, A000988 one-sided polyominoes) are checked
against shapes grown here from scratch, not against the library's own enumeration.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.errors import FormatError, ShapeError, UnknownNameError
from polytile.geometry import (
    PIECE_SETS,
    TRANSFORMS,
    Polyomino,
    apply_transform,
    compose_transforms,
    invert_transform,
    piece,
    piece_set,
    read_piece_file,
    transform_name,
)

Cells = frozenset[tuple[int, int]]

FIXED_COUNTS = {1: 1, 2: 2, 3: 6, 4: 19, 5: 63, 6: 216, 7: 760}
FREE_COUNTS = {1: 1, 2: 1, 3: 2, 4: 5, 5: 12, 6: 35, 7: 108}
ONE_SIDED_COUNTS = {1: 1, 2: 1, 3: 2, 4: 7, 5: 18, 6: 60, 7: 196}

BLOKUS_NAMES = (
    "I1 I2 I3 V3 I4 O4 T4 L4 Z4 F5 I5 L5 N5 P5 T5 U5 V5 W5 X5 Y5 Z5".split()  # noqa: SIM905
)

# The eight symmetries of the square written out by hand, independent of TRANSFORMS, in its
# documented order: identity, three quarter turns, then the four reflections.
_MY_MAPS = (
    lambda r, c: (r, c),
    lambda r, c: (-c, r),
    lambda r, c: (-r, -c),
    lambda r, c: (c, -r),
    lambda r, c: (r, -c),
    lambda r, c: (-r, c),
    lambda r, c: (c, r),
    lambda r, c: (-c, -r),
)


def _norm(cells) -> Cells:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _my_orientations(cells, one_sided: bool = False) -> set[Cells]:
    maps = _MY_MAPS[:4] if one_sided else _MY_MAPS
    return {_norm(f(r, c) for r, c in cells) for f in maps}


def _neighbours(r: int, c: int):
    return ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))


def _grow_fixed(n: int) -> set[Cells]:
    """Every fixed polyomino of size n, by adding one neighbour cell at a time."""
    shapes: set[Cells] = {frozenset({(0, 0)})}
    for _ in range(n - 1):
        shapes = {
            _norm(s | {nb})
            for s in shapes
            for cell in s
            for nb in _neighbours(*cell)
            if nb not in s
        }
    return shapes


def _connected(cells: Cells) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for nb in _neighbours(*todo.pop()):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


@st.composite
def polyominoes(draw, min_size: int = 1, max_size: int = 10) -> Polyomino:
    """A random connected polyomino, grown from one cell by adding frontier cells."""
    n = draw(st.integers(min_size, max_size))
    cells = [(0, 0)]
    present = {(0, 0)}
    for _ in range(n - 1):
        frontier = sorted({nb for cell in cells for nb in _neighbours(*cell)} - present)
        nb = frontier[draw(st.integers(0, len(frontier) - 1))]
        cells.append(nb)
        present.add(nb)
    return Polyomino(tuple(cells))


# -- known polyomino counts ------------------------------------------------------------------
@pytest.mark.parametrize("n", sorted(FIXED_COUNTS))
def test_grown_fixed_polyominoes_match_known_counts(n):
    # Guards the independent generator the other count tests rely on.
    shapes = _grow_fixed(n)
    assert len(shapes) == FIXED_COUNTS[n]
    assert all(len(s) == n and _connected(s) for s in shapes)


@pytest.mark.parametrize("n", sorted(FIXED_COUNTS))
def test_orientations_of_free_shapes_cover_exactly_the_fixed_polyominoes(n):
    fixed = _grow_fixed(n)
    free = {Polyomino(tuple(s)).canonical() for s in fixed}
    assert len(free) == FREE_COUNTS[n]
    assert sum(len(p.orientations()) for p in free) == FIXED_COUNTS[n]
    covered = [frozenset(o.cells) for p in free for o in p.orientations()]
    assert len(covered) == len(set(covered))
    assert set(covered) == fixed


@pytest.mark.parametrize("n", sorted(FIXED_COUNTS))
def test_one_sided_orientations_count_one_sided_polyominoes(n):
    fixed = _grow_fixed(n)
    free = {Polyomino(tuple(s)).canonical() for s in fixed}
    one_sided = {Polyomino(tuple(s)).canonical_one_sided() for s in fixed}
    assert len(one_sided) == ONE_SIDED_COUNTS[n]
    # Each free piece splits into 1 or 2 one-sided pieces, each with its own rotations.
    total = sum(len(p.orientations(one_sided=True)) for p in one_sided)
    assert total == FIXED_COUNTS[n]
    # A free piece is one or two one-sided pieces: two exactly when it has no mirror symmetry.
    chiral = [p for p in free if not any(k >= 4 for k in p.stabilizer())]
    assert len(one_sided) == len(free) + len(chiral)


# -- named piece sets ------------------------------------------------------------------------
def test_blokus_set_has_21_distinct_pieces_91_orientations_89_squares():
    pieces = piece_set("blokus")
    assert [p.name for p in pieces] == BLOKUS_NAMES
    assert len(pieces) == 21
    assert len({p.canonical() for p in pieces}) == 21
    assert sum(len(p.orientations()) for p in pieces) == 91
    assert sum(p.size for p in pieces) == 89


def test_blokus_set_is_every_free_polyomino_of_size_one_to_five():
    grown = {Polyomino(tuple(s)).canonical() for n in range(1, 6) for s in _grow_fixed(n)}
    assert {p.canonical() for p in piece_set("blokus")} == grown


def test_cityblocks_set_is_blokus_without_the_monomino():
    pieces = piece_set("cityblocks")
    assert len(pieces) == 20
    assert sum(p.size for p in pieces) == 88
    assert [p.name for p in pieces] == [n for n in BLOKUS_NAMES if n != "I1"]


@pytest.mark.parametrize(
    ("name", "size", "count", "names"),
    [
        ("tetrominoes", 4, 5, "I4 O4 T4 L4 Z4"),
        ("pentominoes", 5, 12, "F5 I5 L5 N5 P5 T5 U5 V5 W5 X5 Y5 Z5"),
    ],
)
def test_tetromino_and_pentomino_sets_are_all_free_shapes_of_their_size(name, size, count, names):
    pieces = piece_set(name)
    assert len(pieces) == count
    assert [p.name for p in pieces] == names.split()
    grown = {Polyomino(tuple(s)).canonical() for s in _grow_fixed(size)}
    assert {p.canonical() for p in pieces} == grown


@pytest.mark.parametrize("name", ["BLOKUS", " Pentominoes ", "TetrominoeS"])
def test_piece_set_names_are_case_and_space_insensitive(name):
    assert piece_set(name) == piece_set(name.strip().lower())


def test_piece_set_descriptions_name_every_set():
    assert set(PIECE_SETS) == {"blokus", "cityblocks", "tetrominoes", "pentominoes",
                               "hexiamonds", "tetrahexes", "pentahexes", "soma",
                               "solid-pentominoes", "pentacubes"}  # fmt: skip
    for name in PIECE_SETS:
        assert piece_set(name)


def test_unknown_piece_set_raises_listing_known_sets():
    with pytest.raises(UnknownNameError) as info:
        piece_set("hexominoes")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.kind == "piece set"
    assert err.name == "hexominoes"
    assert err.known == tuple(sorted(PIECE_SETS))
    message = str(err)
    assert "hexominoes" in message
    for known in PIECE_SETS:
        assert known in message


@pytest.mark.parametrize("name", ["f5", "F5", " f5 ", "F5\n"])
def test_piece_lookup_is_case_insensitive(name):
    p = piece(name)
    assert p.name == "F5"
    assert p == Polyomino.from_text(".##\n##.\n.#.")


def test_unknown_piece_raises_listing_every_known_piece():
    with pytest.raises(UnknownNameError) as info:
        piece("Q9")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.known == tuple(BLOKUS_NAMES)
    message = str(err)
    assert "'Q9'" in message
    for known in BLOKUS_NAMES:
        assert known in message


# -- symmetry group --------------------------------------------------------------------------
_POINTS = [(0, 0), (1, 0), (0, 1), (2, 3), (-5, 7), (4, -1)]


def test_transforms_match_the_hand_written_symmetries():
    for k, f in enumerate(_MY_MAPS):
        for r, c in _POINTS:
            assert apply_transform(k, r, c) == f(r, c), (k, transform_name(k))


def test_transforms_are_eight_distinct_orthogonal_matrices_rotations_first():
    assert len(set(TRANSFORMS)) == 8
    for k, (a, b, d, e) in enumerate(TRANSFORMS):
        det = a * e - b * d
        # Rotations (0-3) keep orientation, reflections (4-7) reverse it.
        assert det == (1 if k < 4 else -1)
        assert a * a + b * b == 1 and d * d + e * e == 1 and a * d + b * e == 0


def test_transform_names_are_distinct_and_identity_first():
    names = [transform_name(k) for k in range(8)]
    assert len(set(names)) == 8
    assert names[0] == "id"


def test_compose_means_first_k_then_j():
    for j, k in itertools.product(range(8), repeat=2):
        jk = compose_transforms(j, k)
        for r, c in _POINTS:
            assert apply_transform(jk, r, c) == apply_transform(j, *apply_transform(k, r, c))


def test_compose_has_identity_and_is_closed_with_latin_square_table():
    for k in range(8):
        assert compose_transforms(0, k) == k
        assert compose_transforms(k, 0) == k
    table = [[compose_transforms(j, k) for k in range(8)] for j in range(8)]
    for row in table:
        assert sorted(row) == list(range(8))
    for col in zip(*table, strict=True):
        assert sorted(col) == list(range(8))


def test_compose_is_associative():
    for i, j, k in itertools.product(range(8), repeat=3):
        left = compose_transforms(compose_transforms(i, j), k)
        right = compose_transforms(i, compose_transforms(j, k))
        assert left == right


def test_compose_is_not_commutative():
    # The dihedral group of the square is non-abelian: rot90 and a mirror do not commute.
    assert compose_transforms(1, 4) != compose_transforms(4, 1)


def test_invert_gives_two_sided_inverse():
    for k in range(8):
        inv = invert_transform(k)
        assert compose_transforms(inv, k) == 0
        assert compose_transforms(k, inv) == 0
        for r, c in _POINTS:
            assert apply_transform(inv, *apply_transform(k, r, c)) == (r, c)
    # Only the quarter turns are not their own inverse.
    assert {k for k in range(8) if invert_transform(k) != k} == {1, 3}


def test_rotations_form_a_subgroup():
    for j, k in itertools.product(range(4), repeat=2):
        assert compose_transforms(j, k) in range(4)


# -- polyomino symmetry properties -----------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(polyominoes())
def test_canonical_is_invariant_under_all_eight_transforms(p):
    canon = p.canonical()
    for k in range(8):
        assert p.transform(k).canonical() == canon


@settings(max_examples=150, deadline=None)
@given(polyominoes())
def test_canonical_is_the_least_orientation(p):
    mine = _my_orientations(p.cells)
    assert frozenset(p.canonical().cells) in mine
    assert p.canonical().cells == min(tuple(sorted(o)) for o in mine)


@settings(max_examples=100, deadline=None)
@given(polyominoes(max_size=7), polyominoes(max_size=7))
def test_canonical_equal_iff_same_free_shape(p, q):
    same = frozenset(q.cells) in _my_orientations(p.cells)
    assert (p.canonical() == q.canonical()) == same
    same_one_sided = frozenset(q.cells) in _my_orientations(p.cells, one_sided=True)
    assert (p.canonical_one_sided() == q.canonical_one_sided()) == same_one_sided


@settings(max_examples=150, deadline=None)
@given(polyominoes())
def test_orientations_are_the_distinct_images(p):
    free = p.orientations()
    assert {frozenset(o.cells) for o in free} == _my_orientations(p.cells)
    assert len(free) == len(set(free))
    assert len(free) in (1, 2, 4, 8)
    assert len(free) * len(p.stabilizer()) == 8
    one_sided = p.orientations(one_sided=True)
    assert {frozenset(o.cells) for o in one_sided} == _my_orientations(p.cells, one_sided=True)
    assert len(one_sided) == len(set(one_sided))


@settings(max_examples=100, deadline=None)
@given(polyominoes())
def test_oriented_pairs_each_shape_with_the_first_transform_producing_it(p):
    pairs = p.oriented()
    assert pairs[0] == (0, p)
    for k, shape in pairs:
        assert p.transform(k) == shape
        assert all(p.transform(j) != shape for j in range(k))
    assert [k for k, _ in pairs] == sorted(k for k, _ in pairs)


@settings(max_examples=100, deadline=None)
@given(polyominoes())
def test_stabilizer_is_a_subgroup_fixing_the_shape(p):
    stab = set(p.stabilizer())
    assert 0 in stab
    for j, k in itertools.product(stab, repeat=2):
        assert compose_transforms(j, k) in stab
    for k in range(8):
        assert (k in stab) == (_norm(_MY_MAPS[k](r, c) for r, c in p.cells) == set(p.cells))


@settings(max_examples=100, deadline=None)
@given(polyominoes(), st.integers(0, 7), st.integers(0, 7))
def test_transform_of_transform_is_the_composed_transform(p, j, k):
    assert p.transform(k).transform(j) == p.transform(compose_transforms(j, k))
    assert p.transform(k).transform(invert_transform(k)) == p


@pytest.mark.parametrize(
    ("name", "free", "one_sided"),
    [
        ("I1", 1, 1),
        ("I2", 2, 2),
        ("V3", 4, 4),
        ("O4", 1, 1),
        ("T4", 4, 4),
        ("L4", 8, 4),
        ("Z4", 4, 2),
        ("F5", 8, 4),
        ("I5", 2, 2),
        ("X5", 1, 1),
        ("N5", 8, 4),
        ("W5", 4, 4),
        ("U5", 4, 4),
    ],
)
def test_one_sided_orientations_are_the_rotations_only(name, free, one_sided):
    p = piece(name)
    assert len(p.orientations()) == free
    rotations = p.orientations(one_sided=True)
    assert len(rotations) == one_sided
    assert set(rotations) == {p.transform(k) for k in range(4)}
    assert all(k < 4 for k, _ in p.oriented(one_sided=True))


def test_chiral_piece_has_a_mirror_image_that_is_not_a_rotation():
    l4 = piece("L4")
    mirror = l4.transform(4)
    assert mirror.canonical() == l4.canonical()
    assert mirror.canonical_one_sided() != l4.canonical_one_sided()
    assert mirror not in l4.orientations(one_sided=True)


@settings(max_examples=100, deadline=None)
@given(polyominoes())
def test_orientations_keep_the_piece_name_of_a_fresh_shape(p):
    named = p.named("fresh-name")
    assert named == p  # the name is not part of the value
    assert named.transform(3).name == "fresh-name"
    assert named.canonical().name == "fresh-name"


def test_orientations_keep_the_name_of_an_equal_shape_with_another_name():
    l4 = piece("L4")
    assert {o.name for o in l4.orientations()} == {"L4"}
    mine = Polyomino(l4.cells, "mine")
    assert {o.name for o in mine.orientations()} == {"mine"}


# -- value semantics -------------------------------------------------------------------------
def test_cells_are_normalized_and_sorted():
    p = Polyomino(((5, 3), (4, 3), (4, 4)))
    assert p.cells == ((0, 0), (0, 1), (1, 0))
    assert (p.size, p.height, p.width, len(p)) == (3, 2, 2, 3)


def test_equality_ignores_name_but_not_orientation():
    assert piece("T4") == Polyomino.from_text("###\n.#.")
    assert hash(piece("T4")) == hash(Polyomino.from_text("###\n.#."))
    assert piece("T4") != piece("T4").transform(1)
    assert piece("T4").named("other").name == "other"


# -- text ------------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(polyominoes())
def test_text_round_trip(p):
    text = p.to_text()
    lines = text.split("\n")
    assert len(lines) == p.height
    assert all(len(line) == p.width for line in lines)
    assert text.count("#") == p.size
    assert Polyomino.from_text(text) == p
    assert Polyomino.from_text(lines) == p
    assert Polyomino.from_text(text).to_text() == text


@settings(max_examples=60, deadline=None)
@given(polyominoes(), st.sampled_from("#XBo@"), st.sampled_from(". "))
def test_text_round_trip_with_other_characters(p, full, empty):
    assert Polyomino.from_text(p.to_text(full=full, empty=empty)) == p


@settings(max_examples=60, deadline=None)
@given(
    polyominoes(),
    st.lists(st.sampled_from(["", "  ", "\t", "...", ". ."]), max_size=3),
    st.lists(st.sampled_from(["", "  ", "\t", "...", ". ."]), max_size=3),
    st.integers(0, 3),
)
def test_from_text_ignores_surrounding_blank_lines_and_margins(p, before, after, indent):
    body = ["." * indent + line for line in p.to_text().split("\n")]
    text = "\n".join([*before, *body, *after])
    assert Polyomino.from_text(text) == p


def test_from_text_reads_triple_quoted_art():
    t = Polyomino.from_text(
        """

        ###
        .#.

        """,
        name="T",
    )
    assert t.cells == ((0, 0), (0, 1), (0, 2), (1, 1))
    assert t.name == "T"


def test_from_text_treats_spaces_as_gaps():
    assert Polyomino.from_text(" #\n##") == piece("V3").transform(4)


@pytest.mark.parametrize("text", ["", "\n\n", "   \n  ", "...\n...", ["", "."]])
def test_from_text_without_cells_raises_shape_error(text):
    with pytest.raises(ShapeError):
        Polyomino.from_text(text)


@pytest.mark.parametrize("text", ["#.#", "#.\n.#", "##\n..\n##", "#\n\n#"])
def test_from_text_with_disconnected_cells_raises_shape_error(text):
    with pytest.raises(ShapeError, match="not edge-connected"):
        Polyomino.from_text(text)


def test_empty_cells_raise_shape_error_which_is_a_value_error():
    with pytest.raises(ValueError, match="at least one cell") as info:
        Polyomino(())
    assert isinstance(info.value, ShapeError)


def test_repeated_cells_raise_shape_error():
    with pytest.raises(ShapeError, match="repeated"):
        Polyomino(((0, 0), (0, 1), (0, 0)))


def test_diagonal_neighbours_are_not_connected():
    with pytest.raises(ShapeError):
        Polyomino(((0, 0), (1, 1)))


# -- piece files -----------------------------------------------------------------------------
GOOD_FILE = """\
; a comment before the first block
A
##

; comment between blocks
B
#.
##
; comment inside a block is skipped

C
###
"""


def test_read_piece_file_reads_named_blocks_and_skips_comments():
    pieces = read_piece_file(GOOD_FILE, "good.txt")
    assert [p.name for p in pieces] == ["A", "B", "C"]
    assert pieces[0] == Polyomino(((0, 0), (0, 1)))
    assert pieces[1] == Polyomino(((0, 0), (1, 0), (1, 1)))
    assert pieces[2].cells == ((0, 0), (0, 1), (0, 2))


def test_read_piece_file_needs_no_trailing_blank_line():
    pieces = read_piece_file("A\n#\n\nB\n##")
    assert [p.name for p in pieces] == ["A", "B"]


def test_read_piece_file_of_empty_text_has_no_pieces():
    assert read_piece_file("") == ()
    assert read_piece_file("; only a comment\n\n") == ()


def _format_error(text: str, source: str = "mine.txt") -> FormatError:
    with pytest.raises(FormatError) as info:
        read_piece_file(text, source)
    assert isinstance(info.value, ValueError)
    return info.value


def test_read_piece_file_repeated_name_names_source_and_line():
    err = _format_error("A\n#\n\nB\n##\n\nA\n###\n")
    assert err.source == "mine.txt"
    assert err.where == "line 7"
    assert "repeated" in err.message and "'A'" in err.message
    assert str(err).startswith("mine.txt: line 7: ")


def test_read_piece_file_block_without_rows_names_source_and_line():
    err = _format_error("A\n#\n\n\nLONELY\n\nC\n#\n", "other.txt")
    assert err.source == "other.txt"
    assert err.where == "line 5"
    assert "LONELY" in str(err)
    assert "other.txt" in str(err) and "line 5" in str(err)


def test_read_piece_file_bad_shape_names_source_and_line():
    err = _format_error("; header\nA\n##\n\nBAD\n#.#\n")
    assert err.where == "line 5"
    assert "mine.txt: line 5" in str(err)
    assert isinstance(err.__cause__, ShapeError)


def test_read_piece_file_default_source_is_string():
    err = _format_error("A\n", source="<string>")
    assert str(err).startswith("<string>: line 1: ")

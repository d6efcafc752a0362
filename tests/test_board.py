"""Tests of polytile.board: boards, their symmetries, and placement enumeration.

Placements are checked against a brute-force generator written here: its own orientations
(by rotating and reflecting cells by hand) and every translation over a generous range,
including negative offsets, so it cannot share the library's anchoring mistakes.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.board import MAX_SIDE, Board, placements
from polytile.errors import BoardError
from polytile.geometry import Polyomino, compose_transforms, piece, piece_set

BLOKUS = piece_set("blokus")

# Hand-written symmetries of the square, in the documented TRANSFORMS order.
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


def _norm(cells) -> frozenset[tuple[int, int]]:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _my_orientations(cells, one_sided: bool = False) -> set[frozenset[tuple[int, int]]]:
    maps = _MY_MAPS[:4] if one_sided else _MY_MAPS
    return {_norm(f(r, c) for r, c in cells) for f in maps}


def _brute_placements(board: Board, pieces, one_sided: bool = False) -> Counter:
    """Multiset of (piece index, frozenset of covered cells), by sliding over every offset."""
    open_cells = {
        (r, c) for r in range(board.rows) for c in range(board.cols) if (r, c) not in board.blocked
    }
    found: Counter = Counter()
    for pi, p in enumerate(pieces):
        for shape in _my_orientations(p.cells, one_sided):
            span = max(max(r, c) for r, c in shape) + 2
            for dr in range(-span, board.rows + span):
                for dc in range(-span, board.cols + span):
                    placed = frozenset((r + dr, c + dc) for r, c in shape)
                    if placed <= open_cells:
                        found[pi, placed] += 1
    return found


def _library_placements(board: Board, pieces, one_sided: bool = False) -> Counter:
    pl = placements(board, pieces, one_sided=one_sided)
    return Counter((int(pl.piece[i]), frozenset(pl.coords_of(i))) for i in range(len(pl)))


@st.composite
def boards(draw, max_side: int = 6) -> Board:
    """A board up to max_side x max_side with a random mask of blocked cells."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    all_cells = [(r, c) for r in range(rows) for c in range(cols)]
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.5]))
    flags = draw(
        st.lists(
            st.floats(0, 1, exclude_max=True), min_size=len(all_cells), max_size=len(all_cells)
        )
    )
    blocked = frozenset(cell for cell, f in zip(all_cells, flags, strict=True) if f < density)
    return Board(rows, cols, blocked)


def _independent_symmetries(board: Board) -> set[int]:
    """Symmetries found by mapping every cell by hand and normalizing into the rectangle."""
    cells = [(r, c) for r in range(board.rows) for c in range(board.cols)]
    result = set()
    for k, f in enumerate(_MY_MAPS):
        images = [f(r, c) for r, c in cells]
        r0 = min(r for r, _ in images)
        c0 = min(c for _, c in images)
        moved = {cell: (r - r0, c - c0) for cell, (r, c) in zip(cells, images, strict=True)}
        if set(moved.values()) != set(cells):
            continue
        if {moved[cell] for cell in board.blocked} == set(board.blocked):
            result.add(k)
    return result


# -- construction ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "rows", "cols"),
    [("8x10", 8, 10), ("8X10", 8, 10), (" 8 x 10 ", 8, 10), ("1x1", 1, 1), ("200x3", 200, 3)],
)
def test_parse_size_reads_rows_then_columns(text, rows, cols):
    b = Board.parse_size(text)
    assert (b.rows, b.cols) == (rows, cols)
    assert b.blocked == frozenset()
    assert b.n_open == rows * cols


@pytest.mark.parametrize(
    ("text", "mentions"),
    [
        ("8x", "8x10"),
        ("x8", "8x10"),
        ("axb", "'axb'"),
        ("", "8x10"),
        ("8x10x2", "8x10x2"),
        ("8*10", "8*10"),
        ("-1x5", "-1x5"),
        ("0x5", "rows"),
        ("5x0", "cols"),
        ("10x1000", "cols"),
        ("201x1", "rows"),
    ],
)
def test_parse_size_rejects_bad_sizes_with_a_message(text, mentions):
    with pytest.raises(BoardError) as info:
        Board.parse_size(text)
    assert isinstance(info.value, ValueError)
    assert mentions in str(info.value)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789xX -+.a"), max_size=8))
def test_parse_size_returns_a_board_or_raises_board_error(text):
    try:
        b = Board.parse_size(text)
    except BoardError:
        return
    assert 1 <= b.rows <= MAX_SIDE and 1 <= b.cols <= MAX_SIDE


def test_parse_size_with_superscript_digit_raises_board_error():
    with pytest.raises(BoardError):
        Board.parse_size("²x3")


@pytest.mark.parametrize(
    ("rows", "cols"), [(0, 5), (5, 0), (-1, 3), (MAX_SIDE + 1, 1), (2.5, 3), ("3", 3)]
)
def test_out_of_range_or_non_integer_size_raises(rows, cols):
    with pytest.raises(BoardError, match="must be an integer"):
        Board(rows, cols)


def test_numpy_integer_sizes_are_accepted():
    b = Board(np.int64(3), np.int32(4))
    assert b.size == 12


@pytest.mark.parametrize("cell", [(3, 0), (0, 4), (-1, 0), (0, -1), (10, 10)])
def test_blocked_cell_outside_the_board_raises(cell):
    with pytest.raises(BoardError, match="outside the 3x4 board") as info:
        Board(3, 4, frozenset({cell}))
    assert f"({cell[0]}, {cell[1]})" in str(info.value)


def test_from_text_reads_blocked_cells():
    b = Board.from_text(["#..", "...", ".##", "..."])
    assert (b.rows, b.cols) == (4, 3)
    assert b.blocked == {(0, 0), (2, 1), (2, 2)}
    assert b.n_open == 9
    assert b.is_open(0, 1) and not b.is_open(0, 0) and not b.is_open(4, 0)


def test_from_text_accepts_one_string_and_other_blocked_chars():
    b = Board.from_text("x.\n.o", blocked_chars="xo")
    assert b.blocked == {(0, 0), (1, 1)}


@pytest.mark.parametrize(
    ("rows", "bad_row"),
    [(["...", "..", "..."], 1), (["..", "..", "..."], 2), (["....", "..."], 1)],
)
def test_from_text_with_unequal_rows_names_the_row(rows, bad_row):
    with pytest.raises(BoardError, match=f"row {bad_row} has"):
        Board.from_text(rows)


@pytest.mark.parametrize("rows", [[], "", [""], "   "])
def test_from_text_without_cells_raises(rows):
    with pytest.raises(BoardError, match="at least one row"):
        Board.from_text(rows)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_text_round_trip(board):
    text = board.to_text()
    assert len(text) == board.rows
    assert sum(row.count("#") for row in text) == len(board.blocked)
    assert Board.from_text(text) == board


def test_flat_index_and_cell_are_inverse():
    b = Board(3, 5)
    for r, c in itertools.product(range(3), range(5)):
        assert b.index(r, c) == r * 5 + c
        assert b.cell(b.index(r, c)) == (r, c)


def test_contains_only_cells_inside_the_rectangle():
    b = Board(2, 3, frozenset({(1, 1)}))
    assert (1, 1) in b and (0, 2) in b
    assert (2, 0) not in b and (0, 3) not in b and (-1, 0) not in b
    assert "ab" not in b and (0, 0, 0) not in b


# -- symmetry --------------------------------------------------------------------------------
def _centre_blocked_8x8() -> Board:
    return Board(8, 8, frozenset({(3, 3), (3, 4), (4, 3), (4, 4)}))


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        (Board(5, 5), {0, 1, 2, 3, 4, 5, 6, 7}),
        (Board(1, 1), {0, 1, 2, 3, 4, 5, 6, 7}),
        (Board(3, 7), {0, 2, 4, 5}),
        (Board(1, 4), {0, 2, 4, 5}),
        (_centre_blocked_8x8(), {0, 1, 2, 3, 4, 5, 6, 7}),
        (Board(6, 6, frozenset({(0, 0)})), {0, 6}),
        (Board(6, 6, frozenset({(0, 5)})), {0, 7}),
        (Board(4, 6, frozenset({(0, 0)})), {0}),
        (Board(4, 6, frozenset({(0, 0), (3, 5)})), {0, 2}),
        (Board(4, 6, frozenset({(0, 0), (0, 5)})), {0, 4}),
        (Board(3, 3, frozenset({(1, 1)})), {0, 1, 2, 3, 4, 5, 6, 7}),
        (Board(4, 4, frozenset({(0, 1), (1, 3), (3, 2), (2, 0)})), {0, 1, 2, 3}),
    ],
)
def test_symmetries_of_known_boards(board, expected):
    assert set(board.symmetries()) == expected
    assert set(board.symmetries()) == _independent_symmetries(board)


@settings(max_examples=100, deadline=None)
@given(boards(max_side=6))
def test_symmetries_agree_with_independent_computation(board):
    syms = board.symmetries()
    assert list(syms) == sorted(syms)
    assert set(syms) == _independent_symmetries(board)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.data())
def test_symmetric_masks_have_the_symmetries_they_were_built_with(n, data):
    # Symmetrize a random mask under a subgroup: every symmetry in the subgroup must be found.
    k = data.draw(st.integers(0, 7))
    group = {0}
    while True:
        bigger = group | {compose_transforms(a, b) for a in group | {k} for b in group | {k}}
        if bigger == group:
            break
        group = bigger
    seed = data.draw(st.frozensets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
    plain = Board(n, n)
    blocked = frozenset(plain.map_cell(g, r, c) for g in group for r, c in seed)
    assert group <= set(Board(n, n, blocked).symmetries())


@pytest.mark.parametrize("rows,cols", [(3, 3), (4, 6), (5, 2), (1, 7)])
def test_map_cell_is_the_transform_moved_back_into_the_rectangle(rows, cols):
    b = Board(rows, cols)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for k, f in enumerate(_MY_MAPS):
        images = [b.map_cell(k, r, c) for r, c in cells]
        # A pure translation away from the linear map ...
        linear = [f(r, c) for r, c in cells]
        shifts = {(mr - fr, mc - fc) for (mr, mc), (fr, fc) in zip(images, linear, strict=True)}
        assert len(shifts) == 1
        # ... onto the rectangle, transposed when the symmetry swaps the axes.
        h, w = (cols, rows) if k in (1, 3, 6, 7) else (rows, cols)
        assert set(images) == {(r, c) for r in range(h) for c in range(w)}


@settings(max_examples=60, deadline=None)
@given(boards(max_side=6))
def test_map_cell_keeps_every_cell_inside_for_allowed_symmetries(board):
    for k in board.symmetries():
        images = {board.map_cell(k, r, c) for r in range(board.rows) for c in range(board.cols)}
        assert len(images) == board.size
        assert all(cell in board for cell in images)
        assert {board.map_cell(k, r, c) for r, c in board.blocked} == board.blocked


@settings(max_examples=60, deadline=None)
@given(boards(max_side=6))
def test_cell_permutation_is_a_permutation_mapping_blocked_to_blocked(board):
    blocked = {board.index(r, c) for r, c in board.blocked}
    for k in board.symmetries():
        perm = board.cell_permutation(k)
        assert perm.dtype == np.int32
        assert sorted(perm.tolist()) == list(range(board.size))
        assert {int(perm[i]) for i in blocked} == blocked
        for r, c in itertools.product(range(board.rows), range(board.cols)):
            assert board.cell(perm[board.index(r, c)]) == board.map_cell(k, r, c)
    if 0 in board.symmetries():
        assert board.cell_permutation(0).tolist() == list(range(board.size))


@pytest.mark.parametrize("n", [1, 2, 5])
def test_cell_permutations_compose_like_the_transforms(n):
    b = Board(n, n)
    perms = [b.cell_permutation(k) for k in range(8)]
    for j, k in itertools.product(range(8), repeat=2):
        # "first k, then j": cell i goes to perm_k[i], then to perm_j[perm_k[i]].
        assert perms[j][perms[k]].tolist() == perms[compose_transforms(j, k)].tolist()


@pytest.mark.parametrize(
    ("board", "k"), [(Board(3, 4), 1), (Board(3, 4), 6), (Board(3, 3, frozenset({(0, 0)})), 2)]
)
def test_cell_permutation_of_a_non_symmetry_raises(board, k):
    with pytest.raises(BoardError, match=f"symmetry {k}"):
        board.cell_permutation(k)


# -- placements against brute force ----------------------------------------------------------
HOLEY_BOARDS = [
    Board.from_text(["#....", ".....", "..#..", ".....", "....#"]),
    Board.from_text(["#.#.#.", "......", ".#..#.", "......", "#.##.#"]),
    Board.from_text(["###...", "##....", "#.....", "......"]),
    Board.from_text([".#.", "...", ".#.", "...", "#.#"]),
    Board.from_text(["....", ".##.", ".##.", "...."]),
    Board.from_text(["#"]),
    Board.from_text(["."]),
    Board.from_text(["......."]),
    Board(7, 3, frozenset({(0, 0), (3, 1), (6, 2)})),
]


@pytest.mark.parametrize("board", HOLEY_BOARDS, ids=repr)
def test_blokus_placements_on_holey_boards_match_brute_force(board):
    assert _library_placements(board, BLOKUS) == _brute_placements(board, BLOKUS)


@pytest.mark.parametrize("board", HOLEY_BOARDS[:4], ids=repr)
def test_one_sided_placements_on_holey_boards_match_brute_force(board):
    got = _library_placements(board, BLOKUS, one_sided=True)
    assert got == _brute_placements(board, BLOKUS, one_sided=True)


@settings(max_examples=60, deadline=None)
@given(boards(max_side=6), st.lists(st.sampled_from(range(len(BLOKUS))), min_size=1, max_size=6))
def test_placements_on_random_masks_match_brute_force(board, indices):
    pieces = [BLOKUS[i] for i in indices]
    assert _library_placements(board, pieces) == _brute_placements(board, pieces)


@settings(max_examples=25, deadline=None)
@given(boards(max_side=6), st.lists(st.sampled_from(range(len(BLOKUS))), min_size=1, max_size=4))
def test_one_sided_placements_on_random_masks_match_brute_force(board, indices):
    pieces = [BLOKUS[i] for i in indices]
    got = _library_placements(board, pieces, one_sided=True)
    assert got == _brute_placements(board, pieces, one_sided=True)


@pytest.mark.parametrize(
    ("rows", "name", "count"),
    [
        ([".#.", "...", ".#."], "X5", 0),
        (["#..", "...", "..."], "X5", 1),
        (["#..", "...", "..#"], "X5", 1),
        (["#.", ".."], "V3", 1),
        (["#..", "..."], "V3", 5),
        (["#...", "....", "...."], "T5", 6),
    ],
)
def test_placements_whose_bounding_box_corner_is_blocked_are_found(rows, name, count):
    # The classic bug: anchoring a shape's bounding box only at open cells loses these.
    board = Board.from_text(rows)
    p = piece(name)
    pl = placements(board, [p])
    assert len(pl) == count
    assert _library_placements(board, [p]) == _brute_placements(board, [p])
    for i in range(len(pl)):
        assert all(board.is_open(r, c) for r, c in pl.coords_of(i))


def test_x5_fills_the_cross_around_a_blocked_corner():
    board = Board.from_text(["#..", "...", "..."])
    pl = placements(board, [piece("X5")])
    assert sorted(pl.coords_of(0)) == [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]
    # Its bounding box's top-left corner is the blocked cell.
    assert (int(pl.row[0]), int(pl.col[0])) == (0, 0)


def test_blokus_on_20x20_has_30433_placements():
    board = Board(20, 20)
    brute = _brute_placements(board, BLOKUS)
    assert sum(brute.values()) == 30433
    pl = placements(board, BLOKUS)
    assert len(pl) == 30433
    assert _library_placements(board, BLOKUS) == brute


def test_blokus_per_piece_counts_on_20x20_follow_from_bounding_boxes():
    pl = placements(Board(20, 20), BLOKUS)
    for pi, p in enumerate(BLOKUS):
        expected = sum((21 - o.height) * (21 - o.width) for o in p.orientations())
        assert len(pl.of_piece(pi)) == expected, p.name


# -- placement arrays ------------------------------------------------------------------------
def _sample_placements():
    board = Board.from_text(
        [
            "#........#..",
            "............",
            "...##.......",
            "............",
            "......#.....",
            "............",
            "..........#.",
            "............",
            "#..........#",
        ]
    )  # 9 x 12 = 108 cells: two 64-bit words
    return placements(board, BLOKUS)


def test_masks_have_bit_j_of_word_j_div_64_set_iff_cell_j_covered():
    pl = _sample_placements()
    size = pl.board.size
    assert pl.words == (size + 63) // 64 == 2
    assert pl.masks.dtype == np.uint64
    bits = np.unpackbits(pl.masks.view(np.uint8), axis=1, bitorder="little")
    assert bits.shape == (len(pl), 64 * pl.words)
    for i in range(len(pl)):
        covered = np.zeros(64 * pl.words, dtype=np.uint8)
        covered[pl.cells_of(i)] = 1
        assert np.array_equal(bits[i], covered), i
    # Beyond the board no bit is ever set.
    assert not bits[:, size:].any()


def test_masks_as_integers_match_cells():
    pl = placements(Board(8, 8), [piece("I5"), piece("O4")])  # exactly one word
    assert pl.words == 1
    for i in range(len(pl)):
        assert int(pl.masks[i, 0]) == sum(1 << int(j) for j in pl.cells_of(i))


def test_csr_agrees_with_cells_of():
    pl = _sample_placements()
    flat, ptr = pl.csr()
    assert flat.dtype == np.int32 and ptr.dtype == np.int64
    assert ptr.shape == (len(pl) + 1,)
    assert ptr[0] == 0 and ptr[-1] == flat.shape[0] == int(pl.size.sum())
    for i in range(len(pl)):
        assert flat[ptr[i] : ptr[i + 1]].tolist() == pl.cells_of(i).tolist()


def test_coords_and_fields_describe_each_placement():
    pl = _sample_placements()
    board = pl.board
    assert pl.cells.shape == (len(pl), 5)
    for i in range(len(pl)):
        p = pl.pieces[pl.piece[i]]
        k = int(pl.transform[i])
        assert p.oriented()[pl.orientation[i]][0] == k
        assert pl.size[i] == p.size
        assert (pl.cells[i, p.size :] == -1).all()
        coords = pl.coords_of(i)
        assert coords == [divmod(int(j), board.cols) for j in pl.cells_of(i)]
        shape = p.transform(k)
        expected = {(pl.row[i] + r, pl.col[i] + c) for r, c in shape.cells}
        assert set(coords) == expected
        assert len(set(coords)) == p.size
        assert all(board.is_open(r, c) for r, c in coords)


def test_placements_are_grouped_by_piece_orientation_then_reading_order():
    pl = _sample_placements()
    keys = list(
        zip(
            pl.piece.tolist(),
            pl.orientation.tolist(),
            pl.row.tolist(),
            pl.col.tolist(),
            strict=True,
        )
    )
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    for p in range(len(BLOKUS)):
        idx = pl.of_piece(p)
        assert idx.tolist() == [i for i in range(len(pl)) if pl.piece[i] == p]


def test_one_sided_placements_use_rotations_only():
    board = Board(6, 6)
    free = placements(board, BLOKUS)
    one = placements(board, BLOKUS, one_sided=True)
    assert set(one.transform.tolist()) <= {0, 1, 2, 3}
    assert set(free.transform.tolist()) & {4, 5, 6, 7}
    assert len(one) < len(free)
    l4 = BLOKUS.index(piece("L4"))
    # L4 has 4 rotations, each fitting the 6x6 board in 5 x 4 positions.
    assert len(one.of_piece(l4)) == 4 * 5 * 4
    assert len(free.of_piece(l4)) == 8 * 5 * 4


def test_repeated_pieces_are_enumerated_once_per_copy():
    board = Board(3, 3, frozenset({(1, 1)}))
    pl = placements(board, [piece("I2"), piece("I2")])
    assert len(pl.of_piece(0)) == len(pl.of_piece(1)) == 8
    assert sorted(map(sorted, (pl.coords_of(i) for i in pl.of_piece(0)))) == sorted(
        map(sorted, (pl.coords_of(i) for i in pl.of_piece(1)))
    )


def test_no_pieces_or_no_room_gives_no_placements():
    assert len(placements(Board(3, 3), [])) == 0
    empty = placements(Board(2, 2), [piece("I5")])
    assert len(empty) == 0
    assert empty.masks.shape == (0, 1)
    flat, ptr = empty.csr()
    assert flat.shape == (0,) and ptr.tolist() == [0]
    full = Board.from_text(["##", "##"])
    assert len(placements(full, [piece("I1")])) == 0


def test_monomino_placements_are_the_open_cells():
    board = Board.from_text(["#..", ".#.", "..#"])
    pl = placements(board, [Polyomino(((0, 0),))])
    assert len(pl) == board.n_open
    assert sorted(tuple(c) for i in range(len(pl)) for c in pl.coords_of(i)) == sorted(
        (r, c) for r in range(3) for c in range(3) if board.is_open(r, c)
    )

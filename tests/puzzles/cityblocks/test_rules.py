"""City Blocks (Ritchie): scoring against hand-worked boards and a reference scorer, the
move generator against brute force, push/pop, passes and the end, positions in and out."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.errors import FormatError, IllegalMoveError, ShapeError, UnknownNameError
from polytile.formats import COLORS, Position, dumps, loads
from polytile.geometry import piece
from polytile.puzzles.cityblocks.rules import (
    CENTRE_CELLS,
    PIECE_NAMES,
    START_CELLS,
    CityBlocks,
    Move,
    check_rows,
    score,
    start_rows,
)

Cell = tuple[int, int]
N = 20
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def board(**cells: Iterable[Cell]) -> list[str]:
    """The start board plus cells given per colour letter (``B=[...]``) or ``X`` (blocked)."""
    grid = [list(row) for row in start_rows()]
    for letter, where in cells.items():
        for r, c in where:
            grid[r][c] = "#" if letter == "X" else letter
    return ["".join(row) for row in grid]


def numbers(rows: Sequence[str], color: str = "blue") -> tuple[int, int, int]:
    s = score(rows).colors[color]
    return s.area, s.free, s.total


# -- scoring: hand-worked boards ---------------------------------------------------------------
def test_start_position_lone_centre_squares_score_area_zero() -> None:
    sheet = score(start_rows())
    for name, s in sheet.colors.items():
        assert (s.area, s.free, s.total) == (0, 2, 2)
        assert s.area_cells == frozenset()
        (r, c) = CENTRE_CELLS[name]
        assert all(edge[0] == (r, c) for edge in s.free_edges)


def test_worked_examples_of_the_rules() -> None:
    i3 = [(0, 0), (0, 1), (0, 2)]
    assert numbers(board(B=i3)) == (3, 6, 9)  # 8.2: 4 free edges plus the centre's 2
    # 8.3: I2 joins the centre square; two regions of 3 tie
    assert numbers(board(B=[*i3, (7, 9), (8, 9)])) == (3, 10, 13)
    # 8.4: O4 standing alone
    o4 = [(2, 2), (2, 3), (3, 2), (3, 3)]
    assert numbers(board(B=i3 + o4)) == (4, 14, 18)
    assert score(board(B=i3 + o4)).colors["blue"].area_cells == frozenset(o4)


def test_border_edges_score_nothing() -> None:
    corner_o4 = [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert numbers(board(B=corner_o4)) == (4, 4 + 2, 10)
    along_side = [(5, 0), (6, 0), (7, 0), (8, 0)]  # I4 on the left border
    assert numbers(board(G=along_side), "green") == (4, 6 + 2, 12)


def test_two_equal_largest_regions_count_once() -> None:
    a = [(3, 3), (3, 4)]
    b = [(15, 15), (16, 15)]
    sheet = score(board(R=b + a))
    red = sheet.colors["red"]
    assert red.area == 2
    assert red.area_cells == frozenset(a)  # ties: the region met first in reading order


def test_same_colour_adjacency_kills_free_edges() -> None:
    apart = board(B=[(3, 3), (3, 4), (6, 3), (6, 4)])
    together = board(B=[(3, 3), (3, 4), (4, 3), (4, 4)])
    assert numbers(apart) == (2, 6 + 6 + 2, 16)
    # the two I2s now share 2 edges: 2 free edges lost on each side
    assert numbers(together) == (4, 8 + 2, 14)


def test_other_colour_and_blocked_cells_kill_free_edges() -> None:
    blue = [(3, 3), (3, 4)]
    assert numbers(board(B=blue)) == (2, 8, 10)
    assert numbers(board(B=blue, Y=[(4, 3), (4, 4)])) == (2, 6, 8)
    assert numbers(board(B=blue, Y=[(4, 3), (4, 4)]), "yellow") == (2, 6, 8)
    assert numbers(board(B=blue, X=[(2, 3)])) == (2, 7, 9)


def test_centre_square_joins_and_counts() -> None:
    # blue I2 above its centre square: one region of 3 cells around (9, 9)
    s = score(board(B=[(7, 9), (8, 9)])).colors["blue"]
    assert s.area == 3 and (9, 9) in s.area_cells
    assert s.free == 6
    # a yellow cell left of the blue centre square takes its left free edge
    assert numbers(board(Y=[(9, 8)])) == (0, 1, 1)


def test_free_edges_are_reported_one_by_one() -> None:
    s = score(board(B=[(0, 0), (0, 1)])).colors["blue"]
    assert set(s.free_edges) == {
        ((0, 0), (1, 0)),
        ((0, 1), (1, 1)),
        ((0, 1), (0, 2)),
        ((9, 9), (8, 9)),
        ((9, 9), (9, 8)),
    }
    assert s.free == len(s.free_edges)


def test_player_totals_and_winners() -> None:
    rows = board(B=[(0, 0), (0, 1)], R=[(19, 19), (19, 18), (19, 17)])
    four = score(rows)
    assert four.player_totals == {"blue": 7, "yellow": 2, "red": 9, "green": 2}
    assert four.winners() == ("red",)
    two = score(rows, players=2)
    assert two.player_totals == {"blue+red": 16, "yellow+green": 4}
    three = score(board(G=[(19, 0), (18, 0), (17, 0)]), players=3)
    assert set(three.player_totals) == {"blue", "yellow", "red"}  # green ignored
    assert three.winners() == ("blue", "yellow", "red")  # a draw
    doc = two.as_dict()
    assert doc["game"] == "cityblocks" and list(doc) == ["game", "colors", "players"]
    assert doc["colors"]["blue"] == {"area": 2, "free": 5, "total": 7}


def test_score_accepts_a_position_of_the_game_only() -> None:
    rows = board(B=[(0, 0), (0, 1)])
    assert score(Position("cityblocks", tuple(rows))).colors["blue"].total == 7
    with pytest.raises(FormatError, match="game 'blokus'"):
        score(Position("blokus", tuple(rows)))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (start_rows()[:19], "19 rows"),
        ([*start_rows()[:3], "." * 19, *start_rows()[4:]], "row 3: has 19 cells"),
        ([*start_rows()[:2], "." * 19 + "x", *start_rows()[3:]], "'x' in column 19"),
        (board(X=[(9, 9)]), r"cell \(9, 9\) holds '#'.*blue's fixed centre square"),
        (board(B=[(r, c) for r in range(5) for c in range(20)]), "blue has 101 cells"),
    ],
)
def test_bad_boards_are_refused_with_the_place(rows: list[str], message: str) -> None:
    with pytest.raises(FormatError, match=message):
        score(rows)
    with pytest.raises(FormatError, match=message):
        check_rows(rows)


def test_bad_player_count() -> None:
    with pytest.raises(ValueError, match="2, 3 or 4"):
        score(start_rows(), players=5)


# -- scoring: against a reference written straight from the rules ------------------------------
def reference_score(rows: Sequence[str], letter: str) -> tuple[int, int, set[Cell]]:
    """(area, free edges, cells of the largest region) by the rules, in plain loops."""
    mine = {(r, c) for r in range(N) for c in range(N) if rows[r][c] == letter}
    regions = []
    left = set(mine)
    while left:
        first = min(left)
        region, todo = {first}, [first]
        while todo:
            r, c = todo.pop()
            for dr, dc in STEPS:
                n = (r + dr, c + dc)
                if n in left and n not in region:
                    region.add(n)
                    todo.append(n)
        left -= region
        regions.append(region)
    regions.sort(key=lambda reg: (-len(reg), min(reg)))
    best = regions[0] if regions and len(regions[0]) >= 2 else set()
    free = 0
    for r, c in mine:
        for dr, dc in STEPS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < N and 0 <= nc < N and rows[nr][nc] == ".":
                free += 1
    return len(best), free, best


def random_board(seed: int, density: float, blocked: float) -> list[str]:
    """Random cells, at most 88 of each colour besides its centre square."""
    rng = random.Random(seed)
    grid = [["." for _ in range(N)] for _ in range(N)]
    room = dict.fromkeys("BYRG", 88)
    for r in range(N):
        for c in range(N):
            x = rng.random()
            if x < blocked:
                grid[r][c] = "#"
            elif x < blocked + density:
                letter = rng.choice("BYRG")
                if room[letter]:
                    room[letter] -= 1
                    grid[r][c] = letter
    for name, (r, c) in CENTRE_CELLS.items():
        grid[r][c] = COLORS[name]
    return ["".join(row) for row in grid]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.floats(0.0, 0.9), st.sampled_from([0.0, 0.0, 0.05]))
def test_score_agrees_with_the_reference_on_random_boards(
    seed: int, density: float, blocked: float
) -> None:
    rows = random_board(seed, density, blocked)
    sheet = score(rows)
    for name, letter in COLORS.items():
        area, free, cells = reference_score(rows, letter)
        s = sheet.colors[name]
        assert (s.area, s.free, s.total) == (area, free, area + free)
        assert s.area_cells == cells
        assert len(set(s.free_edges)) == s.free
        for (r, c), (er, ec) in s.free_edges:
            assert rows[r][c] == letter and rows[er][ec] == "."
            assert abs(r - er) + abs(c - ec) == 1


# -- moves -------------------------------------------------------------------------------------
def brute_force_moves(game: CityBlocks) -> set[tuple[str, str, tuple[Cell, ...]]]:
    """Every legal placement by trying every orientation at every translation."""
    out = set()
    if game.is_game_over():
        return out
    for color in game.colors_to_move():
        for name in game.hand(color):
            for shape in piece(name).orientations():
                for r0 in range(N):
                    for c0 in range(N):
                        cells = tuple(sorted((r0 + r, c0 + c) for r, c in shape.cells))
                        if not all(0 <= r < N and 0 <= c < N for r, c in cells):
                            continue
                        if any(game.color_at(cell) is not None for cell in cells):
                            continue
                        if not game.has_started(color) and START_CELLS[color] not in cells:
                            continue
                        out.add((color, name, cells))
    return out


def generated(game: CityBlocks) -> set[tuple[str, str, tuple[Cell, ...]]]:
    moves = game.legal_placements()
    keys = {(m.color, m.piece or "", m.cells) for m in moves}
    assert len(keys) == len(moves) == game.count_legal_placements()
    return keys


def test_first_moves_cover_the_start_corner() -> None:
    game = CityBlocks()
    assert generated(game) == brute_force_moves(game)
    assert game.count_legal_placements() == 57  # regression figure, like a perft count
    assert all((0, 0) in m.cells for m in game.legal_placements())
    assert game.legal_moves()[-1] == Move.pass_turn("blue")


def played(players: int = 4, turns: int = 24, seed: int = 11) -> CityBlocks:
    """A game after ``turns`` random turns (placing whenever possible)."""
    game = CityBlocks(players)
    rng = random.Random(seed)
    for _ in range(turns):
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
    return game


@pytest.mark.parametrize(
    ("players", "turns", "seats_checked"),
    [(4, 4, 1), (4, 24, 4), (4, 64, 4), (3, 21, 3), (3, 45, 3), (2, 70, 4)],
)
def test_generator_agrees_with_brute_force(players: int, turns: int, seats_checked: int) -> None:
    game = played(players, turns)
    for _ in range(seats_checked):
        assert generated(game) == brute_force_moves(game)
        game.push(Move.pass_turn(game.to_move))


def test_three_players_may_place_green_on_their_turn() -> None:
    game = CityBlocks(players=3)
    assert game.seats == ("blue", "yellow", "red")
    assert {m.color for m in game.legal_placements()} == {"blue", "green"}
    game.push(Move("green", "I2", [(19, 0), (18, 0)]))
    assert game.to_move == "yellow" and game.has_started("green")
    assert {m.color for m in game.legal_placements()} == {"yellow", "green"}
    with pytest.raises(IllegalMoveError, match="only the seat to move"):
        game.push(Move.pass_turn("green"))
    for _ in range(3):
        game.push(Move.pass_turn(game.to_move))
    assert game.is_game_over()


def test_illegal_moves_name_the_problem() -> None:
    game = CityBlocks()
    cases = [
        (Move("yellow", "I2", [(0, 19), (1, 19)]), "it is blue's turn"),
        (Move("blue", "I2", [(0, 0), (1, 1)]), "do not form I2"),
        (Move("blue", "I2", [(0, 0), (0, 1), (0, 2)][:2]), None),
        (Move("blue", "I3", [(0, 0), (0, 1)]), "form I2, not I3"),
        (Move("blue", "I2", [(19, 19), (19, 20)]), "outside the 20x20 board"),
        (Move("blue", "I2", [(5, 5), (5, 6)]), "must cover its start cell"),
    ]
    for move, message in cases:
        if message is None:
            assert game.is_legal(move)
            continue
        assert not game.is_legal(move)
        with pytest.raises(IllegalMoveError, match=message):
            game.push(move)
    game.push(Move("blue", "I2", [(0, 0), (0, 1)]))
    for _ in range(3):
        game.push(Move.pass_turn(game.to_move))
    with pytest.raises(IllegalMoveError, match="already placed its I2"):
        game.push(Move("blue", "I2", [(5, 5), (5, 6)]))
    with pytest.raises(IllegalMoveError, match=r"cell \(0, 1\) is not empty \(held by blue\)"):
        game.push(Move("blue", "I3", [(0, 1), (1, 1), (2, 1)]))
    with pytest.raises(IllegalMoveError, match=r"cell \(9, 10\) is not empty \(held by yellow"):
        game.push(Move("blue", "I3", [(9, 10), (8, 10), (7, 10)]))
    game.push(Move("blue", "I3", [(5, 5), (5, 6), (5, 7)]))  # anywhere now, no touching rule


def test_a_start_cell_taken_by_another_colour_shuts_that_colour_out() -> None:
    game = CityBlocks()
    game.push(Move("blue", "I2", [(0, 0), (1, 0)]))
    game.push(Move("yellow", "I2", [(0, 19), (0, 18)]))
    game.push(Move("red", "I2", [(19, 19), (18, 19)]))
    game.push(Move.pass_turn("green"))
    game.push(Move("blue", "I3", [(19, 0), (18, 0), (17, 0)]))  # on green's start cell
    assert game.to_move == "yellow"
    for _ in range(2):
        game.push(Move.pass_turn(game.to_move))
    assert game.to_move == "green" and game.must_pass()
    assert game.legal_moves() == [Move.pass_turn("green")]


def test_passes_and_the_end_of_the_game() -> None:
    game = CityBlocks()
    for color in ("blue", "yellow", "red"):
        game.push(Move.pass_turn(color))
    assert not game.is_game_over() and game.consecutive_passes == 3
    game.push(Move("green", "I2", [(19, 0), (18, 0)]))  # a placement resets the count
    assert game.consecutive_passes == 0
    for color in ("blue", "yellow", "red", "green"):
        assert not game.is_game_over()
        game.push(Move.pass_turn(color))
    assert game.is_game_over()
    assert game.legal_moves() == [] and game.legal_placements() == []
    assert game.count_legal_placements() == 0 and not game.must_pass()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.push(Move.pass_turn("blue"))
    game.pop()
    assert not game.is_game_over() and game.to_move == "green"


def test_pop_and_peek_on_an_empty_stack() -> None:
    game = CityBlocks()
    with pytest.raises(IndexError):
        game.pop()
    with pytest.raises(IndexError):
        game.peek()


@pytest.mark.parametrize("players", [4, 3, 2])
def test_random_play_outs_end_and_unwind(players: int) -> None:
    rng = random.Random(players)
    game = CityBlocks(players)
    history = [game.to_position()]
    while not game.is_game_over():
        moves = game.legal_moves()
        placements = moves[:-1]
        assert moves[-1].is_pass
        # mostly place, sometimes pass voluntarily
        move = rng.choice(placements) if placements and rng.random() < 0.9 else moves[-1]
        assert game.is_legal(move)
        game.push(move)
        assert game.peek() == move
        history.append(game.to_position())
    assert game.consecutive_passes == len(game.seats)
    rows = game.board_rows()
    for name, letter in COLORS.items():
        placed = sum(piece(p).size for p in PIECE_NAMES if p not in game.hand(name))
        assert "".join(rows).count(letter) == 1 + placed
    sheet = game.score()
    assert sheet.players == players
    assert sheet.as_dict() == score(rows, players).as_dict()
    for position in reversed(history[:-1]):
        game.pop()
        assert game.to_position() == position
    assert game.move_stack == []


def test_copy_is_independent() -> None:
    game = CityBlocks()
    game.push(Move("blue", "I2", [(0, 0), (0, 1)]))
    other = game.copy()
    other.push(Move.pass_turn("yellow"))
    assert game.to_move == "yellow" and other.to_move == "red"
    assert game.move_stack == other.move_stack[:1]
    other.pop()
    other.pop()
    assert game.board_rows()[0].startswith("BB") and other.board_rows()[0].startswith("..")


# -- moves as values ---------------------------------------------------------------------------
def test_move_values() -> None:
    m = Move("red", "V3", [(19, 19), (18, 19), (19, 18)])
    assert m.cells == ((18, 19), (19, 18), (19, 19))
    assert Move.parse(str(m)) == m and hash(Move.parse(str(m))) == hash(m)
    assert Move.parse("Y pass") == Move.pass_turn("yellow") and Move("yellow").is_pass
    with pytest.raises(UnknownNameError):
        Move("purple")
    with pytest.raises(UnknownNameError, match="City Blocks piece 'I1'"):
        Move("blue", "I1", [(0, 0)])
    with pytest.raises(ShapeError):
        Move("blue", "I2", [(0, 0), (0, 0)])
    with pytest.raises(ShapeError):
        Move("blue", None, [(0, 0)])
    for text in ("", "B", "Q I2 0,0 0,1", "B I2 0,0 0", "B I2 a,b"):
        with pytest.raises(ValueError):
            Move.parse(text)


# -- positions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [4, 3, 2])
def test_position_json_round_trip(players: int) -> None:
    game = played(players)
    game.push(Move.pass_turn(game.to_move))
    pos = game.to_position()
    assert pos.game == "cityblocks"
    assert pos.extra == {"players": players, "consecutive_passes": 1}
    again = CityBlocks.from_position(loads(dumps(pos)))
    assert again.to_position() == pos
    assert again.players == players and again.to_move == game.to_move
    assert generated(again) == generated(game)
    for name in COLORS:
        assert again.has_started(name) == game.has_started(name)


def test_position_defaults() -> None:
    game = CityBlocks.from_position(Position("cityblocks", tuple(start_rows())))
    assert game.to_position() == CityBlocks().to_position()
    two = CityBlocks.from_position(Position("cityblocks", tuple(start_rows())), players=2)
    assert two.players == 2


def _position(**changes: object) -> Position:
    pos = CityBlocks().to_position()
    fields = {
        "game": pos.game,
        "board": pos.board,
        "to_move": pos.to_move,
        "hands": pos.hands,
        "extra": pos.extra,
    }
    fields.update(changes)
    return Position(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "where", "message"),
    [
        ({"game": "blokus"}, "game", 'not "cityblocks"'),
        ({"board": tuple(start_rows()[:5])}, "board", "5 rows"),
        ({"to_move": "green", "extra": {"players": 3}}, "to_move", "does not take turns"),
        ({"extra": {"players": 5}}, "players", "2, 3 or 4"),
        ({"extra": {"consecutive_passes": 7}}, "consecutive_passes", "got 7"),
        ({"hands": {"blue": ("I2", "Q9")}}, r"hands.blue\[1\]", "not a City Blocks piece"),
        ({"hands": {"blue": ("I2", "I2")}}, r"hands.blue\[1\]", "listed twice"),
        ({"hands": {"blue": ("I2",)}}, "hands.blue", "its hand leaves 87"),
        ({"board": tuple(board(B=[(0, 0), (0, 1)])), "hands": {}}, "hands.blue", "no hand"),
    ],
)
def test_bad_positions_are_refused_with_the_field(
    changes: dict[str, object], where: str, message: str
) -> None:
    with pytest.raises(FormatError, match=f"<position>: {where}: .*{message}"):
        CityBlocks.from_position(_position(**changes))


def test_started_colour_must_hold_its_start_cell() -> None:
    rows = board(B=[(5, 5), (5, 6)])
    hands = {"blue": tuple(p for p in PIECE_NAMES if p != "I2")}
    with pytest.raises(FormatError, match=r"board\[0\]: blue has placed pieces"):
        CityBlocks.from_position(Position("cityblocks", tuple(rows), hands=hands))
